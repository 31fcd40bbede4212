//! The roll-level form of the single-board turn chain: one row per square, one entry per
//! possible roll (throw and draw), in small integers. The fast exact solve of
//! [`crate::analysis::expectation`] works on it.

use std::collections::VecDeque;

use crate::board::{Board, Square};
use crate::game::{roll, throw_effect, Capabilities, RollOutcome, ThrowEffect};

/// The largest common denominator of the rolls' probabilities the roll-level form takes: the
/// exact integer system's rows (D, the weights, and D times a roll's snakes, ladders and squares
/// climbed or slid, see [`RollLevel::new`]) stay machine words below 2^62; above it, use
/// [`super::Chain`]. (A chance square of total weight 2,048,576 on a loaded die of total
/// 1,001,005 needs D of about 2^41: on the turn chain its 1,000 squares took minutes, dense
/// rows of thousand-digit fractions; here a second.)
pub const MAX_DENOMINATOR: u64 = 1 << 62;

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
/// `Q = (I - S)^-1 R` (the sum of `super::compound_move` in matrix form) and
///
/// `(I - Q) x = b  <=>  (I - S - R) x = (I - S) b`.
///
/// `I - S - R` is the one-roll matrix: one entry per possible roll at most, small integers once
/// scaled by the common denominator D of the rolls' probabilities (F for one fair die), in
/// square order, where Q itself has a row entry for every square a run of top throws can reach
/// (dense on large boards). With `roll_again = none`, S = 0 and R = Q. The states here are every
/// square reachable roll by roll (a turn can pass through squares where no turn begins); on the
/// squares where turns begin (`RollLevel::turn_start`) the solutions are those of the turn
/// chain. With `roll_again = K` a turn remembers its square and its run of top throws, so there
/// is no such form: use [`super::Chain`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollLevel {
    /// The squares other than the finish reachable roll by roll from the start, ascending.
    pub(crate) squares: Vec<Square>,
    /// For each square, every possible roll with its weight (weights add up to `denominator`).
    pub(crate) moves: Vec<Vec<RollMove>>,
    /// True for the squares where a turn can begin (the states of the turn chain).
    pub(crate) turn_start: Vec<bool>,
    /// True for the squares from which the finish can be reached.
    pub(crate) finishes: Vec<bool>,
    /// The index of the start square (`None` when the game starts on the finish).
    pub(crate) start: Option<usize>,
    /// D: every roll's probability is its weight over D.
    pub(crate) denominator: u64,
}

impl RollLevel {
    /// For each square (ascending, the finish left out), every possible roll with its weight
    /// (weights add up to [`RollLevel::denominator`]).
    pub fn moves(&self) -> &[Vec<RollMove>] {
        &self.moves
    }

    /// D: every roll's probability is its weight over D.
    pub fn denominator(&self) -> u64 {
        self.denominator
    }

    /// The index of the start square (`None` when the game starts on the finish).
    pub fn start(&self) -> Option<usize> {
        self.start
    }

