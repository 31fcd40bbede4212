//! The sparse integer matrix of the exact solver's lifting routes: compressed rows of `i64`
//! (columns ascending, repeats summed, zeros dropped), with the transposes, permutations, norms
//! and residual products the routes need.

use super::Int;

/// A sparse integer matrix in compressed rows, each row's columns ascending.
#[derive(Clone)]
pub(super) struct Csr {
    start: Vec<usize>,
    cols: Vec<u32>,
    /// The entries, row after row (the lifting reduces them modulo its prime).
    pub(super) vals: Vec<i64>,
}

impl Csr {
    /// From integer rows of `(column, value)` in any order: repeated columns summed, zeros
    /// dropped.
    ///
    /// # Panics
    ///
    /// When a column is not below `n` or a sum overflows.
    pub(super) fn from_rows(n: usize, rows: &[Vec<(usize, i64)>]) -> Csr {
        let mut start = Vec::with_capacity(rows.len() + 1);
        let mut entries: Vec<(u32, i64)> = Vec::with_capacity(rows.iter().map(Vec::len).sum());
        start.push(0);
        for r in rows {
            let from = entries.len();
            for &(j, v) in r {
                assert!(j < n, "column {j} outside a {n} x {n} matrix");
                entries.push((j as u32, v));
            }
            entries[from..].sort_unstable_by_key(|e| e.0);
            // Repeats summed in place, zeros dropped.
            let (mut w, mut k) = (from, from);
            while k < entries.len() {
                let j = entries[k].0;
                let mut sum: i64 = 0;
                while k < entries.len() && entries[k].0 == j {
                    sum = sum.checked_add(entries[k].1).expect("an entry fits an i64");
                    k += 1;
                }
                if sum != 0 {
                    entries[w] = (j, sum);
                    w += 1;
                }
            }
            entries.truncate(w);
            start.push(entries.len());
        }
        let (cols, vals) = entries.into_iter().unzip();
        Csr { start, cols, vals }
    }

    /// From the rows of a row-scaled system, if every entry fits a machine word.
    pub(super) fn from_int_rows(rows: &[Vec<(u32, Int)>]) -> Option<Csr> {
        let mut start = Vec::with_capacity(rows.len() + 1);
        let (mut cols, mut vals) = (Vec::new(), Vec::new());
        start.push(0);
        for r in rows {
            for (j, v) in r {
                let Int::Small(v) = v else {
                    return None;
                };
                cols.push(*j);
                vals.push(*v);
            }
            start.push(cols.len());
        }
        Some(Csr { start, cols, vals })
    }

    /// As rows of `(column, value)` for the multi-modular elimination.
    pub(super) fn to_int_rows(&self) -> Vec<Vec<(u32, Int)>> {
        (0..self.len())
            .map(|i| {
                let (cols, vals) = self.row(i);
                cols.iter()
                    .zip(vals)
                    .map(|(&j, &v)| (j, Int::Small(v)))
                    .collect()
            })
            .collect()
    }

    /// The transpose (of a square matrix).
    pub(super) fn transpose(&self) -> Csr {
        let n = self.len();
        let mut start = vec![0usize; n + 1];
        for &j in &self.cols {
            start[j as usize + 1] += 1;
        }
        for j in 0..n {
            start[j + 1] += start[j];
        }
        let mut next = start.clone();
        let entries = self.cols.len();
        let (mut cols, mut vals) = (vec![0u32; entries], vec![0i64; entries]);
        // Row i becomes column i of the transpose: in increasing i, so columns ascend.
        for i in 0..n {
            let (rc, rv) = self.row(i);
            for (&j, &v) in rc.iter().zip(rv) {
                let k = &mut next[j as usize];
                cols[*k] = i as u32;
                vals[*k] = v;
                *k += 1;
            }
        }
        Csr { start, cols, vals }
    }

    /// Row i's columns and values.
    pub(super) fn row(&self, i: usize) -> (&[u32], &[i64]) {
        let (s, e) = (self.start[i], self.start[i + 1]);
        (&self.cols[s..e], &self.vals[s..e])
    }

    /// The number of rows.
    pub(super) fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Row i's columns.
    pub(super) fn row_cols(&self, i: usize) -> &[u32] {
        &self.cols[self.start[i]..self.start[i + 1]]
    }

    /// Each row's columns, as the ordering wants them.
    pub(super) fn column_lists(&self) -> Vec<Vec<u32>> {
        (0..self.len()).map(|i| self.row_cols(i).to_vec()).collect()
    }

    /// `P M P^T` for the permutation `perm` (new position -> old index; `inv` its inverse).
    pub(super) fn permute(&self, perm: &[u32], inv: &[u32]) -> Csr {
        let mut start = Vec::with_capacity(self.start.len());
        let mut entries: Vec<(u32, i64)> = Vec::with_capacity(self.cols.len());
        start.push(0);
        for &old in perm {
            let from = entries.len();
            let (s, e) = (self.start[old as usize], self.start[old as usize + 1]);
            entries.extend(
                self.cols[s..e]
                    .iter()
                    .zip(&self.vals[s..e])
                    .map(|(&j, &v)| (inv[j as usize], v)),
            );
            entries[from..].sort_unstable_by_key(|e| e.0);
            start.push(entries.len());
        }
        let (cols, vals) = entries.into_iter().unzip();
        Csr { start, cols, vals }
    }

    /// The largest row sum of absolute values (saturating).
    pub(super) fn max_row_norm1(&self) -> u64 {
        (0..self.len())
            .map(|i| {
                self.vals[self.start[i]..self.start[i + 1]]
                    .iter()
                    .fold(0u64, |acc, v| acc.saturating_add(v.unsigned_abs()))
            })
            .max()
            .unwrap_or(0)
    }

    /// `sum_j m_ij d_j` for row i, exactly (digits are below p < 2^62, so each product is one
    /// signed 64 x 64 -> 128-bit multiplication, and the caller keeps row sums below 2^60).
    #[inline(always)]
    pub(super) fn row_dot(&self, i: usize, d: &[u64]) -> i128 {
        let (s, e) = (self.start[i], self.start[i + 1]);
        self.cols[s..e]
            .iter()
            .zip(&self.vals[s..e])
            .map(|(&j, &v)| i128::from(v) * i128::from(d[j as usize] as i64))
            .sum()
    }
}
