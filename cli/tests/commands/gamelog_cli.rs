//! `dgn layout --format gamelog` and `dgn replay`, through the real binary:
//! every gamelog folds, with a `mergeDelta` written here from the format's
//! document (not dgnkit's own), to exactly what `--format json` says; its
//! `ran` deltas are the draw log one for one, with the callers
//! `--trace=session` names; `dgn replay` prints `dgn layout`'s overview and
//! refuses a broken log cleanly; the server sends the log gzipped.

use crate::common::Server;
use dgnkit_cli::serve::Limits;
use serde_json::{Map, Value};
use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};

const DGN: &str = env!("CARGO_BIN_EXE_dgn");

fn dgn(args: &[&str]) -> Output {
    Command::new(DGN)
        .args(args)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .output()
        .expect("run dgn")
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("a gzip stream");
    out
}

/// The document's `mergeDelta`, as its JavaScript reads: `"&LEN"` pops an
/// array's tail, `"&RM"` deletes, an object merges into an object (or an
/// array), anything else replaces.
fn merge_delta(state: &mut Value, delta: &Map<String, Value>, len: &str, rm: &str) {
    if let (Some(n), Value::Array(a)) = (delta.get(len).and_then(Value::as_u64), &mut *state) {
        a.truncate(n as usize);
    }
    for (key, d) in delta {
        if key == len {
            continue;
        }
        let slot: &mut Value = match state {
            Value::Array(a) => {
                let i: usize = key.parse().expect("an array index");
                while a.len() <= i {
                    a.push(Value::Null);
                }
                &mut a[i]
            }
            Value::Object(m) => {
                if d.as_str() == Some(rm) {
                    m.remove(key);
                    continue;
                }
                m.entry(key.clone()).or_insert(Value::Null)
            }
            _ => panic!("merging into a scalar"),
        };
        match d {
            Value::Object(inner) if slot.is_object() || slot.is_array() => {
                merge_delta(slot, inner, len, rm)
            }
            Value::Object(inner) => {
                let mut fresh = if inner.contains_key(len) {
                    Value::Array(Vec::new())
                } else {
                    Value::Object(Map::new())
                };
                merge_delta(&mut fresh, inner, len, rm);
                *slot = fresh;
            }
            other => *slot = other.clone(),
        }
    }
}

struct Folded {
    state: Value,
    draws: Vec<String>,
    callers: Vec<String>,
    game_start: usize,
    removals: usize,
}

fn fold(log: &Value) -> Folded {
    let constants = &log["constants"];
    let len = constants["DELTA_LIST_LENGTH"].as_str().expect("&LEN");
    let rm = constants["DELTA_REMOVED"].as_str().expect("&RM");
    let deltas = log["deltas"].as_array().expect("deltas");
    assert_eq!(deltas[0]["type"], "start");
    assert_eq!(deltas.last().expect("an end")["type"], "over");
    let mut state = Value::Object(Map::new());
    let (mut draws, mut callers) = (Vec::new(), Vec::new());
    let mut removals = 0;
    for d in deltas {
        if d["type"] == "ran" {
            let data = &d["data"];
            let run = &data["run"];
            let call = format!(
                "{}({})={}",
                run["functionName"].as_str().expect("functionName"),
                run["args"]["x"],
                data["returned"]
            );
            callers.push(format!(
                "{call} @ {}",
                run["caller"].as_str().expect("caller")
            ));
            draws.push(call);
        }
        if let Some(game) = d["game"].as_object() {
            removals += serde_json::to_string(game)
                .expect("JSON")
                .matches(&format!("\"{rm}\""))
                .count();
            merge_delta(&mut state, game, len, rm);
        }
    }
    let game_start = deltas[0]["data"]["game_start"]
        .as_array()
        .map_or(0, Vec::len);
    Folded {
        state,
        draws,
        callers,
        game_start,
        removals,
    }
}

