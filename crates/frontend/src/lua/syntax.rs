//! From bytes to constant data: full_moon parses the file (a lossless Lua
//! 5.4 parser with positions), and the statements that set the `dungeon`
//! global are evaluated as data. Nothing is run: a value is a string, a
//! number, a boolean, `nil`, a table constructor of such values, a unary
//! minus or parentheses around one; anything else is reported where it is
//! written and read as unknown.
//!
//! Parsing never fails: syntax errors become diagnostics and what parsed is
//! still read. full_moon recurses on nesting, so a file nested deeper than
//! any dungeon description needs is refused before it is parsed, and the
//! parse runs on a thread with a stack of its own.

use super::codes::*;
use dgnkit_grammar::{Diagnostic, Label, Span};
use full_moon::ast::{self, Expression, Field, LastStmt, Stmt, UnOp, Var};
use full_moon::node::Node;
use full_moon::tokenizer::{Symbol, TokenReference, TokenType};

/// Deeper bracket nesting than this is refused (dungeon.lua needs 5).
pub const MAX_NESTING: usize = 64;
/// More operators or block keywords than this are refused: every one of
/// them can nest an expression or a block one level deeper.
pub const MAX_OPERATORS: usize = 2048;
/// The parser's own stack.
const PARSE_STACK: usize = 64 << 20;

/// A constant as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub data: Data,
    /// The whole expression.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Str),
    Table(Table),
    /// Not a constant (already reported).
    Unknown,
}

impl Data {
    /// The Lua type's name, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Data::Nil => "nil",
            Data::Bool(_) => "a boolean",
            Data::Int(_) | Data::Float(_) => "a number",
            Data::Str(_) => "a string",
            Data::Table(_) => "a table",
            Data::Unknown => "an expression",
        }
    }
}

/// A string literal's value and where its text lies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Str {
    pub bytes: Vec<u8>,
    /// Between the quotes (or the long brackets).
    pub inner: Span,
}

/// A table constructor: its list items and its named fields, in order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Table {
    /// The `{`.
    pub open: Span,
    pub items: Vec<Value>,
    pub fields: Vec<NamedField>,
}

/// `name = value` (or `["name"] = value`).
#[derive(Clone, Debug, PartialEq)]
pub struct NamedField {
    pub key: String,
    pub key_span: Span,
    pub value: Value,
    /// From the key to the end of the value.
    pub span: Span,
}

impl Table {
    /// The last field named `key` (a table constructor keeps the last).
    pub fn field(&self, key: &str) -> Option<&NamedField> {
        self.fields.iter().rev().find(|f| f.key == key)
    }
}

/// What the file sets `dungeon` to, with the diagnostics of reading it.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The value of the last `dungeon = ...` statement.
    pub dungeon: Option<Value>,
    /// The `dungeon` name of that statement.
    pub target: Option<Span>,
    pub diagnostics: Vec<Diagnostic>,
    /// Every table constructor of the file that is an expression (not the
    /// argument of a call written `f{...}`), in source order, read as far
    /// as it is constant: what the evaluated file's tables are matched
    /// against for their spans ([`super::program`]).
    pub constructors: Vec<Constructor>,
}

/// A table constructor as written: its whole span and its fields (a value
/// that is not a constant is [`Data::Unknown`], with its span).
#[derive(Clone, Debug, PartialEq)]
pub struct Constructor {
    pub span: Span,
    pub table: Table,
}

/// Parses `src` and evaluates what it assigns to `dungeon`. Never panics.
pub fn parse(src: &[u8]) -> Parsed {
    if let Some(d) = too_nested(src) {
        return Parsed {
            diagnostics: vec![d],
            ..Parsed::default()
        };
    }
    let text = lexable(src);
    let owned = src.to_vec();
    let run = move || parse_text(&owned, &text);
    match std::thread::Builder::new()
        .name("dungeon.lua".into())
        .stack_size(PARSE_STACK)
        .spawn(run)
        .map(|h| h.join())
    {
        Ok(Ok(parsed)) => parsed,
        _ => Parsed {
            diagnostics: vec![Diagnostic::error(
                LUA_TOO_COMPLEX,
                Span::new(0, 0),
                "dgnkit could not read this file (its Lua parser failed)",
            )],
            ..Parsed::default()
        },
    }
}

