//! Mazes of Menace session files: recordings of the C NetHack 3.7 with
//! every draw of its generator (`../shared/spec/session-format-v3.md`,
//! and v4, whose differences that file's head lists), which the
//! JavaScript port checks itself against. `dgn session` reads one and
//! makes its game start and `init_dungeons()` again, comparing them draw
//! for draw.
//!
//! - [`read`]: the file's bytes (plain or gzipped JSON, format v3 or v4)
//!   to a [`Session`];
//! - [`character`]: the hero, from the options or the game's welcome;
//! - [`entry`]: a log entry's kinds, and dgnkit's draws in the log's form;
//! - [`compare`]: the game chosen, the draws made again and compared.

pub mod character;
pub mod compare;
pub mod entry;
pub mod read;

pub use compare::{check, game_of, GameBy, Refusal, Report};
pub use read::{read, Session, SessionError};
