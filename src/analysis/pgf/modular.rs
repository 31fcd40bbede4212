//! The minimal linear recurrence of an integer sequence, found modulo word primes and proved
//! over the integers.
//!
//! # Method
//!
//! The sequence is `s_k = e M^k r` with M an n x n matrix of nonnegative integers whose row sums
//! are at most D (and e, r integer vectors). Its minimal polynomial over the rationals divides
//! the characteristic polynomial of M, which is monic with integer coefficients, so (Gauss's
//! lemma) it is monic with integer coefficients too, of degree L <= n. Written as a connection
//! polynomial `C(x) = 1 + c_1 x + ... + c_L x^L` (`s_k + c_1 s_(k-1) + ... + c_L s_(k-L) = 0`
//! for k >= L), each `c_i` is, up to sign, an elementary symmetric function of L eigenvalues of
//! M, all of modulus at most D, so `|c_i| <= binomial(L, i) D^i <= (1 + D)^L`.
//!
//! For each prime p (below 2^62) the Berlekamp-Massey algorithm (J. L. Massey, *Shift-register
//! synthesis and BCH decoding*, IEEE Trans. Inform. Theory 15, 1969) finds the minimal
//! connection polynomial of `s mod p` from 2n terms. Reduction mod p can only lower the linear
//! complexity (the rank of the Hankel matrix), so the primes giving the largest L are kept and
//! their polynomials combined by the Chinese remainder theorem (Garner's form) until the
//! product of the primes exceeds `2 (1 + D)^L`; symmetric residues then give the integers.
//!
//! The candidate is then checked exactly: if `C` annihilates `s_L, ..., s_(L+n-1)`, then `s`
//! and the sequence C generates from `s_0..s_(L-1)` agree on L + n terms and both satisfy the
//! product recurrence (order at most L + n), so they agree forever: the recurrence is proved.
//! It is minimal because the linear complexity over the rationals is at least the one mod p
//! (rank can only drop mod p), which is L.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use crate::num::modular::{inv_mod, mul_mod, primes, residue, symmetric, Garner, Mont};

/// The minimal connection polynomial of `s` modulo the prime p (p < 2^62): `(L, c)` with
/// `c[0] = 1`, `c.len() = L + 1` and `sum_i c_i s_(k-i) = 0 mod p` for `L <= k < s.len()`.
/// It is the minimal one of the whole sequence once `s.len() >= 2 L`.
pub fn berlekamp_massey(s: &[u64], p: u64) -> (usize, Vec<u64>) {
    let mut c: Vec<u64> = vec![1];
    let mut b: Vec<u64> = vec![1];
    let (mut l, mut shift, mut b_disc) = (0usize, 1usize, 1u64);
    for k in 0..s.len() {
        // The discrepancy: sum_{i <= l} c_i s_(k-i), accumulated in 128 bits (each product is
        // below 2^124, so eight fit before a reduction).
        let mut acc: u128 = 0;
        for (i, &ci) in c.iter().enumerate().take(l + 1) {
            acc += u128::from(ci) * u128::from(s[k - i]);
            if i % 8 == 7 {
                acc %= u128::from(p);
            }
        }
        let disc = (acc % u128::from(p)) as u64;
        if disc == 0 {
            shift += 1;
            continue;
        }
        let coef = mul_mod(disc, inv_mod(b_disc, p), p);
        let previous = (2 * l <= k).then(|| c.clone());
        if c.len() < b.len() + shift {
            c.resize(b.len() + shift, 0);
        }
        for (i, &bi) in b.iter().enumerate() {
            let t = mul_mod(coef, bi, p);
            let ci = &mut c[i + shift];
            *ci = if *ci >= t { *ci - t } else { *ci + p - t };
        }
        if let Some(prev) = previous {
            l = k + 1 - l;
            b = prev;
            b_disc = disc;
            shift = 1;
        } else {
            shift += 1;
        }
    }
    c.resize(l + 1, 0);
    (l, c)
}

/// Integers rebuilt from their residues modulo several primes (Garner's incremental form).
struct Crt {
    modulus: BigUint,
    /// Each value in `0..modulus`.
    values: Vec<BigUint>,
}

impl Crt {
    fn new(residues: &[u64], p: u64) -> Crt {
        Crt {
            modulus: BigUint::from(p),
            values: residues.iter().map(|&r| BigUint::from(r)).collect(),
        }
    }

    /// Adds the residues modulo one more prime.
    fn add(&mut self, residues: &[u64], p: u64) {
        let garner = Garner::new(Mont::new(p), &self.modulus);
        for (x, &r) in self.values.iter_mut().zip(residues) {
            garner.add(x, r);
        }
        self.modulus *= p;
    }

    /// The values as symmetric residues, in `(-modulus / 2, modulus / 2]`.
    fn symmetric(&self) -> Vec<BigInt> {
        let m = &self.modulus;
        self.values
            .iter()
            .map(|x| symmetric(x.clone(), m))
            .collect()
    }
}

