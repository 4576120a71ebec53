//! `dgn diff` end to end: what changed between NetHack 3.4.3 and 3.6,
//! 3.6 and 3.7, DynaHack 0.5.5 and 0.6.0, each figure the one `dgn stats`
//! prints for that file; a file against itself; `--fail-on`; the JSON
//! schema; the page; and the mistakes variants have shipped, at the top.
//!
//! The page's look is checked by rendering it: `dgn diff --format html
//! OLD NEW > d.html`, then `chromium --headless --no-sandbox --disable-gpu
//! --no-first-run --user-data-dir=$(mktemp -d) --window-size=1280,1400
//! --screenshot=d.png d.html`, and looking at `d.png`.

use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;

fn run(args: &[&str]) -> (u8, String, String) {
    dgnkit_tests::run_cli("diff", args, dgnkit_cli::diff::parse_args, |a, out, err| {
        dgnkit_cli::diff::execute(a, out, err, false)
    })
}

fn stats(args: &[&str]) -> Value {
    let (code, out, err) = dgnkit_tests::run_cli(
        "stats",
        args,
        dgnkit_cli::stats::parse_args,
        |a, out, err| dgnkit_cli::stats::execute(a, out, err, false),
    );
    assert_eq!(code, 0, "dgn stats {args:?}: {err}");
    serde_json::from_str(&out).expect("stats JSON")
}

