//! `dgn serve`: the page and the HTTP API, a thin shell over the same
//! command code as `dgn` (see `api.rs`): routes and limits here, each
//! endpoint's command line in `api.rs`, the page built into the binary in
//! `assets.rs`, and the language server for the page's editor over a
//! WebSocket in `lsp_ws.rs`.
//!
//! Untrusted input: bodies are capped (413), every command runs on a
//! blocking thread under a time budget (503 when it runs out; a search and
//! the statistics are stopped, and a command still running keeps its place
//! in the limit until it ends), at most `workers` commands run at once (a
//! request that waits longer than `queue_wait` for one is answered 503), a panic is a 500, and
//! no request reads or writes a path of its choosing or runs a process.
//! The language server's own limits are in `lsp_ws.rs`.

pub mod access_log;
pub mod api;
pub mod assets;
pub mod lsp_ws;
pub mod words;

use crate::EXIT_USAGE;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use clap::Args;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// `dgn serve [--addr 127.0.0.1:8080] [--open]`
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The address to listen on: loopback unless you say otherwise
    /// (`0.0.0.0:8080` serves every interface).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "IP:PORT")]
    pub addr: SocketAddr,
    /// Open the page in a browser (`xdg-open`, or `open` on macOS).
    #[arg(long)]
    pub open: bool,
    /// Seconds one request may compute before it is answered 503.
    #[arg(long, default_value_t = 10, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
    /// Commands computed at once (default: one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Write a line per request to FILE (`-`: standard error), in the
    /// Common Log Format with the seconds taken at the end.
    #[arg(long, value_name = "FILE")]
    pub access_log: Option<std::path::PathBuf>,
}

/// Parses `serve`'s arguments (`argv[0]` is the command name).
pub fn parse_args<I, T>(argv: I) -> Result<ServeArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    crate::input::parse_command("serve", argv)
}

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest request body (bytes).
    pub body_bytes: usize,
    /// How long one command may compute.
    pub time: Duration,
    /// Commands computed at once.
    pub workers: usize,
    /// How long a request waits for a worker before a 503.
    pub queue_wait: Duration,
    /// Requests in the server at once (waiting or computing) before new
    /// ones are answered 503 at once.
    pub in_flight: usize,
    /// What a request may ask for.
    pub bounds: api::Bounds,
    /// Language server sessions (`/lsp`) at once before new ones are
    /// answered 503.
    pub lsp_sessions: usize,
    /// Documents one language server session holds open at once.
    pub lsp_documents: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body_bytes: 2 << 20,
            time: Duration::from_secs(10),
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue_wait: Duration::from_secs(5),
            in_flight: 1024,
            bounds: api::Bounds::default(),
            lsp_sessions: 16,
            lsp_documents: 8,
        }
    }
}

struct Shared {
    limits: Limits,
    workers: Arc<Semaphore>,
    in_flight: AtomicUsize,
    lsp_sessions: AtomicUsize,
}

/// The page and the API.
pub fn router(limits: Limits) -> Router {
    let shared = Arc::new(Shared {
        workers: Arc::new(Semaphore::new(limits.workers.max(1))),
        in_flight: AtomicUsize::new(0),
        lsp_sessions: AtomicUsize::new(0),
        limits: limits.clone(),
    });
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::app_js))
        .route("/app.css", get(assets::app_css))
        .route("/favicon.ico", get(assets::favicon))
        .route("/api", get(assets::openapi))
        .route("/api/", get(assets::openapi))
        .route("/api/{endpoint}", get(api_get).post(api_post))
        .route("/lsp", get(lsp_ws::lsp))
        .fallback(not_found)
        .layer(tower_http::limit::RequestBodyLimitLayer::new(
            limits.body_bytes,
        ))
        .layer(axum::middleware::map_response(json_413))
        .with_state(shared)
}

/// Serves `router(limits)` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_logged(listener, limits, None, shutdown).await
}

/// [`serve`], writing a line per request to `log` when there is one.
pub async fn serve_logged(
    listener: tokio::net::TcpListener,
    limits: Limits,
    log: Option<Arc<access_log::AccessLog>>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut app = router(limits);
    if let Some(log) = log {
        app = app.layer(axum::middleware::from_fn(move |info, req, next| {
            access_log::record(log.clone(), info, req, next)
        }));
    }
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}

