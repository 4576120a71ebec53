//! Which game and release wrote an xlogfile line, and what we know of it:
//! the target whose loader and rules apply, the built-in dungeon
//! description of that release, and where its source decides bones.
//!
//! A line names its game by what it carries ([`super::identify`]) and its
//! release in `version`. A release dgnkit has no description of is
//! answered with the nearest release of the same game, and a game dgnkit
//! does not describe with the release it was built from; either way the
//! line says so ([`Answered::note`]). A game whose loader dgnkit does not
//! reproduce is an error for that line, never answered silently.

use super::ending::Mode;
use super::identify::{identify, By, Family, Seen, Stranger, Writer, STRANGERS};
use crate::bones::rules::BonesRules;
use crate::options::Target;

/// Where a release's source decides whether a death leaves bones (file:line
/// of that release; for 3.6.1-3.6.7, of 3.6.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cites {
    /// `bones_ok = (how < GENOCIDED) && can_make_bones();` in `done()`.
    pub bones_ok: &'static str,
    /// `can_make_bones()`: the depth roll `rn2(1 + depth / 4)`, skipped in
    /// wizard mode.
    pub depth_roll: &'static str,
    /// `can_make_bones()`: no bones in explore mode.
    pub explore: &'static str,
    /// `done()`: in wizard mode the game asks "Save bones?".
    pub wizard_query: &'static str,
    /// `can_make_bones()`: the game's own modes without bones (empty when
    /// it has none).
    pub no_bones_modes: &'static str,
}

/// The dungeon description dgnkit ships for a release.
#[derive(PartialEq, Eq)]
pub struct Builtin {
    /// Its name for messages.
    pub file: &'static str,
    pub source: &'static [u8],
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.file)
    }
}

/// One release (or run of releases with the same dungeon and rules).
#[derive(Debug, PartialEq, Eq)]
pub struct Release {
    /// Stable name, e.g. `nethack-3.6.0`.
    pub name: &'static str,
    /// The game as users say it.
    pub title: &'static str,
    pub target: Target,
    /// What the game writes before `major.minor.patch` in `version`
    /// (UnNetHack's `UNH-`, dNetHack's `DNH-`).
    pub prefix: &'static str,
    /// `version` values covered: `(major, minor, first patch, last patch)`
    /// runs.
    pub versions: &'static [(u32, u32, u32, u32)],
    /// The game; [`super::identify`] tells it from the line.
    pub family: Family,
    /// The built-in dungeon description; `None`: lines need `--file`.
    pub builtin: Option<Builtin>,
    pub cites: Cites,
    /// The `flags` field's bits for wizard and explore mode, when the
    /// release writes it (3.6.0 and later: src/topten.c `encodexlogflags`).
    pub mode_flags: Option<(u64, u64)>,
    /// `flags` bits of the game's own modes in which `can_make_bones()`
    /// refuses.
    pub no_bones_flags: u64,
    /// Values of the `mode` field beyond normal/explore/debug, and what
    /// they mean for bones.
    pub modes: &'static [(&'static str, Mode)],
    /// The release's own bones rules where they are not the game's
    /// newest (its target's): older releases placed other magic portals.
    pub bones: Option<&'static BonesRules>,
    /// The separator of the release's lines, where the same version was
    /// written by builds with different dungeons that the separator tells
    /// apart (UnNetHack switched to tabs on 2019-01-09).
    pub separator: Option<u8>,
}

/// The `flags` bits NetHack 3.6 and 3.7 write (`encodexlogflags`), as do
/// the variants that took the xlogfile patch: 0x1 wizard, 0x2 explore.
const WIZARD_EXPLORE: Option<(u64, u64)> = Some((1, 2));

/// What most releases share; each release states the rest.
const BASE: Release = Release {
    name: "",
    title: "",
    family: Family::NetHack,
    target: Target::NetHack36,
    prefix: "",
    versions: &[],
    builtin: None,
    cites: Cites {
        bones_ok: "",
        depth_roll: "",
        explore: "",
        wizard_query: "",
        no_bones_modes: "",
    },
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
    bones: None,
    separator: None,
};

