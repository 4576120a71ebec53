//! Snapshots of the tree and diagnostics for every statement form, every
//! preprocessing case and every syntax error the frontend reports.

mod common;

use dgnkit_grammar::{parse, ParseOptions};

fn opts(defines: &[&str], undefines: &[&str]) -> ParseOptions {
    ParseOptions {
        defines: defines.iter().map(|s| s.to_string()).collect(),
        undefines: undefines.iter().map(|s| s.to_string()).collect(),
    }
}

fn snapshot(name: &str, src: &[u8], options: &ParseOptions) {
    let parsed = parse(src, options);
    let shown = String::from_utf8_lossy(src).replace('\r', "\\r");
    let text = format!("{shown}\n-----\n{}", common::render(src, &parsed));
    insta::assert_snapshot!(name, text);
}

/// Statement forms: each must parse with no diagnostics.
const FORMS: &[(&str, &str)] = &[
    ("dungeon", "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\n"),
    ("dungeon_chance", "DUNGEON:\t\"The Dragon Caves\" \"none\" (2, 0) 75\n"),
    ("entry", "ENTRY: -1\nENTRY:\t2\n"),
    ("protofile", "PROTOFILE: \"tower\"\n"),
    ("word_statements", "DESCRIPTION: mazelike\nALIGNMENT: noalign\nLEVELDESC: town\nLEVALIGN: chaotic\nDESCRIPTION: iceq\n"),
    ("level_two_strings", "LEVEL: \"oracle\" \"O\" @ (5, 5)\n"),
    ("level_one_string", "LEVEL:    \"jadekey\" @ (7, 7)\n"),
    ("level_gnollhack_three_strings", "LEVEL: \"Oracle\" \"oracle\" \"O\" @ (5, 5) 60\n"),
    ("rndlevel", "RNDLEVEL: \"medusa\" \"none\" @ (-5, 4) 4\nRNDLEVEL: \"bigrm\" \"B\" @ (10, 3) 40 10\n"),
    ("chainlevel", "CHAINLEVEL: \"wizard2\" \"X\" \"wizard1\" + (1, 0)\nCHAINLEVEL: \"w3\" \"w1\" + (2, 0) 50\nCHAINLEVEL: \"D\" \"n\" \"b\" \"c\" + (1, 1)\n"),
    ("rndchlevel", "RNDCHLEVEL: \"x\" \"X\" \"y\" + (1, 0) 3\nRNDCHAINLEVEL: \"x\" \"X\" \"y\" + (1, 0) 50 3\n"),
    ("branch", "BRANCH: \"The Gnomish Mines\" @ (2, 3)\nBRANCH: \"Fort Ludios\" @ (18, 4) portal\nBRANCH: \"Vlad's Tower\" @ (9, 5) up\nBRANCH: \"The Elemental Planes\" @ (1, 0) no_down up\n"),
    ("branch_slashem_entry", "BRANCH: \"The Gnomish Mines\" @ (2, 3) stair down -1\nBRANCH: \"Mall\" @ (2, 3) -2\n"),
    ("chainbranch", "CHAINBRANCH: \"Sokoban\" \"oracle\" + (1, 0) up\nCHAINBRANCH: \"Gehennom\" \"castle\" + (0, 0) no_down\n"),
    ("tileset", "TILESET: gnomish_mines_tileset\nTILESET: 3\n"),
    ("several_per_line_and_split", "LEVEL: \"a\" \"A\" @ (1, 0) LEVEL: \"b\" \"B\"\n  @ (2,\n 0)\n"),
    ("comments_and_crlf", "# whole line\r\nDUNGEON: \"D\" \"D\" (1, 0)\r\n\r\n#\r\nENTRY: 1 # trailing\r\n   # indented\r\n"),
    ("non_utf8_names", "DUNGEON: \"\u{fffd}\" \"D\" (25, 5)\n"),
    ("empty_file", ""),
    ("comment_only_file", "# nothing\n#\n"),
    ("statements_before_dungeon", "LEVEL: \"oracle\" \"O\" @ (5, 5)\nDUNGEON: \"D\" \"D\" (1, 0)\n"),
];

