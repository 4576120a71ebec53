//! The whole analysis of a file for a game: the front end's
//! ([`dgnkit_frontend`]: syntax, model, every check that needs neither the
//! loader nor the statistics, lowering) plus the checks from the exact
//! layout statistics ([`crate::odds`]). Every command and the language
//! server go through [`analyze`] or one of its faster forms.

pub use dgnkit_frontend::{article, sort, Analysis, CheckGame, SourceKind};

use crate::check;
use crate::dialect::Dialect;
use crate::grammar::{ast, Diagnostic, ParseOptions};
use crate::lint::{Level, LintLevels};
use crate::model::Model;
use crate::options::Target;

/// How to read and check a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// What the output is for; decides the limits (none for `native`).
    pub target: Target,
    /// Which variant's language the file is in.
    pub dialect: Dialect,
    /// `%FLAG` options defined (`-D`).
    pub defines: Vec<String>,
    /// `%FLAG` options undefined (`-U`).
    pub undefines: Vec<String>,
    pub lints: LintLevels,
}

impl CheckOptions {
    /// The front end's options: the target's game as the checks know it.
    pub fn lowered(&self) -> dgnkit_frontend::CheckOptions {
        dgnkit_frontend::CheckOptions {
            game: self.target.game().check_game(),
            dialect: self.dialect,
            defines: self.defines.clone(),
            undefines: self.undefines.clone(),
            lints: self.lints.clone(),
        }
    }
}

/// Parses, resolves and checks `src` (raw bytes, any encoding): every
/// check, including the layout odds. Never panics; the script is produced
/// only for a file without errors.
pub fn analyze(src: &[u8], opts: &CheckOptions) -> Analysis {
    analyze_as(SourceKind::sniff(src), src, opts)
}

/// [`analyze`] for a file whose language is known (from its name:
/// [`SourceKind::of_file`]).
pub fn analyze_as(kind: SourceKind, src: &[u8], opts: &CheckOptions) -> Analysis {
    let mut analysis = analyze_fast_as(kind, src, opts);
    let odds = layout_odds(src, &analysis, opts);
    if !odds.is_empty() {
        analysis.diagnostics.extend(odds);
        sort(&mut analysis.diagnostics);
        // `--deny load-failure-odds` makes them errors: no script then.
        if analysis.has_errors() {
            analysis.script = None;
        }
    }
    analysis
}

/// The `%FLAG` options: as given, with the flags the target's default
/// build leaves undefined ([`crate::games::Game::undefined_flags`])
/// undefined unless `-D` names them.
pub fn parse_options(opts: &CheckOptions) -> ParseOptions {
    dgnkit_frontend::parse_options(&opts.lowered())
}

/// Every check but the layout odds ([`layout_odds`]), which enumerate
/// every layout the loader can make: what an editor needs on every
/// keystroke.
pub fn analyze_fast(src: &[u8], opts: &CheckOptions) -> Analysis {
    dgnkit_frontend::analyze_fast(src, &opts.lowered())
}

/// [`analyze_fast`] for a file whose language is known.
pub fn analyze_fast_as(kind: SourceKind, src: &[u8], opts: &CheckOptions) -> Analysis {
    dgnkit_frontend::analyze_fast_as(kind, src, &opts.lowered())
}

/// The errors of [`analyze_verdict`] and its script, for a caller that
/// reports nothing but errors (the drop-in `dgn_comp`): the checks that
/// only ever warn (`check::run_errors`) and the dialect note are not run,
/// so the diagnostics lack some warnings and notes. When a lint is denied
/// (a warning can then be an error) or the file is a `dungeon.lua`, this is
/// [`analyze_verdict`].
pub fn analyze_errors(src: &[u8], opts: &CheckOptions) -> Analysis {
    let kind = SourceKind::sniff(src);
    if !opts.lints.deny.is_empty() || kind == SourceKind::Lua {
        return analyze_verdict_as(kind, src, opts);
    }
    dgnkit_frontend::analyze_def(src, &opts.lowered(), false)
}

