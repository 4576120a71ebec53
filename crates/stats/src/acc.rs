//! Accumulators for the statistics, filled either by the exact enumeration
//! (weights are exact chances) or from resolved layouts (weights are
//! 1/samples, or an outcome's chance in tests), and turned into [`Stats`].

use super::engine::FailKey;
use super::fxhash::FxHashMap;
use super::weight::W;
use super::{
    BonesStat, BonesSummary, BranchStat, Dist, DungeonStat, FailureStat, GivenResult, LevelStat,
    Method, PlaceStat, Places, Stats,
};
use dgnkit_bones::{decide, BonesOptions, Decision, Known, LevelFacts, OtherEnd, Rule};
use dgnkit_loader::Resolver;
use std::collections::BTreeMap;

/// Outcome categories of the bones rules for one level ([`CATEGORIES`]).
pub use dgnkit_bones::rules::{CATEGORIES as CATS, CAT_ELIGIBLE, CAT_SHALLOW};

/// A weight and whether the event it measures is possible. The flag is
/// exact even where the weight came from a difference (a free level).
#[derive(Clone, Copy, Debug, Default)]
pub struct PW {
    pub w: W,
    pub pos: bool,
}

impl PW {
    pub fn of(w: W) -> PW {
        PW { w, pos: w.v > 0.0 }
    }

    pub fn times(self, m: W) -> PW {
        PW {
            w: self.w * m,
            pos: self.pos && m.v > 0.0,
        }
    }

    pub fn plus(self, o: PW) -> PW {
        PW {
            w: self.w + o.w,
            pos: self.pos || o.pos,
        }
    }
}

/// Yes/no weights of a fact about a level.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fact {
    pub yes: PW,
    pub no: PW,
}

impl Fact {
    fn add(&mut self, yes: bool, x: PW) {
        let slot = if yes { &mut self.yes } else { &mut self.no };
        *slot = slot.plus(x);
    }
}

#[derive(Clone, Debug, Default)]
pub struct BonesAcc {
    pub exists: W,
    pub cat: [PW; CATS],
    /// Sum of weight times leave chance.
    pub leave_sum: W,
    /// Depths at which bones can be left / loaded.
    pub leave_depth: Option<(i32, i32)>,
    pub load_depth: Option<(i32, i32)>,
    pub bottom: Fact,
    /// A branch ends here and it is not level 1.
    pub branch: Fact,
    pub vibrating: Fact,
}

fn widen(r: &mut Option<(i32, i32)>, d: i32) {
    *r = Some(match *r {
        None => (d, d),
        Some((a, b)) => (a.min(d), b.max(d)),
    });
}

impl BonesAcc {
    fn cat(&mut self, c: usize, x: PW) {
        self.cat[c] = self.cat[c].plus(x);
    }

    /// Counts weight `x` under the decision `d` for a level at `depth`.
    fn decided(&mut self, x: PW, d: &Decision, depth: i32) {
        self.counted(x, &Verdict::of(d), depth);
    }

    /// Counts weight `x` under the verdict `v` for a level at `depth`.
    #[inline]
    fn counted(&mut self, x: PW, v: &Verdict, depth: i32) {
        if !x.pos && x.w.is_zero() {
            return;
        }
        let c = usize::from(v.cat);
        self.cat(c, x);
        if c == CAT_ELIGIBLE {
            self.leave_sum += x.w * v.leave;
            if x.pos {
                widen(&mut self.leave_depth, depth);
            }
        }
        if v.can_load && x.pos {
            widen(&mut self.load_depth, depth);
        }
    }

