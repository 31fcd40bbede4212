//! Exact numbers `n / (2^a 5^b)` (n an integer, a any integer, b >= 0): dyadic fractions,
//! decimals, their sums, differences and products, and the powers of a dyadic number rounded
//! outward ([`Scaled::pow_rounded`]), which is all the tail law's statement
//! (`analysis::tail_law`) computes with. A `BigRational` reduces every result by a binary gcd
//! of its long numerator and denominator; here a sum or a product is a shift and a product of
//! integers, a comparison a cross product, and a number becomes a fraction in lowest terms
//! only when asked ([`Scaled::to_rational`]), by the factors 2 and 5 alone (the only primes
//! its denominator can have). The values are the same, so is every result derived from them.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::num::dyadic;

/// The exact number `n / (2^two 5^five)`.
#[derive(Clone, Debug)]
pub(crate) struct Scaled {
    n: BigInt,
    two: i64,
    five: u32,
}

/// `5^k`.
fn pow5(k: u32) -> BigInt {
    BigInt::from(5u32).pow(k)
}

impl Scaled {
    /// The integer `n`.
    pub(crate) fn integer(n: impl Into<BigInt>) -> Scaled {
        Scaled {
            n: n.into(),
            two: 0,
            five: 0,
        }
    }

    /// `10^e`.
    pub(crate) fn pow10(e: i64) -> Scaled {
        match u32::try_from(e) {
            Ok(e) => Scaled::integer(BigInt::from(10u32).pow(e)),
            Err(_) => Scaled {
                n: BigInt::one(),
                two: -e,
                five: e.unsigned_abs() as u32,
            },
        }
    }

    /// The mantissa m and exponent e of a dyadic number `m 2^e` (`None` for another).
    #[cfg(test)]
    fn as_dyadic(&self) -> Option<(&BigInt, i64)> {
        (self.five == 0).then_some((&self.n, -self.two))
    }

    /// `m 2^e`.
    pub(crate) fn dyadic(m: BigInt, e: i64) -> Scaled {
        Scaled {
            n: m,
            two: -e,
            five: 0,
        }
    }

    /// `r`, when its denominator is `2^a 5^b` (a dyadic fraction or a decimal); `None`
    /// otherwise.
    pub(crate) fn of(r: &BigRational) -> Option<Scaled> {
        let d = r.denom();
        let two = d.trailing_zeros().unwrap_or(0);
        let mut rest = d >> two as usize;
        let mut five = 0;
        while !rest.is_one() {
            let (q, m) = rest.div_rem(&BigInt::from(5u32));
            if !m.is_zero() {
                return None;
            }
            (rest, five) = (q, five + 1);
        }
        Some(Scaled {
            n: r.numer().clone(),
            two: two as i64,
            five,
        })
    }

    /// Both numerators over the common denominator `2^max(two) 5^max(five)`.
    fn aligned(&self, other: &Scaled) -> (BigInt, BigInt, i64, u32) {
        let (two, five) = (self.two.max(other.two), self.five.max(other.five));
        let lift = |x: &Scaled| {
            let n = match five - x.five {
                0 => x.n.clone(),
                k => &x.n * pow5(k),
            };
            n << (two - x.two) as usize
        };
        (lift(self), lift(other), two, five)
    }

    /// `self + other`.
    pub(crate) fn plus(&self, other: &Scaled) -> Scaled {
        let (a, b, two, five) = self.aligned(other);
        Scaled {
            n: a + b,
            two,
            five,
        }
    }

    /// `self - other`.
    pub(crate) fn minus(&self, other: &Scaled) -> Scaled {
        let (a, b, two, five) = self.aligned(other);
        Scaled {
            n: a - b,
            two,
            five,
        }
    }

    /// `self other`.
    pub(crate) fn times(&self, other: &Scaled) -> Scaled {
        Scaled {
            n: &self.n * &other.n,
            two: self.two + other.two,
            five: self.five + other.five,
        }
    }

    /// How `self` compares with `other`.
    pub(crate) fn compare(&self, other: &Scaled) -> Ordering {
        let (a, b, _, _) = self.aligned(other);
        a.cmp(&b)
    }

    /// The larger of the two.
    pub(crate) fn larger(self, other: Scaled) -> Scaled {
        match self.compare(&other) {
            Ordering::Less => other,
            _ => self,
        }
    }

