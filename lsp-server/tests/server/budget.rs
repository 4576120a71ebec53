//! The server's statistics budget ([`dgnkit_lsp::facts::BUDGET`]) holds
//! every real file exactly: the hovers of the dNetHack family's largest
//! files, and of SLASH'EM's with the deepest placement searches, are as
//! exact as `dgn stats`. (What the budget costs in memory, the whole
//! server, is measured in `bench/README.md`.)

use dgnkit::options::Target;
use dgnkit::stats::Method;
use dgnkit_lsp::config::Config;
use std::path::Path;

/// The game a corpus file is checked in, from its `MANIFEST.tsv` lineage.
fn game_of(lineage: &str, lua: bool) -> Target {
    let l = lineage.to_lowercase();
    let fork = |name: &str| l.contains(name);
    match () {
        _ if lua && fork("xnethack") => Target::XNetHack,
        _ if lua && fork("splicehack") => Target::SpliceHack,
        _ if lua && fork("nerfhack") => Target::NerfHack,
        _ if lua && fork("crecellehack") => Target::CrecelleHack,
        _ if lua => Target::NetHack37,
        _ if l.starts_with("dnethack") => Target::DNetHack,
        _ if l.starts_with("slash") => Target::SlashEm,
        _ if l.starts_with("gnollhack") => Target::GnollHack,
        _ if l.starts_with("unnethack") => Target::UnNetHack,
        _ if fork("dynahack") => Target::DynaHack,
        _ if fork("evilhack") => Target::EvilHack,
        _ if l.starts_with("vanilla-3.4.3") => Target::NetHack343,
        _ => Target::NetHack36,
    }
}

#[test]
fn every_corpus_file_is_exact_within_the_server_s_budget() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let corpus = shared.join("corpus");
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap();
    let mut rows = manifest.lines().map(|l| l.split('\t').collect::<Vec<_>>());
    let header = rows.next().unwrap();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (dir_col, lineage_col) = (col("dir"), col("lineage"));
    let (mut exact, mut failures) = (0, Vec::new());
    for row in rows {
        let dir = corpus.join(row[dir_col]);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            let lua = path.extension().is_some_and(|e| e == "lua");
            if !(lua || path.extension().is_some_and(|e| e == "def")) {
                continue;
            }
            let target = game_of(row[lineage_col], lua);
            let Some(script) = script_in(&path, target) else {
                // Not clean in the game its lineage suggests: the checks'
                // corpus tests cover its own dialect.
                continue;
            };
            let config = Config {
                target,
                ..Config::default()
            };
            let server = dgnkit_lsp::facts::stats(&script, &config);
            if matches!(server.method, Method::Exact { .. }) {
                exact += 1;
                continue;
            }
            // Sampled by the server: only where `dgn stats` samples too
            // (rules it does not model, not size).
            let opts = dgnkit::stats::StatsOptions {
                game: target.game().loader_game(),
                bones: target.game().bones_options(),
                ..Default::default()
            };
            if dgnkit::stats::exact(&script, &opts).is_ok() {
                failures.push(format!(
                    "{} ({}): sampled by the server: {:?}",
                    path.display(),
                    target.name(),
                    server.method
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(exact >= 60, "only {exact} corpus files exact");
}

fn script_in(path: &Path, target: Target) -> Option<dgnkit::script::Script> {
    let src = std::fs::read(path).ok()?;
    let opts = dgnkit::frontend::CheckOptions {
        target,
        dialect: target.game().dialect,
        ..Default::default()
    };
    let a = dgnkit::frontend::analyze_fast(&src, &opts);
    if a.has_errors() {
        return None;
    }
    a.script
}
