//! dgnkit's native format reader. Random bytes rarely get past the magic,
//! the length and the CRC-32, so half the inputs are a payload that this
//! target wraps in a correct header (the fuzzer then explores the postcard
//! decoding and the script validation behind it).
//!
//! Input: `[mode, rest...]`. Even mode: `rest` is the whole file. Odd mode:
//! `rest` is the payload; `mode >> 1` picks the minor version written.
//! A file that reads must write back to a file that reads as the same
//! script and dialect.

#![no_main]

use dgnkit::binary::{self, crc32, native, BinaryFormat, WriteOptions};
use dgnkit::options::Target;
use libfuzzer_sys::fuzz_target;

fn wrap(payload: &[u8], minor: u16) -> Vec<u8> {
    let mut out = Vec::with_capacity(native::HEADER_LEN + payload.len());
    out.extend_from_slice(&native::MAGIC);
    out.extend_from_slice(&native::FORMAT_MAJOR.to_le_bytes());
    out.extend_from_slice(&minor.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

fuzz_target!(|data: &[u8]| {
    let [mode, rest @ ..] = data else {
        return;
    };
    let wrapped;
    let file = if mode & 1 == 0 {
        rest
    } else {
        wrapped = wrap(rest, u16::from(mode >> 1));
        &wrapped
    };
    let read = native::read(file);
    for forced in [None, Some(BinaryFormat::Native)] {
        let via = binary::read(file, forced);
        let check = binary::check(file, forced);
        assert_eq!(
            via.as_ref().map(|r| r.format).map_err(Clone::clone),
            check,
            "read and check disagree ({forced:?})"
        );
        if forced.is_some() {
            assert_eq!(via, read);
        }
    }
    let read = match read {
        Ok(r) => r,
        Err(e) => {
            assert!(e.offset <= file.len(), "{e:?} past the end");
            return;
        }
    };
    assert_eq!(read.format, BinaryFormat::Native);
    let dialect = read
        .dialect
        .as_deref()
        .expect("native files record a dialect");
    let written = binary::write_with(
        &read.script,
        Target::Native,
        &WriteOptions {
            header_from: None,
            dialect,
        },
    )
    .expect("a file that reads writes");
    let back = binary::read(&written, None).expect("written file reads");
    assert_eq!(
        back.script, read.script,
        "written file reads as another script"
    );
    assert_eq!(back.dialect, read.dialect);
    // postcard's encoding is canonical for what we write: writing again
    // gives the same bytes.
    let again = native::write(&back.script, dialect).expect("rewrite");
    assert_eq!(again, written);
});
