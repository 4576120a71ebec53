//! `dgn fmt` on every real source: formatting never changes what the file
//! compiles to (for each target, in the first dialect that compiles it,
//! with and without the `%FLAG` options), and formatting twice changes
//! nothing; every description dgnkit ships is as `dgn fmt` writes it. The
//! command line is tested in `cli/tests/commands/fmt_cli.rs`.

use dgnkit::binary::{self, WriteOptions};
use dgnkit::dialect::Dialect;
use dgnkit::frontend::{analyze_fast, CheckOptions, SourceKind};
use dgnkit::options::Target;
use dgnkit_grammar::format::format;
use dgnkit_grammar::ParseOptions;
use std::path::Path;

/// The compiled bytes in the first dialect (vanilla first) that compiles
/// the text for `target`, or the error codes of vanilla when none does.
fn compiled(src: &[u8], target: Target, flags: &ParseOptions) -> Result<Vec<u8>, Vec<String>> {
    let dialects = std::iter::once(Dialect::Vanilla)
        .chain(Dialect::ALL.into_iter().filter(|d| *d != Dialect::Vanilla));
    let mut vanilla_errors = None;
    for dialect in dialects {
        let opts = CheckOptions {
            target,
            dialect,
            defines: flags.defines.clone(),
            undefines: flags.undefines.clone(),
            ..CheckOptions::default()
        };
        // The layout odds give warnings only: not what decides the bytes.
        let a = analyze_fast(src, &opts);
        if let Some(script) = &a.script {
            let w = WriteOptions {
                header_from: None,
                dialect: dialect.name(),
            };
            if let Ok(bytes) = binary::write_with(script, target, &w) {
                return Ok(bytes);
            }
        }
        vanilla_errors.get_or_insert_with(|| {
            a.diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.code.to_string())
                .collect::<Vec<_>>()
        });
    }
    Err(vanilla_errors.unwrap_or_default())
}

#[test]
fn formatting_never_changes_the_compiled_bytes() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let files = dgnkit_tests::corpus_files(&shared);
    assert!(files.len() >= 100, "only {} corpus files", files.len());
    let option_sets = [
        ParseOptions {
            defines: vec!["REINCARNATION".into(), "MULDGN".into()],
            undefines: vec![],
        },
        ParseOptions {
            defines: vec![],
            undefines: vec!["REINCARNATION".into(), "MULDGN".into()],
        },
    ];
    let per_file = dgnkit_tests::par_map(&files, |path| {
        let shown = path
            .strip_prefix(&shared)
            .unwrap_or(path)
            .display()
            .to_string();
        let src = std::fs::read(path).expect("read");
        let (mut compared, mut failures) = (0, Vec::new());
        for flags in &option_sets {
            let formatted = match format(&src, flags) {
                Ok(f) => f,
                // Syntax errors: not formatted, nothing to compare.
                Err(_) => continue,
            };
            match format(&formatted, flags) {
                Ok(again) if again == formatted => {}
                _ => failures.push(format!("{shown}: formatting twice changes the text")),
            }
            for target in Target::ALL {
                compared += 1;
                let before = compiled(&src, target, flags);
                let after = compiled(&formatted, target, flags);
                if before != after {
                    failures.push(format!(
                        "{shown} ({}, {:?}): compiled output changed by formatting",
                        target.name(),
                        flags.defines
                    ));
                }
            }
        }
        (compared, failures)
    });
    let compared: usize = per_file.iter().map(|(n, _)| n).sum();
    let failures: Vec<String> = per_file.into_iter().flat_map(|(_, f)| f).collect();
    assert!(compared >= 600, "only {compared} comparisons");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every description dgnkit ships (each release's built-in, which `dgn
/// layout`, `stats` and the page use for its target, and `dgn layout`'s
/// default) is as `dgn fmt` writes it: the page's Format changes nothing
/// in a sample it has not touched.
#[test]
fn every_built_in_description_is_as_dgn_fmt_writes_it() {
    let mut builtins: Vec<(&str, &[u8])> = dgnkit::xlog::release::RELEASES
        .iter()
        .filter_map(|r| r.builtin.as_ref())
        .map(|b| (b.file, b.source))
        .collect();
    builtins.extend(Target::ALL.map(dgnkit_cli::layout::built_in));
    builtins.push((
        dgnkit_cli::layout::DEFAULT_NAME,
        dgnkit_cli::layout::DEFAULT_DEF,
    ));
    builtins.sort();
    builtins.dedup();
    assert!(builtins.len() >= 25, "only {} built-ins", builtins.len());
    let mut lua = 0;
    let mut unformatted = Vec::new();
    for (name, src) in &builtins {
        // `dgn fmt` tells the kind by the file's name.
        let file = name.trim_end_matches(" (built in)");
        let formatted = match SourceKind::of_file(Path::new(file), src) {
            SourceKind::Lua => {
                lua += 1;
                dgnkit::lua::format::format(src)
            }
            SourceKind::Def => format(src, &ParseOptions::default()),
        };
        match formatted {
            Ok(out) if out == *src => {}
            Ok(out) => {
                let changed = String::from_utf8_lossy(src)
                    .lines()
                    .zip(String::from_utf8_lossy(&out).lines())
                    .filter(|(a, b)| a != b)
                    .count();
                unformatted.push(format!("{name}: dgn fmt rewrites {changed} lines"));
            }
            Err(e) => unformatted.push(format!("{name}: not formatted: {e:?}")),
        }
    }
    assert!(lua >= 5, "only {lua} dungeon.lua built-ins");
    assert!(unformatted.is_empty(), "{}", unformatted.join("\n"));
}
