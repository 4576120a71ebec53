//! A picture of a resolved layout: every dungeon a column of levels placed
//! by depth, special levels named, branches drawn as arrows from the parent
//! level to the child's entry (solid for stairs, dashed for portals, a bar
//! at the end without a stair for one-way connections), the floating Fort
//! Ludios entrance marked as such.
//!
//! The picture is planned before it is written, so that it reads at its
//! own size: no text is drawn over other text, and no arrow crosses a
//! level's box or a text.
//!
//! - A column is as wide as its widest text needs (a dungeon's name, a
//!   level's, its `entry` mark), measured with DejaVu Sans's widths
//!   ([`text_width`]); nothing is shrunk.
//! - Each dungeon takes rows: two for its heading, one per level, and for
//!   a dungeon entered by a floating portal, the rows of the note under it.
//!   Dungeons share a column only where their rows do not meet.
//! - Dungeons are placed one at a time, depth first along the branches; a
//!   dungeon goes to the column (an existing one or a new one, anywhere)
//!   that makes the picture cheapest: a column more costs width, an arrow
//!   that passes other columns costs for each, and more for leaving its
//!   rows to find a free one.
//! - An arrow between neighbouring columns bends in the gap between them;
//!   one that passes columns bends in the first gap to a row free in every
//!   column it passes, runs along it and bends into its target in the last
//!   gap. Gaps hold no text and no box.
//!
//! Checked by eye: `dgn layout --format svg > d.svg`, then
//! `chromium --headless --no-sandbox --disable-gpu --screenshot=d.png
//! --window-size=1800,1300 d.svg` and look at the PNG; the tests check the
//! XML, and `tests/`'s `layout_svg` measures the drawn boxes, texts and
//! arrows of every target's dungeon for overlaps.

use dgnkit_script::layout::{Layout, LayoutBranch, LayoutDungeon};
use std::fmt::Write;

/// The height of a row (one depth).
const ROW: i32 = 20;
/// The narrowest column.
const MIN_COL_W: i32 = 150;
/// The gap between columns, where arrows bend.
const GAP: i32 = 74;
/// The x of the first column (the depth axis is left of it).
const LEFT: i32 = 64;
/// The y of the first row's top, under the title and subtitle.
const HEAD: i32 = 56;
/// Depths beyond this (only absurd native-target files reach them) are
/// drawn at the edge, which keeps the picture bounded.
const MAX_DEPTH: i32 = 1000;
/// Dungeons beyond this are placed one column each and their arrows are
/// not routed around other columns: the search is quadratic and more.
const MAX_PLANNED: usize = 48;

/// The sizes of the texts, in pixels.
const NAME_SIZE: f64 = 12.0;
const SMALL_SIZE: f64 = 10.0;
const LABEL_SIZE: f64 = 11.0;
/// The note under a dungeon entered by a floating portal, by lines (each
/// fits the narrowest column), and their spacing.
const NOTE: [&str; 3] = [
    "its portal floats:",
    "placed in a vault",
    "deeper than level 10",
];
const NOTE_LINE: i32 = 12;

/// What a column more costs; an arrow for each column it passes; and for
/// each row it leaves its way to find a free one; an arrow between two
/// levels of one column.
const COST_COLUMN: i64 = 10;
const COST_PASS: i64 = 4;
const COST_DETOUR: i64 = 3;
const COST_SAME: i64 = 12;

