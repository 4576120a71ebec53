//! `dgn replay`'s library on any bytes as a gamelog: gzip (by its magic)
//! or JSON, the top level and each delta's shape, then every fold the
//! command makes (the end, and the state after a draw chosen by the first
//! byte) with `mergeDelta`'s checks and the references, and the state read
//! as a layout and written as NetHack's overview. Every input is a state
//! or an error with a message.
//!
//! Input: `[step, file...]`; `step` 255 folds the whole log.

#![no_main]

use dgnkit::gamelog::Gamelog;
use dgnkit::options::Target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [step, file @ ..] = data else {
        return;
    };
    let log = match Gamelog::parse(file) {
        Ok(log) => log,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let draws = log.draws();
    let step = (*step != 255).then(|| usize::from(*step).min(draws));
    if let Some(n) = step.filter(|&n| n > 0) {
        assert!(log.draw(n).is_some(), "draw {n} of {draws}");
    }
    match log.state_at(step) {
        Ok(state) => {
            if let Ok(layout) = Gamelog::layout(&state, step.unwrap_or(draws)) {
                let target = log
                    .setting("target")
                    .and_then(Target::parse)
                    .unwrap_or_default();
                let _ = dgnkit::views::overview(&layout, target.game().overview);
                let _ = dgnkit::views::json_line(&layout);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