const NH343: Release = Release {
    name: "nethack-3.4.3",
    title: "NetHack 3.4.3",
    target: Target::NetHack343,
    // dat/dungeon.def last changed in 3.4.0.
    versions: &[(3, 4, 0, 3)],
    family: Family::NetHack,
    builtin: Some(Builtin {
        file: "nethack-3.4.3.def (built in)",
        source: include_bytes!("../../../../corpus/nethack-3.4.3.def"),
    }),
    cites: Cites {
        bones_ok: "NetHack 3.4.3 src/end.c:639",
        depth_roll: "NetHack 3.4.3 src/bones.c:179-184",
        explore: "NetHack 3.4.3 src/bones.c:187",
        wizard_query: "NetHack 3.4.3 src/end.c:728",
        no_bones_modes: "",
    },
    // 3.4.3 itself writes no xlogfile. NAO's build, whose xlogfile patch
    // the servers share, writes `flags` with 0x1 wizard and 0x2 explore
    // (khor658/nh343-nao 0c4d99b src/topten.c:309, `encode_xlogflags`
    // :929-945); lines without it leave the mode unrecorded.
    mode_flags: WIZARD_EXPLORE,
    ..BASE
};

const NH360: Release = Release {
    name: "nethack-3.6.0",
    title: "NetHack 3.6.0",
    target: Target::NetHack36,
    versions: &[(3, 6, 0, 0)],
    family: Family::NetHack,
    builtin: Some(Builtin {
        file: "nethack-3.6.0.def (built in)",
        source: include_bytes!("../../../../corpus/nethack-3.6.0.def"),
    }),
    cites: Cites {
        bones_ok: "NetHack 3.6.0 src/end.c:974",
        depth_roll: "NetHack 3.6.0 src/bones.c:315-317",
        explore: "NetHack 3.6.0 src/bones.c:321",
        wizard_query: "NetHack 3.6.0 src/end.c:1086",
        no_bones_modes: "",
    },
    ..BASE
};

const NH36: Release = Release {
    name: "nethack-3.6",
    title: "NetHack 3.6.1-3.6.7",
    target: Target::NetHack36,
    versions: &[(3, 6, 1, 7)],
    family: Family::NetHack,
    builtin: Some(Builtin {
        file: "nethack-3.6.def (built in)",
        source: include_bytes!("../../../../corpus/nethack-3.6.def"),
    }),
    cites: Cites {
        bones_ok: "NetHack 3.6.7 src/end.c:1266",
        depth_roll: "NetHack 3.6.7 src/bones.c:343-345",
        explore: "NetHack 3.6.7 src/bones.c:349",
        wizard_query: "NetHack 3.6.7 src/end.c:1422",
        no_bones_modes: "",
    },
    ..BASE
};

/// NetHack 3.7.0 (work in progress; the tree dgnkit's 3.7 target follows)
/// and 5.0.0, its release (16ff59115, 2026-05-02), whose dat/dungeon.lua
/// differs from 3.7's at 99b893c78 only in a comment (blob 7550d1317).
/// Servers built 3.7.0 from git for years: lines from before 2023-02 were
/// written without the Tutorial (dungeon 8, which no line ends in) and,
/// before 2020-01-24 (0166239a2), with bones on Mines' End; the line does
/// not tell the build, so they share this answer.
/// Its xlogfile adds `achieveX`, `conductX`, `gold`, `wish_cnt`,
/// `arti_wish_cnt` and `bones` (src/topten.c:369-385) and a third flags bit,
/// 0x4 "no bones file was loaded" (src/topten.c:391-404), which says
/// nothing about the bones this game leaves. The `bones` option
/// (src/bones.c:358) is not recorded: it is taken as on, its default.
const NH37: Release = Release {
    name: "nethack-3.7",
    title: "NetHack 3.7.0/5.0.0",
    target: Target::NetHack37,
    versions: &[(3, 7, 0, 0), (5, 0, 0, 0)],
    family: Family::NetHack,
    builtin: Some(Builtin {
        file: "nethack-3.7.lua (built in)",
        source: include_bytes!("../../../../corpus/nethack-3.7.lua"),
    }),
    cites: Cites {
        bones_ok: "NetHack 3.7 src/end.c:1190",
        depth_roll: "NetHack 3.7 src/bones.c:374-377",
        explore: "NetHack 3.7 src/bones.c:380",
        wizard_query: "NetHack 3.7 src/end.c:1351",
        no_bones_modes: "",
    },
    ..BASE
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
    target: Target::UnNetHack,
    prefix: "UNH-",
    versions: &[(6, 0, 11, 15)],
    family: Family::UnNetHack,
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
    modes: &[
        ("hah", Mode::Normal),
        ("hoh", Mode::Normal),
        ("marathon", Mode::Normal),
    ],
    ..BASE
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
    family: Family::DNetHack,
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
    ..BASE
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
    family: Family::SlashEm,
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
    ..BASE
};