    /// The smaller of the two.
    pub(crate) fn smaller(self, other: Scaled) -> Scaled {
        match self.compare(&other) {
            Ordering::Greater => other,
            _ => self,
        }
    }

    /// True when the number is 0.
    pub(crate) fn is_zero(&self) -> bool {
        self.n.is_zero()
    }

    /// True when the number is above 0.
    pub(crate) fn is_positive(&self) -> bool {
        self.n.is_positive()
    }

    /// The numerator and denominator in lowest terms (the denominator positive).
    pub(crate) fn lowest_terms(&self) -> (BigInt, BigInt) {
        if self.n.is_zero() {
            return (BigInt::zero(), BigInt::one());
        }
        let (mut n, mut two, mut five) = (self.n.clone(), self.two, self.five);
        if two < 0 {
            n <<= two.unsigned_abs() as usize;
            two = 0;
        }
        let common = n.trailing_zeros().unwrap_or(0).min(two as u64);
        n >>= common as usize;
        two -= common as i64;
        let five_int = BigInt::from(5u32);
        while five > 0 {
            let (q, m) = n.div_rem(&five_int);
            if !m.is_zero() {
                break;
            }
            (n, five) = (q, five - 1);
        }
        let d = match five {
            0 => BigInt::one(),
            k => pow5(k),
        };
        (n, d << two as usize)
    }

    /// The number as a fraction in lowest terms.
    pub(crate) fn to_rational(&self) -> BigRational {
        let (n, d) = self.lowest_terms();
        BigRational::new_raw(n, d)
    }

    /// `self >= 0` rounded up (or down) to a dyadic fraction with about `bits` significant
    /// bits: [`dyadic::bound`] of the fraction in lowest terms, so the same number as rounding
    /// [`Scaled::to_rational`].
    pub(crate) fn round(&self, bits: u64, up: bool) -> Scaled {
        if self.five == 0 && self.n.is_positive() {
            return self.round_dyadic(bits, up);
        }
        let (n, d) = self.lowest_terms();
        let r = dyadic::bound(&n, &d, bits, up);
        Scaled::of(&r).expect("a dyadic fraction")
    }

    /// [`Scaled::round`] of a positive dyadic number by shifts alone, the same number written
    /// the same way. In lowest terms it is `N / 2^k`; [`dyadic::bound`] takes
    /// `shift = bits - (bits(N) - bits(2^k))` and rounds `N 2^shift / 2^k` to an integer m,
    /// which here is `N 2^(shift - k)` rounded, a shift; its fraction `m / 2^shift` (or the
    /// integer `m 2^-shift`) in lowest terms is then what [`Scaled::of`] reads.
    fn round_dyadic(&self, bits: u64, up: bool) -> Scaled {
        let (n, k) = match self.two {
            two if two <= 0 => (&self.n << two.unsigned_abs() as usize, 0),
            two => {
                let common = self.n.trailing_zeros().unwrap_or(0).min(two as u64);
                (&self.n >> common as usize, two - common as i64)
            }
        };
        let shift = bits as i64 - (n.bits() as i64 - (k + 1));
        let m = match shift - k {
            j if j >= 0 => n << j as usize,
            j => {
                let kept = &n >> j.unsigned_abs() as usize;
                let lost = up && (&kept << j.unsigned_abs() as usize) != n;
                kept + u32::from(lost)
            }
        };
        match shift >= 0 {
            true => {
                let common = m.trailing_zeros().unwrap_or(0).min(shift as u64);
                Scaled::dyadic(m >> common as usize, common as i64 - shift)
            }
            false => Scaled::integer(m << shift.unsigned_abs() as usize),
        }
    }

    /// `self other` for dyadic `self, other >= 0`, the product's mantissa cut to `bits`
    /// significant bits: the bits past them dropped, and with `up` one unit of the last kept
    /// bit added when any of them was set (the mantissa is kept as it comes, never reduced).
    fn times_rounded(&self, other: &Scaled, bits: u64, up: bool) -> Scaled {
        debug_assert!(self.five == 0 && other.five == 0, "dyadic numbers");
        let m = &self.n * &other.n;
        let excess = m.bits().saturating_sub(bits);
        let kept = &m >> excess as usize;
        let inexact = up && (&kept << excess as usize) != m;
        Scaled {
            n: if inexact { kept + 1 } else { kept },
            two: self.two + other.two - excess as i64,
            five: 0,
        }
    }

