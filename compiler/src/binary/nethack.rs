//! NetHack's own compiled layout, as `dgn_comp` writes it on Linux x86_64
//! (see `binary-format.md`): a version header (four 8-byte words in 3.4.3,
//! five in 3.6), `int n_dgns`, then per dungeon one `tmpdungeon` followed by
//! its `tmplevel` and `tmpbranch` records. Little-endian, no alignment gaps
//! between records, zero padding inside them.
//!
//! The reader walks the file once through a [`Sink`]: the script builder and
//! the allocation-free validator share every check, so validating a file
//! answers exactly what reading it would.

use super::{
    chain_expectation, chain_ok, lossy, BinaryFormat, ReadError, ReadScript, WriteError,
    NETHACK_FLAGS,
};
use crate::script::{Branch, BranchType, Dungeon, Level, Range, Script};

/// Bytes of a name field (`char name[24]`): 23 usable and a NUL.
pub const NAME_LEN: usize = 24;
/// `sizeof(struct tmpdungeon)`.
pub const DUNGEON_LEN: usize = 76;
/// `sizeof(struct tmplevel)`.
pub const LEVEL_LEN: usize = 48;
/// `sizeof(struct tmpbranch)`.
pub const BRANCH_LEN: usize = 40;
/// dgn_comp's record arrays (MAXDUNGEON, LEV_LIMIT, BRANCH_LIMIT): a file
/// cannot hold more without the original writing past them.
pub const MAX_DUNGEONS: usize = 16;
pub const MAX_LEVELS: usize = 50;
pub const MAX_BRANCHES: usize = 32;

/// A default Linux x86_64 build's `struct version_info` (incarnation,
/// feature_set, entity_count, struct_sizes...).
const HEADER_343: [u64; 4] = [0x0304_0300, 0x001e_0cc6, 0x211b_117e, 0xb8d2_4950];
const HEADER_36: [u64; 5] = [
    0x0306_0700,
    0x0006_0040,
    0x211c_617e,
    0x0000_0001_48c2_4958,
    0x0002_8000,
];

/// Length of the version header of a NetHack layout (0 for native).
pub fn header_len(format: BinaryFormat) -> usize {
    match format {
        BinaryFormat::NetHack343 => 32,
        BinaryFormat::NetHack36 => 40,
        BinaryFormat::Native => 0,
    }
}

/// The version header a default build of that version writes.
pub fn default_header(format: BinaryFormat) -> Vec<u8> {
    let words: &[u64] = match format {
        BinaryFormat::NetHack343 => &HEADER_343,
        BinaryFormat::NetHack36 => &HEADER_36,
        BinaryFormat::Native => &[],
    };
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Layout from the header's incarnation word (major<<24 | minor<<16 |
/// patch<<8 | edit): 3.6 added a fifth header word, earlier 3.x have four.
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
    let major = (incarnation >> 24) & 0xFF;
    let minor = (incarnation >> 16) & 0xFF;
    if incarnation >> 32 == 0 && major == 3 && minor <= 5 {
        Ok(BinaryFormat::NetHack343)
    } else if incarnation >> 32 == 0 && major == 3 && minor == 6 {
        Ok(BinaryFormat::NetHack36)
    } else {
        Err(ReadError::new(
            0,
            format!(
                "not a compiled dungeon file: the first 8 bytes ({}) are neither the dgnkit magic nor a NetHack 3.x version number (expected e.g. 0x03040300 for 3.4.3 or 0x03060700 for 3.6.7)",
                hex(word)
            ),
        ))
    }
}

/// The NetHack version (major, minor, patch) a header's incarnation word
/// states: the version of the `dgn_comp` that wrote the file. `None` when
/// the bytes do not start with a NetHack 3.x header ([`detect`]).
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
pub(crate) struct DungeonRec<'a> {
    pub name: &'a [u8],
    pub proto: &'a [u8],
    pub size: Range,
    pub flags: u32,
    pub chance: i32,
    pub levels: usize,
    pub branches: usize,
    pub entry: i32,
    pub bones: u8,
}

pub(crate) struct LevelRec<'a> {
    pub name: &'a [u8],
    pub range: Range,
    pub chance: i32,
    pub rndlevs: i32,
    pub chain: i32,
    pub flags: u32,
    pub bones: u8,
}

pub(crate) struct BranchRec<'a> {
    pub target: &'a [u8],
    pub range: Range,
    pub chain: i32,
    pub branch_type: BranchType,
    pub up: bool,
}

