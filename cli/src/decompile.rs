//! `dgn decompile`: a compiled dungeon script (NetHack 3.4.3, 3.6 or
//! native) back to dungeon.def text that compiles to the same bytes.

use super::compile::{write_output, Output};
use super::input::read_input;
use super::{EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use clap::{Args, ValueEnum};
use dgnkit::binary::{self, BinaryFormat};
use dgnkit::decompile::decompile;
use std::path::PathBuf;
use std::process::ExitCode;

/// Layout of the input.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// Detect from the first bytes.
    Auto,
    /// NetHack 3.4.3's dgn_comp output (32-byte header).
    #[value(name = "nethack-3.4.3")]
    NetHack343,
    /// NetHack 3.6's dgn_comp output (40-byte header).
    #[value(name = "nethack-3.6")]
    NetHack36,
    /// dgnkit's native format.
    Native,
}

impl InputFormat {
    fn forced(self) -> Option<BinaryFormat> {
        match self {
            InputFormat::Auto => None,
            InputFormat::NetHack343 => Some(BinaryFormat::NetHack343),
            InputFormat::NetHack36 => Some(BinaryFormat::NetHack36),
            InputFormat::Native => Some(BinaryFormat::Native),
        }
    }
}

/// Output form.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecompileFormat {
    /// dungeon.def text.
    Text,
    /// `{"file", "layout", "dialect", "text"}` for tools.
    Json,
}

/// `dgn decompile [--from LAYOUT] [--format text|json] FILE [-o OUT]`
#[derive(Args, Debug, Clone)]
pub struct DecompileArgs {
    /// Layout of the compiled file (default: detected from its first bytes).
    #[arg(long, value_enum, default_value = "auto", value_name = "LAYOUT")]
    pub from: InputFormat,
    /// Output form.
    #[arg(long, value_enum, default_value = "text")]
    pub format: DecompileFormat,
    /// Output file (default: standard output).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The compiled file (`-` reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// A comment line naming what the text came from; `dgn_comp` and dgnkit
/// both skip lines that start with `#`.
fn banner(read: &binary::ReadScript) -> String {
    match read.dialect.as_deref() {
        None => {
            let target = dgnkit::options::Target::of_format(read.format);
            format!(
                "# Decompiled from {}'s dgn_comp output: compile with --target {}\n",
                target.game().title,
                target.name()
            )
        }
        Some("vanilla") => "# Decompiled from a dgnkit native file\n".to_string(),
        Some(d) => format!(
            "# Decompiled from a dgnkit native file (dialect {d}): compile with --dialect {d}\n"
        ),
    }
}

pub fn run(args: DecompileArgs) -> ExitCode {
    let name = args.file.display().to_string();
    let bytes = match read_input(&args.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("dgn decompile: cannot read `{name}`: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let read = match binary::read(&bytes, args.from.forced()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("dgn decompile: `{name}` is not a valid compiled dungeon file: {e}");
            if let (Some(forced), Ok(found)) = (args.from.forced(), binary::detect(&bytes)) {
                if forced != found {
                    eprintln!(
                        "  note: its first bytes say {found}; try --from {found} or --from auto"
                    );
                }
            }
            return ExitCode::from(EXIT_INPUT);
        }
    };
    let text = match decompile(&read.script) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("dgn decompile: `{name}` cannot be written as dungeon.def: {e}");
            return ExitCode::from(EXIT_INPUT);
        }
    };
    let mut out = banner(&read).into_bytes();
    out.extend_from_slice(&text);
    if args.format == DecompileFormat::Json {
        let json = serde_json::json!({
            "file": name,
            "layout": read.format.to_string(),
            "dialect": read.dialect,
            "text": String::from_utf8_lossy(&out),
        });
        out = serde_json::to_vec_pretty(&json).unwrap_or_default();
        out.push(b'\n');
    }
    let target = match &args.output {
        None => Output::Stdout,
        Some(p) if p.as_os_str() == "-" => Output::Stdout,
        Some(p) => Output::File(p.clone()),
    };
    if let Err(e) = write_output(&target, &out) {
        eprintln!("dgn decompile: cannot write the output: {e}");
        return ExitCode::from(EXIT_USAGE);
    }
    ExitCode::from(EXIT_OK)
}
