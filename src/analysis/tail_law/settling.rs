//! The tail law's watch (`analysis::tail_law`): the turn m at which the law of the position has
//! settled, read off a certified stepping (`exact::certified`) as it goes, turn by turn, and the
//! settled vector u handed to the geometric bounds.
//!
//! The test reads each state's lower bound as the nearest float, as the proof's u does, but
//! only for the states it looks at: it keeps the integers, and most turns it answers no after a
//! few states, starting with the two that told it no the turn before.

use super::{SETTLED, TINY_BITS};
use crate::exact::certified::CertifiedStepper;
use crate::num::limbs::u128_to_f64;

/// Watches a certified stepping turn by turn for the first turn m at which the law of the
/// position has settled: the power method's test (from the start, it settles on the left
/// Perron vector when the chain is not periodic) on consecutive positions, whose
/// Collatz-Wielandt ratios `p_(m,j) / p_(m-1,j)` must agree to `SETTLED` over the states not
/// negligible (above `2^-TINY_BITS` of the largest). The settled vector u is then the position's
/// lower bounds as floats: any u >= 0 makes the statement true (r and l are its ratios, exact;
/// a state the stepping cannot tell from 0 has u = 0, and its upper bound joins s).
pub(crate) struct Settling {
    /// The most turns watched.
    turns: usize,
    /// The last position.
    last: Option<Position>,
    /// The vector the next position is read into (the one before last's, reused).
    spare: Vec<u128>,
    /// The states whose ratios were lowest and highest when the last test stopped early.
    hint: [usize; 2],
    /// The game is over for sure (every state's bound is 0): no law to find.
    ended: bool,
}

/// A position's lower bounds, `bounds_j / 2^shift <= p_j`.
struct Position {
    bounds: Vec<u128>,
    shift: u32,
}

impl Settling {
    /// A watch of at most `turns` turns.
    pub(super) fn new(turns: usize) -> Settling {
        Settling {
            turns,
            last: None,
            spare: Vec::new(),
            hint: [0, 0],
            ended: false,
        }
    }

    /// The most turns watched.
    pub(crate) fn turns(&self) -> usize {
        self.turns
    }

    /// Whether the watch ends at `turn` without a settled law.
    pub(crate) fn gave_up(&self, turn: usize) -> bool {
        self.ended || turn >= self.turns
    }

    /// The stepping one turn after the last one watched; `Some(u)` when the law has settled
    /// (its turn is m).
    pub(crate) fn watch(&mut self, stepper: &CertifiedStepper) -> Option<Vec<f64>> {
        self.ended = stepper.survives().hi == 0;
        let mut now = std::mem::take(&mut self.spare);
        let shift = stepper.lower_bounds_into(&mut now);
        let settled = match &self.last {
            Some(before) => {
                // p_(m,j) / p_(m-1,j) = (now_j / before_j) 2^(before_shift - shift).
                let scale = 2f64.powi(before.shift as i32 - shift as i32);
                settled(&before.bounds, &now, scale, &mut self.hint)
            }
            None => false,
        };
        if settled {
            return Some(now.into_iter().map(u128_to_f64).collect());
        }
        let position = Position { bounds: now, shift };
        if let Some(before) = self.last.replace(position) {
            self.spare = before.bounds;
        }
        None
    }
}

/// Whether the ratios `scale after_j / before_j` of the bounds as floats agree to `SETTLED`,
/// below 1 and above 0, over the states of `before` above `2^-TINY_BITS` of its largest (as
/// floats).
///
/// The answer is that test's, often known early (`Spread::told`) from the states above a
/// floor at least the test's (from a power of two at least the largest bound), `hint` first
/// (the two states that told the last time, left at the two that tell this time); when those
/// do not tell, the test itself runs.
fn settled(before: &[u128], after: &[u128], scale: f64, hint: &mut [usize; 2]) -> bool {
    let n = before.len().min(after.len());
    let (before, after) = (&before[..n], &after[..n]);
    let floor_of = |big: f64| big * 2f64.powi(-TINY_BITS);
    // Every bound is below 2^bits, and 2^bits is a float, so every float is at most it.
    let bits = 128 - before.iter().fold(0, |a, &x| a | x).leading_zeros() as i32;
    let ceiling = floor_of(2f64.powi(bits));
    let ratio = |j: usize, floor: f64| {
        let x = u128_to_f64(before[j]);
        (x > floor).then(|| u128_to_f64(after[j]) / x * scale)
    };
    let mut spread = Spread::new();
    let hinted = hint.iter().copied().filter(|&j| j < n);
    for j in hinted.chain(0..n) {
        if let Some(r) = ratio(j, ceiling) {
            spread.add(r, j);
            if spread.told() {
                *hint = spread.at;
                return false;
            }
        }
    }
    // The largest float is the float of the largest bound: rounding is monotone.
    let floor = floor_of(u128_to_f64(before.iter().copied().max().unwrap_or(0)));
    let mut spread = Spread::new();
    for j in 0..n {
        if let Some(r) = ratio(j, floor) {
            spread.add(r, j);
        }
    }
    spread.settled()
}

/// The lowest and highest ratios seen, and their states.
struct Spread {
    lo: f64,
    hi: f64,
    at: [usize; 2],
}

