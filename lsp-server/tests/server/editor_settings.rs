//! The editors' settings menus offer exactly the targets the server takes:
//! a target added to dgnkit shows up in VS Code's and Emacs's menus, or
//! this fails. (VS Code's extension reads its lists from its package.json,
//! which its unit tests check against its code.)

use dgnkit::options::Target;
use std::path::Path;

fn editors() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../editors"))
}

/// The targets a `dungeon.def` can be checked for (the games that read
/// dungeon.lua only, 3.7 and its forks, are `luaTarget`'s).
fn def_targets() -> Vec<&'static str> {
    let mut v: Vec<&str> = Target::ALL
        .into_iter()
        .filter(|&t| !t.game().reads_lua)
        .map(Target::name)
        .collect();
    v.sort_unstable();
    v
}

/// The targets a `dungeon.lua` can be checked for: the games that read it,
/// and dgnkit's own format.
fn lua_targets() -> Vec<&'static str> {
    let mut v: Vec<&str> = Target::ALL
        .into_iter()
        .filter(|&t| t.game().takes_lua())
        .map(Target::name)
        .collect();
    v.sort_unstable();
    v
}

/// The sorted `enum` of a VS Code setting, checked to have one description
/// per value.
fn vscode_menu(setting: &str) -> Vec<String> {
    let text = std::fs::read_to_string(editors().join("vscode/package.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let target = &json["contributes"]["configuration"]["properties"][setting];
    let mut offered: Vec<String> = target["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("{setting} has an enum"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        target["enumDescriptions"].as_array().map(Vec::len),
        Some(offered.len()),
        "one description per target"
    );
    offered.sort_unstable();
    for t in &offered {
        assert!(Target::parse(t).is_some(), "{t}");
    }
    offered
}

#[test]
fn vscode_offers_every_target() {
    assert_eq!(vscode_menu("dgnkit.target"), def_targets());
}

#[test]
fn vscode_offers_every_lua_target() {
    assert_eq!(vscode_menu("dgnkit.luaTarget"), lua_targets());
}

/// The sorted `(const "...")` choices of an Emacs `defcustom`.
fn emacs_menu(custom: &str) -> Vec<String> {
    let text = std::fs::read_to_string(editors().join("emacs/dgnkit.el")).unwrap();
    let start = text
        .find(&format!("(defcustom {custom} "))
        .unwrap_or_else(|| panic!("{custom} is defined"));
    let end = start + text[start..].find("\n\n").unwrap();
    let mut offered: Vec<String> = text[start..end]
        .split("(const \"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect();
    offered.sort_unstable();
    offered
}

#[test]
fn emacs_offers_every_target() {
    assert_eq!(emacs_menu("dgnkit-target"), def_targets());
}

#[test]
fn emacs_offers_every_lua_target() {
    assert_eq!(emacs_menu("dgnkit-lua-target"), lua_targets());
}
