//! EvilHack (k21971/EvilHack c444f6a3ab1e; facts from
//! `expected/variants/evilhack/README.md` and the game's source): a 3.6
//! fork whose `init_dungeons()` is 3.6.7's draw for draw, with room for
//! 99 prototype levels. ISAAC-64, seeded as 3.6.

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::{BonesRules, EventLevel};
use crate::dialect::Dialect;
use crate::loader::{Limits, NonPositiveRn2, Rules, NETHACK_LIMITS};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;
use crate::xlog::identify::{Family, Seen, Sign};
use crate::xlog::release::{Builtin, Cites, Release};

/// `init_dungeons()` (`src/dungeon.c:749-1030`): 3.6's. `LEV_LIMIT` is 99
/// (`include/dgn_file.h:76`, checked at `src/dungeon.c:923`); MAXDUNGEON
/// 16 and MAXLEVEL 32 (`include/global.h:347-348`), BRANCH_LIMIT 32 as in
/// vanilla; the same four dungeons looked up by name (`:1000-1003`) and
/// Fort Ludios floated through `level_map`'s `knox` (`:967-995`), but
/// only when a branch reaches it: the kludge is guarded by `if (br)`
/// (`:989-993`), so a `knox` no branch leads to does not abort the game.
pub(crate) const RULES: Rules = Rules {
    limits: Some(Limits {
        max_levels: 99,
        ..NETHACK_LIMITS
    }),
    floating_needs_branch: false,
    // 3.6's `rn2`: `isaac64_next_uint64() % x` (`src/rnd.c:59-63`), the
    // guard compiled out (`:104-113`, `NH_STATUS_RELEASED` in
    // `include/global.h:22`).
    rn2_nonpositive: NonPositiveRn2::OneDrawRaw,
    ..Rules::nethack_36()
};

/// `no_bones_level()` (`src/bones.c:21-43`) is 3.6's plus the valley,
/// which holds no bones until the hero has killed Cerberus (`:37-39`;
/// `u.uevent.ucerberus`, `include/you.h:73`, set in `src/mon.c:4282-4283`).
/// `can_make_bones()` (`:465-498`) is 3.6's, with the hero's square (open
/// air) besides. Magic portals outside the endgame and off branch levels
/// are placed by `valley` (`dat/gehennom.des:74`, to the Hidden Dungeon)
/// and `purgatory-1` (`dat/purgatory.des:56`, back to the castle); the
/// Wizard's Tower is its own dungeon behind a branch portal. File names as
/// 3.6 (`src/files.c:891-939`).
const BONES: BonesRules = BonesRules {
    event_levels: &[EventLevel {
        level: "valley",
        event: "Cerberus is killed",
        source: "EvilHack src/bones.c:39",
    }],
    portal_levels: &["valley", "purgatory-1"],
    notes: &[
        "no bones with the `bones` option off (src/bones.c:470)",
        "no bones in discover mode (src/bones.c:494)",
    ],
    ..BonesRules::VANILLA
};

/// EvilHack 0.5.0-0.8.0 (`dgn xlog`'s older releases): no valley rule (it
/// came in 447a7a497, 2023-02-04; v0.8.1 src/bones.c:39), and the magic
/// portals are vanilla's Wizard's Tower pair, `wizard3` (v0.5.0
/// dat/yendor.des:242) and `fakewiz1` (:358): the valley's portal came
/// with the Hidden Dungeon in 0.8.3.
pub(crate) const BONES_0_5: BonesRules = BonesRules {
    event_levels: &[],
    portal_levels: &["wizard3", "fakewiz1"],
    ..BONES
};

/// EvilHack 0.8.1-0.8.2: the valley rule, vanilla's portal pair and
/// Purgatory's (v0.8.1 dat/purgatory.des:56).
pub(crate) const BONES_0_8_1: BonesRules = BonesRules {
    portal_levels: &["wizard3", "fakewiz1", "purgatory-1"],
    ..BONES
};

