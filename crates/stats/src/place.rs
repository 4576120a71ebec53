//! The exact distribution of one dungeon's special-level placement
//! (`place_level()`, `loader.md` step 9) for a given size and set of
//! existing levels.
//!
//! NetHack's search picks level `k` uniformly among its remaining
//! candidates, recurses, and on failure removes the candidate and draws
//! again. The outcome of the sub-search from a candidate is one of: a
//! complete placement, "no placement" (it returns false), or an abort (a
//! range error on the way, which ends the game). Whatever the order of the
//! draws, the candidate that ends the search is the first, in a uniformly
//! random order, whose sub-search does not return false. With `pf_i` the
//! chance that candidate `i`'s sub-search returns false, candidate `v`
//! ends the search with chance
//! `F_v = sum_j j!(n-1-j)!/n! * e_j({pf_i : i != v})`
//! (`e_j` the elementary symmetric polynomials), times its own chance of
//! not returning false. Without aborts every `pf_i` is 0 or 1 and `F_v` is
//! `1 / (number of candidates that admit a placement)`.
//!
//! Sub-searches are memoised on what their future depends on: the next
//! level, the taken levels that any later range can still meet, and the
//! levels of placed levels that later chains read or the caller keeps. A
//! forward pass over the memo then gives each level's distribution.

use super::fxhash::FxHashMap;
use super::tail::{self, Status as TailStatus, TailLevel, Tails};
use super::weight::W;
use super::Stop;
use dgnkit_loader::arith::{self, RangeFault};
use dgnkit_loader::FailCode;

/// One more than the highest level number the enumeration follows: arrays
/// are indexed `0..=63`, level sets are `u64` masks. NetHack's `MAXLEVEL`
/// is 32; SLASH'EM's 50 and dNetHack's 64 (whose dungeons stay far below
/// 63 levels; a game that could reach 64 is sampled).
pub const LEVELS: usize = 64;

/// Why a placement search aborts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Abort {
    BaseOutOfRange,
    /// A random part below -1: `pick_level` finds no level (the loader's
    /// `LoadError::NoValidLevel`).
    NoValidLevel,
    EmptyChain,
    ChainShifted,
}

impl Abort {
    pub fn code(self) -> &'static str {
        self.fail_code().code()
    }

    /// The loader's code for the same condition.
    pub fn fail_code(self) -> FailCode {
        match self {
            Abort::BaseOutOfRange => FailCode::BaseOutOfRange,
            Abort::NoValidLevel => FailCode::NoValidLevel,
            Abort::EmptyChain => FailCode::EmptyChain,
            Abort::ChainShifted => FailCode::ChainShifted,
        }
    }
}

impl From<RangeFault> for Abort {
    fn from(fault: RangeFault) -> Abort {
        match fault {
            RangeFault::ChainShifted => Abort::ChainShifted,
            RangeFault::EmptyChain => Abort::EmptyChain,
            RangeFault::BaseOutOfRange { .. } => Abort::BaseOutOfRange,
        }
    }
}

/// One level record of the dungeon being placed.
#[derive(Clone, Copy, Debug)]
pub struct PLevel {
    pub exists: bool,
    pub base: i32,
    pub rand: i32,
    /// File-global chain slot, -1 when not chained.
    pub chain: i32,
    /// Its level goes into the class key (read after this dungeon).
    pub keep: bool,
    /// The levels evidence allows it on ([`crate::evidence`]): the class
    /// key ends with whether every level with a filter lay on an allowed
    /// level (0) or not (1), one entry for all of them, so that the
    /// classes split in two at most.
    pub filter: Option<u64>,
    /// 100, or the chance roll of an optional level that the caller does
    /// not enumerate: it exists with this chance (in percent), mixed into
    /// the tail ([`crate::tail`]); such a level must lie in the tail.
    pub chance: u8,
}

/// A placement problem.
pub struct Input<'a> {
    /// `num_levels` of the dungeon (already clamped to the game's MAXLEVEL).
    pub n: i32,
    /// First global slot of this dungeon's levels.
    pub start: i32,
    pub levels: &'a [PLevel],
    /// Levels of earlier slots that chains of this dungeon read:
    /// `(slot, level)`, level -1 when the slot's level does not exist.
    pub external: &'a [(i32, i32)],
}

