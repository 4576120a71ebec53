//! "Compare with the last committed version": the document as git's HEAD
//! has it against the editor's buffer, compared as `dgn diff` compares two
//! files (both read with the document's settings), answered with
//! `dgn diff`'s table and its JSON. A command (`workspace/executeCommand`)
//! for any client, offered as a source code action too.

use crate::analysis;
use crate::config::Config;
use crate::state::{Access, State};
use dgnkit::stats::diff::{self, Described, Diff};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use tower_lsp_server::ls_types::{
    self as lsp, CodeAction, CodeActionKind, CodeActionOrCommand, Uri,
};

/// The command's name, as clients call it.
pub const COMMAND: &str = "dgnkit.compareWithHead";
/// The code action's title.
pub const TITLE: &str = "dgnkit: compare with the last committed version";
/// The refusal of a sandboxed server, which runs no process.
pub const SANDBOXED: &str = "dgnkit.compareWithHead is not available here: it reads a file and runs git, which this server does not do for its clients (use dgn diff, or the editor's own language server)";

/// The code action that runs the command on `uri`, for a document that is
/// a file on disk (an unsaved one has no committed version) on a server
/// that may run git.
pub fn code_action(access: Access, uri: &Uri) -> Option<CodeActionOrCommand> {
    access.file_path(uri)?;
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: TITLE.to_string(),
        kind: Some(CodeActionKind::SOURCE),
        command: Some(lsp::Command {
            title: TITLE.to_string(),
            command: COMMAND.to_string(),
            arguments: Some(vec![json!(uri.as_str())]),
        }),
        ..CodeAction::default()
    }))
}

/// The document the command names: `[uri]` or `[{"uri": uri}]`.
pub fn uri_argument(args: &[Value]) -> Result<Uri, String> {
    let text = match args.first() {
        Some(Value::String(s)) => Some(s.as_str()),
        Some(Value::Object(o)) => o.get("uri").and_then(Value::as_str),
        _ => None,
    };
    let text = text.ok_or_else(|| {
        format!("{COMMAND} takes the document's URI as its argument: [\"file:///.../dungeon.def\"]")
    })?;
    Uri::from_str(text).map_err(|e| format!("{COMMAND}: `{text}` is not a URI: {e}"))
}

/// What the comparison needs from an open document, taken under the
/// state's lock so that the work runs without it.
pub struct Request {
    path: PathBuf,
    text: Vec<u8>,
    config: Config,
    lua: bool,
}

impl Request {
    pub fn of(state: &State, uri: &Uri) -> Result<Request, String> {
        if state.access().is_sandboxed() {
            return Err(SANDBOXED.to_string());
        }
        let view = state.doc(uri).ok_or_else(|| {
            format!(
                "{} is not open: open it first to compare it with its last committed version",
                uri.as_str()
            )
        })?;
        let path = state.access().file_path(uri).ok_or_else(|| {
            format!(
                "{} is not a file on disk: save it in a git repository to compare it with its last committed version",
                uri.as_str()
            )
        })?;
        Ok(Request {
            path,
            text: view.text().to_vec(),
            config: view.config(),
            lua: view.is_lua(),
        })
    }

    /// Reads HEAD's version and compares: `{"table": ..., "diff": ...}`.
    pub fn run(self) -> Result<Value, String> {
        let head = head_text(&self.path)?;
        let name = self
            .path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let mut diff = compare(&head, &self.text, &self.config, self.lua, &name)?;
        diff.retain_changed();
        Ok(json!({
            "table": dgnkit::views::diff::human(&diff, false),
            "diff": diff,
        }))
    }
}

/// The file's content in the last commit of the repository it is in.
pub fn head_text(path: &Path) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(format!("`{shown}` names no file"));
    };
    // `./NAME` is relative to the directory git runs in, wherever the
    // repository's root is.
    let mut spec = std::ffi::OsString::from("HEAD:./");
    spec.push(name);
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .arg("show")
        .arg(&spec)
        .output()
        .map_err(|e| {
            format!("cannot run git to read the last committed version of `{shown}`: {e} (is git installed and on PATH?)")
        })?;
    if out.status.success() {
        return Ok(out.stdout);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(if stderr.contains("not a git repository") {
        format!(
            "`{shown}` is not in a git repository: there is no committed version to compare with"
        )
    } else if stderr.contains("exists on disk, but not in") || stderr.contains("does not exist in")
    {
        format!(
            "`{shown}` is not in the last commit (it is new): commit it, and later edits can be compared with it"
        )
    } else if stderr.contains("invalid object name") || stderr.contains("bad revision") {
        format!("the repository of `{shown}` has no commit yet: commit the file first")
    } else {
        format!(
            "git show {} failed in {}: {}",
            spec.to_string_lossy(),
            dir.display(),
            stderr.trim()
        )
    })
}

/// HEAD's text against the buffer's, both read with `config` (the
/// statistics as hovers and `dgn stats` compute them for its target).
pub fn compare(
    head: &[u8],
    buffer: &[u8],
    config: &Config,
    lua: bool,
    name: &str,
) -> Result<Diff, String> {
    let stats_of = |text: &[u8], which: &str| {
        let semantic = analysis::run(text, config, lua);
        match semantic.analysis.script {
            Some(script) => Ok(crate::facts::stats(&script, config)),
            None => {
                let first = semantic
                    .analysis
                    .diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| format!(" (first: {}: {})", d.code, d.message))
                    .unwrap_or_default();
                Err(format!(
                    "{which} has errors{first}; the comparison needs both versions to check"
                ))
            }
        }
    };
    let old = stats_of(head, &format!("the last committed version of {name}"))?;
    let new = stats_of(buffer, "the buffer")?;
    let target = config.target.name();
    let head_name = format!("HEAD:{name}");
    let buffer_name = format!("{name} (buffer)");
    Ok(diff::compare(
        Described {
            file: &head_name,
            target,
            stats: &old,
        },
        Described {
            file: &buffer_name,
            target,
            stats: &new,
        },
    ))
}
