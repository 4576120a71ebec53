//! The diagnostic reference cannot drift from the code: `docs/diagnostics.md`
//! is generated from the code tables (`DGNKIT_BLESS=1` rewrites it), and
//! every example in the tables produces its code.

use dgnkit::check::codes;
use dgnkit::dialect::Dialect;
use dgnkit::frontend::{analyze, CheckOptions};
use dgnkit::options::Target;
use std::path::Path;

#[test]
fn docs_diagnostics_md_matches_the_code_tables() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md");
    let generated = dgnkit_cli::explain::diagnostics_markdown();
    if std::env::var("DGNKIT_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, &generated).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "docs/diagnostics.md is out of date: run `DGNKIT_BLESS=1 cargo test -p dgnkit-cli --test commands check_docs`"
    );
    for c in codes::all() {
        assert!(
            on_disk.contains(&format!("## {}", c.code)),
            "{} is not documented",
            c.code
        );
    }
}

#[test]
fn every_example_produces_its_code() {
    let mut failures = Vec::new();
    // The grammar's table has its own tests; some of its codes (the formatter's)
    // are not produced by checking at all.
    for c in codes::CODES.iter().filter(|c| !c.example.is_empty()) {
        // Most examples are vanilla; some need their dialect or target.
        let produced = Target::ALL.iter().any(|&target| {
            Dialect::ALL.iter().any(|&dialect| {
                let a = analyze(
                    c.example.as_bytes(),
                    &CheckOptions {
                        target,
                        dialect,
                        ..CheckOptions::default()
                    },
                );
                a.diagnostics.iter().any(|d| d.code == c.code)
            })
        });
        if !produced {
            failures.push(c.code);
        }
    }
    assert!(
        failures.is_empty(),
        "examples that do not produce their code: {failures:?}"
    );
}

#[test]
fn vanilla_examples_need_no_options() {
    // The default options reproduce every example but the dialect-specific ones.
    let special = [codes::BAD_TILESET, codes::ENTRY_OBSOLETE];
    for c in codes::CODES
        .iter()
        .filter(|c| !c.example.is_empty() && !special.contains(&c.code))
    {
        let a = analyze(c.example.as_bytes(), &CheckOptions::default());
        assert!(
            a.diagnostics.iter().any(|d| d.code == c.code),
            "{}: {:?}",
            c.code,
            a.diagnostics
        );
    }
}

#[test]
fn explain_knows_every_code_and_lint() {
    for c in codes::all() {
        let text = dgnkit_cli::explain::explain_text(&c);
        assert!(text.starts_with(c.code), "{text}");
        if let Some(l) = c.lint {
            assert_eq!(codes::lint_code(l).map(|x| x.code), Some(c.code));
            assert!(text.contains(&format!("--deny {l}")));
        }
    }
    assert_eq!(codes::lookup("e0406").map(|c| c.code), Some("E0406"));
    assert!(codes::lookup("E9999").is_none());
}
