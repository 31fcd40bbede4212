//! The turn chain of one player under unlimited roll-again held as its links only
//! ([`LinkedChain`]): each state's turn as the rolls that end it and a fresh turn from the one
//! square its top throw leads to ([`Link`]), never as the whole turn's law. Its size grows with
//! the board (a die's faces per square), where the whole turns' rows grow with the runs of top
//! throws (gen-10000-again: about 12 million entries against about 70,000 here); the exact
//! law of T is stepped through it when the whole turns would not fit (`exact/step/links.rs`).
//!
//! # Formula
//!
//! As in [`super::links`]: `T(x) = c / d + (g / d) T(y)` for a state x whose rolls end the
//! turn with numerators c and go on to the one square y with numerator g. The states here are
//! every square a turn begins on and every square a run of top throws passes (where a turn
//! may never begin: its row then carries no mass between turns). A run of top throws that
//! closes a cycle (a bounce back from the finish, a six past it that stays) has one square on
//! the cycle summed as a whole turn ([`super::compound_move`], the closed form over the cycle:
//! a few entries), as does a square whose rolls never go on, so the links never close a cycle.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hash};

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::compound::{compound_move_memo, rolls_at, RollScratch, RollsMemo};
use super::ends::can_finish;
use super::links::LinkWalk;
use super::{link_order, Link, Numbered, TurnModel, WordHasher};
use crate::board::{Board, Square};
use crate::game::{Capabilities, InTurn, RollGame, SingleBoard};

/// One transient state's turn in a [`LinkedChain`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkedTurn {
    /// The rolls that end the turn and a fresh turn from another transient state.
    Link(Link),
    /// The whole turn's law (a square whose rolls never go on, or one on a cycle of top
    /// throws): (state index, probability), sorted by index.
    Whole(Vec<(usize, BigRational)>),
}

/// A single player's turn chain under unlimited roll-again, held as links (see the module
/// documentation). States are numbered as [`super::Chain`] numbers them: the transient ones
/// first, in order, then the final ones.
#[derive(Clone, Debug)]
pub struct LinkedChain<S> {
    numbered: Numbered<S>,
    turns: Vec<LinkedTurn>,
}

impl<S> std::ops::Deref for LinkedChain<S> {
    type Target = Numbered<S>;

    fn deref(&self) -> &Numbered<S> {
        &self.numbered
    }
}

impl<S> LinkedChain<S> {
    /// Each transient state's turn, by index.
    pub fn turns(&self) -> &[LinkedTurn] {
        &self.turns
    }

    /// The entries held: each link's ending rolls and the link itself, each whole turn's
    /// entries.
    pub fn entries(&self) -> usize {
        self.turns
            .iter()
            .map(|t| match t {
                LinkedTurn::Link(l) => l.ends.len() + 1,
                LinkedTurn::Whole(row) => row.len(),
            })
            .sum()
    }
}

impl<S> LinkedChain<S> {
    /// For each transient state, whether a turn can begin there (the start, or a state some
    /// turn ends on); the others are passed by runs of top throws only.
    fn turn_starts(&self) -> Vec<bool> {
        let mut starts = vec![false; self.transient];
        if let Some(s) = starts.get_mut(self.start) {
            *s = true;
        }
        for turn in &self.turns {
            let ends: Vec<usize> = match turn {
                LinkedTurn::Link(l) => l.ends.iter().map(|e| e.0).collect(),
                LinkedTurn::Whole(row) => row.iter().map(|e| e.0).collect(),
            };
            for j in ends.into_iter().filter(|&j| j < self.transient) {
                starts[j] = true;
            }
        }
        starts
    }

    /// True when a final state can be reached from every state (so the game ends with
    /// probability 1).
    pub fn always_ends(&self) -> bool {
        let successors = |i: usize, f: &mut dyn FnMut(usize)| match &self.turns[i] {
            LinkedTurn::Link(l) => {
                f(l.next);
                l.ends.iter().for_each(|e| f(e.0));
            }
            LinkedTurn::Whole(row) => row.iter().for_each(|e| f(e.0)),
        };
        can_finish(self.states.len(), self.transient, successors)
            .into_iter()
            .all(|r| r)
    }