/// The distribution of placements that share one class key.
#[derive(Clone, Debug)]
pub struct Class {
    /// Levels of the kept levels, in record order (-1: does not exist).
    pub key: Vec<i8>,
    /// Chance of a successful placement with this key.
    pub p: W,
    /// Per level record: chance (jointly with this key) of lying on each
    /// level, `0..=n`.
    pub pos: Vec<Row>,
    /// Per level number `0..=n`: chance (jointly with this key) that no
    /// special level lies there; index 0 unused. Computed as a difference,
    /// so [`Self::empty_possible`] says exactly which are possible.
    pub empty: Vec<W>,
    /// Bit `l` set when level `l` is left free in some placement.
    pub empty_possible: u64,
}

/// One level record's chances by level, `0..width`, holding only the
/// levels it may lie on: the largest files have tens of thousands of
/// classes, most of whose rows are one level (a kept level) or a few.
#[derive(Clone, Debug, Default)]
pub struct Row {
    width: u8,
    at: Vec<(u8, W)>,
}

static ZERO: W = W::ZERO;

impl Row {
    fn from_dense(dense: &[W]) -> Row {
        Row {
            width: dense.len().min(LEVELS) as u8,
            at: dense
                .iter()
                .enumerate()
                .take(LEVELS)
                .filter(|(_, w)| w.v != 0.0 || w.e != 0.0)
                .map(|(l, &w)| (l as u8, w))
                .collect(),
        }
    }

    /// The chance at level `l`, `None` past the row's end.
    pub fn get(&self, l: usize) -> Option<&W> {
        if l >= usize::from(self.width) {
            return None;
        }
        Some(
            self.at
                .binary_search_by_key(&l, |&(k, _)| usize::from(k))
                .map_or(&ZERO, |i| &self.at[i].1),
        )
    }

    /// The levels it may lie on, with their chances, in increasing order.
    pub fn nonzero(&self) -> impl Iterator<Item = (usize, W)> + '_ {
        self.at.iter().map(|&(l, w)| (usize::from(l), w))
    }

    /// Every level's chance, `0..width`.
    pub fn iter(&self) -> impl Iterator<Item = &W> + '_ {
        (0..usize::from(self.width)).map(move |l| &self[l])
    }
}

impl std::ops::Index<usize> for Row {
    type Output = W;
    fn index(&self, l: usize) -> &W {
        self.get(l).unwrap_or(&ZERO)
    }
}

/// The result of one placement problem.
#[derive(Clone, Debug)]
pub struct Placement {
    /// Chance of an abort, by cause and the level record where it happens.
    pub aborts: Vec<((Abort, u16), W)>,
    /// Chance that no placement exists ("couldn't place levels").
    pub fail: W,
    pub classes: Vec<Class>,
    /// Memo entries used (the work done).
    pub nodes: usize,
}

/// Why a placement search stopped short: it grew past its budget, was
/// stopped from outside (`stopped`), or found that the levels whose rolls
/// were to be mixed into the tail cannot be (`mixed`: whether the search
/// succeeds depends on them, or they do not lie in the tail; the caller
/// enumerates their rolls instead). The engine turns the first two into a
/// [`crate::TooLarge`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchStopped {
    pub nodes: usize,
    pub stopped: bool,
    pub mixed: bool,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct Ctx {
    k: u16,
    taken: u64,
    vals: Vec<i8>,
}

struct Node {
    k: u16,
    aborts: Vec<((Abort, u16), W)>,
    fail: W,
    /// Success chance by class id.
    beta: Vec<(u32, W)>,
    empty_ok: Vec<(u32, u64)>,
    children: Vec<(i32, u32, W)>,
    abort_possible: bool,
    success_possible: bool,
    /// A start of the tail solved over counts ([`crate::tail`]): per
    /// class, level record and level, the chance given the node.
    tail: Vec<(u32, u16, u8, W)>,
}

/// A tail whose estimated states ([`Search::cheapest_start`]) exceed this
/// may start later.
const TAIL_STATES: f64 = 1e6;

/// Ranges are `(start, count)` in `1..=n`, or an abort.
type RangeResult = Result<(i32, i32), Abort>;

fn range_mask(start: i32, count: i32) -> u64 {
    if count <= 0 {
        return 0;
    }
    ((1u64 << count) - 1) << start
}

fn full_mask(n: i32) -> u64 {
    if n <= 0 {
        0
    } else {
        range_mask(1, n.min(LEVELS as i32 - 1))
    }
}

/// The loader's `level_range` ([`arith::level_range`]) of a level being
/// placed, where a count below 1 (a random part below -1) aborts: the game
/// panics in `pick_level` when the search gets there, after `rn2` of the
/// count (the loader's `candidates`).
fn range_of(n: i32, base: i32, rand: i32, chained: Option<i32>) -> RangeResult {
    match arith::level_range(n, base, rand, chained) {
        Ok((_, count)) if count < 1 => Err(Abort::NoValidLevel),
        Ok(range) => Ok(range),
        Err(fault) => Err(fault.into()),
    }
}

