//! Which game and release wrote an xlogfile line, and what we know of it:
//! the target whose loader and rules apply, the built-in dungeon
//! description of that release, and where its source decides bones.
//!
//! A line names its game by what it carries ([`super::identify`]) and its
//! release in `version`. A release dgnkit has no description of is
//! answered with the nearest release of the same game, and a game dgnkit
//! does not describe with the release it was built from; either way the
//! line says so ([`Answered::note`]). A game whose loader dgnkit does not
//! reproduce is an error for that line, never answered silently.
//!
//! The releases themselves are data of their games: each game's record
//! holds its own ([`Family::releases`]), and [`RELEASES`] collects them.

use super::ending::Mode;
use super::identify::{identify, By, Family, Seen, Stranger, Writer, STRANGERS};
use crate::bones::rules::BonesRules;
use crate::options::Target;
use std::sync::LazyLock;

/// Where a release's source decides whether a death leaves bones (file:line
/// of that release; for 3.6.1-3.6.7, of 3.6.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cites {
    /// `bones_ok = (how < GENOCIDED) && can_make_bones();` in `done()`.
    pub bones_ok: &'static str,
    /// `can_make_bones()`: the depth roll `rn2(1 + depth / 4)`, skipped in
    /// wizard mode.
    pub depth_roll: &'static str,
    /// `can_make_bones()`: no bones in explore mode.
    pub explore: &'static str,
    /// `done()`: in wizard mode the game asks "Save bones?".
    pub wizard_query: &'static str,
    /// `can_make_bones()`: the game's own modes without bones (empty when
    /// it has none).
    pub no_bones_modes: &'static str,
}

/// The dungeon description dgnkit ships for a release.
#[derive(PartialEq, Eq)]
pub struct Builtin {
    /// Its name for messages.
    pub file: &'static str,
    pub source: &'static [u8],
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.file)
    }
}

/// One release (or run of releases with the same dungeon and rules).
#[derive(Debug, PartialEq, Eq)]
pub struct Release {
    /// Stable name, e.g. `nethack-3.6.0`.
    pub name: &'static str,
    /// The game as users say it.
    pub title: &'static str,
    /// What `dgn explain xlog` says of it besides its versions (empty:
    /// nothing).
    pub note: &'static str,
    pub target: Target,
    /// What the game writes before `major.minor.patch` in `version`
    /// (UnNetHack's `UNH-`, dNetHack's `DNH-`).
    pub prefix: &'static str,
    /// `version` values covered: `(major, minor, first patch, last patch)`
    /// runs.
    pub versions: &'static [(u32, u32, u32, u32)],
    /// The built-in dungeon description; `None`: lines need `--file`.
    pub builtin: Option<Builtin>,
    pub cites: Cites,
    /// The `flags` field's bits for wizard and explore mode, when the
    /// release writes it (3.6.0 and later: src/topten.c `encodexlogflags`).
    pub mode_flags: Option<(u64, u64)>,
    /// `flags` bits of the game's own modes in which `can_make_bones()`
    /// refuses.
    pub no_bones_flags: u64,
    /// Values of the `mode` field beyond normal/explore/debug, and what
    /// they mean for bones.
    pub modes: &'static [(&'static str, Mode)],
    /// The release's own bones rules where they are not the game's
    /// newest (its target's): older releases placed other magic portals.
    pub bones: Option<&'static BonesRules>,
    /// The separator of the release's lines, where the same version was
    /// written by builds with different dungeons that the separator tells
    /// apart (UnNetHack switched to tabs on 2019-01-09).
    pub separator: Option<u8>,
}

/// The `flags` bits NetHack 3.6 and 3.7 write (`encodexlogflags`), as do
/// the variants that took the xlogfile patch: 0x1 wizard, 0x2 explore.
pub const WIZARD_EXPLORE: Option<(u64, u64)> = Some((1, 2));

impl Release {
    /// What most releases share; each release states the rest.
    pub const BASE: Release = Release {
        name: "",
        title: "",
        note: "",
        target: Target::NetHack36,
        prefix: "",
        versions: &[],
        builtin: None,
        cites: Cites {
            bones_ok: "",
            depth_roll: "",
            explore: "",
            wizard_query: "",
            no_bones_modes: "",
        },
        mode_flags: WIZARD_EXPLORE,
        no_bones_flags: 0,
        modes: &[],
        bones: None,
        separator: None,
    };
}

