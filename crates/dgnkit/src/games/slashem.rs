//! SLASH'EM (k21971/SlashEM, commit aae9ef2, version 0.0.8E0F2; facts and
//! file:line from `expected/variants/slashem/README.md` and the game's
//! `src/dungeon.c`): 3.4.3's loader with the entry level taken from the
//! branch, branches back up to earlier dungeons, level chance rolls in
//! wizard mode too, larger tables, and level 1 of every dungeon without
//! bones.

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::{BonesRules, LevelOneRule};
use crate::dialect::Dialect;
use crate::loader::{EntrySource, Limits, NonPositiveRn2, Rules};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;
use crate::xlog::identify::{Family, Numbers};
use crate::xlog::release::{Builtin, Cites, Release};

/// SLASH'EM's `init_dungeons()` (`src/dungeon.c:648-925`).
pub(crate) const RULES: Rules = Rules {
    // `dname_to_dnum` calls after loading (`:886-890`).
    required_dungeons: &[
        "The Quest",
        "Sokoban",
        "The Gnomish Mines",
        "The Spider Caves",
        "Vlad's Tower",
    ],
    // MAXDUNGEON 32, MAXLEVEL 50 (`include/global.h:410-411`), LEV_LIMIT
    // 99, BRANCH_LIMIT 32 (`include/dgn_file.h:73-74`).
    limits: Some(Limits {
        max_dungeons: 32,
        max_levels: 99,
        max_branches: 32,
    }),
    maxlevel: 50,
    maxdungeon: 32,
    // `if (!wizard)` commented out before the level chance roll
    // (`:467-470`); the dungeon's is still skipped (`:710-712`).
    wizard_skips_level_chance: false,
    // `dungeons[i].entry_lev` from the first branch into it (`:754-769`),
    // computed in `add_branch` (`:389-427`).
    entry: EntrySource::FirstBranch,
    // `pd.tmpparent[cb] = i` (`:840`) instead of `parent_dnum`'s search.
    parent_by_name: false,
    // Branch records naming an existing dungeon are added at once
    // (`:836-846`).
    back_branches: true,
    // "init_dungeons: too many levels" (`:745-747`).
    ledger_limit: Some(127),
    // 3.4.3's `rn2`: `(int)(Rand() % (long)(x))` (`src/rnd.c:12`), no
    // guard (`:25-34`; `DEBUG` is off, `include/config.h:11`), `Rand()`
    // being `random()` (`include/unixconf.h:390`).
    rn2_nonpositive: NonPositiveRn2::OneDrawModulo,
    ..Rules::nethack_343()
};

/// `no_bones_level()` is 3.4.3's plus `|| (lev->dlevel < 2)`, after the
/// branch rule (`src/bones.c:18-36`, `:32`): level 1 of every dungeon.
/// `can_make_bones()` keeps 3.4.3's magic-portal test and depth roll
/// (`bones.c:175-210`); NO_BONES is off by default (configure
/// `--enable-no-bones`). The portals are vanilla's (`dat/yendor.des:166`,
/// `:236`), the file names 3.4.3's (`src/files.c:670-688`).
const BONES: BonesRules = BonesRules {
    level_one: LevelOneRule::EveryDungeon,
    ..BonesRules::VANILLA
};

pub(crate) static GAME: Game = Game {
    target: Target::SlashEm,
    title: "SLASH'EM",
    dialect: Dialect::Slashem,
    binary: Some(BinaryFormat::SlashEm),
    rng: RngKind::Glibc,
    rules: RULES,
    bones: BONES,
    overview: OverviewStyle::SlashEm,
    loader: LoaderProof::Proven(
        "variants_parity::slashem_layouts_match: every line of expected/variants/slashem/layouts.*, draw for draw",
    ),
    inputs: InputSpec::NONE,
    // REINCARNATION is off in SLASH'EM's default build (configure
    // `--enable-reincarnation` defaults to no; `include/config.h:385`).
    undefined_flags: &["REINCARNATION"],
    reads_lua: false,
    xlog: Some(&XLOG),
    path_words: &["slashem"],
    rng_log: None,
};

/// SLASH'EM writes a bare `version=0.0.8` (src/topten.c:386, 459) and a
/// `mode` field (src/topten.c:530). Its dat/dungeon.def has not changed
/// since 0.0.7E1 (2003); dgnkit's SLASH'EM target is the 0.0.8 build
/// without REINCARNATION, so only 0.0.8 lines are taken (0.0.7 servers
/// may have built it with the Rogue level).
const SLASHEM: Release = Release {
    name: "slashem-0.0.8",
    title: "SLASH'EM 0.0.8",
    target: Target::SlashEm,
    versions: &[(0, 0, 8, 8)],
    builtin: Some(Builtin {
        file: "slashem-0.0.8.def (built in)",
        source: include_bytes!("../../../../corpus/slashem-0.0.8.def"),
    }),
    cites: Cites {
        bones_ok: "SLASH'EM 0.0.8E0F2 src/end.c:895",
        depth_roll: "SLASH'EM 0.0.8E0F2 src/bones.c:199-204",
        explore: "SLASH'EM 0.0.8E0F2 src/bones.c:208",
        wizard_query: "SLASH'EM 0.0.8E0F2 src/end.c:1006",
        no_bones_modes: "",
    },
    ..Release::BASE
};

/// SLASH'EM's xlogfile lines: a bare 0.0.x version and no field of its
/// own.
pub(crate) static XLOG: Family = Family {
    name: "slashem",
    title: "SLASH'EM",
    tells: "version 0.0.x",
    sign: None,
    numbers: &[Numbers::exact(0, 0)],
    releases: &[SLASHEM],
};
