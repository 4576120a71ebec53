//! NetHack 3.7's `dungeon.lua` in the language server, driven in-process
//! like `.def` files (see capabilities.rs): diagnostics as one types (the
//! Lua reader's and every model check's, equal to the library's), hovers
//! with each level's depths and bones verdict under 3.7's rules,
//! definition, references and rename of chain levels and branch targets,
//! and formatting that keeps the file's layout and comments.

use crate::common::*;
use dgnkit::frontend::SourceKind;
use dgnkit_lsp::config::Config;
use serde_json::{json, Value};

const LUA_URI: &str = "file:///work/dat/dungeon.lua";

/// dgnkit's own description of NetHack 3.7's dungeon (in the repository).
fn builtin() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/nethack-3.7.lua");
    std::fs::read_to_string(path).expect("corpus/nethack-3.7.lua")
}

/// A small dungeon.lua with a misspelt field, an expression that fails
/// when the file runs and a chain to a level that does not exist.
const BROKEN: &str = r#"-- A test dungeon.
dungeon = {
   {
      name = "Main",
      bonetag = "M",
      base = 10,
      levels = {
         { name = "start", bonetag = "S", base = 2 },
         { name = "mid", bonetag = "X", chainlevel = "nowhere", base = 1 },
      },
      brnches = {},
   },
   {
      name = "Side",
      base = 2 + nil,
   },
}
"#;

fn at(uri: &str, text: &str, needle: &str, delta: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": pos_of(text, needle, delta)})
}

/// What `dgn check --target nethack-3.7` reports for `text`, as codes.
fn library_codes(text: &str, config: &Config) -> Vec<&'static str> {
    let opts = dgnkit_lsp::analysis::check_options(&config.for_source(true));
    dgnkit::frontend::analyze_as(SourceKind::Lua, text.as_bytes(), &opts)
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect()
}

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

async fn inline() -> Client {
    Client::start(json!({"dgnkit": {"statistics": "inline"}})).await
}

#[tokio::test]
async fn diagnostics_as_you_type_match_the_library() {
    let mut c = inline().await;
    let published = c.open(LUA_URI, BROKEN).await;
    let got = codes(&published);
    let config = Config::default();
    assert_eq!(got, library_codes(BROKEN, &config));
    // The reader's and the checks' diagnostics, on their spans.
    let diags = published["diagnostics"].as_array().unwrap();
    let find = |code: &str| {
        diags
            .iter()
            .find(|d| d["code"] == code)
            .unwrap_or_else(|| panic!("no {code} in {diags:?}"))
    };
    let misspelt = diags
        .iter()
        .find(|d| d["range"]["start"] == pos_of(BROKEN, "brnches", 0))
        .expect("the misspelt field is reported on its name");
    assert!(
        misspelt["message"].as_str().unwrap().contains("branches"),
        "{misspelt}"
    );
    let not_constant = find("E1202");
    assert_eq!(not_constant["range"]["start"], pos_of(BROKEN, "2 + nil", 0));
    // The run's own error is on its line.
    find("E1212");
    let chain = diags
        .iter()
        .find(|d| d["range"]["start"] == pos_of(BROKEN, "\"nowhere\"", 0))
        .expect("the unknown chain level is reported on its name");
    assert_eq!(chain["code"], "E0501", "{chain}");
    assert_eq!(chain["severity"], 1, "{chain}");

    // Fix the expression as one types: its error goes, the others stay.
    let start = pos_of(BROKEN, "2 + nil", 0);
    let end = pos_of(BROKEN, "2 + nil", 7);
    let fixed_text = BROKEN.replace("2 + nil", "4");
    let published = c
        .change(
            LUA_URI,
            2,
            json!([{"range": {"start": start, "end": end}, "text": "4"}]),
        )
        .await;
    assert_eq!(published["version"], 2);
    let got = codes(&published);
    assert!(!got.contains(&"E1202".to_string()), "{got:?}");
    assert!(!got.contains(&"E1212".to_string()), "{got:?}");
    assert_eq!(got, library_codes(&fixed_text, &config));
    assert_eq!(
        c.server()
            .document_text(&LUA_URI.parse().unwrap())
            .as_deref(),
        Some(fixed_text.as_bytes())
    );
}

