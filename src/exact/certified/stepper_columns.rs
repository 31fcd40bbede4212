//! The counts route of the `u128` tier by destination (`stepper.rs` steps the fixed-point
//! route by source): each state's next value is summed from its incoming transitions in
//! registers, divided by D and written once, with no read-modify-write of memory per
//! transition.
//!
//! # The same integers and the same floats
//!
//! By source, a step adds `(x_i 2^k) a_ij` and `(e_i 2^k) p^_ij` to destination j's sums for
//! each source i in turn (k the pending renormalisation, `e_i` the error bound), then
//! divides. Here each column lists its incoming transitions in the order of the sources, and
//! its sums are made in that order:
//!
//! - the integers: `sum_i x_i a_ij`, shifted left by k once, is `sum_i (x_i 2^k) a_ij`
//!   exactly, as that sum is below `D 2^V < 2^127` ("Two representations" in `stepper.rs`).
//!   The sum is kept as `sum_i lo_i a_ij` in a `u128` (at most the whole sum) and
//!   `sum_i hi_i a_ij` modulo 2^64 (`lo_i`, `hi_i` the words of `x_i`): the whole sum is below
//!   2^128, so only the high part's low word reaches it;
//! - the floats: multiplying by `2^k` commutes with every rounding to nearest while no
//!   number leaves the normal range, which "No underflow" in `stepper.rs` sees to (a nonzero
//!   product is at least 2^-1000), so `2^k sum_i e_i p^_ij`, summed in the same order, is the
//!   same `f64` as the sum of the scaled terms; a source by source step skips a state whose
//!   value and bound are both 0, whose terms here are `+0` and change no sum.
//!
//! So the bounds, and the proof of them, are those of `stepper.rs`, bit for bit: the factor g
//! is unchanged, as every sum has the same terms (m is still the widest column).

use super::{mul_down, no_underflow, CountEntry, Words, DIVIDE_LOSS};

/// A transition as a column holds it.
#[derive(Clone, Copy, Debug)]
struct Incoming {
    /// The count `a_ij`.
    a: u64,
    /// `p^_ij >= p_ij` as `f64`.
    upper: f64,
    /// The source i.
    i: u32,
}

/// The counts route's transitions by destination: the transient states, then the finish
/// (index t).
#[derive(Clone, Debug)]
pub(super) struct Columns {
    /// The number of transitions into each destination.
    len: Vec<u32>,
    /// The transitions, column by column, each column's in the order of the sources.
    entries: Vec<Incoming>,
}

/// `sum_i x_i a_ij` and `sum_i e_i p^_ij` (in the order of `entries`) over one column's
/// `entries`, from the values and error bounds `v`.
#[inline(always)]
fn pull(entries: &[Incoming], v: &Words) -> (u128, f64) {
    let mask = v.lo.len() - 1;
    let (lo, hi, error) = (&v.lo[..=mask], &v.hi[..=mask], &v.error[..=mask]);
    let (mut low, mut high, mut e) = (0u128, 0u64, 0.0f64);
    for entry in entries {
        // i is a transient state, below the length: the mask changes nothing.
        let i = entry.i as usize & mask;
        low += u128::from(lo[i]) * u128::from(entry.a);
        high = high.wrapping_add(hi[i].wrapping_mul(entry.a));
        e += error[i] * entry.upper;
    }
    // low <= the whole sum < 2^127: the high part's carry out of 2^128 is 0.
    (low + (u128::from(high) << 64), e)
}

impl Columns {
    /// The columns of `entries`, given row by row (`row_len` of them from each of the
    /// `row_len.len()` transient states), with destinations at most `row_len.len()`.
    pub(super) fn new(row_len: &[u32], entries: &[CountEntry]) -> Columns {
        let t = row_len.len();
        let mut len = vec![0u32; t + 1];
        entries.iter().for_each(|e| len[e.j as usize] += 1);
        let mut next: Vec<usize> = len
            .iter()
            .scan(0, |at, &n| {
                let start = *at;
                *at += n as usize;
                Some(start)
            })
            .collect();
        let empty = Incoming {
            a: 0,
            upper: 0.0,
            i: 0,
        };
        let mut columns = vec![empty; entries.len()];
        let mut rest = entries;
        for (i, &n) in row_len.iter().enumerate() {
            let (row, tail) = rest.split_at(n as usize);
            rest = tail;
            for e in row {
                let at = &mut next[e.j as usize];
                columns[*at] = Incoming {
                    a: e.a,
                    upper: e.upper,
                    i: u32::try_from(i).expect("fewer than 2^32 states"),
                };
                *at += 1;
            }
        }
        Columns {
            len,
            entries: columns,
        }
    }

    /// The number of transitions.
    pub(super) fn transitions(&self) -> usize {
        self.entries.len()
    }

    /// One step from `v` (values and error bounds still to be multiplied by `2^k`) into
    /// `next`, every destination's value divided by D (by `reciprocal`, `floor(2^127 / D)`)
    /// and its error bound grown by g: returns the sums over the transient states, of the
    /// values and (times g once more) of the error bounds, as `close_sums` in `stepper.rs`.
    pub(super) fn step(
        &self,
        v: &Words,
        k: u32,
        reciprocal: u128,
        g: f64,
        next: &mut Words,
    ) -> (u128, f64) {
        let scale = 2f64.powi(k as i32);
        let mut rest = &self.entries[..];
        let mut column = |j: usize, n: u32| -> (u128, f64) {
            let (entries, tail) = rest.split_at(n as usize);
            rest = tail;
            let (x, e) = pull(entries, v);
            let x = x << k;
            let e = e * scale;
            let (x, e) = match x {
                0 => (0, no_underflow(e * g)),
                _ => (mul_down(x, reciprocal), (e + DIVIDE_LOSS) * g),
            };
            next.set(j, x, e);
            (x, e)
        };
        let t = self.len.len() - 1;
        let (mut sum, mut error_sum) = (0u128, 0.0f64);
        for (j, &n) in self.len[..t].iter().enumerate() {
            let (x, e) = column(j, n);
            sum += x;
            error_sum += e;
        }
        column(t, self.len[t]);
        (sum, error_sum * g)
    }
}
