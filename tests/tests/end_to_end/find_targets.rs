//! `dgn find` on every game whose loader dgnkit reproduces, through the
//! generic Resolver: queries made from each file's own level and dungeon
//! names give the same verdict whether each seed's resolution stops as
//! soon as the answer is known or runs to the end (seeds whose full
//! resolution fails are left out: they match nothing, and the search
//! stops early only where the statistics show the loader cannot fail).

use dgnkit::bones::BonesOptions;
use dgnkit::find::{self, Finder};
use dgnkit::frontend::{analyze_fast, CheckOptions};
use dgnkit::games::LoaderInputs;
use dgnkit::loader::{Resolved, Resolver};
use dgnkit::options::Target;
use std::ops::ControlFlow;
use std::path::PathBuf;

fn sources() -> Vec<(Target, PathBuf)> {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut v = vec![
        (Target::NetHack343, here.join("nethack-3.4.3.def")),
        (Target::NetHack36, here.join("nethack-3.6.def")),
    ];
    match dgnkit_tests::shared_dir() {
        Some(shared) => {
            let c = shared.join("corpus");
            v.push((Target::UnNetHack, c.join("k21971__UnNetHack/dungeon.def")));
            v.push((Target::DynaHack, c.join("DynaMoHack__DynaHack/dungeon.def")));
            v.push((
                Target::NetHack37,
                c.join("NetHack__NetHack@3.7/dungeon.lua"),
            ));
        }
        None => eprintln!("../shared is absent: only the built-in 3.4.3 and 3.6 files"),
    }
    v
}

/// A small deterministic generator for the queries.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn atom(r: &mut Lcg, levels: &[String], dungeons: &[String]) -> String {
    let l = &levels[r.below(levels.len())];
    let d = &dungeons[r.below(dungeons.len())];
    let d2 = &dungeons[1 + r.below(dungeons.len() - 1)];
    let op = ["==", "!=", "<", "<=", ">", ">="][r.below(6)];
    let n = r.below(50) as i64 - 5;
    match r.below(9) {
        0 => format!("\"{l}\""),
        1 => format!("\"{l}\".level {op} {}", n / 2),
        2 => format!("\"{l}\".depth {op} {n}"),
        3 => format!("\"{l}\".dungeon == {}", r.below(dungeons.len())),
        4 => format!("dungeon(\"{d}\").exists"),
        5 => format!(
            "dungeon(\"{d}\").{} {op} {n}",
            ["levels", "depth_start", "entry_depth"][r.below(3)]
        ),
        6 => format!(
            "branch(\"{d2}\").{} in {}..={}",
            ["level", "depth"][r.below(2)],
            n / 2,
            n / 2 + 3
        ),
        7 => format!("bones({})", r.below(30) + 1),
        _ => format!("bones(\"{l}\")"),
    }
}

fn query(r: &mut Lcg, levels: &[String], dungeons: &[String], depth: u32) -> String {
    if depth == 0 || r.below(3) == 0 {
        return atom(r, levels, dungeons);
    }
    let a = query(r, levels, dungeons, depth - 1);
    let b = query(r, levels, dungeons, depth - 1);
    match r.below(3) {
        0 => format!("({a} and {b})"),
        1 => format!("({a} or not {b})"),
        _ => format!("not ({a} and not {b})"),
    }
}

#[test]
fn stopping_early_changes_no_verdict_in_any_game() {
    let mut r = Lcg(17);
    for (target, path) in sources() {
        let bytes = std::fs::read(&path).unwrap();
        let opts = CheckOptions {
            target,
            dialect: target.game().dialect,
            ..CheckOptions::default()
        };
        let script = analyze_fast(&bytes, &opts).script.expect("the file checks");
        let res = Resolver::for_game(
            &script,
            &target.game().loader_game(),
            &LoaderInputs::default(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", target.name()));
        let text = |b: &[u8]| String::from_utf8_lossy(b).replace('"', "\\\"");
        let levels: Vec<String> = script
            .dungeons
            .iter()
            .flat_map(|d| d.levels.iter().map(|l| text(&l.name)))
            .collect();
        let dungeons: Vec<String> = script.dungeons.iter().map(|d| text(&d.name)).collect();
        let rng = target.game().rng;
        let bones = BonesOptions::default();
        let mut decided = 0;
        for _ in 0..40 {
            let q = query(&mut r, &levels, &dungeons, 3);
            let Ok(compiled) = find::compile(&q, &res) else {
                // A branch into a dungeon no branch reaches, in some files.
                continue;
            };
            for wizard in [false, true] {
                let early = Finder::new(&res, &compiled, &bones, rng, wizard, true);
                let full = Finder::new(&res, &compiled, &bones, rng, wizard, false);
                let mut out = Resolved::default();
                let mut verdicts = Vec::new();
                let _ = full.scan(0..400, &mut out, |s, v| {
                    verdicts.push((s, v.ok()));
                    ControlFlow::Continue(())
                });
                let mut i = 0;
                let _ = early.scan(0..400, &mut out, |s, v| {
                    if let (Some(want), Ok(got)) = (verdicts[i].1, &v) {
                        assert_eq!(
                            *got,
                            want,
                            "{}: {q}, seed {s}, wizard {wizard}",
                            target.name()
                        );
                        decided += 1;
                    }
                    i += 1;
                    ControlFlow::Continue(())
                });
            }
        }
        assert!(
            decided > 10_000,
            "{}: {decided} verdicts compared",
            target.name()
        );
    }
}
