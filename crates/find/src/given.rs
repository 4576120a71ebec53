//! A query as evidence for `dgn stats --given`.
//!
//! The exact enumeration can take a conjunction of conditions each on one
//! fact it tracks (a dungeon's existence, size and top depth, a special
//! level's existence, level and depth, a branch's level and depth) as
//! constraints ([`dgnkit_stats::evidence`]); such a query is translated
//! into them. Any other query (an `or`, a `not` of a comparison, the
//! tune, bones, a name several records share) is judged on whole layouts
//! by [`predicate`], which the statistics sample.

use super::eval::{Env, Facts};
use super::parser::CmpOp;
use super::query::{Fact, Node, Operand, Query};
use dgnkit_bones::BonesOptions;
use dgnkit_loader::{Resolved, Resolver};
use dgnkit_stats::evidence::{Allowed, Constraint, Evidence, Prop, Subject};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Values a fact can take (NetHack keeps levels and depths in a signed
/// byte); a comparison becomes the set of these it admits.
const VALUES: std::ops::RangeInclusive<i32> = -128..=127;

/// The top-level `and`s of a query.
pub fn conjuncts(n: &Node) -> Vec<&Node> {
    match n {
        Node::And(a, b) => {
            let mut v = conjuncts(a);
            v.extend(conjuncts(b));
            v
        }
        other => vec![other],
    }
}

/// A conjunct in the query's words, for messages.
pub fn text(q: &Query, n: &Node) -> String {
    let op = |o: &Operand| match o {
        Operand::Fact(f) => q.facts[*f as usize].text.clone(),
        Operand::Int(i) => i.to_string(),
        Operand::Str(s) => format!("\"{}\"", String::from_utf8_lossy(s)),
    };
    match n {
        Node::Fact(f) => q.facts[*f as usize].text.clone(),
        Node::Cmp { op: o, lhs, rhs } => format!("{} {} {}", op(lhs), o.symbol(), op(rhs)),
        Node::In { value, lo, hi } => format!("{} in {lo}..={hi}", op(value)),
        Node::And(a, b) => format!("{} and {}", text(q, a), text(q, b)),
        Node::Or(a, b) => format!("({} or {})", text(q, a), text(q, b)),
        Node::Not(a) => format!("not {}", text(q, a)),
    }
}

/// The query keeping only the conjuncts `keep` (indices into
/// [`conjuncts`]); the facts table is kept whole.
pub fn subset(q: &Query, keep: &[usize]) -> Option<Query> {
    let parts = conjuncts(&q.root);
    let mut chosen = keep.iter().filter_map(|&i| parts.get(i).copied().cloned());
    let first = chosen.next()?;
    let root = chosen.fold(first, |a, b| Node::And(Box::new(a), Box::new(b)));
    let outcomes = q.outcomes.iter().filter_map(|o| subset(o, keep)).collect();
    Some(Query {
        root,
        facts: q.facts.clone(),
        final_stage: q.final_stage,
        outcomes,
    })
}

fn one(recs: &[u32]) -> Result<u32, String> {
    match recs {
        [r] => Ok(*r),
        _ => Err("it names a level or dungeon several records share".into()),
    }
}

/// The values `op n` admits (`value OP n`).
fn admitted(op: CmpOp, n: i64) -> BTreeSet<i32> {
    VALUES.filter(|&v| op.holds(i64::from(v).cmp(&n))).collect()
}

fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        other => other,
    }
}

/// The first level of a dungeon whose entry is at `entry_depth`, where the
/// description fixes which level the entry is (`init_dungeons()`: an ENTRY
/// of 0 is level 1, a positive one that level unless the dungeon is
/// shorter, a negative one counts from the bottom; 3.6.7 src/dungeon.c).
fn entry_level(res: &Resolver, rec: u32) -> Option<i32> {
    let d = res.dungeons.get(rec as usize)?;
    let fixed = (d.size.rand == 0).then_some(d.size.base);
    match (d.entry, fixed) {
        (0, _) => Some(1),
        (e, _) if e > 0 && d.size.base >= e => Some(e),
        (e, Some(n)) if e > 0 => Some(e.min(n)),
        (e, Some(n)) => Some((n + e + 1).max(1)),
        _ => None,
    }
}