/// Checks one gamelog against the same command's JSON and session trace;
/// returns its removals.
fn check(args: &[&str]) -> usize {
    let gl = dgn(&[args, &["--format", "gamelog"]].concat());
    assert!(
        gl.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&gl.stderr)
    );
    let log: Value = serde_json::from_slice(&gunzip(&gl.stdout)).expect("gamelog JSON");
    let js = dgn(&[args, &["--format", "json", "--trace"]].concat());
    let mut json: Value = serde_json::from_slice(&js.stdout).expect("layout JSON");
    let session = dgn(&[args, &["--format", "json", "--trace=session"]].concat());
    let entries: Vec<String> = String::from_utf8_lossy(&session.stderr)
        .lines()
        .map(str::to_string)
        .collect();
    let mut f = fold(&log);
    let calls: Vec<String> = serde_json::from_value(json["rng_calls"].take()).expect("rng_calls");
    assert_eq!(f.draws, calls, "{args:?}: the ran deltas are the draw log");
    // The session trace is the game start's draws, the loader's, and the
    // game's after it: the ran deltas are the middle, callers and all
    // (a drawing dungeon.lua's draw names its Lua line).
    let middle = &entries[f.game_start..f.game_start + f.callers.len()];
    for (ours, theirs) in f.callers.iter().zip(middle) {
        let theirs = theirs.replace("<C caller unknown> dungeon.lua:", "dungeon.lua:");
        assert_eq!(ours, &theirs, "{args:?}");
    }
    let objects = f.state["gameObjects"].take();
    assert!(objects.as_object().is_some_and(|o| !o.is_empty()));
    let mut state = f.state;
    state.as_object_mut().expect("state").remove("gameObjects");
    json.as_object_mut().expect("json").remove("rng_calls");
    for key in ["dungeons", "levels", "branches", "tune"] {
        assert_eq!(state[key], json[key], "{args:?}: `{key}` folded");
    }
    assert_eq!(state, json, "{args:?}: the whole layout folded");
    assert_eq!(log["settings"]["seed"], json["seed"]);
    assert_eq!(log["gameSession"], json["seed"].to_string().as_str());
    f.removals
}

#[test]
fn forty_nethack_36_seeds_fold_to_their_layouts_with_removals() {
    let mut with_removals = 0;
    for seed in 0..40 {
        let seed = seed.to_string();
        if check(&["layout", "--seed", &seed]) > 0 {
            with_removals += 1;
        }
    }
    // place_level backtracks for a few seeds in NetHack 3.6's own file.
    assert!(with_removals >= 2, "{with_removals} seeds with removals");
}

#[test]
fn every_target_folds_to_its_layout() {
    let cases: &[&[&str]] = &[
        &["--target", "nethack-3.7", "--seed", "42"],
        &["--target", "nethack-3.7", "--seed", "7", "--wizard"],
        &["--target", "nethack-5.0", "--seed", "3"],
        &["--target", "dnethack", "--seed", "42"],
        &["--target", "dnethack", "--seed", "5", "--wizard"],
        &["--target", "xnethack", "--seed", "42"],
        &["--target", "nethack-3.4.3", "--seed", "9"],
        &["--target", "nle", "--seed", "1"],
        &["--target", "unnethack", "--seed", "3"],
        &["--target", "slashem", "--seed", "4"],
        &["--target", "evilhack", "--seed", "5"],
        &["--target", "gnollhack", "--seed", "6"],
        &["--target", "dynahack", "--seed", "5"],
        &["--target", "splicehack", "--seed", "8"],
        &["--target", "nerfhack", "--seed", "2"],
        &["--target", "crecellehack", "--seed", "11"],
        &["--target", "native", "--seed", "12"],
        &["--seed", "7", "--wizard"],
        &["--seed", "7", "--game-start"],
    ];
    for args in cases {
        check(&[&["layout"][..], args].concat());
    }
}

#[test]
fn a_drawing_dungeon_lua_logs_its_own_draws() {
    let lua = crate::common::repo("corpus/nethack-3.7.lua");
    // The file's first dungeon gets a size drawn in Lua.
    let drawing = lua.replacen("dungeon = {", "local extra = nh.random(3)\ndungeon = {", 1);
    assert_ne!(drawing, lua, "corpus/nethack-3.7.lua sets `dungeon = {{`");
    let dir = tempdir();
    let path = dir.join("dungeon.lua");
    std::fs::write(&path, drawing).expect("write");
    let path = path.to_str().expect("UTF-8 path");
    check(&["layout", "--target", "nethack-3.7", "--seed", "42", path]);
    let gl = dgn(&[
        "layout",
        "--target",
        "nethack-3.7",
        "--seed",
        "42",
        path,
        "--format",
        "gamelog",
    ]);
    let log: Value = serde_json::from_slice(&gunzip(&gl.stdout)).expect("gamelog");
    let lua_draws = log["deltas"]
        .as_array()
        .expect("deltas")
        .iter()
        .filter(|d| {
            d["data"]["run"]["caller"]
                .as_str()
                .is_some_and(|c| c.starts_with("dungeon.lua:"))
        })
        .count();
    assert_eq!(lua_draws, 1);
}

fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "dgnkit-gamelog-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn replay_prints_what_layout_prints() {
    let dir = tempdir();
    for args in [
        &["--seed", "42"][..],
        &["--target", "nethack-3.7", "--seed", "42"],
        &["--target", "dnethack", "--seed", "42"],
        &["--target", "xnethack", "--seed", "42"],
    ] {
        let file = dir.join("log.json.gz");
        let file = file.to_str().expect("path");
        let made = dgn(&[&["layout"], args, &["--format", "gamelog", "-o", file]].concat());
        assert!(made.status.success());
        let overview = dgn(&[&["layout"], args].concat());
        let replayed = dgn(&["replay", file]);
        assert!(
            replayed.status.success(),
            "{}",
            String::from_utf8_lossy(&replayed.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&replayed.stdout),
            String::from_utf8_lossy(&overview.stdout),
            "{args:?}"
        );
        let json = dgn(&[&["layout"], args, &["--format", "json"]].concat());
        let replayed = dgn(&["replay", file, "--format", "json"]);
        assert_eq!(replayed.stdout, json.stdout, "{args:?}");
        // Part way: the state after a draw, the draw said on stderr.
        let part = dgn(&["replay", file, "--step", "3", "--format", "json"]);
        assert!(part.status.success());
        let err = String::from_utf8_lossy(&part.stderr);
        assert!(err.starts_with("after draw 3 of "), "{err}");
        assert!(err.contains("rn2("), "{err}");
        let start = dgn(&["replay", file, "--step", "0", "--format", "json"]);
        let start: Value = serde_json::from_slice(&start.stdout).expect("JSON");
        assert_eq!(start["levels"], Value::Array(Vec::new()));
        let past = dgn(&["replay", file, "--step", "100000"]);
        assert_eq!(past.status.code(), Some(2));
    }
    // Plain JSON for a name ending in `.json`, read back the same.
    let plain = dir.join("log.json");
    let plain = plain.to_str().expect("path");
    assert!(
        dgn(&["layout", "--seed", "42", "--format", "gamelog", "-o", plain])
            .status
            .success()
    );
    let text = std::fs::read(plain).expect("read");
    assert_eq!(text.first(), Some(&b'{'));
    let replayed = dgn(&["replay", plain]);
    let overview = dgn(&["layout", "--seed", "42"]);
    assert_eq!(replayed.stdout, overview.stdout);
}

/// A gamelog, as a JSON value, changed by `f`, written plain.
fn broken(f: impl FnOnce(&mut Value)) -> Vec<u8> {
    let gl = dgn(&["layout", "--seed", "1", "--wizard", "--format", "gamelog"]);
    let mut log: Value = serde_json::from_slice(&gunzip(&gl.stdout)).expect("gamelog");
    f(&mut log);
    serde_json::to_vec(&log).expect("JSON")
}

fn replay_stdin(bytes: &[u8]) -> Output {
    let mut child = Command::new(DGN)
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let bytes = bytes.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    out
}

