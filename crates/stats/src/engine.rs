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
//! and counts the run's branches placed ([`Live::pending`]); each branch
//! carries the chance of each of its levels given those ([`Spread`]), and
//! the backward pass judges the run's levels on the state before the run
//! from the joint chances of the whole run ([`RunDist`]). That is exact
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
//! every path ([`Run::alpha_all`]).

use super::acc::{Ends, ENDS, END_NO_BONES, END_PLAIN, END_QUEST};
use super::follow::{Follow, Followed, Made, Masses, Sink};
use super::fxhash::FxHashMap;
use super::halves::{self, each_of, halves};
use super::place::{self, Abort, PLevel, Placement, LEVELS};
use super::runs::{self, bit, probe, RunDist, RunPos};
use super::tail::Tails;
use super::weight::{largest_bound, W};
use super::{Budget, Stop, STOPPED};
use crate::bones::names::QUEST_DUNGEON;
use crate::bones::{no_bones_rule, BonesOptions, BranchRule, LevelFacts};
use crate::evidence::{Checks, Evidence, Facts};
use crate::loader::{BranchKind, DungeonChance, EntrySource, NonPositiveRn2, Resolver};
use crate::rng::RngKind;
use crate::script::flags;
use std::sync::{Arc, Mutex};

/// The enumeration needs more than the budget allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    pub what: String,
}

/// A dungeon that may still be a branch's parent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Live {
    pub record: u16,
    pub n: i32,
    /// As the loader computed it (before the `dummy` fix-up).
    pub depth_start: i32,
    /// As the layout reports it (after the fix-up).
    pub depth_final: i32,
    /// Levels that end a branch and that a later branch could land on.
    pub avoid: u64,
    /// Branches of a deferred run (see the module's notes) placed into this
    /// dungeon, whose levels `avoid` leaves out.
    pub pending: u8,
    /// A member of a deferred run: the [`Spread`] of the level it leaves
    /// its parent from. Its depths are those of the spread's first level;
    /// its subs' depths are spread with it.
    pub spread: Option<u32>,
}

/// Four words rather than a field at a time: every state a layer makes is
/// hashed, with its few live dungeons.
impl std::hash::Hash for Live {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(
            u64::from(self.record) | u64::from(self.pending) << 16 | u64::from(self.n as u32) << 32,
        );
        h.write_u64(u64::from(self.depth_start as u32) | u64::from(self.depth_final as u32) << 32);
        h.write_u64(self.avoid);
        h.write_u64(self.spread.map_or(u64::MAX, u64::from));
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Dungeon records that exist, in index order.
    pub loaded: Arc<[u16]>,
    pub live: Box<[Live]>,
    /// `(slot, level)` of slots later chains read; level -1: no level.
    pub slots: Arc<[(i32, i32)]>,
    /// Bit `f`: the first level named `Rules::floating_levels[f]` has been
    /// seen.
    pub knox_done: u8,
    /// A first floating level lies where no branch arrives: the loader fails
    /// after the last dungeon (unless something fails before).
    pub knox_bad: bool,
    pub dummy_done: bool,
    /// dNetHack's `alternate_history[]` (dNAO `dungeon.c:659-664`): its set
    /// slots in order (the game sets them one after another from slot 0).
    pub alts: Arc<[AltSlot]>,
}

/// One set slot of dNetHack's `alternate_history[]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AltSlot {
    /// The first dungeon record with the name the slot holds (names compared
    /// as `select_alternate` does, [`crate::loader`]'s `alt_key`).
    pub group: u16,
    /// Records of that name met so far.
    pub prev: i32,
    pub selected: bool,
}

/// Why a resolution fails (a loader error code) and where.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FailKey {
    pub code: &'static str,
    /// The dungeon record being loaded (none: after the last one).
    pub dungeon: Option<u32>,
    /// The level record whose range failed, when one did.
    pub level: Option<u32>,
}

/// The branch into a dungeon, as drawn.
#[derive(Clone, Copy, Debug)]
pub struct BranchInfo {
    pub parent: u32,
    pub level: i32,
    /// Depth of the parent's end in the final layout.
    pub depth: i32,
    /// Fort Ludios: the branch gets the floating marker, so its parent end
    /// is not a branch level.
    pub floated: bool,
    /// With dNetHack's bones rules: the parent is the Quest, so the entry
    /// level's other end brings rule 11 ([`END_QUEST`]); otherwise
    /// [`END_PLAIN`], and [`Run::core_at`] tells whether it brings rule 12.
    pub other: usize,
    /// A branch of a deferred run: its level is one of [`Run::spreads`]'
    /// entry's, each with its chance (then `level`, `depth` and the
    /// outcome's `depth_start` are the first of them).
    pub spread: Option<u32>,
}

/// The levels a branch of a deferred run may leave from, given the state.
#[derive(Clone, Debug)]
pub struct Spread {
    /// [`Engine::dists`] index and the branch's place in its run: a
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

/// Deferred runs' sequences of draws at most: their counts convert to
/// chances exactly (and cannot overflow).
const MAX_RUN_SEQUENCES: u64 = 1 << 53;

/// One deferred run's joint chances to compute ([`Engine::dist_job`]).
struct DistJob {
    /// [`Engine::dist_memo`]'s.
    key: (u32, u64, i32, u8),
    ranges: Vec<(i32, i32)>,
    sequences: u64,
    avoid: u64,
    floats: Vec<bool>,
}

impl DistJob {
    fn compute(&self, fields: &crate::loader::Fields) -> Option<RunDist> {
        runs::run_dist(
            &self.ranges,
            self.sequences,
            self.avoid,
            &self.floats,
            |v| fields.count(v),
        )
    }
}

/// A dungeon that exists in an outcome.
#[derive(Clone, Debug)]
pub struct Present {
    pub n: i32,
    /// After the `dummy` fix-up, as layouts report it.
    pub depth_start: i32,
    pub entry: i32,
    pub branch: Option<BranchInfo>,
    /// The placement ([`Run::placements`]), which also says which of the
    /// dungeon's level records exist ([`Run::patterns`]).
    pub placement: u32,
    pub class: u32,
    /// Chance of the outcome without the class (whose chance the class
    /// distribution carries).
    pub prefix: W,
}

#[derive(Clone, Debug)]
pub enum To {
    State(u32),
    /// Boxed: failures are rare, and every edge holds a `To`.
    Fail(Box<FailKey>),
}

#[derive(Clone, Debug)]
pub struct Edge {
    pub from: u32,
    pub to: To,
    pub p: W,
    /// The outcome in [`Layer::presents`]; [`NO_INFO`]: the dungeon does
    /// not exist (or the outcome fails).
    pub info: u32,
    /// The outcome meets the evidence ([`Engine::with_evidence`]; always,
    /// without one). The statistics follow only such edges; failures are
    /// counted over all of them.
    pub ok: bool,
}

/// [`Edge::info`] of an edge without an outcome.
pub const NO_INFO: u32 = u32::MAX;

#[derive(Clone, Default)]
pub struct Layer {
    pub states: Vec<State>,
    index: FxHashMap<Interned, u32>,
    /// Edges from this layer's states (to the next layer).
    pub edges: Vec<Edge>,
    /// The outcomes the edges have, each once: thousands of states share a
    /// few (every Gehennom of a size is the same), and an edge is a third
    /// the size with a number instead.
    pub presents: Vec<Present>,
}

/// A layer's outcomes as its edges are made.
#[derive(Default)]
struct Presents {
    list: Vec<Present>,
    ids: FxHashMap<PresentKey, u32>,
}

impl Presents {
    /// [`Edge::info`] for an outcome.
    fn id(&mut self, info: Option<Present>) -> u32 {
        let Some(info) = info else { return NO_INFO };
        let n = self.list.len() as u32;
        let id = *self.ids.entry(info.key()).or_insert(n);
        if id == n {
            self.list.push(info);
        }
        id
    }
}

/// [`Present`]'s fields, weights by their bits.
pub(crate) type PresentKey = (
    [i32; 3],
    Option<(u32, i32, i32, bool, usize, Option<u32>)>,
    [u32; 2],
    [u64; 2],
);

impl Present {
    /// Equal for equal outcomes (weights by their bits).
    pub(crate) fn key(&self) -> PresentKey {
        (
            [self.n, self.depth_start, self.entry],
            self.branch
                .map(|b| (b.parent, b.level, b.depth, b.floated, b.other, b.spread)),
            [self.placement, self.class],
            [self.prefix.v.to_bits(), self.prefix.e.to_bits()],
        )
    }
}

impl Layer {
    /// The outcome of an edge of this layer.
    pub fn info(&self, e: &Edge) -> Option<&Present> {
        self.presents.get(e.info as usize)
    }

    /// The state's number in the layer, new or not. States are held by the
    /// index alone until [`Layer::seal`] (hundreds of thousands of them in
    /// the largest files: one copy, not two).
    fn intern(&mut self, s: State) -> u32 {
        let n = self.index.len() as u32;
        *self.index.entry(Interned(s)).or_insert(n)
    }

    /// Moves the interned states into `states`, in number order.
    fn seal(&mut self) {
        let mut states: Vec<Option<State>> = vec![None; self.index.len()];
        for (Interned(s), i) in std::mem::take(&mut self.index) {
            states[i as usize] = Some(s);
        }
        // To measure: states are the most the engine holds, and a vector
        // grown by doubling leaves its old buffers as holes in the heap.
        self.states = Vec::with_capacity(states.len());
        self.states.extend(states.into_iter().flatten());
    }
}

/// A state in a layer's index. Its lists are made by [`shared`], one
/// allocation per distinct list, so equal lists are one address: hashed
/// and compared by that, not element by element (a layer's ten thousand
/// states each load twenty records).
#[derive(Clone)]
struct Interned(State);

/// A list made by [`shared`], by its address (an empty list may also be
/// `Arc::default()`'s).
fn list_id<T>(list: &Arc<[T]>) -> usize {
    if list.is_empty() {
        0
    } else {
        Arc::as_ptr(list) as *const T as usize
    }
}

impl std::hash::Hash for Interned {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let s = &self.0;
        list_id(&s.loaded).hash(h);
        s.live.hash(h);
        list_id(&s.slots).hash(h);
        (s.knox_done, s.knox_bad, s.dummy_done).hash(h);
        list_id(&s.alts).hash(h);
    }
}