/// Where a level's chain points.
#[derive(Clone, Copy, Debug)]
enum ChainTo {
    None,
    /// An earlier dungeon's slot: its level, or -1.
    External(i32),
    /// An earlier level of this dungeon (local index).
    Local(usize),
    /// Not a placed slot at this point.
    Shifted,
}

struct Search<'a> {
    input: &'a Input<'a>,
    chain_to: Vec<ChainTo>,
    /// Local levels whose level goes into `Ctx::vals` (chain targets of
    /// this dungeon and kept levels), with their position in `vals`.
    val_index: Vec<Option<usize>>,
    /// For each tracked level: the last local level whose chain reads it.
    last_reader: Vec<usize>,
    /// Ranges that do not depend on the search (unchained, or chained to
    /// an earlier dungeon).
    fixed: Vec<Option<RangeResult>>,
    /// The place in `vals` of the flag that a level with a filter lay
    /// outside it ([`PLevel::filter`]), when any level has one.
    filter_slot: Option<usize>,
    nvals: usize,
    memo: FxHashMap<Ctx, u32>,
    nodes: Vec<Node>,
    classes: FxHashMap<Vec<i8>, u32>,
    class_keys: Vec<Vec<i8>>,
    budget: usize,
    stop: &'a Stop,
    /// Where the tail starts and its existing levels
    /// ([`Search::find_tail`]), when it has at least two.
    tail: Option<(usize, Vec<usize>)>,
    /// Memoised across the placements of one enumeration: tails of the
    /// same ranges recur in every outcome of the rolls before them.
    tails: &'a mut Tails,
    /// Memo entries the tails made.
    tail_nodes: usize,
    /// Per class id, its place in the lists [`Search::combine`] is
    /// building (`u32::MAX`: not in them yet), so that merging the
    /// children's lists is linear in their length: the largest files'
    /// nodes hold thousands of classes.
    beta_at: Vec<u32>,
    empty_at: Vec<u32>,
}

impl<'a> Search<'a> {
    fn new(input: &'a Input<'a>, budget: usize, stop: &'a Stop, tails: &'a mut Tails) -> Self {
        let m = input.levels.len();
        let chain_to: Vec<ChainTo> = input
            .levels
            .iter()
            .enumerate()
            .map(|(j, l)| {
                if l.chain < 0 {
                    ChainTo::None
                } else if l.chain >= input.start + j as i32 {
                    ChainTo::Shifted
                } else if l.chain >= input.start {
                    ChainTo::Local((l.chain - input.start) as usize)
                } else {
                    let lvl = input
                        .external
                        .iter()
                        .find(|(s, _)| *s == l.chain)
                        .map_or(-1, |&(_, v)| v);
                    ChainTo::External(lvl)
                }
            })
            .collect();
        let mut last_reader = vec![0usize; m];
        let mut tracked = vec![false; m];
        for (j, c) in chain_to.iter().enumerate() {
            if let ChainTo::Local(i) = *c {
                tracked[i] = true;
                last_reader[i] = last_reader[i].max(j);
            }
        }
        for (j, l) in input.levels.iter().enumerate() {
            if l.keep {
                tracked[j] = true;
            }
        }
        let mut val_index = vec![None; m];
        let mut nv = 0;
        for j in 0..m {
            if tracked[j] {
                val_index[j] = Some(nv);
                nv += 1;
            }
        }
        let filter_slot = input
            .levels
            .iter()
            .any(|l| l.filter.is_some())
            .then_some(nv);
        if filter_slot.is_some() {
            nv += 1;
        }
        let fixed = input
            .levels
            .iter()
            .zip(&chain_to)
            .map(|(l, c)| match *c {
                ChainTo::None => Some(range_of(input.n, l.base, l.rand, None)),
                ChainTo::External(v) if v < 0 => Some(Err(Abort::EmptyChain)),
                ChainTo::External(v) => Some(range_of(input.n, l.base, l.rand, Some(v))),
                ChainTo::Shifted => Some(Err(Abort::ChainShifted)),
                ChainTo::Local(_) => None,
            })
            .collect();
        Search {
            input,
            chain_to,
            val_index,
            last_reader,
            fixed,
            filter_slot,
            nvals: nv,
            memo: FxHashMap::default(),
            nodes: Vec::new(),
            classes: FxHashMap::default(),
            class_keys: Vec::new(),
            budget,
            stop,
            tail: None,
            tails,
            tail_nodes: 0,
            beta_at: Vec::new(),
            empty_at: Vec::new(),
        }
        .with_tail()
    }

