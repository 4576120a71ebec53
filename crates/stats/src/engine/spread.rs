//! The deferred runs of side branches (see the module notes of
//! [`super`]): their joint chances ([`RunDist`]) and each branch's spread
//! of levels ([`Spread`]), memoised. Invariant: a spread's chances depend
//! only on its key, so equal keys share one number.

use super::arith::level_range;
use super::state::{Live, State};
use super::Engine;
use crate::fxhash::FxHashMap;
use crate::halves::each_of;
use crate::runs::{self, bit, RunDist, RunPos};
use crate::weight::W;

/// The levels a branch of a deferred run may leave from, given the state.
#[derive(Clone, Debug)]
pub struct Spread {
    /// [`Spreads::dists`] index and the branch's place in its run: a
    /// member's, or for a sub, the members placed before it (0: all).
    pub dist: u32,
    pub pos: u8,
    /// The run's parent record.
    pub owner: u32,
    /// A member's own level; else a sub's depths, which follow its
    /// member's level (the sub's branch level is the same in each).
    pub member: bool,
    /// By level.
    pub at: Vec<SpreadAt>,
}

#[derive(Clone, Copy, Debug)]
pub struct SpreadAt {
    pub p: W,
    pub level: i32,
    /// Of the parent end, in the final layout.
    pub depth: i32,
    /// Of the dungeon the branch leads to.
    pub depth_start: i32,
}

/// The deferred runs' joint chances and their branches' spreads, numbered
/// as made, and the memos that find them again.
#[derive(Default)]
pub(super) struct Spreads {
    /// Joint chances of deferred runs, by [`Spreads::dist_memo`]'s number.
    pub(super) dists: Vec<RunDist>,
    /// By the run and the parent's taken levels within the run's span.
    pub(super) dist_memo: FxHashMap<DistKey, u32>,
    /// [`Engine::run_dist`]'s answers by what it is asked (the run and
    /// the parent's whole taken levels): each member of a run asks again
    /// for every state, and working out `dist_memo`'s key takes a job's
    /// vectors.
    pub(super) dist_asked: FxHashMap<DistKey, Option<u32>>,
    /// [`super::BranchInfo::spread`]'s.
    pub(super) list: Vec<Spread>,
    pub(super) spread_memo: FxHashMap<SpreadKey, u32>,
    pub(super) shift_memo: FxHashMap<ShiftKey, u32>,
}

impl Spreads {
    /// Drops the memos (the joint chances and spreads stay).
    pub(super) fn forget_memos(&mut self) {
        self.spread_memo = FxHashMap::default();
        self.shift_memo = FxHashMap::default();
        self.dist_memo = FxHashMap::default();
        self.dist_asked = FxHashMap::default();
    }
}

/// A deferred run's joint chances' key: its first record, the parent's
/// taken levels (all of them, or those within the run's span), the
/// parent's size, and the floating levels seen before the run.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct DistKey {
    pub(super) first: u32,
    pub(super) taken: u64,
    pub(super) size: i32,
    pub(super) floating_done: u8,
}

/// A member's spread's key: its run's joint chances and its place in the
/// run, the parent's two depth starts, the branch's step and the entry.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct SpreadKey {
    pub(super) dist: u32,
    pub(super) pos: u8,
    pub(super) depth_start: i32,
    pub(super) depth_final: i32,
    pub(super) step: i32,
    pub(super) entry: i32,
}

/// A sub's spread's key: its member's spread, the sub's branch level, the
/// branch's step and the entry, and the members placed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct ShiftKey {
    pub(super) member: u32,
    pub(super) level: i32,
    pub(super) step: i32,
    pub(super) entry: i32,
    pub(super) placed: u8,
}

/// Deferred runs' sequences of draws at most: their counts convert to
/// chances exactly (and cannot overflow).
pub(super) const MAX_RUN_SEQUENCES: u64 = 1 << 53;

/// One deferred run's joint chances to compute ([`Engine::dist_job`]).
pub(super) struct DistJob {
    /// [`Spreads::dist_memo`]'s.
    key: DistKey,
    ranges: Vec<(i32, i32)>,
    sequences: u64,
    avoid: u64,
    floats: Vec<bool>,
}

