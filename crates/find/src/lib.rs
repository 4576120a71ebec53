//! `dgn find`: which seeds give a dungeon where a condition holds.
//!
//! A query is text in a small language ([`LANGUAGE`], `dgn explain find`):
//! [`lexer`] -> [`parser`] (spans into the query) -> [`query`] (names looked
//! up in a [`Resolver`], types checked, each fact with the loader
//! checkpoint from which it is final) -> [`eval`] (three-valued, on a
//! layout resolved as far as it went) -> [`search`] (many seeds, every
//! core, each seed resolved only until its answer is known).

#![deny(clippy::unwrap_used)]

pub mod eval;
pub mod given;
pub mod lexer;
pub mod odds;
pub mod overview;
pub mod parser;
pub mod query;
pub mod search;

pub use eval::{Env, Value};
pub use query::{Fact, Query};
pub use search::{Chunk, Finder, Verdict};

pub use dgnkit_frontend::check::find_codes as codes;

use dgnkit_grammar::Diagnostic;
use dgnkit_loader::Resolver;
use dgnkit_stats::{Method, Stats};

/// Parses and checks `text` against `res`'s script.
pub fn compile(text: &str, res: &Resolver) -> Result<Query, Box<Diagnostic>> {
    let toks = lexer::lex(text)?;
    let expr = parser::parse(toks)?;
    let mut q = query::check(&expr, text, res)?;
    // A file whose draws choose among scripts: the query against each.
    if let Some(p) = &res.prelude {
        q.outcomes = p
            .outcomes
            .iter()
            .map(|r| query::check(&expr, text, r).map_err(Box::new))
            .collect::<Result<_, _>>()?;
    }
    Ok(q)
}

/// The warnings of a query that compiles: each `in LO..HI` (half-open)
/// whose ends are numbers, since `21..22` reads as both ends to a player.
/// Empty for a query that does not parse (its error says why).
pub fn warnings(text: &str) -> Vec<Diagnostic> {
    let Ok(expr) = lexer::lex(text).and_then(parser::parse) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    half_open_ranges(&expr, text, &mut out);
    out
}

fn half_open_ranges(e: &parser::Expr, text: &str, out: &mut Vec<Diagnostic>) {
    use parser::Expr;
    match e {
        Expr::In {
            value,
            lo,
            hi,
            inclusive,
            dots,
            ..
        } => {
            if let (false, Expr::Int(l, _), Expr::Int(h, _)) = (inclusive, &**lo, &**hi) {
                let shown = text.get(lo.span().start as usize..hi.span().end as usize);
                let shown = shown.unwrap_or("LO..HI");
                out.push(
                    Diagnostic::warning(
                        codes::HALF_OPEN_RANGE,
                        "half-open-range",
                        *dots,
                        format!("`{shown}` leaves out {h}: `..` is half-open, as in `--seeds`"),
                    )
                    .with_note(format!(
                        "the query keeps that meaning ({l} <= value < {h}); write `{l}..={h}` to include {h}"
                    ))
                    .with_fix(
                        format!("include {h}: `{l}..={h}`"),
                        vec![dgnkit_grammar::Edit {
                            span: *dots,
                            replacement: "..=".into(),
                        }],
                    ),
                );
            }
            half_open_ranges(value, text, out);
        }
        Expr::Cmp { lhs, rhs, .. } => {
            half_open_ranges(lhs, text, out);
            half_open_ranges(rhs, text, out);
        }
        Expr::And(a, b) | Expr::Or(a, b) => {
            half_open_ranges(a, text, out);
            half_open_ranges(b, text, out);
        }
        Expr::Not(a, _) | Expr::Paren(a, _) => half_open_ranges(a, text, out),
        Expr::Call { args, .. } => args.iter().for_each(|a| half_open_ranges(a, text, out)),
        Expr::Prop { base, .. } => half_open_ranges(base, text, out),
        Expr::Int(..) | Expr::Str(..) | Expr::Word(..) => {}
    }
}

/// Whether stopping a seed's resolution early can never hide a failure:
/// the exact statistics (for the same loader and mode) find no way for
/// the loader to fail. A failed seed matches nothing, so where the loader
/// can fail every seed is resolved to the end.
pub fn stops_safely(stats: Option<&Stats>) -> bool {
    stats.is_some_and(|s| matches!(s.method, Method::Exact { .. }) && s.failures.is_empty())
}

/// The query language, as `dgn explain find` prints it.
pub const LANGUAGE: &str = include_str!("language.txt");

#[cfg(test)]
mod tests;
