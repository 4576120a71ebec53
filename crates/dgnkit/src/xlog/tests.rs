//! The answers checked against the exact statistics ([`crate::stats::compute`]),
//! which computes the same chances by other sums (per special level and per
//! (dungeon, level) rather than per (dungeon number, depth)).

use super::ending::{End, Mode};
use super::identify::{identify, Family, Seen, Writer, ACEHACK, NETHACK4, SPORKHACK};
use super::release::{for_version, RELEASES};
use super::*;
use crate::stats::{self, StatsOptions};

/// One xlogfile line as NetHack 3.6 writes it (tabs), or 3.4.3's servers
/// (colons).
pub(crate) fn line(
    version: &str,
    dnum: i32,
    depth: i32,
    death: &str,
    flags: Option<&str>,
) -> String {
    let sep = if version.starts_with("3.4") {
        ":"
    } else {
        "\t"
    };
    let mut f = vec![
        format!("version={version}"),
        "points=1234".to_string(),
        format!("deathdnum={dnum}"),
        format!("deathlev={depth}"),
        format!("maxlvl={}", depth.max(1)),
        "hp=-1".into(),
        "maxhp=20".into(),
        "role=Val".into(),
        "name=tester".into(),
        format!("death={death}"),
    ];
    if let Some(fl) = flags {
        f.push(format!("flags={fl}"));
    }
    f.join(sep)
}

fn read_one(x: &mut Xlog, l: &str) -> (f64, String, PlaceAnswer) {
    let g = x
        .read(1, l.as_bytes())
        .unwrap_or_else(|e| panic!("{l}: {}", e.error))
        .expect("a game");
    let (p, why) = x.bones(&g);
    (p, why.into_owned(), x.place(&g).clone())
}

/// NetHack's own releases: every dungeon is always there, so a dungeon's
/// number is its record's.
fn vanilla() -> impl Iterator<Item = &'static Release> {
    RELEASES.iter().copied().filter(|r| {
        r.family()
            .is_some_and(|f| *f == super::nethack::NETHACK || *f == super::nethack::TNNT)
    })
}

