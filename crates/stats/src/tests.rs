//! The enumeration against an oracle: the loader itself, driven through
//! every sequence of draws (a chance roll counts as its two outcomes, the
//! tune as one), each resolution weighted by its chance. The statistics of
//! the two must agree to rounding, on hand-built scripts that exercise every
//! rule and on random small scripts.

use super::acc::Acc;
use super::sample::{add_failure, add_layout};
use super::*;
use crate::loader::{NonPositiveRn2, Resolved, Resolver, Rules};
use crate::rng::{Draw, Site, Source};
use crate::script::{Branch, BranchType, Dungeon, Level, Range};
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
    mut f: impl FnMut(Result<(), crate::loader::LoadError>, &Resolved, W),
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
    for c in 0..crate::bones::rules::CATEGORIES {
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
fn game_bones(level_one: crate::bones::LevelOneRule) -> BonesOptions {
    const EVENT: &[crate::bones::EventLevel] = &[crate::bones::EventLevel {
        level: "a",
        event: "a test event",
        source: "tests",
    }];
    BonesOptions::for_rules(&crate::bones::BonesRules {
        level_one,
        event_levels: EVENT,
        ..crate::bones::BonesRules::VANILLA
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
    hell_d.flags = crate::script::flags::HELLISH;
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

#[test]
fn mini_vanilla_matches_the_loader_in_both_versions() {
    check(&mini(), Rules::native(), false);
    check(&mini(), Rules::nethack_343(), false);
    check(&mini(), Rules::native(), true);
}

#[test]
fn nethack_37_rules_match_the_loader() {
    // Every dungeon rolls its chance (100: always there), chains by name,
    // an unconnected dungeon at the end.
    let mut script = mini();
    for d in &mut script.dungeons {
        d.chance = 100;
    }
    let mut tut = dungeon("Tutorial", 0, 2, 0);
    tut.lua.unconnected = true;
    tut.levels.push(level("tut-1", 0, 1, 0));
    script.dungeons.push(tut);
    check(&script, Rules::nethack_37(), false);
    check(&script, Rules::nethack_37(), true);
}

/// `mini()` as SLASH'EM would have it: a main dungeon deeper than vanilla's
/// MAXLEVEL, entry levels on the branches (`up -1`, `no_down -2`), none on
/// the dungeons.
fn mini_slashem() -> Script {
    let mut script = mini();
    let top = &mut script.dungeons[0];
    top.size = Range { base: 34, rand: 3 };
    top.branches[1].entry = Some(-1);
    top.branches[2].entry = Some(-2);
    top.levels.push(level("deep", b'P', 33, 3));
    for d in &mut script.dungeons {
        d.entry = 0;
    }
    script.dungeons[3].branches[0].entry = Some(-1);
    script
}

#[test]
fn slashem_rules_match_the_loader() {
    // Entry from the branch, level chances in wizard mode, MAXLEVEL 50,
    // SLASH'EM's bones (level 1 of every dungeon).
    let game = dgnkit::options::Target::SlashEm.game();
    let rules = Rules {
        required_dungeons: &[],
        ..game.rules.clone()
    };
    let bones = dgnkit::options::Target::SlashEm.game().bones_options();
    check_bones(&mini_slashem(), rules.clone(), false, &bones);
    check_bones(&mini_slashem(), rules, true, &bones);
}

#[test]
fn slashem_rules_the_enumeration_does_not_follow_are_sampled() {
    let game = dgnkit::options::Target::SlashEm.game();
    let rules = Rules {
        required_dungeons: &[],
        ..game.rules.clone()
    };
    let enumerate = |script: &Script| {
        let res = Resolver::with_rules(script, rules.clone()).expect("resolver");
        engine::Engine::new(&res, false, Budget::default())
            .run()
            .map(|_| ())
            .map_err(|e| e.what)
    };
    assert_eq!(enumerate(&mini_slashem()), Ok(()));
    // A positive entry: SLASH'EM reads it from the wrong record.
    let mut positive = mini_slashem();
    positive.dungeons[0].branches[0].entry = Some(2);
    assert!(enumerate(&positive).unwrap_err().contains("positive entry"));
    // A branch back up to an earlier dungeon.
    let mut back = mini_slashem();
    back.dungeons[4].branches.push(branch("Mines", 1, 0));
    assert!(enumerate(&back).unwrap_err().contains("back up"));
}

#[test]
fn a_chance_for_every_dungeon_matches_the_loader() {
    // dNetHack: a record without a chance rolls and stays; wizard mode
    // rolls too.
    let mut script = mini();
    script.dungeons[1].chance = 60;
    let rules = Rules {
        required_dungeons: &[],
        dungeon_chance: crate::loader::DungeonChance::Every,
        wizard_skips_dungeon_chance: false,
        ..Rules::nethack_36()
    };
    check(&script, rules.clone(), false);
    check(&script, rules, true);
}

/// dNetHack's loader rules, without its hard-wired dungeons, with the
/// given inputs.
fn dnethack_rules(inputs: crate::loader::GameInputs) -> Rules {
    Rules {
        required_dungeons: &[],
        inputs,
        ..dgnkit::options::Target::DNetHack.game().rules.clone()
    }
}

/// `mini()` with three records named "Chaos Quest" (different sizes,
/// levels and a branch of their own) reached from the top, and one more
/// name with two records after them.
fn mini_alternates() -> Script {
    let mut script = mini();
    script.dungeons[0]
        .branches
        .push(branch("Chaos Quest", 3, 2));
    let mut a = dungeon("Chaos Quest", b'C', 3, 0);
    a.levels.push(level("chaosf", 0, 1, 2));
    let mut b = dungeon("Chaos Quest", b'S', 2, 1);
    b.levels.push(level("ossa1", b'O', -1, 0));
    b.branches.push(branch("Side", 1, 2));
    let mut c = dungeon("Chaos Quest", 0, 4, 0);
    c.entry = -1;
    c.levels.push(level("frst1", 0, 2, 2));
    c.branches.push(branch("Side", 2, 0));
    let mut side_a = dungeon("Side", b'X', 2, 0);
    side_a.levels.push(level("s1", 0, 1, 1));
    let side_b = dungeon("Side", b'Y', 1, 1);
    script.dungeons.extend([a, b, c, side_a, side_b]);
    script
}

#[test]
fn dnethack_alternates_match_the_loader() {
    use crate::loader::GameInputs;
    let script = mini_alternates();
    let random = dnethack_rules(GameInputs::default());
    check(&script, random.clone(), false);
    check(&script, random, true);
}

/// The chaos_quest option decides in wizard mode or in June (after the
/// draw); otherwise the draws do. One test per value, so that the
/// exhaustive comparisons (seconds each) run side by side.
fn dnethack_chaos_quest_option_matches_the_loader(chaosvar: u8) {
    use crate::loader::GameInputs;
    let script = mini_alternates();
    let forced = GameInputs {
        chaosvar,
        ..GameInputs::default()
    };
    check(&script, dnethack_rules(forced), true);
    check(&script, dnethack_rules(forced), false);
    let june = GameInputs {
        is_june: true,
        ..forced
    };
    check(&script, dnethack_rules(june), false);
}

#[test]
fn dnethack_chaos_quest_temple_matches_the_loader() {
    dnethack_chaos_quest_option_matches_the_loader(1);
}

#[test]
fn dnethack_chaos_quest_mithardir_matches_the_loader() {
    dnethack_chaos_quest_option_matches_the_loader(2);
}

#[test]
fn dnethack_chaos_quest_mordor_matches_the_loader() {
    dnethack_chaos_quest_option_matches_the_loader(3);
}

/// `mini()` with dNetHack's Quest: 5-7 levels, its locate level the record
/// before last, reached by a portal chained to "oracle".
fn mini_quest() -> Script {
    let mut script = mini();
    let mut portal = branch("The Quest", 1, 2);
    portal.chain = 0;
    portal.branch_type = BranchType::Portal;
    script.dungeons[0].branches.push(portal);
    let mut quest = dungeon("The Quest", b'Q', 5, 3);
    quest.levels.push(level("x-strt", 0, 1, 1));
    quest.levels.push(level("x-loca", b'L', 3, 1));
    quest.levels.push(level("x-goal", 0, -1, 0));
    script.dungeons.push(quest);
    script
}

#[test]
fn dnethack_quest_locate_matches_the_loader() {
    use crate::loader::GameInputs;
    for nemesis in [false, true] {
        let inputs = GameInputs {
            quest_nemesis_blibdoolpoolp: nemesis,
            ..GameInputs::default()
        };
        check(&mini_quest(), dnethack_rules(inputs), false);
        check(&mini_quest(), dnethack_rules(inputs), true);
    }
}

#[test]
fn dnethack_bones_rules_match_the_loader() {
    // No bottom, branch or portal rule; a branch level is judged by the
    // other end of the first branch ending there: in the Quest (rule 11),
    // or a no-bones level judged without branch rules (rule 12; "medusa"
    // and "castle" of the top, Sokoban's marker, "wizard1" below Hell's
    // branch to the tower).
    use crate::loader::GameInputs;
    let bones = dgnkit::options::Target::DNetHack.game().bones_options();
    let mut quest = mini_quest();
    quest.dungeons[4].entry = 1;
    let rules = dnethack_rules(GameInputs::default());
    let exact = check_bones(&quest, rules.clone(), false, &bones);
    // Both rules decide somewhere, and the bottom never does.
    for rule in [
        crate::bones::Rule::QuestBranch,
        crate::bones::Rule::BranchToNoBones,
    ] {
        assert!(
            exact
                .bones
                .iter()
                .any(|c| c.bones.possible[rule.category()]),
            "{rule} never decides"
        );
    }
    assert!(exact
        .bones
        .iter()
        .all(|c| !c.bones.possible[crate::bones::Rule::Bottom.category()]));
    check_bones(&quest, rules.clone(), true, &bones);
    check_bones(&mini_alternates(), rules.clone(), false, &bones);
    let healer = dnethack_rules(GameInputs {
        quest_nemesis_blibdoolpoolp: true,
        ..GameInputs::default()
    });
    check_bones(&mini_quest(), healer, false, &bones);
    check_bones(&mini(), Rules::nethack_36(), false, &bones);
    // Rule 10 for a Madman: the level above the locate level.
    let madman = BonesOptions {
        role: Some("Madman".into()),
        ..bones.clone()
    };
    let exact = check_bones(&quest, rules.clone(), false, &madman);
    let home = crate::bones::Rule::MadmanHome.category();
    assert!(exact.bones.iter().any(|c| c.bones.possible[home]));
    check_bones(&quest, rules, true, &madman);
}

/// The passes that follow the enumeration on a second thread
/// (`crate::follow`), and the placements searched ahead two at a time
/// (`Engine::prefetch_placements`), give, bit for bit, what they give on
/// the enumeration's own thread when no second one is at hand (with
/// evidence, too), and count the same work.
#[test]
fn the_passes_beside_the_enumeration_give_what_one_thread_does() {
    let bones = dgnkit::options::Target::DNetHack.game().bones_options();
    let rules = dnethack_rules(crate::loader::GameInputs::default());
    for script in [mini_quest(), mini_alternates(), mini_run((2, 3))] {
        let res = Resolver::with_rules(&script, rules.clone()).expect("resolver");
        let run = |alone: bool| {
            std::thread::scope(|s| {
                s.spawn(|| {
                    if alone {
                        crate::halves::alone();
                    }
                    engine::Engine::new(&res, false, Budget::default())
                        .with_bones(&bones)
                        .run()
                        .expect("enumerable")
                })
                .join()
                .expect("no panic")
            })
        };
        let (beside, here) = (run(false), run(true));
        assert_eq!(beside.placement_nodes, here.placement_nodes);
        assert_eq!(
            format!("{:?}", beside.placements),
            format!("{:?}", here.placements)
        );
        assert!(beside.core.iter().any(|m| *m != Default::default()));
        assert_eq!(beside.core, here.core);
        assert_eq!(beside.alpha, here.alpha);
        let succ = |r: &engine::Run| -> Vec<Vec<u64>> {
            r.back
                .iter()
                .zip(&r.layers)
                .map(|(b, l)| {
                    (0..l.states.len())
                        .map(|t| b.at(t).succ.v.to_bits())
                        .collect()
                })
                .collect()
        };
        assert_eq!(succ(&beside), succ(&here));
        let stats = |r: &engine::Run| {
            let acc = exact::accumulate(&res, r, &bones, true);
            format!("{:?}", acc.finish(&res, exact_method(r)))
        };
        assert_eq!(stats(&beside), stats(&here));
    }
}

/// A small top dungeon with a run of three one-level dungeons hanging off
/// it by overlapping unchained branches, each avoiding the levels the
/// others and the earlier branches took; then one more dungeon (there in
/// 60% of games) branching from the top at `last`, and the end of a branch
/// from a dungeon before the run.
fn mini_run(last: (i32, i32)) -> Script {
    let mut top = dungeon("Top", b'D', 6, 2);
    top.levels.push(level("oracle", b'O', 2, 2));
    top.levels.push(level("castle", 0, -1, 0));
    top.branches.push(branch("M", 1, 2));
    let mut soko = branch("S", 1, 0);
    soko.chain = 0;
    soko.up = true;
    top.branches.push(soko);
    top.branches.push(branch("A", 1, 3));
    top.branches.push(branch("B", 3, 3));
    top.branches.push(branch("C", 2, 3));
    top.branches.push(branch("E", last.0, last.1));
    let mut m = dungeon("M", b'M', 2, 0);
    m.levels.push(level("m1", 0, 1, 1));
    m.branches.push(branch("T", 1, 0));
    let s = dungeon("S", 0, 1, 0);
    let mut a = dungeon("A", b'X', 1, 0);
    a.levels.push(level("a1", b'A', 1, 0));
    // No bones in "B": with dNetHack's rules its parent level's bones
    // follow (rule 12).
    let b = dungeon("B", 0, 1, 0);
    let c = dungeon("C", b'Z', 1, 0);
    let mut e = dungeon("E", b'W', 2, 0);
    e.chance = 60;
    let t = dungeon("T", b'T', 1, 0);
    Script {
        prelude: None,
        dungeons: vec![top, m, s, a, b, c, e, t],
    }
}

/// A run's script against the loader: NetHack 3.6's rules and dNetHack's
/// bones rules, with and without chance rolls, and rule 9 for every
/// dungeon.
fn check_run(script: &Script) {
    use crate::bones::LevelOneRule;
    use crate::loader::GameInputs;
    let dnethack = dgnkit::options::Target::DNetHack.game().bones_options();
    for wizard in [false, true] {
        check(script, Rules::nethack_36(), wizard);
        check_bones(
            script,
            dnethack_rules(GameInputs::default()),
            wizard,
            &dnethack,
        );
    }
    check_bones(
        script,
        Rules::nethack_36(),
        false,
        &game_bones(LevelOneRule::EveryDungeon),
    );
}

/// The run of `script` as the enumeration defers it, if it does.
fn spreads_of(script: &Script, wizard: bool) -> Vec<engine::Spread> {
    let res = Resolver::with_rules(script, Rules::nethack_36()).expect("resolver");
    engine::Engine::new(&res, wizard, Budget::default())
        .run()
        .expect("enumerable")
        .spreads
}

#[test]
fn deferred_runs_of_leaf_branches_match_the_loader() {
    // "E" at the bottom lies outside the run's levels, so the run is
    // deferred; in its range it is not (and in wizard mode "E" is always
    // there, so it joins the run).
    for (last, deferred) in [((-1, 0), true), ((4, 2), false)] {
        let script = mini_run(last);
        for wizard in [false, true] {
            assert_eq!(
                !spreads_of(&script, wizard).is_empty(),
                deferred || wizard,
                "{last:?}, wizard {wizard}"
            );
        }
        check_run(&script);
    }
}

/// `mini_run` with Fort Ludios' shape first in the run (one level, the
/// floating `knox`: its branch takes a level the others avoid, then floats
/// off) and a sub under "A" (the sub's depths follow A's level).
fn mini_run_floating_and_sub(last: (i32, i32)) -> Script {
    let mut script = mini_run(last);
    let top = &mut script.dungeons[0];
    top.branches.insert(2, branch("K", 2, 3));
    // Without bones, with dNetHack's rules its parent level would follow
    // (rule 12) if its branch did not float.
    let mut k = dungeon("K", b'K', 1, 0);
    k.levels.push(level("knox", 0, -1, 0));
    let a = &mut script.dungeons[3];
    a.size = Range { base: 2, rand: 0 };
    let mut sub_branch = branch("Q", 2, 0);
    sub_branch.up = true;
    a.branches.push(sub_branch);
    let mut q = dungeon("Q", b'Q', 2, 0);
    q.levels.push(level("q1", b'1', 2, 0));
    script.dungeons.insert(3, k);
    script.dungeons.insert(5, q);
    script
}

#[test]
fn deferred_runs_with_a_floating_member_and_a_sub_match_the_loader() {
    for (last, deferred) in [((-1, 0), true), ((4, 2), false)] {
        let script = mini_run_floating_and_sub(last);
        for wizard in [false, true] {
            let spreads = spreads_of(&script, wizard);
            let members = spreads.iter().filter(|sp| sp.member).map(|sp| sp.pos);
            assert_eq!(
                members.max(),
                (deferred || wizard).then_some(if wizard { 4 } else { 3 }),
                "{last:?}, wizard {wizard}"
            );
            assert_eq!(
                spreads.iter().any(|sp| !sp.member),
                deferred || wizard,
                "{last:?}, wizard {wizard}: the sub's depths are spread"
            );
        }
        check_run(&script);
    }
}

#[test]
fn level_one_and_event_rules_match_the_loader() {
    // "valley" is level 1 of a hellish dungeon and a branch level; "a"
    // lies on a branch level or not, at the bottom or above it.
    use crate::bones::LevelOneRule;
    let mut script = mini();
    script.dungeons[1].levels.push(level("a", b'A', 1, 3));
    let mut valley_event = game_bones(LevelOneRule::MainDungeon);
    const VALLEY: &[crate::bones::EventLevel] = &[crate::bones::EventLevel {
        level: "valley",
        event: "Cerberus is killed",
        source: "tests",
    }];
    valley_event.rules.event_levels = VALLEY;
    for bones in [
        game_bones(LevelOneRule::MainDungeon),
        game_bones(LevelOneRule::EveryDungeon),
        valley_event,
    ] {
        check_bones(&script, Rules::nethack_36(), false, &bones);
        check_bones(&script, Rules::native(), true, &bones);
    }
}

#[test]
fn optional_dungeon_shifts_chains_and_drops_branches() {
    // "Caves" (50%) comes before "Deep", whose level chains to record 1:
    // with Caves present, slot 1 is Caves' own level.
    let mut top = dungeon("Top", b'D', 6, 2);
    top.levels.push(level("a", b'A', 2, 2));
    top.branches.push(branch("Caves", 2, 2));
    top.branches.push(branch("Deep", 3, 2));
    let mut caves = dungeon("Caves", b'C', 3, 0);
    caves.chance = 50;
    caves.levels.push(level("cave", b'K', 1, 2));
    let mut deep = dungeon("Deep", b'E', 4, 1);
    deep.levels.push(level("d1", b'1', 1, 2));
    let mut d2 = level("d2", b'2', 1, 1);
    d2.chain = 2;
    deep.levels.push(d2);
    check(
        &Script {
            prelude: None,
            dungeons: vec![top, caves, deep],
        },
        Rules::native(),
        false,
    );
}

#[test]
fn placement_failures_and_aborts_are_counted() {
    // Three levels in the top four of a dungeon of 3-5 levels: fails when
    // the dungeon is small; a chained level runs off the bottom sometimes.
    let mut top = dungeon("Top", b'D', 3, 3);
    top.levels.push(level("a", b'A', 1, 3));
    top.levels.push(level("b", b'B', 1, 4));
    let mut c = level("c", b'C', 2, 0);
    c.chance = 50;
    c.chain = 0;
    top.levels.push(c);
    top.levels.push(level("d", b'F', 2, 2));
    check(
        &Script {
            prelude: None,
            dungeons: vec![top],
        },
        Rules::native(),
        false,
    );
}

#[test]
fn knox_floats_its_branch_or_fails() {
    let mut top = dungeon("Top", b'D', 6, 0);
    top.levels.push(level("x", b'X', 3, 2));
    top.branches.push(branch("Ludios", 3, 3));
    let mut fort = dungeon("Ludios", b'K', 2, 1);
    fort.entry = 1;
    let mut knox = level("knox", b'K', 1, 2);
    knox.chance = 70;
    fort.levels.push(knox);
    check(
        &Script {
            prelude: None,
            dungeons: vec![top, fort],
        },
        Rules::native(),
        false,
    );
}

#[test]
fn dummy_level_lifts_its_dungeon_and_portal_levels_load_only() {
    let mut top = dungeon("Top", b'D', 5, 2);
    top.levels.push(level("fakewiz1", b'F', 2, 3));
    top.branches.push(Branch {
        up: true,
        branch_type: BranchType::NoDown,
        ..branch("Planes", 1, 0)
    });
    let mut planes = dungeon("Planes", b'E', 3, 0);
    planes.entry = -2;
    planes.levels.push(level("astral", 0, 1, 0));
    let mut dummy = level("dummy", 0, 3, 0);
    dummy.chance = 60;
    planes.levels.push(dummy);
    check(
        &Script {
            prelude: None,
            dungeons: vec![top, planes],
        },
        Rules::native(),
        false,
    );
}

#[test]
fn missing_parent_and_hardwired_dungeons_fail() {
    let mut top = dungeon("Top", b'D', 4, 0);
    top.chance = 50;
    top.branches.push(branch("Next", 2, 0));
    let mut next = dungeon("Next", b'N', 3, 1);
    next.levels.push(level("n", b'n', 1, 2));
    let script = Script {
        prelude: None,
        dungeons: vec![top, next],
    };
    check(&script, Rules::native(), false);
    check(&script, Rules::nethack_36(), false);
}

fn arb_script() -> impl Strategy<Value = Script> {
    let names = prop::sample::select(vec!["a", "b", "c", "fakewiz1", "wizard3", "dummy", "knox"]);
    let lvl = (
        1i32..5,
        0i32..4,
        prop::sample::select(vec![100, 100, 100, 50, 0]),
        0u8..3,
        any::<bool>(),
        names,
    )
        .prop_map(|(base, rand, chance, kind, neg, name)| {
            let mut l = level(
                name,
                [0u8, b'A', b'B'][kind as usize],
                if neg { -base } else { base },
                rand,
            );
            l.chance = chance;
            l
        });
    let dg = (
        1i32..7,
        0i32..4,
        prop::collection::vec(lvl, 0..5),
        prop::sample::select(vec![0, 0, 0, 60]),
        -3i32..3,
        any::<bool>(),
    );
    prop::collection::vec(dg, 1..5)
        .prop_flat_map(|ds| {
            let n = ds.len();
            let extra = prop::collection::vec(
                (0u8..5, 0i32..5, -1i32..3, any::<bool>(), 0u8..4, 0usize..4),
                n,
            );
            (Just(ds), extra)
        })
        .prop_map(|(ds, extra)| {
            let mut dungeons: Vec<Dungeon> = Vec::new();
            let mut slot = 0i32;
            for (
                i,
                (
                    (base, rand, levels, chance, entry, hellish),
                    (chain_pick, bbase, brand, up, btype, parent),
                ),
            ) in ds.into_iter().zip(extra).enumerate()
            {
                let mut d = dungeon(
                    &format!("D{i}"),
                    if i == 2 { 0 } else { b'a' + i as u8 },
                    base,
                    rand,
                );
                d.chance = if i == 0 { 0 } else { chance };
                d.entry = entry;
                if hellish {
                    d.flags |= crate::script::flags::HELLISH;
                }
                let count = levels.len() as i32;
                for (j, mut l) in levels.into_iter().enumerate() {
                    // Sometimes chain to the previous level of the dungeon.
                    if j > 0 && chain_pick == j as u8 {
                        l.chain = slot + j as i32 - 1;
                    }
                    d.levels.push(l);
                }
                if i > 0 {
                    // The branch into this dungeon, from one of the earlier ones.
                    let p = parent % i;
                    let mut b = branch(&format!("D{i}"), bbase, brand);
                    b.up = up;
                    b.branch_type = [
                        BranchType::Stair,
                        BranchType::NoUp,
                        BranchType::NoDown,
                        BranchType::Portal,
                    ][btype as usize];
                    if chain_pick == 4 && slot > 0 {
                        // Chained to the last level record so far (which
                        // may belong to another dungeon).
                        b.chain = slot - 1;
                        b.range.base = bbase - 2;
                    }
                    dungeons[p].branches.push(b);
                }
                slot += count;
                dungeons.push(d);
            }
            Script {
                prelude: None,
                dungeons,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_small_scripts_match_the_loader(script in arb_script(), old in any::<bool>(), wizard in any::<bool>(), game in 0u8..4) {
        let rules = if old { Rules { required_dungeons: &[], ..Rules::nethack_343() } } else { Rules::native() };
        use crate::bones::LevelOneRule;
        let bones = match game {
            0 => BonesOptions::default(),
            1 => game_bones(LevelOneRule::MainDungeon),
            2 => game_bones(LevelOneRule::EveryDungeon),
            _ => dgnkit::options::Target::DNetHack.game().bones_options(),
        };
        check_bones(&script, rules, wizard, &bones);
    }
}

/// A random small script with a run of one to three dungeons hanging off
/// one of its dungeons at the end (deferred when nothing after them lands
/// in their levels, [`engine`]); some of them of two levels with a sub, a
/// one-level dungeon entered from one of them, right after it or after the
/// run.
fn arb_run_script() -> impl Strategy<Value = Script> {
    (
        arb_script(),
        0usize..4,
        prop::collection::vec((1i32..4, 0i32..4, 0u8..2, 0u8..3, 0i32..2), 1..4),
    )
        .prop_map(|(mut script, parent, run)| {
            let p = parent % script.dungeons.len();
            let mut later = Vec::new();
            for (k, (base, rand, none, sub, sub_base)) in run.into_iter().enumerate() {
                let name = format!("R{k}");
                script.dungeons[p].branches.push(branch(&name, base, rand));
                let mut d = dungeon(&name, if none == 0 { b'r' } else { 0 }, 1, 0);
                if sub == 0 {
                    script.dungeons.push(d);
                    continue;
                }
                let sub_name = format!("S{k}");
                d.size = Range { base: 2, rand: 0 };
                d.branches
                    .push(branch(&sub_name, 1 + sub_base, 1 - sub_base));
                script.dungeons.push(d);
                let s = dungeon(&sub_name, b's', 2, 0);
                if sub == 1 {
                    script.dungeons.push(s);
                } else {
                    later.push(s);
                }
            }
            script.dungeons.extend(later);
            script
        })
}

proptest! {
    // About a third of these runs are deferred (the others have a later
    // branch that may land on their levels, or fail first).
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_runs_with_subs_match_the_loader(script in arb_run_script(), wizard in any::<bool>(), dnethack in any::<bool>()) {
        let bones = if dnethack {
            dgnkit::options::Target::DNetHack.game().bones_options()
        } else {
            BonesOptions::default()
        };
        check_bones(&script, Rules::native(), wizard, &bones);
    }
}

fn extreme() -> impl Strategy<Value = i32> {
    prop::sample::select(vec![
        i32::MIN,
        -1000,
        -33,
        -2,
        -1,
        0,
        1,
        2,
        31,
        32,
        33,
        127,
        128,
        255,
        1000,
        i32::MAX,
    ])
}

fn arb_wild_script() -> impl Strategy<Value = Script> {
    let lvl = (extreme(), extreme(), extreme(), extreme(), any::<u8>()).prop_map(
        |(base, rand, chance, chain, bones)| Level {
            name: b"w".to_vec(),
            bones,
            range: Range {
                base,
                rand: rand.clamp(-3, 40),
            },
            chance,
            chain: chain.clamp(-1, 12),
            ..Level::default()
        },
    );
    let br = (extreme(), extreme(), extreme(), any::<bool>(), 0usize..4).prop_map(
        |(base, rand, chain, up, target)| Branch {
            target: format!("W{target}").into_bytes(),
            range: Range {
                base,
                rand: rand.clamp(-3, 40),
            },
            chain: chain.clamp(-1, 12),
            up,
            ..Branch::default()
        },
    );
    let dg = (
        extreme(),
        extreme(),
        extreme(),
        extreme(),
        prop::collection::vec(lvl, 0..4),
        prop::collection::vec(br, 0..3),
        any::<u8>(),
    );
    prop::collection::vec(dg, 1..5).prop_map(|ds| Script {
        prelude: None,
        dungeons: ds
            .into_iter()
            .enumerate()
            .map(
                |(i, (base, rand, chance, entry, levels, branches, bones))| Dungeon {
                    name: format!("W{i}").into_bytes(),
                    bones,
                    size: Range {
                        base,
                        rand: rand.clamp(-3, 2000),
                    },
                    chance,
                    entry,
                    levels,
                    branches,
                    flags: crate::script::flags::HELLISH,
                    ..Dungeon::default()
                },
            )
            .collect(),
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Any values a compiled file can hold: no panic, and the verdicts
    /// follow from whatever the statistics say.
    #[test]
    fn wild_values_never_panic(script in arb_wild_script(), target in prop::sample::select(dgnkit::options::Target::ALL.to_vec()), wizard in any::<bool>()) {
        let budget = Budget { states: 2_000, edges: 20_000, placement_nodes: 5_000, optional_levels: 6 };
        let opts = StatsOptions { game: target.game().loader_game(), wizard, budget, ..StatsOptions::default() };
        if let Ok(stats) = exact(&script, &opts) {
            prop_assert!((0.0..=1.0).contains(&stats.failure));
            let _ = crate::verdict::verdicts_from_stats(&script, &stats);
        }
        // The charts (a view, above this crate) draw the same statistics.
        let lib_opts = dgnkit::stats::StatsOptions {
            game: target.game().loader_game(),
            wizard,
            budget: dgnkit::stats::Budget { states: 2_000, edges: 20_000, placement_nodes: 5_000, optional_levels: 6 },
            ..Default::default()
        };
        if let Ok(stats) = dgnkit::stats::exact(&script, &lib_opts) {
            let _ = dgnkit::stats::chart::depth_svg(&stats, "wild");
        }
    }
}

#[test]
fn two_floating_levels_and_chances_rolled_in_wizard_mode() {
    // UnNetHack's rules: `advcal` floats like `knox`, and wizard mode
    // rolls every chance.
    let rules = Rules {
        floating_levels: &["advcal", "knox"],
        wizard_skips_dungeon_chance: false,
        wizard_skips_level_chance: false,
        ..Rules::native()
    };
    let mut top = dungeon("Top", b'D', 6, 0);
    top.levels.push(level("x", b'X', 3, 2));
    top.branches.push(branch("Ludios", 3, 3));
    top.branches.push(branch("Advent", 2, 3));
    let mut fort = dungeon("Ludios", b'K', 2, 1);
    fort.entry = 1;
    let mut knox = level("knox", b'K', 1, 2);
    knox.chance = 70;
    fort.levels.push(knox);
    let mut advent = dungeon("Advent", b'A', 1, 1);
    advent.chance = 60;
    let mut advcal = level("advcal", b'C', 1, 2);
    advcal.chance = 80;
    advent.levels.push(advcal);
    let script = Script {
        prelude: None,
        dungeons: vec![top, fort, advent],
    };
    for wizard in [false, true] {
        check(&script, rules.clone(), wizard);
    }
}

// ------------------------------------------------ rn2 of a negative count

/// `Top` with `oracle` on 4 or 5, a branch to `Other` on 5..7, then
/// `CHAINBRANCH: "Side" "oracle" + (1, -3)` (base 5 or 6, count -3: the
/// base is taken when `Other`'s branch is there); `Side` sized `(3, -2)`,
/// with a level chained `+ (1, -2)` that exists half the time (the game
/// then panics in `pick_level`).
fn negative_counts() -> Script {
    let mut top = dungeon("Top", b'D', 8, 0);
    top.levels.push(level("oracle", b'O', 4, 2));
    top.branches.push(branch("Other", 5, 3));
    let mut side = branch("Side", 1, -3);
    side.chain = 0;
    top.branches.push(side);
    let mut side_d = dungeon("Side", b'S', 3, -2);
    side_d.levels.push(level("s1", b'1', 1, 0));
    let mut bad = level("bad", b'X', 1, -2);
    bad.chain = 1;
    bad.chance = 50;
    side_d.levels.push(bad);
    Script {
        prelude: None,
        dungeons: vec![top, dungeon("Other", b'T', 2, 0), side_d],
    }
}

fn negative_rules(mode: NonPositiveRn2) -> Rules {
    Rules {
        required_dungeons: &[],
        rn2_nonpositive: mode,
        ..Rules::nethack_36()
    }
}

/// The enumeration against the loader on every outcome: 3.4.3's `rn2`
/// (`j` in `0..=2`; the search hangs on a taken base unless `j` is 0),
/// 3.7's and UnNetHack's (no draw) and dNetHack's (0), the size's
/// `rn1(-2, 3)` and the level's `pick_level` panic included.
#[test]
fn negative_counts_match_the_loader() {
    for mode in [
        NonPositiveRn2::OneDrawModulo,
        NonPositiveRn2::NoDraw,
        NonPositiveRn2::OneDrawZero,
    ] {
        for wizard in [false, true] {
            let stats = check_bones(
                &negative_counts(),
                negative_rules(mode),
                wizard,
                &BonesOptions::default(),
            );
            let fails = |code: &str| {
                stats
                    .failures
                    .iter()
                    .filter(|f| f.code == code)
                    .map(|f| f.probability)
                    .sum::<f64>()
            };
            // Other's branch lands on the base with chance 1/3 (5 or 6
            // both lie in 5..=7), and then 2 of 3 draws hang.
            let hang = if mode == NonPositiveRn2::OneDrawModulo {
                2.0 / 9.0
            } else {
                0.0
            };
            assert!(close(fails("branch-level-hangs"), hang), "{mode:?}");
            let bad = if wizard { 1.0 } else { 0.5 };
            assert!(
                close(fails("no-valid-level"), (1.0 - hang) * bad),
                "{mode:?}: {:?}",
                stats.failures
            );
        }
    }
    check(
        &negative_counts(),
        Rules {
            required_dungeons: &[],
            ..dnethack_rules(crate::loader::GameInputs::default())
        },
        false,
    );
}

/// Sampled layouts of the games' own generators say the same as the
/// enumeration (glibc's `random() % 3` and ISAAC's "no draw").
#[test]
fn negative_counts_agree_with_sampled_layouts() {
    for (mode, rng) in [
        (NonPositiveRn2::OneDrawModulo, RngKind::Glibc),
        (NonPositiveRn2::NoDraw, RngKind::Isaac32),
    ] {
        let opts = |approach| StatsOptions {
            game: crate::loader::LoaderGame {
                rules: negative_rules(mode),
                rng,
                ..Default::default()
            },
            approach,
            samples: 20_000,
            ..Default::default()
        };
        let exact = compute(&negative_counts(), &opts(Approach::Exact));
        assert!(matches!(exact.method, Method::Exact { .. }), "{mode:?}");
        let sampled = compute(&negative_counts(), &opts(Approach::Sampled));
        let tol = 0.02;
        assert!(
            (exact.failure - sampled.failure).abs() < tol,
            "{mode:?}: {} vs {}",
            exact.failure,
            sampled.failure
        );
        let by_code = |s: &Stats, code: &str| {
            s.failures
                .iter()
                .filter(|f| f.code == code)
                .map(|f| f.probability)
                .sum::<f64>()
        };
        for code in ["branch-level-hangs", "no-valid-level"] {
            let (p, q) = (by_code(&exact, code), by_code(&sampled, code));
            assert!((p - q).abs() < tol, "{mode:?}: {code}: {p} vs {q}");
        }
        let side = |s: &Stats| s.dungeons[2].num_levels.clone();
        for (k, p) in side(&exact) {
            let q = side(&sampled).get(&k).copied().unwrap_or(0.0);
            assert!((p - q).abs() < tol, "{mode:?}: size {k}: {p} vs {q}");
        }
    }
}

/// 3.6's `rn2` of a negative count returns ISAAC-64's raw output, 2^32
/// outcomes: sampled, saying why.
#[test]
fn raw_negative_counts_are_sampled() {
    let opts = StatsOptions {
        game: crate::loader::LoaderGame {
            rules: negative_rules(NonPositiveRn2::OneDrawRaw),
            ..Default::default()
        },
        samples: 500,
        ..Default::default()
    };
    let stats = compute(&negative_counts(), &opts);
    let Method::Sampled { reason, .. } = &stats.method else {
        panic!("{:?}", stats.method);
    };
    assert!(reason.contains("raw output"), "{reason}");
    assert!(reason.contains("rn1(-2, 3)"), "{reason}");
    // On glibc (3.6.0, 3.6.1) the same rules divide as 3.4.3 does, which
    // is enumerated.
    let glibc = StatsOptions {
        rng: Some(RngKind::Glibc),
        ..opts
    };
    let exact = compute(&negative_counts(), &glibc);
    assert!(matches!(exact.method, Method::Exact { .. }));
}

mod given;

/// A set [`Stop`] ends both the enumeration and the sampling, and the
/// method says the statistics were stopped; an unset one changes nothing.
#[test]
fn a_stop_ends_the_enumeration_and_the_sampling() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let script = mini();
    let flag = Arc::new(AtomicBool::new(false));
    let opts = StatsOptions {
        stop: crate::Stop::on(flag.clone()),
        ..StatsOptions::default()
    };
    let plain = crate::exact(&script, &StatsOptions::default()).expect("exact");
    assert_eq!(crate::exact(&script, &opts).expect("exact"), plain);
    flag.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(
        crate::exact(&script, &opts).map(|_| ()).unwrap_err().what,
        crate::STOPPED
    );
    for approach in [Approach::Auto, Approach::Sampled] {
        let stats = crate::compute(
            &script,
            &StatsOptions {
                approach,
                ..opts.clone()
            },
        );
        match stats.method {
            Method::Sampled {
                samples, reason, ..
            } => assert_eq!((samples, reason.as_str()), (0, crate::STOPPED)),
            m => panic!("{m:?}"),
        }
    }
}

#[test]
fn a_floating_level_on_its_dungeons_bottom_entry_matches_the_loader() {
    // Found by the evidence proptest: `knox` may take the bottom level of
    // a dungeon entered from its bottom, where a later branch leaves from:
    // the floated branch into it moves to the end of the game's list, so
    // under dNetHack's bones rules the later branch's other end judges it.
    let mut top = dungeon("D0", b'a', 2, 2);
    top.entry = -2;
    top.levels.push(level("b", b'B', 1, 3));
    top.levels.push(level("fakewiz1", b'A', 2, 1));
    top.levels.push(level("c", 0, 2, 2));
    top.branches.push(branch("D1", 1, 0));
    let mut d1 = dungeon("D1", b'b', 2, 2);
    d1.entry = -1;
    d1.levels.push(level("b", b'A', 1, 2));
    d1.levels.push(level("knox", b'A', 2, 2));
    d1.branches.push(branch("D2", 2, 0));
    let mut d2 = dungeon("D2", 0, 2, 2);
    d2.entry = 2;
    let mut x = level("x", b'A', 2, 1);
    x.chance = 0;
    d2.levels.push(x);
    let script = Script {
        prelude: None,
        dungeons: vec![top, d1, d2],
    };
    let bones = dgnkit::options::Target::DNetHack.game().bones_options();
    for wizard in [false, true] {
        check_bones(&script, Rules::native(), wizard, &bones);
    }
}
