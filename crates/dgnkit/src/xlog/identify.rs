//! Which game wrote an xlogfile line, from what the line carries.
//!
//! Public servers' xlogfiles mix games whose `version` values collide:
//! TNNT writes NetHack 3.6's numbers, AceHack wrote `3.6.0` in 2011, NetHack
//! 4 and GnollHack both wrote `4.3.0`, DynaHack and EvilHack `0.6.0`. So a
//! line is first told by the fields only one game writes and by its
//! separator, and only then by its version. The facts, per game, are in
//! the comments of [`identify`]; the research behind them (each writer's
//! `src/topten.c` at its release) is summarised in `dgn xlog --releases`.

use crate::options::Target;

/// A game whose lines dgn xlog answers with its own releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    NetHack,
    Tnnt,
    UnNetHack,
    DNetHack,
    SlashEm,
    EvilHack,
    GnollHack,
    DynaHack,
    XNetHack,
    SpliceHack,
    NerfHack,
    CrecelleHack,
}

impl Family {
    pub const ALL: [Family; 12] = [
        Family::NetHack,
        Family::Tnnt,
        Family::UnNetHack,
        Family::DNetHack,
        Family::SlashEm,
        Family::EvilHack,
        Family::GnollHack,
        Family::DynaHack,
        Family::XNetHack,
        Family::SpliceHack,
        Family::NerfHack,
        Family::CrecelleHack,
    ];

    /// The name `--game` takes.
    pub fn name(self) -> &'static str {
        match self {
            Family::NetHack => "nethack",
            Family::Tnnt => "tnnt",
            Family::UnNetHack => "unnethack",
            Family::DNetHack => "dnethack",
            Family::SlashEm => "slashem",
            Family::EvilHack => "evilhack",
            Family::GnollHack => "gnollhack",
            Family::DynaHack => "dynahack",
            Family::XNetHack => "xnethack",
            Family::SpliceHack => "splicehack",
            Family::NerfHack => "nerfhack",
            Family::CrecelleHack => "crecellehack",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Family::NetHack => "NetHack",
            Family::Tnnt => "TNNT",
            Family::UnNetHack => "UnNetHack",
            Family::DNetHack => "dNetHack",
            Family::SlashEm => "SLASH'EM",
            Family::EvilHack => "EvilHack",
            Family::GnollHack => "GnollHack",
            Family::DynaHack => "DynaHack",
            Family::XNetHack => "xNetHack",
            Family::SpliceHack => "SpliceHack",
            Family::NerfHack => "NerfHack",
            Family::CrecelleHack => "CrecelleHack",
        }
    }

    /// What tells the game's lines apart, in words (`--releases`).
    pub fn tells(self) -> &'static str {
        match self {
            Family::NetHack => "version 3.x.y or 5.0.0 and no other game's field",
            Family::Tnnt => "`tnntachieve0`",
            Family::UnNetHack => "version `UNH-`",
            Family::DNetHack => "version `DNH-`",
            Family::SlashEm => "version 0.0.x",
            Family::EvilHack => "`killed_archangels`",
            Family::GnollHack => "`edit` or version 4.x without `charname`",
            Family::DynaHack => "`charname` without NetHack 4's fields",
            Family::XNetHack => "`polyinit`, or version 6-9.x",
            Family::SpliceHack => "version 1.x without `achieve2`",
            Family::NerfHack => "version 2.x",
            Family::CrecelleHack => "`achieve2`",
        }
    }

    /// The field only this game writes, where one tells it.
    pub fn marker(self) -> Option<&'static str> {
        match self {
            Family::Tnnt => Some("tnntachieve0"),
            Family::GnollHack => Some("edit"),
            Family::DynaHack => Some("charname"),
            Family::EvilHack => Some("killed_archangels"),
            Family::XNetHack => Some("polyinit"),
            Family::CrecelleHack => Some("achieve2"),
            _ => None,
        }
    }

    pub fn by_name(s: &str) -> Option<Family> {
        Family::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
    }

    /// The game a `--target` lays out.
    pub fn of_target(t: Target) -> Option<Family> {
        Some(match t {
            Target::NetHack343 | Target::NetHack36 | Target::NetHack37 => Family::NetHack,
            Target::Native => return None,
            Target::EvilHack => Family::EvilHack,
            Target::UnNetHack => Family::UnNetHack,
            Target::SlashEm => Family::SlashEm,
            Target::DNetHack => Family::DNetHack,
            Target::GnollHack => Family::GnollHack,
            Target::DynaHack => Family::DynaHack,
            Target::XNetHack => Family::XNetHack,
            Target::SpliceHack => Family::SpliceHack,
            Target::NerfHack => Family::NerfHack,
            Target::CrecelleHack => Family::CrecelleHack,
        })
    }
}

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
};

