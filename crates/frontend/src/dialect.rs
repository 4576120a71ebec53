//! Dialects: the variants of the dungeon description language that NetHack's
//! forks compile. A dialect says which constructs its `dgn_comp` accepts
//! beyond NetHack 3.4.3/3.6 and which limits its game has; the checks ask the
//! dialect instead of hard-coding vanilla's numbers.
//!
//! The facts come from each variant's `util/dgn_comp.y`, `include/global.h`
//! and `src/dungeon.c` (see `shared/spec/dialects.md`). Where a variant's
//! shipped file goes beyond a limit we could not confirm in its source, the
//! shipped file wins (the variant's game loads it), and the doc string says so.

use crate::CheckGame;
use dgnkit_grammar::ast::{SourceFile, StmtKind};
use dgnkit_script::flags;

/// A family of `dgn_comp` implementations that accept the same language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// NetHack 3.3.0 through 3.6.7 and the forks that kept its compiler.
    #[default]
    Vanilla,
    /// NetHack 3.1.x and 3.2.0: smaller limits, `%MULDGN`.
    Vanilla31,
    /// Slash 4.x, the predecessor of SLASH'EM.
    Slash,
    /// SLASH'EM 0.0.7 and its direct descendants.
    Slashem,
    /// SLASH'EM Extended and slashem-max.
    SlashemExtended,
    /// dNetHack.
    DNetHack,
    /// dNAO, notdNetHack and relatives: dNetHack plus alternate dungeons.
    Dnao,
    /// UnNetHack and its forks.
    UnNetHack,
    /// GnollHack: display names and `TILESET:`.
    GnollHack,
    /// EvilHack: extra dungeon descriptors.
    EvilHack,
    /// HackEM.
    HackEm,
    /// NetHack4, FIQHack, Fourk, bingehack4.
    NetHack4,
    /// SpliceHack and SliceHack.
    SpliceHack,
    /// yzhack.
    YzHack,
    /// xNetHack's dungeon.lua.
    XNetHack,
    /// NerfHack's dungeon.lua.
    NerfHack,
}

/// The numeric limits a dialect's game imposes on a compiled file.
///
/// `None` means "no such limit". Counts are the largest accepted values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most dungeons the game loads. NetHack's loader panics when the file
    /// has `MAXDUNGEON` or more, so this is `MAXDUNGEON - 1`.
    pub max_dungeons: Option<u32>,
    /// `MAXLEVEL`: the deepest level a dungeon can have, and the bound of
    /// every couple's base.
    pub max_level: Option<i64>,
    /// `LEV_LIMIT`: special levels in the whole file.
    pub max_levels: Option<u32>,
    /// `BRANCH_LIMIT`: branches in the whole file.
    pub max_branches: Option<u32>,
    /// Usable bytes of a dungeon name (and of a branch's target name).
    pub dungeon_name: Option<usize>,
    /// Usable bytes of a special level's name (the game's run-time field).
    pub level_name: Option<usize>,
    /// Usable bytes of a PROTOFILE name.
    pub proto_name: Option<usize>,
    /// Usable bytes of a dungeon.lua `lvlfill` or `themerooms` file name
    /// (NetHack 3.7: `char fill_lvl[15]`, `char themerms[15]`,
    /// include/dungeon.h:64-65).
    pub lua_file_name: Option<usize>,
    /// Usable bytes of a GnollHack display name.
    pub display_name: Option<usize>,
    /// Largest ledger number (all dungeons at their largest, together):
    /// level numbers are 8-bit signed in the game.
    pub max_ledger: Option<u32>,
    /// Largest RNDLEVEL variant count (kept in an unsigned char).
    pub max_rndlevs: Option<i64>,
}

impl Limits {
    /// Our own native format: no fixed limits.
    pub const UNLIMITED: Limits = Limits {
        max_dungeons: None,
        max_level: None,
        max_levels: None,
        max_branches: None,
        dungeon_name: None,
        level_name: None,
        proto_name: None,
        lua_file_name: None,
        display_name: None,
        max_ledger: None,
        max_rndlevs: None,
    };

