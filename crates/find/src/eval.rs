//! Evaluating a [`Query`] on a layout, also on a layout the loader has
//! resolved only part of: a fact not yet final is unknown, and the query's
//! answer is known as soon as the known facts decide it (Kleene's
//! three-valued logic), which lets the search stop drawing there.

use super::parser::CmpOp;
use super::query::{Fact, Node, Operand, Query};
use dgnkit_bones::layout::{DungeonFacts, LevelSource};
use dgnkit_bones::{decide, level_facts, BonesOptions};
use dgnkit_loader::{Resolved, Resolver};
use dgnkit_script::flags;

/// A fact's value in one layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The thing it is about does not exist in this layout.
    Missing,
    Bool(bool),
    Int(i64),
    Tune([u8; 5]),
    /// A dungeon: its record and its index in the layout.
    Dungeon {
        record: u32,
        index: i32,
    },
}

/// A layout the loader may not have finished, as the bones rules read it.
struct View<'a> {
    res: &'a Resolver,
    out: &'a Resolved,
}

impl LevelSource for View<'_> {
    fn dungeon(&self, d: usize) -> Option<DungeonFacts<'_>> {
        let x = self.out.dungeons.get(d)?;
        let rec = self.res.dungeons.get(x.record as usize)?;
        Some(DungeonFacts {
            name: &rec.name,
            marker_none: rec.bones.is_empty(),
            num_levels: x.num_levels,
            depth_start: x.depth_start,
            hellish: rec.flags & flags::HELLISH != 0,
        })
    }

    fn special(&self, d: usize, level: i32) -> Option<(&str, bool)> {
        // `Is_special`: the first special level of the chain on this level.
        let l = self
            .out
            .levels
            .iter()
            .find(|l| usize::try_from(l.dungeon).ok() == Some(d) && l.level == level)?;
        let rec = self.res.levels.get(l.record as usize)?;
        Some((rec.name.as_str(), rec.bones.is_empty()))
    }

    fn branch(&self, i: usize) -> Option<((i32, i32), (i32, i32))> {
        self.out.branches.get(i).map(|b| (b.end1, b.end2))
    }

    fn find_special(&self, pred: &dyn Fn(&str) -> bool) -> Option<(usize, i32)> {
        self.out
            .levels
            .iter()
            .find(|l| {
                self.res
                    .levels
                    .get(l.record as usize)
                    .is_some_and(|r| pred(&r.name))
            })
            .and_then(|l| Some((usize::try_from(l.dungeon).ok()?, l.level)))
    }
}

/// What evaluating needs besides the query and the layout.
pub struct Env<'a> {
    pub res: &'a Resolver,
    pub bones: &'a BonesOptions,
}

impl<'a> Env<'a> {
    pub fn new(res: &'a Resolver, bones: &'a BonesOptions) -> Env<'a> {
        Env { res, bones }
    }

    fn index(&self, out: &Resolved, recs: &[u32]) -> Option<(u32, usize)> {
        recs.iter().find_map(|&r| {
            let i = *out.index_of.get(r as usize)?;
            (i >= 0).then_some((r, i as usize))
        })
    }

    /// The branch into the dungeon: its level in the parent and the
    /// parent's index. The parent is the owner `add_branch` found (Fort
    /// Ludios's branch later gets a "floating" parent index in the layout,
    /// but it stays on the same level of the same dungeon).
    fn branch(&self, out: &Resolved, recs: &[u32]) -> Option<(i32, usize)> {
        let (rec, i) = self.index(out, recs)?;
        let b = out.branches.iter().find(|b| b.end2.0 == i as i32)?;
        let &(_, owner) = self.res.dungeons[rec as usize]
            .incoming
            .iter()
            .find(|(_, owner)| out.index_of[*owner as usize] >= 0)?;
        Some((b.end1.1, out.index_of[owner as usize] as usize))
    }

    fn depth(out: &Resolved, dungeon: usize, level: i32) -> i64 {
        i64::from(out.dungeons[dungeon].depth_start) + i64::from(level) - 1
    }

    fn can_leave_bones(&self, out: &Resolved, dungeon: usize, level: i32) -> bool {
        let view = View { res: self.res, out };
        level_facts(&view, dungeon, level, self.bones)
            .is_some_and(|f| decide(&self.bones.rules, &f).can_leave())
    }

    /// The value of `fact` in `out` (complete at least up to the fact's
    /// ready stage).
    pub fn value(&self, fact: &Fact, out: &Resolved) -> Value {
        let level_of = |recs: &[u32]| out.levels.iter().find(|l| recs.contains(&l.record));
        let opt = |v: Option<i64>| v.map_or(Value::Missing, Value::Int);
        match fact {
            // Known from the chance rolls, unless the last steps drop
            // levels (then the fact is read from the complete layout).
            Fact::LevelExists(recs) if self.res.finish_moves_levels() => {
                Value::Bool(level_of(recs).is_some())
            }
            Fact::LevelExists(recs) => Value::Bool(
                out.slots
                    .iter()
                    .any(|s| s.exists && recs.contains(&s.record)),
            ),
            Fact::LevelLevel(recs) => opt(level_of(recs).map(|l| i64::from(l.level))),
            Fact::LevelDepth(recs) => {
                opt(level_of(recs).map(|l| Env::depth(out, l.dungeon as usize, l.level)))
            }
            Fact::LevelDungeon(recs) => level_of(recs).map_or(Value::Missing, |l| Value::Dungeon {
                record: out.dungeons[l.dungeon as usize].record,
                index: l.dungeon,
            }),
            Fact::DungeonExists(recs) => Value::Bool(self.index(out, recs).is_some()),
            Fact::DungeonLevels(recs) => opt(self
                .index(out, recs)
                .map(|(_, i)| i64::from(out.dungeons[i].num_levels))),
            Fact::DungeonDepthStart(recs) => opt(self
                .index(out, recs)
                .map(|(_, i)| i64::from(out.dungeons[i].depth_start))),
            Fact::DungeonEntryDepth(recs) => opt(self
                .index(out, recs)
                .map(|(_, i)| Env::depth(out, i, out.dungeons[i].entry_level))),
            Fact::BranchLevel(recs) => opt(self.branch(out, recs).map(|(l, _)| i64::from(l))),
            Fact::BranchDepth(recs) => {
                opt(self.branch(out, recs).map(|(l, p)| Env::depth(out, p, l)))
            }
            Fact::Tune => Value::Tune(out.tune),
            Fact::BonesDepth(depth) => Value::Bool(out.dungeons.first().is_some_and(|d| {
                let level = depth - i64::from(d.depth_start) + 1;
                i32::try_from(level).is_ok_and(|l| self.can_leave_bones(out, 0, l))
            })),
            Fact::BonesLevel(recs) => Value::Bool(
                level_of(recs)
                    .is_some_and(|l| self.can_leave_bones(out, l.dungeon as usize, l.level)),
            ),
        }
    }

    /// The value for JSON output.
    pub fn json(&self, v: Value) -> serde_json::Value {
        match v {
            Value::Missing => serde_json::Value::Null,
            Value::Bool(b) => b.into(),
            Value::Int(n) => n.into(),
            Value::Tune(t) => String::from_utf8_lossy(&t).into_owned().into(),
            Value::Dungeon { record, .. } => self.res.dungeons[record as usize].name.clone().into(),
        }
    }
}

