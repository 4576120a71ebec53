//! What a player has seen of a layout, as constraints on the facts the
//! exact enumeration tracks, and the statistics given it.
//!
//! Why constraints and not a filter: every fact here (a dungeon's existence,
//! size and top depth, a special level's level and depth, the parent end of
//! a branch) is settled by one outcome of one dungeon record, the moment the
//! enumeration expands it, and what comes after depends only on the state
//! it leaves. So an outcome that contradicts the evidence can be dropped
//! where it is made, and the forward and backward passes run on what is
//! left: the joint chance of each outcome and the evidence, exactly, for the
//! cost of one enumeration. A special level's level is spread inside one
//! placement class, so the placement search splits each class in two: the
//! placements where every constrained level lies where the evidence allows,
//! and the rest (one flag, not the levels themselves, so that evidence on
//! many levels of one dungeon does not multiply its classes).
//!
//! A resolution that fails has no layout for the evidence to be about, so
//! the loader's failure figures stay the description's own; everything else
//! is conditional on the evidence and the resolution succeeding, and
//! [`GivenResult`] says how likely the evidence itself is.
//!
//! Anything else a query reads (a predicate over a whole layout) is judged on
//! layouts from the loader over many seeds instead, counting only those
//! that hold it.

use dgnkit_loader::{Resolved, Resolver};
use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

/// What a player has seen: a conjunction of constraints, each on one fact
/// the enumeration tracks. No constraint: every layout.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evidence {
    pub constraints: Vec<Constraint>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub subject: Subject,
    pub prop: Prop,
    pub allowed: Allowed,
}

/// What a constraint is about, by record of the script the statistics are
/// computed for (a record index naming no record: a thing that never
/// exists).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Subject {
    /// A dungeon record.
    Dungeon(u32),
    /// A special-level record.
    Level(u32),
    /// The branch into the dungeon record `child` (the one the loader
    /// links it with; a layout's first dungeon has none).
    Branch { child: u32 },
}

/// Which fact of the subject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Prop {
    /// Whether it exists (use with [`Allowed::Exists`]).
    Exists,
    /// A dungeon's number of levels.
    NumLevels,
    /// A dungeon's depth of its level 1.
    DepthStart,
    /// A special level's level within its dungeon; a branch's level in its
    /// parent.
    Level,
    /// The absolute depth of a special level, or of a branch's parent end:
    /// the dungeon's `depth_start + level - 1`.
    Depth,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// The subject exists (`true`) or not (`false`), whatever the prop.
    Exists(bool),
    /// The subject exists and its prop's value is one of these. A prop its
    /// subject does not have ([`Evidence::check`]) never holds.
    Values(BTreeSet<i32>),
}

impl Allowed {
    /// Whether a subject that exists or not, whose prop has `value`, is
    /// allowed.
    pub fn admits(&self, exists: bool, value: Option<i32>) -> bool {
        match self {
            Allowed::Exists(b) => exists == *b,
            Allowed::Values(set) => exists && value.is_some_and(|v| set.contains(&v)),
        }
    }

    /// Whether only a subject that exists can be allowed.
    pub fn needs_existence(&self) -> bool {
        !matches!(self, Allowed::Exists(false))
    }
}

impl Prop {
    /// Whether a subject of this kind has the prop.
    pub fn applies_to(self, subject: Subject) -> bool {
        matches!(
            (self, subject),
            (Prop::Exists, _)
                | (Prop::NumLevels | Prop::DepthStart, Subject::Dungeon(_))
                | (
                    Prop::Level | Prop::Depth,
                    Subject::Level(_) | Subject::Branch { .. }
                )
        )
    }
}

/// The facts of one branch in a resolved layout: the loader's link into
/// `child`'s dungeon index, `(level, depth)` of its parent end.
fn branch_ends(res: &Resolver, resolved: &Resolved, child: u32) -> Vec<(i32, i32)> {
    let Some(index) = resolved.dungeons.iter().position(|d| d.record == child) else {
        return Vec::new();
    };
    let index_of = |rec: u32| resolved.dungeons.iter().position(|d| d.record == rec);
    let Some(rec) = res.dungeons.get(child as usize) else {
        return Vec::new();
    };
    // As `sample::add_layout` counts them: the parent as the loader found
    // it (the floating Ludios branch no longer names it).
    let Some(&(_, owner)) = rec
        .incoming
        .iter()
        .find(|(_, owner)| index_of(*owner).is_some())
    else {
        return Vec::new();
    };
    let Some(parent) = index_of(owner).and_then(|i| resolved.dungeons.get(i)) else {
        return Vec::new();
    };
    resolved
        .branches
        .iter()
        .filter(|b| b.end2.0 as usize == index)
        .map(|b| {
            let level = b.end1.1;
            (
                level,
                parent.depth_start.wrapping_add(level.wrapping_sub(1)),
            )
        })
        .collect()
}

