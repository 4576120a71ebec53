//! The codes of reading `dungeon.lua` (family `12`), documented like the
//! checks' codes and merged into [`crate::check::codes::all`]. Every other
//! check runs on a Lua file too, with the same codes.

use crate::check::codes::{e, w, CodeInfo};

pub const LUA_SYNTAX: &str = "E1201";
pub const LUA_NOT_CONSTANT: &str = "E1202";
pub const LUA_STATEMENT: &str = "E1203";
pub const LUA_NO_DUNGEON: &str = "E1204";
pub const LUA_WRONG_TYPE: &str = "E1205";
pub const LUA_MISSING_FIELD: &str = "E1206";
pub const LUA_BAD_WORD: &str = "E1207";
pub const LUA_NOT_A_TABLE: &str = "E1208";
pub const LUA_TOO_COMPLEX: &str = "E1209";
pub const LUA_NO_DEF_FORM: &str = "E1210";
pub const LUA_NO_LUA_FORM: &str = "E1211";
pub const LUA_RUNTIME: &str = "E1212";
pub const LUA_LIMIT: &str = "E1213";
pub const LUA_OUTCOMES: &str = "E1214";
pub const LUA_UNKNOWN_FIELD: &str = "W1201";
pub const LUA_DUPLICATE_FIELD: &str = "W1202";
pub const LUA_BONETAG: &str = "W1203";
pub const LUA_UNCONNECTED_LEVEL: &str = "W1204";
pub const LUA_CONVERSION: &str = "W1205";

