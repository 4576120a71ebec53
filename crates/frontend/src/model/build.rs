//! Building the model from the syntax tree: one pass in file order, as
//! NetHack's dgn_comp reads the file, then a pass that resolves the names
//! only known at the end (branch targets, chains to later levels).

use super::*;
use crate::dialect::{DescStmt, Dialect};
use dgnkit_grammar::ast::{self, SourceFile, StmtKind, TilesetValue};
use std::hash::{BuildHasherDefault, Hasher};

/// The maps below are keyed by the file's short names (a few dozen of
/// them): FNV-1a hashes those in a fraction of SipHash's time, which shows
/// in `dgn_comp`'s whole run.
type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<Fnv1a>>;

struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

fn couple(c: &ast::Couple) -> Couple {
    Couple {
        base: c.base.get(),
        rand: c.rand.get(),
        span: c.span,
        base_span: c.base.span,
        rand_span: c.rand.span,
    }
}

fn value(n: &ast::Num) -> Value {
    Value {
        value: n.get(),
        span: n.span,
    }
}

fn bones(lit: &StrLit) -> BonesInfo {
    BonesInfo {
        value: Bones::from_bytes(&lit.bytes),
        span: lit.span,
    }
}

fn branch_type(word: &str) -> Option<BranchType> {
    Some(match word {
        "stair" => BranchType::Stair,
        "no_up" => BranchType::NoUp,
        "no_down" => BranchType::NoDown,
        "portal" => BranchType::Portal,
        _ => return None,
    })
}

/// The value of a GnollHack `TILESET:` (`None` when the word is unknown).
pub fn tileset_value(v: &TilesetValue) -> (Option<i64>, Span) {
    match v {
        TilesetValue::Num(n) => (Some(n.get()), n.span),
        TilesetValue::Word(w) => (
            crate::dialect::GNOLLHACK_TILESETS
                .iter()
                .find(|(t, _)| *t == w.text)
                .map(|&(_, v)| i64::from(v)),
            w.span,
        ),
    }
}

/// Resolves `file` under `dialect` (which decides the descriptor words).
pub fn build(file: &SourceFile, dialect: Dialect) -> Model {
    let mut b = Builder::new(file.statements.len(), dialect);
    for (i, stmt) in file.statements.iter().enumerate() {
        b.statement(i, stmt);
    }
    let Builder {
        mut m, level_first, ..
    } = b;
    link_branches(&mut m);
    resolve_later_chains(&mut m, &level_first);
    m
}

/// The first pass's state: the model so far and the names it has met.
struct Builder {
    m: Model,
    dialect: Dialect,
    cur: Option<DungeonId>,
    // First dungeon and first level of each name in the file, and the
    // current dungeon's levels by name (all, and after its first level):
    // maps keep the whole pass linear.
    dungeon_first: HashMap<Vec<u8>, DungeonId>,
    level_first: HashMap<Vec<u8>, LevelId>,
    cur_levels: Siblings,
    /// The last level of the current dungeon.
    last_level: Option<LevelId>,
}

impl Builder {
    /// Sized for `n` statements up front: growing the maps rehashed each
    /// entry several times (a twentieth of dgn_comp's run).
    fn new(n: usize, dialect: Dialect) -> Builder {
        Builder {
            m: Model::default(),
            dialect,
            cur: None,
            dungeon_first: HashMap::with_capacity_and_hasher(n, Default::default()),
            level_first: HashMap::with_capacity_and_hasher(n, Default::default()),
            cur_levels: Siblings::default(),
            last_level: None,
        }
    }

