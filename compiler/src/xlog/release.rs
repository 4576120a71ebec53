//! Which game and release wrote an xlogfile line, and what we know of it:
//! the target whose loader and rules apply, the built-in dungeon
//! description of that release, and where its source decides bones.
//!
//! A line names its release in `version`. A game we do not reproduce is an
//! error for that line, never answered with another game's rules.

use crate::options::Target;

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
}

/// One release (or run of releases with the same dungeon and rules).
#[derive(Debug, PartialEq, Eq)]
pub struct Release {
    /// Stable name, e.g. `nethack-3.6.0`.
    pub name: &'static str,
    /// The game as users say it.
    pub title: &'static str,
    pub target: Target,
    /// `version` values `major.minor.patch` covered: `(major, minor,
    /// first patch, last patch)`.
    pub versions: (u32, u32, u32, u32),
    /// The built-in dungeon description and its name for messages.
    pub file: &'static str,
    pub source: &'static [u8],
    pub cites: Cites,
    /// The `flags` field's bits for wizard and explore mode, when the
    /// release writes it (3.6.0 and later: src/topten.c `encodexlogflags`).
    pub mode_flags: Option<(u64, u64)>,
}

const NH343: Release = Release {
    name: "nethack-3.4.3",
    title: "NetHack 3.4.3",
    target: Target::NetHack343,
    // dat/dungeon.def last changed in 3.4.0.
    versions: (3, 4, 0, 3),
    file: "nethack-3.4.3.def (built in)",
    source: include_bytes!("../../../corpus/nethack-3.4.3.def"),
    cites: Cites {
        bones_ok: "NetHack 3.4.3 src/end.c:639",
        depth_roll: "NetHack 3.4.3 src/bones.c:179-184",
        explore: "NetHack 3.4.3 src/bones.c:187",
        wizard_query: "NetHack 3.4.3 src/end.c:728",
    },
    // 3.4.3 itself writes no xlogfile; the servers' patch has no flags.
    mode_flags: None,
};

const NH360: Release = Release {
    name: "nethack-3.6.0",
    title: "NetHack 3.6.0",
    target: Target::NetHack36,
    versions: (3, 6, 0, 0),
    file: "nethack-3.6.0.def (built in)",
    source: include_bytes!("../../../corpus/nethack-3.6.0.def"),
    cites: Cites {
        bones_ok: "NetHack 3.6.0 src/end.c:974",
        depth_roll: "NetHack 3.6.0 src/bones.c:315-317",
        explore: "NetHack 3.6.0 src/bones.c:321",
        wizard_query: "NetHack 3.6.0 src/end.c:1086",
    },
    mode_flags: Some((1, 2)),
};

const NH36: Release = Release {
    name: "nethack-3.6",
    title: "NetHack 3.6.1-3.6.7",
    target: Target::NetHack36,
    versions: (3, 6, 1, 7),
    file: "nethack-3.6.def (built in)",
    source: include_bytes!("../../../corpus/nethack-3.6.def"),
    cites: Cites {
        bones_ok: "NetHack 3.6.7 src/end.c:1266",
        depth_roll: "NetHack 3.6.7 src/bones.c:343-345",
        explore: "NetHack 3.6.7 src/bones.c:349",
        wizard_query: "NetHack 3.6.7 src/end.c:1422",
    },
    mode_flags: Some((1, 2)),
};

/// Every release dgn xlog answers for, in a fixed order (their index is
/// [`Release::id`]).
pub static RELEASES: [&Release; 3] = [&NH343, &NH360, &NH36];

impl Release {
    /// The release's index in [`RELEASES`].
    pub fn id(&self) -> usize {
        RELEASES
            .iter()
            .position(|r| r.name == self.name)
            .unwrap_or(0)
    }

    fn covers(&self, v: (u32, u32, u32)) -> bool {
        let (ma, mi, lo, hi) = self.versions;
        v.0 == ma && v.1 == mi && (lo..=hi).contains(&v.2)
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

/// The release that wrote a line with this `version`; with `target`, only
/// releases of that target are accepted.
pub fn for_version(version: &[u8], target: Option<Target>) -> Result<&'static Release, String> {
    let shown = String::from_utf8_lossy(version);
    let Some(v) = parse_version(version) else {
        return Err(format!(
            "version `{shown}` is not major.minor.patch (NetHack writes e.g. version=3.6.6)"
        ));
    };
    let found = RELEASES.iter().copied().find(|r| r.covers(v));
    match (found, target) {
        (Some(r), Some(t)) if r.target != t => Err(format!(
            "version {shown} is {}, not the target {} given by --target",
            r.title,
            t.name()
        )),
        (Some(r), _) => Ok(r),
        (None, _) => Err(format!(
            "unknown version {shown}: dgn xlog knows NetHack 3.4.0-3.4.3 and 3.6.0-3.6.7{}",
            if v.0 == 3 && v.1 == 7 {
                " (NetHack 3.7 is not a target of this build)"
            } else {
                ""
            }
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_map_to_releases() {
        assert_eq!(for_version(b"3.4.3", None).unwrap().name, "nethack-3.4.3");
        assert_eq!(for_version(b"3.6.0", None).unwrap().name, "nethack-3.6.0");
        assert_eq!(for_version(b"3.6.1", None).unwrap().name, "nethack-3.6");
        assert_eq!(for_version(b"3.6.7", None).unwrap().name, "nethack-3.6");
        assert!(for_version(b"3.6.8", None).is_err());
        assert!(for_version(b"3.6", None).is_err());
        assert!(for_version(b"3.6.1.2", None).is_err());
        assert!(for_version(b"3.4.3", Some(Target::NetHack36)).is_err());
        assert_eq!(
            for_version(b"3.6.0", Some(Target::NetHack36)).unwrap().name,
            "nethack-3.6.0"
        );
    }

    #[test]
    fn ids_are_positions() {
        for (i, r) in RELEASES.iter().enumerate() {
            assert_eq!(r.id(), i);
        }
    }
}
