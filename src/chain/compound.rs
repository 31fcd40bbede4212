//! The compound move: the exact law of one whole turn, built from single rolls for any game
//! whose turns are made of rolls ([`RollGame`]). One implementation serves the single player
//! ([`super::SingleBoard`]) and the joint games of several players
//! ([`crate::race::knockoff::KnockOff`]), by driving the game's turn machine
//! ([`crate::game::throw_into`]), where roll-again, forfeits and lost turns are decided.
//!
//! # Formula
//!
//! Within a turn the game moves between in-turn states. With `roll_again = none` a turn is one
//! roll. With `roll_again = K` the in-turn state also counts the top throws in a row, which only
//! grows, so the turn is summed level by level (at most K levels). With unlimited roll-again a
//! turn is memoryless: after a top throw the rest of the turn is a fresh turn from where it
//! landed. With S the top-throw transitions among the in-turn states reachable from the turn's
//! start s, the expected visits are `x = e_s (I - S)^-1` (S has row sums at most P(top) < 1), and
//! the turn ends at u with probability `sum_v x_v P(v -> u by a roll that ends the turn)`. When
//! the top throws from s follow one path (one top throw, no draw: the standard game), the path
//! either finishes or enters a cycle of length L at level j, and `x` is the geometric sum
//! `p^k / (1 - p^L)` on the cycle, in closed form, summed in integers ([`super::run`]: one
//! numerator per amount over the product of the levels' denominators, one gcd at the end);
//! otherwise `x` is solved by exact Gaussian elimination over the (few) in-turn states. No
//! truncation, no epsilon.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::hash::BuildHasherDefault;
use std::hash::Hash;
use std::rc::Rc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::{Turn, TurnRewards};
use crate::game::{begin, throw_into, Branches, InTurn, RollGame, Step, Thrown};

/// What rolls from one in-turn state contribute, over the common denominator `denom`.
#[derive(Clone)]
pub(super) struct RollsFrom<S> {
    /// (the state the next turn begins in, numerator) for rolls that end the turn (forfeits
    /// included).
    pub(super) ends: Vec<(S, u128)>,
    /// (next in-turn state, numerator) for rolls after which the turn goes on.
    pub(super) goes_on: Vec<(InTurn<S>, u128)>,
    /// Numerators of the expected snakes, ladders, climbed, slid.
    pub(super) counts: [u128; 4],
    /// Numerator of the expected points.
    pub(super) points: i128,
    /// The rolls' common denominator.
    pub(super) denom: u128,
}

/// The buffers [`rolls_at`] works in, reused from state to state (and, kept by the caller, from
/// turn to turn): one roll's branches, every throw's outcomes one after another, and each
/// throw's weight, range of outcomes and weights' total.
pub(super) struct RollScratch<S> {
    branches: Branches<S>,
    thrown: Vec<Thrown<S>>,
    rolled: Vec<(u64, std::ops::Range<usize>, u64)>,
}

impl<S> Default for RollScratch<S> {
    fn default() -> RollScratch<S> {
        RollScratch {
            branches: Vec::new(),
            thrown: Vec::new(),
            rolled: Vec::new(),
        }
    }
}

fn rolls_from<G: RollGame>(
    game: &G,
    began: &G::State,
    now: &InTurn<G::State>,
    scratch: &mut RollScratch<G::State>,
) -> RollsFrom<G::State> {
    let dice = game.dice(began);
    // Each throw's outcomes go into one buffer (`thrown`), the throw keeping its range and its
    // weights' total: no vector per throw, and none per state.
    let RollScratch {
        branches,
        thrown,
        rolled,
    } = scratch;
    thrown.clear();
    rolled.clear();
    rolled.extend(dice.throws().iter().map(|t| {
        let first = thrown.len();
        let total = throw_into(game, began, now, t, branches, thrown);
        (t.weight, first..thrown.len(), total)
    }));
    let lcm = rolled.iter().map(|r| u128::from(r.2)).fold(1u128, |l, d| {
        if d == 1 {
            l
        } else {
            l / gcd_words(l, d) * d
        }
    });
    let mut out = RollsFrom {
        ends: Vec::with_capacity(thrown.len()),
        goes_on: Vec::new(),
        counts: [0; 4],
        points: 0,
        denom: u128::from(dice.total()) * lcm,
    };
    // The throws' ranges follow one another: one pass over the outcomes, none shifted.
    let mut all = thrown.drain(..);
    for (w, range, total) in rolled.drain(..) {
        let scale = u128::from(w) * (lcm / u128::from(total));
        for t in all.by_ref().take(range.len()) {
            let p = scale * u128::from(t.weight);
            if !t.forfeited {
                let o = &t.outcome;
                for (c, v) in out
                    .counts
                    .iter_mut()
                    .zip([o.snakes, o.ladders, o.climbed, o.slid])
                {
                    *c += p * u128::from(v);
                }
                out.points += p as i128 * i128::from(game.points(o));
            }
            match t.step {
                Step::Continue(next) => out.goes_on.push((next, p)),
                Step::End(next) => out.ends.push((next, p)),
            }
        }
    }
    out
}