/// DejaVu Sans's advance widths of the characters ` ` to `~`, in
/// thousandths of an em (its `hmtx` table; 2048 units to the em, rounded
/// up).
const REGULAR: [u16; 95] = [
    318, 401, 460, 838, 637, 951, 780, 275, 391, 391, 500, 838, 318, 361, 318, 337, 637, 637, 637,
    637, 637, 637, 637, 637, 637, 637, 337, 337, 838, 838, 838, 531, 1000, 685, 687, 699, 771, 632,
    576, 775, 752, 295, 295, 656, 558, 863, 749, 788, 604, 788, 695, 635, 611, 732, 685, 989, 686,
    611, 686, 391, 337, 391, 838, 500, 500, 613, 635, 550, 635, 616, 353, 635, 634, 278, 278, 580,
    278, 975, 634, 612, 635, 635, 412, 521, 393, 634, 592, 818, 592, 592, 525, 637, 337, 637, 838,
];
/// DejaVu Sans Bold's, likewise.
const BOLD: [u16; 95] = [
    349, 457, 521, 838, 696, 1002, 873, 307, 458, 458, 523, 838, 380, 416, 380, 366, 696, 696, 696,
    696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 581, 1000, 774, 763, 734, 831, 684,
    684, 821, 837, 373, 373, 775, 638, 996, 837, 851, 733, 851, 771, 721, 683, 813, 774, 1104, 771,
    725, 726, 458, 366, 458, 838, 500, 500, 675, 716, 593, 716, 679, 436, 716, 712, 343, 343, 666,
    343, 1042, 712, 688, 716, 716, 494, 596, 479, 712, 652, 924, 646, 652, 583, 712, 366, 712, 838,
];

/// The width `text` takes in pixels at `size` (the picture's font, DejaVu
/// Sans, regular or bold), with room for a fallback a little wider
/// (Verdana): DejaVu's widths plus 8%, and an em for any character
/// beyond ASCII.
pub fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    let table = if bold { &BOLD } else { &REGULAR };
    let units: u64 = text
        .chars()
        .map(|c| match c {
            ' '..='~' => u64::from(table[c as usize - 32]),
            _ => 1000,
        })
        .sum();
    units as f64 * size / 1000.0 * 1.08
}

/// A text's width in whole pixels, rounded up.
fn width_px(text: &str, size: f64, bold: bool) -> i32 {
    text_width(text, size, bold).ceil() as i32
}

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

/// The row of a depth.
fn row(depth: i32) -> i32 {
    depth.clamp(-MAX_DEPTH, MAX_DEPTH)
}

/// The depth of level `level` of dungeon `d`.
fn depth_of(d: &LayoutDungeon, level: i32) -> i32 {
    d.depth_start.saturating_add(level.saturating_sub(1))
}

/// The rows a dungeon takes: its heading's two, its levels', and its
/// note's. Inclusive.
#[derive(Clone, Copy, Debug)]
struct Block {
    top: i32,
    bottom: i32,
}

impl Block {
    fn meets(&self, o: &Block) -> bool {
        self.top <= o.bottom && o.top <= self.bottom
    }

    fn holds(&self, r: i32) -> bool {
        self.top <= r && r <= self.bottom
    }
}

/// A branch between two drawn dungeons, by rows.
#[derive(Clone, Copy, Debug)]
struct Edge {
    branch: usize,
    from: usize,
    to: usize,
    from_row: i32,
    to_row: i32,
}

/// How an arrow goes: to a neighbouring column; past columns along a
/// free row; or out of its column's side and back into it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Way {
    Next,
    Across(i32),
    Same,
}

/// The dungeons of each column, left to right.
#[derive(Clone, Debug, Default)]
struct Columns {
    members: Vec<Vec<usize>>,
    /// The column of each dungeon placed.
    of: Vec<Option<usize>>,
}

/// Where a dungeon may go: into column `i`, or into a new column put in
/// at `i`.
#[derive(Clone, Copy, Debug)]
enum Spot {
    Into(usize),
    New(usize),
}

impl Spot {
    /// Its place counted in half columns, for nearness.
    fn half(self) -> i64 {
        match self {
            Spot::Into(i) => 2 * i as i64,
            Spot::New(i) => 2 * i as i64 - 1,
        }
    }
}

impl Columns {
    /// Takes `d` out, and its column when it is left empty.
    fn take(&mut self, d: usize) {
        let Some(i) = self.of[d].take() else {
            return;
        };
        self.members[i].retain(|&m| m != d);
        if self.members[i].is_empty() {
            self.members.remove(i);
            for c in self.of.iter_mut().flatten() {
                if *c > i {
                    *c -= 1;
                }
            }
        }
    }

