//! The turn chain: the absorbing Markov chain whose steps are whole turns (DESIGN.md section 2).
//!
//! A [`TurnModel`] says what a state is and gives, for each state, the exact distribution of the
//! state after one turn with the expected rewards of that turn. [`Chain::build`] keeps only the
//! states reachable from the start and splits them into transient and final ones. The single-board
//! model is [`SingleBoard`], whose turn is the [`compound_move`] built from
//! [`crate::rules::turn_step`]; other models (joint states of several players, boards whose state
//! changes during a game) implement the same trait and every analysis keeps working.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Debug;
use std::hash::Hash;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::board::{Board, RollAgain, Square};
use crate::rules::{turn_step, RollOutcome};

/// Expected amounts collected during one turn from a given state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRewards {
    /// Expected rolls in the turn (forfeited rolls included).
    pub rolls: BigRational,
    /// Expected snakes taken.
    pub snakes: BigRational,
    /// Expected ladders taken.
    pub ladders: BigRational,
    /// Expected squares climbed by ladders.
    pub climbed: BigRational,
    /// Expected squares slid down by snakes.
    pub slid: BigRational,
}

impl Default for TurnRewards {
    fn default() -> TurnRewards {
        TurnRewards {
            rolls: BigRational::zero(),
            snakes: BigRational::zero(),
            ladders: BigRational::zero(),
            climbed: BigRational::zero(),
            slid: BigRational::zero(),
        }
    }
}

/// The exact law of one turn from one state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn<S> {
    /// Where the turn ends, with probabilities summing to 1 (each state listed once).
    pub next: Vec<(S, BigRational)>,
    /// What the turn collects on average.
    pub rewards: TurnRewards,
}

/// A game seen one whole turn at a time.
pub trait TurnModel {
    /// A state of the game between turns.
    type State: Clone + Eq + Hash + Ord + Debug;
    /// The state the game begins in.
    fn start(&self) -> Self::State;
    /// True for the states where the game is over (absorbing).
    fn is_final(&self, state: &Self::State) -> bool;
    /// The exact law of one turn from a non-final state.
    fn turn(&self, state: &Self::State) -> Turn<Self::State>;
}

/// One player on one board: the state is the square the token stands on.
#[derive(Clone, Copy, Debug)]
pub struct SingleBoard<'a> {
    board: &'a Board,
}

impl<'a> SingleBoard<'a> {
    /// The single-player model of `board`.
    pub fn new(board: &'a Board) -> SingleBoard<'a> {
        SingleBoard { board }
    }
}

impl TurnModel for SingleBoard<'_> {
    type State = Square;

    fn start(&self) -> Square {
        self.board.rules().start
    }

    fn is_final(&self, state: &Square) -> bool {
        *state == self.board.size()
    }

    fn turn(&self, state: &Square) -> Turn<Square> {
        compound_move(self.board, *state)
    }
}

