//! Parity of the `nethack-3.7` target with the real C NetHack 3.7: every
//! line of `../shared/expected/nethack37/init_dungeons.jsonl` (a recorded
//! game start: seed, role, wizard mode, the draws before `init_dungeons()`
//! and every draw of it, each named by its C function) is resolved again
//! from NetHack 3.7's `dungeon.lua` with the line's seed, role and mode.
//! The draws before the loader are checked (the object shuffles' count,
//! the role's draws, `nhlib.lua`'s pair) and then the loader's whole draw
//! sequence; a mismatch names the first differing draw and the C function
//! that made it.

use dgnkit::frontend::CheckOptions;
use dgnkit::games::LoaderInputs;
use dgnkit::loader::{Resolved, Resolver};
use dgnkit::options::Target;
use dgnkit::rng::{Draw, RngKind, Site};
use dgnkit::script::Script;
use serde_json::Value;
use std::path::Path;

/// NetHack 3.7's own `dungeon.lua`, through dgnkit's reader.
fn script(shared: &Path) -> Script {
    let path = shared.join("corpus/NetHack__NetHack@3.7/dungeon.lua");
    read_script(
        &std::fs::read(&path).expect("dungeon.lua"),
        Target::NetHack37,
    )
}

/// A `dungeon.lua` read for `target`.
pub(crate) fn read_script(src: &[u8], target: Target) -> Script {
    let opts = CheckOptions {
        target,
        ..CheckOptions::default()
    };
    let analysis = dgnkit::frontend::analyze_fast(src, &opts);
    analysis.script.expect("dungeon.lua reads without errors")
}

/// A resolver for the line's role, wizard mode and default game start.
fn resolver(target: Target, script: &Script, line: &Value) -> Result<Resolver, String> {
    let role = line["options"]["role"].as_str().ok_or("no role")?;
    let wizard = line["wizard"].as_bool().ok_or("no wizard")?;
    let inputs = LoaderInputs::parse(Some(role), None, &[], false, wizard)?;
    Resolver::for_game(script, &target.game().loader_game(), &inputs).map_err(|e| e.to_string())
}

/// `rn2(3)=0 @ where` -> (`rn2(3)=0`, `where`).
fn split(entry: &str) -> (&str, &str) {
    entry.split_once(" @ ").unwrap_or((entry, "?"))
}

/// Compares our draws with the recorded ones; `None` when equal.
fn first_difference(
    what: &str,
    want: &[String],
    got: &[&Draw],
    resolver: &Resolver,
) -> Option<String> {
    let i = (0..want.len().max(got.len())).find(|&i| {
        want.get(i).map(|w| split(w).0) != got.get(i).map(|d| d.to_string()).as_deref()
    })?;
    let (w, c_function) = want.get(i).map_or(("(none)", "-"), |w| split(w));
    let ours = got.get(i).map_or_else(
        || "(none)".to_string(),
        |d| format!("{d} ({})", resolver.describe_site(d.site)),
    );
    Some(format!(
        "{what}: first differing draw #{i}: NetHack drew {w} in {c_function}, dgnkit {ours}"
    ))
}

/// One recorded game start of the vanilla 3.7 line, resolved again by
/// `target`: `Err` names the first difference.
pub(crate) fn check_line(target: Target, script: &Script, line: &Value) -> Result<(), String> {
    let seed = line["seed"].as_u64().ok_or("no seed")?;
    let wizard = line["wizard"].as_bool().ok_or("no wizard")?;
    let resolver = &resolver(target, script, line)?;
    let mut out = Resolved::default();
    let mut log: Vec<Draw> = Vec::new();
    let result = resolver.resolve_traced(seed, RngKind::Isaac64, wizard, &mut out, &mut log);
    let before = &line["draws_before"];
    let objects = log.iter().filter(|d| d.site == Site::ObjectInit).count();
    let role_draws: Vec<&Draw> = log
        .iter()
        .filter(|d| matches!(d.site, Site::QuestGender | Site::Pantheon))
        .collect();
    let loader: Vec<&Draw> = log.iter().filter(|d| !d.site.before_loader()).collect();
    let nhlib = dgnkit_tests::json_strings(&before["nhlib_shuffle"]);
    let want_objects = before["o_init"].as_u64().ok_or("no o_init")? as usize;
    if objects != want_objects {
        return Err(format!(
            "o_init: {want_objects} draws recorded, dgnkit made {objects}"
        ));
    }
    if let Some(d) = first_difference(
        "role_init",
        &dgnkit_tests::json_strings(&before["role"]),
        &role_draws,
        resolver,
    ) {
        return Err(d);
    }
    let total = before["total"].as_u64().ok_or("no total")? as usize;
    let ours = objects + role_draws.len() + loader.len().min(nhlib.len());
    if ours != total {
        return Err(format!(
            "draws before init_dungeons(): {total} recorded, dgnkit {ours}"
        ));
    }
    let (lua, rest) = loader.split_at(loader.len().min(nhlib.len()));
    if let Some(d) = first_difference("nhlib.lua", &nhlib, lua, resolver) {
        return Err(d);
    }
    if let Some(d) = first_difference(
        "init_dungeons",
        &dgnkit_tests::json_strings(&line["draws"]),
        rest,
        resolver,
    ) {
        return Err(d);
    }
    result.map_err(|e| format!("the loader failed after the recorded draws: {e}"))
}

