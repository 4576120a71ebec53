//! Bones verdicts for one resolved layout: every level of every dungeon.

use super::names::{file_name, role_part, with_infix, QUEST_DUNGEON};
use super::rules::{
    decide, explain, no_bones_rule, BranchRule, Invocation, Known, LevelFacts, OtherEnd, Rule,
};
use super::BonesOptions;
use dgnkit_script::layout::{Layout, LayoutLevel};
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
    /// A rule that forbids bones here unless the command line says
    /// otherwise (rule 10 without `--role`).
    pub unless: Option<Rule>,
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
pub fn is_branch_level<S: LevelSource + ?Sized>(src: &S, dungeon: usize, level: i32) -> bool {
    other_end(src, dungeon, level).is_some()
}

/// The other end of the first branch (in the game's list order, as
/// `Is_branchlev` finds it) that ends on `(dungeon, level)`.
fn other_end<S: LevelSource + ?Sized>(src: &S, dungeon: usize, level: i32) -> Option<(i32, i32)> {
    let d = i32::try_from(dungeon).ok()?;
    (0..).map_while(|i| src.branch(i)).find_map(|(end1, end2)| {
        if end1 == (d, level) {
            Some(end2)
        } else if end2 == (d, level) {
            Some(end1)
        } else {
            None
        }
    })
}

/// The dungeon at the other end of a branch that ends on `(dungeon, level)`.
fn branch_partner(layout: &Layout, dungeon: usize, level: i32) -> Option<&str> {
    let (other, _) = other_end(layout, dungeon, level)?;
    layout
        .dungeons
        .get(usize::try_from(other).ok()?)
        .map(|x| x.name.as_str())
}

/// One dungeon as the rules see it.
pub struct DungeonFacts<'a> {
    pub name: &'a str,
    /// Its bones marker is `"none"`.
    pub marker_none: bool,
    pub num_levels: i32,
    pub depth_start: i32,
    pub hellish: bool,
}

/// What the rules read of a layout. A [`Layout`] is one; `dgn find` reads
/// the same facts from a layout the loader has not finished.
pub trait LevelSource {
    fn dungeon(&self, d: usize) -> Option<DungeonFacts<'_>>;
    /// The special level on `(d, level)` as `Is_special` finds it: its
    /// name and whether its bones marker is `"none"`.
    fn special(&self, d: usize, level: i32) -> Option<(&str, bool)>;
    /// Branch `i` in the game's list order: `(end1, end2)`, each
    /// `(dungeon, level)`.
    fn branch(&self, i: usize) -> Option<((i32, i32), (i32, i32))>;
    /// Where the first special level whose name satisfies `pred` lies.
    fn find_special(&self, pred: &dyn Fn(&str) -> bool) -> Option<(usize, i32)>;
}

impl LevelSource for Layout {
    fn dungeon(&self, d: usize) -> Option<DungeonFacts<'_>> {
        self.dungeons.get(d).map(|x| DungeonFacts {
            name: &x.name,
            marker_none: x.bones.is_empty(),
            num_levels: x.num_levels,
            depth_start: x.depth_start,
            hellish: x.hellish,
        })
    }

    fn special(&self, d: usize, level: i32) -> Option<(&str, bool)> {
        special_at(self, d, level).map(|s| (s.name.as_str(), s.bones.is_empty()))
    }

    fn branch(&self, i: usize) -> Option<((i32, i32), (i32, i32))> {
        self.branches.get(i).map(|b| {
            (
                (b.end1.dungeon, b.end1.level),
                (b.end2.dungeon, b.end2.level),
            )
        })
    }

    fn find_special(&self, pred: &dyn Fn(&str) -> bool) -> Option<(usize, i32)> {
        self.levels
            .iter()
            .find(|l| pred(&l.name))
            .and_then(|l| Some((usize::try_from(l.dungeon).ok()?, l.level)))
    }
}

/// The facts the rules need about `(dungeon, level)`; `None` when the
/// layout has no such level.
pub fn level_facts<S: LevelSource + ?Sized>(
    src: &S,
    dungeon: usize,
    level: i32,
    opts: &BonesOptions,
) -> Option<LevelFacts> {
    facts(src, &Landmarks::of(src, opts), dungeon, level, opts, true)
}

/// [`level_facts`] with the layout's [`Landmarks`] found once, for a caller
/// that asks about every level of one layout.
pub fn level_facts_in<S: LevelSource + ?Sized>(
    src: &S,
    marks: &Landmarks,
    dungeon: usize,
    level: i32,
    opts: &BonesOptions,
) -> Option<LevelFacts> {
    facts(src, marks, dungeon, level, opts, true)
}

/// The special levels the rules look up by name anywhere in a layout, each
/// found by a search of the whole layout; only those the options' rules
/// read.
#[derive(Clone, Copy, Debug, Default)]
pub struct Landmarks {
    /// The first `*-strt` and `*-loca` levels (rule 10).
    quest_start: Option<(usize, i32)>,
    quest_locate: Option<(usize, i32)>,
    /// The sanctum (xNetHack's invocation rule).
    sanctum: Option<(usize, i32)>,
}