    const fn nethack(maxdungeon: u32, maxlevel: i64, lev_limit: u32, branch_limit: u32) -> Limits {
        Limits {
            max_dungeons: Some(maxdungeon - 1),
            max_level: Some(maxlevel),
            max_levels: Some(lev_limit),
            max_branches: Some(branch_limit),
            dungeon_name: Some(23),
            level_name: Some(14),
            proto_name: Some(14),
            lua_file_name: Some(14),
            display_name: None,
            max_ledger: Some(127),
            max_rndlevs: Some(255),
        }
    }
}

/// How a dialect treats the `ENTRY:` statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryStatement {
    Allowed,
    /// SLASH'EM: "ENTRY is obsolete!" (the entry level moved onto the branch).
    Obsolete,
}

/// Constructs beyond NetHack 3.4.3's language that a dialect accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// SLASH'EM: an integer after a branch's direction, the entry level in
    /// the target dungeon.
    pub branch_entry: bool,
    pub entry_statement: EntryStatement,
    /// SLASH'EM: several branches may lead into one dungeon, and a branch may
    /// lead to a dungeon defined earlier.
    pub multiple_branches: bool,
    /// dNAO: a repeated DUNGEON name is an alternate of the first.
    pub alternates: bool,
    /// dNAO: a DUNGEON without a chance is stored with chance 100, not 0.
    pub dungeon_chance_default_100: bool,
    /// GnollHack: a display name before a level's file name.
    pub display_names: bool,
    /// GnollHack: `TILESET:`.
    pub tileset: bool,
    /// Extra `DESCRIPTION:` words and the flag each sets (our canonical bits).
    pub extra_descriptors: &'static [(&'static str, u32)],
    /// The words of a `dungeon.lua`'s `flags` (the game's `get_dgn_flags`).
    pub lua_flags: LuaFlags,
}

/// Which words a game's `dungeon.lua` takes in `flags`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LuaFlags {
    /// NetHack 3.7: town, hellish, mazelike, roguelike, unconnected
    /// (src/dungeon.c:748).
    NetHack37,
    /// xNetHack: no rogue level, so no `roguelike` (src/dungeon.c:750-753).
    NoRoguelike,
    /// SpliceHack (on a 3.7 of 2021): `nofood`, bit 0x10, where 3.7 has
    /// `unconnected` (src/dungeon.c:712-714, include/dgn_file.h:60).
    NoFood,
}

const BASE_FEATURES: Features = Features {
    branch_entry: false,
    entry_statement: EntryStatement::Allowed,
    multiple_branches: false,
    alternates: false,
    dungeon_chance_default_100: false,
    display_names: false,
    tileset: false,
    extra_descriptors: &[],
    lua_flags: LuaFlags::NetHack37,
};

const EVILHACK_DESCRIPTORS: &[(&str, u32)] = &[
    ("iceq", flags::EXT_ICEQ),
    ("vecnad", flags::EXT_VECNAD),
    ("gtown", flags::EXT_GTOWN),
    ("purg", flags::EXT_PURG),
    ("hdgn", flags::EXT_HDGN),
];

const HACKEM_DESCRIPTORS: &[(&str, u32)] = &[
    ("vecnad", flags::EXT_VECNAD),
    ("gtown", flags::EXT_GTOWN),
    ("iceq", flags::EXT_ICEQ),
];

/// GnollHack's `TILESET:` words and the `cmap_types` value each stands for.
pub const GNOLLHACK_TILESETS: &[(&str, i32)] = &[
    ("dungeons_of_doom_tileset", 0),
    ("gnomish_mines_tileset", 1),
    ("gehennom_tileset", 2),
    ("undead_tileset", 3),
    ("sokoban_tileset", 4),
    ("elemental_tileset", 5),
    ("astral_tileset", 6),
    ("gehennom_cavernous_tileset", 7),
    ("garden_tileset", 8),
];

