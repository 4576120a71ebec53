//! Parity of the loader with each variant family's own `init_dungeons()`:
//! every line of every `layouts.<rng>[.<set>...].jsonl.gz` in
//! `../shared/expected/variants/<family>/` is resolved again with the
//! family's rules, generator, seed and inputs, and compared whole (every
//! field of the line, the draw log included); a mismatch names the first
//! differing draw and what it was for. The `--seeds` JSON writer must give
//! the same line.
//!
//! The family is the `--target` of the same name; the sets in a file name
//! are the loader's inputs: `wizard`, `game` (the game's own start:
//! `--game-start`), `role-R` (`--role R`) and `NAME-VALUE` (`--option
//! NAME=VALUE`, e.g. dNetHack's `chaos_quest-temple`); a line's own
//! `loader_inputs` (dNetHack's) add the race and `is_june`. A set this
//! test does not know fails, so a new fixture is never skipped silently.

use dgnkit::frontend::{analyze_fast, CheckOptions};
use dgnkit::games::LoaderInputs;
use dgnkit::layout::Layout;
use dgnkit::loader::{Resolved, Resolver};
use dgnkit::options::Target;
use dgnkit::rng::{self, Draw, RngKind};
use dgnkit::views;
use std::path::Path;

/// A family's source in the corpus: the file its fixtures' `dungeon.bin`
/// was compiled from (each README says which).
struct Family {
    target: Target,
    corpus: &'static str,
    defines: &'static [&'static str],
    undefines: &'static [&'static str],
}

fn family(name: &str) -> Option<Family> {
    Some(match name {
        "unnethack" => Family {
            target: Target::UnNetHack,
            corpus: "k21971__UnNetHack",
            defines: &[],
            undefines: &[],
        },
        "dynahack" => Family {
            target: Target::DynaHack,
            corpus: "DynaMoHack__DynaHack",
            // makedefs -e keeps `%REINCARNATION` lines (its only flag).
            defines: &["REINCARNATION"],
            undefines: &[],
        },
        "slashem" => Family {
            target: Target::SlashEm,
            corpus: "dirkz__slashem-iphone",
            defines: &[],
            // Its default build leaves REINCARNATION undefined (README,
            // "Compiler"): makedefs drops the rogue level.
            undefines: &["REINCARNATION"],
        },
        "dnethack" => Family {
            target: Target::DNetHack,
            corpus: "Chris-plus-alphanumericgibberish__dNAO@HEAD",
            // config.h:341 defines it; makedefs keeps the rogue level.
            defines: &["REINCARNATION"],
            undefines: &[],
        },
        "evilhack" => Family {
            target: Target::EvilHack,
            corpus: "k21971__EvilHack@HEAD",
            defines: &[],
            undefines: &[],
        },
        "gnollhack" => Family {
            target: Target::GnollHack,
            corpus: "k21971__GnollHack",
            defines: &[],
            undefines: &[],
        },
        _ => return None,
    })
}

/// What a file name says: its generator and sets.
struct Sets {
    rng: RngKind,
    wizard: bool,
    game_start: bool,
    role: Option<String>,
    /// `NAME=VALUE`.
    options: Vec<String>,
}

fn parse_file_name(file: &str) -> Result<Sets, String> {
    let stem = file
        .strip_prefix("layouts.")
        .and_then(|s| s.strip_suffix(".jsonl.gz"))
        .ok_or_else(|| format!("{file}: not layouts.<rng>[.<set>].jsonl.gz"))?;
    let mut parts = stem.split('.');
    let rng = parts.next().unwrap_or_default();
    let mut sets = Sets {
        rng: RngKind::parse(rng).ok_or_else(|| format!("{file}: unknown generator {rng}"))?,
        wizard: false,
        game_start: false,
        role: None,
        options: Vec::new(),
    };
    for set in parts {
        match set.split_once('-') {
            _ if set == "wizard" => sets.wizard = true,
            _ if set == "game" => sets.game_start = true,
            Some(("role", role)) => sets.role = Some(role.to_string()),
            Some((name, value)) if !name.is_empty() => sets.options.push(format!("{name}={value}")),
            _ => return Err(format!("{file}: unknown set {set:?}")),
        }
    }
    Ok(sets)
}

