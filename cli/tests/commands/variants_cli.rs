//! The command line on each variant family's own file: `dgn compile
//! --target F` and the drop-in `dgn_comp` with `DGN_COMP_TARGET=F` (the
//! dialect following the target) write the family's `dungeon.bin` byte for
//! byte; `dgn decompile` names the family of the compiled file; `dgn
//! layout` refuses a family whose loader is not proven.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const DGN: &str = env!("CARGO_BIN_EXE_dgn");
const DGN_COMP: &str = env!("CARGO_BIN_EXE_dgn_comp");

fn shared() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    if root.join("expected/variants").is_dir() {
        return Some(root);
    }
    assert!(
        std::env::var("DGNKIT_REQUIRE_SHARED").as_deref() != Ok("1"),
        "DGNKIT_REQUIRE_SHARED=1 but {} is missing",
        root.display()
    );
    eprintln!("skipping: {} is absent", root.display());
    None
}

/// (family, its corpus file): the first `<repo dir>/dungeon.def` of its
/// README that exists.
fn families(shared: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let Ok(dirs) = std::fs::read_dir(shared.join("expected/variants")) else {
        return out;
    };
    for dir in dirs.filter_map(|e| e.ok().map(|e| e.path())) {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap_or_default();
        let source = readme.match_indices("/dungeon.def").find_map(|(at, _)| {
            let start = readme[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || "_.@-".contains(c)))
                .map_or(0, |i| i + 1);
            let p = shared
                .join("corpus")
                .join(&readme[start..at])
                .join("dungeon.def");
            (readme[start..at].contains("__") && p.is_file()).then_some(p)
        });
        if let (Some(name), Some(source)) = (name, source) {
            out.push((name, source));
        }
    }
    out.sort();
    out
}

fn run(bin: &str, args: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> Output {
    let mut cmd = Command::new(bin);
    cmd.args(args)
        .env_remove("DGN_COMP_TARGET")
        .env_remove("DGN_COMP_DIALECT")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    if let Some(mut pipe) = child.stdin.take() {
        pipe.write_all(stdin).expect("stdin");
    }
    child.wait_with_output().expect("wait")
}

#[test]
fn dgn_compile_and_dgn_comp_write_each_familys_bytes() {
    let Some(shared) = shared() else { return };
    let fams = families(&shared);
    assert!(fams.len() >= 6, "families with a corpus file: {fams:?}");
    for (family, source) in fams {
        let want = std::fs::read(
            shared
                .join("expected/variants")
                .join(&family)
                .join("dungeon.bin"),
        )
        .expect("dungeon.bin");
        let src = std::fs::read(&source).expect("source");
        let out = run(DGN_COMP, &[], &[("DGN_COMP_TARGET", &family)], &src);
        assert!(
            out.status.success(),
            "dgn_comp {family}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout == want,
            "dgn_comp {family}: bytes differ from its dgn_comp's"
        );
        let out = run(
            DGN,
            &["compile", "--target", &family, "-", "-o", "-"],
            &[],
            &src,
        );
        assert!(
            out.status.success(),
            "dgn compile {family}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout == want,
            "dgn compile --target {family}: bytes differ"
        );
        // The compiled file says which family it is.
        let out = run(DGN, &["decompile", "--format", "json", "-"], &[], &want);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains(&format!("\"{family}\"")),
            "dgn decompile {family}: {text} {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
