//! Turns the enumeration into statistics: every outcome weighted by the
//! chance of reaching it and the chance that the rest succeeds.

use super::acc::{bump, Acc, Ends, Kinds, Static, VerdictMemo, ENDS, END_NO_BONES, END_PLAIN, PW};
use super::alike::{self, After, Alike, Group};
use super::engine::{BackAt, BranchInfo, Edge, Enumeration, Present, To};
use super::place::{Class, LEVELS};
use super::weight::W;
use dgnkit_bones::{BonesOptions, Known};
use dgnkit_loader::FailCode;
use dgnkit_loader::{DRec, Resolver};
use dgnkit_script::flags;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    None,
    Portal,
    Event,
    Other,
}

fn level_kind(res: &Resolver, l: usize, opts: &BonesOptions) -> Kind {
    let rec = &res.levels[l];
    if rec.bones.is_empty() {
        Kind::None
    } else if opts.event_level(&rec.name).is_some() {
        // Rule 13 is tested before rule 6 (`decide`).
        Kind::Event
    } else if opts.rules.magic_portal && opts.is_portal_level(&rec.name) {
        Kind::Portal
    } else {
        Kind::Other
    }
}

/// The bones rules the enumeration does not follow, if any: then the
/// statistics are sampled. Its categories come from the game's own
/// `decide`; rule 10 only in the shape [`madman_records`] takes.
pub fn unmodelled_bones(res: &Resolver, opts: &BonesOptions) -> Option<&'static str> {
    madman_records(res, opts).err()
}

/// Rule 10 for a Madman (dNAO `bones.c:35`: the level just above the
/// first level named `*-loca`, in the dungeon of the first named
/// `*-strt`): the two level records, when the file has one of each, both
/// in "The Quest", which no branch leaves (so the rule only ever judges
/// the Quest's own levels, and its entry's other end is in the Quest);
/// `None` when the rule cannot hold; an error for any other shape.
pub fn madman_records(
    res: &Resolver,
    opts: &BonesOptions,
) -> Result<Option<(u32, u32)>, &'static str> {
    if opts.is_madman() != Known::Yes {
        return Ok(None);
    }
    let named = |suffix: &str| -> Vec<u32> {
        (0..res.levels.len() as u32)
            .filter(|&l| res.levels[l as usize].name.ends_with(suffix))
            .collect()
    };
    match (named("-strt").as_slice(), named("-loca").as_slice()) {
        ([], _) | (_, []) => Ok(None),
        (&[strt], &[loca]) => {
            let d = res.levels[strt as usize].dungeon;
            let dr = &res.dungeons[d as usize];
            if res.levels[loca as usize].dungeon == d
                && dr.name == dgnkit_bones::names::QUEST_DUNGEON
                && dr.branches.0 == dr.branches.1
            {
                Ok(Some((strt, loca)))
            } else {
                Err("bones rule for a Madman's Quest home, with its Quest levels in this file's places")
            }
        }
        _ => Err("bones rule for a Madman's Quest home, with several Quest start or locate levels"),
    }
}

