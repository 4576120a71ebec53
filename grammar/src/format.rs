//! `dgn fmt`: rewrites a file in NetHack's own layout (see [`crate::printer`]
//! for a statement's layout) while keeping everything that is not a
//! statement:
//!
//! - one statement per line; a statement written over several lines is
//!   joined, several on one line are split;
//! - whole-line comments stay where they are, with trailing blanks removed;
//!   a trailing `# ...` comment stays after its statement, one space after
//!   it; one that shares its line with no statement end gets a line of its
//!   own;
//! - blank lines between items are kept, runs of more than two become two;
//!   none at the start, and the file ends in one line end;
//! - a `%NAME ` prefix stays in front of each statement that starts on its
//!   line. A line that preprocessing drops is formatted on its own when its
//!   rest is exactly one statement, and kept as written otherwise;
//! - line ends follow the file's first line end (`\n` or `\r\n`).
//!
//! Formatting is idempotent and keeps the statement sequence, so it never
//! changes the compiled output. Files with syntax errors are not formatted.

use crate::ast::{Comment, FlagLine, SourceFile, Statement};
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::printer::print_statement;
use crate::span::Span;
use crate::{parse, ParseOptions};

/// Most blank lines kept in a row.
pub const MAX_BLANK_LINES: usize = 2;

/// The formatted text, or the diagnostics when the file has errors.
pub fn format(src: &[u8], opts: &ParseOptions) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let parsed = parse(src, opts);
    if parsed.has_errors() {
        return Err(parsed.diagnostics);
    }
    let lines = Lines::new(src);
    let file = &parsed.file;

    // Lines of `%NAME` prefixes, in order (flag lines are recorded in order).
    let flag_line_nos: Vec<usize> = file
        .flag_lines
        .iter()
        .map(|f| lines.line_of(f.span.start))
        .collect();
    let refusals = refusals(file, &lines, &flag_line_nos);
    if !refusals.is_empty() {
        return Err(refusals);
    }
    let items = items(file, &lines, &flag_line_nos);

    let eol: &[u8] = if lines.crlf { b"\r\n" } else { b"\n" };
    let mut out = Vec::with_capacity(src.len() + src.len() / 8);
    let mut covered: Option<usize> = None;
    for item in &items {
        if let Some(done) = covered {
            let blanks = item.first.saturating_sub(done + 1).min(MAX_BLANK_LINES);
            for _ in 0..blanks {
                out.extend_from_slice(eol);
            }
        }
        covered = Some(covered.map_or(item.last, |d| d.max(item.last)));
        write_item(src, &lines, opts, item, &mut out);
        out.extend_from_slice(eol);
    }
    Ok(out)
}

/// Every statement spanning lines must stay clear of `%NAME` lines:
/// joining it would move text into or out of the option's control. One
/// error per statement that does not.
fn refusals(file: &SourceFile, lines: &Lines, flag_line_nos: &[usize]) -> Vec<Diagnostic> {
    let mut refusals = Vec::new();
    for stmt in &file.statements {
        let (first, last) = lines.extent(stmt.span);
        if first == last {
            continue;
        }
        let i = flag_line_nos.partition_point(|&l| l < first);
        if let Some(flag) = file
            .flag_lines
            .get(i)
            .filter(|_| flag_line_nos.get(i).is_some_and(|&l| l <= last))
        {
            refusals.push(
                Diagnostic::error(
                    codes::FORMAT_FLAG_CONTINUATION,
                    stmt.span,
                    "this statement spans several lines, one of them a `%NAME` line; it cannot be joined into one line without changing what the option controls",
                )
                .with_label(flag.span, "the option's line")
                .with_note("put the statement on one line, then format again"),
            );
        }
    }
    refusals
}

/// What the output holds, in source order: the statements with their
/// prefixes and trailing comments, the other comments, and the `%NAME`
/// lines that start no statement.
fn items<'a>(file: &'a SourceFile, lines: &Lines, flag_line_nos: &[usize]) -> Vec<Item<'a>> {
    let (attached, loose_comments) = attach_comments(file, lines);
    // Kept `%NAME` prefixes by line; a kept flag line that starts no
    // statement is written on its own, with the comment it may carry.
    let kept_at = |line: usize| {
        let i = flag_line_nos.partition_point(|&l| l < line);
        file.flag_lines
            .get(i)
            .filter(|f| f.kept && flag_line_nos.get(i) == Some(&line))
    };
    // Statements are in source order, so their first lines are sorted.
    let stmt_lines: Vec<usize> = file
        .statements
        .iter()
        .map(|s| lines.line_of(s.span.start))
        .collect();
    let starts_statement = |line: usize| stmt_lines.binary_search(&line).is_ok();

    let mut items: Vec<Item> = Vec::new();
    for (i, stmt) in file.statements.iter().enumerate() {
        let (first, last) = lines.extent(stmt.span);
        let prefix = kept_at(first).map(|f| f.span);
        items.push(Item {
            start: stmt.span.start,
            first,
            last,
            what: What::Stmt(stmt, prefix, attached[i]),
        });
    }
    for c in loose_comments {
        let line = lines.line_of(c.span.start);
        if kept_at(line).is_none() || starts_statement(line) {
            items.push(Item {
                start: c.span.start,
                first: line,
                last: line,
                what: What::Comment(c.span),
            });
        }
    }
    for (f, &line) in file.flag_lines.iter().zip(flag_line_nos) {
        if !f.kept {
            items.push(Item {
                start: f.span.start,
                first: line,
                last: line,
                what: What::Dropped(f),
            });
        } else if !starts_statement(line) {
            items.push(Item {
                start: f.span.start,
                first: line,
                last: line,
                what: What::FlagOnly(f),
            });
        }
    }
    items.sort_by_key(|it| it.start);
    items
}

