//! Statistics from resolved layouts: the fallback when a file is too large
//! to enumerate (the loader run over many seeds), and the weighted form the
//! tests use to check the enumeration.

use super::acc::{bump, Acc};
use super::engine::FailKey;
use super::weight::W;
use dgnkit_bones::{decide, level_facts_in, BonesOptions, Landmarks, MAX_LEVEL_NUMBER};
use dgnkit_loader::{LoadError, Resolved, Resolver};
use dgnkit_script::layout::Layout;

/// Adds one successful resolution with weight `w`.
pub fn add_layout(
    acc: &mut Acc,
    res: &Resolver,
    resolved: &Resolved,
    layout: &Layout,
    w: W,
    opts: &BonesOptions,
) {
    acc.success += w;
    let marks = Landmarks::of(layout, opts);
    let index_of = |rec: u32| resolved.dungeons.iter().position(|d| d.record == rec);
    for d in &resolved.dungeons {
        let a = &mut acc.dungeons[d.record as usize];
        a.exists += w;
        bump(&mut a.n, d.num_levels, w);
        bump(&mut a.depth_start, d.depth_start, w);
    }
    for l in &resolved.levels {
        let Some(d) = resolved.dungeons.get(l.dungeon as usize) else {
            continue;
        };
        let a = &mut acc.levels[l.record as usize];
        a.exists += w;
        bump(&mut a.level, l.level, w);
        bump(
            &mut a.depth,
            d.depth_start.wrapping_add(l.level.wrapping_sub(1)),
            w,
        );
        if let Some(f) = level_facts_in(layout, &marks, l.dungeon as usize, l.level, opts) {
            a.bones.add_decided(w, &f, &decide(&opts.rules, &f));
        }
    }
    for b in &resolved.branches {
        let Some(child) = resolved.dungeons.get(b.end2.0 as usize) else {
            continue;
        };
        let rec = &res.dungeons[child.record as usize];
        // The parent as the loader found it (the floating Ludios branch no
        // longer names it).
        let Some(&(_, owner)) = rec
            .incoming
            .iter()
            .find(|(_, owner)| index_of(*owner).is_some())
        else {
            continue;
        };
        let Some(parent) = index_of(owner).and_then(|i| resolved.dungeons.get(i)) else {
            continue;
        };
        let a = acc.branches.entry((owner, child.record)).or_default();
        a.exists += w;
        bump(&mut a.level, b.end1.1, w);
        bump(
            &mut a.depth,
            parent.depth_start.wrapping_add(b.end1.1.wrapping_sub(1)),
            w,
        );
        if b.end1.0 as usize == resolved.dungeons.len() {
            a.floating += w;
        }
    }
    for (di, d) in resolved.dungeons.iter().enumerate() {
        for level in 1..=d.num_levels.clamp(0, MAX_LEVEL_NUMBER) {
            if let Some(f) = level_facts_in(layout, &marks, di, level, opts) {
                let decision = decide(&opts.rules, &f);
                acc.cells
                    .entry((d.record, level))
                    .or_default()
                    .add_decided(w, &f, &decision);
                if let Some(places) = &mut acc.places {
                    let place = places.entry((di as u32, f.depth)).or_default();
                    place.bones.add_decided(w, &f, &decision);
                    place.note(d.record, level, w);
                    if let Some(l) = resolved
                        .levels
                        .iter()
                        .find(|l| l.dungeon as usize == di && l.level == level)
                    {
                        place.special(l.record, w);
                    }
                }
            }
        }
    }
}

/// Adds one failed resolution with weight `w`.
pub fn add_failure(acc: &mut Acc, err: &LoadError, w: W, example: impl FnOnce() -> String) {
    acc.fail(
        FailKey {
            code: err.code(),
            dungeon: None,
            level: None,
        },
        w,
        example,
    );
}
