//! Every real dungeon.def / dungeon.pdf of the shared corpus parses with no
//! syntax error: the grammar is the superset of every variant's dgn_comp.

mod common;

use dgnkit_grammar::{parse, parse_with, Grammar, ParseOptions};

#[test]
fn every_corpus_file_parses_without_errors() {
    let mut failures = Vec::new();
    for (name, src) in common::corpus_files() {
        let parsed = parse(&src, &ParseOptions::default());
        for d in &parsed.diagnostics {
            failures.push(format!("{name}: {} {} at {:?}", d.code, d.message, d.span));
        }
        assert!(!parsed.file.statements.is_empty(), "{name}: no statements");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `parse` reads well-formed files with its direct reader and any other
/// with the generated parser; on every real file and on every file of the
/// repository's `corpus/` (which has files with errors of every kind) both
/// give the same tree and diagnostics. The repository's files are also cut
/// short at every line end and two bytes before it, the real ones at every
/// tenth, which leaves statements unfinished.
#[test]
fn the_direct_reader_and_the_generated_parser_agree() {
    let mut files: Vec<(String, Vec<u8>, usize)> = common::corpus_files()
        .into_iter()
        .map(|(name, src)| (name, src, 10))
        .collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    for entry in std::fs::read_dir(&dir)
        .expect("corpus/ is readable")
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "def") {
            let src = std::fs::read(&path).expect("corpus file is readable");
            files.push((path.display().to_string(), src, 1));
        }
    }
    assert!(files.len() >= 50, "found only {} files", files.len());
    let opts = ParseOptions::default();
    let mut compared = 0;
    for (name, src, every) in &files {
        let ends = src.iter().enumerate().filter(|(_, &b)| b == b'\n');
        let cuts = ends
            .map(|(i, _)| i)
            .step_by(*every)
            .flat_map(|i| [i, i.saturating_sub(2)])
            .chain([src.len()]);
        for cut in cuts {
            let src = &src[..cut];
            let tables = parse_with(src, &opts, Grammar::Tables);
            assert_eq!(parse(src, &opts), tables, "{name} cut at byte {cut}");
            compared += 1;
        }
    }
    assert!(compared > 1000, "compared only {compared} inputs");
}

/// The statement counts of STATS.tsv (dungeons, levels, branches, ENTRY
/// lines, SLASH'EM trailing entry integers) match the tree of every file.
#[test]
fn statement_counts_match_corpus_stats() {
    use dgnkit_grammar::ast::StmtKind;
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let stats =
        std::fs::read_to_string(shared.join("corpus/STATS.tsv")).expect("STATS.tsv is readable");
    let mut lines = stats.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let (c_file, c_d, c_l, c_b, c_e, c_t) = (
        col("file"),
        col("dungeons"),
        col("levels"),
        col("branches"),
        col("ENTRY_lines"),
        col("branch_trailing_entry_ints"),
    );
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        let src =
            std::fs::read(shared.join("corpus").join(f[c_file])).expect("corpus file is readable");
        let file = parse(&src, &ParseOptions::default()).file;
        let count = |p: &dyn Fn(&StmtKind) -> bool| {
            file.statements
                .iter()
                .filter(|s| p(&s.kind))
                .count()
                .to_string()
        };
        let got = [
            count(&|k| matches!(k, StmtKind::Dungeon(_))),
            count(&|k| matches!(k, StmtKind::Level(_))),
            count(&|k| matches!(k, StmtKind::Branch(_))),
            count(&|k| matches!(k, StmtKind::Entry(_))),
            count(&|k| matches!(k, StmtKind::Branch(b) if b.entry.is_some())),
        ];
        let want = [f[c_d], f[c_l], f[c_b], f[c_e], f[c_t]];
        if got.iter().map(String::as_str).ne(want) {
            mismatches.push(format!(
                "{}: got {got:?}, STATS.tsv says {want:?}",
                f[c_file]
            ));
        }
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} rows");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
