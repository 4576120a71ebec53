//! The loader's draw-free arithmetic as the enumeration weighs it. The
//! rules themselves are the loader's (`dgnkit_loader::arith`: level
//! ranges, entry levels, dNetHack's Quest locate moves and minimum size;
//! `FailCode` for the failure codes), called here and never written again:
//! this module only turns their answers into chances. The one rule of its
//! own is a negative count's branch levels, which the loader draws and the
//! enumeration spreads over every value of the draw.

use crate::place::Abort;
use crate::weight::W;
use dgnkit_loader::arith;
use dgnkit_loader::{EntrySource, NonPositiveRn2, Resolver};

/// `level_range` on a dungeon of `lmax` levels with the chain's level
/// already known: `(start, count)`, or the placement search's abort.
#[inline]
pub(super) fn level_range(
    lmax: i32,
    base: i32,
    rand: i32,
    chained_level: Option<i32>,
) -> Result<(i32, i32), Abort> {
    arith::level_range(lmax, base, rand, chained_level).map_err(Abort::from)
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

/// dNetHack's Quest locate level (`arith::quest_locate_moves`): the
/// record before last of a Quest of `num` levels moves down by each amount,
/// the moves equally likely.
pub(super) fn locate_moves(res: &Resolver, rec: usize, num: i32) -> Vec<(i32, W)> {
    let d = &res.dungeons[rec];
    let moves = arith::quest_locate_moves(&res.rules, d, num);
    if moves.is_empty() || arith::quest_locate_record(d).is_none() {
        return vec![(0, W::ONE)];
    }
    let n = moves.len() as u64;
    moves.iter().map(|&m| (m, W::ratio(1, n))).collect()
}

/// The size of record `rec` once drawn as `num` (`arith::quest_size`:
/// dNetHack's Blibdoolpoolp Quest is at least 6 levels).
#[inline]
pub(super) fn quest_size(res: &Resolver, rec: usize, num: i32) -> i32 {
    arith::quest_size(&res.rules, &res.dungeons[rec], num)
}

/// The entry level of dungeon record `rec` of `num` levels
/// (`arith::entry_level`), from the ENTRY value the game reads.
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
    arith::entry_level(res.rules.fields, num, entry_field)
}
