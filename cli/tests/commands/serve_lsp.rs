//! `dgn serve`'s `/lsp`: the language server over a WebSocket, in process on
//! a free loopback port, driven by a WebSocket client as the page drives it.
//! A session gives diagnostics, hovers with depths and bones, and
//! formatting; it never reads a file or runs git for its client; hostile
//! frames close the session or are answered with errors, and the server
//! serves on; the session and document caps hold.

use crate::common::{repo, Server};
use dgnkit_cli::serve::Limits;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const DGN: &str = env!("CARGO_BIN_EXE_dgn");

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The status line and body of a plain HTTP GET.
fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

async fn open(addr: SocketAddr) -> Socket {
    open_from(addr, None).await
}

/// A session opened by a page of `origin`, as a browser names it.
async fn open_from(addr: SocketAddr, origin: Option<&str>) -> Socket {
    let mut request = format!("ws://{addr}/lsp").into_client_request().unwrap();
    if let Some(o) = origin {
        request.headers_mut().insert("origin", o.parse().unwrap());
    }
    let (ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("the WebSocket opens");
    ws
}

/// The HTTP status a refused upgrade is answered with.
async fn refused(addr: SocketAddr, origin: Option<&str>) -> u16 {
    let mut request = format!("ws://{addr}/lsp").into_client_request().unwrap();
    if let Some(o) = origin {
        request.headers_mut().insert("origin", o.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok(_) => 101,
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => r.status().as_u16(),
        Err(e) => panic!("the upgrade failed otherwise: {e}"),
    }
}

/// One LSP client over a WebSocket: requests and their answers, and the
/// notifications seen on the way.
struct Client {
    ws: Socket,
    next_id: u64,
    notifications: Vec<Value>,
}

impl Client {
    async fn new(addr: SocketAddr) -> Client {
        Client {
            ws: open(addr).await,
            next_id: 0,
            notifications: Vec::new(),
        }
    }

    async fn send(&mut self, message: Value) {
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .expect("the message is sent");
    }

    async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    /// The next JSON-RPC message, within 20 seconds.
    async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .expect("the server answers within 20 s")
                .expect("the session is open")
                .expect("a WebSocket message");
            match m {
                Message::Text(t) => return serde_json::from_str(t.as_str()).expect("JSON"),
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("not a text message: {other:?}"),
            }
        }
    }

    /// Sends a request and returns its response (`result` or `error`).
    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let m = self.next().await;
            if m.get("id") == Some(&json!(id)) && m.get("method").is_none() {
                return m;
            }
            self.notifications.push(m);
        }
    }

    async fn initialize(&mut self) -> Value {
        let r = self
            .request(
                "initialize",
                json!({"processId": null, "capabilities": {}, "initializationOptions": {"dgnkit": {"target": "nethack-3.6"}}}),
            )
            .await;
        self.notify("initialized", json!({})).await;
        r
    }

    /// The first notification `seen` accepts (seen before, or awaited).
    async fn notification(&mut self, seen: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.notifications.iter().position(&seen) {
            return self.notifications.remove(i);
        }
        loop {
            let m = self.next().await;
            if seen(&m) {
                return m;
            }
            self.notifications.push(m);
        }
    }

    /// The next diagnostics published for `uri` (seen before, or awaited).
    async fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let m = self
            .notification(|m| {
                m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
            })
            .await;
        m["params"]["diagnostics"].as_array().cloned().unwrap()
    }

    async fn open_document(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "dungeon-def", "version": 1, "text": text}}),
        )
        .await;
    }
}

/// The position (line, UTF-16 column) of the first `needle` in `text`.
fn position_of(text: &str, needle: &str) -> Value {
    let at = text.find(needle).expect("the needle is in the text");
    let line = text[..at].matches('\n').count();
    let start = text[..at].rfind('\n').map_or(0, |p| p + 1);
    let character = text[start..at].encode_utf16().count();
    json!({"line": line, "character": character})
}

/// `edits` applied to `text` (ranges of the original text, in order).
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let character = p["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let line_text = &text[start..];
        let mut units = 0;
        let mut bytes = 0;
        for c in line_text.chars() {
            if units >= character {
                break;
            }
            units += c.len_utf16();
            bytes += c.len_utf8();
        }
        start + bytes
    };
    let mut out = text.to_string();
    let mut sorted: Vec<&Value> = edits.iter().collect();
    sorted.sort_by_key(|e| std::cmp::Reverse(offset(&e["range"]["start"])));
    for e in sorted {
        let (a, b) = (offset(&e["range"]["start"]), offset(&e["range"]["end"]));
        out.replace_range(a..b, e["newText"].as_str().unwrap());
    }
    out
}

