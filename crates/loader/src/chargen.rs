//! The hero a new game makes before `o_init`: NetHack 3.6's character
//! selection, which draws from the game's generator when a facet (role,
//! race, gender, alignment) is `random`, and so moves every draw after it.
//!
//! The algorithm is 3.6.2-3.6.7's (their `src/role.c` and
//! `win/tty/wintty.c` agree on it): `tty_player_selection()`
//! (wintty.c:477-935) turns each unspecified facet into `random` the way
//! `nethack -@` does (`flags.randomall`, wintty.c:498-507), calls
//! `rigid_role_checks()` (role.c:1325-1370), which picks a random role,
//! then race, alignment and gender in that order, and then picks again any
//! facet still invalid (wintty.c:555-905). A game describes its `roles[]`
//! and `races[]` as data ([`Characters`]); `dgnkit::games` fills it in.

use crate::rng::{Drawer, Site, Source, Trace};

/// A facet's allowed values as a mask, NetHack's `allow` field in its own
/// bits: races, then genders, then alignments.
pub type Allow = u16;

pub const HUMAN: Allow = 1;
pub const ELF: Allow = 1 << 1;
pub const DWARF: Allow = 1 << 2;
pub const GNOME: Allow = 1 << 3;
pub const ORC: Allow = 1 << 4;
pub const MALE: Allow = 1 << 8;
pub const FEMALE: Allow = 1 << 9;
pub const LAWFUL: Allow = 1 << 12;
pub const NEUTRAL: Allow = 1 << 13;
pub const CHAOTIC: Allow = 1 << 14;

const GENDERS: [(Allow, &str, &str); 2] = [(MALE, "male", "Mal"), (FEMALE, "female", "Fem")];
/// `aligns[]` (role.c:760-765): lawful, neutral, chaotic.
const ALIGNS: [(Allow, &str, &str); 3] = [
    (LAWFUL, "lawful", "Law"),
    (NEUTRAL, "neutral", "Neu"),
    (CHAOTIC, "chaotic", "Cha"),
];

/// One entry of a game's `roles[]`, with what `role_init` draws for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoleRow {
    /// `filecode`.
    pub code: &'static str,
    pub name: &'static str,
    /// The female name where it differs (`name.f`).
    pub female: Option<&'static str>,
    pub allow: Allow,
    /// Quest leader and nemesis without a gender: one `rn2(100)` each.
    pub gender_rolls: u32,
    /// No gods of its own (`lgod` is 0): `role_init` borrows a pantheon.
    pub godless: bool,
}

/// One entry of a game's `races[]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceRow {
    pub code: &'static str,
    /// `noun` ("elf"), which options match by prefix.
    pub noun: &'static str,
    /// `adj` ("elven"), as the welcome message says it.
    pub adj: &'static str,
    pub allow: Allow,
}

/// A game's `roles[]` and `races[]`, in the game's order (`randrole` and
/// the pickers count in it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Characters {
    pub roles: &'static [RoleRow],
    pub races: &'static [RaceRow],
    /// `role_init`'s pantheon loop: how many `randrole` draws it allows
    /// (3.6's loop has no bound, role.c:2098-2099; this one stops where
    /// no generator would still be drawing a godless role).
    pub pantheon_tries: u32,
}

/// What the run asked of one facet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pick {
    /// Not given: chosen at random, as `nethack -@` does.
    #[default]
    Unset,
    /// `random` (NetHack's `role:random`, `*` or `@`).
    Random,
    /// An index into the facet's table.
    Given(u8),
}

/// The character a run asks for, facet by facet (indices into the game's
/// tables: roles, races, `GENDERS`, `ALIGNS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wanted {
    pub role: Pick,
    pub race: Pick,
    pub gender: Pick,
    pub align: Pick,
    /// What the game does with an unset facet.
    pub unset: Unset,
}

/// What becomes of the facets no option names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unset {
    /// Random from the start, as `nethack -@` makes them
    /// (`flags.randomall`, wintty.c:498-507): picked with the random ones
    /// in `rigid_role_checks()`.
    #[default]
    RandomAll,
    /// The game asks "Shall I pick ...? [ynaq]" and is answered `y`, as
    /// NLE's `reset()` answers it (a space, which `tty_player_selection`
    /// reads as `y`, wintty.c:530-534): `rigid_role_checks()` fills only
    /// what one choice allows, and the rest is picked after, role, race,
    /// gender, alignment in turn (wintty.c:555-905).
    Prompted,
}