pub fn accumulate(res: &Resolver, run: &Enumeration, opts: &BonesOptions, places: bool) -> Acc {
    let mut acc = Acc::new(res);
    if places {
        acc.places = Some(Default::default());
    }
    // With evidence, failures are counted over every path and the rest
    // over the paths that meet it.
    let all = run.alpha_all.as_ref().unwrap_or(&run.alpha);
    if run.alpha_all.is_some() {
        acc.loaded = Some(W::ZERO);
    }
    let preds = predecessors(run, all);
    let madman = madman_records(res, opts).ok().flatten();
    let file = FileKinds::new(res, opts);
    // Grouping a layer's outcomes (`Alike`) reads only the run, and judging
    // them touches only their dungeon's part of `acc` (its record, its
    // levels, the branches into it, its cells). On the largest files two
    // other threads each take whole layers, group them and judge them into
    // an `Acc` of the layer's own, which this one takes: every sum is the
    // one a single thread makes. Places are per dungeon index, which any
    // dungeon may take: with them, the threads only group and this one
    // judges.
    let judge_one = |acc: &mut Acc, memo: &mut VerdictMemo, i: usize, groups: &[Group]| {
        for g in groups {
            let at = Outcome {
                i,
                index: g.index,
                e: g.e,
                info: &g.info,
                a: g.a,
                t: g.t,
            };
            present(res, run, opts, (madman, &file), (acc, memo), &at);
        }
    };
    let fail_all = |acc: &mut Acc, i: usize, fails: Vec<(usize, W)>| {
        let layer = &run.layers[i];
        for (ei, p) in fails {
            if let To::Fail(key) = &layer.edges[ei].to {
                acc.fail((**key).clone(), p, || example(res, run, &preds, i, ei));
            }
        }
    };
    let layers: Vec<usize> = (0..run.layers.len())
        .filter(|&i| !run.layers[i].edges.is_empty())
        .collect();
    let edges: usize = run.layers.iter().map(|l| l.edges.len()).sum();
    // Each thread takes the next layer not taken once done with its last
    // (the layers' sizes vary a hundredfold), as far ahead of this one as
    // it gets. Should no thread start, nothing has been judged yet and
    // this one does it all.
    let mut memo = VerdictMemo::default();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let apart = !places;
    let piped = edges >= PIPELINE_AT
        && !crate::halves::is_alone()
        && std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel::<(usize, Grouped, Option<Acc>)>();
            let mut started = false;
            for _ in 0..2 {
                let (tx, next, layers, judge_one) = (tx.clone(), &next, &layers, &judge_one);
                let mut memo = VerdictMemo::default();
                let spawned = std::thread::Builder::new()
                    .name("dgnkit-stats".into())
                    .spawn_scoped(scope, move || loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&i) = layers.get(k) else {
                            break;
                        };
                        if run.stop.is_set() {
                            break;
                        }
                        let mut grouped = group(run, all, i);
                        let part = apart.then(|| {
                            let mut part = Acc::new(res);
                            judge_one(&mut part, &mut memo, i, &grouped.groups);
                            grouped.groups = Vec::new();
                            part
                        });
                        // A judge that stopped early hangs up.
                        if tx.send((k, grouped, part)).is_err() {
                            break;
                        }
                    });
                started |= spawned.is_ok();
            }
            drop(tx);
            if !started {
                return false;
            }
            // The layers that came before their turn. A judged part holds
            // sums no other layer touches, so it is taken as it comes rather
            // than held; the failures, summed across layers, wait their turn.
            let mut early: Vec<Option<(Grouped, bool)>> = (0..layers.len()).map(|_| None).collect();
            let mut turn = 0;
            for (k, grouped, part) in rx {
                let judged = part.is_some();
                if let (Some(part), Some(&i)) = (part, layers.get(k)) {
                    acc.take_dungeon(res, i, part);
                }
                if let Some(slot) = early.get_mut(k) {
                    *slot = Some((grouped, judged));
                }
                while let Some((grouped, judged)) = early.get_mut(turn).and_then(Option::take) {
                    let i = layers[turn];
                    fail_all(&mut acc, i, grouped.fails);
                    if !judged {
                        judge_one(&mut acc, &mut memo, i, &grouped.groups);
                    }
                    turn += 1;
                }
            }
            true
        });
    if !piped {
        for &i in &layers {
            // A stopped run's statistics are discarded (`exact_with`).
            if run.stop.is_set() {
                break;
            }
            let grouped = group(run, all, i);
            fail_all(&mut acc, i, grouped.fails);
            judge_one(&mut acc, &mut memo, i, &grouped.groups);
        }
    }
    let last = run.layers.len() - 1;
    for (si, fail) in run.terminal_fail.iter().enumerate() {
        let a = all[last][si];
        match fail {
            Some(key) => {
                acc.fail(key.clone(), a, || {
                    let mut path = path_to(res, run, &preds, last, si);
                    if key.code == FailCode::KnoxNotReachable.code() {
                        path.push("the level named \"knox\" does not lie where the branch into its dungeon arrives".into());
                        return path.join("; ");
                    }
                    let missing = res
                        .rules
                        .required_dungeons
                        .iter()
                        .find(|name| !run.layers[last].states[si].loaded.iter().any(|&r| res.dungeons[r as usize].name == **name))
                        .map_or_else(String::new, |n| (*n).to_string());
                    path.push(format!("NetHack needs \"{missing}\", which does not exist in this layout"));
                    path.join("; ")
                });
            }
            None => {
                acc.success += run.alpha[last][si];
                if let Some(loaded) = &mut acc.loaded {
                    *loaded += a;
                }
            }
        }
    }
    acc
}