    fn put(&mut self, d: usize, spot: Spot) {
        match spot {
            Spot::Into(i) => {
                self.members[i].push(d);
                self.of[d] = Some(i);
            }
            Spot::New(i) => {
                for c in self.of.iter_mut().flatten() {
                    if *c >= i {
                        *c += 1;
                    }
                }
                self.members.insert(i, vec![d]);
                self.of[d] = Some(i);
            }
        }
    }

    fn fits(&self, i: usize, b: &Block, blocks: &[Block]) -> bool {
        self.members[i].iter().all(|&m| !blocks[m].meets(b))
    }

    /// How `e` goes when both its ends are placed, and what that costs.
    fn way(&self, e: &Edge, blocks: &[Block]) -> Option<(Way, i64)> {
        let (a, b) = (self.of[e.from]?, self.of[e.to]?);
        if a == b {
            return Some((Way::Same, COST_SAME));
        }
        if a.abs_diff(b) == 1 {
            return Some((Way::Next, 0));
        }
        let passed = &self.members[a.min(b) + 1..a.max(b)];
        let blocked = || passed.iter().flatten().map(|&m| blocks[m]);
        let free = |r: i32| blocked().all(|b| !b.holds(r));
        let (rp, rc) = (e.from_row, e.to_row);
        let straight = (rp - rc).abs();
        let candidates = [rp, rc]
            .into_iter()
            .chain(blocked().flat_map(|b| [b.top - 1, b.bottom + 1]));
        let (detour, r) = candidates
            .filter(|&r| free(r))
            .map(|r| ((r - rp).abs() + (r - rc).abs() - straight, r))
            .min_by_key(|&(detour, r)| (detour, (r - rp).abs(), r))?;
        let cost = COST_PASS * (a.abs_diff(b) as i64 - 1) + COST_DETOUR * i64::from(detour);
        Some((Way::Across(r), cost))
    }

    /// What the picture costs so far: its columns and its placed arrows.
    fn cost(&self, edges: &[Edge], blocks: &[Block]) -> i64 {
        let arrows: i64 = edges
            .iter()
            .filter_map(|e| self.way(e, blocks))
            .map(|(_, c)| c)
            .sum();
        COST_COLUMN * self.members.len() as i64 + arrows
    }
}

/// The order dungeons are placed in, each with the dungeon it branches
/// from: depth first along the branches from the first dungeon, children
/// in branch order; then any dungeon not reached, likewise.
fn visit_order(layout: &Layout) -> Vec<(usize, Option<usize>)> {
    let n = layout.dungeons.len();
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
    for root in 0..n {
        stack.push((root, None));
        while let Some((d, parent)) = stack.pop() {
            if seen[d] {
                continue;
            }
            seen[d] = true;
            order.push((d, parent));
            let children: Vec<usize> = layout
                .branches
                .iter()
                .filter(|b| b.end1.dungeon == d as i32)
                .filter_map(|b| usize::try_from(b.end2.dungeon).ok())
                .filter(|&c| c < n && !seen[c])
                .collect();
            stack.extend(children.into_iter().rev().map(|c| (c, Some(d))));
        }
    }
    order
}

/// What places dungeons: their rows, the arrows between them, and which
/// ones a floating portal enters.
struct Placer<'a> {
    blocks: &'a [Block],
    edges: &'a [Edge],
    floating: &'a [bool],
}