    /// Adds one class of outcomes for one level. `kinds` weigh what lies
    /// there (already times the outcome's chance); `s` is the chance that
    /// the rest of the resolution succeeds and `ends` splits it by the
    /// branches that end on this level; `verdicts` are the game's own
    /// [`decide`] for every combination ([`Verdicts::of`] the level's
    /// `st`), so the categories follow whatever rules the game has.
    pub fn add(
        &mut self,
        exists: W,
        kinds: Kinds,
        st: &Static,
        s: W,
        ends: &Ends,
        verdicts: &Verdicts,
    ) {
        self.exists += exists * s;
        let total = kinds
            .none
            .plus(kinds.portal)
            .plus(kinds.other)
            .plus(kinds.event);
        let total_s = total.times(s);
        self.bottom.add(st.bottom, total_s);
        self.vibrating.add(st.vibrating, total_s);
        let branch = ends.branch.iter().fold(W::ZERO, |a, &w| a + w);
        if st.level > 1 {
            self.branch.add(true, total.times(branch));
            self.branch.add(false, total.times(ends.none));
        } else {
            self.branch.add(false, total_s);
        }
        // A kind that is impossible and weighs nothing counts nothing in
        // any situation: most levels hold one kind of the four.
        let lying = [kinds.none, kinds.portal, kinds.event, kinds.other];
        let situations = std::iter::once(ends.none).chain(ends.branch);
        for (w_end, row) in situations.zip(&verdicts.0) {
            if w_end.is_zero() {
                continue;
            }
            for (kind, v) in lying.iter().zip(row) {
                if kind.pos || !kind.w.is_zero() {
                    self.counted(kind.times(w_end), v, st.depth);
                }
            }
        }
    }

    /// Adds one resolved layout's verdict for this level.
    pub fn add_decided(&mut self, w: W, f: &LevelFacts, d: &Decision) {
        let x = PW::of(w);
        self.exists += w;
        self.bottom.add(f.bottom, x);
        self.vibrating.add(f.vibrating, x);
        self.branch.add(f.branch_level && f.level > 1, x);
        self.decided(x, d, f.depth);
    }

    pub fn summary(&self) -> BonesSummary {
        let given = |x: W| {
            if self.exists.v > 0.0 {
                (x / self.exists).clamped()
            } else {
                0.0
            }
        };
        let load = (0..CATS)
            .filter(|&c| !Rule::category_stops_loading(c))
            .fold(PW::default(), |a, c| a.plus(self.cat[c]));
        let mut decided_by = BTreeMap::new();
        for (c, pw) in self.cat.iter().enumerate() {
            if pw.pos || pw.w.v > 0.0 {
                let key = Rule::of_category(c).map_or(0, Rule::number);
                *decided_by.entry(key.to_string()).or_insert(0.0) += given(pw.w);
            }
        }
        BonesSummary {
            can_load: given(load.w),
            can_leave: given(self.cat[CAT_ELIGIBLE].w),
            leave_chance: given(self.leave_sum),
            decided_by,
            leave_depth: self.leave_depth,
            possible: std::array::from_fn(|c| self.cat[c].pos || self.cat[c].w.v > 0.0),
            categories: std::array::from_fn(|c| given(self.cat[c].w)),
            bottom: (self.bottom.yes.pos, self.bottom.no.pos),
            branch: (self.branch.yes.pos, self.branch.no.pos),
            vibrating: (self.vibrating.yes.pos, self.vibrating.no.pos),
            p_bottom: given(self.bottom.yes.w),
            p_branch: given(self.branch.yes.w),
            p_vibrating: given(self.vibrating.yes.w),
        }
    }
}

/// What lies on a level, as weights: a special level with marker "none",
/// one holding a magic portal, one without bones until an event (rule 13),
/// anything else (another special level or none).
#[derive(Clone, Copy, Debug, Default)]
pub struct Kinds {
    pub none: PW,
    pub portal: PW,
    pub event: PW,
    pub other: PW,
}