/// `src` as the text full_moon's tokenizer is given. Invalid UTF-8
/// becomes a character the tokenizer rejects outside strings; string
/// values are decoded from the original bytes, so a name in Latin-1 keeps
/// its bytes and every offset stays the same. A backtick becomes that
/// character too: full_moon 3.0's tokenizer panics on one outside a string
/// (`read_string` reaches `unreachable!()` without its Luau or CfxLua
/// features, tokenizer/lexer.rs:1210), and Lua 5.4 has no backtick token.
pub fn lexable(src: &[u8]) -> String {
    src.utf8_chunks()
        .flat_map(|c| {
            c.valid()
                .chars()
                .map(|ch| if ch == '`' { '\u{1}' } else { ch })
                .chain(std::iter::repeat_n('\u{1}', c.invalid().len()))
        })
        .collect()
}

fn parse_text(src: &[u8], text: &str) -> Parsed {
    let result = full_moon::parse_fallible(text, full_moon::LuaVersion::lua54());
    let mut out = Parsed::default();
    for e in result.errors() {
        let (a, b) = e.range();
        let span = Span::new(a.bytes() as u32, (b.bytes().max(a.bytes())) as u32);
        let message = e.error_message();
        out.diagnostics.push(
            Diagnostic::error(LUA_SYNTAX, span, format!("Lua syntax error: {message}"))
                .with_label(span, "NetHack cannot load the file"),
        );
    }
    if !out.diagnostics.is_empty() {
        if let Some(open) = unclosed(text) {
            point_at_unclosed(&mut out.diagnostics, &open);
        }
    }
    let ev = Eval { src };
    let block = result.ast().nodes();
    for stmt in block.stmts() {
        ev.stmt(stmt, &mut out);
    }
    let mut found = Constructors {
        ev: &ev,
        calls: Vec::new(),
        out: Vec::new(),
    };
    full_moon::visitors::Visitor::visit_ast(&mut found, result.ast());
    out.constructors = found.out;
    if let Some(last) = block.last_stmt() {
        let span = node_span(last);
        let what = match last {
            LastStmt::Return(_) => "a `return`",
            _ => "this statement",
        };
        out.diagnostics.push(not_read(span, what));
    }
    out
}

/// Collects the table constructors that are expressions.
struct Constructors<'e, 'a> {
    ev: &'e Eval<'a>,
    /// Constructors written as a call's argument (`f{...}`): no
    /// expression can wrap them.
    calls: Vec<Span>,
    out: Vec<Constructor>,
}

impl full_moon::visitors::Visitor for Constructors<'_, '_> {
    fn visit_function_args(&mut self, args: &ast::FunctionArgs) {
        if let ast::FunctionArgs::TableConstructor(t) = args {
            self.calls.push(node_span(t.as_ref()));
        }
    }

    fn visit_table_constructor(&mut self, t: &ast::TableConstructor) {
        let span = node_span(t);
        if self.calls.contains(&span) {
            return;
        }
        let mut ignored = Vec::new();
        let table = self.ev.table(t, &mut ignored, MAX_NESTING);
        self.out.push(Constructor { span, table });
    }
}

fn not_read(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        LUA_STATEMENT,
        span,
        format!("dgnkit reads dungeon.lua without running it: {what} is not read"),
    )
    .with_label(span, "not `dungeon = { ... }`")
    .with_note("NetHack runs the file and reads the global `dungeon`; dgnkit reads only the table constructor assigned to it")
}

struct Eval<'a> {
    src: &'a [u8],
}

