//! `dgn fmt` and the editors' formatting for `dungeon.lua`: the file's own
//! layout is kept (line breaks, blank lines, comments, field order, quotes)
//! and only what a reader of NetHack's file expects to be regular is made
//! so:
//!
//! - each line is indented by how many lines with an open bracket or
//!   block enclose it (brackets opened on one line count once, `dungeon =
//!   { {` indents its contents once; a block is opened by `then`, `do`,
//!   `function` or `repeat` and closed by `end` or `until`, and `else` and
//!   `elseif` close one and open the next, as in NetHack's own Lua), a
//!   line starting with closing brackets or `end` by what they close; the
//!   unit is the file's own (its first indented line at the outermost
//!   level: three spaces in NetHack's file), three spaces when it has
//!   none;
//! - trailing blanks are removed;
//! - the file ends in one line end (of its kind).
//!
//! Lines that start inside a long string or comment (`[[ ... ]]`), or a
//! string continued with `\`, are kept as written, and so are the blanks
//! at the end of a line that ends inside one; so is a comment that starts
//! its line at the first column (commented-out fields stay where they are). A file with Lua syntax
//! errors is not formatted. The result is checked before it is returned:
//! it must hold the same tokens in the same order and format to itself,
//! else nothing is changed and the reason is given.

use super::codes::{LUA_SYNTAX, LUA_TOO_COMPLEX};
use super::syntax;
use dgnkit_grammar::{Diagnostic, Span};
use full_moon::tokenizer::{Lexer, LexerResult, Symbol, Token, TokenType};

/// The indentation unit of a file that has none of its own.
const DEFAULT_UNIT: &[u8] = b"   ";

/// The formatted text, or why the file is left alone.
pub fn format(src: &[u8]) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let errors: Vec<Diagnostic> = syntax::parse(src)
        .diagnostics
        .into_iter()
        .filter(|d| d.is_error() && [LUA_SYNTAX, LUA_TOO_COMPLEX].contains(&d.code))
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    let tokens = lex(src)?;
    let out = reindent(src, &tokens);
    // Never a wrong rewrite: the same tokens, and a fixed point.
    let same = lex(&out)
        .ok()
        .is_some_and(|t| significant(&out, &t).eq(significant(src, &tokens)));
    if !same || reindent(&out, &lex(&out)?) != out {
        return Err(vec![Diagnostic::error(
            LUA_SYNTAX,
            Span::new(0, 0),
            "dgnkit cannot format this file without changing it (please report it); it is left as it is",
        )]);
    }
    Ok(out)
}

/// A token's kind and byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tok {
    kind: Kind,
    start: usize,
    end: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Blank,
    /// A bracket or a keyword that opens a block.
    Open,
    /// A bracket or a keyword that closes a block (`elseif` closes the
    /// `then` before it, and its own `then` opens the next).
    Close,
    /// `else`: closes a block and opens one.
    CloseOpen,
    /// Anything else that is written (names, numbers, strings, comments,
    /// other symbols).
    Text,
}

/// The file's tokens (offsets in `src`; bytes that are not UTF-8, and
/// backticks, are read as one unknown character each, as the reader does).
fn lex(src: &[u8]) -> Result<Vec<Tok>, Vec<Diagnostic>> {
    let text = super::syntax::lexable(src);
    let tokens: Vec<Token> = match Lexer::new(&text, full_moon::LuaVersion::lua54()).collect() {
        LexerResult::Ok(t) => t,
        LexerResult::Recovered(_, e) | LexerResult::Fatal(e) => {
            let at = e
                .first()
                .map_or(0, |e| e.range().0.bytes().min(src.len()) as u32);
            return Err(vec![Diagnostic::error(
                LUA_SYNTAX,
                Span::new(at, at),
                "Lua syntax error: the file cannot be formatted",
            )]);
        }
    };
    Ok(tokens
        .iter()
        .filter(|t| !matches!(t.token_type(), TokenType::Eof))
        .map(|t| Tok {
            kind: match t.token_type() {
                TokenType::Whitespace { .. } => Kind::Blank,
                TokenType::Symbol {
                    symbol:
                        Symbol::LeftBrace
                        | Symbol::LeftParen
                        | Symbol::LeftBracket
                        | Symbol::Then
                        | Symbol::Do
                        | Symbol::Function
                        | Symbol::Repeat,
                } => Kind::Open,
                TokenType::Symbol {
                    symbol:
                        Symbol::RightBrace
                        | Symbol::RightParen
                        | Symbol::RightBracket
                        | Symbol::End
                        | Symbol::Until
                        | Symbol::ElseIf,
                } => Kind::Close,
                TokenType::Symbol {
                    symbol: Symbol::Else,
                } => Kind::CloseOpen,
                _ => Kind::Text,
            },
            start: t.start_position().bytes().min(src.len()),
            end: t.end_position().bytes().min(src.len()),
        })
        .collect())
}

