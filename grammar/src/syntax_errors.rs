//! Messages for lexical errors and for the statements the grammar gave up on.
//!
//! LALRPOP reports an unexpected token with the set of terminals it would
//! have accepted; we turn that set, plus the statement parsed so far, into
//! what a person writing dungeon.def needs: what is missing, an example of
//! the right form, and a fix where one is obvious.

use crate::ast::KeywordKind;
use crate::codes;
use crate::diagnostic::{Diagnostic, Edit};
use crate::lexer::{self, LexError, Token, TokenKind};
use crate::span::Span;
use crate::syntax::{Recovery, Tok};
use lalrpop_util::ParseError;

/// Lower-case words some dialect accepts somewhere; used only to suggest a
/// spelling for a mis-cased word.
const VALUE_WORDS: &[&str] = &[
    "up",
    "down",
    "stair",
    "no_up",
    "no_down",
    "portal",
    "town",
    "hellish",
    "mazelike",
    "roguelike",
    "unaligned",
    "noalign",
    "chaotic",
    "neutral",
    "lawful",
    "iceq",
    "vecnad",
    "gtown",
    "purg",
    "hdgn",
];

/// Longest text quoted in a message before it is cut.
const QUOTE_MAX: usize = 40;

/// `text` for a message: lossy UTF-8, control bytes escaped, cut when long.
pub fn quote(text: &[u8]) -> String {
    let lossy = String::from_utf8_lossy(text);
    let mut out = String::new();
    for (n, c) in lossy.chars().enumerate() {
        if n == QUOTE_MAX {
            out.push('…');
            break;
        }
        match c {
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

fn slice(src: &[u8], span: Span) -> &[u8] {
    src.get(span.range()).unwrap_or_default()
}

/// The syntax of each statement, for notes.
pub fn statement_syntax(kind: KeywordKind) -> &'static str {
    match kind {
        KeywordKind::Dungeon => "DUNGEON: \"name\" \"bones\" (base, rand) [chance]",
        KeywordKind::Entry => "ENTRY: level",
        KeywordKind::Protofile => "PROTOFILE: \"file\"",
        KeywordKind::Description => "DESCRIPTION: hellish | mazelike | roguelike",
        KeywordKind::Alignment => "ALIGNMENT: lawful | neutral | chaotic | unaligned",
        KeywordKind::LevelDesc => "LEVELDESC: town | hellish | mazelike | roguelike | unaligned",
        KeywordKind::LevAlign => "LEVALIGN: lawful | neutral | chaotic | unaligned",
        KeywordKind::Branch => "BRANCH: \"dungeon\" @ (base, rand) [stair | no_up | no_down | portal] [up | down]",
        KeywordKind::ChainBranch => {
            "CHAINBRANCH: \"dungeon\" \"level\" + (base, rand) [stair | no_up | no_down | portal] [up | down]"
        }
        KeywordKind::Level => "LEVEL: \"name\" \"bones\" @ (base, rand) [chance]",
        KeywordKind::RndLevel => "RNDLEVEL: \"name\" \"bones\" @ (base, rand) [chance] variants",
        KeywordKind::ChainLevel => "CHAINLEVEL: \"name\" \"bones\" \"level\" + (base, rand) [chance]",
        KeywordKind::RndChLevel | KeywordKind::RndChainLevel => {
            "RNDCHLEVEL: \"name\" \"bones\" \"level\" + (base, rand) [chance] variants"
        }
        KeywordKind::Tileset => "TILESET: word | number",
    }
}

/// The diagnostic for a lexical problem in an active token, if it has one.
pub fn lexical(src: &[u8], tok: &Token) -> Option<Diagnostic> {
    let text = slice(src, tok.span);
    let d = match tok.kind {
        TokenKind::Str { terminated: false } => Diagnostic::error(
            codes::UNTERMINATED_STRING,
            tok.span,
            "this string has no closing `\"` on its line",
        )
        .with_note("strings cannot span lines (NetHack's dgn_comp would run on into the next line and miscount line numbers)")
        .with_fix("close the string", vec![Edit { span: Span::new(tok.span.end, tok.span.end), replacement: "\"".into() }]),
        TokenKind::Num => {
            let s = std::str::from_utf8(text).ok()?;
            if s.parse::<i64>().is_ok() {
                return None;
            }
            Diagnostic::error(codes::NUMBER_TOO_LARGE, tok.span, format!("the number `{}` is too large", quote(text)))
                .with_note("numbers must fit in 64 bits; NetHack's own fields are much smaller (levels go to 32)")
        }
        TokenKind::Error(LexError::BadNumber) => {
            if text == b"-" {
                Diagnostic::error(codes::BAD_NUMBER, tok.span, "a lone `-` is not a number")
                    .with_note("NetHack's dgn_comp silently reads it as 0; write the number, like `-1`")
            } else {
                Diagnostic::error(codes::BAD_NUMBER, tok.span, format!("`{}` is not a number", quote(text)))
                    .with_note("a number is an optional `-` and digits; NetHack's dgn_comp silently reads only the part before the second `-`")
            }
        }
        TokenKind::Error(LexError::BadWord) => bad_word(text, tok.span),
        TokenKind::Error(LexError::Unexpected) => unexpected_bytes(text, tok.span),
        _ => return None,
    };
    Some(d)
}

fn bad_word(text: &[u8], span: Span) -> Diagnostic {
    let word = String::from_utf8_lossy(text);
    let upper = word.to_ascii_uppercase();
    let lower = word.to_ascii_lowercase();
    if let Some(k) = lexer::keyword(upper.as_bytes()) {
        let k = k.as_str();
        return Diagnostic::error(
            codes::BAD_WORD,
            span,
            format!("keywords are upper case: `{word}` should be `{k}`"),
        )
        .with_fix(
            format!("write `{k}`"),
            vec![Edit {
                span,
                replacement: k.into(),
            }],
        );
    }
    if VALUE_WORDS.contains(&lower.as_str()) {
        return Diagnostic::error(
            codes::BAD_WORD,
            span,
            format!("value words are lower case: `{word}` should be `{lower}`"),
        )
        .with_note(
            "dgn_comp's manual page shows them in upper case, but its lexer only knows lower case",
        )
        .with_fix(
            format!("write `{lower}`"),
            vec![Edit {
                span,
                replacement: lower.clone(),
            }],
        );
    }
    let close = (text.len() <= 20)
        .then(|| {
            lexer::KEYWORDS
                .iter()
                .map(|k| k.as_str())
                .find(|k| edit_distance(upper.as_bytes(), k.as_bytes()) <= 2)
        })
        .flatten();
    match close {
        Some(k) => Diagnostic::error(codes::BAD_WORD, span, format!("unknown keyword `{word}`; did you mean `{k}`?"))
            .with_fix(format!("write `{k}`"), vec![Edit { span, replacement: k.into() }]),
        None => Diagnostic::error(codes::BAD_WORD, span, format!("`{}` is not a keyword or value word", quote(text)))
            .with_note("keywords are upper case (`LEVEL`), value words lower case (`mazelike`), and names go in double quotes (`\"oracle\"`)"),
    }
}

fn unexpected_bytes(text: &[u8], span: Span) -> Diagnostic {
    let first = text.first().copied().unwrap_or(0);
    let what = match first {
        b'\r' => "carriage return that does not end a line".to_string(),
        0 => "NUL byte".to_string(),
        b'%' if text.len() == 1 => {
            "`%` without an option name (a makedefs line is `%NAME rest`)".to_string()
        }
        b'%' => format!(
            "`{}`: a makedefs option works only at the start of a line",
            quote(text)
        ),
        0x80.. => match std::str::from_utf8(text) {
            Ok(s) => format!(
                "`{}` (text outside double quotes must be ASCII)",
                quote(s.as_bytes())
            ),
            Err(_) => {
                "bytes that are not text (outside double quotes only ASCII is allowed)".to_string()
            }
        },
        c if c.is_ascii_graphic() => format!("`{}`", quote(text)),
        c => format!("control character 0x{c:02x}"),
    };
    Diagnostic::error(codes::UNEXPECTED_CHAR, span, format!("unexpected {what}"))
}

/// Levenshtein distance of two short byte strings.
fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// What the parser expected, grouped the way messages talk about it.
struct Expected {
    keyword: bool,
    colon: bool,
    string: bool,
    word: bool,
    number: bool,
    at: bool,
    plus: bool,
    lparen: bool,
    comma: bool,
    rparen: bool,
}

impl Expected {
    fn new(list: &[String]) -> Self {
        let has = |t: &str| list.iter().any(|e| e.trim_matches('"') == t);
        Expected {
            keyword: list
                .iter()
                .any(|e| lexer::keyword(e.trim_matches('"').as_bytes()).is_some()),
            colon: has(":"),
            string: has("STR"),
            word: has("WORD"),
            number: has("NUM"),
            at: has("@"),
            plus: has("+"),
            lparen: has("("),
            comma: has(","),
            rparen: has(")"),
        }
    }
}

/// The diagnostic for a statement the grammar skipped, or `None` when the
/// culprit is an error token the lexer already reported.
///
/// `tokens` are the tokens the grammar saw, in order.
pub fn recovery(src: &[u8], tokens: &[Token], rec: &Recovery) -> Option<Diagnostic> {
    let (found, expected) = match &rec.error {
        ParseError::UnrecognizedToken {
            token: (l, tok, _),
            expected,
        } => {
            if *tok == Tok::Error {
                return None;
            }
            let i = tokens.partition_point(|t| t.span.start < *l);
            (tokens.get(i).copied(), expected.as_slice())
        }
        ParseError::UnrecognizedEof { expected, .. } => (None, expected.as_slice()),
        ParseError::ExtraToken { token: (l, _, r) } => {
            return Some(Diagnostic::error(
                codes::UNEXPECTED_TOKEN,
                Span::new(*l, *r),
                "unexpected text",
            ))
        }
        ParseError::InvalidToken { location } => {
            let at = Span::new(*location, *location);
            return Some(Diagnostic::error(
                codes::UNEXPECTED_CHAR,
                at,
                "unexpected text",
            ));
        }
        ParseError::User { error } => match *error {},
    };
    let end = found.map_or(u32::MAX, |t| t.span.start);
    // The statement parsed so far: tokens from the recovery start to the culprit.
    let first = tokens.partition_point(|t| t.span.start < rec.span.start);
    let last = tokens.partition_point(|t| t.span.start < end);
    let so_far = tokens.get(first..last).unwrap_or_default();
    if so_far.is_empty() {
        // Nothing of a statement was parsed: the culprit stands where a
        // statement should start. (LALRPOP's expected set is unreliable
        // here: it may describe the statement already reduced.)
        return Some(no_statement(src, tokens, last, found));
    }
    Some(describe(src, so_far, found, &Expected::new(expected)))
}

/// A culprit where a statement should start: either right after a complete
/// statement on the same line, or at the start of a line.
fn no_statement(src: &[u8], tokens: &[Token], index: usize, found: Option<Token>) -> Diagnostic {
    let prev = index.checked_sub(1).and_then(|i| tokens.get(i));
    let Some(found) = found else {
        return Diagnostic::error(
            codes::UNEXPECTED_TOKEN,
            Span::new(0, 0),
            "unexpected end of the file",
        );
    };
    if prev.is_some_and(|p| !on_later_line(src, p, &found)) {
        // The keyword of the statement that just ended.
        let kw = tokens[..index].iter().rev().find_map(|t| match t.kind {
            TokenKind::Keyword(k) => Some(k),
            _ => None,
        });
        if let Some(k) = kw {
            return Diagnostic::error(
                codes::UNEXPECTED_TOKEN,
                found.span,
                format!(
                    "unexpected {} after the end of the `{}` statement",
                    describe_token(src, &found, false),
                    k.as_str()
                ),
            )
            .with_note(format!("syntax: `{}`", statement_syntax(k)));
        }
    }
    let mut d = Diagnostic::error(
        codes::UNEXPECTED_TOKEN,
        found.span,
        format!(
            "expected a statement, like `DUNGEON:` or `LEVEL:`, found {}",
            describe_token(src, &found, true)
        ),
    );
    let upper = String::from_utf8_lossy(slice(src, found.span)).to_ascii_uppercase();
    if let (TokenKind::Word, Some(k)) = (found.kind, lexer::keyword(upper.as_bytes())) {
        d = d.with_fix(
            format!("write `{}`", k.as_str()),
            vec![Edit {
                span: found.span,
                replacement: k.as_str().into(),
            }],
        );
    }
    d
}

fn on_later_line(src: &[u8], prev: &Token, found: &Token) -> bool {
    slice(src, Span::new(prev.span.end, found.span.start)).contains(&b'\n')
}

fn describe_token(src: &[u8], tok: &Token, article: bool) -> String {
    let text = slice(src, tok.span);
    let the = if article { "the " } else { "" };
    match tok.kind {
        TokenKind::Keyword(k) => format!("{the}keyword `{}`", k.as_str()),
        TokenKind::Str { .. } => format!("{the}string `{}`", quote(text)),
        TokenKind::Num => format!("{the}number `{}`", quote(text)),
        _ => format!("`{}`", quote(text)),
    }
}

/// What [`describe`] knows of the statement that failed to parse.
struct Context<'a> {
    src: &'a [u8],
    so_far: &'a [Token],
    found: Option<Token>,
    /// The statement's keyword and its span.
    keyword: Option<(KeywordKind, Span)>,
    kw: Option<KeywordKind>,
    kw_text: &'static str,
    prev_kind: Option<TokenKind>,
    /// The culprit is on a later line than the statement's last token.
    line_ended: bool,
    /// A complete statement followed by something that starts no
    /// statement.
    complete: bool,
}

/// A suggested edit and its message.
type Fix = Option<(String, Edit)>;

fn describe(src: &[u8], so_far: &[Token], found: Option<Token>, exp: &Expected) -> Diagnostic {
    let keyword = so_far.first().and_then(|t| match t.kind {
        TokenKind::Keyword(k) => Some((k, t.span)),
        _ => None,
    });
    let prev = so_far.last();
    // Statements are one per line by convention: when the culprit is on a
    // later line, the problem is that the line ended too soon, so point there.
    let line_ended = match (prev, found) {
        (Some(p), Some(f)) => on_later_line(src, p, &f),
        (Some(_), None) => true,
        _ => false,
    };
    let complete = exp.keyword && prev.is_some();
    let line_ended = line_ended && !complete;
    let tail = match found {
        _ if line_ended => ", but the line ends here".to_string(),
        Some(f) => format!(", found {}", describe_token(src, &f, true)),
        None => ", found the end of the file".to_string(),
    };
    let span = match (prev, found) {
        (Some(p), _) if line_ended => Span::new(p.span.end, p.span.end),
        (_, Some(f)) => f.span,
        (Some(p), None) => Span::new(p.span.end, p.span.end),
        (None, None) => Span::new(src.len() as u32, src.len() as u32),
    };
    let kw = keyword.map(|(k, _)| k);
    let cx = Context {
        src,
        so_far,
        found,
        keyword,
        kw,
        kw_text: kw.map_or("", KeywordKind::as_str),
        prev_kind: prev.map(|t| t.kind),
        line_ended,
        complete,
    };
    let (code, what, fix) = what_was_expected(&cx, exp);

    let message = if complete {
        what
    } else {
        format!("{what}{tail}")
    };
    let mut d = Diagnostic::error(code, span, message);
    if line_ended {
        if let Some(f) = found {
            d = d.with_label(f.span, "the next token is here");
        }
    }
    if let Some(k) = kw {
        d = d.with_note(format!("syntax: `{}`", statement_syntax(k)));
    }
    if let Some((message, edit)) = fix {
        d = d.with_fix(message, vec![edit]);
    }
    d
}

/// The diagnostic's code, what was expected, and a fix when one is sure:
/// the first of `exp`'s expectations, in the order the statement's tokens
/// come.
fn what_was_expected(cx: &Context<'_>, exp: &Expected) -> (&'static str, String, Fix) {
    let kw_text = cx.kw_text;
    if cx.complete {
        let what = match cx.found {
            Some(f) => format!(
                "unexpected {} after the end of the `{kw_text}` statement",
                describe_token(cx.src, &f, true)
            ),
            None => format!("unexpected end of the `{kw_text}` statement"),
        };
        (codes::UNEXPECTED_TOKEN, what, None)
    } else if exp.colon {
        let fix = cx.keyword.map(|(_, ks)| {
            (
                "add `:`".to_string(),
                Edit {
                    span: Span::new(ks.end, ks.end),
                    replacement: ":".into(),
                },
            )
        });
        (
            codes::MISSING_COLON,
            format!("expected `:` after `{kw_text}`"),
            fix,
        )
    } else if exp.string && (exp.at || exp.plus) {
        let what = match cx.kw {
            Some(KeywordKind::Level | KeywordKind::RndLevel) => {
                "expected `@` and a level range after the names, like `\"oracle\" \"O\" @ (5, 5)`"
            }
            Some(KeywordKind::Branch) => {
                "expected `@` and a level range after the dungeon name, like `@ (2, 3)`"
            }
            Some(KeywordKind::ChainBranch) => {
                "expected the earlier level's name, `+` and a range, like `\"oracle\" + (1, 0)`"
            }
            _ => "expected the earlier level's name, `+` and a range, like `\"wizard1\" + (1, 0)`",
        };
        (codes::WRONG_PLACEMENT, what.to_string(), None)
    } else if exp.string {
        expected_string(cx)
    } else if exp.at || exp.plus {
        (
            codes::WRONG_PLACEMENT,
            "expected `@` or `+` and a level range".to_string(),
            None,
        )
    } else if exp.lparen {
        let what = match cx.prev_kind {
            Some(TokenKind::At) => "expected a level range like `(5, 3)` after `@`".to_string(),
            Some(TokenKind::Plus) => {
                "expected a range like `(1, 0)` after `+`: the offset from the earlier level, then the random part".to_string()
            }
            _ => "expected the dungeon's size like `(25, 5)` after the bones marker".to_string(),
        };
        (codes::EXPECTED_RANGE, what, None)
    } else if exp.comma {
        (
            codes::MALFORMED_RANGE,
            "expected `,` between the two numbers of the range, like `(5, 3)`".to_string(),
            None,
        )
    } else if exp.rparen {
        let extra = if cx.found.is_some_and(|f| f.kind == TokenKind::Num) {
            " (a range has exactly two numbers)"
        } else {
            ""
        };
        (
            codes::MALFORMED_RANGE,
            format!("expected `)` to close the range{extra}"),
            None,
        )
    } else if exp.word {
        expected_word(cx)
    } else if exp.number {
        expected_number(cx)
    } else {
        (codes::UNEXPECTED_TOKEN, "unexpected text".to_string(), None)
    }
}

/// A name, a bones marker or a file name in double quotes; a bare word
/// there is quoted by the fix.
fn expected_string(cx: &Context<'_>) -> (&'static str, String, Fix) {
    let what = match (cx.kw, cx.so_far.len()) {
        (Some(KeywordKind::Dungeon), 2) => {
            "expected the dungeon's name in double quotes, like `\"The Gnomish Mines\"`".to_string()
        }
        (Some(KeywordKind::Dungeon), _) => {
            "expected the dungeon's bones marker in double quotes: one character, or `\"none\"`"
                .to_string()
        }
        (Some(KeywordKind::Protofile), _) => {
            "expected a file name in double quotes, like `\"tower\"`".to_string()
        }
        (Some(KeywordKind::Branch | KeywordKind::ChainBranch), _) => {
            "expected the name of the dungeon the branch leads to, in double quotes".to_string()
        }
        (Some(_), _) => "expected the level's name in double quotes, like `\"oracle\"`".to_string(),
        (None, _) => "expected a name in double quotes".to_string(),
    };
    let mut fix = None;
    if let Some(f) = cx
        .found
        .filter(|f| f.kind == TokenKind::Word && !cx.line_ended)
    {
        let quoted = format!("\"{}\"", String::from_utf8_lossy(slice(cx.src, f.span)));
        fix = Some((
            format!("write `{quoted}`"),
            Edit {
                span: f.span,
                replacement: quoted,
            },
        ));
    }
    (codes::EXPECTED_STRING, what, fix)
}

/// A descriptor, an alignment or a tileset word; a quoted word there
/// loses its quotes by the fix.
fn expected_word(cx: &Context<'_>) -> (&'static str, String, Fix) {
    let what = match cx.kw {
        Some(KeywordKind::Description) => {
            "expected a descriptor after `DESCRIPTION:`: `hellish`, `mazelike` or `roguelike`"
        }
        Some(KeywordKind::LevelDesc) => {
            "expected a descriptor after `LEVELDESC:`: `town`, `hellish`, `mazelike`, `roguelike` or `unaligned`"
        }
        Some(KeywordKind::Alignment | KeywordKind::LevAlign) => {
            "expected an alignment: `lawful`, `neutral`, `chaotic` or `unaligned`"
        }
        _ => "expected a tileset word or number after `TILESET:`",
    };
    let mut fix = None;
    if let Some(f) = cx
        .found
        .filter(|f| matches!(f.kind, TokenKind::Str { terminated: true }) && !cx.line_ended)
    {
        let inner = slice(cx.src, f.span)
            .get(1..f.span.len() as usize - 1)
            .unwrap_or_default();
        if !inner.is_empty()
            && inner
                .iter()
                .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            let word = String::from_utf8_lossy(inner).into_owned();
            fix = Some((
                format!("write `{word}` without quotes"),
                Edit {
                    span: f.span,
                    replacement: word,
                },
            ));
        }
    }
    (codes::EXPECTED_WORD, what.to_string(), fix)
}

