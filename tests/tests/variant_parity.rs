//! Parity of the loader with each variant family's own `init_dungeons()`:
//! every line of every `../shared/expected/variants/<family>/layouts.*.jsonl.gz`
//! is resolved again with `--target <family>` and compared whole (the
//! family's extra fields and the draw log included; a mismatch names the
//! first differing draw), and `dgn layout --seeds`' JSON writer must give
//! the same line.
//!
//! A file's name says how it was made:
//! `layouts.<rng>[.wizard][.role-R][.<option>-<value>][.game].jsonl.gz`;
//! a line's own `loader_inputs` (dNetHack) adds the race and `is_june`.
//! The compiled file is the family's `dungeon.bin` when dgnkit reads that
//! family's layout, else the family's source in `../shared/corpus` (the
//! README names it) with the `%FLAG`s of the game's default build.
//!
//! Families whose loader dgnkit does not claim to reproduce
//! (`LoaderProof::NotProven`) are skipped with a message; a proven family
//! must pass every line.

use dgnkit::frontend::{analyze_fast, CheckOptions};
use dgnkit::games::LoaderInputs;
use dgnkit::layout::Layout;
use dgnkit::loader::{Resolved, Resolver};
use dgnkit::options::Target;
use dgnkit::rng::{Draw, RngKind};
use dgnkit::script::Script;
use dgnkit::views;
use flate2::read::GzDecoder;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// How a family's compiled file is made from its source when dgnkit does
/// not read its `dungeon.bin`: the corpus folder and the `%FLAG`s its
/// default build defines (from the family's README).
const SOURCES: &[(Target, &str, &[&str], &[&str])] = &[
    // SLASH'EM: REINCARNATION is not defined (README, "Compiler").
    (
        Target::SlashEm,
        "dirkz__slashem-iphone",
        &[],
        &["REINCARNATION"],
    ),
    // dNAO: REINCARNATION is defined (config.h:341).
    (
        Target::DNetHack,
        "Chris-plus-alphanumericgibberish__dNAO@HEAD",
        &["REINCARNATION"],
        &[],
    ),
];

fn script(shared: &Path, target: Target) -> Result<Script, String> {
    let dir = shared.join("expected/variants").join(target.name());
    if let Some(format) = target.game().binary {
        let bytes = std::fs::read(dir.join("dungeon.bin")).map_err(|e| e.to_string())?;
        return dgnkit::binary::read(&bytes, Some(format))
            .map(|r| r.script)
            .map_err(|e| format!("dungeon.bin: {e}"));
    }
    let Some((_, corpus, defines, undefines)) = SOURCES.iter().find(|s| s.0 == target) else {
        return Err(
            "dgnkit reads no dungeon.bin of this family and the test names no source".into(),
        );
    };
    let src = std::fs::read(shared.join("corpus").join(corpus).join("dungeon.def"))
        .map_err(|e| e.to_string())?;
    let opts = CheckOptions {
        target,
        dialect: target.game().dialect,
        defines: defines.iter().map(|s| s.to_string()).collect(),
        undefines: undefines.iter().map(|s| s.to_string()).collect(),
        ..CheckOptions::default()
    };
    let a = analyze_fast(&src, &opts);
    let errors = a.error_count();
    a.script.ok_or_else(|| format!("{corpus}: {errors} errors"))
}

/// What a file name says: generator, wizard mode, role, options, game start.
struct Made {
    rng: RngKind,
    wizard: bool,
    role: Option<String>,
    options: Vec<String>,
    game_start: bool,
}

fn parse_name(file: &str) -> Option<Made> {
    let stem = file.strip_prefix("layouts.")?.strip_suffix(".jsonl.gz")?;
    let mut parts = stem.split('.');
    let mut made = Made {
        rng: RngKind::parse(parts.next()?)?,
        wizard: false,
        role: None,
        options: Vec::new(),
        game_start: false,
    };
    for part in parts {
        match part {
            "wizard" => made.wizard = true,
            "game" => made.game_start = true,
            _ => match part.split_once('-')? {
                ("role", r) => made.role = Some(r.to_string()),
                (name, value) => made.options.push(format!("{name}={value}")),
            },
        }
    }
    Some(made)
}

/// The inputs of one line: the file's, plus what its `loader_inputs` say.
fn line_inputs(made: &Made, value: &serde_json::Value) -> Result<LoaderInputs, String> {
    let li = &value["loader_inputs"];
    let role = li["role"].as_str().or(made.role.as_deref());
    let race = li["race"].as_str();
    let mut options = made.options.clone();
    if let Some(june) = li["is_june"].as_bool() {
        options.push(format!("is_june={june}"));
    }
    LoaderInputs::parse(role, race, &options, made.game_start, made.wizard)
}

fn first_difference(want: &Layout, got: &Layout, resolver: &Resolver, draws: &[Draw]) -> String {
    let empty = Vec::new();
    let (w, g) = (
        want.rng_calls.as_ref().unwrap_or(&empty),
        got.rng_calls.as_ref().unwrap_or(&empty),
    );
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
    let (a, b) = (
        serde_json::to_value(want).unwrap_or_default(),
        serde_json::to_value(got).unwrap_or_default(),
    );
    let keys = a.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>());
    for k in keys.unwrap_or_default() {
        if a[&k] != b[&k] {
            return format!("{k} differs:\n  expected {}\n  got      {}", a[&k], b[&k]);
        }
    }
    "fields differ".to_string()
}

