//! The tail of a placement search ([`crate::place`]) whose levels are
//! interchangeable spots.
//!
//! Once the search reaches a run of levels that end the dungeon, none of
//! them chained to another of the run or read by one, every level of the
//! run picks among the free levels of a range that is fixed when the run
//! starts. Levels of `1..=n` that lie in exactly the same ranges of the
//! run (an *atom*) are then alike for the rest of the search: swapping two
//! free ones changes no range and no count. So the rest depends only on
//! how many levels of each atom are taken, not on which, and by the same
//! symmetry each free level of an atom is equally likely to receive any
//! given level of the run. The search from the run's start is therefore
//! done over counts per atom (a few hundred states where the levels
//! themselves give hundreds of thousands: UnNetHack's nine optional
//! `heck` levels over 17 levels of Gehennom, SLASH'EM's rooms over 20
//! levels of the Dungeons of Doom), and each level's chance of each free
//! level is its chance of the atom divided by the atom's free levels.
//!
//! Without a range that aborts, a sub-search either always finds a
//! placement or never does, so `place_level()`'s retries amount to a
//! uniform choice among the candidates whose sub-search succeeds
//! ([`crate::place`]'s `F_v` with every `pf` 0 or 1).
//!
//! A *kept* level of the run (one whose level the caller reads after the
//! placement: a branch is placed on it) must be known jointly with every
//! other level's, not only its chance of each level. The run's outcome is
//! then split by the atoms the kept levels take: the sub-search from a
//! node never depends on how it was reached, so a forward pass over the
//! nodes (the kept levels' atoms so far, with their chance) meets a
//! backward one (the chances of the kept levels' atoms still to come) at
//! every step. Given the atom every level of the run takes, the levels
//! within each atom are a uniformly random assignment of its free levels
//! (each level picks uniformly among the free ones of the atom it takes),
//! so every choice of distinct levels for the kept levels in their atoms
//! is equally likely, and the other levels of an atom spread evenly over
//! its free levels the kept ones leave. That is how dNetHack's Dungeons of
//! Doom, whose three alignment quest portal levels share eight levels at
//! its bottom, are solved over counts.
//!
//! A level of the tail whose chance roll is not enumerated (a *mixed*
//! level: the roll is made before the search, so each outcome of the rolls
//! is a search of its own) is a chance node here, which is exact as long
//! as whether a sub-search succeeds does not depend on the rolls: then
//! every candidate is tried and kept alike whatever the rolls, and each
//! roll's outcome only weighs the levels' chances. When it does depend on
//! them, [`Status::Mixed`] says so and the caller enumerates the rolls.

use super::fxhash::FxHashMap;
use super::weight::W;

/// One level of the tail's run of levels (not a deferred run of side
/// branches, [`crate::runs`]): its range `start..start + count` (in `1..=63`),
/// its chance of existing in percent (100, or a mixed level's roll), and
/// whether the caller keeps its level ([`Solved::kept`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TailLevel {
    pub start: i32,
    pub count: i32,
    pub chance: u8,
    pub kept: bool,
}

/// At most this many outcomes of a run's kept levels (the product of
/// their ranges' widths), each a class of the placement.
pub const MAX_KEPT_OUTCOMES: u64 = 1 << 14;

/// Atoms of the levels the ranges of a run cover.
struct Shape {
    /// Each atom's levels, and how many.
    atoms: Vec<u64>,
    sizes: Vec<u8>,
    /// Per level of the run: its chance of existing, in percent.
    chances: Vec<u8>,
    /// Per level of the run: the atoms in its range (bit per atom).
    range_atoms: Vec<u64>,
    /// Per level of the run, when it is kept: the atoms of its range, and
    /// what one atom more adds to the index of the kept levels' atoms (in
    /// mixed radix, the first kept level's digit lowest).
    kept: Vec<Option<(u64, u32)>>,
    /// The number of outcomes of the kept levels' atoms (1 without any).
    outcomes: u32,
    memo: FxHashMap<Key, u32>,
    nodes: Vec<TNode>,
    /// Once entries are moved from this shape ([`Shape::give`]): each
    /// entry's key, until moved, and its number where it went.
    given: Vec<(Option<Key>, u32)>,
}

