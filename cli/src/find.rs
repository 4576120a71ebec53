//! `dgn find EXPR`: the seeds whose dungeon satisfies a query (the
//! language is `dgn explain find`; the work is [`dgnkit::find`]).

use super::input::{read_script, Input};
use super::layout::{parse_seeds, Progress};
use super::{CommonOpts, LoaderOpts, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::{Args, ValueEnum};
use dgnkit::bones::BonesOptions;
use dgnkit::find::{self, Finder, Query};
use dgnkit::rng::RngKind;
use dgnkit::stats::{self, StatsOptions};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status after Ctrl-C (what was found so far is printed).
pub const EXIT_INTERRUPTED: u8 = 130;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindFormat {
    /// One matching seed per line.
    Text,
    /// One JSON object per line.
    Json,
}

/// `dgn find EXPR [OPTIONS] [FILE]`
#[derive(Args, Debug, Clone)]
pub struct FindArgs {
    /// The query (`dgn explain find`), e.g. 'bigrm and oracle.depth == 5'.
    #[arg(value_name = "EXPR", allow_hyphen_values = true)]
    pub query: String,
    #[command(flatten)]
    pub common: CommonOpts,
    #[command(flatten)]
    pub loader: LoaderOpts,
    /// Random number generator (default: the target's).
    #[arg(long, value_parser = crate::rng_parser())]
    pub rng: Option<RngKind>,
    /// Wizard mode: skip every chance roll.
    #[arg(long)]
    pub wizard: bool,
    /// Seeds to search: `A..B` (B excluded) or `A..=B` (default: every
    /// seed of the generator).
    #[arg(long, value_name = "A..B", value_parser = parse_seeds)]
    pub seeds: Option<(u64, u64)>,
    /// Stop after this many matches.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Print only how many seeds matched, and the fraction.
    #[arg(long)]
    pub count: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FindFormat,
    /// Threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// A dungeon.def or compiled file (`-` reads standard input; default:
    /// the built-in description of the target's dungeon).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// Parses `find`'s arguments (`argv[0]` is the command name).
pub fn parse_args<I, T>(argv: I) -> Result<FindArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::input::parse_command("find", argv)
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

pub fn run(args: FindArgs) -> ExitCode {
    // Ctrl-C ends the search; what was found so far is still printed.
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed));
    super::input::on_std_streams(|out, err, tty| {
        execute(
            &args,
            out,
            err,
            super::layout::Terminal::of(tty),
            &INTERRUPTED,
        )
    })
}

/// Every seed the generator takes: glibc's `srandom`, UnNetHack's
/// ISAAC and MT19937's seeding keep 32 bits.
pub fn seed_space(rng: RngKind) -> (u64, u64) {
    match rng {
        RngKind::Glibc | RngKind::Isaac32 | RngKind::Mt19937Cokus => (0, 1 << 32),
        RngKind::Isaac64 => (0, u64::MAX),
    }
}

struct Tally {
    searched: u64,
    matched: u64,
    failed: u64,
    first_failure: Option<String>,
}

