//! Whether things fit in their dungeon, for every size it can have:
//! a range whose base lies below the bottom makes the loader panic
//! ("level_range: base value out of range"), special levels that cannot all
//! get a level of their own make it panic ("couldn't place levels"), and
//! Fort Ludios must be where its branch arrives.

use super::codes::*;
use super::geometry::{
    describe_range, entry_level, entry_value, parent_branch, relative, Positions, Sizes,
};
use super::Ctx;
use crate::model::{ChainRef, Couple, DungeonInfo, LevelId};
use dgnkit_grammar::{Diagnostic, Span};

/// Dungeons with more special levels than this are not searched for
/// placement failures (no real file comes close).
const MAX_MATCHED_LEVELS: usize = 128;

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for d in &ctx.model.dungeons {
        let Some(sizes) = Sizes::of(d, &ctx.limits) else {
            continue;
        };
        fits(ctx, out, d, &sizes);
        matching(ctx, out, d, &sizes);
        knox(ctx, out, d, &sizes);
    }
}

/// A couple the range checks accept (so its placement can be judged).
fn couple_ok(ctx: &Ctx, c: &Couple) -> bool {
    c.rand >= -1
        && i32::try_from(c.base).is_ok()
        && ctx.limits.max_level.is_none_or(|m| c.base.abs() <= m)
}

fn percent(part: u64, total: u64) -> String {
    if total == 0 {
        return "0%".into();
    }
    let p = part as f64 * 100.0 / total as f64;
    if (p - p.round()).abs() < 0.05 {
        format!("{}%", p.round())
    } else {
        format!("{p:.1}%")
    }
}

fn fits(ctx: &Ctx, out: &mut Vec<Diagnostic>, d: &DungeonInfo, sizes: &Sizes) {
    let m = ctx.model;
    let dname = d.name.text();
    // What each message is about, named only when there is a message: most
    // files have none, and the drop-in dgn_comp runs this on every build.
    let things = m
        .levels_of(d.id)
        .map(|l| ("level", &l.name, l.placement, l.chain.as_ref()))
        .chain(
            m.branches_of(d.id)
                .map(|b| ("branch to", &b.target, b.placement, b.chain.as_ref())),
        );
    for (kind, name, c, chain) in things {
        if !couple_ok(ctx, &c) {
            continue;
        }
        let what = || format!("{kind} \"{}\"", name.text());
        match chain {
            None => absolute_fits(out, &dname, sizes, what, &c),
            Some(chain) => chained_fits(ctx, out, &dname, sizes, what, &c, chain),
        }
    }
}

fn absolute_fits(
    out: &mut Vec<Diagnostic>,
    dname: &str,
    sizes: &Sizes,
    what: impl Fn() -> String,
    c: &Couple,
) {
    if c.base == 0 {
        return;
    }
    let need = c.base.abs();
    let total = sizes.total();
    let ok = sizes.count_at_least(need);
    if ok == total {
        return;
    }
    let what = what();
    let level = if c.base > 0 {
        format!("level {}", c.base)
    } else {
        format!("level {} from the bottom", -c.base)
    };
    if ok == 0 {
        out.push(
            Diagnostic::error(
                NEVER_FITS,
                c.base_span,
                format!(
                    "{what} can never fit: \"{dname}\" has only {} levels",
                    sizes.describe()
                ),
            )
            .with_label(
                c.base_span,
                format!("{level} needs a dungeon of at least {need} levels"),
            )
            .with_note(
                "NetHack's loader panics \"level_range: base value out of range\" for every game",
            ),
        );
    } else if ok < total {
        let failing = describe_range(sizes.min(), (need - 1).min(sizes.max()));
        out.push(
            Diagnostic::warning(
                MAY_NOT_FIT,
                "range-may-not-fit",
                c.base_span,
                format!(
                    "{what} fits only when \"{dname}\" has at least {need} levels: it fails for sizes {failing} \
                     (probability {}/{total} = {})",
                    total - ok,
                    percent(total - ok, total)
                ),
            )
            .with_label(c.base_span, format!("{level}; the dungeon has {} levels, equally likely", sizes.describe()))
            .with_note("in those games NetHack's loader panics \"level_range: base value out of range\" at start-up"),
        );
    }
}