impl Wanted {
    /// Whether any facet is left to the game's random choice.
    pub fn chooses(&self) -> bool {
        [self.role, self.race, self.gender, self.align]
            .iter()
            .any(|p| !matches!(p, Pick::Given(_)))
    }
}

/// The hero the game made: indices into the game's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Character {
    pub role: u8,
    pub race: u8,
    pub gender: u8,
    pub align: u8,
}

/// What a run's options name for one facet, before a game's tables give
/// it an index: NetHack's own words, matched as its options match them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Asked {
    #[default]
    Unset,
    Random,
    Named(String),
}

impl Asked {
    /// `*` and `@` are random; any other word is a name, or `random` when
    /// no name begins with it (NetHack's `str2role()` and friends try the
    /// names first, role.c:829-846): [`Asked::random_word`].
    pub fn parse(s: &str) -> Asked {
        let t = s.trim();
        if t == "*" || t == "@" {
            Asked::Random
        } else {
            Asked::Named(t.to_string())
        }
    }

    /// A prefix of "random", which means random when it names nothing.
    pub fn random_word(s: &str) -> bool {
        let t = s.trim().to_ascii_lowercase();
        !t.is_empty() && "random".starts_with(&t)
    }

    pub fn is_set(&self) -> bool {
        !matches!(self, Asked::Unset)
    }
}

/// The four facets as asked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CharacterAsk {
    pub role: Asked,
    pub race: Asked,
    pub gender: Asked,
    pub align: Asked,
}

impl CharacterAsk {
    pub fn is_empty(&self) -> bool {
        !(self.role.is_set() || self.race.is_set() || self.gender.is_set() || self.align.is_set())
    }
}

impl CharacterAsk {
    /// The player's name's `-Role-Race-Gender-Alignment` suffix applied
    /// over what the options asked, as NetHack's `plnamesuffix()` does
    /// after reading the options (3.6.7 role.c:1709-1748): each token
    /// after a `-` sets the first facet whose words it matches, tried in
    /// the order role, race, gender, alignment (`str2role()` and friends,
    /// role.c:816-960, `*`, `@` and prefixes of "random" as random for
    /// the first); a token that matches nothing is ignored.
    pub fn with_name_suffix(mut self, table: &Characters, name: &str) -> CharacterAsk {
        let words = table.words();
        for token in name.split('-').skip(1).filter(|t| !t.is_empty()) {
            let random =
                (token.len() == 1 && matches!(token, "*" | "@")) || Asked::random_word(token);
            let facets = [
                &mut self.role,
                &mut self.race,
                &mut self.gender,
                &mut self.align,
            ];
            for (facet, entries) in facets.into_iter().zip(&words) {
                if entries
                    .iter()
                    .any(|(names, code)| matches(token, names, code))
                {
                    *facet = Asked::Named(token.to_string());
                    break;
                }
                if random {
                    *facet = Asked::Random;
                    break;
                }
            }
        }
        self
    }
}

/// How a name matches a table entry: a prefix of its name (or female
/// name), or its code exactly, without regard to case (role.c:829-841).
fn matches(s: &str, names: &[&str], code: &str) -> bool {
    let s = s.to_ascii_lowercase();
    !s.is_empty()
        && (names.iter().any(|n| n.to_ascii_lowercase().starts_with(&s))
            || s == code.to_ascii_lowercase())
}

