//! Where the game is spent: the expected number of turns begun on each square, and the expected
//! number of times each snake and ladder is taken.
//!
//! # Formula
//!
//! With Q the transient part of the turn chain and N = (I - Q)^-1 its fundamental matrix, N\[s\]\[j\]
//! is the expected number of turns begun on j in a game started from s (the start counted once,
//! as the first turn is begun there), so the visits are the start's row of N:
//! `v = e_s^T N`, one solve of the transposed system `(I - Q)^T v = e_s` (Kemeny and Snell,
//! *Finite Markov Chains*, 1960, theorem 3.2.4). Summed over the squares they give the expected
//! number of turns. On a stateful board (one-use jumps, points, lost or extra turns) the chain's
//! states are (square, what is used up, eaten or owed), and a square's visits are the sum over
//! its states.
//!
//! With no chance squares or tiles, a snake or ladder from a is taken once for every roll whose
//! move passes through a: its expected uses are `sum_i w_i P(a roll from i passes through a)`,
//! `w_i` the expected rolls begun on i (the visits, with one roll per turn).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use std::collections::BTreeMap;

use crate::board::{Board, Jump, Square};
use crate::chain::{on_player_chain, Chain, Memory, Rolls, Trap};
use crate::exact::solve::{
    identity_minus, solve, solve_float, transient_matrix, SparseRows, System, Wanted,
};
use crate::game::{roll, Capabilities, OnSquare, RollOutcome, SingleBoard};
use crate::num::decimal::to_f64;
use crate::num::gcd;

/// The expected visits of every square, and the expected uses of every jump when they are known.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Visits {
    /// Expected turns begun on each square that a turn can begin on, in square order.
    pub squares: Vec<(Square, BigRational)>,
    /// Expected uses of each snake and ladder (snakes first, then ladders, each in file order);
    /// `None` when the board's rules do not allow the count (see `jump_uses`).
    pub jumps: Option<Vec<(Jump, BigRational)>>,
}

/// Why the visits could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VisitsError {
    /// From some reachable square the game cannot end: visits there are infinite.
    #[error("the game can go on forever (from square {0} the finish cannot be reached): expected visits are infinite")]
    Infinite(Square),
    /// A turn from this square can go on for ever (no throw ends it): visits are infinite.
    #[error("the game can go on forever (a turn from square {0} can go on for ever): expected visits are infinite")]
    EndlessTurn(Square),
}

/// The error for a chain's `trap`: a turn that can go on for ever, or a square from which the
/// finish cannot be reached.
fn infinite<S: OnSquare>(trap: Trap<S>) -> VisitsError {
    match trap.endless_turn {
        true => VisitsError::EndlessTurn(trap.state.square()),
        false => VisitsError::Infinite(trap.state.square()),
    }
}

/// The expected number of turns begun on each square, and the expected uses of each jump.
///
/// # Errors
///
/// `VisitsError::Infinite` when the game can last forever.
///
/// # Examples
///
/// ```
/// use ladders::internals::visits;
/// use ladders::board::builtin;
/// use num_rational::BigRational;
/// // Tiny: from 0, a 1 climbs to 3 and a 2 slides back to 0; from 3 only a 1 finishes.
/// // Turns begun on 0 and on 3 are each a geometric wait for a 1: 2 each.
/// let v = visits(&builtin("tiny").unwrap()).unwrap();
/// let two = BigRational::from_integer(2.into());
/// assert_eq!(v.squares, vec![(0, two.clone()), (3, two)]);
/// ```
pub fn visits(board: &Board) -> Result<Visits, VisitsError> {
    let squares = square_visits(board)?;
    let jumps = jump_uses(board, &squares);
    Ok(Visits { squares, jumps })
}

/// The expected number of turns begun on each square, in square order ([`visits`] without the
/// jumps).
///
/// # Errors
///
/// [`VisitsError::Infinite`] when the game can last forever.
pub fn square_visits(board: &Board) -> Result<Vec<(Square, BigRational)>, VisitsError> {
    Ok(on_player_chain!(board, Memory::Full, |_, chain| {
        // The visits of the states on each square summed, in square order.
        let values = start_row(chain)?;
        let mut by_square: BTreeMap<Square, Vec<BigRational>> = BTreeMap::new();
        for (state, v) in chain.states().iter().zip(values) {
            by_square.entry(state.square()).or_default().push(v);
        }
        by_square
            .into_iter()
            .map(|(square, vs)| (square, gcd::sum(vs)))
            .collect()
    }))
}

