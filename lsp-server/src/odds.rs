//! The checks that enumerate every layout the loader can make
//! ([`dgnkit::frontend::layout_odds`]: load-failure odds, bones markers
//! that are never used). They take milliseconds on vanilla and more on
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
use crate::statistics::{Key, Mode};
use dgnkit_grammar::Diagnostic;
use std::collections::HashMap;
use std::sync::Arc;
use tower_lsp_server::ls_types::Uri;

enum Status {
    Running,
    /// In canonical offsets.
    Done(Arc<Vec<Diagnostic>>),
}

struct Entry {
    key: Key,
    status: Status,
}

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
    entries: HashMap<Uri, Entry>,
}

impl Cache {
    /// The diagnostics of the document's current state (canonical
    /// offsets), when ready.
    pub fn get(&self, uri: &Uri, canonical: &[u8], config: &Config) -> Option<&[Diagnostic]> {
        if config.statistics == Mode::Off {
            return None;
        }
        match self.entries.get(uri) {
            Some(Entry {
                key,
                status: Status::Done(d),
            }) if key.matches(canonical, config) => Some(d),
            _ => None,
        }
    }

    /// A job for `key` unless its result is known or being computed (a
    /// running job for an older key finishes first; its completion asks
    /// again).
    pub fn job(&mut self, uri: &Uri, key: Key, semantic: &Arc<Semantic>) -> Option<Job> {
        match self.entries.get(uri) {
            Some(Entry {
                status: Status::Running,
                ..
            }) => return None,
            Some(Entry {
                key: k,
                status: Status::Done(_),
            }) if *k == key => return None,
            _ => {}
        }
        self.entries.insert(
            uri.clone(),
            Entry {
                key: key.clone(),
                status: Status::Running,
            },
        );
        Some(Job {
            uri: uri.clone(),
            key,
            semantic: semantic.clone(),
        })
    }

    pub fn finish(&mut self, uri: Uri, key: Key, odds: Arc<Vec<Diagnostic>>) {
        self.entries.insert(
            uri,
            Entry {
                key,
                status: Status::Done(odds),
            },
        );
    }

    /// A job that failed to report (it panicked): allow a new one.
    pub fn abandon(&mut self, uri: &Uri) {
        if matches!(
            self.entries.get(uri),
            Some(Entry {
                status: Status::Running,
                ..
            })
        ) {
            self.entries.remove(uri);
        }
    }

    pub fn forget(&mut self, uri: &Uri) {
        self.entries.remove(uri);
    }
}