impl Placer<'_> {
    /// `cols` with `d` (not in it) put where the picture costs least;
    /// ties go to the spot nearest `near`'s column, right of it before
    /// left, an existing column before a new one. Returns the cost too.
    fn best(&self, cols: &Columns, d: usize, near: Option<usize>) -> (i64, Columns) {
        let near = near.or(Some(0)).and_then(|p| cols.of[p]).unwrap_or(0);
        let near_half = 2 * near as i64;
        let ncols = cols.members.len();
        let spots = (0..ncols)
            .filter(|&i| i != near && cols.fits(i, &self.blocks[d], self.blocks))
            .map(Spot::Into)
            .chain((0..=ncols).map(Spot::New))
            // A floating portal's arrow comes from the left: never the
            // first column, whose left is the depth axis.
            .filter(|s| !self.floating[d] || s.half() > 0);
        let mut best: Option<((i64, i64, bool, bool), Columns)> = None;
        for spot in spots {
            let mut trial = cols.clone();
            trial.put(d, spot);
            let key = (
                trial.cost(self.edges, self.blocks),
                (spot.half() - near_half).abs(),
                spot.half() < near_half,
                matches!(spot, Spot::New(_)),
            );
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, trial));
            }
        }
        match best {
            Some((key, c)) => (key.0, c),
            // No spot at all: only a floating portal's target in an empty
            // picture, which the caller never asks.
            None => {
                let mut c = cols.clone();
                c.put(d, Spot::New(ncols));
                (c.cost(self.edges, self.blocks), c)
            }
        }
    }
}

/// Places every dungeon (see the module's documentation): one at a time,
/// then each again with all the others in place while that makes the
/// picture cheaper (a dungeon placed early could not know the columns
/// made after it).
fn place(layout: &Layout, blocks: &[Block], edges: &[Edge], floating: &[bool]) -> Columns {
    let n = layout.dungeons.len();
    let mut cols = Columns {
        members: Vec::new(),
        of: vec![None; n],
    };
    let placer = Placer {
        blocks,
        edges,
        floating,
    };
    let order = visit_order(layout);
    for &(d, parent) in &order {
        if cols.members.is_empty() || n > MAX_PLANNED {
            let last = cols.members.len();
            cols.put(d, Spot::New(last));
            continue;
        }
        cols = placer.best(&cols, d, parent).1;
    }
    if n > MAX_PLANNED {
        return cols;
    }
    let mut cost = cols.cost(edges, blocks);
    for _ in 0..4 {
        let before = cost;
        for &(d, parent) in &order {
            let mut without = cols.clone();
            without.take(d);
            if without.members.is_empty() {
                continue;
            }
            let (c, placed) = placer.best(&without, d, parent);
            if c < cost {
                cost = c;
                cols = placed;
            }
        }
        if cost == before {
            break;
        }
    }
    cols
}

/// The picture's plan: rows, columns and arrows.
struct Plan {
    /// The first row drawn and the last.
    first_row: i32,
    last_row: i32,
    /// The depths the axis labels.
    min_depth: i32,
    max_depth: i32,
    cols: Columns,
    /// Left edge and width of each column.
    col_x: Vec<i32>,
    col_w: Vec<i32>,
    /// How each drawn branch's arrow goes.
    ways: Vec<(Edge, Way)>,
    /// Dungeons entered by a floating portal.
    floating: Vec<bool>,
    width: i32,
}

impl Plan {
    fn y(&self, r: i32) -> i32 {
        HEAD + (r - self.first_row) * ROW
    }

    fn x(&self, d: usize) -> i32 {
        self.cols.of[d].map_or(LEFT, |c| self.col_x[c])
    }

    fn w(&self, d: usize) -> i32 {
        self.cols.of[d].map_or(MIN_COL_W, |c| self.col_w[c])
    }
}

/// The label of a level's box: a special level's name (the castle's with
/// the tune).
fn level_label(layout: &Layout, di: usize, level: i32) -> Option<String> {
    let l = layout
        .levels
        .iter()
        .find(|l| l.dungeon == di as i32 && l.level == level)?;
    let mut label = l.name.clone();
    if l.name.eq_ignore_ascii_case("castle") {
        let _ = write!(label, " ♪ {}", layout.tune);
    }
    Some(label)
}

/// The depth range under a dungeon's name.
fn range_text(d: &LayoutDungeon) -> String {
    if d.num_levels > 1 {
        format!(
            "depths {} to {}",
            d.depth_start,
            depth_of(d, d.num_levels.max(1))
        )
    } else {
        format!("depth {}", d.depth_start)
    }
}

