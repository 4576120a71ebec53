//! The canonical JSON line of a layout, written straight from the loader's
//! [`Resolved`] buffer: for `dgn layout --seeds`, where building a named
//! [`Layout`](dgnkit_script::layout::Layout) and serialising it cost several times
//! the resolution itself.
//!
//! The text is byte for byte [`json_line`](super::json_line) of
//! [`Resolved::to_layout`]. Everything a layout takes from its script
//! (names, flags, alignments) is turned into JSON once, when the writer is
//! built, with each string escaped by serde_json itself; a line is then
//! those pieces and the layout's integers.

use dgnkit_loader::rng::RngKind;
use dgnkit_loader::{LoadError, PlanesReport, Resolved, ResolvedDungeon, ResolvedLevel, Resolver};
use std::ops::{ControlFlow, Range};
use std::sync::mpsc;

/// JSON pieces of one script, for writing many of its layouts.
#[derive(Clone, Debug)]
pub struct JsonLines {
    /// Per dungeon record: the object up to `"num_levels":`, and from
    /// `,"hellish":` to its end.
    dungeons: Vec<(String, String)>,
    /// Per level record: the object up to `"dungeon":`, and from
    /// `,"town":` to its end.
    levels: Vec<(String, String)>,
    /// Per level record: its name as a JSON string (for the planes' order).
    names: Vec<String>,
    /// The `loader_inputs` object, for a game whose layouts report it
    /// (with `chaos_variant`).
    inputs: Option<String>,
}

fn string(s: &str) -> String {
    // Serialising a string cannot fail.
    serde_json::to_string(s).unwrap_or_default()
}

