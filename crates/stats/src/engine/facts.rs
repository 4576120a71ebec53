//! What the enumeration needs to know about the file, worked out once
//! from the [`Resolver`] before the first state. Invariant: nothing here
//! changes while the layers are made.

use super::arith::level_range;
use super::state::Live;
use super::{Engine, TooLarge};
use crate::fxhash::FxHashMap;
use crate::place::LEVELS;
use crate::runs::{self, RunPos};
use dgnkit_loader::{EntrySource, NonPositiveRn2, Resolver};
use std::sync::Arc;

/// The file's facts the enumeration reads for every state. The builder
/// methods of [`Engine`] may narrow them (`with_rng`, `with_bones`,
/// `with_evidence`) before the enumeration starts.
pub(super) struct FileFacts {
    /// Wizard mode skips the dungeons' / levels' chance rolls.
    pub(super) skip_dungeon_chance: bool,
    pub(super) skip_level_chance: bool,
    /// `select_alternate` sees wizard mode (the `chaos_quest` override).
    pub(super) wizard: bool,
    /// What the game's `rn2` does with a negative count (a random part
    /// below -1), with the generator the statistics are for.
    pub(super) neg_rn2: NonPositiveRn2,
    /// Per dungeon record: the last record a branch of it may lead to.
    pub(super) live_until: Vec<i64>,
    /// Branch record -> the last dungeon record it may lead to (-1: none).
    pub(super) branch_last: Arc<[i64]>,
    /// Per stage `s`: slots that chains of stage `s` and later read.
    pub(super) needed_slots: Vec<Slots>,
    /// Per stage `s`: whether a floating-level / `dummy` record comes at `s` or
    /// later (else the flags do not matter and are dropped).
    pub(super) floating_later: Vec<bool>,
    pub(super) dummy_later: Vec<bool>,
    /// Per stage `s`: whether a record with alternates comes at `s` or later
    /// (else the alternates history is dropped).
    pub(super) alt_later: Vec<bool>,
    /// Per dungeon record: the first record whose name `select_alternate`
    /// takes for the same.
    pub(super) alt_group: Vec<u16>,
    /// Per dungeon record: its place in a run of side branches that may
    /// be deferred ([`crate::runs`]).
    pub(super) runs: Vec<Option<RunPos>>,
    /// Per run, by its first record: its members, and its subs.
    pub(super) run_members: FxHashMap<u32, Vec<u32>>,
    pub(super) run_subs: FxHashMap<u32, Vec<u32>>,
    /// Rule 10's locate-level record, kept in the class key
    /// ([`crate::exact::madman_records`]).
    pub(super) madman_locate: Option<u32>,
}

impl FileFacts {
    pub(super) fn new(res: &Resolver, wizard: bool) -> FileFacts {
        let (skip_dungeon_chance, skip_level_chance) = res.skips_chances(wizard);
        let nd = res.dungeons.len();
        let mut branch_last = vec![-1i64; res.branches.len()];
        let mut live_until = vec![-1i64; nd];
        for (r, d) in res.dungeons.iter().enumerate() {
            for &(b, owner) in &d.incoming {
                branch_last[b as usize] = branch_last[b as usize].max(r as i64);
                live_until[owner as usize] = live_until[owner as usize].max(r as i64);
            }
        }
        let mut floating_later = vec![false; nd + 1];
        let mut dummy_later = vec![false; nd + 1];
        let mut alt_later = vec![false; nd + 1];
        for s in (0..nd).rev() {
            let d = &res.dungeons[s];
            let lv = &res.levels[d.levels.0 as usize..d.levels.1 as usize];
            floating_later[s] = floating_later[s + 1] || lv.iter().any(|l| l.floating.is_some());
            dummy_later[s] = dummy_later[s + 1] || lv.iter().any(|l| l.is_dummy);
            alt_later[s] = alt_later[s + 1] || (res.rules.alternates && d.alternates > 0);
        }
        let alt_group = (0..nd)
            .map(|r| {
                let key = &res.dungeons[r].alt_key;
                res.dungeons
                    .iter()
                    .position(|e| e.alt_key == *key)
                    .unwrap_or(r) as u16
            })
            .collect();
        let runs = runs::find_runs(res, &live_until, skip_dungeon_chance, skip_level_chance);
        FileFacts {
            skip_dungeon_chance,
            skip_level_chance,
            wizard,
            neg_rn2: res.rules.rn2_nonpositive,
            needed_slots: needed_slots(res),
            live_until,
            branch_last: branch_last.into(),
            floating_later,
            dummy_later,
            alt_later,
            alt_group,
            runs: runs.pos,
            run_members: runs.members,
            run_subs: runs.subs,
            madman_locate: None,
        }
    }
}

