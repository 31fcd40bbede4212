//! Exact solutions of `(I - Q) x = b` over the transient states of a chain.
//!
//! # Formula
//!
//! For an absorbing chain with transient part Q, `N = (I - Q)^-1` is the fundamental matrix and
//! `x = N b` is the expected total reward to absorption when each turn from state i earns `b_i`
//! (Kemeny and Snell, *Finite Markov Chains*, 1960, chapter III). With `b = 1`, x is the expected
//! number of turns.
//!
//! [`SparseLu`] eliminates the variables from the last state to the first. States are numbered in
//! square order and moves mostly go forward, so when a variable is eliminated its row only refers
//! to squares below it that snakes (or bounces) lead back to, and fill stays small. `I - Q` is a
//! nonsingular M-matrix when every state can reach the finish, so every pivot is positive and no
//! pivoting is needed. [`solve_dense`] is plain Gaussian elimination, kept as the reference the
//! tests compare against.

use std::collections::{BTreeMap, BTreeSet};

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::chain::Chain;
use crate::exact::order;

mod lift;
mod vector;

/// A sparse square matrix as rows of `(column, value)`.
pub type SparseRows = Vec<Vec<(usize, BigRational)>>;

/// The system is singular: some state cannot reach absorption.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the system is singular at state {state}: the finish cannot be reached from it")]
pub struct Singular {
    /// The transient state whose pivot vanished.
    pub state: usize,
}

/// Q, the transient-to-transient part of a chain's transition matrix, as sparse rows.
pub fn transient_matrix<S>(chain: &Chain<S>) -> SparseRows
where
    S: Clone + Eq + std::hash::Hash + Ord + std::fmt::Debug,
{
    let t = chain.transient_count();
    chain
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .filter(|(j, _)| *j < t)
                .map(|(j, p)| (*j, p.clone()))
                .collect()
        })
        .collect()
}

/// An LU factorisation of `I - Q`, reusable for any number of right-hand sides.
#[derive(Clone, Debug)]
pub struct SparseLu {
    /// 1 / pivot of each variable.
    inv_pivot: Vec<BigRational>,
    /// For each eliminated variable v: the rows u < v it was subtracted from, with the factor.
    updates: Vec<Vec<(usize, BigRational)>>,
    /// Row v after elimination and normalisation: entries in columns below v.
    lower: Vec<Vec<(usize, BigRational)>>,
}

impl SparseLu {
    /// Factors `I - Q`.
    ///
    /// # Errors
    ///
    /// [`Singular`] when a pivot vanishes (some state cannot reach absorption).
    pub fn factor(q: &SparseRows) -> Result<SparseLu, Singular> {
        let n = q.len();
        let mut rows: Vec<BTreeMap<usize, BigRational>> = Vec::with_capacity(n);
        let mut col_rows: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
        for (i, row) in q.iter().enumerate() {
            let mut r = BTreeMap::new();
            r.insert(i, BigRational::one());
            for (j, p) in row {
                let e = r.entry(*j).or_insert_with(BigRational::zero);
                *e -= p;
            }
            r.retain(|_, v| !v.is_zero());
            for &j in r.keys() {
                col_rows[j].insert(i);
            }
            rows.push(r);
        }
        let mut inv_pivot = vec![BigRational::zero(); n];
        let mut updates = vec![Vec::new(); n];
        let mut lower = vec![Vec::new(); n];
        for v in (0..n).rev() {
            let row = std::mem::take(&mut rows[v]);
            let pivot = row.get(&v).cloned().unwrap_or_else(BigRational::zero);
            if pivot.is_zero() {
                return Err(Singular { state: v });
            }
            let inv = pivot.recip();
            let normalized: Vec<(usize, BigRational)> = row
                .into_iter()
                .filter(|(c, _)| *c != v)
                .map(|(c, a)| (c, a * &inv))
                .collect();
            let users: Vec<usize> = col_rows[v].range(..v).copied().collect();
            for u in users {
                let Some(a_uv) = rows[u].remove(&v) else {
                    continue;
                };
                for (c, val) in &normalized {
                    let e = rows[u].entry(*c).or_insert_with(|| {
                        col_rows[*c].insert(u);
                        BigRational::zero()
                    });
                    *e -= &a_uv * val;
                }
                updates[v].push((u, a_uv));
            }
            inv_pivot[v] = inv;
            lower[v] = normalized;
        }
        Ok(SparseLu {
            inv_pivot,
            updates,
            lower,
        })
    }

    /// Solves `(I - Q) x = b`.
    pub fn solve(&self, b: &[BigRational]) -> Vec<BigRational> {
        let n = self.inv_pivot.len();
        assert_eq!(b.len(), n, "right-hand side has the wrong length");
        let mut y: Vec<BigRational> = b.to_vec();
        for v in (0..n).rev() {
            y[v] *= &self.inv_pivot[v];
            if y[v].is_zero() {
                continue;
            }
            let yv = y[v].clone();
            for (u, a_uv) in &self.updates[v] {
                y[*u] -= a_uv * &yv;
            }
        }
        let mut x: Vec<BigRational> = Vec::with_capacity(n);
        for (yv, lower) in y.iter_mut().zip(&self.lower) {
            let mut xv = std::mem::take(yv);
            for (c, l) in lower {
                xv -= l * &x[*c];
            }
            x.push(xv);
        }
        x
    }
}

/// Solves `(I - Q) x = b` by dense Gaussian elimination: slow, simple, and the reference the
/// faster solvers are tested against.
///
/// # Errors
///
/// [`Singular`] when `I - Q` is singular.
pub fn solve_dense(q: &SparseRows, b: &[BigRational]) -> Result<Vec<BigRational>, Singular> {
    let n = q.len();
    let mut a: Vec<Vec<BigRational>> = (0..n)
        .map(|i| {
            let mut row = vec![BigRational::zero(); n + 1];
            row[i] = BigRational::one();
            for (j, p) in &q[i] {
                row[*j] -= p;
            }
            row[n] = b[i].clone();
            row
        })
        .collect();
    for col in 0..n {
        let pivot_row = (col..n)
            .find(|&r| !a[r][col].is_zero())
            .ok_or(Singular { state: col })?;
        a.swap(col, pivot_row);
        let inv = a[col][col].recip();
        for entry in &mut a[col][col..] {
            *entry *= &inv;
        }
        let pivot = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col && !row[col].is_zero() {
                let f = row[col].clone();
                for (entry, p) in row[col..].iter_mut().zip(&pivot[col..]) {
                    *entry -= &f * p;
                }
            }
        }
    }
    Ok(a.into_iter().map(|mut row| row.swap_remove(n)).collect())
}

// ---------------------------------------------------------------------------------------------
// The fast exact solver: sparse elimination modulo word-size primes, CRT, exact by a bound.
// ---------------------------------------------------------------------------------------------

/// The residue of v in `0..p`.
fn residue_i64(v: i64, p: u64) -> u64 {
    let r = v.unsigned_abs() % p;
    if v < 0 && r != 0 {
        p - r
    } else {
        r
    }
}

/// An integer entry of a row-scaled system: a machine word when it fits.
#[derive(Clone, Debug)]
enum Int {
    Small(i64),
    Big(BigInt),
}

impl Int {
    fn from_big(x: BigInt) -> Int {
        match i64::try_from(&x) {
            Ok(v) => Int::Small(v),
            Err(_) => Int::Big(x),
        }
    }

