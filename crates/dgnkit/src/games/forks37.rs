//! NetHack 3.7's forks, whose game starts are recorded in
//! `expected/variants/<family>/` (README.md there: seeding, the draws before
//! `init_dungeons()`, the dungeon's draw sites, bones and xlogfile
//! numbering, with file:line). Each reads `dat/dungeon.lua` at start-up (no
//! `dgn_comp`, no compiled file) with 3.7's `init_dungeons()`; what differs
//! is data: the object shuffles' count, `roles[]` and which quest monsters
//! lack a gender, limits and flag words, and each fork's few hooks below.

use super::nethack37::{role, vanilla, RoleStart, Start37};
use super::{Game, InputSpec, LoaderInputs, LoaderProof};
use crate::bones::{BonesRules, Invocation};
use crate::dialect::Dialect;
use crate::loader::{GameStart, Limits, LoadError, NonPositiveRn2, Rules, Victim};
use crate::options::Target;
use crate::xlog::identify::{Family, Numbers, Seen, Sign};
use crate::xlog::release::{Builtin, Cites, Release};

/// A fork's record: 3.7's loader with the fork's rules and start; `xlog`
/// tells its xlogfile lines apart and answers them, and a checkout of the
/// fork is named as its xlogfile's game (`xlog.name`).
const fn fork(
    target: Target,
    title: &'static str,
    dialect: Dialect,
    rules: Rules,
    roles: &'static [&'static str],
    start_hook: fn(&LoaderInputs) -> Result<GameStart, LoadError>,
    xlog: &'static Family,
) -> Game {
    // ISAAC-64 seeded with the seed's 8 little-endian bytes, 3.7's bones
    // rules and overview, as 3.7 (each README, "Generator and seeding").
    let base = vanilla(target, title, LoaderProof::Proven(PROOF), start_hook, None);
    Game {
        dialect,
        rules,
        inputs: InputSpec {
            roles,
            ..base.inputs
        },
        xlog: Some(xlog),
        path_words: core::slice::from_ref(&xlog.name),
        ..base
    }
}

const PROOF: &str = "forks37_parity: every game start of expected/variants/<family>/layouts-*.jsonl.gz, draw for draw (role, nhlib.lua, the file's own draws, init_dungeons(), the draws after it) and the resolved dungeon";

// ---------------------------------------------------------------- xNetHack

/// xNetHack 9.1's `roles[]` (src/role.c:30-472): 3.7's thirteen, but the
/// Archeologist's nemesis is Schliemann, who is male
/// (include/monsters.h:3665), so only the Wizard's Anaraxis draws.
const XNETHACK_ROLES: [RoleStart; 13] = [
    role("Arc", 0, false),
    role("Bar", 0, false),
    role("Cav", 0, false),
    role("Hea", 0, false),
    role("Kni", 0, false),
    role("Mon", 0, false),
    role("Pri", 0, true),
    role("Rog", 0, false),
    role("Ran", 0, false),
    role("Sam", 0, false),
    role("Tou", 0, false),
    role("Val", 0, false),
    role("Wiz", 1, false),
];

const XNETHACK_START: Start37 = Start37 {
    title: "xNetHack",
    // o_init.c:88-94, :128 (197), :233.
    object_draws: 201,
    object_bounds: &[],
    roles: &XNETHACK_ROLES,
    victim: None,
    // init_archfiends() shuffles its seven archfiends right after the
    // dungeon (src/allmain.c:923, src/minion.c:892).
    after_shuffle: 7,
};

fn xnethack_start(inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
    XNETHACK_START.for_inputs(inputs)
}