/// EvilHack writes `version=0.9.3` (src/topten.c:378); its flags keep 0x1
/// wizard and 0x2 explore, and the number of bones files loaded in bits
/// 8-15 (src/topten.c `encodexlogflags`). dat/dungeon.def is the same from
/// tag v0.9.0 to 0.9.3 (it differs at v0.8.4).
const EVILHACK: Release = Release {
    name: "evilhack-0.9",
    title: "EvilHack 0.9.0-0.9.3",
    target: Target::EvilHack,
    versions: &[(0, 9, 0, 3)],
    family: Family::EvilHack,
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
    ..BASE
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
    target: Target::GnollHack,
    versions: &[(4, 1, 2, 3), (4, 2, 0, 0), (4, 3, 0, 0)],
    family: Family::GnollHack,
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
    no_bones_flags: 0x8 | 0x10 | 0x20,
    modes: &[
        ("casual", Mode::NoBones),
        ("reloadable", Mode::NoBones),
        ("modern", Mode::NoBones),
    ],
    ..BASE
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
    family: Family::DynaHack,
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
    ..BASE
};

/// The tournament's bones rules are its base's: `can_make_bones()` and
/// `no_bones_level()` are 3.6.7's in every year 2018-2025 and 5.0.0's in
/// 2026 (tnnt-devteam/tnnt src/bones.c). Its loader is its base's too: the
/// tournament adds level names only (src/dungeon.c `level_map`), and
/// `tnnt_check_castle_rush()` runs on arrival, not in the loader. Its
/// lines carry `tnntachieve0`.. after `flags` (2018 src/topten.c:381;
/// 2025 :382-384) and, from 2019, a leading `server=` (2025 :351).
const TNNT_2018: Release = Release {
    name: "tnnt-2018",
    title: "TNNT 2018",
    family: Family::Tnnt,
    target: Target::NetHack36,
    versions: &[(3, 6, 2, 2)],
    builtin: Some(Builtin {
        file: "tnnt-2018.def (built in)",
        source: include_bytes!("../../../../corpus/tnnt-2018.def"),
    }),
    cites: Cites {
        bones_ok: "TNNT 2018 (2072b30f8) src/end.c:1232",
        depth_roll: "TNNT 2018 (2072b30f8) src/bones.c:326-329",
        explore: "TNNT 2018 (2072b30f8) src/bones.c:332",
        wizard_query: "TNNT 2018 (2072b30f8) src/end.c:1366",
        no_bones_modes: "",
    },
    ..BASE
};

const TNNT_2019: Release = Release {
    name: "tnnt-2019",
    title: "TNNT 2019-2022",
    family: Family::Tnnt,
    target: Target::NetHack36,
    versions: &[(3, 6, 3, 3), (3, 6, 6, 6)],
    builtin: Some(Builtin {
        file: "tnnt-2019.def (built in)",
        source: include_bytes!("../../../../corpus/tnnt-2019.def"),
    }),
    cites: Cites {
        bones_ok: "TNNT 2022 (e40fdd76b) src/end.c:1333",
        depth_roll: "TNNT 2022 (e40fdd76b) src/bones.c:361-364",
        explore: "TNNT 2022 (e40fdd76b) src/bones.c:367",
        wizard_query: "TNNT 2022 (e40fdd76b) src/end.c:1489",
        no_bones_modes: "",
    },
    ..BASE
};

const TNNT_2023: Release = Release {
    name: "tnnt-2023",
    title: "TNNT 2023-2025",
    family: Family::Tnnt,
    target: Target::NetHack36,
    versions: &[(3, 6, 7, 7)],
    builtin: Some(Builtin {
        file: "tnnt-2023.def (built in)",
        source: include_bytes!("../../../../corpus/tnnt-2023.def"),
    }),
    cites: Cites {
        bones_ok: "TNNT 2025 (d488e4bff) src/end.c:1338",
        depth_roll: "TNNT 2025 (d488e4bff) src/bones.c:376-379",
        explore: "TNNT 2025 (d488e4bff) src/bones.c:382",
        wizard_query: "TNNT 2025 (d488e4bff) src/end.c:1495",
        no_bones_modes: "",
    },
    ..BASE
};

