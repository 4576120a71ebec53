//! Compiling real sources: every file NetHack's dgn_comp compiled gives its
//! bytes exactly, and every corpus file survives compile -> decompile ->
//! compile unchanged, for each target.

use dgnkit::binary::{self, WriteOptions};
use dgnkit::decompile::decompile;
use dgnkit::frontend::{analyze, analyze_fast, CheckOptions};
use dgnkit::options::Target;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `name -> (source path, flags)` from `compiled/flags.tsv`.
fn sources(shared: &Path) -> BTreeMap<String, (PathBuf, Vec<String>)> {
    let tsv =
        std::fs::read_to_string(shared.join("expected/compiled/flags.tsv")).expect("flags.tsv");
    let mut out = BTreeMap::new();
    for line in tsv.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(name), Some(source)) = (cols.first(), cols.get(1)) else {
            continue;
        };
        let path = match *name {
            "vanilla343" => shared.join("corpus/Vanilla-NetHack__NetHack-3.4.3/dungeon.def"),
            "vanilla36" => shared.join("corpus/NetHack__NetHack/dungeon.def"),
            _ => shared.join(source.trim_start_matches("shared/")),
        };
        let flags = cols
            .get(2)
            .map(|f| {
                f.split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        out.insert(name.to_string(), (path, flags));
    }
    out
}

fn target_of(version: &str) -> Option<(Target, &'static str)> {
    match version {
        "3.4.3" => Some((Target::NetHack343, "343")),
        "3.6" => Some((Target::NetHack36, "36")),
        _ => None,
    }
}

