//! The lexer: bytes in, tokens out, in one linear pass that never fails.
//!
//! It works on bytes because names are byte strings in NetHack (one real
//! file is in a Japanese multibyte encoding). Whitespace and line ends produce
//! no tokens; no token ever contains a `\n`, so the preprocessing can drop a
//! line by dropping the tokens that start on it. Text the language has no
//! token for becomes an [`TokenKind::Error`] token, which the parser declares,
//! so that a bad statement is reported once and the rest still parses.
//!
//! The lexer reports nothing itself: [`crate::parse`] turns error tokens,
//! unterminated strings and oversized numbers into diagnostics, and the
//! language server reads the same tokens for semantic highlighting.

use crate::ast::KeywordKind;
use crate::span::Span;
use serde::Serialize;

/// One token: what it is and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum TokenKind {
    /// An upper-case statement keyword (`DUNGEON`, ..., `RNDCHAINLEVEL`, `TILESET`).
    Keyword(KeywordKind),
    /// A lower-case word `[a-z_][a-z0-9_]*` (descriptors, branch types,
    /// directions, variant words: the checks decide which are valid).
    Word,
    /// `-?[0-9]+`; the value may still be too large for an `i64`.
    Num,
    /// A `"..."` string. An unterminated one runs to the end of its line.
    Str {
        terminated: bool,
    },
    Colon,
    At,
    LParen,
    RParen,
    Comma,
    Plus,
    /// `#` as the first character of a line, to the end of the line.
    Comment,
    /// `#` anywhere else, to the end of the line (an extension).
    TrailingComment,
    /// `%NAME` at the start of a line (a makedefs control line).
    Flag,
    /// Text that is no token of the language.
    Error(LexError),
}

/// Why a piece of text is an [`TokenKind::Error`] token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum LexError {
    /// A run of `-` and digits that is not `-?[0-9]+` (`5-3`, a lone `-`).
    BadNumber,
    /// A word that is neither a keyword nor lower case (`Dungeon`, `HELLISH`).
    BadWord,
    /// Bytes that start no token (`;`, a lone `\r`, NUL, non-ASCII outside a
    /// string, `%` not at the start of a line).
    Unexpected,
}

impl TokenKind {
    /// Comments and `%NAME` prefixes: present in the text, invisible to the grammar.
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            TokenKind::Comment | TokenKind::TrailingComment | TokenKind::Flag
        )
    }
}

/// The keyword spelled by `text`, if any (case-sensitive, as in dgn_comp).
pub fn keyword(text: &[u8]) -> Option<KeywordKind> {
    Some(match text {
        b"DUNGEON" => KeywordKind::Dungeon,
        b"ENTRY" => KeywordKind::Entry,
        b"PROTOFILE" => KeywordKind::Protofile,
        b"DESCRIPTION" => KeywordKind::Description,
        b"LEVELDESC" => KeywordKind::LevelDesc,
        b"ALIGNMENT" => KeywordKind::Alignment,
        b"LEVALIGN" => KeywordKind::LevAlign,
        b"BRANCH" => KeywordKind::Branch,
        b"CHAINBRANCH" => KeywordKind::ChainBranch,
        b"LEVEL" => KeywordKind::Level,
        b"RNDLEVEL" => KeywordKind::RndLevel,
        b"CHAINLEVEL" => KeywordKind::ChainLevel,
        b"RNDCHLEVEL" => KeywordKind::RndChLevel,
        b"RNDCHAINLEVEL" => KeywordKind::RndChainLevel,
        b"TILESET" => KeywordKind::Tileset,
        _ => return None,
    })
}

/// Every keyword, for suggestions and completion.
pub const KEYWORDS: [KeywordKind; 15] = [
    KeywordKind::Dungeon,
    KeywordKind::Entry,
    KeywordKind::Protofile,
    KeywordKind::Description,
    KeywordKind::LevelDesc,
    KeywordKind::Alignment,
    KeywordKind::LevAlign,
    KeywordKind::Branch,
    KeywordKind::ChainBranch,
    KeywordKind::Level,
    KeywordKind::RndLevel,
    KeywordKind::ChainLevel,
    KeywordKind::RndChLevel,
    KeywordKind::RndChainLevel,
    KeywordKind::Tileset,
];

