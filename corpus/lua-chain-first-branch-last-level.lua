-- A dungeon's first branch chained to the last level read before it:
-- NetHack 3.7's search for the chain level stops one level short there
-- and the game panics "Could not chain branch".
-- options: --allow missing-hardwired-dungeon
-- expect: E0506 16:43
dungeon = {
   {
      name = "The Dungeons of Doom",
      bonetag = "D",
      base = 25,
      range = 5,
      levels = {
         { name = "oracle", bonetag = "O", base = 5, range = 5 },
      },
      branches = {
         { name = "Sokoban", chainlevel = "oracle", base = 1, direction = "up" },
      },
   },
   {
      name = "Sokoban",
      base = 4,
   },
}
