//! `dgn check`: parse and check files, print their diagnostics.

use super::input::read_input;
use super::{CommonOpts, OutputFormat, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::Args;
use dgnkit::frontend::Analysis;
use dgnkit::lint::{self, LintLevels};
use dgnkit::render;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Lint levels, rustc style (shared by every command that checks).
#[derive(Args, Debug, Clone, Default)]
pub struct LintOpts {
    /// Silence a lint (or the group `compat`, or `warnings` for all).
    #[arg(long = "allow", short = 'A', value_name = "LINT")]
    pub allow: Vec<String>,
    /// Report a lint as a warning (the default).
    #[arg(long = "warn", short = 'W', value_name = "LINT")]
    pub warn: Vec<String>,
    /// Turn a lint into an error (`--deny compat` rejects what NetHack's
    /// dgn_comp rejects; `--deny warnings` every warning).
    #[arg(long = "deny", value_name = "LINT")]
    pub deny: Vec<String>,
}

impl LintOpts {
    pub fn levels(&self) -> LintLevels {
        LintLevels {
            allow: self.allow.clone(),
            warn: self.warn.clone(),
            deny: self.deny.clone(),
        }
    }

    /// The usage error for lint names nobody knows, naming the known ones.
    pub fn unknown_error(&self, command: &str) -> Option<String> {
        let levels = self.levels();
        let unknown = levels.unknown_names();
        if unknown.is_empty() {
            return None;
        }
        Some(format!(
            "dgn {command}: unknown lint {}; known lints: {}, and the groups `{}` and `{}`",
            unknown
                .iter()
                .map(|u| format!("`{u}`"))
                .collect::<Vec<_>>()
                .join(", "),
            lint::lint_names().join(", "),
            lint::COMPAT_GROUP,
            lint::ALL_GROUP
        ))
    }
}

/// `dgn check [OPTIONS] FILE...`
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    #[command(flatten)]
    pub common: CommonOpts,
    #[command(flatten)]
    pub lints: LintOpts,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: OutputFormat,
    /// Files to check (`-` reads standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<std::path::PathBuf>,
}

/// Whether human output should be coloured on this stream.
pub fn use_color(stream_is_terminal: bool) -> bool {
    stream_is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Parses `check`'s arguments (`argv[0]` is the command name).
pub fn parse_args<I, T>(argv: I) -> Result<CheckArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::input::parse_command("check", argv)
}

pub fn run(args: CheckArgs) -> ExitCode {
    let color = use_color(std::io::stdout().is_terminal());
    super::input::on_std_streams(|out, err, _| execute(&args, out, err, color))
}

/// The command on explicit streams (`color`: colour the human output);
/// returns the exit status.
pub fn execute(args: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write, color: bool) -> u8 {
    if let Some(msg) = args.lints.unknown_error("check") {
        let _ = writeln!(err, "{msg}");
        return EXIT_USAGE;
    }
    let opts = args.common.check_options(args.lints.levels());
    let mut io_error = false;
    let mut any_errors = false;
    let (mut errors, mut warnings, mut checked) = (0usize, 0usize, 0usize);
    let mut json_files = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let src = match read_input(path) {
            Ok(s) => s,
            Err(e) => {
                let _ = writeln!(err, "dgn check: cannot read `{name}`: {e}");
                io_error = true;
                continue;
            }
        };
        let kind = dgnkit::frontend::SourceKind::of_file(path, &src);
        let mut analysis: Analysis = dgnkit::frontend::analyze_as(kind, &src, &opts);
        // Only a file checked as plain NetHack can be another game's unawares.
        if args.common.target.is_none()
            && args.common.dialect.is_none()
            && !analysis
                .diagnostics
                .iter()
                .any(|d| d.code == dgnkit::check::codes::DIALECT_SUGGESTION)
        {
            analysis
                .diagnostics
                .extend(dgnkit::games::detect::path_note(path, opts.target));
        }
        checked += 1;
        any_errors |= analysis.has_errors();
        errors += analysis.error_count();
        warnings += analysis.warning_count();
        let text = match args.format {
            OutputFormat::Human => render::human(&name, &src, &analysis.diagnostics, color),
            OutputFormat::Short => render::short(&name, &src, &analysis.diagnostics),
            OutputFormat::Json => {
                json_files.push(render::json_file(&name, &src, &analysis.diagnostics));
                String::new()
            }
        };
        if out.write_all(text.as_bytes()).is_err() {
            return EXIT_USAGE;
        }
    }
    let tail = match args.format {
        OutputFormat::Json => format!("{}\n", render::json(json_files)),
        OutputFormat::Human if checked > 0 => {
            let verdict = if any_errors { "failed" } else { "ok" };
            format!(
                "{verdict}: {} checked, {}, {}\n",
                dgnkit::check::plural(checked as u64, "file"),
                dgnkit::check::plural(errors as u64, "error"),
                dgnkit::check::plural(warnings as u64, "warning")
            )
        }
        _ => String::new(),
    };
    if out.write_all(tail.as_bytes()).is_err() {
        return EXIT_USAGE;
    }
    if io_error {
        EXIT_USAGE
    } else if any_errors {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}
