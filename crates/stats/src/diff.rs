//! What a change to a description does: two [`Stats`] compared item by
//! item (each dungeon, special level, branch, bones cell and the loader's
//! failure), each item's distributions measured by their total variation
//! distance and the items sorted by it, largest first.
//!
//! Existence is part of every distribution: "absent" is one more outcome,
//! so a level that moves from depth 10 to 12 and one that stops existing
//! half the time are measured on the same scale, 0 (the same) to 1
//! (disjoint). The figures of each side are its [`Stats`] entries as they
//! are, so a diff says nothing `dgn stats` does not; only the distances and
//! the verdicts are new.

use crate::{BonesStat, BranchStat, Dist, DungeonStat, FailureStat, LevelStat, Method, Stats};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One description's side of a diff: which file, read for which game, and
/// how its numbers were obtained.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Side {
    pub file: String,
    pub target: String,
    pub method: Method,
}

/// A description and its statistics, to compare.
#[derive(Clone, Copy, Debug)]
pub struct Described<'a> {
    pub file: &'a str,
    pub target: &'a str,
    pub stats: &'a Stats,
}

/// What kind of thing an item is; also the order of items whose distances
/// tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The loader's failure (one item, named `loader`).
    Failure,
    Dungeon,
    Level,
    Branch,
    /// A (dungeon, level number) cell of the bones table.
    Bones,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Failure,
        Kind::Dungeon,
        Kind::Level,
        Kind::Branch,
        Kind::Bones,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Failure => "failure",
            Kind::Dungeon => "dungeon",
            Kind::Level => "level",
            Kind::Branch => "branch",
            Kind::Bones => "bones",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// How an item fares from OLD to NEW.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// NEW can have it; OLD never does (or does not name it).
    Added,
    /// OLD can have it; NEW never does (or does not name it).
    Removed,
    Changed,
    Unchanged,
}

/// One distribution of an item, as compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum What {
    /// The loader fails, and how.
    Failure,
    /// A dungeon's number of levels.
    Levels,
    /// The depth of a dungeon's first level.
    TopDepth,
    /// A special level's or branch's depth.
    Depth,
    /// A special level's level in its dungeon, or a branch's level in the
    /// dungeon it leaves (which dungeon is part of the outcome).
    Level,
    /// Which bones rule decides on the level (rule 8 split into "can
    /// leave bones" and "too shallow").
    BonesVerdict,
    /// Whether a death on the level leaves bones (the depth roll included).
    BonesChance,
}

impl What {
    /// As the human table names it.
    pub fn label(self) -> &'static str {
        match self {
            What::Failure => "failure",
            What::Levels => "levels",
            What::TopDepth => "top depth",
            What::Depth => "depth",
            What::Level => "level",
            What::BonesVerdict => "bones verdict",
            What::BonesChance => "bones chance",
        }
    }
}

/// One compared distribution of an item and its distance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Aspect {
    pub what: What,
    /// Total variation distance between OLD's and NEW's distribution, 0
    /// when it is within the numbers' error bound.
    pub tvd: f64,
    /// When a side is sampled: the 95% half-width of the distance's
    /// sampling error (0 when both are exact). A distance within it is no
    /// change.
    pub noise: f64,
}

/// The loader's failure on one side, as [`Stats`] has it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FailureEntry {
    pub failure: f64,
    pub failures: Vec<FailureStat>,
}

/// One side's entry of an item: its [`Stats`] record, unchanged.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Entry {
    Failure(FailureEntry),
    Dungeon(DungeonStat),
    Level(LevelStat),
    Branch(BranchStat),
    Bones(BonesStat),
}

impl Entry {
    /// The chance that the thing exists (the loader loads, for the
    /// failure item).
    pub fn exists(&self) -> f64 {
        match self {
            Entry::Failure(f) => 1.0 - f.failure,
            Entry::Dungeon(d) => d.exists,
            Entry::Level(l) => l.exists,
            Entry::Branch(b) => b.exists,
            Entry::Bones(c) => c.exists,
        }
    }
}

/// One item compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    pub kind: Kind,
    /// The dungeon's, level's or branch's target dungeon's name; `level N`
    /// for a bones cell; `loader` for the failure item.
    pub name: String,
    /// The dungeon a level lies in, a branch leaves (NEW's, else OLD's) or
    /// a bones cell is in.
    pub dungeon: Option<String>,
    /// A bones cell's level number.
    pub level: Option<i32>,
    /// Which of the file's entries of this name (and dungeon) it is, from
    /// 1: variants list some levels more than once.
    pub occurrence: usize,
    pub status: Status,
    /// The largest distance over the aspects.
    pub tvd: f64,
    /// Every compared distribution, largest distance first.
    pub aspects: Vec<Aspect>,
    /// The item's entry on each side; none when that file has no such
    /// thing.
    pub old: Option<Entry>,
    pub new: Option<Entry>,
}

