//! `rn2` of a negative count, as each game's generator answers it.

use super::rules::dnethack_rules;
use super::*;

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
            ..dnethack_rules(dgnkit_loader::GameInputs::default())
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
            game: dgnkit_loader::LoaderGame {
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
        game: dgnkit_loader::LoaderGame {
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
