//! Runs of side branches whose levels the enumeration defers
//! ([`crate::engine`]'s notes): which dungeon records form one, and the
//! joint chances of the levels its branches take.
//!
//! A run's *members* each hang off the same earlier parent by one
//! unchained branch, one after another. A member may lead on to *subs*:
//! leaf dungeons entered from it, between the members or later
//! (notdNetHack's Sacristy under The Void, the Gnomish Mines' Vlad's
//! Tower). A sub's own outcomes do not depend on where its member leaves
//! the parent, only its depths do, shifted with its member's; so the
//! member's level can stay spread over its chances, and its dungeon's
//! state holds one depth instead of one per level (the Mines' three). A
//! single member is a run when it has subs. A member whose
//! dungeon's one level holds a floating level (Fort Ludios' `knox`)
//! takes a level of the parent while the game loads (later branches probe
//! around it) but the game moves that end off the map afterwards
//! (`init_dungeons`' knox kludge, dNAO `src/dungeon.c:1062-1077`), so it
//! counts for the probes and not as a branch level.

use super::fxhash::FxHashMap;
use super::weight::W;
use dgnkit_loader::Resolver;

/// Where a dungeon record stands in a deferred run of side branches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunPos {
    /// The run's first record, its number of members, and the record after
    /// its last member.
    pub first: u32,
    pub len: u8,
    pub end: u32,
    /// The member's place among the members.
    pub pos: u8,
}

/// The joint chances of the levels of a deferred run of side branches,
/// from one set of taken levels: per member, the chance of each level,
/// and the chance that it is the first member of the run to end there
/// (floating members end nowhere).
#[derive(Clone, Debug)]
pub struct RunDist {
    pub marg: Vec<Vec<(i32, W)>>,
    pub first: Vec<Vec<(i32, W)>>,
    /// Every level a member may take (with a chance above zero: a level
    /// taken before the run is taken again only when its range is full).
    pub span: u64,
}

/// The deferred runs of side branches of a file: per dungeon record, its place in a run if it is a
/// member, and per run (by its first record) its members in order and its
/// subs.
pub(crate) struct Runs {
    pub pos: Vec<Option<RunPos>>,
    pub members: FxHashMap<u32, Vec<u32>>,
    pub subs: FxHashMap<u32, Vec<u32>>,
}

/// Whether every level of dungeon record `d` is its first and its entry:
/// always one level, entered at it.
fn one_level(res: &Resolver, d: usize) -> bool {
    let d = &res.dungeons[d];
    // The entry is clamped to the size; a Quest may be made larger.
    d.size.base == 1 && d.size.rand == 0 && !d.is_quest
}

