//! SpliceHack (NullCGT/SpliceHack `8d70ade6f`, version 1.2.0-39, on a NetHack 3.7 of 2021): a NetHack 3.7 fork whose game reads `dat/dungeon.lua`
//! at start-up (no `dgn_comp`, no compiled file). Its dungeons take a `nofood` flag, bit 0x10 (`include/dgn_file.h:60`, the flag list at `src/dungeon.c:712`), which is also the chaotic alignment's bit.
//!
//! Its own C's game starts are recorded in `expected/variants/splicehack/`
//! (README.md there: seeding, the draws before `init_dungeons()`, the
//! dungeon's draw sites, bones and xlogfile numbering, with file:line).
//! dgnkit's loader is not yet proven on them (249 object-shuffle draws, `randrole` over 17 roles, an `init_dungeons()` older than 3.7's, and the `nofood` flag), so layouts,
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
    target: Target::SpliceHack,
    title: "SpliceHack",
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