#[test]
fn every_recorded_nethack37_game_start_draws_the_same() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let path = shared.join("expected/nethack37/init_dungeons.jsonl");
    let text = std::fs::read_to_string(&path).expect("init_dungeons.jsonl");
    let script = script(&shared);
    let mut failures = Vec::new();
    let mut lines = 0;
    for (n, raw) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        lines += 1;
        let line: Value = serde_json::from_str(raw).expect("JSON line");
        if let Err(e) = check_line(Target::NetHack37, &script, &line) {
            failures.push(format!(
                "line {} (seed {}, {}, wizard {}): {e}",
                n + 1,
                line["seed"],
                line["options"]["role"],
                line["wizard"]
            ));
        }
    }
    assert!(lines > 0, "no game starts in {}", path.display());
    assert!(
        failures.is_empty(),
        "{} of {lines} game starts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_mismatch_names_the_first_differing_draw_and_its_c_function() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("expected/nethack37/init_dungeons.jsonl"))
        .expect("init_dungeons.jsonl");
    let script = script(&shared);
    let wizard_line = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON line"))
        .find(|l| l["options"]["role"] == "Wizard")
        .expect("a Wizard game start");
    // The same start as a Valkyrie: no nemesis gender roll.
    let mut line = wizard_line.clone();
    line["options"]["role"] = "Valkyrie".into();
    let e = check_line(Target::NetHack37, &script, &line).unwrap_err();
    assert!(e.starts_with("role_init: first differing draw #0"), "{e}");
    assert!(e.contains("role_init(role.c:2060)"), "{e}");
    // One loader draw changed: named with its C function.
    let mut line = wizard_line;
    let draws = line["draws"].as_array_mut().unwrap();
    let (i, entry) = draws
        .iter()
        .enumerate()
        .find(|(_, d)| d.as_str().unwrap().contains("parent_dlevel"))
        .map(|(i, d)| (i, d.as_str().unwrap().to_string()))
        .unwrap();
    draws[i] = entry.replacen(")=", ")=99", 1).into();
    let e = check_line(Target::NetHack37, &script, &line).unwrap_err();
    assert!(
        e.contains(&format!("init_dungeons: first differing draw #{i}")),
        "{e}"
    );
    assert!(e.contains("parent_dlevel(dungeon.c:426)"), "{e}");
    assert!(e.contains("level of the branch to"), "{e}");
}

#[test]
fn the_built_in_description_resolves_like_nethacks_own_file() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let theirs = script(&shared);
    let opts = CheckOptions {
        target: Target::NetHack37,
        ..CheckOptions::default()
    };
    let (_, bytes) = dgnkit_cli::layout::built_in(Target::NetHack37);
    let analysis = dgnkit::frontend::analyze(bytes, &opts);
    assert!(
        analysis.diagnostics.is_empty(),
        "{:?}",
        analysis.diagnostics
    );
    let ours = analysis.script.expect("the built-in file reads");
    for role in [
        "Arc", "Bar", "Cav", "Hea", "Kni", "Mon", "Pri", "Rog", "Ran", "Sam", "Tou", "Val", "Wiz",
    ] {
        for wizard in [false, true] {
            let inputs = LoaderInputs::parse(Some(role), None, &[], false, wizard).unwrap();
            let a = Resolver::for_game(&theirs, &Target::NetHack37.game().loader_game(), &inputs)
                .unwrap();
            let b = Resolver::for_game(&ours, &Target::NetHack37.game().loader_game(), &inputs)
                .unwrap();
            for seed in 0..150 {
                let want = a.resolve(seed, RngKind::Isaac64, wizard, true);
                let got = b.resolve(seed, RngKind::Isaac64, wizard, true);
                assert_eq!(got, want, "{role}, seed {seed}, wizard {wizard}");
            }
        }
    }
}
