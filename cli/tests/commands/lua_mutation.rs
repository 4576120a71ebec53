//! The Lua reader never panics on a broken dungeon.lua: every `corpus/*.lua`
//! file (and NetHack 3.7's own, when `../shared` is there) mutated by
//! proptest (bytes changed, cut out, or Lua's own punctuation and keywords
//! put in), read for nethack-3.7. Asserted for each: every span lies in the
//! file, diagnostics are sorted, a script comes out exactly when nothing is
//! an error, and the Lua formatter is a fixed point that keeps what the
//! file reads to. The fuzz target `lua_reader` runs the same properties
//! coverage-guided.

use dgnkit::frontend::{analyze_as, Analysis, CheckOptions, SourceKind};
use dgnkit::lint::LintLevels;
use dgnkit::options::Target;
use proptest::prelude::*;
use std::path::PathBuf;

fn sources() -> Vec<Vec<u8>> {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .expect("corpus/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "lua"))
        .collect();
    files.sort();
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/NetHack__NetHack@3.7/dungeon.lua");
    if shared.is_file() {
        files.push(shared);
    }
    assert!(files.len() >= 2, "corpus/*.lua: {files:?}");
    files
        .iter()
        .map(|p| std::fs::read(p).expect("readable"))
        .collect()
}

/// Without the layout odds: they enumerate every layout, and a mutant
/// that still loads would spend the test's time there.
fn options() -> CheckOptions {
    CheckOptions {
        target: Target::NetHack37,
        lints: LintLevels::new()
            .allow("load-failure-odds")
            .allow("bones-marker-unused"),
        ..CheckOptions::default()
    }
}

fn read(src: &[u8]) -> Analysis {
    analyze_as(SourceKind::Lua, src, &options())
}

fn invariants(src: &[u8]) {
    let a = read(src);
    assert_eq!(a.script.is_some(), !a.has_errors());
    let len = src.len() as u32;
    for w in a.diagnostics.windows(2) {
        assert!(w[0].span.start <= w[1].span.start, "unsorted");
    }
    for d in &a.diagnostics {
        let spans = std::iter::once(d.span)
            .chain(d.labels.iter().map(|l| l.span))
            .chain(d.fix.iter().flat_map(|f| f.edits.iter().map(|e| e.span)));
        for s in spans {
            assert!(
                s.start <= s.end && s.end <= len,
                "{} {s:?} outside 0..{len}",
                d.code
            );
        }
    }
    if let Ok(once) = dgnkit::lua::format::format(src) {
        assert_eq!(
            dgnkit::lua::format::format(&once).ok().as_ref(),
            Some(&once),
            "formatting is not a fixed point"
        );
        let after = read(&once);
        assert_eq!(after.script, a.script, "formatting changed the script");
        let codes = |a: &Analysis| {
            let mut c: Vec<&str> = a.diagnostics.iter().map(|d| d.code).collect();
            c.sort_unstable();
            c
        };
        assert_eq!(
            codes(&after),
            codes(&a),
            "formatting changed the diagnostics"
        );
    }
}

/// What a mutation puts in: Lua's punctuation, keywords, long brackets,
/// escapes, numbers at the edges, and bytes that are not UTF-8.
const PIECES: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "[[",
    "]]",
    "[==[",
    "]==]",
    "--",
    "--[[",
    "\"",
    "'",
    "\\",
    "\\z",
    "\\x4",
    "\\u{1F600}",
    "\\999",
    "=",
    "==",
    ",",
    ";",
    ".",
    "..",
    "...",
    "-",
    "--x\n",
    "\n",
    "\r\n",
    " ",
    "\t",
    "0",
    "-0",
    "0x",
    "1e309",
    "9223372036854775808",
    "2147483648",
    "nil",
    "true",
    "false",
    "local",
    "return",
    "function",
    "end",
    "dungeon",
    "name",
    "levels",
    "branches",
    "chainlevel",
    "base",
    "range",
    "chance",
    "flags",
    "bonetag",
    "\u{0}",
    "é",
];

#[derive(Clone, Debug)]
pub(crate) enum Mutation {
    /// Replace the byte at (position mod length).
    Set(usize, u8),
    /// Remove up to `n` bytes from the position.
    Cut(usize, usize),
    /// Put a piece (index mod PIECES) in at the position.
    Insert(usize, usize),
    /// Keep only the first (position mod length) bytes.
    Truncate(usize),
}

pub(crate) fn apply(src: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut out = src.to_vec();
    for m in mutations {
        let at = |p: usize, len: usize| if len == 0 { 0 } else { p % (len + 1) };
        match *m {
            Mutation::Set(p, b) => {
                if !out.is_empty() {
                    let i = p % out.len();
                    out[i] = b;
                }
            }
            Mutation::Cut(p, n) => {
                let i = at(p, out.len());
                let end = (i + n).min(out.len());
                out.drain(i..end);
            }
            Mutation::Insert(p, k) => {
                let i = at(p, out.len());
                let piece = PIECES[k % PIECES.len()].as_bytes();
                out.splice(i..i, piece.iter().copied());
            }
            Mutation::Truncate(p) => {
                let i = at(p, out.len());
                out.truncate(i);
            }
        }
    }
    out
}

pub(crate) fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Set(p, b)),
        (any::<usize>(), 1usize..40).prop_map(|(p, n)| Mutation::Cut(p, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(p, k)| Mutation::Insert(p, k)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

#[test]
fn the_corpus_itself_holds_the_invariants() {
    for src in sources() {
        invariants(&src);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn mutated_corpus_files_never_panic_the_reader(
        file in any::<usize>(),
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let sources = sources();
        let src = &sources[file % sources.len()];
        invariants(&apply(src, &mutations));
    }
}
