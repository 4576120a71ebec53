//! Parity of NetHack 3.7's forks with their own C games: every line of
//! `../shared/expected/variants/<fork>/layouts-<role>-<normal|wizmode>.jsonl.gz`
//! (a recorded game start) is resolved again from the fork's own
//! `dungeon.lua` (the corpus file its README names), with the line's seed,
//! role and mode, by the fork's `--target`. Every draw is checked in order:
//! the object shuffles' count, `role_init`'s draws, nhlib.lua's pair, the
//! file's own draws (xNetHack's prelude, run in the Lua sandbox), every
//! draw of `init_dungeons()` and the draws after it (xNetHack's
//! `init_archfiends`); then the resolved dungeons, levels and tune.

use dgnkit::frontend::CheckOptions;
use dgnkit::games::LoaderInputs;
use dgnkit::loader::{Resolved, Resolver};
use dgnkit::options::Target;
use dgnkit::rng::{Draw, RngKind, Site};
use dgnkit::script::Script;
use serde_json::Value;
use std::path::Path;

/// Each fork: its target and the corpus file its recordings were made with.
const FORKS: &[(&str, Target, &str)] = &[
    ("xnethack", Target::XNetHack, "copperwater__xNetHack@3.7"),
    ("splicehack", Target::SpliceHack, "NullCGT__SpliceHack@3.7"),
    ("nerfhack", Target::NerfHack, "elunna__NerfHack"),
    (
        "crecellehack",
        Target::CrecelleHack,
        "NullCGT__CrecelleHack",
    ),
];

fn script(shared: &Path, target: Target, corpus: &str) -> Script {
    let src =
        std::fs::read(shared.join("corpus").join(corpus).join("dungeon.lua")).expect("dungeon.lua");
    let opts = CheckOptions {
        target,
        dialect: target.game().dialect,
        ..CheckOptions::default()
    };
    let analysis = dgnkit::frontend::analyze_fast(&src, &opts);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(errors.is_empty(), "{corpus}: {errors:?}");
    analysis.script.expect("dungeon.lua reads without errors")
}

/// `rn2(3)=0 @ where` -> `rn2(3)=0`.
fn value(entry: &str) -> &str {
    entry.split_once(" @ ").map_or(entry, |(v, _)| v)
}

fn compare(what: &str, want: &[String], got: &[&Draw], res: &Resolver) -> Result<(), String> {
    let Some(i) = (0..want.len().max(got.len()))
        .find(|&i| want.get(i).map(|w| value(w)) != got.get(i).map(|d| d.to_string()).as_deref())
    else {
        return Ok(());
    };
    Err(format!(
        "{what}: first differing draw #{i}: the game drew {}, dgnkit {}",
        want.get(i).map_or("(none)", |w| w.as_str()),
        got.get(i).map_or_else(
            || "(none)".to_string(),
            |d| format!("{d} ({})", res.describe_site(d.site))
        )
    ))
}