/// Everything the checks need to know about one dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DialectInfo {
    pub dialect: Dialect,
    /// The `--dialect` value.
    pub name: &'static str,
    /// Human name of the family, for messages ("SLASH'EM").
    pub title: &'static str,
    /// What the dialect is and how it differs from vanilla (for docs and
    /// `dgn check --dialect help`).
    pub doc: &'static str,
    pub limits: Limits,
    pub features: Features,
}

const DIALECTS: &[DialectInfo] = &[
    DialectInfo {
        dialect: Dialect::Vanilla,
        name: "vanilla",
        title: "NetHack 3.3-3.6",
        doc: "NetHack 3.3.0-3.6.7 and forks with an unchanged compiler (AceHack, GruntHack, \
              SporkHack, NetHack Brass, NitroHack, DynaHack, xNetHack, TNNT, JNetHack, ...). \
              Limits 16 dungeons (the loader takes 15), MAXLEVEL 32, 50 special levels, \
              32 branches, 23-byte dungeon names, 14-byte level and PROTOFILE names, \
              127 levels in all.",
        limits: Limits::nethack(16, 32, 50, 32),
        features: BASE_FEATURES,
    },
    DialectInfo {
        dialect: Dialect::Vanilla31,
        name: "vanilla31",
        title: "NetHack 3.1-3.2",
        doc: "NetHack 3.1.0-3.2.x: the same language with smaller limits (MAXDUNGEON 10, \
              MAXLEVEL 30, 50 special levels, 20 branches); dungeon.def uses `%MULDGN` and \
              `%REINCARNATION` lines.",
        limits: Limits::nethack(10, 30, 50, 20),
        features: BASE_FEATURES,
    },
    DialectInfo {
        dialect: Dialect::Slash,
        name: "slash",
        title: "Slash 4.x",
        doc: "Slash 4.x (the predecessor of SLASH'EM): vanilla's grammar with SLASH'EM's \
              raised limits (MAXDUNGEON 32, MAXLEVEL 50, 99 special levels, 32 branches). \
              The limits are inferred from its shipped file (16 dungeons, depths to 46).",
        limits: Limits::nethack(32, 50, 99, 32),
        features: BASE_FEATURES,
    },
    DialectInfo {
        dialect: Dialect::Slashem,
        name: "slashem",
        title: "SLASH'EM",
        doc: "SLASH'EM 0.0.7 and its descendants (SlashTHEM, slashem-up, OZslashem, SlashTNG, \
              slashem9, jslashem). BRANCH and CHAINBRANCH take an optional integer after the \
              direction: the entry level in the target dungeon (negative counts from the \
              bottom). `ENTRY:` is an error (\"ENTRY is obsolete!\"). Several branches may \
              lead into one dungeon, also into one defined earlier. Limits: MAXDUNGEON 32, \
              MAXLEVEL 50, 99 special levels, 32 branches.",
        limits: Limits::nethack(32, 50, 99, 32),
        features: Features {
            branch_entry: true,
            entry_statement: EntryStatement::Obsolete,
            multiple_branches: true,
            ..BASE_FEATURES
        },
    },
    DialectInfo {
        dialect: Dialect::SlashemExtended,
        name: "slashem-extended",
        title: "SLASH'EM Extended",
        doc: "SLASH'EM Extended and slashem-max: SLASH'EM's language, with `ENTRY:` accepted \
              again, and limits MAXDUNGEON 200, MAXLEVEL 200, 500 special levels, 100 \
              branches. Their files (69 dungeons, depths to 100) go far beyond 127 levels in \
              all, so the 8-bit ledger limit is not checked.",
        limits: Limits {
            max_ledger: None,
            ..Limits::nethack(200, 200, 500, 100)
        },
        features: Features {
            branch_entry: true,
            multiple_branches: true,
            ..BASE_FEATURES
        },
    },
    DialectInfo {
        dialect: Dialect::DNetHack,
        name: "dnethack",
        title: "dNetHack",
        doc: "dNetHack (dungeon.def and the alternate chaos-quest files dngnch2/dngnch3): \
              vanilla's grammar, limits MAXDUNGEON 32, MAXLEVEL 64, 150 special levels, 32 \
              branches. Its files exceed 127 levels in all, so the 8-bit ledger limit is not \
              checked.",
        limits: Limits {
            max_ledger: None,
            ..Limits::nethack(32, 64, 150, 32)
        },
        features: BASE_FEATURES,
    },
    DialectInfo {
        dialect: Dialect::Dnao,
        name: "dnao",
        title: "dNAO",
        doc: "dNAO, notdNetHack, notnotdNetHack, SlashDNH: dNetHack's limits, plus alternate \
              dungeons: a DUNGEON name may repeat, and the game picks one of the alternates. \
              A DUNGEON without a chance is stored with chance 100. Bad dungeon depths are \
              reported (check_dungeon is called).",
        limits: Limits {
            max_ledger: None,
            ..Limits::nethack(32, 64, 150, 32)
        },
        features: Features {
            alternates: true,
            dungeon_chance_default_100: true,
            ..BASE_FEATURES
        },
    },
    DialectInfo {
        dialect: Dialect::UnNetHack,
        name: "unnethack",
        title: "UnNetHack",
        doc: "UnNetHack and its forks (UnNetHackPlus, JUnNetHack, Android ports): vanilla's \
              grammar, with LEV_LIMIT raised to 99.",
        limits: Limits::nethack(16, 32, 99, 32),
        features: BASE_FEATURES,
    },
    DialectInfo {
        dialect: Dialect::GnollHack,
        name: "gnollhack",
        title: "GnollHack",
        doc: "GnollHack: every LEVEL/RNDLEVEL/CHAINLEVEL/RNDCHLEVEL may start with a display \
              name before the level's file name (chains and the duplicate check use the file \
              name); `TILESET:` takes a `*_tileset` word or an integer. Name fields hold 47 \
              bytes (dungeons) and 63 bytes (display names).",
        limits: Limits {
            dungeon_name: Some(47),
            display_name: Some(63),
            ..Limits::nethack(16, 32, 50, 32)
        },
        features: Features {
            display_names: true,
            tileset: true,
            ..BASE_FEATURES
        },
    },
    DialectInfo {
        dialect: Dialect::EvilHack,
        name: "evilhack",
        title: "EvilHack",
        doc: "EvilHack: DESCRIPTION also takes iceq, vecnad, gtown, purg and hdgn (the binary \
              moves the alignment bits up to make room); LEV_LIMIT 99.",
        limits: Limits::nethack(16, 32, 99, 32),
        features: Features {
            extra_descriptors: EVILHACK_DESCRIPTORS,
            ..BASE_FEATURES
        },
    },
    DialectInfo {
        dialect: Dialect::HackEm,
        name: "hackem",
        title: "HackEM",
        doc: "HackEM: DESCRIPTION also takes vecnad (older versions gtown and iceq); limits \
              MAXDUNGEON 64, MAXLEVEL 64, 99 special levels, 32 branches.",
        limits: Limits::nethack(64, 64, 99, 32),
        features: Features {
            extra_descriptors: HACKEM_DESCRIPTORS,
            ..BASE_FEATURES
        },
    },
    DialectInfo {
        dialect: Dialect::NetHack4,
        name: "nethack4",
        title: "NetHack4",
        doc: "NetHack4, FIQHack, Fourk, bingehack4: vanilla's language and limits; their \
              compiler also reports duplicate dungeon names and bad depths (which dgnkit \
              reports in every dialect). The binary header differs.",
        limits: Limits::nethack(16, 32, 50, 32),
        features: BASE_FEATURES,
    },
    DialectInfo {
        dialect: Dialect::SpliceHack,
        name: "splicehack",
        title: "SpliceHack",
        doc: "SpliceHack and SliceHack: vanilla's language with MAXLEVEL 35. SpliceHack on \
              NetHack 3.7 reads a dungeon.lua whose dungeons take a `nofood` flag (bit 0x10, \
              the chaotic alignment's) and no `unconnected`.",
        limits: Limits::nethack(16, 35, 50, 32),
        features: Features {
            lua_flags: LuaFlags::NoFood,
            ..BASE_FEATURES
        },
    },
    DialectInfo {
        dialect: Dialect::XNetHack,
        name: "xnethack",
        title: "xNetHack",
        doc: "xNetHack 9 (on NetHack 3.7): 3.7's dungeon.lua with MAXDUNGEON 32 \
              (include/global.h:408) and no `roguelike` flag (no rogue level).",
        limits: Limits::nethack(32, 32, 50, 32),
        features: Features {
            lua_flags: LuaFlags::NoRoguelike,
            ..BASE_FEATURES
        },
    },
    DialectInfo {
        dialect: Dialect::NerfHack,
        name: "nerfhack",
        title: "NerfHack",
        doc: "NerfHack (on NetHack 3.7): 3.7's dungeon.lua with LEV_LIMIT 64 \
              (include/dgn_file.h:72).",
        limits: Limits::nethack(16, 32, 64, 32),
        features: BASE_FEATURES,
    },
    DialectInfo {
        dialect: Dialect::YzHack,
        name: "yzhack",
        title: "yzhack",
        doc: "yzhack: vanilla's language with MAXDUNGEON 32, MAXLEVEL 50, 99 special levels.",
        limits: Limits::nethack(32, 50, 99, 32),
        features: BASE_FEATURES,
    },
];

