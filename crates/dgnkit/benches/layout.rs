//! Layouts per second: the loader on NetHack 3.6's dungeon (the built-in
//! description, which resolves exactly like the game's own file), without a
//! draw log, through the allocation-free path, for one seed over and over
//! and for 10,000 consecutive seeds (seed by seed, and through
//! `resolve_seeds`, which seeds four generators at a time); with both
//! generators; and the full path that builds a named `Layout`.
//!
//! NetHack's own loader manages about 50,000 layouts per second; the aim is
//! at least ten times that with ISAAC-64.
//!
//! NetHack 3.7 (`layout/nethack-3.7`): dgnkit's built-in `dungeon.lua`,
//! which resolves like the game's own, under 3.7's rules with the default
//! role's game start (the 198 object-shuffle draws and the Valkyrie's
//! before the two nhlib.lua draws and `init_dungeons()`), for one seed over
//! and over and for 10,000 consecutive seeds.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use dgnkit::frontend::{analyze_fast, analyze_fast_as, CheckOptions, SourceKind};
use dgnkit::loader::{Resolved, Resolver};
use dgnkit::options::Target;
use dgnkit::rng::{Isaac64, RngKind};
use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

fn vanilla() -> dgnkit::script::Script {
    let src = include_bytes!("../../../corpus/nethack-3.6.def");
    analyze_fast(src, &CheckOptions::default())
        .script
        .expect("the built-in file compiles")
}

fn nethack37() -> dgnkit::script::Script {
    let src = include_bytes!("../../../corpus/nethack-3.7.lua");
    let opts = CheckOptions {
        target: Target::NetHack37,
        ..CheckOptions::default()
    };
    analyze_fast_as(SourceKind::Lua, src, &opts)
        .script
        .expect("the built-in 3.7 file compiles")
}

/// One seed over and over, and 10,000 consecutive seeds one by one.
fn seeds(c: &mut Criterion, name: &str, resolver: &Resolver, rngs: &[RngKind], out: &mut Resolved) {
    let mut group = c.benchmark_group(name);
    for &rng in rngs {
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("{rng}/one seed"), |b| {
            b.iter(|| {
                resolver
                    .resolve_into(black_box(42), rng, false, out)
                    .expect("resolves")
            })
        });
    }
    group.finish();
    // Milliseconds per iteration: few samples, each timed on its own.
    let mut group = c.benchmark_group(name);
    group.sample_size(20).sampling_mode(SamplingMode::Flat);
    for &rng in rngs {
        group.throughput(Throughput::Elements(10_000));
        group.bench_function(format!("{rng}/10000 seeds"), |b| {
            b.iter(|| {
                for seed in 0..10_000u64 {
                    resolver
                        .resolve_into(black_box(seed), rng, false, out)
                        .expect("resolves");
                }
            })
        });
    }
    group.finish();
}

fn layouts(c: &mut Criterion) {
    let resolver = Resolver::new(&vanilla()).expect("vanilla resolves");
    let mut out = Resolved::default();
    seeds(
        c,
        "layout/vanilla-3.6",
        &resolver,
        &[RngKind::Isaac64, RngKind::Glibc],
        &mut out,
    );
    // The same seeds through `resolve_seeds`, which seeds ISAAC-64
    // generators four at a time: what `dgn layout --seeds` uses.
    let mut group = c.benchmark_group("layout/vanilla-3.6");
    group.sample_size(20).sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(10_000));
    for rng in [RngKind::Isaac64, RngKind::Glibc] {
        group.bench_function(format!("{rng}/10000 seeds, resolve_seeds"), |b| {
            b.iter(|| {
                let flow = resolver.resolve_seeds(0..10_000u64, rng, false, &mut out, |_, r, o| {
                    r.expect("resolves");
                    black_box(o);
                    ControlFlow::Continue(())
                });
                black_box(flow)
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("layout/vanilla-3.6");
    group.throughput(Throughput::Elements(1));
    group.bench_function("isaac64/one seed, wizard", |b| {
        b.iter(|| {
            resolver
                .resolve_into(black_box(42), RngKind::Isaac64, true, &mut out)
                .expect("resolves")
        })
    });
    group.bench_function("isaac64/one seed, named Layout", |b| {
        b.iter(|| {
            resolver
                .resolve(black_box(42), RngKind::Isaac64, false, false)
                .expect("resolves")
        })
    });
    group.bench_function("isaac64/one seed, named Layout with draw log", |b| {
        b.iter(|| {
            resolver
                .resolve(black_box(42), RngKind::Isaac64, false, true)
                .expect("resolves")
        })
    });
    group.finish();
    let resolver = Target::NetHack37
        .game()
        .resolver(&nethack37())
        .expect("3.7 resolves");
    let rng = Target::NetHack37.game().rng;
    seeds(c, "layout/nethack-3.7", &resolver, &[rng], &mut out);
    c.bench_function("rng/isaac64 reseed", |b| {
        let mut g = Isaac64::new(0);
        b.iter(|| g.reseed(black_box(7)))
    });
    c.bench_function("rng/isaac64 reseed, four side by side", |b| {
        let mut gens: Box<[Isaac64; 4]> = Box::new(std::array::from_fn(|_| Isaac64::new(0)));
        b.iter(|| Isaac64::reseed_many(&mut gens, black_box([7, 8, 9, 10])))
    });
    c.bench_function("rng/glibc srandom", |b| {
        b.iter(|| dgnkit::rng::Glibc::new(black_box(7)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = layouts
}
criterion_main!(benches);
