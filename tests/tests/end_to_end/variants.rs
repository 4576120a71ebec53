//! Every variant family in `../shared/expected/variants/<family>/`, each
//! against what the family's own C programs produced: a directory name
//! dgnkit does not know as a `--target` is a failure; the family's own
//! `dungeon.def` (the corpus file its README names) compiles to its
//! `dungeon.bin` byte for byte; that file is detected as the family's,
//! reads back and writes the same bytes, also through the native format.
//! A family whose loader is not proven must refuse to lay out (the proven
//! ones are compared line by line in `variants_parity`).

use dgnkit::binary::{self, BinaryFormat};
use dgnkit::frontend::{analyze_verdict, CheckOptions};
use dgnkit::loader::LoadError;
use dgnkit::options::Target;
use dgnkit_tests::variants::{families, family_source, Family};

fn compile(fam: &Family) -> Result<Vec<u8>, String> {
    let (path, src) = family_source(fam)?;
    let game = fam.target.game();
    let opts = CheckOptions {
        target: fam.target,
        dialect: game.dialect,
        ..CheckOptions::default()
    };
    let analysis = analyze_verdict(&src, &opts);
    let script = analysis.script.ok_or_else(|| {
        format!(
            "{}: {} does not compile: {:?}",
            fam.dir,
            path.display(),
            analysis
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
        )
    })?;
    binary::write(&script, fam.target, None).map_err(|e| format!("{}: {e}", fam.dir))
}

#[test]
fn every_family_is_a_known_target() {
    let Some(fams) = families() else { return };
    let unknown: Vec<String> = fams.iter().filter_map(|f| f.unknown.clone()).collect();
    assert!(unknown.is_empty(), "{}", unknown.join("\n"));
}

#[test]
fn every_family_compiles_to_its_own_dgn_comp_bytes() {
    let Some(fams) = families() else { return };
    let mut failures = Vec::new();
    // A game that reads dungeon.lua (NetHack 3.7's forks) has no dgn_comp.
    for fam in fams
        .iter()
        .filter(|f| f.unknown.is_none() && f.target.game().binary.is_some())
    {
        let want = match std::fs::read(fam.path.join("dungeon.bin")) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: dungeon.bin: {e}", fam.dir));
                continue;
            }
        };
        match compile(fam) {
            Err(e) => failures.push(e),
            Ok(got) if got != want => {
                let at = got.iter().zip(&want).position(|(a, b)| a != b);
                failures.push(format!(
                    "{}: compiled bytes differ from its dgn_comp's at offset {:?} ({} vs {} bytes)",
                    fam.dir,
                    at,
                    got.len(),
                    want.len()
                ));
            }
            Ok(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_family_binary_is_detected_read_and_written_back() {
    let Some(fams) = families() else { return };
    let mut failures = Vec::new();
    for fam in fams
        .iter()
        .filter(|f| f.unknown.is_none() && f.target.game().binary.is_some())
    {
        let Ok(bytes) = std::fs::read(fam.path.join("dungeon.bin")) else {
            failures.push(format!("{}: no dungeon.bin", fam.dir));
            continue;
        };
        let want = fam.target.game().binary;
        let found = binary::detect(&bytes).ok();
        if found != want {
            failures.push(format!(
                "{}: detected as {found:?}, expected {want:?}",
                fam.dir
            ));
            continue;
        }
        let read = match binary::read(&bytes, None) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{}: {e}", fam.dir));
                continue;
            }
        };
        if binary::check(&bytes, None) != Ok(read.format) {
            failures.push(format!("{}: check disagrees with read", fam.dir));
        }
        let again = binary::write(&read.script, fam.target, Some(&bytes));
        if again.as_deref() != Ok(&bytes[..]) {
            failures.push(format!("{}: the script read writes other bytes", fam.dir));
        }
        // Through the native format and back.
        let native = binary::write_with(
            &read.script,
            Target::Native,
            &binary::WriteOptions {
                header_from: None,
                dialect: fam.target.game().dialect.name(),
            },
        );
        match native.map(|n| binary::read(&n, None)) {
            Ok(Ok(back)) if back.format == BinaryFormat::Native && back.script == read.script => {
                if binary::write(&back.script, fam.target, Some(&bytes)).as_deref()
                    != Ok(&bytes[..])
                {
                    failures.push(format!("{}: native round trip writes other bytes", fam.dir));
                }
            }
            other => failures.push(format!("{}: native round trip: {other:?}", fam.dir)),
        }
        // The source's script and the file's are the same script.
        if let Ok((_, src)) = family_source(fam) {
            let opts = CheckOptions {
                target: fam.target,
                dialect: fam.target.game().dialect,
                ..CheckOptions::default()
            };
            if let Some(script) = analyze_verdict(&src, &opts).script {
                if script != read.script {
                    failures.push(format!(
                        "{}: the source and the file read as different scripts",
                        fam.dir
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_family_whose_loader_is_not_proven_refuses_to_lay_out() {
    // The proven ones are compared line by line in `variants_parity`.
    let Some(fams) = families() else { return };
    let mut failures = Vec::new();
    for fam in fams.iter().filter(|f| f.unknown.is_none()) {
        if fam.target.game().loader_proven() {
            continue;
        }
        // Its compiled file, else its own source's script, else none at
        // all: the refusal comes before the file is looked at.
        let script = std::fs::read(fam.path.join("dungeon.bin"))
            .ok()
            .and_then(|bytes| binary::read(&bytes, None).ok())
            .map(|read| read.script)
            .or_else(|| {
                let (_, src) = family_source(fam).ok()?;
                let opts = CheckOptions {
                    target: fam.target,
                    dialect: fam.target.game().dialect,
                    ..CheckOptions::default()
                };
                analyze_verdict(&src, &opts).script
            })
            .unwrap_or_default();
        match fam.target.game().resolver(&script) {
            Err(LoadError::NotReproduced { .. }) => {}
            other => failures.push(format!(
                "{}: not proven, yet the loader answers: {:?}",
                fam.dir,
                other.map(|_| ())
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
