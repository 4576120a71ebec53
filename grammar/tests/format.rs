//! The formatter: NetHack's layout, comments and flags kept, idempotent,
//! and never a change to the statement sequence.

mod common;

use dgnkit_grammar::format::format;
use dgnkit_grammar::{parse, printer, ParseOptions};

fn fmt(src: &str) -> String {
    let out = format(src.as_bytes(), &ParseOptions::default()).expect("formats");
    String::from_utf8(out).expect("utf-8")
}

/// Formatting twice changes nothing, and the statements, flags and comment
/// texts are the same before and after.
fn assert_sound(name: &str, src: &[u8], opts: &ParseOptions) {
    let once = match format(src, opts) {
        Ok(out) => out,
        Err(d) => panic!("{name}: {d:?}"),
    };
    let twice = format(&once, opts)
        .unwrap_or_else(|d| panic!("{name}: formatted text does not parse: {d:?}"));
    assert!(
        once == twice,
        "{name}: not idempotent:\n{}",
        String::from_utf8_lossy(&twice)
    );
    let before = parse(src, opts);
    let after = parse(&once, opts);
    assert!(
        after.diagnostics.len() == before.diagnostics.len(),
        "{name}: diagnostics changed"
    );
    assert!(
        printer::print(&before.file) == printer::print(&after.file),
        "{name}: statements changed"
    );
    let flags = |p: &dgnkit_grammar::Parsed| {
        p.file
            .flag_lines
            .iter()
            .map(|f| (f.name.clone(), f.kept))
            .collect::<Vec<_>>()
    };
    assert_eq!(flags(&before), flags(&after), "{name}: flag lines changed");
    let texts = |s: &[u8], p: &dgnkit_grammar::Parsed| {
        p.file
            .comments
            .iter()
            .map(|c| s[c.span.range()].trim_ascii_end().to_vec())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        texts(src, &before),
        texts(&once, &after),
        "{name}: comments changed"
    );
}

#[test]
fn corpus_files_format_idempotently_and_keep_their_statements() {
    let undefined = ParseOptions {
        defines: vec![],
        undefines: vec!["REINCARNATION".into(), "MULDGN".into()],
    };
    for (name, src) in common::corpus_files() {
        assert_sound(&name, &src, &ParseOptions::default());
        assert_sound(&name, &src, &undefined);
    }
}

