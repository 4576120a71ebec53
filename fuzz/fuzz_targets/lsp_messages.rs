//! The language server's message path, in process: the framing guard
//! (`transport::sanitize`), then the whole server (`dgnkit_lsp::serve`:
//! the guard, tower-lsp's codec, JSON-RPC dispatch and every feature) on a
//! byte stream, delivered in chunks of a size taken from the input.
//!
//! Input: `[mode, rest...]`. Even mode: `rest` is the raw client stream.
//! Odd mode: `rest` drives a session generator (initialize with fuzzed
//! settings, then opens, edits at fuzzed positions, every request the server
//! offers, malformed frames and garbage between frames). `mode >> 1`
//! (plus one) is the chunk size; 0 reads everything at once.
//!
//! Checked: the guard passes on only JSON-RPC messages, and the same ones
//! whatever the chunking; the server writes only well-formed frames of JSON
//! and ends when its input ends. A panic anywhere aborts (libFuzzer's panic
//! hook runs before the server's `catch_unwind`), so a feature that the
//! server would survive by rebuilding its state is still reported.

#![no_main]

use dgnkit::dialect::Dialect;
use dgnkit::options::Target;
use dgnkit_fuzz::{split_frames, ArbResult, Unstructured};
use dgnkit_lsp::transport::{sanitize, MALFORMED_METHOD};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tower_lsp_server::jsonrpc::{Request, Response};

/// Hands out its bytes at most `step` at a time (0: all at once).
struct Chunked<'a> {
    data: &'a [u8],
    step: usize,
}

impl AsyncRead for Chunked<'_> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let mut n = self.data.len().min(buf.remaining());
        if self.step > 0 {
            n = n.min(self.step);
        }
        let (now, later) = self.data.split_at(n);
        buf.put_slice(now);
        self.data = later;
        Poll::Ready(Ok(()))
    }
}

