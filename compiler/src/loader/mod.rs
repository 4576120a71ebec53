//! The loader: resolves a compiled [`Script`] and a seed into a [`Layout`],
//! drawing the same random numbers in the same order as NetHack's
//! `init_dungeons()` (`loader.md`).
//!
//! A [`Resolver`] is built once per script (names compared, branch owners
//! and lookups precomputed) and then resolves any number of seeds. The
//! allocation-free path is [`Resolver::resolve_into`], which fills a
//! reusable [`Resolved`] buffer; [`Resolved::to_layout`] turns it into the
//! canonical [`Layout`] with names.
//!
//! NetHack 3.4.3 and 3.6 load differently in a few places; [`Rules`] holds
//! those differences (the layouts in `../shared/expected` were made by the
//! 3.4.3 loader with glibc and by the 3.6 loader with ISAAC-64).

mod error;
mod place;
mod resolve;

pub use error::{LoadError, RangeOwner};
pub use resolve::{BranchKind, Resolved, ResolvedBranch, ResolvedDungeon, ResolvedLevel};

use crate::games::LoaderInputs;
use crate::layout::Layout;
use crate::options::Target;
use crate::rng::{Draw, Glibc, Isaac32, Isaac64, Mt19937Cokus, NoTrace, RngKind, Source, Trace};
use crate::script::{flags, BranchType, Range, Script};
use std::ops::ControlFlow;

/// NetHack's deepest dungeon (`MAXLEVEL`): the loader clamps sizes to it and
/// places levels on `1 ..= MAXLEVEL`.
pub const MAXLEVEL: i32 = 32;

/// Sizes of NetHack's loader tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `MAXDUNGEON`: the file must have fewer dungeons than this.
    pub max_dungeons: usize,
    /// `LEV_LIMIT`: special-level records of the dungeons that exist.
    pub max_levels: usize,
    /// `BRANCH_LIMIT`: branch records of the dungeons that exist.
    pub max_branches: usize,
}

/// How NetHack's loader version behaves where versions differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// `parent_dlevel` since 3.3: the branch level is drawn as
    /// `j = rn2(count)` and the search for a level that does not yet end a
    /// branch starts at `j + 1`. Before 3.3 it was `rn1(count, base)`.
    pub avoid_branch_levels: bool,
    /// 3.6 lowers an ENTRY beyond the dungeon's bottom to the bottom; 3.4.3
    /// keeps it as written (its check assigns the same value back).
    pub clamp_entry: bool,
    /// Counts, levels and depths live in `xchar`/`schar` fields (signed
    /// bytes) in NetHack; values beyond them wrap as they do there.
    pub byte_fields: bool,
    /// Dungeons the game looks up by name right after loading, in order; it
    /// aborts on the first one that is missing.
    pub required_dungeons: &'static [&'static str],
    pub limits: Option<Limits>,
}

const NETHACK_LIMITS: Limits = Limits {
    max_dungeons: 16,
    max_levels: 50,
    max_branches: 32,
};

impl Rules {
    /// NetHack 3.4.3's `init_dungeons()`: as 3.6's, except that an ENTRY
    /// beyond the bottom is kept.
    pub const fn nethack_343() -> Rules {
        Rules {
            clamp_entry: false,
            ..Rules::nethack_36()
        }
    }

    /// NetHack 3.6's `init_dungeons()`.
    pub const fn nethack_36() -> Rules {
        Rules {
            avoid_branch_levels: true,
            clamp_entry: true,
            byte_fields: true,
            required_dungeons: &["The Quest", "Sokoban", "The Gnomish Mines", "Vlad's Tower"],
            limits: Some(NETHACK_LIMITS),
        }
    }

    /// dgnkit's own target: 3.6's algorithm without the game's fixed tables,
    /// byte-sized fields or hard-wired dungeon names.
    pub const fn native() -> Rules {
        Rules {
            byte_fields: false,
            required_dungeons: &[],
            limits: None,
            ..Rules::nethack_36()
        }
    }

    /// The rules of the target's game ([`crate::games::Game::rules`]).
    pub fn for_target(target: Target) -> Rules {
        target.game().rules.clone()
    }
}

/// Draws a placement search may take before the loader gives up on it.
pub const DEFAULT_PLACEMENT_BUDGET: u64 = 2_000_000;

/// A dungeon record, precomputed.
#[derive(Clone, Debug)]
pub(crate) struct DRec {
    pub name: String,
    pub proto: String,
    pub bones: String,
    pub size: Range,
    pub flags: u32,
    pub chance: i32,
    pub entry: i32,
    /// Level records `levels.0 .. levels.1` (file-global indices).
    pub levels: (u32, u32),
    /// Branch records `branches.0 .. branches.1`.
    pub branches: (u32, u32),
    /// Branch records of earlier dungeons whose target is this dungeon's
    /// name, in file order, with their owner dungeon record.
    pub incoming: Vec<(u32, u32)>,
    /// Earlier dungeon records with exactly this name.
    pub same_name_before: Vec<u32>,
}

