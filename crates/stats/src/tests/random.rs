//! Random small scripts against the oracle, tame and extreme.

use super::*;

pub(crate) fn arb_script() -> impl Strategy<Value = Script> {
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
                    d.flags |= dgnkit_script::flags::HELLISH;
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
        use dgnkit_bones::LevelOneRule;
        let bones = match game {
            0 => BonesOptions::default(),
            1 => game_bones(LevelOneRule::MainDungeon),
            2 => game_bones(LevelOneRule::EveryDungeon),
            _ => dgnkit::options::Target::DNetHack.game().bones_options(),
        };
        check_bones(&script, rules, wizard, &bones);
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

pub(crate) fn arb_wild_script() -> impl Strategy<Value = Script> {
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
                    flags: dgnkit_script::flags::HELLISH,
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
