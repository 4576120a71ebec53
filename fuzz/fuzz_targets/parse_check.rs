//! Lexer, preprocessor, parser and every check (`frontend::analyze`), with
//! the target, dialect, `%FLAG` options and lint levels taken from the first
//! two bytes; then the printer and the formatter on the tree, and the
//! decompiler on the lowered script.
//!
//! Input: `[selector, option bits, source...]`.

#![no_main]

use dgnkit::binary::{self, WriteOptions};
use dgnkit::decompile::decompile;
use dgnkit::frontend::{analyze, CheckOptions};
use dgnkit::grammar::format::format;
use dgnkit::grammar::{parse, printer, Diagnostic, ParseOptions, Span};
use libfuzzer_sys::fuzz_target;

fn in_bounds(span: Span, len: usize) -> bool {
    span.start <= span.end && span.end as usize <= len
}

fn is_syntax_error(d: &Diagnostic) -> bool {
    d.is_error() && d.code.starts_with("E01")
}

fuzz_target!(|data: &[u8]| {
    let [selector, bits, src @ ..] = data else {
        return;
    };
    let opts = dgnkit_fuzz::check_options(*selector, *bits);
    let analysis = analyze(src, &opts);

    for d in &analysis.diagnostics {
        assert!(in_bounds(d.span, src.len()), "{d:?}");
        for l in &d.labels {
            assert!(in_bounds(l.span, src.len()), "{d:?}");
        }
        for e in d.fix.iter().flat_map(|f| &f.edits) {
            assert!(in_bounds(e.span, src.len()), "{d:?}");
        }
    }
    assert_eq!(analysis.script.is_some(), !analysis.has_errors());

    // The printer re-parses to the same tree (compared through the printer,
    // which ignores spans).
    // The `%FLAG` options analyze used (the target's default build's
    // undefined flags included).
    let parse_opts = dgnkit::frontend::parse_options(&opts);
    let printed = printer::print(&analysis.file);
    if !analysis.diagnostics.iter().any(is_syntax_error) {
        let again = parse(&printed, &ParseOptions::default());
        let errors: Vec<_> = again.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(
            errors.is_empty(),
            "printed text does not parse: {errors:?}\n{}",
            String::from_utf8_lossy(&printed)
        );
        assert_eq!(
            printer::print(&again.file),
            printed,
            "printed text parses to another tree"
        );
    }

    // Formatting is idempotent and keeps the statements.
    if let Ok(once) = format(src, &parse_opts) {
        let twice = format(&once, &parse_opts);
        assert_eq!(
            twice.as_ref().ok(),
            Some(&once),
            "formatting is not idempotent:\n{}",
            String::from_utf8_lossy(&once)
        );
        let after = parse(&once, &parse_opts);
        assert_eq!(
            printer::print(&after.file),
            printed,
            "formatting changed the statements"
        );
    }

    // A compiled file decompiles to text that compiles to the same bytes
    // (the contract tests/tests/end_to_end/binary_compile.rs checks on the corpus).
    let Some(script) = &analysis.script else {
        return;
    };
    let wopts = WriteOptions {
        header_from: None,
        dialect: opts.dialect.name(),
    };
    let Ok(first) = binary::write_with(script, opts.target, &wopts) else {
        return;
    };
    let read = binary::read(&first, None).expect("our own output reads");
    assert_eq!(
        &read.script, script,
        "reading our output gives another script"
    );
    let Ok(text) = decompile(&read.script) else {
        return;
    };
    let again = analyze(
        &text,
        &CheckOptions {
            target: opts.target,
            dialect: opts.dialect,
            ..CheckOptions::default()
        },
    );
    let Some(script2) = again.script else {
        panic!(
            "decompiled text does not compile: {:?}\n{}",
            again.diagnostics.iter().find(|d| d.is_error()),
            String::from_utf8_lossy(&text)
        );
    };
    let second = binary::write_with(&script2, opts.target, &wopts).expect("second write");
    assert_eq!(second, first, "recompiled bytes differ");
});
