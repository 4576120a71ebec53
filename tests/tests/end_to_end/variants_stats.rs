//! Exact statistics of the variant families against counts: every
//! family's against its fixture lines (the game's own `init_dungeons()`);
//! SLASH'EM's own file (MAXLEVEL 50, entry levels on the branches, level 1
//! of every dungeon without bones) and dNetHack's (alternates, the Quest,
//! rules 10-12) also against 20,000 layouts of the proven loader. Each
//! exact probability `p` must hold its count `k` of `n` within six standard
//! deviations (plus one count), and what the exact statistics call
//! impossible must never happen.

use dgnkit::bones::{BonesOptions, Rule};
use dgnkit::frontend::{analyze_fast, CheckOptions};
use dgnkit::games::LoaderInputs;
use dgnkit::options::Target;
use dgnkit::script::Script;
use dgnkit::stats::{self, Approach, Dist, Method, Stats, StatsOptions};

fn slashem_script() -> Option<Script> {
    let shared = dgnkit_tests::shared_dir()?;
    let src =
        std::fs::read(shared.join("corpus/dirkz__slashem-iphone/dungeon.def")).expect("source");
    let opts = CheckOptions {
        target: Target::Native,
        dialect: Target::SlashEm.game().dialect,
        // SLASH'EM's default build leaves REINCARNATION undefined.
        undefines: vec!["REINCARNATION".into()],
        ..CheckOptions::default()
    };
    Some(
        analyze_fast(&src, &opts)
            .script
            .expect("SLASH'EM's file compiles"),
    )
}

fn options(approach: Approach, wizard: bool) -> StatsOptions {
    StatsOptions {
        game: Target::SlashEm.game().loader_game(),
        bones: Target::SlashEm.game().bones_options(),
        approach,
        wizard,
        samples: 20_000,
        ..StatsOptions::default()
    }
}

use dgnkit_tests::agrees;

/// Every value counted in `counts` (of `n`) is possible in `exact` and
/// agrees with its probability.
fn same_dist(what: &str, name: &str, exact: &Dist, counts: &Dist, n: f64) {
    for (v, &pc) in counts {
        let pe = exact.get(v).copied().unwrap_or(0.0);
        assert!(pe > 0.0, "{what}: {name} {v}, exactly impossible");
        assert!(agrees(pe, pc * n, n), "{what}: {name} {v}: {pe} vs {pc}");
    }
}

/// Every dungeon's existence and size, every special level's existence,
/// level and depth, and every level's bones categories.
fn compare(exact: &Stats, counts: &Stats, n: f64, what: &str) {
    for (e, c) in exact.dungeons.iter().zip(&counts.dungeons) {
        assert!(
            agrees(e.exists, c.exists * n, n),
            "{what}: {} exists {} vs {}",
            e.name,
            e.exists,
            c.exists
        );
        let what = format!("{what}: {}", e.name);
        same_dist(&what, "size", &e.num_levels, &c.num_levels, n);
        same_dist(&what, "depth of its top", &e.depth_start, &c.depth_start, n);
    }
    for (e, c) in exact.levels.iter().zip(&counts.levels) {
        assert_eq!(e.name, c.name);
        assert!(
            agrees(e.exists, c.exists * n, n),
            "{what}: {} exists",
            e.name
        );
        let (what, m) = (format!("{what}: {}", e.name), c.exists * n);
        same_dist(&what, "level", &e.level, &c.level, m);
        same_dist(&what, "depth", &e.depth, &c.depth, m);
    }
    for (e, c) in exact.bones.iter().zip(&counts.bones) {
        assert_eq!((&e.dungeon, e.level), (&c.dungeon, c.level));
        let m = c.exists * n;
        for (cat, (&pe, &pc)) in e
            .bones
            .categories
            .iter()
            .zip(&c.bones.categories)
            .enumerate()
        {
            assert!(
                pc == 0.0 || e.bones.possible[cat],
                "{what}: {} {}: category {cat} exactly impossible",
                e.dungeon,
                e.level
            );
            assert!(
                agrees(pe, pc * m, m),
                "{what}: {} {} category {cat}: {pe} vs {pc}",
                e.dungeon,
                e.level
            );
        }
    }
}

