//! The grammar of `parser.lalrpop` read directly, one token of lookahead,
//! for files in which every statement is well formed: what almost every
//! file is, and all the drop-in `dgn_comp` sees on a good run.
//!
//! Why: LALRPOP's table-driven driver moves every symbol through its stack
//! several times and its tables and code are pages a short-lived process
//! must fault in; on NetHack's own file it was as costly as C dgn_comp's
//! whole parse (bench/HISTORY.md, Start-up). Every statement starts with a
//! keyword and keywords appear nowhere else, so each rule is chosen by its
//! keyword and the grammar is LL(1) statement by statement.
//!
//! It calls the same actions ([`Ctx::push`], [`Ctx::level`],
//! [`Ctx::branch`], [`Ctx::string`], [`Ctx::word`]) with the same spans in
//! the same order as the generated parser, so a file it accepts gets the
//! same tree and diagnostics. At the first token no rule accepts it gives
//! up, and [`crate::parse`] parses the file again with the generated
//! parser, whose error recovery and messages are the only ones
//! (`tests/direct.rs` compares both on every corpus file and on mutated
//! ones).

use crate::ast::*;
use crate::span::Span;
use crate::syntax::{kw, Ctx, Place, Tok};

/// A token as the grammar sees it: start, kind, end.
pub type Spanned = (u32, Tok, u32);

/// Parses every statement of `tokens` into `ctx`; `None` at the first
/// token no rule of the grammar accepts (then `ctx` holds a partial file).
pub fn parse(ctx: &mut Ctx, tokens: &[Spanned]) -> Option<()> {
    let mut p = Reader { tokens, at: 0 };
    while let Some((l, tok, k)) = p.advance() {
        let Tok::Kw(kind) = tok else {
            return None;
        };
        p.expect(&Tok::Colon)?;
        let keyword = kw(l, k, kind);
        match kind {
            KeywordKind::Dungeon => {
                let name = p.string(ctx)?;
                let bones = p.string(ctx)?;
                let size = p.couple()?;
                let chance = p.num();
                let stmt = DungeonStmt {
                    keyword,
                    name,
                    bones,
                    size,
                    chance,
                };
                ctx.push(p.span_from(l), StmtKind::Dungeon(stmt));
            }
            KeywordKind::Entry => {
                let level = p.num()?;
                let stmt = EntryStmt { keyword, level };
                ctx.push(p.span_from(l), StmtKind::Entry(stmt));
            }
            KeywordKind::Protofile => {
                let name = p.string(ctx)?;
                let stmt = ProtofileStmt { keyword, name };
                ctx.push(p.span_from(l), StmtKind::Protofile(stmt));
            }
            KeywordKind::Description
            | KeywordKind::Alignment
            | KeywordKind::LevelDesc
            | KeywordKind::LevAlign => {
                let word = p.word(ctx)?;
                let stmt = WordStmt { keyword, word };
                let kind = match kind {
                    KeywordKind::Description => StmtKind::Description(stmt),
                    KeywordKind::Alignment => StmtKind::Alignment(stmt),
                    KeywordKind::LevelDesc => StmtKind::LevelDesc(stmt),
                    _ => StmtKind::LevAlign(stmt),
                };
                ctx.push(p.span_from(l), kind);
            }
            KeywordKind::Tileset => {
                let value = match p.peek()? {
                    Tok::Word => TilesetValue::Word(p.word(ctx)?),
                    _ => TilesetValue::Num(p.num()?),
                };
                let stmt = TilesetStmt { keyword, value };
                ctx.push(p.span_from(l), StmtKind::Tileset(stmt));
            }
            KeywordKind::Level
            | KeywordKind::RndLevel
            | KeywordKind::ChainLevel
            | KeywordKind::RndChLevel
            | KeywordKind::RndChainLevel => {
                let strings = p.strings(ctx)?;
                let place = p.place()?;
                let couple = p.couple()?;
                let mut nums = Vec::new();
                while let Some(n) = p.num() {
                    nums.push(n);
                }
                ctx.level(p.span_from(l), keyword, strings, place, couple, nums);
            }
            KeywordKind::Branch | KeywordKind::ChainBranch => {
                let strings = p.strings(ctx)?;
                let place = p.place()?;
                let couple = p.couple()?;
                let mut words = Vec::new();
                while p.peek() == Some(&Tok::Word) {
                    words.push(p.word(ctx)?);
                }
                let entry = p.num();
                let span = p.span_from(l);
                ctx.branch(span, keyword, strings, place, couple, words, entry);
            }
        }
    }
    Some(())
}

struct Reader<'t> {
    tokens: &'t [Spanned],
    /// The next token's index.
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|(_, t, _)| t)
    }

    fn advance(&mut self) -> Option<(u32, Tok, u32)> {
        let t = self.tokens.get(self.at)?.clone();
        self.at += 1;
        Some(t)
    }

    /// The next token's span when it is `want`'s kind.
    fn take(&mut self, want: impl Fn(&Tok) -> bool) -> Option<Span> {
        let (l, t, r) = self.tokens.get(self.at)?;
        if !want(t) {
            return None;
        }
        self.at += 1;
        Some(Span::new(*l, *r))
    }

    fn expect(&mut self, want: &Tok) -> Option<Span> {
        self.take(|t| t == want)
    }

    /// From `start` to the end of the last token read: LALRPOP's `@R` at
    /// the end of a rule, also after an empty optional part.
    fn span_from(&self, start: u32) -> Span {
        let end = match self.at.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(&(_, _, r)) => r,
            None => start,
        };
        Span::new(start, end)
    }

    /// The next token when it is a number (`NUM` and `NUM?` alike).
    fn num(&mut self) -> Option<Num> {
        let (l, Tok::Num(value), r) = self.tokens.get(self.at)? else {
            return None;
        };
        self.at += 1;
        Some(Num {
            span: Span::new(*l, *r),
            value: *value,
        })
    }

    fn string(&mut self, ctx: &Ctx) -> Option<StrLit> {
        self.take(|t| *t == Tok::Str).map(|s| ctx.string(s))
    }

    /// `Str+`.
    fn strings(&mut self, ctx: &Ctx) -> Option<Vec<StrLit>> {
        let mut out = vec![self.string(ctx)?];
        while let Some(s) = self.string(ctx) {
            out.push(s);
        }
        Some(out)
    }

    fn word(&mut self, ctx: &Ctx) -> Option<Word> {
        self.take(|t| *t == Tok::Word).map(|s| ctx.word(s))
    }

    fn place(&mut self) -> Option<Place> {
        if let Some(s) = self.expect(&Tok::At) {
            return Some(Place::Absolute(s));
        }
        self.expect(&Tok::Plus).map(Place::Relative)
    }

    /// `( base , rand )`.
    fn couple(&mut self) -> Option<Couple> {
        let open = self.expect(&Tok::LParen)?;
        let base = self.num()?;
        self.expect(&Tok::Comma)?;
        let rand = self.num()?;
        let close = self.expect(&Tok::RParen)?;
        Some(Couple {
            span: open.to(close),
            base,
            rand,
        })
    }
}
