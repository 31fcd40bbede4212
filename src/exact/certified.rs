//! Certified stepping of a chain's law in 128-bit block floating point: for every turn n,
//! integer bounds `lo <= P(T = n) 2^k <= hi` and the same for `P(T > n)`, from which the
//! correctly rounded decimals and the nearest `f64` are decided without any fraction. This file
//! holds the enclosures ([`Bounds`]) and how they are rounded (`certified/cells_tests.rs`: the
//! cells against the fractions' own decimals); `certified/rows.rs` the chain's rows as the tiers
//! read them ([`MergedRows`]: counts over a small common denominator, or fractions);
//! `certified/stepper.rs` the stepping ([`CertifiedChain`], [`CertifiedStepper`]) and why its
//! bounds hold.
//!
//! # Why block floating point
//!
//! After each turn, when the surviving mass has fallen, the law is shifted left by the same
//! number of bits (a shared exponent grows), so the bounds stay about 2^-100 apart *relative to*
//! `P(T > n)`, not only in absolute terms: even the 1e-15 tail has all its `f64` bits certain.
//! The same rounding error relative to the value is what a float stepping has, with a proof
//! instead of a hope.
//!
//! Rounding a bound to D decimals is monotone, so when both bounds of a term round to the same
//! D-digit decimal the exact value does too ([`Bounds::fixed`]); the same holds for the nearest
//! `f64` (correct rounding is monotone too). The rare term whose bounds fall on both sides of a
//! rounding boundary is left to the exact integer stepping ([`crate::exact::step`]).

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

#[cfg(test)]
use crate::num::decimal::fixed_scaled_u128;
use crate::num::decimal::{format_scientific, pow10_u64, push_fixed_scaled_u128, scientific_parts};
use crate::num::limbs::u128_to_f64;

#[cfg(test)]
mod cells_tests;
mod float;
mod geometric;
mod rows;
mod stepper;
pub use float::{FloatChain, FloatStepper};
pub use geometric::GeometricTier;
pub use rows::{nearest_f64, MergedRows, Probabilities};
pub use stepper::{CertifiedChain, CertifiedStepper};

/// A certified enclosure `lo / 2^shift <= x <= hi / 2^shift` of a probability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The lower bound's numerator.
    pub lo: u128,
    /// The upper bound's numerator.
    pub hi: u128,
    /// The binary exponent of the common denominator.
    pub shift: u32,
}

impl Bounds {
    /// `x` rounded to `digits` decimals (to nearest, ties to even, as
    /// [`crate::num::decimal::fixed`]) when both bounds agree on it; `None` when they straddle
    /// a rounding boundary or `digits` is above 19 (the tests' entry; [`Bounds::push_cells`]
    /// is the crate's).
    #[cfg(test)]
    pub fn fixed(&self, digits: usize) -> Option<String> {
        let q = self.rounded(digits, false)?;
        Some(fixed_scaled_u128(q, digits))
    }

    /// `1 - x` rounded to `digits` decimals, like [`Bounds::fixed`].
    #[cfg(test)]
    pub fn fixed_complement(&self, digits: usize) -> Option<String> {
        let q = self.rounded(digits, true)?;
        Some(fixed_scaled_u128(q, digits))
    }

    /// The table's and the CSV's cells of [`Bounds::push_cells`] as two strings (the tests'
    /// entry).
    #[cfg(test)]
    pub fn cells(&self, digits: usize, complement: bool) -> Option<(String, String)> {
        let mut text = Vec::new();
        let plain = self.push_cells(digits, complement, &mut text)?;
        let table = match plain == text.len() {
            true => text.clone(),
            false => text.split_off(plain),
        };
        let utf8 = |bytes: Vec<u8>| String::from_utf8(bytes).expect("ASCII");
        Some((utf8(table), utf8(text)))
    }

    /// `x` (or `1 - x` with `complement`) as [`crate::num::decimal::fixed`] writes it (the
    /// CSV's cell), then, when [`crate::num::decimal::probability`] writes it otherwise (the
    /// table's cell), that text too, at the end of `text` (ASCII), when both bounds agree on the text
    /// (`probability` is monotone within each of its three forms, and the forms differ in
    /// text), from one rounding. Returns where the CSV's cell ends, or `None` (and `text` as it
    /// was) when undecided.
    pub(crate) fn push_cells(
        &self,
        digits: usize,
        complement: bool,
        text: &mut Vec<u8>,
    ) -> Option<usize> {
        let q = self.rounded(digits, complement)?;
        let start = text.len();
        push_fixed_scaled_u128(text, q, digits);
        let plain = text.len();
        match self.probability_of(q, digits, complement) {
            Some(table) => {
                text.extend_from_slice(table.as_deref().unwrap_or("").as_bytes());
                Some(plain)
            }
            None => {
                text.truncate(start);
                None
            }
        }
    }

