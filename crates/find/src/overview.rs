//! A player's dungeon overview (`#overview`, Ctrl-O, or the section of a
//! dumplog) read as evidence for `dgn stats --given-overview`.
//!
//! NetHack 3.6 and 3.7 write it in `print_mapseen()` (3.6.7
//! src/dungeon.c:2915-3125, 3.7 src/dungeon.c:3500-3700): a heading per
//! dungeon at column 0, `Level N:` per level reached (indented), and under
//! each level its features, its automatic annotations and the branch that
//! leaves it. Every line becomes a condition of the `dgn find` language,
//! so the evidence is a query the user can read, edit and reuse; a line
//! that says nothing about the layout (fountains, shops, bones) is known
//! and skipped, and a line this reader does not know is reported and
//! skipped, never guessed at.
//!
//! Only what the game's text proves is used:
//! - `NAME: levels X to Y`: the dungeon starts at depth X (`depth_start`,
//!   3.6.7 :2947-2949) and has at least Y - X + 1 levels, since Y is the
//!   deepest level reached; the Quest and Fort Ludios count from 1 (:2931);
//! - `NAME: levels A up to B` (a dungeon built upwards): its entry level is
//!   at depth A, and its first level at depth B or above (:2942-2945);
//! - `NAME:` alone: only the entry level was reached (:2938), so the level
//!   listed under it is the entry's depth;
//! - the annotations `Oracle of Delphi.`, `A very big room.`, `A primitive
//!   area.`, `The castle.`, `Valley of the Dead.`, `Moloch's Sanctum.`
//!   (:3025-3052): that special level lies there; `Fort Ludios.`: the fort
//!   exists; `Summoned by ...`: the Quest's portal is on that level
//!   (`at_dgn_entrance("The Quest")`, :2454);
//! - `Stairs down to NAME.`, `Portal to NAME.`, `Connection to NAME.`, ...
//!   (:3062-3073): the branch into NAME leaves from that level (branches are
//!   recorded on their parent's side only, `recbranch_mapseen`), and
//!   `, level L` is the depth the branch arrives at;
//! - `[name]` after a level (wizard mode only, :2961-2966): that special
//!   level lies there.
//!
//! The absence of an annotation is not used: the Oracle's is set only when
//! her centre room was seen, the big room's only when the hero could see,
//! and a forgotten level prints no details at all (:2976).

use dgnkit_loader::Resolver;

/// One condition read from the overview, with the line it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// 1-based line number in the input.
    pub line: usize,
    /// The condition in the query language.
    pub text: String,
}

/// A line not used as evidence, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub line: usize,
    pub text: String,
    pub why: String,
}

/// What an overview says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    pub conditions: Vec<Condition>,
    /// Lines this reader does not know (reported, not used).
    pub unknown: Vec<Skipped>,
    /// Lines it knows that name something the description lacks.
    pub unused: Vec<Skipped>,
    /// Level names in brackets: the overview was written in wizard mode.
    pub wizard: bool,
    /// Overview lines read (headings and levels).
    pub lines_read: usize,
}

impl Reading {
    /// The conditions as one query (`and` of each), or `None` when there
    /// are none.
    pub fn query(&self) -> Option<String> {
        let mut seen = std::collections::BTreeSet::new();
        let parts: Vec<&str> = self
            .conditions
            .iter()
            .map(|c| c.text.as_str())
            .filter(|t| seen.insert(*t))
            .collect();
        (!parts.is_empty()).then(|| parts.join(" and "))
    }
}

/// The annotations that name a special level (3.6.7 src/dungeon.c:3025-3052;
/// 3.7 :3620-3650) and the level's prototype name in NetHack's files.
const ANNOTATIONS: [(&str, &str); 6] = [
    ("Oracle of Delphi.", "oracle"),
    ("A very big room.", "bigrm"),
    ("A primitive area.", "rogue"),
    ("Valley of the Dead.", "valley"),
    ("Moloch's Sanctum.", "sanctum"),
    ("The castle", "castle"),
];

/// What a features line counts (3.6.7 src/dungeon.c:2988-3009) and the
/// shop names `shop_string()` gives (src/shknam.c `shtypes[]`).
const FEATURES: [&str; 20] = [
    "shop",
    "store",
    "dealership",
    "emporium",
    "outlet",
    "delicatessen",
    "jewelers",
    "apparel",
    "books",
    "lighting",
    "altar",
    "temple",
    "throne",
    "fountain",
    "sink",
    "grave",
    "tree",
    "bookstore",
    "deli",
    "accessories",
];

/// `br_string2()` (3.6.7 src/dungeon.c:2767-2786).
const BRANCH_WORDS: [&str; 7] = [
    "One way stairs up",
    "One way stairs down",
    "Stairs up",
    "Stairs down",
    "Sealed portal",
    "Portal",
    "Connection",
];