/// The facts about a level that do not depend on later dungeons.
#[derive(Clone, Copy, Debug)]
pub struct Static {
    pub level: i32,
    pub depth: i32,
    pub dungeon_none: bool,
    pub bottom: bool,
    pub vibrating: bool,
    /// The dungeon is the first in the game's list (rule 9's main dungeon).
    pub main_dungeon: bool,
    /// Rule 10 holds here (a Madman's Quest home).
    pub madman: bool,
}

/// What the other end of the first branch ending on a level brings
/// (dNetHack's rules 11 and 12): the categories depend only on which of
/// the two holds, so the enumeration tells these apart.
pub const ENDS: usize = 3;
/// Neither rule: no other end judged, or one that keeps no rule.
pub const END_PLAIN: usize = 0;
/// The other end is in the Quest (rule 11).
pub const END_QUEST: usize = 1;
/// The other end is itself a no-bones level (rule 12).
pub const END_NO_BONES: usize = 2;

/// What [`BonesAcc`] reads of one [`Decision`]: its category, whether a
/// stored bones file would load, and the chance of leaving bones.
#[derive(Clone, Copy, Debug)]
pub struct Verdict {
    cat: u8,
    can_load: bool,
    leave: W,
}

impl Verdict {
    fn of(d: &Decision) -> Verdict {
        let cat = match d.rule {
            Rule::DepthRoll if d.chance.0 == 0 => CAT_SHALLOW,
            Rule::DepthRoll => CAT_ELIGIBLE,
            r => r.category(),
        };
        Verdict {
            cat: cat as u8,
            can_load: d.can_load,
            leave: W::ratio(u64::from(d.chance.0), u64::from(d.chance.1)),
        }
    }
}

/// The game's verdicts on a level with facts [`Static`], for each
/// situation (no branch ending there, then the other end of each of
/// [`ENDS`]) and each kind of what lies there (a special level marked
/// "none", one with a magic portal, one awaiting an event, anything
/// else). A level's facts take a handful of values over the tens of
/// thousands of outcomes that add it, so they are judged once each
/// ([`VerdictMemo`]).
#[derive(Clone, Copy, Debug)]
pub struct Verdicts([[Verdict; 4]; 1 + ENDS]);

impl Verdicts {
    pub fn of(st: &Static, opts: &BonesOptions) -> Verdicts {
        let event = opts.rules.event_levels.first();
        // (special_none, portal, is_event), in the order of `add`'s kinds.
        let lying = [
            (true, false, false),
            (false, true, false),
            (false, false, true),
            (false, false, false),
        ];
        Verdicts(std::array::from_fn(|situation| {
            let (branch_level, other) = match situation {
                0 => (false, None),
                c => (true, other_end(c - 1)),
            };
            std::array::from_fn(|k| {
                let (special_none, portal, is_event) = lying[k];
                let facts = LevelFacts {
                    special_none,
                    dungeon_none: st.dungeon_none,
                    bottom: st.bottom,
                    branch_level,
                    level: st.level,
                    main_dungeon: st.main_dungeon,
                    vibrating: st.vibrating,
                    portal,
                    depth: st.depth,
                    madman_home: if st.madman { Known::Yes } else { Known::No },
                    other_end: other,
                    event: if is_event { event } else { None },
                };
                Verdict::of(&decide(&opts.rules, &facts))
            })
        }))
    }
}

/// [`Verdicts`] per [`Static`] met so far, for one set of bones options.
#[derive(Default)]
pub struct VerdictMemo(FxHashMap<u128, Verdicts>);

impl VerdictMemo {
    pub fn of(&mut self, st: &Static, opts: &BonesOptions) -> &Verdicts {
        // Packed: two words hash in two steps, the struct's seven fields
        // in seven. Every field is named, so a field added to `Static`
        // cannot be left out of the key.
        let &Static {
            level,
            depth,
            dungeon_none,
            bottom,
            vibrating,
            main_dungeon,
            madman,
        } = st;
        let flags = [dungeon_none, bottom, vibrating, main_dungeon, madman]
            .iter()
            .fold(0u128, |m, &f| m << 1 | u128::from(f));
        let key = u128::from(depth as u32) | u128::from(level as u32) << 32 | flags << 64;
        self.0.entry(key).or_insert_with(|| Verdicts::of(st, opts))
    }
}