/// Receives the records in file order; only called with validated records.
pub(crate) trait Sink {
    fn dungeon(&mut self, rec: DungeonRec<'_>);
    fn level(&mut self, rec: LevelRec<'_>);
    fn branch(&mut self, rec: BranchRec<'_>);
}

pub(crate) struct NoSink;

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
            tileset: None,
            lua: Default::default(),
        });
    }

    fn level(&mut self, rec: LevelRec<'_>) {
        if let Some(d) = self.script.dungeons.last_mut() {
            d.levels.push(Level {
                name: rec.name.to_vec(),
                display: None,
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
                entry: None,
            });
        }
    }
}

/// Reads a NetHack-layout file (`format` must be one of the NetHack ones).
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

/// A fixed-size record's fields, by offset inside the record.
struct Record<'a, const N: usize> {
    bytes: &'a [u8; N],
    /// Build no error messages (see [`Walker::quiet`]).
    quiet: bool,
    /// File offset of the record.
    at: usize,
}

// Field offsets are constants of the layout, all inside the record array,
// so the indexing below cannot depend on the input. The accessors are
// forced inline because the exhaustive mutation tests run them tens of
// millions of times in unoptimised builds.
impl<'a, const N: usize> Record<'a, N> {
    #[inline(always)]
    fn i16(&self, off: usize) -> i32 {
        i32::from(i16::from_le_bytes([self.bytes[off], self.bytes[off + 1]]))
    }

    #[inline(always)]
    fn i32(&self, off: usize) -> i32 {
        i32::from_le_bytes([
            self.bytes[off],
            self.bytes[off + 1],
            self.bytes[off + 2],
            self.bytes[off + 3],
        ])
    }

    #[inline(always)]
    fn u8(&self, off: usize) -> u8 {
        self.bytes[off]
    }

    #[inline(always)]
    fn range(&self, off: usize) -> Range {
        Range {
            base: self.i16(off),
            rand: self.i16(off + 2),
        }
    }

    /// A NUL-terminated name in a 24-byte field.
    fn name(&self, off: usize, what: impl FnOnce() -> String) -> Result<&'a [u8], ReadError> {
        let bytes: &'a [u8; N] = self.bytes;
        let field = &bytes[off..off + NAME_LEN];
        // CStr's search is precompiled (fast even in unoptimised builds).
        match std::ffi::CStr::from_bytes_until_nul(field) {
            Ok(name) => Ok(name.to_bytes()),
            Err(_) => Err(fail(self.quiet, self.at + off, || {
                format!(
                    "{} has no NUL terminator in its {NAME_LEN}-byte field (found \"{}\")",
                    what(),
                    lossy(field)
                )
            })),
        }
    }

    fn flags(&self, off: usize, what: impl FnOnce() -> String) -> Result<u32, ReadError> {
        let raw = self.i32(off);
        let flags = raw as u32;
        if flags & !NETHACK_FLAGS != 0 {
            return Err(fail(self.quiet, self.at + off, || {
                format!(
                    "{} has flags 0x{flags:x}: bits 0x{:x} are unknown (known: town 0x1, hellish 0x2, mazelike 0x4, roguelike 0x8, alignment 0x70)",
                    what(),
                    flags & !NETHACK_FLAGS
                )
            }));
        }
        Ok(flags)
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
    fn record<const N: usize>(
        &mut self,
        what: impl FnOnce() -> String,
    ) -> Result<Record<'a, N>, ReadError> {
        let at = self.pos;
        let rest = self.bytes.get(at..).unwrap_or(&[]);
        match rest.first_chunk::<N>() {
            Some(bytes) => {
                self.pos = at + N;
                Ok(Record {
                    bytes,
                    at,
                    quiet: self.quiet,
                })
            }
            None => Err(fail(self.quiet, self.bytes.len(), || {
                format!(
                    "file is truncated: it ends {} bytes into {} ({N} bytes)",
                    rest.len(),
                    what()
                )
            })),
        }
    }
}

/// Where the walk is: which record comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
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
pub(crate) struct Walker {
    pub(crate) pos: usize,
    pub(crate) phase: Phase,
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
    pub(crate) quiet: bool,
}

