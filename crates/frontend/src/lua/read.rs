//! From the constant data of `dungeon = { ... }` to the semantic model, as
//! NetHack 3.7's `init_dungeon_dungeons`, `init_dungeon_levels` and
//! `init_dungeon_branches` (src/dungeon.c of the recorded tree, revision
//! 1.228) read the table: the same fields, types, defaults and word lists.
//!
//! What the C code reads, and what this module makes of it:
//!
//! - dungeon (dungeon.c:1006-1017): `name` and `base` required; `bonetag`,
//!   `protofile`, `lvlfill`, `themerooms` strings; `range` 0, `entry` 0 and
//!   `chance` 100 (a roll of rn2(100) when not 0) by default; `alignment`
//!   and `flags` words; then `levels` and `branches`, levels first
//!   whatever their order in the table;
//! - level (dungeon.c:816-824): `name`, `base` required; `bonetag`,
//!   `chainlevel`; `range` 0, `nlevels` 0 (a plain level), `chance` 100;
//!   `alignment` and `flags` OR-ed into one flags word;
//! - branch (dungeon.c:893-900): `name` (the dungeon it leads to), `base`
//!   required; `chainlevel`; `range` 0; `branchtype` stair, portal,
//!   no_down or no_up; `direction` up or down (the default);
//! - a bonetag's first character is the marker, an empty one is none;
//! - a chain names the first level of that name among the levels read
//!   before (a level's search covers the whole file so far, dungeon.c:844;
//!   a branch's stops one short of the last level read when it is its
//!   dungeon's first branch, dungeon.c:914).

use super::codes::*;
use super::program;
use super::syntax::{self, Data, NamedField, Table, Value as LuaValue};
use crate::check::closest;
use crate::dialect::{Dialect, LuaFlags};
use crate::model::*;
use dgnkit_grammar::ast::{KeywordKind, Word};
use dgnkit_grammar::{Diagnostic, Edit, Span};
use dgnkit_script::{flags, BranchType, PreludeNode};
use std::collections::HashMap;

const DUNGEON_FIELDS: &[&str] = &[
    "name",
    "bonetag",
    "protofile",
    "base",
    "range",
    "alignment",
    "entry",
    "chance",
    "flags",
    "lvlfill",
    "themerooms",
    "levels",
    "branches",
];
const LEVEL_FIELDS: &[&str] = &[
    "name",
    "bonetag",
    "chainlevel",
    "base",
    "range",
    "nlevels",
    "chance",
    "alignment",
    "flags",
];
const BRANCH_FIELDS: &[&str] = &[
    "name",
    "chainlevel",
    "base",
    "range",
    "branchtype",
    "direction",
];

/// `alignment`'s words and their flag bits (dungeon.c:784-788: unaligned
/// and noalign are both D_ALIGN_NONE).
pub const ALIGNMENTS: &[(&str, u32)] = &[
    ("unaligned", 0),
    ("noalign", 0),
    ("lawful", flags::ALIGN_LAWFUL << flags::ALIGN_SHIFT),
    ("neutral", flags::ALIGN_NEUTRAL << flags::ALIGN_SHIFT),
    ("chaotic", flags::ALIGN_CHAOTIC << flags::ALIGN_SHIFT),
];
/// `flags`' words (dungeon.c:747-752). UNCONNECTED is 0x10 in 3.7's
/// dgn_file.h: a dungeon keeps it apart from its alignment, a level ORs it
/// into the same word, where it is D_ALIGN_CHAOTIC.
pub const FLAG_WORDS: &[(&str, u32)] = &[
    ("town", flags::TOWN),
    ("hellish", flags::HELLISH),
    ("mazelike", flags::MAZELIKE),
    ("roguelike", flags::ROGUELIKE),
    ("unconnected", 0x10),
];
/// The `flags` words of `dialect`'s game.
pub fn flag_words(dialect: Dialect) -> impl Iterator<Item = (&'static str, u32)> {
    let lua = dialect.features().lua_flags;
    FLAG_WORDS
        .iter()
        .copied()
        .filter(move |(w, _)| match lua {
            LuaFlags::NetHack37 => true,
            LuaFlags::NoRoguelike => *w != "roguelike",
            LuaFlags::NoFood => *w != "unconnected",
        })
        .chain((lua == LuaFlags::NoFood).then_some(("nofood", 0x10)))
}

