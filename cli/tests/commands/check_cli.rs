//! `dgn check` and `dgn explain` as a user runs them: exit statuses, the
//! three output formats, lint flags, and I/O errors.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn dgn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dgn"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("dgn runs")
}

fn corpus(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(name)
        .display()
        .to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dgnkit-check-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn clean_file_exits_0() {
    let o = dgn(&["check", &corpus("clean-small-vanilla.def")]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("ok: 1 file checked, 0 errors, 0 warnings"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn errors_exit_1_and_short_format_is_one_line_each() {
    let path = corpus("placement-never-fits.def");
    let o = dgn(&[
        "check",
        "--format",
        "short",
        "--allow",
        "missing-hardwired-dungeon",
        &path,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("{path}:9:28: error[E0406]: ")),
        "{first}"
    );
    assert_eq!(out.lines().count(), 4, "{out}");
}

#[test]
fn warnings_alone_exit_0_and_deny_makes_them_errors() {
    let path = corpus("compat.def");
    let o = dgn(&["check", "--allow", "missing-hardwired-dungeon", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = dgn(&[
        "check",
        "--allow",
        "missing-hardwired-dungeon",
        "--deny",
        "compat",
        "--format",
        "short",
        &path,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("error[W1101]"), "{}", stdout(&o));
    let o = dgn(&["check", "-A", "warnings", "--format", "short", &path]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
}

#[test]
fn missing_file_exits_2_naming_it() {
    let o = dgn(&["check", "/nonexistent/dir/dungeon.def"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("/nonexistent/dir/dungeon.def"), "{err}");
    // I/O errors win over input errors, and the other files are still checked.
    let o = dgn(&[
        "check",
        "--format",
        "short",
        &corpus("names-empty.def"),
        "/nonexistent.def",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).contains("E0305"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(dgn(&["check"]).status.code(), Some(2));
    assert_eq!(
        dgn(&[
            "check",
            "--dialect",
            "nethack5",
            &corpus("clean-small-vanilla.def")
        ])
        .status
        .code(),
        Some(2)
    );
    let o = dgn(&[
        "check",
        "--deny",
        "no-such-lint",
        &corpus("clean-small-vanilla.def"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-lint"));
}

#[test]
fn json_format() {
    let a = corpus("placement-may-not-fit.def");
    let b = corpus("clean-small-vanilla.def");
    let o = dgn(&[
        "check",
        "--format",
        "json",
        "--allow",
        "missing-hardwired-dungeon",
        &a,
        &b,
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["file"], a);
    let diags = files[0]["diagnostics"].as_array().unwrap();
    assert_eq!(
        diags[0]["code"], "W1004",
        "the loader's failure odds come first"
    );
    let d = &diags[1];
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["code"], "W0401");
    assert_eq!(d["line"], 9);
    assert_eq!(d["column"], 28);
    assert_eq!(d["end_line"], 9);
    assert_eq!(d["end_column"], 30);
    assert!(d["message"]
        .as_str()
        .unwrap()
        .contains("probability 3/5 = 60%"));
    assert!(d.get("fix").is_some());
    assert_eq!(files[1]["diagnostics"].as_array().unwrap().len(), 0);
}

#[test]
fn json_fix_carries_the_edits() {
    let o = dgn(&[
        "check",
        "--format",
        "json",
        "--allow",
        "missing-hardwired-dungeon",
        &corpus("compat.def"),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let diags = v["files"][0]["diagnostics"].as_array().unwrap();
    let rnd = diags.iter().find(|d| d["code"] == "W1101").unwrap();
    assert_eq!(rnd["fix"]["edits"][0]["replacement"], "RNDCHLEVEL");
    let bones = diags.iter().find(|d| d["code"] == "W1104").unwrap();
    assert_eq!(bones["fix"]["edits"][0]["replacement"], " \"none\"");
}

#[test]
fn human_format_has_no_colour_when_not_a_terminal() {
    let o = dgn(&[
        "check",
        "--allow",
        "missing-hardwired-dungeon",
        &corpus("placement-may-not-fit.def"),
    ]);
    let out = stdout(&o);
    assert!(!out.contains('\u{1b}'), "{out}");
    assert!(out.contains("warning[W0401]"));
    assert!(out.contains("placement-may-not-fit.def:9:28"));
}

#[test]
fn reads_standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dgn"))
        .args(["check", "--format", "short", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"").unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("-:1:1: error[E0201]: no dungeons"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn defines_and_dialect_reach_the_checks() {
    let src = b"DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\n%CONWAY LEVEL: \"conway\" \"C\" @ (40, 2)\n";
    let path = temp_file("conway.def", src);
    let p = path.display().to_string();
    // Undefined: an unknown-flag warning, the line dropped.
    let o = dgn(&[
        "check",
        "--format",
        "short",
        "-A",
        "missing-hardwired-dungeon",
        &p,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("W0101"));
    // Defined: the line is read, and its base is beyond vanilla's MAXLEVEL...
    let o = dgn(&[
        "check",
        "--format",
        "short",
        "-A",
        "missing-hardwired-dungeon",
        "-D",
        "CONWAY",
        &p,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("E0401"));
    // ...but not yzhack's.
    let o = dgn(&[
        "check",
        "--format",
        "short",
        "-A",
        "missing-hardwired-dungeon",
        "-A",
        "range-may-not-fit",
        "-D",
        "CONWAY",
        "--dialect",
        "yzhack",
        &p,
    ]);
    assert!(!stdout(&o).contains("E0401"), "{}", stdout(&o));
}

#[test]
fn explain_prints_the_table_entry() {
    let o = dgn(&["explain", "E0406"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.starts_with("E0406 (error): a level or branch range that never fits"),
        "{out}"
    );
    assert!(out.contains("Example:"));
    let o = dgn(&["explain", "bones-marker-reuse"]);
    assert!(stdout(&o).starts_with("W0302 (warning, lint `bones-marker-reuse`)"));
    let o = dgn(&["explain", "E0101"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "syntax codes come from the grammar's table"
    );
    assert_eq!(dgn(&["explain", "E9999"]).status.code(), Some(2));
    let o = dgn(&["explain", "--markdown"]);
    assert_eq!(stdout(&o), dgnkit_cli::explain::diagnostics_markdown());
    let o = dgn(&["explain", "--dialects"]);
    assert!(stdout(&o).contains("slashem-extended"));
    let o = dgn(&["explain", "--list"]);
    assert!(stdout(&o).lines().count() >= 60);
}

#[test]
fn a_file_whose_path_names_a_variant_gets_a_note_naming_its_target() {
    let src = std::fs::read(corpus("nethack-3.6.def")).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "dgnkit-check-cli-{}/unnethack/dat",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dungeon.def");
    std::fs::write(&path, &src).unwrap();
    let p = path.display().to_string();
    let o = dgn(&["check", "--format", "short", &p]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains(":1:1: note[N0001]: this looks like an UnNetHack file (its path names UnNetHack); try `--target unnethack`"),
        "{out}"
    );
    // A target or dialect given is a choice made knowingly: no note.
    for given in [["--target", "nethack-3.6"], ["--dialect", "vanilla"]] {
        let o = dgn(&["check", "--format", "short", given[0], given[1], &p]);
        assert!(!stdout(&o).contains("N0001"), "{given:?}: {}", stdout(&o));
    }
    // The same text elsewhere is plain NetHack's.
    let o = dgn(&["check", "--format", "short", &corpus("nethack-3.6.def")]);
    assert!(!stdout(&o).contains("N0001"), "{}", stdout(&o));
}