fn corpus(name: &str) -> String {
    format!("{}/../corpus/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn shared_corpus(dir: &str) -> Option<String> {
    let path = dgnkit_tests::shared_dir()?
        .join("corpus")
        .join(dir)
        .join("dungeon.def");
    Some(path.to_string_lossy().into_owned())
}

/// A copy of a corpus file with one edit, in the temporary directory.
struct Edited(PathBuf);

impl Edited {
    fn new(from: &str, tag: &str, old: &str, new: &str) -> Edited {
        let text = std::fs::read_to_string(corpus(from)).expect("corpus file");
        assert!(text.contains(old), "{from} has no `{old}`");
        let path =
            std::env::temp_dir().join(format!("dgnkit-diff-cli-{tag}-{}.def", std::process::id()));
        std::fs::write(&path, text.replace(old, new)).expect("write the edited copy");
        Edited(path)
    }

    fn path(&self) -> String {
        self.0.to_string_lossy().into_owned()
    }
}

impl Drop for Edited {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The entry of `stats` an item of the diff names: by kind, name,
/// dungeon and occurrence, as `dgn diff` pairs them.
fn entry_of(stats: &Value, change: &Value) -> Option<Value> {
    let nth = change["occurrence"].as_u64().unwrap_or(1) as usize;
    let name = &change["name"];
    let list = |key: &str| stats[key].as_array().cloned().unwrap_or_default();
    let found: Vec<Value> = match change["kind"].as_str()? {
        "dungeon" => list("dungeons")
            .into_iter()
            .filter(|d| &d["name"] == name)
            .collect(),
        "level" => list("levels")
            .into_iter()
            .filter(|l| &l["name"] == name && l["dungeon"] == change["dungeon"])
            .collect(),
        "branch" => list("branches")
            .into_iter()
            .filter(|b| &b["to"] == name)
            .collect(),
        "bones" => list("bones")
            .into_iter()
            .filter(|c| c["dungeon"] == change["dungeon"] && c["level"] == change["level"])
            .collect(),
        _ => return None,
    };
    found.get(nth - 1).cloned()
}

/// Every figure of the diff is the one `dgn stats` gives for its file,
/// and every entry of either file is an item of the diff.
fn figures_are_the_stats(diff: &Value, old: &Value, new: &Value) {
    let changes = diff["changes"].as_array().expect("changes");
    let mut seen: HashMap<(bool, String), usize> = HashMap::new();
    for c in changes {
        if c["kind"] == "failure" {
            for (side, stats) in [("old", old), ("new", new)] {
                assert_eq!(c[side]["failure"], stats["failure"], "{side} failure");
                assert_eq!(c[side]["failures"], stats["failures"], "{side} failures");
            }
            continue;
        }
        for (is_old, side, stats) in [(true, "old", old), (false, "new", new)] {
            match entry_of(stats, c) {
                Some(e) => {
                    assert_eq!(c[side], e, "{side} figures of {}", c["name"]);
                    *seen.entry((is_old, e.to_string())).or_default() += 1;
                }
                None => assert!(c[side].is_null(), "{side} of {c} is in no stats entry"),
            }
        }
    }
    for (is_old, stats) in [(true, old), (false, new)] {
        for key in ["dungeons", "levels", "branches", "bones"] {
            let entries = stats[key].as_array().expect("a stats list");
            let covered = entries
                .iter()
                .filter(|e| seen.contains_key(&(is_old, e.to_string())))
                .count();
            assert_eq!(covered, entries.len(), "every {key} entry is an item");
        }
    }
}

/// (what, OLD, NEW, targets for OLD and NEW, an item the diff must show)
type Pair = (
    &'static str,
    Option<String>,
    Option<String>,
    &'static str,
    &'static str,
    (&'static str, &'static str),
);

fn pairs() -> Vec<Pair> {
    vec![
        (
            "NetHack 3.4.3 to 3.6",
            Some(corpus("nethack-3.4.3.def")),
            Some(corpus("nethack-3.6.def")),
            "nethack-3.4.3",
            "nethack-3.6",
            ("level", "tower2"),
        ),
        (
            "NetHack 3.6 to 3.7",
            Some(corpus("nethack-3.6.def")),
            Some(corpus("nethack-3.7.lua")),
            "nethack-3.6",
            "nethack-3.7",
            ("dungeon", "The Tutorial"),
        ),
        (
            "DynaHack 0.5.5 to 0.6.0",
            shared_corpus("DynaMoHack__DynaHack@v0.5.5"),
            shared_corpus("DynaMoHack__DynaHack"),
            "dynahack",
            "dynahack",
            ("level", "sanctum"),
        ),
    ]
}

#[test]
fn each_figure_is_the_one_dgn_stats_gives() {
    for (what, old, new, old_target, new_target, (kind, name)) in pairs() {
        let (Some(old), Some(new)) = (old, new) else {
            eprintln!("skipping {what}: ../shared/corpus is absent");
            continue;
        };
        let (code, out, err) = run(&[
            "--old-target",
            old_target,
            "--new-target",
            new_target,
            "--all",
            "--format",
            "json",
            &old,
            &new,
        ]);
        assert_eq!(code, 0, "{what}: {err}");
        let diff: Value = serde_json::from_str(&out).expect("diff JSON");
        let old_stats = stats(&["--target", old_target, "--format", "json", &old]);
        let new_stats = stats(&["--target", new_target, "--format", "json", &new]);
        figures_are_the_stats(&diff, &old_stats, &new_stats);
        assert_eq!(diff["old"]["method"], old_stats["method"], "{what}");
        assert_eq!(diff["new"]["method"], new_stats["method"], "{what}");
        let changed: Vec<&Value> = diff["changes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["status"] != "unchanged")
            .collect();
        assert!(
            changed
                .iter()
                .any(|c| c["kind"] == kind && c["name"] == name),
            "{what}: {kind} {name} is not among the changes"
        );
        // Largest change first.
        let tvds: Vec<f64> = changed.iter().map(|c| c["tvd"].as_f64().unwrap()).collect();
        assert!(tvds.windows(2).all(|w| w[0] >= w[1]), "{what}: {tvds:?}");
        // The table names the same item.
        let (code, text, _) = run(&[
            "--old-target",
            old_target,
            "--new-target",
            new_target,
            &old,
            &new,
        ]);
        assert_eq!(code, 0);
        assert!(text.contains(&format!("{kind} {name}")), "{what}:\n{text}");
    }
}

#[test]
fn a_file_against_itself_has_no_changes() {
    for (file, target) in [
        ("nethack-3.6.def", "nethack-3.6"),
        ("nethack-3.7.lua", "nethack-3.7"),
    ] {
        let path = corpus(file);
        let (code, out, err) = run(&[
            "--target",
            target,
            "--fail-on",
            "tvd=0,removed,added",
            &path,
            &path,
        ]);
        assert_eq!(code, 0, "{file}: {err}");
        assert!(out.contains("\nNo differences.\n"), "{out}");
        let (code, out, _) = run(&["--target", target, "--format", "json", &path, &path]);
        assert_eq!(code, 0);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["changes"], Value::Array(Vec::new()));
        assert_eq!(v["summary"]["changed"], 0);
        assert_eq!(v["summary"]["unchanged"], v["summary"]["items"]);
    }
}

#[test]
fn fail_on_thresholds_set_the_exit_status() {
    let (old, new) = (corpus("nethack-3.4.3.def"), corpus("nethack-3.6.def"));
    let ludios = Edited::new(
        "nethack-3.6.def",
        "ludios",
        "\"Fort Ludios\" @ (18, 4) portal",
        "\"Fort Ludios\" @ (27, 3) portal",
    );
    let ludios = ludios.path();
    let (v343, v36) = ("nethack-3.4.3", "nethack-3.6");
    // (OLD and its target, NEW and its target, --fail-on, exit status,
    // what standard error says)
    let cases: &[(&str, &str, &str, &str, &str, u8, &str)] = &[
        (&old, v343, &new, v36, "removed", 0, ""),
        (
            &old,
            v343,
            &new,
            v36,
            "added",
            1,
            "--fail-on added: level tower2 (Vlad's Tower) is added",
        ),
        (
            &new,
            v36,
            &old,
            v343,
            "removed",
            1,
            "--fail-on removed: level tower3 (Vlad's Tower) is removed",
        ),
        (
            &old,
            v343,
            &new,
            v36,
            "tvd=0.5",
            1,
            "--fail-on tvd=0.5: level tower2",
        ),
        (&old, v343, &new, v36, "level-tvd=1", 0, ""),
        (
            &old,
            v343,
            &new,
            v36,
            "bones-tvd=0.9",
            1,
            "bones Vlad's Tower level 2: TVD 1.0000",
        ),
        (&old, v343, &new, v36, "failure,failure-increase", 0, ""),
        (
            &new,
            v36,
            &ludios,
            v36,
            "failure",
            1,
            "--fail-on failure: NEW's loader fails in 40.000% of games",
        ),
        (
            &new,
            v36,
            &ludios,
            v36,
            "failure-increase",
            1,
            "OLD's in 0%",
        ),
        (&ludios, v36, &new, v36, "failure-increase", 0, ""),
        (
            &old,
            v343,
            &new,
            v36,
            "bogus",
            2,
            "unknown threshold `bogus`",
        ),
        (&old, v343, &new, v36, "tvd=1.5", 2, "a number from 0 to 1"),
        (
            &old,
            v343,
            &new,
            v36,
            "room-tvd=0.1",
            2,
            "unknown kind `room`",
        ),
    ];
    for &(o, ot, n, nt, fail_on, status, says) in cases {
        let (code, _, err) = run(&[
            "--old-target",
            ot,
            "--new-target",
            nt,
            "--fail-on",
            fail_on,
            o,
            n,
        ]);
        assert_eq!(code, status, "--fail-on {fail_on} on {o} -> {n}: {err}");
        assert!(err.contains(says), "--fail-on {fail_on}: {err}");
    }
}

#[test]
fn input_errors_and_usage() {
    let broken = Edited::new(
        "nethack-3.6.def",
        "broken",
        "CHAINBRANCH:\t\"Sokoban\" \"oracle\"",
        "CHAINBRANCH:\t\"Sokoban\" \"oracel\"",
    );
    let good = corpus("nethack-3.6.def");
    let (code, _, err) = run(&[&good, &broken.path()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("E0501") && err.contains("has errors"), "{err}");
    let (code, _, err) = run(&[&good, "/nonexistent/dungeon.def"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot read `/nonexistent/dungeon.def`"),
        "{err}"
    );
    let (code, _, err) = run(&["-", "-"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot both be standard input"), "{err}");
    let (code, _, _) = run(&[&good]);
    assert_eq!(code, 2, "NEW is required");
}

#[test]
fn json_has_a_stable_schema() {
    let (code, out, err) = run(&[
        "--old-target",
        "nethack-3.4.3",
        "--fail-on",
        "added",
        "--format",
        "json",
        &corpus("nethack-3.4.3.def"),
        &corpus("nethack-3.6.def"),
    ]);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&v),
        ["changes", "fail_on", "new", "old", "summary", "table"]
    );
    assert_eq!(keys(&v["table"]), ["failures", "head", "rows", "rules"]);
    for r in v["table"]["rows"].as_array().unwrap() {
        assert_eq!(
            keys(r),
            ["change", "index", "item", "label", "new", "old", "tvd", "what"]
        );
    }
    assert_eq!(keys(&v["old"]), ["file", "method", "target"]);
    assert_eq!(v["old"]["target"], "nethack-3.4.3");
    assert_eq!(v["new"]["target"], "nethack-3.6");
    assert_eq!(
        keys(&v["summary"]),
        [
            "added",
            "changed",
            "exact",
            "items",
            "max_tvd",
            "new_failure",
            "noise",
            "old_failure",
            "removed",
            "unchanged"
        ]
    );
    assert_eq!(v["fail_on"][0]["threshold"], "added");
    assert_eq!(v["fail_on"][0]["crossed_by"].as_array().unwrap().len(), 2);
    for c in v["changes"].as_array().unwrap() {
        assert_eq!(
            keys(c),
            [
                "aspects",
                "dungeon",
                "kind",
                "level",
                "name",
                "new",
                "occurrence",
                "old",
                "status",
                "tvd"
            ]
        );
        for a in c["aspects"].as_array().unwrap() {
            assert_eq!(keys(a), ["noise", "tvd", "what"]);
        }
    }
    let tower2 = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "tower2")
        .unwrap();
    assert_eq!(tower2["kind"], "level");
    assert_eq!(tower2["dungeon"], "Vlad's Tower");
    assert_eq!(tower2["status"], "added");
    assert_eq!(tower2["tvd"], 1.0);
    assert!(tower2["old"].is_null());
    assert_eq!(tower2["new"]["exists"], 1.0);
    assert_eq!(tower2["new"]["level"]["2"], 1.0);
}

/// Every line of the human table, from the JSON's `table` (the page
/// draws the table from it): the head, each row's cells in order, the
/// bones rules and the loader's failures.
#[test]
fn the_json_table_is_what_the_human_table_prints() {
    let edited = Edited::new(
        "nethack-3.6.def",
        "table",
        "\"Fort Ludios\" @ (18, 4) portal",
        "\"Fort Ludios\" @ (27, 3) portal",
    );
    // (options, OLD, NEW): a bones rule moved, and a loader that can fail.
    let pairs: [(&[&str], String, String); 2] = [
        (
            &["--old-target", "nethack-3.4.3"],
            corpus("nethack-3.4.3.def"),
            corpus("nethack-3.6.def"),
        ),
        (&[], corpus("nethack-3.6.def"), edited.path()),
    ];
    for (i, (opts, old, new)) in pairs.iter().enumerate() {
        let args = |format: &str| {
            let mut a: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
            a.extend(["--format".into(), format.into(), old.clone(), new.clone()]);
            a
        };
        let json = args("json");
        let (code, out, err) = run(&json.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 0, "{err}");
        let human = args("human");
        let (code, text, err) = run(&human.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let t = &v["table"];
        let strs = |x: &Value| -> Vec<String> {
            x.as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect()
        };
        let lines: Vec<&str> = text.lines().collect();
        let head = strs(&t["head"]);
        assert_eq!(lines[..head.len()], head[..], "{text}");
        let rows: Vec<&str> = lines
            .iter()
            .skip_while(|l| !l.trim_start().starts_with("item"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .copied()
            .collect();
        let json_rows = t["rows"].as_array().unwrap();
        assert!(!json_rows.is_empty());
        assert_eq!(rows.len(), json_rows.len(), "{text}");
        let mut last = None;
        for (line, r) in rows.iter().zip(json_rows) {
            let index = r["index"].as_u64().unwrap();
            let change = &v["changes"][index as usize];
            assert!(change["aspects"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["what"] == r["what"]));
            let mut cells = vec![];
            if last != Some(index) {
                cells.push(r["item"].as_str().unwrap());
            }
            last = Some(index);
            for k in ["label", "old", "new", "change", "tvd"] {
                cells.push(r[k].as_str().unwrap());
            }
            let mut rest = *line;
            for c in cells.iter().filter(|c| !c.is_empty()) {
                let at = rest
                    .find(c)
                    .unwrap_or_else(|| panic!("`{c}` is not in order in `{line}`"));
                rest = &rest[at + c.len()..];
            }
            assert!(rest.trim().is_empty(), "`{line}` has more than {cells:?}");
        }
        for r in t["rules"].as_array().unwrap() {
            let rule = format!("  rule {}: {}", r["rule"], r["says"].as_str().unwrap());
            assert!(lines.contains(&rule.as_str()), "{rule}");
        }
        let failures = strs(&t["failures"]);
        assert_eq!(i == 1, !failures.is_empty(), "Fort Ludios' move can fail");
        if !failures.is_empty() {
            let from = text
                .find("\nLoader failures\n")
                .expect("the failures' heading");
            assert_eq!(
                text[from..],
                format!("\nLoader failures\n{}\n", failures.join("\n"))
            );
        }
    }
}

#[test]
fn the_page_draws_each_changed_distribution() {
    let (old, new) = (corpus("nethack-3.6.def"), corpus("nethack-3.7.lua"));
    let (code, out, _) = run(&[
        "--new-target",
        "nethack-3.7",
        "--format",
        "json",
        &old,
        &new,
    ]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    let (code, page, _) = run(&[
        "--new-target",
        "nethack-3.7",
        "--format",
        "html",
        &old,
        &new,
    ]);
    assert_eq!(code, 0);
    assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"));
    assert!(!page.contains("<script") && !page.contains("<link") && !page.contains("src="));
    let changes = v["changes"].as_array().unwrap();
    assert!(!changes.is_empty());
    assert_eq!(page.matches("<section").count(), changes.len());
    let drawn: usize = changes
        .iter()
        .map(|c| {
            c["aspects"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|a| a["tvd"].as_f64() > a["noise"].as_f64())
                .count()
        })
        .sum();
    assert_eq!(page.matches("<svg").count(), drawn);
    for section in page.split("<section").skip(1) {
        assert!(section.contains("<svg"), "a changed item without a chart");
    }
}

#[test]
fn shipped_mistakes_come_first() {
    // (the mistake, the edit of NetHack 3.6's file, the first item)
    let cases = [
        (
            "no filler level between Medusa and the Castle (GnollHack #1016)",
            (
                "\"medusa\" \"none\" @ (-5, 4)",
                "\"medusa\" \"none\" @ (-2, 0)",
            ),
            ("level", "medusa"),
        ),
        (
            "a branch the loader cannot always place (Hack'EM #63)",
            (
                "\"Fort Ludios\" @ (18, 4) portal",
                "\"Fort Ludios\" @ (27, 3) portal",
            ),
            ("failure", "loader"),
        ),
    ];
    for (i, (what, (from, to), (kind, name))) in cases.into_iter().enumerate() {
        let edited = Edited::new("nethack-3.6.def", &format!("mistake{i}"), from, to);
        let (code, out, err) = run(&[
            "--format",
            "json",
            &corpus("nethack-3.6.def"),
            &edited.path(),
        ]);
        assert_eq!(code, 0, "{what}: {err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let first = &v["changes"][0];
        assert_eq!(
            (first["kind"].as_str(), first["name"].as_str()),
            (Some(kind), Some(name)),
            "{what}"
        );
        let (_, text, _) = run(&[&corpus("nethack-3.6.def"), &edited.path()]);
        let row = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("item"))
            .nth(1)
            .unwrap_or_default();
        assert!(row.contains(name), "{what}: the first row is {row}");
    }
}