fn stats_of(release: &Release) -> stats::Stats {
    let script = builtin_script(release).unwrap();
    stats::exact(
        &script,
        &StatsOptions {
            game: release.target.game().loader_game(),
            bones: release.target.game().bones_options(),
            ..Default::default()
        },
    )
    .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Every special level's chance at every place of the main dungeon and the
/// Mines equals its depth distribution divided by the chance of the place.
#[test]
fn special_levels_match_the_statistics() {
    for release in vanilla() {
        let st = stats_of(release);
        let script = builtin_script(release).unwrap();
        let places = answers::compute(&script, release.target);
        for lev in &st.levels {
            let Some(dnum) = places.dungeon_names.iter().position(|n| *n == lev.dungeon) else {
                continue;
            };
            // Vanilla has no optional dungeon: the record is the number.
            for (&depth, &p) in &lev.depth {
                let place = places.get(dnum as i32, depth).expect("the place exists");
                let q = place
                    .specials
                    .iter()
                    .find(|(l, _)| places.level_names[*l as usize] == lev.name)
                    .map_or(0.0, |s| s.1);
                assert!(
                    close(place.exists * q, lev.exists * p),
                    "{}: {} at depth {depth}: {} * {q} != {} * {p}",
                    release.name,
                    lev.name,
                    place.exists,
                    lev.exists
                );
            }
        }
    }
}

/// In the main dungeon the level is the depth, so each place's bones
/// chance is the statistics' per-level one.
#[test]
fn main_dungeon_bones_match_the_statistics() {
    for release in vanilla() {
        let st = stats_of(release);
        let mut x = Xlog::new(Options::default());
        let (a, b, _, hi) = release.versions[0];
        let version = format!("{}{a}.{b}.{hi}", release.prefix);
        for cell in st
            .bones
            .iter()
            .filter(|b| b.dungeon == "The Dungeons of Doom")
        {
            let mut l = line(&version, 0, cell.level, "killed by a jackal", Some("0x0"));
            if let Some(m) = release.family().and_then(Family::marker) {
                l.push_str(&format!("\t{m}=0x0"));
            }
            let (p, why, a) = read_one(&mut x, &l);
            assert_eq!(a.levels, vec![(cell.level, 1.0)]);
            assert_eq!(a.dungeons, vec![("The Dungeons of Doom".to_string(), 1.0)]);
            assert!(
                close(p, cell.bones.leave_chance),
                "{} level {}: {p} != {} ({why})",
                release.name,
                cell.level,
                cell.bones.leave_chance
            );
        }
    }
}

/// The Mines' top depends on the layout: a depth there is a distribution
/// of levels, each weighted by the chance of the Mines starting there.
#[test]
fn mines_levels_are_a_distribution() {
    let release = for_version(b"3.6.6", None, |_| false).unwrap();
    let st = stats_of(release);
    let mines = st
        .dungeons
        .iter()
        .find(|d| d.name == "The Gnomish Mines")
        .unwrap();
    let mut x = Xlog::new(Options::default());
    // Depth 5: level 1, 2 or 3 of the Mines as they start at depth 5, 4, 3.
    let (_, _, a) = read_one(
        &mut x,
        &line("3.6.6", 2, 5, "killed by a gnome lord", Some("0x4")),
    );
    assert_eq!(a.levels.len(), 3);
    let total: f64 = [3, 4, 5]
        .iter()
        .map(|s| mines.depth_start.get(s).copied().unwrap_or(0.0))
        .sum();
    for &(level, p) in &a.levels {
        let start = 5 - level + 1;
        assert!(
            close(p, mines.depth_start[&start] / total),
            "level {level}: {p}"
        );
    }
}

/// 3.6.1 added Vlad's Tower's two lower levels as special levels with the
/// marker "none"; in 3.6.0 they are filler levels and the middle one can
/// hold bones (the bottom one is the dungeon's bottom, rule 3).
#[test]
fn vlads_tower_differs_between_3_6_0_and_3_6_1() {
    let mut x = Xlog::new(Options::default());
    let table = |x: &mut Xlog, version: &str| {
        let r = for_version(version.as_bytes(), None, |_| false).unwrap();
        let id = x.table(r, r.id());
        x.table_ref(id)
            .answers
            .places
            .iter()
            .filter(|a| a.dungeon() == "Vlad's Tower")
            .cloned()
            .collect::<Vec<_>>()
    };
    let old = table(&mut x, "3.6.0");
    let new = table(&mut x, "3.6.1");
    assert!(!old.is_empty() && old.len() == new.len());
    for a in &new {
        let total: f64 = a.specials.iter().map(|s| s.1).sum();
        assert!(close(total, 1.0), "every level is special: {a:?}");
        assert_eq!(a.bones_p, 0.0);
        assert!(a.bones_why.contains("rule 1"), "{}", a.bones_why);
    }
    let mut middle = 0;
    for a in &old {
        let level = |n: i32| a.levels.iter().find(|l| l.0 == n).map_or(0.0, |l| l.1);
        let tower1: f64 = a
            .specials
            .iter()
            .filter(|s| s.0 == "tower1")
            .map(|s| s.1)
            .sum();
        assert_eq!(a.specials.len(), usize::from(tower1 > 0.0), "{a:?}");
        assert!(close(tower1, level(1)), "{a:?}");
        let (num, den) = crate::bones::depth_chance(a.depth);
        assert!(
            close(a.bones_p, level(2) * f64::from(num) / f64::from(den)),
            "{a:?}"
        );
        if a.bones_p > 0.0 {
            middle += 1;
        }
    }
    assert!(middle > 0);
    // Through lines: the same place, per the line's version.
    let place = old.iter().find(|a| a.bones_p > 0.0).unwrap();
    let death = "killed by Vlad the Impaler";
    let (p_old, _, _) = read_one(
        &mut x,
        &line("3.6.0", place.dnum, place.depth, death, Some("0x0")),
    );
    let (p_new, _, _) = read_one(
        &mut x,
        &line("3.6.1", place.dnum, place.depth, death, Some("0x0")),
    );
    assert_eq!(p_new, 0.0);
    assert!(close(p_old, place.bones_p));
}

#[test]
fn what_the_line_rules_out() {
    let mut x = Xlog::new(Options::default());
    let cell = |release: &Release| {
        stats_of(release)
            .bones
            .iter()
            .find(|b| b.dungeon == "The Dungeons of Doom" && b.level == 12)
            .map(|b| b.bones.leave_chance)
            .unwrap()
    };
    let (p, why, _) = read_one(
        &mut x,
        &line("3.6.6", 0, 12, "killed by a soldier ant", Some("0x4")),
    );
    // The quest portal's level can be 12 (rule 4); else the roll's 3/4.
    assert!(close(p, cell(RELEASES[2])), "{p}");
    assert!(p > 0.0 && p < 0.75, "{p}");
    assert!(why.contains("rule 4") && why.contains("3/4"), "{why}");
    for (death, flags, want) in [
        ("quit", "0x0", "did not end in death (quit)"),
        ("ascended", "0x0", "did not end in death (ascended)"),
        ("escaped", "0x0", "did not end in death (escaped)"),
        (
            "killed by a scroll of genocide",
            "0x0",
            "did not end in death (genocided)",
        ),
        ("killed by a soldier ant", "0x2", "explore mode"),
        ("killed by a soldier ant", "0x1", "wizard mode"),
    ] {
        let (p, why, _) = read_one(&mut x, &line("3.6.6", 0, 12, death, Some(flags)));
        assert_eq!(p, 0.0, "{death} {flags}");
        assert!(why.contains(want), "{death} {flags}: {why}");
        assert!(why.contains("src/"), "cites the source: {why}");
    }
    // 3.4.3 lines record no mode: a normal game is assumed, and said.
    let (p, why, _) = read_one(
        &mut x,
        &line("3.4.3", 0, 12, "killed by a soldier ant", None),
    );
    assert!(close(p, cell(RELEASES[0])));
    assert!(why.contains("no game mode"), "{why}");
    let quit = line("3.4.3", 0, 12, "quit", None);
    let g = x.read(1, quit.as_bytes()).unwrap().unwrap();
    assert_eq!(g.end, End::Quit);
    assert_eq!(g.mode, Mode::Unrecorded);
}

#[test]
fn bad_lines_are_reported_and_counted() {
    let mut x = Xlog::new(Options::default());
    let cases = [
        (
            "version=3.6.6\tpoints=12\tdeath".to_string(),
            "missing field `deathdnum`",
        ),
        (
            "points=1\tdeathdnum=0\tdeathlev=3\tdeath=x".to_string(),
            "missing field `version`",
        ),
        (
            line("12.2.1", 0, 3, "x", None),
            "unknown game: version 12.2.1",
        ),
        (line("NH-3.8.0", 0, 3, "x", None), "not major.minor.patch"),
        (
            line("UNH-6.x", 0, 3, "x", None),
            "not UNH-major.minor.patch",
        ),
        (line("3.6.6", 0, 300, "x", None), "out of range"),
        (line("3.6.6", 0, 31, "x", None), "no level at depth 31"),
        (line("3.6.6", 12, 3, "x", None), "dungeon number 12"),
        (line("3.6.6", 0, 3, "x", Some("0xzz")), "flags"),
        (
            "version=3.6.6\tdeathdnum=x\tdeathlev=3\tdeath=d".to_string(),
            "not a number",
        ),
    ];
    for (l, want) in &cases {
        let e = x.read(7, l.as_bytes()).unwrap_err();
        assert_eq!(e.line, 7);
        assert!(e.error.contains(*want), "{l}: {}", e.error);
    }
    assert!(
        x.read(8, b"   ").unwrap().is_none(),
        "a blank line is no game"
    );
    assert_eq!(x.summary().bad_lines, cases.len() as u64);
}

#[test]
fn json_lines_and_summary() {
    let mut x = Xlog::new(Options::default());
    let lines = [
        line("3.6.6", 0, 12, "killed by a soldier ant", Some("0x4")),
        line("3.6.6", 2, 5, "killed by a gnome lord", Some("0x4")),
        line("3.6.6", 0, 2, "quit", Some("0x4")),
        line("3.4.3", 0, 9, "killed by a jackal", None),
    ];
    let mut sum = 0.0;
    for (i, l) in lines.iter().enumerate() {
        let g = x.read(i as u64 + 1, l.as_bytes()).unwrap().unwrap();
        let mut out = Vec::new();
        x.json(&g, &mut out);
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["line"], i as u64 + 1);
        assert!(v["special"].is_array());
        assert!(v["bones_why"].is_string());
        assert_eq!(v["fields"]["name"], "tester");
        sum += v["bones_p"].as_f64().unwrap();
        assert!(!x.human(&g).is_empty());
    }
    let s = x.summary();
    assert_eq!(s.games, 4);
    assert_eq!(s.deaths, 3);
    assert!(close(s.expected_bones, sum));
    let dod: f64 = s
        .dungeons
        .iter()
        .filter(|e| e.name == "The Dungeons of Doom")
        .map(|e| e.deaths)
        .sum();
    assert!(close(dod, 2.0));
    assert_eq!(s.deadliest.len(), 3);
    let page = html::page(&s, "test");
    assert!(
        page.contains("<svg") && !page.contains("http://")
            || page.contains("xmlns=\"http://www.w3.org/2000/svg\"")
    );
    assert!(!page.contains("<script") && !page.contains("src="));
}