fn script(shared: &Path, fam: &Family) -> Result<dgnkit::script::Script, String> {
    let path = shared.join("corpus").join(fam.corpus).join("dungeon.def");
    let src = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let opts = CheckOptions {
        target: Target::Native,
        dialect: fam.target.game().dialect,
        defines: fam.defines.iter().map(|s| s.to_string()).collect(),
        undefines: fam.undefines.iter().map(|s| s.to_string()).collect(),
        ..CheckOptions::default()
    };
    let a = analyze_fast(&src, &opts);
    a.script
        .ok_or_else(|| format!("{}: {:?}", path.display(), a.diagnostics))
}

/// The first difference between two lines, named.
fn first_difference(
    want: &serde_json::Value,
    got: &serde_json::Value,
    resolver: &Resolver,
    draws: &[Draw],
) -> String {
    let calls = |v: &serde_json::Value| -> Vec<String> {
        v["rng_calls"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|c| c.as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let (w, g) = (calls(want), calls(got));
    if let Some(i) = (0..w.len().max(g.len())).find(|&i| w.get(i) != g.get(i)) {
        let at = draws
            .get(i)
            .map(|d| format!(" @ {}", resolver.describe_site(d.site)))
            .unwrap_or_default();
        return format!(
            "first differing draw #{i}: expected {}, got {}{at}",
            w.get(i).map_or("(none)", String::as_str),
            g.get(i).map_or("(none)", String::as_str)
        );
    }
    let (Some(wo), Some(go)) = (want.as_object(), got.as_object()) else {
        return "not objects".into();
    };
    for key in wo.keys().chain(go.keys()) {
        if wo.get(key) != go.get(key) {
            return format!(
                "field {key:?}:\n  expected {}\n  got      {}",
                wo.get(key).map_or("(absent)".into(), |v| v.to_string()),
                go.get(key).map_or("(absent)".into(), |v| v.to_string())
            );
        }
    }
    "equal".into()
}

/// The loader inputs of one line: its file's sets, and what the line's
/// `loader_inputs` (dNetHack's) say of the role, race and month.
fn line_inputs(sets: &Sets, line: &serde_json::Value) -> Result<LoaderInputs, String> {
    let reported = &line["loader_inputs"];
    let role = reported["role"].as_str().or(sets.role.as_deref());
    let race = reported["race"].as_str();
    let mut options = sets.options.clone();
    if let Some(june) = reported["is_june"].as_bool() {
        options.push(format!("is_june={june}"));
    }
    let mut inputs = LoaderInputs::parse(role, race, &options, sets.game_start, sets.wizard)?;
    // A file without `game` was made without the game's start, whatever
    // the game's default.
    inputs.game_start = Some(sets.game_start);
    Ok(inputs)
}

/// Checks one file; returns (lines checked, failures).
fn check_file(shared: &Path, fam: &Family, dir: &Path, file: &str) -> (usize, Vec<String>) {
    let sets = match parse_file_name(file) {
        Ok(s) => s,
        Err(e) => return (0, vec![e]),
    };
    let script = match script(shared, fam) {
        Ok(s) => s,
        Err(e) => return (0, vec![e]),
    };
    if sets.rng != fam.target.game().rng {
        return (0, vec![format!("{file}: not the game's generator")]);
    }
    let lines_of = match dgnkit_tests::gz_json_lines(&dir.join(file)) {
        Ok(l) => l,
        Err(e) => return (0, vec![e]),
    };
    let (mut lines, mut failures) = (0, Vec::new());
    let mut out = Resolved::default();
    for (n, want) in lines_of {
        lines = n;
        let want = match want {
            Ok(v) => v,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let seed = want["seed"].as_u64().unwrap_or(u64::MAX);
        let resolver = match line_inputs(&sets, &want).and_then(|i| {
            Resolver::for_game(&script, &fam.target.game().loader_game(), &i)
                .map_err(|e| e.to_string())
        }) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{file} seed {seed}: {e}"));
                continue;
            }
        };
        let mut log = Vec::new();
        let result = resolver.resolve_traced(seed, sets.rng, sets.wizard, &mut out, &mut log);
        // The game's start is not the loader's: rng_calls leave it out.
        log.retain(|d| !d.site.before_loader());
        let calls = Some(rng::rng_calls(&log));
        let got = match result {
            Ok(()) => out.to_layout(&resolver, calls),
            Err(e) => {
                let partial = Layout {
                    rng_calls: calls,
                    ..Layout::default()
                };
                let got = serde_json::to_value(&partial).unwrap_or_default();
                let why = first_difference(&want, &got, &resolver, &log);
                failures.push(format!("{file} seed {seed}: error {e} ({why})"));
                continue;
            }
        };
        let got_value = serde_json::to_value(&got).unwrap_or_default();
        if got_value != want {
            failures.push(format!(
                "{file} seed {seed}: {}",
                first_difference(&want, &got_value, &resolver, &log)
            ));
            continue;
        }
        let mut text = Vec::new();
        views::JsonLines::new(&resolver).write(&resolver, &out, &mut text);
        let without_log = Layout {
            rng_calls: None,
            ..got
        };
        if text != views::json_line(&without_log).as_bytes() {
            failures.push(format!(
                "{file} seed {seed}: the --seeds JSON line differs: {}",
                String::from_utf8_lossy(&text)
            ));
        }
    }
    if lines == 0 {
        failures.push(format!("{file}: no lines"));
    }
    (lines, failures)
}

/// Every fixture file of one family; fails on any difference.
fn check_family(name: &str) {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let fam = family(name).expect("a family of this test");
    let dir = shared.join("expected/variants").join(name);
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".jsonl.gz"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no layouts in {}", dir.display());
    let (mut lines, mut failures) = (0, Vec::new());
    for file in &files {
        let (n, f) = check_file(&shared, &fam, &dir, file);
        lines += n;
        failures.extend(f.into_iter().take(3));
    }
    assert!(
        failures.is_empty(),
        "{name}: {} files, {lines} lines checked:\n{}",
        files.len(),
        failures.join("\n")
    );
    eprintln!("{name}: {} files, {lines} layouts: all match", files.len());
}

#[test]
fn unnethack_layouts_match() {
    check_family("unnethack");
}

#[test]
fn dynahack_layouts_match() {
    check_family("dynahack");
}

#[test]
fn slashem_layouts_match() {
    check_family("slashem");
}

#[test]
fn dnethack_layouts_match() {
    check_family("dnethack");
}

#[test]
fn evilhack_layouts_match() {
    check_family("evilhack");
}

#[test]
fn gnollhack_layouts_match() {
    check_family("gnollhack");
}

#[test]
fn file_names_give_the_loader_inputs() {
    let s = parse_file_name("layouts.glibc.wizard.chaos_quest-mordor.jsonl.gz").unwrap();
    assert!(s.wizard && !s.game_start && s.role.is_none());
    assert_eq!(s.options, ["chaos_quest=mordor"]);
    let s = parse_file_name("layouts.glibc.role-Hea.jsonl.gz").unwrap();
    assert_eq!(s.role.as_deref(), Some("Hea"));
    assert!(parse_file_name("layouts.glibc.oddset.jsonl.gz").is_err());
}

#[test]
fn every_family_with_fixtures_is_known_or_listed() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    // NetHack 3.7's forks: their recordings are game starts (draws before
    // and after the loader, by role), proven in `forks37_parity`.
    const ELSEWHERE: &[&str] = &["xnethack", "splicehack", "nerfhack", "crecellehack"];
    let dir = shared.join("expected/variants");
    for e in std::fs::read_dir(&dir)
        .expect("expected/variants")
        .flatten()
    {
        if !e.path().is_dir() {
            continue;
        }
        let name = e.file_name().to_string_lossy().into_owned();
        let proven = Target::parse(&name).is_some_and(|t| t.game().loader_proven());
        assert!(
            family(&name).is_some() || (ELSEWHERE.contains(&name.as_str()) && proven),
            "expected/variants/{name} has fixtures but no parity test"
        );
    }
}

