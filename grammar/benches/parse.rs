//! Parse, lex and format throughput: the language server reparses on every
//! keystroke, so a whole file must take well under a millisecond, and time
//! must grow linearly with the input.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dgnkit_grammar::{format::format, lexer::lex, parse, ParseOptions};
use std::hint::black_box;
use std::path::PathBuf;

/// The largest corpus file (SLASH'EM Extended), when the shared folder is there.
fn largest_corpus_file() -> Option<Vec<u8>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/SLASHEM-Extended__SLASHEM-Extended@HEAD/dungeon.def");
    std::fs::read(path).ok()
}

fn synthetic(lines: usize, broken: bool) -> Vec<u8> {
    let line = if broken {
        "LEVEL: \"oracle\" \"O\" @ (5 5) ; x\n"
    } else {
        "LEVEL:\t\t\"oracle\" \"O\" @ (5, 5) 50 # c\n"
    };
    line.repeat(lines).into_bytes()
}

fn benches(c: &mut Criterion) {
    let opts = ParseOptions::default();
    if let Some(src) = largest_corpus_file() {
        let mut g = c.benchmark_group("slashem_extended");
        g.throughput(Throughput::Bytes(src.len() as u64));
        g.bench_function("lex", |b| b.iter(|| lex(black_box(&src))));
        g.bench_function("parse", |b| b.iter(|| parse(black_box(&src), &opts)));
        g.bench_function("format", |b| b.iter(|| format(black_box(&src), &opts)));
        g.finish();
    } else {
        eprintln!("skipping the corpus benchmark: ../shared/corpus is absent");
    }

    // Linear growth: per-byte time should stay flat across sizes, for valid
    // and for broken input (error recovery on every line).
    let mut g = c.benchmark_group("scaling");
    for lines in [1_000, 10_000, 100_000] {
        for broken in [false, true] {
            let src = synthetic(lines, broken);
            g.throughput(Throughput::Bytes(src.len() as u64));
            let name = if broken { "broken" } else { "valid" };
            g.bench_with_input(BenchmarkId::new(name, lines), &src, |b, src| {
                b.iter(|| parse(black_box(src), &opts))
            });
        }
    }
    g.finish();
}

criterion_group!(parse_benches, benches);
criterion_main!(parse_benches);
