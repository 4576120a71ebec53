//! Which game wrote an xlogfile line, from what the line carries.
//!
//! Public servers' xlogfiles mix games whose `version` values collide:
//! TNNT writes NetHack 3.6's numbers, AceHack wrote `3.6.0` in 2011, NetHack
//! 4 and GnollHack both wrote `4.3.0`, DynaHack and EvilHack `0.6.0`. So a
//! line is first told by the fields only one game writes and by its
//! separator, and only then by its version. The facts, per game, are in
//! its [`Family`] record, with their sources (each writer's `src/topten.c`
//! at its release); `dgn xlog --releases` summarises them.

use super::release::{parse_version, Release};
use crate::options::Target;
use std::sync::LazyLock;

/// A game whose lines dgn xlog answers with its own releases: how its lines
/// are told from other games' and the releases that answer them. A game
/// dgnkit lays out holds its own ([`Game::xlog`](crate::games::Game::xlog),
/// in its file under `games/`); NetHack's, shared by its three targets, and
/// the tournament's are in [`super::nethack`]. One is known by its address
/// (two records are two games), so each is a `static`.
pub struct Family {
    /// The name `--game` takes.
    pub name: &'static str,
    pub title: &'static str,
    /// What tells the game's lines apart, in words (`--releases`).
    pub tells: &'static str,
    /// What only this game's lines carry, tried before any version number.
    pub sign: Option<Sign>,
    /// The `version` numbers that tell it when no sign does.
    pub numbers: &'static [Numbers],
    /// Its releases, oldest first: a line between two is answered with
    /// the later.
    pub releases: &'static [Release],
}

impl PartialEq for Family {
    fn eq(&self, other: &Family) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Family {}

impl std::fmt::Debug for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// What a line carries that only one game writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// `version` starts with it (UnNetHack's `UNH-`).
    Prefix(&'static str),
    /// Every field of `has` and none of `lacks` ([`Seen`] bits), and,
    /// when given, exactly this `version`.
    Fields {
        has: u32,
        lacks: u32,
        version: Option<&'static [u8]>,
    },
}

impl Sign {
    /// One field only this game writes.
    pub const fn field(bit: u32) -> Sign {
        Sign::Fields {
            has: bit,
            lacks: 0,
            version: None,
        }
    }

    fn matches(self, version: &[u8], seen: Seen) -> bool {
        match self {
            Sign::Prefix(p) => version.starts_with(p.as_bytes()),
            Sign::Fields {
                has,
                lacks,
                version: v,
            } => seen.0 & has == has && seen.0 & lacks == 0 && v.is_none_or(|v| v == version),
        }
    }

    /// Signs are tried in the order of [`Seen`]'s bits, by the lowest
    /// field each needs; a version prefix right after the tournament's
    /// field, whose lines are otherwise NetHack's.
    fn rank(self) -> u32 {
        match self {
            Sign::Prefix(_) => 2 * Seen::TNNT.trailing_zeros() + 1,
            Sign::Fields { has, .. } => 2 * has.trailing_zeros(),
        }
    }

    /// The field named by the sign, where one is (a line written as the
    /// game writes it carries it).
    pub fn marker(self) -> Option<&'static str> {
        match self {
            Sign::Prefix(_) => None,
            Sign::Fields { has, .. } => Seen::KEYS
                .iter()
                .find(|(_, bit)| *bit == 1 << has.trailing_zeros())
                .map(|&(key, _)| key),
        }
    }
}

/// `version` numbers: a major in `majors`, a minor in `minors` (both
/// inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    pub majors: (u32, u32),
    pub minors: (u32, u32),
}

impl Numbers {
    /// Any `major.x.y`.
    pub const fn major(major: u32) -> Numbers {
        Numbers::majors(major, major)
    }

    /// Any `x.y.z` with `lo <= x <= hi`.
    pub const fn majors(lo: u32, hi: u32) -> Numbers {
        Numbers {
            majors: (lo, hi),
            minors: (0, u32::MAX),
        }
    }

