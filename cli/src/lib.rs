//! The `dgn` command line: argument parsing and dispatch only. Each command's
//! module turns library results into human or JSON output.

#![deny(clippy::unwrap_used)]

pub mod bones;
pub mod check;
pub mod compile;
pub mod convert;
pub mod decompile;
pub mod diff;
pub mod explain;
pub mod find;
pub mod fmt;
mod given;
pub mod input;
pub mod layout;
pub mod lsp;
pub mod replay;
pub mod serve;
pub mod session;
pub mod stats;
pub mod xlog;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

/// Exit status: success.
pub const EXIT_OK: u8 = 0;
/// Exit status: the input has errors.
pub const EXIT_INPUT: u8 = 1;
/// Exit status: usage or I/O error.
pub const EXIT_USAGE: u8 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "dgn",
    version,
    about = "dgnkit: compile, check, lay out and analyse NetHack dungeon.def files"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check files for errors and warnings.
    Check(check::CheckArgs),
    /// Compile a dungeon.def file for a game's own dgn_comp layout or dgnkit's native format.
    Compile(compile::CompileArgs),
    /// Convert between dungeon.def, NetHack 3.7's dungeon.lua and compiled
    /// files (`--to lua|def`); the output loads to the same dungeons.
    Convert(convert::ConvertArgs),
    /// Turn a compiled dungeon file back into dungeon.def text.
    Decompile(decompile::DecompileArgs),
    /// Format files in NetHack's layout (`--check` to verify only).
    Fmt(fmt::FmtArgs),
    /// Explain a diagnostic code or lint (`dgn explain E0406`).
    Explain(explain::ExplainArgs),
    /// Resolve a dungeon for a seed as NetHack's loader does, and show it.
    Layout(layout::LayoutArgs),
    /// Check a Mazes of Menace session file (a recorded game with every
    /// draw) against dgnkit's game start and init_dungeons(), draw for draw.
    Session(session::SessionArgs),
    /// Read a gamelog (`dgn layout --format gamelog`) back and show the
    /// dungeon after any draw.
    Replay(replay::ReplayArgs),
    /// The seeds whose dungeon satisfies a query (`dgn explain find`).
    Find(find::FindArgs),
    /// Which levels can leave and load bones: for one seed's layout, or
    /// over every layout.
    Bones(bones::BonesArgs),
    /// Exact statistics over every layout: where levels end up, how likely
    /// loading fails, which levels can hold bones.
    Stats(stats::StatsArgs),
    /// What a change to a description does: two files' statistics
    /// compared, largest change first (`--fail-on` for CI).
    Diff(diff::DiffArgs),
    /// Run the language server (`dgn-lsp`) over standard input/output.
    Lsp(lsp::LspArgs),
    /// Serve the page and the HTTP API (`/api`) on 127.0.0.1:8080.
    Serve(serve::ServeArgs),
    /// Where each game of an xlogfile ended (dungeon, level, special level)
    /// and whether it could have left bones there.
    Xlog(xlog::XlogArgs),
}

/// Options that mean the same in every command.
#[derive(Args, Debug, Clone, Default)]
pub struct CommonOpts {
    /// The game (`--help` lists every target). It sets the limits, the
    /// compiled layout, the generator, the loader, the bones rules and the
    /// default dialect.
    #[arg(long, value_parser = parse_target, help = target_help())]
    pub target: Option<dgnkit::options::Target>,
    /// Define a %FLAG option (repeatable).
    #[arg(short = 'D', value_name = "FLAG")]
    pub define: Vec<String>,
    /// Undefine a %FLAG option (repeatable).
    #[arg(short = 'U', value_name = "FLAG")]
    pub undefine: Vec<String>,
    /// The variant whose language the file is in (`dgn explain --dialects`);
    /// default: the target's (evilhack for --target evilhack, ...).
    #[arg(long, value_parser = parse_dialect)]
    pub dialect: Option<dgnkit::dialect::Dialect>,
}

impl CommonOpts {
    /// What the frontend checks with: the target, dialect and `%FLAG`s
    /// given here, and the command's lint levels.
    pub fn check_options(&self, lints: dgnkit::lint::LintLevels) -> dgnkit::frontend::CheckOptions {
        dgnkit::frontend::CheckOptions {
            target: self.target(),
            dialect: self.dialect(),
            defines: self.define.clone(),
            undefines: self.undefine.clone(),
            lints,
        }
    }

    /// `--target`, or the default target (nethack-3.6) when none is given.
    pub fn target(&self) -> dgnkit::options::Target {
        self.target.unwrap_or_default()
    }

    /// The dialect: as given, else the one the target's game implies.
    pub fn dialect(&self) -> dgnkit::dialect::Dialect {
        self.dialect.unwrap_or(self.target().game().dialect)
    }
}

