//! The placements of a dungeon's levels, searched once per distinct
//! problem ([`PlaceKey`]) and shared by every state that asks, and the
//! per-record plans that build those problems. Invariant: a placement's
//! number is the order it was first asked for, whether searched ahead or not.

use super::arith::locate_moves;
use super::expand::Draw;
use super::state::State;
use super::{Engine, TooLarge};
use crate::fxhash::FxHashMap;
use crate::halves::{self, each_of};
use crate::place::{self, PLevel, Placement};
use crate::tail::{Asked, Tails};
use crate::weight::W;
use crate::STOPPED;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, ThreadId};

/// A dungeon record's sizes with their chances.
pub(super) type Sizes = Arc<[(i32, W)]>;

/// The level slots and branch records of a list of records.
pub(super) type Counts = (i32, usize);

/// A placement [`Engine::prefetch_placements`] has yet to make.
pub(super) const NOT_YET: u32 = u32::MAX;

/// Layers of at most this many states have their placements searched
/// ahead ([`Engine::prefetch_placements`]).
pub(super) const PREFETCH_UP_TO: usize = 16;

/// The memo tables of the placement search, shared by every state of
/// every layer. What only the enumeration reads is dropped
/// ([`Memo::forget_search`]) before the backward pass.
pub(super) struct Memo {
    /// Placement number by problem.
    pub(super) ids: FxHashMap<PlaceKey, u32>,
    /// Shared with the passes that follow the enumeration ([`Follow`]).
    ///
    /// [`Follow`]: crate::follow::Follow
    pub(super) placements: Vec<Arc<Placement>>,
    /// [`super::Enumeration::patterns`].
    pub(super) patterns: Vec<Vec<bool>>,
    /// The search states the placements took, in all.
    pub(super) placement_nodes: usize,
    pub(super) plans: FxHashMap<PlanKey, Arc<LevelPlan>>,
    /// Per dungeon record: a placement found its levels' rolls unmixable
    /// ([`Engine::mixing`]).
    pub(super) no_mix: Vec<bool>,
    /// The placements' tails ([`crate::tail`]), shared by all of them.
    pub(super) tails: Tails,
    /// [`Engine::mixing`]'s answers.
    pub(super) mixings: FxHashMap<TailStartKey, Mixing>,
    /// Per dungeon record: its sizes with their chances, once asked
    /// ([`Engine::sizes`]).
    pub(super) sizes: Vec<Option<Sizes>>,
    /// While [`Engine::prefetch_placements`] looks ahead: the placements
    /// asked for and not yet made.
    pub(super) wanted: Option<Vec<PlaceKey>>,
    /// Buffers kept from state to state (a state's key is looked up, and
    /// copied only when new): a placement's key, and the chains a
    /// dungeon reads.
    pub(super) key: PlaceKey,
    pub(super) external: Vec<(i32, i32)>,
    /// The draws of a branch ([`Engine::expand`]).
    pub(super) draws: Vec<Draw>,
    /// Lists of records loaded, by address (the entry holds the list, so
    /// its address is its own), with their level slots and branch records
    /// ([`Engine::counts`]).
    pub(super) counts: FxHashMap<usize, (Arc<[u16]>, Counts)>,
}

impl Memo {
    pub(super) fn new(records: usize) -> Memo {
        Memo {
            ids: FxHashMap::default(),
            placements: Vec::new(),
            patterns: Vec::new(),
            placement_nodes: 0,
            plans: FxHashMap::default(),
            no_mix: vec![false; records],
            tails: Tails::default(),
            mixings: FxHashMap::default(),
            sizes: vec![None; records],
            wanted: None,
            key: PlaceKey::default(),
            external: Vec::new(),
            draws: Vec::new(),
            counts: FxHashMap::default(),
        }
    }

    /// Drops what only the enumeration reads (the placements stay).
    pub(super) fn forget_search(&mut self) {
        self.tails = Tails::default();
        self.ids = FxHashMap::default();
        self.mixings = FxHashMap::default();
        self.plans = FxHashMap::default();
        self.counts = FxHashMap::default();
    }
}

