//! `dgn stats` end to end: argument parsing, the JSON shape, the chart
//! formats, sampling on request, `--exact` on a file too large, errors.
//!
//! The chart's look is checked by rendering it: `dgn stats --format html >
//! s.html`, then `chromium --headless --no-sandbox --disable-gpu
//! --no-first-run --user-data-dir=$(mktemp -d) --window-size=1280,1400
//! --screenshot=s.png s.html`, and looking at `s.png`.

use dgnkit_cli::stats::{execute, parse_args};
use serde_json::Value;

fn run(args: &[&str]) -> (u8, String, String) {
    dgnkit_tests::run_cli("stats", args, parse_args, |a, out, err| {
        execute(a, out, err, false)
    })
}

fn sums_to_one(what: &str, dist: &Value) {
    let m = dist
        .as_object()
        .unwrap_or_else(|| panic!("{what}: not an object"));
    if m.is_empty() {
        return;
    }
    let total: f64 = m.values().map(|v| v.as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{what}: sums to {total}");
    for k in m.keys() {
        k.parse::<i32>()
            .unwrap_or_else(|_| panic!("{what}: key {k} is not a number"));
    }
}

#[test]
fn json_has_the_documented_shape_and_distributions_sum_to_one() {
    let (code, out, err) = run(&["--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["method"]["kind"], "exact");
    assert!(v["method"]["max_error"].as_f64().unwrap() < 1e-10);
    assert_eq!(v["failure"].as_f64(), Some(0.0));
    let dungeons = v["dungeons"].as_array().unwrap();
    assert_eq!(dungeons.len(), 8);
    for d in dungeons {
        let name = d["name"].as_str().unwrap();
        assert!(d["exists"].as_f64().unwrap() > 0.0);
        sums_to_one(&format!("{name} num_levels"), &d["num_levels"]);
        sums_to_one(&format!("{name} depth_start"), &d["depth_start"]);
    }
    assert_eq!(
        dungeons[0]["num_levels"]["27"]
            .as_f64()
            .map(|p| (p * 5.0).round()),
        Some(1.0)
    );
    let levels = v["levels"].as_array().unwrap();
    for l in levels {
        let name = l["name"].as_str().unwrap();
        assert!(l["dungeon"].is_string());
        sums_to_one(&format!("{name} level"), &l["level"]);
        sums_to_one(&format!("{name} depth"), &l["depth"]);
    }
    let bigrm = levels.iter().find(|l| l["name"] == "bigrm").unwrap();
    assert!((bigrm["exists"].as_f64().unwrap() - 0.4).abs() < 1e-12);
    for b in v["branches"].as_array().unwrap() {
        assert!(b["to"].is_string() && b["from"].is_string());
        sums_to_one(&format!("branch to {}", b["to"]), &b["level"]);
    }
    let quest = v["branches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["to"] == "The Quest")
        .unwrap();
    // oracle 5..9, portal at oracle + 6..7: 11 and 16 have one way each.
    assert!((quest["level"]["11"].as_f64().unwrap() - 0.1).abs() < 1e-12);
    assert!((quest["level"]["13"].as_f64().unwrap() - 0.2).abs() < 1e-12);
    // The castle is always the bottom; level 25 holds it when the dungeon
    // has 25 levels (1/5), and otherwise medusa (N-4 .. N-1) lies there one
    // time in four: 4/5 * 3/4 = 0.6.
    let castle = levels.iter().find(|l| l["name"] == "castle").unwrap();
    assert_eq!(castle["bones"]["can_load"].as_f64(), Some(0.0));
    let bones = v["bones"].as_array().unwrap();
    let level25 = bones
        .iter()
        .find(|c| c["dungeon"] == "The Dungeons of Doom" && c["level"] == 25)
        .unwrap();
    let p = level25["bones"]["can_load"].as_f64().unwrap();
    assert!((p - 0.6).abs() < 1e-12, "{p}");
}

#[test]
fn charts_and_tables() {
    let (code, svg, _) = run(&["--format", "svg"]);
    assert_eq!(code, 0);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(">oracle<") && svg.contains("<title>oracle: depth 7, 20.0%</title>"));
    let (code, html, _) = run(&["--format", "html"]);
    assert_eq!(code, 0);
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.contains("<table>") && html.contains("<svg")
    );
    let (code, text, _) = run(&[]);
    assert_eq!(code, 0);
    for heading in ["Dungeons", "Special levels", "Branches", "Bones per level"] {
        assert!(
            text.lines().any(|l| l.starts_with(heading)),
            "missing {heading}"
        );
    }
    assert!(text.contains("exact enumeration"));
}

#[test]
fn sampling_on_request_says_so() {
    let (code, out, err) = run(&["--sample", "--samples", "500", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["method"]["kind"], "sampled");
    assert_eq!(v["method"]["samples"], 500);
    assert_eq!(v["method"]["rng"], "isaac64");
    let (code, out, _) = run(&["--sample", "--samples", "300", "--target", "nethack-3.4.3"]);
    assert_eq!(code, 0);
    assert!(out.contains("sampled: 300 seeds from 0 (glibc)"), "{out}");
}

#[test]
fn too_large_files_sample_or_fail_with_exact() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    // UnNetHack's Gehennom: 22,000 placement-search states (its nine
    // optional levels mixed into the search's tail); a budget of 1,000 is
    // too small.
    let big = shared.join("expected/compiled/UnNetHack__UnNetHack.36.bin");
    let path = big.to_str().unwrap();
    let small = ["--max-search-states", "1000"];
    let (code, _, err) = run(&[&["--exact"][..], &small, &[path]].concat());
    assert_eq!(code, 1);
    assert!(
        err.contains("needs more than") && err.contains("drop --exact"),
        "{err}"
    );
    let (code, out, err) =
        run(&[&small[..], &["--samples", "200", "--format", "json", path]].concat());
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["method"]["kind"], "sampled");
    assert!(
        v["method"]["reason"]
            .as_str()
            .unwrap()
            .contains("placing the levels of"),
        "{v}"
    );
    // Within the default budget it is exact.
    let (code, out, err) = run(&["--exact", "--format", "json", path]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["method"]["kind"], "exact");
}

#[test]
fn a_compiled_file_selects_the_version_its_header_states() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let bin = shared.join("expected/compiled/vanilla343.343.bin");
    let bin = bin.to_str().unwrap();
    let (code, stated, err) = run(&[bin]);
    assert_eq!(code, 0, "{err}");
    assert!(stated.contains("nethack-3.4.3 loader"), "{stated}");
    let (_, given, _) = run(&["--target", "nethack-3.4.3", bin]);
    assert_eq!(stated, given);
    let (_, out, _) = run(&["--target", "nethack-3.6", bin]);
    assert!(out.contains("nethack-3.6 loader"), "{out}");
    // Sampling draws from the stated version's generator.
    let (_, out, _) = run(&["--sample", "--samples", "50", "--format", "json", bin]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["method"]["rng"], "glibc", "{out}");
}

