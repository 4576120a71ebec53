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
