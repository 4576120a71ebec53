//! The passes that go forward through the enumeration's layers, done a
//! layer at a time as the enumeration makes them: the levels later
//! branches may land on ([`Reach`]), the chance of reaching each state
//! ([`Enumeration::alpha`](super::engine::Enumeration::alpha)) and the core masses ([`Enumeration::core`](super::engine::Enumeration::core)).
//!
//! Each reads only the layers before the one it is given, so on a second
//! core they follow the enumeration, which is a single thread, instead of
//! adding their time to it after it. Their values are
//! those of one pass after the enumeration, sum for sum: the same
//! functions over the same layers in the same order.

use std::sync::mpsc;
use std::sync::Arc;
use std::thread;

use super::acc::END_PLAIN;
use super::engine::{
    core_chance, n_slots, CoreFacts, FutureMasks, Layer, Ranks, Reach, State, To, LEVEL_BITS,
};
use super::fxhash::FxHashMap;
use super::halves::{alone, is_alone};
use super::place::Placement;
use super::runs::bit;
use super::weight::{largest_bound, W};
use super::Stop;
use dgnkit_loader::Resolver;

/// A finished layer, with what the enumeration added to its tables while
/// making it.
pub(crate) struct Made {
    pub layer: Arc<Layer>,
    pub placements: Vec<Arc<Placement>>,
    /// Per new spread: the levels it may leave from.
    pub spread_levels: Vec<u64>,
}

/// What the passes found.
pub(crate) struct Followed {
    pub reach: Reach,
    pub alpha: Vec<Vec<W>>,
    pub alpha_all: Option<Vec<Vec<W>>>,
    pub core: Vec<Masses>,
}

/// The passes' state between layers.
pub(crate) struct Follow<'a> {
    res: &'a Resolver,
    /// dNetHack's bones rules: with them only are core masses summed.
    other_end: Option<Arc<CoreFacts<'a>>>,
    future: Arc<FutureMasks>,
    evidence: bool,
    stop: Stop,
    /// Held until the passes are done (the enumeration holds them too).
    layers: Vec<Arc<Layer>>,
    placements: Vec<Arc<Placement>>,
    spread_levels: Vec<u64>,
    reach: Vec<(Vec<u32>, Vec<u64>)>,
    alpha: Vec<Vec<W>>,
    alpha_all: Vec<Vec<W>>,
    mass: Vec<Masses>,
}

impl<'a> Follow<'a> {
    pub fn new(
        res: &'a Resolver,
        other_end: Option<Arc<CoreFacts<'a>>>,
        future: Arc<FutureMasks>,
        evidence: bool,
        stop: Stop,
    ) -> Self {
        Follow {
            res,
            other_end,
            future,
            evidence,
            stop,
            layers: Vec::new(),
            placements: Vec::new(),
            spread_levels: Vec::new(),
            reach: Vec::new(),
            alpha: Vec::new(),
            alpha_all: Vec::new(),
            mass: Vec::new(),
        }
    }

    fn layer(&self, i: usize) -> &Layer {
        &self.layers[i]
    }

    /// Takes the next layer (the enumeration's last has no edges).
    pub fn push(&mut self, made: Made) {
        self.placements.extend(made.placements);
        self.spread_levels.extend(made.spread_levels);
        let k = self.layers.len();
        let reach = self.reach_of(&made.layer, k);
        self.reach.push(reach);
        self.layers.push(made.layer);
        self.alpha.push(self.alpha_of(k, false));
        if self.evidence {
            self.alpha_all.push(self.alpha_of(k, true));
        }
        // Once stopped, the masses stay short, and are dropped.
        if self.other_end.is_some() && !self.stop.is_set() && self.mass.len() == k {
            if k == 0 {
                self.mass.push(self.layer_mass(0));
            } else {
                self.core_step(k - 1);
            }
        }
    }

    /// The values, once the last layer is in.
    pub fn finish(mut self) -> Followed {
        let n = self.mass.len();
        if n >= 2 && !self.stop.is_set() {
            self.mass[n - 2] = self.keep_read(n - 2, &self.mass[n - 2]);
        }
        Followed {
            reach: Reach { layers: self.reach },
            alpha: self.alpha,
            alpha_all: self.evidence.then_some(self.alpha_all),
            core: self.mass,
        }
    }

