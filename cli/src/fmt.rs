//! `dgn fmt`: rewrites files in NetHack's own layout (aligned columns,
//! comments and `%FLAG` prefixes kept; see `dgnkit::grammar::format`); a
//! `dungeon.lua` is re-indented, its layout kept (see `dgnkit::lua::format`).
//! Formatting keeps the statement sequence, so the compiled bytes never
//! change. A file with syntax errors is left alone and its errors shown.

use super::check::use_color;
use super::compile::{write_output, Output};
use super::input::read_input;
use super::{OutputFormat, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::Args;
use dgnkit::grammar::format::format;
use dgnkit::grammar::ParseOptions;
use dgnkit::render;
use std::path::PathBuf;
use std::process::ExitCode;

/// `dgn fmt [--check] [-D FLAG]... [-U FLAG]... [--format human|short|json] FILE...`
#[derive(Args, Debug, Clone)]
pub struct FmtArgs {
    /// Change nothing: list the files that are not formatted and exit 1
    /// when there is one.
    #[arg(long)]
    pub check: bool,
    /// Define a %FLAG option (repeatable): decides which lines are
    /// statements, as in `dgn check`.
    #[arg(short = 'D', value_name = "FLAG")]
    pub define: Vec<String>,
    /// Undefine a %FLAG option (repeatable).
    #[arg(short = 'U', value_name = "FLAG")]
    pub undefine: Vec<String>,
    /// How to report: human, short or json.
    #[arg(long, value_enum, default_value = "human")]
    pub format: OutputFormat,
    /// Files to format in place (`-`: standard input to standard output).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
}

/// What happened to one file.
enum Outcome {
    Unchanged,
    /// Reformatted (or, with `--check`, would be).
    Changed,
    /// Not formatted: syntax errors.
    Errors(Vec<dgnkit::grammar::Diagnostic>, Vec<u8>),
}

pub fn run(args: FmtArgs) -> ExitCode {
    let opts = ParseOptions {
        defines: args.define.clone(),
        undefines: args.undefine.clone(),
    };
    let mut results: Vec<(String, Outcome)> = Vec::new();
    let mut io_failed = false;
    for path in &args.files {
        let name = path.display().to_string();
        let src = match read_input(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("dgn fmt: cannot read `{name}`: {e}");
                io_failed = true;
                continue;
            }
        };
        let stdin = path.as_os_str() == "-";
        let formatted = match dgnkit::frontend::SourceKind::of_file(path, &src) {
            dgnkit::frontend::SourceKind::Lua => dgnkit::lua::format::format(&src),
            dgnkit::frontend::SourceKind::Def => format(&src, &opts),
        };
        let outcome = match formatted {
            Err(diags) => Outcome::Errors(diags, src),
            Ok(out) => {
                let changed = out != src;
                if stdin && !args.check {
                    if let Err(e) = write_output(&Output::Stdout, &out) {
                        eprintln!("dgn fmt: cannot write the output: {e}");
                        io_failed = true;
                    }
                } else if changed && !args.check {
                    if let Err(e) = write_output(&Output::File(path.clone()), &out) {
                        eprintln!("dgn fmt: cannot write `{name}`: {e}");
                        io_failed = true;
                        continue;
                    }
                }
                if changed {
                    Outcome::Changed
                } else {
                    Outcome::Unchanged
                }
            }
        };
        results.push((name, outcome));
    }
    report(&args, &results);
    let errors = results
        .iter()
        .any(|(_, o)| matches!(o, Outcome::Errors(..)));
    let unformatted = args.check && results.iter().any(|(_, o)| matches!(o, Outcome::Changed));
    if io_failed {
        ExitCode::from(EXIT_USAGE)
    } else if errors || unformatted {
        ExitCode::from(EXIT_INPUT)
    } else {
        ExitCode::from(EXIT_OK)
    }
}

fn report(args: &FmtArgs, results: &[(String, Outcome)]) {
    let verb = |o: &Outcome| match o {
        Outcome::Unchanged => "unchanged",
        Outcome::Changed if args.check => "would reformat",
        Outcome::Changed => "reformatted",
        Outcome::Errors(..) => "not formatted: syntax errors",
    };
    match args.format {
        OutputFormat::Json => {
            let files: Vec<serde_json::Value> = results
                .iter()
                .map(|(name, o)| {
                    let diagnostics = match o {
                        Outcome::Errors(d, src) => {
                            render::json_file(name, src, d)["diagnostics"].clone()
                        }
                        _ => serde_json::json!([]),
                    };
                    serde_json::json!({
                        "file": name,
                        "status": match o {
                            Outcome::Unchanged => "unchanged",
                            Outcome::Changed if args.check => "unformatted",
                            Outcome::Changed => "formatted",
                            Outcome::Errors(..) => "errors",
                        },
                        "diagnostics": diagnostics,
                    })
                })
                .collect();
            println!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({ "files": files }))
                    .unwrap_or_default()
            );
        }
        OutputFormat::Short | OutputFormat::Human => {
            let color = args.format == OutputFormat::Human
                && use_color(std::io::IsTerminal::is_terminal(&std::io::stderr()));
            for (name, o) in results {
                match o {
                    Outcome::Errors(d, src) => {
                        let text = if args.format == OutputFormat::Short {
                            render::short(name, src, d)
                        } else {
                            render::human(name, src, d, color)
                        };
                        eprint!("{text}");
                        eprintln!("{name}: {}", verb(o));
                    }
                    Outcome::Changed => eprintln!("{name}: {}", verb(o)),
                    Outcome::Unchanged => {}
                }
            }
            let changed = results
                .iter()
                .filter(|(_, o)| matches!(o, Outcome::Changed))
                .count();
            if results.len() > 1 || args.check {
                eprintln!(
                    "{} file{} {}, {} unchanged",
                    changed,
                    if changed == 1 { "" } else { "s" },
                    if args.check {
                        "to reformat"
                    } else {
                        "reformatted"
                    },
                    results
                        .iter()
                        .filter(|(_, o)| matches!(o, Outcome::Unchanged))
                        .count()
                );
            }
        }
    }
}
