use super::*;
use proptest::prelude::*;

fn lvl(base: i32, rand: i32) -> PLevel {
    PLevel {
        exists: true,
        base,
        rand,
        chain: -1,
        keep: false,
        filter: None,
        chance: 100,
    }
}

fn run(n: i32, levels: &[PLevel]) -> Placement {
    place(
        &Input {
            n,
            start: 0,
            levels,
            external: &[],
        },
        1_000_000,
        &Stop::default(),
        &mut Tails::default(),
    )
    .unwrap()
}

/// `range_of` before it called the loader: the base already moved by
/// the chain, `chained` saying whether it was.
fn former_range_of(n: i32, base: i32, rand: i32, chained: bool) -> RangeResult {
    let mut base = base;
    if !chained && base < 0 {
        base = base.wrapping_add(n).wrapping_add(1);
    }
    if base < 1 || base > n {
        return Err(Abort::BaseOutOfRange);
    }
    let count = match rand {
        -1 => n - base + 1,
        0 => 1,
        r if r > 0 => {
            if i64::from(base) + i64::from(r) - 1 > i64::from(n) {
                n - base + 1
            } else {
                r
            }
        }
        _ => return Err(Abort::NoValidLevel),
    };
    Ok((base, count))
}

#[test]
fn the_range_agrees_with_its_former_copy_on_every_small_input() {
    for n in -2..=34 {
        for base in -36..=36 {
            for rand in -36..=36 {
                assert_eq!(
                    range_of(n, base, rand, None),
                    former_range_of(n, base, rand, false)
                );
                for v in -2..=34 {
                    assert_eq!(
                        range_of(n, base, rand, Some(v)),
                        former_range_of(n, base.wrapping_add(v), rand, true),
                        "n {n} base {base} rand {rand} chained to {v}"
                    );
                }
            }
        }
    }
}

proptest::proptest! {
    #[test]
    fn the_range_agrees_with_its_former_copy_on_any_numbers(
        n in -1000i32..1000,
        base in proptest::prelude::any::<i32>(),
        rand in proptest::prelude::any::<i32>(),
        v in proptest::prelude::any::<i32>(),
    ) {
        proptest::prop_assert_eq!(
            range_of(n, base, rand, None),
            former_range_of(n, base, rand, false)
        );
        proptest::prop_assert_eq!(
            range_of(n, base, rand, Some(v)),
            former_range_of(n, base.wrapping_add(v), rand, true)
        );
    }
}

fn total(p: &Placement) -> f64 {
    p.classes.iter().map(|c| c.p.v).sum::<f64>()
        + p.fail.v
        + p.aborts.iter().map(|(_, w)| w.v).sum::<f64>()
}

#[test]
fn single_level_is_uniform_in_its_range() {
    let p = run(10, &[lvl(3, 4)]);
    assert_eq!(p.classes.len(), 1);
    let c = &p.classes[0];
    for l in 3..=6 {
        assert!((c.pos[0][l].v - 0.25).abs() < 1e-15);
    }
    assert!(c.pos[0][2].is_zero() && c.pos[0][7].is_zero());
    assert!((c.empty[3].v - 0.75).abs() < 1e-15);
    assert!((total(&p) - 1.0).abs() < 1e-15);
}

#[test]
fn second_level_avoids_the_first() {
    // a in {1,2}; b in {1,2} minus a: b is the other one.
    let p = run(5, &[lvl(1, 2), lvl(1, 2)]);
    let c = &p.classes[0];
    assert!((c.pos[1][1].v - 0.5).abs() < 1e-15);
    assert!((c.pos[1][2].v - 0.5).abs() < 1e-15);
    assert!(c.empty[1].v.abs() <= c.empty[1].bound());
    assert_eq!(c.empty_possible & 0b110, 0);
}

#[test]
fn backtracking_is_uniform_among_choices_that_work() {
    // a in {1,2,3}; b fixed at 2: a is 1 or 3, each 1/2.
    let p = run(5, &[lvl(1, 3), lvl(2, 0)]);
    let c = &p.classes[0];
    assert!((c.pos[0][1].v - 0.5).abs() < 1e-15);
    assert!(c.pos[0][2].is_zero());
    assert!((c.pos[0][3].v - 0.5).abs() < 1e-15);
    assert!(p.fail.is_zero());
}