/// `branchtype`'s words (dungeon.c:874-878).
pub const BRANCH_TYPES: &[(&str, BranchType)] = &[
    ("stair", BranchType::Stair),
    ("portal", BranchType::Portal),
    ("no_down", BranchType::NoDown),
    ("no_up", BranchType::NoUp),
];
const DIRECTIONS: &[&str] = &["up", "down"];

/// Reads `src` into the model. Never panics; every problem is a diagnostic.
/// The dialect adds the fields that carry its `.def` constructs (see
/// [`super::write`]): `display` and `tileset` (GnollHack), a branch's
/// `entry` (SLASH'EM), its descriptor words among a dungeon's `flags`;
/// NetHack 3.7 itself ignores them, so in other dialects they are unknown.
pub fn read(src: &[u8], dialect: Dialect) -> (Model, Vec<Diagnostic>) {
    let mut reading = read_program(src, dialect);
    reading.outcomes.swap_remove(0)
}

/// A file read as NetHack reads it: pure data as written, a program run
/// once per outcome of its draws ([`super::program`]).
#[derive(Debug)]
pub struct Reading {
    /// Never empty. One per distinct outcome of the file's draws, in the
    /// order [`PreludeNode::Outcome`] counts them; one for a file that
    /// draws nothing or could not be run.
    pub outcomes: Vec<(Model, Vec<Diagnostic>)>,
    /// The draws that lead to each outcome, for a file that draws.
    pub tree: Option<PreludeNode>,
}

/// Reads `src`: statically when it is pure data, else by running it.
pub fn read_program(src: &[u8], dialect: Dialect) -> Reading {
    let mut parsed = syntax::parse(src);
    let is_program = parsed.diagnostics.iter().any(program_construct)
        && !parsed
            .diagnostics
            .iter()
            .any(|d| d.code == LUA_SYNTAX || d.code == LUA_TOO_COMPLEX);
    if !is_program {
        let diags = std::mem::take(&mut parsed.diagnostics);
        let dungeon = parsed.dungeon.take();
        return Reading {
            outcomes: vec![read_value(dungeon, dialect, diags)],
            tree: None,
        };
    }
    let program = program::evaluate(src, &parsed);
    if program.outcomes.is_empty() {
        // The run failed: its error, and the file read as far as it is
        // data, so that every other check still has its say.
        let mut diags = std::mem::take(&mut parsed.diagnostics);
        diags.extend(program.diagnostics);
        return Reading {
            outcomes: vec![read_value(parsed.dungeon.take(), dialect, diags)],
            tree: None,
        };
    }
    let mut base: Vec<Diagnostic> = parsed
        .diagnostics
        .iter()
        .filter(|d| !program_construct(d))
        .cloned()
        .collect();
    base.extend(program.diagnostics);
    let outcomes = program
        .outcomes
        .into_iter()
        .map(|o| {
            let mut diags = base.clone();
            diags.extend(o.diagnostics);
            read_value(o.dungeon, dialect, diags)
        })
        .collect();
    Reading {
        outcomes,
        tree: program.tree,
    }
}

/// What the static reader reports only because it does not run the file.
fn program_construct(d: &Diagnostic) -> bool {
    (d.code == LUA_STATEMENT && !d.message.contains("a local `dungeon`"))
        || d.code == LUA_NOT_CONSTANT
}

