//! `dgn diff` for people: a table of what changed between two
//! descriptions, largest change first, and a web page drawing each changed
//! distribution old against new.
//!
//! Every figure is one of the two sides' `dgn stats` figures, written as
//! `dgn stats` writes it ([`crate::table`]); only the change and the
//! distance are the diff's own.

use crate::chart::{esc, method_line, PALETTE};
use crate::table::{aligned, failure_line, mean, percent, range_mean};
use dgnkit_stats::diff::{bones_rule, Aspect, Bar, Change, Diff, Entry, Kind, Side, Status, What};
use dgnkit_stats::Dist;
use std::fmt::Write as _;

const OLD_COLOR: &str = PALETTE[9];
const NEW_COLOR: &str = PALETTE[0];

/// `dgn diff`'s table as data: every line and cell [`human`] prints, for
/// a page or a tool that draws it itself (`dgn diff --format json`'s
/// `table`).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The lines above the table: each side's file, game and method, the
    /// counts, and the note on sampling noise when a side is sampled.
    pub head: Vec<String>,
    /// One row per distribution shown, largest change first.
    pub rows: Vec<Row>,
    /// The bones rules the change column names, in number order, with
    /// what each says.
    pub rules: Vec<(u8, &'static str)>,
    /// The lines under "Loader failures": each side's causes, when either
    /// side can fail.
    pub failures: Vec<String>,
}

/// One row of the table: one distribution of one item.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The item's index in [`Diff::changes`].
    pub index: usize,
    /// The item, as its first row names it (`level heck-e #2 (Gehennom)`).
    pub item: String,
    /// The distribution compared.
    pub what: What,
    /// OLD's and NEW's figures, as `dgn stats` writes them.
    pub old: String,
    pub new: String,
    /// What moved, in words.
    pub change: String,
    /// The distance, as printed.
    pub tvd: String,
}

/// The table of `diff`. `all`: every aspect of every listed item, not only
/// those that changed.
pub fn table(diff: &Diff, all: bool) -> Table {
    let mut head: Vec<String> = [("OLD", &diff.old), ("NEW", &diff.new)]
        .iter()
        .map(|(which, side)| format!("{which} {}", side_line(side)))
        .collect();
    let s = &diff.summary;
    head.push(format!(
        "{} changed, {} added, {} removed, {} unchanged of {} items",
        s.changed, s.added, s.removed, s.unchanged, s.items
    ));
    if s.noise > 0.0 {
        head.push(format!(
            "A side is sampled (each probability within {:.2} points at 95% confidence): a distance within its sampling noise counts as no change.",
            s.noise * 100.0
        ));
    }
    Table {
        head,
        rows: rows(diff, all),
        rules: rules_named(diff, all),
        failures: failures(diff),
    }
}

/// The table, with a header naming both sides and how their numbers were
/// obtained. `all`: every aspect of every listed item, not only those
/// that changed.
pub fn human(diff: &Diff, all: bool) -> String {
    let t = table(diff, all);
    let mut o = String::new();
    for line in &t.head {
        let _ = writeln!(o, "{line}");
    }
    if t.rows.is_empty() {
        o.push_str("\nNo differences.\n");
        return o;
    }
    o.push_str(
        "\nOne row per distribution over the layouts that load (\"absent\" is one of its outcomes).\n\
         TVD: total variation distance, 0 (the same) to 1 (disjoint); largest first, a loader that fails more often before all.\n\n",
    );
    let mut cells = vec![["item", "what", "old", "new", "change", "TVD"]
        .map(String::from)
        .to_vec()];
    let mut last = None;
    for r in t.rows {
        // An item is named on its first row only.
        let first = last != Some(r.index);
        last = Some(r.index);
        cells.push(vec![
            if first { r.item } else { String::new() },
            r.what.label().to_string(),
            r.old,
            r.new,
            r.change,
            r.tvd,
        ]);
    }
    o += &aligned(&cells, &[false, false, false, false, false, true]);
    if !t.rules.is_empty() {
        o += "\nBones rules named above\n";
        for (n, says) in t.rules {
            let _ = writeln!(o, "  rule {n}: {says}");
        }
    }
    if !t.failures.is_empty() {
        o += "\nLoader failures\n";
        for line in t.failures {
            let _ = writeln!(o, "{line}");
        }
    }
    o
}

