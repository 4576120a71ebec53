//! The rules of `bones.md` as one decision over the facts of one level.
//! Everything that judges bones (one layout, all layouts, the checks) goes
//! through [`decide`], so the rules live in one place.

use serde::Serialize;
use std::fmt;

/// The rules of `bones.md`, numbered as there. Rules 1-5 are NetHack's
/// "no bones level" test (both leaving and loading use it); 6-8 only stop a
/// level from leaving bones. Rules 9-12 are variants' additions to the "no
/// bones level" test, numbered after `bones.md`'s so a number never changes
/// meaning; a game's [`BonesRules`] says which of all these it applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Rule {
    /// 1: a special level whose bones marker is `"none"`.
    SpecialNone,
    /// 2: a dungeon whose bones marker is `"none"`.
    DungeonNone,
    /// 3: the bottom level of its dungeon.
    Bottom,
    /// 4: an end of a branch, and not level 1 of its dungeon.
    BranchLevel,
    /// 5: the level just above the bottom of a hellish dungeon.
    VibratingSquare,
    /// 6: a magic portal on a level that is not a branch level.
    MagicPortal,
    /// 7: depth below 1 (the endgame).
    DepthBelowOne,
    /// 8: the depth roll; the level is eligible, with chance `d/(d+1)`.
    DepthRoll,
    /// 9: level 1 of its dungeon (SLASH'EM: every dungeon).
    LevelOne,
    /// 10: the Madman's home: the Quest level just above the locate level,
    /// for a Madman only (dNetHack).
    MadmanHome,
    /// 11: a branch level whose other end is in the Quest (dNetHack).
    QuestBranch,
    /// 12: a branch level whose other end is itself a no-bones level
    /// (dNetHack, one level of recursion).
    BranchToNoBones,
    /// 13: a special level without bones until something has happened in
    /// the game ([`EventLevel`]; EvilHack's valley until Cerberus dies).
    UntilEvent,
}

/// Outcome categories of the rules for one level, as the statistics count
/// them: the first rule that forbids bones (rules 1-7 at 0-6, rules 9-12 at
/// 9-12), rule 8 with chance 0 (depth 1-3), or eligible.
pub const CATEGORIES: usize = 14;
/// Rule 8 decides and the depth is below 4: never leaves bones.
pub const CAT_SHALLOW: usize = 7;
/// Rule 8 decides with a chance above 0.
pub const CAT_ELIGIBLE: usize = 8;

impl Rule {
    pub const ALL: [Rule; 13] = [
        Rule::SpecialNone,
        Rule::DungeonNone,
        Rule::Bottom,
        Rule::BranchLevel,
        Rule::VibratingSquare,
        Rule::MagicPortal,
        Rule::DepthBelowOne,
        Rule::DepthRoll,
        Rule::LevelOne,
        Rule::MadmanHome,
        Rule::QuestBranch,
        Rule::BranchToNoBones,
        Rule::UntilEvent,
    ];

    /// The rule's number in `bones.md`.
    pub fn number(self) -> u8 {
        match self {
            Rule::SpecialNone => 1,
            Rule::DungeonNone => 2,
            Rule::Bottom => 3,
            Rule::BranchLevel => 4,
            Rule::VibratingSquare => 5,
            Rule::MagicPortal => 6,
            Rule::DepthBelowOne => 7,
            Rule::DepthRoll => 8,
            Rule::LevelOne => 9,
            Rule::MadmanHome => 10,
            Rule::QuestBranch => 11,
            Rule::BranchToNoBones => 12,
            Rule::UntilEvent => 13,
        }
    }

    /// The statistics' category of a rule that forbids bones
    /// ([`CATEGORIES`]); rule 8 has two ([`CAT_SHALLOW`], [`CAT_ELIGIBLE`]).
    pub fn category(self) -> usize {
        match self.number() {
            n @ 1..=7 => usize::from(n) - 1,
            8 => CAT_ELIGIBLE,
            n => usize::from(n),
        }
    }

