//! Bad input never panics and always gets a diagnostic: empty files,
//! comment-only files, arbitrary bytes, huge strings and numbers, statements
//! before the first DUNGEON, unterminated strings, and very large files.

use dgnkit::dialect::Dialect;
use dgnkit::frontend::{analyze, Analysis, CheckOptions};
use dgnkit::options::Target;
use dgnkit::render;
use dgnkit::rng::RngKind;
use proptest::prelude::*;

fn check(src: &[u8]) -> Analysis {
    analyze(src, &CheckOptions::default())
}

fn codes(a: &Analysis) -> Vec<&'static str> {
    a.diagnostics.iter().map(|d| d.code).collect()
}

/// What must hold for any input.
fn invariants(src: &[u8], opts: &CheckOptions) {
    let a = analyze(src, opts);
    assert_eq!(a.script.is_some(), !a.has_errors());
    let len = src.len() as u32;
    for w in a.diagnostics.windows(2) {
        assert!(
            w[0].span.start <= w[1].span.start,
            "unsorted: {:?}",
            a.diagnostics
        );
    }
    for d in &a.diagnostics {
        assert!(
            d.span.start <= d.span.end && d.span.end <= len,
            "{} span {:?} outside 0..{len}",
            d.code,
            d.span
        );
        for l in &d.labels {
            assert!(
                l.span.start <= l.span.end && l.span.end <= len,
                "{} label {:?}",
                d.code,
                l.span
            );
        }
        assert!(!d.message.is_empty());
    }
    let _ = render::human("f.def", src, &a.diagnostics, true);
    let _ = render::short("f.def", src, &a.diagnostics);
    let _ = render::json(vec![render::json_file("f.def", src, &a.diagnostics)]);
    // The model's spans are valid too (the language server uses them).
    for s in a.model.document_symbols() {
        assert!(s.span.end <= len && s.selection.end <= len);
    }
    if let Some((sym, _)) = a.model.symbol_at(len / 2) {
        let _ = a.model.references(sym);
    }
    // A file without errors goes down the rest of the pipeline.
    if let Some(script) = &a.script {
        for target in Target::ALL {
            if let Ok(bytes) = dgnkit::binary::write(script, target, None) {
                dgnkit::binary::read(&bytes, None).expect("our own output reads back");
            }
            if let Ok(mut r) = target.game().resolver(script) {
                r.set_placement_budget(20_000);
                for (seed, rng) in [(0, RngKind::Glibc), (7, RngKind::Isaac64)] {
                    let _ = r.resolve(seed, rng, seed == 7, true);
                }
            }
        }
        let _ = dgnkit::decompile::decompile(script);
    }
}

#[test]
fn empty_file_has_no_dungeons() {
    let a = check(b"");
    assert_eq!(codes(&a), ["E0201"]);
    assert!(a.diagnostics[0].message.contains("no dungeons"));
    assert!(a.script.is_none());
}

#[test]
fn comment_only_file_has_no_dungeons() {
    let a = check(b"# just a comment\n#\n# another\n");
    assert_eq!(codes(&a), ["E0201"]);
}

#[test]
fn statements_before_the_first_dungeon() {
    let a = check(
        b"LEVEL: \"oracle\" \"O\" @ (5, 5)\nDUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\n",
    );
    assert!(codes(&a).contains(&"E0202"), "{:?}", codes(&a));
}

#[test]
fn unterminated_string_is_reported_and_the_rest_checked() {
    let a =
        check(b"DUNGEON: \"The Dungeons of Doom \"D\" (25, 5)\nDUNGEON: \"Two\" \"T\" (3, 0)\n");
    assert!(a.has_errors());
    assert!(!a.diagnostics.is_empty());
}