/// The compound move from `square`: the exact law of the square where a turn that begins on
/// `square` ends, and the turn's expected rewards.
///
/// # Formula
///
/// Rolling nothing but top faces from s visits a fixed sequence s0 = s, s1, s2, ... (each
/// s(k+1) the result of a top face from s(k)). The turn reaches level k with weight w(k) = F^-k and
/// there ends with each face r that does not roll again, with probability w(k) / F. With unlimited
/// roll-again the sequence either finishes or enters a cycle of length L from level j on; the
/// levels in the cycle are revisited with the geometric weight w(k) = F^-k / (1 - F^-L), so the
/// sum is exact and never truncated. With `roll_again = K` there are at most K levels, and the top
/// face at level K - 1 forfeits the turn (the token ends where it began).
pub fn compound_move(board: &Board, square: Square) -> Turn<Square> {
    let die = board.rules().die;
    let f = BigInt::from(die);
    let one_over_f = BigRational::new(BigInt::one(), f.clone());

    // The top-face sequence, and the level where it cycles (unlimited roll-again only).
    let mut levels = vec![square];
    let mut seen: HashMap<Square, usize> = HashMap::from([(square, 0)]);
    let mut cycle_from = None;
    loop {
        let k = levels.len() - 1;
        let step = turn_step(board, square, levels[k], k as u32, die);
        if !step.again {
            break;
        }
        let next = step.outcome.to;
        if board.rules().roll_again == RollAgain::Unlimited {
            if let Some(&j) = seen.get(&next) {
                cycle_from = Some(j);
                break;
            }
            seen.insert(next, levels.len());
        }
        levels.push(next);
    }

    // w(k): the probability that the turn makes a k-th roll (k from 0).
    let mut weights = Vec::with_capacity(levels.len());
    let mut w = BigRational::one();
    for _ in 0..levels.len() {
        weights.push(w.clone());
        w *= &one_over_f;
    }
    if let Some(j) = cycle_from {
        let cycle_len = (levels.len() - j) as u32;
        let ratio = BigRational::one() - BigRational::new(BigInt::one(), f.pow(cycle_len));
        for w in &mut weights[j..] {
            *w /= &ratio;
        }
    }

    let mut next: BTreeMap<Square, BigRational> = BTreeMap::new();
    let mut rewards = TurnRewards::default();
    for (k, (&at, w)) in levels.iter().zip(&weights).enumerate() {
        rewards.rolls += w;
        let per_face = w * &one_over_f;
        let mut counts = [0u64; 4];
        for face in 1..=die {
            let step = turn_step(board, square, at, k as u32, face);
            let o = step.outcome;
            counts[0] += u64::from(o.snakes);
            counts[1] += u64::from(o.ladders);
            counts[2] += u64::from(o.climbed);
            counts[3] += u64::from(o.slid);
            if !step.again {
                *next.entry(o.to).or_insert_with(BigRational::zero) += &per_face;
            }
        }
        let scaled = |c: u64| &per_face * BigRational::from_integer(BigInt::from(c));
        rewards.snakes += scaled(counts[0]);
        rewards.ladders += scaled(counts[1]);
        rewards.climbed += scaled(counts[2]);
        rewards.slid += scaled(counts[3]);
    }
    Turn {
        next: next.into_iter().collect(),
        rewards,
    }
}

/// The roll-level form of the turn chain, for `roll_again` = none or unlimited.
///
/// # Formula
///
/// With unlimited roll-again a turn is memoryless: after a top face from s the rest of the turn
/// is a fresh compound move from s' (the square the top face led to). So the compound move
/// matrix Q satisfies `Q = R + S Q`, where R holds the rolls that end the turn (probability
/// 1/F for each face that does not roll again) and S the rolls that go on (1/F from s to s').
/// S has row sums at most 1/F, so `I - S` is invertible, `Q = (I - S)^-1 R` (the geometric sum
/// of [`compound_move`] in matrix form) and
///
/// `(I - Q) x = b  <=>  (I - S - R) x = (I - S) b`.
///
/// `I - S - R` is the one-roll matrix: F + 1 entries per row at most, small integers once
/// scaled by F, in square order, where Q itself has a row entry for every square a run of top
/// faces can reach (dense on large boards). With `roll_again = none`, S = 0 and R = Q. The
/// states here are every square reachable roll by roll (a turn can pass through squares where
/// no turn begins); on the squares where turns begin ([`RollLevel::turn_start`]) the solutions
/// are those of the turn chain. With `roll_again = K` a turn remembers its square and its run
/// of top faces, so there is no such form: use [`Chain`].
#[derive(Clone, Debug)]
pub struct RollLevel {
    /// The squares other than the finish reachable roll by roll from the start, ascending.
    pub squares: Vec<Square>,
    /// For each square and each face 1..=F: the index of the square the roll ends on (`None`
    /// for the finish), whether the player rolls again, and what the roll did.
    pub faces: Vec<Vec<(Option<usize>, bool, RollOutcome)>>,
    /// True for the squares where a turn can begin (the states of the turn chain).
    pub turn_start: Vec<bool>,
    /// True for the squares from which the finish can be reached.
    pub finishes: Vec<bool>,
    /// The index of the start square (`None` when the game starts on the finish).
    pub start: Option<usize>,
    /// F, the number of faces.
    pub die: u32,
}

