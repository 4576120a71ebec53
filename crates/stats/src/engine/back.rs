//! The backward pass: per state, the chance that the rest of the
//! resolution succeeds and, per level a later branch may land on, what
//! ends there. Invariant: a layer's values read only the layer after it,
//! and only levels in a state's reach masks are stored.

use super::layer::{Edge, FailKey, Layer, To};
use super::spread::Spread;
use super::state::State;
use crate::acc::{Ends, ENDS};
use crate::halves::{self, halves_by};
use crate::place::LEVELS;
use crate::runs::RunDist;
use crate::weight::{largest_bound, W, W4};
use crate::Stop;

/// One layer's backward values while the backward pass sums them and the
/// layer before reads them: per state, in flat vectors (a state's own
/// allocations would cost the pass much of its time on the largest
/// files).
#[derive(Debug, Default)]
pub(super) struct Back {
    /// Per state: the chance that the rest of the resolution succeeds.
    succ: Vec<W>,
    /// Per state, where its masks start in `reach` (and one more entry):
    /// per live dungeon (as in `State::live`), the levels a later branch
    /// may land on; on the others none does.
    reach_at: Vec<u32>,
    reach: Vec<u64>,
    /// Per state, where its values start in `ends` (and one more entry):
    /// per live dungeon, per level of its `reach` in increasing order, the
    /// chance that the rest succeeds and no later branch ends there
    /// (`[0]`), or the first later branch ending there brings other-end
    /// class `c` (`[1 + c]`). In a deferred run's states after its start,
    /// the run's levels are left out of `reach` (the state forgot the run's
    /// earlier branches): the start's values, which earlier layers read,
    /// are computed from the whole run.
    ends_at: Vec<u32>,
    ends: Vec<[f64; 1 + ENDS]>,
    /// Per state: the values only, and one bound of the error of each of
    /// a state's (these are the largest values the engine holds, two
    /// layers of every live dungeon's levels at once, and a bound each
    /// would double them).
    err: Vec<f64>,
    /// Per state, in a deferred run: per branch of the run, the chance that
    /// the rest succeeds with that branch's entry level bringing other-end
    /// class `c` (for the branches not placed yet); empty elsewhere.
    run: Vec<Vec<[W; ENDS]>>,
}

impl Back {
    /// The values of a layer's states: their masks (as [`Reach`] holds
    /// them), and no chances yet.
    fn new(reach_at: Vec<u32>, reach: Vec<u64>) -> Back {
        let states = reach_at.len().saturating_sub(1);
        let mut ends_at = Vec::with_capacity(states + 1);
        ends_at.push(0u32);
        for t in 0..states {
            let masks = &reach[reach_at[t] as usize..reach_at[t + 1] as usize];
            let n: u32 = masks.iter().map(|m| m.count_ones()).sum();
            ends_at.push(ends_at[t] + n);
        }
        Back {
            succ: vec![W::ZERO; states],
            ends: vec![[0.0; 1 + ENDS]; ends_at[states] as usize],
            err: vec![0.0; states],
            run: vec![Vec::new(); states],
            reach_at,
            reach,
            ends_at,
        }
    }

    /// State `t`'s masks.
    fn reach(&self, t: usize) -> &[u64] {
        &self.reach[self.reach_at[t] as usize..self.reach_at[t + 1] as usize]
    }

    /// State `t`'s live dungeon `li`'s levels a later branch may land on,
    /// the values of each of them in increasing order (as
    /// [`BackAt::ends_at`] gives them), and the bound of their errors;
    /// `at`: where the dungeon's values start among the state's.
    fn ends_of(&self, t: usize, li: usize, at: usize) -> (u64, &[[f64; 1 + ENDS]], f64) {
        let m = self.reach(t).get(li).copied().unwrap_or(0);
        if m == 0 {
            return (0, &[], 0.0);
        }
        let from = self.ends_at[t] as usize + at;
        (
            m,
            &self.ends[from..from + m.count_ones() as usize],
            self.err[t],
        )
    }