    /// The tail ([`crate::tail`]): the longest run of levels ending the
    /// dungeon whose ranges are fixed when it starts (unchained, or chained
    /// to a level before it or an earlier dungeon's), none read by a chain,
    /// none with an evidence filter, none whose range aborts, and kept
    /// levels (none mixed) whose outcomes number at most
    /// [`tail::MAX_KEPT_OUTCOMES`].
    fn with_tail(mut self) -> Self {
        let levels = self.input.levels;
        let m = levels.len();
        let read_from = |j: usize, chain_to: &[ChainTo]| {
            chain_to
                .iter()
                .enumerate()
                .any(|(r, c)| r > j && matches!(*c, ChainTo::Local(i) if i == j))
        };
        let mut start = m;
        let mut outcomes = 1u64;
        while start > 0 {
            let j = start - 1;
            let l = &levels[j];
            // A kept level's level goes into the class: the tail splits its
            // outcome by those of more than one level.
            if l.exists && l.keep {
                // A range read from a level before it is at most as wide
                // as its random part.
                let width = match self.fixed[j] {
                    Some(Ok((_, c))) => c,
                    Some(Err(_)) => 1,
                    None if l.rand > 0 => l.rand,
                    None if l.rand == 0 => 1,
                    None => self.input.n,
                };
                outcomes = outcomes.saturating_mul(width.max(1) as u64);
            }
            let fits = !l.exists
                || (l.filter.is_none()
                    && outcomes <= tail::MAX_KEPT_OUTCOMES
                    && (!l.keep || l.chance >= 100)
                    && !matches!(self.fixed[j], Some(Err(_)))
                    && !matches!(self.chain_to[j], ChainTo::Shifted)
                    && !read_from(j, &self.chain_to));
            if !fits {
                break;
            }
            start = j;
        }
        let start = self.cheapest_start(start);
        let existing: Vec<usize> = (start..m).filter(|&j| levels[j].exists).collect();
        if existing.len() >= 2 {
            self.tail = Some((self.next_existing(start), existing));
        }
        self
    }

    /// Where the tail is best started, from `first` on: the tail's states
    /// grow with the number of its atoms and the search's before it with
    /// the levels it places in the tail's ranges, so the start that makes
    /// the larger of the two estimates smallest (never after a mixed
    /// level, which must lie in the tail). Both estimates read the ranges
    /// alone, so the engine's question ([`tail_start`]) and the placement
    /// with mixed levels agree.
    fn cheapest_start(&self, first: usize) -> usize {
        let levels = self.input.levels;
        let m = levels.len();
        let range = |j: usize| match self.fixed[j] {
            Some(Ok((s, c))) => range_mask(s, c),
            _ => 0,
        };
        // Upper bound on the states of a tail from `t`: per atom, the
        // counts it may hold.
        let tail_cost = |t: usize| -> f64 {
            let run: Vec<TailLevel> = (t..m)
                .filter(|&j| levels[j].exists)
                .map(|j| self.run_level(j, self.fixed[j]))
                .collect();
            tail::atoms(&run)
                .iter()
                .map(|&(atom, sig)| f64::from(atom.count_ones().min(sig.count_ones())) + 1.0)
                .product::<f64>()
                * (m - t) as f64
        };
        // Upper bound on the sets the search before the tail takes within
        // it.
        let head_cost = |t: usize| -> f64 {
            (first..t)
                .filter(|&j| levels[j].exists)
                .map(|j| f64::from(range(j).count_ones().max(1)))
                .product()
        };
        // The earliest start is best unless its tail is large (its
        // estimate is a loose bound: most count vectors are unreachable).
        if tail_cost(first) <= TAIL_STATES {
            return first;
        }
        let last = (first..m)
            .find(|&j| levels[j].exists && levels[j].chance < 100)
            .unwrap_or(m);
        (first..=last)
            .min_by(|&a, &b| {
                let ca = tail_cost(a).max(head_cost(a));
                let cb = tail_cost(b).max(head_cost(b));
                ca.total_cmp(&cb)
            })
            .unwrap_or(first)
    }

    /// Whether every mixed level ([`PLevel::chance`]) lies in the tail.
    fn mixed_in_tail(&self) -> bool {
        let start = self.tail.as_ref().map_or(usize::MAX, |(s, _)| *s);
        self.levels()
            .iter()
            .enumerate()
            .all(|(j, l)| l.chance >= 100 || !l.exists || j >= start)
    }

