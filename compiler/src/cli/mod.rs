//! The `dgn` command line: argument parsing and dispatch only. Each command's
//! module turns library results into human or JSON output.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

/// Exit status: success.
pub const EXIT_OK: u8 = 0;
/// Exit status: the input has errors.
pub const EXIT_INPUT: u8 = 1;
/// Exit status: usage or I/O error.
pub const EXIT_USAGE: u8 = 2;

#[derive(Parser, Debug)]
#[command(name = "dgn", version, about = "dgnkit: compile, check, lay out and analyse NetHack dungeon.def files")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {}

/// Options that mean the same in every command.
#[derive(Args, Debug, Clone, Default)]
pub struct CommonOpts {
    /// Output/limits target: nethack-3.4.3, nethack-3.6 (default) or native.
    #[arg(long, default_value = "nethack-3.6", value_parser = parse_target)]
    pub target: crate::options::Target,
    /// Define a %FLAG option (repeatable).
    #[arg(short = 'D', value_name = "FLAG")]
    pub define: Vec<String>,
    /// Undefine a %FLAG option (repeatable).
    #[arg(short = 'U', value_name = "FLAG")]
    pub undefine: Vec<String>,
}

fn parse_target(s: &str) -> Result<crate::options::Target, String> {
    crate::options::Target::parse(s).ok_or_else(|| format!("unknown target `{s}` (expected nethack-3.4.3, nethack-3.6 or native)"))
}

/// `--format` values shared by commands; each command accepts the subset it
/// can produce.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    Human,
    Short,
    Json,
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {}
}