    /// The same, counting where the dungeon's values start.
    fn ends_of_dungeon(&self, t: usize, li: usize) -> (u64, &[[f64; 1 + ENDS]], f64) {
        self.ends_of(t, li, values_before(self.reach(t), li))
    }

    /// The whole layer's values, to sum into ([`halves_by()`] splits them).
    fn part(&mut self) -> BackPart<'_> {
        BackPart {
            base: 0,
            reach_at: &self.reach_at,
            reach: &self.reach,
            ends_at: &self.ends_at,
            succ: &mut self.succ,
            ends: &mut self.ends,
            err: &mut self.err,
            run: &mut self.run,
        }
    }
}

/// Where live dungeon `li`'s values start among a state's, by its masks.
pub(super) fn values_before(masks: &[u64], li: usize) -> usize {
    masks.iter().take(li).map(|m| m.count_ones() as usize).sum()
}

/// Some states' values of a [`Back`], to sum into on one thread.
pub(super) struct BackPart<'b> {
    /// The first state it holds.
    base: usize,
    reach_at: &'b [u32],
    reach: &'b [u64],
    ends_at: &'b [u32],
    succ: &'b mut [W],
    /// From the first state's values on.
    ends: &'b mut [[f64; 1 + ENDS]],
    err: &'b mut [f64],
    run: &'b mut [Vec<[W; ENDS]>],
}

impl<'b> BackPart<'b> {
    /// State `t`'s (a state of the part) masks, borrowed from the layer
    /// rather than the part.
    fn masks(&self, t: usize) -> &'b [u64] {
        let reach: &'b [u64] = self.reach;
        &reach[self.reach_at[t] as usize..self.reach_at[t + 1] as usize]
    }

    /// State `t`'s (a state of the part) masks and values.
    fn state(&mut self, t: usize) -> (&[u64], &mut [[f64; 1 + ENDS]]) {
        let from = (self.ends_at[t] - self.ends_at[self.base]) as usize;
        let to = (self.ends_at[t + 1] - self.ends_at[self.base]) as usize;
        (
            &self.reach[self.reach_at[t] as usize..self.reach_at[t + 1] as usize],
            &mut self.ends[from..to],
        )
    }
}

impl<'b> halves::Parts for BackPart<'b> {
    fn len(&self) -> usize {
        self.succ.len()
    }

    fn split(self, at: usize) -> (Self, Self) {
        let cut = (self.ends_at[self.base + at] - self.ends_at[self.base]) as usize;
        let (succ_lo, succ_hi) = self.succ.split_at_mut(at);
        let (ends_lo, ends_hi) = self.ends.split_at_mut(cut);
        let (err_lo, err_hi) = self.err.split_at_mut(at);
        let (run_lo, run_hi) = self.run.split_at_mut(at);
        (
            BackPart {
                base: self.base,
                reach_at: self.reach_at,
                reach: self.reach,
                ends_at: self.ends_at,
                succ: succ_lo,
                ends: ends_lo,
                err: err_lo,
                run: run_lo,
            },
            BackPart {
                base: self.base + at,
                reach_at: self.reach_at,
                reach: self.reach,
                ends_at: self.ends_at,
                succ: succ_hi,
                ends: ends_hi,
                err: err_hi,
                run: run_hi,
            },
        )
    }
}

/// Where each level of a mask is among its levels, for the levels of
/// `asked` taken in increasing order. When the mask holds none but those
/// (a state's reach only shrinks from a layer to the next), its levels
/// below the one asked have all been asked: their count is kept as they
/// come, rather than counted again each time (the processors of the x86_64
/// baseline count a word's bits in some fifteen instructions, and the
/// passes ask for every level of every edge).
pub(crate) struct Ranks {
    mask: u64,
    /// The mask's levels asked so far, when `counted`.
    passed: usize,
    counted: bool,
}

