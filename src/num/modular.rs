//! Arithmetic modulo a word-size prime, for the solver's multi-modular and p-adic routes and the
//! generating function's recurrence search: residues of words and big integers, products and
//! inverses, Montgomery multiplication ([`Mont`]), one Garner step of the Chinese remainder
//! theorem ([`Garner`]) with symmetric residues, the deterministic Miller-Rabin test and the
//! stream of primes below 2^62 both draw from. Part of the foundation: imports nothing else in
//! the crate but `num`.

use num_bigint::{BigInt, BigUint, Sign};

/// The residue of v in `0..p`.
pub(crate) fn residue_i64(v: i64, p: u64) -> u64 {
    let r = v.unsigned_abs() % p;
    if v < 0 && r != 0 {
        p - r
    } else {
        r
    }
}

/// `x mod p` for a word-size `p`, without allocating.
pub(crate) fn biguint_mod(x: &BigUint, p: u64) -> u64 {
    let mut r: u128 = 0;
    for d in x.iter_u64_digits().rev() {
        r = ((r << 64) | u128::from(d)) % u128::from(p);
    }
    r as u64
}

/// The residue of a nonnegative or negative integer in `0..p`.
pub(crate) fn residue(x: &BigInt, p: u64) -> u64 {
    let r = biguint_mod(x.magnitude(), p);
    if x.sign() == Sign::Minus && r != 0 {
        p - r
    } else {
        r
    }
}

/// `a b mod p`.
pub(crate) fn mul_mod(a: u64, b: u64, p: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) % u128::from(p)) as u64
}

/// `a^-1 mod p` for a prime p < 2^63 and `a` not divisible by p: the extended Euclidean
/// algorithm on words (about 40 division steps, against 120 products for Fermat's `a^(p-2)`).
pub(crate) fn inv_mod(a: u64, p: u64) -> u64 {
    // r0, r1 < p < 2^63, and the cofactors stay below p in absolute value.
    let (mut r0, mut r1) = (p as i64, (a % p) as i64);
    let (mut t0, mut t1) = (0i64, 1i64);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    debug_assert_eq!(r0, 1, "p is prime and a is not a multiple of p");
    if t0 < 0 {
        (t0 + p as i64) as u64
    } else {
        t0 as u64
    }
}

/// Arithmetic modulo an odd prime p < 2^62 in Montgomery form (R = 2^64): one 128-bit product
/// and no division per multiplication (P. L. Montgomery, *Modular multiplication without trial
/// division*, Math. Comp. 44, 1985).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mont {
    pub(crate) p: u64,
    /// -p^-1 mod 2^64.
    neg_inv: u64,
    /// R mod p.
    pub(crate) r1: u64,
    /// R^2 mod p.
    r2: u64,
    /// R^3 mod p.
    r3: u64,
}

impl Mont {
    pub(crate) fn new(p: u64) -> Mont {
        let inv = super::limbs::inverse_mod_word(p);
        let r = ((1u128 << 64) % u128::from(p)) as u64;
        let r2 = ((u128::from(r) * u128::from(r)) % u128::from(p)) as u64;
        let r3 = ((u128::from(r2) * u128::from(r)) % u128::from(p)) as u64;
        Mont {
            p,
            neg_inv: inv.wrapping_neg(),
            r1: r,
            r2,
            r3,
        }
    }

