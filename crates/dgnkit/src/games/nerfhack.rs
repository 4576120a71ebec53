//! NerfHack (elunna/NerfHack `5194598f7`, 2.2.0): a NetHack 3.7 fork whose game reads `dat/dungeon.lua`
//! at start-up (no `dgn_comp`, no compiled file). Its loader takes 64 special levels (`LEV_LIMIT`, `include/dgn_file.h:72`; its file has 52) and cuts a dungeon deeper than `MAXLEVEL` to 32 after the size draw (`src/dungeon.c:1109-1110`).
//!
//! Its own C's game starts are recorded in `expected/variants/nerfhack/`
//! (README.md there: seeding, the draws before `init_dungeons()`, the
//! dungeon's draw sites, bones and xlogfile numbering, with file:line).
//! dgnkit's loader is not yet proven on them (290 object-shuffle draws, `randrole` over 15 roles, `LEV_LIMIT` 64 and the `MAXLEVEL` cut), so layouts,
//! statistics, bones verdicts and seed searches for this target are
//! refused, never answered with NetHack 3.7's rules; its `dungeon.lua` is
//! checked with NetHack 3.7's language and limits until its own are in.

use super::{Game, InputSpec, LoaderProof};
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(super) static GAME: Game = Game {
    target: Target::NerfHack,
    title: "NerfHack",
    dialect: Dialect::Vanilla,
    binary: None,
    // ISAAC-64 seeded with the seed's 8 little-endian bytes, as 3.7
    // (README "Generator and seeding").
    rng: RngKind::Isaac64,
    rules: Rules::nethack_37(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack36,
    loader: LoaderProof::NotProven,
    inputs: InputSpec::NONE,
    undefined_flags: &[],
    reads_lua: true,
};