    /// The node of a tail's start, solved over counts; `Ok(None)` when a
    /// range of the tail aborts from here or the tail has too many atoms
    /// (then it is searched level by level); an error when its mixed
    /// levels cannot be mixed.
    fn tail_node(&mut self, ctx: &Ctx) -> Result<Option<Node>, SearchStopped> {
        let unmixable = SearchStopped {
            nodes: self.nodes.len(),
            stopped: false,
            mixed: true,
        };
        let Some(node) = self.tail_solved(ctx) else {
            return if self.levels().iter().any(|l| l.chance < 100 && l.exists) {
                Err(unmixable)
            } else {
                Ok(None)
            };
        };
        match node {
            Ok(node) => Ok(Some(node)),
            Err(()) => Err(unmixable),
        }
    }

    /// Level `j` of the tail, with its range `(start, count)`: a kept
    /// level of one level is known without splitting the outcome.
    fn run_level(&self, j: usize, range: Option<RangeResult>) -> TailLevel {
        let (start, count) = match range {
            Some(Ok(r)) => r,
            _ => (0, 0),
        };
        let l = &self.levels()[j];
        TailLevel {
            start,
            count,
            chance: l.chance.min(100),
            kept: l.keep && count > 1,
        }
    }

    fn tail_solved(&mut self, ctx: &Ctx) -> Option<Result<Node, ()>> {
        let (_, run) = self.tail.as_ref()?;
        let mut vals = ctx.vals.clone();
        let mut ranges = Vec::with_capacity(run.len());
        // The kept levels the tail splits its outcome by, in run order.
        let mut split = Vec::new();
        for &j in run {
            let range = self.range(j, &ctx.vals)?;
            let (s, _) = range.ok()?;
            let r = self.run_level(j, Some(range));
            if self.levels()[j].keep {
                let idx = self.val_index[j]?;
                if r.kept {
                    split.push(idx);
                } else {
                    vals[idx] = s as i8;
                }
            }
            ranges.push(r);
        }
        let solved = self.tails.solve(&ranges, ctx.taken)?;
        self.tail_nodes += solved.nodes;
        if solved.status == TailStatus::Mixed {
            return Some(Err(()));
        }
        if solved.status == TailStatus::Never {
            return Some(Ok(Node {
                k: ctx.k,
                aborts: Vec::new(),
                fail: W::ONE,
                beta: Vec::new(),
                empty_ok: Vec::new(),
                children: Vec::new(),
                abort_possible: false,
                success_possible: false,
                tail: Vec::new(),
            }));
        }
        let mut beta = Vec::with_capacity(solved.kept.len());
        let mut empty_ok = Vec::with_capacity(solved.kept.len());
        for outcome in &solved.kept {
            for (&idx, &l) in split.iter().zip(&outcome.levels) {
                vals[idx] = l as i8;
            }
            let class = self.class_id(&vals);
            beta.push((class, outcome.p));
            empty_ok.push((class, full_mask(self.input.n) & outcome.may_be_free));
        }
        let run = &self.tail.as_ref()?.1;
        Some(Ok(Node {
            k: ctx.k,
            aborts: Vec::new(),
            fail: W::ZERO,
            tail: solved
                .at
                .into_iter()
                .map(|(o, i, l, p)| (beta[o as usize].0, run[usize::from(i)] as u16, l, p))
                .collect(),
            beta,
            empty_ok,
            children: Vec::new(),
            abort_possible: false,
            success_possible: true,
        }))
    }