#[test]
fn no_room_fails() {
    let p = run(5, &[lvl(2, 0), lvl(2, 0)]);
    assert!(p.classes.is_empty());
    assert_eq!(p.fail, W::ONE);
}

#[test]
fn chained_level_follows_its_anchor() {
    let mut b = lvl(1, 0);
    b.chain = 0;
    let p = run(10, &[lvl(3, 3), b]);
    let c = &p.classes[0];
    for l in 4..=6 {
        assert!((c.pos[1][l].v - 1.0 / 3.0).abs() < 1e-15);
    }
}

#[test]
fn aborts_depend_on_the_order_of_tries() {
    // a in {4,5}; b = a + 1 must lie in 1..=5: a = 5 aborts.
    // The search tries a = 4 first half the time (success) and a = 5
    // otherwise (abort, the game ends).
    let mut b = lvl(1, 0);
    b.chain = 0;
    let p = run(5, &[lvl(4, 2), b]);
    assert_eq!(p.aborts.len(), 1);
    assert_eq!(p.aborts[0].0, (Abort::BaseOutOfRange, 1));
    assert!((p.aborts[0].1.v - 0.5).abs() < 1e-15);
    assert!((p.classes[0].p.v - 0.5).abs() < 1e-15);
    assert!((p.classes[0].pos[0][4].v - 0.5).abs() < 1e-15);
}

#[test]
fn abort_after_failures_counts_the_failed_tries() {
    // a in {1,2,3}. a = 1: c (fixed at 1.. no) -- build: b fixed at 2,
    // so a = 2 returns false; c = a + 3 must lie in 1..=5, so a = 3
    // aborts; a = 1 succeeds (b = 2, c = 4).
    let mut c = lvl(3, 0);
    c.chain = 0;
    let p = run(5, &[lvl(1, 3), lvl(2, 0), c]);
    // Orders of {1,2,3}: the first non-false of 1 (success) and
    // 3 (abort), with 2 skipped: each wins half the time.
    let abort: f64 = p.aborts.iter().map(|(_, w)| w.v).sum();
    assert!((abort - 0.5).abs() < 1e-15, "{abort}");
    assert!((p.classes[0].p.v - 0.5).abs() < 1e-15);
}

#[test]
fn kept_levels_split_classes() {
    let mut a = lvl(1, 3);
    a.keep = true;
    let p = run(6, &[a, lvl(1, 6)]);
    assert_eq!(p.classes.len(), 3);
    for (i, c) in p.classes.iter().enumerate() {
        assert_eq!(c.key, vec![i as i8 + 1]);
        assert!((c.p.v - 1.0 / 3.0).abs() < 1e-15);
        // b is uniform over the five other levels.
        let b: f64 = c.pos[1].iter().map(|w| w.v).sum();
        assert!((b - 1.0 / 3.0).abs() < 1e-15);
        assert!(c.pos[1][i + 1].is_zero());
    }
}

#[test]
fn missing_levels_are_skipped_and_chains_to_them_abort() {
    let mut a = lvl(2, 0);
    a.exists = false;
    let mut b = lvl(1, 0);
    b.chain = 0;
    let p = run(5, &[a, b]);
    assert_eq!(p.aborts, vec![((Abort::EmptyChain, 1), W::ONE)]);
}

