//! `dgn serve`'s API, in process on a free loopback port: every endpoint
//! answers exactly what `dgn ... --format json` prints (the real binary,
//! the same text on its standard input or in a file of the same name),
//! limits and hostile requests get clear 4xx/503 answers without hanging
//! or panicking, and a few hundred concurrent requests of every kind stay
//! correct with the memory bounded.

use crate::common::{repo, Server};
use dgnkit_cli::serve::{self, Limits};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DGN: &str = env!("CARGO_BIN_EXE_dgn");

/// An answer: status, headers (lower-case names), body.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("UTF-8 body")
    }
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// One HTTP/1.1 request on its own connection (a client of a few lines:
/// the answers all carry a Content-Length).
fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> Answer {
    request_with(addr, method, path, body, "")
}

/// [`request`] with more header lines (each ending in `\r\n`).
fn request_with(addr: SocketAddr, method: &str, path: &str, body: &[u8], more: &str) -> Answer {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{more}Connection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // A server may answer (413) before reading a large body; a broken pipe
    // then is no failure.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let body = raw[split + 4..].to_vec();
    let a = Answer {
        status,
        headers,
        body,
    };
    if let Some(n) = a.header("content-length") {
        assert_eq!(n.parse::<usize>().unwrap(), a.body.len(), "{path}: length");
    }
    a
}

fn post(addr: SocketAddr, endpoint: &str, body: &Value) -> Answer {
    request(
        addr,
        "POST",
        &format!("/api/{endpoint}"),
        body.to_string().as_bytes(),
    )
}

/// `dgn ARGS` in `dir` with `stdin`: (exit status, stdout).
fn cli(args: &[&str], stdin: &str, dir: Option<&Path>) -> (u8, Vec<u8>) {
    let mut c = Command::new(DGN);
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("NO_COLOR", "1");
    if let Some(d) = dir {
        c.current_dir(d);
    }
    let mut child = c.spawn().expect("dgn");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_string();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (out.status.code().unwrap_or(-1) as u8, out.stdout)
}

/// A private folder holding `files`, removed when dropped.
struct Folder(std::path::PathBuf);

