//! A `dungeon.lua` that is a program, run in dgnkit's Lua sandbox
//! (`lua::program::evaluate`) and through the whole analysis. The input is
//! the file's text after one selector byte that picks the target.
//!
//! Asserted beyond "no panic" (and beyond libFuzzer's time and memory
//! limits, which the sandbox's own bounds keep far below): every span lies
//! in the file; a run that fails leaves no outcome and says why; the
//! outcomes' chances add up to one, none of them draws again, and the
//! analysis's script carries exactly the distinct outcomes.

#![no_main]

use dgnkit::frontend::{analyze_as, SourceKind};
use dgnkit::grammar::Span;
use libfuzzer_sys::fuzz_target;

fn in_bounds(span: Span, len: usize) -> bool {
    span.start <= span.end && span.end as usize <= len
}

fuzz_target!(|data: &[u8]| {
    let [selector, src @ ..] = data else {
        return;
    };
    let parsed = dgnkit::lua::syntax::parse(src);
    let program = dgnkit::lua::program::evaluate(src, &parsed);
    for d in &program.diagnostics {
        assert!(in_bounds(d.span, src.len()), "{d:?}");
    }
    if program.outcomes.is_empty() {
        assert!(program.diagnostics.iter().any(|d| d.is_error()));
    }
    for o in &program.outcomes {
        for d in &o.diagnostics {
            assert!(in_bounds(d.span, src.len()), "{d:?}");
        }
    }
    let opts = dgnkit_fuzz::check_options(*selector, 0);
    let analysis = analyze_as(SourceKind::Lua, src, &opts);
    for d in &analysis.diagnostics {
        assert!(in_bounds(d.span, src.len()), "{d:?}");
    }
    assert_eq!(analysis.script.is_some(), !analysis.has_errors());
    if let Some(p) = analysis.script.as_ref().and_then(|s| s.prelude.as_ref()) {
        let total: f64 = p.chances().iter().sum();
        assert!((total - 1.0).abs() < 1e-9, "chances add up to {total}");
        assert!(p.outcomes.iter().all(|o| o.prelude.is_none()));
        for (i, a) in p.outcomes.iter().enumerate() {
            assert!(p.outcomes[i + 1..].iter().all(|b| b != a), "outcome {i} twice");
        }
    }
});