#[test]
fn where_filters_games() {
    let mut x = Xlog::new(Options {
        filter: Some(
            filter::Filter::parse("dungeon = \"The Gnomish Mines\" or how = quit").unwrap(),
        ),
        ..Default::default()
    });
    let a = line("3.6.6", 0, 12, "killed by a soldier ant", Some("0x4"));
    let b = line("3.6.6", 2, 5, "killed by a gnome lord", Some("0x4"));
    let c = line("3.6.6", 0, 3, "quit", Some("0x4"));
    assert!(x.read(1, a.as_bytes()).unwrap().is_none());
    assert!(x.read(2, b.as_bytes()).unwrap().is_some());
    assert!(x.read(3, c.as_bytes()).unwrap().is_some());
    let s = x.summary();
    assert_eq!((s.games, s.filtered_out), (2, 1));
}

/// A `--where` field that no line has is said, with the closest field a
/// line has; one that a later line has, or that dgn xlog computes, is not.
#[test]
fn where_fields_no_line_has_are_named() {
    let mut x = Xlog::new(Options {
        filter: Some(
            filter::Filter::parse("rolee = Val or tournament = yes or how = quit or level > 90")
                .unwrap(),
        ),
        ..Default::default()
    });
    assert!(x.summary().unknown_fields.is_empty(), "no line read yet");
    let a = line("3.6.6", 0, 12, "killed by a soldier ant", Some("0x4"));
    assert!(x.read(1, a.as_bytes()).unwrap().is_none());
    let b = format!(
        "{}\ttournament=no",
        line("3.6.6", 0, 3, "quit", Some("0x4"))
    );
    assert!(x.read(2, b.as_bytes()).unwrap().is_some());
    let s = x.summary();
    assert_eq!(
        s.unknown_fields,
        vec![summary::UnknownField {
            field: "rolee".into(),
            did_you_mean: Some("role".into()),
        }]
    );
    assert!(
        s.human().contains("warning: --where compares `rolee`"),
        "{}",
        s.human()
    );
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["unknown_fields"][0]["did_you_mean"], "role");
}

/// Arbitrary bytes never panic and every line is a game, a bad line or
/// blank.
#[test]
fn arbitrary_lines_never_panic() {
    use proptest::prelude::*;
    let mut runner = proptest::test_runner::TestRunner::default();
    let x = std::cell::RefCell::new(Xlog::new(Options::default()));
    let real = line("3.6.6", 0, 12, "killed by a soldier ant", Some("0x4"));
    runner
        .run(
            &(
                proptest::collection::vec(any::<u8>(), 0..200),
                0..real.len(),
                any::<u8>(),
            ),
            |(junk, at, b)| {
                let mut x = x.borrow_mut();
                let _ = x.read(1, &junk);
                let mut m = real.clone().into_bytes();
                m[at] = b;
                let _ = x.read(2, &m);
                let _ = x.read(3, &real.as_bytes()[..at]);
                Ok(())
            },
        )
        .unwrap();
}

/// NetHack 3.7 lines: the extra fields, the flags' third bit (no bones
/// file loaded, which rules nothing out), every dungeon by its number
/// (the Tutorial included, without bones), and special levels and bones
/// as the exact statistics give them.
#[test]
fn nethack_37_lines() {
    vanilla_37_lines("3.7.0", Target::NetHack37, "NetHack 3.7", "src/end.c:1190");
}

/// NetHack 5.0.0's lines are 5.0's, answered as 3.7's are (the same
/// fields and dungeon), with 5.0.0's own sources cited.
#[test]
fn nethack_50_lines() {
    vanilla_37_lines(
        "5.0.0",
        Target::NetHack50,
        "NetHack 5.0.0",
        "src/end.c:1201",
    );
    let release = for_version(b"5.0.0", None, |_| false).unwrap();
    assert_eq!(
        (release.name, release.title),
        ("nethack-5.0", "NetHack 5.0.0")
    );
    // The same dungeon: every answer of a 5.0.0 line is its 3.7.0 twin's.
    let mut x = Xlog::new(Options::default());
    for (dnum, depth, death, flags) in [
        (0, 5, "killed by a newt", "0x0"),
        (0, 14, "killed by a troll", "0x4"),
        (2, 4, "killed by a gnome lord", "0x0"),
        (1, 30, "killed by a liche", "0x0"),
        (8, 1, "killed by a newt", "0x4"),
    ] {
        let [a, b] = ["3.7.0", "5.0.0"].map(|v| {
            let (p, _, answer) = read_one(&mut x, &line(v, dnum, depth, death, Some(flags)));
            (p, answer.dungeons, answer.specials)
        });
        assert_eq!(a, b, "dungeon {dnum}, depth {depth}");
    }
}

/// The lines of one game of the vanilla 3.7 line (3.7.0, 5.0.0): `source`
/// names its sources in the verdicts, `bones_ok` is its `done()`'s line.
fn vanilla_37_lines(version: &str, target: Target, source: &str, bones_ok: &str) {
    let release = for_version(version.as_bytes(), None, |_| false).unwrap();
    assert_eq!(release.target, target);
    let st = stats_of(release);
    let script = builtin_script(release).unwrap();
    let places = answers::compute(&script, release.target);
    let mut x = Xlog::new(Options::default());
    let line37 = |dnum: i32, depth: i32, death: &str, flags: &str| {
        format!(
            "{}\tachieveX=entered_the_gnomish_mines\tconductX=polyless\tgold=12\twish_cnt=0\tarti_wish_cnt=0\tbones=0",
            line(version, dnum, depth, death, Some(flags))
        )
    };
    // Every dungeon of the statistics is named by its number.
    assert!(st.dungeons.iter().any(|d| d.name == "The Tutorial"));
    for (dnum, d) in st.dungeons.iter().enumerate() {
        let Some(place) = places.places.iter().find(|p| p.dnum == dnum as i32) else {
            panic!("no place of {} (number {dnum})", d.name);
        };
        let (p, why, a) = read_one(
            &mut x,
            &line37(dnum as i32, place.depth, "killed by a newt", "0x4"),
        );
        assert_eq!(a.dungeons, vec![(d.name.clone(), 1.0)], "number {dnum}");
        if d.name == "The Tutorial" {
            assert_eq!(p, 0.0);
            assert!(why.starts_with("never: rule"), "{why}");
        }
    }
    // Special levels: the Oracle at depth 5 to 9 as the statistics say.
    let oracle = st.levels.iter().find(|l| l.name == "oracle").unwrap();
    for (&depth, &p) in &oracle.depth {
        let (_, _, a) = read_one(&mut x, &line37(0, depth, "killed by a centaur", "0x4"));
        let q = a
            .specials
            .iter()
            .find(|s| s.0 == "oracle")
            .map_or(0.0, |s| s.1);
        assert!(close(q, p), "depth {depth}: {q} != {p}");
    }
    // Bones in the main dungeon equal the statistics' per-level chance.
    for cell in st
        .bones
        .iter()
        .filter(|b| b.dungeon == "The Dungeons of Doom")
    {
        let (p, why, _) = read_one(&mut x, &line37(0, cell.level, "killed by a troll", "0x0"));
        assert!(
            close(p, cell.bones.leave_chance),
            "{}: {p} ({why})",
            cell.level
        );
        assert!(
            why.contains(&format!("{source} src/bones.c")) || p == 0.0,
            "{why}"
        );
    }
    for (death, flags, want) in [
        ("killed by a troll", "0x5", "wizard mode"),
        ("killed by a troll", "0x6", "explore mode"),
        (
            "killed by slimicide",
            "0x4",
            "did not end in death (genocided)",
        ),
        ("quit", "0x4", &format!("{source} {bones_ok}")),
    ] {
        let (p, why, _) = read_one(&mut x, &line37(0, 14, death, flags));
        assert_eq!(p, 0.0, "{death} {flags}");
        assert!(why.contains(want), "{death} {flags}: {why}");
    }
    let (p, _, _) = read_one(&mut x, &line37(0, 14, "killed by a troll", "0x0"));
    let (q, _, _) = read_one(&mut x, &line37(0, 14, "killed by a troll", "0x4"));
    assert!(
        p > 0.0 && p == q,
        "the no-bones-loaded bit rules nothing out"
    );
}