/// TNNT on NetHack 5.0 (the merge ad6e950f5, 2026-06-11): 3.7's xlogfile
/// fields, `rerolls`, then `tnntachieve0`.. (src/topten.c:341-393).
const TNNT_2026: Release = Release {
    name: "tnnt-2026",
    title: "TNNT 2026",
    family: Family::Tnnt,
    target: Target::NetHack37,
    versions: &[(5, 0, 0, 0)],
    builtin: Some(Builtin {
        file: "tnnt-2026.lua (built in)",
        source: include_bytes!("../../../../corpus/tnnt-2026.lua"),
    }),
    cites: Cites {
        bones_ok: "TNNT 2026 (792cae67c) src/end.c:1261",
        depth_roll: "TNNT 2026 (792cae67c) src/bones.c:409-412",
        explore: "TNNT 2026 (792cae67c) src/bones.c:415",
        wizard_query: "TNNT 2026 (792cae67c) src/end.c:1425",
        no_bones_modes: "",
    },
    ..BASE
};

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
    family: Family::UnNetHack,
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
    bones: Some(&crate::games::unnethack::BONES_5),
    separator: Some(b':'),
    ..BASE
};

/// UnNetHack 6.0.0-6.0.6, and the 5.3.2 builds that wrote tabs (the 5.3.2
/// tag already has this dungeon).
const UNNETHACK_6_0_0: Release = Release {
    name: "unnethack-6.0.0",
    title: "UnNetHack 6.0.0-6.0.6",
    family: Family::UnNetHack,
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
    modes: &[
        ("hah", Mode::Normal),
        ("hoh", Mode::Normal),
        ("marathon", Mode::Normal),
    ],
    bones: Some(&crate::games::unnethack::BONES_5),
    separator: Some(b'\t'),
    ..BASE
};

/// UnNetHack 6.0.7-6.0.10: the Gehennom redesign (c17310004, 2022-12-16)
/// adds "The Wizard's Tower" as dungeon 12, so the Planes are 13 and the
/// Advent Calendar 14.
const UNNETHACK_6_0_7: Release = Release {
    name: "unnethack-6.0.7",
    title: "UnNetHack 6.0.7-6.0.10",
    family: Family::UnNetHack,
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
    modes: &[
        ("hah", Mode::Normal),
        ("hoh", Mode::Normal),
        ("marathon", Mode::Normal),
    ],
    bones: Some(&crate::games::unnethack::BONES_6_0_7),
    ..BASE
};

/// dNetHack 3.22.0 (compat-3.22.0 b1f1c4d4c): the loader is 3.23.0's (its
/// src/dungeon.c ranges are identical) and so are the bones rules but for
/// the Madman's home (3.23.0 src/bones.c:35), which needs a role.
const DNETHACK_3_22: Release = Release {
    name: "dnethack-3.22",
    title: "dNetHack 3.22.0",
    family: Family::DNetHack,
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
    ..BASE
};

/// EvilHack's releases before 0.9: the loader draws as 0.9.3's in each
/// (their src/dungeon.c differs in flags bits and level names only), the
/// dungeon order changed (Ice Queen 0.5, Vecna 0.7, Goblin Town 0.8.0,
/// Purgatory 0.8.1, the Hidden Dungeon and the Wizard's Tower 0.8.3) and
/// so did the magic portals ([`crate::games::evilhack::BONES_0_5`]).
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
        family: Family::EvilHack,
        target: Target::EvilHack,
        versions,
        builtin: Some(builtin),
        cites,
        bones,
        ..BASE
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
    Some(&crate::games::evilhack::BONES_0_5),
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
    Some(&crate::games::evilhack::BONES_0_5),
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
    Some(&crate::games::evilhack::BONES_0_5),
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
    Some(&crate::games::evilhack::BONES_0_5),
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
    Some(&crate::games::evilhack::BONES_0_8_1),
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

/// GnollHack 4.1.0 and 4.1.1 as built from 2022-08-05 to 2023-06-26, with
/// no `edit` field. Earlier 4.1.0 builds had other dungeons, which a line
/// does not tell. Their `can_make_bones()` is 3.6's order (4.1.1
/// src/bones.c:406-436); outside wizard mode it refuses where 4.3.0's does.
const GNOLLHACK_4_1_0: Release = Release {
    name: "gnollhack-4.1.0",
    title: "GnollHack 4.1.0-4.1.1",
    family: Family::GnollHack,
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
    no_bones_flags: 0x8 | 0x10 | 0x20,
    modes: &[
        ("casual", Mode::NoBones),
        ("reloadable", Mode::NoBones),
        ("modern", Mode::NoBones),
    ],
    ..BASE
};

