//! The loader's draw-free arithmetic, as the enumeration needs it: level
//! ranges, a negative count's branch levels, entry levels, dNetHack's
//! Quest locate moves and minimum size, and the failure codes. Invariant:
//! each rule is written once in the statistics, here, and agrees with the
//! loader's own (`crates/loader/src/resolve.rs`), which the parity tests
//! check.

use crate::loader::{EntrySource, NonPositiveRn2, Resolver};
use crate::place::Abort;
use crate::weight::W;

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

/// dNetHack's Quest locate level (dNAO `dungeon.c:1008-1020`, as the
/// loader's): the record before last of a Quest of `num` levels moves
/// down by each amount with its chance.
pub(super) fn locate_moves(res: &Resolver, rec: usize, num: i32) -> Vec<(i32, W)> {
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

/// dNetHack: a Quest of at least 6 levels for the Blibdoolpoolp nemesis
/// (dNAO `dungeon.c:910-916`), before the entry level.
pub(super) fn quest_min_size(res: &Resolver, rec: usize) -> Option<i32> {
    let d = &res.dungeons[rec];
    (res.rules.quest_locate && d.is_quest && res.rules.inputs.quest_nemesis_blibdoolpoolp)
        .then_some(6)
}

/// The entry level of dungeon record `rec` of `num` levels: counted from
/// the bottom when negative, at most the bottom, 1 when unset.
pub(super) fn entry_level(res: &Resolver, rec: usize, num: i32) -> i32 {
    let d = &res.dungeons[rec];
    // SLASH'EM takes the entry from the branch record into the dungeon
    // (`check_final_moves` keeps to files where every record into it
    // has the same entry and none is positive).
    let entry_field = match res.rules.entry {
        EntrySource::Dungeon => d.entry,
        EntrySource::FirstBranch => d
            .incoming
            .first()
            .map_or(0, |&(b, _)| res.branches[b as usize].entry),
    };
    let count = |v: i32| res.rules.fields.count(v);
    if entry_field < 0 {
        let e = count(num.wrapping_add(entry_field).wrapping_add(1));
        if e <= 0 {
            1
        } else {
            e
        }
    } else if entry_field > 0 {
        let e = count(entry_field);
        if e > num {
            num
        } else {
            e
        }
    } else {
        1
    }
}

/// The loader's failure codes the enumeration reports
/// (`LoadError::code()`, `crates/loader/src/error.rs`).
pub(super) mod code {
    pub const BRANCH_NOT_FOUND: &str = "branch-not-found";
    pub const PARENT_NOT_RESOLVED: &str = "parent-not-resolved";
    pub const CHAIN_SHIFTED: &str = "chain-shifted";
    pub const EMPTY_CHAIN: &str = "empty-chain";
    pub const BRANCH_LEVEL_HANGS: &str = "branch-level-hangs";
    pub const TOO_MANY_LEVELS: &str = "too-many-levels";
    pub const COULDNT_PLACE: &str = "couldnt-place";
    pub const TOO_MANY_BRANCHES: &str = "too-many-branches";
    /// A first floating level lies where no branch arrives.
    pub const KNOX_NOT_REACHABLE: &str = "knox-not-reachable";
    pub const MISSING_DUNGEON: &str = "missing-dungeon";
}
