//! The entries of a session's RNG log, and dgnkit's draws written as
//! such entries.
//!
//! An entry is `fn(args)=result @ caller`; one that begins with `>`, `<`,
//! `^` or `~` is a marker or an event, not a draw, and `rne(`, `rnz(`,
//! `rnl(` and `d(` are composite entries whose own draws are logged
//! beside them. Only the `fn(args)=result` part of a draw is compared, as
//! Mazes of Menace's checker does (`test/comparison/comparators.js`,
//! `stripRngSourceTag`, `isMidlogEntry`, `isCompositeEntry`).

use crate::games::rng_log::RngLog;
use crate::rng::{Draw, Site};

/// What an entry of a session's log is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry<'a> {
    /// A draw: its `fn(args)=result` part.
    Draw(&'a str),
    /// A marker, an event or a composite entry: not compared.
    Other,
}

/// Classifies one entry, as written in the log (menace's checker also
/// drops a leading call number, `123 rn2(5)=3 @ ...`).
pub fn classify(entry: &str) -> Entry<'_> {
    let e = strip_number(entry);
    let call = e.split_once(" @ ").map_or(e, |(call, _)| call).trim();
    if call.is_empty()
        || call.starts_with(['>', '<', '^', '~'])
        || ["rne(", "rnz(", "rnl(", "d("]
            .iter()
            .any(|c| call.starts_with(c))
    {
        Entry::Other
    } else {
        Entry::Draw(call)
    }
}

/// `123 rn2(5)=3` -> `rn2(5)=3`.
fn strip_number(e: &str) -> &str {
    let digits = e.bytes().take_while(u8::is_ascii_digit).count();
    match e[digits..].strip_prefix(char::is_whitespace) {
        Some(rest) if digits > 0 => rest.trim_start(),
        _ => e,
    }
}

/// How a draw is written when its game's log does not name its caller:
/// dgnkit's own description, marked as such, so that no C name is made up.
pub const UNKNOWN_CALLER: &str = "<C caller unknown>";

/// dgnkit's draws as a session's entries: `rn2(5)=3 @ caller`, the caller
/// as `log` names it (NetHack 3.7's `init_dungeon_dungeons(dungeon.c:1074)`);
/// where the game's log is unknown, or does not name the caller of that
/// kind of draw, `rn2(5)=3 @ <C caller unknown> size of "..."` with
/// `describe`'s words for the draw.
pub fn session_entries(
    log: &[Draw],
    rng_log: Option<&RngLog>,
    describe: impl Fn(Site) -> String,
) -> Vec<String> {
    let mut object = 0;
    log.iter()
        .map(|d| {
            let caller = rng_log.and_then(|l| l.caller(d.site, object));
            if d.site == Site::ObjectInit {
                object += 1;
            }
            match caller {
                Some(c) => format!("{d} @ {c}"),
                None => format!("{d} @ {UNKNOWN_CALLER} {}", describe(d.site)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_markers_and_composites() {
        assert_eq!(
            classify("rn2(5)=3 @ init_dungeon_dungeons(dungeon.c:1074)"),
            Entry::Draw("rn2(5)=3")
        );
        assert_eq!(
            classify("rn2(3)=2 @ random src=nhlib.lua:8 parent=shuffle(nhlib.lua:19)"),
            Entry::Draw("rn2(3)=2")
        );
        assert_eq!(classify("rnd(3)=1"), Entry::Draw("rnd(3)=1"));
        assert_eq!(classify("17 rn2(2)=0 @ x"), Entry::Draw("rn2(2)=0"));
        assert_eq!(classify("17"), Entry::Draw("17"));
        for other in [
            ">makemon",
            "<makemon=1 #3017-3021 @ monmove.c:912",
            "^place[1,2,3]",
            "~x",
            "d(2,6)=7 @ weapon.c:45",
            "rne(4)=1",
            "rnz(350)=12",
            "rnl(20)=3",
            "",
            " @ x",
        ] {
            assert_eq!(classify(other), Entry::Other, "{other}");
        }
    }

    #[test]
    fn unknown_callers_are_marked_not_invented() {
        let log = [
            Draw {
                n: 2,
                r: 1,
                site: Site::ObjectInit,
            },
            Draw {
                n: 7,
                r: 3,
                site: Site::Tune,
            },
        ];
        let entries = session_entries(&log, None, |_| "castle tune".to_string());
        assert_eq!(
            entries[1],
            format!("rn2(7)=3 @ {UNKNOWN_CALLER} castle tune")
        );
        let log37 = crate::games::nethack37::RNG_LOG;
        let entries = session_entries(&log, Some(&log37), |_| String::new());
        assert_eq!(
            entries,
            [
                "rn2(2)=1 @ randomize_gem_colors(o_init.c:88)",
                "rn2(7)=3 @ init_castle_tune(dungeon.c:1116)"
            ]
        );
    }
}
