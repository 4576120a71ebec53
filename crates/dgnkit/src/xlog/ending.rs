//! What a line says about how its game ended and in which mode, and what
//! that rules out for bones.
//!
//! No vanilla line records `how` (the `done()` reason); it is read back from
//! the `death` text as `formatkiller()` wrote it (3.6.7 src/topten.c:89-123):
//! the reasons from PANICKED on are written as their bare name
//! (`deaths[]`, 3.6.7 src/end.c:292-298: "panic", "trickery", "quit",
//! "escaped", "ascended"); everything else is a death. Genocide shares the
//! prefix "killed by " with DIED and is told by its killer names
//! (3.6.7 src/read.c:2171, 2297, 2301, 2304; src/polyself.c:206; the bare
//! "genocided" when no killer was set, 3.4.3 src/end.c:564; "slimicide"
//! when green slime was genocided while the hero turned to slime, 3.6.7
//! src/timeout.c:419-430, 3.7 src/timeout.c:499-511).

use super::release::Release;

/// NetHack's `how` as far as a line tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// DIED up to TURNED_SLIME: a death that can leave bones.
    Died,
    Genocided,
    Panicked,
    Tricked,
    Quit,
    Escaped,
    Ascended,
}

impl End {
    pub fn name(self) -> &'static str {
        match self {
            End::Died => "died",
            End::Genocided => "genocided",
            End::Panicked => "panic",
            End::Tricked => "trickery",
            End::Quit => "quit",
            End::Escaped => "escaped",
            End::Ascended => "ascended",
        }
    }

    /// `how < GENOCIDED`.
    pub fn is_death(self) -> bool {
        self == End::Died
    }
}

const GENOCIDE_KILLERS: [&[u8]; 5] = [
    b"scroll of genocide",
    b"genocidal confusion",
    b"imperious order",
    b"self-genocide",
    b"slimicide",
];

/// How the game ended, from its `death` text.
pub fn classify(death: &[u8]) -> End {
    match death {
        b"quit" => End::Quit,
        b"escaped" => End::Escaped,
        b"ascended" => End::Ascended,
        b"panic" => End::Panicked,
        b"trickery" => End::Tricked,
        b"genocided" => End::Genocided,
        _ => {
            if let Some(k) = death.strip_prefix(b"killed by ") {
                let k = k
                    .strip_prefix(b"an ")
                    .or_else(|| k.strip_prefix(b"a "))
                    .unwrap_or(k);
                if GENOCIDE_KILLERS.contains(&k) {
                    return End::Genocided;
                }
            }
            End::Died
        }
    }
}

/// The game's mode as the line records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    Wizard,
    Explore,
    /// The line has no field that says (3.4.3's xlogfile).
    Unrecorded,
    /// One of the game's own modes in which it makes no bones
    /// (GnollHack's casual, reloadable, modern and non-scoring games).
    NoBones,
}

impl Mode {
    /// Every mode, in index order.
    pub const ALL: [Mode; 5] = [
        Mode::Normal,
        Mode::Wizard,
        Mode::Explore,
        Mode::Unrecorded,
        Mode::NoBones,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Normal => "normal",
            Mode::Wizard => "wizard",
            Mode::Explore => "explore",
            Mode::Unrecorded => "unrecorded",
            Mode::NoBones => "no-bones",
        }
    }
}

/// The mode from the `flags` field (bit values from the release) and a
/// `mode` field (`normal`, `explore`/`discover`, `debug`/`wizard`, or one
/// of the release's own), the `mode` field first.
pub fn mode(release: &Release, flags: Option<&[u8]>, mode: Option<&[u8]>) -> Result<Mode, String> {
    let bits = match (flags, release.mode_flags) {
        (Some(f), Some(_)) => Some(super::reader::parse_int(f).filter(|v| *v >= 0).ok_or_else(
            || {
                format!(
                    "flags `{}` is not a number (NetHack writes e.g. flags=0x4)",
                    String::from_utf8_lossy(f)
                )
            },
        )? as u64),
        _ => None,
    };
    let from_field = match mode {
        None => None,
        Some(b"normal") => Some(Mode::Normal),
        Some(b"explore" | b"discover") => Some(Mode::Explore),
        Some(b"debug" | b"wizard") => Some(Mode::Wizard),
        Some(other) => Some(
            release
                .modes
                .iter()
                .find(|(name, _)| name.as_bytes() == other)
                .map(|&(_, m)| m)
                .ok_or_else(|| {
                    format!(
                        "mode `{}` is not normal, explore or debug{}",
                        String::from_utf8_lossy(other),
                        release
                            .modes
                            .iter()
                            .map(|(n, _)| format!(", {n}"))
                            .collect::<String>()
                    )
                })?,
        ),
    };
    let from_flags = match (bits, release.mode_flags) {
        (Some(v), Some((wizard, explore))) => Some(if v & wizard != 0 {
            Mode::Wizard
        } else if v & explore != 0 {
            Mode::Explore
        } else if v & release.no_bones_flags != 0 {
            Mode::NoBones
        } else {
            Mode::Normal
        }),
        _ => None,
    };
    Ok(match (from_field, from_flags) {
        // A flag the mode field does not show (GnollHack's non-scoring).
        (Some(Mode::Normal), Some(Mode::NoBones)) => Mode::NoBones,
        (Some(m), _) | (None, Some(m)) => m,
        (None, None) => Mode::Unrecorded,
    })
}

