//! Where things can end up: the sizes a dungeon can have, the levels a
//! special level or branch can occupy for a given size (NetHack's
//! `level_range`), entry levels, and the depth at which each dungeon can
//! start. The range, placement, knox and bones checks share these.
//!
//! Everything here is an interval computation over the possible outcomes,
//! not a simulation: exact for absolute ranges, and a sound
//! over-approximation for chains (a chain's positions are the union over
//! every position of its anchor).

use super::Ctx;
use crate::dialect::Limits;
use crate::model::{BranchInfo, Couple, DungeonId, DungeonInfo, LevelId, Model};
use dgnkit_script::BranchType;

/// Most distinct sizes a per-size analysis looks at; dungeons with more
/// (only possible with `--target native`) are skipped by those analyses.
pub const MAX_SIZES: usize = 256;
/// Deepest level a per-size analysis looks at.
pub const MAX_POSITIONS: i64 = 1024;

/// The sizes a dungeon can have: `lo..=hi` equally likely (NetHack's
/// `rn1(rand, base)`), each then cut to `clamp` (MAXLEVEL) by the loader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub lo: i64,
    pub hi: i64,
    pub clamp: Option<i64>,
}

impl Sizes {
    /// `None` when the size is invalid (reported by the range checks).
    pub fn of(d: &DungeonInfo, limits: &Limits) -> Option<Sizes> {
        let c = d.size;
        if c.base < 1 || c.rand < 0 || limits.max_level.is_some_and(|m| c.base > m) {
            return None;
        }
        let hi = if c.rand > 0 {
            c.base.saturating_add(c.rand - 1)
        } else {
            c.base
        };
        Some(Sizes {
            lo: c.base,
            hi,
            clamp: limits.max_level,
        })
    }

    /// Number of equally likely raw outcomes.
    pub fn total(&self) -> u64 {
        (i128::from(self.hi) - i128::from(self.lo) + 1).clamp(0, i128::from(u64::MAX)) as u64
    }

    pub fn effective(&self, raw: i64) -> i64 {
        self.clamp.map_or(raw, |m| raw.min(m))
    }

    pub fn min(&self) -> i64 {
        self.effective(self.lo)
    }

    pub fn max(&self) -> i64 {
        self.effective(self.hi)
    }

    /// How many raw outcomes give a dungeon of at least `n` levels.
    pub fn count_at_least(&self, n: i64) -> u64 {
        if self.clamp.is_some_and(|m| n > m) {
            return 0;
        }
        let from = i128::from(self.lo.max(n));
        (i128::from(self.hi) - from + 1).clamp(0, i128::from(u64::MAX)) as u64
    }

    /// The distinct sizes with the number of raw outcomes giving each, when
    /// there are at most [`MAX_SIZES`] of them and none is deeper than
    /// [`MAX_POSITIONS`].
    pub fn distinct(&self) -> Option<Vec<(i64, u64)>> {
        if self.max() > MAX_POSITIONS {
            return None;
        }
        let mut out: Vec<(i64, u64)> = Vec::new();
        let last_raw = self.hi.min(self.lo.saturating_add(MAX_SIZES as i64 * 4));
        for raw in self.lo..=last_raw {
            let s = self.effective(raw);
            match out.last_mut() {
                Some((prev, w)) if *prev == s => *w += 1,
                _ => out.push((s, 1)),
            }
            if out.len() > MAX_SIZES {
                return None;
            }
        }
        if last_raw < self.hi {
            // Only a clamp makes the tail collapse onto one size.
            match (self.clamp, out.last_mut()) {
                (Some(m), Some((prev, w))) if *prev == m => *w += (self.hi - last_raw) as u64,
                _ => return None,
            }
        }
        Some(out)
    }

    /// "25-29" or "25".
    pub fn describe(&self) -> String {
        describe_range(self.min(), self.max())
    }
}

pub fn describe_range(lo: i64, hi: i64) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}-{hi}")
    }
}

