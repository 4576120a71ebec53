//! The outcomes of one placement of a dungeon: its aborts, its failure,
//! and per class of where its kept levels lie, the state after it.
//! Invariant: the next state is projected onto what later records read.

use super::layer::{BranchInfo, FailKey, Present, To};
use super::state::{shared, Live, State};
use super::Engine;
use crate::acc::END_PLAIN;
use crate::runs::bit;
use crate::weight::W;

impl<'a> Engine<'a> {
    /// The outcomes of one placement (its classes, aborts and failure).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn outcomes(
        &self,
        s: &State,
        rec: usize,
        index: usize,
        num: i32,
        entry: i32,
        ds: i32,
        branch: Option<BranchInfo>,
        pattern: &[bool],
        pid: u32,
        prefix: W,
        (knox_here, kept): (u8, &[usize]),
        out: &mut Vec<(W, To, Option<Present>, Option<State>)>,
    ) {
        let res = self.res;
        let d = &res.dungeons[rec];
        let l0 = d.levels.0;
        // Looking ahead ([`Engine::prefetch_placements`]): nothing to make.
        let Some(placement) = self.memo.placements.get(pid as usize) else {
            return;
        };
        let fail = |code: &'static str, level: Option<u32>| {
            Box::new(FailKey {
                code,
                dungeon: Some(rec as u32),
                level,
            })
        };
        let known = |branch: Option<BranchInfo>| Present {
            n: num,
            depth_start: ds,
            entry,
            branch,
            placement: pid,
            class: u32::MAX,
            prefix,
        };
        for &((abort, j), w) in &placement.aborts {
            out.push((
                prefix * w,
                To::Fail(fail(abort.code(), Some(l0 + u32::from(j)))),
                Some(known(branch)),
                None,
            ));
        }
        if !placement.fail.is_zero() {
            out.push((
                prefix * placement.fail,
                To::Fail(fail("couldnt-place", None)),
                Some(known(branch)),
                None,
            ));
        }
        let n_slots = self.n_slots(&s.loaded);
        for (ci, class) in placement.classes.iter().enumerate() {
            let p = prefix * class.p;
            let mut branch = branch;
            let mut knox_done = s.knox_done;
            let mut knox_bad = s.knox_bad;
            for f in (0..8u8).filter(|f| knox_here & (1 << f) != 0) {
                let knox_level = kept
                    .iter()
                    .zip(&class.key)
                    .filter(|(&j, &v)| res.levels[l0 as usize + j].floating == Some(f) && v > 0)
                    .map(|(_, &v)| i32::from(v))
                    .min();
                if let Some(kl) = knox_level {
                    knox_done |= 1 << f;
                    match branch.as_mut() {
                        Some(b) if entry == kl => {
                            b.floated = true;
                            // Its parent end moves off the map: no other
                            // end to judge.
                            b.other = END_PLAIN;
                        }
                        _ => knox_bad = true,
                    }
                }
            }
            if let Some(limits) = res.rules.limits {
                let count =
                    self.n_branch_records(&s.loaded) + (d.branches.1 - d.branches.0) as usize;
                if count > limits.max_branches {
                    out.push((p, To::Fail(fail("too-many-branches", None)), None, None));
                    continue;
                }
            }
            let (dummy_done, ds_adj) = self.lifted_start(s, rec, num, ds, pattern);
            // The next state.
            let mut next = s.clone();
            next.loaded = self.lists.loaded_with(&next.loaded, rec as u16);
            if let Some(b) = branch {
                if let Some(parent) = next
                    .live
                    .iter_mut()
                    .find(|l| u32::from(l.record) == b.parent)
                {
                    match (b.spread, self.facts.runs[rec]) {
                        (Some(id), Some(rp)) if self.spreads.list[id as usize].member => {
                            parent.pending = if rp.pos + 1 == rp.len { 0 } else { rp.pos + 1 };
                        }
                        _ => parent.avoid |= bit(b.level),
                    }
                }
            }
            if self.facts.live_until[rec] > rec as i64 {
                let mut live = Vec::with_capacity(next.live.len() + 1);
                live.extend_from_slice(&next.live);
                live.push(Live {
                    record: rec as u16,
                    n: num,
                    depth_start: ds,
                    depth_final: ds_adj,
                    avoid: if index > 0 { bit(entry) } else { 0 },
                    pending: 0,
                    spread: branch.and_then(|b| b.spread),
                });
                live.sort_by_key(|l| l.record);
                next.live = live.into_boxed_slice();
            }
            // Most outcomes keep no slot: the list is the one held already.
            if !kept.is_empty() {
                let mut slots = Vec::with_capacity(next.slots.len() + kept.len());
                slots.extend_from_slice(&next.slots);
                for (&j, &v) in kept.iter().zip(&class.key) {
                    slots.push((n_slots + j as i32, i32::from(v)));
                }
                slots.sort_unstable();
                next.slots = shared(&self.lists.slots, slots);
            }
            next.knox_done = knox_done;
            next.knox_bad = knox_bad;
            next.dummy_done = dummy_done;
            let next = self.project(next, rec + 1);
            let info = Present {
                n: num,
                depth_start: ds_adj,
                entry,
                branch,
                placement: pid,
                class: ci as u32,
                prefix,
            };
            out.push((p, To::State(u32::MAX), Some(info), Some(next)));
        }
    }
}
