//! GnollHack (hyvanmielenpelit/GnollHack 19a2dc7, 4.3.0 build 11; facts
//! from `expected/variants/gnollhack/README.md` and the game's source): a
//! 3.6 fork whose `init_dungeons()` makes 3.6.7's draws in 3.6.7's order,
//! with display names for levels, a TILESET per dungeon and ten dungeons
//! looked up by name. ISAAC-64, seeded as 3.6.

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::{BonesRules, DepthRollDraw, LevelOneRule};
use crate::dialect::Dialect;
use crate::loader::{NonPositiveRn2, Rules};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

/// `init_dungeons()` (`src/dungeon.c`): 3.6.7's sites (`:423`, `:567`,
/// `:675`, `:814-815`, `:837`, `:973`), 3.6's limits (MAXDUNGEON 16,
/// LEV_LIMIT 50, BRANCH_LIMIT 32), `knox` floated as in 3.6; it copies
/// `has_tileset`/`tileset` into `dungeons[]` (`:855-856`) and the display
/// name into `s_level.name` (`:574`), which its layouts report, and
/// `dname_to_dnum` panics unless all ten dungeons below exist
/// (`:1012-1021`, in this order).
pub(crate) const RULES: Rules = Rules {
    required_dungeons: &[
        "The Dungeons of Doom",
        "Gehennom",
        "The Quest",
        "Sokoban",
        "The Gnomish Mines",
        "Vlad's Tower",
        "Plane of the Modron",
        "Hellish Pastures",
        "The Large Circular Dungeon",
        "The Elemental Planes",
    ],
    report_display: true,
    // 3.6's `rn2`: `isaac64_next_uint64() % x` (`src/rnd.c:61-65`), the
    // guard only `#ifdef BETA` (`:100-113`), which `include/global.h:13`
    // leaves undefined.
    rn2_nonpositive: NonPositiveRn2::OneDrawRaw,
    ..Rules::nethack_36()
};

/// `no_bones_level()` (`src/bones.c:39-85`) keeps 3.6's five rules and
/// adds level 1 of the Dungeons of Doom (`:72`), tested before the hellish
/// rule, which Hellish Pastures meets too (`:78`). `can_make_bones()`
/// (`:496-560`) draws its depth roll only outside wizard mode and below
/// depth 3 (`:550-556`). File names put `-` and the difficulty (0-6,
/// chosen at the start of a game, so `*` here) after `bon` and its pool
/// digit (`src/files.c:1203`). The portals of `fakewiz1`/`wizard3` are
/// vanilla's (`dat/yendor.des:248`, `:357`).
const BONES: BonesRules = BonesRules {
    level_one: LevelOneRule::MainDungeon,
    depth_roll: DepthRollDraw::SkipWizardAndShallow,
    name_infix: "-*",
    notes: &[
        "no bones in discover, Modern or Casual mode or a non-scoring game, outside wizard mode (src/bones.c:503-511)",
        "no bones with the `bones` option off (src/bones.c:513)",
        "no bones loaded in discover, Modern or Casual mode or with the `bones` option off (src/bones.c:847-851)",
    ],
    ..BonesRules::VANILLA
};

pub(super) static GAME: Game = Game {
    target: Target::GnollHack,
    title: "GnollHack",
    dialect: Dialect::GnollHack,
    binary: Some(BinaryFormat::GnollHack),
    rng: RngKind::Isaac64,
    rules: RULES,
    bones: BONES,
    overview: OverviewStyle::GnollHack,
    loader: LoaderProof::Proven(
        "variants_parity::gnollhack_layouts_match: every line of expected/variants/gnollhack/layouts.* (normal, wizard), draw for draw, tilesets and display names included",
    ),
    inputs: InputSpec::NONE,
    undefined_flags: &[],
    reads_lua: false,
};
