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
use crate::xlog::ending::Mode;
use crate::xlog::identify::{Family, Numbers, Seen, Sign};
use crate::xlog::release::{Builtin, Cites, Release};

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

pub(crate) static GAME: Game = Game {
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
    xlog: Some(&XLOG),
    path_words: &["gnollhack"],
    rng_log: None,
};

/// The `flags` bits of GnollHack's modern, casual and non-scoring games
/// and the `mode` values of its casual, reloadable and modern ones: no
/// bones in any (4.3.0 src/topten.c:513, :572-577, src/bones.c:504; the
/// same in 4.1.1, src/bones.c:433).
const NO_BONES_FLAGS: u64 = 0x8 | 0x10 | 0x20;
const NO_BONES_MODES: &[(&str, Mode)] = &[
    ("casual", Mode::NoBones),
    ("reloadable", Mode::NoBones),
    ("modern", Mode::NoBones),
];

/// GnollHack 4.1.0 and 4.1.1 as built from 2022-08-05 to 2023-06-26, with
/// no `edit` field. Earlier 4.1.0 builds had other dungeons, which a line
/// does not tell. Their `can_make_bones()` is 3.6's order (4.1.1
/// src/bones.c:406-436); outside wizard mode it refuses where 4.3.0's does.
const GNOLLHACK_4_1_0: Release = Release {
    name: "gnollhack-4.1.0",
    title: "GnollHack 4.1.0-4.1.1",
    target: Target::GnollHack,
    versions: &[(4, 1, 0, 1)],
    builtin: Some(Builtin {
        file: "gnollhack-4.1.0.def (built in)",
        source: include_bytes!("../../../../corpus/gnollhack-4.1.0.def"),
    }),
    cites: Cites {
        bones_ok: "GnollHack 4.1.1 src/end.c:1526",
        depth_roll: "GnollHack 4.1.1 src/bones.c:427-430",
        explore: "GnollHack 4.1.1 src/bones.c:433",
        wizard_query: "GnollHack 4.1.1 src/end.c:1728",
        no_bones_modes: "GnollHack 4.1.1 src/bones.c:433",
    },
    no_bones_flags: NO_BONES_FLAGS,
    modes: NO_BONES_MODES,
    ..Release::BASE
};

/// GnollHack writes `version=4.3.0` like NetHack 4 does, plus its own
/// `edit` and `versionstart` fields (src/topten.c:462-469), a `mode` field
/// with casual, reloadable and modern games (src/topten.c:513) and flags
/// 0x8 modern, 0x10 casual, 0x20 non-scoring (src/topten.c:572-577): in
/// all of them `can_make_bones()` refuses (src/bones.c:504). Its
/// dat/dungeon.def is the same from 4.1.1 edit 5 (b0b0d2955, 2023-06-27)
/// through 4.1.2, 4.1.3 and 4.2.0 to 4.3.0 (blob cba875b32; 67a9687bf differs
/// only in a comment). Its `edit` field came with 4.1.3 edit 24
/// (6e2b7839d); without it a 4.x line is still GnollHack's, as NetHack 4,
/// which wrote 4.2.x and 4.3.0 too, writes `charname`. (GnollHack never
/// wrote 4.2.1: its tag 4.2.1-121 is 4.2.0 edit 121.)
const GNOLLHACK: Release = Release {
    name: "gnollhack-4",
    title: "GnollHack 4.1.2-4.3.0",
    note: "casual, reloadable, modern and non-scoring games leave no bones",
    target: Target::GnollHack,
    versions: &[(4, 1, 2, 3), (4, 2, 0, 0), (4, 3, 0, 0)],
    builtin: Some(Builtin {
        file: "gnollhack-4.def (built in)",
        source: include_bytes!("../../../../corpus/gnollhack-4.def"),
    }),
    cites: Cites {
        bones_ok: "GnollHack 4.3.0 src/end.c:2185",
        depth_roll: "GnollHack 4.3.0 src/bones.c:551-552",
        explore: "GnollHack 4.3.0 src/bones.c:504",
        wizard_query: "GnollHack 4.3.0 src/end.c:2758",
        no_bones_modes: "GnollHack 4.3.0 src/bones.c:504",
    },
    no_bones_flags: NO_BONES_FLAGS,
    modes: NO_BONES_MODES,
    ..Release::BASE
};

/// GnollHack's xlogfile lines: `edit` from 4.1.3 edit 24 on (6e2b7839d,
/// src/topten.c:464). NetHack 4 writes `charname` (its sign, tried
/// first), so a 4.x line without it is GnollHack's, from before its `edit`
/// field.
pub(crate) static XLOG: Family = Family {
    name: "gnollhack",
    title: "GnollHack",
    tells: "`edit` or version 4.x without `charname`",
    sign: Some(Sign::field(Seen::EDIT)),
    numbers: &[Numbers::major(4)],
    releases: &[GNOLLHACK_4_1_0, GNOLLHACK],
};