/// xNetHack 9.1 (copperwater/xNetHack `3dd346ca0`, tag `xnh9.1`). Its
/// `dungeon.lua` is a program: two `percent(50)` swap which demon lair goes
/// to which Gehennom dungeon (`dat/dungeon.lua:7-19`), run as the game runs
/// it. MAXDUNGEON 32 (include/global.h:408); `The Abyss` and `Gehennom`
/// are looked up after loading (src/dungeon.c:1165-1171).
pub(crate) static XNETHACK: Game = Game {
    bones: BonesRules {
        invocation: Invocation::SanctumDungeon,
        ..BonesRules::VANILLA
    },
    ..fork(
        Target::XNetHack,
        "xNetHack",
        Dialect::XNetHack,
        Rules {
            limits: Some(Limits {
                max_dungeons: 32,
                max_levels: 50,
                max_branches: 32,
            }),
            maxdungeon: 32,
            required_dungeons: &[
                "The Quest",
                "Sokoban",
                "The Gnomish Mines",
                "Vlad's Tower",
                "Gehennom",
                "The Abyss",
                "The Tutorial",
            ],
            // `rn2`: `impossible()` and 0 in every build (src/rnd.c:97-100).
            rn2_nonpositive: NonPositiveRn2::NoDraw,
            ..Rules::nethack_37()
        },
        &Start37::codes(&XNETHACK_ROLES),
        xnethack_start,
        &XNETHACK_XLOG,
    )
};

/// xNetHack 9.1 writes `version=9.1.0` (include/patchlevel.h:10-15,
/// src/topten.c:348) and `polyinit=` after `rerolls=` in every line
/// (src/topten.c:398-399). `deathdnum` is `u.uz.dnum` (:749): every dungeon
/// of its file always exists, so it is the file's dungeon order. Its depth
/// roll moved from `can_make_bones()` into `done()` (src/end.c:1531-1535),
/// with the same odds outside wizard mode.
const XNETHACK_9_1: Release = Release {
    name: "xnethack-9.1",
    title: "xNetHack 9.1.0",
    target: Target::XNetHack,
    versions: &[(9, 1, 0, 0)],
    builtin: Some(Builtin {
        file: "xnethack-9.1.lua (built in)",
        source: include_bytes!("../../../../corpus/xnethack-9.1.lua"),
    }),
    cites: Cites {
        bones_ok: "xNetHack 9.1 src/end.c:1319",
        depth_roll: "xNetHack 9.1 src/end.c:1531-1535",
        explore: "xNetHack 9.1 src/bones.c:429",
        wizard_query: "xNetHack 9.1 src/end.c:1531",
        no_bones_modes: "",
    },
    ..Release::BASE
};

/// xNetHack's xlogfile lines: `polyinit=` in every line (9.1
/// src/topten.c:398-399); its versions run from 6 to 9.
static XNETHACK_XLOG: Family = Family {
    name: "xnethack",
    title: "xNetHack",
    tells: "`polyinit`, or version 6-9.x",
    sign: Some(Sign::field(Seen::POLYINIT)),
    numbers: &[Numbers::majors(6, 9)],
    releases: &[XNETHACK_9_1],
};

// -------------------------------------------------------------- SpliceHack

/// SpliceHack's `roles[]` (src/role.c:30-787), with two roles of its own,
/// the Cartomancer (:119) and the Dragon Rider (:242). The Archeologist's
/// Minion of Huhetotl, the Cartomancer's King of Games and Dal Zethire and
/// the Wizard's Dark One have no gender (src/monst.c:4614, :4758, :4798,
/// :4945).
const SPLICEHACK_ROLES: [RoleStart; 17] = [
    role("Arc", 1, false),
    role("Bar", 0, false),
    role("Car", 2, false),
    role("Cav", 0, false),
    role("Con", 0, false),
    role("Dra", 0, false),
    role("Hea", 0, false),
    role("Kni", 0, false),
    role("Mon", 0, false),
    role("Pri", 0, true),
    role("Pir", 0, false),
    role("Rog", 0, false),
    role("Ran", 0, false),
    role("Sam", 0, false),
    role("Tou", 0, false),
    role("Val", 0, false),
    role("Wiz", 1, false),
];

const SPLICEHACK_START: Start37 = Start37 {
    title: "SpliceHack",
    // o_init.c:150-156, :85 (245), :218.
    object_draws: 249,
    object_bounds: &[],
    roles: &SPLICEHACK_ROLES,
    victim: None,
    after_shuffle: 0,
};