#[test]
fn errors_and_exit_codes() {
    assert_eq!(run(&["/nonexistent/dungeon.def"]).0, 2);
    assert_eq!(run(&["--format", "pdf"]).0, 2);
    assert_eq!(run(&["--sample", "--exact"]).0, 2);
    let p = std::env::temp_dir().join(format!("dgnkit-stats-cli-{}.def", std::process::id()));
    std::fs::write(
        &p,
        "DUNGEON: \"Top\" \"T\" (5, 0)\nLEVEL: \"x\" \"X\" @ (9, 0\n",
    )
    .unwrap();
    let (code, _, err) = run(&[p.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    // A file whose loader fails half the time.
    std::fs::write(
        &p,
        "DUNGEON: \"Top\" \"T\" (3, 2)\nLEVEL: \"x\" \"X\" @ (4, 0)\n",
    )
    .unwrap();
    let (code, out, err) = run(&[
        "--target",
        "native",
        "--format",
        "json",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["failure"].as_f64(), Some(0.5));
    assert_eq!(v["failures"][0]["code"], "base-out-of-range");
    assert!(v["failures"][0]["example"]
        .as_str()
        .unwrap()
        .contains("\"Top\" has 3 levels"));
}

/// dNetHack: its built-in description, with the main dungeon's three
/// 25-level side branches (`@ (5, 25)`, each avoiding the levels earlier
/// branches took), is enumerated exactly, and both formats say so; with a
/// later branch that may land where those three do, the run of side
/// branches cannot be deferred, the enumeration is too large, and the
/// statistics are sampled from the proven loader, and both formats say
/// why.
#[test]
fn dnethack_stats_say_exact_or_why_not() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let built_in = here.join("dnethack-3.23.def");
    let src = std::fs::read_to_string(&built_in).expect("built-in dNetHack description");
    let built_in = built_in.to_string_lossy().into_owned();
    let (code, out, err) = run(&["--target", "dnethack", built_in.as_str()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().any(|l| l.starts_with("exact")), "{out}");
    assert!(
        !out.contains("sampled") && !err.contains("sampl"),
        "{out}{err}"
    );
    let (code, out, err) = run(&[
        "--target",
        "dnethack",
        "--format",
        "json",
        built_in.as_str(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["method"]["kind"], "exact", "{}", v["method"]);
    // Three "Chaos Quest" records, one of them kept: a third each.
    let chaos: Vec<f64> = v["dungeons"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["name"] == "Chaos Quest")
        .map(|d| d["exists"].as_f64().unwrap())
        .collect();
    assert_eq!(chaos.len(), 3);
    assert!(
        chaos.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-9),
        "{chaos:?}"
    );
    // The three side branches each leave from levels 5 to 28: level 29,
    // when there is one, is the castle's, which the branch to Gehennom took.
    for name in ["The Lost Tomb", "The Sunless Sea", "The Temple of Moloch"] {
        let b = v["branches"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["to"] == name)
            .unwrap_or_else(|| panic!("no branch to {name}: {}", v["branches"]));
        let levels = b["level"].as_object().expect("level distribution");
        let mut keys: Vec<i64> = levels.keys().map(|k| k.parse().unwrap()).collect();
        keys.sort_unstable();
        assert_eq!(keys, (5..=28).collect::<Vec<i64>>(), "{name}");
        let sum: f64 = levels.values().map(|p| p.as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{name}: {sum}");
    }

    let line = "BRANCH:\t\t\"The Elemental Planes\" @ (1, 0) no_down up";
    assert!(src.contains(line), "{line}");
    let widened = src.replace(
        line,
        "BRANCH:\t\t\"The Elemental Planes\" @ (5, 25) no_down up",
    );
    let path = std::env::temp_dir().join(format!("dgnkit-dnstats-{}.def", std::process::id()));
    std::fs::write(&path, widened).expect("temporary file");
    let file = path.to_string_lossy().into_owned();
    let sampled = ["--target", "dnethack", "--samples", "500"];
    let (code, out, err) = run(&[&sampled[..], &[file.as_str()]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("sampled") && l.contains("too large")),
        "{out}"
    );
    let (code, out, err) = run(&[&sampled[..], &["--format", "json", file.as_str()]].concat());
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["method"]["kind"], "sampled");
    assert!(
        v["method"]["reason"]
            .as_str()
            .unwrap()
            .contains("too large"),
        "{}",
        v["method"]
    );
}
