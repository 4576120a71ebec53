//! `place_level()`: NetHack's depth-first placement of a dungeon's special
//! levels, draw for draw, with a bound on the work.
//!
//! NetHack searches every combination before it gives up, and the draws of
//! abandoned tries are consumed, so the search has to be replayed exactly.
//! A file whose ranges overlap badly makes that search exponential (the
//! game hangs). We count the draws of one dungeon's search; past the
//! resolver's budget we stop and decide, without drawing, whether any
//! placement exists at all: an interval (Hall) count first, then an
//! exhaustive search over occupied-level sets with memoised failures. No
//! placement -> [`LoadError::CouldntPlace`]; otherwise (or when even that
//! search is too large) -> [`LoadError::PlacementTooCostly`].

use super::arith::RangeFault;
use super::error::{LoadError, RangeOwner};
use super::resolve::Resolution;
use super::LRec;
use crate::rng::{Site, Source, Trace};
use std::collections::HashSet;

enum Stop {
    Error(LoadError),
    Budget,
}

impl From<LoadError> for Stop {
    fn from(e: LoadError) -> Self {
        Stop::Error(e)
    }
}

/// Level `l` of a dungeon is bit `l - 1` of a level mask (levels
/// `1..=64`: dNetHack's `MAXLEVEL` is 64).
#[inline(always)]
pub fn level_bit(level: i32) -> u64 {
    1u64 << ((level - 1) & 63)
}

/// The level of the `nth` (0-based) set bit of `mask`.
#[inline(always)]
fn nth_bit(mut mask: u64, nth: u32) -> i32 {
    for _ in 0..nth {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as i32 + 1
}

/// Levels `start .. start + count`; empty for a count below 1 (a random
/// part below -1 is `level_range`'s count).
#[inline(always)]
fn range_mask(start: i32, count: i32) -> u64 {
    // start >= 1 and start + count - 1 <= MAXLEVEL (<= 64).
    if count < 1 {
        return 0;
    }
    (u64::MAX >> (64 - count)) << (start - 1)
}

struct Dungeon {
    dnum: usize,
    /// First slot of this dungeon's levels.
    start: usize,
    /// One past the last slot.
    end: usize,
    budget: u64,
    draws: u64,
}

/// Where a slot's candidate levels come from.
#[derive(Clone, Copy, Debug)]
pub enum Range {
    /// The same on every try: the range's levels (before removing the
    /// levels taken by earlier slots).
    Fixed(u64),
    /// Chained to an earlier level of this dungeon, so it moves with that
    /// level's placement: recomputed on every try.
    Chained,
    /// `level_range` fails for this slot; the error is raised when the
    /// search first reaches it, as NetHack's would be.
    Fails,
}

/// One level of the dungeon being placed: an existing slot, with the
/// search's state at that depth.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    slot: usize,
    range: Range,
    /// Candidates not yet tried, and how many.
    mask: u64,
    left: u32,
}

/// Places the levels in slots `start..` (the dungeon just loaded, index
/// `dnum`). Returns the levels taken (bit `l` for level `l`), each by one
/// existing slot.
pub fn place_dungeon<S: Source, T: Trace>(
    run: &mut Resolution<'_, '_, S, T>,
    dnum: usize,
    start: usize,
) -> Result<u64, LoadError> {
    let mut dg = Dungeon {
        dnum,
        start,
        end: run.out.slots.len(),
        budget: run.res.placement_budget,
        draws: 0,
    };
    let mut steps = std::mem::take(&mut run.out.steps);
    plan(run, &dg, &mut steps);
    let found = search(run, &mut dg, &mut steps);
    run.out.steps = steps;
    let (res, record) = (run.res, run.out.dungeons[dnum].record as usize);
    let name = || res.dungeons[record].name.clone();
    match found {
        Ok(Some(taken)) => Ok(taken),
        Ok(None) => Err(LoadError::CouldntPlace { dungeon: name() }),
        Err(Stop::Error(e)) => Err(e),
        Err(Stop::Budget) => {
            let dungeon = name();
            if possible(run, &dg) == Some(false) {
                Err(LoadError::CouldntPlace { dungeon })
            } else {
                Err(LoadError::PlacementTooCostly {
                    dungeon,
                    draws: dg.draws,
                })
            }
        }
    }
}

