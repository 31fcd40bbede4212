//! The roll-level form of the single-board turn chain: one row per square, one entry per
//! possible roll (throw and draw), in small integers. The fast exact solve of
//! [`crate::analysis::expectation`] works on it.

use std::collections::VecDeque;

use crate::board::{Board, RollAgain, Square};
use crate::rules::{roll, throw_effect, RollOutcome, ThrowEffect};

/// The largest common denominator of the rolls' probabilities the roll-level form takes (the
/// exact integer solve keeps row sums in machine words); above it, use [`super::Chain`].
pub const MAX_DENOMINATOR: u64 = 1 << 40;

/// One possible roll from a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollMove {
    /// The index of the square the roll ends on (`None` for the finish).
    pub to: Option<usize>,
    /// Whether the player rolls again after it.
    pub again: bool,
    /// What the roll did.
    pub outcome: RollOutcome,
    /// Its probability times [`RollLevel::denominator`].
    pub weight: u64,
}

/// The roll-level form of the turn chain, for `roll_again` = none or unlimited.
///
/// # Formula
///
/// With unlimited roll-again a turn is memoryless: after a top throw from s the rest of the turn
/// is a fresh compound move from s' (the square the top throw led to). So the compound move
/// matrix Q satisfies `Q = R + S Q`, where R holds the rolls that end the turn and S the rolls
/// that go on. S has row sums at most P(top throw) < 1, so `I - S` is invertible,
/// `Q = (I - S)^-1 R` (the sum of [`super::compound_move`] in matrix form) and
///
/// `(I - Q) x = b  <=>  (I - S - R) x = (I - S) b`.
///
/// `I - S - R` is the one-roll matrix: one entry per possible roll at most, small integers once
/// scaled by the common denominator D of the rolls' probabilities (F for one fair die), in
/// square order, where Q itself has a row entry for every square a run of top throws can reach
/// (dense on large boards). With `roll_again = none`, S = 0 and R = Q. The states here are every
/// square reachable roll by roll (a turn can pass through squares where no turn begins); on the
/// squares where turns begin ([`RollLevel::turn_start`]) the solutions are those of the turn
/// chain. With `roll_again = K` a turn remembers its square and its run of top throws, so there
/// is no such form: use [`super::Chain`].
#[derive(Clone, Debug)]
pub struct RollLevel {
    /// The squares other than the finish reachable roll by roll from the start, ascending.
    pub squares: Vec<Square>,
    /// For each square, every possible roll with its weight (weights add up to `denominator`).
    pub moves: Vec<Vec<RollMove>>,
    /// True for the squares where a turn can begin (the states of the turn chain).
    pub turn_start: Vec<bool>,
    /// True for the squares from which the finish can be reached.
    pub finishes: Vec<bool>,
    /// The index of the start square (`None` when the game starts on the finish).
    pub start: Option<usize>,
    /// D: every roll's probability is its weight over D.
    pub denominator: u64,
}

impl RollLevel {
    /// The roll-level form of `board`, or `None` when its rules forfeit on the K-th top throw or
    /// its probabilities need a common denominator above [`MAX_DENOMINATOR`].
    pub fn new(board: &Board) -> Option<RollLevel> {
        if let RollAgain::Forfeit(_) = board.rules().roll_again {
            return None;
        }
        let denominator = common_denominator(board)?;
        let n = board.size();
        let start = board.rules().start;
        // Square -> index, u32::MAX for not yet reached; the rolls of square i are
        // raw[first[i]..first[i + 1]] (one flat buffer: this runs at every `ladders expect`).
        let mut index = vec![u32::MAX; n as usize + 1];
        let mut squares = vec![start];
        index[start as usize] = 0;
        let mut raw: Vec<(Square, bool, RollOutcome, u64)> = Vec::new();
        let mut first = vec![0usize];
        let dice = board.dice();
        let rule = board.rules().roll_again;
        let per_throw = denominator / dice.total();
        let mut i = 0;
        while i < squares.len() {
            let s = squares[i];
            for t in dice.throws() {
                let ThrowEffect::Move { again } = throw_effect(rule, t.top, 0) else {
                    unreachable!("no forfeits here")
                };
                let law = roll(board, s, t.sum);
                let scale = t.weight
                    * match law.total() {
                        1 => per_throw,
                        total => per_throw / total,
                    };
                for &(w, o) in law.branches() {
                    if o.to != n && index[o.to as usize] == u32::MAX {
                        index[o.to as usize] = squares.len() as u32;
                        squares.push(o.to);
                    }
                    raw.push((o.to, again && o.to != n, o, w * scale));
                }
            }
            first.push(raw.len());
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
        let moves: Vec<Vec<RollMove>> = order
            .iter()
            .map(|&old| {
                raw[first[old]..first[old + 1]]
                    .iter()
                    .map(|&(to, again, outcome, weight)| {
                        let to = (to != n).then(|| index[to as usize] as usize);
                        if let (Some(j), false) = (to, again) {
                            turn_start[j] = true;
                        }
                        RollMove {
                            to,
                            again,
                            outcome,
                            weight,
                        }
                    })
                    .collect()
            })
            .collect();
        let finishes = finishing(&moves);
        Some(RollLevel {
            start: Some(index[start as usize] as usize),
            squares: sorted,
            moves,
            turn_start,
            finishes,
            denominator,
        })
    }

    /// True when the finish can be reached from every reachable square (then every state of the
    /// turn chain reaches it too, and the expectations are finite).
    pub fn always_ends(&self) -> bool {
        self.finishes.iter().all(|&f| f)
    }
}

/// D = (the dice's total) x lcm(the totals of every draw), if at most [`MAX_DENOMINATOR`].
fn common_denominator(board: &Board) -> Option<u64> {
    let gcd = crate::board::dice::gcd;
    let mut l: u64 = 1;
    let mut fold = |d: u64| -> Option<()> {
        l = (l / gcd(l, d)).checked_mul(d)?;
        (l <= MAX_DENOMINATOR).then_some(())
    };
    for c in board.chances() {
        fold(c.total)?;
    }
    if let Some(t) = board.tiles() {
        fold(t.denominator())?;
    }
    let d = l.checked_mul(board.dice().total())?;
    (d <= MAX_DENOMINATOR).then_some(d)
}

/// Which squares reach the finish: backwards from the squares with a finishing roll, over the
/// predecessor lists in compressed form (pred[first[j]..first[j + 1]] lead to j).
fn finishing(moves: &[Vec<RollMove>]) -> Vec<bool> {
    let m = moves.len();
    let mut first = vec![0u32; m + 1];
    for row in moves {
        for mv in row {
            if let Some(j) = mv.to {
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
    for (i, row) in moves.iter().enumerate() {
        for mv in row {
            match mv.to {
                Some(j) => {
                    pred[fill[j] as usize] = i as u32;
                    fill[j] += 1;
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
    finishes
}
