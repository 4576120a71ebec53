-- dgnkit's description of the dungeon of NerfHack 2.2.0 (commit 5194598f7,
-- whose game starts are recorded in expected/variants).
--
-- `dgn layout --target` of this game resolves this file when given none,
-- and `dgn xlog` answers the release's lines with it. It states the facts
-- of the game's own dungeon.lua: the same dungeons, special levels, ranges,
-- chances, branches and flags, in the same order (the loader draws
-- dungeon by dungeon, and inside a dungeon level by level).
-- NerfHack takes 64 special levels where NetHack 3.7 takes 50.
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
      base = 30,
      range = 5,
      themerooms = "themerms.lua",
      levels = {
         { name = "oracle", bonetag = "O", base = 8, range = 4, nlevels = 3, alignment = "neutral" },
         { name = "bigrm", bonetag = "B", base = 10, range = 3, nlevels = 21, chance = 40 },
         { name = "bigrm", bonetag = "D", base = 23, range = 3, nlevels = 21, chance = 40 },
         { name = "medusa", base = -5, range = 4, nlevels = 4, alignment = "chaotic" },
         { name = "castle", base = -1, nlevels = 3 },
      },
      branches = {
         { name = "The Gnomish Mines", base = 2, range = 3 },
         { name = "Sokoban", chainlevel = "oracle", base = 1, direction = "up" },
         { name = "The Quest", chainlevel = "oracle", base = 6, range = 2, branchtype = "portal" },
         { name = "The Lost Tomb", base = 15, range = 4 },
         { name = "The Wyrm Caves", base = 20, range = 2 },
         { name = "The Temple of Moloch", base = 21, range = 4 },
         { name = "Fort Ludios", base = 18, range = 4, branchtype = "portal" },
         { name = "Gehennom", chainlevel = "castle", base = 0, branchtype = "no_down" },
         { name = "The Elemental Planes", base = 1, branchtype = "no_down", direction = "up" },
      },
   },
   {
      name = "Gehennom",
      bonetag = "G",
      base = 19,
      range = 2,
      flags = { "hellish", "mazelike" },
      lvlfill = "hellfill",
      levels = {
         { name = "valley", bonetag = "V", base = 1, nlevels = 2 },
         { name = "bridge", bonetag = "E", base = 2 },
         { name = "sanctm", base = -1, nlevels = 2 },
         { name = "invoke", base = -2 },
         { name = "juiblex", bonetag = "J", base = 3, range = 5 },
         { name = "yeenog", bonetag = "E", base = 3, range = 5, nlevels = 3 },
         { name = "orcus", bonetag = "O", base = 3, range = 5, nlevels = 2 },
         { name = "fakewiz1", bonetag = "F", base = -6, range = 4 },
         { name = "demo", bonetag = "D", base = 3, range = 5, nlevels = 3 },
         { name = "baalz", bonetag = "B", base = 10, range = 6, nlevels = 3 },
         { name = "geryon", bonetag = "G", base = 10, range = 6, nlevels = 2 },
         { name = "dispat", bonetag = "R", base = 10, range = 6, nlevels = 3 },
         { name = "asmode", bonetag = "A", base = 10, range = 6, nlevels = 2 },
      },
      branches = {
         { name = "Vlad's Tower", base = 3, range = 10, direction = "up" },
         { name = "The Wizard's Tower", chainlevel = "fakewiz1", base = 0, branchtype = "portal" },
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
         { name = "minetn", bonetag = "T", base = 3, range = 2, nlevels = 12, flags = "town" },
         { name = "minend", base = -1, nlevels = 7 },
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
      base = 6,
      entry = -1,
      alignment = "neutral",
      flags = "mazelike",
      levels = {
         { name = "soko1", base = 1, nlevels = 8 },
         { name = "soko2", base = 2, nlevels = 6 },
         { name = "soko3", base = 3, nlevels = 8 },
         { name = "soko4", base = 4, nlevels = 8 },
         { name = "soko5", base = 5, nlevels = 8 },
         { name = "sokostrt", base = 6 },
      },
   },
   {
      name = "Fort Ludios",
      bonetag = "K",
      base = 1,
      flags = "mazelike",
      levels = {
         { name = "knox", bonetag = "K", base = -1, nlevels = 3 },
      },
   },
   {
      name = "The Lost Tomb",
      bonetag = "Z",
      base = 1,
      alignment = "chaotic",
      flags = "mazelike",
      levels = {
         { name = "tomb", bonetag = "Z", base = -1, nlevels = 2 },
      },
   },
   {
      name = "The Wyrm Caves",
      bonetag = "D",
      base = 1,
      alignment = "chaotic",
      flags = "mazelike",
      levels = {
         { name = "dragons", bonetag = "D", base = -1 },
      },
   },
   {
      name = "The Temple of Moloch",
      bonetag = "Y",
      base = 1,
      alignment = "chaotic",
      flags = "mazelike",
      levels = {
         { name = "temple", bonetag = "Y", base = -1, nlevels = 2 },
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
      name = "The Wizard's Tower",
      bonetag = "W",
      base = 8,
      entry = -1,
      flags = "mazelike",
      levels = {
         { name = "wizard1", base = 1 },
         { name = "wizard2", bonetag = "Z", base = 2, nlevels = 2 },
         { name = "wizard3", bonetag = "Y", base = 3 },
         { name = "wizard4", bonetag = "X", base = 4 },
         { name = "wizard5", bonetag = "W", base = 5 },
         { name = "wizard6", bonetag = "V", base = 6 },
         { name = "wizard7", bonetag = "U", base = 7 },
         { name = "wizard8", bonetag = "T", base = 8 },
      },
   },
   {
      name = "The Elemental Planes",
      bonetag = "E",
      base = 6,
      entry = -2,
      flags = "mazelike",
      levels = {
         { name = "astral", base = 1 },
         { name = "water", base = 2 },
         { name = "fire", base = 3 },
         { name = "air", base = 4 },
         { name = "earth", base = 5 },
         { name = "dummy", base = 6 },
      },
   },
   {
      name = "The Tutorial",
      base = 2,
      flags = { "mazelike", "unconnected" },
      levels = {
         { name = "tut-1", base = 1 },
         { name = "tut-2", base = 2 },
      },
   },
}

-- options: --target nerfhack --dialect nerfhack
-- expect: W0301 27:19
-- expect: W0302 56:39
-- expect: W0304 58:41
-- expect: W0303 130:17
-- expect: W0304 176:40