impl RollLevel {
    /// The roll-level form of `board`, or `None` when its rules forfeit on the K-th top face.
    pub fn new(board: &Board) -> Option<RollLevel> {
        if let RollAgain::Forfeit(_) = board.rules().roll_again {
            return None;
        }
        let n = board.size();
        let die = board.rules().die;
        let start = board.rules().start;
        if start == n {
            return Some(RollLevel {
                squares: Vec::new(),
                faces: Vec::new(),
                turn_start: Vec::new(),
                finishes: Vec::new(),
                start: None,
                die,
            });
        }
        // Square -> index, u32::MAX for not yet reached. One flat buffer of F rolls per square
        // (a few hundred small allocations fewer than a Vec per square: this runs at every
        // `ladders expect`, where start-up costs count).
        let f = die as usize;
        let mut index = vec![u32::MAX; n as usize + 1];
        let mut squares = vec![start];
        index[start as usize] = 0;
        let mut raw: Vec<(Square, bool, RollOutcome)> = Vec::new();
        let mut i = 0;
        while i < squares.len() {
            let s = squares[i];
            for face in 1..=die {
                let step = turn_step(board, s, s, 0, face);
                let to = step.outcome.to;
                if to != n && index[to as usize] == u32::MAX {
                    index[to as usize] = squares.len() as u32;
                    squares.push(to);
                }
                raw.push((to, step.again, step.outcome));
            }
            i += 1;
        }
        // Renumber in square order.
        let mut order: Vec<usize> = (0..squares.len()).collect();
        order.sort_unstable_by_key(|&k| squares[k]);
        for (new, &old) in order.iter().enumerate() {
            index[squares[old] as usize] = new as u32;
        }
        let sorted: Vec<Square> = order.iter().map(|&k| squares[k]).collect();
        let mut turn_start = vec![false; sorted.len()];
        turn_start[index[start as usize] as usize] = true;
        let faces: Vec<Vec<(Option<usize>, bool, RollOutcome)>> = order
            .iter()
            .map(|&old| {
                raw[old * f..(old + 1) * f]
                    .iter()
                    .map(|&(to, again, o)| {
                        let j = (to != n).then(|| index[to as usize] as usize);
                        if let (Some(j), false) = (j, again) {
                            turn_start[j] = true;
                        }
                        (j, again, o)
                    })
                    .collect()
            })
            .collect();
        // Which squares reach the finish: backwards from the squares with a finishing face, over
        // the predecessor lists in compressed form (pred[first[j]..first[j + 1]] lead to j).
        let m = sorted.len();
        let mut first = vec![0u32; m + 1];
        for row in &faces {
            for (j, _, _) in row {
                if let Some(j) = j {
                    first[j + 1] += 1;
                }
            }
        }
        for j in 0..m {
            first[j + 1] += first[j];
        }
        let mut fill = first.clone();
        let mut pred = vec![0u32; first[m] as usize];
        let mut finishes = vec![false; m];
        let mut queue = VecDeque::new();
        for (i, row) in faces.iter().enumerate() {
            for (j, _, _) in row {
                match j {
                    Some(j) => {
                        pred[fill[*j] as usize] = i as u32;
                        fill[*j] += 1;
                    }
                    None if !finishes[i] => {
                        finishes[i] = true;
                        queue.push_back(i);
                    }
                    None => {}
                }
            }
        }
        while let Some(j) = queue.pop_front() {
            for &i in &pred[first[j] as usize..first[j + 1] as usize] {
                if !finishes[i as usize] {
                    finishes[i as usize] = true;
                    queue.push_back(i as usize);
                }
            }
        }
        Some(RollLevel {
            start: Some(index[start as usize] as usize),
            squares: sorted,
            faces,
            turn_start,
            finishes,
            die,
        })
    }

    /// True when the finish can be reached from every reachable square (then every state of the
    /// turn chain reaches it too, and the expectations are finite).
    pub fn always_ends(&self) -> bool {
        self.finishes.iter().all(|&f| f)
    }
}

/// A state from which the game can never end, and the cycle it is caught in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trap<S> {
    /// A reachable state from which no final state can be reached.
    pub state: S,
    /// A cycle of states the game can go round forever from there (first state repeated last).
    pub cycle: Vec<S>,
}