#[tokio::test]
async fn a_dungeon_lua_is_checked_for_nethack_37_whatever_the_def_target() {
    // `target` is for .def files; `luaTarget` (default nethack-3.7) for
    // dungeon.lua. The built-in 3.7 description is clean under 3.7's
    // rules; checked against 3.6's it would not be (3.6 has no Tutorial).
    let text = builtin();
    let mut c =
        Client::start(json!({"dgnkit": {"target": "nethack-3.6", "statistics": "inline"}})).await;
    let published = c.open(LUA_URI, &text).await;
    assert_eq!(published["diagnostics"], json!([]), "{published}");
    let as_36 = Config {
        lua_target: dgnkit::options::Target::NetHack36,
        ..Config::default()
    };
    let with_36 = library_codes(&text, &as_36);
    assert!(!with_36.is_empty(), "3.6 should object to 3.7's dungeon");
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"dgnkit": {"luaTarget": "nethack-3.6"}}}),
    )
    .await;
    let published = c.diagnostics(LUA_URI).await;
    let got = codes(&published);
    assert_eq!(got, with_36);
}

#[tokio::test]
async fn hover_shows_depths_and_bones_under_37_rules() {
    let text = builtin();
    let mut c = inline().await;
    let published = c.open(LUA_URI, &text).await;
    assert_eq!(published["diagnostics"], json!([]));
    let hover = |h: Value| h["contents"]["value"].as_str().unwrap().to_string();
    // The Oracle: levels 5-9 of the Dungeons of Doom, exact odds.
    let h = hover(
        c.call(
            "textDocument/hover",
            at(LUA_URI, &text, "\"oracle\", bonetag", 2),
        )
        .await,
    );
    assert!(
        h.contains("**\"oracle\"**: special level of **The Dungeons of Doom**"),
        "{h}"
    );
    assert!(h.contains("`base = 5, range = 5`"), "{h}");
    assert!(
        h.contains("- depth: 5 (20%), 6 (20%), 7 (20%), 8 (20%), 9 (20%)"),
        "{h}"
    );
    assert!(h.contains("- bones marker: \"O\""), "{h}");
    assert!(h.contains("- bones: eligible"), "{h}");
    assert!(h.contains("- bones file: `"), "{h}");
    // Medusa has no bonetag in 3.7: never bones.
    let h = hover(
        c.call("textDocument/hover", at(LUA_URI, &text, "\"medusa\"", 2))
            .await,
    );
    assert!(h.contains("- bones: never"), "{h}");
    assert!(h.contains("- depth: 21"), "{h}");
    // On a chain reference: the level it names.
    let h = hover(
        c.call(
            "textDocument/hover",
            at(LUA_URI, &text, "chainlevel = \"oracle\"", 15),
        )
        .await,
    );
    assert!(h.contains("**\"oracle\"**"), "{h}");
    // A dungeon: where it starts.
    let h = hover(
        c.call(
            "textDocument/hover",
            at(LUA_URI, &text, "name = \"Gehennom\", bonetag", 9),
        )
        .await,
    );
    assert!(h.contains("**Gehennom**: dungeon"), "{h}");
    assert!(h.contains("- depth of level 1: "), "{h}");
    // Nothing on a comment.
    let none = c
        .call(
            "textDocument/hover",
            at(LUA_URI, &text, "The main dungeon", 2),
        )
        .await;
    assert_eq!(none, Value::Null);
}

