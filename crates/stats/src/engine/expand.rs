//! One state's outcomes for one dungeon record, in the order the loader
//! draws them: whether an alternate record is kept, the dungeon's chance
//! roll, its size, its entry level, the branch into it, and the patterns of
//! its optional levels, whose placements [`Engine::outcomes`] turns into
//! outcomes. Invariant: the chances of a state's outcomes sum to one.

use super::arith::{entry_level, level_range, nonpositive_branch_levels, quest_size};
use super::layer::{BranchInfo, FailKey, Present, To};
use super::memo::{LevelPlan, PlaceKey, Sizes};
use super::state::{list_id, shared, Live, State};
use super::{Engine, TooLarge};
use crate::runs::{bit, probe};
use crate::weight::W;
use dgnkit_loader::FailCode;
use dgnkit_loader::{BranchKind, DungeonChance, NonPositiveRn2};
use std::sync::Arc;

/// Dungeon sizes enumerated at most (the random part of a size).
pub(super) const MAX_SIZES: i32 = 1024;

/// One outcome of loading a dungeon record from a state.
pub(super) struct Expansion {
    /// Its chance, given the state.
    pub(super) p: W,
    pub(super) to: To,
    /// The dungeon, when it exists in the outcome.
    pub(super) present: Option<Present>,
    /// The state after it (none: the resolution fails).
    pub(super) next: Option<State>,
}

impl Expansion {
    /// The record is not loaded (dropped, or its chance roll fails): on
    /// to `next`.
    fn skipped(p: W, next: State) -> Expansion {
        Expansion {
            p,
            to: To::State(u32::MAX),
            present: None,
            next: Some(next),
        }
    }

    /// Loading record `rec` fails with the loader's `code` (at level
    /// record `level`).
    pub(super) fn failure(p: W, rec: usize, code: &'static str, level: Option<u32>) -> Expansion {
        Expansion {
            p,
            to: To::Fail(Box::new(FailKey {
                code,
                dungeon: Some(rec as u32),
                level,
            })),
            present: None,
            next: None,
        }
    }
}

/// One draw of the branch into a dungeon: its chance, the branch (none for
/// the first dungeon or an unconnected one) and the raw depth start of the
/// dungeon it leads to.
#[derive(Clone, Copy)]
pub(super) struct Draw {
    pub(super) p: W,
    pub(super) branch: Option<BranchInfo>,
    pub(super) depth_start: i32,
}

/// What the outcomes of one size of a dungeon record share.
pub(super) struct DungeonDraw<'p> {
    pub(super) rec: usize,
    /// The dungeon's index: the records loaded before it.
    pub(super) index: usize,
    pub(super) num: i32,
    pub(super) entry: i32,
    /// Floating levels whose first one may lie in this dungeon.
    pub(super) floating_here: u8,
    /// The level records whose levels go into the class key.
    pub(super) kept: &'p [usize],
    /// The level slots and branch records of the records loaded before
    /// it.
    pub(super) n_slots: i32,
    pub(super) n_branches: usize,
}

/// One placement of a dungeon for one branch draw.
#[derive(Clone, Copy)]
pub(super) struct Placed<'k> {
    pub(super) draw: &'k Draw,
    /// Which of the dungeon's level records exist.
    pub(super) pattern: &'k [bool],
    /// The placement ([`super::memo::Memo::placements`]).
    pub(super) pid: u32,
    /// The chance of the draw, the pattern and the locate move.
    pub(super) prefix: W,
}

/// The branch into a dungeon up to its level's draw.
struct BranchRange<'s> {
    parent: &'s Live,
    /// The parent's record.
    owner: u32,
    /// The levels it is drawn from: `base..base + count`, or for a count
    /// below 1 as [`nonpositive_branch_levels`] says.
    base: i32,
    count: i32,
    /// Depth from the parent's level to the dungeon's entry: 1 down, -1
    /// up, 0 by portal.
    step: i32,
}