/// Dungeons whose levels the overview numbers from 1 (3.6.7 :2931).
fn counts_from_one(name: &str) -> bool {
    name == "The Quest" || name == "Fort Ludios"
}

fn quoted(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        if c == '"' || c == '\\' {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// A line's indentation and the rest.
fn indent(line: &str) -> (usize, &str) {
    let rest = line.trim_start_matches([' ', '\t']);
    (line.len() - rest.len(), rest.trim_end())
}

/// A heading's levels: the first, whether the dungeon builds up, the last.
type Span = (i32, bool, i32);

/// `NAME: levels X to Y`, `NAME: levels A up to B` or `NAME:`.
fn heading(s: &str) -> Option<(&str, Option<Span>)> {
    if let Some((name, rest)) = s.split_once(": levels ") {
        let (a, up, b) = if let Some((a, b)) = rest.split_once(" up to ") {
            (a, true, b)
        } else {
            let (a, b) = rest.split_once(" to ")?;
            (a, false, b)
        };
        return Some((name, Some((a.parse().ok()?, up, b.parse().ok()?))));
    }
    let name = s.strip_suffix(':')?;
    (!name.is_empty() && !name.contains(':')).then_some((name, None))
}

/// `Level N:` with what follows (`[proto]`, `"custom"`, `<- You were here.`).
fn level_line(s: &str) -> Option<(i32, &str)> {
    let rest = s.strip_prefix("Level ")?;
    let (n, tail) = rest.split_once(':')?;
    Some((n.parse().ok()?, tail))
}

/// The bracketed prototype name after a level (wizard mode).
fn proto(tail: &str) -> Option<&str> {
    let tail = tail.trim_start();
    let rest = tail.strip_prefix('[')?;
    rest.split_once(']').map(|(p, _)| p)
}

/// A features line: comma-separated counts of things (`A fountain, some
/// graves.`, `Many shops, a temple to Tyr, a sink.`), ADDNTOBUF's shape
/// (3.6.7 :2982-3016).
fn is_features(s: &str) -> bool {
    let Some(body) = s.strip_suffix('.') else {
        return false;
    };
    body.split(", ").all(|part| {
        let mut w = part.split_whitespace();
        let (Some(q), Some(_)) = (w.next(), w.next()) else {
            return false;
        };
        let counted = matches!(
            q.to_ascii_lowercase().as_str(),
            "a" | "an" | "some" | "many" | "two" | "three" | "four"
        ) || q.parse::<u32>().is_ok();
        let lower = part.to_ascii_lowercase();
        counted && FEATURES.iter().any(|f| lower.contains(f))
    })
}

/// Reads an overview (alone, or inside a whole dumplog) against the
/// description `res` lays out.
pub fn read(text: &str, res: &Resolver) -> Reading {
    let mut r = Reading::default();
    let lines: Vec<&str> = text.lines().collect();
    let start = section_start(&lines);
    let Some(start) = start else {
        return r;
    };
    // The dungeon being listed: its name, whether its levels count from 1,
    // whether its heading was bare (only the entry level reached).
    let mut dungeon: Option<(String, bool, bool)> = None;
    let mut level: Option<i32> = None;
    let mut in_resting_place = false;
    for (i, raw) in lines.iter().enumerate().skip(start) {
        let n = i + 1;
        let (ind, s) = indent(raw);
        if s.is_empty() {
            // A blank line ends the section in a dumplog.
            if r.lines_read > 0 {
                break;
            }
            continue;
        }
        if ind == 0 {
            in_resting_place = false;
            level = None;
            let Some((name, range)) = heading(s) else {
                if r.lines_read > 0 {
                    break;
                }
                continue;
            };
            r.lines_read += 1;
            let one = counts_from_one(name);
            dungeon = Some((name.to_string(), one, range.is_none()));
            if !dungeon_exists(res, name) {
                r.unused.push(Skipped {
                    line: n,
                    text: s.to_string(),
                    why: format!("no dungeon named {} in this description", quoted(name)),
                });
                continue;
            }
            heading_conditions(&mut r, n, name, range, one);
            continue;
        }
        let Some((dname, one, bare)) = dungeon.clone() else {
            continue;
        };
        if let Some((depth, tail)) = level_line(s) {
            r.lines_read += 1;
            in_resting_place = false;
            level = Some(depth);
            if let Some(p) = proto(tail) {
                r.wizard = true;
                if level_exists(res, p) {
                    let what = if one { "level" } else { "depth" };
                    cond(&mut r, n, format!("{}.{what} == {depth}", quoted(p)));
                } else {
                    r.unused.push(Skipped {
                        line: n,
                        text: s.to_string(),
                        why: format!("no level named {} in this description", quoted(p)),
                    });
                }
            }
            if bare && !one && dungeon_exists(res, &dname) {
                // Only the entry level was reached: this is it.
                cond(
                    &mut r,
                    n,
                    format!("dungeon({}).entry_depth == {depth}", quoted(&dname)),
                );
            }
            continue;
        }
        if s.starts_with("Plane of ") || s.starts_with("Astral Plane") {
            // An endgame level (`Plane of Air:`): the Planes are fixed.
            r.lines_read += 1;
            level = None;
            if s.split_once(':').and_then(|(_, t)| proto(t)).is_some() {
                r.wizard = true;
            }
            continue;
        }
        let Some(depth) = level else {
            r.unknown.push(Skipped {
                line: n,
                text: s.to_string(),
                why: "not under a level line".into(),
            });
            continue;
        };
        if in_resting_place || s.starts_with("Final resting place for") {
            // Bones details: who died there (3.6.7 :3076-3117).
            in_resting_place = true;
            continue;
        }
        annotation(&mut r, res, n, s, depth, one);
    }
    r
}

/// The facts a dungeon's heading states: it exists, and its depths as
/// the heading's range gives them.
fn heading_conditions(r: &mut Reading, n: usize, name: &str, range: Option<Span>, one: bool) {
    let d = format!("dungeon({})", quoted(name));
    cond(r, n, format!("{d}.exists"));
    match range {
        Some((_, false, y)) if one => cond(r, n, format!("{d}.levels >= {y}")),
        Some((x, false, y)) => {
            cond(r, n, format!("{d}.depth_start == {x}"));
            cond(r, n, format!("{d}.levels >= {}", y - x + 1));
        }
        Some((a, true, b)) => {
            cond(r, n, format!("{d}.entry_depth == {a}"));
            cond(r, n, format!("{d}.depth_start <= {b}"));
        }
        None => {}
    }
}

/// A line under level `depth`: a special level, a branch or a known
/// remark, with levels counted from 1 (`one`) or depths.
fn annotation(r: &mut Reading, res: &Resolver, n: usize, s: &str, depth: i32, one: bool) {
    let at = if one { "level" } else { "depth" };
    if let Some(&(_, name)) = ANNOTATIONS.iter().find(|(a, _)| s.starts_with(a)) {
        if level_exists(res, name) {
            cond(r, n, format!("{name}.{at} == {depth}"));
        } else {
            r.unused.push(Skipped {
                line: n,
                text: s.to_string(),
                why: format!("no level named {} in this description", quoted(name)),
            });
        }
        return;
    }
    if s == "Fort Ludios." {
        if dungeon_exists(res, "Fort Ludios") {
            cond(r, n, "dungeon(\"Fort Ludios\").exists".into());
        }
        return;
    }
    if let Some(rest) = s.strip_prefix("Summoned by ") {
        if rest.ends_with('.') && dungeon_exists(res, "The Quest") {
            cond(r, n, format!("branch(\"The Quest\").{at} == {depth}"));
            return;
        }
    }
    if let Some((child, arrival)) = branch_line(s) {
        if dungeon_exists(res, child) {
            let b = format!("branch({})", quoted(child));
            cond(r, n, format!("{b}.{at} == {depth}"));
            if let Some(l) = arrival {
                cond(
                    r,
                    n,
                    format!("dungeon({}).entry_depth == {l}", quoted(child)),
                );
            }
        } else {
            r.unused.push(Skipped {
                line: n,
                text: s.to_string(),
                why: format!("no dungeon named {} in this description", quoted(child)),
            });
        }
        return;
    }
    let known_words = matches!(s, "Solved." | "Unsolved." | "Home." | "Home (no way back...).")
        || s.starts_with("Given quest by ")
        || s.starts_with("Completed quest for ")
        // The vibrating square's level (3.7 :3646-3647): Gehennom's
        // bottom, which no single fact states.
        || s == "Gateway to Moloch's Sanctum."
        || is_features(s);
    if !known_words {
        r.unknown.push(Skipped {
            line: n,
            text: s.to_string(),
            why: "not a line NetHack's overview writes".into(),
        });
    }
}

fn dungeon_exists(res: &Resolver, name: &str) -> bool {
    res.dungeons.iter().any(|d| d.name == name)
}

fn level_exists(res: &Resolver, name: &str) -> bool {
    res.levels.iter().any(|l| l.name == name)
}

fn cond(r: &mut Reading, line: usize, text: String) {
    r.conditions.push(Condition { line, text });
}

/// `Stairs down to NAME.` or `Stairs up to NAME, level L.`: the child's name
/// and the depth it arrives at when given.
fn branch_line(s: &str) -> Option<(&str, Option<i32>)> {
    let body = s.strip_suffix('.')?;
    let rest = BRANCH_WORDS
        .iter()
        .find_map(|w| body.strip_prefix(w)?.strip_prefix(" to "))?;
    if let Some((name, l)) = rest.rsplit_once(", level ") {
        if let Ok(l) = l.parse() {
            return Some((name, Some(l)));
        }
    }
    Some((rest, None))
}

/// Where the overview starts: after a `Dungeon overview` heading, or at
/// the first dungeon heading followed by a level line.
fn section_start(lines: &[&str]) -> Option<usize> {
    if let Some(i) = lines.iter().position(|l| {
        l.trim()
            .to_ascii_lowercase()
            .starts_with("dungeon overview")
    }) {
        return Some(i + 1);
    }
    lines.windows(2).position(|w| {
        let (i0, a) = indent(w[0]);
        let (i1, b) = indent(w[1]);
        i0 == 0
            && i1 > 0
            && heading(a).is_some()
            && (level_line(b).is_some()
                || b.starts_with("Plane of ")
                || b.starts_with("Astral Plane"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolver(src: &str) -> Resolver {
        let script = dgnkit::frontend::analyze_fast(
            src.as_bytes(),
            &dgnkit::frontend::CheckOptions::default(),
        )
        .script
        .expect("the test's description compiles");
        Resolver::with_rules(&script, dgnkit_loader::Rules::nethack_36()).unwrap()
    }

    const SMALL: &str = "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\n\
BRANCH: \"The Gnomish Mines\" @ (2, 3)\n\
LEVEL: \"rogue\" \"R\" @ (15, 4)\n\
LEVEL: \"oracle\" \"O\" @ (5, 5)\n\
CHAINBRANCH: \"Sokoban\" \"oracle\" + (1, 0) up\n\
RNDLEVEL: \"bigrm\" \"B\" @ (10, 3) 40 2\n\
DUNGEON: \"The Gnomish Mines\" \"M\" (8, 2)\n\
DUNGEON: \"Sokoban\" \"none\" (4, 0)\n\
ENTRY: -1\n";

    #[test]
    fn each_line_becomes_a_condition_or_is_reported() {
        let res = resolver(SMALL);
        let text = "Some text before\n\nThe Dungeons of Doom: levels 1 to 12\n   Level 3:\n      Some fountains.\n      Stairs down to The Gnomish Mines.\n   Level 5:\n      Oracle of Delphi.\n   Level 6:\n      Stairs up to Sokoban, level 5.\n   Level 10: [bigrm]\n      A very big room.\n      Something odd.\nThe Gnomish Mines: levels 4 to 7\n   Level 7:\n      Many shops, a temple, some fountains, a sink.\nSokoban: levels 5 up to 2\n   Level 2:\n      Solved.\nThe Quest: levels 1 to 6\n   Level 1:\n      Given quest by the Norn.\n\nFarvel\n";
        let r = read(text, &res);
        let q = r.query().unwrap();
        for want in [
            "dungeon(\"The Dungeons of Doom\").depth_start == 1",
            "dungeon(\"The Dungeons of Doom\").levels >= 12",
            "branch(\"The Gnomish Mines\").depth == 3",
            "oracle.depth == 5",
            "branch(\"Sokoban\").depth == 6",
            "dungeon(\"Sokoban\").entry_depth == 5",
            "bigrm.depth == 10",
            "\"bigrm\".depth == 10",
            "dungeon(\"The Gnomish Mines\").depth_start == 4",
            "dungeon(\"The Gnomish Mines\").levels >= 4",
            "dungeon(\"Sokoban\").depth_start <= 2",
        ] {
            assert!(q.contains(want), "{want} missing from {q}");
        }
        assert!(r.wizard);
        assert_eq!(r.unknown.len(), 1, "{:?}", r.unknown);
        assert_eq!(r.unknown[0].text, "Something odd.");
        // The Quest is not in this description: said, not used.
        assert!(r.unused.iter().any(|s| s.text.starts_with("The Quest")));
        assert!(!q.contains("Quest"));
    }

    #[test]
    fn a_bare_heading_names_the_entry_level() {
        let res = resolver(SMALL);
        let r = read("The Gnomish Mines:\n   Level 3:\n", &res);
        assert_eq!(
            r.query().unwrap(),
            "dungeon(\"The Gnomish Mines\").exists and dungeon(\"The Gnomish Mines\").entry_depth == 3"
        );
    }

    #[test]
    fn text_without_an_overview_gives_nothing() {
        let res = resolver(SMALL);
        let r = read("hello\nworld\n", &res);
        assert_eq!(r.query(), None);
        assert_eq!(r.lines_read, 0);
    }
}
