//! The exact statistics against frequencies: NetHack's own layouts in
//! `../shared/expected/layouts/` (200 seeds per vanilla file, 50 for the
//! others, 10-20 in wizard mode) and our loader over 20,000 seeds.
//!
//! Each exact probability `p` is compared with a count `k` out of `n`
//! trials by an exact two-sided binomial test. The few files too large to
//! enumerate (the statistics then come from our loader over many seeds)
//! are compared count against count by Fisher's exact test. Every comparison of a whole
//! test counts towards one family: a comparison fails when its p-value is
//! below `ALPHA / comparisons` (Bonferroni), so the whole test passes by
//! chance with probability at least `1 - ALPHA` when the statistics are
//! right. An outcome observed although its exact probability is 0, or a
//! certain outcome (probability 1) missing, fails outright.

use dgnkit::bones::{layout_verdicts, BonesOptions};
use dgnkit::layout::Layout;
use dgnkit::options::Target;
use dgnkit::rng::RngKind;
use dgnkit::stats::{self, Method, Stats, StatsOptions};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Family-wise chance of a false alarm per test.
const ALPHA: f64 = 1e-3;

/// Seeds resolved for a file too large to enumerate.
const SAMPLES: u64 = 4_000;

/// `ln(k!)` for `k <= n`.
fn ln_factorials(n: usize) -> Vec<f64> {
    let mut t = vec![0.0; n + 1];
    for k in 1..=n {
        t[k] = t[k - 1] + (k as f64).ln();
    }
    t
}

/// Two-sided exact binomial p-value of `k` successes in `n` trials with
/// success chance `p`: twice the smaller tail, at most 1.
fn binomial_p_value(k: u64, n: u64, p: f64, lnf: &[f64]) -> f64 {
    if p <= 0.0 {
        return if k == 0 { 1.0 } else { 0.0 };
    }
    if p >= 1.0 {
        return if k == n { 1.0 } else { 0.0 };
    }
    let (lp, lq) = (p.ln(), (1.0 - p).ln());
    let pmf = |i: u64| {
        (lnf[n as usize] - lnf[i as usize] - lnf[(n - i) as usize]
            + i as f64 * lp
            + (n - i) as f64 * lq)
            .exp()
    };
    let lower: f64 = (0..=k).map(pmf).sum();
    let upper: f64 = (k..=n).map(pmf).sum();
    (2.0 * lower.min(upper)).min(1.0)
}

/// Two-sided Fisher exact test of `k` of `n` against `k2` of `n2`: the
/// chance, with the margins fixed, of a table at most as likely.
fn fisher_p_value(k: u64, n: u64, k2: u64, n2: u64, lnf: &[f64]) -> f64 {
    let t = k + k2;
    let total = n + n2;
    let lnc = |a: u64, b: u64| lnf[a as usize] - lnf[b as usize] - lnf[(a - b) as usize];
    let pmf = |x: u64| (lnc(n, x) + lnc(n2, t - x) - lnc(total, t)).exp();
    let lo = t.saturating_sub(n2);
    let hi = n.min(t);
    let seen = pmf(k) * (1.0 + 1e-7);
    (lo..=hi)
        .map(pmf)
        .filter(|&p| p <= seen)
        .sum::<f64>()
        .min(1.0)
}

/// What a count is compared with.
#[derive(Clone, Copy)]
enum Reference {
    /// An exact probability.
    Exact(f64),
    /// `k` of `n` from sampling.
    Sample(u64, u64),
}

/// One comparison: `k` of `n` against the reference.
struct Cmp {
    what: String,
    k: u64,
    n: u64,
    reference: Reference,
}

#[derive(Default)]
struct Family {
    cmps: Vec<Cmp>,
}

impl Family {
    fn add(&mut self, what: impl Into<String>, k: u64, n: u64, p: f64) {
        if n > 0 {
            self.cmps.push(Cmp {
                what: what.into(),
                k,
                n,
                reference: Reference::Exact(p),
            });
        }
    }

