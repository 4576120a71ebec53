//! DynaHack (DynaMoHack/DynaHack 5141ec2): a NitroHack (3.4.3) fork that
//! draws from MT19937 in Cokus's recode (`libdynamohack/src/mtrand.c`),
//! floats the Advent Calendar like Fort Ludios, reads the `reincarnation`
//! option and shuffles the Elemental Planes after the tune. Facts and
//! file:line: `expected/variants/dynahack`.

use super::{Game, GameOption, InputSpec, LoaderInputs, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::{BonesPool, BonesRules};
use crate::dialect::Dialect;
use crate::loader::{NonPositiveRn2, Planes, PlanesReport, Rules};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

/// `init_dungeons()` (`libdynamohack/src/dungeon.c`): 3.4.3's (the entry
/// cut to the bottom as there, `:753-756`), `advcal` first in `level_map`
/// (`:623`) and floated like `knox` (`:874-888`), "Town" hard-wired and
/// "The Dragon Caves" optional (`dname_to_dnum(name, optional)`,
/// `:231-238`, `:915-921`), and `shuffle_planes()` last (`:936`,
/// `:939-962`). Wizard mode skips the chance rolls as in 3.4.3
/// (`:701-702`, `:520-521`).
const RULES: Rules = Rules {
    required_dungeons: &[
        "The Quest",
        "Sokoban",
        "The Gnomish Mines",
        "Vlad's Tower",
        "Town",
    ],
    floating_levels: &["advcal", "knox"],
    // `rn2(x)` is `(int)(mt_random() % (long)(x))` with no guard
    // (`libdynamohack/include/rnd.h:6`, `:9-12`): `mt_random()`'s
    // `unsigned int` becomes a `long` (LP64), so one draw in `0 ..= |x|-1`.
    rn2_nonpositive: NonPositiveRn2::OneDrawModulo,
    planes: Some(Planes {
        report: PlanesReport::VisitOrder,
        ..Planes::ELEMENTAL
    }),
    ..Rules::nethack_36()
};

/// The birth option `reincarnation` (`flags.rogue_enabled`, default on,
/// `options.c:230`): off, the rogue level is taken out of the level chain
/// after loading (`dungeon.c:892-909`); its draws are still made.
const REINCARNATION: GameOption = GameOption {
    name: "reincarnation",
    values: &["true", "false"],
    doc: "false takes the Rogue level out of the dungeon (its draws are still made)",
};

fn rules_hook(inputs: &LoaderInputs, rules: &mut Rules) {
    if inputs
        .option_or_default(&REINCARNATION)
        .eq_ignore_ascii_case("false")
    {
        rules.unlinked_levels = &["rogue"];
    }
}

/// `no_bones_level()` has vanilla's five rules (`src/bones.c:35-47`) and
/// `can_make_bones()` its tests (`bones.c:191-211`); the magic portals are
/// vanilla's (`dat/yendor.des:221`, `:297`). Bones files are spread over
/// five pools by the game's start time: `.` + `u.ubirthday % 5` ends the
/// name (`bones.c:16-31`, `files.c:166,193,209`, `u_init.c:600`).
const BONES: BonesRules = BonesRules {
    pool: BonesPool::BirthSuffix(5),
    ..BonesRules::VANILLA
};

pub(super) static GAME: Game = Game {
    target: Target::DynaHack,
    title: "DynaHack",
    dialect: Dialect::Vanilla,
    binary: Some(BinaryFormat::DynaHack),
    rng: RngKind::Mt19937Cokus,
    rules: RULES,
    bones: BONES,
    overview: OverviewStyle::NetHack343,
    loader: LoaderProof::Proven(
        "variants_parity: every line of expected/variants/dynahack (normal, wizard), draw for draw",
    ),
    inputs: InputSpec {
        options: &[REINCARNATION],
        rules_hook: Some(rules_hook),
        ..InputSpec::NONE
    },
    undefined_flags: &[],
    reads_lua: false,
};
