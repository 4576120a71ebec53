//! dNetHack: 3.4.3 with alternate dungeons, the chaos_quest option and quest-locate draws; its loader hooks are the dnethack work (issue #16).
//! Until its loader is proven on `expected/variants/dnethack`, layouts,
//! bones and statistics for `--target dnethack` are refused.

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(super) static GAME: Game = Game {
    target: Target::DNetHack,
    title: "dNetHack",
    dialect: Dialect::Dnao,
    binary: Some(BinaryFormat::DNetHack),
    rng: RngKind::Glibc,
    rules: Rules::nethack_343(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack343,
    loader: LoaderProof::NotProven,
    inputs: InputSpec::NONE,
    undefined_flags: &[],
};
