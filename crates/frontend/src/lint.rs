//! Lints: every warning has a name, and `--allow NAME`, `--warn NAME`,
//! `--deny NAME` set its level, as in rustc. Two group names exist besides
//! the lints themselves: `compat` (every `compat-*` lint: what NetHack's own
//! dgn_comp rejects although dgnkit accepts it) and `warnings` (every lint).
//!
//! Precedence: a lint named directly beats its group, and a group beats
//! `warnings`; among settings of the same name, `--deny` beats `--warn`
//! beats `--allow`. So `--deny warnings --allow duplicate-level-name` turns
//! every warning but that one into an error.

use crate::check::codes;
use dgnkit_grammar::{Diagnostic, Severity};

/// What happens to a lint's diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Dropped.
    Allow,
    /// Reported as a warning (the default).
    Warn,
    /// Reported as an error: the file fails and produces no output.
    Deny,
}

/// The group of lints that NetHack's dgn_comp would reject.
pub const COMPAT_GROUP: &str = "compat";
/// The group of every lint.
pub const ALL_GROUP: &str = "warnings";

/// Lint levels from the command line (or an editor's settings).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LintLevels {
    pub allow: Vec<String>,
    pub warn: Vec<String>,
    pub deny: Vec<String>,
}

/// Every lint name, in code order.
pub fn lint_names() -> Vec<&'static str> {
    codes::all().into_iter().filter_map(|c| c.lint).collect()
}

/// Whether `name` is a lint or a group name.
pub fn is_known(name: &str) -> bool {
    name == COMPAT_GROUP || name == ALL_GROUP || lint_names().contains(&name)
}

impl LintLevels {
    pub fn new() -> Self {
        LintLevels::default()
    }

    pub fn allow(mut self, name: &str) -> Self {
        self.allow.push(name.to_string());
        self
    }

    pub fn warn(mut self, name: &str) -> Self {
        self.warn.push(name.to_string());
        self
    }

    pub fn deny(mut self, name: &str) -> Self {
        self.deny.push(name.to_string());
        self
    }

    /// The names given that are neither lints nor groups.
    pub fn unknown_names(&self) -> Vec<&str> {
        self.allow
            .iter()
            .chain(&self.warn)
            .chain(&self.deny)
            .map(String::as_str)
            .filter(|n| !is_known(n))
            .collect()
    }

    /// The level of `lint`.
    pub fn level(&self, lint: &str) -> Level {
        let specificity = |name: &str| -> Option<u8> {
            if name == lint {
                Some(3)
            } else if name == COMPAT_GROUP && lint.starts_with("compat-") {
                Some(2)
            } else if name == ALL_GROUP {
                Some(1)
            } else {
                None
            }
        };
        let mut best: Option<(u8, Level)> = None;
        for (names, level) in [
            (&self.allow, Level::Allow),
            (&self.warn, Level::Warn),
            (&self.deny, Level::Deny),
        ] {
            for name in names {
                if let Some(s) = specificity(name) {
                    if best.is_none_or(|(bs, bl)| (s, level) > (bs, bl)) {
                        best = Some((s, level));
                    }
                }
            }
        }
        best.map_or(Level::Warn, |(_, level)| level)
    }

    /// Applies the levels: drops allowed warnings, turns denied ones into
    /// errors (saying why, as rustc does). Errors and notes pass unchanged.
    pub fn apply(&self, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        diagnostics
            .into_iter()
            .filter_map(|mut d| {
                let Some(lint) = d.lint else { return Some(d) };
                if d.severity != Severity::Warning {
                    return Some(d);
                }
                match self.level(lint) {
                    Level::Allow => None,
                    Level::Warn => Some(d),
                    Level::Deny => {
                        d.severity = Severity::Error;
                        d.notes.push(format!(
                            "`{lint}` is denied (--deny), so this warning is an error"
                        ));
                        Some(d)
                    }
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgnkit_grammar::Span;

    fn warning(lint: &'static str) -> Diagnostic {
        Diagnostic::warning("W0000", lint, Span::new(0, 1), "w")
    }

    #[test]
    fn default_is_warn_and_specific_names_beat_groups() {
        let l = LintLevels::new();
        assert_eq!(l.level("duplicate-level-name"), Level::Warn);
        let l = LintLevels::new()
            .deny("warnings")
            .allow("duplicate-level-name");
        assert_eq!(l.level("duplicate-level-name"), Level::Allow);
        assert_eq!(l.level("portal-direction"), Level::Deny);
        let l = LintLevels::new()
            .allow("compat")
            .warn("compat-rndchainlevel");
        assert_eq!(l.level("compat-rndchainlevel"), Level::Warn);
        assert_eq!(l.level("compat-trailing-comment"), Level::Allow);
        assert_eq!(l.level("portal-direction"), Level::Warn);
        let l = LintLevels::new()
            .allow("portal-direction")
            .deny("portal-direction");
        assert_eq!(l.level("portal-direction"), Level::Deny);
    }

    #[test]
    fn apply_drops_allowed_and_promotes_denied() {
        let l = LintLevels::new().allow("a-lint").deny("b-lint");
        let out = l.apply(vec![
            warning("a-lint"),
            warning("b-lint"),
            warning("c-lint"),
        ]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].severity, Severity::Error);
        assert_eq!(out[1].severity, Severity::Warning);
    }

    #[test]
    fn names_are_validated() {
        let l = LintLevels::new()
            .allow("compat")
            .deny("no-such-lint")
            .warn("bones-marker-reuse");
        assert_eq!(l.unknown_names(), vec!["no-such-lint"]);
        assert!(lint_names().contains(&"unknown-flag"));
    }
}
