//! NetHack's own compiled layout, as `dgn_comp` writes it on Linux x86_64
//! (see `binary-format.md`): a version header (four 8-byte words in 3.4.3,
//! five in 3.6), `int n_dgns`, then per dungeon one `tmpdungeon` followed by
//! its `tmplevel` and `tmpbranch` records. Little-endian, no alignment gaps
//! between records, zero padding inside them.
//!
//! The reader walks the file once through a [`Sink`]: the script builder and
//! the allocation-free validator share every check, so validating a file
//! answers exactly what reading it would.

use super::layouts::{self, FlagBits, Layout, NameField};
use super::{
    chain_expectation, chain_ok, lossy, BinaryFormat, ReadError, ReadScript, WriteError,
    NETHACK_FLAGS,
};
use crate::script::{flags, Branch, BranchType, Dungeon, Level, Range, Script};

/// Vanilla's record sizes and dgn_comp arrays (every family's are in
/// [`super::layouts`]).
pub const NAME_LEN: usize = 24;
/// `sizeof(struct tmpdungeon)`.
pub const DUNGEON_LEN: usize = layouts::NETHACK_343.dungeon.len;
/// `sizeof(struct tmplevel)`.
pub const LEVEL_LEN: usize = layouts::NETHACK_343.level.len;
/// `sizeof(struct tmpbranch)`.
pub const BRANCH_LEN: usize = layouts::NETHACK_343.branch.len;
pub const MAX_DUNGEONS: usize = layouts::NETHACK_343.max_dungeons;
pub const MAX_LEVELS: usize = layouts::NETHACK_343.max_levels;
pub const MAX_BRANCHES: usize = layouts::NETHACK_343.max_branches;

/// Length of the version header of a NetHack-family layout (0 for native).
pub fn header_len(format: BinaryFormat) -> usize {
    layouts::of(format).map_or(0, |l| l.header.len)
}

/// The version header a default build of that game writes.
pub fn default_header(format: BinaryFormat) -> Vec<u8> {
    layouts::of(format).map_or_else(Vec::new, Layout::default_header)
}

/// The family from the version header alone (never from the records, so
/// that a damaged record never changes which layout the rest is read as).
/// The first word is the incarnation, `major<<24 | minor<<16 | patch<<8 |
/// edit`: 3.0-3.5 NetHack 3.4.3's layout, 3.6 NetHack 3.6's, 3.8 and later
/// dNetHack's (dNAO 3.23), 4.x GnollHack's, 5.x-6.x UnNetHack's, 0.1 and
/// later EvilHack's, 0.0.2 and later SLASH'EM's (0.0.8); DynaHack writes
/// `unsigned int` words and is 0.0.1.
pub fn detect(bytes: &[u8]) -> Result<BinaryFormat, ReadError> {
    let Some(word) = bytes.first_chunk::<8>() else {
        return Err(ReadError::new(
            bytes.len(),
            format!(
                "file is {} bytes long: too short for a NetHack version header or the dgnkit magic",
                bytes.len()
            ),
        ));
    };
    let incarnation = u64::from_le_bytes(*word);
    let low = incarnation & 0xFFFF_FFFF;
    let (major, minor, patch) = ((low >> 24) & 0xFF, (low >> 16) & 0xFF, (low >> 8) & 0xFF);
    // DynaHack's second word (feature_set) shares these 8 bytes.
    if major == 0 && minor == 0 && patch <= 1 && low != 0 {
        return Ok(BinaryFormat::DynaHack);
    }
    let found = if incarnation >> 32 != 0 {
        None
    } else {
        match (major, minor) {
            (3, 0..=5) => Some(BinaryFormat::NetHack343),
            (3, 6) => Some(BinaryFormat::NetHack36),
            (3, 8..) => Some(BinaryFormat::DNetHack),
            (4, _) => Some(BinaryFormat::GnollHack),
            (5 | 6, _) => Some(BinaryFormat::UnNetHack),
            (0, 1..) => Some(BinaryFormat::EvilHack),
            (0, 0) if patch >= 2 => Some(BinaryFormat::SlashEm),
            _ => None,
        }
    };
    found.ok_or_else(|| {
        ReadError::new(
            0,
            format!(
                "not a compiled dungeon file: the first 8 bytes ({}) are neither the dgnkit magic nor a version number a NetHack-family dgn_comp writes (expected e.g. 0x03040300 for 3.4.3, 0x03060700 for 3.6.7, 0x00090300 for EvilHack 0.9.3)",
                hex(word)
            ),
        )
    })
}

