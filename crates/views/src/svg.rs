//! A picture of a resolved layout: every dungeon a column of levels placed
//! by depth, special levels named, branches drawn as arrows from the parent
//! level to the child's entry (solid for stairs, dashed for portals, a bar
//! at the end without a stair for one-way connections), the floating Fort
//! Ludios entrance marked as such.
//!
//! Checked by eye: `dgn layout --format svg > d.svg`, then
//! `chromium --headless --no-sandbox --disable-gpu --screenshot=d.png
//! --window-size=1800,1300 d.svg` and look at the PNG; the tests check the
//! XML and its elements.

use dgnkit_script::layout::{Layout, LayoutBranch};
use std::fmt::Write;

const ROW: i32 = 20;
const COL_W: i32 = 150;
const GAP: i32 = 74;
const LEFT: i32 = 64;
const TOP: i32 = 96;
/// Depths beyond this (only absurd native-target files reach them) are
/// drawn at the edge, which keeps the picture bounded.
const MAX_DEPTH: i32 = 1000;

/// Colours of a dungeon column by its flags.
fn palette(hellish: bool, mazelike: bool) -> (&'static str, &'static str) {
    match (hellish, mazelike) {
        (true, _) => ("#fbe3df", "#b5473a"),
        (false, true) => ("#e6eef7", "#4a6d96"),
        (false, false) => ("#eef4e6", "#5b7f3a"),
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 forbids most control characters even as references.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

fn branch_label(kind: &str) -> &'static str {
    match kind {
        "portal" => "portal",
        "no_end1" => "one-way up",
        "no_end2" => "one-way down",
        _ => "stairs",
    }
}

/// Columns: the first dungeon in column 0; every other dungeon, visited
/// depth-first along the branches (in branch-list order, i.e. by parent
/// level), goes to the nearest column beside its parent (right first, or
/// away from the first dungeon) whose depths it does not share with a
/// dungeon already there, so branch arrows join neighbouring columns.
fn columns(layout: &Layout) -> Vec<i32> {
    let n = layout.dungeons.len();
    let mut col = vec![0i32; n];
    let mut placed = vec![false; n];
    // Rows each column holds, as (first, last) including a two-row header.
    let mut used: Vec<(i32, i32, i32)> = Vec::new();
    let rows = |d: usize| {
        let dg = &layout.dungeons[d];
        (
            dg.depth_start.saturating_sub(2),
            dg.depth_start
                .saturating_add(dg.num_levels.max(1))
                .saturating_sub(1),
        )
    };
    let fits = |used: &[(i32, i32, i32)], c: i32, (lo, hi): (i32, i32)| {
        used.iter()
            .all(|&(uc, ulo, uhi)| uc != c || hi < ulo || uhi < lo)
    };
    // The depths an arrow from `p` to `d` spans.
    let span = |p: usize, d: usize| {
        let b = layout
            .branches
            .iter()
            .find(|b| b.end1.dungeon == p as i32 && b.end2.dungeon == d as i32);
        let from = b.map_or(0, |b| layout.dungeons[p].depth_start + b.end1.level - 1);
        let dg = &layout.dungeons[d];
        let to = dg.depth_start + dg.entry_level - 1;
        (from.min(to), from.max(to))
    };
    let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
    for root in 0..n {
        if placed[root] {
            continue;
        }
        stack.push((root, None));
        while let Some((d, parent)) = stack.pop() {
            if placed[d] {
                continue;
            }
            let r = rows(d);
            let c = match parent {
                None if root == 0 => 0,
                None => (1..).find(|&c| fits(&used, c, r)).unwrap_or(1),
                Some(p) => {
                    // The free column nearest the parent whose arrow
                    // crosses the fewest dungeons on the way.
                    let pc = col[p];
                    let away = if pc < 0 { -1 } else { 1 };
                    let (lo, hi) = span(p, d);
                    let crossings = |c: i32| {
                        let (a, b) = if c < pc { (c, pc) } else { (pc, c) };
                        used.iter()
                            .filter(|&&(uc, ulo, uhi)| a < uc && uc < b && !(hi < ulo || uhi < lo))
                            .count()
                    };
                    (1..=n as i32 + 1)
                        .flat_map(|k| {
                            if pc == 0 {
                                [pc + k, pc - k]
                            } else {
                                [pc + away * k, pc + away * k]
                            }
                        })
                        .filter(|&c| c != 0 && fits(&used, c, r))
                        .enumerate()
                        .min_by_key(|&(order, c)| (crossings(c), order))
                        .map_or(pc + away, |(_, c)| c)
                }
            };
            col[d] = c;
            placed[d] = true;
            used.push((c, r.0, r.1));
            // Children in reverse so the first branch is visited first.
            let children: Vec<usize> = layout
                .branches
                .iter()
                .filter(|b| b.end1.dungeon == d as i32)
                .filter_map(|b| usize::try_from(b.end2.dungeon).ok())
                .filter(|&c| c < n && !placed[c])
                .collect();
            stack.extend(children.into_iter().rev().map(|c| (c, Some(d))));
        }
    }
    col
}

struct Geometry {
    min_depth: i32,
    max_depth: i32,
    /// Column of each dungeon (by dungeon index), from 0.
    col: Vec<i32>,
}

impl Geometry {
    fn x(&self, dungeon: usize) -> i32 {
        LEFT + self.col[dungeon] * (COL_W + GAP)
    }

    fn y(&self, depth: i32) -> i32 {
        TOP + (depth.clamp(self.min_depth, self.max_depth) - self.min_depth) * ROW
    }
}

/// The depth of level `level` of dungeon `d`.
fn depth_of(d: &dgnkit_script::layout::LayoutDungeon, level: i32) -> i32 {
    d.depth_start.saturating_add(level - 1)
}

/// The columns and the depths the picture spans.
fn geometry(layout: &Layout) -> Geometry {
    let mut col = columns(layout);
    let first = col.iter().copied().min().unwrap_or(0);
    for c in &mut col {
        *c -= first;
    }
    let min_depth = layout
        .dungeons
        .iter()
        .map(|d| d.depth_start)
        .min()
        .unwrap_or(1)
        .clamp(-MAX_DEPTH, 1);
    let max_depth = layout
        .dungeons
        .iter()
        .map(|d| depth_of(d, d.num_levels.max(1)))
        .max()
        .unwrap_or(1)
        .clamp(min_depth, MAX_DEPTH);
    Geometry {
        min_depth,
        max_depth,
        col,
    }
}

/// The SVG document for `layout`; `subtitle` names the file/version.
pub fn svg(layout: &Layout, subtitle: &str) -> String {
    let n = layout.dungeons.len();
    let g = geometry(layout);
    let ncols = g.col.iter().copied().max().map_or(1, |m| m + 1);
    let width = (LEFT + ncols * (COL_W + GAP) + 20).max(900);
    let rows = g.max_depth - g.min_depth + 1;
    let legend_y = TOP + rows * ROW + 40;
    let height = legend_y + 70;

    let mut s = String::new();
    header(&mut s, layout, subtitle, width, height);
    depth_axis(&mut s, &g, width);
    let castle = layout
        .levels
        .iter()
        .find(|l| l.name.eq_ignore_ascii_case("castle"))
        .map(|l| (l.dungeon, l.level));
    for (di, d) in layout.dungeons.iter().enumerate() {
        dungeon_column(&mut s, layout, &g, di, d, castle);
    }

    // Branch arrows, drawn last so they stay visible.
    s.push_str("<g class=\"branches\">\n");
    let floating = n as i32;
    for b in &layout.branches {
        branch_arrow(&mut s, layout, &g, b, floating);
    }
    s.push_str("</g>\n");
    legend(&mut s, legend_y);
    s.push_str("</svg>\n");
    s
}

/// The document's opening: size, title, markers, background and headings.
fn header(s: &mut String, layout: &Layout, subtitle: &str, width: i32, height: i32) {
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="11">"#
    );
    let title = format!(
        "Dungeon layout, seed {} ({}{})",
        layout.seed,
        layout.rng,
        if layout.wizard { ", wizard mode" } else { "" }
    );
    let _ = writeln!(s, "<title>{}</title>", escape(&title));
    s.push_str(
        r##"<defs>
<marker id="arrow-stair" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker>
<marker id="arrow-portal" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#a3369d"/></marker>
<marker id="bar" viewBox="0 0 4 10" refX="2" refY="5" markerWidth="4" markerHeight="10" orient="auto"><rect width="3" height="10" fill="#333"/></marker>
</defs>
"##,
    );
    let _ = writeln!(
        s,
        r##"<rect class="background" width="{width}" height="{height}" fill="#fcfcfa"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text class="title" x="{LEFT}" y="30" font-size="18" font-weight="bold" fill="#222">{}</text>"##,
        escape(&title)
    );
    let _ = writeln!(
        s,
        r##"<text class="subtitle" x="{LEFT}" y="50" font-size="12" fill="#555">{} — castle tune {}</text>"##,
        escape(subtitle),
        escape(&layout.tune)
    );
}