fn splicehack_start(inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
    SPLICEHACK_START.for_inputs(inputs)
}

/// SpliceHack 1.2.0-39 (NullCGT/SpliceHack `8d70ade6f`, on a NetHack 3.7
/// of 2021: src/dungeon.c rev 1.146, one `init_dungeons()` with 3.7's
/// read and draw order). Its dungeons take `nofood`, bit 0x10
/// (include/dgn_file.h:60), the chaotic alignment's bit, and it has no
/// `unconnected` and no Tutorial (src/dungeon.c:1169-1172).
pub(crate) static SPLICEHACK: Game = fork(
    Target::SpliceHack,
    "SpliceHack",
    Dialect::SpliceHack,
    Rules {
        unconnected: false,
        required_dungeons: &["The Quest", "Sokoban", "The Gnomish Mines", "Vlad's Tower"],
        // `rn2`: `impossible()` and 0 unless released (src/rnd.c:100-104;
        // NH_STATUS_BETA, include/patchlevel.h:33).
        rn2_nonpositive: NonPositiveRn2::NoDraw,
        ..Rules::nethack_37()
    },
    &Start37::codes(&SPLICEHACK_ROLES),
    splicehack_start,
    &SPLICEHACK_XLOG,
);

/// SpliceHack 1.2.0 writes `version=1.2.0` (include/patchlevel.h, EDITLEVEL
/// 39; src/topten.c:355) and no `rerolls=`; `deathdnum` is `u.uz.dnum`
/// (:680), the file's dungeon order.
const SPLICEHACK_1_2: Release = Release {
    name: "splicehack-1.2",
    title: "SpliceHack 1.2.0",
    target: Target::SpliceHack,
    versions: &[(1, 2, 0, 0)],
    builtin: Some(Builtin {
        file: "splicehack-1.2.lua (built in)",
        source: include_bytes!("../../../../corpus/splicehack-1.2.lua"),
    }),
    cites: Cites {
        bones_ok: "SpliceHack 1.2.0 src/end.c:1378",
        depth_roll: "SpliceHack 1.2.0 src/bones.c:341-343",
        explore: "SpliceHack 1.2.0 src/bones.c:347",
        wizard_query: "SpliceHack 1.2.0 src/end.c:1539",
        no_bones_modes: "",
    },
    ..Release::BASE
};

/// SpliceHack's xlogfile lines: version 1.x and no field of its own
/// (CrecelleHack's 1.x lines carry `achieve2`, tried first).
static SPLICEHACK_XLOG: Family = Family {
    name: "splicehack",
    title: "SpliceHack",
    tells: "version 1.x without `achieve2`",
    sign: None,
    numbers: &[Numbers::major(1)],
    releases: &[SPLICEHACK_1_2],
};

// ---------------------------------------------------------------- NerfHack

/// NerfHack's `roles[]` (src/role.c:30-679): its Cartomancer's (:158)
/// monsters are gendered; the Archeologist's and the Wizard's nemeses are not
/// (src/monst.c:5728, :5937).
const NERFHACK_ROLES: [RoleStart; 15] = [
    role("Arc", 1, false),
    role("Bar", 0, false),
    role("Cav", 0, false),
    role("Car", 0, false),
    role("Hea", 0, false),
    role("Kni", 0, false),
    role("Mon", 0, false),
    role("Pri", 0, true),
    role("Rog", 0, false),
    role("Ran", 0, false),
    role("Sam", 0, false),
    role("Tou", 0, false),
    role("Und", 0, false),
    role("Val", 0, false),
    role("Wiz", 1, false),
];

const NERFHACK_START: Start37 = Start37 {
    title: "NerfHack",
    // o_init.c:86-92, :126 (286), :231.
    object_draws: 290,
    object_bounds: &[],
    roles: &NERFHACK_ROLES,
    victim: None,
    after_shuffle: 0,
};

fn nerfhack_start(inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
    NERFHACK_START.for_inputs(inputs)
}

