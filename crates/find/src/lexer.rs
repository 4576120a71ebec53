//! Tokens of a `dgn find` query, with byte spans into the query text.

// A query stops at its first error, built once on that path: the size of
// the error value costs nothing here.
#![allow(clippy::result_large_err)]

use super::codes;
use dgnkit_grammar::{Diagnostic, Span};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A word: a level name, a keyword or a property.
    Ident(String),
    /// A double-quoted string (`\"` and `\\` escape).
    Str(Vec<u8>),
    Int(i64),
    Dot,
    DotDot,
    DotDotEq,
    Comma,
    LParen,
    RParen,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    End,
}

impl Tok {
    /// How the token is named in a message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(w) => format!("`{w}`"),
            Tok::Str(s) => format!("\"{}\"", String::from_utf8_lossy(s)),
            Tok::Int(n) => format!("`{n}`"),
            Tok::Dot => "`.`".into(),
            Tok::DotDot => "`..`".into(),
            Tok::DotDotEq => "`..=`".into(),
            Tok::Comma => "`,`".into(),
            Tok::LParen => "`(`".into(),
            Tok::RParen => "`)`".into(),
            Tok::Eq => "`==`".into(),
            Tok::Ne => "`!=`".into(),
            Tok::Lt => "`<`".into(),
            Tok::Le => "`<=`".into(),
            Tok::Gt => "`>`".into(),
            Tok::Ge => "`>=`".into(),
            Tok::End => "the end of the query".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// The tokens of `src`, ending with [`Tok::End`]; the first error stops.
pub fn lex(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0usize;
    let span = |a: usize, b: usize| Span::new(a as u32, b as u32);
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let two = bytes.get(i + 1).copied();
        let tok = match b {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b',' => Tok::Comma,
            b'.' if two == Some(b'.') && bytes.get(i + 2) == Some(&b'=') => Tok::DotDotEq,
            b'.' if two == Some(b'.') => Tok::DotDot,
            b'.' => Tok::Dot,
            b'=' if two == Some(b'=') => Tok::Eq,
            b'!' if two == Some(b'=') => Tok::Ne,
            b'<' if two == Some(b'=') => Tok::Le,
            b'>' if two == Some(b'=') => Tok::Ge,
            b'<' => Tok::Lt,
            b'>' => Tok::Gt,
            b'=' => {
                return Err(Diagnostic::error(
                    codes::BAD_CHARACTER,
                    span(i, i + 1),
                    "`=` alone compares nothing",
                )
                .with_label(span(i, i + 1), "write `==`"))
            }
            b'"' => {
                let mut s = Vec::new();
                let mut j = i + 1;
                loop {
                    match bytes.get(j) {
                        None => {
                            return Err(Diagnostic::error(
                                codes::UNCLOSED_STRING,
                                span(i, bytes.len()),
                                "this string has no closing `\"`",
                            )
                            .with_label(span(i, bytes.len()), "add a `\"` where the name ends"))
                        }
                        Some(b'"') => break,
                        Some(b'\\') if matches!(bytes.get(j + 1), Some(b'"' | b'\\')) => {
                            s.push(bytes[j + 1]);
                            j += 2;
                        }
                        Some(&c) => {
                            s.push(c);
                            j += 1;
                        }
                    }
                }
                out.push(Token {
                    tok: Tok::Str(s),
                    span: span(i, j + 1),
                });
                i = j + 1;
                continue;
            }
            b'0'..=b'9' | b'-' if b != b'-' || two.is_some_and(|c| c.is_ascii_digit()) => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                let text = &src[i..j];
                let Ok(n) = text.parse::<i64>() else {
                    return Err(Diagnostic::error(
                        codes::BAD_NUMBER,
                        span(i, j),
                        format!("`{text}` does not fit in 64 bits"),
                    )
                    .with_label(span(i, j), "too large"));
                };
                if j < bytes.len() && word_byte(bytes[j]) && bytes[j] != b'-' {
                    let mut k = j;
                    while k < bytes.len() && word_byte(bytes[k]) {
                        k += 1;
                    }
                    return Err(Diagnostic::error(
                        codes::BAD_NUMBER,
                        span(i, k),
                        format!("`{}` is neither a number nor a name", &src[i..k]),
                    )
                    .with_label(
                        span(i, k),
                        "a name starting with a digit needs double quotes",
                    )
                    .with_note(format!("write \"{}\" for a level so named", &src[i..k])));
                }
                out.push(Token {
                    tok: Tok::Int(n),
                    span: span(i, j),
                });
                i = j;
                continue;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let mut j = i + 1;
                while j < bytes.len() && word_byte(bytes[j]) {
                    j += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(src[i..j].to_string()),
                    span: span(i, j),
                });
                i = j;
                continue;
            }
            _ => {
                let len = src[i..].chars().next().map_or(1, char::len_utf8);
                let shown = &src[i..i + len];
                let help = match b {
                    b'&' => "write `and`",
                    b'|' => "write `or`",
                    b'!' => "write `not`",
                    _ => "a query is made of names, numbers, strings, comparisons, `and`, `or`, `not` and parentheses",
                };
                return Err(Diagnostic::error(
                    codes::BAD_CHARACTER,
                    span(i, i + len),
                    format!("`{shown}` has no meaning in a query"),
                )
                .with_label(span(i, i + len), help));
            }
        };
        i = start
            + match tok {
                Tok::DotDot | Tok::Eq | Tok::Ne | Tok::Le | Tok::Ge => 2,
                Tok::DotDotEq => 3,
                _ => 1,
            };
        out.push(Token {
            tok,
            span: span(start, i),
        });
    }
    out.push(Token {
        tok: Tok::End,
        span: span(bytes.len(), bytes.len()),
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn tokens() {
        assert_eq!(
            toks(r#"x-strt.depth in -1..=5 and "a\"b" != 3"#),
            vec![
                Tok::Ident("x-strt".into()),
                Tok::Dot,
                Tok::Ident("depth".into()),
                Tok::Ident("in".into()),
                Tok::Int(-1),
                Tok::DotDotEq,
                Tok::Int(5),
                Tok::Ident("and".into()),
                Tok::Str(b"a\"b".to_vec()),
                Tok::Ne,
                Tok::Int(3),
                Tok::End
            ]
        );
        assert_eq!(toks("1..3")[1], Tok::DotDot);
    }

    #[test]
    fn errors_have_codes_and_spans() {
        let e = lex("bigrm & oracle").unwrap_err();
        assert_eq!((e.code, e.span), (codes::BAD_CHARACTER, Span::new(6, 7)));
        let e = lex("tune == \"AB").unwrap_err();
        assert_eq!((e.code, e.span), (codes::UNCLOSED_STRING, Span::new(8, 11)));
        let e = lex("oracle.depth == 99999999999999999999").unwrap_err();
        assert_eq!(e.code, codes::BAD_NUMBER);
        assert_eq!(lex("a = 1").unwrap_err().code, codes::BAD_CHARACTER);
        assert_eq!(lex("3abc").unwrap_err().code, codes::BAD_NUMBER);
        assert_eq!(lex("é").unwrap_err().span, Span::new(0, 2));
    }
}
