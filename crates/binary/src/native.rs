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
//!             then, from format 1.1, the postcard encoding of NetHack 3.7's
//!             fields: one LuaFields per dungeon, in order
//! ```
//!
//! The payload is exactly `payload length` bytes and ends the file.
//!
//! A script without 3.7 fields (every `.def` file) is written as format 1.0,
//! byte for byte as before; one with them (a `dungeon.lua` with themerooms,
//! lvlfill or an unconnected dungeon) as 1.1, so that a `.lua` -> native
//! -> `.lua` or layout round trip loses nothing. This reader reads 1.0 and
//! 1.1, and ignores what a later 1.x appends after the parts it knows; a
//! 1.0-only reader refuses a 1.1 file (bytes left over) rather than
//! dropping its 3.7 fields. Format 1.2 appends one more part, SpliceHack's
//! `nofood` flag of each dungeon (postcard `Vec<bool>`), written only when
//! a dungeon has it.

use super::{
    crc32, lossy, validate_chains, BinaryFormat, ReadError, ReadScript, WriteError, KNOWN_FLAGS,
};
use crate::script::{LuaFields, Script};
use serde::{Deserialize, Serialize};

pub const MAGIC: [u8; 8] = *b"DGNKIT\0\x1a";
pub const FORMAT_MAJOR: u16 = 1;
/// The newest minor version written: 1 adds NetHack 3.7's fields, 2
/// SpliceHack's `nofood`.
pub const FORMAT_MINOR: u16 = 2;
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
    let encode_error =
        |e: postcard::Error| WriteError::new(format!("cannot encode the script: {e}"));
    let mut payload = postcard::to_stdvec(&BodyRef { dialect, script }).map_err(encode_error)?;
    let lua: Vec<&LuaFields> = script.dungeons.iter().map(|d| &d.lua).collect();
    let nofood: Vec<bool> = lua.iter().map(|l| l.nofood).collect();
    let minor: u16 = if lua.iter().all(|l| l.is_empty()) {
        0
    } else {
        payload.extend(postcard::to_stdvec(&lua).map_err(encode_error)?);
        if nofood.contains(&true) {
            payload.extend(postcard::to_stdvec(&nofood).map_err(encode_error)?);
            2
        } else {
            1
        }
    };
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_MAJOR.to_le_bytes());
    out.extend_from_slice(&minor.to_le_bytes());
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
    let (mut body, mut rest) = postcard::take_from_bytes::<Body>(payload).map_err(|e| {
        ReadError::new(
            HEADER_LEN,
            format!("payload does not decode as a dungeon script: {e}"),
        )
    })?;
    // A 1.x payload that ends with the script has no 3.7 fields.
    if minor >= 1 && !rest.is_empty() {
        let at = bytes.len() - rest.len();
        let (lua, after) = postcard::take_from_bytes::<Vec<LuaFields>>(rest).map_err(|e| {
            ReadError::new(
                at,
                format!("the NetHack 3.7 fields of format 1.{minor} do not decode: {e}"),
            )
        })?;
        if lua.len() != body.script.dungeons.len() {
            return Err(ReadError::new(
                at,
                format!(
                    "format 1.{minor} holds NetHack 3.7 fields for {} dungeons, the script has {}",
                    lua.len(),
                    body.script.dungeons.len()
                ),
            ));
        }
        for (d, l) in body.script.dungeons.iter_mut().zip(lua) {
            d.lua = l;
        }
        rest = after;
        if minor >= 2 && !rest.is_empty() {
            let at = bytes.len() - rest.len();
            let (nofood, after) = postcard::take_from_bytes::<Vec<bool>>(rest).map_err(|e| {
                ReadError::new(
                    at,
                    format!("the nofood flags of format 1.{minor} do not decode: {e}"),
                )
            })?;
            if nofood.len() != body.script.dungeons.len() {
                return Err(ReadError::new(
                    at,
                    format!(
                        "format 1.{minor} holds nofood flags for {} dungeons, the script has {}",
                        nofood.len(),
                        body.script.dungeons.len()
                    ),
                ));
            }
            for (d, n) in body.script.dungeons.iter_mut().zip(nofood) {
                d.lua.nofood = n;
            }
            rest = after;
        }
    }
    // What a later minor version appends is for its readers.
    if minor > FORMAT_MINOR {
        rest = &[];
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Dungeon;

    fn script(lua: LuaFields) -> Script {
        let mut s = Script::default();
        s.dungeons.push(Dungeon {
            name: b"The Dungeons of Doom".to_vec(),
            ..Dungeon::default()
        });
        s.dungeons.push(Dungeon {
            name: b"The Tutorial".to_vec(),
            lua,
            ..Dungeon::default()
        });
        s
    }

    fn reseal(file: &mut [u8]) {
        let payload_len = (file.len() - HEADER_LEN) as u64;
        file[12..20].copy_from_slice(&payload_len.to_le_bytes());
        let sum = crc32(&file[HEADER_LEN..]);
        file[20..24].copy_from_slice(&sum.to_le_bytes());
    }

    #[test]
    fn a_script_without_37_fields_is_format_1_0_as_before() {
        let s = script(LuaFields::default());
        let file = write(&s, "vanilla").unwrap();
        assert_eq!(&file[8..12], &[1, 0, 0, 0]);
        let body = postcard::to_stdvec(&BodyRef {
            dialect: "vanilla",
            script: &s,
        })
        .unwrap();
        assert_eq!(&file[HEADER_LEN..], body.as_slice(), "nothing appended");
        assert_eq!(read(&file).unwrap().script, s);
    }

    #[test]
    fn the_37_fields_round_trip_as_format_1_1() {
        let s = script(LuaFields {
            themerooms: Some(b"tut-rooms.lua".to_vec()),
            lvlfill: Some(b"tut-fill".to_vec()),
            unconnected: true,
            nofood: false,
        });
        let file = write(&s, "vanilla").unwrap();
        assert_eq!(&file[8..12], &[1, 0, 1, 0]);
        assert_eq!(read(&file).unwrap().script, s);
        // SpliceHack's nofood: format 1.2, the 1.1 part unchanged before it.
        let n = script(LuaFields {
            unconnected: true,
            nofood: true,
            ..LuaFields::default()
        });
        let file2 = write(&n, "splicehack").unwrap();
        assert_eq!(&file2[8..12], &[1, 0, 2, 0]);
        assert_eq!(read(&file2).unwrap().script, n);

        // A later 1.x may append more: this reader keeps what it knows.
        let mut later = file2.clone();
        later[10] = 3;
        later.extend_from_slice(b"more");
        reseal(&mut later);
        assert_eq!(read(&later).unwrap().script, n);
        // Format 1.1 itself has nothing after its parts.
        let mut extra = file.clone();
        extra.extend_from_slice(b"more");
        reseal(&mut extra);
        assert!(read(&extra).is_err());
        // Fields for another number of dungeons are refused.
        let mut short = write(&script(LuaFields::default()), "vanilla").unwrap();
        short[10] = 1;
        short.extend(postcard::to_stdvec(&vec![LuaFields::default()]).unwrap());
        reseal(&mut short);
        let e = read(&short).unwrap_err();
        assert!(
            e.to_string().contains("for 1 dungeons, the script has 2"),
            "{e}"
        );
    }
}
