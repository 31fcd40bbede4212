//! Exact stepping of the law of the game after n turns, kept in integers.
//!
//! # Formula
//!
//! With `p_0` the start vector and `P` the transition matrix, `p_n = p_(n-1) P`. Let D be the
//! common denominator of `P`'s entries, so `A = D P` is an integer matrix. Then
//! `v_n = D^n p_n = v_(n-1) A` is an integer vector: the loop needs no gcd, and
//! `P(T = n, ends in final state f) = v_n[f] / D^n` exactly.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::chain::Chain;

/// A chain's transition matrix scaled to integers: `D P`.
#[derive(Clone, Debug)]
pub struct IntegerChain {
    denominator: BigInt,
    transient: usize,
    finals: usize,
    start: usize,
    /// For each transient state: (target state index, D times the probability).
    rows: Vec<Vec<(usize, BigInt)>>,
}

impl IntegerChain {
    /// Scales `chain`'s transitions by their common denominator.
    pub fn new<S>(chain: &Chain<S>) -> IntegerChain
    where
        S: Clone + Eq + std::hash::Hash + Ord + std::fmt::Debug,
    {
        let d = chain.common_denominator();
        let rows = chain
            .rows()
            .iter()
            .map(|row| {
                row.iter()
                    .map(|(j, p)| (*j, p.numer() * (&d / p.denom())))
                    .collect()
            })
            .collect();
        IntegerChain {
            denominator: d,
            transient: chain.transient_count(),
            finals: chain.states().len() - chain.transient_count(),
            start: chain.start(),
            rows,
        }
    }

    /// The common denominator D.
    pub fn denominator(&self) -> &BigInt {
        &self.denominator
    }

    /// A stepper at n = 0 (all mass on the start state).
    pub fn stepper(&self) -> Stepper<'_> {
        let mut mass = vec![BigInt::zero(); self.transient];
        let mut absorbed = vec![BigInt::zero(); self.finals];
        if self.start < self.transient {
            mass[self.start] = BigInt::one();
        } else {
            absorbed[self.start - self.transient] = BigInt::one();
        }
        Stepper {
            chain: self,
            turn: 0,
            scale: BigInt::one(),
            mass,
            absorbed,
        }
    }
}

/// The law of the game after `turn()` turns, as integers over `scale() = D^turn`.
#[derive(Clone, Debug)]
pub struct Stepper<'a> {
    chain: &'a IntegerChain,
    turn: usize,
    scale: BigInt,
    mass: Vec<BigInt>,
    absorbed: Vec<BigInt>,
}

impl Stepper<'_> {
    /// Plays one more turn. Afterwards [`Stepper::absorbed`] holds the mass that reached each
    /// final state in exactly this turn.
    pub fn step(&mut self) {
        let c = self.chain;
        let mut next = vec![BigInt::zero(); c.transient];
        let mut absorbed = vec![BigInt::zero(); c.finals];
        for (i, m) in self.mass.iter().enumerate() {
            if m.is_zero() {
                continue;
            }
            for (j, a) in &c.rows[i] {
                let add = m * a;
                if *j < c.transient {
                    next[*j] += add;
                } else {
                    absorbed[*j - c.transient] += add;
                }
            }
        }
        self.mass = next;
        self.absorbed = absorbed;
        self.scale *= &c.denominator;
        self.turn += 1;
    }

    /// The number of turns played so far.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// D^turn: the denominator every count here is over.
    pub fn scale(&self) -> &BigInt {
        &self.scale
    }

    /// D^turn times the probability of each transient state after `turn` turns.
    pub fn transient_mass(&self) -> &[BigInt] {
        &self.mass
    }

    /// D^turn times the probability that the game ended in each final state at exactly this turn.
    pub fn absorbed(&self) -> &[BigInt] {
        &self.absorbed
    }

    /// P(T = turn): the game ended at exactly this turn.
    pub fn p_ends_now(&self) -> BigRational {
        let total: BigInt = self.absorbed.iter().sum();
        BigRational::new(total, self.scale.clone())
    }

    /// P(T > turn): the game is still going.
    pub fn p_survives(&self) -> BigRational {
        let total: BigInt = self.mass.iter().sum();
        BigRational::new(total, self.scale.clone())
    }

    /// The integer `D^turn P(T > turn)`, cheap to compare against a threshold.
    pub fn survival_count(&self) -> BigInt {
        self.mass.iter().sum()
    }
}

/// True when `count / scale < eps_num / eps_den`, decided exactly.
pub fn below(count: &BigInt, scale: &BigInt, eps: &BigRational) -> bool {
    count * eps.denom() < eps.numer() * scale
}

/// The greatest common divisor of a list of integers (used to reduce printed fractions).
pub fn gcd_all<'a>(values: impl IntoIterator<Item = &'a BigInt>) -> BigInt {
    values.into_iter().fold(BigInt::zero(), |g, v| g.gcd(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;

    #[test]
    fn the_tiny_board_ends_at_turn_n_with_probability_n_minus_one_over_two_to_the_n() {
        // Worked by hand (boards/tiny.toml): T is the sum of two geometric(1/2) waits.
        let b = builtin("tiny").unwrap().unwrap();
        let chain = Chain::for_board(&b);
        let ic = IntegerChain::new(&chain);
        let mut s = ic.stepper();
        for n in 1..=20i64 {
            s.step();
            let expect = BigRational::new((n - 1).into(), BigInt::from(2).pow(n as u32));
            assert_eq!(s.p_ends_now(), expect, "n = {n}");
            // P(T > n) = (n + 1) / 2^n.
            let surv = BigRational::new((n + 1).into(), BigInt::from(2).pow(n as u32));
            assert_eq!(s.p_survives(), surv, "n = {n}");
        }
    }

    #[test]
    fn below_compares_exactly() {
        let eps = BigRational::new(1.into(), 1000.into());
        assert!(below(&BigInt::from(9), &BigInt::from(10000), &eps));
        assert!(!below(&BigInt::from(10), &BigInt::from(10000), &eps));
    }
}