/// The chain has more reachable states than the caller allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the chain has more than {limit} reachable states")]
pub struct ChainTooLarge {
    /// The limit that was exceeded.
    pub limit: usize,
}

/// The reachable part of a turn model as an absorbing Markov chain.
///
/// States are numbered with the transient ones first (in the states' order), then the final
/// ones. `Q` is the transient-to-transient part of the transition matrix.
#[derive(Clone, Debug)]
pub struct Chain<S> {
    states: Vec<S>,
    transient: usize,
    start: usize,
    rows: Vec<Vec<(usize, BigRational)>>,
    rewards: Vec<TurnRewards>,
}

impl<S: Clone + Eq + Hash + Ord + Debug> Chain<S> {
    /// Builds the chain of the states reachable from the model's start.
    pub fn build<M: TurnModel<State = S>>(model: &M) -> Chain<S> {
        match Chain::build_limited(model, usize::MAX) {
            Ok(chain) => chain,
            Err(_) => unreachable!("no limit"),
        }
    }

    /// Builds the chain, giving up once more than `limit` states are reachable.
    ///
    /// # Errors
    ///
    /// [`ChainTooLarge`] when the reachable part has more than `limit` states.
    pub fn build_limited<M: TurnModel<State = S>>(
        model: &M,
        limit: usize,
    ) -> Result<Chain<S>, ChainTooLarge> {
        let start = model.start();
        let mut found: HashMap<S, usize> = HashMap::from([(start.clone(), 0)]);
        let mut order = vec![start];
        let mut turns: Vec<Option<Turn<S>>> = Vec::new();
        let mut queue = VecDeque::from([0usize]);
        while let Some(i) = queue.pop_front() {
            let state = order[i].clone();
            if turns.len() <= i {
                turns.resize(i + 1, None);
            }
            if model.is_final(&state) {
                continue;
            }
            let turn = model.turn(&state);
            for (next, _) in &turn.next {
                if !found.contains_key(next) {
                    if order.len() >= limit {
                        return Err(ChainTooLarge { limit });
                    }
                    found.insert(next.clone(), order.len());
                    order.push(next.clone());
                    queue.push_back(order.len() - 1);
                }
            }
            turns[i] = Some(turn);
        }
        turns.resize(order.len(), None);

        // Renumber: transient states first, each group in the states' order.
        let mut ids: Vec<usize> = (0..order.len()).collect();
        ids.sort_by(|&a, &b| {
            let fa = model.is_final(&order[a]);
            let fb = model.is_final(&order[b]);
            fa.cmp(&fb).then_with(|| order[a].cmp(&order[b]))
        });
        let mut new_id = vec![0; order.len()];
        for (new, &old) in ids.iter().enumerate() {
            new_id[old] = new;
        }
        let transient = ids.iter().filter(|&&i| !model.is_final(&order[i])).count();
        let mut rows = Vec::with_capacity(transient);
        let mut rewards = Vec::with_capacity(transient);
        for &old in &ids[..transient] {
            let turn = turns[old].take().expect("transient states have a turn");
            let mut row: Vec<(usize, BigRational)> = turn
                .next
                .into_iter()
                .map(|(s, p)| (new_id[found[&s]], p))
                .collect();
            row.sort_by_key(|(j, _)| *j);
            rows.push(row);
            rewards.push(turn.rewards);
        }
        let states = ids.iter().map(|&i| order[i].clone()).collect();
        Ok(Chain {
            states,
            transient,
            start: new_id[0],
            rows,
            rewards,
        })
    }

    /// All reachable states: transient ones first, then final ones.
    pub fn states(&self) -> &[S] {
        &self.states
    }

    /// The number of transient states (they are `states()[..transient_count()]`).
    pub fn transient_count(&self) -> usize {
        self.transient
    }

    /// The index of the start state.
    pub fn start(&self) -> usize {
        self.start
    }

    /// The index of `state`, if it is reachable.
    pub fn index_of(&self, state: &S) -> Option<usize> {
        let (t, f) = self.states.split_at(self.transient);
        t.binary_search(state)
            .ok()
            .or_else(|| f.binary_search(state).ok().map(|i| i + self.transient))
    }