/// The command on explicit streams; returns the exit status.
pub fn execute(
    args: &FindArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
    term: super::layout::Terminal,
    interrupted: &AtomicBool,
) -> u8 {
    let inputs = match super::input::loader_inputs(
        "find",
        &args.loader,
        args.wizard,
        args.common.target,
        err,
    ) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let input = match read_script(args.file.as_ref(), &args.common, "find", err, term.color) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let rng = args.rng.unwrap_or(input.rng);
    let resolver = match super::input::resolver_for("find", &input, &inputs, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let Input { script, target, .. } = input;
    let query = match compile_query(&args.query, &resolver, err, term.color) {
        Ok(q) => q,
        Err(code) => return code,
    };
    let stats = stats::exact(
        &script,
        &StatsOptions {
            game: target.game().loader_game(),
            wizard: args.wizard,
            inputs,
            ..StatsOptions::default()
        },
    )
    .ok();
    let bones = BonesOptions {
        role: args.loader.role.clone(),
        ..target.game().bones_options()
    };
    let finder = Finder::new(
        &resolver,
        &query,
        &bones,
        rng,
        args.wizard,
        find::stops_safely(stats.as_ref()),
    );
    let (a, b) = args.seeds.unwrap_or_else(|| seed_space(rng));
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut progress = Progress::new(b - a, term.progress);
    let mut tally = Tally {
        searched: 0,
        matched: 0,
        failed: 0,
        first_failure: None,
    };
    let mut broken = false;
    let flow = finder.search(a..b, jobs, interrupted, |chunk| {
        let mut flow = ControlFlow::Continue(());
        let mut end = chunk.seeds.end;
        let mut printed = false;
        for &seed in &chunk.matches {
            if tally.matched >= limit {
                break;
            }
            tally.matched += 1;
            if !args.count {
                progress.clear();
                printed = true;
                if write_match(out, &finder, seed, args.format).is_err() {
                    broken = true;
                    return ControlFlow::Break(());
                }
            }
            if tally.matched == limit {
                end = seed + 1;
                flow = ControlFlow::Break(());
                break;
            }
        }
        tally.searched += end - chunk.seeds.start;
        if let Some((seed, e)) = &chunk.first_failure {
            if *seed < end {
                tally.failed += chunk.failed;
                tally
                    .first_failure
                    .get_or_insert_with(|| format!("seed {seed}: {e}"));
            }
        }
        if printed && out.flush().is_err() {
            broken = true;
            return ControlFlow::Break(());
        }
        progress.tick(tally.searched);
        flow
    });
    progress.finish();
    if broken {
        return EXIT_USAGE;
    }
    let stopped = flow.is_break() && interrupted.load(Ordering::Relaxed);
    if args.count {
        let p = stats
            .as_ref()
            .and_then(|s| find::odds::probability(&query, &finder.env, s));
        if write_count(out, &tally, p, args.format, stopped).is_err() {
            return EXIT_USAGE;
        }
    }
    tally.report(err, a, stopped)
}

/// The query compiled for `resolver`, its warnings said; errors are said
/// and end the command.
fn compile_query(
    text: &str,
    resolver: &dgnkit::loader::Resolver,
    err: &mut dyn Write,
    color: bool,
) -> Result<Query, u8> {
    let query = match find::compile(text, resolver) {
        Ok(q) => q,
        Err(d) => {
            let shown = dgnkit::render::human("query", text.as_bytes(), &[*d], color);
            let _ = write!(err, "{shown}");
            let _ = writeln!(
                err,
                "dgn find: the query has errors (`dgn explain find` describes the language)"
            );
            return Err(EXIT_INPUT);
        }
    };
    let warnings = find::warnings(text);
    if !warnings.is_empty() {
        let shown = dgnkit::render::human("query", text.as_bytes(), &warnings, color);
        let _ = write!(err, "{shown}");
    }
    Ok(query)
}

impl Tally {
    /// Says the seeds that did not resolve and, when the search was
    /// stopped (it began at seed `first`), how far it got; the exit status.
    fn report(&self, err: &mut dyn Write, first: u64, stopped: bool) -> u8 {
        if let Some(example) = &self.first_failure {
            let _ = writeln!(
                err,
                "dgn find: {} of {} seeds do not resolve (NetHack's loader would abort; they match nothing), e.g. {example}",
                self.failed, self.searched
            );
        }
        if stopped {
            let _ = writeln!(
                err,
                "dgn find: interrupted after {} seeds ({}..{}), {} matched",
                self.searched,
                first,
                first + self.searched,
                self.matched
            );
            return EXIT_INTERRUPTED;
        }
        EXIT_OK
    }
}

fn write_match(
    out: &mut dyn Write,
    finder: &Finder,
    seed: u64,
    format: FindFormat,
) -> std::io::Result<()> {
    match format {
        FindFormat::Text => writeln!(out, "{seed}"),
        FindFormat::Json => {
            let mut line = format!("{{\"seed\":{seed},\"values\":{{");
            // A matching seed resolved once with its facts; it resolved
            // while searching, so it resolves again.
            let values = finder.values(seed).unwrap_or_default();
            for (i, (k, v)) in values.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                line.push_str(&serde_json::Value::from(k.as_str()).to_string());
                line.push(':');
                line.push_str(&v.to_string());
            }
            line.push_str("}}");
            writeln!(out, "{line}")
        }
    }
}

fn write_count(
    out: &mut dyn Write,
    t: &Tally,
    probability: Option<f64>,
    format: FindFormat,
    interrupted: bool,
) -> std::io::Result<()> {
    let fraction = if t.searched == 0 {
        0.0
    } else {
        t.matched as f64 / t.searched as f64
    };
    match format {
        FindFormat::Json => writeln!(
            out,
            "{}",
            serde_json::json!({
                "matched": t.matched,
                "seeds": t.searched,
                "fraction": fraction,
                "failed": t.failed,
                "probability": probability,
                "interrupted": interrupted,
            })
        ),
        FindFormat::Text => {
            writeln!(
                out,
                "{} of {} seeds match ({:.4}%)",
                t.matched,
                t.searched,
                100.0 * fraction
            )?;
            if let Some(p) = probability {
                writeln!(out, "exact probability: {:.4}% (dgn stats)", 100.0 * p)?;
            }
            Ok(())
        }
    }
}
