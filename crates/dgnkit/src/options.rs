//! Options shared by every command: target, dialect, `%FLAG` defines, lints.
//!
//! A [`Target`] names a game (NetHack 3.4.3, 3.6, 3.7, a variant family, or
//! dgnkit's own native format); everything that differs between games lives
//! in its [`Game`](crate::games::Game) record (`Target::game`).

use serde::Serialize;

/// The game the output (and the limits checked, the loader, the bones
/// rules) are for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum Target {
    #[serde(rename = "nethack-3.4.3")]
    NetHack343,
    #[default]
    #[serde(rename = "nethack-3.6")]
    NetHack36,
    #[serde(rename = "nethack-3.7")]
    NetHack37,
    #[serde(rename = "native")]
    Native,
    #[serde(rename = "evilhack")]
    EvilHack,
    #[serde(rename = "unnethack")]
    UnNetHack,
    #[serde(rename = "slashem")]
    SlashEm,
    #[serde(rename = "dnethack")]
    DNetHack,
    #[serde(rename = "gnollhack")]
    GnollHack,
    #[serde(rename = "dynahack")]
    DynaHack,
    #[serde(rename = "xnethack")]
    XNetHack,
    #[serde(rename = "splicehack")]
    SpliceHack,
    #[serde(rename = "nerfhack")]
    NerfHack,
    #[serde(rename = "crecellehack")]
    CrecelleHack,
}

impl Target {
    pub const ALL: [Target; 14] = [
        Target::NetHack343,
        Target::NetHack36,
        Target::NetHack37,
        Target::Native,
        Target::EvilHack,
        Target::UnNetHack,
        Target::SlashEm,
        Target::DNetHack,
        Target::GnollHack,
        Target::DynaHack,
        Target::XNetHack,
        Target::SpliceHack,
        Target::NerfHack,
        Target::CrecelleHack,
    ];

    /// The `--target` value.
    pub fn name(self) -> &'static str {
        match self {
            Target::NetHack343 => "nethack-3.4.3",
            Target::NetHack36 => "nethack-3.6",
            Target::NetHack37 => "nethack-3.7",
            Target::Native => "native",
            Target::EvilHack => "evilhack",
            Target::UnNetHack => "unnethack",
            Target::SlashEm => "slashem",
            Target::DNetHack => "dnethack",
            Target::GnollHack => "gnollhack",
            Target::DynaHack => "dynahack",
            Target::XNetHack => "xnethack",
            Target::SpliceHack => "splicehack",
            Target::NerfHack => "nerfhack",
            Target::CrecelleHack => "crecellehack",
        }
    }

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

    /// Everything dgnkit knows about the target's game.
    pub fn game(self) -> &'static crate::games::Game {
        crate::games::game(self)
    }

    /// The game whose compiled file has `format`'s layout.
    pub fn of_format(format: crate::binary::BinaryFormat) -> Target {
        Target::ALL
            .into_iter()
            .find(|t| t.game().binary == Some(format))
            .unwrap_or(Target::Native)
    }
}
