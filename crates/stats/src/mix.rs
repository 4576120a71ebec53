//! The statistics of a `dungeon.lua` that draws before it sets `dungeon`:
//! each outcome of its draws is a script of its own, with its chance
//! ([`dgnkit_script::Prelude`]); the file's statistics are those of the
//! outcomes, weighed by their chances. The file's draws come before the
//! loader's from the same generator, so they are independent of them and
//! the mixture is exact.
//!
//! Dungeons and special levels are the file's records: when every outcome
//! has the same records (xNetHack's: only the lairs' names swap), entry `i`
//! is record `i` of every outcome, named by its names in the outcomes
//! ("baalz or geryon"), so that everything that reads the statistics by
//! record (hovers, layout odds, bones verdicts) reads the record's. When
//! the outcomes' records differ, entries are matched by what they are
//! called: a dungeon by its name, a special level by its dungeon and name.
//! Branches are matched by their ends, bones cells by their dungeon and
//! level number (each with its occurrence among namesakes). An entry only
//! some outcomes have exists only in those.
//!
//! Given evidence, each outcome's statistics are conditional on it, so
//! each weighs its chance times the chance that it loads and meets the
//! evidence (Bayes: the outcomes' chances given the evidence); the
//! evidence names the records of the file's own script, and reaches each
//! outcome by index or by name as above ([`crate::Evidence::for_outcome`]).

use crate::{
    BonesStat, BonesSummary, BranchStat, Dist, DungeonStat, FailureStat, GivenResult, LevelStat,
    Method, PlaceStat, Places, Stats,
};
use std::collections::BTreeMap;

/// Mixes `parts` (each outcome's chance and statistics). `parts` is not
/// empty; a single part is returned as it is.
pub fn stats(mut parts: Vec<(f64, Stats)>) -> Stats {
    if parts.len() == 1 {
        return parts.remove(0).1;
    }
    // Everything in a part is conditional on its loader succeeding (and
    // on the evidence).
    let success: Vec<f64> = parts
        .iter()
        .map(|(p, s)| weight(*p, s.failure, s.given.as_ref()))
        .collect();
    let given = given(parts.iter().map(|(p, s)| (*p, s.failure, s.given.as_ref())));
    let failure = parts.iter().map(|(p, s)| p * s.failure).sum::<f64>();
    let mut failures: Vec<FailureStat> = Vec::new();
    for (p, s) in &parts {
        for f in &s.failures {
            match failures
                .iter_mut()
                .find(|g| g.code == f.code && g.dungeon == f.dungeon && g.level == f.level)
            {
                Some(g) => g.probability += p * f.probability,
                None => failures.push(FailureStat {
                    probability: p * f.probability,
                    ..f.clone()
                }),
            }
        }
    }
    let method = method(parts.iter().map(|(_, s)| &s.method));
    let dungeons = merge(
        &parts,
        &success,
        |s| &s.dungeons,
        by_record(
            &parts,
            |s| s.dungeons.len(),
            |d: &DungeonStat| d.name.clone(),
        ),
        |d| d.exists,
        |items| DungeonStat {
            name: names(items.iter().map(|(_, d)| d.name.as_str())),
            exists: 0.0,
            num_levels: dist(items.iter().map(|(w, d)| (*w, &d.num_levels))),
            depth_start: dist(items.iter().map(|(w, d)| (*w, &d.depth_start))),
        },
        |d, e| d.exists = e,
    );
    let levels = merge(
        &parts,
        &success,
        |s| &s.levels,
        by_record(
            &parts,
            |s| s.levels.len(),
            |l: &LevelStat| format!("{}\u{0}{}", l.dungeon, l.name),
        ),
        |l| l.exists,
        |items| LevelStat {
            name: names(items.iter().map(|(_, l)| l.name.as_str())),
            dungeon: names(items.iter().map(|(_, l)| l.dungeon.as_str())),
            exists: 0.0,
            level: dist(items.iter().map(|(w, l)| (*w, &l.level))),
            depth: dist(items.iter().map(|(w, l)| (*w, &l.depth))),
            bones: bones(items.iter().map(|(w, l)| (*w, &l.bones))),
        },
        |l, e| l.exists = e,
    );
    let branches = merge(
        &parts,
        &success,
        |s| &s.branches,
        |_, b: &BranchStat| format!("{}\u{0}{}", b.from, b.to),
        |b| b.exists,
        |items| BranchStat {
            from: items[0].1.from.clone(),
            to: items[0].1.to.clone(),
            exists: 0.0,
            level: dist(items.iter().map(|(w, b)| (*w, &b.level))),
            depth: dist(items.iter().map(|(w, b)| (*w, &b.depth))),
            floating: weighted(items.iter().map(|(w, b)| (*w, b.floating))),
        },
        |b, e| b.exists = e,
    );
    let bones_cells = merge(
        &parts,
        &success,
        |s| &s.bones,
        |_, b: &BonesStat| format!("{}\u{0}{}", b.dungeon, b.level),
        |b| b.exists,
        |items| BonesStat {
            dungeon: items[0].1.dungeon.clone(),
            level: items[0].1.level,
            exists: 0.0,
            bones: bones(items.iter().map(|(w, b)| (*w, &b.bones))),
        },
        |b, e| b.exists = e,
    );
    Stats {
        method,
        failure,
        failures,
        dungeons,
        levels,
        branches,
        bones: bones_cells,
        given,
    }
}

