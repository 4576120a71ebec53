//! The passes over a layer's edges on the machine's two cores.
//!
//! The backward pass and the core masses sum, per state, over the edges
//! from or into it; states are independent within a layer, so the edges,
//! sorted by the state they are summed into, split into two halves at a
//! state's boundary, each summed on its own thread into its own part of
//! the layer's values. The sums are those of one thread, edge for edge.

use std::cell::Cell;
use std::sync::{mpsc, Mutex, PoisonError};
use std::thread;

thread_local! {
    /// This thread runs beside another that keeps the second core busy
    /// ([`alone`]).
    static ALONE: Cell<bool> = const { Cell::new(false) };
}

/// From now on, this thread runs both halves of its passes itself: it is
/// already the second core's (`crate::follow`).
pub(crate) fn alone() {
    ALONE.with(|a| a.set(true));
}

/// Whether this thread runs both halves itself ([`alone`]).
pub(crate) fn is_alone() -> bool {
    ALONE.with(Cell::get)
}

/// Edges at least, in one layer, worth a second thread.
const SPLIT_AT: usize = 4_096;

/// What [`halves`] sums into: values indexed by key, that split in two at
/// a key.
pub(crate) trait Parts: Send + Sized {
    fn len(&self) -> usize;
    fn split(self, at: usize) -> (Self, Self);
}

impl<T: Send> Parts for &mut [T] {
    fn len(&self) -> usize {
        <[T]>::len(self)
    }

    fn split(self, at: usize) -> (Self, Self) {
        self.split_at_mut(at)
    }
}

/// Calls `f(part, out_part, base)` over `order` (sorted by `key`) and
/// `out`, indexed by `key`: one call on this thread for few edges, else
/// one each for the edges of the keys below a middle key and those of the
/// rest, on two threads, the middle key where half of the edges'
/// `weight`s (the work each takes) lie below it; `base` is the first key
/// `out_part` holds. The results in key order.
pub(crate) fn halves_by<K, P, R>(
    order: &[K],
    key: impl Fn(&K) -> usize,
    weight: impl Fn(&K) -> usize,
    out: P,
    f: impl Fn(&[K], P, usize) -> R + Sync,
) -> Vec<R>
where
    K: Sync,
    P: Parts,
    R: Send,
{
    let mid = if order.len() >= SPLIT_AT {
        let total: usize = order.iter().map(&weight).sum();
        let mut below = 0;
        order
            .iter()
            .position(|k| {
                below += weight(k);
                2 * below >= total
            })
            .unwrap_or(order.len() / 2)
    } else {
        order.len() / 2
    };
    let split = (order.len() >= SPLIT_AT)
        .then(|| key(&order[mid]))
        .filter(|&at| at > 0 && at < out.len());
    let Some(at) = split else {
        return vec![f(order, out, 0)];
    };
    let cut = order.partition_point(|k| key(k) < at);
    let (lo, hi) = order.split_at(cut);
    let (out_lo, out_hi) = out.split(at);
    let f = &f;
    let (second, first) = both(move || f(hi, out_hi, at), || f(lo, out_lo, 0));
    vec![first, second]
}

/// Runs `other` on a second thread while `here` runs on this one; both on
/// this one when no thread can be started (the results are the same).
pub(crate) fn both<A, B, F, G>(other: F, here: G) -> (A, B)
where
    A: Send,
    F: FnOnce() -> A + Send,
    G: FnOnce() -> B,
{
    if is_alone() {
        return (other(), here());
    }
    thread::scope(|s| {
        // `other` goes to the thread once it runs, so that it is still at
        // hand should the thread not start.
        let (tx, rx) = mpsc::sync_channel::<F>(1);
        let started = thread::Builder::new()
            .name("dgnkit-stats".into())
            .spawn_scoped(s, move || rx.recv().ok().map(|job| job()));
        let handle = match started {
            Ok(handle) => match tx.send(other) {
                Ok(()) => handle,
                Err(mpsc::SendError(other)) => return (other(), here()),
            },
            Err(_) => return (other(), here()),
        };
        let b = here();
        // A panic on the other thread is one of this crate's bugs, which
        // the caller's `catch_unwind` reports as for one thread.
        let a = handle
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        match a {
            Some(a) => (a, b),
            None => unreachable!("the thread received its job"),
        }
    })
}

/// Calls `f(k, &mut out[k])` for every `k`: from `split_at` items on, on
/// two threads, each taking the next few items once done with its last
/// (items' costs vary: a run's joint chances, a placement search).
pub(crate) fn each_of<T: Send>(out: &mut [T], split_at: usize, f: impl Fn(usize, &mut T) + Sync) {
    if out.len() < split_at.max(2) {
        for (k, x) in out.iter_mut().enumerate() {
            f(k, x);
        }
        return;
    }
    let size = out.len().div_ceil(64);
    let chunks = Mutex::new(out.chunks_mut(size).enumerate());
    let work = || loop {
        let next = chunks.lock().unwrap_or_else(PoisonError::into_inner).next();
        let Some((c, part)) = next else {
            break;
        };
        for (k, x) in part.iter_mut().enumerate() {
            f(c * size + k, x);
        }
    };
    both(work, work);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn both_gives_each_side_s_result() {
        let here = thread::current().id();
        let ((a, other), b) = both(|| (2 + 2, thread::current().id()), || 3 * 3);
        assert_eq!((a, b), (4, 9));
        assert_ne!(other, here);
    }

    #[test]
    fn each_visits_every_slot_once_with_its_index() {
        for n in [0, 3, SPLIT_AT - 1, SPLIT_AT, 3 * SPLIT_AT + 1] {
            let mut out = vec![usize::MAX; n];
            each_of(&mut out, SPLIT_AT, |k, x| {
                assert_eq!(*x, usize::MAX);
                *x = k;
            });
            assert!(out.iter().enumerate().all(|(k, &x)| k == x));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every key's items reach the part of `out` at that key, whole,
        /// whether split or not.
        #[test]
        fn each_key_is_summed_once_into_its_own_slot(
            keys in proptest::collection::vec(0usize..64, 0..40_000),
        ) {
            let mut order = keys.clone();
            order.sort_unstable();
            let mut out = vec![0u64; 64];
            let parts = halves_by(&order, |&k| k, |_| 1, &mut out[..], |part, out: &mut [u64], base| {
                for &k in part {
                    out[k - base] += 1;
                }
                part.len()
            });
            prop_assert_eq!(parts.iter().sum::<usize>(), keys.len());
            // The same split by weight.
            let mut by_weight = vec![0u64; 64];
            let parts = halves_by(&order, |&k| k, |&k| k % 7, &mut by_weight[..], |part, out: &mut [u64], base| {
                for &k in part {
                    out[k - base] += 1;
                }
                part.len()
            });
            prop_assert_eq!(parts.iter().sum::<usize>(), keys.len());
            prop_assert_eq!(&by_weight, &out);
            for (k, &n) in out.iter().enumerate() {
                prop_assert_eq!(n as usize, keys.iter().filter(|&&x| x == k).count());
            }
        }
    }
}
