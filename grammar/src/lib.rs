//! dgnkit's frontend for NetHack's dungeon description language: `%FLAG`
//! preprocessing, a hand-written lexer, a LALRPOP grammar with error recovery,
//! and a syntax tree with byte spans on every node and token.
//!
//! Parsing never fails: [`parse`] always returns a tree plus diagnostics.
//! The pipeline is `lexer::lex` (bytes to tokens, comments and `%NAME`
//! prefixes included), `preprocess::preprocess` (makedefs' `%FLAG` rule,
//! comments set aside), then the grammar in `parser.lalrpop`, whose error
//! alternative resynchronises at the next statement keyword so that every bad
//! statement is reported and kept as a [`ast::StmtKind::Error`] placeholder.

#![deny(clippy::unwrap_used)]

pub mod ast;
pub mod codes;
pub mod diagnostic;
mod direct;
pub mod format;
pub mod lexer;
pub mod preprocess;
pub mod printer;
pub mod span;
mod syntax;
mod syntax_errors;

// LALRPOP's generated parser unwraps its own state stack, which its
// tables keep non-empty; the crate's code is held to the lints.
lalrpop_util::lalrpop_mod!(
    #[allow(
        clippy::all,
        clippy::pedantic,
        clippy::unwrap_used,
        unused_parens,
        dead_code
    )]
    parser
);

pub use diagnostic::{Diagnostic, Edit, Fix, Label, Severity};
pub use span::Span;
pub use syntax_errors::statement_syntax;

use lexer::TokenKind;
use syntax::{Ctx, Tok};

/// Preprocessing options: `-D NAME` and `-U NAME`. REINCARNATION and MULDGN
/// are defined unless undefined; an undefine wins over a define.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ParseOptions {
    pub defines: Vec<String>,
    pub undefines: Vec<String>,
}

/// A syntax tree and what the frontend found wrong: syntax errors (`E01xx`)
/// and unknown `%FLAG` warnings, ordered by position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub file: ast::SourceFile,
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// Whether any diagnostic is an error (every error here is a syntax error).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Parses `src` (raw bytes, any encoding). Never fails and never panics;
/// linear in the input.
pub fn parse(src: &[u8], opts: &ParseOptions) -> Parsed {
    parse_with(src, opts, Grammar::Direct)
}

/// Which reading of the grammar [`parse_with`] starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grammar {
    /// The direct reader for well-formed statements, the generated parser
    /// for any file it does not accept (what [`parse`] does).
    Direct,
    /// The generated parser alone (for the tests that compare the two).
    Tables,
}

/// [`parse`], choosing the parser. Both give the same result on every file.
pub fn parse_with(src: &[u8], opts: &ParseOptions, grammar: Grammar) -> Parsed {
    let tokens = lexer::lex(src);
    let pp = preprocess::preprocess(src, &tokens, opts);
    let mut diagnostics = pp.diagnostics;
    if src.len() > lexer::MAX_SOURCE_LEN {
        let end = lexer::MAX_SOURCE_LEN as u32;
        diagnostics.push(Diagnostic::error(
            codes::FILE_TOO_LARGE,
            Span::new(end, end),
            "the file is 4 GiB or larger; only the part before this point is read",
        ));
    }

    let mut grammar_tokens = Vec::with_capacity(pp.tokens.len());
    // Every statement starts with a keyword.
    let mut keywords = 0;
    for tok in &pp.tokens {
        // Only these kinds can be lexical errors (a number, when it does
        // not fit); the others need no look.
        let suspect = match tok.kind {
            TokenKind::Num | TokenKind::Str { terminated: false } | TokenKind::Error(_) => true,
            TokenKind::Keyword(_) => {
                keywords += 1;
                false
            }
            _ => false,
        };
        let value = match tok.kind {
            TokenKind::Num => std::str::from_utf8(&src[tok.span.range()])
                .ok()
                .and_then(|s| s.parse().ok()),
            _ => None,
        };
        if suspect && value.is_none() {
            if let Some(d) = syntax_errors::lexical(src, tok) {
                diagnostics.push(d);
            }
        }
        let t = match tok.kind {
            TokenKind::Keyword(k) => Tok::Kw(k),
            TokenKind::Word => Tok::Word,
            TokenKind::Num => Tok::Num(value),
            TokenKind::Str { .. } => Tok::Str,
            TokenKind::Colon => Tok::Colon,
            TokenKind::At => Tok::At,
            TokenKind::LParen => Tok::LParen,
            TokenKind::RParen => Tok::RParen,
            TokenKind::Comma => Tok::Comma,
            TokenKind::Plus => Tok::Plus,
            TokenKind::Error(_) => Tok::Error,
            // Preprocessing removed these.
            TokenKind::Comment | TokenKind::TrailingComment | TokenKind::Flag => continue,
        };
        grammar_tokens.push((tok.span.start, t, tok.span.end));
    }

    let mut ctx = Ctx::new(src);
    ctx.statements.reserve_exact(keywords);
    // A file whose statements are all well formed is read directly; any
    // other is parsed (again) by the generated parser, for its recovery.
    let read = grammar == Grammar::Direct && direct::parse(&mut ctx, &grammar_tokens).is_some();
    if !read {
        ctx = Ctx::new(src);
        ctx.statements.reserve_exact(keywords);
        tables(&mut ctx, grammar_tokens);
    }
    let statements = std::mem::take(&mut ctx.statements);
    diagnostics.append(&mut ctx.diagnostics);
    for rec in &ctx.recoveries {
        diagnostics.extend(syntax_errors::recovery(src, &pp.tokens, rec));
    }
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));

    Parsed {
        file: ast::SourceFile {
            statements,
            comments: pp.comments,
            flag_lines: pp.flag_lines,
        },
        diagnostics,
    }
}

/// The generated parser, with its error recovery.
fn tables(ctx: &mut Ctx, tokens: Vec<direct::Spanned>) {
    if let Err(error) = parser::FileParser::new().parse(ctx, tokens) {
        // The error alternative accepts anything up to the end of the file,
        // so this is not expected; report it rather than lose it.
        ctx.recoveries.push(syntax::Recovery {
            span: Span::new(0, 0),
            error,
        });
    }
}
