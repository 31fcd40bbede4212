//! Rational reconstruction: a p-adic number `s mod p^k` (from its digits) back to the unique
//! fraction within the Hadamard and Cramer bounds, by the half-extended Euclidean algorithm of
//! [`crate::num::gcd`] (P. S. Wang, *A p-adic algorithm for univariate partial fractions*,
//! SYMSAC 1981; von zur Gathen and Gerhard, *Modern Computer Algebra*, section 5.10), or first
//! by a known denominator. Shared by the three lifting routes (`lift.rs`, `vector.rs`,
//! `verified.rs`).

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::num::gcd;

/// `sum_i t_i p^i mod p^k` for the k digits t (any size), in `0..p^k`: the digits are brought
/// into `0..p` with carries (the carry out of the top one is a multiple of p^k, dropped), then
/// converted by Horner's rule on 64-bit limbs (`p^k < 2^(64 k)`, so k limbs hold it).
pub(super) fn from_digits(t: &[i128], p: u64) -> BigInt {
    let p_i = i128::from(p);
    let mut carry: i128 = 0;
    let digits: Vec<u64> = t
        .iter()
        .map(|&ti| {
            // |t_i| < 2^126 and the carry is below 2^65 in absolute value: no overflow.
            let v = ti + carry;
            let d = v.rem_euclid(p_i);
            carry = (v - d) / p_i;
            d as u64
        })
        .collect();
    from_reduced_digits(&digits, p)
}

/// `sum_i d_i p^i` for digits d already in `0..p`, by Horner's rule on 64-bit limbs.
pub(super) fn from_reduced_digits(digits: &[u64], p: u64) -> BigInt {
    let mut limbs: Vec<u64> = Vec::with_capacity(digits.len());
    for &d in digits.iter().rev() {
        let mut c = u128::from(d);
        for l in &mut limbs {
            let x = u128::from(*l) * u128::from(p) + c;
            *l = x as u64;
            c = x >> 64;
        }
        if c != 0 {
            limbs.push(c as u64);
        }
    }
    let halves: Vec<u32> = limbs
        .iter()
        .flat_map(|&l| [l as u32, (l >> 32) as u32])
        .collect();
    BigInt::from(BigUint::new(halves))
}

/// `N / d` with `N = d s (mod m)` taken in `(-m/2, m/2]`, if `|N| <= 2^num_bits` and
/// `d <= 2^den_bits`: then it is the value (two fractions within the bounds that are both
/// congruent to s are equal, because `m > 2^(num_bits + den_bits + 1)`).
pub(super) fn with_denominator(
    s: &BigInt,
    m: &BigInt,
    d: &BigInt,
    num_bits: f64,
    den_bits: f64,
) -> Option<BigRational> {
    if d.bits() as f64 > den_bits.max(0.0).ceil() {
        return None;
    }
    let mut n = (s * d).mod_floor(m);
    if &n + &n > *m {
        n -= m;
    }
    if n.bits() as f64 > num_bits.max(0.0).ceil() {
        return None;
    }
    // N / d in lowest terms (d > 0).
    let g = gcd::gcd(&n, d);
    Some(if g.is_one() {
        BigRational::new_raw(n, d.clone())
    } else {
        BigRational::new_raw(n / &g, d / &g)
    })
}

/// [`reconstruct`], then the value's denominator folded into `common`, the lcm of the
/// denominators found so far (which later values try first, by [`with_denominator`]).
pub(super) fn reconstruct_into(
    s: &BigInt,
    m: &BigInt,
    p: u64,
    num_bits: f64,
    den_bits: f64,
    common: &mut Option<BigInt>,
) -> Option<BigRational> {
    let x = reconstruct(s, m, p, num_bits, den_bits)?;
    *common = Some(match common.take() {
        Some(l) => gcd::lcm(l, x.denom()),
        None => x.denom().clone(),
    });
    Some(x)
}