/// A part's weight: its chance times the chance that it loads (and meets
/// the evidence).
fn weight(p: f64, failure: f64, given: Option<&GivenResult>) -> f64 {
    match given {
        Some(g) => p * g.p_joint,
        None => p * (1.0 - failure),
    }
}

/// The evidence's chances over the parts `(chance, failure, given)`.
fn given<'a>(
    parts: impl Iterator<Item = (f64, f64, Option<&'a GivenResult>)>,
) -> Option<GivenResult> {
    let mut out: Option<GivenResult> = None;
    let mut loads = 0.0;
    for (p, failure, g) in parts {
        let g = g?;
        loads += p * (1.0 - failure);
        let o = out.get_or_insert_with(|| GivenResult {
            describe: g.describe.clone(),
            p_evidence: 0.0,
            p_joint: 0.0,
            matching: None,
            loaded: None,
        });
        o.p_joint += p * g.p_joint;
        let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
        o.matching = add(o.matching, g.matching);
        o.loaded = add(o.loaded, g.loaded);
    }
    if let Some(o) = &mut out {
        o.p_evidence = if loads > 0.0 {
            (o.p_joint / loads).min(1.0)
        } else {
            0.0
        };
    }
    out
}

/// Mixes the tables of places (`dgn xlog`, the bones of a place).
pub fn places(mut parts: Vec<(f64, Places)>) -> Places {
    if parts.len() == 1 {
        return parts.remove(0).1;
    }
    let success: Vec<f64> = parts
        .iter()
        .map(|(p, s)| weight(*p, s.failure, s.given.as_ref()))
        .collect();
    let total: f64 = success.iter().sum();
    // Record indices of each part, renamed into one list of names.
    let mut dungeon_names: Vec<String> = Vec::new();
    let mut level_names: Vec<String> = Vec::new();
    let mut at: BTreeMap<(i32, i32), Vec<(f64, PlaceStat)>> = BTreeMap::new();
    for ((_, part), s) in parts.iter().zip(&success) {
        let dmap: Vec<u32> = part
            .dungeon_names
            .iter()
            .map(|n| intern(&mut dungeon_names, n))
            .collect();
        let lmap: Vec<u32> = part
            .level_names
            .iter()
            .map(|n| intern(&mut level_names, n))
            .collect();
        for p in &part.places {
            let mut p = p.clone();
            for (r, _) in &mut p.dungeons {
                *r = dmap.get(*r as usize).copied().unwrap_or(*r);
            }
            for (r, _) in &mut p.specials {
                *r = lmap.get(*r as usize).copied().unwrap_or(*r);
            }
            at.entry((p.dnum, p.depth))
                .or_default()
                .push((s * p.exists, p));
        }
    }
    let places = at
        .into_values()
        .map(|items| {
            let w: f64 = items.iter().map(|(w, _)| w).sum();
            let pairs = |f: &dyn Fn(&PlaceStat) -> &Vec<(u32, f64)>| -> Vec<(u32, f64)> {
                let mut m: BTreeMap<u32, f64> = BTreeMap::new();
                for (iw, p) in &items {
                    for (k, v) in f(p) {
                        *m.entry(*k).or_default() += iw * v / w.max(f64::MIN_POSITIVE);
                    }
                }
                m.into_iter().collect()
            };
            let mut levels: BTreeMap<i32, f64> = BTreeMap::new();
            for (iw, p) in &items {
                for (k, v) in &p.levels {
                    *levels.entry(*k).or_default() += iw * v / w.max(f64::MIN_POSITIVE);
                }
            }
            PlaceStat {
                dnum: items[0].1.dnum,
                depth: items[0].1.depth,
                exists: if total > 0.0 { w / total } else { 0.0 },
                dungeons: pairs(&|p| &p.dungeons),
                levels: levels.into_iter().collect(),
                specials: pairs(&|p| &p.specials),
                bones: bones(items.iter().map(|(iw, p)| (*iw, &p.bones))),
            }
        })
        .collect();
    Places {
        method: method(parts.iter().map(|(_, p)| &p.method)),
        failure: parts.iter().map(|(p, s)| p * s.failure).sum(),
        dungeon_names,
        level_names,
        places,
        given: given(parts.iter().map(|(p, s)| (*p, s.failure, s.given.as_ref()))),
    }
}