/// The runs whose branches may be deferred: members are records that are
/// the only one of a dungeon that always exists, entered by a single
/// unchained branch from the same earlier parent, with no `dummy` level
/// (whose fix-up reads the depth), not unconnected and without
/// alternates, either with no floating level or of one level that always
/// exists, and leading on only to subs. Subs are leaf records entered by a
/// single branch from a member, that always exist, with no floating or
/// `dummy` level and without alternates. Whether a run is deferred is
/// decided per state.
pub(crate) fn find_runs(
    res: &Resolver,
    live_until: &[i64],
    skip_dungeon_chance: bool,
    skip_level_chance: bool,
) -> Runs {
    let nd = res.dungeons.len();
    let single = |r: usize| -> Option<(u32, u32)> {
        let d = &res.dungeons[r];
        let &[(b, owner)] = d.incoming.as_slice() else {
            return None;
        };
        // Without a chance (0) the dungeon is made without a roll, or with
        // a roll of 100.
        let sure = skip_dungeon_chance || d.chance == 0 || d.chance >= 100;
        (r > 0
            && (owner as usize) < r
            && sure
            && !(res.rules.alternates && d.alternates > 0)
            && !(res.rules.unconnected && d.unconnected))
            .then_some((b, owner))
    };
    let levels = |r: usize| {
        let d = &res.dungeons[r];
        &res.levels[d.levels.0 as usize..d.levels.1 as usize]
    };
    let sub_of = |r: usize| -> Option<u32> {
        let (_, owner) = single(r)?;
        let leaf = live_until[r] <= r as i64;
        (leaf
            && levels(r)
                .iter()
                .all(|l| l.floating.is_none() && !l.is_dummy))
        .then_some(owner)
    };
    // Per record: the records entered from it, when all are subs.
    let mut children: Vec<Option<Vec<u32>>> = vec![Some(Vec::new()); nd];
    for (c, d) in res.dungeons.iter().enumerate() {
        for &(_, owner) in &d.incoming {
            let slot = &mut children[owner as usize];
            match (sub_of(c), slot.as_mut()) {
                (Some(o), Some(v)) if o == owner => v.push(c as u32),
                _ => *slot = None,
            }
        }
    }
    let member_of = |r: usize| -> Option<u32> {
        let (b, owner) = single(r)?;
        let lv = levels(r);
        let floats_ok = lv.iter().all(|l| l.floating.is_none())
            || (one_level(res, r)
                && lv
                    .iter()
                    .filter(|l| l.floating.is_some())
                    .all(|l| skip_level_chance || l.chance >= 100));
        (res.rules.avoid_branch_levels
            && res.branches[b as usize].chain < 0
            && floats_ok
            && children[r].is_some()
            && lv.iter().all(|l| !l.is_dummy))
        .then_some(owner)
    };
    let mut runs = Runs {
        pos: vec![None; nd],
        members: FxHashMap::default(),
        subs: FxHashMap::default(),
    };
    // A sub of one run is not a member of another (its depths are its
    // member's spread, not its own).
    let mut claimed = vec![false; nd];
    let free_member = |r: usize, claimed: &[bool]| member_of(r).filter(|_| !claimed[r]);
    let mut r = 0;
    while r < nd {
        let Some(p) = free_member(r, &claimed) else {
            r += 1;
            continue;
        };
        let mut members = vec![r];
        let mut next = r + 1;
        while next < nd && members.len() < usize::from(u8::MAX) {
            if free_member(next, &claimed) == Some(p) {
                members.push(next);
            } else if !sub_of(next).is_some_and(|o| members.contains(&(o as usize))) {
                break;
            }
            next += 1;
        }
        let end = members[members.len() - 1] + 1;
        let subs: Vec<u32> = members
            .iter()
            .flat_map(|&m| children[m].iter().flatten().copied())
            .collect();
        if members.len() >= 2 || !subs.is_empty() {
            for (pos, &m) in members.iter().enumerate() {
                runs.pos[m] = Some(RunPos {
                    first: r as u32,
                    len: members.len() as u8,
                    end: end as u32,
                    pos: pos as u8,
                });
            }
            for &c in &subs {
                claimed[c as usize] = true;
            }
            runs.members
                .insert(r as u32, members.iter().map(|&m| m as u32).collect());
            runs.subs.insert(r as u32, subs);
        }
        r = end;
    }
    runs
}

/// The level a branch over `count` levels from `base` takes for draw `j`,
/// skipping levels in `avoid` (3.6's `parent_dlevel`, `dungeon.c`): the
/// first free one after the drawn one, round the range, or the drawn one.
pub(crate) fn probe(avoid: u64, base: i32, count: i32, j: i32) -> i32 {
    let mut k = j;
    loop {
        k += 1;
        if k >= count {
            k = 0;
        }
        if avoid & bit(base + k) == 0 || k == j {
            break;
        }
    }
    base + k
}

/// Every level [`probe`] gives over the `count` draws from `base`, with
/// how many draws give it: a free level takes the draws from the free
/// level before it (cyclically) up to the level before it; with no level
/// free each draw gives its own level.
fn landings(avoid: u64, base: i32, count: i32, mut f: impl FnMut(i32, u64)) {
    let free = |k: i32| avoid & bit(base + k) == 0;
    let Some(last) = (0..count).rev().find(|&k| free(k)) else {
        for k in 0..count {
            f(base + k, 1);
        }
        return;
    };
    let mut prev = last - count;
    for k in 0..=last {
        if free(k) {
            f(base + k, (k - prev) as u64);
            prev = k;
        }
    }
}