/// A level record, precomputed.
#[derive(Clone, Debug)]
pub(crate) struct LRec {
    pub name: String,
    pub bones: String,
    pub range: Range,
    pub chance: i32,
    pub chain: i32,
    pub flags: u32,
    pub rndlevs: i32,
    pub dungeon: u32,
    /// `knox` (case-insensitive, as `find_level` compares).
    pub is_knox: bool,
    pub is_dummy: bool,
}

/// A branch record, precomputed.
#[derive(Clone, Debug)]
pub(crate) struct BRec {
    pub range: Range,
    pub chain: i32,
    pub kind: BranchKind,
    pub up: bool,
}

/// A script prepared for resolving many seeds.
#[derive(Clone, Debug)]
pub struct Resolver {
    pub(crate) rules: Rules,
    pub(crate) dungeons: Vec<DRec>,
    pub(crate) levels: Vec<LRec>,
    pub(crate) branches: Vec<BRec>,
    /// Per name of `rules.required_dungeons`: the dungeon records so named.
    pub(crate) required: Vec<Vec<u32>>,
    pub(crate) placement_budget: u64,
    /// What the loader reads besides the file (role, options, ...).
    pub(crate) inputs: LoaderInputs,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn bones_text(b: u8) -> String {
    if b == 0 {
        String::new()
    } else {
        char::from(b).to_string()
    }
}

/// The type NetHack's loader gives a branch (`correct_branch_type`).
fn branch_kind(t: BranchType, up: bool) -> BranchKind {
    match t {
        BranchType::Stair => BranchKind::Stair,
        BranchType::NoUp if up => BranchKind::NoEnd1,
        BranchType::NoUp => BranchKind::NoEnd2,
        BranchType::NoDown if up => BranchKind::NoEnd2,
        BranchType::NoDown => BranchKind::NoEnd1,
        BranchType::Portal => BranchKind::Portal,
    }
}

impl Resolver {
    /// A resolver with NetHack 3.6's rules.
    pub fn new(script: &Script) -> Result<Resolver, LoadError> {
        Resolver::with_rules(script, Rules::nethack_36())
    }

    /// A resolver with the rules of the target's game and its default
    /// inputs; an error when dgnkit does not reproduce that game's loader.
    pub fn for_target(script: &Script, target: Target) -> Result<Resolver, LoadError> {
        Resolver::for_game(script, target, &LoaderInputs::default())
    }

    /// A resolver for the target's game with the given inputs: refused
    /// ([`LoadError::NotReproduced`]) when dgnkit's loader is not proven on
    /// that game, and when the inputs are not what its loader reads
    /// ([`LoadError::Inputs`]).
    pub fn for_game(
        script: &Script,
        target: Target,
        inputs: &LoaderInputs,
    ) -> Result<Resolver, LoadError> {
        let game = target.game();
        game.check_loader()?;
        inputs.check(game)?;
        let mut r = Resolver::with_rules(script, game.rules.clone())?;
        r.inputs = inputs.clone();
        Ok(r)
    }

