//! `dgn find`: which seeds give a dungeon where a condition holds.
//!
//! A query is text in a small language ([`LANGUAGE`], `dgn explain find`):
//! [`lexer`] -> [`parser`] (spans into the query) -> [`query`] (names looked
//! up in a [`Resolver`], types checked, each fact with the loader
//! checkpoint from which it is final) -> [`eval`] (three-valued, on a
//! layout resolved as far as it went) -> [`search`] (many seeds, every
//! core, each seed resolved only until its answer is known).

pub mod eval;
pub mod lexer;
pub mod odds;
pub mod parser;
pub mod query;
pub mod search;

pub use eval::{Env, Value};
pub use query::{Fact, Query};
pub use search::{Chunk, Finder, Verdict};

pub use dgnkit_frontend::check::find_codes as codes;

// The modules keep the paths they had as one crate.
use dgnkit_bones as bones;
use dgnkit_frontend::check;
use dgnkit_loader as loader;
use dgnkit_loader::rng;
use dgnkit_script as script;
use dgnkit_stats as stats;

use crate::loader::Resolver;
use crate::stats::{Method, Stats};
use dgnkit_grammar::Diagnostic;

/// Parses and checks `text` against `res`'s script.
pub fn compile(text: &str, res: &Resolver) -> Result<Query, Box<Diagnostic>> {
    let toks = lexer::lex(text)?;
    let expr = parser::parse(toks)?;
    Ok(query::check(&expr, text, res)?)
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
