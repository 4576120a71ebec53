//! `dgn layout --format svg` reads at its own size. For the built-in
//! description of every target, over several seeds and in wizard mode (every
//! optional dungeon there), the drawn picture is measured from the SVG
//! itself: texts (by DejaVu Sans's widths, `views::svg::text_width`),
//! boxes and arrows (their curves sampled), and
//!
//! - no text is drawn over another;
//! - a text is inside one box (a level's label) or clear of every box;
//! - no arrow or line crosses a box or a text;
//! - no two level boxes meet;
//! - everything is inside the picture, and no text is smaller than 10 px.
//!
//! The XML itself is checked in `layout_cli`.

use dgnkit::layout::Layout;
use dgnkit::options::Target;
use dgnkit::views::svg::text_width;
use dgnkit_cli::layout::{execute, parse_args, Terminal};
use std::collections::BTreeMap;

fn run(args: &[&str]) -> (u8, String, String) {
    dgnkit_tests::run_cli("layout", args, parse_args, |a, out, err| {
        execute(a, out, err, Terminal::default())
    })
}

/// An axis-aligned rectangle.
#[derive(Clone, Copy, Debug)]
struct Area {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Area {
    /// Whether the two share more than an edge.
    fn meets(&self, o: &Area) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    fn contains(&self, o: &Area) -> bool {
        self.x0 <= o.x0 && o.x1 <= self.x1 && self.y0 <= o.y0 && o.y1 <= self.y1
    }

    /// Whether the point is inside, more than half a pixel from the edge.
    fn holds(&self, (x, y): (f64, f64)) -> bool {
        self.x0 + 0.5 < x && x < self.x1 - 0.5 && self.y0 + 0.5 < y && y < self.y1 - 0.5
    }
}

#[derive(Debug)]
struct Text {
    text: String,
    size: f64,
    area: Area,
}

/// What the picture draws: its size, texts, boxes (level boxes flagged)
/// and the points along its arrows and lines.
#[derive(Debug, Default)]
struct Drawing {
    width: f64,
    height: f64,
    texts: Vec<Text>,
    boxes: Vec<(Area, bool)>,
    lines: Vec<(String, Vec<(f64, f64)>)>,
    arrows: usize,
}

fn attrs(tag: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq]
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("");
        let after = &rest[eq + 2..];
        let end = after.find('"').expect("a closing quote");
        out.insert(name.to_string(), after[..end].to_string());
        rest = &after[end + 1..];
    }
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn num(a: &BTreeMap<String, String>, key: &str) -> f64 {
    a.get(key)
        .unwrap_or_else(|| panic!("no {key} in {a:?}"))
        .parse()
        .unwrap_or_else(|_| panic!("{key} is not a number in {a:?}"))
}

/// The points along a path's `d` (M, L, C and z, absolute), a cubic every
/// 1/64 of its parameter, a straight piece every pixel or so.
fn path_points(d: &str) -> Vec<(f64, f64)> {
    let mut words: Vec<String> = Vec::new();
    for w in d.split([' ', ',']).filter(|w| !w.is_empty()) {
        let (letter, number) = w.split_at(
            w.find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(w.len()),
        );
        if !letter.is_empty() {
            words.push(letter.to_string());
        }
        if !number.is_empty() {
            words.push(number.to_string());
        }
    }
    let mut points = Vec::new();
    let mut at = (0.0, 0.0);
    let mut i = 0;
    let n = |i: usize| -> f64 { words[i].parse().unwrap_or_else(|_| panic!("{d}")) };
    let mut command = String::new();
    while i < words.len() {
        if words[i].chars().all(|c| c.is_ascii_alphabetic()) {
            command = words[i].clone();
            i += 1;
            continue;
        }
        match command.as_str() {
            "M" => {
                at = (n(i), n(i + 1));
                points.push(at);
                i += 2;
            }
            "L" => {
                let to = (n(i), n(i + 1));
                let steps = ((to.0 - at.0).abs() + (to.1 - at.1).abs()).ceil().max(1.0) as usize;
                for k in 1..=steps {
                    let t = k as f64 / steps as f64;
                    points.push((at.0 + (to.0 - at.0) * t, at.1 + (to.1 - at.1) * t));
                }
                at = to;
                i += 2;
            }
            "C" => {
                let (c1, c2, to) = ((n(i), n(i + 1)), (n(i + 2), n(i + 3)), (n(i + 4), n(i + 5)));
                for k in 1..=64 {
                    let t = k as f64 / 64.0;
                    let u = 1.0 - t;
                    let f = |a: f64, b: f64, c: f64, e: f64| {
                        u * u * u * a + 3.0 * u * u * t * b + 3.0 * u * t * t * c + t * t * t * e
                    };
                    points.push((f(at.0, c1.0, c2.0, to.0), f(at.1, c1.1, c2.1, to.1)));
                }
                at = to;
                i += 6;
            }
            other => panic!("path command {other:?} in {d}"),
        }
    }
    points
}

