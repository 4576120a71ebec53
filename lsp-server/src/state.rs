//! The document store: open documents, their versions, and the database.
//! Everything here is synchronous; the server wraps it in a lock.

use crate::config::Config;
use crate::db::{self, Database, SourceFile, Syntax};
use crate::odds;
use crate::position::LineIndex;
use crate::statistics;
use std::collections::BTreeMap;
use std::sync::Arc;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

pub struct Document {
    pub file: SourceFile,
    pub version: i32,
}

pub struct State {
    pub db: Database,
    pub docs: BTreeMap<Uri, Document>,
    /// Inputs of closed documents, reused when they are opened again.
    closed: BTreeMap<Uri, SourceFile>,
    pub stats: statistics::Cache,
    pub odds: odds::Cache,
    access: Access,
}

/// What the server may reach beyond the texts its client sends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Access {
    /// An editor's own server (`dgn-lsp` on standard input/output): a
    /// `file:` document is also the file on disk (its path names its game,
    /// its bytes are read when the editor's text is their lossy decoding)
    /// and `dgnkit.compareWithHead` runs git on it.
    #[default]
    Local,
    /// A server for clients that are not trusted (`dgn serve`'s page over a
    /// WebSocket): a document is its text alone, whatever its URI; no
    /// request reads a file or runs a process; at most `documents` are open
    /// at once.
    Sandboxed { documents: usize },
}

impl Access {
    /// The path on disk a document stands for: none when sandboxed.
    pub fn file_path(self, uri: &Uri) -> Option<std::path::PathBuf> {
        match self {
            Access::Local => file_path(uri),
            Access::Sandboxed { .. } => None,
        }
    }

    pub fn is_sandboxed(self) -> bool {
        matches!(self, Access::Sandboxed { .. })
    }
}

impl Default for State {
    fn default() -> Self {
        State::new(Config::default())
    }
}

impl State {
    pub fn new(config: Config) -> Self {
        State::with_access(config, Access::Local)
    }

    pub fn with_access(config: Config, access: Access) -> Self {
        State {
            db: Database::new(config),
            docs: BTreeMap::new(),
            closed: BTreeMap::new(),
            stats: statistics::Cache::default(),
            odds: odds::Cache::default(),
            access,
        }
    }

    pub fn access(&self) -> Access {
        self.access
    }

    /// Why `uri` may not be opened now: a sandboxed server holds at most
    /// its number of documents (each can keep a statistics job busy).
    pub fn refuse_open(&self, uri: &Uri) -> Option<String> {
        match self.access {
            Access::Sandboxed { documents }
                if self.docs.len() >= documents && !self.docs.contains_key(uri) =>
            {
                Some(format!(
                    "{} was not opened: this server holds at most {documents} document{} open at once; close one first",
                    uri.as_str(),
                    if documents == 1 { "" } else { "s" }
                ))
            }
            _ => None,
        }
    }

    /// Opens (or reopens) a document. The editor sends text; when the file on
    /// disk is not UTF-8 and the text is its lossy decoding, the real bytes
    /// are kept so that names and offsets are those of the file.
    pub fn open(&mut self, uri: Uri, version: i32, text: String) {
        let bytes = match self.access {
            Access::Local => disk_bytes_behind(&uri, &text),
            Access::Sandboxed { .. } => None,
        }
        .unwrap_or_else(|| text.into_bytes());
        match self.docs.get_mut(&uri) {
            Some(doc) => {
                doc.version = version;
                let file = doc.file;
                self.db.set_text(file, bytes);
            }
            None => {
                let file = match self.closed.remove(&uri) {
                    Some(file) => {
                        self.db.set_text(file, bytes);
                        file
                    }
                    None => {
                        let path = self.access.file_path(&uri);
                        self.db.new_file(bytes, is_lua(&uri), path)
                    }
                };
                self.docs.insert(uri, Document { file, version });
            }
        }
    }

    pub fn close(&mut self, uri: &Uri) {
        // Salsa inputs live as long as the database: keep the input for a
        // later open, with an empty text so its memos stay small.
        if let Some(doc) = self.docs.remove(uri) {
            self.db.set_text(doc.file, Vec::new());
            self.closed.insert(uri.clone(), doc.file);
        }
        self.stats.forget(uri);
        self.odds.forget(uri);
    }

