//! Bones verdicts of `bones.md`, level by level, on NetHack's own compiled
//! vanilla files (3.4.3's with its loader, 3.6's with its loader), and on
//! single layouts.

use dgnkit::bones::{layout_verdicts, static_verdicts, BonesOptions, StaticKind, StaticReport};
use dgnkit::options::Target;
use dgnkit::script::Script;
use dgnkit::stats::{Method, StatsOptions};
use StaticKind::{Depends, Eligible, LoadOnly, Never};

fn read(name: &str) -> Option<Script> {
    let shared = dgnkit_tests::shared_dir()?;
    let path = shared.join("expected").join("compiled").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(
        dgnkit::binary::read(&bytes, None)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .script,
    )
}

fn report(script: &Script, target: Target) -> StaticReport {
    let r = static_verdicts(
        script,
        &StatsOptions {
            game: target.game().loader_game(),
            ..StatsOptions::default()
        },
    );
    assert!(
        matches!(r.method, Method::Exact { .. }),
        "vanilla is enumerated exactly"
    );
    r
}

/// (special level, verdict, rules that always forbid) -- the same in both
/// versions unless listed per version.
const COMMON_LEVELS: &[(&str, StaticKind, &[u8])] = &[
    // The Dungeons of Doom: the Quest portal (oracle + 6..7) can land on
    // the rogue level, Sokoban's stairs (oracle + 1) or the portal on the
    // big room; nothing lands on the oracle.
    ("rogue", Depends, &[]),
    ("oracle", Eligible, &[]),
    ("bigrm", Depends, &[]),
    ("medusa", Never, &[1]),
    ("castle", Never, &[1, 3, 4]),
    // The castle also always ends the branch to Gehennom (rule 4).
    // Gehennom: Vlad's Tower's stairs (9..13) can land on baalz, orcus,
    // wizard2 and wizard3.
    ("valley", Eligible, &[]),
    ("sanctum", Never, &[1, 3]),
    ("juiblex", Eligible, &[]),
    ("baalz", Depends, &[]),
    ("asmodeus", Eligible, &[]),
    ("wizard1", Never, &[1]),
    ("wizard2", Depends, &[]),
    ("wizard3", Depends, &[]),
    ("orcus", Depends, &[]),
    ("fakewiz1", LoadOnly, &[6]),
    ("fakewiz2", Eligible, &[]),
    ("minetn", Eligible, &[]),
    ("minend", Never, &[3]),
    ("x-strt", Never, &[1]),
    ("x-loca", Eligible, &[]),
    ("x-goal", Never, &[1, 3]),
    ("soko1", Never, &[1, 2]),
    ("soko2", Never, &[1, 2]),
    ("soko3", Never, &[1, 2]),
    ("soko4", Never, &[1, 2, 3, 4]),
    ("knox", Never, &[3]),
    ("tower1", Never, &[1]),
    ("astral", Never, &[1]),
    ("water", Never, &[1]),
    ("fire", Never, &[1]),
    ("air", Never, &[1]),
    ("earth", Never, &[1, 4]),
    ("dummy", Never, &[1, 3]),
];

/// 3.6 names Vlad's Tower's upper levels as special levels ("none");
/// 3.4.3 only names the bottom one.
const LEVELS_36: &[(&str, StaticKind, &[u8])] =
    &[("tower2", Never, &[1]), ("tower3", Never, &[1, 3, 4])];

const DUNGEONS: &[(&str, StaticKind, &[u8])] = &[
    ("The Dungeons of Doom", Eligible, &[]),
    ("Gehennom", Eligible, &[]),
    ("The Gnomish Mines", Eligible, &[]),
    ("The Quest", Eligible, &[]),
    ("Sokoban", Never, &[2]),
    ("Fort Ludios", Never, &[3]),
    ("The Elemental Planes", Never, &[1]),
];

