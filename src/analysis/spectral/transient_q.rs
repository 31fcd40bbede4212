//! Q, the transient part of a chain, read once for the spectral bounds
//! ([`super::spectral_bounds_of`]) and the tail law ([`crate::analysis::tail_law`]), which both
//! need every entry as a float and as an integer over one common denominator D: compressed
//! rows, with the integers `Q_ij D` as `u64` words when every one fits (always when the chain's
//! merged rows are counts, [`MergedRows`]: no big integer per entry), else as big integers.

use std::ops::Range;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::ToPrimitive;

use crate::chain::{common_denominator, Chain, ChainState};
use crate::exact::certified::{nearest_f64, MergedRows, Probabilities};
use crate::num::decimal::to_f64;

/// Q over one common denominator, by rows: each entry's column, its nearest float, and its
/// integer `Q_ij D`.
#[derive(Debug)]
pub(crate) struct TransientQ {
    /// A common denominator D of Q's entries (the lcm of the transient ones').
    pub(crate) d: BigInt,
    /// Where each row's entries begin (one offset per transient state, and the end).
    row_start: Box<[usize]>,
    /// Each entry's column.
    col: Vec<u32>,
    /// Each entry as the nearest float.
    p: Vec<f64>,
    /// Each entry times D.
    counts: Counts,
}

/// The integers `Q_ij D` of [`TransientQ`]'s entries.
#[derive(Debug)]
enum Counts {
    /// Every one fits a word.
    Words(Box<[u64]>),
    /// One at least does not.
    Big(Box<[BigInt]>),
}

impl TransientQ {
    /// Q of `chain`: from its rows' counts when their common denominator is small
    /// ([`MergedRows`]), else from its fractions.
    pub(crate) fn new<S: ChainState>(chain: &Chain<S>) -> TransientQ {
        match MergedRows::counts(chain) {
            Some(rows) => TransientQ::from_rows(chain, &rows),
            None => TransientQ::of_fractions(chain),
        }
    }

    /// Q of `chain`, whose merged rows are `rows`: on counts `a / D` in machine words, the
    /// lcm of the transient entries' denominators being `D / g` with `g = gcd(D, their
    /// counts)` (the reduced denominator of `a / D` is `D / gcd(a, D)`), each entry `a / g`
    /// over it and `a / D` its nearest float (`to_f64`'s, bit for bit: "The nearest float" in
    /// `exact/certified/rows.rs`); on fractions, [`TransientQ::of_fractions`].
    pub(crate) fn from_rows<S: ChainState>(chain: &Chain<S>, rows: &MergedRows) -> TransientQ {
        let (d, counts) = match &rows.probabilities {
            Probabilities::Counts { d, counts } => (*d, counts),
            Probabilities::Fractions(_) => return TransientQ::of_fractions(chain),
        };
        let t = rows.transient;
        let transient = |k: &usize| (rows.col[*k] as usize) < t;
        let mut g = d;
        for k in (0..rows.col.len()).filter(transient) {
            if g == 1 {
                break;
            }
            if counts[k] % g != 0 {
                g = g.gcd(&counts[k]);
            }
        }
        let len = rows.col.len();
        let mut q = Building::with_capacity(t, len);
        let mut words = Vec::with_capacity(len);
        for i in 0..t {
            let (a, mut b) = (rows.row_start[i], rows.row_start[i + 1]);
            // The merged finish comes last in a row whose columns are sorted (every chain's):
            // then the row's transient entries are copied as slices.
            if b > a && rows.col[b - 1] as usize >= t {
                b -= 1;
            }
            if rows.col[a..b].iter().all(|&j| (j as usize) < t) {
                q.col.extend_from_slice(&rows.col[a..b]);
                q.p.extend(counts[a..b].iter().map(|&c| nearest_f64(c, d)));
                match g {
                    1 => words.extend_from_slice(&counts[a..b]),
                    _ => words.extend(counts[a..b].iter().map(|&c| c / g)),
                }
            } else {
                for k in (a..rows.row_start[i + 1]).filter(transient) {
                    q.col.push(rows.col[k]);
                    q.p.push(nearest_f64(counts[k], d));
                    words.push(counts[k] / g);
                }
            }
            q.row_start.push(q.col.len());
        }
        q.done(BigInt::from(d / g), Counts::Words(words.into()))
    }

    /// Q of `chain` from its fractions: each entry's float once, its `p D` as
    /// `numer (D / denom)` with `D / denom` once per distinct denominator; words when every one
    /// fits.
    pub(crate) fn of_fractions<S: ChainState>(chain: &Chain<S>) -> TransientQ {
        let t = chain.transient_count();
        let q = || {
            chain.rows()[..t]
                .iter()
                .map(move |row| row.iter().filter(move |(j, _)| *j < t))
        };
        let (d, factors) = common_denominator(q().flatten().map(|(_, p)| p));
        let mut rows: Vec<Vec<(usize, f64, BigInt)>> = Vec::with_capacity(t);
        // p D is an integer (D is a multiple of p's denominator): no gcd.
        rows.extend(q().map(|row| {
            row.map(|(j, p)| (*j, to_f64(p), p.numer() * &factors[p.denom()]))
                .collect()
        }));
        TransientQ::from_entries(d, rows)
    }