/// What the line itself rules out, in words, or `None` when it leaves
/// bones to the level and the depth roll.
pub fn ruled_out(release: &Release, end: End, mode: Mode) -> Option<String> {
    let c = &release.cites;
    match mode {
        Mode::Explore => {
            return Some(format!(
                "explore mode: can_make_bones() refuses ({})",
                c.explore
            ))
        }
        Mode::Wizard => {
            return Some(format!(
                "wizard mode: no depth roll, the player is asked \"Save bones?\" ({}) and no line records the answer; counted as no bones",
                c.wizard_query
            ))
        }
        Mode::NoBones => {
            return Some(format!(
                "a game mode without bones (casual, reloadable, modern or non-scoring): can_make_bones() refuses ({})",
                c.no_bones_modes
            ))
        }
        Mode::Normal | Mode::Unrecorded => {}
    }
    (!end.is_death()).then(|| {
        format!(
            "the game did not end in death ({}): done() saves bones only when how < GENOCIDED ({})",
            end.name(),
            c.bones_ok
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xlog::release::RELEASES;

    #[test]
    fn endings() {
        assert_eq!(classify(b"killed by a jackal"), End::Died);
        assert_eq!(classify(b"quit"), End::Quit);
        // how becomes DIED when quitting at 0 HP (3.6.7 src/end.c:1288-1292).
        assert_eq!(classify(b"quit while already on Charon's boat"), End::Died);
        assert_eq!(classify(b"ascended"), End::Ascended);
        assert_eq!(classify(b"escaped"), End::Escaped);
        assert_eq!(classify(b"killed by a scroll of genocide"), End::Genocided);
        assert_eq!(classify(b"killed by genocidal confusion"), End::Genocided);
        assert_eq!(classify(b"killed by an imperious order"), End::Genocided);
        assert_eq!(classify(b"killed by self-genocide"), End::Genocided);
        assert_eq!(classify(b"genocided"), End::Genocided);
        assert_eq!(classify(b"petrified by a cockatrice"), End::Died);
        assert_eq!(classify(b"killed by slimicide"), End::Genocided);
    }

    #[test]
    fn modes() {
        let r36 = RELEASES[2];
        let r343 = RELEASES[0];
        assert_eq!(mode(r36, Some(b"0x4"), None), Ok(Mode::Normal));
        assert_eq!(mode(r36, Some(b"0x5"), None), Ok(Mode::Wizard));
        assert_eq!(mode(r36, Some(b"0x2"), None), Ok(Mode::Explore));
        assert!(mode(r36, Some(b"zz"), None).is_err());
        assert_eq!(mode(r36, None, None), Ok(Mode::Unrecorded));
        // NAO's 3.4.3 writes flags (nh343-nao src/topten.c:309).
        assert_eq!(mode(r343, Some(b"0x1"), None), Ok(Mode::Wizard));
        assert_eq!(mode(r343, Some(b"0x2"), None), Ok(Mode::Explore));
        assert_eq!(mode(r343, None, None), Ok(Mode::Unrecorded));
        assert_eq!(mode(r36, None, Some(b"explore")), Ok(Mode::Explore));
        assert!(ruled_out(r36, End::Died, Mode::Normal).is_none());
        assert!(ruled_out(r36, End::Quit, Mode::Normal).is_some());
        assert!(ruled_out(r36, End::Died, Mode::Explore).is_some());
    }

    #[test]
    fn variants_own_modes() {
        let release = |name: &str| RELEASES.iter().find(|r| r.name == name).unwrap();
        let unh = release("unnethack-6.0");
        assert_eq!(mode(unh, Some(b"0x0"), Some(b"hah")), Ok(Mode::Normal));
        assert_eq!(mode(unh, Some(b"0x0"), Some(b"marathon")), Ok(Mode::Normal));
        assert_eq!(mode(unh, Some(b"0x1"), Some(b"debug")), Ok(Mode::Wizard));
        let e = mode(unh, None, Some(b"casual")).unwrap_err();
        assert!(e.contains("hah, hoh, marathon"), "{e}");
        let gnoll = release("gnollhack-4");
        assert_eq!(
            mode(gnoll, Some(b"0x14"), Some(b"casual")),
            Ok(Mode::NoBones)
        );
        assert_eq!(
            mode(gnoll, Some(b"0x8"), Some(b"modern")),
            Ok(Mode::NoBones)
        );
        // Non-scoring shows only in the flags.
        assert_eq!(
            mode(gnoll, Some(b"0x24"), Some(b"normal")),
            Ok(Mode::NoBones)
        );
        assert_eq!(mode(gnoll, Some(b"0x4"), Some(b"normal")), Ok(Mode::Normal));
        let why = ruled_out(gnoll, End::Died, Mode::NoBones).unwrap();
        assert!(why.contains("GnollHack 4.3.0 src/bones.c:504"), "{why}");
        // Only GnollHack gives the 0x20 bit that meaning.
        assert_eq!(mode(RELEASES[2], Some(b"0x24"), None), Ok(Mode::Normal));
    }
}
