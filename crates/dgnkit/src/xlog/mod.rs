//! Deaths from an xlogfile: where each game ended and whether it could
//! have left a bones file there.
//!
//! - [`reader`]: the file as a stream of lines and a line as fields;
//! - [`identify`]: which game wrote a line, by what it carries;
//! - [`release`]: which release wrote a line (its `version`), its target
//!   and built-in dungeon description (each game's releases are in its
//!   record; [`nethack`] holds NetHack's and the tournament's);
//! - [`ending`]: how the game ended and in which mode, and what that rules
//!   out for bones;
//! - [`answers`]: per (dungeon number, depth) the dungeon, level, special
//!   level and bones chance, from the exact statistics, computed once per
//!   description;
//! - [`filter`]: the `--where` language;
//! - [`summary`] and [`html`]: what a person reads.
//!
//! [`Xlog`] ties them together: each line costs its parsing and a table
//! lookup.

pub mod answers;
pub mod ending;
mod explain;
pub mod filter;
pub mod html;
pub mod identify;
pub mod json;
pub mod nethack;
pub mod reader;
pub mod release;
pub mod summary;

pub use explain::explain;

use crate::options::Target;
use crate::script::Script;
use answers::{Answers, PlaceAnswer};
use ending::{End, Mode};
use filter::Filter;
use release::{Release, RELEASES};
use std::borrow::Cow;

/// How to read the lines.
#[derive(Default)]
pub struct Options {
    /// Accept only lines of this target.
    pub target: Option<Target>,
    /// The game (or release) of every line, as `--game` names it.
    pub game: Option<release::Choice>,
    /// A dungeon description to use for every line instead of the release's
    /// built-in one.
    pub file: Option<Description>,
    pub filter: Option<Filter>,
}

/// A dungeon description given for every line (`--file`).
pub struct Description {
    /// Its name for messages.
    pub name: String,
    pub script: Script,
    /// The game whose loader lays it out.
    pub target: Target,
}

/// A line that could not be read as a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    pub line: u64,
    pub error: String,
}

/// A game read from a line: indices into the [`Xlog`]'s tables.
#[derive(Clone, Copy, Debug)]
pub struct Game<'a> {
    pub line: u64,
    pub raw: &'a [u8],
    /// The line's `version` value.
    pub version: &'a [u8],
    pub release: &'static Release,
    /// Why the release is not the line's own (an index into the notes).
    note: Option<u32>,
    /// The release's [`Release::id`], and the game's index into
    /// [`Xlog::ruled_out`]: found once a line.
    release_id: usize,
    ruled_out: usize,
    table: usize,
    place: usize,
    pub dnum: i64,
    pub depth: i64,
    pub end: End,
    pub mode: Mode,
}

/// Per place: what the summary counts.
#[derive(Clone, Copy, Debug, Default)]
struct Count {
    deaths: u64,
    /// Deaths in a mode that leaves bones to the level and the roll.
    bones_deaths: u64,
}

struct Table {
    /// The description's name, for messages.
    file: String,
    /// Why lines of this table cannot be answered (no built-in
    /// description, a loader dgnkit does not reproduce).
    refused: Option<String>,
    target: Target,
    answers: Answers,
    counts: Vec<Count>,
}

/// Reads games and keeps the summary's counts.
pub struct Xlog {
    opts: Options,
    /// One per release, then one for `--file`.
    tables: Vec<Option<Table>>,
    /// What a line rules out, per release, [`End`] and [`Mode`]: made once.
    ruled_out: Vec<Option<String>>,
    /// The same as the JSON members `"bones_p":0,"bones_why":".."`.
    ruled_out_json: Vec<Option<String>>,
    /// Every distinct [`release::Answered::note`], once, with the number of
    /// games it was given to.
    notes: Vec<(String, u64)>,
    pub(crate) totals: summary::Totals,
    /// The fields of the line read last, and where that line is (its
    /// address and length): [`Xlog::json`] of that game splits it again
    /// only if the game is another line's.
    split: reader::Split,
    split_of: (usize, usize),
    /// The last few [`Plan`]s made, each with its line's keys, newest
    /// first: a file mixes a few kinds of line (a field written only
    /// sometimes, a release's new field).
    plans: Vec<(reader::Keys, Plan)>,
    /// The line fields `--where` compares, and whether a game's line had
    /// each: one that none had is most likely misspelt.
    filter_fields: Vec<(String, bool)>,
    /// The keys of the first game's line, to suggest a misspelt field.
    first_keys: Vec<String>,
    /// [`release::answer`] per `version` value and [`identify::Seen`]:
    /// a file holds a few distinct ones and a line costs a look here.
    answered: Vec<(Vec<u8>, identify::Seen, Answer)>,
}

