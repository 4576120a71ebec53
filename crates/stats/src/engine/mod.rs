//! Exact enumeration of the loader's random outcomes, dungeon by dungeon.
//!
//! The loader's state after a dungeon is projected onto what later dungeons
//! can still read: which dungeon records exist (indices, slots and parents
//! follow from that), for each dungeon that may still be a branch's parent
//! its size, depth and the levels already ending a branch that a later
//! branch could land on, the levels of special levels that later chains
//! read, and whether the first of each floating level (`knox`, ...) and
//! `dummy` have been seen. Equal
//! projections are merged, so dungeons that interact only through branches
//! are enumerated independently (a forward pass over layers of states).
//! One dungeon's placement depends only on its size, which of its levels
//! exist and the levels its chains read outside it, and is memoised on that.
//!
//! Statistics must be conditional on the whole resolution succeeding, and
//! bones on a level depend on branches that later dungeons bring, so a
//! backward pass computes for every state the chance that the rest
//! succeeds and, per level of each dungeon that may still gain branches,
//! the chance that it does (or does not) become a branch level.
//!
//! A run of consecutive dungeons that each only hang off one parent by an
//! unchained branch (dNetHack's three `@ (5, 25)` side branches) would make
//! the parent's set of taken levels, which each later branch of the run
//! avoids, multiply the states by the range at every step. When nothing
//! after the run can land on the levels the run takes, the run's levels are
//! deferred instead: the parent keeps the taken levels of before the run
//! and counts the run's branches placed ([`Live::pending`](state::Live::pending)); each branch
//! carries the chance of each of its levels given those ([`Spread`]), and
//! the backward pass judges the run's levels on the state before the run
//! from the joint chances of the whole run ([`RunDist`](crate::runs::RunDist)). That is exact
//! because the run's levels change nothing else: a child's own outcomes do
//! not depend on where its branch leaves, and the state after the run
//! forgets those levels anyway. [`crate::runs`] says which records form a
//! run: a member may float (Fort Ludios) or lead on to subs, whose depths
//! follow its spread level.
//!
//! Statistics given evidence ([`crate::evidence`]) need no second
//! enumeration: each fact the evidence reads is settled by one outcome of
//! one record, so every edge is marked by whether it meets the constraints
//! it settles, and the forward and backward passes follow the marked edges
//! only (the backward values become the chance that the rest succeeds and
//! meets the evidence). The states are those of the plain enumeration, so
//! the failures, which have no layout to judge, are still counted over
//! every path ([`Enumeration::alpha_all`]).

mod arith;
mod back;
mod expand;
mod facts;
mod layer;
mod memo;
mod other_end;
mod outcomes;
mod spread;
mod state;

use crate::acc::ENDS;
use crate::evidence::{Checks, Evidence, Facts};
use crate::follow::{Follow, Followed, Made, Masses, Sink};
use crate::place::{Placement, LEVELS};
use crate::runs::bit;
use crate::weight::W;
use crate::{Budget, Stop, STOPPED};
use back::{backward, DeferredRuns};
pub(crate) use back::{BackAt, BackLayer, Ranks, Reach, LEVEL_BITS};
use dgnkit_bones::{BonesOptions, BranchRule};
use dgnkit_loader::rng::RngKind;
use dgnkit_loader::FailCode;
use dgnkit_loader::Resolver;
use expand::Expansion;
use facts::FileFacts;
pub(crate) use facts::FutureMasks;
use layer::Presents;
pub(crate) use layer::{BranchInfo, Edge, FailKey, Layer, Present, PresentKey, To};
use memo::Memo;
use other_end::entry_classes;
pub(crate) use other_end::{core_chance, CoreFacts};
pub(crate) use spread::Spread;
use spread::Spreads;
use state::Lists;
pub(crate) use state::{n_slots, State};
use std::sync::Arc;

