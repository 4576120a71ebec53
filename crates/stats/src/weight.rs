//! Probabilities as `f64` with an absolute error bound carried through every
//! operation, so the statistics can state how exact they are.
//!
//! Each operation's result is rounded once (IEEE 754, round to nearest), so
//! with the unit roundoff `u = 2^-53`:
//! - `a + b`: error <= `ea + eb + u|a + b|`;
//! - `a - b`: error <= `ea + eb + u|a - b|`;
//! - `a * b`: error <= `|a| eb + |b| ea + ea eb + u|a b|`;
//! - `a / b` (with `|b| > eb`): error <= `(ea + |a/b| eb) / (|b| - eb) + u|a/b|`.
//!
//! The bound is itself computed in floating point; [`W::bound`] inflates it
//! by a relative `2^-40` to cover that, far more than its own rounding.

use std::ops::{Add, AddAssign, Div, Mul, Sub};

const U: f64 = f64::EPSILON / 2.0;

/// A non-negative quantity (a probability or a probability mass) and a
/// bound on its absolute error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct W {
    pub v: f64,
    pub e: f64,
}

/// One bound on the error of every one of `ws`: the largest (values kept
/// without their own bounds, one bound a state, take it).
pub fn largest_bound<'a>(ws: impl IntoIterator<Item = &'a W>) -> f64 {
    ws.into_iter().fold(0.0, |m, w| m.max(w.e))
}

impl W {
    pub const ZERO: W = W { v: 0.0, e: 0.0 };
    pub const ONE: W = W { v: 1.0, e: 0.0 };

    /// `num / den`, correctly rounded.
    pub fn ratio(num: u64, den: u64) -> W {
        if den == 0 {
            return W::ZERO;
        }
        let v = num as f64 / den as f64;
        // Integers up to 2^53 convert exactly; one rounding in the division,
        // none when the denominator is a power of two.
        let e = if den.is_power_of_two() && num < (1 << 53) {
            0.0
        } else {
            v.abs() * U
        };
        W { v, e }
    }

    pub fn is_zero(self) -> bool {
        self.v == 0.0 && self.e == 0.0
    }

    /// The value as a probability: 0 or 1 when it lies within its error
    /// bound of them (the exact value is within the bound either way).
    pub fn clamped(self) -> f64 {
        let b = self.bound();
        if self.v.abs() <= b {
            0.0
        } else if (self.v - 1.0).abs() <= b {
            1.0
        } else {
            self.v
        }
    }

    /// A chance as [`Self::clamped`] reads it: exactly 0 or 1 (no error)
    /// when it lies within its bound of them, so a chance computed as a
    /// quotient of equal sums does not leave a remainder that looks
    /// possible.
    pub fn snapped(self) -> W {
        let x = self.clamped();
        if x == 0.0 {
            W::ZERO
        } else if x == 1.0 {
            W::ONE
        } else {
            self
        }
    }

    /// The error bound, inflated to cover the rounding of its own
    /// computation.
    pub fn bound(self) -> f64 {
        self.e * (1.0 + 2f64.powi(-40))
    }
}

impl Add for W {
    type Output = W;
    #[inline]
    fn add(self, o: W) -> W {
        let v = self.v + o.v;
        W {
            v,
            e: self.e + o.e + v.abs() * U,
        }
    }
}

impl AddAssign for W {
    #[inline]
    fn add_assign(&mut self, o: W) {
        *self = *self + o;
    }
}

impl Mul for W {
    type Output = W;
    #[inline]
    fn mul(self, o: W) -> W {
        let v = self.v * o.v;
        W {
            v,
            e: self.v.abs() * o.e + o.v.abs() * self.e + self.e * o.e + v.abs() * U,
        }
    }
}

impl Sub for W {
    type Output = W;
    fn sub(self, o: W) -> W {
        let v = self.v - o.v;
        W {
            v,
            e: self.e + o.e + v.abs() * U,
        }
    }
}

