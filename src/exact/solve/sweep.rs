//! The float solve by backward sweeps (`expect --float`): on a board numbered in square order
//! most moves go forward, so `A = U + L` with U upper triangular (the diagonal and the forward
//! moves) and L (the backward moves: snakes, bounces) nonzero in only k columns, the squares
//! the backward moves land on (the tails T). By the Woodbury identity, `A x = b` is
//!
//! 1. `U z = b` (one backward sweep, decreasing square order);
//! 2. `S x_T = z_T` with `S = I + (U^-1 L)_T`, a dense k x k system (the tails' values);
//! 3. `U x = b - L x_T` (a second sweep).
//!
//! Building S costs one sweep per tail (each only below the highest square that reaches the
//! tail) and a dense factorisation, once for every right-hand side; then a right-hand side
//! costs two sweeps. Every sweep carries [`LANES`] columns at once (tails, or right-hand
//! sides), so the multiply-adds of one row do not wait on each other. On the generated
//! 10,000-square board (198 tails) that is a few million multiplications where the
//! preconditioned BiCGSTAB of `float.rs` needed about 35 iterations per solve. Each answer is
//! residual-checked (and refined once) like the iterative one.

use super::float::{accepts, residual, Csr};

/// Work allowed for building S, in multiples of the matrix's entries: above it the iterative
/// solve is cheaper (about 70 iterations of two products and two sweeps each).
const BUDGET_PER_ENTRY: usize = 400;

/// Columns swept together: independent, so the sweep's multiply-adds do not wait on each
/// other.
const LANES: usize = 8;

/// An entry of L: (row, tail index, value).
type Entry = (usize, usize, f64);

/// A factored [`Csr`] ready for the three steps of the module doc.
pub(super) struct Sweep<'a> {
    csr: &'a Csr,
    /// 1 / the diagonal.
    inverse: Vec<f64>,
    /// The tails: columns with an entry below the diagonal, ascending.
    tails: Vec<usize>,
    /// The entries of L, rows descending (the order the sweeps meet them).
    lower: Vec<Entry>,
    /// S = P^-1 L U (row-major, k x k): unit lower and upper triangles in place.
    lu: Vec<f64>,
    /// Row i of the factors is row `perm[i]` of S.
    perm: Vec<usize>,
}

impl<'a> Sweep<'a> {
    /// `None` when building S would cost more than the iterative solve, or S is singular.
    pub(super) fn new(csr: &'a Csr) -> Option<Sweep<'a>> {
        // The entries below the diagonal, by column: (column, row, value).
        let mut below: Vec<(usize, usize, f64)> = Vec::new();
        for (i, &d) in csr.diag.iter().enumerate() {
            for e in csr.start[i]..d {
                below.push((csr.cols[e] as usize, i, csr.vals[e]));
            }
        }
        below.sort_unstable_by_key(|&(j, i, _)| (j, i));
        let mut tails: Vec<usize> = Vec::new();
        let mut columns: Vec<Vec<(usize, f64)>> = Vec::new();
        for &(j, i, v) in &below {
            if tails.last() != Some(&j) {
                tails.push(j);
                columns.push(Vec::new());
            }
            if let Some(column) = columns.last_mut() {
                column.push((i, v));
            }
        }
        let k = tails.len();
        let entries = csr.vals.len().max(1);
        if k.saturating_mul(entries) + k.saturating_pow(3) / 3 > BUDGET_PER_ENTRY * entries {
            return None;
        }
        let inverse: Vec<f64> = csr.diag.iter().map(|&d| 1.0 / csr.vals[d]).collect();
        let mut s = schur(csr, &inverse, &tails, &columns);
        let perm = factor(&mut s, k)?;
        Some(Sweep {
            csr,
            inverse,
            tails,
            lower: descending(columns.iter().enumerate()),
            lu: s,
            perm,
        })
    }

    /// `A^-1 b` for at most `W` right-hand sides at once, by the three steps of the module doc.
    fn apply<const W: usize>(&self, bs: &[&[f64]]) -> Vec<Vec<f64>> {
        let n = self.csr.diag.len();
        let m = bs.len();
        assert!(m <= W, "more right-hand sides than lanes");
        let row = |i: usize| {
            let mut r = [0.0; W];
            for (x, b) in r.iter_mut().zip(bs) {
                *x = b[i];
            }
            r
        };
        let mut z = vec![0.0; n * W];
        upper_lanes(self.csr, &self.inverse, &mut z, n, row);
        let x_t: Vec<Vec<f64>> = (0..m)
            .map(|w| {
                let z_t: Vec<f64> = self.tails.iter().map(|&t| z[t * W + w]).collect();
                lu_solve(&self.lu, &self.perm, &z_t)
            })
            .collect();
        let mut next = self.lower.iter().peekable();
        upper_lanes(self.csr, &self.inverse, &mut z, n, |i| {
            let mut r = row(i);
            while let Some(&(_, c, v)) = next.next_if(|e| e.0 == i) {
                for (x, t) in r.iter_mut().zip(&x_t) {
                    *x -= v * t[c];
                }
            }
            r
        });
        (0..m)
            .map(|w| (0..n).map(|i| z[i * W + w]).collect())
            .collect()
    }

    /// [`Sweep::apply`] with as many lanes as needed: one, or [`LANES`].
    fn apply_any(&self, bs: &[&[f64]]) -> Vec<Vec<f64>> {
        if bs.len() == 1 {
            self.apply::<1>(bs)
        } else {
            bs.chunks(LANES)
                .flat_map(|c| self.apply::<LANES>(c))
                .collect()
        }
    }

    /// Solves `A x = b` for every right-hand side, each refined once when its first answer
    /// fails the backward-error test of [`accepts`]; `None` when a refined one fails too.
    pub(super) fn solve(&self, bs: &[&[f64]]) -> Option<Vec<Vec<f64>>> {
        let mut xs = self.apply_any(bs);
        let mut failed: Vec<(usize, Vec<f64>)> = Vec::new();
        for (j, (x, b)) in xs.iter().zip(bs).enumerate() {
            let r = residual(self.csr, x, b);
            if !accepts(self.csr, &r, x, b) {
                failed.push((j, r));
            }
        }
        if failed.is_empty() {
            return Some(xs);
        }
        let rs: Vec<&[f64]> = failed.iter().map(|(_, r)| r.as_slice()).collect();
        for ((j, _), d) in failed.iter().zip(self.apply_any(&rs)) {
            let x = &mut xs[*j];
            for (xi, di) in x.iter_mut().zip(d) {
                *xi += di;
            }
            let r = residual(self.csr, x, bs[*j]);
            if !accepts(self.csr, &r, x, bs[*j]) {
                return None;
            }
        }
        Some(xs)
    }
}

/// The entries of the given columns of L (lane or tail index, column), rows descending.
fn descending<'c>(columns: impl Iterator<Item = (usize, &'c Vec<(usize, f64)>)>) -> Vec<Entry> {
    let mut entries: Vec<Entry> = columns
        .flat_map(|(c, column)| column.iter().map(move |&(i, v)| (i, c, v)))
        .collect();
    entries.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
    entries
}

