//! Rendering diagnostics for people and programs: `human` (codespan-reporting's
//! rich form, in colour on a terminal), `short` (`file:line:col:
//! error[CODE]: message`, one per line) and JSON.
//!
//! Sources are bytes and need not be UTF-8 (JNetHack's file is not): text is
//! decoded lossily for display (each invalid byte shows as U+FFFD), while
//! spans stay byte offsets into the original and are mapped, so a span inside
//! a multibyte sequence or past the end never panics. Lines and columns are
//! 1-based; columns count characters of the decoded line.

use codespan_reporting::diagnostic::{
    Diagnostic as CsDiagnostic, Label as CsLabel, Severity as CsSeverity,
};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use dgnkit_grammar::{Diagnostic, Severity, Span};
use serde_json::{json, Value};

/// A 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

/// Byte offset to line/column conversion for a source of any encoding.
pub struct LineIndex<'a> {
    src: &'a [u8],
    /// Byte offset where each line starts.
    starts: Vec<u32>,
}

impl<'a> LineIndex<'a> {
    pub fn new(src: &'a [u8]) -> Self {
        let mut starts = vec![0u32];
        starts.extend(
            src.iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| (i + 1) as u32),
        );
        LineIndex { src, starts }
    }

    /// The line and column of `offset` (clamped to the source; an offset
    /// inside a multibyte character gives that character's column).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.src.len() as u32);
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        let column = column_of(self.src, start as usize, offset as usize);
        LineCol {
            line: line as u32 + 1,
            column: column as u32 + 1,
        }
    }

    /// Number of lines (a file ending in a newline has an empty last line).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }
}

/// 0-based column of byte `offset` on the line starting at `line_start`:
/// the number of characters that end at or before it (each invalid byte counts
/// as one character, as it is displayed as U+FFFD).
fn column_of(src: &[u8], line_start: usize, offset: usize) -> usize {
    let mut col = 0;
    let mut pos = line_start;
    for chunk in src.get(line_start..).unwrap_or_default().utf8_chunks() {
        for len in chunk
            .valid()
            .chars()
            .map(char::len_utf8)
            .chain(chunk.invalid().iter().map(|_| 1))
        {
            if pos + len > offset {
                return col;
            }
            pos += len;
            col += 1;
        }
    }
    col
}

/// The source decoded for display, with a map from original byte offsets.
struct Decoded {
    text: String,
    /// `map[i]` is the decoded offset of original byte `i` (rounded down to
    /// a character start); `map[len]` is the end.
    map: Vec<u32>,
}

impl Decoded {
    fn new(src: &[u8]) -> Self {
        let mut text = String::with_capacity(src.len());
        let mut map = Vec::with_capacity(src.len() + 1);
        for chunk in src.utf8_chunks() {
            for c in chunk.valid().chars() {
                let at = text.len() as u32;
                map.extend(std::iter::repeat_n(at, c.len_utf8()));
                text.push(c);
            }
            for _ in chunk.invalid() {
                map.push(text.len() as u32);
                text.push('\u{FFFD}');
            }
        }
        map.push(text.len() as u32);
        Decoded { text, map }
    }

    fn range(&self, span: Span) -> std::ops::Range<usize> {
        let at = |o: u32| {
            self.map
                .get(o as usize)
                .or(self.map.last())
                .copied()
                .unwrap_or(0) as usize
        };
        let (s, e) = (at(span.start), at(span.end));
        s..e.max(s)
    }
}

fn severity(s: Severity) -> CsSeverity {
    match s {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Note => CsSeverity::Note,
    }
}

pub fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn to_codespan(d: &Diagnostic, src: &Decoded) -> CsDiagnostic<()> {
    let primary_message = d
        .labels
        .iter()
        .find(|l| l.span == d.span)
        .map(|l| l.message.clone())
        .unwrap_or_default();
    let mut labels = vec![CsLabel::primary((), src.range(d.span)).with_message(primary_message)];
    labels.extend(
        d.labels
            .iter()
            .filter(|l| l.span != d.span)
            .map(|l| CsLabel::secondary((), src.range(l.span)).with_message(&l.message)),
    );
    let mut notes = d.notes.clone();
    if let Some(fix) = &d.fix {
        notes.push(format!("help: {}", fix.message));
    }
    if let (Some(lint), Severity::Warning) = (d.lint, d.severity) {
        notes.push(format!(
            "`{lint}` is on by default (--allow {lint} to silence it)"
        ));
    }
    CsDiagnostic::new(severity(d.severity))
        .with_code(d.code)
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(notes)
}

