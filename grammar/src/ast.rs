//! The syntax tree. Every node and every token a user could point at carries its
//! byte span in the original file, so diagnostics, hovers and renames can
//! address a single name, bones marker or number.
//!
//! The tree is deliberately dialect-neutral: it holds what was written (for
//! example a GnollHack display name, or a SLASH'EM entry level after a branch
//! direction) and leaves it to the checks to say which dialect allows it.

use crate::span::Span;
use serde::Serialize;

/// A parsed file: statements in source order. Lines dropped by `%FLAG`
/// preprocessing do not appear; statements that failed to parse appear as
/// [`StmtKind::Error`] so that positions of the others are kept.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SourceFile {
    pub statements: Vec<Statement>,
    /// Comments (whole-line `#` comments and trailing `# ...` comments), kept
    /// for the formatter.
    pub comments: Vec<Comment>,
    /// `%FLAG` prefixes seen, whether their line was kept or dropped.
    pub flag_lines: Vec<FlagLine>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Comment {
    pub span: Span,
    /// True for a `#` that is not the first character of its line (an
    /// extension NetHack's dgn_comp rejects).
    pub trailing: bool,
}

/// A line that starts with `%NAME `.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FlagLine {
    /// Span of `%NAME` (percent and name).
    pub span: Span,
    pub name: String,
    /// Whether the rest of the line was kept (the option is defined).
    pub kept: bool,
    /// Whether the name is one makedefs knows (REINCARNATION, MULDGN).
    pub known: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Statement {
    /// Whole statement, keyword to last token.
    pub span: Span,
    pub kind: StmtKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum StmtKind {
    Dungeon(DungeonStmt),
    Entry(EntryStmt),
    Protofile(ProtofileStmt),
    /// `DESCRIPTION:` (dungeon flags).
    Description(WordStmt),
    /// `ALIGNMENT:` (dungeon alignment).
    Alignment(WordStmt),
    /// `LEVELDESC:` (flags of the previous level).
    LevelDesc(WordStmt),
    /// `LEVALIGN:` (alignment of the previous level).
    LevAlign(WordStmt),
    Level(LevelStmt),
    Branch(BranchStmt),
    /// GnollHack's `TILESET:` (a word or an integer).
    Tileset(TilesetStmt),
    /// A statement that did not parse; the parser has reported why.
    Error,
}

/// A keyword token (`DUNGEON`, `RNDCHAINLEVEL`, ...), without the colon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Keyword {
    pub span: Span,
    pub kind: KeywordKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum KeywordKind {
    Dungeon,
    Entry,
    Protofile,
    Description,
    LevelDesc,
    Alignment,
    LevAlign,
    Branch,
    ChainBranch,
    Level,
    RndLevel,
    ChainLevel,
    RndChLevel,
    /// The manual page's spelling of RNDCHLEVEL; dgn_comp's lexer rejects it.
    RndChainLevel,
    Tileset,
}

impl KeywordKind {
    pub fn as_str(self) -> &'static str {
        match self {
            KeywordKind::Dungeon => "DUNGEON",
            KeywordKind::Entry => "ENTRY",
            KeywordKind::Protofile => "PROTOFILE",
            KeywordKind::Description => "DESCRIPTION",
            KeywordKind::LevelDesc => "LEVELDESC",
            KeywordKind::Alignment => "ALIGNMENT",
            KeywordKind::LevAlign => "LEVALIGN",
            KeywordKind::Branch => "BRANCH",
            KeywordKind::ChainBranch => "CHAINBRANCH",
            KeywordKind::Level => "LEVEL",
            KeywordKind::RndLevel => "RNDLEVEL",
            KeywordKind::ChainLevel => "CHAINLEVEL",
            KeywordKind::RndChLevel => "RNDCHLEVEL",
            KeywordKind::RndChainLevel => "RNDCHAINLEVEL",
            KeywordKind::Tileset => "TILESET",
        }
    }
}

/// A string literal. `bytes` are the raw bytes between the quotes (names are
/// byte strings in NetHack; one corpus file is not UTF-8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrLit {
    /// Including the quotes.
    pub span: Span,
    pub bytes: Vec<u8>,
}

impl StrLit {
    /// Span of the contents, without the quotes.
    pub fn inner_span(&self) -> Span {
        Span::new(
            self.span.start + 1,
            self.span.end.saturating_sub(1).max(self.span.start + 1),
        )
    }

    /// Lossy text for messages.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// An integer literal. `value` is `None` when the text does not fit in an
/// `i64` (the parser has reported it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Num {
    pub span: Span,
    pub value: Option<i64>,
}

impl Num {
    /// The value, or 0 when it overflowed (already reported).
    pub fn get(&self) -> i64 {
        self.value.unwrap_or(0)
    }
}

/// A lower-case word in a value position (`hellish`, `portal`, `up`, ...).
/// The parser accepts any lower-case identifier here so that variant words
/// (EvilHack's `iceq`, GnollHack's `*_tileset`) reach the checks, which know
/// the dialects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Word {
    pub span: Span,
    pub text: String,
}

/// `(base, rand)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Couple {
    /// From `(` to `)`.
    pub span: Span,
    pub base: Num,
    pub rand: Num,
}

/// `DUNGEON: name bones (base, rand) [chance]`
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DungeonStmt {
    pub keyword: Keyword,
    pub name: StrLit,
    pub bones: StrLit,
    pub size: Couple,
    pub chance: Option<Num>,
}

/// `ENTRY: n`
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryStmt {
    pub keyword: Keyword,
    pub level: Num,
}

