//! The optimal policy: policy iteration with exact policy evaluation, ending with a proof of
//! optimality (docs/optimal-play.md).
//!
//! # Method
//!
//! 1. A float value iteration (Gauss-Seidel sweeps from the finish down) gives a near-optimal
//!    value and its greedy policy; if that policy cannot finish from some state, the policy that
//!    heads for the finish by the fewest turns is used instead (it finishes from everywhere).
//! 2. Policy iteration: evaluate the policy exactly ([`super::evaluate`]); at every node take the
//!    action of least exact value, keeping the current one unless another is strictly better;
//!    repeat until nothing changes. Each step strictly improves the policy (Howard 1960), so it
//!    ends. With `decline`, a jump declined where taking it is as good is taken, and the policy is
//!    made one choice per square ([`Game::by_square`]).
//! 3. The proof: [`bellman_holds`] checks `V(s) = 1 + sum_k (w_k / W_s) min_a sum P_a V` with `==`
//!    on every state, in integers over the values' common denominator. Every turn costs 1, so a
//!    policy that does not finish has infinite cost and the Bellman equation has one solution,
//!    the optimal value (Bertsekas and Tsitsiklis, "An analysis of stochastic shortest path
//!    problems", 1991): the value found is optimal at every state, not only at the start.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use super::evaluate::{common_denominator, evaluate, trapped, Evaluation};
use super::{Choice, Game, Node, Policy};
use crate::board::dice::lcm;
use crate::board::Square;

/// The optimum of a game with choices.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Optimum {
    /// The optimal expected turns at every state (by state index).
    pub values: Vec<BigRational>,
    /// An optimal policy (one action per node).
    pub policy: Policy,
    /// Exact policy evaluations made by policy iteration.
    pub evaluations: usize,
    /// True when the Bellman equation was checked to hold with `==` at every state.
    pub proved: bool,
}

/// The optimal expected turns and policy, or the square from which no policy finishes.
///
/// # Errors
///
/// The square (reachable under some policy) from which the finish cannot be reached whatever
/// the player chooses.
pub fn optimize(game: &Game) -> Result<Optimum, Square> {
    // Shown (after a second) from the float sweeps on, the exact evaluations counted.
    let stage = crate::progress::Stage::begin("improving the policy", None);
    let float = value_iteration(game, 2000);
    let mut policy = greedy(game, &float);
    let all = vec![true; game.squares.len()];
    if trapped(game, &policy, &all).is_some() {
        policy = fewest_turns(game)?;
    }
    let mut evaluations = 0;
    loop {
        let Evaluation::Finite(values) = evaluate(game, &policy, true) else {
            unreachable!("policy iteration keeps a policy that finishes from everywhere")
        };
        evaluations += 1;
        stage.advance(evaluations as u64);
        let values: Vec<BigRational> = values.into_iter().map(|v| v.expect("whole")).collect();
        let (numers, _) = common_denominator(&values);
        let mut changed = false;
        for (k, node) in game.nodes.iter().enumerate() {
            let (scaled, _) = action_values(node, &numers);
            let current = &scaled[policy[k]];
            if let Some((best, _)) = scaled
                .iter()
                .enumerate()
                .filter(|(_, v)| *v < current)
                .min_by(|a, b| a.1.cmp(b.1))
            {
                policy[k] = best;
                changed = true;
            }
        }
        if !changed {
            let policy = game.by_square(take_on_ties(game, &numers, policy));
            let proved = bellman_holds(game, &values);
            return Ok(Optimum {
                values,
                policy,
                evaluations,
                proved,
            });
        }
    }
}

/// Each action's value at a node, as numerators over the values' common denominator times L
/// (the lcm of the actions' totals), and L.
/// `decline`'s tie rule (docs/model.md, "Choices"): where declining is optimal and taking is
/// as good, take. A policy greedy for the optimal values is optimal (every turn costs 1), so
/// the values stay the optimum.
fn take_on_ties(game: &Game, numers: &[BigInt], mut policy: Policy) -> Policy {
    for (k, node) in game.nodes.iter().enumerate() {
        if node.actions[policy[k]].choice != Choice::Decline {
            continue;
        }
        let (scaled, _) = action_values(node, numers);
        let tied = (0..node.actions.len())
            .find(|&a| node.actions[a].choice != Choice::Decline && scaled[a] == scaled[policy[k]]);
        if let Some(a) = tied {
            policy[k] = a;
        }
    }
    policy
}

fn action_values(node: &Node, numers: &[BigInt]) -> (Vec<BigInt>, u64) {
    let l = node.actions.iter().fold(1u64, |l, a| lcm(l, a.total));
    let scaled = node
        .actions
        .iter()
        .map(|a| {
            let f = l / a.total;
            a.next
                .iter()
                .filter_map(|&(t, u)| t.map(|t| &numers[t] * BigInt::from(u * f)))
                .fold(BigInt::zero(), |acc, v| acc + v)
        })
        .collect();
    (scaled, l)
}

