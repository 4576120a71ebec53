//! `dgn session FILE`: a Mazes of Menace session file (a recording of the
//! C game with every draw of its generator, format v3 or v4, plain or
//! gzipped) checked against dgnkit: the game start and `init_dungeons()`
//! made again for the file's seed, character and mode, and compared with
//! the session's log draw for draw.
//!
//! Exit status: 0 when every draw dgnkit makes is the session's (the
//! layout follows), 1 at the first that differs (shown with a few draws
//! on either side), 2 for a file that is not a session dgnkit reads, or a
//! session of a game dgnkit does not reproduce.

use super::input::{read_input, read_script};
use super::{CommonOpts, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::{Args, ValueEnum};
use dgnkit::options::Target;
use dgnkit::session::compare::{CharacterFrom, DgnkitDraw, Pos, SessionDraw};
use dgnkit::session::read::StepPlace;
use dgnkit::session::{self, GameBy, Report, Session};
use dgnkit::views;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionFormat {
    /// What matched or where the draws part, then the layout as NetHack's
    /// wizard-mode overview.
    Overview,
    /// One JSON object: `match`, the counts, the divergence, the
    /// character and the layout.
    Json,
}

/// `dgn session [OPTIONS] FILE`
#[derive(Args, Debug, Clone)]
pub struct SessionArgs {
    /// The game whose rules answer; default: the one whose C tree the file
    /// names (`recorded_with.nethack_c`), else NetHack 3.7, the game the
    /// format records.
    #[arg(long, value_parser = crate::parse_target)]
    pub target: Option<Target>,
    /// Output format.
    #[arg(long, value_enum, default_value = "overview")]
    pub format: SessionFormat,
    /// A session file, `.json` or `.json.gz` (`-` reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Parses `session`'s arguments (`argv[0]` is the command name).
pub fn parse_args<I, T>(argv: I) -> Result<SessionArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::input::parse_command("session", argv)
}

pub fn run(args: SessionArgs) -> ExitCode {
    super::input::on_std_streams(|out, err, _| execute(&args, out, err))
}

/// The command on explicit streams; returns the exit status.
pub fn execute(args: &SessionArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let name = if args.file.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        args.file.display().to_string()
    };
    let bytes = match read_input(&args.file) {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(err, "dgn session: cannot read `{name}`: {e}");
            return EXIT_USAGE;
        }
    };
    let named_gz = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    let session = match session::read(&bytes, named_gz) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "dgn session: `{name}`: {e}");
            return EXIT_USAGE;
        }
    };
    let refused = |err: &mut dyn Write, e: &dyn std::fmt::Display| {
        let _ = writeln!(err, "dgn session: `{name}`: {e}");
        EXIT_USAGE
    };
    let (target, by) = match session::game_of(&session, args.target) {
        Ok(g) => g,
        Err(e) => return refused(err, &e),
    };
    let common = CommonOpts {
        target: Some(target),
        ..CommonOpts::default()
    };
    let input = match read_script(None, &common, "session", err, false) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let report = match session::check(&session, &input.script, target, by) {
        Ok(r) => r,
        Err(e) => return refused(err, &e),
    };
    let text = match args.format {
        SessionFormat::Overview => human(&name, &session, &report),
        SessionFormat::Json => format!("{}\n", to_json(&name, &session, &report)),
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_USAGE;
    }
    if report.matches() {
        EXIT_OK
    } else {
        EXIT_INPUT
    }
}

fn mode(wizard: bool) -> &'static str {
    if wizard {
        "wizard mode"
    } else {
        "normal mode"
    }
}

/// `a NetHack 3.7 session (format v4, C tree 79c688cc6)`.
fn game_words(session: &Session, report: &Report) -> String {
    let title = report.target.game().title;
    let v = session.version;
    let tree = session
        .nethack_c
        .as_deref()
        .map_or_else(String::new, |t| format!(", C tree {t}"));
    match &report.game_by {
        GameBy::Tree(_) => format!("a {title} session (format v{v}{tree})"),
        GameBy::Format => format!(
            "a {title} session (format v{v}; the file names no C tree, and the format records {title})"
        ),
        GameBy::Asked => format!(
            "a session (format v{v}{tree}) answered as {title}, as --target asks"
        ),
    }
}

fn character_from(session: &Session, from: CharacterFrom) -> String {
    match from {
        CharacterFrom::Options if session.version == 3 => "its options".to_string(),
        CharacterFrom::Options => "its nethackrc".to_string(),
        CharacterFrom::Welcome(place) => format!("the game's welcome, {place}"),
        CharacterFrom::OptionsRole => {
            "its options; the character was chosen in the game, and no screen of the file shows the game's welcome".to_string()
        }
    }
}

fn span(report: &Report) -> String {
    match report.span {
        Some((a, b)) if a.step == b.step => {
            format!("{}, entries {}-{}", a.step, a.index, b.index)
        }
        Some((a, b)) => format!("{a} to {b}"),
        None => "none".to_string(),
    }
}

