//! The probability of the shortest game, P(T = s) with s the fewest turns, from the states on
//! shortest games only.
//!
//! # Why only those states
//!
//! A game that ends after exactly s turns stands, after d turns, on a state v that it reached in
//! d turns and from which it finishes in s - d: so dist(start, v) <= d and dist(v, finish) <= s - d,
//! and since no game is shorter than s, dist(start, v) + dist(v, finish) >= s. Both are therefore
//! equalities: v lies on a shortest game, in layer d = dist(start, v). P(T = s) is the mass the
//! law of the game carries along these layers, each turn only from layer d to layer d + 1.
//!
//! # Method
//!
//! Two breadth-first searches (from the start, and backwards from the final states) mark the
//! layers; the mass is then stepped in integers over the common denominator D of the layers'
//! transitions (`v_d = D^d p_d`, no gcd inside the loop; the common factor of the layer and the
//! scale is divided out every few turns). The whole stepping of the law
//! ([`crate::exact::step`]) moves every state every turn: on an empty 100,000-square board that
//! is 100,000 states times 16,667 turns of numbers growing to 43,000 bits; here it is the few
//! states of each layer.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::VecDeque;

use crate::chain::{Chain, ChainState};

/// Turns between two divisions of the layer by the common factor of its counts and the scale.
const REDUCE_EVERY: usize = 32;

/// P(T = `turns`) on `chain`, where `turns` is the fewest turns from the start to a final state
/// (as found by a breadth-first search). The exact probability that the game ends at exactly
/// that turn.
pub fn shortest_probability<S: ChainState>(chain: &Chain<S>, turns: usize) -> BigRational {
    let n = chain.states().len();
    let t = chain.transient_count();
    let from_start = forward_distances(chain);
    let to_finish = backward_distances(chain);
    let layer_of = |v: usize| -> Option<usize> {
        let (a, b) = (from_start[v]?, to_finish[v]?);
        (a + b == turns).then_some(a)
    };
    // The common denominator of the transitions between consecutive layers.
    let mut d = BigInt::one();
    for u in (0..t).filter(|&u| layer_of(u).is_some()) {
        for (j, p) in chain.row(u) {
            if layer_of(*j) == layer_of(u).map(|l| l + 1) {
                d = d.lcm(p.denom());
            }
        }
    }
    let mut layer: Vec<(usize, BigInt)> = vec![(chain.start(), BigInt::one())];
    let mut scale = BigInt::one();
    let mut next: Vec<BigInt> = vec![BigInt::zero(); n];
    for turn in 0..turns {
        let mut touched = Vec::new();
        for (u, count) in &layer {
            for (j, p) in chain.row(*u) {
                if layer_of(*j) != Some(turn + 1) {
                    continue;
                }
                if next[*j].is_zero() {
                    touched.push(*j);
                }
                let coefficient = p.numer() * (&d / p.denom());
                next[*j] += count * coefficient;
            }
        }
        layer = touched
            .into_iter()
            .map(|j| (j, std::mem::take(&mut next[j])))
            .collect();
        scale *= &d;
        if (turn + 1) % REDUCE_EVERY == 0 {
            let g = layer.iter().fold(scale.clone(), |g, (_, c)| g.gcd(c));
            if !g.is_one() && !g.is_zero() {
                scale /= &g;
                for (_, c) in &mut layer {
                    *c /= &g;
                }
            }
        }
    }
    let ended: BigInt = layer.iter().filter(|(v, _)| *v >= t).map(|(_, c)| c).sum();
    BigRational::new(ended, scale)
}

/// Turns from the start to each state (`None`: not reachable).
fn forward_distances<S: ChainState>(chain: &Chain<S>) -> Vec<Option<usize>> {
    let t = chain.transient_count();
    let mut dist = vec![None; chain.states().len()];
    dist[chain.start()] = Some(0);
    let mut queue = VecDeque::from([chain.start()]);
    while let Some(u) = queue.pop_front() {
        if u >= t {
            continue;
        }
        let next = dist[u].map(|x| x + 1);
        for (j, _) in chain.row(u) {
            if dist[*j].is_none() {
                dist[*j] = next;
                queue.push_back(*j);
            }
        }
    }
    dist
}

/// Turns from each state to the nearest final state (`None`: the finish cannot be reached).
fn backward_distances<S: ChainState>(chain: &Chain<S>) -> Vec<Option<usize>> {
    let n = chain.states().len();
    let t = chain.transient_count();
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, row) in chain.rows().iter().enumerate() {
        for (j, _) in row {
            into[*j].push(i);
        }
    }
    let mut dist = vec![None; n];
    let mut queue = VecDeque::new();
    for (f, d) in dist.iter_mut().enumerate().skip(t) {
        *d = Some(0);
        queue.push_back(f);
    }
    while let Some(v) = queue.pop_front() {
        let next = dist[v].map(|x: usize| x + 1);
        for &i in &into[v] {
            if dist[i].is_none() {
                dist[i] = next;
                queue.push_back(i);
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{builtin, Board};
    use crate::exact::step::IntegerChain;
    use crate::test_util::board;
    use num_traits::Pow;

    /// P(T = turns) by the whole stepping of the law: the second method.
    fn by_stepping(chain: &Chain<crate::board::Square>, turns: usize) -> BigRational {
        let ic = IntegerChain::new(chain);
        let mut s = ic.stepper();
        for _ in 0..turns {
            s.step();
        }
        if turns == 0 {
            BigRational::one()
        } else {
            s.p_ends_now()
        }
    }

    fn fewest(chain: &Chain<crate::board::Square>) -> usize {
        forward_distances(chain)[chain.transient_count()..]
            .iter()
            .flatten()
            .copied()
            .min()
            .expect("the finish is reachable")
    }

    #[test]
    fn an_empty_board_by_counting_the_rolls() {
        // Empty 1,000-square board, d6, start 0, overshoot stay: the fewest turns are
        // ceil(1000 / 6) = 167 (166 turns reach at most 996). 167 sixes make 1,002, two too
        // many, and no roll of a 167-turn game may be wasted, so the games are the 167 rolls
        // summing to exactly 1,000: "two pips short" spread over 167 dice, C(167 + 1, 2) =
        // 168 * 167 / 2 = 14,028 ways. P(T = 167) = 14,028 / 6^167.
        let b: Board = board("size = 1000");
        let chain = Chain::for_board(&b);
        assert_eq!(fewest(&chain), 167);
        let six: BigInt = 6.into();
        let expected = BigRational::new(14_028.into(), six.pow(167u32));
        assert_eq!(shortest_probability(&chain, 167), expected);
    }

    #[test]
    fn agrees_with_the_whole_stepping_of_the_law() {
        let boards = [
            builtin("milton-bradley").unwrap(),
            builtin("efi").unwrap(),
            builtin("tiny").unwrap(),
            board("size = 30\nsnakes = [[29, 3], [17, 4]]\nladders = [[2, 20]]\n[rules]\novershoot = \"bounce\"\nroll_again = 3"),
            board("size = 40\nsnakes = [[39, 1]]\n[rules]\nroll_again = \"unlimited\"\ndie = 4"),
            board("size = 2\n[rules]\nstart = 1\ndie = 2"),
        ];
        for b in &boards {
            let chain = Chain::for_board(b);
            let s = fewest(&chain);
            assert_eq!(shortest_probability(&chain, s), by_stepping(&chain, s));
        }
    }
}
