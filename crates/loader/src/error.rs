//! Why a layout could not be resolved. Each variant is one of the conditions
//! on which NetHack's `init_dungeons()` aborts the game (its `panic()`), or a
//! limit of our own that keeps the search bounded.

use std::fmt;

/// What a range belongs to, for messages: a level or the branch into a
/// dungeon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RangeOwner {
    Level { name: String },
    BranchTo { dungeon: String },
}

impl fmt::Display for RangeOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeOwner::Level { name } => write!(f, "level \"{name}\""),
            RangeOwner::BranchTo { dungeon } => write!(f, "the branch to \"{dungeon}\""),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file has more dungeons than NetHack's table (`MAXDUNGEON`).
    TooManyDungeons { count: usize, max: usize },
    /// The dungeons that exist have more level records than `LEV_LIMIT`.
    TooManyLevels { count: usize, max: usize },
    /// The dungeons that exist have more branch records than `BRANCH_LIMIT`.
    TooManyBranches { count: usize, max: usize },
    /// No branch of an earlier (existing) dungeon leads to this dungeon.
    BranchNotFound { dungeon: String },
    /// The branch into this dungeon belongs to no dungeon before the first
    /// one of the same name.
    ParentNotResolved { dungeon: String },
    /// A range's base lies outside its dungeon (`1 ..= num_levels`).
    BaseOutOfRange {
        owner: RangeOwner,
        dungeon: String,
        base: i32,
        num_levels: i32,
    },
    /// The branch into `dungeon` has a random part below -1 (`rand`), so
    /// `parent_dlevel` searches a negative count: with its base level
    /// (`level`) ending a branch already and `rn2` having given `drawn`,
    /// not 0, its loop never ends (3.6 `dungeon.c:398-406`): the game
    /// hangs at start-up.
    BranchLevelHangs {
        dungeon: String,
        rand: i32,
        level: i32,
        drawn: i32,
    },
    /// A chained range refers to a level that lost its chance roll.
    EmptyChain { owner: RangeOwner, chain: i32 },
    /// A chain index names no level that is placed at that point: it was
    /// shifted by a dropped dungeon (NetHack's chain indices are file-global)
    /// or points forward.
    ChainShifted { owner: RangeOwner, chain: i32 },
    /// The levels of a dungeon cannot all be placed in their ranges.
    CouldntPlace { dungeon: String },
    /// The placement search of a dungeon took more draws than the budget;
    /// NetHack would keep searching for a very long time.
    PlacementTooCostly { dungeon: String, draws: u64 },
    /// A level whose entrance floats (Fort Ludios' `knox`, and in some
    /// variants `advcal`) exists but no branch ends on it.
    KnoxNotReachable { level: String },
    /// The Elemental Planes shuffle needs a level that does not exist (the
    /// game dereferences it and crashes).
    PlaneMissing { level: String },
    /// The Elemental Planes shuffle relinked the special-level chain into a
    /// loop (the game would hang walking it).
    PlanesLoop,
    /// A dungeon the game looks up by name after loading is missing.
    MissingDungeon { name: String },
    /// dgnkit's loader is not proven on this game's own `init_dungeons()`,
    /// so it gives no answer rather than another game's.
    NotReproduced {
        game: &'static str,
        target: &'static str,
    },
    /// The loader inputs (`--option`, `--game-start`, ...) are not what
    /// the game's loader reads.
    Inputs { message: String },
    /// NetHack 3.7 resolves a chain by name among the records read so far
    /// (those of the dungeons that exist) and aborts when none matches.
    ChainNotFound { owner: RangeOwner, level: String },
    /// The file uses a feature the target's loader does not have.
    Unsupported {
        dungeon: String,
        feature: &'static str,
    },
    /// SLASH'EM: a dungeon ends beyond ledger level `max` (127).
    TooManyLedgerLevels { count: i32, max: i32 },
    /// A level's range is empty (a random part below -1), so `pick_level`
    /// finds nothing to pick and the game panics, in every game (3.6
    /// `dungeon.c:606-615`, after `rn2` of the negative count).
    NoValidLevel { name: String },
}

