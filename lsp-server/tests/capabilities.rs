//! Every capability, driven in-process through `LspService` with JSON-RPC
//! messages, with snapshots of the answers.

mod common;

use common::*;
use serde_json::{json, Value};

/// A small file with errors, warnings and fixes, multibyte text and a
/// trailing comment. Checked with `target: native` so that NetHack's
/// hard-wired dungeons are not required.
const FIXTURE: &str = "# Test dungeons — “quoted” ünïcode 𝄞 in a comment
DUNGEON: \"Main\" \"D\" (10, 2)
BRANCH: \"Side\" @ (2, 2)
LEVEL: \"start\" \"S\" @ (1, 0)
RNDCHAINLEVEL: \"mid\" \"M\" \"start\" + (3, 1) 2
LEVEL: \"end\" \"E\" @ (-1, 0) # at the bottom
BRANCH: \"Nowhere\" @ (3, 0)
DUNGEON: \"Side\" \"S\" (4, 0)
LEVEL: \"deep\" \"X\" @ (7, 0)
DESCRIPTION: townish
";

const FIX_URI: &str = "file:///work/fixture.def";

fn doc(uri: &str) -> Value {
    json!({"uri": uri})
}

fn at(uri: &str, text: &str, needle: &str, delta: u32) -> Value {
    json!({"textDocument": doc(uri), "position": pos_of(text, needle, delta)})
}

/// Diagnostics without their message text (checked for equality with the
/// library elsewhere), so that rewording a message does not move snapshots.
fn shape(diags: &Value) -> Value {
    let list = diags["diagnostics"].as_array().cloned().unwrap_or_default();
    Value::Array(
        list.iter()
            .map(|d| {
                json!({
                    "range": d["range"],
                    "severity": d["severity"],
                    "code": d["code"],
                    "related": d["relatedInformation"].as_array().map_or(0, Vec::len),
                })
            })
            .collect(),
    )
}

async fn native() -> Client {
    Client::start(json!({"dgnkit": {"target": "native", "statistics": "inline"}})).await
}

#[tokio::test]
async fn initialize_announces_capabilities() {
    insta::assert_json_snapshot!("capabilities", dgnkit_lsp::server::capabilities());
}

#[tokio::test]
async fn diagnostics_match_the_library_with_utf16_ranges() {
    let mut c = native().await;
    let published = c.open(FIX_URI, FIXTURE).await;
    insta::assert_json_snapshot!("fixture_diagnostics", shape(&published));
    let config = dgnkit_lsp::config::Config {
        target: dgnkit::options::Target::Native,
        ..Default::default()
    };
    let expected = dgnkit::frontend::analyze(
        FIXTURE.as_bytes(),
        &dgnkit_lsp::analysis::check_options(&config),
    );
    let got = published["diagnostics"].as_array().unwrap();
    assert_eq!(got.len(), expected.diagnostics.len());
    for (g, e) in got.iter().zip(&expected.diagnostics) {
        assert_eq!(g["code"], e.code);
        assert!(
            g["message"].as_str().unwrap().starts_with(&e.message),
            "{g} vs {e:?}"
        );
    }
    // The trailing comment warning sits on the comment, after the
    // multibyte-free line; the first line's multibyte text does not shift it.
    let trailing = got
        .iter()
        .find(|d| d["code"] == "W1102")
        .expect("trailing comment warning");
    assert_eq!(
        trailing["range"]["start"],
        pos_of(FIXTURE, "# at the bottom", 0)
    );
}

