//! xNetHack (copperwater/xNetHack `3dd346ca0`, tag `xnh9.1`): a NetHack 3.7 fork whose game reads `dat/dungeon.lua`
//! at start-up (no `dgn_comp`, no compiled file). Its `dungeon.lua` is a program: before the `dungeon` table it swaps which demon lair goes to which new Gehennom dungeon with two `percent(50)` draws (`dat/dungeon.lua:7-19`), and `init_archfiends()` draws six times right after the dungeon (`src/minion.c:892`).
//!
//! Its own C's game starts are recorded in `expected/variants/xnethack/`
//! (README.md there: seeding, the draws before `init_dungeons()`, the
//! dungeon's draw sites, bones and xlogfile numbering, with file:line).
//! dgnkit's loader is not yet proven on them (it needs the file run in a Lua sandbox, 201 object-shuffle draws and its own role draws), so layouts,
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
    target: Target::XNetHack,
    title: "xNetHack",
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