/// Depth axis with a faint line per depth.
fn depth_axis(s: &mut String, g: &Geometry, width: i32) {
    s.push_str("<g class=\"axis\">\n");
    let _ = writeln!(
        s,
        r##"<text x="8" y="{}" font-size="10" fill="#777">depth</text>"##,
        TOP - 8
    );
    for depth in g.min_depth..=g.max_depth {
        let y = g.y(depth);
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#eee"/>"##,
            LEFT - 8,
            y + ROW / 2,
            width - 10,
            y + ROW / 2
        );
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="end" fill="#888">{depth}</text>"##,
            LEFT - 14,
            y + ROW / 2 + 4
        );
    }
    s.push_str("</g>\n");
}

/// Dungeon `di`'s column: its name, its depths and a box per level
/// (`castle` gets the tune).
fn dungeon_column(
    s: &mut String,
    layout: &Layout,
    g: &Geometry,
    di: usize,
    d: &dgnkit_script::layout::LayoutDungeon,
    castle: Option<(i32, i32)>,
) {
    let (fill, stroke) = palette(d.hellish, d.mazelike);
    let x = g.x(di);
    let top = g.y(d.depth_start);
    let _ = writeln!(s, r#"<g class="dungeon" data-index="{di}">"#);
    let last = depth_of(d, d.num_levels.max(1));
    let range = if d.num_levels > 1 {
        format!("depths {} to {}", d.depth_start, last)
    } else {
        format!("depth {}", d.depth_start)
    };
    let _ = writeln!(
        s,
        r##"<text class="dungeon-name" x="{}" y="{}" text-anchor="middle" font-size="12" font-weight="bold" fill="{stroke}">{}</text>"##,
        x + COL_W / 2,
        top - 18,
        escape(&d.name)
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" text-anchor="middle" font-size="10" fill="#777">{range}</text>"##,
        x + COL_W / 2,
        top - 6
    );
    let is_branch_level = |d: i32, l: i32| {
        layout.branches.iter().any(|b| {
            (b.end1.dungeon, b.end1.level) == (d, l) || (b.end2.dungeon, b.end2.level) == (d, l)
        })
    };
    for level in 1..=d.num_levels.max(0) {
        let y = g.y(depth_of(d, level)) + 2;
        let special = layout
            .levels
            .iter()
            .find(|l| l.dungeon == di as i32 && l.level == level);
        let branchy = is_branch_level(di as i32, level);
        let entry = level == d.entry_level;
        let (rect_fill, width_px) = match (special.is_some(), branchy) {
            (true, _) => (stroke, 1.5),
            (false, true) => (fill, 1.5),
            _ => (fill, 0.8),
        };
        let _ = writeln!(
            s,
            r##"<rect class="level{}" x="{x}" y="{y}" width="{COL_W}" height="{}" rx="3" fill="{rect_fill}" stroke="{stroke}" stroke-width="{width_px}"/>"##,
            if special.is_some() { " special" } else { "" },
            ROW - 4
        );
        if let Some(l) = special {
            let mut label = l.name.clone();
            if castle == Some((l.dungeon, l.level)) {
                let _ = write!(label, " ♪ {}", layout.tune);
            }
            let _ = writeln!(
                s,
                r##"<text class="level-name" x="{}" y="{}" fill="#fff" font-weight="bold">{}</text>"##,
                x + 8,
                y + ROW - 8,
                escape(&label)
            );
        }
        if entry && di != 0 {
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" text-anchor="end" font-size="9" fill="{}">entry</text>"##,
                x + COL_W - 5,
                y + ROW - 8,
                if special.is_some() { "#fff" } else { stroke }
            );
        }
    }
    s.push_str("</g>\n");
}