/// True when `sum_i c_i s_(k-i) = 0` for every `L <= k < until`, decided in integers.
pub fn annihilates(c: &[BigInt], s: &[BigInt], until: usize) -> bool {
    let l = c.len() - 1;
    (l..until.min(s.len())).all(|k| {
        c.iter()
            .enumerate()
            .filter(|(_, ci)| !ci.is_zero())
            .fold(BigInt::zero(), |acc, (i, ci)| acc + ci * &s[k - i])
            .is_zero()
    })
}

/// What [`minimal_recurrence`] found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The connection polynomial `c_0 = 1, c_1, ..., c_L`.
    pub connection: Vec<BigInt>,
    /// How many primes it took.
    pub primes: usize,
}

/// The minimal connection polynomial of `s` (see the module documentation), proved.
///
/// `n` bounds the order (the size of M) and `d` the row sums of M; `s` must hold at least
/// `2 n` terms, all nonnegative.
///
/// # Panics
///
/// When `s` is shorter than `2 n`, or when no prime below 2^62 settles it (impossible for a
/// sequence of the form above).
pub fn minimal_recurrence(s: &[BigInt], n: usize, d: &BigInt) -> Found {
    assert!(s.len() >= 2 * n, "need 2n terms");
    let s = &s[..2 * n];
    let mut crt: Option<(usize, Crt)> = None;
    let stage = crate::progress::Stage::begin("recurrence modulo primes", None);
    for (index, p) in primes().enumerate() {
        stage.advance(index as u64);
        let residues: Vec<u64> = s.iter().map(|x| residue(x, p)).collect();
        let (l, c) = berlekamp_massey(&residues, p);
        match &mut crt {
            Some((best, acc)) if *best == l => acc.add(&c, p),
            Some((best, _)) if *best > l => continue, // an unlucky prime
            _ => crt = Some((l, Crt::new(&c, p))),
        }
        let (l, acc) = crt.as_ref().expect("set above");
        let bound = (BigInt::one() + d.abs()).pow(*l as u32);
        if acc.modulus <= (bound.magnitude() << 1u32) {
            continue;
        }
        let c = acc.symmetric();
        if annihilates(&c, s, l + n) {
            return Found {
                connection: c,
                primes: index + 1,
            };
        }
    }
    unreachable!("the primes below 2^62 settle every sequence of this form")
}

/// The greatest common divisor of the integers, nonnegative (0 for none).
pub fn content<'a>(values: impl IntoIterator<Item = &'a BigInt>) -> BigInt {
    values
        .into_iter()
        .fold(BigInt::zero(), |g, v| if g.is_one() { g } else { g.gcd(v) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn berlekamp_massey_finds_fibonacci() {
        // F_k: F_k - F_(k-1) - F_(k-2) = 0, so C = 1 - x - x^2.
        let p = 1_000_000_007;
        let s: Vec<u64> = vec![0, 1, 1, 2, 3, 5, 8, 13, 21, 34];
        let (l, c) = berlekamp_massey(&s, p);
        assert_eq!(l, 2);
        assert_eq!(c, vec![1, p - 1, p - 1]);
    }

    #[test]
    fn berlekamp_massey_counts_leading_zeros() {
        // 0, 0, 1, 0, 0, ...: linear complexity 3 (C = 1, every term from the third on is 0
        // except one), the textbook case the Hankel leading minors miss.
        let p = 1_000_000_007;
        let (l, c) = berlekamp_massey(&[0, 0, 1, 0, 0, 0, 0, 0], p);
        assert_eq!(l, 3);
        assert_eq!(c, vec![1, 0, 0, 0]);
    }

    #[test]
    fn the_recurrence_of_two_to_the_k_minus_one_is_rebuilt_over_the_integers() {
        // s_k = 2^k - 1 = e M^k r for M = [[2, 0], [0, 1]] (row sums <= 2): minimal polynomial
        // (x - 2)(x - 1) = x^2 - 3x + 2, so C = 1 - 3x + 2x^2.
        let s: Vec<BigInt> = (0..4).map(|k| BigInt::from((1u64 << k) - 1)).collect();
        let found = minimal_recurrence(&s, 2, &BigInt::from(2));
        let want: Vec<BigInt> = [1, -3, 2].iter().map(|&v| BigInt::from(v)).collect();
        assert_eq!(found.connection, want);
    }

    #[test]
    fn crt_rebuilds_negative_numbers() {
        let (p, q) = (1_000_000_007u64, 998_244_353u64);
        let x = BigInt::from(-123_456_789_012_345i64);
        let mut crt = Crt::new(&[residue(&x, p)], p);
        crt.add(&[residue(&x, q)], q);
        assert_eq!(crt.symmetric(), vec![x]);
    }
}
