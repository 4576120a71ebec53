//! The pipeline entry point: bytes in, syntax tree, model, diagnostics and
//! (when there are no errors) the lowered script out. Every command and the
//! language server go through [`analyze`].

use crate::check::{self, codes};
use crate::dialect::Dialect;
use crate::grammar::{self, ast, Diagnostic, ParseOptions, Severity};
use crate::lint::{Level, LintLevels};
use crate::lower::lower;
pub use crate::model::SourceKind;
use crate::model::{self, Model};
use crate::options::Target;
use crate::script::Script;

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

/// Everything known about one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub file: ast::SourceFile,
    pub model: Model,
    /// Syntax and semantic diagnostics, lint levels applied, sorted by
    /// position (then errors before warnings before notes).
    pub diagnostics: Vec<Diagnostic>,
    /// The lowered script; `None` exactly when a diagnostic is an error.
    pub script: Option<Script>,
}

impl Analysis {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    pub fn warning_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
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

/// The `%FLAG` options: as given, with the flags the target's default build
/// leaves undefined ([`crate::games::Game::undefined_flags`]) undefined
/// unless `-D` names them.
pub fn parse_options(opts: &CheckOptions) -> ParseOptions {
    let mut undefines = opts.undefines.clone();
    for flag in opts.target.game().undefined_flags {
        if !opts.defines.iter().any(|d| d == flag) && !undefines.iter().any(|u| u == flag) {
            undefines.push((*flag).to_string());
        }
    }
    ParseOptions {
        defines: opts.defines.clone(),
        undefines,
    }
}

/// [`analyze`] without the layout-odds checks ([`layout_odds`]), which
/// enumerate every layout the loader can make: what an editor needs on
/// every keystroke.
pub fn analyze_fast(src: &[u8], opts: &CheckOptions) -> Analysis {
    analyze_fast_as(SourceKind::sniff(src), src, opts)
}

/// [`analyze_fast`] for a file whose language is known.
pub fn analyze_fast_as(kind: SourceKind, src: &[u8], opts: &CheckOptions) -> Analysis {
    if kind == SourceKind::Lua {
        return analyze_lua(src, opts);
    }
    analyze_def(src, opts, true)
}

/// The errors of [`analyze_verdict`] and its script, for a caller that
/// reports nothing but errors (the drop-in `dgn_comp`): the checks that
/// only ever warn ([`check::run_errors`]) and the dialect note are not run,
/// so the diagnostics lack some warnings and notes. When a lint is denied
/// (a warning can then be an error) or the file is a `dungeon.lua`, this is
/// [`analyze_verdict`].
pub fn analyze_errors(src: &[u8], opts: &CheckOptions) -> Analysis {
    let kind = SourceKind::sniff(src);
    if !opts.lints.deny.is_empty() || kind == SourceKind::Lua {
        return analyze_verdict_as(kind, src, opts);
    }
    analyze_def(src, opts, false)
}

/// A `.def` file's analysis without the layout odds; with every check and
/// the dialect note (`all`) or only the checks that can report errors.
fn analyze_def(src: &[u8], opts: &CheckOptions, all: bool) -> Analysis {
    let parsed = grammar::parse(src, &parse_options(opts));
    let model = model::build(&parsed.file, opts.dialect);
    let ctx = check::Ctx::new(src, &parsed.file, &model, opts.target, opts.dialect);
    let checked = if all {
        check::run(&ctx)
    } else {
        check::run_errors(&ctx)
    };
    let mut diagnostics = parsed.diagnostics;
    diagnostics.extend(checked);
    let mut diagnostics = opts.lints.apply(diagnostics);
    if all {
        if let Some(note) = dialect_suggestion(src, &parsed.file, opts, &diagnostics) {
            diagnostics.push(note);
        }
    }
    sort(&mut diagnostics);
    finish(parsed.file, model, diagnostics, opts)
}

/// A `dungeon.lua` (NetHack 3.7): read into the same model, then the same
/// checks and lowering as a `.def` file. The syntax tree is empty: the
/// file's structure is the model's.
fn analyze_lua(src: &[u8], opts: &CheckOptions) -> Analysis {
    let (model, mut diagnostics) = crate::lua::read(src, opts.dialect);
    let file = ast::SourceFile::default();
    let ctx = check::Ctx::new(src, &file, &model, opts.target, opts.dialect);
    diagnostics.extend(check::run(&ctx));
    let mut diagnostics = opts.lints.apply(diagnostics);
    sort(&mut diagnostics);
    finish(file, model, diagnostics, opts)
}

/// The analysis, with the script when nothing is an error.
fn finish(
    file: ast::SourceFile,
    model: Model,
    diagnostics: Vec<Diagnostic>,
    opts: &CheckOptions,
) -> Analysis {
    let script = if diagnostics.iter().any(Diagnostic::is_error) {
        None
    } else {
        Some(lower(&model, opts.dialect))
    };
    Analysis {
        file,
        model,
        diagnostics,
        script,
    }
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
    let ctx = check::Ctx::new(src, &fast.file, &fast.model, opts.target, opts.dialect);
    opts.lints.apply(check::odds::check(&ctx))
}

/// The model and the checks' diagnostics for an already parsed tree.
pub fn check_tree(
    src: &[u8],
    file: &ast::SourceFile,
    target: Target,
    dialect: Dialect,
) -> (Model, Vec<Diagnostic>) {
    let model = model::build(file, dialect);
    let ctx = check::Ctx::new(src, file, &model, target, dialect);
    let diagnostics = check::run(&ctx);
    (model, diagnostics)
}

/// Sorts diagnostics by position, errors first among equals.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.span.start, a.span.end, a.severity, a.code).cmp(&(
            b.span.start,
            b.span.end,
            b.severity,
            b.code,
        ))
    });
}