/// An enumeration of at least this many outcomes hands its memo tables'
/// pages back to the system before the backward pass. The dNetHack
/// family's files, the largest in memory, have 118,700 to 404,100; every
/// other file of the corpus at most 65,180, and NetHack 3.6's 1,755, where
/// the walk over the heaps cost more than it gave back (200 whole `dgn
/// stats` runs 1.025x).
const RELEASE_FROM_EDGES: usize = 100_000;

/// The enumeration needs more than the budget allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    pub what: String,
}

/// Everything the enumeration found: its layers of states and edges, the
/// placements they share, and the forward and backward passes' values.
pub struct Enumeration {
    /// The enumeration's [`Stop`], which the passes over the run heed too.
    pub stop: Stop,
    pub layers: Vec<Layer>,
    pub placements: Vec<Arc<Placement>>,
    /// Per placement: which of its dungeon's level records exist. Held once
    /// here rather than by each of the hundreds of thousands of outcomes.
    pub patterns: Vec<Vec<bool>>,
    /// The chance of reaching each state (with evidence: and meeting it so
    /// far).
    pub alpha: Vec<Vec<W>>,
    /// With evidence: the chance of reaching each state by any path.
    pub alpha_all: Option<Vec<Vec<W>>>,
    pub back: Vec<BackLayer>,
    /// Failures after the last dungeon (missing hard-wired dungeons), per
    /// final state.
    pub terminal_fail: Vec<Option<FailKey>>,
    pub placement_nodes: usize,
    /// With dNetHack's bones rules, per layer, state and live dungeon: the
    /// levels a later branch may land on, and for each the chance of
    /// reaching the state with that level a no-bones level judged without
    /// branch rules ([`core_chance`]). Which special level lies
    /// where, beyond the levels kept in the state, has no effect on later
    /// draws, so given the state it is independent of everything after.
    pub core: Vec<Masses>,
    /// [`BranchInfo::spread`]'s.
    pub spreads: Vec<Spread>,
}

impl Enumeration {
    /// Which of the level records of an outcome's dungeon exist.
    pub fn pattern(&self, info: &Present) -> &[bool] {
        &self.patterns[info.placement as usize]
    }

    /// The chance that level `level` of dungeon record `record`, live in
    /// state `from` of layer `i`, is a no-bones level judged without branch
    /// rules, given that state (zero without dNetHack's bones rules).
    pub fn core_at(&self, i: usize, from: usize, record: u32, level: i32) -> W {
        self.core_of(i, from, record).at(level)
    }

    /// [`Enumeration::core_at`] for the levels of one live dungeon of one
    /// state, found once: a deferred run's branch asks for each level of
    /// its spread.
    pub fn core_of(&self, i: usize, from: usize, record: u32) -> CoreOf<'_> {
        let s = &self.layers[i].states[from];
        let masses = s
            .live
            .iter()
            .position(|l| u32::from(l.record) == record)
            .and_then(|li| self.core.get(i).and_then(|m| m.at(from, li)));
        CoreOf {
            masses,
            a: self.alpha[i][from],
        }
    }
}

/// [`Enumeration::core_of`]: a live dungeon's core masses in one state
/// (none without them), and the chance of reaching the state.
pub struct CoreOf<'e> {
    masses: Option<(u64, &'e [f64], f64)>,
    a: W,
}

impl CoreOf<'_> {
    /// [`Enumeration::core_at`] of level `level`.
    pub fn at(&self, level: i32) -> W {
        let Some((mask, mass, err)) = self.masses else {
            return W::ZERO;
        };
        let a = self.a;
        match usize::try_from(level).ok().filter(|&l| l < LEVELS) {
            Some(l) if mask & (1u64 << l) != 0 && a.v > 0.0 => {
                let v = mass[(mask & ((1u64 << l) - 1)).count_ones() as usize];
                (W { v, e: err } / a).snapped()
            }
            _ => W::ZERO,
        }
    }
}