/// The other end of class `c` as the rules read it.
fn other_end(c: usize) -> Option<OtherEnd> {
    match c {
        END_QUEST => Some(OtherEnd {
            in_quest: true,
            no_bones: None,
        }),
        // Which rule holds there does not change the category.
        END_NO_BONES => Some(OtherEnd {
            in_quest: false,
            no_bones: Some(Rule::SpecialNone),
        }),
        _ => None,
    }
}

/// The chance that the rest of the resolution succeeds, split by the
/// branches ending on one level: none (`none`), or the first of them
/// brings other-end class `c` (`branch[c]`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ends {
    pub none: W,
    pub branch: [W; ENDS],
}

impl Ends {
    /// A branch surely ends here, with other-end class `c`.
    pub fn sure(s: W, c: usize) -> Ends {
        let mut branch = [W::ZERO; ENDS];
        branch[c] = s;
        Ends {
            none: W::ZERO,
            branch,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct DAcc {
    pub exists: W,
    pub n: BTreeMap<i32, W>,
    pub depth_start: BTreeMap<i32, W>,
}

#[derive(Clone, Debug, Default)]
pub struct LAcc {
    pub exists: W,
    pub level: BTreeMap<i32, W>,
    pub depth: BTreeMap<i32, W>,
    pub bones: BonesAcc,
}

#[derive(Clone, Debug, Default)]
pub struct BAcc {
    pub exists: W,
    pub level: BTreeMap<i32, W>,
    pub depth: BTreeMap<i32, W>,
    pub floating: W,
}

pub fn bump(map: &mut BTreeMap<i32, W>, k: i32, w: W) {
    *map.entry(k).or_default() += w;
}

#[derive(Clone, Debug, Default)]
pub struct Acc {
    /// The weight of the successful resolutions counted (with evidence:
    /// those that meet it).
    pub success: W,
    /// With evidence: the weight of every successful resolution, which the
    /// failures are measured against.
    pub loaded: Option<W>,
    pub failures: BTreeMap<FailKey, (W, String)>,
    pub dungeons: Vec<DAcc>,
    pub levels: Vec<LAcc>,
    pub branches: BTreeMap<(u32, u32), BAcc>,
    /// Per (dungeon record, level number).
    pub cells: BTreeMap<(u32, i32), BonesAcc>,
    /// Per (dungeon index, depth), when asked for ([`super::places`]).
    pub places: Option<BTreeMap<(u32, i32), PlaceAcc>>,
}

/// What lies at one (dungeon index, depth): which dungeon record, which
/// level number, which special level, and the bones rules there.
#[derive(Clone, Debug, Default)]
pub struct PlaceAcc {
    pub dungeons: BTreeMap<u32, W>,
    pub levels: BTreeMap<i32, W>,
    pub specials: BTreeMap<u32, W>,
    /// Its `exists` is the place's weight.
    pub bones: BonesAcc,
}

impl PlaceAcc {
    pub fn note(&mut self, record: u32, level: i32, w: W) {
        *self.dungeons.entry(record).or_default() += w;
        bump(&mut self.levels, level, w);
    }

    pub fn special(&mut self, level_record: u32, w: W) {
        *self.specials.entry(level_record).or_default() += w;
    }
}

impl Acc {
    pub fn new(res: &Resolver) -> Acc {
        Acc {
            dungeons: vec![DAcc::default(); res.dungeons.len()],
            levels: vec![LAcc::default(); res.levels.len()],
            ..Acc::default()
        }
    }

    /// Moves into this one what `part` holds of dungeon record `rec`: its
    /// [`DAcc`], its levels', the branches into it and its cells, which
    /// this one has not been given yet. Judging one dungeon's outcomes
    /// touches nothing else ([`crate::exact`]), so a part judged apart holds
    /// the very sums this one would have made.
    pub fn take_dungeon(&mut self, res: &Resolver, rec: usize, mut part: Acc) {
        debug_assert!(part.failures.is_empty() && part.places.is_none());
        self.dungeons[rec] = std::mem::take(&mut part.dungeons[rec]);
        let (l0, l1) = res.dungeons[rec].levels;
        for l in l0 as usize..l1 as usize {
            self.levels[l] = std::mem::take(&mut part.levels[l]);
        }
        self.branches.append(&mut part.branches);
        self.cells.append(&mut part.cells);
    }

    pub fn fail(&mut self, key: FailKey, w: W, example: impl FnOnce() -> String) {
        match self.failures.get_mut(&key) {
            Some((acc, _)) => *acc += w,
            None => {
                self.failures.insert(key, (w, example()));
            }
        }
    }

    /// The places table, conditional on success and on each place existing.
    pub fn finish_places(&self, res: &Resolver, method: Method) -> Places {
        let given = |x: W, of: W| {
            if of.v > 0.0 {
                (x / of).clamped()
            } else {
                0.0
            }
        };
        let places = self
            .places
            .iter()
            .flatten()
            .filter(|(_, a)| a.bones.exists.v > 0.0)
            .map(|(&(dnum, depth), a)| {
                let of = a.bones.exists;
                PlaceStat {
                    dnum: dnum as i32,
                    depth,
                    exists: given(of, self.success),
                    dungeons: a
                        .dungeons
                        .iter()
                        .filter(|(_, w)| w.v > 0.0)
                        .map(|(&r, w)| (r, given(*w, of)))
                        .collect(),
                    levels: a
                        .levels
                        .iter()
                        .filter(|(_, w)| w.v > 0.0)
                        .map(|(&l, w)| (l, given(*w, of)))
                        .collect(),
                    specials: a
                        .specials
                        .iter()
                        .filter(|(_, w)| w.v > 0.0)
                        .map(|(&l, w)| (l, given(*w, of)))
                        .collect(),
                    bones: a.bones.summary(),
                }
            })
            .collect();
        let failure_w = self.failures.values().fold(W::ZERO, |a, (w, _)| a + *w);
        Places {
            method,
            failure: given(failure_w, self.loaded.unwrap_or(self.success) + failure_w),
            dungeon_names: res.dungeons.iter().map(|d| d.name.clone()).collect(),
            level_names: res.levels.iter().map(|l| l.name.clone()).collect(),
            places,
            given: None,
        }
    }

    /// How likely the evidence is ([`Acc::loaded`]), with the sampled
    /// layouts' counts `(matching, loaded)` when sampled.
    pub fn given_result(&self, describe: &str, counts: Option<(u64, u64)>) -> GivenResult {
        let failure_w = self.failures.values().fold(W::ZERO, |a, (w, _)| a + *w);
        let loaded = self.loaded.unwrap_or(self.success);
        let ratio = |x: W, of: W| {
            if of.v > 0.0 {
                (x / of).clamped()
            } else {
                0.0
            }
        };
        GivenResult {
            describe: describe.to_string(),
            p_evidence: ratio(self.success, loaded),
            p_joint: ratio(self.success, loaded + failure_w),
            matching: counts.map(|c| c.0),
            loaded: counts.map(|c| c.1),
        }
    }

    /// The largest error bound of the chances [`Acc::finish`] reports,
    /// each relative to what it is conditional on.
    fn max_error(&self, success: W, failure_w: W, total: W) -> f64 {
        let mut max_error: f64 = 0.0;
        let mut note = |w: W, of: W| {
            if of.v > 0.0 {
                max_error = max_error.max((w / of).bound());
            }
        };
        note(failure_w, total);
        if let Some(loaded) = self.loaded {
            note(success, loaded);
        }
        for a in &self.dungeons {
            note(a.exists, success);
            for w in a.n.values().chain(a.depth_start.values()) {
                note(*w, a.exists);
            }
        }
        for a in &self.levels {
            note(a.exists, success);
            for w in a.level.values().chain(a.depth.values()) {
                note(*w, a.exists);
            }
            for c in &a.bones.cat {
                note(c.w, a.bones.exists);
            }
        }
        for a in self.branches.values() {
            note(a.exists, success);
            for w in a.level.values() {
                note(*w, a.exists);
            }
        }
        for a in self.cells.values() {
            for c in &a.cat {
                note(c.w, a.exists);
            }
        }
        max_error
    }

    /// The statistics, conditional on success.
    pub fn finish(&self, res: &Resolver, method: Method) -> Stats {
        let success = self.success;
        let failure_w = self.failures.values().fold(W::ZERO, |a, (w, _)| a + *w);
        let total = self.loaded.unwrap_or(success) + failure_w;
        let cond = |x: W| {
            if success.v > 0.0 {
                (x / success).clamped()
            } else {
                0.0
            }
        };
        let dist = |m: &BTreeMap<i32, W>, of: W| -> Dist {
            m.iter()
                .filter(|(_, w)| w.v > 0.0)
                .map(|(&k, w)| (k, if of.v > 0.0 { (*w / of).clamped() } else { 0.0 }))
                .collect()
        };
        let dname = |r: u32| {
            res.dungeons
                .get(r as usize)
                .map_or_else(String::new, |d| d.name.clone())
        };
        let failures = self
            .failures
            .iter()
            .map(|(k, (w, ex))| FailureStat {
                code: k.code.to_string(),
                dungeon: k.dungeon.map(dname),
                level: k
                    .level
                    .and_then(|l| res.levels.get(l as usize))
                    .map(|l| l.name.clone()),
                probability: if total.v > 0.0 {
                    (*w / total).clamped()
                } else {
                    0.0
                },
                example: ex.clone(),
            })
            .collect();
        let dungeons = self
            .dungeons
            .iter()
            .enumerate()
            .map(|(r, a)| DungeonStat {
                name: dname(r as u32),
                exists: cond(a.exists),
                num_levels: dist(&a.n, a.exists),
                depth_start: dist(&a.depth_start, a.exists),
            })
            .collect();
        let levels = self
            .levels
            .iter()
            .enumerate()
            .map(|(l, a)| LevelStat {
                name: res.levels[l].name.clone(),
                dungeon: dname(res.levels[l].dungeon),
                exists: cond(a.exists),
                level: dist(&a.level, a.exists),
                depth: dist(&a.depth, a.exists),
                bones: a.bones.summary(),
            })
            .collect();
        // Entries reached only on the way to failures carry no weight.
        let branches = self
            .branches
            .iter()
            .filter(|(_, a)| a.exists.v > 0.0)
            .map(|(&(from, to), a)| BranchStat {
                from: dname(from),
                to: dname(to),
                exists: cond(a.exists),
                level: dist(&a.level, a.exists),
                depth: dist(&a.depth, a.exists),
                floating: if a.exists.v > 0.0 {
                    (a.floating / a.exists).clamped()
                } else {
                    0.0
                },
            })
            .collect();
        let bones = self
            .cells
            .iter()
            .filter(|(_, a)| a.exists.v > 0.0)
            .map(|(&(d, l), a)| BonesStat {
                dungeon: dname(d),
                level: l,
                exists: cond(a.exists),
                bones: a.summary(),
            })
            .collect();
        let max_error = self.max_error(success, failure_w, total);
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
        Stats {
            method,
            failure: if total.v > 0.0 {
                (failure_w / total).clamped()
            } else {
                0.0
            },
            failures,
            dungeons,
            levels,
            branches,
            bones,
            given: None,
        }
    }
}
