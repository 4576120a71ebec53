//! The loader: a script resolved for every target's rules, two seeds, both
//! vanilla generators and the game's own, wizard mode off and on, with the
//! loader inputs (`--role`, `--race`, each game option's value, the hero's
//! facets, `--game-start`) picked from the input. Resolution must end with a layout or
//! an error (a placement that NetHack would search for a very long time is
//! cut off by the draw budget); resolving into a reused buffer, resolving
//! afresh and resolving with a trace must agree. Layouts are rendered by
//! the target's overview, the SVG view and the `--seeds` JSON writer.
//!
//! Input: `[mode, inputs, rest...]`. `inputs` picks the loader inputs.
//! Mode 0: `rest` is a compiled file (any layout). Mode 1: `rest` is
//! `[selector, source...]`, a dungeon.def or dungeon.lua checked with
//! `check_options(selector)`. Other modes: `rest` drives a script
//! generator.

#![no_main]

use dgnkit::binary::{self, crc32};
use dgnkit::frontend::analyze;
use dgnkit::games::roles::{RACES, ROLES};
use dgnkit::games::LoaderInputs;
use dgnkit::loader::chargen::{Asked, CharacterAsk};
use dgnkit::loader::{GameOption, Resolved, Resolver};
use dgnkit::options::Target;
use dgnkit::rng::RngKind;
use dgnkit::script::Script;
use dgnkit::views::overview::overview;
use dgnkit::views::svg::svg;
use dgnkit::views::{json_line, JsonLines};
use dgnkit_fuzz::Unstructured;
use libfuzzer_sys::fuzz_target;

/// Lower than the default so each input stays fast; the budget's logic is
/// the same at any size.
const BUDGET: u64 = 20_000;

fn script(mode: u8, rest: &[u8]) -> Option<Script> {
    match mode & 3 {
        0 => binary::read(rest, None).ok().map(|r| r.script),
        // Lints allowed: the layout-odds enumeration is not what this target is for.
        1 => {
            let [selector, src @ ..] = rest else {
                return None;
            };
            analyze(src, &dgnkit_fuzz::check_options(*selector, 0x20)).script
        }
        _ => dgnkit_fuzz::script(&mut Unstructured::new(rest)).ok(),
    }
}

/// The inputs one run gives `target`'s loader, from the `inputs` byte:
/// low bits 0 = the defaults; else a role and race (any family's, which a
/// game may refuse), each of the game's options at one of its values, and
/// `--game-start` flipped where the game has start-up draws.
fn inputs(target: Target, pick: u8, salt: u32) -> LoaderInputs {
    if pick & 3 == 0 {
        return LoaderInputs::default();
    }
    let game = target.game();
    let at = |n: usize, k: u32| (usize::from(pick) + k as usize + salt as usize) % n;
    LoaderInputs {
        role: (pick & 1 != 0).then(|| &ROLES[at(ROLES.len(), 0)]),
        race: (pick & 2 != 0).then(|| &RACES[at(RACES.len(), 7)]),
        options: game
            .inputs
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let v = match o.values[at(o.values.len(), i as u32 + 3)] {
                    // A seed, or a player's name with a hero's suffix.
                    GameOption::NUMBER => salt.to_string(),
                    GameOption::TEXT => NAMES[at(NAMES.len(), i as u32)].to_string(),
                    v => v.to_string(),
                };
                (o.name.to_string(), v)
            })
            .collect(),
        game_start: game
            .inputs
            .game_start
            .filter(|_| pick & 4 != 0)
            .map(|default| !default),
        wizard: false,
        // The hero, for a game whose start chooses one: each facet unset,
        // random or named (a name the game may refuse).
        character: CharacterAsk {
            role: asked(pick >> 3, "val"),
            race: asked(pick >> 4, "elf"),
            gender: asked(pick >> 5, "fem"),
            align: asked(pick >> 6, "cha"),
        },
    }
}

/// Player names whose suffixes choose facets as NetHack reads them.
const NAMES: &[&str] = &[
    "Agent",
    "Agent-@",
    "Agent-mon-hum-neu-mal",
    "x-val-dwa",
    "x-random-elf",
    "x--",
];

fn asked(bits: u8, name: &str) -> Asked {
    match bits & 3 {
        0 => Asked::Unset,
        1 => Asked::Random,
        _ => Asked::Named(name.to_string()),
    }
}

fuzz_target!(|data: &[u8]| {
    let [mode, pick, rest @ ..] = data else {
        return;
    };
    let Some(script) = script(*mode, rest) else {
        return;
    };
    let seeds = [1, u64::from(crc32(data))];
    let mut reused = Resolved::default();
    for target in Target::ALL {
        let inputs = inputs(target, *pick, crc32(rest));
        let Ok(mut resolver) = Resolver::for_game(&script, &target.game().loader_game(), &inputs)
        else {
            continue;
        };
        resolver.set_placement_budget(BUDGET);
        let mut rendered = false;
        for seed in seeds {
            // Both vanilla generators and the game's own (isaac32,
            // mt19937-cokus for UnNetHack and DynaHack).
            let mut rngs = vec![RngKind::Glibc, RngKind::Isaac64];
            if !rngs.contains(&target.game().rng) {
                rngs.push(target.game().rng);
            }
            for rng in rngs {
                for wizard in [false, true] {
                    let fresh = resolver.resolve(seed, rng, wizard, false);
                    let into = resolver.resolve_into(seed, rng, wizard, &mut reused);
                    match (&fresh, into) {
                        (Ok(layout), Ok(())) => {
                            assert_eq!(
                                &reused.to_layout(&resolver, None),
                                layout,
                                "a reused buffer resolves differently"
                            );
                        }
                        (Err(a), Err(b)) => {
                            assert_eq!(a, &b, "a reused buffer fails differently");
                            let _ = (a.code(), a.nethack_panic(), a.to_string());
                        }
                        (a, b) => panic!("fresh {a:?} but reused {b:?}"),
                    }
                    if seed == 1 && !wizard {
                        let traced = resolver.resolve(seed, rng, wizard, true);
                        match (traced, &fresh) {
                            (Ok(mut t), Ok(f)) => {
                                assert!(t.rng_calls.take().is_some());
                                assert_eq!(&t, f, "tracing changes the layout");
                            }
                            (Err(a), Err(b)) => assert_eq!(&a, b, "tracing changes the error"),
                            (a, b) => panic!("traced {a:?} but untraced {b:?}"),
                        }
                    }
                    // Once per target: rendering costs more than resolving.
                    if let (Ok(layout), false) = (&fresh, rendered) {
                        rendered = true;
                        let _ = overview(layout, target.game().overview);
                        // The `--seeds` writer (the game's extra fields,
                        // GnollHack's display names, included) gives the
                        // same line as the layout.
                        let mut line = Vec::new();
                        JsonLines::new(&resolver).write(&resolver, &reused, &mut line);
                        assert_eq!(
                            line,
                            json_line(layout).into_bytes(),
                            "the --seeds writer differs ({target:?})"
                        );
                        let _ = svg(layout, "fuzz");
                    }
                }
            }
        }
    }
});