/// [`Memo::plans`]' key: the record, its size, its first slot, and the
/// floating levels still to come.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct PlanKey {
    pub(super) record: u32,
    pub(super) size: i32,
    pub(super) start: i32,
    pub(super) floating_here: u8,
}

/// [`Memo::mixings`]' key: the record, its size, its first slot, the
/// floating levels still to come (which with them say which levels are
/// kept) and the chains it reads outside it.
#[derive(PartialEq, Eq, Hash)]
pub(super) struct TailStartKey {
    pub(super) record: u32,
    pub(super) size: i32,
    pub(super) start: i32,
    pub(super) floating_here: u8,
    pub(super) external: Vec<(i32, i32)>,
}

/// Which optional levels' chance rolls a placement weighs: per level
/// record its chance as placed (100 unless mixed), and the levels still
/// enumerated when some are mixed (none: the plan's optional levels).
pub(super) type Mixing = (Arc<[u8]>, Option<Arc<[usize]>>);

#[derive(Clone, Default, PartialEq, Eq)]
pub(super) struct PlaceKey {
    pub(super) record: u32,
    /// First slot: chains are slot numbers, so the same dungeon placed
    /// after a dropped dungeon reads differently.
    pub(super) start: i32,
    pub(super) n: i32,
    pub(super) pattern: Vec<bool>,
    pub(super) keep: Arc<[bool]>,
    pub(super) external: Vec<(i32, i32)>,
    /// Added to the base of the record before last (dNetHack's Quest
    /// locate level, [`super::arith::locate_moves`]).
    pub(super) adjust: i32,
    /// The levels the evidence allows each constrained level on
    /// ([`place::PLevel::filter`]), by local index.
    pub(super) filters: Vec<(u16, u64)>,
    /// Per level: 100, or its chance roll mixed into the placement's tail
    /// ([`place::PLevel::chance`]).
    pub(super) chances: Arc<[u8]>,
}

/// What a dungeon's levels ask of its placement, the same for every state
/// that loads the dungeon with the same size, first slot and floating
/// levels still to come: worked out once rather than for each of a
/// layer's ten thousand states.
pub(super) struct LevelPlan {
    /// Per level record: its chances of existing and not.
    pub(super) probs: Vec<(W, W)>,
    /// The levels whose chance roll is enumerated (before mixing).
    pub(super) optional: Vec<usize>,
    pub(super) possible: Vec<bool>,
    /// Per level record: whether it goes into the placement's class key
    /// ([`Engine::keeps_level`]), and those that do.
    pub(super) keep: Arc<[bool]>,
    pub(super) kept: Vec<usize>,
    /// Every level's chance as placed without mixing: 100.
    pub(super) unmixed: Arc<[u8]>,
    pub(super) locate: Vec<(i32, W)>,
}

/// A word at a time: every state that loads a dungeon looks its
/// placement up, and the level flags, hashed one by one, took most of it.
impl std::hash::Hash for PlaceKey {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(u64::from(self.record) | u64::from(self.start as u32) << 32);
        h.write_u64(u64::from(self.n as u32) | u64::from(self.adjust as u32) << 32);
        hash_flags(&self.pattern, h);
        hash_flags(&self.keep, h);
        self.external.hash(h);
        self.filters.hash(h);
        self.chances.hash(h);
    }
}

/// `flags`, 64 to a word, and how many.
fn hash_flags<H: std::hash::Hasher>(flags: &[bool], h: &mut H) {
    h.write_usize(flags.len());
    for chunk in flags.chunks(64) {
        let word = chunk
            .iter()
            .enumerate()
            .fold(0u64, |w, (i, &f)| w | u64::from(f) << i);
        h.write_u64(word);
    }
}

impl PlaceKey {
    fn input<'a>(&'a self, levels: &'a [PLevel]) -> place::Input<'a> {
        place::Input {
            n: self.n,
            start: self.start,
            levels,
            external: &self.external,
        }
    }
}

