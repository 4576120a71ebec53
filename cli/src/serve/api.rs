//! Each endpoint as the command line it runs: a request's parameters are
//! mapped to a `dgn` command's arguments (from a fixed list per endpoint,
//! so no request names a path or an option that writes one), parsed by the
//! command's own parser, and run by the command's own `execute` on
//! in-memory streams, the request's text given as an in-memory file
//! ([`crate::input::with_memory_files`]). The answer is what the command
//! printed, byte for byte.

use crate::{bones, check, convert, diff, find, layout, stats, xlog};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A request's parameters: a JSON object's members, or a query string's
/// pairs (a repeated key is an array).
pub type Params = BTreeMap<String, Value>;

/// What an endpoint may not be asked for: the bounds of `dgn serve`, or
/// none for a caller that runs commands for itself (the Python package),
/// which then gets each command's own defaults.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// Seeds one `find` may search (and the default range's size); none:
    /// any range, and `find`'s own default (every seed of the generator).
    pub find_seeds: Option<u64>,
    /// Matches one `find` may print; none: any, and no limit by default.
    pub find_limit: Option<u64>,
    /// Seeds one `layout` with `seeds` may print.
    pub layout_seeds: Option<u64>,
    /// Seeds `stats --sample` may resolve.
    pub samples: Option<u64>,
    /// Threads one command searches or lays out with: `Some(n)` is
    /// `--jobs=n` whatever the request says (the server answers many
    /// requests at once); none takes a `jobs` parameter, by default the
    /// command's own (one thread per core).
    pub jobs: Option<u16>,
    /// Whether a text's name may be any path. The server takes plain file
    /// names only; a caller that passes the bytes of its own files names
    /// them as the user wrote them, so that messages do too. The bytes
    /// come from the caller either way: no command reads the name.
    pub any_name: bool,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            find_seeds: Some(1_000_000),
            find_limit: Some(1_000),
            layout_seeds: Some(1_000),
            samples: Some(200_000),
            jobs: Some(1),
            any_name: false,
        }
    }
}

impl Bounds {
    /// No bound: each command's own defaults, as `dgn` itself.
    pub fn none() -> Bounds {
        Bounds {
            find_seeds: None,
            find_limit: None,
            layout_seeds: None,
            samples: None,
            jobs: None,
            any_name: true,
        }
    }
}

/// A request the server refuses before running anything: a 4xx answer.
#[derive(Debug)]
pub struct Refusal {
    /// The message, for `{"error": ...}`.
    pub message: String,
}

fn refuse(message: impl Into<String>) -> Refusal {
    Refusal {
        message: message.into(),
    }
}

/// One command, parsed and ready to run.
pub enum Command {
    Layout(Box<layout::LayoutArgs>),
    Find(Box<find::FindArgs>),
    Stats(Box<stats::StatsArgs>),
    Bones(Box<bones::BonesArgs>),
    Check(Box<check::CheckArgs>),
    Convert(Box<convert::ConvertArgs>),
    Xlog(Box<xlog::XlogArgs>, Vec<u8>),
    Diff(Box<diff::DiffArgs>),
}

impl Command {
    /// The command's name, as `dgn` takes it.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Layout(_) => "layout",
            Command::Find(_) => "find",
            Command::Stats(_) => "stats",
            Command::Bones(_) => "bones",
            Command::Check(_) => "check",
            Command::Convert(_) => "convert",
            Command::Xlog(..) => "xlog",
            Command::Diff(_) => "diff",
        }
    }
}

/// A file a command reads from memory: its name and its bytes.
pub type MemoryFile = (String, Vec<u8>);

/// The bytes of a request's texts by parameter (`text`, `old`, `new`,
/// `description`, `given_overview`), for a caller whose texts are not all
/// UTF-8 (a compiled file, an xlogfile in Latin-1): a text here takes the
/// place of the parameter's string. The server has none.
pub type Texts = BTreeMap<String, Vec<u8>>;

