//! NetHack 3.4.3: glibc `random()`, a 32-byte version header, three blanks
//! in `^O`'s overview; its `init_dungeons()` is 3.6's draw for draw
//! ([`Rules::nethack_343`]).

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(crate) static GAME: Game = Game {
    target: Target::NetHack343,
    title: "NetHack 3.4.3",
    dialect: Dialect::Vanilla,
    binary: Some(BinaryFormat::NetHack343),
    rng: RngKind::Glibc,
    rules: Rules::nethack_343(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack343,
    loader: LoaderProof::Proven(
        "layout_parity: every file of expected/layouts/*.343.glibc*, draw for draw",
    ),
    inputs: InputSpec::NONE,
    undefined_flags: &[],
    reads_lua: false,
    xlog: Some(&crate::xlog::nethack::NETHACK),
    path_words: &[],
    rng_log: None,
};
