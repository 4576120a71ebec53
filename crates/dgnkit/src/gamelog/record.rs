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

use super::delta::{diff, encode};
use crate::games::rng_log::RngLog;
use crate::loader::{Checkpoint, LoadError, Resolved, Resolver, Trace};
use crate::rng::{Draw, Site};
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
    /// `init_dungeons()`'s draws, each with its delta once settled.
    draws: Vec<(Draw, Option<Value>)>,
    /// The last settled state.
    anchor: Option<Value>,
    /// The last draw's consequences are not settled yet.
    open: bool,
    /// Per level record: its chance roll is made; its placement tries.
    rolled: Vec<bool>,
    tries: Vec<u32>,
    /// Per dungeon record: its chance roll dropped it.
    dropped: Vec<bool>,
}

impl<'r> Recorder<'r> {
    pub fn new(resolver: &'r Resolver, rng_log: Option<&'static RngLog>) -> Recorder<'r> {
        Recorder {
            resolver,
            rng_log,
            before: Vec::new(),
            draws: Vec::new(),
            anchor: None,
            open: false,
            rolled: Vec::new(),
            tries: Vec::new(),
            dropped: Vec::new(),
        }
    }

    /// The state the loader shows now, in the gamelog's terms.
    fn snapshot(&self, out: &Resolved) -> Value {
        state(self.resolver, out, &self.rolled, &self.tries, &self.dropped)
    }

    fn settle(&mut self, out: &Resolved) {
        if !self.open {
            return;
        }
        let now = self.snapshot(out);
        let was = self
            .anchor
            .get_or_insert_with(|| start_state(self.resolver, out));
        let delta = diff(was, &now);
        *was = now;
        if let Some(last) = self.draws.last_mut() {
            last.1 = Some(delta.unwrap_or_else(|| json!({})));
        }
        self.open = false;
    }

    /// The whole gamelog, once the resolution ended with `result` and the
    /// layout `out`.
    pub fn finish(
        mut self,
        out: &Resolved,
        result: &Result<(), LoadError>,
        settings: &Settings,
    ) -> Value {
        let start = start_state(self.resolver, out);
        let end = self.snapshot(out);
        let anchor = self.anchor.take().unwrap_or_else(|| start.clone());
        let rest = diff(&anchor, &end).unwrap_or_else(|| json!({}));
        // The last draw settles with the end; else what followed it is
        // the end's own change.
        let over = match self.draws.last_mut() {
            Some(last) if self.open => {
                last.1 = Some(rest);
                json!({})
            }
            _ => rest,
        };
        let mut deltas = Vec::with_capacity(self.draws.len() + 2);
        deltas.push(json!({"type": "start", "data": self.start_data(), "game": encode(&start)}));
        deltas.extend(
            self.draws
                .iter()
                .enumerate()
                .map(|(i, (draw, delta))| self.ran(i, draw, delta.as_ref())),
        );
        let mut over = json!({"type": "over", "game": over});
        if let Err(e) = result {
            over["data"] = json!({"error": e.to_string()});
        }
        deltas.push(over);
        json!({
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
            "deltas": deltas,
        })
    }

    fn start_data(&self) -> Value {
        let mut object = 0;
        let draws: Vec<Value> = self
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
        json!({"game_start": draws})
    }

    fn run(&self, d: &Draw, caller: Option<&str>) -> Value {
        let what = self.resolver.describe_site(d.site);
        let caller = match (caller, d.site) {
            (Some(c), _) => c.to_string(),
            (None, Site::LuaPrelude { line }) => format!("dungeon.lua:{line}"),
            (None, _) => format!("{} {what}", crate::session::entry::UNKNOWN_CALLER),
        };
        json!({
            "run": {"functionName": "rn2", "args": {"x": d.n}, "caller": caller},
            "returned": d.value(),
            "what": what,
        })
    }

    fn ran(&self, i: usize, d: &Draw, delta: Option<&Value>) -> Value {
        let caller = self.rng_log.and_then(|l| l.caller(d.site, 0));
        let mut data = self.run(d, caller);
        data["draw"] = json!(i + 1);
        if let Some(id) = object_of(d.site) {
            data["object"] = json!({ "id": id });
        }
        let game = delta.cloned().unwrap_or_else(|| json!({}));
        json!({"type": "ran", "data": data, "game": game})
    }
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
            Site::LevelChance { level } => mark(&mut self.rolled, level, |r| *r = true),
            Site::Place { level } => mark(&mut self.tries, level, |t| *t += 1),
            _ => {}
        }
        if self.open {
            // No state shown since the last draw: nothing it could see
            // changed (a drawing `dungeon.lua`'s draws, nhlib's shuffle).
            if let Some(last) = self.draws.last_mut() {
                last.1 = Some(json!({}));
            }
        }
        self.draws.push((draw, None));
        self.open = true;
    }

    fn checkpoint(&mut self, at: Checkpoint, out: &Resolved) -> ControlFlow<()> {
        if let Checkpoint::Placed { record } = at {
            if out.index_of.get(record as usize).is_none_or(|&i| i < 0) {
                mark(&mut self.dropped, record, |d| *d = true);
            }
        }
        self.settle(out);
        ControlFlow::Continue(())
    }

    fn state(&mut self, out: &Resolved) {
        self.settle(out);
    }
}

