//! The loader's only way to draw: a generator plus a log ([`Trace`]) that
//! also sees the layout at the loader's checkpoints. [`NoTrace`] compiles
//! to nothing, so a resolution without a log pays neither a branch nor a
//! string per draw.

use crate::{Checkpoint, NonPositiveRn2, Resolved};
use dgnkit_rng::{Draw, Site, Source};
use std::ops::ControlFlow;

/// Receives every draw, and sees the layout at the loader's checkpoints.
pub trait Trace {
    /// Whether the log keeps draws: one that does not lets a run of
    /// draws whose values do not matter be skipped ([`Drawer::skip`]).
    const KEEPS_DRAWS: bool = true;

    fn draw(&mut self, draw: Draw);

    /// The loader reached `at` with the layout so far in `out`; breaking
    /// stops the resolution there (it returns `Ok`, `out` as far as it
    /// went). `dgn find` stops once a query's answer cannot change.
    #[inline(always)]
    fn checkpoint(&mut self, _at: Checkpoint, _out: &Resolved) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// Whether the log looks at the layout between draws ([`Trace::state`]):
    /// a gamelog does, to say what each draw changed.
    const SEES_STATES: bool = false;

    /// The layout so far, between two draws of `init_dungeons()`: before
    /// each draw, and once what a draw decided is in `out` where more
    /// happens before the next draw (a placement try, the castle tune).
    /// Called only when [`Trace::SEES_STATES`].
    #[inline(always)]
    fn state(&mut self, _out: &Resolved) {}
}

/// No log: every call inlines to nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Trace for NoTrace {
    const KEEPS_DRAWS: bool = false;

    #[inline(always)]
    fn draw(&mut self, _draw: Draw) {}
}

impl Trace for Vec<Draw> {
    #[inline]
    fn draw(&mut self, draw: Draw) {
        self.push(draw);
    }
}

/// A generator plus a log: the only way the loader draws.
pub struct Drawer<'a, S: Source, T: Trace> {
    pub source: &'a mut S,
    pub trace: &'a mut T,
}

impl<S: Source, T: Trace> Drawer<'_, S, T> {
    /// `n` draws whose values do not matter, of `bounds[i]` each (1 past
    /// its end, or for a bound the game never passes, 0): logged one by
    /// one where the log keeps draws, else skipped.
    pub fn skip(&mut self, n: u32, bounds: &[u32], site: Site) {
        if T::KEEPS_DRAWS {
            for i in 0..n as usize {
                let bound = bounds.get(i).copied().unwrap_or(1);
                self.rn2(bound.max(1), site);
            }
        } else {
            self.source.skip(n);
        }
    }

    #[inline(always)]
    pub fn rn2(&mut self, n: u32, site: Site) -> u32 {
        let r = self.source.rn2(n);
        self.trace.draw(Draw {
            n: n as i32,
            r,
            site,
        });
        r
    }

    /// dNetHack's `rn2(x)`: `if (x <= 0) x = 1;` before the draw
    /// (dNAO `src/rnd.c:47-62`), so a non-positive argument consumes one
    /// value and gives 0. Logged with the argument as passed.
    #[inline]
    pub fn rn2_any(&mut self, n: i32, site: Site) -> i32 {
        let r = self.source.rn2(n.max(1) as u32);
        self.trace.draw(Draw { n, r, site });
        r as i32
    }

    /// `rn2(n)` for `n < 1`, as the game's `rn2` computes it (`mode`,
    /// [`NonPositiveRn2`]): the `int` it returns, the draw logged with the
    /// argument as passed and that `int` (none for
    /// [`NonPositiveRn2::NoDraw`]). The loader passes no 0 (a `%` by zero
    /// would crash the game); it is taken as 1 here.
    #[cold]
    pub fn rn2_nonpositive(&mut self, n: i32, mode: NonPositiveRn2, site: Site) -> i32 {
        debug_assert!(n < 1);
        let r = match mode {
            NonPositiveRn2::NoDraw => return 0,
            NonPositiveRn2::OneDrawZero => return self.rn2_any(n, site),
            // `random() % (long)n`: the sign of the dividend, |n| apart.
            NonPositiveRn2::OneDrawModulo => self.source.rn2(n.unsigned_abs().max(1)),
            NonPositiveRn2::OneDrawRaw => {
                // `uint64_t % int`: `n` converts to `2^64 - |n|`, and the
                // remainder is cut to the `int` that `rn2` returns.
                let divisor = (i64::from(n) as u64).max(1);
                (self.source.next_raw() % divisor) as u32
            }
        };
        self.trace.draw(Draw { n, r, site });
        r as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgnkit_rng::Glibc;

    #[test]
    fn the_log_records_every_draw_in_order() {
        let mut g = Glibc::new(42);
        let mut log: Vec<Draw> = Vec::new();
        let mut d = Drawer {
            source: &mut g,
            trace: &mut log,
        };
        let a = d.rn2(100, Site::Tune);
        let b = d.rn2(7, Site::Tune);
        assert_eq!(log.len(), 2);
        assert_eq!(log[0].to_string(), format!("rn2(100)={a}"));
        assert_eq!(log[1].to_string(), format!("rn2(7)={b}"));
        assert_eq!(a, 71_876_166 % 100);
    }
}
