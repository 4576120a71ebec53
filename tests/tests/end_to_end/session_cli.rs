//! `dgn session` end to end, on the Mazes of Menace session files of
//! `../shared/expected/menace-sessions` (the C NetHack 3.7, every draw
//! recorded): each matches dgnkit's game start and `init_dungeons()` draw
//! for draw, and its layout is `dgn layout`'s for the same seed and
//! character; a copy with one dungeon draw changed is reported at that
//! draw; `dgn layout --trace=session` writes the session's own entries.

use dgnkit_cli::session::{execute, parse_args};
use flate2::read::GzDecoder;
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

fn run(args: &[&str]) -> (u8, String, String) {
    dgnkit_tests::run_cli("session", args, parse_args, |a, out, err| {
        execute(a, out, err)
    })
}

fn layout(args: &[&str]) -> (u8, String, String) {
    use dgnkit_cli::layout::{execute, parse_args, Terminal};
    dgnkit_tests::run_cli("layout", args, parse_args, |a, out, err| {
        execute(a, out, err, Terminal::default())
    })
}

/// Every session file there, by name.
fn sessions(shared: &Path) -> Vec<PathBuf> {
    let dir = shared.join("expected/menace-sessions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".session.json.gz"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no session files in {}", dir.display());
    files
}

fn json_of(path: &Path) -> Value {
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dgnkit-session-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_gz(path: &Path, v: &Value) {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(v.to_string().as_bytes()).unwrap();
    std::fs::write(path, e.finish().unwrap()).unwrap();
}

/// The session's draws in order: (step, index in its `rng`, entry).
fn draws(v: &Value) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for (s, step) in v["steps"].as_array().unwrap().iter().enumerate() {
        for (i, e) in dgnkit_tests::json_strings(&step["rng"])
            .into_iter()
            .enumerate()
        {
            let call = e.split(" @ ").next().unwrap_or("");
            let composite = ["rne(", "rnz(", "rnl(", "d("]
                .iter()
                .any(|c| call.starts_with(c));
            if !call.is_empty() && !call.starts_with(['>', '<', '^', '~']) && !composite {
                out.push((s, i, e));
            }
        }
    }
    out
}

/// `dgn layout`'s arguments for the session's seed, role and mode, read
/// here on their own (v3 `options`, v4 `nethackrc`).
fn layout_args(v: &Value) -> Vec<String> {
    let rc = v["nethackrc"].as_str().unwrap_or("");
    let role = v["options"]["role"]
        .as_str()
        .map(str::to_string)
        .or_else(|| {
            rc.split([',', '\n'])
                .find_map(|o| {
                    o.trim()
                        .trim_start_matches("OPTIONS=")
                        .strip_prefix("role:")
                })
                .map(str::to_string)
        })
        .expect("a role");
    let wizard = v["options"]["wizard"].as_bool().unwrap_or(false) || rc.contains("WIZARD=");
    let mut args = vec![
        "--target".to_string(),
        "nethack-3.7".to_string(),
        "--seed".to_string(),
        v["seed"].to_string(),
        "--role".to_string(),
        role,
    ];
    if wizard {
        args.push("--wizard".to_string());
    }
    args
}

#[test]
fn every_session_matches_and_lays_out_as_dgn_layout_does() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    for path in sessions(&shared) {
        let file = path.to_str().unwrap();
        let (code, out, err) = run(&[file]);
        assert_eq!(code, 0, "{file}: {out}{err}");
        let (code, json, _) = run(&[file, "--format", "json"]);
        assert_eq!(code, 0);
        let report: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(report["match"], true, "{file}");
        let n = report["draws"].as_u64().unwrap();
        // The game start alone is 200 draws (198 o_init, 2 nhlib.lua).
        assert!(n > 200, "{file}: {n}");
        assert_eq!(report["matched"], n);
        assert_eq!(report["selection_draws"], 0);
        assert_eq!(report["game"], "nethack-3.7");
        assert_eq!(report["first"]["index"], 0);
        assert!(out.contains(&format!("\n{n} draws match: ")), "{out}");

        let v = json_of(&path);
        assert_eq!(report["seed"], v["seed"]);
        let args = layout_args(&v);
        let (code, overview, err) = layout(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 0, "{err}");
        assert!(out.ends_with(&format!("\n\n{overview}")), "{file}:\n{out}");
        let (_, layout_json, _) = layout(
            &args
                .iter()
                .map(String::as_str)
                .chain(["--format", "json"])
                .collect::<Vec<_>>(),
        );
        let want: Value = serde_json::from_str(&layout_json).unwrap();
        assert_eq!(report["layout"], want, "{file}");
    }
}