/// The version (major, minor, patch) a header's incarnation word states:
/// the version of the `dgn_comp` that wrote the file. `None` when the bytes
/// do not start with a NetHack-family header ([`detect`]).
pub fn header_version(bytes: &[u8]) -> Option<(u8, u8, u8)> {
    detect(bytes).ok()?;
    let [_edit, patch, minor, major] = *bytes.first_chunk::<4>()?;
    Some((major, minor, patch))
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One `tmpdungeon` as found in the file.
pub struct DungeonRec<'a> {
    pub name: &'a [u8],
    pub proto: &'a [u8],
    pub size: Range,
    pub flags: u32,
    pub chance: i32,
    pub levels: usize,
    pub branches: usize,
    pub entry: i32,
    pub bones: u8,
    pub tileset: Option<i32>,
}

pub struct LevelRec<'a> {
    pub name: &'a [u8],
    pub display: Option<&'a [u8]>,
    pub range: Range,
    pub chance: i32,
    pub rndlevs: i32,
    pub chain: i32,
    pub flags: u32,
    pub bones: u8,
}

pub struct BranchRec<'a> {
    pub target: &'a [u8],
    pub range: Range,
    pub chain: i32,
    pub branch_type: BranchType,
    pub up: bool,
    pub entry: Option<i32>,
}

