//! `dgn fmt` end to end: `--check`, rewriting in place, files with
//! errors left alone, JSON, standard input, missing files.

use std::path::Path;
use std::process::Command;

fn dgn(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dgn"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run dgn")
}

#[test]
fn the_command_line_checks_rewrites_and_refuses() {
    let dir = std::env::temp_dir().join(format!("dgnkit-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let messy = "# a comment\nDUNGEON:   \"The Dungeons of Doom\"  \"D\" (25,5)\nLEVEL: \"oracle\" \"O\" @ (5,5) # trailing\n";
    let clean = "# a comment\nDUNGEON:\t\"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL:\t\t\"oracle\" \"O\" @ (5, 5) # trailing\n";
    std::fs::write(dir.join("a.def"), messy).unwrap();
    std::fs::write(dir.join("bad.def"), "DUNGEON: \"x\" (1, 0\n").unwrap();

    let o = dgn(&["fmt", "--check", "a.def"], &dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a.def: would reformat"));
    assert_eq!(std::fs::read_to_string(dir.join("a.def")).unwrap(), messy);

    let o = dgn(&["fmt", "a.def"], &dir);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(dir.join("a.def")).unwrap(), clean);
    let o = dgn(&["fmt", "--check", "a.def"], &dir);
    assert_eq!(o.status.code(), Some(0));

    let o = dgn(&["fmt", "--format", "json", "bad.def", "a.def"], &dir);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["files"][0]["status"], "errors");
    assert_eq!(v["files"][0]["diagnostics"][0]["code"], "E0107");
    assert_eq!(v["files"][1]["status"], "unchanged");
    assert_eq!(
        std::fs::read_to_string(dir.join("bad.def")).unwrap(),
        "DUNGEON: \"x\" (1, 0\n",
        "a file with errors is left alone"
    );

    let o = dgn(&["fmt", "missing.def"], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.def"));

    let mut child = Command::new(env!("CARGO_BIN_EXE_dgn"))
        .args(["fmt", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(messy.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), clean);
    let _ = std::fs::remove_dir_all(&dir);
}