impl DistJob {
    fn compute(&self, fields: &dgnkit_loader::Fields) -> Option<RunDist> {
        runs::run_dist(
            &self.ranges,
            self.sequences,
            self.avoid,
            &self.floats,
            |v| fields.count(v),
        )
    }
}

impl<'a> Engine<'a> {
    /// The branch into record `rec` (from `parent`, live in `s`) as a
    /// deferred run's ([`Spread`]), when it is one: the run's first branch
    /// starts deferring only if nothing after the run can land on a level
    /// the run may take, and its levels are not too many to enumerate; the
    /// later ones defer when the first did.
    pub(super) fn deferred_spread(
        &mut self,
        s: &State,
        rec: usize,
        parent: &Live,
        step: i32,
        entry: i32,
    ) -> Option<u32> {
        let rp = self.facts.runs[rec]?;
        if parent.pending != rp.pos {
            return None;
        }
        let dist = self.run_dist(parent, rp, s.floating_done)?;
        if rp.pos == 0 {
            let later =
                self.future_mask(parent, rp.end as usize, &s.slots, self.n_slots(&s.loaded));
            if later & self.spreads.dists[dist as usize].span != 0 {
                return None;
            }
        }
        let key = SpreadKey {
            dist,
            pos: rp.pos,
            depth_start: parent.depth_start,
            depth_final: parent.depth_final,
            step,
            entry,
        };
        if let Some(&id) = self.spreads.spread_memo.get(&key) {
            return Some(id);
        }
        let at: Vec<SpreadAt> = self.spreads.dists[dist as usize].marg[usize::from(rp.pos)]
            .iter()
            .map(|&(level, p)| {
                let (depth, depth_start) =
                    self.branch_depths(parent.depth_start, parent.depth_final, level, step, entry);
                SpreadAt {
                    p,
                    level,
                    depth,
                    depth_start,
                }
            })
            .collect();
        if at.is_empty() {
            return None;
        }
        let id = self.spreads.list.len() as u32;
        self.spreads.list.push(Spread {
            dist,
            pos: rp.pos,
            owner: self.res.dungeons[rec].incoming[0].1,
            member: true,
            at,
        });
        self.spreads.spread_memo.insert(key, id);
        Some(id)
    }

    /// The spread of a sub's depths (see [`crate::runs`]): its branch
    /// leaves level `level` of a member whose own level is spread
    /// (`member`), in a run of which `placed` members are placed (0: all).
    pub(super) fn sub_spread(
        &mut self,
        member: u32,
        level: i32,
        step: i32,
        entry: i32,
        placed: u8,
    ) -> u32 {
        let key = ShiftKey {
            member,
            level,
            step,
            entry,
            placed,
        };
        if let Some(&id) = self.spreads.shift_memo.get(&key) {
            return id;
        }
        let m = &self.spreads.list[member as usize];
        let (dist, owner) = (m.dist, m.owner);
        // A member has no `dummy` level: its two depth starts are one.
        let at: Vec<SpreadAt> =
            m.at.iter()
                .map(|x| {
                    let (depth, depth_start) =
                        self.branch_depths(x.depth_start, x.depth_start, level, step, entry);
                    SpreadAt {
                        p: x.p,
                        level,
                        depth,
                        depth_start,
                    }
                })
                .collect();
        let id = self.spreads.list.len() as u32;
        self.spreads.list.push(Spread {
            dist,
            pos: placed,
            owner,
            member: false,
            at,
        });
        self.spreads.shift_memo.insert(key, id);
        id
    }

    /// The joint chances of the levels of the run `rp` into `parent`, from
    /// the levels it has taken before the run and the floating levels seen
    /// (memoised); `None` when a branch's range fails on its size (the run
    /// is then followed level by level) or the sequences are too many.
    pub(super) fn run_dist(&mut self, parent: &Live, rp: RunPos, floating_done: u8) -> Option<u32> {
        let asked = DistKey {
            first: rp.first,
            taken: parent.avoid,
            size: parent.n,
            floating_done,
        };
        if let Some(&id) = self.spreads.dist_asked.get(&asked) {
            return id;
        }
        let id = self.dist_job(parent, rp, floating_done).and_then(|job| {
            if let Some(&id) = self.spreads.dist_memo.get(&job.key) {
                return Some(id);
            }
            let dist = job.compute(&self.res.rules.fields)?;
            Some(self.add_dist(job.key, dist))
        });
        self.spreads.dist_asked.insert(asked, id);
        id
    }