/// True when `values` satisfy the Bellman equation with `==` at every state:
/// `V(s) = 1 + sum_k (w_k / W_s) min_a sum_s' P_a(s') V(s')`, `V(finish) = 0`.
pub fn bellman_holds(game: &Game, values: &[BigRational]) -> bool {
    if values.len() != game.squares.len() {
        return false;
    }
    let (numers, d) = common_denominator(values);
    let best: Vec<(BigInt, u64)> = game
        .nodes
        .iter()
        .map(|node| {
            let (scaled, l) = action_values(node, &numers);
            (scaled.into_iter().min().expect("an action"), l)
        })
        .collect();
    (0..game.squares.len()).all(|s| {
        let sits = &game.situations[s];
        let l = sits.iter().fold(1u64, |l, &(_, k)| lcm(l, best[k].1));
        let scale = BigInt::from(game.totals[s]) * BigInt::from(l);
        let rhs = sits
            .iter()
            .map(|&(w, k)| &best[k].0 * BigInt::from(w * (l / best[k].1)))
            .fold(&scale * &d, |acc, v| acc + v);
        &numers[s] * &scale == rhs
    })
}

/// Float value iteration from 0: at most `sweeps` Gauss-Seidel sweeps (states from the last to
/// the first), stopping once no value moves by more than 1e-15 of itself.
pub fn value_iteration(game: &Game, sweeps: usize) -> Vec<f64> {
    let m = game.squares.len();
    let mut v = vec![0.0f64; m];
    // probs[node][action]: (target, probability).
    type Probs = Vec<Vec<(Option<usize>, f64)>>;
    let probs: Vec<Probs> = game
        .nodes
        .iter()
        .map(|node| {
            node.actions
                .iter()
                .map(|a| {
                    a.next
                        .iter()
                        .map(|&(t, u)| (t, u as f64 / a.total as f64))
                        .collect()
                })
                .collect()
        })
        .collect();
    let node_value = |k: usize, v: &[f64]| -> f64 {
        probs[k]
            .iter()
            .map(|a| a.iter().map(|&(t, p)| p * t.map_or(0.0, |t| v[t])).sum())
            .fold(f64::INFINITY, f64::min)
    };
    for _ in 0..sweeps {
        let mut moved = 0.0f64;
        for s in (0..m).rev() {
            let total = game.totals[s] as f64;
            let new = 1.0
                + game.situations[s]
                    .iter()
                    .map(|&(w, k)| w as f64 / total * node_value(k, &v))
                    .sum::<f64>();
            moved = moved.max((new - v[s]).abs() / new);
            v[s] = new;
        }
        if moved < crate::prec::SWEEP_SETTLED {
            break;
        }
    }
    v
}

/// The policy greedy with respect to float values.
fn greedy(game: &Game, v: &[f64]) -> Policy {
    game.policy_by(|node| {
        let value = |a: &super::Action| -> f64 {
            a.next
                .iter()
                .map(|&(t, u)| u as f64 * t.map_or(0.0, |t| v[t]))
                .sum::<f64>()
                / a.total as f64
        };
        (0..node.actions.len())
            .min_by(|&a, &b| value(&node.actions[a]).total_cmp(&value(&node.actions[b])))
            .expect("an action")
    })
}

/// The policy that heads for the finish by the fewest turns (ignoring probabilities): from every
/// state it reaches a state one turn nearer with positive probability, so it finishes from
/// everywhere.
fn fewest_turns(game: &Game) -> Result<Policy, Square> {
    let m = game.squares.len();
    let mut dist = vec![u32::MAX; m];
    let nearest = |node: &Node, dist: &[u32]| -> (u32, usize) {
        node.actions
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let d = a
                    .next
                    .iter()
                    .map(|&(t, _)| t.map_or(0, |t| dist[t]))
                    .min()
                    .unwrap_or(u32::MAX);
                (d, i)
            })
            .min()
            .expect("an action")
    };
    loop {
        let near: Vec<u32> = game.nodes.iter().map(|n| nearest(n, &dist).0).collect();
        let mut changed = false;
        for (s, sits) in game.situations.iter().enumerate() {
            let d = sits
                .iter()
                .map(|&(_, k)| near[k].saturating_add(1))
                .min()
                .unwrap_or(u32::MAX);
            if d < dist[s] {
                dist[s] = d;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    if let Some(s) = (0..m).find(|&s| dist[s] == u32::MAX) {
        return Err(game.squares[s]);
    }
    Ok(game.policy_by(|node| nearest(node, &dist).1))
}
