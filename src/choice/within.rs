//! The best chance of finishing within n turns (`optimize --within N`), by backward induction
//! over the turns left, exactly.
//!
//! # Formula
//!
//! With P_j(s) the best chance of finishing within j turns from s: `P_0(s) = 0` off the finish,
//! `P_j(finish) = 1`, and
//!
//! ```text
//! P_j(s) = sum_k (w_k / W_s) max_a sum_s' P_a(s') P_{j-1}(s').
//! ```
//!
//! With D the lcm over states of `W_s L_s` (L_s the lcm of the totals of the actions in s's
//! situations), `D^j P_j(s)` is an integer, so the induction runs in integers. The best choice
//! depends on the turns left; the policy reported is the one for the first turn, with all n left.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::{Game, Policy};
use crate::board::dice::lcm;

/// The best chance of finishing within n turns.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Within {
    /// The best chance from every state (by state index), with n turns left.
    pub chances: Vec<BigRational>,
    /// The best action at every node with n turns left (ties: the first action).
    pub first_turn: Policy,
}

/// The best chance of finishing within `turns` turns from every state.
pub fn within(game: &Game, turns: u32) -> Within {
    let m = game.squares.len();
    let node_l: Vec<u64> = game
        .nodes
        .iter()
        .map(|n| n.actions.iter().fold(1u64, |l, a| lcm(l, a.total)))
        .collect();
    let state_l: Vec<u64> = (0..m)
        .map(|s| {
            let l = game.situations[s]
                .iter()
                .fold(1u64, |l, &(_, k)| lcm(l, node_l[k]));
            l * game.totals[s]
        })
        .collect();
    let d = state_l.iter().fold(1u64, |l, &x| lcm(l, x));
    let d_big = BigInt::from(d);
    // numer[s] = D^j P_j(s); the finish holds D^j.
    let mut numer = vec![BigInt::zero(); m];
    let mut finish = BigInt::one();
    let mut first_turn = vec![0; game.nodes.len()];
    // Each turn costs more than the last (the numerators grow by D's bits a turn): on 10,000
    // squares, 3,000 turns ran past a minute with nothing shown.
    let stage =
        crate::progress::Stage::begin("the best chance turn by turn", Some(u64::from(turns)));
    for j in 1..=turns {
        stage.advance(u64::from(j - 1));
        // Node values: max over actions of sum u (L_k / U) numer, over D^(j-1) L_k.
        let best: Vec<(BigInt, usize)> = game
            .nodes
            .iter()
            .zip(&node_l)
            .map(|(node, &l)| {
                node.actions
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let f = l / a.total;
                        let v = a
                            .next
                            .iter()
                            .map(|&(t, u)| t.map_or(&finish, |t| &numer[t]) * BigInt::from(u * f))
                            .fold(BigInt::zero(), |acc, x| acc + x);
                        (v, i)
                    })
                    .fold(None, |acc: Option<(BigInt, usize)>, (v, i)| match acc {
                        Some((b, bi)) if b >= v => Some((b, bi)),
                        _ => Some((v, i)),
                    })
                    .expect("an action")
            })
            .collect();
        numer = (0..m)
            .map(|s| {
                let sl = state_l[s] / game.totals[s];
                game.situations[s]
                    .iter()
                    .map(|&(w, k)| {
                        let f =
                            u128::from(w) * u128::from(sl / node_l[k]) * u128::from(d / state_l[s]);
                        &best[k].0 * BigInt::from(f)
                    })
                    .fold(BigInt::zero(), |acc, x| acc + x)
            })
            .collect();
        finish *= &d_big;
        if j == turns {
            first_turn = best.into_iter().map(|(_, i)| i).collect();
        }
    }
    let chances = numer
        .into_iter()
        .map(|x| BigRational::new(x, finish.clone()))
        .collect();
    Within {
        chances,
        first_turn,
    }
}