/// Four sums of products side by side, their values apart from their
/// bounds, so that the four are computed two at a time (SSE2, in the
/// x86_64 baseline). Each is `W`'s `+` of `W`'s `*`, operation for
/// operation in the same order, and a vector's lane rounds as the scalar
/// operation does, so the four are bit for bit four `W`s summed one at a
/// time (the backward pass's sums per level, `engine::back`, which made
/// a fifth of the largest files' time one at a time).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct W4 {
    pub v: [f64; 4],
    pub e: [f64; 4],
}

impl W4 {
    pub const ZERO: W4 = W4 {
        v: [0.0; 4],
        e: [0.0; 4],
    };

    /// `self[j] += p * x[j]` for each `j`, where `x[j]` is
    /// `W { v: xv[j], e: xe[j] }`.
    #[inline(always)]
    pub fn add_product(&mut self, p: W, xv: [f64; 4], xe: [f64; 4]) {
        self.add(&W4::product(p, xv, xe));
    }

    /// `p * x[j]` for each `j`, as `Mul`, where `x[j]` is
    /// `W { v: xv[j], e: xe[j] }`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn product(p: W, xv: [f64; 4], xe: [f64; 4]) -> W4 {
        use std::arch::x86_64::{
            __m128d, _mm_add_pd, _mm_and_pd, _mm_castsi128_pd, _mm_loadu_pd, _mm_mul_pd,
            _mm_set1_epi64x, _mm_set1_pd, _mm_storeu_pd,
        };
        let mut out = W4::ZERO;
        // SAFETY: SSE2 is in the x86_64 baseline (every x86_64 target
        // enables it), and each load and store reads or writes two of the
        // four `f64`s of an array, at 0 and 2.
        #[allow(unsafe_code)]
        unsafe {
            let abs = |x: __m128d| _mm_and_pd(x, _mm_castsi128_pd(_mm_set1_epi64x(i64::MAX)));
            let (pv, pe, pv_abs) = (_mm_set1_pd(p.v), _mm_set1_pd(p.e), _mm_set1_pd(p.v.abs()));
            let u = _mm_set1_pd(U);
            for h in [0, 2] {
                let x_v = _mm_loadu_pd(xv[h..].as_ptr());
                let x_e = _mm_loadu_pd(xe[h..].as_ptr());
                let v = _mm_mul_pd(pv, x_v);
                let e = _mm_add_pd(
                    _mm_add_pd(
                        _mm_add_pd(_mm_mul_pd(pv_abs, x_e), _mm_mul_pd(abs(x_v), pe)),
                        _mm_mul_pd(pe, x_e),
                    ),
                    _mm_mul_pd(abs(v), u),
                );
                _mm_storeu_pd(out.v[h..].as_mut_ptr(), v);
                _mm_storeu_pd(out.e[h..].as_mut_ptr(), e);
            }
        }
        out
    }

    /// `self[j] += o[j]` for each `j`, as `Add`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn add(&mut self, o: &W4) {
        use std::arch::x86_64::{
            __m128d, _mm_add_pd, _mm_and_pd, _mm_castsi128_pd, _mm_loadu_pd, _mm_mul_pd,
            _mm_set1_epi64x, _mm_set1_pd, _mm_storeu_pd,
        };
        // SAFETY: as in `product`.
        #[allow(unsafe_code)]
        unsafe {
            let abs = |x: __m128d| _mm_and_pd(x, _mm_castsi128_pd(_mm_set1_epi64x(i64::MAX)));
            let u = _mm_set1_pd(U);
            for h in [0, 2] {
                let sum = _mm_add_pd(
                    _mm_loadu_pd(self.v[h..].as_ptr()),
                    _mm_loadu_pd(o.v[h..].as_ptr()),
                );
                let bound = _mm_add_pd(
                    _mm_add_pd(
                        _mm_loadu_pd(self.e[h..].as_ptr()),
                        _mm_loadu_pd(o.e[h..].as_ptr()),
                    ),
                    _mm_mul_pd(abs(sum), u),
                );
                _mm_storeu_pd(self.v[h..].as_mut_ptr(), sum);
                _mm_storeu_pd(self.e[h..].as_mut_ptr(), bound);
            }
        }
    }

    /// `p * x[j]` for each `j`, as `Mul`, where `x[j]` is
    /// `W { v: xv[j], e: xe[j] }`.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub fn product(p: W, xv: [f64; 4], xe: [f64; 4]) -> W4 {
        let mut out = W4::ZERO;
        for j in 0..4 {
            let x = p * W { v: xv[j], e: xe[j] };
            (out.v[j], out.e[j]) = (x.v, x.e);
        }
        out
    }

    /// `self[j] += o[j]` for each `j`, as `Add`.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub fn add(&mut self, o: &W4) {
        for j in 0..4 {
            let s = W {
                v: self.v[j],
                e: self.e[j],
            } + W {
                v: o.v[j],
                e: o.e[j],
            };
            (self.v[j], self.e[j]) = (s.v, s.e);
        }
    }

    /// The largest bound of every one of `sums` (0 for none), as
    /// [`largest_bound`] folds them one at a time: a NaN is passed over,
    /// and bounds are never -0, so the largest is the same taken two lanes
    /// at a time (SSE2's `maxpd` keeps its second operand unless the first
    /// is larger, as the fold keeps what it has).
    #[cfg(target_arch = "x86_64")]
    pub fn largest_bound_of(sums: &[W4]) -> f64 {
        use std::arch::x86_64::{
            _mm_cvtsd_f64, _mm_loadu_pd, _mm_max_pd, _mm_setzero_pd, _mm_unpackhi_pd,
        };
        // SAFETY: SSE2 is in the x86_64 baseline, and each load reads two
        // of the four `f64`s of an array, at 0 and 2.
        #[allow(unsafe_code)]
        unsafe {
            let (mut lo, mut hi) = (_mm_setzero_pd(), _mm_setzero_pd());
            for sum in sums {
                lo = _mm_max_pd(_mm_loadu_pd(sum.e.as_ptr()), lo);
                hi = _mm_max_pd(_mm_loadu_pd(sum.e[2..].as_ptr()), hi);
            }
            let m = _mm_max_pd(hi, lo);
            let (a, b) = (_mm_cvtsd_f64(m), _mm_cvtsd_f64(_mm_unpackhi_pd(m, m)));
            if b > a {
                b
            } else {
                a
            }
        }
    }

    /// The largest bound of every one of `sums` (0 for none), as
    /// [`largest_bound`] folds them.
    #[cfg(not(target_arch = "x86_64"))]
    pub fn largest_bound_of(sums: &[W4]) -> f64 {
        sums.iter()
            .flat_map(|sum| sum.e)
            .fold(0.0, |m, e| if e > m { e } else { m })
    }
}