/// Solves `U Z = R` for `W` columns at once (`z[i * W + w]`), rows `rows - 1` down to 0, where
/// row i of R is `rhs(i)`; rows of `z` at or above `rows` are read as they are (zero, or
/// solved).
fn upper_lanes<const W: usize>(
    csr: &Csr,
    inverse: &[f64],
    z: &mut [f64],
    rows: usize,
    mut rhs: impl FnMut(usize) -> [f64; W],
) {
    for i in (0..rows).rev() {
        let mut acc = rhs(i);
        for e in csr.diag[i] + 1..csr.start[i + 1] {
            let (v, at) = (csr.vals[e], csr.cols[e] as usize * W);
            for (a, g) in acc.iter_mut().zip(&z[at..at + W]) {
                *a -= v * g;
            }
        }
        for (g, a) in z[i * W..(i + 1) * W].iter_mut().zip(acc) {
            *g = a * inverse[i];
        }
    }
}

/// `S = I + (U^-1 L)_T` (row-major): column c is `U^-1` of tail c's column of L, read at the
/// tails. Tails are swept [`LANES`] at a time, in order of the highest row of their column
/// (the sweep starts there: rows above it are zero, as no earlier batch reached them).
fn schur(csr: &Csr, inverse: &[f64], tails: &[usize], columns: &[Vec<(usize, f64)>]) -> Vec<f64> {
    let (n, k) = (csr.diag.len(), tails.len());
    let top_of = |c: usize| columns[c].iter().map(|e| e.0).max().unwrap_or(0);
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&c| top_of(c));
    let mut s = vec![0.0; k * k];
    let mut block = vec![0.0; n * LANES];
    for batch in order.chunks(LANES) {
        let top = batch.iter().map(|&c| top_of(c)).max().unwrap_or(0);
        let entries = descending(batch.iter().enumerate().map(|(w, &c)| (w, &columns[c])));
        let mut next = entries.iter().peekable();
        upper_lanes(csr, inverse, &mut block, top + 1, |i| {
            let mut acc = [0.0; LANES];
            while let Some(&(_, w, v)) = next.next_if(|e| e.0 == i) {
                acc[w] += v;
            }
            acc
        });
        for (w, &c) in batch.iter().enumerate() {
            for (r, &t) in tails.iter().enumerate() {
                s[r * k + c] = block[t * LANES + w];
            }
        }
    }
    for r in 0..k {
        s[r * k + r] += 1.0;
    }
    s
}

