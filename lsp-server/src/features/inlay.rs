//! Inlay hints after each couple: the levels (and depths) a special level or
//! branch can land on, and the depth at which a dungeon starts.

use crate::db;
use crate::facts::{self, Place};
use crate::state::DocView;
use dgnkit_grammar::Span;
use tower_lsp_server::ls_types::{InlayHint, InlayHintKind, InlayHintLabel, Range};

fn label(levels: &Place, depths: &Place) -> Option<String> {
    let l = levels.short()?;
    let plural = if levels.bounds().is_some_and(|(a, b)| a != b) {
        "levels"
    } else {
        "level"
    };
    match depths.short() {
        Some(d) if d != l => Some(format!("{plural} {l}, depth {d}")),
        _ => Some(format!("{plural} {l}")),
    }
}

pub fn hints(view: DocView<'_>, range: Range) -> Vec<InlayHint> {
    let model = view.model();
    let geo = db::geometry(view.db, view.file);
    let stats = view.stats().ok();
    let mut out: Vec<(Span, String)> = Vec::new();
    for d in &model.dungeons {
        let (_, start, _) = facts::dungeon(model, geo, stats, d.id);
        if let Some(s) = start.short() {
            out.push((d.size.span, format!("level 1 at depth {s}")));
        }
    }
    for l in &model.levels {
        let w = facts::level(model, geo, stats, l.id);
        if let Some(text) = label(&w.level, &w.depth) {
            out.push((l.placement.span, text));
        }
    }
    for b in &model.branches {
        let w = facts::branch(model, geo, stats, b);
        if let Some(text) = label(&w.level, &w.depth) {
            out.push((b.placement.span, text));
        }
    }
    out.sort_by_key(|(s, _)| s.end);
    out.into_iter()
        .filter_map(|(span, text)| {
            let position = view
                .range(view.to_real(Span::new(span.end, span.end)))
                .start;
            let inside = position >= range.start && position <= range.end;
            inside.then_some(InlayHint {
                position,
                label: InlayHintLabel::String(text),
                kind: Some(InlayHintKind::TYPE),
                text_edits: None,
                tooltip: None,
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
        })
        .collect()
}
