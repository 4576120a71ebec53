use super::*;
use dgnkit::options::Target;
use dgnkit_bones::BonesOptions;
use dgnkit_loader::rng::RngKind;
use proptest::prelude::*;

fn built_in() -> dgnkit_script::Script {
    dgnkit::frontend::analyze_fast(
        include_bytes!("../../../corpus/nethack-3.6.def"),
        &dgnkit::frontend::CheckOptions::default(),
    )
    .script
    .unwrap()
}

fn resolver(target: Target) -> Resolver {
    Resolver::with_rules(&built_in(), target.game().rules.clone()).unwrap()
}

#[test]
fn every_code_example_produces_its_code() {
    let res = resolver(Target::NetHack36);
    for c in codes::CODES {
        if c.code.starts_with('W') {
            // A warning: the query compiles, and says it.
            assert!(compile(c.example, &res).is_ok(), "{}", c.example);
            let w = warnings(c.example);
            assert!(w.iter().any(|d| d.code == c.code), "{}: {w:?}", c.example);
            continue;
        }
        let e = compile(c.example, &res).expect_err(c.example);
        assert_eq!(e.code, c.code, "{}: {}", c.example, e.message);
        assert!(e.span.end as usize <= c.example.len());
    }
}

#[test]
fn diagnostics_point_at_the_query_and_suggest() {
    let res = resolver(Target::NetHack36);
    let q = r#"bigrm and oracel.depth == 5"#;
    let e = compile(q, &res).unwrap_err();
    assert_eq!(e.code, codes::UNKNOWN_LEVEL);
    assert_eq!(&q[e.span.range()], "oracel");
    assert!(
        e.message.contains("no level named \"oracel\""),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("did you mean \"oracle\""),
        "{}",
        e.message
    );
    for (q, code, at) in [
        ("oracle.depth == \"x\"", codes::TYPE_MISMATCH, "=="),
        ("tune < \"ABCDE\"", codes::TYPE_MISMATCH, "<"),
        ("bigrm == 1", codes::TYPE_MISMATCH, "bigrm"),
        ("oracle.depth", codes::TYPE_MISMATCH, "oracle.depth"),
        ("tune", codes::TYPE_MISMATCH, "tune"),
        ("oracle.depth in 1..x", codes::TYPE_MISMATCH, "x"),
        (
            "dungeon(\"Sokoban\")",
            codes::UNKNOWN_PROPERTY,
            "dungeon(\"Sokoban\")",
        ),
        (
            "branch(\"Sokoban\").levels == 2",
            codes::UNKNOWN_PROPERTY,
            "levels",
        ),
        ("bone(3)", codes::BAD_CALL, "bone"),
        ("bones(3, 4)", codes::BAD_CALL, "bones(3, 4)"),
        ("bones(bigroom)", codes::UNKNOWN_LEVEL, "bigroom"),
        ("\"The Quest\"", codes::UNKNOWN_LEVEL, "\"The Quest\""),
    ] {
        let e = compile(q, &res).expect_err(q);
        assert_eq!(e.code, code, "{q}: {}", e.message);
        assert_eq!(&q[e.span.range()], at, "{q}");
    }
}

#[test]
fn facts_are_final_where_the_loader_decides_them() {
    let res = resolver(Target::NetHack36);
    let q = compile(
        r#"bigrm and oracle.depth == 5 and branch("The Gnomish Mines").depth <= 3 and astral.depth < 0 and tune == "ABCDE""#,
        &res,
    )
    .unwrap();
    let ready: Vec<u32> = q.facts.iter().map(|f| f.ready).collect();
    // DoD (record 0): chance rolls, placement; the Mines (record 2)
    // created; the Planes are lifted by the dummy level at the end.
    assert_eq!(ready, vec![1, 2, 6, q.final_stage, q.final_stage]);
    assert_eq!(q.final_stage, 24);
}

#[test]
fn missing_things_make_every_comparison_false() {
    let res = resolver(Target::NetHack36);
    let bones = BonesOptions::default();
    let a = compile("not bigrm and not (bigrm.depth == 12)", &res).unwrap();
    let b = compile("not bigrm and bigrm.depth != 12", &res).unwrap();
    let fa = Finder::new(&res, &a, &bones, RngKind::Isaac64, false, true);
    let fb = Finder::new(&res, &b, &bones, RngKind::Isaac64, false, true);
    let without: Vec<u64> = (0..50).filter(|&s| fa.test(s).unwrap()).collect();
    assert!(!without.is_empty());
    assert!(without.iter().all(|&s| !fb.test(s).unwrap()));
}

