//! ISAAC-64 (Bob Jenkins' 64-bit ISAAC, in T. Terriberry's formulation that
//! NetHack 3.6.2 and later bundle as `isaac64.c`), seeded the way NetHack
//! seeds it: the 8 little-endian bytes of the seed XORed into `r[0]`. The
//! generator itself is [`super::isaac::Isaac`]; this is its 64-bit word,
//! and the seeding of several generators side by side.

use super::isaac::{Isaac, Word, HALF, SIZE};
use super::Source;

/// The generator: 4 KiB of state, reseeded in place so a resolver can keep
/// one and reuse it for every seed.
pub type Isaac64 = Isaac<u64>;

impl Word for u64 {
    const NAME: &'static str = "Isaac64";
    const MIXED_GOLDEN: [u64; 8] = MIXED_GOLDEN;
    const INDEX_SHIFTS: (u32, u32) = (3, 11);
    const ZERO: u64 = 0;
    const ONE: u64 = 1;

    #[inline(always)]
    fn from_seed(seed: u64) -> u64 {
        seed
    }

    #[inline(always)]
    fn add(self, other: u64) -> u64 {
        self.wrapping_add(other)
    }

    #[inline(always)]
    fn stir(a: u64, k: usize) -> u64 {
        stir(a, k)
    }

    #[inline(always)]
    fn mix(x: &mut [u64; 8]) {
        mix(x)
    }

    #[inline(always)]
    fn index(self, shift: u32) -> usize {
        ((self >> shift) as usize) & (SIZE - 1)
    }
}

impl Isaac64 {
    /// Reseeds `N` generators at once, each as [`Isaac::reseed`] would:
    /// for resolving many seeds. One generator's seeding is a chain of
    /// dependent steps, so the processor idles between them; `N` chains
    /// side by side fill those gaps, and the mixing passes run as vector
    /// operations with one generator in each lane.
    pub fn reseed_many<const N: usize>(gs: &mut [Isaac64; N], seeds: [u64; N]) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor has AVX2, checked just above.
                unsafe { reseed_many_avx2(gs, seeds) };
                return;
            }
        }
        reseed_many_portable(gs, seeds)
    }
}

impl Source for Isaac64 {
    /// NetHack's `rn2(n)` on this generator: `next() % n`.
    #[inline(always)]
    fn rn2(&mut self, n: u32) -> u32 {
        let x = self.next_word();
        // A placement with one candidate left draws `rn2(1)`, one of the
        // commonest draws of a layout; the answer needs no 64-bit division.
        if n == 1 {
            0
        } else {
            (x % u64::from(n)) as u32
        }
    }

    /// `isaac64_next_uint64()`.
    #[inline]
    fn next_raw(&mut self) -> u64 {
        self.next_word()
    }

    fn skip(&mut self, n: u32) {
        self.skip_words(n as usize);
    }
}