impl Landmarks {
    pub fn of<S: LevelSource + ?Sized>(src: &S, opts: &BonesOptions) -> Landmarks {
        let madman = opts.is_madman() != Known::No;
        let sanctum = opts.rules.invocation == Invocation::SanctumDungeon;
        Landmarks {
            quest_start: madman
                .then(|| src.find_special(&|n| n.ends_with("-strt")))
                .flatten(),
            quest_locate: madman
                .then(|| src.find_special(&|n| n.ends_with("-loca")))
                .flatten(),
            sanctum: sanctum
                .then(|| src.find_special(&|n| n == crate::rules::SANCTUM))
                .flatten(),
        }
    }
}

/// `branches`: also the facts of the other end of a branch ending here
/// (dNetHack's rules 11-12 look there, without looking further).
fn facts<S: LevelSource + ?Sized>(
    src: &S,
    marks: &Landmarks,
    dungeon: usize,
    level: i32,
    opts: &BonesOptions,
    branches: bool,
) -> Option<LevelFacts> {
    let d = src.dungeon(dungeon)?;
    if level < 1 || level > d.num_levels {
        return None;
    }
    let special = src.special(dungeon, level);
    let rules = &opts.rules;
    // dNAO `bones.c:35`: the level above `qlocate_level` in the dungeon
    // of `qstart_level` (names from `X_START`/`X_LOCATE`, `dungeon.c:757-758`).
    let madman_home = match (marks.quest_start, marks.quest_locate) {
        (Some((sd, _)), Some((_, ll))) if sd == dungeon && ll == level + 1 => opts.is_madman(),
        _ => Known::No,
    };
    let other_end = match (branches, rules.branch) {
        (true, BranchRule::OtherEnd) => other_end(src, dungeon, level).and_then(|(od, ol)| {
            let od = usize::try_from(od).ok()?;
            let of = facts(src, marks, od, ol, opts, false)?;
            Some(OtherEnd {
                in_quest: src.dungeon(od)?.name == QUEST_DUNGEON,
                no_bones: no_bones_rule(rules, &of, false),
            })
        }),
        _ => None,
    };
    Some(LevelFacts {
        special_none: special.is_some_and(|(_, none)| none),
        dungeon_none: d.marker_none,
        bottom: level == d.num_levels,
        branch_level: is_branch_level(src, dungeon, level),
        level,
        // GnollHack's `main_dungeon_dnum` is `dname_to_dnum("The Dungeons
        // of Doom")` (src/dungeon.c:1012), not index 0.
        main_dungeon: d.name == crate::rules::MAIN_DUNGEON,
        vibrating: rules.invocation.applies(d.hellish, || {
            marks.sanctum.is_some_and(|(sd, _)| sd == dungeon)
        }) && level == d.num_levels.wrapping_sub(1),
        portal: special.is_some_and(|(name, _)| opts.is_portal_level(name)),
        depth: d.depth_start.wrapping_add(level - 1),
        madman_home,
        other_end,
        event: special.and_then(|(name, _)| opts.event_level(name)),
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
    verdict_in(layout, &Landmarks::of(layout, opts), dungeon, level, opts)
}

fn verdict_in(
    layout: &Layout,
    marks: &Landmarks,
    dungeon: usize,
    level: i32,
    opts: &BonesOptions,
) -> Option<Verdict> {
    let facts = level_facts_in(layout, marks, dungeon, level, opts)?;
    let d = layout.dungeons.get(dungeon)?;
    let special = special_at(layout, dungeon, level);
    let decision = decide(&opts.rules, &facts);
    let reason = explain(
        &decision,
        &facts,
        special.map(|s| s.name.as_str()),
        &d.name,
        branch_partner(layout, dungeon, level),
    );
    let file = if decision.can_load {
        file_name(
            &d.name,
            &d.bones,
            special.map(|s| s.bones.as_str()),
            level,
            opts.role.as_deref(),
        )
        .map(|name| {
            let branch = if opts.rules.branch_in_name {
                branch_name_part(layout, dungeon, level, opts)
            } else {
                String::new()
            };
            let name = with_infix(name, opts.rules.name_infix);
            name + &branch + opts.pool.suffix(Some(layout.seed)).as_deref().unwrap_or("")
        })
    } else {
        None
    };
    Some(Verdict {
        can_load: decision.can_load,
        leave_chance: decision.leave_chance(),
        chance: decision.chance,
        rule: decision.rule,
        reason,
        unless: decision.unless,
        file_name: file,
    })
}

/// dNetHack's file names of a branch level go on with the other end's
/// dungeon marker and role code (`src/files.c:703-709`).
fn branch_name_part(layout: &Layout, dungeon: usize, level: i32, opts: &BonesOptions) -> String {
    let Some(other) = other_end(layout, dungeon, level)
        .and_then(|(d, _)| layout.dungeons.get(usize::try_from(d).ok()?))
    else {
        return String::new();
    };
    // `%c` of a "none" marker writes the NUL that ends the name.
    match other.bones.chars().next() {
        Some(m) => format!(".{m}{}", role_part(&other.name, opts.role.as_deref())),
        None => ".".to_string(),
    }
}

/// Every level of every dungeon of a layout, in dungeon order.
pub fn layout_verdicts(layout: &Layout, opts: &BonesOptions) -> Vec<LevelBones> {
    let marks = Landmarks::of(layout, opts);
    let mut out = Vec::new();
    for (di, d) in layout.dungeons.iter().enumerate() {
        for level in 1..=d.num_levels.clamp(0, super::MAX_LEVEL_NUMBER) {
            let Some(verdict) = verdict_in(layout, &marks, di, level, opts) else {
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
