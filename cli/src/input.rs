//! Reading a command's input: a file or standard input as bytes, and for
//! the commands that work on a resolved script (layout, bones, stats), a
//! dungeon.def or compiled file (or the built-in default) turned into one,
//! with the game to lay it out for.

use super::layout::built_in;
use super::{CommonOpts, EXIT_INPUT, EXIT_USAGE};
use dgnkit::binary::Stated;
use dgnkit::frontend::analyze_verdict_as;
use dgnkit::options::Target;
use dgnkit::render;
use dgnkit::rng::RngKind;
use dgnkit::script::Script;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Files held in memory for this thread while [`with_memory_files`] runs.
type MemoryFiles = std::rc::Rc<Vec<(PathBuf, std::rc::Rc<[u8]>)>>;

thread_local! {
    /// What [`read_input`] reads on this thread instead of the file system
    /// while [`with_memory_files`] runs (`dgn serve` hands a request's text
    /// to the commands this way: no file, no process).
    static MEMORY_FILES: std::cell::RefCell<Option<MemoryFiles>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with [`read_input`] answering from `files` (name, bytes) on
/// this thread: a name (or `-`) given there reads its bytes, and every
/// other path is refused, so nothing `f` does through [`read_input`]
/// touches the file system or standard input.
pub fn with_memory_files<R>(files: &[(&str, &[u8])], f: impl FnOnce() -> R) -> R {
    struct Reset(Option<MemoryFiles>);
    impl Drop for Reset {
        fn drop(&mut self) {
            let old = self.0.take();
            MEMORY_FILES.with(|m| *m.borrow_mut() = old);
        }
    }
    let files: Vec<_> = files
        .iter()
        .map(|(name, bytes)| (PathBuf::from(name), std::rc::Rc::from(*bytes)))
        .collect();
    let old = MEMORY_FILES.with(|m| m.borrow_mut().replace(std::rc::Rc::new(files)));
    let _reset = Reset(old);
    f()
}

/// The bytes of `path`; `-` reads standard input (under
/// [`with_memory_files`], only the files given there).
pub fn read_input(path: &Path) -> std::io::Result<Vec<u8>> {
    if let Some(files) = MEMORY_FILES.with(|m| m.borrow().clone()) {
        return files
            .iter()
            .find(|(name, _)| name == path)
            .map(|(_, bytes)| bytes.to_vec())
            .ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    "only the request's own text can be read here",
                )
            });
    }
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path)
    }
}

/// The built-in descriptions' scripts analysed so far, by their options.
static BUILT_IN_SCRIPTS: std::sync::Mutex<Vec<(String, Script)>> =
    std::sync::Mutex::new(Vec::new());

/// A command's input, ready to lay out.
pub(crate) struct Input {
    /// The file's name as messages show it.
    pub name: String,
    pub script: Script,
    /// `--target`; else the version a compiled NetHack file's header states;
    /// else the default.
    pub target: Target,
    /// The generator of that game version, for when `--rng` is not given.
    pub rng: RngKind,
}

/// Reads FILE (source or compiled; none: the built-in description) into a
/// script; on failure, reports to `err` and returns the exit status.
pub(crate) fn read_script(
    file: Option<&PathBuf>,
    common: &CommonOpts,
    command: &str,
    err: &mut dyn Write,
    color: bool,
) -> Result<Input, u8> {
    let given = |name: String, script: Script| {
        let target = common.target();
        Input {
            name,
            script,
            target,
            rng: target.game().rng,
        }
    };
    let (name, bytes) = match file {
        None => {
            let (name, bytes) = built_in(common.target());
            (name.to_string(), bytes.to_vec())
        }
        Some(p) => {
            let name = if p.as_os_str() == "-" {
                "<stdin>".to_string()
            } else {
                p.display().to_string()
            };
            match read_input(p) {
                Ok(b) => (name, b),
                Err(e) => {
                    let _ = writeln!(err, "dgn {command}: cannot read `{name}`: {e}");
                    return Err(EXIT_USAGE);
                }
            }
        }
    };
    // A compiled file announces itself (native magic or a NetHack version
    // header); anything else is source.
    if dgnkit::binary::detect(&bytes).is_ok() {
        let script = match dgnkit::binary::read(&bytes, None) {
            Ok(r) => r.script,
            Err(e) => {
                let _ = writeln!(
                    err,
                    "dgn {command}: `{name}` is not a valid compiled file: {e}"
                );
                return Err(EXIT_INPUT);
            }
        };
        // The header names the dgn_comp that wrote the file, hence the game
        // whose loader reads it; an explicit --target still decides.
        return match (common.target, dgnkit::binary::stated_game(&bytes)) {
            (None, Some(Stated::Game { target, rng })) => Ok(Input {
                name,
                script,
                target,
                rng,
            }),
            (
                None,
                Some(Stated::Unreproduced {
                    major,
                    minor,
                    patch,
                }),
            ) => {
                let _ = writeln!(
                    err,
                    "dgn {command}: `{name}` was compiled by NetHack {major}.{minor}.{patch}'s dgn_comp, whose loader dgnkit does not reproduce; choose one with --target (nethack-3.4.3 or nethack-3.6)"
                );
                Err(EXIT_USAGE)
            }
            _ => Ok(given(name, script)),
        };
    }
    // The built-in description, once analysed under the same options, is
    // not analysed again in this process (`dgn serve` lays it out for
    // every request); what is printed is the same either way.
    let built_in_key = file.is_none().then(|| {
        format!(
            "{:?} {:?} {:?} {:?}",
            common.target, common.dialect, common.define, common.undefine
        )
    });
    if let Some(key) = &built_in_key {
        let cached = BUILT_IN_SCRIPTS
            .lock()
            .ok()
            .and_then(|c| c.iter().find(|(k, _)| k == key).map(|(_, s)| s.clone()));
        if let Some(script) = cached {
            return Ok(given(name, script));
        }
    }
    let opts = common.check_options(Default::default());
    let kind = match file {
        Some(p) => dgnkit::frontend::SourceKind::of_file(p, &bytes),
        None => dgnkit::frontend::SourceKind::sniff(&bytes),
    };
    let analysis = analyze_verdict_as(kind, &bytes, &opts);
    let mut noted = false;
    if common.target.is_none() {
        // A variant's file under the default target: say whose rules answer.
        let found = dgnkit::games::detect::detect(
            file.map(PathBuf::as_path).filter(|p| p.as_os_str() != "-"),
            Some(&analysis.file),
            common.dialect,
        );
        if let Some(note) = found
            .and_then(|f| dgnkit::games::detect::mismatch_note(&f, common.target(), "answered"))
        {
            let _ = writeln!(err, "dgn {command}: note: `{name}`: {note}");
            noted = true;
        }
    }
    match analysis.script {
        Some(script) => {
            if let (Some(key), false) = (built_in_key, noted) {
                if let Ok(mut cache) = BUILT_IN_SCRIPTS.lock() {
                    if cache.len() < 256 {
                        cache.push((key, script.clone()));
                    }
                }
            }
            Ok(given(name, script))
        }
        None => {
            let errors: Vec<_> = analysis
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .cloned()
                .collect();
            let _ = write!(err, "{}", render::human(&name, &bytes, &errors, color));
            let _ = writeln!(
                err,
                "dgn {command}: `{name}` has errors; fix them first (`dgn check {name}`)"
            );
            Err(EXIT_INPUT)
        }
    }
}

