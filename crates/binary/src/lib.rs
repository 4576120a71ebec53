//! Compiled dungeon scripts: NetHack's own layout (what `dgn_comp` writes,
//! for 3.4.3 and 3.6) and dgnkit's native format. Readers take untrusted
//! bytes and either return a [`Script`] whose chains are valid or an error
//! naming the byte offset and what was found there; writers refuse values
//! the chosen layout cannot hold instead of truncating them.
//!
//! Which game writes which layout is the game's data (`dgnkit::games`);
//! this crate knows the layouts ([`BinaryFormat`]) and nothing of targets.

#![deny(clippy::unwrap_used)]

mod checksum;
pub mod layouts;
#[cfg(test)]
mod mutation_tests;
pub mod native;
pub mod nethack;

pub mod decompile;

pub use checksum::crc32;

use dgnkit_rng::RngKind;
use dgnkit_script::{self as script, flags, Script};
use std::fmt;

/// The layouts a compiled file can have: each game's `dgn_comp` output
/// (described in [`layouts`]) and dgnkit's native format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BinaryFormat {
    /// NetHack 3.4.3's `dgn_comp` output: 32-byte version header.
    NetHack343,
    /// NetHack 3.6's `dgn_comp` output: 40-byte version header.
    NetHack36,
    /// EvilHack's: 3.6's with its own flag bits.
    EvilHack,
    /// UnNetHack's: 3.4.3's with 99 special levels.
    UnNetHack,
    /// SLASH'EM's: entry levels on the branches.
    SlashEm,
    /// dNetHack's (dNAO): an alternates count per dungeon.
    DNetHack,
    /// GnollHack's: a 56-byte header, wide names, display names, tilesets.
    GnollHack,
    /// DynaHack's: a 12-byte header.
    DynaHack,
    /// dgnkit's own versioned, checksummed postcard format.
    Native,
}

impl BinaryFormat {
    pub const ALL: [BinaryFormat; 9] = [
        BinaryFormat::NetHack343,
        BinaryFormat::NetHack36,
        BinaryFormat::EvilHack,
        BinaryFormat::UnNetHack,
        BinaryFormat::SlashEm,
        BinaryFormat::DNetHack,
        BinaryFormat::GnollHack,
        BinaryFormat::DynaHack,
        BinaryFormat::Native,
    ];

    /// The name of this layout: the `--target` value of the game whose
    /// `dgn_comp` writes it.
    pub fn name(self) -> &'static str {
        match self {
            BinaryFormat::NetHack343 => "nethack-3.4.3",
            BinaryFormat::NetHack36 => "nethack-3.6",
            BinaryFormat::EvilHack => "evilhack",
            BinaryFormat::UnNetHack => "unnethack",
            BinaryFormat::SlashEm => "slashem",
            BinaryFormat::DNetHack => "dnethack",
            BinaryFormat::GnollHack => "gnollhack",
            BinaryFormat::DynaHack => "dynahack",
            BinaryFormat::Native => "native",
        }
    }

    /// The game as users say it, for messages.
    pub fn title(self) -> &'static str {
        match self {
            BinaryFormat::NetHack343 => "NetHack 3.4.3",
            BinaryFormat::NetHack36 => "NetHack 3.6",
            BinaryFormat::EvilHack => "EvilHack",
            BinaryFormat::UnNetHack => "UnNetHack",
            BinaryFormat::SlashEm => "SLASH'EM",
            BinaryFormat::DNetHack => "dNetHack",
            BinaryFormat::GnollHack => "GnollHack",
            BinaryFormat::DynaHack => "DynaHack",
            BinaryFormat::Native => "dgnkit native",
        }
    }

    pub fn parse(s: &str) -> Option<BinaryFormat> {
        BinaryFormat::ALL.into_iter().find(|f| f.name() == s)
    }

    /// A game's own `dgn_comp` layout (not the native format).
    pub fn is_nethack(self) -> bool {
        self != BinaryFormat::Native
    }
}

impl fmt::Display for BinaryFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A file read back into memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadScript {
    pub script: Script,
    pub format: BinaryFormat,
    /// NetHack-family layouts: the raw version header, reusable as
    /// `header_from`. Native: empty.
    pub header: Vec<u8>,
    /// Native only: the dialect the source was compiled with.
    pub dialect: Option<String>,
}

/// Why bytes are not a valid compiled file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// Byte offset of the offending field (or of the end of the data).
    pub offset: usize,
    pub message: String,
}