impl Characters {
    /// The run's facets as indices into this game's tables; a name the
    /// game does not know is an error that lists what it knows.
    pub fn wanted(&self, ask: &CharacterAsk) -> Result<Wanted, String> {
        fn pick(asked: &Asked, what: &str, entries: &[(Vec<&str>, &str)]) -> Result<Pick, String> {
            match asked {
                Asked::Unset => Ok(Pick::Unset),
                Asked::Random => Ok(Pick::Random),
                Asked::Named(s) => match entries
                    .iter()
                    .position(|(names, code)| matches(s, names, code))
                {
                    Some(i) => Ok(Pick::Given(i as u8)),
                    None if Asked::random_word(s) => Ok(Pick::Random),
                    None => Err({
                        let known: Vec<String> = entries
                            .iter()
                            .map(|(n, c)| format!("{} ({c})", n[0]))
                            .collect();
                        format!(
                            "unknown {what} `{s}` (a name, a prefix of one, its code, or `random`: {})",
                            known.join(", ")
                        )
                    }),
                },
            }
        }
        let [roles, races, genders, aligns] = self.words();
        let wanted = Wanted {
            role: pick(&ask.role, "role", &roles)?,
            race: pick(&ask.race, "race", &races)?,
            gender: pick(&ask.gender, "gender", &genders)?,
            align: pick(&ask.align, "alignment", &aligns)?,
            unset: Unset::default(),
        };
        self.check_possible(&wanted)?;
        Ok(wanted)
    }

    /// Each facet's entries as the game's options name them: names (a
    /// prefix matches) and a code (matched whole).
    fn words(&self) -> [Vec<(Vec<&'static str>, &'static str)>; 4] {
        [
            self.roles
                .iter()
                .map(|r| (std::iter::once(r.name).chain(r.female).collect(), r.code))
                .collect(),
            self.races.iter().map(|r| (vec![r.noun], r.code)).collect(),
            GENDERS.iter().map(|g| (vec![g.1], g.2)).collect(),
            ALIGNS.iter().map(|a| (vec![a.1], a.2)).collect(),
        ]
    }

    /// A run that names facets no hero can have together would make the
    /// game ask the player (wintty.c:586-635's menus): refused here.
    fn check_possible(&self, w: &Wanted) -> Result<(), String> {
        let fits = |p: Pick, i: usize| !matches!(p, Pick::Given(g) if g as usize != i);
        let possible = (0..self.roles.len()).any(|role| {
            fits(w.role, role)
                && (0..self.races.len()).any(|race| {
                    fits(w.race, race)
                        && (0..2).any(|g| {
                            fits(w.gender, g)
                                && (0..3).any(|a| {
                                    fits(w.align, a) && self.valid(role, race, Some(g), Some(a))
                                })
                        })
                })
        });
        if possible {
            Ok(())
        } else {
            Err(format!(
                "no hero is {} (the game would ask for another choice)",
                self.describe_wanted(w)
            ))
        }
    }

    fn describe_wanted(&self, w: &Wanted) -> String {
        let mut words = Vec::new();
        if let Pick::Given(a) = w.align {
            words.push(ALIGNS[a as usize].1);
        }
        if let Pick::Given(g) = w.gender {
            words.push(GENDERS[g as usize].1);
        }
        if let Pick::Given(r) = w.race {
            words.push(self.races[r as usize].adj);
        }
        if let Pick::Given(r) = w.role {
            words.push(self.roles[r as usize].name);
        }
        words.join(" ")
    }

    /// `validrace`/`validgend`/`validalign` (role.c:851-1017) together.
    fn valid(&self, role: usize, race: usize, gender: Option<usize>, align: Option<usize>) -> bool {
        let both = self.roles[role].allow & self.races[race].allow;
        both & RACE_MASK != 0
            && gender.is_none_or(|g| both & GENDERS[g].0 != 0)
            && align.is_none_or(|a| both & ALIGNS[a].0 != 0)
    }

    /// The welcome message's words: "lawful female human Samurai"
    /// (allmain.c's `welcome()`: the gender only for a role whose name
    /// does not say it and that allows both).
    pub fn describe(&self, c: Character) -> String {
        let role = &self.roles[c.role as usize];
        let female = c.gender == 1;
        let name = match (female, role.female) {
            (true, Some(f)) => f,
            _ => role.name,
        };
        let mut words = vec![ALIGNS[c.align as usize].1];
        if role.female.is_none() && role.allow & (MALE | FEMALE) == MALE | FEMALE {
            words.push(GENDERS[c.gender as usize].1);
        }
        words.push(self.races[c.race as usize].adj);
        words.push(name);
        words.join(" ")
    }

    /// The four facets by name: role (as the hero is called), race noun,
    /// gender, alignment.
    pub fn facets(&self, c: Character) -> [&'static str; 4] {
        let role = &self.roles[c.role as usize];
        let name = match (c.gender == 1, role.female) {
            (true, Some(f)) => f,
            _ => role.name,
        };
        [
            name,
            self.races[c.race as usize].noun,
            GENDERS[c.gender as usize].1,
            ALIGNS[c.align as usize].1,
        ]
    }

