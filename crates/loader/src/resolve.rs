//! `init_dungeons()` step by step (`loader.md`), on the precomputed records
//! of a [`Resolver`], into a reusable [`Resolved`] buffer.

use super::arith::{self, RangeFault};
use super::error::{LoadError, RangeOwner};
use super::{
    place, DungeonChance, EntrySource, IsaacBatch, IsaacBox, NonPositiveRn2, Resolver, Rules,
};
use crate::rng::{Drawer, Isaac64, RngKind, Site, Source, Trace};
use dgnkit_script::flags;
use dgnkit_script::layout::{
    Layout, LayoutBranch, LayoutCharacter, LayoutDungeon, LayoutLevel, LevelRef,
};
use std::ops::ControlFlow;

/// A branch's type as the game stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchKind {
    Stair,
    /// No stair at `end1`: one-way from the child.
    NoEnd1,
    /// No stair at `end2`: one-way from the parent.
    NoEnd2,
    Portal,
}

impl BranchKind {
    /// The name layouts use.
    pub fn name(self) -> &'static str {
        match self {
            BranchKind::Stair => "stair",
            BranchKind::NoEnd1 => "no_end1",
            BranchKind::NoEnd2 => "no_end2",
            BranchKind::Portal => "portal",
        }
    }

    pub fn parse(s: &str) -> Option<BranchKind> {
        [
            BranchKind::Stair,
            BranchKind::NoEnd1,
            BranchKind::NoEnd2,
            BranchKind::Portal,
        ]
        .into_iter()
        .find(|k| k.name() == s)
    }
}

/// A point of `init_dungeons()` where the loader shows a [`Trace`] the
/// layout so far ([`Trace::checkpoint`]); the draws up to it are the same
/// whether or not the resolution stops there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checkpoint {
    /// Dungeon record `record` was created: its index, size, entry level,
    /// branch and depth are known (except the endgame's lift by the dummy
    /// level, done at the very end).
    Decided { record: u32 },
    /// Its special levels' chance rolls are done (which of them exist).
    Chances { record: u32 },
    /// Its special levels are placed; also the only checkpoint of a
    /// dungeon that lost its chance roll.
    Placed { record: u32 },
}

/// A dungeon that exists, in index order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolvedDungeon {
    /// Its dungeon record in the script.
    pub record: u32,
    pub num_levels: i32,
    pub ledger_start: i32,
    pub depth_start: i32,
    pub entry_level: i32,
}

/// A special level that exists, in special-level-chain order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolvedLevel {
    /// Its level record in the script (file order over all dungeons).
    pub record: u32,
    pub dungeon: i32,
    pub level: i32,
}

impl ResolvedDungeon {
    /// The dungeon as a layout shows it, with what its record says.
    pub fn named(&self, resolver: &Resolver) -> LayoutDungeon {
        let rec = &resolver.dungeons[self.record as usize];
        LayoutDungeon {
            name: rec.name.clone(),
            proto: rec.proto.clone(),
            bones: rec.bones.clone(),
            num_levels: self.num_levels,
            ledger_start: self.ledger_start,
            depth_start: self.depth_start,
            entry_level: self.entry_level,
            hellish: rec.flags & flags::HELLISH != 0,
            mazelike: rec.flags & flags::MAZELIKE != 0,
            roguelike: rec.flags & flags::ROGUELIKE != 0,
            align: resolver.dungeon_align(rec),
            // GnollHack's `init_dungeons` copies both from the record
            // (`src/dungeon.c:855-856`).
            has_tileset: resolver
                .rules
                .report_display
                .then_some(rec.tileset.is_some()),
            tileset: resolver
                .rules
                .report_display
                .then_some(rec.tileset.unwrap_or(0)),
        }
    }
}