/// One fact as a subject and prop.
fn subject(res: &Resolver, fact: &Fact) -> Result<(Subject, Prop, i32), String> {
    // The last member shifts an entry depth to the dungeon's first level.
    Ok(match fact {
        Fact::LevelExists(r) => (Subject::Level(one(r)?), Prop::Exists, 0),
        Fact::LevelLevel(r) => (Subject::Level(one(r)?), Prop::Level, 0),
        Fact::LevelDepth(r) => (Subject::Level(one(r)?), Prop::Depth, 0),
        Fact::DungeonExists(r) => (Subject::Dungeon(one(r)?), Prop::Exists, 0),
        Fact::DungeonLevels(r) => (Subject::Dungeon(one(r)?), Prop::NumLevels, 0),
        Fact::DungeonDepthStart(r) => (Subject::Dungeon(one(r)?), Prop::DepthStart, 0),
        Fact::DungeonEntryDepth(r) => {
            let rec = one(r)?;
            let e = entry_level(res, rec)
                .ok_or_else(|| "the dungeon's entry level depends on its size".to_string())?;
            (Subject::Dungeon(rec), Prop::DepthStart, e - 1)
        }
        Fact::BranchLevel(r) => (Subject::Branch { child: one(r)? }, Prop::Level, 0),
        Fact::BranchDepth(r) => (Subject::Branch { child: one(r)? }, Prop::Depth, 0),
        Fact::LevelDungeon(_) => return Err("the statistics do not track it".into()),
        Fact::Tune => return Err("the statistics do not track the tune".into()),
        Fact::BonesDepth(_) | Fact::BonesLevel(_) => {
            return Err("it reads bones, which depend on the whole layout".into())
        }
    })
}

/// One conjunct as a constraint.
fn constraint(q: &Query, res: &Resolver, n: &Node) -> Result<Constraint, String> {
    let fact = |f: u16| &q.facts[f as usize].fact;
    let numeric = |f: u16, set: BTreeSet<i32>| -> Result<Constraint, String> {
        let (subject, prop, shift) = subject(res, fact(f))?;
        if prop == Prop::Exists {
            return Err("it compares a condition with a number".into());
        }
        let allowed = set.into_iter().map(|v| v - shift).collect();
        Ok(Constraint {
            subject,
            prop,
            allowed: Allowed::Values(allowed),
        })
    };
    // A bare fact is an existence condition, `not` of one its absence.
    let exists = |f: &u16, yes: bool| -> Result<Constraint, String> {
        let (subject, prop, _) = subject(res, fact(*f))?;
        if prop != Prop::Exists {
            return Err("it is not a condition".into());
        }
        Ok(Constraint {
            subject,
            prop,
            allowed: Allowed::Exists(yes),
        })
    };
    match n {
        Node::Fact(f) => exists(f, true),
        Node::Not(inner) => match &**inner {
            Node::Fact(f) => exists(f, false),
            _ => Err("`not` of a comparison holds where the thing is missing too".into()),
        },
        Node::Cmp {
            op,
            lhs: Operand::Fact(f),
            rhs: Operand::Int(v),
        } => numeric(*f, admitted(*op, *v)),
        Node::Cmp {
            op,
            lhs: Operand::Int(v),
            rhs: Operand::Fact(f),
        } => numeric(*f, admitted(flip(*op), *v)),
        Node::In {
            value: Operand::Fact(f),
            lo,
            hi,
        } => numeric(
            *f,
            VALUES
                .filter(|&v| *lo <= i64::from(v) && i64::from(v) <= *hi)
                .collect(),
        ),
        Node::Or(..) => Err("an `or` is not one fact's condition".into()),
        _ => Err("it compares a string or two facts".into()),
    }
}

