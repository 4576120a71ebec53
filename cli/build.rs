//! Links the drop-in `dgn_comp` as a static, position-dependent executable
//! on GNU/Linux, and leaves `dgn` and the library as they are.
//!
//! Why: `dgn_comp` is start-up more than compile, and most of a dynamically
//! linked Rust program's start-up is the dynamic loader (mapping and
//! relocating libc and libgcc_s, symbol lookup) and, for a
//! position-independent one, relocating itself. A static non-PIE
//! executable starts at its first instruction with nothing to relocate
//! (bench/README.md, Start-up; bench/HISTORY.md has the measurements).
//!
//! How: Cargo has no per-binary RUSTFLAGS, and `-C target-feature=+crt-static`
//! given to the whole build breaks the proc macros, so this uses what Cargo
//! does have per binary, linker arguments. `-static -no-pie` alone is not
//! enough: rustc passes std's system libraries (`-lc`, `-lgcc_s`, `-lm`, ...)
//! after `-Bdynamic`, so the linker would still take the shared ones. A
//! directory of small linker scripts named like those shared libraries, each
//! pointing at the static archive (libgcc_s at libgcc_eh, which has the same
//! unwinder), is searched first and turns each of them into its archive.
//!
//! Only when the target is this machine's GNU/Linux and the C compiler (the
//! linker driver rustc uses, `cc`) knows a static libc; otherwise, or with
//! `DGNKIT_DYNAMIC_DGN_COMP=1`, `dgn_comp` is linked like any other program.
//! The binary tests (`cli/tests/commands/binary_cli.rs`, `variants_cli.rs`) run
//! whatever this produced.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The shared libraries std links on GNU/Linux, each with the archive that
/// stands for it (libc also needs libgcc's helpers and unwinder).
const SHIMS: &[(&str, &[&str])] = &[
    ("c", &["libc.a", "libgcc.a", "libgcc_eh.a"]),
    ("gcc_s", &["libgcc_eh.a"]),
    ("m", &["libm.a"]),
    ("rt", &["librt.a"]),
    ("pthread", &["libpthread.a"]),
    ("dl", &["libdl.a"]),
    ("util", &["libutil.a"]),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DGNKIT_DYNAMIC_DGN_COMP");
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    let native = env("TARGET") == env("HOST");
    if !native
        || env("CARGO_CFG_TARGET_OS") != "linux"
        || env("CARGO_CFG_TARGET_ENV") != "gnu"
        || env("DGNKIT_DYNAMIC_DGN_COMP") == "1"
    {
        return;
    }
    let out = PathBuf::from(env("OUT_DIR")).join("static-dgn_comp");
    match write_shims(&out) {
        Ok(()) => {
            for arg in ["-static", "-no-pie", &format!("-L{}", out.display())] {
                println!("cargo:rustc-link-arg-bin=dgn_comp={arg}");
            }
            hot_text_first();
        }
        Err(why) => {
            println!("cargo:warning=dgn_comp is linked dynamically (slower start-up): {why}")
        }
    }
}

/// Links `dgn_comp` with `dgn_comp-hot.ld`, which puts the code a compile
/// runs (from glibc's start-up to the binary writer) together before the
/// rest of the text. Why: the kernel maps a program's text on demand, a
/// window of pages around each page first touched, and every page mapped
/// costs time over the process's life (mapped, then unmapped at exit),
/// each fault more. Spread over the whole text, a run touches many windows
/// and maps most of it; together, a few windows (bench/HISTORY.md,
/// Session 7). The script only adds an output section
/// (`INSERT BEFORE .text`), which GNU ld and LLVM's lld (rustc's default
/// linker here) both understand; patterns naming nothing are harmless, so
/// a stale list costs speed, never a build. A linker without linker
/// scripts (mold) needs `DGNKIT_DYNAMIC_DGN_COMP=1`.
///
/// Not a `rerun-if-changed` of this script: that would rebuild the whole
/// library for a new list; `dgn_comp.rs` includes the file instead, so
/// that a new list relinks only `dgn_comp`.
fn hot_text_first() {
    let script =
        Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join("dgn_comp-hot.ld");
    match script.to_str() {
        // The C compiler driver splits `-Wl,` arguments at commas.
        Some(path) if script.is_file() && !path.contains(',') => {
            println!("cargo:rustc-link-arg-bin=dgn_comp=-Wl,--script={path}");
        }
        _ => println!(
            "cargo:warning=dgn_comp is linked without its hot-code layout (slower start-up): {} is missing or has a comma",
            script.display()
        ),
    }
}

/// Where `cc` finds a file of its libraries, when it has it.
fn archive(name: &str) -> Option<PathBuf> {
    let out = Command::new("cc")
        .arg(format!("-print-file-name={name}"))
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // cc prints the bare name back when it does not have the file.
    (path.is_absolute() && path.is_file()).then(|| path.canonicalize().unwrap_or(path))
}

fn write_shims(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (lib, archives) in SHIMS {
        let mut paths = Vec::new();
        for a in *archives {
            let p = archive(a).ok_or_else(|| format!("cc has no {a}"))?;
            let text = p
                .to_str()
                .ok_or_else(|| format!("{}: not UTF-8", p.display()))?;
            if text.contains([' ', '(', ')', '"']) {
                return Err(format!("{text}: a path a linker script cannot name"));
            }
            paths.push(text.to_string());
        }
        let script = format!("GROUP({})\n", paths.join(" "));
        let file = dir.join(format!("lib{lib}.so"));
        std::fs::write(&file, script).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    Ok(())
}
