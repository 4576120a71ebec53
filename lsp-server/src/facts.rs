//! Where things can be: per dungeon, special level and branch, the levels and
//! depths they can occupy. From dgnkit's exact statistics when the file has
//! no errors and the enumeration fits its budget (with probabilities), else
//! from the checks' interval geometry (ranges only).

use crate::analysis::{check_options, Semantic};
use crate::config::Config;
use dgnkit::check::geometry::{depth_starts, Positions, Sizes};
use dgnkit::check::Ctx;
use dgnkit::model::{BranchInfo, DungeonId, LevelId, Model};
use dgnkit::script::Script;
use dgnkit::stats::{self, Budget, Dist, Stats, StatsOptions};

/// An inclusive range, when known.
pub type Interval = Option<(i64, i64)>;

/// Static ranges, in file order of the model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Geometry {
    /// Number of levels (after the MAXLEVEL cut) and the depth of level 1.
    pub dungeons: Vec<(Interval, Interval)>,
    /// Level numbers in the dungeon.
    pub levels: Vec<Option<(i64, i64)>>,
    /// Level numbers of the branch's end in the dungeon it leaves.
    pub branches: Vec<Option<(i64, i64)>>,
}

fn union(a: Option<(i64, i64)>, b: (i64, i64)) -> Option<(i64, i64)> {
    Some(a.map_or(b, |(lo, hi)| (lo.min(b.0), hi.max(b.1))))
}

pub fn geometry(canonical: &[u8], semantic: &Semantic, config: &Config) -> Geometry {
    let opts = check_options(config);
    let analysis = &semantic.analysis;
    let model = &analysis.model;
    let ctx = Ctx::new(
        canonical,
        &analysis.file,
        model,
        opts.target.game().check_game(),
        opts.dialect,
    );
    let starts = depth_starts(&ctx);
    let mut geo = Geometry {
        dungeons: Vec::with_capacity(model.dungeons.len()),
        levels: vec![None; model.levels.len()],
        branches: vec![None; model.branches.len()],
    };
    for d in &model.dungeons {
        let sizes = Sizes::of(d, &ctx.limits);
        geo.dungeons.push((
            sizes.map(|s| (s.min(), s.max())),
            starts.get(d.id.index()).copied().flatten(),
        ));
        let Some(distinct) = sizes.and_then(|s| s.distinct()) else {
            continue;
        };
        for (size, _) in distinct {
            let mut pos = Positions::new(model, size);
            for &l in &d.levels {
                if let Some(r) = pos.level(l) {
                    if let Some(slot) = geo.levels.get_mut(l.index()) {
                        *slot = union(*slot, r);
                    }
                }
            }
            for &b in &d.branches {
                if let Some(r) = pos.branch(model.branch(b)) {
                    if let Some(slot) = geo.branches.get_mut(b.index()) {
                        *slot = union(*slot, r);
                    }
                }
            }
        }
    }
    geo
}

/// What the server's exact statistics may take before it samples instead.
/// An editor holds the server for hours beside everything else, so it
/// stays under 300 MB: an enumeration holds some hundreds of bytes per
/// outcome and per placement-search state while it runs, one at a time
/// ([`crate::heavy`]), and these bounds are the largest corpus files'
/// (the dNetHack family's outcomes and loader states, SlashTNG's and
/// OZslashem's placement-search states) with room to spare; their memory
/// is in bench/README.md. Every corpus file is exact within these
/// (`tests/server/budget.rs`); a larger file is sampled as
/// `dgn stats --sample` samples, and its hovers say so.
pub const BUDGET: Budget = Budget {
    states: 40_000,
    edges: 450_000,
    placement_nodes: 400_000,
    optional_levels: 12,
};

/// The statistics of a script, as `dgn stats` and `dgn bones` compute them
/// for the same target (the game's loader and bones rules), exact when the
/// enumeration fits the server's [`BUDGET`] and the game's rules are
/// modelled, else sampled as `dgn stats --sample` does (the method says
/// which).
pub fn stats(script: &Script, config: &Config) -> Stats {
    let opts = StatsOptions {
        game: config.target.game().loader_game(),
        bones: config.target.game().bones_options(),
        budget: BUDGET,
        ..StatsOptions::default()
    };
    stats::compute(script, &opts)
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A level's or branch's place: a distribution, or a static range.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    Dist(Dist),
    Range(i64, i64),
    Unknown,
}

impl Place {
    pub fn from_range(r: Option<(i64, i64)>) -> Place {
        r.map_or(Place::Unknown, |(lo, hi)| Place::Range(lo, hi))
    }

