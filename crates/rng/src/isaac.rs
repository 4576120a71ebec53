//! The ISAAC core both word sizes share (Bob Jenkins' ISAAC, in
//! T. Terriberry's formulation that NetHack 3.6.2+ bundles as `isaac64.c`
//! and UnNetHack as `src/rnd_isaac.c`): 256 words of state, the
//! four-step `update`, results handed out from the end of a batch, and
//! seeding from a seed array that is zero but for its first word. What
//! differs between ISAAC (32-bit words) and ISAAC-64 is the [`Word`]: its
//! golden ratio, its mix, how `update` stirs `a` and which bits index the
//! table.

pub(super) const SIZE: usize = 256;
pub(super) const HALF: usize = SIZE / 2;

/// A word size of ISAAC.
pub trait Word: Copy + std::fmt::Debug {
    /// The generator's name in `Debug` output.
    const NAME: &'static str;
    /// The golden ratio mixed four times: where every seeding starts.
    const MIXED_GOLDEN: [Self; 8];
    /// `update`'s table index of `x`: `(x >> SHIFT) % SIZE` for the word
    /// `x` it stores (first) and the one it produces (second).
    const INDEX_SHIFTS: (u32, u32);
    const ZERO: Self;
    const ONE: Self;
    /// The seed's bytes as the game lays them in the first word of the
    /// seed array.
    fn from_seed(seed: u64) -> Self;
    fn add(self, other: Self) -> Self;
    /// How round `i` of `update` stirs `a` (`k = i % 4`).
    fn stir(a: Self, k: usize) -> Self;
    /// One round of the initialisation mix over `x[0..8]`.
    fn mix(x: &mut [Self; 8]);
    fn index(self, shift: u32) -> usize;
}

/// The generator over words `W`, reseeded in place so a resolver can keep
/// one and reuse it for every seed.
#[derive(Clone)]
pub struct Isaac<W: Word> {
    pub(super) m: [W; SIZE],
    pub(super) r: [W; SIZE],
    pub(super) a: W,
    pub(super) b: W,
    pub(super) c: W,
    /// Results left in `r`; they are handed out from the end.
    pub(super) n: usize,
}

impl<W: Word> std::fmt::Debug for Isaac<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(W::NAME)
            .field("n", &self.n)
            .finish_non_exhaustive()
    }
}

impl<W: Word> Isaac<W> {
    pub fn new(seed: u64) -> Self {
        let mut g = Isaac {
            m: [W::ZERO; SIZE],
            r: [W::ZERO; SIZE],
            a: W::ZERO,
            b: W::ZERO,
            c: W::ZERO,
            n: 0,
        };
        g.reseed(seed);
        g
    }

    /// `isaac_init(ctx, seed bytes, n)` with the seed in the first word of
    /// the seed array and zeros after it.
    pub fn reseed(&mut self, seed: u64) {
        self.a = W::ZERO;
        self.b = W::ZERO;
        self.c = W::ZERO;
        // The seed array is `r`: zero but for the seed in `r[0]`, so the
        // first pass adds the seed once and nothing after it, and `r` need
        // not be cleared (`update` overwrites all of it). Reseeding is a
        // large part of a layout's cost, so this is worth the special case.
        let mut x = W::MIXED_GOLDEN;
        x[0] = x[0].add(W::from_seed(seed));
        W::mix(&mut x);
        self.m[..8].copy_from_slice(&x);
        for i in (8..SIZE).step_by(8) {
            W::mix(&mut x);
            self.m[i..i + 8].copy_from_slice(&x);
        }
        for i in (0..SIZE).step_by(8) {
            for (xj, mj) in x.iter_mut().zip(&self.m[i..i + 8]) {
                *xj = xj.add(*mj);
            }
            W::mix(&mut x);
            self.m[i..i + 8].copy_from_slice(&x);
        }
        self.update();
    }

    fn update(&mut self) {
        self.c = self.c.add(W::ONE);
        let mut a = self.a;
        let mut b = self.b.add(self.c);
        let (m, r) = (&mut self.m, &mut self.r);
        let (first, second) = W::INDEX_SHIFTS;
        for base in (0..SIZE).step_by(4) {
            for k in 0..4 {
                let i = base + k;
                let x = m[i];
                a = W::stir(a, k).add(m[(i + HALF) & (SIZE - 1)]);
                let y = m[x.index(first)].add(a).add(b);
                m[i] = y;
                b = m[y.index(second)].add(x);
                r[i] = b;
            }
        }
        self.a = a;
        self.b = b;
        self.n = SIZE;
    }

    /// Takes `n` results unread: the batch's index moves, and a new batch
    /// is made only where the skip runs past this one.
    pub fn skip_words(&mut self, mut n: usize) {
        while n > self.n {
            n -= self.n;
            self.update();
        }
        self.n -= n;
    }

    /// The next result (`isaac64_next_uint64`, `isaac_next_uint32`).
    #[inline(always)]
    pub fn next_word(&mut self) -> W {
        if self.n == 0 {
            self.update();
        }
        self.n -= 1;
        self.r[self.n]
    }
}
