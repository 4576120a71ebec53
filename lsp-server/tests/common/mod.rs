//! An in-process LSP client: JSON-RPC messages go straight into the
//! server's `LspService`; the server's own messages (diagnostics, log
//! messages) are collected from its socket.

#![allow(dead_code)]

use dgnkit_lsp::Backend;
use futures::channel::mpsc;
use futures::StreamExt;
use serde_json::{json, Value};
use std::path::PathBuf;
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::Request;
use tower_lsp_server::LspService;

pub struct Client {
    service: LspService<Backend>,
    incoming: mpsc::UnboundedReceiver<Value>,
    next_id: i64,
}

/// The shared corpus directory (`../shared/corpus` beside the checkout), or
/// `None` when it is absent (and `DGNKIT_REQUIRE_SHARED` is not set).
pub fn corpus_dir() -> Option<PathBuf> {
    dgnkit_tests::shared_dir().map(|d| d.join("corpus"))
}

/// The vanilla NetHack 3.6 dungeon.def.
pub fn vanilla() -> Option<String> {
    let path = corpus_dir()?.join("NetHack__NetHack").join("dungeon.def");
    Some(std::fs::read_to_string(path).expect("vanilla dungeon.def is UTF-8"))
}

pub const URI: &str = "file:///work/dungeon.def";

impl Client {
    /// A server that has been initialized with `options`.
    pub async fn start(options: Value) -> Client {
        Client::start_with(options, dgnkit_lsp::Access::Local).await
    }

    /// A server with `access` that has been initialized with `options`.
    pub async fn start_with(options: Value, access: dgnkit_lsp::Access) -> Client {
        let (service, socket) = dgnkit_lsp::server::service_with(Default::default(), access);
        let (tx, incoming) = mpsc::unbounded();
        tokio::spawn(async move {
            let mut socket = socket;
            while let Some(req) = socket.next().await {
                let v = serde_json::to_value(&req).expect("server messages serialise");
                if tx.unbounded_send(v).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            service,
            incoming,
            next_id: 1,
        };
        let init = client
            .request("initialize", json!({"processId": null, "rootUri": null, "capabilities": {}, "initializationOptions": options}))
            .await;
        assert!(init.get("result").is_some(), "initialize failed: {init}");
        client.notify("initialized", json!({})).await;
        client
    }

    pub fn server(&self) -> &Backend {
        self.service.inner()
    }

    /// Sends a raw JSON-RPC message; returns the response, if any.
    pub async fn send(&mut self, message: Value) -> Option<Value> {
        let req: Request = serde_json::from_value(message).expect("a JSON-RPC message");
        let service = self.service.ready().await.expect("service ready");
        let resp = service.call(req).await.expect("service alive");
        resp.map(|r| serde_json::to_value(r).expect("responses serialise"))
    }

    /// A request; the whole response (`result` or `error`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await
            .expect("a request gets a response")
    }

    /// A request that must succeed; its result.
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        let resp = self.request(method, params).await;
        match resp.get("result") {
            Some(r) => r.clone(),
            None => panic!("{method} failed: {resp}"),
        }
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        let resp = self
            .send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
        assert!(resp.is_none(), "a notification got a response: {resp:?}");
    }

    /// The next message from the server with this method (others are skipped).
    pub async fn next(&mut self, method: &str) -> Value {
        loop {
            let msg =
                tokio::time::timeout(std::time::Duration::from_secs(20), self.incoming.next())
                    .await
                    .expect("server message within 20 s")
                    .expect("server socket open");
            if msg.get("method").and_then(Value::as_str) == Some(method) {
                return msg.get("params").cloned().unwrap_or(Value::Null);
            }
        }
    }

    /// Every message the server has sent so far and not yet read.
    pub fn drain(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        while let Ok(m) = self.incoming.try_recv() {
            out.push(m);
        }
        out
    }

    pub async fn open(&mut self, uri: &str, text: &str) -> Value {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "dungeon-def", "version": 1, "text": text}}),
        )
        .await;
        self.diagnostics(uri).await
    }

    /// The next diagnostics published for `uri`.
    pub async fn diagnostics(&mut self, uri: &str) -> Value {
        loop {
            let p = self.next("textDocument/publishDiagnostics").await;
            if p["uri"] == uri {
                return p;
            }
        }
    }

    /// Sends a change and returns the first diagnostics published for its
    /// version (a late publish for an earlier version, when the background
    /// layout-odds checks of that version finish, is skipped).
    pub async fn change(&mut self, uri: &str, version: i32, changes: Value) -> Value {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        )
        .await;
        loop {
            let p = self.diagnostics(uri).await;
            if p["version"]
                .as_i64()
                .is_none_or(|v| v >= i64::from(version))
            {
                return p;
            }
        }
    }
}

/// `{"line": l, "character": c}` of the first occurrence of `needle` in
/// `text` (plus `delta` UTF-16 units), counting as the editor does.
pub fn pos_of(text: &str, needle: &str, delta: u32) -> Value {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    let p = pos_at(text, at);
    json!({"line": p["line"], "character": p["character"].as_u64().unwrap() as u32 + delta})
}

/// The position of a byte offset (lines end at `\n`).
pub fn pos_at(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let character = text[line_start..offset].encode_utf16().count();
    json!({"line": line, "character": character})
}