/// A variant's line is answered with its own game or refused with why:
/// no built-in description (give --file), or a loader dgnkit does not
/// reproduce; never with another game's answer.
#[test]
fn variant_lines_are_answered_by_their_game_or_refused() {
    for release in RELEASES.iter().filter(|r| !HEAVY.contains(&r.name)) {
        let mut x = Xlog::new(Options::default());
        let (a, b, _, hi) = release.versions[0];
        let mut l = line(
            &format!("{}{a}.{b}.{hi}", release.prefix),
            0,
            3,
            "killed by a newt",
            Some("0x0"),
        );
        if let Some(m) = release.family().and_then(Family::marker) {
            l.push_str(&format!("\t{m}=1"));
        }
        let game = release.target.game();
        match x.read(1, l.as_bytes()) {
            Ok(Some(g)) => {
                assert!(
                    release.builtin.is_some() && game.loader_proven(),
                    "{}",
                    release.name
                );
                assert_eq!(x.target(&g), release.target);
            }
            Ok(None) => panic!("{}: no game", release.name),
            Err(e) => {
                if release.builtin.is_none() {
                    assert!(
                        e.error.contains("no built-in description") && e.error.contains("--file"),
                        "{}: {}",
                        release.name,
                        e.error
                    );
                } else {
                    assert!(!game.loader_proven(), "{}: {}", release.name, e.error);
                    assert!(e.error.contains("does not yet reproduce"), "{}", e.error);
                }
            }
        }
        // With --file, the description is laid out by the target's loader
        // (a game dgnkit does not reproduce refuses whatever the file).
        let script = builtin_script(release).or_else(|_| builtin_script(RELEASES[2]));
        let mut x = Xlog::new(Options {
            target: Some(release.target),
            file: Some(Description {
                name: "the test's file".into(),
                script: script.unwrap(),
                target: release.target,
            }),
            ..Options::default()
        });
        let r = x.read(1, l.as_bytes());
        if game.loader_proven() {
            if release.builtin.is_some() {
                let g = r.unwrap().unwrap();
                assert_eq!(x.target(&g), release.target);
            }
        } else {
            let e = r.unwrap_err().error;
            assert!(e.contains("does not yet reproduce"), "{e}");
        }
    }
}

/// The variants whose loader dgnkit reproduces, with lines written as each
/// game writes them: every place a layout has is a game whose special
/// levels add up to the statistics' depth distributions (whatever the
/// dungeon numbering: a level at depth d lies at exactly one place
/// (dnum, d)), and whose bones in the main dungeon are the statistics'.
/// Releases whose exact statistics take half a minute in a test build
/// (dNetHack 3.22's): their dungeon orders are checked by the tests of
/// each family below, not against the statistics.
const HEAVY: [&str; 1] = ["dnethack-3.22"];

#[test]
fn variant_places_match_the_statistics() {
    let mut checked = 0;
    for release in RELEASES.iter().filter(|r| {
        !matches!(
            r.target,
            Target::NetHack343 | Target::NetHack36 | Target::NetHack37 | Target::NetHack50
        ) && r.target.game().loader_proven()
            && !HEAVY.contains(&r.name)
    }) {
        checked += 1;
        let script = builtin_script(release).unwrap();
        let opts = StatsOptions {
            game: release.target.game().loader_game(),
            bones: release.bones.map_or_else(
                || release.target.game().bones_options(),
                crate::bones::BonesOptions::for_rules,
            ),
            ..Default::default()
        };
        let st = stats::compute(&script, &opts);
        let places = answers::compute_with(&script, release.target, release.bones);
        let tol = match &places.method {
            stats::Method::Exact { .. } => 1e-9,
            stats::Method::Sampled { ci95, .. } => *ci95,
        };
        assert_eq!(
            std::mem::discriminant(&st.method),
            std::mem::discriminant(&places.method),
            "{}",
            release.name
        );
        for lev in &st.levels {
            // Every record of the name (SpliceHack has two `bigrm`).
            let named: Vec<u32> = (0..places.level_names.len() as u32)
                .filter(|&i| places.level_names[i as usize] == lev.name)
                .collect();
            if named.is_empty() {
                continue;
            }
            for (&depth, &p) in &lev.depth {
                let sum: f64 = places
                    .places
                    .iter()
                    .filter(|pl| pl.depth == depth)
                    .map(|pl| {
                        pl.exists
                            * pl.specials
                                .iter()
                                .filter(|s| named.contains(&s.0))
                                .map(|s| s.1)
                                .sum::<f64>()
                    })
                    .sum();
                // A level of one name in several dungeons (xNetHack's
                // lairs, by the outcome of its file's draws) is one place
                // name: its entries add up.
                let _ = p;
                let want: f64 = st
                    .levels
                    .iter()
                    .filter(|o| o.name == lev.name)
                    .map(|o| o.exists * o.depth.get(&depth).copied().unwrap_or(0.0))
                    .sum();
                assert!(
                    (sum - want).abs() <= tol,
                    "{}: {} at depth {depth}: {sum} != {want}",
                    release.name,
                    lev.name,
                );
            }
        }
        let (a, b, _, hi) = release.versions[0];
        let version = format!("{}{a}.{b}.{hi}", release.prefix);
        let mut x = Xlog::new(Options::default());
        for cell in st
            .bones
            .iter()
            .filter(|b| b.dungeon == "The Dungeons of Doom")
        {
            let mut l = line(&version, 0, cell.level, "killed by a jackal", Some("0x0"));
            if let Some(m) = release.family().and_then(Family::marker) {
                l.push_str(&format!("\t{m}=x"));
            }
            // Written as the release's builds wrote them (UnNetHack 5.x:
            // colons).
            if let Some(sep) = release.separator {
                l = l.replace('\t', &char::from(sep).to_string());
            }
            let (p, why, a) = read_one(&mut x, &l);
            assert_eq!(a.dungeons, vec![("The Dungeons of Doom".to_string(), 1.0)]);
            assert!(
                (p - cell.bones.leave_chance).abs() <= tol,
                "{} level {}: {p} != {} ({why})",
                release.name,
                cell.level,
                cell.bones.leave_chance
            );
            assert!(why.contains(release.cites.depth_roll) || p == 0.0, "{why}");
        }
    }
    assert!(checked >= 4, "UnNetHack, dNetHack, SLASH'EM, DynaHack");
}