    /// The residue in `0..p`.
    fn residue(&self, p: u64) -> u64 {
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
type IntRow = Vec<(u32, Int)>;

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
struct Mont {
    p: u64,
    /// -p^-1 mod 2^64.
    neg_inv: u64,
    /// R mod p.
    r1: u64,
    /// R^2 mod p.
    r2: u64,
    /// R^3 mod p.
    r3: u64,
}

impl Mont {
    fn new(p: u64) -> Mont {
        let mut inv: u64 = 1;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
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
    fn redc(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.neg_inv);
        let u = ((t + u128::from(m) * u128::from(self.p)) >> 64) as u64;
        if u >= self.p {
            u - self.p
        } else {
            u
        }
    }

    #[inline]
    fn mul(&self, a: u64, b: u64) -> u64 {
        self.redc(u128::from(a) * u128::from(b))
    }

    #[inline]
    fn sub(&self, a: u64, b: u64) -> u64 {
        if a >= b {
            a - b
        } else {
            a + self.p - b
        }
    }

    fn enter(&self, a: u64) -> u64 {
        self.mul(a, self.r2)
    }

    #[inline]
    fn add(&self, a: u64, b: u64) -> u64 {
        self.sub(a, self.p - b)
    }

    /// `(acc + sum_k a_k y[c_k]) R^-1 mod p` (a product in Montgomery form when one side is),
    /// for values below p < 2^62 and `acc` one such product: the products (each below 2^124)
    /// summed in 128 bits, then folded to `lo + hi (R mod p)`, which is below `p R` (no
    /// division), and reduced once. Fifteen products fit in 128 bits from zero; after a fold
    /// (below 2^126) eleven more do.
    #[inline(always)]
    fn dot_from(&self, acc: u128, a: &[u64], c: &[u32], y: &[u64]) -> u64 {
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
    fn reduce_i128(&self, x: i128) -> u64 {
        debug_assert!(self.p > 1 << 61 && x.unsigned_abs() < 1 << 123);
        let t = (x + (i128::from(self.p) << 62)) as u128;
        self.mul(self.redc(t), self.r2)
    }

    fn leave(&self, a: u64) -> u64 {
        self.redc(u128::from(a))
    }

    /// The inverse of a nonzero element, in Montgomery form: the extended Euclidean algorithm
    /// on words gives `a^-1 = x^-1 R^-1` for `a = x R`, and a product with `R^3` turns it into
    /// `x^-1 R`. (About 40 division steps, against 120 products for Fermat's `a^(p-2)`.)
    fn inv(&self, a: u64) -> u64 {
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

pub(crate) fn primes() -> Primes {
    Primes {
        table: 0,
        next: (1u64 << 62) - PRIME_OFFSETS[PRIME_OFFSETS.len() - 1] - 2,
    }
}

/// The elimination pattern of a sparse matrix: which entries exist after fill. Computed once
/// and shared by every prime (and by the float path).
///
/// Rows are stored flat: row i's columns are `cols[start[i]..start[i + 1]]`, ascending, and the
/// numeric factors (`Numeric`) keep their values in a vector parallel to `cols`.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// Where each row starts in `cols` (n + 1 offsets).
    start: Vec<usize>,
    /// The columns of every row after fill, row after row, each row ascending.
    cols: Vec<u32>,
    /// The index in `cols` of each row's diagonal entry.
    diag: Vec<usize>,
}

impl Pattern {
    /// The fill of eliminating the variables from the last to the first, without pivoting, for
    /// rows given as lists of columns (the diagonal is added; repeats are allowed).
    ///
    /// Rows and columns are in the caller's order; for a board numbered in square order this
    /// follows the near-banded structure (moves go forward by at most the die, jumps add a few
    /// long edges), so fill stays small.
    pub fn new(rows: &[Vec<u32>]) -> Pattern {
        Pattern::from_rows(rows.len(), |i| rows[i].iter().copied())
    }

    /// [`Pattern::new`] for the rows `row(0), ..., row(n - 1)`.
    ///
    /// # Method
    ///
    /// When pivot v is eliminated, every row u < v with an entry in column v takes on v's lower
    /// part (its columns below v, final by then); so row u's final pattern is the closure of its
    /// own columns under "column v > u brings in the lower part of row v". Rows are built from
    /// the last to the first, each once and directly in its final form: a max-heap takes the
    /// pivots v > u of row u in decreasing order (lower parts only add columns below the pivot
    /// that brought them), and a marker array deduplicates.
    pub(crate) fn from_rows<I: Iterator<Item = u32>>(
        n: usize,
        row: impl Fn(usize) -> I,
    ) -> Pattern {
        // Rows are built last to first into `rev_cols`; `rev_range[u]` locates row u there.
        // Fill usually stays within a few entries per row: room for that, growing if not.
        let mut rev_cols: Vec<u32> = Vec::with_capacity(16 * n);
        let mut rev_range: Vec<(usize, usize, usize)> = vec![(0, 0, 0); n]; // start, diag, end
        let mut mark = vec![u32::MAX; n];
        let mut heap = std::collections::BinaryHeap::new();
        for u in (0..n).rev() {
            let begin = rev_cols.len();
            let u32_u = u as u32;
            let mut add =
                |c: u32, rev_cols: &mut Vec<u32>, heap: &mut std::collections::BinaryHeap<u32>| {
                    if mark[c as usize] != u32_u {
                        mark[c as usize] = u32_u;
                        rev_cols.push(c);
                        if c > u32_u {
                            heap.push(c);
                        }
                    }
                };
            add(u32_u, &mut rev_cols, &mut heap);
            for c in row(u) {
                assert!((c as usize) < n, "column {c} outside a {n} x {n} matrix");
                add(c, &mut rev_cols, &mut heap);
            }
            while let Some(v) = heap.pop() {
                let (s, d, _) = rev_range[v as usize];
                for k in s..d {
                    let c = rev_cols[k];
                    add(c, &mut rev_cols, &mut heap);
                }
            }
            let row_u = &mut rev_cols[begin..];
            row_u.sort_unstable();
            let d = begin + row_u.partition_point(|&c| c < u32_u);
            rev_range[u] = (begin, d, rev_cols.len());
        }
        // Lay the rows out in order.
        let mut start = Vec::with_capacity(n + 1);
        let mut cols = Vec::with_capacity(rev_cols.len());
        let mut diag = Vec::with_capacity(n);
        for &(s, d, e) in &rev_range {
            start.push(cols.len());
            diag.push(cols.len() + (d - s));
            cols.extend_from_slice(&rev_cols[s..e]);
        }
        start.push(cols.len());
        Pattern { start, cols, diag }
    }

    /// The number of unknowns.
    fn len(&self) -> usize {
        self.diag.len()
    }

    /// Row i's columns.
    fn row(&self, i: usize) -> &[u32] {
        &self.cols[self.start[i]..self.start[i + 1]]
    }

    /// For each entry of the rows given (the rows the pattern was built from, in order), its
    /// index in `cols`.
    fn positions<I: Iterator<Item = u32>>(&self, row: impl Fn(usize) -> I) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.cols.len());
        for i in 0..self.len() {
            let cols = self.row(i);
            let base = self.start[i];
            out.extend(row(i).map(|j| base + cols.binary_search(&j).expect("entry in pattern")));
        }
        out
    }

    /// The values of the entries `values` (in the order of [`Pattern::positions`], whose output
    /// is `positions`) modulo p in Montgomery form, laid out on the pattern (fill entries zero),
    /// ready for [`Numeric::factor`]. Repeated entries are summed.
    fn values_mod(
        &self,
        m: &Mont,
        values: impl Iterator<Item = u64>,
        positions: &[usize],
    ) -> Vec<u64> {
        let mut v = vec![0u64; self.cols.len()];
        for (x, &k) in values.zip(positions) {
            v[k] = m.add(v[k], m.enter(x));
        }
        v
    }

    /// The number of stored entries after fill.
    pub fn entries(&self) -> usize {
        self.cols.len()
    }
}

/// The operations the elimination needs from a field: exact residues or floats.
trait Field: Copy {
    fn zero(&self) -> Self::E;
    fn is_zero(&self, a: Self::E) -> bool;
    fn mul(&self, a: Self::E, b: Self::E) -> Self::E;
    fn sub(&self, a: Self::E, b: Self::E) -> Self::E;
    fn inv(&self, a: Self::E) -> Self::E;
    type E: Copy;
}

impl Field for Mont {
    type E = u64;
    fn zero(&self) -> u64 {
        0
    }
    fn is_zero(&self, a: u64) -> bool {
        a == 0
    }
    fn mul(&self, a: u64, b: u64) -> u64 {
        Mont::mul(self, a, b)
    }
    fn sub(&self, a: u64, b: u64) -> u64 {
        Mont::sub(self, a, b)
    }
    fn inv(&self, a: u64) -> u64 {
        Mont::inv(self, a)
    }
}

#[derive(Clone, Copy)]
struct Float;

impl Field for Float {
    type E = f64;
    fn zero(&self) -> f64 {
        0.0
    }
    fn is_zero(&self, a: f64) -> bool {
        a == 0.0
    }
    fn mul(&self, a: f64, b: f64) -> f64 {
        a * b
    }
    fn sub(&self, a: f64, b: f64) -> f64 {
        a - b
    }
    fn inv(&self, a: f64) -> f64 {
        1.0 / a
    }
}

/// A numeric factorisation on a [`Pattern`]: `vals` (parallel to the pattern's columns) holds
/// each row after elimination, its entries below the diagonal normalised by the pivot, its
/// entries above the diagonal the multipliers its pivots applied to it.
struct Numeric<E> {
    vals: Vec<E>,
    inv_pivot: Vec<E>,
}

impl<E: Copy> Numeric<E> {
    /// Eliminates in place (`vals` laid out on `pat`); `None` when a pivot vanishes.
    ///
    /// Row by row from the last (left-looking): row u is scattered into a dense work row, its
    /// pivots v > u are applied in decreasing order (`a_uv` is final by then: only pivots above
    /// v touch column v), each subtracting `a_uv` times row v's normalised lower part, and the
    /// row is gathered back. The same operations in the same order as eliminating pivot by
    /// pivot, with direct indexing instead of merging rows.
    fn factor<F: Field<E = E>>(f: F, pat: &Pattern, mut vals: Vec<E>) -> Option<Numeric<E>> {
        let n = pat.len();
        let mut inv_pivot = vec![f.zero(); n];
        let mut work = vec![f.zero(); n];
        for u in (0..n).rev() {
            let (s, d, e) = (pat.start[u], pat.diag[u], pat.start[u + 1]);
            // Rows are stored in order: row u ends where the finished rows v > u begin.
            let (upto, after) = vals.split_at_mut(e);
            let row_u = &mut upto[s..];
            let cols_u = &pat.cols[s..e];
            for (&c, &x) in cols_u.iter().zip(row_u.iter()) {
                work[c as usize] = x;
            }
            for &v in pat.cols[d + 1..e].iter().rev() {
                let v = v as usize;
                let a_uv = work[v];
                if f.is_zero(a_uv) {
                    continue;
                }
                let (vs, vd) = (pat.start[v], pat.diag[v]);
                for (&c, &l) in pat.cols[vs..vd].iter().zip(&after[vs - e..vd - e]) {
                    let w = &mut work[c as usize];
                    *w = f.sub(*w, f.mul(a_uv, l));
                }
            }
            for (&c, x) in cols_u.iter().zip(row_u.iter_mut()) {
                *x = work[c as usize];
            }
            let piv = row_u[d - s];
            if f.is_zero(piv) {
                return None;
            }
            let inv = f.inv(piv);
            inv_pivot[u] = inv;
            for x in &mut row_u[..d - s] {
                *x = f.mul(*x, inv);
            }
        }
        Some(Numeric { vals, inv_pivot })
    }

    /// Solves for one right-hand side in place: the backward pass row by row from the last
    /// (`y_u = (y_u - sum_{v > u} a_uv y_v) / pivot_u`, the multipliers of row u being final
    /// when u is eliminated), then the forward pass with the normalised lower parts.
    fn solve<F: Field<E = E>>(&self, f: F, pat: &Pattern, y: &mut [E]) {
        let n = y.len();
        for u in (0..n).rev() {
            let (d, e) = (pat.diag[u], pat.start[u + 1]);
            let mut x = y[u];
            for (&c, &a) in pat.cols[d + 1..e].iter().zip(&self.vals[d + 1..e]) {
                x = f.sub(x, f.mul(a, y[c as usize]));
            }
            y[u] = f.mul(x, self.inv_pivot[u]);
        }
        for v in 0..n {
            let (s, d) = (pat.start[v], pat.diag[v]);
            let mut x = y[v];
            for (&c, &l) in pat.cols[s..d].iter().zip(&self.vals[s..d]) {
                x = f.sub(x, f.mul(l, y[c as usize]));
            }
            y[v] = x;
        }
    }
}

/// A modular factor prepared for many solves (the lifting's): each row of each triangular pass
/// becomes one dot product and one reduction. Row u's entries above the diagonal are stored as
/// `-a_uv / pivot_u` and its normalised lower entries as `-l_uc` (Montgomery form), so that
///
/// ```text
/// backward: y_u = (1 / pivot_u) y_u + sum_{v > u} (-a_uv / pivot_u) y_v
/// forward:  y_v = 1 y_v + sum_{c < v} (-l_vc) y_c
/// ```
///
/// are sums of products with the row's own entry of y as one more term ([`Mont::dot_from`]).
/// Every product has one factor entry (in Montgomery form) and one entry of y, so y may be given
/// in either form and the answer comes back in the same one.
struct Folded {
    vals: Vec<u64>,
    inv_pivot: Vec<u64>,
}

impl Folded {
    fn new(lu: Numeric<u64>, m: &Mont, pat: &Pattern) -> Folded {
        let Numeric {
            mut vals,
            inv_pivot,
        } = lu;
        for (u, &inv) in inv_pivot.iter().enumerate() {
            let (s, d, e) = (pat.start[u], pat.diag[u], pat.start[u + 1]);
            for x in &mut vals[s..d] {
                *x = m.sub(0, *x);
            }
            for x in &mut vals[d + 1..e] {
                *x = m.sub(0, m.mul(*x, inv));
            }
        }
        Folded { vals, inv_pivot }
    }

    /// Solves `A y' = y` modulo p in place.
    fn solve(&self, m: &Mont, pat: &Pattern, y: &mut [u64]) {
        let n = y.len();
        for u in (0..n).rev() {
            let (d, e) = (pat.diag[u], pat.start[u + 1]);
            let own = u128::from(self.inv_pivot[u]) * u128::from(y[u]);
            y[u] = m.dot_from(own, &self.vals[d + 1..e], &pat.cols[d + 1..e], y);
        }
        for v in 0..n {
            let (s, d) = (pat.start[v], pat.diag[v]);
            let own = u128::from(m.r1) * u128::from(y[v]);
            y[v] = m.dot_from(own, &self.vals[s..d], &pat.cols[s..d], y);
        }
    }
}

/// `x mod p` for a big x, with Montgomery steps instead of 128-bit divisions.
fn big_mod(m: &Mont, x: &BigUint) -> u64 {
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

/// An integer entry as the bounds see it: machine words and big integers alike.
trait Magnitude {
    /// `x^2`, when it fits 128 bits.
    fn square(&self) -> Option<u128>;
    /// An upper bound on log2 |x| (minus infinity for 0).
    fn log2_upper(&self) -> f64;
}

impl Magnitude for Int {
    fn square(&self) -> Option<u128> {
        match self {
            Int::Small(x) => x.square(),
            Int::Big(_) => None,
        }
    }

    fn log2_upper(&self) -> f64 {
        match self {
            Int::Small(x) => x.log2_upper(),
            Int::Big(v) => v.bits() as f64,
        }
    }
}

impl Magnitude for i64 {
    fn square(&self) -> Option<u128> {
        Some(u128::from(self.unsigned_abs()).pow(2))
    }

    fn log2_upper(&self) -> f64 {
        let a = self.unsigned_abs();
        if a == 0 {
            f64::NEG_INFINITY
        } else if a < (1 << 52) {
            (a as f64).log2()
        } else {
            f64::from(64 - a.leading_zeros())
        }
    }
}

/// The exact sum of squares of a row, when it fits 128 bits.
fn sum_of_squares<'a, T: Magnitude + 'a>(entries: impl Iterator<Item = &'a T>) -> Option<u128> {
    entries
        .map(T::square)
        .try_fold(0u128, |acc, sq| acc.checked_add(sq?))
}

/// log2 of `sqrt(sq)` for an exact sum of squares (the conversion to f64 rounds to nearest:
/// relative error 2^-53, far inside the margins of the bounds).
fn log2_sqrt(sq: u128) -> f64 {
    if sq == 0 {
        f64::NEG_INFINITY
    } else {
        0.5 * (sq as f64).log2()
    }
}

/// Upper bound of log2 of the Euclidean norm of a row of integers.
fn log2_norm<'a, T: Magnitude + 'a>(entries: impl Iterator<Item = &'a T> + Clone) -> f64 {
    // Machine-word entries (the usual case): the exact sum of squares in 128 bits.
    if let Some(sq) = sum_of_squares(entries.clone()) {
        return log2_sqrt(sq);
    }
    let logs: Vec<f64> = entries
        .map(T::log2_upper)
        .filter(|l| l.is_finite())
        .collect();
    let Some(top) = logs.iter().copied().reduce(f64::max) else {
        return f64::NEG_INFINITY;
    };
    let sum: f64 = logs.iter().map(|l| (2.0 * (l - top)).exp2()).sum();
    top + 0.5 * sum.log2()
}

/// log2 of `sqrt(2^(2 l) + 2^(2 m))`, for norms given by their logs.
fn log2_hypot(l: f64, m: f64) -> f64 {
    if !m.is_finite() {
        return l;
    }
    if !l.is_finite() {
        return m;
    }
    let top = l.max(m);
    top + 0.5 * ((2.0 * (l - top)).exp2() + (2.0 * (m - top)).exp2()).log2()
}

/// For each solution (the chained one last), log2 bounds `(den, num)` on the denominator and
/// the numerator of its exact components: with `A` the row-scaled integer matrix,
/// `|det A| <= prod_i ||a_i||` (Hadamard) and, by Cramer's rule, every `det(A) x_j` is the
/// determinant of A with column j replaced by b, so
/// `|det(A) x_j| <= prod_i sqrt(||a_i||^2 + b_i^2)`. A chained solve is bounded the same way on
/// the block matrix `[[A, 0], [-C, A]]` (determinant `det(A)^2`).
///
/// `row(i)` gives the entries of row i of A, `rhs` the right-hand sides, and `chained` (the
/// entries of row i of A and C together, the right-hand side that feeds C).
fn log2_bounds<'a, T, I, J>(
    n: usize,
    row: impl Fn(usize) -> I,
    rhs: &'a [Vec<T>],
    chained: Option<(impl Fn(usize) -> J, usize)>,
) -> Vec<(f64, f64)>
where
    T: Magnitude + 'a,
    I: Iterator<Item = &'a T> + Clone,
    J: Iterator<Item = &'a T> + Clone,
{
    let squares: Vec<Option<u128>> = (0..n).map(|i| sum_of_squares(row(i))).collect();
    let row_logs: Vec<f64> = (0..n)
        .map(|i| squares[i].map_or_else(|| log2_norm(row(i)), log2_sqrt))
        .collect();
    let with_rhs = |b: &[T]| -> f64 {
        (0..n)
            .map(|i| match squares[i].zip(b[i].square()) {
                Some((a, b)) if a.checked_add(b).is_some() => log2_sqrt(a + b),
                _ => log2_hypot(row_logs[i], b[i].log2_upper()),
            })
            .sum()
    };
    let det: f64 = row_logs.iter().sum();
    let mut bounds: Vec<(f64, f64)> = rhs.iter().map(|b| (det, with_rhs(b))).collect();
    if let Some((both, k)) = chained {
        let second: f64 = (0..n).map(|i| log2_norm(both(i))).sum();
        bounds.push(((2.0 * det).min(det + second), with_rhs(&rhs[k]) + second));
    }
    bounds
}

/// [`log2_bounds`] by Hadamard's inequality on columns instead of rows, for machine-word entries
/// (`None` when a sum of squares overflows 128 bits or a column of A is zero).
///
/// With `a^j` the columns of A: `|det A| <= prod_j ||a^j||`, and with column j replaced by b,
/// `|det(A) x_j| <= ||b|| prod_{k != j} ||a^k|| <= ||b|| prod_k ||a^k||` (a nonzero integer
/// column has norm at least 1). The block matrix `[[A, 0], [-C, A]]` has the columns
/// `[a^j; -c^j]` and `[0; a^j]`, so its determinant `det(A)^2` is at most
/// `prod_j ||[a^j; c^j]|| prod_j ||a^j||`, and the chained solution's numerators at most `||b||`
/// times that. On the roll-level systems the columns often give the smaller numerator bound:
/// a row's bound grows with every entry of b, a column's only with `||b||` once.
fn log2_column_bounds(
    a: &lift::Csr,
    rhs: &[Vec<i64>],
    chained: Option<(&lift::Csr, usize)>,
) -> Option<Vec<(f64, f64)>> {
    let n = a.len();
    let column_squares = |m: &lift::Csr| -> Option<Vec<u128>> {
        let mut sq = vec![0u128; n];
        for i in 0..n {
            let (cols, vals) = m.row(i);
            for (&j, v) in cols.iter().zip(vals) {
                let s = &mut sq[j as usize];
                *s = s.checked_add(v.square()?)?;
            }
        }
        Some(sq)
    };
    let sq_a = column_squares(a)?;
    if sq_a.contains(&0) {
        return None;
    }
    let det: f64 = sq_a.iter().map(|&s| log2_sqrt(s)).sum();
    let norm = |b: &[i64]| sum_of_squares(b.iter()).map(log2_sqrt);
    let mut bounds = Vec::with_capacity(rhs.len() + 1);
    for b in rhs {
        bounds.push((det, det + norm(b)?));
    }
    if let Some((c, k)) = chained {
        let sq_c = column_squares(c)?;
        let second = sq_a
            .iter()
            .zip(&sq_c)
            .map(|(x, y)| x.checked_add(*y).map(log2_sqrt))
            .sum::<Option<f64>>()?;
        bounds.push(((2.0 * det).min(det + second), norm(&rhs[k])? + second + det));
    }
    Some(bounds)
}

/// For each solution (the chained one last), the bit count of a modulus that provably
/// determines it and `det A` (see [`log2_bounds`]).
fn bits_needed(
    rows: &[Vec<(u32, Int)>],
    rhs: &[Vec<Int>],
    chained: Option<(&[IntRow], usize)>,
) -> Vec<f64> {
    fn values(r: &[(u32, Int)]) -> impl Iterator<Item = &Int> + Clone {
        r.iter().map(|(_, v)| v)
    }
    let bounds = log2_bounds(
        rows.len(),
        |i| values(&rows[i]),
        rhs,
        chained.map(|(c, k)| (move |i: usize| values(&rows[i]).chain(values(&c[i])), k)),
    );
    // Float rounding in the sums is far below this margin of one bit per thousand rows plus
    // eight bits; one more bit for the sign of the symmetric residue.
    bounds
        .into_iter()
        .map(|(den, num)| den.max(num) * (1.0 + 1e-9) + rows.len() as f64 * 1e-3 + 9.0)
        .collect()
}

/// A second solve fed by the first: `A y = C x`, where x solves `A x = b` for one of the
/// right-hand sides (as for a second moment: `(I - Q) u = t`).
#[derive(Clone, Copy, Debug)]
pub struct Chained<'a> {
    /// The matrix C (square, the size of A).
    pub c: &'a SparseRows,
    /// Which right-hand side's solution x feeds it.
    pub rhs: usize,
    /// Which components of y to return.
    pub wanted: Wanted<'a>,
}

/// Which components of a solution to rebuild (each costs a Chinese remainder step per prime and
/// one final division).
#[derive(Clone, Copy, Debug)]
pub enum Wanted<'a> {
    /// Every component.
    All,
    /// These components, in this order.
    Some(&'a [usize]),
}

/// Solves `A x = b` exactly for several right-hand sides at once, with A sparse and square.
///
/// `wanted[k]` says which components of the k-th solution to return (as reduced fractions).
/// With `chained`, one more solution comes last: the wanted components of y in `A y = C x`.
///
/// # Method
///
/// Each row of `[A | b]` is scaled by the least common multiple of its denominators, giving an
/// integer system with the same solution. The elimination pattern (fill) is computed once
/// ([`Pattern`]); then, for each word-size prime p, the system is eliminated modulo p (no
/// pivoting, variables from the last to the first), giving `det A mod p` as the product of the
/// pivots and `det(A) x mod p`. By Cramer's rule `det(A) x_j` is an integer, and Hadamard's
/// inequality bounds it and `det A` (see `bits_needed`), so once the product of the primes
/// exceeds twice the bound, the Chinese remainder theorem gives both exactly (symmetric
/// residues) and `x_j = (det(A) x_j) / det A` is exact. No rational arithmetic happens until the
/// final divisions. Primes that divide a pivot are skipped; if several in a row do, the exact
/// reference elimination decides (and reports a singular system).
///
/// References: K. O. Geddes, S. R. Czapor, G. Labahn, *Algorithms for Computer Algebra* (1992),
/// chapter 5 (multi-modular methods, Garner's algorithm, Hadamard's bound).
///
/// # Errors
///
/// [`Singular`] when A is singular.
///
/// # Panics
///
/// When a right-hand side or a column index does not fit the size of A.
pub fn solve_exact(
    a: &SparseRows,
    rhs: &[Vec<BigRational>],
    wanted: &[Wanted<'_>],
    chained: Option<Chained<'_>>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    let n = a.len();
    for b in rhs {
        assert_eq!(b.len(), n, "right-hand side has the wrong length");
    }
    assert_eq!(wanted.len(), rhs.len(), "one Wanted per right-hand side");
    let components: Vec<Vec<usize>> = wanted
        .iter()
        .chain(chained.as_ref().map(|c| &c.wanted))
        .map(|w| match w {
            Wanted::All => (0..n).collect(),
            Wanted::Some(c) => c.to_vec(),
        })
        .collect();
    if n == 0 {
        return Ok(vec![Vec::new(); components.len()]);
    }
    if let Some(ch) = &chained {
        assert_eq!(ch.c.len(), n, "C has the wrong size");
        assert!(ch.rhs < rhs.len(), "chained to a missing right-hand side");
    }
    // Scale each row of [A | b] to integers.
    let mut rows: Vec<Vec<(u32, Int)>> = Vec::with_capacity(n);
    let mut b_int: Vec<Vec<Int>> = vec![Vec::with_capacity(n); rhs.len()];
    let mut c_int: Vec<Vec<(u32, Int)>> = Vec::new();
    // Rows with each column once (duplicates summed), zeros dropped.
    let merge = |row: &[(usize, BigRational)]| -> Vec<(usize, BigRational)> {
        let mut m: BTreeMap<usize, BigRational> = BTreeMap::new();
        for (j, v) in row {
            assert!(*j < n, "column {j} outside a {n} x {n} matrix");
            *m.entry(*j).or_insert_with(BigRational::zero) += v;
        }
        m.into_iter().filter(|(_, v)| !v.is_zero()).collect()
    };
    let a: SparseRows = a.iter().map(|r| merge(r)).collect();
    let c_merged: Option<SparseRows> = chained
        .as_ref()
        .map(|ch| ch.c.iter().map(|r| merge(r)).collect());
    for (i, row) in a.iter().enumerate() {
        let mut l = BigInt::one();
        for (j, v) in row {
            assert!(*j < n, "column {j} outside a {n} x {n} matrix");
            if !v.denom().is_one() {
                l = l.lcm(v.denom());
            }
        }
        for b in rhs {
            if !b[i].denom().is_one() {
                l = l.lcm(b[i].denom());
            }
        }
        if let Some(c) = &c_merged {
            for (_, v) in &c[i] {
                if !v.denom().is_one() {
                    l = l.lcm(v.denom());
                }
            }
        }
        let scale = |v: &BigRational| Int::from_big(v.numer() * (&l / v.denom()));
        let mut r: Vec<(u32, Int)> = row
            .iter()
            .filter(|(_, v)| !v.is_zero())
            .map(|(j, v)| (*j as u32, scale(v)))
            .collect();
        r.sort_by_key(|(j, _)| *j);
        rows.push(r);
        for (bi, b) in b_int.iter_mut().zip(rhs) {
            bi.push(scale(&b[i]));
        }
        if let Some(c) = &c_merged {
            c_int.push(
                c[i].iter()
                    .filter(|(_, v)| !v.is_zero())
                    .map(|(j, v)| (*j as u32, scale(v)))
                    .collect(),
            );
        }
    }
    solve_scaled(
        &rows,
        &b_int,
        &c_int,
        chained.as_ref().map(|ch| ch.rhs),
        &components,
        || reference_solve(&a, rhs, &components, chained.as_ref()),
    )
}

/// The core of [`solve_exact`] on row-scaled integer rows: `c_int` is C (empty without a
/// chained solve), `chained_rhs` the right-hand side that feeds it, `components` the wanted
/// components of each solution (the chained one last); `fallback` decides the systems the
/// primes cannot.
fn solve_scaled(
    rows: &[IntRow],
    b_int: &[Vec<Int>],
    c_int: &[IntRow],
    chained_rhs: Option<usize>,
    components: &[Vec<usize>],
    fallback: impl FnOnce() -> Result<Vec<Vec<BigRational>>, Singular>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    // The lifting works on machine-word entries.
    let small = || -> Option<(lift::Csr, Vec<Vec<i64>>, Option<lift::Csr>)> {
        let b = b_int
            .iter()
            .map(|b| {
                b.iter()
                    .map(|v| match v {
                        Int::Small(x) => Some(*x),
                        Int::Big(_) => None,
                    })
                    .collect::<Option<Vec<i64>>>()
            })
            .collect::<Option<_>>()?;
        let c = match chained_rhs {
            Some(_) => Some(lift::Csr::from_int_rows(c_int)?),
            None => None,
        };
        Some((lift::Csr::from_int_rows(rows)?, b, c))
    };
    if let Some(x) =
        small().and_then(|(a, b, c)| solve_by_lifting(&a, &b, c.as_ref(), chained_rhs, components))
    {
        return Ok(x);
    }
    solve_by_elimination(rows, b_int, c_int, chained_rhs, components, fallback)
}

/// The multi-modular elimination of [`solve_scaled`], in a fill-reducing order.
fn solve_by_elimination(
    rows: &[IntRow],
    b_int: &[Vec<Int>],
    c_int: &[IntRow],
    chained_rhs: Option<usize>,
    components: &[Vec<usize>],
    fallback: impl FnOnce() -> Result<Vec<Vec<BigRational>>, Singular>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    // A fill-reducing order (`order`), applied to rows and columns alike: `P A P^T (P x) = P b`,
    // and `P C P^T` for the chained solve. Component j of x is component `inv[j]` of `P x`.
    let perm = order::elimination_order(&column_lists(rows));
    if is_identity(&perm) {
        return solve_eliminating(rows, b_int, c_int, chained_rhs, components, fallback);
    }
    let inv = order::inverse(&perm);
    let rows = order::permute_entries(rows, &perm);
    let c_int = if c_int.is_empty() {
        Vec::new()
    } else {
        order::permute_entries(c_int, &perm)
    };
    let b_int: Vec<Vec<Int>> = b_int
        .iter()
        .map(|b| perm.iter().map(|&old| b[old as usize].clone()).collect())
        .collect();
    let components: Vec<Vec<usize>> = components
        .iter()
        .map(|c| c.iter().map(|&j| inv[j] as usize).collect())
        .collect();
    solve_eliminating(&rows, &b_int, &c_int, chained_rhs, &components, fallback)
}

/// The multi-modular elimination of [`solve_scaled`], in the given order.
fn solve_eliminating(
    rows: &[IntRow],
    b_int: &[Vec<Int>],
    c_int: &[IntRow],
    chained_rhs: Option<usize>,
    components: &[Vec<usize>],
    fallback: impl FnOnce() -> Result<Vec<Vec<BigRational>>, Singular>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    let n = rows.len();
    let pattern = Pattern::from_rows(n, |i| rows[i].iter().map(|(j, _)| *j));
    let positions = pattern.positions(|i| rows[i].iter().map(|(j, _)| *j));
    let needs = bits_needed(rows, b_int, chained_rhs.map(|k| (c_int, k)));
    let need = needs.iter().copied().fold(0.0, f64::max);
    // The modulus each solution was rebuilt with (it stops taking primes once determined).
    let mut moduli: Vec<Option<BigUint>> = vec![None; needs.len()];

    let mut det = BigUint::zero();
    let mut values: Vec<Vec<BigUint>> = components
        .iter()
        .map(|c| vec![BigUint::zero(); c.len()])
        .collect();
    let mut modulus = BigUint::one();
    let mut bits = 0.0;
    let mut failures = 0;
    let mut y: Vec<u64> = vec![0; n];
    for p in primes() {
        if bits > need {
            break;
        }
        let m = Mont::new(p);
        let residues = rows.iter().flatten().map(|(_, x)| x.residue(p));
        let vals = pattern.values_mod(&m, residues, &positions);
        let Some(lu) = Numeric::factor(m, &pattern, vals) else {
            failures += 1;
            if failures >= 3 {
                return fallback();
            }
            continue;
        };
        let mut d = m.enter(1);
        for v in 0..n {
            // inv_pivot holds 1 / pivot: det = prod pivot = 1 / prod inv_pivot.
            d = m.mul(d, lu.inv_pivot[v]);
        }
        let det_m = m.inv(d);
        // Garner step: x += M * ((r - x) / M mod p).
        let m_mod = big_mod(&m, &modulus);
        let m_inv = m.inv(m.enter(m_mod));
        let step = |x: &mut BigUint, r: u64| {
            let xr = big_mod(&m, x);
            let t = m.mul(m.enter(m.sub(r, xr)), m_inv);
            let t = m.leave(t);
            if t != 0 {
                *x += &modulus * t;
            }
        };
        step(&mut det, m.leave(det_m));
        let mut feed = Vec::new();
        for (k, ((b, vals), comps)) in b_int.iter().zip(&mut values).zip(components).enumerate() {
            let feeds = chained_rhs == Some(k);
            let done = bits > needs[k];
            if done && moduli[k].is_none() {
                moduli[k] = Some(modulus.clone());
            }
            if done && !feeds {
                // This solution is already determined: only the chained one needs more primes.
                continue;
            }
            for (yi, bi) in y.iter_mut().zip(b) {
                *yi = m.enter(bi.residue(p));
            }
            lu.solve(m, &pattern, &mut y);
            if !done {
                for (x, &c) in vals.iter_mut().zip(comps) {
                    step(x, m.leave(m.mul(y[c], det_m)));
                }
            }
            if feeds {
                feed.clone_from(&y);
            }
        }
        if chained_rhs.is_some() {
            // y = C x (mod p), then A z = y; det(block) = det(A)^2.
            for (yi, row) in y.iter_mut().zip(c_int) {
                let mut acc = 0;
                for (j, v) in row {
                    let term = m.mul(m.enter(v.residue(p)), feed[*j as usize]);
                    acc = m.sub(acc, m.p - term);
                    if acc == m.p {
                        acc = 0;
                    }
                }
                *yi = acc;
            }
            lu.solve(m, &pattern, &mut y);
            let det2 = m.mul(det_m, det_m);
            let last = values.len() - 1;
            for (x, &c) in values[last].iter_mut().zip(&components[last]) {
                step(x, m.leave(m.mul(y[c], det2)));
            }
        }
        modulus *= p;
        bits += (p as f64).log2();
    }
    let signed = |x: BigUint, modulus: &BigUint| -> BigInt {
        if x > (modulus >> 1u32) {
            BigInt::from_biguint(Sign::Minus, modulus - x)
        } else {
            BigInt::from_biguint(Sign::Plus, x)
        }
    };
    let det = signed(det, &modulus);
    let det2 = &det * &det;
    let first = b_int.len();
    Ok(values
        .into_iter()
        .zip(moduli)
        .enumerate()
        .map(|(k, (vals, m))| {
            let d = if k < first { &det } else { &det2 };
            let m = m.as_ref().unwrap_or(&modulus);
            vals.into_iter()
                .map(|x| BigRational::new(signed(x, m), d.clone()))
                .collect()
        })
        .collect())
}

/// Whether a permutation leaves every index in place.
fn is_identity(perm: &[u32]) -> bool {
    perm.iter().enumerate().all(|(i, &p)| i as u32 == p)
}

/// The column indices of each row.
fn column_lists<T>(rows: &[Vec<(u32, T)>]) -> Vec<Vec<u32>> {
    rows.iter()
        .map(|r| r.iter().map(|(j, _)| *j).collect())
        .collect()
}

/// At most this many distinct wanted components go through the transposed lifting of
/// [`solve_by_lifting`] (one lifting each). A solution (not the chained one) that wants more is
/// lifted as a whole vector ([`vector`]); a chained solution that wants more goes through the
/// multi-modular elimination, which rebuilds any number at once.
const MAX_LIFTED_COMPONENTS: usize = 4;

/// [`solve_scaled`] by p-adic lifting.
///
/// For a wanted component s, `w = A^-T e_s` gives `x_s = w . b` for every right-hand side b at
/// once, and for the chained solve `y_s = e_s . A^-1 C x = v . b` with `A^T v = C^T w`. So one
/// lifting of the block system `[[A^T, 0], [-C^T, A^T]] [w; v] = [e_s; 0]`, one factorisation
/// modulo one prime, yields every wanted value at s (see [`lift`]). A solution of the first
/// block that wants more than [`MAX_LIFTED_COMPONENTS`] components is lifted as a vector on A
/// itself instead (see [`vector`]: every component of x at once, from one factorisation of A).
/// `None` when the system does not suit (too many components of the chained solution, entries
/// too large for machine-word residuals, too much memory for the digits of a vector) or the
/// lifting cannot decide; the caller then eliminates modulo many primes.
fn solve_by_lifting(
    a: &lift::Csr,
    b: &[Vec<i64>],
    c: Option<&lift::Csr>,
    chained_rhs: Option<usize>,
    components: &[Vec<usize>],
) -> Option<Vec<Vec<BigRational>>> {
    let n = a.len();
    let first = b.len();
    let distinct_of = |c: &mut dyn Iterator<Item = usize>| -> Vec<usize> {
        let mut d: Vec<usize> = c.collect();
        d.sort_unstable();
        d.dedup();
        d
    };
    // The solutions lifted as vectors; the others' components go through the transposed system.
    let as_vector: Vec<bool> = components
        .iter()
        .enumerate()
        .map(|(k, c)| {
            k < first && distinct_of(&mut c.iter().copied()).len() > MAX_LIFTED_COMPONENTS
        })
        .collect();
    let distinct = distinct_of(
        &mut components
            .iter()
            .zip(&as_vector)
            .filter(|(_, v)| !**v)
            .flat_map(|(c, _)| c.iter().copied()),
    );
    if distinct.len() > MAX_LIFTED_COMPONENTS {
        return None;
    }
    fn values(m: &lift::Csr, i: usize) -> std::slice::Iter<'_, i64> {
        m.row(i).1.iter()
    }
    let by_rows = log2_bounds(
        n,
        |i| values(a, i),
        b,
        chained_rhs
            .zip(c)
            .map(|(k, c)| (move |i: usize| values(a, i).chain(values(c, i)), k)),
    );
    // Each bound by rows or by columns, whichever is smaller (both bound the same numbers).
    let bounds: Vec<(f64, f64)> = match log2_column_bounds(a, b, c.zip(chained_rhs)) {
        Some(by_columns) => by_rows
            .iter()
            .zip(by_columns)
            .map(|(r, c)| (r.0.min(c.0), r.1.min(c.1)))
            .collect(),
        None => by_rows,
    };
    let solutions: Vec<vector::VectorSolution<'_>> = (0..first)
        .filter(|&k| as_vector[k])
        .map(|k| vector::VectorSolution {
            b: &b[k],
            components: &components[k],
            num_bits: bounds[k].1,
            den_bits: bounds[k].0,
        })
        .collect();
    if !solutions.is_empty() && !vector::suits(a, &solutions) {
        return None;
    }
    let mut lifted: Vec<Vec<Option<BigRational>>> =
        components.iter().map(|c| vec![None; c.len()]).collect();
    if !distinct.is_empty() {
        lift_transposed(
            a,
            b,
            c,
            chained_rhs,
            components,
            &as_vector,
            &distinct,
            &bounds,
            &mut lifted,
        )?;
    }
    if !solutions.is_empty() {
        let got = vector::solve_vectors(a, &solutions)?;
        for (k, xs) in (0..first).filter(|&k| as_vector[k]).zip(got) {
            lifted[k] = xs.into_iter().map(Some).collect();
        }
    }
    Some(
        lifted
            .into_iter()
            .map(|vs| {
                vs.into_iter()
                    .map(|v| v.expect("every component lifted"))
                    .collect()
            })
            .collect(),
    )
}

/// The transposed lifting of [`solve_by_lifting`] for the `distinct` components wanted by the
/// solutions not lifted as vectors (`as_vector[k]` false), written into `lifted`.
#[allow(clippy::too_many_arguments)]
fn lift_transposed(
    a: &lift::Csr,
    b: &[Vec<i64>],
    c: Option<&lift::Csr>,
    chained_rhs: Option<usize>,
    components: &[Vec<usize>],
    as_vector: &[bool],
    distinct: &[usize],
    bounds: &[(f64, f64)],
    lifted: &mut [Vec<Option<BigRational>>],
) -> Option<()> {
    const LIMIT: u64 = 1 << 60;
    let n = a.len();
    let at = a.transpose();
    let ct = c.map(lift::Csr::transpose);
    if at.max_row_norm1() >= LIMIT || ct.as_ref().is_some_and(|c| c.max_row_norm1() >= LIMIT) {
        return None;
    }
    let g_norm = |g: &[i64]| {
        g.iter()
            .fold(0u64, |acc, v| acc.saturating_add(v.unsigned_abs()))
    };
    if b.iter().any(|g| g_norm(g) == u64::MAX) {
        return None;
    }
    // A fill-reducing order (`order`), applied to rows and columns alike: the system becomes
    // `(P A^T P^T) (P w) = P e_s`, and `g . w = (P g) . (P w)`. (Small systems keep square order
    // without building the column lists the ordering reads.)
    let perm = (n >= order::SMALL)
        .then(|| order::elimination_order(&at.column_lists()))
        .filter(|perm| !is_identity(perm));
    let (at, ct, b, inv) = match perm {
        None => (at, ct, b.to_vec(), None),
        Some(perm) => {
            let inv = order::inverse(&perm);
            (
                at.permute(&perm, &inv),
                ct.map(|c| c.permute(&perm, &inv)),
                b.iter()
                    .map(|g| perm.iter().map(|&old| g[old as usize]).collect())
                    .collect(),
                Some(inv),
            )
        }
    };
    let pattern = Pattern::from_rows(n, |i| at.row_cols(i).iter().copied());
    // One factorisation serves every wanted component.
    let lifter = lift::Lifter::new(at, &pattern)?;
    let first = b.len();
    for &s in distinct {
        let mut unit = vec![0i64; n];
        unit[inv.as_ref().map_or(s, |inv| inv[s] as usize)] = 1;
        // Which solutions want s: the first block's (g = b_k) and the chained one (g = b_feed).
        let mut who: Vec<usize> = Vec::new();
        let mut functionals: Vec<lift::Functional<'_>> = Vec::new();
        for (k, comps) in components.iter().enumerate() {
            if as_vector[k] || !comps.contains(&s) {
                continue;
            }
            let (g, chained) = if k < first {
                (&b[k][..], false)
            } else {
                (
                    &b[chained_rhs.expect("a chained solution has a feed")][..],
                    true,
                )
            };
            who.push(k);
            functionals.push(lift::Functional {
                g,
                chained,
                num_bits: bounds[k].1,
                den_bits: bounds[k].0,
            });
        }
        let got = lifter.lift(ct.as_ref(), &unit, &functionals)?;
        for (k, v) in who.into_iter().zip(got) {
            for (slot, &comp) in lifted[k].iter_mut().zip(&components[k]) {
                if comp == s {
                    *slot = Some(v.clone());
                }
            }
        }
    }
    Some(())
}

/// A chained solve for [`solve_exact_int`]: (C as integer rows, the right-hand side that feeds
/// it, the wanted components), as in [`Chained`].
pub type ChainedInt<'a> = (&'a [Vec<(usize, i64)>], usize, Wanted<'a>);

/// [`solve_exact`] for an integer system (no scaling, no rational arithmetic before the final
/// divisions): `a` and `c` as sparse rows of `i64`, integer right-hand sides.
///
/// # Errors
///
/// [`Singular`] when A is singular.
///
/// # Panics
///
/// When a right-hand side or a column index does not fit the size of A.
pub fn solve_exact_int(
    a: &[Vec<(usize, i64)>],
    rhs: &[Vec<i64>],
    wanted: &[Wanted<'_>],
    chained: Option<ChainedInt<'_>>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    let n = a.len();
    for b in rhs {
        assert_eq!(b.len(), n, "right-hand side has the wrong length");
    }
    assert_eq!(wanted.len(), rhs.len(), "one Wanted per right-hand side");
    let components: Vec<Vec<usize>> = wanted
        .iter()
        .chain(chained.as_ref().map(|c| &c.2))
        .map(|w| match w {
            Wanted::All => (0..n).collect(),
            Wanted::Some(c) => c.to_vec(),
        })
        .collect();
    if n == 0 {
        return Ok(vec![Vec::new(); components.len()]);
    }
    // Rows with each column once (repeats summed), zeros dropped.
    let a_csr = lift::Csr::from_rows(n, a);
    let c_csr = chained.as_ref().map(|c| lift::Csr::from_rows(n, c.0));
    let chained_rhs = chained.as_ref().map(|c| c.1);
    if let Some(x) = solve_by_lifting(&a_csr, rhs, c_csr.as_ref(), chained_rhs, &components) {
        return Ok(x);
    }
    let rows = a_csr.to_int_rows();
    let b_int: Vec<Vec<Int>> = rhs
        .iter()
        .map(|b| b.iter().map(|&v| Int::Small(v)).collect())
        .collect();
    let c_int = c_csr.map(|c| c.to_int_rows()).unwrap_or_default();
    let rational = |m: &[Vec<(usize, i64)>]| -> SparseRows {
        m.iter()
            .map(|r| {
                r.iter()
                    .map(|(j, v)| (*j, BigRational::from_integer(BigInt::from(*v))))
                    .collect()
            })
            .collect()
    };
    solve_by_elimination(&rows, &b_int, &c_int, chained_rhs, &components, || {
        let a = rational(a);
        let rhs: Vec<Vec<BigRational>> = rhs
            .iter()
            .map(|b| {
                b.iter()
                    .map(|&v| BigRational::from_integer(BigInt::from(v)))
                    .collect()
            })
            .collect();
        let c = chained.as_ref().map(|c| rational(c.0));
        let ch = chained.as_ref().zip(c.as_ref()).map(|(ch, c)| Chained {
            c,
            rhs: ch.1,
            wanted: ch.2,
        });
        reference_solve(&a, &rhs, &components, ch.as_ref())
    })
}

/// The exact reference elimination on `A`, for the rare systems the primes cannot settle
/// (singular ones, or ones that need a row exchange).
fn reference_solve(
    a: &SparseRows,
    rhs: &[Vec<BigRational>],
    components: &[Vec<usize>],
    chained: Option<&Chained<'_>>,
) -> Result<Vec<Vec<BigRational>>, Singular> {
    // SparseLu factors I - Q: pass Q = I - A.
    let q: SparseRows = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r: BTreeMap<usize, BigRational> = BTreeMap::new();
            r.insert(i, BigRational::one());
            for (j, v) in row {
                *r.entry(*j).or_insert_with(BigRational::zero) -= v;
            }
            r.into_iter().filter(|(_, v)| !v.is_zero()).collect()
        })
        .collect();
    // Without pivoting first (the chains' case); a zero pivot may still need a row exchange.
    type Solver<'s> = Box<dyn Fn(&[BigRational]) -> Result<Vec<BigRational>, Singular> + 's>;
    let solve: Solver<'_> = match SparseLu::factor(&q) {
        Ok(lu) => Box::new(move |b: &[BigRational]| Ok(lu.solve(b))),
        Err(_) => Box::new(|b: &[BigRational]| solve_dense(&q, b)),
    };
    let mut xs: Vec<Vec<BigRational>> = rhs.iter().map(|b| solve(b)).collect::<Result<_, _>>()?;
    if let Some(ch) = chained {
        let x = &xs[ch.rhs];
        let y: Vec<BigRational> =
            ch.c.iter()
                .map(|row| {
                    row.iter()
                        .fold(BigRational::zero(), |acc, (j, v)| acc + v * &x[*j])
                })
                .collect();
        xs.push(solve(&y)?);
    }
    Ok(xs
        .iter()
        .zip(components)
        .map(|(x, comps)| comps.iter().map(|&c| x[c].clone()).collect())
        .collect())
}