/// Receives the records in file order; only called with validated records.
pub trait Sink {
    fn dungeon(&mut self, rec: DungeonRec<'_>);
    fn level(&mut self, rec: LevelRec<'_>);
    fn branch(&mut self, rec: BranchRec<'_>);
}

pub struct NoSink;

impl Sink for NoSink {
    fn dungeon(&mut self, _: DungeonRec<'_>) {}
    fn level(&mut self, _: LevelRec<'_>) {}
    fn branch(&mut self, _: BranchRec<'_>) {}
}

struct Builder {
    script: Script,
}

impl Sink for Builder {
    fn dungeon(&mut self, rec: DungeonRec<'_>) {
        self.script.dungeons.push(Dungeon {
            name: rec.name.to_vec(),
            proto: rec.proto.to_vec(),
            bones: rec.bones,
            size: rec.size,
            flags: rec.flags,
            chance: rec.chance,
            entry: rec.entry,
            // Capacities come from counts already checked against the file size.
            levels: Vec::with_capacity(rec.levels),
            branches: Vec::with_capacity(rec.branches),
            tileset: rec.tileset,
            lua: Default::default(),
        });
    }

    fn level(&mut self, rec: LevelRec<'_>) {
        if let Some(d) = self.script.dungeons.last_mut() {
            d.levels.push(Level {
                name: rec.name.to_vec(),
                display: rec.display.map(<[u8]>::to_vec),
                bones: rec.bones,
                range: rec.range,
                chance: rec.chance,
                rndlevs: rec.rndlevs,
                chain: rec.chain,
                flags: rec.flags,
            });
        }
    }

    fn branch(&mut self, rec: BranchRec<'_>) {
        if let Some(d) = self.script.dungeons.last_mut() {
            d.branches.push(Branch {
                target: rec.target.to_vec(),
                range: rec.range,
                chain: rec.chain,
                branch_type: rec.branch_type,
                up: rec.up,
                entry: rec.entry,
            });
        }
    }
}

/// Reads a NetHack-family file (`format` must be one of those layouts).
pub fn read(bytes: &[u8], format: BinaryFormat) -> Result<ReadScript, ReadError> {
    let mut builder = Builder {
        script: Script::default(),
    };
    let header = walk(bytes, format, &mut builder)?;
    Ok(ReadScript {
        script: builder.script,
        format,
        header: header.to_vec(),
        dialect: None,
    })
}

/// Validates without building anything.
pub fn check(bytes: &[u8], format: BinaryFormat) -> Result<(), ReadError> {
    walk(bytes, format, &mut NoSink).map(|_| ())
}

/// A fixed-size record's fields, by offset inside the record (offsets come
/// from the layout and lie inside the record: `layouts` tests that).
struct Record<'a> {
    bytes: &'a [u8],
    /// Build no error messages (see [`Walker::quiet`]).
    quiet: bool,
    /// File offset of the record.
    at: usize,
}

// The accessors are forced inline because the exhaustive mutation tests
// run them tens of millions of times in unoptimised builds; a field past
// the record reads as zero rather than panicking.
impl<'a> Record<'a> {
    #[inline(always)]
    fn array<const N: usize>(&self, off: usize) -> [u8; N] {
        self.bytes
            .get(off..)
            .and_then(|b| b.first_chunk::<N>())
            .copied()
            .unwrap_or([0; N])
    }

    #[inline(always)]
    fn i16(&self, off: usize) -> i32 {
        i32::from(i16::from_le_bytes(self.array(off)))
    }

    #[inline(always)]
    fn i32(&self, off: usize) -> i32 {
        i32::from_le_bytes(self.array(off))
    }

    #[inline(always)]
    fn u8(&self, off: usize) -> u8 {
        self.bytes.get(off).copied().unwrap_or(0)
    }

    #[inline(always)]
    fn range(&self, off: usize) -> Range {
        Range {
            base: self.i16(off),
            rand: self.i16(off + 2),
        }
    }

    /// A NUL-terminated name in its field.
    fn name(&self, field: NameField, what: impl FnOnce() -> String) -> Result<&'a [u8], ReadError> {
        let bytes: &'a [u8] = self.bytes;
        let f = bytes.get(field.off..field.off + field.len).unwrap_or(&[]);
        // CStr's search is precompiled (fast even in unoptimised builds).
        match std::ffi::CStr::from_bytes_until_nul(f) {
            Ok(name) => Ok(name.to_bytes()),
            Err(_) => Err(fail(self.quiet, self.at + field.off, || {
                format!(
                    "{} has no NUL terminator in its {}-byte field (found \"{}\")",
                    what(),
                    field.len,
                    lossy(f)
                )
            })),
        }
    }

    /// The flag word, in dgnkit's canonical bits.
    fn flags(
        &self,
        off: usize,
        bits: FlagBits,
        what: impl FnOnce() -> String,
    ) -> Result<u32, ReadError> {
        let raw = self.i32(off) as u32;
        decode_flags(raw, bits).map_err(|unknown| {
            fail(self.quiet, self.at + off, || {
                format!(
                    "{} has flags 0x{raw:x}: bits 0x{unknown:x} are unknown (known: {})",
                    what(),
                    flag_names(bits)
                )
            })
        })
    }
}

fn flag_names(bits: FlagBits) -> &'static str {
    match bits {
        FlagBits::NetHack => "town 0x1, hellish 0x2, mazelike 0x4, roguelike 0x8, alignment 0x70",
        FlagBits::EvilHack => {
            "town 0x1, hellish 0x2, mazelike 0x4, roguelike 0x8, iceq 0x10, vecnad 0x20, gtown 0x40, purg 0x80, hdgn 0x100, alignment 0xe00"
        }
    }
}

/// EvilHack's bits after vanilla's four (`dgn_file.h`), with the canonical
/// bit each stands for.
const EVILHACK_EXTRA: [(u32, u32); 5] = [
    (16, flags::EXT_ICEQ),
    (32, flags::EXT_VECNAD),
    (64, flags::EXT_GTOWN),
    (128, flags::EXT_PURG),
    (256, flags::EXT_HDGN),
];
const BASE_BITS: u32 = flags::TOWN | flags::HELLISH | flags::MAZELIKE | flags::ROGUELIKE;
const EVILHACK_ALIGN_SHIFT: u32 = 9;

/// File flag word -> canonical bits, or the unknown bits.
fn decode_flags(raw: u32, bits: FlagBits) -> Result<u32, u32> {
    match bits {
        FlagBits::NetHack => {
            if raw & !NETHACK_FLAGS != 0 {
                Err(raw & !NETHACK_FLAGS)
            } else {
                Ok(raw)
            }
        }
        FlagBits::EvilHack => {
            let align_mask = 0x7 << EVILHACK_ALIGN_SHIFT;
            let mut known = BASE_BITS | align_mask;
            let mut out = raw & BASE_BITS;
            for (file, canon) in EVILHACK_EXTRA {
                known |= file;
                if raw & file != 0 {
                    out |= canon;
                }
            }
            if raw & !known != 0 {
                return Err(raw & !known);
            }
            out |= ((raw & align_mask) >> EVILHACK_ALIGN_SHIFT) << flags::ALIGN_SHIFT;
            Ok(out)
        }
    }
}

/// Canonical bits -> the file's flag word, or the bits it cannot hold.
fn encode_flags(f: u32, bits: FlagBits) -> Result<u32, u32> {
    match bits {
        FlagBits::NetHack => {
            if f & !NETHACK_FLAGS != 0 {
                Err(f & !NETHACK_FLAGS)
            } else {
                Ok(f)
            }
        }
        FlagBits::EvilHack => {
            let mut known = BASE_BITS | flags::ALIGN_MASK;
            let mut out = f & BASE_BITS;
            for (file, canon) in EVILHACK_EXTRA {
                known |= canon;
                if f & canon != 0 {
                    out |= file;
                }
            }
            if f & !known != 0 {
                return Err(f & !known);
            }
            out |= ((f & flags::ALIGN_MASK) >> flags::ALIGN_SHIFT) << EVILHACK_ALIGN_SHIFT;
            Ok(out)
        }
    }
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    quiet: bool,
}

/// An error whose message is built only when someone will read it.
fn fail(quiet: bool, at: usize, message: impl FnOnce() -> String) -> ReadError {
    ReadError::new(at, if quiet { String::new() } else { message() })
}

impl<'a> Cursor<'a> {
    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    #[inline(always)]
    fn record(
        &mut self,
        len: usize,
        what: impl FnOnce() -> String,
    ) -> Result<Record<'a>, ReadError> {
        let at = self.pos;
        let rest = self.bytes.get(at..).unwrap_or(&[]);
        match rest.get(..len) {
            Some(bytes) => {
                self.pos = at + len;
                Ok(Record {
                    bytes,
                    at,
                    quiet: self.quiet,
                })
            }
            None => Err(fail(self.quiet, self.bytes.len(), || {
                format!(
                    "file is truncated: it ends {} bytes into {} ({len} bytes)",
                    rest.len(),
                    what()
                )
            })),
        }
    }
}

/// Where the walk is: which record comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The `n_dgns` word.
    Count,
    /// Dungeon record `d`.
    Dungeon,
    /// Level record `i` of dungeon `d`.
    Level(usize),
    /// Branch record `i` of dungeon `d`.
    Branch(usize),
    /// After the last record: only the end of the file may follow.
    End,
    /// The whole file has been accepted.
    Done,
}

/// The reader's complete state between two records. The walk is a pure
/// function of this state and the bytes from `pos` on, which is what lets
/// the exhaustive mutation tests resume a walk in the middle of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walker {
    pub pos: usize,
    pub phase: Phase,
    /// The layout the file is read as.
    format: BinaryFormat,
    /// Dungeons in the file.
    n: usize,
    /// Current dungeon.
    d: usize,
    /// File offset of the current dungeon's record (for messages).
    dungeon_at: usize,
    /// Level and branch counts of the current dungeon.
    nl: usize,
    nb: usize,
    /// File-global index of the current dungeon's first level.
    first_level: usize,
    /// Errors carry an empty message: only the exhaustive mutation tests
    /// set this, to test tens of millions of damaged files in a normal test
    /// run (they check the messages on a sample read normally).
    pub quiet: bool,
}