fn intern(names: &mut Vec<String>, n: &str) -> u32 {
    match names.iter().position(|x| x == n) {
        Some(i) => i as u32,
        None => {
            names.push(n.to_string());
            names.len() as u32 - 1
        }
    }
}

/// Exact when every part is, with the largest error bound and the summed
/// work; else the first sampled part's method, saying how it was mixed.
fn method<'a>(methods: impl Iterator<Item = &'a Method>) -> Method {
    let mut out: Option<Method> = None;
    for m in methods {
        out = Some(match (out, m) {
            (None, m) => m.clone(),
            (
                Some(Method::Exact {
                    max_error,
                    states,
                    outcomes,
                    placement_states,
                }),
                Method::Exact {
                    max_error: e,
                    states: s,
                    outcomes: o,
                    placement_states: p,
                },
            ) => Method::Exact {
                max_error: max_error.max(*e),
                states: states + s,
                outcomes: outcomes + o,
                placement_states: placement_states + p,
            },
            (Some(Method::Exact { .. }), sampled) => sampled.clone(),
            (Some(m), _) => m,
        });
    }
    match out {
        Some(Method::Sampled {
            samples,
            first_seed,
            rng,
            ci95,
            reason,
        }) => Method::Sampled {
            samples,
            first_seed,
            rng,
            ci95,
            reason: format!(
                "{reason}; each outcome of the file's own draws sampled apart and weighed by its chance"
            ),
        },
        Some(m) => m,
        None => Method::Exact {
            max_error: 0.0,
            states: 0,
            outcomes: 0,
            placement_states: 0,
        },
    }
}

