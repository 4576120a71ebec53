//! Helpers for the end-to-end tests: where `../shared` is, and whether its
//! absence should skip or fail.

use std::path::{Path, PathBuf};

/// `../shared` beside the checkout, or `None` (with a message) when absent.
/// Under `DGNKIT_REQUIRE_SHARED=1` (CI) a missing folder is a failure.
pub fn shared_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("..")
        .join("shared");
    if root.join("corpus").is_dir() {
        return Some(root);
    }
    if std::env::var("DGNKIT_REQUIRE_SHARED").as_deref() == Ok("1") {
        panic!("DGNKIT_REQUIRE_SHARED=1 but {} is missing", root.display());
    }
    eprintln!(
        "skipping: {} is absent (tests against NetHack's outputs need it)",
        root.display()
    );
    None
}

/// Every source file of the corpus (`dungeon.def` and `dungeon.pdf`), in
/// folder order.
pub fn corpus_files(shared: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(shared.join("corpus"))
        .expect("corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .flat_map(|d| ["dungeon.def", "dungeon.pdf"].map(|f| d.join(f)))
        .filter(|p| p.is_file())
        .collect()
}

/// `f` of every item, in order, on every core. A test that walks the whole
/// corpus is one test, which the test harness runs on one thread; the
/// files are independent, so they share the machine's cores instead.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len().max(1));
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item was mapped"))
        .collect()
}

/// The strings of a JSON array (a recorded draw log); none for anything
/// else.
pub fn json_strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether a count of `k` in `n` agrees with probability `p`: within six
/// standard deviations plus one count.
pub fn agrees(p: f64, k: f64, n: f64) -> bool {
    (k - n * p).abs() <= 6.0 * (n * p * (1.0 - p)).sqrt() + 1.0
}

/// The lines of a gzipped JSON-lines fixture as JSON values, each with its
/// line number (the first is line one). A line that is not JSON is an `Err`
/// naming `NAME:LINE`; a read error is the last item.
pub fn gz_json_lines(
    path: &Path,
) -> Result<impl Iterator<Item = (usize, Result<serde_json::Value, String>)>, String> {
    use std::io::BufRead;
    let name = path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(file));
    let mut broken = false;
    Ok(reader.lines().enumerate().map_while(move |(i, line)| {
        if broken {
            return None;
        }
        let n = i + 1;
        Some((
            n,
            match line {
                Ok(line) => serde_json::from_str(&line).map_err(|e| format!("{name}:{n}: {e}")),
                Err(e) => {
                    broken = true;
                    Err(format!("{name}:{n}: {e}"))
                }
            },
        ))
    }))
}

