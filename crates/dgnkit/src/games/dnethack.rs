//! dNetHack (Chris-plus-alphanumericgibberish/dNAO, commit fb3ca46; facts
//! and file:line from `expected/variants/dnethack/README.md` and the
//! game's `src/dungeon.c`): 3.4.3's loader with alternate dungeons (one of
//! the same-named records is kept), a chance roll for every dungeon also
//! in wizard mode, the Quest's locate level drawn, a longer Quest for the
//! Drow Healer, more hard-wired names and larger tables with `int` level
//! fields.

use super::{Game, GameOption, InputSpec, LoaderInputs, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::{BonesPool, BonesRules, BranchRule};
use crate::dialect::Dialect;
use crate::loader::{DungeonChance, Fields, GameInputs, Limits, NonPositiveRn2, RangePanic, Rules};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;
use crate::xlog::identify::{Family, Sign};
use crate::xlog::release::{Builtin, Cites, Release};

/// The `chaos_quest` option's values in `flags.chaosvar` order
/// (`src/options.c:2759-2776`: random 0, temple 1, mithardir 2, mordor 3).
const CHAOS_QUEST: GameOption = GameOption {
    name: "chaos_quest",
    values: &["random", "temple", "mithardir", "mordor"],
    doc: "which Chaos Quest the game picks; honoured in wizard mode or in June only \
          (dungeon.c:694-698), the draw is made either way",
};

/// `is_june()` (`src/hacklib.c:662-666`): whether the month at game start
/// is June. Not a game option: the clock. dgnkit takes it as an option so
/// a June game can be reproduced; false unless given.
const IS_JUNE: GameOption = GameOption {
    name: "is_june",
    values: &["false", "true"],
    doc: "not a game option but the clock: whether the game starts in June \
          (hacklib.c:662-666); then chaos_quest holds outside wizard mode too",
};

/// What dNAO's loader reads: the nemesis Blibdoolpoolp (set by
/// `role_init()` only for a Drow Healer, `src/role.c:2086-2098`), the
/// `chaos_quest` option and the month.
fn read_inputs(inputs: &LoaderInputs, rules: &mut Rules) {
    let role = inputs.role.map(|r| r.code);
    let race = inputs.race.map(|r| r.code);
    let pick = |o: &GameOption| {
        let v = inputs.option_or_default(o);
        o.values
            .iter()
            .position(|x| x.eq_ignore_ascii_case(v))
            .unwrap_or(0) as u8
    };
    rules.inputs = GameInputs {
        quest_nemesis_blibdoolpoolp: role == Some("Hea") && race == Some("Dro"),
        chaosvar: pick(&CHAOS_QUEST),
        is_june: pick(&IS_JUNE) == 1,
    };
}

/// dNAO's `init_dungeons()` (`src/dungeon.c:819-1100`).
pub(crate) const RULES: Rules = Rules {
    // Level fields are `int` (`include/dungeon.h:64-69`); `depth()` still
    // returns an `schar`.
    fields: Fields::Ints,
    // `dname_to_dnum` calls after loading (`:1082-1092`).
    required_dungeons: &[
        "The Quest",
        "Neutral Quest",
        "The Lost Cities",
        "Chaos Quest",
        "Law Quest",
        "Sokoban",
        "The Gnomish Mines",
        "Vlad's Tower",
        "The Lost Tomb",
        "The Sunless Sea",
        "The Temple of Moloch",
    ],
    // MAXDUNGEON 32, MAXLEVEL 64 (`include/global.h:357-358`), LEV_LIMIT
    // 150, BRANCH_LIMIT 32 (`include/dgn_file.h:76-77`).
    limits: Some(Limits {
        max_dungeons: 32,
        max_levels: 150,
        max_branches: 32,
    }),
    maxlevel: 64,
    maxdungeon: 32,
    // `chance <= rn2(100)` for every kept record (`:884-885`), in wizard
    // mode too.
    dungeon_chance: DungeonChance::Every,
    wizard_skips_dungeon_chance: false,
    // `select_alternate` (`:668-711`).
    alternates: true,
    // Quest minimum (`:910-916`) and locate level (`:1008-1020`).
    quest_locate: true,
    // `rn2`: `if (x <= 0) x = 1;` before `RND(x)` (`src/rnd.c:51`): one
    // draw, 0. (Its dgn_comp rejects a negative size's random part,
    // `util/dgn_comp.y:107`, `:535-539`; a branch's is still taken.)
    rn2_nonpositive: NonPositiveRn2::OneDrawZero,
    // `level_range` (`:358`, `:360`).
    range_panic: RangePanic::Split,
    report_inputs: true,
    // The ENTRY clamp is 3.6's (`:950-953`).
    ..Rules::nethack_36()
};

/// dNAO's `no_bones_level_core()` (`src/bones.c:22-51`) has no bottom and
/// no branch-below-level-1 rule; it refuses the Madman's home (the Quest
/// level above the locate level, `:35`), a branch level whose other end is
/// in the Quest (`:37`) or is itself a no-bones level (`:39`, one level of
/// recursion), besides vanilla's marker and vibrating-square rules.
/// `can_make_bones()` (`:406-428`) has no magic-portal test. File names
/// (`src/files.c:686-718`): a branch level adds `.` + the other end's
/// dungeon marker and role code (`:703-709`); BONES_POOL (`config.h:482`)
/// ends them with `.` + `u.ubirthday % 10` (`:711-713`).
const BONES: BonesRules = BonesRules {
    bottom: false,
    branch: BranchRule::OtherEnd,
    madman_home: Some("Mad"),
    magic_portal: false,
    portal_levels: &[],
    pool: BonesPool::BirthSuffix(10),
    branch_in_name: true,
    notes: &["loading also needs the game option `bones` (on by default; bones.c:718)"],
    ..BonesRules::VANILLA
};

pub(crate) static GAME: Game = Game {
    target: Target::DNetHack,
    title: "dNetHack",
    dialect: Dialect::Dnao,
    binary: Some(BinaryFormat::DNetHack),
    rng: RngKind::Glibc,
    rules: RULES,
    bones: BONES,
    overview: OverviewStyle::DNetHack,
    loader: LoaderProof::Proven(
        "variants_parity::dnethack_layouts_match: every line of expected/variants/dnethack/layouts.*, draw for draw",
    ),
    inputs: InputSpec {
        role: Some("none (any role but a Drow Healer gives the same layouts)"),
        race: Some("none (only race Drow with role Healer changes the Quest)"),
        roles: &[],
        options: &[CHAOS_QUEST, IS_JUNE],
        game_start: None,
        rules_hook: Some(read_inputs),
        start_hook: None,
        character: None,
    },
    undefined_flags: &[],
    reads_lua: false,
    xlog: Some(&XLOG),
    path_words: &["dnethack", "dnao"],
    rng_log: None,
};

/// dNetHack 3.22.0 (compat-3.22.0 b1f1c4d4c): the loader is 3.23.0's (its
/// src/dungeon.c ranges are identical) and so are the bones rules but for
/// the Madman's home (3.23.0 src/bones.c:35), which needs a role.
const DNETHACK_3_22: Release = Release {
    name: "dnethack-3.22",
    title: "dNetHack 3.22.0",
    target: Target::DNetHack,
    prefix: "DNH-",
    versions: &[(3, 22, 0, 0)],
    builtin: Some(Builtin {
        file: "dnethack-3.22.def (built in)",
        source: include_bytes!("../../../../corpus/dnethack-3.22.def"),
    }),
    cites: Cites {
        bones_ok: "dNAO 3.22.0 src/end.c:1282",
        depth_roll: "dNAO 3.22.0 src/bones.c:391-395",
        explore: "dNAO 3.22.0 src/bones.c:399",
        wizard_query: "dNAO 3.22.0 src/end.c:1399",
        no_bones_modes: "",
    },
    ..Release::BASE
};

/// dNetHack (dNAO) writes `version=DNH-3.23.0` (src/topten.c:286) and
/// flags with 0x1 wizard, 0x2 explore (src/topten.c `encode_xlogflags`).
/// Its dat/dungeon.def last changed in the 3.23.0 development
/// (commit 5895e0b3c, after "This is now 3.23.0").
const DNETHACK: Release = Release {
    name: "dnethack-3.23",
    title: "dNetHack 3.23.0",
    target: Target::DNetHack,
    prefix: "DNH-",
    versions: &[(3, 23, 0, 0)],
    builtin: Some(Builtin {
        file: "dnethack-3.23.def (built in)",
        source: include_bytes!("../../../../corpus/dnethack-3.23.def"),
    }),
    cites: Cites {
        bones_ok: "dNAO 3.23.0 src/end.c:1332",
        depth_roll: "dNAO 3.23.0 src/bones.c:418-422",
        explore: "dNAO 3.23.0 src/bones.c:426",
        wizard_query: "dNAO 3.23.0 src/end.c:1449",
        no_bones_modes: "",
    },
    ..Release::BASE
};

/// dNetHack's xlogfile lines: every release writes `DNH-` before its
/// numbers (src/topten.c:286).
pub(crate) static XLOG: Family = Family {
    name: "dnethack",
    title: "dNetHack",
    tells: "version `DNH-`",
    sign: Some(Sign::Prefix("DNH-")),
    numbers: &[],
    releases: &[DNETHACK_3_22, DNETHACK],
};