fn check_line(target: Target, script: &Script, line: &Value) -> Result<(), String> {
    let seed = line["seed"].as_u64().ok_or("no seed")?;
    let wizard = line["wizard"].as_bool().ok_or("no wizard")?;
    let role = line["options"]["role"].as_str().ok_or("no role")?;
    let inputs = LoaderInputs::parse(Some(role), None, &[], false, wizard)?;
    let res = Resolver::for_game(script, &target.game().loader_game(), &inputs)
        .map_err(|e| e.to_string())?;
    let mut out = Resolved::default();
    let mut log: Vec<Draw> = Vec::new();
    let result = res.resolve_traced(seed, RngKind::Isaac64, wizard, &mut out, &mut log);
    let before = &line["draws_before"];
    let objects = log.iter().filter(|d| d.site == Site::ObjectInit).count() as u64;
    if Some(objects) != before["o_init"].as_u64() {
        return Err(format!(
            "o_init: {} recorded, dgnkit {objects}",
            before["o_init"]
        ));
    }
    let pick =
        |f: &dyn Fn(Site) -> bool| -> Vec<&Draw> { log.iter().filter(|d| f(d.site)).collect() };
    compare(
        "role_init",
        &dgnkit_tests::json_strings(&before["role"]),
        &pick(&|s| matches!(s, Site::QuestGender | Site::Pantheon | Site::RogueVictim)),
        &res,
    )?;
    compare(
        "nhlib.lua",
        &dgnkit_tests::json_strings(&before["nhlib_shuffle"]),
        &pick(&|s| s == Site::LuaShuffle),
        &res,
    )?;
    compare(
        "dungeon.lua",
        &dgnkit_tests::json_strings(&line["lua_prelude"]),
        &pick(&|s| matches!(s, Site::LuaPrelude { .. })),
        &res,
    )?;
    compare(
        "init_dungeons",
        &dgnkit_tests::json_strings(&line["draws"]),
        &pick(&|s| s.in_loader() && !matches!(s, Site::LuaShuffle | Site::LuaPrelude { .. })),
        &res,
    )?;
    compare(
        "after init_dungeons",
        &dgnkit_tests::json_strings(&line["after"]["init_archfiends"]),
        &pick(&|s| s == Site::AfterLoader),
        &res,
    )?;
    result.map_err(|e| format!("the loader failed after the recorded draws: {e}"))?;
    let ours = serde_json::to_value(out.to_layout(&res, None)).map_err(|e| e.to_string())?;
    if ours["tune"] != line["tune"] {
        return Err(format!(
            "tune {} recorded, dgnkit {}",
            line["tune"], ours["tune"]
        ));
    }
    // The quest's levels as the game renames them after loading (3.7
    // src/dungeon.c:1147-1151): the role's file code for `x-`; a
    // CrecelleHack Rogue's goal takes its victim's (src/dungeon.c:1152-1156).
    // xNetHack's recordings give the prototype name and this as `c_proto`;
    // the others give this as `name`.
    let victim = log
        .iter()
        .rev()
        .find(|d| d.site == Site::RogueVictim && d.n != 100)
        .and_then(|d| target.game().inputs.roles.get(d.r as usize));
    let code = inputs.role.map_or("Val", |r| r.code);
    let runtime = |name: &str| match name.strip_prefix("x-") {
        Some("goal") if victim.is_some() => format!("{}-goal", victim.unwrap_or(&code)),
        Some(rest) => format!("{code}-{rest}"),
        None => name.to_string(),
    };
    let (want_levels, got_levels) = (line["levels"].as_array(), ours["levels"].as_array());
    if let (Some(w), Some(g)) = (want_levels, got_levels) {
        for (i, (w, g)) in w.iter().zip(g).enumerate() {
            let want = w
                .get("c_proto")
                .unwrap_or(&w["name"])
                .as_str()
                .unwrap_or("");
            let got = runtime(g["name"].as_str().unwrap_or(""));
            if want != got {
                return Err(format!("levels[{i}]: {want} recorded, dgnkit {got}"));
            }
            // The game's bitfield: xNetHack's recordings name it
            // `c_flags_align` (their `align` is the declared mask).
            let want = w.get("c_flags_align").unwrap_or(&w["align"]);
            if *want != g["align"] {
                return Err(format!(
                    "levels[{i}].align: {want} recorded, dgnkit {}",
                    g["align"]
                ));
            }
        }
    }
    for (list, keys) in [
        (
            "dungeons",
            &[
                "name",
                "bones",
                "num_levels",
                "ledger_start",
                "depth_start",
                "entry_level",
            ][..],
        ),
        ("levels", &["bones", "dungeon", "level"][..]),
        ("branches", &["type", "end1", "end2", "end1_up"][..]),
    ] {
        let (want, got) = (line[list].as_array(), ours[list].as_array());
        let (Some(want), Some(got)) = (want, got) else {
            return Err(format!("{list}: missing"));
        };
        if want.len() != got.len() {
            return Err(format!(
                "{list}: {} recorded, dgnkit {}",
                want.len(),
                got.len()
            ));
        }
        for (i, (w, g)) in want.iter().zip(got).enumerate() {
            for k in keys {
                if w[*k] != g[*k] {
                    return Err(format!(
                        "{list}[{i}].{k}: {} recorded, dgnkit {}",
                        w[*k], g[*k]
                    ));
                }
            }
        }
    }
    Ok(())
}

