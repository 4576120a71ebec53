//! Writing a gamelog: the loader watched by a [`Recorder`], which sees
//! every draw and the layout between draws ([`Trace::state`]), and turns
//! each draw's consequences into a `ran` delta.
//!
//! A draw's delta is the change from the state where the previous draw's
//! consequences were settled to the state where this draw's are: the
//! loader shows the state before each draw, after each placement try and
//! after the castle tune, and at each [`Checkpoint`]. What happens between
//! a settled state and the next draw without a draw of its own (a
//! placement taken back when the next level finds no room) shows in the
//! next draw's delta; what happens after the last one, in `over`.

use super::state::{Counters, Delta, State};
use crate::games::rng_log::RngLog;
use crate::loader::{Checkpoint, LoadError, Resolved, Resolver, Trace};
use crate::rng::{Draw, Site};
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::ops::ControlFlow;

/// What a gamelog's top level says besides its deltas.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The game's `--target` name.
    pub target: String,
    /// Its title ("NetHack 3.6"): the gamelog's `gameName`.
    pub title: String,
    /// The description's name, as the command was given it.
    pub file: String,
    pub seed: u64,
    /// `--role` as given (a game start may choose the hero: the layout's
    /// `character` says which).
    pub role: Option<String>,
    pub wizard: bool,
    /// The generator's name.
    pub generator: String,
    /// Whether the game's start ran before the loader.
    pub game_start: bool,
    /// The loader's other inputs (`--option`, `--race`, ...), by name.
    pub inputs: Vec<(String, String)>,
    /// Milliseconds since 1970 when the log was made.
    pub epoch: u64,
}

/// The draws of one resolution and the states the loader showed between
/// them.
pub struct Recorder<'r> {
    resolver: &'r Resolver,
    rng_log: Option<&'static RngLog>,
    /// The game start's draws, before `init_dungeons()`.
    before: Vec<Draw>,
    /// `init_dungeons()`'s draws so far, each written (`,` and its `ran`
    /// delta) once its consequences are settled: the log is text as it
    /// goes, and no tree of all its deltas is kept.
    ran: Vec<u8>,
    /// How many of `init_dungeons()`'s draws were made.
    count: usize,
    /// The start, as a whole delta from nothing, once known (at the first
    /// settled state).
    start: Option<Delta>,
    /// The last settled state.
    anchor: Option<State>,
    /// The last draw, while its consequences are not settled.
    open: Option<Draw>,
    counters: Counters,
}

impl<'r> Recorder<'r> {
    pub fn new(resolver: &'r Resolver, rng_log: Option<&'static RngLog>) -> Recorder<'r> {
        Recorder {
            resolver,
            rng_log,
            before: Vec::new(),
            ran: Vec::with_capacity(1 << 16),
            count: 0,
            start: None,
            anchor: None,
            open: None,
            counters: Counters::default(),
        }
    }

    /// The last settled state; the start when there is none yet: every
    /// record of the description (of the outcome a drawing `dungeon.lua`
    /// took), nothing decided, the hero and the inputs as `out` has them.
    fn anchor(&mut self, out: &Resolved) -> &mut State {
        let (top, start) = (self.resolver, &mut self.start);
        self.anchor.get_or_insert_with(|| {
            let mut blank = Resolved::default();
            blank.seed = out.seed;
            blank.rng = out.rng;
            blank.wizard = out.wizard;
            blank.character = out.character;
            blank.pre_draws = out.pre_draws;
            blank.outcome = out.outcome;
            let (state, whole) = State::start(top, &blank, &Counters::default());
            *start = Some(whole);
            state
        })
    }

    fn settle(&mut self, out: &Resolved) {
        if self.open.is_none() {
            return;
        }
        let (top, counters) = (self.resolver, std::mem::take(&mut self.counters));
        let delta = self.anchor(out).advance(top, out, &counters);
        self.counters = counters;
        if let Some(draw) = self.open.take() {
            self.write_ran(&draw, delta);
        }
    }

    /// The whole gamelog as JSON text, once the resolution ended with
    /// `result` and the layout `out`. Written as it goes: a log is one
    /// small delta per draw, and a tree of them all would cost more than
    /// the resolution.
    pub fn finish(
        mut self,
        out: &Resolved,
        result: &Result<(), LoadError>,
        settings: &Settings,
    ) -> Vec<u8> {
        let (top, counters) = (self.resolver, std::mem::take(&mut self.counters));
        let rest = self
            .anchor(out)
            .advance(top, out, &counters)
            .unwrap_or_default();
        // The last draw settles with the end; else what followed it is
        // the end's own change.
        let over = match self.open.take() {
            Some(draw) => {
                self.write_ran(&draw, Some(rest));
                Delta::default()
            }
            None => rest,
        };
        let start = self.start.take().unwrap_or_default();
        let mut w = Vec::with_capacity(self.ran.len() + (1 << 16));
        let head = json!({
            "gamelogVersion": "2.2.0",
            "gameName": settings.title,
            "gameSession": settings.seed.to_string(),
            "gameVersion": concat!("dgnkit ", env!("CARGO_PKG_VERSION")),
            "constants": {"DELTA_LIST_LENGTH": super::delta::LEN, "DELTA_REMOVED": super::delta::RM},
            "epoch": settings.epoch,
            "randomSeed": settings.seed.to_string(),
            "winners": [],
            "losers": [],
            "settings": settings_json(settings),
        });
        // Writing JSON values into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut w, &head);
        w.pop();
        w.extend_from_slice(b",\"deltas\":[");
        write_delta(&mut w, "start", Some(&self.start_data()), &start);
        w.extend_from_slice(&self.ran);
        w.push(b',');
        let error = result
            .as_ref()
            .err()
            .map(|e| json!({"error": e.to_string()}));
        write_delta(&mut w, "over", error.as_ref(), &over);
        w.extend_from_slice(b"]}");
        w
    }

    fn start_data(&self) -> Value {
        let mut object = 0;
        let draws: Vec<RanData> = self
            .before
            .iter()
            .map(|d| {
                let caller = self.rng_log.and_then(|l| l.caller(d.site, object));
                if d.site == Site::ObjectInit {
                    object += 1;
                }
                self.run(d, caller)
            })
            .collect();
        json!({ "game_start": draws })
    }

    fn run(&self, d: &Draw, caller: Option<&str>) -> RanData {
        let what = self.resolver.describe_site(d.site);
        let caller = match (caller, d.site) {
            (Some(c), _) => c.to_string(),
            (None, Site::LuaPrelude { line }) => format!("dungeon.lua:{line}"),
            (None, _) => format!("{} {what}", crate::session::entry::UNKNOWN_CALLER),
        };
        RanData {
            run: Run {
                function_name: "rn2",
                args: Args { x: d.n },
                caller,
            },
            returned: d.value(),
            what,
            draw: None,
            object: None,
        }
    }

    /// Writes the `count`th draw's `ran` delta, `delta` what it changed.
    fn write_ran(&mut self, d: &Draw, delta: Option<Delta>) {
        let caller = self.rng_log.and_then(|l| l.caller(d.site, 0));
        let mut data = self.run(d, caller);
        data.draw = Some(self.count);
        data.object = object_of(d.site).map(|id| Ref { id });
        self.ran.push(b',');
        write_delta(
            &mut self.ran,
            "ran",
            Some(&data),
            &delta.unwrap_or_default(),
        );
    }
}

