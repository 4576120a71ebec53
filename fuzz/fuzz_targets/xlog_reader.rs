//! The xlogfile reader: any bytes as an xlogfile, through the whole of
//! `dgn xlog` (stream, fields, releases, answers, JSON, text, summary,
//! HTML). Every line is a game, a bad line or blank: the JSON output has
//! one valid object per non-blank line plus the summary, and the summary
//! counts agree with it. The first line, if any, is also tried as a
//! `--where` expression. The last byte also picks a `--target` (every
//! game, or none), which forces each line's game as `dgn xlog --target`
//! does.

#![no_main]

use dgnkit::options::Target;
use dgnkit::xlog::filter::Filter;
use dgnkit::xlog::reader::{Item, LineStream};
use dgnkit::xlog::{html, Options, Xlog};
use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;

thread_local! {
    /// One reader per `--target` (and one without) for every input: their
    /// answers tables are computed once.
    static XLOG: Vec<RefCell<Xlog>> = std::iter::once(None)
        .chain(Target::ALL.into_iter().map(Some))
        .map(|target| RefCell::new(Xlog::new(Options { target, ..Options::default() })))
        .collect();
}

/// A line of every release, read once by every reader before fuzzing:
/// each release's answers table is built then (dNetHack's, sampled over
/// 20 000 layouts, takes seconds), not inside the first input that names
/// it, where libFuzzer would count it as a timeout.
fn warm_up() {
    use dgnkit::xlog::release::RELEASES;
    XLOG.with(|readers| {
        for x in readers {
            let mut x = x.borrow_mut();
            for release in RELEASES.iter() {
                let (a, b, _, hi) = release.versions[0];
                let mut line = format!(
                    "version={}{a}.{b}.{hi}\tdeathdnum=0\tdeathlev=1\tdeath=quit",
                    release.prefix
                );
                if let Some(m) = release.family().and_then(|f| f.marker()) {
                    line.push_str(&format!("\t{m}=1"));
                }
                let _ = x.read(1, line.as_bytes());
            }
        }
    });
}

fuzz_target!(init: warm_up(), |data: &[u8]| {
    let pick = data
        .last()
        .map_or(0, |&b| usize::from(b) % (Target::ALL.len() + 1));
    XLOG.with(|x| run(&mut x[pick].borrow_mut(), data));
});

fn run(x: &mut Xlog, data: &[u8]) {
    let first = data.split(|&b| b == b'\n').next().unwrap_or_default();
    let filter = std::str::from_utf8(first)
        .ok()
        .and_then(|s| Filter::parse(s).ok());
    for filter in [None, filter] {
        x.set_filter(filter);
        let before = x.summary();
        let mut stream = LineStream::new(data);
        let (mut games, mut bad) = (0u64, 0u64);
        let mut out = Vec::new();
        while let Some(item) = stream.next_item().expect("reading bytes cannot fail") {
            let result = match item {
                Item::Line(l) => x.read(l.number, l.bytes),
                Item::TooLong { number } => Err(x.too_long(number)),
            };
            match result {
                Ok(Some(g)) => {
                    games += 1;
                    out.clear();
                    x.json(&g, &mut out);
                    let v: serde_json::Value =
                        serde_json::from_slice(&out).expect("a game is one JSON object");
                    assert_eq!(v["line"], g.line);
                    let p = v["bones_p"].as_f64().expect("bones_p is a number");
                    assert!((0.0..=1.0).contains(&p), "bones_p {p}");
                    let _ = x.human(&g);
                }
                Ok(None) => {}
                Err(e) => {
                    bad += 1;
                    assert!(!e.error.is_empty());
                }
            }
        }
        let s = x.summary();
        assert_eq!(
            (s.games - before.games, s.bad_lines - before.bad_lines),
            (games, bad)
        );
        let _ = s.human();
        let _ = html::page(&s, "fuzz");
        let _ = serde_json::to_string(&s).expect("the summary serialises");
    }
}