/// The SVG measured. Markers' definitions, the background and the depth
/// axis's grid lines (drawn under everything) are left out.
fn measure(svg: &str) -> Drawing {
    let mut out = Drawing::default();
    let mut groups: Vec<String> = Vec::new();
    let mut in_defs = false;
    let mut rest = svg;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt + 1..];
        let gt = rest.find('>').expect("a closed tag");
        let tag = &rest[..gt];
        let name: String = tag
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
            .collect();
        let a = attrs(tag);
        // Coordinates are measured as written: nothing may move them.
        assert!(!a.contains_key("transform"), "a transform in <{tag}>");
        let closing = tag.starts_with('/');
        let self_closing = tag.ends_with('/');
        match name.as_str() {
            "" if closing && tag == "/g" => {
                groups.pop();
            }
            "" if closing && tag == "/defs" => in_defs = false,
            "defs" => in_defs = true,
            "g" if !self_closing => groups.push(a.get("class").cloned().unwrap_or_default()),
            _ if in_defs => {}
            "svg" => {
                out.width = num(&a, "width");
                out.height = num(&a, "height");
            }
            "text" => {
                let end = rest.find("</text>").expect("a closed text");
                let text = unescape(&rest[gt + 1..end]);
                let size = a
                    .get("font-size")
                    .map_or(11.0, |s| s.parse().expect("a size"));
                let bold = a.get("font-weight").is_some_and(|w| w == "bold");
                let w = text_width(&text, size, bold);
                let x = num(&a, "x");
                let y = num(&a, "y");
                let x0 = match a.get("text-anchor").map(String::as_str) {
                    Some("middle") => x - w / 2.0,
                    Some("end") => x - w,
                    _ => x,
                };
                out.texts.push(Text {
                    text,
                    size,
                    area: Area {
                        x0,
                        y0: y - 0.76 * size,
                        x1: x0 + w,
                        y1: y + 0.24 * size,
                    },
                });
            }
            "rect" if a.get("class").map(String::as_str) != Some("background") => {
                let (x, y) = (num(&a, "x"), num(&a, "y"));
                let area = Area {
                    x0: x,
                    y0: y,
                    x1: x + num(&a, "width"),
                    y1: y + num(&a, "height"),
                };
                let level = a.get("class").is_some_and(|c| c.starts_with("level"));
                out.boxes.push((area, level));
            }
            "path" => {
                let class = a.get("class").cloned().unwrap_or_default();
                if class.starts_with("branch") {
                    out.arrows += 1;
                }
                // The arrow's tooltip names it.
                let title = rest[gt + 1..]
                    .strip_prefix("<title>")
                    .and_then(|t| t.split("</title>").next())
                    .unwrap_or("");
                let what = format!("the path {class:?} ({})", unescape(title));
                out.lines.push((what, path_points(&a["d"])));
            }
            "line" if groups.last().map(String::as_str) != Some("axis") => {
                let d = format!("M{},{} L{},{}", a["x1"], a["y1"], a["x2"], a["y2"]);
                let what = format!(
                    "the line in {:?}",
                    groups.last().cloned().unwrap_or_default()
                );
                out.lines.push((what, path_points(&d)));
            }
            _ => {}
        }
        rest = &rest[gt + 1..];
    }
    out
}

/// Everything wrong with a drawing, in words.
fn faults(d: &Drawing) -> Vec<String> {
    let mut faults = Vec::new();
    let page = Area {
        x0: 0.0,
        y0: 0.0,
        x1: d.width,
        y1: d.height,
    };
    for (i, t) in d.texts.iter().enumerate() {
        if t.size < 10.0 {
            faults.push(format!("{:?} is {} px", t.text, t.size));
        }
        if !page.contains(&t.area) {
            faults.push(format!("{:?} is outside the picture: {:?}", t.text, t.area));
        }
        for u in &d.texts[i + 1..] {
            if t.area.meets(&u.area) {
                faults.push(format!("{:?} is drawn over {:?}", t.text, u.text));
            }
        }
        let inside = d.boxes.iter().any(|(b, _)| b.contains(&t.area));
        if !inside {
            if let Some((b, _)) = d.boxes.iter().find(|(b, _)| b.meets(&t.area)) {
                faults.push(format!("{:?} is drawn over a box at {b:?}", t.text));
            }
        }
    }
    let levels: Vec<&Area> = d.boxes.iter().filter(|(_, l)| *l).map(|(b, _)| b).collect();
    for (i, b) in levels.iter().enumerate() {
        if !page.contains(b) {
            faults.push(format!("a box is outside the picture: {b:?}"));
        }
        if let Some(c) = levels[i + 1..].iter().find(|c| b.meets(c)) {
            faults.push(format!("the boxes at {b:?} and {c:?} meet"));
        }
    }
    for (what_line, points) in &d.lines {
        let what = |p: &(f64, f64)| {
            d.boxes
                .iter()
                .find(|(b, _)| b.holds(*p))
                .map(|(b, _)| format!("the box at {b:?}"))
                .or_else(|| {
                    d.texts
                        .iter()
                        .find(|t| t.area.holds(*p))
                        .map(|t| format!("{:?}", t.text))
                })
        };
        if let Some((p, crossed)) = points.iter().find_map(|p| what(p).map(|w| (p, w))) {
            faults.push(format!("{what_line} crosses {crossed} at {p:?}"));
        }
    }
    faults
}