/// Euclid's gcd (`gcd(0, b) = b`), in `u64` when both fit one (a division in one instruction).
pub(super) fn gcd_words(mut a: u128, mut b: u128) -> u128 {
    if let (Ok(mut a), Ok(mut b)) = (u64::try_from(a), u64::try_from(b)) {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        return u128::from(a);
    }
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn ratio(numer: u128, denom: u128) -> BigRational {
    BigRational::new(BigInt::from(numer), BigInt::from(denom))
}

/// Adds `x` times the rolls from one in-turn state to the turn's law and rewards.
fn collect<S: Ord + Clone>(
    x: &BigRational,
    rolls: &RollsFrom<S>,
    next: &mut BTreeMap<S, BigRational>,
    rewards: &mut TurnRewards,
) {
    rewards.rolls += x;
    // x / denom once; each amount is then one product by an integer (one gcd) and one sum.
    let unit = x * ratio(1, rolls.denom);
    let scaled = |c: u128| -> BigRational {
        if c == 0 {
            BigRational::zero()
        } else {
            &unit * BigInt::from(c)
        }
    };
    for (reward, c) in [
        &mut rewards.snakes,
        &mut rewards.ladders,
        &mut rewards.climbed,
        &mut rewards.slid,
    ]
    .into_iter()
    .zip(rolls.counts)
    {
        if c != 0 {
            *reward += scaled(c);
        }
    }
    if rolls.points != 0 {
        rewards.points += &unit * BigInt::from(rolls.points);
    }
    let mut merged: BTreeMap<S, u128> = BTreeMap::new();
    for (s, p) in &rolls.ends {
        *merged.entry(s.clone()).or_insert(0) += p;
    }
    for (s, p) in merged {
        let v = scaled(p);
        match next.entry(s) {
            std::collections::btree_map::Entry::Occupied(mut e) => *e.get_mut() += v,
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(v);
            }
        }
    }
}

/// The compound move from the non-final `state`: the exact law of the state where the turn that
/// begins there ends (after [`RollGame::end_turn`]), and the turn's expected rewards.
pub fn compound_move<G: RollGame>(game: &G, state: &G::State) -> Turn<G::State> {
    compound_move_by(game, state, Route::Fast)
}

/// How [`compound_move_by`] sums a turn (the tests compare the two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Route {
    /// A single path of in-turn states in integers ([`super::run::single_path`]), else the
    /// general rational route: what [`compound_move`] does.
    Fast,
    /// Always the general rational route (Gaussian elimination over the in-turn states).
    General,
}

/// [`compound_move`] by `route`.
pub(super) fn compound_move_by<G: RollGame>(
    game: &G,
    state: &G::State,
    route: Route,
) -> Turn<G::State> {
    compound_move_with(game, state, route, None)
}

/// The rolls from each in-turn state, kept across the turns of one chain, for a game whose
/// rolls from a state do not depend on where the turn began (one player under unlimited
/// roll-again: no forfeit sends the token back to the turn's start, and no streak is
/// counted). A run of top throws passes through the same squares from many starts: efi's 82
/// turns visit about 700 in-turn states, about 100 of them distinct.
pub(super) type RollsMemo<S> =
    RefCell<HashMap<InTurn<S>, Rc<RollsFrom<S>>, BuildHasherDefault<super::WordHasher>>>;

/// [`compound_move`] with the in-turn rolls looked up in (and added to) `memo`, which must
/// only serve a game as [`RollsMemo`] says.
pub(super) fn compound_move_memo<G: RollGame>(
    game: &G,
    state: &G::State,
    memo: &RollsMemo<G::State>,
) -> Turn<G::State> {
    compound_move_with(game, state, Route::Fast, Some(memo))
}

