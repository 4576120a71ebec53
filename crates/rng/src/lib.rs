//! The random number generators NetHack and its variants draw from, and
//! the vocabulary of the draw log used for parity debugging ([`Draw`],
//! [`Site`]).
//!
//! Every draw is `rn2(n) = next() % n` (`rng.md`). Which game uses which
//! generator is the game's data (`dgnkit::games`), not this crate's: a
//! [`RngKind`] is all it knows. The log itself is the loader's
//! (`dgnkit_loader::Trace`), since it also sees the layout.

#![deny(clippy::unwrap_used)]

pub mod glibc;
pub mod isaac;
pub mod isaac32;
pub mod isaac64;
pub mod mt19937;

pub use glibc::Glibc;
pub use isaac32::Isaac32;
pub use isaac64::Isaac64;
pub use mt19937::Mt19937Cokus;

use std::fmt;

/// Which generator a layout is resolved with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RngKind {
    /// glibc `srandom`/`random` (NetHack 3.4.3, 3.6.0-3.6.1 on Linux).
    Glibc,
    /// ISAAC-64 (NetHack 3.6.2 and later).
    Isaac64,
    /// 32-bit ISAAC seeded with a 32-bit seed (UnNetHack).
    Isaac32,
    /// MT19937 in Cokus's recode, seeded with Knuth's LCG (DynaHack).
    Mt19937Cokus,
}

impl RngKind {
    pub const ALL: [RngKind; 4] = [
        RngKind::Glibc,
        RngKind::Isaac64,
        RngKind::Isaac32,
        RngKind::Mt19937Cokus,
    ];

    /// The name used in layouts and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RngKind::Glibc => "glibc",
            RngKind::Isaac64 => "isaac64",
            RngKind::Isaac32 => "isaac32",
            RngKind::Mt19937Cokus => "mt19937-cokus",
        }
    }

    pub fn parse(s: &str) -> Option<RngKind> {
        RngKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

impl fmt::Display for RngKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A generator as the loader sees it. Each generator's file implements it
/// as its game's `rn2` does.
pub trait Source {
    /// `rn2(n)` for `n >= 1`.
    fn rn2(&mut self, n: u32) -> u32;

    /// One draw: the generator's whole output word, as the game's `RND(x)`
    /// divides it (ISAAC-64's `uint64_t`; ISAAC's `uint32_t`, `random()`'s
    /// 31 bits and `mt_random()`'s 32, widened). A game's `rn2` of a
    /// negative argument can depend on every bit of it (NetHack 3.6:
    /// `isaac64_next_uint64() % x`, with `x` converted to `uint64_t`).
    fn next_raw(&mut self) -> u64;

    /// Takes `n` outputs whose values do not matter (a game start's
    /// object shuffles): the same state as `n` draws, sooner where the
    /// generator can skip.
    fn skip(&mut self, n: u32) {
        for _ in 0..n {
            self.next_raw();
        }
    }
}

/// What a draw was for; indices are record indices in the script (file
/// order over all dungeons), so a log can name the line that drew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// The chance roll of dungeon record `dungeon`.
    DungeonChance { dungeon: u32 },
    /// The number of levels of dungeon record `dungeon`.
    DungeonSize { dungeon: u32 },
    /// The parent level of the branch into dungeon record `dungeon`.
    BranchLevel { dungeon: u32 },
    /// The chance roll of level record `level`.
    LevelChance { level: u32 },
    /// One placement try of level record `level`.
    Place { level: u32 },
    /// One note of the castle tune.
    Tune,
    /// One swap of the Elemental Planes shuffle.
    Planes,
    /// NetHack 3.7: `nhlib.lua`'s top-level `shuffle(align)`, run when the
    /// loader's Lua state is created (the first draws of loading).
    LuaShuffle,
    /// Before the loader: the character selection's random choices of
    /// role, race, gender and alignment (NetHack 3.6's `rigid_role_checks`
    /// and `tty_player_selection`).
    Character,
    /// Before the loader: `o_init`'s object description shuffles.
    ObjectInit,
    /// Before the loader: `role_init` rolls the gender of the role's quest
    /// leader or nemesis when the monster has none.
    QuestGender,
    /// Before the loader: `role_init` draws a role (`randrole`) whose gods
    /// a role without its own borrows.
    Pantheon,
    /// Before the loader: CrecelleHack's Rogue draws the role whose quest
    /// nemesis it hunts, and that nemesis's gender when it has none.
    RogueVictim,
    /// A `dungeon.lua` that draws before it sets `dungeon`: the draw at
    /// that line of the file (part of `init_dungeons()`).
    LuaPrelude { line: u32 },
    /// After the loader: the game's own draws right after
    /// `init_dungeons()` returns (xNetHack's `init_archfiends`).
    AfterLoader,
    /// dNetHack: whether dungeon record `dungeon` is the one of its name
    /// that is kept (`select_alternate`).
    Alternate { dungeon: u32 },
    /// dNetHack: whether the Quest (record `dungeon`) of 6 levels moves
    /// its locate level down.
    QuestLocate { dungeon: u32 },
}