/// Levels `lo..=hi` that a range covers once its adjusted base is known
/// (the count part of NetHack's `level_range`).
fn covered(base: i64, rand: i64, size: i64) -> (i64, i64) {
    let count = match rand {
        -1 => size - base + 1,
        r if r > 0 => {
            if base.saturating_add(r - 1) > size {
                size - base + 1
            } else {
                r
            }
        }
        _ => 1,
    };
    (base, base + count - 1)
}

/// The levels an absolute couple covers in a dungeon of `size` levels, or
/// `None` when its base lies outside the dungeon (the loader panics).
pub fn absolute(c: &Couple, size: i64) -> Option<(i64, i64)> {
    let base = if c.base < 0 {
        size.saturating_add(c.base).saturating_add(1)
    } else {
        c.base
    };
    if base < 1 || base > size {
        return None;
    }
    Some(covered(base, c.rand, size))
}

/// The levels a relative couple covers when its anchor is anywhere in
/// `anchor` (a range), or `None` when no anchor position puts its base
/// inside the dungeon. The second value says whether every anchor position
/// does.
pub fn relative(c: &Couple, anchor: (i64, i64), size: i64) -> Option<((i64, i64), bool)> {
    let first = anchor.0.saturating_add(c.base);
    let last = anchor.1.saturating_add(c.base);
    let lo = first.max(1);
    let hi_base = last.min(size);
    if lo > hi_base {
        return None;
    }
    let all = first >= 1 && last <= size;
    Some(((lo, covered(hi_base, c.rand, size).1), all))
}

/// Where each level of a dungeon can be, for one dungeon size.
pub struct Positions<'m> {
    model: &'m Model,
    size: i64,
    /// Per level (by index): not yet computed, or its levels.
    memo: Vec<Option<Option<(i64, i64)>>>,
}

impl<'m> Positions<'m> {
    pub fn new(model: &'m Model, size: i64) -> Self {
        Positions {
            model,
            size,
            memo: vec![None; model.levels.len()],
        }
    }

    pub fn size(&self) -> i64 {
        self.size
    }

    /// The levels `level` can occupy (ignoring the other special levels), or
    /// `None` when its range never fits for this size.
    pub fn level(&mut self, level: LevelId) -> Option<(i64, i64)> {
        if let Some(Some(known)) = self.memo.get(level.index()) {
            return *known;
        }
        let l = self.model.level(level);
        let result = match l.chain.as_ref().map(|c| c.target) {
            None => absolute(&l.placement, self.size),
            Some(t) => match t.resolved() {
                // Anchors come earlier in the file, so this recursion ends.
                Some(anchor) if anchor < level => self
                    .level(anchor)
                    .and_then(|a| relative(&l.placement, a, self.size))
                    .map(|(r, _)| r),
                _ => None,
            },
        };
        if let Some(slot) = self.memo.get_mut(level.index()) {
            *slot = Some(result);
        }
        result
    }

    /// The levels a branch's parent end can be on.
    pub fn branch(&mut self, b: &BranchInfo) -> Option<(i64, i64)> {
        match b.chain.as_ref().map(|c| c.target) {
            None => absolute(&b.placement, self.size),
            Some(t) => match t.resolved() {
                Some(anchor) => self
                    .level(anchor)
                    .and_then(|a| relative(&b.placement, a, self.size))
                    .map(|(r, _)| r),
                None => None,
            },
        }
    }
}

/// The branch through which NetHack's loader connects a dungeon to its
/// parent: the first branch of the file that names it and leaves an
/// earlier dungeon.
pub fn parent_branch(model: &Model, d: DungeonId) -> Option<&BranchInfo> {
    // Branches to a name are recorded on the first dungeon of that name.
    let canonical = model.dungeon(d).first_of_name.unwrap_or(d);
    model
        .dungeon(canonical)
        .incoming
        .iter()
        .map(|&b| model.branch(b))
        .find(|b| b.dungeon < d)
}