/// Bones follow the family's rules on its own layouts: pool suffixes in
/// the file names, its magic-portal levels, the floating Advent Calendar
/// entrance that leaves no branch level behind.
#[test]
fn bones_follow_each_familys_rules() {
    use dgnkit::bones::{layout_verdicts, Rule};
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    for (name, suffix) in [("unnethack", ".2"), ("dynahack", ".*")] {
        let fam = family(name).expect("family");
        let script = script(&shared, &fam).expect("script");
        let res = fam.target.game().resolver(&script).expect("resolver");
        // Seed 7: UnNetHack's pool is 7 % 5; DynaHack's comes from the
        // start time, which the seed does not tell.
        let layout = res
            .resolve(7, fam.target.game().rng, false, false)
            .expect("layout");
        let opts = fam.target.game().bones_options();
        let verdicts = layout_verdicts(&layout, &opts);
        for v in &verdicts {
            if let Some(f) = &v.file {
                assert!(f.ends_with(suffix), "{name}: {f}");
            }
        }
        // The Advent Calendar's portal level in the Dungeons of Doom is
        // no branch level once the entrance floats.
        let n = layout.dungeons.len() as i32;
        let advcal = layout
            .branches
            .iter()
            .find(|b| {
                b.end1.dungeon == n
                    && layout.dungeons[b.end2.dungeon as usize].name == "Advent Calendar"
            })
            .expect("floating Advent Calendar branch");
        assert!(verdicts
            .iter()
            .filter(|v| v.dungeon_index == 0 && v.level == advcal.end1.level)
            .all(|v| v.verdict.rule != Rule::BranchLevel));
        if name == "unnethack" {
            let sheolmid = verdicts
                .iter()
                .find(|v| v.special.as_deref() == Some("sheolmid"))
                .expect("sheolmid");
            assert_eq!(
                sheolmid.verdict.rule,
                Rule::MagicPortal,
                "{}",
                sheolmid.rule
            );
        }
    }
}

