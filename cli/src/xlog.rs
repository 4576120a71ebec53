//! `dgn xlog`: where each game of an xlogfile ended and whether it could
//! have left bones there. A thin shell over [`dgnkit::xlog`].

use super::input::read_script;
use super::{CommonOpts, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::{Args, ValueEnum};
use dgnkit::options::Target;
use dgnkit::xlog::filter::Filter;
use dgnkit::xlog::reader::{Item, LineStream};
use dgnkit::xlog::{html, Description, Options, Xlog};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum XlogFormat {
    /// The summary (with `--games`, a line per game first).
    Human,
    /// One JSON object per game (or bad line), then `{"summary": {...}}`.
    Json,
    /// The summary as one self-contained page with charts.
    Html,
}

/// `dgn xlog [FILE|-] [OPTIONS]`
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Exit status: 0 every line was read, 1 some lines were bad \
(each is reported with its line number and skipped), 2 usage or I/O error.\n\
`dgn explain xlog` describes the answers and the --where language."
)]
pub struct XlogArgs {
    /// The xlogfile; `-` or nothing reads standard input.
    #[arg(value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Accept only lines of this target (any game but native; a variant's
    /// lines then need no field of its own to tell it); with --file, the
    /// loader that lays the file out (default nethack-3.6).
    #[arg(long, value_parser = super::parse_target)]
    pub target: Option<Target>,
    /// The game that wrote the lines, for a file you know: a game
    /// (`tnnt`, `evilhack`, ...; its release is chosen by each line's
    /// version), a release (`tnnt-2023`, every line answered with it) or a
    /// game answered with the release it was built from (`acehack`).
    /// `--releases` lists them.
    #[arg(long, value_name = "GAME", value_parser = parse_game)]
    pub game: Option<dgnkit::xlog::release::Choice>,
    /// A dungeon description (source or compiled) for every line instead
    /// of the built-in description of each line's release.
    #[arg(long, value_name = "DUNGEON_DESCRIPTION")]
    pub file: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "human")]
    pub format: XlogFormat,
    /// Keep only the games that match, e.g. `role = Val and deathlev > 10`
    /// (`dgn explain xlog`).
    #[arg(long = "where", value_name = "EXPR")]
    pub filter: Option<String>,
    /// Human format: a line per game before the summary.
    #[arg(long)]
    pub games: bool,
    /// Define a %FLAG option for --file (repeatable).
    #[arg(short = 'D', value_name = "FLAG")]
    pub define: Vec<String>,
    /// Undefine a %FLAG option for --file (repeatable).
    #[arg(short = 'U', value_name = "FLAG")]
    pub undefine: Vec<String>,
    /// The variant whose language --file is in (default: the target's).
    #[arg(long, value_parser = super::parse_dialect)]
    pub dialect: Option<dgnkit::dialect::Dialect>,
    /// List the releases whose lines dgnkit answers (each with its
    /// versions, the field that tells it apart and its built-in
    /// description) and read nothing.
    #[arg(long)]
    pub releases: bool,
}

fn parse_game(s: &str) -> Result<dgnkit::xlog::release::Choice, String> {
    dgnkit::xlog::release::Choice::parse(s)
}

/// `--releases`: what `dgn xlog` knows, one release per line, then the
/// games answered with another's release (JSON: one object each).
fn list_releases(format: XlogFormat, out: &mut dyn Write) -> std::io::Result<()> {
    use dgnkit::xlog::identify::STRANGERS;
    use dgnkit::xlog::release::RELEASES;
    if format == XlogFormat::Json {
        for r in RELEASES.iter() {
            let line = serde_json::json!({
                "release": r.name,
                "game": r.family().map(|f| f.name),
                "title": r.title,
                "target": r.target.name(),
                "versions": r.version_list(),
                "told_by": r.family().map(|f| f.tells),
                "builtin": r.builtin.as_ref().map(|b| b.file),
            });
            writeln!(out, "{line}")?;
        }
        for g in STRANGERS {
            let line = serde_json::json!({
                "game": g.name,
                "title": g.title,
                "answered_with": g.nearest,
                "why": g.why,
            });
            writeln!(out, "{line}")?;
        }
        return Ok(());
    }
    writeln!(
        out,
        "{:<18} {:<28} {:<14} {:<34} built-in description",
        "release", "game", "--target", "versions"
    )?;
    for r in RELEASES.iter() {
        writeln!(
            out,
            "{:<18} {:<28} {:<14} {:<34} {}",
            r.name,
            r.title,
            r.target.name(),
            r.version_list(),
            r.builtin.as_ref().map_or("(needs --file)", |b| b.file)
        )?;
    }
    writeln!(out, "\nhow a line's game is told (before its version):")?;
    for f in dgnkit::xlog::identify::Family::all() {
        writeln!(out, "  {:<12} {}", f.name, f.tells)?;
    }
    writeln!(
        out,
        "\ngames dgnkit does not describe, answered with the release they were built from (each line says so):"
    )?;
    for g in STRANGERS {
        writeln!(
            out,
            "  {:<12} {} -> {}: {}",
            g.name, g.title, g.nearest, g.why
        )?;
    }
    writeln!(
        out,
        "\nA release of a known game that is not listed is answered with the nearest listed release of that game, and its lines say so."
    )?;
    Ok(())
}

pub fn parse_args<I, T>(argv: I) -> Result<XlogArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::input::parse_command("xlog", argv)
}

