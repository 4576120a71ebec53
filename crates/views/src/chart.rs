//! A chart of the depth distributions: one row per special level that can
//! exist, one bar per depth (height relative to the row's likeliest depth,
//! hover for the exact numbers), coloured by dungeon. As SVG, or as an
//! HTML page with the SVG and a table of the numbers.

use dgnkit_stats::{Method, Stats};
use std::fmt::Write;

pub const PALETTE: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => o.push('\u{FFFD}'),
            c => o.push(c),
        }
    }
    o
}

pub fn pct(p: f64) -> String {
    let v = p * 100.0;
    if v > 0.0 && v < 0.1 {
        format!("{v:.3}%")
    } else {
        format!("{v:.1}%")
    }
}

/// How the numbers were obtained, in one line.
pub fn method_line(m: &Method) -> String {
    match m {
        Method::Exact { max_error, .. } => format!("exact enumeration (every probability within {max_error:.1e})"),
        Method::Sampled { samples, rng, first_seed, ci95, reason } => format!(
            "sampled: {samples} seeds from {first_seed} ({rng}), 95% confidence half-width at most {:.2} points ({reason})",
            ci95 * 100.0
        ),
    }
}

/// Where the depth chart puts things.
struct Chart<'a> {
    /// The depths shown, `lo ..= hi`.
    lo: i32,
    hi: i32,
    /// The width of one depth.
    cell: f64,
    label_w: f64,
    right_w: f64,
    row_h: f64,
    /// The first row's top.
    top: f64,
    width: f64,
    rows: usize,
    /// The dungeons in the order of their first row, for the colours.
    dungeons: Vec<&'a str>,
}

impl Chart<'_> {
    fn x_of(&self, depth: i32) -> f64 {
        self.label_w + (depth - self.lo) as f64 * self.cell
    }

    fn color(&self, d: &str) -> &'static str {
        PALETTE[self.dungeons.iter().position(|x| *x == d).unwrap_or(0) % PALETTE.len()]
    }

    /// The bottom of the last row.
    fn bottom(&self) -> f64 {
        self.top + self.row_h * self.rows as f64
    }
}

/// The depth chart as an SVG document.
pub fn depth_svg(stats: &Stats, title: &str) -> String {
    let rows: Vec<&dgnkit_stats::LevelStat> = stats
        .levels
        .iter()
        .filter(|l| l.exists > 0.0 && !l.depth.is_empty())
        .collect();
    let lo = rows
        .iter()
        .filter_map(|l| l.depth.keys().next().copied())
        .min()
        .unwrap_or(0)
        .min(1);
    let hi = rows
        .iter()
        .filter_map(|l| l.depth.keys().next_back().copied())
        .max()
        .unwrap_or(1)
        .max(lo + 1);
    let span = (hi - lo + 1) as f64;
    let cell = (880.0 / span).clamp(6.0, 22.0);
    let (label_w, right_w, row_h, top) = (250.0, 70.0, 22.0, 74.0);
    let width = label_w + cell * span + right_w;
    let height = top + row_h * rows.len() as f64 + 56.0;
    let mut dungeons: Vec<&str> = Vec::new();
    for l in &rows {
        if !dungeons.contains(&l.dungeon.as_str()) {
            dungeons.push(&l.dungeon);
        }
    }
    let chart = Chart {
        lo,
        hi,
        cell,
        label_w,
        right_w,
        row_h,
        top,
        width,
        rows: rows.len(),
        dungeons,
    };

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="12" y="22" font-size="16" font-weight="bold">{}</text>"#,
        esc(title)
    );
    let _ = writeln!(
        s,
        r##"<text x="12" y="40" fill="#555">Depth of each special level, given that it exists. {}</text>"##,
        esc(&method_line(&stats.method))
    );
    depth_axis(&mut s, &chart);
    for (i, l) in rows.iter().enumerate() {
        level_row(&mut s, &chart, i, l);
    }
    chart_legend(&mut s, &chart);
    s.push_str("</svg>\n");
    s
}