    /// Per state, per live dungeon: the levels a branch loaded from layer
    /// `i` on may land on.
    fn reach_of(&self, layer: &Layer, i: usize) -> (Vec<u32>, Vec<u64>) {
        let mut starts = Vec::with_capacity(layer.states.len() + 1);
        let mut masks = Vec::with_capacity(layer.states.iter().map(|s| s.live.len()).sum());
        for s in &layer.states {
            starts.push(masks.len() as u32);
            masks.extend(s.live.iter().map(|l| {
                self.future
                    .mask(self.res, l, i, &s.slots, || n_slots(self.res, &s.loaded))
            }));
        }
        starts.push(masks.len() as u32);
        (starts, masks)
    }

    /// The chance of reaching each state of layer `k`, along the edges that
    /// meet the evidence (or along `all` of them).
    fn alpha_of(&self, k: usize, all: bool) -> Vec<W> {
        let mut next = vec![W::ZERO; self.layer(k).states.len()];
        if k == 0 {
            if let Some(a) = next.first_mut() {
                *a = W::ONE;
            }
            return next;
        }
        let cur = if all {
            &self.alpha_all[k - 1]
        } else {
            &self.alpha[k - 1]
        };
        for e in self.layer(k - 1).edges.iter().filter(|e| all || e.ok) {
            if let To::State(t) = e.to {
                next[t as usize] += cur[e.from as usize] * e.p;
            }
        }
        next
    }

    /// Per state of layer `i`, per live dungeon: the levels a later branch
    /// may land on, their masses still to be summed.
    fn layer_mass(&self, i: usize) -> Masses {
        let layer = self.layer(i);
        let (starts, masks) = &self.reach[i];
        let masks_of = |si: usize, s: &State| {
            let at = &masks[starts[si] as usize..starts[si + 1] as usize];
            &at[..s.live.len()]
        };
        let mut m = Masses::with_states(layer.states.len());
        let (mut lives, mut vals) = (0, 0);
        for (si, s) in layer.states.iter().enumerate() {
            lives += s.live.len();
            vals += masks_of(si, s)
                .iter()
                .map(|mask| (mask & LEVEL_BITS).count_ones() as usize)
                .sum::<usize>();
        }
        m.reserve(lives, vals);
        for (si, s) in layer.states.iter().enumerate() {
            for mask in masks_of(si, s) {
                m.add_live(mask & LEVEL_BITS);
            }
            m.end_state(0.0);
        }
        m
    }

    /// [`Enumeration::core`](super::engine::Enumeration::core), forward from layer `i` to the next: a dungeon's levels
    /// get their chance when it is created, and carry it along every later
    /// edge. Once a layer's successor is done, only the levels its own
    /// record's branches leave from are kept ([`Enumeration::core_at`](super::engine::Enumeration::core_at) reads no
    /// other).
    fn core_step(&mut self, i: usize) {
        // Layer `i - 1`'s masses have been read: trimmed before layer
        // `i + 1`'s are made, so that two layers are whole at a time.
        if i > 0 {
            let kept = self.keep_read(i - 1, &self.mass[i - 1]);
            self.mass[i - 1] = kept;
        }
        let mut nxt = self.layer_mass(i + 1);
        let cur = &self.mass[i];
        let (layer, to_layer) = (self.layer(i), self.layer(i + 1));
        let alpha = &self.alpha[i];
        // A state's masses are summed with their bounds over the edges
        // into it, then stored.
        let edges = &layer.edges;
        let mut order: Vec<(u32, u32)> = edges
            .iter()
            .enumerate()
            .filter_map(|(k, e)| match e.to {
                To::State(t) if e.ok => Some((t, k as u32)),
                _ => None,
            })
            .collect();
        order.sort_unstable();
        let mut sums: Vec<W> = Vec::new();
        // By (outcome, level): the layer's edges share a few outcomes.
        let mut cores: FxHashMap<(u32, i32), W> = FxHashMap::default();
        for group in order.chunk_by(|a, b| a.0 == b.0) {
            let t = group[0].0 as usize;
            let to_state = &to_layer.states[t];
            let (first, end) = nxt.values_of(t);
            sums.clear();
            sums.resize(end - first, W::ZERO);
            for &(_, ek) in group {
                let e = &edges[ek as usize];
                let f = e.from as usize;
                let from = &layer.states[f];
                for (lj, live) in to_state.live.iter().enumerate() {
                    let (mut levels, at) = nxt.lives[nxt.starts[t] as usize + lj];
                    let out = &mut sums[at as usize - first..];
                    let mut k = 0;
                    if usize::from(live.record) == i {
                        let Some(info) = layer.info(e) else {
                            continue;
                        };
                        let w = alpha[f] * e.p;
                        while levels != 0 {
                            let l = levels.trailing_zeros() as i32;
                            levels &= levels - 1;
                            let core = *cores.entry((e.info, l)).or_insert_with(|| {
                                core_chance(self.other_end.as_deref(), &self.placements, i, info, l)
                            });
                            out[k] += w * core;
                            k += 1;
                        }
                    } else {
                        let Some(li) = from.live.iter().position(|x| x.record == live.record)
                        else {
                            continue;
                        };
                        let Some((fmask, fmass, ferr)) = cur.at(f, li) else {
                            continue;
                        };
                        let mut from_rank = Ranks::new(fmask, levels);
                        while levels != 0 {
                            let l = levels.trailing_zeros();
                            levels &= levels - 1;
                            if let Some(kf) = from_rank.of(l) {
                                let x = W {
                                    v: fmass[kf],
                                    e: ferr,
                                };
                                out[k] += x * e.p;
                            }
                            k += 1;
                        }
                    }
                }
            }
            for (v, w) in nxt.vals[first..end].iter_mut().zip(&sums) {
                *v = w.v;
            }
            nxt.err[t] = largest_bound(&sums);
        }
        self.mass.push(nxt);
    }