#[tokio::test]
async fn quick_fixes_come_from_diagnostic_fixes() {
    let mut c = native().await;
    c.open(FIX_URI, FIXTURE).await;
    let line = pos_of(FIXTURE, "RNDCHAINLEVEL", 0)["line"].clone();
    let actions = c
        .call(
            "textDocument/codeAction",
            json!({"textDocument": doc(FIX_URI), "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 5}}, "context": {"diagnostics": []}}),
        )
        .await;
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert!(!titles.is_empty());
    insta::assert_json_snapshot!("code_action_rndchainlevel", actions[0]["edit"]);
    let line = pos_of(FIXTURE, "# at the bottom", 0)["line"].clone();
    let actions = c
        .call(
            "textDocument/codeAction",
            json!({"textDocument": doc(FIX_URI), "range": {"start": {"line": line, "character": 30}, "end": {"line": line, "character": 30}}, "context": {"diagnostics": []}}),
        )
        .await;
    let trailing = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["diagnostics"][0]["code"] == "W1102")
        .expect("a fix for the trailing comment");
    insta::assert_json_snapshot!("code_action_trailing_comment", trailing["edit"]);
}

#[tokio::test]
async fn settings_change_the_diagnostics() {
    let mut c = Client::start(json!({})).await;
    let nethack = c.open(FIX_URI, FIXTURE).await;
    let codes = |d: &Value| -> Vec<String> {
        d["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["code"].as_str().unwrap().to_string())
            .collect()
    };
    // NetHack's loader needs its hard-wired dungeons; native does not.
    assert!(
        codes(&nethack).contains(&"W1002".to_string()),
        "{:?}",
        codes(&nethack)
    );
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"dgnkit": {"target": "native", "allow": ["compat"]}}}),
    )
    .await;
    let after = c.diagnostics(FIX_URI).await;
    let after = codes(&after);
    assert!(!after.contains(&"W1002".to_string()), "{after:?}");
    assert!(
        !after.iter().any(|c| c.starts_with("W11")),
        "compat lints allowed: {after:?}"
    );
    // A bad value is reported, and the rest of the settings still apply.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"dgnkit": {"target": "nethack-9"}}}),
    )
    .await;
    let msg = c.next("window/showMessage").await;
    assert!(
        msg["message"].as_str().unwrap().contains("nethack-9"),
        "{msg}"
    );
}

#[tokio::test]
async fn defines_select_flag_lines() {
    let text = "DUNGEON: \"Main\" \"D\" (10, 2)\n%EXTRA LEVEL: \"x\" \"X\" @ (99, 0)\n";
    let mut c = native().await;
    let without = c.open(FIX_URI, text).await;
    let codes = |d: &Value| -> Vec<String> {
        d["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["code"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(
        !codes(&without).iter().any(|c| c.starts_with("E04")),
        "{:?}",
        codes(&without)
    );
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"dgnkit": {"defines": ["EXTRA"]}}}),
    )
    .await;
    let with = c.diagnostics(FIX_URI).await;
    assert!(
        codes(&with).iter().any(|c| c.starts_with("E04")),
        "{:?}",
        codes(&with)
    );
}

async fn vanilla_client() -> Option<(Client, String)> {
    let text = vanilla()?;
    let mut c = Client::start(json!({"dgnkit": {"statistics": "inline"}})).await;
    let d = c.open(URI, &text).await;
    assert_eq!(d["diagnostics"], json!([]), "vanilla is clean");
    Some((c, text))
}

#[tokio::test]
async fn hovers() {
    let Some((mut c, text)) = vanilla_client().await else {
        return;
    };
    let cases = [
        ("level_oracle", "\"oracle\" \"O\"", 3),
        ("level_medusa", "\"medusa\"", 2),
        ("level_via_chain_reference", "\"Sokoban\" \"oracle\"", 13),
        ("dungeon_mines", "DUNGEON:\t\"The Gnomish Mines\"", 12),
        ("dungeon_main", "\"The Dungeons of Doom\" \"D\"", 4),
        ("branch_keyword", "CHAINBRANCH:\t\"Sokoban\"", 2),
        ("branch_type_word", "portal", 1),
        ("descriptor_word", "mazelike", 2),
        ("keyword_rndlevel", "RNDLEVEL", 1),
        ("couple_of_a_level", "@ (15, 4)", 4),
    ];
    for (name, needle, delta) in cases {
        let h = c
            .call("textDocument/hover", at(URI, &text, needle, delta))
            .await;
        insta::assert_json_snapshot!(format!("hover_{name}"), h);
    }
    let none = c
        .call("textDocument/hover", at(URI, &text, "Copyright", 2))
        .await;
    assert_eq!(none, Value::Null, "no hover on a comment");
}

#[tokio::test]
async fn hover_without_statistics_shows_static_ranges() {
    let mut c = native().await;
    c.open(FIX_URI, FIXTURE).await;
    let h = c
        .call("textDocument/hover", at(FIX_URI, FIXTURE, "\"mid\"", 2))
        .await;
    insta::assert_json_snapshot!("hover_static_ranges", h);
}