/// Edges over all layers from which [`accumulate`] groups and judges
/// outcomes on other threads.
pub(crate) const PIPELINE_AT: usize = 16_384;

/// One layer's outcomes grouped for judging, and its failures (edge, chance
/// of reaching it) in edge order.
struct Grouped<'r> {
    fails: Vec<(usize, W)>,
    /// [`Alike::groups`], the tables that made them dropped.
    groups: Vec<Group<'r>>,
}

fn group<'r>(run: &'r Enumeration, all: &[Vec<W>], i: usize) -> Grouped<'r> {
    let layer = &run.layers[i];
    let after = After::of(run, i);
    let mut alike = Alike::default();
    let mut fails = Vec::new();
    for (ei, e) in layer.edges.iter().enumerate() {
        let a = match e.to {
            To::Fail(_) => all[i][e.from as usize],
            To::State(_) if e.ok => run.alpha[i][e.from as usize],
            To::State(_) => continue,
        };
        if a.is_zero() {
            continue;
        }
        match e.to {
            To::Fail(_) => fails.push((ei, a * e.p)),
            To::State(t) => {
                let Some(info) = layer.info(e) else { continue };
                // Dropped optional dungeons take no index: this is the
                // dungeon's number in the game's dungeons[].
                let index = layer.states[e.from as usize].loaded.len() as u32;
                let t = t as usize;
                // The same parent for each level of a spread.
                let core = alike::core(run, i, e.from as usize, info);
                let core = core.as_ref();
                match info.branch.and_then(|b| b.spread.map(|id| (b, id))) {
                    // A deferred run's branch: each level it may leave
                    // from, with its chance.
                    Some((b, id)) => {
                        for (at, x) in run.spreads[id as usize].at.iter().enumerate() {
                            let mut moved = info.clone();
                            moved.depth_start = x.depth_start;
                            moved.branch = Some(BranchInfo {
                                level: x.level,
                                depth: x.depth,
                                ..b
                            });
                            let at = at as u32;
                            alike.add(&after, index, (e, at), moved, core, a * x.p, t);
                        }
                    }
                    None => alike.add(&after, index, (e, 0), info.clone(), core, a, t),
                }
            }
        }
    }
    Grouped {
        fails,
        groups: alike.groups,
    }
}

/// One outcome of dungeon record `i` (at dungeon index `index`): edge `e`
/// from a state reached with chance `a`, to state `t`.
struct Outcome<'r> {
    i: usize,
    index: u32,
    e: &'r Edge,
    info: &'r Present,
    a: W,
    t: usize,
}

/// What the bones rules read of each record of the file, named the same
/// for every outcome: worked out once rather than for each of the tens of
/// thousands judged.
struct FileKinds {
    /// Per level record.
    kinds: Vec<Kind>,
    /// Per dungeon record: whether it holds the vibrating square's level,
    /// and whether it is the main dungeon (rule 9).
    hellish: Vec<bool>,
    main_dungeon: Vec<bool>,
}