/// Errors that some dialect does not report: limits, names, variant
/// syntax, repeated dungeons, branches SLASH'EM allows, and what follows
/// from a larger MAXLEVEL.
const DIALECT_SENSITIVE: &[&str] = &[
    codes::DUPLICATE_DUNGEON,
    codes::NAME_TOO_LONG,
    codes::BASE_OUT_OF_RANGE,
    codes::RANGE_PAST_MAXLEVEL,
    codes::BAD_RNDLEVS,
    codes::NEVER_FITS,
    codes::BRANCH_REVERSE,
    codes::BRANCH_SECOND,
    codes::DUNGEON_UNREACHED,
    codes::UNKNOWN_DESCRIPTOR,
    codes::TOO_MANY_DUNGEONS,
    codes::TOO_MANY_LEVELS,
    codes::TOO_MANY_BRANCHES,
    codes::TOO_MANY_LEVELS_IN_ALL,
    codes::DISPLAY_NAME,
    codes::TILESET,
    codes::BRANCH_ENTRY,
    codes::ENTRY_OBSOLETE,
];

/// When a file checked in the default (vanilla) dialect has errors that a
/// known variant's dialect does not have, a note naming that dialect (at
/// the first such error). A dialect whose
/// syntax the file uses ([`Dialect::guess`]) is preferred; otherwise, when
/// only limits are exceeded, the dialect with the smallest limits that
/// accepts the file, and the others that do.
fn dialect_suggestion(
    src: &[u8],
    file: &ast::SourceFile,
    opts: &CheckOptions,
    diags: &[Diagnostic],
) -> Option<Diagnostic> {
    // Syntax errors are the same in every dialect.
    let semantic = |d: &&Diagnostic| d.is_error() && !d.code.starts_with("E01");
    let ours: Vec<&Diagnostic> = diags.iter().filter(semantic).collect();
    // Only the default dialect suggests: a chosen dialect was chosen. And
    // only errors that some dialect treats differently are worth re-checking.
    if opts.dialect != Dialect::Vanilla || !ours.iter().any(|d| DIALECT_SENSITIVE.contains(&d.code))
    {
        return None;
    }
    let errors_with = |dialect: Dialect| -> Vec<Diagnostic> {
        let (_, theirs) = check_tree(src, file, opts.target, dialect);
        opts.lints
            .apply(theirs)
            .into_iter()
            .filter(|d| d.is_error())
            .collect()
    };
    let syntax = Dialect::guess(file).filter(|&g| g != opts.dialect);
    let mut choice: Option<(Dialect, Vec<Diagnostic>, Vec<Dialect>)> = None;
    if let Some(g) = syntax {
        let remaining = errors_with(g);
        if remaining.len() < ours.len() {
            choice = Some((g, remaining, Vec::new()));
        }
    }
    if choice.is_none() {
        let limits_key = |d: Dialect| {
            let l = d.info().limits;
            (l.max_level, l.max_dungeons, l.max_levels, l.max_branches)
        };
        let mut results: Vec<(Dialect, Vec<Diagnostic>)> = Dialect::ALL
            .into_iter()
            .filter(|&d| d != opts.dialect)
            .map(|d| (d, errors_with(d)))
            .filter(|(_, r)| r.len() < ours.len())
            .collect();
        results.sort_by_key(|(d, r)| (r.len(), limits_key(*d)));
        let mut it = results.into_iter();
        let (best, remaining) = it.next()?;
        let also: Vec<Dialect> = if remaining.is_empty() {
            it.filter(|(_, r)| r.is_empty()).map(|(d, _)| d).collect()
        } else {
            Vec::new()
        };
        choice = Some((best, remaining, also));
    }
    let (guess, remaining, also) = choice?;
    let fixed = ours
        .iter()
        .filter(|e| {
            !remaining
                .iter()
                .any(|r| r.code == e.code && r.span == e.span)
        })
        .min_by_key(|e| (e.span.start, e.span.end))?;
    let how = if remaining.is_empty() {
        "checks without errors".to_string()
    } else {
        format!("has {} of the {} errors", remaining.len(), ours.len())
    };
    let message = if syntax == Some(guess) {
        format!(
            "this looks like {} {} file; try `{}`",
            crate::games::detect::article(guess.title()),
            guess.title(),
            crate::games::detect::option_for(guess)
        )
    } else {
        let what = if remaining.is_empty() {
            "this file"
        } else {
            "more of this file"
        };
        format!(
            "{}'s compiler accepts {what}; try `{}`",
            guess.title(),
            crate::games::detect::option_for(guess)
        )
    };
    let mut note = Diagnostic {
        severity: Severity::Note,
        code: codes::DIALECT_SUGGESTION,
        lint: None,
        message,
        span: fixed.span,
        labels: Vec::new(),
        notes: Vec::new(),
        fix: None,
    }
    .with_note(format!("with `--dialect {}` it {how}", guess.name()));
    if !also.is_empty() {
        let names: Vec<&str> = also.iter().map(|d| d.name()).collect();
        note = note.with_note(format!("so do the dialects {}", names.join(", ")));
    }
    Some(note.with_note(guess.doc()))
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
