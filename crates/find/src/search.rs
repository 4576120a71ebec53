//! Running a query over many seeds: every seed resolved only as far as
//! its answer needs, generators seeded side by side, chunks of seeds on
//! every core, results handed over in seed order.

use super::eval::{Env, Facts};
use super::query::{stage, Query};
use dgnkit_bones::BonesOptions;
use dgnkit_loader::rng::{Draw, RngKind, Trace};
use dgnkit_loader::{Checkpoint, LoadError, Resolved, Resolver};
use std::collections::BTreeMap;
use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// One seed's answer.
pub type Verdict = Result<bool, LoadError>;

/// A query bound to a script, a generator and a mode.
pub struct Finder<'a> {
    pub res: &'a Resolver,
    pub query: &'a Query,
    pub env: Env<'a>,
    pub rng: RngKind,
    pub wizard: bool,
    /// Stop resolving a seed once its answer is known. Sound only when no
    /// later step of the loader can fail (a failed seed matches nothing):
    /// [`super::stops_safely`].
    pub early: bool,
    /// Stages at which some fact becomes final, ascending.
    wakes: Vec<u32>,
}

/// The loader's watcher for one seed: evaluates the query when a fact
/// becomes final and stops the resolution once the answer is known.
pub struct Watch<'f, 'a> {
    finder: &'f Finder<'a>,
    next: usize,
    verdict: Option<bool>,
}

impl Trace for Watch<'_, '_> {
    const KEEPS_DRAWS: bool = false;

    #[inline(always)]
    fn draw(&mut self, _draw: Draw) {}

    #[inline]
    fn checkpoint(&mut self, at: Checkpoint, out: &Resolved) -> ControlFlow<()> {
        let f = self.finder;
        let s = stage(at);
        if !f.early || f.wakes.get(self.next).is_none_or(|&w| w > s) {
            return ControlFlow::Continue(());
        }
        while f.wakes.get(self.next).is_some_and(|&w| w <= s) {
            self.next += 1;
        }
        let (q, env) = f.for_outcome(out);
        match Facts::new(q, &env, s).eval(&q.root, out) {
            Some(v) => {
                self.verdict = Some(v);
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        }
    }
}

impl Watch<'_, '_> {
    /// The seed's answer after its resolution, and ready for the next.
    fn take(&mut self, result: Result<(), LoadError>, out: &Resolved) -> Verdict {
        let v = match (result, self.verdict.take()) {
            (Err(e), _) => Err(e),
            (Ok(()), Some(v)) => Ok(v),
            (Ok(()), None) => {
                let f = self.finder;
                let (q, env) = f.for_outcome(out);
                // A complete layout decides every fact.
                Ok(Facts::new(q, &env, q.final_stage)
                    .eval(&q.root, out)
                    .unwrap_or(false))
            }
        };
        self.next = 0;
        v
    }
}

/// What a chunk of seeds gave.
#[derive(Debug, Default)]
pub struct Chunk {
    pub seeds: Range<u64>,
    pub matches: Vec<u64>,
    pub failed: u64,
    /// The first failure: its seed and error.
    pub first_failure: Option<(u64, LoadError)>,
}

/// Seeds a worker takes at a time.
pub const CHUNK_SEEDS: u64 = 8192;

impl<'a> Finder<'a> {
    pub fn new(
        res: &'a Resolver,
        query: &'a Query,
        bones: &'a BonesOptions,
        rng: RngKind,
        wizard: bool,
        early: bool,
    ) -> Finder<'a> {
        let mut wakes: Vec<u32> = query.facts.iter().map(|f| f.ready).collect();
        wakes.sort_unstable();
        wakes.dedup();
        Finder {
            res,
            query,
            env: Env::new(res, bones),
            rng,
            wizard,
            early,
            wakes,
        }
    }

    fn watch(&self) -> Watch<'_, 'a> {
        Watch {
            finder: self,
            next: 0,
            verdict: None,
        }
    }

    /// The answer for every seed of `seeds`, in order, to `each`.
    pub fn scan(
        &self,
        seeds: Range<u64>,
        out: &mut Resolved,
        mut each: impl FnMut(u64, Verdict) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut watch = self.watch();
        self.res.resolve_seeds_with(
            seeds,
            self.rng,
            self.wizard,
            out,
            &mut watch,
            |seed, result, out, watch| each(seed, watch.take(result, out)),
        )
    }

