//! Checks from the exact layout statistics ([`crate::stats`]): how often
//! NetHack's loader fails with this file, and special levels whose bones
//! marker can never be used. They judge every layout the loader can make
//! (chance rolls, sizes, branch draws and the placement search with its
//! backtracking), not one size at a time.
//!
//! The enumeration runs with a small budget so that checking stays fast;
//! a file too large for it gets no diagnostic from here (`dgn stats`
//! estimates it by sampling instead).

use crate::check::Ctx;
use crate::loader::FailCode;
use crate::model::Bones;
use crate::options::Target;
use crate::stats::{self, Budget, Stats, StatsOptions};
use dgnkit_grammar::ast::StmtKind;
use dgnkit_grammar::{Diagnostic, Edit};

pub use dgnkit_frontend::check::odds::{BONES_MARKER_UNUSED, CODES, LOAD_FAILURE_ODDS};

/// Causes other checks report on their own (missing hard-wired dungeons,
/// Fort Ludios), and NetHack's fixed table sizes: beyond them the limit
/// checks give errors for the dialect's own limits, and a dialect with
/// larger limits comes with a loader whose tables hold them.
const REPORTED_ELSEWHERE: [FailCode; 5] = [
    FailCode::MissingDungeon,
    FailCode::KnoxNotReachable,
    FailCode::TooManyDungeons,
    FailCode::TooManyLevels,
    FailCode::TooManyBranches,
];

fn budget() -> Budget {
    Budget {
        states: 5_000,
        edges: 50_000,
        placement_nodes: 20_000,
        optional_levels: 10,
    }
}

fn pct(p: f64) -> String {
    let v = p * 100.0;
    if v < 0.01 {
        format!("{v:.2e}%")
    } else if (v - v.round()).abs() < 0.005 {
        format!("{}%", v.round())
    } else {
        format!("{v:.2}%")
    }
}

/// The checks of this module for a file whose other checks found no error
/// (the loader needs a lowered script). They cost an exhaustive enumeration
/// of the layouts, so the frontend runs them apart from the fast checks and
/// the language server off the keystroke path.
pub fn check(ctx: &Ctx, target: Target) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if ctx
        .file
        .statements
        .iter()
        .any(|s| matches!(s.kind, StmtKind::Error))
    {
        return out;
    }
    let script = crate::lower::lower(ctx.model, ctx.dialect);
    let opts = StatsOptions {
        game: target.game().loader_game(),
        bones: target.game().bones_options(),
        budget: budget(),
        ..StatsOptions::default()
    };
    let Ok(stats) = stats::exact(&script, &opts) else {
        return out;
    };
    failure_odds(ctx, &stats, &mut out);
    unused_markers(ctx, &script, &stats, &mut out);
    out
}

fn failure_odds(ctx: &Ctx, stats: &Stats, out: &mut Vec<Diagnostic>) {
    let causes: Vec<&stats::FailureStat> = stats
        .failures
        .iter()
        .filter(|f| !REPORTED_ELSEWHERE.iter().any(|c| c.code() == f.code) && f.probability > 0.0)
        .collect();
    let Some(worst) = causes
        .iter()
        .max_by(|a, b| a.probability.total_cmp(&b.probability))
    else {
        return;
    };
    let total: f64 = causes.iter().map(|f| f.probability).sum();
    let m = ctx.model;
    let dungeon = worst
        .dungeon
        .as_ref()
        .and_then(|n| m.dungeons.iter().find(|d| d.name.text() == *n));
    let level = dungeon.and_then(|d| {
        let name = worst.level.as_ref()?;
        m.levels_of(d.id).find(|l| l.name.text() == *name)
    });
    let span = match (level, dungeon) {
        (Some(l), _) => l.placement.span,
        (None, Some(d)) => d.name.span,
        (None, None) => match m.dungeons.first() {
            Some(d) => d.name.span,
            None => return,
        },
    };
    let mut diag = Diagnostic::warning(
        LOAD_FAILURE_ODDS,
        "load-failure-odds",
        span,
        format!(
            "NetHack's loader fails in {} of games with this file",
            pct(total)
        ),
    )
    .with_label(span, format!("{} here", worst.code));
    for f in &causes {
        let place = [f.dungeon.as_deref(), f.level.as_deref()]
            .iter()
            .flatten()
            .map(|x| format!("\"{x}\""))
            .collect::<Vec<_>>();
        diag = diag.with_note(format!(
            "{} ({}{}): e.g. {}",
            pct(f.probability),
            f.code,
            if place.is_empty() {
                String::new()
            } else {
                format!(" in {}", place.join(", "))
            },
            f.example
        ));
    }
    out.push(diag.with_note("exact over every chance roll, size, branch level and placement draw; `dgn stats` shows the distributions"));
}

/// Rules 2-5 that hold in every layout where the level exists.
fn always(b: &stats::BonesSummary) -> Vec<(u8, &'static str)> {
    let mut r = Vec::new();
    let all = |f: (bool, bool)| f.0 && !f.1;
    if all(b.bottom) {
        r.push((3, "always the bottom level of its dungeon"));
    }
    if all(b.branch) {
        r.push((4, "always a branch level"));
    }
    if all(b.vibrating) {
        r.push((
            5,
            "always the level above the bottom of a hellish dungeon (the vibrating square)",
        ));
    }
    r
}

