//! Helpers for the end-to-end tests: where `../shared` is, and whether its
//! absence should skip or fail.

use std::path::{Path, PathBuf};

/// `../shared` beside the checkout, or `None` (with a message) when absent.
/// Under `DGNKIT_REQUIRE_SHARED=1` (CI) a missing folder is a failure.
pub fn shared_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("..")
        .join("shared");
    if root.join("corpus").is_dir() {
        return Some(root);
    }
    if std::env::var("DGNKIT_REQUIRE_SHARED").as_deref() == Ok("1") {
        panic!("DGNKIT_REQUIRE_SHARED=1 but {} is missing", root.display());
    }
    eprintln!(
        "skipping: {} is absent (tests against NetHack's outputs need it)",
        root.display()
    );
    None
}

/// Every source file of the corpus (`dungeon.def` and `dungeon.pdf`), in
/// folder order.
pub fn corpus_files(shared: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(shared.join("corpus"))
        .expect("corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .flat_map(|d| ["dungeon.def", "dungeon.pdf"].map(|f| d.join(f)))
        .filter(|p| p.is_file())
        .collect()
}