    /// The table's text given `q`, the rounded value: `Some(None)` when it is the plain decimal
    /// text, `Some(Some(text))` when it is another, `None` when the bounds do not decide it.
    fn probability_of(&self, q: u128, digits: usize, complement: bool) -> Option<Option<String>> {
        let m = u128::from(pow10_u64(digits)?);
        let one = 1u128 << self.shift.min(127);
        // The plain decimal shows x faithfully unless it rounds to 0 or 1 without being it.
        let (zero, full) = match complement {
            false => (self.hi == 0, self.lo == one && self.shift <= 127),
            true => (self.lo == one && self.shift <= 127, self.hi == 0),
        };
        if (q != 0 || zero) && (q != m || full) {
            return Some(None);
        }
        // As `probability` writes a value that rounds to 0 (or 1) without being it: in
        // scientific notation (or `1 - ` and the distance from 1). The bounds are dyadic, so
        // the digits come from integers (`scientific_parts`: a product and a shift), and the
        // two bounds' digits are compared before any text is written.
        let den = BigInt::from(1) << self.shift;
        let (lo, hi) = match complement {
            false => (BigInt::from(self.lo), BigInt::from(self.hi)),
            true => (&den - BigInt::from(self.hi), &den - BigInt::from(self.lo)),
        };
        let k = u64::from(self.shift);
        // None: the plain text; else the scientific digits of x (or of its distance from 1).
        let digits_of = |v: &BigInt| match (q == 0, v.is_zero(), *v == den) {
            (true, true, _) | (false, _, true) => Some(None),
            (true, false, _) => scientific_parts(v, k, 4).map(Some),
            (false, _, false) => scientific_parts(&(&den - v), k, 4).map(Some),
        };
        let parts = digits_of(&lo)?;
        if digits_of(&hi)? != parts {
            return None;
        }
        Some(match parts {
            None => None,
            Some((m, e)) if q == 0 => Some(format_scientific(&m, e, 4)),
            Some((m, e)) => Some(format!("1 - {}", format_scientific(&m, e, 4))),
        })
    }

    /// round(x 10^digits) (or of 1 - x), when both bounds agree.
    fn rounded(&self, digits: usize, complement: bool) -> Option<u128> {
        let m = pow10_u64(digits)?;
        let round = |x: u128| round_scaled(scaled(x, self.shift, m), m, complement);
        let q = round(self.lo);
        (q == round(self.hi)).then_some(q)
    }

    /// The nearest `f64` to x when both bounds have the same one.
    pub fn to_f64(self) -> Option<f64> {
        let lo = dyadic_f64(self.lo, self.shift);
        (lo == dyadic_f64(self.hi, self.shift)).then_some(lo)
    }

    /// How x compares with the fraction `r` (nonnegative), when the bounds decide it.
    pub fn cmp_rational(&self, r: &BigRational) -> Option<Ordering> {
        let small = r.numer().to_u64().zip(r.denom().to_u64());
        let at = |x: u128| match small {
            // The usual case (a quantile's level, a tail threshold): in machine words.
            Some((n, d)) => cmp_product(x, d, n, self.shift),
            None => (BigInt::from(x) * r.denom()).cmp(&(r.numer() << self.shift)),
        };
        match (at(self.lo), at(self.hi)) {
            (Ordering::Greater, _) => Some(Ordering::Greater),
            (_, Ordering::Less) => Some(Ordering::Less),
            (Ordering::Equal, Ordering::Equal) => Some(Ordering::Equal),
            _ => None,
        }
    }

    /// True when x is certainly 0.
    pub fn is_zero(&self) -> bool {
        self.hi == 0
    }

    /// How x compares with y, when the bounds decide it.
    pub fn cmp_bounds(&self, other: &Bounds) -> Option<Ordering> {
        let cmp = |x: u128, y: u128| cmp_dyadic(x, self.shift, y, other.shift);
        if cmp(self.lo, other.hi).is_gt() {
            Some(Ordering::Greater)
        } else if cmp(self.hi, other.lo).is_lt() {
            Some(Ordering::Less)
        } else if self.lo == self.hi && other.lo == other.hi && cmp(self.lo, other.lo).is_eq() {
            Some(Ordering::Equal)
        } else {
            None
        }
    }
}

