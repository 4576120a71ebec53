//! Builds the fuzz targets' seed corpora from the shared test data:
//! `seeds SHARED OUT` reads `SHARED/corpus/*/dungeon.{def,pdf,lua}` and
//! `SHARED/expected/compiled/*.bin` and writes `OUT/<target>/<crc>-<len>`,
//! each seed in the input format its target documents. Nothing here is
//! committed: the seeds are rebuilt from ../shared by scripts/fuzz.

use dgnkit::binary::{self, crc32, native};
use dgnkit::dialect::Dialect;
use dgnkit::frontend::{analyze, CheckOptions};
use dgnkit::games::detect;
use dgnkit::options::Target;
use dgnkit::script::Script;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const TARGETS: [&str; 10] = [
    "parse_check",
    "lua_reader",
    "lua_program",
    "nethack_reader",
    "native_reader",
    "loader",
    "lsp_messages",
    "xlog_reader",
    "session_reader",
    "gamelog_reader",
];

/// xlogfile lines of every release `dgn xlog` knows, written as that game
/// writes them (its version prefix, its own fields, tab or colon, its
/// modes and flags), over a spread of places, endings and modes; the first
/// line of each seed is a `--where` expression.
fn xlog_seeds() -> Vec<Vec<u8>> {
    use dgnkit::xlog::release::RELEASES;
    let deaths = [
        "killed by a jackal",
        "quit",
        "ascended",
        "killed by slimicide",
        "escaped",
    ];
    let places = [
        (0, 1),
        (0, 12),
        (1, 35),
        (2, 5),
        (3, 14),
        (6, 20),
        (9, -5),
        (10, -3),
    ];
    let mut out = Vec::new();
    for (r, release) in RELEASES.iter().enumerate() {
        let (a, b, _, hi) = release.versions[0];
        let sep = if release.name.starts_with("nethack-3.4") || release.name.starts_with("dynahack")
        {
            ":"
        } else {
            "\t"
        };
        let mut text = String::from("how = died and bones_p > 0\n");
        for (i, (dnum, depth)) in places.iter().enumerate() {
            let mut fields = vec![
                format!("version={}{a}.{b}.{hi}", release.prefix),
                format!("deathdnum={dnum}"),
                format!("deathlev={depth}"),
                format!("death={}", deaths[(i + r) % deaths.len()]),
                format!("flags=0x{:x}", [0, 1, 2, 4, 0x24][i % 5]),
                "role=Val".into(),
            ];
            if let Some(m) = release.family().and_then(|f| f.marker()) {
                fields.push(format!("{m}=1"));
            }
            if let Some((mode, _)) = release.modes.get(i % (release.modes.len() + 1)) {
                fields.push(format!("mode={mode}"));
            }
            text.push_str(&fields.join(sep));
            text.push('\n');
        }
        out.push(text.into_bytes());
    }
    out
}

/// The selector byte `dgnkit_fuzz::check_options` reads as this target
/// and dialect.
/// Gamelogs dgnkit writes (`dgn layout --format gamelog`) of several
/// games, seeds and modes, plain and gzipped, each folded to the end or to
/// a draw part way.
fn gamelog_seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let cases = [
        (Target::NetHack36, 1, true),
        (Target::NetHack36, 42, false),
        (Target::NetHack37, 42, false),
        (Target::DNetHack, 42, false),
        (Target::XNetHack, 7, false),
        (Target::Nle, 1, false),
    ];
    for (n, (target, seed, wizard)) in cases.into_iter().enumerate() {
        // The game's own description; NetHack 3.6's (and NLE's) is the
        // default one `dgn layout` has built in.
        let source = dgnkit::xlog::release::newest_of(target)
            .and_then(|r| r.builtin.as_ref())
            .map_or(
                &include_bytes!("../../../corpus/nethack-3.6.def")[..],
                |b| b.source,
            );
        let opts = CheckOptions {
            target,
            ..CheckOptions::default()
        };
        let Some(script) = analyze(source, &opts).script else {
            continue;
        };
        let game = target.game();
        let Ok(resolver) = game.resolver(&script) else {
            continue;
        };
        let settings = dgnkit::gamelog::Settings {
            target: target.name().to_string(),
            title: game.title.to_string(),
            seed,
            wizard,
            generator: game.rng.name().to_string(),
            ..Default::default()
        };
        let (log, _) = dgnkit::gamelog::record(&resolver, game, seed, game.rng, wizard, &settings);
        let step = [255u8, 10, 40][n % 3];
        let mut plain = vec![step];
        plain.extend_from_slice(&log);
        out.push(plain);
        let mut gz = vec![255u8];
        gz.extend(dgnkit::gamelog::gzip(&log));
        out.push(gz);
    }
    out
}

