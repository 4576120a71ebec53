//! The built-in dungeon (`corpus/nethack-3.6.def`, our own description of
//! NetHack 3.6's) lays out exactly like NetHack 3.6's own `dungeon.def`
//! (`../shared/corpus/NetHack__NetHack/dungeon.def`): both are compiled in
//! memory and resolved for many seeds, both generators, both modes and both
//! loader versions; the layouts (draw logs included) must be equal.

use dgnkit::frontend::{analyze, CheckOptions};
use dgnkit::loader::{Resolver, Rules};
use dgnkit::rng::RngKind;
use dgnkit::script::Script;
use dgnkit_cli::layout::DEFAULT_DEF;

fn compile(src: &[u8], what: &str) -> Script {
    let analysis = analyze(src, &CheckOptions::default());
    assert!(!analysis.has_errors(), "{what}: {:?}", analysis.diagnostics);
    analysis
        .script
        .unwrap_or_else(|| panic!("{what}: no script"))
}

#[test]
fn the_built_in_file_checks_without_diagnostics() {
    let analysis = analyze(DEFAULT_DEF, &CheckOptions::default());
    assert!(
        analysis.diagnostics.is_empty(),
        "{:?}",
        analysis.diagnostics
    );
}

#[test]
fn the_built_in_file_resolves_like_nethack_36s_own() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let theirs = std::fs::read(shared.join("corpus/NetHack__NetHack/dungeon.def")).unwrap();
    let (ours, theirs) = (
        compile(DEFAULT_DEF, "built-in"),
        compile(&theirs, "NetHack 3.6"),
    );
    for rules in [Rules::nethack_36(), Rules::nethack_343()] {
        let a = Resolver::with_rules(&ours, rules.clone()).unwrap();
        let b = Resolver::with_rules(&theirs, rules).unwrap();
        for rng in RngKind::ALL {
            for wizard in [false, true] {
                for seed in (0..1000).chain([u32::MAX as u64, u64::MAX]) {
                    let x = a.resolve(seed, rng, wizard, true);
                    let y = b.resolve(seed, rng, wizard, true);
                    assert_eq!(x, y, "seed {seed}, {rng}, wizard {wizard}");
                }
            }
        }
    }
}
