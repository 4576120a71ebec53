//! The summary of a run: deaths per dungeon and special level, deaths on
//! levels that can hold bones, the expected number of bones files, the
//! deadliest depths.
//!
//! Counts are kept per place while reading (a line adds one to a counter);
//! names and expectations are computed once at the end.

use super::answers::percent;
use super::ending::{End, Mode};
use super::Xlog;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// What reading counts besides the places.
#[derive(Clone, Debug, Default)]
pub(crate) struct Totals {
    pub games: u64,
    pub bad: u64,
    pub filtered: u64,
    /// Per [`End`] (its discriminant).
    pub ends: [u64; 7],
    /// Per [`Mode`] (its discriminant).
    pub modes: [u64; Mode::ALL.len()],
    /// Per release, by [`super::release::Release::id`]: counted by index,
    /// as a map's look-up by name was a twentieth of `dgn xlog`'s time.
    pub releases: Vec<u64>,
    /// Deaths per depth, from -128 (a depth is a signed byte).
    pub depths: Vec<u64>,
}

impl Totals {
    pub fn count_release(&mut self, id: usize) {
        if self.releases.len() <= id {
            self.releases.resize(id + 1, 0);
        }
        self.releases[id] += 1;
    }

    /// Counts a death at `depth` (-128 to 127, as the reader checks).
    pub fn count_depth(&mut self, depth: i64) {
        if self.depths.is_empty() {
            self.depths.resize(256, 0);
        }
        if let Some(n) = usize::try_from(depth + 128)
            .ok()
            .and_then(|i| self.depths.get_mut(i))
        {
            *n += 1;
        }
    }

    fn release_map(&self) -> BTreeMap<String, u64> {
        let all = &*super::release::RELEASES;
        let mut map = BTreeMap::new();
        for (id, &n) in self.releases.iter().enumerate() {
            if let (Some(r), true) = (all.get(id), n > 0) {
                *map.entry(r.name.to_string()).or_default() += n;
            }
        }
        map
    }

    fn depth_map(&self) -> BTreeMap<i32, u64> {
        (-128..)
            .zip(&self.depths)
            .filter(|(_, &n)| n > 0)
            .map(|(d, &n)| (d, n))
            .collect()
    }
}

/// An expected count over the games (a sum of probabilities).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expected {
    pub name: String,
    pub deaths: f64,
    /// Expected bones files left there.
    pub bones: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Games read (after `--where`).
    pub games: u64,
    pub bad_lines: u64,
    /// Games `--where` left out.
    pub filtered_out: u64,
    /// Games per release (`nethack-3.6`, ...).
    pub releases: BTreeMap<String, u64>,
    /// Games answered with a description that is not their own release's,
    /// per reason ("answered with release X's description").
    pub answered_with_another: BTreeMap<String, u64>,
    /// Games per way of ending (`died`, `quit`, `escaped`, ...).
    pub ends: BTreeMap<String, u64>,
    /// Games per recorded mode.
    pub modes: BTreeMap<String, u64>,
    /// Games that ended in death (`how < GENOCIDED`).
    pub deaths: u64,
    /// Per dungeon description used: how its chances were computed
    /// ("exact", or sampled where the statistics engine does not model
    /// the game's loader).
    pub answered_by: BTreeMap<String, String>,
    /// Expected deaths (and bones files) per dungeon, most first.
    pub dungeons: Vec<Expected>,
    /// Per special level ("(filler)" for the rest), most first.
    pub specials: Vec<Expected>,
    /// Expected deaths on a level that can hold bones (rules 1-7 of
    /// bones.md pass; the depth roll not counted).
    pub deaths_on_bones_levels: f64,
    /// Expected number of bones files the games left: the sum of every
    /// game's `bones_p`.
    pub expected_bones: f64,
    /// Deaths per depth, all of them.
    pub depths: BTreeMap<i32, u64>,
    /// The ten depths with the most deaths, most first.
    pub deadliest: Vec<(i32, u64)>,
    /// `--where`'s fields that no game's line had: a comparison with one
    /// is false on every line, so a misspelt name leaves out every game.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown_fields: Vec<UnknownField>,
}

/// A field `--where` names that no line has.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnknownField {
    pub field: String,
    /// The closest field a line has (or `dgn xlog` computes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub did_you_mean: Option<String>,
}

impl UnknownField {
    /// The warning, in words.
    pub fn message(&self) -> String {
        let mut m = format!(
            "--where compares `{}`, a field no line has, so that comparison is false on every line",
            self.field
        );
        if let Some(d) = &self.did_you_mean {
            let _ = write!(m, " (did you mean `{d}`?)");
        }
        m
    }
}

fn add(map: &mut BTreeMap<String, (f64, f64)>, name: &str, deaths: f64, bones: f64) {
    let e = map.entry(name.to_string()).or_default();
    e.0 += deaths;
    e.1 += bones;
}