    /// The rule a category counts.
    pub fn of_category(c: usize) -> Option<Rule> {
        match c {
            0..=6 => Rule::from_number(c as u8 + 1),
            CAT_SHALLOW | CAT_ELIGIBLE => Some(Rule::DepthRoll),
            _ => u8::try_from(c).ok().and_then(Rule::from_number),
        }
    }

    /// Whether a category keeps the level from loading bones.
    pub fn category_stops_loading(c: usize) -> bool {
        Rule::of_category(c).is_some_and(Rule::stops_loading)
    }

    pub fn from_number(n: u8) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.number() == n)
    }

    /// Whether the rule belongs to the "no bones level" test (1-5, 9-12),
    /// which stops loading as well as leaving.
    pub fn stops_loading(self) -> bool {
        !matches!(
            self,
            Rule::MagicPortal | Rule::DepthBelowOne | Rule::DepthRoll
        )
    }

    /// What the rule says, in a few words.
    pub fn summary(self) -> &'static str {
        match self {
            Rule::SpecialNone => "special level with bones marker \"none\"",
            Rule::DungeonNone => "dungeon with bones marker \"none\"",
            Rule::Bottom => "bottom level of its dungeon",
            Rule::BranchLevel => "a branch ends here (and it is not level 1)",
            Rule::VibratingSquare => {
                "level above the bottom of a hellish dungeon (vibrating square)"
            }
            Rule::MagicPortal => "holds a magic portal and is not a branch level",
            Rule::DepthBelowOne => "depth below 1",
            Rule::DepthRoll => "depth roll",
            Rule::LevelOne => "level 1 of its dungeon",
            Rule::MadmanHome => "a Madman's home: the Quest level above the locate level",
            Rule::QuestBranch => "a branch to the Quest ends here",
            Rule::BranchToNoBones => "the branch ending here leads to a no-bones level",
            Rule::UntilEvent => "no bones until an event of the game",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rule {}", self.number())
    }
}

/// Which first levels a game refuses bones on, beyond the bottom/branch
/// rules every game has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LevelOneRule {
    /// Vanilla: level 1 is judged as any other level.
    None,
    /// Level 1 of the main dungeon (dungeon 0) never holds bones.
    MainDungeon,
    /// Level 1 of every dungeon never holds bones.
    EveryDungeon,
}

/// Which branch levels a game refuses bones on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BranchRule {
    /// Vanilla's rule 4: every branch level but level 1 of its dungeon.
    BelowLevelOne,
    /// dNetHack: rules 11 and 12, by the other end of the first branch
    /// that ends on the level (`Is_branchlev` returns the first in the
    /// game's list).
    OtherEnd,
}

/// A special level on which a game allows bones only once something has
/// happened (rule 13). dgnkit does not know the game's state: its verdicts
/// say "no bones" and name the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EventLevel {
    /// The special level (compared without case).
    pub level: &'static str,
    /// What must have happened, e.g. "Cerberus is killed".
    pub event: &'static str,
    /// Where the game says so.
    pub source: &'static str,
}

/// How `can_make_bones()` draws its depth roll. Both leave bones with
/// chance `d/(d+1)`, `d = depth / 4`, outside wizard mode; they differ in
/// the draws they make, which a replay of the game's generator follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DepthRollDraw {
    /// Vanilla: `rn2(1 + depth/4)` at every depth, in wizard mode too
    /// (3.6 `bones.c:343-346`, 3.4.3 `bones.c:179-184`).
    Always,
    /// GnollHack (`src/bones.c:550-556`): nothing is drawn in wizard mode
    /// or at depths 1-3.
    SkipWizardAndShallow,
}