/// The fraction `N / D` with `|N| <= 2^num_bits`, `0 < D <= 2^den_bits` and `N = D s (mod m)`,
/// `m` a power of the prime p,
/// by the half-extended Euclidean algorithm; `None` if there is none (the caller guarantees
/// `m > 2^(num_bits + den_bits + 1)`, which makes it unique when it exists).
pub(super) fn reconstruct(
    s: &BigInt,
    m: &BigInt,
    p: u64,
    num_bits: f64,
    den_bits: f64,
) -> Option<BigRational> {
    let bound_n = BigUint::one() << (num_bits.max(0.0).ceil() as u64);
    let bound_d = BigUint::one() << (den_bits.max(0.0).ceil() as u64);
    let (r, t) = gcd::half_extended(m.magnitude(), s.magnitude(), &bound_n);
    if t.is_zero() || *t.magnitude() > bound_d {
        return None;
    }
    let (n, d) = if t.sign() == Sign::Minus {
        (-BigInt::from(r), -t)
    } else {
        (BigInt::from(r), t)
    };
    // `s_j m + t_j s = r_j` and gcd(s_j, t_j) = 1, so a common factor of r_j and t_j divides
    // m = p^k: when p does not divide the denominator the fraction is already in lowest terms.
    let p_free = !(&d % p).is_zero();
    if p_free {
        return Some(BigRational::new_raw(n, d));
    }
    let g = gcd::gcd(&n, &d);
    Some(BigRational::new_raw(n / &g, d / &g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_of_any_size_and_sign_give_the_residue_modulo_p_to_the_k() {
        // Against Horner's rule on big integers and a floor modulo: digits near the 2^126
        // limit, negative ones, and a carry out of the top digit (which must be dropped).
        let p: u64 = (1 << 62) - 57;
        let big = (1i128 << 125) + 12345;
        let cases: [&[i128]; 5] = [
            &[0],
            &[5, 7, 11],
            &[-1, -1, -1, -1],
            &[big, -big, big, 3, -7],
            &[i128::from(p) - 1, i128::from(p) * 5, -(1i128 << 100), big],
        ];
        for t in cases {
            let mut s = BigInt::zero();
            for &ti in t.iter().rev() {
                s = s * p + ti;
            }
            let m = BigInt::from(p).pow(t.len() as u32);
            assert_eq!(from_digits(t, p), s.mod_floor(&m), "digits {t:?}");
        }
    }

    #[test]
    fn reconstruction_recovers_large_fractions_through_lehmer_steps() {
        // N = 3^190 (302 bits) and D = 7^100 + 2 (281 bits), coprime (D is odd and 7^100 + 2 is
        // 2 mod 3), modulo m = p^12 (744 bits > 302 + 281 + 1): the Euclidean algorithm runs
        // through Lehmer steps (remainders above 128 bits) and single steps near the bound.
        let p: u64 = (1 << 62) - 57;
        let m = BigInt::from(p).pow(12);
        let phi: BigInt = BigInt::from(p).pow(11) * (p - 1);
        let n: BigInt = BigInt::from(3).pow(190);
        let d: BigInt = BigInt::from(7).pow(100) + 2;
        let d_inv = d.modpow(&(phi - 1), &m);
        for sign in [BigInt::one(), -BigInt::one()] {
            let s = (&n * &sign * &d_inv).mod_floor(&m);
            let got = reconstruct(&s, &m, p, 302.0, 281.0).expect("within the bounds");
            assert_eq!(got, BigRational::new(&n * &sign, d.clone()));
        }
        // Bounds too small for the fraction: nothing within them.
        let s = (&n * &d_inv).mod_floor(&m);
        assert_eq!(reconstruct(&s, &m, p, 250.0, 250.0), None);
    }

    #[test]
    fn reconstruction_recovers_small_fractions() {
        // 22/7 modulo 10007^2: 7^-1 exists; N = 22, D = 7 are within 2^5 and 2^3.
        let m = BigInt::from(10007u64 * 10007);
        let inv7 = BigInt::from(7).modpow(&(BigInt::from(10007u64 * 10006) - 1), &m);
        let s = (BigInt::from(22) * inv7).mod_floor(&m);
        assert_eq!(
            reconstruct(&s, &m, 10007, 5.0, 3.0),
            Some(BigRational::new(22.into(), 7.into()))
        );
        // A negative numerator: -22/7.
        let s = (&m - &s).mod_floor(&m);
        assert_eq!(
            reconstruct(&s, &m, 10007, 5.0, 3.0),
            Some(BigRational::new((-22).into(), 7.into()))
        );
    }
}