/// NetHack 4 (4.2.0-4.3.0) and its forks FIQHack and Fourk: colon-separated
/// lines with `charname` and NetHack 4's own `rngseed`, `birthoption`,
/// `extrinsic` and `starttimeus` (tsadok/nethack4 4.3-maint
/// libnethack/src/topten.c:194-285). Its dungeon order is 3.4.3's.
pub const NETHACK4: Stranger = Stranger {
    name: "nethack4",
    title: "NetHack 4",
    nearest: "nethack-3.4.3",
    why: "NetHack 4 (and FIQHack, Fourk) was built from NetHack 3.4.3 and keeps its dungeon order",
};

/// SporkHack (0.6.x, 0.7.0): a bare 0.x.y version (k21971/SporkHack
/// src/topten.c; tab-separated on hardfought since 2017-07-01) and none of
/// EvilHack's `killed_*` fields; built from NetHack 3.4.3.
pub const SPORKHACK: Stranger = Stranger {
    name: "sporkhack",
    title: "SporkHack",
    nearest: "nethack-3.4.3",
    why: "SporkHack was built from NetHack 3.4.3 and keeps its dungeon order",
};

pub const STRANGERS: [&Stranger; 3] = [&ACEHACK, &NETHACK4, &SPORKHACK];

/// The fields of a line that tell games apart, seen in one pass.
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

    /// For tests and callers that ask field by field.
    pub fn from_fields(tab: bool, has: impl Fn(&[u8]) -> bool) -> Seen {
        let mut s = Seen(if tab { Self::TAB } else { 0 });
        for k in [
            &b"edit"[..],
            b"event",
            b"flags",
            b"carried",
            b"achieve",
            b"rngseed",
            b"charname",
            b"polyinit",
            b"achieve2",
            b"extrinsic",
            b"birthoption",
            b"starttimeus",
            b"tnntachieve0",
            b"killed_archangels",
        ] {
            if has(k) {
                s.note(k);
            }
        }
        s
    }
}

/// Whose line it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writer {
    Family(Family),
    Stranger(&'static Stranger),
}

/// How sure the identification is: a field or prefix only that game writes,
/// or the version's numbers alone (which `--target` may overrule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    Field,
    Version,
}