#[test]
fn numbers_beyond_i64_are_errors_not_panics() {
    let a = check(b"DUNGEON: \"D\" \"D\" (99999999999999999999999, -99999999999999999999999) 99999999999999999999\n");
    assert!(a.has_errors(), "{:?}", codes(&a));
    let a = analyze(b"DUNGEON: \"D\" \"D\" (9223372036854775807, 9223372036854775807)\nLEVEL: \"x\" \"X\" @ (-9223372036854775808, -1)\n", &CheckOptions { target: Target::Native, ..CheckOptions::default() });
    assert!(a.has_errors(), "{:?}", codes(&a));
}

#[test]
fn a_one_megabyte_name() {
    let mut src = b"DUNGEON: \"".to_vec();
    src.extend(std::iter::repeat_n(b'a', 1 << 20));
    src.extend_from_slice(b"\" \"D\" (25, 5)\n");
    let a = check(&src);
    assert!(codes(&a).contains(&"E0304"), "{:?}", codes(&a));
    let a = analyze(
        &src,
        &CheckOptions {
            target: Target::Native,
            ..CheckOptions::default()
        },
    );
    assert!(!a.has_errors(), "{:?}", codes(&a));
    // Unterminated: the parser reports it, nothing panics.
    let mut open = b"DUNGEON: \"".to_vec();
    open.extend(std::iter::repeat_n(b'b', 1 << 20));
    invariants(&open, &CheckOptions::default());
}

#[test]
fn large_files_complete() {
    // Many levels in one dungeon, many dungeons sharing a marker, many
    // unknown chains: each check stays near-linear.
    let mut src = String::from("DUNGEON: \"Big\" \"B\" (1000, 0)\n");
    for i in 0..1_500 {
        src.push_str(&format!(
            "LEVEL: \"l{i}\" \"L\" @ ({}, 5)\nCHAINLEVEL: \"c{i}\" \"C\" \"nowhere{i}\" + (1, 0)\n",
            i % 1000 + 1
        ));
    }
    for i in 0..1_500 {
        src.push_str(&format!("BRANCH: \"d{i}\" @ (1, 0)\n"));
    }
    for i in 0..1_500 {
        src.push_str(&format!(
            "DUNGEON: \"d{i}\" \"B\" (2, 0)\nLEVEL: \"x{i}\" \"B\" @ (1, 0)\n"
        ));
    }
    for target in [Target::Native, Target::NetHack36] {
        invariants(
            src.as_bytes(),
            &CheckOptions {
                target,
                ..CheckOptions::default()
            },
        );
    }
}

#[test]
fn non_utf8_names_check_and_render() {
    let src = b"DUNGEON: \"\xa5\xc0\xa5\xf3\" \"D\" (25, 5)\nBRANCH: \"\xff\xfe\" @ (2, 3)\n";
    let a = check(src);
    assert!(codes(&a).contains(&"E0601"));
    let msg = &a
        .diagnostics
        .iter()
        .find(|d| d.code == "E0601")
        .unwrap()
        .message;
    assert!(msg.contains("\\xff\\xfe"), "{msg}");
    invariants(src, &CheckOptions::default());
}

/// Pieces of the language, to build inputs that get past the lexer.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("DUNGEON:".to_string()),
        Just("LEVEL:".to_string()),
        Just("RNDLEVEL:".to_string()),
        Just("CHAINLEVEL:".to_string()),
        Just("RNDCHAINLEVEL:".to_string()),
        Just("BRANCH:".to_string()),
        Just("CHAINBRANCH:".to_string()),
        Just("LEVELDESC:".to_string()),
        Just("LEVALIGN:".to_string()),
        Just("DESCRIPTION:".to_string()),
        Just("ALIGNMENT:".to_string()),
        Just("ENTRY:".to_string()),
        Just("PROTOFILE:".to_string()),
        Just("TILESET:".to_string()),
        Just("\n".to_string()),
        Just("@".to_string()),
        Just("+".to_string()),
        Just("portal".to_string()),
        Just("up".to_string()),
        Just("town".to_string()),
        Just("# c".to_string()),
        Just("%REINCARNATION".to_string()),
        "\"[a-dA-D ]{0,4}\"".prop_map(|s| s),
        "\\((-?[0-9]{1,2}), ?(-?[0-9]{1,2})\\)".prop_map(|s| s),
        "-?[0-9]{1,3}".prop_map(|s| s),
        extreme(),
        (extreme(), extreme()).prop_map(|(a, b)| format!("({a}, {b})")),
    ]
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