    pub fn with_rules(script: &Script, rules: Rules) -> Result<Resolver, LoadError> {
        if let Some(limits) = rules.limits {
            // Checked on the file's count before anything is drawn.
            if script.dungeons.len() >= limits.max_dungeons {
                return Err(LoadError::TooManyDungeons {
                    count: script.dungeons.len(),
                    max: limits.max_dungeons,
                });
            }
        }
        let mut dungeons = Vec::with_capacity(script.dungeons.len());
        let mut levels = Vec::with_capacity(script.level_count());
        let mut branches = Vec::with_capacity(script.branch_count());
        // (target name, branch record, owner record) of every branch so far.
        let mut targets: Vec<(&[u8], u32, u32)> = Vec::new();
        for (di, d) in script.dungeons.iter().enumerate() {
            let di = di as u32;
            let incoming = targets
                .iter()
                .filter(|(t, _, _)| *t == d.name.as_slice())
                .map(|&(_, b, owner)| (b, owner))
                .collect();
            let same_name_before = script.dungeons[..di as usize]
                .iter()
                .enumerate()
                .filter(|(_, e)| e.name == d.name)
                .map(|(j, _)| j as u32)
                .collect();
            let level_start = levels.len() as u32;
            for l in &d.levels {
                levels.push(LRec {
                    name: text(&l.name),
                    bones: bones_text(l.bones),
                    range: l.range,
                    chance: l.chance,
                    chain: l.chain,
                    flags: l.flags,
                    rndlevs: l.rndlevs,
                    dungeon: di,
                    is_knox: l.name.eq_ignore_ascii_case(b"knox"),
                    is_dummy: l.name.eq_ignore_ascii_case(b"dummy"),
                });
            }
            let branch_start = branches.len() as u32;
            for b in &d.branches {
                targets.push((b.target.as_slice(), branches.len() as u32, di));
                branches.push(BRec {
                    range: b.range,
                    chain: b.chain,
                    kind: branch_kind(b.branch_type, b.up),
                    up: b.up,
                });
            }
            dungeons.push(DRec {
                name: text(&d.name),
                proto: text(&d.proto),
                bones: bones_text(d.bones),
                size: d.size,
                flags: d.flags,
                chance: d.chance,
                entry: d.entry,
                levels: (level_start, levels.len() as u32),
                branches: (branch_start, branches.len() as u32),
                incoming,
                same_name_before,
            });
        }
        let required = rules
            .required_dungeons
            .iter()
            .map(|name| {
                (0..dungeons.len() as u32)
                    .filter(|&r| dungeons[r as usize].name == *name)
                    .collect()
            })
            .collect();
        Ok(Resolver {
            rules,
            dungeons,
            levels,
            branches,
            required,
            placement_budget: DEFAULT_PLACEMENT_BUDGET,
            inputs: LoaderInputs::default(),
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The inputs this resolver was made with ([`Resolver::for_game`]).
    pub fn inputs(&self) -> &LoaderInputs {
        &self.inputs
    }

    /// Caps the draws one dungeon's placement search may take (default
    /// [`DEFAULT_PLACEMENT_BUDGET`]); past it the resolution fails with
    /// [`LoadError::CouldntPlace`] or [`LoadError::PlacementTooCostly`].
    pub fn set_placement_budget(&mut self, draws: u64) {
        self.placement_budget = draws;
    }

    /// Resolves one seed into a [`Layout`]; `trace` adds `rng_calls`.
    pub fn resolve(
        &self,
        seed: u64,
        rng: RngKind,
        wizard: bool,
        trace: bool,
    ) -> Result<Layout, LoadError> {
        let mut out = Resolved::default();
        if trace {
            let mut log = Vec::new();
            self.resolve_traced(seed, rng, wizard, &mut out, &mut log)?;
            Ok(out.to_layout(self, Some(log.iter().map(Draw::to_string).collect())))
        } else {
            self.resolve_into(seed, rng, wizard, &mut out)?;
            Ok(out.to_layout(self, None))
        }
    }

    /// Resolves one seed into `out`, reusing its buffers: no allocation once
    /// `out` has held a layout of this script.
    pub fn resolve_into(
        &self,
        seed: u64,
        rng: RngKind,
        wizard: bool,
        out: &mut Resolved,
    ) -> Result<(), LoadError> {
        self.resolve_logged(seed, rng, wizard, out, &mut NoTrace)
    }

    /// Resolves every seed of `seeds` in order into `out`, handing each
    /// result to `each` (which may stop the run with
    /// [`ControlFlow::Break`]). The same layouts as [`Resolver::resolve_into`]
    /// seed by seed, faster: ISAAC-64 generators are seeded
    /// [`SEED_BATCH`] at a time, side by side ([`Isaac64::reseed_many`]).
    pub fn resolve_seeds(
        &self,
        seeds: impl IntoIterator<Item = u64>,
        rng: RngKind,
        wizard: bool,
        out: &mut Resolved,
        mut each: impl FnMut(u64, Result<(), LoadError>, &Resolved) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match rng {
            RngKind::Glibc | RngKind::Isaac32 | RngKind::Mt19937Cokus => {
                for seed in seeds {
                    let result = self.resolve_logged(seed, rng, wizard, out, &mut NoTrace);
                    each(seed, result, out)?;
                }
                ControlFlow::Continue(())
            }
            RngKind::Isaac64 => {
                let mut gens = out.take_batch();
                let flow = self.resolve_batches(seeds.into_iter(), wizard, &mut gens, out, each);
                out.put_batch(gens);
                flow
            }
        }
    }

    fn resolve_one<S: Source, T: Trace>(
        &self,
        seed: u64,
        rng: RngKind,
        wizard: bool,
        source: &mut S,
        trace: &mut T,
        out: &mut Resolved,
    ) -> Result<(), LoadError> {
        out.seed = seed;
        out.rng = rng;
        self.resolve_with(source, trace, wizard, out)
    }

    fn resolve_batches(
        &self,
        mut seeds: impl Iterator<Item = u64>,
        wizard: bool,
        gens: &mut [Isaac64; SEED_BATCH],
        out: &mut Resolved,
        mut each: impl FnMut(u64, Result<(), LoadError>, &Resolved) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        loop {
            let mut batch = [0u64; SEED_BATCH];
            // `zip` asks the seeds only while the batch has room.
            let n = batch
                .iter_mut()
                .zip(&mut seeds)
                .map(|(slot, seed)| *slot = seed)
                .count();
            let batch = &batch[..n];
            match batch.try_into() {
                Ok(full) => Isaac64::reseed_many(gens, full),
                Err(_) => gens.iter_mut().zip(batch).for_each(|(g, &s)| g.reseed(s)),
            }
            for (g, &seed) in gens.iter_mut().zip(batch) {
                let result = self.resolve_one(seed, RngKind::Isaac64, wizard, g, &mut NoTrace, out);
                each(seed, result, out)?;
            }
            if n < SEED_BATCH {
                return ControlFlow::Continue(());
            }
        }
    }

    /// As [`Resolver::resolve_into`], appending every draw to `log` (also
    /// the draws made before an error).
    pub fn resolve_traced(
        &self,
        seed: u64,
        rng: RngKind,
        wizard: bool,
        out: &mut Resolved,
        log: &mut Vec<Draw>,
    ) -> Result<(), LoadError> {
        self.resolve_logged(seed, rng, wizard, out, log)
    }

    fn resolve_logged<T: Trace>(
        &self,
        seed: u64,
        rng: RngKind,
        wizard: bool,
        out: &mut Resolved,
        trace: &mut T,
    ) -> Result<(), LoadError> {
        match rng {
            RngKind::Glibc => {
                self.resolve_one(seed, rng, wizard, &mut Glibc::new(seed), trace, out)
            }
            // Seeding either costs a few microseconds, as the layout does;
            // a fresh generator on the stack is as fast as a kept one.
            RngKind::Isaac32 => {
                self.resolve_one(seed, rng, wizard, &mut Isaac32::new(seed), trace, out)
            }
            RngKind::Mt19937Cokus => {
                let g = &mut Mt19937Cokus::new(seed);
                self.resolve_one(seed, rng, wizard, g, trace, out)
            }
            RngKind::Isaac64 => {
                let mut g = out.take_isaac(seed);
                let r = self.resolve_one(seed, rng, wizard, &mut *g, trace, out);
                out.put_isaac(g);
                r
            }
        }
    }

    /// The generic entry: any generator, any log. `out.seed`/`rng` are left
    /// as the caller set them.
    pub fn resolve_with<S: Source, T: Trace>(
        &self,
        source: &mut S,
        trace: &mut T,
        wizard: bool,
        out: &mut Resolved,
    ) -> Result<(), LoadError> {
        out.wizard = wizard;
        resolve::run(self, source, trace, wizard, out)
    }

    /// Names a draw's site for a log or a mismatch report.
    pub fn describe_site(&self, site: crate::rng::Site) -> String {
        use crate::rng::Site;
        let dname = |i: u32| {
            self.dungeons
                .get(i as usize)
                .map_or("?", |d| d.name.as_str())
                .to_string()
        };
        let lname = |i: u32| {
            self.levels
                .get(i as usize)
                .map_or("?", |l| l.name.as_str())
                .to_string()
        };
        match site {
            Site::DungeonChance { dungeon } => format!("chance of dungeon \"{}\"", dname(dungeon)),
            Site::DungeonSize { dungeon } => format!("size of \"{}\"", dname(dungeon)),
            Site::BranchLevel { dungeon } => {
                format!("level of the branch to \"{}\"", dname(dungeon))
            }
            Site::LevelChance { level } => format!("chance of level \"{}\"", lname(level)),
            Site::Place { level } => format!("placing \"{}\"", lname(level)),
            Site::Tune => "castle tune".to_string(),
        }
    }

    /// The level's alignment as the layout reports it: its own, else its
    /// dungeon's (`layout-json.md`; 3.6's `init_level` stores it so, and
    /// the layouts of the 3.4.3 loader report it so too).
    pub(crate) fn level_align(&self, level: &LRec) -> u32 {
        let own = (level.flags & flags::ALIGN_MASK) >> flags::ALIGN_SHIFT;
        if own == 0 {
            self.dungeons
                .get(level.dungeon as usize)
                .map_or(0, |d| (d.flags & flags::ALIGN_MASK) >> flags::ALIGN_SHIFT)
        } else {
            own
        }
    }
}

/// A reusable ISAAC-64 state: 4 KiB that a [`Resolved`] keeps between seeds.
pub(crate) type IsaacBox = Box<Isaac64>;

/// How many ISAAC-64 generators [`Resolver::resolve_seeds`] seeds at once:
/// four chains side by side keep a core busy (measured: two are slower,
/// eight no faster).
pub const SEED_BATCH: usize = 4;

/// The generators of a batch, kept by a [`Resolved`] between runs.
pub(crate) type IsaacBatch = Box<[Isaac64; SEED_BATCH]>;

#[cfg(test)]
mod tests;