pub fn run(args: ServeArgs) -> ExitCode {
    let mut limits = Limits {
        time: Duration::from_secs(args.timeout),
        ..Limits::default()
    };
    if let Some(j) = args.jobs {
        limits.workers = usize::from(j);
    }
    let log = match args.access_log.as_deref().map(access_log::AccessLog::open) {
        None => None,
        Some(Ok(log)) => Some(Arc::new(log)),
        Some(Err(e)) => {
            eprintln!("dgn serve: --access-log: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("dgn serve: cannot start: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let code = runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(args.addr).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("dgn serve: cannot listen on {}: {e}", args.addr);
                return ExitCode::from(EXIT_USAGE);
            }
        };
        let local = listener.local_addr().unwrap_or(args.addr);
        let url = if local.ip().is_unspecified() {
            format!("http://127.0.0.1:{}/", local.port())
        } else {
            format!("http://{local}/")
        };
        eprintln!("dgn serve: the page at {url}, the API's description at {url}api");
        if !local.ip().is_loopback() {
            eprintln!(
                "dgn serve: listening on {local}: every machine that can reach it can use it"
            );
        }
        if args.open {
            open_browser(&url);
        }
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        match serve_logged(listener, limits, log, shutdown).await {
            Ok(()) => ExitCode::from(crate::EXIT_OK),
            Err(e) => {
                eprintln!("dgn serve: {e}");
                ExitCode::from(EXIT_USAGE)
            }
        }
    });
    // A computation still running (one that cannot be stopped midway)
    // does not hold up the exit.
    runtime.shutdown_timeout(Duration::from_secs(1));
    code
}

/// `--open`: the platform's opener, if there is one; failing is said and
/// is no error.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    match std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(mut child) => {
            eprintln!("dgn serve: opening {url} with {opener}");
            // Reaped when it ends, so that no zombie outlives it.
            std::thread::spawn(move || child.wait());
        }
        Err(e) => {
            eprintln!("dgn serve: cannot open a browser ({opener}: {e}); open {url} yourself")
        }
    }
}

/// An error answer: `{"error": ..., "exit": N}` (no `exit` when no command
/// ran to its end).
pub fn error(status: StatusCode, message: &str, exit: Option<u8>) -> Response {
    let body = match exit {
        Some(code) => json!({ "error": message, "exit": code }),
        None => json!({ "error": message }),
    };
    let mut r = (status, axum::Json(body)).into_response();
    if let Some(code) = exit {
        r.headers_mut()
            .insert("x-dgn-exit", HeaderValue::from(u16::from(code)));
    }
    r
}

async fn not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "no such page: the page is at /, the API at /api/ENDPOINT (GET /api describes it), the language server at /lsp (a WebSocket)",
        None,
    )
}

/// The body limit's 413 (from the layer, or from reading a body that
/// turned out too long) as JSON.
async fn json_413(r: Response) -> Response {
    if r.status() == StatusCode::PAYLOAD_TOO_LARGE
        && r.headers().get(header::CONTENT_TYPE)
            != Some(&HeaderValue::from_static("application/json"))
    {
        return error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request body is larger than the server takes (2 MiB)",
            None,
        );
    }
    r
}

async fn api_get(
    State(shared): State<Arc<Shared>>,
    Path(endpoint): Path<String>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Response {
    let mut params = api::Params::new();
    let pairs = match query {
        Ok(Query(p)) => p,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                &format!("the query string does not parse: {e}"),
                Some(EXIT_USAGE),
            )
        }
    };
    for (k, v) in pairs {
        match params.get_mut(&k) {
            None => {
                params.insert(k, Value::String(v));
            }
            Some(Value::Array(a)) => a.push(Value::String(v)),
            Some(old) => {
                let first = old.take();
                *old = Value::Array(vec![first, Value::String(v)]);
            }
        }
    }
    answer(shared, endpoint, params).await
}

async fn api_post(
    State(shared): State<Arc<Shared>>,
    Path(endpoint): Path<String>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let body = match body {
        Ok(b) => b,
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return json_413(StatusCode::PAYLOAD_TOO_LARGE.into_response()).await
        }
        Err(r) => return error(r.status(), &r.body_text(), None),
    };
    let params: api::Params = if body.iter().all(u8::is_ascii_whitespace) {
        api::Params::new()
    } else {
        match serde_json::from_slice(&body) {
            Ok(p) => p,
            Err(e) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    &format!("the body is not a JSON object of parameters: {e}"),
                    Some(EXIT_USAGE),
                )
            }
        }
    };
    answer(shared, endpoint, params).await
}

