//! Descriptor words: each of DESCRIPTION, ALIGNMENT, LEVELDESC and LEVALIGN
//! takes its own set (dgn_comp's "Illegal description"/"Illegal alignment"),
//! and words of other dialects are unknown.

use super::codes::*;
use super::constructs::suggest;
use super::Ctx;
use crate::dialect::{DescStmt, DescriptorError, Dialect};
use crate::model::DescInfo;
use dgnkit_grammar::{Diagnostic, Edit};

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let m = ctx.model;
    let descs = m
        .dungeons
        .iter()
        .flat_map(|d| &d.descs)
        .chain(m.levels.iter().flat_map(|l| &l.descs));
    for desc in descs {
        match desc.flags {
            Ok(_) => {}
            Err(DescriptorError::WrongStatement) => out.push(wrong_statement(ctx, desc)),
            Err(DescriptorError::Unknown) => out.push(unknown(ctx, desc)),
        }
    }
}

fn wrong_statement(ctx: &Ctx, desc: &DescInfo) -> Diagnostic {
    let word = &desc.word.text;
    let kw = desc.kind.keyword();
    let valid = desc.kind.valid_words(ctx.dialect);
    let mut d = Diagnostic::error(
        WRONG_DESCRIPTOR,
        desc.word.span,
        format!("{kw} does not take `{word}`"),
    )
    .with_label(desc.word.span, format!("{kw} takes {}", valid.join(", ")));
    let hint = match (desc.kind, word.as_str()) {
        (DescStmt::Description, "town") => {
            Some("a town is a level: use `LEVELDESC: town` after the LEVEL")
        }
        (DescStmt::Description, _) => Some("an alignment goes in `ALIGNMENT:`"),
        (DescStmt::LevelDesc, _) => Some("a level's alignment goes in `LEVALIGN:`"),
        (DescStmt::Alignment, _) => Some("a dungeon's other flags go in `DESCRIPTION:`"),
        (DescStmt::LevAlign, _) => Some("a level's other flags go in `LEVELDESC:`"),
    };
    if let Some(h) = hint {
        d = d.with_note(h);
    }
    let orig = if matches!(desc.kind, DescStmt::Alignment | DescStmt::LevAlign) {
        "Illegal alignment - ignoring!"
    } else {
        "Illegal description - ignoring!"
    };
    d.with_note(format!("{} reports \"{orig}\"", ctx.compiler_name()))
}

fn unknown(ctx: &Ctx, desc: &DescInfo) -> Diagnostic {
    let word = &desc.word.text;
    let kw = desc.kind.keyword();
    let valid = desc.kind.valid_words(ctx.dialect);
    let mut d = Diagnostic::error(
        UNKNOWN_DESCRIPTOR,
        desc.word.span,
        format!("unknown descriptor `{word}`"),
    )
    .with_label(desc.word.span, format!("{kw} takes {}", valid.join(", ")));
    let dialects = Dialect::with_descriptor(word);
    if let Some(&first) = dialects.first() {
        if desc.kind == DescStmt::Description {
            let names: Vec<&str> = dialects.iter().map(|d| d.title()).collect();
            d = d.with_note(format!(
                "`{word}` is a descriptor of {}; {}",
                names.join(" and "),
                suggest(first)
            ));
        }
    } else if let Some(best) = ctx.closest(word.as_bytes(), valid.iter().map(|w| w.as_bytes())) {
        let best = String::from_utf8_lossy(best).into_owned();
        d = d.with_fix(
            format!("replace with `{best}`"),
            vec![Edit {
                span: desc.word.span,
                replacement: best,
            }],
        );
    }
    d.with_note(format!(
        "{} reports a syntax error here",
        ctx.compiler_name()
    ))
}
