//! Bones verdicts from the source alone: per special level and per dungeon,
//! over every layout the loader can produce. They come from the statistics
//! ([`crate::stats`]), which know exactly which outcomes are possible, so
//! "never" means never in any layout, not "never in the layouts tried"
//! (unless the statistics had to be sampled, which the report says).

use crate::{BonesSummary, Method, Stats, StatsOptions};
use dgnkit_bones::rules::{depth_chance, Rule, CATEGORIES, CAT_ELIGIBLE, CAT_SHALLOW};
use dgnkit_script::Script;
use serde::Serialize;

/// The verdict in one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StaticKind {
    /// It exists in no layout.
    NeverExists,
    /// No bones in any layout: a rule of 1-5 always forbids them.
    Never,
    /// Bones are loaded (from a file another level of the same name left)
    /// but never left here: rule 6, 7 or a depth below 4.
    LoadOnly,
    /// Whether it can have bones depends on the layout.
    Depends,
    /// It can leave and load bones in every layout (the depth roll decides).
    Eligible,
}

impl StaticKind {
    pub fn name(self) -> &'static str {
        match self {
            StaticKind::NeverExists => "never exists",
            StaticKind::Never => "never",
            StaticKind::LoadOnly => "load only",
            StaticKind::Depends => "depends on layout",
            StaticKind::Eligible => "eligible",
        }
    }
}

/// The verdict for one special level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpecialVerdict {
    pub name: String,
    pub dungeon: String,
    pub exists: f64,
    pub verdict: StaticKind,
    /// Rules that forbid bones (or leaving them) in every layout.
    pub rules: Vec<u8>,
    /// Why it depends, with probabilities, or what decides.
    pub reasons: Vec<String>,
    /// Depths it can lie at.
    pub depth: Option<(i32, i32)>,
    /// Depths at which it can leave bones, and the chances there.
    pub leave_depth: Option<(i32, i32)>,
    pub leave_chance: Option<(String, String)>,
    /// Given that it exists.
    pub p_load: f64,
    pub p_leave: f64,
}

/// The verdict for one dungeon's levels.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DungeonVerdict {
    pub name: String,
    pub exists: f64,
    pub verdict: StaticKind,
    pub rules: Vec<u8>,
    /// Which level numbers each rule can forbid, and where bones can be
    /// left.
    pub reasons: Vec<String>,
    pub leave_depth: Option<(i32, i32)>,
    pub leave_chance: Option<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StaticReport {
    pub method: Method,
    /// What the game also tests that these verdicts cannot know.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    pub levels: Vec<SpecialVerdict>,
    pub dungeons: Vec<DungeonVerdict>,
}

fn pct(p: f64) -> String {
    let v = p * 100.0;
    if v > 0.0 && v < 0.1 {
        format!("{v:.2e}%")
    } else if (v - v.round()).abs() < 0.05 {
        format!("{}%", v.round())
    } else {
        format!("{v:.1}%")
    }
}

fn chance_range(depths: Option<(i32, i32)>) -> Option<(String, String)> {
    let (a, b) = depths?;
    let f = |d: i32| {
        let (n, m) = depth_chance(d);
        format!("{n}/{m}")
    };
    Some((f(a), f(b)))
}

/// Rules 1-5 that hold in every layout where the level exists.
fn always_rules(b: &BonesSummary, marker_none: bool, dungeon_none: bool) -> Vec<u8> {
    let mut r = Vec::new();
    if marker_none {
        r.push(1);
    }
    if dungeon_none {
        r.push(2);
    }
    let always = |f: (bool, bool)| f.0 && !f.1;
    if always(b.bottom) {
        r.push(3);
    }
    if always(b.branch) {
        r.push(4);
    }
    if always(b.vibrating) {
        r.push(5);
    }
    r
}

/// "rule 4 (a branch ends here) in 7.5%" for each possible category that
/// `which` selects (never the eligible one).
fn category_reasons(b: &BonesSummary, which: impl Fn(usize) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    for c in (0..CATEGORIES).filter(|&c| which(c) && c != CAT_ELIGIBLE) {
        if !b.possible[c] {
            continue;
        }
        let Some(r) = Rule::of_category(c) else {
            continue;
        };
        let what = if c == CAT_SHALLOW {
            "depth below 4: the depth roll never leaves bones".to_string()
        } else {
            r.summary().to_string()
        };
        out.push(format!(
            "rule {} ({what}) in {}",
            r.number(),
            pct(b.categories[c])
        ));
    }
    out
}

/// Loads bones but never leaves them: rules 6-7 and a shallow depth roll.
fn loads_only(c: usize) -> bool {
    !Rule::category_stops_loading(c)
}

