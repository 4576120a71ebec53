//! ISAAC (Bob Jenkins' 32-bit ISAAC with 256 words of state, in
//! T. Terriberry's formulation that UnNetHack bundles as `src/rnd_isaac.c`),
//! seeded as UnNetHack's `set_random_state(x)` does (`src/rnd.c:30-41`):
//! the four little-endian bytes of the 32-bit seed, then four zero bytes,
//! so only `r[0]` of the seed array is non-zero. The generator itself is
//! [`super::isaac::Isaac`]; this is its 32-bit word.

use super::isaac::{Isaac, Word};
use super::Source;

/// The generator (2 KiB of state), reseeded in place.
pub type Isaac32 = Isaac<u32>;

/// The shifts of the eight steps of a mix: step `i` shifts left on even
/// steps and right on odd ones.
const SHIFT: [u32; 8] = [11, 2, 8, 16, 10, 4, 8, 9];

impl Word for u32 {
    const NAME: &'static str = "Isaac32";
    const MIXED_GOLDEN: [u32; 8] = {
        let mut x = [0x9E37_79B9; 8];
        let mut round = 0;
        while round < 4 {
            mix(&mut x);
            round += 1;
        }
        x
    };
    const INDEX_SHIFTS: (u32, u32) = (2, 10);
    const ZERO: u32 = 0;
    const ONE: u32 = 1;

    /// UnNetHack's seeds are `unsigned int`: the high half of `seed` is
    /// ignored, as the game never has one.
    #[inline(always)]
    fn from_seed(seed: u64) -> u32 {
        seed as u32
    }

    #[inline(always)]
    fn add(self, other: u32) -> u32 {
        self.wrapping_add(other)
    }

    #[inline(always)]
    fn stir(a: u32, k: usize) -> u32 {
        match k {
            0 => a ^ (a << 13),
            1 => a ^ (a >> 6),
            2 => a ^ (a << 2),
            _ => a ^ (a >> 16),
        }
    }

    #[inline(always)]
    fn mix(x: &mut [u32; 8]) {
        mix(x)
    }

    #[inline(always)]
    fn index(self, shift: u32) -> usize {
        ((self >> shift) as usize) & (super::isaac::SIZE - 1)
    }
}

/// One round of ISAAC's initialisation mix over `x[0..8]`.
#[inline(always)]
const fn mix(x: &mut [u32; 8]) {
    let mut i = 0;
    while i < 8 {
        let next = x[(i + 1) & 7];
        x[i] ^= if i % 2 == 0 {
            next << SHIFT[i]
        } else {
            next >> SHIFT[i]
        };
        x[(i + 3) & 7] = x[(i + 3) & 7].wrapping_add(x[i]);
        x[(i + 1) & 7] = x[(i + 1) & 7].wrapping_add(x[(i + 2) & 7]);
        i += 1;
    }
}

impl Source for Isaac32 {
    /// UnNetHack's `rn2(n)`: `RND(n) = isaac_next_uint32() % n`
    /// (`src/rnd.c:12-21`, `:44-53`).
    #[inline(always)]
    fn rn2(&mut self, n: u32) -> u32 {
        self.next_word() % n
    }

    /// `isaac_next_uint32()`.
    #[inline]
    fn next_raw(&mut self) -> u64 {
        u64::from(self.next_word())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first3(seed: u64) -> [u32; 3] {
        let mut g = Isaac32::new(seed);
        [g.next_word(), g.next_word(), g.next_word()]
    }

    /// The check values of `expected/variants/unnethack/README.md`.
    #[test]
    fn check_values() {
        assert_eq!(first3(0), [405_143_795, 806_046_349, 807_101_986]);
        assert_eq!(first3(1), [1_269_481_493, 233_172_240, 2_220_845_830]);
        assert_eq!(first3(42), [1_686_586_733, 254_700_066, 4_225_385_306]);
    }

    #[test]
    fn only_the_low_32_bits_of_the_seed_count() {
        assert_eq!(first3((5u64 << 32) | 42), first3(42));
    }
}
