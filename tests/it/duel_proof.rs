//! The two-player deviation proof (issue 14, `choice::duel_proof`): on small boards, every
//! deterministic strategy of the deviating player (a best response is among them) is evaluated
//! exactly against the other's fixed strategy by a separate joint-chain solve, and the best and
//! the worst of them must lie in the proof's interval. With a strategy that is not optimal the
//! bound is far from trivial: the gains are real and the turns bound carries them.

// The elimination and the policy iteration index by row and column, as the maths is written.
#![allow(clippy::needless_range_loop)]

use ladders::board::Board;
use ladders::choice::{value_iteration, Game};
use ladders::internals::prove;
use ladders::internals::{certify, evaluate_float, from_policy, greedy, solve_float, Strategy};
use num_rational::BigRational;
use num_traits::{One, Zero};

/// Solves `a x = b` exactly (Gauss-Jordan; the system is nonsingular here).
fn solve(mut a: Vec<Vec<BigRational>>, mut b: Vec<BigRational>) -> Vec<BigRational> {
    let n = b.len();
    for col in 0..n {
        let p = (col..n)
            .find(|&r| !a[r][col].is_zero())
            .expect("nonsingular");
        a.swap(col, p);
        b.swap(col, p);
        let inv = BigRational::one() / &a[col][col];
        for j in col..n {
            a[col][j] = &a[col][j] * &inv;
        }
        b[col] = &b[col] * &inv;
        for r in 0..n {
            if r != col && !a[r][col].is_zero() {
                let f = a[r][col].clone();
                for j in col..n {
                    let t = &f * &a[col][j];
                    a[r][j] -= t;
                }
                let t = &f * &b[col];
                b[r] -= t;
            }
        }
    }
    b
}

/// The chance that the first player (strategy `first`) wins against the second (strategy
/// `second`) from every joint state (whose turn, first's state, second's state), at
/// `(turn * m + x) * m + y`: the joint chain, solved exactly.
fn chances(game: &Game, first: &Strategy, second: &Strategy) -> Vec<BigRational> {
    let m = game.squares.len();
    let id = |turn: usize, x: usize, y: usize| (turn * m + x) * m + y;
    let n = 2 * m * m;
    let mut a = vec![vec![BigRational::zero(); n]; n];
    let mut b = vec![BigRational::zero(); n];
    for turn in 0..2 {
        for x in 0..m {
            for y in 0..m {
                let i = id(turn, x, y);
                a[i][i] = BigRational::one();
                let (me, other, strategy) = if turn == 0 {
                    (x, y, first)
                } else {
                    (y, x, second)
                };
                for &(w, k) in &game.situations[me] {
                    let act = &game.nodes[k].actions[strategy[k][other]];
                    for &(t, u) in &act.next {
                        let p =
                            BigRational::new((w * u).into(), (game.totals[me] * act.total).into());
                        match (t, turn) {
                            (None, 0) => b[i] += p,
                            (None, _) => {}
                            (Some(t), 0) => a[i][id(1, t, y)] -= p,
                            (Some(t), _) => a[i][id(0, x, t)] -= p,
                        }
                    }
                }
            }
        }
    }
    solve(a, b)
}

/// The deviator's best response to `sigma` by policy iteration with exact evaluations (the
/// deviator's problem is a decision process; the other's `sigma` ends the game surely, so every
/// evaluation is a nonsingular system): the first player's greatest chance when `first_deviates`,
/// else the least chance the second can hold it to.
fn best_response(game: &Game, sigma: &Strategy, first_deviates: bool) -> BigRational {
    let (m, s) = (game.squares.len(), game.start.unwrap());
    let mut tau = sigma.clone();
    loop {
        let (first, second) = if first_deviates {
            (&tau, sigma)
        } else {
            (sigma, &tau)
        };
        let v = chances(game, first, second);
        let value = |x: usize, y: usize, turn: usize| v[(turn * m + x) * m + y].clone();
        // Q of action a at node k, the deviator on its state, the other on `other`.
        let q = |k: usize, a: usize, other: usize| -> BigRational {
            let act = &game.nodes[k].actions[a];
            let total = BigRational::from_integer(act.total.into());
            act.next
                .iter()
                .map(|&(t, u)| {
                    let u = BigRational::from_integer(u.into());
                    match (t, first_deviates) {
                        (None, true) => u,
                        (None, false) => BigRational::zero(),
                        (Some(t), true) => u * value(t, other, 1),
                        (Some(t), false) => u * value(other, t, 0),
                    }
                })
                .sum::<BigRational>()
                / total
        };
        let mut improved = false;
        for k in 0..game.nodes.len() {
            for other in 0..m {
                let current = q(k, tau[k][other], other);
                for a in 0..game.nodes[k].actions.len() {
                    let qa = q(k, a, other);
                    if (first_deviates && qa > current) || (!first_deviates && qa < current) {
                        tau[k][other] = a;
                        improved = true;
                        break;
                    }
                }
            }
        }
        if !improved {
            return value(s, s, 0);
        }
    }
}

