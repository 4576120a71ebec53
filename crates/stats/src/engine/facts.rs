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
    /// [`future_mask`]'s answers, worked out once (they read the last
    /// dungeon record each branch may lead to).
    pub(super) future: Arc<FutureMasks>,
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
    /// Per dungeon record: its level records that read a chain, by local
    /// index.
    pub(super) chained_levels: Vec<Vec<usize>>,
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
            future: Arc::new(FutureMasks::new(res, branch_last)),
            floating_later,
            dummy_later,
            alt_later,
            alt_group,
            runs: runs.pos,
            run_members: runs.members,
            run_subs: runs.subs,
            madman_locate: None,
            chained_levels: res
                .dungeons
                .iter()
                .map(|d| {
                    (d.levels.0..d.levels.1)
                        .enumerate()
                        .filter(|&(_, l)| res.levels[l as usize].chain >= 0)
                        .map(|(j, _)| j)
                        .collect()
                })
                .collect(),
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

/// Sizes up to this one have their [`future_mask`]s worked out ahead
/// ([`FutureMasks`]): a level beyond [`LEVELS`] has no bit.
const TABLED_SIZES: usize = LEVELS + 1;

/// [`future_mask`] for every dungeon record, stage and size, its chained
/// branches aside, worked out once: it is asked for every live dungeon of
/// every state a layer makes, and again by the passes that follow
/// (`crate::follow`), and the Dungeons of Doom have a dozen branches to
/// look at each time, most of them long loaded.
#[derive(Debug)]
pub(crate) struct FutureMasks {
    /// Branch record -> the last dungeon record it may lead to (-1: none).
    branch_last: Vec<i64>,
    /// Per dungeon record, per stage `next` up to the last a branch of it
    /// leads to (none after it: no branch of it is loaded then).
    stages: Vec<Vec<FutureStage>>,
}

/// A dungeon record's branches loaded from one stage on.
#[derive(Debug)]
struct FutureStage {
    /// By the dungeon's size (`0..TABLED_SIZES`): the levels its branches
    /// that read no chain may land on.
    unchained: Box<[u64]>,
    /// Its branches that read a chain (the state's slots say where).
    chained: Box<[u32]>,
}

impl FutureMasks {
    fn new(res: &Resolver, branch_last: Vec<i64>) -> FutureMasks {
        let stages = res
            .dungeons
            .iter()
            .map(|d| {
                let branches = d.branches.0..d.branches.1;
                let last = branches
                    .clone()
                    .map(|b| branch_last[b as usize])
                    .max()
                    .unwrap_or(-1);
                (0..=last)
                    .map(|next| {
                        let loaded = branches
                            .clone()
                            .filter(|&b| branch_last[b as usize] >= next)
                            .map(|b| (b, &res.branches[b as usize]));
                        let unchained = (0..TABLED_SIZES as i32)
                            .map(|n| {
                                loaded
                                    .clone()
                                    .filter(|(_, br)| br.chain < 0)
                                    .fold(0, |m, (_, br)| m | unchained_span(n, br))
                            })
                            .collect();
                        let chained = loaded
                            .clone()
                            .filter(|(_, br)| br.chain >= 0)
                            .map(|(b, _)| b)
                            .collect();
                        FutureStage { unchained, chained }
                    })
                    .collect()
            })
            .collect();
        FutureMasks {
            branch_last,
            stages,
        }
    }

    /// [`future_mask`], from the tables, for `slots` of the records
    /// loaded, whose slot count `n_slots_of` gives (asked for only when a
    /// branch reads a chain that `slots` does not hold).
    pub(crate) fn mask(
        &self,
        res: &Resolver,
        live: &Live,
        next: usize,
        slots: &[(i32, i32)],
        n_slots_of: impl FnOnce() -> i32,
    ) -> u64 {
        let Some(stage) = self.stages[live.record as usize].get(next) else {
            return 0;
        };
        let Some(&unchained) = usize::try_from(live.n)
            .ok()
            .and_then(|n| stage.unchained.get(n))
        else {
            return future_mask(res, &self.branch_last, live, next, slots, n_slots_of());
        };
        if stage.chained.is_empty() {
            return unchained;
        }
        // Counted once at most.
        let (mut n_slots_of, mut n_slots) = (Some(n_slots_of), None);
        let mut count = || *n_slots.get_or_insert_with(|| n_slots_of.take().map_or(0, |f| f()));
        stage.chained.iter().fold(unchained, |m, &b| {
            m | chained_span(live, &res.branches[b as usize], slots, &mut count)
        })
    }
}