    #[inline]
    pub(crate) fn redc(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.neg_inv);
        let u = ((t + u128::from(m) * u128::from(self.p)) >> 64) as u64;
        if u >= self.p {
            u - self.p
        } else {
            u
        }
    }

    #[inline]
    pub(crate) fn mul(&self, a: u64, b: u64) -> u64 {
        self.redc(u128::from(a) * u128::from(b))
    }

    #[inline]
    pub(crate) fn sub(&self, a: u64, b: u64) -> u64 {
        if a >= b {
            a - b
        } else {
            a + self.p - b
        }
    }

    pub(crate) fn enter(&self, a: u64) -> u64 {
        self.mul(a, self.r2)
    }

    #[inline]
    pub(crate) fn add(&self, a: u64, b: u64) -> u64 {
        self.sub(a, self.p - b)
    }

    /// `(acc + sum_k a_k y[c_k]) R^-1 mod p` (a product in Montgomery form when one side is),
    /// for values below p < 2^62 and `acc` one such product: the products (each below 2^124)
    /// summed in 128 bits, then folded to `lo + hi (R mod p)`, which is below `p R` (no
    /// division), and reduced once. Fifteen products fit in 128 bits from zero; after a fold
    /// (below 2^126) eleven more do.
    #[inline(always)]
    pub(crate) fn dot_from(&self, acc: u128, a: &[u64], c: &[u32], y: &[u64]) -> u64 {
        let fold = |t: u128| -> u128 {
            u128::from(t as u64) + u128::from((t >> 64) as u64) * u128::from(self.r1)
        };
        let mut acc = acc;
        if a.len() <= 14 {
            // The usual row: no fold needed on the way.
            for (&x, &j) in a.iter().zip(c) {
                acc += u128::from(x) * u128::from(y[j as usize]);
            }
            return self.redc(fold(acc));
        }
        let mut room = 14;
        for (&x, &j) in a.iter().zip(c) {
            if room == 0 {
                acc = fold(acc);
                room = 11;
            }
            acc += u128::from(x) * u128::from(y[j as usize]);
            room -= 1;
        }
        self.redc(fold(acc))
    }

    /// `x mod p` for `|x| < 2^123` (with p > 2^61): `x + p 2^62` lies in `(0, p 2^63)`, below
    /// `p R`, so one reduction gives `x R^-1 mod p` and a product with `R^2` gives x.
    #[inline]
    pub(crate) fn reduce_i128(&self, x: i128) -> u64 {
        debug_assert!(self.p > 1 << 61 && x.unsigned_abs() < 1 << 123);
        let t = (x + (i128::from(self.p) << 62)) as u128;
        self.mul(self.redc(t), self.r2)
    }

    pub(crate) fn leave(&self, a: u64) -> u64 {
        self.redc(u128::from(a))
    }

    /// The inverse of a nonzero element, in Montgomery form: [`inv_mod`] gives `a^-1 = x^-1 R^-1`
    /// for `a = x R`, and a product with `R^3` turns it into `x^-1 R`.
    pub(crate) fn inv(&self, a: u64) -> u64 {
        debug_assert!(a != 0 && a < self.p);
        self.mul(inv_mod(a, self.p), self.r3)
    }
}

/// Deterministic Miller-Rabin for 64-bit integers (the first twelve primes as bases suffice
/// below 3.3 * 10^24: Sorenson and Webster, Math. Comp. 86, 2017).
fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for &b in &BASES {
        if n % b == 0 {
            return n == b;
        }
    }
    let mm = |a: u64, b: u64| mul_mod(a, b, n);
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    'bases: for &a in &BASES {
        let mut x = 1u64;
        let (mut base, mut e) = (a, d);
        while e > 0 {
            if e & 1 == 1 {
                x = mm(x, base);
            }
            base = mm(base, base);
            e >>= 1;
        }
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mm(x, x);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// The first primes below 2^62, as `2^62 - offset` (listed by SymPy's `prevprime`; the test
/// `the_prime_table_is_what_the_generator_finds` checks them against [`is_prime`]). Testing
/// candidates costs about as much as solving a 100-square board, so the common cases skip it.
const PRIME_OFFSETS: [u64; 48] = [
    57, 87, 117, 143, 153, 167, 171, 195, 203, 273, 287, 317, 443, 483, 495, 575, 581, 603, 633,
    663, 765, 773, 777, 791, 813, 831, 923, 981, 993, 1001, 1007, 1017, 1197, 1241, 1293, 1353,
    1433, 1515, 1553, 1575, 1581, 1595, 1617, 1673, 1697, 1701, 1703, 1823,
];

/// The primes below 2^62, largest first: the table, then Miller-Rabin on the odd numbers below.
pub(crate) struct Primes {
    table: usize,
    next: u64,
}

