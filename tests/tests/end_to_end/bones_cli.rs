//! `dgn bones` end to end: one seed's table (human and the documented
//! JSON), the verdicts over every layout, options and errors.

use dgnkit_cli::bones::{execute, parse_args};
use serde_json::Value;

fn run(args: &[&str]) -> (u8, String, String) {
    dgnkit_tests::run_cli("bones", args, parse_args, |a, out, err| {
        execute(a, out, err, false)
    })
}

#[test]
fn one_seed_as_json_has_exactly_the_documented_fields() {
    let (code, out, err) = run(&["--seed", "3", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let obj = v.as_object().unwrap();
    assert_eq!(obj.keys().collect::<Vec<_>>(), ["levels"]);
    let levels = v["levels"].as_array().unwrap();
    let keys = [
        "can_load",
        "depth",
        "dungeon",
        "file",
        "leave_chance",
        "level",
        "rule",
        "special",
    ];
    for l in levels {
        let mut k: Vec<&String> = l.as_object().unwrap().keys().collect();
        k.sort();
        assert_eq!(k, keys);
        let rule = l["rule"].as_str().unwrap();
        let n: u8 = rule.split(':').next().unwrap().parse().unwrap();
        // NetHack 3.6 has bones.md's rules 1-8 only (9-12 are variants').
        assert!((1..=8).contains(&n));
        // file is null exactly when rules 1-5 forbid bones.
        assert_eq!(
            l["file"].is_null(),
            !l["can_load"].as_bool().unwrap(),
            "{l}"
        );
        assert_eq!(l["can_load"].as_bool().unwrap(), n >= 6, "{l}");
        if n < 8 {
            assert_eq!(l["leave_chance"].as_f64(), Some(0.0));
        }
    }
    // One entry per level of every dungeon.
    let (_, layout, _) = {
        let args =
            dgnkit_cli::layout::parse_args(["layout", "--seed", "3", "--format", "json"]).unwrap();
        let (mut o, mut e) = (Vec::new(), Vec::new());
        let c = dgnkit_cli::layout::execute(&args, &mut o, &mut e, Default::default());
        (c, String::from_utf8(o).unwrap(), e)
    };
    let layout: Value = serde_json::from_str(&layout).unwrap();
    let total: i64 = layout["dungeons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["num_levels"].as_i64().unwrap())
        .sum();
    assert_eq!(levels.len() as i64, total);
    let oracle = levels.iter().find(|l| l["special"] == "oracle").unwrap();
    assert_eq!(oracle["file"], "bonD0.O");
}

#[test]
fn roles_name_the_quest_files() {
    let (_, out, _) = run(&["--seed", "1", "--role", "Samurai", "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let loca = v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["special"] == "x-loca")
        .unwrap();
    assert_eq!(loca["file"], "bonQSam.L");
    let (_, out, _) = run(&["--seed", "1", "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let loca = v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["special"] == "x-loca")
        .unwrap();
    assert_eq!(loca["file"], "bonQ*.L");
}

#[test]
fn human_table_and_static_verdicts() {
    let (code, out, _) = run(&["--seed", "0"]);
    assert_eq!(code, 0);
    assert!(out
        .starts_with("Bones on nethack-3.6.def (built in), seed 0 (isaac64, nethack-3.6 loader)"));
    assert!(out.contains("1: special level \"castle\" has bones marker \"none\""));
    let (code, out, _) = run(&[]);
    assert_eq!(code, 0);
    assert!(out.contains("exact enumeration"));
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("fakewiz1") && l.contains("load only (rule 6)")),
        "{out}"
    );
    let (code, out, _) = run(&["--format", "json", "--portal-levels", "oracle"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    let find = |n: &str| {
        v["levels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(find("oracle")["verdict"], "load-only");
    assert_eq!(find("fakewiz1")["verdict"], "eligible");
    assert_eq!(find("medusa")["verdict"], "never");
    assert_eq!(find("medusa")["rules"], serde_json::json!([1]));
    let sokoban = v["dungeons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "Sokoban")
        .unwrap()
        .clone();
    assert_eq!(sokoban["verdict"], "never");
    assert_eq!(sokoban["rules"], serde_json::json!([2]));
}

#[test]
fn a_compiled_file_selects_the_version_its_header_states() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let bin = shared.join("expected/compiled/vanilla343.343.bin");
    let bin = bin.to_str().unwrap();
    let (code, out, err) = run(&["--seed", "3", bin]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(glibc, nethack-3.4.3 loader)"), "{out}");
    let (_, given, _) = run(&["--seed", "3", "--target", "nethack-3.4.3", bin]);
    assert_eq!(out, given);
    let (_, out, _) = run(&["--seed", "3", "--target", "nethack-3.6", bin]);
    assert!(out.contains("(isaac64, nethack-3.6 loader)"), "{out}");
    let (_, out, _) = run(&["--seed", "3", "--rng", "isaac64", bin]);
    assert!(out.contains("(isaac64, nethack-3.4.3 loader)"), "{out}");
    let (_, out, _) = run(&[bin]);
    assert!(out.contains("nethack-3.4.3 loader, every layout"), "{out}");
}

#[test]
fn errors_and_exit_codes() {
    assert_eq!(run(&["--format", "short"]).0, 2);
    assert_eq!(run(&["/nonexistent"]).0, 2);
    assert_eq!(run(&["--seed", "x"]).0, 2);
    let p = std::env::temp_dir().join(format!("dgnkit-bones-cli-{}.def", std::process::id()));
    // Level 4 exists only when the dungeon has 4 levels: half the seeds
    // fail to load.
    std::fs::write(
        &p,
        "DUNGEON: \"Top\" \"T\" (3, 2)\nLEVEL: \"x\" \"X\" @ (4, 0)\n",
    )
    .unwrap();
    let file = p.to_str().unwrap();
    let codes: Vec<u8> = (0..20)
        .map(|s| run(&["--seed", &s.to_string(), "--target", "native", file]).0)
        .collect();
    assert!(codes.contains(&0) && codes.contains(&1), "{codes:?}");
    let failing = codes.iter().position(|&c| c == 1).unwrap();
    let (_, _, err) = run(&["--seed", &failing.to_string(), "--target", "native", file]);
    assert!(
        err.contains(&format!("seed {failing}")) && err.contains("base level 4"),
        "{err}"
    );
}

/// The variants' own rules, in both formats: SLASH'EM's rule 9, dNetHack's
/// other-end rules, its notes, and the verdicts over every layout.
#[test]
fn variant_rules_in_both_formats() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let slashem = shared.join("corpus/dirkz__slashem-iphone/dungeon.def");
    let dnao = shared.join("corpus/Chris-plus-alphanumericgibberish__dNAO@HEAD/dungeon.def");
    let (s, d) = (slashem.to_str().unwrap(), dnao.to_str().unwrap());
    let (code, out, err) = run(&[
        "--target",
        "slashem",
        "-U",
        "REINCARNATION",
        "--seed",
        "3",
        s,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("9: level 1 of \"Gehennom\" never holds bones"),
        "{out}"
    );
    assert!(!out.contains("Note:"), "{out}");
    let (code, out, err) = run(&[
        "--target",
        "dnethack",
        "-D",
        "REINCARNATION",
        "--seed",
        "3",
        "--format",
        "json",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let notes = v["notes"].as_array().unwrap();
    assert!(notes
        .iter()
        .any(|n| n.as_str().unwrap().contains("`bones`")));
    assert!(notes.iter().any(|n| n.as_str().unwrap().contains("--role")));
    let rules: Vec<u8> = v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            l["rule"]
                .as_str()
                .unwrap()
                .split(':')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert!(rules.contains(&12), "{rules:?}");
    assert!(!rules.iter().any(|r| [3, 4, 6, 9].contains(r)), "{rules:?}");
    let (code, out, err) = run(&[
        "--target",
        "dnethack",
        "-D",
        "REINCARNATION",
        "--role",
        "Madman",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Note: loading also needs the game option `bones`"),
        "{out}"
    );
    assert!(!out.contains("give --role"), "{out}");
    // Every layout, enumerated exactly.
    assert!(out.contains("exact enumeration"), "{out}");
    assert!(!out.contains("sampl"), "{out}");
    let (code, out, err) = run(&[
        "--target",
        "slashem",
        "-U",
        "REINCARNATION",
        "--format",
        "json",
        s,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let valley = v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "valley")
        .unwrap()
        .clone();
    assert_eq!(valley["verdict"], "never", "{valley}");
}