/// `x / 2^a` against `y / 2^b`, exactly: the one with the smaller exponent is scaled up,
/// which either fits in 128 bits or is past every `u128`.
fn cmp_dyadic(x: u128, a: u32, y: u128, b: u32) -> Ordering {
    if a > b {
        return cmp_dyadic(y, b, x, a).reverse();
    }
    let up = b - a;
    if x == 0 {
        0.cmp(&y)
    } else if up >= 128 || x.leading_zeros() < up {
        Ordering::Greater
    } else {
        (x << up).cmp(&y)
    }
}

/// `x d` against `n 2^k`, exactly, as 256-bit integers `(high, low)` of 128-bit halves.
fn cmp_product(x: u128, d: u64, n: u64, k: u32) -> Ordering {
    let mask = u128::from(u64::MAX);
    // x d = mid 2^64 + low, below 2^192.
    let (low, mid) = ((x & mask) * u128::from(d), (x >> 64) * u128::from(d));
    let (low, carry) = low.overflowing_add(mid << 64);
    let product = ((mid >> 64) + u128::from(carry), low);
    let n = u128::from(n);
    let scaled = match k {
        0 => (0, n),
        1..128 => (n >> (128 - k), n << k),
        128..192 => (n << (k - 128), 0),
        // n 2^k is 0 or at least 2^192, above every product.
        _ if n == 0 => (0, 0),
        _ => return Ordering::Less,
    };
    product.cmp(&scaled)
}

/// Where the discarded part of a scaled value lies against one half.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fraction {
    Zero,
    BelowHalf,
    Half,
    AboveHalf,
}

impl Fraction {
    /// The fraction of `1 - f` (for a nonzero f).
    fn complement(self) -> Fraction {
        match self {
            Fraction::BelowHalf => Fraction::AboveHalf,
            Fraction::AboveHalf => Fraction::BelowHalf,
            f => f,
        }
    }
}

/// `x 10^d / 2^k` as [`scaled`] splits it (`m = 10^d`) rounded to nearest, ties to even, or
/// `(1 - x / 2^k) 10^d` rounded so with `complement`: both roundings from one product.
fn round_scaled((q, frac): (u128, Fraction), m: u64, complement: bool) -> u128 {
    if !complement {
        return round_half_even((q, frac));
    }
    // 1 - x/2^k: 10^d - (q + r) with r the fraction of x 10^d / 2^k.
    match frac {
        Fraction::Zero => u128::from(m) - q,
        f => round_half_even((u128::from(m) - q - 1, f.complement())),
    }
}

fn round_half_even((q, f): (u128, Fraction)) -> u128 {
    match f {
        Fraction::AboveHalf => q + 1,
        Fraction::Half if q % 2 == 1 => q + 1,
        _ => q,
    }
}

/// `x m / 2^k` for `x <= 2^k` split into its integer part and where its fraction lies.
fn scaled(x: u128, k: u32, m: u64) -> (u128, Fraction) {
    // x m below 2^(k - 1) (a long tail's value): the integer part 0, the fraction below half.
    if (128 - x.leading_zeros()) + (64 - m.leading_zeros()) < k {
        return (
            0,
            if x == 0 {
                Fraction::Zero
            } else {
                Fraction::BelowHalf
            },
        );
    }
    // P = x m, 192 bits: hi holds bits 128.., lo bits 0..128.
    let (x1, x0) = (x >> 64, x & u128::from(u64::MAX));
    let a = x0 * u128::from(m);
    let b = x1 * u128::from(m);
    let (lo, carry) = a.overflowing_add(b << 64);
    let hi = (b >> 64) + u128::from(carry);
    let q = match k {
        0 => lo,
        1..128 => (lo >> k) | (hi << (128 - k)),
        128..256 => hi >> (k - 128),
        _ => 0,
    };
    (q, fraction_below(hi, lo, k))
}

/// Where the bits below bit k of `hi 2^128 + lo` lie against one half of 2^k: from bit
/// k - 1 (the half) and whether a bit below it is set (the number's trailing zeros).
fn fraction_below(hi: u128, lo: u128, k: u32) -> Fraction {
    let zeros = match (lo, hi) {
        (0, 0) => return Fraction::Zero,
        (0, _) => 128 + hi.trailing_zeros(),
        _ => lo.trailing_zeros(),
    };
    if zeros >= k {
        return Fraction::Zero;
    }
    let half = match k - 1 {
        i @ 0..128 => lo >> i & 1,
        i @ 128..256 => hi >> (i - 128) & 1,
        _ => 0,
    };
    match (half == 1, zeros < k - 1) {
        (false, _) => Fraction::BelowHalf,
        (true, false) => Fraction::Half,
        (true, true) => Fraction::AboveHalf,
    }
}