pub(crate) fn bit(level: i32) -> u64 {
    if (1..64).contains(&level) {
        1u64 << level
    } else {
        0
    }
}

/// Sets of taken levels followed at most, per member, by [`run_dist`].
const MAX_RUN_SETS: usize = 1 << 16;

/// The joint chances of a run's levels: `ranges` per member (`(base,
/// count)`, counts at least 1, `sequences` their product), the parent's
/// taken levels `avoid`, and per member whether it floats (`floats`).
/// `count` narrows a level as the game's field does. Forward over the
/// members, merging sequences that leave the same levels taken (and the
/// same of them ends); `None` past [`MAX_RUN_SETS`] such sets.
pub(crate) fn run_dist(
    ranges: &[(i32, i32)],
    sequences: u64,
    avoid: u64,
    floats: &[bool],
    count: impl Fn(i32) -> i32,
) -> Option<RunDist> {
    let k = ranges.len();
    let mut marg = vec![Tally::default(); k];
    let mut firsts = vec![Tally::default(); k];
    // A set stands for its number of sequences of the draws so far, and
    // each of those for every sequence of the later draws.
    let below: Vec<u64> = (0..k)
        .map(|i| ranges[i + 1..].iter().map(|&(_, c)| c as u64).product())
        .collect();
    // Which earlier members took a level only matters for the first to end
    // there when a member may find its whole range taken (then `probe`
    // gives the drawn level again); otherwise every member lands on a free
    // level, a first, and sets that differ only in who took what merge.
    let identity = ranges
        .iter()
        .all(|&(base, n)| (base..base + n).all(|l| count(l) == l));
    let track = !(identity
        && ranges.iter().enumerate().all(|(i, &(base, n))| {
            let mask = (base..base + n).fold(0, |m, l| m | bit(l));
            (avoid & mask).count_ones() as usize + i < n as usize
        }));
    if !track {
        untracked(
            ranges,
            below,
            avoid,
            floats,
            &count,
            [&mut marg, &mut firsts],
        )?;
        return Some(finish(marg, firsts, sequences));
    }
    let mut sets: FxHashMap<(u64, u64), u64> = FxHashMap::default();
    sets.insert((avoid, 0), 1);
    for (i, &(base, n)) in ranges.iter().enumerate() {
        let mut next: FxHashMap<(u64, u64), u64> = FxHashMap::default();
        let ends = !floats[i];
        for (&(avoid, taken), &w) in &sets {
            landings(avoid, base, n, |raw, c| {
                let level = count(raw);
                let wc = w * c;
                marg[i].add(level, wc * below[i]);
                if ends && taken & bit(level) == 0 {
                    firsts[i].add(level, wc * below[i]);
                }
                if i + 1 < k {
                    let taken = if ends && track {
                        taken | bit(level)
                    } else {
                        taken
                    };
                    *next.entry((avoid | bit(level), taken)).or_default() += wc;
                }
            });
        }
        if next.len() > MAX_RUN_SETS {
            return None;
        }
        sets = next;
    }
    Some(finish(marg, firsts, sequences))
}

fn finish(marg: Vec<Tally>, firsts: Vec<Tally>, sequences: u64) -> RunDist {
    let span = marg
        .iter()
        .flat_map(|m| m.levels())
        .fold(0, |s, l| s | bit(l));
    RunDist {
        marg: as_chances(marg, sequences),
        first: as_chances(firsts, sequences),
        span,
    }
}

