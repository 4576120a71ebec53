//! NetHack's wizard-mode dungeon overview (`print_dungeon()`: 3.4.3's `^O`,
//! 3.6's `#wizwhere`) for a resolved layout, byte for byte.
//!
//! The text is what the game prints right after `init_dungeons()` in a new
//! game (`../shared/expected/overview/README.md`): the hero on dungeon 0
//! level 1, no magic portal on that level, Fort Ludios still floating, and
//! quest levels under their source names (`x-strt`, not `Val-strt`).

use dgnkit_script::layout::{Layout, LayoutBranch};
use std::fmt::Write;

/// Which version's `print_dungeon` to imitate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverviewStyle {
    /// Three blanks before levels and branches.
    NetHack343,
    /// `"%c "` before levels (a `*` marks the hero's level) and branches;
    /// an unplaced Fort Ludios is headed "depth" instead of "level"; more
    /// places where a missing portal is reported.
    NetHack36,
    /// UnNetHack (`src/dungeon.c:2185-2330`): 3.6's `"%c "` before levels
    /// and branches, with 3.4.3's headings and portal report.
    UnNetHack,
    /// SLASH'EM (`src/dungeon.c:1583-1770`): 3.4.3's text, with branches
    /// after the last special level listed up to its MAXLEVEL 50
    /// (`include/global.h:411`).
    SlashEm,
    /// dNetHack (dNAO `src/dungeon.c:2015-2245`): 3.4.3's text without the
    /// Fort Ludios dungeon until the fort is made (`:2093-2095`, never in a
    /// new game), branches up to its MAXLEVEL 64 (`include/global.h:358`).
    DNetHack,
    /// GnollHack (`src/dungeon.c:1919-2060`): 3.6's, with each special
    /// level under its display name (`s_level.name`, `:1977-1979`) and a
    /// missing portal also reported at the entrances of three more
    /// dungeons (`:2045-2047`).
    GnollHack,
}

impl OverviewStyle {
    /// Levels and branches start with `"%c "`, a `*` marking the hero's
    /// level (else three blanks).
    fn marks_levels(self) -> bool {
        matches!(
            self,
            OverviewStyle::NetHack36 | OverviewStyle::UnNetHack | OverviewStyle::GnollHack
        )
    }

    /// An unplaced floating dungeon is headed "depth".
    fn heads_unplaced_by_depth(self) -> bool {
        matches!(self, OverviewStyle::NetHack36 | OverviewStyle::GnollHack)
    }

    /// A missing portal is also reported on the Quest's home level, Fort
    /// Ludios and the entrances of these dungeons (not only on the four
    /// planes).
    fn portal_entrances(self) -> Option<&'static [&'static str]> {
        match self {
            OverviewStyle::NetHack36 => Some(&["The Quest"]),
            OverviewStyle::GnollHack => Some(&[
                "The Quest",
                "Plane of the Modron",
                "Hellish Pastures",
                "The Large Circular Dungeon",
            ]),
            _ => None,
        }
    }

    /// Special levels are listed under their display names.
    fn display_names(self) -> bool {
        self == OverviewStyle::GnollHack
    }

    /// `MAXLEVEL`: the upper bound `print_branch` uses after the last
    /// special level of a dungeon.
    fn max_level(self) -> i32 {
        match self {
            OverviewStyle::SlashEm => 50,
            OverviewStyle::DNetHack => 64,
            _ => 32,
        }
    }

    /// The dungeon of the level named "knox" is left out while the fort is
    /// not made (`u.uevent.knoxmade`, false in a new game).
    fn hides_unmade_knox(self) -> bool {
        self == OverviewStyle::DNetHack
    }
}

/// The hero's level in a new game (`u_init`).
const HERO: (i32, i32) = (0, 1);

fn br_string(kind: &str) -> &'static str {
    match kind {
        "portal" => "Portal",
        "no_end1" => "Connection",
        "no_end2" => "One way stair",
        "stair" => "Stair",
        _ => " (unknown)",
    }
}

/// `depth()`: a signed byte in NetHack.
fn depth(layout: &Layout, dungeon: i32, level: i32) -> i32 {
    let start = usize::try_from(dungeon)
        .ok()
        .and_then(|d| layout.dungeons.get(d))
        .map_or(0, |d| d.depth_start);
    start.wrapping_add(level).wrapping_sub(1) as i8 as i32
}