#[test]
fn every_source_dgn_comp_accepted_compiles_to_its_bytes() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let sources = sources(&shared);
    let results = std::fs::read_to_string(shared.join("expected/compile-results.tsv"))
        .expect("compile-results.tsv");
    let mut failures = Vec::new();
    let mut compared = 0;
    for line in results.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(name), Some(version), Some(&"0")) = (cols.first(), cols.get(1), cols.get(2))
        else {
            continue;
        };
        let Some((target, suffix)) = target_of(version) else {
            continue;
        };
        let Some((path, flags)) = sources.get(*name) else {
            failures.push(format!("{name}: no source in flags.tsv"));
            continue;
        };
        let expected = std::fs::read(shared.join(format!("expected/compiled/{name}.{suffix}.bin")))
            .expect("expected binary");
        let src = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let opts = CheckOptions {
            target,
            defines: flags.clone(),
            ..CheckOptions::default()
        };
        let analysis = analyze(&src, &opts);
        compared += 1;
        let Some(script) = analysis.script else {
            let first = analysis
                .diagnostics
                .iter()
                .find(|d| d.is_error())
                .map(|d| format!("{}: {}", d.code, d.message));
            failures.push(format!(
                "{name} {version}: not compiled ({})",
                first.unwrap_or_default()
            ));
            continue;
        };
        match binary::write(&script, target, None) {
            Ok(bytes) if bytes == expected => {}
            Ok(bytes) => {
                let at = bytes
                    .iter()
                    .zip(&expected)
                    .position(|(a, b)| a != b)
                    .unwrap_or(bytes.len().min(expected.len()));
                failures.push(format!(
                    "{name} {version}: bytes differ from dgn_comp's at offset {at} ({} vs {} bytes)",
                    bytes.len(),
                    expected.len()
                ));
            }
            Err(e) => failures.push(format!("{name} {version}: {e}")),
        }
    }
    assert!(compared >= 98, "only {compared} rows compared");
    assert!(
        failures.is_empty(),
        "{} of {compared} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn compile_decompile_compile_gives_the_same_bytes() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let flags: Vec<String> = vec!["REINCARNATION".into(), "MULDGN".into()];
    let files = dgnkit_tests::corpus_files(&shared);
    assert!(files.len() >= 100, "only {} corpus files", files.len());
    // One job per target and file, on every core.
    let jobs: Vec<(Target, &PathBuf)> = Target::ALL
        .into_iter()
        .flat_map(|t| files.iter().map(move |f| (t, f)))
        .collect();
    let outcomes = dgnkit_tests::par_map(&jobs, |&(target, path)| {
        let shown = path
            .strip_prefix(&shared)
            .unwrap_or(path)
            .display()
            .to_string();
        round_trip(&shown, path, target, &flags)
    });
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for target in Target::ALL {
        let (mut compiled, mut skipped, mut unwritable) = (0, Vec::new(), 0);
        for ((t, _), outcome) in jobs.iter().zip(&outcomes) {
            if *t != target {
                continue;
            }
            match outcome {
                RoundTrip::NotCompilable(shown) => skipped.push(shown.clone()),
                RoundTrip::Unwritable => unwritable += 1,
                RoundTrip::Compiled(f) => {
                    compiled += 1;
                    failures.extend(f.iter().cloned());
                }
            }
        }
        summary.push(format!(
            "{}: {compiled} round trips, {unwritable} compiled only under a variant's limits that the layout cannot hold, {} not compilable: {:?}",
            target.name(),
            skipped.len(),
            skipped
        ));
    }
    eprintln!("{}", summary.join("\n"));
    assert!(
        failures.is_empty(),
        "{} round trips failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// What one file's round trip for one target came to.
enum RoundTrip {
    /// No dialect compiles it (its shown name).
    NotCompilable(String),
    /// Compiled only under a variant's limits that the layout cannot hold.
    Unwritable,
    /// Round-tripped, with what failed on the way.
    Compiled(Vec<String>),
}

/// compile -> binary -> read -> decompile -> format -> compile -> binary.
fn round_trip(shown: &str, path: &Path, target: Target, flags: &[String]) -> RoundTrip {
    let mut failures = Vec::new();
    let src = std::fs::read(path).expect("read corpus file");
    let Some((dialect, script)) = dgnkit_tests::compile_any(&src, target, flags) else {
        return RoundTrip::NotCompilable(shown.to_string());
    };
    let wopts = WriteOptions {
        header_from: None,
        dialect: dialect.name(),
    };
    // Variant files checked against their own dialect's limits may
    // not fit NetHack's layout (more records, variant flags): the
    // writer refuses those, and there is nothing to round-trip.
    let Ok(first) = binary::write_with(&script, target, &wopts) else {
        assert!(target.is_nethack(), "{shown}: the native writer refused");
        return RoundTrip::Unwritable;
    };
    // Decompile what the binary says, not the in-memory script.
    let read = binary::read(&first, None)
        .expect("our own output reads")
        .script;
    if read != script {
        failures.push(format!(
            "{shown} ({}): reading our output gives another script",
            target.name()
        ));
        return RoundTrip::Compiled(failures);
    }
    let text = match decompile(&read) {
        Ok(t) => t,
        Err(e) => {
            failures.push(format!("{shown} ({}): decompile: {e}", target.name()));
            return RoundTrip::Compiled(failures);
        }
    };
    // The text is already in the formatter's style.
    match dgnkit::grammar::format::format(&text, &dgnkit::grammar::ParseOptions::default()) {
        Ok(formatted) if formatted == text => {}
        Ok(_) => failures.push(format!(
            "{shown} ({}): `dgn fmt` would change the decompiled text",
            target.name()
        )),
        Err(d) => failures.push(format!(
            "{shown} ({}): `dgn fmt` refuses the decompiled text: {:?}",
            target.name(),
            d.first()
        )),
    }
    let opts = CheckOptions {
        target,
        dialect,
        ..CheckOptions::default()
    };
    // Without the layout odds, as `compile_any`: they never decide bytes.
    let again = analyze_fast(&text, &opts);
    let Some(script2) = again.script else {
        let first_err = again
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| format!("{}: {}", d.code, d.message));
        failures.push(format!(
            "{shown} ({}, {}): decompiled text does not compile: {}",
            target.name(),
            dialect.name(),
            first_err.unwrap_or_default()
        ));
        return RoundTrip::Compiled(failures);
    };
    match binary::write_with(&script2, target, &wopts) {
        Ok(second) if second == first => {}
        Ok(_) => failures.push(format!(
            "{shown} ({}): recompiled bytes differ",
            target.name()
        )),
        Err(e) => failures.push(format!("{shown} ({}): second write: {e}", target.name())),
    }
    RoundTrip::Compiled(failures)
}