fn compound_move_with<G: RollGame>(
    game: &G,
    state: &G::State,
    route: Route,
    memo: Option<&RollsMemo<G::State>>,
) -> Turn<G::State> {
    let first = match begin(game, state.clone()) {
        Step::Continue(first) => first,
        Step::End(after) => {
            return Turn {
                next: vec![(after, BigRational::one())],
                rewards: TurnRewards::default(),
                endless: false,
            }
        }
    };
    let (mut states, mut rolls) = in_turn_states(game, first, memo);
    let stuck = drop_endless(&mut states, &mut rolls);
    let endless = !stuck.is_empty();
    if route != Route::General && !endless {
        if let Some(turn) = super::run::single_path(&states, &rolls) {
            return turn;
        }
    }
    let x = general_visits(&states, &rolls);
    let mut next = BTreeMap::new();
    let mut rewards = TurnRewards::default();
    for (x, rolls) in x.iter().zip(&rolls) {
        collect(x, rolls, &mut next, &mut rewards);
    }
    if endless {
        // The chance that the turn never ends goes to a state from which no turn ever ends: one
        // of the endless in-turn states with streak 0 (every endless set has one: a top face
        // under roll_again = K leads to a forfeit, which ends the turn, so the set is closed
        // under non-top faces, which reset the streak). A turn begun there has the same rolls,
        // so it never ends either: its own law sends everything back to it.
        let ended: BigRational = next.values().sum();
        let never = BigRational::one() - ended;
        let target = stuck
            .iter()
            .find(|s| s.streak == 0)
            .unwrap_or(&stuck[0])
            .at
            .clone();
        if !never.is_zero() {
            *next.entry(target).or_insert_with(BigRational::zero) += never;
        }
    }
    Turn {
        next: next.into_iter().collect(),
        rewards,
        endless,
    }
}

/// The states where a turn that begins in the non-final `state` can end (after
/// [`RollGame::end_turn`]), without their probabilities (the support of [`compound_move`]'s law,
/// for counting a chain before building it: [`super::count`]), and whether the turn can go on
/// for ever ([`Turn::endless`]; it then ends, as in [`compound_move`], on one of its in-turn
/// states that begin no top-throw streak, all of which are listed), and how many in-turn states
/// it passes (the size of the system [`compound_move`] may solve for their visits).
pub(super) fn turn_ends<G: RollGame>(game: &G, state: &G::State) -> (Vec<G::State>, bool, usize) {
    let first = match begin(game, state.clone()) {
        Step::Continue(first) => first,
        Step::End(after) => return (vec![after], false, 0),
    };
    let (mut states, mut rolls) = in_turn_states(game, first, None);
    let in_turn = states.len();
    let stuck = drop_endless(&mut states, &mut rolls);
    let endless = !stuck.is_empty();
    let mut ends: Vec<G::State> = rolls
        .iter()
        .flat_map(|r| &r.ends)
        .map(|(s, _)| s.clone())
        .chain(never_ends(&stuck))
        .collect();
    ends.sort_unstable();
    ends.dedup();
    (ends, endless, in_turn)
}

/// The in-turn states of an endless turn that its never-ending chance may go to: those that begin
/// no top-throw streak, or the first.
fn never_ends<S: Clone>(stuck: &[InTurn<S>]) -> Vec<S> {
    let fresh: Vec<S> = stuck
        .iter()
        .filter(|s| s.streak == 0)
        .map(|s| s.at.clone())
        .collect();
    match (fresh.is_empty(), stuck.first()) {
        (true, Some(s)) => vec![s.at.clone()],
        _ => fresh,
    }
}

/// Removes the in-turn states from which no sequence of rolls ends the turn (a die whose only
/// face is the top one under `roll_again = "unlimited"`, extra-turn squares that every roll leads
/// back to), and the rolls into them: their probability is the chance that the turn never ends.
/// Returns the states removed.
pub(super) fn drop_endless<S: Ord + Clone + Hash + Eq>(
    states: &mut Vec<InTurn<S>>,
    rolls: &mut Vec<Rc<RollsFrom<S>>>,
) -> Vec<InTurn<S>> {
    // The usual turn: every in-turn state has a roll that ends the turn, so none is removed.
    if rolls.iter().all(|r| r.ends.iter().any(|(_, w)| *w > 0)) {
        return Vec::new();
    }
    let index: HashMap<&InTurn<S>, usize> =
        states.iter().enumerate().map(|(i, s)| (s, i)).collect();
    let m = states.len();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); m];
    for (i, r) in rolls.iter().enumerate() {
        for (s, w) in &r.goes_on {
            if *w > 0 {
                preds[index[s]].push(i);
            }
        }
    }
    let mut can_end: Vec<bool> = rolls
        .iter()
        .map(|r| r.ends.iter().any(|(_, w)| *w > 0))
        .collect();
    let mut queue: Vec<usize> = (0..m).filter(|&i| can_end[i]).collect();
    while let Some(j) = queue.pop() {
        for &i in &preds[j] {
            if !can_end[i] {
                can_end[i] = true;
                queue.push(i);
            }
        }
    }
    let removed: Vec<InTurn<S>> = states
        .iter()
        .zip(&can_end)
        .filter(|(_, c)| !**c)
        .map(|(s, _)| s.clone())
        .collect();
    if removed.is_empty() || !can_end[0] {
        if !can_end[0] {
            // The turn's first state never ends it: no roll ends the turn.
            states.clear();
            rolls.clear();
        }
        return removed;
    }
    let kept: std::collections::HashSet<InTurn<S>> = states
        .iter()
        .zip(&can_end)
        .filter(|(_, c)| **c)
        .map(|(s, _)| s.clone())
        .collect();
    let mut keep = can_end.iter();
    rolls.retain(|_| *keep.next().expect("one flag per state"));
    for r in rolls.iter_mut() {
        Rc::make_mut(r).goes_on.retain(|(s, _)| kept.contains(s));
    }
    let mut keep = can_end.iter();
    states.retain(|_| *keep.next().expect("one flag per state"));
    removed
}