impl<'a> Engine<'a> {
    /// [`LevelPlan`] for record `rec` of `num` levels from slot `n_slots`,
    /// with floating levels `floating_here` still to come.
    pub(super) fn level_plan(
        &mut self,
        rec: usize,
        num: i32,
        n_slots: i32,
        floating_here: u8,
    ) -> Arc<LevelPlan> {
        let key = PlanKey {
            record: rec as u32,
            size: num,
            start: n_slots,
            floating_here,
        };
        if let Some(plan) = self.memo.plans.get(&key) {
            return plan.clone();
        }
        let res = self.res;
        let (l0, l1) = res.dungeons[rec].levels;
        let nlev = (l1 - l0) as usize;
        // Level chance rolls.
        let probs: Vec<(W, W)> = (l0..l1)
            .map(|l| {
                if self.facts.skip_level_chance {
                    (W::ONE, W::ZERO)
                } else {
                    let c = res.levels[l as usize].chance.clamp(0, 100) as u64;
                    (W::ratio(c, 100), W::ratio(100 - c, 100))
                }
            })
            .collect();
        let optional: Vec<usize> = (0..nlev)
            .filter(|&j| !probs[j].0.is_zero() && !probs[j].1.is_zero())
            .collect();
        let keep: Arc<[bool]> = (0..nlev)
            .map(|j| self.keeps_level(rec, n_slots, j, floating_here))
            .collect();
        let plan = Arc::new(LevelPlan {
            possible: probs.iter().map(|(y, _)| !y.is_zero()).collect(),
            probs,
            optional,
            kept: (0..nlev).filter(|&j| keep[j]).collect(),
            keep,
            unmixed: vec![100; nlev].into(),
            locate: locate_moves(self.res, rec, num),
        });
        self.memo.plans.insert(key, plan.clone());
        plan
    }

    /// The placement problem's levels (`adjust`: see [`PlaceKey`]).
    pub(super) fn plevels(
        &self,
        rec: usize,
        pattern: &[bool],
        keep: &[bool],
        adjust: i32,
        filters: &[(u16, u64)],
        chances: &[u8],
    ) -> Vec<PLevel> {
        let d = &self.res.dungeons[rec];
        let nlev = (d.levels.1 - d.levels.0) as usize;
        (d.levels.0..d.levels.1)
            .enumerate()
            .map(|(j, l)| {
                let r = &self.res.levels[l as usize];
                PLevel {
                    exists: pattern[j],
                    base: if j + 2 == nlev {
                        r.range.base.wrapping_add(adjust)
                    } else {
                        r.range.base
                    },
                    rand: r.range.rand,
                    chain: r.chain,
                    keep: keep[j],
                    filter: filters
                        .iter()
                        .find(|&&(i, _)| usize::from(i) == j)
                        .map(|&(_, m)| m),
                    chance: chances.get(j).copied().unwrap_or(100),
                }
            })
            .collect()
    }

    /// Chains of existing levels of record `rec` that read earlier
    /// dungeons, into `external`: `(slot, level)`, -1 for a slot without
    /// a level.
    pub(super) fn external_into(
        &self,
        s: &State,
        rec: usize,
        pattern: &[bool],
        n_slots: i32,
        external: &mut Vec<(i32, i32)>,
    ) {
        let l0 = self.res.dungeons[rec].levels.0 as usize;
        external.clear();
        // Only the levels that read a chain, in order.
        for &j in &self.facts.chained_levels[rec] {
            let c = self.res.levels[l0 + j].chain;
            if pattern.get(j).copied().unwrap_or(false) && c < n_slots {
                let v = s
                    .slots
                    .iter()
                    .find(|(sl, _)| *sl == c)
                    .map_or(-1, |&(_, v)| v);
                if !external.contains(&(c, v)) {
                    external.push((c, v));
                }
            }
        }
        external.sort_unstable();
    }