/// `PROTOFILE: name`
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProtofileStmt {
    pub keyword: Keyword,
    pub name: StrLit,
}

/// `DESCRIPTION:`, `ALIGNMENT:`, `LEVELDESC:`, `LEVALIGN:` with their word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WordStmt {
    pub keyword: Keyword,
    pub word: Word,
}

/// `TILESET: word` or `TILESET: n` (GnollHack).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TilesetStmt {
    pub keyword: Keyword,
    pub value: TilesetValue,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TilesetValue {
    Word(Word),
    Num(Num),
}

/// `LEVEL`, `RNDLEVEL`, `CHAINLEVEL`, `RNDCHLEVEL` (and `RNDCHAINLEVEL`).
///
/// The strings before `@`/`+` are assigned by count: for LEVEL/RNDLEVEL one
/// string is `name` (no bones marker, a compatibility warning), two are
/// `name bones`, three are `display name bones` (GnollHack). Chained forms
/// have the chained-from level's name as their last string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LevelStmt {
    pub keyword: Keyword,
    /// GnollHack's display name (the first of three strings).
    pub display: Option<StrLit>,
    pub name: StrLit,
    pub bones: Option<StrLit>,
    /// For CHAINLEVEL/RNDCHLEVEL: the level it is placed relative to.
    pub chain: Option<StrLit>,
    /// Absolute (`@`) for LEVEL/RNDLEVEL, relative (`+`) for chained forms.
    pub placement: Couple,
    pub chance: Option<Num>,
    /// RNDLEVEL/RNDCHLEVEL: number of variants.
    pub rndlevs: Option<Num>,
}

impl LevelStmt {
    pub fn is_random(&self) -> bool {
        matches!(
            self.keyword.kind,
            KeywordKind::RndLevel | KeywordKind::RndChLevel | KeywordKind::RndChainLevel
        )
    }

    pub fn is_chained(&self) -> bool {
        matches!(
            self.keyword.kind,
            KeywordKind::ChainLevel | KeywordKind::RndChLevel | KeywordKind::RndChainLevel
        )
    }
}

/// `BRANCH` and `CHAINBRANCH`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BranchStmt {
    pub keyword: Keyword,
    /// The dungeon the branch leads to.
    pub target: StrLit,
    /// For CHAINBRANCH: the level it is placed relative to.
    pub chain: Option<StrLit>,
    pub placement: Couple,
    /// `stair`, `no_up`, `no_down`, `portal` (checked later).
    pub branch_type: Option<Word>,
    /// `up` or `down` (checked later).
    pub direction: Option<Word>,
    /// SLASH'EM's trailing entry level in the target dungeon.
    pub entry: Option<Num>,
}

impl BranchStmt {
    pub fn is_chained(&self) -> bool {
        self.keyword.kind == KeywordKind::ChainBranch
    }
}

impl SourceFile {
    /// Sets every span in the tree to the empty span at 0, so that two trees
    /// compare equal when they differ only in layout (spacing, line breaks,
    /// comment positions).
    pub fn clear_spans(&mut self) {
        for s in &mut self.statements {
            s.clear_spans();
        }
        for c in &mut self.comments {
            c.span = Span::default();
        }
        for f in &mut self.flag_lines {
            f.span = Span::default();
        }
    }
}

impl Statement {
    /// Sets every span of the statement to the empty span at 0.
    pub fn clear_spans(&mut self) {
        fn couple(c: &mut Couple) {
            c.span = Span::default();
            c.base.span = Span::default();
            c.rand.span = Span::default();
        }
        fn num(n: Option<&mut Num>) {
            if let Some(n) = n {
                n.span = Span::default();
            }
        }
        fn string(s: Option<&mut StrLit>) {
            if let Some(s) = s {
                s.span = Span::default();
            }
        }
        fn word(w: Option<&mut Word>) {
            if let Some(w) = w {
                w.span = Span::default();
            }
        }
        self.span = Span::default();
        match &mut self.kind {
            StmtKind::Dungeon(d) => {
                d.keyword.span = Span::default();
                string(Some(&mut d.name));
                string(Some(&mut d.bones));
                couple(&mut d.size);
                num(d.chance.as_mut());
            }
            StmtKind::Entry(e) => {
                e.keyword.span = Span::default();
                num(Some(&mut e.level));
            }
            StmtKind::Protofile(p) => {
                p.keyword.span = Span::default();
                string(Some(&mut p.name));
            }
            StmtKind::Description(w)
            | StmtKind::Alignment(w)
            | StmtKind::LevelDesc(w)
            | StmtKind::LevAlign(w) => {
                w.keyword.span = Span::default();
                word(Some(&mut w.word));
            }
            StmtKind::Tileset(t) => {
                t.keyword.span = Span::default();
                match &mut t.value {
                    TilesetValue::Word(w) => word(Some(w)),
                    TilesetValue::Num(n) => num(Some(n)),
                }
            }
            StmtKind::Level(l) => {
                l.keyword.span = Span::default();
                string(l.display.as_mut());
                string(Some(&mut l.name));
                string(l.bones.as_mut());
                string(l.chain.as_mut());
                couple(&mut l.placement);
                num(l.chance.as_mut());
                num(l.rndlevs.as_mut());
            }
            StmtKind::Branch(b) => {
                b.keyword.span = Span::default();
                string(Some(&mut b.target));
                string(b.chain.as_mut());
                couple(&mut b.placement);
                word(b.branch_type.as_mut());
                word(b.direction.as_mut());
                num(b.entry.as_mut());
            }
            StmtKind::Error => {}
        }
    }
}