    /// A new run's joint chances, numbered and memoised.
    pub(super) fn add_dist(&mut self, key: DistKey, dist: RunDist) -> u32 {
        let id = self.spreads.dists.len() as u32;
        self.spreads.dists.push(dist);
        self.spreads.dist_memo.insert(key, id);
        id
    }

    /// What [`Engine::run_dist`] computes for the run `rp` into `parent`;
    /// `None` as there.
    pub(super) fn dist_job(&self, parent: &Live, rp: RunPos, floating_done: u8) -> Option<DistJob> {
        let res = self.res;
        let members = self.facts.run_members.get(&rp.first)?;
        let ranges: Vec<(i32, i32)> = members
            .iter()
            .map(|&r| {
                let (b, _) = res.dungeons[r as usize].incoming[0];
                let b = &res.branches[b as usize];
                // A negative count is followed level by level.
                level_range(parent.n, b.range.base, b.range.rand, None)
                    .ok()
                    .filter(|&(_, count)| count >= 1)
            })
            .collect::<Option<_>>()?;
        // A member with a floating level floats when it is the first of
        // its name (its one level is its entry).
        let mut seen = floating_done;
        let floats: Vec<bool> = members
            .iter()
            .map(|&r| {
                let (l0, l1) = res.dungeons[r as usize].levels;
                let here = (l0..l1)
                    .filter_map(|l| res.levels[l as usize].floating)
                    .fold(0u8, |m, f| m | (1 << f));
                let floats = here & !seen != 0;
                seen |= here;
                floats
            })
            .collect();
        // The floats follow from the run's floating levels seen before it.
        let floats_key = floating_done & seen;
        let mut span = 0u64;
        let mut sequences = 1u64;
        for &(base, count) in &ranges {
            for j in 0..count {
                span |= bit(self.count(base + j));
            }
            sequences = sequences.saturating_mul(count.max(1) as u64);
        }
        if sequences > MAX_RUN_SEQUENCES {
            return None;
        }
        Some(DistJob {
            key: DistKey {
                first: rp.first,
                taken: parent.avoid & span,
                size: parent.n,
                floating_done: floats_key,
            },
            ranges,
            sequences,
            avoid: parent.avoid,
            floats,
        })
    }

    /// Before the first member of a deferred run is loaded: the joint
    /// chances its states will ask for ([`Engine::run_dist`]), on two
    /// threads (notdNetHack's are many, and slow on one),
    /// numbered in the order the states would ask for them.
    pub(super) fn prefetch_dists(&mut self, states: &[State], rec: usize) {
        let Some(rp) = self.facts.runs[rec].filter(|rp| rp.pos == 0) else {
            return;
        };
        let owner = self.res.dungeons[rec].incoming[0].1;
        let mut jobs: Vec<DistJob> = Vec::new();
        let mut wanted = FxHashMap::default();
        let mut asked = FxHashMap::default();
        for s in states {
            let Some(parent) = s.live.iter().find(|l| u32::from(l.record) == owner) else {
                continue;
            };
            let question = DistKey {
                first: rp.first,
                taken: parent.avoid,
                size: parent.n,
                floating_done: s.floating_done,
            };
            if parent.pending != rp.pos
                || self.spreads.dist_asked.contains_key(&question)
                || asked.insert(question, ()).is_some()
            {
                continue;
            }
            let Some(job) = self.dist_job(parent, rp, s.floating_done) else {
                continue;
            };
            if self.spreads.dist_memo.contains_key(&job.key) || wanted.insert(job.key, ()).is_some()
            {
                continue;
            }
            jobs.push(job);
        }
        let fields = &self.res.rules.fields;
        let mut dists: Vec<Option<RunDist>> = vec![None; jobs.len()];
        each_of(&mut dists, 64, |k, d| *d = jobs[k].compute(fields));
        for (job, dist) in jobs.into_iter().zip(dists) {
            // Too many sets: each state finds out again, as without this.
            if let Some(dist) = dist {
                self.add_dist(job.key, dist);
            }
        }
    }
}
