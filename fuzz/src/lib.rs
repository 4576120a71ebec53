//! Pieces shared by dgnkit's fuzz targets: the option sets a target picks
//! from a byte, scripts built from fuzz bytes for the loader, and the frame
//! parser the LSP target checks the server's output with.
//!
//! Every target asserts more than "no panic": where the library documents a
//! property (the printer re-parses to the same tree, formatting is
//! idempotent, `check` accepts what `read` accepts, a written file reads back
//! to the same script), the target asserts it on every input that qualifies.

use dgnkit::dialect::Dialect;
use dgnkit::frontend::CheckOptions;
use dgnkit::lint::LintLevels;
use dgnkit::options::Target;
use dgnkit::script::{flags, Branch, BranchType, Dungeon, Level, Range, Script};
pub use libfuzzer_sys::arbitrary::{self, Result as ArbResult, Unstructured};

/// Check options from two bytes: `selector` picks the target and dialect
/// (every pair is reachable), `bits` the `%FLAG` options and lint levels.
pub fn check_options(selector: u8, bits: u8) -> CheckOptions {
    let target = Target::ALL[usize::from(selector) % Target::ALL.len()];
    let dialect = Dialect::ALL[usize::from(selector) / Target::ALL.len() % Dialect::ALL.len()];
    let mut defines = Vec::new();
    let mut undefines = Vec::new();
    if bits & 1 != 0 {
        undefines.push("REINCARNATION".to_string());
    }
    if bits & 2 != 0 {
        undefines.push("MULDGN".to_string());
    }
    if bits & 4 != 0 {
        // A flag makedefs does not know: its lines are dropped unless defined.
        defines.push("WIZARD".to_string());
    }
    // Half the settings allow the two layout-odds lints, which skips their
    // exact enumeration of every layout: it costs many times the rest of
    // the analysis, and the loader target covers the loader besides.
    let lints = match (bits >> 3) & 7 {
        0 => LintLevels::new(),
        1 => LintLevels::new().deny("warnings"),
        2 => LintLevels::new()
            .deny("compat")
            .allow("duplicate-level-name"),
        3 => LintLevels::new().deny("load-failure-odds"),
        4 => LintLevels::new().allow("warnings"),
        5 => LintLevels::new()
            .deny("warnings")
            .allow("load-failure-odds")
            .allow("bones-marker-unused"),
        _ => LintLevels::new()
            .allow("load-failure-odds")
            .allow("bones-marker-unused"),
    };
    CheckOptions {
        target,
        dialect,
        defines,
        undefines,
        lints,
    }
}

/// Names that make branches find their dungeons, the required dungeons
/// exist, and Fort Ludios and dummy levels come up.
const NAMES: &[&[u8]] = &[
    b"The Dungeons of Doom",
    b"Gehennom",
    b"The Gnomish Mines",
    b"The Quest",
    b"Sokoban",
    b"Fort Ludios",
    b"Vlad's Tower",
    b"The Elemental Planes",
    b"knox",
    b"dummy",
    b"oracle",
    b"bigrm",
    b"medusa",
    b"castle",
    b"",
];

fn name(u: &mut Unstructured<'_>) -> ArbResult<Vec<u8>> {
    if u.ratio(7, 8)? {
        Ok(u.choose(NAMES)?.to_vec())
    } else {
        let len = u.int_in_range(0..=30)?;
        Ok(u.bytes(len)?.iter().map(|b| b.max(&1)).copied().collect())
    }
}

/// A number near the values dungeon files use, sometimes anything.
fn small(u: &mut Unstructured<'_>, lo: i32, hi: i32) -> ArbResult<i32> {
    if u.ratio(15, 16)? {
        u.int_in_range(lo..=hi)
    } else {
        u.arbitrary()
    }
}

fn range(u: &mut Unstructured<'_>) -> ArbResult<Range> {
    Ok(Range {
        base: small(u, -40, 40)?,
        rand: small(u, -2, 12)?,
    })
}

fn flag_bits(u: &mut Unstructured<'_>) -> ArbResult<u32> {
    let raw: u32 = u.arbitrary()?;
    Ok(if u.ratio(15, 16)? {
        raw & dgnkit::binary::KNOWN_FLAGS
    } else {
        raw
    })
}

/// A chain: none, a level of this dungeon defined before (the only ones
/// the readers accept), or anything.
fn chain(u: &mut Unstructured<'_>, first: usize, limit: usize) -> ArbResult<i32> {
    Ok(match u.int_in_range(0..=7)? {
        0..=3 => -1,
        4..=6 if limit > first => u.int_in_range(first..=limit - 1)? as i32,
        _ => small(u, -3, limit as i32 + 3)?,
    })
}

/// A script for the loader. Mostly shapes NetHack's files have (names that
/// match, small ranges, valid chains), sometimes any value.
pub fn script(u: &mut Unstructured<'_>) -> ArbResult<Script> {
    let n = u.int_in_range(0..=18)?;
    let mut dungeons = Vec::with_capacity(n);
    let mut first = 0usize;
    for _ in 0..n {
        let nl = u.int_in_range(0..=14)?;
        let mut levels = Vec::with_capacity(nl);
        for i in 0..nl {
            levels.push(Level {
                name: name(u)?,
                display: None,
                bones: u.arbitrary()?,
                range: range(u)?,
                chance: small(u, 0, 100)?,
                rndlevs: small(u, 0, 5)?,
                chain: chain(u, first, first + i)?,
                flags: flag_bits(u)?,
            });
        }
        let nb = u.int_in_range(0..=6)?;
        let mut branches = Vec::with_capacity(nb);
        for _ in 0..nb {
            branches.push(Branch {
                target: name(u)?,
                range: range(u)?,
                chain: chain(u, first, first + nl)?,
                branch_type: *u.choose(&[
                    BranchType::Stair,
                    BranchType::NoUp,
                    BranchType::NoDown,
                    BranchType::Portal,
                ])?,
                up: u.arbitrary()?,
                entry: None,
            });
        }
        first += nl;
        dungeons.push(Dungeon {
            name: name(u)?,
            proto: if u.ratio(1, 4)? { name(u)? } else { Vec::new() },
            bones: u.arbitrary()?,
            size: Range {
                base: small(u, -2, 40)?,
                rand: small(u, -2, 10)?,
            },
            flags: flag_bits(u)? & !flags::ALIGN_MASK
                | (u.int_in_range(0..=7)? << flags::ALIGN_SHIFT),
            chance: small(u, 0, 100)?,
            entry: small(u, -5, 5)?,
            levels,
            branches,
            tileset: None,
            lua: Default::default(),
        });
    }
    Ok(Script {
        dungeons,
        prelude: None,
    })
}

/// One frame of LSP's base protocol, as the server writes it.
pub fn split_frames(mut out: &[u8]) -> Result<Vec<&[u8]>, String> {
    let mut frames = Vec::new();
    while !out.is_empty() {
        let Some(end) = out.windows(4).position(|w| w == b"\r\n\r\n") else {
            return Err(format!(
                "a header without its end: {:?}",
                String::from_utf8_lossy(out)
            ));
        };
        let header = std::str::from_utf8(&out[..end]).map_err(|e| format!("header: {e}"))?;
        let len = header
            .split("\r\n")
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .and_then(|v| v.parse::<usize>().ok())
            .ok_or_else(|| format!("no Content-Length in {header:?}"))?;
        let body = out
            .get(end + 4..end + 4 + len)
            .ok_or_else(|| format!("a {len}-byte body cut short"))?;
        frames.push(body);
        out = &out[end + 4 + len..];
    }
    Ok(frames)
}