impl Dialect {
    pub const ALL: [Dialect; 16] = [
        Dialect::Vanilla,
        Dialect::Vanilla31,
        Dialect::Slash,
        Dialect::Slashem,
        Dialect::SlashemExtended,
        Dialect::DNetHack,
        Dialect::Dnao,
        Dialect::UnNetHack,
        Dialect::GnollHack,
        Dialect::EvilHack,
        Dialect::HackEm,
        Dialect::NetHack4,
        Dialect::SpliceHack,
        Dialect::YzHack,
        Dialect::XNetHack,
        Dialect::NerfHack,
    ];

    pub fn info(self) -> &'static DialectInfo {
        // DIALECTS lists every variant in declaration order.
        DIALECTS
            .iter()
            .find(|d| d.dialect == self)
            .unwrap_or(&DIALECTS[0])
    }

    /// The `--dialect` value.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn title(self) -> &'static str {
        self.info().title
    }

    pub fn doc(self) -> &'static str {
        self.info().doc
    }

    /// Whether the dialect is one of a `dungeon.def` (a game with
    /// `dgn_comp`); xNetHack's and NerfHack's are of their `dungeon.lua`
    /// only, and never suggested for a `.def` file.
    pub fn reads_def(self) -> bool {
        !matches!(self, Dialect::XNetHack | Dialect::NerfHack)
    }

    pub fn features(self) -> &'static Features {
        &self.info().features
    }

    /// Parses a `--dialect` value (case-insensitive; `_` and `-` alike).
    pub fn parse(s: &str) -> Option<Dialect> {
        let norm = s.trim().to_ascii_lowercase().replace('_', "-");
        Dialect::ALL.into_iter().find(|d| d.name() == norm)
    }

    /// The limits that apply for `game`: the dialect's game limits when
    /// the game has fixed tables, none for dgnkit's own format.
    pub fn limits(self, game: CheckGame) -> Limits {
        if game.fixed_tables {
            self.info().limits
        } else {
            Limits::UNLIMITED
        }
    }

    /// The flag a `DESCRIPTION:` word sets in this dialect, beyond vanilla's.
    pub fn extra_descriptor(self, word: &str) -> Option<u32> {
        self.features()
            .extra_descriptors
            .iter()
            .find(|(w, _)| *w == word)
            .map(|&(_, f)| f)
    }

    /// Dialects that accept the `DESCRIPTION:` word `word` as an extension.
    pub fn with_descriptor(word: &str) -> Vec<Dialect> {
        Dialect::ALL
            .into_iter()
            .filter(|d| d.extra_descriptor(word).is_some())
            .collect()
    }

    /// A dialect whose constructs this file uses, judged from the syntax tree
    /// alone (display names, TILESET, branch entry levels, repeated dungeon
    /// names, extra descriptors, `%MULDGN`); `None` when nothing in it needs
    /// more than vanilla's syntax. `dgn check` uses it to suggest `--dialect`
    /// when the selected dialect rejects such a construct.
    pub fn guess(file: &SourceFile) -> Option<Dialect> {
        let mut display = false;
        let mut tileset = false;
        let mut branch_entry = false;
        let mut entry_stmt = false;
        let mut words: Vec<&str> = Vec::new();
        let mut dungeon_names: Vec<&[u8]> = Vec::new();
        let mut repeated = false;
        let mut dungeons = 0u32;
        let mut levels = 0u32;
        let mut branches = 0u32;
        for stmt in &file.statements {
            match &stmt.kind {
                StmtKind::Dungeon(d) => {
                    dungeons += 1;
                    if dungeon_names.contains(&d.name.bytes.as_slice()) {
                        repeated = true;
                    }
                    dungeon_names.push(&d.name.bytes);
                }
                StmtKind::Level(l) => {
                    levels += 1;
                    display |= l.display.is_some();
                }
                StmtKind::Branch(b) => {
                    branches += 1;
                    branch_entry |= b.entry.is_some();
                }
                StmtKind::Tileset(_) => tileset = true,
                StmtKind::Entry(_) => entry_stmt = true,
                StmtKind::Description(w) => words.push(&w.word.text),
                _ => {}
            }
        }
        let muldgn = file.flag_lines.iter().any(|f| f.name == "MULDGN");
        if display || tileset {
            return Some(Dialect::GnollHack);
        }
        if branch_entry {
            let fits = Dialect::Slashem.info().limits;
            let big = fits.max_dungeons.is_some_and(|m| dungeons > m)
                || fits.max_levels.is_some_and(|m| levels > m)
                || fits.max_branches.is_some_and(|m| branches > m);
            return Some(if entry_stmt || big {
                Dialect::SlashemExtended
            } else {
                Dialect::Slashem
            });
        }
        if repeated {
            return Some(Dialect::Dnao);
        }
        let nonvanilla: Vec<&str> = words
            .into_iter()
            .filter(|w| Dialect::Vanilla.descriptor_flag(w).is_none())
            .collect();
        if !nonvanilla.is_empty() {
            return [Dialect::HackEm, Dialect::EvilHack]
                .into_iter()
                .find(|d| nonvanilla.iter().all(|w| d.extra_descriptor(w).is_some()))
                .or(Some(Dialect::EvilHack));
        }
        if muldgn {
            return Some(Dialect::Vanilla31);
        }
        None
    }

    /// The flag bits a descriptor word sets, or `None` when the word is not a
    /// descriptor in this dialect. Alignments are returned in NetHack's
    /// encoding (already shifted).
    pub fn descriptor_flag(self, word: &str) -> Option<u32> {
        let align = |a: u32| a << flags::ALIGN_SHIFT;
        Some(match word {
            "town" => flags::TOWN,
            "hellish" => flags::HELLISH,
            "mazelike" => flags::MAZELIKE,
            "roguelike" => flags::ROGUELIKE,
            "unaligned" | "noalign" => 0,
            "chaotic" => align(flags::ALIGN_CHAOTIC),
            "neutral" => align(flags::ALIGN_NEUTRAL),
            "lawful" => align(flags::ALIGN_LAWFUL),
            _ => return self.extra_descriptor(word),
        })
    }
}

