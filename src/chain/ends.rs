//! How a chain's games end, read from its rows: the states from which no game ends and the
//! cycles that hold them ([`Chain::trap`]), and the largest chance of finishing within one turn
//! ([`Chain::one_turn_finish_bound`]).

use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;
use std::hash::Hash;

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::{Chain, Trap};

impl<S: Clone + Eq + Hash + Ord + Debug> Chain<S> {
    /// The largest chance, over the transient states, of finishing within one turn (1 with no
    /// transient state).
    pub fn one_turn_finish_bound(&self) -> BigRational {
        let n = self.transient;
        // Each row's chance as the fraction itself when one final state has it (a sum from 0
        // would pay a gcd per row), and a comparison only against a different fraction.
        let mut best: Option<BigRational> = None;
        for i in 0..n {
            let mut ends = self.row(i).iter().filter(|(j, _)| *j >= n).map(|(_, p)| p);
            let Some(first) = ends.next() else {
                best.get_or_insert_with(BigRational::zero);
                continue;
            };
            let sum = ends.fold(first.clone(), |acc, p| acc + p);
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
        let ends = can_finish(n, self.transient, |i, f| self.rows.columns(i).for_each(f));
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
                self.rows.columns(i).for_each(|j| {
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

/// For each of `n` states (the first `transient` of them transient, the rest final), whether
/// a final state can be reached from it: breadth first backwards from the final states, where
/// `successors(i, f)` calls `f` on each state transient state i's turn leads to.
pub(super) fn can_finish(
    n: usize,
    transient: usize,
    successors: impl Fn(usize, &mut dyn FnMut(usize)),
) -> Vec<bool> {
    // The predecessors of state j are preds[first[j]..first[j + 1]] (compressed columns).
    let mut first = vec![0usize; n + 1];
    (0..transient).for_each(|i| successors(i, &mut |j| first[j + 1] += 1));
    (0..n).for_each(|j| first[j + 1] += first[j]);
    let mut fill = first[..n].to_vec();
    let mut preds = vec![0usize; first[n]];
    for i in 0..transient {
        successors(i, &mut |j| {
            preds[fill[j]] = i;
            fill[j] += 1;
        });
    }
    let mut ends = vec![false; n];
    let mut queue: VecDeque<usize> = (transient..n).collect();
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
    ends
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand, the tiny board (die 2): from 3 a 1 finishes on 4 (1/2); from 0 no roll
    /// finishes. The bound is 1/2.
    #[test]
    fn the_tiny_boards_finish_bound_is_a_half() {
        let tiny = Chain::for_board(&crate::board::builtin("tiny").unwrap());
        assert_eq!(
            tiny.one_turn_finish_bound(),
            BigRational::new(1.into(), 2.into())
        );
    }
}
