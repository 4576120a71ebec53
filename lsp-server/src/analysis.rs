//! The bridge to dgnkit's frontend: settings to options, the analysis of a
//! canonical text, and its diagnostics carried back to the real text.

use crate::canon::CanonMap;
use crate::config::Config;
use dgnkit::dialect::Dialect;
use dgnkit::frontend::{self, Analysis, CheckOptions};
use dgnkit::lint::LintLevels;
use dgnkit_grammar::{Diagnostic, ParseOptions};

/// The analysis of a canonical text.
pub struct Semantic {
    pub analysis: Analysis,
    /// The syntax diagnostics of the canonical text (lint levels applied):
    /// the real text's own replace them.
    pub canon_syntax: Vec<Diagnostic>,
}

pub fn parse_options(config: &Config) -> ParseOptions {
    ParseOptions {
        defines: config.defines.clone(),
        undefines: config.undefines.clone(),
    }
}

pub fn lint_levels(config: &Config) -> LintLevels {
    LintLevels {
        allow: config.allow.clone(),
        warn: config.warn.clone(),
        deny: config.deny.clone(),
    }
}

/// The options `dgn check` would get from the same settings. The dialect
/// follows the target, as `dgn check --target F` has it, unless a
/// variant's dialect is set: every editor sends `vanilla` as its default,
/// which must not turn a variant's file into vanilla syntax.
pub fn check_options(config: &Config) -> CheckOptions {
    CheckOptions {
        target: config.target,
        dialect: config
            .dialect
            .as_deref()
            .and_then(Dialect::parse)
            .filter(|&d| d != Dialect::Vanilla)
            .unwrap_or(config.target.game().dialect),
        defines: config.defines.clone(),
        undefines: config.undefines.clone(),
        lints: lint_levels(config),
    }
}

/// Whether `name` is a dialect `--dialect` accepts.
pub fn check_dialect(name: &str) -> Result<(), String> {
    match Dialect::parse(name) {
        Some(_) => Ok(()),
        None => {
            let known: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
            Err(format!(
                "unknown dialect \"{name}\" (known: {})",
                known.join(", ")
            ))
        }
    }
}

pub fn run(canonical: &[u8], config: &Config, lua: bool) -> Semantic {
    // The layout odds run apart, off the keystroke path (see `odds`).
    let kind = if lua {
        frontend::SourceKind::Lua
    } else {
        frontend::SourceKind::Def
    };
    let analysis = frontend::analyze_fast_as(kind, canonical, &check_options(config));
    // A Lua file's syntax diagnostics are the reader's, with the rest.
    let canon_syntax = if lua {
        Vec::new()
    } else {
        lint_levels(config)
            .apply(dgnkit_grammar::parse(canonical, &parse_options(config)).diagnostics)
    };
    Semantic {
        analysis,
        canon_syntax,
    }
}

/// The diagnostics `frontend::analyze` gives for the real text: the checks'
/// diagnostics of the canonical text in real offsets, and the syntax
/// diagnostics of the real text, in the frontend's order.
pub fn real_diagnostics(
    semantic: &Semantic,
    map: &CanonMap,
    real_syntax: &[Diagnostic],
    config: &Config,
) -> Vec<Diagnostic> {
    let mut syntax_left: Vec<&Diagnostic> = semantic.canon_syntax.iter().collect();
    let mut out = Vec::with_capacity(semantic.analysis.diagnostics.len());
    for d in &semantic.analysis.diagnostics {
        if let Some(i) = syntax_left.iter().position(|s| *s == d) {
            syntax_left.swap_remove(i);
            continue;
        }
        out.push(map_diagnostic(d, map));
    }
    out.extend(lint_levels(config).apply(real_syntax.to_vec()));
    frontend::sort(&mut out);
    out
}

/// A canonical-offset diagnostic in real offsets.
pub fn map_diagnostic(d: &Diagnostic, map: &CanonMap) -> Diagnostic {
    let mut d = d.clone();
    d.span = map.span_to_real(d.span);
    for l in &mut d.labels {
        l.span = map.span_to_real(l.span);
    }
    if let Some(fix) = &mut d.fix {
        for e in &mut fix.edits {
            e.span = map.span_to_real(e.span);
        }
    }
    d
}

/// Why the language server's family note shows even when the target was
/// chosen: an editor sends its default target like a chosen one.
const FAMILY_NOTE_WHY: &str = "the language server says this whenever the file's game and the setting differ (an editor sends its default target like a chosen one); until then, hovers' depths and bones verdicts are the setting's game's";

/// `dgn check`'s note N0001 in the editor's words: the setting to change,
/// not a command-line option. The checks' own note (a variant's compiler
/// accepts what this target refuses) gets the setting; a file that shows
/// a game other than the target's by its path or the `dgnkit.dialect`
/// setting gets a note at its start.
pub fn family_note(
    out: &mut Vec<Diagnostic>,
    path: Option<&std::path::Path>,
    config: &Config,
    lua: bool,
) {
    use dgnkit::games::detect::{self, Ask};
    let key = if lua {
        "dgnkit.luaTarget"
    } else {
        "dgnkit.target"
    };
    let code = dgnkit::check::codes::DIALECT_SUGGESTION;
    if let Some(d) = out.iter_mut().find(|d| d.code == code) {
        // It names `--target F`, or `--dialect D` for a game without one.
        let target = dgnkit::options::Target::ALL
            .into_iter()
            .find(|t| d.message.contains(&format!("`--target {}`", t.name())))
            .map(|t| (key, t.name()));
        let dialect = Dialect::ALL
            .into_iter()
            .find(|x| d.message.contains(&format!("`--dialect {}`", x.name())))
            .map(|x| ("dgnkit.dialect", x.name()));
        if let Some((setting, value)) = target.or(dialect) {
            d.notes
                .push(format!("in the editor: set `{setting}` to \"{value}\""));
        }
        return;
    }
    let dialect = config
        .dialect
        .as_deref()
        .and_then(Dialect::parse)
        .filter(|&d| d != Dialect::Vanilla && !lua);
    // Syntax a variant's compiler alone accepts is the checks' own note's
    // (above), as in `dgn check`.
    let Some(mut found) = detect::detect(path, None, dialect) else {
        return;
    };
    if let Some(d) = dialect {
        found.evidence = format!("`dgnkit.dialect` is \"{}\"", d.name());
    }
    if let Some(mut note) = detect::family_note(&found, config.target, Ask::Setting(key)) {
        note.notes.push(FAMILY_NOTE_WHY.to_string());
        out.push(note);
        frontend::sort(out);
    }
}