    /// Applies content changes in order (each range is relative to the
    /// text after the previous change). Returns false for an unknown document.
    pub fn change(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> bool {
        let Some(doc) = self.docs.get_mut(uri) else {
            return false;
        };
        doc.version = version;
        let file = doc.file;
        let mut text = file.text(&self.db).clone();
        for change in changes {
            apply_change(&mut text, change.range, &change.text);
        }
        self.db.set_text(file, text);
        true
    }

    /// Replaces a document's text by raw bytes (what a client cannot send:
    /// for tools and tests). Returns false for an unknown document.
    pub fn set_bytes(&mut self, uri: &Uri, version: i32, bytes: Vec<u8>) -> bool {
        let Some(doc) = self.docs.get_mut(uri) else {
            return false;
        };
        doc.version = version;
        let file = doc.file;
        self.db.set_text(file, bytes);
        true
    }

    pub fn set_config(&mut self, config: Config) {
        self.db.set_config(config);
    }

    pub fn config(&self) -> Config {
        self.db.config()
    }

    pub fn doc(&self, uri: &Uri) -> Option<DocView<'_>> {
        let (uri, doc) = self.docs.get_key_value(uri)?;
        Some(DocView {
            db: &self.db,
            file: doc.file,
            uri,
            version: doc.version,
            stats: &self.stats,
            odds: &self.odds,
        })
    }

    pub fn views(&self) -> impl Iterator<Item = DocView<'_>> {
        self.docs.iter().map(|(uri, doc)| DocView {
            db: &self.db,
            file: doc.file,
            uri,
            version: doc.version,
            stats: &self.stats,
            odds: &self.odds,
        })
    }

    /// Makes sure the statistics of the document's current state exist or
    /// are on their way: computes them now (inline mode) or returns the job
    /// to run in the background.
    pub fn prepare_stats(&mut self, uri: &Uri) -> Option<statistics::Job> {
        let file = self.docs.get(uri)?.file;
        let config = db::file_config(&self.db, file);
        if config.statistics == statistics::Mode::Off {
            return None;
        }
        let script = db::semantic(&self.db, file).analysis.script.clone()?;
        let key = statistics::Key::new(db::canonical(&self.db, file).clone(), &config);
        let job = self.stats.job(uri, Some(key), Some(&script))?;
        if config.statistics == statistics::Mode::Inline {
            let (uri, key, stats) = job.run();
            self.stats.finish(uri, key, stats);
            return None;
        }
        Some(job)
    }

    /// Makes sure the layout-odds diagnostics of the document's current
    /// state exist or are on their way (see [`odds`]): computes them now
    /// (inline mode) or returns the job to run in the background.
    pub fn prepare_odds(&mut self, uri: &Uri) -> Option<odds::Job> {
        let file = self.docs.get(uri)?.file;
        let config = db::file_config(&self.db, file);
        if config.statistics == statistics::Mode::Off {
            return None;
        }
        let semantic = db::semantic(&self.db, file).clone();
        if semantic.analysis.has_errors() {
            return None;
        }
        let key = statistics::Key::new(db::canonical(&self.db, file).clone(), &config);
        let job = self.odds.job(uri, key, &semantic)?;
        if config.statistics == statistics::Mode::Inline {
            let (uri, key, odds) = job.run();
            self.odds.finish(uri, key, odds);
            return None;
        }
        Some(job)
    }

    /// Whether the layout-odds diagnostics of the document's current state
    /// are known.
    pub fn odds_current(&self, uri: &Uri) -> bool {
        let Some(doc) = self.docs.get(uri) else {
            return false;
        };
        let canonical = db::canonical(&self.db, doc.file);
        let config = db::file_config(&self.db, doc.file);
        self.odds.get(uri, canonical, &config).is_some()
    }

    /// The documents' texts, to rebuild the database after a failure.
    pub fn snapshot(&self) -> Vec<(Uri, i32, Vec<u8>)> {
        self.docs
            .iter()
            .map(|(u, d)| (u.clone(), d.version, d.file.text(&self.db).clone()))
            .collect()
    }

    /// Rebuilds the state after a failure; statistics are recomputed.
    pub fn restore(config: Config, access: Access, docs: Vec<(Uri, i32, Vec<u8>)>) -> State {
        let mut state = State::with_access(config, access);
        for (uri, version, bytes) in docs {
            let file = state
                .db
                .new_file(bytes, is_lua(&uri), access.file_path(&uri));
            state.docs.insert(uri, Document { file, version });
        }
        state
    }
}

/// Whether a document is a NetHack 3.7 `dungeon.lua`: by its name's
/// extension, as `dgn` decides (the editors send only files named
/// `dungeon.lua`, never other Lua files).
pub fn is_lua(uri: &Uri) -> bool {
    uri.path().as_str().ends_with(".lua")
}