fn selector(target: Target, dialect: Dialect) -> u8 {
    let t = Target::ALL.iter().position(|&x| x == target).unwrap_or(0);
    let d = Dialect::ALL.iter().position(|&x| x == dialect).unwrap_or(0);
    (d * Target::ALL.len() + t) as u8
}

fn files_in(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.retain(|p| keep(p));
    out.sort();
    out
}

/// The first dialect (vanilla first) in which `src` compiles for NetHack
/// 3.6, as its index in [`Dialect::ALL`], and the script.
fn compile_any(src: &[u8]) -> Option<(usize, Script)> {
    for (i, dialect) in Dialect::ALL.into_iter().enumerate() {
        let opts = CheckOptions {
            target: Target::NetHack36,
            dialect,
            defines: vec!["REINCARNATION".into(), "MULDGN".into()],
            ..CheckOptions::default()
        };
        if let Some(script) = analyze(src, &opts).script {
            return Some((i, script));
        }
    }
    None
}

fn frame(out: &mut Vec<u8>, body: serde_json::Value) {
    let body = body.to_string();
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    out.extend_from_slice(body.as_bytes());
}

/// A whole editor session on `text`, in the raw-stream mode of
/// `lsp_messages`.
fn session(text: &str, name: &str) -> Vec<u8> {
    let uri = format!("file:///work/{name}");
    let language = if name.ends_with(".lua") {
        "dungeon-lua"
    } else {
        "dungeon-def"
    };
    let doc = json!({"uri": uri});
    let at = json!({"line": 1, "character": 12});
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 5, "character": 0}});
    let mut out = vec![0u8];
    let mut id = 0;
    let mut request = |out: &mut Vec<u8>, method: &str, params: serde_json::Value| {
        id += 1;
        frame(
            out,
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        );
    };
    request(
        &mut out,
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {},
               "initializationOptions": {"dgnkit": {"statistics": "inline"}}}),
    );
    frame(
        &mut out,
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    frame(
        &mut out,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": uri, "languageId": language, "version": 1, "text": text}}}),
    );
    for method in [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
        "textDocument/prepareRename",
    ] {
        request(
            &mut out,
            method,
            json!({"textDocument": doc, "position": at}),
        );
    }
    request(
        &mut out,
        "textDocument/semanticTokens/full",
        json!({"textDocument": doc}),
    );
    request(
        &mut out,
        "textDocument/documentSymbol",
        json!({"textDocument": doc}),
    );
    request(
        &mut out,
        "textDocument/inlayHint",
        json!({"textDocument": doc, "range": range}),
    );
    request(
        &mut out,
        "textDocument/formatting",
        json!({"textDocument": doc, "options": {"tabSize": 8, "insertSpaces": false}}),
    );
    frame(
        &mut out,
        json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 3}}, "text": "LEVEL:"}]}}),
    );
    request(
        &mut out,
        "textDocument/codeAction",
        json!({"textDocument": doc, "range": range, "context": {"diagnostics": []}}),
    );
    request(&mut out, "shutdown", serde_json::Value::Null);
    frame(&mut out, json!({"jsonrpc": "2.0", "method": "exit"}));
    out
}