    pub fn role(&self, c: Character) -> &RoleRow {
        &self.roles[c.role as usize]
    }

    /// Makes the selection's draws; returns the hero and how many draws.
    pub fn choose<S: Source, T: Trace>(
        &self,
        w: Wanted,
        draw: &mut Drawer<'_, S, T>,
    ) -> (Character, u32) {
        Selection {
            t: self,
            draw,
            made: 0,
            role: facet(w.role, w.unset),
            race: facet(w.race, w.unset),
            gender: facet(w.gender, w.unset),
            align: facet(w.align, w.unset),
        }
        .run()
    }
}

const RACE_MASK: Allow = HUMAN | ELF | DWARF | GNOME | ORC;

/// NetHack's facet values: an index, or `ROLE_NONE` (-1), `ROLE_RANDOM`
/// (-2).
const NONE: i32 = -1;
const RANDOM: i32 = -2;

/// A facet as `rigid_role_checks()` finds it: with `flags.randomall` an
/// unset facet has become random (wintty.c:498-507); prompted, it is
/// still `ROLE_NONE`.
fn facet(p: Pick, unset: Unset) -> i32 {
    match (p, unset) {
        (Pick::Unset, Unset::Prompted) => NONE,
        (Pick::Unset | Pick::Random, _) => RANDOM,
        (Pick::Given(i), _) => i32::from(i),
    }
}

struct Selection<'t, 'd, 'a, S: Source, T: Trace> {
    t: &'t Characters,
    draw: &'d mut Drawer<'a, S, T>,
    made: u32,
    role: i32,
    race: i32,
    gender: i32,
    align: i32,
}