#[test]
fn slashem_exact_statistics_match_its_loader() {
    let Some(script) = slashem_script() else {
        return;
    };
    for wizard in [false, true] {
        let exact =
            stats::exact(&script, &options(Approach::Exact, wizard)).expect("SLASH'EM enumerates");
        assert!(
            matches!(exact.method, Method::Exact { .. }),
            "{:?}",
            exact.method
        );
        assert_eq!(exact.failure, 0.0);
        // Level 1 of every dungeon never loads bones (rule 9 or earlier).
        for cell in exact.bones.iter().filter(|c| c.level == 1) {
            assert!(!cell.bones.load_possible(), "{} 1", cell.dungeon);
        }
        let sampled = stats::sampled(&script, &options(Approach::Sampled, wizard));
        compare(
            &exact,
            &sampled,
            20_000.0,
            if wizard { "wizard" } else { "normal" },
        );
    }
}

#[test]
fn slashem_exact_statistics_match_its_own_layouts() {
    let Some(script) = slashem_script() else {
        return;
    };
    let Some(lines) = dgnkit_tests::variants::layout_lines("slashem") else {
        return;
    };
    let exact =
        stats::exact(&script, &options(Approach::Exact, false)).expect("SLASH'EM enumerates");
    // Wizard mode draws the same in SLASH'EM (its README): both files count.
    for (at, layout) in &lines {
        for d in &exact.dungeons {
            let got = layout.dungeons.iter().find(|x| x.name == d.name);
            let got = got.unwrap_or_else(|| panic!("{at}: no {}", d.name));
            let p = d.num_levels.get(&got.num_levels).copied().unwrap_or(0.0);
            assert!(
                p > 0.0,
                "{at}: {} has {} levels, exactly impossible",
                d.name,
                got.num_levels
            );
            let ds = d.depth_start.get(&got.depth_start).copied().unwrap_or(0.0);
            assert!(
                ds > 0.0,
                "{at}: {} starts at depth {}, exactly impossible",
                d.name,
                got.depth_start
            );
        }
        for l in &layout.levels {
            let e = exact.levels.iter().find(|x| x.name == l.name);
            let e = e.unwrap_or_else(|| panic!("{at}: no level {}", l.name));
            let p = e.level.get(&l.level).copied().unwrap_or(0.0);
            assert!(
                p > 0.0,
                "{at}: {} on level {}, exactly impossible",
                l.name,
                l.level
            );
        }
    }
    // The main dungeon's five sizes, 20% each, over the lines.
    let n = lines.len() as f64;
    for (size, &p) in &exact.dungeons[0].num_levels {
        let k = lines
            .iter()
            .filter(|(_, l)| l.dungeons[0].num_levels == *size)
            .count() as f64;
        assert!(agrees(p, k, n), "size {size}: {p} vs {k}/{n}");
    }
}

/// dNAO's own file (its README: byte-identical to the fixtures' source);
/// `config.h:341` defines REINCARNATION.
fn dnethack_script() -> Option<Script> {
    dnethack_family_script("Chris-plus-alphanumericgibberish__dNAO@HEAD")
}

/// A dNetHack family file of the corpus, REINCARNATION defined as dNAO's.
fn dnethack_family_script(dir: &str) -> Option<Script> {
    let shared = dgnkit_tests::shared_dir()?;
    let path = shared.join("corpus").join(dir).join("dungeon.def");
    let src = std::fs::read(path).expect("source");
    let opts = CheckOptions {
        target: Target::Native,
        dialect: Target::DNetHack.game().dialect,
        defines: vec!["REINCARNATION".into()],
        ..CheckOptions::default()
    };
    Some(
        analyze_fast(&src, &opts)
            .script
            .expect("dNAO's file compiles"),
    )
}

