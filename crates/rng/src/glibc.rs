//! glibc's default `random()` ("TYPE_3": an additive lagged-Fibonacci
//! generator with 31 words of state and separation 3), as seeded by
//! `srandom(seed)`. NetHack 3.4.3 and 3.6.0-3.6.1 on Linux draw from it.

/// Words of state (the lag).
const DEG: usize = 31;
/// The short lag, `SEP`, expressed as a forward offset in the ring:
/// `r[k - SEP]` sits `DEG - SEP` slots after `r[k]`'s slot.
const SEP_OFFSET: usize = DEG - 3;
/// `srandom` throws away this many outputs (`10 * DEG`).
const DISCARD: usize = 310;

/// The generator. `state[k % 31]` holds `r[k]` of the recurrence
/// `r[k] = r[k-31] + r[k-3]`; `pos` is the slot the next value goes to.
#[derive(Clone, Debug)]
pub struct Glibc {
    state: [u32; DEG],
    pos: usize,
}

impl Glibc {
    /// `srandom(seed)`: only the low 32 bits count, and 0 acts as 1.
    pub fn new(seed: u64) -> Self {
        let mut g = Glibc {
            state: [0; DEG],
            pos: 0,
        };
        g.reseed(seed);
        g
    }

    pub fn reseed(&mut self, seed: u64) {
        let mut seed = seed as u32;
        if seed == 0 {
            seed = 1;
        }
        // The Park-Miller fill runs on signed 32-bit words with Schrage's
        // method, exactly as glibc writes it; a seed above 2^31 starts
        // negative and the C division truncates toward zero like Rust's.
        let mut word = seed as i32 as i64;
        self.state[0] = word as u32;
        for slot in self.state.iter_mut().skip(1) {
            let hi = word / 127_773;
            let lo = word % 127_773;
            word = 16_807 * lo - 2_836 * hi;
            if word < 0 {
                word += 2_147_483_647;
            }
            *slot = word as u32;
        }
        // r[31..34] = r[0..3] leaves slots 0..2 as they are; the
        // recurrence proper starts at k = 34, slot 3.
        self.pos = 34 % DEG;
        for _ in 0..DISCARD {
            self.step();
        }
    }

    #[inline(always)]
    fn step(&mut self) -> u32 {
        let pos = self.pos;
        let lagged = self.state[(pos + SEP_OFFSET) % DEG];
        let v = self.state[pos].wrapping_add(lagged);
        self.state[pos] = v;
        self.pos = if pos + 1 == DEG { 0 } else { pos + 1 };
        v
    }

    /// One `random()` result, `0 ..= 2^31 - 1`.
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        self.step() >> 1
    }
}

impl super::Source for Glibc {
    /// NetHack's `rn2(n)` on this generator: `random() % n`.
    #[inline(always)]
    fn rn2(&mut self, n: u32) -> u32 {
        self.next_u32() % n
    }

    /// `random()`, a `long` in `0 ..= 2^31 - 1`.
    #[inline]
    fn next_raw(&mut self) -> u64 {
        u64::from(self.next_u32())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first three `random()` results after `srandom(seed)`, from the
    /// C library's own functions on Linux: 0 acts as 1, and seeds above
    /// 2^31 run the signed fill.
    #[test]
    fn check_values() {
        for (seed, want) in [
            (42u64, [71_876_166, 708_592_740, 1_483_128_881]),
            (0, [1_804_289_383, 846_930_886, 1_681_692_777]),
            (1, [1_804_289_383, 846_930_886, 1_681_692_777]),
            (3_000_000_000, [2_058_147_116, 854_483_408, 922_419_988]),
            (2_147_483_647, [1_065_668_062, 2_142_264_300, 1_066_566_375]),
            (4_294_967_295, [254_925_627, 1_205_188_300, 366_127_624]),
        ] {
            let mut g = Glibc::new(seed);
            let got = [g.next_u32(), g.next_u32(), g.next_u32()];
            assert_eq!(got, want, "seed {seed}");
        }
    }
}