/// How a game's bones rules differ from vanilla's (`bones.md`); each game's
/// record (`dgnkit::games`) holds one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BonesRules {
    pub level_one: LevelOneRule,
    /// Rule 3 (the bottom level of its dungeon).
    pub bottom: bool,
    /// Rule 4, or dNetHack's rules 11 and 12.
    pub branch: BranchRule,
    /// Rule 10: the role (file code) whose Quest home, the level just above
    /// the locate level, never holds bones.
    pub madman_home: Option<&'static str>,
    /// Rule 6 (a magic portal on a level that is not a branch level).
    pub magic_portal: bool,
    /// The special levels whose level files place a magic portal (rule 6),
    /// the default of `--portal-levels`.
    pub portal_levels: &'static [&'static str],
    /// How bones files are spread over pools.
    pub pool: BonesPool,
    /// The file name of a branch level also names the other end's dungeon
    /// marker and role code (dNetHack).
    pub branch_in_name: bool,
    /// What else the game tests that the dungeon description cannot tell
    /// (options, the hero's state), said with every verdict list.
    pub notes: &'static [&'static str],
    /// Rule 13.
    pub event_levels: &'static [EventLevel],
    pub depth_roll: DepthRollDraw,
    /// Written after `bon` (and a pool digit) in file names, before the
    /// dungeon marker: GnollHack's `-` + difficulty (`*`: every one).
    pub name_infix: &'static str,
    /// Which dungeons rule 5 (the vibrating square's level) looks at.
    pub invocation: Invocation,
}

/// Where rule 5's "level above the bottom" applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invocation {
    /// Every hellish dungeon (`In_hell(lev) && lev->dlevel ==
    /// dunlevs_in_dungeon(lev) - 1`, 3.6 src/bones.c:32-33).
    Hellish,
    /// Only the dungeon of the `sanctum` level (xNetHack's
    /// `Invocation_lev`, src/bones.c:32, src/dungeon.c:2051-2055): its
    /// Gehennom has seven hellish dungeons beside it.
    SanctumDungeon,
}

impl Invocation {
    /// Whether a dungeon (hellish or not, holding the sanctum or not) has
    /// the vibrating square's level above its bottom (`has_sanctum` is
    /// asked only when the rule reads it).
    pub fn applies(self, hellish: bool, has_sanctum: impl FnOnce() -> bool) -> bool {
        match self {
            Invocation::Hellish => hellish,
            Invocation::SanctumDungeon => has_sanctum(),
        }
    }
}

/// The dungeon GnollHack's level-one rule names (`main_dungeon_dnum`).
pub const MAIN_DUNGEON: &str = "The Dungeons of Doom";

/// The special level whose dungeon xNetHack's invocation test names.
pub const SANCTUM: &str = "sanctum";

impl BonesRules {
    /// NetHack 3.4.3 and 3.6 (`bones.md`).
    pub const VANILLA: BonesRules = BonesRules {
        level_one: LevelOneRule::None,
        bottom: true,
        branch: BranchRule::BelowLevelOne,
        madman_home: None,
        magic_portal: true,
        portal_levels: &super::DEFAULT_PORTAL_LEVELS,
        pool: BonesPool::None,
        branch_in_name: false,
        notes: &[],
        event_levels: &[],
        depth_roll: DepthRollDraw::Always,
        name_infix: "",
        invocation: Invocation::Hellish,
    };
}

/// Bones pools: a game may keep several bones files per level and pick one
/// per game, by a suffix of the file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BonesPool {
    /// One file per level (vanilla's default build).
    None,
    /// `.` + (the game seed `% n`) after the name: UnNetHack's BONES_POOL
    /// (`src/files.c:904-909`). The game seed is the layout's seed.
    SeedSuffix(u32),
    /// `.` + (the game's start time `% n`) after the name: DynaHack
    /// (`files.c:166,193,209`, `u_init.c:600`). The start time is not the
    /// generator's seed, so names show `*` for the pool.
    BirthSuffix(u32),
}

impl BonesPool {
    /// The suffix of a file name for a game seeded with `seed` (`*` when
    /// the pool is not known from it).
    pub fn suffix(self, seed: Option<u64>) -> Option<String> {
        match self {
            BonesPool::None => None,
            BonesPool::SeedSuffix(n) => Some(match seed {
                Some(s) => format!(".{}", s % u64::from(n.max(1))),
                None => ".*".to_string(),
            }),
            BonesPool::BirthSuffix(_) => Some(".*".to_string()),
        }
    }
}

/// A fact the dungeon description alone may not settle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Known {
    #[default]
    No,
    Yes,
    /// It depends on what the command line did not say (the hero's role).
    Unknown,
}

