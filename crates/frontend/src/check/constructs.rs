//! Constructs that only some dialects have: GnollHack's display names and
//! TILESET, SLASH'EM's branch entry levels and its rejection of ENTRY.

use super::codes::*;
use super::Ctx;
use crate::dialect::{Dialect, EntryStatement, GNOLLHACK_TILESETS};
use dgnkit_grammar::ast::StmtKind;
use dgnkit_grammar::{Diagnostic, Edit};

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let f = ctx.dialect.features();
    let m = ctx.model;
    for l in &m.levels {
        if let (Some(disp), false) = (&l.display, f.display_names) {
            out.push(
                Diagnostic::error(
                    DISPLAY_NAME,
                    disp.span,
                    format!("a display name (\"{}\") is GnollHack syntax", disp.text()),
                )
                .with_label(
                    disp.span,
                    format!(
                        "{} expects the level's file name and bones marker here",
                        ctx.compiler_name()
                    ),
                )
                .with_note(format!(
                    "the {} dialect has no display names; {}",
                    ctx.dialect.name(),
                    suggest(Dialect::GnollHack)
                )),
            );
        }
    }
    for stmt in &ctx.file.statements {
        match &stmt.kind {
            StmtKind::Tileset(t) if !f.tileset => out.push(
                Diagnostic::error(TILESET, t.keyword.span, "TILESET is GnollHack syntax")
                    .with_label(t.keyword.span, format!("not a keyword of the {} dialect", ctx.dialect.name()))
                    .with_note(suggest(Dialect::GnollHack)),
            ),
            StmtKind::Entry(e) if f.entry_statement == EntryStatement::Obsolete => out.push(
                Diagnostic::error(ENTRY_OBSOLETE, e.keyword.span, format!("ENTRY is obsolete in {}", ctx.dialect.title()))
                    .with_label(e.keyword.span, "the entry level belongs on the branch")
                    .with_note(format!(
                        "{} reports \"ENTRY is obsolete!\": write the level after the branch's direction, \
                         e.g. `BRANCH: \"Vlad's Tower\" @ (9, 5) up -1`",
                        ctx.compiler_name()
                    )),
            ),
            _ => {}
        }
    }
    if f.tileset {
        for d in &m.dungeons {
            for &(_, value, span) in &d.tilesets {
                if value.is_none_or(|v| !(0..16).contains(&v)) {
                    let words: Vec<&str> = GNOLLHACK_TILESETS.iter().map(|(w, _)| *w).collect();
                    let text =
                        String::from_utf8_lossy(ctx.src.get(span.range()).unwrap_or_default())
                            .into_owned();
                    let mut diag =
                        Diagnostic::error(BAD_TILESET, span, format!("unknown tileset `{text}`"))
                            .with_label(span, "not a GnollHack tileset")
                            .with_note(format!(
                                "TILESET takes an integer 0..15 or one of: {}",
                                words.join(", ")
                            ));
                    if let Some(best) =
                        ctx.closest(text.as_bytes(), words.iter().map(|w| w.as_bytes()))
                    {
                        let best = String::from_utf8_lossy(best).into_owned();
                        diag = diag.with_fix(
                            format!("replace with `{best}`"),
                            vec![Edit {
                                span,
                                replacement: best,
                            }],
                        );
                    }
                    out.push(diag);
                }
            }
        }
    }
    if !f.branch_entry {
        for b in &m.branches {
            if let Some(e) = b.entry {
                out.push(
                    Diagnostic::error(
                        BRANCH_ENTRY,
                        e.span,
                        "an entry level after a branch's direction is SLASH'EM syntax",
                    )
                    .with_label(
                        e.span,
                        format!(
                            "{} expects the end of the statement here",
                            ctx.compiler_name()
                        ),
                    )
                    .with_note(format!(
                        "in vanilla the entry level is the target dungeon's `ENTRY: {}`; {}",
                        e.value,
                        suggest(
                            if ctx
                                .file
                                .statements
                                .iter()
                                .any(|s| matches!(s.kind, StmtKind::Entry(_)))
                            {
                                Dialect::SlashemExtended
                            } else {
                                Dialect::Slashem
                            }
                        )
                    )),
                );
            }
        }
    }
}

/// "GnollHack's compiler accepts it: use `--dialect gnollhack`".
pub fn suggest(d: Dialect) -> String {
    format!(
        "{}'s compiler accepts it: use `--dialect {}`",
        d.title(),
        d.name()
    )
}