impl Walker {
    /// Starts after a header of `format`, or fails when there is none.
    pub fn new(bytes: &[u8], format: BinaryFormat) -> Result<Walker, ReadError> {
        let Some(layout) = layouts::of(format) else {
            return Err(ReadError::new(
                0,
                "the native format is not a NetHack layout",
            ));
        };
        let hlen = layout.header.len;
        if bytes.len() < hlen {
            return Err(ReadError::new(
                bytes.len(),
                format!(
                    "file is truncated: {} bytes, shorter than the {hlen}-byte {} version header",
                    bytes.len(),
                    format
                ),
            ));
        }
        Ok(Walker {
            pos: hlen,
            phase: Phase::Count,
            format,
            n: 0,
            d: 0,
            dungeon_at: 0,
            nl: 0,
            nb: 0,
            first_level: 0,
            quiet: false,
        })
    }

    fn layout(&self) -> &'static Layout {
        layouts::of(self.format).unwrap_or(&layouts::NETHACK_343)
    }

    /// Name of the current dungeon for messages.
    fn dungeon_what(&self, bytes: &[u8]) -> String {
        let f = self.layout().dungeon.name;
        let name = bytes
            .get(self.dungeon_at + f.off..)
            .and_then(|b| b.get(..f.len))
            .and_then(|f| std::ffi::CStr::from_bytes_until_nul(f).ok())
            .map(|c| lossy(c.to_bytes()))
            .unwrap_or_default();
        format!("dungeon {} (\"{name}\")", self.d)
    }

    /// Reads and validates the next record, handing it to `sink`.
    pub fn step<S: Sink>(&mut self, bytes: &[u8], sink: &mut S) -> Result<(), ReadError> {
        let mut cur = Cursor {
            bytes,
            pos: self.pos,
            quiet: self.quiet,
        };
        match self.phase {
            Phase::Count => self.count(&mut cur)?,
            Phase::Dungeon => self.dungeon(&mut cur, sink)?,
            Phase::Level(i) => self.level(&mut cur, sink, i)?,
            Phase::Branch(i) => self.branch(&mut cur, sink, i)?,
            Phase::End => self.end(&cur)?,
            Phase::Done => {}
        }
        self.pos = cur.pos;
        Ok(())
    }

    /// The dungeon count, which the rest of the file must have room for.
    #[inline]
    fn count(&mut self, cur: &mut Cursor<'_>) -> Result<(), ReadError> {
        let layout = self.layout();
        let count_at = cur.pos;
        let n_dgns = cur.record(4, || "the dungeon count".to_string())?.i32(0);
        let Ok(n) = usize::try_from(n_dgns) else {
            return Err(fail(self.quiet, count_at, || {
                format!("dungeon count is {n_dgns}: negative")
            }));
        };
        let dlen = layout.dungeon.len;
        let room = cur.remaining() / dlen;
        if n > room {
            return Err(fail(self.quiet, count_at, || {
                format!(
                    "dungeon count is {n_dgns}, but the {} bytes after it hold at most {room} dungeon records of {dlen} bytes",
                    cur.remaining()
                )
            }));
        }
        self.n = n;
        self.phase = if n == 0 { Phase::End } else { Phase::Dungeon };
        Ok(())
    }

    /// A dungeon record, whose counts the rest of the file must have room
    /// for.
    #[inline]
    fn dungeon<S: Sink>(&mut self, cur: &mut Cursor<'_>, sink: &mut S) -> Result<(), ReadError> {
        let layout = self.layout();
        let f = &layout.dungeon;
        let d = self.d;
        let rec = cur.record(f.len, || format!("dungeon record {d}"))?;
        let name = rec.name(f.name, || format!("dungeon {d}'s name"))?;
        let what = || format!("dungeon {d} (\"{}\")", lossy(name));
        let proto = rec.name(f.proto, || format!("{}'s PROTOFILE", what()))?;
        let dflags = rec.flags(f.flags, layout.flags, what)?;
        let levels = rec.i32(f.levels);
        let branches = rec.i32(f.branches);
        let (Ok(nl), Ok(nb)) = (usize::try_from(levels), usize::try_from(branches)) else {
            let off = if levels < 0 { f.levels } else { f.branches };
            return Err(fail(self.quiet, rec.at + off, || {
                format!(
                    "{} has {levels} levels and {branches} branches: counts cannot be negative",
                    what()
                )
            }));
        };
        // Every later dungeon needs at least its own record.
        let later = self.n.saturating_sub(d + 1);
        let needed = (nl as u128) * (layout.level.len as u128)
            + (nb as u128) * (layout.branch.len as u128)
            + (later as u128) * (f.len as u128);
        if needed > cur.remaining() as u128 {
            return Err(fail(self.quiet, rec.at + f.levels, || {
                format!(
                    "{} declares {nl} levels and {nb} branches, which with the {later} dungeon records after it need {needed} bytes, but only {} bytes remain",
                    what(),
                    cur.remaining()
                )
            }));
        }
        if let Some(off) = f.alternates {
            // dNAO's dgn_comp counts the other records of the same
            // name (`dgn_comp.y:519-523`); the count cannot be
            // negative or exceed the file's dungeons.
            let alt = rec.i32(off);
            if usize::try_from(alt).map_or(true, |a| a >= self.n) {
                return Err(fail(self.quiet, rec.at + off, || {
                    format!(
                        "{} has {alt} alternates: expected 0 to {} (the other dungeon records of the same name)",
                        what(),
                        self.n.saturating_sub(1)
                    )
                }));
            }
        }
        let tileset = match f.tileset {
            None => None,
            Some(off) => match (rec.u8(off), rec.u8(off + 1)) {
                (0, 0) => None,
                (1, t @ 0..=15) => Some(i32::from(t)),
                (has, t) => {
                    return Err(fail(self.quiet, rec.at + off, || {
                        format!(
                            "{} has has_tileset {has} and tileset {t}: expected 0 and 0, or 1 and a tileset from 0 to 15",
                            what()
                        )
                    }))
                }
            },
        };
        sink.dungeon(DungeonRec {
            name,
            proto,
            size: rec.range(f.size),
            flags: dflags,
            chance: rec.i32(f.chance),
            levels: nl,
            branches: nb,
            entry: f.entry.map_or(0, |off| rec.i32(off)),
            bones: rec.u8(f.bones),
            tileset,
        });
        self.dungeon_at = rec.at;
        self.nl = nl;
        self.nb = nb;
        self.phase = self.after_levels_from(0);
        Ok(())
    }

    /// Level record `i` of the current dungeon.
    #[inline]
    fn level<S: Sink>(
        &mut self,
        cur: &mut Cursor<'_>,
        sink: &mut S,
        i: usize,
    ) -> Result<(), ReadError> {
        let layout = self.layout();
        let bytes = cur.bytes;
        let f = &layout.level;
        let global = self.first_level + i;
        let rec = cur.record(f.len, || format!("level record {global}"))?;
        let lname = rec.name(f.name, || {
            format!("the name of level {global} of {}", self.dungeon_what(bytes))
        })?;
        let lwhat = || {
            format!(
                "level {global} (\"{}\") of {}",
                lossy(lname),
                self.dungeon_what(bytes)
            )
        };
        // An empty display name is what the writer stores for a
        // level without one.
        let display = match f.display {
            None => None,
            Some(field) => Some(rec.name(field, || format!("the display name of {}", lwhat()))?)
                .filter(|d| !d.is_empty()),
        };
        let chain = rec.i32(f.chain);
        if !chain_ok(chain, self.first_level, global) {
            return Err(fail(self.quiet, rec.at + f.chain, || {
                format!(
                    "{} has chain {chain}: {}",
                    lwhat(),
                    chain_unresolved(chain, self.first_level, global)
                )
            }));
        }
        let lflags = rec.flags(f.flags, layout.flags, lwhat)?;
        sink.level(LevelRec {
            name: lname,
            display,
            range: rec.range(f.range),
            chance: rec.i32(f.chance),
            rndlevs: rec.i32(f.rndlevs),
            chain,
            flags: lflags,
            bones: rec.u8(f.bones),
        });
        self.phase = self.after_levels_from(i + 1);
        Ok(())
    }

    /// Branch record `i` of the current dungeon.
    #[inline]
    fn branch<S: Sink>(
        &mut self,
        cur: &mut Cursor<'_>,
        sink: &mut S,
        i: usize,
    ) -> Result<(), ReadError> {
        let layout = self.layout();
        let bytes = cur.bytes;
        let f = &layout.branch;
        let end_level = self.first_level + self.nl;
        let rec = cur.record(f.len, || {
            format!("branch record {i} of {}", self.dungeon_what(bytes))
        })?;
        let target = rec.name(f.target, || {
            format!("the target of branch {i} of {}", self.dungeon_what(bytes))
        })?;
        let bwhat = || {
            format!(
                "branch {i} (to \"{}\") of {}",
                lossy(target),
                self.dungeon_what(bytes)
            )
        };
        let chain = rec.i32(f.chain);
        if !chain_ok(chain, self.first_level, end_level) {
            return Err(fail(self.quiet, rec.at + f.chain, || {
                format!(
                    "{} has chain {chain}: {}",
                    bwhat(),
                    chain_unresolved(chain, self.first_level, end_level)
                )
            }));
        }
        let code = rec.i32(f.kind);
        let Some(branch_type) = BranchType::from_code(code) else {
            return Err(fail(self.quiet, rec.at + f.kind, || {
                format!(
                    "{} has type {code}: expected 0 (stair), 1 (no_up), 2 (no_down) or 3 (portal)",
                    bwhat()
                )
            }));
        };
        let up = match rec.i32(f.up) {
            0 => false,
            1 => true,
            other => {
                return Err(fail(self.quiet, rec.at + f.up, || {
                    format!(
                        "{} has direction {other}: expected 0 (down) or 1 (up)",
                        bwhat()
                    )
                }))
            }
        };
        // 0 is the compiler's "not given" (`dgn_comp.y:511`): the
        // top level, as without an entry.
        let entry = f.entry.map(|off| rec.i32(off)).filter(|&e| e != 0);
        sink.branch(BranchRec {
            target,
            range: rec.range(f.range),
            chain,
            branch_type,
            up,
            entry,
        });
        self.phase = self.after_branches_from(i + 1);
        Ok(())
    }

    /// Past the last record: nothing may follow.
    #[inline]
    fn end(&mut self, cur: &Cursor<'_>) -> Result<(), ReadError> {
        if cur.remaining() != 0 {
            return Err(fail(self.quiet, cur.pos, || {
                format!(
                    "{} trailing bytes after the last record (the {} dungeons and their records end here)",
                    cur.remaining(),
                    self.n
                )
            }));
        }
        self.phase = Phase::Done;
        Ok(())
    }

    /// The phase after the current dungeon's levels before `i` are read.
    fn after_levels_from(&mut self, i: usize) -> Phase {
        if i < self.nl {
            Phase::Level(i)
        } else {
            self.after_branches_from(0)
        }
    }

    /// The phase after the current dungeon's branches before `i` are read.
    fn after_branches_from(&mut self, i: usize) -> Phase {
        if i < self.nb {
            return Phase::Branch(i);
        }
        self.first_level += self.nl;
        self.nl = 0;
        self.nb = 0;
        self.d += 1;
        if self.d < self.n {
            Phase::Dungeon
        } else {
            Phase::End
        }
    }

    /// Steps until the file is accepted or rejected.
    pub fn finish<S: Sink>(&mut self, bytes: &[u8], sink: &mut S) -> Result<(), ReadError> {
        while self.phase != Phase::Done {
            self.step(bytes, sink)?;
        }
        Ok(())
    }
}

