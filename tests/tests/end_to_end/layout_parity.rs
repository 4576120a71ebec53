//! Parity of the loader with NetHack's own `init_dungeons()`: every line of
//! every file in `../shared/expected/layouts/` is resolved again from the
//! compiled file of the same name and version, with the same generator,
//! seed and mode, and compared whole, draw log included. A `panic` line
//! must give an error for the same condition.
//!
//! `<name>.343.*` layouts were made by NetHack 3.4.3's loader (glibc),
//! `<name>.36.*` by 3.6's (ISAAC-64); the rng in the file name is the one
//! used, so the cross-resolved vanilla files are covered too.

use dgnkit::layout::Layout;
use dgnkit::loader::{LoadError, Resolved, Resolver, Rules};
use dgnkit::rng::{Draw, RngKind};
use dgnkit::views;
use std::path::Path;

struct Case {
    name: String,
    rules: Rules,
    rng: RngKind,
    wizard: bool,
}

/// `<name>.<ver>.<rng>[.wizard].jsonl.gz`; names may contain dots.
fn parse_file_name(file: &str) -> Option<(String, &str, RngKind, bool)> {
    let stem = file.strip_suffix(".jsonl.gz")?;
    let (stem, wizard) = match stem.strip_suffix(".wizard") {
        Some(s) => (s, true),
        None => (stem, false),
    };
    let (stem, rng) = stem.rsplit_once('.')?;
    let (name, ver) = stem.rsplit_once('.')?;
    Some((name.to_string(), ver, RngKind::parse(rng)?, wizard))
}

fn first_difference(want: &Layout, got: &Layout, resolver: &Resolver, draws: &[Draw]) -> String {
    let empty = Vec::new();
    let (w, g) = (
        want.rng_calls.as_ref().unwrap_or(&empty),
        got.rng_calls.as_ref().unwrap_or(&empty),
    );
    if let Some(i) = (0..w.len().max(g.len())).find(|&i| w.get(i) != g.get(i)) {
        let at = draws
            .get(i)
            .map(|d| format!(" @ {}", resolver.describe_site(d.site)))
            .unwrap_or_default();
        return format!(
            "first differing draw #{i}: expected {}, got {}{at}",
            w.get(i).map_or("(none)", String::as_str),
            g.get(i).map_or("(none)", String::as_str)
        );
    }
    fn list<T: std::fmt::Debug + PartialEq>(name: &str, a: &[T], b: &[T]) -> Option<String> {
        if a == b {
            return None;
        }
        match (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
            Some(i) => Some(format!(
                "{name}[{i}] differ:\n  expected {:?}\n  got      {:?}",
                a.get(i),
                b.get(i)
            )),
            None => Some(format!("{name} differ")),
        }
    }
    list("dungeons", &want.dungeons, &got.dungeons)
        .or_else(|| list("levels", &want.levels, &got.levels))
        .or_else(|| list("branches", &want.branches, &got.branches))
        .or_else(|| {
            (want.tune != got.tune)
                .then(|| format!("tune: expected {}, got {}", want.tune, got.tune))
        })
        .unwrap_or_else(|| "header fields differ".to_string())
}