impl ReadError {
    pub fn new(offset: usize, message: impl Into<String>) -> Self {
        ReadError {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for ReadError {}

/// Why a script cannot be written in the chosen layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    pub message: String,
}

impl WriteError {
    pub fn new(message: impl Into<String>) -> Self {
        WriteError {
            message: message.into(),
        }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WriteError {}

/// Recognises the layout from the first bytes: the native magic, or a
/// version header whose incarnation names a NetHack-family game
/// ([`nethack::detect`]).
pub fn detect(bytes: &[u8]) -> Result<BinaryFormat, ReadError> {
    if native::has_magic(bytes) {
        return Ok(BinaryFormat::Native);
    }
    nethack::detect(bytes)
}

/// What a compiled file says about the game it was made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stated {
    /// A NetHack version whose loader dgnkit reproduces: the game whose
    /// compiled layout this is, and the generator that version draws from
    /// when it is not the game's own (3.6.0 and 3.6.1 still used the C
    /// library's `random()`; 3.6.2 brought ISAAC-64).
    Game {
        format: BinaryFormat,
        rng: Option<RngKind>,
    },
    /// A NetHack version whose loader dgnkit does not reproduce (3.3 and
    /// earlier differ from 3.4.3, `dialects.md`; 3.4.0-3.4.2 and 3.5 are not
    /// checked against their sources).
    Unreproduced { major: u8, minor: u8, patch: u8 },
}

/// The game a compiled file's version header states (`version_info`'s
/// incarnation, written by the `dgn_comp` that made the file). `None` for a
/// native file (it names no game) and for bytes that are not a compiled file.
pub fn stated_game(bytes: &[u8]) -> Option<Stated> {
    let (major, minor, patch) = nethack::header_version(bytes)?;
    let game = |format| Stated::Game { format, rng: None };
    // A variant family's header names the family (its own version numbers).
    match nethack::detect(bytes).ok()? {
        BinaryFormat::NetHack343 | BinaryFormat::NetHack36 | BinaryFormat::Native => {}
        family => return Some(game(family)),
    }
    Some(match (major, minor, patch) {
        (3, 4, 3) => game(BinaryFormat::NetHack343),
        (3, 6, 0..=1) => Stated::Game {
            format: BinaryFormat::NetHack36,
            rng: Some(RngKind::Glibc),
        },
        (3, 6, _) => game(BinaryFormat::NetHack36),
        _ => Stated::Unreproduced {
            major,
            minor,
            patch,
        },
    })
}

/// Reads a compiled file, detecting its layout unless `forced`.
pub fn read(bytes: &[u8], forced: Option<BinaryFormat>) -> Result<ReadScript, ReadError> {
    let format = match forced {
        Some(f) => f,
        None => detect(bytes)?,
    };
    match format {
        BinaryFormat::Native => native::read(bytes),
        _ => nethack::read(bytes, format),
    }
}

/// Validates a compiled file without building the script (no allocation for
/// NetHack layouts). Accepts exactly the inputs [`read`] accepts.
pub fn check(bytes: &[u8], forced: Option<BinaryFormat>) -> Result<BinaryFormat, ReadError> {
    let format = match forced {
        Some(f) => f,
        None => detect(bytes)?,
    };
    match format {
        BinaryFormat::Native => native::read(bytes).map(|r| r.format),
        _ => nethack::check(bytes, format).map(|()| format),
    }
}

/// Options of [`write_with`].
#[derive(Clone, Copy, Debug)]
pub struct WriteOptions<'a> {
    /// NetHack targets: a compiled file (or its first bytes) whose version
    /// header is copied instead of the default one.
    pub header_from: Option<&'a [u8]>,
    /// Native target: the dialect recorded in the file.
    pub dialect: &'a str,
}

impl Default for WriteOptions<'_> {
    fn default() -> Self {
        WriteOptions {
            header_from: None,
            dialect: "vanilla",
        }
    }
}

/// Writes `script` in `format`; the header is the format's default unless
/// copied from `header_from`. The native file records the dialect
/// `vanilla`; use [`write_with`] to record another.
pub fn write(
    script: &Script,
    format: BinaryFormat,
    header_from: Option<&[u8]>,
) -> Result<Vec<u8>, WriteError> {
    write_with(
        script,
        format,
        &WriteOptions {
            header_from,
            ..WriteOptions::default()
        },
    )
}

pub fn write_with(
    script: &Script,
    format: BinaryFormat,
    opts: &WriteOptions<'_>,
) -> Result<Vec<u8>, WriteError> {
    match format {
        BinaryFormat::Native => {
            if opts.header_from.is_some() {
                return Err(WriteError::new(
                    "a version header (--header-from) applies only to a game's own compiled layout, not to the native format",
                ));
            }
            native::write(script, opts.dialect)
        }
        format => nethack::write(script, format, opts.header_from),
    }
}

/// Every flag bit the script model knows (vanilla bits plus the variant
/// descriptors).
pub const KNOWN_FLAGS: u32 = flags::TOWN
    | flags::HELLISH
    | flags::MAZELIKE
    | flags::ROGUELIKE
    | flags::ALIGN_MASK
    | flags::EXT_ICEQ
    | flags::EXT_VECNAD
    | flags::EXT_GTOWN
    | flags::EXT_PURG
    | flags::EXT_HDGN;

/// The flag bits NetHack's own layout can hold.
pub const NETHACK_FLAGS: u32 =
    flags::TOWN | flags::HELLISH | flags::MAZELIKE | flags::ROGUELIKE | flags::ALIGN_MASK;

/// Where a chain may point: `-1`, or a level of the same dungeon defined
/// earlier (levels) or anywhere in it (branches). `first` is the file-global
/// index of the dungeon's first level, `limit` one past the last allowed.
pub fn chain_ok(chain: i32, first: usize, limit: usize) -> bool {
    if chain == -1 {
        return true;
    }
    match usize::try_from(chain) {
        Ok(c) => c >= first && c < limit,
        Err(_) => false,
    }
}

/// Describes the allowed chain values for an error message.
pub fn chain_expectation(first: usize, limit: usize) -> String {
    if limit > first {
        format!(
            "expected -1 (none) or a level of the same dungeon defined before it ({}..={})",
            first,
            limit - 1
        )
    } else {
        "expected -1 (none): no level of the same dungeon is defined before it".to_string()
    }
}

/// Checks the chain indices of a whole script (what the readers guarantee
/// and the writers require).
pub fn validate_chains(script: &Script) -> Result<(), String> {
    let mut first = 0usize;
    for d in &script.dungeons {
        for (i, l) in d.levels.iter().enumerate() {
            let global = first + i;
            if !chain_ok(l.chain, first, global) {
                return Err(format!(
                    "level {} (\"{}\") of dungeon \"{}\" has chain {}: {}",
                    global,
                    lossy(&l.name),
                    lossy(&d.name),
                    l.chain,
                    chain_expectation(first, global)
                ));
            }
        }
        let end = first + d.levels.len();
        for (i, b) in d.branches.iter().enumerate() {
            if !chain_ok(b.chain, first, end) {
                return Err(format!(
                    "branch {} (to \"{}\") of dungeon \"{}\" has chain {}: {}",
                    i,
                    lossy(&b.target),
                    lossy(&d.name),
                    b.chain,
                    chain_expectation(first, end)
                ));
            }
        }
        first = end;
    }
    Ok(())
}

pub use dgnkit_script::lossy;

#[cfg(test)]
mod stated_tests {
    use super::*;