impl FileKinds {
    fn new(res: &Resolver, opts: &BonesOptions) -> FileKinds {
        FileKinds {
            kinds: (0..res.levels.len())
                .map(|l| level_kind(res, l, opts))
                .collect(),
            hellish: res
                .dungeons
                .iter()
                .map(|d| {
                    opts.rules
                        .invocation
                        .applies(d.flags & flags::HELLISH != 0, || {
                            (d.levels.0..d.levels.1).any(|l| {
                                res.levels[l as usize].name == dgnkit_bones::rules::SANCTUM
                            })
                        })
                })
                .collect(),
            main_dungeon: res
                .dungeons
                .iter()
                .map(|d| d.name == dgnkit_bones::rules::MAIN_DUNGEON)
                .collect(),
        }
    }
}

fn present(
    res: &Resolver,
    run: &Enumeration,
    opts: &BonesOptions,
    (madman, file): (Option<(u32, u32)>, &FileKinds),
    (acc, memo): (&mut Acc, &mut VerdictMemo),
    at: &Outcome<'_>,
) {
    let Outcome {
        i, e, info, a, t, ..
    } = *at;
    let rec = i;
    let d = &res.dungeons[rec];
    let back = run.back[i + 1].at(t);
    count_dungeon(acc, rec, info, a * e.p * back.succ);
    let class = &run.placements[info.placement as usize].classes[info.class as usize];
    let (l0, _) = d.levels;
    let hellish = file.hellish[rec];
    // Rule 10: the level above the locate level (kept, so one level in
    // this class), when the start level exists too.
    let madman_home = madman.and_then(|(strt, loca)| {
        let (js, jl) = (strt.checked_sub(l0)?, loca.checked_sub(l0)?);
        if res.levels[strt as usize].dungeon != rec as u32 || !run.pattern(info)[js as usize] {
            return None;
        }
        let v = class.pos[jl as usize].iter().position(|w| !w.is_zero())?;
        Some(v as i32 - 1)
    });
    let judge = Judge {
        run,
        at,
        d,
        live: run.layers[i + 1].states[t]
            .live
            .iter()
            .position(|l| usize::from(l.record) == rec),
        back,
        hellish,
        madman_home,
        main_dungeon: file.main_dungeon[rec],
        kinds: &file.kinds[l0 as usize..l0 as usize + class.pos.len()],
        base: a * info.prefix,
        opts,
    };
    judge.special_levels(acc, memo, class);
    judge.every_level(acc, memo, class);
}

/// Counts outcome `info` of dungeon record `rec`, of weight `ws` with the
/// rest's success, for the dungeon and the branch into it.
fn count_dungeon(acc: &mut Acc, rec: usize, info: &Present, ws: W) {
    let da = &mut acc.dungeons[rec];
    da.exists += ws;
    bump(&mut da.n, info.n, ws);
    bump(&mut da.depth_start, info.depth_start, ws);
    if let Some(b) = info.branch {
        let ba = acc.branches.entry((b.parent, rec as u32)).or_default();
        ba.exists += ws;
        bump(&mut ba.level, b.level, ws);
        bump(&mut ba.depth, b.depth, ws);
        if b.floated {
            ba.floating += ws;
        }
    }
}

/// How the levels of one outcome's dungeon are judged for bones: what
/// lies on each from its class, what ends there from the branch into the
/// dungeon and the backward pass.
struct Judge<'r> {
    run: &'r Enumeration,
    at: &'r Outcome<'r>,
    d: &'r DRec,
    /// The dungeon's place among the live ones of the state after it
    /// (none: no later branch may leave it).
    live: Option<usize>,
    back: BackAt<'r>,
    hellish: bool,
    /// Rule 10's level, when it lies in this dungeon.
    madman_home: Option<i32>,
    /// The dungeon is the main one ([`FileKinds`]).
    main_dungeon: bool,
    /// Per level record of the dungeon.
    kinds: &'r [Kind],
    /// The chance of reaching the outcome without its class's.
    base: W,
    opts: &'r BonesOptions,
}

