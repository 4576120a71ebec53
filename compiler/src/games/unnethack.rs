//! UnNetHack: a 3.4.3 fork: ISAAC (32-bit) from a game seed, shuffled Elemental Planes, no wizard-mode skip; its loader hooks are the unnethack work (issue #16).
//! Until its loader is proven on `expected/variants/unnethack`, layouts,
//! bones and statistics for `--target unnethack` are refused.

use super::{Game, InputSpec, LoaderProof};
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(super) static GAME: Game = Game {
    target: Target::UnNetHack,
    title: "UnNetHack",
    dialect: Dialect::UnNetHack,
    binary: None,
    rng: RngKind::Isaac32,
    rules: Rules::nethack_343(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack343,
    loader: LoaderProof::NotProven,
    inputs: InputSpec::NONE,
};
