//! What NetHack's loader assumes beyond the language: dungeons it looks up
//! by name, and chain indices that an optional dungeon shifts.

use super::codes::*;
use super::Ctx;
use dgnkit_grammar::Diagnostic;

/// Dungeons NetHack's C code finds by name (`dname_to_dnum`), in the order
/// its loader looks them up.
pub const HARDWIRED_DUNGEONS: [&str; 4] =
    ["The Quest", "Sokoban", "The Gnomish Mines", "Vlad's Tower"];

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let m = ctx.model;
    if ctx.game.fixed_tables && !m.dungeons.is_empty() {
        let missing: Vec<&str> = HARDWIRED_DUNGEONS
            .iter()
            .copied()
            .filter(|n| m.dungeon_by_name(n.as_bytes()).is_none())
            .collect();
        if !missing.is_empty() {
            let first = &m.dungeons[0];
            let list = missing
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", ");
            out.push(
                Diagnostic::warning(
                    MISSING_HARDWIRED,
                    "missing-hardwired-dungeon",
                    first.name.span,
                    format!("no dungeon named {list}, which NetHack looks up by name"),
                )
                .with_label(first.name.span, "this file's dungeons")
                .with_note(format!(
                    "NetHack's loader aborts \"Couldn't resolve dungeon number for name \\\"{}\\\".\"",
                    missing[0]
                ))
                .with_note("a translated or reworked file needs the matching change in the game's C code"),
            );
        }
    }
    // Chains are file-wide level indices; a skipped optional dungeon's
    // levels are not counted, so every later chain shifts.
    // The first chain of each dungeon, then of each dungeon or any later one.
    let mut first_chain_from: Vec<Option<dgnkit_grammar::Span>> = vec![None; m.dungeons.len() + 1];
    for (i, later) in m.dungeons.iter().enumerate().rev() {
        let level = m
            .levels_of(later.id)
            .find_map(|l| l.chain.as_ref().map(|c| c.name.span));
        let branch = m
            .branches_of(later.id)
            .find_map(|b| b.chain.as_ref().map(|c| c.name.span));
        let own = match (level, branch) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        first_chain_from[i] = own.or(first_chain_from[i + 1]);
    }
    for (i, d) in m.dungeons.iter().enumerate() {
        let Some(chance) = d.chance else { continue };
        if !(1..100).contains(&chance.value) || d.levels.is_empty() {
            continue;
        }
        let Some(chain_span) = first_chain_from[i + 1] else {
            continue;
        };
        out.push(
            Diagnostic::warning(
                OPTIONAL_BEFORE_CHAIN,
                "optional-dungeon-before-chain",
                chance.span,
                format!("optional dungeon \"{}\" comes before chained levels or branches", d.name.text()),
            )
            .with_label(chain_span, "this chain is stored as an index into the file's levels")
            .with_note(format!(
                "when \"{}\" is not created ({}% of games), NetHack's loader skips its {} without counting them, so later \
                 chains resolve to the wrong level (or panic \"empty chain level\")",
                d.name.text(),
                100 - chance.value,
                super::plural(d.levels.len() as u64, "level")
            ))
            .with_note("move the optional dungeon after the dungeons that use chains"),
        );
    }
}
