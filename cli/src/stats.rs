//! `dgn stats`: where every dungeon and special level can end up, how
//! likely each outcome is, how likely the loader is to fail, and which
//! levels can hold bones, over every layout the loader can produce.
//!
//! Exact by enumeration when the file is small enough (every file in the
//! NetHack family is, except a few with many overlapping optional levels);
//! otherwise estimated over many seeds, and the output says so.

use super::input::{read_script, Input};
use super::{CommonOpts, LoaderOpts, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::{Args, ValueEnum};
use dgnkit::options::Target;
use dgnkit::rng::RngKind;
use dgnkit::stats::{self, chart, Approach, Dist, Method, Stats, StatsOptions};
pub(crate) use dgnkit::views::table::percent as pct;
use dgnkit::views::table::{aligned as table, range_mean as summary};
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsFormat {
    /// Tables.
    Human,
    Json,
    /// The depth chart of the special levels.
    Svg,
    /// The depth chart and a table, as a web page.
    Html,
}

/// `dgn stats [OPTIONS] [FILE]`
#[derive(Args, Debug, Clone)]
pub struct StatsArgs {
    #[command(flatten)]
    pub common: CommonOpts,
    #[command(flatten)]
    pub compute: ComputeOpts,
    #[arg(long, value_enum, default_value = "human")]
    pub format: StatsFormat,
    /// A dungeon.def or compiled file (`-` reads standard input); default:
    /// the built-in description of the target's game (NetHack 3.6's without
    /// --target; `corpus/` holds them all).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Every table given what you have seen, in the `dgn find` query
    /// language (`dgn explain find`), e.g. `oracle.depth == 7 and
    /// branch("Sokoban").depth == 8`: exact when the query is an `and` of
    /// conditions each on one level's, dungeon's or branch's existence,
    /// level or depth; otherwise sampled over seeds, as the output says.
    #[arg(long, value_name = "QUERY")]
    pub given: Option<String>,
    /// The same from NetHack's own dungeon overview as a player has it
    /// (`#overview` / Ctrl-O text, or a whole dumplog): each line becomes a
    /// condition; lines that are not evidence are skipped and reported.
    #[arg(long, value_name = "FILE")]
    pub given_overview: Option<PathBuf>,
}

/// How the statistics are computed: what `dgn stats` and `dgn diff` (for
/// each of its two files) take alike.
#[derive(Args, Debug, Clone)]
pub struct ComputeOpts {
    #[command(flatten)]
    pub loader: LoaderOpts,
    /// Wizard mode: no chance rolls (every optional dungeon and level exists).
    #[arg(long)]
    pub wizard: bool,
    /// Special levels whose level file places a magic portal (rule 6 of
    /// the bones rules), comma-separated.
    /// Default: the game's (fakewiz1,wizard3 in NetHack 3.4.3 and 3.6).
    #[arg(long, value_delimiter = ',')]
    pub portal_levels: Option<Vec<String>>,
    /// Sample even when the exact enumeration fits.
    #[arg(long, conflicts_with = "exact")]
    pub sample: bool,
    /// Fail instead of sampling when the exact enumeration is too large.
    #[arg(long)]
    pub exact: bool,
    /// Placement-search states the exact enumeration may memoise before it
    /// gives up (and samples instead); about 5 microseconds each.
    #[arg(long, default_value_t = dgnkit::stats::Budget::default().placement_nodes)]
    pub max_search_states: usize,
    /// Seeds to resolve when sampling.
    #[arg(long, default_value_t = 20_000)]
    pub samples: u64,
    /// First seed when sampling.
    #[arg(long, default_value_t = 0)]
    pub first_seed: u64,
    /// Generator when sampling (default: glibc for nethack-3.4.3, isaac64
    /// otherwise).
    #[arg(long, value_parser = crate::rng_parser())]
    pub rng: Option<RngKind>,
    /// Set by `dgn serve` to stop a computation whose time has run out.
    #[arg(skip)]
    pub stop: dgnkit::stats::Stop,
}

impl ComputeOpts {
    /// The statistics of `input` as `dgn stats` computes them. `explicit`
    /// is the `--target` given, if any (a role is checked against its
    /// game). A game or input the loader refuses is a usage error, and
    /// `--exact` on a file too large an input error: both are reported to
    /// `err` under `cmd`. `note`: say on `err` when sampling answers
    /// because the enumeration is too large.
    pub(crate) fn compute(
        &self,
        cmd: &str,
        input: &Input,
        explicit: Option<Target>,
        note: bool,
        err: &mut dyn Write,
    ) -> Result<Stats, u8> {
        self.compute_given(cmd, input, explicit, note, err, None)
    }

    /// [`Self::compute`] conditioned on `given` (`--given`).
    pub(crate) fn compute_given(
        &self,
        cmd: &str,
        input: &Input,
        explicit: Option<Target>,
        note: bool,
        err: &mut dyn Write,
        given: Option<dgnkit::stats::Given>,
    ) -> Result<Stats, u8> {
        let Input {
            name,
            script,
            target,
            rng,
        } = input;
        let target = *target;
        let inputs = super::input::loader_inputs(cmd, &self.loader, self.wizard, explicit, err)?;
        // What the loader finds wrong with the file is part of the
        // statistics (the failure probability), so the resolver's own
        // answer is not needed here; only a refused game or input ends
        // the command.
        let _loads = super::input::game_resolver(cmd, script, target, &inputs, err)?;
        let opts = StatsOptions {
            game: target.game().loader_game(),
            wizard: self.wizard,
            bones: super::bones::bones_options(
                target,
                self.portal_levels.as_ref(),
                self.loader.role.as_ref(),
            ),
            inputs,
            approach: if self.sample {
                Approach::Sampled
            } else if self.exact {
                Approach::Exact
            } else {
                Approach::Auto
            },
            samples: self.samples.max(1),
            first_seed: self.first_seed,
            rng: Some(self.rng.unwrap_or(*rng)),
            budget: dgnkit::stats::Budget {
                placement_nodes: self.max_search_states,
                ..dgnkit::stats::Budget::default()
            },
            given,
            stop: self.stop.clone(),
        };
        let stats = if self.exact {
            stats::exact(script, &opts).map_err(|e| {
                let _ = writeln!(
                    err,
                    "dgn {cmd}: `{name}`: {} (drop --exact to sample instead)",
                    e.what
                );
                EXIT_INPUT
            })?
        } else {
            stats::compute(script, &opts)
        };
        if let Method::Sampled {
            reason, samples, ..
        } = &stats.method
        {
            if note && !self.sample {
                let _ = writeln!(
                    err,
                    "dgn {cmd}: `{name}`: {reason}; estimating over {samples} seeds instead"
                );
            }
        }
        Ok(stats)
    }
}

/// Parses `dgn stats` arguments (`argv[0]` is the command name).
pub fn parse_args<I, T>(argv: I) -> Result<StatsArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::input::parse_command("stats", argv)
}

