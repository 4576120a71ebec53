//! `dgn convert --to lua|def FILE [-o OUT]`: a thin shell over
//! [`dgnkit::convert`].

use super::check::use_color;
use super::compile::{write_output, Output};
use super::input::read_input;
use super::{CommonOpts, OutputFormat, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::{Args, ValueEnum};
use dgnkit::frontend::SourceKind;
use dgnkit::render;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// The language to write.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// NetHack 3.7's dungeon.lua.
    Lua,
    /// dgn_comp's dungeon.def.
    Def,
}

/// `dgn convert --to lua|def [--format human|json] FILE [-o OUT]`
#[derive(Args, Debug, Clone)]
pub struct ConvertArgs {
    /// The language to write.
    #[arg(long, value_enum)]
    pub to: Language,
    #[command(flatten)]
    pub common: CommonOpts,
    /// `human` writes the text (or the errors); `json` writes
    /// `{"file","to","text"}` or `{"files":[...diagnostics]}`.
    #[arg(long, value_enum, default_value = "human")]
    pub format: OutputFormat,
    /// Output file (default: standard output).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// A dungeon.def, dungeon.lua or compiled file (`-` reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Parses `convert`'s arguments (`argv[0]` is the command name).
pub fn parse_args<I, T>(argv: I) -> Result<ConvertArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::input::parse_command("convert", argv)
}

pub fn run(args: ConvertArgs) -> ExitCode {
    let color = use_color(std::io::stderr().is_terminal());
    super::input::on_std_streams(|out, err, _| execute(&args, out, err, color))
}

/// The command on explicit streams; `-o` still writes its file. Returns
/// the exit status.
pub fn execute(args: &ConvertArgs, out: &mut dyn Write, err: &mut dyn Write, color: bool) -> u8 {
    let name = args.file.display().to_string();
    let src = match read_input(&args.file) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "dgn convert: cannot read `{name}`: {e}");
            return EXIT_USAGE;
        }
    };
    let opts = args.common.check_options(Default::default());
    let (to, to_name) = match args.to {
        Language::Lua => (SourceKind::Lua, "lua"),
        Language::Def => (SourceKind::Def, "def"),
    };
    let kind = SourceKind::of_file(&args.file, &src);
    let json = args.format == OutputFormat::Json;
    match dgnkit::convert::convert(&src, kind, to, &opts) {
        Ok(text) => {
            let bytes = if json {
                let v = serde_json::json!({
                    "file": name,
                    "to": to_name,
                    "text": String::from_utf8_lossy(&text),
                });
                let mut o = serde_json::to_vec_pretty(&v).unwrap_or_default();
                o.push(b'\n');
                o
            } else {
                text
            };
            let written = match &args.output {
                Some(p) if p.as_os_str() != "-" => write_output(&Output::File(p.clone()), &bytes),
                _ => out.write_all(&bytes),
            };
            if let Err(e) = written {
                let _ = writeln!(err, "dgn convert: cannot write the output: {e}");
                return EXIT_USAGE;
            }
            EXIT_OK
        }
        Err(e) => {
            if json {
                let _ = writeln!(
                    out,
                    "{}",
                    render::json(vec![render::json_file(&name, &src, &e.diagnostics)])
                );
            } else {
                let _ = write!(err, "{}", render::human(&name, &src, &e.diagnostics, color));
                let _ = writeln!(
                    err,
                    "dgn convert: `{name}` cannot be written as dungeon.{to_name}; nothing written"
                );
            }
            EXIT_INPUT
        }
    }
}
