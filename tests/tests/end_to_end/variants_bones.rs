//! Bones rules of the variant families, judged on the layouts the games'
//! own `init_dungeons()` made (every line of `../shared/expected/variants/
//! <family>/layouts.*`): each rule the family's `bones.c` adds or drops is
//! checked on the levels where it decides.
//!
//! - SLASH'EM (`src/bones.c:32`): level 1 of every dungeon never holds
//!   bones (rule 9), after vanilla's rules.
//! - dNetHack (`src/bones.c:22-51`, `:406-428`, `src/files.c:686-718`): no
//!   bottom, branch-below-level-1 or magic-portal rule; a branch level whose
//!   other end is in the Quest (11) or is a no-bones level (12); the
//!   Madman's home (10); file names with the other end of a branch and a
//!   pool suffix.
//! - UnNetHack, DynaHack: 3.4.3's `no_bones_level()` on every level, and
//!   their file names with a pool suffix.

use dgnkit::bones::{layout_verdicts, BonesOptions, LevelBones, Rule};
use dgnkit::layout::Layout;
use dgnkit::options::Target;

fn layouts(family: &str) -> Option<Vec<(String, Layout)>> {
    dgnkit_tests::variants::layout_lines(family)
}

fn dungeon_index(layout: &Layout, name: &str) -> usize {
    layout
        .dungeons
        .iter()
        .position(|d| d.name == name)
        .unwrap_or_else(|| panic!("no dungeon {name}"))
}

fn row<'a>(rows: &'a [LevelBones], layout: &Layout, dungeon: &str, level: i32) -> &'a LevelBones {
    let d = dungeon_index(layout, dungeon);
    rows.iter()
        .find(|r| r.dungeon_index == d && r.level == level)
        .unwrap_or_else(|| panic!("no row for {dungeon} {level}"))
}

/// The level where the first branch (in list order) between the two
/// dungeons ends in `from`.
fn branch_level(layout: &Layout, from: &str, to: &str) -> Option<i32> {
    let (f, t) = (
        dungeon_index(layout, from) as i32,
        dungeon_index(layout, to) as i32,
    );
    layout.branches.iter().find_map(|b| {
        if b.end1.dungeon == f && b.end2.dungeon == t {
            Some(b.end1.level)
        } else if b.end2.dungeon == f && b.end1.dungeon == t {
            Some(b.end2.level)
        } else {
            None
        }
    })
}

#[test]
fn slashem_refuses_level_one_of_every_dungeon() {
    let Some(lines) = layouts("slashem") else {
        return;
    };
    let opts = Target::SlashEm.game().bones_options();
    for (at, layout) in &lines {
        let rows = layout_verdicts(layout, &opts);
        for (di, d) in layout.dungeons.iter().enumerate() {
            let first = rows
                .iter()
                .find(|r| r.dungeon_index == di && r.level == 1)
                .unwrap_or_else(|| panic!("{at}: {} has no level 1", d.name));
            assert!(!first.can_load, "{at}: {} level 1 loads bones", d.name);
            assert!(
                matches!(
                    first.verdict.rule,
                    Rule::SpecialNone | Rule::DungeonNone | Rule::Bottom | Rule::LevelOne
                ),
                "{at}: {} level 1: {}",
                d.name,
                first.rule
            );
        }
        // The README's four multi-level dungeons with a marker: rule 9
        // decides (vanilla would let the valley and Mines 1 hold bones).
        for d in [
            "The Dungeons of Doom",
            "Gehennom",
            "The Gnomish Mines",
            "Vlad's Tower",
        ] {
            let r = row(&rows, layout, d, 1);
            assert_eq!(r.verdict.rule, Rule::LevelOne, "{at}: {d} 1: {}", r.rule);
            assert!(r.rule.starts_with("9: level 1 of"), "{at}: {}", r.rule);
        }
        // Level 2 of the Dungeons of Doom without a branch is vanilla's.
        let r2 = row(&rows, layout, "The Dungeons of Doom", 2);
        if branch_level(layout, "The Dungeons of Doom", "The Gnomish Mines") != Some(2) {
            assert_eq!(r2.verdict.rule, Rule::DepthRoll, "{at}: {}", r2.rule);
            assert!(r2.can_load);
        }
        // The Mines' bottom: vanilla's rule 3 stays.
        let mines = &layout.dungeons[dungeon_index(layout, "The Gnomish Mines")];
        let bottom = row(&rows, layout, "The Gnomish Mines", mines.num_levels);
        assert_eq!(bottom.verdict.rule, Rule::Bottom, "{at}");
        // The magic-portal test stays (`bones.c:190-194`).
        for r in rows
            .iter()
            .filter(|r| r.special.as_deref() == Some("fakewiz1") && !r.verdict.rule.stops_loading())
        {
            assert_eq!(r.verdict.rule, Rule::MagicPortal, "{at}: {}", r.rule);
        }
    }
}