impl LoadError {
    /// NetHack's own abort message for this condition, when the game has one
    /// (as it prints it, minus the dungeon file name).
    pub fn nethack_panic(&self) -> Option<String> {
        Some(match self {
            LoadError::TooManyDungeons { .. } => "init_dungeons: too many dungeons".into(),
            LoadError::TooManyLevels { .. } => "init_dungeon: too many special levels".into(),
            LoadError::TooManyBranches { .. } => "init_dungeon: too many branches".into(),
            LoadError::BranchNotFound { dungeon } => format!("find_branch: can't find {dungeon}"),
            LoadError::ParentNotResolved { .. } => "parent_dnum: couldn't resolve branch.".into(),
            LoadError::BaseOutOfRange { .. } => "level_range: base value out of range".into(),
            LoadError::EmptyChain { .. } => "level_range: empty chain level!".into(),
            LoadError::CouldntPlace { .. } => "init_dungeon:  couldn't place levels".into(),
            LoadError::KnoxNotReachable { .. } => "insert_branch: not found".into(),
            LoadError::MissingDungeon { name } => {
                format!("Couldn't resolve dungeon number for name \"{name}\".")
            }
            // src/dungeon.c:838, 893
            LoadError::ChainNotFound { owner, level } => match owner {
                RangeOwner::BranchTo { dungeon } => {
                    format!("Could not chain branch {dungeon} to level {level}")
                }
                RangeOwner::Level { name } => format!("Could not chain level {name} to {level}"),
            },
            LoadError::TooManyLedgerLevels { .. } => "init_dungeons: too many levels".into(),
            LoadError::NoValidLevel { .. } => "pick_level:  ran out of valid levels".into(),
            LoadError::BranchLevelHangs { .. }
            | LoadError::Unsupported { .. }
            | LoadError::ChainShifted { .. }
            | LoadError::PlacementTooCostly { .. }
            | LoadError::NotReproduced { .. }
            | LoadError::Inputs { .. }
            | LoadError::PlaneMissing { .. }
            | LoadError::PlanesLoop => return None,
        })
    }

    /// The abort message of the game whose loader follows `rules`
    /// ([`LoadError::nethack_panic`] where that game says the same).
    pub fn game_panic(&self, rules: &super::Rules) -> Option<String> {
        match (self, rules.range_panic) {
            (
                LoadError::BaseOutOfRange {
                    base, num_levels, ..
                },
                super::RangePanic::Split,
            ) => Some(if *base < 1 {
                "level_range: base value out of range (<0)".to_string()
            } else {
                format!("level_range: base value out of range (base:{base} > lmax:{num_levels})")
            }),
            _ => self.nethack_panic(),
        }
    }

    /// A stable short name of the condition (for JSON output and tests).
    pub fn code(&self) -> &'static str {
        self.fail_code().code()
    }

    /// The condition's [`FailCode`].
    pub fn fail_code(&self) -> FailCode {
        match self {
            LoadError::TooManyDungeons { .. } => FailCode::TooManyDungeons,
            LoadError::TooManyLevels { .. } => FailCode::TooManyLevels,
            LoadError::TooManyBranches { .. } => FailCode::TooManyBranches,
            LoadError::BranchNotFound { .. } => FailCode::BranchNotFound,
            LoadError::ParentNotResolved { .. } => FailCode::ParentNotResolved,
            LoadError::BaseOutOfRange { .. } => FailCode::BaseOutOfRange,
            LoadError::BranchLevelHangs { .. } => FailCode::BranchLevelHangs,
            LoadError::EmptyChain { .. } => FailCode::EmptyChain,
            LoadError::ChainShifted { .. } => FailCode::ChainShifted,
            LoadError::CouldntPlace { .. } => FailCode::CouldntPlace,
            LoadError::PlacementTooCostly { .. } => FailCode::PlacementTooCostly,
            LoadError::KnoxNotReachable { .. } => FailCode::KnoxNotReachable,
            LoadError::PlaneMissing { .. } => FailCode::PlaneMissing,
            LoadError::PlanesLoop => FailCode::PlanesLoop,
            LoadError::MissingDungeon { .. } => FailCode::MissingDungeon,
            LoadError::NotReproduced { .. } => FailCode::NotReproduced,
            LoadError::Inputs { .. } => FailCode::Inputs,
            LoadError::ChainNotFound { .. } => FailCode::ChainNotFound,
            LoadError::Unsupported { .. } => FailCode::Unsupported,
            LoadError::TooManyLedgerLevels { .. } => FailCode::TooManyLedgerLevels,
            LoadError::NoValidLevel { .. } => FailCode::NoValidLevel,
        }
    }
}