    /// Any `major.minor.z`.
    pub const fn exact(major: u32, minor: u32) -> Numbers {
        Numbers {
            majors: (major, major),
            minors: (minor, minor),
        }
    }

    fn contains(self, major: u32, minor: u32) -> bool {
        (self.majors.0..=self.majors.1).contains(&major)
            && (self.minors.0..=self.minors.1).contains(&minor)
    }
}

impl Family {
    /// Every game dgn xlog tells, in the order it lists them.
    pub fn all() -> &'static [&'static Family] {
        &FAMILIES
    }

    pub fn by_name(s: &str) -> Option<&'static Family> {
        Family::all()
            .iter()
            .copied()
            .find(|f| f.name.eq_ignore_ascii_case(s))
    }

    /// The game a `--target` lays out.
    pub fn of_target(t: Target) -> Option<&'static Family> {
        t.game().xlog
    }

    /// The field only this game writes, where one tells it.
    pub fn marker(&self) -> Option<&'static str> {
        self.sign.and_then(Sign::marker)
    }

    /// What the game writes before `major.minor.patch` in `version`.
    pub fn prefix(&self) -> &'static str {
        self.releases.first().map_or("", |r| r.prefix)
    }
}

/// The games `dgn xlog` has listed in this order since before NetHack
/// 3.7's forks (its `--releases` and its messages keep it); every other
/// game follows in [`Target::ALL`]'s order.
const LISTED_FIRST: [Target; 6] = [
    Target::UnNetHack,
    Target::DNetHack,
    Target::SlashEm,
    Target::EvilHack,
    Target::GnollHack,
    Target::DynaHack,
];

/// NetHack and its tournament, then each game's own, from its record.
static FAMILIES: LazyLock<Vec<&'static Family>> = LazyLock::new(|| {
    let mut all: Vec<&'static Family> = vec![&super::nethack::NETHACK, &super::nethack::TNNT];
    for t in LISTED_FIRST.into_iter().chain(Target::ALL) {
        if let Some(f) = t.game().xlog {
            if !all.contains(&f) {
                all.push(f);
            }
        }
    }
    all
});

/// A game that writes xlogfiles but whose dungeon dgnkit does not describe:
/// its lines are answered with the release it was built from, and every such
/// line says so.
#[derive(Debug, PartialEq, Eq)]
pub struct Stranger {
    /// The name `--game` takes.
    pub name: &'static str,
    pub title: &'static str,
    /// The release whose description and rules answer it.
    pub nearest: &'static str,
    /// Why that release, and what differs.
    pub why: &'static str,
    /// As [`Family::sign`].
    pub sign: Option<Sign>,
    /// As [`Family::numbers`]; a game's own numbers come first.
    pub numbers: &'static [Numbers],
}

/// AceHack (deepy/acehack): `version=3.6.0` from 2010 (include/patchlevel.h,
/// 7bd3af5), a xlogfile since 408daea (2011-06-16) written colon-separated
/// with `event`, `carried` and `mode` and no `flags` or `achieve`
/// (src/topten.c:327-393 at 9a4c767). Its dat/dungeon.def was 3.4.3's until
/// d36f54e (2011-12-28), which made Sokoban one level longer; the dungeon
/// order is 3.4.3's throughout.
pub const ACEHACK: Stranger = Stranger {
    name: "acehack",
    title: "AceHack",
    nearest: "nethack-3.4.3",
    why: "AceHack was built from NetHack 3.4.3 and keeps its dungeon order; from 2011-12-28 its Sokoban has one more level",
    sign: Some(Sign::Fields {
        has: Seen::EVENT | Seen::CARRIED,
        lacks: Seen::FLAGS | Seen::ACHIEVE,
        version: Some(b"3.6.0"),
    }),
    numbers: &[],
};