    /// Q from its rows of `(column, float, Q_ij D)` over D.
    pub(crate) fn from_entries(d: BigInt, rows: Vec<Vec<(usize, f64, BigInt)>>) -> TransientQ {
        let len = rows.iter().map(Vec::len).sum();
        let mut q = Building::with_capacity(rows.len(), len);
        let mut big = Vec::with_capacity(len);
        for row in rows {
            for (j, f, a) in row {
                q.col
                    .push(u32::try_from(j).expect("fewer than 2^32 states"));
                q.p.push(f);
                big.push(a);
            }
            q.row_start.push(q.col.len());
        }
        let counts = match big.iter().map(ToPrimitive::to_u64).collect() {
            Some(words) => Counts::Words(words),
            None => Counts::Big(big.into()),
        };
        q.done(d, counts)
    }

    /// The number of rows (transient states).
    pub(crate) fn rows(&self) -> usize {
        self.row_start.len() - 1
    }

    /// The number of entries.
    pub(crate) fn nonzeros(&self) -> usize {
        self.col.len()
    }

    /// Row i's entries, as indices for [`TransientQ::col`], [`TransientQ::p`] and the counts.
    pub(crate) fn entries(&self, i: usize) -> Range<usize> {
        self.row_start[i]..self.row_start[i + 1]
    }

    /// Entry k's column.
    pub(crate) fn col(&self, k: usize) -> usize {
        self.col[k] as usize
    }

    /// Entry k as the nearest float.
    pub(crate) fn p(&self, k: usize) -> f64 {
        self.p[k]
    }

    /// `x` times entry k times D.
    pub(crate) fn times(&self, x: &BigInt, k: usize) -> BigInt {
        match &self.counts {
            Counts::Words(w) => x * w[k],
            Counts::Big(b) => x * &b[k],
        }
    }

    /// Entry k times D as a big integer.
    pub(crate) fn big(&self, k: usize) -> BigInt {
        match &self.counts {
            Counts::Words(w) => BigInt::from(w[k]),
            Counts::Big(b) => b[k].clone(),
        }
    }
}

/// A [`TransientQ`] being read: its rows so far.
struct Building {
    row_start: Vec<usize>,
    col: Vec<u32>,
    p: Vec<f64>,
}

impl Building {
    /// Room for `t` rows and `len` entries.
    fn with_capacity(t: usize, len: usize) -> Building {
        let mut row_start = Vec::with_capacity(t + 1);
        row_start.push(0);
        Building {
            row_start,
            col: Vec::with_capacity(len),
            p: Vec::with_capacity(len),
        }
    }

    /// The rows read, over `d`, with their `counts`.
    fn done(self, d: BigInt, counts: Counts) -> TransientQ {
        TransientQ {
            d,
            row_start: self.row_start.into(),
            col: self.col,
            p: self.p,
            counts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{builtin, builtin_names};

    /// Q read from the merged rows' counts (each row's transient entries copied as slices) is
    /// Q read from the chain's fractions one entry at a time: the same D, rows, columns,
    /// floats and integers, on every built-in board, each under unlimited roll-again too (those
    /// whose merged rows are counts).
    #[test]
    fn q_from_the_counts_is_q_from_the_fractions() {
        let mut checked = 0;
        for name in builtin_names() {
            let b = builtin(name).unwrap();
            let mut boards = vec![b.clone()];
            boards.extend(crate::test_util::unlimited(&b));
            for b in boards.iter().filter(|b| !b.is_stateful()) {
                let chain = Chain::for_board(b);
                // A denominator of 40 bits or more is read as fractions, not counts.
                let Some(rows) = MergedRows::counts(&chain) else {
                    continue;
                };
                let (q, f) = (
                    TransientQ::from_rows(&chain, &rows),
                    TransientQ::of_fractions(&chain),
                );
                assert_eq!(
                    (&q.d, &q.row_start, &q.col),
                    (&f.d, &f.row_start, &f.col),
                    "{name}"
                );
                let bits = |q: &TransientQ| q.p.iter().map(|p| p.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&q), bits(&f), "{name}");
                for k in 0..q.nonzeros() {
                    assert_eq!(q.big(k), f.big(k), "{name}");
                }
                checked += 1;
            }
        }
        assert!(checked >= 8, "{checked} chains");
    }

    /// Rows whose finish is not last (no chain's, but the merged rows allow it) are read entry
    /// by entry. By hand, over 6: row 0 is the finish 1, state 0 2 and state 1 3; row 1 is
    /// state 1 3 and the finish 3. Q is row 0: (0, 2), (1, 3); row 1: (1, 3), over D = 6.
    #[test]
    fn a_finish_before_the_transient_entries_is_left_out() {
        let rows = MergedRows {
            transient: 2,
            start: 0,
            row_start: vec![0, 3, 5],
            col: vec![2, 0, 1, 1, 2],
            probabilities: Probabilities::Counts {
                d: 6,
                counts: vec![1, 2, 3, 3, 3],
            },
        };
        let chain = Chain::for_board(&builtin("tiny").unwrap());
        let q = TransientQ::from_rows(&chain, &rows);
        assert_eq!(q.d, BigInt::from(6));
        assert_eq!(&q.row_start[..], &[0, 2, 3]);
        assert_eq!(q.col, vec![0, 1, 1]);
        assert_eq!(q.p, vec![2.0 / 6.0, 0.5, 0.5]);
        assert_eq!(
            (0..3).map(|k| q.big(k)).collect::<Vec<_>>(),
            [2, 3, 3].map(BigInt::from)
        );
    }
}