/// A delta of the log: `{"type":KIND,"data":DATA,"game":GAME}`.
fn write_delta<T: Serialize>(w: &mut Vec<u8>, kind: &str, data: Option<&T>, game: &Delta) {
    w.extend_from_slice(b"{\"type\":\"");
    w.extend_from_slice(kind.as_bytes());
    w.push(b'"');
    if let Some(data) = data {
        w.extend_from_slice(b",\"data\":");
        // Writing JSON values into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *w, data);
    }
    w.extend_from_slice(b",\"game\":");
    game.write(w);
    w.push(b'}');
}

/// A draw: the framework's `run` and `returned`, and dgnkit's words.
#[derive(Serialize)]
struct RanData {
    run: Run,
    returned: i64,
    what: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    object: Option<Ref>,
}

#[derive(Serialize)]
struct Run {
    #[serde(rename = "functionName")]
    function_name: &'static str,
    args: Args,
    caller: String,
}

/// `rn2`'s one argument, by its name in `rnd.c` (`int rn2(int x)`).
#[derive(Serialize)]
struct Args {
    x: i32,
}

/// A shallow reference to a game object.
#[derive(Serialize)]
struct Ref {
    id: String,
}

impl Trace for Recorder<'_> {
    const SEES_STATES: bool = true;

    fn draw(&mut self, draw: Draw) {
        if draw.site.before_loader() {
            self.before.push(draw);
            return;
        }
        if !draw.site.in_loader() {
            return;
        }
        match draw.site {
            Site::LevelChance { level } => mark(&mut self.counters.rolled, level, |r| *r = true),
            Site::Place { level } => mark(&mut self.counters.tries, level, |t| *t += 1),
            _ => {}
        }
        if let Some(last) = self.open.take() {
            // No state shown since the last draw: nothing it could see
            // changed (a drawing `dungeon.lua`'s draws, nhlib's shuffle).
            self.write_ran(&last, None);
        }
        self.count += 1;
        self.open = Some(draw);
    }

    fn checkpoint(&mut self, at: Checkpoint, out: &Resolved) -> ControlFlow<()> {
        if let Checkpoint::Placed { record } = at {
            if out.index_of.get(record as usize).is_none_or(|&i| i < 0) {
                mark(&mut self.counters.dropped, record, |d| *d = true);
            }
        }
        self.settle(out);
        ControlFlow::Continue(())
    }

    fn state(&mut self, out: &Resolved) {
        self.settle(out);
    }
}

fn mark<T: Default + Clone>(v: &mut Vec<T>, i: u32, f: impl FnOnce(&mut T)) {
    let i = i as usize;
    if v.len() <= i {
        v.resize(i + 1, T::default());
    }
    f(&mut v[i]);
}

/// The game object a draw is about.
fn object_of(site: Site) -> Option<String> {
    match site {
        Site::DungeonChance { dungeon }
        | Site::DungeonSize { dungeon }
        | Site::BranchLevel { dungeon }
        | Site::Alternate { dungeon }
        | Site::QuestLocate { dungeon } => Some(format!("d{dungeon}")),
        Site::LevelChance { level } | Site::Place { level } => Some(format!("l{level}")),
        _ => None,
    }
}

fn settings_json(s: &Settings) -> Value {
    let mut m = Map::new();
    m.insert("target".into(), json!(s.target));
    m.insert("file".into(), json!(s.file));
    m.insert("seed".into(), json!(s.seed));
    m.insert("role".into(), json!(s.role));
    m.insert("wizard".into(), json!(s.wizard));
    m.insert("generator".into(), json!(s.generator));
    m.insert("game_start".into(), json!(s.game_start));
    for (k, v) in &s.inputs {
        m.insert(k.clone(), json!(v));
    }
    Value::Object(m)
}
