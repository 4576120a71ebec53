//! Completion from the tokens of the cursor's line: keywords at the start of
//! a line, the words a statement takes after its colon, level names where a
//! chain names a level, dungeon names where a branch names its target.

use crate::state::DocView;
use crate::vocabulary::{keyword_doc, words, WordClass};
use dgnkit_grammar::ast::{KeywordKind, StmtKind};
use dgnkit_grammar::lexer::{Token, TokenKind, KEYWORDS};
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, MarkupContent,
    MarkupKind, Position, Range, TextEdit,
};

pub fn complete(view: DocView<'_>, position: Position) -> Vec<CompletionItem> {
    // These are `.def`'s keywords and statements; a `dungeon.lua` has
    // neither (its fields are Lua's, the editor's Lua support completes).
    if view.is_lua() {
        return Vec::new();
    }
    let text = view.text();
    let syntax = view.syntax();
    let offset = view.offset(position);
    let line = syntax.index.line_of(offset);
    let (line_start, _) = syntax.index.line_content(text, line);
    // Tokens of this line that start before the cursor.
    let on_line: Vec<Token> = syntax
        .tokens
        .iter()
        .filter(|t| t.span.start >= line_start && t.span.start < offset && !t.kind.is_trivia())
        .copied()
        .collect();
    if let Some(t) = syntax
        .tokens
        .iter()
        .find(|t| t.span.start < offset && offset <= t.span.end)
    {
        if matches!(t.kind, TokenKind::Comment | TokenKind::TrailingComment) {
            return Vec::new();
        }
    }
    // The token being typed: the cursor is inside it or just after it.
    let current = on_line.last().copied().filter(|t| {
        t.span.end >= offset
            && match t.kind {
                TokenKind::Word | TokenKind::Keyword(_) | TokenKind::Error(_) | TokenKind::Num => {
                    true
                }
                TokenKind::Str { terminated } => !terminated || t.span.end > offset,
                _ => false,
            }
    });
    let before: &[Token] = match current {
        Some(_) => &on_line[..on_line.len() - 1],
        None => &on_line,
    };
    // Where a completed word or name goes: over the token being typed.
    let replace = |kinds: &dyn Fn(TokenKind) -> bool| -> Range {
        match current.filter(|c| kinds(c.kind)) {
            Some(c) => Range {
                start: view.range(c.span).start,
                end: view.range(c.span).end.max(position),
            },
            None => Range {
                start: position,
                end: position,
            },
        }
    };

    let keyword = before.first().and_then(|t| match t.kind {
        TokenKind::Keyword(k) => Some(k),
        _ => None,
    });
    let Some(keyword) = keyword else {
        if before.is_empty() {
            let range = replace(&|k| {
                matches!(
                    k,
                    TokenKind::Keyword(_) | TokenKind::Error(_) | TokenKind::Word
                )
            });
            return keywords(range);
        }
        return Vec::new();
    };
    let has_colon = before.iter().any(|t| t.kind == TokenKind::Colon);
    if !has_colon {
        return Vec::new();
    }
    let after_colon: Vec<Token> = before
        .iter()
        .skip_while(|t| t.kind != TokenKind::Colon)
        .skip(1)
        .copied()
        .collect();
    let strings = after_colon
        .iter()
        .filter(|t| matches!(t.kind, TokenKind::Str { .. }))
        .count();
    let has = |k: TokenKind| after_colon.iter().any(|t| t.kind == k);
    let word_range = replace(&|k| matches!(k, TokenKind::Word | TokenKind::Error(_)));
    let name_range = replace(&|k| matches!(k, TokenKind::Str { .. }));

    match keyword {
        KeywordKind::Description if after_colon.is_empty() => {
            value_words(WordClass::DungeonDescriptor, word_range)
        }
        KeywordKind::LevelDesc if after_colon.is_empty() => {
            value_words(WordClass::LevelDescriptor, word_range)
        }
        KeywordKind::Alignment | KeywordKind::LevAlign if after_colon.is_empty() => {
            value_words(WordClass::Alignment, word_range)
        }
        KeywordKind::Branch | KeywordKind::ChainBranch => {
            if strings == 0 {
                return dungeon_names(view, offset, name_range);
            }
            if keyword == KeywordKind::ChainBranch && strings == 1 && !has(TokenKind::Plus) {
                return level_names(view, line_start, name_range);
            }
            if has(TokenKind::RParen) {
                let words_after: Vec<&Token> = after_colon
                    .iter()
                    .skip_while(|t| t.kind != TokenKind::RParen)
                    .filter(|t| t.kind == TokenKind::Word)
                    .collect();
                let typed: Vec<String> = words_after
                    .iter()
                    .map(|t| String::from_utf8_lossy(&view.text()[t.span.range()]).into_owned())
                    .collect();
                let is_type = |w: &str| words(WordClass::BranchType).iter().any(|(x, _)| *x == w);
                let is_dir = |w: &str| words(WordClass::Direction).iter().any(|(x, _)| *x == w);
                if typed.iter().any(|w| is_dir(w)) || typed.iter().any(|w| w == "portal") {
                    return Vec::new();
                }
                if typed.iter().any(|w| is_type(w)) {
                    return value_words(WordClass::Direction, word_range);
                }
                let mut items = value_words(WordClass::BranchType, word_range);
                items.extend(value_words(WordClass::Direction, word_range));
                return items;
            }
            Vec::new()
        }
        KeywordKind::ChainLevel | KeywordKind::RndChLevel | KeywordKind::RndChainLevel => {
            if strings >= 2 && !has(TokenKind::Plus) {
                return level_names(view, line_start, name_range);
            }
            Vec::new()
        }
        _ => Vec::new(),
    }
}

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