/// The overview is the family's own `print_dungeon()` text: UnNetHack marks
/// levels and branches as 3.6 does, DynaHack indents as 3.4.3.
#[test]
fn overview_follows_each_familys_print_dungeon() {
    use dgnkit::views::overview;
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    // A level line: `"%c "` with a blank (the hero is on no special
    // level), or three blanks.
    for (name, indent) in [("unnethack", "  "), ("dynahack", "   ")] {
        let fam = family(name).expect("family");
        let script = script(&shared, &fam).expect("script");
        let res = fam.target.game().resolver(&script).expect("resolver");
        let layout = res
            .resolve(0, fam.target.game().rng, false, false)
            .expect("layout");
        let text = overview(&layout, fam.target.game().overview);
        // The hero stands on level 1 of the Dungeons of Doom, a special
        // level in neither game; the second line is its first level or
        // branch line.
        let first_level = layout.levels.first().expect("levels");
        let line = text
            .lines()
            .find(|l| l.contains(&format!("{}: ", first_level.name)));
        let line = line.expect("a line for the first special level");
        assert_eq!(
            &line[..line.len() - line.trim_start().len()],
            indent,
            "{name}: {line:?}"
        );
        // The planes are listed in the shuffled chain order.
        let planes: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("The Elemental Planes"))
            .skip(1)
            .take_while(|l| l.starts_with(' ') || l.starts_with('*'))
            .filter_map(|l| l.trim_start_matches(['*', ' ']).split(':').next())
            .collect();
        let chain: Vec<&str> = layout
            .levels
            .iter()
            .filter(|l| layout.dungeons[l.dungeon as usize].name == "The Elemental Planes")
            .map(|l| l.name.as_str())
            .collect();
        assert_eq!(planes, chain, "{name}");
    }
}

