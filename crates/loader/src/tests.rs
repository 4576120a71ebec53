//! Loader tests on hand-built scripts. Parity with NetHack's own layouts is
//! tested end to end in `tests/tests/end_to_end/layout_parity.rs`.

use super::*;
use crate::rng::{Draw, Site};
use dgnkit_script::{Branch, Dungeon, Level};

fn dungeon(name: &str, base: i32, rand: i32) -> Dungeon {
    Dungeon {
        name: name.into(),
        bones: b'D',
        size: Range { base, rand },
        ..Dungeon::default()
    }
}

fn level(name: &str, base: i32, rand: i32) -> Level {
    Level {
        name: name.into(),
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

fn native(script: &Script) -> Resolver {
    Resolver::with_rules(script, Rules::native()).unwrap()
}

/// The draws of a resolution, as `(n, r)`.
fn draws(
    res: &Resolver,
    seed: u64,
    rng: RngKind,
    wizard: bool,
) -> (Result<Resolved, LoadError>, Vec<Draw>) {
    let mut out = Resolved::default();
    let mut log = Vec::new();
    let r = res
        .resolve_traced(seed, rng, wizard, &mut out, &mut log)
        .map(|()| out);
    (r, log)
}

#[test]
fn one_dungeon_one_level() {
    let mut d = dungeon("Top", 5, 0);
    d.levels.push(level("start", 2, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![d],
    };
    let res = native(&script);
    let (out, log) = draws(&res, 1, RngKind::Glibc, false);
    let out = out.unwrap();
    assert_eq!(
        out.dungeons,
        vec![ResolvedDungeon {
            record: 0,
            num_levels: 5,
            ledger_start: 0,
            depth_start: 1,
            entry_level: 1
        }]
    );
    assert_eq!(
        out.levels,
        vec![ResolvedLevel {
            record: 0,
            dungeon: 0,
            level: 2
        }]
    );
    // level chance, one placement try (rn2(1)), five notes.
    let ns: Vec<i32> = log.iter().map(|d| d.n).collect();
    assert_eq!(ns, [100, 1, 7, 7, 7, 7, 7]);
    let mut g = crate::rng::Glibc::new(1);
    let notes: Vec<u8> = (0..7)
        .map(|i| g.rn2([100, 1, 7, 7, 7, 7, 7][i]) as u8)
        .skip(2)
        .map(|r| b'A' + r)
        .collect();
    assert_eq!(out.tune.to_vec(), notes);
}

#[test]
fn wizard_mode_skips_every_chance_roll() {
    let mut d = dungeon("Top", 5, 2);
    let mut l = level("maybe", 1, 0);
    l.chance = 1;
    d.levels.push(l);
    let mut opt = dungeon("Optional", 2, 0);
    opt.chance = 1;
    d.branches.push(branch("Optional", 3, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![d, opt],
    };
    let res = native(&script);
    for seed in 0..20 {
        let (out, log) = draws(&res, seed, RngKind::Isaac64, true);
        let out = out.unwrap();
        assert!(log.iter().all(|d| d.n != 100), "seed {seed}: {log:?}");
        assert_eq!(out.dungeons.len(), 2);
        assert_eq!(out.levels.len(), 1);
    }
}

#[test]
fn a_dropped_dungeon_compacts_the_indices() {
    let mut top = dungeon("Top", 10, 0);
    top.branches.push(branch("Gone", 2, 0));
    top.branches.push(branch("Kept", 4, 0));
    let mut gone = dungeon("Gone", 3, 0);
    gone.chance = 50;
    gone.levels.push(level("ghost", 1, 0));
    let mut kept = dungeon("Kept", 2, 0);
    kept.levels.push(level("here", 1, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![top, gone, kept],
    };
    let res = native(&script);
    let (mut dropped, mut present) = (0, 0);
    for seed in 0..200 {
        let (out, log) = draws(&res, seed, RngKind::Glibc, false);
        let out = out.unwrap();
        let chance = log
            .iter()
            .find(|d| d.site == Site::DungeonChance { dungeon: 1 })
            .unwrap();
        if 50 <= chance.r {
            dropped += 1;
            assert_eq!(out.dungeons.len(), 2);
            assert_eq!(out.dungeons[1].record, 2);
            assert_eq!(out.dungeons[1].ledger_start, 10);
            assert_eq!(
                out.levels,
                vec![ResolvedLevel {
                    record: 1,
                    dungeon: 1,
                    level: 1
                }]
            );
            // No draw at all for the dropped dungeon's level.
            assert!(!log.iter().any(|d| d.site == Site::LevelChance { level: 0 }));
        } else {
            present += 1;
            assert_eq!(out.dungeons.len(), 3);
            assert_eq!(out.dungeons[2].ledger_start, 13);
        }
    }
    assert!(dropped > 50 && present > 50, "{dropped} {present}");
}

#[test]
fn branch_placement_starts_at_j_plus_one() {
    let mut top = dungeon("Top", 10, 0);
    top.branches.push(branch("Side", 3, 4));
    let script = Script {
        prelude: None,
        dungeons: vec![top, dungeon("Side", 2, 0)],
    };
    let pre_33 = Rules {
        avoid_branch_levels: false,
        ..Rules::nethack_343()
    };
    for (rules, quirk) in [
        (Rules::nethack_36(), true),
        (Rules::nethack_343(), true),
        (pre_33, false),
    ] {
        let rules = Rules {
            required_dungeons: &[],
            ..rules
        };
        let res = Resolver::with_rules(&script, rules).unwrap();
        for seed in 0..30 {
            let (out, log) = draws(&res, seed, RngKind::Glibc, true);
            let out = out.unwrap();
            let j = log
                .iter()
                .find(|d| matches!(d.site, Site::BranchLevel { .. }))
                .unwrap()
                .r as i32;
            let want = if quirk { 3 + (j + 1) % 4 } else { 3 + j };
            assert_eq!(out.branches[0].end1, (0, want), "seed {seed}");
        }
    }
}

#[test]
fn a_second_branch_avoids_a_level_that_ends_one() {
    // Both branches may only use levels 2..=3 of Top; under 3.6 rules they
    // never share a level.
    let mut top = dungeon("Top", 4, 0);
    top.branches.push(branch("A", 2, 2));
    top.branches.push(branch("B", 2, 2));
    let script = Script {
        prelude: None,
        dungeons: vec![top, dungeon("A", 1, 0), dungeon("B", 1, 0)],
    };
    let res = native(&script);
    for seed in 0..30 {
        let out = res.resolve(seed, RngKind::Isaac64, false, false).unwrap();
        assert_ne!(
            out.branches[0].end1.level, out.branches[1].end1.level,
            "seed {seed}"
        );
    }
}

#[test]
fn branches_are_kept_sorted_by_their_ends() {
    let mut top = dungeon("Top", 10, 0);
    top.branches.push(branch("Deep", 9, 0));
    top.branches.push(branch("Shallow", 2, 0));
    top.branches.push(branch("Middle", 5, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![
            top,
            dungeon("Deep", 1, 0),
            dungeon("Shallow", 1, 0),
            dungeon("Middle", 1, 0),
        ],
    };
    let res = native(&script);
    let out = res.resolve(3, RngKind::Isaac64, false, false).unwrap();
    let order: Vec<(i32, i32)> = out.branches.iter().map(|b| (b.id, b.end1.level)).collect();
    assert_eq!(order, [(1, 2), (2, 5), (0, 9)]);
}

#[test]
fn depth_follows_the_branch_direction_and_entry() {
    let mut top = dungeon("Top", 10, 0);
    let mut up = branch("Up", 4, 0);
    up.up = true;
    top.branches.push(up);
    let mut portal = branch("Portal", 6, 0);
    portal.branch_type = BranchType::Portal;
    top.branches.push(portal);
    top.branches.push(branch("Down", 8, 0));
    let mut up_d = dungeon("Up", 3, 0);
    up_d.entry = -1;
    let script = Script {
        prelude: None,
        dungeons: vec![top, up_d, dungeon("Portal", 2, 0), dungeon("Down", 2, 0)],
    };
    let res = native(&script);
    let out = res.resolve(0, RngKind::Isaac64, false, false).unwrap();
    // Up: from depth 4 one up, entering at its level 3 -> top at depth 1.
    assert_eq!(
        (out.dungeons[1].entry_level, out.dungeons[1].depth_start),
        (3, 1)
    );
    assert_eq!(out.dungeons[2].depth_start, 6);
    assert_eq!(out.dungeons[3].depth_start, 9);
}

#[test]
fn entry_beyond_the_bottom_is_clamped_by_343_and_36() {
    // 3.4.3 `src/dungeon.c:757-760` lowers it to the bottom, as 3.6 does
    // (`:833-835`); only 3.3's loader kept it (its check assigned the same
    // value back).
    let mut top = dungeon("Top", 10, 0);
    top.branches.push(branch("Low", 5, 0));
    let mut low = dungeon("Low", 3, 0);
    low.entry = 7;
    let script = Script {
        prelude: None,
        dungeons: vec![top, low],
    };
    let r36 = Resolver::with_rules(&script, Rules::native()).unwrap();
    let r343 = Resolver::with_rules(
        &script,
        Rules {
            required_dungeons: &[],
            ..Rules::nethack_343()
        },
    )
    .unwrap();
    assert_eq!(
        r36.resolve(0, RngKind::Glibc, false, false)
            .unwrap()
            .dungeons[1]
            .entry_level,
        3
    );
    let l343 = r343.resolve(0, RngKind::Glibc, false, false).unwrap();
    assert_eq!(l343.dungeons[1].entry_level, 3);
    // The depths follow: from the branch on level 5 of Top, going down,
    // the entry (3) is at depth 6, so Low starts at depth 4.
    assert_eq!(l343.dungeons[1].depth_start, 4);
}

/// A ledger start past 127 is an `int` in every game (3.6
/// include/dungeon.h:64-65, computed in `int` at src/dungeon.c:807-808):
/// never wrapped to a byte.
#[test]
fn ledger_starts_past_a_byte_do_not_wrap() {
    let mut top = dungeon("Top", 30, 0);
    let mut rest = Vec::new();
    for (i, name) in ["A", "B", "C", "D", "E"].into_iter().enumerate() {
        top.branches.push(branch(name, 2 + i as i32, 0));
        rest.push(dungeon(name, 30, 0));
    }
    let mut dungeons = vec![top];
    dungeons.extend(rest);
    let script = Script {
        prelude: None,
        dungeons,
    };
    let r = Resolver::with_rules(
        &script,
        Rules {
            required_dungeons: &[],
            limits: None,
            ..Rules::nethack_343()
        },
    )
    .unwrap();
    let l = r.resolve(0, RngKind::Glibc, false, false).unwrap();
    let starts: Vec<i32> = l.dungeons.iter().map(|d| d.ledger_start).collect();
    assert_eq!(starts, [0, 30, 60, 90, 120, 150]);
}

#[test]
fn fort_ludios_floats_and_moves_to_the_end() {
    let mut top = dungeon("Top", 10, 0);
    let mut p = branch("Fort", 2, 0);
    p.branch_type = BranchType::Portal;
    top.branches.push(p);
    top.branches.push(branch("Other", 5, 0));
    let mut fort = dungeon("Fort", 1, 0);
    fort.levels.push(level("KNOX", 1, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![top, fort, dungeon("Other", 1, 0)],
    };
    let out = native(&script)
        .resolve(0, RngKind::Isaac64, false, false)
        .unwrap();
    let last = out.branches.last().unwrap();
    assert_eq!(
        (
            last.end1.dungeon,
            last.end2.dungeon,
            last.branch_type.as_str()
        ),
        (3, 1, "portal")
    );
    assert_eq!(out.branches[0].end2.dungeon, 2);
}

#[test]
fn knox_without_a_branch_is_an_error() {
    let mut top = dungeon("Top", 10, 0);
    top.levels.push(level("knox", 3, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![top],
    };
    let err = native(&script)
        .resolve(0, RngKind::Isaac64, false, false)
        .unwrap_err();
    assert_eq!(
        err,
        LoadError::KnoxNotReachable {
            level: "knox".into()
        }
    );
    assert_eq!(
        err.nethack_panic().as_deref(),
        Some("insert_branch: not found")
    );
}

#[test]
fn the_dummy_level_lifts_its_dungeon() {
    let mut top = dungeon("Top", 10, 0);
    let mut b = branch("Planes", 1, 0);
    b.up = true;
    b.branch_type = BranchType::NoDown;
    top.branches.push(b);
    let mut planes = dungeon("Planes", 6, 0);
    planes.entry = -2;
    for (i, n) in ["astral", "water", "fire", "air", "earth", "Dummy"]
        .iter()
        .enumerate()
    {
        planes.levels.push(level(n, i as i32 + 1, 0));
    }
    let script = Script {
        prelude: None,
        dungeons: vec![top, planes],
    };
    let out = native(&script)
        .resolve(5, RngKind::Glibc, false, false)
        .unwrap();
    // 1 - 1 - (5 - 1) = -4, then one more for the dummy level.
    assert_eq!(out.dungeons[1].depth_start, -5);
}

#[test]
fn required_dungeons_follow_the_version() {
    let script = Script {
        prelude: None,
        dungeons: vec![dungeon("Top", 3, 0)],
    };
    let e36 = Resolver::with_rules(&script, Rules::nethack_36())
        .unwrap()
        .resolve(0, RngKind::Isaac64, false, false);
    assert_eq!(
        e36.unwrap_err(),
        LoadError::MissingDungeon {
            name: "The Quest".into()
        }
    );
    assert!(native(&script)
        .resolve(0, RngKind::Isaac64, false, false)
        .is_ok());
    // Looked up in order: the first one missing is reported.
    let mut top = dungeon("Top", 10, 0);
    for (i, n) in ["The Quest", "The Gnomish Mines", "Vlad's Tower"]
        .iter()
        .enumerate()
    {
        top.branches.push(branch(n, i as i32 + 2, 0));
    }
    let mut ds = vec![top];
    ds.extend(
        ["The Quest", "The Gnomish Mines", "Vlad's Tower"]
            .iter()
            .map(|n| dungeon(n, 2, 0)),
    );
    let script = Script {
        prelude: None,
        dungeons: ds,
    };
    for rules in [Rules::nethack_343(), Rules::nethack_36()] {
        let e =
            Resolver::with_rules(&script, rules)
                .unwrap()
                .resolve(0, RngKind::Glibc, false, false);
        assert_eq!(
            e.unwrap_err().nethack_panic().as_deref(),
            Some("Couldn't resolve dungeon number for name \"Sokoban\".")
        );
    }
}

#[test]
fn levels_that_do_not_fit_fail_with_couldnt_place() {
    let mut top = dungeon("Top", 5, 0);
    top.levels.push(level("a", 2, 0));
    top.levels.push(level("b", 2, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![top],
    };
    let err = native(&script)
        .resolve(0, RngKind::Isaac64, true, false)
        .unwrap_err();
    assert_eq!(
        err,
        LoadError::CouldntPlace {
            dungeon: "Top".into()
        }
    );
}

#[test]
fn an_exponential_search_fails_fast() {
    // 14 levels for 13 places: NetHack would try 13! orders before giving up.
    let mut top = dungeon("Top", 13, 0);
    for i in 0..14 {
        top.levels.push(level(&format!("l{i}"), 1, -1));
    }
    let script = Script {
        prelude: None,
        dungeons: vec![top],
    };
    let mut res = native(&script);
    // Within the budget: an exhaustive search would end in
    // PlacementTooCostly instead.
    res.set_placement_budget(100_000);
    let err = res.resolve(0, RngKind::Isaac64, true, false).unwrap_err();
    assert_eq!(
        err,
        LoadError::CouldntPlace {
            dungeon: "Top".into()
        }
    );
}

#[test]
fn an_impossible_chain_is_found_without_exhausting_the_search() {
    // Thirteen levels for thirteen places, so the interval count passes,
    // but "next" is chained to "anchor" + 0 and can never be placed. The
    // draw-for-draw search would try 13!/2 orders; the memoised one sees it.
    let mut top = dungeon("Top", 13, 0);
    for i in 0..11 {
        top.levels.push(level(&format!("l{i}"), 1, -1));
    }
    top.levels.push(level("anchor", 1, -1));
    let mut chained = level("next", 0, 0);
    chained.chain = 11;
    top.levels.push(chained);
    let script = Script {
        prelude: None,
        dungeons: vec![top],
    };
    let mut res = native(&script);
    // Within the budget, as above.
    res.set_placement_budget(50_000);
    let err = res.resolve(0, RngKind::Isaac64, true, false).unwrap_err();
    assert_eq!(
        err,
        LoadError::CouldntPlace {
            dungeon: "Top".into()
        }
    );
}

#[test]
fn a_costly_but_possible_search_is_reported_as_such() {
    let mut top = dungeon("Top", 13, 0);
    top.levels.push(level("a", 1, -1));
    top.levels.push(level("b", 1, -1));
    let script = Script {
        prelude: None,
        dungeons: vec![top],
    };
    let mut res = native(&script);
    res.set_placement_budget(0);
    let err = res.resolve(0, RngKind::Isaac64, true, false).unwrap_err();
    assert_eq!(
        err,
        LoadError::PlacementTooCostly {
            dungeon: "Top".into(),
            draws: 1
        }
    );
}

#[test]
fn base_out_of_range_is_an_error() {
    let mut top = dungeon("Top", 5, 0);
    top.levels.push(level("deep", 9, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![top],
    };
    let err = native(&script)
        .resolve(0, RngKind::Isaac64, false, false)
        .unwrap_err();
    assert!(
        matches!(
            err,
            LoadError::BaseOutOfRange {
                base: 9,
                num_levels: 5,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_missing_branch_is_an_error() {
    let script = Script {
        prelude: None,
        dungeons: vec![dungeon("Top", 5, 0), dungeon("Orphan", 2, 0)],
    };
    let err = native(&script)
        .resolve(0, RngKind::Isaac64, false, false)
        .unwrap_err();
    assert_eq!(
        err,
        LoadError::BranchNotFound {
            dungeon: "Orphan".into()
        }
    );
}

#[test]
fn a_chain_shifted_by_a_dropped_dungeon_is_an_error() {
    // Top's branches lead to Optional (2 levels) and Later; Later's second
    // level is chained to its first by file-global index 3, which names
    // nothing placed once Optional is dropped.
    let mut top = dungeon("Top", 10, 0);
    top.branches.push(branch("Optional", 2, 0));
    top.branches.push(branch("Later", 4, 0));
    let mut opt = dungeon("Optional", 3, 0);
    opt.chance = 50;
    opt.levels.push(level("o1", 1, 0));
    opt.levels.push(level("o2", 2, 0));
    let mut later = dungeon("Later", 5, 0);
    later.levels.push(level("first", 1, 0));
    let mut second = level("second", 1, 0);
    second.chain = 2;
    later.levels.push(second);
    let script = Script {
        prelude: None,
        dungeons: vec![top, opt, later],
    };
    let res = native(&script);
    let (mut ok, mut shifted) = (0, 0);
    for seed in 0..100 {
        match res.resolve(seed, RngKind::Glibc, false, false) {
            Ok(out) => {
                ok += 1;
                assert_eq!(
                    out.levels
                        .iter()
                        .find(|l| l.name == "second")
                        .unwrap()
                        .level,
                    2
                );
            }
            Err(LoadError::ChainShifted { chain: 2, .. }) => shifted += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert!(ok > 20 && shifted > 20, "{ok} {shifted}");
}

#[test]
fn a_chain_to_a_level_that_lost_its_roll_is_an_error() {
    let mut top = dungeon("Top", 10, 0);
    let mut rare = level("rare", 2, 0);
    rare.chance = 1;
    top.levels.push(rare);
    let mut next = level("next", 1, 0);
    next.chain = 0;
    top.levels.push(next);
    let script = Script {
        prelude: None,
        dungeons: vec![top],
    };
    let res = native(&script);
    let errs = (0..50)
        .filter(|&s| res.resolve(s, RngKind::Isaac64, false, false).is_err())
        .count();
    assert!(errs > 40);
    let e = (0..50)
        .find_map(|s| res.resolve(s, RngKind::Isaac64, false, false).err())
        .unwrap();
    assert_eq!(
        e.nethack_panic().as_deref(),
        Some("level_range: empty chain level!")
    );
}

#[test]
fn too_many_dungeons_for_nethack() {
    let script = Script {
        prelude: None,
        dungeons: (0..16).map(|i| dungeon(&format!("d{i}"), 1, 0)).collect(),
    };
    assert!(matches!(
        Resolver::new(&script).unwrap_err(),
        LoadError::TooManyDungeons { count: 16, max: 16 }
    ));
    assert!(Resolver::with_rules(&script, Rules::native()).is_ok());
}

#[test]
fn the_buffer_is_reused_without_changing_results() {
    let mut top = dungeon("Top", 20, 5);
    top.branches.push(branch("Side", 2, 5));
    for i in 0..6 {
        top.levels.push(level(&format!("l{i}"), 2 + 2 * i, 4));
    }
    let script = Script {
        prelude: None,
        dungeons: vec![top, dungeon("Side", 4, 2)],
    };
    let res = native(&script);
    let mut buf = Resolved::default();
    for rng in RngKind::ALL {
        for seed in 0..50 {
            res.resolve_into(seed, rng, false, &mut buf).unwrap();
            let fresh = res.resolve(seed, rng, false, false).unwrap();
            assert_eq!(buf.to_layout(&res, None), fresh);
        }
    }
}

/// A file that fails for some seeds: "Side" (70%) may be dropped, and
/// "Deep" is reached only through it.
fn sometimes_failing() -> Script {
    let mut top = dungeon("Top", 20, 5);
    top.branches.push(branch("Side", 2, 5));
    for i in 0..6 {
        top.levels.push(level(&format!("l{i}"), 2 + 2 * i, 4));
    }
    let mut side = dungeon("Side", 4, 2);
    side.chance = 70;
    side.branches.push(branch("Deep", 1, 2));
    Script {
        prelude: None,
        dungeons: vec![top, side, dungeon("Deep", 3, 0)],
    }
}

#[test]
fn many_seeds_at_once_resolve_as_one_by_one() {
    let res = native(&sometimes_failing());
    let mut one = Resolved::default();
    let mut batch = Resolved::default();
    for rng in RngKind::ALL {
        for wizard in [false, true] {
            let mut failed = 0;
            // 23 seeds: whole batches, then a partial one; after a first
            // run, the generators are reused.
            for seeds in [0..23u64, 1000..1023, u64::MAX - 9..u64::MAX] {
                let mut seen = Vec::new();
                let flow =
                    res.resolve_seeds(seeds.clone(), rng, wizard, &mut batch, |seed, r, got| {
                        let expected = res.resolve_into(seed, rng, wizard, &mut one);
                        assert_eq!(r, expected, "seed {seed} ({rng}, wizard {wizard})");
                        if r.is_ok() {
                            assert_eq!(got, &one, "seed {seed} ({rng}, wizard {wizard})");
                        } else {
                            failed += 1;
                        }
                        seen.push(seed);
                        ControlFlow::Continue(())
                    });
                assert_eq!(flow, ControlFlow::Continue(()));
                assert_eq!(seen, seeds.collect::<Vec<_>>());
            }
            if !wizard {
                assert!(failed > 0, "some seeds drop \"Side\" ({rng})");
            }
        }
    }
}

#[test]
fn many_seeds_stop_when_asked() {
    let res = native(&sometimes_failing());
    let mut out = Resolved::default();
    let mut seen = Vec::new();
    let flow = res.resolve_seeds(10..100, RngKind::Isaac64, false, &mut out, |seed, _, _| {
        seen.push(seed);
        if seed == 14 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(flow, ControlFlow::Break(()));
    assert_eq!(seen, [10, 11, 12, 13, 14]);
    // An empty run calls nothing.
    let flow = res.resolve_seeds(
        5..5,
        RngKind::Isaac64,
        false,
        &mut out,
        |_, _, _| unreachable!(),
    );
    assert_eq!(flow, ControlFlow::Continue(()));
}

mod arbitrary {
    use super::*;
    use proptest::prelude::*;

    fn any_range() -> impl Strategy<Value = Range> {
        let edge = prop_oneof![
            Just(i32::MIN),
            Just(i32::MAX),
            Just(-1),
            Just(0),
            Just(1),
            Just(127),
            Just(128)
        ];
        let base = prop_oneof![4 => -12..40i32, 1 => edge.clone()];
        let rand = prop_oneof![4 => -3..12i32, 1 => edge];
        (base, rand).prop_map(|(base, rand)| Range { base, rand })
    }

    fn any_script() -> impl Strategy<Value = Script> {
        let level = (any_range(), 0..=100i32, -2..12i32, "[a-z]{1,6}").prop_map(
            |(range, chance, chain, name)| Level {
                name: name.into_bytes(),
                range,
                chance,
                chain,
                ..Level::default()
            },
        );
        let branch = (any_range(), -2..12i32, 0..4i32, any::<bool>(), 0..6usize).prop_map(
            |(range, chain, t, up, target)| Branch {
                target: format!("d{target}").into_bytes(),
                range,
                chain,
                branch_type: BranchType::from_code(t).unwrap_or_default(),
                up,
                entry: None,
            },
        );
        let dungeon = (
            any_range(),
            prop_oneof![Just(0), 0..=100i32],
            -4..6i32,
            proptest::collection::vec(level, 0..6),
            proptest::collection::vec(branch, 0..4),
        )
            .prop_map(|(size, chance, entry, levels, branches)| Dungeon {
                size,
                chance,
                entry,
                levels,
                branches,
                ..Dungeon::default()
            });
        proptest::collection::vec(dungeon, 1..6).prop_map(|mut ds| {
            for (i, d) in ds.iter_mut().enumerate() {
                d.name = format!("d{i}").into_bytes();
            }
            Script {
                prelude: None,
                dungeons: ds,
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// Any script, any rules, any seed: a layout or an error, never a
        /// panic, and the traced and untraced paths agree.
        #[test]
        fn never_panics(script in any_script(), seed in any::<u64>(), wizard in any::<bool>()) {
            for rules in [Rules::nethack_343(), Rules::nethack_36(), Rules::native()] {
                let Ok(mut res) = Resolver::with_rules(&script, rules) else { continue };
                res.set_placement_budget(20_000);
                for rng in RngKind::ALL {
                    let plain = res.resolve(seed, rng, wizard, false);
                    let traced = res.resolve(seed, rng, wizard, true);
                    prop_assert_eq!(plain.map(|l| (l.dungeons, l.levels, l.branches)), traced.map(|l| (l.dungeons, l.levels, l.branches)));
                }
            }
        }
    }
}

/// NetHack 3.7's rules without the hard-wired dungeon names.
fn rules_37() -> Rules {
    Rules {
        required_dungeons: &[],
        ..Rules::nethack_37()
    }
}

#[test]
fn nethack_37_loading_starts_with_nhlibs_shuffle() {
    let mut d = dungeon("Top", 5, 2);
    d.levels.push(level("start", 2, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![d],
    };
    let res = Resolver::with_rules(&script, rules_37()).unwrap();
    let (_, log) = draws(&res, 3, RngKind::Isaac64, true);
    assert_eq!(log[0].site, Site::LuaShuffle);
    assert_eq!((log[0].n, log[1].n), (3, 2));
    assert_eq!(log[2].site, Site::DungeonSize { dungeon: 0 });
    let (_, log36) = draws(&native(&script), 3, RngKind::Isaac64, true);
    assert!(log36.iter().all(|d| d.site != Site::LuaShuffle));
    assert_eq!(log36[0].site, Site::DungeonSize { dungeon: 0 });
}

#[test]
fn game_start_draws_come_first_and_stay_out_of_rng_calls() {
    let script = Script {
        prelude: None,
        dungeons: vec![dungeon("Top", 5, 2)],
    };
    let mut res = Resolver::with_rules(&script, rules_37()).unwrap();
    let plain = res.resolve(9, RngKind::Isaac64, true, true).unwrap();
    res.set_game_start(GameStart {
        fixed: 5,
        gender_rolls: 1,
        ..GameStart::NONE
    });
    let (_, log) = draws(&res, 9, RngKind::Isaac64, true);
    let sites: Vec<Site> = log.iter().take(7).map(|d| d.site).collect();
    assert_eq!(&sites[..5], &[Site::ObjectInit; 5]);
    assert_eq!(sites[5], Site::QuestGender);
    assert_eq!(sites[6], Site::LuaShuffle);
    let started = res.resolve(9, RngKind::Isaac64, true, true).unwrap();
    let calls = started.rng_calls.unwrap();
    assert_eq!(calls.len(), log.len() - 6);
    // Six outputs later, the loader draws other values.
    let mut g = crate::rng::Isaac64::new(9);
    (0..6).for_each(|_| {
        g.next_word();
    });
    assert_eq!(calls[0], format!("rn2(3)={}", g.rn2(3)));
    assert_ne!(plain.rng_calls, Some(calls));
}

#[test]
fn an_unconnected_dungeon_has_no_branch_and_starts_at_depth_one() {
    let mut top = dungeon("Top", 10, 0);
    top.branches.push(branch("Side", 3, 2));
    let mut tutorial = dungeon("Tutorial", 2, 0);
    tutorial.chance = 100;
    tutorial.flags = flags::MAZELIKE;
    tutorial.lua.unconnected = true;
    tutorial.levels.push(level("tut-1", 1, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![top, dungeon("Side", 4, 0), tutorial],
    };
    let res = Resolver::with_rules(&script, rules_37()).unwrap();
    for seed in 0..10 {
        let (out, log) = draws(&res, seed, RngKind::Isaac64, false);
        let out = out.unwrap();
        assert_eq!(out.dungeons[2].depth_start, 1);
        assert_eq!(out.dungeons[2].ledger_start, 14);
        assert_eq!(out.branches.len(), 1);
        assert!(!log
            .iter()
            .any(|d| d.site == Site::BranchLevel { dungeon: 2 }));
        // 3.7 rolls every dungeon's chance (100 unless given).
        assert!(log
            .iter()
            .any(|d| d.site == Site::DungeonChance { dungeon: 2 }));
    }
    // A loader without the flag refuses instead of guessing.
    let err = Resolver::with_rules(&script, Rules::nethack_36()).unwrap_err();
    assert_eq!(err.code(), "unsupported");
}

/// Top, then an optional dungeon with a level named `mid`, then a dungeon
/// whose level chains to Top's `anchor`.
fn chained_after_optional() -> Script {
    let mut top = dungeon("Top", 10, 0);
    top.levels.push(level("anchor", 3, 0));
    top.branches.push(branch("Optional", 2, 0));
    top.branches.push(branch("Chained", 6, 0));
    let mut opt = dungeon("Optional", 3, 0);
    opt.chance = 50;
    opt.levels.push(level("mid", 1, 0));
    let mut chained = dungeon("Chained", 8, 0);
    let mut l = level("follows", 2, 0);
    l.chain = 0;
    chained.levels.push(l);
    Script {
        prelude: None,
        dungeons: vec![top, opt, chained],
    }
}

#[test]
fn nethack_37_resolves_a_chain_by_name_past_a_dropped_dungeon() {
    // The chain (file index 0) reads `anchor`'s level + 2 in both
    // versions; a dropped dungeon changes nothing since index 0 comes
    // first. Chain to index 1 (`mid`) instead: 3.7 looks up "mid", which
    // is gone with its dungeon, and aborts; 3.6 reads slot 1, which is
    // the chained level itself, not yet placed.
    let mut script = chained_after_optional();
    script.dungeons[2].levels[0].chain = 1;
    script.dungeons[2].levels[0].range = Range { base: 0, rand: 0 };
    let r37 = Resolver::with_rules(&script, rules_37()).unwrap();
    let r36 = Resolver::with_rules(
        &script,
        Rules {
            required_dungeons: &[],
            ..Rules::nethack_36()
        },
    )
    .unwrap();
    let (mut dropped, mut kept) = (0, 0);
    for seed in 0..60 {
        let (out, log) = draws(&r37, seed, RngKind::Isaac64, false);
        let gone = log
            .iter()
            .any(|d| d.site == Site::DungeonChance { dungeon: 1 } && d.r >= 50);
        if gone {
            dropped += 1;
            let e = out.unwrap_err();
            assert_eq!(e.code(), "chain-not-found", "seed {seed}");
            assert_eq!(
                e.nethack_panic().as_deref(),
                Some("Could not chain level follows to mid")
            );
        } else {
            kept += 1;
            let out = out.unwrap();
            let mid = out.levels.iter().find(|l| l.record == 1).unwrap();
            let follows = out.levels.iter().find(|l| l.record == 2).unwrap();
            assert_eq!(follows.level, mid.level);
        }
    }
    assert!(dropped > 10 && kept > 10, "{dropped} {kept}");
    let shifted = (0..60)
        .filter_map(|seed| draws(&r36, seed, RngKind::Isaac64, false).0.err())
        .inspect(|e| assert_eq!(e.code(), "chain-shifted"))
        .count();
    assert!(shifted > 10, "{shifted}");
}

#[test]
fn nethack_37_chains_a_later_namesake_when_the_first_is_dropped() {
    // `anchor` twice: in the optional dungeon, then in Top's successor.
    // 3.7 takes the first that exists.
    let mut top = dungeon("Top", 10, 0);
    top.branches.push(branch("Optional", 2, 0));
    top.branches.push(branch("Second", 4, 0));
    top.branches.push(branch("Chained", 6, 0));
    let mut opt = dungeon("Optional", 5, 0);
    opt.chance = 50;
    opt.levels.push(level("anchor", 1, 0));
    let mut second = dungeon("Second", 5, 0);
    second.levels.push(level("anchor", 4, 0));
    let mut chained = dungeon("Chained", 8, 0);
    let mut l = level("follows", 1, 0);
    l.chain = 0;
    chained.levels.push(l);
    let script = Script {
        prelude: None,
        dungeons: vec![top, opt, second, chained],
    };
    let res = Resolver::with_rules(&script, rules_37()).unwrap();
    let mut seen = [false; 2];
    for seed in 0..40 {
        let (out, log) = draws(&res, seed, RngKind::Isaac64, false);
        let out = out.unwrap();
        let gone = log
            .iter()
            .any(|d| d.site == Site::DungeonChance { dungeon: 1 } && d.r >= 50);
        let follows = out.levels.iter().find(|l| l.record == 2).unwrap();
        // anchor + 1: level 2 after the optional one, 5 after the second.
        assert_eq!(follows.level, if gone { 5 } else { 2 }, "seed {seed}");
        seen[usize::from(gone)] = true;
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn nethack_37_hides_the_last_level_read_from_a_dungeons_first_branch() {
    // dungeon.c:888 searches `n_levs + f - 1` records for branch f.
    let mut top = dungeon("Top", 10, 0);
    top.levels.push(level("first", 2, 0));
    top.levels.push(level("last", 5, 0));
    let mut b = branch("Side", 1, 0);
    b.chain = 1;
    top.branches.push(b);
    let script = Script {
        prelude: None,
        dungeons: vec![top.clone(), dungeon("Side", 2, 0)],
    };
    let res = Resolver::with_rules(&script, rules_37()).unwrap();
    let (out, log) = draws(&res, 0, RngKind::Isaac64, false);
    assert_eq!(
        out.unwrap_err().nethack_panic().as_deref(),
        Some("Could not chain branch Side to level last")
    );
    // Read before anything of the dungeon is drawn.
    assert!(log.iter().all(|d| d.site == Site::LuaShuffle), "{log:?}");
    // As the second branch, the same chain is found.
    let mut top2 = top;
    top2.branches.insert(0, branch("Other", 8, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![top2, dungeon("Other", 2, 0), dungeon("Side", 2, 0)],
    };
    let res = Resolver::with_rules(&script, rules_37()).unwrap();
    let out = draws(&res, 0, RngKind::Isaac64, false).0.unwrap();
    let last = out.levels.iter().find(|l| l.record == 1).unwrap();
    let side = out.branches.iter().find(|b| b.end2.0 == 2).unwrap();
    assert_eq!(side.end1, (0, last.level + 1));
}

#[test]
fn nethack_37_alignments_are_as_the_game_stores_them() {
    let mut top = dungeon("Top", 5, 0);
    top.flags = flags::ALIGN_LAWFUL << flags::ALIGN_SHIFT;
    top.levels.push(level("plain", 1, 0));
    let mut own = level("own", 2, 0);
    own.flags = flags::ALIGN_NEUTRAL << flags::ALIGN_SHIFT;
    top.levels.push(own);
    let mut tut = dungeon("Tut", 2, 0);
    tut.lua.unconnected = true;
    tut.levels.push(level("tut-1", 1, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![top, tut],
    };
    let res = Resolver::with_rules(&script, rules_37()).unwrap();
    let layout = res.resolve(0, RngKind::Isaac64, true, false).unwrap();
    let align = |name: &str| layout.levels.iter().find(|l| l.name == name).unwrap().align;
    // The dungeon's own alignment does not reach the 3-bit field nor its
    // levels; `unconnected` reads as chaotic.
    assert_eq!(layout.dungeons[0].align, 0);
    assert_eq!(align("plain"), 0);
    assert_eq!(align("own"), flags::ALIGN_NEUTRAL);
    assert_eq!(align("tut-1"), flags::ALIGN_CHAOTIC);
    let res36 = Resolver::with_rules(
        &Script {
            prelude: None,
            dungeons: vec![script.dungeons[0].clone()],
        },
        Rules::native(),
    )
    .unwrap();
    let layout = res36.resolve(0, RngKind::Isaac64, true, false).unwrap();
    assert_eq!(layout.dungeons[0].align, flags::ALIGN_LAWFUL);
    assert_eq!(layout.levels[0].align, flags::ALIGN_LAWFUL);
}

#[test]
fn nethack_37_counts_levels_in_16_bits() {
    let mut d = dungeon("Top", 200, 0);
    d.levels.push(level("deep", -1, 0));
    let script = Script {
        prelude: None,
        dungeons: vec![d],
    };
    // 200 is -56 in 3.6's byte: the level's base is out of range; 3.7
    // clamps 200 to 32 levels.
    let res = Resolver::with_rules(&script, rules_37()).unwrap();
    let out = draws(&res, 0, RngKind::Isaac64, true).0.unwrap();
    assert_eq!(out.dungeons[0].num_levels, MAXLEVEL);
    let res36 = Resolver::with_rules(
        &script,
        Rules {
            required_dungeons: &[],
            ..Rules::nethack_36()
        },
    )
    .unwrap();
    assert!(draws(&res36, 0, RngKind::Isaac64, true).0.is_err());
}

// ------------------------------------------------ rn2 of a negative count

/// `Top` (10 levels) with `oracle` on level 5 and `CHAINBRANCH: "Side"
/// "oracle" + (1, -3)`: `level_range` returns base 6 and count -3 (3.6
/// `dungeon.c:375-379`). With `taken`, a dungeon `Other` reached by a
/// branch on level 6 comes first, so level 6 ends a branch when `Side`'s
/// is placed.
fn negative_chain_branch(taken: bool) -> Script {
    let mut top = dungeon("Top", 10, 0);
    top.levels.push(level("oracle", 5, 0));
    let mut side = branch("Side", 1, -3);
    side.chain = 0;
    let mut dungeons = vec![top];
    if taken {
        dungeons[0].branches.push(branch("Other", 6, 0));
        dungeons.push(dungeon("Other", 1, 0));
    }
    dungeons[0].branches.push(side);
    dungeons.push(dungeon("Side", 1, 0));
    Script {
        prelude: None,
        dungeons,
    }
}

/// 3.6's rules (no hard-wired dungeons) with `rn2` of a negative argument
/// as `mode` says.
fn rules_with(mode: NonPositiveRn2) -> Rules {
    Rules {
        required_dungeons: &[],
        rn2_nonpositive: mode,
        ..Rules::nethack_36()
    }
}

/// The generator's `t`-th output word (every draw of these generators
/// takes one).
fn raw_word(rng: RngKind, seed: u64, t: usize) -> u64 {
    fn nth<S: Source>(mut g: S, t: usize) -> u64 {
        for _ in 0..t {
            g.next_raw();
        }
        g.next_raw()
    }
    match rng {
        RngKind::Glibc => nth(Glibc::new(seed), t),
        RngKind::Isaac64 => nth(Isaac64::new(seed), t),
        RngKind::Isaac32 => nth(Isaac32::new(seed), t),
        RngKind::Mt19937Cokus => nth(Mt19937Cokus::new(seed), t),
    }
}

/// Where `Side`'s branch draws in the log (`Side` is the last record).
fn side_draws(log: &[Draw], side: u32) -> Vec<(usize, Draw)> {
    log.iter()
        .copied()
        .enumerate()
        .filter(|(_, d)| d.site == Site::BranchLevel { dungeon: side })
        .collect()
}

#[test]
fn the_games_rn2_of_a_negative_argument() {
    assert_eq!(
        Rules::nethack_343().rn2_nonpositive,
        NonPositiveRn2::OneDrawModulo
    );
    assert_eq!(
        Rules::nethack_36().rn2_nonpositive,
        NonPositiveRn2::OneDrawRaw
    );
    assert_eq!(Rules::nethack_37().rn2_nonpositive, NonPositiveRn2::NoDraw);
    // 3.6.0 and 3.6.1 ran on glibc's random(): `Rand() % (long)x`.
    let raw = NonPositiveRn2::OneDrawRaw;
    assert_eq!(raw.with_generator(RngKind::Isaac64), raw);
    assert_eq!(
        raw.with_generator(RngKind::Glibc),
        NonPositiveRn2::OneDrawModulo
    );
    assert_eq!(
        NonPositiveRn2::NoDraw.with_generator(RngKind::Glibc),
        NonPositiveRn2::NoDraw
    );
}

/// 3.4.3, SLASH'EM, DynaHack: `rn2(-3)` draws once and gives
/// `random() % 3`; `i` becomes 0 at once, so the branch is on `base`,
/// level 6 (3.6 `dungeon.c:398-407`).
#[test]
fn modulo_rn2_draws_once_and_takes_the_base() {
    let res = Resolver::with_rules(
        &negative_chain_branch(false),
        rules_with(NonPositiveRn2::OneDrawModulo),
    )
    .unwrap();
    let mut seen = [false; 3];
    for seed in 0..40 {
        let (out, log) = draws(&res, seed, RngKind::Glibc, false);
        let out = out.unwrap();
        let at = side_draws(&log, 1);
        assert_eq!(at.len(), 1, "seed {seed}: {log:?}");
        let (t, d) = at[0];
        assert_eq!(d.n, -3);
        let j = raw_word(RngKind::Glibc, seed, t) % 3;
        assert_eq!(u64::from(d.r), j, "seed {seed}");
        assert_eq!(d.to_string(), format!("rn2(-3)={j}"));
        seen[j as usize] = true;
        assert_eq!(out.branches[0].end1, (0, 6), "seed {seed}");
        // Depth from level 6, one down.
        assert_eq!(out.dungeons[1].depth_start, 7);
    }
    assert_eq!(seen, [true; 3]);
}

/// The same with level 6 ending a branch already: `j == 0` stops the loop
/// there (`i == j`), any other `j` keeps `i` at 0 forever.
#[test]
fn modulo_rn2_hangs_when_the_base_is_taken_and_j_is_not_0() {
    let res = Resolver::with_rules(
        &negative_chain_branch(true),
        rules_with(NonPositiveRn2::OneDrawModulo),
    )
    .unwrap();
    let (mut hung, mut placed) = (0, 0);
    for seed in 0..60 {
        let (out, log) = draws(&res, seed, RngKind::Glibc, false);
        let at = side_draws(&log, 2);
        assert_eq!(at.len(), 1, "seed {seed}");
        let j = at[0].1.r as i32;
        match out {
            Ok(out) => {
                assert_eq!(j, 0, "seed {seed}");
                placed += 1;
                let side = out.branches.iter().find(|b| b.end2.0 == 2).unwrap();
                assert_eq!(side.end1, (0, 6));
                // The branch is the last draw before the tune.
                assert_eq!(log.len(), at[0].0 + 6);
            }
            Err(e) => {
                hung += 1;
                assert_ne!(j, 0);
                assert_eq!(
                    e,
                    LoadError::BranchLevelHangs {
                        dungeon: "Side".into(),
                        rand: -3,
                        level: 6,
                        drawn: j,
                    }
                );
                assert_eq!(e.code(), "branch-level-hangs");
                assert!(e.to_string().contains("hangs"), "{e}");
                assert_eq!(e.nethack_panic(), None);
                // Nothing is drawn after it.
                assert_eq!(log.len(), at[0].0 + 1);
            }
        }
    }
    assert!(hung > 20 && placed > 5, "{hung} {placed}");
}

/// NetHack 3.6.2 and later, EvilHack, GnollHack: `rn2(-3)` is
/// `isaac64_next_uint64() % (2^64 - 3)` cut to an `int` `j`. For `j >= -4`
/// `++i >= -3` makes `i` 0: level 6. Below, `i = j + 1` stays, `base + i`
/// ends no branch, and the level is `6 + j + 1` stored in an `xchar`.
#[test]
fn raw_rn2_takes_isaac64s_whole_output() {
    let res = Resolver::with_rules(
        &negative_chain_branch(false),
        rules_with(NonPositiveRn2::OneDrawRaw),
    )
    .unwrap();
    let (mut at_base, mut wrapped) = (0, 0);
    for seed in 0..60 {
        let (out, log) = draws(&res, seed, RngKind::Isaac64, false);
        let out = out.unwrap();
        let at = side_draws(&log, 1);
        assert_eq!(at.len(), 1, "seed {seed}");
        let (t, d) = at[0];
        assert_eq!(d.n, -3);
        let w = raw_word(RngKind::Isaac64, seed, t);
        let j = (w % (u64::MAX - 2)) as u32 as i32;
        assert_eq!(d.r as i32, j, "seed {seed}");
        assert_eq!(d.value(), i64::from(j));
        assert_eq!(d.to_string(), format!("rn2(-3)={j}"));
        let want = if j.wrapping_add(1) >= -3 {
            at_base += 1;
            6
        } else {
            wrapped += 1;
            i32::from(6i32.wrapping_add(j).wrapping_add(1) as i8)
        };
        assert_eq!(out.branches[0].end1, (0, want), "seed {seed}, j {j}");
    }
    assert!(at_base > 10 && wrapped > 10, "{at_base} {wrapped}");
}

/// The same with level 6 taken: `j >= -4` (not 0, in practice) hangs; a
/// very negative `j` looks at `base + j + 1` only, which is free.
#[test]
fn raw_rn2_hangs_on_a_taken_base_unless_j_climbs_below_it() {
    let res = Resolver::with_rules(
        &negative_chain_branch(true),
        rules_with(NonPositiveRn2::OneDrawRaw),
    )
    .unwrap();
    let (mut hung, mut placed) = (0, 0);
    for seed in 0..60 {
        let (out, log) = draws(&res, seed, RngKind::Isaac64, false);
        let at = side_draws(&log, 2);
        let j = at[0].1.r as i32;
        match out {
            Ok(out) => {
                placed += 1;
                assert!(j.wrapping_add(1) < -3, "seed {seed}");
                let side = out.branches.iter().find(|b| b.end2.0 == 2).unwrap();
                let want = i32::from(7i32.wrapping_add(j) as i8);
                assert_eq!(side.end1, (0, want));
            }
            Err(e) => {
                hung += 1;
                assert!(j != 0 && j.wrapping_add(1) >= -3, "seed {seed}");
                assert!(matches!(e, LoadError::BranchLevelHangs { drawn, .. } if drawn == j));
            }
        }
    }
    assert!(hung > 10 && placed > 10, "{hung} {placed}");
}

/// UnNetHack and NetHack 3.7 (and its forks): `rn2(-3)` is 0 without a
/// draw, so `j == 0`: level 6, taken or not; the draws after it are those
/// of a file without the branch draw.
#[test]
fn no_draw_rn2_takes_the_base_even_when_taken() {
    for taken in [false, true] {
        let script = negative_chain_branch(taken);
        let res = Resolver::with_rules(&script, rules_with(NonPositiveRn2::NoDraw)).unwrap();
        let side = script.dungeons.len() as u32 - 1;
        for seed in 0..20 {
            let (out, log) = draws(&res, seed, RngKind::Isaac32, false);
            let out = out.unwrap();
            assert!(side_draws(&log, side).is_empty(), "seed {seed}: {log:?}");
            let b = out
                .branches
                .iter()
                .find(|b| b.end2.0 == side as i32)
                .unwrap();
            assert_eq!(b.end1, (0, 6));
            // Level chance, placement, [Other's branch], tune.
            assert_eq!(log.len(), 2 + usize::from(taken) + 5);
        }
    }
}

/// dNetHack: `rn2(-3)` draws once and gives 0 (`x` taken as 1): level 6,
/// taken or not.
#[test]
fn one_draw_zero_rn2_takes_the_base_even_when_taken() {
    for taken in [false, true] {
        let script = negative_chain_branch(taken);
        let res = Resolver::with_rules(&script, rules_with(NonPositiveRn2::OneDrawZero)).unwrap();
        let side = script.dungeons.len() as u32 - 1;
        for seed in 0..20 {
            let (out, log) = draws(&res, seed, RngKind::Glibc, false);
            let out = out.unwrap();
            let at = side_draws(&log, side);
            assert_eq!(at.len(), 1);
            assert_eq!((at[0].1.n, at[0].1.r), (-3, 0));
            assert_eq!(at[0].1.to_string(), "rn2(-3)=0");
            let b = out
                .branches
                .iter()
                .find(|b| b.end2.0 == side as i32)
                .unwrap();
            assert_eq!(b.end1, (0, 6));
        }
    }
}

/// A level's range with a random part below -1 holds no level: every
/// game's `place_level` calls `pick_level(map, rn2(count))`, which draws
/// as its `rn2` does and panics (3.6 `dungeon.c:587-615`, `:658-661`).
#[test]
fn a_level_with_a_negative_count_panics_in_pick_level_after_its_draw() {
    let mut top = dungeon("Top", 10, 0);
    top.levels.push(level("oracle", 5, 0));
    let mut bad = level("bigrm", 1, -3);
    bad.chain = 0;
    top.levels.push(bad);
    let script = Script {
        prelude: None,
        dungeons: vec![top],
    };
    for (mode, rng, n_draws) in [
        (NonPositiveRn2::OneDrawModulo, RngKind::Glibc, 1),
        (NonPositiveRn2::OneDrawRaw, RngKind::Isaac64, 1),
        (NonPositiveRn2::NoDraw, RngKind::Isaac32, 0),
        (NonPositiveRn2::OneDrawZero, RngKind::Glibc, 1),
    ] {
        let res = Resolver::with_rules(&script, rules_with(mode)).unwrap();
        for seed in 0..10 {
            let (out, log) = draws(&res, seed, rng, false);
            let e = out.unwrap_err();
            assert_eq!(
                e,
                LoadError::NoValidLevel {
                    name: "bigrm".into()
                },
                "{mode:?}"
            );
            assert_eq!(
                e.nethack_panic().as_deref(),
                Some("pick_level:  ran out of valid levels")
            );
            let at: Vec<&Draw> = log
                .iter()
                .filter(|d| d.site == Site::Place { level: 1 })
                .collect();
            assert_eq!(at.len(), n_draws, "{mode:?}: {log:?}");
            assert!(at.iter().all(|d| d.n == -3));
            // Nothing after it.
            assert!(n_draws == 0 || std::ptr::eq(log.last().unwrap(), at[0]));
        }
    }
}

/// `rn1(rand, base)` with a negative random part (every dgn_comp but
/// dNetHack's writes it): 3.4.3 draws `0..=2`, 3.6 takes ISAAC-64's raw
/// output cut to an `xchar` (then cut to MAXLEVEL), 3.7 and UnNetHack
/// take the base without a draw, dNetHack draws and takes the base.
#[test]
fn a_dungeon_size_with_a_negative_random_part() {
    let script = Script {
        prelude: None,
        dungeons: vec![dungeon("Top", 5, -3)],
    };
    for (mode, rng) in [
        (NonPositiveRn2::OneDrawModulo, RngKind::Glibc),
        (NonPositiveRn2::OneDrawRaw, RngKind::Isaac64),
        (NonPositiveRn2::NoDraw, RngKind::Isaac32),
        (NonPositiveRn2::OneDrawZero, RngKind::Glibc),
    ] {
        let res = Resolver::with_rules(&script, rules_with(mode)).unwrap();
        let mut sizes = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let (out, log) = draws(&res, seed, rng, false);
            let out = out.unwrap();
            let at: Vec<&Draw> = log
                .iter()
                .filter(|d| d.site == Site::DungeonSize { dungeon: 0 })
                .collect();
            let num = out.dungeons[0].num_levels;
            sizes.insert(num);
            match mode {
                NonPositiveRn2::NoDraw => {
                    assert!(at.is_empty());
                    assert_eq!(num, 5);
                }
                NonPositiveRn2::OneDrawZero => {
                    assert_eq!((at.len(), at[0].r), (1, 0));
                    assert_eq!(num, 5);
                }
                NonPositiveRn2::OneDrawModulo => {
                    assert_eq!(at.len(), 1);
                    let j = raw_word(rng, seed, 0) % 3;
                    assert_eq!(num, 5 + j as i32);
                }
                NonPositiveRn2::OneDrawRaw => {
                    assert_eq!(at.len(), 1);
                    let j = (raw_word(rng, seed, 0) % (u64::MAX - 2)) as u32 as i32;
                    let want = i32::from(j.wrapping_add(5) as i8).min(MAXLEVEL);
                    assert_eq!(num, want, "seed {seed}");
                }
            }
        }
        if mode == NonPositiveRn2::OneDrawModulo {
            assert_eq!(sizes.into_iter().collect::<Vec<_>>(), [5, 6, 7]);
        }
    }
}

/// The loader follows the generator: NetHack 3.6's rules on glibc (3.6.0
/// and 3.6.1) divide as 3.4.3 does.
#[test]
fn nethack_36_on_glibc_divides_as_343() {
    let script = negative_chain_branch(true);
    let r36 = Resolver::with_rules(&script, rules_with(NonPositiveRn2::OneDrawRaw)).unwrap();
    let r343 = Resolver::with_rules(&script, rules_with(NonPositiveRn2::OneDrawModulo)).unwrap();
    for seed in 0..20 {
        let (a, la) = draws(&r36, seed, RngKind::Glibc, false);
        let (b, lb) = draws(&r343, seed, RngKind::Glibc, false);
        assert_eq!(la, lb);
        assert_eq!(a.map(|o| o.branches), b.map(|o| o.branches));
    }
}
