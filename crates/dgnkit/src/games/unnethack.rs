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

pub(super) static GAME: Game = Game {
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
        ..InputSpec::NONE
    },
    undefined_flags: &[],
    reads_lua: false,
};