/// UnNetHack writes each game's dungeon name next to its number
/// (`deathdname`, src/topten.c:387): the answer names the same dungeon.
#[test]
fn unnethack_lines_name_the_dungeon_unnethack_wrote() {
    let mut x = Xlog::new(Options::default());
    for (dnum, depth, dname) in [
        (0, 12, "The Dungeons of Doom"),
        (1, 30, "Gehennom"),
        (3, 4, "The Gnomish Mines"),
        (6, 8, "Town"),
        (11, 30, "The Dragon Caves"),
        (13, -3, "The Elemental Planes"),
    ] {
        let l = format!(
            "version=UNH-6.0.15\tpoints=10\tdeathdnum={dnum}\tdeathdname={dname}\tdeathlev={depth}\tmaxlvl=30\tdlev_name=\thp=-2\tmaxhp=40\tdeaths=1\tdeathdate=20260101\tbirthdate=20260101\tuid=5\trole=Val\trace=Hum\tgender=Fem\talign=Neu\tname=tester\tdeath=killed by a troll\tflags=0x0\tmode=hah\tgold=0"
        );
        match x.read(1, l.as_bytes()) {
            Ok(Some(g)) => {
                assert_eq!(x.place(&g).dungeon(), dname, "{dnum} {depth}");
                assert_eq!(g.mode, Mode::Normal);
                assert_eq!(x.target(&g), Target::UnNetHack);
            }
            other => panic!("{dnum} {depth} {dname}: {other:?}"),
        }
    }
}

/// DynaHack (colon-separated, with `charname`): Fort Ludios is its own
/// dungeon number (`u.uz.dnum`), not 0 as its doc/xlogfile.md says; the
/// Dragon Caves exist in 75% of games, so the Elemental Planes are number
/// 10 when they do and 9 when they do not, each place answered on the
/// layouts where it exists.
#[test]
fn dynahack_numbers_follow_its_dungeon_order() {
    let mut x = Xlog::new(Options::default());
    let l = |dnum: i32, depth: i32| {
        format!("version=0.0.1:points=1:deathdnum={dnum}:deathlev={depth}:maxlvl=20:hp=0:maxhp=9:deaths=1:deathdate=20260101:birthdate=20260101:uid=1:role=Val:race=Hum:gender=Fem:align=Neu:name=u:charname=tester:death=killed by a soldier:conduct=0:turns=9:mode=normal")
    };
    let mut answer = |dnum, depth| {
        let raw = l(dnum, depth);
        let g = x
            .read(1, raw.as_bytes())
            .unwrap_or_else(|e| panic!("{dnum} {depth}: {}", e.error))
            .unwrap();
        assert_eq!(x.target(&g), Target::DynaHack);
        x.place(&g).dungeon().to_string()
    };
    assert_eq!(answer(6, 20), "Fort Ludios");
    assert_eq!(answer(9, -5), "The Elemental Planes");
    assert_eq!(answer(10, -5), "The Elemental Planes");
    let release = for_version(b"0.0.1", None, |k| k == b"charname").unwrap();
    let places = answers::compute(&builtin_script(release).unwrap(), release.target);
    let caves = places
        .places
        .iter()
        .find(|p| p.dnum == 9 && p.depth > 0)
        .unwrap();
    assert_eq!(answer(9, caves.depth), "The Dragon Caves");
    let exists = |dnum, depth| places.get(dnum, depth).map_or(0.0, |p| p.exists);
    assert!(close(exists(9, -5) + exists(10, -5), 1.0));
    assert!(close(exists(10, -5), 0.75), "{}", exists(10, -5));
}

/// What public servers' DynaHack lines say: `version=0.6.0`, and the
/// development builds' `0.5.5` (the first example line of DynaHack's own
/// doc/xlogfile.md); both were written with the one description every
/// DynaHack xlogfile line has, the same as DynaMoHack's `0.0.1`.
#[test]
fn dynahack_0_5_5_and_0_6_0_lines_are_answered_as_dynahack() {
    let mut x = Xlog::new(Options::default());
    for version in ["0.5.5", "0.6.0", "0.0.1"] {
        let raw = format!("version={version}:points=1:deathdnum=0:deathlev=9:maxlvl=9:hp=0:maxhp=9:deaths=1:deathdate=20160301:birthdate=20160301:uid=1:role=Val:race=Hum:gender=Fem:align=Neu:name=u:charname=tester:death=killed by a soldier:conduct=0:turns=9:mode=normal");
        let g = x
            .read(1, raw.as_bytes())
            .unwrap_or_else(|e| panic!("{version}: {}", e.error))
            .unwrap();
        assert_eq!(x.target(&g), Target::DynaHack, "{version}");
        assert_eq!(g.release.name, "dynahack-0.6.0", "{version}");
        assert_eq!(x.place(&g).dungeon(), "The Dungeons of Doom", "{version}");
    }
    // A release that wrote no xlogfile, should a line claim it, is
    // answered with the nearest and says so.
    let raw =
        "version=0.5.4:points=1:deathdnum=0:deathlev=9:death=killed by a soldier:charname=tester";
    let g = x.read(2, raw.as_bytes()).unwrap().unwrap();
    assert_eq!(g.release.name, "dynahack-0.6.0");
    let note = x.note_of(&g).unwrap();
    assert!(
        note.contains("answered with release dynahack-0.6.0's description"),
        "{note}"
    );
    assert!(x.human(&g).contains(note));
    let mut j = Vec::new();
    x.json(&g, &mut j);
    let j = String::from_utf8(j).unwrap();
    assert!(
        j.contains("\"note\":") && j.contains("\"release\":\"dynahack-0.6.0\""),
        "{j}"
    );
    assert_eq!(x.summary().answered_with_another.get(note), Some(&1));
}

/// A game's line with `fields` after the usual ones, `sep`-separated.
fn game_line(sep: &str, version: &str, dnum: i32, depth: i32, fields: &[&str]) -> String {
    let mut f = vec![
        format!("version={version}"),
        "points=10".into(),
        format!("deathdnum={dnum}"),
        format!("deathlev={depth}"),
        "maxlvl=50".into(),
        "hp=0".into(),
        "maxhp=9".into(),
        "role=Val".into(),
        "name=u".into(),
        "death=killed by a soldier".into(),
    ];
    f.extend(fields.iter().map(|s| s.to_string()));
    f.join(sep)
}

/// Which dungeon a line's (dungeon number, depth) is, with the release
/// that answered it and its note.
fn dungeon_of(x: &mut Xlog, l: &str) -> (String, &'static str, Option<String>) {
    let g = x
        .read(1, l.as_bytes())
        .unwrap_or_else(|e| panic!("{l}: {}", e.error))
        .unwrap();
    (
        x.place(&g).dungeon().to_string(),
        g.release.name,
        x.note_of(&g).map(str::to_string),
    )
}

