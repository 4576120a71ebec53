//! SLASH'EM: 3.4.3 with branch entry levels, level 1 never holds bones, larger tables; its loader hooks are the slashem work (issue #16).
//! Until its loader is proven on `expected/variants/slashem`, layouts,
//! bones and statistics for `--target slashem` are refused.

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(super) static GAME: Game = Game {
    target: Target::SlashEm,
    title: "SLASH'EM",
    dialect: Dialect::Slashem,
    binary: Some(BinaryFormat::SlashEm),
    rng: RngKind::Glibc,
    rules: Rules::nethack_343(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack343,
    loader: LoaderProof::NotProven,
    inputs: InputSpec::NONE,
    // REINCARNATION is off in SLASH'EM's default build (configure
    // `--enable-reincarnation` defaults to no; `include/config.h:385`).
    undefined_flags: &["REINCARNATION"],
};