/// The nearest `f64` to `x / 2^k` (the conversion rounds correctly; the power of two is exact
/// while the result is a normal number, which it is for every exponent used here).
fn dyadic_f64(x: u128, k: u32) -> f64 {
    u128_to_f64(x) * power_of_half(k)
}

/// `2f64.powi(-k)`, the exact `2^-k` up to k = 1022 written directly (no call) instead of
/// computed by squaring.
fn power_of_half(k: u32) -> f64 {
    match k {
        0..=1022 => f64::from_bits(u64::from(1023 - k) << 52),
        _ => 2f64.powi(-(k as i32)),
    }
}

#[cfg(test)]
impl Bounds {
    /// True when `lo / 2^shift <= x <= hi / 2^shift` (the tests' containment check).
    pub(crate) fn contains(&self, x: &BigRational) -> bool {
        let over = |v: u128| BigRational::new(BigInt::from(v), BigInt::from(1) << self.shift);
        over(self.lo) <= *x && *x <= over(self.hi)
    }
}

/// How `[a_lo, a_hi]` compares with `[b_lo, b_hi]`, when they decide it (the tests' second
/// method for bounds, compared as fractions).
#[cfg(test)]
pub(crate) fn interval_order(a: [&BigRational; 2], b: [&BigRational; 2]) -> Option<Ordering> {
    let ([a_lo, a_hi], [b_lo, b_hi]) = (a, b);
    match () {
        _ if a_lo > b_hi => Some(Ordering::Greater),
        _ if a_hi < b_lo => Some(Ordering::Less),
        _ if a_lo == a_hi && b_lo == b_hi => Some(a_lo.cmp(b_lo)),
        _ => None,
    }
}

