//! Outward-rounded fixed-point stepping of a chain's law: certified lower and upper bounds of
//! `P(X_n = s)` for every state, kept as integers over `2^bits`.
//!
//! # Why not exact integers
//!
//! [`crate::exact::step::IntegerChain`] keeps `D^n p_n` exactly; on the Efi board D has 39 bits,
//! so after the 230 turns a two-player race needs the integers have 9,000 bits and the stepping
//! alone takes longer than the whole certified answer may. Here every probability is rounded
//! outward instead: the lower vector is rounded down and the upper vector up at every step, so
//! that for every n and state s
//!
//! ```text
//! lo_n[s] / 2^bits <= P(X_n = s) <= hi_n[s] / 2^bits
//! ```
//!
//! holds exactly (all entries are nonnegative, so rounding down every input and every product
//! can only lower the sum, and rounding up can only raise it). The error of one step is at most
//! one unit per stored entry (about `nnz / 2^bits`), and the chain's matrix is substochastic, so
//! after n steps the gap is at most `n (nnz + states) / 2^bits`: with `bits` chosen 40 bits
//! above the digits asked for, this is far below anything printed.

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use crate::chain::Chain;
use crate::num::dyadic::{round_outward, shift_up};

/// A chain's transitions rounded outward to `bits` binary digits.
#[derive(Clone, Debug)]
pub struct FixedChain {
    bits: u32,
    transient: usize,
    finals: usize,
    start: usize,
    /// Per transient state: (target, floor(2^bits p), ceil(2^bits p)).
    rows: Vec<Vec<(usize, BigUint, BigUint)>>,
}

impl FixedChain {
    /// Rounds `chain`'s transition probabilities outward to `bits` binary digits.
    pub fn new<S>(chain: &Chain<S>, bits: u32) -> FixedChain
    where
        S: Clone + Eq + std::hash::Hash + Ord + std::fmt::Debug,
    {
        let rows = chain
            .rows()
            .iter()
            .map(|row| {
                row.iter()
                    .map(|(j, p)| {
                        let (lo, hi) = round_outward(p, bits);
                        (*j, lo, hi)
                    })
                    .collect()
            })
            .collect();
        FixedChain {
            bits,
            transient: chain.transient_count(),
            finals: chain.states().len() - chain.transient_count(),
            start: chain.start(),
            rows,
        }
    }

    /// A stepper at n = 0: all mass on the start state.
    pub fn stepper(&self) -> FixedStepper<'_> {
        let one = BigUint::one() << self.bits;
        let mut lo = vec![BigUint::zero(); self.transient];
        let mut absorbed = vec![BigUint::zero(); self.finals];
        if self.start < self.transient {
            lo[self.start] = one.clone();
        } else {
            absorbed[self.start - self.transient] = one.clone();
        }
        let survival = lo.iter().sum::<BigUint>();
        FixedStepper {
            chain: self,
            turn: 0,
            hi: lo.clone(),
            lo,
            absorbed_lo: absorbed.clone(),
            absorbed_hi: absorbed,
            survival_lo: survival.clone(),
            survival_hi: survival,
            one,
        }
    }
}

/// Certified bounds of the law after `turn()` turns, as integers over `2^bits`.
#[derive(Clone, Debug)]
pub struct FixedStepper<'a> {
    chain: &'a FixedChain,
    turn: usize,
    lo: Vec<BigUint>,
    hi: Vec<BigUint>,
    absorbed_lo: Vec<BigUint>,
    absorbed_hi: Vec<BigUint>,
    survival_lo: BigUint,
    survival_hi: BigUint,
    one: BigUint,
}

