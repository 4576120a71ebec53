//! The fixed limits of the target's game: how many dungeons, special levels
//! and branches, and how many levels all dungeons can have together.

use super::codes::*;
use super::geometry::Sizes;
use super::Ctx;
use dgnkit_grammar::{Diagnostic, Span};
use std::collections::HashMap;

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let m = ctx.model;
    let origin = ctx.limits_origin();
    if let Some(max) = ctx.limits.max_dungeons {
        if let Some(d) = m.dungeons.get(max as usize) {
            out.push(
                Diagnostic::error(
                    TOO_MANY_DUNGEONS,
                    d.keyword_span,
                    format!("{} dungeons; {origin} allows at most {max}", m.dungeons.len()),
                )
                .with_label(d.keyword_span, format!("the {} dungeon", super::ordinal(max as usize + 1)))
                .with_note(format!(
                    "NetHack's loader panics \"init_dungeons: too many dungeons\" at {} or more (MAXDUNGEON)",
                    max + 1
                ))
                .with_note("a variant with more room needs its `--dialect`"),
            );
        }
    }
    if let Some(max) = ctx.limits.max_levels {
        if let Some(l) = m.levels.get(max as usize) {
            out.push(
                Diagnostic::error(
                    TOO_MANY_LEVELS,
                    l.keyword_span,
                    format!("{} special levels; {origin} allows at most {max}", m.levels.len()),
                )
                .with_label(l.keyword_span, format!("the {} special level", super::ordinal(max as usize + 1)))
                .with_note("NetHack's dgn_comp stops with \"FATAL - Too many special levels defined.\" (LEV_LIMIT)")
                .with_note("a variant with more room needs its `--dialect`"),
            );
        }
    }
    if let Some(max) = ctx.limits.max_branches {
        if let Some(b) = m.branches.get(max as usize) {
            out.push(
                Diagnostic::error(
                    TOO_MANY_BRANCHES,
                    b.keyword_span,
                    format!(
                        "{} branches; {origin} allows at most {max}",
                        m.branches.len()
                    ),
                )
                .with_label(
                    b.keyword_span,
                    format!("the {} branch", super::ordinal(max as usize + 1)),
                )
                .with_note(
                    "NetHack's loader panics \"init_dungeon: too many branches\" (BRANCH_LIMIT)",
                )
                .with_note("a variant with more room needs its `--dialect`"),
            );
        }
    }
    if let Some(max) = ctx.limits.max_ledger {
        ledger(ctx, out, max);
    }
}

/// Sum of every dungeon's largest size (alternates count once, at their
/// largest): the highest ledger number the game can need.
fn ledger(ctx: &Ctx, out: &mut Vec<Diagnostic>, max: u32) {
    let m = ctx.model;
    let mut total: i64 = 0;
    let mut crossing: Option<Span> = None;
    let mut groups: HashMap<&[u8], i64> = HashMap::new();
    for d in &m.dungeons {
        let Some(sizes) = Sizes::of(d, &ctx.limits) else {
            continue;
        };
        let largest = sizes.max();
        if ctx.dialect.features().alternates {
            let g = groups.entry(d.name.bytes.as_slice()).or_insert(0);
            if largest > *g {
                total += largest - *g;
                *g = largest;
            }
        } else {
            total += largest;
        }
        if crossing.is_none() && total > i64::from(max) {
            crossing = Some(d.size.span);
        }
    }
    if let Some(span) = crossing {
        out.push(
            Diagnostic::error(
                TOO_MANY_LEVELS_IN_ALL,
                span,
                format!("the dungeons have up to {total} levels in all; the game numbers at most {max}"),
            )
            .with_label(span, format!("level {} of the game's ledger is in this dungeon", max + 1))
            .with_note(
                "level numbers across all dungeons (ledger numbers) are signed 8-bit in NetHack: level 128 becomes -128 \
                 (\"Cannot open file ... for level -128\")",
            )
            .with_note("make dungeons smaller, or check with the variant's `--dialect` if it widened the type"),
        );
    }
}