    /// Which optional levels' chance rolls the placement of record `rec`
    /// (of `num` levels, with floating levels `floating_here` still to
    /// come) weighs (mixed) rather than the enumeration: those of the tail
    /// ([`place::tail_start`], with every level that may exist) that
    /// nothing after the placement reads (not kept, not floating, not
    /// `dummy`). Not in wizard mode, with evidence, dNetHack's moving Quest
    /// locate level or rule 10's Quest, nor after a placement of this
    /// record found its rolls unmixable. Every state that loads the record
    /// asks: the answers are memoised on what they depend on.
    pub(super) fn mixing(
        &mut self,
        s: &State,
        (rec, floating_here): (usize, u8),
        num: i32,
        n_slots: i32,
        plan: &LevelPlan,
    ) -> Mixing {
        let res = self.res;
        let d = &res.dungeons[rec];
        let madman_here = self
            .facts
            .madman_locate
            .is_some_and(|l| res.levels[l as usize].dungeon == rec as u32);
        if self.facts.skip_level_chance
            || self.memo.no_mix[rec]
            || self.checks.is_some()
            || (res.rules.quest_locate && d.is_quest)
            || madman_here
        {
            return (plan.unmixed.clone(), None);
        }
        // The key borrows the buffer of the chains it reads, and gives it
        // back unless it is kept.
        let mut key = TailStartKey {
            record: rec as u32,
            size: num,
            start: n_slots,
            floating_here,
            external: std::mem::take(&mut self.memo.external),
        };
        self.external_into(s, rec, &plan.possible, n_slots, &mut key.external);
        if let Some(mixing) = self.memo.mixings.get(&key) {
            let mixing = mixing.clone();
            self.memo.external = key.external;
            return mixing;
        }
        let levels = self.plevels(rec, &plan.possible, &plan.keep, 0, &[], &[]);
        let start = place::tail_start(&place::Input {
            n: num,
            start: n_slots,
            levels: &levels,
            external: &key.external,
        });
        let mixed: Vec<usize> = plan
            .optional
            .iter()
            .copied()
            .filter(|&j| {
                let l = &res.levels[d.levels.0 as usize + j];
                j >= start && !plan.keep[j] && l.floating.is_none() && !l.is_dummy
            })
            .collect();
        let mixing: Mixing = if mixed.is_empty() {
            (plan.unmixed.clone(), None)
        } else {
            let (l0, l1) = d.levels;
            let chances = (0..(l1 - l0) as usize)
                .map(|j| {
                    if mixed.contains(&j) {
                        res.levels[l0 as usize + j].chance.clamp(0, 100) as u8
                    } else {
                        100
                    }
                })
                .collect();
            let enumerated = plan
                .optional
                .iter()
                .copied()
                .filter(|j| !mixed.contains(j))
                .collect();
            (chances, Some(enumerated))
        };
        self.memo.mixings.insert(key, mixing.clone());
        mixing
    }

    /// The placement of `key`, memoised; `None` when its mixed levels
    /// cannot be mixed.
    pub(super) fn placement(&mut self, key: &PlaceKey) -> Result<Option<u32>, TooLarge> {
        if let Some(&id) = self.memo.ids.get(key) {
            return Ok(Some(id));
        }
        if let Some(wanted) = self.memo.wanted.as_mut() {
            if !wanted.contains(key) {
                wanted.push(key.clone());
            }
            return Ok(Some(NOT_YET));
        }
        let rec = key.record as usize;
        let d = &self.res.dungeons[rec];
        let levels = self.place_levels(key);
        let input = key.input(&levels);
        let left = self.placement_nodes_left();
        let result = match place::place(&input, left, &self.stop, &mut self.memo.tails) {
            Err(e) if e.mixed => return Ok(None),
            r => r,
        };
        let result = result.map_err(|e| TooLarge {
            what: if e.stopped {
                STOPPED.to_string()
            } else {
                format!(
                    "placing the levels of \"{}\" needs more than {} search states",
                    d.name,
                    e.nodes + self.memo.placement_nodes
                )
            },
        })?;
        Ok(Some(self.keep_placement(key.clone(), result)))
    }

    /// The placement-search states the budget leaves.
    pub(super) fn placement_nodes_left(&self) -> usize {
        self.budget
            .placement_nodes
            .saturating_sub(self.memo.placement_nodes)
    }