impl<'a> Engine<'a> {
    /// Every outcome of loading dungeon record `rec` from state `s`.
    pub(super) fn expand(
        &mut self,
        s: &State,
        rec: usize,
        out: &mut Vec<Expansion>,
    ) -> Result<(), TooLarge> {
        let entry_len = out.len();
        let Some((p_kept, kept)) = self.alternate_outcomes(s, rec, out) else {
            return Ok(());
        };
        let from = kept.as_ref().unwrap_or(s);
        let Some(p_exist) = self.dungeon_chance_outcomes(from, rec, p_kept, out) else {
            return Ok(());
        };
        let (n_slots, n_branches) = self.counts(&from.loaded);
        let sizes = self.sizes(rec)?;
        for k in 0..sizes {
            let Some(&(num, p_size)) = self.memo.sizes[rec].as_ref().and_then(|s| s.get(k)) else {
                break;
            };
            let entry = entry_level(self.res, rec, num);
            let p = p_exist * p_size;
            // A buffer kept from state to state (lost only on an error).
            let mut draws = std::mem::take(&mut self.memo.draws);
            draws.clear();
            if !self.branch_draws(from, rec, (p, entry), n_slots, &mut draws, out)? {
                self.memo.draws = draws;
                continue;
            }
            let num = num.min(self.res.rules.maxlevel);
            let placed =
                self.expand_patterns(from, rec, (num, entry), (n_slots, n_branches), &draws, out);
            self.memo.draws = draws;
            if !placed? {
                // A placement whose mixed rolls cannot be mixed: this
                // record's rolls are enumerated from now on, from this
                // state again.
                return self.unmix(s, rec, entry_len, out);
            }
        }
        Ok(())
    }

    /// Expands `s` again with record `rec`'s rolls enumerated, dropping
    /// what the first try made.
    pub(super) fn unmix(
        &mut self,
        s: &State,
        rec: usize,
        len: usize,
        out: &mut Vec<Expansion>,
    ) -> Result<(), TooLarge> {
        out.truncate(len);
        self.memo.no_mix[rec] = true;
        self.expand(s, rec, out)
    }

    /// dNetHack keeps one of several same-named records; one that is not
    /// kept draws no chance roll. Pushes the outcomes where record `rec`
    /// is dropped, and returns the chance that it is kept with the state
    /// then (none: `s` as it is), or none when it never is.
    fn alternate_outcomes(
        &self,
        s: &State,
        rec: usize,
        out: &mut Vec<Expansion>,
    ) -> Option<(W, Option<State>)> {
        if !(self.res.rules.alternates && self.res.dungeons[rec].alternates > 0) {
            return Some((W::ONE, None));
        }
        let Some(alt) = self.select_alternate(s, rec) else {
            out.push(Expansion::skipped(W::ONE, self.project(s.clone(), rec + 1)));
            return None;
        };
        if !alt.p_drop.is_zero() {
            let next = State {
                alts: shared(&self.lists.alts, alt.dropped),
                ..s.clone()
            };
            out.push(Expansion::skipped(alt.p_drop, self.project(next, rec + 1)));
        }
        if alt.p_keep.is_zero() {
            return None;
        }
        let kept = State {
            alts: shared(&self.lists.alts, alt.kept),
            ..s.clone()
        };
        Some((alt.p_keep, Some(kept)))
    }

    /// The dungeon's chance roll (none in wizard mode): pushes the outcome
    /// where record `rec`, there with chance `p_exist` so far, is not
    /// made, and returns the chance that it is, or none when it never is.
    fn dungeon_chance_outcomes(
        &self,
        s: &State,
        rec: usize,
        p_exist: W,
        out: &mut Vec<Expansion>,
    ) -> Option<W> {
        let d = &self.res.dungeons[rec];
        let dungeon_chance = match self.res.rules.dungeon_chance {
            _ if self.facts.skip_dungeon_chance => None,
            DungeonChance::Optional if d.chance == 0 => None,
            DungeonChance::Optional => Some(d.chance),
            DungeonChance::Every if d.chance == 0 => Some(100),
            DungeonChance::Every => Some(d.chance),
        };
        let Some(chance) = dungeon_chance else {
            return Some(p_exist);
        };
        let c = chance.clamp(0, 100) as u64;
        if c < 100 {
            let next = self.project(s.clone(), rec + 1);
            out.push(Expansion::skipped(p_exist * W::ratio(100 - c, 100), next));
        }
        (c != 0).then(|| p_exist * W::ratio(c, 100))
    }

    /// The level slots and branch records of the records `loaded`, once
    /// per list (a layer's states load a few hundred distinct lists).
    fn counts(&mut self, loaded: &Arc<[u16]>) -> (i32, usize) {
        let id = list_id(loaded);
        if let Some((_, counts)) = self.memo.counts.get(&id) {
            return *counts;
        }
        let counts = (self.n_slots(loaded), self.n_branch_records(loaded));
        self.memo.counts.insert(id, (loaded.clone(), counts));
        counts
    }