impl<S: Source, T: Trace> Selection<'_, '_, '_, S, T> {
    fn rn2(&mut self, n: usize) -> usize {
        self.made += 1;
        self.draw.rn2(n.max(1) as u32, Site::Character) as usize
    }

    fn role_allow(&self, i: i32) -> Option<Allow> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.t.roles.get(i))
            .map(|r| r.allow)
    }

    fn race_allow(&self, i: i32) -> Option<Allow> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.t.races.get(i))
            .map(|r| r.allow)
    }

    /// `ok_role` (role.c:1046-1088) without a role filter.
    fn ok_role(&self, role: i32, race: i32, gender: i32, align: i32) -> bool {
        let fits = |allow| fits_beside(allow, self.race_allow(race), gender, align);
        match self.role_allow(role) {
            Some(allow) => fits(allow),
            None => self.t.roles.iter().any(|r| fits(r.allow)),
        }
    }

    /// `ok_race` (role.c:1118-1158).
    fn ok_race(&self, role: i32, race: i32, gender: i32, align: i32) -> bool {
        let fits = |allow| fits_beside(allow, self.role_allow(role), gender, align);
        match self.race_allow(race) {
            Some(allow) => fits(allow),
            None => self.t.races.iter().any(|r| fits(r.allow)),
        }
    }

    /// `ok_gend` (role.c:1188-1225).
    fn ok_gend(&self, role: i32, race: i32, gender: i32) -> bool {
        let fits = |allow: Allow| {
            self.role_allow(role).is_none_or(|r| allow & r != 0)
                && self.race_allow(race).is_none_or(|r| allow & r != 0)
        };
        match gender_allow(gender) {
            Some(allow) => fits(allow),
            None => GENDERS.iter().any(|g| fits(g.0)),
        }
    }

    /// `ok_align` (role.c:1255-1292).
    fn ok_align(&self, role: i32, race: i32, align: i32) -> bool {
        let fits = |allow: Allow| {
            self.role_allow(role).is_none_or(|r| allow & r != 0)
                && self.race_allow(race).is_none_or(|r| allow & r != 0)
        };
        match align_allow(align) {
            Some(allow) => fits(allow),
            None => ALIGNS.iter().any(|a| fits(a.0)),
        }
    }

    /// One of the `n` entries that `ok(i)` accepts, by `rn2` of their
    /// number; `NONE` when there is none (the `pick_*` functions with
    /// `PICK_RANDOM`). The accepted entries are a bit set, so each is
    /// judged once: a seed search makes this choice for every seed.
    fn pick_among(&mut self, n: usize, ok: impl Fn(&Self, i32) -> bool) -> i32 {
        let set = (0..n.min(64) as i32)
            .filter(|&i| ok(self, i))
            .fold(0u64, |m, i| m | 1 << i);
        if set == 0 {
            return NONE;
        }
        let k = self.rn2(set.count_ones() as usize);
        nth_bit(set, k)
    }

    /// `pick_role` (role.c:1094-1114).
    fn pick_role(&mut self) -> i32 {
        let (race, gender, align) = (self.race, self.gender, self.align);
        if race < 0 && gender < 0 && align < 0 {
            // Nothing chosen yet (`nethack -@`, NLE's `@`): the checks
            // below come to "some race and some gender fit the role",
            // which a seed search need not work out role by role.
            let t = self.t;
            let set = t
                .roles
                .iter()
                .take(64)
                .enumerate()
                .filter(|(_, r)| {
                    r.allow & (MALE | FEMALE) != 0
                        && t.races.iter().any(|x| r.allow & x.allow & RACE_MASK != 0)
                })
                .fold(0u64, |m, (i, _)| m | 1 << i);
            if set == 0 {
                return NONE;
            }
            let k = self.rn2(set.count_ones() as usize);
            return nth_bit(set, k);
        }
        let or_random = |x: i32| if x >= 0 { x } else { RANDOM };
        self.pick_among(self.t.roles.len(), |s, i| {
            s.ok_role(i, race, gender, align)
                && s.ok_race(i, or_random(race), gender, align)
                && s.ok_gend(i, race, or_random(gender))
                && s.ok_race(i, race, gender, or_random(align))
        })
    }

    /// `pick_race` (role.c:1162-1184).
    fn pick_race(&mut self) -> i32 {
        let (role, gender, align) = (self.role, self.gender, self.align);
        self.pick_among(self.t.races.len(), |s, i| s.ok_race(role, i, gender, align))
    }

    /// `pick_gend` (role.c:1230-1251).
    fn pick_gend(&mut self) -> i32 {
        let (role, race) = (self.role, self.race);
        self.pick_among(GENDERS.len(), |s, i| s.ok_gend(role, race, i))
    }

    /// `pick_align` (role.c:1299-1320).
    fn pick_align(&mut self) -> i32 {
        let (role, race) = (self.role, self.race);
        self.pick_among(ALIGNS.len(), |s, i| s.ok_align(role, race, i))
    }

    /// The `n` entries `ok` accepts, one of them by `rn2(n * scale) /
    /// scale`, else `rn2(total)` (`randrace` scales by 100, role.c:861-885;
    /// `randgend`, `randalign` do not, role.c:927-952, 993-1018).
    fn random_of(&mut self, total: usize, scale: usize, ok: impl Fn(usize) -> bool) -> i32 {
        let set = (0..total.min(64))
            .filter(|&i| ok(i))
            .fold(0u64, |m, i| m | 1 << i);
        if set == 0 {
            return self.rn2(total) as i32;
        }
        let count = set.count_ones() as usize;
        let k = (self.rn2(count * scale) / scale).min(count - 1);
        nth_bit(set, k)
    }

    /// The one of the `n` entries `ok` accepts, or `NONE` when there are
    /// none or several (`PICK_RIGID`). The one is still drawn for, by
    /// `rn2(1)`, as the `pick_*` functions do for any choice (role.c:1176,
    /// 1244, 1313).
    fn rigid(&mut self, n: usize, ok: impl Fn(&Self, i32) -> bool) -> i32 {
        let mut found = (0..n as i32).filter(|&i| ok(self, i));
        match (found.next(), found.next()) {
            (Some(i), None) => {
                self.rn2(1);
                i
            }
            _ => NONE,
        }
    }

    /// `randrole_filtered` (role.c:803-816) without filters: any role.
    fn randrole(&mut self) -> i32 {
        self.rn2(self.t.roles.len()) as i32
    }

    fn both(&self) -> Allow {
        self.role_allow(self.role).unwrap_or(0) & self.race_allow(self.race).unwrap_or(0)
    }

    fn run(mut self) -> (Character, u32) {
        // rigid_role_checks (role.c:1336-1357).
        if self.role == RANDOM {
            self.role = self.pick_role();
            if self.role < 0 {
                self.role = self.randrole();
            }
        }
        if self.race == RANDOM {
            let k = self.pick_race();
            if k != NONE {
                self.race = k;
            }
        }
        if self.align == RANDOM {
            let k = self.pick_align();
            if k != NONE {
                self.align = k;
            }
        }
        if self.gender == RANDOM {
            let k = self.pick_gend();
            if k != NONE {
                self.gender = k;
            }
        }
        // With a role, a facet still unset takes the one value it can
        // have, if only one (`PICK_RIGID`, role.c:1359-1369; no draw).
        if self.role >= 0 {
            if self.race == NONE {
                self.race = self.rigid(self.t.races.len(), |s, i| {
                    s.ok_race(s.role, i, s.gender, s.align)
                });
            }
            if self.align == NONE {
                self.align = self.rigid(ALIGNS.len(), |s, i| s.ok_align(s.role, s.race, i));
            }
            if self.gender == NONE {
                self.gender = self.rigid(GENDERS.len(), |s, i| s.ok_gend(s.role, s.race, i));
            }
        }
        // Prompted and answered `y`: a role still unset is picked first
        // (wintty.c:555-563, `randrole(FALSE)` when none fits).
        if self.role < 0 {
            self.role = self.pick_role();
            if self.role < 0 {
                self.role = self.randrole();
            }
        }
        // tty_player_selection's picks for what is still unset or invalid
        // (wintty.c:636-648 race, 725-741 gender, 820-832 alignment); a
        // facet given and invalid is refused before the run
        // (`Characters::wanted`), so only random ones reach here.
        let role = self.role as usize;
        let race_ok = |s: &Self| {
            usize::try_from(s.race).ok().is_some_and(|r| {
                r < s.t.races.len() && s.t.roles[role].allow & s.t.races[r].allow & RACE_MASK != 0
            })
        };
        if !race_ok(&self) {
            self.race = self.pick_race();
            if self.race < 0 {
                let role_allow = self.t.roles[role].allow;
                let races = self.t.races;
                self.race = self.random_of(races.len(), 100, |i| {
                    role_allow & races[i].allow & RACE_MASK != 0
                });
            }
        }
        if !(0..2).contains(&self.gender) || self.both() & GENDERS[self.gender as usize].0 == 0 {
            self.gender = self.pick_gend();
            if self.gender < 0 {
                let both = self.both();
                self.gender = self.random_of(GENDERS.len(), 1, |i| both & GENDERS[i].0 != 0);
            }
        }
        if !(0..3).contains(&self.align) || self.both() & ALIGNS[self.align as usize].0 == 0 {
            self.align = self.pick_align();
            if self.align < 0 {
                let both = self.both();
                self.align = self.random_of(ALIGNS.len(), 1, |i| both & ALIGNS[i].0 != 0);
            }
        }
        let hero = Character {
            role: self.role as u8,
            race: self.race as u8,
            gender: self.gender as u8,
            align: self.align as u8,
        };
        (hero, self.made)
    }
}

/// The index of the `k`-th set bit of `set` (from 0, lowest first).
fn nth_bit(mut set: u64, k: usize) -> i32 {
    for _ in 0..k {
        set &= set - 1;
    }
    set.trailing_zeros() as i32
}

/// Whether a role's (or race's) `allow` fits the race (or role) chosen,
/// if any, and the gender and alignment chosen, if any: the test
/// `ok_role` and `ok_race` share (role.c:1046-1158).
fn fits_beside(allow: Allow, other: Option<Allow>, gender: i32, align: i32) -> bool {
    other.is_none_or(|o| allow & o & RACE_MASK != 0)
        && gender_allow(gender).is_none_or(|g| allow & g != 0)
        && align_allow(align).is_none_or(|a| allow & a != 0)
}

fn gender_allow(i: i32) -> Option<Allow> {
    usize::try_from(i)
        .ok()
        .and_then(|i| GENDERS.get(i))
        .map(|g| g.0)
}

fn align_allow(i: i32) -> Option<Allow> {
    usize::try_from(i)
        .ok()
        .and_then(|i| ALIGNS.get(i))
        .map(|a| a.0)
}
