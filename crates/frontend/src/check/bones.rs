//! Bones-marker reuse (shared/spec/bones.md). A bones file is named
//! `bon` + dungeon marker + `0` (the role code in the Quest) + `.` + special
//! level marker or level number, so two dungeons with one marker, or two
//! special levels of one dungeon with one marker, share file names. The
//! reuse is harmful when one level sharing a name can leave bones that
//! another can load, and harmless otherwise.
//!
//! "Can" is judged over every dungeon size and every position a level can
//! take: a level can have bones unless it is at the bottom, just above the
//! bottom of a hellish dungeon, or its marker (or its dungeon's) is "none";
//! it can leave them only if it can lie at depth 4 or deeper and holds no
//! magic portal. Branch ends (rule 4) are not modelled: they only make a
//! level lose bones in some layouts.

use super::codes::*;
use super::geometry::{depth_starts, Positions, Sizes};
use super::Ctx;
use crate::model::{Bones, DungeonInfo, LevelId};
use dgnkit_grammar::Diagnostic;
use dgnkit_script::flags;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Earlier dungeons of one marker compared with each dungeon.
const MAX_PARTNERS: usize = 8;

/// Levels that hold a magic portal in vanilla, so never leave bones.
const PORTAL_LEVELS: [&[u8]; 2] = [b"fakewiz1", b"wizard3"];

/// A level that uses one bones file name.
#[derive(Clone, Debug)]
struct Site {
    /// "\"The Dragon Caves\" level 2" or "\"oracle\" (in \"The Dungeons of Doom\")".
    desc: String,
    leave: bool,
    load: bool,
}

/// The bones file names of one dungeon, by the part after the dot.
struct DungeonSites {
    marker: u8,
    quest: bool,
    sites: BTreeMap<Vec<u8>, Site>,
}

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let depths = depth_starts(ctx);
    let all = shared_sites(ctx, &depths);
    dungeons_sharing_a_marker(ctx, &all, out);
    levels_sharing_a_marker(ctx, &all, &depths, out);
}

/// The bones file names of each dungeon whose marker is shared (`None`
/// for the others, and for a dungeon whose sizes cannot be analysed).
fn shared_sites(ctx: &Ctx, depths: &[Option<(i64, i64)>]) -> Vec<Option<DungeonSites>> {
    let m = ctx.model;
    // The bones file names of a dungeon are only compared when its marker
    // is shared, with another dungeon or between two of its special
    // levels; listing them (a name formatted per level) for every dungeon
    // would be work for nothing on a file like NetHack's own, where no
    // marker is shared and every compile runs this check.
    let mut dungeons_with: HashMap<u8, Vec<&[u8]>> = HashMap::new();
    for d in &m.dungeons {
        if let Bones::Marker(marker) = d.bones.value {
            dungeons_with.entry(marker).or_default().push(&d.name.bytes);
        }
    }
    let shared = |d: &DungeonInfo| {
        let with_other_dungeon = match d.bones.value {
            Bones::Marker(marker) => dungeons_with
                .get(&marker)
                .is_some_and(|names| names.iter().any(|n| *n != d.name.bytes.as_slice())),
            _ => false,
        };
        let mut level_markers = HashSet::new();
        with_other_dungeon
            || d.levels
                .iter()
                .any(|&id| match m.level(id).bones.as_ref().map(|b| b.value) {
                    Some(Bones::Marker(lm)) => !level_markers.insert(lm),
                    _ => false,
                })
    };
    m.dungeons
        .iter()
        .map(|d| {
            if shared(d) {
                sites(ctx, d, depths[d.id.index()])
            } else {
                None
            }
        })
        .collect()
}