/// [`analyze_fast`], plus the layout odds only when their lints are denied
/// (then they can fail the file, so the verdict needs them). For commands
/// that want the script and its errors rather than every warning: compile,
/// `dgn_comp`, layout and stats. The odds enumerate every layout the loader
/// can make, some twenty times the rest of a compile of the vanilla file;
/// `dgn check` reports them.
pub fn analyze_verdict(src: &[u8], opts: &CheckOptions) -> Analysis {
    analyze_verdict_as(SourceKind::sniff(src), src, opts)
}

/// [`analyze_verdict`] for a file whose language is known.
pub fn analyze_verdict_as(kind: SourceKind, src: &[u8], opts: &CheckOptions) -> Analysis {
    if odds_denied(&opts.lints) {
        analyze_as(kind, src, opts)
    } else {
        analyze_fast_as(kind, src, opts)
    }
}

/// The levels of the layout-odds checks' lints.
fn odds_levels(lints: &LintLevels) -> impl Iterator<Item = Level> + '_ {
    check::odds::CODES
        .iter()
        .filter_map(|c| c.lint)
        .map(|l| lints.level(l))
}

fn odds_denied(lints: &LintLevels) -> bool {
    odds_levels(lints).any(|l| l == Level::Deny)
}

/// The diagnostics from the exact layout statistics (load-failure odds,
/// bones markers that can never be used) for a fast analysis of the same
/// `src` and options, lint levels applied. Empty when the file has errors,
/// and without computing anything when both lints are allowed.
pub fn layout_odds(src: &[u8], fast: &Analysis, opts: &CheckOptions) -> Vec<Diagnostic> {
    if fast.has_errors() || odds_levels(&opts.lints).all(|l| l == Level::Allow) {
        return Vec::new();
    }
    let ctx = check::Ctx::new(
        src,
        &fast.file,
        &fast.model,
        opts.target.game().check_game(),
        opts.dialect,
    );
    opts.lints.apply(crate::odds::check(&ctx, opts.target))
}

/// The model and the checks' diagnostics for an already parsed tree.
pub fn check_tree(
    src: &[u8],
    file: &ast::SourceFile,
    target: Target,
    dialect: Dialect,
) -> (Model, Vec<Diagnostic>) {
    dgnkit_frontend::check_tree(src, file, target.game().check_game(), dialect)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::odds::{CODES, LOAD_FAILURE_ODDS};

    /// Fails to load in a third of the games (see the code's example).
    fn failing() -> &'static [u8] {
        CODES
            .iter()
            .find(|c| c.code == LOAD_FAILURE_ODDS)
            .map(|c| c.example.as_bytes())
            .unwrap_or_default()
    }

    fn native(lints: LintLevels) -> CheckOptions {
        CheckOptions {
            target: Target::Native,
            lints,
            ..CheckOptions::default()
        }
    }

    fn has_odds(a: &Analysis) -> bool {
        a.diagnostics.iter().any(|d| d.code == LOAD_FAILURE_ODDS)
    }

    #[test]
    fn the_verdict_skips_the_odds_unless_they_are_denied() {
        let opts = native(LintLevels::new());
        assert!(has_odds(&analyze(failing(), &opts)));
        let quick = analyze_verdict(failing(), &opts);
        assert!(!has_odds(&quick));
        assert!(quick.script.is_some());
        assert_eq!(quick, analyze_fast(failing(), &opts));

        // Denied, they decide whether the file compiles: the verdict is
        // then that of `dgn check`.
        for lints in [
            LintLevels::new().deny("load-failure-odds"),
            LintLevels::new().deny("warnings"),
        ] {
            let opts = native(lints);
            let denied = analyze_verdict(failing(), &opts);
            assert_eq!(denied, analyze(failing(), &opts));
            assert!(denied.script.is_none(), "a denied warning fails the file");
        }
        let opts = native(LintLevels::new().deny("load-failure-odds"));
        assert!(has_odds(&analyze_verdict(failing(), &opts)));
    }

    #[test]
    fn allowed_odds_are_not_reported() {
        let opts = native(
            LintLevels::new()
                .allow("load-failure-odds")
                .allow("bones-marker-unused"),
        );
        let fast = analyze_fast(failing(), &opts);
        assert!(layout_odds(failing(), &fast, &opts).is_empty());
        assert_eq!(analyze(failing(), &opts), fast);
    }
}