    fn levels(&self) -> &'a [PLevel] {
        self.input.levels
    }

    /// Level `j`'s range given the tracked levels `vals`; `None` when it
    /// reads a level not placed yet.
    fn range(&self, j: usize, vals: &[i8]) -> Option<RangeResult> {
        if let Some(r) = self.fixed[j] {
            return Some(r);
        }
        let ChainTo::Local(i) = self.chain_to[j] else {
            return None;
        };
        let l = &self.levels()[j];
        if !self.levels()[i].exists {
            return Some(Err(Abort::EmptyChain));
        }
        let idx = self.val_index[i]?;
        let v = i32::from(*vals.get(idx)?);
        if v <= 0 {
            return None;
        }
        Some(range_of(self.input.n, l.base, l.rand, Some(v)))
    }

    /// Levels any existing level from `k` on can take (all of `1..=n` for a
    /// range that reads a level not placed yet).
    fn relevant(&self, k: usize, vals: &[i8]) -> u64 {
        let mut mask = 0u64;
        for j in k..self.levels().len() {
            if !self.levels()[j].exists {
                continue;
            }
            match self.range(j, vals) {
                Some(Ok((s, c))) => mask |= range_mask(s, c),
                Some(Err(_)) => {}
                None => mask |= full_mask(self.input.n),
            }
        }
        mask
    }

    /// Drops tracked values nothing reads any more (placed before `k`, not
    /// kept, and every reader placed before `k` too).
    fn prune_vals(&self, k: usize, vals: &mut [i8]) {
        for (j, idx) in self.val_index.iter().enumerate() {
            let Some(idx) = *idx else { continue };
            if j < k && !self.levels()[j].keep && self.last_reader[j] < k {
                vals[idx] = 0;
            }
        }
    }

    fn class_id(&mut self, vals: &[i8]) -> u32 {
        let mut key: Vec<i8> = self
            .levels()
            .iter()
            .enumerate()
            .filter(|(_, l)| l.keep)
            .map(|(j, l)| {
                if l.exists {
                    self.val_index[j].map_or(-1, |i| vals[i])
                } else {
                    -1
                }
            })
            .collect();
        if let Some(slot) = self.filter_slot {
            key.push(vals[slot]);
        }
        if let Some(&id) = self.classes.get(&key) {
            return id;
        }
        let id = self.class_keys.len() as u32;
        self.class_keys.push(key.clone());
        self.classes.insert(key, id);
        id
    }

    fn node(&mut self, ctx: Ctx) -> Result<u32, SearchStopped> {
        if let Some(&id) = self.memo.get(&ctx) {
            return Ok(id);
        }
        let m = self.levels().len();
        let k = ctx.k as usize;
        let at_tail = self.tail.as_ref().is_some_and(|(start, _)| *start == k);
        // A tail's start is solved in one go (thousands of count states on
        // dNetHack's Dungeons of Doom): each one asks.
        let stopped = (at_tail || self.nodes.len().is_multiple_of(4096)) && self.stop.is_set();
        if self.nodes.len() >= self.budget || stopped {
            return Err(SearchStopped {
                nodes: self.nodes.len(),
                stopped,
                mixed: false,
            });
        }
        let node = if k >= m {
            let class = self.class_id(&ctx.vals);
            Node {
                k: ctx.k,
                aborts: Vec::new(),
                fail: W::ZERO,
                beta: vec![(class, W::ONE)],
                empty_ok: vec![(class, full_mask(self.input.n))],
                children: Vec::new(),
                abort_possible: false,
                success_possible: true,
                tail: Vec::new(),
            }
        } else if let Some(node) = if at_tail { self.tail_node(&ctx)? } else { None } {
            node
        } else {
            self.expand(&ctx)?
        };
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        self.memo.insert(ctx, id);
        Ok(id)
    }

    /// The next existing level from `k` on.
    fn next_existing(&self, k: usize) -> usize {
        let mut k = k;
        while k < self.levels().len() && !self.levels()[k].exists {
            k += 1;
        }
        k
    }

    fn child_ctx(&self, k: usize, taken: u64, vals: &[i8], v: i32) -> Ctx {
        let mut vals = vals.to_vec();
        if let Some(idx) = self.val_index[k] {
            vals[idx] = v as i8;
        }
        if let (Some(slot), Some(allowed)) = (self.filter_slot, self.levels()[k].filter) {
            if allowed & (1u64 << v) == 0 {
                vals[slot] = 1;
            }
        }
        let next = self.next_existing(k + 1);
        self.prune_vals(next, &mut vals);
        let taken = (taken | (1u64 << v)) & self.relevant(next, &vals);
        Ctx {
            k: next as u16,
            taken,
            vals,
        }
    }

    fn expand(&mut self, ctx: &Ctx) -> Result<Node, SearchStopped> {
        let k = ctx.k as usize;
        let range = self.range(k, &ctx.vals).unwrap_or(Err(Abort::ChainShifted));
        let (s, c) = match range {
            Ok(r) => r,
            Err(a) => {
                return Ok(Node {
                    k: ctx.k,
                    aborts: vec![((a, k as u16), W::ONE)],
                    fail: W::ZERO,
                    beta: Vec::new(),
                    empty_ok: Vec::new(),
                    children: Vec::new(),
                    abort_possible: true,
                    success_possible: false,
                    tail: Vec::new(),
                })
            }
        };
        let mut cand = range_mask(s, c) & !ctx.taken;
        let mut kids: Vec<(i32, u32)> = Vec::new();
        while cand != 0 {
            let v = cand.trailing_zeros() as i32;
            cand &= cand - 1;
            let child = self.child_ctx(k, ctx.taken, &ctx.vals, v);
            let id = self.node(child)?;
            kids.push((v, id));
        }
        Ok(self.combine(ctx.k, &kids))
    }

    fn combine(&mut self, k: u16, kids: &[(i32, u32)]) -> Node {
        let n = kids.len();
        let abort_possible = kids
            .iter()
            .any(|&(_, id)| self.nodes[id as usize].abort_possible);
        let success_possible = kids
            .iter()
            .any(|&(_, id)| self.nodes[id as usize].success_possible);
        // F_v for each candidate.
        let factors: Vec<W> = if !abort_possible {
            let good = kids
                .iter()
                .filter(|&&(_, id)| self.nodes[id as usize].success_possible)
                .count();
            kids.iter()
                .map(|&(_, id)| {
                    if self.nodes[id as usize].success_possible {
                        W::ratio(1, good as u64)
                    } else {
                        W::ZERO
                    }
                })
                .collect()
        } else {
            let pf: Vec<W> = kids
                .iter()
                .map(|&(_, id)| self.nodes[id as usize].fail)
                .collect();
            (0..n).map(|v| first_non_false(&pf, v)).collect()
        };
        let mut aborts: Vec<((Abort, u16), W)> = Vec::new();
        let mut beta: Vec<(u32, W)> = Vec::new();
        let mut empty_ok: Vec<(u32, u64)> = Vec::new();
        let mut children = Vec::with_capacity(n);
        let nclasses = self.class_keys.len();
        let mut beta_at = std::mem::take(&mut self.beta_at);
        let mut empty_at = std::mem::take(&mut self.empty_at);
        beta_at.resize(nclasses, u32::MAX);
        empty_at.resize(nclasses, u32::MAX);
        for (&(v, id), &f) in kids.iter().zip(&factors) {
            children.push((v, id, f));
            if f.is_zero() {
                continue;
            }
            let child = &self.nodes[id as usize];
            for &(cause, p) in &child.aborts {
                add_to(&mut aborts, cause, f * p);
            }
            for &(class, p) in &child.beta {
                merge_class(&mut beta, &mut beta_at, class, f * p, |w, x| *w += x);
            }
            for &(class, mask) in &child.empty_ok {
                let m = mask & !(1u64 << v);
                merge_class(&mut empty_ok, &mut empty_at, class, m, |e, x| *e |= x);
            }
        }
        for &(class, _) in &beta {
            beta_at[class as usize] = u32::MAX;
        }
        for &(class, _) in &empty_ok {
            empty_at[class as usize] = u32::MAX;
        }
        self.beta_at = beta_at;
        self.empty_at = empty_at;
        let fail = if !abort_possible {
            if success_possible {
                W::ZERO
            } else {
                W::ONE
            }
        } else {
            kids.iter()
                .fold(W::ONE, |acc, &(_, id)| acc * self.nodes[id as usize].fail)
        };
        Node {
            k,
            aborts,
            fail,
            beta,
            empty_ok,
            children,
            abort_possible,
            success_possible,
            tail: Vec::new(),
        }
    }
}

