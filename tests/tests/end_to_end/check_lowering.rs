//! The lowered script holds exactly what NetHack's dgn_comp stored: every
//! field of every dungeon, level and branch record is compared with the
//! binaries NetHack 3.4.3's and 3.6's dgn_comp wrote for the corpus
//! (`shared/expected/compiled/*.bin`), for every file they accepted.

use dgnkit::frontend::{analyze, CheckOptions};
use dgnkit::options::Target;
use dgnkit::script::{Range, Script};
use std::path::Path;

/// A little-endian reader over NetHack's native x86-64 structs.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        s
    }
    fn int(&mut self) -> i32 {
        i32::from_le_bytes(self.take(4).try_into().unwrap())
    }
    fn short(&mut self) -> i32 {
        i32::from(i16::from_le_bytes(self.take(2).try_into().unwrap()))
    }
    fn name(&mut self) -> Vec<u8> {
        let raw = self.take(24);
        raw[..raw.iter().position(|&b| b == 0).unwrap_or(24)].to_vec()
    }
    fn couple(&mut self) -> Range {
        Range {
            base: self.short(),
            rand: self.short(),
        }
    }
}

/// Compares `script` with a compiled file, field by field, naming the first
/// difference.
fn compare(script: &Script, bin: &[u8], header: usize) -> Result<(), String> {
    let mut r = Reader {
        bytes: bin,
        at: header,
    };
    let n = r.int();
    if n as usize != script.dungeons.len() {
        return Err(format!(
            "{n} dungeons in the binary, {} lowered",
            script.dungeons.len()
        ));
    }
    let mut level_index = 0;
    for d in &script.dungeons {
        let name = r.name();
        let proto = r.name();
        let size = r.couple();
        let (flags, chance, levels, branches, entry) =
            (r.int(), r.int(), r.int(), r.int(), r.int());
        let bones = r.take(4)[0];
        let dn = String::from_utf8_lossy(&name).into_owned();
        let check = |what: &str, a: String, b: String| {
            if a == b {
                Ok(())
            } else {
                Err(format!("dungeon {dn}: {what}: binary {a}, lowered {b}"))
            }
        };
        check("name", format!("{name:?}"), format!("{:?}", d.name))?;
        check("proto", format!("{proto:?}"), format!("{:?}", d.proto))?;
        check("size", format!("{size:?}"), format!("{:?}", d.size))?;
        check("flags", flags.to_string(), d.flags.to_string())?;
        check("chance", chance.to_string(), d.chance.to_string())?;
        check("levels", levels.to_string(), d.levels.len().to_string())?;
        check(
            "branches",
            branches.to_string(),
            d.branches.len().to_string(),
        )?;
        check("entry", entry.to_string(), d.entry.to_string())?;
        check("bones", bones.to_string(), d.bones.to_string())?;
        for l in &d.levels {
            let name = r.name();
            let range = r.couple();
            let (chance, rndlevs, chain, flags) = (r.int(), r.int(), r.int(), r.int());
            let bones = r.take(4)[0];
            let ln = format!(
                "{dn} level {level_index} {}",
                String::from_utf8_lossy(&name)
            );
            let got = (
                name.clone(),
                range,
                chance,
                rndlevs,
                chain,
                flags as u32,
                bones,
            );
            let want = (
                l.name.clone(),
                l.range,
                l.chance,
                l.rndlevs,
                l.chain,
                l.flags,
                l.bones,
            );
            if got != want {
                return Err(format!("{ln}: binary {got:?}, lowered {want:?}"));
            }
            level_index += 1;
        }
        for b in &d.branches {
            let name = r.name();
            let range = r.couple();
            let (chain, kind, up) = (r.int(), r.int(), r.int());
            let got = (name, range, chain, kind, up != 0);
            let want = (
                b.target.clone(),
                b.range,
                b.chain,
                b.branch_type.code(),
                b.up,
            );
            if got != want {
                return Err(format!("{dn} branch: binary {got:?}, lowered {want:?}"));
            }
        }
    }
    if r.at != bin.len() {
        return Err(format!("{} bytes left over", bin.len() - r.at));
    }
    Ok(())
}

fn source(shared: &Path, name: &str) -> Option<Vec<u8>> {
    let dir = match name {
        "vanilla343" => "Vanilla-NetHack__NetHack-3.4.3",
        "vanilla36" => "NetHack__NetHack",
        other => other,
    };
    let def = shared.join("corpus").join(dir).join("dungeon.def");
    let pdf = shared.join("corpus").join(dir).join("dungeon.pdf");
    std::fs::read(def).or_else(|_| std::fs::read(pdf)).ok()
}

#[test]
fn lowering_matches_every_binary_dgn_comp_wrote() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let results = std::fs::read_to_string(shared.join("expected/compile-results.tsv")).unwrap();
    let mut compared = 0;
    let mut failures = Vec::new();
    for row in results.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (name, version, exit) = (cols[0], cols[1], cols[2]);
        if exit != "0" {
            continue;
        }
        let (tag, header, target) = match version {
            "3.4.3" => ("343", 32, Target::NetHack343),
            _ => ("36", 40, Target::NetHack36),
        };
        let bin =
            std::fs::read(shared.join(format!("expected/compiled/{name}.{tag}.bin"))).unwrap();
        let src = source(&shared, name).unwrap_or_else(|| panic!("no source for {name}"));
        let analysis = analyze(
            &src,
            &CheckOptions {
                target,
                ..CheckOptions::default()
            },
        );
        let Some(script) = analysis.script else {
            failures.push(format!(
                "{name} ({version}): rejected: {:?}",
                analysis
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| &d.message)
                    .collect::<Vec<_>>()
            ));
            continue;
        };
        if let Err(e) = compare(&script, &bin, header) {
            failures.push(format!("{name} ({version}): {e}"));
        }
        compared += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {compared} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared >= 90, "only {compared} binaries compared");
}
