//! `dgn check` on every real file of `shared/corpus`:
//!
//! - vanilla dialect with `--deny compat`: errors exactly for the files
//!   NetHack's own dgn_comp rejected (`shared/expected/compile-results.tsv`),
//!   for both NetHack 3.4.3 and 3.6, and an error of the same kind on the
//!   line dgn_comp named first;
//! - vanilla dialect with default lint levels: the same, except files that
//!   dgn_comp rejects only for constructs dgnkit accepts with a `compat-*`
//!   warning;
//! - each file's own dialect: no errors at all, for every target.

use dgnkit::dialect::Dialect;
use dgnkit::frontend::{analyze, analyze_errors, analyze_verdict, Analysis, CheckOptions};
use dgnkit::lint::LintLevels;
use dgnkit::options::Target;
use dgnkit::render::LineIndex;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The dialect of a corpus folder, from its name and MANIFEST lineage.
fn dialect_of(dir: &str, lineage: &str) -> Dialect {
    let base = dir.split('@').next().unwrap_or(dir);
    let version = dir.split('@').nth(1).unwrap_or("");
    if matches!(version, "3.1.0" | "3.1.1" | "3.2.0") {
        return Dialect::Vanilla31;
    }
    match base {
        "SLASHEM-Extended__SLASHEM-Extended" | "nethack-cleaner__slashem-max" => {
            return Dialect::SlashemExtended
        }
        "tanguband__jslash" => return Dialect::Slash,
        "Chris-plus-alphanumericgibberish__dnethack" => return Dialect::DNetHack,
        "k21971__EvilHack" => return Dialect::EvilHack,
        "elunna__hackem" => return Dialect::HackEm,
        "NullCGT__SpliceHack" | "msearle5__slicehack" => return Dialect::SpliceHack,
        "yzh__yzhack" => return Dialect::YzHack,
        _ => {}
    }
    let family = lineage.split_whitespace().next().unwrap_or("");
    match family {
        // dNAO and its descendants repeat dungeon names (alternates).
        "dnethack" | "dnethack+slashem" => Dialect::Dnao,
        "slashem" => Dialect::Slashem,
        "gnollhack" => Dialect::GnollHack,
        "unnethack" => Dialect::UnNetHack,
        "nethack4" => Dialect::NetHack4,
        _ => Dialect::Vanilla,
    }
}

struct CorpusFile {
    dir: String,
    path: PathBuf,
    lineage: String,
}

fn corpus(shared: &Path) -> Vec<CorpusFile> {
    let manifest = std::fs::read_to_string(shared.join("corpus/MANIFEST.tsv")).unwrap();
    let mut lineage: BTreeMap<String, String> = BTreeMap::new();
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        lineage
            .entry(cols[0].to_string())
            .or_insert_with(|| cols[6].to_string());
    }
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(shared.join("corpus"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .collect();
    dirs.sort_by_key(|e| e.file_name());
    for e in dirs {
        let dir = e.file_name().to_string_lossy().into_owned();
        for name in ["dungeon.def", "dungeon.pdf"] {
            let path = e.path().join(name);
            if path.is_file() {
                let lin = lineage
                    .get(&dir)
                    .cloned()
                    .unwrap_or_else(|| panic!("{dir} is not in MANIFEST.tsv"));
                out.push(CorpusFile {
                    dir: dir.clone(),
                    path,
                    lineage: lin,
                });
            }
        }
    }
    out
}

fn check(src: &[u8], target: Target, dialect: Dialect, lints: LintLevels) -> Analysis {
    analyze(
        src,
        &CheckOptions {
            target,
            dialect,
            lints,
            ..CheckOptions::default()
        },
    )
}

/// dgn_comp's verdicts: (folder, version) -> (accepted, first stderr line).
fn verdicts(shared: &Path) -> BTreeMap<(String, String), (bool, String)> {
    let tsv = std::fs::read_to_string(shared.join("expected/compile-results.tsv")).unwrap();
    tsv.lines()
        .skip(1)
        .map(|row| {
            let c: Vec<&str> = row.split('\t').collect();
            (
                (c[0].to_string(), c[1].to_string()),
                (c[2] == "0", c.get(5).unwrap_or(&"").to_string()),
            )
        })
        .collect()
}

/// The source line of line `n` of makedefs' output (which starts with a
/// header line and drops comment lines).
fn source_line_of_pdf_line(src: &[u8], n: usize) -> Option<usize> {
    let kept: Vec<usize> = src
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.starts_with(b"#"))
        .map(|(i, _)| i + 1)
        .collect();
    kept.get(n.checked_sub(2)?).copied()
}

