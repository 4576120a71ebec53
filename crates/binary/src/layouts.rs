//! Where each game's `dgn_comp` puts each field: one descriptor per layout
//! (the structs of the game's `include/dgn_file.h` and `struct
//! version_info` as gcc lays them out on Linux x86_64). The reader and the
//! writer in [`super::nethack`] take every offset from here, so a family's
//! layout is data, not code.
//!
//! Sources (each family's README in `shared/expected/variants/` and its
//! `include/dgn_file.h`, `include/global.h`):
//! - NetHack 3.4.3/3.6: `dgn_file.h` (76/48/40-byte records), 4 or 5 `unsigned
//!   long` header words.
//! - EvilHack (k21971/EvilHack `include/dgn_file.h:54-72`): vanilla records,
//!   its own flag bits (ICEQ 16 ... HDGN 256, alignment `<< 9`), LEV_LIMIT 99.
//! - UnNetHack: vanilla 3.4.3 records and header, LEV_LIMIT 99.
//! - SLASH'EM: `tmpdungeon` without `entry_lev` (72 bytes), `tmpbranch`
//!   with `int entry_lev` at 40 (44 bytes); MAXDUNGEON 32, LEV_LIMIT 99.
//! - dNetHack (dNAO): `tmpdungeon` with `int alternates` after `levels`
//!   (80 bytes); MAXDUNGEON 32, LEV_LIMIT 150.
//! - GnollHack: 56-byte header; 48-byte dungeon and branch names, 15-byte
//!   PROTOFILE, level display name [64] before a [48] file name, TILESET.
//! - DynaHack: a 12-byte header of three `unsigned int`s, vanilla records.

use super::BinaryFormat;

/// A NUL-terminated name field: offset and size (the usable length is one
/// less).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameField {
    pub off: usize,
    pub len: usize,
}

const fn name(off: usize, len: usize) -> NameField {
    NameField { off, len }
}

/// `struct tmpdungeon`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DungeonFields {
    pub len: usize,
    pub name: NameField,
    pub proto: NameField,
    /// `struct couple lev` (two shorts).
    pub size: usize,
    pub flags: usize,
    pub chance: usize,
    pub levels: usize,
    /// dNAO: how many other records have this record's name.
    pub alternates: Option<usize>,
    pub branches: usize,
    /// `entry_lev` (SLASH'EM has none: the entry level is on the branch).
    pub entry: Option<usize>,
    pub bones: usize,
    /// GnollHack: `has_tileset` here, `tileset` in the next byte.
    pub tileset: Option<usize>,
}

/// `struct tmplevel`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelFields {
    pub len: usize,
    /// The level's file name (what chains and the loader use).
    pub name: NameField,
    /// GnollHack: the display name before it.
    pub display: Option<NameField>,
    pub range: usize,
    pub chance: usize,
    pub rndlevs: usize,
    pub chain: usize,
    pub flags: usize,
    pub bones: usize,
}

/// `struct tmpbranch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BranchFields {
    pub len: usize,
    pub target: NameField,
    pub range: usize,
    pub chain: usize,
    pub kind: usize,
    pub up: usize,
    /// SLASH'EM: the entry level in the target dungeon.
    pub entry: Option<usize>,
}

/// How the flag words encode dgnkit's canonical flag bits
/// ([`crate::script::flags`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagBits {
    /// town 1, hellish 2, mazelike 4, roguelike 8, alignment `<< 4`.
    NetHack,
    /// EvilHack: vanilla's four, then iceq 16, vecnad 32, gtown 64,
    /// purgatory 128, hdgn 256, alignment `<< 9` (`dgn_file.h:54-72`).
    EvilHack,
}

/// `struct version_info` as the game's `dgn_comp` writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Bytes of the header (words plus any zero tail).
    pub len: usize,
    /// Bytes of each word (8: `unsigned long`, 4: `unsigned int`).
    pub word: usize,
    /// A default build's words; the rest of `len` is zero.
    pub words: &'static [u64],
}