/// The legend under the picture, at `legend_y`.
fn legend(s: &mut String, legend_y: i32) {
    let lx = LEFT;
    let _ = writeln!(
        s,
        r#"<g class="legend" transform="translate({lx},{legend_y})">"#
    );
    let items: [(&str, &str); 3] = [
        (
            "stairs",
            r##"<line x1="0" y1="0" x2="40" y2="0" stroke="#333" stroke-width="1.6" marker-end="url(#arrow-stair)"/>"##,
        ),
        (
            "magic portal",
            r##"<line x1="0" y1="0" x2="40" y2="0" stroke="#a3369d" stroke-width="1.6" stroke-dasharray="5 3" marker-end="url(#arrow-portal)"/>"##,
        ),
        (
            "one-way (bar: no stair at that end)",
            r##"<line x1="0" y1="0" x2="40" y2="0" stroke="#333" stroke-width="1.6" marker-end="url(#bar)"/>"##,
        ),
    ];
    let mut ix = 0;
    for (label, sample) in items {
        let _ = writeln!(
            s,
            r#"<g transform="translate({ix},0)">{sample}<text x="48" y="4">{}</text></g>"#,
            escape(label)
        );
        ix += 90 + label.len() as i32 * 6;
    }
    let swatches = [
        ("special level", "#5b7f3a", "#5b7f3a"),
        ("ordinary level", "#eef4e6", "#5b7f3a"),
        ("maze-like", "#e6eef7", "#4a6d96"),
        ("hellish", "#fbe3df", "#b5473a"),
    ];
    let mut ix = 0;
    for (label, fill, stroke) in swatches {
        let _ = writeln!(
            s,
            r##"<g transform="translate({ix},26)"><rect x="0" y="-8" width="30" height="14" rx="3" fill="{fill}" stroke="{stroke}"/><text x="38" y="4">{label}</text></g>"##
        );
        ix += 70 + label.len() as i32 * 6;
    }
    s.push_str("</g>\n");
}

