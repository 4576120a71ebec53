//! The checks that enumerate every layout the loader can make
//! ([`dgnkit::frontend::layout_odds`]: load-failure odds, bones markers
//! that are never used). They enumerate every layout, which takes long on
//! large variant files, so they run off the keystroke path: an edit is
//! answered with the fast diagnostics at once, and the document's
//! diagnostics are published again, complete, when these are ready.
//!
//! Results are keyed by the canonical text and the settings (like the
//! analysis, edits to comments and spacing keep them). With
//! `dgnkit.statistics` set to `inline` they are computed before answering
//! (deterministic, for tests); with `off` they are not computed.

use crate::analysis::{check_options, Semantic};
use crate::config::Config;
use crate::jobs::JobCache;
use crate::statistics::{Key, Mode};
use dgnkit_grammar::Diagnostic;
use std::sync::Arc;
use tower_lsp_server::ls_types::Uri;

/// A computation to run off the lock.
pub struct Job {
    pub uri: Uri,
    pub key: Key,
    semantic: Arc<Semantic>,
}

impl Job {
    pub fn run(self) -> (Uri, Key, Arc<Vec<Diagnostic>>) {
        let opts = check_options(&self.key.config);
        let odds =
            dgnkit::frontend::layout_odds(&self.key.canonical, &self.semantic.analysis, &opts);
        (self.uri, self.key, Arc::new(odds))
    }
}

#[derive(Default)]
pub struct Cache {
    jobs: JobCache<Arc<Vec<Diagnostic>>>,
}

impl Cache {
    /// The diagnostics of the document's current state (canonical
    /// offsets), when ready.
    pub fn get(&self, uri: &Uri, canonical: &[u8], config: &Config) -> Option<&[Diagnostic]> {
        if config.statistics == Mode::Off {
            return None;
        }
        self.jobs.done(uri, canonical, config).map(|d| d.as_slice())
    }

    /// A job for `key` unless its result is known or being computed.
    pub fn job(&mut self, uri: &Uri, key: Key, semantic: &Arc<Semantic>) -> Option<Job> {
        self.jobs.start(uri, &key).then(|| Job {
            uri: uri.clone(),
            key,
            semantic: semantic.clone(),
        })
    }

    pub fn finish(&mut self, uri: Uri, key: Key, odds: Arc<Vec<Diagnostic>>) {
        self.jobs.finish(uri, key, odds);
    }

    pub fn abandon(&mut self, uri: &Uri) {
        self.jobs.abandon(uri);
    }

    pub fn forget(&mut self, uri: &Uri) {
        self.jobs.forget(uri);
    }
}