/// What [`Xlog::read`] takes from a line's keys: the fields that tell
/// games apart, and which field holds each of the six it reads (the last
/// of a key's fields, if it has several). A file's lines nearly all have
/// the same keys, so a plan is made once for a run of them.
#[derive(Clone, Copy, Debug, Default)]
struct Plan {
    seen: identify::Seen,
    version: Option<u16>,
    dnum: Option<u16>,
    lev: Option<u16>,
    death: Option<u16>,
    flags: Option<u16>,
    mode: Option<u16>,
}

impl Plan {
    fn of(split: &reader::Split, raw: &[u8]) -> Plan {
        let mut p = Plan::default();
        if split.separator() == b'\t' {
            p.seen.note_tab();
        }
        // Dispatched on the key's first byte and length first: a line has
        // some 26 fields and these six are all that is read here.
        for (i, span) in split.spans().iter().enumerate() {
            let k = span.key(raw);
            p.seen.note(k);
            let slot = match (k.first(), k.len()) {
                (Some(b'v'), 7) => &mut p.version,
                (Some(b'd'), 9) if key_is(k, b"deathdnum") => &mut p.dnum,
                (Some(b'd'), 8) => &mut p.lev,
                (Some(b'd'), 5) => &mut p.death,
                (Some(b'f'), 5) => &mut p.flags,
                (Some(b'm'), 4) => &mut p.mode,
                _ => continue,
            };
            let want: &[u8] = match k.len() {
                7 => b"version",
                9 => b"deathdnum",
                8 => b"deathlev",
                5 if k[0] == b'd' => b"death",
                5 => b"flags",
                _ => b"mode",
            };
            if key_is(k, want) {
                // A line has at most `MAX_LINE` (64 KiB) bytes, so fewer
                // than 65,536 fields: the index fits.
                *slot = u16::try_from(i).ok();
            }
        }
        p
    }
}