    /// Compares a distribution (value -> probability) with counts.
    fn dist(
        &mut self,
        what: &str,
        exact: &BTreeMap<i32, f64>,
        counts: &BTreeMap<i32, u64>,
        n: u64,
    ) {
        let mut keys: Vec<i32> = exact.keys().copied().collect();
        keys.extend(counts.keys().copied());
        keys.sort_unstable();
        keys.dedup();
        for v in keys {
            let p = exact.get(&v).copied().unwrap_or(0.0);
            self.add(
                format!("{what} = {v}"),
                counts.get(&v).copied().unwrap_or(0),
                n,
                p,
            );
        }
    }

    /// Panics with every failed comparison.
    fn judge(&self, label: &str) {
        let max_n = self
            .cmps
            .iter()
            .map(|c| match c.reference {
                Reference::Exact(_) => c.n,
                Reference::Sample(_, m) => c.n + m,
            })
            .max()
            .unwrap_or(0) as usize;
        let lnf = ln_factorials(max_n);
        let m = self.cmps.len().max(1) as f64;
        let mut bad = Vec::new();
        let mut worst = (f64::INFINITY, String::new());
        for c in &self.cmps {
            let (pv, want) = match c.reference {
                Reference::Exact(p) => {
                    (binomial_p_value(c.k, c.n, p, &lnf), format!("exact {p:.6}"))
                }
                Reference::Sample(k2, m) => (
                    fisher_p_value(c.k, c.n, k2.min(m), m, &lnf),
                    format!("sampled {k2}/{m}"),
                ),
            };
            if pv < worst.0 {
                worst = (pv, format!("{}: {}/{} vs {want}", c.what, c.k, c.n));
            }
            if pv < ALPHA / m {
                bad.push(format!(
                    "{}: observed {}/{} = {:.4}, {want} (p-value {pv:.2e})",
                    c.what,
                    c.k,
                    c.n,
                    c.k as f64 / c.n as f64
                ));
            }
        }
        eprintln!(
            "{label}: {} comparisons, smallest p-value {:.3e} ({})",
            self.cmps.len(),
            worst.0,
            worst.1
        );
        assert!(
            bad.is_empty(),
            "{label}: {} of {} comparisons fail at family-wise {ALPHA}:\n{}",
            bad.len(),
            self.cmps.len(),
            bad.join("\n")
        );
    }
}

/// Counts over a set of layouts, keyed like the statistics.
#[derive(Default)]
struct Counts {
    total: u64,
    panics: u64,
    dungeon_exists: HashMap<String, u64>,
    num_levels: HashMap<String, BTreeMap<i32, u64>>,
    depth_start: HashMap<String, BTreeMap<i32, u64>>,
    /// (level name, dungeon name)
    level_exists: HashMap<(String, String), u64>,
    level_level: HashMap<(String, String), BTreeMap<i32, u64>>,
    level_depth: HashMap<(String, String), BTreeMap<i32, u64>>,
    /// child dungeon name -> parent level
    branch_level: HashMap<String, BTreeMap<i32, u64>>,
    branch_exists: HashMap<String, u64>,
    /// (dungeon name, level) -> (exists, can load, can leave)
    cells: HashMap<(String, i32), (u64, u64, u64)>,
}

fn bump(m: &mut BTreeMap<i32, u64>, k: i32) {
    *m.entry(k).or_default() += 1;
}

