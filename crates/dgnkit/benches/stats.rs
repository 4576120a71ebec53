//! Exact layout statistics on NetHack 3.6's dungeon description (the
//! built-in file), for both loaders, and the bones verdicts they feed; the
//! same given what a player has seen (`dgn stats --given`, whose target
//! is within 3x of the plain statistics); each variant family's largest
//! built-in description in its own game (`stats/families`); and each
//! family's costliest file of `../shared/corpus`, when it is there
//! (`stats/shared-corpus`, issue #26's files).

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
    // `--given`: the evidence of the README's example, and a deep game's
    // overview (fifteen facts), as `dgn stats` translates them.
    let res = dgnkit::loader::Resolver::with_rules(&script, Target::NetHack36.game().rules.clone())
        .expect("the built-in file resolves");
    for (name, query) in [
        (
            "given 3 facts",
            r#"oracle.depth == 7 and branch("Sokoban").depth == 8 and branch("The Gnomish Mines").depth == 3"#,
        ),
        (
            "given an overview",
            r#"dungeon("The Dungeons of Doom").levels >= 28 and branch("The Gnomish Mines").depth == 3 and oracle.depth == 7 and branch("Sokoban").depth == 8 and bigrm.depth == 11 and branch("The Quest").depth == 13 and rogue.depth == 17 and castle.depth == 28 and dungeon("Gehennom").depth_start == 29 and dungeon("Gehennom").levels >= 22 and valley.depth == 29 and branch("Vlad's Tower").depth == 40 and dungeon("The Gnomish Mines").depth_start == 4 and dungeon("The Quest").levels >= 5"#,
        ),
    ] {
        let q = dgnkit::find::compile(query, &res).expect("the query compiles");
        let evidence = dgnkit::find::given::evidence(&q, &res).expect("exact evidence");
        let opts = StatsOptions {
            given: Some(stats::Given {
                evidence: Some(evidence),
                predicate: None,
                describe: query.into(),
            }),
            ..StatsOptions::default()
        };
        g.bench_function(format!("exact, {name}"), |b| {
            b.iter(|| stats::exact(black_box(&script), &opts).expect("vanilla enumerates"))
        });
    }
    let opts = StatsOptions::default();
    g.bench_function("static bones verdicts", |b| {
        b.iter(|| dgnkit::bones::static_verdicts(black_box(&script), &opts))
    });
    g.finish();
}

/// Each family's largest built-in description (`corpus/`), exact in its
/// own game: the files whose size the enumeration has to factor.
fn families(c: &mut Criterion) {
    let mut g = c.benchmark_group("stats/families");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    let files: [(&str, &[u8], Target); 7] = [
        (
            "dnethack-3.23",
            include_bytes!("../../../corpus/dnethack-3.23.def"),
            Target::DNetHack,
        ),
        (
            "unnethack-5",
            include_bytes!("../../../corpus/unnethack-5.def"),
            Target::UnNetHack,
        ),
        (
            "slashem-0.0.8",
            include_bytes!("../../../corpus/slashem-0.0.8.def"),
            Target::SlashEm,
        ),
        (
            "evilhack-0.9",
            include_bytes!("../../../corpus/evilhack-0.9.def"),
            Target::EvilHack,
        ),
        (
            "gnollhack-4",
            include_bytes!("../../../corpus/gnollhack-4.def"),
            Target::GnollHack,
        ),
        (
            "dynahack-0.0.1",
            include_bytes!("../../../corpus/dynahack-0.0.1.def"),
            Target::DynaHack,
        ),
        (
            "xnethack-9.1",
            include_bytes!("../../../corpus/xnethack-9.1.lua"),
            Target::XNetHack,
        ),
    ];
    for (name, src, target) in files {
        assert!(
            in_its_game(&mut g, name, src, target),
            "the built-in file compiles"
        );
    }
    g.finish();
}

/// Benchmarks `src`'s exact statistics in `target`'s game; false when it
/// does not compile there.
fn in_its_game(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    src: &[u8],
    target: Target,
) -> bool {
    let opts = CheckOptions {
        target,
        dialect: target.game().dialect,
        ..CheckOptions::default()
    };
    let Some(script) = analyze_fast(src, &opts).script else {
        return false;
    };
    let opts = StatsOptions {
        game: target.game().loader_game(),
        bones: target.game().bones_options(),
        ..StatsOptions::default()
    };
    g.bench_function(name, |b| {
        b.iter(|| stats::exact(black_box(&script), &opts).expect("the file enumerates"))
    });
    true
}

/// Per game, its costliest file of `../shared/corpus` (the most loader
/// states; UnNetHack's, the one whose Gehennom took the most placement
/// search), exact in its own game: issue #26's files, skipped with a
/// message where `../shared` is absent.
fn shared_corpus(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !root.is_dir() {
        eprintln!("stats/shared-corpus skipped: {} is absent", root.display());
        return;
    }
    let files = [
        (
            "SlashDNH",
            "nethack-cleaner__SlashDNH/dungeon.def",
            Target::DNetHack,
        ),
        (
            "notdNetHack",
            "k21971__notdNetHack/dungeon.def",
            Target::DNetHack,
        ),
        (
            "dNAO@HEAD",
            "Chris-plus-alphanumericgibberish__dNAO@HEAD/dungeon.def",
            Target::DNetHack,
        ),
        (
            "UnNetHack (MaddTheSane)",
            "MaddTheSane__UnNetHack/dungeon.def",
            Target::UnNetHack,
        ),
        (
            "SLASH'EM (mistydemeo)",
            "mistydemeo__slashem/dungeon.def",
            Target::SlashEm,
        ),
        (
            "EvilHack@HEAD",
            "k21971__EvilHack@HEAD/dungeon.def",
            Target::EvilHack,
        ),
        (
            "GnollHack",
            "k21971__GnollHack/dungeon.def",
            Target::GnollHack,
        ),
        (
            "DynaHack",
            "DynaMoHack__DynaHack/dungeon.def",
            Target::DynaHack,
        ),
        ("TNNT 3.6", "entrez__tnnt/dungeon.def", Target::NetHack36),
    ];
    let mut g = c.benchmark_group("stats/shared-corpus");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    for (name, file, target) in files {
        let Ok(src) = std::fs::read(root.join(file)) else {
            eprintln!("stats/shared-corpus/{name} skipped: {file} is absent");
            continue;
        };
        if !in_its_game(&mut g, name, &src, target) {
            eprintln!("stats/shared-corpus/{name} skipped: {file} does not compile");
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = exact, families, shared_corpus
}
criterion_main!(benches);
