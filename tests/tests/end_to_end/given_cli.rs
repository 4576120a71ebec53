//! `dgn stats --given` and `--given-overview` end to end: the conditioned
//! tables against the loader's own layouts filtered by the same evidence,
//! the probability of the evidence, contradictions, the sampled fallback,
//! and real overviews written by NetHack 3.6.7.

use dgnkit::layout::Layout;
use dgnkit::loader::{Resolved, Resolver};
use dgnkit::options::Target;
use dgnkit::rng::RngKind;
use dgnkit_cli::stats::{execute, parse_args};
use serde_json::Value;
use std::ops::ControlFlow;

fn run(args: &[&str]) -> (u8, String, String) {
    dgnkit_tests::run_cli("stats", args, parse_args, |a, out, err| {
        execute(a, out, err, false)
    })
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let (code, out, err) = run(&a);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn level<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("{name}"))
}

fn branch<'a>(v: &'a Value, to: &str) -> &'a Value {
    v["branches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["to"] == to)
        .unwrap_or_else(|| panic!("{to}"))
}

fn p(d: &Value, key: i32) -> f64 {
    d[key.to_string()].as_f64().unwrap_or(0.0)
}

fn depth_of(l: &Layout, name: &str) -> Option<i32> {
    let x = l.levels.iter().find(|x| x.name == name)?;
    Some(l.dungeons[x.dungeon as usize].depth_start + x.level - 1)
}

fn branch_depth(l: &Layout, name: &str) -> Option<i32> {
    let i = l.dungeons.iter().position(|d| d.name == name)? as i32;
    let b = l.branches.iter().find(|b| b.end2.dungeon == i)?;
    let parent = if b.end1.dungeon as usize == l.dungeons.len() {
        0
    } else {
        b.end1.dungeon as usize
    };
    Some(l.dungeons[parent].depth_start + b.end1.level - 1)
}

/// The exact conditioned tables of NetHack 3.6's description agree with its
/// loader's layouts over 100,000 seeds, kept where the same evidence holds:
/// the evidence's own probability, and what it leaves open (the big room,
/// Medusa's depth, the Quest portal, the Mines' size).
#[test]
fn given_agrees_with_the_loaders_layouts_filtered_by_the_evidence() {
    let query = r#"oracle.depth == 7 and branch("The Gnomish Mines").depth == 3"#;
    for wizard in [false, true] {
        let mut args = vec!["--given", query];
        if wizard {
            args.push("--wizard");
        }
        let v = json(&args);
        assert_eq!(v["method"]["kind"], "exact", "{v}");
        let given = v["given"]["p_evidence"].as_f64().unwrap();
        let oracle = level(&v, "oracle");
        assert_eq!(p(&oracle["depth"], 7), 1.0);
        let script = dgnkit::frontend::analyze_fast(
            dgnkit_cli::layout::DEFAULT_DEF,
            &dgnkit::frontend::CheckOptions::default(),
        )
        .script
        .unwrap();
        let res = Resolver::with_rules(&script, Target::NetHack36.game().rules.clone()).unwrap();
        let (mut n, mut kept, mut bigrm) = (0.0, 0.0, 0.0);
        let mut medusa = [0.0f64; 130];
        let mut quest = [0.0f64; 130];
        let mut out = Resolved::default();
        let _ = res.resolve_seeds(
            0..100_000,
            RngKind::Isaac64,
            wizard,
            &mut out,
            |_, r, out| {
                r.unwrap();
                n += 1.0;
                let l = out.to_layout(&res, None);
                if depth_of(&l, "oracle") == Some(7)
                    && branch_depth(&l, "The Gnomish Mines") == Some(3)
                {
                    kept += 1.0;
                    if depth_of(&l, "bigrm").is_some() {
                        bigrm += 1.0;
                    }
                    medusa[depth_of(&l, "medusa").unwrap() as usize] += 1.0;
                    quest[branch_depth(&l, "The Quest").unwrap() as usize] += 1.0;
                }
                ControlFlow::Continue(())
            },
        );
        assert!(
            dgnkit_tests::agrees(given, kept, n),
            "{given} vs {kept}/{n}"
        );
        let b = level(&v, "bigrm")["exists"].as_f64().unwrap();
        assert!(
            dgnkit_tests::agrees(b, bigrm, kept),
            "bigrm {b} vs {bigrm}/{kept}"
        );
        for d in 1..130 {
            let m = p(&level(&v, "medusa")["depth"], d as i32);
            assert!(
                dgnkit_tests::agrees(m, medusa[d], kept),
                "medusa {d}: {m} vs {}",
                medusa[d]
            );
            let q = p(&branch(&v, "The Quest")["depth"], d as i32);
            assert!(
                dgnkit_tests::agrees(q, quest[d], kept),
                "quest {d}: {q} vs {}",
                quest[d]
            );
        }
        // The evidence's probability is the unconditioned joint chance.
        let plain = json(if wizard { &["--wizard"] } else { &[] });
        let oracle7 = level(&plain, "oracle")["exists"].as_f64().unwrap()
            * p(&level(&plain, "oracle")["depth"], 7);
        assert!(given < oracle7 && given > 0.0, "{given} {oracle7}");
    }
}