impl Constraint {
    /// Whether the constraint holds on a resolved layout of `res`'s script,
    /// with the values the statistics count (`sample::add_layout`).
    pub fn holds(&self, res: &Resolver, resolved: &Resolved) -> bool {
        let a = &self.allowed;
        match self.subject {
            Subject::Dungeon(r) => match resolved.dungeons.iter().find(|d| d.record == r) {
                None => a.admits(false, None),
                Some(d) => a.admits(
                    true,
                    match self.prop {
                        Prop::NumLevels => Some(d.num_levels),
                        Prop::DepthStart => Some(d.depth_start),
                        _ => None,
                    },
                ),
            },
            Subject::Level(r) => match resolved.levels.iter().find(|l| l.record == r) {
                None => a.admits(false, None),
                Some(l) => {
                    let depth = resolved
                        .dungeons
                        .get(l.dungeon as usize)
                        .map(|d| d.depth_start.wrapping_add(l.level.wrapping_sub(1)));
                    a.admits(
                        true,
                        match self.prop {
                            Prop::Level => Some(l.level),
                            Prop::Depth => depth,
                            _ => None,
                        },
                    )
                }
            },
            Subject::Branch { child } => {
                let ends = branch_ends(res, resolved, child);
                if ends.is_empty() {
                    return a.admits(false, None);
                }
                ends.iter().any(|&(level, depth)| {
                    a.admits(
                        true,
                        match self.prop {
                            Prop::Level => Some(level),
                            Prop::Depth => Some(depth),
                            _ => None,
                        },
                    )
                })
            }
        }
    }
}

impl Evidence {
    pub fn new(constraints: Vec<Constraint>) -> Evidence {
        Evidence { constraints }
    }

    /// Whether every constraint holds on a resolved layout of `res`'s
    /// script (the meaning the exact statistics give the evidence).
    pub fn holds(&self, res: &Resolver, resolved: &Resolved) -> bool {
        self.constraints.iter().all(|c| c.holds(res, resolved))
    }

    /// The constraints that cannot mean anything for `res`: a subject
    /// naming no record, or a prop its subject does not have. Such a
    /// constraint is still well defined (the subject never exists; the
    /// prop never has a value), so this is for the caller's messages.
    pub fn check(&self, res: &Resolver) -> Result<(), String> {
        for c in &self.constraints {
            let known = match c.subject {
                Subject::Dungeon(r) | Subject::Branch { child: r } => {
                    (r as usize) < res.dungeons.len()
                }
                Subject::Level(r) => (r as usize) < res.levels.len(),
            };
            if !known {
                return Err(format!("{:?} names no record of the script", c.subject));
            }
            if let Allowed::Values(_) = c.allowed {
                if !c.prop.applies_to(c.subject) {
                    return Err(format!("{:?} has no {:?}", c.subject, c.prop));
                }
            }
        }
        Ok(())
    }

    /// The same evidence for another script of the same file (an outcome
    /// of a `dungeon.lua` that draws, [`crate::mix`]): records by index
    /// when both scripts have as many (of dungeons, of special levels),
    /// else by name (a dungeon's, a special level's with its dungeon's); a
    /// subject `to` does not have never exists there.
    pub fn for_outcome(&self, from: &Resolver, to: &Resolver) -> Evidence {
        let dungeon = |r: u32| -> u32 {
            if from.dungeons.len() == to.dungeons.len() {
                return r;
            }
            from.dungeons
                .get(r as usize)
                .and_then(|d| to.dungeons.iter().position(|e| e.name == d.name))
                .map_or(u32::MAX, |i| i as u32)
        };
        let level = |r: u32| -> u32 {
            if from.levels.len() == to.levels.len() {
                return r;
            }
            let Some(l) = from.levels.get(r as usize) else {
                return u32::MAX;
            };
            let dname = from.dungeons.get(l.dungeon as usize).map(|d| &d.name);
            to.levels
                .iter()
                .position(|m| {
                    m.name == l.name
                        && to.dungeons.get(m.dungeon as usize).map(|d| &d.name) == dname
                })
                .map_or(u32::MAX, |i| i as u32)
        };
        Evidence {
            constraints: self
                .constraints
                .iter()
                .map(|c| Constraint {
                    subject: match c.subject {
                        Subject::Dungeon(r) => Subject::Dungeon(dungeon(r)),
                        Subject::Level(r) => Subject::Level(level(r)),
                        Subject::Branch { child } => Subject::Branch {
                            child: dungeon(child),
                        },
                    },
                    ..c.clone()
                })
                .collect(),
        }
    }
}