pub(crate) static GAME: Game = Game {
    target: Target::EvilHack,
    title: "EvilHack",
    dialect: Dialect::EvilHack,
    binary: Some(BinaryFormat::EvilHack),
    rng: RngKind::Isaac64,
    rules: RULES,
    bones: BONES,
    overview: OverviewStyle::NetHack36,
    loader: LoaderProof::Proven(
        "variants_parity::evilhack_layouts_match: every line of expected/variants/evilhack/layouts.* (normal, wizard), draw for draw",
    ),
    inputs: InputSpec::NONE,
    undefined_flags: &[],
    reads_lua: false,
    xlog: Some(&XLOG),
    path_words: &["evilhack"],
    rng_log: None,
};

/// EvilHack's releases before 0.9: the loader draws as 0.9.3's in each
/// (their src/dungeon.c differs in flags bits and level names only), the
/// dungeon order changed (Ice Queen 0.5, Vecna 0.7, Goblin Town 0.8.0,
/// Purgatory 0.8.1, the Hidden Dungeon and the Wizard's Tower 0.8.3) and
/// so did the magic portals ([`BONES_0_5`]).
/// Every line carries `killed_archangels` (since 0c8b52d56, 2019-05-19).
const fn evilhack(
    name: &'static str,
    title: &'static str,
    versions: &'static [(u32, u32, u32, u32)],
    builtin: Builtin,
    cites: Cites,
    bones: Option<&'static BonesRules>,
) -> Release {
    Release {
        name,
        title,
        target: Target::EvilHack,
        versions,
        builtin: Some(builtin),
        cites,
        bones,
        ..Release::BASE
    }
}

const fn cites(
    bones_ok: &'static str,
    depth_roll: &'static str,
    explore: &'static str,
    wizard_query: &'static str,
) -> Cites {
    Cites {
        bones_ok,
        depth_roll,
        explore,
        wizard_query,
        no_bones_modes: "",
    }
}

const EVILHACK_0_5: Release = evilhack(
    "evilhack-0.5",
    "EvilHack 0.5.0",
    &[(0, 5, 0, 0)],
    Builtin {
        file: "evilhack-0.5.def (built in)",
        source: include_bytes!("../../../../corpus/evilhack-0.5.def"),
    },
    cites(
        "EvilHack 0.5.0 src/end.c:1425",
        "EvilHack 0.5.0 src/bones.c:357-360",
        "EvilHack 0.5.0 src/bones.c:363",
        "EvilHack 0.5.0 src/end.c:1583",
    ),
    Some(&BONES_0_5),
);

const EVILHACK_0_6: Release = evilhack(
    "evilhack-0.6",
    "EvilHack 0.6.0",
    &[(0, 6, 0, 0)],
    Builtin {
        file: "evilhack-0.6.def (built in)",
        source: include_bytes!("../../../../corpus/evilhack-0.6.def"),
    },
    cites(
        "EvilHack 0.6.0 src/end.c:1428",
        "EvilHack 0.6.0 src/bones.c:445-448",
        "EvilHack 0.6.0 src/bones.c:451",
        "EvilHack 0.6.0 src/end.c:1586",
    ),
    Some(&BONES_0_5),
);

const EVILHACK_0_7: Release = evilhack(
    "evilhack-0.7",
    "EvilHack 0.7.0-0.7.1",
    &[(0, 7, 0, 1)],
    Builtin {
        file: "evilhack-0.7.def (built in)",
        source: include_bytes!("../../../../corpus/evilhack-0.7.def"),
    },
    cites(
        "EvilHack 0.7.1 src/end.c:1456",
        "EvilHack 0.7.1 src/bones.c:451-454",
        "EvilHack 0.7.1 src/bones.c:457",
        "EvilHack 0.7.1 src/end.c:1633",
    ),
    Some(&BONES_0_5),
);