/// Two dungeons with one marker. Each dungeon is compared with the first
/// few earlier dungeons of its marker (a bound that keeps huge files
/// linear; real files have at most a handful).
fn dungeons_sharing_a_marker(ctx: &Ctx, all: &[Option<DungeonSites>], out: &mut Vec<Diagnostic>) {
    let m = ctx.model;
    let mut by_marker: HashMap<u8, Vec<&DungeonInfo>> = HashMap::new();
    for (bi, b) in m.dungeons.iter().enumerate() {
        let Bones::Marker(marker) = b.bones.value else {
            continue;
        };
        let group = by_marker.entry(marker).or_default();
        let partners: Vec<&DungeonInfo> = group
            .iter()
            .copied()
            .filter(|a| a.name.bytes != b.name.bytes)
            .take(MAX_PARTNERS)
            .collect();
        if group.len() < MAX_PARTNERS {
            group.push(b);
        }
        let Some(&first) = partners.first() else {
            continue;
        };
        let mut harm: Option<String> = None;
        let mut reason = None;
        for a in &partners {
            match (&all[a.id.index()], &all[bi]) {
                (Some(sa), Some(sb)) if sa.quest != sb.quest => {
                    reason.get_or_insert(
                        "the Quest's bones files carry the role's code instead of 0",
                    );
                }
                (Some(sa), Some(sb)) => {
                    if let Some(h) = harmful(sa, sb) {
                        harm = Some(h);
                        break;
                    }
                }
                _ => {
                    // A size we cannot analyse: assume the worst.
                    harm = Some(format!(
                        "\"{}\" and \"{}\" share bones file names",
                        a.name.text(),
                        b.name.text()
                    ));
                    break;
                }
            }
        }
        let mc = marker_text(marker);
        let others = partners
            .iter()
            .map(|a| format!("\"{}\"", a.name.text()))
            .collect::<Vec<_>>()
            .join(", ");
        let mut d = match harm {
            Some(h) => Diagnostic::warning(
                BONES_REUSE_HARMFUL,
                "bones-marker-reuse",
                b.bones.span,
                format!(
                    "bones marker {mc} of \"{}\" is also used by {others}: {h}",
                    b.name.text()
                ),
            )
            .with_note("a ghost and its possessions can turn up on the wrong level"),
            None => Diagnostic::warning(
                BONES_REUSE_HARMLESS,
                "bones-marker-reuse-harmless",
                b.bones.span,
                format!(
                    "bones marker {mc} of \"{}\" is also used by {others} (harmless: {})",
                    b.name.text(),
                    reason.unwrap_or("no level that shares a bones file name can leave bones")
                ),
            ),
        };
        d = d.with_label(
            first.bones.span,
            format!("\"{}\" uses {mc} too", first.name.text()),
        );
        for a in partners.iter().skip(1) {
            d = d.with_label(a.bones.span, format!("\"{}\" too", a.name.text()));
        }
        out.push(d.with_note(format!(
            "bones files are named bon{}0.<level>: dungeons need distinct markers",
            String::from_utf8_lossy(&[marker])
        )));
    }
}

/// Two special levels of one dungeon with one marker.
fn levels_sharing_a_marker(
    ctx: &Ctx,
    all: &[Option<DungeonSites>],
    depths: &[Option<(i64, i64)>],
    out: &mut Vec<Diagnostic>,
) {
    let m = ctx.model;
    for d in &m.dungeons {
        let mut first_with: HashMap<u8, LevelId> = HashMap::new();
        for &lb in &d.levels {
            let b = m.level(lb);
            let Some(Bones::Marker(marker)) = b.bones.as_ref().map(|x| x.value) else {
                continue;
            };
            let la = *first_with.entry(marker).or_insert(lb);
            if la == lb {
                continue;
            }
            let a = m.level(la);
            let mc = marker_text(marker);
            let (sa, sb) = match all[d.id.index()] {
                Some(_) => (
                    level_site(ctx, la, depths[d.id.index()]),
                    level_site(ctx, lb, depths[d.id.index()]),
                ),
                None => (None, None),
            };
            let file = bones_file(d, marker);
            let harm = match (&sa, &sb, d.bones.value) {
                (_, _, Bones::None) => None,
                (Some(x), Some(y), _) if x.leave && y.load => Some(format!(
                    "{} can leave {file}, which {} loads",
                    x.desc, y.desc
                )),
                (Some(x), Some(y), _) if y.leave && x.load => Some(format!(
                    "{} can leave {file}, which {} loads",
                    y.desc, x.desc
                )),
                (Some(_), Some(_), _) => None,
                _ => Some(format!("both use {file}")),
            };
            let reason = if d.bones.value == Bones::None {
                format!("\"{}\" has no bones at all", d.name.text())
            } else {
                "neither level can leave bones the other loads".to_string()
            };
            let diag = match harm {
                Some(h) => Diagnostic::warning(
                    BONES_REUSE_HARMFUL,
                    "bones-marker-reuse",
                    b.bones.as_ref().map_or(b.name.span, |x| x.span),
                    format!(
                        "bones marker {mc} of \"{}\" is also used by \"{}\": {h}",
                        b.name.text(),
                        a.name.text()
                    ),
                )
                .with_note("a ghost and its possessions can turn up on the wrong level"),
                None => Diagnostic::warning(
                    BONES_REUSE_HARMLESS,
                    "bones-marker-reuse-harmless",
                    b.bones.as_ref().map_or(b.name.span, |x| x.span),
                    format!(
                        "bones marker {mc} of \"{}\" is also used by \"{}\" (harmless: {reason})",
                        b.name.text(),
                        a.name.text()
                    ),
                ),
            };
            out.push(
                diag.with_label(a.bones.as_ref().map_or(a.name.span, |x| x.span), format!("\"{}\" uses {mc} too", a.name.text()))
                    .with_note("special levels of one dungeon need distinct markers: the marker names their bones file"),
            );
        }
    }
}

fn marker_text(marker: u8) -> String {
    format!("\"{}\"", crate::model::display_bytes(&[marker]))
}

