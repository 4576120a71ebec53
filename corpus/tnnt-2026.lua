-- dgnkit's description of the dungeon of TNNT 2026 (The November NetHack
-- Tournament), whose games write version 5.0.0.
--
-- `dgn xlog` uses it for TNNT lines of version 5.0.0. It states the
-- tournament's dat/dungeon.lua since its merge of the NetHack 5.0.0 release
-- (git blob 39dc55dcb; tnnt-devteam/tnnt at ad6e950f5, 2026-06-11, and
-- still at 792cae67c). NetHack 5.0.0's own dungeon.lua is nethack-3.7.lua's
-- in all but a comment; TNNT adds three branches to the main dungeon and
-- lists their three dungeons last, after The Tutorial, so every dungeon
-- of NetHack's keeps its number (the Planes stay 7). The order is a fact:
-- the loader draws dungeon by dungeon, and inside a dungeon level by level
-- (a dungeon's levels are read before its branches, wherever they stand in
-- its table), then branch by branch in the order of `branches`.
--
-- Reading a range: `base` is a level number (negative: counted from the
-- bottom, -1 being the bottom level); `range` is how many levels from
-- there it may take (0 or absent: exactly `base`). With `chainlevel`, the
-- base counts from wherever that level was placed. A dungeon without
-- `chance` still rolls for it (100: always there); `nlevels` is the number
-- of variants of a level's file; `bonetag` is its bones file marker
-- (absent: no bones there).
--
-- The office's stairs make the Rogue level a branch level, and a branch
-- level below level 1 never holds bones, so its bonetag "R" goes unused.

dungeon = {
   -- The main dungeon, 25 to 29 levels.
   {
      name = "The Dungeons of Doom", bonetag = "D", base = 25, range = 5,
      alignment = "unaligned", themerooms = "themerms.lua",
      levels = {
         { name = "rogue", bonetag = "R", base = 15, range = 4, flags = "roguelike" },
         { name = "oracle", bonetag = "O", base = 5, range = 5, alignment = "neutral" },
         -- One of thirteen big rooms, in 40% of games.
         { name = "bigrm", bonetag = "B", base = 10, range = 3, chance = 40, nlevels = 13 },
         -- Four levels, one to four above the castle.
         { name = "medusa", base = -5, range = 4, nlevels = 4, alignment = "chaotic" },
         { name = "castle", base = -1 },
      },
      branches = {
         { name = "The Gnomish Mines", base = 2, range = 3 },
         -- Up the stairs of the level below the Oracle.
         { name = "Sokoban", chainlevel = "oracle", base = 1, direction = "up" },
         -- The kitten's portal, two levels above the Oracle.
         { name = "robotfindskitten", chainlevel = "oracle", base = -2, range = 1,
            branchtype = "portal" },
         { name = "The Quest", chainlevel = "oracle", base = 6, range = 2, branchtype = "portal" },
         -- The tournament's office, up the stairs placed on the Rogue level.
         { name = "DevTeam Office", chainlevel = "rogue", base = 0, direction = "up" },
         { name = "Fort Ludios", base = 18, range = 4, branchtype = "portal" },
         -- The arena's portal is on the level above Medusa's.
         { name = "Deathmatch Arena", chainlevel = "medusa", base = -1, branchtype = "portal" },
         -- The castle's trap doors lead down into Gehennom.
         { name = "Gehennom", chainlevel = "castle", base = 0, branchtype = "no_down" },
         { name = "The Elemental Planes", base = 1, branchtype = "no_down", direction = "up" },
      },
   },
   -- Below the castle, 20 to 24 levels.
   {
      name = "Gehennom", bonetag = "G", base = 20, range = 5,
      flags = { "mazelike", "hellish" }, lvlfill = "hellfill", alignment = "noalign",
      levels = {
         { name = "valley", bonetag = "V", base = 1 },
         { name = "sanctum", base = -1 },
         { name = "juiblex", bonetag = "J", base = 4, range = 4 },
         { name = "baalz", bonetag = "B", base = 6, range = 4 },
         { name = "asmodeus", bonetag = "A", base = 2, range = 6 },
         -- The Wizard's tower fills three levels in a row.
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
      name = "The Gnomish Mines", bonetag = "M", base = 8, range = 2,
      alignment = "lawful", flags = { "mazelike" }, lvlfill = "minefill",
      levels = {
         { name = "minetn", bonetag = "T", base = 3, range = 2, nlevels = 7, flags = "town" },
         -- No bonetag since 3.7.0: no bones at the Mines' End.
         { name = "minend", base = -1, nlevels = 3 },
      },
   },
   -- Levels renamed with the role's code by the game (Val-strt, ...).
   {
      name = "The Quest", bonetag = "Q", base = 5, range = 2,
      levels = {
         { name = "x-strt", base = 1, range = 1 },
         { name = "x-loca", bonetag = "L", base = 3, range = 1 },
         { name = "x-goal", base = -1 },
      },
   },
   -- Entered from below; no bones anywhere in it.
   {
      name = "Sokoban", base = 4, alignment = "neutral", flags = { "mazelike" }, entry = -1,
      levels = {
         { name = "soko1", base = 1, nlevels = 2 },
         { name = "soko2", base = 2, nlevels = 2 },
         { name = "soko3", base = 3, nlevels = 2 },
         { name = "soko4", base = 4, nlevels = 2 },
      },
   },
   {
      name = "Fort Ludios", base = 1, bonetag = "K", flags = { "mazelike" },
      alignment = "unaligned",
      levels = {
         { name = "knox", bonetag = "K", base = -1 },
      },
   },
   {
      name = "Vlad's Tower", base = 3, bonetag = "T", protofile = "tower",
      alignment = "chaotic", flags = { "mazelike" }, entry = -1,
      levels = {
         { name = "tower1", base = 1 },
         { name = "tower2", base = 2 },
         { name = "tower3", base = 3 },
      },
   },
   -- The endgame; `dummy` lifts it so that the Plane of Earth is depth -1.
   {
      name = "The Elemental Planes", bonetag = "E", base = 6, alignment = "unaligned",
      flags = { "mazelike" }, entry = -2,
      levels = {
         { name = "astral", base = 1 },
         { name = "water", base = 2 },
         { name = "fire", base = 3 },
         { name = "air", base = 4 },
         { name = "earth", base = 5 },
         { name = "dummy", base = 6 },
      },
   },
   -- Reached by no branch: the game puts a new hero there when asked.
   {
      name = "The Tutorial", base = 2, flags = { "mazelike", "unconnected" },
      levels = {
         { name = "tut-1", base = 1 },
         { name = "tut-2", base = 2 },
      },
   },
   -- The tournament's three one-level dungeons come after every dungeon of
   -- NetHack's own, so those keep their numbers. None has a bonetag: a
   -- dungeon's only level is its bottom one, which never holds bones.
   {
      name = "DevTeam Office", base = 1, alignment = "unaligned", flags = { "mazelike" },
      levels = {
         { name = "devteam", base = -1 },
      },
   },
   {
      name = "Deathmatch Arena", base = 1, alignment = "unaligned", flags = { "mazelike" },
      levels = {
         { name = "npcdeath", base = -1 },
      },
   },
   {
      name = "robotfindskitten", base = 1, alignment = "unaligned", flags = { "mazelike" },
      levels = {
         { name = "robotfindskitn", base = -1 },
      },
   },
}

-- options: --target nethack-3.7
-- expect: none