/// Walks the whole file, validating every record before handing it to the
/// sink. Returns the version header.
fn walk<'a, S: Sink>(
    bytes: &'a [u8],
    format: BinaryFormat,
    sink: &mut S,
) -> Result<&'a [u8], ReadError> {
    let mut walker = Walker::new(bytes, format)?;
    let header = bytes.get(..walker.pos).unwrap_or_default();
    walker.finish(bytes, sink)?;
    Ok(header)
}

fn chain_unresolved(chain: i32, first: usize, limit: usize) -> String {
    if chain == -2 {
        format!(
            "-2 is dgn_comp's mark for a chain it could not resolve (it wrote the file after an error); {}",
            chain_expectation(first, limit)
        )
    } else {
        chain_expectation(first, limit)
    }
}

/// Writes `script` in a NetHack-family layout. The header is
/// `header_from`'s first bytes when given (it must be a header of the same
/// layout), else the game's default.
pub fn write(
    script: &Script,
    format: BinaryFormat,
    header_from: Option<&[u8]>,
) -> Result<Vec<u8>, WriteError> {
    let Some(layout) = layouts::of(format) else {
        return Err(WriteError::new("the native format is not a NetHack layout"));
    };
    let hlen = layout.header.len;
    let header = match header_from {
        None => layout.default_header(),
        Some(src) => {
            let found = detect(src).map_err(|e| {
                WriteError::new(format!(
                    "cannot take the version header from that file: {e}"
                ))
            })?;
            if found != format {
                return Err(WriteError::new(format!(
                    "the version header given is a {found} header; a {format} file needs one from a {format} file"
                )));
            }
            match src.get(..hlen) {
                Some(h) => h.to_vec(),
                None => {
                    return Err(WriteError::new(format!(
                        "the file given for the version header has {} bytes; a {format} header is {hlen}",
                        src.len()
                    )))
                }
            }
        }
    };
    check_fits(script, layout)?;

    let (df, lf, bf) = (&layout.dungeon, &layout.level, &layout.branch);
    let size = layout.file_len(
        script.dungeons.len(),
        script.level_count(),
        script.branch_count(),
    );
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&header);
    out.extend_from_slice(&(script.dungeons.len() as i32).to_le_bytes());
    let mut rec = Vec::new();
    for d in &script.dungeons {
        rec.clear();
        rec.resize(df.len, 0);
        put_name(&mut rec, df.name, &d.name);
        put_name(&mut rec, df.proto, &d.proto);
        put_range(&mut rec, df.size, d.size);
        put_i32(
            &mut rec,
            df.flags,
            encode_flags(d.flags, layout.flags).unwrap_or(0) as i32,
        );
        put_i32(&mut rec, df.chance, d.chance);
        put_i32(&mut rec, df.levels, d.levels.len() as i32);
        if let Some(off) = df.alternates {
            let same = script.dungeons.iter().filter(|e| e.name == d.name).count();
            put_i32(&mut rec, off, same as i32 - 1);
        }
        put_i32(&mut rec, df.branches, d.branches.len() as i32);
        if let Some(off) = df.entry {
            put_i32(&mut rec, off, d.entry);
        }
        put_u8(&mut rec, df.bones, d.bones);
        if let (Some(off), Some(t)) = (df.tileset, d.tileset) {
            put_u8(&mut rec, off, 1);
            put_u8(&mut rec, off + 1, t as u8);
        }
        out.extend_from_slice(&rec);
        for l in &d.levels {
            rec.clear();
            rec.resize(lf.len, 0);
            if let (Some(field), Some(display)) = (lf.display, &l.display) {
                put_name(&mut rec, field, display);
            }
            put_name(&mut rec, lf.name, &l.name);
            put_range(&mut rec, lf.range, l.range);
            put_i32(&mut rec, lf.chance, l.chance);
            put_i32(&mut rec, lf.rndlevs, l.rndlevs);
            put_i32(&mut rec, lf.chain, l.chain);
            put_i32(
                &mut rec,
                lf.flags,
                encode_flags(l.flags, layout.flags).unwrap_or(0) as i32,
            );
            put_u8(&mut rec, lf.bones, l.bones);
            out.extend_from_slice(&rec);
        }
        for b in &d.branches {
            rec.clear();
            rec.resize(bf.len, 0);
            put_name(&mut rec, bf.target, &b.target);
            put_range(&mut rec, bf.range, b.range);
            put_i32(&mut rec, bf.chain, b.chain);
            put_i32(&mut rec, bf.kind, b.branch_type.code());
            put_i32(&mut rec, bf.up, i32::from(b.up));
            if let Some(off) = bf.entry {
                put_i32(&mut rec, off, b.entry.unwrap_or(0));
            }
            out.extend_from_slice(&rec);
        }
    }
    Ok(out)
}

