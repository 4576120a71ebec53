//! The lowered dungeon script: what the checks hand to the binary writers and
//! what the binary readers hand to the loader and the decompiler. It holds
//! exactly the information of NetHack's `tmpdungeon`/`tmplevel`/`tmpbranch`
//! records (plus the dialect extensions), without any layout's fixed limits.

#![deny(clippy::unwrap_used)]

pub mod layout;
pub mod prelude;

pub use prelude::{Prelude, PreludeArm, PreludeNode};

use serde::{Deserialize, Serialize};

/// Dungeon and level flag bits, in NetHack's own encoding (dgn_file.h):
/// descriptors in the low bits, the alignment mask shifted left by 4.
pub mod flags {
    pub const TOWN: u32 = 1;
    pub const HELLISH: u32 = 2;
    pub const MAZELIKE: u32 = 4;
    pub const ROGUELIKE: u32 = 8;
    /// Alignment mask values (shift by [`ALIGN_SHIFT`]).
    pub const ALIGN_CHAOTIC: u32 = 1;
    pub const ALIGN_NEUTRAL: u32 = 2;
    pub const ALIGN_LAWFUL: u32 = 4;
    pub const ALIGN_SHIFT: u32 = 4;
    pub const ALIGN_MASK: u32 = 0x70;
    /// Variant descriptors (EvilHack/HackEM words), kept above the vanilla
    /// bits in our canonical encoding; the dialect writers move them.
    pub const EXT_ICEQ: u32 = 1 << 8;
    pub const EXT_VECNAD: u32 = 1 << 9;
    pub const EXT_GTOWN: u32 = 1 << 10;
    pub const EXT_PURG: u32 = 1 << 11;
    pub const EXT_HDGN: u32 = 1 << 12;
}

/// A `(base, rand)` couple as written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Range {
    pub base: i32,
    pub rand: i32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BranchType {
    #[default]
    Stair,
    NoUp,
    NoDown,
    Portal,
}

impl BranchType {
    /// The value stored in `tmpbranch.type`.
    pub fn code(self) -> i32 {
        match self {
            BranchType::Stair => 0,
            BranchType::NoUp => 1,
            BranchType::NoDown => 2,
            BranchType::Portal => 3,
        }
    }

    pub fn from_code(code: i32) -> Option<Self> {
        Some(match code {
            0 => BranchType::Stair,
            1 => BranchType::NoUp,
            2 => BranchType::NoDown,
            3 => BranchType::Portal,
            _ => return None,
        })
    }

    pub fn keyword(self) -> &'static str {
        match self {
            BranchType::Stair => "stair",
            BranchType::NoUp => "no_up",
            BranchType::NoDown => "no_down",
            BranchType::Portal => "portal",
        }
    }
}

/// A whole compiled file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Script {
    pub dungeons: Vec<Dungeon>,
    /// A `dungeon.lua` that draws before it sets `dungeon`: its outcomes
    /// and their scripts (this script is the first outcome's). Never
    /// written to a compiled file: no game reads one.
    #[serde(skip)]
    pub prelude: Option<std::sync::Arc<Prelude>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dungeon {
    pub name: Vec<u8>,
    /// PROTOFILE, empty when none.
    pub proto: Vec<u8>,
    /// Bones marker byte; 0 for `"none"`.
    pub bones: u8,
    pub size: Range,
    /// See [`flags`].
    pub flags: u32,
    /// Percent chance that the dungeon exists; 0 = not given (always).
    pub chance: i32,
    /// ENTRY value; 0 = default (top).
    pub entry: i32,
    pub levels: Vec<Level>,
    pub branches: Vec<Branch>,
    /// GnollHack's TILESET value, when given.
    pub tileset: Option<i32>,
    /// NetHack 3.7's fields (from `dungeon.lua`); empty for every `.def`
    /// file, and then nothing about them is written anywhere.
    #[serde(skip)]
    pub lua: LuaFields,
}

/// What NetHack 3.7's `dungeon.lua` gives a dungeon beyond `.def`'s
/// fields (dungeon.c `init_dungeon_dungeons`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LuaFields {
    /// `themerooms`: the Lua file of theme rooms for its levels.
    pub themerooms: Option<Vec<u8>>,
    /// `lvlfill`: the level file that fills its ordinary levels.
    pub lvlfill: Option<Vec<u8>>,
    /// The `unconnected` flag: no branch leads to the dungeon (the
    /// Tutorial) and its depth starts at 1 (dungeon.c:1095).
    pub unconnected: bool,
    /// SpliceHack's `nofood` flag (bit 0x10 where 3.7 has `unconnected`,
    /// include/dgn_file.h:60): the dungeon's levels without an alignment of
    /// their own read it as chaotic (src/dungeon.c:559-562). Encoded apart
    /// (dgnkit's format 1.2 appends it), so format 1.1 stays as it was.
    #[serde(skip)]
    pub nofood: bool,
}

impl LuaFields {
    pub fn is_empty(&self) -> bool {
        *self == LuaFields::default()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Level {
    pub name: Vec<u8>,
    /// GnollHack's display name, when given.
    pub display: Option<Vec<u8>>,
    pub bones: u8,
    pub range: Range,
    /// Percent; 100 when not given.
    pub chance: i32,
    /// Number of random variants (RNDLEVEL); 0 for a plain level.
    pub rndlevs: i32,
    /// Index of the chained-from level in the whole file's level list
    /// (counting from 0 over all dungeons); -1 = not chained.
    pub chain: i32,
    pub flags: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branch {
    /// Name of the destination dungeon.
    pub target: Vec<u8>,
    pub range: Range,
    /// As [`Level::chain`].
    pub chain: i32,
    pub branch_type: BranchType,
    pub up: bool,
    /// SLASH'EM's per-branch entry level, when given.
    pub entry: Option<i32>,
}

impl Script {
    /// Total number of level records over all dungeons.
    pub fn level_count(&self) -> usize {
        self.dungeons.iter().map(|d| d.levels.len()).sum()
    }

    pub fn branch_count(&self) -> usize {
        self.dungeons.iter().map(|d| d.branches.len()).sum()
    }
}

/// Bytes shown in a message: UTF-8 where valid, escapes elsewhere.
pub fn lossy(bytes: &[u8]) -> String {
    // Plain printable names are by far the most common case.
    if let Ok(text) = std::str::from_utf8(bytes) {
        if !text.bytes().any(|b| b < 0x20 || b == 0x7f) {
            return text.to_string();
        }
    }
    let mut s = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                s.extend(c.escape_default());
            } else {
                s.push(c);
            }
        }
        for b in chunk.invalid() {
            s.push_str(&format!("\\x{b:02x}"));
        }
    }
    s
}
