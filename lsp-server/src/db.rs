//! The incremental database. Inputs: each open document's bytes, and the
//! settings. Queries, from cheap to expensive:
//!
//! - [`syntax`]: tokens, syntax tree, parse diagnostics and line index of the
//!   real text (rerun on every edit: it is linear and fast);
//! - [`canonical`]: the text without comments and with spacing normalised
//!   (rerun on every edit, but equal results stop the invalidation there);
//! - [`semantic`]: the semantic model and checks of the canonical text, so an
//!   edit to a comment or to spacing does not rerun it;
//! - [`diagnostics`]: the analysis's diagnostics carried back to real offsets,
//!   plus the parse diagnostics of the real text;
//! - [`geometry`]: the static level and depth ranges hovers and inlay hints
//!   fall back on (exact statistics live outside salsa: see
//!   [`crate::statistics`]).

use crate::analysis::{self as bridge, Semantic};
use crate::canon::{self, CanonMap};
use crate::config::Config;
use crate::facts;
use crate::position::LineIndex;
use dgnkit_grammar::lexer::{self, Token};
use dgnkit_grammar::Diagnostic;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[salsa::input]
pub struct SourceFile {
    #[returns(ref)]
    pub text: Vec<u8>,
    /// The settings the file is checked with (one input shared by all files).
    pub settings: Settings,
    /// A NetHack 3.7 `dungeon.lua` (from the document's name) rather than
    /// a `dungeon.def`.
    pub lua: bool,
    /// Where the file lies (a `file:` document), for the game its path
    /// names (see [`dgnkit::games::detect`]).
    #[returns(ref)]
    pub path: Option<std::path::PathBuf>,
}

#[salsa::input]
pub struct Settings {
    #[returns(ref)]
    pub config: Config,
}

#[salsa::db]
pub trait Db: salsa::Database {
    /// Counts executions of the analysis query (what incrementality saves).
    fn note_analysis_run(&self);
}

#[salsa::db]
#[derive(Clone, Default)]
pub struct Database {
    storage: salsa::Storage<Self>,
    settings: Option<Settings>,
    analysis_runs: Arc<AtomicUsize>,
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {
    fn note_analysis_run(&self) {
        self.analysis_runs.fetch_add(1, Ordering::Relaxed);
    }
}

impl Database {
    pub fn new(config: Config) -> Self {
        let mut db = Database::default();
        db.settings = Some(Settings::new(&db, config));
        db
    }

    fn settings(&mut self) -> Settings {
        match self.settings {
            Some(s) => s,
            None => {
                let s = Settings::new(self, Config::default());
                self.settings = Some(s);
                s
            }
        }
    }

    pub fn config(&self) -> Config {
        self.settings
            .map(|s| s.config(self).clone())
            .unwrap_or_default()
    }

    pub fn set_config(&mut self, config: Config) {
        use salsa::Setter;
        if self.config() != config {
            let settings = self.settings();
            settings.set_config(self).to(config);
        }
    }

    pub fn new_file(
        &mut self,
        text: Vec<u8>,
        lua: bool,
        path: Option<std::path::PathBuf>,
    ) -> SourceFile {
        let settings = self.settings();
        SourceFile::new(self, text, settings, lua, path)
    }

    pub fn set_text(&mut self, file: SourceFile, text: Vec<u8>) {
        use salsa::Setter;
        file.set_text(self).to(text);
    }

    /// How many times the analysis query has executed so far.
    pub fn analysis_runs(&self) -> usize {
        self.analysis_runs.load(Ordering::Relaxed)
    }
}

/// The settings `file` is checked with (see [`Config::for_source`]).
pub fn file_config(db: &dyn Db, file: SourceFile) -> Config {
    file.settings(db).config(db).for_source(*file.lua(db))
}

/// Everything about the real text that does not need the semantic model.
pub struct Syntax {
    pub tokens: Vec<Token>,
    pub parsed: dgnkit_grammar::Parsed,
    pub index: LineIndex,
}

#[salsa::tracked(returns(ref), no_eq)]
pub fn syntax(db: &dyn Db, file: SourceFile) -> Arc<Syntax> {
    let text = file.text(db);
    let options = bridge::parse_options(&file_config(db, file));
    // dungeon.lua has none of .def's tokens or statements: its structure
    // is the model's (see `semantic`).
    let (tokens, parsed) = if *file.lua(db) {
        (Vec::new(), dgnkit_grammar::Parsed::default())
    } else {
        (lexer::lex(text), dgnkit_grammar::parse(text, &options))
    };
    Arc::new(Syntax {
        tokens,
        parsed,
        index: LineIndex::new(text),
    })
}

/// The canonical text: equal for texts that differ only in comments and spacing.
#[salsa::tracked(returns(ref))]
pub fn canonical(db: &dyn Db, file: SourceFile) -> Vec<u8> {
    let text = file.text(db);
    if *file.lua(db) {
        return text.clone();
    }
    canon::canonicalize(text, &syntax(db, file).tokens).0
}

#[salsa::tracked(returns(ref), no_eq)]
pub fn canon_map(db: &dyn Db, file: SourceFile) -> Arc<CanonMap> {
    let text = file.text(db);
    if *file.lua(db) {
        return Arc::new(CanonMap::identity(text));
    }
    Arc::new(canon::canonicalize(text, &syntax(db, file).tokens).1)
}

/// The semantic model and checks, in canonical offsets.
#[salsa::tracked(returns(ref), no_eq)]
pub fn semantic(db: &dyn Db, file: SourceFile) -> Arc<Semantic> {
    db.note_analysis_run();
    let text = canonical(db, file);
    Arc::new(bridge::run(text, &file_config(db, file), *file.lua(db)))
}

/// What `dgn check` reports for the real text, in real offsets.
#[salsa::tracked(returns(ref), no_eq)]
pub fn diagnostics(db: &dyn Db, file: SourceFile) -> Arc<Vec<Diagnostic>> {
    let semantic = semantic(db, file);
    let map = canon_map(db, file);
    let syntax = syntax(db, file);
    let config = file_config(db, file);
    let mut out = bridge::real_diagnostics(semantic, map, &syntax.parsed.diagnostics, &config);
    bridge::family_note(&mut out, file.path(db).as_deref(), &config, *file.lua(db));
    Arc::new(out)
}

/// Static ranges of everything (from the canonical analysis).
#[salsa::tracked(returns(ref), no_eq)]
pub fn geometry(db: &dyn Db, file: SourceFile) -> Arc<facts::Geometry> {
    Arc::new(facts::geometry(
        canonical(db, file),
        semantic(db, file),
        &file_config(db, file),
    ))
}