/// [`add_to`] for class ids, through `at` (each class's place in `list`,
/// `u32::MAX` when absent): the same entries in the same order, without
/// the search.
fn merge_class<T>(
    list: &mut Vec<(u32, T)>,
    at: &mut [u32],
    class: u32,
    x: T,
    merge: impl Fn(&mut T, T),
) {
    let slot = &mut at[class as usize];
    if *slot == u32::MAX {
        *slot = list.len() as u32;
        list.push((class, x));
    } else {
        merge(&mut list[*slot as usize].1, x);
    }
}

fn add_to<K: PartialEq>(list: &mut Vec<(K, W)>, key: K, p: W) {
    match list.iter_mut().find(|(k, _)| *k == key) {
        Some((_, w)) => *w += p,
        None => list.push((key, p)),
    }
}

/// `F_v`: the chance that, in a uniformly random order of the candidates,
/// every candidate before `v` returns false (`pf` each).
fn first_non_false(pf: &[W], v: usize) -> W {
    let n = pf.len();
    // e[j] = elementary symmetric polynomial of degree j of the others.
    let mut e = vec![W::ZERO; n];
    e[0] = W::ONE;
    let mut deg = 0;
    for (i, &p) in pf.iter().enumerate() {
        if i == v {
            continue;
        }
        deg += 1;
        for j in (1..=deg).rev() {
            e[j] = e[j] + e[j - 1] * p;
        }
    }
    // c_j = j! (n-1-j)! / n! = 1 / (n * C(n-1, j)).
    let mut total = W::ZERO;
    let mut binom: u64 = 1;
    for (j, &ej) in e.iter().enumerate().take(n) {
        total += ej * W::ratio(1, n as u64 * binom);
        binom = binom * (n as u64 - 1 - j as u64) / (j as u64 + 1);
    }
    total
}