/// A prepared call: the command, the in-memory files it reads (the
/// request's texts, `--given-overview`'s included) and what the answer is.
pub struct Call {
    pub command: Command,
    pub files: Vec<MemoryFile>,
    pub content_type: &'static str,
    /// The body as the command writes it is already encoded so (a gamelog
    /// is gzipped JSON, served as the framework's server serves one).
    pub content_encoding: Option<&'static str>,
    /// Set when the time budget runs out: stops a search and the
    /// statistics (`stats`, `diff`, `bones` over every layout).
    pub interrupted: Arc<AtomicBool>,
}

/// The endpoints, for `/api` and the error that names them.
pub const ENDPOINTS: &[&str] = &[
    "layout", "find", "stats", "bones", "check", "convert", "xlog", "diff",
];

const LOADER: &[&str] = &[
    "target",
    "game",
    "role",
    "race",
    "gender",
    "align",
    "option",
    "game_start",
    "wizard",
    "rng",
    "dialect",
    "define",
    "undefine",
    "text",
    "name",
];

/// What a caller asks of an endpoint: its parameters, the bytes of its
/// texts and the bounds it is held to.
#[derive(Clone, Copy)]
pub struct Request<'p> {
    pub params: &'p Params,
    pub texts: &'p Texts,
    pub bounds: &'p Bounds,
}

/// Builds argv from parameters, each parameter taken once.
struct Argv<'p> {
    endpoint: &'static str,
    params: &'p Params,
    texts: &'p Texts,
    bounds: &'p Bounds,
    known: Vec<&'static str>,
    argv: Vec<String>,
}

/// The endpoints that search or lay out many seeds on threads.
const THREADED: &[&str] = &["layout", "find"];

impl<'p> Argv<'p> {
    fn new(
        endpoint: &'static str,
        request: Request<'p>,
        known: &[&'static str],
    ) -> Result<Self, Refusal> {
        let Request {
            params,
            texts,
            bounds,
        } = request;
        let mut known: Vec<&'static str> = known.to_vec();
        let threaded = THREADED.contains(&endpoint);
        if threaded && bounds.jobs.is_none() {
            known.push("jobs");
        }
        if let Some(k) = params.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(refuse(format!(
                "/api/{endpoint} takes no parameter `{k}` (it takes: {})",
                known.join(", ")
            )));
        }
        let mut argv = Argv {
            endpoint,
            params,
            texts,
            bounds,
            known,
            argv: vec![endpoint.to_string()],
        };
        match bounds.jobs {
            Some(n) if threaded => argv.argv.push(format!("--jobs={n}")),
            None if threaded => {
                argv.opt("jobs", "--jobs")?;
            }
            _ => {}
        }
        Ok(argv)
    }