/// An output the test keeps a handle on after the server takes it.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl AsyncWrite for Shared {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, b: &[u8]) -> Poll<io::Result<usize>> {
        self.0.lock().unwrap().extend_from_slice(b);
        Poll::Ready(Ok(b.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

/// The guard's output for `stream` read `step` bytes at a time: the bodies
/// of the messages it passed on, and how many errors it made.
fn guard(rt: &tokio::runtime::Runtime, stream: &[u8], step: usize) -> (Vec<Vec<u8>>, usize) {
    let mut out = Vec::new();
    rt.block_on(sanitize(Chunked { data: stream, step }, &mut out));
    let frames = split_frames(&out).expect("the guard writes frames");
    let mut passed = Vec::new();
    let mut errors = 0;
    for body in frames {
        let value: Value = serde_json::from_slice(body).expect("the guard passes on JSON");
        assert!(
            serde_json::from_value::<Request>(value.clone()).is_ok()
                || serde_json::from_value::<Response>(value.clone()).is_ok(),
            "the guard passed on a non-JSON-RPC body: {value}"
        );
        if value.get("method").and_then(Value::as_str) == Some(MALFORMED_METHOD) {
            errors += 1;
        } else {
            passed.push(body.to_vec());
        }
    }
    (passed, errors)
}

// ---- session generator ----

const URIS: &[&str] = &[
    "file:///work/dungeon.def",
    "file:///work/other.def",
    "untitled:Untitled-1",
    // NetHack 3.7's file: the server reads it with the Lua reader.
    "file:///work/dat/dungeon.lua",
    // A variant's checkout (the family shows in the path).
    "file:///src/unnethack/dat/dungeon.def",
];

/// Pieces of dungeon.def text, including what makes positions interesting
/// (multi-byte and astral characters, CR LF, lone CR, tabs).
const PIECES: &[&str] = &[
    "DUNGEON:",
    "\"The Dungeons of Doom\"",
    "\"D\"",
    "(25, 5)",
    "LEVEL:",
    "\"oracle\"",
    "\"O\"",
    "@",
    "(5, 5)",
    "RNDLEVEL:",
    "\"bigrm\"",
    "\"B\"",
    "(10, 3)",
    "40",
    "10",
    "CHAINBRANCH:",
    "\"Sokoban\"",
    "+",
    "(1, 0)",
    "up",
    "portal",
    "BRANCH:",
    "\"The Gnomish Mines\"",
    "(2, 3)",
    "CHAINLEVEL:",
    "\"medusa\"",
    "\"none\"",
    "(-5, 4)",
    "LEVELDESC:",
    "town",
    "LEVALIGN:",
    "neutral",
    "DESCRIPTION:",
    "mazelike",
    "hellish",
    "PROTOFILE:",
    "\"tower\"",
    "ENTRY:",
    "-1",
    "ALIGNMENT:",
    "lawful",
    "RNDCHAINLEVEL:",
    "\"Gehennom\"",
    "\"Vlad's Tower\"",
    "\"The Quest\"",
    "\"Fort Ludios\"",
    "\"knox\"",
    "%REINCARNATION ",
    "%MULDGN ",
    "# comment",
    "\n",
    "\n",
    "\n",
    " ",
    " ",
    "\t",
    "\r\n",
    "\r",
    "é",
    "\u{1d11e}",
    "\"",
    "(",
    ")",
    ",",
    "99999999999999999999",
    "0",
];

/// Pieces of NetHack 3.7's dungeon.lua.
const LUA_PIECES: &[&str] = &[
    "dungeon = {",
    "{",
    "}",
    "},",
    "name = \"The Dungeons of Doom\",",
    "name = \"oracle\",",
    "name = \"The Gnomish Mines\",",
    "name = \"tut-1\",",
    "bonetag = \"D\",",
    "base = 25,",
    "range = 5,",
    "base = -5,",
    "chance = 40,",
    "nlevels = 3,",
    "alignment = \"neutral\",",
    "flags = { \"mazelike\", \"hellish\" },",
    "flags = \"unconnected\",",
    "flags = \"town\",",
    "levels = {",
    "branches = {",
    "chainlevel = \"oracle\",",
    "branchtype = \"portal\",",
    "direction = \"up\",",
    "entry = -1,",
    "protofile = \"tower\",",
    "lvlfill = \"solidfill\",",
    "themerooms = \"themerms\",",
    "local x = 1",
    "return dungeon",
    "-- comment",
    "--[[ long ]]",
    "\"",
    "=",
    ",",
    "\n",
    "\n",
    "\t",
    "\r\n",
    "é",
    "99999999999999999999",
    "0x10",
];

fn text(u: &mut Unstructured<'_>) -> ArbResult<String> {
    if u.ratio(1, 5)? {
        let len = u.int_in_range(0..=200)?;
        return Ok(String::from_utf8_lossy(u.bytes(len)?).into_owned());
    }
    let pieces = if u.ratio(1, 3)? { LUA_PIECES } else { PIECES };
    let n = u.int_in_range(0..=60)?;
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(u.choose(pieces)?);
        if u.ratio(1, 2)? {
            s.push(' ');
        }
    }
    Ok(s)
}

fn number(u: &mut Unstructured<'_>, hi: u32) -> ArbResult<Value> {
    Ok(match u.int_in_range(0..=15)? {
        0 => json!(u.arbitrary::<u32>()?),
        1 => json!(-1),
        _ => json!(u.int_in_range(0..=hi)?),
    })
}

fn position(u: &mut Unstructured<'_>) -> ArbResult<Value> {
    Ok(json!({"line": number(u, 30)?, "character": number(u, 60)?}))
}

fn range(u: &mut Unstructured<'_>) -> ArbResult<Value> {
    Ok(json!({"start": position(u)?, "end": position(u)?}))
}

fn doc(u: &mut Unstructured<'_>) -> ArbResult<Value> {
    Ok(json!({"uri": u.choose(URIS)?}))
}

fn doc_pos(u: &mut Unstructured<'_>) -> ArbResult<Value> {
    Ok(json!({"textDocument": doc(u)?, "position": position(u)?}))
}

fn names(u: &mut Unstructured<'_>, pool: &[&str]) -> ArbResult<Value> {
    let n = u.int_in_range(0..=3)?;
    let mut v = Vec::new();
    for _ in 0..n {
        v.push(json!(u.choose(pool)?));
    }
    Ok(Value::Array(v))
}

fn settings(u: &mut Unstructured<'_>) -> ArbResult<Value> {
    if u.ratio(1, 8)? {
        return Ok(json!(u.choose(&["x", "", "[]"])?));
    }
    let mut s = serde_json::Map::new();
    // Every game, and a name that is none.
    let target = |u: &mut Unstructured<'_>| -> ArbResult<Value> {
        Ok(json!(if u.ratio(1, 8)? {
            "bogus"
        } else {
            u.choose(&Target::ALL)?.name()
        }))
    };
    if u.arbitrary()? {
        s.insert("target".into(), target(u)?);
    }
    if u.arbitrary()? {
        s.insert("luaTarget".into(), target(u)?);
    }
    if u.arbitrary()? {
        let dialect = if u.ratio(1, 8)? {
            *u.choose(&["", "nope"])?
        } else {
            u.choose(&Dialect::ALL)?.name()
        };
        s.insert("dialect".into(), json!(dialect));
    }
    // Mostly inline: background statistics finish at times the input does
    // not decide.
    let stats = *u.choose(&[
        "inline",
        "inline",
        "inline",
        "off",
        "background",
        "sometimes",
    ])?;
    s.insert("statistics".into(), json!(stats));
    if u.arbitrary()? {
        s.insert(
            "defines".into(),
            names(u, &["REINCARNATION", "MULDGN", "WIZARD", ""])?,
        );
    }
    if u.arbitrary()? {
        s.insert("undefines".into(), names(u, &["REINCARNATION", "MULDGN"])?);
    }
    if u.arbitrary()? {
        let key = *u.choose(&["allow", "warn", "deny"])?;
        s.insert(
            key.into(),
            names(
                u,
                &["warnings", "compat", "duplicate-level-name", "nonsense"],
            )?,
        );
    }
    Ok(json!({ "dgnkit": s }))
}