    /// [`Engine::size_distribution`], once per record (every state that
    /// loads it asks), into [`super::memo::Memo::sizes`]; how many.
    fn sizes(&mut self, rec: usize) -> Result<usize, TooLarge> {
        if let Some(sizes) = &self.memo.sizes[rec] {
            return Ok(sizes.len());
        }
        let sizes: Sizes = self.size_distribution(rec)?.into();
        let n = sizes.len();
        self.memo.sizes[rec] = Some(sizes);
        Ok(n)
    }

    /// The sizes of dungeon record `rec` with their chances, dNetHack's
    /// Quest minimum applied.
    fn size_distribution(&self, rec: usize) -> Result<Vec<(i32, W)>, TooLarge> {
        let d = &self.res.dungeons[rec];
        let sizes: Vec<(i32, W)> = if d.size.rand < 0 {
            // `rn1(rand, base)` with a negative random part, as the game's
            // `rn2` gives it (the loader's `Run::rn2_count`).
            match self.facts.neg_rn2 {
                NonPositiveRn2::NoDraw | NonPositiveRn2::OneDrawZero => {
                    vec![(self.count(d.size.base), W::ONE)]
                }
                NonPositiveRn2::OneDrawModulo => {
                    let k = d.size.rand.unsigned_abs();
                    if k > MAX_SIZES as u32 {
                        return Err(TooLarge {
                            what: format!("\"{}\" has {k} possible sizes", d.name),
                        });
                    }
                    (0..k as i32)
                        .map(|i| {
                            let num = self.count(i.wrapping_add(d.size.base));
                            (num, W::ratio(1, u64::from(k)))
                        })
                        .collect()
                }
                NonPositiveRn2::OneDrawRaw => {
                    return Err(TooLarge {
                        what: format!(
                            "the size of \"{}\" is rn1({}, {}), and the game's rn2 of a negative argument \
                             returns ISAAC-64's raw output (2^32 outcomes, not enumerated)",
                            d.name, d.size.rand, d.size.base
                        ),
                    })
                }
            }
        } else if d.size.rand != 0 {
            if d.size.rand > MAX_SIZES {
                return Err(TooLarge {
                    what: format!("\"{}\" has {} possible sizes", d.name, d.size.rand),
                });
            }
            let r = d.size.rand as u64;
            (0..d.size.rand)
                .map(|i| (self.count(i.wrapping_add(d.size.base)), W::ratio(1, r)))
                .collect()
        } else {
            vec![(self.count(d.size.base), W::ONE)]
        };
        Ok(sizes
            .into_iter()
            .map(|(num, p)| (quest_size(self.res, rec, num), p))
            .collect())
    }

    /// The draws of the branch into record `rec` (entered at `entry`) from
    /// `s`, into `draws` (one without a branch for the first dungeon or an
    /// unconnected one), sharing out chance `p`; false when the branch
    /// fails, whose outcome is pushed.
    fn branch_draws(
        &mut self,
        s: &State,
        rec: usize,
        (p, entry): (W, i32),
        n_slots: i32,
        draws: &mut Vec<Draw>,
        out: &mut Vec<Expansion>,
    ) -> Result<bool, TooLarge> {
        let res = self.res;
        // NetHack 3.7's unconnected dungeon (the Tutorial): no branch.
        if s.loaded.is_empty() || (res.rules.unconnected && res.dungeons[rec].unconnected) {
            draws.push(Draw {
                p,
                branch: None,
                depth_start: 1,
            });
            return Ok(true);
        }
        let range = match self.branch_range(s, rec, n_slots)? {
            Ok(range) => range,
            Err(code) => {
                out.push(Expansion::failure(p, rec, code, None));
                return Ok(false);
            }
        };
        let BranchRange {
            parent,
            owner,
            base,
            count,
            step,
        } = range;
        if count < 1 {
            self.nonpositive_draws(rec, p, &range, entry, draws, out)?;
        }
        let deferred = if count < 1 {
            None
        } else {
            self.deferred_spread(s, rec, parent, step, entry)
        };
        if let Some(id) = deferred {
            let first = self.spreads.list[id as usize].at[0];
            let info = BranchInfo {
                parent: owner,
                level: first.level,
                depth: first.depth,
                floated: false,
                other: self.incoming_class(owner),
                spread: Some(id),
            };
            draws.push(Draw {
                p,
                branch: Some(info),
                depth_start: first.depth_start,
            });
        }
        for j in (0..count.max(0)).filter(|_| deferred.is_none()) {
            let level = if res.rules.avoid_branch_levels {
                probe(parent.avoid, base, count, j)
            } else {
                base + j
            };
            let (info, ds) = self.drawn_branch(parent, owner, self.count(level), step, entry);
            draws.push(Draw {
                p: p * W::ratio(1, count as u64),
                branch: Some(info),
                depth_start: ds,
            });
        }
        if let Some(member) = parent.spread {
            self.spread_subs(s, member, step, entry, draws);
        }
        Ok(true)
    }