/// The enumeration of one file: what it knows of the file, what it has
/// memoised so far, and what it is asked.
pub struct Engine<'a> {
    pub res: &'a Resolver,
    /// Worked out once from `res`.
    facts: FileFacts,
    budget: Budget,
    stop: Stop,
    /// dNetHack's bones rules (a branch level judged by its other end),
    /// when the statistics follow them, with what they read of the file.
    other_end: Option<Arc<CoreFacts<'a>>>,
    /// The evidence the statistics are conditional on, if any.
    checks: Option<Checks>,
    /// The placements and the plans that ask for them.
    memo: Memo,
    /// The deferred runs' joint chances and spreads.
    spreads: Spreads,
    lists: Lists,
}

impl<'a> Engine<'a> {
    pub fn new(res: &'a Resolver, wizard: bool, budget: Budget) -> Self {
        Engine {
            res,
            facts: FileFacts::new(res, wizard),
            budget,
            stop: Stop::default(),
            other_end: None,
            checks: None,
            memo: Memo::new(res.dungeons.len()),
            spreads: Spreads::default(),
            lists: Lists::default(),
        }
    }

    /// Ends the enumeration early (as too large) once `stop` is set.
    pub fn with_stop(mut self, stop: Stop) -> Self {
        self.stop = stop;
        self
    }

    fn stopped(&self) -> Result<(), TooLarge> {
        if self.stop.is_set() {
            return Err(TooLarge {
                what: STOPPED.to_string(),
            });
        }
        Ok(())
    }

    /// Follows the game's `rn2` of a negative count as it is with generator
    /// `rng` ([`dgnkit_loader::NonPositiveRn2::with_generator`]); without
    /// this, as with the game's own generator.
    pub fn with_rng(mut self, rng: RngKind) -> Self {
        self.facts.neg_rn2 = self.res.rules.rn2_nonpositive.with_generator(rng);
        self
    }

    /// Follows a game's bones rules where they reach across branches
    /// (dNetHack judges a branch level by the other end of the first branch
    /// ending there); other rules need nothing from the enumeration.
    pub fn with_bones(mut self, opts: &'a BonesOptions) -> Self {
        if opts.rules.branch == BranchRule::OtherEnd {
            self.other_end = Some(Arc::new(CoreFacts::new(self.res, opts)));
        }
        self.facts.madman_locate = super::exact::madman_records(self.res, opts)
            .ok()
            .flatten()
            .map(|(_, loca)| loca);
        self
    }

    /// Conditions the statistics on `evidence` ([`crate::evidence`]): each
    /// outcome is marked by whether it meets the constraints it settles
    /// ([`Edge::ok`]); the placements of a dungeon whose special levels'
    /// levels the evidence reads split their classes by whether they lie
    /// where it allows ([`crate::place::PLevel::filter`]), and a deferred run
    /// whose branch levels it reads is followed branch by branch.
    pub fn with_evidence(mut self, evidence: &Evidence) -> Self {
        let checks = Checks::new(evidence, self.res);
        // A run's subs' depths are spread too.
        let touched: Vec<u32> = self
            .facts
            .run_members
            .iter()
            .filter(|&(first, members)| {
                members
                    .iter()
                    .chain(self.facts.run_subs.get(first).into_iter().flatten())
                    .any(|&r| checks.reads_branch_level[r as usize])
            })
            .map(|(&first, _)| first)
            .collect();
        for run in &mut self.facts.runs {
            if run.is_some_and(|rp| touched.contains(&rp.first)) {
                *run = None;
            }
        }
        self.checks = Some(checks);
        self
    }