/// The levels branch `br`, which reads no chain, may land on in a dungeon
/// of `n` levels.
fn unchained_span(n: i32, br: &dgnkit_loader::BRec) -> u64 {
    match level_range(n, br.range.base, br.range.rand, None) {
        // A negative count looks at its base only (3.6's raw `rn2` is
        // not enumerated).
        Ok((s, c)) => span_mask(s, c.max(1)),
        Err(_) => 0,
    }
}

/// The levels branch `br`, which reads a chain, may land on in dungeon
/// `live`, given what `slots` knows. A slot in `slots` is one of the
/// records loaded (below `n_slots`), so the count is asked for only when
/// the slot is not there.
fn chained_span(
    live: &Live,
    br: &dgnkit_loader::BRec,
    slots: &[(i32, i32)],
    n_slots: impl FnOnce() -> i32,
) -> u64 {
    match slots.iter().find(|(s, _)| *s == br.chain) {
        Some(&(_, v)) if v > 0 => {
            match level_range(live.n, br.range.base, br.range.rand, Some(v)) {
                Ok((s, c)) => span_mask(s, c.max(1)),
                Err(_) => 0,
            }
        }
        Some(_) => 0,
        // A slot of a dungeon not loaded yet: anything.
        None if br.chain >= n_slots() => span_mask(1, live.n),
        None => 0,
    }
}

/// The levels a later branch of dungeon `live` may land on (stage
/// `next` on), given what `slots` knows: [`FutureMasks::mask`] reads its
/// tables instead, and this, which they are tested against, where they
/// hold no answer.
fn future_mask(
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
        self.facts
            .future
            .mask(self.res, live, next, slots, || n_slots)
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

#[cfg(test)]
mod future_tests {
    use super::*;
    use crate::tests::random::{arb_script, arb_wild_script};
    use dgnkit_loader::Rules;
    use dgnkit_script::Script;
    use proptest::prelude::*;

    /// Every record, stage, size, slot and slot count the tables answer
    /// for, against the function they stand for.
    fn tables_agree(script: &Script, rules: Rules) -> Result<(), TestCaseError> {
        let Ok(res) = Resolver::with_rules(script, rules) else {
            return Ok(());
        };
        let facts = FileFacts::new(&res, false);
        let future = &facts.future;
        let slot_sets: [&[(i32, i32)]; 4] = [
            &[],
            &[(0, 1), (1, 2), (2, -1), (3, 5)],
            &[(0, 3), (2, 1), (4, 7), (5, 40), (7, 2), (9, 1), (11, 12)],
            &[(1, 30), (3, 0), (6, 64), (8, 2), (10, 1), (12, 3)],
        ];
        let nd = res.dungeons.len();
        for record in 0..nd {
            for next in 0..=nd + 1 {
                for n in (-3..=70).chain([i32::MIN, 1000, i32::MAX]) {
                    let live = Live {
                        record: record as u16,
                        n,
                        depth_start: 1,
                        depth_final: 1,
                        avoid: 0,
                        pending: 0,
                        spread: None,
                    };
                    for slots in slot_sets {
                        // The slots a state holds are of records loaded.
                        let least = slots.iter().map(|&(s, _)| s + 1).max().unwrap_or(0);
                        for n_slots in [0, 4, 13, 20].into_iter().filter(|&n| n >= least) {
                            let want =
                                future_mask(&res, &future.branch_last, &live, next, slots, n_slots);
                            let got = future.mask(&res, &live, next, slots, || n_slots);
                            prop_assert_eq!(got, want, "record {} next {} n {}", record, next, n);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn tabled_future_masks_are_the_function_s(script in arb_script(), old in any::<bool>()) {
            let rules = if old { Rules::nethack_343() } else { Rules::native() };
            tables_agree(&script, rules)?;
        }

        #[test]
        fn tabled_future_masks_hold_for_wild_values(script in arb_wild_script()) {
            tables_agree(&script, Rules::native())?;
        }
    }
}
