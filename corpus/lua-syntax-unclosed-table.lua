-- A `}` left out: Lua reports the table left open only where the file
-- ends, so the error also points at the `{` that was never closed (the
-- `levels` table: the `}` on line 19 is indented as the close of the
-- dungeon's table, and closes the `levels` table instead).
-- options: --target nethack-3.7 --allow missing-hardwired-dungeon
-- expect: E1201 21:1
dungeon = {
   {
      name = "The Dungeons of Doom",
      bonetag = "D",
      base = 25,
      range = 5,
      alignment = "unaligned",
      levels = {
         { name = "oracle", bonetag = "O", base = 5, range = 5 },
         { name = "bigrm", bonetag = "B", base = 10, range = 3, chance = 40 },
         { name = "medusa", base = -5, range = 4 },

   },
}