impl FixedStepper<'_> {
    /// Plays one more turn.
    pub fn step(&mut self) {
        let c = self.chain;
        let bits = c.bits;
        let mut lo = vec![BigUint::zero(); c.transient + c.finals];
        let mut hi = vec![BigUint::zero(); c.transient + c.finals];
        for (i, row) in c.rows.iter().enumerate() {
            let (l, h) = (&self.lo[i], &self.hi[i]);
            let l_zero = l.is_zero();
            if h.is_zero() {
                continue;
            }
            for (j, plo, phi) in row {
                if !l_zero {
                    lo[*j] += l * plo;
                }
                hi[*j] += h * phi;
            }
        }
        let hi: Vec<BigUint> = hi
            .into_iter()
            .map(|x| shift_up(x, bits).min(self.one.clone()))
            .collect();
        let lo: Vec<BigUint> = lo.into_iter().map(|x| x >> bits).collect();
        let (lo_t, lo_f) = lo.split_at(c.transient);
        let (hi_t, hi_f) = hi.split_at(c.transient);
        let ends_lo: BigUint = lo_f.iter().sum();
        let ends_hi: BigUint = hi_f.iter().sum();
        // S(n) = S(n-1) - P(T = n): use whichever bound is tighter.
        let sum_lo: BigUint = lo_t.iter().sum();
        let sum_hi: BigUint = hi_t.iter().sum();
        let by_diff_lo = if self.survival_lo > ends_hi {
            &self.survival_lo - &ends_hi
        } else {
            BigUint::zero()
        };
        let by_diff_hi = if self.survival_hi > ends_lo {
            &self.survival_hi - &ends_lo
        } else {
            BigUint::zero()
        };
        self.survival_lo = sum_lo.max(by_diff_lo);
        self.survival_hi = sum_hi.min(by_diff_hi);
        self.absorbed_lo = lo_f.to_vec();
        self.absorbed_hi = hi_f.to_vec();
        self.lo = lo_t.to_vec();
        self.hi = hi_t.to_vec();
        self.turn += 1;
    }

    /// The number of turns played.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// Bounds of `P(X_n = s)` for the transient states, over `2^bits`.
    pub fn transient(&self) -> (&[BigUint], &[BigUint]) {
        (&self.lo, &self.hi)
    }

    /// Bounds of the mass that reached each final state at exactly this turn, over `2^bits`.
    pub fn absorbed(&self) -> (&[BigUint], &[BigUint]) {
        (&self.absorbed_lo, &self.absorbed_hi)
    }

    /// Bounds of `P(T = n)` over `2^bits`.
    pub fn ends_now(&self) -> (BigUint, BigUint) {
        (
            self.absorbed_lo.iter().sum(),
            self.absorbed_hi
                .iter()
                .sum::<BigUint>()
                .min(self.one.clone()),
        )
    }

    /// Bounds of `P(T > n)` over `2^bits`.
    pub fn survives(&self) -> (&BigUint, &BigUint) {
        (&self.survival_lo, &self.survival_hi)
    }
}

/// A certified upper bound of the expected total reward to absorption from every transient
/// state, as integers over `2^bits`: a vector `h >= 0` with `h >= b + Q h` componentwise.
///
/// # Formula
///
/// Iterating `h >= b + Q h` gives `h >= sum_{t<n} Q^t b + Q^n h >= sum_{t<n} Q^t b` for every n,
/// so `h >= (I - Q)^-1 b = N b`, the expected reward (Kemeny and Snell, *Finite Markov Chains*,
/// theorem 3.3.5; this is the comparison principle for superharmonic functions). The candidate
/// comes from a float Gauss-Seidel solve of `x = b + eta + Q x` (the small extra reward `eta`
/// gives every row room for the float errors); the inequality is then checked exactly, in
/// integers, with every `Q` entry rounded up. Nothing rests on the floats but the choice of h.
///
/// `reward[i]` is `b_i` (an integer per turn, e.g. 1 for "count this turn"). `None` when no
/// candidate passed the check (the chain's expected times are too long for floats).
pub fn supersolution(chain: &FixedChain, reward: &[u32]) -> Option<Vec<BigUint>> {
    let n = chain.transient;
    let bits = chain.bits;
    let scale = (bits as i32).min(1000);
    let to_f64 = |x: &BigUint| -> f64 {
        // x / 2^bits; x <= 2^bits so the leading bits are enough.
        let shift = x.bits().saturating_sub(60);
        let top = (x >> shift).to_u64().unwrap_or(u64::MAX) as f64;
        top * 2f64.powi(shift as i32 - scale)
    };
    let rows: Vec<Vec<(usize, f64)>> = chain
        .rows
        .iter()
        .map(|row| {
            row.iter()
                .filter(|(j, _, _)| *j < n)
                .map(|(j, _, hi)| (*j, to_f64(hi)))
                .collect()
        })
        .collect();
    let mut eta = crate::prec::FIXED_POINT_SLACK;
    for _ in 0..4 {
        let mut x = vec![0f64; n];
        let mut converged = false;
        for _ in 0..1_000_000 / (n + 1) + 2000 {
            let mut change = 0f64;
            for i in 0..n {
                let mut v = f64::from(reward[i]) + eta;
                for (j, p) in &rows[i] {
                    v += p * x[*j];
                }
                change = change.max((v - x[i]).abs() / v.max(1.0));
                x[i] = v;
            }
            if change < crate::prec::FIXED_POINT_SETTLED {
                converged = true;
                break;
            }
        }
        if converged && x.iter().all(|v| v.is_finite()) {
            let h: Vec<BigUint> = x
                .iter()
                .map(|&v| {
                    let v = v * (1.0 + crate::prec::BOUND_ROUNDING);
                    round_outward(&BigRational::from_float(v.max(0.0)).expect("finite"), bits).1
                })
                .collect();
            if check_supersolution(chain, reward, &h) {
                return Some(h);
            }
        }
        eta *= 1000.0;
    }
    None
}

