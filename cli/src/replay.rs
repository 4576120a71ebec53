//! `dgn replay FILE`: a gamelog (`dgn layout --format gamelog`, gzipped or
//! not) read back, its deltas folded up to any draw, and the state shown
//! as `dgn layout` shows a layout.
//!
//! Exit status: 0 with the state shown; 1 for a file that is not a
//! gamelog or whose deltas do not fold (what is wrong and where); 2 for a
//! file that cannot be read or a `--step` past the log's draws.

use super::input::read_input;
use super::{EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::{Args, ValueEnum};
use dgnkit::gamelog::Gamelog;
use dgnkit::options::Target;
use dgnkit::views;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayFormat {
    /// NetHack's wizard-mode overview of the state, as `dgn layout` prints it.
    Overview,
    /// The state as `dgn layout --format json` writes a layout.
    Json,
}

/// `dgn replay [OPTIONS] FILE`
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// Show the state after this many draws (0: before the first);
    /// default: the end of the log.
    #[arg(long, value_name = "N")]
    pub step: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value = "overview")]
    pub format: ReplayFormat,
    /// A gamelog, `.json.gz` or `.json` (`-` reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Parses `replay`'s arguments (`argv[0]` is the command name).
pub fn parse_args<I, T>(argv: I) -> Result<ReplayArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::input::parse_command("replay", argv)
}

pub fn run(args: ReplayArgs) -> ExitCode {
    super::input::on_std_streams(|out, err, _| execute(&args, out, err))
}

/// The command on explicit streams; returns the exit status.
pub fn execute(args: &ReplayArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let name = if args.file.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        args.file.display().to_string()
    };
    let bytes = match read_input(&args.file) {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(err, "dgn replay: cannot read `{name}`: {e}");
            return EXIT_USAGE;
        }
    };
    let log = match Gamelog::parse(&bytes) {
        Ok(log) => log,
        Err(e) => {
            let _ = writeln!(err, "dgn replay: `{name}`: {e}");
            return EXIT_INPUT;
        }
    };
    let draws = log.draws();
    if let Some(step) = args.step.filter(|&s| s > draws) {
        let _ = writeln!(
            err,
            "dgn replay: `{name}` has {draws} draws; --step {step} is past its end (0 to {draws})"
        );
        return EXIT_USAGE;
    }
    let target = match log.setting("target").map(|t| (t, Target::parse(t))) {
        Some((_, Some(t))) => t,
        Some((t, None)) => {
            let _ = writeln!(
                err,
                "dgn replay: `{name}`: its `settings.target` is `{t}`, a game dgnkit does not know"
            );
            return EXIT_INPUT;
        }
        None => {
            let _ = writeln!(
                err,
                "dgn replay: `{name}`: its `settings` name no `target`, so the game to show it as is unknown"
            );
            return EXIT_INPUT;
        }
    };
    let layout = match log
        .state_at(args.step)
        .and_then(|state| Gamelog::layout(&state, args.step.unwrap_or(draws)))
    {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(err, "dgn replay: `{name}`: {e}");
            return EXIT_INPUT;
        }
    };
    if let Some(step) = args.step {
        let at = match step.checked_sub(1).and_then(|_| log.draw(step)) {
            Some(d) => describe(d),
            None => "before the first draw".to_string(),
        };
        let _ = writeln!(err, "after draw {step} of {draws}: {at}");
    }
    let text = match args.format {
        ReplayFormat::Overview => views::overview(&layout, target.game().overview),
        ReplayFormat::Json => format!("{}\n", views::json_line(&layout)),
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_USAGE;
    }
    EXIT_OK
}

/// `rn2(5)=3 @ caller`, as `--trace=session` writes a draw.
fn describe(d: &dgnkit::gamelog::read::Delta) -> String {
    let data = d.data.as_ref();
    let get = |p: &str| data.and_then(|v| v.pointer(p));
    let text = |p: &str| get(p).map(|v| v.as_str().map_or(v.to_string(), str::to_string));
    format!(
        "{}({})={} @ {}",
        text("/run/functionName").unwrap_or_default(),
        text("/run/args/x").unwrap_or_default(),
        text("/returned").unwrap_or_default(),
        text("/run/caller").unwrap_or_default()
    )
}
