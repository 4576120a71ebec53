-- dgnkit's description of the dungeon of SpliceHack 1.2.0 (commit 8d70ade6f,
-- whose game starts are recorded in expected/variants).
--
-- `dgn layout --target` of this game resolves this file when given none,
-- and `dgn xlog` answers the release's lines with it. It states the facts
-- of the game's own dungeon.lua: the same dungeons, special levels, ranges,
-- chances, branches and flags, in the same order (the loader draws
-- dungeon by dungeon, and inside a dungeon level by level).
-- SpliceHack's loader is NetHack 3.7's of 2021: no Tutorial, and a
-- dungeon's `nofood` flag in place of 3.7's `unconnected`.
--
-- Reading a range: `base` is a level number (negative: counted from the
-- bottom); `range` is how many levels from there it may take. With
-- `chainlevel`, the base counts from wherever that level was placed.
-- `nlevels` is the number of variants of a level's file; `bonetag` its
-- bones file marker (absent: no bones there).

dungeon = {
   {
      name = "The Dungeons of Doom",
      bonetag = "D",
      base = 25,
      range = 5,
      themerooms = "themerms.lua",
      levels = {
         { name = "rogue", bonetag = "R", base = 15, range = 4, flags = "roguelike" },
         { name = "oracle", bonetag = "O", base = 5, range = 5, nlevels = 3, alignment = "neutral" },
         { name = "bigrm", bonetag = "B", base = 10, range = 6, nlevels = 10, chance = 40 },
         { name = "rats", bonetag = "r", base = 10, range = 2, chance = 25 },
         { name = "bigrm", bonetag = "B", base = 20, range = 3, nlevels = 11, chance = 40 },
         { name = "medusa", base = -5, range = 4, nlevels = 4, alignment = "chaotic" },
         { name = "castle", base = -1 },
      },
      branches = {
         { name = "The Gnomish Mines", base = 2, range = 3 },
         { name = "The Lost Tomb", base = 5, range = 20 },
         { name = "Sokoban", chainlevel = "oracle", base = 1, direction = "up" },
         { name = "The Quest", chainlevel = "oracle", base = 6, range = 2, branchtype = "portal" },
         { name = "The Bar", base = 15, range = 5, direction = "up" },
         { name = "Fort Ludios", base = 18, range = 4, branchtype = "portal" },
         { name = "One-eyed Sam's Market", base = 20, range = 5, branchtype = "portal" },
         { name = "Gehennom", chainlevel = "castle", base = 0, branchtype = "no_down" },
         { name = "The Elemental Planes", base = 1, branchtype = "no_down", direction = "up" },
      },
   },
   {
      name = "Gehennom",
      bonetag = "G",
      base = 20,
      range = 5,
      flags = { "hellish", "mazelike" },
      levels = {
         { name = "valley", bonetag = "V", base = 1 },
         { name = "sanctum", base = -1 },
         { name = "juiblex", bonetag = "J", base = 4, range = 4 },
         { name = "foogardens", bonetag = "L", base = 2, range = 5 },
         { name = "mephisto", bonetag = "M", base = 2, range = 6 },
         { name = "baalz", bonetag = "B", base = 6, range = 4 },
         { name = "asmodeus", bonetag = "A", base = 2, range = 6 },
         { name = "wizard1", base = 11, range = 6 },
         { name = "wizard2", bonetag = "X", chainlevel = "wizard1", base = 1 },
         { name = "wizard3", bonetag = "Y", chainlevel = "wizard1", base = 2 },
         { name = "orcus", bonetag = "O", base = 10, range = 6 },
         { name = "fakewiz1", bonetag = "F", base = -6, range = 4 },
         { name = "fakewiz2", bonetag = "G", base = -6, range = 4 },
      },
      branches = {
         { name = "Vlad's Tower", base = 9, range = 5, direction = "up" },
      },
   },
   {
      name = "The Gnomish Mines",
      bonetag = "M",
      base = 8,
      range = 2,
      alignment = "lawful",
      flags = "mazelike",
      lvlfill = "minefill",
      levels = {
         { name = "minetn", bonetag = "T", base = 3, range = 2, nlevels = 9, flags = "town" },
         { name = "minend", base = -1, nlevels = 3 },
      },
   },
   {
      name = "The Quest",
      bonetag = "Q",
      base = 5,
      range = 2,
      levels = {
         { name = "x-strt", base = 1, range = 1 },
         { name = "x-loca", bonetag = "L", base = 3, range = 1 },
         { name = "x-goal", base = -1 },
      },
   },
   {
      name = "Sokoban",
      base = 4,
      entry = -1,
      alignment = "neutral",
      flags = "mazelike",
      levels = {
         { name = "soko1", base = 1, nlevels = 3 },
         { name = "soko2", base = 2, nlevels = 3 },
         { name = "soko3", base = 3, nlevels = 2 },
         { name = "soko4", base = 4, nlevels = 5 },
      },
   },
   {
      name = "Fort Ludios",
      bonetag = "K",
      base = 1,
      flags = "mazelike",
      levels = {
         { name = "knox", bonetag = "K", base = -1 },
      },
   },
   {
      name = "The Bar",
      bonetag = "b",
      base = 1,
      alignment = "chaotic",
      flags = { "mazelike", "nofood" },
      levels = {
         { name = "bar", bonetag = "b", base = -1 },
      },
   },
   {
      name = "The Lost Tomb",
      bonetag = "Z",
      base = 1,
      alignment = "chaotic",
      flags = { "mazelike", "nofood" },
      levels = {
         { name = "tomb", bonetag = "Z", base = -1 },
      },
   },
   {
      name = "One-eyed Sam's Market",
      bonetag = "W",
      base = 1,
      alignment = "chaotic",
      flags = "mazelike",
      levels = {
         { name = "blkmar", bonetag = "W", base = 1 },
      },
   },
   {
      name = "Vlad's Tower",
      bonetag = "T",
      base = 3,
      entry = -1,
      protofile = "tower",
      alignment = "chaotic",
      flags = "mazelike",
      levels = {
         { name = "tower1", base = 1 },
         { name = "tower2", base = 2 },
         { name = "tower3", base = 3 },
      },
   },
   {
      name = "The Elemental Planes",
      bonetag = "E",
      base = 9,
      entry = -2,
      flags = "mazelike",
      levels = {
         { name = "astral", base = 1 },
         { name = "water", base = 2 },
         { name = "brass", base = 3 },
         { name = "fire", base = 4 },
         { name = "ice", base = 5 },
         { name = "air", base = 6 },
         { name = "gemarray", base = 7 },
         { name = "earth", base = 8 },
         { name = "dummy", base = 9 },
      },
   },
}

-- options: --target splicehack --dialect splicehack
-- expect: W0301 30:19
-- expect: W0302 30:38
-- expect: W0304 144:39
