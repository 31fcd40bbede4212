//! How a chain's games end, read from its rows: the states from which no game ends and the
//! cycles that hold them ([`Chain::trap`]), and the largest chance of finishing within one turn
//! ([`Chain::one_turn_finish_bound`]). Both read the rows as words when the chain keeps them so
//! (`super::rows`), without making a big rational per entry.

use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;
use std::hash::Hash;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::{Chain, Trap, WordRows};

impl<S: Clone + Eq + Hash + Ord + Debug> Chain<S> {
    /// The largest chance, over the transient states, of finishing within one turn (1 with no
    /// transient state).
    pub fn one_turn_finish_bound(&self) -> BigRational {
        self.rows
            .words()
            .and_then(|rows| finish_bound_in_words(&rows, self.transient))
            .unwrap_or_else(|| self.finish_bound_big())
    }

    /// [`Chain::one_turn_finish_bound`] in big rationals, from any rows.
    fn finish_bound_big(&self) -> BigRational {
        let n = self.transient;
        // Each row's chance as the fraction itself when one final state has it (a sum from 0
        // would pay a gcd per row), and a comparison only against a different fraction.
        let mut best: Option<BigRational> = None;
        for i in 0..n {
            let mut ends = self.row_entries(i).filter(|(j, _)| *j >= n).map(|(_, p)| p);
            let Some(first) = ends.next() else {
                best.get_or_insert_with(BigRational::zero);
                continue;
            };
            let sum = ends.fold(first.into_owned(), |acc, p| acc + &*p);
            if best.as_ref().is_none_or(|b| *b < sum) {
                best = Some(sum);
            }
        }
        best.unwrap_or_else(BigRational::one)
    }

    /// True when a final state can be reached from every reachable state (so the game ends with
    /// probability 1 and every expectation is finite).
    pub fn always_ends(&self) -> bool {
        self.trap().is_none()
    }

    /// A state whose turn can go on for ever ([`super::Turn::endless`]), the first in the
    /// chain's order; every state of the chain is reachable.
    pub fn endless_state(&self) -> Option<&S> {
        self.rows
            .endless()
            .iter()
            .position(|&e| e)
            .map(|i| &self.states[i])
    }

    /// Whether the turn of transient state `i` can go on for ever ([`super::Turn::endless`]).
    pub fn turn_is_endless(&self, i: usize) -> bool {
        self.rows.endless()[i]
    }

    /// A reachable state from which the game cannot end, with the cycle that holds it, if any;
    /// or a reachable state whose turn can go on for ever (its cycle is the state itself).
    pub fn trap(&self) -> Option<Trap<S>> {
        let n = self.states.len();
        // The predecessors of state j are preds[first[j]..first[j + 1]] (compressed columns).
        let mut first = vec![0usize; n + 1];
        let rows = self.rows.len();
        (0..rows).for_each(|i| self.rows.for_each_column(i, |j| first[j + 1] += 1));
        (0..n).for_each(|j| first[j + 1] += first[j]);
        let mut fill = first[..n].to_vec();
        let mut preds = vec![0usize; first[n]];
        for i in 0..rows {
            self.rows.for_each_column(i, |j| {
                preds[fill[j]] = i;
                fill[j] += 1;
            });
        }
        let mut ends = vec![false; n];
        let mut queue: VecDeque<usize> = (self.transient..n).collect();
        for &i in &queue {
            ends[i] = true;
        }
        while let Some(j) = queue.pop_front() {
            for &i in &preds[first[j]..first[j + 1]] {
                if !ends[i] {
                    ends[i] = true;
                    queue.push_back(i);
                }
            }
        }
        // The trapped state nearest the start (breadth first), so the message is easy to follow.
        let mut dist = vec![usize::MAX; n];
        dist[self.start] = 0;
        let mut queue = VecDeque::from([self.start]);
        let mut trapped = None;
        while let Some(i) = queue.pop_front() {
            if i < self.transient && self.rows.endless()[i] {
                // A turn that can go on for ever: the cycle is the state itself.
                let s = self.states[i].clone();
                return Some(Trap {
                    state: s.clone(),
                    cycle: vec![s.clone(), s],
                    endless_turn: true,
                });
            }
            if !ends[i] {
                trapped = Some(i);
                break;
            }
            if i < self.transient {
                let d = dist[i] + 1;
                self.rows.for_each_column(i, |j| {
                    if dist[j] == usize::MAX {
                        dist[j] = d;
                        queue.push_back(j);
                    }
                });
            }
        }
        let trapped = trapped?;
        // Every successor of a trapped state is trapped: walk until a state repeats.
        let mut walk = vec![trapped];
        let mut at: HashMap<usize, usize> = HashMap::from([(trapped, 0)]);
        loop {
            let i = *walk.last().expect("non-empty");
            let next = self.rows.columns(i).next().expect("a turn leads somewhere");
            if let Some(&pos) = at.get(&next) {
                let mut cycle: Vec<S> = walk[pos..]
                    .iter()
                    .map(|&k| self.states[k].clone())
                    .collect();
                cycle.push(self.states[next].clone());
                return Some(Trap {
                    state: self.states[trapped].clone(),
                    cycle,
                    endless_turn: false,
                });
            }
            at.insert(next, walk.len());
            walk.push(next);
        }
    }
}

