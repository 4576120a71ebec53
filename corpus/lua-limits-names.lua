-- NetHack 3.7 copies these names with Strcpy into fixed fields, without a
-- length check (src/dungeon.c:579 and :1062-1065): a dungeon's name into
-- 24 bytes, a level's name, protofile, lvlfill and themerooms into 15
-- (include/dungeon.h:28, :62-65). A branch keeps its name as Lua gave it.
-- options: --target nethack-3.7 --allow missing-hardwired-dungeon
-- expect: E0304 13:14
-- expect: E0304 16:19
-- expect: E0304 17:17
-- expect: E0304 18:20
-- expect: E0304 20:19
dungeon = {
   {
      name = "The Dungeons of Doom, again",
      bonetag = "D",
      base = 25,
      protofile = "dungeonprototype",
      lvlfill = "dungeonfill-long",
      themerooms = "themerooms-long.lua",
      levels = {
         { name = "a-very-long-oracle", bonetag = "O", base = 5, range = 5 },
         { name = "fourteen-chars", bonetag = "F", base = 10 },
      },
   },
}
