//! One module per LSP capability; each turns queries of one document into
//! LSP values.

pub mod completion;
pub mod diagnostics;
pub mod formatting;
pub mod hover;
pub mod inlay;
pub mod navigation;
pub mod semantic_tokens;
pub mod symbols;
