//! The forward pass's graph: per dungeon record, a layer of distinct
//! states and the edges from them, each with its chance and outcome.
//! Invariant: a layer's states are numbered in the order they were first
//! made, and an outcome is stored once per layer.

use super::state::{Interned, State};
use crate::fxhash::FxHashMap;
use crate::weight::W;

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
    /// level's other end brings rule 11 ([`crate::acc::END_QUEST`]); otherwise
    /// [`crate::acc::END_PLAIN`], and [`super::Enumeration::core_at`] tells whether it brings rule 12.
    pub other: usize,
    /// A branch of a deferred run: its level is one of [`super::Enumeration::spreads`]'
    /// entry's, each with its chance (then `level`, `depth` and the
    /// outcome's `depth_start` are the first of them).
    pub spread: Option<u32>,
}

/// A dungeon that exists in an outcome.
#[derive(Clone, Debug)]
pub struct Present {
    pub n: i32,
    /// After the `dummy` fix-up, as layouts report it.
    pub depth_start: i32,
    pub entry: i32,
    pub branch: Option<BranchInfo>,
    /// The placement ([`super::Enumeration::placements`]), which also says which of the
    /// dungeon's level records exist ([`super::Enumeration::patterns`]).
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
    /// The outcome meets the evidence ([`super::Engine::with_evidence`]; always,
    /// without one). The statistics follow only such edges; failures are
    /// counted over all of them.
    pub ok: bool,
}

/// [`Edge::info`] of an edge without an outcome.
pub const NO_INFO: u32 = u32::MAX;

#[derive(Clone, Default)]
pub struct Layer {
    pub states: Vec<State>,
    pub(super) index: FxHashMap<Interned, u32>,
    /// Edges from this layer's states (to the next layer).
    pub edges: Vec<Edge>,
    /// The outcomes the edges have, each once: thousands of states share a
    /// few (every Gehennom of a size is the same), and an edge is a third
    /// the size with a number instead.
    pub presents: Vec<Present>,
}

/// A layer's outcomes as its edges are made.
#[derive(Default)]
pub(super) struct Presents {
    pub(super) list: Vec<Present>,
    pub(super) ids: FxHashMap<PresentKey, u32>,
}

impl Presents {
    /// [`Edge::info`] for an outcome.
    pub(super) fn id(&mut self, info: Option<Present>) -> u32 {
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
    pub(super) fn intern(&mut self, s: State) -> u32 {
        let n = self.index.len() as u32;
        *self.index.entry(Interned(s)).or_insert(n)
    }

    /// Moves the interned states into `states`, in number order.
    pub(super) fn seal(&mut self) {
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