/// NerfHack 2.2.0 (elunna/NerfHack `5194598f7`): 3.7's loader with 64
/// special levels (`LEV_LIMIT`, include/dgn_file.h:72; its file has 52).
pub(crate) static NERFHACK: Game = fork(
    Target::NerfHack,
    "NerfHack",
    Dialect::NerfHack,
    Rules {
        limits: Some(Limits {
            max_dungeons: 16,
            max_levels: 64,
            max_branches: 32,
        }),
        // `rn2`: `impossible()` and 0 unless released (src/rnd.c:97-101;
        // NH_STATUS_WIP, include/patchlevel.h:34).
        rn2_nonpositive: NonPositiveRn2::NoDraw,
        ..Rules::nethack_37()
    },
    &Start37::codes(&NERFHACK_ROLES),
    nerfhack_start,
    &NERFHACK_XLOG,
);

/// NerfHack 2.2.0 writes `version=2.2.0` (src/topten.c:347) and no
/// `rerolls=`; `deathdnum` is `u.uz.dnum` (:675).
const NERFHACK_2_2: Release = Release {
    name: "nerfhack-2.2",
    title: "NerfHack 2.2.0",
    target: Target::NerfHack,
    versions: &[(2, 2, 0, 0)],
    builtin: Some(Builtin {
        file: "nerfhack-2.2.lua (built in)",
        source: include_bytes!("../../../../corpus/nerfhack-2.2.lua"),
    }),
    cites: Cites {
        bones_ok: "NerfHack 2.2.0 src/end.c:1266",
        depth_roll: "NerfHack 2.2.0 src/bones.c:407-409",
        explore: "NerfHack 2.2.0 src/bones.c:413",
        wizard_query: "NerfHack 2.2.0 src/end.c:1436",
        no_bones_modes: "",
    },
    ..Release::BASE
};

/// NerfHack's xlogfile lines: version 2.x and no field of its own.
static NERFHACK_XLOG: Family = Family {
    name: "nerfhack",
    title: "NerfHack",
    tells: "version 2.x",
    sign: None,
    numbers: &[Numbers::major(2)],
    releases: &[NERFHACK_2_2],
};

// ------------------------------------------------------------ CrecelleHack

/// CrecelleHack's `roles[]` (src/role.c:30-623), with a role of its own,
/// the Grappler (:154).
const CRECELLEHACK_ROLES: [RoleStart; 14] = [
    role("Arc", 1, false),
    role("Bar", 0, false),
    role("Cav", 0, false),
    role("Grp", 0, false),
    role("Hea", 0, false),
    role("Kni", 0, false),
    role("Mon", 0, false),
    role("Pri", 0, true),
    role("Rog", 0, false),
    role("Ran", 0, false),
    role("Sam", 0, false),
    role("Tou", 0, false),
    role("Val", 0, false),
    role("Wiz", 1, false),
];

const CRECELLEHACK_START: Start37 = Start37 {
    title: "CrecelleHack",
    // o_init.c:89-95, :129, :234.
    object_draws: 229,
    object_bounds: &[],
    roles: &CRECELLEHACK_ROLES,
    // A Rogue hunts another role's nemesis (src/role.c:2140-2149, with
    // `flags.rogvictim = -1` from src/allmain.c:869): `randrole` again
    // while the role drawn is the Tourist (11), whose nemesis is the
    // Master of Thieves; then that nemesis's gender when it has none (the
    // Archeologist's Minion of Huhetotl, 0, and the Wizard's Dark One, 13;
    // src/role.c:2169).
    victim: Some((
        "Rog",
        Victim {
            roles: 14,
            redraw: 11,
            ungendered: 1 | 1 << 13,
        },
    )),
    after_shuffle: 0,
};

fn crecellehack_start(inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
    CRECELLEHACK_START.for_inputs(inputs)
}