impl Spread {
    fn new() -> Spread {
        Spread {
            lo: f64::INFINITY,
            hi: 0.0,
            at: [0, 0],
        }
    }

    /// One more ratio: as `f64::min` and `f64::max`, a NaN changes neither.
    fn add(&mut self, ratio: f64, j: usize) {
        if ratio < self.lo {
            (self.lo, self.at[0]) = (ratio, j);
        }
        if ratio > self.hi {
            (self.hi, self.at[1]) = (ratio, j);
        }
    }

    /// Whether the ratios agree to `SETTLED`, below 1 and above 0.
    fn settled(&self) -> bool {
        // rho = 0 (a game of bounded length) has no law of this form.
        self.lo > 0.0 && self.hi < 1.0 && self.hi - self.lo <= SETTLED * self.hi
    }

    /// Whether the ratios seen already say that no set of ratios containing them is settled.
    /// lo only falls and hi only rises as ratios are added (and a ratio seen twice changes
    /// neither), so once `lo <= 0` or `hi >= 1` the answer is no. So it is once
    /// `hi - lo > TOLD hi` in floats with hi at least `NORMAL` (every number here and in the
    /// final test is then a normal float, rounded to within a relative `u = 2^-53`): TOLD is at
    /// least `SETTLED (1 + 2^-20) (1 - u)`, so `hi - lo > SETTLED (1 + 2^-21) hi` in reals; at
    /// the end, with `H >= hi` and `L <= lo`, `H - L >= (H - hi) + (hi - lo)` exceeds
    /// `SETTLED (1 + 2^-21) H` too, and its float exceeds the float of `SETTLED H` (their
    /// roundings move each by a factor `1 +- u`, far less than `1 + 2^-21`).
    fn told(&self) -> bool {
        let (lo, hi) = (self.lo, self.hi);
        lo <= 0.0 || hi >= 1.0 || (hi >= NORMAL && hi - lo > TOLD * hi)
    }
}

/// The spread at which `Spread::told` answers no: `SETTLED (1 + 2^-20)`.
const TOLD: f64 = SETTLED * (1.0 + 1.0 / (1u32 << 20) as f64);

/// The least hi at which `Spread::told` answers on the spread: `SETTLED hi` and the spread are
/// then normal floats.
const NORMAL: f64 = 1e-60;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tail_law::TailLawStart;
    use crate::board::{builtin, builtin_names};
    use crate::chain::Chain;
    use crate::exact::certified::CertifiedChain;

    /// The test as it was (second method): every bound as a float (`as f64`), every state
    /// looked at.
    fn reference(before: &[u128], after: &[u128], scale: f64) -> bool {
        let (before, after): (Vec<f64>, Vec<f64>) = (
            before.iter().map(|&x| x as f64).collect(),
            after.iter().map(|&x| x as f64).collect(),
        );
        let big = before.iter().cloned().fold(0.0, f64::max);
        let floor = big * 2f64.powi(-TINY_BITS);
        let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
        for (x, y) in before.iter().zip(&after) {
            if *x > floor {
                let ratio = y / x * scale;
                lo = lo.min(ratio);
                hi = hi.max(ratio);
            }
        }
        lo > 0.0 && hi < 1.0 && hi - lo <= SETTLED * hi
    }

    #[test]
    fn the_early_answers_are_the_whole_tests_on_every_built_in_board() {
        // Every turn up to 60 past the settling turn (the test says yes there and after),
        // with the hint carried as the watch carries it, and the settled vector as floats.
        let mut yes = 0;
        for name in builtin_names() {
            let board = builtin(name).unwrap();
            if board.is_stateful() {
                continue;
            }
            let chain = Chain::for_board(&board);
            let Some(start) = TailLawStart::new(&chain) else {
                continue;
            };
            let cc = CertifiedChain::new(&chain);
            let mut stepper = cc.stepper();
            // The watch's first test is of turn 2 against turn 1.
            stepper.step();
            let (mut before, mut now) = (Vec::new(), Vec::new());
            let mut before_shift = stepper.lower_bounds_into(&mut before);
            let (mut hint, mut first) = ([0, 0], None);
            while stepper.turn() < 2000 && first.is_none_or(|m| stepper.turn() < m + 60) {
                stepper.step();
                let shift = stepper.lower_bounds_into(&mut now);
                let scale = 2f64.powi(before_shift as i32 - shift as i32);
                let want = reference(&before, &now, scale);
                assert_eq!(settled(&before, &now, scale, &mut hint), want, "{name}");
                if want && first.is_none() {
                    first = Some(stepper.turn());
                    let mut watch = start.settling();
                    let mut again = cc.stepper();
                    let u = loop {
                        assert!(!watch.gave_up(again.turn()), "{name}");
                        again.step();
                        if let Some(u) = watch.watch(&again) {
                            break u;
                        }
                    };
                    assert_eq!(again.turn(), stepper.turn(), "{name}");
                    let floats: Vec<f64> = now.iter().map(|&x| x as f64).collect();
                    assert_eq!(u, floats, "{name}");
                }
                yes += usize::from(want);
                std::mem::swap(&mut before, &mut now);
                before_shift = shift;
            }
        }
        assert!(yes > 100, "{yes}");
    }
}
