//! Properties: printing a tree and parsing it back gives the same tree
//! (modulo spans); no input panics; formatting is idempotent and keeps the
//! statement sequence.

use dgnkit_grammar::ast::*;
use dgnkit_grammar::format::format;
use dgnkit_grammar::{lexer, parse, parse_with, printer, Grammar, ParseOptions, Span};
use proptest::prelude::*;

fn num() -> impl Strategy<Value = Num> {
    prop_oneof![
        20 => (-40i64..100).prop_map(Some),
        3 => any::<i64>().prop_map(Some),
        1 => Just(None),
    ]
    .prop_map(|value| Num {
        span: Span::default(),
        value,
    })
}

fn string() -> impl Strategy<Value = StrLit> {
    // Any bytes but the quote and the line end, non-UTF-8 included.
    prop::collection::vec(
        any::<u8>().prop_filter("no quote or newline", |b| *b != b'"' && *b != b'\n'),
        0..12,
    )
    .prop_map(|bytes| StrLit {
        span: Span::default(),
        bytes,
    })
}

fn word_text() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_]{0,10}"
}

fn word() -> impl Strategy<Value = Word> {
    word_text().prop_map(|text| Word {
        span: Span::default(),
        text,
    })
}

fn keyword(kind: KeywordKind) -> Keyword {
    Keyword {
        span: Span::default(),
        kind,
    }
}

fn couple() -> impl Strategy<Value = Couple> {
    (num(), num()).prop_map(|(base, rand)| Couple {
        span: Span::default(),
        base,
        rand,
    })
}

fn level() -> impl Strategy<Value = StmtKind> {
    let kinds = prop::sample::select(vec![
        KeywordKind::Level,
        KeywordKind::RndLevel,
        KeywordKind::ChainLevel,
        KeywordKind::RndChLevel,
        KeywordKind::RndChainLevel,
    ]);
    (
        kinds,
        1usize..=3,
        string(),
        string(),
        string(),
        string(),
        couple(),
        prop::option::of(num()),
        num(),
    )
        .prop_map(|(kind, n_strings, a, b, c, chain, placement, chance, n)| {
            let mut stmt = LevelStmt {
                keyword: keyword(kind),
                display: None,
                name: a.clone(),
                bones: None,
                chain: None,
                placement,
                chance,
                rndlevs: None,
            };
            match n_strings {
                1 => {}
                2 => stmt.bones = Some(b),
                _ => {
                    stmt.display = Some(a);
                    stmt.name = b;
                    stmt.bones = Some(c);
                }
            }
            if stmt.is_chained() {
                stmt.chain = Some(chain);
            }
            if stmt.is_random() {
                stmt.rndlevs = Some(n);
            }
            StmtKind::Level(stmt)
        })
}

fn branch() -> impl Strategy<Value = StmtKind> {
    let types = word_text().prop_filter("a type is not a direction", |w| w != "up" && w != "down");
    let dirs = prop::sample::select(vec!["up", "down"]);
    (
        any::<bool>(),
        string(),
        string(),
        couple(),
        prop::option::of(types),
        prop::option::of(dirs),
        prop::option::of(num()),
    )
        .prop_map(|(chained, target, chain, placement, t, d, entry)| {
            let w = |text: String| Word {
                span: Span::default(),
                text,
            };
            StmtKind::Branch(BranchStmt {
                keyword: keyword(if chained {
                    KeywordKind::ChainBranch
                } else {
                    KeywordKind::Branch
                }),
                target,
                chain: chained.then_some(chain),
                placement,
                branch_type: t.map(w),
                direction: d.map(|d| w(d.to_string())),
                entry,
            })
        })
}

fn statement() -> impl Strategy<Value = Statement> {
    let word_stmt = (prop::sample::select(vec![0u8, 1, 2, 3]), word()).prop_map(|(which, word)| {
        let kw = [
            KeywordKind::Description,
            KeywordKind::Alignment,
            KeywordKind::LevelDesc,
            KeywordKind::LevAlign,
        ];
        let stmt = WordStmt {
            keyword: keyword(kw[which as usize]),
            word,
        };
        match which {
            0 => StmtKind::Description(stmt),
            1 => StmtKind::Alignment(stmt),
            2 => StmtKind::LevelDesc(stmt),
            _ => StmtKind::LevAlign(stmt),
        }
    });
    prop_oneof![
        1 => (string(), string(), couple(), prop::option::of(num())).prop_map(|(name, bones, size, chance)| {
            StmtKind::Dungeon(DungeonStmt { keyword: keyword(KeywordKind::Dungeon), name, bones, size, chance })
        }),
        1 => num().prop_map(|level| StmtKind::Entry(EntryStmt { keyword: keyword(KeywordKind::Entry), level })),
        1 => string().prop_map(|name| StmtKind::Protofile(ProtofileStmt { keyword: keyword(KeywordKind::Protofile), name })),
        1 => word_stmt,
        1 => prop_oneof![word().prop_map(TilesetValue::Word), num().prop_map(TilesetValue::Num)]
            .prop_map(|value| StmtKind::Tileset(TilesetStmt { keyword: keyword(KeywordKind::Tileset), value })),
        3 => level(),
        2 => branch(),
    ]
    .prop_map(|kind| Statement { span: Span::default(), kind })
}