/// TNNT inserts its own dungeons before Vlad's Tower, year by year, so the
/// Planes' number is 8 (2018), 9 (2019-2022), 10 (2023-2025) and, on
/// NetHack 5.0 with the Tutorial, 7 (2026): each line is answered with its
/// year's description, never vanilla's.
#[test]
fn tnnt_lines_are_answered_with_their_years_description() {
    let mut x = Xlog::new(Options::default());
    let tnnt = ["flags=0x0", "tnntachieve0=0x1", "tnntachieve1=0x0"];
    for (version, planes, release) in [
        ("3.6.2", 8, "tnnt-2018"),
        ("3.6.3", 9, "tnnt-2019"),
        ("3.6.6", 9, "tnnt-2019"),
        ("3.6.7", 10, "tnnt-2023"),
        ("5.0.0", 7, "tnnt-2026"),
    ] {
        let l = game_line("\t", version, planes, -5, &tnnt);
        let (d, r, note) = dungeon_of(&mut x, &l);
        assert_eq!(
            (d.as_str(), r, note),
            ("The Elemental Planes", release, None),
            "{l}"
        );
        let l = game_line("\t", version, planes - 1, 36, &tnnt);
        assert_eq!(dungeon_of(&mut x, &l).0, "Vlad's Tower", "{l}");
    }
    let (d, _, _) = dungeon_of(&mut x, &game_line("\t", "3.6.7", 8, 6, &tnnt));
    assert_eq!(d, "robotfindskitten");
    // The same numbers without TNNT's fields are vanilla's.
    let (d, r, _) = dungeon_of(&mut x, &game_line("\t", "3.6.7", 7, -5, &["flags=0x0"]));
    assert_eq!((d.as_str(), r), ("The Elemental Planes", "nethack-3.6"));
    assert!(x
        .read(
            1,
            game_line("\t", "3.6.7", 10, -5, &["flags=0x0"]).as_bytes()
        )
        .is_err());
    // The 2024 lines start with `server=`.
    let l = format!("server=hdf-us\t{}", game_line("\t", "3.6.7", 10, -5, &tnnt));
    assert_eq!(dungeon_of(&mut x, &l).1, "tnnt-2023");
}

/// UnNetHack's dungeon changed within its 6.0 series: the Wizard's Tower
/// became dungeon 12 in 6.0.7, moving the Planes from 12 to 13. 5.3.2 was
/// written by builds with the Rogue level (colons) and without (tabs).
#[test]
fn unnethack_releases_follow_their_dungeon_order() {
    let mut x = Xlog::new(Options::default());
    for (sep, version, release) in [
        (":", "UNH-5.3.1", "unnethack-5"),
        (":", "UNH-5.3.2", "unnethack-5"),
        ("\t", "UNH-5.3.2", "unnethack-6.0.0"),
        ("\t", "UNH-6.0.3", "unnethack-6.0.0"),
    ] {
        let (d, r, note) = dungeon_of(&mut x, &game_line(sep, version, 12, -5, &[]));
        assert_eq!(
            (d.as_str(), r, note),
            ("The Elemental Planes", release, None),
            "{version}"
        );
    }
    let (d, r, _) = dungeon_of(&mut x, &game_line("\t", "UNH-6.0.8", 13, -5, &[]));
    assert_eq!((d.as_str(), r), ("The Elemental Planes", "unnethack-6.0.7"));
    let (d, _, _) = dungeon_of(&mut x, &game_line("\t", "UNH-6.0.8", 12, 40, &[]));
    assert_eq!(d, "The Wizard's Tower");
    // The Rogue level is in 5.x's main dungeon only.
    let rogue = |x: &Xlog, g: &Game<'_>| x.place(g).specials.iter().any(|(n, _)| n == "rogue");
    for (sep, version, want) in [(":", "UNH-5.3.1", true), ("\t", "UNH-6.0.3", false)] {
        let l = game_line(sep, version, 0, 16, &[]);
        let g = x.read(1, l.as_bytes()).unwrap().unwrap();
        assert_eq!(rogue(&x, &g), want, "{version}");
    }
}

/// EvilHack's dungeon order changed at 0.7 (Vecna's Domain), 0.8.0 (Goblin
/// Town), 0.8.1 (Purgatory) and 0.8.3 (the Hidden Dungeon and the Wizard's
/// Tower): the Planes are 8, 9, 10, 11 and 13.
#[test]
fn evilhack_releases_follow_their_dungeon_order() {
    let mut x = Xlog::new(Options::default());
    let evil = ["flags=0x0", "killed_archangels=0"];
    for (version, planes, release) in [
        ("0.5.0", 8, "evilhack-0.5"),
        ("0.6.0", 8, "evilhack-0.6"),
        ("0.7.1", 9, "evilhack-0.7"),
        ("0.8.0", 10, "evilhack-0.8.0"),
        ("0.8.2", 11, "evilhack-0.8.1"),
        ("0.8.4", 13, "evilhack-0.8.3"),
        ("0.9.3", 13, "evilhack-0.9"),
    ] {
        let (d, r, note) = dungeon_of(&mut x, &game_line("\t", version, planes, -5, &evil));
        assert_eq!(
            (d.as_str(), r, note),
            ("The Elemental Planes", release, None),
            "{version}"
        );
    }
    let (d, _, _) = dungeon_of(&mut x, &game_line("\t", "0.8.0", 3, 3, &evil));
    assert_eq!(d, "Goblin Town");
    // Before 0.8.3 the Wizard's Tower levels placed the magic portals; the
    // valley's came with the Hidden Dungeon.
    let release = |name: &str| *RELEASES.iter().find(|r| r.name == name).unwrap();
    for (name, portal) in [("evilhack-0.7", "wizard3"), ("evilhack-0.9", "valley")] {
        let r = release(name);
        let rules = r.bones.copied().unwrap_or(r.target.game().bones);
        assert!(rules.portal_levels.contains(&portal), "{name}");
    }
    // DynaHack writes 0.6.0 too, with `charname`, colon-separated; SporkHack
    // 0.x without EvilHack's fields is answered with 3.4.3's, and says so.
    let (_, r, _) = dungeon_of(&mut x, &game_line(":", "0.6.0", 0, 5, &["charname=u"]));
    assert_eq!(r, "dynahack-0.6.0");
    let (_, r, note) = dungeon_of(&mut x, &game_line("\t", "0.7.0", 0, 5, &[]));
    assert_eq!(r, "nethack-3.4.3");
    assert!(note
        .unwrap()
        .contains("SporkHack 0.7.0 is not a game dgnkit describes"));
}