/// The game that wrote a line with this `version` (its prefix included)
/// and these fields; `None` when nothing tells.
pub fn identify(version: &[u8], seen: Seen) -> Option<(Writer, By)> {
    use Writer::{Family as F, Stranger as S};
    // Fields and prefixes first: each is written by one game only.
    let by_field = if seen.has(Seen::TNNT) {
        // TNNT: `tnntachieve0`.. after `flags` in every year (2018
        // src/topten.c:381, 2025 :382-384).
        Some(F(Family::Tnnt))
    } else if version.starts_with(b"UNH-") {
        Some(F(Family::UnNetHack))
    } else if version.starts_with(b"DNH-") {
        Some(F(Family::DNetHack))
    } else if seen.has(Seen::EDIT) {
        // GnollHack 4.1.3 edit 24 on (6e2b7839d, src/topten.c:464).
        Some(F(Family::GnollHack))
    } else if seen.has(Seen::CHARNAME) {
        // NetHack 4 and DynaHack both write `charname`; only NetHack 4 its
        // seed, birth options and microsecond times.
        Some(if seen.has(Seen::NETHACK4) {
            S(&NETHACK4)
        } else {
            F(Family::DynaHack)
        })
    } else if seen.has(Seen::POLYINIT) {
        // xNetHack 9.1 src/topten.c:398-399.
        Some(F(Family::XNetHack))
    } else if seen.has(Seen::ACHIEVE2) {
        // CrecelleHack 1.5.1 src/topten.c:368-370.
        Some(F(Family::CrecelleHack))
    } else if version == b"3.6.0"
        && seen.has(Seen::EVENT)
        && seen.has(Seen::CARRIED)
        && !seen.has(Seen::FLAGS)
        && !seen.has(Seen::ACHIEVE)
    {
        Some(S(&ACEHACK))
    } else if seen.has(Seen::KILLED_ARCHANGELS) {
        // EvilHack since 0c8b52d56 (2019-05-19); UnNetHack's field is
        // `killed_weeping_archangels` and it writes `UNH-`.
        Some(F(Family::EvilHack))
    } else {
        None
    };
    if let Some(w) = by_field {
        return Some((w, By::Field));
    }
    let (major, minor, _) = super::release::parse_version(version)?;
    let w = match (major, minor) {
        (3, _) | (5, 0) => F(Family::NetHack),
        (0, 0) => F(Family::SlashEm),
        // EvilHack writes `killed_archangels` in every release (seen
        // above); SporkHack writes the same numbers without it, with tabs
        // on hardfought since 2017.
        (0, _) => S(&SPORKHACK),
        (1, _) => F(Family::SpliceHack),
        (2, _) => F(Family::NerfHack),
        // NetHack 4 writes `charname` (seen above): a 4.x line without it is
        // GnollHack's, from before its `edit` field.
        (4, _) => F(Family::GnollHack),
        (6..=9, _) => F(Family::XNetHack),
        _ => return None,
    };
    Some((w, By::Version))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(version: &str, tab: bool, fields: &[&str]) -> Option<Writer> {
        let seen = Seen::from_fields(tab, |k| fields.iter().any(|f| f.as_bytes() == k));
        identify(version.as_bytes(), seen).map(|(w, _)| w)
    }

    #[test]
    fn colliding_versions_are_told_by_their_fields() {
        use Writer::{Family as F, Stranger as S};
        assert_eq!(
            who("3.6.7", true, &["flags", "tnntachieve0"]),
            Some(F(Family::Tnnt))
        );
        assert_eq!(who("3.6.7", true, &["flags"]), Some(F(Family::NetHack)));
        assert_eq!(
            who("3.6.0", false, &["event", "carried"]),
            Some(S(&ACEHACK))
        );
        assert_eq!(
            who("3.6.0", true, &["flags", "event", "carried"]),
            Some(F(Family::NetHack))
        );
        assert_eq!(
            who("4.3.0", false, &["charname", "rngseed", "event"]),
            Some(S(&NETHACK4))
        );
        assert_eq!(who("4.3.0", true, &["edit"]), Some(F(Family::GnollHack)));
        assert_eq!(who("4.1.3", true, &[]), Some(F(Family::GnollHack)));
        assert_eq!(
            who("0.6.0", false, &["charname"]),
            Some(F(Family::DynaHack))
        );
        assert_eq!(
            who("0.6.0", true, &["killed_archangels"]),
            Some(F(Family::EvilHack))
        );
        assert_eq!(who("0.6.0", true, &[]), Some(S(&SPORKHACK)));
        assert_eq!(who("0.6.2", false, &[]), Some(S(&SPORKHACK)));
        assert_eq!(who("UNH-6.0.3", true, &[]), Some(F(Family::UnNetHack)));
        assert_eq!(who("DNH-3.19.1", false, &[]), Some(F(Family::DNetHack)));
        assert_eq!(who("9.1.0", true, &["polyinit"]), Some(F(Family::XNetHack)));
        // NetHack 4's own fields tell it only beside `charname`.
        assert_eq!(
            who("9.1.0", true, &["polyinit", "rngseed"]),
            Some(F(Family::XNetHack))
        );
        assert_eq!(
            who("1.5.1", true, &["achieve2"]),
            Some(F(Family::CrecelleHack))
        );
        assert_eq!(who("5.0.0", true, &[]), Some(F(Family::NetHack)));
        assert_eq!(who("12.0.0", true, &[]), None);
        assert_eq!(who("NH-1", true, &[]), None);
    }

    #[test]
    fn seen_in_one_pass_agrees_with_field_by_field() {
        let raw = b"version=4.3.0:charname=x:rngseed=1:event=0:carried=0:flags=0";
        let one = Seen::of_line(raw);
        let each = Seen::from_fields(false, |k| super::super::reader::field(raw, k).is_some());
        assert_eq!(one, each);
        assert!(one.has(Seen::NETHACK4) && one.has(Seen::CHARNAME) && !one.has(Seen::TAB));
    }
}
