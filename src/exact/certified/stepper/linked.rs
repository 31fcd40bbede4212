//! The certified stepping through a chain's links ([`crate::chain::Link`]): a turn under
//! unlimited roll-again stepped as the rolls that end it and a fresh turn from the square its
//! top throw leads to, about a fifth of the whole turns' transitions on efi.
//!
//! # The step
//!
//! With `T = E + W T` (the links W, one entry per linked state; the ending rolls E; the
//! chain's whole turns for the states without a link, which have no entry in W), the law after
//! one more turn is `x T = y E` with `y = x + y W`. A step first sums y in place of v, state by
//! state in an order that puts each state before the state its link leads to (the links never
//! close a cycle): `y_next += floor(y_i c_i / 2^127)` with `c_i = floor(w_i 2^127)`, which is
//! at most [`PRODUCT_LOSS`] units below `y_i w_i` (as on the fixed-point route), and nothing
//! lost when `y_i` is 0. Then it spreads y over E as the counts route spreads v over the whole
//! turns, and divides by D once per state.
//!
//! # Why the bounds hold
//!
//! Write x = v + err for the true scaled law (`err >= 0`, bounded by r) and `Y = x (I - W)^-1`
//! for the true sums. The sums computed, y, lose at most `delta_i` = [`PRODUCT_LOSS`] units on
//! each link taken from a nonzero `y_i`, so `Y - y = (err + lost) (I - W)^-1 >= 0` with each
//! state's `lost` at most the losses on the links into it: by the order of the sums, the bound
//! `r^y_j = g (r_j + sum_i (r^y_i w^_i + delta_i))` over the links `i -> j`, with `w^ >= w` as
//! for every transition, bounds `Y_j - y_j` once every term before it does (the sum has at most
//! t terms, so g covers its roundings as in `stepper.rs`). The next law is `Y E`, the computed
//! one `floor(y E / D)`, so the error after the step is at most `r^y E^ + DIVIDE_LOSS` at each
//! state, times g: the counts route's bound with r^y for r. `x >= v` and every other bound of
//! `stepper.rs` follow as there.
//!
//! # Room in the words
//!
//! With `H_i = 1 + w_i H_next(i)` (1 for a state without a link), `sum_i y_i <= H sum_i v_i`
//! for H the largest `H_i`. The counts route (every probability a fraction of words whose
//! common D is below `2^COUNT_BITS`: the ending rolls' denominators are the die's, so D is
//! often far smaller than the whole turns', 6^17 against 6 on a board whose runs of sixes are
//! long) needs `D sum_i y_i < 2^127`: its value bits are `V = 126 - floor(log2 D) - h` with
//! `2^h >= H` (h = 1 on efi, whose H is 6/5 at most). The fixed-point route needs
//! `y_i <= 2^124`: `V = 124 - h`. The links are used only when, with the ending rolls, they
//! take fewer transitions than the whole turns.

use super::{
    floor_scaled, mul_down, no_underflow, share, upper_of_nearest, weights_of, Share, Weights,
    Words, PRODUCT_LOSS,
};
use crate::chain::{Chain, ChainState};
use crate::exact::certified::rows::{nearest_f64, widest_column, MergedRows, Probabilities};

/// The largest h = bits of amplification accepted (`2^h >= H`).
const MOST_AMPLIFICATION_BITS: u32 = 16;

/// One link as the step follows it.
#[derive(Clone, Copy, Debug)]
pub(super) struct LinkStep {
    /// The linked state i.
    pub(super) from: u32,
    /// The state its link leads to.
    pub(super) to: u32,
    /// Whether links lead into i: then its error bound is a sum, multiplied by g before use.
    pub(super) close: bool,
    /// `floor(w_i 2^127)`.
    pub(super) coef: u128,
    /// `w^_i >= w_i` as `f64`.
    pub(super) upper: f64,
}

/// The links in the order the sums take them, and the states links lead into that have no
/// link of their own (their error bounds are sums too).
#[derive(Clone, Debug)]
pub(super) struct LinkSteps {
    pub(super) steps: Vec<LinkStep>,
    pub(super) sinks: Vec<u32>,
}

/// A chain's transitions through its links, as [`super::CertifiedChain`] keeps them.
pub(super) struct Linked {
    pub(super) weights: Weights,
    /// V, less the amplification bits.
    pub(super) value_bits: u32,
    pub(super) row_len: Vec<u32>,
    pub(super) links: LinkSteps,
    /// The most entries in one column of the rows.
    pub(super) widest: usize,
}