/// Refuses everything the layout cannot hold, so the writer itself never
/// truncates.
fn check_fits(script: &Script, layout: &Layout) -> Result<(), WriteError> {
    let game = layout.format.title();
    let limit = |n: usize, max: usize, what: &str| {
        if n > max {
            Err(WriteError::new(format!(
                "{n} {what}: {game}'s layout holds at most {max} (dgn_comp's array size)"
            )))
        } else {
            Ok(())
        }
    };
    limit(script.dungeons.len(), layout.max_dungeons, "dungeons")?;
    limit(script.level_count(), layout.max_levels, "special levels")?;
    limit(script.branch_count(), layout.max_branches, "branches")?;
    super::validate_chains(script).map_err(WriteError::new)?;
    let (df, lf, bf) = (&layout.dungeon, &layout.level, &layout.branch);
    // The descriptions are closures: a file that fits (every file a run
    // compiles) formats none of them.
    for d in &script.dungeons {
        let what = || format!("dungeon \"{}\"", lossy(&d.name));
        check_name(&d.name, df.name, || format!("the name of {}", what()), game)?;
        check_name(
            &d.proto,
            df.proto,
            || format!("the PROTOFILE of {}", what()),
            game,
        )?;
        check_range(d.size, what)?;
        check_flags(d.flags, layout, what)?;
        if df.entry.is_none() && d.entry != 0 {
            return Err(WriteError::new(format!(
                "{} has ENTRY {}, which {game}'s layout cannot hold (its entry levels are on the branches); use --target native",
                what(),
                d.entry
            )));
        }
        match (d.tileset, df.tileset) {
            (Some(t), Some(_)) if !(0..=15).contains(&t) => {
                return Err(WriteError::new(format!(
                    "{} has TILESET {t}; {game}'s layout holds 0 to 15",
                    what()
                )));
            }
            (Some(_), None) => {
                return Err(WriteError::new(format!(
                    "{} has a TILESET (GnollHack), which {game}'s layout cannot hold; use --target gnollhack or native",
                    what()
                )));
            }
            _ => {}
        }
        for l in &d.levels {
            let lwhat = || format!("level \"{}\" of {}", lossy(&l.name), what());
            check_name(
                &l.name,
                lf.name,
                || format!("the name of {}", lwhat()),
                game,
            )?;
            check_range(l.range, lwhat)?;
            check_flags(l.flags, layout, lwhat)?;
            match (&l.display, lf.display) {
                (Some(display), Some(field)) => check_name(
                    display,
                    field,
                    || format!("the display name of {}", lwhat()),
                    game,
                )?,
                (Some(_), None) => {
                    return Err(WriteError::new(format!(
                        "{} has a display name (GnollHack), which {game}'s layout cannot hold; use --target gnollhack or native",
                        lwhat()
                    )));
                }
                _ => {}
            }
        }
        for b in &d.branches {
            let bwhat = || format!("the branch to \"{}\" from {}", lossy(&b.target), what());
            check_name(
                &b.target,
                bf.target,
                || format!("the target of {}", bwhat()),
                game,
            )?;
            check_range(b.range, bwhat)?;
            if b.entry.is_some() && bf.entry.is_none() {
                return Err(WriteError::new(format!(
                    "{} has an entry level (SLASH'EM), which {game}'s layout cannot hold; use ENTRY in the target dungeon, --target slashem or native",
                    bwhat()
                )));
            }
        }
    }
    Ok(())
}