#[test]
fn dnethack_judges_branch_levels_by_their_other_end() {
    let Some(lines) = layouts("dnethack") else {
        return;
    };
    let opts = Target::DNetHack.game().bones_options();
    for (at, layout) in &lines {
        let rows = layout_verdicts(layout, &opts);
        for r in &rows {
            assert!(
                !matches!(
                    r.verdict.rule,
                    Rule::Bottom | Rule::BranchLevel | Rule::MagicPortal | Rule::LevelOne
                ),
                "{at}: {} {}: {} is not dNetHack's",
                r.dungeon,
                r.level,
                r.rule
            );
        }
        // The portal to the Quest (`bones.c:37`).
        let q = branch_level(layout, "The Dungeons of Doom", "The Quest").expect("quest branch");
        let r = row(&rows, layout, "The Dungeons of Doom", q);
        if r.special.is_none() {
            assert_eq!(r.verdict.rule, Rule::QuestBranch, "{at}: {}", r.rule);
            assert!(r.rule.contains("\"The Quest\""), "{at}: {}", r.rule);
        }
        // The valley's first branch leads up to the castle, marker "none"
        // (`bones.c:39`): refused, though vanilla allows level 1.
        let v = row(&rows, layout, "Gehennom", 1);
        assert_eq!(v.special.as_deref(), Some("valley"));
        assert_eq!(v.verdict.rule, Rule::BranchToNoBones, "{at}: {}", v.rule);
        assert!(v.rule.contains("rule 1"), "{at}: {}", v.rule);
        // The Mines' bottom (minend, "E") holds bones: no bottom rule.
        let mines = &layout.dungeons[dungeon_index(layout, "The Gnomish Mines")];
        let bottom = row(&rows, layout, "The Gnomish Mines", mines.num_levels);
        assert_eq!(
            bottom.verdict.rule,
            Rule::DepthRoll,
            "{at}: {}",
            bottom.rule
        );
        assert!(bottom.can_load);
        // The Mines' branch level: the name goes on with the Mines'
        // marker, then the pool (`files.c:703-713`).
        let m = branch_level(layout, "The Dungeons of Doom", "The Gnomish Mines").expect("mines");
        let r = row(&rows, layout, "The Dungeons of Doom", m);
        assert_eq!(r.verdict.rule, Rule::DepthRoll, "{at}: {}", r.rule);
        let tail = if r.special.is_some() {
            ".M0.*".to_string()
        } else {
            format!("{m}.M0.*")
        };
        let file = r.file.as_deref().unwrap_or("");
        assert!(
            file.starts_with("bonD0.") && file.ends_with(&tail),
            "{at}: {file}"
        );
        // No branch: only the pool suffix.
        for r in rows
            .iter()
            .filter(|r| r.dungeon == "Sokoban" || r.dungeon == "The Dungeons of Doom")
        {
            if let Some(f) = &r.file {
                assert!(f.ends_with(".*"), "{at}: {f}");
            }
        }
    }
}

