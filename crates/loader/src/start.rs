//! The draws a game makes between seeding its generator and calling
//! `init_dungeons()`. They decide nothing in the dungeon, but they move the
//! generator, so a seed's dungeon depends on them. A game describes them as
//! data ([`GameStart`], built by its `games/` entry for a role); the
//! resolver makes them before the loader's first draw.

use crate::chargen::{Character, Characters, Wanted};
use crate::rng::{Drawer, Site, Source, Trace};

/// A role without gods of its own borrows another role's pantheon: the
/// game draws `rn2(roles)` until the role drawn has gods, at most `tries`
/// times (then it takes the first role with gods, without drawing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pantheon {
    /// Number of roles `randrole` draws among.
    pub roles: u32,
    /// Bit `i` set: role `i` has no gods of its own (draw again).
    pub godless: u64,
    /// How many draws the game allows.
    pub tries: u32,
}

/// A Rogue who hunts another role's quest nemesis (CrecelleHack,
/// `src/role.c:2140-2149`): `randrole` draws `rn2(roles)` again while the
/// role drawn is `redraw` (the one whose nemesis is the Rogue's own
/// leader's kind), then the nemesis's gender is rolled, `rn2(100)`, when
/// the victim's nemesis has none (bit set in `ungendered`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Victim {
    pub roles: u32,
    pub redraw: u32,
    pub ungendered: u64,
}

/// What the game draws before the loader, in order, and right after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStart {
    /// Draws whose values do not matter here and whose number is fixed
    /// (object description shuffles): each takes one output.
    pub fixed: u32,
    /// The bounds of the `fixed` draws in order, where the game's are
    /// known, so that a log shows `rn2(11)=4` as the game's does; the
    /// draws past the list's end are logged as `rn2(1)`. Either bound
    /// takes one output, so the dungeon is the same.
    pub fixed_bounds: &'static [u32],
    /// The Rogue's victim, where the game draws one.
    pub victim: Option<Victim>,
    /// `rn2(100)` gender rolls, one per quest monster without a gender.
    pub gender_rolls: u32,
    /// The borrowed pantheon, for a role without gods.
    pub pantheon: Option<Pantheon>,
    /// After `init_dungeons()`: a Fisher-Yates shuffle of this many
    /// entries (`rn2(n)`, `rn2(n-1)`, ..., `rn2(2)`; xNetHack's
    /// `init_archfiends`, `src/minion.c:892`, `src/rnd.c:316-327`); 0: none.
    pub after_shuffle: u32,
    /// The hero is chosen first, with the selection's draws (NetHack 3.6:
    /// [`crate::chargen`]); its role then sets `gender_rolls` and
    /// `pantheon` from the game's table, whatever they say here.
    pub character: Option<CharacterStart>,
    /// A game that makes the dungeon with a generator of its own: after
    /// the character's selection, every draw comes from ISAAC-64 seeded
    /// with this (NLE's level generator, `src/nlernd.c`).
    pub level_seed: Option<u64>,
}

/// The character selection a game start makes: the game's tables and
/// what the run asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharacterStart {
    pub table: &'static Characters,
    pub wanted: Wanted,
}

impl GameStart {
    /// No draws: the generator starts at the loader.
    pub const NONE: GameStart = GameStart {
        fixed: 0,
        fixed_bounds: &[],
        victim: None,
        gender_rolls: 0,
        pantheon: None,
        after_shuffle: 0,
        character: None,
        level_seed: None,
    };

    /// Chooses the hero, where the game start does (its draws come first,
    /// from the game's main generator).
    pub fn choose_character<S: Source, T: Trace>(
        &self,
        draw: &mut Drawer<'_, S, T>,
    ) -> Option<(Character, u32)> {
        self.character.map(|c| c.table.choose(c.wanted, draw))
    }

    /// The start's draws after the hero is known, with that hero's role's
    /// draws in `role_init`.
    pub fn for_character(&self, character: Option<Character>) -> GameStart {
        let (Some(c), Some(start)) = (character, self.character) else {
            return *self;
        };
        let table = start.table;
        let role = table.role(c);
        let godless = table
            .roles
            .iter()
            .enumerate()
            .filter(|(_, r)| r.godless)
            .fold(0u64, |m, (i, _)| m | 1 << (i & 63));
        GameStart {
            gender_rolls: role.gender_rolls,
            pantheon: role.godless.then_some(Pantheon {
                roles: table.roles.len() as u32,
                godless,
                tries: table.pantheon_tries,
            }),
            ..*self
        }
    }

