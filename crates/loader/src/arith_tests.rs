use super::*;
use dgnkit_script::Range;
use proptest::prelude::*;

/// The loader's own `level_range` before this module (`Run::range`),
/// given the chained-to slot as `(placed, exists, level)`.
fn former_loader_range(
    lmax: i32,
    base: i32,
    rand: i32,
    chain: Option<(bool, bool, i32)>,
) -> Result<(i32, i32), RangeFault> {
    let mut base = base;
    if let Some((placed, exists, level)) = chain {
        if !placed {
            return Err(RangeFault::ChainShifted);
        }
        if !exists {
            return Err(RangeFault::EmptyChain);
        }
        base = base.wrapping_add(level);
    } else if base < 0 {
        base = base.wrapping_add(lmax + 1);
    }
    if base < 1 || base > lmax {
        return Err(RangeFault::BaseOutOfRange { base });
    }
    let count = match rand {
        -1 => lmax - base + 1,
        0 => 1,
        r => {
            if i64::from(base) + i64::from(r) - 1 > i64::from(lmax) {
                lmax - base + 1
            } else {
                r
            }
        }
    };
    Ok((base, count))
}

/// The statistics engine's copy (`engine.rs`), which took the chained-to
/// level already known and failed with a code only.
fn former_engine_range(
    lmax: i32,
    base: i32,
    rand: i32,
    chained_level: Option<i32>,
) -> Result<(i32, i32), &'static str> {
    let mut base = base;
    match chained_level {
        Some(v) => base = base.wrapping_add(v),
        None if base < 0 => base = base.wrapping_add(lmax).wrapping_add(1),
        None => {}
    }
    if base < 1 || base > lmax {
        return Err("base-out-of-range");
    }
    let count = match rand {
        -1 => lmax - base + 1,
        0 => 1,
        r => {
            if i64::from(base) + i64::from(r) - 1 > i64::from(lmax) {
                lmax - base + 1
            } else {
                r
            }
        }
    };
    Ok((base, count))
}

/// How the engine now asks.
fn engine_range(
    lmax: i32,
    base: i32,
    rand: i32,
    chained_level: Option<i32>,
) -> Result<(i32, i32), &'static str> {
    level_range(lmax, base, rand, chained_level).map_err(|f| f.code().code())
}

/// How `Resolution::range` asks, the chained-to slot checked first.
fn loader_range(
    lmax: i32,
    base: i32,
    rand: i32,
    chain: Option<(bool, bool, i32)>,
) -> Result<(i32, i32), RangeFault> {
    let chained = match chain {
        None => None,
        Some((false, _, _)) => return Err(RangeFault::ChainShifted),
        Some((true, false, _)) => return Err(RangeFault::EmptyChain),
        Some((true, true, level)) => Some(level),
    };
    level_range(lmax, base, rand, chained)
}

fn chains(level: i32) -> [Option<(bool, bool, i32)>; 4] {
    [
        None,
        Some((false, true, level)),
        Some((true, false, level)),
        Some((true, true, level)),
    ]
}

#[test]
fn a_negative_base_counts_from_the_bottom() {
    assert_eq!(level_range(10, -1, 0, None), Ok((10, 1)));
    assert_eq!(level_range(10, -3, -1, None), Ok((8, 3)));
}

#[test]
fn a_chained_base_counts_from_the_chained_level_even_when_negative() {
    assert_eq!(level_range(10, 2, 0, Some(4)), Ok((6, 1)));
    assert_eq!(level_range(10, -1, 0, Some(4)), Ok((3, 1)));
}

#[test]
fn a_random_part_past_the_dungeon_s_bottom_is_cut_at_the_bottom() {
    assert_eq!(level_range(10, 8, 5, None), Ok((8, 3)));
    assert_eq!(level_range(10, 8, 3, None), Ok((8, 3)));
    assert_eq!(level_range(10, 8, 2, None), Ok((8, 2)));
}

#[test]
fn a_random_part_of_minus_one_reaches_the_bottom() {
    assert_eq!(level_range(10, 4, -1, None), Ok((4, 7)));
}

#[test]
fn a_random_part_below_minus_one_is_the_count_itself() {
    assert_eq!(level_range(10, 4, -3, None), Ok((4, -3)));
}