    /// The largest chance, over the states where a turn can begin, of finishing within one
    /// turn, exactly: [`super::Chain::one_turn_finish_bound`] on the whole turns (each turn's
    /// chance summed through its links, `F(x) = c_f / d + (g / d) F(y)`).
    pub fn one_turn_finish_bound(&self) -> BigRational {
        let t = self.transient;
        let links: Vec<_> = self
            .turns
            .iter()
            .map(|turn| match turn {
                LinkedTurn::Link(l) => Some(l),
                LinkedTurn::Whole(_) => None,
            })
            .collect();
        let mut finish = vec![BigRational::zero(); t];
        for (i, turn) in self.turns.iter().enumerate() {
            if let LinkedTurn::Whole(row) = turn {
                finish[i] = row.iter().filter(|e| e.0 >= t).map(|e| &e.1).sum();
            }
        }
        // Each linked state after the one its link leads to.
        let order = link_order(&links).expect("the links close no cycle");
        for &i in order.iter().rev() {
            let l = links[i].expect("a linked state");
            let c: u64 = l.ends.iter().filter(|e| e.0 >= t).map(|e| e.1).sum();
            let then = &finish[l.next] * BigRational::from_integer(l.goes_on.into());
            finish[i] = (then + BigRational::from_integer(c.into()))
                / BigRational::from_integer(l.denom.into());
        }
        let starts = self.turn_starts();
        finish
            .into_iter()
            .zip(starts)
            .filter(|(_, s)| *s)
            .map(|(f, _)| f)
            .max()
            .unwrap_or_else(BigRational::one)
    }
}

impl LinkedChain<Square> {
    /// The links form of `board`'s single-player chain, or `None` when the board's turns are
    /// not one player's under unlimited roll-again on the square alone, or a square's rolls
    /// go on to more than one square (a chance square after a top throw, several dice), or a
    /// number does not fit a word.
    pub fn for_board(board: &Board) -> Option<LinkedChain<Square>> {
        let caps = Capabilities::of(board);
        if !(caps.stateless && caps.rolls_again_unlimited()) {
            return None;
        }
        LinkedChain::build(&SingleBoard::new(board))
    }
}

impl<S: Clone + Eq + Hash + Ord + std::fmt::Debug> LinkedChain<S> {
    /// The links of `game`'s turns, found breadth first from the start, for a game whose rolls
    /// from a state do not depend on where the turn began and count no streak (as
    /// [`RollsMemo`] says); `None` as [`LinkedChain::for_board`] says.
    fn build<G>(game: &G) -> Option<LinkedChain<S>>
    where
        G: RollGame<State = S> + TurnModel<State = S>,
    {
        let memo: RollsMemo<S> = RollsMemo::default();
        let walk = LinkWalk::with_capacity(0);
        let mut scratch = RollScratch::default();
        let start = TurnModel::start(game);
        let mut found: HashMap<S, usize, BuildHasherDefault<WordHasher>> = HashMap::default();
        found.insert(start.clone(), 0);
        let mut order = vec![start];
        let mut pending: Vec<Option<Pending>> = Vec::new();
        let mut queue = VecDeque::from([0usize]);
        let mut index = |s: &S, order: &mut Vec<S>, queue: &mut VecDeque<usize>| match found.get(s)
        {
            Some(&j) => j,
            None => {
                found.insert(s.clone(), order.len());
                order.push(s.clone());
                queue.push_back(order.len() - 1);
                order.len() - 1
            }
        };
        // The squares on a cycle of top throws that the walk left without a link.
        let mut cycle_breaks = Vec::new();
        while let Some(i) = queue.pop_front() {
            pending.push(None);
            let state = order[i].clone();
            if TurnModel::is_final(game, &state) {
                continue;
            }
            if game.skip(&state).is_some() {
                return None;
            }
            walk.walk(game, &state, &memo);
            let first = InTurn {
                at: state.clone(),
                streak: 0,
            };
            let r = rolls_at(game, &state, first, Some(&memo), &mut scratch);
            let mut ends = Vec::with_capacity(r.ends.len());
            for (s, c) in &r.ends {
                ends.push((index(s, &mut order, &mut queue), u64::try_from(*c).ok()?));
            }
            let denom = u64::try_from(r.denom).ok()?;
            pending[i] = Some(match r.goes_on.as_slice() {
                [] => Pending::Ends { ends, denom },
                [(next, g)] => {
                    let next = index(&next.at, &mut order, &mut queue);
                    if !walk.records().contains_key(&state) {
                        cycle_breaks.push(i);
                        continue;
                    }
                    Pending::Link(Link {
                        next,
                        goes_on: u64::try_from(*g).ok()?,
                        ends,
                        denom,
                    })
                }
                _ => return None,
            });
        }
        // One square of each cycle of links summed whole, with the states its turn ends on.
        for i in cycle_breaks {
            let turn = compound_move_memo(game, &order[i], &memo);
            if turn.endless {
                return None;
            }
            let row = turn
                .next
                .into_iter()
                .map(|(s, p)| (index(&s, &mut order, &mut queue), p))
                .collect();
            pending[i] = Some(Pending::Whole(row));
        }
        // A state first found on a cycle's whole turn ends every turn it begins with the
        // rolls summed so far: the links form stays closed only when it found none.
        if !queue.is_empty() {
            return None;
        }
        pending.resize_with(order.len(), || None);
        Some(LinkedChain::numbered(game, order, pending))
    }

