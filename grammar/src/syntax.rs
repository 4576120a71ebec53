//! The grammar's side of the parser: the token type LALRPOP sees, and the
//! actions that sort a statement's variable parts (how many strings before
//! the placement, how many numbers or words after it) into the tree, with a
//! precise diagnostic when a count fits no dialect.

use crate::ast::*;
use crate::codes;
use crate::diagnostic::{Diagnostic, Edit};
use crate::span::Span;
use lalrpop_util::ParseError;

/// The grammar's token. Strings and words are read from the source by the
/// actions, so a token costs no allocation until it lands in the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Kw(KeywordKind),
    Str,
    Word,
    /// `None` when the text does not fit in an `i64` (already reported).
    Num(Option<i64>),
    Colon,
    At,
    LParen,
    RParen,
    Comma,
    Plus,
    /// A lexical error (already reported).
    Error,
}

/// The parser raises no errors of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Void {}

/// `@` or `+` before a couple.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Absolute(Span),
    Relative(Span),
}

/// A statement the grammar gave up on, turned into a diagnostic afterwards
/// (that needs the token list, which the grammar does not have).
#[derive(Clone, Debug)]
pub struct Recovery {
    /// The statement's extent: what was parsed of it plus the skipped tokens.
    pub span: Span,
    pub error: ParseError<u32, Tok, Void>,
}

/// State shared by the grammar's actions.
pub struct Ctx<'s> {
    pub src: &'s [u8],
    /// The statements parsed so far, in order.
    pub statements: Vec<Statement>,
    pub diagnostics: Vec<Diagnostic>,
    pub recoveries: Vec<Recovery>,
}

pub fn kw(start: u32, end: u32, kind: KeywordKind) -> Keyword {
    Keyword {
        span: Span::new(start, end),
        kind,
    }
}

fn spans_of(strings: &[StrLit]) -> Span {
    match (strings.first(), strings.last()) {
        (Some(a), Some(b)) => a.span.to(b.span),
        _ => Span::default(),
    }
}

impl<'s> Ctx<'s> {
    pub fn new(src: &'s [u8]) -> Self {
        Ctx {
            src,
            statements: Vec::new(),
            diagnostics: Vec::new(),
            recoveries: Vec::new(),
        }
    }

    pub fn push(&mut self, span: Span, kind: StmtKind) {
        self.statements.push(Statement { span, kind });
    }

