//! The draws a game makes between seeding its generator and calling
//! `init_dungeons()`. They decide nothing in the dungeon, but they move the
//! generator, so a seed's dungeon depends on them. A game describes them as
//! data ([`GameStart`], built by its `games/` entry for a role); the
//! resolver makes them before the loader's first draw.

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

/// What the game draws before the loader, in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStart {
    /// Draws whose values do not matter here and whose number is fixed
    /// (object description shuffles): each takes one output.
    pub fixed: u32,
    /// `rn2(100)` gender rolls, one per quest monster without a gender.
    pub gender_rolls: u32,
    /// The borrowed pantheon, for a role without gods.
    pub pantheon: Option<Pantheon>,
}

impl GameStart {
    /// No draws: the generator starts at the loader.
    pub const NONE: GameStart = GameStart {
        fixed: 0,
        gender_rolls: 0,
        pantheon: None,
    };

    /// Makes the draws; returns how many.
    pub fn draw<S: Source, T: Trace>(&self, draw: &mut Drawer<'_, S, T>) -> u32 {
        let mut made = self.fixed + self.gender_rolls;
        for _ in 0..self.fixed {
            // The values are the shuffles' business; rn2(1) takes one
            // output like any other bound.
            draw.rn2(1, Site::ObjectInit);
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
                pantheon: None,
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
}