impl Ranks {
    pub(crate) fn new(mask: u64, asked: u64) -> Ranks {
        Ranks {
            mask,
            passed: 0,
            counted: mask & !asked == 0,
        }
    }

    /// The place of level `l` (`0..64`, the next level of `asked`) among
    /// the mask's levels, if it is one of them.
    #[inline]
    pub(crate) fn of(&mut self, l: u32) -> Option<usize> {
        if self.mask & (1u64 << l) == 0 {
            return None;
        }
        if self.counted {
            self.passed += 1;
            Some(self.passed - 1)
        } else {
            Some((self.mask & ((1u64 << l) - 1)).count_ones() as usize)
        }
    }
}

/// Level `l`'s values among a dungeon's ([`Back::ends_of`]), if it has any.
pub(super) fn level_in(
    (mask, ends, err): (u64, &[[f64; 1 + ENDS]], f64),
    l: usize,
) -> Option<[W; 1 + ENDS]> {
    (l < LEVELS && mask & (1u64 << l) != 0)
        .then(|| ends[(mask & ((1u64 << l) - 1)).count_ones() as usize].map(|v| W { v, e: err }))
}

/// One layer's backward values once the layer before has read them: per
/// state, the chance that the rest succeeds and the values of the levels of
/// the dungeon its layer's record created (the statistics read no other).
/// Flat, as the core masses are ([`crate::follow::Masses`]).
#[derive(Debug, Default)]
pub struct BackLayer {
    succ: Vec<W>,
    /// Per state: the live dungeon whose values are kept ([`NONE_KEPT`]:
    /// none), its levels, where their values start in `ends`, and the
    /// bound of their errors.
    own: Vec<u32>,
    mask: Vec<u64>,
    at: Vec<u32>,
    err: Vec<f64>,
    ends: Vec<[f64; 1 + ENDS]>,
}

/// [`BackLayer::own`] of a state that keeps no values.
pub(super) const NONE_KEPT: u32 = u32::MAX;

/// A state's values in a [`BackLayer`].
#[derive(Clone, Copy, Debug)]
pub struct BackAt<'b> {
    /// Chance that the rest of the resolution succeeds.
    pub succ: W,
    own: Option<(usize, u64, &'b [[f64; 1 + ENDS]], f64)>,
}

impl BackLayer {
    /// The values of `vals`, for the states of `layer`, that the statistics
    /// read: those of the dungeon record `record` created.
    fn kept(layer: &Layer, record: usize, mut vals: Back) -> BackLayer {
        let n = layer.states.len();
        let mut out = BackLayer {
            succ: std::mem::take(&mut vals.succ),
            own: Vec::with_capacity(n),
            mask: Vec::with_capacity(n),
            at: Vec::with_capacity(n),
            err: Vec::with_capacity(n),
            ends: Vec::new(),
        };
        let kept_of = |(t, s): (usize, &State)| {
            let own = s.live.iter().position(|l| usize::from(l.record) == record);
            own.map(|li| (li, vals.ends_of_dungeon(t, li)))
                .filter(|(_, (m, _, _))| *m != 0)
        };
        // To measure: the values of the layer after are held meanwhile.
        out.ends.reserve_exact(
            layer
                .states
                .iter()
                .enumerate()
                .filter_map(kept_of)
                .map(|(_, (_, ends, _))| ends.len())
                .sum(),
        );
        for (t, s) in layer.states.iter().enumerate() {
            match kept_of((t, s)) {
                Some((li, (m, ends, err))) => {
                    out.own.push(li as u32);
                    out.mask.push(m);
                    out.at.push(out.ends.len() as u32);
                    out.err.push(err);
                    out.ends.extend_from_slice(ends);
                }
                None => {
                    out.own.push(NONE_KEPT);
                    out.mask.push(0);
                    out.at.push(out.ends.len() as u32);
                    out.err.push(0.0);
                }
            }
        }
        out
    }