impl ResolvedLevel {
    /// The level as a layout shows it, with what its record says.
    pub fn named(&self, resolver: &Resolver) -> LayoutLevel {
        let rec = &resolver.levels[self.record as usize];
        LayoutLevel {
            name: rec.name.clone(),
            bones: rec.bones.clone(),
            dungeon: self.dungeon,
            level: self.level,
            town: rec.flags & flags::TOWN != 0,
            hellish: rec.flags & flags::HELLISH != 0,
            mazelike: rec.flags & flags::MAZELIKE != 0,
            roguelike: rec.flags & flags::ROGUELIKE != 0,
            align: resolver.level_align(rec),
            rndlevs: rec.rndlevs,
            // GnollHack's `s_level.name` (`src/dungeon.c:574`).
            display_name: resolver.rules.report_display.then(|| rec.display.clone()),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolvedBranch {
    pub id: i32,
    /// The branch record that made it.
    pub record: u32,
    pub kind: BranchKind,
    pub end1: (i32, i32),
    pub end2: (i32, i32),
    pub end1_up: bool,
}

impl ResolvedBranch {
    /// The branch as a layout shows it.
    pub fn named(&self) -> LayoutBranch {
        LayoutBranch {
            id: self.id,
            branch_type: self.kind.name().to_string(),
            end1: LevelRef {
                dungeon: self.end1.0,
                level: self.end1.1,
            },
            end2: LevelRef {
                dungeon: self.end2.0,
                level: self.end2.1,
            },
            end1_up: self.end1_up,
        }
    }

    /// `insert_branch`'s sort key, `branch_val`: with vanilla's tables
    /// `MAXLEVEL + 1 = 33` and `MAXDUNGEON + 1 = 17`.
    fn key(&self, rules: &Rules) -> i64 {
        let levels = i64::from(rules.maxlevel) + 1;
        let end = |(d, l): (i32, i32)| i64::from(d) * levels + i64::from(l);
        end(self.end1) * (i64::from(rules.maxdungeon) + 1) * levels + end(self.end2)
    }
}

/// One entry of dNetHack's `alternate_history[]` (dNAO `dungeon.c:659-664`):
/// a name seen among the records with alternates.
#[derive(Clone, Copy, Debug, Default)]
pub struct AltSlot {
    /// The dungeon record whose name the slot holds (its first 20 bytes).
    record: u32,
    /// Records of that name met so far.
    prev: i32,
    selected: bool,
    set: bool,
}

/// One special-level record of a dungeon that exists (NetHack's
/// `pd.final_lev[]`, indexed like it: records of dropped dungeons take no
/// slot).
#[derive(Clone, Copy, Debug, Default)]
pub struct Slot {
    pub record: u32,
    pub dungeon: i32,
    pub exists: bool,
    pub dlevel: i32,
    /// The slot its chain reads, -1 when not chained (3.6: the record's
    /// file-global index, as NetHack uses it).
    pub chain: i32,
    /// Added to the record's base (dNetHack's quest locate level moves).
    pub base_adjust: i32,
}

/// A resolved layout in compact form, plus the scratch space the loader
/// reuses between seeds.
#[derive(Debug)]
pub struct Resolved {
    pub seed: u64,
    pub rng: RngKind,
    pub wizard: bool,
    pub dungeons: Vec<ResolvedDungeon>,
    pub levels: Vec<ResolvedLevel>,
    pub branches: Vec<ResolvedBranch>,
    pub tune: [u8; 5],
    /// Draws the game's start made before the loader ([`super::GameStart`]).
    pub pre_draws: u32,
    /// The hero the game start chose, where it chooses one
    /// ([`super::GameStart::character`]).
    pub character: Option<crate::chargen::Character>,
    /// Which outcome of a drawing `dungeon.lua` this layout took
    /// ([`Resolver::outcome`]); 0 for every other file.
    pub outcome: u32,
    /// dNetHack's `chaos_dvariant`: which of the same-named "Chaos Quest"
    /// records was kept (0 = the first); 0 for other games.
    pub chaos_variant: i32,
    pub slots: Vec<Slot>,
    /// Dungeon record -> dungeon index, or -1 when it does not exist.
    pub index_of: Vec<i32>,
    /// Dungeon record -> its first slot, when it exists.
    first_slot: Vec<i32>,
    /// Branch record -> the slot its chain reads (3.7 resolves it when
    /// its dungeon is read).
    branch_chain: Vec<i32>,
    /// `branches[i].key()`, kept beside them for `insert_branch`.
    branch_keys: Vec<i64>,
    /// The placement search's plan for the dungeon being placed.
    pub steps: Vec<place::Step>,
    /// The planes shuffle's scratch: the chain's links, and its new order.
    chain_next: Vec<u32>,
    chain_order: Vec<ResolvedLevel>,
    /// Branch records read so far (`pd.tmpbranch[]` in its order).
    read_branches: Vec<u32>,
    /// The branch record a dropped dungeon left in `pd.tmpbranch[n_brs]`.
    stale_branch: Option<u32>,
    alternates: Vec<AltSlot>,
    isaac: Option<IsaacBox>,
    batch: Option<IsaacBatch>,
}

impl Default for Resolved {
    fn default() -> Self {
        Resolved {
            seed: 0,
            rng: RngKind::Isaac64,
            wizard: false,
            dungeons: Vec::new(),
            levels: Vec::new(),
            branches: Vec::new(),
            tune: *b"AAAAA",
            character: None,
            outcome: 0,
            pre_draws: 0,
            chaos_variant: 0,
            slots: Vec::new(),
            index_of: Vec::new(),
            first_slot: Vec::new(),
            branch_chain: Vec::new(),
            branch_keys: Vec::new(),
            steps: Vec::new(),
            chain_next: Vec::new(),
            chain_order: Vec::new(),
            read_branches: Vec::new(),
            stale_branch: None,
            alternates: Vec::new(),
            isaac: None,
            batch: None,
        }
    }
}

impl Clone for Resolved {
    fn clone(&self) -> Self {
        Resolved {
            seed: self.seed,
            rng: self.rng,
            wizard: self.wizard,
            dungeons: self.dungeons.clone(),
            levels: self.levels.clone(),
            branches: self.branches.clone(),
            tune: self.tune,
            pre_draws: self.pre_draws,
            character: self.character,
            chaos_variant: self.chaos_variant,
            ..Resolved::default()
        }
    }
}

impl PartialEq for Resolved {
    /// Compares the layouts (not the scratch space).
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed
            && self.rng == other.rng
            && self.wizard == other.wizard
            && self.dungeons == other.dungeons
            && self.levels == other.levels
            && self.branches == other.branches
            && self.tune == other.tune
            && self.pre_draws == other.pre_draws
            && self.character == other.character
            && self.chaos_variant == other.chaos_variant
    }
}

impl Resolved {
    pub fn take_isaac(&mut self, seed: u64) -> IsaacBox {
        match self.isaac.take() {
            Some(mut g) => {
                g.reseed(seed);
                g
            }
            None => Box::new(Isaac64::new(seed)),
        }
    }

    pub fn put_isaac(&mut self, g: IsaacBox) {
        self.isaac = Some(g);
    }

    pub fn take_batch(&mut self) -> IsaacBatch {
        self.batch
            .take()
            .unwrap_or_else(|| Box::new(std::array::from_fn(|_| Isaac64::new(0))))
    }

    pub fn put_batch(&mut self, gens: IsaacBatch) {
        self.batch = Some(gens);
    }

    fn clear(&mut self, dungeon_records: usize, branch_records: usize) {
        self.dungeons.clear();
        self.levels.clear();
        self.branches.clear();
        self.branch_keys.clear();
        self.slots.clear();
        self.index_of.clear();
        self.index_of.resize(dungeon_records, -1);
        self.first_slot.clear();
        self.first_slot.resize(dungeon_records, -1);
        self.branch_chain.clear();
        self.branch_chain.resize(branch_records, -1);
        self.tune = *b"AAAAA";
        self.chaos_variant = 0;
        self.read_branches.clear();
        self.stale_branch = None;
        self.alternates.clear();
    }

    /// `insert_branch`: before the first node whose key is `>=` the new key
    /// while its predecessor's key is below it; else at the end.
    fn insert_branch(&mut self, b: ResolvedBranch, rules: &Rules) {
        let new = b.key(rules);
        let mut prev = -1i64;
        let mut at = self.branches.len();
        for (i, &k) in self.branch_keys.iter().enumerate() {
            if prev < new && new <= k {
                at = i;
                break;
            }
            prev = k;
        }
        self.branches.insert(at, b);
        self.branch_keys.insert(at, new);
    }

    fn remove_branch(&mut self, at: usize) -> ResolvedBranch {
        self.branch_keys.remove(at);
        self.branches.remove(at)
    }

    /// The draws before the loader, when the layout reports them.
    pub fn reported_pre_draws(&self, res: &Resolver) -> Option<u32> {
        (res.rules.report_pre_draws && res.start != super::GameStart::NONE)
            .then_some(self.pre_draws)
    }

    /// The Elemental Planes' order as the layout reports it, when the rules
    /// shuffle them: hands `each` the level records in that order.
    pub fn planes_order(
        &self,
        res: &Resolver,
        mut each: impl FnMut(u32),
    ) -> Option<super::PlanesReport> {
        let report = res.rules.planes?.report;
        let first = |part: u8| {
            self.levels
                .iter()
                .position(|l| res.levels[l.record as usize].plane == Some(part))
        };
        let head = first(0)?;
        match report {
            super::PlanesReport::ChainOrder => {
                let d = self.levels[head].dungeon;
                for l in self.levels.iter().filter(|l| l.dungeon == d) {
                    each(l.record);
                }
            }
            super::PlanesReport::VisitOrder => {
                let tail = first(5)?;
                let last = (head..self.levels.len()).find(|&k| k + 1 == tail)?;
                for l in self.levels[head..=last].iter().rev() {
                    each(l.record);
                }
            }
        }
        Some(report)
    }

    /// The canonical layout, with names from `resolver` (the one that
    /// filled this buffer).
    pub fn to_layout(&self, resolver: &Resolver, rng_calls: Option<Vec<String>>) -> Layout {
        let resolver = resolver.outcome(self.outcome);
        let dungeons = self.dungeons.iter().map(|d| d.named(resolver)).collect();
        let levels = self.levels.iter().map(|l| l.named(resolver)).collect();
        let branches = self.branches.iter().map(ResolvedBranch::named).collect();
        let mut planes = Vec::new();
        let report = self.planes_order(resolver, |record| {
            planes.push(resolver.levels[record as usize].name.clone());
        });
        let (planes_order, plane_order) = match report {
            Some(super::PlanesReport::ChainOrder) => (Some(planes), None),
            Some(super::PlanesReport::VisitOrder) => (None, Some(planes)),
            None => (None, None),
        };
        Layout {
            seed: self.seed,
            rng: self.rng.name().to_string(),
            wizard: self.wizard,
            dungeons,
            levels,
            branches,
            tune: self.tune.iter().map(|&c| char::from(c)).collect(),
            rng_calls,
            planes_order,
            plane_order,
            pre_draws: self.reported_pre_draws(resolver),
            chaos_variant: resolver.rules.report_inputs.then_some(self.chaos_variant),
            loader_inputs: resolver.layout_inputs(),
            character: self.layout_character(resolver),
        }
    }

    /// The hero the game start made, by name (the layout's `character`).
    pub fn layout_character(&self, resolver: &Resolver) -> Option<LayoutCharacter> {
        let (c, start) = self.character.zip(resolver.start.character)?;
        let t = start.table;
        let [role, race, gender, alignment] = t.facets(c);
        Some(LayoutCharacter {
            role: role.to_string(),
            code: t.role(c).code.to_string(),
            race: race.to_string(),
            gender: gender.to_string(),
            alignment: alignment.to_string(),
            text: t.describe(c),
        })
    }
}

/// The loader's state for one resolution.
pub struct Resolution<'r, 'd, S: Source, T: Trace> {
    pub res: &'r Resolver,
    pub draw: Drawer<'d, S, T>,
    pub out: &'r mut Resolved,
    /// Wizard mode skips the dungeons' / the levels' chance rolls.
    skip_dungeon_chance: bool,
    skip_level_chance: bool,
    /// What `rn2` of a negative count does, with this generator.
    neg_rn2: NonPositiveRn2,
    /// Branches created so far (NetHack's `branch_id`).
    next_branch_id: i32,
    /// Branch records of the dungeons that exist so far (`pd.n_brs`).
    loaded_branches: usize,
    /// The trace stopped the resolution at a checkpoint.
    stopped: bool,
}

impl<S: Source, T: Trace> Resolution<'_, '_, S, T> {
    /// 3.7's chain lookup by name (src/dungeon.c:828-839, 887-894): the
    /// first record named like the chained-to one among the records read
    /// so far that lie below `bound` (a slot index), as a slot index.
    fn chain_by_name(&self, candidates: &[u32], bound: i64) -> Option<i32> {
        for &j in candidates {
            let dj = self.res.levels[j as usize].dungeon as usize;
            let first = self.out.first_slot[dj];
            if first < 0 {
                continue;
            }
            let slot = first + (j - self.res.dungeons[dj].levels.0) as i32;
            // Later candidates lie further on.
            return (i64::from(slot) < bound).then_some(slot);
        }
        None
    }

    /// Reads dungeon record `rec`'s level and branch records as 3.7 does
    /// before anything is drawn for it: chains resolved (by name, or kept
    /// as file indices) and, with [`Rules::limits_on_read`], the limits.
    fn read_records(&mut self, rec: usize) -> Result<(), LoadError> {
        let res = self.res;
        let d = &res.dungeons[rec];
        let (l0, l1) = d.levels;
        let first = self.out.slots.len();
        self.out.first_slot[rec] = first as i32;
        for l in l0..l1 {
            let lrec = &res.levels[l as usize];
            let chain = if res.rules.chain_by_name && lrec.chain >= 0 {
                let bound = (first + (l - l0) as usize) as i64;
                self.chain_by_name(&lrec.chain_candidates, bound)
                    .ok_or_else(|| LoadError::ChainNotFound {
                        owner: RangeOwner::Level {
                            name: lrec.name.clone(),
                        },
                        level: chain_name(res, lrec.chain),
                    })?
            } else {
                lrec.chain
            };
            self.out.slots.push(Slot {
                record: l,
                dungeon: self.out.dungeons.len() as i32,
                exists: false,
                dlevel: 0,
                chain,
                base_adjust: 0,
            });
        }
        let limits = res.rules.limits.filter(|_| res.rules.limits_on_read);
        if let Some(limits) = limits {
            if self.out.slots.len() > limits.max_levels {
                return Err(LoadError::TooManyLevels {
                    count: self.out.slots.len(),
                    max: limits.max_levels,
                });
            }
        }
        let levels_read = self.out.slots.len() as i64;
        for b in d.branches.0..d.branches.1 {
            let brec = &res.branches[b as usize];
            self.out.branch_chain[b as usize] = if res.rules.chain_by_name && brec.chain >= 0 {
                // The bound leaves out the last level read for the first
                // branch (src/dungeon.c:888: `n_levs + f - 1`).
                let bound = levels_read + i64::from(brec.nth) - 1;
                self.chain_by_name(&brec.chain_candidates, bound)
                    .ok_or_else(|| LoadError::ChainNotFound {
                        owner: RangeOwner::BranchTo {
                            dungeon: branch_target(res, b),
                        },
                        level: chain_name(res, brec.chain),
                    })?
            } else {
                brec.chain
            };
        }
        if let Some(limits) = limits {
            let count = self.loaded_branches + (d.branches.1 - d.branches.0) as usize;
            if count > limits.max_branches {
                return Err(LoadError::TooManyBranches {
                    count,
                    max: limits.max_branches,
                });
            }
        }
        Ok(())
    }

    /// Shows the trace `at`; true when it stops the resolution.
    #[inline(always)]
    fn stop_at(&mut self, at: Checkpoint) -> bool {
        self.stopped = self.draw.trace.checkpoint(at, self.out) == ControlFlow::Break(());
        self.stopped
    }

    /// Shows a trace that looks at states ([`Trace::SEES_STATES`]) the
    /// layout as it stands between two draws.
    #[inline(always)]
    pub(crate) fn seen(&mut self) {
        if T::SEES_STATES {
            self.draw.trace.state(self.out);
        }
    }

    /// Every draw of the loader proper: the trace sees the state first.
    #[inline(always)]
    pub(crate) fn rn2(&mut self, n: u32, site: Site) -> u32 {
        self.seen();
        self.draw.rn2(n, site)
    }

    /// `level_range`: `(start, count)` of a level or branch range in
    /// dungeon `dnum`. `placed` is the number of leading slots whose level
    /// is placed at this point; a chain must land on one of them. The
    /// error is small: the placement search asks often and needs the
    /// error only when it gives up ([`Resolution::fault_error`] names it).
    #[inline]
    pub fn range(
        &self,
        dnum: usize,
        base: i32,
        rand: i32,
        chain: i32,
        placed: usize,
    ) -> Result<(i32, i32), RangeFault> {
        let chained = if chain >= 0 {
            let c = chain as usize;
            if c >= placed {
                return Err(RangeFault::ChainShifted);
            }
            let slot = self.out.slots[c];
            if !slot.exists {
                return Err(RangeFault::EmptyChain);
            }
            Some(slot.dlevel)
        } else {
            None
        };
        arith::level_range(self.out.dungeons[dnum].num_levels, base, rand, chained)
    }

    /// The error of a failed [`Resolution::range`], with names.
    #[cold]
    pub fn fault_error(
        &self,
        fault: RangeFault,
        dnum: usize,
        chain: i32,
        owner: RangeOwner,
    ) -> LoadError {
        match fault {
            RangeFault::ChainShifted => LoadError::ChainShifted { owner, chain },
            RangeFault::EmptyChain => LoadError::EmptyChain { owner, chain },
            RangeFault::BaseOutOfRange { base } => {
                let d = self.out.dungeons[dnum];
                LoadError::BaseOutOfRange {
                    owner,
                    dungeon: self.res.dungeons[d.record as usize].name.clone(),
                    base,
                    num_levels: d.num_levels,
                }
            }
        }
    }

    /// `rn2(count)` for a range's count or a dungeon size's random part,
    /// which a random part below -1 (a negative one for a size) makes
    /// negative: then as the game's `rn2` does ([`NonPositiveRn2`]).
    #[inline]
    pub(crate) fn rn2_count(&mut self, count: i32, site: Site) -> i32 {
        if count >= 1 {
            self.rn2(count as u32, site) as i32
        } else {
            self.seen();
            self.draw.rn2_nonpositive(count, self.neg_rn2, site)
        }
    }

    /// `pd.tmpbranch[k].entry_lev` as SLASH'EM's `add_branch` reads it:
    /// a record read so far, the record a dropped dungeon left in the slot
    /// after them, or a slot never written (`pd` is an uninitialised local;
    /// taken as 0, that is "not positive").
    fn branch_slot_entry(&self, k: usize) -> i32 {
        let rec = match self.out.read_branches.get(k) {
            Some(&r) => Some(r),
            None if k == self.out.read_branches.len() => self.out.stale_branch,
            None => None,
        };
        rec.map_or(0, |r| self.res.branches[r as usize].entry)
    }

    /// The entry level of dungeon index `child` as the branch record
    /// `brec` gives it (SLASH'EM `dungeon.c:405-421`). The positive case
    /// tests the record numbered like the child dungeon, not the branch
    /// (a bug kept for parity).
    fn branch_entry(&self, brec: usize, child: usize) -> i32 {
        let e = self.res.branches[brec].entry;
        let num = self.out.dungeons[child].num_levels;
        let entry = if e < 0 {
            let v = num.wrapping_add(e).wrapping_add(1);
            if v <= 0 {
                1
            } else {
                v
            }
        } else if self.branch_slot_entry(child) > 0 {
            e.min(num)
        } else {
            1
        };
        self.res.rules.fields.count(entry)
    }

    /// `parent_dlevel`: the level of branch record `brec` in dungeon
    /// index `parent`, whose first `placed` slots hold placed levels.
    fn parent_level(
        &mut self,
        brec: usize,
        parent: usize,
        placed: usize,
        site: Site,
    ) -> Result<i32, LoadError> {
        let res = self.res;
        let b = &res.branches[brec];
        let chain = self.out.branch_chain[brec];
        let (base, count) = self
            .range(parent, b.range.base, b.range.rand, chain, placed)
            .map_err(|fault| {
                let owner = RangeOwner::BranchTo {
                    dungeon: b.target.clone(),
                };
                self.fault_error(fault, parent, chain, owner)
            })?;
        if count < 1 {
            return self.parent_level_nonpositive(brec, parent, base, count, site);
        }
        let level = if res.rules.avoid_branch_levels {
            // parent_dlevel (3.6): start looking at j + 1, wrap, stop on a
            // level that ends no branch of the parent yet, or back at j.
            let j = self.rn2(count as u32, site) as i32;
            let mut k = j;
            loop {
                k += 1;
                if k >= count {
                    k = 0;
                }
                if !self.ends_branch(parent, base + k) || k == j {
                    break;
                }
            }
            base + k
        } else {
            self.rn2(count as u32, site) as i32 + base
        };
        Ok(res.rules.fields.count(level))
    }

    /// Whether level `lvl` of dungeon index `parent` ends a branch (either
    /// end), as `parent_dlevel` compares it: the stored level (already in
    /// the game's type) against the `int` `base + i`.
    fn ends_branch(&self, parent: usize, lvl: i32) -> bool {
        let at = (parent as i32, lvl);
        self.out
            .branches
            .iter()
            .any(|c| c.end1 == at || c.end2 == at)
    }

    /// `parent_dlevel` with a negative `count` (a random part below -1,
    /// returned as is by `level_range`), step by step as the C loop runs
    /// it (3.6 `dungeon.c:398-407`, every game alike):
    ///
    /// ```c
    /// i = j = rn2(num);
    /// do {
    ///     if (++i >= num) i = 0;
    ///     ... break out of the branch walk at a branch ending on base + i
    /// } while (curr && i != j);
    /// return (base + i);
    /// ```
    ///
    /// `j` is what the game's `rn2` gives ([`NonPositiveRn2`]): 0 (no draw,
    /// or dNetHack's draw), `0 ..= |count| - 1`, or (3.6's ISAAC-64) any
    /// `int`. Every `i >= count` becomes 0, so unless `j + 1 < count` (a
    /// very negative `j`, 3.6 only: then `i` climbs from `j + 1`, checking
    /// `base + i`, until a level is free or it reaches `count`), `i` is 0
    /// at once and stays 0: `base` is the answer when it ends no branch or
    /// when `j` is 0, and otherwise the loop never ends (the game hangs at
    /// start-up: [`LoadError::BranchLevelHangs`]). The level is `base + i`
    /// in `int` (`++i` past `INT_MAX` wraps, as the compiled code does),
    /// stored in the game's type (3.6's `xchar` wraps it to a byte). The
    /// game does nothing else with it during `init_dungeons()`:
    /// `add_branch` stores it (3.6 `dungeon.c:502`), `insert_branch` sorts
    /// on it (`branch_val`, `:457-461`, any value) and the child's depth
    /// comes from it (`:852`, `:870-872`), so the layout is the game's,
    /// with a branch level that may lie outside the parent dungeon.
    #[cold]
    fn parent_level_nonpositive(
        &mut self,
        brec: usize,
        parent: usize,
        base: i32,
        count: i32,
        site: Site,
    ) -> Result<i32, LoadError> {
        let fields = self.res.rules.fields;
        let j = self.rn2_count(count, site);
        if !self.res.rules.avoid_branch_levels {
            // `rn1(count, base)` before 3.3.
            return Ok(fields.count(j.wrapping_add(base)));
        }
        let mut i = j;
        loop {
            i = i.wrapping_add(1);
            if i >= count {
                i = 0;
            }
            let lvl = base.wrapping_add(i);
            if !self.ends_branch(parent, lvl) || i == j {
                return Ok(fields.count(lvl));
            }
            if i == 0 {
                // Every later pass is this one again.
                let b = &self.res.branches[brec];
                return Err(LoadError::BranchLevelHangs {
                    dungeon: b.target.clone(),
                    rand: b.range.rand,
                    level: base,
                    drawn: j,
                });
            }
        }
    }

    /// `add_branch` for branch record `brec` from dungeon index `parent`
    /// into dungeon index `child`, entering at `entry` (`None`: as the
    /// branch record says); `placed` as for [`Resolution::parent_level`].
    fn link(
        &mut self,
        brec: usize,
        parent: usize,
        child: usize,
        entry: Option<i32>,
        placed: usize,
    ) -> Result<ResolvedBranch, LoadError> {
        let res = self.res;
        let site = Site::BranchLevel {
            dungeon: self.out.dungeons[child].record,
        };
        let level = self.parent_level(brec, parent, placed, site)?;
        let entry = entry.unwrap_or_else(|| self.branch_entry(brec, child));
        let b = &res.branches[brec];
        let branch = ResolvedBranch {
            id: self.next_branch_id,
            record: brec as u32,
            kind: b.kind,
            end1: (parent as i32, level),
            end2: (child as i32, entry),
            end1_up: b.up,
        };
        self.next_branch_id += 1;
        self.out.insert_branch(branch, &res.rules);
        Ok(branch)
    }

    /// The branch into dungeon index `i` (record `rec`) and the depth it
    /// gives the dungeon; `placed` slots (those of the dungeons before)
    /// hold placed levels.
    fn add_branch(&mut self, i: usize, rec: usize, placed: usize) -> Result<(), LoadError> {
        let res = self.res;
        let d = &res.dungeons[rec];
        // find_branch: the first branch record of an existing dungeon that
        // names this one.
        let Some(&(brec, owner)) = d
            .incoming
            .iter()
            .find(|(_, owner)| self.out.index_of[*owner as usize] >= 0)
        else {
            return Err(LoadError::BranchNotFound {
                dungeon: d.name.clone(),
            });
        };
        // parent_dnum walks the dungeons up to the first one named like
        // this one; an earlier namesake hides the owner. (SLASH'EM keeps
        // each record's owner instead.)
        if res.rules.parent_by_name
            && d.same_name_before
                .iter()
                .any(|&j| j <= owner && self.out.index_of[j as usize] >= 0)
        {
            return Err(LoadError::ParentNotResolved {
                dungeon: d.name.clone(),
            });
        }
        let parent = self.out.index_of[owner as usize] as usize;
        let entry = match res.rules.entry {
            EntrySource::Dungeon => Some(self.out.dungeons[i].entry_level),
            EntrySource::FirstBranch => None,
        };
        let branch = self.link(brec as usize, parent, i, entry, placed)?;
        let entry = branch.end2.1;
        self.out.dungeons[i].entry_level = entry;
        let fields = res.rules.fields;
        let from_depth = fields.depth(
            self.out.dungeons[parent]
                .depth_start
                .wrapping_add(branch.end1.1 - 1),
        );
        let step = match branch.kind {
            BranchKind::Portal => 0,
            _ if branch.end1_up => -1,
            _ => 1,
        };
        self.out.dungeons[i].depth_start = fields.start(
            from_depth
                .wrapping_add(step)
                .wrapping_sub(entry.wrapping_sub(1)),
        );
        Ok(())
    }

    /// dNetHack's `select_alternate()` (dNAO `dungeon.c:668-711`) for
    /// dungeon record `rec`, which would become index `i`: one of the
    /// records sharing a name is kept, drawing `rn2(remaining)` for each
    /// until one is; wizard mode (or June) with the `chaos_quest` option
    /// picks the Chaos Quest after the draw.
    fn select_alternate(&mut self, rec: usize, i: usize) -> bool {
        let res = self.res;
        let d = &res.dungeons[rec];
        let history = &mut self.out.alternates;
        if history.is_empty() {
            history.resize(res.rules.maxdungeon.max(1) as usize, AltSlot::default());
        }
        // The search stops at the first unset slot or at slot `i` (the
        // index the record would take), as the C loop does.
        let mut j = 0;
        let mut altnum = 0;
        while j < i && j < history.len() && history[j].set {
            if res.dungeons[history[j].record as usize].alt_key == d.alt_key {
                if history[j].selected {
                    return false;
                }
                altnum = history[j].prev;
                break;
            }
            j += 1;
        }
        let remaining = d.alternates - altnum + 1;
        let site = Site::Alternate {
            dungeon: rec as u32,
        };
        self.seen();
        let mut select = self.draw.rn2_any(remaining, site) == 0;
        let inputs = &res.rules.inputs;
        if d.is_chaos_quest && inputs.chaosvar != 0 && (self.out.wizard || inputs.is_june) {
            select = altnum == i32::from(inputs.chaosvar) - 1;
        }
        if select && d.is_chaos_quest {
            self.out.chaos_variant = altnum;
        }
        if let Some(slot) = self.out.alternates.get_mut(j) {
            slot.record = rec as u32;
            slot.set = true;
            slot.prev += 1;
            slot.selected = select;
        }
        select
    }

    /// Whether dungeon record `rec` exists in this layout: its alternate
    /// selection and its chance roll.
    fn keeps(&mut self, rec: usize) -> bool {
        let res = self.res;
        let (rules, d) = (&res.rules, &res.dungeons[rec]);
        if rules.alternates
            && d.alternates > 0
            && !self.select_alternate(rec, self.out.dungeons.len())
        {
            return false;
        }
        let chance = match rules.dungeon_chance {
            _ if self.skip_dungeon_chance => return true,
            DungeonChance::Optional if d.chance == 0 => return true,
            DungeonChance::Optional => d.chance,
            DungeonChance::Every if d.chance == 0 => 100,
            DungeonChance::Every => d.chance,
        };
        let site = Site::DungeonChance {
            dungeon: rec as u32,
        };
        chance > self.rn2(100, site) as i32
    }

    /// dNetHack's Quest locate level ([`arith::quest_locate_moves`]): its
    /// move, drawn when there are two, applied to the dungeon's record
    /// before last. The draw is made even when the dungeon has fewer
    /// records, as the C code does.
    fn quest_locate(&mut self, rec: usize, i: usize, start: usize) {
        let res = self.res;
        let d = &res.dungeons[rec];
        let moves = arith::quest_locate_moves(&res.rules, d, self.out.dungeons[i].num_levels);
        let adjust = match *moves {
            [] => return,
            [m] => m,
            _ => {
                let site = Site::QuestLocate {
                    dungeon: rec as u32,
                };
                moves[self.rn2(moves.len() as u32, site) as usize]
            }
        };
        if let Some(k) = arith::quest_locate_record(d) {
            self.out.slots[start + k as usize].base_adjust += adjust;
        }
    }

    fn dungeon(&mut self, rec: usize) -> Result<(), LoadError> {
        let res = self.res;
        let rules = &res.rules;
        let d = &res.dungeons[rec];
        if !self.keeps(rec) {
            // Its branch records are read into one slot, past the kept ones.
            if d.branches.1 > d.branches.0 {
                self.out.stale_branch = Some(d.branches.1 - 1);
            }
            self.stop_at(Checkpoint::Placed { record: rec as u32 });
            return Ok(());
        }
        let start = self.out.slots.len();
        self.read_records(rec)?;
        let i = self.out.dungeons.len();
        let fields = rules.fields;
        let num = if d.size.rand != 0 {
            // `rn1(rand, base)` (3.6 `dungeon.c:796-798`). A negative
            // random part reaches it from every game's dgn_comp but
            // dNetHack's: `dungeonline` takes an `rcouple`, which accepts
            // any random part (3.4.3 `util/dgn_comp.y:98-107`, `:421-431`;
            // 3.6, SLASH'EM, EvilHack, GnollHack, UnNetHack and DynaHack
            // the same), and `check_dungeon()`, which rejects it
            // (`:534-538`), is never called; dNAO's calls it (`:107`).
            // NetHack 3.7's `dungeon.lua` can hold one too. So it draws as
            // the game's `rn2` does ([`Resolution::rn2_count`]), and the size is
            // cut to the game's type as any other.
            let site = Site::DungeonSize {
                dungeon: rec as u32,
            };
            self.rn2_count(d.size.rand, site).wrapping_add(d.size.base)
        } else {
            d.size.base
        };
        let num = arith::quest_size(rules, d, fields.count(num));
        let ledger_start = match self.out.dungeons.last() {
            Some(prev) => fields.start(prev.ledger_start.wrapping_add(prev.num_levels)),
            None => 0,
        };
        if let Some(max) = rules.ledger_limit {
            if i > 0 && ledger_start + num > max {
                return Err(LoadError::TooManyLedgerLevels {
                    count: ledger_start + num,
                    max,
                });
            }
        }
        // The entry level is stored before it is checked.
        let entry = match rules.entry {
            EntrySource::FirstBranch => 1,
            EntrySource::Dungeon => arith::entry_level(fields, num, d.entry),
        };
        self.out.dungeons.push(ResolvedDungeon {
            record: rec as u32,
            num_levels: num,
            ledger_start,
            depth_start: 1,
            entry_level: entry,
        });
        self.out.index_of[rec] = i as i32;
        let unconnected = rules.unconnected && d.unconnected;
        if i > 0 && !unconnected {
            self.add_branch(i, rec, start)?;
        }
        if self.out.dungeons[i].num_levels > rules.maxlevel {
            self.out.dungeons[i].num_levels = rules.maxlevel;
        }
        if self.stop_at(Checkpoint::Decided { record: rec as u32 }) {
            return Ok(());
        }

        let (l0, l1) = d.levels;
        if let Some(limits) = rules.limits.filter(|_| !rules.limits_on_read) {
            let count = start + (l1 - l0) as usize;
            if count > limits.max_levels {
                return Err(LoadError::TooManyLevels {
                    count,
                    max: limits.max_levels,
                });
            }
        }
        for k in start..self.out.slots.len() {
            let l = self.out.slots[k].record;
            self.out.slots[k].exists = self.skip_level_chance || {
                let r = self.rn2(100, Site::LevelChance { level: l }) as i32;
                res.levels[l as usize].chance > r
            };
        }
        if self.stop_at(Checkpoint::Chances { record: rec as u32 }) {
            return Ok(());
        }
        self.quest_locate(rec, i, start);
        let taken = place::place_dungeon(self, i, start)?;
        // `add_level` keeps each dungeon's levels sorted by level; they are
        // distinct, so that order is the order of the taken levels (bit
        // `level - 1` of `taken`).
        let mut at_level = [0u32; 64];
        for k in start..self.out.slots.len() {
            let s = self.out.slots[k];
            if s.exists {
                at_level[(s.dlevel - 1) as usize & 63] = k as u32;
            }
        }
        let mut rest = taken;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            let s = self.out.slots[at_level[bit as usize] as usize];
            self.out.levels.push(ResolvedLevel {
                record: s.record,
                dungeon: s.dungeon,
                level: s.dlevel,
            });
        }

        self.loaded_branches += (d.branches.1 - d.branches.0) as usize;
        if let Some(limits) = rules.limits.filter(|_| !rules.limits_on_read) {
            if self.loaded_branches > limits.max_branches {
                return Err(LoadError::TooManyBranches {
                    count: self.loaded_branches,
                    max: limits.max_branches,
                });
            }
        }
        self.read_branch_records(i, rec)?;
        self.stop_at(Checkpoint::Placed { record: rec as u32 });
        Ok(())
    }

    /// Takes dungeon record `rec`'s branch records (now index `i`) into
    /// `pd.tmpbranch[]`; in SLASH'EM one that names an existing dungeon
    /// is a branch back up, added at once (`dungeon.c:836-846`).
    fn read_branch_records(&mut self, i: usize, rec: usize) -> Result<(), LoadError> {
        let (b0, b1) = self.res.dungeons[rec].branches;
        if b1 > b0 {
            self.out.stale_branch = None;
        }
        for b in b0..b1 {
            self.out.read_branches.push(b);
            if !self.res.rules.back_branches {
                continue;
            }
            let back = self.res.branches[b as usize]
                .back_to
                .iter()
                .map(|&r| self.out.index_of[r as usize])
                .find(|&index| index >= 0);
            if let Some(child) = back {
                let placed = self.out.slots.len();
                self.link(b as usize, i, child as usize, None, placed)?;
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), LoadError> {
        let res = self.res;
        for note in 0..5 {
            self.out.tune[note] = b'A' + self.rn2(7, Site::Tune) as u8;
        }
        self.seen();
        // Fort Ludios (and its likes): the branch gets the "floating"
        // marker and moves.
        for (i, name) in res.rules.floating_levels.iter().enumerate() {
            let Some(lvl) = self
                .out
                .levels
                .iter()
                .find(|l| res.levels[l.record as usize].floating == Some(i as u8))
                .copied()
            else {
                continue;
            };
            let Some(at) = self
                .out
                .branches
                .iter()
                .position(|b| b.end2 == (lvl.dungeon, lvl.level))
            else {
                if !res.rules.floating_needs_branch {
                    continue;
                }
                return Err(LoadError::KnoxNotReachable {
                    level: (*name).to_string(),
                });
            };
            let mut b = self.out.remove_branch(at);
            b.end1.0 = self.out.dungeons.len() as i32;
            self.out.insert_branch(b, &res.rules);
        }
        if !res.rules.unlinked_levels.is_empty() {
            // Each name's first level in the chain.
            for name in res.rules.unlinked_levels {
                if let Some(at) = self.out.levels.iter().position(|l| {
                    let rec = &res.levels[l.record as usize];
                    rec.unlinked && rec.name == *name
                }) {
                    self.out.levels.remove(at);
                }
            }
        }
        for (name, records) in res.rules.required_dungeons.iter().zip(&res.required) {
            if !records.iter().any(|&r| self.out.index_of[r as usize] >= 0) {
                return Err(LoadError::MissingDungeon {
                    name: (*name).to_string(),
                });
            }
        }
        // The dummy surface level lifts the endgame by one.
        if let Some(dummy) = self
            .out
            .levels
            .iter()
            .find(|l| res.levels[l.record as usize].is_dummy)
            .copied()
        {
            let d = dummy.dungeon as usize;
            let (num, depth) = (
                self.out.dungeons[d].num_levels,
                self.out.dungeons[d].depth_start,
            );
            if i64::from(num) > 1 - i64::from(depth) {
                self.out.dungeons[d].depth_start = res.rules.fields.start(depth.wrapping_sub(1));
            }
        }
        if let Some(planes) = res.rules.planes {
            self.shuffle_planes(&planes)?;
        }
        Ok(())
    }

    /// `shuffle_planes()` ([`super::Planes`]), on the level chain as the
    /// game links it: every `next` is the following entry of
    /// `out.levels`, the shuffle relinks six of them, and the chain is
    /// walked again from its head (a level no longer reached drops out,
    /// as in the game).
    fn shuffle_planes(&mut self, planes: &super::Planes) -> Result<(), LoadError> {
        let res = self.res;
        // find_level: the first level of the chain with each name.
        let mut at = [usize::MAX; 6];
        for (k, l) in self.out.levels.iter().enumerate() {
            if let Some(p) = res.levels[l.record as usize].plane {
                let slot = &mut at[p as usize];
                if *slot == usize::MAX {
                    *slot = k;
                }
            }
        }
        let names = [
            planes.head,
            planes.shuffled[0],
            planes.shuffled[1],
            planes.shuffled[2],
            planes.shuffled[3],
            planes.tail,
        ];
        if let Some(p) = at.iter().position(|&k| k == usize::MAX) {
            return Err(LoadError::PlaneMissing {
                level: names[p].to_string(),
            });
        }
        let mut array = [at[1], at[2], at[3], at[4]];
        for j in (1..4).rev() {
            let pos = self.rn2(j as u32 + 1, Site::Planes) as usize;
            array.swap(pos, j);
        }
        let n = self.out.levels.len();
        // `next[k]` of chain entry `k`; `n` ends the chain.
        let next = &mut self.out.chain_next;
        next.clear();
        next.extend(1..=n as u32);
        next[at[0]] = array[3] as u32;
        for j in (1..4).rev() {
            next[array[j]] = array[j - 1] as u32;
        }
        next[array[0]] = at[5] as u32;
        let order = &mut self.out.chain_order;
        order.clear();
        let mut k = 0u32;
        while (k as usize) < n {
            if order.len() == n {
                return Err(LoadError::PlanesLoop);
            }
            order.push(self.out.levels[k as usize]);
            k = self.out.chain_next[k as usize];
        }
        std::mem::swap(&mut self.out.levels, &mut self.out.chain_order);
        Ok(())
    }
}

/// The chained-to level's name, for messages.
fn chain_name(res: &Resolver, chain: i32) -> String {
    usize::try_from(chain)
        .ok()
        .and_then(|c| res.levels.get(c))
        .map_or_else(|| format!("#{chain}"), |l| l.name.clone())
}

fn branch_target(res: &Resolver, b: u32) -> String {
    res.branches[b as usize].target.clone()
}

pub fn run<S: Source, T: Trace>(
    top: &Resolver,
    source: &mut S,
    trace: &mut T,
    wizard: bool,
    out: &mut Resolved,
) -> Result<(), LoadError> {
    // NetHack 3.6.0 and 3.6.1 (glibc's generator) chose a random hero's
    // facets in another order (their rigid_role_checks picks only the
    // role, 3.6.1 src/role.c; the tty selection then picks race, gender,
    // alignment): dgnkit makes 3.6.2-3.6.7's choice only.
    if out.rng == RngKind::Glibc && top.start.character.is_some_and(|c| c.wanted.chooses()) {
        return Err(LoadError::Inputs {
            message: "a random hero's choice is made as NetHack 3.6.2-3.6.7 make it (ISAAC-64); 3.6.0 and 3.6.1 (glibc) chose in another order, which dgnkit does not make: give --role, --race, --gender and --align".to_string(),
        });
    }
    let mut draw = Drawer { source, trace };
    let chosen = top.start.choose_character(&mut draw);
    let character = chosen.map(|(c, _)| c);
    let chosen = chosen.map_or(0, |(_, n)| n);
    out.character = character;
    let start = top.start.for_character(character);
    match start.level_seed {
        // NLE: the rest of the start and the loader draw from the level
        // generator (src/allmain.c:609 `nle_swap_to_lgen(0)` before
        // `init_objects()`).
        Some(seed) => {
            let mut lgen = match &top.level_generator {
                Some(g) if top.start.level_seed == Some(seed) => (**g).clone(),
                _ => crate::rng::Isaac64::new(seed),
            };
            let draw = Drawer {
                source: &mut lgen,
                trace: draw.trace,
            };
            run_from(top, &start, draw, chosen, wizard, out)
        }
        None => run_from(top, &start, draw, chosen, wizard, out),
    }
}

/// The game start's draws after the hero's choice, then the loader.
fn run_from<S: Source, T: Trace>(
    top: &Resolver,
    start: &super::GameStart,
    mut draw: Drawer<'_, S, T>,
    chosen: u32,
    wizard: bool,
    out: &mut Resolved,
) -> Result<(), LoadError> {
    let pre_draws = chosen + start.draw(&mut draw);
    for n in (2..=top.rules.lua_shuffle).rev() {
        draw.rn2(n, Site::LuaShuffle);
    }
    // A dungeon.lua that draws: its draws, then the script they give.
    let outcome = top.prelude.as_ref().map_or(0, |p| p.choose(&mut draw));
    let res = top.outcome(outcome);
    out.clear(res.dungeons.len(), res.branches.len());
    out.pre_draws = pre_draws;
    out.outcome = outcome;
    let (skip_dungeon_chance, skip_level_chance) = res.skips_chances(wizard);
    let neg_rn2 = res.rules.rn2_nonpositive.with_generator(out.rng);
    let mut run = Resolution {
        res,
        draw,
        out,
        skip_dungeon_chance,
        skip_level_chance,
        neg_rn2,
        next_branch_id: 0,
        loaded_branches: 0,
        stopped: false,
    };
    for rec in 0..res.dungeons.len() {
        run.dungeon(rec)?;
        if run.stopped {
            return Ok(());
        }
    }
    run.finish()?;
    start.draw_after(&mut run.draw);
    Ok(())
}