    /// Reads statement `i`, in file order as dgn_comp does.
    fn statement(&mut self, i: usize, stmt: &ast::Statement) {
        if let (Some(d), false) = (self.cur, matches!(stmt.kind, StmtKind::Dungeon(_))) {
            let dungeon = &mut self.m.dungeons[d.index()];
            dungeon.extent = dungeon.extent.to(stmt.span);
        }
        match &stmt.kind {
            StmtKind::Dungeon(d) => self.dungeon(i, stmt, d),
            StmtKind::Entry(e) => {
                if let Some(dungeon) = self.current(i) {
                    dungeon.entries.push((i, value(&e.level)));
                    dungeon.entry = Some(value(&e.level));
                }
            }
            StmtKind::Protofile(p) => {
                if let Some(dungeon) = self.current(i) {
                    dungeon.protofiles.push((i, Name::from_lit(&p.name)));
                    dungeon.protofile = Some(Name::from_lit(&p.name));
                }
            }
            StmtKind::Tileset(t) => {
                if let Some(dungeon) = self.current(i) {
                    let (v, span) = tileset_value(&t.value);
                    dungeon.tilesets.push((i, v, span));
                }
            }
            StmtKind::Description(w) => self.dungeon_desc(i, DescStmt::Description, w),
            StmtKind::Alignment(w) => self.dungeon_desc(i, DescStmt::Alignment, w),
            StmtKind::LevelDesc(w) => self.level_desc(i, DescStmt::LevelDesc, w),
            StmtKind::LevAlign(w) => self.level_desc(i, DescStmt::LevAlign, w),
            StmtKind::Level(l) => self.level(i, stmt, l),
            StmtKind::Branch(b) => self.branch(i, stmt, b),
            StmtKind::Error => {
                if self.cur.is_none() {
                    self.m.orphans.before_first_dungeon.push(i);
                }
            }
        }
    }

    /// The dungeon statement `i` belongs to, or `None` after recording it
    /// as coming before the first dungeon.
    fn current(&mut self, i: usize) -> Option<&mut DungeonInfo> {
        match self.cur {
            Some(d) => Some(&mut self.m.dungeons[d.index()]),
            None => {
                self.m.orphans.before_first_dungeon.push(i);
                None
            }
        }
    }

    fn dungeon(&mut self, i: usize, stmt: &ast::Statement, d: &ast::DungeonStmt) {
        let id = DungeonId(self.m.dungeons.len() as u32);
        let first_of_name = self.dungeon_first.get(&d.name.bytes).copied();
        self.dungeon_first.entry(d.name.bytes.clone()).or_insert(id);
        self.cur_levels = Siblings::default();
        self.m.dungeons.push(DungeonInfo {
            id,
            stmt: i,
            span: stmt.span,
            extent: stmt.span,
            keyword_span: d.keyword.span,
            name: Name::from_lit(&d.name),
            bones: bones(&d.bones),
            size: couple(&d.size),
            chance: d.chance.as_ref().map(value),
            entry: None,
            entries: Vec::new(),
            protofile: None,
            protofiles: Vec::new(),
            tilesets: Vec::new(),
            descs: Vec::new(),
            flags: 0,
            levels: Vec::new(),
            branches: Vec::new(),
            incoming: Vec::new(),
            first_of_name,
            lua: LuaDungeon::default(),
        });
        self.cur = Some(id);
        self.last_level = None;
    }

    /// `DESCRIPTION:` or `ALIGNMENT:`: the current dungeon's flags.
    fn dungeon_desc(&mut self, i: usize, kind: DescStmt, w: &ast::WordStmt) {
        let dialect = self.dialect;
        if let Some(dungeon) = self.current(i) {
            let flags = dialect.descriptor(kind, &w.word.text);
            dungeon.flags |= flags.unwrap_or(0);
            dungeon.descs.push(DescInfo {
                stmt: i,
                kind,
                word: w.word.clone(),
                flags,
            });
        }
    }

