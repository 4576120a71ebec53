//! `dgn diff OLD NEW`: what a change to a description does to the game.
//! Both files' statistics are computed as `dgn stats` computes them, then
//! compared item by item ([`dgnkit::stats::diff`]); `--fail-on` turns the
//! comparison into a verdict for a maintainer's CI.

use super::input::{read_script, Input};
use super::stats::ComputeOpts;
use super::{CommonOpts, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::{Args, ValueEnum};
use dgnkit::dialect::Dialect;
use dgnkit::options::Target;
use dgnkit::stats::diff::{self, Described, Diff, Threshold};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffFormat {
    /// A table, largest change first.
    Human,
    Json,
    /// A web page drawing each changed distribution, OLD against NEW.
    Html,
}

/// `dgn diff [OPTIONS] OLD NEW`
#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// `--target`, `--dialect`, `-D` and `-U` apply to both files.
    #[command(flatten)]
    pub common: CommonOpts,
    /// OLD's game, when it differs from NEW's (default: --target, or what
    /// a compiled file's header states).
    #[arg(long, value_parser = super::parse_target)]
    pub old_target: Option<Target>,
    /// NEW's game (default: --target, or a compiled file's header).
    #[arg(long, value_parser = super::parse_target)]
    pub new_target: Option<Target>,
    /// OLD's dialect (default: --dialect, else its game's).
    #[arg(long, value_parser = super::parse_dialect)]
    pub old_dialect: Option<Dialect>,
    /// NEW's dialect (default: --dialect, else its game's).
    #[arg(long, value_parser = super::parse_dialect)]
    pub new_dialect: Option<Dialect>,
    #[command(flatten)]
    pub compute: ComputeOpts,
    /// List the unchanged items too (and every distribution of each item).
    #[arg(long)]
    pub all: bool,
    /// Exit with status 1 when NEW crosses a threshold (repeatable or
    /// comma-separated): `failure` (NEW's loader can fail),
    /// `failure-increase` (more often than OLD's), `removed` or `added` (a
    /// dungeon, special level or branch one side can have and the other
    /// never has), `tvd=X` (an item's total variation distance above X,
    /// 0 to 1) or `KIND-tvd=X` for one kind (failure, dungeon, level,
    /// branch, bones).
    #[arg(long, value_delimiter = ',', value_parser = Threshold::parse, value_name = "THRESHOLD")]
    pub fail_on: Vec<Threshold>,
    #[arg(long, value_enum, default_value = "human")]
    pub format: DiffFormat,
    /// The description before the change: dungeon.def, dungeon.lua or a
    /// compiled file (`-` reads standard input).
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The description after the change.
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
}

/// Parses `dgn diff` arguments (`argv[0]` is the command name).
pub fn parse_args<I, T>(argv: I) -> Result<DiffArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::input::parse_command("diff", argv)
}

pub fn run(args: DiffArgs) -> ExitCode {
    super::input::on_std_streams(|out, err, tty| {
        execute(&args, out, err, super::check::use_color(tty))
    })
}

/// One threshold and what crosses it, in the JSON output.
#[derive(Serialize)]
struct Crossing {
    threshold: String,
    crossed_by: Vec<String>,
}

#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    diff: &'a Diff,
    fail_on: &'a [Crossing],
    /// Every line and cell the human table prints, for a page or a tool
    /// that draws the table itself (`dgn serve`'s Diff view).
    table: TableJson,
}

/// [`dgnkit::views::diff::Table`] in the JSON output.
#[derive(Serialize)]
struct TableJson {
    head: Vec<String>,
    rows: Vec<RowJson>,
    rules: Vec<RuleJson>,
    failures: Vec<String>,
}

#[derive(Serialize)]
struct RowJson {
    /// The item's index in `changes`.
    index: usize,
    item: String,
    /// The aspect, as `changes[index].aspects[].what` names it.
    what: dgnkit::stats::diff::What,
    /// The aspect as the table prints it (`top depth`).
    label: &'static str,
    old: String,
    new: String,
    change: String,
    tvd: String,
}