/// The stepping through the links: the ending rolls (the whole turn for a state without a
/// link) as counts over their common D when it is below `2^COUNT_BITS`, else in fixed point,
/// and the links; `None` when the chain has no links or they would not save transitions.
pub(super) fn linked_rows<S: ChainState>(chain: &Chain<S>, rows: &MergedRows) -> Option<Linked> {
    let t = rows.transient;
    let links: Vec<_> = (0..t).map(|i| chain.link(i)).collect();
    let linked = links.iter().flatten().count();
    if linked == 0 {
        return None;
    }
    // Every state's row, one after another: a linked state's ending rolls (its final states
    // merged into the finish's column), else its whole turn.
    let row_len: Vec<u32> = (0..t)
        .map(|i| match links[i] {
            Some(link) => merged_len(&link.ends, t) as u32,
            None => (rows.row_start[i + 1] - rows.row_start[i]) as u32,
        })
        .collect();
    let count = row_len.iter().map(|&n| n as usize).sum::<usize>();
    if count + linked >= rows.col.len() {
        return None;
    }
    let mut shares: Vec<(u32, Share)> = Vec::with_capacity(count);
    let mut ends = Vec::new();
    for (i, link) in links.iter().enumerate() {
        match link {
            Some(link) => {
                ends.clear();
                ends.extend(link.ends.iter().map(|&(j, c)| (j.min(t) as u32, c)));
                merge_finish(&mut ends, t as u32);
                shares.extend(ends.iter().map(|&(j, c)| (j, Share::Words(c, link.denom))));
            }
            None => shares.extend((rows.row_start[i]..rows.row_start[i + 1]).map(|k| {
                // Whole turns read as fractions (rows whose D is past the counts' bound) keep
                // the links on the fixed-point route.
                let p = match &rows.probabilities {
                    Probabilities::Fractions(p) => Share::Big(&p[k]),
                    Probabilities::Counts { .. } => share(rows, k),
                };
                (rows.col[k], p)
            })),
        }
    }
    debug_assert_eq!(shares.len(), count, "the rows' lengths counted first");
    let (links, h) = link_steps(&links, t)?;
    let widest = widest_column(shares.iter().map(|&(j, _)| j), t);
    let (weights, value_bits) = weights_of(shares.iter().copied());
    Some(Linked {
        weights,
        value_bits: value_bits - h,
        row_len,
        links,
        widest,
    })
}

/// A linked state's ending rolls with every final state's entry merged into the finish's
/// column `t`, with their numerators: the entries from the first in that column on become one.
fn merge_finish(ends: &mut Vec<(u32, u64)>, t: u32) {
    if let Some(first) = ends.iter().position(|e| e.0 == t) {
        let total = ends[first..].iter().map(|e| e.1).sum();
        ends.truncate(first + 1);
        ends[first].1 = total;
    }
}

/// How many entries [`merge_finish`] leaves of the ending rolls `ends` (columns past `t`, the
/// final states, count as `t`'s).
fn merged_len(ends: &[(usize, u64)], t: usize) -> usize {
    ends.iter()
        .position(|&(j, _)| j >= t)
        .map_or(ends.len(), |first| first + 1)
}

/// The links in an order that puts every state before the one its link leads to (Kahn's), and
/// the amplification bits h; `None` on a cycle (which the chain's links never close) or an
/// amplification past [`MOST_AMPLIFICATION_BITS`].
fn link_steps(links: &[Option<&crate::chain::Link>], t: usize) -> Option<(LinkSteps, u32)> {
    let mut close = vec![false; t];
    for link in links.iter().flatten() {
        close[link.next] = true;
    }
    let steps: Vec<LinkStep> = crate::chain::link_order(links)?
        .into_iter()
        .map(|i| {
            let link = links[i].expect("the order holds linked states");
            LinkStep {
                from: i as u32,
                to: link.next as u32,
                close: close[i],
                coef: floor_scaled(link.goes_on, link.denom),
                upper: upper_of_nearest(nearest_f64(link.goes_on, link.denom)),
            }
        })
        .collect();
    let sinks = (0..t)
        .filter(|&i| close[i] && links[i].is_none())
        .map(|i| i as u32)
        .collect();
    // H_i = 1 + w_i H_next, from the last link back, rounded up.
    let mut amplification = vec![1.0f64; t];
    for s in steps.iter().rev() {
        let h = 1.0 + s.upper * amplification[s.to as usize];
        amplification[s.from as usize] = h * (1.0 + 2f64.powi(-50));
    }
    let most = amplification.iter().copied().fold(1.0, f64::max);
    let h = (0..=MOST_AMPLIFICATION_BITS).find(|&h| 2f64.powi(h as i32) >= most)?;
    Some((LinkSteps { steps, sinks }, h))
}

/// Sums `y = v + y W` in place of v (its t transient states) through the links, after the
/// pending renormalisation `2^pending` (the caller's, which it does first).
pub(super) fn follow(links: &LinkSteps, v: &mut Words, t: usize, g: f64, pending: u32) {
    if pending != 0 {
        let scale = 2f64.powi(pending as i32);
        for i in 0..t {
            let (x, e) = v.get(i);
            v.set(i, x << pending, e * scale);
        }
    }
    for step in &links.steps {
        let (from, to) = (step.from as usize, step.to as usize);
        let (x, mut e) = v.get(from);
        if step.close {
            e = no_underflow(e * g);
            v.error[from] = e;
        }
        if x != 0 {
            let y = v.get(to).0 + mul_down(x, step.coef);
            v.set(to, y, v.error[to] + (e * step.upper + PRODUCT_LOSS));
        } else if e != 0.0 {
            v.error[to] += e * step.upper;
        }
    }
    for &i in &links.sinks {
        let e = &mut v.error[i as usize];
        *e = no_underflow(*e * g);
    }
}

#[cfg(test)]
mod tests;
