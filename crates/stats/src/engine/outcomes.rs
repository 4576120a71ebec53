//! The outcomes of one placement of a dungeon: its aborts, its failure,
//! and per class of where its kept levels lie, the state after it.
//! Invariant: the next state is projected onto what later records read.

use super::expand::{DungeonDraw, Expansion, Placed};
use super::layer::{BranchInfo, Present, To};
use super::state::{shared, Live, State};
use super::Engine;
use crate::acc::END_PLAIN;
use crate::runs::bit;
use dgnkit_loader::FailCode;

impl<'a> Engine<'a> {
    /// The outcomes of one placement (its classes, aborts and failure).
    pub(super) fn outcomes(
        &self,
        s: &State,
        at: &DungeonDraw<'_>,
        placed: Placed<'_>,
        out: &mut Vec<Expansion>,
    ) {
        let res = self.res;
        let rec = at.rec;
        let d = &res.dungeons[rec];
        let l0 = d.levels.0;
        let Placed {
            draw,
            pattern,
            pid,
            prefix,
        } = placed;
        // Looking ahead ([`Engine::prefetch_placements`]): nothing to make.
        let Some(placement) = self.memo.placements.get(pid as usize) else {
            return;
        };
        let known = Present {
            n: at.num,
            depth_start: draw.depth_start,
            entry: at.entry,
            branch: draw.branch,
            placement: pid,
            class: u32::MAX,
            prefix,
        };
        for &((abort, j), w) in &placement.aborts {
            let level = Some(l0 + u32::from(j));
            out.push(Expansion {
                present: Some(known.clone()),
                ..Expansion::failure(prefix * w, rec, abort.code(), level)
            });
        }
        if !placement.fail.is_zero() {
            out.push(Expansion {
                present: Some(known),
                ..Expansion::failure(
                    prefix * placement.fail,
                    rec,
                    FailCode::CouldntPlace.code(),
                    None,
                )
            });
        }
        let n_slots = at.n_slots;
        // The same for every class.
        let too_many_branches = res.rules.limits.is_some_and(|limits| {
            at.n_branches + (d.branches.1 - d.branches.0) as usize > limits.max_branches
        });
        for (ci, class) in placement.classes.iter().enumerate() {
            let p = prefix * class.p;
            let mut branch = draw.branch;
            let (floating_done, floating_bad) = self.first_floating(s, at, &class.key, &mut branch);
            if too_many_branches {
                out.push(Expansion::failure(
                    p,
                    rec,
                    FailCode::TooManyBranches.code(),
                    None,
                ));
                continue;
            }
            let (dummy_done, ds_adj) = self.lifted_start(s, rec, at.num, draw.depth_start, pattern);
            let mut next = self.next_state(
                s,
                at,
                branch,
                (draw.depth_start, ds_adj),
                &class.key,
                n_slots,
            );
            next.floating_done = floating_done;
            next.floating_bad = floating_bad;
            next.dummy_done = dummy_done;
            let next = self.project(next, rec + 1);
            let info = Present {
                n: at.num,
                depth_start: ds_adj,
                entry: at.entry,
                branch,
                placement: pid,
                class: ci as u32,
                prefix,
            };
            out.push(Expansion {
                p,
                to: To::State(u32::MAX),
                present: Some(info),
                next: Some(next),
            });
        }
    }

    /// Where the first of each floating level that may lie in the dungeon
    /// lies in a class (its kept levels' `key`): the floating levels seen
    /// after it, and whether one lies where no branch arrives. The branch
    /// into the dungeon floats when one lies at its entry.
    #[inline]
    fn first_floating(
        &self,
        s: &State,
        at: &DungeonDraw<'_>,
        key: &[i8],
        branch: &mut Option<BranchInfo>,
    ) -> (u8, bool) {
        let l0 = self.res.dungeons[at.rec].levels.0 as usize;
        let mut floating_done = s.floating_done;
        let mut floating_bad = s.floating_bad;
        for f in (0..8u8).filter(|f| at.floating_here & (1 << f) != 0) {
            let floating_level = at
                .kept
                .iter()
                .zip(key)
                .filter(|(&j, &v)| self.res.levels[l0 + j].floating == Some(f) && v > 0)
                .map(|(_, &v)| i32::from(v))
                .min();
            if let Some(kl) = floating_level {
                floating_done |= 1 << f;
                match branch.as_mut() {
                    Some(b) if at.entry == kl => {
                        b.floated = true;
                        // Its parent end moves off the map: no other
                        // end to judge.
                        b.other = END_PLAIN;
                    }
                    _ => floating_bad = true,
                }
            }
        }
        (floating_done, floating_bad)
    }

    /// The state after the dungeon `at` (of depth starts `(ds, ds_adj)`,
    /// as drawn and as reported) with its kept levels at `key`, before its
    /// flags are set and it is projected: the record loaded, the branch's
    /// level taken in its parent, the dungeon live while a later branch
    /// may leave it, and the kept levels' slots.
    #[inline]
    fn next_state(
        &self,
        s: &State,
        at: &DungeonDraw<'_>,
        branch: Option<BranchInfo>,
        (ds, ds_adj): (i32, i32),
        key: &[i8],
        n_slots: i32,
    ) -> State {
        let rec = at.rec;
        // The live dungeons after it, made once: those that stay live
        // after this record (as [`Engine::project`] keeps them), and this
        // one if it does.
        let stays = |record: u16| self.facts.live_until[usize::from(record)] > rec as i64;
        let new = stays(rec as u16);
        let kept = s.live.iter().filter(|l| stays(l.record)).count();
        let mut live = Vec::with_capacity(kept + usize::from(new));
        live.extend(s.live.iter().filter(|l| stays(l.record)).cloned());
        if let Some(b) = branch {
            if let Some(parent) = live.iter_mut().find(|l| u32::from(l.record) == b.parent) {
                match (b.spread, self.facts.runs[rec]) {
                    (Some(id), Some(rp)) if self.spreads.list[id as usize].member => {
                        parent.pending = if rp.pos + 1 == rp.len { 0 } else { rp.pos + 1 };
                    }
                    _ => parent.avoid |= bit(b.level),
                }
            }
        }
        if new {
            live.push(Live {
                record: rec as u16,
                n: at.num,
                depth_start: ds,
                depth_final: ds_adj,
                avoid: if at.index > 0 { bit(at.entry) } else { 0 },
                pending: 0,
                spread: branch.and_then(|b| b.spread),
            });
            live.sort_by_key(|l| l.record);
        }
        // Most outcomes keep no slot: the list is the one held already.
        let slots = if at.kept.is_empty() {
            s.slots.clone()
        } else {
            let mut slots = Vec::with_capacity(s.slots.len() + at.kept.len());
            slots.extend_from_slice(&s.slots);
            for (&j, &v) in at.kept.iter().zip(key) {
                slots.push((n_slots + j as i32, i32::from(v)));
            }
            slots.sort_unstable();
            shared(&self.lists.slots, slots)
        };
        State {
            loaded: self.lists.loaded_with(&s.loaded, rec as u16),
            live: live.into_boxed_slice(),
            slots,
            floating_done: s.floating_done,
            floating_bad: s.floating_bad,
            dummy_done: s.dummy_done,
            alts: s.alts.clone(),
        }
    }
}