impl Eval<'_> {
    fn stmt(&self, stmt: &Stmt, out: &mut Parsed) {
        let span = node_span(stmt);
        match stmt {
            Stmt::Assignment(a) => {
                let vars: Vec<&Var> = a.variables().iter().collect();
                let exprs: Vec<&Expression> = a.expressions().iter().collect();
                match (vars.as_slice(), exprs.as_slice()) {
                    ([Var::Name(name)], [value]) if ident(name) == Some("dungeon") => {
                        if let Some(prev) = out.target {
                            out.diagnostics.push(
                                Diagnostic::warning(
                                    LUA_DUPLICATE_FIELD,
                                    "duplicate-lua-field",
                                    token_span(name),
                                    "`dungeon` is assigned again: the earlier table is never read",
                                )
                                .with_label(prev, "first assigned here"),
                            );
                        }
                        out.target = Some(token_span(name));
                        out.dungeon = Some(self.expr(value, &mut out.diagnostics, 0));
                    }
                    _ => out.diagnostics.push(not_read(span, "this assignment")),
                }
            }
            Stmt::LocalAssignment(l) if l.names().iter().any(|n| ident(n) == Some("dungeon")) => {
                out.diagnostics.push(
                    Diagnostic::error(
                        LUA_STATEMENT,
                        span,
                        "a local `dungeon` is not the global NetHack reads",
                    )
                    .with_label(
                        span,
                        "NetHack reads the global `dungeon` after running the file",
                    )
                    .with_note("write `dungeon = { ... }` without `local`"),
                );
            }
            _ => out.diagnostics.push(not_read(span, "this statement")),
        }
    }

    fn expr(&self, e: &Expression, diags: &mut Vec<Diagnostic>, depth: usize) -> Value {
        let span = node_span(e);
        let data = match e {
            Expression::Number(tok) => number(token_text(self.src, tok)).unwrap_or_else(|| {
                diags.push(
                    Diagnostic::error(LUA_NOT_CONSTANT, span, "dgnkit cannot read this number")
                        .with_label(span, "write a decimal integer"),
                );
                Data::Unknown
            }),
            Expression::String(tok) => match self.string(tok) {
                Ok(s) => Data::Str(s),
                Err((at, message)) => {
                    diags.push(
                        Diagnostic::error(LUA_SYNTAX, at, message)
                            .with_label(at, "not a Lua escape sequence"),
                    );
                    Data::Unknown
                }
            },
            Expression::Symbol(tok) => match tok.token().token_type() {
                TokenType::Symbol {
                    symbol: Symbol::True,
                } => Data::Bool(true),
                TokenType::Symbol {
                    symbol: Symbol::False,
                } => Data::Bool(false),
                TokenType::Symbol {
                    symbol: Symbol::Nil,
                } => Data::Nil,
                _ => not_constant(span, diags),
            },
            Expression::Parentheses { expression, .. } if depth < MAX_NESTING => {
                return Value {
                    data: self.expr(expression, diags, depth + 1).data,
                    span,
                };
            }
            Expression::UnaryOperator {
                unop: UnOp::Minus(_),
                expression,
            } if depth < MAX_NESTING => match self.expr(expression, diags, depth + 1).data {
                Data::Int(i) => Data::Int(i.wrapping_neg()),
                Data::Float(f) => Data::Float(-f),
                Data::Unknown => Data::Unknown,
                other => {
                    diags.push(
                        Diagnostic::error(
                            LUA_NOT_CONSTANT,
                            span,
                            format!("a minus sign before {}", other.type_name()),
                        )
                        .with_label(span, "only numbers are negated"),
                    );
                    Data::Unknown
                }
            },
            Expression::TableConstructor(t) if depth < MAX_NESTING => {
                Data::Table(self.table(t, diags, depth + 1))
            }
            _ => not_constant(span, diags),
        };
        Value { data, span }
    }

    fn table(&self, t: &ast::TableConstructor, diags: &mut Vec<Diagnostic>, depth: usize) -> Table {
        let mut table = Table {
            open: token_span(t.braces().tokens().0),
            ..Table::default()
        };
        for field in t.fields().iter() {
            match field {
                Field::NoKey(e) => table.items.push(self.expr(e, diags, depth)),
                Field::NameKey { key, value, .. } => {
                    let value = self.expr(value, diags, depth);
                    let key_span = token_span(key);
                    table.fields.push(NamedField {
                        key: ident(key).unwrap_or_default().to_string(),
                        key_span,
                        span: key_span.to(value.span),
                        value,
                    });
                }
                Field::ExpressionKey {
                    brackets,
                    key,
                    value,
                    ..
                } => {
                    let open = token_span(brackets.tokens().0);
                    let key_value = self.expr(key, diags, depth);
                    let value = self.expr(value, diags, depth);
                    match key_value.data {
                        Data::Str(s) => table.fields.push(NamedField {
                            key: String::from_utf8_lossy(&s.bytes).into_owned(),
                            key_span: key_value.span,
                            span: open.to(value.span),
                            value,
                        }),
                        Data::Unknown => {}
                        _ => {
                            let span = open.to(value.span);
                            diags.push(
                                Diagnostic::error(
                                    LUA_NOT_CONSTANT,
                                    span,
                                    "dgnkit reads list items and `name = value` fields only",
                                )
                                .with_label(key_value.span, "a computed key")
                                .with_note("write the item without a key: its position in the list is its key"),
                            );
                        }
                    }
                }
                _ => {
                    let span = node_span(field);
                    not_constant(span, diags);
                }
            }
        }
        table
    }

    /// A string literal's value, decoded from the original bytes as Lua
    /// 5.4's lexer does (llex.c: escapes, long brackets).
    fn string(&self, tok: &TokenReference) -> Result<Str, (Span, String)> {
        let span = token_span(tok);
        let raw = self.src.get(span.range()).unwrap_or_default();
        let start = span.start;
        if let TokenType::StringLiteral {
            multi_line_depth, ..
        } = tok.token().token_type()
        {
            if raw.first() == Some(&b'[') {
                let open = multi_line_depth + 2;
                let close = open;
                let mut from = open.min(raw.len());
                let to = raw.len().saturating_sub(close).max(from);
                // A newline right after the opening bracket is not part of it.
                if raw.get(from..).is_some_and(|r| r.starts_with(b"\r\n")) {
                    from += 2;
                } else if raw.get(from) == Some(&b'\n') {
                    from += 1;
                }
                let to = to.max(from);
                return Ok(Str {
                    bytes: raw[from..to].to_vec(),
                    inner: Span::new(start + from as u32, start + to as u32),
                });
            }
        }
        let end = raw.len().saturating_sub(1).max(1);
        let body = raw.get(1..end).unwrap_or_default();
        let inner = Span::new(start + 1, start + end as u32);
        let bytes = unescape(body).map_err(|(at, len, msg)| {
            (
                Span::new(inner.start + at as u32, inner.start + (at + len) as u32),
                msg,
            )
        })?;
        Ok(Str { bytes, inner })
    }
}

