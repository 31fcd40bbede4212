//! The roots of the denominator D(z) with their multiplicities, exactly: the squarefree
//! decomposition `D = c f_1 f_2^2 ... f_k^k`, each `f_i` squarefree, the `f_i` pairwise coprime
//! (Yun's algorithm over the rationals), so a root of D of multiplicity m is a simple root of
//! exactly one factor, `f_m`, where that factor changes sign.
//!
//! # Method
//!
//! Yun (D. Y. Y. Yun, *On square-free decomposition algorithms*, SYMSAC 1976): with
//! `a_0 = gcd(D, D')`, `b_1 = D / a_0`, `c_1 = D' / a_0`, `d_i = c_i - b_i'`, the factors are
//! `f_i = gcd(b_i, d_i)`, `b_(i+1) = b_i / f_i`, `c_(i+1) = d_i / f_i`, until `b = 1`. All
//! in integer polynomials: the gcds by the primitive remainder sequence (each pseudo-remainder
//! divided by the gcd of its coefficients), the quotients exact (a primitive divisor over the
//! rationals leaves an integer quotient, Gauss's lemma). Euclid over the rationals, as first
//! written, spent 220 s on a degree-37 denominator with 90-digit coefficients (the fractions'
//! gcds); this takes milliseconds.
//!
//! Most denominators are squarefree, so a modular test comes first: if for a word
//! prime p not dividing D's leading coefficient `gcd(D mod p, D' mod p) = 1`, D is squarefree
//! over the rationals (a common factor g of D and D' over the rationals can be taken primitive
//! with integer coefficients dividing both (Gauss's lemma); its leading coefficient divides
//! D's, so g mod p keeps its degree and divides both residues).

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use super::modular::content;
use crate::num::modular::{inv_mod, mul_mod, primes, residue};

/// The largest degree decomposed exactly when the modular test cannot show D squarefree (the
/// remainder sequence's cost grows with the degree); above it no multiplicity is claimed.
pub const MAX_RATIONAL_DEGREE: usize = 200;

/// An integer polynomial, from `z^0` up, no trailing zeros (`[]` is 0).
type Poly = Vec<BigInt>;

fn trim(mut p: Poly) -> Poly {
    while p.last().is_some_and(Zero::is_zero) {
        p.pop();
    }
    p
}

/// The derivative of an integer polynomial.
pub fn derivative(p: &[BigInt]) -> Vec<BigInt> {
    p.iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| c * BigInt::from(i))
        .collect()
}

/// `p` divided by the gcd of its coefficients, leading coefficient positive (`[]` for 0).
fn primitive_part(p: Poly) -> Poly {
    let p = trim(p);
    let Some(lead) = p.last() else {
        return p;
    };
    let g = content(&p);
    let g = if lead.is_negative() { -g } else { g };
    match g.is_one() {
        true => p,
        false => p.iter().map(|c| c / &g).collect(),
    }
}

/// The pseudo-remainder of `a` by `b` (b not 0): `lc(b)^(deg a - deg b + 1) a` reduced by
/// multiples of b to degree below b's, all in integers (the remainder of the sequence's
/// steps, up to a constant).
fn pseudo_remainder(a: &[BigInt], b: &[BigInt]) -> Poly {
    let mut r: Poly = a.to_vec();
    let lead = b.last().expect("b is not 0");
    while r.len() >= b.len() {
        let top = r.pop().expect("r is longer than b");
        let shift = r.len() + 1 - b.len();
        if !top.is_zero() {
            for c in r.iter_mut() {
                *c *= lead;
            }
            for (i, c) in b[..b.len() - 1].iter().enumerate() {
                r[shift + i] -= &top * c;
            }
        }
        r = trim(r);
    }
    r
}

/// The gcd of two integer polynomials as a primitive polynomial with a positive leading
/// coefficient (the primitive remainder sequence: each pseudo-remainder divided by its content,
/// so the coefficients stay as short as the gcd's, unlike Euclid over the rationals, whose
/// fractions grew to megabits on a degree-37 denominator with long coefficients).
fn gcd(a: &[BigInt], b: &[BigInt]) -> Poly {
    let (mut a, mut b) = (primitive_part(a.to_vec()), primitive_part(b.to_vec()));
    if a.len() < b.len() {
        std::mem::swap(&mut a, &mut b);
    }
    while !b.is_empty() {
        let r = primitive_part(pseudo_remainder(&a, &b));
        a = b;
        b = r;
    }
    a
}