fn check_table(
    r: &StaticReport,
    levels: &[(&str, StaticKind, &[u8])],
    dungeons: &[(&str, StaticKind, &[u8])],
    label: &str,
) {
    for (name, kind, rules) in levels {
        let v = r
            .levels
            .iter()
            .find(|v| v.name == *name)
            .unwrap_or_else(|| panic!("{label}: no level {name}"));
        assert_eq!(
            (v.verdict, v.rules.as_slice()),
            (*kind, *rules),
            "{label}: {name}: {v:#?}"
        );
    }
    for (name, kind, rules) in dungeons {
        let v = r
            .dungeons
            .iter()
            .find(|v| v.name == *name)
            .unwrap_or_else(|| panic!("{label}: no dungeon {name}"));
        assert_eq!(
            (v.verdict, v.rules.as_slice()),
            (*kind, *rules),
            "{label}: {name}: {v:#?}"
        );
    }
}

fn level<'a>(r: &'a StaticReport, name: &str) -> &'a dgnkit::bones::SpecialVerdict {
    r.levels.iter().find(|v| v.name == name).expect("level")
}

#[test]
fn vanilla_36_verdicts_level_by_level() {
    let Some(script) = read("vanilla36.36.bin") else {
        return;
    };
    let r = report(&script, Target::NetHack36);
    check_table(&r, COMMON_LEVELS, DUNGEONS, "3.6");
    check_table(&r, LEVELS_36, &[("Vlad's Tower", Never, &[1])], "3.6");
    // Depths and chances of rule 8.
    let oracle = level(&r, "oracle");
    assert_eq!(oracle.leave_depth, Some((5, 9)));
    assert_eq!(oracle.leave_chance, Some(("1/2".into(), "2/3".into())));
    let valley = level(&r, "valley");
    assert_eq!(valley.leave_depth, Some((26, 30)));
    assert_eq!(valley.leave_chance, Some(("6/7".into(), "7/8".into())));
    // The Quest portal lands on the rogue level only from level 15 on.
    let rogue = level(&r, "rogue");
    assert!(rogue.p_load > 0.9 && rogue.p_load < 1.0, "{rogue:?}");
    assert!(
        rogue.reasons.iter().any(|s| s.starts_with("rule 4")),
        "{rogue:?}"
    );
    // wizard3 holds a portal (never leaves) and Vlad's stairs can land on it.
    let w3 = level(&r, "wizard3");
    assert_eq!(w3.p_leave, 0.0);
    assert!(w3.p_load > 0.9 && w3.p_load < 1.0);
    assert_eq!(level(&r, "fakewiz1").p_load, 1.0);
}

#[test]
fn vanilla_343_verdicts_level_by_level() {
    let Some(script) = read("vanilla343.343.bin") else {
        return;
    };
    let r = report(&script, Target::NetHack343);
    check_table(&r, COMMON_LEVELS, DUNGEONS, "3.4.3");
    // 3.4.3's Vlad's Tower declares only its bottom level: level 2 is an
    // ordinary level and can hold bones.
    assert!(r
        .levels
        .iter()
        .all(|v| v.name != "tower2" && v.name != "tower3"));
    let vlad = r
        .dungeons
        .iter()
        .find(|v| v.name == "Vlad's Tower")
        .expect("Vlad's Tower");
    assert_eq!(vlad.verdict, Eligible, "{vlad:?}");
}

#[test]
fn the_36_file_under_the_343_loader_keeps_its_verdicts() {
    let Some(script) = read("vanilla36.343.bin") else {
        return;
    };
    let r = report(&script, Target::NetHack343);
    check_table(&r, COMMON_LEVELS, DUNGEONS, "3.6 file, 3.4.3 loader");
}