/// NetHack 4 (4.2.0-4.3.0) and its forks FIQHack and Fourk: colon-separated
/// lines with `charname` and NetHack 4's own `rngseed`, `birthoption`,
/// `extrinsic` and `starttimeus` (tsadok/nethack4 4.3-maint
/// libnethack/src/topten.c:194-285). Its dungeon order is 3.4.3's.
/// DynaHack writes `charname` too, without NetHack 4's fields.
pub const NETHACK4: Stranger = Stranger {
    name: "nethack4",
    title: "NetHack 4",
    nearest: "nethack-3.4.3",
    why: "NetHack 4 (and FIQHack, Fourk) was built from NetHack 3.4.3 and keeps its dungeon order",
    sign: Some(Sign::Fields {
        has: Seen::CHARNAME | Seen::NETHACK4,
        lacks: 0,
        version: None,
    }),
    numbers: &[],
};

/// SporkHack (0.6.x, 0.7.0): a bare 0.x.y version (k21971/SporkHack
/// src/topten.c; tab-separated on hardfought since 2017-07-01) and none of
/// EvilHack's `killed_*` fields; built from NetHack 3.4.3.
pub const SPORKHACK: Stranger = Stranger {
    name: "sporkhack",
    title: "SporkHack",
    nearest: "nethack-3.4.3",
    why: "SporkHack was built from NetHack 3.4.3 and keeps its dungeon order",
    sign: None,
    numbers: &[Numbers::major(0)],
};

pub const STRANGERS: [&Stranger; 3] = [&ACEHACK, &NETHACK4, &SPORKHACK];

/// The fields of a line that tell games apart, seen in one pass. The bits
/// are in the order signs are tried ([`identify`]): a line carrying two
/// games' fields is the game whose field comes first here, so a new
/// game's field goes last.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen(u32);

impl Seen {
    pub const TAB: u32 = 1;
    pub const TNNT: u32 = 1 << 1;
    pub const EDIT: u32 = 1 << 2;
    pub const CHARNAME: u32 = 1 << 3;
    /// One of NetHack 4's own: `rngseed`, `birthoption`, `extrinsic`,
    /// `starttimeus`.
    pub const NETHACK4: u32 = 1 << 4;
    pub const POLYINIT: u32 = 1 << 5;
    pub const ACHIEVE2: u32 = 1 << 6;
    pub const EVENT: u32 = 1 << 7;
    pub const CARRIED: u32 = 1 << 8;
    pub const FLAGS: u32 = 1 << 9;
    pub const ACHIEVE: u32 = 1 << 10;
    pub const KILLED_ARCHANGELS: u32 = 1 << 11;

    /// Notes one field's key. Dispatched on length first: a line has some 30
    /// fields and this runs for each.
    #[inline]
    pub fn note(&mut self, k: &[u8]) {
        let bit = match k.len() {
            4 if k == b"edit" => Self::EDIT,
            5 if k == b"event" => Self::EVENT,
            5 if k == b"flags" => Self::FLAGS,
            7 if k == b"carried" => Self::CARRIED,
            7 if k == b"achieve" => Self::ACHIEVE,
            7 if k == b"rngseed" => Self::NETHACK4,
            8 if k == b"charname" => Self::CHARNAME,
            8 if k == b"polyinit" => Self::POLYINIT,
            8 if k == b"achieve2" => Self::ACHIEVE2,
            9 if k == b"extrinsic" => Self::NETHACK4,
            11 if k == b"birthoption" || k == b"starttimeus" => Self::NETHACK4,
            12 if k == b"tnntachieve0" => Self::TNNT,
            17 if k == b"killed_archangels" => Self::KILLED_ARCHANGELS,
            _ => return,
        };
        self.0 |= bit;
    }

    /// The line is tab-separated.
    pub fn note_tab(&mut self) {
        self.0 |= Self::TAB;
    }

    pub fn has(self, bit: u32) -> bool {
        self.0 & bit != 0
    }

