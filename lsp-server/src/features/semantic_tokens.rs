//! Semantic tokens: the lexer's tokens, with strings told apart by what they
//! name (a dungeon, a level, a bones marker or file name). A `dungeon.lua`
//! gets the same types from its constant table: field names as keywords,
//! dungeon and level names and chain references as in `.def`, value words
//! as enum members, numbers (Lua's own comments and punctuation are the
//! editor's Lua highlighting's).

use crate::state::DocView;
use dgnkit::lua::syntax::{self as lua, Data, Table};
use dgnkit_grammar::ast::StmtKind;
use dgnkit_grammar::lexer::TokenKind;
use dgnkit_grammar::Span;
use std::collections::HashMap;
use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokensLegend,
};

/// Indices into [`legend`]'s token types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
enum Kind {
    Keyword = 0,
    String = 1,
    Number = 2,
    Operator = 3,
    Comment = 4,
    EnumMember = 5,
    Macro = 6,
    Namespace = 7,
    Class = 8,
}

const DECLARATION: u32 = 1;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: vec![
            SemanticTokenType::KEYWORD,
            SemanticTokenType::STRING,
            SemanticTokenType::NUMBER,
            SemanticTokenType::OPERATOR,
            SemanticTokenType::COMMENT,
            SemanticTokenType::ENUM_MEMBER,
            SemanticTokenType::MACRO,
            SemanticTokenType::NAMESPACE,
            SemanticTokenType::CLASS,
        ],
        token_modifiers: vec![SemanticTokenModifier::DECLARATION],
    }
}

/// What each name string of the tree is: by the string's start offset.
fn string_roles(view: DocView<'_>) -> HashMap<u32, (Kind, u32)> {
    let mut roles = HashMap::new();
    for stmt in &view.syntax().parsed.file.statements {
        match &stmt.kind {
            StmtKind::Dungeon(d) => {
                roles.insert(d.name.span.start, (Kind::Namespace, DECLARATION));
            }
            StmtKind::Level(l) => {
                roles.insert(l.name.span.start, (Kind::Class, DECLARATION));
                if let Some(c) = &l.chain {
                    roles.insert(c.span.start, (Kind::Class, 0));
                }
            }
            StmtKind::Branch(b) => {
                roles.insert(b.target.span.start, (Kind::Namespace, 0));
                if let Some(c) = &b.chain {
                    roles.insert(c.span.start, (Kind::Class, 0));
                }
            }
            _ => {}
        }
    }
    roles
}

pub fn full(view: DocView<'_>) -> Vec<SemanticToken> {
    if view.is_lua() {
        return encode(view, lua_tokens(view.text()));
    }
    let syntax = view.syntax();
    let roles = string_roles(view);
    let mut spans = Vec::with_capacity(syntax.tokens.len());
    for tok in &syntax.tokens {
        let (kind, modifiers) = match tok.kind {
            TokenKind::Keyword(_) => (Kind::Keyword, 0),
            TokenKind::Word => (Kind::EnumMember, 0),
            TokenKind::Num => (Kind::Number, 0),
            TokenKind::Str { .. } => roles
                .get(&tok.span.start)
                .copied()
                .unwrap_or((Kind::String, 0)),
            TokenKind::Colon | TokenKind::At | TokenKind::Plus => (Kind::Operator, 0),
            TokenKind::Comment | TokenKind::TrailingComment => (Kind::Comment, 0),
            TokenKind::Flag => (Kind::Macro, 0),
            TokenKind::LParen | TokenKind::RParen | TokenKind::Comma | TokenKind::Error(_) => {
                continue
            }
        };
        spans.push((tok.span, kind, modifiers));
    }
    encode(view, spans)
}

/// What a dungeon.lua table's field holds, for its value's token type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// A dungeon table (inside `dungeon = { ... }`).
    Dungeon,
    Level,
    Branch,
}

/// The tokens of a dungeon.lua's constant table, in file order.
fn lua_tokens(text: &[u8]) -> Vec<(Span, Kind, u32)> {
    let parsed = lua::parse(text);
    let mut out = Vec::new();
    if let Some(target) = parsed.target {
        out.push((target, Kind::Keyword, 0));
    }
    if let Some(Data::Table(top)) = parsed.dungeon.as_ref().map(|v| &v.data) {
        list(top, Holds::Dungeon, &mut out);
    }
    out.sort_by_key(|(span, _, _)| (span.start, span.end));
    out
}

/// The items of a list of dungeons, levels or branches.
fn list(t: &Table, holds: Holds, out: &mut Vec<(Span, Kind, u32)>) {
    for item in &t.items {
        if let Data::Table(inner) = &item.data {
            fields(inner, holds, out);
        }
    }
}

fn fields(t: &Table, holds: Holds, out: &mut Vec<(Span, Kind, u32)>) {
    for f in &t.fields {
        out.push((f.key_span, Kind::Keyword, 0));
        let role = match (holds, f.key.as_str()) {
            (Holds::Dungeon, "name") => (Kind::Namespace, DECLARATION),
            (Holds::Level, "name") => (Kind::Class, DECLARATION),
            (Holds::Branch, "name") => (Kind::Namespace, 0),
            (_, "chainlevel") => (Kind::Class, 0),
            (_, "alignment" | "flags" | "branchtype" | "direction") => (Kind::EnumMember, 0),
            _ => (Kind::String, 0),
        };
        match (&f.value.data, f.key.as_str(), holds) {
            (Data::Table(levels), "levels", Holds::Dungeon) => list(levels, Holds::Level, out),
            (Data::Table(branches), "branches", Holds::Dungeon) => {
                list(branches, Holds::Branch, out)
            }
            // `flags = { "mazelike", "hellish" }`.
            (Data::Table(words), _, _) => {
                for w in &words.items {
                    if let Data::Str(_) = w.data {
                        out.push((w.span, role.0, role.1));
                    }
                }
            }
            (Data::Str(_), _, _) => out.push((f.value.span, role.0, role.1)),
            (Data::Int(_) | Data::Float(_), _, _) => out.push((f.value.span, Kind::Number, 0)),
            _ => {}
        }
    }
}

/// Tokens in LSP's relative encoding; a token that spans lines is left
/// out (a lone `\r` inside a string is a line break to the editor).
fn encode(view: DocView<'_>, spans: Vec<(Span, Kind, u32)>) -> Vec<SemanticToken> {
    let syntax = view.syntax();
    let text = view.text();
    let mut out = Vec::with_capacity(spans.len());
    let (mut prev_line, mut prev_char) = (0u32, 0u32);
    for (span, kind, modifiers) in spans {
        let start = syntax.index.position(text, span.start);
        let end = syntax.index.position(text, span.end);
        if start.line != end.line || end.character <= start.character {
            continue;
        }
        let delta_line = start.line - prev_line;
        let delta_start = if delta_line == 0 {
            start.character - prev_char
        } else {
            start.character
        };
        out.push(SemanticToken {
            delta_line,
            delta_start,
            length: end.character - start.character,
            token_type: kind as u32,
            token_modifiers_bitset: modifiers,
        });
        prev_line = start.line;
        prev_char = start.character;
    }
    out
}