/// The four statements that take a descriptor word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DescStmt {
    /// `DESCRIPTION:` (dungeon flags).
    Description,
    /// `ALIGNMENT:` (dungeon alignment).
    Alignment,
    /// `LEVELDESC:` (level flags).
    LevelDesc,
    /// `LEVALIGN:` (level alignment).
    LevAlign,
}

impl DescStmt {
    pub fn keyword(self) -> &'static str {
        match self {
            DescStmt::Description => "DESCRIPTION",
            DescStmt::Alignment => "ALIGNMENT",
            DescStmt::LevelDesc => "LEVELDESC",
            DescStmt::LevAlign => "LEVALIGN",
        }
    }

    /// The words the statement takes in `dialect`, for messages.
    pub fn valid_words(self, dialect: Dialect) -> Vec<&'static str> {
        let mut words: Vec<&'static str> = match self {
            DescStmt::Description => vec!["hellish", "mazelike", "roguelike"],
            DescStmt::Alignment | DescStmt::LevAlign => {
                vec!["unaligned", "noalign", "lawful", "neutral", "chaotic"]
            }
            DescStmt::LevelDesc => vec!["town", "hellish", "mazelike", "roguelike", "unaligned"],
        };
        if self == DescStmt::Description {
            words.extend(dialect.features().extra_descriptors.iter().map(|(w, _)| *w));
        }
        words
    }
}

