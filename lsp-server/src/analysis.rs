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

/// The options `dgn check` would get from the same settings.
pub fn check_options(config: &Config) -> CheckOptions {
    CheckOptions {
        target: config.target,
        dialect: config
            .dialect
            .as_deref()
            .and_then(Dialect::parse)
            .unwrap_or_default(),
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