/// The in-turn states reachable from the turn's `first` by rolls that go on (top throws, extra
/// rolls), with the rolls from each, in discovery order (`first` first).
/// The rolls are shared with `memo`, not copied (efi's 82 turns pass 620 in-turn states, 82
/// distinct).
#[allow(clippy::type_complexity)]
pub(super) fn in_turn_states<G: RollGame>(
    game: &G,
    first: InTurn<G::State>,
    memo: Option<&RollsMemo<G::State>>,
) -> (Vec<InTurn<G::State>>, Vec<Rc<RollsFrom<G::State>>>) {
    // A turn has a few in-turn states (a run of top throws): they are looked up by a scan until
    // there are more than `SCAN`, then by a hash map. Room for 16 from the start: growing from
    // 4 to 8 to 16 cost more than the rest of the search on efi.
    const SCAN: usize = 32;
    let began = first.at.clone();
    let mut states = Vec::with_capacity(16);
    states.push(first);
    let mut index: HashMap<InTurn<G::State>, usize> = HashMap::new();
    let mut rolls = Vec::with_capacity(16);
    let mut scratch = RollScratch::default();
    while rolls.len() < states.len() {
        let key = states[rolls.len()].clone();
        let r = rolls_at(game, &began, key, memo, &mut scratch);
        for (s, _) in &r.goes_on {
            let known = match states.len() <= SCAN {
                true => states.contains(s),
                false => {
                    if index.is_empty() {
                        index.extend(states.iter().cloned().zip(0..));
                    }
                    index.contains_key(s)
                }
            };
            if !known {
                if !index.is_empty() {
                    index.insert(s.clone(), states.len());
                }
                states.push(s.clone());
            }
        }
        rolls.push(r);
    }
    (states, rolls)
}

/// The rolls from the in-turn state `key` of a turn begun in `began`, looked up in (and added
/// to) `memo` when there is one.
pub(super) fn rolls_at<G: RollGame>(
    game: &G,
    began: &G::State,
    key: InTurn<G::State>,
    memo: Option<&RollsMemo<G::State>>,
    scratch: &mut RollScratch<G::State>,
) -> Rc<RollsFrom<G::State>> {
    if let Some(r) = memo.and_then(|memo| memo.borrow().get(&key).cloned()) {
        return r;
    }
    let r = Rc::new(rolls_from(game, began, &key, scratch));
    if let Some(memo) = memo {
        memo.borrow_mut().insert(key, Rc::clone(&r));
    }
    r
}

/// The expected visits `x = e_0 (I - S)^-1` over the in-turn states (S from each state's rolls
/// that go on) by Gaussian elimination over the rationals: `(I - S)^T x^T = e_0`, for
/// any in-turn graph whose states can all end the turn (`I - S` is then nonsingular); the first
/// state's visits come first, and an empty graph (the turn's first state never ends it) has
/// none.
fn general_visits<S: Ord + Clone + Hash + Eq>(
    states: &[InTurn<S>],
    rolls: &[Rc<RollsFrom<S>>],
) -> Vec<BigRational> {
    let index: HashMap<&InTurn<S>, usize> =
        states.iter().enumerate().map(|(i, s)| (s, i)).collect();
    let m = states.len();
    if m == 0 {
        return Vec::new();
    }
    let mut a = vec![vec![BigRational::zero(); m + 1]; m];
    for (i, row) in a.iter_mut().enumerate() {
        row[i] = BigRational::one();
    }
    a[0][m] = BigRational::one();
    for (i, r) in rolls.iter().enumerate() {
        for (s, p) in &r.goes_on {
            a[index[s]][i] -= ratio(*p, r.denom);
        }
    }
    for col in 0..m {
        let pivot = (col..m)
            .find(|&r| !a[r][col].is_zero())
            .expect("I - S is nonsingular (S has row sums below 1)");
        a.swap(col, pivot);
        let inv = BigRational::one() / &a[col][col];
        for v in &mut a[col][col..] {
            *v *= &inv;
        }
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col && !row[col].is_zero() {
                let f = row[col].clone();
                for (v, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *v -= &f * p;
                }
            }
        }
    }
    a.into_iter().map(|row| row[m].clone()).collect()
}
