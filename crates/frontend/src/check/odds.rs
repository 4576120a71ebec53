//! The codes of the checks from the exact layout statistics (how often the
//! loader fails, bones markers never used). The checks themselves need the
//! loader and the statistics, so they live above them (`dgnkit::odds`);
//! their codes are here, in the one table of every code.

use dgnkit_grammar::Severity;

use super::codes::CodeInfo;

pub const LOAD_FAILURE_ODDS: &str = "W1004";
pub const BONES_MARKER_UNUSED: &str = "W0304";

/// The codes of this module, for the code table.
pub const CODES: [CodeInfo; 2] = [
    CodeInfo {
        code: BONES_MARKER_UNUSED,
        severity: Severity::Warning,
        lint: Some("bones-marker-unused"),
        summary: "a special level with a bones marker that can never hold bones",
        explanation: "Over every layout the loader can make, the level always lies where bones are \
                      impossible: always at the bottom of its dungeon, always on a branch level, always \
                      on the vibrating-square level of a hellish dungeon, or in a dungeon whose own \
                      marker is \"none\". Its marker is never used; write \"none\", or move the level if \
                      it should hold bones. A level written at the bottom, (-1, 0), is not reported.",
        example: "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 0)\nLEVEL: \"last\" \"L\" @ (25, 0)\n",
    },
    CodeInfo {
        code: LOAD_FAILURE_ODDS,
        severity: Severity::Warning,
        lint: Some("load-failure-odds"),
        summary: "NetHack's loader fails with this file in some games (exact probability)",
        explanation: "The chance is computed exactly over every outcome of the loader's draws: \
                      dungeon and level chance rolls, sizes, branch levels and the placement search. \
                      In those games NetHack aborts at start-up (\"couldn't place levels\", \"level_range: \
                      base value out of range\", ...). The notes name each cause with one concrete \
                      failing outcome.",
        example: "DUNGEON: \"The Dungeons of Doom\" \"D\" (3, 3)\nLEVEL: \"a\" \"A\" @ (1, 3)\n\
                  LEVEL: \"b\" \"B\" @ (1, 4)\nLEVEL: \"c\" \"C\" @ (2, 2)\nLEVEL: \"d\" \"F\" @ (3, 1)\n",
    },
];