impl Folder {
    fn with(files: &[(&str, &str)]) -> Folder {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("dgn-serve-test-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        Folder(dir)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One parity case: the request, and the command line that must print the
/// same bytes (with its standard input, and files in its folder).
struct Case {
    endpoint: &'static str,
    body: Value,
    args: Vec<&'static str>,
    stdin: String,
    files: Vec<(&'static str, String)>,
}

fn case(endpoint: &'static str, body: Value, args: &[&'static str]) -> Case {
    Case {
        endpoint,
        body,
        args: args.to_vec(),
        stdin: String::new(),
        files: Vec::new(),
    }
}

fn cases() -> Vec<Case> {
    let def343 = repo("corpus/nethack-3.4.3.def");
    let lua37 = repo("corpus/nethack-3.7.lua");
    let bad = repo("corpus/ranges-bad-rand.def");
    let def36 = repo("corpus/nethack-3.6.def");
    let def360 = repo("corpus/nethack-3.6.0.def");
    let xlog = repo("tests/data/nethack-3.4.3.xlog");
    let mut v = vec![
        case(
            "layout",
            json!({"seed": 42}),
            &["layout", "--seed=42", "--format=json"],
        ),
        case(
            "layout",
            json!({"game": "nethack-3.7", "seed": "42", "role": "Wiz", "trace": true}),
            &[
                "layout",
                "--target=nethack-3.7",
                "--seed=42",
                "--role=Wiz",
                "--trace",
                "--format=json",
            ],
        ),
        case(
            "layout",
            json!({"target": "nethack-3.6", "seeds": "0..25", "wizard": true}),
            &["layout", "--seeds=0..25", "--wizard", "--format=json"],
        ),
        case(
            "layout",
            json!({"seed": 7, "format": "svg"}),
            &["layout", "--seed=7", "--format=svg"],
        ),
        case(
            "layout",
            json!({"game": "xnethack", "seed": 42, "format": "overview"}),
            &[
                "layout",
                "--target=xnethack",
                "--seed=42",
                "--format=overview",
            ],
        ),
        case(
            "find",
            json!({"query": "bigrm and oracle.depth == 5", "seeds": "0..20000", "limit": 7}),
            &[
                "find",
                "--seeds=0..20000",
                "--limit=7",
                "--format=json",
                "bigrm and oracle.depth == 5",
            ],
        ),
        case(
            "find",
            json!({"query": "bigrm", "seeds": "0..3000", "count": true}),
            &[
                "find",
                "--seeds=0..3000",
                "--count",
                "--format=json",
                "bigrm",
            ],
        ),
        case("stats", json!({}), &["stats", "--format=json"]),
        case(
            "stats",
            json!({"given": "oracle.depth == 7", "wizard": true}),
            &[
                "stats",
                "--given=oracle.depth == 7",
                "--wizard",
                "--format=json",
            ],
        ),
        case(
            "stats",
            json!({"game": "nethack-3.7", "role": "Valkyrie"}),
            &[
                "stats",
                "--target=nethack-3.7",
                "--role=Valkyrie",
                "--format=json",
            ],
        ),
        case(
            "bones",
            json!({"seed": 42}),
            &["bones", "--seed=42", "--format=json"],
        ),
        case("bones", json!({}), &["bones", "--format=json"]),
    ];
    let mut c = case(
        "layout",
        json!({"text": def343, "target": "nethack-3.4.3", "seed": 3}),
        &[
            "layout",
            "--target=nethack-3.4.3",
            "--seed=3",
            "--format=json",
            "-",
        ],
    );
    c.stdin = def343.clone();
    v.push(c);
    let mut c = case(
        "check",
        json!({"text": bad}),
        &["check", "--format=json", "-"],
    );
    c.stdin = bad.clone();
    v.push(c);
    let mut c = case(
        "check",
        json!({"text": lua37, "name": "dungeon.lua", "target": "nethack-3.7"}),
        &[
            "check",
            "--target=nethack-3.7",
            "--format=json",
            "dungeon.lua",
        ],
    );
    c.files = vec![("dungeon.lua", lua37.clone())];
    v.push(c);
    let mut c = case(
        "convert",
        json!({"text": def36, "to": "lua"}),
        &["convert", "--to=lua", "--format=json", "-"],
    );
    c.stdin = def36.clone();
    v.push(c);
    let mut c = case(
        "xlog",
        json!({"text": xlog}),
        &["xlog", "--format=json", "-"],
    );
    c.stdin = xlog.clone();
    v.push(c);
    let mut c = case(
        "xlog",
        json!({"text": xlog, "where": "role = Val", "game": "nethack"}),
        &[
            "xlog",
            "--game=nethack",
            "--where=role = Val",
            "--format=json",
            "-",
        ],
    );
    c.stdin = xlog.clone();
    v.push(c);
    let overview = "The Dungeons of Doom: levels 1 to 12\n  Level 1:\n  Level 5: oracle\n  Level 6: stairs to Sokoban\n";
    let mut c = case(
        "stats",
        json!({"given_overview": overview}),
        &["stats", "--given-overview=seen.txt", "--format=json"],
    );
    c.files = vec![("seen.txt", overview.to_string())];
    v.push(c);
    let mut c = case(
        "diff",
        json!({"old": def360, "new": def36}),
        &["diff", "--format=json", "old.def", "new.def"],
    );
    c.files = vec![("old.def", def360), ("new.def", def36)];
    v.push(c);
    v
}

fn expected(c: &Case) -> (u8, Vec<u8>) {
    let files: Vec<(&str, &str)> = c.files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let folder = Folder::with(&files);
    cli(&c.args, &c.stdin, Some(&folder.0))
}

#[test]
fn every_endpoint_answers_what_the_command_line_prints() {
    let server = Server::start(Limits::default());
    for c in cases() {
        let (code, out) = expected(&c);
        let a = post(server.addr, c.endpoint, &c.body);
        assert_eq!(
            a.status,
            200,
            "{} {}: {}",
            c.endpoint,
            c.body.to_string().chars().take(200).collect::<String>(),
            a.text()
        );
        assert_eq!(a.header("x-dgn-exit"), Some(code.to_string().as_str()));
        assert!(
            a.body == out,
            "/api/{} {:?} differs from `dgn {}`:\n--- API\n{}\n--- CLI\n{}",
            c.endpoint,
            c.args,
            c.args.join(" "),
            a.text().chars().take(2000).collect::<String>(),
            String::from_utf8_lossy(&out)
                .chars()
                .take(2000)
                .collect::<String>()
        );
    }
}

#[test]
fn get_takes_the_same_parameters_as_a_query_string() {
    let server = Server::start(Limits::default());
    let a = request(
        server.addr,
        "GET",
        "/api/layout?game=nethack-3.7&seed=42&role=Wiz&wizard=1",
        b"",
    );
    let (_, out) = cli(
        &[
            "layout",
            "--target=nethack-3.7",
            "--seed=42",
            "--role=Wiz",
            "--wizard",
            "--format=json",
        ],
        "",
        None,
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.body, out);
    assert_eq!(a.header("content-type"), Some("application/json"));
}

#[test]
fn the_page_and_the_api_description_are_served() {
    let server = Server::start(Limits::default());
    let page = request(server.addr, "GET", "/", b"");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("/app.js"));
    for (path, kind) in [("/app.js", "text/javascript"), ("/app.css", "text/css")] {
        let a = request(server.addr, "GET", path, b"");
        assert_eq!(a.status, 200, "{path}");
        assert!(a.header("content-type").unwrap().starts_with(kind));
        assert!(a.body.len() > 1000, "{path} is built (web/dist)");
    }
    let api = request(server.addr, "GET", "/api", b"").json();
    assert!(api["openapi"].as_str().unwrap().starts_with("3."));
    for e in serve::api::ENDPOINTS {
        assert!(
            api["paths"].get(format!("/api/{e}")).is_some(),
            "/api describes /api/{e}"
        );
    }
    // The page offers the games `/api` lists (checked against the records
    // by `the_api_names_the_games_of_the_records`) instead of its own.
    let js = request(server.addr, "GET", "/app.js", b"").text();
    assert!(js.contains("LuaGame"), "the page reads its games from /api");
    assert_eq!(request(server.addr, "GET", "/nope", b"").status, 404);
    assert_eq!(request(server.addr, "GET", "/api/nope", b"").status, 404);
}

/// The page's text comes gzipped to a browser that takes it, and a
/// favicon is served (the browser asks for one on every load).
#[test]
fn assets_are_gzipped_and_the_favicon_answers() {
    let server = Server::start(Limits::default());
    for path in ["/", "/app.js", "/app.css", "/api"] {
        let plain = request(server.addr, "GET", path, b"");
        assert_eq!(plain.header("content-encoding"), None, "{path}");
        let zipped = request_with(
            server.addr,
            "GET",
            path,
            b"",
            "Accept-Encoding: br;q=1.0, gzip;q=0.8\r\n",
        );
        assert_eq!(zipped.status, 200, "{path}");
        assert_eq!(zipped.header("content-encoding"), Some("gzip"), "{path}");
        assert_eq!(zipped.header("vary"), Some("accept-encoding"), "{path}");
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&zipped.body[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, plain.body, "{path}");
        if path == "/app.js" {
            assert!(
                zipped.body.len() * 3 < plain.body.len(),
                "{path} compresses"
            );
        }
        let refused = request_with(
            server.addr,
            "GET",
            path,
            b"",
            "Accept-Encoding: gzip;q=0\r\n",
        );
        assert_eq!(refused.header("content-encoding"), None, "{path}");
    }
    let icon = request(server.addr, "GET", "/favicon.ico", b"");
    assert_eq!(icon.status, 200);
    assert_eq!(
        icon.header("content-type"),
        Some("image/vnd.microsoft.icon")
    );
    assert_eq!(&icon.body[..4], &[0, 0, 1, 0], "an ICO file");
    let page = request(server.addr, "GET", "/", b"").text();
    assert!(page.contains(r#"<link rel="icon" href="/favicon.ico">"#));
}

/// `dgn serve --access-log`: a Common Log Format line per request, with
/// the status, the size and the seconds taken.
#[test]
fn the_access_log_has_a_line_per_request() {
    #[derive(Clone, Default)]
    struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let lines = Shared::default();
    let log = serve::access_log::AccessLog::to(Box::new(lines.clone()));
    let server = Server::start_logged(Limits::default(), Some(std::sync::Arc::new(log)));
    let page = request(server.addr, "GET", "/", b"");
    let missing = request(server.addr, "GET", "/nope?x=1", b"");
    drop(server);
    let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(got.len(), 2, "{text}");
    let shape = |line: &str, request: &str, status: u16, size: usize| {
        assert!(line.starts_with("127.0.0.1 - - ["), "{line}");
        assert!(line.contains(" +0000] "), "{line}");
        let rest = line.split_once("] ").unwrap().1;
        let want = format!("\"{request}\" {status} {size} ");
        assert!(rest.starts_with(&want), "{line} (wanted {want})");
        let secs: f64 = rest[want.len()..].parse().unwrap();
        assert!((0.0..60.0).contains(&secs), "{line}");
    };
    shape(got[0], "GET / HTTP/1.1", 200, page.body.len());
    shape(got[1], "GET /nope?x=1 HTTP/1.1", 404, missing.body.len());
}

/// `/api` names the games once, as their records do: `components.schemas.Game`
/// (every `--target`, in order) and `LuaGame` (the games a `dungeon.lua`
/// is for), which every `target` refers to; the page reads both. A game
/// added to dgnkit fails this until `cli/src/serve/openapi.json` lists it.
#[test]
fn the_api_names_the_games_of_the_records() {
    use dgnkit::options::Target;
    let api: Value = serde_json::from_str(serve::assets::OPENAPI).unwrap();
    let schemas = &api["components"]["schemas"];
    let names = |enumed: &Value| -> Vec<String> {
        enumed
            .as_array()
            .unwrap_or_else(|| panic!("an enum: {enumed}"))
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    let games: Vec<String> = Target::ALL.map(|t| t.name().to_string()).to_vec();
    assert_eq!(names(&schemas["Game"]["enum"]), games, "Game");
    assert_eq!(schemas["Game"]["default"], Target::default().name());
    let lua: Vec<String> = Target::ALL
        .into_iter()
        .filter(|t| t.game().takes_lua())
        .map(|t| t.name().to_string())
        .collect();
    assert_eq!(names(&schemas["LuaGame"]["enum"]), lua, "LuaGame");
    // No copy of the list elsewhere: each `target` (and the endpoints'
    // `game`, another name for it) refers to the one enum.
    for t in Target::ALL {
        let quoted = format!("\"{}\"", t.name());
        let lists = 1 + usize::from(t.game().takes_lua()) + usize::from(t == Target::default());
        assert_eq!(
            serve::assets::OPENAPI.matches(&quoted).count(),
            lists,
            "{quoted} is named once per list"
        );
    }
    let mut targets = 0;
    for (path, item) in api["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let body = &op["requestBody"]["content"]["application/json"]["schema"]["properties"];
            let params = op["parameters"].as_array().into_iter().flatten();
            let query = params
                .filter(|p| p["name"] == "target")
                .map(|p| &p["schema"]);
            for schema in query.chain(body.get("target")) {
                targets += 1;
                assert_eq!(
                    schema["$ref"], "#/components/schemas/Game",
                    "{method} {path}: {schema}"
                );
            }
        }
    }
    assert_eq!(targets, 2 * serve::api::ENDPOINTS.len());
}

#[test]
fn errors_are_json_with_the_exit_status() {
    let server = Server::start(Limits::default());
    // An input error (exit 1) with nothing printed: 400.
    let a = post(
        server.addr,
        "layout",
        &json!({"text": "DUNGEON: \"x\" \"y\" (5, 2)\nLEVEL: \"a\" \"b\" @ (99, 1)\n"}),
    );
    assert_eq!(a.status, 400, "{}", a.text());
    assert_eq!(a.json()["exit"], 1);
    assert!(a.json()["error"].as_str().unwrap().contains("E0401"));
    // A usage error (exit 2): 422.
    for body in [
        json!({"game": "nethack-9"}),
        json!({"seed": "many"}),
        json!({"role": "Wombat", "game": "nethack-3.7"}),
        json!({"format": "png"}),
        json!({"file": "/etc/passwd"}),
        json!({"text": "x", "name": "../../etc/passwd"}),
        json!({"text": "x", "name": "/etc/passwd"}),
        json!({"seed": {"$gt": 1}}),
    ] {
        let a = post(server.addr, "layout", &body);
        assert_eq!(a.status, 422, "{body}: {}", a.text());
        let v = a.json();
        assert_eq!(v["exit"], 2, "{body}");
        assert!(!v["error"].as_str().unwrap().is_empty());
    }
    // The file system is never read: a check of `-` reads the request's
    // text, and the description's name is only a name.
    let a = post(
        server.addr,
        "check",
        &json!({"text": "", "name": "Cargo.toml"}),
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(a.text().contains("\"Cargo.toml\""));
    assert!(!a.text().contains("workspace"));
    // Malformed JSON: 400.
    for body in [&b"{\"seed\": "[..], b"[1, 2]", b"\"layout\"", b"\xff\xfe"] {
        let a = request(server.addr, "POST", "/api/layout", body);
        assert_eq!(a.status, 400, "{:?}", String::from_utf8_lossy(body));
        assert!(a.json()["error"].as_str().unwrap().contains("JSON"));
    }
}

/// `dgn serve` as a process, killed when dropped.
struct Process(std::process::Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The names in `dir`.
fn listing(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// A pasted overview reaches the statistics in memory, as the request's
/// text does: the real server, with its temporary and working folders
/// empty, answers from it and leaves both empty; its notes name the
/// parameter, not a file.
#[test]
fn a_given_overview_is_answered_without_touching_the_disk() {
    use std::io::BufRead;
    let tmp = Folder::with(&[]);
    let cwd = Folder::with(&[]);
    let mut child = Command::new(DGN)
        .args(["serve", "--addr", "127.0.0.1:0", "-j", "1"])
        .env("TMPDIR", &tmp.0)
        .current_dir(&cwd.0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dgn serve");
    let stderr = child.stderr.take().unwrap();
    let _server = Process(child);
    let mut first = String::new();
    std::io::BufReader::new(stderr)
        .read_line(&mut first)
        .unwrap();
    let addr: SocketAddr = first
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let overview = "The Dungeons of Doom: levels 1 to 6\n   Level 5:\n      Oracle of Delphi.\n      A dragon was here.\n";
    let a = post(
        addr,
        "stats",
        &json!({"given_overview": overview, "text": repo("corpus/nethack-3.6.def"), "name": "dungeon.def"}),
    );
    assert_eq!(a.status, 200, "{}", a.text());
    let describe = a.json()["given"]["describe"].as_str().unwrap().to_string();
    assert!(describe.contains("oracle.depth == 5"), "{describe}");
    let notes = a.header("x-dgn-stderr").unwrap_or_default();
    assert!(
        notes.contains("dgn stats: the overview:4: `A dragon was here.`"),
        "{notes}"
    );
    assert_eq!(
        listing(&tmp.0),
        Vec::<String>::new(),
        "the temporary folder"
    );
    assert_eq!(listing(&cwd.0), Vec::<String>::new(), "the working folder");
}

#[test]
fn an_oversized_body_is_413() {
    let server = Server::start(Limits::default());
    let text = "#".repeat(3 << 20);
    let a = post(server.addr, "check", &json!({ "text": text }));
    assert_eq!(a.status, 413);
    assert!(a.json()["error"].as_str().unwrap().contains("larger"));
    // Just under the limit is answered.
    let text = format!("{}\n", "#".repeat((2 << 20) - 100));
    let a = post(server.addr, "check", &json!({ "text": text }));
    assert_eq!(a.status, 200, "{}", a.text());
}

#[test]
fn hostile_requests_are_answered_quickly_and_clearly() {
    let limits = Limits {
        time: Duration::from_secs(5),
        ..Limits::default()
    };
    let server = Server::start(limits);
    let t0 = Instant::now();
    for (endpoint, body) in [
        (
            "layout",
            json!({"game": "nethack-3.7", "name": "dungeon.lua", "text": "while true do end\n"}),
        ),
        (
            "stats",
            json!({"game": "nethack-3.7", "name": "dungeon.lua", "text": "while true do end\ndungeon = {}\n"}),
        ),
        (
            "layout",
            json!({"game": "nethack-3.7", "name": "dungeon.lua", "text": "os.execute('touch /tmp/dgn-serve-pwned')\ndungeon = {}\n"}),
        ),
        (
            "check",
            json!({"name": "dungeon.lua", "text": "io.open('/etc/passwd'):read('a')\nlocal t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1e6) end\n"}),
        ),
        (
            "check",
            json!({"name": "dungeon.lua", "text": "local function f() return f() + 1 end f()\n"}),
        ),
    ] {
        let a = post(server.addr, endpoint, &body);
        assert!(
            matches!(a.status, 200 | 400 | 422 | 503),
            "{endpoint} {body}: {} {}",
            a.status,
            a.text()
        );
        if a.status != 200 {
            assert!(a.json()["error"].is_string());
        }
    }
    assert!(!Path::new("/tmp/dgn-serve-pwned").exists());
    assert!(t0.elapsed() < Duration::from_secs(30));
    // Bounds: seeds, limit, samples.
    for (endpoint, body) in [
        (
            "find",
            json!({"query": "bigrm", "seeds": "0..1000000000000"}),
        ),
        ("find", json!({"query": "bigrm", "limit": 1_000_000_000u64})),
        (
            "find",
            json!({"query": "bigrm", "seeds": "18446744073709551615..=18446744073709551615"}),
        ),
        ("find", json!({"seeds": "0..10"})),
        ("layout", json!({"seeds": "0..100000000"})),
        ("stats", json!({"sample": true, "samples": 100_000_000u64})),
        ("find", json!({"query": ") and (", "seeds": "0..10"})),
    ] {
        let a = post(server.addr, endpoint, &body);
        assert!(
            a.status == 422 || a.status == 400,
            "{endpoint} {body}: {} {}",
            a.status,
            a.text()
        );
        assert!(a.json()["error"].is_string());
    }
}

#[test]
fn the_time_budget_holds_and_a_busy_server_says_so() {
    let limits = Limits {
        time: Duration::from_millis(300),
        workers: 1,
        queue_wait: Duration::from_millis(200),
        ..Limits::default()
    };
    let server = Server::start(limits);
    let slow = json!({"query": "oracle.depth == 99", "seeds": "0..1000000"});
    let addr = server.addr;
    let t0 = Instant::now();
    let a = post(addr, "find", &slow);
    assert_eq!(a.status, 503, "{}", a.text());
    let msg = a.json()["error"].as_str().unwrap().to_string();
    assert!(msg.contains("time budget"), "{msg}");
    assert!(msg.ends_with("ask for less: fewer `seeds`"), "{msg}");
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    // The stopped search gives its worker back: the next request runs.
    std::thread::sleep(Duration::from_millis(500));
    let a = post(addr, "layout", &json!({"seed": 1}));
    assert_eq!(a.status, 200, "{}", a.text());
    // With the one worker busy, a request waits at most queue_wait.
    let busy = std::thread::spawn(move || post(addr, "find", &slow));
    std::thread::sleep(Duration::from_millis(50));
    let t0 = Instant::now();
    let a = post(addr, "layout", &json!({"seed": 1}));
    assert_eq!(a.status, 503, "{}", a.text());
    assert!(a.json()["error"].as_str().unwrap().contains("busy"));
    assert!(t0.elapsed() < Duration::from_secs(2));
    assert_eq!(busy.join().unwrap().status, 503);
}

/// Statistics whose time runs out are stopped, not abandoned: the one
/// worker is free again at once (200,000 samples of a 3.6 file take about
/// a second, the exact statistics of two dNetHack files most of a second:
/// far more than the budget; the one stops the sampling, the other the
/// enumeration).
#[test]
fn statistics_out_of_time_are_stopped_and_free_their_worker() {
    let limits = Limits {
        time: Duration::from_millis(100),
        workers: 1,
        // Short of what the stopped work would still take, with room for
        // a machine busy with the other tests.
        queue_wait: Duration::from_millis(200),
        ..Limits::default()
    };
    let server = Server::start(limits);
    let addr = server.addr;
    for (endpoint, body) in [
        ("stats", json!({"sample": true, "samples": 200000})),
        (
            "diff",
            // Exact statistics of two dNetHack files: seconds each.
            json!({"target": "dnethack", "old": repo("corpus/dnethack-3.22.def"), "new": repo("corpus/dnethack-3.23.def")}),
        ),
    ] {
        let a = post(addr, endpoint, &body);
        assert_eq!(a.status, 503, "{endpoint}: {}", a.text());
        let msg = a.json()["error"].as_str().unwrap().to_string();
        assert!(msg.contains("was stopped"), "{endpoint}: {msg}");
        // What to ask for instead, in the endpoint's own parameters (the
        // page names its controls by them).
        let less = match endpoint {
            "stats" => {
                "ask for less: `sample` (a sample of seeds, not every layout) with fewer `samples`"
            }
            _ => "ask for less: smaller files",
        };
        assert!(msg.ends_with(less), "{endpoint}: {msg}");
        // Within a few milliseconds the worker is back: a request that may
        // wait only 200 ms for it is answered.
        std::thread::sleep(Duration::from_millis(30));
        let a = post(addr, "layout", &json!({"seed": 1}));
        assert_eq!(a.status, 200, "{endpoint}: {}", a.text());
    }
}

fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

#[test]
fn hundreds_of_concurrent_requests_stay_correct_and_bounded() {
    let server = Server::start(Limits {
        queue_wait: Duration::from_secs(30),
        ..Limits::default()
    });
    let addr = server.addr;
    let xlog = repo("tests/data/nethack-3.4.3.xlog");
    let bad = repo("corpus/ranges-bad-rand.def");
    let kinds: Vec<(&str, Value)> = vec![
        ("layout", json!({"seed": 1})),
        ("layout", json!({"seed": 2, "format": "svg"})),
        (
            "layout",
            json!({"game": "nethack-3.7", "seed": 3, "role": "Wiz"}),
        ),
        (
            "find",
            json!({"query": "bigrm", "seeds": "0..2000", "limit": 5}),
        ),
        ("stats", json!({"game": "nethack-3.4.3"})),
        ("bones", json!({"seed": 5})),
        ("check", json!({"text": bad})),
        ("xlog", json!({"text": xlog})),
        ("layout", json!({"seed": "x"})),
    ];
    // Each kind's answer, asked alone first (the parity test holds these
    // to the command line).
    let want: Vec<(u16, Vec<u8>)> = kinds
        .iter()
        .map(|(e, b)| {
            let a = post(addr, e, b);
            (a.status, a.body)
        })
        .collect();
    // Warm the allocator with one round before measuring.
    let before = rss_kib();
    let kinds = std::sync::Arc::new(kinds);
    let want = std::sync::Arc::new(want);
    let deadline = Instant::now() + Duration::from_secs(4);
    let threads: Vec<_> = (0..256)
        .map(|t| {
            let kinds = kinds.clone();
            let want = want.clone();
            std::thread::spawn(move || {
                let mut n = 0usize;
                let mut i = t;
                while Instant::now() < deadline || n == 0 {
                    let k = i % kinds.len();
                    let (e, b) = &kinds[k];
                    let a = post(addr, e, b);
                    assert_eq!(a.status, want[k].0, "{e} {b}: {}", a.text());
                    assert!(
                        a.body == want[k].1,
                        "{e} {b}: a different answer under load"
                    );
                    n += 1;
                    i += 7;
                }
                n
            })
        })
        .collect();
    let total: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    let after = rss_kib();
    eprintln!("{total} requests in about 4 s; VmRSS {before:?} -> {after:?} KiB");
    assert!(total >= 256);
    if let (Some(b), Some(a)) = (before, after) {
        assert!(
            a < b + 512 * 1024,
            "memory grew from {b} KiB to {a} KiB under load"
        );
    }
}

/// The page's Edit and Diff views start each game from the description
/// `dgn layout --target GAME` lays out when given none: the page's table
/// (`web/src/samples.ts`, which the page embeds) names the same file, and
/// imports that file, for every game.
#[test]
fn the_page_starts_each_game_from_the_description_the_command_line_uses() {
    let samples = repo("web/src/samples.ts");
    // `import NAME from '../../corpus/FILE';`
    let imports: Vec<(&str, &str)> = samples
        .lines()
        .filter_map(|l| {
            let (name, from) = l
                .strip_prefix("import ")?
                .split_once(" from '../../corpus/")?;
            Some((name, from.strip_suffix("';")?))
        })
        .collect();
    for target in dgnkit::options::Target::ALL {
        let game = target.name();
        // `  GAME: sample('FILE', NAME),` (quoted when the name is not an identifier)
        let row = samples
            .lines()
            .map(str::trim)
            .find(|l| {
                l.strip_prefix(&format!("'{game}': sample("))
                    .or_else(|| l.strip_prefix(&format!("{game}: sample(")))
                    .is_some()
            })
            .unwrap_or_else(|| panic!("web/src/samples.ts has no sample for {game}"));
        let (file, name) = row
            .split_once("sample('")
            .and_then(|(_, r)| r.strip_suffix("),"))
            .and_then(|r| r.split_once("', "))
            .unwrap_or_else(|| panic!("not a sample row: {row}"));
        let (built_in, _) = dgnkit_cli::layout::built_in(target);
        assert_eq!(
            format!("{file} (built in)"),
            built_in,
            "{game}: the page's sample is not what dgn layout lays out"
        );
        let imported = imports.iter().find(|(n, _)| *n == name).map(|(_, f)| *f);
        assert_eq!(imported, Some(file), "{game}: {name} is not corpus/{file}");
    }
}