/// For the strategy `sigma` of both players: checks that every deviation of either player stays
/// in the proof's interval; returns the proof's single-turn gain.
fn deviations_stay_in_the_proved_interval(game: &Game, sigma: &Strategy) -> Outcome {
    let s = game.start.unwrap();
    let w = evaluate_float(game, sigma, 100_000);
    let c = certify(game, sigma, &w).unwrap();
    let proof = prove(game, sigma, &c, (s, s)).expect("a turns bound");
    let best = best_response(game, sigma, true);
    let worst = best_response(game, sigma, false);
    assert!(
        proof.value.contains(&best),
        "best response {best} outside {:?}",
        proof.value
    );
    assert!(
        proof.value.contains(&worst),
        "worst response {worst} outside {:?}",
        proof.value
    );
    // The pair's own value, by the separate solve, is in its certified interval.
    let m = game.squares.len();
    let own = chances(game, sigma, sigma).swap_remove(s * m + s);
    assert!(c.chance(s, s).contains(&own));
    Outcome {
        width: proof.value.width(),
        gain: proof.turn_gain,
        own,
        best,
        worst,
    }
}

/// What [`deviations_stay_in_the_proved_interval`] found.
struct Outcome {
    width: BigRational,
    gain: BigRational,
    own: BigRational,
    best: BigRational,
    worst: BigRational,
}

/// A five-square board with the coin (2 actions at each landing square) and a snake.
fn coin_board() -> Board {
    Board::from_toml_str(
        "size = 5\nsnakes = [[3, 1]]\n[rules]\ndie = 2\ncoin = true\novershoot = \"stay\"\n",
        "t",
    )
    .unwrap()
}

#[test]
fn a_bad_fixed_strategy_gains_are_real_and_inside_the_proved_bound() {
    let game = Game::new(&coin_board()).unwrap();
    for (name, policy) in game.fixed_policies() {
        let sigma = from_policy(&game, &policy);
        let o = deviations_stay_in_the_proved_interval(&game, &sigma);
        assert!(
            o.gain > BigRational::zero(),
            "{name}: the single-turn bound must see the gain"
        );
        assert!(
            o.best > o.own || o.worst < o.own,
            "{name}: some deviation must really gain"
        );
    }
}

#[test]
fn the_optimal_pair_is_the_value_of_the_game() {
    let game = Game::new(&coin_board()).unwrap();
    let w = solve_float(&game, 100_000);
    let sigma = greedy(&game, &w, &value_iteration(&game, 100_000));
    let o = deviations_stay_in_the_proved_interval(&game, &sigma);
    // The optimum: no deviation of either player changes the chance at all.
    assert_eq!((&o.best, &o.worst), (&o.own, &o.own));
}

#[test]
fn exact_ties_give_a_positive_gain_and_still_a_proof() {
    // pick 2 with a ladder 1 -> 2: from 0, the faces 1 and 2 both end on 2, an exact tie.
    let b = Board::from_toml_str(
        "size = 4\nladders = [[1, 2]]\n[rules]\ndie = 3\npick = 2\novershoot = \"stay\"\n",
        "t",
    )
    .unwrap();
    let game = Game::new(&b).unwrap();
    let w = solve_float(&game, 100_000);
    let sigma = greedy(&game, &w, &value_iteration(&game, 100_000));
    let o = deviations_stay_in_the_proved_interval(&game, &sigma);
    assert_eq!((&o.best, &o.worst), (&o.own, &o.own));
    assert!(
        o.gain > BigRational::zero(),
        "a tie within the certified radius must count"
    );
}

#[test]
fn every_single_mistake_in_the_optimum_stays_inside_its_proved_interval() {
    // The optimal pair with one decision (node, other's state) changed: the gains are small, so
    // most intervals are narrow and the containment is a real check.
    let game = Game::new(&coin_board()).unwrap();
    let w = solve_float(&game, 100_000);
    let optimal = greedy(&game, &w, &value_iteration(&game, 100_000));
    let mut narrow = 0;
    for (k, node) in game.nodes.iter().enumerate() {
        for y in (0..game.squares.len()).filter(|_| node.actions.len() == 2) {
            let mut sigma = optimal.clone();
            sigma[k][y] = 1 - sigma[k][y];
            let o = deviations_stay_in_the_proved_interval(&game, &sigma);
            assert!(
                o.gain > BigRational::zero(),
                "({k}, {y}): a mistake the bound does not see"
            );
            narrow += usize::from(o.width < BigRational::new(1.into(), 2.into()));
        }
    }
    assert!(narrow >= 1, "no interval narrow enough to test anything");
}