/// The kind of a [`LoadError`] without its names and numbers: what the
/// statistics count failures by, so that they name the loader's conditions
/// rather than spell their codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailCode {
    TooManyDungeons,
    TooManyLevels,
    TooManyBranches,
    BranchNotFound,
    ParentNotResolved,
    BaseOutOfRange,
    BranchLevelHangs,
    EmptyChain,
    ChainShifted,
    CouldntPlace,
    PlacementTooCostly,
    KnoxNotReachable,
    PlaneMissing,
    PlanesLoop,
    MissingDungeon,
    NotReproduced,
    Inputs,
    ChainNotFound,
    Unsupported,
    TooManyLedgerLevels,
    NoValidLevel,
}

impl FailCode {
    pub const ALL: [FailCode; 21] = [
        FailCode::TooManyDungeons,
        FailCode::TooManyLevels,
        FailCode::TooManyBranches,
        FailCode::BranchNotFound,
        FailCode::ParentNotResolved,
        FailCode::BaseOutOfRange,
        FailCode::BranchLevelHangs,
        FailCode::EmptyChain,
        FailCode::ChainShifted,
        FailCode::CouldntPlace,
        FailCode::PlacementTooCostly,
        FailCode::KnoxNotReachable,
        FailCode::PlaneMissing,
        FailCode::PlanesLoop,
        FailCode::MissingDungeon,
        FailCode::NotReproduced,
        FailCode::Inputs,
        FailCode::ChainNotFound,
        FailCode::Unsupported,
        FailCode::TooManyLedgerLevels,
        FailCode::NoValidLevel,
    ];

    /// The condition of code `code` ([`FailCode::code`]), for reading a
    /// code back, as the statistics keep their failures by it.
    pub fn from_code(code: &str) -> Option<FailCode> {
        FailCode::ALL.into_iter().find(|c| c.code() == code)
    }

