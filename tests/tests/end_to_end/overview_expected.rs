//! The overview view against NetHack's own `print_dungeon()` text: every
//! file in `../shared/expected/overview/`, byte for byte, from the layout
//! our loader resolves for that file's version, generator, mode and seed.

use dgnkit::loader::Resolver;
use dgnkit::options::Target;
use dgnkit::rng::RngKind;
use dgnkit::views::overview;
use std::path::Path;

/// `<name>.<ver>.<rng>[.wizard].seed<N>.txt`
fn parse(file: &str) -> Option<(&str, &str, RngKind, bool, u64)> {
    let stem = file.strip_suffix(".txt")?;
    let (stem, seed) = stem.rsplit_once(".seed")?;
    let seed = seed.parse().ok()?;
    let (stem, wizard) = match stem.strip_suffix(".wizard") {
        Some(s) => (s, true),
        None => (stem, false),
    };
    let (stem, rng) = stem.rsplit_once('.')?;
    let (name, ver) = stem.rsplit_once('.')?;
    Some((name, ver, RngKind::parse(rng)?, wizard, seed))
}

fn check(shared: &Path, file: &str) -> Result<(), String> {
    let (name, ver, rng, wizard, seed) = parse(file).ok_or("unexpected file name")?;
    let target = match ver {
        "343" => Target::NetHack343,
        "36" => Target::NetHack36,
        _ => return Err(format!("unknown version {ver}")),
    };
    let bin = shared
        .join("expected/compiled")
        .join(format!("{name}.{ver}.bin"));
    let bytes = std::fs::read(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let script = dgnkit::binary::read(&bytes, None)
        .map_err(|e| e.to_string())?
        .script;
    let resolver =
        Resolver::with_rules(&script, target.game().rules.clone()).map_err(|e| e.to_string())?;
    let layout = resolver
        .resolve(seed, rng, wizard, false)
        .map_err(|e| e.to_string())?;
    let want =
        std::fs::read(shared.join("expected/overview").join(file)).map_err(|e| e.to_string())?;
    let got = overview(&layout, target.game().overview);
    if got.as_bytes() == want.as_slice() {
        return Ok(());
    }
    let want = String::from_utf8_lossy(&want);
    let line = want
        .lines()
        .zip(got.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(want.lines().count().min(got.lines().count()));
    Err(format!(
        "line {}: expected {:?}, got {:?}",
        line + 1,
        want.lines().nth(line).unwrap_or("(end)"),
        got.lines().nth(line).unwrap_or("(end)")
    ))
}

#[test]
fn every_expected_overview_matches() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let mut files: Vec<String> = std::fs::read_dir(shared.join("expected/overview"))
        .expect("expected/overview")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 100, "only {} overview files", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| check(&shared, f).err().map(|e| format!("{f}: {e}")))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} overviews differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
