//! Each turn under unlimited roll-again as the rolls that end it and a fresh turn from the one
//! square its top throw leads to: the factors of the turn matrix that the certified stepping
//! (`crate::exact::certified`) steps through instead of the whole turns.
//!
//! # Formula
//!
//! Under unlimited roll-again a turn is memoryless (after a top throw the rest of the turn is
//! a fresh turn from where it landed, see [`super::compound`]): when the rolls from
//! square x over their common denominator d end the turn on states with numerators c and go
//! on to one square y with numerator g, the turn from x is `T(x) = c / d + (g / d) T(y)`. When
//! y is itself a transient state of the chain, that is an identity between rows of the turn
//! matrix: `T = E + W T` with E the rolls that end (at most a die's faces per row) and W one
//! entry per linked row. So `v T = y E` with `y = v + y W`, and since the links never close a
//! cycle ([`LinkWalk`] leaves one square of each cycle without one), y is summed
//! state by state in an order that puts every state before the one its link leads to. On efi
//! (82 transient states) the whole turns have 2,530 entries; the links and the ending rolls
//! about a fifth of that.
//!
//! A link is kept only when its square's turn in the chain is the rest of a turn from it (no
//! lost turn there) and every number is a word; a state without one keeps its whole turn.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash};
use std::rc::Rc;

use super::compound::{rolls_at, RollScratch, RollsFrom, RollsMemo};
use super::WordHasher;
use crate::game::{InTurn, RollGame};

/// A transient state's turn as the rolls that end it and a fresh turn from another transient
/// state: `T(i) = sum ends / denom + (goes_on / denom) T(next)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The transient state the top throw leads to, whose turn is the rest of this one.
    pub next: usize,
    /// The numerator of going on to `next`.
    pub goes_on: u64,
    /// Where the rolls that end the turn leave the token (state indices, sorted, each once),
    /// with their numerators.
    pub ends: Vec<(usize, u64)>,
    /// The rolls' common denominator.
    pub denom: u64,
}

/// The rolls of each square that links to the next square's turn, by square, as
/// [`LinkWalk`] records them before the chain numbers its states.
pub(super) type LinkRecords<S> = HashMap<S, Rc<RollsFrom<S>>, BuildHasherDefault<WordHasher>>;

/// Where a square stands in [`LinkWalk::walk`]: on the run being walked, or walked.
enum Mark {
    Walking,
    Done,
}

/// Finds which squares' turns link to the next square's, run of top throws by run, for one
/// player under unlimited roll-again: each square whose rolls go on to one square gets a
/// record, but for one square on each cycle of top throws (the last one walked before the run
/// came back), so the links never close a cycle.
pub(super) struct LinkWalk<S> {
    marks: RefCell<HashMap<S, Mark, BuildHasherDefault<WordHasher>>>,
    records: RefCell<LinkRecords<S>>,
    scratch: RefCell<RollScratch<S>>,
}

impl<S: Clone + Eq + Hash> LinkWalk<S> {
    /// No square walked yet, with room for `squares` of them.
    pub(super) fn with_capacity(squares: usize) -> LinkWalk<S> {
        LinkWalk {
            marks: RefCell::new(HashMap::with_capacity_and_hasher(
                squares,
                Default::default(),
            )),
            records: RefCell::new(HashMap::with_capacity_and_hasher(
                squares,
                Default::default(),
            )),
            scratch: RefCell::new(RollScratch::default()),
        }
    }

