//! NetHack 3.7: the dungeon comes from `dungeon.lua`, read by the game
//! itself (no compiled file). Its loader hooks, start-up draws and role
//! input are the `nethack-3.7` work (issue #15); until they are proven on
//! `expected/nethack37`, layouts for this target are refused.

use super::{Game, InputSpec, LoaderProof};
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Rules;
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(super) static GAME: Game = Game {
    target: Target::NetHack37,
    title: "NetHack 3.7",
    dialect: Dialect::Vanilla,
    binary: None,
    rng: RngKind::Isaac64,
    rules: Rules::nethack_36(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack36,
    loader: LoaderProof::NotProven,
    inputs: InputSpec::NONE,
};