/// Pieces of dungeon.def text, valid and not, for inputs that get past the
/// lexer more often than random bytes do.
fn fragment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::sample::select(vec![
            "DUNGEON",
            "LEVEL",
            "RNDLEVEL",
            "CHAINLEVEL",
            "RNDCHLEVEL",
            "RNDCHAINLEVEL",
            "BRANCH",
            "CHAINBRANCH",
            "ENTRY",
            "PROTOFILE",
            "DESCRIPTION",
            "ALIGNMENT",
            "LEVELDESC",
            "LEVALIGN",
            "TILESET",
            ":",
            "@",
            "+",
            "(",
            ")",
            ",",
            " ",
            " ",
            "\t",
            "\n",
            "\n",
            "\r\n",
            "\r",
            "#",
            "# c\n",
            "%REINCARNATION ",
            "%FOO ",
            "%",
            "up",
            "portal",
            "hellish",
            "\"x\"",
            "\"none\"",
            "\"",
            "-",
            "5-3",
            "-1",
            "10",
            "99999999999999999999999",
            ";",
            "Level",
            "\0",
            "\u{e9}",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 0..4),
    ]
}

fn soup() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(fragment(), 0..60).prop_map(|parts| parts.concat())
}

/// A file of valid statements with random layout, comments, blank lines and
/// flag prefixes.
fn valid_file() -> impl Strategy<Value = Vec<u8>> {
    let line = (
        statement(),
        prop::sample::select(vec!["", "", "", "%REINCARNATION ", "%MULDGN\t", "%CONWAY "]),
        prop::sample::select(vec!["", " # c", "\t#x  ", "#"]),
        prop::sample::select(vec![
            "\n",
            "\n",
            "\r\n",
            "\n\n",
            "\n\n\n\n",
            "\n# whole\n",
            "\n   # indented\n",
        ]),
        prop::sample::select(vec![" ", "  ", "\t"]),
    )
        .prop_map(|(stmt, prefix, comment, end, space)| {
            let mut out = prefix.as_bytes().to_vec();
            let mut text = Vec::new();
            printer::print_statement(&stmt, &mut text);
            // Re-space the canonical text so the formatter has work to do.
            for b in text {
                if b == b'\t' {
                    out.extend_from_slice(space.as_bytes());
                } else {
                    out.push(b);
                }
            }
            out.extend_from_slice(comment.as_bytes());
            out.extend_from_slice(end.as_bytes());
            out
        });
    prop::collection::vec(line, 0..12).prop_map(|lines| lines.concat())
}

fn cleared(mut file: SourceFile) -> Vec<Statement> {
    file.clear_spans();
    file.statements
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn printed_trees_parse_back_to_themselves(stmts in prop::collection::vec(statement(), 0..20)) {
        let file = SourceFile { statements: stmts.clone(), ..SourceFile::default() };
        let text = printer::print(&file);
        let parsed = parse(&text, &ParseOptions::default());
        let errors: Vec<_> = parsed.diagnostics.iter().filter(|d| d.code != "E0103").collect();
        prop_assert!(errors.is_empty(), "{:?}\n{}", errors, String::from_utf8_lossy(&text));
        prop_assert_eq!(cleared(parsed.file), stmts);
    }

    #[test]
    fn arbitrary_bytes_never_panic(src in prop::collection::vec(any::<u8>(), 0..400)) {
        let parsed = parse(&src, &ParseOptions::default());
        for d in &parsed.diagnostics {
            prop_assert!(d.span.start <= d.span.end && d.span.end as usize <= src.len());
        }
        let _ = format(&src, &ParseOptions::default());
        let _ = lexer::lex(&src);
    }

    #[test]
    fn token_soup_never_panics_and_spans_stay_in_bounds(src in soup()) {
        let parsed = parse(&src, &ParseOptions::default());
        for d in &parsed.diagnostics {
            prop_assert!(d.span.start <= d.span.end && d.span.end as usize <= src.len(), "{:?}", d);
        }
        for s in &parsed.file.statements {
            prop_assert!(s.span.end as usize <= src.len());
        }
        if let Ok(once) = format(&src, &ParseOptions::default()) {
            prop_assert_eq!(format(&once, &ParseOptions::default()).ok(), Some(once.clone()));
        }
    }

    #[test]
    fn formatting_is_idempotent_and_keeps_statements(src in valid_file()) {
        let opts = ParseOptions::default();
        let before = parse(&src, &opts);
        match format(&src, &opts) {
            Ok(once) => {
                let twice = format(&once, &opts);
                prop_assert_eq!(twice.as_ref().ok(), Some(&once), "{}", String::from_utf8_lossy(&once));
                let after = parse(&once, &opts);
                prop_assert_eq!(printer::print(&before.file), printer::print(&after.file));
                prop_assert_eq!(before.diagnostics.len(), after.diagnostics.len());
            }
            // Only numbers too large for 64 bits make a generated file fail.
            Err(d) => prop_assert!(d.iter().filter(|d| d.is_error()).all(|d| d.code == "E0103"), "{:?}", d),
        }
    }

    // The direct reader of well-formed statements and the generated parser
    // give the same tree and diagnostics, whichever one `parse` ends with:
    // on valid files (the direct reader's own) and on token soup (mostly the
    // generated parser's, after the direct reader gave up part way).
    #[test]
    fn direct_reader_agrees_with_the_generated_parser_on_valid_files(src in valid_file()) {
        let opts = ParseOptions { defines: vec!["CONWAY".into()], undefines: vec![] };
        prop_assert_eq!(parse(&src, &opts), parse_with(&src, &opts, Grammar::Tables));
    }

    #[test]
    fn direct_reader_agrees_with_the_generated_parser_on_token_soup(src in soup()) {
        let opts = ParseOptions::default();
        prop_assert_eq!(parse(&src, &opts), parse_with(&src, &opts, Grammar::Tables));
    }
}
