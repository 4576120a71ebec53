//! What every keyword and value word of the language means, in a sentence or
//! two: the text of keyword hovers and completion items.

use dgnkit_grammar::ast::KeywordKind;

/// The syntax of a statement and what it does.
pub fn keyword_doc(kind: KeywordKind) -> (&'static str, &'static str) {
    match kind {
        KeywordKind::Dungeon => (
            "DUNGEON: \"name\" \"bones\" (base, rand) [chance]",
            "Starts a new dungeon. It has `base` levels when `rand` is 0, else `base .. base+rand-1`. \
             `chance` is the percent chance that the dungeon exists at all (absent: always). \
             The first dungeon is the main one; every other must be reached by a BRANCH.",
        ),
        KeywordKind::Entry => (
            "ENTRY: n",
            "The level of the current dungeon that its incoming branch arrives at: `n > 0` counts \
             from the top, `n < 0` from the bottom (`-1` is the bottom level); absent or 0 means level 1.",
        ),
        KeywordKind::Protofile => (
            "PROTOFILE: \"name\"",
            "Prototype file name for the current dungeon's ordinary levels (e.g. \"tower\" loads \
             tower1, tower2, ...).",
        ),
        KeywordKind::Description => (
            "DESCRIPTION: hellish | mazelike | roguelike",
            "Sets a flag of the current dungeon. Several DESCRIPTION lines combine their flags.",
        ),
        KeywordKind::LevelDesc => (
            "LEVELDESC: town | hellish | mazelike | roguelike | unaligned",
            "Sets a flag of the special level defined just before it.",
        ),
        KeywordKind::Alignment => (
            "ALIGNMENT: lawful | neutral | chaotic | unaligned",
            "Sets the alignment of the current dungeon (the alignment of its temples and altars).",
        ),
        KeywordKind::LevAlign => (
            "LEVALIGN: lawful | neutral | chaotic | unaligned",
            "Sets the alignment of the special level defined just before it.",
        ),
        KeywordKind::Branch => (
            "BRANCH: \"dungeon\" @ (base, rand) [stair | no_up | no_down | portal] [up | down]",
            "The branch from the current dungeon into the named dungeon, placed on a level of this \
             dungeon in `base .. base+rand-1` (negative `base` counts from the bottom). The type \
             defaults to stair, the direction to down; a portal has no direction.",
        ),
        KeywordKind::ChainBranch => (
            "CHAINBRANCH: \"dungeon\" \"level\" + (base, rand) [type] [direction]",
            "A branch placed relative to a special level of the current dungeon: `base` levels \
             below it (0 = on that level), plus `0 .. rand-1`.",
        ),
        KeywordKind::Level => (
            "LEVEL: \"name\" \"bones\" @ (base, rand) [chance]",
            "A special level placed on a level in `base .. base+rand-1` of the current dungeon \
             (negative `base` counts from the bottom; `rand = -1` means anywhere down to the \
             bottom). `chance` is the percent chance that it exists (default 100). The bones \
             marker names its bones files (\"none\": no bones).",
        ),
        KeywordKind::RndLevel => (
            "RNDLEVEL: \"name\" \"bones\" @ (base, rand) [chance] n",
            "As LEVEL, with `n` variants of the level file (name-1 .. name-n) to choose from.",
        ),
        KeywordKind::ChainLevel => (
            "CHAINLEVEL: \"name\" \"bones\" \"prev\" + (base, rand) [chance]",
            "A special level placed relative to the level `prev`, which must be defined earlier \
             in the same dungeon with a chance of 100.",
        ),
        KeywordKind::RndChLevel => (
            "RNDCHLEVEL: \"name\" \"bones\" \"prev\" + (base, rand) [chance] n",
            "A chained special level with `n` variants of the level file.",
        ),
        KeywordKind::RndChainLevel => (
            "RNDCHAINLEVEL: \"name\" \"bones\" \"prev\" + (base, rand) [chance] n",
            "The manual page's spelling of RNDCHLEVEL. NetHack's dgn_comp rejects it: write RNDCHLEVEL.",
        ),
        KeywordKind::Tileset => (
            "TILESET: word | n",
            "GnollHack: the tile set of the current dungeon.",
        ),
    }
}

/// Where a value word may appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordClass {
    /// DESCRIPTION (dungeon flags).
    DungeonDescriptor,
    /// LEVELDESC (level flags).
    LevelDescriptor,
    Alignment,
    BranchType,
    Direction,
}

/// The vanilla words of each class with what they mean.
pub fn words(class: WordClass) -> &'static [(&'static str, &'static str)] {
    match class {
        WordClass::DungeonDescriptor => &[
            (
                "hellish",
                "The game treats the dungeon as Gehennom (flag 2).",
            ),
            ("mazelike", "Ordinary levels are mazes (flag 4)."),
            ("roguelike", "Levels look like the original Rogue (flag 8)."),
        ],
        WordClass::LevelDescriptor => &[
            ("town", "Marks the level as a town (flag 1)."),
            ("hellish", "Hellish level (flag 2)."),
            ("mazelike", "Maze level (flag 4)."),
            ("roguelike", "Rogue-style level (flag 8)."),
            ("unaligned", "No alignment (0)."),
        ],
        WordClass::Alignment => &[
            ("lawful", "Lawful (flag 64)."),
            ("neutral", "Neutral (flag 32)."),
            ("chaotic", "Chaotic (flag 16)."),
            ("unaligned", "No alignment (0)."),
            ("noalign", "No alignment (0); the same as `unaligned`."),
        ],
        WordClass::BranchType => &[
            ("stair", "Stairs (the default)."),
            (
                "no_up",
                "A one-way branch: stairs down only, no way back up.",
            ),
            (
                "no_down",
                "A one-way branch: stairs up only, no way back down.",
            ),
            ("portal", "A magic portal; takes no direction."),
        ],
        WordClass::Direction => &[
            (
                "down",
                "The branch goes down from this dungeon (the default).",
            ),
            ("up", "The branch goes up from this dungeon."),
        ],
    }
}

/// What a value word means, for hovers: the first class that knows it.
pub fn word_doc(word: &str, classes: &[WordClass]) -> Option<&'static str> {
    classes
        .iter()
        .find_map(|c| words(*c).iter().find(|(w, _)| *w == word).map(|(_, d)| *d))
}