pub fn run(args: XlogArgs) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let stderr = std::io::stderr();
    let color = super::check::use_color(stderr.is_terminal());
    let code = match &args.input {
        _ if args.releases => execute(&args, std::io::empty(), &mut out, &mut stderr.lock(), color),
        Some(p) if p.as_os_str() != "-" => match std::fs::File::open(p) {
            Ok(f) => execute(&args, f, &mut out, &mut stderr.lock(), color),
            Err(e) => {
                eprintln!("dgn xlog: cannot read `{}`: {e}", p.display());
                EXIT_USAGE
            }
        },
        _ => execute(
            &args,
            std::io::stdin().lock(),
            &mut out,
            &mut stderr.lock(),
            color,
        ),
    };
    // A closed pipe is no error of the input.
    let _ = out.flush();
    ExitCode::from(code)
}

/// The command on explicit streams; returns the exit status.
pub fn execute(
    args: &XlogArgs,
    input: impl Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
    color: bool,
) -> u8 {
    if args.releases {
        return match list_releases(args.format, out) {
            Ok(()) => EXIT_OK,
            Err(e) => {
                let _ = writeln!(err, "dgn xlog: {e}");
                EXIT_USAGE
            }
        };
    }
    let filter = match args.filter.as_deref().map(Filter::parse) {
        None => None,
        Some(Ok(f)) => Some(f),
        Some(Err(e)) => {
            let _ = writeln!(err, "dgn xlog: --where {e}");
            return EXIT_USAGE;
        }
    };
    let file = match &args.file {
        None => None,
        Some(p) => {
            let common = CommonOpts {
                target: args.target,
                define: args.define.clone(),
                undefine: args.undefine.clone(),
                dialect: args.dialect,
            };
            match read_script(Some(p), &common, "xlog", err, color) {
                Ok(i) => Some(Description {
                    name: i.name,
                    script: i.script,
                    target: i.target,
                }),
                Err(code) => return code,
            }
        }
    };
    if let (Some(dgnkit::xlog::release::Choice::Release(r)), Some(t)) = (args.game, args.target) {
        if r.target != t {
            let _ = writeln!(
                err,
                "dgn xlog: --game {} is laid out by {}, not the --target {}",
                r.name,
                r.target.name(),
                t.name()
            );
            return EXIT_USAGE;
        }
    }
    let mut x = Xlog::new(Options {
        target: args.target,
        game: args.game,
        file,
        filter,
    });
    let mut stream = LineStream::new(input);
    // Lines are gathered and written some 64 KiB at a time.
    const FLUSH: usize = 1 << 16;
    let mut buf: Vec<u8> = Vec::with_capacity(FLUSH + 4096);
    let json = args.format == XlogFormat::Json;
    loop {
        let item = match stream.next_item() {
            Ok(Some(item)) => item,
            Ok(None) => break,
            Err(e) => {
                let _ = out.write_all(&buf);
                let _ = writeln!(
                    err,
                    "dgn xlog: read error after line {}: {e}",
                    stream.lines()
                );
                return EXIT_USAGE;
            }
        };
        let result = match item {
            Item::Line(l) => x.read(l.number, l.bytes),
            Item::TooLong { number } => Err(x.too_long(number)),
        };
        match result {
            Ok(Some(g)) => {
                if json {
                    x.json(&g, &mut buf);
                    buf.push(b'\n');
                } else if args.games {
                    buf.extend_from_slice(x.human(&g).as_bytes());
                    buf.push(b'\n');
                }
            }
            Ok(None) => {}
            Err(bad) => {
                if json {
                    buf.extend_from_slice(b"{\"line\":");
                    buf.extend_from_slice(bad.line.to_string().as_bytes());
                    buf.extend_from_slice(b",\"error\":");
                    dgnkit::xlog::json::string_bytes(&mut buf, bad.error.as_bytes());
                    buf.extend_from_slice(b"}\n");
                } else {
                    // In order with the games already gathered.
                    if out.write_all(&buf).is_err() {
                        return EXIT_OK;
                    }
                    buf.clear();
                    let _ = out.flush();
                    let _ = writeln!(err, "dgn xlog: line {}: {}", bad.line, bad.error);
                }
            }
        }
        if buf.len() >= FLUSH {
            if out.write_all(&buf).is_err() {
                // A closed pipe: nothing more to say.
                return EXIT_OK;
            }
            buf.clear();
        }
    }
    if out.write_all(&buf).is_err() {
        return EXIT_OK;
    }
    let summary = x.summary();
    if args.format == XlogFormat::Json {
        // The human summary says it in its text.
        for u in &summary.unknown_fields {
            let _ = writeln!(err, "dgn xlog: warning: {}", u.message());
        }
    }
    let _ = match args.format {
        XlogFormat::Json => {
            let s = serde_json::json!({ "summary": summary });
            writeln!(out, "{s}")
        }
        XlogFormat::Human => write!(out, "{}", summary.human()),
        XlogFormat::Html => {
            let title = match &args.input {
                Some(p) if p.as_os_str() != "-" => format!("Deaths in {}", p.display()),
                _ => "Deaths in an xlogfile".to_string(),
            };
            write!(out, "{}", html::page(&summary, &title))
        }
    };
    if summary.bad_lines > 0 {
        if !json {
            let _ = writeln!(
                err,
                "dgn xlog: {} bad line{} skipped",
                summary.bad_lines,
                if summary.bad_lines == 1 { "" } else { "s" }
            );
        }
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}