    /// Whether outcome `info` of dungeon record `rec` from state `s` meets
    /// the evidence.
    fn meets_evidence(
        &self,
        checks: &Checks,
        s: &State,
        rec: usize,
        info: Option<&Present>,
    ) -> bool {
        if checks.by_dungeon[rec].is_empty() && !checks.never {
            return true;
        }
        let Some(info) = info else {
            return checks.admits(self.res, rec, None, false);
        };
        let facts = Facts {
            n: info.n,
            depth_start: info.depth_start,
            branch: info.branch.map(|b| (b.level, b.depth)),
            pattern: &self.memo.patterns[info.placement as usize],
        };
        // The class key ends, after the kept levels, with whether the
        // levels the evidence reads lay where it allows (0).
        let passed = !checks.filters(rec) || {
            let (l0, l1) = self.res.dungeons[rec].levels;
            let n_slots = self.n_slots(&s.loaded);
            let floating_here = (l0..l1)
                .filter_map(|l| self.res.levels[l as usize].floating)
                .fold(0u8, |m, f| m | (1 << f))
                & !s.floating_done;
            let kept = (0..(l1 - l0) as usize)
                .filter(|&j| self.keeps_level(rec, n_slots, j, floating_here))
                .count();
            self.memo
                .placements
                .get(info.placement as usize)
                .and_then(|p| p.classes.get(info.class as usize))
                .and_then(|c| c.key.get(kept))
                == Some(&0)
        };
        checks.admits(self.res, rec, Some(&facts), passed)
    }

    fn count(&self, v: i32) -> i32 {
        self.res.rules.fields.count(v)
    }

    /// Runs the forward enumeration and the backward pass.
    pub fn run(mut self) -> Result<Enumeration, TooLarge> {
        self.check_final_moves()?;
        let follow = Follow::new(
            self.res,
            self.other_end.clone(),
            self.facts.future.clone(),
            self.checks.is_some(),
            self.stop.clone(),
        );
        // The passes that follow the layers run beside the enumeration.
        let (layers, followed) = std::thread::scope(|scope| {
            let mut sink = Sink::start(scope, follow);
            let layers = self.layers(&mut sink);
            let followed = sink.finish();
            layers.map(|l| (l, followed))
        })?;
        self.stopped()?;
        // What only the enumeration reads: freed before the backward pass,
        // whose values are the largest the engine holds.
        self.memo.forget_search();
        self.lists = Lists::default();
        self.spreads.forget_memos();
        if layers.iter().map(|l| l.edges.len()).sum::<usize>() >= RELEASE_FROM_EDGES {
            crate::heap::release_free_memory();
        }
        let Some(followed) = followed else {
            // Only should the thread have lost its job before starting.
            return Err(TooLarge {
                what: STOPPED.to_string(),
            });
        };
        // The other thread has let go of them.
        let layers: Vec<Layer> = layers.into_iter().map(Arc::unwrap_or_clone).collect();
        let nd = self.res.dungeons.len();
        // After the last dungeon: Fort Ludios, then the hard-wired dungeons.
        let terminal_fail: Vec<Option<FailKey>> = layers[nd]
            .states
            .iter()
            .map(|s| {
                if s.floating_bad {
                    return Some(FailKey {
                        code: FailCode::KnoxNotReachable.code(),
                        dungeon: None,
                        level: None,
                    });
                }
                self.res.rules.required_dungeons.iter().find_map(|name| {
                    let found = s
                        .loaded
                        .iter()
                        .any(|&r| self.res.dungeons[r as usize].name == *name);
                    (!found).then_some(FailKey {
                        code: FailCode::MissingDungeon.code(),
                        dungeon: None,
                        level: None,
                    })
                })
            })
            .collect();
        let Followed {
            reach,
            alpha,
            alpha_all,
            core,
        } = followed;
        let (res, facts, placements) = (self.res, self.other_end.as_deref(), &self.memo.placements);
        let classes = |rec: usize, e: &Edge| match layers[rec].info(e) {
            Some(info) => entry_classes(res, facts, placements, rec, info),
            None => [W::ZERO; ENDS],
        };
        let runs = DeferredRuns {
            spreads: &self.spreads.list,
            dists: &self.spreads.dists,
        };
        // The passes after the enumeration are long on the largest
        // files: each stops early when asked, and its values are dropped.
        let back = backward(&layers, reach, &terminal_fail, &classes, &runs, &self.stop);
        self.stopped()?;
        Ok(Enumeration {
            stop: self.stop.clone(),
            layers,
            placements: self.memo.placements,
            patterns: self.memo.patterns,
            alpha,
            alpha_all,
            back,
            terminal_fail,
            placement_nodes: self.memo.placement_nodes,
            core,
            spreads: self.spreads.list,
        })
    }