fn keywords(range: Range) -> Vec<CompletionItem> {
    KEYWORDS
        .iter()
        // The manual's spelling is rejected by dgn_comp: do not suggest it.
        .filter(|k| **k != KeywordKind::RndChainLevel && **k != KeywordKind::Tileset)
        .map(|&k| {
            let (syntax, doc) = keyword_doc(k);
            let label = k.as_str().to_string();
            CompletionItem {
                label: label.clone(),
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some(syntax.to_string()),
                documentation: Some(markdown(doc.to_string())),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                    range,
                    new_text: format!("{label}:\t"),
                })),
                ..CompletionItem::default()
            }
        })
        .collect()
}

fn value_words(class: WordClass, range: Range) -> Vec<CompletionItem> {
    words(class)
        .iter()
        .map(|(w, doc)| CompletionItem {
            label: w.to_string(),
            kind: Some(CompletionItemKind::ENUM_MEMBER),
            documentation: Some(markdown(doc.to_string())),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range,
                new_text: w.to_string(),
            })),
            ..CompletionItem::default()
        })
        .collect()
}

fn quoted(name: &[u8]) -> String {
    format!("\"{}\"", String::from_utf8_lossy(name))
}

/// Levels defined before the line starting at `line_start`, in the same
/// dungeon (what a chain may name), nearest first.
fn level_names(view: DocView<'_>, line_start: u32, range: Range) -> Vec<CompletionItem> {
    let mut names: Vec<(Vec<u8>, String)> = Vec::new();
    for stmt in &view.syntax().parsed.file.statements {
        if stmt.span.start >= line_start {
            break;
        }
        match &stmt.kind {
            StmtKind::Dungeon(_) => names.clear(),
            StmtKind::Level(l) => {
                let bones = l.bones.as_ref().map(|b| b.text()).unwrap_or_default();
                names.push((
                    l.name.bytes.clone(),
                    format!("{} level, bones \"{bones}\"", l.keyword.kind.as_str()),
                ));
            }
            _ => {}
        }
    }
    let mut seen = std::collections::HashSet::new();
    names
        .into_iter()
        .rev()
        .filter(|(n, _)| !n.is_empty() && seen.insert(n.clone()))
        .enumerate()
        .map(|(i, (name, detail))| CompletionItem {
            label: quoted(&name),
            kind: Some(CompletionItemKind::CLASS),
            detail: Some(detail),
            sort_text: Some(format!("{i:04}")),
            filter_text: Some(quoted(&name)),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range,
                new_text: quoted(&name),
            })),
            ..CompletionItem::default()
        })
        .collect()
}

/// Dungeons a branch from the dungeon holding `offset` may lead to: those
/// defined after it come first (a branch to an earlier one is an error).
fn dungeon_names(view: DocView<'_>, offset: u32, range: Range) -> Vec<CompletionItem> {
    let statements = &view.syntax().parsed.file.statements;
    let current = statements
        .iter()
        .rev()
        .filter(|s| s.span.start < offset)
        .filter_map(|s| match &s.kind {
            StmtKind::Dungeon(d) => Some(d.name.bytes.clone()),
            _ => None,
        })
        .next();
    let mut seen = std::collections::HashSet::new();
    statements
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Dungeon(d) => Some((s.span.start, d)),
            _ => None,
        })
        .filter(|(_, d)| Some(&d.name.bytes) != current.as_ref() && !d.name.bytes.is_empty())
        .filter(|(_, d)| seen.insert(d.name.bytes.clone()))
        .map(|(start, d)| {
            let later = start > offset;
            CompletionItem {
                label: quoted(&d.name.bytes),
                kind: Some(CompletionItemKind::MODULE),
                detail: Some(if later {
                    format!("dungeon ({}, {})", d.size.base.get(), d.size.rand.get())
                } else {
                    "defined earlier: a branch back to it is an error".to_string()
                }),
                sort_text: Some(format!("{}{:08}", if later { 0 } else { 1 }, start)),
                filter_text: Some(quoted(&d.name.bytes)),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                    range,
                    new_text: quoted(&d.name.bytes),
                })),
                ..CompletionItem::default()
            }
        })
        .collect()
}