/// Division with `|b| > eb`; a zero divisor gives zero.
impl Div for W {
    type Output = W;
    fn div(self, o: W) -> W {
        if o.v == 0.0 {
            return W::ZERO;
        }
        let v = self.v / o.v;
        let slack = o.v.abs() - o.e;
        let e = if slack > 0.0 {
            (self.e + v.abs() * o.e) / slack + v.abs() * U
        } else {
            f64::INFINITY
        };
        W { v, e }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifths_sum_to_one_within_the_bound() {
        let fifth = W::ratio(1, 5);
        let mut s = W::ZERO;
        for _ in 0..5 {
            s += fifth;
        }
        assert!((s.v - 1.0).abs() <= s.bound());
        assert!(s.e > 0.0);
    }

    #[test]
    fn exact_values_stay_exact() {
        let half = W::ratio(1, 2);
        assert_eq!(half.e, 0.0);
        assert!((half * half).e <= 0.25 * U);
        assert!(W::ZERO.is_zero());
    }

    #[test]
    fn four_sums_side_by_side_are_four_sums() {
        // Values and bounds of every kind: exact, rounded, zero, large.
        let ps = [
            W::ratio(1, 3),
            W::ratio(2, 7) * W::ratio(5, 11),
            W::ONE,
            W::ZERO,
            W { v: 0.37, e: 1e-17 },
        ];
        let xs = [
            [
                W::ratio(1, 5),
                W::ZERO,
                W::ratio(3, 9),
                W { v: 0.5, e: 2e-16 },
            ],
            [W::ONE, W::ratio(1, 6), W::ZERO, W::ratio(7, 13)],
            [
                W {
                    v: 1e-300,
                    e: 1e-310,
                },
                W::ratio(9, 10),
                W::ONE,
                W::ZERO,
            ],
        ];
        let mut four = W4::ZERO;
        let mut one = [W::ZERO; 4];
        for (i, p) in ps.iter().enumerate() {
            for x in &xs {
                let x = x.map(|w| w * ps[(i + 1) % ps.len()]);
                four.add_product(*p, x.map(|w| w.v), x.map(|w| w.e));
                for (sum, x) in one.iter_mut().zip(x) {
                    *sum += *p * x;
                }
            }
        }
        for (j, sum) in one.iter().enumerate() {
            assert_eq!(four.v[j].to_bits(), sum.v.to_bits(), "value {j}");
            assert_eq!(four.e[j].to_bits(), sum.e.to_bits(), "bound {j}");
        }
        assert_eq!(W4::largest_bound_of(&[four]), largest_bound(&one));
        assert!(four.e.iter().all(|&e| e > 0.0), "every bound was exercised");
    }

    /// Any finite quantity, tiny, large or zero (whose sums and products
    /// may overflow, but make no NaN): the same bits as `W`s.
    fn arb_w() -> impl proptest::strategy::Strategy<Value = W> {
        use proptest::prelude::*;
        let x = prop_oneof![
            Just(0.0),
            Just(1.0),
            0.0..1.0f64,
            1e-320..1e-300f64,
            1e300..1e308f64,
            proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO,
        ];
        (x.clone(), x).prop_map(|(v, e)| W {
            v: v.abs(),
            e: e.abs(),
        })
    }

    proptest::proptest! {
        #[test]
        fn four_sums_are_four_sums_for_any_values(
            sums in proptest::array::uniform4(arb_w()),
            p in arb_w(),
            x in proptest::array::uniform4(arb_w()),
        ) {
            let mut four = W4 { v: sums.map(|w| w.v), e: sums.map(|w| w.e) };
            four.add_product(p, x.map(|w| w.v), x.map(|w| w.e));
            for j in 0..4 {
                let one = sums[j] + p * x[j];
                proptest::prop_assert_eq!(four.v[j].to_bits(), one.v.to_bits());
                proptest::prop_assert_eq!(four.e[j].to_bits(), one.e.to_bits());
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn the_largest_bound_of_many_sums_is_the_fold_s(
            sums in proptest::collection::vec(proptest::array::uniform4(arb_w()), 0..9),
            nan in proptest::option::of((0usize..9, 0usize..4)),
        ) {
            let mut four: Vec<W4> = sums
                .iter()
                .map(|s| W4 { v: s.map(|w| w.v), e: s.map(|w| w.e) })
                .collect();
            if let Some((k, j)) = nan {
                if let Some(sum) = four.get_mut(k) {
                    sum.e[j] = f64::NAN;
                }
            }
            let one: Vec<W> = four
                .iter()
                .flat_map(|s| (0..4).map(|j| W { v: s.v[j], e: s.e[j] }))
                .collect();
            proptest::prop_assert_eq!(
                W4::largest_bound_of(&four).to_bits(),
                largest_bound(&one).to_bits()
            );
        }
    }

    #[test]
    fn many_products_keep_a_true_bound() {
        // (1/3)^20 summed 3^3 times against the exact rational value.
        let third = W::ratio(1, 3);
        let mut p = W::ONE;
        for _ in 0..20 {
            p = p * third;
        }
        let mut s = W::ZERO;
        for _ in 0..27 {
            s += p;
        }
        let exact = 1.0 / 3f64.powi(17);
        assert!((s.v - exact).abs() <= s.bound() + exact * 1e-15);
    }
}