    pub(super) fn keep_placement(&mut self, key: PlaceKey, result: Placement) -> u32 {
        self.memo.placement_nodes += result.nodes;
        let id = self.memo.placements.len() as u32;
        self.memo.placements.push(Arc::new(result));
        self.memo.patterns.push(key.pattern.clone());
        self.memo.ids.insert(key, id);
        id
    }

    pub(super) fn place_levels(&self, key: &PlaceKey) -> Vec<PLevel> {
        self.plevels(
            key.record as usize,
            &key.pattern,
            &key.keep,
            key.adjust,
            &key.filters,
            &key.chances,
        )
    }

    /// Before a layer of a few states: the placements its states will ask
    /// for, searched two at a time (the Dungeons of Doom's sizes on
    /// dNetHack's files, a large part of the enumeration, which would
    /// otherwise leave the other core idle). Each thread keeps one memo of
    /// tails for the layer's searches: a memo per search would solve a
    /// tail of thousands of entries again for every placement, and hold
    /// them all until the layer's placements are taken (SlashTHEM's
    /// Dungeons of Doom, with eight optional levels mixed into its tail,
    /// made some 40 times the entries it keeps). The entries each search
    /// made are then moved to the shared memo in the order the states
    /// would have asked ([`Tails::replay`]); what each counts is what it
    /// would have added, so the statistics and the reported work are the
    /// same as searched one after another, which is what happens from the
    /// first search that fails, or would have run out of budget, on.
    pub(super) fn prefetch_placements(&mut self, states: &[State], rec: usize) {
        if states.len() > PREFETCH_UP_TO || halves::is_alone() {
            return;
        }
        self.memo.wanted = Some(Vec::new());
        let mut out = Vec::new();
        for s in states {
            out.clear();
            // Whatever fails fails again, as it would have, when the
            // layer is made.
            if self.expand(s, rec, &mut out).is_err() {
                break;
            }
        }
        let wanted = self.memo.wanted.take().unwrap_or_default();
        if wanted.len() < 2 {
            return;
        }
        let jobs: Vec<(PlaceKey, Vec<PLevel>)> = wanted
            .into_iter()
            .map(|key| {
                let levels = self.place_levels(&key);
                (key, levels)
            })
            .collect();
        let budget = self.placement_nodes_left();
        let mut found: Vec<Option<(Placement, usize, Asked)>> =
            (0..jobs.len()).map(|_| None).collect();
        let stop = &self.stop;
        // One per thread, which takes its searches in order, as replaying
        // needs. Dropped with the layer: kept, they would hold the shared
        // memo's entries twice more to the end of the enumeration.
        let memos: Mutex<Vec<(ThreadId, Tails)>> = Mutex::new(Vec::new());
        let lock = || memos.lock().unwrap_or_else(PoisonError::into_inner);
        each_of(&mut found, 2, |k, slot| {
            let (key, levels) = &jobs[k];
            let me = thread::current().id();
            let (memo, mut tails) = {
                let mut memos = lock();
                match memos.iter().position(|&(thread, _)| thread == me) {
                    Some(memo) => (memo, std::mem::take(&mut memos[memo].1)),
                    None => {
                        memos.push((me, Tails::default()));
                        (memos.len() - 1, Tails::default())
                    }
                }
            };
            tails.record();
            let placed = place::place(&key.input(levels), budget, stop, &mut tails);
            let asked = tails.recorded();
            lock()[memo].1 = tails;
            if let Ok(p) = placed {
                *slot = Some((p, memo, asked));
            }
        });
        let mut memos = memos.into_inner().unwrap_or_else(PoisonError::into_inner);
        for ((key, _), slot) in jobs.into_iter().zip(found) {
            let Some((mut result, memo, asked)) = slot else {
                break;
            };
            let Some((_, from)) = memos.get_mut(memo) else {
                break;
            };
            let searched = result.nodes - asked.made;
            // Within what the search would have had left, it would have
            // ended as it did.
            if searched > self.placement_nodes_left() {
                break;
            }
            result.nodes = searched + self.memo.tails.replay(&asked, from);
            self.keep_placement(key, result);
        }
    }
}