    /// A default header of `format` with another version in its incarnation.
    fn header(format: BinaryFormat, major: u8, minor: u8, patch: u8) -> Vec<u8> {
        let mut h = nethack::default_header(format);
        h[1] = patch;
        h[2] = minor;
        h[3] = major;
        h
    }

    #[test]
    fn each_version_states_its_game_and_generator() {
        use BinaryFormat::{NetHack343, NetHack36};
        let game = |format, rng| Some(Stated::Game { format, rng });
        let cases = [
            (NetHack343, (3, 4, 3), game(NetHack343, None)),
            (NetHack36, (3, 6, 0), game(NetHack36, Some(RngKind::Glibc))),
            (NetHack36, (3, 6, 1), game(NetHack36, Some(RngKind::Glibc))),
            (NetHack36, (3, 6, 2), game(NetHack36, None)),
            (NetHack36, (3, 6, 7), game(NetHack36, None)),
            (
                NetHack343,
                (3, 3, 0),
                Some(Stated::Unreproduced {
                    major: 3,
                    minor: 3,
                    patch: 0,
                }),
            ),
            (
                NetHack343,
                (3, 4, 2),
                Some(Stated::Unreproduced {
                    major: 3,
                    minor: 4,
                    patch: 2,
                }),
            ),
        ];
        for (format, (major, minor, patch), want) in cases {
            let h = header(format, major, minor, patch);
            assert_eq!(stated_game(&h), want, "{major}.{minor}.{patch}");
        }
    }

    #[test]
    fn native_files_and_other_bytes_state_no_game() {
        let script = script::Script {
            prelude: None,
            dungeons: vec![script::Dungeon {
                name: b"The Dungeons of Doom".to_vec(),
                bones: b'D',
                size: script::Range { base: 25, rand: 5 },
                chance: 100,
                levels: vec![script::Level {
                    name: b"oracle".to_vec(),
                    bones: b'O',
                    range: script::Range { base: 5, rand: 5 },
                    chance: 100,
                    chain: -1,
                    ..Default::default()
                }],
                ..Default::default()
            }],
        };
        let native = write(&script, BinaryFormat::Native, None).unwrap();
        assert_eq!(stated_game(&native), None);
        assert_eq!(stated_game(b"DUNGEON: \"x\""), None);
        assert_eq!(stated_game(&[]), None);
        assert_eq!(
            stated_game(&header(BinaryFormat::NetHack343, 2, 0, 0)),
            None
        );
    }
}
