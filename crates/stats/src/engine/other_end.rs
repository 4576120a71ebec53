//! dNetHack's bones rules across branches: a branch level is judged by
//! the other end of the first branch ending there. Invariant: without
//! those rules every entry brings the plain class, and nothing here costs.

use super::layer::Present;
use super::Engine;
use crate::acc::{ENDS, END_NO_BONES, END_PLAIN, END_QUEST};
use crate::place::{Placement, LEVELS};
use crate::weight::W;
use dgnkit_bones::names::QUEST_DUNGEON;
use dgnkit_bones::{no_bones_rule, BonesOptions, LevelFacts};
use dgnkit_loader::Resolver;
use dgnkit_script::flags;
use std::sync::Arc;

/// What [`core_chance`] reads of the file besides the outcome, worked
/// out once: it is asked for every level a later branch may leave from,
/// of every outcome of a dungeon, and the names it compares are the same
/// each time.
#[derive(Debug)]
pub(crate) struct CoreFacts<'a> {
    opts: &'a BonesOptions,
    /// Per dungeon record.
    dungeons: Vec<CoreDungeon>,
}

#[derive(Debug)]
struct CoreDungeon {
    dungeon_none: bool,
    main_dungeon: bool,
    hellish: bool,
    /// Its level records that make a no-bones level where they lie (marker
    /// "none", or waiting for an event), by local index, in order.
    core: Vec<usize>,
}

impl<'a> CoreFacts<'a> {
    pub(crate) fn new(res: &Resolver, opts: &'a BonesOptions) -> CoreFacts<'a> {
        let dungeons = res
            .dungeons
            .iter()
            .map(|d| CoreDungeon {
                dungeon_none: d.bones.is_empty(),
                main_dungeon: d.name == dgnkit_bones::rules::MAIN_DUNGEON,
                hellish: d.flags & flags::HELLISH != 0,
                core: (d.levels.0..d.levels.1)
                    .enumerate()
                    .filter(|&(_, l)| {
                        let lrec = &res.levels[l as usize];
                        lrec.bones.is_empty() || opts.event_level(&lrec.name).is_some()
                    })
                    .map(|(j, _)| j)
                    .collect(),
            })
            .collect();
        CoreFacts { opts, dungeons }
    }
}

/// The chance that level `l` of dungeon record `rec`, as outcome `info`
/// has it, is a no-bones level judged without branch rules: by its own
/// facts, or by a special level with marker "none" or waiting for an event
/// lying there. Zero without dNetHack's bones rules (`facts`).
pub(crate) fn core_chance(
    facts: Option<&CoreFacts<'_>>,
    placements: &[Arc<Placement>],
    rec: usize,
    info: &Present,
    l: i32,
) -> W {
    let Some(facts) = facts else {
        return W::ZERO;
    };
    let d = &facts.dungeons[rec];
    let num = info.n;
    let f = LevelFacts {
        dungeon_none: d.dungeon_none,
        bottom: l == num,
        level: l,
        main_dungeon: d.main_dungeon,
        vibrating: d.hellish && l == num - 1,
        ..LevelFacts::default()
    };
    if no_bones_rule(&facts.opts.rules, &f, false).is_some() {
        return W::ONE;
    }
    let Some(at) = usize::try_from(l).ok().filter(|&l| l < LEVELS) else {
        return W::ZERO;
    };
    let class = &placements[info.placement as usize].classes[info.class as usize];
    let core = d.core.iter().fold(W::ZERO, |a, &j| {
        a + class.pos[j].get(at).copied().unwrap_or(W::ZERO)
    });
    if class.p.v > 0.0 {
        (core / class.p).snapped()
    } else {
        W::ZERO
    }
}

impl<'a> Engine<'a> {
    /// Whether the parent `owner` brings rule 11 to the entry level of a
    /// dungeon its branch leads to.
    pub(super) fn incoming_class(&self, owner: u32) -> usize {
        if self.other_end.is_some() && self.res.dungeons[owner as usize].name == QUEST_DUNGEON {
            END_QUEST
        } else {
            END_PLAIN
        }
    }
}

/// The chances of each other-end class that the entry level of dungeon
/// record `rec`, as an outcome `info` has it, brings to the parent level
/// its branch leaves from (`facts` and `placements` as [`core_chance`]
/// takes them). Apart from the engine: the backward pass asks from both
/// threads, and the engine's list tables are one thread's.
pub(super) fn entry_classes(
    res: &Resolver,
    facts: Option<&CoreFacts<'_>>,
    placements: &[Arc<Placement>],
    rec: usize,
    info: &Present,
) -> [W; ENDS] {
    let mut out = [W::ZERO; ENDS];
    if facts.is_none() {
        out[END_PLAIN] = W::ONE;
        return out;
    }
    let d = &res.dungeons[rec];
    if d.name == QUEST_DUNGEON {
        out[END_QUEST] = W::ONE;
        return out;
    }
    // A branch from an earlier dungeon: this one is not the first.
    let core = core_chance(facts, placements, rec, info, info.entry);
    out[END_NO_BONES] = core;
    out[END_PLAIN] = W::ONE - core;
    out
}