    /// `self^n` for a dyadic `self >= 0`, by squaring, every product rounded up (or down) to
    /// `bits` significant bits ([`Scaled::times_rounded`]): every factor is nonnegative, so
    /// the result is an upper (or lower) bound of the exact power, with numbers that stay
    /// short however large n is.
    pub(crate) fn pow_rounded(&self, n: usize, bits: u64, up: bool) -> Scaled {
        let mut base = self.clone();
        let mut result = Scaled::integer(1);
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                result = result.times_rounded(&base, bits, up);
            }
            k >>= 1;
            if k > 0 {
                base = base.times_rounded(&base, bits, up);
            }
        }
        result
    }

    /// `ceil(self / other)` for `self >= 0` and `other > 0`.
    pub(crate) fn div_ceil(&self, other: &Scaled) -> BigInt {
        let (a, b, _, _) = self.aligned(other);
        a.div_ceil(&b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::q;

    /// Numbers of every kind the tail law uses: dyadic (also with a positive power of two),
    /// decimals, integers, zero, and a decimal whose fraction reduces by 2 and 5.
    fn samples() -> Vec<BigRational> {
        let big = BigInt::from(3u32).pow(70) + 1u32;
        vec![
            q(0, 1),
            q(1, 1),
            q(6, 1),
            q(3, 8),
            q(5, 1024),
            q(1234567, 10_000_000),
            q(12, 100),
            q(25, 10),
            q(7, 125),
            BigRational::new(big.clone(), BigInt::one() << 117),
            BigRational::new(big << 5, BigInt::from(10u32).pow(21)),
        ]
    }

    #[test]
    fn arithmetic_agrees_with_big_rationals() {
        // Second method: `BigRational`'s own arithmetic, in lowest terms after every step.
        for x in samples() {
            let sx = Scaled::of(&x).unwrap();
            assert_eq!(sx.to_rational(), x);
            let (n, d) = sx.lowest_terms();
            assert_eq!((&n, &d), (x.numer(), x.denom()), "{x}");
            for y in samples() {
                let sy = Scaled::of(&y).unwrap();
                assert_eq!(sx.plus(&sy).to_rational(), &x + &y, "{x} + {y}");
                assert_eq!(sx.minus(&sy).to_rational(), &x - &y, "{x} - {y}");
                assert_eq!(sx.times(&sy).to_rational(), &x * &y, "{x} * {y}");
                assert_eq!(sx.compare(&sy), x.cmp(&y), "{x} vs {y}");
                assert_eq!(
                    sx.clone().larger(sy.clone()).to_rational(),
                    (&x).max(&y).clone()
                );
                assert_eq!(
                    sx.clone().smaller(sy.clone()).to_rational(),
                    (&x).min(&y).clone()
                );
                if y.is_positive() {
                    assert_eq!(sx.div_ceil(&sy), (&x / &y).ceil().to_integer(), "{x} / {y}");
                }
            }
        }
        // Unreduced on purpose: 20 / (2^3 5^2) = 1/10, and 3 2^4 (a negative power of two).
        let tenth = Scaled {
            n: BigInt::from(20),
            two: 3,
            five: 2,
        };
        assert_eq!(tenth.to_rational(), q(1, 10));
        assert_eq!(Scaled::dyadic(BigInt::from(3), 4).to_rational(), q(48, 1));
        assert_eq!(Scaled::integer(7).to_rational(), q(7, 1));
        assert_eq!(Scaled::pow10(3).to_rational(), q(1000, 1));
        assert_eq!(Scaled::pow10(-3).to_rational(), q(1, 1000));
        assert_eq!(Scaled::pow10(0).to_rational(), q(1, 1));
        assert!(Scaled::of(&q(1, 3)).is_none());
        assert!(Scaled::of(&q(1, 15)).is_none());
    }

    #[test]
    fn rounding_is_rounding_the_fraction_in_lowest_terms() {
        // Second method: `dyadic::bound` on the reduced fraction, as the tail law rounded before.
        for x in samples() {
            let sx = Scaled::of(&x).unwrap();
            for bits in [1, 5, 96] {
                for up in [false, true] {
                    let want = dyadic::bound(x.numer(), x.denom(), bits, up);
                    assert_eq!(sx.round(bits, up).to_rational(), want, "{x} {bits} {up}");
                }
            }
            // The same number written unreduced rounds the same.
            let unreduced = Scaled {
                n: &sx.n * 40,
                two: sx.two + 3,
                five: sx.five + 1,
            };
            let want = dyadic::bound(x.numer(), x.denom(), 96, true);
            assert_eq!(unreduced.round(96, true).to_rational(), want);
        }
    }

    #[test]
    fn products_and_powers_by_hand() {
        // 3 x 3 = 9 = 1001_2 kept to two bits: down 10_2 2^2 = 8, up 11_2 2^2 = 12. (3/4)^3 =
        // 27/64 = 11011_2 2^-6 to three bits: down 110_2 2^-4 = 3/8; up, the square 9/16 =
        // 1001_2 2^-4 rounds up to 101_2 2^-3 = 5/8 first, then 5/8 x 3/4 = 15/32 = 1111_2 2^-5
        // up to 1000_2 2^-4 = 1/2 (the carry lengthens the mantissa by one bit).
        let three = Scaled::integer(3);
        assert_eq!(three.times_rounded(&three, 2, false).to_rational(), q(8, 1));
        assert_eq!(three.times_rounded(&three, 2, true).to_rational(), q(12, 1));
        let three_quarters = Scaled::dyadic(BigInt::from(3), -2);
        assert_eq!(
            three_quarters.pow_rounded(3, 3, false).to_rational(),
            q(3, 8)
        );
        assert_eq!(
            three_quarters.pow_rounded(3, 3, true).to_rational(),
            q(1, 2)
        );
        assert_eq!(
            three_quarters.pow_rounded(0, 3, true).to_rational(),
            q(1, 1)
        );
    }

    proptest::proptest! {
        #[test]
        fn a_rounded_power_lies_on_its_side_of_the_exact_one(
            m in 1u64..,
            e in -80i64..10,
            n in 0usize..40,
            bits in 8u64..120,
        ) {
            let x = Scaled::dyadic(BigInt::from(m), e);
            let exact = x.to_rational().pow(i32::try_from(n).unwrap());
            let lo = x.pow_rounded(n, bits, false).to_rational();
            let hi = x.pow_rounded(n, bits, true).to_rational();
            proptest::prop_assert!(lo <= exact && exact <= hi);
            // With room for every bit, nothing is rounded.
            proptest::prop_assert_eq!(x.pow_rounded(n, 64 * 41, true).to_rational(), exact);
        }
    }

    #[test]
    fn dyadic_numbers_round_by_shifts_as_by_division() {
        // Second method: the general route (`dyadic::bound` on the fraction in lowest terms,
        // read back by `Scaled::of`), compared in value and in how the result is written
        // (the tail law's powers read its mantissa and exponent). Mantissas short and long,
        // odd and with trailing zeros, at exponents either side of 0, unreduced too.
        let general = |x: &Scaled, bits: u64, up: bool| {
            let (n, d) = x.lowest_terms();
            Scaled::of(&dyadic::bound(&n, &d, bits, up)).unwrap()
        };
        let big = BigInt::from(3u32).pow(70) + 1u32;
        let mantissas = [
            BigInt::from(1),
            BigInt::from(3),
            BigInt::from(12),
            BigInt::from(u64::MAX),
            (BigInt::one() << 96) - 1,
            BigInt::one() << 96,
            (BigInt::one() << 97) + 1,
            big.clone(),
            big << 9,
        ];
        for m in &mantissas {
            for e in [-300i64, -130, -97, -96, -5, -1, 0, 1, 7, 100] {
                for bits in [1, 5, 96] {
                    for up in [false, true] {
                        let x = Scaled::dyadic(m.clone(), e);
                        let (want, got) = (general(&x, bits, up), x.round(bits, up));
                        assert_eq!(got.as_dyadic(), want.as_dyadic(), "{m} 2^{e} {bits} {up}");
                        let unreduced = Scaled::dyadic(m << 3, e - 3);
                        assert_eq!(unreduced.round(bits, up).as_dyadic(), want.as_dyadic());
                    }
                }
            }
        }
    }
}
