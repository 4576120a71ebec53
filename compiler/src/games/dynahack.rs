//! DynaHack: a NitroHack (3.4.3) fork: MT19937 (Cokus) seeding, shuffled Elemental Planes, a 12-byte header; its loader hooks are the dynahack work (issue #16).
//! Until its loader is proven on `expected/variants/dynahack`, layouts,
//! bones and statistics for `--target dynahack` are refused.

use super::{Game, InputSpec, LoaderProof};
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(super) static GAME: Game = Game {
    target: Target::DynaHack,
    title: "DynaHack",
    dialect: Dialect::Vanilla,
    binary: None,
    rng: RngKind::Mt19937Cokus,
    rules: Rules::nethack_343(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack343,
    loader: LoaderProof::NotProven,
    inputs: InputSpec::NONE,
};
