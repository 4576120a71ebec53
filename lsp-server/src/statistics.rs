//! Statistics for hovers and inlay hints (exact, or sampled when the
//! enumeration is too large or the game's rules are not modelled: as
//! `dgn stats` computes them), computed off the request path. They can
//! take from milliseconds to seconds (the enumeration of a large variant
//! file), so a request never waits for them: it answers with
//! what is ready (or the static ranges) and starts a computation for the
//! current semantic state; the next request uses the result.
//!
//! Results are keyed by the canonical text and the settings, so edits to
//! comments and spacing keep them, like the analysis. One computation per
//! document runs at a time.

use crate::config::Config;
use crate::jobs::JobCache;
use dgnkit::script::Script;
use dgnkit::stats::Stats;
use std::sync::Arc;
use tower_lsp_server::ls_types::Uri;

/// When statistics are computed (`dgnkit.statistics`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// In the background; requests use them once ready.
    #[default]
    Background,
    /// Before answering the request that needs them (deterministic; for
    /// tests and batch tools).
    Inline,
    /// Never: hovers and hints show static ranges.
    Off,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "background" => Some(Mode::Background),
            "inline" => Some(Mode::Inline),
            "off" => Some(Mode::Off),
            _ => None,
        }
    }
}

/// What the statistics depend on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub canonical: Vec<u8>,
    /// The settings, without the statistics mode (which does not change
    /// the numbers).
    pub config: Config,
}

impl Key {
    pub fn new(canonical: Vec<u8>, config: &Config) -> Key {
        Key {
            canonical,
            config: Config {
                statistics: Mode::default(),
                ..config.clone()
            },
        }
    }

    pub(crate) fn matches(&self, canonical: &[u8], config: &Config) -> bool {
        self.canonical == canonical
            && self.config
                == Config {
                    statistics: Mode::default(),
                    ..config.clone()
                }
    }
}

/// Why a request has no statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// The file has errors: the loader cannot run on it.
    Errors,
    Computing,
    Off,
}

impl Missing {
    pub fn explain(self) -> &'static str {
        match self {
            Missing::Errors => "ranges only: probabilities need a file without errors",
            Missing::Computing => "ranges only: the statistics are being computed",
            Missing::Off => "ranges only: statistics are turned off (dgnkit.statistics)",
        }
    }
}

/// A computation to run off the lock.
pub struct Job {
    pub uri: Uri,
    pub key: Key,
    script: Script,
}

impl Job {
    pub fn run(self) -> (Uri, Key, Arc<Stats>) {
        let stats = Arc::new(crate::facts::stats(&self.script, &self.key.config));
        (self.uri, self.key, stats)
    }
}

#[derive(Default)]
pub struct Cache {
    jobs: JobCache<Arc<Stats>>,
}

impl Cache {
    /// The statistics of the document's current state, or why there are
    /// none. `has_script`: the file has no errors.
    pub fn get(
        &self,
        uri: &Uri,
        canonical: &[u8],
        config: &Config,
        has_script: bool,
    ) -> Result<&Stats, Missing> {
        if config.statistics == Mode::Off {
            return Err(Missing::Off);
        }
        if !has_script {
            return Err(Missing::Errors);
        }
        match self.jobs.done(uri, canonical, config) {
            Some(done) => Ok(done.as_ref()),
            None => Err(Missing::Computing),
        }
    }

    /// A job for `key` unless its statistics are known or being computed
    /// (a running job for an older key finishes first).
    pub fn job(&mut self, uri: &Uri, key: Option<Key>, script: Option<&Script>) -> Option<Job> {
        let (key, script) = (key?, script?);
        self.jobs.start(uri, &key).then(|| Job {
            uri: uri.clone(),
            key,
            script: script.clone(),
        })
    }

    pub fn finish(&mut self, uri: Uri, key: Key, stats: Arc<Stats>) {
        self.jobs.finish(uri, key, stats);
    }

    /// A job that failed to report (it panicked): allow a new one.
    pub fn abandon(&mut self, uri: &Uri) {
        self.jobs.abandon(uri);
    }

    pub fn forget(&mut self, uri: &Uri) {
        self.jobs.forget(uri);
    }
}
