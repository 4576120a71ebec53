//! dgnkit: the compiler, checker, binary formats, loader and analyses for
//! NetHack's dungeon description language, under one roof. The `dgn` CLI
//! (`dgnkit-cli`) and the language server (`dgnkit-lsp`) are thin shells
//! over this crate.
//!
//! Each stage of the pipeline is its own crate, and cargo enforces the
//! direction: `docs/dev/architecture.md` lists the crates in dependency
//! order, with what each owns and may not know.
//!
//! What is here is what needs a whole game: [`games`] assembles each game
//! from every stage's record ([`options::Target`] names one; no lower crate
//! does), [`frontend`] adds the layout-odds checks ([`odds`]) to the front
//! end's, [`convert`] goes between source forms, [`xlog`] answers each
//! xlogfile line with its own game's release, and [`session`] checks a
//! recorded game's draws against dgnkit's. The other modules re-export
//! the stages under the paths they have always had.

#![deny(clippy::unwrap_used)]

pub mod convert;
pub mod frontend;
pub mod gamelog;
pub mod games;
pub mod odds;
pub mod options;
pub mod session;
pub mod xlog;

pub use dgnkit_binary::decompile;
pub use dgnkit_find as find;
pub use dgnkit_frontend::{check, dialect, lint, lower, lua, model};
pub use dgnkit_grammar as grammar;
pub use dgnkit_loader as loader;
pub use dgnkit_loader::rng;
pub use dgnkit_script as script;
pub use dgnkit_script::layout;
pub use dgnkit_views as views;
pub use dgnkit_views::render;

/// Compiled dungeon files ([`dgnkit_binary`]), written for a game.
pub mod binary {
    pub use dgnkit_binary::*;

    use crate::options::Target;
    use crate::rng::RngKind;
    use crate::script::Script;

    /// What a compiled file says about the game it was made for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Stated {
        /// A NetHack version whose loader dgnkit reproduces: its target and
        /// the generator that version draws from (3.6.0 and 3.6.1 still used
        /// the C library's `random()`; 3.6.2 brought ISAAC-64).
        Game { target: Target, rng: RngKind },
        /// A NetHack version whose loader dgnkit does not reproduce (3.3 and
        /// earlier differ from 3.4.3, `dialects.md`; 3.4.0-3.4.2 and 3.5 are
        /// not checked against their sources).
        Unreproduced { major: u8, minor: u8, patch: u8 },
    }

    /// The game a compiled file's version header states
    /// ([`dgnkit_binary::stated_game`]), as a target.
    pub fn stated_game(bytes: &[u8]) -> Option<Stated> {
        Some(match dgnkit_binary::stated_game(bytes)? {
            dgnkit_binary::Stated::Game { format, rng } => {
                let target = Target::of_format(format);
                Stated::Game {
                    target,
                    rng: rng.unwrap_or(target.game().rng),
                }
            }
            dgnkit_binary::Stated::Unreproduced {
                major,
                minor,
                patch,
            } => Stated::Unreproduced {
                major,
                minor,
                patch,
            },
        })
    }

    /// Writes `script` as `target`'s compiled file; the header is the
    /// target's default unless copied from `header_from`. The native file
    /// records the dialect `vanilla`; use [`write_with`] to record another.
    pub fn write(
        script: &Script,
        target: Target,
        header_from: Option<&[u8]>,
    ) -> Result<Vec<u8>, WriteError> {
        write_with(
            script,
            target,
            &WriteOptions {
                header_from,
                ..WriteOptions::default()
            },
        )
    }

    /// [`write`] with every option; an error for a game whose compiled
    /// file dgnkit does not write.
    pub fn write_with(
        script: &Script,
        target: Target,
        opts: &WriteOptions<'_>,
    ) -> Result<Vec<u8>, WriteError> {
        let game = target.game();
        match game.binary {
            None => Err(WriteError::new(format!(
                "dgnkit does not write {}'s compiled dungeon file (--target {})",
                game.title,
                target.name()
            ))),
            Some(format) => dgnkit_binary::write_with(script, format, opts),
        }
    }
}

/// Bones: the rules judged on a layout ([`dgnkit_bones`]) and the
/// verdicts over every layout, from the statistics ([`dgnkit_stats::verdict`]).
pub mod bones {
    pub use dgnkit_bones::*;
    pub use dgnkit_stats::verdict::{
        self, static_verdicts, verdicts_from_stats, DungeonVerdict, SpecialVerdict, StaticKind,
        StaticReport,
    };
}

/// Exact layout statistics ([`dgnkit_stats`]) and their charts.
pub mod stats {
    pub use dgnkit_stats::*;
    pub use dgnkit_views::chart;
}

#[cfg(test)]
#[path = "tests/lua.rs"]
mod lua_tests;
