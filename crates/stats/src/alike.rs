//! Outcomes that the statistics judge alike but for their chance.
//!
//! `exact::present` adds an outcome's weight to every table, and each of its
//! terms is the outcome's chance times something that depends only on the
//! dungeon's outcome, the chance that the rest succeeds and the backward
//! values of the dungeon's own levels (and, for a plain branch, the chance
//! that its parent level is a no-bones level). The largest files reach the
//! same such outcome from thousands of states (the Gehennom of dNetHack's
//! 11,040 Dungeons of Doom is one of five), so the outcomes are grouped on
//! all of that and each group is judged once with the sum of its chances:
//! a million judgements become some tens of thousands, each as exact (the
//! weights carry their error bounds through the sums).

use super::acc::END_PLAIN;
use super::engine::{CoreOf, Edge, Enumeration, Present, PresentKey};
use super::fxhash::FxHashMap;
use super::weight::W;

/// What `present` reads of an outcome besides its chance.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    index: u32,
    p: [u64; 2],
    /// The outcome, its branch's spread left out (`present` reads the
    /// level each spread level gives, which is in the outcome), by its
    /// number in [`Alike::bare`].
    present: u32,
    /// The chance that a plain branch's parent level is a no-bones level.
    q: [u64; 2],
    /// The state after it, by [`After`].
    after: u32,
    /// A chance of zero with an error bound is not merged with positive
    /// ones: what is possible follows from which weights are positive.
    positive: bool,
}

fn bits(w: W) -> [u64; 2] {
    [w.v.to_bits(), w.e.to_bits()]
}

/// The states of one layer numbered by what `present` reads of them for
/// the dungeon the layer's outcomes created: the chance that the rest
/// succeeds and the backward values of that dungeon's levels.
pub(crate) struct After {
    class: Vec<u32>,
}

impl After {
    /// For the states of layer `i + 1` (after dungeon record `i`).
    pub(crate) fn of(run: &Enumeration, i: usize) -> After {
        let mut ids: FxHashMap<Vec<u64>, u32> = FxHashMap::default();
        let mut key: Vec<u64> = Vec::new();
        let class = run.layers[i + 1]
            .states
            .iter()
            .enumerate()
            .map(|(t, s)| {
                let back = run.back[i + 1].at(t);
                key.clear();
                key.extend(bits(back.succ));
                if let Some(p) = s.live.iter().position(|l| usize::from(l.record) == i) {
                    // Levels outside the mask read as the chance of success.
                    let (mask, ends, err) = back.ends_of(p);
                    key.push(mask);
                    if mask != 0 {
                        key.push(err.to_bits());
                    }
                    key.extend(ends.iter().flatten().map(|v| v.to_bits()));
                }
                if let Some(&id) = ids.get(key.as_slice()) {
                    return id;
                }
                let n = ids.len() as u32;
                ids.insert(key.clone(), n);
                n
            })
            .collect();
        After { class }
    }
}

/// What [`Alike::add`] takes for outcome `info` of dungeon record `i`
/// from state `from`: the core masses of its branch's parent when the
/// branch is plain (a no-bones parent level brings rule 12), else none.
pub(crate) fn core<'e>(
    run: &'e Enumeration,
    i: usize,
    from: usize,
    info: &Present,
) -> Option<CoreOf<'e>> {
    match info.branch {
        Some(b) if b.other == END_PLAIN && !b.floated => Some(run.core_of(i, from, b.parent)),
        _ => None,
    }
}

/// One group: its first outcome, and the sum of its outcomes' chances.
pub(crate) struct Group<'r> {
    pub index: u32,
    pub e: &'r Edge,
    pub info: Present,
    pub t: usize,
    pub a: W,
}

/// The outcomes of one layer, grouped, in the order their groups were met.
#[derive(Default)]
pub(crate) struct Alike<'r> {
    keys: FxHashMap<Key, u32>,
    pub groups: Vec<Group<'r>>,
    /// The outcomes met, their spreads left out, numbered: a layer's edges
    /// share a few thousand, and a number hashes in one word.
    bare: FxHashMap<PresentKey, u32>,
    /// Per outcome of the layer ([`Edge::info`]) and level of its spread
    /// (0 without one): its number in `bare`, once met.
    known: FxHashMap<(u32, u32), u32>,
}

impl<'r> Alike<'r> {
    /// Adds outcome `info` of dungeon record `i` at dungeon index `index`
    /// (the edge's outcome, at level `at` of its spread): edge `e`, reached
    /// with chance `a`, to state `t`; `core`: [`Enumeration::core_of`] of
    /// the branch's parent in the state it leaves, for a plain branch (see
    /// [`core`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn add(
        &mut self,
        after: &After,
        index: u32,
        (e, at): (&'r Edge, u32),
        info: Present,
        core: Option<&CoreOf<'_>>,
        a: W,
        t: usize,
    ) {
        let q = match (info.branch, core) {
            (Some(b), Some(core)) => core.at(b.level),
            _ => W::ZERO,
        };
        let present = match self.known.get(&(e.info, at)) {
            Some(&id) => id,
            None => {
                let mut bare = info.clone();
                if let Some(b) = &mut bare.branch {
                    b.spread = None;
                }
                let n = self.bare.len() as u32;
                let id = *self.bare.entry(bare.key()).or_insert(n);
                self.known.insert((e.info, at), id);
                id
            }
        };
        let key = Key {
            index,
            p: bits(e.p),
            present,
            q: bits(q),
            after: after.class[t],
            positive: a.v > 0.0,
        };
        match self.keys.get(&key) {
            Some(&g) => {
                let g = &mut self.groups[g as usize];
                g.a += a;
            }
            None => {
                self.keys.insert(key, self.groups.len() as u32);
                self.groups.push(Group {
                    index,
                    e,
                    info,
                    t,
                    a,
                });
            }
        }
    }
}