/// The written tokens' bytes, in order (a comment without the blanks
/// that end its line).
fn significant<'a>(src: &'a [u8], tokens: &'a [Tok]) -> impl Iterator<Item = &'a [u8]> + 'a {
    tokens
        .iter()
        .filter(|t| t.kind != Kind::Blank)
        .map(move |t| src[t.start..t.end].trim_ascii_end())
}

/// One line of the file.
struct Line {
    /// Where its text starts and ends (before the line end), and where
    /// the line end ends.
    start: usize,
    end: usize,
    next: usize,
    /// It starts inside a token: kept as written.
    verbatim: bool,
    /// It ends inside a token: its trailing blanks are part of it.
    keep_tail: bool,
    /// Open brackets at its start, each with the line it was opened on;
    /// after the closing brackets that start it.
    depth: usize,
}

fn reindent(src: &[u8], tokens: &[Tok]) -> Vec<u8> {
    let mut lines = split_lines(src);
    // Which token holds each line start and end.
    let inside = |at: usize| {
        tokens
            .binary_search_by(|t| {
                if t.end <= at {
                    std::cmp::Ordering::Less
                } else if t.start >= at {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .ok()
            .is_some_and(|i| tokens[i].kind == Kind::Text)
    };
    for line in &mut lines {
        // A comment written at the start of its line (commented-out
        // fields, in NetHack's file) stays there.
        line.verbatim = inside(line.start) || src[line.start..line.end].starts_with(b"--");
        line.keep_tail = line.end < line.next && inside(line.end);
    }
    // Bracket depth by lines: the stack holds the line each open bracket
    // was opened on.
    let mut stack: Vec<usize> = Vec::new();
    let mut t = 0;
    for (n, line) in lines.iter_mut().enumerate() {
        let mut leading = true;
        while t < tokens.len() && tokens[t].start < line.next {
            let tok = tokens[t];
            t += 1;
            if tok.start < line.start {
                continue;
            }
            match tok.kind {
                Kind::Blank => {}
                Kind::Close if leading => {
                    stack.pop();
                }
                Kind::CloseOpen if leading => {
                    stack.pop();
                    leading = false;
                    line.depth = distinct_lines(&stack);
                    stack.push(n);
                }
                Kind::Open | Kind::Close | Kind::Text if leading => {
                    leading = false;
                    line.depth = distinct_lines(&stack);
                    apply(&mut stack, tok.kind, n);
                }
                kind => apply(&mut stack, kind, n),
            }
        }
        if leading {
            line.depth = distinct_lines(&stack);
        }
    }
    let unit = indent_unit(src, &lines);
    let mut out = Vec::with_capacity(src.len() + src.len() / 8);
    for line in &lines {
        let text = &src[line.start..line.end];
        if line.verbatim {
            out.extend_from_slice(text);
        } else {
            let body = text.trim_ascii_start();
            let body = if line.keep_tail {
                body
            } else {
                body.trim_ascii_end()
            };
            if !body.is_empty() {
                for _ in 0..line.depth {
                    out.extend_from_slice(unit);
                }
            }
            out.extend_from_slice(body);
        }
        out.extend_from_slice(&src[line.end..line.next]);
    }
    // One line end at the end of the file, of the file's kind.
    if !out.is_empty() {
        let nl: &[u8] = if crlf(src) { b"\r\n" } else { b"\n" };
        while out.last().is_some_and(|b| matches!(b, b'\n' | b'\r')) {
            out.pop();
        }
        out.extend_from_slice(nl);
    }
    out
}

/// Whether the file's first line end is `\r\n`.
fn crlf(src: &[u8]) -> bool {
    src.iter()
        .position(|&b| b == b'\n')
        .is_some_and(|p| p > 0 && src[p - 1] == b'\r')
}

fn apply(stack: &mut Vec<usize>, kind: Kind, line: usize) {
    match kind {
        Kind::Open => stack.push(line),
        Kind::Close => {
            stack.pop();
        }
        Kind::CloseOpen => {
            stack.pop();
            stack.push(line);
        }
        _ => {}
    }
}

/// How many lines opened the brackets still open.
fn distinct_lines(stack: &[usize]) -> usize {
    let mut n = 0;
    let mut last = None;
    for &l in stack {
        if last != Some(l) {
            n += 1;
            last = Some(l);
        }
    }
    n
}

fn split_lines(src: &[u8]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    loop {
        let nl = src[start..].iter().position(|&b| b == b'\n');
        let (end, next) = match nl {
            Some(p) => {
                let at = start + p;
                let end = if at > start && src[at - 1] == b'\r' {
                    at - 1
                } else {
                    at
                };
                (end, at + 1)
            }
            None => (src.len(), src.len()),
        };
        lines.push(Line {
            start,
            end,
            next,
            verbatim: false,
            keep_tail: false,
            depth: 0,
        });
        if next >= src.len() {
            break;
        }
        start = next;
    }
    lines
}

/// The file's indentation unit: the blanks of its first line indented
/// once.
fn indent_unit<'a>(src: &'a [u8], lines: &[Line]) -> &'a [u8] {
    lines
        .iter()
        .filter(|l| l.depth == 1 && !l.verbatim)
        .map(|l| {
            let text = &src[l.start..l.end];
            let n = text
                .iter()
                .position(|b| !matches!(b, b' ' | b'\t'))
                .unwrap_or(0);
            &text[..n]
        })
        .find(|blanks| !blanks.is_empty())
        .unwrap_or(DEFAULT_UNIT)
}

#[cfg(test)]
mod tests {
    use super::format;

    fn fmt(src: &str) -> String {
        String::from_utf8(format(src.as_bytes()).expect("formats")).unwrap()
    }

    #[test]
    fn reindents_by_lines_of_open_brackets() {
        let src = "-- head\ndungeon = { {\n  name = \"A\",   \n levels = {\n{ name = \"x\", base = 1 },\n      },\n} }";
        assert_eq!(
            fmt(src),
            "-- head\ndungeon = { {\n  name = \"A\",\n  levels = {\n    { name = \"x\", base = 1 },\n  },\n} }\n"
        );
    }

    #[test]
    fn keeps_comments_blank_lines_and_long_strings() {
        let src = "dungeon = {\n   --[[ a\n  long comment ]]\n\n   { name = [[two\n  lines  ]], base = 1 }, -- why\n-- bonetag = \"E\"\n}\n";
        assert_eq!(fmt(src), src);
        // Idempotent on NetHack's layout.
        let nested = "dungeon = {\n   {\n      name = \"D\",\n      levels = {\n         { name = \"o\" },\n      },\n   },\n}\n";
        assert_eq!(fmt(nested), nested);
    }

    #[test]
    fn blocks_are_indented_like_brackets() {
        let src = "local t = { 1, 2 }\nif percent(50) then\nt[1], t[2] = t[2], t[1]\nelseif x then\nlocal function f()\n return 1\nend\nelse\nfor i = 1, 2 do t[i] = 0 end\nend\ndungeon = {\n{ name = \"D\", f = function() return 1 end },\n}\n";
        assert_eq!(
            fmt(src),
            "local t = { 1, 2 }\nif percent(50) then\n   t[1], t[2] = t[2], t[1]\nelseif x then\n   local function f()\n      return 1\n   end\nelse\n   for i = 1, 2 do t[i] = 0 end\nend\ndungeon = {\n   { name = \"D\", f = function() return 1 end },\n}\n"
        );
        // `repeat ... until` and a block inside a table's field.
        let src = "repeat\nn = n + 1\nuntil n > 3\nx = {\nf = function()\nreturn 2\nend,\n}\n";
        assert_eq!(
            fmt(src),
            "repeat\n   n = n + 1\nuntil n > 3\nx = {\n   f = function()\n      return 2\n   end,\n}\n"
        );
    }

    #[test]
    fn crlf_files_keep_their_line_ends() {
        let src = "dungeon = {\r\n{ name = \"D\" },\r\n}";
        assert_eq!(fmt(src), "dungeon = {\r\n   { name = \"D\" },\r\n}\r\n");
    }

    #[test]
    fn refuses_syntax_errors() {
        let errs = format(b"dungeon = { { name = \"D\" }").unwrap_err();
        assert!(errs.iter().all(|d| d.is_error()), "{errs:?}");
        assert!(!errs.is_empty());
    }
}