/// The query as constraints the exact enumeration takes, or why not (the
/// first conjunct it cannot take, in the query's words).
pub fn evidence(q: &Query, res: &Resolver) -> Result<Evidence, String> {
    let mut out: Vec<Constraint> = Vec::new();
    for n in conjuncts(&q.root) {
        let c = constraint(q, res, n).map_err(|why| format!("`{}`: {why}", text(q, n)))?;
        // Two conditions on one fact: the values both admit.
        match out
            .iter_mut()
            .find(|o| o.subject == c.subject && o.prop == c.prop)
        {
            Some(o) => {
                o.allowed = match (&o.allowed, &c.allowed) {
                    (Allowed::Values(a), Allowed::Values(b)) => {
                        Allowed::Values(a.intersection(b).copied().collect())
                    }
                    (Allowed::Exists(a), Allowed::Exists(b)) if a == b => Allowed::Exists(*a),
                    // Exists and not: nothing admits both.
                    _ => Allowed::Values(BTreeSet::new()),
                }
            }
            None => out.push(c),
        }
    }
    Ok(Evidence::new(out))
}

/// The query judged on a whole layout: what the statistics sample when
/// [`evidence`] cannot take it.
pub fn predicate(q: Query, bones: BonesOptions) -> dgnkit_stats::evidence::Predicate {
    Arc::new(move |res: &Resolver, out: &Resolved| {
        let q = q.for_outcome(out.outcome);
        let env = Env::new(res, &bones);
        Facts::new(q, &env, q.final_stage).eval(&q.root, out) == Some(true)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolver() -> Resolver {
        let script = dgnkit::frontend::analyze_fast(
            include_bytes!("../../../corpus/nethack-3.6.def"),
            &dgnkit::frontend::CheckOptions::default(),
        )
        .script
        .unwrap();
        Resolver::with_rules(&script, dgnkit_loader::Rules::nethack_36()).unwrap()
    }

    #[test]
    fn conjunctions_of_tracked_facts_are_constraints() {
        let res = resolver();
        let q = crate::compile(
            "oracle.depth == 7 and branch(\"The Gnomish Mines\").depth in 2..=3 and bigrm and oracle.depth >= 6 and dungeon(\"Sokoban\").entry_depth == 6",
            &res,
        )
        .unwrap();
        let e = evidence(&q, &res).unwrap();
        assert_eq!(e.constraints.len(), 4, "{e:?}");
        let oracle = &e.constraints[0];
        assert_eq!(oracle.prop, Prop::Depth);
        assert_eq!(oracle.allowed, Allowed::Values([7].into()));
        assert_eq!(e.constraints[1].allowed, Allowed::Values([2, 3].into()));
        assert_eq!(e.constraints[2].allowed, Allowed::Exists(true));
        // Sokoban's entry is its bottom of four levels: its first level is
        // three above.
        assert_eq!(e.constraints[3].prop, Prop::DepthStart);
        assert_eq!(e.constraints[3].allowed, Allowed::Values([3].into()));
    }

    #[test]
    fn other_queries_say_why_not() {
        let res = resolver();
        for (q, why) in [
            (
                "oracle.depth == 5 or bigrm",
                "`(oracle.depth == 5 or bigrm)`: an `or`",
            ),
            ("tune == \"ABCDE\"", "tune"),
            ("not (oracle.depth == 5)", "`not` of a comparison"),
            ("bones(12)", "bones"),
        ] {
            let q = crate::compile(q, &res).unwrap();
            let e = evidence(&q, &res).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
    }

    #[test]
    fn subsets_keep_the_chosen_conjuncts() {
        let res = resolver();
        let q = crate::compile("bigrm and oracle.depth == 5 and rogue.depth == 15", &res).unwrap();
        let s = subset(&q, &[0, 2]).unwrap();
        assert_eq!(text(&s, &s.root), "bigrm and rogue.depth == 15");
        assert!(subset(&q, &[]).is_none());
    }
}