/// `A = I - Q` as sparse rows.
pub fn identity_minus(q: &SparseRows) -> SparseRows {
    q.iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r: BTreeMap<usize, BigRational> = BTreeMap::new();
            r.insert(i, BigRational::one());
            for (j, v) in row {
                *r.entry(*j).or_insert_with(BigRational::zero) -= v;
            }
            r.into_iter().filter(|(_, v)| !v.is_zero()).collect()
        })
        .collect()
}

/// Solves `(I - Q) x = b` exactly for several right-hand sides (every component), with the
/// multi-modular method of [`solve_exact`]. The general entry point for chains: Q is the
/// transient part of any absorbing chain (one board, or the joint chain of several players).
///
/// # Errors
///
/// [`Singular`] when `I - Q` is singular (some state cannot reach absorption).
pub fn solve_absorbing(
    q: &SparseRows,
    rhs: &[Vec<BigRational>],
) -> Result<Vec<Vec<BigRational>>, Singular> {
    solve_exact(&identity_minus(q), rhs, &vec![Wanted::All; rhs.len()], None)
}

/// Solves `A x = b` in floating point for the speed path (`expect --float`: no exact claim),
/// with an optional chained solve `A y = C x_k` (C as sparse rows, k the right-hand side that
/// feeds it; y comes last). Returns `None` when a pivot vanishes.
///
/// First tries an iterative solve (BiCGSTAB preconditioned by a backward
/// Gauss-Seidel sweep, which on a board numbered in square order, most moves going forward, is
/// nearly an exact triangular solve). Its answer is kept only when the residual passes a
/// backward-error test; otherwise the system is solved by elimination on the same pattern as
/// [`solve_exact`].
///
/// # Panics
///
/// When a right-hand side or a column index does not fit the size of A.
pub fn solve_float(
    a: &FloatRows,
    rhs: &[Vec<f64>],
    chained: Option<(&FloatRows, usize)>,
) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    for b in rhs {
        assert_eq!(b.len(), n, "right-hand side has the wrong length");
    }
    let iterative = || -> Option<Vec<Vec<f64>>> {
        let csr = Csr::new(a)?;
        let mut out = rhs
            .iter()
            .map(|b| krylov(&csr, b))
            .collect::<Option<Vec<_>>>()?;
        if let Some((c, k)) = chained {
            let y = chained_rhs(c, &out[k]);
            out.push(krylov(&csr, &y)?);
        }
        Some(out)
    };
    iterative().or_else(|| solve_float_direct(a, rhs, chained))
}