fn same_placement(a: &Placement, b: &Placement) -> Result<(), String> {
    let close = |x: W, y: W, what: &str| {
        if (x.v - y.v).abs() <= x.bound() + y.bound() + 1e-12 {
            Ok(())
        } else {
            Err(format!("{what}: {} vs {}", x.v, y.v))
        }
    };
    let mut aa = a.aborts.clone();
    let mut ba = b.aborts.clone();
    aa.sort_by_key(|x| x.0);
    ba.sort_by_key(|x| x.0);
    if aa.len() != ba.len() {
        return Err(format!("aborts {aa:?} vs {ba:?}"));
    }
    for (x, y) in aa.iter().zip(&ba) {
        if x.0 != y.0 {
            return Err(format!("aborts {aa:?} vs {ba:?}"));
        }
        close(x.1, y.1, "abort")?;
    }
    close(a.fail, b.fail, "fail")?;
    if a.classes.len() != b.classes.len() {
        return Err(format!(
            "{} vs {} classes",
            a.classes.len(),
            b.classes.len()
        ));
    }
    for (x, y) in a.classes.iter().zip(&b.classes) {
        if x.key != y.key {
            return Err(format!("keys {:?} vs {:?}", x.key, y.key));
        }
        close(x.p, y.p, "class")?;
        for (j, (rx, ry)) in x.pos.iter().zip(&y.pos).enumerate() {
            for (l, (&px, &py)) in rx.iter().zip(ry.iter()).enumerate() {
                close(px, py, &format!("level {j} on {l}"))?;
            }
        }
        for (l, (&ex, &ey)) in x.empty.iter().zip(&y.empty).enumerate() {
            close(ex, ey, &format!("empty {l}"))?;
        }
        if x.empty_possible != y.empty_possible {
            return Err(format!(
                "empty possible {:b} vs {:b}",
                x.empty_possible, y.empty_possible
            ));
        }
    }
    Ok(())
}

fn both(n: i32, levels: &[PLevel], external: &[(i32, i32)]) -> (Placement, Placement) {
    let input = Input {
        n,
        start: 3,
        levels,
        external,
    };
    let stop = Stop::default();
    (
        place_with(&input, 1_000_000, &stop, Some(&mut Tails::default())).unwrap(),
        place_with(&input, 1_000_000, &stop, None).unwrap(),
    )
}

#[test]
fn a_tail_of_wide_ranges_is_solved_over_counts() {
    // UnNetHack's Gehennom in small: two fixed levels, then five
    // levels over two overlapping ranges, two of them kept (one on a
    // single level).
    let mut last = lvl(-1, 0);
    last.keep = true;
    let levels = [
        lvl(1, 0),
        lvl(2, 3),
        lvl(2, 7),
        lvl(-8, 7),
        lvl(2, 7),
        lvl(-8, 7),
        last,
    ];
    for n in 8..=11 {
        let (fast, plain) = both(n, &levels, &[]);
        same_placement(&fast, &plain).unwrap_or_else(|e| panic!("n {n}: {e}"));
        assert!(
            fast.nodes < plain.nodes,
            "{} vs {}",
            fast.nodes,
            plain.nodes
        );
    }
    // Tails shared by several placements (as the engine shares them)
    // give what fresh ones give, and the second time cost no new node.
    let mut shared = Tails::default();
    let stop = Stop::default();
    for round in 0..2 {
        for n in 8..=11 {
            let input = Input {
                n,
                start: 3,
                levels: &levels,
                external: &[],
            };
            let again = place(&input, 1_000_000, &stop, &mut shared).unwrap();
            let fresh = place(&input, 1_000_000, &stop, &mut Tails::default()).unwrap();
            same_placement(&again, &fresh).unwrap_or_else(|e| panic!("n {n}: {e}"));
            if round == 1 {
                assert!(
                    again.nodes < fresh.nodes,
                    "{} vs {}",
                    again.nodes,
                    fresh.nodes
                );
            }
        }
    }
    // No room: the tail fails from every start, and the search too.
    let crowded = [lvl(1, 2), lvl(2, 2), lvl(2, 2), lvl(2, 2)];
    let (fast, plain) = both(5, &crowded, &[]);
    same_placement(&fast, &plain).unwrap();
    assert_eq!(fast.fail, W::ONE);
}

/// dNetHack's Dungeons of Doom in small: an Oracle and a quest portal
/// level chained to it, then optional big rooms, and three alignment
/// quest portal levels (kept: branches are placed on them) sharing a
/// range at the bottom, above the castle.
fn doom_in_small() -> Vec<PLevel> {
    let kept = |base, rand| PLevel {
        keep: true,
        ..lvl(base, rand)
    };
    let mut qstlb = kept(3, 2);
    qstlb.chain = 3;
    vec![
        kept(2, 2),
        qstlb,
        lvl(4, 5),
        lvl(5, 6),
        kept(6, 4),
        kept(6, 4),
        kept(6, 4),
        kept(-1, 0),
    ]
}