/// GnollHack's and EvilHack's bones rules on their own layouts (seeds
/// 0-19): GnollHack keeps level 1 of the Dungeons of Doom free (rule 9,
/// its `bones.c:72`) and only there, names files `bon-<difficulty>...`;
/// EvilHack's valley waits for Cerberus (rule 13, its `bones.c:39`).
#[test]
fn gnollhack_and_evilhack_bones_rules() {
    use dgnkit::bones::{layout_verdicts, Rule};
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    for name in ["gnollhack", "evilhack"] {
        let fam = family(name).expect("family");
        let script = script(&shared, &fam).expect("script");
        let res = fam.target.game().resolver(&script).expect("resolver");
        let opts = fam.target.game().bones_options();
        for seed in 0..20 {
            let layout = res
                .resolve(seed, fam.target.game().rng, false, false)
                .expect("layout");
            let verdicts = layout_verdicts(&layout, &opts);
            let first = verdicts
                .iter()
                .find(|v| v.dungeon_index == 0 && v.level == 1)
                .expect("level 1");
            for v in &verdicts {
                let level_one = v.verdict.rule == Rule::LevelOne;
                // Only GnollHack's Dungeons of Doom level 1.
                assert_eq!(
                    level_one,
                    name == "gnollhack" && v.dungeon_index == 0 && v.level == 1,
                    "{name} seed {seed}: {} level {}: {}",
                    v.dungeon,
                    v.level,
                    v.rule
                );
                if let Some(f) = &v.file {
                    assert_eq!(f.starts_with("bon-*"), name == "gnollhack", "{f}");
                }
                let event = v.verdict.rule == Rule::UntilEvent;
                assert_eq!(
                    event,
                    name == "evilhack" && v.special.as_deref() == Some("valley"),
                    "{name} seed {seed}: {}",
                    v.rule
                );
                if event {
                    assert!(!v.can_load && v.rule.contains("Cerberus"), "{}", v.rule);
                }
                if v.special.as_deref() == Some("purgatory-1") {
                    // Its portal (rule 6) comes after its marker "none".
                    assert_eq!(v.verdict.rule, Rule::SpecialNone, "{}", v.rule);
                }
            }
            if name == "gnollhack" {
                assert!(!first.can_load && first.file.is_none());
                // Hellish Pastures holds no bones: its one level is its
                // bottom (its marker "none" decides first).
                let pastures = verdicts
                    .iter()
                    .find(|v| v.dungeon == "Hellish Pastures")
                    .expect("Hellish Pastures");
                assert!(!pastures.can_load, "{}", pastures.rule);
                // The hellish rule, after rule 9, on Gehennom.
                let g = &layout.dungeons[1];
                let vib = verdicts
                    .iter()
                    .find(|v| v.dungeon == g.name && v.level == g.num_levels - 1)
                    .expect("vibrating square level");
                assert_eq!(vib.verdict.rule, Rule::VibratingSquare, "{}", vib.rule);
            } else {
                // 3.6's rules elsewhere: level 1 is judged by depth.
                assert_eq!(first.verdict.rule, Rule::DepthRoll, "{}", first.rule);
            }
        }
    }
}

/// `dgn stats` for both families is exact (no sampling), with their bones
/// rules in it: GnollHack's level 1 of the Dungeons of Doom is decided by
/// rule 9 in every layout, EvilHack's valley by rule 13.
#[test]
fn gnollhack_and_evilhack_stats_are_exact() {
    use dgnkit::stats::{self, Method, StatsOptions};
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    for (name, dungeon, level, rule) in [
        ("gnollhack", "The Dungeons of Doom", 1, "9"),
        ("evilhack", "Gehennom", 1, "13"),
    ] {
        let fam = family(name).expect("family");
        let script = script(&shared, &fam).expect("script");
        let opts = StatsOptions {
            game: fam.target.game().loader_game(),
            bones: fam.target.game().bones_options(),
            ..StatsOptions::default()
        };
        let s = stats::exact(&script, &opts).expect("enumerable");
        assert!(matches!(s.method, Method::Exact { .. }), "{name}");
        let cell = s
            .bones
            .iter()
            .find(|c| c.dungeon == dungeon && c.level == level)
            .expect("cell");
        let decided: Vec<(&String, &f64)> = cell.bones.decided_by.iter().collect();
        assert_eq!(decided.len(), 1, "{name}: {decided:?}");
        assert_eq!(decided[0].0, rule, "{name}: {decided:?}");
        assert!((decided[0].1 - 1.0).abs() < 1e-12);
        assert_eq!(cell.bones.can_load, 0.0);
    }
}