/// [`run_dist`] when who took a level never matters: a set is its taken
/// levels alone, and a member that ends is the first on whatever level it
/// takes (it finds a free one).
fn untracked(
    ranges: &[(i32, i32)],
    below: Vec<u64>,
    avoid: u64,
    floats: &[bool],
    count: &impl Fn(i32) -> i32,
    [marg, firsts]: [&mut [Tally]; 2],
) -> Option<()> {
    let k = ranges.len();
    let mut sets: Vec<(u64, u64)> = vec![(avoid, 1)];
    let mut next: FxHashMap<u64, u64> = FxHashMap::default();
    for (i, &(base, n)) in ranges.iter().enumerate() {
        let last = if i + 3 == k
            && ranges[i + 1..] == [(base, n), (base, n)]
            && base >= 1
            && base + n <= 64
        {
            last_triple(&sets, base, n, &mut marg[i..]);
            true
        } else if i + 2 == k && ranges[i + 1] == (base, n) {
            last_pair(&sets, base, n, below[i], &mut marg[i..]);
            true
        } else {
            false
        };
        if last {
            for j in i..k {
                if !floats[j] {
                    firsts[j] = marg[j].clone();
                }
            }
            return Some(());
        }
        let m = &mut marg[i];
        for &(avoid, w) in &sets {
            landings(avoid, base, n, |raw, c| {
                let level = count(raw);
                m.add(level, w * c * below[i]);
                if i + 1 < k {
                    *next.entry(avoid | bit(level)).or_default() += w * c;
                }
            });
        }
        if !floats[i] {
            firsts[i] = m.clone();
        }
        if next.len() > MAX_RUN_SETS {
            return None;
        }
        sets.clear();
        sets.extend(next.drain());
    }
    Some(())
}

/// The last two members of a run, when they share a range and no member
/// finds its range full (nor needs telling who took a level): counted
/// straight from the sets before them, without the sets between them,
/// which are the most (a level free before the pair, `g` draws landing on
/// it and `h` on the free level before it, gets `g * (n - g) + h * h` of
/// the second member's `n * n` pairs of draws: `g` of each draw of the
/// first that leaves it free and does not take the level before it, and
/// `g + h` of the `h` draws that take that level).
fn last_pair(sets: &[(u64, u64)], base: i32, n: i32, below: u64, marg: &mut [Tally]) {
    let (first, second) = marg.split_at_mut(1);
    let (first, second) = (&mut first[0], &mut second[0]);
    let mut free: Vec<(i32, u64)> = Vec::with_capacity(n as usize);
    for &(avoid, w) in sets {
        free.clear();
        landings(avoid, base, n, |level, g| free.push((level, g)));
        // Two free levels at least: the second member finds one free.
        debug_assert!(free.len() >= 2);
        let Some(&(_, mut h)) = free.last() else {
            continue;
        };
        for &(level, g) in &free {
            first.add(level, w * g * below);
            second.add(level, w * (g * (n as u64 - g) + h * h));
            h = g;
        }
    }
}

/// The last three members of a run, when they share a range within the
/// levels a mask holds and none finds its range full (as for
/// [`last_pair`]): counted from the sets before them. The first takes a
/// free level `j` with `g_j` of its draws, which leaves the next free
/// level `g_j + g_{j+1}` draws and changes no other: the pair after it,
/// summed over the first's levels, is [`last_pair`]'s sum with the gaps of
/// the two free levels before each level changed in turn (with `g_1` and
/// `g_2` the gaps of the free level before `j` and the one before that):
/// the second member's `n * n` triples of draws at `j` are `g_j (n - g_j -
/// g_1) + g_1 (g_j + g_1)` times `n`, the third's `g_1 ((g_j + g_1) (n -
/// g_j - g_1) + g_2^2) + g_2 (g_j (n - g_j) + (g_1 + g_2)^2) + (n - g_j -
/// g_1 - g_2) (g_j (n - g_j) + g_1^2)`.
fn last_triple(sets: &[(u64, u64)], base: i32, n: i32, marg: &mut [Tally]) {
    let [a, b, c] = marg else {
        return;
    };
    let n = n as u64;
    let mut gaps: Vec<(i32, u64)> = Vec::with_capacity(n as usize);
    for &(avoid, w) in sets {
        gaps.clear();
        landings(avoid, base, n as i32, |level, g| gaps.push((level, g)));
        let m = gaps.len();
        // Three free levels at least: the last member finds one free.
        debug_assert!(m >= 3);
        if m < 3 {
            continue;
        }
        let (mut g2, mut g1) = (gaps[m - 2].1, gaps[m - 1].1);
        for &(level, g) in &gaps {
            a.add(level, w * g * n * n);
            b.add(level, w * n * (g * (n - g - g1) + g1 * (g + g1)));
            let after = g * (n - g);
            c.add(
                level,
                w * (g1 * ((g + g1) * (n - g - g1) + g2 * g2)
                    + g2 * (after + (g1 + g2) * (g1 + g2))
                    + (n - g - g1 - g2) * (after + g1 * g1)),
            );
            (g2, g1) = (g1, g);
        }
    }
}

