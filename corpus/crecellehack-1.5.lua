-- dgnkit's description of the dungeon of CrecelleHack 1.5.1 (commit 441dddd37,
-- whose game starts are recorded in expected/variants).
--
-- `dgn layout --target` of this game resolves this file when given none,
-- and `dgn xlog` answers the release's lines with it. It states the facts
-- of the game's own dungeon.lua: the same dungeons, special levels, ranges,
-- chances, branches and flags, in the same order (the loader draws
-- dungeon by dungeon, and inside a dungeon level by level).
-- CrecelleHack adds The Maze (unconnected, like the Tutorial) and the
-- Temple of Moloch, which its game looks up by name.
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
         { name = "bigrm", bonetag = "B", base = 10, range = 3, nlevels = 13, chance = 40 },
         { name = "medusa", base = -5, range = 4, nlevels = 4, alignment = "chaotic" },
         { name = "castle", base = -1 },
      },
      branches = {
         { name = "The Gnomish Mines", base = 2, range = 3 },
         { name = "Sokoban", chainlevel = "oracle", base = 1, direction = "up" },
         { name = "Temple of Moloch", base = 5, range = 20 },
         { name = "The Quest", chainlevel = "oracle", base = 6, range = 2, branchtype = "portal" },
         { name = "Fort Ludios", base = 18, range = 4, branchtype = "portal" },
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
      lvlfill = "hellfill",
      levels = {
         { name = "valley", bonetag = "V", base = 1 },
         { name = "sanctum", base = -1 },
         { name = "juiblex", bonetag = "J", base = 4, range = 4 },
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
         { name = "soko1", base = 1, nlevels = 2 },
         { name = "soko2", base = 2, nlevels = 2 },
         { name = "soko3", base = 3, nlevels = 2 },
         { name = "soko4", base = 4, nlevels = 2 },
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
   {
      name = "The Maze",
      bonetag = "M",
      base = 2,
      flags = { "mazelike", "unconnected" },
      levels = {
         { name = "maze-1", bonetag = "M", base = 1 },
         { name = "maze-2", bonetag = "M", base = 2 },
      },
   },
   {
      name = "Temple of Moloch",
      bonetag = "Z",
      base = 1,
      flags = "mazelike",
      levels = {
         { name = "mtemple", bonetag = "Z", base = 1 },
      },
   },
}

-- options: --target crecellehack
-- expect: W0303 152:17
-- expect: W0303 157:39
-- expect: W0304 157:39
-- expect: W0304 166:40
