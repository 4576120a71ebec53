//! The one table of every diagnostic code the checks emit. `dgn explain`,
//! `docs/diagnostics.md`, the lint registry and the tests all read it, so the
//! documentation cannot drift from the code. Syntax and preprocessing codes
//! (`E01xx`, `W01xx`) live in the grammar crate's own table and are merged
//! in by [`all`].
//!
//! Numbering: the hundreds are the family (02 file structure, 03 names and
//! bones, 04 level ranges and placement, 05 chains, 06 branches,
//! 07 descriptors, 08 limits, 09 dialect constructs, 10 what the game's
//! loader does, 11 compatibility with NetHack's own dgn_comp, 12 reading
//! dungeon.lua: [`crate::lua::codes`]).

use dgnkit_grammar::Severity;

/// One documented code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeInfo {
    pub code: &'static str,
    pub severity: Severity,
    /// The lint name (`--allow/--warn/--deny`), for warnings.
    pub lint: Option<&'static str>,
    /// What the code means, in one line.
    pub summary: &'static str,
    /// Why it matters and what NetHack does; empty for the grammar's codes.
    pub explanation: &'static str,
    /// A file that produces the code (checked by the tests).
    pub example: &'static str,
}

/// An error code's entry (also used by the Lua reader's and `dgn find`'s tables).
pub const fn e(
    code: &'static str,
    summary: &'static str,
    explanation: &'static str,
    example: &'static str,
) -> CodeInfo {
    CodeInfo {
        code,
        severity: Severity::Error,
        lint: None,
        summary,
        explanation,
        example,
    }
}

/// A warning code's entry, with its lint name.
pub const fn w(
    code: &'static str,
    lint: &'static str,
    summary: &'static str,
    explanation: &'static str,
    example: &'static str,
) -> CodeInfo {
    CodeInfo {
        code,
        severity: Severity::Warning,
        lint: Some(lint),
        summary,
        explanation,
        example,
    }
}

pub const NO_DUNGEONS: &str = "E0201";
pub const BEFORE_FIRST_DUNGEON: &str = "E0202";
pub const NO_LEVEL_TO_DESCRIBE: &str = "E0203";
pub const OVERRIDDEN_SETTING: &str = "W0201";
pub const DESC_ON_PREVIOUS_DUNGEON: &str = "W0202";

pub const BAD_BONES: &str = "E0301";
pub const DUPLICATE_DUNGEON: &str = "E0302";
pub const DUPLICATE_CHAINED_LEVEL: &str = "E0303";
pub const NAME_TOO_LONG: &str = "E0304";
pub const EMPTY_NAME: &str = "E0305";
pub const DUPLICATE_LEVEL: &str = "W0301";
pub const BONES_REUSE_HARMFUL: &str = "W0302";
pub const BONES_REUSE_HARMLESS: &str = "W0303";

pub const BASE_OUT_OF_RANGE: &str = "E0401";
pub const RANGE_PAST_MAXLEVEL: &str = "E0402";
pub const BAD_RAND: &str = "E0403";
pub const LEVEL_ZERO: &str = "E0404";
pub const BAD_DUNGEON_SIZE: &str = "E0405";
pub const NEVER_FITS: &str = "E0406";
pub const ON_ANCHOR: &str = "E0407";
pub const BAD_RNDLEVS: &str = "E0408";
pub const MAY_NOT_FIT: &str = "W0401";
pub const PLACEMENT_MAY_FAIL: &str = "W0402";
pub const CHANCE_OUT_OF_RANGE: &str = "W0403";
pub const ENTRY_BEYOND_BOTTOM: &str = "W0404";

pub const CHAIN_UNKNOWN: &str = "E0501";
pub const CHAIN_OTHER_DUNGEON: &str = "E0502";
pub const CHAIN_LATER: &str = "E0503";
pub const CHAIN_ITSELF: &str = "E0504";
pub const CHAIN_PROBABILISTIC: &str = "E0505";
pub const CHAIN_UNREACHED: &str = "E0506";

