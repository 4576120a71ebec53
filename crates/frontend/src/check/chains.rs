//! Chains: CHAINLEVEL, RNDCHLEVEL and CHAINBRANCH must name an earlier
//! level of their own dungeon that always exists.

use super::codes::*;
use super::Ctx;
use crate::model::{ChainRef, ChainTarget, DungeonId, LevelId};
use dgnkit_grammar::{Diagnostic, Edit};

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let m = ctx.model;
    for l in &m.levels {
        if let Some(c) = &l.chain {
            chain(ctx, out, c, l.dungeon, Some(l.id), "level");
        }
    }
    for b in &m.branches {
        if let Some(c) = &b.chain {
            chain(ctx, out, c, b.dungeon, None, "branch");
        }
    }
}

fn chain(
    ctx: &Ctx,
    out: &mut Vec<Diagnostic>,
    c: &ChainRef,
    dungeon: DungeonId,
    own: Option<LevelId>,
    what: &str,
) {
    let m = ctx.model;
    let name = c.name.text();
    let dname = m.dungeon(dungeon).name.text();
    match c.target {
        ChainTarget::Level(_) | ChainTarget::FirstLevel(_) | ChainTarget::Empty => {}
        ChainTarget::Unknown => {
            let mut d = Diagnostic::error(
                CHAIN_UNKNOWN,
                c.name.span,
                format!("no level named \"{name}\" to chain this {what} to"),
            )
            .with_label(c.name.span, "not defined")
            .with_note(not_found(ctx, what));
            let own_name = own.map(|o| m.level(o).name.bytes.clone());
            let candidates = m
                .levels_of(dungeon)
                .filter(|l| Some(l.id) != own && Some(&l.name.bytes) != own_name.as_ref());
            if let Some(best) =
                ctx.closest(&c.name.bytes, candidates.map(|l| l.name.bytes.as_slice()))
            {
                let best = String::from_utf8_lossy(best).into_owned();
                d = d.with_fix(
                    format!("chain to \"{best}\""),
                    vec![Edit {
                        span: c.name.inner,
                        replacement: best,
                    }],
                );
            }
            out.push(d);
        }
        ChainTarget::Itself => out.push(
            Diagnostic::error(
                CHAIN_ITSELF,
                c.name.span,
                format!("level \"{name}\" is chained to itself"),
            )
            .with_label(
                c.name.span,
                "a chain names the level this one is placed relative to",
            )
            .with_note(if ctx.lua() {
                not_found(ctx, what)
            } else {
                format!(
                    "{} reports \"A level cannot chain to itself!\"",
                    ctx.compiler_name()
                )
            }),
        ),
        ChainTarget::Later(t) => out.push(
            Diagnostic::error(
                CHAIN_LATER,
                c.name.span,
                format!("\"{name}\" is defined after the {what} chained to it"),
            )
            .with_label(c.name.span, "not defined yet")
            .with_label(m.level(t).name.span, "defined here")
            .with_note(
                "levels are placed in file order: move this statement below the level it names",
            ),
        ),
        ChainTarget::Unreached(t) => out.push(
            Diagnostic::error(
                CHAIN_UNREACHED,
                c.name.span,
                format!("NetHack 3.7 cannot chain the first branch of \"{dname}\" to \"{name}\", the last level read before it"),
            )
            .with_label(m.level(t).name.span, "the last level of the dungeon")
            .with_note(
                "dungeon.c's search for a branch's chain level stops one level short for a dungeon's first branch, and \
                 the game panics \"Could not chain branch\"",
            )
            .with_note("list another branch first, or chain to another level"),
        ),
        ChainTarget::OtherDungeon(t) => {
            let other = m.dungeon(m.level(t).dungeon).name.text();
            out.push(
                Diagnostic::error(
                    CHAIN_OTHER_DUNGEON,
                    c.name.span,
                    format!("\"{name}\" is a level of \"{other}\", not of \"{dname}\""),
                )
                .with_label(c.name.span, "chains only look in the current dungeon")
                .with_label(m.level(t).name.span, format!("defined in \"{other}\""))
                .with_note(not_found(ctx, what)),
            );
        }
    }
    let Some(anchor) = c.target.resolved() else {
        return;
    };
    let a = m.level(anchor);
    if a.chance_value() != 100 {
        let chance_span = a.chance.map_or(a.name.span, |v| v.span);
        let d = Diagnostic::error(
            CHAIN_PROBABILISTIC,
            c.name.span,
            format!(
                "{what} chained to \"{name}\", which exists only {}% of the time",
                a.chance_value()
            ),
        )
        .with_label(chance_span, "this chance")
        .with_note(
            "when the level is not created the loader panics \"level_range: empty chain level!\"",
        );
        out.push(if ctx.lua() {
            d
        } else {
            d.with_note(format!(
                "{} reports \"{} cannot chain from a probabilistic level.\"",
                ctx.compiler_name(),
                if what == "level" { "Level" } else { "Branch" }
            ))
        });
    }
}

/// What the original program says when it finds no level to chain to.
fn not_found(ctx: &Ctx, what: &str) -> String {
    if ctx.lua() {
        // dungeon.c:851 and :920.
        format!("NetHack 3.7 panics \"Could not chain {what} ...\" at start-up")
    } else {
        format!(
            "{} reports \"Can't locate the specified chain level.\"",
            ctx.compiler_name()
        )
    }
}
