//! NetHack's own xlogfile lines and the tournament's: NetHack's releases
//! span its four targets (3.4.3, 3.6, 3.7, 5.0), and the tournament (TNNT) is
//! played on NetHack, so neither belongs to one game's record. Every other
//! game's releases are in its record under `games/`.

use super::identify::{Family, Numbers, Seen, Sign};
use super::release::{Builtin, Cites, Release, WIZARD_EXPLORE};
use crate::options::Target;

/// NetHack's lines: 3.x.y, and 5.0.0 (3.7's release), with no other game's
/// field.
pub static NETHACK: Family = Family {
    name: "nethack",
    title: "NetHack",
    tells: "version 3.x.y or 5.0.0 and no other game's field",
    sign: None,
    numbers: &[Numbers::major(3), Numbers::exact(5, 0)],
    releases: &[NH343, NH360, NH36, NH37, NH50],
};

/// The tournament's lines: `tnntachieve0`.. after `flags` in every year
/// (2018 src/topten.c:381, 2025 :382-384). Its field is tried first: its
/// lines are NetHack's otherwise.
pub static TNNT: Family = Family {
    name: "tnnt",
    title: "TNNT",
    tells: "`tnntachieve0`",
    sign: Some(Sign::field(Seen::TNNT)),
    numbers: &[],
    releases: &[TNNT_2018, TNNT_2019, TNNT_2023, TNNT_2026],
};

const NH343: Release = Release {
    name: "nethack-3.4.3",
    title: "NetHack 3.4.3",
    note: "NAO's `flags` read",
    target: Target::NetHack343,
    // dat/dungeon.def last changed in 3.4.0.
    versions: &[(3, 4, 0, 3)],
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
    ..Release::BASE
};

const NH360: Release = Release {
    name: "nethack-3.6.0",
    title: "NetHack 3.6.0",
    note: "Vlad's Tower names only its top level",
    target: Target::NetHack36,
    versions: &[(3, 6, 0, 0)],
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
    ..Release::BASE
};

const NH36: Release = Release {
    name: "nethack-3.6",
    title: "NetHack 3.6.1-3.6.7",
    target: Target::NetHack36,
    versions: &[(3, 6, 1, 7)],
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
    ..Release::BASE
};

/// NetHack 3.7.0, the development builds of the line 5.0.0 released (the
/// tree dgnkit's 3.7 target follows, 79c688cc6). Servers built 3.7.0 from
/// git for years: lines from before 2023-02 were written without the
/// Tutorial (dungeon 8, which no line ends in) and, before 2020-01-24
/// (0166239a2), with bones on Mines' End; the line does not tell the
/// build, so they share this answer.
/// Its xlogfile adds `achieveX`, `conductX`, `gold`, `wish_cnt`,
/// `arti_wish_cnt` and `bones` (src/topten.c:369-385) and a third flags bit,
/// 0x4 "no bones file was loaded" (src/topten.c:391-404), which says
/// nothing about the bones this game leaves. The `bones` option
/// (src/bones.c:358) is not recorded: it is taken as on, its default.
const NH37: Release = Release {
    name: "nethack-3.7",
    title: "NetHack 3.7.0",
    note: "the Tutorial is a dungeon of its own, without bones",
    target: Target::NetHack37,
    versions: &[(3, 7, 0, 0)],
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
    ..Release::BASE
};

/// NetHack 5.0.0, the 3.7 line's release (16ff59115, 2026-05-02), writes
/// `version=5.0.0` (include/patchlevel.h:10-15, src/topten.c:347) and
/// 3.7's fields and flags. Its dat/dungeon.lua differs from 3.7's (79c688cc6) only
/// in a comment (blob 7550d1317), so the two share the built-in
/// description (3.7's, by `..NH37`); `can_make_bones()` is unchanged.
const NH50: Release = Release {
    name: "nethack-5.0",
    title: "NetHack 5.0.0",
    note: "3.7's dungeon; the Tutorial is a dungeon of its own, without bones",
    target: Target::NetHack50,
    versions: &[(5, 0, 0, 0)],
    cites: Cites {
        bones_ok: "NetHack 5.0.0 src/end.c:1201",
        depth_roll: "NetHack 5.0.0 src/bones.c:376-379",
        explore: "NetHack 5.0.0 src/bones.c:382",
        wizard_query: "NetHack 5.0.0 src/end.c:1364",
        no_bones_modes: "",
    },
    ..NH37
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
    note: "2018; its own dungeons come before Vlad's Tower, as in every year",
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
    ..Release::BASE
};

const TNNT_2019: Release = Release {
    name: "tnnt-2019",
    title: "TNNT 2019-2022",
    note: "2019-2022, lines led by `server=` from 2019 on",
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
    ..Release::BASE
};

const TNNT_2023: Release = Release {
    name: "tnnt-2023",
    title: "TNNT 2023-2025",
    note: "2023-2025",
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
    ..Release::BASE
};

/// TNNT on NetHack 5.0 (the merge ad6e950f5, 2026-06-11), laid out by
/// 5.0.0's loader: 3.7's xlogfile fields, `rerolls`, then `tnntachieve0`..
/// (src/topten.c:341-393).
const TNNT_2026: Release = Release {
    name: "tnnt-2026",
    title: "TNNT 2026",
    note: "2026",
    target: Target::NetHack50,
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
    ..Release::BASE
};
