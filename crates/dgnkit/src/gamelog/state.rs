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

use super::delta::{diff, diff_value, encode, LEN};
use super::objects::{
    branch_object, dungeon_delta, dungeon_object, level_delta, level_object, placement_object,
    record_object, DungeonFacts, LevelFacts, Made, Obj,
};
use crate::loader::{Resolved, ResolvedBranch, ResolvedDungeon, ResolvedLevel, Resolver};
use serde_json::{Map, Value};

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

/// A delta: the layout's members as values, and `gameObjects`' as JSON
/// text (`{...}`, or nothing when no object changed).
#[derive(Debug, Default)]
pub struct Delta {
    pub members: Map<String, Value>,
    pub objects: Vec<u8>,
}

impl Delta {
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.objects.is_empty()
    }

    /// The delta as JSON text. (Its keys are the layout's member names:
    /// nothing to escape.)
    pub fn write(&self, w: &mut Vec<u8>) {
        let mut o = Obj::new(w);
        for (k, v) in &self.members {
            let _ = serde_json::to_writer(o.key(format_args!("{k}")), v);
        }
        if !self.objects.is_empty() {
            o.key(format_args!("gameObjects"))
                .extend_from_slice(&self.objects);
        }
        o.end();
    }
}

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
    pub fn start(top: &Resolver, out: &Resolved, counters: &Counters) -> (State, Delta) {
        let mut s = State::empty(top, out);
        let mut fresh = Delta::default();
        s.update(top, out, counters, &mut fresh, true);
        let mut members = match encode(&Value::Object(s.extras.clone())) {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        for (key, values) in [
            ("dungeons", &s.dungeon_values),
            ("levels", &s.level_values),
            ("branches", &s.branch_values),
        ] {
            // The fresh delta holds an array only when it is not empty.
            let array = fresh.members.remove(key).unwrap_or_else(|| {
                let mut m = Map::new();
                m.insert(LEN.to_string(), Value::from(values.len()));
                Value::Object(m)
            });
            members.insert(key.into(), array);
        }
        let objects = match fresh.objects.is_empty() {
            true => b"{}".to_vec(),
            false => fresh.objects,
        };
        (s, Delta { members, objects })
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
        // The objects are dgnkit's own JSON text.
        let objects = serde_json::from_slice(&objects).unwrap_or(Value::Null);
        m.insert("gameObjects".into(), objects);
        Value::Object(m)
    }

    /// Every game object, as the facts kept say, as JSON text.
    fn objects(&self, res: &Resolver) -> Vec<u8> {
        let mut w = Vec::new();
        let mut o = Obj::new(&mut w);
        for (rec, facts) in self.dungeon_facts.iter().enumerate() {
            dungeon_object(o.key(format_args!("d{rec}")), res, rec, facts);
        }
        for (rec, facts) in self.level_facts.iter().enumerate() {
            level_object(o.key(format_args!("l{rec}")), res, rec, facts);
            if let Some(p) = facts.placed {
                placement_object(o.key(format_args!("p{rec}.{}", p.1)), rec, p);
            }
        }
        for rec in 0..res.branches.len() {
            record_object(o.key(format_args!("r{rec}")), res, rec);
        }
        for made in &self.made {
            branch_object(o.key(format_args!("b{}", made.0.id)), made);
        }
        o.end();
        w
    }

    /// Moves to the state of `out`; returns the delta (`None`: nothing
    /// changed).
    pub fn advance(
        &mut self,
        top: &Resolver,
        out: &Resolved,
        counters: &Counters,
    ) -> Option<Delta> {
        if out.outcome != self.outcome {
            // A drawing dungeon.lua took another outcome: other records.
            // (The loader settles the outcome before its first state, so a
            // log never starts on another; kept whole for safety.)
            let was = self.value(top);
            *self = State::new(top, out, counters);
            return match diff(&was, &self.value(top)) {
                Some(Value::Object(members)) => Some(Delta {
                    members,
                    objects: Vec::new(),
                }),
                _ => None,
            };
        }
        let mut delta = Delta::default();
        self.update(top, out, counters, &mut delta, false);
        (!delta.is_empty()).then_some(delta)
    }

    fn update(
        &mut self,
        top: &Resolver,
        out: &Resolved,
        counters: &Counters,
        delta: &mut Delta,
        fresh: bool,
    ) {
        let members = &mut delta.members;
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
            members.insert("dungeons".into(), d);
        }
        if let Some(d) = array(&mut self.level_values, &self.levels, &out.levels, |l| {
            to_value(&l.named(res))
        }) {
            members.insert("levels".into(), d);
        }
        if let Some(d) = array(
            &mut self.branch_values,
            &self.branches,
            &out.branches,
            |b| to_value(&b.named()),
        ) {
            members.insert("branches".into(), d);
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
                members.extend(d);
            }
            self.extras = now;
        }
        self.dungeons.clone_from(&out.dungeons);
        self.levels.clone_from(&out.levels);
        self.branches.clone_from(&out.branches);
        self.tune = out.tune;
        self.chaos_variant = out.chaos_variant;

        let mut objects = Obj::new(&mut delta.objects);
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
            if fresh {
                dungeon_object(objects.key(format_args!("d{rec}")), res, rec, &facts);
            } else {
                dungeon_delta(&mut objects, rec, &was, &facts);
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
            if fresh {
                level_object(objects.key(format_args!("l{rec}")), res, rec, &facts);
            } else {
                level_delta(&mut objects, rec, &was, &facts);
            }
            // A try that no longer holds was taken back by place_level.
            let (old, new) = (was.placed.filter(|_| !fresh), facts.placed);
            if old != new {
                if let Some(p) = old {
                    objects.removed(format_args!("p{rec}.{}", p.1));
                }
                if let Some(p) = new {
                    placement_object(objects.key(format_args!("p{rec}.{}", p.1)), rec, p);
                }
            }
        }
        if fresh {
            for rec in 0..res.branches.len() {
                record_object(objects.key(format_args!("r{rec}")), res, rec);
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
                match self.made.iter().find(|o| o.0.id == m.0.id) {
                    // Most branches stay as they were when another moves.
                    Some(o) if !fresh && o == m => {}
                    Some(o) if !fresh => {
                        // Rare (a branch moved): compared as values.
                        if let Some(d) = diff(&branch_value(o), &branch_value(m)) {
                            let w = objects.key(format_args!("b{}", m.0.id));
                            let _ = serde_json::to_writer(w, &d);
                        }
                    }
                    _ => branch_object(objects.key(format_args!("b{}", m.0.id)), m),
                }
            }
            for (b, ..) in &self.made {
                if !made.iter().any(|(n, ..)| n.id == b.id) {
                    objects.removed(format_args!("b{}", b.id));
                }
            }
            self.made = made;
        }
        if objects.is_empty() {
            delta.objects.clear();
        } else {
            objects.end();
        }
    }
}

/// A branch object as a value, to compare.
fn branch_value(made: &Made) -> Value {
    let mut w = Vec::new();
    branch_object(&mut w, made);
    // dgnkit's own JSON text.
    serde_json::from_slice(&w).unwrap_or(Value::Null)
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