impl Judge<'_> {
    /// The branches ending on level `l` after this dungeon, as the
    /// backward pass has them.
    fn later(&self, l: usize) -> Ends {
        match self.live {
            Some(p) => self.back.ends_at(p, l),
            None => Ends {
                none: self.back.succ,
                branch: [W::ZERO; ENDS],
            },
        }
    }

    /// The branches ending on level `l`: the one into this dungeon at its
    /// entry (first in the game's list), later ones as the backward pass
    /// has them.
    fn future(&self, l: usize) -> Ends {
        let (info, s) = (self.at.info, self.back.succ);
        match info.branch {
            Some(b) if l as i32 == info.entry && b.other == END_PLAIN && !b.floated => {
                // The parent's level may be a no-bones level (rule 12 here).
                let q = self
                    .run
                    .core_at(self.at.i, self.at.e.from as usize, b.parent, b.level);
                let mut ends = Ends::sure(s * (W::ONE - q), END_PLAIN);
                ends.branch[END_NO_BONES] = s * q;
                ends
            }
            // The floating marker moves the branch into this dungeon to the
            // end of the game's list (`insert_branch` sorts on `end1`, now
            // past every dungeon; dNAO `src/dungeon.c:1062-1077`): a later
            // branch ending here comes first, and only without one is the
            // entry judged by the floated branch, whose other end is off the
            // map.
            Some(b) if l as i32 == info.entry && b.floated => {
                let mut ends = self.later(l);
                ends.branch[END_PLAIN] += ends.none;
                ends.none = W::ZERO;
                ends
            }
            Some(b) if l as i32 == info.entry => Ends::sure(s, b.other),
            _ => self.later(l),
        }
    }

    /// What the bones rules read of level `l` itself.
    fn statics(&self, l: i32) -> Static {
        let info = self.at.info;
        Static {
            level: l,
            depth: info.depth_start.wrapping_add(l - 1),
            dungeon_none: self.d.bones.is_empty(),
            bottom: l == info.n,
            vibrating: self.hellish && l == info.n - 1,
            main_dungeon: self.main_dungeon,
            madman: self.madman_home == Some(l),
        }
    }

    /// Each special level of the class: where it lies, and its bones.
    fn special_levels(&self, acc: &mut Acc, memo: &mut VerdictMemo, class: &Class) {
        let (info, s, base) = (self.at.info, self.back.succ, self.base);
        let l0 = self.d.levels.0 as usize;
        for (j, row) in class.pos.iter().enumerate() {
            let la = &mut acc.levels[l0 + j];
            for (l, p) in row.nonzero() {
                let x = base * p;
                la.exists += x * s;
                bump(&mut la.level, l as i32, x * s);
                bump(
                    &mut la.depth,
                    info.depth_start.wrapping_add(l as i32 - 1),
                    x * s,
                );
                let pw = PW::of(x);
                let k = match self.kinds[j] {
                    Kind::None => Kinds {
                        none: pw,
                        ..Kinds::default()
                    },
                    Kind::Portal => Kinds {
                        portal: pw,
                        ..Kinds::default()
                    },
                    Kind::Event => Kinds {
                        event: pw,
                        ..Kinds::default()
                    },
                    Kind::Other => Kinds {
                        other: pw,
                        ..Kinds::default()
                    },
                };
                let (st, ends) = (self.statics(l as i32), self.future(l));
                la.bones.add(x, k, &st, s, &ends, memo.of(&st, self.opts));
            }
        }
    }

    /// Every level of the dungeon: what lies there, from each level
    /// record's row (in record order, as a sum per level would take them).
    fn every_level(&self, acc: &mut Acc, memo: &mut VerdictMemo, class: &Class) {
        let (info, s, base) = (self.at.info, self.back.succ, self.base);
        let rec = self.at.i;
        let l0 = self.d.levels.0;
        let top = info.n.clamp(0, LEVELS as i32 - 1) as usize;
        let mut here = vec![(Kinds::default(), W::ZERO); top + 1];
        for (j, row) in class.pos.iter().enumerate() {
            for (lu, p) in row.nonzero().filter(|&(lu, _)| (1..=top).contains(&lu)) {
                let (k, other) = &mut here[lu];
                match self.kinds[j] {
                    Kind::None => k.none = k.none.plus(PW::of(base * p)),
                    Kind::Portal => k.portal = k.portal.plus(PW::of(base * p)),
                    Kind::Event => k.event = k.event.plus(PW::of(base * p)),
                    Kind::Other => *other += p,
                }
            }
        }
        if top == 0 {
            return;
        }
        // Every level up to the top gets a cell: made the first time,
        // then walked in order rather than looked up level by level.
        let (first, last) = ((rec as u32, 1), (rec as u32, top as i32));
        if acc.cells.range(first..=last).count() < top {
            for l in 1..=top as i32 {
                acc.cells.entry((rec as u32, l)).or_default();
            }
        }
        let Acc { cells, places, .. } = acc;
        let mut cells = cells.range_mut(first..=last);
        for l in 1..=top as i32 {
            let Some((_, cell)) = cells.next() else {
                break;
            };
            let lu = l as usize;
            let (mut k, other) = here[lu];
            let empty_possible = class.empty_possible & (1u64 << lu) != 0;
            let free = if empty_possible {
                other
                    + W {
                        v: class.empty[lu].v.max(0.0),
                        e: class.empty[lu].e,
                    }
            } else {
                other
            };
            k.other = PW {
                w: base * free,
                pos: (other.v > 0.0 || empty_possible) && base.v > 0.0,
            };
            let ends = self.future(lu);
            let st = self.statics(l);
            let verdicts = memo.of(&st, self.opts);
            cell.add(base * class.p, k, &st, s, &ends, verdicts);
            if let Some(places) = places.as_mut() {
                let place = places.entry((self.at.index, st.depth)).or_default();
                place.bones.add(base * class.p, k, &st, s, &ends, verdicts);
                place.note(rec as u32, l, base * class.p * s);
                for (j, row) in class.pos.iter().enumerate() {
                    if !row[lu].is_zero() {
                        place.special(l0 + j as u32, base * row[lu] * s);
                    }
                }
            }
        }
    }
}

