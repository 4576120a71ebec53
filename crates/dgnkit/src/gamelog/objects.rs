//! The game objects of a gamelog's state (`d<rec>`, `l<rec>`,
//! `p<rec>.<try>`, `r<rec>`, `b<id>`), written straight as JSON text: each
//! whole, and each change from the compact facts the state keeps. A draw
//! changes a field or two of one object; building the objects as trees of
//! values to compare and then write them cost more than the rest of the
//! log together.

use super::delta::RM;
use crate::loader::{ResolvedBranch, ResolvedDungeon, Resolver};
use serde::Serialize;
use std::io::Write;

/// What a dungeon record's object shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct DungeonFacts {
    pub made: Option<(i32, ResolvedDungeon)>,
    pub dropped: bool,
}

/// What a level record's object shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct LevelFacts {
    pub exists: Option<bool>,
    /// Its level and the try that put it there.
    pub placed: Option<(i32, u32)>,
}

/// A branch made, with the dungeon records at its ends.
pub(super) type Made = (ResolvedBranch, Option<u32>, Option<u32>);

/// The members of a JSON object being written: `{` on the first, `,`
/// between, `}` at [`Obj::end`].
pub(super) struct Obj<'w> {
    w: &'w mut Vec<u8>,
    empty: bool,
}

impl<'w> Obj<'w> {
    pub fn new(w: &'w mut Vec<u8>) -> Obj<'w> {
        w.push(b'{');
        Obj { w, empty: true }
    }

    /// A game object: its `id` and `gameObjectName` first, as every one
    /// has them.
    pub fn game_object(w: &'w mut Vec<u8>, kind: &str, id: std::fmt::Arguments<'_>) -> Obj<'w> {
        let mut o = Obj::new(w);
        o.id("id", id);
        o.value("gameObjectName", kind);
        o
    }

    /// The key of the next member; its value is written next. Keys here
    /// are dgnkit's own (plain ASCII, nothing to escape).
    pub fn key(&mut self, key: std::fmt::Arguments<'_>) -> &mut Vec<u8> {
        if !self.empty {
            self.w.push(b',');
        }
        self.empty = false;
        self.w.push(b'"');
        // Writing into a Vec cannot fail.
        let _ = self.w.write_fmt(key);
        self.w.extend_from_slice(b"\":");
        self.w
    }

    pub fn value<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) {
        let w = self.key(format_args!("{key}"));
        let _ = serde_json::to_writer(w, v);
    }

    /// `"key":{"id":"ID"}`, a shallow reference.
    pub fn reference(&mut self, key: &str, id: std::fmt::Arguments<'_>) {
        let w = self.key(format_args!("{key}"));
        w.extend_from_slice(b"{\"id\":\"");
        let _ = w.write_fmt(id);
        w.extend_from_slice(b"\"}");
    }

    /// `"key":"TEXT"`, for dgnkit's own ids (plain ASCII).
    pub fn id(&mut self, key: &str, text: std::fmt::Arguments<'_>) {
        let w = self.key(format_args!("{key}"));
        w.push(b'"');
        let _ = w.write_fmt(text);
        w.push(b'"');
    }

    /// `"key":"&RM"`.
    pub fn removed(&mut self, key: std::fmt::Arguments<'_>) {
        let w = self.key(key);
        let _ = serde_json::to_writer(w, RM);
    }

    pub fn is_empty(&self) -> bool {
        self.empty
    }

    pub fn end(self) {
        self.w.push(b'}');
    }
}

pub(super) fn dungeon_object(w: &mut Vec<u8>, res: &Resolver, rec: usize, facts: &DungeonFacts) {
    let d = &res.dungeons[rec];
    let mut o = Obj::game_object(w, "Dungeon", format_args!("d{rec}"));
    o.value("record", &rec);
    o.value("name", &d.name);
    o.value("chance", &d.chance);
    dungeon_fields(&mut o, None, facts);
    o.end();
}

/// The members of a dungeon object that its facts decide, as a change
/// from `was` (all of them when there is none).
fn dungeon_fields(o: &mut Obj<'_>, was: Option<&DungeonFacts>, now: &DungeonFacts) {
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
    let old = was.and_then(fields);
    match fields(now) {
        Some(new) => {
            for (k, (name, v)) in new.into_iter().enumerate() {
                if old.is_none_or(|o| o[k].1 != v) {
                    o.value(name, &v);
                }
            }
        }
        None => {
            for (name, _) in old.into_iter().flatten() {
                o.removed(format_args!("{name}"));
            }
        }
    }
    match (was.is_some_and(|w| w.dropped), now.dropped) {
        (false, true) => o.value("dropped", &true),
        (true, false) => o.removed(format_args!("dropped")),
        _ => {}
    }
}