#[test]
fn a_changed_dungeon_draw_is_reported_at_that_draw() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let dir = temp_dir();
    for path in sessions(&shared) {
        let mut v = json_of(&path);
        let all = draws(&v);
        // The tenth draw of init_dungeons() with a bound above 1.
        let (k, (step, index, entry)) = all
            .iter()
            .enumerate()
            .filter(|(_, (_, _, e))| e.contains("(dungeon.c:") && !e.starts_with("rn2(1)="))
            .nth(9)
            .map(|(k, d)| (k, d.clone()))
            .unwrap();
        let (call, caller) = entry.split_once(" @ ").unwrap();
        let (f, r) = call.split_once(")=").unwrap();
        let n: u64 = f.trim_start_matches("rn2(").parse().unwrap();
        let r: u64 = r.parse().unwrap();
        let changed = format!("{f})={} @ {caller}", (r + 1) % n);
        v["steps"][step]["rng"][index] = Value::String(changed.clone());
        let name = path.file_name().unwrap().to_str().unwrap();
        let copy = dir.join(format!("changed-{name}"));
        write_gz(&copy, &v);

        let (code, out, err) = run(&[copy.to_str().unwrap(), "--format", "json"]);
        assert_eq!(code, 1, "{name}: {err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["match"], false);
        assert_eq!(report["matched"], k as u64, "{name}");
        let d = &report["divergence"];
        assert_eq!(d["draw"], k as u64 + 1);
        assert_eq!(d["session"]["step"], step as u64);
        assert_eq!(d["session"]["index"], index as u64);
        assert_eq!(d["session"]["entry"], changed);
        assert_eq!(
            d["dgnkit"]["entry"], entry,
            "dgnkit draws what the game drew"
        );
        assert_eq!(d["context"]["session"].as_array().unwrap().len(), 7);
        assert_eq!(report["layout"], Value::Null);

        let (code, out, _) = run(&[copy.to_str().unwrap()]);
        assert_eq!(code, 1);
        let head = format!(
            "the draws diverge at dgnkit's draw {} of {} (step {step}, entry {index}); the {k} before it match\n  session: {changed}\n  dgnkit:  {entry}  (",
            k + 1,
            report["draws"]
        );
        assert!(out.contains(&head), "{out}");
        assert!(
            out.contains(&format!("  > step {step}, entry {index}")),
            "{out}"
        );
    }
}

#[test]
fn the_session_form_of_the_trace_is_the_sessions_own_log() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    for path in sessions(&shared) {
        let v = json_of(&path);
        let mut args = layout_args(&v);
        args.push("--trace=session".to_string());
        let (code, _, trace) = layout(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 0, "{trace}");
        let ours: Vec<&str> = trace.lines().collect();
        let theirs: Vec<String> = draws(&v).into_iter().map(|d| d.2).collect();
        assert!(ours.len() > 200);
        // NetHack 3.7's log names the caller of every draw dgnkit makes.
        assert!(
            !trace.contains(dgnkit::session::entry::UNKNOWN_CALLER),
            "{trace}"
        );
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(a, b, "{}: draw {}", path.display(), i + 1);
        }
    }
}

#[test]
fn a_character_left_to_the_game_is_read_from_its_welcome() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let dir = temp_dir();
    let mut tested = 0;
    for path in sessions(&shared) {
        let mut v = json_of(&path);
        // The same game with only its name in the options: the character
        // comes from the welcome on its screens.
        match v["version"].as_u64() {
            Some(3) => {
                let options = v["options"].as_object_mut().unwrap();
                for k in ["role", "race", "gender", "align"] {
                    options.remove(k);
                }
            }
            _ => {
                let rc = v["nethackrc"].as_str().unwrap();
                let kept: String = rc
                    .lines()
                    .filter(|l| !l.contains("role:"))
                    .map(|l| format!("{l}\n"))
                    .collect();
                v["nethackrc"] = Value::String(kept + "OPTIONS=name:Agent\n");
            }
        }
        let name = path.file_name().unwrap().to_str().unwrap();
        let copy = dir.join(format!("welcome-{name}"));
        write_gz(&copy, &v);
        let (code, out, err) = run(&[copy.to_str().unwrap(), "--format", "json"]);
        // v3 hides the game's start-up screens (the format's "Startup
        // steps: auto-advanced"): no welcome, no character.
        let welcome = v["steps"].as_array().unwrap().iter().any(|s| {
            s["screen"]
                .as_str()
                .is_some_and(|t| t.contains("welcome to NetHack!"))
        });
        if !welcome {
            assert_eq!(code, 2, "{name}: {out}");
            assert!(err.contains("no character: the file leaves the role to the game's selection, and no screen shows the game's welcome"), "{err}");
            continue;
        }
        assert_eq!(code, 0, "{name}: {out}{err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["character"]["from"], "welcome");
        assert!(report["character"]["step"].is_u64());
        let role = layout_args(&json_of(&path))[5].clone();
        assert_eq!(report["character"]["role"], role);
        assert_eq!(report["selection_draws"], 0);
        tested += 1;
    }
    assert!(tested > 0, "no session shows its welcome");
}

#[test]
fn a_session_of_a_tree_dgnkit_does_not_know_is_refused() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let path = &sessions(&shared)[0];
    let mut v = json_of(path);
    v["recorded_with"]["nethack_c"] = Value::String("0123456789ab".to_string());
    let copy = temp_dir().join("other-tree.session.json.gz");
    write_gz(&copy, &v);
    let (code, out, err) = run(&[copy.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.contains("recorded with the C tree 0123456789ab")
            && err.contains("79c688cc6 (nethack-3.7)"),
        "{err}"
    );
    // Asked for by name, it is compared under that game's rules.
    let (code, out, err) = run(&[copy.to_str().unwrap(), "--target", "nethack-3.7"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("answered as NetHack 3.7, as --target asks"),
        "{out}"
    );
    // A game whose game start dgnkit does not make is refused.
    let (code, _, err) = run(&[copy.to_str().unwrap(), "--target", "nethack-3.4.3"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("dgnkit does not make NetHack 3.4.3's draws before init_dungeons()"),
        "{err}"
    );
}
