//! The real binary over standard input/output: well-formed traffic works,
//! malformed messages and unknown methods get errors and the server keeps
//! serving, and `shutdown` + `exit` end it with status 0.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    out: mpsc::Receiver<Value>,
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut v = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    v.extend_from_slice(body);
    v
}

impl Proc {
    fn start(program: &str, args: &[&str]) -> Proc {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, out) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        len = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("Content-Length from the server")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let v: Value = serde_json::from_slice(&body).expect("the server writes JSON");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Proc {
            child,
            stdin: Some(stdin),
            out,
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn close_input(&mut self) {
        self.stdin = None;
    }

    fn send(&mut self, v: Value) {
        self.send_raw(&frame(&serde_json::to_vec(&v).unwrap()));
    }

    /// The next message matching `pred` (others are skipped), within 20 s.
    fn wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.out.recv_timeout(left) {
                Ok(v) if pred(&v) => return v,
                Ok(_) => continue,
                Err(_) => panic!("no {what} from the server"),
            }
        }
    }

    fn response(&mut self, id: i64) -> Value {
        self.wait(&format!("response {id}"), |v| {
            v["id"] == id && v.get("method").is_none()
        })
    }

    fn null_id_error(&mut self) -> Value {
        self.wait("error with id null", |v| {
            v["id"].is_null() && v.get("error").is_some()
        })
    }

    fn exit_status(mut self) -> i32 {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Proc {
    /// The codes of the next diagnostics the server publishes.
    fn published_codes(&mut self) -> Vec<String> {
        let diags = self.wait("diagnostics", |v| {
            v["method"] == "textDocument/publishDiagnostics"
        });
        diags["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect()
    }
}

fn initialize(p: &mut Proc) {
    p.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    let init = p.response(1);
    assert_eq!(init["result"]["serverInfo"]["name"], "dgn-lsp", "{init}");
    p.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
}

#[test]
fn malformed_messages_get_errors_and_serving_goes_on() {
    let mut p = Proc::start(env!("CARGO_BIN_EXE_dgn-lsp"), &["--stdio"]);
    initialize(&mut p);

    // Not JSON.
    p.send_raw(&frame(b"{this is not json"));
    assert_eq!(p.null_id_error()["error"]["code"], -32700);
    // Not UTF-8.
    p.send_raw(&frame(b"\xff\xfe{}"));
    assert_eq!(p.null_id_error()["error"]["code"], -32700);
    // JSON, but no JSON-RPC message; its id is kept.
    p.send(json!({"id": 41, "hello": "world"}));
    assert_eq!(p.response(41)["error"]["code"], -32600);
    // A header without a length, then garbage between messages.
    p.send_raw(b"Content-Type: application/json\r\n\r\n");
    assert_eq!(p.null_id_error()["error"]["code"], -32700);
    p.send_raw(b"garbage garbage\r\n");
    // An unknown method, and known methods with bad parameters.
    p.send(json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/nonsense", "params": {}}));
    // The garbage is reported once the next message arrives, before it.
    assert_eq!(p.null_id_error()["error"]["code"], -32700);
    assert_eq!(p.response(2)["error"]["code"], -32601);
    p.send(json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {"textDocument": []}}));
    assert_eq!(p.response(3)["error"]["code"], -32602);

    // Still serving: open a file, get diagnostics and a hover.
    let text = "DUNGEON: \"A\" \"a\" (3, 0)\nLEVEL: \"x\" \"X\" @ (9, 0)\n";
    p.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///t.def", "languageId": "dungeon-def", "version": 1, "text": text}}}));
    let codes = p.published_codes();
    let expected = dgnkit::frontend::analyze(text.as_bytes(), &Default::default());
    assert_eq!(
        codes,
        expected
            .diagnostics
            .iter()
            .map(|d| d.code)
            .collect::<Vec<_>>()
    );
    p.send(json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///t.def"}, "position": {"line": 1, "character": 0}}}));
    let hover = p.response(4);
    assert!(
        hover["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("LEVEL"),
        "{hover}"
    );

    p.send(json!({"jsonrpc": "2.0", "id": 5, "method": "shutdown"}));
    assert_eq!(p.response(5)["result"], Value::Null);
    p.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(p.exit_status(), 0);
}

#[test]
fn end_of_input_without_shutdown_exits_with_1() {
    let mut p = Proc::start(env!("CARGO_BIN_EXE_dgn-lsp"), &[]);
    initialize(&mut p);
    p.close_input();
    assert_eq!(p.exit_status(), 1);
}

/// `dgn lsp` runs the server beside it (when the workspace's binaries are
/// built, as the test script does before testing).
#[test]
fn dgn_lsp_runs_the_server() {
    let server = std::path::PathBuf::from(env!("CARGO_BIN_EXE_dgn-lsp"));
    let dgn = server.with_file_name(format!("dgn{}", std::env::consts::EXE_SUFFIX));
    if !dgn.is_file() {
        eprintln!("skipping: {} is not built", dgn.display());
        return;
    }
    let mut p = Proc::start(dgn.to_str().unwrap(), &["lsp", "--stdio"]);
    initialize(&mut p);
    p.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    p.response(2);
    p.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(p.exit_status(), 0);
}

/// NetHack 3.7's dungeon.lua over the real binary: the Lua reader's and the
/// checks' diagnostics (for nethack-3.7, whatever the .def target), and a
/// hover with the level's depths.
#[test]
fn dungeon_lua_is_served_over_stdio() {
    let mut p = Proc::start(env!("CARGO_BIN_EXE_dgn-lsp"), &["--stdio"]);
    initialize(&mut p);
    let text = "dungeon = {\n   {\n      name = \"Main\", bonetag = \"M\", base = 10,\n      levels = { { name = \"start\", bonetag = \"S\", base = 2, range = 3 } },\n      brnches = {},\n   },\n}\n";
    p.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///dat/dungeon.lua", "languageId": "lua", "version": 1, "text": text}}}));
    let codes = p.published_codes();
    let opts = dgnkit::frontend::CheckOptions {
        target: dgnkit::options::Target::NetHack37,
        ..Default::default()
    };
    let expected =
        dgnkit::frontend::analyze_as(dgnkit::frontend::SourceKind::Lua, text.as_bytes(), &opts);
    let expected: Vec<&str> = expected.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, expected);
    assert!(
        codes.iter().any(|c| c == "W1201"),
        "the misspelt field: {codes:?}"
    );
    p.send(json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///dat/dungeon.lua"}, "position": {"line": 3, "character": 27}}}));
    let hover = p.response(2);
    let value = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(value.contains("**\"start\"**"), "{hover}");
    assert!(value.contains("- depth: 2"), "{hover}");
    p.send(json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}));
    p.response(3);
    p.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(p.exit_status(), 0);
}

/// The family note over the real binary: a file in a checkout named after
/// a variant, checked with the default target, gets N0001 naming the
/// setting that brings the variant's rules.
#[test]
fn a_variant_checkout_gets_the_family_note_over_stdio() {
    let mut p = Proc::start(env!("CARGO_BIN_EXE_dgn-lsp"), &["--stdio"]);
    initialize(&mut p);
    let text = "DUNGEON: \"A\" \"a\" (3, 0)\nLEVEL: \"x\" \"X\" @ (2, 0)\n";
    let uri = "file:///home/me/EvilHack/dat/dungeon.def";
    p.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "dungeon-def", "version": 1, "text": text}}}));
    let diags = p.wait("diagnostics", |v| {
        v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri
    });
    let note = diags["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "N0001")
        .unwrap_or_else(|| panic!("no family note: {diags}"))
        .clone();
    assert_eq!(note["severity"], 3, "{note}");
    assert!(
        note["message"]
            .as_str()
            .unwrap()
            .starts_with("this looks like an EvilHack file (its path names EvilHack); set `dgnkit.target` to \"evilhack\""),
        "{note}"
    );
    p.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    p.response(2);
    p.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(p.exit_status(), 0);
}
