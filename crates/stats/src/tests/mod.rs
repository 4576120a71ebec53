//! The enumeration against an oracle: the loader itself, driven through
//! every sequence of draws (a chance roll counts as its two outcomes, the
//! tune as one), each resolution weighted by its chance. The statistics of
//! the two must agree to rounding, on hand-built scripts that exercise every
//! rule and on random small scripts.

use super::acc::Acc;
use super::sample::{add_failure, add_layout};
use super::*;
use dgnkit_loader::rng::{Draw, Site, Source};
use dgnkit_loader::{NonPositiveRn2, Resolved, Resolver, Rules};
use dgnkit_script::{Branch, BranchType, Dungeon, Level, Range};
use proptest::prelude::*;

/// Replays a prefix of choices, then takes 0 for every new draw.
struct Replay {
    choices: Vec<u32>,
    pos: usize,
}

impl Source for Replay {
    fn rn2(&mut self, n: u32) -> u32 {
        let r = self.choices.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        r.min(n.saturating_sub(1))
    }

    fn next_raw(&mut self) -> u64 {
        let r = self.choices.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        u64::from(r)
    }
}

/// The outcomes of one draw: `(value, weight)` per class of equivalent
/// values.
fn alternatives(res: &Resolver, d: &Draw) -> Vec<(u32, W)> {
    let chance = match d.site {
        Site::Tune | Site::LuaShuffle => return vec![(0, W::ONE)],
        Site::DungeonChance { dungeon } => Some(res.dungeons[dungeon as usize].chance),
        Site::LevelChance { level } => Some(res.levels[level as usize].chance),
        _ => None,
    };
    match chance {
        Some(c) => {
            let c = c.clamp(0, 100) as u64;
            let mut v = Vec::new();
            if c > 0 {
                v.push((0, W::ratio(c, 100)));
            }
            if c < 100 {
                v.push((99, W::ratio(100 - c, 100)));
            }
            v
        }
        None => {
            // `rn2` of a negative count: |n| outcomes where the game's
            // `rn2` divides (`OneDrawModulo`), one (0) where it takes 1.
            let n = match res.rules.rn2_nonpositive {
                NonPositiveRn2::OneDrawModulo if d.n < 0 => d.n.unsigned_abs(),
                _ => d.n.max(1) as u32,
            };
            (0..n).map(|r| (r, W::ratio(1, u64::from(n)))).collect()
        }
    }
}

/// Runs the loader once on every outcome of its draws, depth first, and
/// hands each result with its weight to `f`; returns the number of runs.
fn each_outcome(
    res: &Resolver,
    wizard: bool,
    mut f: impl FnMut(Result<(), dgnkit_loader::LoadError>, &Resolved, W),
) -> u64 {
    let mut prefix: Vec<u32> = Vec::new();
    let mut out = Resolved::default();
    let mut runs = 0u64;
    loop {
        runs += 1;
        assert!(runs < 2_000_000, "oracle too large");
        let mut src = Replay {
            choices: prefix.clone(),
            pos: 0,
        };
        let mut log: Vec<Draw> = Vec::new();
        let result = res.resolve_with(&mut src, &mut log, wizard, &mut out);
        // Choices along this path, as alternative indices, and the weight.
        let alts: Vec<Vec<(u32, W)>> = log.iter().map(|d| alternatives(res, d)).collect();
        let mut w = W::ONE;
        let mut idx = Vec::with_capacity(log.len());
        for (t, d) in log.iter().enumerate() {
            let i = alts[t].iter().position(|&(v, _)| v == d.r).unwrap_or(0);
            idx.push(i);
            w = w * alts[t][i].1;
        }
        f(result, &out, w);
        // Next path: advance the last draw that has another outcome.
        let Some(t) = (0..log.len()).rev().find(|&t| idx[t] + 1 < alts[t].len()) else {
            break;
        };
        prefix = (0..t).map(|i| alts[i][idx[i]].0).collect();
        prefix.push(alts[t][idx[t] + 1].0);
    }
    runs
}

/// The method the oracles report: every outcome, no sampling error.
fn oracle_method(runs: u64) -> Method {
    Method::Sampled {
        samples: runs,
        first_seed: 0,
        rng: "oracle".into(),
        ci95: 0.0,
        reason: String::new(),
    }
}