#[test]
fn replay_refuses_a_broken_gamelog_with_what_and_where() {
    let good = dgn(&["layout", "--seed", "1", "--wizard", "--format", "gamelog"]).stdout;
    let first_ran = |log: &mut Value| -> usize {
        log["deltas"]
            .as_array()
            .expect("deltas")
            .iter()
            .position(|d| d["type"] == "ran" && d["game"]["dungeons"].is_object())
            .expect("a draw that makes a dungeon")
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("a truncated gzip", good[..good.len() / 2].to_vec(), "gzip"),
        ("not JSON", b"{\"gameName\": ".to_vec(), "not JSON"),
        ("not a gamelog", b"{\"a\": 1}".to_vec(), "not a gamelog"),
        (
            "no start",
            broken(|l| {
                l["deltas"].as_array_mut().expect("deltas").remove(0);
            }),
            "`start`",
        ),
        (
            "a bad &LEN",
            broken(|l| {
                let i = first_ran(l);
                l["deltas"][i]["game"]["dungeons"]["&LEN"] = Value::from(-3);
            }),
            "/dungeons/&LEN",
        ),
        (
            "an &LEN past the elements",
            broken(|l| {
                let i = first_ran(l);
                l["deltas"][i]["game"]["dungeons"]["&LEN"] = Value::from(9);
            }),
            "/dungeons",
        ),
        (
            "a reference to no object",
            broken(|l| {
                l["deltas"][0]["game"]["gameObjects"]["l0"]["dungeon"]["id"] = Value::from("d999");
            }),
            "d999",
        ),
        (
            "a ran without its draw",
            broken(|l| {
                let i = first_ran(l);
                l["deltas"][i]["data"] = Value::Null;
            }),
            "`ran`",
        ),
        (
            "&RM inside an array",
            broken(|l| {
                let i = first_ran(l);
                l["deltas"][i]["game"]["dungeons"]["0"] = Value::from("&RM");
            }),
            "inside an array",
        ),
        (
            "a state that is not a layout",
            broken(|l| {
                let over = l["deltas"].as_array_mut().and_then(|d| d.last_mut());
                over.expect("over")["game"]["tune"] = Value::from(5);
            }),
            "not a dungeon layout",
        ),
        (
            "an unknown game",
            broken(|l| l["settings"]["target"] = Value::from("nethack-9")),
            "nethack-9",
        ),
    ];
    for (what, bytes, says) in cases {
        let out = replay_stdin(&bytes);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{what}: {err}");
        assert!(err.contains(says), "{what}: `{says}` not in: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
    }
    let missing = dgn(&["replay", "/nonexistent/log.json.gz"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn a_gamelog_is_one_seed_written_where_asked() {
    let many = dgn(&["layout", "--seeds", "0..3", "--format", "gamelog"]);
    assert_eq!(many.status.code(), Some(2));
    let stray = dgn(&["layout", "--seed", "1", "-o", "x.json"]);
    assert_eq!(stray.status.code(), Some(2));
    // A failing seed's log ends with the error, and the command says so.
    let bad = "DUNGEON: \"The Dungeons of Doom\" \"D\" (2, 3)\nLEVEL: \"oracle\" \"O\" @ (3, 2)\nLEVEL: \"bigrm\" \"B\" @ (3, 2)\n";
    let dir = tempdir();
    let path = dir.join("dungeon.def");
    std::fs::write(&path, bad).expect("write");
    let out = dgn(&[
        "layout",
        path.to_str().expect("path"),
        "--format",
        "gamelog",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log: Value = serde_json::from_slice(&gunzip(&out.stdout)).expect("gamelog");
    let over = log["deltas"]
        .as_array()
        .and_then(|d| d.last())
        .expect("over");
    assert!(over["data"]["error"].is_string(), "{over}");
}

#[test]
fn the_server_sends_a_gamelog_gzipped() {
    let server = Server::start(Limits::default());
    let path = "/api/layout?seed=42&format=gamelog";
    let mut s = std::net::TcpStream::connect(server.addr).expect("connect");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .expect("send");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("headers");
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-encoding: gzip"), "{head}");
    assert!(head.contains("content-type: application/json"), "{head}");
    let log: Value = serde_json::from_slice(&gunzip(&raw[split + 4..])).expect("gamelog");
    let f = fold(&log);
    let json = dgn(&["layout", "--seed", "42", "--format", "json"]);
    let json: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(f.state["levels"], json["levels"]);
    assert_eq!(f.state["tune"], json["tune"]);
}

/// The whole gamelog of a small description, pinned: every member of the
/// top level, the start's objects and each draw's delta as dgnkit writes
/// them (a change to the format shows here first).
#[test]
fn a_small_description_s_gamelog_is_pinned() {
    let dir = std::env::temp_dir().join(format!("dgn-gamelog-pin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let def = dir.join("small.def");
    std::fs::write(
        &def,
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (5, 2)\n\
         LEVEL: \"oracle\" \"O\" @ (2, 2)\n\
         RNDLEVEL: \"bigrm\" \"B\" @ (3, 2) 40 2\n\
         BRANCH: \"The Gnomish Mines\" @ (2, 2)\n\
         DUNGEON: \"The Gnomish Mines\" \"M\" (3, 1)\n\
         LEVEL: \"minetn\" \"T\" @ (2, 1)\n",
    )
    .expect("write the description");
    let log = dir.join("small.json");
    let out = dgn(&[
        "layout",
        "--target",
        "native",
        "--seed",
        "7",
        "--format",
        "gamelog",
        "-o",
        log.to_str().expect("a UTF-8 path"),
        def.to_str().expect("a UTF-8 path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).expect("the log");
    let mut v: Value = serde_json::from_str(&text).expect("JSON");
    // The description's path is the scratch folder's.
    v["settings"]["file"] = Value::from("small.def");
    insta::assert_snapshot!(serde_json::to_string_pretty(&v).expect("JSON"));
    let _ = std::fs::remove_dir_all(&dir);
}
