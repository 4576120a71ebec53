//! Reading a command's input: a file or standard input as bytes, and for
//! the commands that work on a resolved script (layout, bones, stats), a
//! dungeon.def or compiled file (or the built-in default) turned into one.

use super::layout::{DEFAULT_DEF, DEFAULT_NAME};
use super::{CommonOpts, EXIT_INPUT, EXIT_USAGE};
use crate::frontend::{analyze_verdict, CheckOptions};
use crate::render;
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

/// Reads FILE (source or compiled; none: the built-in description) into a
/// script; on failure, reports to `err` and returns the exit status.
pub(crate) fn read_script(
    file: Option<&PathBuf>,
    common: &CommonOpts,
    command: &str,
    err: &mut dyn Write,
    color: bool,
) -> Result<(String, Script), u8> {
    let (name, bytes) = match file {
        None => (DEFAULT_NAME.to_string(), DEFAULT_DEF.to_vec()),
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
        return match crate::binary::read(&bytes, None) {
            Ok(r) => Ok((name, r.script)),
            Err(e) => {
                let _ = writeln!(
                    err,
                    "dgn {command}: `{name}` is not a valid compiled file: {e}"
                );
                Err(EXIT_INPUT)
            }
        };
    }
    let opts = CheckOptions {
        target: common.target,
        dialect: common.dialect(),
        defines: common.define.clone(),
        undefines: common.undefine.clone(),
        lints: Default::default(),
    };
    let analysis = analyze_verdict(&bytes, &opts);
    match analysis.script {
        Some(script) => Ok((name, script)),
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
