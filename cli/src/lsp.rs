//! `dgn lsp`: runs the language server `dgn-lsp` (installed beside `dgn`, or
//! found on `PATH`) with standard input and output passed through, so that
//! an editor can be pointed at `dgn lsp` alone.

use super::EXIT_USAGE;
use clap::Args;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

#[derive(Args, Debug)]
pub struct LspArgs {
    /// Arguments for `dgn-lsp` (editors often pass `--stdio`, which is the
    /// only transport and may be given or not).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<OsString>,
}

const SERVER: &str = "dgn-lsp";

fn server_file_name() -> String {
    format!("{SERVER}{}", std::env::consts::EXE_SUFFIX)
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// `dgn-lsp` beside the running executable, else the first on `PATH`.
pub fn find_server() -> Option<PathBuf> {
    let name = server_file_name();
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&name)));
    if let Some(path) = beside.filter(|p| is_executable(p)) {
        return Some(path);
    }
    let path_var = std::env::var_os("PATH")?;
    std::env::split_paths(&path_var)
        .map(|dir| dir.join(&name))
        .find(|p| is_executable(p))
}

pub fn run(args: LspArgs) -> ExitCode {
    let Some(server) = find_server() else {
        let beside = std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(|d| d.display().to_string()))
            .unwrap_or_else(|| "the directory of dgn".to_string());
        eprintln!(
            "dgn lsp: cannot find the language server `{}` in {beside} or on PATH\n\
             help: build it with `cargo build -p dgnkit-lsp` (it is installed beside `dgn`), or put it on PATH",
            server_file_name()
        );
        return ExitCode::from(EXIT_USAGE);
    };
    let mut command = Command::new(&server);
    command.args(&args.args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Only returns on failure.
        let err = command.exec();
        eprintln!("dgn lsp: cannot run {}: {err}", server.display());
        ExitCode::from(EXIT_USAGE)
    }
    #[cfg(not(unix))]
    {
        match command.status() {
            Ok(status) => ExitCode::from(
                status
                    .code()
                    .and_then(|c| u8::try_from(c).ok())
                    .unwrap_or(EXIT_USAGE),
            ),
            Err(err) => {
                eprintln!("dgn lsp: cannot run {}: {err}", server.display());
                ExitCode::from(EXIT_USAGE)
            }
        }
    }
}