/// A test of a whole layout, for what the enumeration does not track.
pub type Predicate = Arc<dyn Fn(&Resolver, &Resolved) -> bool + Send + Sync>;

/// The statistics' condition ([`crate::StatsOptions::given`]).
#[derive(Clone, Default)]
pub struct Given {
    /// Constraints the enumeration applies exactly.
    pub evidence: Option<Evidence>,
    /// Anything else: the statistics are then sampled from the loader,
    /// counting the layouts where it (and the evidence) holds.
    pub predicate: Option<Predicate>,
    /// The condition in words (the query), for the method and the views.
    pub describe: String,
}

impl fmt::Debug for Given {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Given")
            .field("evidence", &self.evidence)
            .field("predicate", &self.predicate.as_ref().map(|_| "<fn>"))
            .field("describe", &self.describe)
            .finish()
    }
}

impl Given {
    /// Whether a successful resolution meets the condition.
    pub fn holds(&self, res: &Resolver, resolved: &Resolved) -> bool {
        self.evidence
            .as_ref()
            .is_none_or(|e| e.holds(res, resolved))
            && self.predicate.as_ref().is_none_or(|p| p(res, resolved))
    }

    /// The condition for another script of the same file
    /// ([`Evidence::for_outcome`]; a predicate sees each outcome's own
    /// resolver).
    pub fn for_outcome(&self, from: &Resolver, to: &Resolver) -> Given {
        Given {
            evidence: self.evidence.as_ref().map(|e| e.for_outcome(from, to)),
            ..self.clone()
        }
    }
}

/// How likely the condition is ([`crate::Stats::given`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GivenResult {
    /// [`Given::describe`].
    pub describe: String,
    /// The chance of the evidence among the resolutions that succeed. Zero:
    /// no layout meets it (exact), or no sampled one did (then the tables
    /// are empty and every `exists` is 0).
    pub p_evidence: f64,
    /// The chance that a resolution succeeds and meets the evidence.
    pub p_joint: f64,
    /// Sampled: the layouts that loaded and met the condition, out of
    /// `loaded` that loaded; every figure but `p_evidence` and the
    /// failures comes from the `matching` ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matching: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loaded: Option<u64>,
}

/// The evidence as the enumeration applies it: per dungeon record, the
/// constraints its outcome settles.
#[derive(Clone, Debug)]
pub(crate) struct Checks {
    /// A constraint needs a subject that names no record: nothing meets
    /// the evidence.
    pub never: bool,
    /// Per dungeon record: the constraints on it, on the branch into it and
    /// on its special levels.
    pub by_dungeon: Vec<Vec<Constraint>>,
    /// Per dungeon record: its level records (local index) whose level or
    /// depth the evidence reads.
    pub filtered: Vec<Vec<u16>>,
    /// Per dungeon record: the evidence reads where its branch leaves from
    /// (its top depth, its levels' depths, the branch's level or depth),
    /// which a deferred run of leaf branches spreads over one outcome
    /// ([`crate::engine`]'s notes): such a run is followed branch by branch.
    pub reads_branch_level: Vec<bool>,
}

/// One existing dungeon's outcome, as far as the evidence reads it.
pub(crate) struct Facts<'a> {
    pub n: i32,
    pub depth_start: i32,
    /// The branch into it: `(level, depth)` of its parent end.
    pub branch: Option<(i32, i32)>,
    /// Which of its level records exist.
    pub pattern: &'a [bool],
}

/// Whether a constraint reads a special level's place (its level or depth).
fn reads_place(c: &Constraint) -> bool {
    matches!(c.subject, Subject::Level(_))
        && matches!(c.prop, Prop::Level | Prop::Depth)
        && matches!(c.allowed, Allowed::Values(_))
}

