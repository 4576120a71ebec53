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
//! A level of the tail whose chance roll is not enumerated (a *mixed*
//! level: the roll is made before the search, so each outcome of the rolls
//! is a search of its own) is a chance node here, which is exact as long
//! as whether a sub-search succeeds does not depend on the rolls: then
//! every candidate is tried and kept alike whatever the rolls, and each
//! roll's outcome only weighs the levels' chances. When it does depend on
//! them, [`Status::Mixed`] says so and the caller enumerates the rolls.

use super::fxhash::FxHashMap;
use super::weight::W;

/// Atoms of the levels the ranges of a run cover.
struct Shape {
    /// Each atom's levels, and how many.
    atoms: Vec<u64>,
    sizes: Vec<u8>,
    /// Per level of the run: its chance of existing, in percent.
    chances: Vec<u8>,
    /// Per level of the run: the atoms in its range (bit per atom).
    range_atoms: Vec<u64>,
    memo: FxHashMap<(u8, Vec<u8>), u32>,
    nodes: Vec<TNode>,
}

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
    status: Status,
    /// Atoms that may end with a free level (bit per atom).
    not_full: u64,
    /// Per level `i..` of the run, per atom: the chance that the level
    /// exists and ends in the atom (given success, when it is certain).
    marg: Vec<W>,
}

/// One solved start of a run: whether it succeeds, and per level of the
/// run the chance of each level of the dungeon.
pub struct Solved {
    pub status: Status,
    /// `(run index, level, chance)`.
    pub at: Vec<(u16, u8, W)>,
    /// Levels that may be left free by the run (of those its ranges
    /// cover); the others the run always fills or finds taken.
    pub may_be_free: u64,
    /// Memo entries made for this start.
    pub nodes: usize,
}

/// Memoises runs by their ranges, and their sub-searches by counts.
#[derive(Default)]
pub struct Tails {
    shapes: FxHashMap<Vec<(i32, i32, u8)>, u32>,
    all: Vec<Shape>,
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

impl Tails {
    /// Solves the run of levels with `ranges` (`(start, count, chance)`
    /// each, in order, every range in `1..=63`; chance 100 for a level
    /// that exists, else its chance roll's, mixed) from the levels `taken`
    /// before it; `None` when the run has too many atoms.
    pub fn solve(&mut self, ranges: &[(i32, i32, u8)], taken: u64) -> Option<Solved> {
        let id = match self.shapes.get(ranges) {
            Some(&id) => id,
            None => {
                let shape = Shape::new(ranges)?;
                let id = self.all.len() as u32;
                self.all.push(shape);
                self.shapes.insert(ranges.to_vec(), id);
                id
            }
        };
        let shape = &mut self.all[id as usize];
        let before = shape.nodes.len();
        let counts: Vec<u8> = shape
            .atoms
            .iter()
            .map(|&a| (a & taken).count_ones() as u8)
            .collect();
        let root = shape.node(0, counts.clone());
        let node = &shape.nodes[root as usize];
        let mut at = Vec::new();
        let mut always_full = 0u64;
        if node.status == Status::Always {
            let na = shape.atoms.len();
            for i in 0..ranges.len() {
                for (a, &atom) in shape.atoms.iter().enumerate() {
                    let p = node.marg[i * na + a];
                    let free = atom & !taken;
                    if p.is_zero() || free == 0 {
                        continue;
                    }
                    let each = p * W::ratio(1, u64::from(free.count_ones()));
                    let mut rest = free;
                    while rest != 0 {
                        let l = rest.trailing_zeros();
                        rest &= rest - 1;
                        at.push((i as u16, l as u8, each));
                    }
                }
            }
            for (a, &atom) in shape.atoms.iter().enumerate() {
                if node.not_full & (1u64 << a) == 0 {
                    always_full |= atom;
                }
            }
        }
        Some(Solved {
            status: node.status,
            at,
            may_be_free: !always_full,
            nodes: shape.nodes.len() - before,
        })
    }
}

impl Shape {
    fn new(ranges: &[(i32, i32, u8)]) -> Option<Shape> {
        if ranges.len() > 63 {
            return None;
        }
        let level_masks: Vec<u64> = ranges.iter().map(|&(s, c, _)| mask(s, c)).collect();
        // Levels by the run's ranges they lie in.
        let mut by_sig: Vec<(u64, u64)> = Vec::new();
        for l in 0..64u32 {
            let sig = level_masks
                .iter()
                .enumerate()
                .filter(|(_, &m)| m & (1u64 << l) != 0)
                .fold(0u64, |s, (i, _)| s | (1u64 << i));
            if sig == 0 {
                continue;
            }
            match by_sig.iter_mut().find(|(s, _)| *s == sig) {
                Some((_, m)) => *m |= 1u64 << l,
                None => by_sig.push((sig, 1u64 << l)),
            }
        }
        if by_sig.len() > MAX_ATOMS {
            return None;
        }
        let range_atoms = (0..ranges.len())
            .map(|i| {
                by_sig
                    .iter()
                    .enumerate()
                    .filter(|(_, (sig, _))| sig & (1u64 << i) != 0)
                    .fold(0u64, |m, (a, _)| m | (1u64 << a))
            })
            .collect();
        Some(Shape {
            chances: ranges.iter().map(|&(_, _, c)| c).collect(),
            sizes: by_sig.iter().map(|(_, m)| m.count_ones() as u8).collect(),
            atoms: by_sig.into_iter().map(|(_, m)| m).collect(),
            range_atoms,
            memo: FxHashMap::default(),
            nodes: Vec::new(),
        })
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
                status: Status::Always,
                not_full,
                marg: Vec::new(),
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
                    for (x, &y) in marg[na..].iter_mut().zip(&absent.marg) {
                        *x += pa * y;
                    }
                    TNode {
                        status,
                        not_full: present.not_full | absent.not_full,
                        marg,
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
        let mut marg = vec![W::ZERO; left * na];
        let mut not_full = 0u64;
        for &(a, free, child) in &kids {
            let pick = W::ratio(free, good);
            marg[a] += pick;
            let c = &self.nodes[child as usize];
            not_full |= c.not_full;
            for (x, &y) in marg[na..].iter_mut().zip(&c.marg) {
                *x += pick * y;
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
            status,
            not_full,
            marg,
        }
    }
}