/// Why a descriptor word is rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DescriptorError {
    /// A descriptor, but not one this statement takes (`DESCRIPTION: town`).
    WrongStatement,
    /// Not a descriptor in this dialect at all.
    Unknown,
}

impl Dialect {
    /// The flag bits `word` sets on `stmt`, following dgn_comp's rules:
    /// DESCRIPTION takes hellish/mazelike/roguelike (and the dialect's extra
    /// words), ALIGNMENT/LEVALIGN only alignments, LEVELDESC anything but an
    /// alignment other than `unaligned`.
    pub fn descriptor(self, stmt: DescStmt, word: &str) -> Result<u32, DescriptorError> {
        let value = self.descriptor_flag(word).ok_or(DescriptorError::Unknown)?;
        let extra = self.extra_descriptor(word).is_some();
        let is_alignment = matches!(
            word,
            "unaligned" | "noalign" | "lawful" | "neutral" | "chaotic"
        );
        let ok = match stmt {
            DescStmt::Description => extra || matches!(word, "hellish" | "mazelike" | "roguelike"),
            DescStmt::Alignment | DescStmt::LevAlign => is_alignment,
            DescStmt::LevelDesc => !extra && (!is_alignment || value == 0),
        };
        if ok {
            Ok(value)
        } else {
            Err(DescriptorError::WrongStatement)
        }
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dialect_has_one_table_entry_and_round_trips_its_name() {
        for d in Dialect::ALL {
            assert_eq!(
                DIALECTS.iter().filter(|i| i.dialect == d).count(),
                1,
                "{d:?}"
            );
            assert_eq!(Dialect::parse(d.name()), Some(d));
        }
        assert_eq!(DIALECTS.len(), Dialect::ALL.len());
        assert_eq!(
            Dialect::parse("SLASHEM_extended"),
            Some(Dialect::SlashemExtended)
        );
        assert_eq!(Dialect::parse("nope"), None);
    }

    #[test]
    fn native_target_has_no_limits() {
        assert_eq!(
            Dialect::Vanilla.limits(crate::test_games::NATIVE),
            Limits::UNLIMITED
        );
        let v = Dialect::Vanilla.limits(crate::test_games::FIXED);
        assert_eq!(v.max_dungeons, Some(15));
        assert_eq!(v.max_level, Some(32));
        assert_eq!(
            Dialect::Vanilla31
                .limits(crate::test_games::FIXED)
                .max_level,
            Some(30)
        );
        assert_eq!(
            Dialect::SpliceHack
                .limits(crate::test_games::FIXED)
                .max_level,
            Some(35)
        );
    }

    #[test]
    fn descriptors_depend_on_the_dialect() {
        assert_eq!(Dialect::Vanilla.descriptor_flag("iceq"), None);
        assert_eq!(
            Dialect::EvilHack.descriptor_flag("iceq"),
            Some(flags::EXT_ICEQ)
        );
        assert_eq!(Dialect::HackEm.descriptor_flag("purg"), None);
        assert_eq!(Dialect::Vanilla.descriptor_flag("lawful"), Some(0x40));
        assert_eq!(Dialect::with_descriptor("purg"), vec![Dialect::EvilHack]);
    }
}
