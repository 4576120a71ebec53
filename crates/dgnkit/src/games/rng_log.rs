//! How a game's own RNG log names each draw: the C function and
//! `file:line` that Mazes of Menace's session files write after each call
//! (`rn2(5)=3 @ init_dungeon_dungeons(dungeon.c:1074)`,
//! `../shared/spec/session-format-v3.md`). A game that has such a log
//! holds an [`RngLog`] in its record ([`super::Game::rng_log`]); `dgn
//! session` knows a session's game by it, and `dgn layout --trace=session`
//! writes dgnkit's draws in that form. A draw whose caller the record does
//! not give is shown as unknown, never given another game's name.

use crate::rng::Site;

/// Draws made one after another at one place of the C source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRun {
    /// The caller as the log writes it (`shuffle(o_init.c:128)`).
    pub caller: &'static str,
    pub bounds: Bounds,
}

/// The bounds of a [`DrawRun`]'s draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bounds {
    /// `count` draws of `rn2(bound)`.
    Same { bound: u32, count: u32 },
    /// A shuffle of `n` entries: `rn2(n)`, `rn2(n-1)`, ..., `rn2(1)`.
    Countdown(u32),
}

impl Bounds {
    pub const fn count(self) -> u32 {
        match self {
            Bounds::Same { count, .. } => count,
            Bounds::Countdown(n) => n,
        }
    }

    /// The bound of the run's `i`-th draw (`i < count`).
    pub const fn nth(self, i: u32) -> u32 {
        match self {
            Bounds::Same { bound, .. } => bound,
            Bounds::Countdown(n) => n.saturating_sub(i),
        }
    }
}

/// The bounds of every draw of `runs`, in order, as a fixed-size table
/// (`GameStart::fixed_bounds`). Draws past `N` are left out and missing
/// ones are 1; the game's tests check that the runs make exactly `N`.
pub const fn bounds_of<const N: usize>(runs: &[DrawRun]) -> [u32; N] {
    let mut out = [1u32; N];
    let (mut r, mut k) = (0, 0);
    while r < runs.len() {
        let b = runs[r].bounds;
        let mut i = 0;
        while i < b.count() && k < N {
            out[k] = b.nth(i);
            k += 1;
            i += 1;
        }
        r += 1;
    }
    out
}

/// The total number of draws of `runs`.
pub const fn count_of(runs: &[DrawRun]) -> u32 {
    let (mut r, mut n) = (0, 0);
    while r < runs.len() {
        n += runs[r].bounds.count();
        r += 1;
    }
    n
}

/// The callers a game's log names, one per kind of draw dgnkit makes
/// ([`Site`]); `None` where dgnkit does not know it.
#[derive(Clone, Copy, Debug)]
pub struct RngLog {
    /// The C trees whose logs these are, by commit (abbreviated as a
    /// session's `recorded_with.nethack_c` gives it).
    pub trees: &'static [&'static str],
    /// The object description shuffles, in order (the `n`-th draw of
    /// [`Site::ObjectInit`] is the `n`-th draw of these runs).
    pub object_init: &'static [DrawRun],
    pub quest_gender: Option<&'static str>,
    pub pantheon: Option<&'static str>,
    pub rogue_victim: Option<&'static str>,
    pub lua_shuffle: Option<&'static str>,
    pub dungeon_chance: Option<&'static str>,
    pub dungeon_size: Option<&'static str>,
    pub branch_level: Option<&'static str>,
    pub level_chance: Option<&'static str>,
    pub place: Option<&'static str>,
    pub tune: Option<&'static str>,
    pub planes: Option<&'static str>,
    pub after_loader: Option<&'static str>,
}

