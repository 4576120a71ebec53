//! The loader's state after a dungeon record, projected onto what later
//! records can read. Invariant: equal projections are equal states (their
//! lists are shared, one allocation per distinct list), so they merge.

use super::Engine;
use crate::fxhash::FxHashMap;
use crate::weight::W;
use dgnkit_loader::Resolver;
use std::cell::RefCell;
use std::sync::Arc;

/// A dungeon that may still be a branch's parent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Live {
    pub record: u16,
    pub n: i32,
    /// As the loader computed it (before the `dummy` fix-up).
    pub depth_start: i32,
    /// As the layout reports it (after the fix-up).
    pub depth_final: i32,
    /// Levels that end a branch and that a later branch could land on.
    pub avoid: u64,
    /// Branches of a deferred run (see the module's notes) placed into this
    /// dungeon, whose levels `avoid` leaves out.
    pub pending: u8,
    /// A member of a deferred run: the [`Spread`](super::Spread) of the level it leaves
    /// its parent from. Its depths are those of the spread's first level;
    /// its subs' depths are spread with it.
    pub spread: Option<u32>,
}

/// Four words rather than a field at a time: every state a layer makes is
/// hashed, with its few live dungeons.
impl std::hash::Hash for Live {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(
            u64::from(self.record) | u64::from(self.pending) << 16 | u64::from(self.n as u32) << 32,
        );
        h.write_u64(u64::from(self.depth_start as u32) | u64::from(self.depth_final as u32) << 32);
        h.write_u64(self.avoid);
        h.write_u64(self.spread.map_or(u64::MAX, u64::from));
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Dungeon records that exist, in index order.
    pub loaded: Arc<[u16]>,
    pub live: Box<[Live]>,
    /// `(slot, level)` of slots later chains read; level -1: no level.
    pub slots: Arc<[(i32, i32)]>,
    /// Bit `f`: the first level named `Rules::floating_levels[f]` has been
    /// seen.
    pub floating_done: u8,
    /// A first floating level lies where no branch arrives: the loader fails
    /// after the last dungeon (unless something fails before).
    pub floating_bad: bool,
    pub dummy_done: bool,
    /// dNetHack's `alternate_history[]` (dNAO `dungeon.c:659-664`): its set
    /// slots in order (the game sets them one after another from slot 0).
    pub alts: Arc<[AltSlot]>,
}

/// One set slot of dNetHack's `alternate_history[]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AltSlot {
    /// The first dungeon record with the name the slot holds (names compared
    /// as `select_alternate` does, [`dgnkit_loader`]'s `alt_key`).
    pub group: u16,
    /// Records of that name met so far.
    pub prev: i32,
    pub selected: bool,
}

/// One draw of dNetHack's `select_alternate()`: the chances that the
/// record is kept and dropped, and the history after each.
pub(super) struct Alternate {
    pub(super) p_keep: W,
    pub(super) kept: Vec<AltSlot>,
    pub(super) p_drop: W,
    pub(super) dropped: Vec<AltSlot>,
}

/// A state in a layer's index. Its lists are made by [`shared`], one
/// allocation per distinct list, so equal lists are one address: hashed
/// and compared by that, not element by element (a layer's ten thousand
/// states each load twenty records).
#[derive(Clone)]
pub(super) struct Interned(pub(super) State);

/// A list made by [`shared`], by its address (an empty list may also be
/// `Arc::default()`'s).
pub(super) fn list_id<T>(list: &Arc<[T]>) -> usize {
    if list.is_empty() {
        0
    } else {
        Arc::as_ptr(list) as *const T as usize
    }
}

impl std::hash::Hash for Interned {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let s = &self.0;
        list_id(&s.loaded).hash(h);
        s.live.hash(h);
        list_id(&s.slots).hash(h);
        (s.floating_done, s.floating_bad, s.dummy_done).hash(h);
        list_id(&s.alts).hash(h);
    }
}

impl PartialEq for Interned {
    fn eq(&self, other: &Interned) -> bool {
        let (a, b) = (&self.0, &other.0);
        list_id(&a.loaded) == list_id(&b.loaded)
            && a.live == b.live
            && list_id(&a.slots) == list_id(&b.slots)
            && (a.floating_done, a.floating_bad, a.dummy_done)
                == (b.floating_done, b.floating_bad, b.dummy_done)
            && list_id(&a.alts) == list_id(&b.alts)
    }
}

