//! Latency of the language server on the vanilla dungeon.def: from an edit
//! to the diagnostics to publish (a comment edit, which reuses the analysis,
//! and a statement edit, which reruns it), and of hovers. Measured on the
//! server's state directly and through the in-process LSP service (JSON
//! included). After criterion's report, a percentile summary (p50/p99) of the
//! same operations.

use criterion::{criterion_group, Criterion};
use dgnkit_lsp::config::Config;
use dgnkit_lsp::features::{diagnostics, hover};
use dgnkit_lsp::state::State;
use futures::StreamExt;
use serde_json::{json, Value};
use std::str::FromStr;
use std::time::{Duration, Instant};
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::Request;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

const URI: &str = "file:///bench/dungeon.def";

/// NetHack 3.6's dungeon (our description of it, in the repository).
const VANILLA: &str = include_str!("../../corpus/nethack-3.6.def");

fn position_of(text: &str, needle: &str, delta: u32) -> Position {
    let at = text.find(needle).expect("needle in the vanilla file");
    let line = text[..at].matches('\n').count() as u32;
    let start = text[..at].rfind('\n').map_or(0, |p| p + 1);
    Position::new(line, text[start..at].encode_utf16().count() as u32 + delta)
}

struct Bench {
    state: State,
    uri: Uri,
    version: i32,
    /// Where the comment edit goes, and the couple the statement edit flips.
    comment: Position,
    couple: Range,
    flipped: bool,
    oracle: Position,
    mines: Position,
}

impl Bench {
    fn new(text: &str) -> Bench {
        // Statistics computed when asked for, so that hovers find them.
        let config = Config {
            statistics: dgnkit_lsp::statistics::Mode::Inline,
            ..Config::default()
        };
        let mut state = State::new(config);
        let uri = Uri::from_str(URI).unwrap();
        state.open(uri.clone(), 1, text.to_string());
        state.prepare_stats(&uri);
        let couple_at = position_of(text, "(25, 5)", 1);
        Bench {
            state,
            uri,
            version: 1,
            comment: position_of(text, "#", 1),
            couple: Range {
                start: couple_at,
                end: Position::new(couple_at.line, couple_at.character + 2),
            },
            flipped: false,
            oracle: position_of(text, "\"oracle\"", 2),
            mines: position_of(text, "\"The Gnomish Mines\" \"M\"", 2),
        }
    }

    fn publish(&self) -> usize {
        diagnostics::publish(self.state.doc(&self.uri).unwrap()).len()
    }

    /// Types one character into a comment (or deletes it again).
    fn comment_edit(&mut self) -> usize {
        self.version += 1;
        let at = self.comment;
        let change = if self.version % 2 == 0 {
            TextDocumentContentChangeEvent {
                range: Some(Range { start: at, end: at }),
                range_length: None,
                text: "x".into(),
            }
        } else {
            let end = Position::new(at.line, at.character + 1);
            TextDocumentContentChangeEvent {
                range: Some(Range { start: at, end }),
                range_length: None,
                text: String::new(),
            }
        };
        self.state.change(&self.uri, self.version, vec![change]);
        self.publish()
    }

    /// Flips the main dungeon's size between (25, 5) and (26, 5).
    fn statement_edit(&mut self) -> usize {
        self.version += 1;
        self.flipped = !self.flipped;
        let text = if self.flipped { "26" } else { "25" };
        let change = TextDocumentContentChangeEvent {
            range: Some(self.couple),
            range_length: None,
            text: text.into(),
        };
        self.state.change(&self.uri, self.version, vec![change]);
        self.publish()
    }

    fn hover(&self, at: Position) -> bool {
        hover::hover(self.state.doc(&self.uri).unwrap(), at).is_some()
    }

    /// Computes the statistics of the current state (what a background job
    /// does after a statement edit).
    fn stats(&mut self) {
        self.state.prepare_stats(&self.uri);
    }

    /// Computes the layout-odds diagnostics of the current state (the
    /// other background job after a statement edit).
    fn odds(&mut self) {
        self.state.prepare_odds(&self.uri);
    }
}

/// The same through the LSP service: a didChange, then the diagnostics it
/// publishes; and hover requests.
struct ServiceBench {
    rt: tokio::runtime::Runtime,
    service: tower_lsp_server::LspService<dgnkit_lsp::Backend>,
    incoming: futures::channel::mpsc::UnboundedReceiver<Value>,
    version: i32,
    comment: Position,
    oracle: Position,
}

