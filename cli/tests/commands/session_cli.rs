//! `dgn session` on files that are not sessions it reads: each gets exit
//! status 2 and a message naming what is wrong, never a panic. (The real
//! sessions are checked end to end in `tests/`, against `../shared`.)

use dgnkit_cli::session::{execute, parse_args};
use std::io::Write;
use std::path::PathBuf;

fn run(args: &[&str]) -> (u8, String, String) {
    let mut argv = vec!["session"];
    argv.extend_from_slice(args);
    let args = match parse_args(argv) {
        Ok(a) => a,
        Err(e) => return (2, String::new(), e.to_string()),
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = execute(&args, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("dgnkit-session-bad-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn bad_files_exit_2_naming_the_problem() {
    let dir = dir();
    let session = br#"{"version": 4, "seed": 1, "steps": [{"key": null, "rng": []}]}"#;
    let mut cut = gz(session);
    cut.truncate(cut.len() - 12);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("plain.session.json.gz", session.to_vec()),
        ("cut.session.json.gz", cut),
        ("text.session.json", b"this is not JSON".to_vec()),
        ("empty.session.json", Vec::new()),
        ("array.session.json", b"[1, 2]".to_vec()),
        ("no-steps.session.json", br#"{"version": 4, "seed": 1}"#.to_vec()),
        ("no-version.session.json", br#"{"seed": 1, "steps": []}"#.to_vec()),
        (
            "v2.session.json",
            br#"{"version": 2, "seed": 1, "steps": []}"#.to_vec(),
        ),
        ("no-seed.session.json.gz", gz(br#"{"version": 3, "steps": []}"#)),
        (
            "bad-seed.session.json",
            br#"{"version": 4, "env": {"NETHACK_SEED": "x"}, "steps": []}"#.to_vec(),
        ),
        (
            "bad-step.session.json",
            br#"{"version": 4, "seed": 1, "steps": [{"rng": "rn2(2)=1"}]}"#.to_vec(),
        ),
        (
            "no-character.session.json",
            br#"{"version": 4, "seed": 1, "nethackrc": "OPTIONS=name:x\n", "steps": [{"rng": []}]}"#
                .to_vec(),
        ),
        (
            "no-role.session.json",
            br#"{"version": 3, "seed": 1, "options": {"role": "Jester", "race": "human", "gender": "male", "align": "neutral"}, "steps": []}"#
                .to_vec(),
        ),
    ];
    let mut text = String::new();
    for (name, bytes) in &cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let (code, out, err) = run(&[path.to_str().unwrap()]);
        assert_eq!(code, 2, "{name}: {err}");
        assert_eq!(out, "", "{name}");
        let (json_code, json, _) = run(&[path.to_str().unwrap(), "--format", "json"]);
        assert_eq!((json_code, json.as_str()), (2, ""), "{name}");
        text += &format!(
            "{name}: {}",
            err.replace(&format!("{}/", dir.display()), "")
        );
    }
    let missing = dir.join("missing.session.json");
    let (code, _, err) = run(&[missing.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.starts_with("dgn session: cannot read `"), "{err}");
    insta::assert_snapshot!("session_bad_files", text);
}