/// Checks one expected file; returns (lines checked, failure messages).
fn check_file(shared: &Path, file: &str) -> (usize, Vec<String>) {
    let Some((name, ver, rng, wizard)) = parse_file_name(file) else {
        return (0, vec![format!("{file}: unexpected file name")]);
    };
    let rules = match ver {
        "343" => Rules::nethack_343(),
        "36" => Rules::nethack_36(),
        _ => return (0, vec![format!("{file}: unknown version {ver}")]),
    };
    let case = Case {
        name,
        rules,
        rng,
        wizard,
    };
    let bin = shared
        .join("expected/compiled")
        .join(format!("{}.{ver}.bin", case.name));
    let bytes = match std::fs::read(&bin) {
        Ok(b) => b,
        Err(e) => return (0, vec![format!("{file}: {}: {e}", bin.display())]),
    };
    let script = match dgnkit::binary::read(&bytes, None) {
        Ok(r) => r.script,
        Err(e) => {
            return (
                0,
                vec![format!("{file}: cannot read {}: {e}", bin.display())],
            )
        }
    };
    let resolver = match Resolver::with_rules(&script, case.rules.clone()) {
        Ok(r) => r,
        Err(e) => return (0, vec![format!("{file}: {e}")]),
    };
    let lines_of = match dgnkit_tests::gz_json_lines(&shared.join("expected/layouts").join(file)) {
        Ok(l) => l,
        Err(e) => return (0, vec![e]),
    };
    let mut failures = Vec::new();
    let mut lines = 0;
    let mut out = Resolved::default();
    let json = views::JsonLines::new(&resolver);
    for (n, value) in lines_of {
        lines = n;
        let value = match value {
            Ok(v) => v,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let seed = value["seed"].as_u64().unwrap_or(u64::MAX);
        let mut log = Vec::new();
        let result = resolver.resolve_traced(seed, case.rng, case.wizard, &mut out, &mut log);
        if let Some(panic) = value.get("panic").and_then(|p| p.as_str()) {
            match result {
                Err(e) if e.nethack_panic().as_deref() == Some(panic) => {}
                Err(e) => failures.push(format!(
                    "{file} seed {seed}: NetHack aborts with {panic:?}; we fail with {e}"
                )),
                Ok(()) => failures.push(format!(
                    "{file} seed {seed}: NetHack aborts with {panic:?}; we resolve a layout"
                )),
            }
            continue;
        }
        let want: Layout = match serde_json::from_value(value) {
            Ok(l) => l,
            Err(e) => {
                failures.push(format!("{file} seed {seed}: {e}"));
                continue;
            }
        };
        let got = match result {
            Ok(()) => out.to_layout(&resolver, Some(log.iter().map(Draw::to_string).collect())),
            Err(e) => {
                let got = Layout {
                    rng_calls: Some(log.iter().map(Draw::to_string).collect()),
                    ..Layout::default()
                };
                let why = first_difference(&want, &got, &resolver, &log);
                failures.push(format!("{file} seed {seed}: error {e} ({})", why));
                continue;
            }
        };
        if got != want {
            failures.push(format!(
                "{file} seed {seed}: {}",
                first_difference(&want, &got, &resolver, &log)
            ));
        }
        // `dgn layout --seeds` writes the JSON from the buffer itself.
        let mut text = Vec::new();
        json.write(&resolver, &out, &mut text);
        let without_log = Layout {
            rng_calls: None,
            ..want
        };
        if text != views::json_line(&without_log).as_bytes() {
            failures.push(format!(
                "{file} seed {seed}: the --seeds JSON line differs: {}",
                String::from_utf8_lossy(&text)
            ));
        }
    }
    (lines, failures)
}

#[test]
fn every_expected_layout_matches() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let dir = shared.join("expected/layouts");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("expected/layouts")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".jsonl.gz"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no layouts in {}", dir.display());
    let (mut lines, mut failures, mut failed_files) = (0, Vec::new(), 0);
    for file in &files {
        let (n, f) = check_file(&shared, file);
        lines += n;
        if !f.is_empty() {
            failed_files += 1;
            // The first few per file say enough.
            failures.extend(f.into_iter().take(3));
        }
    }
    assert!(
        failures.is_empty(),
        "{failed_files} of {} files differ ({lines} lines checked):\n{}",
        files.len(),
        failures.join("\n")
    );
    eprintln!("{} files, {lines} layouts: all match", files.len());
}

#[test]
fn a_panic_line_is_compared_by_condition() {
    // The comparison above uses LoadError::nethack_panic; make sure the
    // two conditions the expected data contains map to it.
    let e = LoadError::MissingDungeon {
        name: "Sokoban".into(),
    };
    assert_eq!(
        e.nethack_panic().as_deref(),
        Some("Couldn't resolve dungeon number for name \"Sokoban\".")
    );
}