/// Runs one `dgn` command in the test's process: `parse` reads `COMMAND
/// ARGS...` as the command line would, `exec` runs it with standard output
/// and error in memory. A usage error exits 2 with the parser's message, as
/// `dgn` does. Returns (exit status, stdout, stderr).
pub fn run_cli<'a, A, E: std::fmt::Display>(
    command: &'a str,
    args: &[&'a str],
    parse: impl FnOnce(Vec<&'a str>) -> Result<A, E>,
    exec: impl FnOnce(&A, &mut Vec<u8>, &mut Vec<u8>) -> u8,
) -> (u8, String, String) {
    let mut argv = vec![command];
    argv.extend_from_slice(args);
    let args = match parse(argv) {
        Ok(a) => a,
        Err(e) => return (2, String::new(), e.to_string()),
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = exec(&args, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).expect("stdout is UTF-8"),
        String::from_utf8(err).expect("stderr is UTF-8"),
    )
}

/// The families of `../shared/expected/variants/`.
pub mod variants {
    use dgnkit::options::Target;
    use std::path::PathBuf;

    pub struct Family {
        /// The directory's name (a `--target` name).
        pub dir: String,
        pub path: PathBuf,
        pub target: Target,
        /// Set when dgnkit has no target of this name: the failure message.
        pub unknown: Option<String>,
    }

    /// Every family directory, sorted; `None` when `../shared` is absent.
    pub fn families() -> Option<Vec<Family>> {
        let shared = crate::shared_dir()?;
        let mut out: Vec<Family> = std::fs::read_dir(shared.join("expected/variants"))
            .expect("expected/variants")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .map(|path| {
                let dir = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let target = Target::parse(&dir);
                Family {
                    unknown: target.is_none().then(|| {
                        format!(
                            "expected/variants/{dir}: dgnkit knows no family `{dir}` (targets: {}); add its game record in crates/dgnkit/src/games/",
                            Target::names()
                        )
                    }),
                    target: target.unwrap_or_default(),
                    dir,
                    path,
                }
            })
            .collect();
        out.sort_by(|a, b| a.dir.cmp(&b.dir));
        Some(out)
    }

    /// Every layout line of a family's fixtures (`layouts.*.jsonl.gz`, the
    /// game's own `init_dungeons()`), each with `file:line`; `None` when
    /// `../shared` is absent. Fails on a line that is not a layout and when
    /// there is none.
    pub fn layout_lines(family: &str) -> Option<Vec<(String, dgnkit::layout::Layout)>> {
        let dir = crate::shared_dir()?.join("expected/variants").join(family);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("fixture folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".jsonl.gz"))
            .collect();
        files.sort();
        let mut out = Vec::new();
        for f in files {
            let name = f
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            for (n, value) in crate::gz_json_lines(&f).expect("open fixture") {
                let layout = value
                    .and_then(|v| serde_json::from_value(v).map_err(|e| format!("{name}:{n}: {e}")))
                    .unwrap_or_else(|e| panic!("not a layout: {e}"));
                out.push((format!("{name}:{n}"), layout));
            }
        }
        assert!(!out.is_empty(), "{family}: no layout line");
        Some(out)
    }

    /// The setup a fixture line was made with, from its `file:line` as
    /// [`layout_lines`] gives it: the parts of `layouts.<rng>.<parts>.jsonl.gz`
    /// between the generator and the suffix (none: the game's defaults;
    /// `wizard`, `role-Hea`, `game`, ...).
    pub fn setup_of(at: &str) -> Vec<&str> {
        let file = at.split(':').next().unwrap_or_default();
        let parts: Vec<&str> = file.split('.').collect();
        parts
            .get(2..parts.len().saturating_sub(2))
            .unwrap_or_default()
            .to_vec()
    }

    /// The family's own description: the first corpus file its README
    /// names (`<repo dir>/dungeon.def`), or, for a game that reads
    /// `dungeon.lua` (whose README names the commit it was built from), the
    /// corpus `dungeon.lua` that `MANIFEST.tsv` records at that commit; with
    /// its bytes.
    pub fn family_source(fam: &Family) -> Result<(PathBuf, Vec<u8>), String> {
        let readme = std::fs::read_to_string(fam.path.join("README.md"))
            .map_err(|e| format!("{}: README.md: {e}", fam.dir))?;
        let corpus = fam.path.join("../../../corpus");
        for (at, _) in readme.match_indices("/dungeon.def") {
            let start = readme[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || "_.@-".contains(c)))
                .map_or(0, |i| i + 1);
            let dir = &readme[start..at];
            if !dir.contains("__") {
                continue;
            }
            let path = corpus.join(dir).join("dungeon.def");
            if let Ok(bytes) = std::fs::read(&path) {
                return Ok((path, bytes));
            }
        }
        let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv"))
            .map_err(|e| format!("corpus/MANIFEST.tsv: {e}"))?;
        for row in manifest.lines() {
            let cols: Vec<&str> = row.split('\t').collect();
            let (Some(dir), Some(path), Some(commit)) = (cols.first(), cols.get(2), cols.get(3))
            else {
                continue;
            };
            if path.ends_with("dungeon.lua") && commit.len() == 40 && readme.contains(commit) {
                let file = corpus.join(dir).join("dungeon.lua");
                if let Ok(bytes) = std::fs::read(&file) {
                    return Ok((file, bytes));
                }
            }
        }
        Err(format!(
            "{}: its README names no corpus file `<dir>/dungeon.def` that exists, nor the commit of a corpus dungeon.lua",
            fam.dir
        ))
    }
}

/// The first dialect (vanilla first) in which `src` compiles for `target`,
/// with its script: the dialect the corpus tests use for each file. The
/// layout odds are left out: they only warn (unless denied), so they never
/// decide the script, and on the big variants they are the statistics
/// engine's whole run (`check_corpus.rs` tests them).
pub fn compile_any(
    src: &[u8],
    target: dgnkit::options::Target,
    flags: &[String],
) -> Option<(dgnkit::dialect::Dialect, dgnkit::script::Script)> {
    use dgnkit::dialect::Dialect;
    use dgnkit::frontend::{analyze_fast, CheckOptions};
    let dialects = std::iter::once(Dialect::Vanilla)
        .chain(Dialect::ALL.into_iter().filter(|d| *d != Dialect::Vanilla));
    for dialect in dialects {
        let opts = CheckOptions {
            target,
            dialect,
            defines: flags.to_vec(),
            ..CheckOptions::default()
        };
        if let Some(script) = analyze_fast(src, &opts).script {
            return Some((dialect, script));
        }
    }
    None
}