#[test]
fn portal_levels_are_an_option() {
    let Some(script) = read("vanilla36.36.bin") else {
        return;
    };
    let opts = StatsOptions {
        bones: BonesOptions {
            portal_levels: vec![],
            ..BonesOptions::default()
        },
        ..StatsOptions::default()
    };
    let r = static_verdicts(&script, &opts);
    assert_eq!(level(&r, "fakewiz1").verdict, Eligible);
    let opts = StatsOptions {
        bones: BonesOptions {
            portal_levels: vec!["ORACLE".into()],
            ..BonesOptions::default()
        },
        ..StatsOptions::default()
    };
    let r = static_verdicts(&script, &opts);
    assert_eq!(
        (
            level(&r, "oracle").verdict,
            level(&r, "oracle").rules.as_slice()
        ),
        (LoadOnly, &[6u8][..])
    );
}

/// One layout, every level: the rows follow the rules on the layout's own
/// facts, for every seed of NetHack's vanilla layouts.
#[test]
fn layout_verdicts_on_nethacks_layouts() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let opts = BonesOptions {
        portal_levels: vec!["fakewiz1".into(), "wizard3".into()],
        role: Some("Valkyrie".into()),
        ..BonesOptions::default()
    };
    for file in [
        "vanilla36.36.isaac64.jsonl.gz",
        "vanilla343.343.glibc.jsonl.gz",
    ] {
        let path = shared.join("expected").join("layouts").join(file);
        for (_, value) in dgnkit_tests::gz_json_lines(&path).expect("layouts") {
            let layout: dgnkit::layout::Layout =
                serde_json::from_value(value.expect("line")).expect("layout");
            let rows = layout_verdicts(&layout, &opts);
            let total: i32 = layout.dungeons.iter().map(|d| d.num_levels).sum();
            assert_eq!(rows.len() as i32, total, "one row per level");
            let find = |d: &str, special: &str| {
                rows.iter()
                    .find(|r| r.dungeon == d && r.special.as_deref() == Some(special))
            };
            let oracle = find("The Dungeons of Doom", "oracle").expect("oracle");
            assert_eq!(oracle.file.as_deref(), Some("bonD0.O"));
            assert!(oracle.can_load && oracle.leave_chance > 0.0);
            let castle = find("The Dungeons of Doom", "castle").expect("castle");
            assert!(!castle.can_load && castle.rule.starts_with("1:") && castle.file.is_none());
            let loca = find("The Quest", "x-loca").expect("x-loca");
            assert_eq!(loca.file.as_deref(), Some("bonQVal.L"));
            let fakewiz1 = find("Gehennom", "fakewiz1").expect("fakewiz1");
            assert!(
                fakewiz1.can_load
                    && fakewiz1.leave_chance == 0.0
                    && fakewiz1.rule.starts_with("6:")
            );
            for r in &rows {
                match r.dungeon.as_str() {
                    "Sokoban" => assert!(!r.can_load && r.file.is_none()),
                    "The Elemental Planes" => assert!(!r.can_load),
                    _ => {}
                }
                if r.special.is_none() && r.can_load {
                    let d = layout
                        .dungeons
                        .iter()
                        .find(|d| d.name == r.dungeon)
                        .expect("dungeon");
                    let middle = if d.name == "The Quest" { "Val" } else { "0" };
                    assert_eq!(
                        r.file.as_deref(),
                        Some(format!("bon{}{middle}.{}", d.bones, r.level).as_str())
                    );
                }
                // The Mines' branch level in the Dungeons of Doom.
                let mines_end = layout.branches.iter().any(|b| {
                    layout
                        .dungeons
                        .get(b.end2.dungeon as usize)
                        .is_some_and(|d| d.name == "The Gnomish Mines")
                        && layout
                            .dungeons
                            .get(b.end1.dungeon as usize)
                            .is_some_and(|d| d.name == r.dungeon)
                        && b.end1.level == r.level
                });
                if mines_end {
                    assert!(r.rule.starts_with("4:"), "{r:?}");
                }
                let expect = if r.depth < 4 {
                    0.0
                } else {
                    f64::from(r.depth / 4) / f64::from(r.depth / 4 + 1)
                };
                if r.rule.starts_with("8:") {
                    assert_eq!(r.leave_chance, expect, "{r:?}");
                }
            }
        }
    }
}
