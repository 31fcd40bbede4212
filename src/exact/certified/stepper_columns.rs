//! The counts route of the `u128` tier by destination (`stepper.rs` steps the fixed-point
//! route by source), in two passes over flat arrays:
//!
//! 1. **products**: each state's value times each distinct count in its row, `x_i a`, and its
//!    error bound times that count's `p^`, `e_i p^`, once per distinct (i, a) pair (a row's
//!    transitions share few counts: efi has 931 distinct pairs among its 2,530 transitions), so
//!    the machine multiplies are fewer by that ratio;
//! 2. **columns**: each state's next value is the sum of the products its incoming transitions
//!    name, in registers, divided by D and written once: a load and an add per transition, and
//!    no read-modify-write of memory.
//!
//! # The same integers and the same floats
//!
//! By source, a step adds `(x_i 2^k) a_ij` and `(e_i 2^k) p^_ij` to destination j's sums for
//! each source i in turn (k the pending renormalisation, `e_i` the error bound), then
//! divides. Here each column lists its incoming transitions in the order of the sources, and
//! its sums are made in that order:
//!
//! - the integers: every product `x_i a_ij` is below `D 2^V < 2^127`, and so is the column's
//!   sum ("Two representations" in `stepper.rs`), which, shifted left by k once, is
//!   `sum_i (x_i 2^k) a_ij` exactly;
//! - the floats: `p^_ij` depends on the count only (it is made from `a_ij / D`), so the product
//!   of the pair is the very `e_i p^_ij` of each of its transitions; multiplying by `2^k`
//!   commutes with every rounding to nearest while no number leaves the normal range, which
//!   "No underflow" in `stepper.rs` sees to (a nonzero product is at least 2^-1000), so
//!   `2^k sum_i e_i p^_ij`, summed in the same order, is the same `f64` as the sum of the
//!   scaled terms; a source by source step skips a state whose value and bound are both 0,
//!   whose terms here are `+0` and change no sum.
//!
//! So the bounds, and the proof of them, are those of `stepper.rs`, bit for bit: the factor g
//! is unchanged, as every sum has the same terms (m is still the widest column).

use super::{mul_down, no_underflow, CountEntry, Words, DIVIDE_LOSS};

/// A distinct (source, count) pair of the transitions: what the products pass multiplies.
#[derive(Clone, Copy, Debug)]
struct Pair {
    /// The count `a`.
    a: u64,
    /// `p^ >= a / D` as `f64`.
    upper: f64,
    /// The source i.
    i: u32,
}

/// The counts route's transitions by destination: the transient states, then the finish
/// (index t).
#[derive(Clone, Debug)]
pub(super) struct Columns {
    /// The distinct (source, count) pairs, by source.
    pairs: Vec<Pair>,
    /// The destinations (the transient states, then the finish) in blocks of [`LANES`] columns
    /// of about one length, each block's sums made side by side.
    blocks: Vec<Block>,
    /// Each block's transitions, [`LANES`] at a time (one per column, a column's in the order
    /// of the sources), a column shorter than its block's longest padded with the zero pair
    /// (index `pairs.len()`).
    slots: Vec<[u32; LANES]>,
    /// The number of transitions.
    transitions: usize,
    /// The number of transient states.
    transient: usize,
}

/// Columns summed side by side: independent sums, so that the float additions, 3 or 4
/// cycles each, overlap.
const LANES: usize = 4;

/// No destination (a lane left empty in the last block).
const NOWHERE: u32 = u32::MAX;

/// [`LANES`] columns summed side by side.
#[derive(Clone, Copy, Debug)]
struct Block {
    /// The destinations of the lanes, or [`NOWHERE`].
    dest: [u32; LANES],
    /// The most transitions into one of them.
    len: u32,
}

/// One pair's products: `x_i a` in two words, and `e_i p^`, side by side in one cache line.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Product {
    lo: u64,
    hi: u64,
    error: f64,
}

/// `sum x_i a_ij` and `sum e_i p^_ij` over the pairs each lane's transitions name (`slots`,
/// in order), from the products `p` (of a power-of-two length).
#[inline(always)]
fn pull(slots: &[[u32; LANES]], p: &[Product]) -> ([u128; LANES], [f64; LANES]) {
    let mask = p.len() - 1;
    let p = &p[..=mask];
    let (mut x, mut e) = ([0u128; LANES], [0.0f64; LANES]);
    for row in slots {
        for lane in 0..LANES {
            // The slot names a pair, below the length: the mask changes nothing.
            let q = &p[row[lane] as usize & mask];
            // Every product, and their sum, is below 2^127.
            x[lane] += u128::from(q.hi) << 64 | u128::from(q.lo);
            e[lane] += q.error;
        }
    }
    (x, e)
}