pub const BRANCH_UNDEFINED: &str = "E0601";
pub const BRANCH_REVERSE: &str = "E0602";
pub const BRANCH_SECOND: &str = "E0603";
pub const DUNGEON_UNREACHED: &str = "E0604";
pub const BRANCH_FROM_OPTIONAL: &str = "E0605";
pub const BRANCH_TO_SELF: &str = "E0606";
pub const BAD_BRANCH_TYPE: &str = "E0607";
pub const PORTAL_DIRECTION: &str = "W0601";

pub const WRONG_DESCRIPTOR: &str = "E0701";
pub const UNKNOWN_DESCRIPTOR: &str = "E0702";
pub const BAD_TILESET: &str = "E0703";

pub const TOO_MANY_DUNGEONS: &str = "E0801";
pub const TOO_MANY_LEVELS: &str = "E0802";
pub const TOO_MANY_BRANCHES: &str = "E0803";
pub const TOO_MANY_LEVELS_IN_ALL: &str = "E0804";

pub const DISPLAY_NAME: &str = "E0901";
pub const TILESET: &str = "E0902";
pub const BRANCH_ENTRY: &str = "E0903";
pub const ENTRY_OBSOLETE: &str = "E0904";

pub const KNOX_UNREACHABLE: &str = "E1001";
pub const NEVER_PLACED: &str = "E1002";
pub const KNOX_SOMETIMES: &str = "W1001";
pub const MISSING_HARDWIRED: &str = "W1002";
pub const OPTIONAL_BEFORE_CHAIN: &str = "W1003";

pub const COMPAT_RNDCHAINLEVEL: &str = "W1101";
pub const COMPAT_TRAILING_COMMENT: &str = "W1102";
pub const COMPAT_CHAIN_TO_FIRST: &str = "W1103";
pub const COMPAT_MISSING_BONES: &str = "W1104";

pub const DIALECT_SUGGESTION: &str = "N0001";

