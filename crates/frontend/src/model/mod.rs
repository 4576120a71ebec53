//! The semantic model: the dungeons, special levels and branches of a file,
//! with every name resolved (a branch to its dungeon, a chain to its level)
//! and the span of every definition and reference.
//!
//! The checks read it to find mistakes, lowering turns it into a
//! [`Script`](dgnkit_script::Script), and the language server uses it for
//! hover, go to definition, find references, rename and document symbols:
//!
//! - [`Model::symbol_at`] names the dungeon or level under a byte offset
//!   (a definition or a reference);
//! - [`Model::definition`] and [`Model::references`] give the spans to jump
//!   to, highlight or rename (the *inner* spans of the strings: the text
//!   between the quotes, which is what a rename replaces);
//! - [`Model::document_symbols`] gives the outline: dungeons with their
//!   levels and branches.
//!
//! Names are byte strings, compared byte for byte as NetHack does (`strcmp`).
//! Ids index the model's vectors; [`LevelId`] is also the level's index in
//! the whole file's level list, which is what NetHack stores as a chain.

mod build;
mod query;

pub use build::build;
pub use build::link_branches;
pub use query::{DocSymbol, DocSymbolKind, Occurrence, Symbol};

use dgnkit_grammar::ast::{KeywordKind, StrLit, Word};
use dgnkit_grammar::Span;
use dgnkit_script::BranchType;

/// Index into [`Model::dungeons`] (file order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DungeonId(pub u32);

/// Index into [`Model::levels`] (file order over all dungeons).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LevelId(pub u32);

/// Index into [`Model::branches`] (file order over all dungeons).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BranchId(pub u32);

impl DungeonId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl LevelId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl BranchId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A quoted name as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub bytes: Vec<u8>,
    /// The string literal, quotes included (where diagnostics point).
    pub span: Span,
    /// Between the quotes (what hover, highlight and rename use).
    pub inner: Span,
}

impl Name {
    pub fn from_lit(lit: &StrLit) -> Name {
        Name {
            bytes: lit.bytes.clone(),
            span: lit.span,
            inner: lit.inner_span(),
        }
    }

    /// The name for messages: decoded lossily, control characters escaped.
    pub fn text(&self) -> String {
        display_bytes(&self.bytes)
    }
}

/// Bytes as text for messages: UTF-8 where valid, `\xNN` for other bytes and
/// for control characters, so no message is ever garbled.
pub fn display_bytes(bytes: &[u8]) -> String {
    // Names are nearly always printable ASCII, which needs no escape (the
    // checks ask for many names; this keeps them cheap).
    if let Ok(text) = std::str::from_utf8(bytes) {
        if text.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return text.to_owned();
        }
    }
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// A bones marker as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bones {
    /// `"none"`: no bones (stored as the zero byte).
    None,
    /// One character.
    Marker(u8),
    /// Anything else (reported by the checks).
    Invalid,
}

impl Bones {
    pub fn from_bytes(bytes: &[u8]) -> Bones {
        match bytes {
            [b] => Bones::Marker(*b),
            b"none" => Bones::None,
            _ => Bones::Invalid,
        }
    }

    /// The byte NetHack stores.
    pub fn byte(self) -> u8 {
        match self {
            Bones::Marker(b) => b,
            Bones::None | Bones::Invalid => 0,
        }
    }

    pub fn marker(self) -> Option<u8> {
        match self {
            Bones::Marker(b) => Some(b),
            _ => None,
        }
    }
}

/// A bones marker and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BonesInfo {
    pub value: Bones,
    /// The string literal.
    pub span: Span,
}

/// An integer and its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// 0 when the literal overflowed (the parser has reported it).
    pub value: i64,
    pub span: Span,
}

/// A `(base, rand)` couple with the span of each part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Couple {
    pub base: i64,
    pub rand: i64,
    /// `(` to `)`.
    pub span: Span,
    pub base_span: Span,
    pub rand_span: Span,
}

/// A descriptor statement (`DESCRIPTION:`, `ALIGNMENT:`, `LEVELDESC:`,
/// `LEVALIGN:`) and the flags it contributed (0 when rejected).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescInfo {
    pub stmt: usize,
    pub kind: crate::dialect::DescStmt,
    pub word: Word,
    pub flags: Result<u32, crate::dialect::DescriptorError>,
}