/// True when the bounds say `x < r` for sure, `Some(false)` when `x >= r` for sure.
pub fn below(b: &Bounds, r: &BigRational) -> Option<bool> {
    if r.is_zero() {
        return Some(false);
    }
    b.cmp_rational(r).map(|o| o == Ordering::Less)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::chain::Chain;
    use crate::exact::step::IntegerChain;
    use crate::num::decimal::{fixed, probability, to_f64};
    use crate::test_util::q;

    #[test]
    fn scaled_is_the_quotient_and_where_the_remainder_lies_against_one_half() {
        // Second method: big integers, x m = q 2^k + r with 2 r compared with 2^k. Halves
        // exactly and their neighbours, then a seeded stream, at every k.
        let mut word = crate::test_util::seeded_words(7);
        for k in 0..300u32 {
            let half = 1u128 << (k.max(1) - 1).min(127);
            let mut cases = vec![(half, 1), (half + 1, 1), (half - 1, 3), (half, 5)];
            cases.extend((0..40).map(|_| {
                let (w, m) = (word(), [1, 10, 10u64.pow(12), 10u64.pow(19), word() >> 1]);
                (
                    (u128::from(w) << 64 | u128::from(word())) >> (w % 128),
                    m[(w % 5) as usize],
                )
            }));
            for (x, m) in cases {
                let x = if k < 128 { x.min(1 << k) } else { x };
                let (p, two_k) = (BigInt::from(x) * m, BigInt::from(1) << k);
                let (q, r) = (&p / &two_k, (&p % &two_k) << 1u32);
                let want = match r.cmp(&two_k) {
                    _ if r.is_zero() => Fraction::Zero,
                    Ordering::Less => Fraction::BelowHalf,
                    Ordering::Equal => Fraction::Half,
                    Ordering::Greater => Fraction::AboveHalf,
                };
                assert_eq!(
                    scaled(x, k, m),
                    (q.try_into().unwrap(), want),
                    "{x} {m} {k}"
                );
            }
        }
    }

    #[test]
    fn dyadic_f64_and_powers_of_ten_are_as_powi_and_checked_pow_give_them() {
        // Second method: `as f64` and `powi`, as the conversion was written before; every k
        // from 0 to past the subnormals (where powi's square overflows and it gives 0).
        let xs = [
            0,
            1,
            3,
            u128::MAX,
            (1 << 127) - 3,
            (1 << 53) + 1,
            1 << 100 | 1,
        ];
        for k in 0..1200u32 {
            assert_eq!(pow10_u64(k as usize), 10u64.checked_pow(k), "10^{k}");
            assert_eq!(power_of_half(k), 2f64.powi(-(k as i32)), "2^-{k}");
            for x in xs {
                let want = x as f64 * 2f64.powi(-(k as i32));
                assert_eq!(dyadic_f64(x, k).to_bits(), want.to_bits(), "{x} / 2^{k}");
            }
        }
    }

    #[test]
    fn rounding_bounds_matches_rounding_the_fraction() {
        // Exact dyadic values (lo == hi): every rounding case, against the fraction's rounding.
        for (x, k) in [(1u128, 3), (3, 3), (5, 4), (1, 1), (0, 5), (7, 3), (8, 3)] {
            let b = Bounds {
                lo: x,
                hi: x,
                shift: k,
            };
            let r = BigRational::new(BigInt::from(x), BigInt::from(1u128 << k));
            for d in 0..6 {
                assert_eq!(b.fixed(d).unwrap(), fixed(&r, d), "{x}/2^{k} at {d}");
                let one_minus = BigRational::from_integer(1.into()) - &r;
                assert_eq!(b.fixed_complement(d).unwrap(), fixed(&one_minus, d));
            }
            assert_eq!(b.to_f64().unwrap(), to_f64(&r));
        }
        // The table's and the CSV's texts, against `probability` and `fixed` on the fraction:
        // plain decimals, values that round to 0 or 1 without being it (scientific, `1 - `),
        // 0 and 1 themselves, and a shift past 128 bits.
        let values = [
            (0u128, 5u32),
            (1, 0),
            (1, 1),
            (3, 7),
            (1, 40),
            ((1 << 40) - 1, 40),
            (5, 200),
            (u128::MAX, 250),
            ((1 << 127) - 3, 127),
        ];
        for (x, k) in values {
            let b = Bounds {
                lo: x,
                hi: x,
                shift: k,
            };
            let r = BigRational::new(BigInt::from(x), BigInt::from(1) << k);
            let one_minus = BigRational::from_integer(1.into()) - &r;
            for d in [0, 2, 6, 12] {
                let want = (probability(&r, d), fixed(&r, d));
                assert_eq!(b.cells(d, false).unwrap(), want, "{x}/2^{k} at {d}");
                let want = (probability(&one_minus, d), fixed(&one_minus, d));
                assert_eq!(b.cells(d, true).unwrap(), want, "1 - {x}/2^{k} at {d}");
            }
        }
        // Bounds whose scientific digits differ decide nothing: 1.2e-16 and 1.3e-16 at 2^-60.
        let apart = Bounds {
            lo: 138,
            hi: 150,
            shift: 60,
        };
        assert_eq!(apart.cells(6, false), None);
        assert_eq!(apart.cells(6, true), None);
        // Written after other text, which an undecided cell leaves as it was.
        let mut text = b"x".to_vec();
        assert_eq!(apart.push_cells(6, false, &mut text), None);
        assert_eq!(text, b"x");
        let small = Bounds {
            lo: 1,
            hi: 1,
            shift: 40,
        };
        assert_eq!(small.push_cells(6, false, &mut text), Some(9));
        assert_eq!(text, b"x0.0000009.095e-13");
        // Far shifts: 2^-200 rounds to zero; 2^-1 at shift 250 still halves.
        let tiny = Bounds {
            lo: 1,
            hi: 1,
            shift: 200,
        };
        assert_eq!(tiny.fixed(12).unwrap(), "0.000000000000");
        assert_eq!(tiny.fixed_complement(3).unwrap(), "1.000");
        let half = Bounds {
            lo: 1 << 120,
            hi: 1 << 120,
            shift: 121,
        };
        assert_eq!(half.fixed(0).unwrap(), "0"); // ties to even
        assert_eq!(half.fixed(1).unwrap(), "0.5");
        // Bounds that straddle 0.25 at one digit decide nothing there, but do at two.
        let quarter = Bounds {
            lo: (1 << 120) - 1,
            hi: (1 << 120) + 1,
            shift: 122,
        };
        assert_eq!(quarter.fixed(1), None);
        assert_eq!(quarter.fixed(2).unwrap(), "0.25");
        assert_eq!(quarter.cmp_rational(&q(1, 4)), None);
        assert_eq!(quarter.cmp_rational(&q(1, 3)), Some(Ordering::Less));
    }

    #[test]
    fn word_comparisons_agree_with_big_integers() {
        // Second method: the same comparisons in `BigInt`. Zeros, the extremes of each word,
        // equal values, and exponents on both sides of 64, 128 and 192.
        let xs = [
            0u128,
            1,
            2,
            3,
            1 << 64,
            (1 << 64) - 1,
            u128::MAX,
            u128::MAX - 1,
            1 << 127,
        ];
        let words = [0u64, 1, 2, 3, 10, 999, 1000, u64::MAX, 1 << 63];
        let shifts = [0u32, 1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193, 300];
        let big = |x: u128, k: u32| BigInt::from(x) << k;
        for &x in &xs {
            for &k in &shifts {
                for &y in &xs {
                    for &j in &shifts {
                        // x / 2^k against y / 2^j: x 2^j against y 2^k.
                        let want = big(x, j).cmp(&big(y, k));
                        assert_eq!(cmp_dyadic(x, k, y, j), want, "{x} {k} {y} {j}");
                    }
                }
                for &d in &words {
                    for &n in &words {
                        let want = (BigInt::from(x) * d).cmp(&(BigInt::from(n) << k));
                        assert_eq!(cmp_product(x, d, n, k), want, "{x} {d} {n} {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn comparisons_of_bounds_agree_with_the_fractions() {
        // Second method: the enclosures as fractions.
        let cases = [
            (1u128, 1u128, 3u32),
            (2, 2, 4),
            (1, 3, 3),
            (3, 5, 4),
            (1 << 100, (1 << 100) + 9, 102),
            (0, 0, 7),
            (0, 1, 200),
        ];
        let over = |x: u128, k: u32| BigRational::new(BigInt::from(x), BigInt::from(1) << k);
        for (lo, hi, shift) in cases {
            let a = Bounds { lo, hi, shift };
            let (a_lo, a_hi) = (over(lo, shift), over(hi, shift));
            for (lo, hi, shift) in cases {
                let b = Bounds { lo, hi, shift };
                let (b_lo, b_hi) = (over(lo, shift), over(hi, shift));
                let want = interval_order([&a_lo, &a_hi], [&b_lo, &b_hi]);
                assert_eq!(a.cmp_bounds(&b), want, "{a:?} {b:?}");
            }
            for r in [
                q(0, 1),
                q(1, 8),
                q(1, 4),
                q(1, 2),
                q(9, 10),
                q(1, 1),
                q(2, 1),
            ] {
                let want = if a_lo > r {
                    Some(Ordering::Greater)
                } else if a_hi < r {
                    Some(Ordering::Less)
                } else if a_lo == r && a_hi == r {
                    Some(Ordering::Equal)
                } else {
                    None
                };
                assert_eq!(a.cmp_rational(&r), want, "{a:?} {r}");
            }
        }
    }

    #[test]
    fn the_bounds_contain_the_exact_law_and_are_tight_relative_to_the_tail() {
        // Second method: the exact integer stepping of src/exact/step.rs.
        for name in ["milton-bradley", "efi"] {
            let chain = Chain::for_board(&builtin(name).unwrap());
            let cc = CertifiedChain::new(&chain);
            let ic = IntegerChain::new(&chain);
            let (mut c, mut e) = (cc.stepper(), ic.stepper());
            for _ in 0..300 {
                c.step();
                e.step();
                for (b, x) in [
                    (c.survives(), e.p_survives()),
                    (c.ends_now(), e.p_ends_now()),
                ] {
                    assert!(b.contains(&x), "{name}");
                }
                // Width of P(T > n) below 2^20 units (the surviving mass is 2^(V - 1) units
                // or more, V = 88 on efi, 124 on milton-bradley), and relative width below
                // 2^-64, down to the 1e-15 tail.
                let s = c.survives();
                assert!(s.hi - s.lo < 1 << 20, "{name}: {s:?}");
                assert!((s.hi - s.lo) << 64 <= s.hi, "{name}: {s:?}");
                // Each state's enclosure (the tail law's input), every 50 turns.
                if c.turn() % 50 == 0 {
                    let scale = BigRational::from_integer(e.scale().clone());
                    for (b, m) in c.position().iter().zip(e.transient_mass()) {
                        let x = BigRational::from_integer(m) / &scale;
                        assert!(b.contains(&x), "{name}");
                        // Within 2^20 units of the shared scale: tight, not only valid.
                        assert!(b.hi - b.lo < 1 << 20, "{name}: {b:?}");
                    }
                }
            }
        }
    }
}