impl Site {
    /// Whether the draw belongs to the game's start-up before
    /// `init_dungeons()` rather than to the loader (layouts' `rng_calls`
    /// leave those out).
    pub fn before_loader(self) -> bool {
        matches!(
            self,
            Site::Character
                | Site::ObjectInit
                | Site::QuestGender
                | Site::Pantheon
                | Site::RogueVictim
        )
    }

    /// Whether `init_dungeons()` made the draw (layouts' `rng_calls` hold
    /// these only).
    pub fn in_loader(self) -> bool {
        !self.before_loader() && self != Site::AfterLoader
    }
}

/// One logged draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    /// The argument as the game passed it: `n <= 0` too, where the game's
    /// `rn2` draws for it (the loader's `Drawer::rn2_nonpositive`).
    pub n: i32,
    /// What `rn2` returned. For `n <= 0` it is the C `int`'s bits, which
    /// can be negative (NetHack 3.6's `rn2` of a negative argument returns
    /// ISAAC-64's raw output cut to an `int`): see [`Draw::value`].
    pub r: u32,
    pub site: Site,
}

impl Draw {
    /// What the game's `rn2` returned, as its `int`.
    pub fn value(&self) -> i64 {
        if self.n <= 0 {
            i64::from(self.r as i32)
        } else {
            i64::from(self.r)
        }
    }
}

impl fmt::Display for Draw {
    /// The log's entry form, `rn2(n)=r` (`r` as the game's `int`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rn2({})={}", self.n, self.value())
    }
}

/// A layout's `rng_calls`: the loader's draws as `rn2(n)=r`, without the
/// game's draws before and after it.
pub fn rng_calls(log: &[Draw]) -> Vec<String> {
    log.iter()
        .filter(|d| d.site.in_loader())
        .map(Draw::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in RngKind::ALL {
            assert_eq!(RngKind::parse(k.name()), Some(k));
        }
        assert_eq!(RngKind::parse("mt19937"), None);
    }

    /// Every generator, reseeded in place after some draws (mid-batch),
    /// draws what a fresh one does, past a refill of its state; and only
    /// the low 32 bits of a seed count where the game's seed is 32 bits.
    #[test]
    fn reseeding_in_place_equals_a_fresh_generator() {
        fn check<G: Source>(kind: RngKind, new: fn(u64) -> G, reseed: fn(&mut G, u64)) {
            let draws = |g: &mut G| (0..1300).map(|_| g.rn2(u32::MAX)).collect::<Vec<_>>();
            let mut g = new(7);
            for _ in 0..700 {
                g.rn2(2);
            }
            reseed(&mut g, 42);
            assert_eq!(draws(&mut g), draws(&mut new(42)), "{kind}");
            let high = (5u64 << 32) | 42;
            let same = draws(&mut new(high)) == draws(&mut new(42));
            assert_eq!(same, kind != RngKind::Isaac64, "{kind}: seed {high}");
        }
        check(RngKind::Glibc, Glibc::new, Glibc::reseed);
        check(RngKind::Isaac64, Isaac64::new, Isaac64::reseed);
        check(RngKind::Isaac32, Isaac32::new, Isaac32::reseed);
        check(
            RngKind::Mt19937Cokus,
            Mt19937Cokus::new,
            Mt19937Cokus::reseed,
        );
    }
}