/// For each state, the first edge (from a state `alpha` reaches) into it.
fn predecessors(run: &Enumeration, alpha: &[Vec<W>]) -> Vec<Vec<Option<usize>>> {
    let mut preds: Vec<Vec<Option<usize>>> = run
        .layers
        .iter()
        .map(|l| vec![None; l.states.len()])
        .collect();
    for (i, layer) in run.layers.iter().enumerate() {
        if i + 1 >= run.layers.len() {
            break;
        }
        for (ei, e) in layer.edges.iter().enumerate() {
            if let To::State(t) = e.to {
                if alpha[i][e.from as usize].v > 0.0 && preds[i + 1][t as usize].is_none() {
                    preds[i + 1][t as usize] = Some(ei);
                }
            }
        }
    }
    preds
}

fn describe_range(res: &Resolver, l: usize) -> String {
    let rec = &res.levels[l];
    if rec.chain >= 0 {
        format!("chained + ({}, {})", rec.range.base, rec.range.rand)
    } else {
        format!("@ ({}, {})", rec.range.base, rec.range.rand)
    }
}

/// One step of an outcome, in words.
fn describe(res: &Resolver, run: &Enumeration, rec: usize, e: &Edge) -> String {
    let d = &res.dungeons[rec];
    let Some(info) = run.layers[rec].info(e) else {
        return format!("\"{}\" does not exist (chance roll)", d.name);
    };
    let mut s = format!("\"{}\" has {} levels", d.name, info.n);
    if let Some(b) = info.branch {
        s += &entered_from(res, run, &b);
    }
    let (l0, _) = d.levels;
    let missing: Vec<String> = run
        .pattern(info)
        .iter()
        .enumerate()
        .filter(|(j, on)| !**on && res.levels[l0 as usize + j].chance > 0)
        .map(|(j, _)| format!("\"{}\"", res.levels[l0 as usize + j].name))
        .collect();
    if !missing.is_empty() {
        s += &format!(", without {} (chance roll)", missing.join(", "));
    }
    if let Some(class) = run
        .placements
        .get(info.placement as usize)
        .and_then(|p| p.classes.get(info.class as usize))
    {
        let placed: Vec<String> = (0..run.pattern(info).len())
            .filter_map(|j| {
                let mut ls = class.pos[j]
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| !w.is_zero());
                let (l, _) = ls.next()?;
                // Only levels this outcome pins down.
                ls.next()
                    .is_none()
                    .then(|| format!("\"{}\" on level {l}", res.levels[l0 as usize + j].name))
            })
            .collect();
        if !placed.is_empty() {
            s += &format!(", {}", placed.join(", "));
        }
    }
    s
}