#[test]
fn kept_levels_of_wide_ranges_split_the_tail_by_their_levels() {
    let mut levels = doom_in_small();
    for n in 10..=13 {
        let (fast, plain) = both(n, &levels, &[]);
        same_placement(&fast, &plain).unwrap_or_else(|e| panic!("n {n}: {e}"));
        assert!(fast.classes.len() > 24, "{}", fast.classes.len());
        assert!(
            fast.nodes < plain.nodes,
            "{} vs {}",
            fast.nodes,
            plain.nodes
        );
        let input = Input {
            n,
            start: 3,
            levels: &levels,
            external: &[],
        };
        // The tail starts after the Oracle, which a chain reads.
        assert_eq!(tail_start(&input), 1, "n {n}");
    }
    // The big rooms' rolls mixed into the tail are the rolls
    // enumerated; in the smallest dungeon whether the levels fit
    // depends on them, and the caller enumerates them.
    levels[2].chance = 75;
    levels[3].chance = 50;
    for n in 10..=13 {
        let input = Input {
            n,
            start: 3,
            levels: &levels,
            external: &[],
        };
        match place(&input, 1_000_000, &Stop::default(), &mut Tails::default()) {
            Ok(mixed) => same_placement(&mixed, &enumerated(n, &levels, &[]))
                .unwrap_or_else(|e| panic!("n {n}: {e}")),
            Err(e) => assert!(n == 10 && e.mixed, "n {n}: {e:?}"),
        }
    }
}

/// Placements searched on two memos in turn, each search on a memo the
/// earlier ones on it filled (as the engine's two threads search a
/// layer's placements ahead), then replayed in order on another memo,
/// give what they give one after another on one memo, bit for bit, and
/// count the same work: what each adds to the memo. The memo replayed on
/// is then the shared one: a search after costs the same on both.
#[test]
fn placements_searched_apart_and_replayed_are_those_searched_on_one_memo() {
    let levels = doom_in_small();
    let stop = Stop::default();
    let input = |n| Input {
        n,
        start: 3,
        levels: &levels,
        external: &[],
    };
    let (mut shared, mut replayed) = (Tails::default(), Tails::default());
    let mut apart = [Tails::default(), Tails::default()];
    // A size again, on the other memo: its entries are then given to the
    // shared memo entry by entry, which already holds them.
    let sizes = [12, 13, 13, 12, 11, 10];
    let mut searched = Vec::new();
    for (k, &n) in sizes.iter().enumerate() {
        let memo = &mut apart[k % 2];
        memo.record();
        let placed = place(&input(n), 1_000_000, &stop, memo).unwrap();
        searched.push((placed, memo.recorded()));
    }
    let mut added = 0;
    for (k, (&n, (mut placed, asked))) in sizes.iter().zip(searched).enumerate() {
        let one = place(&input(n), 1_000_000, &stop, &mut shared).unwrap();
        assert!(placed.nodes > asked.made);
        placed.nodes = placed.nodes - asked.made + replayed.replay(&asked, &mut apart[k % 2]);
        assert_eq!(format!("{placed:?}"), format!("{one:?}"), "n {n}");
        added += placed.nodes;
    }
    assert!(shared.entries() > 0);
    assert_eq!(replayed.entries(), shared.entries());
    assert!(
        added > shared.entries(),
        "the searches' own nodes count too"
    );
    for n in [9, 14] {
        let on_shared = place(&input(n), 1_000_000, &stop, &mut shared).unwrap();
        let on_replayed = place(&input(n), 1_000_000, &stop, &mut replayed).unwrap();
        assert_eq!(
            format!("{on_replayed:?}"),
            format!("{on_shared:?}"),
            "n {n}"
        );
    }
}

