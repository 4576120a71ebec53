//! Data-driven tests over our own `corpus/*.def`: each file states in its
//! header comments the options to check it with and every diagnostic it must
//! produce, and nothing else may be produced:
//!
//! ```text
//! # options: --dialect slashem --target native --deny compat
//! # expect: E0406 5:24
//! # expect: W0302 9:31
//! # expect: none
//! ```
//!
//! Positions are 1-based `line:column` of the diagnostic's primary span.
//! The human rendering of every file is also snapshot-tested with insta, so
//! wording changes are reviewed. (`corpus/nethack-3.6.def` is the loader's
//! reference file, not one of these.)

use dgnkit::dialect::Dialect;
use dgnkit::frontend::{analyze, CheckOptions};
use dgnkit::lint::LintLevels;
use dgnkit::options::Target;
use dgnkit::render::{self, LineIndex};
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// Files that belong to other tests.
const NOT_OURS: [&str; 2] = ["nethack-3.6.def", "nethack-3.7.lua"];

struct Case {
    opts: CheckOptions,
    expected: Vec<String>,
}

fn parse_header(name: &str, src: &[u8]) -> Case {
    let text = String::from_utf8_lossy(src);
    let mut opts = CheckOptions::default();
    let mut lints = LintLevels::new();
    let mut expected = Vec::new();
    let mut declared = false;
    for line in text.lines() {
        // A dungeon.lua states its expectations in Lua comments.
        let line = match line.strip_prefix("--") {
            Some(rest) => format!("#{rest}"),
            None => line.to_string(),
        };
        let line = line.as_str();
        if let Some(rest) = line.strip_prefix("# options:") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let mut i = 0;
            while i < words.len() {
                let value = words
                    .get(i + 1)
                    .copied()
                    .unwrap_or_else(|| panic!("{name}: `{}` needs a value", words[i]));
                match words[i] {
                    "--target" => {
                        opts.target =
                            Target::parse(value).unwrap_or_else(|| panic!("{name}: bad target"))
                    }
                    "--dialect" => {
                        opts.dialect =
                            Dialect::parse(value).unwrap_or_else(|| panic!("{name}: bad dialect"))
                    }
                    "-D" => opts.defines.push(value.to_string()),
                    "-U" => opts.undefines.push(value.to_string()),
                    "--allow" => lints = lints.allow(value),
                    "--warn" => lints = lints.warn(value),
                    "--deny" => lints = lints.deny(value),
                    other => panic!("{name}: unknown option {other}"),
                }
                i += 2;
            }
        } else if let Some(rest) = line.strip_prefix("# expect:") {
            declared = true;
            let rest = rest.trim();
            if rest != "none" {
                expected.push(rest.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        }
    }
    assert!(
        declared,
        "{name}: no `# expect:` line (write `# expect: none` for a clean file)"
    );
    assert!(
        lints.unknown_names().is_empty(),
        "{name}: unknown lint names {:?}",
        lints.unknown_names()
    );
    opts.lints = lints;
    Case { opts, expected }
}

fn cases() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(corpus_dir())
        .expect("corpus/ exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "def" || e == "lua"))
        .filter(|p| !NOT_OURS.iter().any(|n| p.ends_with(n)))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_file_produces_exactly_its_expected_diagnostics() {
    let mut failures = Vec::new();
    let files = cases();
    assert!(files.len() >= 40, "only {} corpus files", files.len());
    for (name, src) in &files {
        let case = parse_header(name, src);
        let analysis = analyze(src, &case.opts);
        let index = LineIndex::new(src);
        let mut actual: Vec<String> = analysis
            .diagnostics
            .iter()
            .map(|d| {
                let at = index.line_col(d.span.start);
                format!("{} {}:{}", d.code, at.line, at.column)
            })
            .collect();
        let mut expected = case.expected.clone();
        actual.sort();
        expected.sort();
        if actual != expected {
            failures.push(format!(
                "{name}:\n  expected {expected:?}\n  actual   {actual:?}\n{}",
                render::short(name, src, &analysis.diagnostics)
            ));
        }
        // A file is output exactly when it has no errors.
        assert_eq!(analysis.script.is_some(), !analysis.has_errors(), "{name}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_corpus_file_renders_as_reviewed() {
    for (name, src) in cases() {
        let case = parse_header(&name, &src);
        let analysis = analyze(&src, &case.opts);
        let text = render::human(&name, &src, &analysis.diagnostics, false);
        insta::assert_snapshot!(name.trim_end_matches(".def").to_string(), text);
    }
}

#[test]
fn every_check_code_is_exercised_by_the_corpus() {
    let mut seen = std::collections::BTreeSet::new();
    for (name, src) in cases() {
        for e in parse_header(&name, &src).expected {
            seen.insert(e.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    let missing: Vec<&str> = dgnkit::check::codes::CODES
        .iter()
        .map(|c| c.code)
        .filter(|c| !seen.contains(*c))
        .collect();
    assert!(
        missing.is_empty(),
        "codes no corpus file expects: {missing:?}"
    );
}