#[tokio::test]
async fn statistics_arrive_in_the_background() {
    let Some(text) = vanilla() else { return };
    let mut c = Client::start(json!({})).await;
    c.open(URI, &text).await;
    async fn hover(c: &mut Client, p: Value) -> String {
        c.call("textDocument/hover", p).await["contents"]["value"]
            .as_str()
            .unwrap()
            .to_string()
    }
    let p = at(URI, &text, "\"oracle\" \"O\"", 3);
    let first = hover(&mut c, p.clone()).await;
    assert!(first.contains("being computed"), "{first}");
    assert!(first.contains("level: 5-9"), "{first}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let h = hover(&mut c, p.clone()).await;
        if h.contains("5 (20%)") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "statistics never arrived: {h}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // A comment edit keeps them.
    let at_comment = pos_of(&text, "Copyright", 0);
    c.change(
        URI,
        2,
        json!([{"range": {"start": at_comment, "end": at_comment}, "text": "(c) "}]),
    )
    .await;
    assert!(hover(&mut c, p).await.contains("5 (20%)"));
}

#[tokio::test]
async fn definition_and_references() {
    let Some((mut c, text)) = vanilla_client().await else {
        return;
    };
    // From a chain reference to the level.
    let def = c
        .call(
            "textDocument/definition",
            at(URI, &text, "\"Sokoban\" \"oracle\"", 12),
        )
        .await;
    assert_eq!(def["range"]["start"], pos_of(&text, "\"oracle\" \"O\"", 1));
    // From a branch target to the dungeon.
    let def = c
        .call(
            "textDocument/definition",
            at(URI, &text, "BRANCH:\t\t\"The Gnomish Mines\"", 12),
        )
        .await;
    assert_eq!(
        def["range"]["start"],
        pos_of(&text, "DUNGEON:\t\"The Gnomish Mines\"", 10)
    );
    let refs = c
        .call(
            "textDocument/references",
            json!({"textDocument": doc(URI), "position": pos_of(&text, "\"oracle\" \"O\"", 2), "context": {"includeDeclaration": true}}),
        )
        .await;
    insta::assert_json_snapshot!("references_oracle", refs);
    let refs = c
        .call(
            "textDocument/references",
            json!({"textDocument": doc(URI), "position": pos_of(&text, "DUNGEON:\t\t\"Sokoban\"", 12), "context": {"includeDeclaration": false}}),
        )
        .await;
    insta::assert_json_snapshot!("references_sokoban_without_declaration", refs);
}

#[tokio::test]
async fn rename_levels_and_dungeons() {
    let Some((mut c, text)) = vanilla_client().await else {
        return;
    };
    let prep = c
        .call(
            "textDocument/prepareRename",
            at(URI, &text, "\"castle\" \"none\"", 2),
        )
        .await;
    insta::assert_json_snapshot!("prepare_rename_castle", prep);
    let edit = c
        .call("textDocument/rename", json!({"textDocument": doc(URI), "position": pos_of(&text, "\"castle\" \"none\"", 2), "newName": "keep"}))
        .await;
    insta::assert_json_snapshot!("rename_castle", edit);
    let edit = c
        .call(
            "textDocument/rename",
            json!({"textDocument": doc(URI), "position": pos_of(&text, "DUNGEON:\t\t\"Sokoban\"", 12), "newName": "Boulder Land"}),
        )
        .await;
    assert_eq!(edit["changes"][URI].as_array().unwrap().len(), 2, "{edit}");
    // Refused: quotes, an existing name, a name too long for NetHack.
    for bad in ["a\"b", "oracle", "a-very-long-level-name"] {
        let resp = c
            .request("textDocument/rename", json!({"textDocument": doc(URI), "position": pos_of(&text, "\"castle\" \"none\"", 2), "newName": bad}))
            .await;
        assert_eq!(resp["error"]["code"], -32602, "{bad}: {resp}");
        insta::assert_snapshot!(
            format!("rename_refused_{}", bad.len()),
            resp["error"]["message"].as_str().unwrap()
        );
    }
    // Nothing to rename on a keyword.
    let prep = c
        .call("textDocument/prepareRename", at(URI, &text, "LEVALIGN", 1))
        .await;
    assert_eq!(prep, Value::Null);
}

#[tokio::test]
async fn document_and_workspace_symbols() {
    let Some((mut c, text)) = vanilla_client().await else {
        return;
    };
    let syms = c
        .call(
            "textDocument/documentSymbol",
            json!({"textDocument": doc(URI)}),
        )
        .await;
    insta::assert_json_snapshot!("document_symbols", syms);
    c.open(FIX_URI, FIXTURE).await;
    let ws = c.call("workspace/symbol", json!({"query": "s"})).await;
    insta::assert_json_snapshot!("workspace_symbols", ws);
    let _ = text;
}

#[tokio::test]
async fn completion() {
    let text = "DUNGEON: \"Main\" \"D\" (10, 2)\nLEVEL: \"start\" \"S\" @ (1, 0)\nLEVEL: \"other\" \"O\" @ (5, 0)\nDESCRIPTION: \nCHAINLEVEL: \"next\" \"N\" \"\nBRANCH: \"\nBRANCH: \"Side\" @ (2, 2) \nBRANCH: \"Side\" @ (2, 2) stair \nLEV\nDUNGEON: \"Side\" \"S\" (4, 0)\n";
    let mut c = native().await;
    c.open(FIX_URI, text).await;
    let labels = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    let mut all = serde_json::Map::new();
    let cases = [
        ("descriptors", "DESCRIPTION: ", 13),
        ("chain_level_names", "\"N\" \"", 5),
        ("branch_targets", "BRANCH: \"\n", 9),
        ("branch_types_and_directions", "(2, 2) \nBRANCH", 7),
        ("directions_after_type", "stair ", 6),
        ("keywords", "LEV\n", 3),
    ];
    for (name, needle, delta) in cases {
        let items = c
            .call("textDocument/completion", at(FIX_URI, text, needle, delta))
            .await;
        all.insert(name.to_string(), json!(labels(&items)));
    }
    insta::assert_json_snapshot!("completion_labels", Value::Object(all));
    // Items replace what is being typed.
    let items = c
        .call("textDocument/completion", at(FIX_URI, text, "LEV\n", 3))
        .await;
    let level = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "LEVEL")
        .unwrap();
    insta::assert_json_snapshot!("completion_keyword_item", level);
}