/// One game's compiled layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub format: BinaryFormat,
    pub header: Header,
    pub dungeon: DungeonFields,
    pub level: LevelFields,
    pub branch: BranchFields,
    pub flags: FlagBits,
    /// dgn_comp's record arrays (MAXDUNGEON, LEV_LIMIT, BRANCH_LIMIT): a
    /// file cannot hold more without the original writing past them.
    pub max_dungeons: usize,
    pub max_levels: usize,
    pub max_branches: usize,
}

const VANILLA_DUNGEON: DungeonFields = DungeonFields {
    len: 76,
    name: name(0, 24),
    proto: name(24, 24),
    size: 48,
    flags: 52,
    chance: 56,
    levels: 60,
    alternates: None,
    branches: 64,
    entry: Some(68),
    bones: 72,
    tileset: None,
};

const VANILLA_LEVEL: LevelFields = LevelFields {
    len: 48,
    name: name(0, 24),
    display: None,
    range: 24,
    chance: 28,
    rndlevs: 32,
    chain: 36,
    flags: 40,
    bones: 44,
};

const VANILLA_BRANCH: BranchFields = BranchFields {
    len: 40,
    target: name(0, 24),
    range: 24,
    chain: 28,
    kind: 32,
    up: 36,
    entry: None,
};

pub const NETHACK_343: Layout = Layout {
    format: BinaryFormat::NetHack343,
    header: Header {
        len: 32,
        word: 8,
        words: &[0x0304_0300, 0x001e_0cc6, 0x211b_117e, 0xb8d2_4950],
    },
    dungeon: VANILLA_DUNGEON,
    level: VANILLA_LEVEL,
    branch: VANILLA_BRANCH,
    flags: FlagBits::NetHack,
    max_dungeons: 16,
    max_levels: 50,
    max_branches: 32,
};

pub const NETHACK_36: Layout = Layout {
    format: BinaryFormat::NetHack36,
    header: Header {
        len: 40,
        word: 8,
        words: &[
            0x0306_0700,
            0x0006_0040,
            0x211c_617e,
            0x0000_0001_48c2_4958,
            0x0002_8000,
        ],
    },
    ..NETHACK_343
};

pub const EVILHACK: Layout = Layout {
    format: BinaryFormat::EvilHack,
    header: Header {
        len: 40,
        word: 8,
        words: &[
            0x0009_0300,
            0x000e_0040,
            0x4023_6234,
            0x0000_0001_6914_0c08,
            0x0002_a000,
        ],
    },
    flags: FlagBits::EvilHack,
    max_levels: 99,
    ..NETHACK_343
};

pub const UNNETHACK: Layout = Layout {
    format: BinaryFormat::UnNetHack,
    header: Header {
        len: 32,
        word: 8,
        words: &[0x0600_0f00, 0x0016_10ce, 0x2721_d1b3, 0x0000_0001_3913_4b20],
    },
    max_levels: 99,
    ..NETHACK_343
};

pub const SLASHEM: Layout = Layout {
    format: BinaryFormat::SlashEm,
    header: Header {
        len: 32,
        word: 8,
        words: &[0x0000_0800, 0x001f_eecc, 0x4421_9264, 0xc0d2_8978],
    },
    dungeon: DungeonFields {
        len: 72,
        entry: None,
        bones: 68,
        ..VANILLA_DUNGEON
    },
    branch: BranchFields {
        len: 44,
        entry: Some(40),
        ..VANILLA_BRANCH
    },
    max_dungeons: 32,
    max_levels: 99,
    ..NETHACK_343
};

pub const DNETHACK: Layout = Layout {
    format: BinaryFormat::DNetHack,
    header: Header {
        len: 32,
        word: 8,
        words: &[
            0x0317_0000,
            0x003e_0c86,
            0x0000_0001_4831_b434,
            0x0000_0001_31a6_d9b0,
        ],
    },
    dungeon: DungeonFields {
        len: 80,
        alternates: Some(64),
        branches: 68,
        entry: Some(72),
        bones: 76,
        ..VANILLA_DUNGEON
    },
    max_dungeons: 32,
    max_levels: 150,
    ..NETHACK_343
};

