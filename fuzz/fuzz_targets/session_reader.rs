//! `dgn session`'s library on any bytes as a session file: gzip (by its
//! magic, or required by a `.gz` name), JSON, the v3 and v4 fields, the
//! character from the options or the welcome on a screen, then the
//! comparison with NetHack 3.7's game start and `init_dungeons()` (its
//! built-in `dungeon.lua`, read once). Every input is a session or an
//! error with a message; a report's counts agree with each other, it has
//! a divergence exactly when it does not match, and a layout exactly when
//! it does.
//!
//! Input: `[mode, file...]`. Bit 0 of `mode`: the file is named `.gz`.

#![no_main]

use dgnkit::frontend::{analyze, CheckOptions};
use dgnkit::options::Target;
use dgnkit::script::Script;
use dgnkit::session::{self, character};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

/// NetHack 3.7's own `dungeon.lua`, as `dgn session` lays it out.
static SCRIPT: LazyLock<Script> = LazyLock::new(|| {
    let source = dgnkit::xlog::release::newest_of(Target::NetHack37)
        .and_then(|r| r.builtin.as_ref())
        .expect("NetHack 3.7 has a built-in description")
        .source;
    let opts = CheckOptions {
        target: Target::NetHack37,
        ..CheckOptions::default()
    };
    analyze(source, &opts)
        .script
        .expect("the built-in dungeon.lua reads")
});

fuzz_target!(init: LazyLock::force(&SCRIPT), |data: &[u8]| {
    let [mode, file @ ..] = data else {
        return;
    };
    let s = match session::read(file, mode & 1 != 0) {
        Ok(s) => s,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    assert!(s.version == 3 || s.version == 4);
    for step in &s.steps {
        if let Some(screen) = &step.screen {
            let _ = character::from_welcome(screen);
        }
        for e in &step.rng {
            let _ = session::entry::classify(e);
        }
    }
    let (target, by) = match session::game_of(&s, None) {
        Ok(g) => g,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    if target != Target::NetHack37 {
        return;
    }
    match session::check(&s, &SCRIPT, target, by) {
        Ok(r) => {
            assert!(r.matched <= r.draws);
            assert!(r.selection_draws + r.matched <= r.session_draws);
            assert_eq!(r.divergence.is_some(), !r.matches());
            assert_eq!(r.layout.is_some(), r.matches());
            if r.matches() {
                assert_eq!(r.matched, r.draws);
            }
            if let Some(d) = &r.divergence {
                assert!(d.session.is_some() || d.dgnkit.is_some());
                assert!(d.session_context.len() <= 7 && d.dgnkit_context.len() <= 7);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