/// A sub-search's memo key: the level of the run it starts from, and the
/// levels taken per atom.
type Key = (u8, Vec<u8>);

/// A step that places no level: a mixed level that does not exist.
const ABSENT: u8 = u8::MAX;

/// Whether a sub-search succeeds, over the outcomes of the mixed levels'
/// rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Always,
    Never,
    /// For some outcomes and not others.
    Mixed,
}

/// The search from level `i` of the run with some counts taken per atom.
struct TNode {
    /// The level of the run it starts from.
    i: u8,
    status: Status,
    /// Atoms that may end with a free level (bit per atom).
    not_full: u64,
    /// Per level `i..` of the run, per atom: the chance that the level
    /// exists and ends in the atom (given success, when it is certain).
    /// Only for runs without kept levels, whose starts read it alone.
    marg: Vec<W>,
    /// For runs with kept levels: the steps to the nodes of level `i + 1`
    /// when the search succeeds, `(atom or ABSENT, chance, node)`.
    next: Vec<(u8, W, u32)>,
}

/// One solved start of a run: whether it succeeds, and per outcome of its
/// kept levels the chance of each level of the dungeon for every level of
/// the run.
pub struct Solved {
    pub status: Status,
    /// The outcomes of the run's kept levels when it succeeds: a single
    /// one, of no levels, when it keeps none.
    pub kept: Vec<KeptOutcome>,
    /// `(outcome, run index, level, chance jointly with the outcome)`.
    pub at: Vec<(u32, u16, u8, W)>,
    /// Memo entries made for this start.
    pub nodes: usize,
}

/// One outcome of the atoms a run's kept levels take ([`Shape::by_kept`]).
struct ByAtoms {
    /// Its index, in [`Shape::kept`]'s mixed radix.
    index: u32,
    p: W,
    /// Atoms that may end not full.
    not_full: u64,
    /// Per level of the run and atom, the chance of taking it jointly with
    /// the outcome.
    joint: Vec<W>,
}

/// What every outcome of the kept levels' levels of one [`ByAtoms`]
/// shares ([`Shape::by_levels`]).
struct Choice<'a> {
    /// Per kept level: its level in the run and the free levels of its
    /// atom.
    kept_at: &'a [(usize, u64)],
    /// [`ByAtoms::joint`].
    joint: &'a [W],
    /// The outcome's chance, and the share of the atoms' outcome each
    /// choice has.
    p: W,
    scale: W,
    /// Levels that may be left free, the kept levels' apart.
    may_be_free: u64,
}

/// One outcome of the kept levels of a solved run.
pub struct KeptOutcome {
    /// The kept levels' levels, in run order.
    pub levels: Vec<u8>,
    pub p: W,
    /// Levels that may be left free by the run with this outcome (of
    /// those its ranges cover); the others it always fills or finds taken.
    pub may_be_free: u64,
}

/// Memoises runs by their ranges, and their sub-searches by counts.
#[derive(Default)]
pub struct Tails {
    shapes: FxHashMap<Vec<TailLevel>, u32>,
    all: Vec<Shape>,
    /// While recording ([`Tails::record`]): each shape's entries when it
    /// began.
    recording: Option<Vec<usize>>,
}

/// The entries a memo made while recording, to be moved to another memo
/// ([`Tails::replay`]).
#[derive(Default)]
pub struct Asked {
    /// How many.
    pub made: usize,
    /// Per shape that made some: its run, its number on the memo and the
    /// numbers of the entries made.
    made_in: Vec<(Vec<TailLevel>, u32, std::ops::Range<u32>)>,
}

/// At most this many atoms (the bit sets above are `u64`); a run with
/// more is searched level by level.
const MAX_ATOMS: usize = 64;

fn mask(start: i32, count: i32) -> u64 {
    if count <= 0 || start < 0 || start + count > 64 {
        return 0;
    }
    (u64::MAX >> (64 - count)) << start
}