/// The width dungeon `di`'s texts need.
fn needed_width(layout: &Layout, di: usize, floating: bool) -> i32 {
    let d = &layout.dungeons[di];
    let mut need = MIN_COL_W
        .max(width_px(&d.name, NAME_SIZE, true) + 12)
        .max(width_px(&range_text(d), SMALL_SIZE, false) + 12);
    let entry_w = width_px("entry", SMALL_SIZE, false);
    for level in 1..=d.num_levels.clamp(0, 2 * MAX_DEPTH + 1) {
        let label =
            level_label(layout, di, level).map_or(0, |l| width_px(&l, LABEL_SIZE, true) + 8);
        let entry = if level == d.entry_level && di != 0 {
            entry_w + 5 + 8
        } else {
            0
        };
        need = need.max(label + entry + 6);
    }
    if floating {
        for l in NOTE {
            need = need.max(width_px(l, SMALL_SIZE, false) + 8);
        }
    }
    need
}

fn plan(layout: &Layout, subtitle_w: i32) -> Plan {
    let n = layout.dungeons.len();
    let floating_id = n as i32;
    let mut floating = vec![false; n];
    for b in &layout.branches {
        if b.end1.dungeon == floating_id {
            if let Some(f) = usize::try_from(b.end2.dungeon)
                .ok()
                .and_then(|c| floating.get_mut(c))
            {
                *f = true;
            }
        }
    }
    let note_rows = (NOTE_LINE * NOTE.len() as i32 + 3 + ROW - 1) / ROW;
    let blocks: Vec<Block> = layout
        .dungeons
        .iter()
        .enumerate()
        .map(|(i, d)| Block {
            top: row(d.depth_start) - 2,
            bottom: row(depth_of(d, d.num_levels.max(1))) + if floating[i] { note_rows } else { 0 },
        })
        .collect();
    let edges: Vec<Edge> = layout
        .branches
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let from = usize::try_from(b.end1.dungeon).ok().filter(|&p| p < n)?;
            let to = usize::try_from(b.end2.dungeon).ok().filter(|&c| c < n)?;
            Some(Edge {
                branch: i,
                from,
                to,
                from_row: row(depth_of(&layout.dungeons[from], b.end1.level)),
                to_row: row(depth_of(&layout.dungeons[to], b.end2.level)),
            })
        })
        .collect();
    let cols = place(layout, &blocks, &edges, &floating);
    let ways: Vec<(Edge, Way)> = edges
        .iter()
        .filter_map(|e| {
            let way = if n > MAX_PLANNED {
                match (cols.of[e.from], cols.of[e.to]) {
                    (Some(a), Some(b)) if a == b => Way::Same,
                    (Some(a), Some(b)) if a.abs_diff(b) == 1 => Way::Next,
                    _ => Way::Across(e.from_row),
                }
            } else {
                cols.way(e, &blocks)?.0
            };
            Some((*e, way))
        })
        .collect();
    let mut col_w = vec![MIN_COL_W; cols.members.len()];
    for (c, members) in cols.members.iter().enumerate() {
        for &d in members {
            col_w[c] = col_w[c].max(needed_width(layout, d, floating[d]));
        }
    }
    let mut col_x = Vec::with_capacity(col_w.len());
    let mut x = LEFT;
    for w in &col_w {
        col_x.push(x);
        x += w + GAP;
    }
    let right = x - GAP;
    let min_depth = layout
        .dungeons
        .iter()
        .map(|d| row(d.depth_start))
        .min()
        .unwrap_or(1)
        .min(1);
    let max_depth = layout
        .dungeons
        .iter()
        .map(|d| row(depth_of(d, d.num_levels.max(1))))
        .max()
        .unwrap_or(1)
        .max(min_depth);
    let across = ways.iter().filter_map(|(_, w)| match w {
        Way::Across(r) => Some(*r),
        _ => None,
    });
    let first_row = blocks
        .iter()
        .map(|b| b.top)
        .chain(across.clone())
        .min()
        .unwrap_or(min_depth - 2)
        .min(min_depth - 2);
    let last_row = blocks
        .iter()
        .map(|b| b.bottom)
        .chain(across)
        .max()
        .unwrap_or(max_depth)
        .max(max_depth);
    let width = (right + 48).max(900).max(LEFT + subtitle_w + 20);
    Plan {
        first_row,
        last_row,
        min_depth,
        max_depth,
        cols,
        col_x,
        col_w,
        ways,
        floating,
        width,
    }
}