/// Every code the checks emit, in code order within each family.
pub const CODES: &[CodeInfo] = &[
    e(
        NO_DUNGEONS,
        "the file defines no dungeon",
        "A dungeon file needs at least one DUNGEON statement; NetHack's dgn_comp stops with \
         \"FATAL - no dungeons were defined.\" An empty or comment-only file gets this error.",
        "# nothing but a comment\n",
    ),
    e(
        BEFORE_FIRST_DUNGEON,
        "a statement before the first DUNGEON",
        "Every statement belongs to the dungeon started by the DUNGEON line above it. NetHack's \
         dgn_comp writes such a statement to index -1 of its arrays (out of bounds). Move the \
         statement below a DUNGEON line.",
        "LEVEL: \"oracle\" \"O\" @ (5, 5)\nDUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\n",
    ),
    e(
        NO_LEVEL_TO_DESCRIBE,
        "LEVELDESC or LEVALIGN with no level before it in the file",
        "LEVELDESC and LEVALIGN change the level defined just before them. With no level \
         before them NetHack's dgn_comp writes out of the bounds of its level array. (Before \
         a dungeon's first level they change the previous dungeon's last level: W0202.)",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVELDESC: town\n",
    ),
    w(
        DESC_ON_PREVIOUS_DUNGEON,
        "leveldesc-before-level",
        "LEVELDESC or LEVALIGN before its dungeon's first level, which changes the previous dungeon's last level",
        "LEVELDESC and LEVALIGN describe the most recently defined level. Before a dungeon's first level that \
         is the last level of the previous dungeon: NetHack's dgn_comp accepts it and changes that level, \
         which is rarely what was meant (a dungeon's alignment is `ALIGNMENT:`). dgnkit does the same, \
         for byte-identical output, and warns.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"oracle\" \"O\" @ (5, 5)\n\
         BRANCH: \"Town\" @ (3, 2)\nDUNGEON: \"Town\" \"A\" (3, 0)\nLEVALIGN: lawful\n",
    ),
    w(
        OVERRIDDEN_SETTING,
        "overridden-setting",
        "a second ENTRY, PROTOFILE or TILESET for the same dungeon replaces the first",
        "Only the last value is stored. Remove the line that has no effect.",
        "DUNGEON: \"Gehennom\" \"G\" (20, 5)\nENTRY: 1\nENTRY: -1\n",
    ),
    e(
        BAD_BONES,
        "a bones marker that is neither one character nor \"none\"",
        "The bones marker becomes part of bones file names (bon<dungeon><0>.<level>); NetHack \
         stores one byte. dgn_comp reports \"Bones marker must be a single char, or \\\"none\\\"!\".",
        "DUNGEON: \"The Dungeons of Doom\" \"DD\" (25, 5)\n",
    ),
    e(
        DUPLICATE_DUNGEON,
        "two dungeons with the same name",
        "Branches and the game find dungeons by name, so the second one could never be reached. \
         (dNAO's dialect allows repeated names: they are alternates of one dungeon.)",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"Mines\" @ (2, 3)\n\
         DUNGEON: \"Mines\" \"M\" (8, 2)\nDUNGEON: \"Mines\" \"N\" (8, 2)\n",
    ),
    e(
        DUPLICATE_CHAINED_LEVEL,
        "a CHAINLEVEL or RNDCHLEVEL whose name an earlier level already has",
        "NetHack's dgn_comp rejects it (\"Duplicate level name.\") and drops the level.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"oracle\" \"O\" @ (5, 5)\n\
         CHAINLEVEL: \"oracle\" \"P\" \"oracle\" + (1, 0)\n",
    ),
    e(
        NAME_TOO_LONG,
        "a name longer than the target's field",
        "NetHack copies names into fixed fields with no length check: dungeon names and branch \
         targets into 24 bytes (23 usable), level and PROTOFILE names into the game's 15-byte \
         fields (14 usable). A longer name overruns memory or is cut, and then no longer \
         matches. NetHack 3.7 does the same for dungeon.lua (include/dungeon.h: dname[24], \
         proto[15], and fill_lvl[15] and themerms[15] for `lvlfill` and `themerooms`; \
         src/dungeon.c copies them with Strcpy, \"FIXME: these should have length checks\"), \
         but keeps branch names as Lua gave them. Dialects change the sizes; \
         `--target native` has no limit.",
        "DUNGEON: \"The Dungeons of Doom and Despair\" \"D\" (25, 5)\n",
    ),
    e(
        EMPTY_NAME,
        "an empty dungeon, level or chain name",
        "NetHack's dgn_comp treats an empty chain name as \"not chained\", and the game cannot \
         look up an empty name. Give it a name.",
        "DUNGEON: \"\" \"D\" (25, 5)\n",
    ),
    w(
        DUPLICATE_LEVEL,
        "duplicate-level-name",
        "a LEVEL or RNDLEVEL whose name an earlier level already has",
        "Legal, and used on purpose (UnNetHack places \"heck-e\" four times), but chains and the \
         game's look-ups by name (find_level) only ever find the first level of that name.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"bigrm\" \"B\" @ (10, 3)\n\
         LEVEL: \"bigrm\" \"C\" @ (14, 3)\n",
    ),
    w(
        BONES_REUSE_HARMFUL,
        "bones-marker-reuse",
        "a bones marker used twice, where one level can leave a bones file that another loads",
        "Bones file names are bon + dungeon marker + 0 + . + (special level marker or level \
         number). Two dungeons with one marker, or two special levels of one dungeon with one \
         marker, share file names, so a ghost from one level can appear on another (HackEM \
         issue 362). NetHack accepts such files, so this stays a warning, the strongest one.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"The Dragon Caves\" @ (10, 3)\n\
         DUNGEON: \"The Dragon Caves\" \"D\" (5, 2)\n",
    ),
    w(
        BONES_REUSE_HARMLESS,
        "bones-marker-reuse-harmless",
        "a bones marker used twice, but no level that shares a file name can leave bones",
        "The manual asks for unique markers; here the reuse cannot mix bones up (for example \
         every level concerned is a bottom level, or too shallow to leave bones).",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"rogue\" \"R\" @ (15, 4)\n\
         LEVEL: \"rats\" \"R\" @ (-1, 0)\n",
    ),
    e(
        BASE_OUT_OF_RANGE,
        "a level range's base beyond MAXLEVEL",
        "A base must lie within -MAXLEVEL..MAXLEVEL (32 in NetHack). dgn_comp reports \"Abs base \
         out of dlevel range - zeroing!\" (or \"Rel base ...\" for chains and DUNGEON sizes) and \
         zeroes the range, which makes the game panic at start-up.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (40, 5)\n",
    ),
    e(
        RANGE_PAST_MAXLEVEL,
        "a level range that can end below MAXLEVEL",
        "base + rand - 1 must stay within MAXLEVEL; dgn_comp reports \"Abs range out of dlevel \
         range - zeroing!\".",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"bigrm\" \"B\" @ (30, 5)\n",
    ),
    e(
        BAD_RAND,
        "a random part below -1 (or negative for a dungeon size)",
        "rand 0 means exactly base, rand n > 0 one of base..base+n-1, rand -1 anywhere from base \
         to the bottom. dgn_comp zeroes a LEVEL or BRANCH range below -1 but writes a chained one, \
         and a negative dungeon size, as they are; the game's loader then calls rn2() with a \
         negative number, which NetHack 3.4.3, SLASH'EM and DynaHack answer in 0..|n|-1, NetHack \
         3.6, EvilHack and GnollHack with ISAAC-64's raw output, UnNetHack and NetHack 3.7 with 0 \
         and no draw, dNetHack with 0 after a draw. A chained level then makes every game panic; a \
         chained branch lands on its base level, hangs the game when that level already ends a \
         branch (unless rn2 gave 0), or in 3.6, EvilHack and GnollHack about half the time lands \
         outside the dungeon; a dungeon sized (base, -n) gets base + rn2(-n) levels.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"oracle\" \"O\" @ (5, -3)\n",
    ),
    e(
        LEVEL_ZERO,
        "an absolute level range with base 0",
        "Levels count from 1 at the top and from -1 at the bottom; there is no level 0. \
         NetHack's loader panics \"level_range: base value out of range\".",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"oracle\" \"O\" @ (0, 5)\n",
    ),
    e(
        BAD_DUNGEON_SIZE,
        "a dungeon size whose base is below 1",
        "A dungeon has base + rn2(rand) levels; base must be at least 1. dgn_comp's check for \
         this exists but is never called; the game then builds an empty dungeon.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (0, 5)\n",
    ),
    e(
        NEVER_FITS,
        "a level or branch range that never fits in its dungeon",
        "An absolute base beyond the dungeon's size (or a chained base that falls outside it) \
         makes NetHack's loader panic \"level_range: base value out of range\". When no possible \
         dungeon size fits, the file can never be loaded.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 0)\nLEVEL: \"medusa\" \"none\" @ (28, 0)\n",
    ),
    e(
        ON_ANCHOR,
        "a chained level placed on the level it is chained from",
        "Offset 0 (with no random part, or rand 1) puts the level on its anchor, which already \
         holds a special level; placement always fails (\"couldn't place levels\").",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"oracle\" \"O\" @ (5, 5)\n\
         CHAINLEVEL: \"delphi\" \"P\" \"oracle\" + (0, 0)\n",
    ),
    e(
        BAD_RNDLEVS,
        "a RNDLEVEL variant count below 1 or above the target's limit",
        "The game picks one of name-1 .. name-n; n must be at least 1, and NetHack keeps it in \
         an unsigned char (at most 255).",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nRNDLEVEL: \"bigrm\" \"B\" @ (10, 3) 0\n",
    ),
    w(
        MAY_NOT_FIT,
        "range-may-not-fit",
        "a level or branch range that fits only for some dungeon sizes",
        "For the sizes where the base lies beyond the bottom, NetHack's loader panics \
         \"level_range: base value out of range\" at start-up. The message gives the \
         probability of such a game.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"medusa\" \"none\" @ (28, 0)\n",
    ),
    w(
        PLACEMENT_MAY_FAIL,
        "placement-may-fail",
        "the special levels of a dungeon cannot all be placed for some dungeon sizes",
        "Two special levels never share a level. When the candidate levels are too few, \
         NetHack's loader panics \"init_dungeon: couldn't place levels\".",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"a\" \"A\" @ (5, 2)\n\
         LEVEL: \"b\" \"B\" @ (5, 2)\nLEVEL: \"c\" \"C\" @ (5, 2) 50\n",
    ),
    w(
        CHANCE_OUT_OF_RANGE,
        "chance-out-of-range",
        "a chance outside 1..100",
        "Chances are percentages. A level chance of 0 or less means the level never exists; \
         above 100 is the same as 100. A dungeon chance of 0 means \"always\" (it is what an \
         absent chance is stored as).",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"oracle\" \"O\" @ (5, 5) 150\n",
    ),
    w(
        ENTRY_BEYOND_BOTTOM,
        "entry-beyond-bottom",
        "an ENTRY level beyond the dungeon's bottom for some sizes",
        "The loader cuts a positive entry level beyond the dungeon's size to its bottom level \
         (NetHack 3.4.3 `src/dungeon.c:757-760`, 3.6 `:833-835`, and every variant), so for \
         those sizes the branch arrives at the bottom, not at the level written. (Only 3.3's \
         loader kept it, arriving on a level that does not exist.)",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"Tower\" @ (5, 2)\n\
         DUNGEON: \"Tower\" \"T\" (3, 0)\nENTRY: 5\n",
    ),
    e(
        CHAIN_UNKNOWN,
        "a chain to a level that is not defined",
        "CHAINLEVEL, RNDCHLEVEL and CHAINBRANCH name the level they are placed relative to; it \
         must be defined earlier in the same dungeon. dgn_comp: \"Can't locate the specified \
         chain level.\"",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nCHAINLEVEL: \"x\" \"X\" \"oracle\" + (1, 0)\n",
    ),
    e(
        CHAIN_OTHER_DUNGEON,
        "a chain to a level of another dungeon",
        "A chain is resolved within the current dungeon only.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"oracle\" \"O\" @ (5, 5)\n\
         BRANCH: \"Mines\" @ (2, 3)\nDUNGEON: \"Mines\" \"M\" (8, 2)\n\
         CHAINLEVEL: \"x\" \"X\" \"oracle\" + (1, 0)\n",
    ),
    e(
        CHAIN_LATER,
        "a chain to a level defined later",
        "The loader places levels in file order, so the anchor must come first. Move the \
         chained statement below the level it names.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"first\" \"F\" @ (1, 0)\n\
         CHAINLEVEL: \"x\" \"X\" \"oracle\" + (1, 0)\nLEVEL: \"oracle\" \"O\" @ (5, 5)\n",
    ),
    e(
        CHAIN_ITSELF,
        "a level chained to itself",
        "dgn_comp: \"A level cannot chain to itself!\"",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"first\" \"F\" @ (1, 0)\n\
         CHAINLEVEL: \"x\" \"X\" \"x\" + (1, 0)\n",
    ),
    e(
        CHAIN_PROBABILISTIC,
        "a chain from a level whose chance is below 100",
        "When the anchor does not exist the loader panics \"level_range: empty chain level!\". \
         dgn_comp: \"Level cannot chain from a probabilistic level.\"",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"first\" \"F\" @ (1, 0)\n\
         LEVEL: \"oracle\" \"O\" @ (5, 5) 50\nCHAINLEVEL: \"x\" \"X\" \"oracle\" + (1, 0)\n",
    ),
    e(
        CHAIN_UNREACHED,
        "dungeon.lua: a dungeon's first branch chained to the last level read before it",
        "NetHack 3.7's search for a branch's chain level (dungeon.c, init_dungeon_branches) \
         covers one level fewer than it should for a dungeon's first branch: the last level \
         read is never found and the game panics \"Could not chain branch\". List another \
         branch first or chain to another level.",
        "dungeon = {\n   { name = \"The Dungeons of Doom\", base = 25, range = 5,\n     \
         levels = { { name = \"oracle\", base = 5, range = 5 } },\n     \
         branches = { { name = \"Sokoban\", chainlevel = \"oracle\", base = 1, direction = \"up\" } } },\n   \
         { name = \"Sokoban\", base = 4 },\n}\n",
    ),
    e(
        BRANCH_UNDEFINED,
        "a branch to a dungeon that is never defined",
        "The branch's target must name a DUNGEON of the file, byte for byte.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"The Gnomish Mine\" @ (2, 3)\n",
    ),
    e(
        BRANCH_REVERSE,
        "a branch to a dungeon defined earlier",
        "The loader builds dungeons in file order and looks for the branch into each one among \
         the branches read so far. dgn_comp: \"Reverse branching not allowed.\" (SLASH'EM's \
         dialect allows it.)",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"Mines\" @ (2, 3)\n\
         DUNGEON: \"Mines\" \"M\" (8, 2)\nBRANCH: \"The Dungeons of Doom\" @ (3, 0)\n",
    ),
    e(
        BRANCH_SECOND,
        "a second branch to the same dungeon",
        "The loader connects each dungeon through the first branch that names it; a second one is \
         never built. (SLASH'EM's dialect allows several.)",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"Mines\" @ (2, 3)\n\
         BRANCH: \"Mines\" @ (6, 3)\nDUNGEON: \"Mines\" \"M\" (8, 2)\n",
    ),
    e(
        DUNGEON_UNREACHED,
        "a dungeon other than the first that no branch reaches",
        "The loader panics \"find_branch: can't find ...\" when it builds a dungeon that no \
         earlier branch leads to.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nDUNGEON: \"Mines\" \"M\" (8, 2)\n",
    ),
    e(
        BRANCH_FROM_OPTIONAL,
        "a branch from a dungeon whose chance is below 100",
        "When the optional dungeon is not created its branches are skipped, and the dungeon they \
         lead to cannot be connected (the manual forbids it; dgn_comp does not check).",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"Caves\" @ (10, 3)\n\
         DUNGEON: \"Caves\" \"C\" (5, 2) 75\nBRANCH: \"Deep\" @ (2, 0)\nDUNGEON: \"Deep\" \"E\" (2, 0)\n",
    ),
    e(
        BRANCH_TO_SELF,
        "a branch to the dungeon it is in",
        "A dungeon cannot be its own parent; the loader never finds a branch into it.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"The Dungeons of Doom\" @ (2, 3)\n",
    ),
    e(
        BAD_BRANCH_TYPE,
        "a branch type other than stair, no_up, no_down or portal",
        "dgn_comp's lexer knows only those four words after a branch's range.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"Mines\" @ (2, 3) ladder\n\
         DUNGEON: \"Mines\" \"M\" (8, 2)\n",
    ),
    w(
        PORTAL_DIRECTION,
        "portal-direction",
        "a direction on a portal branch",
        "Portals have no direction; NetHack stores the word but never uses it.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"Fort Ludios\" @ (18, 4) portal up\n\
         DUNGEON: \"Fort Ludios\" \"K\" (1, 0)\nLEVEL: \"knox\" \"K\" @ (-1, 0)\n",
    ),
    e(
        WRONG_DESCRIPTOR,
        "a descriptor word that the statement does not take",
        "DESCRIPTION takes hellish, mazelike, roguelike; ALIGNMENT and LEVALIGN an alignment \
         (unaligned, noalign, lawful, neutral, chaotic); LEVELDESC town, hellish, mazelike, \
         roguelike or unaligned. dgn_comp: \"Illegal description - ignoring!\" / \"Illegal \
         alignment - ignoring!\".",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nDESCRIPTION: town\n",
    ),
    e(
        UNKNOWN_DESCRIPTOR,
        "a word that is no descriptor in the selected dialect",
        "Variants added descriptors (EvilHack: iceq, vecnad, gtown, purg, hdgn; HackEM: vecnad); \
         NetHack's dgn_comp reports a syntax error. Select the variant's dialect.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nDESCRIPTION: iceq\n",
    ),
    e(
        BAD_TILESET,
        "a TILESET value GnollHack does not know",
        "TILESET takes one of GnollHack's `*_tileset` words or an integer 0..15.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nTILESET: pink_tileset\n",
    ),
    e(
        TOO_MANY_DUNGEONS,
        "more dungeons than the target's game loads",
        "NetHack's loader panics \"init_dungeons: too many dungeons\" when the file has MAXDUNGEON \
         (16) dungeons or more, so at most 15 (dgn_comp itself takes up to 17, overrunning its \
         arrays).",
        "",
    ),
    e(
        TOO_MANY_LEVELS,
        "more special levels than the target allows",
        "NetHack holds at most LEV_LIMIT (50) special levels; dgn_comp stops with \"FATAL - Too \
         many special levels defined.\"",
        "",
    ),
    e(
        TOO_MANY_BRANCHES,
        "more branches than the target allows",
        "NetHack holds at most BRANCH_LIMIT (32) branches (dgn_comp's message for this is a copy \
         of the level one).",
        "",
    ),
    e(
        TOO_MANY_LEVELS_IN_ALL,
        "more than 127 levels in all dungeons together at their largest",
        "Level numbers across dungeons (ledger numbers) are signed 8-bit in the game; level 128 \
         becomes -128 (\"Cannot open file ... for level -128\", HackEM issue 69).",
        "",
    ),
    e(
        DISPLAY_NAME,
        "a level display name (GnollHack syntax) outside the GnollHack dialect",
        "GnollHack writes a display name before a level's file name. Other compilers reject \
         the extra string. Use `--dialect gnollhack`.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"Delphi\" \"oracle\" \"O\" @ (5, 5)\n",
    ),
    e(
        TILESET,
        "TILESET (GnollHack syntax) outside the GnollHack dialect",
        "Only GnollHack's compiler knows TILESET. Use `--dialect gnollhack`.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nTILESET: gehennom_tileset\n",
    ),
    e(
        BRANCH_ENTRY,
        "a branch entry level (SLASH'EM syntax) outside the SLASH'EM dialects",
        "SLASH'EM moved the entry level from ENTRY onto the branch: an integer after the \
         direction. Vanilla's dgn_comp reports a syntax error. Use `--dialect slashem`.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"Sokoban\" @ (6, 2) stair up -1\n\
         DUNGEON: \"Sokoban\" \"none\" (4, 0)\n",
    ),
    e(
        ENTRY_OBSOLETE,
        "ENTRY in the SLASH'EM dialect",
        "SLASH'EM's dgn_comp reports \"ENTRY is obsolete!\": write the entry level after the \
         branch's direction instead.",
        "",
    ),
    e(
        KNOX_UNREACHABLE,
        "a level named knox that no branch can arrive at",
        "NetHack treats the level named knox (Fort Ludios) specially: it looks for the branch \
         arriving at it and aborts \"insert_branch: not found\" when there is none. knox must be \
         the entry level of a dungeon that a branch leads to.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"knox\" \"K\" @ (20, 2)\n",
    ),
    e(
        NEVER_PLACED,
        "the special levels of a dungeon can never all be placed",
        "For every possible size, even with every optional level absent, two special levels \
         would need the same level; the loader panics \"init_dungeon: couldn't place levels\".",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"a\" \"A\" @ (5, 0)\nLEVEL: \"b\" \"B\" @ (5, 0)\n",
    ),
    w(
        KNOX_SOMETIMES,
        "knox-reachability",
        "a level named knox that the incoming branch reaches only in some layouts",
        "knox must be where its dungeon's branch arrives (the entry level); when it can lie \
         elsewhere the game aborts \"insert_branch: not found\" in those layouts.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"Fort Ludios\" @ (18, 4) portal\n\
         DUNGEON: \"Fort Ludios\" \"K\" (2, 0)\nLEVEL: \"knox\" \"K\" @ (1, 2)\n",
    ),
    w(
        MISSING_HARDWIRED,
        "missing-hardwired-dungeon",
        "a dungeon NetHack looks up by name is missing",
        "NetHack's loader looks up \"The Quest\", \"Sokoban\", \"The Gnomish Mines\" and \"Vlad's \
         Tower\" by name and aborts \"Couldn't resolve dungeon number for name ...\" without them \
         (translations must rename them in the C code too).",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\n",
    ),
    w(
        OPTIONAL_BEFORE_CHAIN,
        "optional-dungeon-before-chain",
        "an optional dungeon before a dungeon with chained levels or branches",
        "Chains are stored as indices into the file's list of levels. When an optional dungeon \
         is not created, NetHack's loader skips its levels without counting them, so every later \
         chain points at the wrong level (or at none: \"empty chain level\").",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"Caves\" @ (10, 3)\n\
         BRANCH: \"Tower\" @ (12, 3)\nDUNGEON: \"Caves\" \"C\" (5, 2) 75\nLEVEL: \"cave\" \"C\" @ (1, 0)\n\
         DUNGEON: \"Tower\" \"T\" (5, 0)\nLEVEL: \"top\" \"T\" @ (1, 0)\n\
         CHAINLEVEL: \"mid\" \"M\" \"top\" + (2, 0)\n",
    ),
    w(
        COMPAT_RNDCHAINLEVEL,
        "compat-rndchainlevel",
        "RNDCHAINLEVEL, the manual's spelling that NetHack's dgn_comp rejects",
        "dgn_comp(6) documents RNDCHAINLEVEL but the lexer only knows RNDCHLEVEL. dgnkit accepts \
         both; the fix rewrites it.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"first\" \"F\" @ (1, 0)\n\
         LEVEL: \"oracle\" \"O\" @ (5, 5)\nRNDCHAINLEVEL: \"x\" \"X\" \"oracle\" + (1, 0) 2\n",
    ),
    w(
        COMPAT_TRAILING_COMMENT,
        "compat-trailing-comment",
        "a `#` comment after a statement, which NetHack's dgn_comp rejects",
        "Only whole lines starting with `#` are comments for makedefs; any other `#` is a syntax \
         error in dgn_comp. The fix moves the comment to its own line above.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5) # the main dungeon\n",
    ),
    w(
        COMPAT_CHAIN_TO_FIRST,
        "compat-chain-to-first-level",
        "a CHAINLEVEL or RNDCHLEVEL chained to its dungeon's first level",
        "dgn_comp's search for the chained-from level skips the dungeon's first level, so it \
         reports \"Can't locate the specified chain level.\" dgnkit resolves it.",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"oracle\" \"O\" @ (5, 5)\n\
         CHAINLEVEL: \"x\" \"X\" \"oracle\" + (1, 0)\n",
    ),
    w(
        COMPAT_MISSING_BONES,
        "compat-missing-bones",
        "a level without a bones marker",
        "NetHack's grammar requires the bones marker; dgnkit stores \"none\" (no bones). The fix \
         inserts \"none\".",
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"jadekey\" @ (7, 7)\n",
    ),
    CodeInfo {
        code: DIALECT_SUGGESTION,
        severity: Severity::Note,
        lint: None,
        summary: "the file looks like a variant's: the `--target` or `--dialect` that accepts it",
        explanation: "When the selected dialect rejects constructs that a known variant's compiler \
                      accepts, dgn check names that variant: its `--target` when dgnkit has the \
                      game (which brings its dialect, limits and loader), else its `--dialect`. \
                      Without `--target` or `--dialect`, a file whose path names a variant \
                      (`~/src/unnethack/dat/dungeon.def`) gets the same note: it was checked with \
                      NetHack 3.6's language and limits. The language server gives both notes in \
                      the editor's words, the `dgnkit.target` (for a dungeon.lua, \
                      `dgnkit.luaTarget`) value to set, and the path note whenever the file's game \
                      and the setting differ: an editor sends its default target like a chosen \
                      one.",
        example: "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"Delphi\" \"oracle\" \"O\" @ (5, 5)\n",
    },
];

