//! Exact evaluation of a policy: a fixed policy turns the decision process back into a chain,
//! whose expected turns solve `(I - Q_pi) t = 1` over the rationals.
//!
//! # Formula
//!
//! Row s of the system, scaled to integers by `W_s L_s` (L_s the lcm of the totals of the
//! actions the policy takes in s's situations):
//!
//! ```text
//! W_s L_s t_s - sum_k w_k (L_s / U_k) sum_s' u_k(s') t_s' = W_s L_s
//! ```
//!
//! solved by the exact [`solve::solve`]. Only the states the policy reaches from the
//! start are solved when asked for the start's value (a policy may be bad where it never goes).

use std::collections::VecDeque;

use num_bigint::BigInt;
use num_rational::BigRational;

use super::{Game, Policy};
use crate::board::dice::lcm;
use crate::board::Square;
use crate::exact::solve::{self, System, Wanted};

/// The value of a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The policy finishes with probability 1 from every state solved: the expected turns, by
    /// state index (`None` for states not solved).
    Finite(Vec<Option<BigRational>>),
    /// From this square (reached under the policy) the finish cannot be reached.
    Never(Square),
}

/// The successors of state `s` under `policy` (`None` for the finish).
fn successors<'a>(
    game: &'a Game,
    policy: &'a Policy,
    s: usize,
) -> impl Iterator<Item = Option<usize>> + 'a {
    let chosen: Vec<usize> = game.situations[s].iter().map(|&(_, k)| k).collect();
    chosen.into_iter().flat_map(move |k| {
        game.nodes[k].actions[policy[k]]
            .next
            .iter()
            .map(|&(t, _)| t)
    })
}

/// Which states to solve: all (`whole`) or those reachable from the start under the policy.
fn states_to_solve(game: &Game, policy: &Policy, whole: bool) -> Vec<bool> {
    let m = game.squares.len();
    if whole {
        return vec![true; m];
    }
    let mut seen = vec![false; m];
    let mut queue: VecDeque<usize> = game.start.into_iter().collect();
    for &s in &queue {
        seen[s] = true;
    }
    while let Some(s) = queue.pop_front() {
        for t in successors(game, policy, s).flatten() {
            if !seen[t] {
                seen[t] = true;
                queue.push_back(t);
            }
        }
    }
    seen
}

/// A state among `solve` from which the finish cannot be reached under the policy.
pub(super) fn trapped(game: &Game, policy: &Policy, solve: &[bool]) -> Option<usize> {
    let m = game.squares.len();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); m];
    let mut ends = vec![false; m];
    let mut queue = VecDeque::new();
    for s in (0..m).filter(|&s| solve[s]) {
        for t in successors(game, policy, s) {
            match t {
                Some(t) => preds[t].push(s),
                None if !ends[s] => {
                    ends[s] = true;
                    queue.push_back(s);
                }
                None => {}
            }
        }
    }
    while let Some(t) = queue.pop_front() {
        for &s in &preds[t] {
            if !ends[s] {
                ends[s] = true;
                queue.push_back(s);
            }
        }
    }
    (0..m).find(|&s| solve[s] && !ends[s])
}

/// Evaluates `policy` exactly: at every state (`whole`), or at the states it reaches from the
/// start.
///
/// # Panics
///
/// When a scaled coefficient does not fit in 63 bits (dice and draws far beyond the limits
/// validation allows for choice rules).
pub fn evaluate(game: &Game, policy: &Policy, whole: bool) -> Evaluation {
    let solve = states_to_solve(game, policy, whole);
    if let Some(s) = trapped(game, policy, &solve) {
        return Evaluation::Never(game.squares[s]);
    }
    let ids: Vec<usize> = (0..solve.len()).filter(|&s| solve[s]).collect();
    let mut local = vec![usize::MAX; solve.len()];
    for (i, &s) in ids.iter().enumerate() {
        local[s] = i;
    }
    let fit = |v: u128| i64::try_from(v).expect("coefficients fit in 63 bits");
    let mut a = Vec::with_capacity(ids.len());
    let mut b = Vec::with_capacity(ids.len());
    for &s in &ids {
        let sits = &game.situations[s];
        let l = sits.iter().fold(1u64, |l, &(_, k)| {
            lcm(l, game.nodes[k].actions[policy[k]].total)
        });
        let scale = u128::from(game.totals[s]) * u128::from(l);
        let mut row = vec![(local[s], fit(scale))];
        for &(w, k) in sits {
            let action = &game.nodes[k].actions[policy[k]];
            let f = u128::from(w) * u128::from(l / action.total);
            for &(t, u) in &action.next {
                if let Some(t) = t {
                    row.push((local[t], -fit(f * u128::from(u))));
                }
            }
        }
        a.push(row);
        b.push(fit(scale));
    }
    let x = solve::solve(System::integer(&a, &[b]), &[Wanted::All])
        .expect("every solved state reaches the finish, so the system is nonsingular")
        .pop()
        .expect("one solution");
    let mut values = vec![None; solve.len()];
    for (v, &s) in x.into_iter().zip(&ids) {
        values[s] = Some(v);
    }
    Evaluation::Finite(values)
}

/// The values over their least common denominator: (numerators, denominator).
pub(super) fn common_denominator(values: &[BigRational]) -> (Vec<BigInt>, BigInt) {
    use num_integer::Integer;
    let d = values.iter().fold(BigInt::from(1), |d, v| d.lcm(v.denom()));
    let numers = values
        .iter()
        .map(|v| v.numer() * (&d / v.denom()))
        .collect();
    (numers, d)
}