/// GnollHack looks up ten dungeons by name after loading and panics on a
/// missing one (its `dungeon.c:1012-1021`): dgnkit answers with an error
/// naming it, for each of the ten.
#[test]
fn gnollhack_needs_its_ten_dungeons() {
    use dgnkit::loader::LoadError;
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let fam = family("gnollhack").expect("family");
    let full = script(&shared, &fam).expect("script");
    let required = fam.target.game().rules.required_dungeons;
    assert_eq!(required.len(), 10);
    for name in required {
        // Renamed, with the branches into it, so that loading succeeds
        // up to the lookups.
        let mut s = full.clone();
        let renamed = b"Somewhere Else".to_vec();
        for d in &mut s.dungeons {
            if d.name == name.as_bytes() {
                d.name = renamed.clone();
            }
            for b in &mut d.branches {
                if b.target == name.as_bytes() {
                    b.target = renamed.clone();
                }
            }
        }
        let res = fam.target.game().resolver(&s).expect("resolver");
        match res.resolve(1, fam.target.game().rng, false, false) {
            Err(LoadError::MissingDungeon { name: missing }) => assert_eq!(&missing, name),
            other => panic!("without {name}: {other:?}"),
        }
    }
}

/// GnollHack's overview lists special levels under their display names
/// (its `print_dungeon` prints `s_level.name`), on every fixture seed's
/// layout; EvilHack's is 3.6's.
#[test]
fn gnollhack_overview_uses_display_names() {
    use dgnkit::views::overview;
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    assert_eq!(
        Target::EvilHack.game().overview,
        Target::NetHack36.game().overview
    );
    let fam = family("gnollhack").expect("family");
    let script = script(&shared, &fam).expect("script");
    let res = fam.target.game().resolver(&script).expect("resolver");
    for seed in 0..50 {
        let layout = res
            .resolve(seed, fam.target.game().rng, false, false)
            .expect("layout");
        let text = overview(&layout, fam.target.game().overview);
        for l in &layout.levels {
            let display = l.display_name.as_deref().expect("a display name");
            assert!(
                text.contains(&format!(" {display}: ")),
                "seed {seed}: {display} missing:\n{text}"
            );
        }
        assert!(text.contains("Delphi: "), "{text}");
        assert!(!text.contains(" oracle: "), "{text}");
    }
}

/// The games' own compiled files (`dungeon.bin`, read as their family's
/// layout) lay out exactly as the source for every fixture seed, normal and
/// wizard: the reader keeps what the loader needs (GnollHack's TILESET and
/// display names included).
#[test]
fn evilhack_and_gnollhack_compiled_files_lay_out_as_their_source() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    for name in ["evilhack", "gnollhack"] {
        let fam = family(name).expect("family");
        let source = script(&shared, &fam).expect("script");
        let path = shared
            .join("expected/variants")
            .join(name)
            .join("dungeon.bin");
        let bytes = std::fs::read(&path).expect("dungeon.bin");
        let read = dgnkit::binary::read(&bytes, None).expect("the game's file reads");
        assert_eq!(
            Target::of_format(read.format),
            fam.target,
            "{name}: detected family"
        );
        let from_bin = fam.target.game().resolver(&read.script).expect("resolver");
        let from_def = fam.target.game().resolver(&source).expect("resolver");
        let rng = fam.target.game().rng;
        for wizard in [false, true] {
            for seed in 0..50 {
                let a = from_bin.resolve(seed, rng, wizard, true).expect("layout");
                let b = from_def.resolve(seed, rng, wizard, true).expect("layout");
                assert_eq!(a, b, "{name} seed {seed} wizard {wizard}");
            }
        }
    }
}