    /// The branch into record `rec` from `s` up to its level's draw, or
    /// the loader's failure code (outside: the enumeration gives up).
    fn branch_range<'s>(
        &self,
        s: &'s State,
        rec: usize,
        n_slots: i32,
    ) -> Result<Result<BranchRange<'s>, &'static str>, TooLarge> {
        let res = self.res;
        let d = &res.dungeons[rec];
        let Some(&(brec, owner)) = d
            .incoming
            .iter()
            .find(|(_, owner)| s.loaded.contains(&(*owner as u16)))
        else {
            return Ok(Err(FailCode::BranchNotFound.code()));
        };
        if res.rules.parent_by_name
            && d.same_name_before
                .iter()
                .any(|&j| j <= owner && s.loaded.contains(&(j as u16)))
        {
            return Ok(Err(FailCode::ParentNotResolved.code()));
        }
        let Some(parent) = s.live.iter().find(|l| l.record as u32 == owner) else {
            return Err(TooLarge {
                what: format!("internal: parent of \"{}\" not tracked", d.name),
            });
        };
        let b = &res.branches[brec as usize];
        let chained = if b.chain >= 0 {
            if b.chain >= n_slots {
                return Ok(Err(FailCode::ChainShifted.code()));
            }
            match s.slots.iter().find(|(sl, _)| *sl == b.chain) {
                Some(&(_, v)) if v > 0 => Some(v),
                _ => return Ok(Err(FailCode::EmptyChain.code())),
            }
        } else {
            None
        };
        let (base, count) = match level_range(parent.n, b.range.base, b.range.rand, chained) {
            Ok(r) => r,
            Err(a) => return Ok(Err(a.code())),
        };
        let step = match b.kind {
            BranchKind::Portal => 0,
            _ if b.up => -1,
            _ => 1,
        };
        Ok(Ok(BranchRange {
            parent,
            owner,
            base,
            count,
            step,
        }))
    }

    /// The draws of a branch whose count is below 1 (a random part below
    /// -1), as the game's `rn2` gives them; a search that never ends fails.
    fn nonpositive_draws(
        &self,
        rec: usize,
        p: W,
        range: &BranchRange<'_>,
        entry: i32,
        draws: &mut Vec<Draw>,
        out: &mut Vec<Expansion>,
    ) -> Result<(), TooLarge> {
        let (base, count) = (range.base, range.count);
        let levels = nonpositive_branch_levels(
            self.facts.neg_rn2,
            self.res.rules.avoid_branch_levels,
            range.parent.avoid & bit(base) != 0,
            base,
            count,
        )
        .ok_or_else(|| TooLarge {
            what: format!(
                "the branch to \"{}\" draws rn2({count}), and the game's rn2 of a negative \
                 argument returns ISAAC-64's raw output (2^32 outcomes, not enumerated)",
                self.res.dungeons[rec].name
            ),
        })?;
        for (level, pl) in levels {
            let Some(level) = level else {
                out.push(Expansion::failure(
                    p * pl,
                    rec,
                    FailCode::BranchLevelHangs.code(),
                    None,
                ));
                continue;
            };
            let (info, ds) = self.drawn_branch(
                range.parent,
                range.owner,
                self.count(level),
                range.step,
                entry,
            );
            draws.push(Draw {
                p: p * pl,
                branch: Some(info),
                depth_start: ds,
            });
        }
        Ok(())
    }

    /// A sub of a deferred run: its depths follow its member's level
    /// (`member`: the spread of the branch into its parent).
    fn spread_subs(&mut self, s: &State, member: u32, step: i32, entry: i32, draws: &mut [Draw]) {
        let owner = self.spreads.list[member as usize].owner;
        let placed = s
            .live
            .iter()
            .find(|l| u32::from(l.record) == owner)
            .map_or(0, |l| l.pending);
        for draw in draws {
            let Some(b) = draw.branch.as_mut() else {
                continue;
            };
            let id = self.sub_spread(member, b.level, step, entry, placed);
            let first = self.spreads.list[id as usize].at[0];
            b.depth = first.depth;
            b.spread = Some(id);
            draw.depth_start = first.depth_start;
        }
    }

    /// The outcomes of record `rec` of `num` levels entered at `entry`
    /// from `s`, given the branch draws: per pattern of its optional
    /// levels and Quest locate move, a placement, each draw's outcomes made
    /// by [`Engine::outcomes`]. False when a placement's mixed rolls cannot
    /// be mixed (the caller enumerates them instead).
    fn expand_patterns(
        &mut self,
        s: &State,
        rec: usize,
        (num, entry): (i32, i32),
        (n_slots, n_branches): (i32, usize),
        draws: &[Draw],
        out: &mut Vec<Expansion>,
    ) -> Result<bool, TooLarge> {
        let res = self.res;
        let d = &res.dungeons[rec];
        let (l0, l1) = d.levels;
        let nlev = (l1 - l0) as usize;
        // Floating levels whose first one may lie in this dungeon.
        let floating_here = (l0..l1)
            .filter_map(|l| res.levels[l as usize].floating)
            .fold(0u8, |m, f| m | (1 << f))
            & !s.floating_done;
        let plan = self.level_plan(rec, num, n_slots, floating_here);
        if let Some(limits) = res.rules.limits {
            if n_slots as usize + nlev > limits.max_levels {
                for draw in draws {
                    out.push(Expansion::failure(
                        draw.p,
                        rec,
                        FailCode::TooManyLevels.code(),
                        None,
                    ));
                }
                return Ok(true);
            }
        }
        let (chances, enumerated) = self.mixing(s, (rec, floating_here), num, n_slots, &plan);
        let optional = enumerated.as_deref().unwrap_or(&plan.optional);
        if optional.len() > self.budget.optional_levels {
            return Err(TooLarge {
                what: format!(
                    "\"{}\" has {} optional levels (at most {} are enumerated)",
                    d.name,
                    optional.len(),
                    self.budget.optional_levels
                ),
            });
        }
        let at = DungeonDraw {
            rec,
            index: s.loaded.len(),
            num,
            entry,
            floating_here,
            kept: &plan.kept,
            n_slots,
            n_branches,
        };
        // One key for every pattern and move, and every state: a state's
        // placements are looked up by reference, and copied only when new.
        let mut key = std::mem::take(&mut self.memo.key);
        key.record = rec as u32;
        key.start = n_slots;
        key.n = num;
        key.pattern.clear();
        key.pattern.extend_from_slice(&plan.possible);
        // The lists a state's plan holds are most often the last one's:
        // kept, not counted again.
        if !Arc::ptr_eq(&key.keep, &plan.keep) {
            key.keep = plan.keep.clone();
        }
        key.adjust = 0;
        key.filters.clear();
        if !Arc::ptr_eq(&key.chances, &chances) {
            key.chances = chances;
        }
        let placed = self.each_pattern(s, &at, &plan, optional, draws, &mut key, out);
        self.memo.key = key;
        placed
    }

    /// [`Engine::expand_patterns`]' outcomes for each pattern of the
    /// `optional` levels and each locate move, with `key` set for the
    /// dungeon.
    #[allow(clippy::too_many_arguments)]
    fn each_pattern(
        &mut self,
        s: &State,
        at: &DungeonDraw<'_>,
        plan: &LevelPlan,
        optional: &[usize],
        draws: &[Draw],
        key: &mut PlaceKey,
        out: &mut Vec<Expansion>,
    ) -> Result<bool, TooLarge> {
        let rec = at.rec;
        let n_slots = key.start;
        let filtered = self.checks.as_ref().is_some_and(|c| c.filters(rec));
        for mask in 0u64..(1u64 << optional.len()) {
            // Mixed levels count as existing: the placement weighs them by
            // their rolls.
            key.pattern.copy_from_slice(&plan.possible);
            let mut p_pat = W::ONE;
            for (bitno, &j) in optional.iter().enumerate() {
                let on = mask & (1 << bitno) != 0;
                key.pattern[j] = on;
                p_pat = p_pat * if on { plan.probs[j].0 } else { plan.probs[j].1 };
            }
            self.external_into(s, rec, &key.pattern, n_slots, &mut key.external);
            for &(adjust, p_adj) in &plan.locate {
                key.adjust = adjust;
                // With evidence whose levels depend on the dungeon's top (a
                // depth), a placement per draw.
                let one = if filtered {
                    None
                } else {
                    let Some(pid) = self.placement(key)? else {
                        return Ok(false);
                    };
                    Some(pid)
                };
                for draw in draws {
                    let pid = match one {
                        Some(pid) => pid,
                        None => match self.filtered_placement(s, key, draw.depth_start)? {
                            Some(pid) => pid,
                            None => return Ok(false),
                        },
                    };
                    let placed = Placed {
                        draw,
                        pattern: &key.pattern,
                        pid,
                        prefix: draw.p * p_pat * p_adj,
                    };
                    self.outcomes(s, at, placed, out);
                }
            }
        }
        Ok(true)
    }

    /// With evidence whose levels depend on the dungeon's top: the
    /// placement of `key` for a draw whose dungeon starts at `ds` (as
    /// drawn), memoised; `None` as [`Engine::placement`] says.
    fn filtered_placement(
        &mut self,
        s: &State,
        key: &PlaceKey,
        ds: i32,
    ) -> Result<Option<u32>, TooLarge> {
        let rec = key.record as usize;
        let (_, ds_adj) = self.lifted_start(s, rec, key.n, ds, &key.pattern);
        let filters = self
            .checks
            .as_ref()
            .map(|c| c.level_filters(self.res, rec, ds_adj))
            .unwrap_or_default();
        self.placement(&PlaceKey {
            filters,
            ..key.clone()
        })
    }

    /// The `dummy` fix-up (the first `dummy` level lifts its dungeon by
    /// one): whether it has happened after dungeon record `rec` of `num`
    /// levels with `pattern` from state `s`, and the dungeon's top as
    /// layouts report it, from `ds` as drawn.
    pub(super) fn lifted_start(
        &self,
        s: &State,
        rec: usize,
        num: i32,
        ds: i32,
        pattern: &[bool],
    ) -> (bool, i32) {
        let res = self.res;
        let (l0, l1) = res.dungeons[rec].levels;
        let mut dummy_done = s.dummy_done;
        let mut ds_adj = ds;
        if !dummy_done
            && (l0..l1)
                .zip(pattern)
                .any(|(l, &on)| on && res.levels[l as usize].is_dummy)
        {
            dummy_done = true;
            if i64::from(num) > 1 - i64::from(ds) {
                ds_adj = res.rules.fields.start(ds.wrapping_sub(1));
            }
        }
        (dummy_done, ds_adj)
    }

    /// A branch's parent-end depth in the final layout and the raw depth
    /// start of the dungeon it leads to, from its parent's two depth
    /// starts and its level.
    pub(super) fn branch_depths(
        &self,
        depth_start: i32,
        depth_final: i32,
        level: i32,
        step: i32,
        entry: i32,
    ) -> (i32, i32) {
        let fields = &self.res.rules.fields;
        let from_depth = fields.depth(depth_start.wrapping_add(level.wrapping_sub(1)));
        (
            depth_final.wrapping_add(level.wrapping_sub(1)),
            fields.start(
                from_depth
                    .wrapping_add(step)
                    .wrapping_sub(entry.wrapping_sub(1)),
            ),
        )
    }

    /// The branch from `parent` (record `owner`) leaving level `level`, and
    /// the raw depth start of the dungeon it leads to.
    pub(super) fn drawn_branch(
        &self,
        parent: &Live,
        owner: u32,
        level: i32,
        step: i32,
        entry: i32,
    ) -> (BranchInfo, i32) {
        let (depth, ds) =
            self.branch_depths(parent.depth_start, parent.depth_final, level, step, entry);
        let info = BranchInfo {
            parent: owner,
            level,
            depth,
            floated: false,
            other: self.incoming_class(owner),
            spread: None,
        };
        (info, ds)
    }
}