/// Levels from [`arb_level`]'s: slots 0..3 are an earlier dungeon's
/// (slot 1 holds the test's `ext`), 3.. this one's.
fn levels_of(spec: &[(i32, i32, i32, bool, bool)]) -> Vec<PLevel> {
    spec.iter()
        .enumerate()
        .map(|(j, &(base, rand, chain, keep, exists))| PLevel {
            exists,
            base,
            rand,
            chain: if chain < 0 {
                -1
            } else {
                chain.min(3 + j as i32)
            },
            keep,
            filter: None,
            chance: 100,
        })
        .collect()
}

fn arb_level(m: usize) -> impl Strategy<Value = (i32, i32, i32, bool, bool)> {
    (
        -6i32..9,
        -2i32..6,
        prop_oneof![3 => Just(-1i32), 1 => 0i32..(m as i32 + 3)],
        proptest::bool::weighted(0.25),
        proptest::bool::weighted(0.85),
    )
}

/// [`arb_level`] with kept levels of wide ranges at the end, as
/// dNetHack's quest portal levels: after levels like `arb_level`'s,
/// unchained levels of which half are kept.
fn arb_kept_tail() -> impl Strategy<Value = Vec<(i32, i32, i32, bool, bool)>> {
    (
        proptest::collection::vec(arb_level(7), 0..4),
        proptest::collection::vec(
            (
                -6i32..9,
                -1i32..6,
                Just(-1i32),
                proptest::bool::weighted(0.5),
                proptest::bool::weighted(0.9),
            ),
            1..6,
        ),
    )
        .prop_map(|(mut head, tail)| {
            head.extend(tail);
            head
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]
    /// Kept levels in the tail split its outcome as the search splits
    /// its classes.
    #[test]
    fn a_tail_with_kept_levels_is_the_search(
        n in 1i32..13,
        spec in arb_kept_tail(),
        ext in -1i32..6,
    ) {
        let levels = levels_of(&spec);
        let (fast, plain) = both(n, &levels, &[(1, ext)]);
        prop_assert!(same_placement(&fast, &plain).is_ok(), "{:?}", same_placement(&fast, &plain));
    }

    /// The tail solved over counts gives what the level-by-level search
    /// gives: aborts, failure, classes, every level's chances and the
    /// free levels, on random dungeons (chains inside the dungeon and to
    /// earlier ones, kept levels, missing levels, ranges that abort).
    #[test]
    fn the_tail_over_counts_is_the_search(
        n in 1i32..13,
        spec in proptest::collection::vec(arb_level(7), 1..8),
        ext in -1i32..6,
    ) {
        let levels = levels_of(&spec);
        let (fast, plain) = both(n, &levels, &[(1, ext)]);
        prop_assert!(same_placement(&fast, &plain).is_ok(), "{:?}", same_placement(&fast, &plain));
    }
}

/// The placements of every outcome of the mixed levels' rolls,
/// weighed by their chances and summed class by class.
fn enumerated(n: i32, levels: &[PLevel], external: &[(i32, i32)]) -> Placement {
    let mixed: Vec<usize> = (0..levels.len())
        .filter(|&j| levels[j].chance < 100 && levels[j].exists)
        .collect();
    let mut sum = Placement {
        aborts: Vec::new(),
        fail: W::ZERO,
        classes: Vec::new(),
        nodes: 0,
    };
    for mask in 0u32..(1 << mixed.len()) {
        let mut ls = levels.to_vec();
        let mut p = W::ONE;
        for (b, &j) in mixed.iter().enumerate() {
            let on = mask & (1 << b) != 0;
            let c = u64::from(ls[j].chance);
            p = p * if on {
                W::ratio(c, 100)
            } else {
                W::ratio(100 - c, 100)
            };
            ls[j].exists = on;
            ls[j].chance = 100;
        }
        let (one, _) = both(n, &ls, external);
        for (cause, w) in one.aborts {
            add_to(&mut sum.aborts, cause, p * w);
        }
        sum.fail += p * one.fail;
        for c in one.classes {
            let pos: Vec<Vec<W>> = c
                .pos
                .iter()
                .map(|r| r.iter().map(|&w| p * w).collect())
                .collect();
            match sum.classes.iter_mut().find(|x| x.key == c.key) {
                Some(x) => {
                    x.p += p * c.p;
                    for (row, add) in x.pos.iter_mut().zip(&pos) {
                        let dense: Vec<W> = (0..add.len()).map(|l| row[l] + add[l]).collect();
                        *row = Row::from_dense(&dense);
                    }
                    for (e, &f) in x.empty.iter_mut().zip(&c.empty) {
                        *e += p * f;
                    }
                    x.empty_possible |= c.empty_possible;
                }
                None => sum.classes.push(Class {
                    key: c.key,
                    p: p * c.p,
                    pos: pos.iter().map(|r| Row::from_dense(r)).collect(),
                    empty: c.empty.iter().map(|&f| p * f).collect(),
                    empty_possible: c.empty_possible,
                }),
            }
        }
    }
    sum.classes.sort_by(|a, b| a.key.cmp(&b.key));
    sum
}

#[test]
fn mixed_rolls_of_a_tail_weigh_its_levels() {
    // Gehennom in small: two fixed levels, then four optional levels
    // over two ranges with room to spare.
    let mut levels = vec![lvl(1, 0), lvl(2, 3)];
    for (base, chance) in [(2, 25), (-8, 50), (2, 75), (-8, 50)] {
        let mut l = lvl(base, 7);
        l.chance = chance;
        levels.push(l);
    }
    for n in 8..=11 {
        let input = Input {
            n,
            start: 3,
            levels: &levels,
            external: &[],
        };
        let mixed = place(&input, 1_000_000, &Stop::default(), &mut Tails::default()).unwrap();
        same_placement(&mixed, &enumerated(n, &levels, &[]))
            .unwrap_or_else(|e| panic!("n {n}: {e}"));
    }
    // Whether the search succeeds depends on the rolls: not mixed.
    let input = Input {
        n: 4,
        start: 0,
        levels: &[lvl(1, 2), lvl(2, 2), {
            let mut l = lvl(2, 2);
            l.chance = 50;
            l
        }],
        external: &[],
    };
    assert!(
        place(&input, 1_000_000, &Stop::default(), &mut Tails::default())
            .unwrap_err()
            .mixed
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    /// Mixing the rolls of a tail's levels gives the rolls enumerated,
    /// weighed by their chances, whenever it is allowed.
    #[test]
    fn mixed_rolls_are_the_rolls_enumerated(
        n in 1i32..13,
        spec in prop_oneof![proptest::collection::vec(arb_level(7), 1..7), arb_kept_tail()],
        chances in proptest::collection::vec(prop_oneof![Just(100u8), 1u8..100], 9),
        ext in -1i32..6,
    ) {
        let levels = levels_of(&spec);
        let input = Input { n, start: 3, levels: &levels, external: &[(1, ext)] };
        let start = tail_start(&input);
        let mut levels = levels.clone();
        for (j, l) in levels.iter_mut().enumerate() {
            if j >= start && !l.keep {
                l.chance = chances[j];
            }
        }
        let input = Input { n, start: 3, levels: &levels, external: &[(1, ext)] };
        match place(&input, 1_000_000, &Stop::default(), &mut Tails::default()) {
            Ok(mixed) => {
                let sum = enumerated(n, &levels, &[(1, ext)]);
                prop_assert!(same_placement(&mixed, &sum).is_ok(), "{:?}", same_placement(&mixed, &sum));
            }
            Err(e) => prop_assert!(e.mixed),
        }
    }
}

#[test]
fn first_non_false_matches_enumeration() {
    // Three candidates with pf = 0.5, 0.25, 1: brute force over the 6
    // orders.
    let pf = [W::ratio(1, 2), W::ratio(1, 4), W::ONE];
    let f: Vec<f64> = (0..3).map(|v| first_non_false(&pf, v).v).collect();
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    for (v, got) in f.iter().enumerate() {
        let mut want = 0.0;
        for p in perms {
            let before: f64 = p
                .iter()
                .take_while(|&&i| i != v)
                .map(|&i| pf[i].v)
                .product();
            want += before / 6.0;
        }
        assert!((got - want).abs() < 1e-15, "{v}: {got} vs {want}");
    }
}
