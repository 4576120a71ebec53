//! Parity of `--target nle` with NLE itself: every line of
//! `../shared/expected/nle/nle-1.3.0-wizwhere.jsonl` is a game start of
//! NLE 1.3.0 (NetHack 3.6.7) with its seeds (`core`, `disp`, `lgen`), its
//! character options (random ones included) and the game's own
//! `#wizwhere` text. `dgn layout --target nle --seed CORE [--option
//! lgen=N] --role .. --race .. --gender .. --align .. --wizard` must print
//! that text line for line, and name the hero of the game's welcome.

use dgnkit_cli::layout::{execute, parse_args, Terminal};
use serde_json::Value;

fn run(args: &[String]) -> (u8, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    dgnkit_tests::run_cli("layout", &args, parse_args, |a, out, err| {
        execute(a, out, err, Terminal::default())
    })
}

/// The command line for one recorded start.
fn command(line: &Value) -> Result<Vec<String>, String> {
    let core = line["core"].as_u64().ok_or("no core")?;
    let mut args = vec![
        "--target".to_string(),
        "nle".to_string(),
        "--seed".to_string(),
        core.to_string(),
    ];
    if line["wizard"].as_bool() == Some(true) {
        args.push("--wizard".into());
    }
    if let Some(lgen) = line["lgen"].as_u64() {
        args.push("--option".into());
        args.push(format!("lgen={lgen}"));
    }
    for option in dgnkit_tests::json_strings(&line["options"]) {
        let (key, value) = option.split_once(':').ok_or("an option without `:`")?;
        args.push(format!("--{key}"));
        args.push(value.to_string());
    }
    Ok(args)
}

fn check_line(line: &Value) -> Result<(), String> {
    let args = command(line)?;
    let (code, out, err) = run(&args);
    if code != 0 {
        return Err(format!("exit {code}: {err}"));
    }
    let got: Vec<&str> = out
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    let want = dgnkit_tests::json_strings(&line["wizwhere"]);
    if got != want {
        let i = (0..got.len().max(want.len()))
            .find(|&i| got.get(i).copied() != want.get(i).map(String::as_str))
            .unwrap_or(0);
        return Err(format!(
            "line {}: NLE printed {:?}, dgnkit {:?}",
            i + 1,
            want.get(i),
            got.get(i)
        ));
    }
    let welcome = line["welcome"].as_str().ok_or("no welcome")?;
    let hero = welcome
        .rsplit_once("You are a")
        .map(|(_, h)| h.trim().trim_end_matches('.'))
        .ok_or("a welcome without the hero")?;
    if !err.contains(&format!("you are a {hero}.")) {
        return Err(format!("NLE made a {hero}; dgnkit said {err:?}"));
    }
    // The JSON names the same hero.
    let mut json = args.clone();
    json.extend(["--format".to_string(), "json".to_string()]);
    let (_, out, _) = run(&json);
    let layout: Value = serde_json::from_str(&out).map_err(|e| e.to_string())?;
    if layout["character"]["text"].as_str() != Some(hero) {
        return Err(format!("JSON character {}", layout["character"]));
    }
    Ok(())
}

#[test]
fn every_recorded_nle_game_start_prints_nle_s_own_overview() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let path = shared.join("expected/nle/nle-1.3.0-wizwhere.jsonl");
    let text = std::fs::read_to_string(&path).expect("nle-1.3.0-wizwhere.jsonl");
    let lines: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let results = dgnkit_tests::par_map(&lines, check_line);
    let failures: Vec<String> = lines
        .iter()
        .zip(results)
        .filter_map(|(line, r)| {
            r.err().map(|e| {
                format!(
                    "core {} lgen {} {}: {e}",
                    line["core"], line["lgen"], line["options"]
                )
            })
        })
        .collect();
    assert!(lines.len() >= 50, "only {} NLE starts", lines.len());
    // The set holds both kinds of seeding and random heroes.
    assert!(lines.iter().any(|l| l["lgen"].is_u64()));
    assert!(lines
        .iter()
        .any(|l| dgnkit_tests::json_strings(&l["options"]).contains(&"role:random".to_string())));
    assert!(
        failures.is_empty(),
        "{} of {} NLE starts differ:\n{}",
        failures.len(),
        lines.len(),
        failures.join("\n")
    );
}

