//! Seeds searched per second by `dgn find` on one core: NetHack 3.6's
//! dungeon (the built-in description), the issue's example query, 100,000
//! consecutive seeds through `Finder::search` on one thread (each seed
//! resolved until its answer is known, ISAAC-64 generators seeded four at
//! a time); the same with glibc (NetHack 3.4.3's loader), and with the
//! early stop turned off, for comparison.
//!
//! The target is 1.3 million seeds a second on one core with ISAAC-64.
//!
//! Beside it, side by side in one run, the seeds people hold (issue #41):
//! NetHack 3.6's game start (`--game-start`: the hero, `o_init`'s 195
//! draws, `role_init`) and NLE's (`--target nle`, with and without its
//! level generator), which should stay within 1.5x of the plain loader.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use dgnkit::bones::BonesOptions;
use dgnkit::find::{self, Finder};
use dgnkit::frontend::{analyze_fast, CheckOptions};
use dgnkit::games::LoaderInputs;
use dgnkit::loader::Resolver;
use dgnkit::options::Target;
use dgnkit::rng::RngKind;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

const QUERY: &str = r#"bigrm and oracle.depth == 5 and branch("The Gnomish Mines").depth <= 3"#;
const SEEDS: u64 = 100_000;

fn searches(c: &mut Criterion) {
    let src = include_bytes!("../../../corpus/nethack-3.6.def");
    let script = analyze_fast(src, &CheckOptions::default())
        .script
        .expect("the built-in file compiles");
    let bones = BonesOptions::default();
    let mut group = c.benchmark_group("find/vanilla-3.6");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .throughput(Throughput::Elements(SEEDS));
    let plain = |target: Target| {
        Resolver::with_rules(&script, target.game().rules.clone()).expect("resolves")
    };
    let start = |target: Target, role: Option<&str>, options: &[&str]| {
        let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        let inputs = LoaderInputs::parse(role, None, &options, true, false).expect("inputs");
        Resolver::for_game(&script, &target.game().loader_game(), &inputs).expect("resolves")
    };
    for (res, rng, early, name) in [
        (
            plain(Target::NetHack36),
            RngKind::Isaac64,
            true,
            "isaac64/example query",
        ),
        (
            plain(Target::NetHack36),
            RngKind::Isaac64,
            false,
            "isaac64/example query, every seed resolved fully",
        ),
        (
            plain(Target::NetHack343),
            RngKind::Glibc,
            true,
            "glibc/example query",
        ),
        (
            start(Target::NetHack36, Some("Valkyrie"), &[]),
            RngKind::Isaac64,
            true,
            "isaac64/game start, a Valkyrie of random race, gender and alignment",
        ),
        (
            start(Target::Nle, None, &[]),
            RngKind::Isaac64,
            true,
            "isaac64/nle, its default hero",
        ),
        (
            start(Target::Nle, Some("random"), &[]),
            RngKind::Isaac64,
            true,
            "isaac64/nle, a random hero",
        ),
        (
            start(Target::Nle, Some("random"), &["lgen=42"]),
            RngKind::Isaac64,
            true,
            "isaac64/nle, a random hero, lgen",
        ),
    ] {
        let query = find::compile(QUERY, &res).expect("the query checks");
        let finder = Finder::new(&res, &query, &bones, rng, false, early);
        group.bench_function(format!("{name}, {SEEDS} seeds, one thread"), |b| {
            b.iter(|| {
                let mut n = 0;
                let _ = finder.search(0..SEEDS, 1, &AtomicBool::new(false), |c| {
                    n += c.matches.len();
                    ControlFlow::Continue(())
                });
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