    /// State `t`'s values (none, should the pass have stopped before it).
    pub fn at(&self, t: usize) -> BackAt<'_> {
        let succ = self.succ.get(t).copied().unwrap_or(W::ZERO);
        let own = match self.own.get(t) {
            Some(&li) if li != NONE_KEPT => {
                let (m, at) = (self.mask[t], self.at[t] as usize);
                self.ends
                    .get(at..at + m.count_ones() as usize)
                    .map(|ends| (li as usize, m, ends, self.err[t]))
            }
            _ => None,
        };
        BackAt { succ, own }
    }
}

impl BackAt<'_> {
    /// Live dungeon `li`'s levels a later branch may land on, the values of
    /// each of them in increasing order (as [`BackAt::ends_at`] gives them),
    /// and the bound of their errors.
    pub(crate) fn ends_of(&self, li: usize) -> (u64, &[[f64; 1 + ENDS]], f64) {
        match self.own {
            Some((own, m, ends, err)) if own == li => (m, ends, err),
            _ => (0, &[], 0.0),
        }
    }

    /// The values of level `l` of live dungeon `li`.
    pub fn ends_at(&self, li: usize, l: usize) -> Ends {
        match level_in(self.ends_of(li), l) {
            Some(v) => Ends {
                none: v[0],
                branch: [v[1], v[2], v[3]],
            },
            None => Ends {
                none: self.succ,
                branch: [W::ZERO; ENDS],
            },
        }
    }
}

/// Per layer, state and live dungeon: the levels a branch loaded from that
/// layer on may land on ([`super::Engine::future_mask`]), one vector a layer.
pub(crate) struct Reach {
    /// Per layer: where each state's masks start, and the masks.
    pub(crate) layers: Vec<(Vec<u32>, Vec<u64>)>,
}

/// The branch end an edge adds to its parent that counts for bones (a
/// deferred run's are judged at the run's start, [`DeferredRuns`]).
pub(super) fn added_end(layer: &Layer, e: &Edge, runs: &DeferredRuns<'_>) -> Option<(u32, i32)> {
    let b = layer.info(e)?.branch?;
    let member = runs.of(layer, e).is_some_and(|sp| sp.member);
    (!b.floated && !member).then_some((b.parent, b.level))
}

/// The deferred runs of side branches, for the backward pass: their
/// branches' spreads and joint chances.
pub(super) struct DeferredRuns<'r> {
    pub(super) spreads: &'r [Spread],
    pub(super) dists: &'r [RunDist],
}

impl DeferredRuns<'_> {
    /// The spread of an edge's branch.
    fn of(&self, layer: &Layer, e: &Edge) -> Option<&Spread> {
        let b = layer.info(e)?.branch?;
        Some(&self.spreads[b.spread? as usize])
    }

    /// The backward values of the levels a run from state `b` may take,
    /// from the chances that each of its branches is the first to end on a
    /// level (no later branch lands there: [`super::Engine::deferred_spread`]).
    /// `run`: the start's chances per branch of the run ([`Back::run`]);
    /// `masks`, `ends` and `err`: the start's, which the run's levels of
    /// live dungeon `li` are written into.
    fn judge(
        &self,
        (run, succ): (&[[W; ENDS]], W),
        masks: &[u64],
        ends: &mut [[f64; 1 + ENDS]],
        err: &mut f64,
        li: usize,
        dist: &RunDist,
    ) {
        let mut first = [[W::ZERO; ENDS + 1]; LEVELS];
        for (i, f) in dist.first.iter().enumerate() {
            let g = run.get(i).copied().unwrap_or([W::ZERO; ENDS]);
            for &(l, p) in f {
                let Some(x) = usize::try_from(l).ok().and_then(|l| first.get_mut(l)) else {
                    continue;
                };
                x[0] += p;
                for c in 0..ENDS {
                    x[1 + c] += p * g[c];
                }
            }
        }
        let mut levels = masks.get(li).copied().unwrap_or(0);
        let mut k = values_before(masks, li);
        while levels != 0 {
            let l = levels.trailing_zeros() as usize;
            levels &= levels - 1;
            if dist.span & (1u64 << l) != 0 {
                let x = first[l];
                let none = (W::ONE - x[0]).snapped() * succ;
                let v = [none, x[1], x[2], x[3]];
                ends[k] = v.map(|w| w.v);
                *err = err.max(largest_bound(&v));
            }
            k += 1;
        }
    }
}