/// NLE's display generator is never drawn before the dungeon is made
/// (`rn2_on_display_rng` serves only the display): `disp` is not an
/// input at all, and with `lgen` the hero's choice on `core` is the only
/// thing `core` changes.
#[test]
fn with_lgen_the_dungeon_follows_lgen_and_the_hero() {
    let layout = |core: &str, lgen: &str, role: &str| {
        let args: Vec<String> = [
            "--target", "nle", "--seed", core, "--option", lgen, "--role", role, "--race", "hum",
            "--gender", "fem", "--align", "law", "--wizard",
        ]
        .map(String::from)
        .to_vec();
        run(&args)
    };
    let (code, a, _) = layout("42", "lgen=7", "Val");
    assert_eq!(code, 0);
    assert_eq!(
        layout("43", "lgen=7", "Val").1,
        a,
        "core moves nothing with lgen"
    );
    assert_ne!(layout("42", "lgen=8", "Val").1, a, "lgen moves the dungeon");
    assert_ne!(layout("42", "lgen=none", "Val").1, a);
}

#[test]
fn nle_s_default_hero_is_its_monk_and_facets_are_checked() {
    let args = |extra: &[&str]| -> Vec<String> {
        ["--target", "nle", "--seed", "5", "--wizard"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    // Outside wizard mode NLE's default name, Agent-mon-hum-neu-mal, names
    // the hero; wizard mode drops the name's suffix, so the game asks and
    // NLE's reset() answers `y` (tests/nle checks such starts live).
    let (code, _, err) = run(&args(&[])[..4]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("you are a neutral male human Monk."), "{err}");
    let (code, _, err) = run(&args(&[]));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("seed 5: you are a ") && !err.contains("Monk"),
        "{err}"
    );
    let named: Vec<String> = args(&[])[..4]
        .iter()
        .cloned()
        .chain(["--option".into(), "name=Agent-val-dwa".into()])
        .collect();
    let (code, _, err) = run(&named);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("you are a lawful dwarven Valkyrie."), "{err}");
    let (code, _, err) = run(&args(&["--role", "Kni", "--align", "chaotic"]));
    assert_eq!(code, 2);
    assert!(err.contains("no hero is chaotic Knight"), "{err}");
    let (code, _, err) = run(&args(&["--gender", "neuter"]));
    assert_eq!(code, 2);
    assert!(err.contains("unknown gender `neuter`"), "{err}");
    let (code, _, err) = run(&args(&["--option", "lgen=x"]));
    assert_eq!(code, 2);
    assert!(err.contains("lgen"), "{err}");
}

/// Without `lgen`, NLE's start is NetHack 3.6.7's own: `--target
/// nethack-3.6 --game-start` gives the same dungeon and hero.
#[test]
fn nethack_36_s_game_start_is_nle_s_without_lgen() {
    for (seed, hero) in [
        (
            "1",
            &[
                "--role", "random", "--race", "random", "--gender", "random", "--align", "random",
            ][..],
        ),
        (
            "42",
            &[
                "--role", "Pri", "--race", "elf", "--gender", "fem", "--align", "cha",
            ][..],
        ),
    ] {
        let with = |target: &[&str]| {
            let args: Vec<String> = target
                .iter()
                .chain(&["--seed", seed])
                .chain(hero)
                .map(|s| s.to_string())
                .collect();
            run(&args)
        };
        let nle = with(&["--target", "nle"]);
        let vanilla = with(&["--target", "nethack-3.6", "--game-start"]);
        assert_eq!(nle.0, 0, "{}", nle.2);
        assert_eq!(nle, vanilla);
    }
    // 3.6.0 and 3.6.1 (glibc) chose a random hero otherwise: refused.
    let glibc = |hero: &[&str]| {
        let args: Vec<String> = ["--target", "nethack-3.6", "--game-start", "--rng", "glibc"]
            .iter()
            .chain(hero)
            .map(|s| s.to_string())
            .collect();
        run(&args)
    };
    let (code, _, err) = glibc(&["--role", "random"]);
    assert_eq!(code, 1);
    assert!(err.contains("3.6.0 and 3.6.1"), "{err}");
    let (code, _, err) = glibc(&[
        "--role", "Sam", "--race", "hum", "--gender", "mal", "--align", "law",
    ]);
    assert_eq!(code, 0, "{err}");
    // The hero's facets are read by the game start only.
    let (code, _, err) = run(&["--gender".to_string(), "male".to_string()]);
    assert_eq!(code, 2);
    assert!(err.contains("add --game-start"), "{err}");
    let (code, _, err) = run(&["--target", "dnethack", "--role", "random"].map(String::from));
    assert_eq!(code, 2, "{err}");
}
