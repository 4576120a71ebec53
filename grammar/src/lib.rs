//! dgnkit's frontend for NetHack's dungeon description language: `%FLAG`
//! preprocessing, a hand-written lexer, a LALRPOP grammar with error recovery,
//! and a syntax tree with byte spans on every node and token.
//!
//! Parsing never fails: [`parse`] always returns a tree plus diagnostics.

pub mod ast;
pub mod diagnostic;
pub mod span;

pub use diagnostic::{Diagnostic, Edit, Fix, Label, Severity};
pub use span::Span;