    /// The smallest and largest value.
    pub fn bounds(&self) -> Option<(i64, i64)> {
        match self {
            Place::Dist(d) => Some((
                i64::from(*d.keys().next()?),
                i64::from(*d.keys().next_back()?),
            )),
            Place::Range(lo, hi) => Some((*lo, *hi)),
            Place::Unknown => None,
        }
    }

    /// "5-9" (or "5").
    pub fn short(&self) -> Option<String> {
        self.bounds().map(|(lo, hi)| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            }
        })
    }

    /// "5 (20%), 6 (20%), ..." or "5-9".
    pub fn long(&self) -> String {
        match self {
            Place::Dist(d) if d.len() <= 12 => d
                .iter()
                .map(|(k, p)| format!("{k} ({})", percent(*p)))
                .collect::<Vec<_>>()
                .join(", "),
            Place::Dist(_) => self.short().unwrap_or_default(),
            Place::Range(..) => self.short().unwrap_or_default(),
            Place::Unknown => "unknown".to_string(),
        }
    }
}

pub fn percent(p: f64) -> String {
    let v = p * 100.0;
    if (v - v.round()).abs() < 0.05 {
        format!("{}%", v.round())
    } else if v < 1.0 {
        format!("{v:.2}%")
    } else {
        format!("{v:.1}%")
    }
}

/// Depths of a level range given the depth range of level 1.
fn depths(levels: Option<(i64, i64)>, start: Option<(i64, i64)>) -> Option<(i64, i64)> {
    let ((l_lo, l_hi), (s_lo, s_hi)) = (levels?, start?);
    Some((s_lo + l_lo - 1, s_hi + l_hi - 1))
}

/// What is known about one thing.
pub struct Where<'s> {
    pub level: Place,
    pub depth: Place,
    /// Chance that it exists (given that loading succeeds), from statistics.
    pub exists: Option<f64>,
    pub level_stat: Option<&'s stats::LevelStat>,
}

pub fn level<'s>(
    model: &Model,
    geo: &Geometry,
    stats: Option<&'s Stats>,
    id: LevelId,
) -> Where<'s> {
    let l = model.level(id);
    let d = model.dungeon(l.dungeon);
    let stat = stats.and_then(|s| s.levels.get(id.index())).filter(|s| {
        dgnkit::stats::names_include(&s.name, &lossy(&l.name.bytes))
            && dgnkit::stats::names_include(&s.dungeon, &lossy(&d.name.bytes))
    });
    match stat {
        Some(s) => Where {
            level: Place::Dist(s.level.clone()),
            depth: Place::Dist(s.depth.clone()),
            exists: Some(s.exists),
            level_stat: Some(s),
        },
        None => {
            let levels = geo.levels.get(id.index()).copied().flatten();
            let start = geo.dungeons.get(l.dungeon.index()).and_then(|g| g.1);
            Where {
                level: Place::from_range(levels),
                depth: Place::from_range(depths(levels, start)),
                exists: None,
                level_stat: None,
            }
        }
    }
}

pub fn branch<'s>(
    model: &Model,
    geo: &Geometry,
    stats: Option<&'s Stats>,
    b: &BranchInfo,
) -> Where<'s> {
    let from = lossy(&model.dungeon(b.dungeon).name.bytes);
    let to = lossy(&b.target.bytes);
    let stat = stats.and_then(|s| s.branches.iter().find(|s| s.from == from && s.to == to));
    match stat {
        Some(s) => Where {
            level: Place::Dist(s.level.clone()),
            depth: Place::Dist(s.depth.clone()),
            exists: Some(s.exists),
            level_stat: None,
        },
        None => {
            let levels = geo.branches.get(b.id.index()).copied().flatten();
            let start = geo.dungeons.get(b.dungeon.index()).and_then(|g| g.1);
            Where {
                level: Place::from_range(levels),
                depth: Place::from_range(depths(levels, start)),
                exists: None,
                level_stat: None,
            }
        }
    }
}

/// A dungeon: (number of levels, depth of level 1, chance it exists).
pub fn dungeon(
    model: &Model,
    geo: &Geometry,
    stats: Option<&Stats>,
    id: DungeonId,
) -> (Place, Place, Option<f64>) {
    let d = model.dungeon(id);
    let stat = stats
        .and_then(|s| s.dungeons.get(id.index()))
        .filter(|s| s.name == lossy(&d.name.bytes));
    match stat {
        Some(s) => (
            Place::Dist(s.num_levels.clone()),
            Place::Dist(s.depth_start.clone()),
            Some(s.exists),
        ),
        None => {
            let g = geo.dungeons.get(id.index());
            (
                Place::from_range(g.and_then(|g| g.0)),
                Place::from_range(g.and_then(|g| g.1)),
                None,
            )
        }
    }
}