/// Checks that our diagnostics contain an error of the kind dgn_comp
/// reported first, on its line (dgn_comp may report one line late).
fn same_first_error(src: &[u8], analysis: &Analysis, stderr: &str) -> Result<(), String> {
    let Some(rest) = stderr.strip_prefix("d.pdf : line ") else {
        return Err(format!("unexpected stderr {stderr:?}"));
    };
    let (num, msg) = rest.split_once(" : ").ok_or("no message")?;
    let pdf_line: usize = num.parse().map_err(|_| "bad line")?;
    let codes: &[&str] = if msg.starts_with("Rel base") || msg.starts_with("Abs base") {
        &["E0401"]
    } else if msg.starts_with("Abs range") {
        &["E0402", "E0403"]
    } else if msg.contains("Too many special levels") {
        // dgn_comp stops one level late (it takes 51); any line.
        return if analysis.diagnostics.iter().any(|d| d.code == "E0802") {
            Ok(())
        } else {
            Err("no E0802".into())
        };
    } else {
        &[]
    };
    let index = LineIndex::new(src);
    let lines: Vec<usize> = [pdf_line, pdf_line - 1]
        .iter()
        .filter_map(|&n| source_line_of_pdf_line(src, n))
        .collect();
    let hit = analysis
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .any(|d| {
            (codes.is_empty() || codes.contains(&d.code))
                && lines.contains(&(index.line_col(d.span.start).line as usize))
        });
    if hit {
        Ok(())
    } else {
        Err(format!(
            "dgn_comp: {stderr:?} (source lines {lines:?}); ours: {:?}",
            errors(analysis)
        ))
    }
}

fn errors(a: &Analysis) -> Vec<String> {
    a.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .take(6)
        .map(|d| format!("{} {}", d.code, d.message))
        .collect()
}

