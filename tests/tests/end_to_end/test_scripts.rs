//! The test plumbing itself: `scripts/cargo-bins` finds binaries where cargo
//! put them (CARGO_TARGET_DIR, `build.target-dir`), and
//! `editors/test-editors.sh` skips an editor that is not installed unless CI
//! requires it.
//!
//! `cargo-bins` is exercised on a scratch package of one binary, so that a
//! different target directory costs a one-file build, not the workspace's.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh, empty folder under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dgnkit-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A package with one binary, `hello-dgnkit`, in `dir`.
fn scratch_package(dir: &Path) {
    fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"hello-dgnkit\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::write(
        dir.join("src/main.rs"),
        "fn main() { println!(\"hello from dgnkit's test\"); }\n",
    )
    .unwrap();
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| env!("CARGO").to_string())
}

/// `scripts/cargo-bins --manifest-path PKG/Cargo.toml --quiet` with `env`.
fn cargo_bins(package: &Path, cwd: &Path, env: &[(&str, &Path)]) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg(repo().join("scripts/cargo-bins"))
        .arg("--manifest-path")
        .arg(package.join("Cargo.toml"))
        .arg("--quiet")
        .current_dir(cwd)
        .env("CARGO", cargo())
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// The one "NAME<TAB>PATH" line, checked to be the binary cargo built.
fn reported_binary(out: &Output) -> PathBuf {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "cargo-bins failed: {}{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one binary, one line: {stdout:?}");
    let (name, path) = lines[0].split_once('\t').expect("NAME<TAB>PATH");
    assert_eq!(name, "hello-dgnkit");
    let run = Command::new(path).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "hello from dgnkit's test\n"
    );
    PathBuf::from(path)
}

#[test]
fn cargo_bins_follows_cargo_target_dir() {
    let dir = scratch("cargo-bins-env");
    let package = dir.join("pkg");
    fs::create_dir_all(&package).unwrap();
    scratch_package(&package);
    let elsewhere = dir.join("elsewhere");

    let out = cargo_bins(&package, &dir, &[("CARGO_TARGET_DIR", &elsewhere)]);
    let path = reported_binary(&out);
    assert_eq!(path, elsewhere.join("debug").join("hello-dgnkit"));
    assert!(
        !package.join("target").exists(),
        "nothing is built in the package's own target/"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn cargo_bins_follows_configured_target_dir() {
    let dir = scratch("cargo-bins-config");
    let package = dir.join("pkg");
    fs::create_dir_all(package.join(".cargo")).unwrap();
    scratch_package(&package);
    fs::write(
        package.join(".cargo/config.toml"),
        "[build]\ntarget-dir = \"../configured\"\n",
    )
    .unwrap();

    // cargo reads .cargo/config.toml from the current directory up.
    let out = cargo_bins(&package, &package, &[]);
    let path = reported_binary(&out);
    assert_eq!(
        path.canonicalize().unwrap(),
        dir.join("configured/debug/hello-dgnkit")
            .canonicalize()
            .unwrap()
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn cargo_bins_fails_without_a_binary() {
    let dir = scratch("cargo-bins-lib");
    fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"lib-dgnkit\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::write(dir.join("src/lib.rs"), "").unwrap();
    let elsewhere = dir.join("out");
    let out = cargo_bins(&dir, &dir, &[("CARGO_TARGET_DIR", &elsewhere)]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("reported no executable"));
    let _ = fs::remove_dir_all(&dir);
}

/// A PATH holding only the tools test-editors.sh needs besides the editors,
/// so that the test sees "not installed" whatever this machine has.
fn path_without_editors(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    fs::create_dir_all(&bin).unwrap();
    for tool in [
        "bash", "cat", "dirname", "grep", "sed", "tail", "head", "mktemp", "rm", "timeout",
    ] {
        let found = std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|d| d.join(tool))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("{tool} is not on PATH"));
        std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
    }
    bin
}

fn test_editors(path: &Path, require: &[&str]) -> (bool, String) {
    let mut cmd = Command::new(path.join("bash"));
    cmd.arg(repo().join("editors/test-editors.sh"))
        .env("PATH", path)
        // Any executable will do: no editor gets to start it.
        .env("DGN_LSP", path.join("cat"))
        .env_remove("DGNKIT_REQUIRE_NEOVIM")
        .env_remove("DGNKIT_REQUIRE_EMACS");
    for var in require {
        cmd.env(var, "1");
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn editors_not_installed_skip_unless_required() {
    let dir = scratch("test-editors");
    let path = path_without_editors(&dir);

    let (ok, text) = test_editors(&path, &[]);
    assert!(ok, "{text}");
    assert!(text.contains("skipping neovim"), "{text}");
    assert!(text.contains("apt-get install -y neovim"), "{text}");
    assert!(text.contains("skipping emacs"), "{text}");
    assert!(text.contains("editors: 0 passed, 0 failed"), "{text}");

    for (var, says) in [
        ("DGNKIT_REQUIRE_NEOVIM", "neovim is not installed"),
        ("DGNKIT_REQUIRE_EMACS", "emacs with eglot is not installed"),
    ] {
        let (ok, text) = test_editors(&path, &[var]);
        assert!(!ok, "{var}=1 must fail: {text}");
        assert!(text.contains(says), "{text}");
        assert!(text.contains("editors: 0 passed, 1 failed"), "{text}");
    }
    let _ = fs::remove_dir_all(&dir);
}