/// The targets whose layouts dgnkit gives (the others are refused).
fn drawn_targets() -> Vec<Target> {
    Target::ALL
        .into_iter()
        .filter(|t| t.game().loader_proven())
        .collect()
}

#[test]
fn every_target_s_map_has_no_overlap_and_no_arrow_across_a_box() {
    let targets = drawn_targets();
    assert!(targets.len() >= 12, "{targets:?}");
    let mut all = Vec::new();
    for t in targets {
        for (seed, wizard) in [
            ("0", false),
            ("1", false),
            ("7", false),
            ("42", false),
            ("42", true),
            ("1000", false),
        ] {
            let mut args = vec!["--target", t.name(), "--seed", seed];
            if wizard {
                args.push("--wizard");
            }
            let (code, json, err) = run(&[args.as_slice(), &["--format", "json"]].concat());
            assert_eq!(code, 0, "{} {seed}: {err}", t.name());
            let layout: Layout = serde_json::from_str(json.trim()).expect("a layout");
            let (code, svg, err) = run(&[args.as_slice(), &["--format", "svg"]].concat());
            assert_eq!(code, 0, "{} {seed}: {err}", t.name());
            let d = measure(&svg);
            // The measure saw every box and arrow.
            let levels: i32 = layout.dungeons.iter().map(|d| d.num_levels.max(0)).sum();
            assert_eq!(
                d.boxes.iter().filter(|(_, l)| *l).count(),
                levels as usize,
                "{} {seed}",
                t.name()
            );
            let floating = layout
                .branches
                .iter()
                .filter(|b| b.end1.dungeon == layout.dungeons.len() as i32)
                .count();
            assert_eq!(
                d.arrows,
                layout.branches.len() - floating,
                "{} {seed}",
                t.name()
            );
            for f in faults(&d) {
                all.push(format!(
                    "--target {} --seed {seed}{}: {f}",
                    t.name(),
                    if wizard { " --wizard" } else { "" }
                ));
            }
        }
    }
    assert!(all.is_empty(), "{} faults:\n{}", all.len(), all.join("\n"));
}

#[test]
fn the_measure_sees_overlaps_and_crossings() {
    let svg = r##"<svg width="300" height="200">
<defs><marker><path d="M0,0 L10,5 L0,10 z"/></marker></defs>
<rect class="background" width="300" height="200"/>
<g class="axis"><line x1="0" y1="30" x2="300" y2="30"/></g>
<rect class="level" x="10" y="20" width="100" height="16"/>
<rect class="level" x="200" y="20" width="60" height="16"/>
<text x="18" y="32" font-size="11">oracle</text>
<text x="60" y="14" font-size="12" font-weight="bold">Sokoban &amp; more</text>
<text x="100" y="12" font-size="10">over</text>
<text x="200" y="60" font-size="9">small</text>
<path class="branch stair" d="M110,28 C150,28 150,28 190,28 L230,28"><title>stairs to B</title></path>
<line x1="20" y1="5" x2="20" y2="100"/>
</svg>"##;
    let d = measure(svg);
    assert_eq!((d.width, d.height, d.arrows), (300.0, 200.0, 1));
    assert_eq!(d.texts.len(), 4);
    assert_eq!(d.texts[1].text, "Sokoban & more");
    let f = faults(&d);
    let has = |s: &str| f.iter().any(|x| x.contains(s));
    assert!(
        has("\"over\" is drawn over \"Sokoban & more\"")
            || has("\"Sokoban & more\" is drawn over \"over\""),
        "{f:#?}"
    );
    assert!(has("\"small\" is 9 px"), "{f:#?}");
    assert!(
        has("the path \"branch stair\" (stairs to B) crosses the box at Area { x0: 200.0"),
        "{f:#?}"
    );
    // The vertical line crosses the first box and the label inside it.
    assert!(
        f.iter().filter(|x| x.starts_with("the line")).count() == 1,
        "{f:#?}"
    );
    // The axis's grid line and the markers are not measured.
    assert_eq!(d.lines.len(), 2);
}