    /// The roll-level form of `board`, or `None` when its player's state is more than the
    /// square (the form has a row per square), its rules forfeit on the K-th top throw, its
    /// probabilities need a common denominator above [`MAX_DENOMINATOR`], or D times a roll's
    /// snakes, ladders or squares climbed or slid would pass it (the rewards' right-hand sides
    /// are machine words).
    ///
    /// One walk over the rolls: the squares are found breadth first with each one's rolls kept
    /// as they are met (their squares numbered in the order found), then put in square order and
    /// renumbered, where [`RollSquares::new`] finds the squares and [`RollSquares::rolls`] rolls
    /// again from each.
    pub fn new(board: &Board) -> Option<RollLevel> {
        if !RollLevel::applies(board) {
            return None;
        }
        let Discovery {
            denominator,
            per_throw,
            mut index,
            mut squares,
        } = Discovery::begin(board)?;
        let n = board.size();
        let mut found: Vec<Vec<RollMove>> = Vec::new();
        while found.len() < squares.len() {
            let mut row = Vec::with_capacity(board.dice().throws().len());
            rolls_from(
                board,
                squares[found.len()],
                per_throw,
                |outcome, again, weight| {
                    let to = (outcome.to != n)
                        .then(|| Discovery::find(&mut index, &mut squares, outcome.to));
                    row.push(RollMove {
                        to,
                        again,
                        outcome,
                        weight,
                    });
                },
            );
            found.push(row);
        }
        // In square order: `order[new]` is the index found first, `rank[found]` the new one.
        let m = squares.len();
        let mut order: Vec<u32> = (0..m as u32).collect();
        order.sort_unstable_by_key(|&k| squares[k as usize]);
        let mut rank = vec![0u32; m];
        for (new, &old) in order.iter().enumerate() {
            rank[old as usize] = new as u32;
        }
        let start = Some(rank[0] as usize);
        let mut ends = Ends::new(m, start);
        let mut moves = Vec::with_capacity(m);
        for (i, &old) in order.iter().enumerate() {
            let mut row = std::mem::take(&mut found[old as usize]);
            for mv in &mut row {
                mv.to = mv.to.map(|j| rank[j] as usize);
                ends.add(i, mv);
            }
            moves.push(row);
        }
        let most = (moves.iter().flatten())
            .flat_map(|m| {
                [
                    m.outcome.snakes,
                    m.outcome.ladders,
                    m.outcome.climbed,
                    m.outcome.slid,
                ]
            })
            .max()
            .unwrap_or(0);
        if u128::from(denominator) * u128::from(most.max(1)) > u128::from(MAX_DENOMINATOR) {
            return None;
        }
        let (turn_start, finishes) = ends.finish();
        Some(RollLevel {
            squares: order.iter().map(|&k| squares[k as usize]).collect(),
            moves,
            turn_start,
            finishes,
            start,
            denominator,
        })
    }

    /// [`RollLevel::new`] the way it was built before it kept the rolls of its one walk: the
    /// squares from [`RollSquares::new`], then each square's rolls again (the tests' second
    /// route).
    #[cfg(test)]
    fn by_squares(board: &Board) -> Option<RollLevel> {
        if !RollLevel::applies(board) {
            return None;
        }
        let level = RollSquares::new(board)?;
        let m = level.squares.len();
        let mut ends = Ends::new(m, level.start);
        let mut moves = Vec::with_capacity(m);
        for i in 0..m {
            let mut row = Vec::new();
            level.rolls(i, |mv| {
                ends.add(i, &mv);
                row.push(mv);
            });
            moves.push(row);
        }
        let (turn_start, finishes) = ends.finish();
        Some(RollLevel {
            start: level.start,
            squares: level.squares,
            moves,
            turn_start,
            finishes,
            denominator: level.denominator,
        })
    }

    /// True when the finish can be reached from every reachable square (then every state of the
    /// turn chain reaches it too, and the expectations are finite).
    pub fn always_ends(&self) -> bool {
        self.finishes.iter().all(|&f| f)
    }

    /// The pattern of the expected-turns system `A = D (I - S - R)` built from these rolls:
    /// each square's columns, ascending, its diagonal and one entry per square a roll that
    /// does not finish reaches (the input of `exact::order`'s orderings, for
    /// `benches/order.rs` and `examples/fill.rs`).
    pub fn pattern(&self) -> Vec<Vec<u32>> {
        self.moves
            .iter()
            .enumerate()
            .map(|(i, moves)| {
                let mut r: Vec<u32> = moves
                    .iter()
                    .filter_map(|m| m.to.map(|j| j as u32))
                    .collect();
                r.push(i as u32);
                r.sort_unstable();
                r.dedup();
                r
            })
            .collect()
    }
}

/// The squares of the roll-level form without their rolls, for a caller that needs each
/// square's rolls once and in order ([`RollSquares::rolls`]) and need not keep them all:
/// `expect --float` writes its rows from them (on 10,000 squares the kept rolls of a
/// [`RollLevel`] would be most of its memory).
#[derive(Clone, Debug)]
pub struct RollSquares<'b> {
    board: &'b Board,
    /// The squares other than the finish reachable roll by roll from the start, ascending.
    pub squares: Vec<Square>,
    /// Square -> index in `squares` (`u32::MAX`: not reachable).
    index: Vec<u32>,
    /// The index of the start square.
    pub start: Option<usize>,
    /// D: every roll's probability is its weight over D.
    pub denominator: u64,
}

impl RollLevel {
    /// True when `board` has a roll-level form to solve on ([`RollLevel::new`] gives one): its
    /// player's state is its square (the form has a row per square) and [`RollSquares`]
    /// applies.
    pub fn applies(board: &Board) -> bool {
        Capabilities::of(board).stateless && RollSquares::applies(board)
    }
}