/// What a chain's name resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainTarget {
    /// A level of the same dungeon defined earlier: valid.
    Level(LevelId),
    /// The dungeon's first level: valid for dgnkit, but NetHack's dgn_comp
    /// skips the first level when it resolves a CHAINLEVEL.
    FirstLevel(LevelId),
    /// The chained level names itself.
    Itself,
    /// A level of the same dungeon defined later.
    Later(LevelId),
    /// A level of another dungeon.
    OtherDungeon(LevelId),
    /// An earlier level of the dungeon that NetHack 3.7's search for a
    /// branch's chain level does not reach: for a dungeon's first branch it
    /// stops one level short of the last level read (dungeon.c:914).
    Unreached(LevelId),
    /// No level has the name.
    Unknown,
    /// The name is empty (dgn_comp would read "not chained").
    Empty,
}

impl ChainTarget {
    /// The level the chain is placed relative to, when valid.
    pub fn resolved(self) -> Option<LevelId> {
        match self {
            ChainTarget::Level(l) | ChainTarget::FirstLevel(l) => Some(l),
            _ => None,
        }
    }

    /// Any level the name refers to (for navigation, even when invalid).
    pub fn referent(self) -> Option<LevelId> {
        match self {
            ChainTarget::Level(l)
            | ChainTarget::FirstLevel(l)
            | ChainTarget::Later(l)
            | ChainTarget::OtherDungeon(l)
            | ChainTarget::Unreached(l) => Some(l),
            _ => None,
        }
    }
}

/// The name a chained level or branch is placed relative to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainRef {
    pub name: Name,
    pub target: ChainTarget,
}

/// The language a file is written in: NetHack's `dungeon.def` (dgn_comp)
/// or NetHack 3.7's `dungeon.lua`. The checks ask it where the two differ
/// (what the original program reports, what a missing field means).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SourceKind {
    #[default]
    Def,
    Lua,
}

/// What a `dungeon.lua` dungeon has beyond `.def`'s fields (all empty for a
/// `.def` file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LuaDungeon {
    /// `themerooms`: the Lua file of theme rooms for the dungeon's levels.
    pub themerooms: Option<Name>,
    /// `lvlfill`: the level file that fills the dungeon's ordinary levels.
    pub lvlfill: Option<Name>,
    /// The `unconnected` flag word: no branch leads to the dungeon (the
    /// Tutorial) and its depth starts at 1.
    pub unconnected: Option<Span>,
    /// SpliceHack's `nofood` flag word.
    pub nofood: Option<Span>,
    /// The `flags` value, when given (what a conversion to `.def` names when
    /// a word has no `.def` form).
    pub flags: Option<Span>,
}

impl SourceKind {
    /// From the text: see [`crate::lua::looks_like_lua`].
    pub fn sniff(src: &[u8]) -> SourceKind {
        if crate::lua::looks_like_lua(src) {
            SourceKind::Lua
        } else {
            SourceKind::Def
        }
    }

    /// From the file's name (`.lua`, `.def`, `.pdf`), else from the text.
    pub fn of_file(name: &std::path::Path, src: &[u8]) -> SourceKind {
        match name.extension().and_then(|e| e.to_str()) {
            Some("lua") => SourceKind::Lua,
            Some("def" | "pdf") => SourceKind::Def,
            _ => SourceKind::sniff(src),
        }
    }
}

/// A `DUNGEON:` and what belongs to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DungeonInfo {
    pub id: DungeonId,
    /// Index of the DUNGEON statement in the syntax tree.
    pub stmt: usize,
    /// The DUNGEON statement.
    pub span: Span,
    /// From the DUNGEON keyword to the end of the dungeon's last statement.
    pub extent: Span,
    pub keyword_span: Span,
    pub name: Name,
    pub bones: BonesInfo,
    pub size: Couple,
    pub chance: Option<Value>,
    /// The last `ENTRY:` (what NetHack stores); all of them are in `entries`.
    pub entry: Option<Value>,
    pub entries: Vec<(usize, Value)>,
    /// The last `PROTOFILE:`; all of them in `protofiles`.
    pub protofile: Option<Name>,
    pub protofiles: Vec<(usize, Name)>,
    /// GnollHack `TILESET:` statements: (statement, value when known).
    pub tilesets: Vec<(usize, Option<i64>, Span)>,
    /// `DESCRIPTION:` and `ALIGNMENT:` statements.
    pub descs: Vec<DescInfo>,
    /// Flags from the accepted descriptors (canonical encoding, see
    /// [`dgnkit_script::flags`]).
    pub flags: u32,
    pub levels: Vec<LevelId>,
    pub branches: Vec<BranchId>,
    /// Branches of the file whose target is this dungeon's name.
    pub incoming: Vec<BranchId>,
    /// An earlier dungeon with the same name (a dNAO alternate, or a
    /// duplicate elsewhere).
    pub first_of_name: Option<DungeonId>,
    /// `dungeon.lua`'s own fields.
    pub lua: LuaDungeon,
}

