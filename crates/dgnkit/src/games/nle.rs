//! NLE, the NetHack Learning Environment (`pip install nle`; 1.3.0 runs
//! NetHack 3.6.7 with NetHack 3.6.7's own `dungeon.def`): NetHack 3.6's
//! loader and game start, seeded as NLE seeds it. NLE keeps two ISAAC-64
//! generators, `core` and `disp`, seeded with `init_isaac64()` from
//! `set_initial_seeds(core, disp, reseed, lgen)` (NLE `src/nlernd.c`
//! `init_random`, `src/options.c:708-709`). The display generator draws
//! only for what is shown (`rn2_on_display_rng`, `src/rnd.c:67-72`), never
//! in the game start, so `disp` does not change the dungeon. With `lgen`,
//! NLE seeds a base generator with it and each dungeon's level generator
//! with the base's successive outputs (`nle_init_lgen_rng`,
//! `src/nlernd.c:78-96`); `newgame()` swaps the core generator for
//! dungeon 0's before `init_objects()` (`src/allmain.c:609`), so the
//! objects, `role_init` and `init_dungeons()` draw from it and the
//! dungeon follows `lgen`, not `core`. The hero is chosen before that, on
//! `core` (`tty_player_selection`, `sys/unix/unixmain.c:333`).

use super::{nethack36, Game, InputSpec, LoaderInputs, LoaderProof};
use crate::loader::chargen::Unset;
use crate::loader::{GameOption, GameStart, LoadError};
use crate::options::Target;
use crate::rng::{Isaac64, Source};

/// NLE's level-generator seed.
const LGEN: GameOption = GameOption {
    name: "lgen",
    values: &["none", GameOption::NUMBER],
    doc: "NLE's level-generator seed (set_initial_seeds' lgen); with it the dungeon follows lgen, not --seed (core)",
};

pub(crate) static GAME: Game = Game {
    target: Target::Nle,
    title: "NLE (NetHack 3.6.7)",
    loader: LoaderProof::Proven(
        "nle_parity: every game start of expected/nle/ (NLE 1.3.0's own #wizwhere), line for line",
    ),
    inputs: InputSpec {
        role: Some("Monk"),
        options: &[LGEN, nethack36::NAME],
        game_start: Some(true),
        start_hook: Some(game_start),
        ..nethack36::INPUTS
    },
    // NLE writes NetHack 3.6.7's xlogfile lines: `dgn xlog` answers them
    // as NetHack 3.6's.
    xlog: None,
    path_words: &["nle"],
    ..nethack36::RECORD
};

/// NLE's default player name, whose suffix is its default hero outside
/// wizard mode (NLE `nle/nethack/nethack.py:167`, `nle/env/base.py:176`).
const DEFAULT_NAME: &str = "Agent-mon-hum-neu-mal";

/// The seed of dungeon 0's level generator for NLE's `lgen`: the first
/// output of ISAAC-64 seeded with `lgen` (`nle_init_lgen_rng`,
/// `src/nlernd.c:84-91`).
pub fn level_seed(lgen: u64) -> u64 {
    Isaac64::new(lgen).next_raw()
}

/// An NLE game start: 3.6.7's, with NLE's default hero when none is asked
/// and the level generator when `lgen` is given.
pub fn game_start(inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
    // Without `--option name=`, NLE's default player name stands for
    // NLE's default hero when no facet is asked, and a run that asks for
    // facets is `Nethack(playername="Agent")`'s, whose name says nothing
    // (expected/nle was made so): --role and the others are not undone by
    // a name the user did not give.
    let ask = match inputs.option(nethack36::NAME.name) {
        None if inputs.character.is_empty() => nethack36::asked(
            &inputs
                .clone()
                .with_option(nethack36::NAME.name, DEFAULT_NAME),
        ),
        _ => nethack36::asked(inputs),
    };
    // NLE's reset() answers the game's "Shall I pick ...?" with a space,
    // `y` (and so does a space or Enter from the caller of a bare
    // `Nethack`): the facets not named are picked after the others. In
    // wizard mode that is every facet no option names, since the name's
    // suffix is dropped.
    let start = nethack36::start_for(ask, Unset::Prompted)?;
    let lgen = match inputs.option(LGEN.name) {
        None => None,
        Some(v) if v.eq_ignore_ascii_case("none") => None,
        Some(v) => Some(v.parse::<u64>().map_err(|_| LoadError::Inputs {
            message: format!("NLE's option lgen takes a seed (an unsigned number), not `{v}`"),
        })?),
    };
    Ok(GameStart {
        level_seed: lgen.map(level_seed),
        ..start
    })
}