/// Entries of every part matched by `key` (with their occurrence among
/// equal keys of a part), in order of first appearance; each merged from
/// the parts that have it, weighed by the part's success chance times the
/// entry's existence.
fn merge<T: Clone>(
    parts: &[(f64, Stats)],
    success: &[f64],
    list: impl Fn(&Stats) -> &Vec<T>,
    key: impl Fn(usize, &T) -> String,
    exists: impl Fn(&T) -> f64,
    combine: impl Fn(&[(f64, &T)]) -> T,
    set_exists: impl Fn(&mut T, f64),
) -> Vec<T> {
    let total: f64 = success.iter().sum();
    let mut order: Vec<(String, usize)> = Vec::new();
    let mut found: BTreeMap<(String, usize), Vec<(f64, &T)>> = BTreeMap::new();
    for ((_, stats), s) in parts.iter().zip(success) {
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for (i, item) in list(stats).iter().enumerate() {
            let k = key(i, item);
            let n = seen.entry(k.clone()).or_default();
            let id = (k, *n);
            *n += 1;
            if !found.contains_key(&id) {
                order.push(id.clone());
            }
            found.entry(id).or_default().push((s * exists(item), item));
        }
    }
    order
        .into_iter()
        .filter_map(|id| {
            let items = found.remove(&id)?;
            let w: f64 = items.iter().map(|(w, _)| w).sum();
            let mut out = combine(&items);
            set_exists(&mut out, if total > 0.0 { w / total } else { 0.0 });
            Some(out)
        })
        .collect()
}

/// The key of entry `i`: its place when every part has as many entries
/// (the same records), else what it is called.
fn by_record<T>(
    parts: &[(f64, Stats)],
    len: impl Fn(&Stats) -> usize,
    name: impl Fn(&T) -> String,
) -> impl Fn(usize, &T) -> String {
    let n = len(&parts[0].1);
    let aligned = parts.iter().all(|(_, s)| len(s) == n);
    move |i, item| {
        if aligned {
            format!("#{i}")
        } else {
            name(item)
        }
    }
}

/// The distinct names, in order, joined with "or".
fn names<'a>(all: impl Iterator<Item = &'a str>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for n in all {
        if !seen.contains(&n) {
            seen.push(n);
        }
    }
    seen.join(" or ")
}

fn weighted(items: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (mut sum, mut w) = (0.0, 0.0);
    for (iw, v) in items {
        sum += iw * v;
        w += iw;
    }
    if w > 0.0 {
        sum / w
    } else {
        0.0
    }
}

fn dist<'a>(items: impl Iterator<Item = (f64, &'a Dist)>) -> Dist {
    let items: Vec<(f64, &Dist)> = items.collect();
    let w: f64 = items.iter().map(|(w, _)| w).sum();
    let mut out = Dist::new();
    for (iw, d) in items {
        for (k, v) in d {
            *out.entry(*k).or_default() += if w > 0.0 { iw * v / w } else { 0.0 };
        }
    }
    out.retain(|_, v| *v > 0.0);
    out
}

fn bones<'a>(items: impl Iterator<Item = (f64, &'a BonesSummary)>) -> BonesSummary {
    let items: Vec<(f64, &BonesSummary)> = items.collect();
    let avg = |f: &dyn Fn(&BonesSummary) -> f64| weighted(items.iter().map(|(w, b)| (*w, f(b))));
    let mut decided_by: BTreeMap<String, f64> = BTreeMap::new();
    let w: f64 = items.iter().map(|(w, _)| w).sum();
    for (iw, b) in &items {
        for (k, v) in &b.decided_by {
            *decided_by.entry(k.clone()).or_default() += if w > 0.0 { iw * v / w } else { 0.0 };
        }
    }
    let leave_depth = items
        .iter()
        .filter_map(|(_, b)| b.leave_depth)
        .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)));
    let or = |f: &dyn Fn(&BonesSummary) -> (bool, bool)| {
        items
            .iter()
            .map(|(_, b)| f(b))
            .fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1))
    };
    BonesSummary {
        can_load: avg(&|b| b.can_load),
        can_leave: avg(&|b| b.can_leave),
        leave_chance: avg(&|b| b.leave_chance),
        decided_by,
        leave_depth,
        p_bottom: avg(&|b| b.p_bottom),
        p_branch: avg(&|b| b.p_branch),
        p_vibrating: avg(&|b| b.p_vibrating),
        possible: std::array::from_fn(|c| items.iter().any(|(_, b)| b.possible[c])),
        categories: std::array::from_fn(|c| avg(&|b| b.categories[c])),
        bottom: or(&|b| b.bottom),
        branch: or(&|b| b.branch),
        vibrating: or(&|b| b.vibrating),
    }
}
