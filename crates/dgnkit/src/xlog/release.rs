//! Which game and release wrote an xlogfile line, and what we know of it:
//! the target whose loader and rules apply, the built-in dungeon
//! description of that release, and where its source decides bones.
//!
//! A line names its release in `version`. A game we do not reproduce is an
//! error for that line, never answered with another game's rules.

use super::ending::Mode;
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
    /// A field only this game writes, required (unless `--target` names
    /// the game) where another game writes the same version numbers.
    pub marker: Option<&'static str>,
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
}

/// The `flags` bits NetHack 3.6 and 3.7 write (`encodexlogflags`), as do
/// the variants that took the xlogfile patch: 0x1 wizard, 0x2 explore.
const WIZARD_EXPLORE: Option<(u64, u64)> = Some((1, 2));

const NH343: Release = Release {
    name: "nethack-3.4.3",
    title: "NetHack 3.4.3",
    target: Target::NetHack343,
    prefix: "",
    // dat/dungeon.def last changed in 3.4.0.
    versions: &[(3, 4, 0, 3)],
    marker: None,
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
    // 3.4.3 itself writes no xlogfile; the servers' patch has no flags.
    mode_flags: None,
    no_bones_flags: 0,
    modes: &[],
};

const NH360: Release = Release {
    name: "nethack-3.6.0",
    title: "NetHack 3.6.0",
    target: Target::NetHack36,
    prefix: "",
    versions: &[(3, 6, 0, 0)],
    marker: None,
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
};

const NH36: Release = Release {
    name: "nethack-3.6",
    title: "NetHack 3.6.1-3.6.7",
    target: Target::NetHack36,
    prefix: "",
    versions: &[(3, 6, 1, 7)],
    marker: None,
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
};

/// NetHack 3.7.0 (work in progress; the tree dgnkit's 3.7 target follows).
/// Its xlogfile adds `achieveX`, `conductX`, `gold`, `wish_cnt`,
/// `arti_wish_cnt` and `bones` (src/topten.c:369-385) and a third flags bit,
/// 0x4 "no bones file was loaded" (src/topten.c:391-404), which says
/// nothing about the bones this game leaves. The `bones` option
/// (src/bones.c:358) is not recorded: it is taken as on, its default.
const NH37: Release = Release {
    name: "nethack-3.7",
    title: "NetHack 3.7.0",
    target: Target::NetHack37,
    prefix: "",
    versions: &[(3, 7, 0, 0)],
    marker: None,
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
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
    marker: None,
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[
        ("hah", Mode::Normal),
        ("hoh", Mode::Normal),
        ("marathon", Mode::Normal),
    ],
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
    marker: None,
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
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
    prefix: "",
    versions: &[(0, 0, 8, 8)],
    marker: None,
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
};

/// EvilHack writes `version=0.9.3` (src/topten.c:378); its flags keep 0x1
/// wizard and 0x2 explore, and the number of bones files loaded in bits
/// 8-15 (src/topten.c `encodexlogflags`). dat/dungeon.def is the same from
/// tag v0.9.0 to 0.9.3 (it differs at v0.8.4).
const EVILHACK: Release = Release {
    name: "evilhack-0.9",
    title: "EvilHack 0.9.0-0.9.3",
    target: Target::EvilHack,
    prefix: "",
    versions: &[(0, 9, 0, 3)],
    marker: None,
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
};

/// GnollHack writes `version=4.3.0` like NetHack 4 does, plus its own
/// `edit` and `versionstart` fields (src/topten.c:462-469), a `mode` field
/// with casual, reloadable and modern games (src/topten.c:513) and flags
/// 0x8 modern, 0x10 casual, 0x20 non-scoring (src/topten.c:572-577): in
/// all of them `can_make_bones()` refuses (src/bones.c:504). Its
/// dat/dungeon.def is the same at every tag from 4.2.0 to 4.3.0.
const GNOLLHACK: Release = Release {
    name: "gnollhack-4",
    title: "GnollHack 4.2.0-4.3.0",
    target: Target::GnollHack,
    prefix: "",
    versions: &[(4, 2, 0, 1), (4, 3, 0, 0)],
    marker: Some("edit"),
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0x8 | 0x10 | 0x20,
    modes: &[
        ("casual", Mode::NoBones),
        ("reloadable", Mode::NoBones),
        ("modern", Mode::NoBones),
    ],
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
    prefix: "",
    versions: &[(0, 5, 5, 5), (0, 6, 0, 0), (0, 0, 1, 1)],
    marker: Some("charname"),
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
    no_bones_flags: 0,
    modes: &[],
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
    prefix: "",
    versions: &[(9, 1, 0, 0)],
    marker: Some("polyinit"),
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
};

