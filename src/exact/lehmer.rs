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

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, Zero};

/// The 62 bits of `|x|` from bit `shift` up (the caller picks `shift` so that they are the
/// leading ones of the larger operand), without allocating.
fn bits_from(x: &BigInt, shift: u64) -> u64 {
    let (word, offset) = ((shift / 64) as usize, shift % 64);
    let mut digits = x.magnitude().iter_u64_digits().skip(word);
    let lo = digits.next().unwrap_or(0);
    let hi = digits.next().unwrap_or(0);
    let both = (u128::from(hi) << 64) | u128::from(lo);
    ((both >> offset) as u64) & ((1 << 62) - 1)
}

/// Lehmer's step: the Euclidean quotients of `u > v > 0` that their leading 62 bits already
/// decide, as the matrix `[[a, b], [c, d]]` that maps `(u, v)` to a later pair of consecutive
/// remainders `(a u + b v, c u + d v)`; `None` when not even the first quotient is decided
/// (then one division step is the way on).
pub(crate) fn cofactors(u: &BigInt, v: &BigInt) -> Option<[i64; 4]> {
    let shift = u.bits().saturating_sub(62);
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

/// The greatest common divisor of `a` and `b` (non-negative; `gcd(0, 0) = 0`), by Lehmer steps
/// while the numbers are big and machine words at the end.
pub fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    let (mut u, mut v) = (a.abs(), b.abs());
    if u < v {
        std::mem::swap(&mut u, &mut v);
    }
    // u >= v >= 0 throughout.
    while !v.is_zero() {
        if let (Ok(x), Ok(y)) = (u64::try_from(&u), u64::try_from(&v)) {
            return BigInt::from(x.gcd(&y));
        }
        match cofactors(&u, &v) {
            Some([a, b, c, d]) => {
                let next_v = combine(c, &u, d, &v);
                u = combine(a, &u, b, &v);
                v = next_v;
            }
            _ => {
                let r = &u % &v;
                u = std::mem::replace(&mut v, r);
            }
        }
    }
    u
}

#[cfg(test)]
mod tests {
    use super::*;
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