fn chained_fits(
    ctx: &Ctx,
    out: &mut Vec<Diagnostic>,
    dname: &str,
    sizes: &Sizes,
    what: impl Fn() -> String,
    c: &Couple,
    chain: &ChainRef,
) {
    let Some(anchor) = chain.target.resolved() else {
        return;
    };
    let Some(distinct) = sizes.distinct() else {
        return;
    };
    let (mut evaluated, mut failing, mut partial) = (0u64, 0u64, false);
    let mut failing_sizes: Vec<i64> = Vec::new();
    for &(s, w) in &distinct {
        let mut pos = Positions::new(ctx.model, s);
        let Some(a) = pos.level(anchor) else { continue };
        evaluated += w;
        match relative(c, a, s) {
            None => {
                failing += w;
                failing_sizes.push(s);
            }
            Some((_, false)) => {
                partial = true;
                failing_sizes.push(s);
            }
            Some((_, true)) => {}
        }
    }
    if evaluated == 0 || failing_sizes.is_empty() {
        return;
    }
    let (what, aname) = (what(), chain.name.text());
    let offset = if c.base >= 0 {
        format!("{} below", c.base)
    } else {
        format!("{} above", -c.base)
    };
    if failing == evaluated && !partial {
        out.push(
            Diagnostic::error(
                NEVER_FITS,
                c.base_span,
                format!("{what} can never fit: {offset} \"{aname}\" is outside \"{dname}\""),
            )
            .with_label(c.base_span, format!("offset from \"{aname}\""))
            .with_note(format!("\"{dname}\" has {} levels", sizes.describe()))
            .with_note(
                "NetHack's loader panics \"level_range: base value out of range\" for every game",
            ),
        );
        return;
    }
    let when = if partial {
        format!(
            "in some layouts (when \"{aname}\" lies too close to the {} of the dungeon)",
            if c.base >= 0 { "bottom" } else { "top" }
        )
    } else {
        let total = sizes.total();
        format!(
            "when \"{dname}\" has {} levels (probability {}/{total} = {})",
            describe_sizes(&failing_sizes),
            failing,
            percent(failing, total)
        )
    };
    out.push(
        Diagnostic::warning(MAY_NOT_FIT, "range-may-not-fit", c.base_span, format!("{what} falls outside the dungeon {when}"))
            .with_label(c.base_span, format!("{offset} \"{aname}\""))
            .with_note("in those games NetHack's loader panics \"level_range: base value out of range\" at start-up"),
    );
}

