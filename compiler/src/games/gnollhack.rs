//! GnollHack: a 3.6 fork with display names and TILESET:, 56-byte header and wider records; ISAAC-64.
//! Until its loader is proven on `expected/variants/gnollhack`, layouts,
//! bones and statistics for `--target gnollhack` are refused.

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(super) static GAME: Game = Game {
    target: Target::GnollHack,
    title: "GnollHack",
    dialect: Dialect::GnollHack,
    binary: Some(BinaryFormat::GnollHack),
    rng: RngKind::Isaac64,
    rules: Rules::nethack_36(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack36,
    loader: LoaderProof::NotProven,
    inputs: InputSpec::NONE,
    undefined_flags: &[],
};
