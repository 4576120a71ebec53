//! What people and tools read: a resolved [`Layout`] as NetHack's own
//! overview text, the canonical JSON line (`layout-json.md`) and an SVG
//! picture; the statistics as charts ([`chart`]) and two descriptions'
//! statistics compared ([`diff`]); diagnostics rendered for people, for
//! make and for tools ([`render`]).
//!
//! A game's overview is an [`OverviewStyle`], made where the games are
//! assembled (`dgnkit::games`).

#![deny(clippy::unwrap_used)]

pub mod chart;
pub mod diff;
pub mod jsonl;
pub mod overview;
pub mod render;
pub mod svg;
pub mod table;

pub use jsonl::JsonLines;
pub use overview::{overview, OverviewStyle};
pub use svg::svg;

use dgnkit_script::layout::Layout;

/// The layout as one line of canonical JSON (no trailing newline);
/// `rng_calls` appears only when the layout carries a draw log.
pub fn json_line(layout: &Layout) -> String {
    // Serialising plain strings, integers and booleans cannot fail.
    serde_json::to_string(layout).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_keeps_the_canonical_field_order_and_omits_an_absent_log() {
        let line = json_line(&Layout {
            seed: 42,
            rng: "glibc".into(),
            tune: "ABCDE".into(),
            ..Layout::default()
        });
        assert_eq!(
            line,
            r#"{"seed":42,"rng":"glibc","wizard":false,"dungeons":[],"levels":[],"branches":[],"tune":"ABCDE"}"#
        );
        let traced = json_line(&Layout {
            rng_calls: Some(vec!["rn2(7)=3".into()]),
            ..Layout::default()
        });
        assert!(traced.ends_with(r#""rng_calls":["rn2(7)=3"]}"#));
    }
}