/// One fact: the probability of the evidence is that fact's probability.
#[test]
fn the_probability_of_one_fact_is_its_unconditioned_probability() {
    let plain = json(&[]);
    for d in [5, 7, 9] {
        let q = format!("oracle.depth == {d}");
        let v = json(&["--given", &q]);
        let want = p(&level(&plain, "oracle")["depth"], d);
        let got = v["given"]["p_evidence"].as_f64().unwrap();
        assert!((got - want).abs() < 1e-12, "{q}: {got} vs {want}");
    }
}

/// Evidence no layout meets is an error naming the smallest part of the
/// query no layout meets.
#[test]
fn a_contradiction_names_its_smallest_part() {
    let (code, _, err) = run(&[
        "--given",
        r#"bigrm and oracle.depth == 5 and rogue.depth == 15 and branch("Sokoban").depth == 9"#,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(r#"the smallest part of it no layout meets: `oracle.depth == 5 and branch("Sokoban").depth == 9`"#),
        "{err}"
    );
    let (code, _, err) = run(&["--given", "oracle.depth == 1"]);
    assert_eq!(code, 1);
    assert!(err.contains("`oracle.depth == 1`"), "{err}");
    // A query that does not compile is an input error with its diagnostic.
    let (code, _, err) = run(&["--given", "oracel.depth == 5"]);
    assert_eq!(code, 1);
    assert!(err.contains("oracle"), "{err}");
}

/// A query the enumeration cannot take is sampled, and every format says so.
#[test]
fn other_queries_are_sampled_and_say_so() {
    let (code, out, err) = run(&["--given", "bigrm or oracle.depth == 5"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("judged on sampled layouts"), "{err}");
    assert!(out.contains("sampled"), "{out}");
    assert!(out.contains("Given: bigrm or oracle.depth == 5"), "{out}");
    let v = json(&["--given", "bigrm or oracle.depth == 5"]);
    assert_eq!(v["method"]["kind"], "sampled");
    let matching = v["given"]["matching"].as_f64().unwrap();
    let loaded = v["given"]["loaded"].as_f64().unwrap();
    // 0.4 + 0.2 - 0.4 * 0.2: the big room and the Oracle are drawn apart.
    assert!(
        dgnkit_tests::agrees(0.52, matching, loaded),
        "{matching}/{loaded}"
    );
}

/// NetHack 3.6.7's own overviews (`../shared/expected/player-overview`):
/// every line is read (none unknown), and the evidence is possible.
#[test]
fn real_overviews_are_read_whole() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let dir = shared.join("expected/player-overview");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let file = path.to_str().unwrap();
        let (code, out, err) = run(&["--given-overview", file, "--format", "json"]);
        assert_eq!(code, 0, "{file}: {err}");
        assert!(
            !err.contains("not a line NetHack's overview writes"),
            "{file}: {err}"
        );
        let v: Value = serde_json::from_str(&out).unwrap();
        assert!(v["given"]["p_evidence"].as_f64().unwrap() > 0.0, "{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        let describe = v["given"]["describe"].as_str().unwrap();
        if text.contains("Oracle of Delphi.") {
            assert!(describe.contains("oracle.depth == "), "{file}: {describe}");
        }
        if text.contains("Stairs down to The Gnomish Mines.") {
            assert!(
                describe.contains("branch(\"The Gnomish Mines\").depth == "),
                "{file}"
            );
        }
        if text.contains('[') {
            assert!(err.contains("--wizard"), "{file}: {err}");
        }
        read += 1;
    }
    assert!(read >= 10, "{read} overviews");
    // A line NetHack does not write is reported and skipped.
    let tmp = std::env::temp_dir().join(format!("dgnkit-overview-{}.txt", std::process::id()));
    std::fs::write(
        &tmp,
        "The Dungeons of Doom: levels 1 to 6\n   Level 5:\n      Oracle of Delphi.\n      A dragon was here.\n",
    )
    .unwrap();
    let (code, out, err) = run(&["--given-overview", tmp.to_str().unwrap()]);
    let _ = std::fs::remove_file(&tmp);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(":4: `A dragon was here.`: not a line NetHack's overview writes (skipped)"),
        "{err}"
    );
    assert!(out.contains("oracle.depth == 5"), "{out}");
}

/// An overview that cannot be read is a usage error naming the file, as
/// any other input that cannot be read is.
#[test]
fn an_unreadable_overview_is_a_usage_error() {
    let missing = std::env::temp_dir().join(format!(
        "dgnkit-no-overview-{}/seen.txt",
        std::process::id()
    ));
    let shown = missing.display().to_string();
    let (code, out, err) = run(&["--given-overview", &shown]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!("dgn stats: cannot read `{shown}`: No such file or directory (os error 2)\n")
    );
}