/// Where a branch leaves from, in words; a deferred run's branch may leave
/// from any of its levels.
fn entered_from(res: &Resolver, run: &Enumeration, b: &BranchInfo) -> String {
    let parent = &res.dungeons[b.parent as usize].name;
    match b.spread.and_then(|id| run.spreads.get(id as usize)) {
        Some(sp) if sp.member && sp.at.len() > 1 => {
            let (lo, hi) = sp.at.iter().fold((i32::MAX, i32::MIN), |(lo, hi), x| {
                (lo.min(x.level), hi.max(x.level))
            });
            format!(", entered from one of levels {lo}-{hi} of \"{parent}\"")
        }
        _ => format!(", entered from level {} of \"{parent}\"", b.level),
    }
}

fn path_to(
    res: &Resolver,
    run: &Enumeration,
    preds: &[Vec<Option<usize>>],
    layer: usize,
    state: usize,
) -> Vec<String> {
    let mut steps = Vec::new();
    let (mut i, mut st) = (layer, state);
    while i > 0 {
        let Some(ei) = preds[i][st] else { break };
        let e = &run.layers[i - 1].edges[ei];
        steps.push(describe(res, run, i - 1, e));
        st = e.from as usize;
        i -= 1;
    }
    steps.reverse();
    steps
}

/// A concrete failing outcome: the steps that lead to it and why it fails.
fn example(
    res: &Resolver,
    run: &Enumeration,
    preds: &[Vec<Option<usize>>],
    layer: usize,
    ei: usize,
) -> String {
    let e = &run.layers[layer].edges[ei];
    let To::Fail(key) = &e.to else {
        return String::new();
    };
    let mut steps = path_to(res, run, preds, layer, e.from as usize);
    let d = &res.dungeons[layer];
    let info = run.layers[layer].info(e);
    let head = match info {
        Some(info) => {
            let mut s = format!("\"{}\" has {} levels", d.name, info.n);
            if let Some(b) = info.branch {
                s += &entered_from(res, run, &b);
            }
            s
        }
        None => format!("\"{}\"", d.name),
    };
    let (l0, _) = d.levels;
    let why = match FailCode::from_code(key.code) {
        Some(FailCode::CouldntPlace) => {
            let present: Vec<String> = info
                .map(|info| {
                    run.pattern(info)
                        .iter()
                        .enumerate()
                        .filter(|(_, on)| **on)
                        .map(|(j, _)| {
                            format!(
                                "\"{}\" {}",
                                res.levels[l0 as usize + j].name,
                                describe_range(res, l0 as usize + j)
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!(
                "{head}: its special levels {} cannot all be placed",
                present.join(", ")
            )
        }
        Some(FailCode::KnoxNotReachable) => {
            format!("{head}: the level named \"knox\" does not lie where the branch into its dungeon arrives")
        }
        _ => {
            let code = key.code;
            let what = key.level.map_or_else(
                || "the branch into it".to_string(),
                |l| {
                    format!(
                        "level \"{}\" {}",
                        res.levels[l as usize].name,
                        describe_range(res, l as usize)
                    )
                },
            );
            format!("{head}: {what} fails ({code})")
        }
    };
    steps.push(why);
    steps.join("; ")
}
