//! The spectral radius rho of Q, the transient part of a chain, proved between two bounds, one
//! strongly connected component at a time.
//!
//! # Formula
//!
//! Number the transient states by their strongly connected components (Tarjan's algorithm,
//! [`components`], in topological order: a component's states move only to its own states and
//! to later components). Q is then block upper triangular, its eigenvalues are those of the diagonal
//! blocks, and
//!
//! `rho(Q) = max over the components C of rho(Q_CC)`.
//!
//! On a board that changes during a game (one-use jumps, point squares) the set of used-up
//! jumps and eaten squares only grows, so the components are the layers of one such set, each
//! the size of a plain board: many small problems instead of one large one.
//!
//! Each block Q_CC is nonnegative and irreducible. For any positive vector x (here the row
//! vector from the power method on the block, in floating point), the Collatz-Wielandt bounds
//!
//! `min_j (x Q_CC)_j / x_j <= rho(Q_CC) <= max_j (x Q_CC)_j / x_j`
//!
//! hold (R. A. Horn and C. R. Johnson, *Matrix Analysis*, 2nd ed., corollary 8.1.29, applied to
//! the transpose). They are evaluated exactly: x is a vector of dyadic fractions (the floats as
//! they are), Q's entries are integers over the chain's common denominator, and the two ratios
//! are compared in integers. The floats only choose x; a poor x gives wide bounds, never wrong
//! ones. A component of one state has `rho = Q_ii` exactly (0 without a loop).
//!
//! A block keeps its floats by columns, with each entry's index in Q (`TransientQ`), where
//! its exact value is read: no entry is copied. The components come from Q's rows too.
//!
//! The power method on a block converges when its Perron root dominates; a periodic block is
//! stepped with `Q_CC + I` instead (same Perron vector, primitive). A block on which neither
//! settles within its budget keeps the last vector's (wider) proved bounds, and its estimate
//! comes from nalgebra's dense Schur decomposition of that block alone (up to [`DENSE_LIMIT`]
//! states).

use nalgebra::DMatrix;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use super::decay::{dyadic_integers, Extreme};
use crate::chain::{Chain, ChainState};
use crate::num::decimal::to_f64;
use crate::num::dyadic::float_outward;

mod transient_q;
pub(crate) use transient_q::TransientQ;

/// The spectral radius of Q: an estimate and two proved bounds, `low <= rho <= high`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Radius {
    /// The floating-point estimate (within `[low, high]`).
    pub estimate: f64,
    /// A proved lower bound (a float at or below the exact Collatz-Wielandt bound).
    pub low: f64,
    /// A proved upper bound (a float at or above the exact Collatz-Wielandt bound).
    pub high: f64,
}

/// Components up to this many states get a dense eigenvalue estimate when the power method does
/// not settle on them.
pub const DENSE_LIMIT: usize = 1500;

/// The most power-method iterations on one component (each way: plain and shifted).
const POWER_ITERATIONS: usize = 10_000;

/// The strongly connected components of Q's graph (an edge for each positive transient-to-
/// transient probability), in topological order: every transition out of a component goes to a
/// later one. Each component's states are sorted. (The tests' view of [`strong_components`].)
#[cfg(test)]
pub fn components<S: ChainState>(chain: &Chain<S>) -> Vec<Vec<usize>> {
    let t = chain.transient_count();
    let rows = chain.rows();
    strong_components(t, |i| {
        rows[i].iter().map(|(j, _)| *j).filter(move |&j| j < t)
    })
}