/// The entry value of a dungeon: its ENTRY, or (SLASH'EM) the entry level
/// written on the branch that leads to it.
pub fn entry_value(ctx: &Ctx, d: DungeonId) -> i64 {
    if ctx.dialect.features().branch_entry {
        if let Some(e) = parent_branch(ctx.model, d).and_then(|b| b.entry) {
            return e.value;
        }
    }
    ctx.model.dungeon(d).entry.map_or(0, |e| e.value)
}

/// The level a branch into the dungeon arrives at, for a dungeon of `size`
/// levels, as the loader works it out: a positive value beyond the bottom
/// is cut to it (3.4.3 `src/dungeon.c:757-760`, 3.6 `:833-835`;
/// `entry-beyond-bottom` warns when it must be).
pub fn entry_level(entry: i64, size: i64) -> i64 {
    match entry {
        e if e < 0 => size.saturating_add(e).saturating_add(1).max(1),
        0 => 1,
        e => e.min(size.max(1)),
    }
}

/// For every dungeon, the range of depths its level 1 can have
/// (`depth_start`), or `None` when it cannot be worked out (no parent, an
/// invalid range).
pub fn depth_starts(ctx: &Ctx) -> Vec<Option<(i64, i64)>> {
    let model = ctx.model;
    let mut out: Vec<Option<(i64, i64)>> = Vec::with_capacity(model.dungeons.len());
    for d in &model.dungeons {
        let start = if d.id.0 == 0 {
            Some((1, 1))
        } else {
            depth_start(ctx, d, &out)
        };
        out.push(start);
    }
    out
}

fn depth_start(ctx: &Ctx, d: &DungeonInfo, known: &[Option<(i64, i64)>]) -> Option<(i64, i64)> {
    let model = ctx.model;
    let b = parent_branch(model, d.id)?;
    let parent = model.dungeon(b.dungeon);
    let (ps_lo, ps_hi) = (*known.get(b.dungeon.index())?)?;
    let sizes = Sizes::of(parent, &ctx.limits)?.distinct()?;
    let mut span: Option<(i64, i64)> = None;
    for (s, _) in sizes {
        if let Some((lo, hi)) = Positions::new(model, s).branch(b) {
            span = Some(span.map_or((lo, hi), |(a, z)| (a.min(lo), z.max(hi))));
        }
    }
    let (l_lo, l_hi) = span?;
    let delta = match (b.branch_type, b.up) {
        (Some(BranchType::Portal), _) => 0,
        (_, true) => -1,
        _ => 1,
    };
    let own = Sizes::of(d, &ctx.limits)?;
    let e = entry_value(ctx, d.id);
    let (e_lo, e_hi) = (entry_level(e, own.min()), entry_level(e, own.max()));
    let (e_lo, e_hi) = (e_lo.min(e_hi), e_lo.max(e_hi));
    // Entry values are not bounded; saturate rather than overflow.
    let lo = ps_lo
        .saturating_add(l_lo - 1 + delta)
        .saturating_sub(e_hi.saturating_sub(1));
    let hi = ps_hi
        .saturating_add(l_hi - 1 + delta)
        .saturating_sub(e_lo.saturating_sub(1));
    // The loader's dummy-level fix-up (the Elemental Planes): with a level
    // named "dummy", a dungeon that would reach depth 1 or above starts one
    // higher. Whether it applies depends on the size (and on the level's
    // chance), so each bound moves only where it can.
    let dummy = model
        .levels_of(d.id)
        .filter(|l| l.name.bytes == b"dummy")
        .map(|l| l.chance_value())
        .max();
    let (lo, hi) = match dummy {
        Some(chance) if chance > 0 => {
            let lo = if own.max() > 1i64.saturating_sub(lo) {
                lo.saturating_sub(1)
            } else {
                lo
            };
            let hi = if chance >= 100 && own.min() > 1i64.saturating_sub(hi) {
                hi.saturating_sub(1)
            } else {
                hi
            };
            (lo, hi)
        }
        _ => (lo, hi),
    };
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgnkit_grammar::Span;

    fn c(base: i64, rand: i64) -> Couple {
        Couple {
            base,
            rand,
            span: Span::default(),
            base_span: Span::default(),
            rand_span: Span::default(),
        }
    }

    #[test]
    fn level_range_matches_nethack() {
        assert_eq!(absolute(&c(5, 5), 25), Some((5, 9)));
        assert_eq!(absolute(&c(-1, 0), 25), Some((25, 25)));
        assert_eq!(absolute(&c(-5, 4), 25), Some((21, 24)));
        assert_eq!(absolute(&c(24, 5), 25), Some((24, 25)));
        assert_eq!(absolute(&c(10, -1), 25), Some((10, 25)));
        assert_eq!(absolute(&c(28, 0), 25), None);
        assert_eq!(absolute(&c(-26, 0), 25), None);
        assert_eq!(relative(&c(1, 0), (5, 9), 25), Some(((6, 10), true)));
        assert_eq!(relative(&c(6, 2), (5, 9), 12), Some(((11, 12), false)));
        assert_eq!(relative(&c(20, 0), (5, 9), 12), None);
    }

    #[test]
    fn sizes_count_outcomes_and_clamp() {
        let s = Sizes {
            lo: 25,
            hi: 29,
            clamp: Some(32),
        };
        assert_eq!(s.total(), 5);
        assert_eq!(s.count_at_least(28), 2);
        assert_eq!(s.count_at_least(20), 5);
        assert_eq!(s.count_at_least(33), 0);
        let big = Sizes {
            lo: 42,
            hi: 46,
            clamp: Some(32),
        };
        assert_eq!(big.distinct(), Some(vec![(32, 5)]));
        let clamped = Sizes {
            lo: 30,
            hi: 34,
            clamp: Some(32),
        };
        assert_eq!(clamped.distinct(), Some(vec![(30, 1), (31, 1), (32, 3)]));
        assert_eq!(clamped.count_at_least(32), 3);
        let huge = Sizes {
            lo: 1,
            hi: 1_000_000,
            clamp: None,
        };
        assert_eq!(huge.distinct(), None);
        assert_eq!(entry_level(-1, 4), 4);
        assert_eq!(entry_level(-9, 4), 1);
    }
}