/// How round `i` of `isaac64_update` stirs `a` (`k = i % 4`, given apart
/// so that an unrolled loop knows it).
#[inline(always)]
fn stir(a: u64, k: usize) -> u64 {
    match k {
        0 => !(a ^ (a << 21)),
        1 => a ^ (a >> 5),
        2 => a ^ (a << 12),
        _ => a ^ (a >> 33),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn reseed_many_avx2<const N: usize>(gs: &mut [Isaac64; N], seeds: [u64; N]) {
    reseed_many_portable(gs, seeds)
}

/// [`Isaac64::reseed_many`] without a vector unit of its own: the same
/// code, which the compiler vectorises with what the target has.
#[inline(always)]
fn reseed_many_portable<const N: usize>(gs: &mut [Isaac64; N], seeds: [u64; N]) {
    // Lane-major: x[j][g] is word j of generator g, so every step of the
    // mix is one operation over all the generators.
    let mut x = MIXED_GOLDEN.map(|w| [w; N]);
    for (g, seed) in seeds.iter().enumerate() {
        x[0][g] = x[0][g].wrapping_add(*seed);
    }
    let mut table = [[0u64; N]; SIZE];
    for chunk in table.chunks_exact_mut(8) {
        mix_lanes(&mut x);
        chunk.copy_from_slice(&x);
    }
    for chunk in table.chunks_exact_mut(8) {
        for (xj, cj) in x.iter_mut().zip(chunk.iter()) {
            for (v, c) in xj.iter_mut().zip(cj) {
                *v = v.wrapping_add(*c);
            }
        }
        mix_lanes(&mut x);
        chunk.copy_from_slice(&x);
    }
    // The first update (`isaac64_update`), the generators interleaved
    // round by round. It rewrites every word, so each generator's own
    // table is written as it goes and never needs the lane-major one
    // copied back.
    let mut a = [0u64; N];
    let mut b = [1u64; N];
    for base in (0..SIZE).step_by(4) {
        for k in 0..4 {
            let i = base + k;
            for g in 0..N {
                let x = table[i][g];
                a[g] = stir(a[g], k).wrapping_add(table[(i + HALF) & (SIZE - 1)][g]);
                let y = table[((x >> 3) as usize) & (SIZE - 1)][g]
                    .wrapping_add(a[g])
                    .wrapping_add(b[g]);
                table[i][g] = y;
                gs[g].m[i] = y;
                b[g] = table[((y >> 11) as usize) & (SIZE - 1)][g].wrapping_add(x);
                gs[g].r[i] = b[g];
            }
        }
    }
    for (g, gen) in gs.iter_mut().enumerate() {
        gen.a = a[g];
        gen.b = b[g];
        gen.c = 1;
        gen.n = SIZE;
    }
}

/// [`mix`] on `N` generators, lane-major.
// Each step reads and writes three words of the same lane: indexing by
// lane says that more plainly than three zipped iterators.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn mix_lanes<const N: usize>(x: &mut [[u64; N]; 8]) {
    let mut i = 0;
    while i < 8 {
        for g in 0..N {
            x[i][g] = x[i][g].wrapping_sub(x[(i + 4) & 7][g]);
            x[(i + 5) & 7][g] ^= x[(i + 7) & 7][g] >> SHIFT[i];
            x[(i + 7) & 7][g] = x[(i + 7) & 7][g].wrapping_add(x[i][g]);
        }
        i += 1;
        for g in 0..N {
            x[i][g] = x[i][g].wrapping_sub(x[(i + 4) & 7][g]);
            x[(i + 5) & 7][g] ^= x[(i + 7) & 7][g] << SHIFT[i];
            x[(i + 7) & 7][g] = x[(i + 7) & 7][g].wrapping_add(x[i][g]);
        }
        i += 1;
    }
}

/// The golden ratio mixed four times: where every seeding starts.
const MIXED_GOLDEN: [u64; 8] = {
    let mut x = [0x9E37_79B9_7F4A_7C13; 8];
    let mut round = 0;
    while round < 4 {
        mix(&mut x);
        round += 1;
    }
    x
};

/// The shifts of the eight steps of a mix.
const SHIFT: [u32; 8] = [9, 9, 23, 15, 14, 20, 17, 14];

#[inline(always)]
const fn mix(x: &mut [u64; 8]) {
    let mut i = 0;
    while i < 8 {
        x[i] = x[i].wrapping_sub(x[(i + 4) & 7]);
        x[(i + 5) & 7] ^= x[(i + 7) & 7] >> SHIFT[i];
        x[(i + 7) & 7] = x[(i + 7) & 7].wrapping_add(x[i]);
        i += 1;
        x[i] = x[i].wrapping_sub(x[(i + 4) & 7]);
        x[(i + 5) & 7] ^= x[(i + 7) & 7] << SHIFT[i];
        x[(i + 7) & 7] = x[(i + 7) & 7].wrapping_add(x[i]);
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Check values from NetHack's own isaac64.c (compiled as C, seeded with
    // the 8 little-endian bytes of the seed). Index 299 lies past the first
    // batch of 256 results, so it covers the refill.
    #[test]
    fn check_values() {
        for (seed, first, at_299) in [
            (
                0u64,
                [
                    0x9d39_247e_3377_6d41,
                    0x2af7_3980_05aa_a5c7,
                    0x44db_0150_2462_3547,
                ],
                0xd9a1_1fbb_3d98_08e4,
            ),
            (
                1,
                [
                    0xe19e_d5d2_ca98_af2d,
                    0xa7a1_8d07_cab3_9b52,
                    0xa0ab_0232_d180_af14,
                ],
                0x21bf_579a_ae14_8191,
            ),
            (
                42,
                [
                    0xbbd6_1fa5_105a_596a,
                    0x9b3c_c89c_4acb_57ba,
                    0xf246_9ccf_a2bc_2790,
                ],
                0xf002_20e0_7154_d220,
            ),
            (
                u64::MAX,
                [
                    0x7c38_fd3a_2e7c_d8ad,
                    0x6408_1892_c824_30f3,
                    0xa8ec_a812_2a6f_4607,
                ],
                0xce98_3e51_d363_ef46,
            ),
        ] {
            let mut g = Isaac64::new(seed);
            assert_eq!(
                [g.next_word(), g.next_word(), g.next_word()],
                first,
                "seed {seed}"
            );
            let v = (3..=299).map(|_| g.next_word()).last();
            assert_eq!(v, Some(at_299), "seed {seed}");
        }
    }

    #[test]
    fn first_draws_of_nethack_36_seed_0() {
        // The first five draws NetHack 3.6's loader makes for seed 0 on its
        // own dungeon file (see the expected layouts).
        let mut g = Isaac64::new(0);
        let got: Vec<u32> = [5, 100, 100, 100, 100].iter().map(|&n| g.rn2(n)).collect();
        assert_eq!(got, [0, 3, 11, 58, 89]);
    }

    /// Every result of the first batch and the refill after it, for
    /// generators seeded side by side (both code paths) and one by one.
    #[test]
    fn seeding_side_by_side_equals_one_by_one() {
        fn check<const N: usize>(seeds: [u64; N], reseed: fn(&mut [Isaac64; N], [u64; N])) {
            let mut gs: Box<[Isaac64; N]> =
                Box::new(std::array::from_fn(|g| Isaac64::new(g as u64 + 99)));
            for g in gs.iter_mut() {
                // Leave each mid-batch, as a resolution does.
                for _ in 0..77 {
                    g.next_word();
                }
            }
            reseed(&mut gs, seeds);
            for (g, seed) in gs.iter_mut().zip(seeds) {
                let mut one = Isaac64::new(seed);
                for k in 0..600 {
                    assert_eq!(g.next_word(), one.next_word(), "seed {seed}, draw {k}");
                }
            }
        }
        let edge = [0, 1, 42, u64::MAX];
        check(edge, Isaac64::reseed_many);
        check(edge, reseed_many_portable);
        check([7], Isaac64::reseed_many);
        check([5, 6, 7, 8, 9, 10, 11, 12], Isaac64::reseed_many);
        check([3, 1 << 63, 17], reseed_many_portable);
    }
}