/// GnollHack without its `edit` field (before 4.1.3 edit 24) is still
/// GnollHack: NetHack 4, the other game writing 4.x, writes `charname`.
#[test]
fn gnollhack_releases_without_edit() {
    let mut x = Xlog::new(Options::default());
    for (version, release) in [
        ("4.1.0", "gnollhack-4.1.0"),
        ("4.1.1", "gnollhack-4.1.0"),
        ("4.1.2", "gnollhack-4"),
        ("4.2.0", "gnollhack-4"),
    ] {
        let (d, r, note) = dungeon_of(&mut x, &game_line("\t", version, 3, 8, &["flags=0x0"]));
        assert_eq!(r, release, "{version}");
        assert_eq!(note, None);
        assert!(d.contains("Large Circular Dungeon"), "{version}: {d}");
    }
    let nh4 = game_line(":", "4.3.0", 0, 5, &["charname=u", "rngseed=1", "event=0"]);
    let (d, r, note) = dungeon_of(&mut x, &nh4);
    assert_eq!((d.as_str(), r), ("The Dungeons of Doom", "nethack-3.4.3"));
    assert!(note
        .unwrap()
        .contains("NetHack 4 4.3.0 is not a game dgnkit describes"));
}

/// `--game` names the game of a file whose lines do not tell it.
#[test]
fn game_option_names_the_game() {
    let mut x = Xlog::new(Options {
        game: Some(release::Choice::parse("tnnt").unwrap()),
        ..Options::default()
    });
    let (d, r, _) = dungeon_of(&mut x, &game_line("\t", "3.6.6", 9, -5, &["flags=0x0"]));
    assert_eq!((d.as_str(), r), ("The Elemental Planes", "tnnt-2019"));
    let mut x = Xlog::new(Options {
        game: Some(release::Choice::parse("nethack-3.6.0").unwrap()),
        ..Options::default()
    });
    let (_, r, note) = dungeon_of(&mut x, &game_line("\t", "3.6.6", 0, 5, &["flags=0x0"]));
    assert_eq!((r, note), ("nethack-3.6.0", None));
}

/// AceHack wrote `3.6.0` years before NetHack 3.6.0: its lines are
/// answered with the release it was built from, and say so, never as
/// NetHack 3.6.0 silently.
#[test]
fn acehack_lines_are_not_answered_as_vanilla() {
    let mut x = Xlog::new(Options::default());
    let ace = "version=3.6.0:points=10:deathdnum=0:deathlev=3:maxlvl=3:hp=0:maxhp=9:deaths=1:deathdate=20110701:birthdate=20110701:uid=1:role=Val:race=Hum:gender=Fem:align=Neu:name=u:death=killed by a jackal:event=0:carried=0";
    let (d, r, note) = dungeon_of(&mut x, ace);
    assert_eq!((d.as_str(), r), ("The Dungeons of Doom", "nethack-3.4.3"));
    let note = note.unwrap();
    assert!(
        note.contains("AceHack 3.6.0 is not a game dgnkit describes"),
        "{note}"
    );
    assert_eq!(x.summary().answered_with_another.get(&note), Some(&1));
    // NetHack 3.6.0 itself (it writes `flags`) is still 3.6.0's.
    let vanilla = "version=3.6.0\tpoints=10\tdeathdnum=0\tdeathlev=3\tmaxlvl=3\thp=0\tmaxhp=9\tdeaths=1\tdeathdate=20160101\tbirthdate=20160101\tuid=1\trole=Val\trace=Hum\tgender=Fem\talign=Neu\tname=u\tdeath=killed by a jackal\tflags=0x0";
    let g = x.read(3, vanilla.as_bytes()).unwrap().unwrap();
    assert_eq!(g.release.name, "nethack-3.6.0");
    assert!(x.note_of(&g).is_none());
}

fn family(name: &str) -> Writer {
    Writer::Family(Family::by_name(name).unwrap())
}

fn who(version: &str, tab: bool, fields: &[&str]) -> Option<Writer> {
    let seen = Seen::from_fields(tab, |k| fields.iter().any(|f| f.as_bytes() == k));
    identify(version.as_bytes(), seen).map(|(w, _)| w)
}

#[test]
fn colliding_versions_are_told_by_their_fields() {
    use Writer::Stranger as S;
    assert_eq!(
        who("3.6.7", true, &["flags", "tnntachieve0"]),
        Some(family("tnnt"))
    );
    assert_eq!(who("3.6.7", true, &["flags"]), Some(family("nethack")));
    assert_eq!(
        who("3.6.0", false, &["event", "carried"]),
        Some(S(&ACEHACK))
    );
    assert_eq!(
        who("3.6.0", true, &["flags", "event", "carried"]),
        Some(family("nethack"))
    );
    assert_eq!(
        who("4.3.0", false, &["charname", "rngseed", "event"]),
        Some(S(&NETHACK4))
    );
    assert_eq!(who("4.3.0", true, &["edit"]), Some(family("gnollhack")));
    assert_eq!(who("4.1.3", true, &[]), Some(family("gnollhack")));
    assert_eq!(who("0.6.0", false, &["charname"]), Some(family("dynahack")));
    assert_eq!(
        who("0.6.0", true, &["killed_archangels"]),
        Some(family("evilhack"))
    );
    assert_eq!(who("0.6.0", true, &[]), Some(S(&SPORKHACK)));
    assert_eq!(who("0.6.2", false, &[]), Some(S(&SPORKHACK)));
    assert_eq!(who("UNH-6.0.3", true, &[]), Some(family("unnethack")));
    assert_eq!(who("DNH-3.19.1", false, &[]), Some(family("dnethack")));
    assert_eq!(who("9.1.0", true, &["polyinit"]), Some(family("xnethack")));
    // NetHack 4's own fields tell it only beside `charname`.
    assert_eq!(
        who("9.1.0", true, &["polyinit", "rngseed"]),
        Some(family("xnethack"))
    );
    assert_eq!(
        who("1.5.1", true, &["achieve2"]),
        Some(family("crecellehack"))
    );
    assert_eq!(who("5.0.0", true, &[]), Some(family("nethack")));
    assert_eq!(who("12.0.0", true, &[]), None);
    assert_eq!(who("NH-1", true, &[]), None);
}

/// A line with two games' fields is the game whose field is tried first,
/// in the order dgn xlog has always tried them: the tournament's, the
/// version prefixes, then [`Seen`]'s bits.
#[test]
fn two_games_fields_are_told_in_a_fixed_order() {
    use Writer::Stranger as S;
    assert_eq!(
        who("UNH-6.0.3", true, &["tnntachieve0"]),
        Some(family("tnnt"))
    );
    assert_eq!(who("DNH-3.23.0", true, &["edit"]), Some(family("dnethack")));
    assert_eq!(
        who("4.3.0", true, &["edit", "charname", "killed_archangels"]),
        Some(family("gnollhack"))
    );
    assert_eq!(
        who("9.1.0", true, &["charname", "polyinit"]),
        Some(family("dynahack"))
    );
    assert_eq!(
        who("1.5.1", true, &["polyinit", "achieve2"]),
        Some(family("xnethack"))
    );
    assert_eq!(
        who("3.6.0", false, &["event", "carried", "achieve2"]),
        Some(family("crecellehack"))
    );
    assert_eq!(
        who("3.6.0", false, &["event", "carried", "killed_archangels"]),
        Some(S(&ACEHACK))
    );
}