/// Queries built from every kind of fact and operator.
fn query_text() -> impl Strategy<Value = String> {
    let level = prop::sample::select(vec![
        "bigrm",
        "oracle",
        "medusa",
        "minetn",
        "\"x-loca\"",
        "fakewiz1",
        "astral",
        "knox",
        "soko2",
        "tower1",
        "castle",
    ]);
    let dungeon = prop::sample::select(vec![
        "The Gnomish Mines",
        "Gehennom",
        "The Quest",
        "Sokoban",
        "Fort Ludios",
        "Vlad's Tower",
        "The Elemental Planes",
    ]);
    let op = prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]);
    let atom = prop_oneof![
        level.clone().prop_map(|l| l.to_string()),
        (
            level.clone(),
            prop::sample::select(vec!["level", "depth"]),
            op.clone(),
            -2i64..40
        )
            .prop_map(|(l, p, o, n)| format!("{l}.{p} {o} {n}")),
        (level.clone(), 0i64..8).prop_map(|(l, n)| format!("{l}.dungeon == {n}")),
        (
            dungeon.clone(),
            prop::sample::select(vec!["levels", "depth_start", "entry_depth"]),
            op.clone(),
            -5i64..60
        )
            .prop_map(|(d, p, o, n)| format!("dungeon(\"{d}\").{p} {o} {n}")),
        dungeon
            .clone()
            .prop_map(|d| format!("dungeon(\"{d}\").exists")),
        (
            dungeon.clone(),
            prop::sample::select(vec!["level", "depth"]),
            0i64..30,
            0i64..6
        )
            .prop_map(|(d, p, a, w)| format!("branch(\"{d}\").{p} in {a}..={}", a + w)),
        (1i64..40).prop_map(|d| format!("bones({d})")),
        level.prop_map(|l| format!("bones({l})")),
        prop::sample::select(vec!["A", "B", "G"])
            .prop_map(|c| format!("tune != \"{c}{c}{c}{c}{c}\"")),
    ];
    atom.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} and {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} or {b})")),
            inner.prop_map(|a| format!("not {a}")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Stopping a seed's resolution once the answer is known never
    /// changes the answer.
    #[test]
    fn early_stopping_never_changes_a_verdict(
        text in query_text(),
        first in 0u64..1_000_000,
        glibc in any::<bool>(),
        wizard in any::<bool>(),
    ) {
        let (target, rng) = if glibc {
            (Target::NetHack343, RngKind::Glibc)
        } else {
            (Target::NetHack36, RngKind::Isaac64)
        };
        let res = resolver(target);
        let query = compile(&text, &res).unwrap();
        let bones = BonesOptions::default();
        let early = Finder::new(&res, &query, &bones, rng, wizard, true);
        let full = Finder::new(&res, &query, &bones, rng, wizard, false);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut out = dgnkit_loader::Resolved::default();
        let _ = early.scan(first..first + 300, &mut out, |s, v| {
            a.push((s, v.unwrap()));
            std::ops::ControlFlow::Continue(())
        });
        let _ = full.scan(first..first + 300, &mut out, |s, v| {
            b.push((s, v.unwrap()));
            std::ops::ControlFlow::Continue(())
        });
        prop_assert_eq!(a, b, "{}", text);
    }
}

#[test]
fn a_half_open_range_warns_with_a_fix_and_keeps_its_meaning() {
    let q = "medusa.depth in 21..22 and oracle.level in 5..=9";
    let w = warnings(q);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].code, codes::HALF_OPEN_RANGE);
    assert_eq!(&q[w[0].span.range()], "..");
    let fix = w[0].fix.as_ref().expect("a fix");
    assert_eq!(fix.edits[0].replacement, "..=");
    // The meaning stays half-open: 22 is out, 21 in.
    let res = resolver(Target::NetHack36);
    let query = compile("medusa.depth in 21..22", &res).unwrap();
    let inclusive = compile("medusa.depth in 21..=21", &res).unwrap();
    assert_eq!(query.root, inclusive.root);
}
