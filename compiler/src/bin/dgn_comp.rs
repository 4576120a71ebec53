//! `dgn_comp`: a drop-in for NetHack's dungeon compiler, with its command
//! line. No argument: read standard input, write standard output. Otherwise
//! every argument is a `NAME.pdf` file compiled to `NAME`; other names are
//! refused with the original's message. Exit status 1 when any file failed.
//!
//! Unlike the original, a file with errors produces no output at all, and
//! the checks are dgnkit's (stricter). Extensions: `--target T` (or the
//! environment variable `DGN_COMP_TARGET`; default `nethack-3.6`),
//! `--dialect D` (or `DGN_COMP_DIALECT`), `--header-from FILE`, `-D FLAG`,
//! `-U FLAG`.

use dgnkit::binary::{self, WriteOptions};
use dgnkit::dialect::Dialect;
use dgnkit::frontend::{analyze_verdict, CheckOptions};
use dgnkit::grammar::Diagnostic;
use dgnkit::options::Target;
use dgnkit::render::LineIndex;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: dgn_comp [--target T] [--dialect D] [--header-from FILE] [-D FLAG] [-U FLAG] [FILE.pdf...]
With no file, reads standard input and writes standard output; FILE.pdf is compiled to FILE.
T is nethack-3.6 (default), nethack-3.4.3, a variant family (evilhack, gnollhack, ...) or native;
D defaults to the target's dialect.
Environment: DGN_COMP_TARGET, DGN_COMP_DIALECT set the defaults of --target and --dialect.";

struct Config {
    opts: CheckOptions,
    header: Option<Vec<u8>>,
    files: Vec<OsString>,
}

fn parse_target(s: &str, source: &str) -> Result<Target, String> {
    Target::parse(s).ok_or_else(|| {
        format!(
            "dgn_comp: {source} `{s}` is not a target ({})",
            Target::names()
        )
    })
}

fn parse_dialect(s: &str, source: &str) -> Result<Dialect, String> {
    Dialect::parse(s).ok_or_else(|| {
        let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
        format!(
            "dgn_comp: {source} `{s}` is not a dialect (one of: {})",
            names.join(", ")
        )
    })
}

