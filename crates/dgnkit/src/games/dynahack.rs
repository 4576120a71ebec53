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
use crate::xlog::identify::{Family, Seen, Sign};
use crate::xlog::release::{Builtin, Cites, Release};

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

pub(crate) static GAME: Game = Game {
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
    xlog: Some(&XLOG),
    path_words: &["dynahack"],
    rng_log: None,
};

/// DynaHack writes its version colon-separated, with its own `charname`
/// field (libdynamohack/src/topten.c:177) and a `mode` field (:201-205).
/// `deathdnum` is `u.uz.dnum` (topten.c:354): Fort Ludios is its own
/// dungeon number, not 0 as doc/xlogfile.md says.
///
/// Every DynaHack xlogfile line was written with one dungeon description
/// (`libnitrohack/dat/dungeon.def` blob fea4674d9, last changed 2014-07-15
/// by 54b16b3b): the xlogfile came in on 2015-08-04 (229a2e4e, "xlogfile
/// patch, adapted for DynaHack"), while the version still said 0.5.5, so
/// `version=0.5.5` lines are those development builds'; 0.6.0
/// (2016-02-17, `include/nitrohack.h:10-13`) is what public servers run;
/// `0.0.1` is DynaMoHack, the 2017 renaming (`include/dynamohack.h:11-13`).
/// The tagged releases v0.5.0-v0.5.5 (an older Gehennom with the "heck"
/// levels, `libnitrohack/dat/dungeon.def` blob 6f481e6cf) have no
/// xlogfile writer at all. The dungeon order, so `deathdnum`, and the
/// bones code are the same throughout.
const DYNAHACK: Release = Release {
    name: "dynahack-0.6.0",
    title: "DynaHack 0.6.0",
    target: Target::DynaHack,
    versions: &[(0, 5, 5, 5), (0, 6, 0, 0), (0, 0, 1, 1)],
    builtin: Some(Builtin {
        file: "dynahack-0.0.1.def (built in)",
        source: include_bytes!("../../../../corpus/dynahack-0.0.1.def"),
    }),
    cites: Cites {
        bones_ok: "DynaHack libdynamohack/src/end.c:736",
        depth_roll: "DynaHack libdynamohack/src/bones.c:208-210",
        explore: "DynaHack libdynamohack/src/bones.c:214",
        wizard_query: "DynaHack libdynamohack/src/end.c:811",
        no_bones_modes: "",
    },
    mode_flags: None,
    ..Release::BASE
};

/// DynaHack's xlogfile lines: `charname` (libdynamohack/src/topten.c:177)
/// without NetHack 4's own fields; NetHack 4 writes `charname` too, with
/// its seed, birth options and microsecond times.
pub(crate) static XLOG: Family = Family {
    name: "dynahack",
    title: "DynaHack",
    tells: "`charname` without NetHack 4's fields",
    sign: Some(Sign::Fields {
        has: Seen::CHARNAME,
        lacks: Seen::NETHACK4,
        version: None,
    }),
    numbers: &[],
    releases: &[DYNAHACK],
};