/// `a / b` when b divides a with an integer quotient (always so when b is primitive and divides
/// a over the rationals, by Gauss's lemma); `None` otherwise.
fn exact_quotient(a: &[BigInt], b: &[BigInt]) -> Option<Poly> {
    let mut r: Poly = trim(a.to_vec());
    let lead = b.last().expect("b is not 0");
    if r.len() < b.len() {
        return r.is_empty().then(Vec::new);
    }
    let mut q = vec![BigInt::zero(); r.len() + 1 - b.len()];
    for shift in (0..q.len()).rev() {
        let top = &r[shift + b.len() - 1];
        if top.is_zero() {
            continue;
        }
        let (f, rest) = top.div_rem(lead);
        if !rest.is_zero() {
            return None;
        }
        for (i, c) in b.iter().enumerate() {
            r[shift + i] -= &f * c;
        }
        q[shift] = f;
    }
    trim(r).is_empty().then(|| trim(q))
}

/// `gcd(p mod q, p' mod q)` has degree 0 for some word prime q not dividing p's leading
/// coefficient: p is then squarefree over the rationals (module documentation).
fn squarefree_mod_prime(p: &[BigInt]) -> bool {
    let Some(lead) = p.last() else {
        return false;
    };
    primes()
        .filter(|&q| residue(lead, q) != 0)
        .take(3)
        .any(|q| {
            let a: Vec<u64> = p.iter().map(|c| residue(c, q)).collect();
            let b: Vec<u64> = derivative(p).iter().map(|c| residue(c, q)).collect();
            gcd_mod_degree(a, b, q) == 0
        })
}

fn trim_mod(mut p: Vec<u64>) -> Vec<u64> {
    while p.last() == Some(&0) {
        p.pop();
    }
    p
}

/// The degree of `gcd(a, b)` modulo the prime q (a not 0).
fn gcd_mod_degree(a: Vec<u64>, b: Vec<u64>, q: u64) -> usize {
    let (mut a, mut b) = (trim_mod(a), trim_mod(b));
    while !b.is_empty() {
        let inv = inv_mod(*b.last().expect("not 0"), q);
        while a.len() >= b.len() {
            let f = mul_mod(*a.last().expect("not 0"), inv, q);
            let shift = a.len() - b.len();
            for (i, c) in b.iter().enumerate() {
                a[shift + i] = (a[shift + i] + q - mul_mod(f, *c, q)) % q;
            }
            a = trim_mod(a);
            if a.is_empty() {
                break;
            }
        }
        std::mem::swap(&mut a, &mut b);
    }
    a.len().saturating_sub(1)
}

/// The squarefree decomposition of a nonconstant integer polynomial: `factors[i]` is `f_(i+1)`
/// as a primitive integer polynomial (`[1]` when no root has multiplicity i + 1), so that p is
/// a constant times `prod f_i^i`. `None` when p is not shown squarefree modulo a prime and its
/// degree exceeds [`MAX_RATIONAL_DEGREE`].
pub fn squarefree_decomposition(p: &[BigInt]) -> Option<Vec<Vec<BigInt>>> {
    if squarefree_mod_prime(p) {
        return Some(vec![p.to_vec()]);
    }
    if p.len() > MAX_RATIONAL_DEGREE + 1 {
        return None;
    }
    // Yun's steps in integers: every quotient below is exact by Gauss's lemma (the divisors are
    // primitive and divide over the rationals), and b and c carry the same constant factor, so
    // d = c - b' is d_i up to that constant.
    let dp = derivative(p);
    let a0 = gcd(p, &dp);
    let mut b = exact_quotient(p, &a0)?;
    let mut c = exact_quotient(&dp, &a0)?;
    let mut factors = Vec::new();
    while b.len() > 1 {
        let db = derivative(&b);
        let d = trim(
            (0..c.len().max(db.len()))
                .map(|i| {
                    let ci = c.get(i).cloned().unwrap_or_else(BigInt::zero);
                    ci - db.get(i).cloned().unwrap_or_else(BigInt::zero)
                })
                .collect(),
        );
        let f = gcd(&b, &d);
        b = exact_quotient(&b, &f)?;
        c = exact_quotient(&d, &f)?;
        factors.push(f);
    }
    Some(factors)
}

