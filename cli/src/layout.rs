//! `dgn layout`: resolve a dungeon file for a seed, as NetHack's loader
//! would, and show the layout.
//!
//! FILE may be a `dungeon.def` source (compiled in memory), any compiled
//! file (NetHack 3.4.3 or 3.6 layout, or native), or `-` for standard
//! input; without FILE the built-in description of the target's game
//! (NetHack 3.6's, `corpus/nethack-3.6.def`, without `--target`) is used. The seed defaults to 0 so that the
//! output is reproducible (glibc treats 0 as 1, as `srandom` does).

use super::input::{read_script, Input};
use super::{CommonOpts, LoaderOpts, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::{Args, ValueEnum};
use dgnkit::layout::Layout;
use dgnkit::loader::{Resolved, Resolver};
use dgnkit::options::Target;
use dgnkit::rng::RngKind;
use dgnkit::views;
use dgnkit::views::jsonl::Seeds;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

/// The built-in dungeon: our description of NetHack 3.6's.
pub const DEFAULT_DEF: &[u8] = include_bytes!("../../corpus/nethack-3.6.def");
pub const DEFAULT_NAME: &str = "nethack-3.6.def (built in)";

/// The built-in description for `target` and its name for messages: the
/// game's own, as `dgn xlog` answers the newest release of that game with
/// ([`dgnkit::xlog::release::RELEASES`]), so that no game is laid out with
/// another's dungeon; dgnkit's own format takes NetHack 3.6's.
pub fn built_in(target: dgnkit::options::Target) -> (&'static str, &'static [u8]) {
    dgnkit::xlog::release::newest_of(target)
        .and_then(|r| r.builtin.as_ref())
        .map_or((DEFAULT_NAME, DEFAULT_DEF), |b| (b.file, b.source))
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutFormat {
    /// NetHack's wizard-mode dungeon overview, as the target version prints it.
    Overview,
    /// The canonical layout JSON (one line per seed).
    Json,
    /// A picture of the dungeon tree.
    Svg,
    /// The resolution draw by draw, as the SIG-GAME framework's gamelog
    /// (gzipped JSON; `dgn replay` reads it back).
    Gamelog,
}

/// How `--trace` writes the draw log.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceForm {
    /// dgnkit's own words for each draw (`rn2(5)=3 @ size of "The Dungeons
    /// of Doom"`), and `rng_calls` in JSON.
    Dgnkit,
    /// A session file's entries, with the game's C callers.
    Session,
}

/// `dgn layout [OPTIONS] [FILE]`
#[derive(Args, Debug, Clone)]
pub struct LayoutArgs {
    #[command(flatten)]
    pub common: CommonOpts,
    #[command(flatten)]
    pub loader: LoaderOpts,
    /// Random number generator (default: the target's: glibc for
    /// nethack-3.4.3, isaac64 for nethack-3.6, ...).
    #[arg(long, value_parser = crate::rng_parser())]
    pub rng: Option<RngKind>,
    /// Wizard mode: skip every chance roll (all optional dungeons and
    /// levels exist).
    #[arg(long)]
    pub wizard: bool,
    /// The seed the generator is seeded with.
    #[arg(long, default_value_t = 0, conflicts_with = "seeds")]
    pub seed: u64,
    /// Many seeds as JSON lines: `A..B` (B excluded), `A..=B`, or a list
    /// such as `7,42,3` (in that order).
    #[arg(long, value_name = "A..B", value_parser = parse_seed_set)]
    pub seeds: Option<Seeds>,
    /// Output format (default: overview for one seed, json for --seeds).
    #[arg(long, value_enum)]
    pub format: Option<LayoutFormat>,
    /// Log every draw: `rng_calls` in JSON, the log on stderr otherwise.
    /// `--trace=session` writes the log on stderr in the entry form of a
    /// Mazes of Menace session file, `rn2(5)=3 @
    /// init_dungeon_dungeons(dungeon.c:1074)`, whatever the format, to diff
    /// with a port's log; a draw whose C caller dgnkit does not know for
    /// the game says so (`@ <C caller unknown> ...`).
    #[arg(long, value_enum, value_name = "FORM", num_args = 0..=1, require_equals = true, default_missing_value = "dgnkit")]
    pub trace: Option<TraceForm>,
    /// Threads that resolve `--seeds` (default: one per core); the lines
    /// come out in seed order whatever the number.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Where `--format gamelog` writes the log: gzipped, unless the name
    /// ends in `.json`; without it, standard output when that is not a
    /// terminal.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// A dungeon.def or compiled file (`-` reads standard input); default:
    /// the built-in description of the target's game (NetHack 3.6's without
    /// --target; `corpus/` holds them all).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// Parses `layout`'s arguments (`argv[0]` is the command name), as
/// `dgn layout` does.
pub fn parse_args<I, T>(argv: I) -> Result<LayoutArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::input::parse_command("layout", argv)
}

/// `A..B` (half-open) or `A..=B` (inclusive) into `[start, end)`.
pub fn parse_seeds(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("expected a seed range such as 0..100 or 0..=99, found `{s}`");
    let (a, b, inclusive) = if let Some((a, b)) = s.split_once("..=") {
        (a, b, true)
    } else if let Some((a, b)) = s.split_once("..") {
        (a, b, false)
    } else {
        return Err(bad());
    };
    let a: u64 = a.trim().parse().map_err(|_| bad())?;
    let b: u64 = b.trim().parse().map_err(|_| bad())?;
    let end = if inclusive {
        b.checked_add(1).ok_or_else(bad)?
    } else {
        b
    };
    if end < a {
        return Err(format!(
            "the seed range `{s}` is empty backwards (its end comes before its start)"
        ));
    }
    Ok((a, end))
}

/// `--seeds` of `dgn layout`: a range as [`parse_seeds`] takes it, or a
/// comma-separated list of seeds.
pub fn parse_seed_set(s: &str) -> Result<Seeds, String> {
    if !s.contains(',') {
        if let Ok(seed) = s.trim().parse::<u64>() {
            return Ok(Seeds::List(vec![seed]));
        }
        let (a, b) = parse_seeds(s)?;
        return Ok(Seeds::Range(a..b));
    }
    s.split(',')
        .map(|x| {
            x.trim().parse::<u64>().map_err(|_| {
                format!(
                    "expected a list of seeds such as 7,42,3, found `{}` in it",
                    x.trim()
                )
            })
        })
        .collect::<Result<_, _>>()
        .map(Seeds::List)
}

/// A one-line progress bar on a terminal's stderr.
pub(crate) struct Progress {
    on: bool,
    total: u64,
    shown: u64,
    last: std::time::Instant,
}

impl Progress {
    pub(crate) fn new(total: u64, on: bool) -> Progress {
        Progress {
            on: on && total > 1,
            total,
            shown: 0,
            last: std::time::Instant::now(),
        }
    }

    pub(crate) fn tick(&mut self, done: u64) {
        if !self.on
            || (self.last.elapsed().as_millis() < 100 && done != self.total)
            || done == self.shown
        {
            return;
        }
        self.shown = done;
        self.last = std::time::Instant::now();
        let width = 40u64;
        let filled = (done * width).checked_div(self.total).unwrap_or(width) as usize;
        let pct = (done * 100).checked_div(self.total).unwrap_or(100);
        eprint!(
            "\r[{}{}] {pct:3}% {done}/{} seeds",
            "#".repeat(filled),
            ".".repeat(width as usize - filled),
            self.total
        );
    }

    pub(crate) fn finish(&self) {
        self.clear();
    }

    /// Wipes the bar (before other output to the terminal); the next
    /// tick draws it again.
    pub(crate) fn clear(&self) {
        if self.on {
            eprint!("\r{}\r", " ".repeat(70));
        }
    }
}

pub fn run(args: LayoutArgs) -> ExitCode {
    use std::io::IsTerminal;
    let stdout = std::io::stdout().is_terminal();
    super::input::on_std_streams(|out, err, tty| {
        let term = Terminal {
            stdout,
            ..Terminal::of(tty)
        };
        execute(&args, out, err, term)
    })
}

/// What the error stream is.
#[derive(Clone, Copy, Debug, Default)]
pub struct Terminal {
    /// Colour diagnostics.
    pub color: bool,
    /// Draw a progress bar for `--seeds`.
    pub progress: bool,
    /// Standard output is a terminal (no gzip is written there).
    pub stdout: bool,
}

impl Terminal {
    /// Colour and progress when standard error is a terminal (and colour
    /// is not turned off).
    pub fn of(stderr_is_tty: bool) -> Terminal {
        Terminal {
            color: super::check::use_color(stderr_is_tty),
            progress: stderr_is_tty,
            stdout: false,
        }
    }
}

/// The command on explicit streams; returns the exit status.
pub fn execute(args: &LayoutArgs, out: &mut dyn Write, err: &mut dyn Write, term: Terminal) -> u8 {
    let inputs = match super::input::loader_inputs(
        "layout",
        &args.loader,
        args.wizard,
        args.common.target,
        err,
    ) {
        Ok(i) => i,
        Err(code) => return code,
    };
    if args.seeds.is_some()
        && matches!(
            args.format,
            Some(LayoutFormat::Overview | LayoutFormat::Svg)
        )
    {
        let _ = writeln!(err, "dgn layout: --seeds writes JSON lines; --format overview and svg show one seed (use --seed)");
        return EXIT_USAGE;
    }
    if args.seeds.is_some() && args.format == Some(LayoutFormat::Gamelog) {
        let _ = writeln!(
            err,
            "dgn layout: a gamelog is one seed's resolution (use --seed)"
        );
        return EXIT_USAGE;
    }
    if args.output.is_some() && args.format != Some(LayoutFormat::Gamelog) {
        let _ = writeln!(
            err,
            "dgn layout: -o writes a gamelog (--format gamelog); the other formats go to standard output"
        );
        return EXIT_USAGE;
    }
    if args.format == Some(LayoutFormat::Gamelog) && args.output.is_none() && term.stdout {
        let _ = writeln!(
            err,
            "dgn layout: a gamelog is gzipped JSON; give -o FILE (FILE.json.gz, or FILE.json for plain JSON) or redirect standard output"
        );
        return EXIT_USAGE;
    }
    if args.seeds.is_some() && args.trace == Some(TraceForm::Session) {
        let _ = writeln!(
            err,
            "dgn layout: --trace=session logs one seed's draws (use --seed); with --seeds, --trace puts each seed's in its JSON line"
        );
        return EXIT_USAGE;
    }
    let input = match read_script(args.file.as_ref(), &args.common, "layout", err, term.color) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let rng = args.rng.unwrap_or(input.rng);
    let resolver = match super::input::resolver_for("layout", &input, &inputs, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let Input { name, target, .. } = input;
    match &args.seeds {
        Some(seeds) => many(&resolver, args, rng, seeds, out, term.progress),
        None if args.format == Some(LayoutFormat::Gamelog) => {
            gamelog(&resolver, args, &name, target, rng, out, err)
        }
        None => one(&resolver, args, &name, target, rng, out, err),
    }
}

/// `--format gamelog`: the resolution recorded draw by draw, to `-o FILE`
/// or standard output.
fn gamelog(
    resolver: &Resolver,
    args: &LayoutArgs,
    name: &str,
    target: Target,
    rng: RngKind,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let game = target.game();
    let mut given = Vec::new();
    let l = &args.loader;
    for (k, v) in [
        ("race", &l.race),
        ("gender", &l.gender),
        ("align", &l.align),
    ] {
        if let Some(v) = v {
            given.push((k.to_string(), v.clone()));
        }
    }
    for o in &l.options {
        let (k, v) = o.split_once('=').unwrap_or((o, ""));
        given.push((format!("option:{k}"), v.to_string()));
    }
    let settings = dgnkit::gamelog::Settings {
        target: target.name().to_string(),
        title: game.title.to_string(),
        file: name.to_string(),
        seed: args.seed,
        role: l.role.clone(),
        wizard: args.wizard,
        generator: rng.name().to_string(),
        game_start: resolver.game_start() != dgnkit::loader::GameStart::NONE,
        inputs: given,
        epoch: epoch_ms(),
    };
    let (log, result) =
        dgnkit::gamelog::record(resolver, game, args.seed, rng, args.wizard, &settings);
    let plain = args
        .output
        .as_ref()
        .is_some_and(|p| p.extension().is_some_and(|e| e == "json"));
    let bytes = if plain {
        let mut text = log;
        text.push(b'\n');
        text
    } else {
        dgnkit::gamelog::gzip(&log)
    };
    let written = match &args.output {
        Some(path) if path.as_os_str() != "-" => std::fs::write(path, &bytes).map_err(|e| {
            let _ = writeln!(err, "dgn layout: cannot write `{}`: {e}", path.display());
        }),
        _ => out.write_all(&bytes).map_err(|_| ()),
    };
    if written.is_err() {
        return EXIT_USAGE;
    }
    if let Err(e) = result {
        let _ = writeln!(
            err,
            "dgn layout: `{name}`, seed {}: {e} (the gamelog ends there)",
            args.seed
        );
        return EXIT_INPUT;
    }
    EXIT_OK
}

/// Now, for a gamelog's `epoch`; `SOURCE_DATE_EPOCH` (seconds) fixes it,
/// for a log that is the same byte for byte on every run.
fn epoch_ms() -> u64 {
    if let Some(s) = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
    {
        return s.saturating_mul(1000);
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn one(
    resolver: &Resolver,
    args: &LayoutArgs,
    name: &str,
    target: Target,
    rng: RngKind,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let format = args.format.unwrap_or(LayoutFormat::Overview);
    let mut buf = Resolved::default();
    let mut log = Vec::new();
    let result = resolver.resolve_traced(args.seed, rng, args.wizard, &mut buf, &mut log);
    match args.trace {
        Some(TraceForm::Dgnkit) if format != LayoutFormat::Json => {
            for d in &log {
                let _ = writeln!(err, "{d} @ {}", resolver.describe_site(d.site));
            }
        }
        Some(TraceForm::Session) => {
            let rng_log = target.game().rng_log;
            let entries = dgnkit::session::entry::session_entries(&log, rng_log, |s| {
                resolver.describe_site(s)
            });
            for e in entries {
                let _ = writeln!(err, "{e}");
            }
        }
        _ => {}
    }
    if let Err(e) = result {
        let _ = writeln!(err, "dgn layout: `{name}`, seed {}: {e}", args.seed);
        if format == LayoutFormat::Json
            && writeln!(out, "{}", views::jsonl::error_line(args.seed, &e)).is_err()
        {
            return EXIT_USAGE;
        }
        return EXIT_INPUT;
    }
    let calls = (args.trace == Some(TraceForm::Dgnkit) && format == LayoutFormat::Json)
        .then(|| dgnkit::rng::rng_calls(&log));
    let layout: Layout = buf.to_layout(resolver, calls);
    // The hero a game start made heads the overview, on standard error so
    // that standard output stays the game's own `#wizwhere` text, line
    // for line (the JSON carries it as `character`).
    if let (Some(c), LayoutFormat::Overview) = (&layout.character, format) {
        let _ = writeln!(err, "seed {}: you are a {}.", args.seed, c.text);
    }
    let text = match format {
        LayoutFormat::Overview => views::overview(&layout, target.game().overview),
        // `execute` hands a gamelog to `gamelog`, never here.
        LayoutFormat::Json | LayoutFormat::Gamelog => format!("{}\n", views::json_line(&layout)),
        LayoutFormat::Svg => views::svg(&layout, &format!("{name}, {} loader", target.name())),
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_USAGE;
    }
    EXIT_OK
}

fn many(
    resolver: &Resolver,
    args: &LayoutArgs,
    rng: RngKind,
    seeds: &Seeds,
    out: &mut dyn Write,
    bar: bool,
) -> u8 {
    let mut progress = Progress::new(seeds.len(), bar);
    let mut failed = false;
    let mut broken = false;
    if args.trace.is_some() {
        // The draw log is not free: only when asked.
        let (mut buf, mut log) = (Resolved::default(), Vec::new());
        for (done, seed) in seeds.iter().enumerate() {
            log.clear();
            let line = match resolver.resolve_traced(seed, rng, args.wizard, &mut buf, &mut log) {
                Ok(()) => {
                    let calls = dgnkit::rng::rng_calls(&log);
                    views::json_line(&buf.to_layout(resolver, Some(calls)))
                }
                Err(e) => {
                    failed = true;
                    views::jsonl::error_line(seed, &e)
                }
            };
            if writeln!(out, "{line}").is_err() {
                broken = true;
                break;
            }
            progress.tick(done as u64 + 1);
        }
    } else {
        let jobs = args.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            usize::from,
        );
        let mut done = 0;
        let _ = views::jsonl::resolve_lines(resolver, seeds, rng, args.wizard, jobs, |chunk| {
            failed |= chunk.failed > 0;
            if out.write_all(&chunk.text).is_err() {
                broken = true;
                return ControlFlow::Break(());
            }
            done += chunk.seeds;
            progress.tick(done);
            ControlFlow::Continue(())
        });
    }
    if broken {
        progress.finish();
        return EXIT_USAGE;
    }
    progress.finish();
    if failed {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_ranges() {
        assert_eq!(parse_seeds("0..10"), Ok((0, 10)));
        assert_eq!(parse_seeds("5..=9"), Ok((5, 10)));
        assert_eq!(parse_seeds("3..3"), Ok((3, 3)));
        assert!(parse_seeds("9..2").is_err());
        assert!(parse_seeds("x..2").is_err());
        assert!(parse_seeds("12").is_err());
        assert!(parse_seeds("0..=18446744073709551615").is_err());
        assert_eq!(parse_seed_set("0..10"), Ok(Seeds::Range(0..10)));
        assert_eq!(parse_seed_set("7, 42,3"), Ok(Seeds::List(vec![7, 42, 3])));
        assert_eq!(parse_seed_set("42"), Ok(Seeds::List(vec![42])));
        assert!(parse_seed_set("7,,3").is_err());
        assert!(parse_seed_set("7,x").is_err());
    }

    #[test]
    fn the_built_in_file_compiles_and_resolves() {
        let analysis =
            dgnkit::frontend::analyze(DEFAULT_DEF, &dgnkit::frontend::CheckOptions::default());
        assert!(
            analysis.diagnostics.is_empty(),
            "{:?}",
            analysis.diagnostics
        );
        let script = analysis.script.unwrap();
        let r = Resolver::new(&script).unwrap();
        assert!(r.resolve(0, RngKind::Isaac64, false, false).is_ok());
    }
}
