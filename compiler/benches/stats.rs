//! Exact layout statistics on NetHack 3.6's dungeon description (the
//! built-in file), for both loaders, and the bones verdicts they feed.

use criterion::{criterion_group, criterion_main, Criterion};
use dgnkit::frontend::{analyze, CheckOptions};
use dgnkit::options::Target;
use dgnkit::stats::{self, StatsOptions};
use std::hint::black_box;

fn vanilla() -> dgnkit::script::Script {
    let src = include_bytes!("../../corpus/nethack-3.6.def");
    analyze(src, &CheckOptions::default())
        .script
        .expect("the built-in file compiles")
}

fn exact(c: &mut Criterion) {
    let script = vanilla();
    for target in [Target::NetHack36, Target::NetHack343] {
        let opts = StatsOptions {
            target,
            ..StatsOptions::default()
        };
        c.bench_function(
            &format!("exact stats, vanilla 3.6, {} loader", target.name()),
            |b| b.iter(|| stats::exact(black_box(&script), &opts).expect("vanilla enumerates")),
        );
    }
    let opts = StatsOptions::default();
    c.bench_function("static bones verdicts, vanilla 3.6", |b| {
        b.iter(|| dgnkit::bones::static_verdicts(black_box(&script), &opts))
    });
}

criterion_group!(benches, exact);
criterion_main!(benches);
