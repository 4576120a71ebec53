//! `dgn session` on files that are not sessions it reads: each gets exit
//! status 2 and a message naming what is wrong. dgnkit's own
//! `--trace=session` log, read as a session, matches it; mutated (the Lua
//! reader's byte mutations, entries altered, gzipped and cut), it is read or
//! refused, never a panic, and a report agrees with itself. The fuzz
//! target `session_reader` runs the same properties coverage-guided; the
//! real sessions are checked end to end in `tests/`, against `../shared`.

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

/// NetHack 3.7's own `dungeon.lua`, as `dgn session` lays it out.
fn script() -> &'static dgnkit::script::Script {
    static SCRIPT: std::sync::OnceLock<dgnkit::script::Script> = std::sync::OnceLock::new();
    SCRIPT.get_or_init(|| {
        let (_, source) = dgnkit_cli::layout::built_in(dgnkit::options::Target::NetHack37);
        let opts = dgnkit::frontend::CheckOptions {
            target: dgnkit::options::Target::NetHack37,
            ..Default::default()
        };
        dgnkit::frontend::analyze(source, &opts).script.unwrap()
    })
}

/// A v4 session made of dgnkit's own `--trace=session` log for seed 7's
/// Wizard in wizard mode, with a marker, an event and a composite entry
/// among the draws (skipped, as the C game's logs have them), and the
/// draws of the game's level creation after them.
fn own_session() -> (String, usize) {
    use dgnkit_cli::layout::{execute, parse_args, Terminal};
    let args = parse_args([
        "layout",
        "--target",
        "nethack-3.7",
        "--seed",
        "7",
        "--role",
        "Wizard",
        "--wizard",
        "--trace=session",
    ])
    .unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(execute(&args, &mut out, &mut err, Terminal::default()), 0);
    let trace = String::from_utf8(err).unwrap();
    let mut rng: Vec<String> = trace.lines().map(String::from).collect();
    let draws = rng.len();
    rng.insert(1, ">shuffle".to_string());
    rng.insert(5, "^place[1,2,3]".to_string());
    rng.insert(9, "d(2,6)=7 @ x(y.c:1)".to_string());
    rng.push("rnd(3)=3 @ newpw(exper.c:52)".to_string());
    let session = serde_json::json!({
        "version": 4,
        "seed": 7,
        "env": {"NETHACK_SEED": "7"},
        "nethackrc": "OPTIONS=name:Wizard,role:Wizard,race:human,gender:male,align:neutral\nWIZARD=Wizard\n",
        "recorded_with": {"nethack_c": "79c688cc6"},
        "source": "c",
        "steps": [{"key": null, "rng": rng, "screen": "Hello Wizard, welcome to NetHack!  You are a neutral male human Wizard."}],
    });
    (session.to_string(), draws)
}

#[test]
fn dgnkits_own_trace_read_as_a_session_matches_it() {
    let (text, draws) = own_session();
    let s = dgnkit::session::read(text.as_bytes(), false).unwrap();
    let (target, by) = dgnkit::session::game_of(&s, None).unwrap();
    let r = dgnkit::session::check(&s, script(), target, by).unwrap();
    assert!(r.matches(), "{}", dgnkit_cli::session::human("own", &s, &r));
    assert_eq!(
        (r.draws, r.matched, r.session_draws),
        (draws, draws, draws + 1)
    );
    let path = dir().join("own.session.json.gz");
    std::fs::write(&path, gz(text.as_bytes())).unwrap();
    let (code, out, err) = run(&[path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("\n{draws} draws match: ")), "{out}");
}

/// A change to a session's text: one of the Lua reader's byte mutations
/// (`lua_mutation`), or one character of a log entry, the JSON kept whole.
#[derive(Clone, Debug)]
enum Mutation {
    Bytes(crate::lua_mutation::Mutation),
    /// Change one character of the (index mod count)-th log entry.
    Entry(usize, usize, char),
}

fn apply(text: &str, mutations: &[Mutation]) -> Vec<u8> {
    let mut out = text.as_bytes().to_vec();
    for m in mutations {
        match m {
            Mutation::Bytes(b) => out = crate::lua_mutation::apply(&out, std::slice::from_ref(b)),
            Mutation::Entry(e, p, c) => {
                let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(&out) else {
                    continue;
                };
                let Some(rng) = v["steps"][0]["rng"].as_array_mut() else {
                    continue;
                };
                if rng.is_empty() {
                    continue;
                }
                let k = e % rng.len();
                let mut chars: Vec<char> = rng[k].as_str().unwrap_or("").chars().collect();
                if !chars.is_empty() {
                    let i = p % chars.len();
                    chars[i] = *c;
                }
                rng[k] = serde_json::Value::String(chars.into_iter().collect());
                out = v.to_string().into_bytes();
            }
        }
    }
    out
}

fn mutation() -> impl proptest::strategy::Strategy<Value = Mutation> {
    use proptest::prelude::*;
    prop_oneof![
        crate::lua_mutation::mutation().prop_map(Mutation::Bytes),
        (
            any::<usize>(),
            any::<usize>(),
            prop::sample::select(vec!['0', '1', '9', '(', ')', '=', '@', ' ', '>', 'd', '-'])
        )
            .prop_map(|(e, p, c)| Mutation::Entry(e, p, c)),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, ..Default::default() })]

    /// A broken session, plain or gzipped, is read or refused with a
    /// message, never a panic; a report agrees with itself and prints.
    #[test]
    fn mutated_sessions_never_panic(
        mutations in proptest::collection::vec(mutation(), 1..5),
        zipped in proptest::prelude::any::<bool>(),
        cut_gzip in proptest::prelude::any::<Option<usize>>(),
    ) {
        let (text, _) = own_session();
        let mut bytes = apply(&text, &mutations);
        if zipped {
            bytes = gz(&bytes);
            if let Some(p) = cut_gzip {
                bytes.truncate(p % (bytes.len() + 1));
            }
        }
        let s = match dgnkit::session::read(&bytes, zipped) {
            Ok(s) => s,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                return Ok(());
            }
        };
        let (target, by) = match dgnkit::session::game_of(&s, None) {
            Ok(g) => g,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                return Ok(());
            }
        };
        let Ok(r) = dgnkit::session::check(&s, script(), target, by) else {
            return Ok(());
        };
        assert!(r.matched <= r.draws);
        assert_eq!(r.divergence.is_some(), !r.matches());
        assert_eq!(r.layout.is_some(), r.matches());
        let _ = dgnkit_cli::session::human("mutant", &s, &r);
        let v = dgnkit_cli::session::to_json("mutant", &s, &r);
        assert_eq!(v["match"], r.matches());
    }
}
