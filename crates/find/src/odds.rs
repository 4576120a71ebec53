//! The exact probability of a query, where the statistics engine knows
//! it: a query that reads one fact (any number of times), whose exact
//! distribution [`dgnkit_stats`] computes. Joint distributions of several
//! facts are not enumerated, so other queries get none.

use super::eval::{Env, Facts, Value};
use super::query::{Fact, Query};
use dgnkit_loader::Resolved;
use dgnkit_stats::{Dist, Method, Stats};

/// The chance that a seed matches (a failed resolution matches nothing),
/// or `None` when the statistics cannot answer the query.
pub fn probability(query: &Query, env: &Env, stats: &Stats) -> Option<f64> {
    if !matches!(stats.method, Method::Exact { .. }) || query.facts.len() != 1 {
        return None;
    }
    // A file whose own draws choose among scripts: a name may be another
    // record in each, and the statistics are by record.
    if env.res.prelude.is_some() {
        return None;
    }
    let res = env.res;
    let one = |recs: &[u32]| match recs {
        [r] => Some(*r as usize),
        _ => None,
    };
    // (exists, distribution given existence)
    let dist_of = |exists: f64, d: &Dist| {
        let mut v: Vec<(Value, f64)> = d
            .iter()
            .map(|(&k, &p)| (Value::Int(i64::from(k)), exists * p))
            .collect();
        v.push((Value::Missing, 1.0 - exists));
        v
    };
    let truth = |exists: f64| {
        vec![
            (Value::Bool(true), exists),
            (Value::Bool(false), 1.0 - exists),
        ]
    };
    let branch = |recs: &[u32]| {
        let name = &res.dungeons[one(recs)?].name;
        stats.branches.iter().find(|b| &b.to == name)
    };
    let outcomes = match &query.facts[0].fact {
        Fact::LevelExists(r) => truth(stats.levels.get(one(r)?)?.exists),
        Fact::LevelLevel(r) => {
            let l = stats.levels.get(one(r)?)?;
            dist_of(l.exists, &l.level)
        }
        Fact::LevelDepth(r) => {
            let l = stats.levels.get(one(r)?)?;
            dist_of(l.exists, &l.depth)
        }
        Fact::DungeonExists(r) => truth(stats.dungeons.get(one(r)?)?.exists),
        Fact::DungeonLevels(r) => {
            let d = stats.dungeons.get(one(r)?)?;
            dist_of(d.exists, &d.num_levels)
        }
        Fact::DungeonDepthStart(r) => {
            let d = stats.dungeons.get(one(r)?)?;
            dist_of(d.exists, &d.depth_start)
        }
        Fact::BranchLevel(r) => {
            let b = branch(r)?;
            dist_of(b.exists, &b.level)
        }
        Fact::BranchDepth(r) => {
            let b = branch(r)?;
            dist_of(b.exists, &b.depth)
        }
        _ => return None,
    };
    let empty = Resolved::default();
    let matched: f64 = outcomes
        .into_iter()
        .filter(|&(v, p)| {
            p > 0.0 && Facts::fixed(query, env, v).eval(&query.root, &empty) == Some(true)
        })
        .map(|(_, p)| p)
        .sum();
    Some((1.0 - stats.failure) * matched)
}
