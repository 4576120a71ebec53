//! The language server follows the file's game: the note N0001 that
//! `dgn check` gives a variant's file checked as another game's, worded
//! for the editor (the setting to change); and hovers whose bones verdicts
//! are those of `dgn bones --target F` for every variant family.

use crate::common::*;
use dgnkit::bones::StaticKind;
use dgnkit::options::Target;
use serde_json::{json, Value};

/// A file of the repository's corpus (dgnkit's own descriptions of each
/// game, byte-identical to the games' own files where they are a game's).
fn repo_corpus(name: &str) -> (std::path::PathBuf, String) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(name);
    let path = path.canonicalize().expect("a corpus file");
    let text = std::fs::read_to_string(&path).expect("corpus files are UTF-8");
    (path, text)
}

fn notes(published: &Value) -> Vec<Value> {
    published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "N0001")
        .cloned()
        .collect()
}

async fn settings(c: &mut Client, settings: Value) {
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"dgnkit": settings}}),
    )
    .await;
}

#[tokio::test]
async fn a_file_whose_path_names_a_variant_gets_a_note_naming_the_setting() {
    let (_, text) = repo_corpus("clean-small-vanilla.def");
    let mut c = Client::start(json!({"dgnkit": {"statistics": "off"}})).await;
    let uri = "file:///home/me/src/unnethack/dat/dungeon.def";
    let published = c.open(uri, &text).await;
    let found = notes(&published);
    assert_eq!(found.len(), 1, "{published}");
    let note = &found[0];
    assert_eq!(note["severity"], 3, "information: {note}");
    assert_eq!(note["range"]["start"], json!({"line": 0, "character": 0}));
    let message = note["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "this looks like an UnNetHack file (its path names UnNetHack); set `dgnkit.target` to \"unnethack\""
        ),
        "{message}"
    );
    assert!(
        message.contains("checked with NetHack 3.6's language and limits"),
        "{message}"
    );
    assert!(message.contains("editor sends its default"), "{message}");
    assert!(!message.contains("--target"), "{message}");

    // The same text elsewhere, or unsaved: no game is shown, no note.
    let published = c.open("file:///home/me/src/mine/dungeon.def", &text).await;
    assert!(notes(&published).is_empty(), "{published}");
    let published = c.open("untitled:Untitled-1", &text).await;
    assert!(notes(&published).is_empty(), "{published}");

    // The file's own game: the note goes.
    settings(&mut c, json!({"target": "unnethack", "statistics": "off"})).await;
    let published = c.diagnostics(uri).await;
    assert!(notes(&published).is_empty(), "{published}");
    // Another game chosen (or sent as an editor's default): it comes back.
    settings(
        &mut c,
        json!({"target": "nethack-3.4.3", "statistics": "off"}),
    )
    .await;
    let published = c.diagnostics(uri).await;
    let found = notes(&published);
    assert_eq!(found.len(), 1, "{published}");
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .contains("NetHack 3.4.3's language"),
        "{published}"
    );
}

#[tokio::test]
async fn a_variant_without_a_target_and_a_dungeon_lua_get_the_setting_they_read() {
    // xNetHack reads a dungeon.lua: its checkout's file gets the setting
    // of dungeon.lua files, `luaTarget`.
    let (_, text) = repo_corpus("nethack-3.7.lua");
    let mut c = Client::start(json!({"dgnkit": {"statistics": "off"}})).await;
    let published = c.open("file:///src/xNetHack/dat/dungeon.lua", &text).await;
    let found = notes(&published);
    assert_eq!(found.len(), 1, "{published}");
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.contains(" xNetHack file (its path names xNetHack)"),
        "{message}"
    );
    assert!(
        message.contains("; set `dgnkit.luaTarget` to \"xnethack\""),
        "{message}"
    );
    assert!(!message.contains("`dgnkit.target`"), "{message}");

    // A dialect chosen in the settings shows the game too.
    let (_, def) = repo_corpus("clean-small-vanilla.def");
    settings(&mut c, json!({"dialect": "gnollhack", "statistics": "off"})).await;
    let published = c.open("file:///src/mine/dungeon.def", &def).await;
    let found = notes(&published);
    assert_eq!(found.len(), 1, "{published}");
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("this looks like a GnollHack file (`dgnkit.dialect` is \"gnollhack\"); set `dgnkit.target` to \"gnollhack\""),
        "{message}"
    );
}

#[tokio::test]
async fn the_checks_own_note_gets_the_setting_too() {
    // UnNetHack's file has more levels than NetHack 3.6 takes: the checks'
    // note names `--target unnethack`; the editor's adds the setting, and no
    // second note.
    let (_, text) = repo_corpus("unnethack-6.0.def");
    let mut c = Client::start(json!({"dgnkit": {"statistics": "off"}})).await;
    let published = c.open("file:///src/mine/dungeon.def", &text).await;
    let found = notes(&published);
    assert_eq!(found.len(), 1, "{published}");
    let message = found[0]["message"].as_str().unwrap();
    assert!(message.contains("`--target unnethack`"), "{message}");
    assert!(
        message.contains("in the editor: set `dgnkit.target` to \"unnethack\""),
        "{message}"
    );
}

