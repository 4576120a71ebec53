//! `dgn convert` on the whole corpus: every dungeon.def/.pdf goes to
//! dungeon.lua and back, and the result compiles to the bytes of the
//! original (in the dialect the corpus tests use for the file, for each
//! target with a compiled layout); NetHack 3.7's own file goes to .def only
//! where .def can hold it.

use dgnkit::binary::{self, WriteOptions};
use dgnkit::convert::convert;
use dgnkit::frontend::{analyze, CheckOptions, SourceKind};
use dgnkit::options::Target;

#[test]
fn def_to_lua_to_def_compiles_to_the_same_bytes() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let flags: Vec<String> = vec!["REINCARNATION".into(), "MULDGN".into()];
    let files = dgnkit_tests::corpus_files(&shared);
    assert!(files.len() >= 100, "only {} corpus files", files.len());
    let mut failures = Vec::new();
    let mut round_trips = 0;
    for target in [Target::NetHack343, Target::NetHack36, Target::Native] {
        for path in &files {
            let shown = path
                .strip_prefix(&shared)
                .unwrap_or(path)
                .display()
                .to_string();
            let src = std::fs::read(path).expect("read corpus file");
            let Some((dialect, script)) = dgnkit_tests::compile_any(&src, target, &flags) else {
                continue;
            };
            let wopts = WriteOptions {
                header_from: None,
                dialect: dialect.name(),
            };
            let Ok(first) = binary::write_with(&script, target, &wopts) else {
                continue;
            };
            let opts = CheckOptions {
                target,
                dialect,
                defines: flags.clone(),
                ..CheckOptions::default()
            };
            let fail = |step: &str, e: dgnkit::convert::ConvertError| {
                let first = e
                    .diagnostics
                    .first()
                    .map(|d| format!("{}: {}", d.code, d.message));
                format!(
                    "{shown} ({}, {}): {step}: {}",
                    target.name(),
                    dialect.name(),
                    first.unwrap_or_default()
                )
            };
            let lua = match convert(&src, SourceKind::Def, SourceKind::Lua, &opts) {
                Ok(t) => t,
                Err(e) => {
                    failures.push(fail("to lua", e));
                    continue;
                }
            };
            let def = match convert(&lua, SourceKind::Lua, SourceKind::Def, &opts) {
                Ok(t) => t,
                Err(e) => {
                    failures.push(fail("back to def", e));
                    continue;
                }
            };
            let again = analyze(&def, &opts)
                .script
                .expect("converted .def compiles");
            match binary::write_with(&again, target, &wopts) {
                Ok(second) if second == first => round_trips += 1,
                _ => failures.push(format!("{shown} ({}): the bytes differ", target.name())),
            }
        }
    }
    eprintln!("{round_trips} round trips");
    assert!(round_trips >= 200, "only {round_trips} round trips");
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn nethack_37s_file_names_what_def_cannot_hold() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let path = shared.join("corpus/NetHack__NetHack@3.7/dungeon.lua");
    let src = std::fs::read(&path).expect("3.7's dungeon.lua");
    let opts = CheckOptions::default();
    let e = convert(&src, SourceKind::Lua, SourceKind::Def, &opts).unwrap_err();
    let named: Vec<String> = e
        .diagnostics
        .iter()
        .map(|d| String::from_utf8_lossy(&src[d.span.range()]).into_owned())
        .collect();
    assert_eq!(
        named,
        [
            "\"themerms.lua\"",
            "\"hellfill\"",
            "\"minefill\"",
            "unconnected"
        ]
    );
    // To Lua it goes, and reads back to the same script.
    let lua = convert(&src, SourceKind::Lua, SourceKind::Lua, &opts).unwrap();
    assert_eq!(analyze(&lua, &opts).script, analyze(&src, &opts).script);
}
