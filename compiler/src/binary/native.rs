//! dgnkit's own compiled format: no fixed limits, versioned, checksummed.
//!
//! ```text
//! offset size
//!  0      8   magic "DGNKIT\0\x1a"
//!  8      2   format major (u16 LE): a reader refuses a newer major
//! 10      2   format minor (u16 LE): additions a same-major reader can ignore
//! 12      8   payload length in bytes (u64 LE)
//! 20      4   CRC-32 (IEEE) of the payload (u32 LE)
//! 24      -   payload: postcard encoding of { dialect: string, script: Script }
//! ```
//!
//! The payload is exactly `payload length` bytes and ends the file.

use super::{
    crc32, lossy, validate_chains, BinaryFormat, ReadError, ReadScript, WriteError, KNOWN_FLAGS,
};
use crate::script::Script;
use serde::{Deserialize, Serialize};

pub const MAGIC: [u8; 8] = *b"DGNKIT\0\x1a";
pub const FORMAT_MAJOR: u16 = 1;
pub const FORMAT_MINOR: u16 = 0;
pub const HEADER_LEN: usize = 24;

#[derive(Serialize)]
struct BodyRef<'a> {
    dialect: &'a str,
    script: &'a Script,
}

#[derive(Deserialize)]
struct Body {
    dialect: String,
    script: Script,
}

pub fn has_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

pub fn write(script: &Script, dialect: &str) -> Result<Vec<u8>, WriteError> {
    validate_chains(script).map_err(WriteError::new)?;
    check_flags(script).map_err(WriteError::new)?;
    let payload = postcard::to_stdvec(&BodyRef { dialect, script })
        .map_err(|e| WriteError::new(format!("cannot encode the script: {e}")))?;
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_MAJOR.to_le_bytes());
    out.extend_from_slice(&FORMAT_MINOR.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
}

fn u16_at(bytes: &[u8], off: usize) -> Option<u16> {
    bytes
        .get(off..)?
        .first_chunk::<2>()
        .map(|b| u16::from_le_bytes(*b))
}

fn u32_at(bytes: &[u8], off: usize) -> Option<u32> {
    bytes
        .get(off..)?
        .first_chunk::<4>()
        .map(|b| u32::from_le_bytes(*b))
}

fn u64_at(bytes: &[u8], off: usize) -> Option<u64> {
    bytes
        .get(off..)?
        .first_chunk::<8>()
        .map(|b| u64::from_le_bytes(*b))
}

pub fn read(bytes: &[u8]) -> Result<ReadScript, ReadError> {
    if !has_magic(bytes) {
        let shown = bytes.get(..MAGIC.len()).unwrap_or(bytes);
        return Err(ReadError::new(
            0,
            format!(
                "not a dgnkit native file: the magic is \"{}\", expected \"DGNKIT\\0\\x1a\"",
                lossy(shown)
            ),
        ));
    }
    let (Some(major), Some(minor), Some(len), Some(sum)) = (
        u16_at(bytes, 8),
        u16_at(bytes, 10),
        u64_at(bytes, 12),
        u32_at(bytes, 20),
    ) else {
        return Err(ReadError::new(
            bytes.len(),
            format!(
                "file is truncated: {} bytes, shorter than the {HEADER_LEN}-byte native header",
                bytes.len()
            ),
        ));
    };
    if major > FORMAT_MAJOR {
        return Err(ReadError::new(
            8,
            format!(
                "written by a newer dgnkit: format {major}.{minor}, this reader knows up to {FORMAT_MAJOR}.x"
            ),
        ));
    }
    if major < FORMAT_MAJOR {
        return Err(ReadError::new(8, format!("format {major}.{minor} is not a released native format version (this reader knows {FORMAT_MAJOR}.x)")));
    }
    let payload = bytes.get(HEADER_LEN..).unwrap_or(&[]);
    if len != payload.len() as u64 {
        let at = if len > payload.len() as u64 {
            bytes.len()
        } else {
            HEADER_LEN.saturating_add(len as usize)
        };
        return Err(ReadError::new(
            at,
            if len > payload.len() as u64 {
                format!("file is truncated: the header announces a {len}-byte payload, {} bytes are present", payload.len())
            } else {
                format!(
                    "{} trailing bytes after the {len}-byte payload the header announces",
                    payload.len() as u64 - len
                )
            },
        ));
    }
    let actual = crc32(payload);
    if actual != sum {
        return Err(ReadError::new(
            20,
            format!("checksum mismatch: the header says CRC-32 {sum:08x}, the payload's is {actual:08x} (the file is corrupt)"),
        ));
    }
    let (body, rest) = postcard::take_from_bytes::<Body>(payload).map_err(|e| {
        ReadError::new(
            HEADER_LEN,
            format!("payload does not decode as a dungeon script: {e}"),
        )
    })?;
    if !rest.is_empty() {
        return Err(ReadError::new(
            bytes.len() - rest.len(),
            format!(
                "{} bytes left over after the encoded script inside the payload",
                rest.len()
            ),
        ));
    }
    validate_chains(&body.script).map_err(|m| ReadError::new(HEADER_LEN, m))?;
    check_flags(&body.script).map_err(|m| ReadError::new(HEADER_LEN, m))?;
    Ok(ReadScript {
        script: body.script,
        format: BinaryFormat::Native,
        header: Vec::new(),
        dialect: Some(body.dialect),
    })
}

fn check_flags(script: &Script) -> Result<(), String> {
    let bad = |f: u32| f & !KNOWN_FLAGS != 0;
    for d in &script.dungeons {
        if bad(d.flags) {
            return Err(format!(
                "dungeon \"{}\" has unknown flag bits 0x{:x}",
                lossy(&d.name),
                d.flags & !KNOWN_FLAGS
            ));
        }
        for l in &d.levels {
            if bad(l.flags) {
                return Err(format!(
                    "level \"{}\" of dungeon \"{}\" has unknown flag bits 0x{:x}",
                    lossy(&l.name),
                    lossy(&d.name),
                    l.flags & !KNOWN_FLAGS
                ));
            }
        }
    }
    Ok(())
}
