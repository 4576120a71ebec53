//! Damaged copies of every expected binary: each truncation (NetHack layout
//! and its native re-encoding), bytes appended, and byte flips of the native
//! encoding. The readers must answer each with a valid script or an error
//! that names an offset inside the file, never a panic, and the
//! allocation-free check must agree with the full reader. (Every single-byte
//! change of the NetHack files is tested in the library's
//! `binary::mutation_tests`, which can resume the reader mid-file.)

use dgnkit::binary::{self, BinaryFormat};
use dgnkit::options::Target;
use std::collections::BTreeSet;
use std::path::Path;

/// Distinct contents of every expected `.bin` (complete and partial).
fn all_bins(shared: &Path) -> Vec<(String, Vec<u8>)> {
    let dir = shared.join("expected").join("compiled");
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("compiled dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    paths.sort();
    for p in paths {
        let bytes = std::fs::read(&p).expect("read");
        if seen.insert(bytes.clone()) {
            out.push((
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                bytes,
            ));
        }
    }
    assert!(out.len() > 10, "too few binaries");
    out
}

/// `what` describes the damage, for failure messages only.
fn assert_sane(
    name: &str,
    what: impl Fn() -> String,
    bytes: &[u8],
    forced: Option<BinaryFormat>,
) -> bool {
    let read = binary::read(bytes, forced);
    let check = binary::check(bytes, forced);
    match (&read, &check) {
        (Ok(r), Ok(f)) => assert!(
            r.format == *f,
            "{name} {}: read says {} but check {f}",
            what(),
            r.format
        ),
        (Err(a), Err(b)) => {
            assert!(
                a == b,
                "{name} {}: read and check disagree: {a} / {b}",
                what()
            );
            assert!(
                a.offset <= bytes.len(),
                "{name} {}: offset {} past the end",
                what(),
                a.offset
            );
        }
        _ => panic!("{name} {}: read {read:?} but check {check:?}", what()),
    }
    read.is_ok()
}

#[test]
fn every_truncation_is_an_error() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let mut natives = BTreeSet::new();
    for (name, bytes) in all_bins(&shared) {
        let native = binary::write(
            &binary::read(&bytes, None)
                .map(|r| r.script)
                .unwrap_or_default(),
            Target::Native,
            None,
        )
        .expect("native write");
        // The 3.4.3 and 3.6 files of a source hold the same records and
        // the same script: cut each distinct one once.
        if !natives.insert(native.clone()) {
            continue;
        }
        for (kind, file) in [("nethack", &bytes), ("native", &native)] {
            for len in 0..file.len() {
                let cut = file.get(..len).unwrap_or_default();
                let ok = assert_sane(&name, || format!("{kind} cut at {len}"), cut, None);
                assert!(!ok, "{name}: {kind} file cut to {len} bytes was accepted");
            }
        }
    }
}

#[test]
fn appended_bytes_are_an_error() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    for (name, bytes) in all_bins(&shared) {
        for extra in [&[0u8][..], &[0; 4], &[0; 48], &[0xff; 76]] {
            let mut long = bytes.clone();
            long.extend_from_slice(extra);
            assert!(
                !assert_sane(&name, || "with trailing bytes".into(), &long, None),
                "{name}: trailing bytes accepted"
            );
        }
    }
}

/// Byte flips of the native encoding of every expected script: the
/// checksum catches each one in the payload, and with the checksum
/// recomputed the decoder and validation must still answer without
/// panicking. Every position of the first script, every 43rd elsewhere.
#[test]
fn native_byte_flips_are_handled() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let mut scripts = BTreeSet::new();
    let mut flips = 0u64;
    for (name, bytes) in all_bins(&shared) {
        let Ok(read) = binary::read(&bytes, None) else {
            continue;
        };
        let native = binary::write(&read.script, Target::Native, None).expect("native write");
        if !scripts.insert(native.clone()) {
            continue;
        }
        let step = if scripts.len() <= 1 { 1 } else { 43 };
        let header = binary::native::HEADER_LEN;
        for pos in (0..native.len()).step_by(step) {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut copy = native.clone();
                if let Some(b) = copy.get_mut(pos) {
                    *b ^= mask;
                }
                flips += 1;
                let r = assert_sane(
                    &name,
                    || format!("native byte {pos}^{mask:#x}"),
                    &copy,
                    None,
                );
                if pos >= header {
                    assert!(
                        !r,
                        "{name}: native payload flip at {pos} passed the checksum"
                    );
                    // Re-seal the payload so the decoder sees the damage.
                    let sum = binary::crc32(copy.get(header..).unwrap_or_default());
                    if let Some(dst) = copy.get_mut(20..24) {
                        dst.copy_from_slice(&sum.to_le_bytes());
                    }
                    assert_sane(
                        &name,
                        || format!("resealed native byte {pos}^{mask:#x}"),
                        &copy,
                        None,
                    );
                }
            }
        }
    }
    eprintln!("{flips} native byte flips over {} scripts", scripts.len());
    assert!(flips > 5_000, "only {flips} flips");
}