#[cfg(test)]
mod depth_tests {
    use crate::check::Ctx;
    use crate::dialect::Dialect;

    fn starts(src: &str) -> Vec<Option<(i64, i64)>> {
        let parsed = dgnkit_grammar::parse(src.as_bytes(), &Default::default());
        let model = crate::model::build(&parsed.file, Dialect::Vanilla);
        let ctx = Ctx::new(
            src.as_bytes(),
            &parsed.file,
            &model,
            crate::test_games::FIXED,
            Dialect::Vanilla,
        );
        super::depth_starts(&ctx)
    }

    const PLANES: &str = "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\n\
        BRANCH: \"The Elemental Planes\" @ (1, 0) no_down up\n\
        DUNGEON: \"The Elemental Planes\" \"\" (6, 0)\n\
        ENTRY: -2\n\
        LEVEL: \"astral\" \"none\" @ (1, 0)\n\
        LEVEL: \"water\" \"none\" @ (2, 0)\n\
        LEVEL: \"fire\" \"none\" @ (3, 0)\n\
        LEVEL: \"air\" \"none\" @ (4, 0)\n\
        LEVEL: \"earth\" \"none\" @ (5, 0)\n";

    #[test]
    fn the_dummy_level_moves_the_planes_up_as_the_loader_does() {
        // Entry 5 of 6 one above level 1: depth_start 0 - 4 = -4; the
        // dummy level makes it -5 (the loader's fix-up; the expected
        // layouts of vanilla 3.6 all have -5).
        let with_dummy = format!("{PLANES}LEVEL: \"dummy\" \"none\" @ (6, 0)\n");
        assert_eq!(starts(&with_dummy)[1], Some((-5, -5)));
        assert_eq!(starts(PLANES)[1], Some((-4, -4)));
        let maybe = format!("{PLANES}LEVEL: \"dummy\" \"none\" @ (6, 0) 50\n");
        assert_eq!(starts(&maybe)[1], Some((-5, -4)));
    }
}
