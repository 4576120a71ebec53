//! The language server's tests, one module per subject, in one test binary
//! (`capabilities` keeps its own, for its snapshots' names): each binary
//! links the whole toolchain, and one lets the harness spread the tests
//! over the cores.

mod budget;
#[path = "../common/mod.rs"]
mod common;
mod compare;
mod editor_settings;
mod family;
mod incremental;
mod lua;
mod parity;
mod soak;
mod stdio;