/// SpliceHack 1.2.0 writes `version=1.2.0` (include/patchlevel.h, EDITLEVEL
/// 39; src/topten.c:355) and no `rerolls=`; `deathdnum` is `u.uz.dnum`
/// (:680), the file's dungeon order.
const SPLICEHACK: Release = Release {
    name: "splicehack-1.2",
    title: "SpliceHack 1.2.0",
    target: Target::SpliceHack,
    prefix: "",
    versions: &[(1, 2, 0, 0)],
    marker: None,
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
};

/// NerfHack 2.2.0 writes `version=2.2.0` (src/topten.c:347) and no
/// `rerolls=`; `deathdnum` is `u.uz.dnum` (:675).
const NERFHACK: Release = Release {
    name: "nerfhack-2.2",
    title: "NerfHack 2.2.0",
    target: Target::NerfHack,
    prefix: "",
    versions: &[(2, 2, 0, 0)],
    marker: None,
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
};

/// CrecelleHack 1.5.1 writes `version=1.5.1` (src/topten.c:347) and
/// `achieve2=` after `achieve=` (:368-370); `deathdnum` is `u.uz.dnum`
/// (:706).
const CRECELLEHACK: Release = Release {
    name: "crecellehack-1.5",
    title: "CrecelleHack 1.5.1",
    target: Target::CrecelleHack,
    prefix: "",
    versions: &[(1, 5, 1, 1)],
    marker: Some("achieve2"),
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
    mode_flags: WIZARD_EXPLORE,
    no_bones_flags: 0,
    modes: &[],
};

