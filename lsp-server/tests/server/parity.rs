//! On every corpus file: the server's diagnostics equal the library's (what
//! `dgn check` prints, its family note N0001 worded for the editor), also after edits to comments and spacing, which the
//! server answers from the earlier analysis; and every feature answers at
//! every token without panicking.

use dgnkit::dialect::Dialect;
use dgnkit_lsp::analysis::check_options;
use dgnkit_lsp::config::Config;
use dgnkit_lsp::features::{
    completion, diagnostics, formatting, hover, inlay, navigation, semantic_tokens, symbols,
};
use dgnkit_lsp::position::LineIndex;
use dgnkit_lsp::state::State;
use std::path::PathBuf;
use std::str::FromStr;
use tower_lsp_server::ls_types::{Position, Range, Uri};

/// The shared corpus (real files) and our own example and test files.
fn corpus_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Some(dir) = crate::common::corpus_dir() {
        for entry in std::fs::read_dir(dir).expect("corpus readable").flatten() {
            for name in ["dungeon.def", "dungeon.pdf"] {
                let p = entry.path().join(name);
                if p.is_file() {
                    files.push(p);
                }
            }
        }
    }
    let ours = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("corpus");
    if let Ok(entries) = std::fs::read_dir(ours) {
        files.extend(
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "def")),
        );
    }
    files.sort();
    files
}

/// Configurations a file is checked with: vanilla, and the dialect the file
/// looks like when that differs.
fn configs(bytes: &[u8]) -> Vec<Config> {
    let mut out = vec![Config::default()];
    let parsed = dgnkit_grammar::parse(bytes, &Default::default());
    if let Some(d) = Dialect::guess(&parsed.file) {
        out.push(Config {
            dialect: Some(d.name().to_string()),
            ..Config::default()
        });
    }
    out
}

fn uri() -> Uri {
    Uri::from_str("file:///corpus/dungeon.def").unwrap()
}

/// Sets the document's text and checks the diagnostics against the library.
fn check(state: &mut State, bytes: Vec<u8>, what: &str) {
    let uri = uri();
    let version = state.docs.get(&uri).map_or(1, |d| d.version + 1);
    let config = state.config();
    assert!(state.set_bytes(&uri, version, bytes.clone()));
    // The layout-odds checks run in the background in the server; here,
    // at once.
    if let Some(job) = state.prepare_odds(&uri) {
        let (u, k, odds) = job.run();
        state.odds.finish(u, k, odds);
    }
    let view = state.doc(&uri).unwrap();
    let mut expected = dgnkit::frontend::analyze(&bytes, &check_options(&config)).diagnostics;
    // The editor's words for the family note: the setting, not `--target`.
    let path = dgnkit_lsp::state::file_path(&uri);
    dgnkit_lsp::analysis::family_note(&mut expected, path.as_deref(), &config, false);
    let got = view.all_diagnostics();
    if got != expected {
        let first = got.iter().zip(&expected).position(|(a, b)| a != b);
        panic!(
            "{what}: diagnostics differ (server {} / library {}), first difference at {first:?}:\nserver:  {:?}\nlibrary: {:?}",
            got.len(),
            expected.len(),
            first.and_then(|i| got.get(i)),
            first.and_then(|i| expected.get(i)),
        );
    }
}

