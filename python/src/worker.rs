//! A command on a thread of its own, and the Python thread that waits for
//! it: without the GIL, looking at Python's signals between waits.

use crate::json;
use crate::tape::{self, Tape};
use dgnkit_cli::serve::api::{self, Call};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The exit status of a command that panicked, as a panicking `dgn`'s: a
/// bug in dgnkit, which the package reports as an error, never a crash.
pub const EXIT_PANIC: u8 = 101;

/// A command line `dgn` refuses.
const EXIT_USAGE: u8 = 2;

/// How long the waiting thread sleeps between looks at Python's signals:
/// short enough that Ctrl-C feels immediate.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Output handed over at a time by a stream (the command writes many
/// small pieces).
const HAND_OVER: usize = 1 << 16;

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    let what = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    format!("dgnkit: internal error (please report it): {what}")
}

/// Starts `work` on a new thread, its answer (or its panic's message) sent
/// on the returned channel.
fn spawn<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<Receiver<Result<T, String>>> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("dgnkit".into())
        .spawn(move || {
            let r = catch_unwind(AssertUnwindSafe(work)).map_err(panic_message);
            let _ = tx.send(r);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("dgnkit: cannot start a thread: {e}")))?;
    Ok(rx)
}

/// The next message of `rx`, waited for without the GIL. A signal's
/// exception (KeyboardInterrupt) raised meanwhile sets `interrupted`,
/// which stops a search or the statistics within milliseconds, and is
/// raised here at once.
fn wait<T: Send>(py: Python<'_>, rx: &mut Receiver<T>, interrupted: &AtomicBool) -> PyResult<T> {
    loop {
        // A `&mut` crosses to the thread without the GIL; a `&` would need
        // the receiver to be `Sync`.
        let r: &mut Receiver<T> = &mut *rx;
        match py.detach(move || r.recv_timeout(SIGNAL_POLL)) {
            Ok(v) => return Ok(v),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    interrupted.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "dgnkit: the command's thread ended without an answer",
                ))
            }
        }
    }
}

/// Runs `call` to the end: `(status, stdout, stderr)`.
pub fn run(py: Python<'_>, call: Call) -> PyResult<(u8, Vec<u8>, String)> {
    let interrupted = call.interrupted.clone();
    run_with(py, &interrupted, move || api::run(&call))
}

/// [`run`] for any work that answers as a command does.
pub fn run_fn(
    py: Python<'_>,
    work: impl FnOnce() -> (u8, Vec<u8>, Vec<u8>) + Send + 'static,
) -> PyResult<(u8, Vec<u8>, String)> {
    run_with(py, &AtomicBool::new(false), work)
}

fn run_with(
    py: Python<'_>,
    interrupted: &AtomicBool,
    work: impl FnOnce() -> (u8, Vec<u8>, Vec<u8>) + Send + 'static,
) -> PyResult<(u8, Vec<u8>, String)> {
    let mut rx = spawn(work)?;
    Ok(match wait(py, &mut rx, interrupted)? {
        Ok((status, out, err)) => (status, out, String::from_utf8_lossy(&err).into_owned()),
        Err(message) => (EXIT_PANIC, Vec::new(), message),
    })
}

enum Message {
    /// The next complete lines, read.
    Out(Tape),
    /// Output that is not JSON lines (a bug: the commands write JSON).
    Fault(String),
    Done(u8, String),
}

/// A command's standard output as messages: complete lines read onto a
/// tape, a buffer at a time, on the command's thread (the reading needs no
/// GIL; Python builds the previous tape meanwhile). A closed stream makes
/// every write fail, which ends the command as a closed pipe ends `dgn`.
struct Sender {
    tx: SyncSender<Message>,
    buf: Vec<u8>,
    names: tape::Names,
}

impl Sender {
    /// Reads `text` (complete lines) and sends them.
    fn send(&mut self, text: &[u8]) -> io::Result<()> {
        let message = match tape::read(text, &mut self.names) {
            Ok(t) => Message::Out(t),
            Err(f) => Message::Fault(format!(
                "dgnkit: the command printed what is not JSON: {}",
                f.message(text)
            )),
        };
        self.tx
            .send(message)
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }

    /// Reads and sends the complete lines (all of it when `last`).
    fn hand_over(&mut self, last: bool) -> io::Result<()> {
        let end = if last {
            self.buf.len()
        } else {
            match self.buf.iter().rposition(|&b| b == b'\n') {
                Some(i) => i + 1,
                None => return Ok(()),
            }
        };
        if end == 0 {
            return Ok(());
        }
        let buf = std::mem::take(&mut self.buf);
        let sent = self.send(&buf[..end]);
        self.buf = buf;
        self.buf.drain(..end);
        sent
    }
}