    /// Layer `i`'s masses `mass` but those of the levels its edges'
    /// branches leave from, where the statistics judge the parent level
    /// (`exact::present`: a plain other end, not floating).
    fn keep_read(&self, i: usize, mass: &Masses) -> Masses {
        let layer = self.layer(i);
        // Per state, per live dungeon (where its reach masks are): the
        // levels the edges' branches leave it from. A branch's parent is
        // live in the state it leaves.
        let starts = &self.reach[i].0;
        let mut read = vec![0u64; starts.last().map_or(0, |&n| n as usize)];
        for e in &layer.edges {
            let Some(b) = layer.info(e).and_then(|info| info.branch) else {
                continue;
            };
            if b.floated || b.other != END_PLAIN {
                continue;
            }
            let levels = match b.spread {
                Some(id) => self.spread_levels[id as usize],
                None => bit(b.level),
            };
            let from = e.from as usize;
            let live = &layer.states[from].live;
            if let Some(li) = live.iter().position(|l| u32::from(l.record) == b.parent) {
                read[starts[from] as usize + li] |= levels;
            }
        }
        let keeps_of = |si: usize, s: &State, keeps: &mut Vec<u64>| {
            keeps.clear();
            let read = &read[starts[si] as usize..];
            keeps.extend(s.live.iter().enumerate().map(|(li, _)| {
                let m = mass.at(si, li).map_or(0, |(m, _, _)| m);
                read[li] & m
            }));
            // A state none of whose levels is read keeps nothing.
            keeps.iter().any(|&k| k != 0)
        };
        // Held to the end: made to measure, so that no buffer outgrown is
        // left behind in the heap.
        let mut kept = Masses::with_states(layer.states.len());
        let mut keeps: Vec<u64> = Vec::new();
        let (mut lives, mut vals) = (0, 0);
        for (si, s) in layer.states.iter().enumerate() {
            if keeps_of(si, s, &mut keeps) {
                lives += keeps.len();
                vals += keeps.iter().map(|k| k.count_ones() as usize).sum::<usize>();
            }
        }
        kept.reserve(lives, vals);
        for (si, s) in layer.states.iter().enumerate() {
            if keeps_of(si, s, &mut keeps) {
                for (li, &keep) in keeps.iter().enumerate() {
                    kept.add_live(keep);
                    let Some((m, vals, _)) = mass.at(si, li) else {
                        continue;
                    };
                    let mut levels = keep;
                    let mut k = kept.vals.len() - keep.count_ones() as usize;
                    while levels != 0 {
                        let l = levels.trailing_zeros();
                        levels &= levels - 1;
                        kept.vals[k] = vals[(m & ((1u64 << l) - 1)).count_ones() as usize];
                        k += 1;
                    }
                }
            }
            kept.end_state(mass.err.get(si).copied().unwrap_or(0.0));
        }
        kept
    }
}

