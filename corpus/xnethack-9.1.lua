-- dgnkit's description of the dungeon of xNetHack 9.1 (commit 3dd346ca0,
-- whose game starts are recorded in expected/variants).
--
-- `dgn layout --target` of this game resolves this file when given none,
-- and `dgn xlog` answers the release's lines with it. It states the facts
-- of the game's own dungeon.lua: the same dungeons, special levels, ranges,
-- chances, branches and flags, in the same order (the loader draws
-- dungeon by dungeon, and inside a dungeon level by level).
-- xNetHack's file is a program: it draws before the table (below).
-- Its game takes 32 dungeons and has no rogue level.
--
-- Reading a range: `base` is a level number (negative: counted from the
-- bottom); `range` is how many levels from there it may take. With
-- `chainlevel`, the base counts from wherever that level was placed.
-- `nlevels` is the number of variants of a level's file; `bonetag` its
-- bones file marker (absent: no bones there).

-- Two pairs of demon lairs trade places, each pair in half of all games:
-- the game runs this file, and each `percent(50)` is one rn2(100) on its
-- generator, right after nhlib.lua's two draws and before the loader's.
local lawful = { { name = "baalz", bonetag = "B" }, { name = "geryon", bonetag = "G" } }
if percent(50) then
   lawful[1], lawful[2] = lawful[2], lawful[1]
end
local chaotic = { { name = "orcus", bonetag = "O" }, { name = "yeenoghu", bonetag = "Y" } }
if percent(50) then
   chaotic[1], chaotic[2] = chaotic[2], chaotic[1]
end

dungeon = {
   {
      name = "The Dungeons of Doom",
      bonetag = "D",
      base = 25,
      range = 5,
      themerooms = "themerms.lua",
      levels = {
         { name = "oracle", bonetag = "O", base = 5, range = 5, nlevels = 3, alignment = "neutral" },
         { name = "bigrm", bonetag = "B", base = 13, range = 3, nlevels = 15, chance = 40 },
         { name = "medusa", base = -5, range = 4, nlevels = 4, alignment = "chaotic" },
         { name = "castle", base = -1 },
      },
      branches = {
         { name = "The Gnomish Mines", base = 2, range = 3 },
         { name = "Sokoban", chainlevel = "oracle", base = 1, direction = "up" },
         { name = "The Quest", chainlevel = "oracle", base = 6, range = 2, branchtype = "portal" },
         { name = "Fort Ludios", base = 18, range = 4, branchtype = "portal" },
         { name = "Gehennom", chainlevel = "castle", base = 0, branchtype = "no_down" },
         { name = "The Elemental Planes", base = 1, branchtype = "no_down", direction = "up" },
      },
   },
   {
      name = "Gehennom",
      bonetag = "G",
      base = 10,
      flags = { "hellish", "mazelike" },
      lvlfill = "hellfill",
      levels = {
         { name = "valley", bonetag = "V", base = 1 },
         { name = "hellgate", bonetag = "G", base = 2 },
         { name = "styxmarsh", bonetag = "S", base = 5 },
         { name = "dis", bonetag = "D", base = 6 },
         { name = "invocation", base = -2 },
         { name = "sanctum", base = -1 },
      },
      branches = {
         { name = "Vlad's Tower", base = 2, direction = "up" },
         { name = "Cocytus", base = 3 },
         { name = "Asphodel", base = 4 },
         { name = "Shedaklah", base = 5 },
         { name = "The Citadel of Dis", base = 6, direction = "up" },
         { name = "The Abyss", base = 7 },
         { name = "The Wizard's Tower", base = 8, direction = "up" },
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
         { name = "minetn", bonetag = "T", base = 3, range = 2, nlevels = 8, flags = "town" },
         { name = "minend", base = -1, nlevels = 4 },
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
      bonetag = "V",
      base = 4,
      entry = -1,
      protofile = "tower",
      alignment = "chaotic",
      flags = "mazelike",
      levels = {
         { name = "tower1", base = 1 },
         { name = "tower2", base = 2 },
         { name = "tower3", base = 3 },
         { name = "tower4", base = 4 },
      },
   },
   {
      name = "Cocytus",
      bonetag = "C",
      base = 3,
      entry = 1,
      alignment = "lawful",
      flags = { "hellish", "mazelike" },
      lvlfill = "cocytusfill",
      levels = {
         { name = lawful[1].name, bonetag = lawful[1].bonetag, base = 2 },
         { name = "asmodeus", bonetag = "A", base = 3 },
      },
   },
   {
      name = "Asphodel",
      bonetag = "P",
      base = 1,
      alignment = "lawful",
      flags = { "hellish", "mazelike" },
      levels = {
         { name = lawful[2].name, bonetag = lawful[2].bonetag, base = 1 },
      },
   },
   {
      name = "Shedaklah",
      bonetag = "S",
      base = 2,
      alignment = "chaotic",
      flags = { "hellish", "mazelike" },
      levels = {
         { name = "juiblex", bonetag = "J", base = 1 },
         { name = chaotic[1].name, bonetag = chaotic[1].bonetag, base = 2 },
      },
   },
   {
      name = "The Citadel of Dis",
      bonetag = "I",
      base = 1,
      flags = { "hellish", "mazelike" },
      levels = {
         { name = "dispater", bonetag = "D", base = 1 },
      },
   },
   {
      name = "The Abyss",
      bonetag = "A",
      base = 3,
      alignment = "chaotic",
      flags = { "hellish", "mazelike" },
      lvlfill = "abyssfill",
      levels = {
         { name = chaotic[2].name, bonetag = chaotic[2].bonetag, base = 3 },
      },
      branches = {
         { name = "Tartarus", base = 2 },
      },
   },
   {
      name = "Tartarus",
      bonetag = "T",
      base = 1,
      alignment = "chaotic",
      flags = { "hellish", "mazelike" },
      levels = {
         { name = "demogorgon", bonetag = "D", base = 1 },
      },
   },
   {
      name = "The Wizard's Tower",
      bonetag = "W",
      base = 3,
      entry = -1,
      flags = { "hellish", "mazelike" },
      levels = {
         { name = "wizard1", base = 1 },
         { name = "wizard2", bonetag = "X", base = 2 },
         { name = "wizard3", bonetag = "Y", base = 3 },
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

-- options: --target xnethack --dialect xnethack
-- expect: W0304 60:41
-- expect: W0304 61:42
-- expect: W0304 62:36
-- expect: W0304 147:41
-- expect: W0304 157:45
-- expect: W0304 168:46
-- expect: W0304 177:41
-- expect: W0304 188:46
-- expect: W0304 201:43
-- expect: W0304 213:40
