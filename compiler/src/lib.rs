//! dgnkit: the compiler, checker, binary formats, loader and analyses for
//! NetHack's dungeon description language. The `dgn` CLI and the language
//! server are thin shells over this library.
//!
//! Pipeline: source -> tokens -> syntax tree (`dgnkit_grammar`) -> semantic
//! model -> checks -> lowered [`script::Script`] -> binary formats / loader ->
//! [`layout::Layout`] -> views.

pub mod binary;
pub mod bones;
pub mod check;
pub mod cli;
pub mod convert;
pub mod decompile;
pub mod dialect;
pub mod find;
pub mod frontend;
pub mod games;
pub mod layout;
pub mod lint;
pub mod loader;
pub mod lower;
pub mod lua;
pub mod model;
pub mod options;
pub mod render;
pub mod rng;
pub mod script;
pub mod stats;
pub mod views;
pub mod xlog;

pub use dgnkit_grammar as grammar;
