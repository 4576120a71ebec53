//! Compile and decompile on NetHack 3.6's dungeon description (the built-in
//! file, so the benchmark needs nothing outside the repository).
//!
//! `compile` is what `dgn compile` does between reading the file and writing
//! the output: lex, parse, checks, lowering and the NetHack 3.6 writer
//! (`analyze_verdict`: the layout-odds checks run only when denied). `dgn
//! check` also runs those (`analyze`), measured on their own.
//! `decompile` is the other direction: read and validate the compiled bytes,
//! then print dungeon.def text. The stages are measured on their own too,
//! so that a regression points at its stage.
//!
//! NetHack's `dgn_comp` takes about 2.5 ms of wall time per compile, as a
//! whole process; the aim is half of that for the whole `dgn compile`
//! process, of which the library part measured here is a fraction (see
//! `bench/README.md` for the whole-process figure).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dgnkit::binary::{self, BinaryFormat};
use dgnkit::decompile::decompile;
use dgnkit::frontend::{analyze, analyze_fast, analyze_verdict, CheckOptions};
use dgnkit::grammar::{parse, ParseOptions};
use dgnkit::options::Target;
use std::hint::black_box;
use std::time::Duration;

const VANILLA: &[u8] = include_bytes!("../../../corpus/nethack-3.6.def");

/// Source to NetHack 3.6 bytes, as `dgn compile` does it; `None` when the
/// file has errors or cannot be written (which the setup rules out).
fn compile(src: &[u8], opts: &CheckOptions) -> Option<Vec<u8>> {
    let analysis = analyze_verdict(src, opts);
    let script = analysis.script?;
    binary::write(&script, Target::NetHack36, None).ok()
}

fn benches(c: &mut Criterion) {
    let opts = CheckOptions {
        target: Target::NetHack36,
        ..CheckOptions::default()
    };
    let bytes = compile(VANILLA, &opts).expect("the built-in file compiles");
    let script = analyze_fast(VANILLA, &opts).script.expect("no errors");
    let native = binary::write(&script, Target::Native, None).expect("native writes");

    let mut g = c.benchmark_group("compile/vanilla-3.6");
    g.throughput(Throughput::Bytes(VANILLA.len() as u64));
    g.bench_function("source to nethack-3.6 bytes", |b| {
        b.iter(|| compile(black_box(VANILLA), &opts).expect("compiles"))
    });
    g.bench_function("parse", |b| {
        b.iter(|| parse(black_box(VANILLA), &ParseOptions::default()))
    });
    g.bench_function("analyze_fast (parse, checks, lowering)", |b| {
        b.iter(|| analyze_fast(black_box(VANILLA), &opts))
    });
    g.bench_function("analyze (dgn check: also the layout odds)", |b| {
        b.iter(|| analyze(black_box(VANILLA), &opts))
    });
    g.bench_function("write nethack-3.6", |b| {
        b.iter(|| binary::write(black_box(&script), Target::NetHack36, None).expect("writes"))
    });
    g.bench_function("write native", |b| {
        b.iter(|| binary::write(black_box(&script), Target::Native, None).expect("writes"))
    });
    g.finish();

    let mut g = c.benchmark_group("decompile/vanilla-3.6");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("nethack-3.6 bytes to source", |b| {
        b.iter(|| {
            let read = binary::read(black_box(&bytes), None).expect("reads");
            decompile(&read.script).expect("decompiles")
        })
    });
    g.bench_function("read nethack-3.6", |b| {
        b.iter(|| binary::read(black_box(&bytes), Some(BinaryFormat::NetHack36)).expect("reads"))
    });
    g.bench_function("check nethack-3.6 (no allocation)", |b| {
        b.iter(|| binary::check(black_box(&bytes), Some(BinaryFormat::NetHack36)).expect("valid"))
    });
    g.bench_function("read native", |b| {
        b.iter(|| binary::read(black_box(&native), Some(BinaryFormat::Native)).expect("reads"))
    });
    g.bench_function("decompile script", |b| {
        b.iter(|| decompile(black_box(&script)).expect("decompiles"))
    });
    g.finish();
}

criterion_group! {
    name = group;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(group);
