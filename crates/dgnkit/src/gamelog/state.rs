//! A gamelog's state, kept in parts so that the delta of a draw costs
//! what the draw changed: the layout's arrays element by element, its
//! other members, and one game object per record, each rebuilt only when
//! the compact facts it shows differ from the last state's.
//!
//! The state is the layout as `--format json` writes it (without
//! `rng_calls`), plus `gameObjects`: dungeon records `d<rec>` (what the
//! loader decided: index, size, depth, entry; or that its chance roll
//! dropped it), level records `l<rec>` (whether it exists once its chance
//! is rolled; its level and its placement once placed), the placement
//! that holds `p<rec>.<try>`, branch records `r<rec>` and the branches
//! made, `b<id>` by NetHack's branch id.

use super::delta::{diff, diff_value, encode, LEN, RM};
use crate::loader::{Resolved, ResolvedBranch, ResolvedDungeon, ResolvedLevel, Resolver};
use serde_json::{json, Map, Value};

/// What the loader's trace adds to `Resolved`: which chance rolls and
/// placement tries were made.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    /// Per level record: its chance roll is made.
    pub rolled: Vec<bool>,
    /// Per level record: its placement tries so far.
    pub tries: Vec<u32>,
    /// Per dungeon record: its chance roll dropped it.
    pub dropped: Vec<bool>,
}

impl Counters {
    fn rolled(&self, rec: usize) -> bool {
        self.rolled.get(rec).copied().unwrap_or(false)
    }
    fn tries(&self, rec: usize) -> u32 {
        self.tries.get(rec).copied().unwrap_or(0)
    }
    fn dropped(&self, rec: usize) -> bool {
        self.dropped.get(rec).copied().unwrap_or(false)
    }
}

/// What a dungeon record's object shows.
#[derive(Clone, Copy, Debug, PartialEq)]
struct DungeonFacts {
    made: Option<(i32, ResolvedDungeon)>,
    dropped: bool,
}

/// What a level record's object shows.
#[derive(Clone, Copy, Debug, PartialEq)]
struct LevelFacts {
    exists: Option<bool>,
    /// Its level and the try that put it there.
    placed: Option<(i32, u32)>,
}

/// A branch made, with the dungeon records at its ends.
type Made = (ResolvedBranch, Option<u32>, Option<u32>);

pub struct State {
    outcome: u32,
    dungeons: Vec<ResolvedDungeon>,
    levels: Vec<ResolvedLevel>,
    branches: Vec<ResolvedBranch>,
    tune: [u8; 5],
    chaos_variant: i32,
    dungeon_values: Vec<Value>,
    level_values: Vec<Value>,
    branch_values: Vec<Value>,
    /// The layout's other members (seed, tune, the planes' order, ...).
    extras: Map<String, Value>,
    dungeon_facts: Vec<DungeonFacts>,
    level_facts: Vec<LevelFacts>,
    made: Vec<Made>,
    /// Level record -> its slot (scratch).
    slot_of: Vec<usize>,
}

