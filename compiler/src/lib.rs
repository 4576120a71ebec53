//! dgnkit: the compiler, checker, binary formats, loader and analyses for
//! NetHack's dungeon description language. The `dgn` CLI and the language
//! server are thin shells over this library.
//!
//! Pipeline: source -> tokens -> syntax tree (`dgnkit_grammar`) -> semantic
//! model -> checks -> lowered [`script::Script`] -> binary formats / loader ->
//! [`layout::Layout`] -> views.

pub mod cli;
pub mod layout;
pub mod options;
pub mod script;

pub use dgnkit_grammar as grammar;