fn branch_arrow(s: &mut String, layout: &Layout, g: &Geometry, b: &LayoutBranch, floating: i32) {
    let Some(child) = usize::try_from(b.end2.dungeon)
        .ok()
        .filter(|&c| c < layout.dungeons.len())
    else {
        return;
    };
    let cd = &layout.dungeons[child];
    let cy = g.y(cd.depth_start + b.end2.level - 1) + ROW / 2;
    let cx = g.x(child);
    let portal = b.branch_type == "portal";
    let (color, dash, marker) = if portal {
        (
            "#a3369d",
            r#" stroke-dasharray="6 4""#,
            "url(#arrow-portal)",
        )
    } else {
        ("#333", "", "url(#arrow-stair)")
    };
    let title = format!(
        "{} to {}",
        branch_label(&b.branch_type),
        layout.dungeons.get(child).map_or("?", |d| d.name.as_str())
    );
    if b.end1.dungeon == floating {
        // Fort Ludios: its portal is placed later, in a vault below depth 10.
        let _ = writeln!(
            s,
            r##"<g class="branch floating"><title>{}</title><line x1="{}" y1="{cy}" x2="{}" y2="{cy}" stroke="{color}" stroke-width="1.6"{dash} marker-end="{marker}"/><text x="{cx}" y="{}" font-size="10" fill="{color}">portal floats: placed in a vault</text><text x="{cx}" y="{}" font-size="10" fill="{color}">deeper than level 10</text></g>"##,
            escape(&title),
            cx - 40,
            cx - 2,
            cy + 20,
            cy + 32
        );
        return;
    }
    let Some(parent) = usize::try_from(b.end1.dungeon)
        .ok()
        .filter(|&p| p < layout.dungeons.len())
    else {
        return;
    };
    let pd = &layout.dungeons[parent];
    let py = g.y(pd.depth_start + b.end1.level - 1) + ROW / 2;
    let (px, ex) = if g.col[parent] < g.col[child] {
        (g.x(parent) + COL_W, cx)
    } else {
        (g.x(parent), cx + COL_W)
    };
    let bend = ((ex - px).abs() / 2).max(30) * if ex >= px { 1 } else { -1 };
    // Arrowheads where a stair lets you go: end1 -> end2 always unless the
    // child end has no stair back; the bar marks the end without a stair.
    let (start_marker, end_marker) = match b.branch_type.as_str() {
        "no_end1" => (
            r#" marker-start="url(#bar)""#.to_string(),
            format!(r#" marker-end="{marker}""#),
        ),
        "no_end2" => (String::new(), r#" marker-end="url(#bar)""#.to_string()),
        _ => (String::new(), format!(r#" marker-end="{marker}""#)),
    };
    let _ = writeln!(
        s,
        r##"<path class="branch {}" d="M{px},{py} C{},{py} {},{cy} {ex},{cy}" fill="none" stroke="{color}" stroke-width="1.8"{dash}{start_marker}{end_marker} opacity="0.85"><title>{}</title></path>"##,
        escape(&b.branch_type),
        px + bend,
        ex - bend,
        escape(&title)
    );
    let _ = writeln!(s, r##"<circle cx="{px}" cy="{py}" r="3" fill="{color}"/>"##);
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgnkit_script::layout::{LayoutDungeon, LevelRef};

    #[test]
    fn an_empty_layout_still_draws() {
        let s = svg(&Layout::default(), "empty");
        assert!(s.starts_with("<svg") && s.ends_with("</svg>\n"));
    }

    #[test]
    fn absurd_depths_stay_bounded() {
        let d = |name: &str, depth_start, num_levels| LayoutDungeon {
            name: name.into(),
            depth_start,
            num_levels,
            entry_level: 1,
            ..LayoutDungeon::default()
        };
        let layout = Layout {
            dungeons: vec![
                d("Top", 1, 32),
                d("Far", i32::MIN + 5, 32),
                d("Deep", i32::MAX - 3, 32),
                d("None", 3, -40),
            ],
            branches: vec![LayoutBranch {
                id: 0,
                branch_type: "stair".into(),
                end1: LevelRef {
                    dungeon: 0,
                    level: 3,
                },
                end2: LevelRef {
                    dungeon: 1,
                    level: 1,
                },
                end1_up: false,
            }],
            ..Layout::default()
        };
        let s = svg(&layout, "absurd");
        assert!(s.len() < 2_000_000, "{} bytes", s.len());
    }
}
