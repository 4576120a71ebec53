//! The loader's draw-free arithmetic, as the enumeration needs it: level
//! ranges, a negative count's branch levels, dNetHack's Quest locate moves.
//! Invariant: each rule is written once here and agrees with the loader's
//! own (`crates/loader/src/resolve.rs`), which the parity tests check.

use super::Engine;
use crate::loader::NonPositiveRn2;
use crate::place::Abort;
use crate::weight::W;

/// The bits ([`bit`]) of levels `start..start + count`: asked for every
/// branch of every live dungeon of every state, so made at once rather
/// than level by level.
pub(super) fn span_mask(start: i32, count: i32) -> u64 {
    let lo = i64::from(start).max(1);
    let hi = (i64::from(start) + i64::from(count)).min(64);
    if lo >= hi {
        return 0;
    }
    // `hi - lo` is at most 63: the shift cannot overflow.
    ((1u64 << (hi - lo)) - 1) << lo
}

/// `level_range` on a dungeon of `lmax` levels with the chain's level
/// already known: `(start, count)` or the loader's error code.
pub(super) fn level_range(
    lmax: i32,
    base: i32,
    rand: i32,
    chained_level: Option<i32>,
) -> Result<(i32, i32), Abort> {
    let mut base = base;
    match chained_level {
        Some(v) => base = base.wrapping_add(v),
        None if base < 0 => base = base.wrapping_add(lmax).wrapping_add(1),
        None => {}
    }
    if base < 1 || base > lmax {
        return Err(Abort::BaseOutOfRange);
    }
    let count = match rand {
        -1 => lmax - base + 1,
        0 => 1,
        // Below -1: the count is the random part itself (negative).
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

/// A branch's level for a negative `count` (a random part below -1; the
/// loader's `parent_level_nonpositive`): `(level, chance)` with `None` for
/// the game's endless loop, or `None` when the game's `rn2` gives any
/// `int` (3.6's ISAAC-64), which is not enumerated. `j` is 0 (no draw,
/// dNetHack's draw) or uniform over `0 ..= |count| - 1`; every `j` but a
/// very negative one makes `i` 0 at once, so the level is `base`, taken or
/// not when `j` is 0, and the search never ends when `base` ends a branch
/// (`base_taken`) and `j` is not 0. Before 3.3 (`rn1`): `base + j`.
pub(super) fn nonpositive_branch_levels(
    mode: NonPositiveRn2,
    avoid_branch_levels: bool,
    base_taken: bool,
    base: i32,
    count: i32,
) -> Option<Vec<(Option<i32>, W)>> {
    let k = u64::from(count.unsigned_abs().max(1));
    match mode {
        NonPositiveRn2::OneDrawRaw => None,
        NonPositiveRn2::NoDraw | NonPositiveRn2::OneDrawZero => Some(vec![(Some(base), W::ONE)]),
        NonPositiveRn2::OneDrawModulo if !avoid_branch_levels => Some(
            (0..k)
                .map(|j| (Some(base.wrapping_add(j as i32)), W::ratio(1, k)))
                .collect(),
        ),
        NonPositiveRn2::OneDrawModulo if base_taken && k > 1 => Some(vec![
            (Some(base), W::ratio(1, k)),
            (None, W::ratio(k - 1, k)),
        ]),
        NonPositiveRn2::OneDrawModulo => Some(vec![(Some(base), W::ONE)]),
    }
}

impl<'a> Engine<'a> {
    /// dNetHack's Quest locate level (dNAO `dungeon.c:1008-1020`, as the
    /// loader's): the record before last of a Quest of `num` levels moves
    /// down by each amount with its chance.
    pub(super) fn locate_moves(&self, rec: usize, num: i32) -> Vec<(i32, W)> {
        let res = self.res;
        let d = &res.dungeons[rec];
        if !(res.rules.quest_locate && d.is_quest) || d.levels.1 - d.levels.0 < 2 {
            return vec![(0, W::ONE)];
        }
        if res.rules.inputs.quest_nemesis_blibdoolpoolp || num == 7 {
            vec![(1, W::ONE)]
        } else if num == 6 {
            vec![(0, W::ratio(1, 2)), (1, W::ratio(1, 2))]
        } else {
            vec![(0, W::ONE)]
        }
    }
}

#[cfg(test)]
mod span_tests {
    use super::*;
    use crate::runs::bit;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn span_mask_is_the_levels_bits(start in -100i32..100, count in -10i32..120) {
            let slow = (start..start + count).fold(0, |m, l| m | bit(l));
            prop_assert_eq!(span_mask(start, count), slow);
        }
    }
}