#[test]
fn a_base_outside_the_dungeon_fails_with_the_adjusted_base() {
    assert_eq!(
        level_range(10, 11, 0, None),
        Err(RangeFault::BaseOutOfRange { base: 11 })
    );
    assert_eq!(
        level_range(10, -11, 0, None),
        Err(RangeFault::BaseOutOfRange { base: 0 })
    );
    assert_eq!(
        level_range(10, 3, 0, Some(9)),
        Err(RangeFault::BaseOutOfRange { base: 12 })
    );
}

#[test]
fn the_range_faults_have_the_load_errors_codes() {
    assert_eq!(RangeFault::ChainShifted.code().code(), "chain-shifted");
    assert_eq!(RangeFault::EmptyChain.code().code(), "empty-chain");
    let out = RangeFault::BaseOutOfRange { base: 0 };
    assert_eq!(out.code().code(), "base-out-of-range");
}

/// Every size, base, random part and chained-to level from a little below
/// the smallest to a little past `MAXLEVEL`.
fn small_domain(mut check: impl FnMut(i32, i32, i32, i32)) {
    for lmax in -2..=34 {
        for base in -36..=36 {
            for rand in -36..=36 {
                for level in -2..=34 {
                    check(lmax, base, rand, level);
                }
            }
        }
    }
}

#[test]
fn the_range_agrees_with_the_loader_s_former_copy_on_every_small_input() {
    small_domain(|lmax, base, rand, level| {
        for chain in chains(level) {
            assert_eq!(
                loader_range(lmax, base, rand, chain),
                former_loader_range(lmax, base, rand, chain),
                "lmax {lmax} base {base} rand {rand} chain {chain:?}"
            );
        }
    });
}

#[test]
fn the_range_agrees_with_the_engine_s_former_copy_on_every_small_input() {
    small_domain(|lmax, base, rand, level| {
        for chained in [None, Some(level)] {
            assert_eq!(
                engine_range(lmax, base, rand, chained),
                former_engine_range(lmax, base, rand, chained),
                "lmax {lmax} base {base} rand {rand} chained {chained:?}"
            );
        }
    });
}

proptest! {
    #[test]
    fn the_range_agrees_with_the_former_copies_on_any_numbers(
        lmax in -1000i32..1000,
        base in any::<i32>(),
        rand in any::<i32>(),
        level in any::<i32>(),
        placed in any::<bool>(),
        exists in any::<bool>(),
    ) {
        for chain in [None, Some((placed, exists, level))] {
            prop_assert_eq!(
                loader_range(lmax, base, rand, chain),
                former_loader_range(lmax, base, rand, chain)
            );
        }
        for chained in [None, Some(level)] {
            prop_assert_eq!(
                engine_range(lmax, base, rand, chained),
                former_engine_range(lmax, base, rand, chained)
            );
        }
    }
}

#[test]
fn a_negative_entry_counts_from_the_bottom_and_is_at_least_one() {
    assert_eq!(entry_level(Fields::Bytes, 10, -1), 10);
    assert_eq!(entry_level(Fields::Bytes, 10, -3), 8);
    assert_eq!(entry_level(Fields::Bytes, 10, -10), 1);
    assert_eq!(entry_level(Fields::Bytes, 10, -20), 1);
}

#[test]
fn a_positive_entry_is_at_most_the_size() {
    assert_eq!(entry_level(Fields::Bytes, 10, 4), 4);
    assert_eq!(entry_level(Fields::Bytes, 10, 10), 10);
    assert_eq!(entry_level(Fields::Bytes, 10, 12), 10);
}

#[test]
fn no_entry_is_the_top_level() {
    assert_eq!(entry_level(Fields::Bytes, 10, 0), 1);
}

#[test]
fn an_entry_wraps_in_the_game_s_field_before_it_is_compared() {
    // 200 is -56 in a signed byte, which is not above the size.
    assert_eq!(entry_level(Fields::Bytes, 10, 200), -56);
    assert_eq!(entry_level(Fields::Ints, 10, 200), 10);
    // Counted from the bottom of 200 levels: 200, which is -56 in a byte.
    assert_eq!(entry_level(Fields::Bytes, 200, -1), 1);
    assert_eq!(entry_level(Fields::NetHack37, 200, -1), 200);
}