/// The model of one value of `dungeon`, after `diags` (reading so far).
fn read_value(
    dungeon: Option<LuaValue>,
    dialect: Dialect,
    diags: Vec<Diagnostic>,
) -> (Model, Vec<Diagnostic>) {
    let f = dialect.features();
    let mut r = Reader {
        dialect,
        dungeon_fields: with(DUNGEON_FIELDS, f.tileset.then_some("tileset")),
        level_fields: with(LEVEL_FIELDS, f.display_names.then_some("display")),
        branch_fields: with(BRANCH_FIELDS, f.branch_entry.then_some("entry")),
        m: Model {
            source: SourceKind::Lua,
            ..Model::default()
        },
        diags,
        chains: Vec::new(),
    };
    let syntax_errors = r.diags.iter().any(Diagnostic::is_error);
    match dungeon {
        Some(LuaValue {
            data: Data::Table(t),
            ..
        }) => r.dungeons(&t),
        Some(LuaValue {
            data: Data::Unknown,
            ..
        }) => {}
        Some(v) => r.diags.push(
            Diagnostic::error(
                LUA_NO_DUNGEON,
                v.span,
                format!("`dungeon` is {}, not a table", v.data.type_name()),
            )
            .with_label(v.span, "NetHack panics \"dungeon is not a lua table\""),
        ),
        None if !syntax_errors => r.diags.push(
            Diagnostic::error(
                LUA_NO_DUNGEON,
                Span::new(0, 0),
                "the file does not set `dungeon`",
            )
            .with_note("NetHack reads the global `dungeon`, a list of dungeon tables: `dungeon = { { name = ..., base = ... }, ... }`")
            .with_note("NetHack panics \"dungeon is not a lua table\""),
        ),
        None => {}
    }
    r.resolve();
    (r.m, r.diags)
}

/// `fields` and, when given, one more.
fn with(fields: &[&'static str], extra: Option<&'static str>) -> Vec<&'static str> {
    fields.iter().copied().chain(extra).collect()
}

struct Reader {
    dialect: Dialect,
    dungeon_fields: Vec<&'static str>,
    level_fields: Vec<&'static str>,
    branch_fields: Vec<&'static str>,
    m: Model,
    diags: Vec<Diagnostic>,
    /// Chains to resolve once every level is read.
    chains: Vec<Search>,
}

/// A chain and the levels NetHack's search for it covers.
#[derive(Clone, Copy)]
struct Search {
    chained: Chained,
    /// Levels of the file read when the chain is (the search's candidates).
    read: usize,
    /// The search's bound (`bi < covered`); beyond `read` its entries are
    /// still empty.
    covered: usize,
}

#[derive(Clone, Copy)]
enum Chained {
    Level(LevelId),
    Branch(BranchId),
}

/// A table's fields by name, unknown and repeated ones reported.
struct Fields<'t> {
    table: &'t Table,
}

impl Reader {
    fn dungeons(&mut self, top: &Table) {
        for f in &top.fields {
            self.diags.push(
                Diagnostic::error(
                    LUA_NOT_A_TABLE,
                    f.key_span,
                    format!("named entry `{}` in the list of dungeons", f.key),
                )
                .with_label(f.span, "not a list item")
                .with_note("NetHack reads every entry of `dungeon` as a dungeon, named ones in an order Lua does not define; make it a list item"),
            );
        }
        for item in &top.items {
            match &item.data {
                Data::Table(t) => self.dungeon(t, item.span),
                Data::Unknown => {}
                other => {
                    self.not_a_table(item.span, other, "dungeon", "dungeon[i] is not a lua table")
                }
            }
        }
    }

    fn not_a_table(&mut self, span: Span, data: &Data, what: &str, panic: &str) {
        self.diags.push(
            Diagnostic::error(
                LUA_NOT_A_TABLE,
                span,
                format!("a {what} must be a table, not {}", data.type_name()),
            )
            .with_label(span, format!("NetHack panics \"{panic}\"")),
        );
    }