impl Change {
    /// "level medusa (The Dungeons of Doom)", as tables name the item; a
    /// second entry of the same name is "level heck-e #2 (Gehennom)".
    pub fn label(&self) -> String {
        let name = if self.occurrence > 1 {
            format!("{} #{}", self.name, self.occurrence)
        } else {
            self.name.clone()
        };
        match (self.kind, &self.dungeon) {
            (Kind::Failure, _) => "loader".to_string(),
            (Kind::Dungeon, _) => format!("dungeon {name}"),
            (Kind::Level, Some(d)) => format!("level {name} ({d})"),
            (Kind::Branch, Some(d)) => format!("branch to {name} (from {d})"),
            (Kind::Bones, Some(d)) => format!("bones {d} {name}"),
            (kind, None) => format!("{} {name}", kind.name()),
        }
    }

    pub fn aspect(&self, what: What) -> Option<&Aspect> {
        self.aspects.iter().find(|a| a.what == what)
    }

    /// The outcomes of `what` with their probabilities on both sides, in
    /// order ("absent" last), for charts.
    pub fn bars(&self, what: What) -> Vec<Bar> {
        let (a, b) = (
            joint(what, self.old.as_ref()),
            joint(what, self.new.as_ref()),
        );
        let mut keys: Vec<&Outcome> = a.keys().chain(b.keys()).collect();
        keys.sort();
        keys.dedup();
        // The absent outcome closes the chart; an empty one is left out.
        keys.retain(|k| **k != Outcome::Absent);
        let absent = Outcome::Absent;
        let p = |j: &Joint, k: &Outcome| j.get(k).copied().unwrap_or(0.0);
        if p(&a, &absent) > 0.0 || p(&b, &absent) > 0.0 {
            keys.push(&absent);
        }
        let dungeons = keys
            .iter()
            .filter_map(|k| match k {
                Outcome::In(d, _) => Some(d),
                _ => None,
            })
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        keys.into_iter()
            .map(|k| Bar {
                outcome: k.label(dungeons > 1),
                old: p(&a, k),
                new: p(&b, k),
            })
            .collect()
    }
}

/// One outcome of a compared distribution and its probability on each
/// side (over all layouts that load; for the failure item, over all).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bar {
    pub outcome: String,
    pub old: f64,
    pub new: f64,
}

/// Counts over every compared item.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub items: usize,
    pub changed: usize,
    pub added: usize,
    pub removed: usize,
    pub unchanged: usize,
    pub max_tvd: f64,
    /// The loader's failure probability on each side.
    pub old_failure: f64,
    pub new_failure: f64,
    /// Both sides were enumerated exactly (else a side is a sample and
    /// small distances may be sampling noise: see `noise`).
    pub exact: bool,
    /// An upper bound of sampling noise on any one probability (the larger
    /// side's 95% confidence half-width); 0 when both are exact.
    pub noise: f64,
}

/// Two descriptions compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diff {
    pub old: Side,
    pub new: Side,
    /// Largest distance first, except that a loader failing more often
    /// in NEW comes before everything; unchanged items last (see
    /// [`Diff::retain_changed`]).
    pub changes: Vec<Change>,
    pub summary: Summary,
}

impl Diff {
    /// Drops the unchanged items (the summary still counts them).
    pub fn retain_changed(&mut self) {
        self.changes.retain(|c| c.status != Status::Unchanged);
    }
}