#[tokio::test]
async fn a_game_without_a_target_gets_the_dialect_setting() {
    // SLASH'EM Extended's limits: the checks' note names its dialect.
    let (_, text) = repo_corpus("limits-branches-slashem-extended.def");
    let mut c = Client::start(json!({"dgnkit": {"statistics": "off"}})).await;
    let published = c.open("file:///src/mine/dungeon.def", &text).await;
    let found = notes(&published);
    assert_eq!(found.len(), 1, "{published}");
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.contains("`--dialect slashem-extended`"),
        "{message}"
    );
    assert!(
        message.contains("in the editor: set `dgnkit.dialect` to \"slashem-extended\""),
        "{message}"
    );
}

/// The hover's `- bones: ...` line.
fn bones_line(hover: &Value) -> String {
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    text.lines()
        .find(|l| l.starts_with("- bones: "))
        .unwrap_or_else(|| panic!("no bones line in {text}"))
        .to_string()
}

/// `dgn bones --target F --format json FILE`.
fn dgn_bones(target: Target, path: &std::path::Path) -> Value {
    let args = dgnkit_cli::bones::parse_args([
        "bones",
        "--target",
        target.name(),
        "--format",
        "json",
        path.to_str().unwrap(),
    ])
    .expect("dgn bones arguments");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = dgnkit_cli::bones::execute(&args, &mut out, &mut err, false);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    serde_json::from_slice(&out).expect("dgn bones writes JSON")
}

/// `dgn stats --target F --format json FILE`.
fn dgn_stats(target: Target, path: &std::path::Path, sample: bool) -> Value {
    let args = dgnkit_cli::stats::parse_args([
        "stats",
        "--target",
        target.name(),
        "--format",
        "json",
        if sample { "--sample" } else { "--exact" },
        path.to_str().unwrap(),
    ])
    .expect("dgn stats arguments");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = dgnkit_cli::stats::execute(&args, &mut out, &mut err, false);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    serde_json::from_slice(&out).expect("dgn stats writes JSON")
}

/// A distribution of `dgn stats`'s JSON as the hover writes it.
fn spelled(dist: &Value) -> String {
    let dist: dgnkit::stats::Dist = dist
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, p)| (k.parse().unwrap(), p.as_f64().unwrap()))
        .collect();
    dgnkit_lsp::facts::Place::Dist(dist).long()
}

/// Every special level's hover, for `target` on its own file, says the
/// verdict `dgn bones --target` says (its word and the rules that always
/// decide it) and the depths `dgn stats --target` gives, and the hover
/// names the game whose rules these are.
async fn hovers_follow_dgn_bones(target: Target, file: &str) {
    let (path, text) = repo_corpus(file);
    hovers_follow_dgn_bones_on(target, &path, &text).await;
}

/// The file's script, as the server lowers it.
fn model_script(text: &str, target: Target) -> Option<dgnkit::script::Script> {
    let opts = dgnkit::frontend::CheckOptions {
        target,
        dialect: target.game().dialect,
        ..Default::default()
    };
    dgnkit::frontend::analyze_fast(text.as_bytes(), &opts).script
}