/// The start's row of the fundamental matrix of `chain`: the expected turns begun in each
/// transient state, in state order (one solve of the transposed system).
///
/// # Errors
///
/// [`VisitsError::Infinite`] (with the square of the trap) when the game can last forever.
pub fn start_row<S: OnSquare>(chain: &Chain<S>) -> Result<Vec<BigRational>, VisitsError> {
    if let Some(trap) = chain.trap() {
        return Err(infinite(trap));
    }
    let t = chain.transient_count();
    if t == 0 {
        return Ok(Vec::new());
    }
    let a = reversed_transpose(&identity_minus(&transient_matrix(chain)));
    let mut e = vec![BigRational::zero(); t];
    e[t - 1 - chain.start()] = BigRational::one();
    let mut solved = solve(System::rational(&a, &[e]), &[Wanted::All])
        .expect("I - Q is nonsingular when the game always ends");
    let mut v = solved.swap_remove(0);
    v.reverse();
    Ok(v)
}

/// [`visits`] in floating point, for pictures of large boards (`draw --heat visits`): the same
/// transposed system, solved in floats (an iterative solve kept only when its residual passes
/// the backward-error test of `crate::prec::BACKWARD_ERROR`, else elimination). Per square, summed over
/// its states on a stateful board, in square order.
///
/// # Errors
///
/// `VisitsError::Infinite` when the game can last forever (found exactly, as in [`visits`]).
pub fn visits_float(board: &Board) -> Result<Vec<(Square, f64)>, VisitsError> {
    on_player_chain!(board, Memory::Full, |_, chain| start_row_float(chain))
}

/// [`start_row`] in floating point, summed per square.
fn start_row_float<S: OnSquare>(chain: &Chain<S>) -> Result<Vec<(Square, f64)>, VisitsError> {
    if let Some(trap) = chain.trap() {
        return Err(infinite(trap));
    }
    let t = chain.transient_count();
    let a = reversed_transpose(&identity_minus(&transient_matrix(chain)));
    let a: Vec<Vec<(usize, f64)>> = a
        .iter()
        .map(|row| row.iter().map(|(j, v)| (*j, to_f64(v))).collect())
        .collect();
    let mut by_square: BTreeMap<Square, f64> = BTreeMap::new();
    if t > 0 {
        let mut e = vec![0.0; t];
        e[t - 1 - chain.start()] = 1.0;
        let solved = solve_float(&a, &[e], None).expect("I - Q is nonsingular: the game ends");
        for (i, v) in solved[0].iter().rev().enumerate() {
            *by_square.entry(chain.states()[i].square()).or_insert(0.0) += v;
        }
    }
    Ok(by_square.into_iter().collect())
}

/// The transpose of a square sparse matrix with its indices reversed (i -> n - 1 - i): the
/// solver eliminates from the last variable to the first, and most moves go forward, so in the
/// reversed order the transposed system is as nearly triangular as the original.
fn reversed_transpose(a: &SparseRows) -> SparseRows {
    let n = a.len();
    let mut t: SparseRows = vec![Vec::new(); n];
    for (i, row) in a.iter().enumerate() {
        for (j, v) in row {
            t[n - 1 - *j].push((n - 1 - i, v.clone()));
        }
    }
    for row in &mut t {
        row.sort_by_key(|(j, _)| *j);
    }
    t
}

/// The expected uses of each jump from the turns begun on each square (`visits`), when every
/// roll is decided by the dice alone (no chance square, no tiles), the square is the whole state
/// and no forfeit sends the token back: `None` otherwise, and `None` when a roll's chain of jumps
/// cannot be told apart from another's by its counts. With one roll a turn the rolls begun on a
/// square are the turns begun there; else they are the start's row of the game's chain roll by
/// roll ([`Rolls`]), summed by square.
pub fn jump_uses(
    board: &Board,
    visits: &[(Square, BigRational)],
) -> Option<Vec<(Jump, BigRational)>> {
    let caps = Capabilities::of(board);
    let rolls: Vec<(Square, BigRational)> = match caps.one_roll_turns() {
        true => visits.to_vec(),
        false if caps.stateless && caps.memoryless_turns() => {
            let game = SingleBoard::new(board);
            let chain = Rolls::new(&game, &caps).chain(usize::MAX).ok()?;
            let mut by_square: BTreeMap<Square, BigRational> = BTreeMap::new();
            for (state, v) in chain.states().iter().zip(start_row(&chain).ok()?) {
                *by_square.entry(state.square()).or_default() += v;
            }
            by_square.into_iter().collect()
        }
        false => return None,
    };
    let from: Vec<Square> = rolls.iter().map(|(s, _)| *s).collect();
    let (jumps, passes) = jump_passes(board, &from)?;
    let uses = passes
        .iter()
        .map(|r| gcd::dot(r.iter().zip(rolls.iter().map(|(_, v)| v))));
    Some(jumps.into_iter().zip(uses).collect())
}