/// Levels `1..LEVELS`, the ones [`Back`] describes.
pub(crate) const LEVEL_BITS: u64 = (u64::MAX >> (64 - LEVELS)) & !1;

/// `reach` (layer `i`, state `s`, live dungeon `li`): the levels a branch
/// loaded from layer `i` on may land on in live dungeon `li` of state `s`
/// ([`super::Engine::future_mask`]); each layer's become its values' masks. On any
/// other level no later branch ends: there the values are the chance of
/// success and nothing else, so only reached levels are stored
/// ([`BackAt::ends_at`]). Masks only shrink from a layer to the next, which
/// makes that hold by induction from the last layer, where nothing is
/// live. `classes(record, edge)`: the other-end classes an edge's entry
/// level brings to the parent level its branch ends on.
pub(super) fn backward(
    layers: &[Layer],
    mut reach: Reach,
    terminal_fail: &[Option<FailKey>],
    classes: &(dyn Fn(usize, &Edge) -> [W; ENDS] + Sync),
    runs: &DeferredRuns<'_>,
    stop: &Stop,
) -> Vec<BackLayer> {
    let last = layers.len() - 1;
    let mut out: Vec<BackLayer> = layers.iter().map(|_| BackLayer::default()).collect();
    // Two layers' values are whole at a time: the one being summed, and
    // the one after it, which it reads.
    let mut after = Back::new(vec![0; layers[last].states.len() + 1], Vec::new());
    for (si, succ) in after.succ.iter_mut().enumerate() {
        if terminal_fail[si].is_none() {
            *succ = W::ONE;
        }
    }
    for i in (0..last).rev() {
        if stop.is_set() {
            break;
        }
        let layer = &layers[i];
        let mut here = layer_values(layer, std::mem::take(&mut reach.layers[i]), runs);
        let summing = Summing {
            layer,
            next: &layers[i + 1],
            i,
            after: &after,
            classes,
            runs,
        };
        // A state's values are summed with their bounds, over its edges,
        // then stored (`Back::ends`).
        let mut order: Vec<u32> = (0..layer.edges.len() as u32)
            .filter(|&k| layer.edges[k as usize].ok)
            .collect();
        order.sort_by_key(|&k| layer.edges[k as usize].from);
        let from_of = |&k: &u32| layer.edges[k as usize].from as usize;
        let part = here.part();
        // An edge's work: its state's levels (`Summing::level_ends`).
        let ends_at = part.ends_at;
        let work = |k: &u32| {
            let t = from_of(k);
            1 + (ends_at[t + 1] - ends_at[t]) as usize
        };
        halves_by(&order, from_of, work, part, |part, mut cur, _| {
            let mut sums: Vec<W4> = Vec::new();
            for group in
                part.chunk_by(|&a, &b| layer.edges[a as usize].from == layer.edges[b as usize].from)
            {
                summing.state(group, &mut cur, &mut sums);
            }
        });
        // Layer `i + 1`'s values have been read: from now on only those of
        // the dungeon record `i` created are (by the statistics).
        out[i + 1] = BackLayer::kept(&layers[i + 1], i, std::mem::replace(&mut after, here));
    }
    if !stop.is_set() {
        out[0] = BackLayer::kept(&layers[0], usize::MAX, after);
    }
    out
}