/// The release answering a line, its [`Release::id`] and the index of its
/// note, or why none.
type Answer = Result<(&'static Release, usize, Option<u32>), String>;

/// More distinct (version, fields seen) pairs than this are answered
/// without keeping them.
const ANSWERED_KEPT: usize = 64;

/// How many [`Plan`]s are kept.
const PLANS_KEPT: usize = 4;

const ENDS: usize = 7;
const MODES: usize = Mode::ALL.len();

fn ruled_out_index(release_id: usize, end: End, mode: Mode) -> usize {
    (release_id * ENDS + end as usize) * MODES + mode as usize
}

impl Xlog {
    pub fn new(opts: Options) -> Xlog {
        let ruled_out: Vec<Option<String>> = RELEASES
            .iter()
            .flat_map(|r| {
                summary::END_ORDER.iter().flat_map(move |&e| {
                    Mode::ALL.map(|m| (ruled_out_index(r.id(), e, m), ending::ruled_out(r, e, m)))
                })
            })
            .fold(
                vec![None; RELEASES.len() * ENDS * MODES],
                |mut v, (i, why)| {
                    v[i] = why;
                    v
                },
            );
        let ruled_out_json = ruled_out
            .iter()
            .map(|why| why.as_ref().map(|w| answers::bones_json(0.0, w)))
            .collect();
        Xlog {
            filter_fields: filter_fields(opts.filter.as_ref()),
            opts,
            tables: (0..=RELEASES.len()).map(|_| None).collect(),
            ruled_out,
            ruled_out_json,
            notes: Vec::new(),
            totals: summary::Totals::default(),
            split: reader::Split::default(),
            plans: Vec::new(),
            split_of: (0, 0),
            first_keys: Vec::new(),
            answered: Vec::new(),
        }
    }

    /// Changes the `--where` filter for the lines read from now on (the
    /// answers tables, computed once, are kept).
    pub fn set_filter(&mut self, filter: Option<Filter>) {
        self.opts.filter = filter;
        self.filter_fields = filter_fields(self.opts.filter.as_ref());
    }

    /// The table for lines of `release`, computed on first use.
    fn table(&mut self, release: &Release, release_id: usize) -> usize {
        let id = if self.opts.file.is_some() {
            RELEASES.len()
        } else {
            release_id
        };
        if self.tables[id].is_none() {
            let (file, target, computed) = match &self.opts.file {
                Some(d) => (
                    d.name.clone(),
                    d.target,
                    tables_for(&d.script, d.target.game(), None),
                ),
                None => {
                    let file = release
                        .builtin
                        .as_ref()
                        .map_or_else(String::new, |b| b.file.to_string());
                    let computed = builtin_script(release).and_then(|script| {
                        tables_for(&script, release.target.game(), release.bones)
                    });
                    (file, release.target, computed)
                }
            };
            let (places, refused) = match computed {
                Ok(places) => (places, None),
                Err(why) => (empty_places(), Some(why)),
            };
            let answers = Answers::new(&places, &release.cites);
            let counts = vec![Count::default(); answers.places.len()];
            self.tables[id] = Some(Table {
                file,
                refused,
                target,
                answers,
                counts,
            });
        }
        id
    }

    fn table_ref(&self, id: usize) -> &Table {
        self.tables[id]
            .as_ref()
            .unwrap_or_else(|| unreachable!("table {id} is built before use"))
    }

    /// The answer for a game's place.
    pub fn place(&self, g: &Game<'_>) -> &PlaceAnswer {
        &self.table_ref(g.table).answers.places[g.place]
    }

    /// The target whose rules answered a game.
    pub fn target(&self, g: &Game<'_>) -> Target {
        self.table_ref(g.table).target
    }

    /// The chance that the game left bones and why.
    pub fn bones(&self, g: &Game<'_>) -> (f64, Cow<'_, str>) {
        match &self.ruled_out[g.ruled_out] {
            Some(why) => (0.0, Cow::Borrowed(why.as_str())),
            None => {
                let a = self.place(g);
                let why = if g.mode == Mode::Unrecorded {
                    Cow::Owned(answers::unrecorded(&a.bones_why))
                } else {
                    Cow::Borrowed(a.bones_why.as_str())
                };
                (a.bones_p, why)
            }
        }
    }

    /// A line longer than [`reader::MAX_LINE`], as a bad line (counted).
    pub fn too_long(&mut self, line: u64) -> BadLine {
        self.totals.bad += 1;
        BadLine {
            line,
            error: format!(
                "line longer than {} bytes (not an xlogfile line)",
                reader::MAX_LINE
            ),
        }
    }

    /// Reads one line: a game (counted unless the filter drops it, then
    /// `Ok(None)`), or why the line is bad (counted too). Blank lines are
    /// neither.
    pub fn read<'a>(&mut self, line: u64, raw: &'a [u8]) -> Result<Option<Game<'a>>, BadLine> {
        if raw.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        match self.parse(line, raw) {
            Ok(g) => {
                self.note_fields(raw);
                if let Some(f) = &self.opts.filter {
                    if !f.matches(&|k| self.get(&g, k)) {
                        self.totals.filtered += 1;
                        return Ok(None);
                    }
                }
                self.count(&g);
                Ok(Some(g))
            }
            Err(error) => {
                self.totals.bad += 1;
                Err(BadLine { line, error })
            }
        }
    }

    fn parse<'a>(&mut self, line: u64, raw: &'a [u8]) -> Result<Game<'a>, String> {
        self.split.fill(raw);
        self.split_of = (raw.as_ptr() as usize, raw.len());
        let plan = match self.plans.iter().find(|(k, _)| self.split.has_keys(k)) {
            Some(&(_, plan)) => plan,
            None => {
                let plan = Plan::of(&self.split, raw);
                if self.plans.len() < PLANS_KEPT {
                    self.plans.push(Default::default());
                }
                // The oldest goes.
                self.plans.rotate_right(1);
                self.split.keys_into(&mut self.plans[0].0);
                self.plans[0].1 = plan;
                plan
            }
        };
        let spans = self.split.spans();
        let field = |at: Option<u16>| {
            at.and_then(|i| spans.get(usize::from(i)))
                .map(|s| s.value(raw))
        };
        let (version, dnum, lev, death, flags, mode) = (
            field(plan.version),
            field(plan.dnum),
            field(plan.lev),
            field(plan.death),
            field(plan.flags),
            field(plan.mode),
        );
        let seen = plan.seen;
        let missing = |what: &str| {
            format!("missing field `{what}` (a truncated line, or not an xlogfile line)")
        };
        let version = version.ok_or_else(|| missing("version"))?;
        let (release, release_id, note) = self.answer(version, seen)?;
        let number = |what: &str, v: Option<&[u8]>| -> Result<i64, String> {
            let v = v.ok_or_else(|| missing(what))?;
            let n = reader::parse_int(v).ok_or_else(|| {
                format!("`{what}` is `{}`, not a number", String::from_utf8_lossy(v))
            })?;
            // NetHack keeps both in a signed byte (xchar/schar).
            if !(-128..=127).contains(&n) {
                return Err(format!("`{what}` {n} is out of range (-128 to 127)"));
            }
            Ok(n)
        };
        let dnum = number("deathdnum", dnum)?;
        let depth = number("deathlev", lev)?;
        let death = death.ok_or_else(|| missing("death"))?;
        let end = ending::classify(death);
        let mode = ending::mode(release, flags, mode)?;
        let table = self.table(release, release_id);
        let t = self.table_ref(table);
        if let Some(why) = &t.refused {
            return Err(why.clone());
        }
        let Some(place) = t.answers.find(dnum, depth) else {
            return Err(if t.answers.places.is_empty() {
                format!("{} cannot be laid out", t.file)
            } else {
                format!(
                    "no level at depth {depth} of dungeon number {dnum} in any layout of {} ({}; dungeon numbers and depths: {})",
                    release.title,
                    t.file,
                    t.answers.describe_dnums()
                )
            });
        };
        Ok(Game {
            line,
            raw,
            version,
            release,
            note,
            release_id,
            ruled_out: ruled_out_index(release_id, end, mode),
            table,
            place,
            dnum,
            depth,
            end,
            mode,
        })
    }

    /// Which release answers a line, and the index of its note.
    fn answer(&mut self, version: &[u8], seen: identify::Seen) -> Answer {
        if let Some((_, _, a)) = self
            .answered
            .iter()
            .find(|(v, s, _)| *s == seen && v == version)
        {
            return a.clone();
        }
        let a = release::answer(version, seen, self.opts.target, self.opts.game)
            .map(|a| (a.release, a.release.id(), a.note.map(|n| self.note(n))));
        if self.answered.len() < ANSWERED_KEPT {
            self.answered.push((version.to_vec(), seen, a.clone()));
        }
        a
    }

    /// Which of `--where`'s fields this game's line has, and the first
    /// line's keys. Once every field was found, nothing.
    fn note_fields(&mut self, raw: &[u8]) {
        if self.first_keys.is_empty() {
            self.first_keys = self
                .split
                .spans()
                .iter()
                .map(|s| String::from_utf8_lossy(s.key(raw)).into_owned())
                .filter(|k| !k.is_empty())
                .collect();
        }
        for (name, found) in &mut self.filter_fields {
            if !*found {
                *found = self
                    .split
                    .spans()
                    .iter()
                    .any(|s| s.key(raw) == name.as_bytes());
            }
        }
    }

    /// `--where`'s fields that no game's line had (after at least one
    /// game), each with the likeliest field meant.
    pub fn unknown_fields(&self) -> Vec<summary::UnknownField> {
        if self.first_keys.is_empty() {
            return Vec::new();
        }
        self.filter_fields
            .iter()
            .filter(|(_, found)| !found)
            .map(|(name, _)| summary::UnknownField {
                field: name.clone(),
                did_you_mean: crate::check::closest(
                    name.as_bytes(),
                    self.first_keys
                        .iter()
                        .map(String::as_str)
                        .chain(filter::OWN_FIELDS)
                        .map(str::as_bytes),
                )
                .map(|c| String::from_utf8_lossy(c).into_owned()),
            })
            .collect()
    }

    /// The index of a note, kept once.
    fn note(&mut self, note: String) -> u32 {
        let i = match self.notes.iter().position(|(n, _)| *n == note) {
            Some(i) => i,
            None => {
                self.notes.push((note, 0));
                self.notes.len() - 1
            }
        };
        i as u32
    }

    /// Why the game's release is not its own, if it is not.
    pub fn note_of(&self, g: &Game<'_>) -> Option<&str> {
        g.note.map(|i| self.notes[i as usize].0.as_str())
    }

    fn count(&mut self, g: &Game<'_>) {
        self.totals.games += 1;
        if let Some(i) = g.note {
            self.notes[i as usize].1 += 1;
        }
        self.totals.ends[g.end as usize] += 1;
        self.totals.modes[g.mode as usize] += 1;
        self.totals.count_release(g.release_id);
        if g.end.is_death() {
            let bones_mode = self.ruled_out[g.ruled_out].is_none();
            if let Some(t) = self.tables[g.table].as_mut() {
                let c = &mut t.counts[g.place];
                c.deaths += 1;
                if bones_mode {
                    c.bones_deaths += 1;
                }
            }
            self.totals.count_depth(g.depth);
        }
    }

    /// A field of a game by name: dgn xlog's own (`line`, `target`,
    /// `dungeon`, `level`, `special`, `how`, `mode`, `bones_p`) or the
    /// line's.
    pub fn get<'s>(&'s self, g: &Game<'s>, key: &str) -> Option<Cow<'s, str>> {
        let a = self.place(g);
        Some(match key {
            "line" => Cow::Owned(g.line.to_string()),
            "target" => Cow::Borrowed(self.target(g).name()),
            "dungeon" => Cow::Borrowed(a.dungeon()),
            "level" => Cow::Owned(
                a.levels
                    .iter()
                    .fold((0, -1.0), |b, &(l, p)| if p > b.1 { (l, p) } else { b })
                    .0
                    .to_string(),
            ),
            "special" => Cow::Borrowed(a.special().unwrap_or("")),
            "how" => Cow::Borrowed(g.end.name()),
            "mode" => Cow::Borrowed(g.mode.name()),
            "bones_p" => Cow::Owned(self.bones(g).0.to_string()),
            _ => String::from_utf8_lossy(reader::field(g.raw, key.as_bytes())?),
        })
    }

    /// The game as one JSON line (without the newline). The hot path of
    /// `--format json`: what depends only on the place, the release and
    /// the ending is written once per table, the rest straight from the
    /// line.
    pub fn json(&self, g: &Game<'_>, out: &mut Vec<u8>) {
        let a = self.place(g);
        let mut num = itoa::Buffer::new();
        out.extend_from_slice(b"{\"line\":");
        out.extend_from_slice(num.format(g.line).as_bytes());
        out.extend_from_slice(b",\"version\":");
        json::string_bytes(out, g.version);
        out.extend_from_slice(b",\"release\":\"");
        out.extend_from_slice(g.release.name.as_bytes());
        out.push(b'"');
        if let Some(note) = self.note_of(g) {
            out.extend_from_slice(b",\"note\":");
            json::string_bytes(out, note.as_bytes());
        }
        out.extend_from_slice(b",\"target\":\"");
        out.extend_from_slice(self.target(g).name().as_bytes());
        out.extend_from_slice(b"\",\"how\":\"");
        out.extend_from_slice(g.end.name().as_bytes());
        out.extend_from_slice(b"\",\"mode\":\"");
        out.extend_from_slice(g.mode.name().as_bytes());
        out.extend_from_slice(b"\",\"dnum\":");
        out.extend_from_slice(num.format(g.dnum).as_bytes());
        out.extend_from_slice(b",\"depth\":");
        out.extend_from_slice(num.format(g.depth).as_bytes());
        out.push(b',');
        out.extend_from_slice(a.json.as_bytes());
        let bones = match &self.ruled_out_json[g.ruled_out] {
            Some(j) => j,
            None if g.mode == Mode::Unrecorded => &a.bones_json_unrecorded,
            None => &a.bones_json,
        };
        out.extend_from_slice(bones.as_bytes());
        out.extend_from_slice(b",\"fields\":{");
        if self.split_of == (g.raw.as_ptr() as usize, g.raw.len()) {
            // A game's line is borrowed as long as the game lives, so
            // these bytes are still the ones split.
            json::fields_split(out, &self.split);
        } else {
            json::fields(out, g.raw);
        }
        out.extend_from_slice(b"}}");
    }

    /// The game in one line of text.
    pub fn human(&self, g: &Game<'_>) -> String {
        let a = self.place(g);
        let (p, why) = self.bones(g);
        let dist = |v: &[(String, f64)]| {
            v.iter()
                .map(|(n, p)| {
                    if *p >= 1.0 {
                        n.clone()
                    } else {
                        format!("{n} {}", answers::percent(*p))
                    }
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let levels = a
            .levels
            .iter()
            .map(|(l, p)| {
                if *p >= 1.0 {
                    l.to_string()
                } else {
                    format!("{l} {}", answers::percent(*p))
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        let filler = 1.0 - a.specials.iter().map(|s| s.1).sum::<f64>();
        let special = if a.specials.is_empty() {
            "a filler level".to_string()
        } else if filler > 1e-12 {
            format!("{}, filler {}", dist(&a.specials), answers::percent(filler))
        } else {
            dist(&a.specials)
        };
        let note = self
            .note_of(g)
            .map_or_else(String::new, |n| format!(" [{n}]"));
        format!(
            "line {}: {} ({}{note}) at depth {}: {}, level {}; {}; bones {}: {}",
            g.line,
            String::from_utf8_lossy(reader::field(g.raw, b"death").unwrap_or_default()),
            g.release.title,
            g.depth,
            dist(&a.dungeons),
            levels,
            special,
            answers::percent(p),
            why
        )
    }

    /// The summary of every game read so far.
    pub fn summary(&self) -> summary::Summary {
        summary::Summary::new(self)
    }
}

/// `k == want`, byte by byte (the keys are short: a call to `memcmp` per
/// field cost more than the comparison).
fn key_is(k: &[u8], want: &[u8]) -> bool {
    k.len() == want.len() && k.iter().zip(want).all(|(a, b)| a == b)
}

/// The line fields `filter` compares (not [`filter::OWN_FIELDS`]), none
/// found yet.
fn filter_fields(filter: Option<&Filter>) -> Vec<(String, bool)> {
    filter.map_or_else(Vec::new, |f| {
        f.fields()
            .into_iter()
            .filter(|name| !filter::OWN_FIELDS.contains(name))
            .map(|name| (name.to_string(), false))
            .collect()
    })
}

/// The built-in description of a release as a script; an error when
/// dgnkit has none for that release.
pub fn builtin_script(release: &Release) -> Result<Script, String> {
    let builtin = release.builtin.as_ref().ok_or_else(|| {
        format!(
            "no built-in description of {}; give --file with its dungeon description",
            release.title
        )
    })?;
    let opts = crate::frontend::CheckOptions {
        target: release.target,
        dialect: release.target.game().dialect,
        ..Default::default()
    };
    crate::frontend::analyze_verdict(builtin.source, &opts)
        .script
        .ok_or_else(|| format!("{} does not compile", builtin.file))
}

/// The answers' places for a description laid out by `game`'s loader;
/// an error, for every line, when dgnkit does not reproduce that loader
/// (never another game's answer).
fn tables_for(
    script: &Script,
    game: &crate::games::Game,
    bones: Option<&crate::bones::rules::BonesRules>,
) -> Result<crate::stats::Places, String> {
    game.check_loader().map_err(|e| e.to_string())?;
    let places = answers::compute_with(script, game.target, bones);
    if places.places.is_empty() {
        return Err(format!(
            "the dungeon description cannot be laid out by {}",
            game.title
        ));
    }
    Ok(places)
}

fn empty_places() -> crate::stats::Places {
    crate::stats::Places {
        method: crate::stats::Method::Exact {
            max_error: 0.0,
            states: 0,
            outcomes: 0,
            placement_states: 0,
        },
        failure: 1.0,
        dungeon_names: Vec::new(),
        level_names: Vec::new(),
        places: Vec::new(),
        given: None,
    }
}

#[cfg(test)]
mod tests;