/// The snakes and ladders (snakes first, then ladders, each in file order) and, for each, the
/// probability that a roll from each square of `from` takes it, under the conditions of
/// [`jump_uses`] (`None` otherwise).
#[allow(clippy::type_complexity)]
pub fn jump_passes(board: &Board, from: &[Square]) -> Option<(Vec<Jump>, Vec<Vec<BigRational>>)> {
    let caps = Capabilities::of(board);
    if !caps.memoryless_turns() || !caps.deterministic || !caps.stateless {
        return None;
    }
    let jumps = all_jumps(board);
    let mut passes = vec![vec![BigRational::zero(); from.len()]; jumps.len()];
    let dice = board.dice();
    let total = BigInt::from(dice.total());
    for (i, square) in from.iter().enumerate() {
        for throw in dice.throws() {
            let outcome = roll(board, *square, throw.sum).sure_outcome()?;
            if outcome.snakes + outcome.ladders == 0 {
                continue;
            }
            let p = BigRational::new(BigInt::from(throw.weight), total.clone());
            for k in path_of(board, &jumps, &outcome)? {
                passes[k][i] += &p;
            }
        }
    }
    Some((jumps, passes))
}

/// The snakes, then the ladders, each in file order.
pub fn all_jumps(board: &Board) -> Vec<Jump> {
    board
        .snakes()
        .iter()
        .chain(board.ladders())
        .copied()
        .collect()
}