/// The path of a `file:` document (an unsaved one has none), whatever the
/// server's [`Access`]: ask the access for the path a server may use.
pub fn file_path(uri: &Uri) -> Option<std::path::PathBuf> {
    if uri.scheme().as_str() != "file" {
        return None;
    }
    uri.to_file_path().map(|p| p.into_owned())
}

/// Replaces `range` (the whole text when `None`) by `new`.
pub fn apply_change(text: &mut Vec<u8>, range: Option<Range>, new: &str) {
    match range {
        None => *text = new.as_bytes().to_vec(),
        Some(range) => {
            let index = LineIndex::new(text);
            let span = index.span(text, range);
            text.splice(span.range(), new.bytes());
        }
    }
}

/// The bytes of the file behind a `file:` URI, when they are not UTF-8 and
/// the editor's text is their lossy decoding.
fn disk_bytes_behind(uri: &Uri, text: &str) -> Option<Vec<u8>> {
    if !text.contains('\u{FFFD}') || uri.scheme().as_str() != "file" {
        return None;
    }
    let path = uri.to_file_path()?;
    let bytes = std::fs::read(&path).ok()?;
    (std::str::from_utf8(&bytes).is_err() && String::from_utf8_lossy(&bytes) == text)
        .then_some(bytes)
}

/// One open document and the database, for the features.
#[derive(Clone, Copy)]
pub struct DocView<'a> {
    pub db: &'a Database,
    pub file: SourceFile,
    pub uri: &'a Uri,
    pub version: i32,
    stats: &'a statistics::Cache,
    odds: &'a odds::Cache,
}

impl<'a> DocView<'a> {
    /// The exact statistics of the current state, or why there are none.
    pub fn stats(&self) -> Result<&'a dgnkit::stats::Stats, statistics::Missing> {
        let has_script = self.semantic().analysis.script.is_some();
        let canonical = db::canonical(self.db, self.file);
        self.stats
            .get(self.uri, canonical, &self.config(), has_script)
    }

    /// The settings this document is checked with.
    pub fn config(&self) -> crate::config::Config {
        db::file_config(self.db, self.file)
    }

    /// Whether the document is a NetHack 3.7 `dungeon.lua`.
    pub fn is_lua(&self) -> bool {
        *self.file.lua(self.db)
    }

    pub fn text(&self) -> &'a [u8] {
        self.file.text(self.db)
    }

    pub fn syntax(&self) -> &'a Arc<Syntax> {
        db::syntax(self.db, self.file)
    }

    pub fn semantic(&self) -> &'a Arc<crate::analysis::Semantic> {
        db::semantic(self.db, self.file)
    }

    pub fn canon_map(&self) -> &'a Arc<crate::canon::CanonMap> {
        db::canon_map(self.db, self.file)
    }

    /// The fast diagnostics: every check but the layout odds.
    pub fn diagnostics(&self) -> &'a Arc<Vec<dgnkit_grammar::Diagnostic>> {
        db::diagnostics(self.db, self.file)
    }

    /// What `dgn check` reports: the fast diagnostics and, once computed
    /// for this state, the layout-odds ones (see [`odds`]).
    pub fn all_diagnostics(&self) -> Vec<dgnkit_grammar::Diagnostic> {
        let fast = self.diagnostics();
        let canonical = db::canonical(self.db, self.file);
        match self.odds.get(self.uri, canonical, &self.config()) {
            Some(extra) if !extra.is_empty() => {
                let map = self.canon_map();
                let mut all = fast.to_vec();
                all.extend(
                    extra
                        .iter()
                        .map(|d| crate::analysis::map_diagnostic(d, map)),
                );
                dgnkit::frontend::sort(&mut all);
                all
            }
            _ => fast.to_vec(),
        }
    }

    pub fn range(&self, span: dgnkit_grammar::Span) -> Range {
        self.syntax().index.range(self.text(), span)
    }

    pub fn offset(&self, position: Position) -> u32 {
        self.syntax().index.offset(self.text(), position)
    }

    /// The semantic model (canonical offsets: convert with [`Self::to_real`]).
    pub fn model(&self) -> &'a dgnkit::model::Model {
        &self.semantic().analysis.model
    }

    /// A real span of a model span.
    pub fn to_real(&self, span: dgnkit_grammar::Span) -> dgnkit_grammar::Span {
        self.canon_map().span_to_real(span)
    }

    /// The canonical offset of the position, for model look-ups.
    pub fn canon_offset(&self, position: Position) -> Option<u32> {
        self.canon_map().to_canon(self.offset(position))
    }
}