/// The strongly connected components of the graph on `0..n` with an edge `i -> j` for each j of
/// `edges(i)`, in topological order, each sorted: Tarjan's algorithm (R. Tarjan, "Depth-first
/// search and linear graph algorithms", SIAM J. Comput. 1 (1972)), with its own stack of
/// unfinished states instead of recursion, so that a long path cannot overflow the call stack.
/// It finds the components in reverse topological order (a component is complete once every
/// state it reaches is in one).
fn strong_components<I: Iterator<Item = usize>>(
    n: usize,
    edges: impl Fn(usize) -> I,
) -> Vec<Vec<usize>> {
    let mut search = Tarjan {
        index: vec![usize::MAX; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
    };
    let mut comps = Vec::new();
    // The states being searched, each with the edges it has still to follow.
    let mut path: Vec<(usize, I)> = Vec::new();
    for root in 0..n {
        if search.index[root] != usize::MAX {
            continue;
        }
        search.enter(root);
        path.push((root, edges(root)));
        while let Some((v, out)) = path.last_mut() {
            let v = *v;
            match out.next() {
                Some(w) if search.index[w] == usize::MAX => {
                    search.enter(w);
                    path.push((w, edges(w)));
                }
                Some(w) => {
                    if search.on_stack[w] {
                        search.low[v] = search.low[v].min(search.index[w]);
                    }
                }
                None => {
                    path.pop();
                    if let Some(&(u, _)) = path.last() {
                        search.low[u] = search.low[u].min(search.low[v]);
                    }
                    if search.low[v] == search.index[v] {
                        comps.push(search.close(v));
                    }
                }
            }
        }
    }
    comps.reverse();
    comps
}

/// Tarjan's bookkeeping: each state's visit number (`usize::MAX` before its visit) and the
/// lowest one it reaches through the states not yet in a component, which wait on `stack`.
struct Tarjan {
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
}

impl Tarjan {
    /// Visits `v`: numbers it and puts it on the stack.
    fn enter(&mut self, v: usize) {
        (self.index[v], self.low[v]) = (self.next, self.next);
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
    }

    /// The component whose first visited state is `v`: the stack from `v` up, sorted.
    fn close(&mut self, v: usize) -> Vec<usize> {
        let at = self
            .stack
            .iter()
            .rposition(|&s| s == v)
            .expect("v is on the stack");
        let mut comp = self.stack.split_off(at);
        comp.iter().for_each(|&s| self.on_stack[s] = false);
        comp.sort_unstable();
        comp
    }
}

/// The spectral radius of Q, per component, with proved bounds; `None` when the chain has no
/// transient state.
///
/// On `tiny` (Q = [[1/2, 1/2], [0, 1/2]]) every bound is 1/2 (the test below).
pub fn spectral_bounds<S: ChainState>(chain: &Chain<S>) -> Option<Radius> {
    spectral_bounds_of(chain, &TransientQ::new(chain), None)
}

/// [`spectral_bounds`] from Q already read ([`TransientQ`]). The bounds do not depend on which
/// common denominator scales Q (every ratio is reduced). `start`, a nonnegative vector over the
/// transient states (the law of the position once it has settled, which a certified stepping
/// finds on its way: [`crate::analysis::tail_law`]), starts each component's power method
/// instead of the uniform vector where it has mass there: a start near the Perron vector
/// settles in a few iterations instead of hundreds. Any start gives proved bounds.
pub(crate) fn spectral_bounds_of<S: ChainState>(
    chain: &Chain<S>,
    q: &TransientQ,
    start: Option<&[f64]>,
) -> Option<Radius> {
    over_blocks(chain, q, |block, comp| {
        block.radius(start.and_then(|u| block_start(u, comp)))
    })
}

/// The float estimate of rho alone, from the uniform vector, without the proof: what the work
/// estimate before a stepping needs.
pub(crate) fn spectral_estimate_of<S: ChainState>(chain: &Chain<S>, q: &TransientQ) -> Option<f64> {
    over_blocks(chain, q, |block, _| {
        let estimate = block.estimate();
        Radius {
            estimate,
            low: estimate,
            high: estimate,
        }
    })
    .map(|r| r.estimate)
}

/// The largest of `radius` over the diagonal blocks of Q (its components); `None` without a
/// transient state.
fn over_blocks<S: ChainState>(
    chain: &Chain<S>,
    q: &TransientQ,
    mut radius: impl FnMut(&Block, &[usize]) -> Radius,
) -> Option<Radius> {
    let t = chain.transient_count();
    if t == 0 {
        return None;
    }
    let mut local = vec![usize::MAX; t];
    let mut best: Option<Radius> = None;
    // Q's rows hold its transient entries alone: the graph of `components`.
    for comp in strong_components(t, |i| q.entries(i).map(|k| q.col(k))) {
        for (k, &i) in comp.iter().enumerate() {
            local[i] = k;
        }
        let r = radius(&Block::new(q, &comp, &local), &comp);
        best = Some(match best {
            None => r,
            Some(b) => Radius {
                estimate: b.estimate.max(r.estimate),
                low: b.low.max(r.low),
                high: b.high.max(r.high),
            },
        });
        for &i in &comp {
            local[i] = usize::MAX;
        }
    }
    best
}

/// `u` on the states of `comp`, scaled to sum 1, when it is finite and nonnegative there with
/// a positive sum.
fn block_start(u: &[f64], comp: &[usize]) -> Option<Vec<f64>> {
    let x: Vec<f64> = comp
        .iter()
        .map(|&i| u.get(i).copied())
        .collect::<Option<_>>()?;
    if x.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return None;
    }
    let total: f64 = x.iter().sum();
    (total > 0.0 && total.is_finite()).then(|| x.iter().map(|v| v / total).collect())
}