/// The state before `init_dungeons()` draws: every record of the
/// description (of the outcome a drawing `dungeon.lua` took), nothing
/// decided; the hero and the inputs as `out` has them from the start.
fn start_state(top: &Resolver, out: &Resolved) -> Value {
    let mut start = Resolved::default();
    start.seed = out.seed;
    start.rng = out.rng;
    start.wizard = out.wizard;
    start.character = out.character;
    start.pre_draws = out.pre_draws;
    start.outcome = out.outcome;
    state(top, &start, &[], &[], &[])
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

/// A state of the gamelog: the layout so far as `--format json` writes it
/// (without `rng_calls`), plus `gameObjects`: every dungeon, level and
/// branch record of the description, what the loader decided about each
/// so far, the placements it holds and the branches it made.
pub fn state(
    top: &Resolver,
    out: &Resolved,
    rolled: &[bool],
    tries: &[u32],
    dropped: &[bool],
) -> Value {
    let res = top.outcome(out.outcome);
    let layout = out.to_layout(top, None);
    let mut value = serde_json::to_value(&layout).unwrap_or_else(|_| json!({}));
    let mut objects = Map::new();
    for (rec, d) in res.dungeons.iter().enumerate() {
        let id = format!("d{rec}");
        let mut o = json!({
            "id": id, "gameObjectName": "Dungeon", "record": rec, "name": d.name,
            "chance": d.chance,
        });
        if let Some(&i) = out.index_of.get(rec).filter(|&&i| i >= 0) {
            if let Some(r) = out.dungeons.get(i as usize) {
                o["index"] = json!(i);
                o["num_levels"] = json!(r.num_levels);
                o["depth_start"] = json!(r.depth_start);
                o["entry_level"] = json!(r.entry_level);
                o["ledger_start"] = json!(r.ledger_start);
            }
        }
        if dropped.get(rec).copied().unwrap_or(false) {
            o["dropped"] = json!(true);
        }
        objects.insert(id, o);
    }
    for (rec, l) in res.levels.iter().enumerate() {
        let id = format!("l{rec}");
        let mut o = json!({
            "id": id, "gameObjectName": "Level", "record": rec, "name": l.name,
            "dungeon": {"id": format!("d{}", l.dungeon)}, "chance": l.chance,
        });
        if let Some(slot) = out.slots.iter().find(|s| s.record as usize == rec) {
            let rolled = rolled.get(rec).copied().unwrap_or(false);
            if slot.exists || rolled {
                o["exists"] = json!(slot.exists);
            }
            if slot.exists && slot.dlevel > 0 {
                let try_ = tries.get(rec).copied().unwrap_or(0);
                let pid = format!("p{rec}.{try_}");
                o["dlevel"] = json!(slot.dlevel);
                o["placement"] = json!({ "id": pid });
                objects.insert(
                    pid.clone(),
                    json!({
                        "id": pid, "gameObjectName": "Placement",
                        "level": {"id": id}, "dlevel": slot.dlevel, "try": try_,
                    }),
                );
            }
        }
        objects.insert(id, o);
    }
    for (rec, b) in res.branches.iter().enumerate() {
        let id = format!("r{rec}");
        let owner = res
            .dungeons
            .iter()
            .position(|d| (d.branches.0..d.branches.1).contains(&(rec as u32)))
            .map(|d| json!({ "id": format!("d{d}") }));
        objects.insert(
            id.clone(),
            json!({
                "id": id, "gameObjectName": "BranchRecord", "record": rec,
                "from": owner, "to": b.target, "type": b.kind.name(), "up": b.up,
            }),
        );
    }
    for b in &out.branches {
        let id = format!("b{}", b.id);
        let dungeon = |i: i32| {
            out.dungeons
                .get(i as usize)
                .map(|d| json!({ "id": format!("d{}", d.record) }))
        };
        objects.insert(
            id.clone(),
            json!({
                "id": id, "gameObjectName": "Branch", "branch": b.id,
                "record": {"id": format!("r{}", b.record)},
                "type": b.kind.name(),
                "from": dungeon(b.end1.0), "to": dungeon(b.end2.0),
                "end1": {"dungeon": b.end1.0, "level": b.end1.1},
                "end2": {"dungeon": b.end2.0, "level": b.end2.1},
                "end1_up": b.end1_up,
            }),
        );
    }
    value["gameObjects"] = Value::Object(objects);
    value
}