/// Every release dgn xlog answers for, in a fixed order (their index is
/// [`Release::id`]): each game's, in [`Family::all`]'s order, the
/// tournament's last.
pub static RELEASES: LazyLock<Vec<&'static Release>> = LazyLock::new(|| {
    let tnnt: &'static Family = &super::nethack::TNNT;
    let games = Family::all().iter().copied().filter(|&f| f != tnnt);
    games
        .chain([tnnt])
        .flat_map(|f| f.releases.iter())
        .collect()
});

impl Release {
    /// The release's index in [`RELEASES`].
    pub fn id(&self) -> usize {
        // Every release a line gets comes from RELEASES: the address finds
        // it without comparing names (this runs several times per line).
        RELEASES
            .iter()
            .position(|r| std::ptr::eq(*r, self))
            .or_else(|| RELEASES.iter().position(|r| r.name == self.name))
            .unwrap_or(0)
    }

    /// The versions covered, for messages (`UNH-6.0.11-6.0.15`).
    pub fn version_list(&self) -> String {
        self.versions
            .iter()
            .map(|&(ma, mi, lo, hi)| {
                if lo == hi {
                    format!("{}{ma}.{mi}.{lo}", self.prefix)
                } else {
                    format!("{}{ma}.{mi}.{lo}-{ma}.{mi}.{hi}", self.prefix)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The game whose record holds the release.
    pub fn family(&self) -> Option<&'static Family> {
        Family::all()
            .iter()
            .copied()
            .find(|f| f.releases.iter().any(|r| std::ptr::eq(r, self)))
    }
}

/// `major.minor.patch` of a `version` value.
pub fn parse_version(v: &[u8]) -> Option<(u32, u32, u32)> {
    let mut parts = v.split(|&b| b == b'.');
    let mut num = || -> Option<u32> {
        let p = parts.next()?;
        if p.is_empty() || p.len() > 4 || !p.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(p).ok()?.parse().ok()
    };
    let v = (num()?, num()?, num()?);
    parts.next().is_none().then_some(v)
}

/// What `--game` names: a game (its release is then chosen by `version`),
/// one release (every line answered with it), or a game dgnkit does not
/// describe (answered with the release it was built from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Family(&'static Family),
    Release(&'static Release),
    Stranger(&'static Stranger),
}

impl Choice {
    pub fn parse(s: &str) -> Result<Choice, String> {
        if let Some(f) = Family::by_name(s) {
            return Ok(Choice::Family(f));
        }
        if let Some(r) = RELEASES.iter().find(|r| r.name.eq_ignore_ascii_case(s)) {
            return Ok(Choice::Release(r));
        }
        if let Some(g) = STRANGERS.iter().find(|g| g.name.eq_ignore_ascii_case(s)) {
            return Ok(Choice::Stranger(g));
        }
        Err(format!(
            "unknown game `{s}`: give a game ({}), a release ({}) or a game answered with another's description ({})",
            Family::all().iter().map(|f| f.name).collect::<Vec<_>>().join(", "),
            RELEASES.iter().map(|r| r.name).collect::<Vec<_>>().join(", "),
            STRANGERS.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
        ))
    }
}

/// The release that answers a line.
#[derive(Debug, PartialEq, Eq)]
pub struct Answered {
    pub release: &'static Release,
    /// When the release is not the line's own: whose line it is and whose
    /// description answers it ("answered with release X's description").
    pub note: Option<String>,
}

/// The release named `name`.
pub fn by_name(name: &str) -> Option<&'static Release> {
    RELEASES.iter().copied().find(|r| r.name == name)
}

/// The newest release of the game `target` lays out, whose built-in
/// description `dgn layout` and the editor take for that target.
pub fn newest_of(target: Target) -> Option<&'static Release> {
    let own = Family::of_target(target)?;
    own.releases.iter().rev().find(|r| r.target == target)
}

fn version_key(v: (u32, u32, u32)) -> u64 {
    (u64::from(v.0) << 40) | (u64::from(v.1) << 20) | u64::from(v.2)
}

/// The release of `family` covering `v`, or else the nearest (the later one
/// on a tie): `(release, covered)`.
fn pick(
    family: &'static Family,
    v: (u32, u32, u32),
    tab: bool,
) -> Option<(&'static Release, bool)> {
    let key = version_key(v);
    let sep = if tab { b'\t' } else { b':' };
    family
        .releases
        .iter()
        .filter(|r| r.separator.is_none_or(|s| s == sep))
        .map(|r| {
            let distance = r
                .versions
                .iter()
                .map(|&(ma, mi, lo, hi)| {
                    let (lo, hi) = (version_key((ma, mi, lo)), version_key((ma, mi, hi)));
                    if key < lo {
                        lo - key
                    } else {
                        key.saturating_sub(hi)
                    }
                })
                .min()
                .unwrap_or(u64::MAX);
            (r, distance)
        })
        .fold(None, |best: Option<(&Release, u64)>, (r, d)| match best {
            Some((_, bd)) if bd < d => best,
            _ => Some((r, d)),
        })
        .map(|(r, d)| (r, d == 0))
}

/// The release that answers a line with this `version` and these fields.
/// `target` (`--target`) accepts only lines that target lays out, and
/// overrules a game told by the version's numbers alone; `game` (`--game`)
/// names the game or release outright.
pub fn answer(
    version: &[u8],
    seen: Seen,
    target: Option<Target>,
    game: Option<Choice>,
) -> Result<Answered, String> {
    let shown = String::from_utf8_lossy(version);
    let (writer, by) = match game {
        Some(Choice::Release(r)) => {
            return Ok(Answered {
                release: r,
                note: None,
            })
        }
        Some(Choice::Family(f)) => (Writer::Family(f), By::Field),
        Some(Choice::Stranger(g)) => (Writer::Stranger(g), By::Field),
        None => identify(version, seen).ok_or_else(|| unknown(&shown, version))?,
    };
    let lays_out = |w: Writer, t: Target| match w {
        Writer::Family(f) => f.releases.iter().any(|r| r.target == t),
        Writer::Stranger(g) => by_name(g.nearest).is_some_and(|r| r.target == t),
    };
    let writer = match (by, target) {
        (By::Version, Some(t)) if !lays_out(writer, t) => match Family::of_target(t) {
            Some(f) => Writer::Family(f),
            None => writer,
        },
        _ => writer,
    };
    let answered = match writer {
        Writer::Stranger(g) => {
            let release = by_name(g.nearest)
                .unwrap_or_else(|| unreachable!("a stranger's release is in RELEASES"));
            Answered {
                release,
                note: Some(format!(
                    "{} {shown} is not a game dgnkit describes: answered with release {}'s description and rules ({})",
                    g.title, release.name, g.why
                )),
            }
        }
        Writer::Family(f) => {
            let prefix = f.prefix();
            let v = version
                .strip_prefix(prefix.as_bytes())
                .and_then(parse_version)
                .ok_or_else(|| {
                    format!(
                        "version `{shown}` is not {prefix}major.minor.patch, as {} writes it",
                        f.title
                    )
                })?;
            let (release, covered) = pick(f, v, seen.has(Seen::TAB))
                .ok_or_else(|| format!("dgnkit knows no release of {}", f.title))?;
            Answered {
                release,
                note: (!covered).then(|| {
                    format!(
                        "dgnkit has no description of {} {shown}: answered with release {}'s description ({} {})",
                        f.title,
                        release.name,
                        release.title,
                        release.version_list()
                    )
                }),
            }
        }
    };
    if let Some(t) = target {
        if answered.release.target != t {
            return Err(format!(
                "version {shown} is {}, not the target {} given by --target",
                answered.release.title,
                t.name()
            ));
        }
    }
    Ok(answered)
}

#[cold]
fn unknown(shown: &str, version: &[u8]) -> String {
    let prefixes = Family::all().iter().map(|f| f.prefix());
    let numbers = prefixes.chain([""]).any(|p| {
        version
            .strip_prefix(p.as_bytes())
            .and_then(parse_version)
            .is_some()
    });
    if !numbers {
        return format!(
            "version `{shown}` is not major.minor.patch (NetHack writes e.g. version=3.6.6, UnNetHack UNH-6.0.15, dNetHack DNH-3.23.0)"
        );
    }
    format!(
        "unknown game: version {shown} with none of the fields that tell a game apart (dgn xlog knows {}; `dgn xlog --releases` lists their releases; --game names the game of a file you know)",
        Family::all()
            .iter()
            .map(|f| f.title)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// [`answer`] asking the line field by field, for callers without a
/// [`Seen`] (tab-separated unless `version` is 3.4.x's).
pub fn for_version(
    version: &[u8],
    target: Option<Target>,
    has_field: impl Fn(&[u8]) -> bool,
) -> Result<&'static Release, String> {
    let tab = !version.starts_with(b"3.4.");
    answer(version, Seen::from_fields(tab, has_field), target, None).map(|a| a.release)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(
        version: &[u8],
        target: Option<Target>,
        fields: &[&str],
    ) -> Result<&'static str, String> {
        for_version(version, target, |k| {
            fields.iter().any(|f| f.as_bytes() == k)
        })
        .map(|r| r.name)
    }

    fn note(version: &[u8], fields: &[&str]) -> Option<String> {
        answer(
            version,
            Seen::from_fields(true, |k| fields.iter().any(|f| f.as_bytes() == k)),
            None,
            None,
        )
        .unwrap()
        .note
    }

    #[test]
    fn versions_map_to_releases() {
        assert_eq!(name(b"3.4.3", None, &[]).unwrap(), "nethack-3.4.3");
        assert_eq!(name(b"3.6.0", None, &[]).unwrap(), "nethack-3.6.0");
        assert_eq!(name(b"3.6.1", None, &[]).unwrap(), "nethack-3.6");
        assert_eq!(name(b"3.6.7", None, &[]).unwrap(), "nethack-3.6");
        assert_eq!(name(b"3.7.0", None, &[]).unwrap(), "nethack-3.7");
        assert_eq!(name(b"5.0.0", None, &[]).unwrap(), "nethack-5.0");
        assert_eq!(
            name(b"5.0.0", Some(Target::NetHack50), &[]).unwrap(),
            "nethack-5.0"
        );
        assert!(name(b"3.7.0", Some(Target::NetHack50), &[]).is_err());
        assert!(name(b"3.6", None, &[]).is_err());
        assert!(name(b"3.6.1.2", None, &[]).is_err());
        assert!(name(b"3.4.3", Some(Target::NetHack36), &[]).is_err());
        assert_eq!(
            name(b"3.6.0", Some(Target::NetHack36), &[]).unwrap(),
            "nethack-3.6.0"
        );
        assert!(note(b"3.6.7", &[]).is_none());
    }

    /// A release of a known game without a description of its own is
    /// answered with the nearest, and says so.
    #[test]
    fn unknown_releases_take_the_nearest_and_say_so() {
        assert_eq!(name(b"3.6.8", None, &[]).unwrap(), "nethack-3.6");
        let n = note(b"3.6.8", &[]).unwrap();
        assert!(
            n.contains("no description of NetHack 3.6.8")
                && n.contains("answered with release nethack-3.6's description"),
            "{n}"
        );
        assert_eq!(name(b"3.3.1", None, &[]).unwrap(), "nethack-3.4.3");
        assert_eq!(
            name(b"0.5.4", None, &["charname"]).unwrap(),
            "dynahack-0.6.0"
        );
        assert!(note(b"0.5.4", &["charname"]).is_some());
        assert!(note(b"0.6.0", &["charname"]).is_none());
        // Strangers: answered with the release they were built from.
        let n = note(b"4.3.0", &["charname", "rngseed"]).unwrap();
        assert!(
            n.contains("NetHack 4 4.3.0 is not a game dgnkit describes"),
            "{n}"
        );
        assert_eq!(
            name(b"4.3.0", None, &["charname", "rngseed"]).unwrap(),
            "nethack-3.4.3"
        );
        assert!(name(b"12.0.0", None, &[])
            .unwrap_err()
            .contains("unknown game"));
    }

    #[test]
    fn variant_versions_map_to_their_games() {
        assert_eq!(name(b"UNH-6.0.15", None, &[]).unwrap(), "unnethack-6.0");
        assert_eq!(name(b"UNH-6.0.11", None, &[]).unwrap(), "unnethack-6.0");
        assert_eq!(name(b"DNH-3.23.0", None, &[]).unwrap(), "dnethack-3.23");
        assert_eq!(name(b"0.0.8", None, &[]).unwrap(), "slashem-0.0.8");
        assert_eq!(
            name(b"0.9.3", None, &["killed_archangels"]).unwrap(),
            "evilhack-0.9"
        );
        assert_eq!(
            name(b"0.9.3", Some(Target::EvilHack), &[]).unwrap(),
            "evilhack-0.9"
        );
        // GnollHack shares NetHack 4's numbers: NetHack 4 writes `charname`.
        assert_eq!(name(b"4.3.0", None, &["edit"]).unwrap(), "gnollhack-4");
        assert_eq!(name(b"4.3.0", None, &[]).unwrap(), "gnollhack-4");
        assert_eq!(
            name(b"4.3.0", Some(Target::GnollHack), &[]).unwrap(),
            "gnollhack-4"
        );
        assert_eq!(
            name(b"0.0.1", None, &["charname"]).unwrap(),
            "dynahack-0.6.0"
        );
        // --target overrules a game told by numbers alone.
        assert_eq!(
            name(b"0.6.0", Some(Target::DynaHack), &[]).unwrap(),
            "dynahack-0.6.0"
        );
        // A prefix belongs to its game only.
        assert!(name(b"UNH-3.6.6", None, &[]).is_ok_and(|r| r.starts_with("unnethack")));
        let e = name(b"DNH-3.23.0", Some(Target::UnNetHack), &[]).unwrap_err();
        assert!(e.contains("not the target unnethack"), "{e}");
    }

    #[test]
    fn game_choices_parse() {
        assert_eq!(
            Choice::parse("tnnt"),
            Ok(Choice::Family(&super::super::nethack::TNNT))
        );
        assert!(
            matches!(Choice::parse("nethack-3.6.0"), Ok(Choice::Release(r)) if r.name == "nethack-3.6.0")
        );
        assert!(matches!(Choice::parse("AceHack"), Ok(Choice::Stranger(_))));
        assert!(Choice::parse("nope").unwrap_err().contains("unknown game"));
        let r = answer(
            b"3.6.6",
            Seen::default(),
            None,
            Some(Choice::parse("nethack-3.6.0").unwrap()),
        )
        .unwrap();
        assert_eq!(r.release.name, "nethack-3.6.0");
    }

    #[test]
    fn every_family_has_a_release_and_strangers_name_one() {
        for &f in Family::all() {
            assert!(!f.releases.is_empty(), "{f:?}");
            for r in f.releases {
                assert_eq!(r.family(), Some(f), "{}", r.name);
            }
        }
        for g in STRANGERS {
            assert!(by_name(g.nearest).is_some(), "{}", g.name);
        }
        for t in Target::ALL {
            if let Some(r) = newest_of(t) {
                assert_eq!(r.target, t);
                assert_eq!(r.family(), Family::of_target(t));
            }
        }
    }

    /// Every game dgnkit lays out has its releases here; native is no
    /// game, and a game whose loader is not proven (NetHack 3.7's forks,
    /// for now) has none, so its lines are never answered with another
    /// game's rules.
    /// NLE writes NetHack 3.6.7's lines, answered as NetHack 3.6's.
    #[test]
    fn every_target_but_native_has_a_release() {
        for t in Target::ALL {
            let own_lines = !matches!(t, Target::Native | Target::Nle);
            assert_eq!(t.game().xlog.is_some(), own_lines, "{}", t.name());
            assert_eq!(
                RELEASES.iter().any(|r| r.target == t),
                own_lines && t.game().loader_proven(),
                "{}",
                t.name()
            );
        }
    }

    #[test]
    fn ids_are_positions() {
        for (i, r) in RELEASES.iter().enumerate() {
            assert_eq!(r.id(), i);
        }
    }
}