    /// The transitions of transient state `i`: (state index, probability), sorted by index.
    pub fn row(&self, i: usize) -> &[(usize, BigRational)] {
        &self.rows[i]
    }

    /// Every transient state's transitions.
    pub fn rows(&self) -> &[Vec<(usize, BigRational)>] {
        &self.rows
    }

    /// The expected rewards of one turn from transient state `i`.
    pub fn rewards(&self, i: usize) -> &TurnRewards {
        &self.rewards[i]
    }

    /// The least common denominator D of every transition probability, so that D times the
    /// transition matrix is an integer matrix.
    pub fn common_denominator(&self) -> BigInt {
        let mut d = BigInt::one();
        for row in &self.rows {
            for (_, p) in row {
                d = d.lcm(p.denom());
            }
        }
        d
    }

    /// True when a final state can be reached from every reachable state (so the game ends with
    /// probability 1 and every expectation is finite).
    pub fn always_ends(&self) -> bool {
        self.trap().is_none()
    }

    /// A reachable state from which the game cannot end, with the cycle that holds it, if any.
    pub fn trap(&self) -> Option<Trap<S>> {
        let n = self.states.len();
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, row) in self.rows.iter().enumerate() {
            for (j, _) in row {
                preds[*j].push(i);
            }
        }
        let mut ends = vec![false; n];
        let mut queue: VecDeque<usize> = (self.transient..n).collect();
        for &i in &queue {
            ends[i] = true;
        }
        while let Some(j) = queue.pop_front() {
            for &i in &preds[j] {
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
            if !ends[i] {
                trapped = Some(i);
                break;
            }
            if i < self.transient {
                for (j, _) in &self.rows[i] {
                    if dist[*j] == usize::MAX {
                        dist[*j] = dist[i] + 1;
                        queue.push_back(*j);
                    }
                }
            }
        }
        let trapped = trapped?;
        // Every successor of a trapped state is trapped: walk until a state repeats.
        let mut walk = vec![trapped];
        let mut at: HashMap<usize, usize> = HashMap::from([(trapped, 0)]);
        loop {
            let i = *walk.last().expect("non-empty");
            let next = self.rows[i][0].0;
            if let Some(&pos) = at.get(&next) {
                let mut cycle: Vec<S> = walk[pos..]
                    .iter()
                    .map(|&k| self.states[k].clone())
                    .collect();
                cycle.push(self.states[next].clone());
                return Some(Trap {
                    state: self.states[trapped].clone(),
                    cycle,
                });
            }
            at.insert(next, walk.len());
            walk.push(next);
        }
    }
}