/// The change of a dungeon object from `was` to `now`, as the member
/// `"d<rec>":{...}`; nothing when they show the same.
pub(super) fn dungeon_delta(
    objects: &mut Obj<'_>,
    rec: usize,
    was: &DungeonFacts,
    now: &DungeonFacts,
) {
    changed(objects, format_args!("d{rec}"), |o| {
        dungeon_fields(o, Some(was), now)
    });
}

pub(super) fn level_object(w: &mut Vec<u8>, res: &Resolver, rec: usize, facts: &LevelFacts) {
    let l = &res.levels[rec];
    let mut o = Obj::game_object(w, "Level", format_args!("l{rec}"));
    o.value("record", &rec);
    o.value("name", &l.name);
    o.reference("dungeon", format_args!("d{}", l.dungeon));
    o.value("chance", &l.chance);
    level_fields(&mut o, rec, None, facts);
    o.end();
}

fn level_fields(o: &mut Obj<'_>, rec: usize, was: Option<&LevelFacts>, now: &LevelFacts) {
    let old = was.copied().unwrap_or(LevelFacts {
        exists: None,
        placed: None,
    });
    match (old.exists, now.exists) {
        (Some(a), Some(b)) if a == b => {}
        (_, Some(b)) => o.value("exists", &b),
        (Some(_), None) => o.removed(format_args!("exists")),
        (None, None) => {}
    }
    match (old.placed, now.placed) {
        (Some(a), Some(b)) if a == b => {}
        (a, Some(b)) => {
            if a.map(|a| a.0) != Some(b.0) {
                o.value("dlevel", &b.0);
            }
            if a.map(|a| a.1) != Some(b.1) {
                o.reference("placement", format_args!("p{rec}.{}", b.1));
            }
        }
        (Some(_), None) => {
            o.removed(format_args!("dlevel"));
            o.removed(format_args!("placement"));
        }
        (None, None) => {}
    }
}

/// The change of a level object from `was` to `now`, as the member
/// `"l<rec>":{...}`; nothing when they show the same.
pub(super) fn level_delta(objects: &mut Obj<'_>, rec: usize, was: &LevelFacts, now: &LevelFacts) {
    changed(objects, format_args!("l{rec}"), |o| {
        level_fields(o, rec, Some(was), now)
    });
}

/// The member `"KEY":{...}` of `objects` holding what `fields` writes,
/// unless it writes nothing (the object did not change).
fn changed(objects: &mut Obj<'_>, key: std::fmt::Arguments<'_>, fields: impl FnOnce(&mut Obj<'_>)) {
    let mut body = Vec::new();
    let mut o = Obj::new(&mut body);
    fields(&mut o);
    if o.is_empty() {
        return;
    }
    o.end();
    objects.key(key).extend_from_slice(&body);
}

/// `p<rec>.<try>`: a placement try that holds.
pub(super) fn placement_object(w: &mut Vec<u8>, rec: usize, (dlevel, try_): (i32, u32)) {
    let mut o = Obj::game_object(w, "Placement", format_args!("p{rec}.{try_}"));
    o.reference("level", format_args!("l{rec}"));
    o.value("dlevel", &dlevel);
    o.value("try", &try_);
    o.end();
}

pub(super) fn record_object(w: &mut Vec<u8>, res: &Resolver, rec: usize) {
    let b = &res.branches[rec];
    let owner = res
        .dungeons
        .iter()
        .position(|d| (d.branches.0..d.branches.1).contains(&(rec as u32)));
    let mut o = Obj::game_object(w, "BranchRecord", format_args!("r{rec}"));
    o.value("record", &rec);
    match owner {
        Some(d) => o.reference("from", format_args!("d{d}")),
        None => o.value("from", &()),
    }
    o.value("to", &b.target);
    o.value("type", b.kind.name());
    o.value("up", &b.up);
    o.end();
}

pub(super) fn branch_object(w: &mut Vec<u8>, (b, from, to): &Made) {
    let mut o = Obj::game_object(w, "Branch", format_args!("b{}", b.id));
    o.value("branch", &b.id);
    o.reference("record", format_args!("r{}", b.record));
    o.value("type", b.kind.name());
    for (key, end) in [("from", from), ("to", to)] {
        match end {
            Some(d) => o.reference(key, format_args!("d{d}")),
            None => o.value(key, &()),
        }
    }
    for (key, (dungeon, level)) in [("end1", b.end1), ("end2", b.end2)] {
        let w = o.key(format_args!("{key}"));
        let _ = write!(w, "{{\"dungeon\":{dungeon},\"level\":{level}}}");
    }
    o.value("end1_up", &b.end1_up);
    o.end();
}
