//! Results of background computations per document, keyed by the state they
//! were computed for (canonical text and settings): at most one computation
//! per document runs at a time, and a result is used only for its own state.
//! The statistics ([`crate::statistics`]) and the layout-odds diagnostics
//! ([`crate::odds`]) keep theirs here.

use crate::config::Config;
use crate::statistics::Key;
use std::collections::HashMap;
use tower_lsp_server::ls_types::Uri;

enum Status<T> {
    Running,
    Done(T),
}

struct Entry<T> {
    key: Key,
    status: Status<T>,
}

pub struct JobCache<T> {
    entries: HashMap<Uri, Entry<T>>,
}

impl<T> Default for JobCache<T> {
    fn default() -> Self {
        JobCache {
            entries: HashMap::new(),
        }
    }
}

impl<T> JobCache<T> {
    /// The result for the document's current state, when it is done.
    pub fn done(&self, uri: &Uri, canonical: &[u8], config: &Config) -> Option<&T> {
        match self.entries.get(uri) {
            Some(Entry {
                key,
                status: Status::Done(v),
            }) if key.matches(canonical, config) => Some(v),
            _ => None,
        }
    }

    /// Marks a computation for `key` as running, unless one is running (for
    /// any key: it finishes first, and its completion asks again) or the
    /// result for `key` is known. Returns whether the caller should start it.
    pub fn start(&mut self, uri: &Uri, key: &Key) -> bool {
        match self.entries.get(uri) {
            Some(Entry {
                status: Status::Running,
                ..
            }) => return false,
            Some(Entry {
                key: k,
                status: Status::Done(_),
            }) if k == key => return false,
            _ => {}
        }
        self.entries.insert(
            uri.clone(),
            Entry {
                key: key.clone(),
                status: Status::Running,
            },
        );
        true
    }

    pub fn finish(&mut self, uri: Uri, key: Key, value: T) {
        self.entries.insert(
            uri,
            Entry {
                key,
                status: Status::Done(value),
            },
        );
    }

    /// A computation that failed to report (it panicked): allow a new one.
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