    /// One seed's answer.
    pub fn test(&self, seed: u64) -> Verdict {
        let mut v = Ok(false);
        let _ = self.scan(seed..seed + 1, &mut Resolved::default(), |_, r| {
            v = r;
            ControlFlow::Continue(())
        });
        v
    }

    /// The values of every fact the query names, from the complete layout.
    pub fn values(&self, seed: u64) -> Result<Vec<(String, serde_json::Value)>, LoadError> {
        let mut out = Resolved::default();
        self.res
            .resolve_into(seed, self.rng, self.wizard, &mut out)?;
        let (q, env) = self.for_outcome(&out);
        Ok(q.facts
            .iter()
            .map(|f| (f.text.clone(), env.json(env.value(&f.fact, &out))))
            .collect())
    }

    /// The query and its records for the outcome of the file's own draws
    /// that `out` took (the query itself for a file that draws nothing).
    fn for_outcome(&self, out: &Resolved) -> (&'a Query, Env<'a>) {
        (
            self.query.for_outcome(out.outcome),
            Env::new(self.res.outcome(out.outcome), self.env.bones),
        )
    }

    fn chunk(&self, seeds: Range<u64>, out: &mut Resolved) -> Chunk {
        let mut c = Chunk {
            seeds: seeds.clone(),
            ..Chunk::default()
        };
        let _ = self.scan(seeds, out, |seed, v| {
            match v {
                Ok(true) => c.matches.push(seed),
                Ok(false) => {}
                Err(e) => {
                    c.failed += 1;
                    if c.first_failure.is_none() {
                        c.first_failure = Some((seed, e));
                    }
                }
            }
            ControlFlow::Continue(())
        });
        c
    }

    /// Runs over `seeds` on `jobs` threads, handing each chunk to `sink`
    /// in seed order until `sink` breaks, the seeds run out or `stop` is
    /// set (then the chunks finished in order so far have been handed).
    pub fn search(
        &self,
        seeds: Range<u64>,
        jobs: usize,
        stop: &AtomicBool,
        mut sink: impl FnMut(Chunk) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let start = seeds.start;
        let chunks = (seeds.end - seeds.start).div_ceil(CHUNK_SEEDS);
        let range = |k: u64| {
            let a = start + k * CHUNK_SEEDS;
            a..a.saturating_add(CHUNK_SEEDS).min(seeds.end)
        };
        let jobs = jobs.clamp(1, chunks.clamp(1, usize::MAX as u64) as usize);
        if jobs == 1 {
            let mut out = Resolved::default();
            for k in 0..chunks {
                if stop.load(Ordering::Relaxed) {
                    return ControlFlow::Break(());
                }
                sink(self.chunk(range(k), &mut out))?;
            }
            return ControlFlow::Continue(());
        }
        let next = AtomicU64::new(0);
        // Set when the sink is done: workers stop taking chunks.
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel::<(u64, Chunk)>();
            for _ in 0..jobs {
                let tx = tx.clone();
                let (next, done, range) = (&next, &done, &range);
                scope.spawn(move || {
                    let mut out = Resolved::default();
                    loop {
                        if done.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= chunks {
                            return;
                        }
                        // Keep within a few chunks of the sink.
                        if tx.send((k, self.chunk(range(k), &mut out))).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(tx);
            let mut waiting = BTreeMap::new();
            let mut want = 0u64;
            let mut flow = ControlFlow::Continue(());
            'recv: for (k, c) in rx.iter() {
                waiting.insert(k, c);
                while let Some(c) = waiting.remove(&want) {
                    want += 1;
                    if stop.load(Ordering::Relaxed) {
                        flow = ControlFlow::Break(());
                        break 'recv;
                    }
                    flow = sink(c);
                    if flow.is_break() {
                        break 'recv;
                    }
                }
            }
            done.store(true, Ordering::Relaxed);
            if want < chunks && flow.is_continue() {
                // Stopped from outside.
                flow = ControlFlow::Break(());
            }
            flow
        })
    }
}