pub fn run(args: StatsArgs) -> ExitCode {
    super::input::on_std_streams(|out, err, tty| {
        execute(&args, out, err, super::check::use_color(tty))
    })
}

/// The command on explicit streams; returns the exit status.
pub fn execute(args: &StatsArgs, out: &mut dyn Write, err: &mut dyn Write, color: bool) -> u8 {
    let input = match read_script(args.file.as_ref(), &args.common, "stats", err, color) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let given = match super::given::read(args, &input, err, color) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let stats = match args.compute.compute_given(
        "stats",
        &input,
        args.common.target,
        args.format != StatsFormat::Json,
        err,
        given.as_ref().map(|g| g.given.clone()),
    ) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(g) = &given {
        if let Err(code) = g.check_possible(&args.compute, &input, &stats, err) {
            return code;
        }
    }
    let Input { name, target, .. } = input;
    let title = format!(
        "{name}: {} loader{}",
        target.name(),
        if args.compute.wizard {
            ", wizard mode"
        } else {
            ""
        }
    );
    let text = match args.format {
        StatsFormat::Json => match serde_json::to_string(&stats) {
            Ok(s) => s + "\n",
            Err(e) => {
                let _ = writeln!(err, "dgn stats: cannot write JSON: {e}");
                return EXIT_USAGE;
            }
        },
        StatsFormat::Human => human(&stats, &title),
        StatsFormat::Svg => chart::depth_svg(&stats, &title),
        StatsFormat::Html => chart::depth_html(&stats, &title),
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_USAGE;
    }
    EXIT_OK
}