/// Compares two descriptions' statistics.
pub fn compare(old: Described<'_>, new: Described<'_>) -> Diff {
    let prec = [Precision::of(old.stats), Precision::of(new.stats)];
    let (o, n) = (old.stats, new.stats);
    let named = |kind, name: &str, dungeon: Option<&str>, level, occurrence| Name {
        kind,
        name: name.to_string(),
        dungeon: dungeon.map(str::to_string),
        level,
        occurrence,
    };
    let mut changes = vec![item(
        named(Kind::Failure, "loader", None, None, 1),
        Some(failure_entry(o)),
        Some(failure_entry(n)),
        &prec,
    )];
    for (a, b, nth) in pair(&o.dungeons, &n.dungeons, |d| d.name.clone()) {
        let Some(d) = b.or(a) else { continue };
        changes.push(item(
            named(Kind::Dungeon, &d.name, None, None, nth),
            a.cloned().map(Entry::Dungeon),
            b.cloned().map(Entry::Dungeon),
            &prec,
        ));
    }
    for (a, b, nth) in pair(&o.levels, &n.levels, |l| {
        (l.dungeon.clone(), l.name.clone())
    }) {
        let Some(l) = b.or(a) else { continue };
        changes.push(item(
            named(Kind::Level, &l.name, Some(&l.dungeon), None, nth),
            a.cloned().map(Entry::Level),
            b.cloned().map(Entry::Level),
            &prec,
        ));
    }
    for (a, b, nth) in pair(&o.branches, &n.branches, |b| b.to.clone()) {
        let Some(x) = b.or(a) else { continue };
        changes.push(item(
            named(Kind::Branch, &x.to, Some(&x.from), None, nth),
            a.cloned().map(Entry::Branch),
            b.cloned().map(Entry::Branch),
            &prec,
        ));
    }
    for (a, b, nth) in pair(&o.bones, &n.bones, |c| (c.dungeon.clone(), c.level)) {
        let Some(c) = b.or(a) else { continue };
        changes.push(item(
            named(
                Kind::Bones,
                &format!("level {}", c.level),
                Some(&c.dungeon),
                Some(c.level),
                nth,
            ),
            a.cloned().map(Entry::Bones),
            b.cloned().map(Entry::Bones),
            &prec,
        ));
    }
    // A loader that fails more often outranks every distance: a game
    // that does not start is the change a maintainer must see first.
    // Stable: ties keep the order above (kind, then file order).
    let fails_more = n.failure > o.failure;
    changes.sort_by(|a, b| {
        let unchanged = |c: &Change| c.status == Status::Unchanged;
        let first = |c: &Change| fails_more && c.kind == Kind::Failure && !unchanged(c);
        unchanged(a)
            .cmp(&unchanged(b))
            .then(first(b).cmp(&first(a)))
            .then(b.tvd.total_cmp(&a.tvd))
    });
    let count = |s: Status| changes.iter().filter(|c| c.status == s).count();
    let summary = Summary {
        items: changes.len(),
        changed: count(Status::Changed),
        added: count(Status::Added),
        removed: count(Status::Removed),
        unchanged: count(Status::Unchanged),
        max_tvd: changes
            .iter()
            .filter(|c| c.status != Status::Unchanged)
            .map(|c| c.tvd)
            .fold(0.0, f64::max),
        old_failure: o.failure,
        new_failure: n.failure,
        exact: is_exact(&o.method) && is_exact(&n.method),
        noise: noise_of(&o.method).max(noise_of(&n.method)),
    };
    Diff {
        old: side(old),
        new: side(new),
        changes,
        summary,
    }
}

/// What names an item.
struct Name {
    kind: Kind,
    name: String,
    dungeon: Option<String>,
    level: Option<i32>,
    occurrence: usize,
}

fn side(d: Described<'_>) -> Side {
    Side {
        file: d.file.to_string(),
        target: d.target.to_string(),
        method: d.stats.method.clone(),
    }
}

fn is_exact(m: &Method) -> bool {
    matches!(m, Method::Exact { .. })
}

/// The bound on each reported probability's numerical error: what a
/// difference must exceed to be a change. A sample's frequencies are
/// exact fractions of that sample; its noise is reported, not filtered.
fn error_of(m: &Method) -> f64 {
    match m {
        Method::Exact { max_error, .. } => *max_error,
        Method::Sampled { .. } => 0.0,
    }
}

fn noise_of(m: &Method) -> f64 {
    match m {
        Method::Exact { .. } => 0.0,
        Method::Sampled { ci95, .. } => *ci95,
    }
}

fn failure_entry(s: &Stats) -> Entry {
    Entry::Failure(FailureEntry {
        failure: s.failure,
        failures: s.failures.clone(),
    })
}