/// Numbers at the edges of the integer types NetHack and dgnkit use.
fn extreme() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(i64::MIN.to_string()),
        Just(i64::MAX.to_string()),
        Just((i64::MIN + 1).to_string()),
        Just(i32::MIN.to_string()),
        Just(i32::MAX.to_string()),
        Just((i64::from(i32::MAX) + 1).to_string()),
        Just((i64::from(i32::MIN) - 1).to_string()),
        Just("-129".to_string()),
        Just("-128".to_string()),
        Just("127".to_string()),
        Just("128".to_string()),
        Just("255".to_string()),
        Just("256".to_string()),
        Just("-1".to_string()),
        Just("0".to_string()),
        Just("99999999999999999999999".to_string()),
    ]
}

/// A file of the language's shape whose numbers are anything.
fn shaped_file() -> impl Strategy<Value = String> {
    let n = || prop_oneof![extreme(), "-?[0-9]{1,2}".prop_map(|s| s)];
    (
        proptest::collection::vec((n(), n(), n(), n(), n(), n(), n()), 1..6),
        proptest::collection::vec(0usize..6, 1..6),
    )
        .prop_map(|(nums, kinds)| {
            let mut out = String::new();
            for (i, ((a, b, c, d, e, f, g), k)) in nums.iter().zip(kinds.iter().cycle()).enumerate() {
                out.push_str(&format!("DUNGEON: \"d{i}\" \"{}\" ({a}, {b}) {c}\n", (b'A' + i as u8) as char));
                out.push_str(&format!("ENTRY: {d}\n"));
                match k {
                    0 => out.push_str(&format!("LEVEL: \"l{i}\" \"L\" @ ({e}, {f}) {g}\n")),
                    1 => out.push_str(&format!("RNDLEVEL: \"r{i}\" \"none\" @ ({e}, {f}) {g} {c}\n")),
                    2 => out.push_str(&format!("LEVEL: \"m{i}\" \"M\" @ ({a}, {b})\nCHAINLEVEL: \"c{i}\" \"C\" \"m{i}\" + ({e}, {f}) {g}\n")),
                    3 => out.push_str(&format!("BRANCH: \"d{}\" @ ({e}, {f}) portal\n", i + 1)),
                    4 => out.push_str(&format!("LEVEL: \"m{i}\" \"none\" @ ({e}, {f})\nCHAINBRANCH: \"d{}\" \"m{i}\" + ({a}, {b}) up\n", i + 1)),
                    _ => out.push_str(&format!("LEVEL: \"dummy\" \"none\" @ ({e}, {f})\nLEVELDESC: town\n")),
                }
            }
            out
        })
}

proptest! {
    // PROPTEST_CASES=N runs a longer hunt.
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        invariants(&bytes, &CheckOptions::default());
    }

    #[test]
    fn any_numbers_in_a_well_formed_file_never_panic(src in shaped_file(), dialect in 0usize..14, target in 0usize..3) {
        let opts = CheckOptions { dialect: Dialect::ALL[dialect], target: Target::ALL[target], ..CheckOptions::default() };
        invariants(src.as_bytes(), &opts);
    }

    #[test]
    fn token_soup_never_panics(tokens in proptest::collection::vec(token(), 0..80), dialect in 0usize..14, target in 0usize..3) {
        let src = tokens.join(" ");
        let opts = CheckOptions { dialect: Dialect::ALL[dialect], target: Target::ALL[target], ..CheckOptions::default() };
        invariants(src.as_bytes(), &opts);
    }
}