pub const CODES: &[CodeInfo] = &[
    e(
        LUA_RUNTIME,
        "dungeon.lua raises an error when it runs",
        "NetHack runs dungeon.lua at the start of every game, with what its sandbox gives the \
         file (the base functions ipairs, next, pairs, pcall, select, tonumber, tostring, type, \
         xpcall; the coroutine, table, string, math and utf8 libraries; `nh.rn2`, \
         `nh.random`, `percent`, `d`, `shuffle` and nhlib's `math.random`). A Lua error, a \
         call of something the sandbox does not give (`error`, `print`, `io`, `os`, `require`, \
         `load`, ...) or an `rn2` of more than the game's int stops the game from starting.",
        "local n = nil + 1\ndungeon = {}\n",
    ),
    e(
        LUA_LIMIT,
        "dungeon.lua exceeds the sandbox's limits",
        "NetHack gives dungeon.lua 1 MiB of memory and about a million Lua instructions \
         (src/dungeon.c:1213); dgnkit gives the same, stops a run after 1.5 seconds, and \
         refuses a pattern search (string.find, match, gmatch, gsub) whose backtracking in C \
         could run for hours. An endless loop, a table grown without end, unbounded recursion \
         or more than 256 draws stop here.",
        "-- a loop that never ends\nwhile true do end\n",
    ),
    e(
        LUA_OUTCOMES,
        "dungeon.lua's draws have too many outcomes",
        "dgnkit runs a dungeon.lua once per outcome of the draws it makes before `dungeon` is \
         set (`percent(n)` has two, `math.random(n)` has n), so that every seed's layout and \
         every exact chance follow without running Lua again. More than 256 outcomes are \
         refused.",
        "local a = math.random(100) + math.random(100)\ndungeon = {}\n",
    ),
    e(
        LUA_SYNTAX,
        "a Lua syntax error in dungeon.lua",
        "NetHack 3.7 loads dungeon.lua with Lua 5.4 and cannot start when the file does not \
         parse. dgnkit still reads what parsed around the error.",
        "dungeon = {\n   { name = \"The Dungeons of Doom\", base = 25 range = 5 },\n}\n",
    ),
    e(
        LUA_NOT_CONSTANT,
        "an expression that is not a constant",
        "A file that is pure data is read without running it, and there a value must be a \
         string, an integer (with a minus sign if negative), a boolean or a table constructor \
         of such values. A file with any other expression is a program: dgnkit runs it as \
         NetHack does, in a sandbox, and this code is not reported. It is reported only where \
         the file cannot be run (a syntax error, or an error when it runs).",
        "dungeon = {\n   { name = \"The Dungeons of \" .. \"Doom\", base = 25 + nil },\n}\n",
    ),
    e(
        LUA_STATEMENT,
        "a statement other than `dungeon = { ... }`",
        "NetHack runs the file and then reads the global `dungeon`. A file with statements \
         besides `dungeon = { ... }` (a local, a call, a loop) is run by dgnkit as NetHack \
         runs it, in a sandbox; this code is reported only where the file cannot be run (a \
         syntax error, or an error when it runs) or for a local `dungeon`, which NetHack \
         never reads.",
        "local dungeon = {\n   { name = \"The Dungeons of Doom\", base = 25 },\n}\n",
    ),
    e(
        LUA_NO_DUNGEON,
        "the file does not set the global `dungeon` to a table",
        "NetHack's `init_dungeons()` panics \"dungeon is not a lua table\" when the global \
         `dungeon` is not a table after the file has run.",
        "-- a dungeon.lua without its table\n",
    ),
    e(
        LUA_WRONG_TYPE,
        "a field whose value has the wrong type",
        "Names and words are strings, `base`, `range`, `chance`, `entry` and `nlevels` are \
         integers, `levels` and `branches` are lists of tables, `flags` is a word or a list \
         of words. NetHack's loader stops with a Lua error (or a panic) on anything else; a \
         number with a fraction has no integer value.",
        "dungeon = {\n   { name = \"The Dungeons of Doom\", base = 25.5 },\n}\n",
    ),
    e(
        LUA_MISSING_FIELD,
        "a dungeon, level or branch without `name` or `base`",
        "`name` and `base` are the only fields without a default; NetHack's loader stops \
         with a Lua error when one is missing.",
        "dungeon = {\n   { name = \"The Dungeons of Doom\", range = 5 },\n}\n",
    ),
    e(
        LUA_BAD_WORD,
        "a word that is not one of the field's options",
        "`alignment` takes unaligned, noalign, lawful, neutral or chaotic; `flags` takes town, \
         hellish, mazelike, roguelike and unconnected; `branchtype` takes stair, portal, \
         no_down or no_up; `direction` takes up or down. NetHack's loader stops with Lua's \
         \"invalid option\" error on any other word (words are case-sensitive).",
        "dungeon = {\n   { name = \"The Dungeons of Doom\", base = 25, alignment = \"lawfull\" },\n}\n",
    ),
    e(
        LUA_NOT_A_TABLE,
        "a dungeon, level or branch that is not a table in its list",
        "`dungeon`, `levels` and `branches` are lists of tables. NetHack panics \"... is not \
         a hash\" for an entry that is not a table, and reads a named entry of the `dungeon` \
         list as one more dungeon, in an order Lua does not define.",
        "dungeon = {\n   \"The Dungeons of Doom\",\n}\n",
    ),
    e(
        LUA_TOO_COMPLEX,
        "a file nested too deeply for dgnkit's Lua reader",
        "A dungeon description is a few nested tables. dgnkit refuses files with brackets \
         nested more than 64 deep or thousands of operators rather than risk its parser's \
         stack.",
        "",
    ),
    e(
        LUA_NO_DEF_FORM,
        "`dgn convert --to def`: a field that dungeon.def cannot hold",
        "dgn_comp's language has no `themerooms`, `lvlfill` or `unconnected`, no `town` flag \
         for a dungeon, and a dungeon's `chance` of 100 is stored as 0 (no roll) only when \
         written explicitly. The conversion names every such field and writes nothing.",
        "",
    ),
    e(
        LUA_NO_LUA_FORM,
        "`dgn convert --to lua`: something dungeon.lua cannot hold",
        "dungeon.lua names a chain's level, and NetHack 3.7 looks the name up among every level \
         read before (a dungeon's first branch misses the last one): a chain to a later level of \
         the same name cannot be written. A level has one `alignment` word, where LEVALIGN lines \
         can add several. The conversion names each such construct and writes nothing.",
        "",
    ),
    w(
        LUA_UNKNOWN_FIELD,
        "unknown-lua-field",
        "a field NetHack's loader does not read",
        "NetHack ignores fields it does not know, so a misspelled field silently keeps its \
         default. The fix renames it to the closest known field.",
        "dungeon = {\n   { name = \"The Dungeons of Doom\", base = 25, rnage = 5 },\n}\n",
    ),
    w(
        LUA_DUPLICATE_FIELD,
        "duplicate-lua-field",
        "a field given twice in one table",
        "A Lua table constructor keeps the last value of a key: the first one has no effect.",
        "dungeon = {\n   { name = \"The Dungeons of Doom\", base = 25, base = 20 },\n}\n",
    ),
    w(
        LUA_BONETAG,
        "bonetag-first-char",
        "a bonetag of more than one character: only the first is used",
        "NetHack 3.7 keeps the first character of `bonetag` (dungeon.c: `*lvl_bonetag`); \
         unlike dgn_comp it does not read \"none\" as no bones: \"none\" is the marker `n`. \
         Leave the field out for no bones.",
        "dungeon = {\n   { name = \"The Dungeons of Doom\", bonetag = \"none\", base = 25 },\n}\n",
    ),
    w(
        LUA_UNCONNECTED_LEVEL,
        "unconnected-level",
        "`unconnected` among a level's flags, where it is the chaotic alignment bit",
        "NetHack 3.7 ORs a level's flags with its alignment, and UNCONNECTED (0x10) is the \
         same bit as D_ALIGN_CHAOTIC: the level becomes chaotic. `unconnected` is a \
         dungeon's flag.",
        "dungeon = {\n   { name = \"The Dungeons of Doom\", base = 25,\n     levels = { { name = \"oracle\", base = 5, flags = \"unconnected\" } } },\n}\n",
    ),
    w(
        LUA_CONVERSION,
        "lua-conversion",
        "a number where a string is expected or a string where a number is",
        "Lua converts between numbers and numeric strings where NetHack asks for one, so \
         the file loads; write the value in its own type.",
        "dungeon = {\n   { name = \"The Dungeons of Doom\", base = \"25\" },\n}\n",
    ),
];
