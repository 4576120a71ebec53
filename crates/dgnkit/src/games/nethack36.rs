//! NetHack 3.6 (3.6.2 and later): ISAAC-64, a 40-byte version header, an
//! ENTRY beyond the bottom lowered to it, `#wizwhere`'s overview.

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(crate) static GAME: Game = Game {
    target: Target::NetHack36,
    title: "NetHack 3.6",
    dialect: Dialect::Vanilla,
    binary: Some(BinaryFormat::NetHack36),
    rng: RngKind::Isaac64,
    rules: Rules::nethack_36(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack36,
    loader: LoaderProof::Proven(
        "layout_parity: every file of expected/layouts/*.36.isaac64*, draw for draw",
    ),
    inputs: InputSpec::NONE,
    undefined_flags: &[],
    reads_lua: false,
    xlog: Some(&crate::xlog::nethack::NETHACK),
    path_words: &[],
};
