//! Lehmer's acceleration of the Euclidean algorithm for big integers, and the greatest common
//! divisor built on it.
//!
//! The quotients of the first Euclidean steps on two big numbers depend only on their leading
//! bits, so they can be found with machine words and applied to the big numbers at once as a
//! 2 x 2 matrix of cofactors (D. H. Lehmer, *Euclid's algorithm for large numbers*, Amer. Math.
//! Monthly 45, 1938; Knuth, *The Art of Computer Programming* 2, section 4.5.2, algorithm L).
//! One such step replaces about 30 single steps, each a division of big numbers; `num-bigint`'s
//! own gcd is the binary algorithm, a shift and a subtraction per bit, several times slower on
//! numbers of a few hundred bits, which is what every exact expectation reduces.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;

/// The 62 bits of the little-endian words `x` from bit `shift` up (the caller picks `shift` so
/// that they are the leading ones of the larger operand), without allocating.
fn bits_from(x: &[u64], shift: u64) -> u64 {
    let (word, offset) = ((shift / 64) as usize, shift % 64);
    let lo = x.get(word).copied().unwrap_or(0);
    let hi = x.get(word + 1).copied().unwrap_or(0);
    let both = (u128::from(hi) << 64) | u128::from(lo);
    ((both >> offset) as u64) & ((1 << 62) - 1)
}

/// The number of significant bits of little-endian words without leading zero words.
fn bits_of(x: &[u64]) -> u64 {
    x.last().map_or(0, |&top| {
        64 * x.len() as u64 - u64::from(top.leading_zeros())
    })
}

/// Lehmer's step: the Euclidean quotients of `u > v > 0` that their leading 62 bits already
/// decide, as the matrix `[[a, b], [c, d]]` that maps `(u, v)` to a later pair of consecutive
/// remainders `(a u + b v, c u + d v)`; `None` when not even the first quotient is decided
/// (then one division step is the way on).
pub(crate) fn cofactors(u: &BigInt, v: &BigInt) -> Option<[i64; 4]> {
    let (u, v) = (u.magnitude().to_u64_digits(), v.magnitude().to_u64_digits());
    cofactors_of_words(&u, &v)
}

/// [`cofactors`] for magnitudes as little-endian words (no leading zero words).
fn cofactors_of_words(u: &[u64], v: &[u64]) -> Option<[i64; 4]> {
    let shift = bits_of(u).saturating_sub(62);
    // x, y < 2^62 and the cofactors stay below 2^62 in absolute value (they are bounded by the
    // leading digits they come from), so every sum below fits an i64.
    let (mut x, mut y) = (bits_from(u, shift) as i64, bits_from(v, shift) as i64);
    let (mut a, mut b, mut c, mut d): (i64, i64, i64, i64) = (1, 0, 0, 1);
    while y + c != 0 && y + d != 0 {
        let q = (x + a) / (y + c);
        if q != (x + b) / (y + d) {
            break;
        }
        (a, c) = (c, a - q * c);
        (b, d) = (d, b - q * d);
        (x, y) = (y, x - q * y);
    }
    if b == 0 {
        return None;
    }
    Some([a, b, c, d])
}

/// `a x + b y`, with each product a big-by-word multiplication of magnitudes.
pub(crate) fn combine(a: i64, x: &BigInt, b: i64, y: &BigInt) -> BigInt {
    let term = |c: i64, v: &BigInt| -> BigInt {
        let sign = if c < 0 { -v.sign() } else { v.sign() };
        BigInt::from_biguint(sign, v.magnitude() * c.unsigned_abs())
    };
    term(a, x) + term(b, y)
}

/// Little-endian words as a big integer.
fn from_words(x: &[u64]) -> BigUint {
    BigUint::new(
        x.iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect(),
    )
}

/// Drops leading zero words.
fn trim(x: &mut Vec<u64>) {
    while x.last() == Some(&0) {
        x.pop();
    }
}