pub static RELEASES: [&Release; 14] = [
    &NH343,
    &NH360,
    &NH36,
    &NH37,
    &UNNETHACK,
    &DNETHACK,
    &SLASHEM,
    &EVILHACK,
    &GNOLLHACK,
    &DYNAHACK,
    &XNETHACK,
    &SPLICEHACK,
    &NERFHACK,
    &CRECELLEHACK,
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

    fn covers(&self, v: (u32, u32, u32)) -> bool {
        self.versions
            .iter()
            .any(|&(ma, mi, lo, hi)| v.0 == ma && v.1 == mi && (lo..=hi).contains(&v.2))
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

/// Whether a line with this `version` and these fields (`has_field`) was
/// written by a game.
type Writes = fn(&[u8], &dyn Fn(&[u8]) -> bool) -> bool;

/// A game whose xlogfile lines carry a version another game's release
/// also writes, told apart by the fields only it writes.
struct OtherGame {
    name: &'static str,
    /// The release whose version it shares.
    looks_like: &'static str,
    why: &'static str,
    writes: Writes,
}

/// Games that write a vanilla version but are not vanilla (never answered
/// as vanilla, silently or not).
const OTHER_GAMES: &[OtherGame] = &[
    OtherGame {
        name: "TNNT",
        looks_like: "NetHack 3.6",
        why: "the November tournament's game (tnnt-devteam/tnnt) writes its own `tnntachieve0`.. fields and adds dungeons of its own (the DevTeam Office), so its `deathdnum` numbers are not NetHack 3.6's;",
        writes: |v, has| v.starts_with(b"3.6.") && has(b"tnntachieve0"),
    },
    OtherGame {
        name: "AceHack",
        looks_like: "NetHack 3.6.0",
        why: "AceHack (2010-2012) wrote version 3.6.0 years before NetHack 3.6.0, with NetHack 4's `event` and `carried` fields and no `flags`;",
        writes: |v, has| v == b"3.6.0" && has(b"event") && has(b"carried") && !has(b"flags"),
    },
];

/// The release that wrote a line with this `version`; `has_field` tells
/// whether the line has a field (for games that share version numbers).
/// With `target`, only releases of that target are accepted, and a marker
/// field is not needed: the user named the game.
pub fn for_version(
    version: &[u8],
    target: Option<Target>,
    has_field: impl Fn(&[u8]) -> bool,
) -> Result<&'static Release, String> {
    let shown = String::from_utf8_lossy(version);
    if target.is_none() {
        if let Some(g) = OTHER_GAMES.iter().find(|g| (g.writes)(version, &has_field)) {
            return Err(format!(
                "version {shown} is {}, not {}: {} dgnkit has no description of it, so the line is not answered (with --target, lines are read as that game's)",
                g.name, g.looks_like, g.why
            ));
        }
    }
    let mut parsed = false;
    let mut other = None;
    for r in RELEASES {
        let Some(v) = version
            .strip_prefix(r.prefix.as_bytes())
            .and_then(parse_version)
        else {
            continue;
        };
        parsed = true;
        if !r.covers(v) {
            continue;
        }
        match target {
            Some(t) if t != r.target => other = other.or(Some(r)),
            Some(_) => return Ok(r),
            None => match r.marker {
                Some(m) if !has_field(m.as_bytes()) => {}
                _ => return Ok(r),
            },
        }
    }
    if let (Some(r), Some(t)) = (other, target) {
        return Err(format!(
            "version {shown} is {}, not the target {} given by --target",
            r.title,
            t.name()
        ));
    }
    if !parsed {
        return Err(format!(
            "version `{shown}` is not major.minor.patch (NetHack writes e.g. version=3.6.6, UnNetHack UNH-6.0.15, dNetHack DNH-3.23.0)"
        ));
    }
    Err(format!(
        "unknown version {shown}: dgn xlog knows {}",
        RELEASES
            .iter()
            .filter(|r| target.is_none_or(|t| t == r.target))
            .map(|r| match r.marker {
                Some(m) => format!("{} {} (lines with `{m}`)", r.title, r.version_list()),
                None => format!("{} {}", r.title, r.version_list()),
            })
            .collect::<Vec<_>>()
            .join("; ")
    ))
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

    #[test]
    fn versions_map_to_releases() {
        assert_eq!(name(b"3.4.3", None, &[]).unwrap(), "nethack-3.4.3");
        assert_eq!(name(b"3.6.0", None, &[]).unwrap(), "nethack-3.6.0");
        assert_eq!(name(b"3.6.1", None, &[]).unwrap(), "nethack-3.6");
        assert_eq!(name(b"3.6.7", None, &[]).unwrap(), "nethack-3.6");
        assert_eq!(name(b"3.7.0", None, &[]).unwrap(), "nethack-3.7");
        assert!(name(b"3.6.8", None, &[]).is_err());
        assert!(name(b"3.6", None, &[]).is_err());
        assert!(name(b"3.6.1.2", None, &[]).is_err());
        assert!(name(b"3.4.3", Some(Target::NetHack36), &[]).is_err());
        assert_eq!(
            name(b"3.6.0", Some(Target::NetHack36), &[]).unwrap(),
            "nethack-3.6.0"
        );
    }

    #[test]
    fn variant_versions_map_to_their_games() {
        assert_eq!(name(b"UNH-6.0.15", None, &[]).unwrap(), "unnethack-6.0");
        assert_eq!(name(b"UNH-6.0.11", None, &[]).unwrap(), "unnethack-6.0");
        // 6.0.10 was tagged before the dungeon last changed.
        let e = name(b"UNH-6.0.10", None, &[]).unwrap_err();
        assert!(e.contains("UNH-6.0.11-6.0.15"), "{e}");
        assert_eq!(name(b"DNH-3.23.0", None, &[]).unwrap(), "dnethack-3.23");
        assert_eq!(name(b"0.0.8", None, &[]).unwrap(), "slashem-0.0.8");
        assert!(name(b"0.0.7", None, &[]).is_err());
        assert_eq!(name(b"0.9.3", None, &[]).unwrap(), "evilhack-0.9");
        assert!(name(b"0.8.4", None, &[]).is_err());
        // GnollHack shares NetHack 4's numbers: its own field decides.
        assert_eq!(name(b"4.3.0", None, &["edit"]).unwrap(), "gnollhack-4");
        let e = name(b"4.3.0", None, &[]).unwrap_err();
        assert!(e.contains("GnollHack") && e.contains("`edit`"), "{e}");
        assert_eq!(
            name(b"4.3.0", Some(Target::GnollHack), &[]).unwrap(),
            "gnollhack-4"
        );
        assert_eq!(
            name(b"0.0.1", None, &["charname"]).unwrap(),
            "dynahack-0.6.0"
        );
        assert!(name(b"0.0.1", None, &[]).is_err());
        // A prefix belongs to its game only.
        assert!(name(b"UNH-3.6.6", None, &[]).is_err());
        let e = name(b"DNH-3.23.0", Some(Target::UnNetHack), &[]).unwrap_err();
        assert!(e.contains("not the target unnethack"), "{e}");
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