/// The largest sum, over the rows, of the entries into the final states (columns `n` and on),
/// as a fraction of machine words: each row's sum over the lcm of its denominators, compared
/// across rows by cross products; `None` when a number on the way passes 128 bits (then the
/// big rationals decide). 1 with no row, 0 when no row reaches a final state.
fn finish_bound_in_words(rows: &WordRows<'_>, n: usize) -> Option<BigRational> {
    if rows.is_empty() {
        return Some(BigRational::one());
    }
    // The best so far as (numerator, denominator), not reduced.
    let mut best = (0u128, 1u128);
    for i in 0..rows.len() {
        let (mut num, mut den) = (0u128, 1u128);
        for e in rows.row(i).iter().filter(|e| e.to as usize >= n) {
            let (a, b) = (u128::from(e.num), u128::from(e.den));
            if den % b == 0 {
                num = num.checked_add(a.checked_mul(den / b)?)?;
            } else {
                let l = den.checked_mul(b / gcd(den, b))?;
                num = (num.checked_mul(l / den)?).checked_add(a.checked_mul(l / b)?)?;
                den = l;
            }
        }
        if num.checked_mul(best.1)? > best.0.checked_mul(den)? {
            best = (num, den);
        }
    }
    Some(BigRational::new(BigInt::from(best.0), BigInt::from(best.1)))
}

/// Euclid's gcd.
fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Capabilities;

    /// The bound in words is the bound in big rationals on every built-in board, each under
    /// unlimited roll-again too (the rows are words on all of them), and on hand-worked rows.
    #[test]
    fn the_finish_bound_in_words_is_the_big_one() {
        let mut checked = 0;
        for name in crate::board::builtin_names() {
            let b = crate::board::builtin(name).unwrap();
            let mut boards = vec![b.clone()];
            boards.extend(crate::test_util::unlimited(&b));
            for b in boards.iter().filter(|b| Capabilities::of(b).stateless) {
                let chain = Chain::for_board(b);
                let rows = chain.word_rows().expect("words");
                let words = finish_bound_in_words(&rows, chain.transient_count());
                assert_eq!(words, Some(chain.finish_bound_big()), "{name}");
                assert_eq!(chain.one_turn_finish_bound(), chain.finish_bound_big());
                checked += 1;
            }
        }
        assert!(checked >= 8, "{checked} chains");
        // By hand, the tiny board (die 2): from 3 a 1 finishes on 4 (1/2); from 0 no roll
        // finishes. The bound is 1/2.
        let tiny = Chain::for_board(&crate::board::builtin("tiny").unwrap());
        assert_eq!(
            tiny.one_turn_finish_bound(),
            BigRational::new(1.into(), 2.into())
        );
    }
}