impl Eq for Interned {}

/// One allocation for each distinct list the states hold: most of them
/// load the same records and know the same slots (held once
/// per state otherwise, much of the largest files' memory). Only the
/// thread that makes the states reads them: no locks (a lock taken and
/// released for each of a million outcomes cost more than the tables).
#[derive(Default)]
pub(super) struct Lists {
    pub(super) loaded: Distinct<u16>,
    pub(super) slots: Distinct<(i32, i32)>,
    pub(super) alts: Distinct<AltSlot>,
    /// The lists of records extended with one record, by the list
    /// extended: a layer's states load a few hundred distinct lists, and
    /// each state would otherwise build and look up its list.
    extended: RefCell<Derived<u16>>,
    /// The lists of slots projected for one stage (`Engine::project`),
    /// likewise.
    projected: RefCell<Derived<(i32, i32)>>,
}

/// Lists made from lists by one step (a record added, a stage's slots
/// kept), by the address of the list they were made from. An entry holds
/// that list, so its address is its own while the entry lasts. The table
/// serves one step at a time (one record, one stage: a layer's) and is
/// emptied when the step changes.
struct Derived<T> {
    step: usize,
    made: FxHashMap<usize, MadeFrom<T>>,
}

/// The list an entry was made from (held for its address), and the list
/// made.
type MadeFrom<T> = (Arc<[T]>, Arc<[T]>);

impl<T> Default for Derived<T> {
    fn default() -> Self {
        Derived {
            step: usize::MAX,
            made: FxHashMap::default(),
        }
    }
}

impl<T> Derived<T> {
    /// The list made from `from` by `step`, as `make` makes it, unless it
    /// was made already.
    fn get(&mut self, from: &Arc<[T]>, step: usize, make: impl FnOnce() -> Arc<[T]>) -> Arc<[T]> {
        if self.step != step {
            self.step = step;
            self.made.clear();
        }
        let id = list_id(from);
        if let Some((_, list)) = self.made.get(&id) {
            return list.clone();
        }
        let list = make();
        self.made.insert(id, (from.clone(), list.clone()));
        list
    }
}

impl Lists {
    /// `loaded` and then `rec`, as one shared list.
    pub(super) fn loaded_with(&self, loaded: &Arc<[u16]>, rec: u16) -> Arc<[u16]> {
        let mut extended = self.extended.borrow_mut();
        extended.get(loaded, usize::from(rec), || {
            // Exactly: states are held by the hundred thousand.
            let mut v = Vec::with_capacity(loaded.len() + 1);
            v.extend_from_slice(loaded);
            v.push(rec);
            shared(&self.loaded, v)
        })
    }

    /// The slots of `slots` that stage `next` and later read, as `make`
    /// makes them, unless they were made already.
    fn projected(
        &self,
        slots: &Arc<[(i32, i32)]>,
        next: usize,
        make: impl FnOnce() -> Arc<[(i32, i32)]>,
    ) -> Arc<[(i32, i32)]> {
        let mut projected = self.projected.borrow_mut();
        projected.get(slots, next, make)
    }
}

/// The distinct lists of one kind made so far.
pub(super) type Distinct<T> = RefCell<FxHashMap<Arc<[T]>, ()>>;

pub(super) fn shared<T: Eq + std::hash::Hash>(lists: &Distinct<T>, v: Vec<T>) -> Arc<[T]> {
    let mut lists = lists.borrow_mut();
    if let Some((list, ())) = lists.get_key_value(v.as_slice()) {
        return list.clone();
    }
    let list: Arc<[T]> = v.into();
    lists.insert(list.clone(), ());
    list
}

/// Level slots of the records `loaded` (chains number them in order).
pub(crate) fn n_slots(res: &Resolver, loaded: &[u16]) -> i32 {
    loaded
        .iter()
        .map(|&r| {
            let d = &res.dungeons[r as usize];
            (d.levels.1 - d.levels.0) as i32
        })
        .sum()
}

impl<'a> Engine<'a> {
    pub(super) fn n_slots(&self, loaded: &[u16]) -> i32 {
        n_slots(self.res, loaded)
    }