/// `dgn xlog --releases` and its messages list the games and releases in
/// the order they had before each game held its own: a game added since
/// may come anywhere, but these keep their order.
#[test]
fn releases_keep_their_order() {
    let kept = |all: Vec<&'static str>, listed: &[&str]| -> Vec<&'static str> {
        all.into_iter().filter(|n| listed.contains(n)).collect()
    };
    let listed = [
        "nethack-3.4.3",
        "nethack-3.6.0",
        "nethack-3.6",
        "nethack-3.7",
        "unnethack-5",
        "unnethack-6.0.0",
        "unnethack-6.0.7",
        "unnethack-6.0",
        "dnethack-3.22",
        "dnethack-3.23",
        "slashem-0.0.8",
        "evilhack-0.5",
        "evilhack-0.6",
        "evilhack-0.7",
        "evilhack-0.8.0",
        "evilhack-0.8.1",
        "evilhack-0.8.3",
        "evilhack-0.9",
        "gnollhack-4.1.0",
        "gnollhack-4",
        "dynahack-0.6.0",
        "xnethack-9.1",
        "splicehack-1.2",
        "nerfhack-2.2",
        "crecellehack-1.5",
        "tnnt-2018",
        "tnnt-2019",
        "tnnt-2023",
        "tnnt-2026",
    ];
    let names = RELEASES.iter().map(|r| r.name).collect();
    assert_eq!(kept(names, &listed), listed);
    let listed = [
        "nethack",
        "tnnt",
        "unnethack",
        "dnethack",
        "slashem",
        "evilhack",
        "gnollhack",
        "dynahack",
        "xnethack",
        "splicehack",
        "nerfhack",
        "crecellehack",
    ];
    let names = Family::all().iter().map(|f| f.name).collect();
    assert_eq!(kept(names, &listed), listed);
}

/// A game whose loader dgnkit does not reproduce answers every line with an
/// error saying so, never with another game's places (no game is such a
/// game now: [`crate::games::UNPROVEN`] stands in for one).
#[test]
fn an_unproven_games_lines_are_refused() {
    let script = builtin_script(RELEASES[2]).unwrap();
    let e = tables_for(&script, &crate::games::UNPROVEN, None).unwrap_err();
    assert!(
        e.contains("does not yet reproduce An Unproven Game's loader"),
        "{e}"
    );
    assert!(tables_for(&script, Target::NetHack36.game(), None).is_ok());
}

/// A line is read the same after any other: what [`Xlog`] keeps of the
/// last line's keys ([`Plan`]) is made anew when the keys change (a field
/// more or less, moved, twice, renamed to another game's, longer than a
/// key kept, another separator).
#[test]
fn lines_read_alike_after_any_other() {
    use proptest::prelude::*;
    let base = line("3.6.6", 0, 12, "killed by a soldier ant", Some("0x4"));
    let swapped = base.replacen("deathlev=12\tmaxlvl=12", "maxlvl=12\tdeathlev=12", 1);
    let pool: Vec<String> = vec![
        base.clone(),
        line("3.6.6", 2, 3, "killed by a gnome lord", None),
        line("3.4.3", 0, 5, "quit", None),
        swapped,
        format!("{base}\tdeathlev=4"),
        format!("{base}\ttnntachieve0=0x1"),
        format!("{base}\tkilled_archangels=0"),
        base.replacen("deathdnum=0", "deathdnum=2", 1),
        base.replacen("version=3.6.6", "version=3.7.0", 1),
        base.replacen("flags=0x4", "flags=0x1", 1),
        base.replacen("deathdnum=0\t", "", 1),
        base.replacen("death=", "xdeath=", 1),
        base.replacen("deathlev=", "deathlvl=", 1),
        base.replacen("flags=", "flagz=", 1),
    ];
    let read = |x: &mut Xlog, n: u64, l: &str| -> String {
        match x.read(n, l.as_bytes()) {
            Ok(Some(g)) => {
                let mut out = Vec::new();
                x.json(&g, &mut out);
                String::from_utf8(out).unwrap()
            }
            Ok(None) => "none".into(),
            Err(e) => e.error,
        }
    };
    let alone: Vec<String> = pool
        .iter()
        .map(|l| read(&mut Xlog::new(Options::default()), 1, l))
        .collect();
    assert!(
        alone.iter().any(|a| a.starts_with('{')) && alone.iter().any(|a| a.starts_with("missing"))
    );
    let shared = std::cell::RefCell::new(Xlog::new(Options::default()));
    proptest::test_runner::TestRunner::default()
        .run(&proptest::collection::vec(0..pool.len(), 1..12), |picks| {
            let mut x = shared.borrow_mut();
            for i in picks {
                let got = read(&mut x, 1, &pool[i]);
                prop_assert_eq!(&got, &alone[i], "{}", pool[i]);
            }
            Ok(())
        })
        .unwrap();
}

/// libFuzzer's `xlog_reader` input of 2026-11-29 (`crash-43a241f4`): a
/// `flags` of seventeen hex digits overflowed `parse_int` (a panic in the
/// fuzzer's debug build, a wrong mode in a release). Every line is now a
/// game, a bad line or blank.
#[test]
fn fuzz_long_hex_flags_are_a_bad_line() {
    const INPUT: &[u8] =
        b"how  and bo_senp > 0.=5\tdeathlev=20\tdeath=killed by a jackal\tflags=0x0\trole=Val\
          \nversion=DNH-3.23.0\tdeathdnum=9\tdeathlev=-5\tdeath=quit\tflags=0x1BBBBBBBBBBBBBBB\
          0\tdeat\x00e\nversion=4.4.11.\tde1.13.0\tdeathdnumlev=deathdev=-3\tdeath=qw  and bo_\
          senp > 0.0\tdeat\x00e\nversion=4.4.11.\t\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
          \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
          \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
          \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
          \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
          \x00\x00de1.13.0\tdeathdnumlev=deathdev=-3\tdeath=quit\tflauit\tfla1s=0x2\trole=Val\
          \n";
    assert_eq!(INPUT.len(), 436);
    let mut x = Xlog::new(Options::default());
    for (n, raw) in INPUT.split(|&b| b == b'\n').enumerate() {
        if let Ok(Some(g)) = x.read(n as u64 + 1, raw) {
            let mut out = Vec::new();
            x.json(&g, &mut out);
            serde_json::from_slice::<serde_json::Value>(&out).unwrap();
        }
    }
    let line = line("3.6.6", 0, 5, "quit", Some("0x1BBBBBBBBBBBBBBB0"));
    let bad = x.read(9, line.as_bytes()).unwrap_err();
    assert!(bad.error.contains("flags"), "{}", bad.error);
}