    /// `LEVELDESC:` or `LEVALIGN:`: dgn_comp applies them to the most
    /// recent level of the file, even one of the previous dungeon.
    fn level_desc(&mut self, i: usize, kind: DescStmt, w: &ast::WordStmt) {
        let m = &mut self.m;
        let target = self.last_level.or_else(|| m.levels.last().map(|l| l.id));
        if let (Some(_), None, Some(l)) = (self.cur, self.last_level, target) {
            m.orphans.descs_on_previous_dungeon.push((i, l));
        }
        match (self.cur, target) {
            (None, _) => m.orphans.before_first_dungeon.push(i),
            (Some(_), None) => m.orphans.descs_without_level.push(i),
            (Some(_), Some(l)) => {
                let flags = self.dialect.descriptor(kind, &w.word.text);
                let level = &mut m.levels[l.index()];
                level.flags |= flags.unwrap_or(0);
                level.descs.push(DescInfo {
                    stmt: i,
                    kind,
                    word: w.word.clone(),
                    flags,
                });
            }
        }
    }

    fn level(&mut self, i: usize, stmt: &ast::Statement, l: &ast::LevelStmt) {
        let Some(d) = self.cur else {
            self.m.orphans.before_first_dungeon.push(i);
            return;
        };
        let m = &mut self.m;
        let id = LevelId(m.levels.len() as u32);
        let chain = l.chain.as_ref().map(|c| ChainRef {
            name: Name::from_lit(c),
            target: self.cur_levels.resolve_level_chain(&c.bytes, &l.name.bytes),
        });
        let first_of_name = self.level_first.get(&l.name.bytes).copied();
        self.level_first.entry(l.name.bytes.clone()).or_insert(id);
        let index = m.dungeons[d.index()].levels.len();
        self.cur_levels.add(&l.name.bytes, id);
        m.levels.push(LevelInfo {
            id,
            dungeon: d,
            index,
            stmt: i,
            span: stmt.span,
            keyword: l.keyword.kind,
            keyword_span: l.keyword.span,
            name: Name::from_lit(&l.name),
            display: l.display.as_ref().map(Name::from_lit),
            bones: l.bones.as_ref().map(bones),
            placement: couple(&l.placement),
            chance: l.chance.as_ref().map(value),
            rndlevs: l.rndlevs.as_ref().map(value),
            chain,
            descs: Vec::new(),
            flags: 0,
            first_of_name,
        });
        m.dungeons[d.index()].levels.push(id);
        self.last_level = Some(id);
    }

    fn branch(&mut self, i: usize, stmt: &ast::Statement, b: &ast::BranchStmt) {
        let Some(d) = self.cur else {
            self.m.orphans.before_first_dungeon.push(i);
            return;
        };
        let m = &mut self.m;
        let id = BranchId(m.branches.len() as u32);
        let chain = b.chain.as_ref().map(|c| ChainRef {
            name: Name::from_lit(c),
            target: self.cur_levels.resolve_branch_chain(&c.bytes),
        });
        let index = m.dungeons[d.index()].branches.len();
        m.branches.push(BranchInfo {
            id,
            dungeon: d,
            index,
            stmt: i,
            span: stmt.span,
            keyword: b.keyword.kind,
            keyword_span: b.keyword.span,
            target: Name::from_lit(&b.target),
            target_dungeon: None,
            chain,
            placement: couple(&b.placement),
            branch_type: match &b.branch_type {
                Some(w) => branch_type(&w.text),
                None => Some(BranchType::Stair),
            },
            type_word: b.branch_type.clone(),
            up: b.direction.as_ref().is_some_and(|w| w.text == "up"),
            direction_word: b.direction.clone(),
            entry: b.entry.as_ref().map(value),
        });
        m.dungeons[d.index()].branches.push(id);
    }
}

