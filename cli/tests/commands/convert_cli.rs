//! `dgn convert` and `dgn check` on dungeon.lua as a user runs them: the
//! output language, `-o`, JSON, the errors that name what cannot be
//! converted, and the file kind taken from the extension.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dgn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dgn"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("dgn runs")
}

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dgnkit-convert-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn vanilla36() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/nethack-3.6.def")
        .display()
        .to_string()
}

const TUTORIAL: &str = "dungeon = {\n   { name = \"The Dungeons of Doom\", bonetag = \"D\", base = 25, range = 5 },\n   { name = \"The Tutorial\", base = 2, flags = { \"mazelike\", \"unconnected\" }, lvlfill = \"tutfill\" },\n}\n";

#[test]
fn def_to_lua_and_back_through_files() {
    let lua = temp_file("dungeon.lua", b"");
    let o = dgn(&[
        "convert",
        "--to",
        "lua",
        &vanilla36(),
        "-o",
        lua.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&lua).unwrap();
    assert!(
        text.contains("dungeon = {") && text.contains("chainlevel = \"oracle\""),
        "{text}"
    );
    // The .lua reads as dungeon.lua by its name and checks without errors.
    let o = dgn(&["check", "--allow", "warnings", lua.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = dgn(&[
        "convert",
        "--to",
        "def",
        "--format",
        "json",
        lua.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["to"], "def");
    assert!(v["text"]
        .as_str()
        .unwrap()
        .contains("CHAINBRANCH:\t\"Sokoban\" \"oracle\" + (1, 0) up"));
}

#[test]
fn what_def_cannot_hold_is_named_and_nothing_is_written() {
    let lua = temp_file("tutorial.lua", TUTORIAL.as_bytes());
    let out = lua.with_extension("def");
    let o = dgn(&[
        "convert",
        "--to",
        "def",
        lua.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("error[E1210]: `unconnected` of \"The Tutorial\""),
        "{err}"
    );
    assert!(
        err.contains("error[E1210]: `lvlfill` of \"The Tutorial\""),
        "{err}"
    );
    assert!(!out.exists());
    let o = dgn(&[
        "convert",
        "--to",
        "def",
        "--format",
        "json",
        lua.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let codes: Vec<&str> = v["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["E1210", "E1210"]);
}

#[test]
fn a_lua_file_named_lua_is_read_as_lua_whatever_it_starts_with() {
    // Starts with neither a comment nor `dungeon =`: the name decides.
    // Run as a program (it sets a global before `dungeon`).
    let lua = temp_file("odd.lua", b"x = 1\ndungeon = {}\n");
    let o = dgn(&["check", "--format", "short", lua.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1));
    assert!(out.contains("error[E0201]"), "{out}");
    assert!(out.contains("the `dungeon` table is empty"), "{out}");
}