/// The other end of the first branch that ends on a level (dNetHack's
/// rules 11 and 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OtherEnd {
    /// It lies in the Quest (`In_quest`).
    pub in_quest: bool,
    /// The "no bones level" rule that holds there, judged without the
    /// branch rules (`no_bones_level_core(.., TRUE)`).
    pub no_bones: Option<Rule>,
}

/// What the rules need to know about one level of one layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelFacts {
    /// A special level with bones marker `"none"` lies here.
    pub special_none: bool,
    /// The dungeon's bones marker is `"none"`.
    pub dungeon_none: bool,
    /// The level is its dungeon's bottom level.
    pub bottom: bool,
    /// Some branch ends on this level (either end).
    pub branch_level: bool,
    /// The level number in its dungeon (1 = top).
    pub level: i32,
    /// The dungeon is the one named "The Dungeons of Doom" (GnollHack's
    /// `main_dungeon_dnum`, looked up by name).
    pub main_dungeon: bool,
    /// The dungeon is hellish and this is the level above its bottom.
    pub vibrating: bool,
    /// A special level from the portal list lies here.
    pub portal: bool,
    pub depth: i32,
    /// The Quest level just above the locate level, and the hero is a role
    /// the rules name there (rule 10).
    pub madman_home: Known,
    /// The other end of the first branch ending here (games with
    /// [`BranchRule::OtherEnd`]).
    pub other_end: Option<OtherEnd>,
    /// A special level lies here that holds bones only after an event
    /// (rule 13).
    pub event: Option<&'static EventLevel>,
}

/// The chance that a death at `depth` leaves bones (rule 8), as
/// `(numerator, denominator)`: `d/(d+1)` with `d = depth / 4`. The game draws
/// `rn2(1 + d)` and saves only on a non-zero result.
pub fn depth_chance(depth: i32) -> (u32, u32) {
    if depth < 1 {
        return (0, 1);
    }
    let d = (depth >> 2) as u32;
    (d, d + 1)
}

/// The outcome of the rules for one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Passes rules 1-5: a stored bones file would be loaded here.
    pub can_load: bool,
    /// The rule that decides: the first that forbids bones, else
    /// [`Rule::DepthRoll`].
    pub rule: Rule,
    /// Chance of leaving bones on death, `(numerator, denominator)`;
    /// `(0, 1)` when a rule forbids it.
    pub chance: (u32, u32),
    /// A rule that would forbid bones here depending on what the command
    /// line did not say (rule 10 without `--role`).
    pub unless: Option<Rule>,
}

impl Decision {
    pub fn can_leave(&self) -> bool {
        self.chance.0 > 0
    }

    pub fn leave_chance(&self) -> f64 {
        f64::from(self.chance.0) / f64::from(self.chance.1)
    }
}

/// The game's "no bones level" test (`no_bones_level()`): the first rule
/// that forbids bones, in the game's order. `branches` is false for the
/// other end of a branch (dNetHack's recursion skips its branch rules).
pub fn no_bones_rule(rules: &BonesRules, f: &LevelFacts, branches: bool) -> Option<Rule> {
    if f.special_none {
        return Some(Rule::SpecialNone);
    }
    if f.dungeon_none {
        return Some(Rule::DungeonNone);
    }
    if f.madman_home == Known::Yes && rules.madman_home.is_some() {
        return Some(Rule::MadmanHome);
    }
    if rules.bottom && f.bottom {
        return Some(Rule::Bottom);
    }
    if branches {
        match rules.branch {
            BranchRule::BelowLevelOne if f.branch_level && f.level > 1 => {
                return Some(Rule::BranchLevel);
            }
            BranchRule::OtherEnd => match f.other_end {
                Some(o) if o.in_quest => return Some(Rule::QuestBranch),
                Some(o) if o.no_bones.is_some() => return Some(Rule::BranchToNoBones),
                _ => {}
            },
            BranchRule::BelowLevelOne => {}
        }
    }
    let level_one = match rules.level_one {
        LevelOneRule::None => false,
        LevelOneRule::MainDungeon => f.main_dungeon,
        LevelOneRule::EveryDungeon => true,
    };
    if level_one && f.level < 2 {
        return Some(Rule::LevelOne);
    }
    // EvilHack tests its valley here (`src/bones.c:37-39`), after the
    // branch rule and before the hellish one.
    if f.event.is_some() {
        return Some(Rule::UntilEvent);
    }
    if f.vibrating {
        return Some(Rule::VibratingSquare);
    }
    None
}