/// Statistics by running the loader on every outcome.
fn oracle(script: &Script, rules: Rules, wizard: bool, bones: &BonesOptions) -> Stats {
    let res = Resolver::with_rules(script, rules).expect("resolver");
    let mut acc = Acc::new(&res);
    let runs = each_outcome(&res, wizard, |result, out, w| match result {
        Ok(()) => {
            let layout = out.to_layout(&res, None);
            add_layout(&mut acc, &res, out, &layout, w, bones);
        }
        Err(e) => add_failure(&mut acc, &e, w, || e.to_string()),
    });
    acc.finish(&res, oracle_method(runs))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn same_dist(what: &str, a: &Dist, b: &Dist) {
    let keys: std::collections::BTreeSet<i32> = a.keys().chain(b.keys()).copied().collect();
    for k in keys {
        let (x, y) = (
            a.get(&k).copied().unwrap_or(0.0),
            b.get(&k).copied().unwrap_or(0.0),
        );
        assert!(close(x, y), "{what} = {k}: exact {x}, oracle {y}");
    }
}

fn same_bones(what: &str, a: &BonesSummary, b: &BonesSummary) {
    assert!(
        close(a.can_load, b.can_load),
        "{what}: can_load {} vs {}",
        a.can_load,
        b.can_load
    );
    assert!(
        close(a.can_leave, b.can_leave),
        "{what}: can_leave {} vs {}",
        a.can_leave,
        b.can_leave
    );
    assert!(
        close(a.leave_chance, b.leave_chance),
        "{what}: leave_chance {} vs {}",
        a.leave_chance,
        b.leave_chance
    );
    assert!(close(a.p_bottom, b.p_bottom), "{what}: p_bottom");
    assert!(
        close(a.p_branch, b.p_branch),
        "{what}: p_branch {} vs {}",
        a.p_branch,
        b.p_branch
    );
    assert!(close(a.p_vibrating, b.p_vibrating), "{what}: p_vibrating");
    for c in 0..dgnkit_bones::rules::CATEGORIES {
        assert!(
            close(a.categories[c], b.categories[c]),
            "{what}: category {c}: {} vs {}",
            a.categories[c],
            b.categories[c]
        );
        // The oracle sees a category exactly when it has weight.
        assert_eq!(
            a.possible[c],
            b.categories[c] > 0.0,
            "{what}: category {c} possible"
        );
    }
    assert_eq!(a.leave_depth, b.leave_depth, "{what}: leave depths");
    assert_eq!(a.bottom, b.bottom, "{what}: bottom possible");
    assert_eq!(a.branch, b.branch, "{what}: branch possible");
}

fn same(exact: &Stats, oracle: &Stats) {
    assert!(
        close(exact.failure, oracle.failure),
        "failure: exact {}, oracle {}",
        exact.failure,
        oracle.failure
    );
    let fail_codes = |s: &Stats| {
        let mut m: BTreeMap<String, f64> = BTreeMap::new();
        for f in &s.failures {
            *m.entry(f.code.clone()).or_default() += f.probability;
        }
        m
    };
    let (fa, fb) = (fail_codes(exact), fail_codes(oracle));
    assert_eq!(
        fa.keys().collect::<Vec<_>>(),
        fb.keys().collect::<Vec<_>>(),
        "failure codes"
    );
    for (k, v) in &fa {
        assert!(close(*v, fb[k]), "failure {k}: {v} vs {}", fb[k]);
    }
    for (a, b) in exact.dungeons.iter().zip(&oracle.dungeons) {
        assert!(
            close(a.exists, b.exists),
            "{} exists: {} vs {}",
            a.name,
            a.exists,
            b.exists
        );
        same_dist(&format!("{} size", a.name), &a.num_levels, &b.num_levels);
        same_dist(
            &format!("{} depth_start", a.name),
            &a.depth_start,
            &b.depth_start,
        );
    }
    for (a, b) in exact.levels.iter().zip(&oracle.levels) {
        assert!(
            close(a.exists, b.exists),
            "level {} exists: {} vs {}",
            a.name,
            a.exists,
            b.exists
        );
        same_dist(&format!("level {}", a.name), &a.level, &b.level);
        same_dist(&format!("depth of {}", a.name), &a.depth, &b.depth);
        same_bones(&format!("bones of {}", a.name), &a.bones, &b.bones);
    }
    assert_eq!(exact.branches.len(), oracle.branches.len(), "branches");
    for (a, b) in exact.branches.iter().zip(&oracle.branches) {
        assert_eq!((&a.from, &a.to), (&b.from, &b.to));
        assert!(close(a.exists, b.exists), "branch to {} exists", a.to);
        same_dist(&format!("branch to {}", a.to), &a.level, &b.level);
        same_dist(&format!("depth of branch to {}", a.to), &a.depth, &b.depth);
        assert!(close(a.floating, b.floating), "branch to {} floating", a.to);
    }
    assert_eq!(exact.bones.len(), oracle.bones.len(), "bones cells");
    for (a, b) in exact.bones.iter().zip(&oracle.bones) {
        assert_eq!((&a.dungeon, a.level), (&b.dungeon, b.level));
        assert!(
            close(a.exists, b.exists),
            "{} level {} exists",
            a.dungeon,
            a.level
        );
        same_bones(
            &format!("{} level {}", a.dungeon, a.level),
            &a.bones,
            &b.bones,
        );
    }
}

fn check(script: &Script, rules: Rules, wizard: bool) {
    check_bones(script, rules, wizard, &BonesOptions::default());
}

/// Games' bones rules 9 and 13: level 1 of the first or of every dungeon,
/// and a special level without bones until an event.
fn game_bones(level_one: dgnkit_bones::LevelOneRule) -> BonesOptions {
    const EVENT: &[dgnkit_bones::EventLevel] = &[dgnkit_bones::EventLevel {
        level: "a",
        event: "a test event",
        source: "tests",
    }];
    BonesOptions::for_rules(&dgnkit_bones::BonesRules {
        level_one,
        event_levels: EVENT,
        ..dgnkit_bones::BonesRules::VANILLA
    })
}

fn check_bones(script: &Script, rules: Rules, wizard: bool, bones: &BonesOptions) -> Stats {
    let bones = bones.clone();
    let loader = Resolver::with_rules(script, rules.clone()).expect("resolver");
    // As `exact_with`: 3.7's chains by name, fixed where they can be.
    let fixed = loader
        .with_fixed_chains(wizard)
        .map(|f| f.expect("fixed chains"));
    let res = fixed.unwrap_or_else(|| loader.clone());
    let run = engine::Engine::new(&res, wizard, Budget::default())
        .with_bones(&bones)
        .run()
        .expect("enumerable");
    let acc = exact::accumulate(&res, &run, &bones, false);
    let exact = acc.finish(
        &res,
        Method::Exact {
            max_error: 0.0,
            states: 0,
            outcomes: 0,
            placement_states: 0,
        },
    );
    if let Method::Exact { max_error, .. } = exact.method {
        assert!(max_error < 1e-12, "error bound {max_error}");
    }
    let oracle = oracle(script, rules, wizard, &bones);
    same(&exact, &oracle);
    exact
}

fn dungeon(name: &str, bones: u8, base: i32, rand: i32) -> Dungeon {
    Dungeon {
        name: name.into(),
        bones,
        size: Range { base, rand },
        ..Dungeon::default()
    }
}

fn level(name: &str, bones: u8, base: i32, rand: i32) -> Level {
    Level {
        name: name.into(),
        bones,
        range: Range { base, rand },
        chance: 100,
        chain: -1,
        ..Level::default()
    }
}

fn branch(target: &str, base: i32, rand: i32) -> Branch {
    Branch {
        target: target.into(),
        range: Range { base, rand },
        chain: -1,
        ..Branch::default()
    }
}

/// A small dungeon with most of vanilla's features.
fn mini() -> Script {
    let mut top = dungeon("Top", b'D', 8, 3);
    top.levels.push(level("oracle", b'O', 2, 3));
    let mut big = level("bigrm", b'B', 4, 2);
    big.chance = 40;
    top.levels.push(big);
    let mut medusa = level("medusa", 0, -3, 2);
    medusa.chance = 100;
    top.levels.push(medusa);
    top.levels.push(level("castle", 0, -1, 0));
    top.branches.push(branch("Mines", 2, 3));
    let mut soko = branch("Soko", 1, 0);
    soko.chain = 0;
    soko.up = true;
    top.branches.push(soko);
    let mut hell = branch("Hell", 0, 0);
    hell.chain = 3;
    hell.branch_type = BranchType::NoDown;
    top.branches.push(hell);
    let mut mines = dungeon("Mines", b'M', 3, 2);
    mines.levels.push(level("minetn", b'T', 2, 2));
    mines.levels.push(level("minend", b'E', -1, 0));
    let mut soko_d = dungeon("Soko", 0, 2, 0);
    soko_d.entry = -1;
    soko_d.levels.push(level("soko1", 0, 1, 0));
    let mut hell_d = dungeon("Hell", b'G', 5, 2);
    hell_d.flags = dgnkit_script::flags::HELLISH;
    hell_d.levels.push(level("valley", b'V', 1, 0));
    hell_d.levels.push(level("fakewiz1", b'F', -3, 2));
    hell_d.levels.push(level("wizard1", 0, 2, 2));
    let mut w3 = level("wizard3", b'Y', 1, 0);
    w3.chain = 9;
    hell_d.levels.push(w3);
    hell_d.branches.push(branch("Tower", 2, 3));
    let mut tower = dungeon("Tower", b'T', 2, 0);
    tower.entry = -1;
    tower.levels.push(level("tower1", 0, 1, 0));
    Script {
        prelude: None,
        dungeons: vec![top, mines, soko_d, hell_d, tower],
    }
}

mod features;
mod given;
mod negative;
mod passes;
pub(crate) mod random;
mod rules;
mod runs;