/// Sizes, placements, entries and branches as dungeon.lua spells them
/// (NetHack 3.7's fields: `base`, `range`, `chance`, `nlevels`, `entry`,
/// `chainlevel`), never `.def`'s `(base, rand)` couples or keywords.
#[tokio::test]
async fn hovers_spell_sizes_as_the_lua_file_does() {
    let text = builtin();
    let mut c = inline().await;
    c.open(LUA_URI, &text).await;
    let mut hover = async |needle: &str, delta: u32| -> String {
        let h = c
            .call("textDocument/hover", at(LUA_URI, &text, needle, delta))
            .await;
        h["contents"]["value"].as_str().unwrap().to_string()
    };
    let doom = hover("name = \"The Dungeons of Doom\"", 9).await;
    assert!(
        doom.contains("- size: 25 (20%), 26 (20%), 27 (20%), 28 (20%), 29 (20%) levels (`base = 25, range = 5`)"),
        "{doom}"
    );
    let bigrm = hover("\"bigrm\"", 2).await;
    assert!(
        bigrm.contains("`base = 10, range = 3, chance = 40, nlevels = 13`, one of 13 variants"),
        "{bigrm}"
    );
    // No `range` in the file: none in the hover.
    let castle = hover("name = \"castle\"", 9).await;
    assert!(castle.contains("`base = -1`"), "{castle}");
    let gehennom = hover("name = \"Gehennom\", bonetag", 9).await;
    assert!(
        gehennom.contains("- size: 20 (20%), 21 (20%), 22 (20%), 23 (20%), 24 (20%) levels (`base = 20, range = 5`)"),
        "{gehennom}"
    );
    assert!(
        gehennom.contains("- reached by: an entry of **The Dungeons of Doom**'s `branches` (`chainlevel = \"castle\", base = 0`), one-way stairs (no_down) down"),
        "{gehennom}"
    );
    let sokoban = hover("name = \"Sokoban\", base = 4", 9).await;
    assert!(sokoban.contains("(`base = 4`)"), "{sokoban}");
    assert!(
        sokoban.contains("- entry: the bottom level (`entry = -1`)"),
        "{sokoban}"
    );
    for h in [&doom, &bigrm, &castle, &gehennom, &sokoban] {
        for def_style in ["`(", "`LEVEL`", "`RNDLEVEL`", "BRANCH`", "@ ("] {
            assert!(!h.contains(def_style), "{def_style} in {h}");
        }
    }
}

/// Semantic tokens as (text, type, modifiers), in file order.
fn decoded(text: &str, data: &Value) -> Vec<(String, u64, u64)> {
    let lines: Vec<&str> = text.split('\n').collect();
    let nums: Vec<u64> = data["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let (mut line, mut col) = (0u64, 0u64);
    let mut out = Vec::new();
    for t in nums.chunks(5) {
        if t[0] > 0 {
            line += t[0];
            col = t[1];
        } else {
            col += t[1];
        }
        // The corpus files are ASCII: UTF-16 columns are byte columns.
        let l = lines[line as usize];
        out.push((
            l[col as usize..(col + t[2]) as usize].to_string(),
            t[3],
            t[4],
        ));
    }
    out
}

/// A dungeon.lua's names, chain references and value words get the token
/// types `.def` gives the same things: NetHack 3.7's file against 3.6's.
#[tokio::test]
async fn semantic_tokens_type_names_as_def_does() {
    let lua = builtin();
    let def = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/nethack-3.6.def"
    ))
    .unwrap();
    let def_uri = "file:///work/dat/dungeon.def";
    let mut c = inline().await;
    c.open(LUA_URI, &lua).await;
    c.open(def_uri, &def).await;
    let tokens = |uri: &str| json!({"textDocument": {"uri": uri}});
    let lua_toks = decoded(
        &lua,
        &c.call("textDocument/semanticTokens/full", tokens(LUA_URI))
            .await,
    );
    let def_toks = decoded(
        &def,
        &c.call("textDocument/semanticTokens/full", tokens(def_uri))
            .await,
    );
    let legend = dgnkit_lsp::features::semantic_tokens::legend();
    let type_of = |name: &str| {
        legend
            .token_types
            .iter()
            .position(|t| t.as_str() == name)
            .unwrap() as u64
    };
    let has = |text: &str, ty: &str, mods: u64| {
        lua_toks
            .iter()
            .any(|t| t.0 == text && t.1 == type_of(ty) && t.2 == mods)
    };
    assert!(has("dungeon", "keyword", 0), "{lua_toks:?}");
    assert!(has("name", "keyword", 0));
    assert!(has("chainlevel", "keyword", 0));
    assert!(has("\"The Dungeons of Doom\"", "namespace", 1));
    assert!(
        has("\"The Gnomish Mines\"", "namespace", 0),
        "a branch target"
    );
    assert!(has("\"oracle\"", "class", 1), "a level");
    assert!(has("\"oracle\"", "class", 0), "a chain reference");
    assert!(has("\"portal\"", "enumMember", 0));
    assert!(has("\"mazelike\"", "enumMember", 0), "inside a flags list");
    assert!(has("\"D\"", "string", 0), "a bones tag");
    assert!(has("25", "number", 0));
    assert!(has("-5", "number", 0));
    // Every string both files have, bare words of .def and strings of
    // .lua alike, has the same types in both.
    let roles = |toks: &[(String, u64, u64)]| {
        let mut m: std::collections::BTreeMap<String, std::collections::BTreeSet<(u64, u64)>> =
            Default::default();
        for (text, ty, mods) in toks {
            if *ty == type_of("string") || text.parse::<i64>().is_ok() {
                continue;
            }
            if [
                type_of("namespace"),
                type_of("class"),
                type_of("enumMember"),
            ]
            .contains(ty)
            {
                m.entry(text.trim_matches('"').to_string())
                    .or_default()
                    .insert((*ty, *mods));
            }
        }
        m
    };
    let (l, d) = (roles(&lua_toks), roles(&def_toks));
    let mut shared = 0;
    for (text, types) in &l {
        if let Some(def_types) = d.get(text) {
            shared += 1;
            assert_eq!(types, def_types, "{text}");
        }
    }
    assert!(shared >= 20, "{shared} names and words shared: {l:?}");
}