/// The SVG document for `layout`; `subtitle` names the file/version.
pub fn svg(layout: &Layout, subtitle: &str) -> String {
    let subtitle = format!("{subtitle} — castle tune {}", layout.tune);
    let title = format!(
        "Dungeon layout, seed {} ({}{})",
        layout.seed,
        layout.rng,
        if layout.wizard { ", wizard mode" } else { "" }
    );
    let p = plan(
        layout,
        width_px(&subtitle, 12.0, false).max(width_px(&title, 18.0, true)),
    );
    let legend_y = p.y(p.last_row + 1) + 30;
    let height = legend_y + 50;

    let mut s = String::new();
    header(&mut s, &title, &subtitle, p.width, height);
    depth_axis(&mut s, &p);
    for (di, d) in layout.dungeons.iter().enumerate() {
        dungeon_column(&mut s, layout, &p, di, d);
    }
    // Branch arrows, drawn last so they stay visible.
    s.push_str("<g class=\"branches\">\n");
    for (i, b) in layout.branches.iter().enumerate() {
        if let Some((e, way)) = p.ways.iter().find(|(e, _)| e.branch == i) {
            branch_arrow(&mut s, layout, &p, b, e, *way);
        } else if b.end1.dungeon == layout.dungeons.len() as i32 {
            floating_arrow(&mut s, layout, &p, b);
        }
    }
    s.push_str("</g>\n");
    legend(&mut s, legend_y);
    s.push_str("</svg>\n");
    s
}

/// The document's opening: size, title, markers, background and headings.
fn header(s: &mut String, title: &str, subtitle: &str, width: i32, height: i32) {
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
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
        escape(title)
    );
    let _ = writeln!(
        s,
        r##"<text class="subtitle" x="{LEFT}" y="50" font-size="12" fill="#555">{}</text>"##,
        escape(subtitle)
    );
}

/// Depth axis with a faint line per depth.
fn depth_axis(s: &mut String, p: &Plan) {
    s.push_str("<g class=\"axis\">\n");
    let _ = writeln!(
        s,
        r##"<text x="8" y="{}" font-size="10" fill="#777">depth</text>"##,
        p.y(p.min_depth) - 8
    );
    for depth in p.min_depth..=p.max_depth {
        let y = p.y(depth);
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#eee"/>"##,
            LEFT - 8,
            y + ROW / 2,
            p.width - 10,
            y + ROW / 2
        );
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#888">{depth}</text>"##,
            LEFT - 14,
            y + ROW / 2 + 4
        );
    }
    s.push_str("</g>\n");
}

