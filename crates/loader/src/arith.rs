//! The loader's draw-free arithmetic: what `init_dungeons()` computes from
//! numbers it already has. The loader draws around these functions and the
//! statistics (`dgnkit-stats`) weigh their outcomes; both call them, so a
//! fix to one is a fix to both.

use crate::error::FailCode;
use crate::{DRec, Fields, Rules};

/// Why a level or branch range fails, before the names are looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeFault {
    /// The chain index names no level placed at this point (NetHack's
    /// indices are file-global, so a dropped dungeon shifts them, and a
    /// chain may point forward).
    ChainShifted,
    /// The chained-to level lost its chance roll.
    EmptyChain,
    /// The base, after the chain or the count from the bottom, lies outside
    /// `1 ..= lmax`.
    BaseOutOfRange { base: i32 },
}

impl RangeFault {
    /// The failure's code, as [`crate::LoadError::code`] gives it.
    pub fn code(self) -> FailCode {
        match self {
            RangeFault::ChainShifted => FailCode::ChainShifted,
            RangeFault::EmptyChain => FailCode::EmptyChain,
            RangeFault::BaseOutOfRange { .. } => FailCode::BaseOutOfRange,
        }
    }
}

/// `level_range` (`loader.md`): `(start, count)` of a level or branch
/// range of base `base` and random part `rand` in a dungeon of `lmax`
/// levels. A chained range counts from `chained`, the level of the level
/// it is chained to; the caller has found that level placed and existing
/// (else [`RangeFault::ChainShifted`], [`RangeFault::EmptyChain`]), since
/// only it knows what is placed. Unchained, a negative base counts from
/// the bottom. A random part below -1 is never cut, so the count is the
/// random part itself, negative: the loader then draws `rn2` of it as the
/// game does, and `pick_level` finds no level in it. Fails only with
/// [`RangeFault::BaseOutOfRange`].
#[inline]
pub fn level_range(
    lmax: i32,
    base: i32,
    rand: i32,
    chained: Option<i32>,
) -> Result<(i32, i32), RangeFault> {
    let base = match chained {
        Some(level) => base.wrapping_add(level),
        None if base < 0 => base.wrapping_add(lmax).wrapping_add(1),
        None => base,
    };
    if base < 1 || base > lmax {
        return Err(RangeFault::BaseOutOfRange { base });
    }
    let count = match rand {
        -1 => lmax - base + 1,
        0 => 1,
        // Cut at the bottom (3.6 `dungeon.c:377-379`).
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

/// A dungeon's entry level from its ENTRY value `entry` and its size `num`
/// (`init_dungeons`, where it sets `entry_lev`): a negative entry counts
/// from the bottom and is at least 1, a positive one is at most the size,
/// and 0 is the top. The values pass through the game's field
/// ([`Fields::count`]) before they are compared.
#[inline]
pub fn entry_level(fields: Fields, num: i32, entry: i32) -> i32 {
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

/// dNetHack's Quest size (dNAO `dungeon.c:910-916`): with the
/// Blibdoolpoolp nemesis the Quest has at least 6 levels, raised after its
/// size is drawn and before its entry level is set.
#[inline]
pub fn quest_size(rules: &Rules, d: &DRec, num: i32) -> i32 {
    if rules.quest_locate && d.is_quest && rules.inputs.quest_nemesis_blibdoolpoolp {
        num.max(6)
    } else {
        num
    }
}

/// dNetHack's Quest locate level (dNAO `dungeon.c:1008-1020`): how many
/// levels down the second-to-last level record of dungeon `d`, of `num`
/// levels, moves, as equally likely moves. One move is made without a
/// draw, two are the outcomes of `rn2(2)`. A Quest of 7 levels, or the
/// Blibdoolpoolp nemesis's, moves one level; one of 6 draws whether it
/// does. Empty when the rule does not apply: nothing moves and nothing is
/// drawn.
#[inline]
pub fn quest_locate_moves(rules: &Rules, d: &DRec, num: i32) -> &'static [i32] {
    if !(rules.quest_locate && d.is_quest) {
        &[]
    } else if rules.inputs.quest_nemesis_blibdoolpoolp || num == 7 {
        &[1]
    } else if num == 6 {
        &[0, 1]
    } else {
        &[0]
    }
}

/// The level record the Quest locate rule moves ([`quest_locate_moves`]):
/// the second-to-last of dungeon `d`, as an index into its records, or
/// `None` when it has fewer than two (the record the C code counts back
/// to is then an earlier dungeon's, placed already, so nothing moves).
#[inline]
pub fn quest_locate_record(d: &DRec) -> Option<u32> {
    let (first, end) = d.levels;
    (end.saturating_sub(first) >= 2).then(|| end - first - 2)
}

#[cfg(test)]
#[path = "arith_tests.rs"]
mod tests;
