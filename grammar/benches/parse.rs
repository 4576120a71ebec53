//! Parse, lex and format throughput: the language server reparses on every
//! keystroke, so a whole file must take well under a millisecond, and time
//! must grow linearly with the input.

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use dgnkit_grammar::{format::format, lexer::lex, parse, ParseOptions};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

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
    // NetHack 3.6's dungeon (our description of it, in the repository).
    let vanilla: &[u8] = include_bytes!("../../corpus/nethack-3.6.def");
    let mut g = c.benchmark_group("vanilla-3.6");
    g.throughput(Throughput::Bytes(vanilla.len() as u64));
    g.bench_function("lex", |b| b.iter(|| lex(black_box(vanilla))));
    g.bench_function("parse", |b| b.iter(|| parse(black_box(vanilla), &opts)));
    g.bench_function("format", |b| b.iter(|| format(black_box(vanilla), &opts)));
    g.finish();

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
    // Up to tens of milliseconds per iteration: few samples, each timed on
    // its own.
    let mut g = c.benchmark_group("scaling");
    g.sample_size(20).sampling_mode(SamplingMode::Flat);
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

criterion_group! {
    name = parse_benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(parse_benches);