impl Write for Sender {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        // A command that writes whole lines a buffer at a time (`dgn
        // xlog`) is read where it wrote them, not copied first.
        if self.buf.is_empty() && b.len() >= HAND_OVER {
            if let Some(i) = b.iter().rposition(|&c| c == b'\n') {
                self.send(&b[..i + 1])?;
                self.buf.extend_from_slice(&b[i + 1..]);
                return Ok(b.len());
            }
        }
        self.buf.extend_from_slice(b);
        if self.buf.len() >= HAND_OVER {
            self.hand_over(false)?;
        }
        Ok(b.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A command whose JSON lines come as it prints them (`dgn layout --seeds`,
/// `dgn xlog`): each `next()` is a list of the values of the lines printed
/// since, and `status` is `(exit status, stderr)` once it has ended.
#[pyclass(module = "dgnkit._native")]
pub struct Stream {
    rx: Option<Mutex<Receiver<Message>>>,
    interrupted: Arc<AtomicBool>,
    builder: json::Builder,
    status: Option<(u8, String)>,
}

impl Stream {
    pub fn start(call: Call, input: Option<std::path::PathBuf>) -> Stream {
        let interrupted = call.interrupted.clone();
        // Two tapes in flight: the command keeps a core busy while Python
        // builds the previous one.
        let (tx, rx) = mpsc::sync_channel(2);
        let done = tx.clone();
        let started = std::thread::Builder::new()
            .name("dgnkit".into())
            .spawn(move || {
                let mut out = Sender {
                    tx,
                    buf: Vec::with_capacity(HAND_OVER),
                    names: tape::Names::default(),
                };
                let mut err = Vec::new();
                let r = catch_unwind(AssertUnwindSafe(|| {
                    let status = match &input {
                        None => api::run_into(&call, &mut out, &mut err),
                        Some(path) => match std::fs::File::open(path) {
                            Ok(file) => {
                                let mut file = io::BufReader::with_capacity(1 << 16, file);
                                api::run_reading(&call, Some(&mut file), &mut out, &mut err)
                            }
                            Err(e) => {
                                let _ = writeln!(
                                    err,
                                    "dgn {}: cannot read `{}`: {e}",
                                    call.command.name(),
                                    path.display()
                                );
                                EXIT_USAGE
                            }
                        },
                    };
                    let handed = out.hand_over(true);
                    (status, handed)
                }));
                let end = match r {
                    Ok((status, Ok(()))) => {
                        Message::Done(status, String::from_utf8_lossy(&err).into())
                    }
                    // Nobody reads any more.
                    Ok((_, Err(_))) => return,
                    Err(p) => Message::Done(EXIT_PANIC, panic_message(p)),
                };
                let _ = done.send(end);
            });
        match started {
            Ok(_) => Stream {
                rx: Some(Mutex::new(rx)),
                interrupted,
                builder: json::Builder::default(),
                status: None,
            },
            Err(e) => Stream::refused(EXIT_PANIC, format!("dgnkit: cannot start a thread: {e}")),
        }
    }

    /// A stream that ended before it began: `status` is its answer.
    pub fn refused(status: u8, message: String) -> Stream {
        Stream {
            rx: None,
            interrupted: Arc::new(AtomicBool::new(false)),
            builder: json::Builder::default(),
            status: Some((status, message)),
        }
    }
}

#[pymethods]
impl Stream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        loop {
            let Some(rx) = self.rx.as_mut() else {
                return Ok(None);
            };
            let rx = rx
                .get_mut()
                .map_err(|_| PyRuntimeError::new_err("dgnkit: the stream is broken"))?;
            match wait(py, rx, &self.interrupted)? {
                Message::Out(tape) => {
                    let values = self.builder.build(py, &tape)?;
                    if !values.is_empty() {
                        return Ok(Some(PyList::new(py, values)?));
                    }
                }
                Message::Fault(message) => {
                    self.close();
                    return Err(PyValueError::new_err(message));
                }
                Message::Done(status, err) => {
                    self.status = Some((status, err));
                    self.rx = None;
                }
            }
        }
    }

    /// `(exit status, stderr)` once the command has ended, else `None`.
    #[getter]
    fn status(&self) -> Option<(u8, String)> {
        self.status.clone()
    }

    /// Stops the command (as dropping the stream does).
    fn close(&mut self) {
        self.interrupted.store(true, Ordering::Relaxed);
        self.rx = None;
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.interrupted.store(true, Ordering::Relaxed);
    }
}