/// The jumps (indices into `jumps`) a roll took, found from its outcome: the one chain of jumps,
/// started at some jump's start and followed as the rules follow them, that ends where the
/// outcome ends with the same counts. `None` when no chain or several chains fit.
fn path_of(board: &Board, jumps: &[Jump], outcome: &RollOutcome) -> Option<Vec<usize>> {
    let index = |from: Square| jumps.iter().position(|j| j.from == from);
    let mut found: Option<Vec<usize>> = None;
    for first in 0..jumps.len() {
        let mut path = vec![first];
        let mut at = jumps[first].to;
        while board.rules().chain && path.len() <= jumps.len() {
            match index(at) {
                Some(k) => {
                    path.push(k);
                    at = jumps[k].to;
                }
                None => break,
            }
        }
        let taken: Vec<Jump> = path.iter().map(|&k| jumps[k]).collect();
        let snakes = taken.iter().filter(|j| j.to < j.from).count() as u32;
        let slid: u32 = taken
            .iter()
            .filter(|j| j.to < j.from)
            .map(|j| j.from - j.to)
            .sum();
        let climbed: u32 = taken
            .iter()
            .filter(|j| j.to > j.from)
            .map(|j| j.to - j.from)
            .sum();
        let fits = at == outcome.to
            && snakes == outcome.snakes
            && taken.len() as u32 - snakes == outcome.ladders
            && slid == outcome.slid
            && climbed == outcome.climbed;
        if fits {
            if found.is_some() {
                return None;
            }
            found = Some(path);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::expectation::{expect, Expectation};
    use crate::board::{builtin, builtin_names};
    use crate::exact::solve::SparseLu;
    use crate::test_util::q;

    #[test]
    fn tiny_by_hand() {
        // From 0: a 1 (1/2) climbs 1 -> 3, a 2 slides 2 -> 0. From 3: a 1 finishes, a 2 stays.
        // Turns begun on 0: a geometric wait for a 1, 2 on average; on 3 likewise: 2. The ladder
        // and the snake are each taken from 0 with probability 1/2 per turn: 2 * 1/2 = 1 use.
        let v = visits(&builtin("tiny").unwrap()).unwrap();
        assert_eq!(v.squares, vec![(0, q(2, 1)), (3, q(2, 1))]);
        let jumps = v.jumps.unwrap();
        assert_eq!(jumps[0], (Jump { from: 2, to: 0 }, q(1, 1)));
        assert_eq!(jumps[1], (Jump { from: 1, to: 3 }, q(1, 1)));
    }

    #[test]
    fn visits_are_the_start_row_of_the_fundamental_matrix_solved_column_by_column() {
        // Second method: column j of N = (I - Q)^-1 is the solution of (I - Q) x = e_j (the
        // untransposed system, factored by the reference LU); its start component is N[s][j].
        let board = builtin("efi").unwrap();
        let chain = Chain::for_board(&board);
        let lu = SparseLu::factor(&transient_matrix(&chain)).unwrap();
        let v = visits(&board).unwrap();
        let t = chain.transient_count();
        assert_eq!(v.squares.len(), t);
        for (j, (square, value)) in v.squares.iter().enumerate() {
            assert_eq!(*square, chain.states()[j]);
            let mut e = vec![BigRational::zero(); t];
            e[j] = BigRational::one();
            assert_eq!(lu.solve(&e)[chain.start()], *value, "square {square}");
        }
    }

    #[test]
    fn on_every_builtin_board_visits_sum_to_the_expected_turns_and_uses_to_the_jumps_taken() {
        for name in builtin_names() {
            let board = builtin(name).unwrap();
            let Expectation::Finite(e) = expect(&board) else {
                panic!("{name}")
            };
            let v = visits(&board).unwrap();
            let total: BigRational = v.squares.iter().map(|(_, x)| x).sum();
            assert_eq!(total, e.turns, "{name}");
            let Some(jumps) = v.jumps else {
                // Only boards with roll-again or draws, and stateful boards (seed-003: visits
                // summed over each square's states), have no per-jump counts.
                let caps = Capabilities::of(&board);
                assert!(
                    caps.rolls_again || !caps.deterministic || !caps.stateless,
                    "{name}"
                );
                continue;
            };
            // Second method: the expectation's own counts (from the turn rewards).
            let mut sums = [
                BigRational::zero(),
                BigRational::zero(),
                BigRational::zero(),
                BigRational::zero(),
            ];
            for (j, uses) in &jumps {
                let length = BigRational::from_integer(j.from.abs_diff(j.to).into());
                let k = usize::from(j.to > j.from);
                sums[k] += uses;
                sums[2 + k] += uses * length;
            }
            assert_eq!(sums[0], e.snakes, "{name}");
            assert_eq!(sums[1], e.ladders, "{name}");
            assert_eq!(sums[2], e.slid, "{name}");
            assert_eq!(sums[3], e.climbed, "{name}");
        }
    }

    #[test]
    fn a_jump_is_used_its_foots_landings_times() {
        // Milton Bradley has no chained jumps, so a jump from a is taken exactly when a roll
        // lands on a: its uses are sum over squares i of visits(i) * P(i + throw = a).
        let board = builtin("milton-bradley").unwrap();
        let v = visits(&board).unwrap();
        for (jump, uses) in v.jumps.unwrap() {
            let landing: BigRational = v
                .squares
                .iter()
                .filter(|(i, _)| *i < jump.from && jump.from - *i <= 6)
                .map(|(_, x)| x * q(1, 6))
                .sum();
            assert_eq!(uses, landing, "{jump:?}");
        }
    }

    #[test]
    fn on_a_stateful_board_visits_sum_to_the_expected_turns() {
        // Second method: the stateful expectation's turns (its own solve, untransposed).
        let board = crate::board::Board::from_toml_str(
            "size = 20\nsnakes = [[17, 3]]\nladders = [[4, 14]]\nonce = [4]\n\
             points = [[8, 5]]\nlose_turn = [11]\nextra_turn = [6]\n",
            "stateful",
        )
        .unwrap();
        let Expectation::Finite(e) = expect(&board) else {
            panic!()
        };
        let v = visits(&board).unwrap();
        let total: BigRational = v.squares.iter().map(|(_, x)| x).sum();
        assert_eq!(total, e.turns);
        assert!(v.jumps.is_none());
        // Squares in order, each once; 11 (a lost turn) is stood on for two turns when reached.
        assert!(v.squares.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(v.squares.iter().any(|(s, _)| *s == 11));
    }

    #[test]
    fn a_game_that_can_last_forever_has_no_visits() {
        // A coin on 4 squares: from 1, heads lands on 2 and tails on 3, and both snakes lead
        // back to 1 (from 0 likewise). The finish cannot be reached from the start.
        let trap = crate::board::Board::from_toml_str(
            "size = 4\nsnakes = [[2, 1], [3, 1]]\n[rules]\ndie = 2\n",
            "trap",
        )
        .unwrap();
        assert_eq!(visits(&trap), Err(VisitsError::Infinite(0)));
    }
}