#[tokio::test]
async fn definition_references_and_rename_of_chain_levels() {
    let text = builtin();
    let mut c = Client::start(json!({"dgnkit": {"statistics": "off"}})).await;
    c.open(LUA_URI, &text).await;
    // `chainlevel = "oracle"` -> the level's entry.
    let def = c
        .call(
            "textDocument/definition",
            at(LUA_URI, &text, "chainlevel = \"oracle\"", 16),
        )
        .await;
    assert_eq!(def["uri"], LUA_URI);
    assert_eq!(
        def["range"]["start"],
        pos_of(&text, "\"oracle\", bonetag", 1)
    );
    assert_eq!(def["range"]["end"], pos_of(&text, "\"oracle\", bonetag", 7));
    // A branch's target -> the dungeon.
    let def = c
        .call(
            "textDocument/definition",
            at(LUA_URI, &text, "{ name = \"Sokoban\", chainlevel", 11),
        )
        .await;
    let sokoban = text.find("name = \"Sokoban\", base").unwrap() + "name = \"".len();
    assert_eq!(def["range"]["start"], pos_at(&text, sokoban));

    let refs = c
        .call(
            "textDocument/references",
            json!({"textDocument": {"uri": LUA_URI}, "position": pos_of(&text, "\"oracle\", bonetag", 2), "context": {"includeDeclaration": true}}),
        )
        .await;
    let refs = refs.as_array().unwrap();
    assert_eq!(refs.len(), 3, "the level and its two chains: {refs:?}");

    let edit = c
        .call(
            "textDocument/rename",
            json!({"textDocument": {"uri": LUA_URI}, "position": pos_of(&text, "\"oracle\", bonetag", 2), "newName": "delphi"}),
        )
        .await;
    let edits = edit["changes"][LUA_URI].as_array().unwrap();
    assert_eq!(edits.len(), 3);
    assert!(edits.iter().all(|e| e["newText"] == "delphi"));
    // A name Lua would need an escape for is refused.
    let bad = c
        .request(
            "textDocument/rename",
            json!({"textDocument": {"uri": LUA_URI}, "position": pos_of(&text, "\"oracle\", bonetag", 2), "newName": "a\\b"}),
        )
        .await;
    assert!(bad.get("error").is_some(), "{bad}");
}

