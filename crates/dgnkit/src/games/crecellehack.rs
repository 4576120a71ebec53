//! CrecelleHack (NullCGT/CrecelleHack `441dddd37`, 1.5.1 on NetHack 5.0): a NetHack 3.7 fork whose game reads `dat/dungeon.lua`
//! at start-up (no `dgn_comp`, no compiled file). Its game start is not 3.7's: 229 object-shuffle draws, a fourteenth role (the
//! Grappler) in `randrole`, and a Rogue that draws a victim role
//! (`src/role.c:2141-2148`).
//!
//! Its own C's game starts are recorded in `expected/variants/crecellehack/`
//! (README.md there: seeding, the draws before `init_dungeons()`, the
//! dungeon's draw sites, bones and xlogfile numbering, with file:line).
//! dgnkit's loader is not yet proven on them (its game start: 229 object-shuffle draws and its role draws), so layouts,
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
    target: Target::CrecelleHack,
    title: "CrecelleHack",
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