impl Counts {
    fn add(&mut self, layout: &Layout, bones: &BonesOptions) {
        self.total += 1;
        for d in &layout.dungeons {
            *self.dungeon_exists.entry(d.name.clone()).or_default() += 1;
            bump(
                self.num_levels.entry(d.name.clone()).or_default(),
                d.num_levels,
            );
            bump(
                self.depth_start.entry(d.name.clone()).or_default(),
                d.depth_start,
            );
        }
        for l in &layout.levels {
            let Some(d) = layout.dungeons.get(l.dungeon as usize) else {
                continue;
            };
            let key = (l.name.clone(), d.name.clone());
            *self.level_exists.entry(key.clone()).or_default() += 1;
            bump(self.level_level.entry(key.clone()).or_default(), l.level);
            bump(
                self.level_depth.entry(key).or_default(),
                d.depth_start + l.level - 1,
            );
        }
        for b in &layout.branches {
            let Some(child) = layout.dungeons.get(b.end2.dungeon as usize) else {
                continue;
            };
            *self.branch_exists.entry(child.name.clone()).or_default() += 1;
            bump(
                self.branch_level.entry(child.name.clone()).or_default(),
                b.end1.level,
            );
        }
        for row in layout_verdicts(layout, bones) {
            let c = self
                .cells
                .entry((row.dungeon.clone(), row.level))
                .or_default();
            c.0 += 1;
            c.1 += u64::from(row.can_load);
            c.2 += u64::from(row.leave_chance > 0.0);
        }
    }
}

/// Adds every comparison between `stats` and `counts` to `fam`.
fn compare(fam: &mut Family, label: &str, stats: &Stats, counts: &Counts) {
    let ok = counts.total - counts.panics;
    fam.add(
        format!("{label}: failure"),
        counts.panics,
        counts.total,
        stats.failure,
    );
    let unique = |names: Vec<String>| {
        let mut seen: HashMap<String, usize> = HashMap::new();
        for n in &names {
            *seen.entry(n.clone()).or_default() += 1;
        }
        seen
    };
    let dnames = unique(stats.dungeons.iter().map(|d| d.name.clone()).collect());
    for d in &stats.dungeons {
        if dnames[&d.name] > 1 {
            continue;
        }
        let k = counts.dungeon_exists.get(&d.name).copied().unwrap_or(0);
        fam.add(format!("{label}: \"{}\" exists", d.name), k, ok, d.exists);
        let empty = BTreeMap::new();
        fam.dist(
            &format!("{label}: \"{}\" num_levels", d.name),
            &d.num_levels,
            counts.num_levels.get(&d.name).unwrap_or(&empty),
            k,
        );
        fam.dist(
            &format!("{label}: \"{}\" depth_start", d.name),
            &d.depth_start,
            counts.depth_start.get(&d.name).unwrap_or(&empty),
            k,
        );
    }
    let lkeys = unique(
        stats
            .levels
            .iter()
            .map(|l| format!("{}\u{0}{}", l.name, l.dungeon))
            .collect(),
    );
    for l in &stats.levels {
        if lkeys[&format!("{}\u{0}{}", l.name, l.dungeon)] > 1
            || dnames.get(&l.dungeon).copied().unwrap_or(0) > 1
        {
            continue;
        }
        let key = (l.name.clone(), l.dungeon.clone());
        let k = counts.level_exists.get(&key).copied().unwrap_or(0);
        fam.add(
            format!("{label}: level \"{}\" exists", l.name),
            k,
            ok,
            l.exists,
        );
        let empty = BTreeMap::new();
        fam.dist(
            &format!("{label}: level \"{}\" level", l.name),
            &l.level,
            counts.level_level.get(&key).unwrap_or(&empty),
            k,
        );
        fam.dist(
            &format!("{label}: level \"{}\" depth", l.name),
            &l.depth,
            counts.level_depth.get(&key).unwrap_or(&empty),
            k,
        );
    }
    for b in &stats.branches {
        if dnames.get(&b.to).copied().unwrap_or(0) > 1
            || stats.branches.iter().filter(|o| o.to == b.to).count() > 1
        {
            continue;
        }
        let k = counts.branch_exists.get(&b.to).copied().unwrap_or(0);
        fam.add(
            format!("{label}: branch to \"{}\" exists", b.to),
            k,
            ok,
            b.exists,
        );
        let empty = BTreeMap::new();
        fam.dist(
            &format!("{label}: branch to \"{}\" level", b.to),
            &b.level,
            counts.branch_level.get(&b.to).unwrap_or(&empty),
            k,
        );
    }
    for c in &stats.bones {
        if dnames.get(&c.dungeon).copied().unwrap_or(0) > 1 {
            continue;
        }
        let (n, load, leave) = counts
            .cells
            .get(&(c.dungeon.clone(), c.level))
            .copied()
            .unwrap_or((0, 0, 0));
        fam.add(
            format!("{label}: \"{}\" level {} exists", c.dungeon, c.level),
            n,
            ok,
            c.exists,
        );
        fam.add(
            format!(
                "{label}: \"{}\" level {} can load bones",
                c.dungeon, c.level
            ),
            load,
            n,
            c.bones.can_load,
        );
        fam.add(
            format!(
                "{label}: \"{}\" level {} can leave bones",
                c.dungeon, c.level
            ),
            leave,
            n,
            c.bones.can_leave,
        );
    }
    // Cells observed that the statistics call impossible.
    for ((d, l), (n, _, _)) in &counts.cells {
        if dnames.get(d).copied().unwrap_or(0) == 1
            && !stats.bones.iter().any(|c| &c.dungeon == d && c.level == *l)
        {
            fam.add(format!("{label}: \"{d}\" level {l} exists"), *n, ok, 0.0);
        }
    }
}