const EVILHACK_0_8_0: Release = evilhack(
    "evilhack-0.8.0",
    "EvilHack 0.8.0",
    &[(0, 8, 0, 0)],
    Builtin {
        file: "evilhack-0.8.0.def (built in)",
        source: include_bytes!("../../../../corpus/evilhack-0.8.0.def"),
    },
    cites(
        "EvilHack 0.8.0 src/end.c:1458",
        "EvilHack 0.8.0 src/bones.c:459-462",
        "EvilHack 0.8.0 src/bones.c:465",
        "EvilHack 0.8.0 src/end.c:1635",
    ),
    Some(&BONES_0_5),
);

const EVILHACK_0_8_1: Release = evilhack(
    "evilhack-0.8.1",
    "EvilHack 0.8.1-0.8.2",
    &[(0, 8, 1, 2)],
    Builtin {
        file: "evilhack-0.8.1.def (built in)",
        source: include_bytes!("../../../../corpus/evilhack-0.8.1.def"),
    },
    cites(
        "EvilHack 0.8.2 src/end.c:1472",
        "EvilHack 0.8.2 src/bones.c:464-467",
        "EvilHack 0.8.2 src/bones.c:470",
        "EvilHack 0.8.2 src/end.c:1649",
    ),
    Some(&BONES_0_8_1),
);

const EVILHACK_0_8_3: Release = evilhack(
    "evilhack-0.8.3",
    "EvilHack 0.8.3-0.8.4",
    &[(0, 8, 3, 4)],
    Builtin {
        file: "evilhack-0.8.3.def (built in)",
        source: include_bytes!("../../../../corpus/evilhack-0.8.3.def"),
    },
    cites(
        "EvilHack 0.8.4 src/end.c:1539",
        "EvilHack 0.8.4 src/bones.c:468-471",
        "EvilHack 0.8.4 src/bones.c:474",
        "EvilHack 0.8.4 src/end.c:1716",
    ),
    None,
);

/// EvilHack writes `version=0.9.3` (src/topten.c:378); its flags keep 0x1
/// wizard and 0x2 explore, and the number of bones files loaded in bits
/// 8-15 (src/topten.c `encodexlogflags`). dat/dungeon.def is the same from
/// tag v0.9.0 to 0.9.3 (it differs at v0.8.4).
const EVILHACK: Release = Release {
    name: "evilhack-0.9",
    title: "EvilHack 0.9.0-0.9.3",
    target: Target::EvilHack,
    versions: &[(0, 9, 0, 3)],
    builtin: Some(Builtin {
        file: "evilhack-0.9.def (built in)",
        source: include_bytes!("../../../../corpus/evilhack-0.9.def"),
    }),
    cites: Cites {
        bones_ok: "EvilHack 0.9.3 src/end.c:1671",
        depth_roll: "EvilHack 0.9.3 src/bones.c:488-491",
        explore: "EvilHack 0.9.3 src/bones.c:494",
        wizard_query: "EvilHack 0.9.3 src/end.c:1854",
        no_bones_modes: "",
    },
    ..Release::BASE
};

/// EvilHack's xlogfile lines: `killed_archangels` since 0c8b52d56
/// (2019-05-19), in every release; UnNetHack's field is
/// `killed_weeping_archangels` and it writes `UNH-`. SporkHack writes the
/// same 0.x numbers without it, so they tell nothing.
pub(crate) static XLOG: Family = Family {
    name: "evilhack",
    title: "EvilHack",
    tells: "`killed_archangels`",
    sign: Some(Sign::field(Seen::KILLED_ARCHANGELS)),
    numbers: &[],
    releases: &[
        EVILHACK_0_5,
        EVILHACK_0_6,
        EVILHACK_0_7,
        EVILHACK_0_8_0,
        EVILHACK_0_8_1,
        EVILHACK_0_8_3,
        EVILHACK,
    ],
};