fn dungeon_name(layout: &Layout, dungeon: i32) -> &str {
    usize::try_from(dungeon)
        .ok()
        .and_then(|d| layout.dungeons.get(d))
        .map_or("", |d| d.name.as_str())
}

/// Where the first special level of that name (case-insensitive, as
/// `find_level` looks) lies; `(0, 0)` when none, as NetHack's zeroed
/// globals are.
fn find_level(layout: &Layout, name: &str) -> (i32, i32) {
    layout
        .levels
        .iter()
        .find(|l| l.name.eq_ignore_ascii_case(name))
        .map_or((0, 0), |l| (l.dungeon, l.level))
}

struct Printer<'a> {
    layout: &'a Layout,
    style: OverviewStyle,
    out: String,
}

impl Printer<'_> {
    fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// `print_branch`: child branches of `dnum` with `lower < end1 <= upper`.
    fn branches(&mut self, dnum: i32, lower: i32, upper: i32) {
        let layout = self.layout;
        for br in &layout.branches {
            if br.end1.dungeon == dnum && lower < br.end1.level && br.end1.level <= upper {
                let indent = if self.style.marks_levels() {
                    "  "
                } else {
                    "   "
                };
                let text = format!(
                    "{indent}{} to {}: {}",
                    br_string(&br.branch_type),
                    dungeon_name(layout, br.end2.dungeon),
                    depth(layout, br.end1.dungeon, br.end1.level)
                );
                self.line(&text);
            }
        }
    }
}

/// `unplaced_floater`: the Fort Ludios dungeon while its entrance floats.
fn unplaced_floater(layout: &Layout, idx: i32, knox_dnum: i32) -> bool {
    let n = layout.dungeons.len() as i32;
    idx == knox_dnum
        && layout
            .branches
            .iter()
            .any(|b: &LayoutBranch| b.end1.dungeon == n && b.end2.dungeon == idx)
}

/// A level's name as the game prints it: once the hero is known, the
/// Quest's `x-` levels take the role's code, as `init_dungeons()` renames
/// them (3.6.7 src/dungeon.c:929-934: `x-strt`, `x-loca`, `x-goal`).
fn quest_name(layout: &Layout, name: &str) -> String {
    match (&layout.character, name.strip_prefix('x')) {
        (Some(c), Some(rest @ ("-strt" | "-loca" | "-goal"))) => format!("{}{rest}", c.code),
        _ => name.to_string(),
    }
}