impl<'b> RollSquares<'b> {
    /// True when `board` has a roll-level form ([`RollSquares::new`] and [`RollLevel::new`]
    /// give one), found without building it.
    pub fn applies(board: &Board) -> bool {
        Capabilities::of(board).memoryless_turns() && common_denominator(board).is_some()
    }

    /// The reachable squares of `board`, or `None` as for [`RollLevel::new`].
    pub fn new(board: &'b Board) -> Option<RollSquares<'b>> {
        RollSquares::discover(board, Discovery::begin(board)?)
    }

    /// The squares of `board` and their rolls' shape (where each roll goes, whether it goes
    /// on), also when the rolls' common denominator D is past [`MAX_DENOMINATOR`], with log2 D
    /// beside: what [`super::ChainSize`] estimates the turn chain from. Past the limit the
    /// rolls' weights are not their probabilities (D is taken as the dice's total); `None` as
    /// for [`RollSquares::new`] otherwise.
    pub fn shape(board: &'b Board) -> Option<(RollSquares<'b>, f64)> {
        if let Some(level) = RollSquares::new(board) {
            let bits = (level.denominator as f64).log2();
            return Some((level, bits));
        }
        if !Capabilities::of(board).memoryless_turns() {
            return None;
        }
        let mut lcm = num_bigint::BigUint::from(1u8);
        for total in board.chances().iter().map(|c| c.total) {
            lcm = num_integer::Integer::lcm(&lcm, &total.into());
        }
        if let Some(t) = board.tiles() {
            lcm = num_integer::Integer::lcm(&lcm, &t.denominator().into());
        }
        let bits = lcm.bits() as f64 + (board.dice().total() as f64).log2();
        let level = RollSquares::discover(board, Discovery::over(board, board.dice().total()))?;
        Some((level, bits))
    }

    /// The squares reachable from the start of `found`, in square order.
    fn discover(board: &'b Board, found: Discovery) -> Option<RollSquares<'b>> {
        let Discovery {
            denominator,
            per_throw,
            mut index,
            mut squares,
        } = found;
        let (n, start) = (board.size(), board.rules().start);
        let mut i = 0;
        while i < squares.len() {
            rolls_from(board, squares[i], per_throw, |o, _, _| {
                if o.to != n {
                    Discovery::find(&mut index, &mut squares, o.to);
                }
            });
            i += 1;
        }
        // Renumber in square order.
        squares.sort_unstable();
        for (k, &s) in squares.iter().enumerate() {
            index[s as usize] = k as u32;
        }
        Some(RollSquares {
            board,
            start: Some(index[start as usize] as usize),
            squares,
            index,
            denominator,
        })
    }

    /// Calls `f` with every possible roll from the square of index `i`, in the order of the
    /// dice's throws, `to` as an index into [`RollSquares::squares`].
    pub fn rolls(&self, i: usize, mut f: impl FnMut(RollMove)) {
        let n = self.board.size();
        let per_throw = self.denominator / self.board.dice().total();
        rolls_from(
            self.board,
            self.squares[i],
            per_throw,
            |outcome, again, weight| {
                f(RollMove {
                    to: (outcome.to != n).then(|| self.index[outcome.to as usize] as usize),
                    again,
                    outcome,
                    weight,
                })
            },
        );
    }
}

/// Every possible roll from square `s`: `f(outcome, rolls again, weight over D)`, in the order of
/// the dice's throws (`per_throw`: D over the dice's total).
fn rolls_from(board: &Board, s: Square, per_throw: u64, mut f: impl FnMut(RollOutcome, bool, u64)) {
    let n = board.size();
    let rule = board.rules().roll_again;
    for t in board.dice().throws() {
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
            f(o, again && o.to != n, w * scale);
        }
    }
}

/// Where turns begin and which squares reach the finish, gathered from the rolls as they are
/// written ([`Ends::add`], every square's once), for a [`RollLevel`] or rows written straight
/// from [`RollSquares::rolls`].
#[derive(Clone, Debug)]
pub struct Ends {
    turn_start: Vec<bool>,
    /// The squares with a finishing roll.
    direct: Vec<bool>,
    /// (to, from) of every roll that stays on the board.
    edges: Vec<(u32, u32)>,
}

impl Ends {
    /// Nothing seen yet on `m` squares; a turn begins on `start`.
    pub fn new(m: usize, start: Option<usize>) -> Ends {
        let mut turn_start = vec![false; m];
        if let Some(s) = start {
            turn_start[s] = true;
        }
        Ends {
            turn_start,
            direct: vec![false; m],
            edges: Vec::new(),
        }
    }