/// The values at one index `at` of the solutions of [`solve_float`], with the whole first
/// solution x_k that feeds the chained solve: `(x_k, [x_0[at], ..., x_{m-1}[at], y[at]])`.
///
/// Two iterative solves instead of one per right-hand side: `w = A^-T e_at` once, then
/// `x_j[at] = w . b_j` (and `y[at] = w . C x_k`), the adjoint identity
/// `e_at^T A^-1 b = (A^-T e_at)^T b`. For the absorbing-chain systems here A is an M-matrix, so
/// w and the right-hand sides are nonnegative and the dot products lose nothing to
/// cancellation. Falls back to [`solve_float`] when an iterative solve fails its residual test.
/// Returns `None` when a pivot vanishes.
///
/// # Panics
///
/// When a right-hand side, `k` or `at` does not fit the size of A.
pub fn solve_float_at(
    a: &FloatRows,
    rhs: &[Vec<f64>],
    chained: (&FloatRows, usize),
    at: usize,
) -> Option<(Vec<f64>, Vec<f64>)> {
    let n = a.len();
    assert!(at < n, "index out of range");
    for b in rhs {
        assert_eq!(b.len(), n, "right-hand side has the wrong length");
    }
    let (c, k) = chained;
    let iterative = || -> Option<(Vec<f64>, Vec<f64>)> {
        let csr = Csr::new(a)?;
        let x = krylov(&csr, &rhs[k])?;
        // A^T with rows and columns reversed (i -> n - 1 - i), so that its forward moves are
        // again above the diagonal and the backward sweep is the right preconditioner.
        let mut t: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
        for (i, row) in a.iter().enumerate() {
            for &(j, v) in row {
                t[n - 1 - j].push((n - 1 - i, v));
            }
        }
        let mut e = vec![0.0; n];
        e[n - 1 - at] = 1.0;
        let w_rev = krylov(&Csr::new(&t)?, &e)?;
        let w: Vec<f64> = w_rev.into_iter().rev().collect();
        let y = chained_rhs(c, &x);
        let mut values: Vec<f64> = rhs.iter().map(|b| dot(&w, b)).collect();
        values[k] = x[at];
        values.push(dot(&w, &y));
        Some((x, values))
    };
    iterative().or_else(|| {
        let mut all = solve_float(a, rhs, Some(chained))?;
        let values = all.iter().map(|x| x[at]).collect();
        Some((all.swap_remove(k), values))
    })
}