/// What a request whose time ran out may ask for instead, in the
/// endpoint's own parameters (the page names its controls by them).
fn less(endpoint: &str) -> &'static str {
    match endpoint {
        "stats" => "`sample` (a sample of seeds, not every layout) with fewer `samples`",
        "find" | "layout" => "fewer `seeds`",
        "bones" => "one `seed`'s bones, or a smaller file",
        "diff" => "smaller files",
        _ => "a smaller text",
    }
}

/// Counts a request in the server while it lives.
struct InFlight(Arc<Shared>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

async fn answer(shared: Arc<Shared>, endpoint: String, params: api::Params) -> Response {
    let call = match api::prepare(&endpoint, &params, &shared.limits.bounds) {
        Ok(c) => c,
        Err(r) if !api::ENDPOINTS.contains(&endpoint.as_str()) => {
            return error(StatusCode::NOT_FOUND, &r.message, None)
        }
        Err(r) => {
            return error(
                StatusCode::UNPROCESSABLE_ENTITY,
                &r.message,
                Some(EXIT_USAGE),
            )
        }
    };
    if shared.in_flight.fetch_add(1, Ordering::Relaxed) >= shared.limits.in_flight {
        shared.in_flight.fetch_sub(1, Ordering::Relaxed);
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is busy (too many requests at once); try again shortly",
            None,
        );
    }
    let _counted = InFlight(shared.clone());
    let permit = match tokio::time::timeout(
        shared.limits.queue_wait,
        shared.workers.clone().acquire_owned(),
    )
    .await
    {
        Ok(Ok(p)) => p,
        _ => {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "the server is busy: no worker was free within {} s; try again shortly",
                    shared.limits.queue_wait.as_secs_f64()
                ),
                None,
            )
        }
    };
    let content_type = call.content_type;
    let content_encoding = call.content_encoding;
    let interrupted = call.interrupted.clone();
    let job = tokio::task::spawn_blocking(move || {
        // The worker's place is held until the command ends, even after its
        // request has been answered 503.
        let _permit = permit;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| api::run(&call)))
    });
    let time = shared.limits.time;
    let (code, out, err) = match tokio::time::timeout(time, job).await {
        Err(_) => {
            // A search and the statistics stop within milliseconds; the
            // other commands are bounded by their parameters and end on
            // their own, keeping their worker till then.
            interrupted.store(true, std::sync::atomic::Ordering::Relaxed);
            let what = if matches!(endpoint.as_str(), "find" | "stats" | "diff" | "bones") {
                "was stopped"
            } else {
                "was abandoned"
            };
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "/api/{endpoint} ran out of its time budget ({} s) and {what}; ask for less: {}",
                    time.as_secs_f64(),
                    less(&endpoint)
                ),
                None,
            );
        }
        Ok(Err(e)) => {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!("/api/{endpoint} failed: {e}"),
                None,
            )
        }
        Ok(Ok(Err(panic))) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!("dgnkit failed on this request (a bug; please report it with the request): {what}"),
                None,
            );
        }
        Ok(Ok(Ok(r))) => r,
    };
    // The command's messages, in the API's words (`the target `native``,
    // not `--target native`).
    let stderr = words::in_api_words(String::from_utf8_lossy(&err).trim_end());
    let mut response = match code {
        0 => (StatusCode::OK, out).into_response(),
        // The command's answer (diagnostics, a failing seed's line, a
        // threshold crossed) is in what it printed.
        1 if !out.is_empty() => (StatusCode::OK, out).into_response(),
        1 => return error(StatusCode::BAD_REQUEST, &stderr, Some(1)),
        2 => return error(StatusCode::UNPROCESSABLE_ENTITY, &stderr, Some(2)),
        n => return error(StatusCode::INTERNAL_SERVER_ERROR, &stderr, Some(n)),
    };
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Some(encoding) = content_encoding {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    headers.insert("x-dgn-exit", HeaderValue::from(u16::from(code)));
    if !stderr.is_empty() {
        // Notes the command wrote beside its answer, on one line.
        let one_line: String = stderr
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .filter(|c| c.is_ascii())
            .take(2000)
            .collect();
        if let Ok(v) = HeaderValue::from_str(&one_line) {
            headers.insert("x-dgn-stderr", v);
        }
    }
    response
}