/// Pairs the entries of two lists by key, the n-th of a key in OLD with
/// the n-th in NEW (n is the third of each triple, from 1): NEW's order,
/// then what only OLD has in OLD's order.
#[allow(clippy::type_complexity)]
fn pair<'a, T, K: std::hash::Hash + Eq + Clone>(
    old: &'a [T],
    new: &'a [T],
    key: impl Fn(&T) -> K,
) -> Vec<(Option<&'a T>, Option<&'a T>, usize)> {
    let numbered = |list: &'a [T]| {
        let mut seen: HashMap<K, usize> = HashMap::new();
        list.iter()
            .map(|t| {
                let k = key(t);
                let n = seen.entry(k.clone()).or_insert(0);
                *n += 1;
                (k, *n)
            })
            .collect::<Vec<_>>()
    };
    let mut olds: HashMap<(K, usize), usize> = numbered(old)
        .into_iter()
        .enumerate()
        .map(|(i, k)| (k, i))
        .collect();
    let mut out: Vec<_> = numbered(new)
        .into_iter()
        .zip(new)
        .map(|((k, n), t)| (olds.remove(&(k, n)).map(|i| &old[i]), Some(t), n))
        .collect();
    let mut rest: Vec<(usize, usize)> = olds.into_iter().map(|((_, n), i)| (i, n)).collect();
    rest.sort_unstable();
    out.extend(rest.into_iter().map(|(i, n)| (Some(&old[i]), None, n)));
    out
}

/// How exact one side's numbers are.
#[derive(Clone, Copy, Debug)]
struct Precision {
    /// The bound on each number's numerical error ([`Method::Exact`]).
    error: f64,
    /// A sample's size: all resolutions, and those that loaded.
    samples: Option<(f64, f64)>,
}

impl Precision {
    fn of(s: &Stats) -> Precision {
        Precision {
            error: error_of(&s.method),
            samples: match s.method {
                Method::Sampled { samples, .. } => {
                    let n = samples as f64;
                    Some((n, n * (1.0 - s.failure)))
                }
                Method::Exact { .. } => None,
            },
        }
    }

    /// The 95% half-width of a TVD's sampling error: half the sum of each
    /// outcome's own 95% half-width. Over all resolutions for the failure
    /// item, else over those that loaded.
    fn noise(&self, j: &Joint, what: What) -> f64 {
        let Some((all, loaded)) = self.samples else {
            return 0.0;
        };
        let n = if what == What::Failure { all } else { loaded };
        if n < 1.0 {
            return 0.0;
        }
        j.values()
            .map(|&p| {
                let p = p.clamp(0.0, 1.0);
                1.96 * (p * (1.0 - p) / n).sqrt()
            })
            .sum::<f64>()
            / 2.0
    }
}

fn item(name: Name, old: Option<Entry>, new: Option<Entry>, prec: &[Precision; 2]) -> Change {
    let kind = name.kind;
    let mut aspects: Vec<Aspect> = whats(kind)
        .iter()
        .map(|&what| {
            let (a, b) = (joint(what, old.as_ref()), joint(what, new.as_ref()));
            let (tvd, outcomes) = tvd(&a, &b);
            // Each joint probability is a product of two reported numbers,
            // each within its side's bound.
            let bound = outcomes as f64 * 2.0 * (prec[0].error + prec[1].error) + 1e-12;
            Aspect {
                what,
                // Rounding can carry a sum of disjoint masses past 1.
                tvd: if tvd <= bound { 0.0 } else { tvd.min(1.0) },
                noise: prec[0].noise(&a, what) + prec[1].noise(&b, what),
            }
        })
        .collect();
    aspects.sort_by(|a, b| b.tvd.total_cmp(&a.tvd));
    let tvd = aspects.first().map_or(0.0, |a| a.tvd);
    let changed = aspects.iter().any(|a| a.tvd > a.noise);
    let possible =
        |e: &Option<Entry>, p: &Precision| e.as_ref().is_some_and(|e| e.exists() > 2.0 * p.error);
    let status = match (possible(&old, &prec[0]), possible(&new, &prec[1])) {
        _ if !changed => Status::Unchanged,
        _ if kind == Kind::Failure => Status::Changed,
        (false, true) => Status::Added,
        (true, false) => Status::Removed,
        _ => Status::Changed,
    };
    Change {
        kind,
        name: name.name,
        dungeon: name.dungeon,
        level: name.level,
        occurrence: name.occurrence,
        status,
        tvd,
        aspects,
        old,
        new,
    }
}

fn whats(kind: Kind) -> &'static [What] {
    match kind {
        Kind::Failure => &[What::Failure],
        Kind::Dungeon => &[What::Levels, What::TopDepth],
        Kind::Level => &[What::Depth, What::Level],
        Kind::Branch => &[What::Level, What::Depth],
        Kind::Bones => &[What::BonesVerdict, What::BonesChance],
    }
}

/// An outcome of a compared distribution.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Absent,
    At(i32),
    /// A level of a named dungeon (a branch's level where it leaves).
    In(String, i32),
    Loads,
    /// A failure cause: code, dungeon, level.
    Fails(String, Option<String>, Option<String>),
    /// A bones rule that forbids bones (its number), or rule 8 too shallow.
    Rule(String),
    /// Rule 8 with a chance above 0.
    CanLeave,
    Leaves,
    Stays,
}