/// dNetHack's own file takes about 1.5 GB for each exact enumeration
/// (`dgn bones`' and `dgn stats`'): one file at a time.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn hovers_follow_dgn_bones_on(target: Target, path: &std::path::Path, text: &str) {
    let _turn = ONE_AT_A_TIME.lock().await;
    let file = path.display();
    let report = dgn_bones(target, path);
    let kinds = [
        StaticKind::NeverExists,
        StaticKind::Never,
        StaticKind::LoadOnly,
        StaticKind::Depends,
        StaticKind::Eligible,
    ];
    let word = |v: &Value| {
        kinds
            .into_iter()
            .find(|k| serde_json::to_value(k).unwrap() == *v)
            .unwrap_or_else(|| panic!("unknown verdict {v}"))
            .name()
    };
    // A game that reads dungeon.lua is the setting of such files.
    let key = if target.game().reads_lua {
        "luaTarget"
    } else {
        "target"
    };
    let mut c =
        Client::start(json!({"dgnkit": {key: target.name(), "statistics": "inline"}})).await;
    let uri = format!("file://{}", path.display());
    let published = c.open(&uri, text).await;
    assert!(
        published["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["severity"] != 1 && d["code"] != "N0001"),
        "{file} is clean and its own game's: {published}"
    );
    let opts = dgnkit::frontend::CheckOptions {
        target,
        dialect: target.game().dialect,
        ..Default::default()
    };
    let model = dgnkit::frontend::analyze(text.as_bytes(), &opts).model;
    let levels = report["levels"].as_array().unwrap();
    assert_eq!(levels.len(), model.levels.len(), "{file}");
    assert!(!levels.is_empty());
    let game = format!("- bones rules: {}'s", target.game().title);
    // The server samples, as `dgn stats --sample` does, what `dgn bones`
    // samples and what is beyond its own budget (dNetHack's largest files).
    let beyond = model_script(text, target).is_some_and(|script| {
        let opts = dgnkit::stats::StatsOptions {
            game: target.game().loader_game(),
            bones: target.game().bones_options(),
            budget: dgnkit_lsp::facts::BUDGET,
            ..Default::default()
        };
        dgnkit::stats::exact(&script, &opts).is_err()
    });
    let sampled = report["method"]["kind"] == "sampled" || beyond;
    let stats = dgn_stats(target, path, sampled);
    let stat_levels = stats["levels"].as_array().unwrap();
    assert_eq!(stat_levels.len(), levels.len(), "{file}");
    for ((l, expected), stat) in model.levels.iter().zip(levels).zip(stat_levels) {
        let name = String::from_utf8_lossy(&l.name.bytes);
        // A record whose name the file's draws choose is named by all of
        // them ("geryon or baalz"), the model by its first outcome's.
        let names = expected["name"].as_str().unwrap_or_default();
        assert!(
            names.split(" or ").any(|n| n == name),
            "{file}: levels in the same order: {names} vs {name}"
        );
        let hover = c
            .call(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": pos_at(text, l.name.span.start as usize + 1)}),
            )
            .await;
        let line = bones_line(&hover);
        let rules: Vec<String> = expected["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| format!("rule {r}: "))
            .collect();
        let want = format!("- bones: {}", word(&expected["verdict"]));
        assert!(
            line.starts_with(&want),
            "{file} {name}: hover `{line}`, dgn bones {expected}"
        );
        let rest = &line[want.len()..];
        assert!(
            !rest.starts_with(|ch: char| ch.is_alphanumeric()),
            "{file} {name}: `{line}` is not `{want}`"
        );
        for r in &rules {
            assert!(line.contains(r), "{file} {name}: `{line}` lacks {r}");
        }
        assert_eq!(
            line.matches("rule ").count(),
            rules.len(),
            "{file} {name}: `{line}` vs {expected}"
        );
        let value = hover["contents"]["value"].as_str().unwrap();
        assert!(value.contains(&game), "{file} {name}: {value}");
        let depth = value
            .lines()
            .find(|l| l.starts_with("- depth: "))
            .unwrap_or_else(|| panic!("no depth in {value}"));
        assert_eq!(
            depth.trim_end(),
            format!("- depth: {}", spelled(&stat["depth"])),
            "{file} {name}: the depths of dgn stats"
        );
        // Sampled numbers say so, as `dgn bones` does.
        assert_eq!(
            value.contains("_(sampled: "),
            sampled,
            "{file} {name}: {value}"
        );
    }
}

#[tokio::test]
async fn evilhack_hovers_give_dgn_bones_verdicts() {
    hovers_follow_dgn_bones(Target::EvilHack, "evilhack-0.9.def").await;
}

#[tokio::test]
async fn unnethack_hovers_give_dgn_bones_verdicts() {
    hovers_follow_dgn_bones(Target::UnNetHack, "unnethack-6.0.def").await;
}

#[tokio::test]
async fn slashem_hovers_give_dgn_bones_verdicts() {
    hovers_follow_dgn_bones(Target::SlashEm, "slashem-0.0.8.def").await;
}

#[tokio::test]
async fn dnethack_hovers_give_dgn_bones_verdicts() {
    hovers_follow_dgn_bones(Target::DNetHack, "dnethack-3.23.def").await;
}

#[tokio::test]
async fn gnollhack_hovers_give_dgn_bones_verdicts() {
    hovers_follow_dgn_bones(Target::GnollHack, "gnollhack-4.def").await;
}

#[tokio::test]
async fn dynahack_hovers_give_dgn_bones_verdicts() {
    hovers_follow_dgn_bones(Target::DynaHack, "dynahack-0.0.1.def").await;
}

#[tokio::test]
async fn vanilla_hovers_give_dgn_bones_verdicts() {
    hovers_follow_dgn_bones(Target::NetHack36, "nethack-3.6.def").await;
    hovers_follow_dgn_bones(Target::NetHack343, "nethack-3.4.3.def").await;
}

/// The same on each family's own file in the shared corpus (the one its
/// fixtures' README names).
#[tokio::test]
async fn every_fixture_family_hovers_give_dgn_bones_verdicts_on_its_own_file() {
    let Some(families) = dgnkit_tests::variants::families() else {
        eprintln!("skipping: ../shared is absent");
        return;
    };
    assert!(!families.is_empty());
    for fam in &families {
        if let Some(why) = &fam.unknown {
            panic!("{why}");
        }
        if !fam.target.game().loader_proven() {
            // dgn bones refuses such a game (tests/variants_stats.rs,
            // layout_cli.rs); its hovers give no verdict to compare.
            continue;
        }
        let (path, bytes) = dgnkit_tests::variants::family_source(fam).unwrap();
        let path = path.canonicalize().unwrap();
        let text = String::from_utf8(bytes).expect("the family's file is UTF-8");
        hovers_follow_dgn_bones_on(fam.target, &path, &text).await;
    }
}
