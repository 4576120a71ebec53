//! The summary as one self-contained HTML page: inline SVG bar charts and
//! tables, no scripts or outside resources.

use super::summary::{Expected, Summary};
use crate::views::chart::{esc, pct};
use std::fmt::Write;

const DEATHS: &str = "#4e79a7";
const BONES: &str = "#e15759";

/// Horizontal bars: one row per item, the death count and (darker, in
/// front) the expected bones files.
fn bars(title: &str, rows: &[Expected]) -> String {
    let max = rows.iter().map(|e| e.deaths).fold(0.0, f64::max);
    let (label_w, bar_w, row_h) = (230.0, 420.0, 20.0);
    let h = 40.0 + row_h * rows.len() as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">",
        label_w + bar_w + 110.0,
        esc(title)
    );
    let _ = writeln!(
        s,
        "<text x=\"0\" y=\"16\" font-weight=\"bold\" font-size=\"14\">{}</text>",
        esc(title)
    );
    for (i, e) in rows.iter().enumerate() {
        let y = 28.0 + row_h * i as f64;
        let w = if max > 0.0 {
            bar_w * e.deaths / max
        } else {
            0.0
        };
        let wb = if max > 0.0 {
            bar_w * e.bones / max
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "<g><title>{}: {:.2} deaths, {:.2} bones files expected</title>\
             <text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{}</text>\
             <rect x=\"{label_w}\" y=\"{y}\" width=\"{w:.1}\" height=\"{}\" fill=\"{DEATHS}\"/>\
             <rect x=\"{label_w}\" y=\"{y}\" width=\"{wb:.1}\" height=\"{}\" fill=\"{BONES}\"/>\
             <text x=\"{:.1}\" y=\"{}\" font-size=\"11\">{:.1}</text></g>",
            esc(&e.name),
            e.deaths,
            e.bones,
            label_w - 6.0,
            y + 13.0,
            esc(&e.name),
            row_h - 4.0,
            row_h - 4.0,
            label_w + w + 4.0,
            y + 13.0,
            e.deaths
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Vertical bars: deaths per depth.
fn depth_chart(summary: &Summary) -> String {
    let depths = &summary.depths;
    let (Some(&lo), Some(&hi)) = (depths.keys().next(), depths.keys().next_back()) else {
        return String::new();
    };
    let max = depths.values().copied().max().unwrap_or(0).max(1) as f64;
    let n = (hi - lo + 1) as f64;
    let col = (760.0 / n).clamp(6.0, 24.0);
    let (top, height) = (30.0, 200.0);
    let w = 50.0 + col * n;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{}\" role=\"img\" aria-label=\"deaths per depth\">\
         <text x=\"0\" y=\"16\" font-weight=\"bold\" font-size=\"14\">Deaths per depth</text>",
        top + height + 30.0
    );
    for d in lo..=hi {
        let count = depths.get(&d).copied().unwrap_or(0);
        let bh = height * count as f64 / max;
        let x = 40.0 + col * f64::from(d - lo);
        let _ = write!(
            s,
            "<g><title>depth {d}: {count} deaths</title><rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"{DEATHS}\"/></g>",
            top + height - bh,
            col - 1.0
        );
        if (d - lo) % 5 == 0 || d == hi {
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{d}</text>",
                x + col / 2.0,
                top + height + 14.0
            );
        }
    }
    let _ = writeln!(
        s,
        "<text x=\"0\" y=\"{}\" font-size=\"10\">{}</text></svg>",
        top + 10.0,
        max
    );
    s
}

/// The page.
pub fn page(summary: &Summary, title: &str) -> String {
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>",
        esc(title)
    );
    h.push_str(
        "<style>body{font-family:'DejaVu Sans',Arial,sans-serif;margin:16px;color:#222}\
         table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}\
         th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:right}\
         th:first-child,td:first-child{text-align:left}svg{display:block;margin:12px 0}</style>\n</head>\n<body>\n",
    );
    let _ = writeln!(h, "<h1>{}</h1>", esc(title));
    let ratio = if summary.deaths > 0 {
        pct(summary.deaths_on_bones_levels / summary.deaths as f64)
    } else {
        "–".into()
    };
    let _ = writeln!(
        h,
        "<table><tr><th>games</th><td>{}</td></tr><tr><th>deaths</th><td>{}</td></tr>\
         <tr><th>deaths on levels that can hold bones (expected)</th><td>{:.2} ({ratio})</td></tr>\
         <tr><th>bones files left (expected)</th><td>{:.2}</td></tr>\
         <tr><th>bad lines</th><td>{}</td></tr><tr><th>left out by --where</th><td>{}</td></tr></table>",
        summary.games,
        summary.deaths,
        summary.deaths_on_bones_levels,
        summary.expected_bones,
        summary.bad_lines,
        summary.filtered_out
    );
    let _ = writeln!(
        h,
        "<p><span style=\"color:{DEATHS}\">&#9632;</span> deaths (expected, where the place depends on the layout) \
         <span style=\"color:{BONES}\">&#9632;</span> bones files left (expected)</p>"
    );
    h.push_str(&bars("Deaths per dungeon", &summary.dungeons));
    let top: Vec<Expected> = summary.specials.iter().take(25).cloned().collect();
    h.push_str(&bars("Deaths per special level", &top));
    h.push_str(&depth_chart(summary));
    h.push_str("<table><tr><th>ending</th><th>games</th></tr>");
    for (k, v) in &summary.ends {
        let _ = write!(h, "<tr><td>{}</td><td>{v}</td></tr>", esc(k));
    }
    h.push_str("</table>\n<table><tr><th>release</th><th>games</th></tr>");
    for (k, v) in &summary.releases {
        let _ = write!(h, "<tr><td>{}</td><td>{v}</td></tr>", esc(k));
    }
    h.push_str(
        "</table>\n<table><tr><th>special level</th><th>deaths</th><th>bones files</th></tr>",
    );
    for e in &summary.specials {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{:.2}</td><td>{:.2}</td></tr>",
            esc(&e.name),
            e.deaths,
            e.bones
        );
    }
    h.push_str("</table>\n</body>\n</html>\n");
    h
}
