// The descriptions the Edit and Diff views start from, as dgnkit describes
// them (corpus/).
// NetHack 3.6's dungeon.def.
import SAMPLE_DEF from '../../corpus/nethack-3.6.def';
// NetHack 3.7's dungeon.lua.
import SAMPLE_LUA from '../../corpus/nethack-3.7.lua';

export { SAMPLE_DEF, SAMPLE_LUA };