fn ranked(map: BTreeMap<String, (f64, f64)>) -> Vec<Expected> {
    let mut v: Vec<Expected> = map
        .into_iter()
        .map(|(name, (deaths, bones))| Expected {
            name,
            deaths,
            bones,
        })
        .collect();
    v.sort_by(|a, b| b.deaths.total_cmp(&a.deaths).then(a.name.cmp(&b.name)));
    v
}

pub(crate) const END_ORDER: [End; 7] = [
    End::Died,
    End::Genocided,
    End::Panicked,
    End::Tricked,
    End::Quit,
    End::Escaped,
    End::Ascended,
];

impl Summary {
    pub(crate) fn new(x: &Xlog) -> Summary {
        let t = &x.totals;
        let mut dungeons = BTreeMap::new();
        let mut specials = BTreeMap::new();
        let mut on_bones_levels = 0.0;
        let mut expected = 0.0;
        for table in x.tables.iter().flatten() {
            for (a, c) in table.answers.places.iter().zip(&table.counts) {
                if c.deaths == 0 {
                    continue;
                }
                let deaths = c.deaths as f64;
                let bones = c.bones_deaths as f64 * a.bones_p;
                expected += bones;
                on_bones_levels += deaths * a.bones_level_p;
                for (name, p) in &a.dungeons {
                    add(&mut dungeons, name, deaths * p, bones * p);
                }
                let mut filler = 1.0;
                for (name, p) in &a.specials {
                    filler -= p;
                    add(&mut specials, name, deaths * p, bones * p);
                }
                if filler > 1e-12 {
                    add(&mut specials, "(filler)", deaths * filler, bones * filler);
                }
            }
        }
        let depths = t.depth_map();
        let mut deadliest: Vec<(i32, u64)> = depths.iter().map(|(&d, &n)| (d, n)).collect();
        deadliest.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        deadliest.truncate(10);
        Summary {
            games: t.games,
            bad_lines: t.bad,
            filtered_out: t.filtered,
            releases: t.release_map(),
            answered_with_another: x
                .notes
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(note, n)| (note.clone(), *n))
                .collect(),
            ends: END_ORDER
                .iter()
                .filter(|e| t.ends[**e as usize] > 0)
                .map(|e| (e.name().to_string(), t.ends[*e as usize]))
                .collect(),
            modes: Mode::ALL
                .iter()
                .filter(|m| t.modes[**m as usize] > 0)
                .map(|m| (m.name().to_string(), t.modes[*m as usize]))
                .collect(),
            answered_by: x
                .tables
                .iter()
                .flatten()
                .filter(|t| t.refused.is_none())
                .map(|t| {
                    (
                        t.file.clone(),
                        super::answers::method_words(&t.answers.method),
                    )
                })
                .collect(),
            deaths: t.ends[End::Died as usize],
            dungeons: ranked(dungeons),
            specials: ranked(specials),
            deaths_on_bones_levels: on_bones_levels,
            expected_bones: expected,
            depths,
            deadliest,
            unknown_fields: x.unknown_fields(),
        }
    }

    /// The summary as text.
    pub fn human(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} games ({} deaths), {} bad lines{}",
            self.games,
            self.deaths,
            self.bad_lines,
            if self.filtered_out > 0 {
                format!(", {} left out by --where", self.filtered_out)
            } else {
                String::new()
            }
        );
        for u in &self.unknown_fields {
            let _ = writeln!(s, "warning: {}", u.message());
        }
        let list = |m: &BTreeMap<String, u64>| {
            m.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(s, "releases: {}", list(&self.releases));
        for (note, n) in &self.answered_with_another {
            let _ = writeln!(s, "{n} games: {note}");
        }
        let _ = writeln!(s, "endings: {}", list(&self.ends));
        let _ = writeln!(s, "modes: {}", list(&self.modes));
        for (file, how) in &self.answered_by {
            let _ = writeln!(s, "chances for {file}: {how}");
        }
        let _ = writeln!(
            s,
            "deaths on levels that can hold bones: {:.2} expected ({})",
            self.deaths_on_bones_levels,
            if self.deaths > 0 {
                percent(self.deaths_on_bones_levels / self.deaths as f64)
            } else {
                "-".into()
            }
        );
        let _ = writeln!(s, "expected bones files left: {:.2}", self.expected_bones);
        let table = |s: &mut String, title: &str, v: &[Expected]| {
            let _ = writeln!(s, "\n{title:<32} {:>12} {:>12}", "deaths", "bones files");
            for e in v {
                let _ = writeln!(s, "{:<32} {:>12.2} {:>12.2}", e.name, e.deaths, e.bones);
            }
        };
        table(&mut s, "dungeon", &self.dungeons);
        table(&mut s, "special level", &self.specials);
        let _ = writeln!(s, "\ndeadliest depths:");
        for (d, n) in &self.deadliest {
            let _ = writeln!(s, "  depth {d:>3}: {n}");
        }
        s
    }
}
