//! The elimination pattern of a sparse matrix ([`Pattern`]: which entries exist after fill, computed
//! once) and its numeric factorisation over any [`Field`]: residues modulo a prime ([`Mont`]) or
//! floats ([`Float`]).

use super::*;

/// The elimination pattern of a sparse matrix: which entries exist after fill. Computed once
/// and shared by every prime (and by the float path).
///
/// Rows are stored flat: row i's columns are `cols[start[i]..start[i + 1]]`, ascending, and the
/// numeric factors (`Numeric`) keep their values in a vector parallel to `cols`.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// Where each row starts in `cols` (n + 1 offsets).
    pub(super) start: Vec<usize>,
    /// The columns of every row after fill, row after row, each row ascending.
    pub(super) cols: Vec<u32>,
    /// The index in `cols` of each row's diagonal entry.
    pub(super) diag: Vec<usize>,
}

impl Pattern {
    /// The fill of eliminating the variables from the last to the first, without pivoting, for
    /// rows given as lists of columns (the diagonal is added; repeats are allowed).
    ///
    /// Rows and columns are in the caller's order; for a board numbered in square order this
    /// follows the near-banded structure (moves go forward by at most the die, jumps add a few
    /// long edges), so fill stays small. (Used by `exact::order`'s tests, which compare the
    /// order's count of fill with the solver's.)
    #[cfg(test)]
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
    pub(super) fn len(&self) -> usize {
        self.diag.len()
    }

    /// Row i's columns.
    pub(super) fn row(&self, i: usize) -> &[u32] {
        &self.cols[self.start[i]..self.start[i + 1]]
    }

    /// For each entry of the rows given (the rows the pattern was built from, in order), its
    /// index in `cols`.
    pub(super) fn positions<I: Iterator<Item = u32>>(
        &self,
        row: impl Fn(usize) -> I,
    ) -> Vec<usize> {
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
    pub(super) fn values_mod(
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
pub(super) trait Field: Copy {
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
pub(super) struct Float;

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
pub(super) struct Numeric<E> {
    pub(super) vals: Vec<E>,
    pub(super) inv_pivot: Vec<E>,
}

impl<E: Copy> Numeric<E> {
    /// Eliminates in place (`vals` laid out on `pat`); `None` when a pivot vanishes.
    ///
    /// Row by row from the last (left-looking): row u is scattered into a dense work row, its
    /// pivots v > u are applied in decreasing order (`a_uv` is final by then: only pivots above
    /// v touch column v), each subtracting `a_uv` times row v's normalised lower part, and the
    /// row is gathered back. The same operations in the same order as eliminating pivot by
    /// pivot, with direct indexing instead of merging rows.
    pub(super) fn factor<F: Field<E = E>>(
        f: F,
        pat: &Pattern,
        mut vals: Vec<E>,
    ) -> Option<Numeric<E>> {
        let n = pat.len();
        let mut inv_pivot = vec![f.zero(); n];
        let mut work = vec![f.zero(); n];
        let stage = crate::progress::Stage::begin("factorising", Some(n as u64));
        for u in (0..n).rev() {
            if u % crate::progress::ROWS_PER_REPORT == 0 {
                stage.advance((n - u) as u64);
            }
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
    pub(super) fn solve<F: Field<E = E>>(&self, f: F, pat: &Pattern, y: &mut [E]) {
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
pub(super) struct Folded {
    pub(super) vals: Vec<u64>,
    pub(super) inv_pivot: Vec<u64>,
}

impl Folded {
    pub(super) fn new(lu: Numeric<u64>, m: &Mont, pat: &Pattern) -> Folded {
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
    pub(super) fn solve(&self, m: &Mont, pat: &Pattern, y: &mut [u64]) {
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