/// Depth axis: grid every 5 levels, labels at the top.
fn depth_axis(s: &mut String, c: &Chart) {
    let axis_y = c.top - 8.0;
    let mut d = c.lo;
    while d <= c.hi {
        if d % 5 == 0 || d == c.lo {
            let x = c.x_of(d) + c.cell / 2.0;
            let _ = writeln!(
                s,
                r##"<line x1="{x:.1}" y1="{axis_y:.1}" x2="{x:.1}" y2="{:.1}" stroke="#e4e4e4"/>"##,
                c.bottom()
            );
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#333">{d}</text>"##,
                axis_y - 4.0
            );
        }
        d += 1;
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#333">depth</text>"##,
        c.label_w - 8.0,
        axis_y - 4.0
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" fill="#333">exists</text>"##,
        c.width - c.right_w + 8.0,
        axis_y - 4.0
    );
    if c.lo <= 1 && 1 <= c.hi {
        // Depths below 1 are the endgame.
        let x = c.x_of(1);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{axis_y:.1}" x2="{x:.1}" y2="{:.1}" stroke="#999" stroke-dasharray="3,3"/>"##,
            c.bottom()
        );
    }
}

/// Row `i`: level `l`'s name, a bar per depth, and its chance to exist.
fn level_row(s: &mut String, c: &Chart, i: usize, l: &dgnkit_stats::LevelStat) {
    let (row_h, width) = (c.row_h, c.width);
    let y = c.top + row_h * i as f64;
    if i % 2 == 1 {
        let _ = writeln!(
            s,
            r##"<rect x="0" y="{y:.1}" width="{width:.0}" height="{row_h}" fill="#f6f6f6"/>"##
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="end"><tspan>{}</tspan><tspan fill="#888"> · {}</tspan></text>"##,
        c.label_w - 8.0,
        y + 15.0,
        esc(&l.name),
        esc(&l.dungeon)
    );
    let max = l.depth.values().copied().fold(0.0f64, f64::max);
    for (&depth, &p) in &l.depth {
        let h = if max > 0.0 {
            (p / max) * (row_h - 4.0)
        } else {
            0.0
        };
        let x = c.x_of(depth) + 1.0;
        let _ = writeln!(
            s,
            r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="{}"><title>{}: depth {depth}, {}</title></rect>"#,
            y + row_h - 2.0 - h,
            (c.cell - 2.0).max(1.0),
            c.color(&l.dungeon),
            esc(&l.name),
            pct(p)
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" fill="#333">{}</text>"##,
        width - c.right_w + 8.0,
        y + 15.0,
        pct(l.exists)
    );
}

/// The dungeons' colours, under the rows.
fn chart_legend(s: &mut String, c: &Chart) {
    let ly = c.bottom() + 26.0;
    let mut lx = 12.0;
    for d in &c.dungeons {
        let _ = writeln!(
            s,
            r#"<rect x="{lx:.1}" y="{:.1}" width="12" height="12" fill="{}"/>"#,
            ly - 10.0,
            c.color(d)
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{ly:.1}">{}</text>"#,
            lx + 16.0,
            esc(d)
        );
        lx += 30.0 + 7.0 * d.chars().count() as f64;
    }
}

/// The chart in an HTML page, with a table of the numbers.
pub fn depth_html(stats: &Stats, title: &str) -> String {
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>",
        esc(title)
    );
    h.push_str(
        "<style>body{font-family:'DejaVu Sans',Arial,sans-serif;margin:16px;color:#222}\
         table{border-collapse:collapse;margin-top:16px;font-size:13px}\
         th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:right}\
         th:first-child,td:first-child,th:nth-child(2),td:nth-child(2){text-align:left}</style>\n</head>\n<body>\n",
    );
    h.push_str(&depth_svg(stats, title));
    let _ = writeln!(
        h,
        "<p>Loader failure: {}. {}</p>",
        pct(stats.failure),
        esc(&method_line(&stats.method))
    );
    h.push_str("<table>\n<tr><th>level</th><th>dungeon</th><th>exists</th><th>depths</th><th>likeliest</th><th>can load bones</th><th>can leave bones</th></tr>\n");
    for l in &stats.levels {
        let range = match (l.depth.keys().next(), l.depth.keys().next_back()) {
            (Some(a), Some(b)) if a == b => a.to_string(),
            (Some(a), Some(b)) => format!("{a}–{b}"),
            _ => "–".to_string(),
        };
        let mode = l
            .depth
            .iter()
            .max_by(|a, b| a.1.partial_cmp(b.1).unwrap_or(std::cmp::Ordering::Equal))
            .map_or_else(|| "–".to_string(), |(d, p)| format!("{d} ({})", pct(*p)));
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{range}</td><td>{mode}</td><td>{}</td><td>{}</td></tr>",
            esc(&l.name),
            esc(&l.dungeon),
            pct(l.exists),
            pct(l.bones.can_load),
            pct(l.bones.can_leave)
        );
    }
    h.push_str("</table>\n</body>\n</html>\n");
    h
}
