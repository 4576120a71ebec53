//! dgnkit's own target: 3.6's loader without the game's fixed tables,
//! byte-sized fields or hard-wired dungeon names, and the native format.

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(crate) static GAME: Game = Game {
    target: Target::Native,
    title: "dgnkit native",
    dialect: Dialect::Vanilla,
    binary: Some(BinaryFormat::Native),
    rng: RngKind::Isaac64,
    rules: Rules::native(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack36,
    loader: LoaderProof::Proven(
        "dgnkit's own definition: NetHack 3.6's loader without its tables (loader tests)",
    ),
    inputs: InputSpec::NONE,
    undefined_flags: &[],
    reads_lua: false,
    xlog: None,
    path_words: &[],
    rng_log: None,
};