/// Dungeon `di`'s column: its name, its depths and a box per level
/// (`castle` gets the tune), and the note of a floating portal's target.
fn dungeon_column(s: &mut String, layout: &Layout, p: &Plan, di: usize, d: &LayoutDungeon) {
    let (fill, stroke) = palette(d.hellish, d.mazelike);
    let (x, w) = (p.x(di), p.w(di));
    let top = p.y(row(d.depth_start));
    let _ = writeln!(s, r#"<g class="dungeon" data-index="{di}">"#);
    let _ = writeln!(
        s,
        r##"<text class="dungeon-name" x="{}" y="{}" text-anchor="middle" font-size="12" font-weight="bold" fill="{stroke}">{}</text>"##,
        x + w / 2,
        top - 18,
        escape(&d.name)
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" text-anchor="middle" font-size="10" fill="#777">{}</text>"##,
        x + w / 2,
        top - 6,
        range_text(d)
    );
    let is_branch_level = |d: i32, l: i32| {
        layout.branches.iter().any(|b| {
            (b.end1.dungeon, b.end1.level) == (d, l) || (b.end2.dungeon, b.end2.level) == (d, l)
        })
    };
    for level in 1..=d.num_levels.max(0) {
        let y = p.y(row(depth_of(d, level))) + 2;
        let label = level_label(layout, di, level);
        let branchy = is_branch_level(di as i32, level);
        let entry = level == d.entry_level;
        let (rect_fill, width_px) = match (label.is_some(), branchy) {
            (true, _) => (stroke, 1.5),
            (false, true) => (fill, 1.5),
            _ => (fill, 0.8),
        };
        let _ = writeln!(
            s,
            r##"<rect class="level{}" x="{x}" y="{y}" width="{w}" height="{}" rx="3" fill="{rect_fill}" stroke="{stroke}" stroke-width="{width_px}"/>"##,
            if label.is_some() { " special" } else { "" },
            ROW - 4
        );
        if let Some(label) = &label {
            let _ = writeln!(
                s,
                r##"<text class="level-name" x="{}" y="{}" font-size="11" fill="#fff" font-weight="bold">{}</text>"##,
                x + 8,
                y + ROW - 8,
                escape(label)
            );
        }
        if entry && di != 0 {
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" text-anchor="end" font-size="10" fill="{}">entry</text>"##,
                x + w - 5,
                y + ROW - 8,
                if label.is_some() { "#fff" } else { stroke }
            );
        }
    }
    if p.floating[di] {
        // Under the last level, in the rows the dungeon keeps for it.
        let below = p.y(row(depth_of(d, d.num_levels.max(1))) + 1);
        for (i, line) in NOTE.iter().enumerate() {
            let _ = writeln!(
                s,
                r##"<text class="note" x="{x}" y="{}" font-size="10" fill="#a3369d">{}</text>"##,
                below + NOTE_LINE * (i as i32 + 1) - 1,
                escape(line)
            );
        }
    }
    s.push_str("</g>\n");
}

/// The legend under the picture, at `legend_y`.
fn legend(s: &mut String, legend_y: i32) {
    s.push_str("<g class=\"legend\">\n");
    let arrows: [(&str, &str); 3] = [
        (
            "stairs",
            r##"stroke="#333" stroke-width="1.6" marker-end="url(#arrow-stair)""##,
        ),
        (
            "magic portal",
            r##"stroke="#a3369d" stroke-width="1.6" stroke-dasharray="5 3" marker-end="url(#arrow-portal)""##,
        ),
        (
            "one-way (bar: no stair at that end)",
            r##"stroke="#333" stroke-width="1.6" marker-end="url(#bar)""##,
        ),
    ];
    let mut x = LEFT;
    for (label, style) in arrows {
        let _ = writeln!(
            s,
            r##"<line x1="{x}" y1="{legend_y}" x2="{}" y2="{legend_y}" {style}/><text x="{}" y="{}" font-size="11">{}</text>"##,
            x + 40,
            x + 48,
            legend_y + 4,
            escape(label)
        );
        x += 48 + width_px(label, LABEL_SIZE, false) + 32;
    }
    let swatches = [
        ("special level", "#5b7f3a", "#5b7f3a"),
        ("ordinary level", "#eef4e6", "#5b7f3a"),
        ("maze-like", "#e6eef7", "#4a6d96"),
        ("hellish", "#fbe3df", "#b5473a"),
    ];
    let mut x = LEFT;
    let y = legend_y + 26;
    for (label, fill, stroke) in swatches {
        let _ = writeln!(
            s,
            r##"<rect x="{x}" y="{}" width="30" height="14" rx="3" fill="{fill}" stroke="{stroke}"/><text x="{}" y="{}" font-size="11">{label}</text>"##,
            y - 8,
            x + 38,
            y + 4
        );
        x += 38 + width_px(label, LABEL_SIZE, false) + 32;
    }
    s.push_str("</g>\n");
}