#[test]
fn dnethack_madman_home_needs_the_role() {
    let Some(lines) = layouts("dnethack") else {
        return;
    };
    let unknown = Target::DNetHack.game().bones_options();
    let madman = BonesOptions {
        role: Some("Madwoman".into()),
        ..Target::DNetHack.game().bones_options()
    };
    let healer = BonesOptions {
        role: Some("Hea".into()),
        ..Target::DNetHack.game().bones_options()
    };
    assert!(unknown.notes().iter().any(|n| n.contains("--role")));
    assert!(!madman.notes().iter().any(|n| n.contains("--role")));
    for (at, layout) in &lines {
        let locate = layout
            .levels
            .iter()
            .find(|l| l.name == "x-loca")
            .expect("x-loca");
        let home = locate.level - 1;
        let quest = "The Quest";
        let a = row(&layout_verdicts(layout, &unknown), layout, quest, home).clone();
        let b = row(&layout_verdicts(layout, &madman), layout, quest, home).clone();
        let c = row(&layout_verdicts(layout, &healer), layout, quest, home).clone();
        if a.verdict.rule.stops_loading() {
            // x-strt ("none") lies there: rule 1 decides for every role.
            assert_eq!(a.verdict.rule, Rule::SpecialNone, "{at}");
            continue;
        }
        assert_eq!(a.verdict.unless, Some(Rule::MadmanHome), "{at}");
        assert!(a.rule.contains("give --role"), "{at}: {}", a.rule);
        assert_eq!(b.verdict.rule, Rule::MadmanHome, "{at}: {}", b.rule);
        assert!(!b.can_load && b.file.is_none());
        assert_eq!(c.verdict.rule, Rule::DepthRoll, "{at}: {}", c.rule);
        assert_eq!(c.verdict.unless, None);
        assert!(c.file.as_deref().is_some_and(|f| f.starts_with("bonQHea.")));
        // Other Quest levels are nobody's home.
        let rows = layout_verdicts(layout, &madman);
        let other = row(&rows, layout, quest, locate.level);
        assert_ne!(other.verdict.rule, Rule::MadmanHome, "{at}");
    }
}

/// UnNetHack and DynaHack keep 3.4.3's `no_bones_level()` (UnNetHack
/// `src/bones.c:17-34`, DynaHack `bones.c:35-47`, their READMEs): on every
/// level of every fixture layout, bones are refused exactly where a special
/// level or the dungeon has no marker, at the bottom, on a branch level
/// other than level 1, and above the bottom of a hellish dungeon; every
/// other level's file is `bon` + marker + (`0`, or the role in the Quest) +
/// `.` + (special marker or level) + `.` + the pool (UnNetHack
/// `game_seed % 5`, `files.c:904-909`; DynaHack `u.ubirthday % 5`, which
/// the layout does not know, `bones.c:16-31`).
fn judged_as_343(family: &str, target: Target, pool_of_seed: bool) {
    let Some(lines) = layouts(family) else {
        return;
    };
    assert!(!lines.is_empty());
    let opts = target.game().bones_options();
    for (at, layout) in &lines {
        let rows = layout_verdicts(layout, &opts);
        let levels: usize = layout.dungeons.iter().map(|d| d.num_levels as usize).sum();
        assert_eq!(rows.len(), levels, "{at}: one row per level");
        for r in &rows {
            let d = &layout.dungeons[r.dungeon_index];
            let di = r.dungeon_index as i32;
            let special = layout
                .levels
                .iter()
                .find(|l| l.dungeon == di && l.level == r.level);
            assert_eq!(
                r.special.as_deref(),
                special.map(|s| s.name.as_str()),
                "{at}"
            );
            let unmarked = d.bones.is_empty() || special.is_some_and(|s| s.bones.is_empty());
            let bottom = r.level == d.num_levels;
            let branch = r.level != 1
                && layout.branches.iter().any(|b| {
                    [&b.end1, &b.end2]
                        .iter()
                        .any(|e| e.dungeon == di && e.level == r.level)
                });
            let vibrating = d.hellish && r.level == d.num_levels - 1;
            let refused = unmarked || bottom || branch || vibrating;
            assert_eq!(
                r.can_load, !refused,
                "{at}: {} {}: {} (unmarked {unmarked}, bottom {bottom}, branch {branch}, vibrating {vibrating})",
                d.name, r.level, r.rule
            );
            if refused {
                assert!(r.file.is_none(), "{at}: {} {}", d.name, r.level);
                continue;
            }
            let role = if d.name == "The Quest" { "*" } else { "0" };
            let place = special.map_or_else(|| r.level.to_string(), |s| s.bones.clone());
            let pool = if pool_of_seed {
                (layout.seed % 5).to_string()
            } else {
                "*".to_string()
            };
            let want = format!("bon{}{role}.{place}.{pool}", d.bones);
            assert_eq!(r.file.as_deref(), Some(want.as_str()), "{at}: {}", r.rule);
        }
    }
}

#[test]
fn unnethack_judges_every_fixture_level_as_its_bones_c() {
    judged_as_343("unnethack", Target::UnNetHack, true);
}

#[test]
fn dynahack_judges_every_fixture_level_as_its_bones_c() {
    judged_as_343("dynahack", Target::DynaHack, false);
}