/// Every release dgn xlog answers for, in a fixed order (their index is
/// [`Release::id`]).
/// xNetHack 9.1 writes `version=9.1.0` (include/patchlevel.h:10-15,
/// src/topten.c:348) and `polyinit=` after `rerolls=` in every line
/// (src/topten.c:398-399). `deathdnum` is `u.uz.dnum` (:749): every dungeon
/// of its file always exists, so it is the file's dungeon order. Its depth
/// roll moved from `can_make_bones()` into `done()` (src/end.c:1531-1535),
/// with the same odds outside wizard mode.
const XNETHACK: Release = Release {
    name: "xnethack-9.1",
    title: "xNetHack 9.1.0",
    target: Target::XNetHack,
    versions: &[(9, 1, 0, 0)],
    family: Family::XNetHack,
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
    ..BASE
};

/// SpliceHack 1.2.0 writes `version=1.2.0` (include/patchlevel.h, EDITLEVEL
/// 39; src/topten.c:355) and no `rerolls=`; `deathdnum` is `u.uz.dnum`
/// (:680), the file's dungeon order.
const SPLICEHACK: Release = Release {
    name: "splicehack-1.2",
    title: "SpliceHack 1.2.0",
    target: Target::SpliceHack,
    versions: &[(1, 2, 0, 0)],
    family: Family::SpliceHack,
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
    ..BASE
};

/// NerfHack 2.2.0 writes `version=2.2.0` (src/topten.c:347) and no
/// `rerolls=`; `deathdnum` is `u.uz.dnum` (:675).
const NERFHACK: Release = Release {
    name: "nerfhack-2.2",
    title: "NerfHack 2.2.0",
    target: Target::NerfHack,
    versions: &[(2, 2, 0, 0)],
    family: Family::NerfHack,
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
    ..BASE
};

/// CrecelleHack 1.5.1 writes `version=1.5.1` (src/topten.c:347) and
/// `achieve2=` after `achieve=` (:368-370); `deathdnum` is `u.uz.dnum`
/// (:706).
const CRECELLEHACK: Release = Release {
    name: "crecellehack-1.5",
    title: "CrecelleHack 1.5.1",
    target: Target::CrecelleHack,
    versions: &[(1, 5, 1, 1)],
    family: Family::CrecelleHack,
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
    ..BASE
};

pub static RELEASES: &[&Release] = &[
    &NH343,
    &NH360,
    &NH36,
    &NH37,
    &UNNETHACK_5,
    &UNNETHACK_6_0_0,
    &UNNETHACK_6_0_7,
    &UNNETHACK,
    &DNETHACK_3_22,
    &DNETHACK,
    &SLASHEM,
    &EVILHACK_0_5,
    &EVILHACK_0_6,
    &EVILHACK_0_7,
    &EVILHACK_0_8_0,
    &EVILHACK_0_8_1,
    &EVILHACK_0_8_3,
    &EVILHACK,
    &GNOLLHACK_4_1_0,
    &GNOLLHACK,
    &DYNAHACK,
    &XNETHACK,
    &SPLICEHACK,
    &NERFHACK,
    &CRECELLEHACK,
    &TNNT_2018,
    &TNNT_2019,
    &TNNT_2023,
    &TNNT_2026,
];

impl Release {
    /// The release's index in [`RELEASES`].
    pub fn id(&self) -> usize {
        // Every release a line gets comes from RELEASES: the address finds
        // it without comparing names (this runs several times per line).
        RELEASES
            .iter()
            .position(|r| std::ptr::eq(*r, self))
            .or_else(|| RELEASES.iter().position(|r| r.name == self.name))
            .unwrap_or(0)
    }

