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
use dgnkit::rng::RngKind;
use dgnkit::stats::{self, chart, Approach, Dist, Method, Stats, StatsOptions};
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
    #[arg(long, value_enum, default_value = "human")]
    pub format: StatsFormat,
    /// A dungeon.def or compiled file (`-` reads standard input); default:
    /// the built-in description of the target's game (NetHack 3.6's without
    /// --target; `corpus/` holds them all).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
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
    let Input {
        name,
        script,
        target,
        rng,
    } = match read_script(args.file.as_ref(), &args.common, "stats", err, color) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let inputs = match super::input::loader_inputs(
        "stats",
        &args.loader,
        args.wizard,
        args.common.target,
        err,
    ) {
        Ok(i) => i,
        Err(code) => return code,
    };
    // What the loader finds wrong with the file is part of the statistics
    // (the failure probability); only a refused game or input ends here.
    if let Err(code) = super::input::game_resolver("stats", &script, target, &inputs, err) {
        return code;
    }
    let opts = StatsOptions {
        game: target.game().loader_game(),
        wizard: args.wizard,
        bones: super::bones::bones_options(
            target,
            args.portal_levels.as_ref(),
            args.loader.role.as_ref(),
        ),
        inputs,
        approach: if args.sample {
            Approach::Sampled
        } else if args.exact {
            Approach::Exact
        } else {
            Approach::Auto
        },
        samples: args.samples.max(1),
        first_seed: args.first_seed,
        rng: Some(args.rng.unwrap_or(rng)),
        budget: dgnkit::stats::Budget {
            placement_nodes: args.max_search_states,
            ..dgnkit::stats::Budget::default()
        },
    };
    let stats = if args.exact {
        match stats::exact(&script, &opts) {
            Ok(s) => s,
            Err(e) => {
                let _ = writeln!(
                    err,
                    "dgn stats: `{name}`: {} (drop --exact to sample instead)",
                    e.what
                );
                return EXIT_INPUT;
            }
        }
    } else {
        stats::compute(&script, &opts)
    };
    if let Method::Sampled {
        reason, samples, ..
    } = &stats.method
    {
        if !args.sample && args.format != StatsFormat::Json {
            let _ = writeln!(
                err,
                "dgn stats: {reason}; estimating over {samples} seeds instead"
            );
        }
    }
    let title = format!(
        "{name}: {} loader{}",
        target.name(),
        if args.wizard { ", wizard mode" } else { "" }
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

pub(crate) fn pct(p: f64) -> String {
    let v = p * 100.0;
    if v == 0.0 {
        "0%".into()
    } else if v < 0.1 {
        format!("{v:.1e}%")
    } else if v > 99.9 && v < 100.0 {
        format!("{v:.3}%")
    } else if (v - v.round()).abs() < 0.05 {
        format!("{}%", v.round())
    } else {
        format!("{v:.1}%")
    }
}

/// "25-29, mean 27.0" or "12" or "-".
fn summary(d: &Dist) -> String {
    let (Some((&lo, _)), Some((&hi, _))) = (d.iter().next(), d.iter().next_back()) else {
        return "-".into();
    };
    if lo == hi {
        return lo.to_string();
    }
    let mean: f64 = d.iter().map(|(&k, &p)| f64::from(k) * p).sum();
    format!("{lo}..{hi}, mean {mean:.1}")
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

fn table(rows: &[Vec<String>], right: &[bool]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut s = String::new();
    for r in rows {
        let mut line = String::from("  ");
        for (c, cell) in r.iter().enumerate() {
            let w = widths[c];
            let pad = w.saturating_sub(cell.chars().count());
            if right.get(c).copied().unwrap_or(false) {
                line += &" ".repeat(pad);
                line += cell;
            } else {
                line += cell;
                line += &" ".repeat(pad);
            }
            line += "  ";
        }
        s += line.trim_end();
        s.push('\n');
    }
    s
}

fn row(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|s| (*s).to_string()).collect()
}

/// The human tables.
pub fn human(s: &Stats, title: &str) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{title}");
    let _ = writeln!(o, "{}", chart::method_line(&s.method));
    let _ = writeln!(o, "All probabilities are over layouts that load; distributions are given that the thing exists.\n");
    let _ = writeln!(o, "Loader failure: {}", pct(s.failure));
    for f in &s.failures {
        let place = [f.dungeon.as_deref(), f.level.as_deref()]
            .iter()
            .flatten()
            .map(|x| format!("\"{x}\""))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = writeln!(
            o,
            "  {} {place}: {}\n    e.g. {}",
            f.code,
            pct(f.probability),
            f.example
        );
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