impl Iterator for Primes {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        if let Some(off) = PRIME_OFFSETS.get(self.table) {
            self.table += 1;
            return Some((1u64 << 62) - off);
        }
        while self.next > 3 {
            let c = self.next;
            self.next -= 2;
            if is_prime(c) {
                return Some(c);
            }
        }
        None
    }
}

/// The primes below 2^62, largest first.
pub(crate) fn primes() -> Primes {
    Primes {
        table: 0,
        next: (1u64 << 62) - PRIME_OFFSETS[PRIME_OFFSETS.len() - 1] - 2,
    }
}

/// `x mod p` for a big x, with Montgomery steps instead of 128-bit divisions.
pub(crate) fn big_mod(m: &Mont, x: &BigUint) -> u64 {
    let mut r = 0u64;
    for d in x.iter_u64_digits().rev() {
        // r * 2^64 + d (mod p): mul(r, R^2) = r R (mod p).
        let hi = m.mul(r, m.r2);
        let lo = d % m.p;
        r = m.sub(hi, m.p - lo);
        if r == m.p {
            r = 0;
        }
    }
    r
}

/// One Garner step modulo a new prime p: `x += M * ((r - x) / M mod p)` takes x from its residue
/// modulo M to the one modulo `M p` that is r modulo p.
pub(crate) struct Garner<'a> {
    m: Mont,
    modulus: &'a BigUint,
    /// `1 / M mod p`, in Montgomery form.
    m_inv: u64,
}

impl Garner<'_> {
    /// The step from the `modulus` M (prime to p) to `M p`, with `m` the arithmetic modulo p.
    pub(crate) fn new(m: Mont, modulus: &BigUint) -> Garner<'_> {
        let m_inv = m.inv(m.enter(big_mod(&m, modulus)));
        Garner { m, modulus, m_inv }
    }

    /// Takes x (in `0..M`) to the number in `0..M p` that is x modulo M and r modulo p.
    pub(crate) fn add(&self, x: &mut BigUint, r: u64) {
        let m = &self.m;
        let xr = big_mod(m, x);
        let t = m.leave(m.mul(m.enter(m.sub(r, xr)), self.m_inv));
        if t != 0 {
            *x += self.modulus * t;
        }
    }
}

/// The symmetric residue of x (in `0..modulus`): x, or `x - modulus` above half the modulus.
pub(crate) fn symmetric(x: BigUint, modulus: &BigUint) -> BigInt {
    if x > (modulus >> 1u32) {
        BigInt::from_biguint(Sign::Minus, modulus - x)
    } else {
        BigInt::from_biguint(Sign::Plus, x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn montgomery_inverses_are_inverses() {
        for p in primes().take(3) {
            let m = Mont::new(p);
            let one = m.enter(1);
            let x: u64 = 0x9e37_79b9_7f4a_7c15 % p;
            for a in [1, 2, 3, p - 1, p - 2, p / 2, x] {
                let am = m.enter(a);
                assert_eq!(m.mul(am, m.inv(am)), one, "a = {a}, p = {p}");
                // And in ordinary terms: a * a^-1 = 1 (mod p).
                let inv = m.leave(m.inv(am));
                assert_eq!((u128::from(a) * u128::from(inv)) % u128::from(p), 1);
            }
        }
    }

    #[test]
    fn primes_are_primes() {
        // 2^61 - 1 is a Mersenne prime; 2^62 - 57 is the largest prime below 2^62.
        assert!(is_prime((1 << 61) - 1));
        assert!(!is_prime((1 << 61) + 1)); // divisible by 3
        assert_eq!(primes().next(), Some((1u64 << 62) - 57));
    }

    #[test]
    fn the_prime_table_is_what_the_generator_finds() {
        let mut generated = Vec::new();
        let mut c = (1u64 << 62) - 1;
        while generated.len() < PRIME_OFFSETS.len() + 2 {
            if is_prime(c) {
                generated.push(c);
            }
            c -= 2;
        }
        let listed: Vec<u64> = primes().take(PRIME_OFFSETS.len() + 2).collect();
        assert_eq!(listed, generated);
    }
}