fn not_constant(span: Span, diags: &mut Vec<Diagnostic>) -> Data {
    diags.push(
        Diagnostic::error(
            LUA_NOT_CONSTANT,
            span,
            "dgnkit reads dungeon.lua without running it: this expression is not a constant",
        )
        .with_label(span, "not a string, a number or a table constructor")
        .with_note(
            "write the value itself: a string, an integer (a minus sign allowed) or a table",
        ),
    );
    Data::Unknown
}

/// A Lua numeral as Lua 5.4 reads it (lobject.c `l_str2int`, `l_str2d`):
/// decimal integers that overflow become floats, hexadecimal ones wrap.
pub fn number(text: &str) -> Option<Data> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            let mut v: u64 = 0;
            for b in hex.bytes() {
                let d = (b as char).to_digit(16)? as u64;
                v = v.wrapping_mul(16).wrapping_add(d);
            }
            return Some(Data::Int(v as i64));
        }
        return None;
    }
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        return Some(match t.parse::<i64>() {
            Ok(i) => Data::Int(i),
            Err(_) => Data::Float(t.parse::<f64>().ok()?),
        });
    }
    t.parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
        .map(Data::Float)
}

/// Decodes a short string's escapes. On error: offset and length of the
/// bad escape within `body`, and a message.
fn unescape(body: &[u8]) -> Result<Vec<u8>, (usize, usize, String)> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let b = body[i];
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let Some(&c) = body.get(i + 1) else {
            return Err((i, 1, "a backslash ends the string".into()));
        };
        i += 2;
        match c {
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'\\' | b'"' | b'\'' => out.push(c),
            b'\n' | b'\r' => {
                out.push(b'\n');
                // "\r\n" and "\n\r" are one line break.
                if let Some(&n) = body.get(i) {
                    if (n == b'\n' || n == b'\r') && n != c {
                        i += 1;
                    }
                }
            }
            b'z' => {
                while body.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
                    i += 1;
                }
            }
            b'x' => {
                let hex = body.get(i..i + 2).unwrap_or_default();
                let v = std::str::from_utf8(hex)
                    .ok()
                    .filter(|h| h.len() == 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match v {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => {
                        return Err((
                            i - 2,
                            2 + hex.len(),
                            "`\\x` needs two hexadecimal digits".into(),
                        ))
                    }
                }
            }
            b'0'..=b'9' => {
                let mut v: u32 = u32::from(c - b'0');
                let mut n = 1;
                while n < 3 && body.get(i).is_some_and(u8::is_ascii_digit) {
                    v = v * 10 + u32::from(body[i] - b'0');
                    i += 1;
                    n += 1;
                }
                match u8::try_from(v) {
                    Ok(v) => out.push(v),
                    Err(_) => {
                        return Err((i - n - 1, n + 1, format!("decimal escape {v} is above 255")))
                    }
                }
            }
            b'u' => {
                let from = i - 2;
                let close = body[i..].iter().position(|&b| b == b'}');
                let digits = close.and_then(|c| body.get(i + 1..i + c));
                let v = match (body.get(i), digits) {
                    (Some(b'{'), Some(d)) if !d.is_empty() && d.len() <= 8 => {
                        std::str::from_utf8(d)
                            .ok()
                            .and_then(|d| u32::from_str_radix(d, 16).ok())
                            .filter(|&v| v < 0x8000_0000)
                    }
                    _ => None,
                };
                let (Some(v), Some(c)) = (v, close) else {
                    return Err((from, 2, "`\\u` needs `{` hexadecimal digits `}`".into()));
                };
                utf8_encode(v, &mut out);
                i += c + 1;
            }
            _ => {
                return Err((i - 2, 2, format!("`\\{}` is not a Lua escape", c as char)));
            }
        }
    }
    Ok(out)
}