/// The spectral radius of Q (floating point; [`spectral_bounds`] gives its proved bounds).
///
/// `P(T > n) ~ C rho^n` as n grows; rho is shown and used to estimate the turns a tail needs,
/// never in an exact answer.
pub fn spectral_radius<S: ChainState>(chain: &Chain<S>) -> Option<f64> {
    spectral_bounds(chain).map(|r| r.estimate)
}

/// One diagonal block `Q_CC`, in the component's local numbering, by columns: each entry's
/// row, its float, and its index in Q, where its exact value `Q_ij D` is read when needed.
struct Block<'a> {
    /// Where each local column's entries begin (`m + 1` offsets).
    col_start: Vec<usize>,
    /// The entries, column by column, each column's rows in increasing order.
    entries: Vec<Entry>,
    /// Q, whose rows the block's are.
    q: &'a TransientQ,
}

/// An entry of a [`Block`] in its column.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The local row i.
    row: u32,
    /// The entry's index in Q.
    at: u32,
    /// The probability as a float.
    p: f64,
}

impl<'a> Block<'a> {
    /// The block of `comp` (`local` numbers its states) of Q: its entries counted per column,
    /// then placed row by row, so that each column lists its rows in increasing order.
    fn new(q: &'a TransientQ, comp: &[usize], local: &[usize]) -> Block<'a> {
        // Rows and indices are kept as u32: a block and Q are far smaller.
        assert!(
            u32::try_from(q.nonzeros()).is_ok(),
            "fewer than 2^32 entries"
        );
        let m = comp.len();
        let mut col_start = vec![0usize; m + 1];
        for &g in comp {
            for k in q.entries(g) {
                let j = local[q.col(k)];
                if j != usize::MAX {
                    col_start[j + 1] += 1;
                }
            }
        }
        for j in 0..m {
            col_start[j + 1] += col_start[j];
        }
        let mut entries = vec![Entry::default(); col_start[m]];
        let mut next = col_start[..m].to_vec();
        for (i, &g) in comp.iter().enumerate() {
            for k in q.entries(g) {
                let j = local[q.col(k)];
                if j != usize::MAX {
                    entries[next[j]] = Entry {
                        row: i as u32,
                        at: k as u32,
                        p: q.p(k),
                    };
                    next[j] += 1;
                }
            }
        }
        Block {
            col_start,
            entries,
            q,
        }
    }

    /// Column j's entries.
    fn column(&self, j: usize) -> &[Entry] {
        &self.entries[self.col_start[j]..self.col_start[j + 1]]
    }

    fn size(&self) -> usize {
        self.col_start.len() - 1
    }

    /// The block's spectral radius, estimated and proved, the power method started from
    /// `start` (the uniform vector when `None`).
    fn radius(&self, start: Option<Vec<f64>>) -> Radius {
        if self.size() == 1 {
            return self.single();
        }
        let (x, estimate) = self.settle(start);
        let (low_q, high_q) = self.collatz_wielandt(&x);
        let (low, high) = (below(&low_q), above(&high_q));
        let estimate = if estimate.is_nan() {
            to_f64(&((low_q + high_q) / BigRational::from_integer(2.into())))
        } else {
            estimate
        };
        Radius {
            estimate: estimate.clamp(low, high),
            low,
            high,
        }
    }

    /// The float estimate alone, from the uniform vector (NaN when nothing settles and the
    /// block is too large for the dense estimate).
    fn estimate(&self) -> f64 {
        match self.size() {
            1 => self.single().estimate,
            _ => self.settle(None).1,
        }
    }

    /// rho of a 1 x 1 block is its entry: Q_ii, or 0 without a loop.
    fn single(&self) -> Radius {
        let q = self.column(0).first().map_or_else(BigRational::zero, |e| {
            BigRational::new(self.q.big(e.at as usize), self.q.d.clone())
        });
        let (low, high) = (below(&q), above(&q));
        Radius {
            estimate: to_f64(&q).clamp(low, high),
            low,
            high,
        }
    }

    /// The power method's vector and estimate: plain, else shifted (a periodic block), else the
    /// vector with the narrower float bounds and the dense estimate (NaN without one).
    fn settle(&self, start: Option<Vec<f64>>) -> (Vec<f64>, f64) {
        let nnz = self.entries.len().max(1);
        let m = self.size();
        let budget = (m * m / nnz * m).clamp(500, POWER_ITERATIONS);
        let start = start.unwrap_or_else(|| vec![1.0 / m as f64; m]);
        match self.power(start.clone(), 0.0, budget) {
            Ok(settled) => settled,
            Err(plain) => match self.power(start, 1.0, budget) {
                Ok(settled) => settled,
                Err(shifted) => {
                    let v = if self.gap(&shifted) < self.gap(&plain) {
                        shifted
                    } else {
                        plain
                    };
                    (v, self.dense_estimate().unwrap_or(f64::NAN))
                }
            },
        }
    }

    /// `x Q_CC` in floats: each `(x Q_CC)_j` summed from 0 over the rows i in increasing order,
    /// the float operations of adding row after row into a vector of zeros.
    fn times(&self, x: &[f64], out: &mut [f64]) {
        for (j, o) in out.iter_mut().enumerate() {
            let mut sum = 0.0;
            for e in self.column(j) {
                sum += x[e.row as usize] * e.p;
            }
            *o = sum;
        }
    }

    /// The float Collatz-Wielandt bounds of x: (min, max) of `(x Q_CC)_j / x_j`.
    fn float_bounds(&self, x: &[f64]) -> (f64, f64) {
        let mut y = vec![0.0; x.len()];
        self.times(x, &mut y);
        ratio_range(x, &y)
    }

    /// The relative width of the float bounds of x.
    fn gap(&self, x: &[f64]) -> f64 {
        let (lo, hi) = self.float_bounds(x);
        if hi > 0.0 {
            (hi - lo) / hi
        } else {
            f64::INFINITY
        }
    }

    /// The power method `x <- x (Q_CC + shift I) / |.|` from `x` (nonnegative, summing to 1), at
    /// most `budget` iterations: `Ok((x, rho))` once the float Collatz-Wielandt bounds of x
    /// agree to 1e-14, else `Err(x)`, the last vector.
    fn power(
        &self,
        mut x: Vec<f64>,
        shift: f64,
        budget: usize,
    ) -> Result<(Vec<f64>, f64), Vec<f64>> {
        let m = self.size();
        let mut next = vec![0.0; m];
        for k in 0..budget {
            self.times(&x, &mut next);
            if k % 16 == 15 {
                let (lo, hi) = ratio_range(&x, &next);
                if hi - lo <= crate::prec::SPECTRAL_BRACKET * hi {
                    let rho = next.iter().sum::<f64>() / x.iter().sum::<f64>();
                    return Ok((x, rho));
                }
            }
            for (n, a) in next.iter_mut().zip(&x) {
                *n += shift * a;
            }
            let norm: f64 = next.iter().sum();
            if norm == 0.0 || !norm.is_finite() {
                return Err(x);
            }
            for (a, n) in x.iter_mut().zip(&next) {
                *a = n / norm;
            }
        }
        Err(x)
    }

    /// The largest eigenvalue modulus of the block by a dense Schur decomposition (floats), for
    /// blocks up to [`DENSE_LIMIT`] states.
    fn dense_estimate(&self) -> Option<f64> {
        let m = self.size();
        if m > DENSE_LIMIT {
            return None;
        }
        let mut q = DMatrix::<f64>::zeros(m, m);
        for j in 0..m {
            for e in self.column(j) {
                q[(e.row as usize, j)] = e.p;
            }
        }
        // A bounded number of QR iterations: nalgebra's default never gives up.
        let schur = nalgebra::linalg::Schur::try_new(q, f64::EPSILON, 100_000)?;
        schur
            .complex_eigenvalues()
            .iter()
            .map(|z| z.norm())
            .reduce(f64::max)
    }

    /// The exact Collatz-Wielandt bounds `min_j (x Q_CC)_j / x_j` and `max_j (x Q_CC)_j / x_j`
    /// for the float vector x (entries that are not positive and finite are replaced by the
    /// smallest positive normal float, which keeps x positive: the bounds hold for any positive
    /// x), in integers.
    fn collatz_wielandt(&self, x: &[f64]) -> (BigRational, BigRational) {
        let x = positive(x);
        // x_i = X_i 2^e with X_i an integer.
        let (xs, _) = dyadic_integers(&x).expect("positive finite floats");
        // (x Q_CC)_j = S_j 2^e / D.
        let s: Vec<BigInt> = (0..x.len())
            .map(|j| {
                self.column(j)
                    .iter()
                    .map(|e| self.q.times(&xs[e.row as usize], e.at as usize))
                    .sum()
            })
            .collect();
        // The ratio of j is S_j / (D X_j).
        let (mut lo, mut hi) = (Extreme::smallest(), Extreme::largest());
        for (s, x) in s.iter().zip(&xs) {
            lo.offer(s, x);
            hi.offer(s, x);
        }
        let ratio = |e: Extreme| e.over(&self.q.d).expect("a block has states");
        (ratio(lo), ratio(hi))
    }
}

/// x with every entry that is not positive and finite replaced by the smallest positive normal
/// float.
fn positive(x: &[f64]) -> Vec<f64> {
    x.iter()
        .map(|&v| {
            if v.is_finite() && v > 0.0 {
                v
            } else {
                f64::MIN_POSITIVE
            }
        })
        .collect()
}

/// (min, max) of `y_j / x_j` in floats (infinite where `x_j` is not positive).
fn ratio_range(x: &[f64], y: &[f64]) -> (f64, f64) {
    x.iter()
        .zip(y)
        .map(|(a, b)| if *a > 0.0 { b / a } else { f64::INFINITY })
        .fold((f64::INFINITY, 0.0f64), |(l, h), r| (l.min(r), h.max(r)))
}

/// The largest float at or below `r >= 0` (infinite past `f64`'s range).
fn below(r: &BigRational) -> f64 {
    float_outward(r, false).unwrap_or_else(|| to_f64(r))
}

/// The smallest float at or above `r >= 0` (infinite past `f64`'s range).
fn above(r: &BigRational) -> f64 {
    float_outward(r, true).unwrap_or_else(|| to_f64(r))
}

#[cfg(test)]
mod tests;
