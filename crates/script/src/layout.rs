//! A resolved dungeon layout: the loader's output for one seed, in the shape of
//! `layout-json.md` (schema 1). Field order is the canonical JSON order.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub seed: u64,
    /// `glibc` or `isaac64`.
    pub rng: String,
    pub wizard: bool,
    pub dungeons: Vec<LayoutDungeon>,
    pub levels: Vec<LayoutLevel>,
    pub branches: Vec<LayoutBranch>,
    pub tune: String,
    /// Every draw as `rn2(n)=r`; present only when tracing.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rng_calls: Option<Vec<String>>,
    /// Games that shuffle the Elemental Planes: the levels of the planes'
    /// dungeon in level-chain order (UnNetHack's layouts).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub planes_order: Option<Vec<String>>,
    /// Games that shuffle the Elemental Planes: the planes in the order the
    /// hero visits them, Astral last (DynaHack's layouts).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub plane_order: Option<Vec<String>>,
    /// With the game's start (`--game-start`): the draws made before the
    /// loader, when the game's layouts report them.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pre_draws: Option<u32>,
    /// dNetHack: which of the "Chaos Quest" records was kept
    /// (`chaos_dvariant`: 0 the first, temple; 1 mithardir; 2 mordor).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub chaos_variant: Option<i32>,
    /// dNetHack: what its loader read besides the file.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub loader_inputs: Option<LayoutInputs>,
    /// With a game start that chooses the hero (NetHack 3.6, NLE): the
    /// hero the game made, random facets included.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub character: Option<LayoutCharacter>,
}

/// The hero a game start made.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutCharacter {
    /// As the hero is called ("Priestess" for a female Priest).
    pub role: String,
    /// The role's code (`urole.filecode`), which names the Quest's levels.
    pub code: String,
    /// The race's noun ("elf").
    pub race: String,
    pub gender: String,
    pub alignment: String,
    /// As the game's welcome says it: "lawful female human Samurai".
    pub text: String,
}

/// The inputs of dNetHack's loader, as its layouts report them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutInputs {
    /// Three-letter codes; `None` for the game's default setup.
    pub role: Option<String>,
    pub race: Option<String>,
    pub quest_nemesis_blibdoolpoolp: bool,
    pub chaosvar: u8,
    pub is_june: bool,
    /// The role code quest level names would take; layouts keep the
    /// source's `x-` names, so always "x".
    pub filecode: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutDungeon {
    pub name: String,
    pub proto: String,
    /// One character, or empty for none.
    pub bones: String,
    pub num_levels: i32,
    pub ledger_start: i32,
    pub depth_start: i32,
    pub entry_level: i32,
    pub hellish: bool,
    pub mazelike: bool,
    pub roguelike: bool,
    /// Alignment mask: 0 none, 1 chaotic, 2 neutral, 4 lawful.
    pub align: u32,
    /// GnollHack: whether the dungeon has a `TILESET:` (its
    /// `dungeons[].flags.has_tileset`); absent for other games.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub has_tileset: Option<bool>,
    /// GnollHack: the tileset's number (0 without one).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tileset: Option<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutLevel {
    pub name: String,
    pub bones: String,
    pub dungeon: i32,
    pub level: i32,
    pub town: bool,
    pub hellish: bool,
    pub mazelike: bool,
    pub roguelike: bool,
    pub align: u32,
    pub rndlevs: i32,
    /// GnollHack: the level's display name (the first string of its
    /// LEVEL line, `s_level.name`); absent for other games.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub display_name: Option<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelRef {
    pub dungeon: i32,
    pub level: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutBranch {
    pub id: i32,
    /// `stair`, `no_end1`, `no_end2` or `portal`.
    #[serde(rename = "type")]
    pub branch_type: String,
    pub end1: LevelRef,
    pub end2: LevelRef,
    pub end1_up: bool,
}