/// The loader's inputs from `--role`, `--race`, `--option`, `--game-start`;
/// a value the games do not know is a usage error, said under `cmd`.
pub(crate) fn loader_inputs(
    cmd: &str,
    loader: &super::LoaderOpts,
    wizard: bool,
    target: Option<Target>,
    err: &mut dyn Write,
) -> Result<dgnkit::games::LoaderInputs, u8> {
    loader.inputs(wizard, target).map_err(|e| {
        let _ = writeln!(err, "dgn {cmd}: {e}");
        EXIT_USAGE
    })
}

/// The game's loader for `script`. A game dgnkit does not reproduce, or an
/// input the game does not take, is the command line's fault and ends the
/// command here; what the loader finds wrong with the file itself is left
/// to the caller (one seed fails on it; statistics may still count it).
pub(crate) fn game_resolver(
    cmd: &str,
    script: &Script,
    target: Target,
    inputs: &dgnkit::games::LoaderInputs,
    err: &mut dyn Write,
) -> Result<Result<dgnkit::loader::Resolver, dgnkit::loader::LoadError>, u8> {
    use dgnkit::loader::{LoadError, Resolver};
    match Resolver::for_game(script, &target.game().loader_game(), inputs) {
        Err(e @ (LoadError::NotReproduced { .. } | LoadError::Inputs { .. })) => {
            let _ = writeln!(err, "dgn {cmd}: {e}");
            Err(EXIT_USAGE)
        }
        other => Ok(other),
    }
}

/// [`game_resolver`] for the commands that need a loader that takes the
/// file: any refusal ends them.
pub(crate) fn resolver_for(
    cmd: &str,
    input: &Input,
    inputs: &dgnkit::games::LoaderInputs,
    err: &mut dyn Write,
) -> Result<dgnkit::loader::Resolver, u8> {
    game_resolver(cmd, &input.script, input.target, inputs, err)?.map_err(|e| {
        let _ = writeln!(err, "dgn {cmd}: `{}`: {e}", input.name);
        EXIT_INPUT
    })
}

/// A subcommand's arguments parsed on their own (`argv[0]` is its name).
pub fn parse_command<A, I, T>(name: &'static str, argv: I) -> Result<A, clap::Error>
where
    A: clap::Args + clap::FromArgMatches,
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches = A::augment_args(clap::Command::new(name)).try_get_matches_from(argv)?;
    A::from_arg_matches(&matches)
}

/// Runs a command on buffered standard output and standard error; `run`
/// gets whether standard error is a terminal. An output that cannot be
/// flushed is an I/O error.
pub(crate) fn on_std_streams(
    run: impl FnOnce(&mut dyn Write, &mut dyn Write, bool) -> u8,
) -> std::process::ExitCode {
    use std::io::IsTerminal;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let stderr = std::io::stderr();
    let tty = stderr.is_terminal();
    let code = run(&mut out, &mut stderr.lock(), tty);
    if out.flush().is_err() {
        return std::process::ExitCode::from(EXIT_USAGE);
    }
    std::process::ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_files_are_all_that_can_be_read() {
        let text = with_memory_files(&[("-", b"one"), ("dungeon.lua", b"two")], || {
            (
                read_input(Path::new("-")).unwrap(),
                read_input(Path::new("dungeon.lua")).unwrap(),
                read_input(Path::new("Cargo.toml")).unwrap_err().kind(),
                read_input(Path::new("/etc/hostname")).unwrap_err().kind(),
            )
        });
        assert_eq!(text.0, b"one");
        assert_eq!(text.1, b"two");
        assert_eq!(text.2, std::io::ErrorKind::PermissionDenied);
        assert_eq!(text.3, std::io::ErrorKind::PermissionDenied);
        // Afterwards the file system is read again.
        assert!(read_input(Path::new("Cargo.toml")).is_ok());
    }
}