/// Gaussian elimination with partial pivoting of the k x k row-major `s`, in place; returns the
/// row permutation, `None` on a zero pivot.
fn factor(s: &mut [f64], k: usize) -> Option<Vec<usize>> {
    let mut perm: Vec<usize> = (0..k).collect();
    for c in 0..k {
        let p = (c..k).max_by(|&x, &y| s[x * k + c].abs().total_cmp(&s[y * k + c].abs()))?;
        if s[p * k + c] == 0.0 || !s[p * k + c].is_finite() {
            return None;
        }
        if p != c {
            for j in 0..k {
                s.swap(p * k + j, c * k + j);
            }
            perm.swap(p, c);
        }
        let pivot = s[c * k + c];
        let (done, rest) = s.split_at_mut((c + 1) * k);
        let pivot_row = &done[c * k..];
        let pivot_tail = &pivot_row[c + 1..k];
        for row in rest.chunks_exact_mut(k) {
            let m = row[c] / pivot;
            row[c] = m;
            if m != 0.0 {
                for (x, p) in row[c + 1..].iter_mut().zip(pivot_tail) {
                    *x -= m * p;
                }
            }
        }
    }
    Some(perm)
}

/// Solves `S x = b` from the factors of [`factor`].
fn lu_solve(lu: &[f64], perm: &[usize], b: &[f64]) -> Vec<f64> {
    let k = perm.len();
    let mut x: Vec<f64> = perm.iter().map(|&p| b[p]).collect();
    for i in 0..k {
        let row = &lu[i * k..i * k + i];
        x[i] -= row.iter().zip(&x[..i]).map(|(a, b)| a * b).sum::<f64>();
    }
    for i in (0..k).rev() {
        let row = &lu[i * k..(i + 1) * k];
        let s: f64 = row[i + 1..]
            .iter()
            .zip(&x[i + 1..])
            .map(|(a, b)| a * b)
            .sum();
        x[i] = (x[i] - s) / row[i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `x_i - x_{i+1}/2 = b_i` on three states, the last going back to the first (one tail,
    /// column 0).
    fn cycle() -> Vec<Vec<(usize, f64)>> {
        vec![
            vec![(0, 1.0), (1, -0.5)],
            vec![(1, 1.0), (2, -0.5)],
            vec![(2, 1.0), (0, -0.5)],
        ]
    }

    #[test]
    fn the_sweep_solves_a_cycle_by_hand() {
        // The cycle with b = e_0: x2 = x0/2, x1 = x0/4, x0 - x0/8 = 1, so x = (8/7, 2/7, 4/7).
        let csr = Csr::new(&cycle()).unwrap();
        let sweep = Sweep::new(&csr).unwrap();
        assert_eq!(sweep.tails, vec![0]);
        let x = sweep.solve(&[&[1.0, 0.0, 0.0]]).unwrap();
        let want = [8.0 / 7.0, 2.0 / 7.0, 4.0 / 7.0];
        for (v, w) in x[0].iter().zip(want) {
            assert!((v - w).abs() < 1e-15, "{x:?}");
        }
    }

    #[test]
    fn right_hand_sides_swept_together_keep_their_own_answers() {
        // The cycle above with b = e_1: x2 = x0/2, x1 = 1 + x2/2 = 1 + x0/4, x0 = x1/2, so
        // x = (4/7, 8/7, 2/7); with b = e_2 the rotation (2/7, 4/7, 8/7). Nine right-hand sides
        // (more than one batch of lanes): e_0 to e_2, then s e_0 for s = 2..7, whose answer is s
        // times e_0's.
        let csr = Csr::new(&cycle()).unwrap();
        let sweep = Sweep::new(&csr).unwrap();
        let mut bs: Vec<Vec<f64>> = vec![
            vec![1.0, 0.0, 0.0],
            vec![0.0, 1.0, 0.0],
            vec![0.0, 0.0, 1.0],
        ];
        let mut want = vec![[8.0, 2.0, 4.0], [4.0, 8.0, 2.0], [2.0, 4.0, 8.0]];
        for s in 2..8 {
            bs.push(vec![s as f64, 0.0, 0.0]);
            want.push([8.0 * s as f64, 2.0 * s as f64, 4.0 * s as f64]);
        }
        let refs: Vec<&[f64]> = bs.iter().map(Vec::as_slice).collect();
        let xs = sweep.solve(&refs).unwrap();
        assert_eq!(xs.len(), 9);
        for (x, w) in xs.iter().zip(&want) {
            for (v, w) in x.iter().zip(w) {
                assert!((v - w / 7.0).abs() < 1e-14, "{xs:?}");
            }
        }
    }

    #[test]
    fn the_dense_factors_solve_a_system_that_needs_a_row_swap() {
        // [[0, 1], [2, 3]] x = (1, 8): x = (2.5, 1) by hand; the first pivot is zero unless
        // the rows are swapped.
        let mut s = vec![0.0, 1.0, 2.0, 3.0];
        let perm = factor(&mut s, 2).unwrap();
        assert_eq!(perm, vec![1, 0]);
        assert_eq!(lu_solve(&s, &perm, &[1.0, 8.0]), vec![2.5, 1.0]);
        let mut singular = vec![1.0, 2.0, 2.0, 4.0];
        assert!(factor(&mut singular, 2).is_none());
    }
}