/// The grammar's codes (syntax, preprocessing) and ours, as one list.
pub fn all() -> Vec<CodeInfo> {
    let grammar = dgnkit_grammar::codes::CODES.iter().map(|c| CodeInfo {
        code: c.code,
        severity: c.severity,
        lint: c.lint,
        summary: c.summary,
        explanation: "",
        example: c.example,
    });
    let mut all: Vec<CodeInfo> = grammar
        .chain(CODES.iter().copied())
        .chain(super::odds::CODES.iter().copied())
        .chain(crate::lua::codes::CODES.iter().copied())
        .chain(super::find_codes::CODES.iter().copied())
        .collect();
    all.sort_by_key(|c| (c.code.starts_with('N'), c.code.starts_with('W'), c.code));
    all
}

/// The documentation of one code (case-insensitive), from either table.
pub fn lookup(code: &str) -> Option<CodeInfo> {
    let code = code.trim();
    all()
        .into_iter()
        .find(|c| c.code.eq_ignore_ascii_case(code))
}

/// The code a lint name stands for.
pub fn lint_code(lint: &str) -> Option<CodeInfo> {
    all().into_iter().find(|c| c.lint == Some(lint))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_lint_names_are_unique() {
        let all = all();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.code, b.code);
                if a.lint.is_some() {
                    assert_ne!(a.lint, b.lint, "{} and {}", a.code, b.code);
                }
            }
            assert_eq!(
                a.lint.is_some(),
                a.severity == Severity::Warning,
                "{}",
                a.code
            );
        }
    }
}