    /// Makes the draws; returns how many.
    pub fn draw<S: Source, T: Trace>(&self, draw: &mut Drawer<'_, S, T>) -> u32 {
        let mut made = self.fixed + self.gender_rolls;
        // The values are the shuffles' business: any bound takes one
        // output (a log shows the game's bounds, where the game gives them).
        draw.skip(self.fixed, self.fixed_bounds, Site::ObjectInit);
        if let Some(v) = self.victim {
            let mut role = v.redraw;
            // A game that would loop for ever (every role redrawn) is not
            // one a generator gives: stop where its values would repeat.
            for _ in 0..10_000 {
                made += 1;
                role = draw.rn2(v.roles.max(1), Site::RogueVictim);
                if role != v.redraw {
                    break;
                }
            }
            if v.ungendered & (1u64 << (role & 63)) != 0 {
                made += 1;
                draw.rn2(100, Site::RogueVictim);
            }
        }
        for _ in 0..self.gender_rolls {
            draw.rn2(100, Site::QuestGender);
        }
        if let Some(p) = self.pantheon {
            for _ in 0..p.tries {
                made += 1;
                let role = draw.rn2(p.roles.max(1), Site::Pantheon);
                if p.godless & (1u64 << (role & 63)) == 0 {
                    break;
                }
            }
        }
        made
    }

    /// The draws right after `init_dungeons()`; returns how many.
    pub fn draw_after<S: Source, T: Trace>(&self, draw: &mut Drawer<'_, S, T>) -> u32 {
        for n in (2..=self.after_shuffle).rev() {
            draw.rn2(n, Site::AfterLoader);
        }
        self.after_shuffle.saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Draw, Isaac64};

    fn run(start: GameStart, seed: u64) -> Vec<Draw> {
        let mut g = Isaac64::new(seed);
        let mut log: Vec<Draw> = Vec::new();
        start.draw(&mut Drawer {
            source: &mut g,
            trace: &mut log,
        });
        log
    }

    #[test]
    fn fixed_draws_and_gender_rolls_take_one_output_each() {
        let log = run(
            GameStart {
                fixed: 3,
                gender_rolls: 1,
                ..GameStart::NONE
            },
            7,
        );
        assert_eq!(log.len(), 4);
        let mut g = Isaac64::new(7);
        for _ in 0..3 {
            g.next_word();
        }
        assert_eq!(log[3].r, (g.next_word() % 100) as u32);
        assert_eq!(log[3].site, Site::QuestGender);
    }

    #[test]
    fn fixed_draws_take_the_games_bounds_where_known() {
        let log = run(
            GameStart {
                fixed: 4,
                fixed_bounds: &[11, 10, 0],
                ..GameStart::NONE
            },
            9,
        );
        let bounds: Vec<i32> = log.iter().map(|d| d.n).collect();
        // A bound of 0 would divide by zero: it is taken as 1.
        assert_eq!(bounds, vec![11, 10, 1, 1]);
        let mut g = Isaac64::new(9);
        assert_eq!(log[0].r, (g.next_word() % 11) as u32);
        assert_eq!(log[1].r, (g.next_word() % 10) as u32);
        assert!(log.iter().all(|d| d.site == Site::ObjectInit));
    }

    #[test]
    fn the_pantheon_is_drawn_again_while_the_role_has_no_gods() {
        // Every role but 5 is godless: the draws stop on the first 5.
        let start = GameStart {
            pantheon: Some(Pantheon {
                roles: 13,
                godless: ((1u64 << 13) - 1) & !(1 << 5),
                tries: 99,
            }),
            ..GameStart::NONE
        };
        for seed in 0..20 {
            let log = run(start, seed);
            let last = log.last().unwrap();
            assert!(log.len() == 99 || last.r == 5, "seed {seed}: {log:?}");
            assert!(log[..log.len() - 1].iter().all(|d| d.r != 5));
        }
        // All godless: the game gives up after its tries.
        let all = GameStart {
            pantheon: Some(Pantheon {
                roles: 13,
                godless: (1u64 << 13) - 1,
                tries: 99,
            }),
            ..GameStart::NONE
        };
        assert_eq!(run(all, 1).len(), 99);
    }

    #[test]
    fn a_rogue_redraws_its_victim_and_rolls_an_ungendered_nemesis() {
        let start = GameStart {
            victim: Some(Victim {
                roles: 14,
                redraw: 11,
                ungendered: 1 | 1 << 13,
            }),
            ..GameStart::NONE
        };
        for seed in 0..200 {
            let log = run(start, seed);
            let victims: Vec<u32> = log.iter().map(|d| d.r).collect();
            let k = victims.iter().position(|&r| r != 11).unwrap();
            assert!(victims[..k].iter().all(|&r| r == 11));
            let extra = u32::from(matches!(victims[k], 0 | 13));
            assert_eq!(log.len(), k + 1 + extra as usize, "seed {seed}: {log:?}");
            if extra == 1 {
                assert_eq!(log.last().unwrap().n, 100);
            }
        }
    }

    #[test]
    fn the_shuffle_after_the_loader_draws_from_n_down_to_two() {
        let start = GameStart {
            after_shuffle: 7,
            ..GameStart::NONE
        };
        let mut g = Isaac64::new(3);
        let mut log: Vec<Draw> = Vec::new();
        let n = start.draw_after(&mut Drawer {
            source: &mut g,
            trace: &mut log,
        });
        assert_eq!(n, 6);
        let bounds: Vec<i32> = log.iter().map(|d| d.n).collect();
        assert_eq!(bounds, vec![7, 6, 5, 4, 3, 2]);
        assert!(log.iter().all(|d| d.site == Site::AfterLoader));
    }
}