/// The facts' values, each computed when first needed, at one stage.
pub struct Facts<'q, 'e> {
    query: &'q Query,
    env: &'e Env<'e>,
    stage: u32,
    /// Every fact's value given instead of read from a layout (for a
    /// query of one fact, value by value: [`super::odds`]).
    fixed: Option<Value>,
}

impl<'q, 'e> Facts<'q, 'e> {
    pub fn new(query: &'q Query, env: &'e Env<'e>, stage: u32) -> Self {
        Facts {
            query,
            env,
            stage,
            fixed: None,
        }
    }

    /// Every fact has the value `v`.
    pub fn fixed(query: &'q Query, env: &'e Env<'e>, v: Value) -> Self {
        Facts {
            query,
            env,
            stage: query.final_stage,
            fixed: Some(v),
        }
    }

    fn get(&self, f: u16, out: &Resolved) -> Option<Value> {
        if self.fixed.is_some() {
            return self.fixed;
        }
        let info = &self.query.facts[f as usize];
        (info.ready <= self.stage).then(|| self.env.value(&info.fact, out))
    }

    fn operand(&self, o: &Operand, out: &Resolved) -> Option<Value> {
        match o {
            Operand::Fact(f) => self.get(*f, out),
            Operand::Int(n) => Some(Value::Int(*n)),
            // Strings only meet `==`/`!=`, handled in `compare`.
            Operand::Str(_) => Some(Value::Missing),
        }
    }

    fn name_is(&self, v: Value, s: &[u8]) -> Option<bool> {
        match v {
            Value::Tune(t) => Some(t.as_slice() == s),
            Value::Dungeon { record, .. } => {
                Some(self.env.res.dungeons[record as usize].name.as_bytes() == s)
            }
            _ => None,
        }
    }

    fn compare(&self, op: CmpOp, l: &Operand, r: &Operand, out: &Resolved) -> Option<bool> {
        // A string against a string-like value, or two strings.
        match (l, r) {
            (Operand::Str(a), Operand::Str(b)) => return Some(op.holds(a.cmp(b))),
            (Operand::Str(s), other) | (other, Operand::Str(s)) => {
                let v = self.operand(other, out)?;
                let same = self.name_is(v, s);
                return Some(match same {
                    Some(eq) => eq == (op == CmpOp::Eq),
                    // Missing: no comparison holds.
                    None => false,
                });
            }
            _ => {}
        }
        let a = self.operand(l, out)?;
        let b = self.operand(r, out)?;
        let num = |v: Value| match v {
            Value::Int(n) => Some(n),
            Value::Dungeon { index, .. } => Some(i64::from(index)),
            _ => None,
        };
        Some(match (num(a), num(b)) {
            (Some(x), Some(y)) => op.holds(x.cmp(&y)),
            _ => false,
        })
    }

    /// The query's answer, or `None` while the known facts leave it open.
    pub fn eval(&self, n: &Node, out: &Resolved) -> Option<bool> {
        match n {
            Node::Fact(f) => match self.get(*f, out)? {
                Value::Bool(b) => Some(b),
                _ => Some(false),
            },
            Node::Cmp { op, lhs, rhs } => self.compare(*op, lhs, rhs, out),
            Node::In { value, lo, hi } => {
                let v = self.operand(value, out)?;
                let n = match v {
                    Value::Int(n) => n,
                    Value::Dungeon { index, .. } => i64::from(index),
                    _ => return Some(false),
                };
                Some(*lo <= n && n <= *hi)
            }
            Node::And(a, b) => match self.eval(a, out) {
                Some(false) => Some(false),
                Some(true) => self.eval(b, out),
                None => match self.eval(b, out) {
                    Some(false) => Some(false),
                    _ => None,
                },
            },
            Node::Or(a, b) => match self.eval(a, out) {
                Some(true) => Some(true),
                Some(false) => self.eval(b, out),
                None => match self.eval(b, out) {
                    Some(true) => Some(true),
                    _ => None,
                },
            },
            Node::Not(a) => self.eval(a, out).map(|b| !b),
        }
    }
}
