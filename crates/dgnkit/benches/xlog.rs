//! `dgn xlog` on a NetHack 3.6 xlogfile generated here (20,000 games with
//! every field NetHack 3.6 writes, deaths spread over the main dungeon,
//! Gehennom, the Mines, the Quest, Sokoban and the Astral Plane): the
//! summary alone (parsing and a table lookup per line), with the JSON
//! line of every game, and the answers table itself (computed once per
//! release). Throughput is in bytes of xlogfile.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dgnkit::xlog::reader::{Item, LineStream};
use dgnkit::xlog::{Options, Xlog};
use std::hint::black_box;
use std::time::Duration;

/// A small linear congruential generator: the same file on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn xlogfile(games: usize) -> Vec<u8> {
    let mut places: Vec<(i32, i32)> = Vec::new();
    for d in 1..=25 {
        places.extend([(0, d); 4]);
    }
    places.extend((5..=10).map(|d| (2, d)));
    places.extend((30..=44).map(|d| (1, d)));
    places.extend((13..=15).map(|d| (3, d)));
    places.extend((3..=5).map(|d| (4, d)));
    places.push((7, -5));
    let deaths = [
        "killed by a soldier ant",
        "killed by a jackal",
        "quit",
        "ascended",
        "killed by a gnome lord",
        "petrified by a cockatrice",
        "escaped",
        "killed by the Wizard of Yendor",
        "drowned in a moat by an eel",
        "killed by a hill orc",
    ];
    let roles = [
        "Arc", "Bar", "Cav", "Hea", "Kni", "Mon", "Pri", "Rog", "Ran", "Sam", "Tou", "Val", "Wiz",
    ];
    let mut r = Lcg(1);
    let mut out = String::new();
    for i in 0..games {
        let (dnum, depth) = places[r.next(places.len() as u64) as usize];
        out += &format!(
            "version=3.6.{}\tpoints={}\tdeathdnum={dnum}\tdeathlev={depth}\tmaxlvl={}\thp={}\tmaxhp={}\tdeaths=1\tdeathdate=20190512\tbirthdate=20190511\tuid=5\trole={}\trace=Hum\tgender=Mal\talign=Neu\tname=player{}\tdeath={}\twhile=helpless\tconduct=0x{:x}\tturns={}\tachieve=0x{:x}\trealtime={}\tstarttime=1557600000\tendtime=1557690000\tgender0=Mal\talign0=Neu\tflags=0x4\n",
            1 + r.next(6),
            r.next(3_000_000),
            depth.max(1) + 3,
            r.next(90) as i64 - 10,
            10 + r.next(300),
            roles[r.next(roles.len() as u64) as usize],
            i % 5000,
            deaths[r.next(deaths.len() as u64) as usize],
            r.next(4096),
            r.next(90_000),
            r.next(4096),
            r.next(900_000),
        );
    }
    out.into_bytes()
}

fn read_all(x: &mut Xlog, data: &[u8], json: Option<&mut Vec<u8>>) -> u64 {
    let mut stream = LineStream::new(data);
    let mut games = 0;
    let mut json = json;
    while let Ok(Some(item)) = stream.next_item() {
        if let Item::Line(l) = item {
            if let Ok(Some(g)) = x.read(l.number, l.bytes) {
                games += 1;
                if let Some(buf) = json.as_deref_mut() {
                    buf.clear();
                    x.json(&g, buf);
                    black_box(buf.len());
                }
            }
        }
    }
    games
}

fn xlog(c: &mut Criterion) {
    let data = xlogfile(20_000);
    let mut g = c.benchmark_group("xlog/nethack-3.6");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.measurement_time(Duration::from_secs(3));
    // The answers table is built on the first line of a release, once.
    let mut x = Xlog::new(Options::default());
    read_all(&mut x, &data, None);
    g.bench_function("summary (parse and look up)", |b| {
        b.iter(|| read_all(&mut x, black_box(&data), None))
    });
    let mut buf = Vec::new();
    g.bench_function("JSON line per game", |b| {
        b.iter(|| read_all(&mut x, black_box(&data), Some(&mut buf)))
    });
    g.finish();
    let mut g = c.benchmark_group("xlog/tables");
    g.sample_size(20);
    let release = dgnkit::xlog::release::for_version(b"3.6.6", None, |_| false).unwrap();
    let script = dgnkit::xlog::builtin_script(release).unwrap();
    g.bench_function("answers for nethack-3.6 (exact places)", |b| {
        b.iter(|| dgnkit::xlog::answers::compute(black_box(&script), release.target))
    });
    g.finish();
}

criterion_group!(benches, xlog);
criterion_main!(benches);