/// `<name>.<ver>.<rng>[.wizard].jsonl.gz`.
fn parse_file_name(file: &str) -> Option<(String, String, RngKind, bool)> {
    let stem = file.strip_suffix(".jsonl.gz")?;
    let (stem, wizard) = match stem.strip_suffix(".wizard") {
        Some(s) => (s, true),
        None => (stem, false),
    };
    let (stem, rng) = stem.rsplit_once('.')?;
    let (name, ver) = stem.rsplit_once('.')?;
    Some((
        name.to_string(),
        ver.to_string(),
        RngKind::parse(rng)?,
        wizard,
    ))
}

fn read_counts(path: &Path, bones: &BonesOptions) -> Counts {
    let lines = dgnkit_tests::gz_json_lines(path).unwrap_or_else(|e| panic!("{e}"));
    let mut counts = Counts::default();
    for (_, v) in lines {
        let v = v.unwrap_or_else(|e| panic!("{e}"));
        if v.get("panic").is_some() {
            counts.total += 1;
            counts.panics += 1;
            continue;
        }
        let layout: Layout = serde_json::from_value(v).expect("layout schema");
        counts.add(&layout, bones);
    }
    counts
}

fn target_of(ver: &str) -> Option<Target> {
    match ver {
        "343" => Some(Target::NetHack343),
        "36" => Some(Target::NetHack36),
        _ => None,
    }
}

#[test]
fn exact_statistics_match_the_frequencies_of_nethacks_layouts() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let dir = shared.join("expected").join("layouts");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("layouts folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".jsonl.gz"))
        .collect();
    files.sort();
    let bones = BonesOptions::default();
    let mut fam = Family::default();
    let (mut compared, mut sampled) = (0, Vec::new());
    for f in &files {
        let Some((name, ver, _rng, wizard)) = parse_file_name(f) else {
            continue;
        };
        let Some(target) = target_of(&ver) else {
            continue;
        };
        let bin = shared
            .join("expected")
            .join("compiled")
            .join(format!("{name}.{ver}.bin"));
        let Ok(bytes) = std::fs::read(&bin) else {
            continue;
        };
        let script = dgnkit::binary::read(&bytes, None)
            .unwrap_or_else(|e| panic!("{}: {e}", bin.display()))
            .script;
        let opts = StatsOptions {
            game: target.game().loader_game(),
            wizard,
            samples: SAMPLES,
            ..StatsOptions::default()
        };
        let counts = read_counts(&dir.join(f), &bones);
        match stats::exact(&script, &opts) {
            Ok(stats) => compare(&mut fam, f, &stats, &counts),
            Err(e) => {
                // Too large: our loader's frequencies, count against count.
                sampled.push(format!("{f}: {}", e.what));
                let stats = stats::sampled(&script, &opts);
                compare_sampled(&mut fam, f, &stats, &counts);
            }
        }
        compared += 1;
    }
    eprintln!("compared {compared} files; too large to enumerate, sampled instead: {sampled:?}");
    assert!(compared >= 190, "only {compared} layout files compared");
    // None is too large: the UnNetHack family's Gehennom (eight extra
    // special levels with overlapping ranges 17 levels wide, seven of them
    // optional) is placed over counts with its rolls mixed (`tail.rs`).
    assert!(
        sampled.is_empty(),
        "files unexpectedly too large to enumerate: {sampled:?}"
    );
    fam.judge("expected layouts");
}