#[test]
fn vanilla_with_deny_compat_rejects_exactly_what_dgn_comp_rejects() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let verdicts = verdicts(&shared);
    let mut failures = Vec::new();
    let mut compared = 0;
    for f in corpus(&shared)
        .iter()
        .filter(|f| f.path.ends_with("dungeon.def"))
    {
        let src = std::fs::read(&f.path).unwrap();
        for (version, target) in [("3.4.3", Target::NetHack343), ("3.6", Target::NetHack36)] {
            let Some((accepted, stderr)) = verdicts.get(&(f.dir.clone(), version.to_string()))
            else {
                continue;
            };
            compared += 1;
            let a = check(
                &src,
                target,
                Dialect::Vanilla,
                LintLevels::new().deny("compat"),
            );
            if a.has_errors() == *accepted {
                failures.push(format!(
                    "{} ({version}): dgn_comp accepted={accepted}, dgnkit errors: {:?}",
                    f.dir,
                    errors(&a)
                ));
            } else if !accepted {
                if let Err(e) = same_first_error(&src, &a, stderr) {
                    failures.push(format!("{} ({version}): {e}", f.dir));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 200, "only {compared} verdicts compared");
}

#[test]
fn vanilla_differs_from_dgn_comp_only_by_compat_warnings() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let verdicts = verdicts(&shared);
    let mut failures = Vec::new();
    let mut compat_only = 0;
    for f in corpus(&shared)
        .iter()
        .filter(|f| f.path.ends_with("dungeon.def"))
    {
        let src = std::fs::read(&f.path).unwrap();
        for (version, target) in [("3.4.3", Target::NetHack343), ("3.6", Target::NetHack36)] {
            let Some((accepted, _)) = verdicts.get(&(f.dir.clone(), version.to_string())) else {
                continue;
            };
            let a = check(&src, target, Dialect::Vanilla, LintLevels::new());
            if a.has_errors() == *accepted {
                // Only allowed when every reason dgn_comp had is a compat lint.
                let denied = check(
                    &src,
                    target,
                    Dialect::Vanilla,
                    LintLevels::new().deny("compat"),
                );
                let all_compat = denied
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .all(|d| d.lint.is_some_and(|l| l.starts_with("compat-")));
                if *accepted || !all_compat {
                    failures.push(format!(
                        "{} ({version}): accepted={accepted}, errors {:?}",
                        f.dir,
                        errors(&a)
                    ));
                } else {
                    compat_only += 1;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // NetGuac's LEVEL lines without bones markers are the corpus's only case.
    assert!(
        compat_only <= 2,
        "{compat_only} verdicts differ only by compat lints"
    );
}

#[test]
fn every_corpus_file_checks_clean_in_its_own_dialect() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let mut failures = Vec::new();
    let files = corpus(&shared);
    for f in &files {
        let src = std::fs::read(&f.path).unwrap();
        let dialect = dialect_of(&f.dir, &f.lineage);
        for target in Target::ALL {
            let a = check(&src, target, dialect, LintLevels::new());
            if a.has_errors() {
                failures.push(format!(
                    "{} ({}, {}): {:?}",
                    f.path.display(),
                    dialect.name(),
                    target.name(),
                    errors(&a)
                ));
            } else if a.script.is_none() {
                failures.push(format!("{}: no script without errors", f.path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(files.len() >= 120, "only {} corpus files", files.len());
}

#[test]
fn files_dgn_comp_rejects_for_variant_syntax_get_a_dialect_suggestion() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let mut failures = Vec::new();
    for f in corpus(&shared) {
        let dialect = dialect_of(&f.dir, &f.lineage);
        if dialect == Dialect::Vanilla {
            continue;
        }
        let src = std::fs::read(&f.path).unwrap();
        let a = check(&src, Target::NetHack36, Dialect::Vanilla, LintLevels::new());
        if !a.has_errors() {
            continue;
        }
        let suggested: Vec<&str> = a
            .diagnostics
            .iter()
            .filter(|d| d.code == "N0001")
            .map(|d| d.message.as_str())
            .collect();
        let Some(msg) = suggested.first() else {
            failures.push(format!(
                "{}: errors but no dialect suggestion: {:?}",
                f.path.display(),
                errors(&a)
            ));
            continue;
        };
        // The suggested dialect must at least reduce the errors (checked by
        // construction) and, for the syntax extensions, be the file's own.
        let own_syntax = matches!(
            dialect,
            Dialect::Slashem | Dialect::SlashemExtended | Dialect::GnollHack | Dialect::EvilHack
        );
        // A game dgnkit lays out is suggested as its `--target`.
        let named = match dgnkit::games::detect::target_of(dialect) {
            Some(t) => format!("--target {}", t.name()),
            None => format!("--dialect {}", dialect.name()),
        };
        if own_syntax && !msg.contains(&named) {
            failures.push(format!(
                "{}: suggested {msg:?}, its dialect is {}",
                f.path.display(),
                dialect.name()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn jnethack_non_utf8_file_checks_and_renders() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let path = shared.join("corpus/jnethack__jnethack-alpha/dungeon.def");
    let src = std::fs::read(&path).unwrap();
    assert!(
        std::str::from_utf8(&src).is_err(),
        "the file is expected not to be UTF-8"
    );
    let a = check(&src, Target::NetHack36, Dialect::Vanilla, LintLevels::new());
    assert!(!a.has_errors(), "{:?}", errors(&a));
    // Its dungeon names are translated, so the hard-wired names are missing;
    // the message shows the names without garbling.
    let w = a
        .diagnostics
        .iter()
        .find(|d| d.code == "W1002")
        .expect("missing hard-wired dungeons");
    assert!(w.message.contains("\"The Quest\""));
    let human = dgnkit::render::human("jnethack.def", &src, &a.diagnostics, false);
    assert!(human.contains("W1002"));
    let json = dgnkit::render::json(vec![dgnkit::render::json_file(
        "jnethack.def",
        &src,
        &a.diagnostics,
    )]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["files"][0]["diagnostics"][0]["code"], "W1002");
    // Names keep their bytes through lowering.
    let script = a.script.unwrap();
    assert!(script
        .dungeons
        .iter()
        .any(|d| d.name.iter().any(|&b| b >= 0x80)));
}

/// The drop-in dgn_comp's analysis (`analyze_errors`: only the checks that
/// can report errors) gives the same errors, in the same order, and the same
/// script as the full verdict, on every real file in the vanilla dialect and
/// in its own, for every target, and on every file of the repository's
/// `corpus/` (errors of every kind), so that skipping the warning-only
/// checks can change neither its messages nor its output.
#[test]
fn the_errors_only_analysis_has_the_verdicts_errors_and_script() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let mut inputs: Vec<(String, Vec<u8>, Vec<Dialect>)> = corpus(&shared)
        .iter()
        .map(|f| {
            let own = dialect_of(&f.dir, &f.lineage);
            let src = std::fs::read(&f.path).unwrap();
            (
                f.path.display().to_string(),
                src,
                vec![Dialect::Vanilla, own],
            )
        })
        .collect();
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    for e in std::fs::read_dir(&local).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "def") {
            let src = std::fs::read(e.path()).unwrap();
            inputs.push((e.path().display().to_string(), src, vec![Dialect::Vanilla]));
        }
    }
    let mut failures = Vec::new();
    let mut with_errors = 0;
    for (name, src, dialects) in &inputs {
        for &dialect in dialects {
            for target in Target::ALL {
                let opts = CheckOptions {
                    target,
                    dialect,
                    ..CheckOptions::default()
                };
                let full = analyze_verdict(src, &opts);
                let fast = analyze_errors(src, &opts);
                let errs = |a: &Analysis| -> Vec<_> {
                    a.diagnostics
                        .iter()
                        .filter(|d| d.is_error())
                        .cloned()
                        .collect()
                };
                if errs(&full) != errs(&fast) || full.script != fast.script {
                    failures.push(format!("{name} ({}, {})", dialect.name(), target.name()));
                }
                with_errors += usize::from(full.has_errors());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        with_errors >= 100,
        "only {with_errors} analyses with errors"
    );
}