fn describe_sizes(sizes: &[i64]) -> String {
    match (sizes.first(), sizes.last()) {
        (Some(&a), Some(&b)) if (b - a) as usize + 1 == sizes.len() => describe_range(a, b),
        _ => sizes
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Greedy assignment of distinct levels to intervals (exact for intervals:
/// earliest deadline first). Returns the first level left without a slot.
fn assign(mut items: Vec<(LevelId, (i64, i64))>) -> Option<(LevelId, (i64, i64))> {
    items.sort_by_key(|&(id, (lo, hi))| (hi, lo, id));
    let top = items
        .iter()
        .map(|(_, (_, hi))| *hi)
        .max()
        .unwrap_or(0)
        .max(0) as usize;
    let mut used = vec![false; top + 1];
    for (id, (lo, hi)) in items {
        let slot = (lo.max(1)..=hi).find(|&p| used.get(p as usize).is_some_and(|u| !u));
        match slot {
            Some(p) => used[p as usize] = true,
            None => return Some((id, (lo, hi))),
        }
    }
    None
}

fn matching(ctx: &Ctx, out: &mut Vec<Diagnostic>, d: &DungeonInfo, sizes: &Sizes) {
    let m = ctx.model;
    if d.levels.len() < 2 || d.levels.len() > MAX_MATCHED_LEVELS {
        return;
    }
    let Some(distinct) = sizes.distinct() else {
        return;
    };
    let placeable = |id: LevelId| {
        let l = m.level(id);
        couple_ok(ctx, &l.placement)
            && l.chain
                .as_ref()
                .is_none_or(|c| c.target.resolved().is_some())
    };
    let mut fail_all: Vec<(i64, u64, LevelId, (i64, i64))> = Vec::new();
    let mut fail_must = 0usize;
    for &(s, w) in &distinct {
        let mut pos = Positions::new(m, s);
        let mut all = Vec::new();
        let mut must = Vec::new();
        for &id in &d.levels {
            let l = m.level(id);
            if !placeable(id) || l.chance_value() < 1 {
                continue;
            }
            let Some(range) = pos.level(id) else { continue };
            all.push((id, range));
            if l.chance_value() >= 100 {
                must.push((id, range));
            }
        }
        if let Some((id, range)) = assign(all) {
            fail_all.push((s, w, id, range));
        }
        if assign(must).is_some() {
            fail_must += 1;
        }
    }
    let Some(&(_, _, culprit, (lo, hi))) = fail_all.first() else {
        return;
    };
    let c = m.level(culprit);
    let mut pos = Positions::new(m, fail_all[0].0);
    let competitors: Vec<Span> = d
        .levels
        .iter()
        .filter(|&&id| id != culprit)
        .filter(|&&id| pos.level(id).is_some_and(|(a, b)| a <= hi && lo <= b))
        .take(6)
        .map(|&id| m.level(id).placement.span)
        .collect();
    let sizes_text = describe_sizes(&fail_all.iter().map(|f| f.0).collect::<Vec<_>>());
    let mut diag = if fail_must == distinct.len() {
        Diagnostic::error(
            NEVER_PLACED,
            c.placement.span,
            format!("the special levels of \"{}\" can never all be placed", d.name.text()),
        )
        .with_note("even without the optional levels, two special levels would need the same level in every game")
        .with_note("NetHack's loader panics \"init_dungeon: couldn't place levels\"")
    } else {
        let weight: u64 = fail_all.iter().map(|f| f.1).sum();
        let total = sizes.total();
        let mut d2 = match failure_probability(ctx, d, &distinct, total) {
            Some(p) => Diagnostic::warning(
                PLACEMENT_MAY_FAIL,
                "placement-may-fail",
                c.placement.span,
                format!(
                    "the special levels of \"{}\" cannot all be placed in {} of games",
                    d.name.text(),
                    percent_f(p)
                ),
            ),
            None => Diagnostic::warning(
                PLACEMENT_MAY_FAIL,
                "placement-may-fail",
                c.placement.span,
                format!(
                    "the special levels of \"{}\" cannot always all be placed",
                    d.name.text()
                ),
            ),
        };
        let with = if fail_must == 0 {
            "with every optional level present, "
        } else {
            ""
        };
        d2 = d2.with_note(format!(
            "{with}they do not fit when the dungeon has {sizes_text} levels ({} of its sizes)",
            percent(weight, total)
        ));
        d2.with_note(
            "NetHack's loader panics \"init_dungeon: couldn't place levels\" in those games",
        )
    };
    diag = diag.with_label(
        c.placement.span,
        format!(
            "\"{}\" finds no free level in {}",
            c.name.text(),
            describe_range(lo, hi)
        ),
    );
    for s in competitors {
        diag = diag.with_label(s, "competes for the same levels");
    }
    out.push(diag);
}

/// The probability that placement fails, over dungeon sizes and the
/// optional levels' chance rolls, when there are few enough outcomes to
/// enumerate (at most 8 optional levels).
fn failure_probability(
    ctx: &Ctx,
    d: &DungeonInfo,
    sizes: &[(i64, u64)],
    total: u64,
) -> Option<f64> {
    let m = ctx.model;
    let ok = |id: LevelId| {
        let l = m.level(id);
        couple_ok(ctx, &l.placement)
            && l.chain
                .as_ref()
                .is_none_or(|c| c.target.resolved().is_some())
    };
    let optional: Vec<LevelId> = d
        .levels
        .iter()
        .copied()
        .filter(|&id| ok(id) && (1..100).contains(&m.level(id).chance_value()))
        .collect();
    if optional.len() > 8 || sizes.len() * (1 << optional.len()) * d.levels.len() > 1 << 20 {
        return None;
    }
    let mut failing = 0.0;
    for &(s, w) in sizes {
        let mut pos = Positions::new(m, s);
        let must: Vec<(LevelId, (i64, i64))> = d
            .levels
            .iter()
            .filter(|&&id| ok(id) && m.level(id).chance_value() >= 100)
            .filter_map(|&id| pos.level(id).map(|r| (id, r)))
            .collect();
        for mask in 0u32..(1 << optional.len()) {
            let mut p = 1.0;
            let mut present = must.clone();
            for (i, &id) in optional.iter().enumerate() {
                let chance = m.level(id).chance_value() as f64 / 100.0;
                if mask & (1 << i) != 0 {
                    p *= chance;
                    if let Some(r) = pos.level(id) {
                        present.push((id, r));
                    }
                } else {
                    p *= 1.0 - chance;
                }
            }
            if assign(present).is_some() {
                failing += p * w as f64;
            }
        }
    }
    Some(failing / total as f64)
}

fn percent_f(p: f64) -> String {
    let pct = p * 100.0;
    if (pct - pct.round()).abs() < 0.05 {
        format!("{}%", pct.round())
    } else {
        format!("{pct:.1}%")
    }
}

fn knox(ctx: &Ctx, out: &mut Vec<Diagnostic>, d: &DungeonInfo, sizes: &Sizes) {
    if !ctx.game.knox_needs_branch {
        // EvilHack floats Ludios only when a branch reaches it
        // (`dungeon.c:989-993`): an unreachable knox is just a level.
        return;
    }
    let m = ctx.model;
    for l in m
        .levels_of(d.id)
        .filter(|l| l.name.bytes.eq_ignore_ascii_case(b"knox"))
    {
        if l.first_of_name
            .is_some_and(|f| m.level(f).name.bytes.eq_ignore_ascii_case(b"knox"))
        {
            continue;
        }
        let note = "NetHack finds the level named knox (Fort Ludios) and the branch arriving at it; without one it \
                    aborts \"insert_branch: not found\"";
        let Some(parent) = parent_branch(m, d.id) else {
            if d.id.0 == 0 {
                out.push(
                    Diagnostic::error(KNOX_UNREACHABLE, l.name.span, "no branch can arrive at \"knox\"")
                        .with_label(l.name.span, "in the first dungeon, which no branch leads to")
                        .with_note(note)
                        .with_note("put knox in a dungeon of its own and branch to it (vanilla: a portal to \"Fort Ludios\")"),
                );
            }
            continue;
        };
        let Some(distinct) = sizes.distinct() else {
            continue;
        };
        let e = entry_value(ctx, d.id);
        let (mut always, mut never) = (true, true);
        for &(s, _) in &distinct {
            let mut pos = Positions::new(m, s);
            let Some((lo, hi)) = pos.level(l.id) else {
                continue;
            };
            let entry = entry_level(e, s);
            let hit = (lo..=hi).contains(&entry);
            never &= !hit;
            always &= hit && lo == hi;
        }
        let entry_text = match e {
            0 => "level 1 (no ENTRY)".to_string(),
            e if e < 0 => format!("ENTRY {e}"),
            e => format!("level {e}"),
        };
        if never {
            out.push(
                Diagnostic::error(
                    KNOX_UNREACHABLE,
                    l.placement.span,
                    "no branch can arrive at \"knox\"",
                )
                .with_label(
                    l.placement.span,
                    format!("never the level where \"{}\" is entered", d.name.text()),
                )
                .with_label(parent.target.span, format!("arrives at {entry_text}"))
                .with_note(note),
            );
        } else if !always {
            out.push(
                Diagnostic::warning(
                    KNOX_SOMETIMES,
                    "knox-reachability",
                    l.placement.span,
                    "\"knox\" is not always where its branch arrives",
                )
                .with_label(
                    l.placement.span,
                    format!("can lie elsewhere than the entry ({entry_text})"),
                )
                .with_label(parent.target.span, "the branch into this dungeon")
                .with_note(note),
            );
        }
    }
}