impl RngLog {
    /// The caller of a draw at `site`; `object` is the draw's place among
    /// the [`Site::ObjectInit`] draws (counted from 0), for that site only.
    pub fn caller(&self, site: Site, object: u32) -> Option<&'static str> {
        match site {
            Site::ObjectInit => {
                let mut left = object;
                self.object_init.iter().find_map(|run| {
                    let n = run.bounds.count();
                    if left < n {
                        Some(run.caller)
                    } else {
                        left -= n;
                        None
                    }
                })
            }
            Site::QuestGender => self.quest_gender,
            Site::Pantheon => self.pantheon,
            Site::RogueVictim => self.rogue_victim,
            Site::LuaShuffle => self.lua_shuffle,
            Site::DungeonChance { .. } => self.dungeon_chance,
            Site::DungeonSize { .. } => self.dungeon_size,
            Site::BranchLevel { .. } => self.branch_level,
            Site::LevelChance { .. } => self.level_chance,
            Site::Place { .. } => self.place,
            Site::Tune => self.tune,
            Site::Planes => self.planes,
            Site::AfterLoader => self.after_loader,
            // A drawing dungeon.lua, dNetHack's own draws and NetHack 3.6's
            // hero selection: no log of these is known.
            Site::LuaPrelude { .. }
            | Site::Alternate { .. }
            | Site::QuestLocate { .. }
            | Site::Character => None,
        }
    }

    /// Whether `commit` (as a session names it, abbreviated or not) is
    /// one of [`RngLog::trees`]: one hash is a prefix of the other, with
    /// at least 7 digits, as git abbreviates.
    pub fn has_tree(&self, commit: &str) -> bool {
        let commit = commit.trim().to_ascii_lowercase();
        commit.len() >= 7
            && commit.bytes().all(|b| b.is_ascii_hexdigit())
            && self
                .trees
                .iter()
                .any(|t| t.starts_with(commit.as_str()) || commit.starts_with(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUNS: [DrawRun; 3] = [
        DrawRun {
            caller: "a(x.c:1)",
            bounds: Bounds::Same { bound: 2, count: 2 },
        },
        DrawRun {
            caller: "b(x.c:2)",
            bounds: Bounds::Countdown(3),
        },
        DrawRun {
            caller: "c(x.c:3)",
            bounds: Bounds::Same { bound: 4, count: 1 },
        },
    ];

    #[test]
    fn runs_expand_to_their_bounds_in_order() {
        assert_eq!(count_of(&RUNS), 6);
        assert_eq!(bounds_of::<6>(&RUNS), [2, 2, 3, 2, 1, 4]);
        // A table shorter or longer than the runs: cut, or filled with 1.
        assert_eq!(bounds_of::<3>(&RUNS), [2, 2, 3]);
        assert_eq!(bounds_of::<7>(&RUNS), [2, 2, 3, 2, 1, 4, 1]);
    }

    #[test]
    fn object_draws_are_named_by_their_run() {
        let log = RngLog {
            trees: &["79c688cc6"],
            object_init: &RUNS,
            ..NONE
        };
        let names: Vec<_> = (0..7).map(|i| log.caller(Site::ObjectInit, i)).collect();
        assert_eq!(
            names,
            [
                Some("a(x.c:1)"),
                Some("a(x.c:1)"),
                Some("b(x.c:2)"),
                Some("b(x.c:2)"),
                Some("b(x.c:2)"),
                Some("c(x.c:3)"),
                None
            ]
        );
        assert_eq!(log.caller(Site::Tune, 0), None);
    }

    #[test]
    fn trees_match_by_abbreviation() {
        let log = RngLog {
            trees: &["79c688cc6"],
            ..NONE
        };
        assert!(log.has_tree("79c688cc6"));
        assert!(log.has_tree("79C688C"));
        assert!(log.has_tree("79c688cc6a1b2c3"));
        assert!(!log.has_tree("79c688"));
        assert!(!log.has_tree("79c688cc7"));
        assert!(!log.has_tree("79c688cc6-dirty"));
    }

    const NONE: RngLog = RngLog {
        trees: &[],
        object_init: &[],
        quest_gender: None,
        pantheon: None,
        rogue_victim: None,
        lua_shuffle: None,
        dungeon_chance: None,
        dungeon_size: None,
        branch_level: None,
        level_chance: None,
        place: None,
        tune: None,
        planes: None,
        after_loader: None,
    };
}