/// The blocks of `len` columns (`pair_of` their transitions, column by column) and their
/// slots, `zero` the padding.
fn blocks(len: &[u32], pair_of: &[u32], zero: u32) -> (Vec<Block>, Vec<[u32; LANES]>) {
    let mut start = vec![0usize];
    len.iter().for_each(|&n| start.push(start.last().unwrap() + n as usize));
    let mut order: Vec<usize> = (0..len.len()).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(len[j]));
    let (mut blocks, mut slots) = (Vec::new(), Vec::new());
    for lanes in order.chunks(LANES) {
        let mut dest = [NOWHERE; LANES];
        let most = lanes.iter().map(|&j| len[j]).max().unwrap_or(0);
        for (d, &j) in dest.iter_mut().zip(lanes) {
            *d = u32::try_from(j).expect("fewer than 2^32 states");
        }
        for r in 0..most as usize {
            let mut row = [zero; LANES];
            for (slot, &j) in row.iter_mut().zip(lanes) {
                if r < len[j] as usize {
                    *slot = pair_of[start[j] + r];
                }
            }
            slots.push(row);
        }
        blocks.push(Block { dest, len: most });
    }
    (blocks, slots)
}

impl Columns {
    /// The columns of `entries`, given row by row (`row_len` of them from each of the
    /// `row_len.len()` transient states), with destinations at most `row_len.len()`; the
    /// entries' `upper` must depend on their count only.
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
        let mut pairs: Vec<Pair> = Vec::new();
        let mut pair_of = vec![0u32; entries.len()];
        let mut rest = entries;
        for (i, &n) in row_len.iter().enumerate() {
            let (row, tail) = rest.split_at(n as usize);
            rest = tail;
            let first = pairs.len();
            for e in row {
                let k = match pairs[first..].iter().position(|p| p.a == e.a) {
                    Some(k) => first + k,
                    None => {
                        let i = u32::try_from(i).expect("fewer than 2^32 states");
                        pairs.push(Pair {
                            a: e.a,
                            upper: e.upper,
                            i,
                        });
                        pairs.len() - 1
                    }
                };
                debug_assert_eq!(pairs[k].upper.to_bits(), e.upper.to_bits());
                let at = &mut next[e.j as usize];
                pair_of[*at] = u32::try_from(k).expect("fewer than 2^32 transitions");
                *at += 1;
            }
        }
        let zero = u32::try_from(pairs.len()).expect("fewer than 2^32 transitions");
        let (blocks, slots) = blocks(&len, &pair_of, zero);
        Columns {
            pairs,
            blocks,
            slots,
            transitions: entries.len(),
            transient: t,
        }
    }

    /// The number of transitions.
    pub(super) fn transitions(&self) -> usize {
        self.transitions
    }

    /// Room for the products of one step, and the zero pair after them.
    pub(super) fn products(&self) -> Vec<Product> {
        vec![Product::default(); (self.pairs.len() + 1).next_power_of_two()]
    }

    /// One step from `v` (values and error bounds still to be multiplied by `2^k`) into
    /// `next`, every destination's value divided by D (by `reciprocal`, `floor(2^127 / D)`)
    /// and its error bound grown by g, through `products` (from [`Columns::products`]):
    /// returns the sums over the transient states, of the values and (times g once more) of
    /// the error bounds, as `close_sums` in `stepper.rs`.
    pub(super) fn step(
        &self,
        v: &Words,
        k: u32,
        reciprocal: u128,
        g: f64,
        products: &mut [Product],
        next: &mut Words,
    ) -> (u128, f64) {
        let mask = v.lo.len() - 1;
        let (lo, hi, error) = (&v.lo[..=mask], &v.hi[..=mask], &v.error[..=mask]);
        for (pair, q) in self.pairs.iter().zip(products.iter_mut()) {
            // i is a transient state, below the length: the mask changes nothing.
            let i = pair.i as usize & mask;
            let x = (u128::from(hi[i]) << 64 | u128::from(lo[i])) * u128::from(pair.a);
            *q = Product {
                lo: x as u64,
                hi: (x >> 64) as u64,
                error: error[i] * pair.upper,
            };
        }
        let products = &*products;
        let scale = 2f64.powi(k as i32);
        let mut rest = &self.slots[..];
        for block in &self.blocks {
            let (slots, tail) = rest.split_at(block.len as usize);
            rest = tail;
            let (x, e) = pull(slots, products);
            for ((&j, x), e) in block.dest.iter().zip(x).zip(e) {
                if j == NOWHERE {
                    continue;
                }
                let (x, e) = (x << k, e * scale);
                let (x, e) = match x {
                    0 => (0, no_underflow(e * g)),
                    _ => (mul_down(x, reciprocal), (e + DIVIDE_LOSS) * g),
                };
                next.set(j as usize, x, e);
            }
        }
        let (mut sum, mut error_sum) = (0u128, 0.0f64);
        for j in 0..self.transient {
            let (x, e) = next.get(j);
            sum += x;
            error_sum += e;
        }
        (sum, error_sum * g)
    }
}
