//! Edits that change only comments or spacing do not rerun the analysis;
//! edits that change a statement do. Counted by the database, checked
//! against the library after every edit.

use crate::common::*;
use dgnkit_lsp::analysis::check_options;
use dgnkit_lsp::config::Config;
use dgnkit_lsp::state::State;
use serde_json::json;
use std::str::FromStr;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

struct Doc {
    state: State,
    uri: Uri,
    text: String,
    version: i32,
}

impl Doc {
    fn open(text: &str) -> Doc {
        let mut state = State::new(Config::default());
        let uri = Uri::from_str(URI).unwrap();
        state.open(uri.clone(), 1, text.to_string());
        let doc = Doc {
            state,
            uri,
            text: text.to_string(),
            version: 1,
        };
        doc.check();
        doc
    }

    /// Replaces the first `old` by `new`, as an editor sends it.
    fn edit(&mut self, old: &str, new: &str) {
        let at = self.text.find(old).expect("text to edit");
        let (start, end) = (pos_at(&self.text, at), pos_at(&self.text, at + old.len()));
        let p = |v: &serde_json::Value| {
            Position::new(
                v["line"].as_u64().unwrap() as u32,
                v["character"].as_u64().unwrap() as u32,
            )
        };
        self.version += 1;
        let change = TextDocumentContentChangeEvent {
            range: Some(Range {
                start: p(&start),
                end: p(&end),
            }),
            range_length: None,
            text: new.into(),
        };
        assert!(self.state.change(&self.uri, self.version, vec![change]));
        self.text = self.text.replacen(old, new, 1);
        self.check();
    }

    /// The server's diagnostics are the library's on the current text.
    fn check(&self) {
        let view = self.state.doc(&self.uri).unwrap();
        assert_eq!(view.text(), self.text.as_bytes());
        let expected = dgnkit::frontend::analyze_fast(
            self.text.as_bytes(),
            &check_options(&self.state.config()),
        );
        assert_eq!(**view.diagnostics(), expected.diagnostics);
    }

    fn runs(&self) -> usize {
        self.state.db.analysis_runs()
    }
}

const TEXT: &str = "# A dungeon
#\tcomment block
DUNGEON:\t\"The Dungeons of Doom\" \"D\" (25, 5)
BRANCH:\t\t\"Mines\" @ (2, 3)
LEVEL:\t\t\"oracle\" \"O\" @ (5, 5)
CHAINLEVEL:\t\"next\" \"N\" \"oracle\" + (1, 0)

DUNGEON:\t\"Mines\" \"M\" (8, 2)
LEVEL:\t\t\"minetn\" \"T\" @ (3, 2)
";

#[test]
fn comment_and_spacing_edits_do_not_rerun_the_analysis() {
    let mut doc = Doc::open(TEXT);
    assert_eq!(doc.runs(), 1);
    doc.edit("# A dungeon", "# The main dungeon, edited");
    doc.edit(
        "#\tcomment block",
        "#\tcomment block\n# one more comment line",
    );
    doc.edit("BRANCH:\t\t\"Mines\"", "BRANCH: \"Mines\"");
    doc.edit("@ (5, 5)\n", "@ (5,5)   \n");
    doc.edit(
        "\n\nDUNGEON:\t\"Mines\"",
        "\n\n# before the mines\n\nDUNGEON:\t\"Mines\"",
    );
    doc.edit("(8, 2)", "( 8 , 2 )");
    assert_eq!(doc.runs(), 1, "comments and spacing reran the analysis");

    // A change to a statement reruns it, once.
    doc.edit("(25, 5)", "(26, 5)");
    assert_eq!(doc.runs(), 2);
    doc.edit("\"next\"", "\"later\"");
    assert_eq!(doc.runs(), 3);
    // A new statement, and a line break between statements, rerun it too.
    doc.edit(
        "LEVEL:\t\t\"minetn\"",
        "LEVEL:\t\t\"minend\" \"E\" @ (-1, 0)\nLEVEL:\t\t\"minetn\"",
    );
    assert_eq!(doc.runs(), 4);
}

#[test]
fn settings_rerun_the_analysis_and_text_edits_keep_them() {
    let mut doc = Doc::open(TEXT);
    doc.state.set_config(Config {
        target: dgnkit::options::Target::Native,
        ..Config::default()
    });
    doc.check();
    assert_eq!(doc.runs(), 2);
    doc.edit("# A dungeon", "# edited");
    assert_eq!(doc.runs(), 2);
    // The same settings again change nothing.
    doc.state.set_config(Config {
        target: dgnkit::options::Target::Native,
        ..Config::default()
    });
    doc.check();
    assert_eq!(doc.runs(), 2);
}

/// The same through the LSP service: didChange notifications of a comment
/// edit publish new diagnostics without a new analysis.
#[tokio::test]
async fn through_the_service() {
    let Some(text) = vanilla() else { return };
    let mut c = Client::start(json!({})).await;
    c.open(URI, &text).await;
    let runs = c.server().analysis_runs();
    let p = pos_of(&text, "Copyright", 0);
    let edit = json!([{"range": {"start": p, "end": p}, "text": "(edited) "}]);
    let d = c.change(URI, 2, edit).await;
    assert_eq!(d["version"], 2);
    let h = c
        .call(
            "textDocument/hover",
            json!({"textDocument": {"uri": URI}, "position": pos_of(&text, "\"oracle\"", 2)}),
        )
        .await;
    assert!(h["contents"]["value"].as_str().unwrap().contains("oracle"));
    assert_eq!(c.server().analysis_runs(), runs);
    // Positions after the edit still resolve to the same level.
    let p2 = pos_of(&text, "\"oracle\" \"O\"", 2);
    let refs = c
        .call("textDocument/references", json!({"textDocument": {"uri": URI}, "position": p2, "context": {"includeDeclaration": true}}))
        .await;
    assert!(refs.as_array().unwrap().len() >= 2);
}