impl Outcome {
    /// As charts name it; `dungeon`: a level names its dungeon.
    fn label(&self, dungeon: bool) -> String {
        match self {
            Outcome::Absent => "absent".into(),
            Outcome::At(k) => k.to_string(),
            Outcome::In(d, k) if dungeon => format!("{d} {k}"),
            Outcome::In(_, k) => k.to_string(),
            Outcome::Loads => "loads".into(),
            Outcome::Fails(code, d, l) => [Some(code), d.as_ref(), l.as_ref()]
                .into_iter()
                .flatten()
                .cloned()
                .collect::<Vec<_>>()
                .join(" "),
            Outcome::Rule(r) if r == "8" => "too shallow".into(),
            Outcome::Rule(r) => format!("rule {r}"),
            Outcome::CanLeave => "can leave".into(),
            Outcome::Leaves => "leaves bones".into(),
            Outcome::Stays => "no bones".into(),
        }
    }
}

type Joint = BTreeMap<Outcome, f64>;

/// The distribution of `what` over all layouts that load, "absent" one of
/// its outcomes; a side without the entry is absent with certainty.
fn joint(what: What, entry: Option<&Entry>) -> Joint {
    let mut j = Joint::new();
    let Some(entry) = entry else {
        j.insert(Outcome::Absent, 1.0);
        return j;
    };
    let exists = entry.exists();
    let spread = |j: &mut Joint, d: &Dist, f: &dyn Fn(i32) -> Outcome| {
        for (&k, &p) in d {
            *j.entry(f(k)).or_insert(0.0) += exists * p;
        }
    };
    match (what, entry) {
        (What::Failure, Entry::Failure(f)) => {
            j.insert(Outcome::Loads, 1.0 - f.failure);
            for c in &f.failures {
                *j.entry(Outcome::Fails(
                    c.code.clone(),
                    c.dungeon.clone(),
                    c.level.clone(),
                ))
                .or_insert(0.0) += c.probability;
            }
            return j;
        }
        (What::Levels, Entry::Dungeon(d)) => spread(&mut j, &d.num_levels, &Outcome::At),
        (What::TopDepth, Entry::Dungeon(d)) => spread(&mut j, &d.depth_start, &Outcome::At),
        (What::Depth, Entry::Level(l)) => spread(&mut j, &l.depth, &Outcome::At),
        (What::Level, Entry::Level(l)) => spread(&mut j, &l.level, &Outcome::At),
        (What::Depth, Entry::Branch(b)) => spread(&mut j, &b.depth, &Outcome::At),
        (What::Level, Entry::Branch(b)) => {
            spread(&mut j, &b.level, &|k| Outcome::In(b.from.clone(), k))
        }
        (What::BonesVerdict, Entry::Bones(c)) => {
            let b = &c.bones;
            for (rule, &p) in &b.decided_by {
                let p = if rule == "8" {
                    *j.entry(Outcome::CanLeave).or_insert(0.0) += exists * b.can_leave;
                    (p - b.can_leave).max(0.0)
                } else {
                    p
                };
                *j.entry(Outcome::Rule(rule.clone())).or_insert(0.0) += exists * p;
            }
        }
        (What::BonesChance, Entry::Bones(c)) => {
            j.insert(Outcome::Leaves, exists * c.bones.leave_chance);
            j.insert(Outcome::Stays, exists * (1.0 - c.bones.leave_chance));
        }
        // An aspect another kind has: not reached ([`whats`] pairs them).
        _ => {}
    }
    j.insert(Outcome::Absent, 1.0 - exists);
    j
}

/// The total variation distance and the number of outcomes either side
/// has.
fn tvd(a: &Joint, b: &Joint) -> (f64, usize) {
    let mut sum = 0.0;
    let mut n = 0;
    for (k, &p) in a {
        sum += (p - b.get(k).copied().unwrap_or(0.0)).abs();
        n += 1;
    }
    for (k, &q) in b {
        if !a.contains_key(k) {
            sum += q.abs();
            n += 1;
        }
    }
    (sum / 2.0, n)
}

/// What the bones rule numbered `number` says ("3": the bottom level of
/// its dungeon), as `decided_by` keys the rules.
pub fn bones_rule(number: &str) -> Option<&'static str> {
    number
        .parse::<u8>()
        .ok()
        .and_then(dgnkit_bones::Rule::from_number)
        .map(dgnkit_bones::Rule::summary)
}

