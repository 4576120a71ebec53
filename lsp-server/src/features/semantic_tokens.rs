//! Semantic tokens: the lexer's tokens, with strings told apart by what they
//! name (a dungeon, a level, a bones marker or file name).

use crate::state::DocView;
use dgnkit_grammar::ast::StmtKind;
use dgnkit_grammar::lexer::TokenKind;
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
    let syntax = view.syntax();
    let text = view.text();
    let roles = string_roles(view);
    let mut out = Vec::with_capacity(syntax.tokens.len());
    let (mut prev_line, mut prev_char) = (0u32, 0u32);
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
        let start = syntax.index.position(text, tok.span.start);
        let end = syntax.index.position(text, tok.span.end);
        // A lone `\r` inside a string is a line break to the editor; such a
        // token cannot be one semantic token.
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
