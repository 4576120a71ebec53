//! The command line's tests, one module per command or subject, in one test
//! binary (`check_corpus` keeps its own, for its snapshots' names): each
//! binary links the whole toolchain, and one lets the harness spread the
//! tests over the cores.

mod binary_cli;
mod binary_roundtrip;
mod check_bad_input;
mod check_cli;
mod check_docs;
#[path = "../common/mod.rs"]
mod common;
mod convert_cli;
mod fmt_cli;
mod gamelog_cli;
mod lua_mutation;
mod lua_sandbox;
mod serve_api;
mod serve_lsp;
mod serve_words;
mod session_cli;
mod variants_cli;