impl ServiceBench {
    fn new(text: &str) -> ServiceBench {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let (service, socket) = dgnkit_lsp::service();
        let (tx, incoming) = futures::channel::mpsc::unbounded();
        rt.spawn(async move {
            let mut socket = socket;
            while let Some(req) = socket.next().await {
                let _ = tx.unbounded_send(serde_json::to_value(&req).unwrap());
            }
        });
        let mut sb = ServiceBench {
            rt,
            service,
            incoming,
            version: 1,
            comment: position_of(text, "#", 1),
            oracle: position_of(text, "\"oracle\"", 2),
        };
        sb.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}));
        sb.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        sb.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": URI, "languageId": "dungeon-def", "version": 1, "text": text}}}));
        sb.wait_diagnostics();
        sb
    }

    fn send(&mut self, msg: Value) -> Option<Value> {
        let req: Request = serde_json::from_value(msg).unwrap();
        let service = &mut self.service;
        self.rt.block_on(async move {
            let svc = service.ready().await.unwrap();
            svc.call(req)
                .await
                .unwrap()
                .map(|r| serde_json::to_value(r).unwrap())
        })
    }

    fn wait_diagnostics(&mut self) -> Value {
        let incoming = &mut self.incoming;
        self.rt.block_on(async move {
            loop {
                let m = incoming.next().await.unwrap();
                if m["method"] == "textDocument/publishDiagnostics" {
                    return m;
                }
            }
        })
    }

    fn comment_edit(&mut self) -> Value {
        self.version += 1;
        let at = json!({"line": self.comment.line, "character": self.comment.character});
        let end = json!({"line": self.comment.line, "character": self.comment.character + 1});
        let change = if self.version % 2 == 0 {
            json!({"range": {"start": at, "end": at}, "text": "x"})
        } else {
            json!({"range": {"start": at, "end": end}, "text": ""})
        };
        self.send(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": URI, "version": self.version}, "contentChanges": [change]}}));
        self.wait_diagnostics()
    }

    fn hover(&mut self) -> Option<Value> {
        let p = json!({"line": self.oracle.line, "character": self.oracle.character});
        self.send(json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {"textDocument": {"uri": URI}, "position": p}}))
    }
}

fn benches(c: &mut Criterion) {
    let text = VANILLA;
    let mut b = Bench::new(text);
    b.publish();
    b.hover(b.oracle);
    c.bench_function("edit_to_diagnostics/comment", |bn| {
        bn.iter(|| b.comment_edit())
    });
    c.bench_function("edit_to_diagnostics/statement", |bn| {
        bn.iter(|| b.statement_edit())
    });
    b.stats();
    b.hover(b.oracle);
    c.bench_function("hover/special_level", |bn| bn.iter(|| b.hover(b.oracle)));
    c.bench_function("hover/dungeon", |bn| bn.iter(|| b.hover(b.mines)));
    // After a statement edit the server answers from static ranges and
    // computes the statistics in the background: both costs.
    c.bench_function("hover_after_statement_edit", |bn| {
        bn.iter(|| {
            b.statement_edit();
            b.hover(b.oracle)
        })
    });
    c.bench_function("statistics_after_statement_edit", |bn| {
        bn.iter(|| {
            b.statement_edit();
            b.stats()
        })
    });
    c.bench_function("odds_after_statement_edit", |bn| {
        bn.iter(|| {
            b.statement_edit();
            b.odds()
        })
    });
    let mut s = ServiceBench::new(text);
    s.hover();
    c.bench_function("service/edit_to_published_diagnostics", |bn| {
        bn.iter(|| s.comment_edit())
    });
    c.bench_function("service/hover", |bn| bn.iter(|| s.hover()));
}

fn percentiles(name: &str, n: usize, mut f: impl FnMut()) {
    let mut times: Vec<Duration> = (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{name:<42} n={n:<5} p50 {:>10.3?}  p99 {:>10.3?}  max {:>10.3?}",
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

fn summary() {
    let text = VANILLA;
    println!("\npercentiles (vanilla dungeon.def):");
    let mut b = Bench::new(text);
    b.publish();
    b.hover(b.oracle);
    percentiles("edit_to_diagnostics/comment", 2000, || {
        b.comment_edit();
    });
    percentiles("edit_to_diagnostics/statement", 2000, || {
        b.statement_edit();
    });
    b.stats();
    b.hover(b.oracle);
    percentiles("hover/special_level", 2000, || {
        b.hover(b.oracle);
    });
    percentiles("hover/dungeon", 2000, || {
        b.hover(b.mines);
    });
    percentiles("hover_after_statement_edit", 500, || {
        b.statement_edit();
        b.hover(b.oracle);
    });
    percentiles("statistics_after_statement_edit", 50, || {
        b.statement_edit();
        b.stats();
    });
    percentiles("odds_after_statement_edit", 50, || {
        b.statement_edit();
        b.odds();
    });
    let mut s = ServiceBench::new(text);
    s.hover();
    percentiles("service/edit_to_published_diagnostics", 2000, || {
        s.comment_edit();
    });
    percentiles("service/hover", 2000, || {
        s.hover();
    });
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(50).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    targets = benches
}

fn main() {
    group();
    Criterion::default().configure_from_args().final_summary();
    summary();
}
