//! The passes beside the enumeration and its stop: the same statistics
//! on one thread or two, and a stop that ends the work.

use super::rules::{dnethack_rules, mini_alternates, mini_quest};
use super::runs::mini_run;
use super::*;

/// The passes that follow the enumeration on a second thread
/// (`crate::follow`), and the placements searched ahead two at a time
/// (`Engine::prefetch_placements`), give, bit for bit, what they give on
/// the enumeration's own thread when no second one is at hand (with
/// evidence, too), and count the same work.
#[test]
fn the_passes_beside_the_enumeration_give_what_one_thread_does() {
    let bones = dgnkit::options::Target::DNetHack.game().bones_options();
    let rules = dnethack_rules(dgnkit_loader::GameInputs::default());
    for script in [mini_quest(), mini_alternates(), mini_run((2, 3))] {
        let res = Resolver::with_rules(&script, rules.clone()).expect("resolver");
        let run = |alone: bool| {
            std::thread::scope(|s| {
                s.spawn(|| {
                    if alone {
                        crate::halves::alone();
                    }
                    engine::Engine::new(&res, false, Budget::default())
                        .with_bones(&bones)
                        .run()
                        .expect("enumerable")
                })
                .join()
                .expect("no panic")
            })
        };
        let (beside, here) = (run(false), run(true));
        assert_eq!(beside.placement_nodes, here.placement_nodes);
        assert_eq!(
            format!("{:?}", beside.placements),
            format!("{:?}", here.placements)
        );
        assert!(beside.core.iter().any(|m| *m != Default::default()));
        assert_eq!(beside.core, here.core);
        assert_eq!(beside.alpha, here.alpha);
        let succ = |r: &engine::Enumeration| -> Vec<Vec<u64>> {
            r.back
                .iter()
                .zip(&r.layers)
                .map(|(b, l)| {
                    (0..l.states.len())
                        .map(|t| b.at(t).succ.v.to_bits())
                        .collect()
                })
                .collect()
        };
        assert_eq!(succ(&beside), succ(&here));
        let stats = |r: &engine::Enumeration| {
            let acc = exact::accumulate(&res, r, &bones, true);
            format!("{:?}", acc.finish(&res, exact_method(r)))
        };
        assert_eq!(stats(&beside), stats(&here));
    }
}

/// The layers judged on two other threads, each into an `Acc` of its
/// own (`exact::accumulate`), give, bit for bit, the statistics of one
/// thread judging them all: on dNetHack 3.23, whose layers are many and
/// large enough to be judged apart, with and without the places table.
#[test]
fn the_layers_judged_apart_give_what_one_thread_does() {
    let target = dgnkit::options::Target::DNetHack;
    let check = dgnkit::frontend::CheckOptions {
        target,
        dialect: target.game().dialect,
        ..Default::default()
    };
    let script = dgnkit::frontend::analyze_fast(
        include_bytes!("../../../../corpus/dnethack-3.23.def"),
        &check,
    )
    .script
    .expect("the built-in file compiles");
    let opts = StatsOptions {
        game: target.game().loader_game(),
        bones: target.game().bones_options(),
        ..StatsOptions::default()
    };
    let res = Resolver::for_game(&script, &opts.game, &opts.inputs).expect("resolves");
    let run = engine::Engine::new(&res, false, Budget::default())
        .with_bones(&opts.bones)
        .run()
        .expect("enumerable");
    let edges: usize = run.layers.iter().map(|l| l.edges.len()).sum();
    assert!(
        edges >= exact::PIPELINE_AT,
        "{edges} outcomes judge on one thread"
    );
    for places in [false, true] {
        let judged = |alone: bool| {
            std::thread::scope(|s| {
                s.spawn(|| {
                    if alone {
                        crate::halves::alone();
                    }
                    let acc = exact::accumulate(&res, &run, &opts.bones, places);
                    format!("{acc:?}")
                })
                .join()
                .expect("no panic")
            })
        };
        assert_eq!(judged(false), judged(true), "places: {places}");
    }
}

/// A set [`Stop`] ends both the enumeration and the sampling, and the
/// method says the statistics were stopped; an unset one changes nothing.
#[test]
fn a_stop_ends_the_enumeration_and_the_sampling() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let script = mini();
    let flag = Arc::new(AtomicBool::new(false));
    let opts = StatsOptions {
        stop: crate::Stop::on(flag.clone()),
        ..StatsOptions::default()
    };
    let plain = crate::exact(&script, &StatsOptions::default()).expect("exact");
    assert_eq!(crate::exact(&script, &opts).expect("exact"), plain);
    flag.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(
        crate::exact(&script, &opts).map(|_| ()).unwrap_err().what,
        crate::STOPPED
    );
    for approach in [Approach::Auto, Approach::Sampled] {
        let stats = crate::compute(
            &script,
            &StatsOptions {
                approach,
                ..opts.clone()
            },
        );
        match stats.method {
            Method::Sampled {
                samples, reason, ..
            } => assert_eq!((samples, reason.as_str()), (0, crate::STOPPED)),
            m => panic!("{m:?}"),
        }
    }
}