/// Lua's extended UTF-8 (lobject.c `luaO_utf8esc`): up to 6 bytes.
fn utf8_encode(v: u32, out: &mut Vec<u8>) {
    if v < 0x80 {
        out.push(v as u8);
        return;
    }
    let mut buf = [0u8; 8];
    let mut n = 1;
    let mut x = v;
    let mut mfb: u32 = 0x3f;
    loop {
        buf[8 - n] = 0x80 | (x & 0x3f) as u8;
        n += 1;
        x >>= 6;
        mfb >>= 1;
        if x <= mfb {
            break;
        }
    }
    buf[8 - n] = ((!mfb << 1) | x) as u8;
    out.extend_from_slice(&buf[8 - n..]);
}

fn ident(tok: &TokenReference) -> Option<&str> {
    match tok.token().token_type() {
        TokenType::Identifier { identifier } => Some(identifier.as_str()),
        _ => None,
    }
}

fn token_span(tok: &TokenReference) -> Span {
    let t = tok.token();
    Span::new(
        t.start_position().bytes() as u32,
        t.end_position().bytes() as u32,
    )
}

fn token_text<'a>(src: &'a [u8], tok: &TokenReference) -> &'a str {
    std::str::from_utf8(src.get(token_span(tok).range()).unwrap_or_default()).unwrap_or("")
}

/// A bracket the file opens and never closes: the one its reader most
/// likely forgot.
#[derive(Debug, PartialEq)]
struct Unclosed {
    /// The bracket, one byte.
    open: Span,
    ch: char,
    /// When a closing bracket that starts its line is indented as for an
    /// enclosing bracket rather than the one it closes, the first such:
    /// the close and the 1-based lines of the close, of `open` (the bracket
    /// it closes, so the one most likely left open) and of the bracket its
    /// indentation matches.
    misplaced: Option<Misplaced>,
}

/// A close bracket indented for another bracket than the one it closes.
#[derive(Debug, PartialEq)]
struct Misplaced {
    close: Span,
    line: usize,
    open_line: usize,
    meant: usize,
}