/// Fort Ludios's arrow: its portal is placed later, in a vault below
/// depth 10, so the arrow comes from nowhere, out of the gap to the left.
fn floating_arrow(s: &mut String, layout: &Layout, p: &Plan, b: &LayoutBranch) {
    let Some(child) = usize::try_from(b.end2.dungeon)
        .ok()
        .filter(|&c| c < layout.dungeons.len())
    else {
        return;
    };
    let cd = &layout.dungeons[child];
    let cy = p.y(row(depth_of(cd, b.end2.level))) + ROW / 2;
    let cx = p.x(child);
    let _ = writeln!(
        s,
        r##"<g class="branch floating"><title>{}</title><line x1="{}" y1="{cy}" x2="{}" y2="{cy}" stroke="#a3369d" stroke-width="1.6" stroke-dasharray="6 4" marker-end="url(#arrow-portal)"/></g>"##,
        escape(&format!("portal to {}", cd.name)),
        cx - 40,
        cx - 2,
    );
}

fn branch_arrow(s: &mut String, layout: &Layout, p: &Plan, b: &LayoutBranch, e: &Edge, way: Way) {
    let (Some(a), Some(c)) = (p.cols.of[e.from], p.cols.of[e.to]) else {
        return;
    };
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
        layout.dungeons[e.to].name
    );
    let py = p.y(e.from_row) + ROW / 2;
    let cy = p.y(e.to_row) + ROW / 2;
    let left = |i: usize| p.col_x[i];
    let right = |i: usize| p.col_x[i] + p.col_w[i];
    // An S-bend from (x0, y0) to (x1, y1) within a gap.
    let bend = |x0: i32, y0: i32, x1: i32, y1: i32| {
        let h = (x1 - x0) / 2;
        format!("C{},{y0} {},{y1} {x1},{y1}", x0 + h, x1 - h)
    };
    let (px, d) = match way {
        Way::Same => {
            let px = right(a);
            let k = GAP * 3 / 5;
            (
                px,
                format!("M{px},{py} C{},{py} {},{cy} {px},{cy}", px + k, px + k),
            )
        }
        Way::Next => {
            let (px, ex) = if a < c {
                (right(a), left(c))
            } else {
                (left(a), right(c))
            };
            (px, format!("M{px},{py} {}", bend(px, py, ex, cy)))
        }
        Way::Across(r) => {
            let ry = p.y(r) + ROW / 2;
            let (px, g1, g2, ex) = if a < c {
                (right(a), left(a + 1), right(c - 1), left(c))
            } else {
                (left(a), right(a - 1), left(c + 1), right(c))
            };
            (
                px,
                format!(
                    "M{px},{py} {} L{g2},{ry} {}",
                    bend(px, py, g1, ry),
                    bend(g2, ry, ex, cy)
                ),
            )
        }
    };
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
        r##"<path class="branch {}" d="{d}" fill="none" stroke="{color}" stroke-width="1.8"{dash}{start_marker}{end_marker} opacity="0.85"><title>{}</title></path>"##,
        escape(&b.branch_type),
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

    #[test]
    fn text_widths_are_dejavu_s_with_room() {
        // "iii" is narrow, "WWW" wide; bold is wider; beyond ASCII an em.
        assert!(text_width("iii", 10.0, false) < 10.0);
        assert!(text_width("WWW", 10.0, false) > 30.0);
        assert!(text_width("oracle", 11.0, true) > text_width("oracle", 11.0, false));
        assert_eq!(text_width("♪", 10.0, false), 10.8);
    }

    #[test]
    fn the_note_fits_the_narrowest_column() {
        assert!(NOTE
            .iter()
            .all(|l| width_px(l, SMALL_SIZE, false) + 8 <= MIN_COL_W));
    }
}
