//! Statistics over every layout the loader can produce from a script: the
//! chance that each dungeon and special level exists, the distributions of
//! sizes, depths, levels and branch levels, the chance that loading fails,
//! and per level the chance that it can hold bones.
//!
//! [`compute`] enumerates the loader's random outcomes exactly (every draw
//! `rn2(n)` branches into its `n` results with chance `1/n`; see
//! [`engine`](self) for how independent parts are merged). Numbers are
//! `f64` carrying a propagated absolute error bound; the largest bound over
//! everything reported is [`Method::Exact::max_error`]. The draws are
//! modelled as uniform and independent: the generators' own deviations
//! (the modulo bias of `next() % n` is below `n / 2^31` for glibc and
//! `n / 2^64` for ISAAC-64) are not. NetHack's placement search is modelled
//! without our loader's give-up budget ([`dgnkit_loader::DEFAULT_PLACEMENT_BUDGET`]),
//! which only matters for files whose search takes millions of draws.
//!
//! When the enumeration would need more than its [`Budget`], [`compute`]
//! falls back to resolving many seeds with the loader and says so
//! ([`Method::Sampled`], with the sample size and a confidence bound).
//!
//! Every probability is conditional on the resolution succeeding, except
//! [`Stats::failure`]; distributions are further conditional on the thing
//! existing, and each sums to 1.
//!
//! With [`StatsOptions::given`], every probability but the failures' is
//! further conditional on what a player has seen ([`evidence`]): exactly,
//! by the same enumeration with the evidence as a constraint on its
//! outcomes, when the evidence reads only facts the enumeration tracks;
//! else from the loader's layouts over many seeds that meet it.
//! [`Stats::given`] says how likely the evidence is.

#![deny(clippy::unwrap_used)]

mod acc;
mod alike;
pub mod diff;
mod engine;
pub mod evidence;
mod exact;
mod follow;
mod fxhash;
mod halves;
mod heap;
mod mix;
mod place;
mod runs;
mod sample;
mod tail;
pub mod verdict;
mod weight;

pub use engine::TooLarge;
pub use evidence::{Allowed, Constraint, Evidence, Given, GivenResult, Predicate, Prop, Subject};
pub use heap::release_free_memory;
pub use weight::W;

pub use verdict::{
    static_verdicts, verdicts_from_stats, DungeonVerdict, SpecialVerdict, StaticKind, StaticReport,
};

use dgnkit_bones::rules::CAT_ELIGIBLE;
use dgnkit_bones::{BonesOptions, Rule};
use dgnkit_loader::rng::RngKind;
use dgnkit_loader::{LoadError, LoaderGame, LoaderInputs, Resolved, Resolver};
use dgnkit_script::Script;
use serde::Serialize;
use std::collections::BTreeMap;
use std::ops::ControlFlow;

/// A distribution: value -> probability (serialised with string keys).
pub type Dist = BTreeMap<i32, f64>;

/// Whether an entry's name (a record's names over a file's outcomes,
/// "geryon or baalz", see [`mix`]) includes `name`.
pub fn names_include(names: &str, name: &str) -> bool {
    names == name || names.split(" or ").any(|n| n == name)
}

/// Limits of the exact enumeration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Distinct loader states after one dungeon.
    pub states: usize,
    /// Outcomes over all dungeons.
    pub edges: usize,
    /// Memoised placement-search states over all dungeons.
    pub placement_nodes: usize,
    /// Optional (chance below 100) special levels in one dungeon.
    pub optional_levels: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            states: 200_000,
            edges: 4_000_000,
            // dNetHack's main dungeon (dNAO's file) needs about 500,000.
            placement_nodes: 1_000_000,
            optional_levels: 12,
        }
    }
}

/// Lets another thread stop a computation midway: `dgn serve` when a
/// request's time budget runs out (the language server never stops its
/// jobs midway). The enumeration and the sampling look at it every few
/// thousand steps, so a stopped computation ends soon after; its
/// result is then the sampled statistics of the seeds resolved so far
/// (none), whose method says it was stopped. Whoever stops one discards
/// what it returns.
#[derive(Clone, Debug, Default)]
pub struct Stop(Option<std::sync::Arc<std::sync::atomic::AtomicBool>>);