/// dNAO's own file, its three side branches `@ (5, 25)` as they are (the
/// enumeration defers their levels, [`stats::exact`]'s engine): exact with
/// the default budget, and the same as 20,000 layouts of the proven loader
/// judged by `dgn bones`' rules, with and without chance rolls.
#[test]
fn dnethack_own_file_is_exact_and_matches_its_loader() {
    let Some(script) = dnethack_script() else {
        return;
    };
    let bones = Target::DNetHack.game().bones_options();
    dgnkit_tests::par_map(&DNETHACK_SETUPS[..2], |setup| {
        let exact = dnethack_exact(&script, setup, &bones);
        let sampled = stats::sampled(&script, &dnethack_options(setup, Approach::Sampled, &bones));
        compare(&exact, &sampled, 20_000.0, setup.what);
    });
}

/// notdNetHack's file: Fort Ludios, The Void with its Sacristy, and the
/// three branches `@ (5, 25)` form one deferred run (Ludios floats, the
/// Sacristy's depths follow The Void's level); the Gnomish Mines and Vlad's
/// Tower another. Exact with the default budget, and the same as 20,000
/// layouts of the loader. Its game names Sokoban "Lokoban", which dNAO's
/// loader (dgnkit's `dnethack`) would miss in every layout: the check
/// requires no dungeon, so that the statistics have layouts to describe.
#[test]
fn notdnethack_file_is_exact_and_matches_its_loader() {
    let Some(script) = dnethack_family_script("k21971__notdNetHack") else {
        return;
    };
    let bones = Target::DNetHack.game().bones_options();
    let setup = &DNETHACK_SETUPS[0];
    let options = |approach| {
        let mut o = dnethack_options(setup, approach, &bones);
        o.game.rules.required_dungeons = &[];
        o
    };
    let exact = stats::exact(&script, &options(Approach::Exact))
        .unwrap_or_else(|e| panic!("notdNetHack: {}", e.what));
    assert!(
        matches!(exact.method, Method::Exact { .. }),
        "{:?}",
        exact.method
    );
    assert_eq!(exact.failure, 0.0);
    let sampled = stats::sampled(&script, &options(Approach::Sampled));
    compare(&exact, &sampled, 20_000.0, "notdNetHack");
}

/// dNAO's file with the three branches `@ (5, 25)` of the main dungeon
/// (The Lost Tomb, The Sunless Sea, The Temple of Moloch) at one level
/// each, 10, 20 and 24: a smaller enumeration, quick enough to compare all
/// six setups with the loader (the whole file: two setups,
/// `dnethack_own_file_is_exact_and_matches_its_loader`).
fn narrow_side_branches(mut script: Script) -> Script {
    let mut narrowed = 0;
    for b in &mut script.dungeons[0].branches {
        if b.range.base == 5 && b.range.rand == 25 {
            b.range = dgnkit::script::Range {
                base: [10, 20, 24][narrowed],
                rand: 0,
            };
            narrowed += 1;
        }
    }
    assert_eq!(narrowed, 3, "dNAO's file changed");
    script
}

/// One set of what dNAO's loader reads besides the file.
struct Setup {
    what: &'static str,
    wizard: bool,
    role: Option<&'static str>,
    race: Option<&'static str>,
    options: &'static [&'static str],
}

const DNETHACK_SETUPS: &[Setup] = &[
    Setup {
        what: "default",
        wizard: false,
        role: None,
        race: None,
        options: &[],
    },
    Setup {
        what: "wizard",
        wizard: true,
        role: None,
        race: None,
        options: &[],
    },
    Setup {
        what: "Drow Healer",
        wizard: false,
        role: Some("Hea"),
        race: Some("Dro"),
        options: &[],
    },
    Setup {
        what: "wizard, chaos_quest=mithardir",
        wizard: true,
        role: None,
        race: None,
        options: &["chaos_quest=mithardir"],
    },
    Setup {
        what: "June, chaos_quest=mordor",
        wizard: false,
        role: None,
        race: None,
        options: &["chaos_quest=mordor", "is_june=true"],
    },
    Setup {
        what: "chaos_quest=temple outside June (no effect)",
        wizard: false,
        role: None,
        race: None,
        options: &["chaos_quest=temple"],
    },
];