/// What a game's loader reads besides the file: the same options for
/// `layout`, `bones` and `stats` (and every command that resolves layouts).
#[derive(Args, Debug, Clone, Default)]
pub struct LoaderOpts {
    /// The hero's role, by NetHack's name or three-letter code (`Valkyrie`
    /// or `Val`).
    #[arg(long, value_name = "ROLE", long_help = loader_help("role", "The hero's role, by NetHack's name or three-letter code (`Valkyrie` or `Val`)."))]
    pub role: Option<String>,
    /// The hero's race, by name or three-letter code (`Drow` or `Dro`).
    #[arg(long, value_name = "RACE", long_help = loader_help("race", "The hero's race, by name or three-letter code (`Drow` or `Dro`)."))]
    pub race: Option<String>,
    /// The hero's gender, as NetHack's options name it (`male`, `fem`,
    /// `random`), for a game start that chooses the hero.
    #[arg(long, value_name = "GENDER", long_help = loader_help("gender", "The hero's gender, as NetHack's options name it (`male`, `female`, `mal`, `fem` or `random`), for a game start that chooses the hero. `random` (also for --role and --race) is chosen as the game does, from the seed."))]
    pub gender: Option<String>,
    /// The hero's alignment, as NetHack's options name it (`lawful`,
    /// `cha`, `random`), for a game start that chooses the hero.
    #[arg(long, value_name = "ALIGN", long_help = loader_help("align", "The hero's alignment, as NetHack's options name it (`lawful`, `neutral`, `chaotic`, their codes or `random`), for a game start that chooses the hero."))]
    pub align: Option<String>,
    /// A game option the loader reads, under the game's own name
    /// (repeatable; e.g. `chaos_quest=temple`).
    #[arg(long = "option", value_name = "NAME=VALUE", long_help = loader_help("option", "A game option the loader reads, under the game's own name (repeatable; e.g. `chaos_quest=temple`)."))]
    pub options: Vec<String>,
    /// Seed as a new game does and make the game's draws before
    /// `init_dungeons()`.
    #[arg(long, long_help = loader_help("game-start", "Seed as a new game does and make the draws the game makes before init_dungeons()."))]
    pub game_start: bool,
}

/// `--target`'s help: every target by name, from [`dgnkit::options::Target`].
fn target_help() -> String {
    use dgnkit::options::Target;
    let names: Vec<String> = Target::ALL
        .into_iter()
        .map(|t| {
            if t == Target::default() {
                format!("{} (default)", t.name())
            } else {
                t.name().to_string()
            }
        })
        .collect();
    let (last, rest) = names
        .split_last()
        .map_or(("", &[][..]), |(l, r)| (l.as_str(), r));
    format!(
        "The game: {} or {last}. It sets the limits, the compiled layout, the generator, the loader, the bones rules and the default dialect. Without it, layout, bones and stats read a compiled NetHack file as the version its header states",
        rest.join(", ")
    )
}

fn loader_help(which: &str, what: &str) -> String {
    format!("{what}\n[{}]", dgnkit::games::input_help(which))
}

impl LoaderOpts {
    /// The library's form; a message when a role, race or option does not
    /// parse.
    /// With `--target`, a role dgnkit does not know is answered with that
    /// game's own roles.
    pub fn inputs(
        &self,
        wizard: bool,
        target: Option<dgnkit::options::Target>,
    ) -> Result<dgnkit::games::LoaderInputs, String> {
        if let (Some(role), Some(game)) = (self.role.as_deref(), target.map(|t| t.game())) {
            let roles = game.inputs.roles;
            if dgnkit::games::role_named(role).is_none()
                && !roles.is_empty()
                && game.inputs.character.is_none()
            {
                return Err(format!(
                    "unknown role `{role}` ({}'s roles, by name or three-letter code: {})",
                    game.title,
                    dgnkit::games::roles::list_of(roles)
                ));
            }
        }
        dgnkit::games::LoaderInputs::parse(
            self.role.as_deref(),
            self.race.as_deref(),
            &self.options,
            self.game_start,
            wizard,
        )
        .map(|i| i.with_character(self.gender.as_deref(), self.align.as_deref()))
    }
}

pub(crate) fn parse_dialect(s: &str) -> Result<dgnkit::dialect::Dialect, String> {
    dgnkit::dialect::Dialect::parse(s).ok_or_else(|| {
        let names: Vec<&str> = dgnkit::dialect::Dialect::ALL
            .iter()
            .map(|d| d.name())
            .collect();
        format!(
            "unknown dialect `{s}` (expected one of: {})",
            names.join(", ")
        )
    })
}

pub fn parse_target(s: &str) -> Result<dgnkit::options::Target, String> {
    dgnkit::options::Target::parse(s).ok_or_else(|| {
        format!(
            "unknown target `{s}` (expected one of: {})",
            dgnkit::options::Target::names()
        )
    })
}

/// `--rng` takes the generators' layout names (`glibc`, `isaac64`,
/// `isaac32`, `mt19937-cokus`), listed in `--help` as possible values.
pub fn rng_parser() -> impl clap::builder::TypedValueParser<Value = dgnkit::rng::RngKind> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(dgnkit::rng::RngKind::ALL.map(|k| k.name())).try_map(
        |name| {
            dgnkit::rng::RngKind::parse(&name).ok_or_else(|| format!("unknown generator `{name}`"))
        },
    )
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
    // One enumeration, then the process exits (`dgnkit::stats::free_aside`).
    if matches!(cli.command, Command::Stats(_) | Command::Bones(_)) {
        dgnkit::stats::free_aside(true);
    }
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Compile(args) => compile::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Decompile(args) => decompile::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Layout(args) => layout::run(args),
        Command::Session(args) => session::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Find(args) => find::run(args),
        Command::Bones(args) => bones::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Xlog(args) => xlog::run(args),
        Command::Serve(args) => serve::run(args),
    }
}
