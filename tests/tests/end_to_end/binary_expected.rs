//! NetHack's own compiled files (`expected/compiled/*.bin`) read back, and
//! written again byte for byte, in both versions' layouts.

use dgnkit::binary::{self, nethack, BinaryFormat};
use dgnkit::options::Target;
use std::path::{Path, PathBuf};

/// Every complete expected binary (dgn_comp exited 0) with its layout.
fn expected_bins(shared: &Path) -> Vec<(PathBuf, BinaryFormat)> {
    let dir = shared.join("expected").join("compiled");
    let mut out = Vec::new();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if name.ends_with(".partial.bin") {
            continue;
        }
        if name.ends_with(".343.bin") {
            out.push((path, BinaryFormat::NetHack343));
        } else if name.ends_with(".36.bin") {
            out.push((path, BinaryFormat::NetHack36));
        }
    }
    out.sort();
    out
}

#[test]
fn every_expected_binary_reads_and_writes_back_identically() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let bins = expected_bins(&shared);
    assert!(
        bins.len() >= 98,
        "expected at least 98 binaries, found {}",
        bins.len()
    );
    for (path, format) in &bins {
        let bytes = std::fs::read(path).expect("read expected binary");
        let read = binary::read(&bytes, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(read.format, *format, "{}: detected layout", path.display());
        assert_eq!(
            read.header,
            nethack::default_header(*format),
            "{}: header",
            path.display()
        );
        assert!(
            !read.script.dungeons.is_empty(),
            "{}: no dungeons",
            path.display()
        );
        assert_eq!(
            binary::check(&bytes, None),
            Ok(*format),
            "{}: check",
            path.display()
        );

        let target = Target::of_format(*format);
        let again = binary::write(&read.script, target, None)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            again == bytes,
            "{}: default-header write differs",
            path.display()
        );
        let again = binary::write(&read.script, target, Some(&bytes))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            again == bytes,
            "{}: --header-from write differs",
            path.display()
        );

        // The same script in the other version's layout differs only in the header.
        let (other, other_target) = match format {
            BinaryFormat::NetHack343 => (BinaryFormat::NetHack36, Target::NetHack36),
            _ => (BinaryFormat::NetHack343, Target::NetHack343),
        };
        let cross = binary::write(&read.script, other_target, None).expect("cross-version write");
        assert_eq!(
            cross.get(nethack::header_len(other)..),
            bytes.get(nethack::header_len(*format)..)
        );
        assert_eq!(
            binary::read(&cross, None)
                .expect("cross-version read")
                .script,
            read.script
        );

        // Native carries the same script.
        let native = binary::write(&read.script, Target::Native, None).expect("native write");
        let back = binary::read(&native, None).expect("native read");
        assert_eq!(back.format, BinaryFormat::Native);
        assert_eq!(
            back.script,
            read.script,
            "{}: native round trip",
            path.display()
        );
        assert_eq!(back.dialect.as_deref(), Some("vanilla"));
    }
}

/// Both version files of one source hold the same script.
#[test]
fn both_versions_of_a_source_agree() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let bins = expected_bins(&shared);
    let mut pairs = 0;
    for (path, format) in &bins {
        if *format != BinaryFormat::NetHack343 {
            continue;
        }
        let name = path.to_string_lossy().replace(".343.bin", ".36.bin");
        let Ok(other) = std::fs::read(&name) else {
            continue;
        };
        let a = binary::read(&std::fs::read(path).expect("read"), None)
            .expect("343 reads")
            .script;
        let b = binary::read(&other, None).expect("36 reads").script;
        assert_eq!(a, b, "{}", path.display());
        pairs += 1;
    }
    assert!(pairs >= 49, "only {pairs} version pairs");
}

/// Values measured on the vanilla files (binary-format.md).
#[test]
fn vanilla_counts_and_sizes() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let dir = shared.join("expected").join("compiled");
    for (file, size, levels) in [
        ("vanilla343.343.bin", 2508, 33),
        ("vanilla36.36.bin", 2612, 35),
    ] {
        let bytes = std::fs::read(dir.join(file)).expect("vanilla binary");
        assert_eq!(bytes.len(), size);
        let script = binary::read(&bytes, None).expect("reads").script;
        assert_eq!(script.dungeons.len(), 8);
        assert_eq!(script.level_count(), levels);
        assert_eq!(script.branch_count(), 7);
        assert_eq!(script.dungeons[0].name, b"The Dungeons of Doom");
    }
}

/// dgn_comp's output after semantic errors is not something we write, but
/// reading it must give an answer (usually an error naming the bad field).
#[test]
fn partial_binaries_read_or_fail_cleanly() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let dir = shared.join("expected").join("compiled");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("compiled dir") {
        let path = entry.expect("entry").path();
        if !path.to_string_lossy().ends_with(".partial.bin") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("read");
        let result = binary::read(&bytes, None);
        assert_eq!(
            result.is_ok(),
            binary::check(&bytes, None).is_ok(),
            "{}",
            path.display()
        );
        eprintln!(
            "{}: {}",
            path.display(),
            result
                .as_ref()
                .map_or_else(|e| e.to_string(), |_| "reads".into())
        );
        if let Err(e) = &result {
            assert!(
                e.offset <= bytes.len(),
                "{}: offset {} past the end",
                path.display(),
                e.offset
            );
            assert!(!e.message.is_empty());
        }
        seen += 1;
    }
    assert!(seen > 0);
}

#[test]
fn every_expected_binary_states_the_game_of_its_dgn_comp() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    use dgnkit::binary::Stated;
    use dgnkit::rng::RngKind;
    for (path, format) in expected_bins(&shared) {
        let bytes = std::fs::read(&path).expect("read expected binary");
        // Made by NetHack 3.4.3's and 3.6.7's own dgn_comp.
        let want = match format {
            BinaryFormat::NetHack343 => (Target::NetHack343, RngKind::Glibc),
            _ => (Target::NetHack36, RngKind::Isaac64),
        };
        assert_eq!(
            binary::stated_game(&bytes),
            Some(Stated::Game {
                target: want.0,
                rng: want.1
            }),
            "{}",
            path.display()
        );
    }
}
