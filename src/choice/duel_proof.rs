//! The proof that no deviation, however many turns it lasts, gains much against the two-player
//! strategies of [`super::duel`] (docs/optimal-play.md, "What is proved").
//!
//! # Formula
//!
//! Let W be the certified values of the pair σ and, at a decision node k with the other on y,
//! Q_k(a) the value of action a under W. The single-turn gain bound is
//! `g = max_{k, y, a} Q_k(a) - Q_k(σ_k(y))`, computed exactly from the certified intervals
//! ([`gain_bound`]). Let the first player follow any strategy τ while the second keeps σ. Along
//! the game, E[W(next state)] rises by at most g on each of the first player's turns and does
//! not move on the second's, so for every n
//! `P(first wins by turn n) <= W(start) + g E[first player's turns]`. The first player moves at
//! most once more than the second, and the second's turns are at most its turns to finish, whose
//! expectation under any τ is at most N(y0), the least solution of the max-turns equation
//!
//! ```text
//! N(y) = 1 + sum_k (w_k / W_y) max_{a in A_k} sum_y' P_a(y') N(y')      (N(finish) = 0)
//! ```
//!
//! with A_k the actions σ takes at node k for some position of the other (the other's position
//! is all τ controls). Any integer u >= 0 with u >= 1 + (the right side at u), checked exactly,
//! bounds N. Hence σ holds the first player's chance to at most `W + g (1 + N(y0))`, and
//! symmetrically guarantees it at least `W - g N(x0)`: both the best the first player can force
//! and the best the second can hold it to lie in that interval.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::duel::{integer_supersolution, length_sweep, CertifiedPair, Strategy, SCALE_BITS};
use super::Game;
use crate::num::interval::Interval;

/// The bound on what any deviation, over any number of turns, gains.
#[derive(Clone, Debug)]
pub struct DeviationProof {
    /// g: the most a single turn's deviation gains (exact).
    pub turn_gain: BigRational,
    /// The bounds on a deviator's expected turns: (first player deviating, second deviating);
    /// `None` when no single turn's deviation gains anything (g = 0), so no sequence of them does.
    pub turns: Option<(i64, i64)>,
    /// The first player's chance when both play as well as they can: the value of the game lies
    /// in this interval.
    pub value: Interval,
}

impl DeviationProof {
    /// The most any deviation gains, either player: g times the larger turns bound.
    pub fn total_gain(&self) -> BigRational {
        let most = self.turns.map_or(0, |(a, b)| a.max(b));
        &self.turn_gain * BigRational::from_integer(most.into())
    }
}

/// The exact single-turn gain bound g of the module's formula: at every node with a choice and
/// every position of the other, each other action's value at the top of its certified interval
/// minus the chosen action's at the bottom of its own.
pub fn gain_bound(game: &Game, strategy: &Strategy, c: &CertifiedPair) -> BigRational {
    let m = c.m;
    let one: i128 = 1 << SCALE_BITS;
    let rho_f = c.residual.to_f64().unwrap_or(f64::INFINITY);
    let mut worst = BigRational::zero();
    for (k, node) in game.nodes.iter().enumerate() {
        if node.actions.len() < 2 {
            continue;
        }
        for (y, &chosen) in strategy[k].iter().enumerate() {
            // (value numerator over total * 2^60, radius numerator over total, total).
            let values: Vec<(i128, i128, u64)> = node
                .actions
                .iter()
                .map(|a| {
                    let (mut v, mut rad) = (0i128, 0i128);
                    for &(t, u) in &a.next {
                        let u = i128::from(u);
                        match t {
                            None => v += u * one,
                            Some(t) => {
                                v += u * (one - i128::from(c.center[y * m + t]));
                                rad += u * i128::from(c.turns[y * m + t]);
                            }
                        }
                    }
                    (v, rad, a.total)
                })
                .collect();
            let (vc, rc, uc) = values[chosen];
            for (i, &(va, ra, ua)) in values.iter().enumerate() {
                if i == chosen {
                    continue; // Q(σ) - Q(σ) is exactly 0.
                }
                let (ua, uc) = (i128::from(ua), i128::from(uc));
                let diff_num = va * uc - vc * ua;
                // A float screen with a wide margin: only near-ties are worked out exactly.
                let diff_f = diff_num as f64 / (ua as f64 * uc as f64 * one as f64);
                let rad_f = rho_f * (ra as f64 / ua as f64 + rc as f64 / uc as f64);
                if diff_f + 2.0 * rad_f < -crate::prec::SCREEN {
                    continue;
                }
                let diff =
                    BigRational::new(BigInt::from(diff_num), BigInt::from(ua * uc) << SCALE_BITS);
                let rad = &c.residual
                    * BigRational::new(BigInt::from(ra * uc + rc * ua), BigInt::from(ua * uc));
                let gain = diff + rad;
                if gain > worst {
                    worst = gain;
                }
            }
        }
    }
    worst
}