/// A special level (`LEVEL`, `RNDLEVEL`, `CHAINLEVEL`, `RNDCHLEVEL`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelInfo {
    pub id: LevelId,
    pub dungeon: DungeonId,
    /// Position among its dungeon's levels.
    pub index: usize,
    pub stmt: usize,
    pub span: Span,
    pub keyword: KeywordKind,
    pub keyword_span: Span,
    /// The level's (file) name, which chains and the game use.
    pub name: Name,
    /// GnollHack's display name.
    pub display: Option<Name>,
    pub bones: Option<BonesInfo>,
    /// Absolute for LEVEL/RNDLEVEL, relative to `chain` for chained forms.
    pub placement: Couple,
    pub chance: Option<Value>,
    pub rndlevs: Option<Value>,
    pub chain: Option<ChainRef>,
    /// `LEVELDESC:` and `LEVALIGN:` statements that apply to it.
    pub descs: Vec<DescInfo>,
    pub flags: u32,
    /// An earlier level (in any dungeon) with the same name.
    pub first_of_name: Option<LevelId>,
}

impl LevelInfo {
    /// Percent chance that the level exists (100 when not given).
    pub fn chance_value(&self) -> i64 {
        self.chance.map_or(100, |c| c.value)
    }
}

/// A `BRANCH` or `CHAINBRANCH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchInfo {
    pub id: BranchId,
    /// The dungeon the branch leaves from.
    pub dungeon: DungeonId,
    pub index: usize,
    pub stmt: usize,
    pub span: Span,
    pub keyword: KeywordKind,
    pub keyword_span: Span,
    /// The name of the dungeon it leads to.
    pub target: Name,
    /// The first dungeon of that name, wherever it is.
    pub target_dungeon: Option<DungeonId>,
    pub chain: Option<ChainRef>,
    /// Absolute for BRANCH, relative to `chain` for CHAINBRANCH.
    pub placement: Couple,
    /// `None` when the word is not a branch type (reported by the checks).
    pub branch_type: Option<BranchType>,
    pub type_word: Option<Word>,
    /// The direction is `up` (the parser accepts only `up` and `down`).
    pub up: bool,
    pub direction_word: Option<Word>,
    /// SLASH'EM's entry level in the target dungeon.
    pub entry: Option<Value>,
}

/// Statements that belong to no dungeon or no level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Orphans {
    /// Statements before the first DUNGEON (indices into the tree).
    pub before_first_dungeon: Vec<usize>,
    /// LEVELDESC/LEVALIGN with no level before them in the whole file.
    pub descs_without_level: Vec<usize>,
    /// LEVELDESC/LEVALIGN before their dungeon's first level: as in
    /// NetHack's dgn_comp they apply to the previous dungeon's last level
    /// (statement index, that level).
    pub descs_on_previous_dungeon: Vec<(usize, LevelId)>,
}

/// The resolved file. See the module documentation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    /// The file's language.
    pub source: SourceKind,
    pub dungeons: Vec<DungeonInfo>,
    pub levels: Vec<LevelInfo>,
    pub branches: Vec<BranchInfo>,
    pub orphans: Orphans,
}

impl Model {
    pub fn dungeon(&self, id: DungeonId) -> &DungeonInfo {
        &self.dungeons[id.index()]
    }

    pub fn level(&self, id: LevelId) -> &LevelInfo {
        &self.levels[id.index()]
    }

    pub fn branch(&self, id: BranchId) -> &BranchInfo {
        &self.branches[id.index()]
    }

    /// The first dungeon named `name`.
    pub fn dungeon_by_name(&self, name: &[u8]) -> Option<DungeonId> {
        self.dungeons
            .iter()
            .find(|d| d.name.bytes == name)
            .map(|d| d.id)
    }

    /// The first level named `name`, as the game's `find_level` finds it.
    pub fn level_by_name(&self, name: &[u8]) -> Option<LevelId> {
        self.levels
            .iter()
            .find(|l| l.name.bytes == name)
            .map(|l| l.id)
    }

    /// The levels of a dungeon, in file order.
    pub fn levels_of(&self, id: DungeonId) -> impl Iterator<Item = &LevelInfo> {
        self.dungeon(id).levels.iter().map(|&l| self.level(l))
    }

    /// The branches leaving a dungeon, in file order.
    pub fn branches_of(&self, id: DungeonId) -> impl Iterator<Item = &BranchInfo> {
        self.dungeon(id).branches.iter().map(|&b| self.branch(b))
    }

    /// The branch that connects a dungeon to its parent as NetHack's loader
    /// finds it: the first branch of the file that names it.
    pub fn parent_branch(&self, id: DungeonId) -> Option<&BranchInfo> {
        self.dungeon(id).incoming.first().map(|&b| self.branch(b))
    }
}
