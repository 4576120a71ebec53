//! Options shared by every command: target, dialect, `%FLAG` defines, lints.

use serde::Serialize;

/// What the output (and the limits checked) are for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum Target {
    #[serde(rename = "nethack-3.4.3")]
    NetHack343,
    #[default]
    #[serde(rename = "nethack-3.6")]
    NetHack36,
    #[serde(rename = "native")]
    Native,
}

impl Target {
    pub const ALL: [Target; 3] = [Target::NetHack343, Target::NetHack36, Target::Native];

    pub fn name(self) -> &'static str {
        match self {
            Target::NetHack343 => "nethack-3.4.3",
            Target::NetHack36 => "nethack-3.6",
            Target::Native => "native",
        }
    }

    pub fn parse(s: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == s)
    }

    pub fn is_nethack(self) -> bool {
        !matches!(self, Target::Native)
    }
}
