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
        main_dungeon: d.name == dgnkit_bones::rules::MAIN_DUNGEON,
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
    /// [`core_chance`], with the placements so far.
    pub(super) fn core_chance(&self, rec: usize, info: &Present, l: i32) -> W {
        core_chance(
            self.res,
            self.other_end,
            &self.memo.placements,
            rec,
            info,
            l,
        )
    }

    /// Whether the parent `owner` brings rule 11 to the entry level of a
    /// dungeon its branch leads to.
    pub(super) fn incoming_class(&self, owner: u32) -> usize {
        if self.other_end.is_some() && self.res.dungeons[owner as usize].name == QUEST_DUNGEON {
            END_QUEST
        } else {
            END_PLAIN
        }
    }

    /// The chances of each other-end class that the entry level of dungeon
    /// record `rec`, as an outcome `info` has it, brings to the parent
    /// level its branch leaves from.
    pub(super) fn entry_classes(&self, rec: usize, info: &Present) -> [W; ENDS] {
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
}