/// A layer's values before they are summed: its masks (`reach`'s, which
/// become its values'), and no chances yet. In a deferred run after its
/// start, the run's levels have no values (see `Back::ends`): not kept.
fn layer_values(
    layer: &Layer,
    (starts, mut masks): (Vec<u32>, Vec<u64>),
    runs: &DeferredRuns<'_>,
) -> Back {
    let mut deferred = vec![None; layer.states.len()];
    for e in &layer.edges {
        if let Some(sp) = runs.of(layer, e).filter(|sp| sp.pos > 0) {
            deferred[e.from as usize] = Some((sp.owner, runs.dists[sp.dist as usize].span));
        }
    }
    for (si, s) in layer.states.iter().enumerate() {
        let state = starts[si] as usize..starts[si + 1] as usize;
        for (live, m) in s.live.iter().zip(&mut masks[state]) {
            *m &= LEVEL_BITS;
            match deferred[si] {
                Some((p, span)) if u32::from(live.record) == p => *m &= !span,
                _ => {}
            }
        }
    }
    Back::new(starts, masks)
}

/// What the sums of layer `i`'s values read: the layer, the one after it
/// and its values, the other-end classes and the deferred runs.
struct Summing<'s, 'r> {
    layer: &'s Layer,
    next: &'s Layer,
    i: usize,
    after: &'s Back,
    classes: &'s (dyn Fn(usize, &Edge) -> [W; ENDS] + Sync),
    runs: &'s DeferredRuns<'r>,
}

impl Summing<'_, '_> {
    /// The values of the state whose edges are `group`, summed into `cur`
    /// (`sums`: a buffer for their sums, kept from state to state).
    fn state(&self, group: &[u32], cur: &mut BackPart<'_>, sums: &mut Vec<W4>) {
        let layer = self.layer;
        let from = layer.edges[group[0] as usize].from as usize;
        let here = from - cur.base;
        // A deferred run that starts here: its dist and parent.
        let mut start = None;
        sums.clear();
        sums.resize(cur.state(from).1.len(), W4::ZERO);
        let masks = cur.masks(from);
        for &ek in group {
            let e = &layer.edges[ek as usize];
            let To::State(t) = e.to else { continue };
            let t = t as usize;
            let succ = self.after.succ[t];
            cur.succ[here] += e.p * succ;
            // A sub after the run's last member reads nothing of it.
            if let Some(sp) = self.runs.of(layer, e).filter(|sp| sp.member || sp.pos > 0) {
                let run = &mut cur.run[here];
                if run.is_empty() && sp.pos == 0 {
                    start = Some((sp.dist, sp.owner));
                }
                self.run_chances(e, t, sp, succ, run);
            }
            self.level_ends(e, from, t, succ, masks, sums);
        }
        let mut err = W4::largest_bound_of(sums);
        let (run, succ) = (std::mem::take(&mut cur.run[here]), cur.succ[here]);
        let (masks, ends) = cur.state(from);
        for (to, sum) in ends.iter_mut().zip(sums.iter()) {
            *to = sum.v;
        }
        // Where a deferred run starts, its levels' values are the run's,
        // now that its chances per branch are summed.
        if let Some((dist, parent)) = start {
            let live = &layer.states[from].live;
            if let Some(li) = live.iter().position(|l| u32::from(l.record) == parent) {
                let dist = &self.runs.dists[dist as usize];
                self.runs
                    .judge((&run, succ), masks, ends, &mut err, li, dist);
            }
        }
        cur.run[here] = run;
        cur.err[here] = err;
    }

