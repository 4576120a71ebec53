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
//! "genocided" when no killer was set, 3.4.3 src/end.c:564).

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

const GENOCIDE_KILLERS: [&[u8]; 4] = [
    b"scroll of genocide",
    b"genocidal confusion",
    b"imperious order",
    b"self-genocide",
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
}

/// The mode from the `flags` field (bit values from the release) or a
/// `mode` field (`normal`, `explore`/`discover`, `debug`/`wizard`).
pub fn mode(release: &Release, flags: Option<&[u8]>, mode: Option<&[u8]>) -> Result<Mode, String> {
    if let Some(m) = mode {
        return match m {
            b"normal" => Ok(Mode::Normal),
            b"explore" | b"discover" => Ok(Mode::Explore),
            b"debug" | b"wizard" => Ok(Mode::Wizard),
            other => Err(format!(
                "mode `{}` is not normal, explore or debug",
                String::from_utf8_lossy(other)
            )),
        };
    }
    match (flags, release.mode_flags) {
        (Some(f), Some((wizard, explore))) => {
            let v = super::reader::parse_int(f)
                .filter(|v| *v >= 0)
                .ok_or_else(|| {
                    format!(
                        "flags `{}` is not a number (NetHack writes e.g. flags=0x4)",
                        String::from_utf8_lossy(f)
                    )
                })? as u64;
            Ok(if v & wizard != 0 {
                Mode::Wizard
            } else if v & explore != 0 {
                Mode::Explore
            } else {
                Mode::Normal
            })
        }
        _ => Ok(Mode::Unrecorded),
    }
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
        assert_eq!(mode(r343, Some(b"0x1"), None), Ok(Mode::Unrecorded));
        assert_eq!(mode(r36, None, Some(b"explore")), Ok(Mode::Explore));
        assert!(ruled_out(r36, End::Died, Mode::Normal).is_none());
        assert!(ruled_out(r36, End::Quit, Mode::Normal).is_some());
        assert!(ruled_out(r36, End::Died, Mode::Explore).is_some());
    }
}