/// Ok(None) when the command line asked for help or the version.
fn parse_args(args: Vec<OsString>) -> Result<Option<Config>, String> {
    let target = match std::env::var("DGN_COMP_TARGET") {
        Ok(v) if !v.is_empty() => parse_target(&v, "DGN_COMP_TARGET")?,
        _ => Target::NetHack36,
    };
    let mut opts = CheckOptions {
        target,
        ..CheckOptions::default()
    };
    // None: the target's dialect, whichever way the target was given.
    let mut dialect = None;
    if let Ok(v) = std::env::var("DGN_COMP_DIALECT") {
        if !v.is_empty() {
            dialect = Some(parse_dialect(&v, "DGN_COMP_DIALECT")?);
        }
    }
    let mut header_from: Option<PathBuf> = None;
    let mut files = Vec::new();
    let mut iter = args.into_iter();
    let mut options_done = false;
    while let Some(arg) = iter.next() {
        let text = arg.to_str().map(str::to_string);
        let Some(text) = text.filter(|t| !options_done && t.starts_with('-') && t.len() > 1) else {
            files.push(arg);
            continue;
        };
        let (flag, inline) = match text.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (text.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            match inline.clone() {
                Some(v) => Ok(v),
                None => iter
                    .next()
                    .and_then(|v| v.into_string().ok())
                    .ok_or_else(|| format!("dgn_comp: {name} needs a value\n{USAGE}")),
            }
        };
        match flag.as_str() {
            "--" => options_done = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            "-V" | "--version" => {
                println!("dgn_comp (dgnkit) {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            "--target" => opts.target = parse_target(&value("--target")?, "--target")?,
            "--dialect" => dialect = Some(parse_dialect(&value("--dialect")?, "--dialect")?),
            "--header-from" => header_from = Some(PathBuf::from(value("--header-from")?)),
            "-D" => opts.defines.push(value("-D")?),
            "-U" => opts.undefines.push(value("-U")?),
            f if f.starts_with("-D") => opts.defines.push(f.trim_start_matches("-D").to_string()),
            f if f.starts_with("-U") => opts.undefines.push(f.trim_start_matches("-U").to_string()),
            // Anything else is a file name, as in the original.
            _ => files.push(arg),
        }
    }
    opts.dialect = dialect.unwrap_or(opts.target.game().dialect);
    let header = match header_from {
        None => None,
        Some(p) => {
            let h = std::fs::read(&p)
                .map_err(|e| format!("dgn_comp: cannot read `{}`: {e}", p.display()))?;
            dgnkit::cli::compile::header_fits(&h, opts.target)
                .map_err(|m| format!("dgn_comp: --header-from `{}`: {m}", p.display()))?;
            Some(h)
        }
    };
    Ok(Some(Config {
        opts,
        header,
        files,
    }))
}

/// `file : line N : message`, as dgn_comp's yyerror prints.
fn report(fname: &str, src: &[u8], diagnostics: &[Diagnostic]) {
    let index = LineIndex::new(src);
    let mut err = std::io::stderr().lock();
    for d in diagnostics.iter().filter(|d| d.is_error()) {
        let line = index.line_col(d.span.start).line;
        let _ = writeln!(err, "{fname} : line {line} : {}", d.message);
    }
}

/// Compiles one source; `None` after printing its errors.
fn compile(fname: &str, src: &[u8], config: &Config) -> Option<Vec<u8>> {
    let analysis = analyze_verdict(src, &config.opts);
    report(fname, src, &analysis.diagnostics);
    let script = analysis.script?;
    let wopts = WriteOptions {
        header_from: config.header.as_deref(),
        dialect: config.opts.dialect.name(),
    };
    match binary::write_with(&script, config.opts.target, &wopts) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            eprintln!("{fname} : {e}");
            None
        }
    }
}

/// `perror`'s second line.
fn perror(name: &str, e: &std::io::Error) {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text);
    eprintln!("{name}: {text}");
}

fn write_file(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".dgnkit-tmp");
    let tmp = PathBuf::from(tmp);
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn run(config: &Config) -> bool {
    let mut ok = true;
    if config.files.is_empty() {
        let mut src = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut src) {
            perror("(stdin)", &e);
            return false;
        }
        match compile("(stdin)", &src, config) {
            Some(bytes) => {
                let mut out = std::io::stdout().lock();
                if out.write_all(&bytes).and_then(|()| out.flush()).is_err() {
                    eprint!("Can't finish output file.");
                    eprintln!("(stdout): write error");
                    ok = false;
                }
            }
            None => ok = false,
        }
        return ok;
    }
    for file in &config.files {
        let fname = file.to_string_lossy();
        let bytes = file.as_encoded_bytes();
        if !bytes.ends_with(b".pdf") {
            eprintln!("Error - file name \"{fname}\" in wrong format.");
            ok = false;
            continue;
        }
        // Strip exactly the ".pdf" suffix, as the original does.
        let stem = bytes.len().saturating_sub(4);
        let out_name = String::from_utf8_lossy(bytes.get(..stem).unwrap_or_default()).into_owned();
        let out_path = match file.to_str() {
            Some(s) => PathBuf::from(s.get(..stem).unwrap_or_default()),
            None => PathBuf::from(&out_name),
        };
        let src = match std::fs::read(file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("Can't open {fname} for input.");
                perror(&fname, &e);
                ok = false;
                continue;
            }
        };
        let Some(compiled) = compile(&fname, &src, config) else {
            ok = false;
            continue;
        };
        if let Err(e) = write_file(&out_path, &compiled) {
            eprintln!("Can't open {out_name} for output.");
            perror(&out_name, &e);
            ok = false;
        }
    }
    ok
}

fn main() -> ExitCode {
    let config = match parse_args(std::env::args_os().skip(1).collect()) {
        Ok(Some(c)) => c,
        Ok(None) => return ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::FAILURE;
        }
    };
    if run(&config) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
