//! NetHack 3.7's forks whose game starts are recorded in
//! `expected/variants/<family>/` (README.md there: seeding, the draws before
//! `init_dungeons()`, the dungeon's draw sites, bones and xlogfile
//! numbering, with file:line) but whose loaders dgnkit does not reproduce
//! yet. Each reads `dat/dungeon.lua` at start-up (no `dgn_comp`, no
//! compiled file). Until its own record is proven, layouts, statistics,
//! bones verdicts and seed searches for it are refused, never answered with
//! NetHack 3.7's rules, and its `dungeon.lua` is checked with 3.7's
//! language and limits.

use super::{Game, InputSpec, LoaderProof};
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

/// A fork's record while its loader is not proven: 3.7's data, refused.
const fn unproven(target: Target, title: &'static str) -> Game {
    Game {
        target,
        title,
        dialect: Dialect::Vanilla,
        binary: None,
        // ISAAC-64 seeded with the seed's 8 little-endian bytes, as 3.7
        // (each README, "Generator and seeding").
        rng: RngKind::Isaac64,
        rules: Rules::nethack_37(),
        bones: BonesRules::VANILLA,
        overview: OverviewStyle::NetHack36,
        loader: LoaderProof::NotProven,
        inputs: InputSpec::NONE,
        undefined_flags: &[],
        reads_lua: true,
    }
}

/// xNetHack 9.1 (copperwater/xNetHack `3dd346ca0`, tag `xnh9.1`). Its
/// `dungeon.lua` is a program: before the `dungeon` table it swaps which
/// demon lair goes to which new Gehennom dungeon with two `percent(50)`
/// draws (`dat/dungeon.lua:7-19`), and `init_archfiends()` draws six times
/// right after the dungeon (`src/minion.c:892`). Not proven: it needs the
/// file run in a Lua sandbox, 201 object-shuffle draws and its own role
/// draws.
pub(super) static XNETHACK: Game = unproven(Target::XNetHack, "xNetHack");

/// SpliceHack 1.2.0-39 (NullCGT/SpliceHack `8d70ade6f`, on a NetHack 3.7
/// of 2021). Its dungeons take a `nofood` flag, bit 0x10
/// (`include/dgn_file.h:60`, the flag list at `src/dungeon.c:712`), which is
/// also the chaotic alignment's bit. Not proven: 249 object-shuffle draws,
/// `randrole` over 17 roles, an `init_dungeons()` older than 3.7's and the
/// `nofood` flag.
pub(super) static SPLICEHACK: Game = unproven(Target::SpliceHack, "SpliceHack");

/// NerfHack 2.2.0 (elunna/NerfHack `5194598f7`). Its loader takes 64
/// special levels (`LEV_LIMIT`, `include/dgn_file.h:72`; its file has 52).
/// Not proven: 290 object-shuffle draws, `randrole` over 15 roles and
/// `LEV_LIMIT` 64.
pub(super) static NERFHACK: Game = unproven(Target::NerfHack, "NerfHack");

/// CrecelleHack 1.5.1 (NullCGT/CrecelleHack `441dddd37`, on NetHack 5.0).
/// Its game start is not 3.7's: 229 object-shuffle draws, a fourteenth role
/// (the Grappler) in `randrole`, and a Rogue that draws a victim role
/// (`src/role.c:2141-2148`). Not proven: that game start.
pub(super) static CRECELLEHACK: Game = unproven(Target::CrecelleHack, "CrecelleHack");