/// Per stage `s`: the slots that chains of stage `s` and later read.
fn needed_slots(res: &Resolver) -> Vec<Slots> {
    let nd = res.dungeons.len();
    let mut needed_slots = vec![Slots::default(); nd + 1];
    for s in (0..nd).rev() {
        let mut set = needed_slots[s + 1].clone();
        let d = &res.dungeons[s];
        for l in d.levels.0..d.levels.1 {
            let c = res.levels[l as usize].chain;
            if c >= 0 {
                set.insert(c);
            }
        }
        for &(b, _) in &d.incoming {
            let c = res.branches[b as usize].chain;
            if c >= 0 {
                set.insert(c);
            }
        }
        needed_slots[s] = set;
    }
    needed_slots
}

/// A set of level slots: looked up for every slot of every state a layer
/// makes, hence bits rather than a tree.
#[derive(Clone, Debug, Default)]
pub(super) struct Slots(Vec<u64>);

impl Slots {
    pub(super) fn insert(&mut self, slot: i32) {
        let Ok(k) = usize::try_from(slot) else { return };
        if self.0.len() <= k / 64 {
            self.0.resize(k / 64 + 1, 0);
        }
        self.0[k / 64] |= 1 << (k % 64);
    }

    pub(super) fn contains(&self, slot: i32) -> bool {
        usize::try_from(slot)
            .ok()
            .and_then(|k| self.0.get(k / 64).map(|w| w & (1 << (k % 64)) != 0))
            .unwrap_or(false)
    }
}

/// Whether a level record of floating index `floating` is among the
/// floating levels of mask `mask`.
pub(super) fn floats_in(floating: Option<u8>, mask: u8) -> bool {
    floating.is_some_and(|f| mask & (1 << f) != 0)
}

/// The levels a later branch of dungeon `live` may land on (stage
/// `next` on), given what `slots` knows.
pub(crate) fn future_mask(
    res: &Resolver,
    branch_last: &[i64],
    live: &Live,
    next: usize,
    slots: &[(i32, i32)],
    n_slots: i32,
) -> u64 {
    let d = &res.dungeons[live.record as usize];
    let mut mask = 0u64;
    for b in d.branches.0..d.branches.1 {
        if branch_last[b as usize] < next as i64 {
            continue;
        }
        let br = &res.branches[b as usize];
        let chained = if br.chain >= 0 {
            if br.chain >= n_slots {
                // A slot of a dungeon not loaded yet: anything.
                mask |= span_mask(1, live.n);
                continue;
            }
            match slots.iter().find(|(s, _)| *s == br.chain) {
                Some(&(_, v)) if v > 0 => Some(v),
                _ => continue,
            }
        } else {
            None
        };
        if let Ok((s, c)) = level_range(live.n, br.range.base, br.range.rand, chained) {
            // A negative count looks at its base only (3.6's raw
            // `rn2` is not enumerated).
            mask |= span_mask(s, c.max(1));
        }
    }
    mask
}

impl<'a> Engine<'a> {
    pub(super) fn future_mask(
        &self,
        live: &Live,
        next: usize,
        slots: &[(i32, i32)],
        n_slots: i32,
    ) -> u64 {
        future_mask(
            self.res,
            &self.facts.branch_last,
            live,
            next,
            slots,
            n_slots,
        )
    }

    /// Whether level record `j` of dungeon record `rec` (first slot
    /// `n_slots`) goes into the placement's class key.
    pub(super) fn keeps_level(
        &self,
        rec: usize,
        n_slots: i32,
        j: usize,
        floating_here: u8,
    ) -> bool {
        let l = self.res.dungeons[rec].levels.0 as usize + j;
        self.facts.needed_slots[rec + 1].contains(n_slots + j as i32)
            || floats_in(self.res.levels[l].floating, floating_here)
            || self.facts.madman_locate == Some(l as u32)
    }