/// The largest input whose offsets fit a [`Span`]; bytes beyond it are not
/// lexed (the parser reports that).
pub const MAX_SOURCE_LEN: usize = u32::MAX as usize;

/// Splits `src` into tokens. Linear in the input, never panics; bytes past
/// [`MAX_SOURCE_LEN`] are ignored.
pub fn lex(src: &[u8]) -> Vec<Token> {
    let src = &src[..src.len().min(MAX_SOURCE_LEN)];
    let mut lexer = Lexer {
        src,
        pos: 0,
        out: Vec::with_capacity(src.len() / 6 + 4),
    };
    lexer.run();
    lexer.out
}

struct Lexer<'s> {
    src: &'s [u8],
    pos: usize,
    out: Vec<Token>,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Bytes that begin a token (or whitespace); everything else is grouped
/// into one `Unexpected` error run.
fn starts_token(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\n' | b'"' | b'#' | b':' | b'@' | b'(' | b')' | b',' | b'+' | b'-' | b'_'
    ) || b.is_ascii_alphanumeric()
}

impl<'s> Lexer<'s> {
    fn at(&self, i: usize) -> Option<u8> {
        self.src.get(i).copied()
    }

    fn push(&mut self, kind: TokenKind, start: usize, end: usize) {
        // `lex` truncated the input, so both offsets fit in u32.
        self.out.push(Token {
            kind,
            span: Span::new(start as u32, end as u32),
        });
    }

    fn at_line_start(&self, i: usize) -> bool {
        i == 0 || self.at(i - 1) == Some(b'\n')
    }

    /// End of the line containing `from`, excluding the `\n` and a `\r` before it.
    fn line_content_end(&self, from: usize) -> usize {
        let nl = self.src[from..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.src.len(), |p| from + p);
        if nl > from && self.at(nl - 1) == Some(b'\r') {
            nl - 1
        } else {
            nl
        }
    }

    fn scan_while(&self, from: usize, pred: impl Fn(u8) -> bool) -> usize {
        self.src[from..]
            .iter()
            .position(|&b| !pred(b))
            .map_or(self.src.len(), |p| from + p)
    }

    fn run(&mut self) {
        while let Some(b) = self.at(self.pos) {
            let start = self.pos;
            match b {
                b' ' | b'\t' | b'\n' => self.pos += 1,
                b'\r' if self.at(start + 1) == Some(b'\n') => self.pos += 1,
                b'#' => {
                    let end = self.line_content_end(start);
                    let kind = if self.at_line_start(start) {
                        TokenKind::Comment
                    } else {
                        TokenKind::TrailingComment
                    };
                    self.push(kind, start, end);
                    self.pos = end;
                }
                b'%' if self.at_line_start(start)
                    && self.at(start + 1).is_some_and(is_word_byte) =>
                {
                    let end = self.scan_while(start + 1, is_word_byte);
                    self.push(TokenKind::Flag, start, end);
                    self.pos = end;
                }
                b'%' => {
                    // `%NAME` away from the start of a line: one error, not two.
                    let end = self.scan_while(start + 1, is_word_byte);
                    self.push(TokenKind::Error(LexError::Unexpected), start, end);
                    self.pos = end;
                }
                b'"' => self.string(start),
                b'-' | b'0'..=b'9' => {
                    let end = self.scan_while(start, |c| c == b'-' || c.is_ascii_digit());
                    let text = &self.src[start..end];
                    let digits = text.strip_prefix(b"-").unwrap_or(text);
                    let ok = !digits.is_empty() && digits.iter().all(u8::is_ascii_digit);
                    let kind = if ok {
                        TokenKind::Num
                    } else {
                        TokenKind::Error(LexError::BadNumber)
                    };
                    self.push(kind, start, end);
                    self.pos = end;
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    let end = self.scan_while(start, is_word_byte);
                    let text = &self.src[start..end];
                    let kind = if let Some(k) = keyword(text) {
                        TokenKind::Keyword(k)
                    } else if !b.is_ascii_uppercase() && !text.iter().any(u8::is_ascii_uppercase) {
                        TokenKind::Word
                    } else {
                        TokenKind::Error(LexError::BadWord)
                    };
                    self.push(kind, start, end);
                    self.pos = end;
                }
                b':' | b'@' | b'(' | b')' | b',' | b'+' => {
                    let kind = match b {
                        b':' => TokenKind::Colon,
                        b'@' => TokenKind::At,
                        b'(' => TokenKind::LParen,
                        b')' => TokenKind::RParen,
                        b',' => TokenKind::Comma,
                        _ => TokenKind::Plus,
                    };
                    self.push(kind, start, start + 1);
                    self.pos = start + 1;
                }
                _ => {
                    // A run of bytes that start no token, so that a line of
                    // binary junk is one error, not thousands. A lone `\r` is
                    // part of the run; `\r\n` ends it.
                    let mut end = start + 1;
                    while let Some(c) = self.at(end) {
                        if starts_token(c) || (c == b'\r' && self.at(end + 1) == Some(b'\n')) {
                            break;
                        }
                        end += 1;
                    }
                    self.push(TokenKind::Error(LexError::Unexpected), start, end);
                    self.pos = end;
                }
            }
        }
    }