    /// The layers of states, each sent to `sink` once done (with the
    /// placements and spreads made for it).
    fn layers(&mut self, sink: &mut Sink<'_, '_>) -> Result<Vec<Arc<Layer>>, TooLarge> {
        let nd = self.res.dungeons.len();
        let mut layers: Vec<Arc<Layer>> = Vec::with_capacity(nd + 1);
        let mut cur = Layer::default();
        cur.intern(State {
            loaded: Arc::default(),
            live: Box::default(),
            slots: Arc::default(),
            floating_done: 0,
            floating_bad: false,
            dummy_done: false,
            alts: Arc::default(),
        });
        cur.seal();
        let mut total_edges = 0usize;
        let (mut sent_placements, mut sent_spreads) = (0, 0);
        // Made in buffers kept from layer to layer, then copied to measure:
        // layers are held to the end, and vectors grown by doubling would
        // leave their outgrown buffers as holes in the heap.
        let mut edges: Vec<Edge> = Vec::new();
        let mut presents = Presents::default();
        let mut outs = Vec::new();
        for rec in 0..nd {
            self.prefetch_dists(&cur.states, rec);
            self.prefetch_placements(&cur.states, rec);
            // Most layers of the largest files map each state to one: the
            // index would otherwise grow, and hash every state again, a
            // dozen times.
            let mut next = Layer::default();
            next.index.reserve(cur.states.len());
            edges.clear();
            presents.list.clear();
            presents.ids.clear();
            for (si, s) in cur.states.iter().enumerate() {
                if si.is_multiple_of(256) {
                    self.stopped()?;
                }
                outs.clear();
                self.expand(s, rec, &mut outs)?;
                for out in outs.drain(..) {
                    let Expansion {
                        p,
                        to,
                        present,
                        next: state,
                    } = out;
                    if p.is_zero() {
                        continue;
                    }
                    let ok = match (&self.checks, &to) {
                        (Some(c), To::State(_)) => self.meets_evidence(c, s, rec, present.as_ref()),
                        _ => true,
                    };
                    let to = match (to, state) {
                        (To::State(_), Some(st)) => To::State(next.intern(st)),
                        (t, _) => t,
                    };
                    let info = presents.id(present);
                    edges.push(Edge {
                        from: si as u32,
                        to,
                        p,
                        info,
                        ok,
                    });
                }
                if next.index.len() > self.budget.states {
                    return Err(TooLarge {
                        what: format!(
                            "more than {} distinct loader states after \"{}\"",
                            self.budget.states, self.res.dungeons[rec].name
                        ),
                    });
                }
            }
            total_edges += edges.len();
            if total_edges > self.budget.edges {
                return Err(TooLarge {
                    what: format!("more than {} outcomes", self.budget.edges),
                });
            }
            cur.edges = measured(&mut edges);
            cur.presents = measured(&mut presents.list);
            next.seal();
            let done = Arc::new(std::mem::replace(&mut cur, next));
            sink.send(Made {
                layer: done.clone(),
                placements: self.memo.placements[sent_placements..].to_vec(),
                spread_levels: self.spreads.list[sent_spreads..]
                    .iter()
                    .map(|sp| sp.at.iter().fold(0, |m, x| m | bit(x.level)))
                    .collect(),
            });
            (sent_placements, sent_spreads) = (self.memo.placements.len(), self.spreads.list.len());
            layers.push(done);
        }
        self.stopped()?;
        let last = Arc::new(cur);
        sink.send(Made {
            layer: last.clone(),
            placements: Vec::new(),
            spread_levels: Vec::new(),
        });
        layers.push(last);
        Ok(layers)
    }
}

/// What `buf` holds, moved into a vector of its size (`buf` keeps its
/// buffer for the next layer).
fn measured<T>(buf: &mut Vec<T>) -> Vec<T> {
    let mut v = Vec::with_capacity(buf.len());
    v.append(buf);
    v
}
