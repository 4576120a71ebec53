//! `dgnkit._native`: the `dgn` commands for Python.
//!
//! A call is one of `dgn serve`'s endpoint calls
//! ([`dgnkit_cli::serve::api`]) prepared without the server's bounds, so
//! that a Python function takes the parameters the page's API takes and
//! answers what the command prints, byte for byte, parsed here. The
//! command runs on a thread of its own: the caller's thread gives up the
//! GIL while it waits and looks at Python's signals every few tens of
//! milliseconds, so Ctrl-C stops a long search, and two Python threads
//! run two commands on two cores. The Python package (`python/dgnkit/`)
//! turns exit statuses into exceptions.

#![deny(clippy::unwrap_used)]

mod json;
mod tape;
mod worker;

use dgnkit_cli::serve::api::{self, Bounds, Params, Request, Texts};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::collections::BTreeMap;

/// A call that did not run: the exit status `dgn` gives a command line it
/// refuses.
const EXIT_USAGE: u8 = 2;

/// The endpoint's call for `params` (a JSON object's text) and `texts`,
/// or the message of a refusal. `jobs` of `None` is the command's own
/// default.
fn prepare(endpoint: &str, params: &str, texts: &Texts) -> Result<api::Call, String> {
    let params: Params = serde_json::from_str(params)
        .map_err(|e| format!("dgnkit: the parameters are not a JSON object ({e})"))?;
    let bounds = Bounds::none();
    api::prepare_request(
        endpoint,
        Request {
            params: &params,
            texts,
            bounds: &bounds,
        },
    )
    .map_err(|r| r.message)
}

/// Runs `endpoint` with `params` (a JSON object's text, the parameters of
/// `dgn serve`'s `/api/{endpoint}`) and `texts` (bytes that take the
/// place of text parameters). Returns `(status, stdout, stderr)`: the exit
/// status `dgn` would give, what it printed and its messages.
#[pyfunction]
#[pyo3(signature = (endpoint, params, texts = BTreeMap::new()))]
fn call<'py>(
    py: Python<'py>,
    endpoint: &str,
    params: &str,
    texts: BTreeMap<String, Vec<u8>>,
) -> PyResult<(u8, Bound<'py, PyBytes>, String)> {
    let call = match prepare(endpoint, params, &texts) {
        Ok(c) => c,
        Err(message) => return Ok((EXIT_USAGE, PyBytes::new(py, b""), message)),
    };
    let (status, out, err) = worker::run(py, call)?;
    Ok((status, PyBytes::new(py, &out), err))
}

/// Like [`call`], but the output comes as it is printed: an iterator of
/// lists, each the JSON values of the next complete lines. The command
/// stops when the stream is dropped.
///
/// `input` names a file the command reads as it goes instead of the `text`
/// parameter (an xlogfile of any size).
#[pyfunction]
#[pyo3(signature = (endpoint, params, texts = BTreeMap::new(), input = None))]
fn stream(
    endpoint: &str,
    params: &str,
    texts: BTreeMap<String, Vec<u8>>,
    input: Option<std::path::PathBuf>,
) -> worker::Stream {
    match prepare(endpoint, params, &texts) {
        Ok(call) => worker::Stream::start(call, input),
        Err(message) => worker::Stream::refused(EXIT_USAGE, message),
    }
}

/// The JSON values of `text`'s lines (blank lines skipped), as Python's
/// `json.loads` reads each; raises `ValueError` on a line that is not
/// JSON.
#[pyfunction]
fn loads_lines<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let values = json::lines(py, text)?;
    Ok(pyo3::types::PyList::new(py, values)?.into_any())
}

/// The `#wizwhere` overview of `layout` (a layout's JSON text) as `game`
/// prints it: `(status, text, message)`.
#[pyfunction]
fn overview(layout: &str, game: &str) -> (u8, String, String) {
    let target = match dgnkit_cli::parse_target(game) {
        Ok(t) => t,
        Err(e) => return (EXIT_USAGE, String::new(), format!("dgnkit.overview: {e}")),
    };
    match serde_json::from_str::<dgnkit::layout::Layout>(layout) {
        Ok(l) => (
            0,
            dgnkit::views::overview(&l, target.game().overview),
            String::new(),
        ),
        Err(e) => (
            EXIT_USAGE,
            String::new(),
            format!("dgnkit.overview: not a layout of `dgn layout --format json` ({e})"),
        ),
    }
}

/// A panic on a command's thread, as a bug in dgnkit would make one: for
/// the tests, which check that it comes back as an answer (status 101 and
/// a message) and never takes the interpreter down.
#[pyfunction]
fn _panic_in_worker(py: Python<'_>, message: String) -> PyResult<(u8, String)> {
    let (status, _, err) = worker::run_fn(py, move || -> (u8, Vec<u8>, Vec<u8>) {
        panic!("{message}")
    })?;
    Ok((status, err))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(stream, m)?)?;
    m.add_function(wrap_pyfunction!(loads_lines, m)?)?;
    m.add_function(wrap_pyfunction!(overview, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_in_worker, m)?)?;
    m.add_class::<worker::Stream>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