/// The loader's entry level before this module, for an ENTRY line.
fn former_entry(fields: Fields, num: i32, entry: i32) -> i32 {
    if entry < 0 {
        let e = fields.count(num.wrapping_add(entry).wrapping_add(1));
        if e <= 0 {
            1
        } else {
            e
        }
    } else if entry > 0 {
        let e = fields.count(entry);
        if e > num {
            num
        } else {
            e
        }
    } else {
        1
    }
}

#[test]
fn the_entry_level_agrees_with_the_former_copy_on_every_small_input() {
    for fields in [Fields::Bytes, Fields::NetHack37, Fields::Ints, Fields::Wide] {
        for num in -300..=300 {
            for entry in -300..=300 {
                assert_eq!(
                    entry_level(fields, num, entry),
                    former_entry(fields, num, entry),
                    "{fields:?} num {num} entry {entry}"
                );
            }
        }
    }
}

fn dungeon(name: &str, levels: (u32, u32)) -> DRec {
    DRec {
        name: name.into(),
        proto: String::new(),
        bones: String::new(),
        size: Range { base: 5, rand: 2 },
        flags: 0,
        chance: 0,
        entry: 0,
        unconnected: false,
        nofood: false,
        tileset: None,
        alternates: 0,
        alt_key: Vec::new(),
        is_quest: name == "The Quest",
        is_chaos_quest: false,
        levels,
        branches: (0, 0),
        incoming: Vec::new(),
        same_name_before: Vec::new(),
    }
}

fn dnethack(blibdoolpoolp: bool) -> Rules {
    let mut rules = Rules::nethack_36();
    rules.quest_locate = true;
    rules.inputs.quest_nemesis_blibdoolpoolp = blibdoolpoolp;
    rules
}

#[test]
fn a_quest_of_seven_levels_moves_its_locate_level_one_down_without_a_draw() {
    let quest = dungeon("The Quest", (3, 8));
    assert_eq!(quest_locate_moves(&dnethack(false), &quest, 7), &[1]);
}

#[test]
fn a_quest_of_six_levels_draws_whether_its_locate_level_moves() {
    let quest = dungeon("The Quest", (3, 8));
    assert_eq!(quest_locate_moves(&dnethack(false), &quest, 6), &[0, 1]);
}

#[test]
fn a_quest_of_other_sizes_keeps_its_locate_level_without_a_draw() {
    let quest = dungeon("The Quest", (3, 8));
    for num in [1, 5, 8, 32] {
        assert_eq!(quest_locate_moves(&dnethack(false), &quest, num), &[0]);
    }
}

#[test]
fn the_blibdoolpoolp_nemesis_s_quest_has_six_levels_at_least_and_always_moves() {
    let quest = dungeon("The Quest", (3, 8));
    let rules = dnethack(true);
    assert_eq!(quest_size(&rules, &quest, 4), 6);
    assert_eq!(quest_size(&rules, &quest, 9), 9);
    for num in [6, 7, 9] {
        assert_eq!(quest_locate_moves(&rules, &quest, num), &[1]);
    }
}

#[test]
fn other_games_and_dungeons_neither_move_nor_draw_nor_grow() {
    let quest = dungeon("The Quest", (3, 8));
    let mines = dungeon("The Gnomish Mines", (3, 8));
    let mut vanilla = Rules::nethack_36();
    vanilla.inputs.quest_nemesis_blibdoolpoolp = true;
    assert!(quest_locate_moves(&vanilla, &quest, 6).is_empty());
    assert!(quest_locate_moves(&dnethack(true), &mines, 6).is_empty());
    assert_eq!(quest_size(&vanilla, &quest, 4), 4);
    assert_eq!(quest_size(&dnethack(true), &mines, 4), 4);
    assert_eq!(quest_size(&dnethack(false), &quest, 4), 4);
}

#[test]
fn the_record_moved_is_the_second_to_last_of_the_dungeon() {
    assert_eq!(quest_locate_record(&dungeon("The Quest", (3, 8))), Some(3));
    assert_eq!(quest_locate_record(&dungeon("The Quest", (3, 5))), Some(0));
}

#[test]
fn a_dungeon_of_fewer_than_two_records_has_none_to_move() {
    assert_eq!(quest_locate_record(&dungeon("The Quest", (3, 4))), None);
    assert_eq!(quest_locate_record(&dungeon("The Quest", (3, 3))), None);
}