/// The atoms of a run's ranges: levels by the ranges they lie in.
/// `(levels, ranges they lie in)` per atom, in level order; also the
/// estimate of [`crate::place`]'s choice of where a tail starts.
pub fn atoms(run: &[TailLevel]) -> Vec<(u64, u64)> {
    let mut by_sig: Vec<(u64, u64)> = Vec::new();
    for l in 0..64u32 {
        let sig = run
            .iter()
            .enumerate()
            .filter(|(_, r)| mask(r.start, r.count) & (1u64 << l) != 0)
            .fold(0u64, |s, (i, _)| s | (1u64 << i));
        if sig == 0 {
            continue;
        }
        match by_sig.iter_mut().find(|(_, s)| *s == sig) {
            Some((m, _)) => *m |= 1u64 << l,
            None => by_sig.push((1u64 << l, sig)),
        }
    }
    by_sig
}

impl Tails {
    /// Memo entries held, over every run.
    #[cfg(test)]
    pub fn entries(&self) -> usize {
        self.all.iter().map(|s| s.nodes.len()).sum()
    }

    /// From now on, notes the entries made ([`Tails::recorded`]).
    pub fn record(&mut self) {
        self.recording = Some(self.all.iter().map(|s| s.nodes.len()).collect());
    }

    /// The entries made since [`Tails::record`], which ends the notes.
    pub fn recorded(&mut self) -> Asked {
        let Some(before) = self.recording.take() else {
            return Asked::default();
        };
        let mut asked = Asked::default();
        let mut runs: Vec<(&Vec<TailLevel>, u32)> =
            self.shapes.iter().map(|(run, &id)| (run, id)).collect();
        runs.sort_unstable_by_key(|&(_, id)| id);
        for (run, id) in runs {
            let from = before.get(id as usize).copied().unwrap_or(0);
            let to = self.all[id as usize].nodes.len();
            if to > from {
                asked.made += to - from;
                asked
                    .made_in
                    .push((run.clone(), id, from as u32..to as u32));
            }
        }
        asked
    }

    /// Moves to this memo the entries `asked` says `from` made that this
    /// one lacks, in order; returns how many. The placements searched on
    /// `from` (a thread's memo, searched on in the order they are replayed)
    /// reach, besides the entries they made there, only entries an earlier
    /// placement made there, replayed before them. So this memo ends as it
    /// would have had the placements been searched on it, entry for entry
    /// in the same order, and the count is what they would have added:
    /// placements searched on other memos and replayed in order count the
    /// work of one memo. `from` is left unfit for solving.
    pub fn replay(&mut self, asked: &Asked, from: &mut Tails) -> usize {
        let mut added = 0;
        for (run, theirs, made) in &asked.made_in {
            let Some(other) = from.all.get_mut(*theirs as usize) else {
                continue;
            };
            let whole = made.start == 0 && made.end as usize == other.nodes.len();
            if whole && !self.shapes.contains_key(run) {
                // A run new here whose entries one placement made, the
                // most common case: the shape itself, rather than a copy
                // beside what `from` holds until it is dropped.
                let Some(emptied) = Shape::new(run) else {
                    continue;
                };
                let shape = std::mem::replace(other, emptied);
                added += shape.nodes.len();
                self.shapes.insert(run.clone(), self.all.len() as u32);
                self.all.push(shape);
                continue;
            }
            let Some(id) = self.shape_id(run) else {
                continue;
            };
            added += self.all[id as usize].give(other, made.clone());
        }
        added
    }

    /// The number of `run`'s shape, made when new; `None` when it has too
    /// many atoms or kept levels.
    fn shape_id(&mut self, run: &[TailLevel]) -> Option<u32> {
        if let Some(&id) = self.shapes.get(run) {
            return Some(id);
        }
        let shape = Shape::new(run)?;
        let id = self.all.len() as u32;
        self.all.push(shape);
        self.shapes.insert(run.to_vec(), id);
        Some(id)
    }