impl PartialEq for Interned {
    fn eq(&self, other: &Interned) -> bool {
        let (a, b) = (&self.0, &other.0);
        list_id(&a.loaded) == list_id(&b.loaded)
            && a.live == b.live
            && list_id(&a.slots) == list_id(&b.slots)
            && (a.knox_done, a.knox_bad, a.dummy_done) == (b.knox_done, b.knox_bad, b.dummy_done)
            && list_id(&a.alts) == list_id(&b.alts)
    }
}

impl Eq for Interned {}

/// One allocation for each distinct list the states hold: most of them
/// load the same records and know the same slots (a tenth of the largest
/// files' memory, held once per state otherwise). Shared by the threads
/// that read the engine, hence the locks (taken as states are made, on one
/// thread).
#[derive(Default)]
struct Lists {
    loaded: Distinct<u16>,
    slots: Distinct<(i32, i32)>,
    alts: Distinct<AltSlot>,
    /// The last list of records extended, the record, and the list they
    /// make: a layer's states mostly load the same records, and each would
    /// otherwise build and look up the list.
    #[allow(clippy::type_complexity)]
    extended: Mutex<Option<(Arc<[u16]>, u16, Arc<[u16]>)>>,
}

impl Lists {
    /// `loaded` and then `rec`, as one shared list.
    fn loaded_with(&self, loaded: &Arc<[u16]>, rec: u16) -> Arc<[u16]> {
        let mut last = self.extended.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((from, r, list)) = last.as_ref() {
            if Arc::ptr_eq(from, loaded) && *r == rec {
                return list.clone();
            }
        }
        // Exactly: states are held by the hundred thousand.
        let mut v = Vec::with_capacity(loaded.len() + 1);
        v.extend_from_slice(loaded);
        v.push(rec);
        let list = shared(&self.loaded, v);
        *last = Some((loaded.clone(), rec, list.clone()));
        list
    }
}

/// The distinct lists of one kind made so far.
type Distinct<T> = Mutex<FxHashMap<Arc<[T]>, ()>>;

fn shared<T: Eq + std::hash::Hash>(lists: &Distinct<T>, v: Vec<T>) -> Arc<[T]> {
    let mut lists = lists.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((list, ())) = lists.get_key_value(v.as_slice()) {
        return list.clone();
    }
    let list: Arc<[T]> = v.into();
    lists.insert(list.clone(), ());
    list
}

/// One layer's backward values while the backward pass sums them and the
/// layer before reads them: per state, in flat vectors (a state's own
/// allocations cost a fifth of the pass on the largest files).
#[derive(Debug, Default)]
struct Back {
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

    /// The whole layer's values, to sum into ([`halves`] splits them).
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
fn values_before(masks: &[u64], li: usize) -> usize {
    masks.iter().take(li).map(|m| m.count_ones() as usize).sum()
}

/// Some states' values of a [`Back`], to sum into on one thread.
struct BackPart<'b> {
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

/// Level `l`'s values among a dungeon's ([`Back::ends_of`]), if it has any.
fn level_in((mask, ends, err): (u64, &[[f64; 1 + ENDS]], f64), l: usize) -> Option<[W; 1 + ENDS]> {
    (l < LEVELS && mask & (1u64 << l) != 0)
        .then(|| ends[(mask & ((1u64 << l) - 1)).count_ones() as usize].map(|v| W { v, e: err }))
}

/// One layer's backward values once the layer before has read them: per
/// state, the chance that the rest succeeds and the values of the levels of
/// the dungeon its layer's record created (the statistics read no other).
/// Flat, as the core masses are ([`Masses`]).
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
const NONE_KEPT: u32 = u32::MAX;

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

/// Everything the enumeration found.
pub struct Run {
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
    /// branch rules ([`Engine::core_chance`]). Which special level lies
    /// where, beyond the levels kept in the state, has no effect on later
    /// draws, so given the state it is independent of everything after.
    pub core: Vec<Masses>,
    /// [`BranchInfo::spread`]'s.
    pub spreads: Vec<Spread>,
}

impl Run {
    /// Which of the level records of an outcome's dungeon exist.
    pub fn pattern(&self, info: &Present) -> &[bool] {
        &self.patterns[info.placement as usize]
    }

    /// The chance that level `level` of dungeon record `record`, live in
    /// state `from` of layer `i`, is a no-bones level judged without branch
    /// rules, given that state (zero without dNetHack's bones rules).
    pub fn core_at(&self, i: usize, from: usize, record: u32, level: i32) -> W {
        let s = &self.layers[i].states[from];
        let Some(li) = s.live.iter().position(|l| u32::from(l.record) == record) else {
            return W::ZERO;
        };
        let Some((mask, mass, err)) = self.core.get(i).and_then(|m| m.at(from, li)) else {
            return W::ZERO;
        };
        let a = self.alpha[i][from];
        match usize::try_from(level).ok().filter(|&l| l < LEVELS) {
            Some(l) if mask & (1u64 << l) != 0 && a.v > 0.0 => {
                let v = mass[(mask & ((1u64 << l) - 1)).count_ones() as usize];
                (W { v, e: err } / a).snapped()
            }
            _ => W::ZERO,
        }
    }
}

/// What stays the same across the enumeration.
pub struct Engine<'a> {
    pub res: &'a Resolver,
    /// Wizard mode skips the dungeons' / levels' chance rolls.
    skip_dungeon_chance: bool,
    skip_level_chance: bool,
    budget: Budget,
    /// Per dungeon record: the last record a branch of it may lead to.
    live_until: Vec<i64>,
    /// Per stage `s`: slots that chains of stage `s` and later read.
    needed_slots: Vec<Slots>,
    /// Per stage `s`: whether a floating-level / `dummy` record comes at `s` or
    /// later (else the flags do not matter and are dropped).
    knox_later: Vec<bool>,
    dummy_later: Vec<bool>,
    /// Per stage `s`: whether a record with alternates comes at `s` or later
    /// (else the alternates history is dropped).
    alt_later: Vec<bool>,
    /// Per dungeon record: the first record whose name `select_alternate`
    /// takes for the same.
    alt_group: Vec<u16>,
    /// `select_alternate` sees wizard mode (the `chaos_quest` override).
    wizard: bool,
    /// What the game's `rn2` does with a negative count (a random part
    /// below -1), with the generator the statistics are for.
    neg_rn2: NonPositiveRn2,
    /// dNetHack's bones rules (a branch level judged by its other end),
    /// when the statistics follow them.
    other_end: Option<&'a BonesOptions>,
    /// Rule 10's locate-level record, kept in the class key
    /// ([`super::exact::madman_records`]).
    madman_locate: Option<u32>,
    /// Branch record -> the last dungeon record it may lead to (-1: none).
    branch_last: Arc<[i64]>,
    memo: FxHashMap<PlaceKey, u32>,
    /// Shared with the passes that follow the enumeration ([`Follow`]).
    placements: Vec<Arc<Placement>>,
    /// [`Run::patterns`].
    patterns: Vec<Vec<bool>>,
    placement_nodes: usize,
    /// Per dungeon record: its place in a run that may be deferred.
    runs: Vec<Option<RunPos>>,
    /// Per run, by its first record: its members, and its subs.
    run_members: FxHashMap<u32, Vec<u32>>,
    run_subs: FxHashMap<u32, Vec<u32>>,
    /// The evidence the statistics are conditional on, if any.
    checks: Option<Checks>,
    /// Joint chances of deferred runs, by (first record, taken levels in
    /// the run's span, parent size, floating levels seen before it).
    dists: Vec<RunDist>,
    dist_memo: FxHashMap<(u32, u64, i32, u8), u32>,
    /// [`Engine::run_dist`]'s answers by what it is asked (first record,
    /// the parent's whole taken levels, its size, floating levels seen):
    /// each member of a run asks again for every state, and working out
    /// `dist_memo`'s key takes a job's vectors.
    dist_asked: FxHashMap<(u32, u64, i32, u8), Option<u32>>,
    /// By (record, size, first slot, floating levels still to come).
    plans: FxHashMap<(u32, i32, i32, u8), Arc<LevelPlan>>,
    spreads: Vec<Spread>,
    /// By (dist, pos, the parent's two depth starts, step, entry).
    spread_memo: FxHashMap<(u32, u8, i32, i32, i32, i32), u32>,
    /// A sub's spread, by (its member's spread, the sub's branch level,
    /// step, entry, members placed).
    shift_memo: FxHashMap<(u32, i32, i32, i32, u8), u32>,
    stop: Stop,
    /// Per dungeon record: a placement found its levels' rolls unmixable
    /// ([`Engine::mixable`]).
    no_mix: Vec<bool>,
    /// The placements' tails ([`crate::tail`]), shared by all of them.
    tails: Tails,
    /// [`place::tail_start`] by record, size, first slot, kept levels and
    /// the external chains.
    #[allow(clippy::type_complexity)]
    tail_starts: FxHashMap<(u32, i32, i32, Arc<[bool]>, Vec<(i32, i32)>), usize>,
    lists: Lists,
    /// While [`Engine::prefetch_placements`] looks ahead: the placements
    /// asked for and not yet made.
    wanted: Option<Vec<PlaceKey>>,
}

/// A placement [`Engine::prefetch_placements`] has yet to make.
const NOT_YET: u32 = u32::MAX;

/// Layers of at most this many states have their placements searched
/// ahead ([`Engine::prefetch_placements`]).
const PREFETCH_UP_TO: usize = 16;

