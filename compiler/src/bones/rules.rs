//! The rules of `bones.md` as one decision over the facts of one level.
//! Everything that judges bones (one layout, all layouts, the checks) goes
//! through [`decide`], so the rules live in one place.

use serde::Serialize;
use std::fmt;

/// The rules of `bones.md`, numbered as there. Rules 1-5 are NetHack's
/// "no bones level" test (both leaving and loading use it); 6-8 only stop a
/// level from leaving bones.
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
}

impl Rule {
    pub const ALL: [Rule; 8] = [
        Rule::SpecialNone,
        Rule::DungeonNone,
        Rule::Bottom,
        Rule::BranchLevel,
        Rule::VibratingSquare,
        Rule::MagicPortal,
        Rule::DepthBelowOne,
        Rule::DepthRoll,
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
        }
    }

    pub fn from_number(n: u8) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.number() == n)
    }

    /// Whether the rule belongs to the "no bones level" test (1-5), which
    /// stops loading as well as leaving.
    pub fn stops_loading(self) -> bool {
        self.number() <= 5
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

/// How a game's bones rules differ from vanilla's (`bones.md`); each game's
/// record in [`crate::games`] holds one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BonesRules {
    pub level_one: LevelOneRule,
    /// Rule 6 (a magic portal on a level that is not a branch level).
    pub magic_portal: bool,
    /// The special levels whose level files place a magic portal (rule 6),
    /// the default of `--portal-levels`.
    pub portal_levels: &'static [&'static str],
    /// How bones files are spread over pools.
    pub pool: BonesPool,
}

impl BonesRules {
    /// NetHack 3.4.3 and 3.6 (`bones.md`).
    pub const VANILLA: BonesRules = BonesRules {
        level_one: LevelOneRule::None,
        magic_portal: true,
        portal_levels: &super::DEFAULT_PORTAL_LEVELS,
        pool: BonesPool::None,
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
    /// The dungeon is hellish and this is the level above its bottom.
    pub vibrating: bool,
    /// A special level from the portal list lies here.
    pub portal: bool,
    pub depth: i32,
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
}

impl Decision {
    pub fn can_leave(&self) -> bool {
        self.chance.0 > 0
    }

    pub fn leave_chance(&self) -> f64 {
        f64::from(self.chance.0) / f64::from(self.chance.1)
    }
}

/// Applies the rules of `bones.md` in order.
pub fn decide(f: &LevelFacts) -> Decision {
    let no = |rule: Rule, can_load: bool| Decision {
        can_load,
        rule,
        chance: (0, 1),
    };
    if f.special_none {
        return no(Rule::SpecialNone, false);
    }
    if f.dungeon_none {
        return no(Rule::DungeonNone, false);
    }
    if f.bottom {
        return no(Rule::Bottom, false);
    }
    if f.branch_level && f.level > 1 {
        return no(Rule::BranchLevel, false);
    }
    if f.vibrating {
        return no(Rule::VibratingSquare, false);
    }
    if f.portal && !f.branch_level {
        return no(Rule::MagicPortal, true);
    }
    if f.depth < 1 {
        return no(Rule::DepthBelowOne, true);
    }
    Decision {
        can_load: true,
        rule: Rule::DepthRoll,
        chance: depth_chance(f.depth),
    }
}

/// A sentence for a decision: the rule number first, so tools can read it.
pub fn explain(d: &Decision, f: &LevelFacts, special: Option<&str>, dungeon: &str) -> String {
    let n = d.rule.number();
    match d.rule {
        Rule::SpecialNone => {
            format!(
                "{n}: special level \"{}\" has bones marker \"none\"",
                special.unwrap_or("?")
            )
        }
        Rule::DungeonNone => format!("{n}: \"{dungeon}\" has bones marker \"none\""),
        Rule::Bottom => format!("{n}: bottom level of \"{dungeon}\""),
        Rule::BranchLevel => format!("{n}: a branch ends on level {}", f.level),
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ordinary(level: i32, depth: i32) -> LevelFacts {
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
        assert_eq!(decide(&f).rule, Rule::SpecialNone);
        f.special_none = false;
        assert_eq!(decide(&f).rule, Rule::Bottom);
        assert!(!decide(&f).can_load);
    }

    #[test]
    fn branch_on_level_one_is_allowed() {
        let mut f = ordinary(1, 1);
        f.branch_level = true;
        let d = decide(&f);
        assert!(d.can_load);
        assert_eq!(d.rule, Rule::DepthRoll);
        assert!(!d.can_leave());
        f.level = 2;
        assert_eq!(decide(&f).rule, Rule::BranchLevel);
    }

    #[test]
    fn portal_only_matters_off_branches() {
        let mut f = ordinary(1, 30);
        f.portal = true;
        let d = decide(&f);
        assert_eq!(d.rule, Rule::MagicPortal);
        assert!(d.can_load && !d.can_leave());
        f.branch_level = true;
        let d = decide(&f);
        assert_eq!(d.rule, Rule::DepthRoll);
        assert_eq!(d.chance, (7, 8));
    }

    #[test]
    fn endgame_depths_load_but_never_leave() {
        let d = decide(&ordinary(2, -2));
        assert_eq!(d.rule, Rule::DepthBelowOne);
        assert!(d.can_load && !d.can_leave());
    }

    #[test]
    fn vibrating_square_level() {
        let mut f = ordinary(19, 40);
        f.vibrating = true;
        assert_eq!(decide(&f).rule, Rule::VibratingSquare);
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