    /// The shape of `run` and the node of its start from `taken`, with the
    /// entries that made; `None` when it has too many atoms or kept levels.
    fn root(&mut self, run: &[TailLevel], taken: u64) -> Option<(u32, u32, usize)> {
        let id = self.shape_id(run)?;
        let shape = &mut self.all[id as usize];
        let before = shape.nodes.len();
        let counts = shape.counts(taken);
        let root = shape.node(0, counts);
        Some((id, root, shape.nodes.len() - before))
    }

    /// Solves the run of levels `run` (at most 63) from the levels `taken`
    /// before it; `None` when it has too many atoms or kept levels.
    pub fn solve(&mut self, run: &[TailLevel], taken: u64) -> Option<Solved> {
        let (id, root, made) = self.root(run, taken)?;
        let shape = &self.all[id as usize];
        let status = shape.nodes[root as usize].status;
        let mut kept = Vec::new();
        let mut at = Vec::new();
        if status == Status::Always {
            if shape.has_kept() {
                for by_atoms in shape.by_kept(root) {
                    shape.by_levels(&by_atoms, taken, &mut kept, &mut at);
                }
            } else {
                let node = &shape.nodes[root as usize];
                kept.push(KeptOutcome {
                    levels: Vec::new(),
                    p: W::ONE,
                    may_be_free: shape.may_be_free(node.not_full),
                });
                shape.spread(
                    0,
                    |i, a| node.marg[i * shape.atoms.len() + a],
                    taken,
                    &mut at,
                );
            }
        }
        Some(Solved {
            status,
            kept,
            at,
            nodes: made,
        })
    }
}