    fn fields<'t>(&mut self, table: &'t Table, known: &[&'static str], what: &str) -> Fields<'t> {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for f in &table.fields {
            if let Some(&first) = seen.get(f.key.as_str()) {
                self.diags.push(
                    Diagnostic::warning(
                        LUA_DUPLICATE_FIELD,
                        "duplicate-lua-field",
                        f.key_span,
                        format!("`{}` is given twice in this {what}", f.key),
                    )
                    .with_label(first, "this value is replaced")
                    .with_note("a Lua table constructor keeps the last value of a key"),
                );
            }
            seen.insert(f.key.as_str(), f.key_span);
            if !known.contains(&f.key.as_str()) {
                let mut d = Diagnostic::warning(
                    LUA_UNKNOWN_FIELD,
                    "unknown-lua-field",
                    f.key_span,
                    format!("a {what} has no field `{}`", f.key),
                )
                .with_label(f.key_span, "NetHack ignores it")
                .with_note(format!("a {what}'s fields are {}", known.join(", ")));
                if let Some(best) = suggestion(&f.key, known) {
                    let best = String::from_utf8_lossy(best).into_owned();
                    d = d.with_fix(
                        format!("rename it `{best}`"),
                        vec![Edit {
                            span: f.key_span,
                            replacement: best,
                        }],
                    );
                }
                self.diags.push(d);
            }
        }
        for item in &table.items {
            if !matches!(item.data, Data::Unknown) {
                self.diags.push(
                    Diagnostic::warning(
                        LUA_UNKNOWN_FIELD,
                        "unknown-lua-field",
                        item.span,
                        format!("a list item in a {what} table"),
                    )
                    .with_label(item.span, "NetHack reads named fields only and ignores it")
                    .with_note(format!("a {what}'s fields are {}", known.join(", "))),
                );
            }
        }
        Fields { table }
    }

    fn missing(&mut self, t: &Table, key: &str, what: &str) {
        self.diags.push(
            Diagnostic::error(
                LUA_MISSING_FIELD,
                t.open,
                format!("this {what} has no `{key}`"),
            )
            .with_label(t.open, format!("a {what} needs `{key} = ...`"))
            .with_note(format!(
                "NetHack's loader stops with a Lua error: `{key}` has no default"
            )),
        );
    }

    fn wrong_type(&mut self, f: &NamedField, expected: &str) {
        let span = f.value.span;
        self.diags.push(
            Diagnostic::error(
                LUA_WRONG_TYPE,
                span,
                format!(
                    "`{}` must be {expected}, not {}",
                    f.key,
                    f.value.data.type_name()
                ),
            )
            .with_label(span, format!("expected {expected}"))
            .with_note("NetHack's loader stops with a Lua error on it"),
        );
    }

    fn conversion(&mut self, f: &NamedField, what: &str) {
        let span = f.value.span;
        self.diags.push(
            Diagnostic::warning(
                LUA_CONVERSION,
                "lua-conversion",
                span,
                format!("`{}` is {what}", f.key),
            )
            .with_label(span, "Lua converts it")
            .with_note("write the value in its own type"),
        );
    }

    /// A string field (get_table_str_opt: a string or nothing; the
    /// required `name` also takes a number, as luaL_checkstring does).
    fn string(&mut self, fields: &Fields, key: &str, numbers: bool) -> Option<Name> {
        let f = fields.table.field(key)?;
        match &f.value.data {
            Data::Str(s) => Some(Name {
                bytes: s.bytes.clone(),
                span: f.value.span,
                inner: s.inner,
            }),
            Data::Nil | Data::Unknown => None,
            Data::Int(i) if numbers => {
                self.conversion(f, "a number where a string is expected");
                Some(Name {
                    bytes: i.to_string().into_bytes(),
                    span: f.value.span,
                    inner: f.value.span,
                })
            }
            _ => {
                self.wrong_type(f, "a string");
                None
            }
        }
    }

    /// An integer field (luaL_checkinteger: integers, floats with an
    /// integer value, numeric strings).
    fn int(&mut self, fields: &Fields, key: &str) -> Option<Value> {
        let f = fields.table.field(key)?;
        let value = match &f.value.data {
            Data::Int(i) => *i,
            Data::Float(x) if x.fract() == 0.0 && x.abs() < 9.2e18 => *x as i64,
            Data::Str(s) => match std::str::from_utf8(&s.bytes).ok().and_then(syntax::number) {
                Some(Data::Int(i)) => {
                    self.conversion(f, "a string where an integer is expected");
                    i
                }
                _ => {
                    self.wrong_type(f, "an integer");
                    return None;
                }
            },
            Data::Nil | Data::Unknown => return None,
            _ => {
                self.wrong_type(f, "an integer");
                return None;
            }
        };
        Some(Value {
            value,
            span: f.value.span,
        })
    }

    /// A word from a list (luaL_checkoption): its index and the word.
    fn option(&mut self, fields: &Fields, key: &str, words: &[&str]) -> Option<(usize, Word)> {
        let f = fields.table.field(key)?;
        match &f.value.data {
            Data::Str(s) => self.word(&s.bytes, s.inner, f.value.span, key, words),
            Data::Nil | Data::Unknown => None,
            _ => {
                self.wrong_type(f, "a string");
                None
            }
        }
    }

    fn word(
        &mut self,
        bytes: &[u8],
        inner: Span,
        span: Span,
        key: &str,
        words: &[&str],
    ) -> Option<(usize, Word)> {
        let text = String::from_utf8_lossy(bytes).into_owned();
        if let Some(i) = words.iter().position(|w| w.as_bytes() == bytes) {
            return Some((i, Word { span: inner, text }));
        }
        let mut d = Diagnostic::error(
            LUA_BAD_WORD,
            span,
            format!("`{key}` does not take \"{}\"", display_bytes(bytes)),
        )
        .with_label(span, format!("one of {}", words.join(", ")))
        .with_note("NetHack's loader stops with Lua's \"invalid option\" error");
        if let Some(best) = closest(bytes, words.iter().map(|w| w.as_bytes())) {
            let best = String::from_utf8_lossy(best).into_owned();
            d = d.with_fix(
                format!("replace with \"{best}\""),
                vec![Edit {
                    span: inner,
                    replacement: best,
                }],
            );
        }
        self.diags.push(d);
        None
    }

    /// `flags`: one word or a list of words (get_dgn_flags). Returns the
    /// bits and the span of each word.
    fn flags(&mut self, fields: &Fields, dungeon: bool) -> Vec<(u32, Word)> {
        let Some(f) = fields.table.field("flags") else {
            return Vec::new();
        };
        // A dialect's descriptor words are DESCRIPTION words: dungeons only.
        let extra: &[(&str, u32)] = if dungeon {
            self.dialect.features().extra_descriptors
        } else {
            &[]
        };
        let table: Vec<(&str, u32)> = flag_words(self.dialect)
            .chain(extra.iter().copied())
            .collect();
        let names: Vec<&str> = table.iter().map(|(w, _)| *w).collect();
        let mut out = Vec::new();
        let mut one = |r: &mut Reader, v: &LuaValue| match &v.data {
            Data::Str(s) => {
                if let Some((i, w)) = r.word(&s.bytes, s.inner, v.span, "flags", &names) {
                    out.push((table[i].1, w));
                }
            }
            Data::Unknown => {}
            other => r.diags.push(
                Diagnostic::error(
                    LUA_WRONG_TYPE,
                    v.span,
                    format!("a flag must be a string, not {}", other.type_name()),
                )
                .with_label(
                    v.span,
                    "NetHack reports \"flags[i] is not a string\" and ignores it",
                ),
            ),
        };
        match &f.value.data {
            Data::Table(t) => {
                for item in &t.items {
                    one(self, item);
                }
                for named in &t.fields {
                    self.diags.push(
                        Diagnostic::warning(
                            LUA_UNKNOWN_FIELD,
                            "unknown-lua-field",
                            named.key_span,
                            "a named entry in a list of flags",
                        )
                        .with_label(named.span, "NetHack reads the list items only"),
                    );
                }
            }
            Data::Str(_) => one(self, &f.value),
            Data::Nil | Data::Unknown => {}
            _ => self.wrong_type(f, "a word or a list of words"),
        }
        out
    }

    fn alignment(&mut self, fields: &Fields) -> u32 {
        let words: Vec<&str> = ALIGNMENTS.iter().map(|(w, _)| *w).collect();
        self.option(fields, "alignment", &words)
            .map_or(0, |(i, _)| ALIGNMENTS[i].1)
    }

    fn bones(&mut self, fields: &Fields) -> Option<BonesInfo> {
        let name = self.string(fields, "bonetag", false)?;
        if name.bytes.len() > 1 {
            let first = name.bytes[0];
            let mut d = Diagnostic::warning(
                LUA_BONETAG,
                "bonetag-first-char",
                name.span,
                format!(
                    "bonetag \"{}\" has {} characters: NetHack 3.7 uses only \"{}\"",
                    name.text(),
                    name.bytes.len(),
                    display_bytes(&[first])
                ),
            )
            .with_label(name.span, "the first character is the bones marker");
            if name.bytes == b"none" {
                d = d.with_note(
                    "\"none\" is not \"no bones\" in dungeon.lua: leave `bonetag` out for that",
                );
            }
            self.diags.push(d);
        }
        Some(BonesInfo {
            value: match name.bytes.first() {
                Some(&b) => Bones::Marker(b),
                None => Bones::None,
            },
            span: name.span,
        })
    }

    /// A name field that must be there; a placeholder at the table when not.
    fn name(&mut self, fields: &Fields, what: &str) -> Name {
        match self.string(fields, "name", true) {
            Some(n) => n,
            None => {
                if fields.table.field("name").is_none() {
                    self.missing(fields.table, "name", what);
                }
                let open = fields.table.open;
                Name {
                    bytes: Vec::new(),
                    span: open,
                    inner: Span::new(open.end, open.end),
                }
            }
        }
    }

    /// `base` and `range` as a couple.
    fn couple(&mut self, fields: &Fields, what: &str) -> Couple {
        let base = self.int(fields, "base");
        if base.is_none() && fields.table.field("base").is_none() {
            self.missing(fields.table, "base", what);
        }
        let rand = self.int(fields, "range");
        let base_span = base.map_or(fields.table.open, |b| b.span);
        let rand_span = rand.map_or(Span::new(base_span.end, base_span.end), |r| r.span);
        let span = match (fields.table.field("base"), fields.table.field("range")) {
            (Some(b), Some(r)) => b.span.min(r.span).to(b.span.max(r.span)),
            (Some(f), None) | (None, Some(f)) => f.span,
            (None, None) => fields.table.open,
        };
        Couple {
            base: base.map_or(0, |b| b.value),
            rand: rand.map_or(0, |r| r.value),
            span,
            base_span,
            rand_span,
        }
    }

    fn dungeon(&mut self, t: &Table, span: Span) {
        let known = std::mem::take(&mut self.dungeon_fields);
        let fields = self.fields(t, &known, "dungeon");
        self.dungeon_fields = known;
        let id = DungeonId(self.m.dungeons.len() as u32);
        let name = self.name(&fields, "dungeon");
        let bones = self.bones(&fields).unwrap_or(BonesInfo {
            value: Bones::None,
            span: t.open,
        });
        let protofile = self.string(&fields, "protofile", false);
        let size = self.couple(&fields, "dungeon");
        let mut flag_bits = self.alignment(&fields);
        let entry = self.int(&fields, "entry");
        let chance = self.int(&fields, "chance");
        let mut lua = LuaDungeon {
            flags: t.field("flags").map(|f| f.value.span),
            ..LuaDungeon::default()
        };
        for (bits, word) in self.flags(&fields, true) {
            if word.text == "unconnected" {
                lua.unconnected = Some(word.span);
            } else if word.text == "nofood" {
                lua.nofood = Some(word.span);
            } else {
                flag_bits |= bits;
            }
        }
        let tilesets = if self.dungeon_fields.contains(&"tileset") {
            self.int(&fields, "tileset")
                .map(|v| (0, Some(v.value), v.span))
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        lua.lvlfill = self.string(&fields, "lvlfill", false);
        lua.themerooms = self.string(&fields, "themerooms", false);
        self.m.dungeons.push(DungeonInfo {
            id,
            stmt: 0,
            span,
            extent: span,
            keyword_span: t.open,
            name,
            bones,
            size,
            chance,
            entry,
            entries: entry.map(|e| (0, e)).into_iter().collect(),
            protofiles: protofile.clone().map(|p| (0, p)).into_iter().collect(),
            protofile,
            tilesets,
            descs: Vec::new(),
            flags: flag_bits,
            levels: Vec::new(),
            branches: Vec::new(),
            incoming: Vec::new(),
            first_of_name: None,
            lua,
        });
        // Levels before branches, as init_dungeon_dungeons reads them.
        for (key, level) in [("levels", true), ("branches", false)] {
            let Some(list) = t.field(key) else { continue };
            match &list.value.data {
                Data::Table(items) => {
                    for named in &items.fields {
                        self.diags.push(
                            Diagnostic::warning(
                                LUA_UNKNOWN_FIELD,
                                "unknown-lua-field",
                                named.key_span,
                                format!("a named entry in a list of {key}"),
                            )
                            .with_label(
                                named.span,
                                "NetHack reads the list items only and ignores it",
                            ),
                        );
                    }
                    for (index, item) in items.items.iter().enumerate() {
                        match (&item.data, level) {
                            (Data::Table(lt), true) => self.level(id, lt, item.span),
                            (Data::Table(bt), false) => self.branch(id, index, bt, item.span),
                            (Data::Unknown, _) => {}
                            (other, _) => {
                                let what = if level { "level" } else { "branch" };
                                let panic = format!("dungeon[i].{key}[i] is not a hash");
                                self.not_a_table(item.span, other, what, &panic);
                            }
                        }
                    }
                }
                Data::Nil | Data::Unknown => {}
                _ => self.wrong_type(list, "a list of tables"),
            }
        }
    }

    fn level(&mut self, dungeon: DungeonId, t: &Table, span: Span) {
        let known = std::mem::take(&mut self.level_fields);
        let fields = self.fields(t, &known, "level");
        self.level_fields = known;
        let id = LevelId(self.m.levels.len() as u32);
        let name = self.name(&fields, "level");
        let display = if self.level_fields.contains(&"display") {
            self.string(&fields, "display", false)
        } else {
            None
        };
        let bones = self.bones(&fields);
        let chain = self.string(&fields, "chainlevel", false);
        let placement = self.couple(&fields, "level");
        // nlevels 0 is a plain level (dungeon.c: rndlevs 0).
        let rndlevs = self.int(&fields, "nlevels").filter(|n| n.value != 0);
        let chance = self.int(&fields, "chance");
        let mut flag_bits = self.alignment(&fields);
        for (bits, word) in self.flags(&fields, false) {
            if word.text == "unconnected" {
                self.diags.push(
                    Diagnostic::warning(
                        LUA_UNCONNECTED_LEVEL,
                        "unconnected-level",
                        word.span,
                        format!("`unconnected` makes level \"{}\" chaotic", name.text()),
                    )
                    .with_label(word.span, "the same bit as D_ALIGN_CHAOTIC in a level's flags")
                    .with_note("NetHack 3.7 ORs a level's flags and alignment; `unconnected` is a dungeon's flag"),
                );
            }
            flag_bits |= bits;
        }
        let keyword = match (chain.is_some(), rndlevs.is_some()) {
            (false, false) => KeywordKind::Level,
            (false, true) => KeywordKind::RndLevel,
            (true, false) => KeywordKind::ChainLevel,
            (true, true) => KeywordKind::RndChLevel,
        };
        let index = self.m.dungeons[dungeon.index()].levels.len();
        if chain.is_some() {
            // dungeon.c:844: the levels read before this one.
            self.chains.push(Search {
                chained: Chained::Level(id),
                read: id.index(),
                covered: id.index(),
            });
        }
        self.m.levels.push(LevelInfo {
            id,
            dungeon,
            index,
            stmt: 0,
            span,
            keyword,
            keyword_span: t.open,
            name,
            display,
            bones,
            placement,
            chance,
            rndlevs,
            chain: chain.map(|name| ChainRef {
                name,
                target: ChainTarget::Unknown,
            }),
            descs: Vec::new(),
            flags: flag_bits,
            first_of_name: None,
        });
        self.m.dungeons[dungeon.index()].levels.push(id);
    }

    fn branch(&mut self, dungeon: DungeonId, index: usize, t: &Table, span: Span) {
        let known = std::mem::take(&mut self.branch_fields);
        let fields = self.fields(t, &known, "branch");
        self.branch_fields = known;
        let id = BranchId(self.m.branches.len() as u32);
        let target = self.name(&fields, "branch");
        let chain = self.string(&fields, "chainlevel", false);
        let placement = self.couple(&fields, "branch");
        let types: Vec<&str> = BRANCH_TYPES.iter().map(|(w, _)| *w).collect();
        let type_word = self.option(&fields, "branchtype", &types);
        let direction_word = self.option(&fields, "direction", DIRECTIONS);
        let entry = if self.branch_fields.contains(&"entry") {
            self.int(&fields, "entry")
        } else {
            None
        };
        if chain.is_some() {
            // dungeon.c:914: `bi < n_levs + f - 1`, where n_levs already
            // counts this dungeon's levels and f is the branch's index.
            let read = self.m.levels.len();
            self.chains.push(Search {
                chained: Chained::Branch(id),
                read,
                covered: (read + index).saturating_sub(1),
            });
        }
        let branch_chain = chain.map(|name| ChainRef {
            name,
            target: ChainTarget::Unknown,
        });
        self.m.branches.push(BranchInfo {
            id,
            dungeon,
            index,
            stmt: 0,
            span,
            keyword: if branch_chain.is_some() {
                KeywordKind::ChainBranch
            } else {
                KeywordKind::Branch
            },
            keyword_span: t.open,
            target,
            target_dungeon: None,
            chain: branch_chain,
            placement,
            branch_type: Some(
                type_word
                    .as_ref()
                    .map_or(BranchType::Stair, |(i, _)| BRANCH_TYPES[*i].1),
            ),
            type_word: type_word.map(|(_, w)| w),
            up: direction_word.as_ref().is_some_and(|(i, _)| *i == 0),
            direction_word: direction_word.map(|(_, w)| w),
            entry,
        });
        self.m.dungeons[dungeon.index()].branches.push(id);
    }

    /// Names known only once every table is read: repeated names, branch
    /// targets, chains.
    fn resolve(&mut self) {
        let m = &mut self.m;
        let mut dungeon_first: HashMap<Vec<u8>, DungeonId> = HashMap::new();
        for d in &mut m.dungeons {
            d.first_of_name = dungeon_first.get(&d.name.bytes).copied();
            dungeon_first.entry(d.name.bytes.clone()).or_insert(d.id);
        }
        let mut level_first: HashMap<Vec<u8>, LevelId> = HashMap::new();
        for l in &mut m.levels {
            l.first_of_name = level_first.get(&l.name.bytes).copied();
            level_first.entry(l.name.bytes.clone()).or_insert(l.id);
        }
        link_branches(m);
        for &Search {
            chained,
            read,
            covered,
        } in &self.chains
        {
            let (name, dungeon, own) = match chained {
                Chained::Level(l) => {
                    let l = m.level(l);
                    (
                        l.chain.as_ref().map(|c| c.name.bytes.clone()),
                        l.dungeon,
                        Some(l.id),
                    )
                }
                Chained::Branch(b) => {
                    let b = m.branch(b);
                    (
                        b.chain.as_ref().map(|c| c.name.bytes.clone()),
                        b.dungeon,
                        None,
                    )
                }
            };
            let Some(name) = name else { continue };
            let first = level_first.get(&name).copied();
            let target = if name.is_empty() {
                ChainTarget::Empty
            } else {
                match first {
                    Some(l) if l.index() < covered.min(read) => {
                        if m.level(l).dungeon == dungeon {
                            ChainTarget::Level(l)
                        } else {
                            ChainTarget::OtherDungeon(l)
                        }
                    }
                    Some(l) if Some(l) == own => ChainTarget::Itself,
                    Some(l) if m.level(l).dungeon != dungeon => ChainTarget::OtherDungeon(l),
                    Some(l) if l.index() < read && m.level(l).dungeon == dungeon => {
                        ChainTarget::Unreached(l)
                    }
                    Some(l) => ChainTarget::Later(l),
                    None => ChainTarget::Unknown,
                }
            };
            let chain = match chained {
                Chained::Level(l) => m.levels[l.index()].chain.as_mut(),
                Chained::Branch(b) => m.branches[b.index()].chain.as_mut(),
            };
            if let Some(c) = chain {
                c.target = target;
            }
        }
    }
}

/// The known field closest to a misspelled one: a small edit distance, or
/// the same letters in another order (`rnage`).
fn suggestion<'k>(key: &str, known: &[&'k str]) -> Option<&'k [u8]> {
    closest(key.as_bytes(), known.iter().map(|k| k.as_bytes())).or_else(|| {
        let sorted = |s: &str| {
            let mut b = s.to_ascii_lowercase().into_bytes();
            b.sort_unstable();
            b
        };
        let mine = sorted(key);
        known
            .iter()
            .find(|k| sorted(k) == mine)
            .map(|k| k.as_bytes())
    })
}