impl<'a> Chain<Square> {
    /// The single-player chain of `board`.
    pub fn for_board(board: &'a Board) -> Chain<Square> {
        Chain::build(&SingleBoard::new(board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, RuleOverrides};

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    fn board(text: &str) -> Board {
        Board::from_toml_str(text, "test").unwrap()
    }

    #[test]
    fn compound_move_without_roll_again_is_one_roll() {
        // Tiny board (die 2): from 0, a 1 climbs 1 -> 3, a 2 slides 2 -> 0.
        let b = crate::board::builtin("tiny").unwrap().unwrap();
        let m = compound_move(&b, 0);
        assert_eq!(m.next, vec![(0, q(1, 2)), (3, q(1, 2))]);
        assert_eq!(m.rewards.rolls, q(1, 1));
        assert_eq!(m.rewards.ladders, q(1, 2));
        assert_eq!(m.rewards.snakes, q(1, 2));
        assert_eq!(m.rewards.climbed, q(1, 1)); // 1/2 * 2 squares
        assert_eq!(m.rewards.slid, q(1, 1)); // 1/2 * 2 squares
    }

    #[test]
    fn unlimited_roll_again_sums_a_cycle_of_top_faces_in_closed_form() {
        // size 5, die 2, overshoot stay, unlimited: from 4, a 2 (top) overshoots and stays on 4,
        // then rolls again; a 1 finishes. Worked by hand: the turn from 4 always ends on 5, with
        // expected rolls 1 + 1/2 + 1/4 + ... = 2 (the cycle 4 -> 4 of length 1, ratio 1/2).
        let b = board("size = 5\n[rules]\ndie = 2\nroll_again = \"unlimited\"\n");
        let m = compound_move(&b, 4);
        assert_eq!(m.next, vec![(5, q(1, 1))]);
        assert_eq!(m.rewards.rolls, q(2, 1));
        // From 2: a 1 -> 3 ends; a 2 -> 4 rolls again, and from 4 as above finishes.
        // So P(end on 3) = 1/2, P(end on 5) = 1/2; rolls = 1 + 1/2 * 2 = 2.
        let m = compound_move(&b, 2);
        assert_eq!(m.next, vec![(3, q(1, 2)), (5, q(1, 2))]);
        assert_eq!(m.rewards.rolls, q(2, 1));
    }

    #[test]
    fn a_cycle_of_length_two_uses_ratio_f_to_the_minus_two() {
        // Worked by hand on size 6, die 3, bounce, unlimited roll-again:
        // from 4, a 3 -> 7 bounces to 5 (again); from 5 a 3 -> 8 bounces
        // to 4 (again): the cycle 4 -> 5 -> 4 of length 2, ratio 1 - 3^-2 = 8/9.
        // Level weights: w0 = 1 / (8/9) = 9/8, w1 = (1/3) / (8/9) = 3/8.
        // Ends: level 0 (on 4): 1 -> 5, 2 -> 6 (finish); level 1 (on 5): 1 -> 6 (finish), 2 -> 7 -> 5.
        // P(5) = w0/3 + w1/3 = 3/8 + 1/8 = 1/2; P(6) = w0/3 + w1/3 = 1/2. Rolls = w0 + w1 = 3/2.
        let b = board(
            "size = 6\n[rules]\ndie = 3\novershoot = \"bounce\"\nroll_again = \"unlimited\"\n",
        );
        let m = compound_move(&b, 4);
        assert_eq!(m.next, vec![(5, q(1, 2)), (6, q(1, 2))]);
        assert_eq!(m.rewards.rolls, q(3, 2));
    }

    #[test]
    fn forfeit_sends_the_token_back_to_where_the_turn_began() {
        // size 20, die 2, roll_again = 2: from 0, a 1 -> 1 ends (1/2); a 2 -> 2 rolls again:
        // then a 1 -> 3 ends (1/4), a 2 is the second top face in a row: forfeit, back to 0 (1/4).
        let b = board("size = 20\n[rules]\ndie = 2\nroll_again = 2\n");
        let m = compound_move(&b, 0);
        assert_eq!(m.next, vec![(0, q(1, 4)), (1, q(1, 2)), (3, q(1, 4))]);
        assert_eq!(m.rewards.rolls, q(3, 2));
    }

    #[test]
    fn chain_keeps_only_reachable_squares_and_splits_off_the_finish() {
        let b = crate::board::builtin("tiny").unwrap().unwrap();
        let chain = Chain::for_board(&b);
        assert_eq!(chain.states(), &[0, 3, 4]);
        assert_eq!(chain.transient_count(), 2);
        assert_eq!(chain.start(), 0);
        assert_eq!(chain.common_denominator(), BigInt::from(2));
        assert!(chain.always_ends());
    }

    #[test]
    fn a_board_whose_finish_cannot_be_reached_reports_the_trap() {
        // size 6, die 2, overshoot stay, snakes 4 -> 2 and 5 -> 2: from 3 a roll reaches 4 or 5,
        // both back to 2; from 2 a 1 -> 3 and a 2 -> 4 -> 2. No roll ever reaches 6, so the start
        // itself is trapped.
        let b = board("size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n");
        let chain = Chain::for_board(&b);
        let trap = chain.trap().expect("trapped");
        assert_eq!(trap.state, 0);
        assert_eq!(trap.cycle.first(), trap.cycle.last());
        assert!(!chain.always_ends());
        // With a three-sided die, 3 + 3 = 6 finishes, and the trap is gone.
        let allow = b
            .with_rules(&RuleOverrides {
                die: Some(3),
                ..RuleOverrides::default()
            })
            .unwrap();
        assert!(Chain::for_board(&allow).always_ends());
    }
}