    fn text(&self, span: Span) -> &'s [u8] {
        self.src.get(span.range()).unwrap_or_default()
    }

    pub fn string(&self, span: Span) -> StrLit {
        let text = self.text(span);
        // The lexer ends a string at its first closing quote, so a string is
        // terminated exactly when its text ends with one after the opening one.
        let terminated = text.len() >= 2 && text.last() == Some(&b'"');
        let inner = &text[1.min(text.len())..text.len() - usize::from(terminated)];
        StrLit {
            span,
            bytes: inner.to_vec(),
        }
    }

    pub fn word(&self, span: Span) -> Word {
        Word {
            span,
            text: String::from_utf8_lossy(self.text(span)).into_owned(),
        }
    }

    fn report(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    /// Checks `@` against `+` for the keyword; reports and returns false on a mismatch.
    fn placement_fits(
        &mut self,
        keyword: &Keyword,
        chained: bool,
        place: Place,
        n_strings: usize,
    ) -> bool {
        let (name, chained_name) = match keyword.kind {
            KeywordKind::Level | KeywordKind::ChainLevel => ("LEVEL", "CHAINLEVEL"),
            KeywordKind::RndLevel | KeywordKind::RndChLevel | KeywordKind::RndChainLevel => {
                ("RNDLEVEL", "RNDCHLEVEL")
            }
            _ => ("BRANCH", "CHAINBRANCH"),
        };
        let is_branch = name == "BRANCH";
        let kw_text = keyword.kind.as_str();
        match (chained, place) {
            (false, Place::Relative(p)) => {
                let mut d = Diagnostic::error(
                    codes::WRONG_PLACEMENT,
                    p,
                    format!("`{kw_text}` is placed at an absolute depth with `@`, not relative with `+`"),
                )
                .with_label(keyword.span, format!("`{kw_text}` takes `@ (base, rand)`"))
                .with_note(format!(
                    "to place it relative to an earlier level, use `{chained_name}: {}`",
                    if is_branch { "\"dungeon\" \"level\" + (base, rand)" } else { "\"name\" \"bones\" \"level\" + (base, rand)" }
                ));
                // A chained form needs the extra string naming the level.
                let fits_chained = if is_branch {
                    n_strings == 2
                } else {
                    (2..=4).contains(&n_strings)
                };
                if fits_chained {
                    d = d.with_fix(
                        format!("use `{chained_name}`"),
                        vec![Edit {
                            span: keyword.span,
                            replacement: chained_name.to_string(),
                        }],
                    );
                }
                self.report(d);
                false
            }
            (true, Place::Absolute(p)) => {
                let mut d = Diagnostic::error(
                    codes::WRONG_PLACEMENT,
                    p,
                    format!(
                        "`{kw_text}` is placed relative to an earlier level with `+`, not with `@`"
                    ),
                )
                .with_label(
                    keyword.span,
                    format!("`{kw_text}` takes `\"level\" + (base, rand)`"),
                )
                .with_note(format!("to place it at an absolute depth, use `{name}`"));
                let fits_plain = if is_branch {
                    n_strings == 1
                } else {
                    (1..=3).contains(&n_strings)
                };
                if fits_plain {
                    d = d.with_fix(
                        format!("use `{name}`"),
                        vec![Edit {
                            span: keyword.span,
                            replacement: name.to_string(),
                        }],
                    );
                }
                self.report(d);
                false
            }
            _ => true,
        }
    }

    pub fn level(
        &mut self,
        span: Span,
        keyword: Keyword,
        strings: Vec<StrLit>,
        place: Place,
        placement: Couple,
        nums: Vec<Num>,
    ) {
        let kw_text = keyword.kind.as_str();
        let chained = matches!(
            keyword.kind,
            KeywordKind::ChainLevel | KeywordKind::RndChLevel | KeywordKind::RndChainLevel
        );
        let random = matches!(
            keyword.kind,
            KeywordKind::RndLevel | KeywordKind::RndChLevel | KeywordKind::RndChainLevel
        );
        let mut ok = self.placement_fits(&keyword, chained, place, strings.len());

        // Strings: [display] name [bones] [chain], by count.
        let mut strings = strings;
        let chain = if chained && strings.len() >= 2 {
            strings.pop()
        } else {
            None
        };
        let max = 3;
        if chained && chain.is_none() {
            self.report(
                Diagnostic::error(
                    codes::STRING_COUNT,
                    spans_of(&strings),
                    format!("`{kw_text}` needs the name of the level it is placed after"),
                )
                .with_note(format!(
                    "write `{kw_text}: \"name\" \"bones\" \"earlier level\" + (base, rand)`"
                )),
            );
            ok = false;
        } else if strings.len() > max {
            self.report(
                Diagnostic::error(
                    codes::STRING_COUNT,
                    spans_of(&strings[max..]),
                    format!("too many strings before the placement of `{kw_text}`"),
                )
                .with_note(format!(
                    "`{kw_text}` takes a name and a bones marker (`\"oracle\" \"O\"`){}; GnollHack adds a display name first",
                    if chained { " and then the name of the earlier level" } else { "" }
                )),
            );
            ok = false;
        }

        // Numbers after the couple: [chance] for plain levels, [chance] n for random ones.
        let (chance, rndlevs) = match (random, nums.len()) {
            (false, 0) => (None, None),
            (false, 1) => (nums.first().cloned(), None),
            (true, 1) => (None, nums.first().cloned()),
            (true, 2) => (nums.first().cloned(), nums.get(1).cloned()),
            (true, 0) => {
                self.report(
                    Diagnostic::error(
                        codes::NUMBER_COUNT,
                        placement.span,
                        format!("`{kw_text}` needs the number of level variants after the range"),
                    )
                    .with_label(placement.span, "add the number of variants after this")
                    .with_note(format!(
                        "write for example `{kw_text}: \"bigrm\" \"B\" @ (10, 3) 5` for files bigrm-1 .. bigrm-5, \
                         or `... @ (10, 3) 40 5` for a 40% chance"
                    )),
                );
                ok = false;
                (None, None)
            }
            _ => {
                let allowed = if random { 2 } else { 1 };
                let extra = nums.get(allowed..).unwrap_or_default();
                let extra_span = match (extra.first(), extra.last()) {
                    (Some(a), Some(b)) => a.span.to(b.span),
                    _ => placement.span,
                };
                let mut d = Diagnostic::error(
                    codes::NUMBER_COUNT,
                    extra_span,
                    format!("too many numbers after the range of `{kw_text}`"),
                )
                .with_note(if random {
                    format!("`{kw_text}` takes an optional chance and then the number of variants: `@ (10, 3) 40 5`")
                } else {
                    format!("`{kw_text}` takes only an optional chance in percent: `@ (5, 5) 50`")
                });
                if !random && nums.len() == 2 {
                    d = d.with_note("a level with several variant files is a `RNDLEVEL` (chance, then number of variants)");
                }
                self.report(d);
                ok = false;
                (None, None)
            }
        };

        if !ok {
            return self.push(span, StmtKind::Error);
        }
        let mut it = strings.into_iter();
        let (display, name, bones) = match (it.next(), it.next(), it.next()) {
            (Some(name), None, _) => (None, name, None),
            (Some(name), Some(bones), None) => (None, name, Some(bones)),
            (Some(display), Some(name), Some(bones)) => (Some(display), name, Some(bones)),
            // Str+ guarantees one string; an empty list is unreachable.
            (None, _, _) => return self.push(span, StmtKind::Error),
        };
        let stmt = LevelStmt {
            keyword,
            display,
            name,
            bones,
            chain,
            placement,
            chance,
            rndlevs,
        };
        self.push(span, StmtKind::Level(stmt));
    }

    #[allow(clippy::too_many_arguments)]
    pub fn branch(
        &mut self,
        span: Span,
        keyword: Keyword,
        strings: Vec<StrLit>,
        place: Place,
        placement: Couple,
        words: Vec<Word>,
        entry: Option<Num>,
    ) {
        let kw_text = keyword.kind.as_str();
        let chained = keyword.kind == KeywordKind::ChainBranch;
        let mut ok = self.placement_fits(&keyword, chained, place, strings.len());
        let want = if chained { 2 } else { 1 };
        if ok && strings.len() != want {
            let (span, message) = if strings.len() > want {
                (
                    spans_of(&strings[want..]),
                    format!("too many strings before the placement of `{kw_text}`"),
                )
            } else {
                (
                    spans_of(&strings),
                    format!("`{kw_text}` needs the name of the level it is placed after"),
                )
            };
            self.report(Diagnostic::error(codes::STRING_COUNT, span, message).with_note(if chained {
                "write `CHAINBRANCH: \"dungeon\" \"earlier level\" + (base, rand)`"
            } else {
                "write `BRANCH: \"dungeon\" @ (base, rand)`: one string, the dungeon the branch leads to"
            }));
            ok = false;
        }

        // Words after the couple: a type (stair, no_up, no_down, portal, or a
        // variant's word) and a direction (up, down), type first.
        let mut branch_type: Option<Word> = None;
        let mut direction: Option<Word> = None;
        for w in words {
            let is_dir = matches!(w.text.as_str(), "up" | "down");
            let slot = if is_dir {
                &mut direction
            } else {
                &mut branch_type
            };
            if let Some(first) = slot {
                let what = if is_dir { "direction" } else { "branch type" };
                let d = Diagnostic::error(codes::BRANCH_WORDS, w.span, format!("a branch has one {what}, this is a second"))
                    .with_label(first.span, format!("first {what} here"))
                    .with_note("a branch takes an optional type (`stair`, `no_up`, `no_down`, `portal`) then an optional direction (`up`, `down`)");
                self.report(d);
                ok = false;
            } else {
                *slot = Some(w);
            }
        }
        if let (Some(t), Some(d)) = (&branch_type, &direction) {
            if d.span.start < t.span.start {
                // Every dgn_comp rejects this order; the intent is clear, so
                // the statement stays in the tree.
                let both = d.span.to(t.span);
                self.report(
                    Diagnostic::error(
                        codes::BRANCH_WORDS,
                        both,
                        "the branch type comes before the direction",
                    )
                    .with_fix(
                        format!("write `{} {}`", t.text, d.text),
                        vec![Edit {
                            span: both,
                            replacement: format!("{} {}", t.text, d.text),
                        }],
                    ),
                );
            }
        }
        if !ok {
            return self.push(span, StmtKind::Error);
        }
        let mut it = strings.into_iter();
        let (target, chain) = match (it.next(), it.next()) {
            (Some(target), chain) => (target, chain),
            (None, _) => return self.push(span, StmtKind::Error),
        };
        let stmt = BranchStmt {
            keyword,
            target,
            chain,
            placement,
            branch_type,
            direction,
            entry,
        };
        self.push(span, StmtKind::Branch(stmt));
    }
}
