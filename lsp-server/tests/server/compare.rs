//! "Compare with the last committed version" through the server: a real
//! git repository in a temporary directory, a committed `dungeon.def`, an
//! edited buffer, and the command's table and JSON; the code action that
//! offers it; and the errors a client shows when there is nothing to
//! compare with.

use crate::common::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const ORACLE: &str = "LEVEL:\t\t\"oracle\" \"O\" @ (5, 5)";
const MOVED: &str = "LEVEL:\t\t\"oracle\" \"O\" @ (7, 5)";

fn builtin() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/nethack-3.6.def"
    ))
    .expect("corpus/nethack-3.6.def")
}

/// A fresh directory for one test, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("dgnkit-lsp-compare-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=dgnkit test",
            "-c",
            "user.email=test@dgnkit.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

async fn compare(c: &mut Client, uri: &str) -> Value {
    c.request(
        "workspace/executeCommand",
        json!({"command": "dgnkit.compareWithHead", "arguments": [uri]}),
    )
    .await
}

#[tokio::test]
async fn the_table_names_the_level_the_edit_moved() {
    let tmp = TempDir::new("moved");
    let text = builtin();
    let file = tmp.0.join("dat").join("dungeon.def");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, &text).unwrap();
    git(&tmp.0, &["init", "-q"]);
    git(&tmp.0, &["add", "dat/dungeon.def"]);
    git(&tmp.0, &["commit", "-q", "-m", "dungeon"]);

    let mut c = Client::start(json!({"dgnkit": {"statistics": "inline"}})).await;
    let uri = uri_of(&file);
    c.open(&uri, &text).await;
    // Unedited: nothing changed.
    let same = compare(&mut c, &uri).await;
    let table = same["result"]["table"].as_str().expect("a table");
    assert!(table.contains("No differences."), "{table}");

    let edited = text.replace(ORACLE, MOVED);
    assert_ne!(edited, text);
    c.change(&uri, 2, json!([{"text": edited}])).await;
    let answer = compare(&mut c, &uri).await;
    let result = &answer["result"];
    let table = result["table"].as_str().expect("a table");
    assert!(
        table.contains("level oracle (The Dungeons of Doom)"),
        "{table}"
    );
    assert!(
        table.starts_with("OLD HEAD:dungeon.def: nethack-3.6 loader"),
        "{table}"
    );
    let changes = result["diff"]["changes"].as_array().expect("changes");
    let oracle = changes
        .iter()
        .find(|ch| ch["kind"] == "level" && ch["name"] == "oracle")
        .expect("the oracle changed");
    assert_eq!(
        oracle["old"]["depth"]["5"]
            .as_f64()
            .map(|p| (p * 5.0).round()),
        Some(1.0)
    );
    assert!(oracle["new"]["depth"]["5"].is_null());
    assert!(oracle["tvd"].as_f64().unwrap() > 0.3);
}

#[tokio::test]
async fn a_sandboxed_server_neither_offers_nor_runs_it() {
    let tmp = TempDir::new("sandboxed");
    let text = builtin();
    let file = tmp.0.join("dungeon.def");
    std::fs::write(&file, &text).unwrap();
    git(&tmp.0, &["init", "-q"]);
    git(&tmp.0, &["add", "dungeon.def"]);
    git(&tmp.0, &["commit", "-q", "-m", "dungeon"]);

    let sandboxed = dgnkit_lsp::Access::Sandboxed { documents: 4 };
    let caps = dgnkit_lsp::server::capabilities_for(sandboxed);
    assert!(caps.execute_command_provider.is_none());
    let mut c = Client::start_with(json!({"dgnkit": {"statistics": "inline"}}), sandboxed).await;
    let uri = uri_of(&file);
    c.open(&uri, &text.replace(ORACLE, MOVED)).await;
    let answer = compare(&mut c, &uri).await;
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("not available"), "{answer}");
    let actions = c
        .call(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}),
        )
        .await;
    assert!(
        !actions.to_string().contains("dgnkit.compareWithHead"),
        "{actions}"
    );
}

#[tokio::test]
async fn the_code_action_runs_the_command() {
    let mut c = Client::start(json!({"dgnkit": {"statistics": "inline"}})).await;
    let uri = "file:///nowhere/dungeon.def";
    let text = builtin();
    c.open(uri, &text).await;
    let actions = c
        .call(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}),
        )
        .await;
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "source")
        .expect("the source action");
    assert_eq!(
        action["title"],
        "dgnkit: compare with the last committed version"
    );
    assert_eq!(action["command"]["command"], "dgnkit.compareWithHead");
    assert_eq!(action["command"]["arguments"], json!([uri]));
    // Asked for quick fixes only, the server leaves it out.
    let only = c
        .call(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": [], "only": ["quickfix"]}}),
        )
        .await;
    assert!(only
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["kind"] != "source"));
}

#[tokio::test]
async fn without_a_committed_version_the_error_says_why() {
    let tmp = TempDir::new("errors");
    let text = builtin();
    let outside = tmp.0.join("loose").join("dungeon.def");
    std::fs::create_dir_all(outside.parent().unwrap()).unwrap();
    std::fs::write(&outside, &text).unwrap();
    let repo = tmp.0.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("README"), "x").unwrap();
    git(&repo, &["add", "README"]);
    git(&repo, &["commit", "-q", "-m", "start"]);
    let new_file = repo.join("dungeon.def");
    std::fs::write(&new_file, &text).unwrap();

    let mut c = Client::start(json!({"dgnkit": {"statistics": "inline"}})).await;
    // (file, what the message says)
    let cases = [
        (&outside, "not in a git repository"),
        (&new_file, "not in the last commit"),
    ];
    for (file, says) in cases {
        let uri = uri_of(file);
        c.open(&uri, &text).await;
        let answer = compare(&mut c, &uri).await;
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{}: {answer}", file.display());
    }
    let closed = compare(&mut c, "file:///nowhere/closed.def").await;
    assert!(closed["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("is not open"));
    let bad = c
        .request(
            "workspace/executeCommand",
            json!({"command": "dgnkit.compareWithHead", "arguments": []}),
        )
        .await;
    assert!(bad["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("takes the document's URI"));
}