/// Counts of sequences by level, per member, as chances in level order.
fn as_chances(m: Vec<Tally>, sequences: u64) -> Vec<Vec<(i32, W)>> {
    m.into_iter()
        .map(|m| {
            m.counts()
                .into_iter()
                .map(|(l, c)| (l, W::ratio(c, sequences)))
                .collect()
        })
        .collect()
}

/// Counts of sequences by level: the levels a dungeon has (`0..64`) in an
/// array, for the inner loop of [`run_dist`]; any other a field's narrowing
/// may give in a map.
#[derive(Clone)]
struct Tally {
    dense: [u64; 64],
    other: FxHashMap<i32, u64>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            dense: [0; 64],
            other: FxHashMap::default(),
        }
    }
}

impl Tally {
    fn add(&mut self, level: i32, n: u64) {
        match usize::try_from(level) {
            Ok(l) if l < 64 => self.dense[l] += n,
            _ => *self.other.entry(level).or_default() += n,
        }
    }

    /// The levels counted (every count is at least 1), with their counts,
    /// in level order.
    fn counts(&self) -> Vec<(i32, u64)> {
        let mut all: Vec<(i32, u64)> = self.other.iter().map(|(&l, &c)| (l, c)).collect();
        all.extend(
            self.dense
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c != 0)
                .map(|(l, &c)| (l as i32, c)),
        );
        all.sort_unstable_by_key(|&(l, _)| l);
        all
    }

    fn levels(&self) -> impl Iterator<Item = i32> {
        self.counts().into_iter().map(|(l, _)| l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The joint chances by every sequence of draws, one by one.
    fn by_sequences(ranges: &[(i32, i32)], avoid: u64, floats: &[bool]) -> RunDist {
        let k = ranges.len();
        let sequences: u64 = ranges.iter().map(|&(_, c)| c as u64).product();
        let mut marg = vec![Tally::default(); k];
        let mut firsts = vec![Tally::default(); k];
        let mut draws = vec![0i32; k];
        'all: loop {
            let (mut avoid, mut taken) = (avoid, 0u64);
            for (i, (&(base, n), &j)) in ranges.iter().zip(&draws).enumerate() {
                let level = probe(avoid, base, n, j);
                marg[i].add(level, 1);
                if !floats[i] && taken & bit(level) == 0 {
                    firsts[i].add(level, 1);
                }
                avoid |= bit(level);
                if !floats[i] {
                    taken |= bit(level);
                }
            }
            for i in (0..k).rev() {
                draws[i] += 1;
                if draws[i] < ranges[i].1 {
                    continue 'all;
                }
                draws[i] = 0;
            }
            break;
        }
        RunDist {
            marg: as_chances(marg, sequences),
            first: as_chances(firsts, sequences),
            span: 0,
        }
    }

    fn same(a: &[Vec<(i32, W)>], b: &[Vec<(i32, W)>]) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|(p, q)| p.0 == q.0 && (p.1.v - q.1.v).abs() < 1e-12)
            })
    }

    /// [`run_dist`] and [`by_sequences`], which must agree.
    fn against_sequences(
        ranges: &[(i32, i32)],
        avoid: u64,
        floats: &[bool],
    ) -> Result<(RunDist, RunDist), TestCaseError> {
        let sequences = ranges.iter().map(|&(_, c)| c as u64).product();
        let dist = run_dist(ranges, sequences, avoid, floats, |v| v).expect("small");
        let want = by_sequences(ranges, avoid, floats);
        prop_assert!(
            same(&dist.marg, &want.marg),
            "{:?} vs {:?}",
            dist.marg,
            want.marg
        );
        prop_assert!(
            same(&dist.first, &want.first),
            "{:?} vs {:?}",
            dist.first,
            want.first
        );
        Ok((dist, want))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The draws counted by level are the draws probed one by one.
        #[test]
        fn landings_count_the_probes(base in -3i32..70, count in 1i32..40, avoid: u64) {
            let mut want = std::collections::BTreeMap::new();
            for j in 0..count {
                *want.entry(probe(avoid, base, count, j)).or_insert(0u64) += 1;
            }
            let mut got = Vec::new();
            landings(avoid, base, count, |l, c| got.push((l, c)));
            let levels: std::collections::BTreeSet<i32> = got.iter().map(|&(l, _)| l).collect();
            prop_assert_eq!(levels.len(), got.len(), "a level given twice: {:?}", got);
            prop_assert_eq!(got.into_iter().collect::<std::collections::BTreeMap<_, _>>(), want);
        }

        /// Merging sequences by the levels they leave taken gives what
        /// every sequence gives, floating members and full ranges included.
        #[test]
        fn merged_sets_give_every_sequence_s_chances(
            members in proptest::collection::vec((1i32..8, 1i32..5, proptest::bool::weighted(0.3)), 1..5),
            avoid in 0u64..(1 << 12),
        ) {
            let ranges: Vec<(i32, i32)> = members.iter().map(|&(b, c, _)| (b, c)).collect();
            let floats: Vec<bool> = members.iter().map(|&(_, _, f)| f).collect();
            let (dist, want) = against_sequences(&ranges, avoid << 1, &floats)?;
            let span = want.marg.iter().flatten().fold(0, |s, &(l, _)| s | bit(l));
            prop_assert_eq!(dist.span, span);
        }

        /// Runs whose last members share a range, as dNetHack's three
        /// `@ (5, 25)` side branches do, counted without the sets between
        /// the last two (floating members and ranges that may fill too).
        #[test]
        fn last_pair_gives_every_sequence_s_chances(
            members in proptest::collection::vec((1i32..10, 1i32..6, proptest::bool::weighted(0.3)), 0..3),
            last in (1i32..10, 2i32..9),
            floats in (proptest::bool::weighted(0.3), proptest::bool::weighted(0.3)),
            avoid in 0u64..(1 << 16),
        ) {
            let mut ranges: Vec<(i32, i32)> = members.iter().map(|&(b, c, _)| (b, c)).collect();
            let mut fl: Vec<bool> = members.iter().map(|&(_, _, f)| f).collect();
            ranges.extend([last, last]);
            fl.extend([floats.0, floats.1]);
            against_sequences(&ranges, avoid << 1, &fl)?;
        }

        /// Runs whose last three members share a range, as dNetHack's
        /// three `@ (5, 25)` side branches do, counted from the sets before
        /// the three.
        #[test]
        fn last_triple_gives_every_sequence_s_chances(
            members in proptest::collection::vec((1i32..10, 1i32..6, proptest::bool::weighted(0.3)), 0..3),
            last in (1i32..10, 3i32..8),
            floats in (proptest::bool::weighted(0.3), proptest::bool::weighted(0.3), proptest::bool::weighted(0.3)),
            avoid in 0u64..(1 << 16),
        ) {
            let mut ranges: Vec<(i32, i32)> = members.iter().map(|&(b, c, _)| (b, c)).collect();
            let mut fl: Vec<bool> = members.iter().map(|&(_, _, f)| f).collect();
            ranges.extend([last, last, last]);
            fl.extend([floats.0, floats.1, floats.2]);
            against_sequences(&ranges, avoid << 1, &fl)?;
        }
    }
}
