//! The layout endpoint's latency at a fixed request rate (bench/README.md,
//! `dgn serve`): an open-loop client sends `POST /api/layout` at RATE
//! requests a second for SECONDS on loopback, each on its own connection,
//! and times every answer from the moment it was due (so a slow answer
//! delays none of the later measurements), then prints p50/p90/p99/max.
//!
//!   cargo run --release -p dgnkit-cli --example serve_bench [RATE [SECONDS [URL]]]
//!
//! Without URL it starts the server in this process on 127.0.0.1:0 with
//! `dgn serve`'s default limits; with URL (`http://127.0.0.1:8080`) it asks
//! a running `dgn serve`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

// The tests' own loopback server (its other helper is theirs only).
#[allow(dead_code)]
#[path = "../tests/common/mod.rs"]
mod common;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rate: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(500);
    let seconds: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    // Kept until the end: dropped, the in-process server stops.
    let mut local = None;
    let addr: SocketAddr = match args.get(2) {
        Some(url) => url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .expect("URL: http://IP:PORT"),
        None => {
            local
                .insert(common::Server::start(dgnkit_cli::serve::Limits::default()))
                .addr
        }
    };
    let total = rate * seconds;
    let interval = Duration::from_nanos(1_000_000_000 / rate);
    let clients = 16u64;
    let t0 = Instant::now() + Duration::from_millis(200);
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            std::thread::spawn(move || {
                let mut lat = Vec::new();
                let mut failures = 0u64;
                let mut i = c;
                while i < total {
                    let due = t0 + interval * i as u32;
                    let now = Instant::now();
                    if due > now {
                        std::thread::sleep(due - now);
                    }
                    let seed = i % 100_000;
                    let ok = layout(addr, seed);
                    lat.push(due.elapsed());
                    if !ok {
                        failures += 1;
                    }
                    i += clients;
                }
                (lat, failures)
            })
        })
        .collect();
    let mut lat = Vec::new();
    let mut failures = 0;
    for t in threads {
        let (l, f) = t.join().unwrap();
        lat.extend(l);
        failures += f;
    }
    let took = t0.elapsed();
    lat.sort();
    let q = |p: f64| lat[((lat.len() as f64 * p) as usize).min(lat.len() - 1)];
    println!(
        "POST /api/layout (NetHack 3.6, one seed, JSON): {} requests at {rate}/s over {:.1} s, {failures} failed",
        lat.len(),
        took.as_secs_f64()
    );
    println!(
        "latency: p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        q(0.50).as_secs_f64() * 1e3,
        q(0.90).as_secs_f64() * 1e3,
        q(0.99).as_secs_f64() * 1e3,
        lat[lat.len() - 1].as_secs_f64() * 1e3
    );
}

/// One request on its own connection; whether it was answered 200.
fn layout(addr: SocketAddr, seed: u64) -> bool {
    let body = format!("{{\"seed\":{seed}}}");
    let Ok(mut s) = TcpStream::connect(addr) else {
        return false;
    };
    let _ = s.set_nodelay(true);
    let req = format!(
        "POST /api/layout HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if s.write_all(req.as_bytes()).is_err() {
        return false;
    }
    let mut out = Vec::with_capacity(8192);
    let _ = s.read_to_end(&mut out);
    out.starts_with(b"HTTP/1.1 200")
}
