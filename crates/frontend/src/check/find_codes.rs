//! The diagnostic codes of `dgn find` queries (family `13`; the queries are
//! read by `dgnkit_find`, which reports these). They join the one table of
//! [`crate::check::codes::all`], so `dgn explain` and `docs/diagnostics.md`
//! document them; each example is a query against the built-in NetHack 3.6
//! dungeon that produces its code (tested in `dgnkit_find`).

use crate::check::codes::{e, w, CodeInfo};

pub const BAD_CHARACTER: &str = "E1301";
pub const UNCLOSED_STRING: &str = "E1302";
pub const BAD_NUMBER: &str = "E1303";
pub const EXPECTED: &str = "E1304";
pub const UNKNOWN_LEVEL: &str = "E1305";
pub const UNKNOWN_DUNGEON: &str = "E1306";
pub const UNKNOWN_PROPERTY: &str = "E1307";
pub const TYPE_MISMATCH: &str = "E1308";
pub const BAD_CALL: &str = "E1309";
pub const NO_BRANCH: &str = "E1310";
pub const HALF_OPEN_RANGE: &str = "W1311";

pub const CODES: [CodeInfo; 11] = [
    e(
        BAD_CHARACTER,
        "(`dgn find`) a character that has no meaning in a query",
        "Queries combine conditions with the words `and`, `or` and `not`, compare with \
         `== != < <= > >=`, and group with parentheses. `&&`, `||`, `!` and a single `=` are \
         not part of the language. `dgn explain find` describes it.",
        "bigrm && oracle.depth = 5",
    ),
    e(
        UNCLOSED_STRING,
        "(`dgn find`) a string with no closing `\"`",
        "Strings are written in double quotes; `\\\"` and `\\\\` stand for a quote and a \
         backslash inside one.",
        "dungeon(\"Sokoban).exists",
    ),
    e(
        BAD_NUMBER,
        "(`dgn find`) a number that does not fit in 64 bits, or a word that starts with a digit",
        "Numbers are decimal integers, optionally negative. A level name that starts with a \
         digit must be quoted.",
        "oracle.depth == 99999999999999999999",
    ),
    e(
        EXPECTED,
        "(`dgn find`) a query that does not parse: something missing or out of place",
        "The message says what was expected. Conditions are joined with `and`/`or`; \
         comparisons do not chain (`a < b < c`): write `b in a..c` or two comparisons.",
        "oracle.depth == 5 bigrm",
    ),
    e(
        UNKNOWN_LEVEL,
        "(`dgn find`) no special level of the dungeon file has this name",
        "A bare word or a string on its own names a special level of the file (its \
         prototype name, as in the LEVEL, RNDLEVEL or CHAINLEVEL statement). The closest \
         names are suggested. Names are compared exactly, as NetHack does.",
        "bigroom and oracle.depth == 5",
    ),
    e(
        UNKNOWN_DUNGEON,
        "(`dgn find`) no dungeon of the dungeon file has this name",
        "`dungeon(\"NAME\")` and `branch(\"NAME\")` take a dungeon's full name as the \
         DUNGEON statement writes it, e.g. \"The Gnomish Mines\".",
        "dungeon(\"Mines\").exists",
    ),
    e(
        UNKNOWN_PROPERTY,
        "(`dgn find`) a property that this kind of thing does not have",
        "A level has `.level`, `.depth` and `.dungeon`; `dungeon(..)` has `.exists`, \
         `.levels`, `.depth_start` and `.entry_depth`; `branch(..)` has `.level` and `.depth`.",
        "oracle.dlevel == 5",
    ),
    e(
        TYPE_MISMATCH,
        "(`dgn find`) a value used where a condition is needed, or the wrong kinds of values compared",
        "Conditions (a level name alone, `.exists`, `bones(..)`) combine with `and`, `or` and \
         `not`; numbers compare with numbers, strings only with `==` and `!=` against `tune` \
         or a level's `.dungeon`. A range after `in` takes two integers.",
        "oracle.depth and bigrm",
    ),
    e(
        BAD_CALL,
        "(`dgn find`) an unknown function, or one called with the wrong arguments",
        "The functions are `dungeon(\"NAME\")`, `branch(\"NAME\")` and `bones(DEPTH)` or \
         `bones(LEVEL)`.",
        "dungeon(3).exists",
    ),
    e(
        NO_BRANCH,
        "(`dgn find`) `branch(..)` of a dungeon that no branch leads to",
        "`branch(\"NAME\")` is the branch that leads into the dungeon NAME, placed in its \
         parent dungeon. The first dungeon of the file has no such branch.",
        "branch(\"The Dungeons of Doom\").depth == 1",
    ),
    w(
        HALF_OPEN_RANGE,
        "half-open-range",
        "(`dgn find`) a range `LO..HI` that leaves out HI",
        "`in LO..HI` is half-open, as `--seeds` is: `medusa.depth in 21..22` holds for depth 21 \
         only. A NetHack player often means both ends; `LO..=HI` includes HI. The query keeps \
         its meaning (the warning's fix writes `..=`).",
        "medusa.depth in 21..22",
    ),
];