    /// The chain with the transient states first, each group in the states' order.
    fn numbered<G: TurnModel<State = S>>(
        game: &G,
        order: Vec<S>,
        mut pending: Vec<Option<Pending>>,
    ) -> LinkedChain<S> {
        let (numbered, ids, new_id) = Numbered::of(&order, |s| game.is_final(s));
        let renumber = |ends: Vec<(usize, u64)>| {
            let mut ends: Vec<(usize, u64)> =
                ends.into_iter().map(|(j, c)| (new_id[j], c)).collect();
            merge_sorted(&mut ends, |a, b| *a += b);
            ends
        };
        let turns = ids[..numbered.transient]
            .iter()
            .map(
                |&old| match pending[old].take().expect("transient states have a turn") {
                    Pending::Link(l) => LinkedTurn::Link(Link {
                        next: new_id[l.next],
                        goes_on: l.goes_on,
                        ends: renumber(l.ends),
                        denom: l.denom,
                    }),
                    Pending::Ends { ends, denom } => {
                        let row = renumber(ends)
                            .into_iter()
                            .map(|(j, c)| (j, BigRational::new(c.into(), denom.into())))
                            .collect();
                        LinkedTurn::Whole(row)
                    }
                    Pending::Whole(row) => {
                        let mut row: Vec<(usize, BigRational)> =
                            row.into_iter().map(|(j, p)| (new_id[j], p)).collect();
                        merge_sorted(&mut row, |a, b| *a += b);
                        LinkedTurn::Whole(row)
                    }
                },
            )
            .collect();
        LinkedChain { numbered, turns }
    }
}

/// A transient state's turn as the walk finds it (states numbered in the order found).
enum Pending {
    Link(Link),
    /// Rolls that all end the turn: numerators over `denom`.
    Ends {
        ends: Vec<(usize, u64)>,
        denom: u64,
    },
    Whole(Vec<(usize, BigRational)>),
}

/// Sorts `entries` by index and merges the entries of one index with `add`.
fn merge_sorted<T>(entries: &mut Vec<(usize, T)>, add: impl Fn(&mut T, T)) {
    entries.sort_unstable_by_key(|e| e.0);
    let mut merged: Vec<(usize, T)> = Vec::with_capacity(entries.len());
    for (j, x) in entries.drain(..) {
        match merged.last_mut() {
            Some((k, y)) if *k == j => add(y, x),
            _ => merged.push((j, x)),
        }
    }
    *entries = merged;
}

#[cfg(test)]
mod tests;