/// Compares NetHack's counts with sampled statistics. Every conditional
/// distribution is compared within its own sample (trials = samples where
/// the condition holds), so the statistics are first turned back into
/// counts, then each count is compared with Fisher's test.
fn compare_sampled(fam: &mut Family, label: &str, stats: &Stats, counts: &Counts) {
    let Method::Sampled { samples, .. } = stats.method else {
        panic!("{label}: not sampled")
    };
    let reference = counts_from_sample(stats, samples);
    let mut add = |what: String, k: u64, n: u64, k2: u64, n2: u64| {
        if n > 0 && n2 > 0 {
            fam.cmps.push(Cmp {
                what,
                k,
                n,
                reference: Reference::Sample(k2, n2),
            });
        }
    };
    add(
        format!("{label}: failure"),
        counts.panics,
        counts.total,
        reference.panics,
        reference.total,
    );
    let ok = counts.total - counts.panics;
    let rok = reference.total - reference.panics;
    let dists = |add: &mut dyn FnMut(String, u64, u64, u64, u64),
                 what: String,
                 a: Option<&BTreeMap<i32, u64>>,
                 n: u64,
                 b: Option<&BTreeMap<i32, u64>>,
                 n2: u64| {
        let empty = BTreeMap::new();
        let (a, b) = (a.unwrap_or(&empty), b.unwrap_or(&empty));
        let keys: std::collections::BTreeSet<i32> = a.keys().chain(b.keys()).copied().collect();
        for v in keys {
            add(
                format!("{what} = {v}"),
                a.get(&v).copied().unwrap_or(0),
                n,
                b.get(&v).copied().unwrap_or(0),
                n2,
            );
        }
    };
    for (name, &k2) in &reference.dungeon_exists {
        let k = counts.dungeon_exists.get(name).copied().unwrap_or(0);
        add(format!("{label}: \"{name}\" exists"), k, ok, k2, rok);
        dists(
            &mut add,
            format!("{label}: \"{name}\" num_levels"),
            counts.num_levels.get(name),
            k,
            reference.num_levels.get(name),
            k2,
        );
        dists(
            &mut add,
            format!("{label}: \"{name}\" depth_start"),
            counts.depth_start.get(name),
            k,
            reference.depth_start.get(name),
            k2,
        );
    }
    for (key, &k2) in &reference.level_exists {
        if stats
            .levels
            .iter()
            .filter(|l| l.name == key.0 && l.dungeon == key.1)
            .count()
            > 1
        {
            continue;
        }
        let k = counts.level_exists.get(key).copied().unwrap_or(0);
        add(
            format!("{label}: level \"{}\" exists", key.0),
            k,
            ok,
            k2,
            rok,
        );
        dists(
            &mut add,
            format!("{label}: level \"{}\" level", key.0),
            counts.level_level.get(key),
            k,
            reference.level_level.get(key),
            k2,
        );
    }
    for (key, &(n2, load2, leave2)) in &reference.cells {
        let (n, load, leave) = counts.cells.get(key).copied().unwrap_or((0, 0, 0));
        add(
            format!("{label}: \"{}\" level {} can load bones", key.0, key.1),
            load,
            n,
            load2,
            n2,
        );
        add(
            format!("{label}: \"{}\" level {} can leave bones", key.0, key.1),
            leave,
            n,
            leave2,
            n2,
        );
    }
}