/// `C x` for sparse rows C.
fn chained_rhs(c: &FloatRows, x: &[f64]) -> Vec<f64> {
    c.iter()
        .map(|row| row.iter().map(|(j, v)| v * x[*j]).sum())
        .collect()
}

/// The most iterations [`krylov`] makes for one right-hand side before giving up.
const KRYLOV_MAX_ITERATIONS: usize = 500;

/// A float matrix in compressed rows, split for the preconditioner.
struct Csr {
    /// Row i's entries are `start[i]..start[i + 1]`, columns ascending after the diagonal's
    /// position `diag[i]` (entries at or after it are on or above the diagonal).
    start: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<f64>,
    /// The position of the (summed) diagonal entry of each row.
    diag: Vec<usize>,
    /// max_i sum_j |a_ij|.
    norm: f64,
}

impl Csr {
    /// `None` when a diagonal entry is zero.
    fn new(a: &FloatRows) -> Option<Csr> {
        let n = a.len();
        let mut start = Vec::with_capacity(n + 1);
        let mut cols = Vec::new();
        let mut vals = Vec::new();
        let mut diag = Vec::with_capacity(n);
        let mut norm = 0.0f64;
        let mut row: Vec<(usize, f64)> = Vec::new();
        for (i, r) in a.iter().enumerate() {
            start.push(cols.len());
            row.clear();
            row.extend(r.iter().copied());
            row.push((i, 0.0));
            row.sort_unstable_by_key(|e| e.0);
            let mut abs = 0.0;
            let mut k = 0;
            while k < row.len() {
                let j = row[k].0;
                assert!(j < n, "column index out of range");
                let mut v = 0.0;
                while k < row.len() && row[k].0 == j {
                    v += row[k].1;
                    k += 1;
                }
                if j == i {
                    if v == 0.0 {
                        return None;
                    }
                    diag.push(cols.len());
                }
                abs += f64::abs(v);
                cols.push(j as u32);
                vals.push(v);
            }
            norm = norm.max(abs);
        }
        start.push(cols.len());
        Some(Csr {
            start,
            cols,
            vals,
            diag,
            norm,
        })
    }