/// The Mazes of Menace sessions of `SHARED/expected/menace-sessions`, cut
/// to what `dgn session` reads of them (the first steps, their first 400
/// entries, no checkpoints), as JSON and gzipped (mode bit 0: named `.gz`).
fn session_seeds(shared: &Path) -> Vec<Vec<u8>> {
    use std::io::{Read, Write};
    let dir = shared.join("expected").join("menace-sessions");
    let mut out = Vec::new();
    for path in files_in(&dir, |p| p.to_string_lossy().ends_with(".json.gz")) {
        let mut text = Vec::new();
        let Ok(file) = std::fs::File::open(&path) else {
            continue;
        };
        if flate2::read::GzDecoder::new(file)
            .read_to_end(&mut text)
            .is_err()
        {
            continue;
        }
        let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(&text) else {
            continue;
        };
        if let Some(top) = v.as_object_mut() {
            top.remove("checkpoints");
        }
        if let Some(steps) = v["steps"].as_array_mut() {
            steps.truncate(3);
            for step in steps.iter_mut() {
                if let Some(rng) = step["rng"].as_array_mut() {
                    rng.truncate(400);
                }
            }
        }
        let json = v.to_string().into_bytes();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        if gz.write_all(&json).is_err() {
            continue;
        }
        let Ok(gz) = gz.finish() else {
            continue;
        };
        for (mode, bytes) in [(0u8, &json), (1, &gz)] {
            let mut seed = vec![mode];
            seed.extend_from_slice(bytes);
            out.push(seed);
        }
    }
    out
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [shared, out] = args.as_slice() else {
        eprintln!("usage: seeds SHARED_DIR OUT_DIR");
        return ExitCode::from(2);
    };
    let (shared, out) = (Path::new(shared), Path::new(out));
    let mut seeds: BTreeMap<&str, Vec<Vec<u8>>> = BTreeMap::new();
    let mut add =
        |target: &'static str, bytes: Vec<u8>| seeds.entry(target).or_default().push(bytes);

    let mut scripts: Vec<(String, Script)> = Vec::new();
    let dirs = files_in(&shared.join("corpus"), |p| p.is_dir());
    for (n, dir) in dirs.iter().enumerate() {
        for name in ["dungeon.def", "dungeon.pdf"] {
            let Ok(src) = std::fs::read(dir.join(name)) else {
                continue;
            };
            let compiled = compile_any(&src);
            let dialect = compiled.as_ref().map_or(0, |(d, _)| *d);
            // The game the file is for (its path names the family, or the
            // dialect that compiles it is a game's), else NetHack 3.6, in
            // that dialect; the option bits vary over the corpus.
            let target = detect::from_path(dir)
                .and_then(|d| d.target)
                .or_else(|| detect::target_of(Dialect::ALL[dialect]))
                .unwrap_or(Target::NetHack36);
            let selector = selector(target, Dialect::ALL[dialect]);
            let mut seed = vec![selector, (n % 64) as u8];
            seed.extend_from_slice(&src);
            add("parse_check", seed);
            // Mode 1 (source), loader inputs varied over the corpus.
            let mut seed = vec![1, n as u8, selector];
            seed.extend_from_slice(&src);
            add("loader", seed);
            if let Some((d, script)) = compiled {
                scripts.push((Dialect::ALL[d].name().to_string(), script));
            }
            // A few whole sessions: the server analyses every document, so
            // large corpora of these are slow.
            if n % 12 == 0 {
                if let Ok(text) = std::str::from_utf8(&src) {
                    add("lsp_messages", session(text, "dungeon.def"));
                }
            }
        }
    }
    // dungeon.lua: NetHack 3.7's own, and every compiled corpus file
    // written as one; target nethack-3.7 in the vanilla dialect, the
    // layout odds allowed (option bits 6 << 3).
    let lua_selector = selector(Target::NetHack37, Dialect::Vanilla);
    let lua_seed = |src: &[u8]| {
        let mut seed = vec![lua_selector, 6 << 3];
        seed.extend_from_slice(src);
        seed
    };
    for (n, dir) in dirs.iter().enumerate() {
        if let Ok(src) = std::fs::read(dir.join("dungeon.lua")) {
            add("lua_reader", lua_seed(&src));
            let mut program = vec![lua_selector];
            program.extend_from_slice(&src);
            add("lua_program", program);
            let mut seed = vec![1, n as u8, lua_selector];
            seed.extend_from_slice(&src);
            add("loader", seed);
            if let Ok(text) = std::str::from_utf8(&src) {
                add("lsp_messages", session(text, "dungeon.lua"));
            }
            // Native format 1.1: the NetHack 3.7 fields.
            let opts = CheckOptions {
                target: Target::NetHack37,
                ..CheckOptions::default()
            };
            if let Some(script) =
                dgnkit::frontend::analyze_as(dgnkit::frontend::SourceKind::Lua, &src, &opts).script
            {
                scripts.push(("vanilla".to_string(), script));
            }
        }
    }
    for (_, script) in &scripts {
        if let Ok(text) = dgnkit::lua::write::write(script) {
            add("lua_reader", lua_seed(&text));
        }
    }
    // Programs that try to get out or to exhaust the sandbox.
    for hostile in [
        "os.execute('true')\ndungeon = {}\n",
        "local f = io.open('/etc/passwd')\n",
        "require('os')\n",
        "load('return 1')()\n",
        "-- loop\nwhile true do end\n",
        "local t = {} local i = 0 while true do i = i + 1 t[i] = i end\n",
        "local s = string.rep('x', 1 << 30)\n",
        "local function f(n) return f(n + 1) + 1 end f(1)\n",
        "string.find(string.rep('a', 5000), '.-.-.-.-.-.-b')\n",
        "local n = 0 for i = 1, 300 do n = n + math.random(2) end dungeon = {}\n",
        "local a = percent(50) and 'x' or 'y'\ndungeon = { { name = a, base = 1 } }\n",
    ] {
        let mut seed = vec![lua_selector];
        seed.extend_from_slice(hostile.as_bytes());
        add("lua_program", seed);
    }
    for bin in files_in(&shared.join("expected").join("compiled"), |p| {
        p.extension().is_some_and(|x| x == "bin")
    }) {
        let Ok(bytes) = std::fs::read(&bin) else {
            continue;
        };
        if let Ok(read) = binary::read(&bytes, None) {
            scripts.push(("vanilla".to_string(), read.script));
        }
        let mut seed = vec![0u8, 0];
        seed.extend_from_slice(&bytes);
        add("loader", seed);
        add("nethack_reader", bytes);
    }
    for seed in xlog_seeds() {
        add("xlog_reader", seed);
    }
    for seed in session_seeds(shared) {
        add("session_reader", seed);
    }
    for seed in gamelog_seeds() {
        add("gamelog_reader", seed);
    }
    // Each variant family's own dgn_comp output.
    for family in files_in(&shared.join("expected").join("variants"), |p| p.is_dir()) {
        if let Ok(bytes) = std::fs::read(family.join("dungeon.bin")) {
            if let Ok(read) = binary::read(&bytes, None) {
                let dialect = dgnkit::options::Target::of_format(read.format)
                    .game()
                    .dialect
                    .name();
                scripts.push((dialect.to_string(), read.script));
            }
            for pick in [0, 1, 7] {
                let mut seed = vec![0u8, pick];
                seed.extend_from_slice(&bytes);
                add("loader", seed);
            }
            add("nethack_reader", bytes);
        }
    }
    for (dialect, script) in &scripts {
        let Ok(file) = native::write(script, dialect) else {
            continue;
        };
        // Raw mode: the whole file. Wrapped mode: the payload alone.
        let mut raw = vec![0u8];
        raw.extend_from_slice(&file);
        add("native_reader", raw);
        // The minor version the file has (1.1 for NetHack 3.7's fields).
        let minor = u16::from_le_bytes([file[10], file[11]]) as u8;
        let mut wrapped = vec![1u8 | (minor << 1)];
        wrapped.extend_from_slice(&file[native::HEADER_LEN..]);
        add("native_reader", wrapped);
    }

    for target in TARGETS {
        let dir = out.join(target);
        if let Err(e) = std::fs::create_dir_all(&dir) {
            eprintln!("seeds: cannot create {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        let list = seeds.get(target).map(Vec::as_slice).unwrap_or_default();
        let mut written = 0;
        for bytes in list {
            let path = dir.join(format!("{:08x}-{}", crc32(bytes), bytes.len()));
            if path.exists() {
                continue;
            }
            if let Err(e) = std::fs::write(&path, bytes) {
                eprintln!("seeds: cannot write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
            written += 1;
        }
        println!("{target}: {written} new seeds ({} built)", list.len());
    }
    ExitCode::SUCCESS
}
