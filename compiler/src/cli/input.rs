//! Reading a command's input: a file or standard input as bytes, and for
//! the commands that work on a resolved script (layout, bones, stats), a
//! dungeon.def or compiled file (or the built-in default) turned into one,
//! with the game to lay it out for.

use super::layout::built_in;
use super::{CommonOpts, EXIT_INPUT, EXIT_USAGE};
use crate::binary::Stated;
use crate::frontend::{analyze_verdict_as, CheckOptions};
use crate::options::Target;
use crate::render;
use crate::rng::RngKind;
use crate::script::Script;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The bytes of `path`; `-` reads standard input.
pub fn read_input(path: &Path) -> std::io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path)
    }
}

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
            rng: RngKind::for_target(target),
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
    if crate::binary::detect(&bytes).is_ok() {
        let script = match crate::binary::read(&bytes, None) {
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
        return match (common.target, crate::binary::stated_game(&bytes)) {
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
    let opts = CheckOptions {
        target: common.target(),
        dialect: common.dialect(),
        defines: common.define.clone(),
        undefines: common.undefine.clone(),
        lints: Default::default(),
    };
    let kind = match file {
        Some(p) => crate::frontend::SourceKind::of_file(p, &bytes),
        None => crate::frontend::SourceKind::sniff(&bytes),
    };
    let analysis = analyze_verdict_as(kind, &bytes, &opts);
    match analysis.script {
        Some(script) => Ok(given(name, script)),
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