/// Applies a game's rules in order: its "no bones level" test, then
/// `can_make_bones()`'s.
pub fn decide(rules: &BonesRules, f: &LevelFacts) -> Decision {
    let unless = (f.madman_home == Known::Unknown && rules.madman_home.is_some())
        .then_some(Rule::MadmanHome);
    let no = |rule: Rule, can_load: bool| Decision {
        can_load,
        rule,
        chance: (0, 1),
        unless,
    };
    if let Some(rule) = no_bones_rule(rules, f, true) {
        return Decision {
            unless: None,
            ..no(rule, false)
        };
    }
    if rules.magic_portal && f.portal && !f.branch_level {
        return no(Rule::MagicPortal, true);
    }
    if f.depth < 1 {
        return no(Rule::DepthBelowOne, true);
    }
    Decision {
        can_load: true,
        rule: Rule::DepthRoll,
        chance: depth_chance(f.depth),
        unless,
    }
}

/// A sentence for a decision: the rule number first, so tools can read it.
/// `partner`: the dungeon at the other end of the (first) branch ending
/// on the level.
pub fn explain(
    d: &Decision,
    f: &LevelFacts,
    special: Option<&str>,
    dungeon: &str,
    partner: Option<&str>,
) -> String {
    let text = explain_rule(d, f, special, dungeon, partner);
    match d.unless {
        Some(r) => format!(
            "{text}; but for a Madman never (rule {}: {}; give --role to know)",
            r.number(),
            r.summary()
        ),
        None => text,
    }
}