    /// The loader's last steps that move levels are modelled only where
    /// they cannot fail or drop a level: the planes shuffle on six levels
    /// of one dungeon that always exist at fixed levels, the head first,
    /// the tail last and no other level between; no level unlinked from
    /// the chain. Otherwise the statistics are sampled from the loader.
    pub(super) fn check_final_moves(&self) -> Result<(), TooLarge> {
        let res = self.res;
        // Loader rules the enumeration does not follow; a rule that cannot
        // matter for this file does not count.
        let rules = &res.rules;
        let max_size = |d: &dgnkit_loader::DRec| d.size.base.saturating_add(d.size.rand.max(0));
        let unmodelled_rule = if rules.back_branches
            && res.branches.iter().any(|b| !b.back_to.is_empty())
        {
            Some("branches back up to earlier dungeons".to_string())
        } else if rules.entry == EntrySource::FirstBranch
            && (res.branches.iter().any(|b| b.entry > 0)
                || res.dungeons.iter().any(|d| {
                    d.incoming.iter().any(|&(b, _)| {
                        res.branches[b as usize].entry
                            != res.branches[d.incoming[0].0 as usize].entry
                    })
                }))
        {
            Some("entry levels taken from branches with a positive entry, or from branches that disagree".to_string())
        } else if rules.maxlevel >= LEVELS as i32
            && res.dungeons.iter().any(|d| max_size(d) >= LEVELS as i32)
        {
            Some(format!("a dungeon that may have {} levels or more", LEVELS))
        } else {
            rules
                .ledger_limit
                .filter(|&max| {
                    res.dungeons
                        .iter()
                        .map(|d| i64::from(max_size(d)))
                        .sum::<i64>()
                        > i64::from(max)
                })
                .map(|max| format!("a limit of {max} levels in all that this file may reach"))
        };
        if let Some(what) = unmodelled_rule {
            return Err(TooLarge {
                what: format!(
                    "this game's loader has {what}, which the exact statistics do not model"
                ),
            });
        }
        if let Some(l) = res.levels.iter().find(|l| l.unlinked) {
            return Err(TooLarge {
                what: format!(
                    "\"{}\" is taken out of the level chain (a game option)",
                    l.name
                ),
            });
        }
        if res.rules.planes.is_none() {
            return Ok(());
        }
        let unmodelled = || {
            TooLarge {
            what: "the Elemental Planes shuffle is modelled only for six planes of one dungeon, always there, at fixed levels, astral first and dummy last".into(),
        }
        };
        // The first record of each part, as `find_level` finds it.
        let mut part = [None::<(u32, i32)>; 6];
        for l in &res.levels {
            if let Some(p) = l.plane {
                let d = &res.dungeons[l.dungeon as usize];
                let sure = (d.chance == 0 || d.chance >= 100 || self.facts.skip_dungeon_chance)
                    && (l.chance >= 100 || self.facts.skip_level_chance);
                if part[p as usize].is_none() {
                    if !sure || l.range.rand != 0 || l.chain >= 0 {
                        return Err(unmodelled());
                    }
                    part[p as usize] = Some((l.dungeon, l.range.base));
                }
            }
        }
        let Some(part) = part.iter().copied().collect::<Option<Vec<_>>>() else {
            return Err(unmodelled());
        };
        let (dn, head, tail) = (part[0].0, part[0].1, part[5].1);
        if part.iter().any(|&(d, _)| d != dn)
            || !part[1..5].iter().all(|&(_, b)| head < b && b < tail)
        {
            return Err(unmodelled());
        }
        let d = &res.dungeons[dn as usize];
        let between = res.levels[d.levels.0 as usize..d.levels.1 as usize]
            .iter()
            .filter(|l| l.plane.is_none())
            .any(|l| l.chain >= 0 || l.range.rand != 0 || (head..=tail).contains(&l.range.base));
        if between {
            return Err(unmodelled());
        }
        Ok(())
    }
}

/// The bits ([`crate::runs::bit`]) of levels `start..start + count`: asked for every
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