fn special(
    stats: &Stats,
    i: usize,
    script_marker_none: bool,
    dungeon_none: bool,
) -> SpecialVerdict {
    let l = &stats.levels[i];
    let b = &l.bones;
    let depth = match (l.depth.keys().next(), l.depth.keys().next_back()) {
        (Some(&a), Some(&z)) => Some((a, z)),
        _ => None,
    };
    let mut v = SpecialVerdict {
        name: l.name.clone(),
        dungeon: l.dungeon.clone(),
        exists: l.exists,
        verdict: StaticKind::Eligible,
        rules: Vec::new(),
        reasons: Vec::new(),
        depth,
        leave_depth: b.leave_depth,
        leave_chance: chance_range(b.leave_depth),
        p_load: b.can_load,
        p_leave: b.can_leave,
    };
    if l.exists <= 0.0 && !b.possible.iter().any(|&p| p) {
        v.verdict = StaticKind::NeverExists;
        v.reasons.push("it exists in no layout".into());
        return v;
    }
    if !b.load_possible() {
        v.verdict = StaticKind::Never;
        v.rules = always_rules(b, script_marker_none, dungeon_none);
        if v.rules.is_empty() {
            v.reasons = category_reasons(b, Rule::category_stops_loading);
        }
        return v;
    }
    if !b.no_load_possible() {
        if !b.leave_possible() {
            v.verdict = StaticKind::LoadOnly;
            for (c, rule) in [(5, 6u8), (6, 7)] {
                if b.possible[c] && !b.possible.iter().enumerate().any(|(o, &p)| p && o != c) {
                    v.rules.push(rule);
                }
            }
            v.reasons = category_reasons(b, loads_only);
            return v;
        }
        if b.no_leave_possible() {
            v.verdict = StaticKind::Depends;
            v.reasons = category_reasons(b, loads_only);
        } else {
            v.verdict = StaticKind::Eligible;
        }
    } else {
        v.verdict = StaticKind::Depends;
        v.reasons = category_reasons(b, |_| true);
    }
    if let (Some((a, z)), Some((ca, cz))) = (v.leave_depth, &v.leave_chance) {
        v.reasons.push(format!(
            "can leave bones at depth {a}-{z} (chance {ca} to {cz})"
        ));
    }
    v
}

/// "2-4, 11-16" from sorted level numbers.
fn spans(levels: &[i32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < levels.len() {
        let mut j = i;
        while j + 1 < levels.len() && levels[j + 1] == levels[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            levels[i].to_string()
        } else {
            format!("{}-{}", levels[i], levels[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

fn dungeon(stats: &Stats, d: usize, marker_none: bool) -> DungeonVerdict {
    let ds = &stats.dungeons[d];
    let cells: Vec<&crate::BonesStat> = stats
        .bones
        .iter()
        .filter(|c| c.dungeon == ds.name)
        .collect();
    let mut v = DungeonVerdict {
        name: ds.name.clone(),
        exists: ds.exists,
        verdict: StaticKind::Never,
        rules: Vec::new(),
        reasons: Vec::new(),
        leave_depth: None,
        leave_chance: None,
    };
    if ds.exists <= 0.0 {
        v.verdict = StaticKind::NeverExists;
        return v;
    }
    if marker_none {
        v.rules.push(2);
        return v;
    }
    let mut leave_depth: Option<(i32, i32)> = None;
    let (mut any_load, mut any_leave) = (false, false);
    for c in &cells {
        any_load |= c.bones.load_possible();
        any_leave |= c.bones.leave_possible();
        if let Some((a, z)) = c.bones.leave_depth {
            leave_depth = Some(leave_depth.map_or((a, z), |(x, y)| (x.min(a), y.max(z))));
        }
    }
    for cat in (0..CATEGORIES).filter(|&c| c != CAT_ELIGIBLE) {
        let levels: Vec<i32> = cells
            .iter()
            .filter(|c| c.bones.possible[cat])
            .map(|c| c.level)
            .collect();
        if levels.is_empty() {
            continue;
        }
        let what = if cat == CAT_SHALLOW {
            "the depth roll never leaves bones (depth below 4)".to_string()
        } else {
            Rule::of_category(cat).map_or_else(String::new, |r| {
                format!("rule {} ({})", r.number(), r.summary())
            })
        };
        v.reasons.push(format!("{what}: level {}", spans(&levels)));
    }
    v.verdict = if any_leave {
        StaticKind::Eligible
    } else if any_load {
        StaticKind::LoadOnly
    } else {
        // Every level is always forbidden: say by what, if one rule does.
        let all: Vec<u8> = (0..CATEGORIES)
            .filter(|&c| Rule::category_stops_loading(c))
            .filter(|&c| {
                cells.iter().all(|cell| {
                    cell.bones.possible[c]
                        && !cell
                            .bones
                            .possible
                            .iter()
                            .enumerate()
                            .any(|(o, &p)| p && o != c)
                })
            })
            .filter_map(|c| Rule::of_category(c).map(Rule::number))
            .collect();
        v.rules = all;
        StaticKind::Never
    };
    v.leave_depth = leave_depth;
    v.leave_chance = chance_range(leave_depth);
    if let (Some((a, z)), Some((ca, cz))) = (v.leave_depth, &v.leave_chance) {
        v.reasons.push(format!(
            "other levels can leave bones at depth {a}-{z} (chance {ca} to {cz})"
        ));
    }
    v
}

/// The verdicts from statistics already computed for `script`.
pub fn verdicts_from_stats(script: &Script, stats: &Stats) -> StaticReport {
    let mut levels = Vec::new();
    let mut i = 0;
    for d in &script.dungeons {
        for l in &d.levels {
            if i < stats.levels.len() {
                levels.push(special(stats, i, l.bones == 0, d.bones == 0));
            }
            i += 1;
        }
    }
    let dungeons = script
        .dungeons
        .iter()
        .enumerate()
        .filter(|(di, _)| *di < stats.dungeons.len())
        .map(|(di, d)| dungeon(stats, di, d.bones == 0))
        .collect();
    StaticReport {
        method: stats.method.clone(),
        notes: Vec::new(),
        levels,
        dungeons,
    }
}

/// The verdicts for a script: its statistics (exact when they fit the
/// budget), then the verdicts.
pub fn static_verdicts(script: &Script, opts: &StatsOptions) -> StaticReport {
    let stats = crate::compute(script, opts);
    StaticReport {
        notes: opts.bones.notes(),
        ..verdicts_from_stats(script, &stats)
    }
}