/// Counts from the statistics of sampled layouts (frequencies times the
/// number of samples).
fn counts_from_sample(s: &Stats, samples: u64) -> Counts {
    let round = |x: f64| x.round() as u64;
    let mut c = Counts {
        total: samples,
        panics: round(s.failure * samples as f64),
        ..Counts::default()
    };
    let ok = samples - c.panics;
    for d in &s.dungeons {
        let k = round(d.exists * ok as f64);
        c.dungeon_exists.insert(d.name.clone(), k);
        c.num_levels.insert(
            d.name.clone(),
            d.num_levels
                .iter()
                .map(|(&v, &p)| (v, round(p * k as f64)))
                .collect(),
        );
        c.depth_start.insert(
            d.name.clone(),
            d.depth_start
                .iter()
                .map(|(&v, &p)| (v, round(p * k as f64)))
                .collect(),
        );
    }
    for l in &s.levels {
        let key = (l.name.clone(), l.dungeon.clone());
        let k = round(l.exists * ok as f64);
        c.level_exists.insert(key.clone(), k);
        c.level_level.insert(
            key.clone(),
            l.level
                .iter()
                .map(|(&v, &p)| (v, round(p * k as f64)))
                .collect(),
        );
        c.level_depth.insert(
            key,
            l.depth
                .iter()
                .map(|(&v, &p)| (v, round(p * k as f64)))
                .collect(),
        );
    }
    for b in &s.branches {
        let k = round(b.exists * ok as f64);
        c.branch_exists.insert(b.to.clone(), k);
        c.branch_level.insert(
            b.to.clone(),
            b.level
                .iter()
                .map(|(&v, &p)| (v, round(p * k as f64)))
                .collect(),
        );
    }
    for b in &s.bones {
        let n = round(b.exists * ok as f64);
        c.cells.insert(
            (b.dungeon.clone(), b.level),
            (
                n,
                round(b.bones.can_load * n as f64),
                round(b.bones.can_leave * n as f64),
            ),
        );
    }
    c
}

#[test]
fn exact_statistics_match_the_loader_over_20000_seeds() {
    let Some(shared) = dgnkit_tests::shared_dir() else {
        return;
    };
    let mut fam = Family::default();
    for (name, ver) in [("vanilla36", "36"), ("vanilla343", "343")] {
        let bin = shared
            .join("expected")
            .join("compiled")
            .join(format!("{name}.{ver}.bin"));
        let bytes = std::fs::read(&bin).unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
        let script = dgnkit::binary::read(&bytes, None).expect("read").script;
        let target = target_of(ver).expect("version");
        let opts = StatsOptions {
            game: target.game().loader_game(),
            samples: 20_000,
            ..StatsOptions::default()
        };
        let exact = stats::exact(&script, &opts).expect("vanilla enumerates");
        let sampled = stats::sampled(&script, &opts);
        assert!(matches!(
            sampled.method,
            Method::Sampled {
                samples: 20_000,
                ..
            }
        ));
        compare(
            &mut fam,
            &format!("{name} loader"),
            &exact,
            &counts_from_sample(&sampled, 20_000),
        );
    }
    fam.judge("loader over 20,000 seeds");
}

#[test]
fn binomial_test_rejects_what_it_should() {
    let lnf = ln_factorials(200);
    // 100 of 200 at p = 0.5 is typical; 150 of 200 is not.
    assert!(binomial_p_value(100, 200, 0.5, &lnf) > 0.5);
    assert!(binomial_p_value(150, 200, 0.5, &lnf) < 1e-10);
    assert_eq!(binomial_p_value(1, 200, 0.0, &lnf), 0.0);
    assert_eq!(binomial_p_value(199, 200, 1.0, &lnf), 0.0);
    let lnf = ln_factorials(5000);
    assert!(fisher_p_value(25, 50, 2000, 4000, &lnf) > 0.5);
    assert!(fisher_p_value(45, 50, 2000, 4000, &lnf) < 1e-8);
    assert!(fisher_p_value(1, 50, 0, 4000, &lnf) > 0.01);
}
