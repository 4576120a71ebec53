//! Exact layout statistics on NetHack 3.6's dungeon description (the
//! built-in file), for both loaders, and the bones verdicts they feed.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use dgnkit::frontend::{analyze_fast, CheckOptions};
use dgnkit::options::Target;
use dgnkit::stats::{self, StatsOptions};
use std::hint::black_box;
use std::time::Duration;

fn vanilla() -> dgnkit::script::Script {
    let src = include_bytes!("../../../corpus/nethack-3.6.def");
    analyze_fast(src, &CheckOptions::default())
        .script
        .expect("the built-in file compiles")
}

fn exact(c: &mut Criterion) {
    let script = vanilla();
    // Milliseconds per iteration: few samples, each timed on its own.
    let mut g = c.benchmark_group("stats/vanilla-3.6");
    g.sample_size(20).sampling_mode(SamplingMode::Flat);
    for target in [Target::NetHack36, Target::NetHack343] {
        let opts = StatsOptions {
            game: target.game().loader_game(),
            ..StatsOptions::default()
        };
        g.bench_function(format!("exact, {} loader", target.name()), |b| {
            b.iter(|| stats::exact(black_box(&script), &opts).expect("vanilla enumerates"))
        });
    }
    let opts = StatsOptions::default();
    g.bench_function("static bones verdicts", |b| {
        b.iter(|| dgnkit::bones::static_verdicts(black_box(&script), &opts))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = exact
}
criterion_main!(benches);