/// The readable form.
pub fn human(name: &str, session: &Session, report: &Report) -> String {
    let mut s = format!(
        "{name}: {}, seed {}, {}\ncharacter: {} (from {})\n",
        game_words(session, report),
        session.seed,
        mode(session.wizard),
        report.character.describe(),
        character_from(session, report.character_from),
    );
    if report.selection_draws > 0 {
        s += &format!(
            "the character selection drew {} times before the game start (dgnkit does not make those draws; it starts after them)\n",
            report.selection_draws
        );
    }
    if report.matches() {
        let after = report
            .session_draws
            .saturating_sub(report.selection_draws + report.draws);
        s += &format!(
            "{} draws match: the game start and init_dungeons(), {}; the session's other {after} draws come after them (level creation and play), which dgnkit does not make\n\n",
            report.draws,
            span(report),
        );
        if let Some(layout) = &report.layout {
            s += &views::overview(layout, report.target.game().overview);
        }
        return s;
    }
    let Some(d) = &report.divergence else {
        return s;
    };
    let number = report.matched + 1;
    match (&d.session, &d.dgnkit) {
        (Some(theirs), Some(ours)) => {
            s += &format!(
                "the draws diverge at dgnkit's draw {number} of {} ({}); the {} before it match\n  session: {}\n  dgnkit:  {}  ({})\n",
                report.draws, theirs.pos, report.matched, theirs.entry, ours.entry, ours.site
            );
        }
        (None, Some(ours)) => {
            s += &format!(
                "the session's log ends before dgnkit's draw {number} of {}; the {} before it match\n  dgnkit:  {}  ({})\n",
                report.draws, report.matched, ours.entry, ours.site
            );
        }
        (theirs, None) => {
            let why = report
                .failure
                .as_ref()
                .map_or_else(String::new, |e| format!(": {e}"));
            s += &format!(
                "dgnkit's loader stops after {} draws, all the session's{why}\n",
                report.matched
            );
            if let Some(t) = theirs {
                s += &format!("  session: {} ({})\n", t.entry, t.pos);
            }
        }
    }
    s += "\nthe session's draws there:\n";
    for t in &d.session_context {
        let mark = if d.session.as_ref() == Some(t) {
            ">"
        } else {
            " "
        };
        s += &format!("  {mark} {:<22} {}\n", t.pos.to_string(), t.entry);
    }
    s += "dgnkit's:\n";
    for o in &d.dgnkit_context {
        let mark = if d.dgnkit.as_ref() == Some(o) {
            ">"
        } else {
            " "
        };
        s += &format!(
            "  {mark} {:<22} {}  ({})\n",
            format!("draw {}", o.number),
            o.entry,
            o.site
        );
    }
    s
}

/// A step as JSON: its index in `steps`, or `"startup"`.
fn step_json(place: StepPlace) -> Value {
    match place {
        StepPlace::Startup => json!("startup"),
        StepPlace::Step(i) => json!(i),
    }
}

fn pos_json(p: &Pos) -> Value {
    json!({"step": step_json(p.step), "index": p.index})
}

fn session_draw_json(d: &SessionDraw) -> Value {
    let mut v = pos_json(&d.pos);
    v["entry"] = json!(d.entry);
    v
}

fn dgnkit_draw_json(d: &DgnkitDraw) -> Value {
    json!({"draw": d.number, "entry": d.entry, "site": d.site})
}

/// The JSON form.
pub fn to_json(name: &str, session: &Session, report: &Report) -> Value {
    let c = &report.character;
    let (from, step) = match report.character_from {
        CharacterFrom::Options => ("options", Value::Null),
        CharacterFrom::OptionsRole => ("options-role", Value::Null),
        CharacterFrom::Welcome(place) => ("welcome", step_json(place)),
    };
    let (game_from, tree) = match &report.game_by {
        GameBy::Tree(t) => ("tree", json!(t)),
        GameBy::Format => ("format", Value::Null),
        GameBy::Asked => ("target", Value::Null),
    };
    let divergence = report.divergence.as_ref().map(|d| {
        json!({
            "draw": report.matched + 1,
            "session": d.session.as_ref().map(session_draw_json),
            "dgnkit": d.dgnkit.as_ref().map(dgnkit_draw_json),
            "context": {
                "session": d.session_context.iter().map(session_draw_json).collect::<Vec<_>>(),
                "dgnkit": d.dgnkit_context.iter().map(dgnkit_draw_json).collect::<Vec<_>>(),
            },
        })
    });
    json!({
        "file": name,
        "version": session.version,
        "seed": session.seed,
        "wizard": session.wizard,
        "game": report.target.name(),
        "game_from": game_from,
        "tree": tree,
        "character": {
            "role": c.role, "race": c.race, "gender": c.gender, "align": c.align,
            "from": from, "step": step,
        },
        "match": report.matches(),
        "selection_draws": report.selection_draws,
        "draws": report.draws,
        "matched": report.matched,
        "session_draws": report.session_draws,
        "first": report.span.map(|(a, _)| pos_json(&a)),
        "last": report.span.map(|(_, b)| pos_json(&b)),
        "divergence": divergence,
        "failure": report.failure.as_ref().map(|e| json!({"code": e.code(), "message": e.to_string()})),
        "layout": report.layout.as_ref().and_then(|l| serde_json::to_value(l).ok()),
    })
}