struct Session {
    out: Vec<u8>,
    next_id: i64,
}

impl Session {
    fn frame(&mut self, body: &[u8]) {
        self.out
            .extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
        self.out.extend_from_slice(body);
    }

    fn request(&mut self, method: &str, params: Value) {
        let id = self.next_id;
        self.next_id += 1;
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.frame(msg.to_string().as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        let msg = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.frame(msg.to_string().as_bytes());
    }

    fn op(&mut self, u: &mut Unstructured<'_>) -> ArbResult<()> {
        match u.int_in_range(0..=27)? {
            0..=2 => {
                let uri = *u.choose(URIS)?;
                let language = if uri.ends_with(".lua") {
                    "dungeon-lua"
                } else {
                    "dungeon-def"
                };
                let params = json!({"textDocument": {"uri": uri, "languageId": language, "version": u.int_in_range(0..=9)?, "text": text(u)?}});
                self.notify("textDocument/didOpen", params);
            }
            3..=5 => {
                let n = u.int_in_range(1..=3)?;
                let mut changes = Vec::new();
                for _ in 0..n {
                    changes.push(if u.ratio(1, 6)? {
                        json!({"text": text(u)?})
                    } else {
                        json!({"range": range(u)?, "text": text(u)?})
                    });
                }
                let params = json!({"textDocument": {"uri": u.choose(URIS)?, "version": u.int_in_range(0..=99)?}, "contentChanges": changes});
                self.notify("textDocument/didChange", params);
            }
            6 => self.request("textDocument/hover", doc_pos(u)?),
            7 => self.request("textDocument/definition", doc_pos(u)?),
            8 => {
                let mut p = doc_pos(u)?;
                p["context"] = json!({"includeDeclaration": u.arbitrary::<bool>()?});
                self.request("textDocument/references", p);
            }
            9 => self.request("textDocument/prepareRename", doc_pos(u)?),
            10 => {
                let mut p = doc_pos(u)?;
                p["newName"] = json!(text(u)?);
                self.request("textDocument/rename", p);
            }
            11 => self.request(
                "textDocument/documentSymbol",
                json!({"textDocument": doc(u)?}),
            ),
            12 => self.request("workspace/symbol", json!({"query": text(u)?})),
            13 => {
                let params = json!({"textDocument": doc(u)?, "range": range(u)?, "context": {"diagnostics": []}});
                self.request("textDocument/codeAction", params);
            }
            14 => self.request("textDocument/completion", doc_pos(u)?),
            15 => self.request(
                "textDocument/semanticTokens/full",
                json!({"textDocument": doc(u)?}),
            ),
            16 => self.request(
                "textDocument/inlayHint",
                json!({"textDocument": doc(u)?, "range": range(u)?}),
            ),
            17 => {
                let params = json!({"textDocument": doc(u)?, "options": {"tabSize": 8, "insertSpaces": u.arbitrary::<bool>()?}});
                self.request("textDocument/formatting", params);
            }
            18 => self.notify("textDocument/didSave", json!({"textDocument": doc(u)?})),
            19 => self.notify("textDocument/didClose", json!({"textDocument": doc(u)?})),
            20 => {
                let params = json!({"settings": settings(u)?});
                self.notify("workspace/didChangeConfiguration", params);
            }
            21 => self.request("dgnkit/unknown", json!({})),
            22 => {
                // A known method with params of the wrong shape.
                let method = *u.choose(&[
                    "textDocument/hover",
                    "textDocument/didOpen",
                    "textDocument/rename",
                    "initialize",
                ])?;
                let params = json!(text(u)?);
                self.request(method, params);
            }
            23 => {
                let len = u.int_in_range(0..=40)?;
                let body = u.bytes(len)?.to_vec();
                self.frame(&body);
            }
            24 => {
                let len = u.int_in_range(0..=40)?;
                self.out.extend_from_slice(u.bytes(len)?);
            }
            25 => {
                // A header the guard must cope with.
                let header = *u.choose(&[
                    "content-length: 2\r\n\r\n{}",
                    "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
                    "Content-Length: -1\r\n\r\n",
                    "Content-Length: 99999999999999999999\r\n\r\n",
                    "Content-Length: 300000000\r\n\r\n",
                    "Content-Type: x\r\n\r\n",
                    "\r\n\r\n",
                ])?;
                self.out.extend_from_slice(header.as_bytes());
            }
            26 => self.notify("$/cancelRequest", json!({"id": self.next_id - 1})),
            _ => self.request("shutdown", Value::Null),
        }
        Ok(())
    }
}

fn session(u: &mut Unstructured<'_>) -> ArbResult<Vec<u8>> {
    let mut s = Session {
        out: Vec::new(),
        next_id: 1,
    };
    if u.ratio(15, 16)? {
        let caps = json!({"workspace": {"inlayHint": {"refreshSupport": u.arbitrary::<bool>()?}}});
        let options = settings(u)?;
        s.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": caps, "initializationOptions": options}),
        );
        s.notify("initialized", json!({}));
    }
    let ops = u.int_in_range(0..=24)?;
    for _ in 0..ops {
        if u.is_empty() {
            break;
        }
        s.op(u)?;
    }
    if u.arbitrary()? {
        s.request("shutdown", Value::Null);
        s.notify("exit", Value::Null);
    }
    Ok(s.out)
}

fuzz_target!(|data: &[u8]| {
    let [mode, rest @ ..] = data else {
        return;
    };
    let generated;
    let stream = if mode & 1 == 0 {
        rest
    } else {
        let Ok(s) = session(&mut Unstructured::new(rest)) else {
            return;
        };
        generated = s;
        &generated
    };
    let step = usize::from(mode >> 1);

    let rt = runtime();
    let whole = guard(&rt, stream, 0);
    if step > 0 {
        let chunked = guard(&rt, stream, step);
        assert_eq!(
            chunked.0, whole.0,
            "the guard passes on other messages when the input arrives in {step}-byte chunks"
        );
    }

    let out = Shared::default();
    rt.block_on(dgnkit_lsp::serve(
        Chunked { data: stream, step },
        out.clone(),
    ));
    drop(rt);
    let written = out.0.lock().unwrap().clone();
    for body in split_frames(&written).expect("the server writes frames") {
        let v: Value = serde_json::from_slice(body).expect("the server writes JSON");
        assert_eq!(v["jsonrpc"], "2.0", "{v}");
    }
});