    /// `out = A x`.
    fn mul(&self, x: &[f64], out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            let mut s = 0.0;
            for e in self.start[i]..self.start[i + 1] {
                s += self.vals[e] * x[self.cols[e] as usize];
            }
            *o = s;
        }
    }

    /// Solves `M z = r` for M the upper triangle of A with its diagonal: one backward
    /// Gauss-Seidel sweep from zero, which on a board in square order (moves mostly forward)
    /// is most of A.
    fn precondition(&self, r: &[f64], z: &mut [f64]) {
        for i in (0..r.len()).rev() {
            let d = self.diag[i];
            let mut s = r[i];
            for e in d + 1..self.start[i + 1] {
                s -= self.vals[e] * z[self.cols[e] as usize];
            }
            z[i] = s / self.vals[d];
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn inf_norm(a: &[f64]) -> f64 {
    a.iter().fold(0.0, |m, x| m.max(x.abs()))
}

/// Solves `A x = b` by BiCGSTAB (van der Vorst 1992, SIAM J. Sci. Stat. Comput. 13(2), 631-644;
/// algorithm as in Saad, *Iterative Methods for Sparse Linear Systems*, 2nd ed., algorithm 7.7)
/// right-preconditioned by one backward Gauss-Seidel sweep ([`Csr::precondition`]), restarted
/// from the current iterate when the recurrence stalls. The answer is accepted only when the
/// true residual `r = b - A x` passes the normwise backward-error test
/// `|r|_inf <= 1e-14 (|A|_inf |x|_inf + |b|_inf)` (Higham, *Accuracy and Stability of Numerical
/// Algorithms*, 2nd ed., theorem 7.1), as good as a backward-stable direct solve; `None`
/// otherwise (the caller then eliminates).
fn krylov(a: &Csr, b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let b_norm = inf_norm(b);
    let mut x = vec![0.0; n];
    if b_norm == 0.0 {
        return Some(x);
    }
    let mut r = b.to_vec();
    let (mut p, mut v, mut s, mut t) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut p_hat, mut s_hat) = (vec![0.0; n], vec![0.0; n]);
    let accept = |r: &[f64], x: &[f64]| inf_norm(r) <= 1e-14 * (a.norm * inf_norm(x) + b_norm);
    let mut iterations = 0;
    while iterations < KRYLOV_MAX_ITERATIONS {
        // (Re)start from the true residual.
        a.mul(&x, &mut t);
        for ((ri, bi), ti) in r.iter_mut().zip(b).zip(&t) {
            *ri = bi - ti;
        }
        if accept(&r, &x) {
            return Some(x);
        }
        let r0 = r.clone();
        let (mut rho, mut alpha, mut omega) = (1.0, 1.0, 1.0);
        v.fill(0.0);
        p.fill(0.0);
        loop {
            iterations += 1;
            let rho_new = dot(&r0, &r);
            if rho_new == 0.0 || omega == 0.0 || !rho_new.is_finite() {
                break;
            }
            let beta = (rho_new / rho) * (alpha / omega);
            rho = rho_new;
            for ((pi, ri), vi) in p.iter_mut().zip(&r).zip(&v) {
                *pi = ri + beta * (*pi - omega * vi);
            }
            a.precondition(&p, &mut p_hat);
            a.mul(&p_hat, &mut v);
            let r0v = dot(&r0, &v);
            if r0v == 0.0 {
                break;
            }
            alpha = rho / r0v;
            for ((si, ri), vi) in s.iter_mut().zip(&r).zip(&v) {
                *si = ri - alpha * vi;
            }
            a.precondition(&s, &mut s_hat);
            a.mul(&s_hat, &mut t);
            let tt = dot(&t, &t);
            omega = if tt == 0.0 { 0.0 } else { dot(&t, &s) / tt };
            for ((xi, ph), sh) in x.iter_mut().zip(&p_hat).zip(&s_hat) {
                *xi += alpha * ph + omega * sh;
            }
            for ((ri, si), ti) in r.iter_mut().zip(&s).zip(&t) {
                *ri = si - omega * ti;
            }
            // Restart (and test the true residual) once the recurrence says it is small.
            if inf_norm(&r) <= 1e-15 * (a.norm * inf_norm(&x) + b_norm)
                || iterations >= KRYLOV_MAX_ITERATIONS
            {
                break;
            }
        }
        if !x.iter().all(|v| v.is_finite()) {
            return None;
        }
    }
    a.mul(&x, &mut t);
    for ((ri, bi), ti) in r.iter_mut().zip(b).zip(&t) {
        *ri = bi - ti;
    }
    accept(&r, &x).then_some(x)
}

/// [`solve_float`] by elimination on the same pattern as [`solve_exact`].
fn solve_float_direct(
    a: &FloatRows,
    rhs: &[Vec<f64>],
    chained: Option<(&FloatRows, usize)>,
) -> Option<Vec<Vec<f64>>> {
    let pattern = Pattern::from_rows(a.len(), |i| a[i].iter().map(|(j, _)| *j as u32));
    let positions = pattern.positions(|i| a[i].iter().map(|(j, _)| *j as u32));
    let mut vals = vec![0.0; pattern.entries()];
    for ((_, x), &k) in a.iter().flatten().zip(&positions) {
        vals[k] += x;
    }
    let lu = Numeric::factor(Float, &pattern, vals)?;
    let mut out: Vec<Vec<f64>> = rhs
        .iter()
        .map(|b| {
            let mut y = b.clone();
            lu.solve(Float, &pattern, &mut y);
            y
        })
        .collect();
    if let Some((c, k)) = chained {
        let mut y = chained_rhs(c, &out[k]);
        lu.solve(Float, &pattern, &mut y);
        out.push(y);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn solves_the_tiny_board_by_hand() {
        // Tiny board: from 0, 1/2 to 0 and 1/2 to 3; from 3, 1/2 stays and 1/2 finishes.
        // Expected turns: t3 = 1 + t3/2 => 2; t0 = 1 + t0/2 + t3/2 => 4.
        let m: SparseRows = vec![vec![(0, q(1, 2)), (1, q(1, 2))], vec![(1, q(1, 2))]];
        let ones = vec![q(1, 1); 2];
        let lu = SparseLu::factor(&m).unwrap();
        assert_eq!(lu.solve(&ones), vec![q(4, 1), q(2, 1)]);
        assert_eq!(solve_dense(&m, &ones).unwrap(), vec![q(4, 1), q(2, 1)]);
    }

    #[test]
    fn handles_back_edges_that_create_fill() {
        // Three states with a long back edge 2 -> 0: x0 = 1 + x1/2, x1 = 1 + x2/2, x2 = 1 + x0/2.
        // By hand: x0 = 1 + (1 + (1 + x0/2)/2)/2 = 7/4 + x0/8 => x0 = 2, and by symmetry all 2.
        let m: SparseRows = vec![vec![(1, q(1, 2))], vec![(2, q(1, 2))], vec![(0, q(1, 2))]];
        let ones = vec![q(1, 1); 3];
        assert_eq!(SparseLu::factor(&m).unwrap().solve(&ones), vec![q(2, 1); 3]);
    }

    #[test]
    fn the_float_solves_match_the_hand_solutions() {
        // The cycle above as I - Q: x_i - x_{i+1}/2 = b_i. For b = 1: every x_i = 2. For
        // b = e_0: x2 = x0/2, x1 = x2/2 = x0/4, x0 - x0/8 = 1, so x0 = 8/7 and x1 = 2/7. The
        // chained solve A y = x (C = I, fed by b = 1) is y = 2 A^-1 1 = 4 everywhere.
        let a: Vec<Vec<(usize, f64)>> = vec![
            vec![(0, 1.0), (1, -0.5)],
            vec![(1, 1.0), (2, -0.5)],
            vec![(2, 1.0), (0, -0.5)],
        ];
        let identity: Vec<Vec<(usize, f64)>> = (0..3).map(|i| vec![(i, 1.0)]).collect();
        let rhs = vec![vec![1.0; 3], vec![1.0, 0.0, 0.0]];
        let close = |x: f64, y: f64| (x - y).abs() < 1e-14;
        let (x, at) = solve_float_at(&a, &rhs, (&identity, 0), 1).unwrap();
        assert!(x.iter().all(|&v| close(v, 2.0)), "{x:?}");
        assert!(
            close(at[0], 2.0) && close(at[1], 2.0 / 7.0) && close(at[2], 4.0),
            "{at:?}"
        );
        let all = solve_float(&a, &rhs, Some((&identity, 0))).unwrap();
        assert!(
            close(all[1][0], 8.0 / 7.0) && close(all[2][2], 4.0),
            "{all:?}"
        );
        let direct = solve_float_direct(&a, &rhs, Some((&identity, 0))).unwrap();
        assert!(close(direct[1][1], 2.0 / 7.0), "{direct:?}");
        // A zero diagonal: no iterative solve, and elimination meets a zero pivot.
        let swap = vec![vec![(1, 1.0)], vec![(0, 1.0)]];
        let two: Vec<Vec<(usize, f64)>> = (0..2).map(|i| vec![(i, 1.0)]).collect();
        assert!(solve_float_at(&swap, &[vec![1.0; 2]], (&two, 0), 0).is_none());
    }

    #[test]
    fn reports_a_singular_system() {
        // A state that only returns to itself never finishes.
        let m: SparseRows = vec![vec![(0, q(1, 1))]];
        assert_eq!(SparseLu::factor(&m).unwrap_err(), Singular { state: 0 });
        assert!(solve_dense(&m, &[q(1, 1)]).is_err());
    }

    #[test]
    fn the_modular_solver_matches_the_hand_solutions() {
        // The same two systems as above, worked by hand: (4, 2) and (2, 2, 2).
        let m: SparseRows = vec![vec![(0, q(1, 2)), (1, q(1, 2))], vec![(1, q(1, 2))]];
        let ones = vec![q(1, 1); 2];
        assert_eq!(
            solve_absorbing(&m, &[ones]).unwrap(),
            vec![vec![q(4, 1), q(2, 1)]]
        );
        let m: SparseRows = vec![vec![(1, q(1, 2))], vec![(2, q(1, 2))], vec![(0, q(1, 2))]];
        assert_eq!(
            solve_absorbing(&m, &[vec![q(1, 1); 3]]).unwrap(),
            vec![vec![q(2, 1); 3]]
        );
    }

    #[test]
    fn the_modular_solver_reports_a_singular_system() {
        let m: SparseRows = vec![vec![(0, q(1, 1))]];
        assert_eq!(
            solve_absorbing(&m, &[vec![q(1, 1)]]).unwrap_err(),
            Singular { state: 0 }
        );
    }

    #[test]
    fn the_column_bounds_hold_on_a_hand_solved_system() {
        // A = [[2, -1], [0, 3]], b = (1, 1): det A = 6, x = (2/3, 1/3), det(A) x = (4, 2).
        // Columns (2, 0) and (-1, 3): |det A| <= 2 sqrt(10), |det(A) x_j| <= sqrt(2) 2 sqrt(10).
        // Chained with C = I: y = A^-1 x = (7/18, 1/9), det(A)^2 y = (14, 4); the block's
        // columns give det(A)^2 <= sqrt(5) sqrt(11) 2 sqrt(10) (and <= (2 sqrt(10))^2).
        let rows = vec![vec![(0, 2), (1, -1)], vec![(1, 3)]];
        let a = lift::Csr::from_rows(2, &rows);
        let c = lift::Csr::from_rows(2, &[vec![(0, 1)], vec![(1, 1)]]);
        let got = log2_column_bounds(&a, &[vec![1, 1]], Some((&c, 0))).expect("small entries");
        let det = (2.0 * 10f64.sqrt()).log2();
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        assert!(close(got[0].0, det) && close(got[0].1, det + 0.5));
        let second = (5f64.sqrt() * 11f64.sqrt()).log2();
        assert!(close(got[1].0, (2.0 * det).min(det + second)));
        assert!(close(got[1].1, 0.5 + second + det));
        // And they bound the real numbers.
        assert!(got[0].0.exp2() >= 6.0 && got[0].1.exp2() >= 4.0);
        assert!(got[1].0.exp2() >= 36.0 && got[1].1.exp2() >= 14.0);
        // A zero column: no column bound.
        let zero = lift::Csr::from_rows(2, &[vec![(0, 1)], vec![(0, 1)]]);
        assert!(log2_column_bounds(&zero, &[vec![1, 1]], None).is_none());
    }

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
    fn the_lifting_route_matches_the_hand_solutions() {
        // 2 (I - Q) with Q = [[1/2, 1/2], [0, 1/2]] and b = 2: t = (4, 2) as above. Chained with
        // C = 2 I: 2 (I - Q) u = 2 t gives u1 = 2 / (1/2) = 4 and u0 / 2 - u1 / 2 = 4, u0 = 12.
        let csr = |rows: &[&[(usize, i64)]]| {
            let rows: Vec<Vec<(usize, i64)>> = rows.iter().map(|r| r.to_vec()).collect();
            lift::Csr::from_rows(rows.len(), &rows)
        };
        let a = csr(&[&[(0, 1), (1, -1)], &[(1, 1)]]);
        let c = csr(&[&[(0, 2)], &[(1, 2)]]);
        let b = vec![vec![2, 2]];
        for s in 0..2 {
            let comps = vec![vec![s], vec![s]];
            let got = solve_by_lifting(&a, &b, Some(&c), Some(0), &comps).expect("lifting applies");
            let (t, u) = if s == 0 { (4, 12) } else { (2, 4) };
            assert_eq!(got, vec![vec![q(t, 1)], vec![q(u, 1)]], "component {s}");
        }
        // Entries too large for machine-word residuals: lifting declines.
        let huge = csr(&[&[(0, 1 << 61)], &[(1, 1)]]);
        assert!(solve_by_lifting(&huge, &b, None, None, &[vec![0]]).is_none());
    }

    /// Integer rows as a [`lift::Csr`].
    fn csr_of(rows: &[Vec<(usize, i64)>]) -> lift::Csr {
        lift::Csr::from_rows(rows.len(), rows)
    }

    /// The multi-modular elimination on the same integer system, for comparison.
    fn by_elimination(
        a: &lift::Csr,
        b: &[Vec<i64>],
        c: Option<&lift::Csr>,
        chained_rhs: Option<usize>,
        components: &[Vec<usize>],
    ) -> Vec<Vec<BigRational>> {
        let b_int: Vec<Vec<Int>> = b
            .iter()
            .map(|b| b.iter().map(|&v| Int::Small(v)).collect())
            .collect();
        let c_int = c.map(lift::Csr::to_int_rows).unwrap_or_default();
        solve_by_elimination(
            &a.to_int_rows(),
            &b_int,
            &c_int,
            chained_rhs,
            components,
            || panic!("the primes decide these systems"),
        )
        .expect("nonsingular")
    }

    #[test]
    fn the_vector_route_matches_a_hand_solution() {
        // A 5-cycle: x_i - x_{i+1}/2 = b_i (indices mod 5), as A = 2 (I - Q) with b = 2 e_0.
        // By hand: x_4 = x_0/2, x_3 = x_0/4, x_2 = x_0/8, x_1 = x_0/16 and x_0 = 1 + x_1/2 =
        // 1 + x_0/32, so x_0 = 32/31 and x = (32, 2, 4, 8, 16)/31. Chained (C = 2 I, fed by x):
        // y = (I - Q)^-1 x and (I - Q)^-1 = (32/31) sum_{k<5} 2^-k Q'^k (Q' the shift), so
        // y_0 = (32/31) (x_0 + x_1/2 + x_2/4 + x_3/8 + x_4/16) = (32/31) (36/31) = 1152/961.
        let rows: Vec<Vec<(usize, i64)>> =
            (0..5).map(|i| vec![(i, 2), ((i + 1) % 5, -1)]).collect();
        let a = csr_of(&rows);
        let c = csr_of(&(0..5).map(|i| vec![(i, 2)]).collect::<Vec<_>>());
        let b = vec![vec![2, 0, 0, 0, 0]];
        let x: Vec<BigRational> = [32, 2, 4, 8, 16].iter().map(|&v| q(v, 31)).collect();
        // The vector route alone, components in any order and repeated.
        let comps = [4, 0, 2, 2, 1, 3];
        let got = vector::solve_vectors(
            &a,
            &[vector::VectorSolution {
                b: &b[0],
                components: &comps,
                num_bits: 20.0,
                den_bits: 20.0,
            }],
        )
        .expect("the vector route applies");
        let want: Vec<BigRational> = comps.iter().map(|&j| x[j].clone()).collect();
        assert_eq!(parts(&got), parts(&[want]));
        // Through the dispatch: every component (more than MAX_LIFTED_COMPONENTS) as a vector,
        // the chained value at 0 on the transposed system.
        let comps = vec![(0..5).collect::<Vec<usize>>(), vec![0]];
        let got = solve_by_lifting(&a, &b, Some(&c), Some(0), &comps).expect("lifting applies");
        assert_eq!(parts(&got), parts(&[x, vec![q(1152, 961)]]));
        assert_eq!(
            parts(&got),
            parts(&by_elimination(&a, &b, Some(&c), Some(0), &comps))
        );
    }

    /// Numerators and denominators as stored: `BigRational`'s `==` compares values, so this is
    /// what shows a fraction left unreduced.
    fn parts(x: &[Vec<BigRational>]) -> Vec<Vec<(BigInt, BigInt)>> {
        x.iter()
            .map(|v| {
                v.iter()
                    .map(|q| (q.numer().clone(), q.denom().clone()))
                    .collect()
            })
            .collect()
    }

    /// A random nonsingular sparse integer system (diagonally dominant rows, entries of both
    /// signs) of n unknowns; with `split`, rows from `split` on only use columns from `split` on,
    /// so those components have denominators dividing a smaller determinant than the others.
    fn random_system(
        next: &mut impl FnMut() -> u64,
        n: usize,
        split: Option<usize>,
    ) -> Vec<Vec<(usize, i64)>> {
        (0..n)
            .map(|i| {
                let lo = split.filter(|&k| i >= k).unwrap_or(0);
                let mut row = Vec::new();
                let mut sum = 0;
                for _ in 0..(next() % 4) {
                    let j = lo + (next() as usize) % (n - lo);
                    if j != i {
                        let v = (next() % 7) as i64 - 3;
                        sum += v.abs();
                        row.push((j, v));
                    }
                }
                row.push((i, sum + 1 + (next() % 3) as i64));
                row
            })
            .collect()
    }

    #[test]
    fn the_vector_route_equals_the_multi_modular_elimination_on_random_systems() {
        // Sizes below and above order::SMALL (so the fill-reducing permutation is exercised),
        // right-hand sides of both signs, components in shuffled order (so that the first one
        // rebuilt may have a small denominator, and later ones need the reconstruction and a
        // new common denominator), and a chained solve at two components on the transposed
        // system alongside.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut rebuilt = 0;
        for case in 0..60 {
            let n = if case % 6 == 5 {
                150 + case
            } else {
                5 + case % 30
            };
            let split = (case % 2 == 1).then(|| n / 2 + case % 3);
            let rows = random_system(&mut next, n, split);
            let a = csr_of(&rows);
            let c = csr_of(&random_system(&mut next, n, None));
            let b: Vec<Vec<i64>> = (0..2)
                .map(|_| (0..n).map(|_| (next() % 11) as i64 - 5).collect())
                .collect();
            let mut all: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                all.swap(i, (next() as usize) % (i + 1));
            }
            // The first solution wants every component (rebuilt from the seeds by substitution),
            // the second a few more than MAX_LIFTED_COMPONENTS (fewer than the seeds: each
            // rebuilt from its own digits).
            let some: Vec<usize> = all.iter().take(5 + case % 4).copied().collect();
            let comps = vec![all, some, vec![n - 1, 0]];
            let got = solve_by_lifting(&a, &b, Some(&c), Some(1), &comps).expect("lifting applies");
            assert_eq!(
                parts(&got),
                parts(&by_elimination(&a, &b, Some(&c), Some(1), &comps)),
                "case {case}, n = {n}"
            );
            rebuilt += n;
        }
        assert!(rebuilt > 1000);
    }

    #[test]
    fn the_vector_route_equals_the_multi_modular_elimination_on_1000_squares() {
        // The turn chain of a generated 1,000-square board (960 states, with fill and a
        // non-identity order), rows scaled by 6 to integers: every square's expected turns as a
        // vector, the start's second moment chained, against the elimination modulo many primes.
        use crate::board::Rules;
        use crate::generate::{generate, GenerateOptions};
        let g = generate(&GenerateOptions {
            size: 1000,
            snakes: 20,
            ladders: 20,
            seed: 3,
            rules: Rules::default(),
        })
        .unwrap();
        let chain = Chain::for_board(&g.board);
        let a_q = identity_minus(&transient_matrix(&chain));
        let n = a_q.len();
        let six = BigRational::from_integer(6.into());
        let rows: Vec<Vec<(usize, i64)>> = a_q
            .iter()
            .map(|r| {
                r.iter()
                    .map(|(j, v)| {
                        let x = v * &six;
                        assert!(x.is_integer(), "turn-chain probabilities are sixths");
                        (*j, i64::try_from(x.to_integer()).unwrap())
                    })
                    .collect()
            })
            .collect();
        let a = csr_of(&rows);
        let c = csr_of(&(0..n).map(|i| vec![(i, 6)]).collect::<Vec<_>>());
        let b = vec![vec![6i64; n]];
        let s = chain.start();
        let comps = vec![(0..n).rev().collect::<Vec<usize>>(), vec![s]];
        let got = solve_by_lifting(&a, &b, Some(&c), Some(0), &comps).expect("lifting applies");
        assert_eq!(
            parts(&got),
            parts(&by_elimination(&a, &b, Some(&c), Some(0), &comps))
        );
    }

    #[test]
    fn the_modular_solver_handles_negative_and_huge_values() {
        // A = [[3, -1], [2^200, 5]], b = (1, -2^201 / 7): solved by hand with Cramer's rule,
        // det = 15 + 2^200, x0 = (5 - 2^201/7) / det, x1 = (3 (-2^201/7) - 2^200) / det.
        let big = BigRational::from_integer(BigInt::from(1) << 200usize);
        let b1 = -(&big * q(2, 7));
        let a: SparseRows = vec![
            vec![(0, q(3, 1)), (1, q(-1, 1))],
            vec![(0, big.clone()), (1, q(5, 1))],
        ];
        let det = q(15, 1) + &big;
        let x0 = (q(5, 1) + &b1) / &det;
        let x1 = (q(3, 1) * &b1 - &big) / &det;
        let got = solve_exact(&a, &[vec![q(1, 1), b1]], &[Wanted::All], None).unwrap();
        assert_eq!(got, vec![vec![x0, x1]]);
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