/// The bracket left open when the file's brackets do not balance, read
/// with Lua's tokenizer (brackets in strings and comments do not count).
/// Which bracket lacks its close cannot be told from the brackets alone
/// (the last `}` closes the innermost open one); the indentation tells it:
/// a `}` starting a line indented less than the line of the `{` it closes,
/// as deep as an enclosing `{`'s line, was written for that enclosing one,
/// so the `{` it closes is the one never closed. Without such a line, the
/// innermost bracket still open at the end is named.
fn unclosed(text: &str) -> Option<Unclosed> {
    use full_moon::tokenizer::{Lexer, LexerResult};
    let tokens = match Lexer::new(text, full_moon::LuaVersion::lua54()).collect() {
        LexerResult::Ok(t) | LexerResult::Recovered(t, _) => t,
        LexerResult::Fatal(_) => return None,
    };
    let bytes = text.as_bytes();
    // The line (1-based) and indentation of the line holding `at`, and
    // whether only blanks precede `at` on it.
    let line_of = |at: usize| {
        let start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let indent = bytes[start..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let line = 1 + bytes[..start].iter().filter(|&&b| b == b'\n').count();
        (line, indent, start + indent == at)
    };
    // Open brackets: where, which, the indentation and line of their line.
    let mut stack: Vec<(usize, char, usize, usize)> = Vec::new();
    let mut misplaced: Option<(usize, char, Misplaced)> = None;
    for t in &tokens {
        let TokenType::Symbol { symbol } = t.token_type() else {
            continue;
        };
        let at = t.start_position().bytes();
        let open = match symbol {
            Symbol::LeftBrace => '{',
            Symbol::LeftParen => '(',
            Symbol::LeftBracket => '[',
            Symbol::RightBrace | Symbol::RightParen | Symbol::RightBracket => {
                let Some((o, ch, indent, open_line)) = stack.pop() else {
                    // A stray close: another error, not an open bracket.
                    return None;
                };
                let (line, here, leading) = line_of(at);
                if misplaced.is_none() && leading && here < indent {
                    if let Some(&(_, _, _, meant)) =
                        stack.iter().rev().find(|&&(_, _, i, _)| i == here)
                    {
                        let close = Span::new(at as u32, at as u32 + 1);
                        misplaced = Some((
                            o,
                            ch,
                            Misplaced {
                                close,
                                line,
                                open_line,
                                meant,
                            },
                        ));
                    }
                }
                continue;
            }
            _ => continue,
        };
        let (line, indent, _) = line_of(at);
        stack.push((at, open, indent, line));
    }
    let &(last, last_ch, _, _) = stack.last()?;
    Some(match misplaced {
        Some((o, ch, m)) => Unclosed {
            open: Span::new(o as u32, o as u32 + 1),
            ch,
            misplaced: Some(m),
        },
        None => Unclosed {
            open: Span::new(last as u32, last as u32 + 1),
            ch: last_ch,
            misplaced: None,
        },
    })
}

/// Points the syntax error the open bracket causes (the one at the end of
/// the file, else the last) at that bracket.
fn point_at_unclosed(diagnostics: &mut [Diagnostic], open: &Unclosed) {
    let end = diagnostics.iter().map(|d| d.span.start).max().unwrap_or(0);
    let Some(d) = diagnostics
        .iter_mut()
        .rev()
        .find(|d| d.code == LUA_SYNTAX && d.span.start == end)
    else {
        return;
    };
    let close = match open.ch {
        '{' => '}',
        '(' => ')',
        _ => ']',
    };
    let mut label = |span: Span, message: String| d.labels.push(Label { span, message });
    label(open.open, format!("this `{}` is never closed", open.ch));
    let note = match &open.misplaced {
        Some(m) => {
            label(
                m.close,
                format!("indented as the close of line {}'s `{}`", m.meant, open.ch),
            );
            format!(
                "a `{close}` is likely missing before line {}: the `{close}` there closes line {}'s `{}`, not line {}'s",
                m.line, m.open_line, open.ch, m.meant
            )
        }
        None => format!("add the `{close}` that closes it"),
    };
    d.notes.push(note);
}

fn node_span(n: &impl Node) -> Span {
    n.range()
        .map(|(a, b)| Span::new(a.bytes() as u32, b.bytes().max(a.bytes()) as u32))
        .unwrap_or_default()
}

/// A file full_moon would need too deep a stack for: brackets nested
/// deeper than [`MAX_NESTING`], or more than [`MAX_OPERATORS`] operators
/// and block keywords. Strings and comments are skipped as Lua's lexer does.
fn too_nested(src: &[u8]) -> Option<Diagnostic> {
    let mut depth = 0usize;
    let mut ops = 0usize;
    let mut i = 0;
    let refuse = |at: usize, what: &str| {
        let at = at as u32;
        Some(
            Diagnostic::error(
                LUA_TOO_COMPLEX,
                Span::new(at, at + 1),
                format!("dgnkit does not read {what}"),
            )
            .with_label(Span::new(at, at + 1), "here")
            .with_note("a dungeon description is a few nested tables of strings and numbers"),
        )
    };
    while i < src.len() {
        let b = src[i];
        match b {
            b'-' if src.get(i + 1) == Some(&b'-') => {
                i += 2;
                if let Some(end) = long_bracket_end(src, i) {
                    i = end;
                } else {
                    while i < src.len() && src[i] != b'\n' {
                        i += 1;
                    }
                }
                continue;
            }
            b'[' => {
                if let Some(end) = long_bracket_end(src, i) {
                    i = end;
                    continue;
                }
                depth += 1;
            }
            b'"' | b'\'' => {
                i += 1;
                while i < src.len() && src[i] != b && src[i] != b'\n' {
                    i += if src[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'{' => depth += 1,
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            b'+' | b'-' | b'*' | b'/' | b'%' | b'^' | b'#' | b'&' | b'~' | b'|' | b'<' | b'>'
            | b'.' => ops += 1,
            b'=' if src.get(i + 1) == Some(&b'=') => ops += 1,
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                while i < src.len() && (src[i].is_ascii_alphanumeric() || src[i] == b'_') {
                    i += 1;
                }
                if matches!(
                    &src[start..i],
                    b"and"
                        | b"or"
                        | b"not"
                        | b"function"
                        | b"do"
                        | b"then"
                        | b"repeat"
                        | b"if"
                        | b"while"
                        | b"for"
                        | b"local"
                        | b"return"
                ) {
                    ops += 1;
                }
                if ops > MAX_OPERATORS {
                    return refuse(start, "files with this many operators and statements");
                }
                continue;
            }
            _ => {}
        }
        if depth > MAX_NESTING {
            return refuse(i, "brackets nested this deep");
        }
        if ops > MAX_OPERATORS {
            return refuse(i, "files with this many operators and statements");
        }
        i += 1;
    }
    None
}

/// The end of a long bracket `[==[ ... ]==]` starting at `at`, when there
/// is one there (an unterminated one runs to the end of the file).
fn long_bracket_end(src: &[u8], at: usize) -> Option<usize> {
    if src.get(at) != Some(&b'[') {
        return None;
    }
    let mut j = at + 1;
    while src.get(j) == Some(&b'=') {
        j += 1;
    }
    if src.get(j) != Some(&b'[') {
        return None;
    }
    let level = j - at - 1;
    let mut k = j + 1;
    while k < src.len() {
        if src[k] == b']' {
            let mut e = k + 1;
            while src.get(e) == Some(&b'=') {
                e += 1;
            }
            if e - k - 1 == level && src.get(e) == Some(&b']') {
                return Some(e + 1);
            }
        }
        k += 1;
    }
    Some(src.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dungeon(src: &str) -> (Option<Value>, Vec<Diagnostic>) {
        let p = parse(src.as_bytes());
        (p.dungeon, p.diagnostics)
    }

    #[test]
    fn constants_are_read_with_spans() {
        let src = "dungeon = { { name = \"A\\x41\\65\", base = -5, [\"range\"] = (2) }, 0x10 }";
        let (v, d) = dungeon(src);
        assert!(d.is_empty(), "{d:?}");
        let Some(Value {
            data: Data::Table(t),
            ..
        }) = v
        else {
            panic!("not a table")
        };
        let Data::Table(first) = &t.items[0].data else {
            panic!()
        };
        let name = first.field("name").unwrap();
        assert_eq!(
            name.value.data,
            Data::Str(Str {
                bytes: b"AAA".to_vec(),
                inner: Span::new(22, 30)
            })
        );
        assert_eq!(&src[name.key_span.range()], "name");
        let base = first.field("base").unwrap();
        assert_eq!(base.value.data, Data::Int(-5));
        assert_eq!(&src[base.value.span.range()], "-5");
        assert_eq!(first.field("range").unwrap().value.data, Data::Int(2));
        assert_eq!(t.items[1].data, Data::Int(16));
    }

    #[test]
    fn long_strings_and_escapes() {
        let (v, d) = dungeon("dungeon = { [==[\nab]]c]==], 'x\\z   y', \"\\u{48}\\u{20AC}\" }");
        assert!(d.is_empty(), "{d:?}");
        let Some(Value {
            data: Data::Table(t),
            ..
        }) = v
        else {
            panic!()
        };
        let strs: Vec<Vec<u8>> = t
            .items
            .iter()
            .map(|i| match &i.data {
                Data::Str(s) => s.bytes.clone(),
                _ => Vec::new(),
            })
            .collect();
        assert_eq!(
            strs,
            [b"ab]]c".to_vec(), b"xy".to_vec(), "H€".as_bytes().to_vec()]
        );
    }

    #[test]
    fn expressions_and_statements_are_not_run() {
        let src = "local x = 5\ndungeon = { base = x, range = 1 + 2, name = f() }\nprint(1)\nreturn dungeon";
        let (v, d) = dungeon(src);
        assert!(v.is_some());
        let codes: Vec<&str> = d.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [
                LUA_STATEMENT,
                LUA_NOT_CONSTANT,
                LUA_NOT_CONSTANT,
                LUA_NOT_CONSTANT,
                LUA_STATEMENT,
                LUA_STATEMENT
            ]
        );
        let x = d.iter().find(|d| d.code == LUA_NOT_CONSTANT).unwrap();
        assert_eq!(&src[x.span.range()], "x");
        assert!(x.message.contains("this expression is not a constant"));
    }

    #[test]
    fn syntax_errors_keep_what_parsed() {
        let (_, d) = dungeon("dungeon = { { name = \"A\", base = } }");
        assert!(d.iter().any(|d| d.code == LUA_SYNTAX), "{d:?}");
        let (_, d) = dungeon("dungeon = { name = \"\\q\" }");
        assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), [LUA_SYNTAX]);
    }

    #[test]
    fn deep_nesting_is_refused_without_parsing() {
        let deep = format!("dungeon = {}1{}", "(".repeat(100_000), ")".repeat(100_000));
        let (_, d) = dungeon(&deep);
        assert_eq!(
            d.iter().map(|d| d.code).collect::<Vec<_>>(),
            [LUA_TOO_COMPLEX]
        );
        let chain = format!("dungeon = 1{}", " .. 1".repeat(100_000));
        let (_, d) = dungeon(&chain);
        assert_eq!(
            d.iter().map(|d| d.code).collect::<Vec<_>>(),
            [LUA_TOO_COMPLEX]
        );
        // Just below the limits it parses.
        let ok = format!(
            "dungeon = {}1{}",
            "{".repeat(MAX_NESTING - 1),
            "}".repeat(MAX_NESTING - 1)
        );
        let (v, d) = dungeon(&ok);
        assert!(
            v.is_some() && d.iter().all(|d| d.code != LUA_TOO_COMPLEX),
            "{d:?}"
        );
    }

    #[test]
    fn invalid_utf8_keeps_bytes_and_offsets() {
        let mut src = b"dungeon = { \"caf".to_vec();
        src.push(0xe9);
        src.extend_from_slice(b"\" }");
        let p = parse(&src);
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let Some(Value {
            data: Data::Table(t),
            ..
        }) = p.dungeon
        else {
            panic!()
        };
        assert_eq!(
            t.items[0].data,
            Data::Str(Str {
                bytes: b"caf\xe9".to_vec(),
                inner: Span::new(13, 17)
            })
        );
    }

    #[test]
    fn a_table_left_open_is_named_by_the_indentation() {
        // The `}` of line 4 is indented for line 2's `{`: line 3's is open.
        let src = "dungeon = {\n   {\n      levels = {\n   },\n}\n";
        let open = unclosed(src).expect("a bracket left open");
        assert_eq!(open.open, Span::new(32, 33));
        assert_eq!(
            open.misplaced.map(|m| (m.line, m.open_line, m.meant)),
            Some((4, 3, 2))
        );
        let d = parse(src.as_bytes()).diagnostics;
        let syntax = d.iter().find(|d| d.code == LUA_SYNTAX).expect("an error");
        assert!(
            syntax
                .labels
                .iter()
                .any(|l| l.span == Span::new(32, 33) && l.message == "this `{` is never closed"),
            "{syntax:?}"
        );
        assert!(
            syntax.notes[0].contains("missing before line 4"),
            "{syntax:?}"
        );
    }

    #[test]
    fn without_indentation_the_innermost_open_bracket_is_named() {
        let src = "dungeon = { { name = \"D\", levels = { { name = \"x\" } }";
        let open = unclosed(src).expect("a bracket left open");
        assert_eq!(
            (open.open, open.ch, open.misplaced),
            (Span::new(12, 13), '{', None)
        );
        // Brackets in strings and comments do not count; a balanced file,
        // or one with a stray close, has none left open.
        assert_eq!(unclosed("x = { \"{\" } -- {\n"), None);
        assert_eq!(unclosed("x = { } }"), None);
        let (_, d) = dungeon(src);
        assert!(d.iter().any(|d| d.code == LUA_SYNTAX
            && d.labels.iter().any(|l| l.span == Span::new(12, 13))
            && d.notes == ["add the `}` that closes it"]));
    }
}