/// One layer's core masses: per state, per live dungeon, a mask of levels
/// and a value for each of them, in increasing order, with one bound of
/// the errors of a state's values (as the backward pass's values have,
/// `engine::back::Back`). Flat: the largest files keep hundreds of
/// thousands of states' masses, a few values each, which two allocations
/// a state would outweigh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Masses {
    /// Per state: its first live dungeon in `lives`; then their end.
    starts: Vec<u32>,
    /// Per live dungeon of each state: its levels, and where their values
    /// start in `vals`.
    lives: Vec<(u64, u32)>,
    vals: Vec<f64>,
    /// Per state.
    err: Vec<f64>,
}

impl Masses {
    fn with_states(n: usize) -> Masses {
        let mut starts = Vec::with_capacity(n + 1);
        starts.push(0);
        Masses {
            starts,
            err: Vec::with_capacity(n),
            ..Masses::default()
        }
    }

    /// A live dungeon of the state being made, its values zero.
    fn add_live(&mut self, levels: u64) {
        self.lives.push((levels, self.vals.len() as u32));
        self.vals
            .resize(self.vals.len() + levels.count_ones() as usize, 0.0);
    }

    fn end_state(&mut self, err: f64) {
        self.starts.push(self.lives.len() as u32);
        self.err.push(err);
    }

    fn reserve(&mut self, lives: usize, vals: usize) {
        self.lives.reserve_exact(lives);
        self.vals.reserve_exact(vals);
    }

    /// Where state `si`'s values are in `vals`.
    fn values_of(&self, si: usize) -> (usize, usize) {
        let (a, b) = (self.starts[si] as usize, self.starts[si + 1] as usize);
        let at = |k: usize| self.lives.get(k).map_or(self.vals.len(), |l| l.1 as usize);
        (at(a), at(b))
    }

    /// Live dungeon `li` of state `si`: its levels, their values and the
    /// bound of their errors.
    pub fn at(&self, si: usize, li: usize) -> Option<(u64, &[f64], f64)> {
        let (a, b) = (
            *self.starts.get(si)? as usize,
            *self.starts.get(si + 1)? as usize,
        );
        let &(m, at) = self.lives[a..b].get(li)?;
        let at = at as usize;
        let vals = self.vals.get(at..at + m.count_ones() as usize)?;
        Some((m, vals, self.err[si]))
    }
}

/// Where the finished layers go: to the passes on a second thread, or,
/// when none can start, to the same passes on this one as they come.
pub(crate) enum Sink<'a, 's> {
    Thread(
        mpsc::Sender<Made>,
        thread::ScopedJoinHandle<'s, Option<Followed>>,
    ),
    Here(Box<Follow<'a>>),
}

impl<'a: 's, 's> Sink<'a, 's> {
    /// Starts the passes on a thread of `scope`; `follow` stays here should
    /// the thread not start, or this one be the second core's already
    /// ([`alone`]).
    pub fn start(scope: &'s thread::Scope<'s, '_>, follow: Follow<'a>) -> Sink<'a, 's> {
        if is_alone() {
            return Sink::Here(Box::new(follow));
        }
        let (job_tx, job_rx) = mpsc::sync_channel::<Follow<'a>>(1);
        let (tx, rx) = mpsc::channel::<Made>();
        let started = thread::Builder::new()
            .name("dgnkit-stats-follow".into())
            .spawn_scoped(scope, move || {
                // This thread is the second core's: the passes' own halves
                // run here, one after the other.
                alone();
                let mut follow = job_rx.recv().ok()?;
                for made in rx {
                    follow.push(made);
                }
                Some(follow.finish())
            });
        match started {
            Ok(handle) => match job_tx.send(follow) {
                Ok(()) => Sink::Thread(tx, handle),
                Err(mpsc::SendError(follow)) => Sink::Here(Box::new(follow)),
            },
            Err(_) => Sink::Here(Box::new(follow)),
        }
    }
}

impl Sink<'_, '_> {
    pub fn send(&mut self, made: Made) {
        match self {
            // A thread that stopped has panicked, which its join reports.
            Sink::Thread(tx, _) => {
                let _ = tx.send(made);
            }
            Sink::Here(follow) => follow.push(made),
        }
    }

    /// The values: this thread's, or the other's once it has them (none
    /// only should it have lost its job before starting).
    pub fn finish(self) -> Option<Followed> {
        match self {
            Sink::Here(follow) => Some(follow.finish()),
            Sink::Thread(tx, handle) => {
                drop(tx);
                // A panic on the other thread is one of this crate's bugs,
                // which the caller's `catch_unwind` reports as for one thread.
                handle
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p))
            }
        }
    }
}
