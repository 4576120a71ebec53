//! Branches: each leads to a dungeon defined later in the file, each
//! dungeon but the first is reached by exactly one (SLASH'EM: at least one),
//! optional dungeons lead nowhere, and the type and direction words are
//! valid.

use super::codes::*;
use super::Ctx;
use crate::model::BranchInfo;
use dgnkit_grammar::{Diagnostic, Edit, Span};
use dgnkit_script::BranchType;
use std::collections::HashMap;

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let m = ctx.model;
    let multiple = ctx.dialect.features().multiple_branches;
    // The branch the loader uses for each target: the first that leads
    // forward to it.
    let mut first_forward: HashMap<&[u8], &BranchInfo> = HashMap::new();
    for b in &m.branches {
        let from = m.dungeon(b.dungeon);
        words(ctx, out, b);
        match b.target_dungeon {
            None => {
                let mut d = Diagnostic::error(
                    BRANCH_UNDEFINED,
                    b.target.span,
                    format!("no dungeon named \"{}\"", b.target.text()),
                )
                .with_label(b.target.span, "this branch leads nowhere")
                .with_note(
                    "a branch's target must be the name of a DUNGEON of this file, byte for byte",
                );
                if let Some(best) = ctx.closest(
                    &b.target.bytes,
                    m.dungeons.iter().map(|d| d.name.bytes.as_slice()),
                ) {
                    let best = String::from_utf8_lossy(best).into_owned();
                    d = d.with_fix(
                        format!("branch to \"{best}\""),
                        vec![Edit {
                            span: b.target.inner,
                            replacement: best,
                        }],
                    );
                }
                out.push(d);
            }
            Some(_) if from.name.bytes == b.target.bytes => {
                out.push(
                    Diagnostic::error(
                        BRANCH_TO_SELF,
                        b.target.span,
                        format!("\"{}\" branches to itself", from.name.text()),
                    )
                    .with_label(b.target.span, "the dungeon this branch is in")
                    .with_label(from.name.span, "defined here"),
                );
            }
            Some(t) if t < b.dungeon && !multiple => {
                out.push(
                    Diagnostic::error(BRANCH_REVERSE, b.target.span, format!("branch back to \"{}\", which is defined earlier", b.target.text()))
                        .with_label(b.target.span, "defined before this dungeon")
                        .with_label(m.dungeon(t).name.span, "defined here")
                        .with_note(
                            "the loader builds dungeons in file order and connects each through a branch of an earlier \
                             dungeon; list the target dungeon after this one",
                        )
                        .with_note(format!("{} reports \"Reverse branching not allowed.\"", ctx.compiler_name()))
                        .with_note(format!("SLASH'EM allows it: {}", super::constructs::suggest(crate::dialect::Dialect::Slashem))),
                );
            }
            Some(_) => {}
        }
        if !multiple && b.target_dungeon.is_some() {
            if let Some(first) = first_forward.get(b.target.bytes.as_slice()) {
                out.push(
                    Diagnostic::error(BRANCH_SECOND, b.target.span, format!("a second branch to \"{}\"", b.target.text()))
                        .with_label(first.target.span, "the first branch to it")
                        .with_note("the loader connects each dungeon through the first branch naming it; this one is never built")
                        .with_note(format!("SLASH'EM allows several: {}", super::constructs::suggest(crate::dialect::Dialect::Slashem))),
                );
            }
        }
        if b.target_dungeon.is_some_and(|t| b.dungeon < t) {
            first_forward.entry(b.target.bytes.as_slice()).or_insert(b);
        }
        if let Some(c) = from.chance {
            if (1..100).contains(&c.value) {
                out.push(
                    Diagnostic::error(
                        BRANCH_FROM_OPTIONAL,
                        b.keyword_span,
                        format!("branch from \"{}\", which exists only {}% of the time", from.name.text(), c.value),
                    )
                    .with_label(c.span, "this chance")
                    .with_note(format!(
                        "when \"{}\" is not created its branches are skipped and \"{}\" cannot be connected",
                        from.name.text(),
                        b.target.text()
                    ))
                    .with_note("the manual forbids branches from optional dungeons; NetHack's dgn_comp does not check"),
                );
            }
        }
    }
    for d in m.dungeons.iter().skip(1) {
        // NetHack 3.7's Tutorial: no branch leads there by design.
        if d.lua.unconnected.is_some() {
            continue;
        }
        let canonical = d.first_of_name.unwrap_or(d.id);
        if d.first_of_name.is_some() && !ctx.dialect.features().alternates {
            // A duplicate: reported as such, it cannot be reached by name.
            continue;
        }
        let incoming = &m.dungeon(canonical).incoming;
        if incoming.iter().any(|&b| m.branch(b).dungeon < d.id) {
            continue;
        }
        let later = incoming
            .iter()
            .map(|&b| m.branch(b))
            .find(|b| b.dungeon != d.id);
        let mut diag = Diagnostic::error(DUNGEON_UNREACHED, d.name.span, format!("no branch leads to \"{}\"", d.name.text()))
            .with_label(d.name.span, "unreachable")
            .with_note("every dungeon but the first needs a BRANCH (or CHAINBRANCH) to it in an earlier dungeon")
            .with_note("NetHack's loader panics \"find_branch: can't find ...\" when it builds this dungeon");
        if let Some(l) = later {
            diag = diag.with_label(l.target.span, "only a later dungeon branches here");
        }
        out.push(diag);
    }
}

fn words(ctx: &Ctx, out: &mut Vec<Diagnostic>, b: &BranchInfo) {
    if let (None, Some(w)) = (b.branch_type, &b.type_word) {
        let mut d = Diagnostic::error(
            BAD_BRANCH_TYPE,
            w.span,
            format!("unknown branch type `{}`", w.text),
        )
        .with_label(w.span, "stair, no_up, no_down or portal");
        if let Some(best) = ctx.closest(
            w.text.as_bytes(),
            ["stair", "no_up", "no_down", "portal"]
                .iter()
                .map(|s| s.as_bytes()),
        ) {
            let best = String::from_utf8_lossy(best).into_owned();
            d = d.with_fix(
                format!("replace with `{best}`"),
                vec![Edit {
                    span: w.span,
                    replacement: best,
                }],
            );
        }
        out.push(d.with_note(format!(
            "{} reports a syntax error here",
            ctx.compiler_name()
        )));
    }
    if let (Some(BranchType::Portal), Some(w)) = (b.branch_type, &b.direction_word) {
        let mut d = Diagnostic::warning(
            PORTAL_DIRECTION,
            "portal-direction",
            w.span,
            format!("a portal has no direction (`{}`)", w.text),
        )
        .with_label(w.span, "ignored for portals")
        .with_note("NetHack stores the direction but a magic portal leads both ways");
        // In a .def statement the direction follows the type; a Lua
        // field is removed with its key, which the word's span does not cover.
        if !ctx.lua() {
            let start = b.type_word.as_ref().map_or(w.span.start, |t| t.span.end);
            d = d.with_fix(
                "remove the direction",
                vec![Edit {
                    span: Span::new(start, w.span.end),
                    replacement: String::new(),
                }],
            );
        }
        out.push(d);
    }
}