/// Trailing comments that follow the last statement ending on their line
/// are written with it: per statement, its comment; and the others.
fn attach_comments<'a>(
    file: &'a SourceFile,
    lines: &Lines,
) -> (Vec<Option<&'a Comment>>, Vec<&'a Comment>) {
    let mut attached: Vec<Option<&Comment>> = vec![None; file.statements.len()];
    let mut loose_comments = Vec::new();
    let mut si = 0;
    for c in &file.comments {
        while si < file.statements.len() && file.statements[si].span.end <= c.span.start {
            si += 1;
        }
        let owner = si.checked_sub(1).filter(|&i| {
            c.trailing
                && lines.line_of(file.statements[i].span.end.saturating_sub(1))
                    == lines.line_of(c.span.start)
                && attached[i].is_none()
        });
        match owner {
            Some(i) => attached[i] = Some(c),
            None => loose_comments.push(c),
        }
    }
    (attached, loose_comments)
}

/// One item's line, without its line end.
fn write_item(src: &[u8], lines: &Lines, opts: &ParseOptions, item: &Item, out: &mut Vec<u8>) {
    match item.what {
        What::Stmt(stmt, prefix, comment) => {
            if let Some(p) = prefix {
                out.extend_from_slice(slice(src, p));
                out.push(b' ');
            }
            print_statement(stmt, out);
            if let Some(c) = comment {
                out.push(b' ');
                out.extend_from_slice(trim_end(slice(src, c.span)));
            }
        }
        What::Comment(span) => out.extend_from_slice(trim_end(slice(src, span))),
        What::Dropped(flag) => dropped_line(src, lines, flag, opts, out),
        What::FlagOnly(flag) => {
            // Only blanks or a comment can follow (a statement token
            // would belong to a statement crossing lines, refused above).
            out.extend_from_slice(slice(src, flag.span));
            let rest = trim_end(slice(
                src,
                Span::new(flag.span.end, lines.content_end(flag.span.end)),
            ));
            let rest = trim_start(rest);
            if !rest.is_empty() {
                out.push(b' ');
                out.extend_from_slice(rest);
            }
        }
    }
}

struct Item<'a> {
    start: u32,
    first: usize,
    last: usize,
    what: What<'a>,
}

enum What<'a> {
    /// A statement, the `%NAME` prefix of its line, its trailing comment.
    Stmt(&'a Statement, Option<Span>, Option<&'a Comment>),
    Comment(Span),
    Dropped(&'a FlagLine),
    FlagOnly(&'a FlagLine),
}

/// A dropped `%NAME` line: formatted when its rest is one clean statement
/// (and an optional trailing comment), as written otherwise.
fn dropped_line(
    src: &[u8],
    lines: &Lines,
    flag: &FlagLine,
    opts: &ParseOptions,
    out: &mut Vec<u8>,
) {
    let line_end = lines.content_end(flag.span.end);
    let rest = trim_end(slice(src, Span::new(flag.span.end, line_end)));
    let sub = parse(rest, opts);
    let clean = !sub.has_errors()
        && sub.diagnostics.is_empty()
        && sub.file.flag_lines.is_empty()
        && sub.file.statements.len() == 1
        && sub.file.comments.iter().all(|c| c.trailing)
        && sub.file.comments.len() <= 1;
    out.extend_from_slice(slice(src, flag.span));
    match sub.file.statements.first().filter(|_| clean) {
        Some(stmt) => {
            out.push(b' ');
            print_statement(stmt, out);
            if let Some(c) = sub.file.comments.first() {
                out.push(b' ');
                out.extend_from_slice(trim_end(slice(rest, c.span)));
            }
        }
        None => out.extend_from_slice(rest),
    }
}

fn slice(src: &[u8], span: Span) -> &[u8] {
    src.get(span.range()).unwrap_or_default()
}

fn trim_end(text: &[u8]) -> &[u8] {
    let n = text
        .iter()
        .rposition(|b| !matches!(b, b' ' | b'\t' | b'\r'))
        .map_or(0, |p| p + 1);
    &text[..n]
}

fn trim_start(text: &[u8]) -> &[u8] {
    let n = text
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t'))
        .unwrap_or(text.len());
    &text[n..]
}

/// Line starts of the source, for turning offsets into line numbers.
struct Lines<'s> {
    src: &'s [u8],
    starts: Vec<u32>,
    crlf: bool,
}

impl<'s> Lines<'s> {
    fn new(src: &'s [u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(
            src.iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        let crlf = src
            .iter()
            .position(|&b| b == b'\n')
            .is_some_and(|i| i > 0 && src[i - 1] == b'\r');
        Lines { src, starts, crlf }
    }

    /// 0-based line of `offset`.
    fn line_of(&self, offset: u32) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// First and last line of a non-empty span.
    fn extent(&self, span: Span) -> (usize, usize) {
        (
            self.line_of(span.start),
            self.line_of(span.end.saturating_sub(1).max(span.start)),
        )
    }

    /// End of the line holding `offset`, before its `\n`.
    fn content_end(&self, offset: u32) -> u32 {
        crate::preprocess::line_end(self.src, offset as usize) as u32
    }
}