fn check_fork(name: &str) {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let &(_, target, corpus) = FORKS.iter().find(|f| f.0 == name).expect("a fork");
    let dir = shared.join("expected/variants").join(name);
    let script = script(&shared, target, corpus);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the fork's recordings")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".jsonl.gz"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no recordings in {}", dir.display());
    let mut lines = 0;
    let mut failures = Vec::new();
    for path in &files {
        for (n, line) in dgnkit_tests::gz_json_lines(path).expect("readable") {
            let line = line.expect("a JSON line");
            lines += 1;
            if let Err(e) = check_line(target, &script, &line) {
                failures.push(format!(
                    "{}:{n} (seed {}, {}, wizard {}): {e}",
                    path.file_name().unwrap_or_default().to_string_lossy(),
                    line["seed"],
                    line["options"]["role"],
                    line["wizard"]
                ));
            }
        }
    }
    assert!(lines > 0);
    assert!(
        failures.is_empty(),
        "{} of {lines} {name} game starts differ:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn xnethack_game_starts_draw_the_same() {
    check_fork("xnethack");
}

#[test]
fn splicehack_game_starts_draw_the_same() {
    check_fork("splicehack");
}

#[test]
fn nerfhack_game_starts_draw_the_same() {
    check_fork("nerfhack");
}

#[test]
fn crecellehack_game_starts_draw_the_same() {
    check_fork("crecellehack");
}

#[test]
fn xnethacks_prelude_gives_four_scripts_each_a_quarter() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let s = script(&shared, Target::XNetHack, "copperwater__xNetHack@3.7");
    let prelude = s.prelude.as_ref().expect("xNetHack's file draws");
    assert_eq!(prelude.outcomes.len(), 4);
    assert_eq!(prelude.chances(), vec![0.25; 4]);
    // A pure-data file has none.
    let v = script(&shared, Target::NerfHack, "elunna__NerfHack");
    assert!(v.prelude.is_none());
}

/// Each fork's exact statistics (xNetHack's mixed over its file's four
/// outcomes) against 20,000 layouts of its loader, seed by seed, the
/// file's own draws made on the game's generator: every special level's
/// existence, level and depth, and every dungeon's size, matched by name.
#[test]
fn each_forks_exact_statistics_agree_with_its_loaders_layouts() {
    use dgnkit::stats::{self, Approach, Method, StatsOptions};
    use dgnkit_tests::agrees;
    use std::collections::BTreeMap;
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    const N: u64 = 20_000;
    for &(name, target, corpus) in FORKS {
        let script = script(&shared, target, corpus);
        let game = target.game();
        let opts = StatsOptions {
            game: game.loader_game(),
            bones: game.bones_options(),
            approach: Approach::Exact,
            ..StatsOptions::default()
        };
        let exact = stats::exact(&script, &opts).expect("enumerates");
        assert!(matches!(exact.method, Method::Exact { .. }), "{name}");
        let res = Resolver::for_game(&script, &game.loader_game(), &LoaderInputs::default())
            .expect("resolver");
        // (dungeon, level name) -> (count, level counts, depth counts).
        type Counts = (f64, BTreeMap<i32, f64>, BTreeMap<i32, f64>);
        let mut levels: BTreeMap<(String, String), Counts> = BTreeMap::new();
        let mut sizes: BTreeMap<String, BTreeMap<i32, f64>> = BTreeMap::new();
        let mut out = Resolved::default();
        let mut failures = 0.0;
        for seed in 0..N {
            if res
                .resolve_into(seed, RngKind::Isaac64, false, &mut out)
                .is_err()
            {
                failures += 1.0;
                continue;
            }
            let layout = out.to_layout(&res, None);
            for d in &layout.dungeons {
                *sizes
                    .entry(d.name.clone())
                    .or_default()
                    .entry(d.num_levels)
                    .or_default() += 1.0;
            }
            for l in &layout.levels {
                let d = &layout.dungeons[l.dungeon as usize];
                let e = levels.entry((d.name.clone(), l.name.clone())).or_default();
                e.0 += 1.0;
                *e.1.entry(l.level).or_default() += 1.0;
                *e.2.entry(d.depth_start + l.level - 1).or_default() += 1.0;
            }
        }
        let n = N as f64;
        assert!(agrees(exact.failure, failures, n), "{name}: failure");
        let ok = n - failures;
        for l in &exact.levels {
            // A record whose name the file's draws choose ("baalz or
            // geryon"): all of its names in its dungeon.
            let (mut k, mut at, mut depth) = Counts::default();
            for n in l.name.split(" or ") {
                if let Some((c, a, d)) = levels.get(&(l.dungeon.clone(), n.to_string())) {
                    k += c;
                    for (v, x) in a {
                        *at.entry(*v).or_default() += x;
                    }
                    for (v, x) in d {
                        *depth.entry(*v).or_default() += x;
                    }
                }
            }
            let namesakes: Vec<f64> = exact
                .levels
                .iter()
                .filter(|e| e.dungeon == l.dungeon && e.name == l.name)
                .map(|e| e.exists)
                .collect();
            if namesakes.len() > 1 {
                // SpliceHack's two `bigrm`: their expected number.
                let mean: f64 = namesakes.iter().sum::<f64>() * ok;
                let var: f64 = namesakes.iter().map(|e| e * (1.0 - e)).sum::<f64>() * ok;
                assert!(
                    (k - mean).abs() <= 6.0 * var.sqrt() + 1.0,
                    "{name}: {} x{}",
                    l.name,
                    namesakes.len()
                );
                continue;
            }
            assert!(
                agrees(l.exists, k, ok),
                "{name}: {} in {}: {} vs {k}",
                l.name,
                l.dungeon,
                l.exists
            );
            for (dist, counts, what) in [(&l.level, &at, "level"), (&l.depth, &depth, "depth")] {
                for (v, c) in counts {
                    let p = dist.get(v).copied().unwrap_or(0.0);
                    assert!(p > 0.0, "{name}: {} {what} {v} exactly impossible", l.name);
                    assert!(
                        agrees(p, *c, k),
                        "{name}: {} {what} {v}: {p} vs {c}/{k}",
                        l.name
                    );
                }
            }
        }
        // Every level the loader placed is one the statistics know.
        for (d, l) in levels.keys() {
            assert!(
                exact
                    .levels
                    .iter()
                    .any(|e| &e.dungeon == d && e.name.split(" or ").any(|n| n == l)),
                "{name}: {l} in {d} missing from the statistics"
            );
        }
        for d in &exact.dungeons {
            for (v, c) in sizes.get(&d.name).into_iter().flatten() {
                let p = d.num_levels.get(v).copied().unwrap_or(0.0);
                assert!(agrees(p, *c, ok * d.exists), "{name}: {} size {v}", d.name);
            }
        }
    }
}