    /// Walks the run of top throws from `state` (with the in-turn rolls in `rolls`, a game as
    /// [`RollsMemo`] says) until a square already walked, a square whose rolls all end the
    /// turn or go on to several squares, or a cycle, and records the squares walked.
    pub(super) fn walk<G: RollGame<State = S>>(&self, game: &G, state: &S, rolls: &RollsMemo<S>) {
        let mut marks = self.marks.borrow_mut();
        let mut scratch = self.scratch.borrow_mut();
        let mut walk = Vec::new();
        let mut at = state.clone();
        loop {
            match marks.get(&at) {
                Some(Mark::Done) => break,
                Some(Mark::Walking) => {
                    // The run closes a cycle: its last square keeps its whole turn.
                    let (x, _) = walk.pop().expect("a square on the run was walked");
                    marks.insert(x, Mark::Done);
                    break;
                }
                None => {}
            }
            let first = InTurn {
                at: at.clone(),
                streak: 0,
            };
            let r = rolls_at(game, &at, first, Some(rolls), &mut scratch);
            match r.goes_on.as_slice() {
                [(next, _)] => {
                    let next = next.at.clone();
                    marks.insert(at.clone(), Mark::Walking);
                    walk.push((at, r));
                    at = next;
                }
                _ => {
                    marks.insert(at, Mark::Done);
                    break;
                }
            }
        }
        let mut records = self.records.borrow_mut();
        for (x, r) in walk {
            marks.insert(x.clone(), Mark::Done);
            records.insert(x, r);
        }
    }

    /// The records so far.
    pub(super) fn records(&self) -> std::cell::Ref<'_, LinkRecords<S>> {
        self.records.borrow()
    }
}

/// The links of the chain's transient states (`None` where a state has none), from the
/// records: a record is kept when its square and its next square are transient states of the
/// chain, `whole_turn(next)` says the next square's turn in the chain is a whole fresh turn,
/// and every number fits a word. Empty when no state has a link.
pub(super) fn index_links<S: Eq + Hash>(
    records: &LinkRecords<S>,
    states: &[S],
    transient: usize,
    index_of: impl Fn(&S) -> Option<usize>,
    whole_turn: impl Fn(&S) -> bool,
) -> Vec<Option<Link>> {
    let link = |s: &S| {
        let r = records.get(s)?;
        let (next, goes_on) = (&r.goes_on[0].0.at, r.goes_on[0].1);
        let next = index_of(next).filter(|&j| j < transient && whole_turn(next))?;
        // Sized once (collecting through `Option` would grow it by doubling).
        let mut ends = Vec::with_capacity(r.ends.len());
        for (s, c) in &r.ends {
            ends.push((index_of(s)?, u64::try_from(*c).ok()?));
        }
        ends.sort_unstable_by_key(|&(j, _)| j);
        ends.dedup_by(|b, a| {
            let same = a.0 == b.0;
            if same {
                a.1 += b.1;
            }
            same
        });
        Some(Link {
            next,
            goes_on: u64::try_from(goes_on).ok()?,
            ends,
            denom: u64::try_from(r.denom).ok()?,
        })
    };
    let links: Vec<Option<Link>> = states[..transient].iter().map(link).collect();
    match links.iter().any(Option::is_some) {
        true => links,
        false => Vec::new(),
    }
}

/// The linked states (`links` has one entry per transient state) in an order that puts every
/// state before the one its link leads to (Kahn's), as the steppings through the links sum
/// them; `None` on a cycle, which the chain's links never close, or a link past `links`.
pub fn link_order(links: &[Option<&Link>]) -> Option<Vec<usize>> {
    let t = links.len();
    let mut indegree = vec![0u32; t];
    for link in links.iter().flatten() {
        *indegree.get_mut(link.next)? += 1;
    }
    let mut ready: Vec<usize> = (0..t)
        .filter(|&i| links[i].is_some() && indegree[i] == 0)
        .collect();
    let linked = links.iter().flatten().count();
    let mut order = Vec::with_capacity(linked);
    while let Some(i) = ready.pop() {
        order.push(i);
        let to = links[i]?.next;
        indegree[to] -= 1;
        if indegree[to] == 0 && links[to].is_some() {
            ready.push(to);
        }
    }
    (order.len() == linked).then_some(order)
}

#[cfg(test)]
pub(super) mod tests;