    fn scalar(&self, key: &str) -> Result<Option<String>, Refusal> {
        debug_assert!(self.known.contains(&key));
        match self.params.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(Value::Bool(b)) => Ok(Some(b.to_string())),
            Some(_) => Err(refuse(format!(
                "/api/{}: `{key}` must be a string or a number",
                self.endpoint
            ))),
        }
    }

    fn list(&self, key: &str) -> Result<Vec<String>, Refusal> {
        match self.params.get(key) {
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    Value::Number(n) => Ok(n.to_string()),
                    _ => Err(refuse(format!(
                        "/api/{}: `{key}` must be strings",
                        self.endpoint
                    ))),
                })
                .collect(),
            _ => Ok(self.scalar(key)?.into_iter().collect()),
        }
    }

    fn flag_value(&self, key: &str) -> Result<bool, Refusal> {
        match self.params.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::String(s)) => match s.as_str() {
                "" | "true" | "1" | "on" | "yes" => Ok(true),
                "false" | "0" | "off" | "no" => Ok(false),
                _ => Err(refuse(format!(
                    "/api/{}: `{key}` is true or false, not `{s}`",
                    self.endpoint
                ))),
            },
            Some(Value::Number(n)) => Ok(n.as_u64() != Some(0)),
            Some(_) => Err(refuse(format!(
                "/api/{}: `{key}` is true or false",
                self.endpoint
            ))),
        }
    }

    /// `--flag=value` when given (the `=` keeps a value that starts with
    /// `-` a value).
    fn opt(&mut self, key: &str, flag: &str) -> Result<Option<String>, Refusal> {
        let v = self.scalar(key)?;
        if let Some(v) = &v {
            self.argv.push(format!("{flag}={v}"));
        }
        Ok(v)
    }

    fn opts(&mut self, key: &str, flag: &str) -> Result<(), Refusal> {
        for v in self.list(key)? {
            self.argv.push(format!("{flag}={v}"));
        }
        Ok(())
    }

    fn flag(&mut self, key: &str, flag: &str) -> Result<bool, Refusal> {
        let on = self.flag_value(key)?;
        if on {
            self.argv.push(flag.to_string());
        }
        Ok(on)
    }

    /// `--target` (or `game`), `-D`, `-U`, `--dialect`.
    fn common(&mut self) -> Result<(), Refusal> {
        if self.params.contains_key("target") && self.params.contains_key("game") {
            return Err(refuse(format!(
                "/api/{}: give `target` or `game`, not both",
                self.endpoint
            )));
        }
        self.opt("target", "--target")?;
        self.opt("game", "--target")?;
        self.opt("dialect", "--dialect")?;
        self.opts("define", "-D")?;
        self.opts("undefine", "-U")?;
        Ok(())
    }

    /// [`Argv::common`] and the loader's options.
    fn loader(&mut self) -> Result<(), Refusal> {
        self.common()?;
        self.opt("role", "--role")?;
        self.opt("race", "--race")?;
        self.opt("gender", "--gender")?;
        self.opt("align", "--align")?;
        self.opts("option", "--option")?;
        self.flag("game_start", "--game-start")?;
        self.flag("wizard", "--wizard")?;
        self.opt("rng", "--rng")?;
        Ok(())
    }

    /// `--format`: json unless the endpoint lets `allowed` be asked for.
    fn format(
        &mut self,
        allowed: &[(&'static str, &'static str)],
    ) -> Result<&'static str, Refusal> {
        let asked = self.scalar("format")?.unwrap_or_else(|| "json".into());
        let Some((name, content_type)) = allowed.iter().find(|(n, _)| *n == asked) else {
            return Err(refuse(format!(
                "/api/{}: `format` is one of {}",
                self.endpoint,
                allowed
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        self.argv.push(format!("--format={name}"));
        Ok(content_type)
    }

    /// The request's description as an in-memory file, named `name` (a
    /// plain file name; default `-`), or none: the built-in description.
    fn text(
        &self,
        key: &str,
        name_key: &str,
        default: &str,
    ) -> Result<Option<MemoryFile>, Refusal> {
        let Some(text) = self.bytes(key)? else {
            return Ok(None);
        };
        let name = self.scalar(name_key)?.unwrap_or_else(|| default.into());
        let name = if self.bounds.any_name && !name.is_empty() {
            name
        } else {
            file_name(self.endpoint, &name)?
        };
        Ok(Some((name, text)))
    }

    /// A text's bytes: the caller's [`Texts`], else the parameter's string.
    fn bytes(&self, key: &str) -> Result<Option<Vec<u8>>, Refusal> {
        match self.texts.get(key) {
            Some(b) => Ok(Some(b.clone())),
            None => Ok(self.scalar(key)?.map(String::into_bytes)),
        }
    }

    /// The request's text as the command's file argument, when it gave
    /// one (else the command reads its built-in description).
    fn file(&mut self, file: &Option<MemoryFile>) {
        if let Some((name, _)) = file {
            self.argv.push(name.clone());
        }
    }

    fn parse<A>(
        self,
        parse: impl FnOnce(Vec<String>) -> Result<A, clap::Error>,
    ) -> Result<A, Refusal> {
        parse(self.argv).map_err(|e| refuse(clap_message(&e)))
    }
}

/// A name a request may give its text: a plain file name (no folder), so
/// that messages and the kind of file (`.lua`, `.def`) follow it; the text
/// is still never read from or written to the file system.
fn file_name(endpoint: &str, name: &str) -> Result<String, Refusal> {
    let ok = name == "-"
        || (!name.is_empty()
            && name.len() <= 64
            && !name.starts_with('.')
            && !name.starts_with('-')
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')));
    if ok {
        Ok(name.to_string())
    } else {
        Err(refuse(format!(
            "/api/{endpoint}: a name is a plain file name such as `dungeon.lua` (letters, digits, `.`, `_`, `-`; at most 64), not `{name}`"
        )))
    }
}

/// clap's message without its colours or the `--help` hint.
fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    text.lines()
        .filter(|l| !l.contains("--help"))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

fn seeds_span(endpoint: &str, range: &str, bound: Option<u64>) -> Result<(), Refusal> {
    let Some(bound) = bound else {
        return Ok(());
    };
    let (a, b) = layout::parse_seeds(range).map_err(|e| refuse(format!("/api/{endpoint}: {e}")))?;
    if b - a > bound {
        return Err(refuse(format!(
            "/api/{endpoint}: `seeds` spans {} seeds; the server searches at most {bound} in one request",
            b - a
        )));
    }
    Ok(())
}

fn bounded(
    endpoint: &str,
    key: &str,
    value: Option<String>,
    bound: Option<u64>,
) -> Result<(), Refusal> {
    if let (Some(v), Some(bound)) = (value, bound) {
        let n: u64 = v
            .parse()
            .map_err(|_| refuse(format!("/api/{endpoint}: `{key}` is a number, not `{v}`")))?;
        if n > bound {
            return Err(refuse(format!(
                "/api/{endpoint}: `{key}` is at most {bound} here, not {n}"
            )));
        }
    }
    Ok(())
}

const JSON: &str = "application/json";
const JSON_LINES: &str = "application/x-ndjson";
const TEXT: &str = "text/plain; charset=utf-8";
const SVG: &str = "image/svg+xml";
const HTML: &str = "text/html; charset=utf-8";

fn call(mut command: Command, files: Vec<MemoryFile>, content_type: &'static str) -> Call {
    let interrupted = Arc::new(AtomicBool::new(false));
    // The statistics stop within milliseconds of the flag (the loader's
    // enumeration and the sampling look at it), so a request whose time
    // runs out frees its worker too.
    let stop = dgnkit::stats::Stop::on(interrupted.clone());
    match &mut command {
        Command::Stats(a) => a.compute.stop = stop,
        Command::Diff(a) => a.compute.stop = stop,
        Command::Bones(a) => a.stop = stop,
        _ => {}
    }
    Call {
        command,
        files,
        content_type,
        content_encoding: None,
        interrupted,
    }
}

/// The call an endpoint's request makes, or why it is refused.
pub fn prepare(endpoint: &str, params: &Params, bounds: &Bounds) -> Result<Call, Refusal> {
    let texts = Texts::new();
    prepare_request(
        endpoint,
        Request {
            params,
            texts: &texts,
            bounds,
        },
    )
}

/// [`prepare`] for a request whose texts may be bytes.
pub fn prepare_request(endpoint: &str, r: Request<'_>) -> Result<Call, Refusal> {
    match endpoint {
        "layout" => layout_call(r),
        "find" => find_call(r),
        "stats" => stats_call(r),
        "bones" => bones_call(r),
        "check" => check_call(r),
        "convert" => convert_call(r),
        "xlog" => xlog_call(r),
        "diff" => diff_call(r),
        other => Err(refuse(format!(
            "no endpoint /api/{other} (endpoints: {}; the description: GET /api)",
            ENDPOINTS
                .iter()
                .map(|e| format!("/api/{e}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

fn layout_call(r: Request<'_>) -> Result<Call, Refusal> {
    let mut known = LOADER.to_vec();
    known.extend(["seed", "seeds", "trace", "format"]);
    let mut a = Argv::new("layout", r, &known)?;
    a.loader()?;
    a.opt("seed", "--seed")?;
    if let (Some(seeds), Some(bound)) = (a.opt("seeds", "--seeds")?, r.bounds.layout_seeds) {
        let n = layout::parse_seed_set(&seeds)
            .map_err(|e| refuse(format!("/api/layout: {e}")))?
            .len();
        if n > bound {
            return Err(refuse(format!(
                "/api/layout: `seeds` names {n} seeds; the server lays out at most {bound} in one request"
            )));
        }
    }
    a.flag("trace", "--trace")?;
    let many = r.params.contains_key("seeds");
    let json = if many { JSON_LINES } else { JSON };
    let ct = a.format(&[
        ("json", json),
        ("svg", SVG),
        ("overview", TEXT),
        ("gamelog", JSON),
    ])?;
    let file = a.text("text", "name", "-")?;
    a.file(&file);
    let args = a.parse(layout::parse_args)?;
    let gamelog = args.format == Some(layout::LayoutFormat::Gamelog);
    let mut c = call(
        Command::Layout(Box::new(args)),
        file.into_iter().collect(),
        ct,
    );
    // `dgn layout --format gamelog` writes it gzipped.
    c.content_encoding = gamelog.then_some("gzip");
    Ok(c)
}

fn find_call(r: Request<'_>) -> Result<Call, Refusal> {
    let mut known = LOADER.to_vec();
    known.extend(["query", "seeds", "limit", "count"]);
    let mut a = Argv::new("find", r, &known)?;
    a.loader()?;
    let bounds = r.bounds;
    let seeds = match (a.scalar("seeds")?, bounds.find_seeds) {
        (Some(s), _) => Some(s),
        (None, Some(n)) => Some(format!("0..{n}")),
        (None, None) => None,
    };
    if let Some(seeds) = seeds {
        seeds_span("find", &seeds, bounds.find_seeds)?;
        a.argv.push(format!("--seeds={seeds}"));
    }
    // A count prints one line; a list stops at `limit` matches.
    let count = a.flag("count", "--count")?;
    let limit = a.scalar("limit")?;
    bounded("find", "limit", limit.clone(), bounds.find_limit)?;
    match (limit, count, bounds.find_limit) {
        (Some(l), _, _) => a.argv.push(format!("--limit={l}")),
        (None, false, Some(_)) => a.argv.push("--limit=100".into()),
        _ => {}
    }
    a.argv.push("--format=json".into());
    let Some(query) = a.scalar("query")? else {
        return Err(refuse(
            "/api/find: `query` is required (`dgn explain find`)",
        ));
    };
    let file = a.text("text", "name", "-")?;
    a.argv.push("--".into());
    a.argv.push(query);
    a.file(&file);
    let args = a.parse(find::parse_args)?;
    Ok(call(
        Command::Find(Box::new(args)),
        file.into_iter().collect(),
        JSON_LINES,
    ))
}

/// The name `--given-overview`'s text has among the in-memory files, and
/// so in its messages (`the overview:4: ...`): what the page and a caller
/// call it, and one [`file_name`] refuses (it has a blank), so that no
/// request's own text can take it.
const OVERVIEW_FILE: &str = "the overview";

/// What `stats` and `bones` take alike, up to the request's text: the
/// parameters known (the loader's, `portal_levels`, `format` and
/// `extra`), and the text as an in-memory file.
fn over_every_layout<'p>(
    endpoint: &'static str,
    r: Request<'p>,
    extra: &[&'static str],
) -> Result<(Argv<'p>, Option<MemoryFile>), Refusal> {
    let mut known = LOADER.to_vec();
    known.extend(["portal_levels", "format"]);
    known.extend(extra);
    let mut a = Argv::new(endpoint, r, &known)?;
    a.loader()?;
    a.opt("portal_levels", "--portal-levels")?;
    let file = a.text("text", "name", "-")?;
    Ok((a, file))
}

fn stats_call(r: Request<'_>) -> Result<Call, Refusal> {
    let extra = [
        "given",
        "given_overview",
        "sample",
        "exact",
        "samples",
        "first_seed",
    ];
    let (mut a, file) = over_every_layout("stats", r, &extra)?;
    let mut files: Vec<_> = file.iter().cloned().collect();
    a.opt("given", "--given")?;
    a.flag("sample", "--sample")?;
    a.flag("exact", "--exact")?;
    let samples = a.opt("samples", "--samples")?;
    bounded("stats", "samples", samples, r.bounds.samples)?;
    a.opt("first_seed", "--first-seed")?;
    if let Some(text) = a.bytes("given_overview")? {
        a.argv.push(format!("--given-overview={OVERVIEW_FILE}"));
        files.push((OVERVIEW_FILE.to_string(), text));
    }
    let ct = a.format(&[
        ("json", JSON),
        ("svg", SVG),
        ("human", TEXT),
        ("html", HTML),
    ])?;
    a.file(&file);
    let args = a.parse(stats::parse_args)?;
    Ok(call(Command::Stats(Box::new(args)), files, ct))
}

fn bones_call(r: Request<'_>) -> Result<Call, Refusal> {
    let (mut a, file) = over_every_layout("bones", r, &["seed"])?;
    a.opt("seed", "--seed")?;
    let ct = a.format(&[("json", JSON), ("human", TEXT)])?;
    a.file(&file);
    let args = a.parse(bones::parse_args)?;
    Ok(call(
        Command::Bones(Box::new(args)),
        file.into_iter().collect(),
        ct,
    ))
}

fn check_call(r: Request<'_>) -> Result<Call, Refusal> {
    let known = [
        "target", "game", "dialect", "define", "undefine", "text", "name", "allow", "warn", "deny",
        "format",
    ];
    let mut a = Argv::new("check", r, &known)?;
    a.common()?;
    a.opts("allow", "--allow")?;
    a.opts("warn", "--warn")?;
    a.opts("deny", "--deny")?;
    let ct = a.format(&[("json", JSON), ("human", TEXT), ("short", TEXT)])?;
    let Some((name, text)) = a.text("text", "name", "-")? else {
        return Err(refuse(
            "/api/check: `text` (the description to check) is required",
        ));
    };
    a.argv.push(name.clone());
    let args = a.parse(check::parse_args)?;
    Ok(call(Command::Check(Box::new(args)), vec![(name, text)], ct))
}

fn convert_call(r: Request<'_>) -> Result<Call, Refusal> {
    let known = [
        "target", "game", "dialect", "define", "undefine", "text", "name", "to", "format",
    ];
    let mut a = Argv::new("convert", r, &known)?;
    a.common()?;
    if a.opt("to", "--to")?.is_none() {
        return Err(refuse("/api/convert: `to` (lua or def) is required"));
    }
    let ct = a.format(&[("json", JSON), ("human", TEXT)])?;
    let Some((name, text)) = a.text("text", "name", "-")? else {
        return Err(refuse(
            "/api/convert: `text` (the description to convert) is required",
        ));
    };
    a.argv.push(name.clone());
    let args = a.parse(convert::parse_args)?;
    Ok(call(
        Command::Convert(Box::new(args)),
        vec![(name, text)],
        ct,
    ))
}

fn xlog_call(r: Request<'_>) -> Result<Call, Refusal> {
    let known = [
        "text",
        "target",
        "game",
        "description",
        "description_name",
        "where",
        "format",
        "dialect",
        "define",
        "undefine",
    ];
    let mut a = Argv::new("xlog", r, &known)?;
    a.opt("target", "--target")?;
    a.opt("game", "--game")?;
    a.opt("dialect", "--dialect")?;
    a.opts("define", "-D")?;
    a.opts("undefine", "-U")?;
    a.opt("where", "--where")?;
    let ct = a.format(&[("json", JSON_LINES), ("human", TEXT), ("html", HTML)])?;
    let file = a.text("description", "description_name", "dungeon.def")?;
    if let Some((name, _)) = &file {
        if name == "-" {
            return Err(refuse("/api/xlog: the description's name cannot be `-`"));
        }
        a.argv.push(format!("--file={name}"));
    }
    let Some(text) = a.bytes("text")? else {
        return Err(refuse(
            "/api/xlog: `text` (the xlogfile's lines) is required",
        ));
    };
    a.argv.push("-".into());
    let args = a.parse(xlog::parse_args)?;
    Ok(call(
        Command::Xlog(Box::new(args), text),
        file.into_iter().collect(),
        ct,
    ))
}

fn diff_call(r: Request<'_>) -> Result<Call, Refusal> {
    let known = [
        "target",
        "game",
        "dialect",
        "define",
        "undefine",
        "old",
        "new",
        "old_name",
        "new_name",
        "old_target",
        "new_target",
        "role",
        "race",
        "gender",
        "align",
        "option",
        "game_start",
        "wizard",
        "rng",
        "portal_levels",
        "all",
        "format",
    ];
    let mut a = Argv::new("diff", r, &known)?;
    a.loader()?;
    a.opt("old_target", "--old-target")?;
    a.opt("new_target", "--new-target")?;
    a.opt("portal_levels", "--portal-levels")?;
    a.flag("all", "--all")?;
    let ct = a.format(&[("json", JSON), ("human", TEXT), ("html", HTML)])?;
    let (Some(old), Some(new)) = (
        a.text("old", "old_name", "old.def")?,
        a.text("new", "new_name", "new.def")?,
    ) else {
        return Err(refuse(
            "/api/diff: `old` and `new` (the two descriptions) are required",
        ));
    };
    if old.0 == new.0 || old.0 == "-" || new.0 == "-" {
        return Err(refuse(
            "/api/diff: `old_name` and `new_name` must differ (and neither be `-`)",
        ));
    }
    a.argv.push(old.0.clone());
    a.argv.push(new.0.clone());
    let args = a.parse(diff::parse_args)?;
    Ok(call(Command::Diff(Box::new(args)), vec![old, new], ct))
}

/// Runs a prepared call on in-memory streams; returns (exit status,
/// stdout, stderr).
pub fn run(call: &Call) -> (u8, Vec<u8>, Vec<u8>) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run_into(call, &mut out, &mut err);
    (code, out, err)
}

/// [`run`] onto the caller's streams (a caller that takes the output as
/// it comes); returns the exit status.
pub fn run_into(call: &Call, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    run_reading(call, None, out, err)
}

/// [`run_into`], an xlogfile read from `input` as it goes instead of the
/// request's text (a caller's own file, however large: the server never
/// gives one).
pub fn run_reading(
    call: &Call,
    input: Option<&mut dyn std::io::Read>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let files: Vec<(&str, &[u8])> = call
        .files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let interrupted = call.interrupted.clone();
    let command = &call.command;
    crate::input::with_memory_files(&files, || match command {
        Command::Layout(a) => layout::execute(a, out, err, layout::Terminal::default()),
        Command::Find(a) => find::execute(a, out, err, layout::Terminal::default(), &interrupted),
        Command::Stats(a) => stats::execute(a, out, err, false),
        Command::Bones(a) => bones::execute(a, out, err, false),
        Command::Check(a) => check::execute(a, out, err, false),
        Command::Convert(a) => convert::execute(a, out, err, false),
        Command::Xlog(a, text) => match input {
            Some(input) => xlog::execute(a, input, out, err, false),
            None => xlog::execute(a, text.as_slice(), out, err, false),
        },
        Command::Diff(a) => diff::execute(a, out, err, false),
    })
}