#[tokio::test]
async fn semantic_tokens_inlay_hints_and_formatting() {
    let mut c = native().await;
    c.open(FIX_URI, FIXTURE).await;
    let toks = c
        .call(
            "textDocument/semanticTokens/full",
            json!({"textDocument": doc(FIX_URI)}),
        )
        .await;
    insta::assert_json_snapshot!("semantic_tokens", toks);
    let hints = c
        .call(
            "textDocument/inlayHint",
            json!({"textDocument": doc(FIX_URI), "range": {"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}}}),
        )
        .await;
    insta::assert_json_snapshot!("inlay_hints_fixture", hints);
    // The fixture has no syntax errors, so it formats.
    let fmt = c
        .call(
            "textDocument/formatting",
            json!({"textDocument": doc(FIX_URI), "options": {"tabSize": 8, "insertSpaces": false}}),
        )
        .await;
    insta::assert_json_snapshot!("formatting_fixture", fmt);
    // A syntax error: formatting is refused with the reason.
    c.change(FIX_URI, 2, json!([{"text": "DUNGEON: \"x\" (\n"}]))
        .await;
    let resp = c
        .request(
            "textDocument/formatting",
            json!({"textDocument": doc(FIX_URI), "options": {"tabSize": 8, "insertSpaces": false}}),
        )
        .await;
    assert_eq!(resp["error"]["code"], -32803, "{resp}");
}

#[tokio::test]
async fn inlay_hints_on_vanilla() {
    let Some((mut c, _text)) = vanilla_client().await else {
        return;
    };
    let hints = c
        .call(
            "textDocument/inlayHint",
            json!({"textDocument": doc(URI), "range": {"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}}}),
        )
        .await;
    let labels: Vec<String> = hints
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            format!(
                "{}:{} {}",
                h["position"]["line"],
                h["position"]["character"],
                h["label"].as_str().unwrap()
            )
        })
        .collect();
    insta::assert_json_snapshot!("inlay_hints_vanilla", labels);
}

#[tokio::test]
async fn incremental_edits_with_multibyte_text() {
    let mut c = native().await;
    c.open(FIX_URI, FIXTURE).await;
    // Replace "𝄞" (two UTF-16 units) in the comment with "x": offsets after it
    // shift by 3 bytes but the next lines' positions are unchanged.
    let p = pos_of(FIXTURE, "𝄞", 0);
    let end = json!({"line": p["line"], "character": p["character"].as_u64().unwrap() + 2});
    let d = c
        .change(
            FIX_URI,
            2,
            json!([{"range": {"start": p, "end": end}, "text": "x"}]),
        )
        .await;
    let before = c
        .call("textDocument/hover", at(FIX_URI, FIXTURE, "\"mid\"", 2))
        .await;
    assert!(before["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("\"mid\""));
    let fresh = {
        let mut c2 = native().await;
        c2.open(FIX_URI, &FIXTURE.replace('𝄞', "x")).await
    };
    assert_eq!(d["diagnostics"], fresh["diagnostics"]);
}

#[tokio::test]
async fn errors_not_crashes_for_bad_requests() {
    let mut c = native().await;
    c.open(FIX_URI, FIXTURE).await;
    let unknown = c.request("textDocument/frobnicate", json!({})).await;
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let bad_params = c
        .request("textDocument/hover", json!({"textDocument": 5}))
        .await;
    assert_eq!(bad_params["error"]["code"], -32602, "{bad_params}");
    let no_params = c.request("textDocument/definition", Value::Null).await;
    assert!(no_params.get("error").is_some(), "{no_params}");
    // Positions far outside the document are clamped, not fatal.
    let far = c
        .call(
            "textDocument/hover",
            json!({"textDocument": doc(FIX_URI), "position": {"line": 99999, "character": 99999}}),
        )
        .await;
    assert_eq!(far, Value::Null);
    let far_edit = c
        .change(FIX_URI, 3, json!([{"range": {"start": {"line": 500, "character": 3}, "end": {"line": 2, "character": 900}}, "text": "ÿ"}]))
        .await;
    assert!(far_edit["diagnostics"].is_array());
    // A document that is not open.
    let closed = c.call("textDocument/hover", json!({"textDocument": doc("file:///nope.def"), "position": {"line": 0, "character": 0}})).await;
    assert_eq!(closed, Value::Null);
    // Unknown notifications are ignored, and the server still answers.
    c.notify("$/somethingElse", json!({"x": 1})).await;
    let syms = c
        .call(
            "textDocument/documentSymbol",
            json!({"textDocument": doc(FIX_URI)}),
        )
        .await;
    assert!(syms.is_array());
}

#[tokio::test]
async fn non_utf8_file_keeps_its_bytes() {
    let Some(dir) = corpus_dir() else { return };
    let path = dir.join("jnethack__jnethack-alpha").join("dungeon.def");
    let bytes = std::fs::read(&path).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the fixture is not UTF-8"
    );
    let shown = String::from_utf8_lossy(&bytes).into_owned();
    let uri = format!("file://{}", path.display());
    let mut c = Client::start(json!({})).await;
    let published = c.open(&uri, &shown).await;
    // Same diagnostics as the library on the real bytes, at the positions the
    // editor shows (counted over the lossy text).
    let expected = dgnkit::frontend::analyze(&bytes, &Default::default());
    let got = published["diagnostics"].as_array().unwrap();
    assert_eq!(got.len(), expected.diagnostics.len(), "{published}");
    for (g, e) in got.iter().zip(&expected.diagnostics) {
        assert_eq!(g["code"], e.code);
        let prefix = String::from_utf8_lossy(&bytes[..e.span.start as usize]);
        let line = prefix.matches('\n').count();
        let col = prefix[prefix.rfind('\n').map_or(0, |p| p + 1)..]
            .encode_utf16()
            .count();
        assert_eq!(g["range"]["start"], json!({"line": line, "character": col}));
    }
    let syms = c
        .call(
            "textDocument/documentSymbol",
            json!({"textDocument": doc(&uri)}),
        )
        .await;
    assert!(!syms.as_array().unwrap().is_empty());
}

#[tokio::test]
async fn layout_odds_arrive_after_the_fast_diagnostics() {
    // Medusa fits only when the dungeon has at least 28 levels: the loader
    // fails in 3/5 of games, which only the enumeration (W1004) says.
    let text = "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\n\
                LEVEL: \"medusa\" \"none\" @ (28, 0)\n";
    let uri = "file:///work/odds.def";
    let mut c = Client::start(json!({"dgnkit": {"allow": ["missing-hardwired-dungeon"]}})).await;
    let codes = |p: &Value| -> Vec<String> {
        p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect()
    };
    let first = c.open(uri, text).await;
    assert!(!codes(&first).contains(&"W1004".to_string()), "{first}");
    assert!(codes(&first).contains(&"W0401".to_string()), "{first}");
    let complete = c.diagnostics(uri).await;
    assert_eq!(complete["version"], 1);
    let expected: Vec<String> = dgnkit::frontend::analyze(
        text.as_bytes(),
        &dgnkit::frontend::CheckOptions {
            lints: dgnkit::lint::LintLevels {
                allow: vec!["missing-hardwired-dungeon".into()],
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .diagnostics
    .iter()
    .map(|d| d.code.to_string())
    .collect();
    assert!(expected.contains(&"W1004".to_string()));
    assert_eq!(codes(&complete), expected, "{complete}");
    let m = complete["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "W1004")
        .unwrap();
    assert!(m["message"].as_str().unwrap().contains("60%"), "{m}");
}
