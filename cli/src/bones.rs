//! `dgn bones`: which levels can leave and load bones files.
//!
//! With `--seed`, for every level of every dungeon of that seed's layout:
//! the verdict, the rule that decides it, the chance of leaving bones on
//! death and the bones file name. Without it, the verdict per special level
//! and per dungeon over every layout the loader can produce.

use super::input::{read_script, Input};
use super::stats::pct;
use super::{CommonOpts, LoaderOpts, OutputFormat, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::Args;
use dgnkit::bones::{self, BonesOptions, StaticReport};
use dgnkit::rng::RngKind;
use dgnkit::stats::{chart, StatsOptions};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// `dgn bones [OPTIONS] [FILE]`
#[derive(Args, Debug, Clone)]
pub struct BonesArgs {
    #[command(flatten)]
    pub common: CommonOpts,
    /// Set by `dgn serve` to stop a computation whose time has run out.
    #[arg(skip)]
    pub stop: dgnkit::stats::Stop,
    /// `--role` also names the Quest's bones files (without it they have
    /// `*` for the role code).
    #[command(flatten)]
    pub loader: LoaderOpts,
    /// The seed whose layout to judge; without it, the verdicts over every
    /// layout.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Random number generator (default: glibc for nethack-3.4.3, isaac64
    /// otherwise).
    #[arg(long, value_parser = crate::rng_parser())]
    pub rng: Option<RngKind>,
    /// Wizard mode: skip every chance roll.
    #[arg(long)]
    pub wizard: bool,
    /// Special levels whose level file places a magic portal (rule 6),
    /// comma-separated.
    /// Default: the game's (fakewiz1,wizard3 in NetHack 3.4.3 and 3.6).
    #[arg(long, value_delimiter = ',')]
    pub portal_levels: Option<Vec<String>>,
    /// human (default) or json.
    #[arg(long, value_enum, default_value = "human")]
    pub format: OutputFormat,
    /// A dungeon.def or compiled file (`-` reads standard input); default:
    /// the built-in description of the target's game (NetHack 3.6's without
    /// --target; `corpus/` holds them all).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// The game's bones options, with what the command line overrides.
pub(crate) fn bones_options(
    target: dgnkit::options::Target,
    portal_levels: Option<&Vec<String>>,
    role: Option<&String>,
) -> BonesOptions {
    let mut opts = target.game().bones_options();
    if let Some(p) = portal_levels {
        opts.portal_levels = p.clone();
    }
    opts.role = role.cloned();
    opts
}

/// Parses `dgn bones` arguments (`argv[0]` is the command name).
pub fn parse_args<I, T>(argv: I) -> Result<BonesArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::input::parse_command("bones", argv)
}

pub fn run(args: BonesArgs) -> ExitCode {
    super::input::on_std_streams(|out, err, tty| {
        execute(&args, out, err, super::check::use_color(tty))
    })
}

#[derive(Serialize)]
struct LayoutJson<'a> {
    /// What the verdicts cannot know (the game's other tests); absent when
    /// there is nothing to say.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
    levels: &'a [bones::LevelBones],
}

/// The command on explicit streams; returns the exit status.
pub fn execute(args: &BonesArgs, out: &mut dyn Write, err: &mut dyn Write, color: bool) -> u8 {
    if args.format == OutputFormat::Short {
        let _ = writeln!(err, "dgn bones: --format is human or json");
        return EXIT_USAGE;
    }
    let Input {
        name,
        script,
        target,
        rng,
    } = match read_script(args.file.as_ref(), &args.common, "bones", err, color) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let opts = bones_options(
        target,
        args.portal_levels.as_ref(),
        args.loader.role.as_ref(),
    );
    let inputs = match super::input::loader_inputs(
        "bones",
        &args.loader,
        args.wizard,
        args.common.target,
        err,
    ) {
        Ok(i) => i,
        Err(code) => return code,
    };
    // The same loader answers for one seed and for every layout: refused
    // alike when it is not the game's.
    let resolver = match super::input::game_resolver("bones", &script, target, &inputs, err) {
        Err(code) => return code,
        Ok(Ok(r)) => Some(r),
        Ok(Err(e)) => {
            if args.seed.is_some() {
                let _ = writeln!(err, "dgn bones: `{name}`: {e}");
                return EXIT_INPUT;
            }
            None
        }
    };
    let text = match args.seed {
        Some(seed) => {
            let rng = args.rng.unwrap_or(rng);
            let Some(resolver) = resolver else {
                return EXIT_INPUT;
            };
            let layout = match resolver.resolve(seed, rng, args.wizard, false) {
                Ok(l) => l,
                Err(e) => {
                    let _ = writeln!(err, "dgn bones: `{name}`, seed {seed}: {e}");
                    return EXIT_INPUT;
                }
            };
            let rows = bones::layout_verdicts(&layout, &opts);
            let notes = opts.notes();
            if args.format == OutputFormat::Json {
                match serde_json::to_string(&LayoutJson {
                    notes: &notes,
                    levels: &rows,
                }) {
                    Ok(s) => s + "\n",
                    Err(e) => {
                        let _ = writeln!(err, "dgn bones: cannot write JSON: {e}");
                        return EXIT_USAGE;
                    }
                }
            } else {
                layout_human(
                    &rows,
                    &notes,
                    &format!(
                        "{name}, seed {seed} ({}, {} loader)",
                        rng.name(),
                        target.name()
                    ),
                )
            }
        }
        None => {
            let sopts = StatsOptions {
                game: target.game().loader_game(),
                wizard: args.wizard,
                bones: opts,
                inputs,
                stop: args.stop.clone(),
                ..StatsOptions::default()
            };
            let report = bones::static_verdicts(&script, &sopts);
            if args.format == OutputFormat::Json {
                match serde_json::to_string(&report) {
                    Ok(s) => s + "\n",
                    Err(e) => {
                        let _ = writeln!(err, "dgn bones: cannot write JSON: {e}");
                        return EXIT_USAGE;
                    }
                }
            } else {
                static_human(
                    &report,
                    &format!("{name} ({} loader, every layout)", target.name()),
                )
            }
        }
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_USAGE;
    }
    EXIT_OK
}