impl State {
    /// The state of `out`, and the whole of it as a delta from nothing
    /// (`encode(&state.value(top))`, made as the state is: the start of a
    /// log, where building the objects twice cost a tenth of the log).
    pub fn start(top: &Resolver, out: &Resolved, counters: &Counters) -> (State, Value) {
        let mut s = State::empty(top, out);
        let mut fresh = Map::new();
        s.update(top, out, counters, &mut fresh, true);
        let mut whole = match encode(&Value::Object(s.extras.clone())) {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        for (key, values) in [
            ("dungeons", &s.dungeon_values),
            ("levels", &s.level_values),
            ("branches", &s.branch_values),
        ] {
            // The fresh delta holds an array only when it is not empty.
            let array = fresh.remove(key).unwrap_or_else(|| {
                let mut m = Map::new();
                m.insert(LEN.to_string(), Value::from(values.len()));
                Value::Object(m)
            });
            whole.insert(key.into(), array);
        }
        let objects = fresh
            .remove("gameObjects")
            .unwrap_or_else(|| Value::Object(Map::new()));
        whole.insert("gameObjects".into(), objects);
        (s, Value::Object(whole))
    }

    fn empty(top: &Resolver, out: &Resolved) -> State {
        State {
            outcome: out.outcome,
            dungeons: Vec::new(),
            levels: Vec::new(),
            branches: Vec::new(),
            tune: out.tune,
            chaos_variant: out.chaos_variant,
            dungeon_values: Vec::new(),
            level_values: Vec::new(),
            branch_values: Vec::new(),
            extras: extras(top, out),
            dungeon_facts: Vec::new(),
            level_facts: Vec::new(),
            made: Vec::new(),
            slot_of: Vec::new(),
        }
    }

    /// The state of `out` as a whole.
    pub fn new(top: &Resolver, out: &Resolved, counters: &Counters) -> State {
        State::start(top, out, counters).0
    }

    /// The whole state as JSON.
    pub fn value(&self, top: &Resolver) -> Value {
        let mut m = self.extras.clone();
        m.insert("dungeons".into(), Value::Array(self.dungeon_values.clone()));
        m.insert("levels".into(), Value::Array(self.level_values.clone()));
        m.insert("branches".into(), Value::Array(self.branch_values.clone()));
        let objects = self.objects(top.outcome(self.outcome));
        m.insert("gameObjects".into(), Value::Object(objects));
        Value::Object(m)
    }

    /// Every game object, as the facts kept say.
    fn objects(&self, res: &Resolver) -> Map<String, Value> {
        let mut m = Map::new();
        for (rec, facts) in self.dungeon_facts.iter().enumerate() {
            m.insert(format!("d{rec}"), dungeon_object(res, rec, facts));
        }
        for (rec, facts) in self.level_facts.iter().enumerate() {
            m.insert(format!("l{rec}"), level_object(res, rec, facts));
            if let Some(p) = facts.placed {
                m.insert(placement_id(rec, p), placement_object(rec, p));
            }
        }
        for rec in 0..res.branches.len() {
            m.insert(format!("r{rec}"), record_object(res, rec));
        }
        for made in &self.made {
            m.insert(format!("b{}", made.0.id), branch_object(made));
        }
        m
    }

    /// Moves to the state of `out`; returns the delta (`None`: nothing
    /// changed).
    pub fn advance(
        &mut self,
        top: &Resolver,
        out: &Resolved,
        counters: &Counters,
    ) -> Option<Value> {
        if out.outcome != self.outcome {
            // A drawing dungeon.lua took another outcome: other records.
            // (The loader settles the outcome before its first state, so a
            // log never starts on another; kept whole for safety.)
            let was = self.value(top);
            *self = State::new(top, out, counters);
            return diff(&was, &self.value(top));
        }
        let mut delta = Map::new();
        self.update(top, out, counters, &mut delta, false);
        (!delta.is_empty()).then_some(Value::Object(delta))
    }

    fn update(
        &mut self,
        top: &Resolver,
        out: &Resolved,
        counters: &Counters,
        delta: &mut Map<String, Value>,
        fresh: bool,
    ) {
        let res = top.outcome(out.outcome);
        let redo_extras = (out.levels != self.levels && res.rules.planes.is_some())
            || out.tune != self.tune
            || out.chaos_variant != self.chaos_variant;
        if let Some(d) = array(
            &mut self.dungeon_values,
            &self.dungeons,
            &out.dungeons,
            |d| to_value(&d.named(res)),
        ) {
            delta.insert("dungeons".into(), d);
        }
        if let Some(d) = array(&mut self.level_values, &self.levels, &out.levels, |l| {
            to_value(&l.named(res))
        }) {
            delta.insert("levels".into(), d);
        }
        if let Some(d) = array(
            &mut self.branch_values,
            &self.branches,
            &out.branches,
            |b| to_value(&b.named()),
        ) {
            delta.insert("branches".into(), d);
        }
        if redo_extras && !fresh {
            // The layout's other members change with the levels only where
            // the planes are shuffled, and with dNetHack's alternates; the
            // tune on its own is its five letters.
            let whole = (out.levels != self.levels && res.rules.planes.is_some())
                || out.chaos_variant != self.chaos_variant;
            let now = if whole {
                extras(top, out)
            } else {
                let mut now = self.extras.clone();
                let tune: String = out.tune.iter().map(|&c| char::from(c)).collect();
                now.insert("tune".into(), Value::from(tune));
                now
            };
            if let Some(Value::Object(d)) = diff(
                &Value::Object(std::mem::take(&mut self.extras)),
                &Value::Object(now.clone()),
            ) {
                delta.extend(d);
            }
            self.extras = now;
        }
        self.dungeons.clone_from(&out.dungeons);
        self.levels.clone_from(&out.levels);
        self.branches.clone_from(&out.branches);
        self.tune = out.tune;
        self.chaos_variant = out.chaos_variant;

        let mut objects = Map::new();
        let blank = DungeonFacts {
            made: None,
            dropped: false,
        };
        self.dungeon_facts.resize(res.dungeons.len(), blank);
        for rec in 0..res.dungeons.len() {
            let made = out
                .index_of
                .get(rec)
                .filter(|&&i| i >= 0)
                .and_then(|&i| Some((i, *out.dungeons.get(i as usize)?)));
            let facts = DungeonFacts {
                made,
                dropped: counters.dropped(rec),
            };
            let was = self.dungeon_facts[rec];
            if !fresh && facts == was {
                continue;
            }
            self.dungeon_facts[rec] = facts;
            let d = if fresh {
                Some(encode(&dungeon_object(res, rec, &facts)))
            } else {
                dungeon_delta(&was, &facts)
            };
            if let Some(d) = d {
                objects.insert(format!("d{rec}"), d);
            }
        }

        self.slot_of.clear();
        self.slot_of.resize(res.levels.len(), usize::MAX);
        for (k, s) in out.slots.iter().enumerate() {
            if let Some(at) = self.slot_of.get_mut(s.record as usize) {
                *at = k;
            }
        }
        self.level_facts.resize(
            res.levels.len(),
            LevelFacts {
                exists: None,
                placed: None,
            },
        );
        for rec in 0..res.levels.len() {
            let slot = out.slots.get(self.slot_of[rec]);
            let facts = LevelFacts {
                exists: slot
                    .filter(|s| s.exists || counters.rolled(rec))
                    .map(|s| s.exists),
                placed: slot
                    .filter(|s| s.exists && s.dlevel > 0)
                    .map(|s| (s.dlevel, counters.tries(rec))),
            };
            let was = self.level_facts[rec];
            if !fresh && facts == was {
                continue;
            }
            self.level_facts[rec] = facts;
            let id = format!("l{rec}");
            if fresh {
                objects.insert(id, encode(&level_object(res, rec, &facts)));
            } else if let Some(d) = level_delta(rec, &was, &facts) {
                objects.insert(id, d);
            }
            // A try that no longer holds was taken back by place_level.
            let (old, new) = (was.placed.filter(|_| !fresh), facts.placed);
            if old != new {
                if let Some(p) = old {
                    objects.insert(placement_id(rec, p), Value::from(RM));
                }
                if let Some(p) = new {
                    objects.insert(placement_id(rec, p), encode(&placement_object(rec, p)));
                }
            }
        }
        if fresh {
            for rec in 0..res.branches.len() {
                objects.insert(format!("r{rec}"), encode(&record_object(res, rec)));
            }
        }

        let record_of = |i: i32| out.dungeons.get(i as usize).map(|d| d.record);
        let same = self.made.len() == out.branches.len()
            && self.made.iter().zip(&out.branches).all(|(m, b)| {
                m.0 == *b && m.1 == record_of(b.end1.0) && m.2 == record_of(b.end2.0)
            });
        if fresh || !same {
            let made: Vec<Made> = out
                .branches
                .iter()
                .map(|b| (*b, record_of(b.end1.0), record_of(b.end2.0)))
                .collect();
            for m in &made {
                let old = self.made.iter().find(|o| o.0.id == m.0.id);
                let d = match old {
                    // Most branches stay as they were when another moves.
                    Some(o) if !fresh && o == m => None,
                    Some(o) if !fresh => diff(&branch_object(o), &branch_object(m)),
                    _ => Some(encode(&branch_object(m))),
                };
                if let Some(d) = d {
                    objects.insert(format!("b{}", m.0.id), d);
                }
            }
            for (b, ..) in &self.made {
                if !made.iter().any(|(n, ..)| n.id == b.id) {
                    objects.insert(format!("b{}", b.id), Value::from(RM));
                }
            }
            self.made = made;
        }
        if !objects.is_empty() {
            delta.insert("gameObjects".into(), Value::Object(objects));
        }
    }
}

fn placement_id(rec: usize, (_, try_): (i32, u32)) -> String {
    format!("p{rec}.{try_}")
}

fn dungeon_object(res: &Resolver, rec: usize, facts: &DungeonFacts) -> Value {
    let d = &res.dungeons[rec];
    let mut o = json!({
        "id": format!("d{rec}"), "gameObjectName": "Dungeon", "record": rec, "name": d.name,
        "chance": d.chance,
    });
    if let Some((i, r)) = facts.made {
        o["index"] = json!(i);
        o["num_levels"] = json!(r.num_levels);
        o["depth_start"] = json!(r.depth_start);
        o["entry_level"] = json!(r.entry_level);
        o["ledger_start"] = json!(r.ledger_start);
    }
    if facts.dropped {
        o["dropped"] = json!(true);
    }
    o
}

/// `diff(dungeon_object(was), dungeon_object(now))`, made from the facts
/// (a draw changes a field or two of one object; building both objects
/// to compare them cost more than the rest of the log).
fn dungeon_delta(was: &DungeonFacts, now: &DungeonFacts) -> Option<Value> {
    let mut m = Map::new();
    let fields = |f: &DungeonFacts| {
        f.made.map(|(i, r)| {
            [
                ("index", i),
                ("num_levels", r.num_levels),
                ("depth_start", r.depth_start),
                ("entry_level", r.entry_level),
                ("ledger_start", r.ledger_start),
            ]
        })
    };
    match (fields(was), fields(now)) {
        (_, Some(new)) => {
            let old = fields(was);
            for (k, (name, v)) in new.into_iter().enumerate() {
                if old.is_none_or(|o| o[k].1 != v) {
                    m.insert(name.into(), Value::from(v));
                }
            }
        }
        (Some(old), None) => {
            for (name, _) in old {
                m.insert(name.into(), Value::from(RM));
            }
        }
        (None, None) => {}
    }
    field(
        &mut m,
        "dropped",
        was.dropped.then_some(true),
        now.dropped.then_some(true),
    );
    (!m.is_empty()).then_some(Value::Object(m))
}

/// `diff(level_object(was), level_object(now))`, made from the facts.
fn level_delta(rec: usize, was: &LevelFacts, now: &LevelFacts) -> Option<Value> {
    let mut m = Map::new();
    field(&mut m, "exists", was.exists, now.exists);
    field(
        &mut m,
        "dlevel",
        was.placed.map(|p| p.0),
        now.placed.map(|p| p.0),
    );
    let id = |p: Option<(i32, u32)>| p.map(|p| placement_id(rec, p));
    match (id(was.placed), id(now.placed)) {
        (Some(a), Some(b)) if a == b => {}
        (_, Some(b)) => {
            m.insert("placement".into(), json!({ "id": b }));
        }
        (Some(_), None) => {
            m.insert("placement".into(), Value::from(RM));
        }
        (None, None) => {}
    }
    (!m.is_empty()).then_some(Value::Object(m))
}

/// A scalar member's delta: set when new or changed, `&RM` when gone.
fn field<T: PartialEq + Into<Value>>(
    m: &mut Map<String, Value>,
    name: &str,
    was: Option<T>,
    now: Option<T>,
) {
    match (was, now) {
        (Some(a), Some(b)) if a == b => {}
        (_, Some(b)) => {
            m.insert(name.into(), b.into());
        }
        (Some(_), None) => {
            m.insert(name.into(), Value::from(RM));
        }
        (None, None) => {}
    }
}

fn level_object(res: &Resolver, rec: usize, facts: &LevelFacts) -> Value {
    let l = &res.levels[rec];
    let mut o = json!({
        "id": format!("l{rec}"), "gameObjectName": "Level", "record": rec, "name": l.name,
        "dungeon": {"id": format!("d{}", l.dungeon)}, "chance": l.chance,
    });
    if let Some(e) = facts.exists {
        o["exists"] = json!(e);
    }
    if let Some(p) = facts.placed {
        o["dlevel"] = json!(p.0);
        o["placement"] = json!({ "id": placement_id(rec, p) });
    }
    o
}

fn placement_object(rec: usize, p: (i32, u32)) -> Value {
    json!({
        "id": placement_id(rec, p), "gameObjectName": "Placement",
        "level": {"id": format!("l{rec}")}, "dlevel": p.0, "try": p.1,
    })
}

fn record_object(res: &Resolver, rec: usize) -> Value {
    let b = &res.branches[rec];
    let owner = res
        .dungeons
        .iter()
        .position(|d| (d.branches.0..d.branches.1).contains(&(rec as u32)));
    json!({
        "id": format!("r{rec}"), "gameObjectName": "BranchRecord", "record": rec,
        "from": owner.map(|d| json!({ "id": format!("d{d}") })),
        "to": b.target, "type": b.kind.name(), "up": b.up,
    })
}

fn branch_object((b, from, to): &Made) -> Value {
    json!({
        "id": format!("b{}", b.id), "gameObjectName": "Branch", "branch": b.id,
        "record": {"id": format!("r{}", b.record)},
        "type": b.kind.name(),
        "from": from.map(|d| json!({ "id": format!("d{d}") })),
        "to": to.map(|d| json!({ "id": format!("d{d}") })),
        "end1": {"dungeon": b.end1.0, "level": b.end1.1},
        "end2": {"dungeon": b.end2.0, "level": b.end2.1},
        "end1_up": b.end1_up,
    })
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    // Layout types are plain strings, integers and booleans.
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The layout's members besides its three arrays.
fn extras(top: &Resolver, out: &Resolved) -> Map<String, Value> {
    let mut layout = to_value(&out.to_layout(top, None));
    let mut m = match layout.take() {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    for k in ["dungeons", "levels", "branches"] {
        m.remove(k);
    }
    m
}

/// The delta of an array of layout entries, made only for the entries that
/// changed; `values` moves to the new array.
fn array<T: PartialEq>(
    values: &mut Vec<Value>,
    old: &[T],
    new: &[T],
    make: impl Fn(&T) -> Value,
) -> Option<Value> {
    let mut m = Map::new();
    for (i, x) in new.iter().enumerate() {
        if old.get(i) == Some(x) && i < values.len() {
            continue;
        }
        let v = make(x);
        let d = match values.get(i) {
            Some(was) => diff_value(was, &v),
            None => Some(encode(&v)),
        };
        if let Some(d) = d {
            m.insert(i.to_string(), d);
        }
        match values.get_mut(i) {
            Some(slot) => *slot = v,
            None => values.push(v),
        }
    }
    values.truncate(new.len());
    if m.is_empty() && old.len() == new.len() {
        return None;
    }
    m.insert(LEN.to_string(), Value::from(new.len()));
    Some(Value::Object(m))
}