    fn string(&mut self, start: usize) {
        let body = start + 1;
        let stop = self.src[body..]
            .iter()
            .position(|&b| b == b'"' || b == b'\n')
            .map(|p| body + p);
        match stop {
            Some(q) if self.src[q] == b'"' => {
                self.push(TokenKind::Str { terminated: true }, start, q + 1);
                self.pos = q + 1;
            }
            _ => {
                let end = self.line_content_end(start);
                self.push(TokenKind::Str { terminated: false }, start, end);
                self.pos = end;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, &str)> {
        lex(src.as_bytes())
            .into_iter()
            .map(|t| (t.kind, &src[t.span.range()]))
            .collect()
    }

    #[test]
    fn statement_tokens() {
        use TokenKind::*;
        assert_eq!(
            kinds("RNDLEVEL:\t\"bigrm\" \"B\" @ (10, -3) 40 10\r\n"),
            vec![
                (Keyword(KeywordKind::RndLevel), "RNDLEVEL"),
                (Colon, ":"),
                (Str { terminated: true }, "\"bigrm\""),
                (Str { terminated: true }, "\"B\""),
                (At, "@"),
                (LParen, "("),
                (Num, "10"),
                (Comma, ","),
                (Num, "-3"),
                (RParen, ")"),
                (Num, "40"),
                (Num, "10"),
            ]
        );
    }

    #[test]
    fn comments_flags_and_errors() {
        use TokenKind::*;
        assert_eq!(
            kinds("# c\r\n%REINCARNATION LEVEL: x # t\r\n 5-3 - ; Hellish up %X \r \"open\r\n"),
            vec![
                (Comment, "# c"),
                (Flag, "%REINCARNATION"),
                (Keyword(KeywordKind::Level), "LEVEL"),
                (Colon, ":"),
                (Word, "x"),
                (TrailingComment, "# t"),
                (Error(LexError::BadNumber), "5-3"),
                (Error(LexError::BadNumber), "-"),
                (Error(LexError::Unexpected), ";"),
                (Error(LexError::BadWord), "Hellish"),
                (Word, "up"),
                (Error(LexError::Unexpected), "%X"),
                (Error(LexError::Unexpected), "\r"),
                (Str { terminated: false }, "\"open"),
            ]
        );
    }

    #[test]
    fn non_utf8_inside_strings_is_kept_and_outside_is_one_error() {
        let src = b"\"\x93\xfa\x96\x7b\" \xff\xfe\x00 x";
        let toks = lex(src);
        assert_eq!(toks.len(), 3);
        assert_eq!(toks[0].kind, TokenKind::Str { terminated: true });
        assert_eq!(toks[0].span, Span::new(0, 6));
        assert_eq!(toks[1].kind, TokenKind::Error(LexError::Unexpected));
        assert_eq!(toks[1].span, Span::new(7, 10));
        assert_eq!(toks[2].kind, TokenKind::Word);
    }

    #[test]
    fn no_token_contains_a_newline() {
        let src = b"\"a\nb\" # x\n%F\n\xff\n-\n";
        for t in lex(src) {
            assert!(!src[t.span.range()].contains(&b'\n'), "{t:?}");
        }
    }
}