    /// One roll from the square of index `from`.
    pub fn add(&mut self, from: usize, mv: &RollMove) {
        match mv.to {
            Some(j) => {
                if !mv.again {
                    self.turn_start[j] = true;
                }
                self.edges.push((j as u32, from as u32));
            }
            None => self.direct[from] = true,
        }
    }

    /// (where a turn can begin, which squares reach the finish).
    pub fn finish(self) -> (Vec<bool>, Vec<bool>) {
        let finishes = finishing(self.direct, &self.edges);
        (self.turn_start, finishes)
    }
}

/// The start of both breadth-first walks of the squares ([`RollLevel::new`],
/// [`RollSquares::new`]): the common denominator and each throw's share of it, each square's
/// index in the order found (`u32::MAX` before), and the squares found (the start).
struct Discovery {
    denominator: u64,
    per_throw: u64,
    index: Vec<u32>,
    squares: Vec<Square>,
}

impl Discovery {
    /// `None` when `board` has no roll-level form ([`RollSquares::applies`]).
    fn begin(board: &Board) -> Option<Discovery> {
        if !RollSquares::applies(board) {
            return None;
        }
        Some(Discovery::over(board, common_denominator(board)?))
    }

    /// The start of a walk with the common denominator `denominator`.
    fn over(board: &Board, denominator: u64) -> Discovery {
        let start = board.rules().start;
        let mut index = vec![u32::MAX; board.size() as usize + 1];
        index[start as usize] = 0;
        Discovery {
            denominator,
            per_throw: denominator / board.dice().total(),
            index,
            squares: vec![start],
        }
    }

    /// The index of square `to`, found now (put after the others) or before.
    fn find(index: &mut [u32], squares: &mut Vec<Square>, to: Square) -> usize {
        let k = &mut index[to as usize];
        if *k == u32::MAX {
            *k = squares.len() as u32;
            squares.push(to);
        }
        *k as usize
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

/// Which squares reach the finish: backwards from the squares with a finishing roll (`direct`)
/// over the predecessor lists of `edges` (to, from) in compressed form (pred[first[j]..first[j
/// + 1]] lead to j).
fn finishing(direct: Vec<bool>, edges: &[(u32, u32)]) -> Vec<bool> {
    let m = direct.len();
    let mut first = vec![0u32; m + 1];
    for &(j, _) in edges {
        first[j as usize + 1] += 1;
    }
    for j in 0..m {
        first[j + 1] += first[j];
    }
    let mut fill = first.clone();
    let mut pred = vec![0u32; first[m] as usize];
    for &(j, i) in edges {
        pred[fill[j as usize] as usize] = i;
        fill[j as usize] += 1;
    }
    let mut queue: VecDeque<usize> = (0..m).filter(|&i| direct[i]).collect();
    let mut finishes = direct;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::RollAgain;
    use crate::board::{builtin, builtin_names, RuleOverrides};

    /// The one walk gives the roll-level form the squares and a second walk gave (the same
    /// squares, rolls, turn starts and finishing squares), on every built-in board, each under
    /// unlimited roll-again and under none, and on the 1,000-square benchmark boards.
    #[test]
    fn one_walk_gives_the_form_that_two_walks_gave() {
        let mut boards: Vec<Board> = builtin_names().map(|n| builtin(n).unwrap()).collect();
        for path in [
            "benches/boards/gen-1000.toml",
            "benches/boards/gen-1000-again.toml",
        ] {
            let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            boards.push(Board::from_toml_str(&text, &path).unwrap());
        }
        let mut checked = 0;
        for b in &boards {
            for roll_again in [None, Some(RollAgain::Unlimited), Some(RollAgain::None)] {
                let rules = RuleOverrides {
                    roll_again,
                    ..RuleOverrides::default()
                };
                let Ok(b) = b.with_rules(&rules) else {
                    continue;
                };
                let one = RollLevel::new(&b);
                assert_eq!(one, RollLevel::by_squares(&b), "{}", b.name());
                checked += usize::from(one.is_some());
            }
        }
        assert!(checked >= 20, "{checked} forms");
    }
}