/// dgnkit's built-in description of each fork (what `dgn layout --target`
/// and `dgn xlog` use without a file) lays out like the game's own file,
/// draw for draw, for every role of the game, in both modes.
#[test]
fn each_forks_built_in_description_resolves_like_its_own_file() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    for &(name, target, corpus) in FORKS {
        let theirs = script(&shared, target, corpus);
        let (_, bytes) = dgnkit_cli::layout::built_in(target);
        let opts = CheckOptions {
            target,
            dialect: target.game().dialect,
            ..CheckOptions::default()
        };
        let analysis = dgnkit::frontend::analyze_fast(bytes, &opts);
        assert!(!analysis.has_errors(), "{name}: {:?}", analysis.diagnostics);
        let ours = analysis.script.expect("the built-in file reads");
        assert_eq!(
            ours.prelude.as_ref().map(|p| p.outcomes.len()),
            theirs.prelude.as_ref().map(|p| p.outcomes.len()),
            "{name}"
        );
        let game = target.game();
        for role in game.inputs.roles {
            for wizard in [false, true] {
                let inputs = LoaderInputs::parse(Some(role), None, &[], false, wizard).unwrap();
                let a = Resolver::for_game(&theirs, &game.loader_game(), &inputs).unwrap();
                let b = Resolver::for_game(&ours, &game.loader_game(), &inputs).unwrap();
                for seed in 0..40 {
                    let want = a.resolve(seed, RngKind::Isaac64, wizard, true);
                    let got = b.resolve(seed, RngKind::Isaac64, wizard, true);
                    assert_eq!(got, want, "{name}: {role}, seed {seed}, wizard {wizard}");
                }
            }
        }
    }
}