/// The existing slots of the dungeon, in order, each with its range.
/// `possible_places` recomputes a range on every try; only a chain to a
/// level of this dungeon can change it, so every other range is computed
/// once here.
fn plan<S: Source, T: Trace>(run: &Resolution<'_, '_, S, T>, dg: &Dungeon, steps: &mut Vec<Step>) {
    steps.clear();
    for k in dg.start..dg.end {
        let slot = run.out.slots[k];
        if !slot.exists {
            continue;
        }
        let lrec = &run.res.levels[slot.record as usize];
        let chain = slot.chain;
        let inside = chain >= 0
            && (chain as usize) >= dg.start
            && (chain as usize) < k
            && run.out.slots[chain as usize].exists;
        let range = if inside {
            Range::Chained
        } else {
            match slot_range(run, dg, lrec, k) {
                Ok((base, count)) if count >= 1 => Range::Fixed(range_mask(base, count)),
                // A count below 1 fails when the search gets there, as an
                // error does.
                _ => Range::Fails,
            }
        };
        steps.push(Step {
            slot: k,
            range,
            mask: 0,
            left: 0,
        });
    }
}

/// `level_range` of `lrec`, the level in slot `k`, as `possible_places`
/// calls it.
#[inline(always)]
fn slot_range<S: Source, T: Trace>(
    run: &Resolution<'_, '_, S, T>,
    dg: &Dungeon,
    lrec: &LRec,
    k: usize,
) -> Result<(i32, i32), RangeFault> {
    let chain = run.out.slots[k].chain;
    let base = lrec.range.base.wrapping_add(run.out.slots[k].base_adjust);
    run.range(dg.dnum, base, lrec.range.rand, chain, k)
}

/// [`slot_range`] of the level in slot `k`, its error named.
fn range_at<S: Source, T: Trace>(
    run: &Resolution<'_, '_, S, T>,
    dg: &Dungeon,
    k: usize,
) -> Result<(i32, i32), LoadError> {
    let lrec = &run.res.levels[run.out.slots[k].record as usize];
    slot_range(run, dg, lrec, k).map_err(|fault| {
        let owner = RangeOwner::Level {
            name: lrec.name.clone(),
        };
        run.fault_error(fault, dg.dnum, run.out.slots[k].chain, owner)
    })
}

/// Candidate levels of `step` given `taken`, the levels of this dungeon's
/// existing slots before it: `(mask, count)` exactly as `possible_places`
/// computes them (its loop over the earlier slots removes each of their
/// levels once, and they are distinct).
#[inline(always)]
fn candidates<S: Source, T: Trace>(
    run: &mut Resolution<'_, '_, S, T>,
    dg: &Dungeon,
    step: &Step,
    taken: u64,
) -> Result<(u64, u32), LoadError> {
    let range = match step.range {
        Range::Fixed(mask) => mask,
        Range::Chained | Range::Fails => {
            let (base, count) = range_at(run, dg, step.slot)?;
            if count < 1 {
                // A random part below -1: `possible_places` marks no level
                // and returns the count, `place_level` calls
                // `pick_level(map, rn2(npossible))` (its loop runs while
                // `npossible` is not 0), which draws as the game's `rn2`
                // does and finds no level: every game panics (3.6
                // `dungeon.c:587-601`, `:606-615`, `:658-661`).
                let record = run.out.slots[step.slot].record;
                run.rn2_count(count, Site::Place { level: record });
                let name = run.res.levels[record as usize].name.clone();
                return Err(LoadError::NoValidLevel { name });
            }
            range_mask(base, count)
        }
    };
    let mask = range & !taken;
    Ok((mask, mask.count_ones()))
}