    /// Adds edge `e` (to state `t` of the layer after, whose rest succeeds
    /// with chance `succ`) of a deferred run with spread `sp` to its
    /// state's chances per branch of the run (`run`, made on first use).
    #[inline]
    fn run_chances(&self, e: &Edge, t: usize, sp: &Spread, succ: W, run: &mut Vec<[W; ENDS]>) {
        let dist = &self.runs.dists[sp.dist as usize];
        let pos = usize::from(sp.pos);
        if run.is_empty() {
            *run = vec![[W::ZERO; ENDS]; dist.marg.len()];
        }
        // A member's entry brings its class to its level; a sub's state
        // passes the members after it on.
        let later_from = if sp.member {
            let c = (self.classes)(self.i, e);
            for (k, c) in c.iter().enumerate() {
                run[pos][k] += e.p * *c * succ;
            }
            pos + 1
        } else {
            pos
        };
        for (j, acc) in run.iter_mut().enumerate().skip(later_from) {
            let later = self.after.run[t].get(j).copied().unwrap_or([W::ZERO; ENDS]);
            for (a, g) in acc.iter_mut().zip(later) {
                *a += e.p * g;
            }
        }
    }

    /// Adds edge `e` from state `from` (masks `masks`) to state `t` of the
    /// layer after to the sums of each level of each live dungeon: what
    /// ends there, the branch the edge adds or what the state after says.
    #[inline]
    fn level_ends(&self, e: &Edge, from: usize, t: usize, succ: W, masks: &[u64], sums: &mut [W4]) {
        let s = &self.layer.states[from];
        let added = added_end(self.layer, e, self.runs);
        let to_live = &self.next.states[t].live;
        let to_reach = self.after.reach(t);
        // A level nothing ends on after this edge adds the same: the
        // chance that the rest succeeds.
        let only_succ = W4::product(e.p, [succ.v, 0.0, 0.0, 0.0], [succ.e, 0.0, 0.0, 0.0]);
        // Both states' live dungeons are in record order: the next state's
        // are walked once, with where their values start.
        let (mut p, mut p_at) = (0, 0);
        let mut k = 0;
        for (li, live) in s.live.iter().enumerate() {
            while p < to_live.len() && to_live[p].record < live.record {
                p_at += to_reach.get(p).map_or(0, |m| m.count_ones() as usize);
                p += 1;
            }
            // As `ends_at` reads them, a dungeon at a time.
            let (next_mask, next_ends, err) =
                if to_live.get(p).is_some_and(|l| l.record == live.record) {
                    self.after.ends_of(t, p, p_at)
                } else {
                    (0, &[][..], 0.0)
                };
            let mut levels = masks.get(li).copied().unwrap_or(0);
            let mut next_rank = Ranks::new(next_mask, levels);
            while levels != 0 {
                let l = levels.trailing_zeros();
                levels &= levels - 1;
                let at = next_rank.of(l);
                let adds = added == Some((u32::from(live.record), l as i32));
                // The values `W`s would hold: the class chances' own
                // bounds, the state after's one bound, or `succ`'s.
                if adds {
                    let c = (self.classes)(self.i, e);
                    let b = [W::ZERO, c[0] * succ, c[1] * succ, c[2] * succ];
                    sums[k].add_product(e.p, b.map(|w| w.v), b.map(|w| w.e));
                } else {
                    match at {
                        Some(at) => sums[k].add_product(e.p, next_ends[at], [err; 1 + ENDS]),
                        None => sums[k].add(&only_succ),
                    }
                }
                k += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Each level's place among a mask's, as its bits below count it.
        #[test]
        fn ranks_count_the_levels_below(mask in any::<u64>(), asked in any::<u64>(), within in any::<bool>()) {
            // Both ways: a mask of levels asked, or any.
            let mask = if within { mask & asked } else { mask };
            let mut ranks = Ranks::new(mask, asked);
            let mut levels = asked;
            while levels != 0 {
                let l = levels.trailing_zeros();
                levels &= levels - 1;
                let want = (mask & (1u64 << l) != 0)
                    .then(|| (mask & ((1u64 << l) - 1)).count_ones() as usize);
                prop_assert_eq!(ranks.of(l), want);
            }
        }
    }
}
