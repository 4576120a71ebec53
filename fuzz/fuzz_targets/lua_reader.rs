//! NetHack 3.7's `dungeon.lua` through dgnkit's Lua reader and every check
//! (`frontend::analyze_as` with the Lua kind), the target, dialect and lint
//! levels taken from the first two bytes; then the Lua formatter and the
//! Lua writer on what was read.
//!
//! Input: `[selector, option bits, source...]`.
//!
//! Asserted beyond "no panic": every span lies in the file; a script comes
//! out exactly when nothing is an error; formatting is idempotent and keeps
//! what the file reads to (the same diagnostics' codes and script); a
//! script written as dungeon.lua reads back to the same script.

#![no_main]

use dgnkit::frontend::{analyze_as, CheckOptions, SourceKind};
use dgnkit::grammar::{Diagnostic, Span};
use dgnkit::lint::LintLevels;
use libfuzzer_sys::fuzz_target;

fn in_bounds(span: Span, len: usize) -> bool {
    span.start <= span.end && span.end as usize <= len
}

fn spans_in_bounds(diags: &[Diagnostic], len: usize) {
    for d in diags {
        assert!(in_bounds(d.span, len), "{d:?}");
        for l in &d.labels {
            assert!(in_bounds(l.span, len), "{d:?}");
        }
        for e in d.fix.iter().flat_map(|f| &f.edits) {
            assert!(in_bounds(e.span, len), "{d:?}");
        }
    }
}

fn codes(diags: &[Diagnostic]) -> Vec<&'static str> {
    let mut c: Vec<&'static str> = diags.iter().map(|d| d.code).collect();
    c.sort_unstable();
    c
}

fuzz_target!(|data: &[u8]| {
    let [selector, bits, src @ ..] = data else {
        return;
    };
    let opts = dgnkit_fuzz::check_options(*selector, *bits);
    let analysis = analyze_as(SourceKind::Lua, src, &opts);
    spans_in_bounds(&analysis.diagnostics, src.len());
    assert_eq!(analysis.script.is_some(), !analysis.has_errors());

    // Formatting: a fixed point, and the file means the same afterwards
    // (without the layout odds, which only repeat the enumeration).
    if let Ok(once) = dgnkit::lua::format::format(src) {
        let twice = dgnkit::lua::format::format(&once);
        assert_eq!(
            twice.as_ref().ok(),
            Some(&once),
            "formatting is not idempotent:\n{}",
            String::from_utf8_lossy(&once)
        );
        let quick = CheckOptions {
            lints: opts
                .lints
                .clone()
                .allow("load-failure-odds")
                .allow("bones-marker-unused"),
            ..opts.clone()
        };
        let before = analyze_as(SourceKind::Lua, src, &quick);
        let after = analyze_as(SourceKind::Lua, &once, &quick);
        assert_eq!(after.script, before.script, "formatting changed the script");
        assert_eq!(
            codes(&after.diagnostics),
            codes(&before.diagnostics),
            "formatting changed the diagnostics:\n{}",
            String::from_utf8_lossy(&once)
        );
    }

    // What was read, written as dungeon.lua, reads back to the same script.
    let Some(script) = &analysis.script else {
        return;
    };
    // A file that draws has no dungeon.lua of its tables alone
    // (`lua_program` checks its outcomes).
    if script.prelude.is_some() {
        return;
    }
    let Ok(text) = dgnkit::lua::write::write(script) else {
        return;
    };
    let back = analyze_as(
        SourceKind::Lua,
        &text,
        &CheckOptions {
            target: opts.target,
            dialect: opts.dialect,
            lints: LintLevels::new().allow("warnings"),
            ..CheckOptions::default()
        },
    );
    spans_in_bounds(&back.diagnostics, text.len());
    if let Some(again) = back.script {
        assert_eq!(
            &again, script,
            "written dungeon.lua reads to another script"
        );
    }
});