fn dnethack_options(setup: &Setup, approach: Approach, bones: &BonesOptions) -> StatsOptions {
    let options: Vec<String> = setup.options.iter().map(|s| s.to_string()).collect();
    StatsOptions {
        game: Target::DNetHack.game().loader_game(),
        bones: bones.clone(),
        approach,
        wizard: setup.wizard,
        samples: 20_000,
        inputs: LoaderInputs::parse(setup.role, setup.race, &options, false, setup.wizard)
            .expect("dNetHack's inputs"),
        ..StatsOptions::default()
    }
}

/// dNAO's exact statistics for a setup: exact, and no layout fails.
fn dnethack_exact(script: &Script, setup: &Setup, bones: &BonesOptions) -> Stats {
    let exact = stats::exact(script, &dnethack_options(setup, Approach::Exact, bones))
        .unwrap_or_else(|e| panic!("{}: {}", setup.what, e.what));
    assert!(
        matches!(exact.method, Method::Exact { .. }),
        "{}: {:?}",
        setup.what,
        exact.method
    );
    assert_eq!(exact.failure, 0.0, "{}", setup.what);
    exact
}

/// dNetHack's loader (alternates, chaos_quest, the Quest's locate level and
/// minimum) and its bones rules (no bottom, branch or portal rule; rules
/// 11 and 12 by the other end of a branch) enumerated exactly, against
/// 20,000 layouts of the proven loader judged by `dgn bones`' rules, for
/// each setup.
#[test]
fn dnethack_exact_statistics_match_its_loader() {
    let Some(script) = dnethack_script() else {
        return;
    };
    let script = narrow_side_branches(script);
    let bones = Target::DNetHack.game().bones_options();
    dgnkit_tests::par_map(DNETHACK_SETUPS, |setup| {
        let exact = dnethack_exact(&script, setup, &bones);
        // Rule 12 decides somewhere (the Quest's portal level holds "qstlb",
        // marker "none": rule 1 comes before rule 11 there); the bottom
        // rule never does.
        assert!(
            exact
                .bones
                .iter()
                .any(|c| c.bones.categories[Rule::BranchToNoBones.category()] > 0.0),
            "{}: rule 12 never decides",
            setup.what
        );
        assert!(exact
            .bones
            .iter()
            .all(|c| !c.bones.possible[Rule::Bottom.category()]));
        let sampled = stats::sampled(&script, &dnethack_options(setup, Approach::Sampled, &bones));
        compare(&exact, &sampled, 20_000.0, setup.what);
    });
    // Rule 10 for a Madman: the Quest level above the locate level.
    let mut madman = Target::DNetHack.game().bones_options();
    madman.role = Some("Madman".into());
    let setup = &DNETHACK_SETUPS[0];
    let exact = stats::exact(&script, &dnethack_options(setup, Approach::Exact, &madman))
        .unwrap_or_else(|e| panic!("Madman: {}", e.what));
    assert!(matches!(exact.method, Method::Exact { .. }));
    assert!(
        exact
            .bones
            .iter()
            .any(|c| c.dungeon == "The Quest"
                && c.bones.categories[Rule::MadmanHome.category()] > 0.0)
    );
    let sampled = stats::sampled(
        &script,
        &dnethack_options(setup, Approach::Sampled, &madman),
    );
    compare(&exact, &sampled, 20_000.0, "Madman");
}

/// `dgn stats --target F --format json` (with `--wizard`) on a file.
fn dgn_stats_json(target: Target, path: &std::path::Path, wizard: bool) -> serde_json::Value {
    let path = path.to_string_lossy().into_owned();
    let mut args = vec!["--target", target.name(), "--format", "json", path.as_str()];
    if wizard {
        args.insert(0, "--wizard");
    }
    let (code, out, err) = dgnkit_tests::run_cli(
        "stats",
        &args,
        dgnkit_cli::stats::parse_args,
        |a, out, err| dgnkit_cli::stats::execute(a, out, err, false),
    );
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("dgn stats writes JSON")
}