/// The bones rules the change column names ("rule 3 -> 1"), with what
/// each says, in number order.
fn rules_named(diff: &Diff, all: bool) -> Vec<(u8, &'static str)> {
    let mut out: Vec<(u8, &'static str)> = diff
        .changes
        .iter()
        .filter(|c| {
            c.aspects
                .iter()
                .any(|a| a.what == What::BonesVerdict && (all || a.tvd > a.noise))
        })
        .filter_map(rule_change)
        .flat_map(|(a, b)| [a, b])
        .filter_map(|r| Some((r.parse::<u8>().ok()?, bones_rule(&r)?)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The bones rule that decides on the level less often in NEW and the one
/// that decides more often, each the largest such shift, when both moved.
fn rule_change(c: &Change) -> Option<(String, String)> {
    let share = |e: &Option<Entry>| -> std::collections::BTreeMap<String, f64> {
        match e {
            Some(Entry::Bones(b)) => b
                .bones
                .decided_by
                .iter()
                .map(|(r, p)| (r.clone(), p * b.exists))
                .collect(),
            _ => Default::default(),
        }
    };
    let (old, new) = (share(&c.old), share(&c.new));
    let delta =
        |r: &String| new.get(r).copied().unwrap_or(0.0) - old.get(r).copied().unwrap_or(0.0);
    let rules: Vec<&String> = old.keys().chain(new.keys()).collect();
    let most = |sign: f64| {
        rules
            .iter()
            .map(|r| (sign * delta(r), *r))
            .filter(|(d, _)| *d > 1e-9)
            .max_by(|x, y| x.0.total_cmp(&y.0))
            .map(|(_, r)| r.clone())
    };
    Some((most(-1.0)?, most(1.0)?))
}

/// "corpus/nethack-3.6.def: nethack-3.6 loader; exact enumeration (...)".
fn side_line(side: &Side) -> String {
    format!(
        "{}: {} loader; {}",
        side.file,
        side.target,
        method_line(&side.method)
    )
}

fn rows(diff: &Diff, all: bool) -> Vec<Row> {
    let mut rows = Vec::new();
    for (index, c) in diff.changes.iter().enumerate() {
        let shown: Vec<&Aspect> = c
            .aspects
            .iter()
            .filter(|a| all || a.tvd > a.noise)
            .collect();
        let shown = if shown.is_empty() {
            c.aspects.iter().take(1).collect()
        } else {
            shown
        };
        for a in shown {
            rows.push(Row {
                index,
                item: c.label(),
                what: a.what,
                old: cell(c, a.what, c.old.as_ref()),
                new: cell(c, a.what, c.new.as_ref()),
                change: change(c, a.what),
                tvd: distance(a.tvd),
            });
        }
    }
    rows
}

/// A TVD to three decimals (a tiny one in scientific notation).
pub fn distance(tvd: f64) -> String {
    if tvd > 0.0 && tvd < 0.0005 {
        format!("{tvd:.1e}")
    } else {
        format!("{tvd:.3}")
    }
}

/// A side's figures for one aspect, as `dgn stats` writes them.
fn cell(c: &Change, what: What, entry: Option<&Entry>) -> String {
    let Some(entry) = entry else {
        return "not in file".into();
    };
    if let Entry::Failure(f) = entry {
        return percent(f.failure);
    }
    let exists = entry.exists();
    if exists <= 0.0 {
        return "never".into();
    }
    let body = match (what, entry) {
        (What::Levels, Entry::Dungeon(d)) => range_mean(&d.num_levels),
        (What::TopDepth, Entry::Dungeon(d)) => range_mean(&d.depth_start),
        (What::Depth, Entry::Level(l)) => range_mean(&l.depth),
        (What::Level, Entry::Level(l)) => range_mean(&l.level),
        (What::Depth, Entry::Branch(b)) => range_mean(&b.depth),
        (What::Level, Entry::Branch(b)) => {
            let moved = match (&c.old, &c.new) {
                (Some(Entry::Branch(o)), Some(Entry::Branch(n))) => o.from != n.from,
                _ => false,
            };
            if moved {
                format!("{} in {}", range_mean(&b.level), b.from)
            } else {
                range_mean(&b.level)
            }
        }
        (What::BonesVerdict, Entry::Bones(b)) => format!(
            "can load {}, leave {}",
            percent(b.bones.can_load),
            percent(b.bones.can_leave)
        ),
        (What::BonesChance, Entry::Bones(b)) => percent(b.bones.leave_chance),
        _ => "-".into(),
    };
    if exists < 1.0 {
        format!("{}: {body}", percent(exists))
    } else {
        body
    }
}

/// What moved, in words: added or removed, existence, the mean, the
/// bones figures.
fn change(c: &Change, what: What) -> String {
    match c.status {
        Status::Added => return "added".into(),
        Status::Removed => return "removed".into(),
        _ => {}
    }
    let (Some(old), Some(new)) = (&c.old, &c.new) else {
        return String::new();
    };
    let mut parts = Vec::new();
    let exists = new.exists() - old.exists();
    if let (Entry::Failure(o), Entry::Failure(n)) = (old, new) {
        if n.failure != o.failure {
            parts.push(points(n.failure - o.failure));
        }
        return parts.join(", ");
    }
    if exists.abs() > 1e-9 {
        parts.push(format!("exists {}", points(exists)));
    }
    match (old, new) {
        (Entry::Bones(o), Entry::Bones(n)) => {
            let (o, n) = (&o.bones, &n.bones);
            if what == What::BonesVerdict {
                if let Some((a, b)) = rule_change(c) {
                    parts.push(format!("rule {a} -> {b}"));
                }
            }
            let figures: &[(&str, f64, f64)] = match what {
                What::BonesVerdict => &[
                    ("can load", o.can_load, n.can_load),
                    ("can leave", o.can_leave, n.can_leave),
                ],
                _ => &[("chance", o.leave_chance, n.leave_chance)],
            };
            for &(name, a, b) in figures {
                if (b - a).abs() > 1e-9 {
                    parts.push(format!("{name} {}", points(b - a)));
                }
            }
        }
        _ => {
            if let (Some(a), Some(b)) = (dist(old, what), dist(new, what)) {
                let shift = mean(b) - mean(a);
                if !a.is_empty() && !b.is_empty() && shift.abs() >= 0.05 {
                    parts.push(format!("mean {shift:+.1}"));
                }
            }
        }
    }
    if parts.is_empty() && c.aspect(what).is_some_and(|a| a.tvd > 0.0) {
        parts.push("spread".into());
    }
    parts.join(", ")
}

fn dist(e: &Entry, what: What) -> Option<&Dist> {
    match (what, e) {
        (What::Levels, Entry::Dungeon(d)) => Some(&d.num_levels),
        (What::TopDepth, Entry::Dungeon(d)) => Some(&d.depth_start),
        (What::Depth, Entry::Level(l)) => Some(&l.depth),
        (What::Level, Entry::Level(l)) => Some(&l.level),
        (What::Depth, Entry::Branch(b)) => Some(&b.depth),
        (What::Level, Entry::Branch(b)) => Some(&b.level),
        _ => None,
    }
}

/// A difference of probabilities in percentage points, signed.
fn points(d: f64) -> String {
    let v = d * 100.0;
    if v.abs() >= 0.05 {
        format!("{v:+.1} pts")
    } else {
        format!("{v:+.1e} pts")
    }
}

/// Each side's failure causes, when either side can fail: the lines
/// under "Loader failures".
fn failures(diff: &Diff) -> Vec<String> {
    let Some(c) = diff.changes.iter().find(|c| c.kind == Kind::Failure) else {
        return Vec::new();
    };
    let causes = |e: &Option<Entry>| match e {
        Some(Entry::Failure(f)) => f.failures.clone(),
        _ => Vec::new(),
    };
    let (old, new) = (causes(&c.old), causes(&c.new));
    if old.is_empty() && new.is_empty() {
        return Vec::new();
    }
    let mut o = Vec::new();
    for (which, list) in [("OLD", old), ("NEW", new)] {
        if list.is_empty() {
            o.push(format!("  {which}: none"));
        }
        for f in list {
            o.push(failure_line(&format!("{which}: "), &f));
        }
    }
    o
}

/// A self-contained page: the summary, then per changed item a row of
/// figures and, per changed distribution, an SVG of its outcomes, OLD's
/// bar beside NEW's.
pub fn html(diff: &Diff, all: bool) -> String {
    let title = format!("dgn diff: {} → {}", diff.old.file, diff.new.file);
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>",
        esc(&title)
    );
    h.push_str(
        "<style>body{font-family:'DejaVu Sans',Arial,sans-serif;margin:16px;color:#222}\
         h2{font-size:15px;margin:22px 0 4px}\
         table{border-collapse:collapse;font-size:13px}\
         th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}\
         td.n{text-align:right}.key{display:inline-block;width:12px;height:12px;margin:0 4px 0 10px}\
         p{margin:4px 0}</style>\n</head>\n<body>\n",
    );
    let _ = writeln!(h, "<h1 style=\"font-size:18px\">{}</h1>", esc(&title));
    for (which, side, color) in [("OLD", &diff.old, OLD_COLOR), ("NEW", &diff.new, NEW_COLOR)] {
        let _ = writeln!(
            h,
            "<p><span class=\"key\" style=\"background:{color}\"></span><b>{which}</b> {}</p>",
            esc(&side_line(side))
        );
    }
    let s = &diff.summary;
    let _ = writeln!(
        h,
        "<p>{} changed, {} added, {} removed, {} unchanged of {} items. Each distribution is over the layouts that load, “absent” one of its outcomes; TVD is the total variation distance, 0 (the same) to 1 (disjoint); largest first (a loader that fails more often, before all).</p>",
        s.changed, s.added, s.removed, s.unchanged, s.items
    );
    if s.noise > 0.0 {
        let _ = writeln!(
            h,
            "<p>A side is sampled (each probability within {:.2} points at 95% confidence): a distance within its sampling noise counts as no change.</p>",
            s.noise * 100.0
        );
    }
    let mut any = false;
    for c in &diff.changes {
        let shown: Vec<&Aspect> = c
            .aspects
            .iter()
            .filter(|a| all || a.tvd > a.noise)
            .collect();
        if shown.is_empty() && c.status != Status::Unchanged {
            continue;
        }
        any = true;
        let _ = writeln!(
            h,
            "<section class=\"change\">\n<h2>{} <small>({}, TVD {})</small></h2>",
            esc(&c.label()),
            status_word(c.status),
            distance(c.tvd)
        );
        h.push_str(
            "<table>\n<tr><th>what</th><th>old</th><th>new</th><th>change</th><th>TVD</th></tr>\n",
        );
        for a in &shown {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td></tr>",
                a.what.label(),
                esc(&cell(c, a.what, c.old.as_ref())),
                esc(&cell(c, a.what, c.new.as_ref())),
                esc(&change(c, a.what)),
                distance(a.tvd)
            );
        }
        h.push_str("</table>\n");
        for a in &shown {
            h.push_str(&bars_svg(&c.label(), a, &c.bars(a.what)));
        }
        h.push_str("</section>\n");
    }
    if !any {
        h.push_str("<p>No differences.</p>\n");
    }
    let rules = rules_named(diff, all);
    if !rules.is_empty() {
        h.push_str("<h2>Bones rules named above</h2>\n<ul>\n");
        for (n, says) in rules {
            let _ = writeln!(h, "<li>rule {n}: {}</li>", esc(says));
        }
        h.push_str("</ul>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Added => "added",
        Status::Removed => "removed",
        Status::Changed => "changed",
        Status::Unchanged => "unchanged",
    }
}

/// One distribution's outcomes as paired bars, OLD then NEW, heights
/// relative to the largest probability; hover for the numbers.
pub fn bars_svg(item: &str, aspect: &Aspect, bars: &[Bar]) -> String {
    let (bar, gap, plot_h, top, left) = (9.0, 8.0, 90.0, 24.0, 40.0);
    let group = 2.0 * bar + gap;
    let longest = bars
        .iter()
        .map(|b| b.outcome.chars().count())
        .max()
        .unwrap_or(1) as f64;
    // Outcome names stand upright when short, slanted when long.
    let slanted = longest > 3.0;
    // A slanted name runs down and right at 45 degrees, about 6 px a
    // character.
    let run = (longest * 6.0 * std::f64::consts::FRAC_1_SQRT_2).min(120.0);
    let label_h = if slanted { run + 16.0 } else { 18.0 };
    let width = (left + group * bars.len() as f64 + if slanted { run } else { 16.0 }).max(280.0);
    let height = top + plot_h + label_h;
    let max = bars.iter().map(|b| b.old.max(b.new)).fold(0.0f64, f64::max);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Arial, sans-serif" font-size="11" role="img" aria-label="{}">"#,
        esc(&format!("{item}: {}", aspect.what.label()))
    );
    let _ = writeln!(
        s,
        r##"<text x="4" y="14" fill="#333">{}: TVD {}</text>"##,
        esc(aspect.what.label()),
        distance(aspect.tvd)
    );
    let base = top + plot_h;
    let _ = writeln!(
        s,
        r##"<line x1="{left}" y1="{base}" x2="{:.1}" y2="{base}" stroke="#999"/>"##,
        width - 8.0
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555">{}</text>"##,
        left - 4.0,
        top + 8.0,
        percent(max)
    );
    for (i, b) in bars.iter().enumerate() {
        let x0 = left + 4.0 + group * i as f64;
        for (j, (p, color, which)) in [(b.old, OLD_COLOR, "old"), (b.new, NEW_COLOR, "new")]
            .into_iter()
            .enumerate()
        {
            let h = if max > 0.0 { p / max * plot_h } else { 0.0 };
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{bar}" height="{h:.1}" fill="{color}"><title>{}: {} {which}</title></rect>"#,
                x0 + bar * j as f64,
                base - h,
                esc(&b.outcome),
                percent(p)
            );
        }
        let cx = x0 + bar;
        if slanted {
            let _ = writeln!(
                s,
                r##"<text x="{cx:.1}" y="{:.1}" transform="rotate(45 {cx:.1} {:.1})" fill="#333">{}</text>"##,
                base + 12.0,
                base + 12.0,
                esc(&b.outcome)
            );
        } else {
            let _ = writeln!(
                s,
                r##"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" fill="#333">{}</text>"##,
                base + 13.0,
                esc(&b.outcome)
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgnkit_stats::diff::{compare, Described};

    fn stats_of(src: &str) -> dgnkit_stats::Stats {
        let analysis = dgnkit::frontend::analyze(src.as_bytes(), &Default::default());
        let script = analysis.script.expect("the test file checks");
        let game = dgnkit::options::Target::default().game();
        dgnkit_stats::compute(
            &script,
            &dgnkit_stats::StatsOptions {
                game: game.loader_game(),
                bones: game.bones_options(),
                ..Default::default()
            },
        )
    }

    const OLD: &str = include_str!("../../../corpus/nethack-3.6.def");
    const ORACLE: &str = "\"oracle\" \"O\" @ (5, 5)";

    fn sample_diff(new: &str) -> Diff {
        let (o, n) = (stats_of(OLD), stats_of(new));
        let side = |file, stats| Described {
            file,
            target: "nethack-3.6",
            stats,
        };
        compare(side("old.def", &o), side("new.def", &n))
    }

    #[test]
    fn the_table_names_what_moved_and_by_how_much() {
        let mut d = sample_diff(&OLD.replace(ORACLE, "\"oracle\" \"O\" @ (7, 5)"));
        d.retain_changed();
        let text = human(&d, false);
        let oracle = text
            .lines()
            .find(|l| l.contains("level oracle (The Dungeons of Doom)"))
            .unwrap_or_else(|| panic!("no oracle row:\n{text}"));
        assert!(oracle.contains("5..9, mean 7.0") && oracle.contains("7..11, mean "));
        assert!(oracle.contains("mean +"), "{oracle}");
        assert!(text.starts_with("OLD old.def: nethack-3.6 loader; exact enumeration"));
        // Columns line up: every row of the table has its TVD at the same
        // column.
        let table: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("item"))
            .take_while(|l| !l.is_empty())
            .collect();
        let ends: Vec<usize> = table.iter().map(|l| l.chars().count()).collect();
        assert!(ends.windows(2).all(|w| w[0] == w[1]), "{table:#?}");
    }

    #[test]
    fn a_file_against_itself_has_no_differences() {
        let mut d = sample_diff(OLD);
        d.retain_changed();
        assert!(human(&d, false).contains("\nNo differences.\n"));
        assert!(html(&d, false).contains("No differences."));
    }

    #[test]
    fn the_page_draws_each_changed_distribution() {
        let mut d = sample_diff(&OLD.replace(ORACLE, "\"oracle\" \"O\" @ (7, 5)"));
        d.retain_changed();
        let page = html(&d, false);
        let drawn: usize = d
            .changes
            .iter()
            .map(|c| c.aspects.iter().filter(|a| a.tvd > 0.0).count())
            .sum();
        assert!(drawn > 0);
        assert_eq!(page.matches("<svg").count(), drawn);
        // Self-contained: nothing to fetch.
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(!page.contains("<script") && !page.contains("<link") && !page.contains("src="));
    }
}