pub const GNOLLHACK: Layout = Layout {
    format: BinaryFormat::GnollHack,
    header: Header {
        len: 56,
        word: 8,
        words: &[
            0x0403_000b,
            0x000e_0040,
            0x443c_b21f,
            0x2a2c_9048,
            0x0058_4590,
        ],
    },
    dungeon: DungeonFields {
        len: 92,
        name: name(0, 48),
        proto: name(48, 15),
        size: 64,
        flags: 68,
        chance: 72,
        levels: 76,
        alternates: None,
        branches: 80,
        entry: Some(84),
        bones: 88,
        tileset: Some(89),
    },
    level: LevelFields {
        len: 136,
        name: name(64, 48),
        display: Some(name(0, 64)),
        range: 112,
        chance: 116,
        rndlevs: 120,
        chain: 124,
        flags: 128,
        bones: 132,
    },
    branch: BranchFields {
        len: 64,
        target: name(0, 48),
        range: 48,
        chain: 52,
        kind: 56,
        up: 60,
        entry: None,
    },
    ..NETHACK_343
};

pub const DYNAHACK: Layout = Layout {
    format: BinaryFormat::DynaHack,
    header: Header {
        len: 12,
        word: 4,
        words: &[0x0000_0100, 0, 0x2421_a193],
    },
    ..NETHACK_343
};

/// Every NetHack-family layout, in [`BinaryFormat::ALL`] order.
pub const ALL: [&Layout; 8] = [
    &NETHACK_343,
    &NETHACK_36,
    &EVILHACK,
    &UNNETHACK,
    &SLASHEM,
    &DNETHACK,
    &GNOLLHACK,
    &DYNAHACK,
];

impl Layout {
    /// The default header's bytes.
    pub fn default_header(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self
            .header
            .words
            .iter()
            .flat_map(|w| w.to_le_bytes()[..self.header.word].to_vec())
            .collect();
        out.resize(self.header.len, 0);
        out
    }

    /// Bytes of a file with these record counts.
    pub fn file_len(&self, dungeons: usize, levels: usize, branches: usize) -> usize {
        self.header.len
            + 4
            + self.dungeon.len * dungeons
            + self.level.len * levels
            + self.branch.len * branches
    }
}

/// The layout of a NetHack-family format (`None` for native).
pub fn of(format: BinaryFormat) -> Option<&'static Layout> {
    ALL.into_iter().find(|l| l.format == format)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_lie_inside_their_records_without_overlap() {
        for l in ALL {
            let d = &l.dungeon;
            let mut spans = vec![
                (d.name.off, d.name.len),
                (d.proto.off, d.proto.len),
                (d.size, 4),
                (d.flags, 4),
                (d.chance, 4),
                (d.levels, 4),
                (d.branches, 4),
                (d.bones, 1),
            ];
            spans.extend(d.alternates.map(|o| (o, 4)));
            spans.extend(d.entry.map(|o| (o, 4)));
            spans.extend(d.tileset.map(|o| (o, 2)));
            check(l.format, "dungeon", d.len, spans);
            let v = &l.level;
            let mut spans = vec![
                (v.name.off, v.name.len),
                (v.range, 4),
                (v.chance, 4),
                (v.rndlevs, 4),
                (v.chain, 4),
                (v.flags, 4),
                (v.bones, 1),
            ];
            spans.extend(v.display.map(|f| (f.off, f.len)));
            check(l.format, "level", v.len, spans);
            let b = &l.branch;
            let mut spans = vec![
                (b.target.off, b.target.len),
                (b.range, 4),
                (b.chain, 4),
                (b.kind, 4),
                (b.up, 4),
            ];
            spans.extend(b.entry.map(|o| (o, 4)));
            check(l.format, "branch", b.len, spans);
            assert_eq!(l.default_header().len(), l.header.len);
        }
    }

    fn check(format: BinaryFormat, what: &str, len: usize, mut spans: Vec<(usize, usize)>) {
        spans.sort();
        for w in spans.windows(2) {
            assert!(w[0].0 + w[0].1 <= w[1].0, "{format} {what}: {spans:?}");
        }
        let last = spans.last().map_or(0, |s| s.0 + s.1);
        assert!(last <= len, "{format} {what}: ends at {last} > {len}");
    }
}