fn bones_file(d: &DungeonInfo, level_marker: u8) -> String {
    let dm = d
        .bones
        .value
        .marker()
        .map_or(String::from("?"), |b| crate::model::display_bytes(&[b]));
    let role = if d.name.bytes == b"The Quest" {
        "<role>"
    } else {
        "0"
    };
    format!(
        "bon{dm}{role}.{}",
        crate::model::display_bytes(&[level_marker])
    )
}

/// The first pair of sites sharing a file name where one can leave bones
/// that the other can load, described.
fn harmful(a: &DungeonSites, b: &DungeonSites) -> Option<String> {
    let file = |suffix: &[u8]| {
        format!(
            "bon{}0.{}",
            crate::model::display_bytes(&[a.marker]),
            crate::model::display_bytes(suffix)
        )
    };
    for (suffix, sa) in &a.sites {
        let Some(sb) = b.sites.get(suffix) else {
            continue;
        };
        if sb.leave && sa.load {
            return Some(format!(
                "{} can leave {}, which {} loads",
                sb.desc,
                file(suffix),
                sa.desc
            ));
        }
        if sa.leave && sb.load {
            return Some(format!(
                "{} can leave {}, which {} loads",
                sa.desc,
                file(suffix),
                sb.desc
            ));
        }
    }
    None
}

/// Whether a level at `p` can have bones in a dungeon of `s` levels.
fn can_have(p: i64, s: i64, hellish: bool) -> bool {
    p != s && !(hellish && p == s - 1)
}

/// Whether depth `start + p - 1` can reach 4 (where bones can be left).
fn deep_enough(depth_start: Option<(i64, i64)>, p: i64) -> bool {
    depth_start.is_none_or(|(_, hi)| hi.saturating_add(p).saturating_sub(1) >= 4)
}

fn level_site(ctx: &Ctx, id: LevelId, depth: Option<(i64, i64)>) -> Option<Site> {
    let m = ctx.model;
    let l = m.level(id);
    let d = m.dungeon(l.dungeon);
    let sizes = Sizes::of(d, &ctx.limits)?.distinct()?;
    let hellish = d.flags & flags::HELLISH != 0;
    let mut site = Site {
        desc: format!("\"{}\"", l.name.text()),
        leave: false,
        load: false,
    };
    if l.bones.as_ref().is_none_or(|b| b.value == Bones::None) || l.chance_value() < 1 {
        return Some(site);
    }
    let portal = PORTAL_LEVELS.contains(&l.name.bytes.as_slice());
    for (s, _) in sizes {
        let Some((lo, hi)) = Positions::new(m, s).level(id) else {
            continue;
        };
        for p in lo..=hi {
            if can_have(p, s, hellish) {
                site.load = true;
                site.leave |= !portal && deep_enough(depth, p);
            }
        }
    }
    Some(site)
}

/// Every bones file name a dungeon's levels can use, or `None` when its
/// sizes cannot be analysed (the caller then assumes the worst).
fn sites(ctx: &Ctx, d: &DungeonInfo, depth: Option<(i64, i64)>) -> Option<DungeonSites> {
    let m = ctx.model;
    let marker = d.bones.value.marker()?;
    let quest = d.name.bytes == b"The Quest";
    let sizes = Sizes::of(d, &ctx.limits)?.distinct()?;
    let hellish = d.flags & flags::HELLISH != 0;
    let mut out = DungeonSites {
        marker,
        quest,
        sites: BTreeMap::new(),
    };
    let dname = d.name.text();
    // Numbered (ordinary) levels. A level always taken by a special level
    // that always exists has no numbered bones file.
    let mut numbered: BTreeMap<i64, Site> = BTreeMap::new();
    for &(s, _) in &sizes {
        let mut pos = Positions::new(m, s);
        let taken: HashSet<i64> = d
            .levels
            .iter()
            .filter(|&&id| m.level(id).chance_value() >= 100)
            .filter_map(|&id| pos.level(id).filter(|(lo, hi)| lo == hi).map(|(lo, _)| lo))
            .collect();
        for n in (1..=s).filter(|n| can_have(*n, s, hellish) && !taken.contains(n)) {
            let site = numbered.entry(n).or_insert_with(|| Site {
                desc: format!("\"{dname}\" level {n}"),
                leave: false,
                load: false,
            });
            site.load = true;
            site.leave |= deep_enough(depth, n);
        }
    }
    for (n, site) in numbered {
        out.sites.insert(n.to_string().into_bytes(), site);
    }
    // Special levels, by their marker.
    for &id in &d.levels {
        let l = m.level(id);
        let Some(Bones::Marker(lm)) = l.bones.as_ref().map(|b| b.value) else {
            continue;
        };
        let Some(site) = level_site(ctx, id, depth) else {
            continue;
        };
        let entry = out.sites.entry(vec![lm]).or_insert(Site {
            desc: site.desc.clone(),
            leave: false,
            load: false,
        });
        entry.leave |= site.leave;
        entry.load |= site.load;
        if !entry.desc.contains("in \"") {
            entry.desc = format!("{} (in \"{dname}\")", entry.desc);
        }
    }
    Some(out)
}