#[derive(Serialize)]
struct RuleJson {
    rule: u8,
    says: &'static str,
}

impl From<dgnkit::views::diff::Table> for TableJson {
    fn from(t: dgnkit::views::diff::Table) -> TableJson {
        TableJson {
            head: t.head,
            rows: t
                .rows
                .into_iter()
                .map(|r| RowJson {
                    index: r.index,
                    item: r.item,
                    what: r.what,
                    label: r.what.label(),
                    old: r.old,
                    new: r.new,
                    change: r.change,
                    tvd: r.tvd,
                })
                .collect(),
            rules: t
                .rules
                .into_iter()
                .map(|(rule, says)| RuleJson { rule, says })
                .collect(),
            failures: t.failures,
        }
    }
}

/// The command on explicit streams; returns the exit status.
pub fn execute(args: &DiffArgs, out: &mut dyn Write, err: &mut dyn Write, color: bool) -> u8 {
    if args.old.as_os_str() == "-" && args.new.as_os_str() == "-" {
        let _ = writeln!(
            err,
            "dgn diff: OLD and NEW cannot both be standard input; give at least one file"
        );
        return EXIT_USAGE;
    }
    let side = |target: Option<Target>, dialect: Option<Dialect>| CommonOpts {
        target: target.or(args.common.target),
        dialect: dialect.or(args.common.dialect),
        ..args.common.clone()
    };
    let sides = [
        (&args.old, side(args.old_target, args.old_dialect)),
        (&args.new, side(args.new_target, args.new_dialect)),
    ];
    // Both files are read before either stops the command, so that one
    // run reports the mistakes of both.
    let inputs: Vec<Result<Input, u8>> = sides
        .iter()
        .map(|(file, common)| read_script(Some(file), common, "diff", err, color))
        .collect();
    let mut read = Vec::with_capacity(2);
    let mut code = EXIT_OK;
    for input in inputs {
        match input {
            Ok(i) => read.push(i),
            Err(c) => code = code.max(c),
        }
    }
    if code != EXIT_OK {
        return code;
    }
    let note = args.format != DiffFormat::Json;
    let mut stats = Vec::with_capacity(2);
    for (input, (_, common)) in read.iter().zip(&sides) {
        match args
            .compute
            .compute("diff", input, common.target, note, err)
        {
            Ok(s) => stats.push(s),
            Err(c) => return c,
        }
    }
    let [old, new] = [0, 1].map(|i| Described {
        file: &read[i].name,
        target: read[i].target.name(),
        stats: &stats[i],
    });
    let mut diff = diff::compare(old, new);
    let crossings: Vec<Crossing> = args
        .fail_on
        .iter()
        .map(|t| Crossing {
            threshold: t.name(),
            crossed_by: t.crossed(&diff),
        })
        .collect();
    if !args.all {
        diff.retain_changed();
    }
    let text = match args.format {
        DiffFormat::Human => dgnkit::views::diff::human(&diff, args.all),
        DiffFormat::Html => dgnkit::views::diff::html(&diff, args.all),
        DiffFormat::Json => {
            let report = Report {
                diff: &diff,
                fail_on: &crossings,
                table: dgnkit::views::diff::table(&diff, args.all).into(),
            };
            match serde_json::to_string(&report) {
                Ok(s) => s + "\n",
                Err(e) => {
                    let _ = writeln!(err, "dgn diff: cannot write JSON: {e}");
                    return EXIT_USAGE;
                }
            }
        }
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_USAGE;
    }
    let mut crossed = false;
    for c in crossings.iter().filter(|c| !c.crossed_by.is_empty()) {
        crossed = true;
        for what in &c.crossed_by {
            let _ = writeln!(err, "dgn diff: --fail-on {}: {what}", c.threshold);
        }
    }
    if crossed {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}