impl Stop {
    /// Stops when `flag` is set.
    pub fn on(flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Stop {
        Stop(Some(flag))
    }

    pub fn is_set(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// Why a stopped computation's statistics are empty.
pub const STOPPED: &str = "stopped before it finished";

/// How to compute.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Approach {
    /// Exact, or sampling when the exact enumeration is too large.
    #[default]
    Auto,
    Exact,
    Sampled,
}

#[derive(Clone, Debug)]
pub struct StatsOptions {
    /// Whose loader to model: its rules, generator and inputs (each game's
    /// record, `dgnkit::games`, has one).
    pub game: LoaderGame,
    /// Wizard mode: no chance rolls.
    pub wizard: bool,
    pub bones: BonesOptions,
    pub budget: Budget,
    pub approach: Approach,
    /// Sampling: seeds `first_seed ..` with this generator (default: the
    /// target's).
    pub samples: u64,
    pub first_seed: u64,
    pub rng: Option<RngKind>,
    /// What the loader reads besides the file.
    pub inputs: LoaderInputs,
    /// The statistics given evidence ([`evidence`]); `None`: over every
    /// layout.
    pub given: Option<Given>,
    /// Stops the computation from another thread.
    pub stop: Stop,
}

impl Default for StatsOptions {
    fn default() -> Self {
        StatsOptions {
            game: LoaderGame::default(),
            wizard: false,
            bones: BonesOptions::default(),
            budget: Budget::default(),
            approach: Approach::Auto,
            samples: 20_000,
            first_seed: 0,
            rng: None,
            inputs: LoaderInputs::default(),
            given: None,
            stop: Stop::default(),
        }
    }
}

/// How the numbers were obtained.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Method {
    /// Exhaustive enumeration; every number is within `max_error` of the
    /// exact value.
    Exact {
        max_error: f64,
        /// Loader states and outcomes enumerated, placement-search states
        /// memoised.
        states: usize,
        outcomes: usize,
        placement_states: usize,
    },
    /// Frequencies over `samples` resolutions of seeds `first_seed ..`.
    /// `ci95` bounds the half-width of the 95% confidence interval of any
    /// probability over all samples (`1.96 * sqrt(1/4 / samples)`); a
    /// distribution conditional on existence has `exists * samples`
    /// samples. Given evidence, the probabilities are over the layouts
    /// that meet it ([`GivenResult::matching`]), and `ci95` is
    /// `1.96 * sqrt(1/4 / matching)`.
    Sampled {
        samples: u64,
        first_seed: u64,
        rng: String,
        ci95: f64,
        reason: String,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FailureStat {
    /// The loader's error code (`couldnt-place`, `base-out-of-range`, ...).
    pub code: String,
    pub dungeon: Option<String>,
    pub level: Option<String>,
    /// Chance over all resolutions.
    pub probability: f64,
    /// One concrete outcome that fails this way.
    pub example: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DungeonStat {
    pub name: String,
    pub exists: f64,
    pub num_levels: Dist,
    pub depth_start: Dist,
}

/// Bones on one level (or one special level), given that it exists.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BonesSummary {
    /// Passes rules 1-5.
    pub can_load: f64,
    /// Passes rules 1-7 and the depth roll can succeed (depth >= 4).
    pub can_leave: f64,
    /// Expected chance of leaving bones on death.
    pub leave_chance: f64,
    /// The deciding rule ("1".."7": the first that forbids bones; "8": the
    /// depth roll decides) and its probability.
    pub decided_by: BTreeMap<String, f64>,
    /// Depths at which bones can be left.
    pub leave_depth: Option<(i32, i32)>,
    /// Probabilities of lying at the bottom, on a branch level (not level
    /// 1), on the vibrating-square level.
    pub p_bottom: f64,
    pub p_branch: f64,
    pub p_vibrating: f64,
    /// Exactly which outcome categories are possible
    /// ([`dgnkit_bones::rules::CATEGORIES`]: rules 1-7, depth roll with
    /// chance 0, eligible, rules 9-12).
    #[serde(skip)]
    pub possible: [bool; dgnkit_bones::rules::CATEGORIES],
    /// The probabilities of those categories.
    #[serde(skip)]
    pub categories: [f64; dgnkit_bones::rules::CATEGORIES],
    /// (possible yes, possible no) of the facts above.
    #[serde(skip)]
    pub bottom: (bool, bool),
    #[serde(skip)]
    pub branch: (bool, bool),
    #[serde(skip)]
    pub vibrating: (bool, bool),
}

impl BonesSummary {
    /// Some layout lets the level load bones.
    pub fn load_possible(&self) -> bool {
        self.possible_where(|c| !Rule::category_stops_loading(c))
    }

    /// Some layout keeps it from loading bones (rules 1-5).
    pub fn no_load_possible(&self) -> bool {
        self.possible_where(Rule::category_stops_loading)
    }

    pub fn leave_possible(&self) -> bool {
        self.possible[CAT_ELIGIBLE]
    }

    pub fn no_leave_possible(&self) -> bool {
        self.possible_where(|c| c != CAT_ELIGIBLE)
    }

    fn possible_where(&self, f: impl Fn(usize) -> bool) -> bool {
        self.possible.iter().enumerate().any(|(c, &p)| p && f(c))
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelStat {
    pub name: String,
    pub dungeon: String,
    pub exists: f64,
    pub level: Dist,
    pub depth: Dist,
    pub bones: BonesSummary,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BranchStat {
    pub from: String,
    pub to: String,
    pub exists: f64,
    /// The branch's level in `from`.
    pub level: Dist,
    pub depth: Dist,
    /// Fort Ludios: the branch gets the "floating" marker, so its level is
    /// not a branch level for bones.
    pub floating: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BonesStat {
    pub dungeon: String,
    pub level: i32,
    /// The dungeon exists and has at least this many levels.
    pub exists: f64,
    pub bones: BonesSummary,
}

/// The statistics of one script.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub method: Method,
    /// Chance that the loader fails (NetHack aborts at startup).
    pub failure: f64,
    pub failures: Vec<FailureStat>,
    /// Per dungeon record, in file order.
    pub dungeons: Vec<DungeonStat>,
    /// Per special-level record, in file order.
    pub levels: Vec<LevelStat>,
    pub branches: Vec<BranchStat>,
    /// Per (dungeon record, level number).
    pub bones: Vec<BonesStat>,
    /// With [`StatsOptions::given`]: how likely the evidence is. Everything
    /// above but `failure` and `failures` is conditional on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given: Option<GivenResult>,
}

/// What a game that ended on the dungeon numbered `dnum` (its index in the
/// game's `dungeons[]`, optional dungeons that do not exist taking no
/// index) at depth `depth` may have been on, over every layout where that
/// place exists. This is what an xlogfile's `deathdnum`/`deathlev` name.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlaceStat {
    pub dnum: i32,
    pub depth: i32,
    /// Chance that the place exists.
    pub exists: f64,
    /// Given that it exists: the dungeon record it belongs to.
    pub dungeons: Vec<(u32, f64)>,
    /// The level number within its dungeon.
    pub levels: Vec<(i32, f64)>,
    /// The special-level record lying there (the rest: a filler level).
    pub specials: Vec<(u32, f64)>,
    pub bones: BonesSummary,
}

/// Every place of a script, from [`places`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Places {
    pub method: Method,
    /// Chance that the loader fails; places are conditional on success.
    pub failure: f64,
    /// Names of the dungeon and special-level records the places refer to.
    pub dungeon_names: Vec<String>,
    pub level_names: Vec<String>,
    /// Sorted by `(dnum, depth)`.
    pub places: Vec<PlaceStat>,
    /// With [`StatsOptions::given`]: how likely the evidence is; the
    /// places are conditional on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given: Option<GivenResult>,
}

impl Places {
    pub fn get(&self, dnum: i32, depth: i32) -> Option<&PlaceStat> {
        self.places
            .binary_search_by(|p| (p.dnum, p.depth).cmp(&(dnum, depth)))
            .ok()
            .map(|i| &self.places[i])
    }
}

/// The table of places: exact when the enumeration fits the budget (or
/// `approach` says so), else from `opts.samples` seeds.
pub fn places(script: &Script, opts: &StatsOptions) -> Places {
    let res = match resolver(script, opts) {
        Ok(r) => r,
        Err(e) => {
            let stats = always_fails(script, &e, opts);
            return Places {
                method: stats.method,
                failure: 1.0,
                dungeon_names: stats.dungeons.into_iter().map(|d| d.name).collect(),
                level_names: Vec::new(),
                places: Vec::new(),
                given: stats.given,
            };
        }
    };
    if let Some(p) = &res.prelude {
        let parts = (0..p.outcomes.len())
            .map(|i| {
                let o = &p.outcomes[i];
                (p.chances[i], places_with(o, &for_outcome(&res, o, opts)))
            })
            .collect();
        return mix::places(parts);
    }
    places_with(&res, opts)
}

fn places_with(res: &Resolver, opts: &StatsOptions) -> Places {
    let exact = match (opts.approach, needs_sampling(opts)) {
        (Approach::Sampled, _) => Err("sampling was asked for".to_string()),
        (_, Some(reason)) => Err(reason),
        (Approach::Exact | Approach::Auto, None) => {
            match exact::unmodelled_bones(res, &opts.bones) {
                Some(what) => Err(format!(
                    "the exact enumeration does not model this game's {what}"
                )),
                None => enumeration(res, opts)
                    .run()
                    .map_err(|e| format!("exact enumeration too large: {}", e.what)),
            }
        }
    };
    // Stopped while accumulating: the sampler stops at once too and says so.
    let exact = exact.and_then(|run| {
        let acc = exact::accumulate(res, &run, &opts.bones, true);
        if opts.stop.is_set() {
            Err(STOPPED.to_string())
        } else {
            Ok((run, acc))
        }
    });
    match exact {
        Ok((run, acc)) => {
            let method = exact_method(&run);
            // The error bound as `finish` computes it, over the same sums.
            let max_error = match acc.finish(res, method.clone()).method {
                Method::Exact { max_error, .. } => max_error,
                _ => 0.0,
            };
            let method = match method {
                Method::Exact {
                    states,
                    outcomes,
                    placement_states,
                    ..
                } => Method::Exact {
                    max_error,
                    states,
                    outcomes,
                    placement_states,
                },
                m => m,
            };
            let mut places = acc.finish_places(res, method);
            places.given = given_result(&acc, opts, None);
            places
        }
        Err(reason) => {
            let (acc, method, counts) = sample_acc(res, opts, reason, true);
            let mut places = acc.finish_places(res, method);
            places.given = given_result(&acc, opts, counts);
            places
        }
    }
}

fn exact_method(run: &engine::Enumeration) -> Method {
    Method::Exact {
        max_error: 0.0,
        states: run.layers.iter().map(|l| l.states.len()).sum(),
        outcomes: run.layers.iter().map(|l| l.edges.len()).sum(),
        placement_states: run.placement_nodes,
    }
}

/// The game's resolver; an error when its loader is not proven or the
/// inputs are not its.
fn resolver(script: &Script, opts: &StatsOptions) -> Result<Resolver, LoadError> {
    Resolver::for_game(script, &opts.game, &opts.inputs)
}

/// The enumeration for `res` with the options (and evidence) of `opts`.
fn enumeration<'a>(res: &'a Resolver, opts: &'a StatsOptions) -> engine::Engine<'a> {
    let e = engine::Engine::new(res, opts.wizard, opts.budget)
        .with_rng(opts.rng.unwrap_or(opts.game.rng))
        .with_bones(&opts.bones)
        .with_stop(opts.stop.clone());
    match opts.given.as_ref().and_then(|g| g.evidence.as_ref()) {
        Some(ev) => e.with_evidence(ev),
        None => e,
    }
}

/// Why the condition of `opts` cannot be enumerated, if it cannot.
fn needs_sampling(opts: &StatsOptions) -> Option<String> {
    let given = opts.given.as_ref()?;
    given.predicate.as_ref().map(|_| {
        format!(
            "the evidence ({}) reads facts the exact enumeration does not track",
            given.describe
        )
    })
}

/// How likely `opts`' condition is, when there is one.
fn given_result(
    acc: &acc::Acc,
    opts: &StatsOptions,
    counts: Option<(u64, u64)>,
) -> Option<GivenResult> {
    opts.given
        .as_ref()
        .map(|g| acc.given_result(&g.describe, counts))
}

/// `opts` for outcome `to` of a file that draws: its evidence by the
/// outcome's records ([`Evidence::for_outcome`]).
fn for_outcome<'a>(
    from: &Resolver,
    to: &Resolver,
    opts: &'a StatsOptions,
) -> std::borrow::Cow<'a, StatsOptions> {
    match &opts.given {
        Some(g) if g.evidence.is_some() => std::borrow::Cow::Owned(StatsOptions {
            given: Some(g.for_outcome(from, to)),
            ..opts.clone()
        }),
        _ => std::borrow::Cow::Borrowed(opts),
    }
}

/// The statistics, exact when the enumeration fits the budget (or when
/// `approach` says so), else sampled.
pub fn compute(script: &Script, opts: &StatsOptions) -> Stats {
    let res = match resolver(script, opts) {
        Ok(r) => r,
        Err(e) => return always_fails(script, &e, opts),
    };
    each_outcome(&res, opts, compute_with)
}

/// `f` of the resolver, or of each outcome of a file that draws, mixed
/// (given evidence: each outcome's conditional statistics weighed by its
/// chance times the evidence's chance in it).
fn each_outcome(
    res: &Resolver,
    opts: &StatsOptions,
    f: impl Fn(&Resolver, &StatsOptions) -> Stats,
) -> Stats {
    match &res.prelude {
        None => f(res, opts),
        Some(p) => mix::stats(
            p.outcomes
                .iter()
                .zip(&p.chances)
                .map(|(r, &c)| (c, f(r, &for_outcome(res, r, opts))))
                .collect(),
        ),
    }
}

fn compute_with(res: &Resolver, opts: &StatsOptions) -> Stats {
    match (opts.approach, needs_sampling(opts)) {
        (Approach::Sampled, _) => sampled_with(res, opts, "sampling was asked for".into()),
        (_, Some(reason)) => sampled_with(res, opts, reason),
        (Approach::Exact | Approach::Auto, None) => match exact_with(res, opts) {
            Ok(s) => s,
            Err(_) if opts.stop.is_set() => sampled_with(res, opts, STOPPED.into()),
            Err(e) => sampled_with(
                res,
                opts,
                format!("exact enumeration too large: {}", e.what),
            ),
        },
    }
}

/// The exact statistics, or why they are too large to enumerate (or, given
/// a predicate, cannot be).
pub fn exact(script: &Script, opts: &StatsOptions) -> Result<Stats, TooLarge> {
    match resolver(script, opts) {
        Ok(res) => match &res.prelude {
            None => exact_with(&res, opts),
            Some(p) => {
                let mut parts = Vec::with_capacity(p.outcomes.len());
                for (r, &c) in p.outcomes.iter().zip(&p.chances) {
                    parts.push((c, exact_with(r, &for_outcome(&res, r, opts))?));
                }
                Ok(mix::stats(parts))
            }
        },
        Err(e) => Ok(always_fails(script, &e, opts)),
    }
}

/// Frequencies over `opts.samples` seeds.
pub fn sampled(script: &Script, opts: &StatsOptions) -> Stats {
    match resolver(script, opts) {
        Ok(res) => each_outcome(&res, opts, |r, opts| {
            sampled_with(r, opts, "sampling was asked for".into())
        }),
        Err(e) => always_fails(script, &e, opts),
    }
}

/// [`free_aside`].
static FREE_ASIDE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The largest files' enumerations hold hundreds of thousands of
/// allocations, which take a while to free. A program that computes one set
/// of statistics and exits (`dgn stats`, `dgn bones`) has them freed on
/// another thread while it finishes, and does not wait for it at exit; a
/// program that goes on to compute more (a server, `dgn diff`) frees them
/// before, so that two are never held at once (the default).
pub fn free_aside(on: bool) {
    FREE_ASIDE.store(on, std::sync::atomic::Ordering::Relaxed);
}

fn exact_with(res: &Resolver, opts: &StatsOptions) -> Result<Stats, TooLarge> {
    if let Some(what) = needs_sampling(opts) {
        return Err(TooLarge { what });
    }
    if let Some(what) = exact::unmodelled_bones(res, &opts.bones) {
        return Err(TooLarge {
            what: format!("this game's {what}, which the exact statistics do not model"),
        });
    }
    let fixed = match res.with_fixed_chains(opts.wizard) {
        Some(Ok(fixed)) => Some(fixed),
        Some(Err(what)) => return Err(TooLarge { what }),
        None => None,
    };
    let res = fixed.as_ref().unwrap_or(res);
    let run = enumeration(res, opts).run()?;
    let acc = exact::accumulate(res, &run, &opts.bones, false);
    if opts.stop.is_set() {
        return Err(TooLarge {
            what: STOPPED.into(),
        });
    }
    let method = exact_method(&run);
    if FREE_ASIDE.load(std::sync::atomic::Ordering::Relaxed) {
        // Should no thread start, they are freed here.
        let _ = std::thread::Builder::new()
            .name("dgnkit-stats-drop".into())
            .spawn(move || drop(run));
    } else {
        drop(run);
    }
    let mut stats = acc.finish(res, method);
    stats.given = given_result(&acc, opts, None);
    Ok(stats)
}

fn sampled_with(res: &Resolver, opts: &StatsOptions, reason: String) -> Stats {
    let (acc, method, counts) = sample_acc(res, opts, reason, false);
    let mut stats = acc.finish(res, method);
    stats.given = given_result(&acc, opts, counts);
    stats
}

/// Resolves `opts.samples` seeds into an accumulator; given a condition,
/// only the layouts that meet it are counted (failures are counted all the
/// same), and the counts `(matching, loaded)` come back.
fn sample_acc(
    res: &Resolver,
    opts: &StatsOptions,
    reason: String,
    places: bool,
) -> (acc::Acc, Method, Option<(u64, u64)>) {
    let rng = opts.rng.unwrap_or(opts.game.rng);
    let n = opts.samples.max(1);
    let w = W::ratio(1, n);
    let mut acc = acc::Acc::new(res);
    if places {
        acc.places = Some(Default::default());
    }
    let given = opts.given.as_ref();
    if given.is_some() {
        acc.loaded = Some(W::ZERO);
    }
    let (mut matching, mut loaded) = (0u64, 0u64);
    let mut out = Resolved::default();
    let seeds = opts.first_seed..opts.first_seed.saturating_add(n);
    let mut resolved = 0u64;
    let _ = res.resolve_seeds(seeds, rng, opts.wizard, &mut out, |seed, r, out| {
        if resolved.is_multiple_of(1024) && opts.stop.is_set() {
            return ControlFlow::Break(());
        }
        resolved += 1;
        match r {
            Ok(()) => {
                if let Some(g) = given {
                    loaded += 1;
                    if let Some(l) = &mut acc.loaded {
                        *l += w;
                    }
                    if !g.holds(res, out) {
                        return ControlFlow::Continue(());
                    }
                    matching += 1;
                }
                let layout = out.to_layout(res, None);
                sample::add_layout(&mut acc, res, out, &layout, w, &opts.bones);
            }
            Err(e) => sample::add_failure(&mut acc, &e, w, || {
                format!("seed {seed} ({}): {e}", rng.name())
            }),
        }
        ControlFlow::Continue(())
    });
    let counted = if given.is_some() { matching.max(1) } else { n };
    let ci95 = 1.96 * (0.25 / counted as f64).sqrt();
    let (samples, reason) = if resolved < n && opts.stop.is_set() {
        (resolved, STOPPED.to_string())
    } else {
        (n, reason)
    };
    let method = Method::Sampled {
        samples,
        first_seed: opts.first_seed,
        rng: rng.name().to_string(),
        ci95,
        reason,
    };
    (acc, method, given.map(|_| (matching, loaded)))
}

/// A script the loader rejects before drawing anything (given evidence:
/// which no layout meets).
fn always_fails(script: &Script, e: &LoadError, opts: &StatsOptions) -> Stats {
    let name = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    Stats {
        method: Method::Exact {
            max_error: 0.0,
            states: 0,
            outcomes: 0,
            placement_states: 0,
        },
        failure: 1.0,
        failures: vec![FailureStat {
            code: e.code().to_string(),
            dungeon: None,
            level: None,
            probability: 1.0,
            example: e.to_string(),
        }],
        dungeons: script
            .dungeons
            .iter()
            .map(|d| DungeonStat {
                name: name(&d.name),
                exists: 0.0,
                num_levels: Dist::new(),
                depth_start: Dist::new(),
            })
            .collect(),
        levels: Vec::new(),
        branches: Vec::new(),
        bones: Vec::new(),
        given: opts.given.as_ref().map(|g| GivenResult {
            describe: g.describe.clone(),
            p_evidence: 0.0,
            p_joint: 0.0,
            matching: None,
            loaded: None,
        }),
    }
}

#[cfg(test)]
mod tests;
