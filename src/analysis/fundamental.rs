//! Expected rewards from every transient state of a chain, `x = N r` with `N = (I - Q)^-1` the
//! fundamental matrix, for several rewards at once, by verified lifting
//! (`exact::solve`'s crate-internal `solve_int_verified`): the lifting stops as soon as its candidate satisfies every equation
//! exactly. On the stateful boards the answers are about 800 bits where Hadamard's bound is
//! 25,600, so this is many times faster than lifting to the bound.
//!
//! # Formula
//!
//! With `A = I - Q` and each row scaled by the lcm `d_i` of its denominators and those of its
//! rewards (`A' = D A`, integer rows), `x = N r` solves `A' x = D r` (Kemeny and Snell, *Finite
//! Markov Chains*, theorem 3.3.5). The second moment of the turns chains on the first:
//! `E[T^2] = 2 (N t)_start - t_start` with `t = N 1`, and `N t` solves `A' u = D t`. The
//! probability of ending in absorbing state f is `(N R[., f])_start` (theorem 3.3.7).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;

use crate::chain::{Chain, ChainState};
use crate::exact::solve::{solve_int_verified, OverCommon};
use crate::num::gcd;

/// Expected rewards from every transient state, and the second moment of the turns.
#[derive(Clone, Debug)]
pub struct Rewards {
    /// `N r_k` for each reward k asked for (indexed like the chain's transient states); the
    /// first is the expected turns.
    pub expected: Vec<OverCommon>,
    /// `N t` (with t the expected turns), when the second moment was asked for.
    pub turns_after: Option<OverCommon>,
}

impl Rewards {
    /// `E[T^2] = 2 (N t)_i - t_i` from transient state i, when the second moment was asked for.
    pub fn second_moment(&self, i: usize) -> Option<BigRational> {
        let u = self.turns_after.as_ref()?.get(i);
        Some(BigRational::from_integer(2.into()) * u - self.expected[0].get(i))
    }
}

/// `N r` for the turns (first, always) and each reward in `rewards` (a value per transient
/// state), and with `second_moment` also `E[T^2]` from every state; `None` when the verified
/// route does not apply (the game may not end, the start is final, entries beyond machine
/// words, too many digits): the caller then solves by the bounded routes.
pub fn expected_rewards<S: ChainState>(
    chain: &Chain<S>,
    rewards: &[Vec<BigRational>],
    second_moment: bool,
) -> Option<Rewards> {
    let n = chain.transient_count();
    if chain.start() >= n || chain.trap().is_some() {
        return None;
    }
    let (rows, rhs) = scaled_rows(chain, rewards)?;
    let scale: Vec<Vec<(usize, i64)>> = rhs[0]
        .iter()
        .enumerate()
        .map(|(i, &d)| vec![(i, d)])
        .collect();
    let chained = second_moment.then_some((&scale[..], 0));
    let (expected, u) = solve_int_verified(&rows, &rhs, chained)?;
    Some(Rewards {
        expected,
        turns_after: u,
    })
}

/// The rows of `A' = D (I - Q)` over the transient states and the right-hand sides `D 1`, then
/// `D r_k` (see the module docs); `None` when a value does not fit a machine word.
#[allow(clippy::type_complexity)]
pub(crate) fn scaled_rows<S: ChainState>(
    chain: &Chain<S>,
    rewards: &[Vec<BigRational>],
) -> Option<(Vec<Vec<(usize, i64)>>, Vec<Vec<i64>>)> {
    let n = chain.transient_count();
    let mut rows: Vec<Vec<(usize, i64)>> = Vec::with_capacity(n);
    let mut rhs: Vec<Vec<i64>> = vec![Vec::with_capacity(n); rewards.len() + 1];
    for i in 0..n {
        let row = chain.row(i);
        let d = row
            .iter()
            .map(|(_, p)| p)
            .chain(rewards.iter().map(|r| &r[i]))
            .fold(BigInt::one(), |l, x| gcd::lcm(l, x.denom()));
        let d64 = i64::try_from(&d).ok()?;
        let mut r = Vec::with_capacity(row.len() + 1);
        r.push((i, d64));
        for (j, p) in row.iter().filter(|(j, _)| *j < n) {
            let v = p.numer() * (&d / p.denom());
            r.push((*j, -i64::try_from(&v).ok()?));
        }
        rows.push(r);
        rhs[0].push(d64);
        for (k, reward) in rewards.iter().enumerate() {
            let v = reward[i].numer() * (&d / reward[i].denom());
            rhs[k + 1].push(i64::try_from(&v).ok()?);
        }
    }
    Some((rows, rhs))
}
