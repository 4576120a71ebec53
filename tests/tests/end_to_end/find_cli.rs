//! `dgn find` end to end: `--count` equals counting the JSON lines of
//! `dgn layout --seeds` that satisfy the query, seeds come out in order,
//! `--limit`, `--format json`, diagnostics and exit codes.

use dgnkit_cli::{find, layout};
use serde_json::Value;
use std::sync::atomic::AtomicBool;

fn dgn_find(args: &[&str]) -> (u8, String, String) {
    let mut argv = vec!["find"];
    argv.extend_from_slice(args);
    let args = match find::parse_args(&argv) {
        Ok(a) => a,
        Err(e) => return (2, String::new(), e.to_string()),
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = find::execute(
        &args,
        &mut out,
        &mut err,
        layout::Terminal::default(),
        &AtomicBool::new(false),
    );
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn layouts(args: &[&str]) -> Vec<Value> {
    let mut argv = vec!["layout"];
    argv.extend_from_slice(args);
    let args = layout::parse_args(&argv).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(
        layout::execute(&args, &mut out, &mut err, layout::Terminal::default()),
        0
    );
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn depth_of(l: &Value, name: &str) -> Option<i64> {
    let lv = l["levels"].as_array()?.iter().find(|x| x["name"] == name)?;
    let d = &l["dungeons"][lv["dungeon"].as_u64()? as usize];
    Some(d["depth_start"].as_i64()? + lv["level"].as_i64()? - 1)
}

fn mines_branch_depth(l: &Value) -> Option<i64> {
    let i = l["dungeons"]
        .as_array()?
        .iter()
        .position(|d| d["name"] == "The Gnomish Mines")?;
    let b = l["branches"]
        .as_array()?
        .iter()
        .find(|b| b["end2"]["dungeon"].as_u64() == Some(i as u64))?;
    let parent = &l["dungeons"][b["end1"]["dungeon"].as_u64()? as usize];
    Some(parent["depth_start"].as_i64()? + b["end1"]["level"].as_i64()? - 1)
}

fn matches(l: &Value) -> bool {
    depth_of(l, "bigrm").is_some()
        && depth_of(l, "oracle") == Some(7)
        && mines_branch_depth(l).is_some_and(|d| d <= 3)
}

const QUERY: &str = r#"bigrm and oracle.depth == 7 and branch("The Gnomish Mines").depth <= 3"#;

#[test]
fn count_equals_counting_layout_lines() {
    for extra in [
        &["--target", "nethack-3.4.3"][..],
        &["--wizard"][..],
        &["--rng", "glibc", "--wizard"][..],
        &[][..],
    ] {
        let mut a = vec!["--seeds", "0..3000"];
        a.extend_from_slice(extra);
        let expected: Vec<u64> = layouts(&a)
            .iter()
            .filter(|l| matches(l))
            .map(|l| l["seed"].as_u64().unwrap())
            .collect();
        assert!(!expected.is_empty());
        let mut c = vec![QUERY, "--count", "--format", "json", "-j", "2"];
        c.extend_from_slice(&a);
        let (code, out, err) = dgn_find(&c);
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(
            v["matched"].as_u64(),
            Some(expected.len() as u64),
            "{extra:?}"
        );
        assert_eq!(v["seeds"].as_u64(), Some(3000));
        assert_eq!(v["failed"].as_u64(), Some(0));
        let mut s = vec![QUERY];
        s.extend_from_slice(&a);
        let (code, out, _) = dgn_find(&s);
        assert_eq!(code, 0);
        let seeds: Vec<u64> = out.lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(seeds, expected, "{extra:?}");
    }
}

#[test]
fn limit_json_values_and_the_exact_probability() {
    let (code, out, _) = dgn_find(&[QUERY, "--limit", "3", "--format", "json"]);
    assert_eq!(code, 0);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for l in &lines {
        assert_eq!(l["values"]["bigrm"], true);
        assert_eq!(l["values"]["oracle.depth"], 7);
        assert!(
            l["values"]["branch(\"The Gnomish Mines\").depth"]
                .as_i64()
                .unwrap()
                <= 3
        );
    }
    assert!(lines[0]["seed"].as_u64() < lines[1]["seed"].as_u64());
    // --limit with --count counts up to the last match.
    let (_, out, _) = dgn_find(&[QUERY, "--limit", "3", "--count", "--format", "json"]);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["matched"], 3);
    assert_eq!(
        v["seeds"].as_u64(),
        Some(lines[2]["seed"].as_u64().unwrap() + 1)
    );
    // One fact: the statistics know its distribution.
    let (_, out, _) = dgn_find(&["oracle.depth in 5..=6", "--seeds", "0..20000", "--count"]);
    assert!(out.contains("exact probability: 40.0000%"), "{out}");
    let (_, out, _) = dgn_find(&[QUERY, "--seeds", "0..100", "--count"]);
    assert!(!out.contains("exact probability"), "{out}");
}

#[test]
fn bad_queries_and_usage() {
    let (code, _, err) = dgn_find(&["bigroom and oracle.depth == 5", "--seeds", "0..10"]);
    assert_eq!(code, 1);
    assert!(err.contains("error[E1305]"), "{err}");
    assert!(err.contains("did you mean \"bigrm\""), "{err}");
    let (code, _, _) = dgn_find(&["bigrm", "--seeds", "5..2"]);
    assert_eq!(code, 2);
    let (code, _, _) = dgn_find(&["bigrm", "/nonexistent/dungeon.def"]);
    assert_eq!(code, 2);
}

/// `21..22` reads as both ends to a player: a warning with the `..=` fix on
/// standard error, and the query keeps its half-open meaning.
#[test]
fn a_half_open_range_is_warned_about_and_kept() {
    let (code, out, err) = dgn_find(&["medusa.depth in 21..22", "--seeds", "0..200", "--count"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning[W1311]"), "{err}");
    assert!(err.contains("`21..=22`"), "{err}");
    let (_, same, _) = dgn_find(&["medusa.depth == 21", "--seeds", "0..200", "--count"]);
    assert_eq!(out, same);
    let (_, quiet_out, quiet) =
        dgn_find(&["medusa.depth in 21..=22", "--seeds", "0..200", "--count"]);
    assert!(!quiet.contains("W1311"), "{quiet}");
    assert!(!quiet_out.is_empty());
}
