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
    objects: Map<String, Value>,
}

impl State {
    /// The state of `out` as a whole.
    pub fn new(top: &Resolver, out: &Resolved, counters: &Counters) -> State {
        let mut s = State {
            outcome: out.outcome,
            dungeons: Vec::new(),
            levels: Vec::new(),
            branches: Vec::new(),
            tune: out.tune,
            chaos_variant: out.chaos_variant,
            dungeon_values: Vec::new(),
            level_values: Vec::new(),
            branch_values: Vec::new(),
            extras: Map::new(),
            dungeon_facts: Vec::new(),
            level_facts: Vec::new(),
            made: Vec::new(),
            objects: Map::new(),
        };
        let res = top.outcome(out.outcome);
        for (rec, b) in res.branches.iter().enumerate() {
            let owner = res
                .dungeons
                .iter()
                .position(|d| (d.branches.0..d.branches.1).contains(&(rec as u32)));
            let id = format!("r{rec}");
            let object = json!({
                "id": id, "gameObjectName": "BranchRecord", "record": rec,
                "from": owner.map(|d| json!({ "id": format!("d{d}") })),
                "to": b.target, "type": b.kind.name(), "up": b.up,
            });
            s.objects.insert(id, object);
        }
        s.extras = extras(top, out);
        let mut ignore = Map::new();
        s.update(top, out, counters, &mut ignore, true);
        s
    }

    /// The whole state as JSON.
    pub fn value(&self) -> Value {
        let mut m = self.extras.clone();
        m.insert("dungeons".into(), Value::Array(self.dungeon_values.clone()));
        m.insert("levels".into(), Value::Array(self.level_values.clone()));
        m.insert("branches".into(), Value::Array(self.branch_values.clone()));
        m.insert("gameObjects".into(), Value::Object(self.objects.clone()));
        Value::Object(m)
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
            let was = self.value();
            *self = State::new(top, out, counters);
            return diff(&was, &self.value());
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
        self.dungeon_facts.resize(
            res.dungeons.len(),
            DungeonFacts {
                made: None,
                dropped: false,
            },
        );
        for (rec, d) in res.dungeons.iter().enumerate() {
            let made = out
                .index_of
                .get(rec)
                .filter(|&&i| i >= 0)
                .and_then(|&i| Some((i, *out.dungeons.get(i as usize)?)));
            let facts = DungeonFacts {
                made,
                dropped: counters.dropped(rec),
            };
            if !fresh && facts == self.dungeon_facts[rec] {
                continue;
            }
            self.dungeon_facts[rec] = facts;
            let id = format!("d{rec}");
            let mut o = json!({
                "id": id, "gameObjectName": "Dungeon", "record": rec, "name": d.name,
                "chance": d.chance,
            });
            if let Some((i, r)) = made {
                o["index"] = json!(i);
                o["num_levels"] = json!(r.num_levels);
                o["depth_start"] = json!(r.depth_start);
                o["entry_level"] = json!(r.entry_level);
                o["ledger_start"] = json!(r.ledger_start);
            }
            if facts.dropped {
                o["dropped"] = json!(true);
            }
            put(&mut self.objects, &mut objects, id, Some(o));
        }

        let mut slot_of = vec![usize::MAX; res.levels.len()];
        for (k, s) in out.slots.iter().enumerate() {
            if let Some(at) = slot_of.get_mut(s.record as usize) {
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
        for (rec, l) in res.levels.iter().enumerate() {
            let slot = out.slots.get(slot_of[rec]);
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
            let mut o = json!({
                "id": id, "gameObjectName": "Level", "record": rec, "name": l.name,
                "dungeon": {"id": format!("d{}", l.dungeon)}, "chance": l.chance,
            });
            if let Some(e) = facts.exists {
                o["exists"] = json!(e);
            }
            let placement = |(_, t): (i32, u32)| format!("p{rec}.{t}");
            if let Some((dlevel, try_)) = facts.placed {
                let pid = placement((dlevel, try_));
                o["dlevel"] = json!(dlevel);
                o["placement"] = json!({ "id": pid });
                let p = json!({
                    "id": pid, "gameObjectName": "Placement",
                    "level": {"id": id}, "dlevel": dlevel, "try": try_,
                });
                put(&mut self.objects, &mut objects, pid, Some(p));
            }
            // A try that no longer holds: taken back by place_level.
            if let Some(old) = was.placed.filter(|&p| Some(p) != facts.placed) {
                if facts.placed.is_none_or(|p| placement(p) != placement(old)) {
                    put(&mut self.objects, &mut objects, placement(old), None);
                }
            }
            put(&mut self.objects, &mut objects, id, Some(o));
        }

        let record_of = |i: i32| out.dungeons.get(i as usize).map(|d| d.record);
        let made: Vec<Made> = out
            .branches
            .iter()
            .map(|b| (*b, record_of(b.end1.0), record_of(b.end2.0)))
            .collect();
        if fresh || made != self.made {
            for m in &made {
                if !fresh && self.made.contains(m) {
                    continue;
                }
                let (b, from, to) = *m;
                let id = format!("b{}", b.id);
                let o = json!({
                    "id": id, "gameObjectName": "Branch", "branch": b.id,
                    "record": {"id": format!("r{}", b.record)},
                    "type": b.kind.name(),
                    "from": from.map(|d| json!({ "id": format!("d{d}") })),
                    "to": to.map(|d| json!({ "id": format!("d{d}") })),
                    "end1": {"dungeon": b.end1.0, "level": b.end1.1},
                    "end2": {"dungeon": b.end2.0, "level": b.end2.1},
                    "end1_up": b.end1_up,
                });
                put(&mut self.objects, &mut objects, id, Some(o));
            }
            for (b, ..) in &self.made {
                if !made.iter().any(|(n, ..)| n.id == b.id) {
                    put(&mut self.objects, &mut objects, format!("b{}", b.id), None);
                }
            }
            self.made = made;
        }
        if !objects.is_empty() {
            delta.insert("gameObjects".into(), Value::Object(objects));
        }
    }
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

/// Sets game object `id` to `value` (`None`: removes it) in `objects`, and
/// its change in `delta`.
fn put(
    objects: &mut Map<String, Value>,
    delta: &mut Map<String, Value>,
    id: String,
    value: Option<Value>,
) {
    match value {
        None => {
            if objects.remove(&id).is_some() {
                delta.insert(id, Value::from(RM));
            }
        }
        Some(v) => {
            let d = match objects.get(&id) {
                Some(was) => diff(was, &v),
                None => Some(encode(&v)),
            };
            if let Some(d) = d {
                delta.insert(id.clone(), d);
            }
            objects.insert(id, v);
        }
    }
}