fn unused_markers(
    ctx: &Ctx,
    script: &crate::script::Script,
    stats: &Stats,
    out: &mut Vec<Diagnostic>,
) {
    let m = ctx.model;
    let mut record = 0usize;
    for (d, sd) in m.dungeons.iter().zip(&script.dungeons) {
        let infos: Vec<_> = m.levels_of(d.id).collect();
        for (l, sl) in infos.iter().zip(&sd.levels) {
            let i = record;
            record += 1;
            let Some(st) = stats.levels.get(i) else {
                continue;
            };
            let Some(bones) = &l.bones else { continue };
            let Bones::Marker(marker) = bones.value else {
                continue;
            };
            if sl.name != l.name.bytes || st.exists <= 0.0 || st.bones.load_possible() {
                continue;
            }
            let mut why = always(&st.bones);
            if sd.bones == 0 {
                why.insert(0, (2, "in a dungeon whose bones marker is \"none\""));
            }
            // At the bottom by construction: vanilla's convention (Mines'
            // End, Fort Ludios), harmless and deliberate.
            let written_bottom =
                l.chain.is_none() && l.placement.base == -1 && l.placement.rand == 0;
            if why.is_empty() || (written_bottom && why.iter().all(|(r, _)| *r == 3)) {
                continue;
            }
            let text = why
                .iter()
                .map(|(r, w)| format!("{w} (rule {r})"))
                .collect::<Vec<_>>()
                .join(", and ");
            let name = l.name.text();
            let diag = Diagnostic::warning(
                BONES_MARKER_UNUSED,
                "bones-marker-unused",
                bones.span,
                format!("\"{name}\" can never hold bones, so its bones marker \"{}\" is never used", char::from(marker)),
            )
            .with_label(bones.span, "never used")
            .with_label(l.placement.span, text)
            .with_note("bones are neither left nor loaded on such a level in any layout (shared/spec/bones.md)")
            .with_fix("write \"none\"", vec![Edit { span: bones.span, replacement: "\"none\"".into() }]);
            out.push(diag);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::frontend::{analyze, CheckOptions};
    use crate::options::Target;

    fn odds(src: &str, target: Target) -> Vec<dgnkit_grammar::Diagnostic> {
        let opts = CheckOptions {
            target,
            ..CheckOptions::default()
        };
        let a = analyze(src.as_bytes(), &opts);
        assert!(!a.has_errors(), "{:?}", a.diagnostics);
        let ctx = crate::check::Ctx::new(
            src.as_bytes(),
            &a.file,
            &a.model,
            target.game().check_game(),
            opts.dialect,
        );
        super::check(&ctx, target)
    }

    #[test]
    fn the_examples_produce_their_codes() {
        for info in super::CODES {
            let d = odds(info.example, Target::Native);
            assert!(
                d.iter().any(|x| x.code == info.code),
                "{}: {d:?}",
                info.code
            );
        }
    }

    #[test]
    fn failure_odds_are_exact_and_give_an_outcome() {
        // Sizes 3, 4, 5 (1/3 each). With 3 levels, four special levels
        // cannot fit; with 4 or 5 they can (d 3, c 2, a 1, b 4).
        let d = odds(super::CODES[1].example, Target::Native);
        let w = d
            .iter()
            .find(|x| x.code == super::LOAD_FAILURE_ODDS)
            .expect("warning");
        assert_eq!(
            w.message,
            "NetHack's loader fails in 33.33% of games with this file"
        );
        assert!(w.notes[0].starts_with("33.33% (couldnt-place in \"The Dungeons of Doom\"): e.g. \"The Dungeons of Doom\" has 3 levels"), "{w:?}");
        // A base beyond the bottom for one size of two: exactly one half.
        let d = odds(
            "DUNGEON: \"Top\" \"T\" (3, 2)\nLEVEL: \"a\" \"A\" @ (4, 0)\n",
            Target::Native,
        );
        let w = d
            .iter()
            .find(|x| x.code == super::LOAD_FAILURE_ODDS)
            .expect("warning");
        assert_eq!(
            w.message,
            "NetHack's loader fails in 50% of games with this file"
        );
    }

    #[test]
    fn vanilla_is_quiet() {
        let src = include_str!("../../../corpus/nethack-3.6.def");
        assert!(odds(src, Target::NetHack36).is_empty());
    }

    #[test]
    fn a_level_always_on_a_branch_has_a_useless_marker() {
        let src = "DUNGEON: \"Top\" \"T\" (10, 0)\nLEVEL: \"hub\" \"H\" @ (4, 0)\nBRANCH: \"Side\" @ (4, 0)\n\
                   DUNGEON: \"Side\" \"S\" (3, 0)\n";
        let d = odds(src, Target::Native);
        let w = d
            .iter()
            .find(|x| x.code == super::BONES_MARKER_UNUSED)
            .expect("warning");
        assert!(
            w.labels
                .iter()
                .any(|l| l.message.contains("always a branch level (rule 4)")),
            "{w:?}"
        );
        assert!(w.fix.is_some());
    }
}
