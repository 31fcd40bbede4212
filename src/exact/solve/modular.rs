//! Residue arithmetic for the multi-modular and p-adic routes: integer entries that are machine
//! words when they fit ([`Int`]), Montgomery multiplication modulo a word-size prime ([`Mont`]),
//! the deterministic Miller-Rabin test and the stream of primes below 2^62 the solvers draw from.

use super::*;

/// The residue of v in `0..p`.
pub(super) fn residue_i64(v: i64, p: u64) -> u64 {
    let r = v.unsigned_abs() % p;
    if v < 0 && r != 0 {
        p - r
    } else {
        r
    }
}

/// An integer entry of a row-scaled system: a machine word when it fits.
#[derive(Clone, Debug)]
pub(super) enum Int {
    Small(i64),
    Big(BigInt),
}

impl Int {
    pub(super) fn from_big(x: BigInt) -> Int {
        match i64::try_from(&x) {
            Ok(v) => Int::Small(v),
            Err(_) => Int::Big(x),
        }
    }

    /// The residue in `0..p`.
    pub(super) fn residue(&self, p: u64) -> u64 {
        match self {
            Int::Small(v) => residue_i64(*v, p),
            Int::Big(v) => {
                let r = biguint_mod(v.magnitude(), p);
                if v.sign() == Sign::Minus && r != 0 {
                    p - r
                } else {
                    r
                }
            }
        }
    }
}

/// A sparse row of integers: (column, value).
pub(super) type IntRow = Vec<(u32, Int)>;

/// A sparse matrix of floats as rows of (column, value).
pub type FloatRows = [Vec<(usize, f64)>];

/// `x mod p` for a word-size `p`, without allocating.
pub(crate) fn biguint_mod(x: &BigUint, p: u64) -> u64 {
    let mut r: u128 = 0;
    for d in x.iter_u64_digits().rev() {
        r = ((r << 64) | u128::from(d)) % u128::from(p);
    }
    r as u64
}

/// Arithmetic modulo an odd prime p < 2^62 in Montgomery form (R = 2^64): one 128-bit product
/// and no division per multiplication (P. L. Montgomery, *Modular multiplication without trial
/// division*, Math. Comp. 44, 1985).
#[derive(Clone, Copy, Debug)]
pub(super) struct Mont {
    pub(super) p: u64,
    /// -p^-1 mod 2^64.
    pub(super) neg_inv: u64,
    /// R mod p.
    pub(super) r1: u64,
    /// R^2 mod p.
    pub(super) r2: u64,
    /// R^3 mod p.
    pub(super) r3: u64,
}

impl Mont {
    pub(super) fn new(p: u64) -> Mont {
        let inv = crate::num::limbs::inverse_mod_word(p);
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
    pub(super) fn redc(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.neg_inv);
        let u = ((t + u128::from(m) * u128::from(self.p)) >> 64) as u64;
        if u >= self.p {
            u - self.p
        } else {
            u
        }
    }

    #[inline]
    pub(super) fn mul(&self, a: u64, b: u64) -> u64 {
        self.redc(u128::from(a) * u128::from(b))
    }

    #[inline]
    pub(super) fn sub(&self, a: u64, b: u64) -> u64 {
        if a >= b {
            a - b
        } else {
            a + self.p - b
        }
    }

    pub(super) fn enter(&self, a: u64) -> u64 {
        self.mul(a, self.r2)
    }

    #[inline]
    pub(super) fn add(&self, a: u64, b: u64) -> u64 {
        self.sub(a, self.p - b)
    }

    /// `(acc + sum_k a_k y[c_k]) R^-1 mod p` (a product in Montgomery form when one side is),
    /// for values below p < 2^62 and `acc` one such product: the products (each below 2^124)
    /// summed in 128 bits, then folded to `lo + hi (R mod p)`, which is below `p R` (no
    /// division), and reduced once. Fifteen products fit in 128 bits from zero; after a fold
    /// (below 2^126) eleven more do.
    #[inline(always)]
    pub(super) fn dot_from(&self, acc: u128, a: &[u64], c: &[u32], y: &[u64]) -> u64 {
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
    pub(super) fn reduce_i128(&self, x: i128) -> u64 {
        debug_assert!(self.p > 1 << 61 && x.unsigned_abs() < 1 << 123);
        let t = (x + (i128::from(self.p) << 62)) as u128;
        self.mul(self.redc(t), self.r2)
    }

    pub(super) fn leave(&self, a: u64) -> u64 {
        self.redc(u128::from(a))
    }

    /// The inverse of a nonzero element, in Montgomery form: the extended Euclidean algorithm
    /// on words gives `a^-1 = x^-1 R^-1` for `a = x R`, and a product with `R^3` turns it into
    /// `x^-1 R`. (About 40 division steps, against 120 products for Fermat's `a^(p-2)`.)
    pub(super) fn inv(&self, a: u64) -> u64 {
        debug_assert!(a != 0 && a < self.p);
        // r0, r1 < p < 2^62, and the cofactors stay below p in absolute value.
        let (mut r0, mut r1) = (self.p as i64, a as i64);
        let (mut t0, mut t1) = (0i64, 1i64);
        while r1 != 0 {
            let q = r0 / r1;
            (r0, r1) = (r1, r0 - q * r1);
            (t0, t1) = (t1, t0 - q * t1);
        }
        debug_assert_eq!(r0, 1, "p is prime");
        let e = if t0 < 0 { t0 + self.p as i64 } else { t0 } as u64;
        self.mul(e, self.r3)
    }
}

/// Deterministic Miller-Rabin for 64-bit integers (the first twelve primes as bases suffice
/// below 3.3 * 10^24: Sorenson and Webster, Math. Comp. 86, 2017).
pub(super) fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for &b in &BASES {
        if n % b == 0 {
            return n == b;
        }
    }
    let mm = |a: u64, b: u64| ((u128::from(a) * u128::from(b)) % u128::from(n)) as u64;
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
pub(super) const PRIME_OFFSETS: [u64; 48] = [
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

pub(crate) fn primes() -> Primes {
    Primes {
        table: 0,
        next: (1u64 << 62) - PRIME_OFFSETS[PRIME_OFFSETS.len() - 1] - 2,
    }
}

/// `x mod p` for a big x, with Montgomery steps instead of 128-bit divisions.
pub(super) fn big_mod(m: &Mont, x: &BigUint) -> u64 {
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
