//! `dgn find` counts exactly what a brute-force count over `dgn layout
//! --seeds` gives: each query here is also written by hand over the
//! named [`Layout`] (the `--seeds` JSON line's structure), and both must
//! pick the same seeds out of 100,000, for both generators, with and
//! without wizard mode. The search itself stops drawing early and runs
//! on several threads; the reference resolves every layout fully.

use dgnkit::bones::{level_verdict, BonesOptions};
use dgnkit::find::{self, Finder};
use dgnkit::layout::Layout;
use dgnkit::loader::{Resolved, Resolver};
use dgnkit::options::Target;
use dgnkit::rng::RngKind;
use dgnkit::stats::{self, StatsOptions};
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

const SEEDS: u64 = 100_000;

fn dungeon(l: &Layout, name: &str) -> Option<usize> {
    l.dungeons.iter().position(|d| d.name == name)
}

fn level(l: &Layout, name: &str) -> Option<(usize, i32)> {
    l.levels
        .iter()
        .find(|x| x.name == name)
        .map(|x| (x.dungeon as usize, x.level))
}

fn depth(l: &Layout, d: usize, level: i32) -> i32 {
    l.dungeons[d].depth_start + level - 1
}

fn level_depth(l: &Layout, name: &str) -> Option<i32> {
    level(l, name).map(|(d, lv)| depth(l, d, lv))
}

/// The branch into `name`: its level and depth in the parent. Fort
/// Ludios's parent is marked floating in layouts (`end1.dungeon` = number
/// of dungeons); in NetHack's file its BRANCH is in the Dungeons of Doom.
fn branch(l: &Layout, name: &str) -> Option<(i32, i32)> {
    let i = dungeon(l, name)? as i32;
    let b = l.branches.iter().find(|b| b.end2.dungeon == i)?;
    let parent = if b.end1.dungeon as usize == l.dungeons.len() {
        0
    } else {
        b.end1.dungeon as usize
    };
    Some((b.end1.level, depth(l, parent, b.end1.level)))
}

fn bones_at(l: &Layout, d: usize, level: i32) -> bool {
    level_verdict(l, d, level, &BonesOptions::default()).is_some_and(|v| v.leave_chance > 0.0)
}

type Reference = fn(&Layout) -> bool;

/// Queries and the same condition by hand.
const QUERIES: [(&str, Reference); 8] = [
    (
        r#"bigrm and oracle.depth == 5 and branch("The Gnomish Mines").depth <= 3"#,
        |l| {
            level(l, "bigrm").is_some()
                && level_depth(l, "oracle") == Some(5)
                && branch(l, "The Gnomish Mines").is_some_and(|b| b.1 <= 3)
        },
    ),
    (r#"not bigrm or medusa.level in 21..=23"#, |l| {
        level(l, "bigrm").is_none() || level(l, "medusa").is_some_and(|m| (21..=23).contains(&m.1))
    }),
    (
        r#"dungeon("The Gnomish Mines").levels == 9 and branch("Sokoban").depth in 6..8"#,
        |l| {
            dungeon(l, "The Gnomish Mines").is_some_and(|d| l.dungeons[d].num_levels == 9)
                && branch(l, "Sokoban").is_some_and(|b| (6..8).contains(&b.1))
        },
    ),
    (
        r#"tune == "ABCDE" or (bones(oracle) and not bones(10))"#,
        |l| {
            l.tune == "ABCDE"
                || (level(l, "oracle").is_some_and(|(d, lv)| bones_at(l, d, lv))
                    && !bones_at(l, 0, 10 - l.dungeons[0].depth_start + 1))
        },
    ),
    (
        r#"astral.depth < -3 and dungeon("Vlad's Tower").entry_depth >= 38"#,
        |l| {
            level_depth(l, "astral").is_some_and(|d| d < -3)
                && dungeon(l, "Vlad's Tower")
                    .is_some_and(|d| depth(l, d, l.dungeons[d].entry_level) >= 38)
        },
    ),
    (
        r#"branch("Fort Ludios").level >= 21 or "fakewiz1".level > 18"#,
        |l| {
            branch(l, "Fort Ludios").is_some_and(|b| b.0 >= 21)
                || level(l, "fakewiz1").is_some_and(|f| f.1 > 18)
        },
    ),
    (
        r#"minetn.dungeon == "The Gnomish Mines" and minetn.dungeon == 2 and castle.dungeon != 1 and dungeon("Gehennom").depth_start > 27"#,
        |l| {
            level(l, "minetn")
                .is_some_and(|(d, _)| l.dungeons[d].name == "The Gnomish Mines" && d == 2)
                && level(l, "castle").is_some_and(|(d, _)| d != 1)
                && dungeon(l, "Gehennom").is_some_and(|d| l.dungeons[d].depth_start > 27)
        },
    ),
    (
        r#"bones(12) and x-loca.level == 3 and dungeon("The Quest").exists"#,
        |l| {
            let lv = 12 - l.dungeons[0].depth_start + 1;
            bones_at(l, 0, lv)
                && level(l, "x-loca").is_some_and(|x| x.1 == 3)
                && dungeon(l, "The Quest").is_some()
        },
    ),
];

fn built_in() -> dgnkit::script::Script {
    dgnkit::frontend::analyze_fast(
        dgnkit_cli::layout::DEFAULT_DEF,
        &dgnkit::frontend::CheckOptions::default(),
    )
    .script
    .unwrap()
}

#[test]
fn counts_equal_a_brute_force_count_over_layouts() {
    let script = built_in();
    for (target, rng) in [
        (Target::NetHack36, RngKind::Isaac64),
        (Target::NetHack343, RngKind::Glibc),
    ] {
        let res = Resolver::with_rules(&script, target.game().rules.clone()).unwrap();
        for wizard in [false, true] {
            let stats = stats::exact(
                &script,
                &StatsOptions {
                    game: target.game().loader_game(),
                    wizard,
                    ..StatsOptions::default()
                },
            )
            .unwrap();
            assert!(
                find::stops_safely(Some(&stats)),
                "the search stops early here"
            );
            // The reference: every layout, fully resolved and named.
            let mut expected: Vec<Vec<u64>> = vec![Vec::new(); QUERIES.len()];
            let mut out = Resolved::default();
            let _ = res.resolve_seeds(0..SEEDS, rng, wizard, &mut out, |seed, r, out| {
                r.unwrap();
                let layout = out.to_layout(&res, None);
                for (i, (_, reference)) in QUERIES.iter().enumerate() {
                    if reference(&layout) {
                        expected[i].push(seed);
                    }
                }
                ControlFlow::Continue(())
            });
            let bones = BonesOptions::default();
            for (i, (text, _)) in QUERIES.iter().enumerate() {
                let query = find::compile(text, &res).unwrap();
                let finder = Finder::new(&res, &query, &bones, rng, wizard, true);
                let mut found = Vec::new();
                let _ = finder.search(0..SEEDS, 3, &AtomicBool::new(false), |c| {
                    assert_eq!(c.failed, 0);
                    found.extend_from_slice(&c.matches);
                    ControlFlow::Continue(())
                });
                assert_eq!(
                    found.len(),
                    expected[i].len(),
                    "{text}: {rng}, wizard {wizard}"
                );
                assert!(found == expected[i], "{text}: {rng}, wizard {wizard}");
                assert!(
                    !found.is_empty() && found.len() < SEEDS as usize,
                    "{text} decides something: {} of {SEEDS}",
                    found.len()
                );
            }
        }
    }
}
