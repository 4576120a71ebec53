//! UnNetHack (UnNetHack/UnNetHack 24dce72, game 6.0.15): a 3.4.3 fork that
//! draws from 32-bit ISAAC seeded with the game seed (`src/rnd.c:30-41`),
//! rolls every chance even in wizard mode, floats the Advent Calendar like
//! Fort Ludios, hard-wires four more dungeons and shuffles the Elemental
//! Planes after the tune. Facts and file:line: `expected/variants/unnethack`.

use super::{Game, InputSpec, LoaderInputs, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::{BonesPool, BonesRules};
use crate::dialect::Dialect;
use crate::loader::{
    Fields, GameStart, Limits, LoadError, NonPositiveRn2, Planes, PlanesReport, Rules,
    NETHACK_LIMITS,
};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;
use crate::xlog::ending::Mode;
use crate::xlog::identify::{Family, Sign};
use crate::xlog::release::{Builtin, Cites, Release};

/// `init_dungeons()` (`src/dungeon.c`): 3.4.3's (the entry cut to the
/// bottom as there, `:939-943`), no wizard-mode skip of the dungeon and level
/// chance rolls (`:881`, `:625`), `LEV_LIMIT` 99 (`include/dgn_file.h:73`,
/// checked at `:991`), `advcal` before `knox` in `level_map` (`:768-811`)
/// and floated the same way (`:1071-1091`), "Town", "Sheol", "The Ruins of
/// Moria" and "The Dragon Caves" looked up like the Quest (`:1102-1105`),
/// and `shuffle_planes()` last (`:1127`, `:1138-1163`).
///
/// Its `d_level`, `entry_lev` and `num_dunlevs` are `xint16`
/// (`include/dungeon.h:9-10`, `:60-61`) while `depth()` is still an
/// `schar` (`src/dungeon.c:1273`): NetHack 3.7's typing, so a dungeon
/// drawn with more than 127 levels is cut to MAXLEVEL (`:903-906`,
/// `:985-987`) instead of wrapping as a byte would.
const RULES: Rules = Rules {
    required_dungeons: &[
        "The Quest",
        "Sokoban",
        "The Gnomish Mines",
        "Vlad's Tower",
        "Town",
        "Sheol",
        "The Ruins of Moria",
        "The Dragon Caves",
    ],
    limits: Some(Limits {
        max_levels: 99,
        ..NETHACK_LIMITS
    }),
    wizard_skips_dungeon_chance: false,
    wizard_skips_level_chance: false,
    floating_levels: &["advcal", "knox"],
    planes: Some(Planes {
        report: PlanesReport::ChainOrder,
        ..Planes::ELEMENTAL
    }),
    report_pre_draws: true,
    fields: Fields::NetHack37,
    // `rn2`: `if (x <= 0) { warning("rn2(%d) attempted", x); return 0; }`
    // (`src/rnd.c:43-52`): no draw (`warning()` panics only for the debug
    // fuzzer, `src/pline.c:451-463`).
    rn2_nonpositive: NonPositiveRn2::NoDraw,
    ..Rules::nethack_36()
};

/// A new game's draws before `init_dungeons()` (`newgame()`,
/// `src/allmain.c:940-958`): `init_level_seeds()` re-seeds with the game
/// seed (plus SERVERSEED, 0 unless sysconf sets it) and draws
/// `rn2(INT_MAX)` 511 times (`allmain.c:925-936`), then `init_objects()`
/// draws 290 times (gem colours and description shuffles, `o_init.c`; the
/// count depends only on the object table). Role selection draws before
/// the re-seed and does not matter.
const GAME_START_DRAWS: u32 = 511 + 290;

fn start_hook(_: &LoaderInputs) -> Result<GameStart, LoadError> {
    Ok(GameStart {
        fixed: GAME_START_DRAWS,
        ..GameStart::NONE
    })
}

/// `no_bones_level()` is 3.4.3's (`src/bones.c:17-34`); `can_make_bones()`
/// adds only the hero's square (open air, `bones.c:438-441`), which is not
/// the dungeon's concern. Magic portals outside the endgame are placed by
/// `fakewiz1` (`dat/yendor.des:285`), `drgnA` (`dat/dragons.des:44`),
/// `sheolmid` (`dat/sheol.des:81`) and `tower4` (`dat/tower.des:226`).
/// BONES_POOL is on by default (`sys/autoconf/configure.ac:441`): the file
/// name ends in `.` + `game_seed % 5` (`src/files.c:904-909`).
const BONES: BonesRules = BonesRules {
    portal_levels: &["fakewiz1", "drgnA", "sheolmid", "tower4"],
    pool: BonesPool::SeedSuffix(5),
    ..BonesRules::VANILLA
};

/// UnNetHack 5.1.0-6.0.6 (`dgn xlog`'s older releases): vanilla's
/// Wizard's Tower, so `wizard3` places a portal (5.3.1 dat/yendor.des:172)
/// as `fakewiz1` does (:245), with `drgnA` (dat/dragons.des:44), `sheolmid`
/// (dat/sheol.des:78) and `tower3` (dat/tower.des:165; Vlad's Tower had
/// three levels).
pub(crate) const BONES_5: BonesRules = BonesRules {
    portal_levels: &["fakewiz1", "wizard3", "drgnA", "sheolmid", "tower3"],
    ..BONES
};

/// UnNetHack 6.0.7-6.0.10: the Gehennom redesign (c17310004) dropped
/// `wizard3`'s portal (6.0.7 dat/yendor.des:197 is commented out) and
/// `fakewiz1` from the dungeon; Vlad's Tower still had three levels.
pub(crate) const BONES_6_0_7: BonesRules = BonesRules {
    portal_levels: &["drgnA", "sheolmid", "tower3"],
    ..BONES
};

pub(crate) static GAME: Game = Game {
    target: Target::UnNetHack,
    title: "UnNetHack",
    dialect: Dialect::UnNetHack,
    binary: Some(BinaryFormat::UnNetHack),
    rng: RngKind::Isaac32,
    rules: RULES,
    bones: BONES,
    overview: OverviewStyle::UnNetHack,
    loader: LoaderProof::Proven(
        "variants_parity: every line of expected/variants/unnethack (normal, wizard, game start), draw for draw",
    ),
    inputs: InputSpec {
        // The seed of a layout is the generator's seed right before the
        // loader unless --game-start asks for the game's own start.
        game_start: Some(false),
        start_hook: Some(start_hook),
        character: None,
        ..InputSpec::NONE
    },
    undefined_flags: &[],
    reads_lua: false,
    xlog: Some(&XLOG),
    path_words: &["unnethack"],
    rng_log: None,
};

/// UnNetHack 6's own `mode` values: games that leave bones as any other
/// (`can_make_bones()` does not read them; 6.0.15 src/topten.c:463-468).
const MODES_6: &[(&str, Mode)] = &[
    ("hah", Mode::Normal),
    ("hoh", Mode::Normal),
    ("marathon", Mode::Normal),
];

/// UnNetHack 5.1.0-5.3.1 and the 5.3.2 builds before the Rogue level went
/// (7b02e60db, 2019-01-20): colon-separated lines (5.3.1 src/topten.c:249,
/// `version=UNH-5.3.1` :339; tabs came with 0e86db592, 2019-01-09). In
/// wizard mode these releases skip the dungeon and level chance rolls
/// (5.3.1 src/dungeon.c:574-577, :809-812), which the unnethack target
/// (master) does not; only wizard-mode lines, which leave no bones
/// unasked, see that.
const UNNETHACK_5: Release = Release {
    name: "unnethack-5",
    title: "UnNetHack 5.1.0-5.3.2",
    note: "colons; the Rogue level",
    target: Target::UnNetHack,
    prefix: "UNH-",
    versions: &[(5, 1, 0, 0), (5, 3, 0, 2)],
    builtin: Some(Builtin {
        file: "unnethack-5.def (built in)",
        source: include_bytes!("../../../../corpus/unnethack-5.def"),
    }),
    cites: Cites {
        bones_ok: "UnNetHack 5.3.1 src/end.c:769",
        depth_roll: "UnNetHack 5.3.1 src/bones.c:234-239",
        explore: "UnNetHack 5.3.1 src/bones.c:242",
        wizard_query: "UnNetHack 5.3.1 src/end.c:866",
        no_bones_modes: "",
    },
    modes: &[("hah", Mode::Normal), ("hoh", Mode::Normal)],
    bones: Some(&BONES_5),
    separator: Some(b':'),
    ..Release::BASE
};

/// UnNetHack 6.0.0-6.0.6, and the 5.3.2 builds that wrote tabs (the 5.3.2
/// tag already has this dungeon).
const UNNETHACK_6_0_0: Release = Release {
    name: "unnethack-6.0.0",
    title: "UnNetHack 6.0.0-6.0.6",
    note: "tabs",
    target: Target::UnNetHack,
    prefix: "UNH-",
    versions: &[(5, 3, 2, 2), (6, 0, 0, 6)],
    builtin: Some(Builtin {
        file: "unnethack-6.0.0.def (built in)",
        source: include_bytes!("../../../../corpus/unnethack-6.0.0.def"),
    }),
    cites: Cites {
        bones_ok: "UnNetHack 6.0.6 src/end.c:812",
        depth_roll: "UnNetHack 6.0.6 src/bones.c:373-378",
        explore: "UnNetHack 6.0.6 src/bones.c:381",
        wizard_query: "UnNetHack 6.0.6 src/end.c:906",
        no_bones_modes: "",
    },
    modes: MODES_6,
    bones: Some(&BONES_5),
    separator: Some(b'\t'),
    ..Release::BASE
};

/// UnNetHack 6.0.7-6.0.10: the Gehennom redesign (c17310004, 2022-12-16)
/// adds "The Wizard's Tower" as dungeon 12, so the Planes are 13 and the
/// Advent Calendar 14.
const UNNETHACK_6_0_7: Release = Release {
    name: "unnethack-6.0.7",
    title: "UnNetHack 6.0.7-6.0.10",
    note: "the Wizard's Tower",
    target: Target::UnNetHack,
    prefix: "UNH-",
    versions: &[(6, 0, 7, 10)],
    builtin: Some(Builtin {
        file: "unnethack-6.0.7.def (built in)",
        source: include_bytes!("../../../../corpus/unnethack-6.0.7.def"),
    }),
    cites: Cites {
        bones_ok: "UnNetHack 6.0.10 src/end.c:867",
        depth_roll: "UnNetHack 6.0.10 src/bones.c:396-402",
        explore: "UnNetHack 6.0.10 src/bones.c:406",
        wizard_query: "UnNetHack 6.0.10 src/end.c:975",
        no_bones_modes: "",
    },
    modes: MODES_6,
    bones: Some(&BONES_6_0_7),
    ..Release::BASE
};

/// UnNetHack writes `version=UNH-6.0.15` (`GAME_SHORT_NAME`
/// include/patchlevel.h:5, src/topten.c:384), the dungeon's number and
/// name (`deathdnum` is `u.uz.dnum`, src/topten.c:666) and a `mode` field
/// with its own modes (src/topten.c:463-468; `can_make_bones()` does not
/// read them). Its dat/dungeon.def last changed after 6.0.10 was tagged
/// (commit fa9665b75, between the version bumps to 6.0.10 and 6.0.11).
const UNNETHACK: Release = Release {
    name: "unnethack-6.0",
    title: "UnNetHack 6.0.11-6.0.15",
    note: "its `mode` hah, hoh and marathon are normal games for bones",
    target: Target::UnNetHack,
    prefix: "UNH-",
    versions: &[(6, 0, 11, 15)],
    builtin: Some(Builtin {
        file: "unnethack-6.0.def (built in)",
        source: include_bytes!("../../../../corpus/unnethack-6.0.def"),
    }),
    cites: Cites {
        bones_ok: "UnNetHack 6.0.15 src/end.c:859",
        depth_roll: "UnNetHack 6.0.15 src/bones.c:451-455",
        explore: "UnNetHack 6.0.15 src/bones.c:459",
        wizard_query: "UnNetHack 6.0.15 src/end.c:967",
        no_bones_modes: "",
    },
    modes: MODES_6,
    ..Release::BASE
};

/// UnNetHack's xlogfile lines: every release writes `UNH-` before its
/// numbers (`GAME_SHORT_NAME`, include/patchlevel.h:5).
pub(crate) static XLOG: Family = Family {
    name: "unnethack",
    title: "UnNetHack",
    tells: "version `UNH-`",
    sign: Some(Sign::Prefix("UNH-")),
    numbers: &[],
    releases: &[UNNETHACK_5, UNNETHACK_6_0_0, UNNETHACK_6_0_7, UNNETHACK],
};