impl Checks {
    pub fn new(ev: &Evidence, res: &Resolver) -> Checks {
        let nd = res.dungeons.len();
        let mut checks = Checks {
            never: false,
            by_dungeon: vec![Vec::new(); nd],
            filtered: vec![Vec::new(); nd],
            reads_branch_level: vec![false; nd],
        };
        for c in &ev.constraints {
            let (rec, reads) = match c.subject {
                Subject::Dungeon(r) => (r, c.prop == Prop::DepthStart),
                Subject::Branch { child } => (child, true),
                Subject::Level(l) => match res.levels.get(l as usize) {
                    Some(lr) => {
                        if reads_place(c) {
                            let d = &res.dungeons[lr.dungeon as usize];
                            let j = (l - d.levels.0) as u16;
                            let list = &mut checks.filtered[lr.dungeon as usize];
                            if !list.contains(&j) {
                                list.push(j);
                                list.sort_unstable();
                            }
                        }
                        (lr.dungeon, c.prop == Prop::Depth)
                    }
                    None => (u32::MAX, false),
                },
            };
            match checks.by_dungeon.get_mut(rec as usize) {
                Some(list) => {
                    list.push(c.clone());
                    if reads && matches!(c.allowed, Allowed::Values(_)) {
                        checks.reads_branch_level[rec as usize] = true;
                    }
                }
                // A subject that never exists.
                None => checks.never |= c.allowed.needs_existence(),
            }
        }
        checks
    }

    /// Whether the evidence reads where some special level of dungeon
    /// record `rec` lies.
    pub fn filters(&self, rec: usize) -> bool {
        !self.filtered[rec].is_empty()
    }

    /// The levels each special level of dungeon record `rec` whose place
    /// the evidence reads may lie on, for the dungeon's top at depth
    /// `depth_start` (as layouts report it): `(local index, level mask)`.
    pub fn level_filters(&self, res: &Resolver, rec: usize, depth_start: i32) -> Vec<(u16, u64)> {
        let l0 = res.dungeons[rec].levels.0;
        let bits = |levels: &mut dyn Iterator<Item = i32>| {
            levels
                .filter(|l| (1..64).contains(l))
                .fold(0u64, |m, l| m | (1u64 << l))
        };
        self.filtered[rec]
            .iter()
            .map(|&j| {
                let l = l0 + u32::from(j);
                let mask = self.by_dungeon[rec]
                    .iter()
                    .filter(|c| c.subject == Subject::Level(l) && reads_place(c))
                    .fold(u64::MAX, |m, c| {
                        let Allowed::Values(set) = &c.allowed else {
                            return m;
                        };
                        m & match c.prop {
                            Prop::Level => bits(&mut set.iter().copied()),
                            // depth = depth_start + level - 1
                            _ => bits(
                                &mut set
                                    .iter()
                                    .map(|&d| i64::from(d) - i64::from(depth_start) + 1)
                                    .map(|l| i32::try_from(l).unwrap_or(0)),
                            ),
                        }
                    });
                (j, mask)
            })
            .collect()
    }

    /// Whether dungeon record `rec`'s outcome meets the constraints it
    /// settles: `facts` `None` when the dungeon does not exist; `passed`:
    /// its special levels whose place the evidence reads lay where it
    /// allows ([`Checks::level_filters`]).
    pub fn admits(
        &self,
        res: &Resolver,
        rec: usize,
        facts: Option<&Facts<'_>>,
        passed: bool,
    ) -> bool {
        if self.never {
            return false;
        }
        let list = &self.by_dungeon[rec];
        let Some(f) = facts else {
            return list.iter().all(|c| c.allowed.admits(false, None));
        };
        let l0 = res.dungeons[rec].levels.0;
        list.iter().all(|c| {
            let a = &c.allowed;
            match c.subject {
                Subject::Dungeon(_) => a.admits(
                    true,
                    match c.prop {
                        Prop::NumLevels => Some(f.n),
                        Prop::DepthStart => Some(f.depth_start),
                        _ => None,
                    },
                ),
                Subject::Branch { .. } => match f.branch {
                    None => a.admits(false, None),
                    Some((level, depth)) => a.admits(
                        true,
                        match c.prop {
                            Prop::Level => Some(level),
                            Prop::Depth => Some(depth),
                            _ => None,
                        },
                    ),
                },
                Subject::Level(l) => {
                    let j = (l - l0) as usize;
                    if !f.pattern.get(j).copied().unwrap_or(false) {
                        a.admits(false, None)
                    } else if reads_place(c) {
                        passed
                    } else {
                        // Exists, or a prop a level does not have.
                        a.admits(true, None)
                    }
                }
            }
        })
    }
}
