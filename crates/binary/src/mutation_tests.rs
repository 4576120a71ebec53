//! Every single-byte change of every expected NetHack binary, read by the
//! real reader. Re-reading a whole file per change would take tens of
//! millions of full walks, so each walk resumes from the reader's own state
//! at the record that holds the changed byte and stops as soon as its state
//! equals the unchanged file's state at the same step: the walk is a pure
//! function of that state and the bytes after it, so from there on it can
//! only repeat the original outcome. A fixed sample is also read in full
//! (both the allocation-free check and the script builder) to confirm the
//! shortcut gives the same answers. The resumed walks run quiet (errors
//! without their message text, which is most of an error's cost in an
//! unoptimised build); the sample checks the messages.

use super::nethack::{NoSink, Phase, Walker};
use super::{check, detect, read, BinaryFormat, ReadError};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn shared_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .join("shared");
    if root.join("expected").is_dir() {
        return Some(root);
    }
    assert!(
        std::env::var("DGNKIT_REQUIRE_SHARED").as_deref() != Ok("1"),
        "DGNKIT_REQUIRE_SHARED=1 but {} is missing",
        root.display()
    );
    eprintln!("skipping: {} is absent", root.display());
    None
}

/// Distinct contents of every expected `.bin`, complete and partial.
fn expected_bins() -> Vec<(String, Vec<u8>)> {
    let Some(shared) = shared_dir() else {
        return Vec::new();
    };
    let dir = shared.join("expected").join("compiled");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("expected/compiled")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    // Each variant family's own dgn_comp output too.
    if let Ok(families) = std::fs::read_dir(shared.join("expected").join("variants")) {
        paths.extend(
            families
                .filter_map(|e| e.ok().map(|e| e.path().join("dungeon.bin")))
                .filter(|p| p.is_file()),
        );
    }
    paths.sort();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for p in paths {
        let bytes = std::fs::read(&p).expect("read binary");
        if seen.insert(bytes.clone()) {
            out.push((p.display().to_string(), bytes));
        }
    }
    out
}

/// The reader's state before each step of the unchanged file.
fn snapshots(bytes: &[u8], format: BinaryFormat) -> Vec<Walker> {
    let mut w = Walker::new(bytes, format).expect("header");
    w.quiet = true;
    let mut states = vec![w];
    while w.phase != Phase::Done {
        w.step(bytes, &mut NoSink)
            .expect("expected binaries are valid");
        states.push(w);
    }
    states
}

/// Outcome of the changed file, by resuming at step `k`.
fn resumed(changed: &[u8], states: &[Walker], k: usize, pos: usize) -> Result<(), ReadError> {
    let Some(&start) = states.get(k) else {
        return Ok(());
    };
    let mut w = start;
    let mut step = k;
    loop {
        if w.phase == Phase::Done {
            return Ok(());
        }
        w.step(changed, &mut NoSink)?;
        step += 1;
        if w.pos > pos && states.get(step) == Some(&w) {
            return Ok(());
        }
    }
}

struct Tally {
    total: u64,
    accepted: u64,
    sampled: u64,
}

/// `body_too`: also change the bytes after the version header (callers skip
/// that for a file whose records another file already has: the 3.4.3 and
/// 3.6 files of one source differ only in their headers).
fn mutate_file(name: &str, bytes: &[u8], body_too: bool) -> Tally {
    let mut tally = Tally {
        total: 0,
        accepted: 0,
        sampled: 0,
    };
    let format = detect(bytes).expect("expected binaries are detected");
    assert_ne!(format, BinaryFormat::Native);
    let states = snapshots(bytes, format);
    let mut changed = bytes.to_vec();
    // Index of the last state that starts at or before each position.
    let mut k = 0usize;
    let end = if body_too {
        bytes.len()
    } else {
        super::nethack::header_len(format)
    };
    for pos in 0..end {
        while states.get(k + 1).is_some_and(|s| s.pos <= pos) {
            k += 1;
        }
        let orig = bytes[pos];
        for v in 0..=255u8 {
            if v == orig {
                continue;
            }
            changed[pos] = v;
            tally.total += 1;
            // Detection reads only the first 8 bytes; a change there runs
            // the whole reader.
            let outcome = if pos < 8 {
                check(&changed, None).map(|_| ())
            } else {
                resumed(&changed, &states, k, pos)
            };
            if let Err(e) = &outcome {
                assert!(
                    e.offset <= changed.len(),
                    "{name} byte {pos}={v}: offset {} past the end",
                    e.offset
                );
            } else {
                tally.accepted += 1;
            }
            if (pos * 256 + usize::from(v)) % 4099 == 0 {
                tally.sampled += 1;
                let full = check(&changed, None).map(|_| ());
                assert_eq!(
                    full.as_ref().map_err(|e| e.offset),
                    outcome.as_ref().map_err(|e| e.offset),
                    "{name} byte {pos}={v}: resumed walk differs from the full check"
                );
                if let Err(e) = &full {
                    assert!(
                        !e.message.is_empty(),
                        "{name} byte {pos}={v}: empty message"
                    );
                }
                let built = read(&changed, None);
                assert_eq!(
                    built.as_ref().map(|_| ()).map_err(Clone::clone),
                    full,
                    "{name} byte {pos}={v}: read vs check"
                );
                for forced in BinaryFormat::ALL {
                    let a = read(&changed, Some(forced)).map(|_| ());
                    let b = check(&changed, Some(forced)).map(|_| ());
                    assert_eq!(a, b, "{name} byte {pos}={v} forced {forced}");
                }
            }
        }
        changed[pos] = orig;
    }
    tally
}

#[test]
fn every_single_byte_change_of_every_expected_binary() {
    let bins = expected_bins();
    if bins.is_empty() {
        return;
    }
    let start = std::time::Instant::now();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4);
    let mut bodies = BTreeSet::new();
    let work: Vec<(String, Vec<u8>, bool)> = bins
        .into_iter()
        .map(|(name, bytes)| {
            let hlen = detect(&bytes).map_or(0, super::nethack::header_len);
            let fresh = bodies.insert(bytes.get(hlen..).unwrap_or_default().to_vec());
            (name, bytes, fresh)
        })
        .collect();
    let chunks: Vec<Vec<(String, Vec<u8>, bool)>> = (0..threads)
        .map(|t| work.iter().skip(t).step_by(threads).cloned().collect())
        .collect();
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|(n, b, body)| mutate_file(n, b, *body))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("mutation thread"))
            .collect()
    });
    let total: u64 = tallies.iter().map(|t| t.total).sum();
    let accepted: u64 = tallies.iter().map(|t| t.accepted).sum();
    let sampled: u64 = tallies.iter().map(|t| t.sampled).sum();
    eprintln!(
        "{} files ({} distinct record sequences), {total} single-byte changes ({accepted} still valid, {sampled} also read in full) in {:?}",
        work.len(),
        bodies.len(),
        start.elapsed()
    );
    assert!(accepted > 0 && accepted < total);
}