/// Applies LSP text edits to `text` (positions in UTF-16, as sent).
fn apply(text: &str, edits: &Value) -> String {
    let mut edits: Vec<&Value> = edits.as_array().unwrap().iter().collect();
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let ch = p["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let line_text = &text[start..];
        let mut units = 0;
        let mut bytes = 0;
        for c in line_text.chars() {
            if units >= ch {
                break;
            }
            units += c.len_utf16();
            bytes += c.len_utf8();
        }
        start + bytes
    };
    edits.sort_by_key(|e| std::cmp::Reverse(offset(&e["range"]["start"])));
    let mut out = text.to_string();
    for e in edits {
        let (a, b) = (offset(&e["range"]["start"]), offset(&e["range"]["end"]));
        out.replace_range(a..b, e["newText"].as_str().unwrap());
    }
    out
}

#[tokio::test]
async fn formatting_keeps_layout_and_comments() {
    let messy = "-- NetHack 3.7 — “test”\ndungeon = {\n{\n  name = \"Main\",   -- the main one\n        base = 10,\n   levels = {\n{ name = \"start\", base = 2 },\n\n  --[[ a long\n     comment ]]\n  },\n},\n}";
    let expected = "-- NetHack 3.7 — “test”\ndungeon = {\n   {\n      name = \"Main\",   -- the main one\n      base = 10,\n      levels = {\n         { name = \"start\", base = 2 },\n\n         --[[ a long\n     comment ]]\n      },\n   },\n}\n";
    let mut c = Client::start(json!({"dgnkit": {"statistics": "off"}})).await;
    c.open(LUA_URI, messy).await;
    let options = json!({"tabSize": 3, "insertSpaces": true});
    let edits = c
        .call(
            "textDocument/formatting",
            json!({"textDocument": {"uri": LUA_URI}, "options": options}),
        )
        .await;
    let formatted = apply(messy, &edits);
    assert_eq!(formatted, expected);
    assert_eq!(
        dgnkit::lua::format::format(messy.as_bytes()).unwrap(),
        expected.as_bytes()
    );
    // The formatted file reads to the same model.
    let read = |s: &str| {
        dgnkit::frontend::analyze_as(SourceKind::Lua, s.as_bytes(), &Default::default()).script
    };
    assert_eq!(read(messy), read(&formatted));

    // NetHack's own layout (dgnkit's built-in file) is already formatted.
    let text = builtin();
    c.change(LUA_URI, 2, json!([{"text": text}])).await;
    let edits = c
        .call(
            "textDocument/formatting",
            json!({"textDocument": {"uri": LUA_URI}, "options": options}),
        )
        .await;
    assert_eq!(edits, json!([]));

    // A syntax error: nothing is rewritten, the reason is given.
    c.change(
        LUA_URI,
        3,
        json!([{"text": "dungeon = { { name = \"x\" }\n"}]),
    )
    .await;
    let resp = c
        .request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": LUA_URI}, "options": options}),
        )
        .await;
    assert_eq!(resp["error"]["code"], -32803, "{resp}");
}

#[tokio::test]
async fn the_reference_dungeon_lua_is_served() {
    let Some(dir) = corpus_dir() else { return };
    let path = dir.join("NetHack__NetHack@3.7").join("dungeon.lua");
    let text = std::fs::read_to_string(path).expect("NetHack 3.7's dungeon.lua");
    let mut c = Client::start(json!({"dgnkit": {"statistics": "off"}})).await;
    let published = c.open(LUA_URI, &text).await;
    assert_eq!(codes(&published), library_codes(&text, &Config::default()));
    // Symbols: every dungeon of the file, with its levels.
    let symbols = c
        .call(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": LUA_URI}}),
        )
        .await;
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"The Dungeons of Doom"), "{names:?}");
    assert!(names.contains(&"The Tutorial"), "{names:?}");
    // Completion offers no .def keywords in Lua.
    let items = c
        .call(
            "textDocument/completion",
            json!({"textDocument": {"uri": LUA_URI}, "position": {"line": 5, "character": 0}}),
        )
        .await;
    assert_eq!(items, json!([]));
    // NetHack's own layout is already formatted: no edits.
    let edits = c
        .call(
            "textDocument/formatting",
            json!({"textDocument": {"uri": LUA_URI}, "options": {"tabSize": 3, "insertSpaces": true}}),
        )
        .await;
    assert_eq!(edits, json!([]));
}
