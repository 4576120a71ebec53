//! `dgn compile`: check a dungeon.def file and write the compiled script for
//! NetHack 3.4.3, NetHack 3.6 or dgnkit's native format. Nothing is written
//! when the file has errors.

use super::check::{use_color, LintOpts};
use super::input::read_input;
use super::{CommonOpts, OutputFormat, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::Args;
use dgnkit::binary::{self, WriteOptions};
use dgnkit::frontend::{analyze_verdict_as, SourceKind};
use dgnkit::render;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `dgn compile [OPTIONS] FILE [-o OUT]`
#[derive(Args, Debug, Clone)]
pub struct CompileArgs {
    #[command(flatten)]
    pub common: CommonOpts,
    #[command(flatten)]
    pub lints: LintOpts,
    /// Copy the version header from this compiled file (for a game built
    /// with other options than the default ones).
    #[arg(long, value_name = "FILE")]
    pub header_from: Option<PathBuf>,
    /// How diagnostics are printed (on standard error).
    #[arg(long, value_enum, default_value = "human")]
    pub format: OutputFormat,
    /// Output file; `-` for standard output. Default: the input's name
    /// without its extension (`dungeon.def` -> `dungeon`).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The dungeon.def file (`-` reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Where the compiled bytes go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Stdout,
    File(PathBuf),
}

/// The default output for an input: its name without the extension.
/// Standard input goes to standard output.
pub fn default_output(input: &Path) -> Result<Output, String> {
    if input.as_os_str() == "-" {
        return Ok(Output::Stdout);
    }
    if input.extension().is_none() {
        return Err(format!(
            "`{}` has no extension, so the default output name would be the input itself; give one with -o",
            input.display()
        ));
    }
    Ok(Output::File(input.with_extension("")))
}

/// Whether `header` (a compiled file) can give its version header to a
/// file for `target`.
pub fn header_fits(header: &[u8], target: dgnkit::options::Target) -> Result<(), String> {
    let wanted = match target.game().binary {
        Some(f) if f != binary::BinaryFormat::Native => f,
        _ => {
            return Err(format!(
                "a version header applies only to a game's own compiled layout, which --target {} does not write",
                target.name()
            ))
        }
    };
    match binary::detect(header) {
        Ok(found) if found == wanted => Ok(()),
        Ok(found) => Err(format!(
            "that is a {found} file; a {wanted} file needs the header of a {wanted} file"
        )),
        Err(e) => Err(format!("that is not a compiled dungeon file ({e})")),
    }
}

/// Writes `bytes` to `out`: through a temporary file and a rename, so a
/// failed write never leaves a half-written script behind.
pub fn write_output(out: &Output, bytes: &[u8]) -> std::io::Result<()> {
    match out {
        Output::Stdout => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(bytes)?;
            stdout.flush()
        }
        Output::File(path) => {
            let mut tmp = path.as_os_str().to_owned();
            tmp.push(".dgnkit-tmp");
            let tmp = PathBuf::from(tmp);
            if let Err(e) = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path)) {
                let _ = std::fs::remove_file(&tmp);
                return Err(e);
            }
            Ok(())
        }
    }
}

pub fn run(args: CompileArgs) -> ExitCode {
    if let Some(msg) = args.lints.unknown_error("compile") {
        eprintln!("{msg}");
        return ExitCode::from(EXIT_USAGE);
    }
    let output = match &args.output {
        Some(p) if p.as_os_str() == "-" => Output::Stdout,
        Some(p) => Output::File(p.clone()),
        None => match default_output(&args.file) {
            Ok(o) => o,
            Err(msg) => {
                eprintln!("dgn compile: {msg}");
                return ExitCode::from(EXIT_USAGE);
            }
        },
    };
    let header = match &args.header_from {
        None => None,
        Some(p) => match std::fs::read(p) {
            Ok(b) => Some(b),
            Err(e) => {
                eprintln!("dgn compile: cannot read `{}`: {e}", p.display());
                return ExitCode::from(EXIT_USAGE);
            }
        },
    };
    if let Some(h) = &header {
        if let Err(msg) = header_fits(h, args.common.target()) {
            eprintln!("dgn compile: --header-from: {msg}");
            return ExitCode::from(EXIT_USAGE);
        }
    }
    let name = args.file.display().to_string();
    let src = match read_input(&args.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("dgn compile: cannot read `{name}`: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let opts = args.common.check_options(args.lints.levels());
    let kind = SourceKind::of_file(&args.file, &src);
    let analysis = analyze_verdict_as(kind, &src, &opts);
    let report = match args.format {
        OutputFormat::Human => render::human(
            &name,
            &src,
            &analysis.diagnostics,
            use_color(std::io::stderr().is_terminal()),
        ),
        OutputFormat::Short => render::short(&name, &src, &analysis.diagnostics),
        OutputFormat::Json => format!(
            "{}\n",
            render::json(vec![render::json_file(&name, &src, &analysis.diagnostics)])
        ),
    };
    if !report.is_empty() {
        let _ = std::io::stderr().write_all(report.as_bytes());
    }
    let Some(script) = analysis.script else {
        if args.format != OutputFormat::Json {
            eprintln!(
                "dgn compile: `{name}` not compiled: {}",
                dgnkit::check::plural(analysis.error_count() as u64, "error")
            );
        }
        return ExitCode::from(EXIT_INPUT);
    };
    let wopts = WriteOptions {
        header_from: header.as_deref(),
        dialect: opts.dialect.name(),
    };
    let bytes = match binary::write_with(&script, opts.target, &wopts) {
        Ok(b) => b,
        Err(e) => {
            eprintln!(
                "dgn compile: `{name}` cannot be written for {}: {e}",
                opts.target.name()
            );
            return ExitCode::from(EXIT_INPUT);
        }
    };
    if let Err(e) = write_output(&output, &bytes) {
        let shown = match &output {
            Output::Stdout => "standard output".to_string(),
            Output::File(p) => format!("`{}`", p.display()),
        };
        eprintln!("dgn compile: cannot write {shown}: {e}");
        return ExitCode::from(EXIT_USAGE);
    }
    ExitCode::from(EXIT_OK)
}
