//! File structure: a file needs a dungeon, statements need a dungeon (and
//! level descriptors a level) to belong to, and settings given twice lose
//! the first value.

use super::codes::*;
use super::Ctx;
use dgnkit_grammar::ast::StmtKind;
use dgnkit_grammar::{Diagnostic, Edit, Span};

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let m = ctx.model;
    if m.dungeons.is_empty() {
        let has_statements = ctx
            .file
            .statements
            .iter()
            .any(|s| !matches!(s.kind, StmtKind::Error));
        let message = if ctx.lua() {
            "no dungeons: the `dungeon` table is empty"
        } else if has_statements {
            "no dungeons: the file has statements but no DUNGEON line"
        } else {
            "no dungeons: the file is empty"
        };
        let d = Diagnostic::error(NO_DUNGEONS, Span::new(0, 0), message);
        out.push(if ctx.lua() {
            d.with_note("a dungeon is a table like `{ name = \"The Dungeons of Doom\", bonetag = \"D\", base = 25, range = 5 }`")
        } else {
            d.with_note("a dungeon file starts with a line like `DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)`")
                .with_note("NetHack's dgn_comp stops with \"FATAL - no dungeons were defined.\"")
        });
    }
    for &i in &m.orphans.before_first_dungeon {
        let Some(stmt) = ctx.file.statements.get(i) else {
            continue;
        };
        if matches!(stmt.kind, StmtKind::Error) {
            continue;
        }
        let span = keyword_span(&stmt.kind).unwrap_or(stmt.span);
        let mut d = Diagnostic::error(BEFORE_FIRST_DUNGEON, span, "statement before the first DUNGEON")
            .with_label(span, "this belongs to no dungeon")
            .with_note("every statement applies to the dungeon started by the DUNGEON line above it; move it below one")
            .with_note("NetHack's dgn_comp writes such a statement out of the bounds of its arrays");
        if let Some(first) = m.dungeons.first() {
            d = d.with_label(first.keyword_span, "the first DUNGEON is here");
        }
        out.push(d);
    }
    for &i in &m.orphans.descs_without_level {
        let Some(stmt) = ctx.file.statements.get(i) else {
            continue;
        };
        let span = keyword_span(&stmt.kind).unwrap_or(stmt.span);
        let kw = match &stmt.kind {
            StmtKind::LevAlign(_) => "LEVALIGN",
            _ => "LEVELDESC",
        };
        out.push(
            Diagnostic::error(
                NO_LEVEL_TO_DESCRIBE,
                span,
                format!("{kw} with no level before it"),
            )
            .with_label(
                span,
                "describes the level defined just before it, and there is none",
            )
            .with_note("put it after the LEVEL it describes")
            .with_note("NetHack's dgn_comp writes it out of the bounds of its level array"),
        );
    }
    for &(i, level) in &m.orphans.descs_on_previous_dungeon {
        let Some(stmt) = ctx.file.statements.get(i) else {
            continue;
        };
        let span = keyword_span(&stmt.kind).unwrap_or(stmt.span);
        let (kw, dungeon_kw) = match &stmt.kind {
            StmtKind::LevAlign(_) => ("LEVALIGN", "ALIGNMENT"),
            _ => ("LEVELDESC", "DESCRIPTION"),
        };
        let l = m.level(level);
        let mut d = Diagnostic::warning(
            DESC_ON_PREVIOUS_DUNGEON,
            "leveldesc-before-level",
            span,
            format!("this {kw} changes \"{}\" of the previous dungeon", l.name.text()),
        )
        .with_label(span, "no level of this dungeon is defined yet")
        .with_label(l.name.span, "the most recent level, which it changes")
        .with_note("NetHack's dgn_comp applies LEVELDESC and LEVALIGN to the most recent level of the file; dgnkit does the same")
        .with_note(format!("to describe this dungeon, write `{dungeon_kw}:`"));
        // An alignment means the same for a dungeon; LEVELDESC's words differ.
        if let (StmtKind::LevAlign(_), Some(kw_span)) = (&stmt.kind, keyword_span(&stmt.kind)) {
            d = d.with_fix(
                format!("make it the {dungeon_kw} of this dungeon"),
                vec![Edit {
                    span: kw_span,
                    replacement: dungeon_kw.to_string(),
                }],
            );
        }
        out.push(d);
    }
    for d in &m.dungeons {
        overridden(
            ctx,
            out,
            d.entries.iter().map(|(i, v)| (*i, v.span)).collect(),
            "ENTRY",
            &d.name.text(),
        );
        overridden(
            ctx,
            out,
            d.protofiles.iter().map(|(i, n)| (*i, n.span)).collect(),
            "PROTOFILE",
            &d.name.text(),
        );
        overridden(
            ctx,
            out,
            d.tilesets.iter().map(|(i, _, s)| (*i, *s)).collect(),
            "TILESET",
            &d.name.text(),
        );
    }
}

fn overridden(
    ctx: &Ctx,
    out: &mut Vec<Diagnostic>,
    stmts: Vec<(usize, Span)>,
    kw: &str,
    dungeon: &str,
) {
    let Some(&(_, last_span)) = stmts.last() else {
        return;
    };
    for &(i, value_span) in &stmts[..stmts.len() - 1] {
        let Some(stmt) = ctx.file.statements.get(i) else {
            continue;
        };
        let mut d = Diagnostic::warning(
            OVERRIDDEN_SETTING,
            "overridden-setting",
            value_span,
            format!("this {kw} of \"{dungeon}\" has no effect"),
        )
        .with_label(last_span, "a later one replaces it")
        .with_note("NetHack stores only the last value");
        if let Some(line) = whole_line(ctx.src, stmt.span) {
            d = d.with_fix(
                format!("remove this {kw} line"),
                vec![Edit {
                    span: line,
                    replacement: String::new(),
                }],
            );
        }
        out.push(d);
    }
}

/// The span of a statement's line including its line ending, when the
/// statement is alone on its line (so deleting it leaves nothing behind).
pub fn whole_line(src: &[u8], span: Span) -> Option<Span> {
    let start = span.start as usize;
    let end = span.end as usize;
    let line_start = src
        .get(..start)?
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let rest = src.get(end..)?;
    let nl = rest.iter().position(|&b| b == b'\n');
    let line_end = nl.map_or(src.len(), |p| end + p + 1);
    let before_blank = src
        .get(line_start..start)?
        .iter()
        .all(|b| matches!(b, b' ' | b'\t'));
    let after_blank = src
        .get(end..nl.map_or(src.len(), |p| end + p))?
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r'));
    (before_blank && after_blank).then(|| Span::new(line_start as u32, line_end as u32))
}

/// The span of a statement's keyword.
pub fn keyword_span(kind: &StmtKind) -> Option<Span> {
    Some(match kind {
        StmtKind::Dungeon(d) => d.keyword.span,
        StmtKind::Entry(e) => e.keyword.span,
        StmtKind::Protofile(p) => p.keyword.span,
        StmtKind::Description(w)
        | StmtKind::Alignment(w)
        | StmtKind::LevelDesc(w)
        | StmtKind::LevAlign(w) => w.keyword.span,
        StmtKind::Level(l) => l.keyword.span,
        StmtKind::Branch(b) => b.keyword.span,
        StmtKind::Tileset(t) => t.keyword.span,
        StmtKind::Error => return None,
    })
}
