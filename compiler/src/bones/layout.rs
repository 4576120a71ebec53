//! Bones verdicts for one resolved layout: every level of every dungeon.

use super::names::file_name;
use super::rules::{decide, explain, LevelFacts, Rule};
use super::BonesOptions;
use crate::layout::{Layout, LayoutLevel};
use serde::Serialize;

/// The verdict for one level of one layout.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// Passes rules 1-5: a stored bones file is loaded here (with chance
    /// 1/3 on first arrival).
    pub can_load: bool,
    /// Chance that a death here leaves bones: 0 when rules 1-7 forbid it,
    /// else rule 8's `d/(d+1)`.
    pub leave_chance: f64,
    /// [`Self::leave_chance`] as a fraction.
    pub chance: (u32, u32),
    /// The deciding rule: the first that forbids bones, else rule 8.
    pub rule: Rule,
    /// The rule in a sentence, starting with its number.
    pub reason: String,
    /// The bones file name the game uses for this level, when it can load
    /// one; `None` when rules 1-5 forbid bones here.
    pub file_name: Option<String>,
}

/// One row of a layout's bones table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelBones {
    pub dungeon: String,
    /// The dungeon's index in the layout.
    #[serde(skip)]
    pub dungeon_index: usize,
    pub level: i32,
    pub depth: i32,
    /// The special level on this level (the first in the special-level
    /// chain, as NetHack's `Is_special` finds it).
    pub special: Option<String>,
    pub can_load: bool,
    pub leave_chance: f64,
    pub rule: String,
    pub file: Option<String>,
    #[serde(skip)]
    pub verdict: Verdict,
}

/// The special level on `(dungeon, level)`, as `Is_special` finds it.
pub fn special_at(layout: &Layout, dungeon: usize, level: i32) -> Option<&LayoutLevel> {
    layout
        .levels
        .iter()
        .find(|l| usize::try_from(l.dungeon).ok() == Some(dungeon) && l.level == level)
}

/// Whether some branch ends on `(dungeon, level)`. The Fort Ludios branch
/// keeps its "floating" marker (`end1.dungeon` = number of dungeons), so
/// its entrance level is not a branch level, as in the game.
pub fn is_branch_level(layout: &Layout, dungeon: usize, level: i32) -> bool {
    let Ok(d) = i32::try_from(dungeon) else {
        return false;
    };
    layout.branches.iter().any(|b| {
        (b.end1.dungeon == d && b.end1.level == level)
            || (b.end2.dungeon == d && b.end2.level == level)
    })
}

/// The dungeon at the other end of a branch that ends on `(dungeon, level)`.
fn branch_partner(layout: &Layout, dungeon: usize, level: i32) -> Option<&str> {
    let d = i32::try_from(dungeon).ok()?;
    let b = layout.branches.iter().find(|b| {
        (b.end1.dungeon == d && b.end1.level == level)
            || (b.end2.dungeon == d && b.end2.level == level)
    })?;
    let other = if b.end1.dungeon == d && b.end1.level == level {
        b.end2.dungeon
    } else {
        b.end1.dungeon
    };
    layout
        .dungeons
        .get(usize::try_from(other).ok()?)
        .map(|x| x.name.as_str())
}

/// The facts the rules need about `(dungeon, level)`; `None` when the
/// layout has no such level.
pub fn level_facts(
    layout: &Layout,
    dungeon: usize,
    level: i32,
    opts: &BonesOptions,
) -> Option<LevelFacts> {
    let d = layout.dungeons.get(dungeon)?;
    if level < 1 || level > d.num_levels {
        return None;
    }
    let special = special_at(layout, dungeon, level);
    Some(LevelFacts {
        special_none: special.is_some_and(|s| s.bones.is_empty()),
        dungeon_none: d.bones.is_empty(),
        bottom: level == d.num_levels,
        branch_level: is_branch_level(layout, dungeon, level),
        level,
        vibrating: d.hellish && level == d.num_levels.wrapping_sub(1),
        portal: special.is_some_and(|s| opts.is_portal_level(&s.name)),
        depth: d.depth_start.wrapping_add(level - 1),
    })
}

/// The bones verdict for `(dungeon, level)` of a layout (`dungeon` is the
/// layout's dungeon index, `level` counts from 1); `None` when the layout
/// has no such level.
pub fn level_verdict(
    layout: &Layout,
    dungeon: usize,
    level: i32,
    opts: &BonesOptions,
) -> Option<Verdict> {
    let facts = level_facts(layout, dungeon, level, opts)?;
    let d = layout.dungeons.get(dungeon)?;
    let special = special_at(layout, dungeon, level);
    let decision = decide(&facts);
    let mut reason = explain(&decision, &facts, special.map(|s| s.name.as_str()), &d.name);
    if decision.rule == Rule::BranchLevel {
        if let Some(other) = branch_partner(layout, dungeon, level) {
            reason = format!("4: the branch to \"{other}\" ends on level {level}");
        }
    }
    let file = if decision.can_load {
        file_name(
            &d.name,
            &d.bones,
            special.map(|s| s.bones.as_str()),
            level,
            opts.role.as_deref(),
        )
        .map(|name| name + opts.pool.suffix(Some(layout.seed)).as_deref().unwrap_or(""))
    } else {
        None
    };
    Some(Verdict {
        can_load: decision.can_load,
        leave_chance: decision.leave_chance(),
        chance: decision.chance,
        rule: decision.rule,
        reason,
        file_name: file,
    })
}

/// Every level of every dungeon of a layout, in dungeon order.
pub fn layout_verdicts(layout: &Layout, opts: &BonesOptions) -> Vec<LevelBones> {
    let mut out = Vec::new();
    for (di, d) in layout.dungeons.iter().enumerate() {
        for level in 1..=d.num_levels.clamp(0, super::MAX_LEVEL_NUMBER) {
            let Some(verdict) = level_verdict(layout, di, level, opts) else {
                continue;
            };
            out.push(LevelBones {
                dungeon: d.name.clone(),
                dungeon_index: di,
                level,
                depth: d.depth_start.wrapping_add(level - 1),
                special: special_at(layout, di, level).map(|s| s.name.clone()),
                can_load: verdict.can_load,
                leave_chance: verdict.leave_chance,
                rule: verdict.reason.clone(),
                file: verdict.file_name.clone(),
                verdict,
            });
        }
    }
    out
}