/// Thresholds of `--fail-on`: what a maintainer's CI refuses.
#[derive(Clone, Debug, PartialEq)]
pub enum Threshold {
    /// NEW's loader can fail.
    Failure,
    /// NEW's loader fails more often than OLD's.
    FailureIncrease,
    /// A dungeon, special level or branch OLD can have and NEW never has.
    Removed,
    /// A dungeon, special level or branch NEW can have and OLD never has.
    Added,
    /// An item's distance above the bound (of one kind, or any).
    Tvd(Option<Kind>, f64),
}

/// The forms [`Threshold::parse`] takes, for messages.
pub const THRESHOLD_FORMS: &str = "failure, failure-increase, removed, added, tvd=X or KIND-tvd=X (KIND: failure, dungeon, level, branch, bones; X from 0 to 1)";

impl Threshold {
    pub fn parse(s: &str) -> Result<Threshold, String> {
        let s = s.trim();
        match s {
            "failure" => return Ok(Threshold::Failure),
            "failure-increase" => return Ok(Threshold::FailureIncrease),
            "removed" => return Ok(Threshold::Removed),
            "added" => return Ok(Threshold::Added),
            _ => {}
        }
        let Some((lhs, x)) = s.split_once('=') else {
            return Err(format!(
                "unknown threshold `{s}` (expected {THRESHOLD_FORMS})"
            ));
        };
        let kind = match lhs.strip_suffix("-tvd") {
            Some(k) => Some(Kind::parse(k).ok_or_else(|| {
                format!("unknown kind `{k}` in `{s}` (expected {THRESHOLD_FORMS})")
            })?),
            None if lhs == "tvd" => None,
            None => {
                return Err(format!(
                    "unknown threshold `{s}` (expected {THRESHOLD_FORMS})"
                ))
            }
        };
        match x.trim().parse::<f64>() {
            Ok(v) if (0.0..=1.0).contains(&v) => Ok(Threshold::Tvd(kind, v)),
            _ => Err(format!(
                "`{s}`: the distance must be a number from 0 to 1 (e.g. {lhs}=0.05)"
            )),
        }
    }

    /// As given on the command line.
    pub fn name(&self) -> String {
        match self {
            Threshold::Failure => "failure".into(),
            Threshold::FailureIncrease => "failure-increase".into(),
            Threshold::Removed => "removed".into(),
            Threshold::Added => "added".into(),
            Threshold::Tvd(None, x) => format!("tvd={x}"),
            Threshold::Tvd(Some(k), x) => format!("{}-tvd={x}", k.name()),
        }
    }