/// What `dgn fmt -` makes of `text`.
fn dgn_fmt(text: &str) -> String {
    let mut child = Command::new(DGN)
        .args(["fmt", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_session_gives_diagnostics_hovers_and_formatting_and_runs_nothing() {
    let server = Server::start(Limits::default());
    let addr = server.addr;
    runtime().block_on(async move {
        let mut c = Client::new(addr).await;
        let init = c.initialize().await;
        let caps = &init["result"]["capabilities"];
        assert_eq!(caps["hoverProvider"], json!(true), "{init}");
        assert_eq!(caps["documentFormattingProvider"], json!(true), "{init}");
        assert!(
            caps.get("executeCommandProvider").is_none(),
            "a sandboxed server offers no command: {init}"
        );

        // An error, as the editor shows it.
        let builtin = repo("corpus/nethack-3.6.def");
        let bad = format!("{builtin}\nLEVEL: \"extra\" \"X\" @ (99, 1)\n");
        c.open_document("untitled:bad.def", &bad).await;
        let diags = c.diagnostics("untitled:bad.def").await;
        let error = diags
            .iter()
            .find(|d| d["severity"] == json!(1))
            .unwrap_or_else(|| panic!("an error among {diags:?}"));
        assert!(
            error["code"].as_str().is_some_and(|c| c.starts_with('E')),
            "{error}"
        );
        assert_eq!(error["range"]["start"]["line"], json!(bad.lines().count() - 1));

        // A special level's hover: its depths, and, once the statistics are
        // computed (in the background), their probabilities and the bones
        // verdict.
        let uri = "untitled:dungeon.def";
        c.open_document(uri, &builtin).await;
        let diags = c.diagnostics(uri).await;
        assert!(
            diags.iter().all(|d| d["severity"] != json!(1)),
            "{diags:?}"
        );
        let at = position_of(&builtin, "\"oracle\"");
        let t0 = Instant::now();
        let value = loop {
            let h = c
                .request(
                    "textDocument/hover",
                    json!({"textDocument": {"uri": uri}, "position": at}),
                )
                .await;
            let value = h["result"]["contents"]["value"]
                .as_str()
                .unwrap_or_else(|| panic!("a hover: {h}"))
                .to_string();
            assert!(value.contains("depth:"), "{value}");
            if value.contains("bones: eligible") || t0.elapsed() > Duration::from_secs(20) {
                break value;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert!(value.contains("**\"oracle\"**"), "{value}");
        assert!(value.contains("depth: 5 (20%)"), "{value}");
        assert!(value.contains("bones: eligible"), "{value}");

        // Formatting: `dgn fmt`'s text, as edits.
        let messy_uri = "untitled:messy.def";
        let messy = builtin.replace(
            "LEVEL:\t\t\"oracle\" \"O\" @ (5, 5)",
            "LEVEL:\"oracle\"    \"O\"   @(5,5)",
        );
        assert_ne!(messy, builtin);
        c.open_document(messy_uri, &messy).await;
        let f = c
            .request(
                "textDocument/formatting",
                json!({"textDocument": {"uri": messy_uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
            )
            .await;
        let edits = f["result"]
            .as_array()
            .unwrap_or_else(|| panic!("edits: {f}"));
        assert!(!edits.is_empty(), "{f}");
        assert_eq!(apply(&messy, edits), dgn_fmt(&messy));

        // The comparison with git's HEAD reads a file and runs git: refused.
        let r = c
            .request(
                "workspace/executeCommand",
                json!({"command": "dgnkit.compareWithHead", "arguments": [uri]}),
            )
            .await;
        let message = r["error"]["message"].as_str().unwrap_or_else(|| panic!("{r}"));
        assert!(message.contains("not available"), "{r}");
        let r = c
            .request(
                "workspace/executeCommand",
                json!({"command": "dgnkit.compareWithHead", "arguments": ["file:///etc/dungeon.def"]}),
            )
            .await;
        assert!(r["error"]["message"].is_string(), "{r}");
        let actions = c
            .request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri}, "range": {"start": at, "end": at}, "context": {"diagnostics": []}}),
            )
            .await;
        assert!(
            !actions.to_string().contains("compareWithHead"),
            "{actions}"
        );

        // A `file:` document is its text alone: its path names UnNetHack,
        // which the editor's own server would note (N0001), and nothing
        // is read from it.
        let file_uri = "file:///nowhere/unnethack/dat/dungeon.def";
        c.open_document(file_uri, &builtin).await;
        let diags = c.diagnostics(file_uri).await;
        assert!(
            diags.iter().all(|d| d["code"] != json!("N0001")),
            "{diags:?}"
        );

        let r = c.request("shutdown", json!(null)).await;
        assert!(r.get("error").is_none(), "{r}");
        c.notify("exit", json!(null)).await;
    });
}

#[test]
fn hostile_frames_close_or_are_answered_and_the_server_serves_on() {
    let server = Server::start(Limits {
        body_bytes: 64 << 10,
        ..Limits::default()
    });
    let addr = server.addr;
    runtime().block_on(async move {
        // Not JSON, and JSON that is no JSON-RPC: errors, and the session
        // goes on.
        let mut c = Client::new(addr).await;
        c.initialize().await;
        c.ws.send(Message::text("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\""))
            .await
            .unwrap();
        let m = c.next().await;
        assert_eq!(m["error"]["code"], json!(-32700), "{m}");
        c.ws.send(Message::text("[1, 2, 3]")).await.unwrap();
        let m = c.next().await;
        assert_eq!(m["error"]["code"], json!(-32600), "{m}");
        c.ws.send(Message::text("")).await.unwrap();
        let m = c.next().await;
        assert_eq!(m["error"]["code"], json!(-32700), "{m}");
        let r = c
            .request("textDocument/hover", json!({"textDocument": {"uri": "untitled:none.def"}, "position": {"line": 0, "character": 0}}))
            .await;
        assert!(r.get("result").is_some(), "the session goes on: {r}");

        // Binary junk: the session is closed as unsupported.
        c.ws.send(Message::binary(vec![0xff, 0x00, 0x13, 0x37]))
            .await
            .unwrap();
        expect_closed(&mut c.ws, Some(1003)).await;

        // A message over the limit: closed.
        let mut c = Client::new(addr).await;
        c.initialize().await;
        let huge = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "untitled:huge.def", "languageId": "dungeon-def", "version": 1, "text": "#".repeat(100 << 10)}}});
        let _ = c.ws.send(Message::text(huge.to_string())).await;
        expect_closed(&mut c.ws, None).await;

        // A client that goes away before its answer, and one that never
        // speaks.
        let mut gone = open(addr).await;
        let _ = gone.send(Message::text("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": {\"capabilities\": {}}}")).await;
        drop(gone);
        let silent = open(addr).await;

        // The server serves on: the API and a new session.
        let (status, _) = tokio::task::spawn_blocking(move || http_get(addr, "/api/layout?seed=1"))
            .await
            .unwrap();
        assert_eq!(status, 200);
        let mut c = Client::new(addr).await;
        let init = c.initialize().await;
        assert!(init["result"]["capabilities"].is_object(), "{init}");
        drop(silent);
    });
}

/// The session's end: a close frame (with `code`, when given) or the
/// connection's end, within 10 seconds.
async fn expect_closed(ws: &mut Socket, code: Option<u16>) {
    let t0 = Instant::now();
    loop {
        let left = Duration::from_secs(10).saturating_sub(t0.elapsed());
        match tokio::time::timeout(left, ws.next()).await {
            Err(_) => panic!("the session was not closed"),
            Ok(None) | Ok(Some(Err(_))) => {
                assert!(code.is_none(), "closed without the close code {code:?}");
                return;
            }
            Ok(Some(Ok(Message::Close(frame)))) => {
                if let Some(code) = code {
                    let got = frame.map(|f| u16::from(f.code));
                    assert_eq!(got, Some(code));
                }
                return;
            }
            Ok(Some(Ok(_))) => continue,
        }
    }
}

#[test]
fn sessions_and_documents_are_capped_and_other_sites_refused() {
    let server = Server::start(Limits {
        lsp_sessions: 2,
        lsp_documents: 1,
        ..Limits::default()
    });
    let addr = server.addr;
    runtime().block_on(async move {
        // Another site's page may not use the server; this one's may.
        assert_eq!(refused(addr, Some("http://evil.example")).await, 403);
        let mut a = Client {
            ws: open_from(addr, Some(&format!("http://{addr}"))).await,
            next_id: 0,
            notifications: Vec::new(),
        };
        a.initialize().await;
        let b = open(addr).await;
        // Full: 503 before the upgrade.
        assert_eq!(refused(addr, None).await, 503);

        // One document per session here: a second is refused with a
        // message and gets no diagnostics.
        let text = repo("corpus/nethack-3.6.def");
        a.open_document("untitled:one.def", &text).await;
        a.diagnostics("untitled:one.def").await;
        a.open_document("untitled:two.def", &text).await;
        let r = a
            .request("textDocument/hover", json!({"textDocument": {"uri": "untitled:two.def"}, "position": position_of(&text, "\"oracle\"")}))
            .await;
        assert_eq!(r["result"], Value::Null, "{r}");
        let warning = a
            .notification(|m| m["method"] == "window/showMessage")
            .await;
        let message = warning["params"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("at most 1 document open"), "{warning}");

        // A session that ends gives its place back.
        drop(b);
        let t0 = Instant::now();
        while refused(addr, None).await != 101 {
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "the place of a closed session was not given back"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Not a WebSocket: a clear answer.
        let (status, body) = tokio::task::spawn_blocking(move || http_get(addr, "/lsp"))
            .await
            .unwrap();
        assert!((400..500).contains(&status), "{status} {body}");
        assert!(body.contains("WebSocket"), "{body}");
    });
}