fn check_name(
    name: &[u8],
    field: NameField,
    what: impl Fn() -> String,
    game: &str,
) -> Result<(), WriteError> {
    if name.len() >= field.len {
        return Err(WriteError::new(format!(
            "{} is {} bytes long; {game}'s layout holds at most {} bytes plus the NUL",
            what(),
            name.len(),
            field.len - 1
        )));
    }
    if name.contains(&0) {
        return Err(WriteError::new(format!(
            "{} contains a NUL byte, which would end it early",
            what()
        )));
    }
    Ok(())
}

fn check_range(r: Range, what: impl Fn() -> String) -> Result<(), WriteError> {
    for (v, field) in [(r.base, "base"), (r.rand, "rand")] {
        if i16::try_from(v).is_err() {
            return Err(WriteError::new(format!(
                "{}: the {field} {v} of its (base, rand) couple does not fit NetHack's 16-bit field ({}..={})",
                what(),
                i16::MIN,
                i16::MAX
            )));
        }
    }
    Ok(())
}

fn check_flags(f: u32, layout: &Layout, what: impl Fn() -> String) -> Result<(), WriteError> {
    encode_flags(f, layout.flags).map(|_| ()).map_err(|bad| {
        WriteError::new(format!(
            "{} has variant flags 0x{bad:x} (EvilHack/HackEM descriptors) that {}'s layout cannot hold; use --target evilhack or native",
            what(),
            layout.format.title()
        ))
    })
}