/// Deterministic edits that touch only whole-line comments and spacing
/// between tokens (never the inside of a string or a trailing comment).
fn trivia_variants(text: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    use dgnkit_grammar::lexer::{lex, TokenKind};
    let tokens = lex(text);
    // Rebuilds the text, letting `gap` rewrite what lies between tokens and
    // `comment` rewrite whole-line comments.
    type GapFn<'a> = &'a dyn Fn(&[u8], Option<TokenKind>) -> Vec<u8>;
    let rebuild = |gap: GapFn<'_>, comment: &dyn Fn(&[u8]) -> Vec<u8>| {
        let mut out = Vec::with_capacity(text.len() * 2);
        let mut pos = 0usize;
        let mut prev: Option<TokenKind> = None;
        for t in &tokens {
            out.extend(gap(&text[pos..t.span.start as usize], prev));
            let body = &text[t.span.range()];
            if t.kind == TokenKind::Comment {
                out.extend(comment(body));
            } else {
                out.extend_from_slice(body);
            }
            pos = t.span.end as usize;
            prev = Some(t.kind);
        }
        out.extend(gap(&text[pos..], prev));
        out
    };
    let keep_comment = |c: &[u8]| c.to_vec();
    let doubled = rebuild(
        &|g: &[u8], _| {
            g.iter()
                .flat_map(|&b| {
                    if b == b' ' || b == b'\t' {
                        vec![b, b' ']
                    } else {
                        vec![b]
                    }
                })
                .collect()
        },
        &keep_comment,
    );
    let trailing = rebuild(
        &|g: &[u8], prev| {
            // Not after a token that runs to the end of its line.
            let open = matches!(
                prev,
                Some(TokenKind::Str { terminated: false }) | Some(TokenKind::TrailingComment)
            );
            let mut out = Vec::with_capacity(g.len() + 8);
            for (i, &b) in g.iter().enumerate() {
                // Blanks go before the line end (before `\r\n` as a whole).
                let line_end = (b == b'\n' && (i == 0 || g[i - 1] != b'\r'))
                    || (b == b'\r' && g.get(i + 1) == Some(&b'\n'));
                if line_end && !open {
                    out.extend_from_slice(b" \t ");
                }
                out.push(b);
            }
            out
        },
        &keep_comment,
    );
    let recommented = rebuild(&|g: &[u8], _| g.to_vec(), &|c: &[u8]| {
        let mut out = b"# edited:".to_vec();
        out.extend(
            c.iter()
                .skip(1)
                .map(|&b| if b.is_ascii_alphabetic() { b'x' } else { b }),
        );
        out
    });
    let with_comment_lines = rebuild(
        &|g: &[u8], _| {
            // After a blank line (two line ends in a row), add a comment line.
            let mut out = Vec::with_capacity(g.len() + 20);
            let mut newlines = 0;
            for &b in g {
                out.push(b);
                if b == b'\n' {
                    newlines += 1;
                    if newlines == 2 {
                        out.extend_from_slice(b"# inserted comment\n");
                    }
                }
            }
            out
        },
        &keep_comment,
    );
    vec![
        ("blanks doubled", doubled),
        ("trailing blanks", trailing),
        ("comments edited", recommented),
        ("comment lines inserted", with_comment_lines),
    ]
}

#[test]
fn diagnostics_equal_the_library_on_every_corpus_file() {
    let files = corpus_files();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        for config in configs(&bytes) {
            let what = format!("{} ({:?})", path.display(), config.dialect);
            let mut state = State::new(config);
            state.open(uri(), 1, String::new());
            check(&mut state, bytes.clone(), &what);
            let runs = state.db.analysis_runs();
            for (edit, variant) in trivia_variants(&bytes) {
                check(&mut state, variant, &format!("{what}, {edit}"));
            }
            assert_eq!(
                state.db.analysis_runs(),
                runs,
                "{what}: comment/spacing edits reran the analysis"
            );
            // CRLF line ends are kept in the canonical text (fixes insert
            // them), so this one reruns, and must still agree.
            let crlf: Vec<u8> = String::from_utf8_lossy(&bytes)
                .replace('\n', "\r\n")
                .into_bytes();
            if std::str::from_utf8(&bytes).is_ok() {
                check(&mut state, crlf, &format!("{what}, CRLF"));
            }
        }
    }
    eprintln!("{} corpus files checked", files.len());
}

/// Every feature, at the start, middle and end of every token and on every
/// line, must answer without panicking on every corpus file.
#[test]
fn every_feature_answers_on_every_corpus_file() {
    for path in corpus_files() {
        let bytes = std::fs::read(&path).unwrap();
        let mut state = State::new(Config::default());
        let u = uri();
        state.open(u.clone(), 1, String::new());
        state.set_bytes(&u, 2, bytes.clone());
        let view = state.doc(&u).unwrap();
        let index = LineIndex::new(&bytes);
        let _ = diagnostics::publish(view);
        let whole = Range {
            start: Position::new(0, 0),
            end: index.position(&bytes, bytes.len() as u32),
        };
        let _ = diagnostics::code_actions(view, whole);
        let _ = symbols::document_symbols(view);
        let _ = symbols::workspace_symbols(state.views(), "");
        let _ = semantic_tokens::full(view);
        let _ = inlay::hints(view, whole);
        let _ = formatting::format(view);
        let tokens = dgnkit_grammar::lexer::lex(&bytes);
        for t in tokens.iter().step_by(1) {
            for offset in [t.span.start, (t.span.start + t.span.end) / 2, t.span.end] {
                let p = index.position(&bytes, offset);
                let _ = hover::hover(view, p);
                let _ = navigation::definition(view, p);
                let _ = navigation::references(view, p, true);
                let _ = navigation::prepare_rename(view, p);
                let _ = navigation::rename(view, p, "renamed");
                let _ = completion::complete(view, p);
            }
        }
        for line in 0..index.line_count() as u32 {
            let _ = completion::complete(view, Position::new(line, 0));
            let _ = completion::complete(view, Position::new(line, 200));
        }
    }
}
