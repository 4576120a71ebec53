//! Compatibility with NetHack's own dgn_comp: constructs dgnkit accepts but
//! the original rejects, for people who still build with it. Each is a
//! `compat-*` lint; `--deny compat` makes dgnkit reject what dgn_comp
//! rejects.

use super::codes::*;
use super::Ctx;
use crate::model::ChainTarget;
use dgnkit_grammar::ast::KeywordKind;
use dgnkit_grammar::{Diagnostic, Edit, Span};

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    // Only dgn_comp reads .def; NetHack 3.7 reads dungeon.lua itself.
    if ctx.lua() {
        return;
    }
    let m = ctx.model;
    for l in &m.levels {
        if l.keyword == KeywordKind::RndChainLevel {
            out.push(
                Diagnostic::warning(
                    COMPAT_RNDCHAINLEVEL,
                    "compat-rndchainlevel",
                    l.keyword_span,
                    "RNDCHAINLEVEL is rejected by NetHack's dgn_comp",
                )
                .with_label(
                    l.keyword_span,
                    "the manual's spelling; the lexer only knows RNDCHLEVEL",
                )
                .with_fix(
                    "write RNDCHLEVEL",
                    vec![Edit {
                        span: l.keyword_span,
                        replacement: "RNDCHLEVEL".into(),
                    }],
                ),
            );
        }
        if let Some((first, name)) = l.chain.as_ref().and_then(|c| match c.target {
            ChainTarget::FirstLevel(first) => Some((first, c.name.span)),
            _ => None,
        }) {
            out.push(
                Diagnostic::warning(
                    COMPAT_CHAIN_TO_FIRST,
                    "compat-chain-to-first-level",
                    name,
                    format!("NetHack's dgn_comp cannot chain to \"{}\", the first level of its dungeon", m.level(first).name.text()),
                )
                .with_label(m.level(first).name.span, "the dungeon's first level")
                .with_note(
                    "dgn_comp's search for the chained-from level starts at the dungeon's second level and reports \
                     \"Can't locate the specified chain level.\"; dgnkit resolves it",
                )
                .with_note("to stay compatible, define another level before the one chained to"),
            );
        }
        if l.bones.is_none() {
            let insert = Span::new(l.name.span.end, l.name.span.end);
            out.push(
                Diagnostic::warning(
                    COMPAT_MISSING_BONES,
                    "compat-missing-bones",
                    l.name.span,
                    format!("level \"{}\" has no bones marker", l.name.text()),
                )
                .with_label(
                    l.name.span,
                    "a bones marker (one character, or \"none\") should follow the name",
                )
                .with_note(
                    "NetHack's dgn_comp reports a syntax error; dgnkit stores \"none\" (no bones)",
                )
                .with_fix(
                    "add \"none\"",
                    vec![Edit {
                        span: insert,
                        replacement: " \"none\"".into(),
                    }],
                ),
            );
        }
    }
    for c in ctx.file.comments.iter().filter(|c| c.trailing) {
        let mut d = Diagnostic::warning(
            COMPAT_TRAILING_COMMENT,
            "compat-trailing-comment",
            c.span,
            "comment after a statement",
        )
        .with_label(
            c.span,
            "NetHack's dgn_comp only knows comments on lines of their own",
        )
        .with_note(
            "makedefs drops lines that start with `#`; any other `#` is a syntax error in dgn_comp",
        );
        if let Some(edits) = move_comment(ctx.src, c.span) {
            d = d.with_fix("move the comment to its own line above", edits);
        }
        out.push(d);
    }
}

/// Edits that delete a trailing comment (and the blanks before it) and
/// re-insert it as a line of its own above the statement.
fn move_comment(src: &[u8], comment: Span) -> Option<Vec<Edit>> {
    let start = comment.start as usize;
    let raw = src.get(start..comment.end as usize)?;
    // A comment never spans a line break; keep a `\r` of a CRLF line out of it.
    let trimmed = raw.strip_suffix(b"\r").unwrap_or(raw);
    let text = String::from_utf8(trimmed.to_vec()).ok()?;
    let end = start + trimmed.len();
    let line_start = src
        .get(..start)?
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let blank_from = src
        .get(line_start..start)?
        .iter()
        .rposition(|b| !matches!(b, b' ' | b'\t'))
        .map_or(line_start, |p| line_start + p + 1);
    let crlf = src.get(end..).is_some_and(|rest| rest.starts_with(b"\r\n"));
    let newline = if crlf { "\r\n" } else { "\n" };
    Some(vec![
        Edit {
            span: Span::new(line_start as u32, line_start as u32),
            replacement: format!("{text}{newline}"),
        },
        Edit {
            span: Span::new(blank_from as u32, end as u32),
            replacement: String::new(),
        },
    ])
}