/// The overview text, one `putstr` line per line, each ending in `\n`.
pub fn overview(layout: &Layout, style: OverviewStyle) -> String {
    let mut p = Printer {
        layout,
        style,
        out: String::new(),
    };
    let castle = find_level(layout, "castle");
    let knox = find_level(layout, "knox");
    for (i, d) in layout.dungeons.iter().enumerate() {
        let i = i as i32;
        // `knox_level` is zeroed when there is no "knox": dungeon 0 then.
        if style.hides_unmade_knox() && i == knox.0 {
            continue;
        }
        let unplaced = style.heads_unplaced_by_depth() && unplaced_floater(layout, i, knox.0);
        let descr = if unplaced { "depth" } else { "level" };
        let nlev = d.num_levels;
        let mut buf = if nlev > 1 {
            format!(
                "{}: {descr}s {} to {}",
                d.name,
                d.depth_start,
                d.depth_start + nlev - 1
            )
        } else {
            format!("{}: {descr} {}", d.name, d.depth_start)
        };
        if d.entry_level != 1 {
            if d.entry_level == nlev {
                buf.push_str(", entrance from below");
            } else {
                let _ = write!(buf, ", entrance on {}", d.depth_start + d.entry_level - 1);
            }
        }
        p.line(&buf);
        let mut last = 0;
        for slev in layout.levels.iter().filter(|l| l.dungeon == i) {
            p.branches(i, last, slev.level);
            let mark = if !style.marks_levels() {
                "  "
            } else if (slev.dungeon, slev.level) == HERO {
                "*"
            } else {
                " "
            };
            let name = match &slev.display_name {
                Some(display) if style.display_names() => display.clone(),
                _ => quest_name(layout, &slev.name),
            };
            let mut buf = format!("{mark} {name}: {}", depth(layout, slev.dungeon, slev.level));
            if (slev.dungeon, slev.level) == castle {
                let _ = write!(buf, " (tune {})", layout.tune);
            }
            p.line(&buf);
            last = slev.level;
        }
        p.branches(i, last, style.max_level());
    }

    let n = layout.dungeons.len() as i32;
    let mut first = true;
    for br in &layout.branches {
        if br.end1.dungeon == n {
            if first {
                p.line("");
                p.line("Floating branches");
                first = false;
            }
            let text = format!(
                "   {} to {}",
                br_string(&br.branch_type),
                dungeon_name(layout, br.end2.dungeon)
            );
            p.line(&text);
        }
    }

    // The hero's level: the invocation level (the one above the bottom of
    // a hellish dungeon) gets its coordinates, all zero in a new game; a
    // level that should hold a magic portal reports that none is there.
    let hero_dungeon = layout.dungeons.first();
    let invocation = hero_dungeon.is_some_and(|d| d.hellish && HERO.1 == d.num_levels - 1);
    if invocation {
        p.line("");
        p.line("Invocation position @ (0,0), hero @ (0,0)");
    } else {
        let on = |name: &str| find_level(layout, name) == HERO;
        let mut expects_portal = on("earth") || on("water") || on("fire") || on("air");
        if let Some(entrances) = style.portal_entrances() {
            // `at_dgn_entrance`: on the parent end of the branch into it.
            let at_entrance = |name: &str| {
                layout
                    .dungeons
                    .iter()
                    .position(|d| d.name == name)
                    .and_then(|q| layout.branches.iter().find(|b| b.end2.dungeon == q as i32))
                    .is_some_and(|b| (b.end1.dungeon, b.end1.level) == HERO)
            };
            expects_portal = expects_portal
                || on("x-strt")
                || entrances.iter().any(|e| at_entrance(e))
                || knox == HERO;
        }
        if expects_portal {
            p.line("");
            p.line("No portal found.");
        }
    }
    p.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgnkit_script::layout::{LayoutDungeon, LayoutLevel, LevelRef};

    fn layout() -> Layout {
        let dungeon = |name: &str, num_levels, depth_start, entry_level| LayoutDungeon {
            name: name.into(),
            num_levels,
            depth_start,
            entry_level,
            ..LayoutDungeon::default()
        };
        let level = |name: &str, dungeon, level| LayoutLevel {
            name: name.into(),
            dungeon,
            level,
            ..LayoutLevel::default()
        };
        let branch = |id, t: &str, e1: (i32, i32), e2: (i32, i32)| LayoutBranch {
            id,
            branch_type: t.into(),
            end1: LevelRef {
                dungeon: e1.0,
                level: e1.1,
            },
            end2: LevelRef {
                dungeon: e2.0,
                level: e2.1,
            },
            end1_up: false,
        };
        Layout {
            dungeons: vec![
                dungeon("Top", 10, 1, 1),
                dungeon("Side", 3, 3, 3),
                dungeon("Fort", 1, 7, 1),
            ],
            levels: vec![
                level("start", 0, 1),
                level("castle", 0, 10),
                level("knox", 2, 1),
            ],
            branches: vec![
                branch(0, "stair", (0, 2), (1, 3)),
                branch(1, "portal", (3, 5), (2, 1)),
            ],
            tune: "ABCDE".into(),
            ..Layout::default()
        }
    }

    #[test]
    fn nethack_36_text() {
        let want = "\
Top: levels 1 to 10
* start: 1
  Stair to Side: 2
  castle: 10 (tune ABCDE)
Side: levels 3 to 5, entrance from below
Fort: depth 7
  knox: 7

Floating branches
   Portal to Fort
";
        assert_eq!(overview(&layout(), OverviewStyle::NetHack36), want);
    }

    /// A 45-level dungeon with a branch below its last special level and
    /// below vanilla's MAXLEVEL.
    fn deep() -> Layout {
        let mut l = layout();
        l.dungeons[0].num_levels = 45;
        l.levels[1].level = 30;
        l.branches.push(LayoutBranch {
            id: 2,
            branch_type: "stair".into(),
            end1: LevelRef {
                dungeon: 0,
                level: 40,
            },
            end2: LevelRef {
                dungeon: 1,
                level: 1,
            },
            end1_up: false,
        });
        l
    }

    #[test]
    fn slashem_lists_branches_down_to_its_maxlevel() {
        let text = overview(&deep(), OverviewStyle::SlashEm);
        assert!(
            text.contains("   castle: 30 (tune ABCDE)\n   Stair to Side: 40\nSide:"),
            "{text}"
        );
        let vanilla = overview(&deep(), OverviewStyle::NetHack343);
        assert!(!vanilla.contains("Stair to Side: 40"), "{vanilla}");
        // Otherwise 3.4.3's text.
        assert_eq!(
            overview(&layout(), OverviewStyle::SlashEm),
            overview(&layout(), OverviewStyle::NetHack343)
        );
    }

    #[test]
    fn dnethack_leaves_out_the_unmade_fort() {
        let want = "\
Top: levels 1 to 10
   start: 1
   Stair to Side: 2
   castle: 10 (tune ABCDE)
Side: levels 3 to 5, entrance from below

Floating branches
   Portal to Fort
";
        assert_eq!(overview(&layout(), OverviewStyle::DNetHack), want);
        // Without a "knox" level, `knox_level.dnum` is 0: the main dungeon
        // goes.
        let mut l = layout();
        l.levels.retain(|x| x.name != "knox");
        let text = overview(&l, OverviewStyle::DNetHack);
        assert!(text.starts_with("Side: levels 3 to 5"), "{text}");
        assert!(text.contains("Fort: level 7"), "{text}");
        assert!(text.contains("Stair to Side: 40") || !text.contains("Top:"));
        let text = overview(&deep(), OverviewStyle::DNetHack);
        assert!(text.contains("Stair to Side: 40"), "{text}");
    }

    #[test]
    fn nethack_343_text() {
        let want = "\
Top: levels 1 to 10
   start: 1
   Stair to Side: 2
   castle: 10 (tune ABCDE)
Side: levels 3 to 5, entrance from below
Fort: level 7
   knox: 7

Floating branches
   Portal to Fort
";
        assert_eq!(overview(&layout(), OverviewStyle::NetHack343), want);
    }

    #[test]
    fn unnethack_text() {
        // 3.6's marks, 3.4.3's heading of the floating dungeon.
        let want = "\
Top: levels 1 to 10
* start: 1
  Stair to Side: 2
  castle: 10 (tune ABCDE)
Side: levels 3 to 5, entrance from below
Fort: level 7
  knox: 7

Floating branches
   Portal to Fort
";
        assert_eq!(overview(&layout(), OverviewStyle::UnNetHack), want);
    }

    #[test]
    fn gnollhack_text_uses_display_names() {
        // 3.6's text with `s_level.name`, the display name.
        let mut l = layout();
        l.levels[0].display_name = Some("Entry Hall".into());
        l.levels[1].display_name = Some("Castle of the Wizard".into());
        let want = "\
Top: levels 1 to 10
* Entry Hall: 1
  Stair to Side: 2
  Castle of the Wizard: 10 (tune ABCDE)
Side: levels 3 to 5, entrance from below
Fort: depth 7
  knox: 7

Floating branches
   Portal to Fort
";
        assert_eq!(overview(&l, OverviewStyle::GnollHack), want);
        // Other games ignore display names.
        assert!(overview(&l, OverviewStyle::NetHack36).contains("* start: 1\n"));
    }

    #[test]
    fn gnollhack_expects_portals_at_more_entrances() {
        // The hero's level is the entrance of Hellish Pastures.
        let mut l = layout();
        l.dungeons[1].name = "Hellish Pastures".into();
        l.branches[0].end1.level = 1;
        assert!(overview(&l, OverviewStyle::GnollHack).ends_with("\nNo portal found.\n"));
        assert!(!overview(&l, OverviewStyle::NetHack36).contains("No portal"));
    }

    #[test]
    fn a_portal_level_under_the_hero_reports_the_missing_portal() {
        let mut l = layout();
        l.levels[0].name = "earth".into();
        assert!(overview(&l, OverviewStyle::NetHack343).ends_with("\nNo portal found.\n"));
        let mut l = layout();
        l.levels[0].name = "x-strt".into();
        assert!(overview(&l, OverviewStyle::NetHack36).ends_with("\nNo portal found.\n"));
        assert!(!overview(&l, OverviewStyle::NetHack343).contains("No portal"));
    }
}
