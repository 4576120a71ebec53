//! The deferred runs of side branches (the engine's notes) against the
//! oracle: hand-built runs and random ones.

use super::random::arb_script;
use super::rules::dnethack_rules;
use super::*;

/// A small top dungeon with a run of three one-level dungeons hanging off
/// it by overlapping unchained branches, each avoiding the levels the
/// others and the earlier branches took; then one more dungeon (there in
/// 60% of games) branching from the top at `last`, and the end of a branch
/// from a dungeon before the run.
pub(super) fn mini_run(last: (i32, i32)) -> Script {
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
    use dgnkit_bones::LevelOneRule;
    use dgnkit_loader::GameInputs;
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

/// A random small script with a run of one to three dungeons hanging off
/// one of its dungeons at the end (deferred when nothing after them lands
/// in their levels, [`engine`]); some of them of two levels with a sub, a
/// one-level dungeon entered from one of them, right after it or after the
/// run.
pub(super) fn arb_run_script() -> impl Strategy<Value = Script> {
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
