//! The one thread the server computes statistics on.
//!
//! An exact enumeration of a large variant's file holds hundreds of
//! megabytes while it runs. On the runtime's pool of blocking threads, each
//! computation could land on another thread, and the C allocator keeps a
//! heap per thread: two in a row held twice the memory. One thread runs
//! them one after another in one heap, which the next computation reuses,
//! and once the thread is idle it hands what was freed back to the system,
//! so an editor left open holds little.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::OnceLock;
use std::thread;
use std::time::Duration;

type Task = Box<dyn FnOnce() + Send>;

/// Idle this long after a computation, the thread returns freed memory (a
/// computation frees its enumeration on another thread as it finishes).
const RELEASE_AFTER: Duration = Duration::from_millis(500);

fn worker() -> Option<&'static Sender<Task>> {
    static WORKER: OnceLock<Option<Sender<Task>>> = OnceLock::new();
    WORKER
        .get_or_init(|| {
            let (tx, rx) = mpsc::channel::<Task>();
            thread::Builder::new()
                .name("dgnkit-statistics".into())
                .spawn(move || serve(rx))
                .ok()
                .map(|_| tx)
        })
        .as_ref()
}

fn serve(rx: Receiver<Task>) {
    let mut freed = false;
    loop {
        match rx.recv_timeout(RELEASE_AFTER) {
            Ok(task) => {
                task();
                // Each computation starts from a heap without the last
                // one's free pages, which a computation of another shape
                // would otherwise leave around its own.
                dgnkit::stats::release_free_memory();
                freed = true;
            }
            Err(RecvTimeoutError::Timeout) => {
                if freed {
                    dgnkit::stats::release_free_memory();
                    freed = false;
                }
            }
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// One heap from now on: the statistics run on two cores (the enumeration
/// and the passes beside it, `dgnkit_stats`'s helper threads), and glibc
/// would give each new thread a heap of its own, whose freed memory the
/// others cannot reuse. Over the dNetHack family's largest files
/// (`scripts/bench-lsp-memory`; bench/README.md, The language server) the
/// server's peak is lowest with one heap, and it holds least once idle.
/// The threads then take turns at the heap's lock: the statistics take
/// longer, off the keystroke path, while hovers, answered from the last
/// statistics meanwhile, stay quick.
pub(crate) fn one_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator; it is safe to
    // call at any time from any thread.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Runs `f` on the statistics thread after the computations before it and
/// waits for it (call it where blocking is allowed). `Err`: `f` panicked,
/// with the payload. Without the thread (it could not be started), `f`
/// runs here.
pub fn run<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> thread::Result<T> {
    let (tx, rx) = mpsc::sync_channel(1);
    let task: Task = Box::new(move || {
        let _ = tx.send(catch_unwind(AssertUnwindSafe(f)));
    });
    match worker() {
        Some(w) => {
            if let Err(mpsc::SendError(task)) = w.send(task) {
                task();
            }
        }
        None => task(),
    }
    rx.recv()
        .unwrap_or_else(|_| Err(Box::new("the statistics thread ended")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_in_order_on_one_thread_and_reports_panics() {
        let a = run(|| thread::current().id()).unwrap();
        let b = run(|| thread::current().id()).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, thread::current().id());
        let p = run(|| -> u8 { panic!("boom") });
        assert!(p.is_err());
        // The thread outlives a panicking computation.
        assert_eq!(run(|| 7).unwrap(), 7);
    }
}