/// The rich form of `diagnostics` of one file, with ANSI colours when `color`.
pub fn human(name: &str, src: &[u8], diagnostics: &[Diagnostic], color: bool) -> String {
    // Decoding maps every byte of the file, which a clean compile would
    // pay for nothing.
    if diagnostics.is_empty() {
        return String::new();
    }
    let decoded = Decoded::new(src);
    let file = SimpleFile::new(name, decoded.text.as_str());
    let config = term::Config::default();
    let mut buf: Vec<u8> = Vec::new();
    for d in diagnostics {
        let cs = to_codespan(d, &decoded);
        let result = if color {
            term::emit_to_write_style(&mut termcolor::Ansi::new(&mut buf), &config, &file, &cs)
        } else {
            term::emit_to_write_style(&mut termcolor::NoColor::new(&mut buf), &config, &file, &cs)
        };
        if result.is_err() {
            // Cannot happen with a consistent file and ranges; fall back to the short form.
            buf.extend_from_slice(short(name, src, std::slice::from_ref(d)).as_bytes());
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// One line per diagnostic: `file:line:col: error[CODE]: message`.
pub fn short(name: &str, src: &[u8], diagnostics: &[Diagnostic]) -> String {
    let index = LineIndex::new(src);
    let mut out = String::new();
    for d in diagnostics {
        let at = index.line_col(d.span.start);
        out.push_str(&format!(
            "{name}:{}:{}: {}[{}]: {}\n",
            at.line,
            at.column,
            severity_name(d.severity),
            d.code,
            d.message
        ));
    }
    out
}

fn position(index: &LineIndex, span: Span) -> Value {
    let (s, e) = (
        index.line_col(span.start),
        index.line_col(span.end.max(span.start)),
    );
    json!({ "line": s.line, "column": s.column, "end_line": e.line, "end_column": e.column })
}

fn merge(mut a: Value, b: Value) -> Value {
    if let (Some(a), Value::Object(b)) = (a.as_object_mut(), b) {
        a.extend(b);
    }
    a
}

/// One file's entry of the JSON form.
pub fn json_file(name: &str, src: &[u8], diagnostics: &[Diagnostic]) -> Value {
    let index = LineIndex::new(src);
    let diags: Vec<Value> = diagnostics
        .iter()
        .map(|d| {
            let fix = d.fix.as_ref().map_or(Value::Null, |f| {
                json!({
                    "message": f.message,
                    "edits": f.edits.iter().map(|e| merge(position(&index, e.span), json!({
                        "start": e.span.start, "end": e.span.end, "replacement": e.replacement
                    }))).collect::<Vec<_>>(),
                })
            });
            merge(
                json!({
                    "severity": severity_name(d.severity),
                    "code": d.code,
                    "lint": d.lint,
                    "message": d.message,
                }),
                merge(
                    position(&index, d.span),
                    json!({
                        "start": d.span.start,
                        "end": d.span.end,
                        "labels": d.labels.iter().map(|l| merge(position(&index, l.span), json!({ "message": l.message }))).collect::<Vec<_>>(),
                        "notes": d.notes,
                        "fix": fix,
                    }),
                ),
            )
        })
        .collect();
    json!({ "file": name, "diagnostics": diags })
}

/// The whole JSON document: `{"files": [...]}`.
pub fn json(files: Vec<Value>) -> String {
    json!({ "files": files }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_counts_characters_and_survives_bad_offsets() {
        let src = "ab\nçd\n".as_bytes();
        let idx = LineIndex::new(src);
        assert_eq!(idx.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(idx.line_col(3), LineCol { line: 2, column: 1 });
        // 'ç' is two bytes: 'd' is the second character.
        assert_eq!(idx.line_col(5), LineCol { line: 2, column: 2 });
        // Inside 'ç': its own column.
        assert_eq!(idx.line_col(4), LineCol { line: 2, column: 1 });
        assert_eq!(idx.line_col(999), LineCol { line: 3, column: 1 });
    }

    #[test]
    fn non_utf8_sources_render_without_panicking() {
        let src: &[u8] = b"DUNGEON: \"\xa5\xc0\xa5\xf3\" \"D\" (1, 0)\n";
        let d = Diagnostic::error("E0000", Span::new(10, 12), "test")
            .with_label(Span::new(11, 100), "odd");
        let out = human("x.def", src, std::slice::from_ref(&d), false);
        assert!(out.contains("error[E0000]: test"), "{out}");
        assert!(short("x.def", src, std::slice::from_ref(&d))
            .starts_with("x.def:1:11: error[E0000]: test"));
        let j = json_file("x.def", src, &[d]);
        assert_eq!(j["diagnostics"][0]["column"], 11);
        assert_eq!(j["diagnostics"][0]["end_column"], 13);
    }

    #[test]
    fn colour_only_when_asked() {
        let d = Diagnostic::warning("W0000", "x", Span::new(0, 1), "w");
        assert!(!human("f", b"x", std::slice::from_ref(&d), false).contains('\u{1b}'));
        assert!(human("f", b"x", &[d], true).contains('\u{1b}'));
    }
}