/// The greatest common divisor of `a` and `b` (non-negative; `gcd(0, 0) = 0`), by Lehmer steps
/// while the numbers are big and machine words at the end.
///
/// The numbers are kept as vectors of words and each Lehmer step `(u, v) <- (a u + b v,
/// c u + d v)` is one pass over them in place, both results at once: per word two signed
/// 64 x 64-bit products per result, summed with the carry in 128 bits (the cofactors are below
/// 2^62 in absolute value, so every sum stays below 2^127), and no allocation.
pub fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    let (mut u, mut v) = (a.magnitude().to_u64_digits(), b.magnitude().to_u64_digits());
    let less = |x: &[u64], y: &[u64]| {
        x.len() < y.len() || (x.len() == y.len() && x.iter().rev().lt(y.iter().rev()))
    };
    if less(&u, &v) {
        std::mem::swap(&mut u, &mut v);
    }
    // u >= v >= 0 throughout, without leading zero words.
    loop {
        if v.is_empty() {
            return BigInt::from(from_words(&u));
        }
        if u.len() == 1 {
            return BigInt::from(u[0].gcd(&v[0]));
        }
        match cofactors_of_words(&u, &v) {
            Some([a, b, c, d]) => {
                v.resize(u.len(), 0);
                // Each row of the matrix has one coefficient >= 0 and one <= 0 (the cofactors
                // alternate in sign), so each result is a difference of two unsigned 64 x 64-bit
                // products (each below 2^126) plus a carry: single multiplications, no overflow.
                debug_assert!(a.signum() * b.signum() <= 0 && c.signum() * d.signum() <= 0);
                let row = |x: i64, y: i64| (x > 0 || y < 0, x.unsigned_abs(), y.unsigned_abs());
                let ((a_pos, a, b), (c_pos, c, d)) = (row(a, b), row(c, d));
                let (mut carry_u, mut carry_v) = (0i128, 0i128);
                for (x, y) in u.iter_mut().zip(v.iter_mut()) {
                    let (ux, vy) = (u128::from(*x), u128::from(*y));
                    let (p, q) = ((a as u128 * ux) as i128, (b as u128 * vy) as i128);
                    let nu = if a_pos { p - q } else { q - p } + carry_u;
                    let (p, q) = ((c as u128 * ux) as i128, (d as u128 * vy) as i128);
                    let nv = if c_pos { p - q } else { q - p } + carry_v;
                    *x = nu as u64;
                    *y = nv as u64;
                    carry_u = nu >> 64;
                    carry_v = nv >> 64;
                }
                debug_assert!(carry_u == 0 && carry_v == 0, "remainders are nonnegative");
                trim(&mut u);
                trim(&mut v);
            }
            None => {
                let r = from_words(&u) % from_words(&v);
                u = std::mem::replace(&mut v, r.to_u64_digits());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;
    use proptest::prelude::*;

    #[test]
    fn gcd_of_known_products() {
        // gcd(2^200 3^50 7, 2^150 3^80 11) = 2^150 3^50, by the factorisations.
        let two = BigInt::from(2);
        let three = BigInt::from(3);
        let a = two.pow(200) * three.pow(50) * 7;
        let b = two.pow(150) * three.pow(80) * 11;
        assert_eq!(gcd(&a, &b), two.pow(150) * three.pow(50));
        assert_eq!(gcd(&-a.clone(), &b), gcd(&a, &b));
        assert_eq!(gcd(&a, &BigInt::zero()), a);
        assert_eq!(gcd(&BigInt::zero(), &BigInt::zero()), BigInt::zero());
        // Consecutive Fibonacci numbers: coprime, and the longest Euclidean chains.
        let (mut f, mut g) = (BigInt::from(0), BigInt::from(1));
        for _ in 0..500 {
            (f, g) = (g.clone(), f + g);
        }
        assert_eq!(gcd(&f, &g), BigInt::from(1));
    }

    fn big(digits: &[u64]) -> BigInt {
        BigInt::from(num_bigint::BigUint::new(
            digits
                .iter()
                .flat_map(|&d| [d as u32, (d >> 32) as u32])
                .collect(),
        ))
    }

    proptest! {
        #[test]
        fn gcd_agrees_with_the_binary_algorithm(
            x in proptest::collection::vec(any::<u64>(), 0..8),
            y in proptest::collection::vec(any::<u64>(), 0..8),
            z in proptest::collection::vec(any::<u64>(), 0..4),
        ) {
            // A shared factor z makes the gcd nontrivial.
            let (x, y, z) = (big(&x), big(&y), big(&z) + 1u32);
            let a: BigInt = x * &z;
            let b: BigInt = -(y * &z);
            prop_assert_eq!(gcd(&a, &b), a.gcd(&b));
        }
    }
}