#[derive(Clone, PartialEq, Eq, Hash)]
struct PlaceKey {
    record: u32,
    /// First slot: chains are slot numbers, so the same dungeon placed
    /// after a dropped dungeon reads differently.
    start: i32,
    n: i32,
    pattern: Vec<bool>,
    keep: Arc<[bool]>,
    external: Vec<(i32, i32)>,
    /// Added to the base of the record before last (dNetHack's Quest
    /// locate level, [`Engine::locate_moves`]).
    adjust: i32,
    /// The levels the evidence allows each constrained level on
    /// ([`place::PLevel::filter`]), by local index.
    filters: Vec<(u16, u64)>,
    /// Per level: 100, or its chance roll mixed into the placement's tail
    /// ([`place::PLevel::chance`]).
    chances: Arc<[u8]>,
}

/// What a dungeon's levels ask of its placement, the same for every state
/// that loads the dungeon with the same size, first slot and floating
/// levels still to come: worked out once rather than for each of a
/// layer's ten thousand states.
struct LevelPlan {
    /// Per level record: its chances of existing and not.
    probs: Vec<(W, W)>,
    /// The levels whose chance roll is enumerated (before mixing).
    optional: Vec<usize>,
    possible: Vec<bool>,
    /// Per level record: whether it goes into the placement's class key
    /// ([`Engine::keeps_level`]), and those that do.
    keep: Arc<[bool]>,
    kept: Vec<usize>,
    /// Every level's chance as placed without mixing: 100.
    unmixed: Arc<[u8]>,
    locate: Vec<(i32, W)>,
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

/// Per layer, state and live dungeon: the levels a branch loaded from that
/// layer on may land on ([`Engine::future_mask`]), one vector a layer.
pub(crate) struct Reach {
    /// Per layer: where each state's masks start, and the masks.
    pub(crate) layers: Vec<(Vec<u32>, Vec<u64>)>,
}

/// A set of level slots: looked up for every slot of every state a layer
/// makes, hence bits rather than a tree.
#[derive(Clone, Debug, Default)]
struct Slots(Vec<u64>);

impl Slots {
    fn insert(&mut self, slot: i32) {
        let Ok(k) = usize::try_from(slot) else { return };
        if self.0.len() <= k / 64 {
            self.0.resize(k / 64 + 1, 0);
        }
        self.0[k / 64] |= 1 << (k % 64);
    }