impl Shape {
    fn new(run: &[TailLevel]) -> Option<Shape> {
        if run.len() > 63 || kept_outcomes(run) > MAX_KEPT_OUTCOMES {
            return None;
        }
        let by_sig = atoms(run);
        if by_sig.len() > MAX_ATOMS {
            return None;
        }
        let range_atoms: Vec<u64> = (0..run.len())
            .map(|i| {
                by_sig
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, sig))| sig & (1u64 << i) != 0)
                    .fold(0u64, |m, (a, _)| m | (1u64 << a))
            })
            .collect();
        let mut kept = Vec::with_capacity(run.len());
        let mut stride = 1u32;
        for (r, &ra) in run.iter().zip(&range_atoms) {
            kept.push(r.kept.then_some((ra, stride)));
            if r.kept {
                stride *= ra.count_ones();
            }
        }
        Some(Shape {
            chances: run.iter().map(|r| r.chance).collect(),
            sizes: by_sig.iter().map(|(m, _)| m.count_ones() as u8).collect(),
            atoms: by_sig.into_iter().map(|(m, _)| m).collect(),
            range_atoms,
            kept,
            outcomes: stride,
            memo: FxHashMap::default(),
            nodes: Vec::new(),
            given: Vec::new(),
        })
    }

    /// The levels `taken` holds in each atom.
    fn counts(&self, taken: u64) -> Vec<u8> {
        self.atoms
            .iter()
            .map(|&a| (a & taken).count_ones() as u8)
            .collect()
    }

    /// [`Tails::replay`] for the entries `made` of `other` (the same run's
    /// shape), whose sub-searches are in `made` or were given before;
    /// returns how many this shape lacked.
    fn give(&mut self, other: &mut Shape, made: std::ops::Range<u32>) -> usize {
        if other.given.len() < other.nodes.len() {
            other.given.resize(other.nodes.len(), (None, u32::MAX));
            // Freed now rather than with the memo: the table is most of
            // what the entries leave behind once moved.
            for (key, id) in std::mem::take(&mut other.memo) {
                if let Some(slot) = other.given.get_mut(id as usize) {
                    slot.0 = Some(key);
                }
            }
        }
        // Most runs' entries come from one placement's search: room for
        // them at once, not by doubling, which would leave up to half of
        // each new shape's memo unused.
        if self.nodes.is_empty() {
            self.nodes.reserve_exact(made.len());
            self.memo.reserve(made.len());
        }
        let mut added = 0;
        for id in made {
            let Some(key) = other.given.get_mut(id as usize).and_then(|g| g.0.take()) else {
                continue;
            };
            let mine = match self.memo.get(&key) {
                Some(&mine) => mine,
                None => {
                    let slot = &mut other.nodes[id as usize];
                    let mut node = TNode {
                        i: slot.i,
                        status: slot.status,
                        not_full: slot.not_full,
                        marg: std::mem::take(&mut slot.marg),
                        next: std::mem::take(&mut slot.next),
                    };
                    for step in &mut node.next {
                        step.2 = other.given.get(step.2 as usize).map_or(u32::MAX, |g| g.1);
                    }
                    added += 1;
                    if node.next.iter().any(|step| step.2 == u32::MAX) {
                        // A sub-search not given: made here instead, to the
                        // same entries.
                        let before = self.nodes.len();
                        let mine = self.node(usize::from(key.0), key.1);
                        added += self.nodes.len() - before - 1;
                        other.given[id as usize].1 = mine;
                        continue;
                    }
                    let mine = self.nodes.len() as u32;
                    self.nodes.push(node);
                    self.memo.insert(key, mine);
                    mine
                }
            };
            other.given[id as usize].1 = mine;
        }
        added
    }

    fn has_kept(&self) -> bool {
        self.kept.iter().any(Option::is_some)
    }

    /// What level `i` of the run on atom `a` adds to the index of the
    /// kept levels' atoms (0 when level `i` is not kept).
    fn kept_digit(&self, i: usize, a: u8) -> u32 {
        match self.kept[i] {
            Some((ra, stride)) if a != ABSENT => (ra & ((1u64 << a) - 1)).count_ones() * stride,
            _ => 0,
        }
    }

    /// The atom kept level `i` takes in the outcome `t` of the kept
    /// levels' atoms.
    fn kept_atom(&self, i: usize, t: u32) -> usize {
        let Some((ra, stride)) = self.kept[i] else {
            return usize::MAX;
        };
        let mut rest = ra;
        for _ in 0..(t / stride) % ra.count_ones() {
            rest &= rest - 1;
        }
        rest.trailing_zeros() as usize
    }

    /// Pushes onto `at`, for outcome `o`, each level of the run not kept
    /// spread evenly over the free levels of each atom: `p(i, a)` is the
    /// chance (jointly with the outcome) that level `i` takes atom `a`,
    /// and `taken` the levels taken before the run and by its kept levels.
    fn spread(
        &self,
        o: u32,
        p: impl Fn(usize, usize) -> W,
        taken: u64,
        at: &mut Vec<(u32, u16, u8, W)>,
    ) {
        for i in (0..self.range_atoms.len()).filter(|&i| self.kept[i].is_none()) {
            for (a, &atom) in self.atoms.iter().enumerate() {
                let p = p(i, a);
                let free = atom & !taken;
                if p.is_zero() || free == 0 {
                    continue;
                }
                let each = p * W::ratio(1, u64::from(free.count_ones()));
                let mut rest = free;
                while rest != 0 {
                    let l = rest.trailing_zeros();
                    rest &= rest - 1;
                    at.push((o, i as u16, l as u8, each));
                }
            }
        }
    }

    /// The outcomes of the kept levels' levels given their atoms: every
    /// choice of distinct free levels in those atoms, equally likely, each
    /// an outcome of [`Solved::kept`] with every level of the run in `at`.
    fn by_levels(
        &self,
        by_atoms: &ByAtoms,
        taken: u64,
        kept: &mut Vec<KeptOutcome>,
        at: &mut Vec<(u32, u16, u8, W)>,
    ) {
        let kept_at: Vec<(usize, u64)> = (0..self.kept.len())
            .filter(|&i| self.kept[i].is_some())
            .map(|i| (i, self.atoms[self.kept_atom(i, by_atoms.index)] & !taken))
            .collect();
        // The number of choices: per atom, its free levels' falling
        // factorial by the number of kept levels in it.
        let mut choices = 1u64;
        for (q, &(_, free)) in kept_at.iter().enumerate() {
            let before = kept_at[..q].iter().filter(|&&(_, f)| f == free).count() as u32;
            choices = choices.saturating_mul(u64::from(free.count_ones().saturating_sub(before)));
        }
        if choices == 0 {
            return;
        }
        let choice = Choice {
            kept_at: &kept_at,
            joint: &by_atoms.joint,
            p: by_atoms.p * W::ratio(1, choices),
            scale: W::ratio(1, choices),
            may_be_free: self.may_be_free(by_atoms.not_full),
        };
        let mut levels = Vec::with_capacity(kept_at.len());
        self.choose(&choice, taken, 0, &mut levels, kept, at);
    }

    /// [`Shape::by_levels`] from kept level `levels.len()` on, the earlier
    /// ones on `levels` and `used` the levels taken so far.
    fn choose(
        &self,
        choice: &Choice<'_>,
        used: u64,
        q: usize,
        levels: &mut Vec<u8>,
        kept: &mut Vec<KeptOutcome>,
        at: &mut Vec<(u32, u16, u8, W)>,
    ) {
        if let Some(&(_, free)) = choice.kept_at.get(q) {
            let mut rest = free & !used;
            while rest != 0 {
                let l = rest.trailing_zeros();
                rest &= rest - 1;
                levels.push(l as u8);
                self.choose(choice, used | (1u64 << l), q + 1, levels, kept, at);
                levels.pop();
            }
            return;
        }
        let o = kept.len() as u32;
        let mine = used & choice.kept_at.iter().fold(0u64, |m, &(_, f)| m | f);
        kept.push(KeptOutcome {
            levels: levels.clone(),
            p: choice.p,
            may_be_free: choice.may_be_free & !mine,
        });
        for (&(i, _), &l) in choice.kept_at.iter().zip(levels.iter()) {
            at.push((o, i as u16, l, choice.p));
        }
        let na = self.atoms.len();
        self.spread(o, |i, a| choice.joint[i * na + a] * choice.scale, used, at);
    }

    /// The levels that may be left free given the atoms that may end not
    /// full.
    fn may_be_free(&self, not_full: u64) -> u64 {
        let always_full = self
            .atoms
            .iter()
            .enumerate()
            .filter(|&(a, _)| not_full & (1u64 << a) == 0)
            .fold(0u64, |m, (_, &atom)| m | atom);
        !always_full
    }

    /// A run with kept levels, from `root`: per outcome of the kept levels'
    /// atoms, its chance, the atoms that may end not full, and per level of
    /// the run and atom the chance jointly with the outcome. The chance
    /// that level `i` takes atom `a` and the outcome is `t` sums, over the
    /// nodes `x` of level `i`, the chance of reaching `x` with the kept
    /// levels before `i` as in `t`, times the step's, times the chance of
    /// the rest of `t` from the step's node.
    fn by_kept(&self, root: u32) -> Vec<ByAtoms> {
        let suffixes = self.suffixes(root);
        let na = self.atoms.len();
        let len = self.range_atoms.len();
        let width = len * na;
        let mut joint = vec![W::ZERO; self.outcomes as usize * width];
        // The nodes of the current level, each with the chances of the
        // kept levels' outcomes before it.
        // Nodes in the order the steps first reach them, not by number: a
        // node's number depends on what the memo held before (the engine
        // shares it between placements, or gives each its own), and the
        // sums below must not.
        let mut here: Vec<(u32, Vec<(u32, W)>)> = vec![(root, vec![(0, W::ONE)])];
        let mut slot: FxHashMap<u32, usize> = FxHashMap::default();
        for i in 0..len {
            let mut reached: Vec<(u32, Vec<(u32, W)>)> = Vec::new();
            slot.clear();
            for (x, before) in &here {
                for &(a, w, child) in &self.nodes[*x as usize].next {
                    let digit = self.kept_digit(i, a);
                    let k = *slot.entry(child).or_insert_with(|| {
                        reached.push((child, Vec::new()));
                        reached.len() - 1
                    });
                    reached[k]
                        .1
                        .extend(before.iter().map(|&(t, f)| (t + digit, f * w)));
                    if a == ABSENT {
                        continue;
                    }
                    let col = i * na + usize::from(a);
                    for &(t, f) in before {
                        let fw = f * w;
                        for &(rest, b) in &suffixes[child as usize] {
                            joint[(t + digit + rest) as usize * width + col] += fw * b;
                        }
                    }
                }
            }
            for (_, steps) in &mut reached {
                sum_by_outcome(steps);
            }
            here = reached;
        }
        let mut p = vec![W::ZERO; self.outcomes as usize];
        let mut not_full = vec![0u64; self.outcomes as usize];
        for (x, reach) in &here {
            for &(t, f) in reach {
                p[t as usize] += f;
                not_full[t as usize] |= self.nodes[*x as usize].not_full;
            }
        }
        (0..self.outcomes)
            .filter(|&t| !p[t as usize].is_zero())
            .map(|t| {
                let at = t as usize * width;
                ByAtoms {
                    index: t,
                    p: p[t as usize],
                    not_full: not_full[t as usize],
                    joint: joint[at..at + width].to_vec(),
                }
            })
            .collect()
    }

    /// Per node reachable from `root` (by id; empty for the others): the
    /// chance of each outcome of the kept levels from the node's level on,
    /// as the index of the outcome with the earlier kept levels' digits 0.
    /// Made for each start and dropped: kept for every node they would be
    /// most of a shape's memory (tens of thousands of nodes with hundreds
    /// of outcomes each on dNetHack's Dungeons of Doom), and a start
    /// reaches a small part of its shape.
    fn suffixes(&self, root: u32) -> Vec<Vec<(u32, W)>> {
        let mut reach = vec![false; self.nodes.len()];
        let mut stack = vec![root];
        reach[root as usize] = true;
        while let Some(x) = stack.pop() {
            for &(_, _, child) in &self.nodes[x as usize].next {
                if !std::mem::replace(&mut reach[child as usize], true) {
                    stack.push(child);
                }
            }
        }
        let mut suffixes: Vec<Vec<(u32, W)>> = vec![Vec::new(); self.nodes.len()];
        let mut steps: Vec<(u32, u32, W)> = Vec::new();
        // A node's children come before it.
        for id in (0..self.nodes.len()).filter(|&id| reach[id]) {
            let node = &self.nodes[id];
            steps.clear();
            if node.status == Status::Always {
                let i = usize::from(node.i);
                if i == self.range_atoms.len() {
                    steps.push((0, 0, W::ONE));
                }
                for &(a, w, child) in &node.next {
                    let digit = self.kept_digit(i, a);
                    for &(rest, b) in &suffixes[child as usize] {
                        steps.push((0, digit + rest, w * b));
                    }
                }
            }
            suffixes[id] = group(&mut steps).pop().map_or_else(Vec::new, |(_, v)| v);
        }
        suffixes
    }

    fn node(&mut self, i: usize, counts: Vec<u8>) -> u32 {
        if let Some(&id) = self.memo.get(&(i as u8, counts.clone())) {
            return id;
        }
        let na = self.atoms.len();
        let left = self.range_atoms.len() - i;
        let node = if left == 0 {
            let not_full = (0..na)
                .filter(|&a| counts[a] < self.sizes[a])
                .fold(0u64, |m, a| m | (1u64 << a));
            TNode {
                i: i as u8,
                status: Status::Always,
                not_full,
                marg: Vec::new(),
                next: Vec::new(),
            }
        } else {
            let present = self.present(i, &counts);
            match self.chances[i] {
                c if c >= 100 => present,
                c => {
                    let absent_id = self.node(i + 1, counts.clone());
                    let absent = &self.nodes[absent_id as usize];
                    let status = if absent.status == present.status {
                        present.status
                    } else {
                        Status::Mixed
                    };
                    let (pc, pa) = (
                        W::ratio(u64::from(c), 100),
                        W::ratio(100 - u64::from(c), 100),
                    );
                    let mut marg: Vec<W> = present.marg.iter().map(|&x| pc * x).collect();
                    for (x, &y) in marg.iter_mut().skip(na).zip(&absent.marg) {
                        *x += pa * y;
                    }
                    let mut next: Vec<(u8, W, u32)> = present
                        .next
                        .iter()
                        .map(|&(a, w, child)| (a, pc * w, child))
                        .collect();
                    if self.has_kept() {
                        next.push((ABSENT, pa, absent_id));
                    }
                    TNode {
                        i: i as u8,
                        status,
                        not_full: present.not_full | absent.not_full,
                        marg,
                        next,
                    }
                }
            }
        };
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        self.memo.insert((i as u8, counts), id);
        id
    }

    /// The search from level `i` of the run when it exists: a uniform
    /// choice among the free levels whose sub-search succeeds.
    fn present(&mut self, i: usize, counts: &[u8]) -> TNode {
        let na = self.atoms.len();
        let left = self.range_atoms.len() - i;
        // Each atom of the range with a free level: its free levels and
        // the sub-search after taking one of them.
        let mut kids: Vec<(usize, u64, u32)> = Vec::new();
        let mut mixed = false;
        let mut ra = self.range_atoms[i];
        while ra != 0 {
            let a = ra.trailing_zeros() as usize;
            ra &= ra - 1;
            let free = self.sizes[a] - counts[a];
            if free == 0 {
                continue;
            }
            let mut next = counts.to_vec();
            next[a] += 1;
            let child = self.node(i + 1, next);
            match self.nodes[child as usize].status {
                Status::Always => kids.push((a, u64::from(free), child)),
                Status::Never => {}
                Status::Mixed => mixed = true,
            }
        }
        let good: u64 = kids.iter().map(|&(_, f, _)| f).sum();
        let not_full = kids.iter().fold(0u64, |m, &(_, _, child)| {
            m | self.nodes[child as usize].not_full
        });
        let (mut marg, mut next) = (Vec::new(), Vec::new());
        if self.has_kept() {
            // The outcomes split by the kept levels: the steps, for
            // [`Shape::by_kept`].
            next = kids
                .iter()
                .map(|&(a, free, child)| (a as u8, W::ratio(free, good), child))
                .collect();
        } else {
            marg = vec![W::ZERO; left * na];
            for &(a, free, child) in &kids {
                let pick = W::ratio(free, good);
                marg[a] += pick;
                let c = &self.nodes[child as usize];
                for (x, &y) in marg[na..].iter_mut().zip(&c.marg) {
                    *x += pick * y;
                }
            }
        }
        let status = if mixed {
            Status::Mixed
        } else if good > 0 {
            Status::Always
        } else {
            Status::Never
        };
        TNode {
            i: i as u8,
            status,
            not_full,
            marg,
            next,
        }
    }
}

/// A node's `(outcome, chance)` steps summed by outcome, in outcome order;
/// equal outcomes are summed in the order they came.
fn sum_by_outcome(steps: &mut Vec<(u32, W)>) {
    steps.sort_by_key(|&(t, _)| t);
    steps.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 += later.1;
        }
        same
    });
}

/// `(node, outcome, chance)` steps summed by node and outcome, in order.
fn group(steps: &mut [(u32, u32, W)]) -> Vec<(u32, Vec<(u32, W)>)> {
    steps.sort_unstable_by_key(|&(x, t, _)| (x, t));
    let mut out: Vec<(u32, Vec<(u32, W)>)> = Vec::new();
    for &(x, t, w) in steps.iter() {
        match out.last_mut() {
            Some((y, v)) if *y == x => match v.last_mut() {
                Some((u, sum)) if *u == t => *sum += w,
                _ => v.push((t, w)),
            },
            _ => out.push((x, vec![(t, w)])),
        }
    }
    out
}

/// The number of outcomes of a run's kept levels.
pub fn kept_outcomes(run: &[TailLevel]) -> u64 {
    run.iter()
        .filter(|r| r.kept)
        .fold(1u64, |n, r| n.saturating_mul(r.count.max(1) as u64))
}
