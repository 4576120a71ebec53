//! The "bad input" list: each gives a diagnostic (or, where the frontend has
//! nothing to say, a clean empty result for the checks to judge), never a
//! panic.

use dgnkit_grammar::codes::{self, CODES};
use dgnkit_grammar::format::format;
use dgnkit_grammar::{parse, ParseOptions, Severity};

fn codes_of(src: &[u8]) -> Vec<&'static str> {
    parse(src, &ParseOptions::default())
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect()
}

#[test]
fn empty_and_comment_only_files_parse_to_empty_trees() {
    for src in [&b""[..], b"\n\n", b"# only\n#\n", b"# crlf\r\n"] {
        let parsed = parse(src, &ParseOptions::default());
        assert!(parsed.diagnostics.is_empty());
        assert!(parsed.file.statements.is_empty());
    }
}

#[test]
fn megabyte_strings() {
    let mut src = b"DUNGEON: \"".to_vec();
    src.extend(std::iter::repeat_n(b'x', 1 << 20));
    src.extend_from_slice(b"\" \"D\" (1, 0)\n");
    let parsed = parse(&src, &ParseOptions::default());
    assert!(parsed.diagnostics.is_empty());
    assert_eq!(parsed.file.statements.len(), 1);

    // Unterminated: one diagnostic, and the next line still parses.
    let mut src = b"PROTOFILE: \"".to_vec();
    src.extend(std::iter::repeat_n(b'y', 1 << 20));
    src.extend_from_slice(b"\nENTRY: 1\n");
    assert_eq!(codes_of(&src), [codes::UNTERMINATED_STRING]);
}

#[test]
fn megabyte_of_junk_and_of_digits() {
    let junk: Vec<u8> = (0..1u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let parsed = parse(&junk, &ParseOptions::default());
    assert!(parsed.has_errors());
    let _ = format(&junk, &ParseOptions::default());

    let mut digits = b"ENTRY: ".to_vec();
    digits.extend(std::iter::repeat_n(b'9', 1 << 20));
    assert_eq!(codes_of(&digits), [codes::NUMBER_TOO_LARGE]);
}

#[test]
fn many_statements_and_many_errors() {
    let good = "LEVEL: \"oracle\" \"O\" @ (5, 5)\n".repeat(50_000);
    let parsed = parse(good.as_bytes(), &ParseOptions::default());
    assert!(parsed.diagnostics.is_empty());
    assert_eq!(parsed.file.statements.len(), 50_000);

    let bad = "LEVEL: \"oracle\" \"O\" @ (5 5)\n".repeat(50_000);
    let parsed = parse(bad.as_bytes(), &ParseOptions::default());
    assert_eq!(
        parsed.diagnostics.len(),
        50_000,
        "one diagnostic per bad statement"
    );
    assert_eq!(parsed.file.statements.len(), 50_000);

    let keywords = "LEVEL ".repeat(50_000);
    assert_eq!(codes_of(keywords.as_bytes()).len(), 50_000);

    let flags = "%REINCARNATION ENTRY: 1\n%FOO ENTRY: 2\n".repeat(20_000);
    let parsed = parse(flags.as_bytes(), &ParseOptions::default());
    assert_eq!(parsed.file.statements.len(), 20_000);
    assert!(format(flags.as_bytes(), &ParseOptions::default()).is_ok());
}

#[test]
fn nul_bytes_and_invalid_utf8() {
    assert_eq!(codes_of(b"\0\0\0"), [codes::UNEXPECTED_CHAR]);
    assert_eq!(codes_of(b"ENTRY: 1\n\xff\xfe"), [codes::UNEXPECTED_CHAR]);
    assert!(codes_of(b"DUNGEON: \"\xff\0\" \"D\" (1, 0)").is_empty());
}

#[test]
fn beyond_i64() {
    assert_eq!(
        codes_of(b"ENTRY: 9223372036854775808"),
        [codes::NUMBER_TOO_LARGE]
    );
    assert_eq!(
        codes_of(b"ENTRY: -9223372036854775809"),
        [codes::NUMBER_TOO_LARGE]
    );
    assert!(codes_of(b"ENTRY: -9223372036854775808").is_empty());
}

#[test]
fn statements_before_the_first_dungeon_parse() {
    let parsed = parse(
        b"LEVELDESC: town\nENTRY: 1\nDUNGEON: \"D\" \"D\" (1, 0)\n",
        &ParseOptions::default(),
    );
    assert!(parsed.diagnostics.is_empty());
    assert_eq!(parsed.file.statements.len(), 3);
}

/// Every documented code's example produces that code.
#[test]
fn every_code_example_produces_its_code() {
    for info in CODES {
        if info.code == codes::FILE_TOO_LARGE {
            // A 4 GiB input is not a test fixture; the code is documented only.
            continue;
        }
        let src = info.example.as_bytes();
        let found: Vec<_> = if info.code == codes::FORMAT_FLAG_CONTINUATION {
            format(src, &ParseOptions::default())
                .err()
                .unwrap_or_default()
        } else {
            parse(src, &ParseOptions::default()).diagnostics
        };
        let d = found.iter().find(|d| d.code == info.code);
        let d = d.unwrap_or_else(|| {
            panic!("{}: example {:?} gave {:?}", info.code, info.example, found)
        });
        assert_eq!(d.severity, info.severity, "{}", info.code);
        assert_eq!(d.lint, info.lint, "{}", info.code);
        let expected_severity = if info.code.starts_with('E') {
            Severity::Error
        } else {
            Severity::Warning
        };
        assert_eq!(info.severity, expected_severity);
    }
    let mut sorted: Vec<_> = CODES.iter().map(|c| c.code).collect();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), CODES.len(), "codes are unique");
}