/// Checks one file; returns (lines checked, failures).
fn check_file(shared: &Path, target: Target, script: &Script, file: &str) -> (usize, Vec<String>) {
    let Some(made) = parse_name(file) else {
        return (0, vec![format!("{file}: unexpected file name")]);
    };
    let path = shared
        .join("expected/variants")
        .join(target.name())
        .join(file);
    let gz = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) => return (0, vec![format!("{file}: {e}")]),
    };
    let (mut lines, mut failures) = (0, Vec::new());
    let mut out = Resolved::default();
    for line in BufReader::new(GzDecoder::new(gz)).lines() {
        let Ok(line) = line else {
            failures.push(format!("{file}: unreadable"));
            break;
        };
        lines += 1;
        let value: serde_json::Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{file}: line {lines}: {e}"));
                continue;
            }
        };
        let seed = value["seed"].as_u64().unwrap_or(u64::MAX);
        let resolver = match line_inputs(&made, &value)
            .map_err(|e| e.to_string())
            .and_then(|i| Resolver::for_game(script, target, &i).map_err(|e| e.to_string()))
        {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{file} seed {seed}: {e}"));
                continue;
            }
        };
        let mut log = Vec::new();
        let result = resolver.resolve_traced(seed, made.rng, made.wizard, &mut out, &mut log);
        let calls: Vec<String> = log.iter().map(Draw::to_string).collect();
        if let Some(panic) = value.get("panic").and_then(|p| p.as_str()) {
            let want: Vec<String> =
                serde_json::from_value(value["rng_calls"].clone()).unwrap_or_default();
            match result {
                Err(e) if e.game_panic(resolver.rules()).as_deref() == Some(panic) && want == calls => {}
                Err(e) => failures.push(format!(
                    "{file} seed {seed}: the game aborts with {panic:?}; we fail with {e:?} after {} draws (it drew {})",
                    calls.len(),
                    want.len()
                )),
                Ok(()) => failures.push(format!(
                    "{file} seed {seed}: the game aborts with {panic:?}; we resolve a layout"
                )),
            }
            continue;
        }
        let want: Layout = match serde_json::from_value(value) {
            Ok(l) => l,
            Err(e) => {
                failures.push(format!("{file} seed {seed}: {e}"));
                continue;
            }
        };
        let got = match result {
            Ok(()) => out.to_layout(&resolver, Some(calls)),
            Err(e) => {
                let got = Layout {
                    rng_calls: Some(calls),
                    ..Layout::default()
                };
                let why = first_difference(&want, &got, &resolver, &log);
                failures.push(format!("{file} seed {seed}: error {e} ({why})"));
                continue;
            }
        };
        if got != want {
            let why = first_difference(&want, &got, &resolver, &log);
            failures.push(format!("{file} seed {seed}: {why}"));
            continue;
        }
        let mut text = Vec::new();
        views::JsonLines::new(&resolver).write(&out, &mut text);
        let without_log = Layout {
            rng_calls: None,
            ..want
        };
        if text != views::json_line(&without_log).as_bytes() {
            failures.push(format!(
                "{file} seed {seed}: the --seeds JSON line differs: {}",
                String::from_utf8_lossy(&text)
            ));
        }
    }
    (lines, failures)
}

#[test]
fn every_variant_layout_matches() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let root = shared.join("expected/variants");
    let mut families: Vec<String> = std::fs::read_dir(&root)
        .expect("expected/variants")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    families.sort();
    let mut failures = Vec::new();
    let mut checked = Vec::new();
    for family in &families {
        let Some(target) = Target::parse(family) else {
            failures.push(format!("{family}: no --target of that name"));
            continue;
        };
        if !target.game().loader_proven() {
            eprintln!("{family}: loader not proven yet, skipped");
            continue;
        }
        let script = match script(&shared, target) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{family}: {e}"));
                continue;
            }
        };
        let mut files: Vec<String> = std::fs::read_dir(root.join(family))
            .expect("family folder")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".jsonl.gz"))
            .collect();
        files.sort();
        for file in &files {
            let (n, f) = check_file(&shared, target, &script, file);
            checked.push(format!("{family}/{file}: {n} lines"));
            failures.extend(f.into_iter().take(3));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{}", checked.join("\n"));
}

#[test]
fn file_names_say_how_the_layouts_were_made() {
    let m = parse_name("layouts.glibc.wizard.chaos_quest-mordor.jsonl.gz").unwrap();
    assert!(m.wizard && !m.game_start);
    assert_eq!(m.options, ["chaos_quest=mordor"]);
    let m = parse_name("layouts.glibc.role-Hea.jsonl.gz").unwrap();
    assert_eq!(m.role.as_deref(), Some("Hea"));
    assert!(
        parse_name("layouts.isaac32.game.jsonl.gz")
            .unwrap()
            .game_start
    );
    assert!(parse_name("layouts.nosuchrng.jsonl.gz").is_none());
}