impl JsonLines {
    pub fn new(res: &Resolver) -> JsonLines {
        // What a layout shows of each record, through the same code as
        // `Resolved::to_layout`; the numbers of a layout are left out.
        let dungeons = (0..res.dungeons.len() as u32)
            .map(|record| {
                let d = ResolvedDungeon {
                    record,
                    num_levels: 0,
                    ledger_start: 0,
                    depth_start: 0,
                    entry_level: 0,
                }
                .named(res);
                let head = format!(
                    r#"{{"name":{},"proto":{},"bones":{},"num_levels":"#,
                    string(&d.name),
                    string(&d.proto),
                    string(&d.bones)
                );
                let mut tail = format!(
                    r#","hellish":{},"mazelike":{},"roguelike":{},"align":{}"#,
                    d.hellish, d.mazelike, d.roguelike, d.align
                );
                if let (Some(has), Some(n)) = (d.has_tileset, d.tileset) {
                    tail += &format!(r#","has_tileset":{has},"tileset":{n}"#);
                }
                tail.push('}');
                (head, tail)
            })
            .collect();
        let levels = (0..res.levels.len() as u32)
            .map(|record| {
                let l = ResolvedLevel {
                    record,
                    dungeon: 0,
                    level: 0,
                }
                .named(res);
                let head = format!(
                    r#"{{"name":{},"bones":{},"dungeon":"#,
                    string(&l.name),
                    string(&l.bones)
                );
                let mut tail = format!(
                    r#","town":{},"hellish":{},"mazelike":{},"roguelike":{},"align":{},"rndlevs":{}"#,
                    l.town, l.hellish, l.mazelike, l.roguelike, l.align, l.rndlevs
                );
                if let Some(display) = &l.display_name {
                    tail += &format!(r#","display_name":{}"#, string(display));
                }
                tail.push('}');
                (head, tail)
            })
            .collect();
        let names = res.levels.iter().map(|l| string(&l.name)).collect();
        let inputs = res
            .layout_inputs()
            .map(|i| serde_json::to_string(&i).unwrap_or_default());
        JsonLines {
            dungeons,
            levels,
            names,
            inputs,
        }
    }

    /// Appends the layout in `r` (resolved from this writer's script) as
    /// one JSON line, without the newline and without a draw log.
    pub fn write(&self, res: &Resolver, r: &Resolved, buf: &mut Vec<u8>) {
        field(buf, br#"{"seed":"#, r.seed);
        buf.extend_from_slice(br#","rng":""#);
        buf.extend_from_slice(r.rng.name().as_bytes());
        buf.extend_from_slice(if r.wizard {
            br#"","wizard":true,"dungeons":"#
        } else {
            br#"","wizard":false,"dungeons":"#
        });
        list(buf, &r.dungeons, |buf, d| {
            let (head, tail) = &self.dungeons[d.record as usize];
            field(buf, head.as_bytes(), d.num_levels);
            field(buf, br#","ledger_start":"#, d.ledger_start);
            field(buf, br#","depth_start":"#, d.depth_start);
            field(buf, br#","entry_level":"#, d.entry_level);
            buf.extend_from_slice(tail.as_bytes());
        });
        buf.extend_from_slice(br#","levels":"#);
        list(buf, &r.levels, |buf, l| {
            let (head, tail) = &self.levels[l.record as usize];
            field(buf, head.as_bytes(), l.dungeon);
            field(buf, br#","level":"#, l.level);
            buf.extend_from_slice(tail.as_bytes());
        });
        buf.extend_from_slice(br#","branches":"#);
        list(buf, &r.branches, |buf, b| {
            field(buf, br#"{"id":"#, b.id);
            buf.extend_from_slice(br#","type":""#);
            buf.extend_from_slice(b.kind.name().as_bytes());
            field(buf, br#"","end1":{"dungeon":"#, b.end1.0);
            field(buf, br#","level":"#, b.end1.1);
            field(buf, br#"},"end2":{"dungeon":"#, b.end2.0);
            field(buf, br#","level":"#, b.end2.1);
            buf.extend_from_slice(if b.end1_up {
                br#"},"end1_up":true}"#
            } else {
                br#"},"end1_up":false}"#
            });
        });
        buf.extend_from_slice(br#","tune":""#);
        // Notes are the letters A to G.
        buf.extend_from_slice(&r.tune);
        buf.push(b'"');
        if let Some(planes) = res.rules().planes {
            buf.extend_from_slice(match planes.report {
                PlanesReport::ChainOrder => br#","planes_order":["#,
                PlanesReport::VisitOrder => br#","plane_order":["#,
            });
            let mut first = true;
            r.planes_order(res, |record| {
                if !first {
                    buf.push(b',');
                }
                first = false;
                buf.extend_from_slice(self.names[record as usize].as_bytes());
            });
            buf.push(b']');
        }
        if let Some(n) = r.reported_pre_draws(res) {
            field(buf, br#","pre_draws":"#, n);
        }
        if let Some(inputs) = &self.inputs {
            field(buf, br#","chaos_variant":"#, r.chaos_variant);
            buf.extend_from_slice(br#","loader_inputs":"#);
            buf.extend_from_slice(inputs.as_bytes());
        }
        if let Some(c) = r.layout_character(res) {
            // One per layout of a game start (a random hero differs by
            // seed); serialising cannot fail.
            buf.extend_from_slice(br#","character":"#);
            buf.extend_from_slice(serde_json::to_string(&c).unwrap_or_default().as_bytes());
        }
        buf.push(b'}');
    }
}

/// `text` (a key, with what comes before it), then the integer `v`.
fn field(buf: &mut Vec<u8>, text: &[u8], v: impl itoa::Integer) {
    buf.extend_from_slice(text);
    int(buf, v);
}

fn int(buf: &mut Vec<u8>, v: impl itoa::Integer) {
    buf.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

/// A JSON array of `items`, each written by `item`.
fn list<T>(buf: &mut Vec<u8>, items: &[T], mut item: impl FnMut(&mut Vec<u8>, &T)) {
    buf.push(b'[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        item(buf, x);
    }
    buf.push(b']');
}

/// The JSON line that stands for a seed whose resolution failed.
pub fn error_line(seed: u64, e: &LoadError) -> String {
    let mut v = serde_json::json!({ "seed": seed, "error": { "code": e.code(), "message": e.to_string() } });
    if let Some(p) = e.nethack_panic() {
        v["error"]["nethack"] = serde_json::Value::String(p);
    }
    v.to_string()
}

/// Seeds a worker resolves before handing their lines over: enough to
/// make the hand-over cheap, few enough that a chunk's text (a few
/// kilobytes a layout) stays small.
pub const CHUNK_SEEDS: u64 = 256;

/// The JSON lines of consecutive seeds.
#[derive(Debug, Default)]
pub struct Chunk {
    /// One line per seed, each ending in a newline.
    pub text: Vec<u8>,
    /// Seeds in the chunk.
    pub seeds: u64,
    /// Of those, seeds whose resolution failed (an error line each).
    pub failed: u64,
}

/// The seeds of a run of layouts: a range, or a list in the order given
/// (a seed may come twice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seeds {
    Range(Range<u64>),
    List(Vec<u64>),
}

impl Seeds {
    /// How many layouts the run makes.
    pub fn len(&self) -> u64 {
        match self {
            Seeds::Range(r) => r.end.saturating_sub(r.start),
            Seeds::List(v) => v.len() as u64,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The seeds in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let (range, list) = match self {
            Seeds::Range(r) => (r.clone(), &[][..]),
            Seeds::List(v) => (0..0, v.as_slice()),
        };
        range.chain(list.iter().copied())
    }
}

/// Resolves every seed of `seeds` and hands their JSON lines (layouts as
/// [`JsonLines::write`], failures as [`error_line`]) to `sink`, chunk by
/// chunk in seed order, until `sink` breaks. With `jobs > 1` that many
/// threads resolve chunks in turn, each with its own buffers; at most two
/// chunks per thread wait for `sink`.
pub fn resolve_lines(
    resolver: &Resolver,
    seeds: &Seeds,
    rng: RngKind,
    wizard: bool,
    jobs: usize,
    mut sink: impl FnMut(&Chunk) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let json = JsonLines::new(resolver);
    let chunks = seeds.len().div_ceil(CHUNK_SEEDS);
    let fill = |k: u64, out: &mut Resolved, chunk: &mut Chunk| {
        let start = k * CHUNK_SEEDS;
        let end = start.saturating_add(CHUNK_SEEDS).min(seeds.len());
        chunk.text.clear();
        chunk.seeds = end - start;
        chunk.failed = 0;
        let line = |seed: u64, r: Result<(), LoadError>, buf: &Resolved| {
            match r {
                Ok(()) => json.write(resolver, buf, &mut chunk.text),
                Err(e) => {
                    chunk.failed += 1;
                    chunk
                        .text
                        .extend_from_slice(error_line(seed, &e).as_bytes());
                }
            }
            chunk.text.push(b'\n');
            ControlFlow::Continue(())
        };
        let _ = match seeds {
            Seeds::Range(r) => {
                resolver.resolve_seeds(r.start + start..r.start + end, rng, wizard, out, line)
            }
            Seeds::List(v) => resolver.resolve_seeds(
                v[start as usize..end as usize].iter().copied(),
                rng,
                wizard,
                out,
                line,
            ),
        };
    };
    let jobs = jobs.clamp(1, chunks.max(1) as usize);
    if jobs == 1 {
        let (mut out, mut chunk) = (Resolved::default(), Chunk::default());
        for k in 0..chunks {
            fill(k, &mut out, &mut chunk);
            sink(&chunk)?;
        }
        return ControlFlow::Continue(());
    }
    std::thread::scope(|scope| {
        // Worker `w` resolves chunks w, w + jobs, ...; reading the workers
        // in turn gives the chunks in order. Emptied chunks go back to
        // their worker for reuse.
        let mut workers = Vec::with_capacity(jobs);
        for w in 0..jobs {
            let (full_tx, full_rx) = mpsc::sync_channel::<Chunk>(2);
            let (empty_tx, empty_rx) = mpsc::channel::<Chunk>();
            let fill = &fill;
            scope.spawn(move || {
                let mut out = Resolved::default();
                for k in (w as u64..chunks).step_by(jobs) {
                    let mut chunk = empty_rx.try_recv().unwrap_or_default();
                    fill(k, &mut out, &mut chunk);
                    if full_tx.send(chunk).is_err() {
                        // The sink stopped.
                        return;
                    }
                }
            });
            workers.push((full_rx, empty_tx));
        }
        for k in 0..chunks {
            let (full, empty) = &workers[(k % jobs as u64) as usize];
            let Ok(chunk) = full.recv() else {
                return ControlFlow::Break(());
            };
            let flow = sink(&chunk);
            // A worker that has finished no longer takes chunks back.
            let _ = empty.send(chunk);
            flow?;
        }
        ControlFlow::Continue(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json_line;
    use dgnkit_loader::rng::RngKind;
    use dgnkit_loader::Rules;
    use dgnkit_script::{flags, Branch, BranchType, Dungeon, Level, Range, Script};

    fn same_as_serde(script: &Script, rules: Rules, seeds: std::ops::Range<u64>) -> usize {
        let res = Resolver::with_rules(script, rules).unwrap();
        let lines = JsonLines::new(&res);
        let mut out = Resolved::default();
        let mut checked = 0;
        for rng in RngKind::ALL {
            for wizard in [false, true] {
                for seed in seeds.clone() {
                    if res.resolve_into(seed, rng, wizard, &mut out).is_err() {
                        continue;
                    }
                    let mut buf = Vec::new();
                    lines.write(&res, &out, &mut buf);
                    let expected = json_line(&out.to_layout(&res, None));
                    assert_eq!(String::from_utf8_lossy(&buf), expected, "seed {seed} {rng}");
                    checked += 1;
                }
            }
        }
        checked
    }

    #[test]
    fn the_built_in_file_writes_as_serde_does() {
        let script = dgnkit::frontend::analyze_fast(
            include_bytes!("../../../corpus/nethack-3.6.def"),
            &dgnkit::frontend::CheckOptions::default(),
        )
        .script
        .unwrap();
        for rules in [Rules::nethack_36(), Rules::nethack_343(), Rules::native()] {
            assert_eq!(
                same_as_serde(&script, rules, 0..300),
                300 * 2 * RngKind::ALL.len()
            );
        }
    }

    /// Threads change nothing: the same text, in seed order, for any number
    /// of jobs, with failed seeds counted; and a sink that stops, stops.
    #[test]
    fn lines_from_many_threads_are_the_lines_in_seed_order() {
        let dungeon = |name: &str, base: i32, rand: i32| Dungeon {
            name: name.into(),
            size: Range { base, rand },
            ..Dungeon::default()
        };
        let branch = |target: &str, base: i32| Branch {
            target: target.into(),
            range: Range { base, rand: 3 },
            chain: -1,
            ..Branch::default()
        };
        let level = |name: &str, rand: i32, chain: i32| Level {
            name: name.into(),
            range: Range { base: 1, rand },
            chance: 100,
            chain,
            ..Level::default()
        };
        let mut top = dungeon("Top", 10, 3);
        top.branches.push(branch("Side", 2));
        top.branches.push(branch("Deep", 5));
        // "Side" exists in half the games; the level in "Deep" chains to
        // the first special level of the file that exists, which is
        // "anchor" only when "Side" does (NetHack's chain indices count
        // the levels of the dungeons that exist), so the other half fail.
        let mut side = dungeon("Side", 3, 0);
        side.chance = 50;
        side.levels.push(level("anchor", 2, -1));
        let mut deep = dungeon("Deep", 4, 0);
        deep.levels.push(level("anchored", 0, 0));
        let script = Script {
            prelude: None,
            dungeons: vec![top, side, deep],
        };
        let res = Resolver::with_rules(&script, Rules::native()).unwrap();
        let json = JsonLines::new(&res);
        let seeds = 1000..1000 + 3 * CHUNK_SEEDS + 17;
        let mut expected = Vec::new();
        let mut expected_failed = 0;
        let mut out = Resolved::default();
        for seed in seeds.clone() {
            match res.resolve_into(seed, RngKind::Isaac64, false, &mut out) {
                Ok(()) => json.write(&res, &out, &mut expected),
                Err(e) => {
                    expected_failed += 1;
                    expected.extend_from_slice(error_line(seed, &e).as_bytes());
                }
            }
            expected.push(b'\n');
        }
        assert!(expected_failed > 0, "seeds that drop \"Side\" fail");
        for jobs in [1, 2, 3, 8] {
            let (mut text, mut failed, mut count) = (Vec::new(), 0, 0);
            let flow = resolve_lines(
                &res,
                &Seeds::Range(seeds.clone()),
                RngKind::Isaac64,
                false,
                jobs,
                |c| {
                    text.extend_from_slice(&c.text);
                    failed += c.failed;
                    count += c.seeds;
                    ControlFlow::Continue(())
                },
            );
            assert_eq!(flow, ControlFlow::Continue(()));
            assert!(text == expected, "{jobs} jobs");
            assert_eq!((failed, count), (expected_failed, seeds.end - seeds.start));
            let mut chunks = 0;
            let flow = resolve_lines(
                &res,
                &Seeds::Range(seeds.clone()),
                RngKind::Isaac64,
                false,
                jobs,
                |_| {
                    chunks += 1;
                    if chunks == 2 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            );
            assert_eq!((flow, chunks), (ControlFlow::Break(()), 2), "{jobs} jobs");
        }
        let flow = resolve_lines(
            &res,
            &Seeds::Range(5..5),
            RngKind::Glibc,
            false,
            4,
            |_| unreachable!(),
        );
        assert_eq!(flow, ControlFlow::Continue(()));
        // A list: each seed's line in the list's order, a seed given twice
        // twice, whatever the threads.
        let lines: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
        let list: Vec<u64> = seeds.clone().rev().chain([1000, 1000]).collect();
        let want: Vec<u8> = list
            .iter()
            .flat_map(|&s| lines[(s - seeds.start) as usize].iter().copied())
            .collect();
        for jobs in [1, 3] {
            let mut text = Vec::new();
            let list = Seeds::List(list.clone());
            assert_eq!(list.len(), seeds.end - seeds.start + 2);
            let _ = resolve_lines(&res, &list, RngKind::Isaac64, false, jobs, |c| {
                text.extend_from_slice(&c.text);
                ControlFlow::Continue(())
            });
            assert!(text == want, "{jobs} jobs");
        }
    }

    /// Names that need escaping, bytes that are not UTF-8, every flag, an
    /// alignment of the level's own and one of its dungeon's, negative
    /// numbers, and every branch type.
    #[test]
    fn awkward_names_and_every_field_write_as_serde_does() {
        let name = |s: &[u8]| s.to_vec();
        let mut top = Dungeon {
            name: name(b"Top \"quoted\" \\ back\tslash\x01\x7f"),
            proto: name(b"pr\xffoto\n"),
            bones: b'"',
            size: Range { base: 12, rand: 4 },
            flags: flags::HELLISH | flags::MAZELIKE | flags::ROGUELIKE | (4 << flags::ALIGN_SHIFT),
            ..Dungeon::default()
        };
        for (i, t) in [
            BranchType::Stair,
            BranchType::NoUp,
            BranchType::NoDown,
            BranchType::Portal,
        ]
        .into_iter()
        .enumerate()
        {
            top.branches.push(Branch {
                target: format!("Side{i}").into_bytes(),
                range: Range {
                    base: 2 + i as i32,
                    rand: 2,
                },
                chain: -1,
                branch_type: t,
                up: i % 2 == 1,
                ..Branch::default()
            });
        }
        top.levels.push(Level {
            name: name("caf\u{e9} \u{1f409}".as_bytes()),
            bones: b'\\',
            range: Range { base: 1, rand: 3 },
            chance: 100,
            chain: -1,
            flags: flags::TOWN | (1 << flags::ALIGN_SHIFT),
            rndlevs: 3,
            ..Level::default()
        });
        top.levels.push(Level {
            name: name(b"plain"),
            range: Range { base: -1, rand: 0 },
            chance: 60,
            chain: -1,
            ..Level::default()
        });
        let mut script = Script {
            prelude: None,
            dungeons: vec![top],
        };
        for i in 0..4 {
            script.dungeons.push(Dungeon {
                name: format!("Side{i}").into_bytes(),
                size: Range { base: 3, rand: 0 },
                entry: -1,
                chance: if i == 2 { 50 } else { 0 },
                ..Dungeon::default()
            });
        }
        assert!(same_as_serde(&script, Rules::native(), 0..200) > 600);
    }
}