/// `p / f^m` for f^m dividing p: `(g, l)` with `p = f^m g / l`, g integer, l > 0 (l = 1 when
/// f is primitive, by Gauss's lemma; otherwise each division is a pseudo-division).
pub fn cofactor(p: &[BigInt], f: &[BigInt], m: usize) -> (Vec<BigInt>, BigInt) {
    let lead = f.last().expect("f is not 0");
    let mut g = p.to_vec();
    let mut l = BigInt::one();
    for _ in 0..m {
        if let Some(q) = exact_quotient(&g, f) {
            g = q;
            continue;
        }
        // lead^(deg g - deg f + 1) g is a multiple of f with an integer quotient.
        let scale = num_traits::pow(lead.clone(), g.len() + 1 - f.len());
        g = g.iter().map(|c| c * &scale).collect();
        l *= scale;
        g = exact_quotient(&g, f).expect("f^m divides p");
    }
    match l.is_negative() {
        true => (g.iter().map(|c| -c).collect(), -l),
        false => (g, l),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Vec<BigInt> {
        v.iter().map(|&x| BigInt::from(x)).collect()
    }

    fn times(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
        let mut out = vec![BigInt::zero(); a.len() + b.len() - 1];
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                out[i + j] += x * y;
            }
        }
        out
    }

    #[test]
    fn the_tiny_denominator_is_a_double_root_at_two() {
        // D(z) = z^2 - 4z + 4 = (z - 2)^2 (the tiny board, by hand): no simple roots, one
        // double root, f_2 = z - 2.
        let f = squarefree_decomposition(&ints(&[4, -4, 1])).unwrap();
        assert_eq!(f, vec![ints(&[1]), ints(&[-2, 1])]);
    }

    #[test]
    fn a_product_of_known_factors_decomposes_into_them() {
        // p = 3 (z - 3) (z - 2)^2 (z^2 - 2)^3 (2z + 1)^3, multiplied out here: f_1 = z - 3,
        // f_2 = z - 2, f_3 = (z^2 - 2)(2z + 1) = 2z^3 + z^2 - 4z - 2, up to sign.
        let (f1, f2) = (ints(&[-3, 1]), ints(&[-2, 1]));
        let f3 = times(&ints(&[-2, 0, 1]), &ints(&[1, 2]));
        assert_eq!(f3, ints(&[-2, -4, 1, 2]));
        let mut p = ints(&[3]);
        for (f, m) in [(&f1, 1), (&f2, 2), (&f3, 3)] {
            for _ in 0..m {
                p = times(&p, f);
            }
        }
        let got = squarefree_decomposition(&p).unwrap();
        assert_eq!(got.len(), 3);
        for (g, want) in got.iter().zip([&f1, &f2, &f3]) {
            let neg: Vec<BigInt> = want.iter().map(|c| -c).collect();
            assert!(g == want || g == &neg, "{g:?} vs {want:?}");
        }
        // And the cofactor of f_2^2 is 3 (z - 3) (z^2 - 2)^3 (2z + 1)^3 over 1.
        let (g, l) = cofactor(&p, &f2, 2);
        let mut want = times(&ints(&[3]), &f1);
        for _ in 0..3 {
            want = times(&want, &f3);
        }
        assert_eq!((g, l), (want, BigInt::one()));
    }

    #[test]
    fn a_squarefree_polynomial_is_one_factor() {
        // z^2 - 2 has the simple roots +-sqrt 2, and the modular test sees it.
        let p = ints(&[-2, 0, 1]);
        assert!(squarefree_mod_prime(&p));
        assert_eq!(squarefree_decomposition(&p), Some(vec![p.clone()]));
        // (z - 1)^2 is not squarefree modulo any prime.
        assert!(!squarefree_mod_prime(&ints(&[1, -2, 1])));
    }
}
