//! ISAAC (Bob Jenkins' 32-bit ISAAC with 256 words of state, in
//! T. Terriberry's formulation that UnNetHack bundles as `src/rnd_isaac.c`),
//! seeded as UnNetHack's `set_random_state(x)` does (`src/rnd.c:30-41`):
//! the four little-endian bytes of the 32-bit seed, then four zero bytes,
//! so only `r[0]` of the seed array is non-zero.

const SIZE: usize = 256;
const HALF: usize = SIZE / 2;
const GOLDEN: u32 = 0x9E37_79B9;

/// The generator (2 KiB of state), reseeded in place.
#[derive(Clone)]
pub struct Isaac32 {
    m: [u32; SIZE],
    r: [u32; SIZE],
    a: u32,
    b: u32,
    c: u32,
    /// Results left in `r`; they are handed out from the end.
    n: usize,
}

impl std::fmt::Debug for Isaac32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Isaac32")
            .field("n", &self.n)
            .finish_non_exhaustive()
    }
}

/// One round of ISAAC's initialisation mix over `x[0..8]`: step `i`
/// shifts by `SHIFT[i]`, left on even steps and right on odd ones.
#[inline(always)]
fn mix(x: &mut [u32; 8]) {
    const SHIFT: [u32; 8] = [11, 2, 8, 16, 10, 4, 8, 9];
    for i in 0..8 {
        let next = x[(i + 1) & 7];
        x[i] ^= if i % 2 == 0 {
            next << SHIFT[i]
        } else {
            next >> SHIFT[i]
        };
        x[(i + 3) & 7] = x[(i + 3) & 7].wrapping_add(x[i]);
        x[(i + 1) & 7] = x[(i + 1) & 7].wrapping_add(x[(i + 2) & 7]);
    }
}

impl Isaac32 {
    /// UnNetHack's seeds are `unsigned int`: the high half of `seed` is
    /// ignored, as the game never has one.
    pub fn new(seed: u64) -> Self {
        let mut g = Isaac32 {
            m: [0; SIZE],
            r: [0; SIZE],
            a: 0,
            b: 0,
            c: 0,
            n: 0,
        };
        g.reseed(seed);
        g
    }

    /// `isaac_init(ctx, bytes, 8)` with the seed's bytes as
    /// `set_random_state` lays them out.
    pub fn reseed(&mut self, seed: u64) {
        self.a = 0;
        self.b = 0;
        self.c = 0;
        self.r = [0; SIZE];
        self.r[0] = seed as u32;
        let mut x = [GOLDEN; 8];
        for _ in 0..4 {
            mix(&mut x);
        }
        for pass in 0..2 {
            for i in (0..SIZE).step_by(8) {
                let add = if pass == 0 {
                    &self.r[i..i + 8]
                } else {
                    &self.m[i..i + 8]
                };
                for (xj, v) in x.iter_mut().zip(add) {
                    *xj = xj.wrapping_add(*v);
                }
                mix(&mut x);
                self.m[i..i + 8].copy_from_slice(&x);
            }
        }
        self.update();
    }

    fn update(&mut self) {
        self.c = self.c.wrapping_add(1);
        let mut a = self.a;
        let mut b = self.b.wrapping_add(self.c);
        let (m, r) = (&mut self.m, &mut self.r);
        for i in 0..SIZE {
            a ^= match i % 4 {
                0 => a << 13,
                1 => a >> 6,
                2 => a << 2,
                _ => a >> 16,
            };
            a = a.wrapping_add(m[(i + HALF) & (SIZE - 1)]);
            let t = m[i];
            let y = m[((t >> 2) as usize) & (SIZE - 1)]
                .wrapping_add(a)
                .wrapping_add(b);
            m[i] = y;
            b = m[((y >> 10) as usize) & (SIZE - 1)].wrapping_add(t);
            r[i] = b;
        }
        self.a = a;
        self.b = b;
        self.n = SIZE;
    }

    /// `isaac_next_uint32`.
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        if self.n == 0 {
            self.update();
        }
        self.n -= 1;
        self.r[self.n]
    }

    /// UnNetHack's `rn2(n)`: `RND(n) = isaac_next_uint32() % n`
    /// (`src/rnd.c:12-21`, `:44-53`).
    #[inline(always)]
    pub fn rn2(&mut self, n: u32) -> u32 {
        self.next_u32() % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first3(seed: u64) -> [u32; 3] {
        let mut g = Isaac32::new(seed);
        [g.next_u32(), g.next_u32(), g.next_u32()]
    }

    /// The check values of `expected/variants/unnethack/README.md`.
    #[test]
    fn check_values() {
        assert_eq!(first3(0), [405_143_795, 806_046_349, 807_101_986]);
        assert_eq!(first3(1), [1_269_481_493, 233_172_240, 2_220_845_830]);
        assert_eq!(first3(42), [1_686_586_733, 254_700_066, 4_225_385_306]);
    }

    #[test]
    fn reseeding_in_place_equals_a_fresh_generator() {
        let mut g = Isaac32::new(7);
        for _ in 0..1000 {
            g.next_u32();
        }
        g.reseed(42);
        let mut fresh = Isaac32::new(42);
        // Past one whole block of results, so the update is covered too.
        for _ in 0..600 {
            assert_eq!(g.next_u32(), fresh.next_u32());
        }
    }

    #[test]
    fn only_the_low_32_bits_of_the_seed_count() {
        assert_eq!(first3((5u64 << 32) | 42), first3(42));
    }
}