/// Chains that found nothing earlier in their dungeon: say what they name
/// (a later level of it, a level of another dungeon, or nothing).
fn resolve_later_chains(m: &mut Model, level_first: &HashMap<Vec<u8>, LevelId>) {
    let mut in_dungeon: HashMap<(DungeonId, &[u8]), LevelId> =
        HashMap::with_capacity_and_hasher(m.levels.len(), Default::default());
    for l in &m.levels {
        in_dungeon
            .entry((l.dungeon, l.name.bytes.as_slice()))
            .or_insert(l.id);
    }
    let later = |dungeon: DungeonId, name: &[u8]| match in_dungeon.get(&(dungeon, name)) {
        Some(&l) => ChainTarget::Later(l),
        None => level_first
            .get(name)
            .map_or(ChainTarget::Unknown, |&l| ChainTarget::OtherDungeon(l)),
    };
    let levels: Vec<(usize, ChainTarget)> = m
        .levels
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            l.chain
                .as_ref()
                .filter(|c| c.target == ChainTarget::Unknown)
                .map(|c| (i, later(l.dungeon, &c.name.bytes)))
        })
        .collect();
    let branches: Vec<(usize, ChainTarget)> = m
        .branches
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            b.chain
                .as_ref()
                .filter(|c| c.target == ChainTarget::Unknown)
                .map(|c| (i, later(b.dungeon, &c.name.bytes)))
        })
        .collect();
    drop(in_dungeon);
    for (i, t) in levels {
        if let Some(c) = m.levels[i].chain.as_mut() {
            c.target = t;
        }
    }
    for (i, t) in branches {
        if let Some(c) = m.branches[i].chain.as_mut() {
            c.target = t;
        }
    }
}

/// Branch targets: the first dungeon with that name, wherever it is; and
/// each dungeon's incoming branches.
pub fn link_branches(m: &mut Model) {
    let mut first: HashMap<&[u8], DungeonId> = HashMap::default();
    for d in &m.dungeons {
        first.entry(d.name.bytes.as_slice()).or_insert(d.id);
    }
    let targets: Vec<Option<DungeonId>> = m
        .branches
        .iter()
        .map(|b| first.get(b.target.bytes.as_slice()).copied())
        .collect();
    for (b, target) in targets.into_iter().enumerate() {
        m.branches[b].target_dungeon = target;
        if let Some(t) = target {
            m.dungeons[t.index()].incoming.push(BranchId(b as u32));
        }
    }
}

/// The levels of the dungeon being read, by name.
#[derive(Default)]
struct Siblings {
    first: Option<(Vec<u8>, LevelId)>,
    /// First level of each name, the dungeon's first level included.
    all: HashMap<Vec<u8>, LevelId>,
    /// First level of each name after the dungeon's first level.
    after_first: HashMap<Vec<u8>, LevelId>,
}

impl Siblings {
    fn add(&mut self, name: &[u8], id: LevelId) {
        if self.first.is_none() {
            self.first = Some((name.to_vec(), id));
        } else {
            self.after_first.entry(name.to_vec()).or_insert(id);
        }
        self.all.entry(name.to_vec()).or_insert(id);
    }

    /// A CHAINLEVEL's anchor as NetHack's dgn_comp finds it: its search
    /// covers the dungeon's levels after the first, then the new level
    /// itself. The first level is accepted as a fallback (a compatibility
    /// warning).
    fn resolve_level_chain(&self, chain: &[u8], own_name: &[u8]) -> ChainTarget {
        if chain.is_empty() {
            return ChainTarget::Empty;
        }
        if let Some(&l) = self.after_first.get(chain) {
            return ChainTarget::Level(l);
        }
        if own_name == chain {
            return ChainTarget::Itself;
        }
        match &self.first {
            Some((name, l)) if name.as_slice() == chain => ChainTarget::FirstLevel(*l),
            _ => ChainTarget::Unknown,
        }
    }

    /// A CHAINBRANCH's anchor: any level of the dungeon defined so far.
    fn resolve_branch_chain(&self, chain: &[u8]) -> ChainTarget {
        if chain.is_empty() {
            return ChainTarget::Empty;
        }
        self.all
            .get(chain)
            .map_or(ChainTarget::Unknown, |&l| ChainTarget::Level(l))
    }
}