/// `place_level()`: depth first, each level drawn from its remaining
/// candidates; a level whose candidates run out sends the search back to
/// the previous level's next try. Iterative, with the state of each depth
/// in its step. `Ok(None)`: no placement.
fn search<S: Source, T: Trace>(
    run: &mut Resolution<'_, '_, S, T>,
    dg: &mut Dungeon,
    steps: &mut [Step],
) -> Result<Option<u64>, Stop> {
    let Some(first) = steps.first_mut() else {
        return Ok(Some(0));
    };
    let mut taken = 0u64;
    (first.mask, first.left) = candidates(run, dg, first, taken)?;
    let mut i = 0;
    loop {
        let step = steps[i];
        if step.left == 0 {
            // Every candidate failed: back to the previous level, which
            // gives up the level it holds and tries another.
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
            let prev = &mut steps[i];
            let level = run.out.slots[prev.slot].dlevel;
            // Taken back: a trace that looks at states sees the level
            // leave its place (nothing reads it before it is drawn again).
            run.out.slots[prev.slot].dlevel = 0;
            taken &= !level_bit(level);
            prev.mask &= !level_bit(level);
            prev.left -= 1;
            continue;
        }
        dg.draws += 1;
        if dg.draws > dg.budget {
            return Err(Stop::Budget);
        }
        let record = run.out.slots[step.slot].record;
        let r = run.rn2(step.left, Site::Place { level: record });
        let level = nth_bit(step.mask, r);
        run.out.slots[step.slot].dlevel = level;
        taken |= level_bit(level);
        i += 1;
        let Some(next) = steps.get_mut(i) else {
            return Ok(Some(taken));
        };
        // The try is made: a trace sees it before the search goes on
        // (and perhaps takes it back).
        run.seen();
        (next.mask, next.left) = candidates(run, dg, next, taken)?;
    }
}

/// Whether any placement of the dungeon's levels exists (`None`: could
/// not tell within the work limit). Draws nothing; uses the slots as
/// scratch (the resolution fails either way).
fn possible<S: Source, T: Trace>(run: &mut Resolution<'_, '_, S, T>, dg: &Dungeon) -> Option<bool> {
    let lmax = run.out.dungeons[dg.dnum].num_levels;
    // Hall's condition on the ranges that do not depend on this search
    // (chains inside the dungeon relax to the whole dungeon).
    let mut intervals = Vec::new();
    for k in dg.start..dg.end {
        let s = run.out.slots[k];
        if !s.exists {
            continue;
        }
        let lrec = &run.res.levels[s.record as usize];
        let inside = s.chain >= 0 && (s.chain as usize) >= dg.start;
        let iv = if inside {
            (1, lmax)
        } else {
            match slot_range(run, dg, lrec, k) {
                Ok((b, c)) => (b, b + c - 1),
                Err(_) => (1, lmax),
            }
        };
        intervals.push(iv);
    }
    for a in 1..=lmax {
        for b in a..=lmax {
            let inside = intervals
                .iter()
                .filter(|&&(lo, hi)| a <= lo && hi <= b)
                .count() as i32;
            if inside > b - a + 1 {
                return Some(false);
            }
        }
    }
    // Chain targets inside the dungeon: their levels are part of a state.
    let targets: Vec<usize> = (dg.start..dg.end)
        .filter_map(|m| {
            let c = run.out.slots[m].chain;
            (c >= 0 && (c as usize) >= dg.start && (c as usize) < m).then_some(c as usize)
        })
        .collect();
    let mut search = Search {
        failed: HashSet::new(),
        states: 0,
        limit: 1_000_000,
        targets,
    };
    search.run(run, dg, dg.start, 0)
}

struct Search {
    failed: HashSet<(usize, u64, Vec<i32>)>,
    states: usize,
    limit: usize,
    targets: Vec<usize>,
}

impl Search {
    fn key<S: Source, T: Trace>(
        &self,
        run: &Resolution<'_, '_, S, T>,
        k: usize,
        occupied: u64,
    ) -> (usize, u64, Vec<i32>) {
        let chained: Vec<i32> = self
            .targets
            .iter()
            .filter(|&&t| t < k)
            .map(|&t| run.out.slots[t].dlevel)
            .collect();
        (k, occupied, chained)
    }

    fn run<S: Source, T: Trace>(
        &mut self,
        run: &mut Resolution<'_, '_, S, T>,
        dg: &Dungeon,
        k: usize,
        occupied: u64,
    ) -> Option<bool> {
        let mut k = k;
        while k < dg.end && !run.out.slots[k].exists {
            k += 1;
        }
        if k == dg.end {
            return Some(true);
        }
        let key = self.key(run, k, occupied);
        if self.failed.contains(&key) {
            return Some(false);
        }
        self.states += 1;
        if self.states > self.limit {
            return None;
        }
        // A range error here is a dead end for this question.
        let mut mask =
            range_at(run, dg, k).map_or(0, |(base, count)| range_mask(base, count) & !occupied);
        while mask != 0 {
            let level = mask.trailing_zeros() as i32 + 1;
            mask &= mask - 1;
            run.out.slots[k].dlevel = level;
            if self.run(run, dg, k + 1, occupied | level_bit(level))? {
                return Some(true);
            }
        }
        self.failed.insert(key);
        Some(false)
    }
}
