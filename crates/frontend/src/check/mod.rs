//! The checks of language.md §5, one module per family. Each reads the
//! syntax tree and the resolved [`Model`] and returns diagnostics; none of
//! them changes anything. [`run`] runs them all.
//!
//! Every diagnostic has a stable code from [`codes`], points at the token at
//! fault, says what is wrong and what to do, notes what NetHack does, and
//! carries a fix where one is obvious.

pub mod codes;

mod bones;
mod branches;
mod chains;
mod compat;
mod constructs;
mod descriptors;
pub mod find_codes;
pub mod geometry;
mod limits;
mod loader;
mod names;
pub mod odds;
mod placement;
mod ranges;
mod structure;

use crate::dialect::{Dialect, Limits};
use crate::model::Model;
use crate::CheckGame;
use dgnkit_grammar::ast::SourceFile;
use dgnkit_grammar::Diagnostic;
use std::cell::Cell;

/// What every check may look at.
pub struct Ctx<'a> {
    /// The original bytes (for fixes that need the text around a token).
    pub src: &'a [u8],
    pub file: &'a SourceFile,
    pub model: &'a Model,
    pub game: CheckGame,
    pub dialect: Dialect,
    /// The dialect's limits for the target (none for `native`).
    pub limits: Limits,
    /// "Did you mean" suggestions left: each costs an edit-distance search,
    /// so a file with thousands of unknown names gets the first few only.
    suggestions_left: Cell<u32>,
}

impl<'a> Ctx<'a> {
    pub fn new(
        src: &'a [u8],
        file: &'a SourceFile,
        model: &'a Model,
        game: CheckGame,
        dialect: Dialect,
    ) -> Self {
        Ctx {
            src,
            file,
            model,
            game,
            dialect,
            limits: dialect.limits(game),
            suggestions_left: Cell::new(64),
        }
    }

    /// The closest of `candidates` to `name`, for "did you mean" fixes.
    pub fn closest<'c>(
        &self,
        name: &[u8],
        candidates: impl IntoIterator<Item = &'c [u8]>,
    ) -> Option<&'c [u8]> {
        let left = self.suggestions_left.get();
        if left == 0 {
            return None;
        }
        self.suggestions_left.set(left - 1);
        closest(name, candidates)
    }

    /// "NetHack's" or the variant's name, for notes about the original
    /// compiler; for `dungeon.lua`, NetHack 3.7's loader, which reads it.
    pub fn compiler_name(&self) -> String {
        if self.lua() {
            return "NetHack 3.7's loader".to_string();
        }
        match self.dialect {
            Dialect::Vanilla | Dialect::Vanilla31 => "NetHack's dgn_comp".to_string(),
            d => format!("{}'s dgn_comp", d.title()),
        }
    }

    /// Whether the file is a `dungeon.lua`.
    pub fn lua(&self) -> bool {
        self.model.source == crate::model::SourceKind::Lua
    }

    /// Describes the active limits' origin, for messages.
    pub fn limits_origin(&self) -> String {
        format!("{} ({} dialect)", self.game.name, self.dialect.name())
    }
}

/// Runs every check. The result is unsorted and lint levels are not applied
/// (the frontend does both).
pub fn run(ctx: &Ctx) -> Vec<Diagnostic> {
    let mut out = run_errors(ctx);
    loader::check(ctx, &mut out);
    compat::check(ctx, &mut out);
    bones::check(ctx, &mut out);
    out
}

/// The checks that can report an error (some also warn), in [`run`]'s
/// order: [`run`] without the three that only ever warn (what the game's
/// loader does with hard-wired names, compatibility with NetHack's own
/// dgn_comp, shared bones markers). For a caller that reports only errors
/// and denies no lint, the drop-in `dgn_comp`: its verdict and its errors
/// are [`run`]'s.
pub fn run_errors(ctx: &Ctx) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    structure::check(ctx, &mut out);
    names::check(ctx, &mut out);
    constructs::check(ctx, &mut out);
    descriptors::check(ctx, &mut out);
    ranges::check(ctx, &mut out);
    chains::check(ctx, &mut out);
    branches::check(ctx, &mut out);
    limits::check(ctx, &mut out);
    placement::check(ctx, &mut out);
    out
}

/// The closest of `candidates` to `name` within a small edit distance, for
/// "did you mean" suggestions.
pub fn closest<'c>(
    name: &[u8],
    candidates: impl IntoIterator<Item = &'c [u8]>,
) -> Option<&'c [u8]> {
    // Names are short; longer input is not worth the quadratic comparison.
    if name.len() > 64 {
        return None;
    }
    let limit = (name.len() / 3).max(1);
    // A bounded number of candidates keeps many unknown names linear.
    candidates
        .into_iter()
        .take(128)
        .filter(|c| c.len() <= 64 && *c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let fold = |c: u8| c.to_ascii_lowercase();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(fold(ca) != fold(cb));
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// `n` with its English ordinal suffix ("1st", "2nd", "16th").
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `count` followed by `word`, pluralised with "s".
pub fn plural(count: impl Into<u64>, word: &str) -> String {
    let count = count.into();
    if count == 1 {
        format!("1 {word}")
    } else {
        format!("{count} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_finds_near_names_only() {
        let names: Vec<&[u8]> = vec![b"The Gnomish Mines", b"Sokoban"];
        assert_eq!(
            closest(b"The Gnomish Mine", names.iter().copied()),
            Some(&b"The Gnomish Mines"[..])
        );
        assert_eq!(closest(b"Fort Ludios", names.iter().copied()), None);
        assert_eq!(ordinal(16), "16th");
        assert_eq!(ordinal(22), "22nd");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(plural(1u32, "level"), "1 level");
    }
}