    fn contains(&self, slot: i32) -> bool {
        usize::try_from(slot)
            .ok()
            .and_then(|k| self.0.get(k / 64).map(|w| w & (1 << (k % 64)) != 0))
            .unwrap_or(false)
    }
}

/// Dungeon sizes enumerated at most (the random part of a size).
const MAX_SIZES: i32 = 1024;

/// Whether a level record of floating index `floating` is among the
/// floating levels of mask `mask`.
fn floats_in(floating: Option<u8>, mask: u8) -> bool {
    floating.is_some_and(|f| mask & (1 << f) != 0)
}

/// The bits ([`bit`]) of levels `start..start + count`: asked for every
/// branch of every live dungeon of every state, so made at once rather
/// than level by level.
fn span_mask(start: i32, count: i32) -> u64 {
    let lo = i64::from(start).max(1);
    let hi = (i64::from(start) + i64::from(count)).min(64);
    if lo >= hi {
        return 0;
    }
    // `hi - lo` is at most 63: the shift cannot overflow.
    ((1u64 << (hi - lo)) - 1) << lo
}

/// `level_range` on a dungeon of `lmax` levels with the chain's level
/// already known: `(start, count)` or the loader's error code.
fn level_range(
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
fn nonpositive_branch_levels(
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

/// Level slots of the records `loaded` (chains number them in order).
pub(crate) fn n_slots(res: &Resolver, loaded: &[u16]) -> i32 {
    loaded
        .iter()
        .map(|&r| {
            let d = &res.dungeons[r as usize];
            (d.levels.1 - d.levels.0) as i32
        })
        .sum()
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

/// The chance that level `l` of dungeon record `rec`, as outcome `info`
/// has it, is a no-bones level judged without branch rules: by its own
/// facts, or by a special level with marker "none" or waiting for an event
/// lying there.
pub(crate) fn core_chance(
    res: &Resolver,
    other_end: Option<&BonesOptions>,
    placements: &[Arc<Placement>],
    rec: usize,
    info: &Present,
    l: i32,
) -> W {
    let Some(opts) = other_end else {
        return W::ZERO;
    };
    let d = &res.dungeons[rec];
    let num = info.n;
    let f = LevelFacts {
        dungeon_none: d.bones.is_empty(),
        bottom: l == num,
        level: l,
        main_dungeon: d.name == crate::bones::rules::MAIN_DUNGEON,
        vibrating: d.flags & flags::HELLISH != 0 && l == num - 1,
        ..LevelFacts::default()
    };
    if no_bones_rule(&opts.rules, &f, false).is_some() {
        return W::ONE;
    }
    let Some(at) = usize::try_from(l).ok().filter(|&l| l < LEVELS) else {
        return W::ZERO;
    };
    let class = &placements[info.placement as usize].classes[info.class as usize];
    let core = (0..class.pos.len())
        .filter(|&j| {
            let lrec = &res.levels[d.levels.0 as usize + j];
            lrec.bones.is_empty() || opts.event_level(&lrec.name).is_some()
        })
        .fold(W::ZERO, |a, j| {
            a + class.pos[j].get(at).copied().unwrap_or(W::ZERO)
        });
    if class.p.v > 0.0 {
        (core / class.p).snapped()
    } else {
        W::ZERO
    }
}

impl<'a> Engine<'a> {
    pub fn new(res: &'a Resolver, wizard: bool, budget: Budget) -> Self {
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
        let mut knox_later = vec![false; nd + 1];
        let mut dummy_later = vec![false; nd + 1];
        let mut alt_later = vec![false; nd + 1];
        for s in (0..nd).rev() {
            let d = &res.dungeons[s];
            let lv = &res.levels[d.levels.0 as usize..d.levels.1 as usize];
            knox_later[s] = knox_later[s + 1] || lv.iter().any(|l| l.floating.is_some());
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
        Engine {
            res,
            runs: runs.pos,
            run_members: runs.members,
            run_subs: runs.subs,
            shift_memo: FxHashMap::default(),
            checks: None,
            dists: Vec::new(),
            dist_memo: FxHashMap::default(),
            dist_asked: FxHashMap::default(),
            plans: FxHashMap::default(),
            spreads: Vec::new(),
            spread_memo: FxHashMap::default(),
            stop: Stop::default(),
            no_mix: vec![false; res.dungeons.len()],
            tails: Tails::default(),
            tail_starts: FxHashMap::default(),
            lists: Lists::default(),
            wanted: None,
            skip_dungeon_chance,
            skip_level_chance,
            budget,
            live_until,
            needed_slots,
            knox_later,
            dummy_later,
            alt_later,
            alt_group,
            wizard,
            neg_rn2: res.rules.rn2_nonpositive,
            other_end: None,
            madman_locate: None,
            branch_last: branch_last.into(),
            memo: FxHashMap::default(),
            placements: Vec::new(),
            patterns: Vec::new(),
            placement_nodes: 0,
        }
    }

    /// Follows the game's `rn2` of a negative count as it is with generator
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

    /// `rng` ([`NonPositiveRn2::with_generator`]); without this, as with
    /// the game's own generator.
    pub fn with_rng(mut self, rng: RngKind) -> Self {
        self.neg_rn2 = self.res.rules.rn2_nonpositive.with_generator(rng);
        self
    }

    /// Follows a game's bones rules where they reach across branches
    /// (dNetHack judges a branch level by the other end of the first branch
    /// ending there); other rules need nothing from the enumeration.
    pub fn with_bones(mut self, opts: &'a BonesOptions) -> Self {
        if opts.rules.branch == BranchRule::OtherEnd {
            self.other_end = Some(opts);
        }
        self.madman_locate = super::exact::madman_records(self.res, opts)
            .ok()
            .flatten()
            .map(|(_, loca)| loca);
        self
    }

    /// [`core_chance`], with the placements so far.
    fn core_chance(&self, rec: usize, info: &Present, l: i32) -> W {
        core_chance(self.res, self.other_end, &self.placements, rec, info, l)
    }

    /// Whether the parent `owner` brings rule 11 to the entry level of a
    /// dungeon its branch leads to.
    fn incoming_class(&self, owner: u32) -> usize {
        if self.other_end.is_some() && self.res.dungeons[owner as usize].name == QUEST_DUNGEON {
            END_QUEST
        } else {
            END_PLAIN
        }
    }

    /// The chances of each other-end class that the entry level of dungeon
    /// record `rec`, as an outcome `info` has it, brings to the parent
    /// level its branch leaves from.
    fn entry_classes(&self, rec: usize, info: &Present) -> [W; ENDS] {
        let mut out = [W::ZERO; ENDS];
        if self.other_end.is_none() {
            out[END_PLAIN] = W::ONE;
            return out;
        }
        let d = &self.res.dungeons[rec];
        if d.name == QUEST_DUNGEON {
            out[END_QUEST] = W::ONE;
            return out;
        }
        // A branch from an earlier dungeon: this one is not the first.
        let core = self.core_chance(rec, info, info.entry);
        out[END_NO_BONES] = core;
        out[END_PLAIN] = W::ONE - core;
        out
    }

    /// Conditions the statistics on `evidence` ([`crate::evidence`]): each
    /// outcome is marked by whether it meets the constraints it settles
    /// ([`Edge::ok`]); the placements of a dungeon whose special levels'
    /// levels the evidence reads split their classes by whether they lie
    /// where it allows ([`place::PLevel::filter`]), and a deferred run
    /// whose branch levels it reads is followed branch by branch.
    pub fn with_evidence(mut self, evidence: &Evidence) -> Self {
        let checks = Checks::new(evidence, self.res);
        // A run's subs' depths are spread too.
        let touched: Vec<u32> = self
            .run_members
            .iter()
            .filter(|&(first, members)| {
                members
                    .iter()
                    .chain(self.run_subs.get(first).into_iter().flatten())
                    .any(|&r| checks.reads_branch_level[r as usize])
            })
            .map(|(&first, _)| first)
            .collect();
        for run in &mut self.runs {
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
            pattern: &self.patterns[info.placement as usize],
        };
        // The class key ends, after the kept levels, with whether the
        // levels the evidence reads lay where it allows (0).
        let passed = !checks.filters(rec) || {
            let (l0, l1) = self.res.dungeons[rec].levels;
            let n_slots = self.n_slots(&s.loaded);
            let knox_here = (l0..l1)
                .filter_map(|l| self.res.levels[l as usize].floating)
                .fold(0u8, |m, f| m | (1 << f))
                & !s.knox_done;
            let kept = (0..(l1 - l0) as usize)
                .filter(|&j| self.keeps_level(rec, n_slots, j, knox_here))
                .count();
            self.placements
                .get(info.placement as usize)
                .and_then(|p| p.classes.get(info.class as usize))
                .and_then(|c| c.key.get(kept))
                == Some(&0)
        };
        checks.admits(self.res, rec, Some(&facts), passed)
    }

    /// [`LevelPlan`] for record `rec` of `num` levels from slot `n_slots`,
    /// with floating levels `knox_here` still to come.
    fn level_plan(&mut self, rec: usize, num: i32, n_slots: i32, knox_here: u8) -> Arc<LevelPlan> {
        let key = (rec as u32, num, n_slots, knox_here);
        if let Some(plan) = self.plans.get(&key) {
            return plan.clone();
        }
        let res = self.res;
        let (l0, l1) = res.dungeons[rec].levels;
        let nlev = (l1 - l0) as usize;
        // Level chance rolls.
        let probs: Vec<(W, W)> = (l0..l1)
            .map(|l| {
                if self.skip_level_chance {
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
            .map(|j| self.keeps_level(rec, n_slots, j, knox_here))
            .collect();
        let plan = Arc::new(LevelPlan {
            possible: probs.iter().map(|(y, _)| !y.is_zero()).collect(),
            probs,
            optional,
            kept: (0..nlev).filter(|&j| keep[j]).collect(),
            keep,
            unmixed: vec![100; nlev].into(),
            locate: self.locate_moves(rec, num),
        });
        self.plans.insert(key, plan.clone());
        plan
    }

    /// Whether level record `j` of dungeon record `rec` (first slot
    /// `n_slots`) goes into the placement's class key.
    fn keeps_level(&self, rec: usize, n_slots: i32, j: usize, knox_here: u8) -> bool {
        let l = self.res.dungeons[rec].levels.0 as usize + j;
        self.needed_slots[rec + 1].contains(n_slots + j as i32)
            || floats_in(self.res.levels[l].floating, knox_here)
            || self.madman_locate == Some(l as u32)
    }

    /// The loader's last steps that move levels are modelled only where
    /// they cannot fail or drop a level: the planes shuffle on six levels
    /// of one dungeon that always exist at fixed levels, the head first,
    /// the tail last and no other level between; no level unlinked from
    /// the chain. Otherwise the statistics are sampled from the loader.
    fn check_final_moves(&self) -> Result<(), TooLarge> {
        let res = self.res;
        // Loader rules the enumeration does not follow; a rule that cannot
        // matter for this file does not count.
        let rules = &res.rules;
        let max_size = |d: &crate::loader::DRec| d.size.base.saturating_add(d.size.rand.max(0));
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
                let sure = (d.chance == 0 || d.chance >= 100 || self.skip_dungeon_chance)
                    && (l.chance >= 100 || self.skip_level_chance);
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

    fn count(&self, v: i32) -> i32 {
        self.res.rules.fields.count(v)
    }

    fn n_slots(&self, loaded: &[u16]) -> i32 {
        n_slots(self.res, loaded)
    }

    fn n_branch_records(&self, loaded: &[u16]) -> usize {
        loaded
            .iter()
            .map(|&r| {
                let d = &self.res.dungeons[r as usize];
                (d.branches.1 - d.branches.0) as usize
            })
            .sum()
    }

    fn future_mask(&self, live: &Live, next: usize, slots: &[(i32, i32)], n_slots: i32) -> u64 {
        future_mask(self.res, &self.branch_last, live, next, slots, n_slots)
    }

    /// Drops what stage `next` and later cannot read.
    fn project(&self, mut s: State, next: usize) -> State {
        let n_slots = self.n_slots(&s.loaded);
        let needed = &self.needed_slots[next];
        // States are held by the hundred thousand: their vectors are made
        // to measure (a filtered `collect` would leave room for four).
        let slots = s.slots.iter().filter(|(slot, _)| needed.contains(*slot));
        let count = slots.clone().count();
        if count < s.slots.len() {
            let mut kept = Vec::with_capacity(count);
            kept.extend(slots.copied());
            s.slots = shared(&self.lists.slots, kept);
        }
        let stays = |l: &Live| self.live_until[l.record as usize] >= next as i64;
        let avoid = |l: &Live| {
            // A deferred run's joint chances are those of the levels
            // taken before it, all of them.
            if l.pending > 0 {
                l.avoid
            } else if self.res.rules.avoid_branch_levels {
                l.avoid & self.future_mask(l, next, &s.slots, n_slots)
            } else {
                0
            }
        };
        if s.live.iter().all(stays) {
            // In place: most states keep every live dungeon.
            for k in 0..s.live.len() {
                s.live[k].avoid = avoid(&s.live[k]);
            }
        } else {
            let mut live = Vec::with_capacity(s.live.iter().filter(|l| stays(l)).count());
            live.extend(s.live.iter().filter(|l| stays(l)).map(|l| Live {
                avoid: avoid(l),
                ..l.clone()
            }));
            s.live = live.into_boxed_slice();
        }
        if !self.knox_later[next] {
            s.knox_done = 0;
        }
        if !self.dummy_later[next] {
            s.dummy_done = false;
        }
        if !self.alt_later[next] {
            s.alts = Arc::default();
        }
        s
    }

    /// dNetHack's `select_alternate()` (dNAO `dungeon.c:668-711`, as the
    /// loader's) for record `rec` from state `s`: `None` when a namesake was
    /// kept already (no draw), else the chance that this record is kept and
    /// the history after the draw. `rn2(remaining)` keeps it with chance
    /// `1/remaining` (`rn2` of 0 or less gives 0: kept); in wizard mode or
    /// in June the `chaos_quest` option decides for "Chaos Quest" after
    /// the draw.
    #[allow(clippy::type_complexity)]
    fn select_alternate(
        &self,
        s: &State,
        rec: usize,
    ) -> Option<((W, Vec<AltSlot>), (W, Vec<AltSlot>))> {
        let res = self.res;
        let d = &res.dungeons[rec];
        let group = self.alt_group[rec];
        let i = s.loaded.len();
        let mut j = 0;
        let mut altnum = 0;
        while j < i && j < s.alts.len() {
            if s.alts[j].group == group {
                if s.alts[j].selected {
                    return None;
                }
                altnum = s.alts[j].prev;
                break;
            }
            j += 1;
        }
        let inputs = &res.rules.inputs;
        let (p_keep, p_drop) =
            if d.is_chaos_quest && inputs.chaosvar != 0 && (self.wizard || inputs.is_june) {
                if altnum == i32::from(inputs.chaosvar) - 1 {
                    (W::ONE, W::ZERO)
                } else {
                    (W::ZERO, W::ONE)
                }
            } else {
                let remaining = d.alternates - altnum + 1;
                if remaining <= 1 {
                    (W::ONE, W::ZERO)
                } else {
                    let r = remaining as u64;
                    (W::ratio(1, r), W::ratio(r - 1, r))
                }
            };
        let history = |selected: bool| {
            let mut alts = s.alts.to_vec();
            let prev = alts.get(j).map_or(0, |a| a.prev);
            let slot = AltSlot {
                group,
                prev: prev + 1,
                selected,
            };
            if j < alts.len() {
                alts[j] = slot;
            } else if j < res.rules.maxdungeon.max(1) as usize {
                alts.push(slot);
            }
            alts
        };
        Some(((p_keep, history(true)), (p_drop, history(false))))
    }

    /// dNetHack's Quest locate level (dNAO `dungeon.c:1008-1020`, as the
    /// loader's): the record before last of a Quest of `num` levels moves
    /// down by each amount with its chance.
    fn locate_moves(&self, rec: usize, num: i32) -> Vec<(i32, W)> {
        let res = self.res;
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

    /// The branch into record `rec` (from `parent`, live in `s`) as a
    /// deferred run's ([`Spread`]), when it is one: the run's first branch
    /// starts deferring only if nothing after the run can land on a level
    /// the run may take, and its levels are not too many to enumerate; the
    /// later ones defer when the first did.
    fn deferred_spread(
        &mut self,
        s: &State,
        rec: usize,
        parent: &Live,
        step: i32,
        entry: i32,
    ) -> Option<u32> {
        let rp = self.runs[rec]?;
        if parent.pending != rp.pos {
            return None;
        }
        let dist = self.run_dist(parent, rp, s.knox_done)?;
        if rp.pos == 0 {
            let later =
                self.future_mask(parent, rp.end as usize, &s.slots, self.n_slots(&s.loaded));
            if later & self.dists[dist as usize].span != 0 {
                return None;
            }
        }
        let key = (
            dist,
            rp.pos,
            parent.depth_start,
            parent.depth_final,
            step,
            entry,
        );
        if let Some(&id) = self.spread_memo.get(&key) {
            return Some(id);
        }
        let at: Vec<SpreadAt> = self.dists[dist as usize].marg[usize::from(rp.pos)]
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
        let id = self.spreads.len() as u32;
        self.spreads.push(Spread {
            dist,
            pos: rp.pos,
            owner: self.res.dungeons[rec].incoming[0].1,
            member: true,
            at,
        });
        self.spread_memo.insert(key, id);
        Some(id)
    }

    /// A branch's parent-end depth in the final layout and the raw depth
    /// start of the dungeon it leads to, from its parent's two depth
    /// starts and its level.
    fn branch_depths(
        &self,
        depth_start: i32,
        depth_final: i32,
        level: i32,
        step: i32,
        entry: i32,
    ) -> (i32, i32) {
        let fields = &self.res.rules.fields;
        let from_depth = fields.depth(depth_start.wrapping_add(level.wrapping_sub(1)));
        (
            depth_final.wrapping_add(level.wrapping_sub(1)),
            fields.start(
                from_depth
                    .wrapping_add(step)
                    .wrapping_sub(entry.wrapping_sub(1)),
            ),
        )
    }

    /// The branch from `parent` (record `owner`) leaving level `level`, and
    /// the raw depth start of the dungeon it leads to.
    fn drawn_branch(
        &self,
        parent: &Live,
        owner: u32,
        level: i32,
        step: i32,
        entry: i32,
    ) -> (BranchInfo, i32) {
        let (depth, ds) =
            self.branch_depths(parent.depth_start, parent.depth_final, level, step, entry);
        let info = BranchInfo {
            parent: owner,
            level,
            depth,
            floated: false,
            other: self.incoming_class(owner),
            spread: None,
        };
        (info, ds)
    }

    /// The spread of a sub's depths (see [`crate::runs`]): its branch
    /// leaves level `level` of a member whose own level is spread
    /// (`member`), in a run of which `placed` members are placed (0: all).
    fn sub_spread(&mut self, member: u32, level: i32, step: i32, entry: i32, placed: u8) -> u32 {
        let key = (member, level, step, entry, placed);
        if let Some(&id) = self.shift_memo.get(&key) {
            return id;
        }
        let m = &self.spreads[member as usize];
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
        let id = self.spreads.len() as u32;
        self.spreads.push(Spread {
            dist,
            pos: placed,
            owner,
            member: false,
            at,
        });
        self.shift_memo.insert(key, id);
        id
    }

    /// The joint chances of the levels of the run `rp` into `parent`, from
    /// the levels it has taken before the run and the floating levels seen
    /// (memoised); `None` when a branch's range fails on its size (the run
    /// is then followed level by level) or the sequences are too many.
    fn run_dist(&mut self, parent: &Live, rp: RunPos, knox_done: u8) -> Option<u32> {
        let asked = (rp.first, parent.avoid, parent.n, knox_done);
        if let Some(&id) = self.dist_asked.get(&asked) {
            return id;
        }
        let id = self.dist_job(parent, rp, knox_done).and_then(|job| {
            if let Some(&id) = self.dist_memo.get(&job.key) {
                return Some(id);
            }
            let dist = job.compute(&self.res.rules.fields)?;
            Some(self.add_dist(job.key, dist))
        });
        self.dist_asked.insert(asked, id);
        id
    }

    /// A new run's joint chances, numbered and memoised.
    fn add_dist(&mut self, key: (u32, u64, i32, u8), dist: RunDist) -> u32 {
        let id = self.dists.len() as u32;
        self.dists.push(dist);
        self.dist_memo.insert(key, id);
        id
    }

    /// What [`Engine::run_dist`] computes for the run `rp` into `parent`;
    /// `None` as there.
    fn dist_job(&self, parent: &Live, rp: RunPos, knox_done: u8) -> Option<DistJob> {
        let res = self.res;
        let members = self.run_members.get(&rp.first)?;
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
        let mut seen = knox_done;
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
        let floats_key = knox_done & seen;
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
            key: (rp.first, parent.avoid & span, parent.n, floats_key),
            ranges,
            sequences,
            avoid: parent.avoid,
            floats,
        })
    }

    /// Before the first member of a deferred run is loaded: the joint
    /// chances its states will ask for ([`Engine::run_dist`]), on two
    /// threads (notdNetHack's 1,551 take a tenth of its run on one),
    /// numbered in the order the states would ask for them.
    fn prefetch_dists(&mut self, states: &[State], rec: usize) {
        let Some(rp) = self.runs[rec].filter(|rp| rp.pos == 0) else {
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
            let question = (rp.first, parent.avoid, parent.n, s.knox_done);
            if parent.pending != rp.pos
                || self.dist_asked.contains_key(&question)
                || asked.insert(question, ()).is_some()
            {
                continue;
            }
            let Some(job) = self.dist_job(parent, rp, s.knox_done) else {
                continue;
            };
            if self.dist_memo.contains_key(&job.key) || wanted.insert(job.key, ()).is_some() {
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

    /// The placement problem's levels (`adjust`: see [`PlaceKey`]).
    fn plevels(
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
    /// dungeons: `(slot, level)`, -1 for a slot without a level.
    fn external(&self, s: &State, rec: usize, pattern: &[bool], n_slots: i32) -> Vec<(i32, i32)> {
        let mut external = Vec::new();
        self.external_into(s, rec, pattern, n_slots, &mut external);
        external
    }

    /// [`Engine::external`], into `external`.
    fn external_into(
        &self,
        s: &State,
        rec: usize,
        pattern: &[bool],
        n_slots: i32,
        external: &mut Vec<(i32, i32)>,
    ) {
        let l0 = self.res.dungeons[rec].levels.0 as usize;
        external.clear();
        for (j, &on) in pattern.iter().enumerate() {
            let c = self.res.levels[l0 + j].chain;
            if on && c >= 0 && c < n_slots {
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

    /// The optional levels of record `rec` (of `num` levels) whose chance
    /// rolls can be mixed into the placement's tail rather than
    /// enumerated: those of the tail ([`place::tail_start`], with every
    /// level that may exist) that nothing after the placement reads (not
    /// kept, not floating, not `dummy`). Not with evidence, dNetHack's
    /// moving Quest locate level or rule 10's Quest, nor after a placement
    /// of this record found its rolls unmixable.
    #[allow(clippy::too_many_arguments)]
    fn mixable(
        &mut self,
        s: &State,
        rec: usize,
        num: i32,
        n_slots: i32,
        possible: &[bool],
        optional: &[usize],
        keep: &Arc<[bool]>,
    ) -> Vec<usize> {
        let res = self.res;
        let d = &res.dungeons[rec];
        let madman_here = self
            .madman_locate
            .is_some_and(|l| res.levels[l as usize].dungeon == rec as u32);
        if self.no_mix[rec]
            || self.checks.is_some()
            || (res.rules.quest_locate && d.is_quest)
            || madman_here
        {
            return Vec::new();
        }
        let external = self.external(s, rec, possible, n_slots);
        // Every state that loads this record asks again: the answer
        // depends on these alone.
        let key = (rec as u32, num, n_slots, keep.clone(), external);
        let start = match self.tail_starts.get(&key) {
            Some(&start) => start,
            None => {
                let levels = self.plevels(rec, possible, keep, 0, &[], &[]);
                let start = place::tail_start(&place::Input {
                    n: num,
                    start: n_slots,
                    levels: &levels,
                    external: &key.4,
                });
                self.tail_starts.insert(key, start);
                start
            }
        };
        optional
            .iter()
            .copied()
            .filter(|&j| {
                let l = &res.levels[d.levels.0 as usize + j];
                j >= start && !keep[j] && l.floating.is_none() && !l.is_dummy
            })
            .collect()
    }

    /// The placement of `key`, memoised; `None` when its mixed levels
    /// cannot be mixed.
    fn placement(&mut self, key: &PlaceKey) -> Result<Option<u32>, TooLarge> {
        if let Some(&id) = self.memo.get(key) {
            return Ok(Some(id));
        }
        if let Some(wanted) = self.wanted.as_mut() {
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
        let result = match place::place(&input, left, &self.stop, &mut self.tails) {
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
                    e.nodes + self.placement_nodes
                )
            },
        })?;
        Ok(Some(self.keep_placement(key.clone(), result)))
    }

    /// The placement-search states the budget leaves.
    fn placement_nodes_left(&self) -> usize {
        self.budget
            .placement_nodes
            .saturating_sub(self.placement_nodes)
    }

    fn keep_placement(&mut self, key: PlaceKey, result: Placement) -> u32 {
        self.placement_nodes += result.nodes;
        let id = self.placements.len() as u32;
        self.placements.push(Arc::new(result));
        self.patterns.push(key.pattern.clone());
        self.memo.insert(key, id);
        id
    }

    fn place_levels(&self, key: &PlaceKey) -> Vec<PLevel> {
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
    /// dNetHack's files: a fifth of the enumeration, with the other core
    /// idle). Each search fills a memo of its own, absorbed into the
    /// shared one in the order the states would have asked; what each
    /// counts is then what it would have added to the shared memo, so the
    /// statistics and the reported work are the same as searched one after
    /// another, which is what happens from the first search that fails,
    /// or would have run out of budget, on.
    fn prefetch_placements(&mut self, states: &[State], rec: usize) {
        if states.len() > PREFETCH_UP_TO || halves::is_alone() {
            return;
        }
        self.wanted = Some(Vec::new());
        let mut out = Vec::new();
        for s in states {
            out.clear();
            // Whatever fails fails again, as it would have, when the
            // layer is made.
            if self.expand(s, rec, &mut out).is_err() {
                break;
            }
        }
        let wanted = self.wanted.take().unwrap_or_default();
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
        let mut found: Vec<Option<(Placement, Tails)>> = (0..jobs.len()).map(|_| None).collect();
        let stop = &self.stop;
        each_of(&mut found, 2, |k, slot| {
            let (key, levels) = &jobs[k];
            let mut tails = Tails::default();
            if let Ok(p) = place::place(&key.input(levels), budget, stop, &mut tails) {
                *slot = Some((p, tails));
            }
        });
        for ((key, _), slot) in jobs.into_iter().zip(found) {
            let Some((mut result, tails)) = slot else {
                break;
            };
            let searched = result.nodes - tails.entries();
            // Within what the search would have had left, it would have
            // ended as it did.
            if searched > self.placement_nodes_left() {
                break;
            }
            result.nodes = searched + self.tails.absorb(tails);
            self.keep_placement(key, result);
        }
    }

    /// Every outcome of loading dungeon record `rec` from state `s`.
    fn expand(
        &mut self,
        s: &State,
        rec: usize,
        out: &mut Vec<(W, To, Option<Present>, Option<State>)>,
    ) -> Result<(), TooLarge> {
        // A placement whose mixed rolls cannot be mixed: this record's
        // rolls are enumerated from now on, from this state again.
        let (entry_state, entry_len) = (s, out.len());
        let res = self.res;
        let d = &res.dungeons[rec];
        let fail = |code: &'static str, level: Option<u32>| {
            Box::new(FailKey {
                code,
                dungeon: Some(rec as u32),
                level,
            })
        };
        // dNetHack keeps one of several same-named records; one that is not
        // kept draws no chance roll.
        let mut p_exist = W::ONE;
        let kept_state;
        let s = if res.rules.alternates && d.alternates > 0 {
            let Some(((p_keep, kept), (p_drop, dropped))) = self.select_alternate(s, rec) else {
                let next = self.project(s.clone(), rec + 1);
                out.push((W::ONE, To::State(u32::MAX), None, Some(next)));
                return Ok(());
            };
            if !p_drop.is_zero() {
                let next = State {
                    alts: shared(&self.lists.alts, dropped),
                    ..s.clone()
                };
                out.push((
                    p_drop,
                    To::State(u32::MAX),
                    None,
                    Some(self.project(next, rec + 1)),
                ));
            }
            if p_keep.is_zero() {
                return Ok(());
            }
            p_exist = p_keep;
            kept_state = State {
                alts: shared(&self.lists.alts, kept),
                ..s.clone()
            };
            &kept_state
        } else {
            s
        };
        let dungeon_chance = match res.rules.dungeon_chance {
            _ if self.skip_dungeon_chance => None,
            DungeonChance::Optional if d.chance == 0 => None,
            DungeonChance::Optional => Some(d.chance),
            DungeonChance::Every if d.chance == 0 => Some(100),
            DungeonChance::Every => Some(d.chance),
        };
        if let Some(chance) = dungeon_chance {
            let c = chance.clamp(0, 100) as u64;
            if c < 100 {
                let next = self.project(s.clone(), rec + 1);
                out.push((
                    p_exist * W::ratio(100 - c, 100),
                    To::State(u32::MAX),
                    None,
                    Some(next),
                ));
            }
            if c == 0 {
                return Ok(());
            }
            p_exist = p_exist * W::ratio(c, 100);
        }
        let sizes: Vec<(i32, W)> = if d.size.rand < 0 {
            // `rn1(rand, base)` with a negative random part, as the game's
            // `rn2` gives it (the loader's `Run::rn2_count`).
            match self.neg_rn2 {
                NonPositiveRn2::NoDraw | NonPositiveRn2::OneDrawZero => {
                    vec![(self.count(d.size.base), W::ONE)]
                }
                NonPositiveRn2::OneDrawModulo => {
                    let k = d.size.rand.unsigned_abs();
                    if k > MAX_SIZES as u32 {
                        return Err(TooLarge {
                            what: format!("\"{}\" has {k} possible sizes", d.name),
                        });
                    }
                    (0..k as i32)
                        .map(|i| {
                            let num = self.count(i.wrapping_add(d.size.base));
                            (num, W::ratio(1, u64::from(k)))
                        })
                        .collect()
                }
                NonPositiveRn2::OneDrawRaw => {
                    return Err(TooLarge {
                        what: format!(
                            "the size of \"{}\" is rn1({}, {}), and the game's rn2 of a negative argument \
                             returns ISAAC-64's raw output (2^32 outcomes, not enumerated)",
                            d.name, d.size.rand, d.size.base
                        ),
                    })
                }
            }
        } else if d.size.rand != 0 {
            if d.size.rand > MAX_SIZES {
                return Err(TooLarge {
                    what: format!("\"{}\" has {} possible sizes", d.name, d.size.rand),
                });
            }
            let r = d.size.rand as u64;
            (0..d.size.rand)
                .map(|i| (self.count(i.wrapping_add(d.size.base)), W::ratio(1, r)))
                .collect()
        } else {
            vec![(self.count(d.size.base), W::ONE)]
        };
        // dNetHack: a Quest of at least 6 levels for the Blibdoolpoolp
        // nemesis (dNAO `dungeon.c:910-916`), before the entry level.
        let quest_min =
            res.rules.quest_locate && d.is_quest && res.rules.inputs.quest_nemesis_blibdoolpoolp;
        let sizes: Vec<(i32, W)> = sizes
            .into_iter()
            .map(|(num, p)| (if quest_min { num.max(6) } else { num }, p))
            .collect();
        let index = s.loaded.len();
        let n_slots = self.n_slots(&s.loaded);
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
        for (num, p_size) in sizes {
            let p = p_exist * p_size;
            let entry = if entry_field < 0 {
                let e = self.count(num.wrapping_add(entry_field).wrapping_add(1));
                if e <= 0 {
                    1
                } else {
                    e
                }
            } else if entry_field > 0 {
                let e = self.count(entry_field);
                if e > num {
                    num
                } else {
                    e
                }
            } else {
                1
            };
            // (probability, branch, raw depth_start) per branch draw.
            let mut draws: Vec<(W, Option<BranchInfo>, i32)> = Vec::new();
            // NetHack 3.7's unconnected dungeon (the Tutorial): no branch.
            if index > 0 && !(res.rules.unconnected && d.unconnected) {
                let Some(&(brec, owner)) = d
                    .incoming
                    .iter()
                    .find(|(_, owner)| s.loaded.contains(&(*owner as u16)))
                else {
                    out.push((p, To::Fail(fail("branch-not-found", None)), None, None));
                    continue;
                };
                if res.rules.parent_by_name
                    && d.same_name_before
                        .iter()
                        .any(|&j| j <= owner && s.loaded.contains(&(j as u16)))
                {
                    out.push((p, To::Fail(fail("parent-not-resolved", None)), None, None));
                    continue;
                }
                let Some(parent) = s.live.iter().find(|l| l.record as u32 == owner) else {
                    return Err(TooLarge {
                        what: format!("internal: parent of \"{}\" not tracked", d.name),
                    });
                };
                let b = &res.branches[brec as usize];
                let chained = if b.chain >= 0 {
                    if b.chain >= n_slots {
                        out.push((p, To::Fail(fail("chain-shifted", None)), None, None));
                        continue;
                    }
                    match s.slots.iter().find(|(sl, _)| *sl == b.chain) {
                        Some(&(_, v)) if v > 0 => Some(v),
                        _ => {
                            out.push((p, To::Fail(fail("empty-chain", None)), None, None));
                            continue;
                        }
                    }
                } else {
                    None
                };
                let (base, count) = match level_range(parent.n, b.range.base, b.range.rand, chained)
                {
                    Ok(r) => r,
                    Err(a) => {
                        out.push((p, To::Fail(fail(a.code(), None)), None, None));
                        continue;
                    }
                };
                let step = match b.kind {
                    BranchKind::Portal => 0,
                    _ if b.up => -1,
                    _ => 1,
                };
                if count < 1 {
                    let levels = nonpositive_branch_levels(
                        self.neg_rn2,
                        res.rules.avoid_branch_levels,
                        parent.avoid & bit(base) != 0,
                        base,
                        count,
                    )
                    .ok_or_else(|| TooLarge {
                        what: format!(
                            "the branch to \"{}\" draws rn2({count}), and the game's rn2 of a negative \
                             argument returns ISAAC-64's raw output (2^32 outcomes, not enumerated)",
                            d.name
                        ),
                    })?;
                    for (level, pl) in levels {
                        let Some(level) = level else {
                            out.push((
                                p * pl,
                                To::Fail(fail("branch-level-hangs", None)),
                                None,
                                None,
                            ));
                            continue;
                        };
                        let (info, ds) =
                            self.drawn_branch(parent, owner, self.count(level), step, entry);
                        draws.push((p * pl, Some(info), ds));
                    }
                }
                let deferred = if count < 1 {
                    None
                } else {
                    self.deferred_spread(s, rec, parent, step, entry)
                };
                if let Some(id) = deferred {
                    let first = self.spreads[id as usize].at[0];
                    let info = BranchInfo {
                        parent: owner,
                        level: first.level,
                        depth: first.depth,
                        floated: false,
                        other: self.incoming_class(owner),
                        spread: Some(id),
                    };
                    draws.push((p, Some(info), first.depth_start));
                }
                for j in (0..count.max(0)).filter(|_| deferred.is_none()) {
                    let level = if res.rules.avoid_branch_levels {
                        probe(parent.avoid, base, count, j)
                    } else {
                        base + j
                    };
                    let (info, ds) =
                        self.drawn_branch(parent, owner, self.count(level), step, entry);
                    draws.push((p * W::ratio(1, count as u64), Some(info), ds));
                }
                // A sub of a deferred run: its depths follow its member's
                // level.
                if let Some(member) = parent.spread {
                    let owner = self.spreads[member as usize].owner;
                    let placed = s
                        .live
                        .iter()
                        .find(|l| u32::from(l.record) == owner)
                        .map_or(0, |l| l.pending);
                    for (_, info, ds) in &mut draws {
                        let Some(b) = info else { continue };
                        let id = self.sub_spread(member, b.level, step, entry, placed);
                        let first = self.spreads[id as usize].at[0];
                        b.depth = first.depth;
                        b.spread = Some(id);
                        *ds = first.depth_start;
                    }
                }
            } else {
                draws.push((p, None, 1));
            }
            let num = num.min(res.rules.maxlevel);
            let (l0, l1) = d.levels;
            let nlev = (l1 - l0) as usize;
            // Floating levels whose first one may lie in this dungeon.
            let knox_here = (l0..l1)
                .filter_map(|l| res.levels[l as usize].floating)
                .fold(0u8, |m, f| m | (1 << f))
                & !s.knox_done;
            let plan = self.level_plan(rec, num, n_slots, knox_here);
            let locate = &plan.locate;
            if let Some(limits) = res.rules.limits {
                if n_slots as usize + nlev > limits.max_levels {
                    for (pd, _, _) in draws {
                        out.push((pd, To::Fail(fail("too-many-levels", None)), None, None));
                    }
                    continue;
                }
            }
            let (probs, possible) = (&plan.probs, &plan.possible);
            let mixed = if self.skip_level_chance {
                Vec::new()
            } else {
                self.mixable(s, rec, num, n_slots, possible, &plan.optional, &plan.keep)
            };
            let mixed_out: Vec<usize>;
            let (chances, optional) = if mixed.is_empty() {
                (plan.unmixed.clone(), &plan.optional)
            } else {
                let chances: Arc<[u8]> = (0..nlev)
                    .map(|j| {
                        if mixed.contains(&j) {
                            res.levels[l0 as usize + j].chance.clamp(0, 100) as u8
                        } else {
                            100
                        }
                    })
                    .collect();
                mixed_out = plan
                    .optional
                    .iter()
                    .copied()
                    .filter(|j| !mixed.contains(j))
                    .collect();
                (chances, &mixed_out)
            };
            if optional.len() > self.budget.optional_levels {
                return Err(TooLarge {
                    what: format!(
                        "\"{}\" has {} optional levels (at most {} are enumerated)",
                        d.name,
                        optional.len(),
                        self.budget.optional_levels
                    ),
                });
            }
            // One key for every pattern and move: a state's placements are
            // looked up by reference, and copied only when new.
            let mut key = PlaceKey {
                record: rec as u32,
                start: n_slots,
                n: num,
                pattern: possible.to_vec(),
                keep: plan.keep.clone(),
                external: Vec::new(),
                adjust: 0,
                filters: Vec::new(),
                chances,
            };
            for mask in 0u64..(1u64 << optional.len()) {
                // Mixed levels count as existing: the placement weighs
                // them by their rolls.
                key.pattern.copy_from_slice(possible);
                let mut p_pat = W::ONE;
                for (bitno, &j) in optional.iter().enumerate() {
                    let on = mask & (1 << bitno) != 0;
                    key.pattern[j] = on;
                    p_pat = p_pat * if on { probs[j].0 } else { probs[j].1 };
                }
                self.external_into(s, rec, &key.pattern, n_slots, &mut key.external);
                let filtered = self.checks.as_ref().is_some_and(|c| c.filters(rec));
                for &(adjust, p_adj) in locate {
                    key.adjust = adjust;
                    // With evidence whose levels depend on the dungeon's
                    // top (a depth), a placement per draw.
                    let one = if filtered {
                        None
                    } else {
                        let Some(pid) = self.placement(&key)? else {
                            return self.unmix(entry_state, rec, entry_len, out);
                        };
                        Some(pid)
                    };
                    for &(pd, branch, ds) in &draws {
                        let pid = match one {
                            Some(pid) => pid,
                            None => {
                                let (_, ds_adj) = self.lifted_start(s, rec, num, ds, &key.pattern);
                                let filters = self
                                    .checks
                                    .as_ref()
                                    .map(|c| c.level_filters(self.res, rec, ds_adj))
                                    .unwrap_or_default();
                                let Some(pid) = self.placement(&PlaceKey {
                                    filters,
                                    ..key.clone()
                                })?
                                else {
                                    return self.unmix(entry_state, rec, entry_len, out);
                                };
                                pid
                            }
                        };
                        let prefix = pd * p_pat * p_adj;
                        self.outcomes(
                            s,
                            rec,
                            index,
                            num,
                            entry,
                            ds,
                            branch,
                            &key.pattern,
                            pid,
                            prefix,
                            (knox_here, &plan.kept),
                            out,
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// Expands `s` again with record `rec`'s rolls enumerated, dropping
    /// what the first try made.
    fn unmix(
        &mut self,
        s: &State,
        rec: usize,
        len: usize,
        out: &mut Vec<(W, To, Option<Present>, Option<State>)>,
    ) -> Result<(), TooLarge> {
        out.truncate(len);
        self.no_mix[rec] = true;
        self.expand(s, rec, out)
    }

    /// The `dummy` fix-up (the first `dummy` level lifts its dungeon by
    /// one): whether it has happened after dungeon record `rec` of `num`
    /// levels with `pattern` from state `s`, and the dungeon's top as
    /// layouts report it, from `ds` as drawn.
    fn lifted_start(
        &self,
        s: &State,
        rec: usize,
        num: i32,
        ds: i32,
        pattern: &[bool],
    ) -> (bool, i32) {
        let res = self.res;
        let (l0, l1) = res.dungeons[rec].levels;
        let mut dummy_done = s.dummy_done;
        let mut ds_adj = ds;
        if !dummy_done
            && (l0..l1)
                .zip(pattern)
                .any(|(l, &on)| on && res.levels[l as usize].is_dummy)
        {
            dummy_done = true;
            if i64::from(num) > 1 - i64::from(ds) {
                ds_adj = res.rules.fields.start(ds.wrapping_sub(1));
            }
        }
        (dummy_done, ds_adj)
    }

    /// The outcomes of one placement (its classes, aborts and failure).
    #[allow(clippy::too_many_arguments)]
    fn outcomes(
        &self,
        s: &State,
        rec: usize,
        index: usize,
        num: i32,
        entry: i32,
        ds: i32,
        branch: Option<BranchInfo>,
        pattern: &[bool],
        pid: u32,
        prefix: W,
        (knox_here, kept): (u8, &[usize]),
        out: &mut Vec<(W, To, Option<Present>, Option<State>)>,
    ) {
        let res = self.res;
        let d = &res.dungeons[rec];
        let l0 = d.levels.0;
        // Looking ahead ([`Engine::prefetch_placements`]): nothing to make.
        let Some(placement) = self.placements.get(pid as usize) else {
            return;
        };
        let fail = |code: &'static str, level: Option<u32>| {
            Box::new(FailKey {
                code,
                dungeon: Some(rec as u32),
                level,
            })
        };
        let known = |branch: Option<BranchInfo>| Present {
            n: num,
            depth_start: ds,
            entry,
            branch,
            placement: pid,
            class: u32::MAX,
            prefix,
        };
        for &((abort, j), w) in &placement.aborts {
            out.push((
                prefix * w,
                To::Fail(fail(abort.code(), Some(l0 + u32::from(j)))),
                Some(known(branch)),
                None,
            ));
        }
        if !placement.fail.is_zero() {
            out.push((
                prefix * placement.fail,
                To::Fail(fail("couldnt-place", None)),
                Some(known(branch)),
                None,
            ));
        }
        let n_slots = self.n_slots(&s.loaded);
        for (ci, class) in placement.classes.iter().enumerate() {
            let p = prefix * class.p;
            let mut branch = branch;
            let mut knox_done = s.knox_done;
            let mut knox_bad = s.knox_bad;
            for f in (0..8u8).filter(|f| knox_here & (1 << f) != 0) {
                let knox_level = kept
                    .iter()
                    .zip(&class.key)
                    .filter(|(&j, &v)| res.levels[l0 as usize + j].floating == Some(f) && v > 0)
                    .map(|(_, &v)| i32::from(v))
                    .min();
                if let Some(kl) = knox_level {
                    knox_done |= 1 << f;
                    match branch.as_mut() {
                        Some(b) if entry == kl => {
                            b.floated = true;
                            // Its parent end moves off the map: no other
                            // end to judge.
                            b.other = END_PLAIN;
                        }
                        _ => knox_bad = true,
                    }
                }
            }
            if let Some(limits) = res.rules.limits {
                let count =
                    self.n_branch_records(&s.loaded) + (d.branches.1 - d.branches.0) as usize;
                if count > limits.max_branches {
                    out.push((p, To::Fail(fail("too-many-branches", None)), None, None));
                    continue;
                }
            }
            let (dummy_done, ds_adj) = self.lifted_start(s, rec, num, ds, pattern);
            // The next state.
            let mut next = s.clone();
            next.loaded = self.lists.loaded_with(&next.loaded, rec as u16);
            if let Some(b) = branch {
                if let Some(parent) = next
                    .live
                    .iter_mut()
                    .find(|l| u32::from(l.record) == b.parent)
                {
                    match (b.spread, self.runs[rec]) {
                        (Some(id), Some(rp)) if self.spreads[id as usize].member => {
                            parent.pending = if rp.pos + 1 == rp.len { 0 } else { rp.pos + 1 };
                        }
                        _ => parent.avoid |= bit(b.level),
                    }
                }
            }
            if self.live_until[rec] > rec as i64 {
                let mut live = Vec::with_capacity(next.live.len() + 1);
                live.extend_from_slice(&next.live);
                live.push(Live {
                    record: rec as u16,
                    n: num,
                    depth_start: ds,
                    depth_final: ds_adj,
                    avoid: if index > 0 { bit(entry) } else { 0 },
                    pending: 0,
                    spread: branch.and_then(|b| b.spread),
                });
                live.sort_by_key(|l| l.record);
                next.live = live.into_boxed_slice();
            }
            // Most outcomes keep no slot: the list is the one held already.
            if !kept.is_empty() {
                let mut slots = Vec::with_capacity(next.slots.len() + kept.len());
                slots.extend_from_slice(&next.slots);
                for (&j, &v) in kept.iter().zip(&class.key) {
                    slots.push((n_slots + j as i32, i32::from(v)));
                }
                slots.sort_unstable();
                next.slots = shared(&self.lists.slots, slots);
            }
            next.knox_done = knox_done;
            next.knox_bad = knox_bad;
            next.dummy_done = dummy_done;
            let next = self.project(next, rec + 1);
            let info = Present {
                n: num,
                depth_start: ds_adj,
                entry,
                branch,
                placement: pid,
                class: ci as u32,
                prefix,
            };
            out.push((p, To::State(u32::MAX), Some(info), Some(next)));
        }
    }

    /// Runs the forward enumeration and the backward pass.
    pub fn run(mut self) -> Result<Run, TooLarge> {
        self.check_final_moves()?;
        let follow = Follow::new(
            self.res,
            self.other_end,
            self.branch_last.clone(),
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
        self.tails = Tails::default();
        self.memo = FxHashMap::default();
        self.tail_starts = FxHashMap::default();
        self.lists = Lists::default();
        self.spread_memo = FxHashMap::default();
        self.shift_memo = FxHashMap::default();
        self.dist_memo = FxHashMap::default();
        self.dist_asked = FxHashMap::default();
        self.plans = FxHashMap::default();
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
                if s.knox_bad {
                    return Some(FailKey {
                        code: "knox-not-reachable",
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
                        code: "missing-dungeon",
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
        let classes = |rec: usize, e: &Edge| match layers[rec].info(e) {
            Some(info) => self.entry_classes(rec, info),
            None => [W::ZERO; ENDS],
        };
        let runs = Runs {
            spreads: &self.spreads,
            dists: &self.dists,
        };
        // The passes after the enumeration take seconds on the largest
        // files: each stops early when asked, and its values are dropped.
        let back = backward(&layers, reach, &terminal_fail, &classes, &runs, &self.stop);
        self.stopped()?;
        Ok(Run {
            stop: self.stop.clone(),
            layers,
            placements: self.placements,
            patterns: self.patterns,
            alpha,
            alpha_all,
            back,
            terminal_fail,
            placement_nodes: self.placement_nodes,
            core,
            spreads: self.spreads,
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
            knox_done: 0,
            knox_bad: false,
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
                for (p, to, info, state) in outs.drain(..) {
                    if p.is_zero() {
                        continue;
                    }
                    let ok = match (&self.checks, &to) {
                        (Some(c), To::State(_)) => self.meets_evidence(c, s, rec, info.as_ref()),
                        _ => true,
                    };
                    let to = match (to, state) {
                        (To::State(_), Some(st)) => To::State(next.intern(st)),
                        (t, _) => t,
                    };
                    let info = presents.id(info);
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
                placements: self.placements[sent_placements..].to_vec(),
                spread_levels: self.spreads[sent_spreads..]
                    .iter()
                    .map(|sp| sp.at.iter().fold(0, |m, x| m | bit(x.level)))
                    .collect(),
            });
            (sent_placements, sent_spreads) = (self.placements.len(), self.spreads.len());
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

/// The branch end an edge adds to its parent that counts for bones (a
/// deferred run's are judged at the run's start, [`Runs`]).
fn added_end(layer: &Layer, e: &Edge, runs: &Runs<'_>) -> Option<(u32, i32)> {
    let b = layer.info(e)?.branch?;
    let member = runs.of(layer, e).is_some_and(|sp| sp.member);
    (!b.floated && !member).then_some((b.parent, b.level))
}

/// The deferred runs, for the backward pass.
struct Runs<'r> {
    spreads: &'r [Spread],
    dists: &'r [RunDist],
}

impl Runs<'_> {
    /// The spread of an edge's branch.
    fn of(&self, layer: &Layer, e: &Edge) -> Option<&Spread> {
        let b = layer.info(e)?.branch?;
        Some(&self.spreads[b.spread? as usize])
    }

    /// The backward values of the levels a run from state `b` may take,
    /// from the chances that each of its branches is the first to end on a
    /// level (no later branch lands there: [`Engine::deferred_spread`]).
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
/// ([`Engine::future_mask`]); each layer's become its values' masks. On any
/// other level no later branch ends: there the values are the chance of
/// success and nothing else, so only reached levels are stored
/// ([`BackAt::ends_at`]). Masks only shrink from a layer to the next, which
/// makes that hold by induction from the last layer, where nothing is
/// live. `classes(record, edge)`: the other-end classes an edge's entry
/// level brings to the parent level its branch ends on.
fn backward(
    layers: &[Layer],
    mut reach: Reach,
    terminal_fail: &[Option<FailKey>],
    classes: &(dyn Fn(usize, &Edge) -> [W; ENDS] + Sync),
    runs: &Runs<'_>,
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
        // In a deferred run after its start, the run's levels have no
        // values (see `Back::ends`): not kept.
        let mut deferred = vec![None; layer.states.len()];
        for e in &layer.edges {
            if let Some(sp) = runs.of(layer, e).filter(|sp| sp.pos > 0) {
                deferred[e.from as usize] = Some((sp.owner, runs.dists[sp.dist as usize].span));
            }
        }
        // The layer's masks become its values' (read nowhere else).
        let (starts, mut masks) = std::mem::take(&mut reach.layers[i]);
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
        let mut here = Back::new(starts, masks);
        let nxt = &after;
        // A state's values are summed with their bounds, over its edges,
        // then stored (`Back::ends`).
        let mut order: Vec<u32> = (0..layer.edges.len() as u32)
            .filter(|&k| layer.edges[k as usize].ok)
            .collect();
        order.sort_by_key(|&k| layer.edges[k as usize].from);
        let from_of = |&k: &u32| layer.edges[k as usize].from as usize;
        halves(&order, from_of, here.part(), |part, mut cur, _| {
            let mut sums: Vec<[W; 1 + ENDS]> = Vec::new();
            for group in
                part.chunk_by(|&a, &b| layer.edges[a as usize].from == layer.edges[b as usize].from)
            {
                let from = layer.edges[group[0] as usize].from as usize;
                let here = from - cur.base;
                // A deferred run that starts here: its dist and parent.
                let mut start = None;
                sums.clear();
                sums.resize(cur.state(from).1.len(), [W::ZERO; 1 + ENDS]);
                for &ek in group {
                    let e = &layer.edges[ek as usize];
                    let To::State(t) = e.to else { continue };
                    let t = t as usize;
                    let succ = nxt.succ[t];
                    cur.succ[here] += e.p * succ;
                    // A sub after the run's last member reads nothing of it.
                    if let Some(sp) = runs.of(layer, e).filter(|sp| sp.member || sp.pos > 0) {
                        let dist = &runs.dists[sp.dist as usize];
                        let pos = usize::from(sp.pos);
                        let run = &mut cur.run[here];
                        if run.is_empty() {
                            *run = vec![[W::ZERO; ENDS]; dist.marg.len()];
                            if pos == 0 {
                                start = Some((sp.dist, sp.owner));
                            }
                        }
                        // A member's entry brings its class to its level; a sub's
                        // state passes the members after it on.
                        let later_from = if sp.member {
                            let c = classes(i, e);
                            for (k, c) in c.iter().enumerate() {
                                run[pos][k] += e.p * *c * succ;
                            }
                            pos + 1
                        } else {
                            pos
                        };
                        for (j, acc) in run.iter_mut().enumerate().skip(later_from) {
                            let later = nxt.run[t].get(j).copied().unwrap_or([W::ZERO; ENDS]);
                            for (a, g) in acc.iter_mut().zip(later) {
                                *a += e.p * g;
                            }
                        }
                    }
                    let s = &layer.states[from];
                    let added = added_end(layer, e, runs);
                    let to_live = &layers[i + 1].states[t].live;
                    let to_reach = nxt.reach(t);
                    let masks = cur.state(from).0;
                    // Both states' live dungeons are in record order: the
                    // next state's are walked once, with where their
                    // values start.
                    let (mut p, mut p_at) = (0, 0);
                    let mut k = 0;
                    for (li, live) in s.live.iter().enumerate() {
                        while p < to_live.len() && to_live[p].record < live.record {
                            p_at += to_reach.get(p).map_or(0, |m| m.count_ones() as usize);
                            p += 1;
                        }
                        // As `ends_at` reads them, a dungeon at a time.
                        let next_ends = if to_live.get(p).is_some_and(|l| l.record == live.record) {
                            nxt.ends_of(t, p, p_at)
                        } else {
                            (0, &[][..], 0.0)
                        };
                        let mut levels = masks.get(li).copied().unwrap_or(0);
                        while levels != 0 {
                            let l = levels.trailing_zeros() as usize;
                            levels &= levels - 1;
                            let adds = added == Some((u32::from(live.record), l as i32));
                            let v: [W; 1 + ENDS] = if adds {
                                let c = classes(i, e);
                                [W::ZERO, c[0] * succ, c[1] * succ, c[2] * succ]
                            } else {
                                level_in(next_ends, l).unwrap_or([succ, W::ZERO, W::ZERO, W::ZERO])
                            };
                            for (acc, x) in sums[k].iter_mut().zip(v) {
                                *acc += e.p * x;
                            }
                            k += 1;
                        }
                    }
                }
                let mut err = largest_bound(sums.iter().flatten());
                let (run, succ) = (std::mem::take(&mut cur.run[here]), cur.succ[here]);
                let (masks, ends) = cur.state(from);
                for (to, sum) in ends.iter_mut().zip(&sums) {
                    *to = sum.map(|w| w.v);
                }
                // Where a deferred run starts, its levels' values are the
                // run's, now that its chances per branch are summed.
                if let Some((dist, parent)) = start {
                    let live = &layer.states[from].live;
                    if let Some(li) = live.iter().position(|l| u32::from(l.record) == parent) {
                        let dist = &runs.dists[dist as usize];
                        runs.judge((&run, succ), masks, ends, &mut err, li, dist);
                    }
                }
                cur.run[here] = run;
                cur.err[here] = err;
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

#[cfg(test)]
mod span_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn span_mask_is_the_levels_bits(start in -100i32..100, count in -10i32..120) {
            let slow = (start..start + count).fold(0, |m, l| m | bit(l));
            prop_assert_eq!(span_mask(start, count), slow);
        }
    }
}
