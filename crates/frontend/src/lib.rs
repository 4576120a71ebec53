//! The front end: bytes in, syntax tree, model, diagnostics and (when
//! there are no errors) the lowered script out, for `dungeon.def` and
//! NetHack 3.7's `dungeon.lua` alike.
//!
//! It knows a game only through [`CheckGame`], the data its checks need;
//! the checks that need the loader or the statistics (the layout odds)
//! live above them, in `dgnkit`, whose `frontend::analyze` adds them.

#![deny(clippy::unwrap_used)]

pub mod check;
pub mod dialect;
pub mod lint;
pub mod lower;
pub mod lua;
pub mod model;

use crate::check::codes;
use crate::dialect::Dialect;
use crate::lint::LintLevels;
use crate::lower::lower;
use crate::model::Model;
pub use crate::model::SourceKind;
use dgnkit_grammar::{ast, Diagnostic, ParseOptions, Severity};
use dgnkit_script::Script;

/// What the checks need to know of the game a file is for: one record per
/// game, made where the games are assembled (`dgnkit::games`).
#[derive(Clone, Copy, Debug)]
pub struct CheckGame {
    /// The game's `--target` value, for messages about limits.
    pub name: &'static str,
    /// Whether the game has fixed tables: byte-sized fields, the dialect's
    /// limits and hard-wired dungeon names (everything but dgnkit's own
    /// native format).
    pub fixed_tables: bool,
    /// `%FLAG`s makedefs knows that the game's default build leaves
    /// undefined (`-D` still defines them).
    pub undefined_flags: &'static [&'static str],
    /// How to ask for a dialect on the command line (its game's
    /// `--target`, else `--dialect`), for the note that suggests one.
    pub dialect_option: fn(Dialect) -> String,
    /// Whether a `knox` level that no branch reaches aborts the game's
    /// loader (E1001); EvilHack's guards the kludge and loads the file.
    pub knox_needs_branch: bool,
}

/// How to read and check a file.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// What the output is for; decides the limits (none for `native`).
    pub game: CheckGame,
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

/// The `%FLAG` options: as given, with the flags the game's default build
/// leaves undefined ([`CheckGame::undefined_flags`]) undefined unless `-D`
/// names them.
pub fn parse_options(opts: &CheckOptions) -> ParseOptions {
    let mut undefines = opts.undefines.clone();
    for flag in opts.game.undefined_flags {
        if !opts.defines.iter().any(|d| d == flag) && !undefines.iter().any(|u| u == flag) {
            undefines.push((*flag).to_string());
        }
    }
    ParseOptions {
        defines: opts.defines.clone(),
        undefines,
    }
}

/// Every check but the layout odds (`dgnkit::frontend::analyze` adds
/// them), which enumerate every layout the loader can make: what an editor
/// needs on every keystroke.
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

/// A `.def` file's analysis without the layout odds; with every check and
/// the dialect note (`all`) or only the checks that can report errors.
pub fn analyze_def(src: &[u8], opts: &CheckOptions, all: bool) -> Analysis {
    let parsed = dgnkit_grammar::parse(src, &parse_options(opts));
    let model = model::build(&parsed.file, opts.dialect);
    let ctx = check::Ctx::new(src, &parsed.file, &model, opts.game, opts.dialect);
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
/// file's structure is the model's. A file that draws is checked in every
/// outcome of its draws: the first outcome's model is the analysis's (its
/// spans are the file's like every other's), the diagnostics are those of
/// all outcomes, and the script carries the others as its prelude.
fn analyze_lua(src: &[u8], opts: &CheckOptions) -> Analysis {
    let reading = crate::lua::read::read_program(src, opts.dialect);
    let file = ast::SourceFile::default();
    let mut checked: Vec<(Model, Vec<Diagnostic>)> = reading
        .outcomes
        .into_iter()
        .map(|(model, mut diagnostics)| {
            let ctx = check::Ctx::new(src, &file, &model, opts.game, opts.dialect);
            diagnostics.extend(check::run(&ctx));
            let mut diagnostics = opts.lints.apply(diagnostics);
            sort(&mut diagnostics);
            (model, diagnostics)
        })
        .collect();
    let (model, mut diagnostics) = checked.remove(0);
    for (_, more) in &checked {
        for d in more {
            if !diagnostics
                .iter()
                .any(|o| o.code == d.code && o.span == d.span && o.message == d.message)
            {
                diagnostics.push(d.clone());
            }
        }
    }
    sort(&mut diagnostics);
    let mut analysis = finish(file, model, diagnostics, opts);
    if let (Some(script), Some(tree)) = (&mut analysis.script, reading.tree) {
        let mut outcomes = vec![script.clone()];
        outcomes.extend(checked.iter().map(|(m, _)| lower(m, opts.dialect)));
        script.prelude = Some(std::sync::Arc::new(prelude(tree, outcomes)));
    }
    analysis
}

/// The prelude of a file that draws, its equal outcomes merged.
fn prelude(mut root: dgnkit_script::PreludeNode, scripts: Vec<Script>) -> dgnkit_script::Prelude {
    let mut distinct: Vec<Script> = Vec::new();
    let index: Vec<u32> = scripts
        .into_iter()
        .map(|s| match distinct.iter().position(|d| *d == s) {
            Some(i) => i as u32,
            None => {
                distinct.push(s);
                distinct.len() as u32 - 1
            }
        })
        .collect();
    fn renumber(node: &mut dgnkit_script::PreludeNode, index: &[u32]) {
        match node {
            dgnkit_script::PreludeNode::Outcome(i) => {
                *i = index.get(*i as usize).copied().unwrap_or(0)
            }
            dgnkit_script::PreludeNode::Draw { arms, .. } => {
                for a in arms {
                    renumber(&mut a.next, index);
                }
            }
        }
    }
    renumber(&mut root, &index);
    dgnkit_script::Prelude {
        root,
        outcomes: distinct,
    }
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

/// The model and the checks' diagnostics for an already parsed tree.
pub fn check_tree(
    src: &[u8],
    file: &ast::SourceFile,
    game: CheckGame,
    dialect: Dialect,
) -> (Model, Vec<Diagnostic>) {
    let model = model::build(file, dialect);
    let ctx = check::Ctx::new(src, file, &model, game, dialect);
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
        let (_, theirs) = check_tree(src, file, opts.game, dialect);
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
            .filter(|&d| d != opts.dialect && d.reads_def())
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
            article(guess.title()),
            guess.title(),
            (opts.game.dialect_option)(guess)
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
            (opts.game.dialect_option)(guess)
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

/// "a" or "an" before a game's name.
pub fn article(title: &str) -> &'static str {
    match title.chars().next() {
        Some('A' | 'E' | 'I' | 'O' | 'U' | 'a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// Games for the crate's own tests: one with fixed tables (as NetHack's)
/// and dgnkit's native format.
#[cfg(test)]
pub mod test_games {
    use super::CheckGame;
    use crate::dialect::Dialect;

    fn dialect_option(d: Dialect) -> String {
        format!("--dialect {}", d.name())
    }

    pub const FIXED: CheckGame = CheckGame {
        name: "nethack-3.6",
        fixed_tables: true,
        undefined_flags: &[],
        dialect_option,
        knox_needs_branch: true,
    };

    pub const NATIVE: CheckGame = CheckGame {
        name: "native",
        fixed_tables: false,
        undefined_flags: &[],
        dialect_option,
        knox_needs_branch: true,
    };
}