/// Every value with its probability, when there are few.
fn detail(d: &Dist) -> String {
    if d.len() <= 1 || d.len() > 8 {
        return String::new();
    }
    d.iter()
        .map(|(k, p)| format!("{k}: {}", pct(*p)))
        .collect::<Vec<_>>()
        .join("  ")
}

fn row(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|s| (*s).to_string()).collect()
}

/// The human tables.
pub fn human(s: &Stats, title: &str) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{title}");
    let _ = writeln!(o, "{}", chart::method_line(&s.method));
    if let Some(g) = &s.given {
        let _ = writeln!(o, "Given: {}", g.describe);
        let _ = writeln!(
            o,
            "Probability of the evidence: {} of the layouts that load{}",
            pct(g.p_evidence),
            match (g.matching, g.loaded) {
                (Some(m), Some(l)) => format!(" ({m} of {l} sampled layouts)"),
                _ => String::new(),
            }
        );
        let _ = writeln!(
            o,
            "Every figure below but the loader's failure is given the evidence."
        );
    }
    let _ = writeln!(o, "All probabilities are over layouts that load; distributions are given that the thing exists.\n");
    let _ = writeln!(o, "Loader failure: {}", pct(s.failure));
    for f in &s.failures {
        let _ = writeln!(o, "{}", dgnkit::views::table::failure_line("", f));
    }
    o.push('\n');

    let _ = writeln!(o, "Dungeons");
    let mut rows = vec![row(&[
        "dungeon",
        "exists",
        "levels",
        "depth of top",
        "levels in detail",
    ])];
    for d in &s.dungeons {
        rows.push(vec![
            d.name.clone(),
            pct(d.exists),
            summary(&d.num_levels),
            summary(&d.depth_start),
            detail(&d.num_levels),
        ]);
    }
    o += &table(&rows, &[false, true, false, false, false]);
    o.push('\n');

    let _ = writeln!(o, "Special levels");
    let mut rows = vec![row(&[
        "level",
        "dungeon",
        "exists",
        "level",
        "depth",
        "bones: load",
        "leave",
        "chance",
    ])];
    for l in &s.levels {
        rows.push(vec![
            l.name.clone(),
            l.dungeon.clone(),
            pct(l.exists),
            summary(&l.level),
            summary(&l.depth),
            pct(l.bones.can_load),
            pct(l.bones.can_leave),
            pct(l.bones.leave_chance),
        ]);
    }
    o += &table(&rows, &[false, false, true, false, false, true, true, true]);
    o.push('\n');

    let _ = writeln!(o, "Branches");
    let mut rows = vec![row(&[
        "to",
        "from",
        "exists",
        "level",
        "depth",
        "levels in detail",
    ])];
    for b in &s.branches {
        let to = if b.floating > 0.0 {
            format!("{} (floating entrance)", b.to)
        } else {
            b.to.clone()
        };
        rows.push(vec![
            to,
            b.from.clone(),
            pct(b.exists),
            summary(&b.level),
            summary(&b.depth),
            detail(&b.level),
        ]);
    }
    o += &table(&rows, &[false, false, true, false, false, false]);
    o.push('\n');

    let _ = writeln!(o, "Bones per level (given that the level exists)");
    let mut rows = vec![row(&[
        "dungeon",
        "level",
        "exists",
        "can load",
        "can leave",
        "chance",
        "decided by rule",
    ])];
    for c in &s.bones {
        let decided = c
            .bones
            .decided_by
            .iter()
            .map(|(r, p)| format!("{r}: {}", pct(*p)))
            .collect::<Vec<_>>()
            .join("  ");
        rows.push(vec![
            c.dungeon.clone(),
            c.level.to_string(),
            pct(c.exists),
            pct(c.bones.can_load),
            pct(c.bones.can_leave),
            pct(c.bones.leave_chance),
            decided,
        ]);
    }
    o += &table(&rows, &[false, true, true, true, true, true, false]);
    o
}