#[test]
fn vanilla_layout() {
    let src = "# comment  \t\n\n\n\n\nDUNGEON: \"The Dungeons of Doom\"   \"D\" (25,5)\nALIGNMENT:unaligned\n\
               BRANCH: \"The Gnomish Mines\" @(2,3)\n%REINCARNATION LEVEL: \"rogue\" \"R\" @ (15, 4)\n\
               RNDLEVEL:\"bigrm\" \"B\" @ (10, 3) 40 10\nCHAINBRANCH: \"Sokoban\" \"oracle\" +(1, 0) up # up to Sokoban\n\
               RNDCHAINLEVEL: \"x\" \"X\" \"y\" + (1, 0) 3\nENTRY: 007\nTILESET: 3\n\n";
    insta::assert_snapshot!(fmt(src), @r#"
    # comment


    DUNGEON:	"The Dungeons of Doom" "D" (25, 5)
    ALIGNMENT:	unaligned
    BRANCH:		"The Gnomish Mines" @ (2, 3)
    %REINCARNATION LEVEL:		"rogue" "R" @ (15, 4)
    RNDLEVEL:	"bigrm" "B" @ (10, 3) 40 10
    CHAINBRANCH:	"Sokoban" "oracle" + (1, 0) up # up to Sokoban
    RNDCHAINLEVEL:	"x" "X" "y" + (1, 0) 3
    ENTRY:		7
    TILESET:	3
    "#);
}

#[test]
fn blank_lines_collapse_to_two_and_edges_are_trimmed() {
    assert_eq!(
        fmt("\n\nENTRY: 1\n\n\n\n\nENTRY: 2\n\nENTRY: 3\n\n\n"),
        "ENTRY:\t\t1\n\n\nENTRY:\t\t2\n\nENTRY:\t\t3\n"
    );
}

#[test]
fn statements_are_split_and_joined() {
    assert_eq!(
        fmt("LEVEL: \"a\" \"A\" @ (1, 0) LEVEL: \"b\" \"B\"\n  @ (2,\n 0) # end\nENTRY: 1\n"),
        "LEVEL:\t\t\"a\" \"A\" @ (1, 0)\nLEVEL:\t\t\"b\" \"B\" @ (2, 0) # end\nENTRY:\t\t1\n"
    );
}

#[test]
fn comments_keep_their_place() {
    assert_eq!(
        fmt("#a\nENTRY: 1 #b\n   #c  \nLEVEL: \"x\" # inside\n @ (1, 0)\n#d"),
        "#a\nENTRY:\t\t1 #b\n#c\nLEVEL:\t\t\"x\" @ (1, 0)\n# inside\n#d\n"
    );
}

#[test]
fn crlf_files_stay_crlf() {
    assert_eq!(
        fmt("ENTRY: 1\r\n# c\r\n\r\nENTRY: 2"),
        "ENTRY:\t\t1\r\n# c\r\n\r\nENTRY:\t\t2\r\n"
    );
}

#[test]
fn names_keep_their_bytes() {
    let src = b"DUNGEON: \"\x83\x51\x83\x93\" \"D\" (25,5)\n";
    assert_eq!(
        format(src, &ParseOptions::default()).unwrap(),
        b"DUNGEON:\t\"\x83\x51\x83\x93\" \"D\" (25, 5)\n"
    );
}

#[test]
fn dropped_lines_are_formatted_when_clean_and_kept_otherwise() {
    let opts = ParseOptions {
        defines: vec![],
        undefines: vec!["REINCARNATION".into()],
    };
    let src = b"%REINCARNATION LEVEL: \"rogue\" \"R\" @ (15,4) # r\n%REINCARNATION  this is ( not a statement  \n%REINCARNATION\nENTRY: 1\n";
    let out = format(src, &opts).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "%REINCARNATION LEVEL:\t\t\"rogue\" \"R\" @ (15, 4) # r\n%REINCARNATION  this is ( not a statement\n%REINCARNATION\nENTRY:\t\t1\n"
    );
    // Unknown options are dropped with a warning, and formatted the same way.
    let out = format(
        b"%CONWAY   LEVEL: \"c\" \"none\" @ (7,3)\n",
        &ParseOptions::default(),
    )
    .unwrap();
    assert_eq!(out, b"%CONWAY LEVEL:\t\t\"c\" \"none\" @ (7, 3)\n");
}

#[test]
fn kept_flag_lines_without_a_statement_keep_their_prefix() {
    assert_eq!(
        fmt("%MULDGN # only a comment\n%MULDGN\nENTRY: 1\n"),
        "%MULDGN # only a comment\n%MULDGN\nENTRY:\t\t1\n"
    );
}

#[test]
fn syntax_errors_are_not_formatted() {
    let err = format(b"LEVEL: \"a\" @ (1 0)\n", &ParseOptions::default()).unwrap_err();
    assert!(err.iter().any(|d| d.code == "E0109"));
}

#[test]
fn statements_crossing_a_flag_line_are_refused() {
    let err = format(
        b"LEVEL: \"rogue\" \"R\"\n%REINCARNATION @ (15, 4)\n",
        &ParseOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].code, "E0118");
    let err = format(
        b"%REINCARNATION LEVEL: \"rogue\" \"R\"\n @ (15, 4)\n",
        &ParseOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err[0].code, "E0118");
}

#[test]
fn empty_and_blank_files() {
    assert_eq!(fmt(""), "");
    assert_eq!(fmt("\n  \n\t\n"), "");
}