/// CrecelleHack 1.5.1 (NullCGT/CrecelleHack `441dddd37`, on NetHack 5.0):
/// 3.7's loader; `The Maze` and `Temple of Moloch` are looked up after
/// loading (src/dungeon.c:1183-1189).
pub(crate) static CRECELLEHACK: Game = fork(
    Target::CrecelleHack,
    "CrecelleHack",
    Dialect::Vanilla,
    Rules {
        required_dungeons: &[
            "The Quest",
            "Sokoban",
            "The Gnomish Mines",
            "Vlad's Tower",
            "The Tutorial",
            "The Maze",
            "Temple of Moloch",
        ],
        // `rn2`: `impossible()` and 0 unless released (src/rnd.c:97-101;
        // NH_STATUS_POSTRELEASE, include/patchlevel.h:33).
        rn2_nonpositive: NonPositiveRn2::NoDraw,
        ..Rules::nethack_37()
    },
    &Start37::codes(&CRECELLEHACK_ROLES),
    crecellehack_start,
    &CRECELLEHACK_XLOG,
);

/// CrecelleHack 1.5.1 writes `version=1.5.1` (src/topten.c:347) and
/// `achieve2=` after `achieve=` (:368-370); `deathdnum` is `u.uz.dnum`
/// (:706).
const CRECELLEHACK_1_5: Release = Release {
    name: "crecellehack-1.5",
    title: "CrecelleHack 1.5.1",
    target: Target::CrecelleHack,
    versions: &[(1, 5, 1, 1)],
    builtin: Some(Builtin {
        file: "crecellehack-1.5.lua (built in)",
        source: include_bytes!("../../../../corpus/crecellehack-1.5.lua"),
    }),
    cites: Cites {
        bones_ok: "CrecelleHack 1.5.1 src/end.c:1218",
        depth_roll: "CrecelleHack 1.5.1 src/bones.c:392-394",
        explore: "CrecelleHack 1.5.1 src/bones.c:398",
        wizard_query: "CrecelleHack 1.5.1 src/end.c:1383",
        no_bones_modes: "",
    },
    ..Release::BASE
};

/// CrecelleHack's xlogfile lines: `achieve2=` after `achieve=` (1.5.1
/// src/topten.c:368-370).
static CRECELLEHACK_XLOG: Family = Family {
    name: "crecellehack",
    title: "CrecelleHack",
    tells: "`achieve2`",
    sign: Some(Sign::field(Seen::ACHIEVE2)),
    numbers: &[],
    releases: &[CRECELLEHACK_1_5],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::role_named;

    fn start(game: &Game, role: &str) -> Result<GameStart, LoadError> {
        let inputs = LoaderInputs {
            role: role_named(role),
            ..LoaderInputs::default()
        };
        (game.inputs.start_hook.unwrap())(&inputs)
    }

    #[test]
    fn each_fork_draws_its_own_start() {
        let x = start(&XNETHACK, "Arc").unwrap();
        assert_eq!((x.fixed, x.gender_rolls, x.after_shuffle), (201, 0, 7));
        let s = start(&SPLICEHACK, "Cartomancer").unwrap();
        assert_eq!((s.fixed, s.gender_rolls), (249, 2));
        let p = start(&SPLICEHACK, "Priest").unwrap().pantheon.unwrap();
        assert_eq!((p.roles, p.godless), (17, 1 << 9));
        let n = start(&NERFHACK, "Wiz").unwrap();
        assert_eq!((n.fixed, n.gender_rolls), (290, 1));
        let c = start(&CRECELLEHACK, "Rogue").unwrap();
        assert_eq!(c.fixed, 229);
        assert_eq!(c.victim.unwrap().redraw, 11);
        assert!(start(&CRECELLEHACK, "Valkyrie").unwrap().victim.is_none());
    }

    #[test]
    fn another_forks_role_is_refused_with_the_games_roles() {
        let e = start(&NERFHACK, "Convict").unwrap_err().to_string();
        assert!(e.contains("NerfHack has no role Convict"), "{e}");
        assert!(e.contains("Undead Slayer (Und)"), "{e}");
        assert!(start(&XNETHACK, "Grappler").is_err());
    }
}