#[test]
fn statement_forms() {
    for (name, src) in FORMS {
        snapshot(
            &format!("form_{name}"),
            src.as_bytes(),
            &ParseOptions::default(),
        );
        let parsed = parse(src.as_bytes(), &ParseOptions::default());
        assert!(
            parsed.diagnostics.is_empty(),
            "{name}: {:?}",
            parsed.diagnostics
        );
    }
}

#[test]
fn jnethack_bytes_are_kept() {
    let src = b"DUNGEON: \"\x83\x51\x83\x93\x83\x76\" \"D\" (25, 5)\n";
    let parsed = parse(src, &ParseOptions::default());
    assert!(parsed.diagnostics.is_empty());
    match &parsed.file.statements[0].kind {
        dgnkit_grammar::ast::StmtKind::Dungeon(d) => {
            assert_eq!(d.name.bytes, b"\x83\x51\x83\x93\x83\x76")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn flags() {
    let src = b"%REINCARNATION LEVEL:\t\t\"rogue\" \"R\" @ (15, 4)\n%MULDGN\tLEVELDESC:\ttown\n%CONWAY LEVEL: \"conway\" \"none\" @ (7, 3)\n%\n";
    snapshot("flags_default", src, &opts(&[], &[]));
    snapshot(
        "flags_undefined",
        src,
        &opts(&[], &["REINCARNATION", "MULDGN"]),
    );
    snapshot("flags_defined_unknown", src, &opts(&["CONWAY"], &[]));
}

/// Bad inputs: each must give at least one error, and the tree must keep
/// the good statements around the bad ones.
const ERRORS: &[(&str, &[u8])] = &[
    ("unexpected_char", b"LEVEL: \"oracle\" \"O\" @ (5, 5);\nENTRY: 1\n"),
    ("lone_cr_and_nul", b"ENTRY: 1\r \x00\x01\nENTRY: 2\n"),
    ("non_ascii_outside_string", "LEVEL: oracle\u{e9} \"O\" @ (5, 5)\n".as_bytes()),
    ("invalid_utf8_outside_string", b"ENTRY: \xff\xfe\nENTRY: 2\n"),
    ("percent_not_at_line_start", b"ENTRY: 1 %REINCARNATION\n"),
    ("bad_number", b"LEVEL: \"oracle\" \"O\" @ (5-3, 5)\n"),
    ("lone_minus", b"ENTRY: -\n"),
    ("number_too_large", b"ENTRY: 99999999999999999999\nLEVEL: \"a\" \"b\" @ (-99999999999999999999, 0)\n"),
    ("unterminated_string", b"LEVEL: \"oracle \"O\" @ (5, 5)\nPROTOFILE: \"tower\r\nENTRY: 1\n"),
    ("miscased_keyword", b"Dungeon: \"D\" \"D\" (1, 0)\n"),
    ("upper_case_value_word", b"DESCRIPTION: MAZELIKE\n"),
    ("misspelt_keyword", b"LEVELS: \"oracle\" \"O\" @ (5, 5)\n"),
    ("unknown_upper_word", b"ENTRY: 1 FooBar\n"),
    ("lower_case_keyword", b"level: \"oracle\" \"O\" @ (5, 5)\n"),
    ("missing_colon", b"LEVEL \"oracle\" \"O\" @ (5, 5)\nENTRY 1\n"),
    ("bare_name", b"PROTOFILE: tower\nLEVEL: oracle \"O\" @ (5, 5)\nBRANCH: @ (1, 0)\n"),
    ("dungeon_missing_bones", b"DUNGEON: \"The Dungeons of Doom\" (25, 5)\n"),
    ("dungeon_missing_size", b"DUNGEON: \"D\" \"D\" 25, 5\n"),
    ("missing_range_after_at", b"LEVEL: \"oracle\" \"O\" @ 5\n"),
    ("missing_range_after_plus", b"CHAINLEVEL: \"w2\" \"X\" \"w1\" +\nENTRY: 1\n"),
    ("range_missing_comma", b"LEVEL: \"oracle\" \"O\" @ (5 5)\n"),
    ("range_missing_number", b"LEVEL: \"oracle\" \"O\" @ (, 5)\nLEVEL: \"oracle\" \"O\" @ (5, )\n"),
    ("range_three_numbers", b"LEVEL: \"oracle\" \"O\" @ (5, 5, 5)\n"),
    ("range_unclosed_at_line_end", b"LEVEL: \"oracle\" \"O\" @ (5, 5\nENTRY: 1\n"),
    ("missing_placement", b"LEVEL: \"oracle\" \"O\" (5, 5)\nBRANCH: \"Mines\" (2, 3)\n"),
    ("level_with_plus", b"LEVEL: \"wizard2\" \"X\" \"wizard1\" + (1, 0)\n"),
    ("chainlevel_with_at", b"CHAINLEVEL: \"wizard2\" \"X\" @ (1, 0)\n"),
    ("branch_with_plus", b"BRANCH: \"Sokoban\" \"oracle\" + (1, 0) up\n"),
    ("chainbranch_with_at", b"CHAINBRANCH: \"Sokoban\" @ (1, 0) up\n"),
    ("too_many_strings", b"LEVEL: \"a\" \"b\" \"c\" \"d\" @ (1, 0)\nCHAINLEVEL: \"a\" \"b\" \"c\" \"d\" \"e\" + (1, 0)\nBRANCH: \"a\" \"b\" @ (1, 0)\n"),
    ("too_few_strings", b"CHAINLEVEL: \"a\" + (1, 0)\nCHAINBRANCH: \"a\" + (1, 0)\n"),
    ("descriptor_quoted", b"DESCRIPTION: \"mazelike\"\nALIGNMENT: 3\nLEVELDESC:\nLEVALIGN: \"x y\"\nTILESET: \"a\"\n"),
    ("entry_not_number", b"ENTRY: bottom\n"),
    ("branch_words", b"BRANCH: \"a\" @ (1, 0) portal stair\nBRANCH: \"b\" @ (1, 0) up down\nBRANCH: \"c\" @ (1, 0) up portal\nBRANCH: \"d\" @ (1, 0) stair up down\n"),
    ("rndlevel_missing_variants", b"RNDLEVEL: \"bigrm\" \"B\" @ (10, 3)\n"),
    ("too_many_numbers", b"LEVEL: \"a\" \"A\" @ (1, 0) 50 3\nRNDLEVEL: \"a\" \"A\" @ (1, 0) 50 3 4\n"),
    ("extra_after_statement", b"LEVEL: \"oracle\" \"O\" @ (5, 5) 50 portal\nENTRY: 1 2\nBRANCH: \"a\" @ (1, 0) up 1 2\n"),
    ("garbage_before_first_statement", b"hello world\nDUNGEON: \"D\" \"D\" (1, 0)\n"),
    ("stray_tokens", b"DUNGEON: \"D\" \"D\" (1, 0)\n\"stray\" (1, 2)\n: @\nENTRY: 1\n"),
    ("truncated_at_eof", b"DUNGEON: \"D\" \"D\" (1,"),
    ("keyword_at_eof", b"DUNGEON: \"D\" \"D\" (1, 0)\nLEVEL"),
    ("every_bad_line_reported", b"DUNGEON: \"D\" \"D\" (25, 5)\nLEVEL: \"a\" \"A\" @ (1 0)\nLEVEL: \"b\" \"B\" @ (2, 0)\nLEVEL \"c\" \"C\" @ (3, 0)\nLEVEL: \"d\" \"D\" @ (4, 0)\nBRANCH: \"x\" @ (5)\nBRANCH: \"y\" @ (6, 0)\n"),
    ("hash_in_middle_of_statement", b"LEVEL: \"oracle\" \"O\" # @ (5, 5)\nENTRY: 1\n"),
];

#[test]
fn syntax_errors() {
    for (name, src) in ERRORS {
        snapshot(&format!("error_{name}"), src, &ParseOptions::default());
        let parsed = parse(src, &ParseOptions::default());
        assert!(parsed.has_errors(), "{name}: no error");
        for d in &parsed.diagnostics {
            assert!(
                d.code.starts_with("E01") || d.code.starts_with("W01"),
                "{name}: {}",
                d.code
            );
            assert!(
                d.span.end as usize <= src.len(),
                "{name}: span past the end"
            );
        }
    }
}
