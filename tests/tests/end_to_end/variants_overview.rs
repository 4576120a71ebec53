//! The overview (`dgn layout --format overview`) of SLASH'EM and dNetHack
//! layouts follows each game's `print_dungeon()`, checked on every line of
//! their fixtures (the games' own `init_dungeons()` output): 3.4.3's
//! three-blank indent, every branch of a listed dungeon under it (SLASH'EM
//! lists branches down to its MAXLEVEL 50), and dNetHack leaves out Fort
//! Ludios's dungeon in a new game.

use dgnkit::layout::Layout;
use dgnkit::options::Target;
use dgnkit::views::overview;

fn check(family: &str, target: Target) {
    let Some(lines) = dgnkit_tests::variants::layout_lines(family) else {
        return;
    };
    let style = target.game().overview;
    for (at, layout) in &lines {
        let text = overview(layout, style);
        let knox = layout
            .levels
            .iter()
            .find(|l| l.name == "knox")
            .map(|l| l.dungeon);
        for (i, d) in layout.dungeons.iter().enumerate() {
            let shown = text
                .lines()
                .any(|l| l.starts_with(&format!("{}: level", d.name)));
            let hidden = target == Target::DNetHack && knox == Some(i as i32);
            assert_eq!(shown, !hidden, "{at}: {}:\n{text}", d.name);
        }
        for b in &layout.branches {
            let parent = usize::try_from(b.end1.dungeon)
                .ok()
                .and_then(|p| layout.dungeons.get(p));
            let Some(parent) = parent else {
                continue;
            };
            if target == Target::DNetHack && knox == Some(b.end1.dungeon) {
                continue;
            }
            let to = &layout.dungeons[b.end2.dungeon as usize].name;
            let depth = parent.depth_start + b.end1.level - 1;
            let want = format!(": {depth}");
            assert!(
                text.lines().any(|l| l.starts_with("   ")
                    && l.contains(&format!(" to {to}"))
                    && l.ends_with(&want)),
                "{at}: branch to {to} at depth {depth} missing:\n{text}"
            );
        }
        for l in text
            .lines()
            .filter(|l| l.contains(": ") && !l.starts_with(|c: char| c.is_alphabetic()))
        {
            assert!(
                l.starts_with("   ") && !l.starts_with("    "),
                "{at}: {l:?}"
            );
        }
        assert_eq!(
            layout_floating(layout),
            text.contains("Floating branches"),
            "{at}"
        );
    }
}

fn layout_floating(layout: &Layout) -> bool {
    let n = layout.dungeons.len() as i32;
    layout.branches.iter().any(|b| b.end1.dungeon == n)
}

#[test]
fn slashem_overview_is_its_print_dungeon() {
    check("slashem", Target::SlashEm);
}

#[test]
fn dnethack_overview_is_its_print_dungeon() {
    check("dnethack", Target::DNetHack);
}
