//! What NetHack's `makedefs -e` does before dgn_comp sees the file, done on
//! the token stream so that every span still points into the original file:
//!
//! - a line starting with `#` is a comment (the lexer made it a
//!   [`TokenKind::Comment`] token; it is recorded, not parsed);
//! - a line starting with `%NAME` keeps the rest of its tokens when option
//!   NAME is defined and loses them all otherwise. `-D`/`-U` define and
//!   undefine; REINCARNATION and MULDGN are defined by default (every vanilla
//!   release that used them had them on); any other name is unknown, which
//!   makedefs treats as fatal and we report as a warning, dropping the line.
//!
//! Trailing `# ...` comments are recorded here too; whether they are allowed
//! is for the checks to say. Comments on dropped lines are not recorded: for
//! the tree those lines do not exist.

use crate::ast::{Comment, FlagLine};
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::span::Span;
use crate::ParseOptions;

/// The options makedefs knows for dungeon.def (3.1 had both, 3.2-3.4.3 only
/// REINCARNATION); both were on in every default build.
pub const KNOWN_FLAGS: [&str; 2] = ["REINCARNATION", "MULDGN"];

/// The token stream after preprocessing, plus what was removed from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preprocessed {
    /// What the grammar sees: no comments, no `%NAME` prefixes, no tokens of
    /// dropped lines.
    pub tokens: Vec<Token>,
    pub comments: Vec<Comment>,
    pub flag_lines: Vec<FlagLine>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Whether `%name` lines are kept under `opts`, and whether makedefs knows the name.
pub fn flag_state(name: &str, opts: &ParseOptions) -> (bool, bool) {
    let known = KNOWN_FLAGS.contains(&name);
    // An explicit -U wins over -D, as the later and more specific request.
    let kept = if opts.undefines.iter().any(|u| u == name) {
        false
    } else {
        known || opts.defines.iter().any(|d| d == name)
    };
    (kept, known)
}

/// Applies `%FLAG` lines and separates comments from the tokens of `src`.
pub fn preprocess(src: &[u8], tokens: &[Token], opts: &ParseOptions) -> Preprocessed {
    let mut out = Preprocessed {
        tokens: Vec::with_capacity(tokens.len()),
        ..Preprocessed::default()
    };
    let mut i = 0;
    while let Some(&tok) = tokens.get(i) {
        i += 1;
        match tok.kind {
            TokenKind::Comment => out.comments.push(Comment {
                span: tok.span,
                trailing: false,
            }),
            TokenKind::TrailingComment => out.comments.push(Comment {
                span: tok.span,
                trailing: true,
            }),
            TokenKind::Flag => {
                let name_bytes = src
                    .get(tok.span.start as usize + 1..tok.span.end as usize)
                    .unwrap_or_default();
                let name = String::from_utf8_lossy(name_bytes).into_owned();
                let (kept, known) = flag_state(&name, opts);
                let defined_by_user = opts.defines.contains(&name);
                if !known && !defined_by_user && !opts.undefines.contains(&name) {
                    out.diagnostics.push(unknown_flag(tok.span, &name));
                }
                if !kept {
                    // No token spans a newline, so the line's tokens are
                    // exactly those that start before its end.
                    let line_end = line_end(src, tok.span.end as usize);
                    while tokens
                        .get(i)
                        .is_some_and(|t| (t.span.start as usize) < line_end)
                    {
                        i += 1;
                    }
                }
                out.flag_lines.push(FlagLine {
                    span: tok.span,
                    name,
                    kept,
                    known,
                });
            }
            _ => out.tokens.push(tok),
        }
    }
    out
}

/// Offset of the `\n` ending the line that contains `from` (or the end of input).
pub(crate) fn line_end(src: &[u8], from: usize) -> usize {
    let from = from.min(src.len());
    src[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |p| from + p)
}

fn unknown_flag(span: Span, name: &str) -> Diagnostic {
    Diagnostic::warning(
        codes::UNKNOWN_FLAG,
        codes::UNKNOWN_FLAG_LINT,
        span,
        format!("unknown option `%{name}`: this line is dropped"),
    )
    .with_label(span, "not an option NetHack's makedefs knows")
    .with_note(format!(
        "makedefs knows only {}, and stops with \"Unknown control option\" on any other name; \
         pass `-D {name}` to keep the line or `-U {name}` to drop it silently",
        KNOWN_FLAGS.join(" and ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn run(src: &str, opts: &ParseOptions) -> (Preprocessed, Vec<String>) {
        let pp = preprocess(src.as_bytes(), &lex(src.as_bytes()), opts);
        let texts = pp
            .tokens
            .iter()
            .map(|t| src[t.span.range()].to_string())
            .collect();
        (pp, texts)
    }

    #[test]
    fn known_flags_are_kept_by_default_and_dropped_by_undefine() {
        let src = "%REINCARNATION LEVEL: x\n%MULDGN\tENTRY: 1\n";
        let (pp, texts) = run(src, &ParseOptions::default());
        assert_eq!(texts, ["LEVEL", ":", "x", "ENTRY", ":", "1"]);
        assert!(pp.diagnostics.is_empty());
        assert!(pp.flag_lines.iter().all(|f| f.kept && f.known));

        let opts = ParseOptions {
            undefines: vec!["REINCARNATION".into()],
            ..ParseOptions::default()
        };
        let (pp, texts) = run(src, &opts);
        assert_eq!(texts, ["ENTRY", ":", "1"]);
        assert!(!pp.flag_lines[0].kept);
        assert!(pp.diagnostics.is_empty());
    }

    #[test]
    fn unknown_flags_warn_and_drop_unless_defined() {
        let src = "%CONWAY LEVEL: \"open # x\r\nENTRY: 1";
        let (pp, texts) = run(src, &ParseOptions::default());
        assert_eq!(texts, ["ENTRY", ":", "1"]);
        assert_eq!(pp.diagnostics.len(), 1);
        assert_eq!(pp.diagnostics[0].code, codes::UNKNOWN_FLAG);
        assert_eq!(pp.diagnostics[0].span, Span::new(0, 7));
        assert!(pp.diagnostics[0].message.contains("%CONWAY"));
        assert!(pp.comments.is_empty());

        let opts = ParseOptions {
            defines: vec!["CONWAY".into()],
            ..ParseOptions::default()
        };
        let (pp, texts) = run(src, &opts);
        assert_eq!(texts, ["LEVEL", ":", "\"open # x", "ENTRY", ":", "1"]);
        assert!(pp.diagnostics.is_empty());
        assert!(pp.flag_lines[0].kept && !pp.flag_lines[0].known);
    }

    #[test]
    fn comments_are_recorded_with_their_kind() {
        let (pp, texts) = run(
            "# whole\nENTRY: 1 # trailing\n  # indented\n",
            &ParseOptions::default(),
        );
        assert_eq!(texts, ["ENTRY", ":", "1"]);
        let kinds: Vec<bool> = pp.comments.iter().map(|c| c.trailing).collect();
        assert_eq!(kinds, [false, true, true]);
    }
}