/// The chance a `dgn stats` distribution gives `value`.
fn chance(dist: &serde_json::Value, value: i32) -> f64 {
    dist.get(value.to_string())
        .and_then(|p| p.as_f64())
        .unwrap_or(0.0)
}

/// Every family of `../shared/expected/variants/`, on its own file with
/// `dgn stats --target F` (the game's default inputs, with and without
/// `--wizard`): exact, and every fixture line of that setup (the game's own
/// `init_dungeons()`) is possible: each dungeon's size and depth, each
/// special level's level; the main dungeon's sizes agree with their counts.
/// Fixtures of other setups (roles, game options) are the families' own
/// tests' (`dnethack_exact_statistics_match_its_loader`).
#[test]
fn every_family_s_exact_statistics_allow_its_fixture_layouts() {
    let Some(families) = dgnkit_tests::variants::families() else {
        return;
    };
    for fam in &families {
        if let Some(why) = &fam.unknown {
            panic!("{why}");
        }
        if !fam.target.game().loader_proven() {
            // No statistics from another game's rules: refused, with why.
            let (code, out, err) = dgnkit_tests::run_cli(
                "stats",
                &["--target", fam.target.name(), "--format", "json"],
                dgnkit_cli::stats::parse_args,
                |a, out, err| dgnkit_cli::stats::execute(a, out, err, false),
            );
            assert_ne!(code, 0, "{}: {out}", fam.dir);
            assert!(err.contains("does not yet reproduce"), "{}: {err}", fam.dir);
            continue;
        }
        if fam.target.game().reads_lua {
            // NetHack 3.7's forks record game starts (runtime level names,
            // by role): their exact statistics are checked against 20,000
            // layouts of their loaders in `forks37_parity`.
            continue;
        }
        let (path, _) = dgnkit_tests::variants::family_source(fam).unwrap();
        let lines = dgnkit_tests::variants::layout_lines(&fam.dir).unwrap();
        for wizard in [false, true] {
            // `layouts.<rng>.jsonl.gz` or `layouts.<rng>.wizard.jsonl.gz`.
            let setup: Vec<_> = lines
                .iter()
                .filter(|(at, _)| {
                    dgnkit_tests::variants::setup_of(at)
                        == if wizard { &["wizard"][..] } else { &[][..] }
                })
                .collect();
            if setup.is_empty() {
                continue;
            }
            let what = format!("{} (wizard: {wizard})", fam.dir);
            let v = dgn_stats_json(fam.target, &path, wizard);
            assert_eq!(v["method"]["kind"], "exact", "{what}: {}", v["method"]);
            let dungeons = v["dungeons"].as_array().unwrap();
            let levels = v["levels"].as_array().unwrap();
            for (at, layout) in &setup {
                for d in &layout.dungeons {
                    // Alternates share a name: any record of it will do.
                    assert!(
                        dungeons.iter().any(|e| e["name"] == d.name.as_str()
                            && chance(&e["num_levels"], d.num_levels) > 0.0
                            && chance(&e["depth_start"], d.depth_start) > 0.0),
                        "{what}: {at}: \"{}\" with {} levels from depth {}: exactly impossible",
                        d.name,
                        d.num_levels,
                        d.depth_start
                    );
                }
                for l in &layout.levels {
                    assert!(
                        levels
                            .iter()
                            .any(|e| e["name"] == l.name.as_str()
                                && chance(&e["level"], l.level) > 0.0),
                        "{what}: {at}: \"{}\" on level {}: exactly impossible",
                        l.name,
                        l.level
                    );
                }
            }
            let n = setup.len() as f64;
            let main = &dungeons[0];
            for (size, p) in main["num_levels"].as_object().unwrap() {
                let size: i32 = size.parse().unwrap();
                let k = setup
                    .iter()
                    .filter(|(_, l)| l.dungeons[0].num_levels == size)
                    .count() as f64;
                let p = p.as_f64().unwrap();
                assert!(agrees(p, k, n), "{what}: main size {size}: {p} vs {k}/{n}");
            }
        }
    }
}