/// The proof of the module's formula for the pair `strategy` with certificate `c`, from the
/// first player's state `x0` and the second's `y0`; `None` when no bound on a deviator's turns
/// was found (some action the pair takes can keep a player from the finish for ever).
pub fn prove(
    game: &Game,
    strategy: &Strategy,
    c: &CertifiedPair,
    (x0, y0): (usize, usize),
) -> Option<DeviationProof> {
    let turn_gain = gain_bound(game, strategy, c);
    let chance = c.chance(x0, y0);
    if turn_gain.is_zero() {
        return Some(DeviationProof {
            turn_gain,
            turns: None,
            value: chance,
        });
    }
    let n = max_turns_bound(game, strategy)?;
    let (first, second) = (1 + n[y0], n[x0]);
    let k = |v: i64| BigRational::from_integer(v.into());
    let value = Interval::new(
        &chance.lo - &turn_gain * k(second),
        &chance.hi + &turn_gain * k(first),
    );
    Some(DeviationProof {
        turn_gain,
        turns: Some((first, second)),
        value,
    })
}

/// For each node, the actions the strategy takes there for some position of the other.
fn used_actions(game: &Game, strategy: &Strategy) -> Vec<Vec<usize>> {
    strategy
        .iter()
        .zip(&game.nodes)
        .map(|(row, node)| {
            let mut used = vec![false; node.actions.len()];
            row.iter().for_each(|&a| used[a] = true);
            (0..used.len()).filter(|&a| used[a]).collect()
        })
        .collect()
}

/// The expectation of u after action `a` of node `k`, as (sum of weight * u, total).
fn after(game: &Game, k: usize, a: usize, u: impl Fn(usize) -> f64) -> f64 {
    let act = &game.nodes[k].actions[a];
    let s: f64 = act
        .next
        .iter()
        .filter_map(|&(t, w)| t.map(|t| w as f64 * u(t)))
        .sum();
    s / act.total as f64
}

/// An integer bound u on N of the module's formula, checked exactly, or `None`.
fn max_turns_bound(game: &Game, strategy: &Strategy) -> Option<Vec<i64>> {
    let used = used_actions(game, strategy);
    let m = game.squares.len();
    // Float value iteration for N (Gauss-Seidel, later squares first).
    let t = length_sweep(m, true, crate::prec::LENGTH_SWEEP_SETTLED, |t, y| {
        let s: f64 = game.situations[y]
            .iter()
            .map(|&(w, k)| {
                let best = used[k]
                    .iter()
                    .map(|&a| after(game, k, a, |x| t[x]))
                    .fold(0.0, f64::max);
                w as f64 * best
            })
            .sum();
        s / game.totals[y] as f64
    })?;
    integer_supersolution(&t, |u| (0..m).all(|y| supersolves(game, &used, u, y)))
}

/// Whether u(y) >= 1 + sum_k (w_k / W_y) max_{a in used_k} E_a[u], exactly.
fn supersolves(game: &Game, used: &[Vec<usize>], u: &[i64], y: usize) -> bool {
    let mut right = BigRational::from_integer(game.totals[y].into());
    for &(w, k) in &game.situations[y] {
        let best = used[k]
            .iter()
            .map(|&a| {
                let act = &game.nodes[k].actions[a];
                let s: i128 = act
                    .next
                    .iter()
                    .filter_map(|&(t, wt)| t.map(|t| i128::from(wt) * i128::from(u[t])))
                    .sum();
                BigRational::new(BigInt::from(s), BigInt::from(act.total))
            })
            .max()
            .unwrap_or_else(BigRational::zero);
        right += best * BigRational::from_integer(w.into());
    }
    BigRational::from_integer((i128::from(u[y]) * i128::from(game.totals[y])).into()) >= right
}