/// A number: a range's part, an ENTRY level, or another.
fn expected_number(cx: &Context<'_>) -> (&'static str, String, Fix) {
    let what = match cx.prev_kind {
        Some(TokenKind::LParen) => "expected the base level after `(`, like `(5, 3)`".to_string(),
        Some(TokenKind::Comma) => {
            "expected the random part of the range after `,`, like `(5, 3)`".to_string()
        }
        _ if cx.kw == Some(KeywordKind::Entry) => {
            "expected a level number after `ENTRY:`, like `ENTRY: -1`".to_string()
        }
        _ => "expected a number".to_string(),
    };
    let code = if matches!(cx.prev_kind, Some(TokenKind::LParen | TokenKind::Comma)) {
        codes::MALFORMED_RANGE
    } else {
        codes::EXPECTED_NUMBER
    };
    (code, what, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance() {
        assert_eq!(edit_distance(b"LEVELS", b"LEVEL"), 1);
        assert_eq!(edit_distance(b"DUNGOEN", b"DUNGEON"), 2);
        assert_eq!(edit_distance(b"", b"ABC"), 3);
    }

    #[test]
    fn quoting_escapes_and_cuts() {
        assert_eq!(quote(b"a\rb\x00"), "a\\rb\\x00");
        assert_eq!(quote(&[b'x'; 100]).chars().count(), QUOTE_MAX + 1);
        assert_eq!(quote(b"\xff"), "\u{fffd}");
    }
}