fn put_name(rec: &mut [u8], field: NameField, name: &[u8]) {
    if let Some(dst) = rec.get_mut(field.off..field.off + name.len()) {
        dst.copy_from_slice(name);
    }
}

fn put_i32(rec: &mut [u8], off: usize, v: i32) {
    if let Some(dst) = rec.get_mut(off..off + 4) {
        dst.copy_from_slice(&v.to_le_bytes());
    }
}

fn put_range(rec: &mut [u8], off: usize, r: Range) {
    // check_range has ensured both fit.
    let base = i16::try_from(r.base).unwrap_or_default();
    let rand = i16::try_from(r.rand).unwrap_or_default();
    if let Some(dst) = rec.get_mut(off..off + 4) {
        dst[..2].copy_from_slice(&base.to_le_bytes());
        dst[2..].copy_from_slice(&rand.to_le_bytes());
    }
}

fn put_u8(rec: &mut [u8], off: usize, v: u8) {
    if let Some(dst) = rec.get_mut(off) {
        *dst = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evilhack_flags_round_trip() {
        for raw in 0u32..0x1000 {
            if let Ok(canon) = decode_flags(raw, FlagBits::EvilHack) {
                assert_eq!(encode_flags(canon, FlagBits::EvilHack), Ok(raw), "{raw:#x}");
            }
        }
        // neutral alignment (AM_NEUTRAL 2 << 9), as in EvilHack's file.
        assert_eq!(
            decode_flags(0x400, FlagBits::EvilHack),
            Ok(2 << flags::ALIGN_SHIFT)
        );
        assert_eq!(decode_flags(0x1000, FlagBits::EvilHack), Err(0x1000));
    }
}
