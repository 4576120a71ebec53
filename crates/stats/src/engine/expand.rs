//! One state's outcomes for one dungeon record: the alternates' and the
//! dungeon's chance rolls, its sizes, its entry level, the branch into it,
//! and its levels' patterns, each handed to [`Engine::outcomes`].
//! Invariant: the outcomes' chances from one state sum to one.

use super::arith::{level_range, nonpositive_branch_levels};
use super::layer::{BranchInfo, FailKey, Present, To};
use super::memo::PlaceKey;
use super::state::{shared, Live, State};
use super::{Engine, TooLarge};
use crate::loader::{BranchKind, DungeonChance, EntrySource, NonPositiveRn2};
use crate::runs::{bit, probe};
use crate::weight::W;
use std::sync::Arc;

/// Dungeon sizes enumerated at most (the random part of a size).
pub(super) const MAX_SIZES: i32 = 1024;

impl<'a> Engine<'a> {
    /// Every outcome of loading dungeon record `rec` from state `s`.
    pub(super) fn expand(
        &mut self,
        s: &State,
        rec: usize,
        out: &mut Vec<(W, To, Option<Present>, Option<State>)>,
    ) -> Result<(), TooLarge> {
        // A placement whose mixed rolls cannot be mixed: this record's
        // rolls are enumerated from now on, from this state again.
        let (entry_state, entry_len) = (s, out.len());
        let res = self.res;
        let d = &res.dungeons[rec];
        let fail = |code: &'static str, level: Option<u32>| {
            Box::new(FailKey {
                code,
                dungeon: Some(rec as u32),
                level,
            })
        };
        // dNetHack keeps one of several same-named records; one that is not
        // kept draws no chance roll.
        let mut p_exist = W::ONE;
        let kept_state;
        let s = if res.rules.alternates && d.alternates > 0 {
            let Some(((p_keep, kept), (p_drop, dropped))) = self.select_alternate(s, rec) else {
                let next = self.project(s.clone(), rec + 1);
                out.push((W::ONE, To::State(u32::MAX), None, Some(next)));
                return Ok(());
            };
            if !p_drop.is_zero() {
                let next = State {
                    alts: shared(&self.lists.alts, dropped),
                    ..s.clone()
                };
                out.push((
                    p_drop,
                    To::State(u32::MAX),
                    None,
                    Some(self.project(next, rec + 1)),
                ));
            }
            if p_keep.is_zero() {
                return Ok(());
            }
            p_exist = p_keep;
            kept_state = State {
                alts: shared(&self.lists.alts, kept),
                ..s.clone()
            };
            &kept_state
        } else {
            s
        };
        let dungeon_chance = match res.rules.dungeon_chance {
            _ if self.facts.skip_dungeon_chance => None,
            DungeonChance::Optional if d.chance == 0 => None,
            DungeonChance::Optional => Some(d.chance),
            DungeonChance::Every if d.chance == 0 => Some(100),
            DungeonChance::Every => Some(d.chance),
        };
        if let Some(chance) = dungeon_chance {
            let c = chance.clamp(0, 100) as u64;
            if c < 100 {
                let next = self.project(s.clone(), rec + 1);
                out.push((
                    p_exist * W::ratio(100 - c, 100),
                    To::State(u32::MAX),
                    None,
                    Some(next),
                ));
            }
            if c == 0 {
                return Ok(());
            }
            p_exist = p_exist * W::ratio(c, 100);
        }
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
        // dNetHack: a Quest of at least 6 levels for the Blibdoolpoolp
        // nemesis (dNAO `dungeon.c:910-916`), before the entry level.
        let quest_min =
            res.rules.quest_locate && d.is_quest && res.rules.inputs.quest_nemesis_blibdoolpoolp;
        let sizes: Vec<(i32, W)> = sizes
            .into_iter()
            .map(|(num, p)| (if quest_min { num.max(6) } else { num }, p))
            .collect();
        let index = s.loaded.len();
        let n_slots = self.n_slots(&s.loaded);
        // SLASH'EM takes the entry from the branch record into the dungeon
        // (`check_final_moves` keeps to files where every record into it
        // has the same entry and none is positive).
        let entry_field = match res.rules.entry {
            EntrySource::Dungeon => d.entry,
            EntrySource::FirstBranch => d
                .incoming
                .first()
                .map_or(0, |&(b, _)| res.branches[b as usize].entry),
        };
        for (num, p_size) in sizes {
            let p = p_exist * p_size;
            let entry = if entry_field < 0 {
                let e = self.count(num.wrapping_add(entry_field).wrapping_add(1));
                if e <= 0 {
                    1
                } else {
                    e
                }
            } else if entry_field > 0 {
                let e = self.count(entry_field);
                if e > num {
                    num
                } else {
                    e
                }
            } else {
                1
            };
            // (probability, branch, raw depth_start) per branch draw.
            let mut draws: Vec<(W, Option<BranchInfo>, i32)> = Vec::new();
            // NetHack 3.7's unconnected dungeon (the Tutorial): no branch.
            if index > 0 && !(res.rules.unconnected && d.unconnected) {
                let Some(&(brec, owner)) = d
                    .incoming
                    .iter()
                    .find(|(_, owner)| s.loaded.contains(&(*owner as u16)))
                else {
                    out.push((p, To::Fail(fail("branch-not-found", None)), None, None));
                    continue;
                };
                if res.rules.parent_by_name
                    && d.same_name_before
                        .iter()
                        .any(|&j| j <= owner && s.loaded.contains(&(j as u16)))
                {
                    out.push((p, To::Fail(fail("parent-not-resolved", None)), None, None));
                    continue;
                }
                let Some(parent) = s.live.iter().find(|l| l.record as u32 == owner) else {
                    return Err(TooLarge {
                        what: format!("internal: parent of \"{}\" not tracked", d.name),
                    });
                };
                let b = &res.branches[brec as usize];
                let chained = if b.chain >= 0 {
                    if b.chain >= n_slots {
                        out.push((p, To::Fail(fail("chain-shifted", None)), None, None));
                        continue;
                    }
                    match s.slots.iter().find(|(sl, _)| *sl == b.chain) {
                        Some(&(_, v)) if v > 0 => Some(v),
                        _ => {
                            out.push((p, To::Fail(fail("empty-chain", None)), None, None));
                            continue;
                        }
                    }
                } else {
                    None
                };
                let (base, count) = match level_range(parent.n, b.range.base, b.range.rand, chained)
                {
                    Ok(r) => r,
                    Err(a) => {
                        out.push((p, To::Fail(fail(a.code(), None)), None, None));
                        continue;
                    }
                };
                let step = match b.kind {
                    BranchKind::Portal => 0,
                    _ if b.up => -1,
                    _ => 1,
                };
                if count < 1 {
                    let levels = nonpositive_branch_levels(
                        self.facts.neg_rn2,
                        res.rules.avoid_branch_levels,
                        parent.avoid & bit(base) != 0,
                        base,
                        count,
                    )
                    .ok_or_else(|| TooLarge {
                        what: format!(
                            "the branch to \"{}\" draws rn2({count}), and the game's rn2 of a negative \
                             argument returns ISAAC-64's raw output (2^32 outcomes, not enumerated)",
                            d.name
                        ),
                    })?;
                    for (level, pl) in levels {
                        let Some(level) = level else {
                            out.push((
                                p * pl,
                                To::Fail(fail("branch-level-hangs", None)),
                                None,
                                None,
                            ));
                            continue;
                        };
                        let (info, ds) =
                            self.drawn_branch(parent, owner, self.count(level), step, entry);
                        draws.push((p * pl, Some(info), ds));
                    }
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
                    draws.push((p, Some(info), first.depth_start));
                }
                for j in (0..count.max(0)).filter(|_| deferred.is_none()) {
                    let level = if res.rules.avoid_branch_levels {
                        probe(parent.avoid, base, count, j)
                    } else {
                        base + j
                    };
                    let (info, ds) =
                        self.drawn_branch(parent, owner, self.count(level), step, entry);
                    draws.push((p * W::ratio(1, count as u64), Some(info), ds));
                }
                // A sub of a deferred run: its depths follow its member's
                // level.
                if let Some(member) = parent.spread {
                    let owner = self.spreads.list[member as usize].owner;
                    let placed = s
                        .live
                        .iter()
                        .find(|l| u32::from(l.record) == owner)
                        .map_or(0, |l| l.pending);
                    for (_, info, ds) in &mut draws {
                        let Some(b) = info else { continue };
                        let id = self.sub_spread(member, b.level, step, entry, placed);
                        let first = self.spreads.list[id as usize].at[0];
                        b.depth = first.depth;
                        b.spread = Some(id);
                        *ds = first.depth_start;
                    }
                }
            } else {
                draws.push((p, None, 1));
            }
            let num = num.min(res.rules.maxlevel);
            let (l0, l1) = d.levels;
            let nlev = (l1 - l0) as usize;
            // Floating levels whose first one may lie in this dungeon.
            let knox_here = (l0..l1)
                .filter_map(|l| res.levels[l as usize].floating)
                .fold(0u8, |m, f| m | (1 << f))
                & !s.knox_done;
            let plan = self.level_plan(rec, num, n_slots, knox_here);
            let locate = &plan.locate;
            if let Some(limits) = res.rules.limits {
                if n_slots as usize + nlev > limits.max_levels {
                    for (pd, _, _) in draws {
                        out.push((pd, To::Fail(fail("too-many-levels", None)), None, None));
                    }
                    continue;
                }
            }
            let (probs, possible) = (&plan.probs, &plan.possible);
            let mixed = if self.facts.skip_level_chance {
                Vec::new()
            } else {
                self.mixable(s, rec, num, n_slots, possible, &plan.optional, &plan.keep)
            };
            let mixed_out: Vec<usize>;
            let (chances, optional) = if mixed.is_empty() {
                (plan.unmixed.clone(), &plan.optional)
            } else {
                let chances: Arc<[u8]> = (0..nlev)
                    .map(|j| {
                        if mixed.contains(&j) {
                            res.levels[l0 as usize + j].chance.clamp(0, 100) as u8
                        } else {
                            100
                        }
                    })
                    .collect();
                mixed_out = plan
                    .optional
                    .iter()
                    .copied()
                    .filter(|j| !mixed.contains(j))
                    .collect();
                (chances, &mixed_out)
            };
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
            // One key for every pattern and move: a state's placements are
            // looked up by reference, and copied only when new.
            let mut key = PlaceKey {
                record: rec as u32,
                start: n_slots,
                n: num,
                pattern: possible.to_vec(),
                keep: plan.keep.clone(),
                external: Vec::new(),
                adjust: 0,
                filters: Vec::new(),
                chances,
            };
            for mask in 0u64..(1u64 << optional.len()) {
                // Mixed levels count as existing: the placement weighs
                // them by their rolls.
                key.pattern.copy_from_slice(possible);
                let mut p_pat = W::ONE;
                for (bitno, &j) in optional.iter().enumerate() {
                    let on = mask & (1 << bitno) != 0;
                    key.pattern[j] = on;
                    p_pat = p_pat * if on { probs[j].0 } else { probs[j].1 };
                }
                self.external_into(s, rec, &key.pattern, n_slots, &mut key.external);
                let filtered = self.checks.as_ref().is_some_and(|c| c.filters(rec));
                for &(adjust, p_adj) in locate {
                    key.adjust = adjust;
                    // With evidence whose levels depend on the dungeon's
                    // top (a depth), a placement per draw.
                    let one = if filtered {
                        None
                    } else {
                        let Some(pid) = self.placement(&key)? else {
                            return self.unmix(entry_state, rec, entry_len, out);
                        };
                        Some(pid)
                    };
                    for &(pd, branch, ds) in &draws {
                        let pid = match one {
                            Some(pid) => pid,
                            None => {
                                let (_, ds_adj) = self.lifted_start(s, rec, num, ds, &key.pattern);
                                let filters = self
                                    .checks
                                    .as_ref()
                                    .map(|c| c.level_filters(self.res, rec, ds_adj))
                                    .unwrap_or_default();
                                let Some(pid) = self.placement(&PlaceKey {
                                    filters,
                                    ..key.clone()
                                })?
                                else {
                                    return self.unmix(entry_state, rec, entry_len, out);
                                };
                                pid
                            }
                        };
                        let prefix = pd * p_pat * p_adj;
                        self.outcomes(
                            s,
                            rec,
                            index,
                            num,
                            entry,
                            ds,
                            branch,
                            &key.pattern,
                            pid,
                            prefix,
                            (knox_here, &plan.kept),
                            out,
                        );
                    }
                }
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
        out: &mut Vec<(W, To, Option<Present>, Option<State>)>,
    ) -> Result<(), TooLarge> {
        out.truncate(len);
        self.memo.no_mix[rec] = true;
        self.expand(s, rec, out)
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