/// Every `dungeon.lua` of the four forks in the corpus (their releases and
/// their copies, by MANIFEST.tsv) checks in its own game without an error.
#[test]
fn every_forks_dungeon_lua_checks_without_errors_in_its_game() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let manifest = std::fs::read_to_string(shared.join("corpus/MANIFEST.tsv")).unwrap();
    let mut checked = 0;
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (dir, repo) = (cols[0], cols.get(1).copied().unwrap_or(""));
        let target = match repo.split('/').nth(1).unwrap_or("") {
            "xNetHack" => Target::XNetHack,
            "SpliceHack" => Target::SpliceHack,
            "NerfHack" => Target::NerfHack,
            "CrecelleHack" => Target::CrecelleHack,
            _ => continue,
        };
        let path = shared.join("corpus").join(dir).join("dungeon.lua");
        let Ok(src) = std::fs::read(&path) else {
            continue;
        };
        checked += 1;
        let opts = CheckOptions {
            target,
            dialect: target.game().dialect,
            ..CheckOptions::default()
        };
        let a = dgnkit::frontend::analyze(&src, &opts);
        let errors: Vec<String> = a
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        assert!(errors.is_empty(), "{dir} ({}): {errors:?}", target.name());
    }
    assert!(checked >= 10, "only {checked} files");
}

/// xNetHack's rule 5 is its `Invocation_lev` (src/bones.c:32,
/// src/dungeon.c:2051-2055): only the level above the sanctum's dungeon's
/// bottom, not that of each of its seven other hellish dungeons, which
/// NetHack 3.7's rule would forbid.
#[test]
fn xnethack_forbids_bones_above_the_bottom_of_the_sanctums_dungeon_only() {
    use dgnkit::bones::{level_facts, level_verdict, Rule};
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let script = script(&shared, Target::XNetHack, "copperwater__xNetHack@3.7");
    let game = Target::XNetHack.game();
    let res = Resolver::for_game(&script, &game.loader_game(), &LoaderInputs::default()).unwrap();
    let opts = game.bones_options();
    let vanilla = Target::NetHack37.game().bones_options();
    let mut hellish_others = 0;
    for seed in 0..20 {
        let layout = res.resolve(seed, RngKind::Isaac64, false, false).unwrap();
        let sanctum = layout.levels.iter().find(|l| l.name == "sanctum").unwrap();
        for (d, dungeon) in layout.dungeons.iter().enumerate() {
            if !dungeon.hellish || dungeon.num_levels < 3 {
                continue;
            }
            let above_bottom = dungeon.num_levels - 1;
            let ours = level_facts(&layout, d, above_bottom, &opts).unwrap();
            let theirs = level_facts(&layout, d, above_bottom, &vanilla).unwrap();
            // 3.7's rule 5 holds in every hellish dungeon.
            assert!(theirs.vibrating, "seed {seed}: {}", dungeon.name);
            if d as i32 == sanctum.dungeon {
                assert!(ours.vibrating, "seed {seed}");
            } else {
                assert!(!ours.vibrating, "seed {seed}: {}", dungeon.name);
                let verdict = level_verdict(&layout, d, above_bottom, &opts).unwrap();
                assert_ne!(verdict.rule, Rule::VibratingSquare);
                hellish_others += 1;
            }
        }
    }
    assert!(hellish_others > 0, "no other hellish dungeon was judged");
}

/// `dgn find` on xNetHack's own file: a lair's name is looked up in the
/// script of each seed's outcome, so `geryon.dungeon == "Cocytus"` holds
/// exactly on the seeds whose layout puts geryon there (about half).
#[test]
fn find_follows_xnethacks_draws_seed_by_seed() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let script = script(&shared, Target::XNetHack, "copperwater__xNetHack@3.7");
    let game = Target::XNetHack.game();
    let res = Resolver::for_game(&script, &game.loader_game(), &LoaderInputs::default()).unwrap();
    let bones = game.bones_options();
    let query = dgnkit::find::compile(r#"geryon.dungeon == "Cocytus" and orcus.depth > 0"#, &res)
        .expect("the query compiles");
    let finder = dgnkit::find::Finder::new(&res, &query, &bones, RngKind::Isaac64, false, true);
    let mut hits = 0;
    for seed in 0..400u64 {
        let layout = res.resolve(seed, RngKind::Isaac64, false, false).unwrap();
        let geryon = layout.levels.iter().find(|l| l.name == "geryon").unwrap();
        let want = layout.dungeons[geryon.dungeon as usize].name == "Cocytus";
        let got = finder.test(seed).unwrap();
        assert_eq!(got, want, "seed {seed}");
        hits += u32::from(want);
    }
    assert!((150..250).contains(&hits), "{hits} of 400");
}
