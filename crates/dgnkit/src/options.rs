//! Options shared by every command: target, dialect, `%FLAG` defines, lints.
//!
//! A [`Target`] names a game (NetHack 3.4.3, 3.6, 3.7, 5.0, a variant
//! family, or dgnkit's own native format); everything that differs between
//! games lives in its [`Game`](crate::games::Game) record (`Target::game`).

use crate::games::{self, Game};
use serde::Serialize;

/// Makes [`Target`] from one row per game: the variant, its `--target`
/// name (also its serde name) and its record. `ALL`, `name()` and `game()`
/// follow from the rows, in their order, so a game is added by one row
/// here and its record in `games/`.
macro_rules! targets {
    ($($(#[$attr:meta])* $variant:ident = $name:literal => $game:expr,)*) => {
        /// The game the output (and the limits checked, the loader, the
        /// bones rules) are for.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
        pub enum Target {
            $($(#[$attr])* #[serde(rename = $name)] $variant,)*
        }

        impl Target {
            pub const ALL: [Target; [$($name),*].len()] = [$(Target::$variant),*];

            /// The `--target` value.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Target::$variant => $name,)*
                }
            }

            /// Everything dgnkit knows about the target's game.
            pub fn game(self) -> &'static Game {
                match self {
                    $(Target::$variant => &$game,)*
                }
            }
        }
    };
}

targets! {
    NetHack343 = "nethack-3.4.3" => games::nethack343::GAME,
    #[default]
    NetHack36 = "nethack-3.6" => games::nethack36::GAME,
    NetHack37 = "nethack-3.7" => games::nethack37::GAME,
    NetHack50 = "nethack-5.0" => games::nethack50::GAME,
    Nle = "nle" => games::nle::GAME,
    Native = "native" => games::native::GAME,
    EvilHack = "evilhack" => games::evilhack::GAME,
    UnNetHack = "unnethack" => games::unnethack::GAME,
    SlashEm = "slashem" => games::slashem::GAME,
    DNetHack = "dnethack" => games::dnethack::GAME,
    GnollHack = "gnollhack" => games::gnollhack::GAME,
    DynaHack = "dynahack" => games::dynahack::GAME,
    XNetHack = "xnethack" => games::forks37::XNETHACK,
    SpliceHack = "splicehack" => games::forks37::SPLICEHACK,
    NerfHack = "nerfhack" => games::forks37::NERFHACK,
    CrecelleHack = "crecellehack" => games::forks37::CRECELLEHACK,
}

impl Target {
    pub fn parse(s: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == s)
    }

    /// Every `--target` value, comma-separated (for messages).
    pub fn names() -> String {
        Target::ALL.map(Target::name).join(", ")
    }

    /// A game with fixed tables (everything but dgnkit's native format).
    pub fn is_nethack(self) -> bool {
        !matches!(self, Target::Native)
    }

    /// The game whose compiled file has `format`'s layout.
    pub fn of_format(format: crate::binary::BinaryFormat) -> Target {
        Target::ALL
            .into_iter()
            .find(|t| t.game().binary == Some(format))
            .unwrap_or(Target::Native)
    }
}