/// Where the tail of the problem starts ([`crate::tail`]): its levels
/// from there on are solved over counts (and may be mixed levels);
/// the number of levels when it has no tail.
pub fn tail_start(input: &Input<'_>) -> usize {
    let stop = Stop::default();
    let mut tails = Tails::default();
    let search = Search::new(input, 0, &stop, &mut tails);
    search
        .tail
        .as_ref()
        .map_or(input.levels.len(), |(start, _)| *start)
}

/// Places a dungeon's levels: every outcome, with its chance. `tails`
/// holds the tails solved so far (shared by the placements of one
/// enumeration); the nodes it adds count as this placement's.
pub fn place(
    input: &Input<'_>,
    budget: usize,
    stop: &Stop,
    tails: &mut Tails,
) -> Result<Placement, SearchStopped> {
    place_with(input, budget, stop, Some(tails))
}

/// [`place`], with the tail solved over counts or (`tails` none, to prove
/// that against) searched level by level.
fn place_with(
    input: &Input<'_>,
    budget: usize,
    stop: &Stop,
    tails: Option<&mut Tails>,
) -> Result<Placement, SearchStopped> {
    let m = input.levels.len();
    let mut own = Tails::default();
    let level_by_level = tails.is_none();
    let mut search = Search::new(input, budget, stop, tails.unwrap_or(&mut own));
    if level_by_level {
        search.tail = None;
    }
    if !search.mixed_in_tail() {
        return Err(SearchStopped {
            nodes: 0,
            stopped: false,
            mixed: true,
        });
    }
    let nvals = search.nvals;
    let k0 = search.next_existing(0);
    let vals = vec![0i8; nvals];
    let taken = 0;
    let root = search.node(Ctx {
        k: k0 as u16,
        taken,
        vals,
    })?;

    // Forward pass: alpha(node) is the chance that the final placement
    // passes through the node (times nothing else), so that
    // alpha * F_v * beta(child) is the chance of "level k on v, class c".
    let nclasses = search.class_keys.len();
    let mut alpha = vec![W::ZERO; search.nodes.len()];
    alpha[root as usize] = W::ONE;
    let mut order: Vec<u32> = (0..search.nodes.len() as u32).collect();
    order.sort_by_key(|&id| search.nodes[id as usize].k);
    let width = usize::try_from(input.n.saturating_add(1))
        .unwrap_or(1)
        .clamp(1, LEVELS);
    let mut pos = vec![vec![vec![W::ZERO; width]; m]; nclasses];
    for &id in &order {
        let a = alpha[id as usize];
        if a.is_zero() {
            continue;
        }
        let node = &search.nodes[id as usize];
        let k = node.k as usize;
        for &(class, j, l, p) in &node.tail {
            if let Some(x) = pos[class as usize][usize::from(j)].get_mut(usize::from(l)) {
                *x += a * p;
            }
        }
        for &(v, child, f) in &node.children {
            if f.is_zero() {
                continue;
            }
            let af = a * f;
            alpha[child as usize] += af;
            for &(class, b) in &search.nodes[child as usize].beta {
                pos[class as usize][k][v as usize] += af * b;
            }
        }
    }
    let root_node = &search.nodes[root as usize];
    let mut possible_of = vec![0u64; nclasses];
    for &(class, m) in &root_node.empty_ok {
        possible_of[class as usize] = m;
    }
    let mut classes = Vec::new();
    for &(class, p) in &root_node.beta {
        let cpos = std::mem::take(&mut pos[class as usize]);
        let possible = possible_of[class as usize];
        let mut empty = vec![W::ZERO; width];
        for (l, slot) in empty.iter_mut().enumerate().skip(1) {
            if possible & (1u64 << l) == 0 {
                continue;
            }
            let taken = cpos.iter().fold(W::ZERO, |acc, row| acc + row[l]);
            *slot = p - taken;
        }
        classes.push(Class {
            key: search.class_keys[class as usize].clone(),
            p,
            pos: cpos.iter().map(|row| Row::from_dense(row)).collect(),
            empty,
            empty_possible: possible,
        });
    }
    classes.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(Placement {
        aborts: root_node.aborts.clone(),
        fail: root_node.fail,
        classes,
        nodes: search.nodes.len() + search.tail_nodes,
    })
}

#[cfg(test)]
mod tests;