    /// The versions covered, for messages (`UNH-6.0.11-6.0.15`).
    pub fn version_list(&self) -> String {
        self.versions
            .iter()
            .map(|&(ma, mi, lo, hi)| {
                if lo == hi {
                    format!("{}{ma}.{mi}.{lo}", self.prefix)
                } else {
                    format!("{}{ma}.{mi}.{lo}-{ma}.{mi}.{hi}", self.prefix)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `major.minor.patch` of a `version` value.
pub fn parse_version(v: &[u8]) -> Option<(u32, u32, u32)> {
    let mut parts = v.split(|&b| b == b'.');
    let mut num = || -> Option<u32> {
        let p = parts.next()?;
        if p.is_empty() || p.len() > 4 || !p.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(p).ok()?.parse().ok()
    };
    let v = (num()?, num()?, num()?);
    parts.next().is_none().then_some(v)
}

/// What `--game` names: a game (its release is then chosen by `version`),
/// one release (every line answered with it), or a game dgnkit does not
/// describe (answered with the release it was built from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Family(Family),
    Release(&'static Release),
    Stranger(&'static Stranger),
}

impl Choice {
    pub fn parse(s: &str) -> Result<Choice, String> {
        if let Some(f) = Family::by_name(s) {
            return Ok(Choice::Family(f));
        }
        if let Some(r) = RELEASES.iter().find(|r| r.name.eq_ignore_ascii_case(s)) {
            return Ok(Choice::Release(r));
        }
        if let Some(g) = STRANGERS.iter().find(|g| g.name.eq_ignore_ascii_case(s)) {
            return Ok(Choice::Stranger(g));
        }
        Err(format!(
            "unknown game `{s}`: give a game ({}), a release ({}) or a game answered with another's description ({})",
            Family::ALL.map(Family::name).join(", "),
            RELEASES.iter().map(|r| r.name).collect::<Vec<_>>().join(", "),
            STRANGERS.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
        ))
    }
}

/// The release that answers a line.
#[derive(Debug, PartialEq, Eq)]
pub struct Answered {
    pub release: &'static Release,
    /// When the release is not the line's own: whose line it is and whose
    /// description answers it ("answered with release X's description").
    pub note: Option<String>,
}

/// The release named `name`.
pub fn by_name(name: &str) -> Option<&'static Release> {
    RELEASES.iter().copied().find(|r| r.name == name)
}

/// The newest release of the game `target` lays out, whose built-in
/// description `dgn layout` and the editor take for that target.
pub fn newest_of(target: Target) -> Option<&'static Release> {
    let own = Family::of_target(target)?;
    RELEASES
        .iter()
        .rev()
        .copied()
        .find(|r| r.target == target && r.family == own)
}

fn version_key(v: (u32, u32, u32)) -> u64 {
    (u64::from(v.0) << 40) | (u64::from(v.1) << 20) | u64::from(v.2)
}

/// The release of `family` covering `v`, or else the nearest (the later one
/// on a tie): `(release, covered)`.
fn pick(family: Family, v: (u32, u32, u32), tab: bool) -> Option<(&'static Release, bool)> {
    let key = version_key(v);
    let sep = if tab { b'\t' } else { b':' };
    RELEASES
        .iter()
        .copied()
        .filter(|r| r.family == family && r.separator.is_none_or(|s| s == sep))
        .map(|r| {
            let distance = r
                .versions
                .iter()
                .map(|&(ma, mi, lo, hi)| {
                    let (lo, hi) = (version_key((ma, mi, lo)), version_key((ma, mi, hi)));
                    if key < lo {
                        lo - key
                    } else {
                        key.saturating_sub(hi)
                    }
                })
                .min()
                .unwrap_or(u64::MAX);
            (r, distance)
        })
        .fold(None, |best: Option<(&Release, u64)>, (r, d)| match best {
            Some((_, bd)) if bd < d => best,
            _ => Some((r, d)),
        })
        .map(|(r, d)| (r, d == 0))
}

/// The release that answers a line with this `version` and these fields.
/// `target` (`--target`) accepts only lines that target lays out, and
/// overrules a game told by the version's numbers alone; `game` (`--game`)
/// names the game or release outright.
pub fn answer(
    version: &[u8],
    seen: Seen,
    target: Option<Target>,
    game: Option<Choice>,
) -> Result<Answered, String> {
    let shown = String::from_utf8_lossy(version);
    let (writer, by) = match game {
        Some(Choice::Release(r)) => {
            return Ok(Answered {
                release: r,
                note: None,
            })
        }
        Some(Choice::Family(f)) => (Writer::Family(f), By::Field),
        Some(Choice::Stranger(g)) => (Writer::Stranger(g), By::Field),
        None => identify(version, seen).ok_or_else(|| unknown(&shown, version))?,
    };
    let lays_out = |w: Writer, t: Target| match w {
        Writer::Family(f) => RELEASES.iter().any(|r| r.family == f && r.target == t),
        Writer::Stranger(g) => by_name(g.nearest).is_some_and(|r| r.target == t),
    };
    let writer = match (by, target) {
        (By::Version, Some(t)) if !lays_out(writer, t) => match Family::of_target(t) {
            Some(f) => Writer::Family(f),
            None => writer,
        },
        _ => writer,
    };
    let answered = match writer {
        Writer::Stranger(g) => {
            let release = by_name(g.nearest)
                .unwrap_or_else(|| unreachable!("a stranger's release is in RELEASES"));
            Answered {
                release,
                note: Some(format!(
                    "{} {shown} is not a game dgnkit describes: answered with release {}'s description and rules ({})",
                    g.title, release.name, g.why
                )),
            }
        }
        Writer::Family(f) => {
            let prefix = RELEASES
                .iter()
                .find(|r| r.family == f)
                .map_or("", |r| r.prefix);
            let v = version
                .strip_prefix(prefix.as_bytes())
                .and_then(parse_version)
                .ok_or_else(|| {
                    format!(
                        "version `{shown}` is not {prefix}major.minor.patch, as {} writes it",
                        f.title()
                    )
                })?;
            let (release, covered) = pick(f, v, seen.has(Seen::TAB))
                .ok_or_else(|| format!("dgnkit knows no release of {}", f.title()))?;
            Answered {
                release,
                note: (!covered).then(|| {
                    format!(
                        "dgnkit has no description of {} {shown}: answered with release {}'s description ({} {})",
                        f.title(),
                        release.name,
                        release.title,
                        release.version_list()
                    )
                }),
            }
        }
    };
    if let Some(t) = target {
        if answered.release.target != t {
            return Err(format!(
                "version {shown} is {}, not the target {} given by --target",
                answered.release.title,
                t.name()
            ));
        }
    }
    Ok(answered)
}

#[cold]
fn unknown(shown: &str, version: &[u8]) -> String {
    let numbers = ["UNH-", "DNH-", ""].iter().any(|p| {
        version
            .strip_prefix(p.as_bytes())
            .and_then(parse_version)
            .is_some()
    });
    if !numbers {
        return format!(
            "version `{shown}` is not major.minor.patch (NetHack writes e.g. version=3.6.6, UnNetHack UNH-6.0.15, dNetHack DNH-3.23.0)"
        );
    }
    format!(
        "unknown game: version {shown} with none of the fields that tell a game apart (dgn xlog knows {}; `dgn xlog --releases` lists their releases; --game names the game of a file you know)",
        Family::ALL.map(Family::title).join(", ")
    )
}

/// [`answer`] asking the line field by field, for callers without a
/// [`Seen`] (tab-separated unless `version` is 3.4.x's).
pub fn for_version(
    version: &[u8],
    target: Option<Target>,
    has_field: impl Fn(&[u8]) -> bool,
) -> Result<&'static Release, String> {
    let tab = !version.starts_with(b"3.4.");
    answer(version, Seen::from_fields(tab, has_field), target, None).map(|a| a.release)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(
        version: &[u8],
        target: Option<Target>,
        fields: &[&str],
    ) -> Result<&'static str, String> {
        for_version(version, target, |k| {
            fields.iter().any(|f| f.as_bytes() == k)
        })
        .map(|r| r.name)
    }

    fn note(version: &[u8], fields: &[&str]) -> Option<String> {
        answer(
            version,
            Seen::from_fields(true, |k| fields.iter().any(|f| f.as_bytes() == k)),
            None,
            None,
        )
        .unwrap()
        .note
    }

    #[test]
    fn versions_map_to_releases() {
        assert_eq!(name(b"3.4.3", None, &[]).unwrap(), "nethack-3.4.3");
        assert_eq!(name(b"3.6.0", None, &[]).unwrap(), "nethack-3.6.0");
        assert_eq!(name(b"3.6.1", None, &[]).unwrap(), "nethack-3.6");
        assert_eq!(name(b"3.6.7", None, &[]).unwrap(), "nethack-3.6");
        assert_eq!(name(b"3.7.0", None, &[]).unwrap(), "nethack-3.7");
        assert_eq!(name(b"5.0.0", None, &[]).unwrap(), "nethack-3.7");
        assert!(name(b"3.6", None, &[]).is_err());
        assert!(name(b"3.6.1.2", None, &[]).is_err());
        assert!(name(b"3.4.3", Some(Target::NetHack36), &[]).is_err());
        assert_eq!(
            name(b"3.6.0", Some(Target::NetHack36), &[]).unwrap(),
            "nethack-3.6.0"
        );
        assert!(note(b"3.6.7", &[]).is_none());
    }

    /// A release of a known game without a description of its own is
    /// answered with the nearest, and says so.
    #[test]
    fn unknown_releases_take_the_nearest_and_say_so() {
        assert_eq!(name(b"3.6.8", None, &[]).unwrap(), "nethack-3.6");
        let n = note(b"3.6.8", &[]).unwrap();
        assert!(
            n.contains("no description of NetHack 3.6.8")
                && n.contains("answered with release nethack-3.6's description"),
            "{n}"
        );
        assert_eq!(name(b"3.3.1", None, &[]).unwrap(), "nethack-3.4.3");
        assert_eq!(
            name(b"0.5.4", None, &["charname"]).unwrap(),
            "dynahack-0.6.0"
        );
        assert!(note(b"0.5.4", &["charname"]).is_some());
        assert!(note(b"0.6.0", &["charname"]).is_none());
        // Strangers: answered with the release they were built from.
        let n = note(b"4.3.0", &["charname", "rngseed"]).unwrap();
        assert!(
            n.contains("NetHack 4 4.3.0 is not a game dgnkit describes"),
            "{n}"
        );
        assert_eq!(
            name(b"4.3.0", None, &["charname", "rngseed"]).unwrap(),
            "nethack-3.4.3"
        );
        assert!(name(b"12.0.0", None, &[])
            .unwrap_err()
            .contains("unknown game"));
    }

    #[test]
    fn variant_versions_map_to_their_games() {
        assert_eq!(name(b"UNH-6.0.15", None, &[]).unwrap(), "unnethack-6.0");
        assert_eq!(name(b"UNH-6.0.11", None, &[]).unwrap(), "unnethack-6.0");
        assert_eq!(name(b"DNH-3.23.0", None, &[]).unwrap(), "dnethack-3.23");
        assert_eq!(name(b"0.0.8", None, &[]).unwrap(), "slashem-0.0.8");
        assert_eq!(
            name(b"0.9.3", None, &["killed_archangels"]).unwrap(),
            "evilhack-0.9"
        );
        assert_eq!(
            name(b"0.9.3", Some(Target::EvilHack), &[]).unwrap(),
            "evilhack-0.9"
        );
        // GnollHack shares NetHack 4's numbers: NetHack 4 writes `charname`.
        assert_eq!(name(b"4.3.0", None, &["edit"]).unwrap(), "gnollhack-4");
        assert_eq!(name(b"4.3.0", None, &[]).unwrap(), "gnollhack-4");
        assert_eq!(
            name(b"4.3.0", Some(Target::GnollHack), &[]).unwrap(),
            "gnollhack-4"
        );
        assert_eq!(
            name(b"0.0.1", None, &["charname"]).unwrap(),
            "dynahack-0.6.0"
        );
        // --target overrules a game told by numbers alone.
        assert_eq!(
            name(b"0.6.0", Some(Target::DynaHack), &[]).unwrap(),
            "dynahack-0.6.0"
        );
        // A prefix belongs to its game only.
        assert!(name(b"UNH-3.6.6", None, &[]).is_ok_and(|r| r.starts_with("unnethack")));
        let e = name(b"DNH-3.23.0", Some(Target::UnNetHack), &[]).unwrap_err();
        assert!(e.contains("not the target unnethack"), "{e}");
    }

    #[test]
    fn game_choices_parse() {
        assert_eq!(Choice::parse("tnnt"), Ok(Choice::Family(Family::Tnnt)));
        assert!(
            matches!(Choice::parse("nethack-3.6.0"), Ok(Choice::Release(r)) if r.name == "nethack-3.6.0")
        );
        assert!(matches!(Choice::parse("AceHack"), Ok(Choice::Stranger(_))));
        assert!(Choice::parse("nope").unwrap_err().contains("unknown game"));
        let r = answer(
            b"3.6.6",
            Seen::default(),
            None,
            Some(Choice::parse("nethack-3.6.0").unwrap()),
        )
        .unwrap();
        assert_eq!(r.release.name, "nethack-3.6.0");
    }

    #[test]
    fn every_family_has_a_release_and_strangers_name_one() {
        for f in Family::ALL {
            assert!(RELEASES.iter().any(|r| r.family == f), "{f:?}");
        }
        for g in STRANGERS {
            assert!(by_name(g.nearest).is_some(), "{}", g.name);
        }
        for t in Target::ALL {
            if let Some(r) = newest_of(t) {
                assert_eq!(r.target, t);
                assert_eq!(Some(r.family), Family::of_target(t));
            }
        }
    }

    /// Every game dgnkit lays out has its releases here; native is no
    /// game, and a game whose loader is not proven (NetHack 3.7's forks,
    /// for now) has none, so its lines are never answered with another
    /// game's rules.
    #[test]
    fn every_target_but_native_has_a_release() {
        for t in Target::ALL {
            assert_eq!(
                RELEASES.iter().any(|r| r.target == t),
                t != Target::Native && t.game().loader_proven(),
                "{}",
                t.name()
            );
        }
    }

    #[test]
    fn ids_are_positions() {
        for (i, r) in RELEASES.iter().enumerate() {
            assert_eq!(r.id(), i);
        }
    }
}