    /// A stable short name of the condition (for JSON output and tests).
    pub fn code(self) -> &'static str {
        match self {
            FailCode::TooManyDungeons => "too-many-dungeons",
            FailCode::TooManyLevels => "too-many-levels",
            FailCode::TooManyBranches => "too-many-branches",
            FailCode::BranchNotFound => "branch-not-found",
            FailCode::ParentNotResolved => "parent-not-resolved",
            FailCode::BaseOutOfRange => "base-out-of-range",
            FailCode::BranchLevelHangs => "branch-level-hangs",
            FailCode::EmptyChain => "empty-chain",
            FailCode::ChainShifted => "chain-shifted",
            FailCode::CouldntPlace => "couldnt-place",
            FailCode::PlacementTooCostly => "placement-too-costly",
            FailCode::KnoxNotReachable => "knox-not-reachable",
            FailCode::PlaneMissing => "plane-missing",
            FailCode::PlanesLoop => "planes-loop",
            FailCode::MissingDungeon => "missing-dungeon",
            FailCode::NotReproduced => "not-reproduced",
            FailCode::Inputs => "loader-inputs",
            FailCode::ChainNotFound => "chain-not-found",
            FailCode::Unsupported => "unsupported",
            FailCode::TooManyLedgerLevels => "too-many-ledger-levels",
            FailCode::NoValidLevel => "no-valid-level",
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::TooManyDungeons { count, max } => write!(
                f,
                "the file has {count} dungeons; NetHack's loader holds fewer than {max} (remove dungeons or target native)"
            ),
            LoadError::TooManyLevels { count, max } => write!(
                f,
                "the dungeons that exist have {count} special levels; NetHack's loader holds at most {max}"
            ),
            LoadError::TooManyBranches { count, max } => write!(
                f,
                "the dungeons that exist have {count} branches; NetHack's loader holds at most {max}"
            ),
            LoadError::BranchNotFound { dungeon } => write!(
                f,
                "no existing dungeon before \"{dungeon}\" has a BRANCH to it, so it cannot be entered; add a BRANCH \"{dungeon}\" to an earlier dungeon"
            ),
            LoadError::ParentNotResolved { dungeon } => write!(
                f,
                "the branch to \"{dungeon}\" comes after another dungeon of the same name, so NetHack cannot tell which dungeon it leaves from; rename one of them"
            ),
            LoadError::BaseOutOfRange { owner, dungeon, base, num_levels } => write!(
                f,
                "{owner}: base level {base} is outside \"{dungeon}\", which has {num_levels} levels in this layout (NetHack: \"level_range: base value out of range\")"
            ),
            LoadError::BranchLevelHangs { dungeon, rand, level, drawn } => write!(
                f,
                "the branch to \"{dungeon}\": its random part {rand} is below -1, so parent_dlevel searches a count of {rand}: it tries level {level} only, which already ends a branch, and with rn2({rand}) = {drawn} (not 0) its loop never ends: the game hangs at start-up; use a random part of -1 or more"
            ),
            LoadError::EmptyChain { owner, chain } => write!(
                f,
                "{owner}: the level it is chained to (level record {chain}) does not exist in this layout (it lost its chance roll)"
            ),
            LoadError::ChainShifted { owner, chain } => write!(
                f,
                "{owner}: chain reference shifted by a dropped dungeon: level record {chain} is not a placed level at this point (NetHack counts chain indices over the whole file, and a dungeon that loses its chance roll moves the later records)"
            ),
            LoadError::CouldntPlace { dungeon } => write!(
                f,
                "couldn't place the levels of \"{dungeon}\": their ranges leave no room for all of them (NetHack: \"init_dungeon: couldn't place levels\")"
            ),
            LoadError::PlacementTooCostly { dungeon, draws } => write!(
                f,
                "gave up placing the levels of \"{dungeon}\" after {draws} draws: the ranges overlap so much that NetHack's search would run for a very long time; widen the ranges"
            ),
            LoadError::KnoxNotReachable { level } => write!(
                f,
                "a level named \"{level}\" exists but no branch ends on it, so its floating entrance cannot be placed (NetHack: \"insert_branch: not found\"); give it a dungeon of its own with a branch to it"
            ),
            LoadError::PlaneMissing { level } => write!(
                f,
                "the game shuffles the Elemental Planes and needs a level named \"{level}\"; without it the game crashes (add the level, or use a target without the shuffle)"
            ),
            LoadError::PlanesLoop => write!(
                f,
                "the Elemental Planes shuffle links the special levels into a loop, so the game would hang; put astral, the four planes and dummy in one dungeon, astral first and dummy last"
            ),
            LoadError::MissingDungeon { name } => write!(
                f,
                "NetHack needs a dungeon named \"{name}\" and aborts without it (or use --target native)"
            ),
            LoadError::NotReproduced { game, target } => write!(
                f,
                "dgnkit does not yet reproduce {game}'s loader; it gives no layout, bones or statistics for --target {target} rather than another game's (compile and check work; `--target native` lays the file out with dgnkit's own rules, knowingly)"
            ),
            LoadError::Inputs { message } => f.write_str(message),
            LoadError::ChainNotFound { owner, level } => write!(
                f,
                "{owner}: no level \"{level}\" is read before it in this layout (NetHack 3.7 looks the chain up by name among the levels of the dungeons that exist, and aborts)"
            ),
            LoadError::Unsupported { dungeon, feature } => write!(
                f,
                "dungeon \"{dungeon}\" uses {feature}, which this target's loader does not have (use --target nethack-3.7)"
            ),
            LoadError::TooManyLedgerLevels { count, max } => write!(
                f,
                "the dungeons that exist reach ledger level {count}; the game holds at most {max} (\"init_dungeons: too many levels\"); make dungeons shorter"
            ),
            LoadError::NoValidLevel { name } => write!(
                f,
                "level \"{name}\": its random part is below -1, so its range holds no level and every game panics when it places it (pick_level: \"ran out of valid levels\"); use a random part of -1 or more"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

#[cfg(test)]
#[path = "error_tests.rs"]
mod tests;