impl Walker {
    /// Starts after a header of `format`, or fails when there is none.
    pub(crate) fn new(bytes: &[u8], format: BinaryFormat) -> Result<Walker, ReadError> {
        let hlen = header_len(format);
        if hlen == 0 {
            return Err(ReadError::new(
                0,
                "the native format is not a NetHack layout",
            ));
        }
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
            n: 0,
            d: 0,
            dungeon_at: 0,
            nl: 0,
            nb: 0,
            first_level: 0,
            quiet: false,
        })
    }

    /// Name of the current dungeon for messages.
    fn dungeon_what(&self, bytes: &[u8]) -> String {
        let name = bytes
            .get(self.dungeon_at..)
            .and_then(|b| b.get(..NAME_LEN))
            .and_then(|f| std::ffi::CStr::from_bytes_until_nul(f).ok())
            .map(|c| lossy(c.to_bytes()))
            .unwrap_or_default();
        format!("dungeon {} (\"{name}\")", self.d)
    }

    /// Reads and validates the next record, handing it to `sink`.
    pub(crate) fn step<S: Sink>(&mut self, bytes: &[u8], sink: &mut S) -> Result<(), ReadError> {
        let mut cur = Cursor {
            bytes,
            pos: self.pos,
            quiet: self.quiet,
        };
        match self.phase {
            Phase::Count => {
                let count_at = cur.pos;
                let n_dgns = cur.record::<4>(|| "the dungeon count".to_string())?.i32(0);
                let Ok(n) = usize::try_from(n_dgns) else {
                    return Err(fail(self.quiet, count_at, || {
                        format!("dungeon count is {n_dgns}: negative")
                    }));
                };
                let room = cur.remaining() / DUNGEON_LEN;
                if n > room {
                    return Err(fail(self.quiet, count_at, || {
                        format!(
                            "dungeon count is {n_dgns}, but the {} bytes after it hold at most {room} dungeon records of {DUNGEON_LEN} bytes",
                            cur.remaining()
                        )
                    }));
                }
                self.n = n;
                self.phase = if n == 0 { Phase::End } else { Phase::Dungeon };
            }
            Phase::Dungeon => {
                let d = self.d;
                let rec = cur.record::<DUNGEON_LEN>(|| format!("dungeon record {d}"))?;
                let name = rec.name(0, || format!("dungeon {d}'s name"))?;
                let what = || format!("dungeon {d} (\"{}\")", lossy(name));
                let proto = rec.name(24, || format!("{}'s PROTOFILE", what()))?;
                let dflags = rec.flags(52, what)?;
                let levels = rec.i32(60);
                let branches = rec.i32(64);
                let (Ok(nl), Ok(nb)) = (usize::try_from(levels), usize::try_from(branches)) else {
                    let off = if levels < 0 { 60 } else { 64 };
                    return Err(fail(self.quiet, rec.at + off, || {
                        format!("{} has {levels} levels and {branches} branches: counts cannot be negative", what())
                    }));
                };
                // Every later dungeon needs at least its own record.
                let later = self.n.saturating_sub(d + 1);
                let needed = (nl as u128) * (LEVEL_LEN as u128)
                    + (nb as u128) * (BRANCH_LEN as u128)
                    + (later as u128) * (DUNGEON_LEN as u128);
                if needed > cur.remaining() as u128 {
                    return Err(fail(self.quiet, rec.at + 60, || {
                        format!(
                            "{} declares {nl} levels and {nb} branches, which with the {later} dungeon records after it need {needed} bytes, but only {} bytes remain",
                            what(),
                            cur.remaining()
                        )
                    }));
                }
                sink.dungeon(DungeonRec {
                    name,
                    proto,
                    size: rec.range(48),
                    flags: dflags,
                    chance: rec.i32(56),
                    levels: nl,
                    branches: nb,
                    entry: rec.i32(68),
                    bones: rec.u8(72),
                });
                self.dungeon_at = rec.at;
                self.nl = nl;
                self.nb = nb;
                self.phase = self.after_levels_from(0);
            }
            Phase::Level(i) => {
                let global = self.first_level + i;
                let rec = cur.record::<LEVEL_LEN>(|| format!("level record {global}"))?;
                let lname = rec.name(0, || {
                    format!("the name of level {global} of {}", self.dungeon_what(bytes))
                })?;
                let lwhat = || {
                    format!(
                        "level {global} (\"{}\") of {}",
                        lossy(lname),
                        self.dungeon_what(bytes)
                    )
                };
                let chain = rec.i32(36);
                if !chain_ok(chain, self.first_level, global) {
                    return Err(fail(self.quiet, rec.at + 36, || {
                        format!(
                            "{} has chain {chain}: {}",
                            lwhat(),
                            chain_unresolved(chain, self.first_level, global)
                        )
                    }));
                }
                let lflags = rec.flags(40, lwhat)?;
                sink.level(LevelRec {
                    name: lname,
                    range: rec.range(24),
                    chance: rec.i32(28),
                    rndlevs: rec.i32(32),
                    chain,
                    flags: lflags,
                    bones: rec.u8(44),
                });
                self.phase = self.after_levels_from(i + 1);
            }
            Phase::Branch(i) => {
                let end_level = self.first_level + self.nl;
                let rec = cur.record::<BRANCH_LEN>(|| {
                    format!("branch record {i} of {}", self.dungeon_what(bytes))
                })?;
                let target = rec.name(0, || {
                    format!("the target of branch {i} of {}", self.dungeon_what(bytes))
                })?;
                let bwhat = || {
                    format!(
                        "branch {i} (to \"{}\") of {}",
                        lossy(target),
                        self.dungeon_what(bytes)
                    )
                };
                let chain = rec.i32(28);
                if !chain_ok(chain, self.first_level, end_level) {
                    return Err(fail(self.quiet, rec.at + 28, || {
                        format!(
                            "{} has chain {chain}: {}",
                            bwhat(),
                            chain_unresolved(chain, self.first_level, end_level)
                        )
                    }));
                }
                let code = rec.i32(32);
                let Some(branch_type) = BranchType::from_code(code) else {
                    return Err(fail(self.quiet, rec.at + 32, || {
                        format!("{} has type {code}: expected 0 (stair), 1 (no_up), 2 (no_down) or 3 (portal)", bwhat())
                    }));
                };
                let up = match rec.i32(36) {
                    0 => false,
                    1 => true,
                    other => {
                        return Err(fail(self.quiet, rec.at + 36, || {
                            format!(
                                "{} has direction {other}: expected 0 (down) or 1 (up)",
                                bwhat()
                            )
                        }))
                    }
                };
                sink.branch(BranchRec {
                    target,
                    range: rec.range(24),
                    chain,
                    branch_type,
                    up,
                });
                self.phase = self.after_branches_from(i + 1);
            }
            Phase::End => {
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
            }
            Phase::Done => {}
        }
        self.pos = cur.pos;
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
    pub(crate) fn finish<S: Sink>(&mut self, bytes: &[u8], sink: &mut S) -> Result<(), ReadError> {
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

/// Writes `script` in NetHack's layout. The header is `header_from`'s first
/// 32/40 bytes when given (it must be a header of the same layout), else the
/// version's default.
pub fn write(
    script: &Script,
    format: BinaryFormat,
    header_from: Option<&[u8]>,
) -> Result<Vec<u8>, WriteError> {
    let hlen = header_len(format);
    if hlen == 0 {
        return Err(WriteError::new("the native format is not a NetHack layout"));
    }
    let header = match header_from {
        None => default_header(format),
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
    check_fits(script)?;

    let size = hlen
        + 4
        + DUNGEON_LEN * script.dungeons.len()
        + LEVEL_LEN * script.level_count()
        + BRANCH_LEN * script.branch_count();
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&header);
    out.extend_from_slice(&(script.dungeons.len() as i32).to_le_bytes());
    for d in &script.dungeons {
        let mut rec = [0u8; DUNGEON_LEN];
        put_name(&mut rec, 0, &d.name);
        put_name(&mut rec, 24, &d.proto);
        put_range(&mut rec, 48, d.size);
        put_i32(&mut rec, 52, d.flags as i32);
        put_i32(&mut rec, 56, d.chance);
        put_i32(&mut rec, 60, d.levels.len() as i32);
        put_i32(&mut rec, 64, d.branches.len() as i32);
        put_i32(&mut rec, 68, d.entry);
        put_u8(&mut rec, 72, d.bones);
        out.extend_from_slice(&rec);
        for l in &d.levels {
            let mut rec = [0u8; LEVEL_LEN];
            put_name(&mut rec, 0, &l.name);
            put_range(&mut rec, 24, l.range);
            put_i32(&mut rec, 28, l.chance);
            put_i32(&mut rec, 32, l.rndlevs);
            put_i32(&mut rec, 36, l.chain);
            put_i32(&mut rec, 40, l.flags as i32);
            put_u8(&mut rec, 44, l.bones);
            out.extend_from_slice(&rec);
        }
        for b in &d.branches {
            let mut rec = [0u8; BRANCH_LEN];
            put_name(&mut rec, 0, &b.target);
            put_range(&mut rec, 24, b.range);
            put_i32(&mut rec, 28, b.chain);
            put_i32(&mut rec, 32, b.branch_type.code());
            put_i32(&mut rec, 36, i32::from(b.up));
            out.extend_from_slice(&rec);
        }
    }
    Ok(out)
}

/// Refuses everything the layout cannot hold, so the writer itself never
/// truncates.
fn check_fits(script: &Script) -> Result<(), WriteError> {
    let limit = |n: usize, max: usize, what: &str| {
        if n > max {
            Err(WriteError::new(format!(
                "{n} {what}: NetHack's layout holds at most {max} (dgn_comp's array size)"
            )))
        } else {
            Ok(())
        }
    };
    limit(script.dungeons.len(), MAX_DUNGEONS, "dungeons")?;
    limit(script.level_count(), MAX_LEVELS, "special levels")?;
    limit(script.branch_count(), MAX_BRANCHES, "branches")?;
    super::validate_chains(script).map_err(WriteError::new)?;
    // The messages name what they are about; built only on failure, as a
    // valid file (dgn_comp's every run) needs none of them.
    for d in &script.dungeons {
        let what = || format!("dungeon \"{}\"", lossy(&d.name));
        check_name(&d.name, || format!("the name of {}", what()))?;
        check_name(&d.proto, || format!("the PROTOFILE of {}", what()))?;
        check_range(d.size, what)?;
        check_flags(d.flags, what)?;
        if d.tileset.is_some() {
            let what = what();
            return Err(WriteError::new(format!(
                "{what} has a TILESET (GnollHack), which NetHack's layout cannot hold; use --target native"
            )));
        }
        for l in &d.levels {
            let lwhat = || format!("level \"{}\" of {}", lossy(&l.name), what());
            check_name(&l.name, || format!("the name of {}", lwhat()))?;
            check_range(l.range, lwhat)?;
            check_flags(l.flags, lwhat)?;
            if l.display.is_some() {
                let lwhat = lwhat();
                return Err(WriteError::new(format!(
                    "{lwhat} has a display name (GnollHack), which NetHack's layout cannot hold; use --target native"
                )));
            }
        }
        for b in &d.branches {
            let bwhat = || format!("the branch to \"{}\" from {}", lossy(&b.target), what());
            check_name(&b.target, || format!("the target of {}", bwhat()))?;
            check_range(b.range, bwhat)?;
            if b.entry.is_some() {
                let bwhat = bwhat();
                return Err(WriteError::new(format!(
                    "{bwhat} has an entry level (SLASH'EM), which NetHack's layout cannot hold; use ENTRY in the target dungeon or --target native"
                )));
            }
        }
    }
    Ok(())
}

fn check_name(name: &[u8], what: impl FnOnce() -> String) -> Result<(), WriteError> {
    if name.len() >= NAME_LEN {
        return Err(WriteError::new(format!(
            "{} is {} bytes long; NetHack's layout holds at most {} bytes plus the NUL",
            what(),
            name.len(),
            NAME_LEN - 1
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

fn check_range(r: Range, what: impl FnOnce() -> String) -> Result<(), WriteError> {
    for (v, field) in [(r.base, "base"), (r.rand, "rand")] {
        if i16::try_from(v).is_err() {
            let what = what();
            return Err(WriteError::new(format!(
                "{what}: the {field} {v} of its (base, rand) couple does not fit NetHack's 16-bit field ({}..={})",
                i16::MIN,
                i16::MAX
            )));
        }
    }
    Ok(())
}

fn check_flags(f: u32, what: impl FnOnce() -> String) -> Result<(), WriteError> {
    if f & !NETHACK_FLAGS != 0 {
        return Err(WriteError::new(format!(
            "{} has variant flags 0x{:x} (EvilHack/HackEM descriptors) that NetHack's layout cannot hold; use --target native",
            what(),
            f & !NETHACK_FLAGS
        )));
    }
    Ok(())
}

fn put_name(rec: &mut [u8], off: usize, name: &[u8]) {
    if let Some(dst) = rec.get_mut(off..off + name.len()) {
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
