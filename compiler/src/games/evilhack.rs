//! EvilHack: a 3.6 fork with extra dungeon descriptors (iceq, vecnad, gtown, purg, hdgn); ISAAC-64.
//! Until its loader is proven on `expected/variants/evilhack`, layouts,
//! bones and statistics for `--target evilhack` are refused.

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(super) static GAME: Game = Game {
    target: Target::EvilHack,
    title: "EvilHack",
    dialect: Dialect::EvilHack,
    binary: Some(BinaryFormat::EvilHack),
    rng: RngKind::Isaac64,
    rules: Rules::nethack_36(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack36,
    loader: LoaderProof::NotProven,
    inputs: InputSpec::NONE,
    undefined_flags: &[],
};