    pub(super) fn n_branch_records(&self, loaded: &[u16]) -> usize {
        loaded
            .iter()
            .map(|&r| {
                let d = &self.res.dungeons[r as usize];
                (d.branches.1 - d.branches.0) as usize
            })
            .sum()
    }

    /// Drops what stage `next` and later cannot read.
    pub(super) fn project(&self, mut s: State, next: usize) -> State {
        s.slots = self.lists.projected(&s.slots, next, || {
            let needed = &self.facts.needed_slots[next];
            // States are held by the hundred thousand: their vectors are
            // made to measure (a filtered `collect` would leave room for
            // four).
            let slots = s.slots.iter().filter(|(slot, _)| needed.contains(*slot));
            let count = slots.clone().count();
            if count < s.slots.len() {
                let mut kept = Vec::with_capacity(count);
                kept.extend(slots.copied());
                shared(&self.lists.slots, kept)
            } else {
                s.slots.clone()
            }
        });
        let stays = |l: &Live| self.facts.live_until[l.record as usize] >= next as i64;
        let avoid = |l: &Live| {
            // A deferred run's joint chances are those of the levels
            // taken before it, all of them.
            if l.pending > 0 {
                l.avoid
            } else if self.res.rules.avoid_branch_levels {
                // The slot count only for a branch that reads a chain.
                l.avoid
                    & self
                        .facts
                        .future
                        .mask(self.res, l, next, &s.slots, || self.n_slots(&s.loaded))
            } else {
                0
            }
        };
        if s.live.iter().all(stays) {
            // In place: most states keep every live dungeon.
            for k in 0..s.live.len() {
                s.live[k].avoid = avoid(&s.live[k]);
            }
        } else {
            let mut live = Vec::with_capacity(s.live.iter().filter(|l| stays(l)).count());
            live.extend(s.live.iter().filter(|l| stays(l)).map(|l| Live {
                avoid: avoid(l),
                ..l.clone()
            }));
            s.live = live.into_boxed_slice();
        }
        if !self.facts.floating_later[next] {
            s.floating_done = 0;
        }
        if !self.facts.dummy_later[next] {
            s.dummy_done = false;
        }
        if !self.facts.alt_later[next] {
            s.alts = Arc::default();
        }
        s
    }

    /// dNetHack's `select_alternate()` (dNAO `dungeon.c:668-711`, as the
    /// loader's) for record `rec` from state `s`: `None` when a namesake was
    /// kept already (no draw), else the chance that this record is kept and
    /// the history after the draw. `rn2(remaining)` keeps it with chance
    /// `1/remaining` (`rn2` of 0 or less gives 0: kept); in wizard mode or
    /// in June the `chaos_quest` option decides for "Chaos Quest" after
    /// the draw.
    pub(super) fn select_alternate(&self, s: &State, rec: usize) -> Option<Alternate> {
        let res = self.res;
        let d = &res.dungeons[rec];
        let group = self.facts.alt_group[rec];
        let i = s.loaded.len();
        let mut j = 0;
        let mut altnum = 0;
        while j < i && j < s.alts.len() {
            if s.alts[j].group == group {
                if s.alts[j].selected {
                    return None;
                }
                altnum = s.alts[j].prev;
                break;
            }
            j += 1;
        }
        let inputs = &res.rules.inputs;
        let (p_keep, p_drop) =
            if d.is_chaos_quest && inputs.chaosvar != 0 && (self.facts.wizard || inputs.is_june) {
                if altnum == i32::from(inputs.chaosvar) - 1 {
                    (W::ONE, W::ZERO)
                } else {
                    (W::ZERO, W::ONE)
                }
            } else {
                let remaining = d.alternates - altnum + 1;
                if remaining <= 1 {
                    (W::ONE, W::ZERO)
                } else {
                    let r = remaining as u64;
                    (W::ratio(1, r), W::ratio(r - 1, r))
                }
            };
        let history = |selected: bool| {
            let mut alts = s.alts.to_vec();
            let prev = alts.get(j).map_or(0, |a| a.prev);
            let slot = AltSlot {
                group,
                prev: prev + 1,
                selected,
            };
            if j < alts.len() {
                alts[j] = slot;
            } else if j < res.rules.maxdungeon.max(1) as usize {
                alts.push(slot);
            }
            alts
        };
        Some(Alternate {
            p_keep,
            kept: history(true),
            p_drop,
            dropped: history(false),
        })
    }
}