fn explain_rule(
    d: &Decision,
    f: &LevelFacts,
    special: Option<&str>,
    dungeon: &str,
    partner: Option<&str>,
) -> String {
    let n = d.rule.number();
    let to = partner.map_or_else(String::new, |p| format!(" to \"{p}\""));
    match d.rule {
        Rule::SpecialNone => {
            format!(
                "{n}: special level \"{}\" has bones marker \"none\"",
                special.unwrap_or("?")
            )
        }
        Rule::DungeonNone => format!("{n}: \"{dungeon}\" has bones marker \"none\""),
        Rule::Bottom => format!("{n}: bottom level of \"{dungeon}\""),
        Rule::BranchLevel => format!("{n}: the branch{to} ends on level {}", f.level),
        Rule::VibratingSquare => {
            format!("{n}: level above the bottom of hellish \"{dungeon}\" (vibrating square)")
        }
        Rule::MagicPortal => format!(
            "{n}: \"{}\" holds a magic portal and is not a branch level (can load, never leaves)",
            special.unwrap_or("?")
        ),
        Rule::DepthBelowOne => {
            format!("{n}: depth {} is below 1 (can load, never leaves)", f.depth)
        }
        Rule::DepthRoll if d.chance.0 == 0 => {
            format!(
                "{n}: depth {} is below 4, so the depth roll never leaves bones",
                f.depth
            )
        }
        Rule::DepthRoll => {
            format!(
                "{n}: depth {}: bones are left with chance {}/{}",
                f.depth, d.chance.0, d.chance.1
            )
        }
        Rule::LevelOne => format!("{n}: level 1 of \"{dungeon}\" never holds bones"),
        Rule::UntilEvent => match f.event {
            Some(e) => format!(
                "{n}: \"{}\" holds no bones until {} ({}); dgnkit does not know the game's state",
                e.level, e.event, e.source
            ),
            None => format!("{n}: no bones until an event of the game"),
        },
        Rule::MadmanHome => format!(
            "{n}: the Quest level above the locate level, a Madman's home, never holds bones"
        ),
        Rule::QuestBranch => {
            format!(
                "{n}: the branch{to} ends on level {}, and its other end is in the Quest (its portal can be voided)",
                f.level
            )
        }
        Rule::BranchToNoBones => {
            let why = f
                .other_end
                .and_then(|o| o.no_bones)
                .map_or_else(String::new, |r| {
                    format!(" (rule {}: {})", r.number(), r.summary())
                });
            format!(
                "{n}: the branch{to} ends on level {}, and its other end never holds bones{why}",
                f.level
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn ordinary(level: i32, depth: i32) -> LevelFacts {
        LevelFacts {
            level,
            depth,
            ..LevelFacts::default()
        }
    }

    #[test]
    fn depth_roll_follows_quarter_depth() {
        assert_eq!(depth_chance(1), (0, 1));
        assert_eq!(depth_chance(3), (0, 1));
        assert_eq!(depth_chance(4), (1, 2));
        assert_eq!(depth_chance(7), (1, 2));
        assert_eq!(depth_chance(8), (2, 3));
        assert_eq!(depth_chance(12), (3, 4));
        assert_eq!(depth_chance(0), (0, 1));
        assert_eq!(depth_chance(-3), (0, 1));
    }

    #[test]
    fn first_failing_rule_decides() {
        let mut f = ordinary(5, 5);
        f.special_none = true;
        f.bottom = true;
        assert_eq!(decide(&BonesRules::VANILLA, &f).rule, Rule::SpecialNone);
        f.special_none = false;
        assert_eq!(decide(&BonesRules::VANILLA, &f).rule, Rule::Bottom);
        assert!(!decide(&BonesRules::VANILLA, &f).can_load);
    }

    #[test]
    fn branch_on_level_one_is_allowed() {
        let mut f = ordinary(1, 1);
        f.branch_level = true;
        let d = decide(&BonesRules::VANILLA, &f);
        assert!(d.can_load);
        assert_eq!(d.rule, Rule::DepthRoll);
        assert!(!d.can_leave());
        f.level = 2;
        assert_eq!(decide(&BonesRules::VANILLA, &f).rule, Rule::BranchLevel);
    }

    #[test]
    fn portal_only_matters_off_branches() {
        let mut f = ordinary(1, 30);
        f.portal = true;
        let d = decide(&BonesRules::VANILLA, &f);
        assert_eq!(d.rule, Rule::MagicPortal);
        assert!(d.can_load && !d.can_leave());
        f.branch_level = true;
        let d = decide(&BonesRules::VANILLA, &f);
        assert_eq!(d.rule, Rule::DepthRoll);
        assert_eq!(d.chance, (7, 8));
    }

    #[test]
    fn endgame_depths_load_but_never_leave() {
        let d = decide(&BonesRules::VANILLA, &ordinary(2, -2));
        assert_eq!(d.rule, Rule::DepthBelowOne);
        assert!(d.can_load && !d.can_leave());
    }

    #[test]
    fn vibrating_square_level() {
        let mut f = ordinary(19, 40);
        f.vibrating = true;
        assert_eq!(decide(&BonesRules::VANILLA, &f).rule, Rule::VibratingSquare);
    }
}

#[cfg(test)]
mod variant_tests {
    use super::*;

    const EVERY_LEVEL_ONE: BonesRules = BonesRules {
        level_one: LevelOneRule::EveryDungeon,
        ..BonesRules::VANILLA
    };

    const OTHER_END: BonesRules = BonesRules {
        bottom: false,
        branch: BranchRule::OtherEnd,
        madman_home: Some("Mad"),
        magic_portal: false,
        ..BonesRules::VANILLA
    };

    use super::tests::ordinary as at;

    #[test]
    fn level_one_comes_after_the_bottom_and_before_the_vibrating_square() {
        let mut f = at(1, 20);
        let d = decide(&EVERY_LEVEL_ONE, &f);
        assert_eq!((d.rule, d.can_load), (Rule::LevelOne, false));
        assert_eq!(decide(&BonesRules::VANILLA, &f).rule, Rule::DepthRoll);
        f.bottom = true;
        assert_eq!(decide(&EVERY_LEVEL_ONE, &f).rule, Rule::Bottom);
        let mut g = at(1, 20);
        g.vibrating = true;
        assert_eq!(decide(&EVERY_LEVEL_ONE, &g).rule, Rule::LevelOne);
        assert_eq!(decide(&EVERY_LEVEL_ONE, &at(2, 20)).rule, Rule::DepthRoll);
        let main = BonesRules {
            level_one: LevelOneRule::MainDungeon,
            ..BonesRules::VANILLA
        };
        assert_eq!(decide(&main, &at(1, 20)).rule, Rule::DepthRoll);
        let mut m = at(1, 1);
        m.main_dungeon = true;
        assert_eq!(decide(&main, &m).rule, Rule::LevelOne);
    }

    #[test]
    fn other_end_rules_replace_bottom_branch_and_portal() {
        let mut f = at(5, 12);
        f.bottom = true;
        f.branch_level = true;
        f.portal = true;
        let d = decide(&OTHER_END, &f);
        assert_eq!((d.rule, d.chance), (Rule::DepthRoll, (3, 4)));
        f.other_end = Some(OtherEnd {
            in_quest: false,
            no_bones: None,
        });
        assert_eq!(decide(&OTHER_END, &f).rule, Rule::DepthRoll);
        f.other_end = Some(OtherEnd {
            in_quest: false,
            no_bones: Some(Rule::SpecialNone),
        });
        let d = decide(&OTHER_END, &f);
        assert_eq!((d.rule, d.can_load), (Rule::BranchToNoBones, false));
        f.other_end = Some(OtherEnd {
            in_quest: true,
            no_bones: Some(Rule::SpecialNone),
        });
        assert_eq!(decide(&OTHER_END, &f).rule, Rule::QuestBranch);
        // The recursion judges the other end without its branch rules.
        assert_eq!(no_bones_rule(&OTHER_END, &f, false), None);
        f.vibrating = true;
        assert_eq!(
            no_bones_rule(&OTHER_END, &f, false),
            Some(Rule::VibratingSquare)
        );
    }

    #[test]
    fn madman_home_by_role() {
        let mut f = at(2, 15);
        f.madman_home = Known::Yes;
        let d = decide(&OTHER_END, &f);
        assert_eq!((d.rule, d.can_load), (Rule::MadmanHome, false));
        f.madman_home = Known::Unknown;
        let d = decide(&OTHER_END, &f);
        assert_eq!(
            (d.rule, d.unless),
            (Rule::DepthRoll, Some(Rule::MadmanHome))
        );
        let text = explain(&d, &f, None, "The Quest", None);
        assert!(
            text.starts_with("8: depth 15") && text.contains("rule 10"),
            "{text}"
        );
        // A game without the rule ignores the fact.
        assert_eq!(decide(&BonesRules::VANILLA, &f).unless, None);
        f.madman_home = Known::Yes;
        assert_eq!(decide(&BonesRules::VANILLA, &f).rule, Rule::DepthRoll);
    }

    #[test]
    fn categories_round_trip() {
        for r in Rule::ALL {
            assert_eq!(Rule::of_category(r.category()), Some(r));
            assert_eq!(
                Rule::category_stops_loading(r.category()),
                r.stops_loading()
            );
        }
        assert_eq!(Rule::of_category(CAT_SHALLOW), Some(Rule::DepthRoll));
        assert!((0..CATEGORIES).all(|c| Rule::of_category(c).is_some()));
    }
}

#[cfg(test)]
mod pool_tests {
    use super::*;

    #[test]
    fn pool_suffixes() {
        // UnNetHack: the game seed picks the pool.
        assert_eq!(
            BonesPool::SeedSuffix(5).suffix(Some(7)).as_deref(),
            Some(".2")
        );
        assert_eq!(BonesPool::SeedSuffix(5).suffix(None).as_deref(), Some(".*"));
        // DynaHack: the start time does, which the seed does not tell.
        assert_eq!(
            BonesPool::BirthSuffix(5).suffix(Some(7)).as_deref(),
            Some(".*")
        );
        assert_eq!(BonesPool::None.suffix(Some(7)), None);
    }
}