/// `h >= b + Q h` for every transient state, with Q rounded up, decided exactly.
pub fn check_supersolution(chain: &FixedChain, reward: &[u32], h: &[BigUint]) -> bool {
    let n = chain.transient;
    let bits = chain.bits;
    chain.rows.iter().enumerate().all(|(i, row)| {
        let mut rhs = BigUint::from(reward[i]) << (2 * bits);
        for (j, _, hi) in row {
            if *j < n {
                rhs += hi * &h[*j];
            }
        }
        (&h[i] << bits) >= rhs
    })
}

#[cfg(test)]
mod tests {
    use num_bigint::BigInt;

    use super::*;
    use crate::board::builtin;
    use crate::exact::step::IntegerChain;
    use crate::num::dyadic::unscaled as dyadic;

    #[test]
    fn the_bounds_contain_the_exact_law_at_every_turn() {
        // Second method: the exact integer stepping of src/exact/step.rs.
        for (name, bits) in [("milton-bradley", 60), ("efi", 40)] {
            let b = builtin(name).unwrap();
            let chain = Chain::for_board(&b);
            let fixed = FixedChain::new(&chain, bits);
            let exact = IntegerChain::new(&chain);
            let mut f = fixed.stepper();
            let mut e = exact.stepper();
            for _ in 0..60 {
                f.step();
                e.step();
                let (slo, shi) = f.survives();
                let s = e.p_survives();
                assert!(dyadic(slo, bits) <= s && s <= dyadic(shi, bits), "{name}");
                let (flo, fhi) = f.ends_now();
                let p = e.p_ends_now();
                assert!(dyadic(&flo, bits) <= p && p <= dyadic(&fhi, bits), "{name}");
                // And the bounds are tight: the gap stays tiny.
                let gap = dyadic(shi, bits) - dyadic(slo, bits);
                assert!(gap < BigRational::new(1.into(), BigInt::from(1u64 << 20)));
            }
        }
    }

    #[test]
    fn the_supersolution_bounds_the_exact_expected_turns() {
        // Second method: the exact (I - Q) t = 1 of src/analysis/expectation.rs.
        use crate::analysis::expectation::{expect_chain, Expectation};
        for name in ["tiny", "milton-bradley", "efi"] {
            let b = builtin(name).unwrap();
            let chain = Chain::for_board(&b);
            let fixed = FixedChain::new(&chain, 100);
            let ones = vec![1; chain.transient_count()];
            let h = supersolution(&fixed, &ones).expect("certified");
            let Expectation::Finite(e) = expect_chain(&chain) else {
                panic!()
            };
            for (i, (_, t)) in e.per_square.iter().enumerate() {
                let bound = dyadic(&h[i], 100);
                assert!(&bound >= t, "{name}");
                // and close: within a millionth
                assert!(
                    bound - t < BigRational::new(1.into(), 1_000_000.into()),
                    "{name}"
                );
            }
            // A vector that is too small fails the check.
            let low: Vec<BigUint> = h.iter().map(|x| x / 2u32).collect();
            assert!(!check_supersolution(&fixed, &ones, &low));
        }
    }

    #[test]
    fn the_tiny_board_with_dyadic_probabilities_is_stepped_exactly() {
        // boards/tiny.toml: P(T > n) = (n + 1) / 2^n (worked by hand there): dyadic, so exact.
        let b = builtin("tiny").unwrap();
        let chain = Chain::for_board(&b);
        let fixed = FixedChain::new(&chain, 64);
        let mut f = fixed.stepper();
        for n in 1..=20u32 {
            f.step();
            let expect = BigRational::new((n + 1).into(), BigInt::one() << n);
            let (lo, hi) = f.survives();
            assert_eq!(dyadic(lo, 64), expect);
            assert_eq!(dyadic(hi, 64), expect);
        }
    }
}