    /// What crosses the threshold in `diff`, one line each; empty when
    /// nothing does.
    pub fn crossed(&self, diff: &Diff) -> Vec<String> {
        let err = error_of(&diff.new.method) + error_of(&diff.old.method);
        let (old, new) = (diff.summary.old_failure, diff.summary.new_failure);
        // Beyond the numbers' error, and for a sample beyond its noise.
        let failure_moved = diff
            .changes
            .iter()
            .any(|c| c.kind == Kind::Failure && c.status != Status::Unchanged);
        let share = |p: f64| {
            if p == 0.0 {
                "0%".to_string()
            } else if p >= 1e-5 {
                format!("{:.3}%", p * 100.0)
            } else {
                format!("{:.2e}%", p * 100.0)
            }
        };
        let things = || {
            diff.changes
                .iter()
                .filter(|c| matches!(c.kind, Kind::Dungeon | Kind::Level | Kind::Branch))
        };
        match self {
            Threshold::Failure if new > 2.0 * err => {
                vec![format!("NEW's loader fails in {} of games", share(new))]
            }
            Threshold::FailureIncrease if failure_moved && new > old => vec![format!(
                "NEW's loader fails in {} of games, OLD's in {}",
                share(new),
                share(old)
            )],
            Threshold::Removed => things()
                .filter(|c| c.status == Status::Removed)
                .map(|c| format!("{} is removed", c.label()))
                .collect(),
            Threshold::Added => things()
                .filter(|c| c.status == Status::Added)
                .map(|c| format!("{} is added", c.label()))
                .collect(),
            Threshold::Tvd(kind, x) => diff
                .changes
                .iter()
                .filter(|c| {
                    c.status != Status::Unchanged && kind.is_none_or(|k| k == c.kind) && c.tvd > *x
                })
                .map(|c| format!("{}: TVD {:.4}", c.label(), c.tvd))
                .collect(),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BonesSummary, Dist};

    fn dist(pairs: &[(i32, f64)]) -> Dist {
        pairs.iter().copied().collect()
    }

    fn bones(can_leave: f64, leave_chance: f64, decided_by: &[(&str, f64)]) -> BonesSummary {
        BonesSummary {
            can_load: can_leave,
            can_leave,
            leave_chance,
            decided_by: decided_by
                .iter()
                .map(|(r, p)| ((*r).to_string(), *p))
                .collect(),
            leave_depth: None,
            p_bottom: 0.0,
            p_branch: 0.0,
            p_vibrating: 0.0,
            possible: [false; dgnkit_bones::rules::CATEGORIES],
            categories: [0.0; dgnkit_bones::rules::CATEGORIES],
            bottom: (false, true),
            branch: (false, true),
            vibrating: (false, true),
        }
    }

    fn level(name: &str, exists: f64, depth: &[(i32, f64)]) -> LevelStat {
        LevelStat {
            name: name.into(),
            dungeon: "The Dungeons of Doom".into(),
            exists,
            level: dist(depth),
            depth: dist(depth),
            bones: bones(1.0, 0.5, &[("8", 1.0)]),
        }
    }

    fn stats(levels: Vec<LevelStat>, failure: f64) -> Stats {
        // Field by field over a real result, so that fields added to
        // `Stats` later keep their defaults here.
        let mut s = crate::compute(&dgnkit_script::Script::default(), &Default::default());
        s.method = Method::Exact {
            max_error: 1e-15,
            states: 1,
            outcomes: 1,
            placement_states: 0,
        };
        s.failure = failure;
        s.failures = (failure > 0.0)
            .then(|| FailureStat {
                code: dgnkit_loader::FailCode::CouldntPlace.code().into(),
                dungeon: Some("The Dungeons of Doom".into()),
                level: Some("castle".into()),
                probability: failure,
                example: "seed 3".into(),
            })
            .into_iter()
            .collect();
        s.dungeons = vec![DungeonStat {
            name: "The Dungeons of Doom".into(),
            exists: 1.0,
            num_levels: dist(&[(25, 0.5), (26, 0.5)]),
            depth_start: dist(&[(1, 1.0)]),
        }];
        s.levels = levels;
        s.branches = Vec::new();
        s.bones = vec![BonesStat {
            dungeon: "The Dungeons of Doom".into(),
            level: 5,
            exists: 1.0,
            bones: bones(0.75, 0.2, &[("4", 0.25), ("8", 0.75)]),
        }];
        s
    }

    fn diff(old: &Stats, new: &Stats) -> Diff {
        let side = |stats| Described {
            file: "f",
            target: "nethack-3.6",
            stats,
        };
        compare(side(old), side(new))
    }

    fn find<'a>(d: &'a Diff, kind: Kind, name: &str) -> &'a Change {
        d.changes
            .iter()
            .find(|c| c.kind == kind && c.name == name)
            .unwrap_or_else(|| panic!("no {kind:?} {name}"))
    }

    #[test]
    fn the_same_statistics_change_nothing() {
        let s = stats(vec![level("oracle", 1.0, &[(5, 0.5), (6, 0.5)])], 0.0);
        let mut d = diff(&s, &s);
        assert_eq!(d.summary.changed + d.summary.added + d.summary.removed, 0);
        assert_eq!(d.summary.max_tvd, 0.0);
        d.retain_changed();
        assert!(d.changes.is_empty());
    }

    #[test]
    fn distances_count_absence_as_an_outcome() {
        // (old level, new level or none, expected status, expected TVD)
        let cases: &[(LevelStat, Option<LevelStat>, Status, f64)] = &[
            // One step deeper half the time.
            (
                level("oracle", 1.0, &[(5, 0.5), (6, 0.5)]),
                Some(level("oracle", 1.0, &[(6, 0.5), (7, 0.5)])),
                Status::Changed,
                0.5,
            ),
            // Same depths, half as often: half the mass moves to "absent".
            (
                level("bigrm", 0.8, &[(10, 1.0)]),
                Some(level("bigrm", 0.4, &[(10, 1.0)])),
                Status::Changed,
                0.4,
            ),
            (
                level("medusa", 1.0, &[(21, 1.0)]),
                None,
                Status::Removed,
                1.0,
            ),
            // In the file but never there: not a possibility lost.
            (level("rogue", 0.0, &[]), None, Status::Unchanged, 0.0),
        ];
        for (old, new, status, tvd) in cases {
            let o = stats(vec![old.clone()], 0.0);
            let n = stats(new.iter().cloned().collect(), 0.0);
            let d = diff(&o, &n);
            let c = find(&d, Kind::Level, &old.name);
            assert_eq!(c.status, *status, "{}", old.name);
            assert!((c.tvd - tvd).abs() < 1e-12, "{}: {}", old.name, c.tvd);
            assert_eq!(c.old.as_ref(), Some(&Entry::Level(old.clone())));
            assert_eq!(c.new.as_ref(), new.clone().map(Entry::Level).as_ref());
            // Added is removed read backwards.
            let back = diff(&n, &o);
            let b = find(&back, Kind::Level, &old.name);
            let expected = match status {
                Status::Removed => Status::Added,
                s => *s,
            };
            assert_eq!(b.status, expected);
            assert!((b.tvd - c.tvd).abs() < 1e-15);
        }
    }

    #[test]
    fn the_largest_change_comes_first_and_failure_is_an_item() {
        let o = stats(vec![level("oracle", 1.0, &[(5, 1.0)])], 0.0);
        let mut n = stats(vec![level("oracle", 1.0, &[(5, 0.9), (6, 0.1)])], 0.3);
        n.bones[0].bones = bones(0.5, 0.1, &[("4", 0.5), ("8", 0.5)]);
        let d = diff(&o, &n);
        let order: Vec<(Kind, f64)> = d.changes.iter().map(|c| (c.kind, c.tvd)).collect();
        assert_eq!(order[0].0, Kind::Failure);
        assert!((order[0].1 - 0.3).abs() < 1e-12);
        assert!(order.windows(2).all(|w| w[0].1 >= w[1].1), "{order:?}");
        let cell = find(&d, Kind::Bones, "level 5");
        assert_eq!(cell.level, Some(5));
        // can leave 0.75 -> 0.5 moves a quarter from "can leave" to rule 4.
        assert!((cell.aspect(What::BonesVerdict).unwrap().tvd - 0.25).abs() < 1e-12);
        assert!((cell.aspect(What::BonesChance).unwrap().tvd - 0.1).abs() < 1e-12);
        assert_eq!(
            find(&d, Kind::Dungeon, "The Dungeons of Doom").status,
            Status::Unchanged
        );
    }

    #[test]
    fn entries_pair_by_name_and_occurrence() {
        let a = ["x", "y", "x", "z"];
        let b = ["x", "w", "x", "x"];
        let pairs: Vec<_> = pair(&a, &b, |s| *s)
            .into_iter()
            .map(|(o, n, nth)| (o.copied(), n.copied(), nth))
            .collect();
        assert_eq!(
            pairs,
            [
                (Some("x"), Some("x"), 1),
                (None, Some("w"), 1),
                (Some("x"), Some("x"), 2),
                (None, Some("x"), 3),
                (Some("y"), None, 1),
                (Some("z"), None, 1),
            ]
        );
    }

    #[test]
    fn thresholds_parse_and_cross() {
        let parsed: &[(&str, Result<Threshold, ()>)] = &[
            ("failure", Ok(Threshold::Failure)),
            ("failure-increase", Ok(Threshold::FailureIncrease)),
            ("removed", Ok(Threshold::Removed)),
            ("added", Ok(Threshold::Added)),
            ("tvd=0.05", Ok(Threshold::Tvd(None, 0.05))),
            ("level-tvd=0", Ok(Threshold::Tvd(Some(Kind::Level), 0.0))),
            ("tvd=2", Err(())),
            ("tvd=x", Err(())),
            ("room-tvd=0.1", Err(())),
            ("failures", Err(())),
        ];
        for (s, want) in parsed {
            assert_eq!(Threshold::parse(s).map_err(|_| ()), *want, "{s}");
            if let Ok(t) = Threshold::parse(s) {
                assert_eq!(Threshold::parse(&t.name()), Ok(t));
            }
        }
        let o = stats(vec![level("oracle", 1.0, &[(5, 1.0)])], 0.0);
        let n = stats(vec![level("oracle", 1.0, &[(5, 0.9), (6, 0.1)])], 0.25);
        let d = diff(&o, &n);
        let crossed = |t: &str| Threshold::parse(t).unwrap().crossed(&d).len();
        assert_eq!(crossed("failure"), 1);
        assert_eq!(crossed("failure-increase"), 1);
        assert_eq!(crossed("removed"), 0);
        assert_eq!(crossed("level-tvd=0.05"), 1);
        assert_eq!(crossed("level-tvd=0.1"), 0);
        assert_eq!(crossed("tvd=0.2"), 1);
        let back = diff(&n, &o);
        let crossed = |t: &str| Threshold::parse(t).unwrap().crossed(&back).len();
        assert_eq!(crossed("failure"), 0);
        assert_eq!(crossed("failure-increase"), 0);
    }
}