    /// Every field of a line, and its separator.
    pub fn of_line(raw: &[u8]) -> Seen {
        let mut s = Seen::default();
        if raw.contains(&b'\t') {
            s.0 |= Self::TAB;
        }
        for (k, _) in super::reader::fields(raw) {
            s.note(k);
        }
        s
    }

    /// Each field [`Seen::note`] knows, and its bit.
    pub const KEYS: [(&'static str, u32); 14] = [
        ("edit", Self::EDIT),
        ("event", Self::EVENT),
        ("flags", Self::FLAGS),
        ("carried", Self::CARRIED),
        ("achieve", Self::ACHIEVE),
        ("rngseed", Self::NETHACK4),
        ("charname", Self::CHARNAME),
        ("polyinit", Self::POLYINIT),
        ("achieve2", Self::ACHIEVE2),
        ("extrinsic", Self::NETHACK4),
        ("birthoption", Self::NETHACK4),
        ("starttimeus", Self::NETHACK4),
        ("tnntachieve0", Self::TNNT),
        ("killed_archangels", Self::KILLED_ARCHANGELS),
    ];

    /// For tests and callers that ask field by field.
    pub fn from_fields(tab: bool, has: impl Fn(&[u8]) -> bool) -> Seen {
        let mut s = Seen(if tab { Self::TAB } else { 0 });
        for (k, _) in Self::KEYS {
            if has(k.as_bytes()) {
                s.note(k.as_bytes());
            }
        }
        s
    }
}

/// Whose line it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writer {
    Family(&'static Family),
    Stranger(&'static Stranger),
}

/// How sure the identification is: a field or prefix only that game writes,
/// or the version's numbers alone (which `--target` may overrule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    Field,
    Version,
}

/// Every sign with its writer, in the order they are tried ([`Sign::rank`];
/// on a tie the games first, in [`Family::all`]'s order).
static SIGNS: LazyLock<Vec<(Sign, Writer)>> = LazyLock::new(|| {
    let games = Family::all()
        .iter()
        .filter_map(|&f| Some((f.sign?, Writer::Family(f))));
    let strangers = STRANGERS
        .iter()
        .filter_map(|&g| Some((g.sign?, Writer::Stranger(g))));
    let mut signs: Vec<(Sign, Writer)> = games.chain(strangers).collect();
    signs.sort_by_key(|(sign, _)| sign.rank());
    signs
});

/// The game that wrote a line with this `version` (its prefix included)
/// and these fields; `None` when nothing tells. What each game carries is
/// in its record ([`Family::sign`], [`Family::numbers`]); the sources are
/// cited there.
pub fn identify(version: &[u8], seen: Seen) -> Option<(Writer, By)> {
    // Fields and prefixes first: each is written by one game only.
    if let Some(&(_, w)) = SIGNS.iter().find(|(sign, _)| sign.matches(version, seen)) {
        return Some((w, By::Field));
    }
    let (major, minor, _) = parse_version(version)?;
    let told = |numbers: &[Numbers]| numbers.iter().any(|n| n.contains(major, minor));
    // A game's own numbers before a stranger's: SLASH'EM's 0.0.x within
    // SporkHack's 0.x.
    let w = match Family::all().iter().find(|f| told(f.numbers)) {
        Some(&f) => Writer::Family(f),
        None => Writer::Stranger(STRANGERS.into_iter().find(|g| told(g.numbers))?),
    };
    Some((w, By::Version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_in_one_pass_agrees_with_field_by_field() {
        let raw = b"version=4.3.0:charname=x:rngseed=1:event=0:carried=0:flags=0";
        let one = Seen::of_line(raw);
        let each = Seen::from_fields(false, |k| super::super::reader::field(raw, k).is_some());
        assert_eq!(one, each);
        assert!(one.has(Seen::NETHACK4) && one.has(Seen::CHARNAME) && !one.has(Seen::TAB));
    }
}