/// `Note: ...` lines under a title.
fn notes_human(notes: &[String]) -> String {
    notes.iter().map(|n| format!("Note: {n}\n")).collect()
}

fn layout_human(rows: &[bones::LevelBones], notes: &[String], title: &str) -> String {
    let mut o = format!("Bones on {title}\n{}", notes_human(notes));
    let mut current = None;
    for r in rows {
        if current != Some(r.dungeon_index) {
            current = Some(r.dungeon_index);
            let _ = writeln!(o, "\n{}", r.dungeon);
            let _ = writeln!(
                o,
                "  {:>5}  {:>5}  {:<10}  {:<4}  {:>5}  {:<12}  rule",
                "level", "depth", "special", "load", "leave", "file"
            );
        }
        let leave = if r.leave_chance > 0.0 {
            format!("{}/{}", r.verdict.chance.0, r.verdict.chance.1)
        } else {
            "-".into()
        };
        let _ = writeln!(
            o,
            "  {:>5}  {:>5}  {:<10}  {:<4}  {:>5}  {:<12}  {}",
            r.level,
            r.depth,
            r.special.as_deref().unwrap_or(""),
            if r.can_load { "yes" } else { "no" },
            leave,
            r.file.as_deref().unwrap_or("-"),
            r.rule
        );
    }
    o
}

/// ` (rule 3, 4)`, or nothing when no rule decides.
fn rules_note(rules: &[u8]) -> String {
    if rules.is_empty() {
        return String::new();
    }
    let list: Vec<String> = rules.iter().map(u8::to_string).collect();
    format!(" (rule {})", list.join(", "))
}

/// `, exists 75%` for what may not exist.
fn exists_note(exists: f64) -> String {
    if exists < 1.0 {
        format!(", exists {}", pct(exists))
    } else {
        String::new()
    }
}

fn static_human(r: &StaticReport, title: &str) -> String {
    let mut o = format!(
        "Bones verdicts for {title}\n{}\n{}",
        chart::method_line(&r.method),
        notes_human(&r.notes)
    );
    let _ = writeln!(o, "\nSpecial levels (given that they exist)");
    for v in &r.levels {
        let (rules, exists) = (rules_note(&v.rules), exists_note(v.exists));
        let depth = v.depth.map_or_else(String::new, |(a, b)| {
            if a == b {
                format!(", depth {a}")
            } else {
                format!(", depth {a}..{b}")
            }
        });
        let _ = writeln!(
            o,
            "  {:<10} {:<22} {}{rules}{exists}{depth}",
            v.name,
            format!("[{}]", v.dungeon),
            v.verdict.name()
        );
        for reason in &v.reasons {
            let _ = writeln!(o, "      {reason}");
        }
    }
    let _ = writeln!(o, "\nDungeons (their levels)");
    for v in &r.dungeons {
        let (rules, exists) = (rules_note(&v.rules), exists_note(v.exists));
        let _ = writeln!(o, "  {:<24} {}{rules}{exists}", v.name, v.verdict.name());
        for reason in &v.reasons {
            let _ = writeln!(o, "      {reason}");
        }
    }
    o
}
