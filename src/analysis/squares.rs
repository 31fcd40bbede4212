//! Per-square answers: for each square the expected turns begun there, the probability that a
//! roll's move ever ends there and the expected turns left from there; for each snake and ladder
//! its expected uses and the probability it is ever taken; and the law of the token's square
//! after n turns.
//!
//! # Formulas
//!
//! With N = (I - Q)^-1 the fundamental matrix of the turn chain and s the start:
//!
//! - visits: `v_j = N[s][j]` ([`super::visits`]);
//! - reach: on the game's chain roll by roll ([`crate::chain::Rolls`]; N its fundamental matrix
//!   here) H_j are the states a move ending on j leads to, each entered only so (a state
//!   remembers the square the last move ended on; the start is in none), and the probability
//!   that a move ever ends on j is `N[s][H_j] N[H_j][H_j]^-1 1` (the expected entries into each
//!   state of H_j split by the state of the first entry). With one roll per turn H_j is the one
//!   state j: for j != s the probability that the chain ever visits j, `N[s][j] / N[j][j]`
//!   (Kemeny and Snell, *Finite Markov Chains*, theorem 3.5.4), and for the start the
//!   probability of standing there again after some turn, `1 - 1 / N[s][s]`. The finish is
//!   reached with probability 1. `N[.][h]` is the solution of `(I - Q) x = e_h`;
//! - a jump J is taken on a roll from state i with probability `r_J(i)`; its expected uses from
//!   any state are `U_J = N r_J`, and when after its first use the game is in one state `e_J`
//!   (the end of J's chain of jumps, with no forfeit to remember and nothing but the square),
//!   `U_J(s) = P(J taken) (1 + U_J(e_J))`, so `P(J taken) = U_J(s) / (1 + U_J(e_J))`;
//! - occupancy after n turns: the start's row of `P^n`, stepped in integers (`D P` is an integer
//!   matrix for the chain's common denominator D, so the row is an integer vector over `D^n`).

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::Serialize;

use super::expectation::{expect_with, Expectation};
use super::visits::{jump_passes, square_visits, VisitsError};
use crate::board::{Board, Jump, Square};
use crate::chain::{
    on_player_chain, on_player_game, Chain, ChainState, Memory, Rolled, Rolls, TurnModel,
};
use crate::exact::solve::{identity_minus, solve, transient_matrix, SparseRows, System, Wanted};
use crate::game::{Capabilities, OnSquare, RollGame};

/// The most transient squares for which the reach probabilities are solved (one right-hand side
/// per square).
pub const REACH_LIMIT: usize = 2_000;

/// The answers of one square.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct SquareAnswer {
    /// The square.
    pub square: Square,
    /// Expected turns begun on it (the start counted once).
    #[serde(serialize_with = "crate::num::json::exact")]
    pub visits: BigRational,
    /// Probability that a roll's move ever ends on it (see the module's formulas); `None` when
    /// not computed ([`SquareAnswers::no_reach`]).
    #[serde(serialize_with = "crate::num::json::exact_option")]
    pub reach: Option<BigRational>,
    /// Expected turns left from it (on a stateful board: with nothing used up, eaten or owed).
    #[serde(serialize_with = "crate::num::json::exact")]
    pub remaining: BigRational,
}

/// The answers of one snake or ladder (serialized with the jump's squares and its `kind`,
/// `"snake"` or `"ladder"`, beside them).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct JumpAnswer {
    /// The jump.
    #[serde(flatten, serialize_with = "crate::board::jump_with_kind")]
    pub jump: Jump,
    /// Expected number of times it is taken in a game.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub uses: BigRational,
    /// Probability that it is taken at least once.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub taken: BigRational,
}

/// Why the reach probabilities (and the jumps' answers) are missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum NoReach {
    /// The board's state is more than its square (jumps only: a jump's uses after the first
    /// depend on what the game remembers then).
    Stateful,
    /// The K-th top throw in a row sends the token back (`roll_again = K`; jumps only: a jump's
    /// uses after the first depend on the turn it was taken in).
    Forfeits,
    /// A jump takes a turn of its own (`jump_takes_turn`): a token stands on a jump's start
    /// between turns.
    JumpTurns,
    /// More transient squares than `REACH_LIMIT`.
    TooLarge(usize),
    /// More states between rolls than `REACH_LIMIT` (the start's own state aside): a turn's
    /// rolls, or what the game remembers, multiply the squares.
    TooManyStates,
    /// Chance squares or tiles: a roll's jumps are not decided by the dice (jumps only).
    Draws,
}

impl std::fmt::Display for NoReach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoReach::Stateful => write!(
                f,
                "the board has one-use jumps, points, lost or extra turns"
            ),
            NoReach::Forfeits => write!(
                f,
                "the K-th top throw in a row sends the token back (roll_again = K)"
            ),
            NoReach::JumpTurns => write!(f, "a jump takes a turn of its own (jump_takes_turn)"),
            NoReach::TooLarge(t) => write!(
                f,
                "{t} squares to solve for, over the limit of {REACH_LIMIT}"
            ),
            NoReach::TooManyStates => write!(
                f,
                "more than {REACH_LIMIT} states of the game between rolls to solve for"
            ),
            NoReach::Draws => write!(f, "chance squares or tiles decide some jumps"),
        }
    }
}

/// Every per-square answer of a board.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct SquareAnswers {
    /// Every square a turn can begin on, then the finish, in square order.
    pub squares: Vec<SquareAnswer>,
    /// The answers of each snake and ladder (snakes first, then ladders, each in file order),
    /// when computed.
    pub jumps: Option<Vec<JumpAnswer>>,
    /// Why the reach probabilities are missing, if they are (serialized as
    /// `reach_not_computed`, the reason in words).
    #[serde(rename = "reach_not_computed", serialize_with = "reason_text")]
    pub no_reach: Option<NoReach>,
    /// Why the jumps' answers are missing, if they are (`jumps_not_computed`, in words).
    #[serde(rename = "jumps_not_computed", serialize_with = "reason_text")]
    pub no_jumps: Option<NoReach>,
}

/// A missing answer's reason in words ([`NoReach`]'s `Display`), or `null`.
fn reason_text<S: serde::Serializer>(
    reason: &Option<NoReach>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    reason.map(|r| r.to_string()).serialize(serializer)
}

/// The estimated seconds past which [`check_square_answers`] refuses: what is left of a minute
/// for building the chain, the reach probabilities and the report.
pub const SQUARES_SECONDS_LIMIT: f64 = 30.0;

/// [`square_answers`] would take too long (estimated before starting).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error(
    "the per-square answers would take about {seconds:.0} s on this board (the exact visits and \
     expectations of each of its {states} transient states, estimated before starting; answered \
     up to about {SQUARES_SECONDS_LIMIT:.0} s)"
)]
pub struct SquaresTooLong {
    /// The estimated seconds.
    pub seconds: f64,
    /// The transient states.
    pub states: usize,
}

/// The estimated seconds of [`square_answers`] on a square-only board's `chain`: six times one
/// exact solve ([`crate::analysis::moments::exact_solve_seconds`]). The visits and the
/// expectations per square are two solves of every component, each rebuilt as a fraction of
/// tens of thousands of digits at 10,000 squares; measured (user CPU, 29 Nov, load 8 to 16) on
/// `benches/boards/gen-10000.toml` with its rules changed, against one solve's estimate: a d6
/// 8.3 s (5.8 solves), a loaded die 8.1 s (4.2), ten chance squares 6.8 s (4.8), bounce 8.1 s
/// (5.7), two dice about 35 s (3.4; estimated 21 s by two solves, it was answered).
fn squares_seconds<S: ChainState>(chain: &Chain<S>) -> f64 {
    6.0 * crate::analysis::moments::exact_solve_seconds(chain)
}

/// Refuses, before any solve, a square-only board whose per-square answers
/// ([`squares_seconds`]) would take more than about [`SQUARES_SECONDS_LIMIT`]; the estimated
/// seconds otherwise. Boards that change during a game are estimated by
/// [`crate::analysis::stateful_fits`] (`None` here).
///
/// # Errors
///
/// [`SquaresTooLong`] with the estimate.
pub fn check_square_answers(board: &Board) -> Result<Option<f64>, SquaresTooLong> {
    if !Capabilities::of(board).stateless {
        return Ok(None);
    }
    let chain = Chain::for_board(board);
    let seconds = squares_seconds(&chain);
    if seconds > SQUARES_SECONDS_LIMIT {
        return Err(SquaresTooLong {
            seconds,
            states: chain.transient_count(),
        });
    }
    Ok(Some(seconds))
}

/// The per-square answers of `board`.
///
/// # Errors
///
/// `VisitsError::Infinite` when the game can last forever.
pub fn square_answers(board: &Board) -> Result<SquareAnswers, VisitsError> {
    // The whole command's stage: its solves report their own, but between them (the visits'
    // reconstruction, the expectations' per square) no unit is finished for seconds on a
    // large board.
    let stage = crate::progress::Stage::begin("per-square answers", Some(3));
    // The visits alone: the jumps' answers come from the landings below.
    let visits = square_visits(board)?;
    stage.advance(1);
    let Expectation::Finite(e) = expect_with(board, true) else {
        unreachable!("visits are finite, so is the expectation")
    };
    stage.advance(2);
    let remaining: BTreeMap<Square, BigRational> = e.per_square.iter().cloned().collect();
    let landings = match visits.len() {
        t if t > REACH_LIMIT => Err(NoReach::TooLarge(t)),
        _ => on_player_game!(board, |game| landings(board, game)),
    };
    let (reach, no_reach, jumps) = match landings {
        Ok(found) => (Some(found.reach), None, found.jumps),
        Err(why) => (
            None,
            Some(why),
            Err(jumps_refused(board, &Capabilities::of(board)).unwrap_or(why)),
        ),
    };
    let mut squares: Vec<SquareAnswer> = visits
        .iter()
        .map(|(s, visits)| SquareAnswer {
            square: *s,
            visits: visits.clone(),
            reach: reach
                .as_ref()
                .map(|r| r.get(s).cloned().unwrap_or_default()),
            remaining: remaining.get(s).cloned().unwrap_or_else(BigRational::zero),
        })
        .collect();
    squares.push(SquareAnswer {
        square: board.size(),
        visits: BigRational::zero(),
        reach: reach.as_ref().map(|_| BigRational::one()),
        remaining: BigRational::zero(),
    });
    Ok(SquareAnswers {
        squares,
        no_reach,
        no_jumps: jumps.as_ref().err().copied(),
        jumps: jumps.ok(),
    })
}

/// What the game's landings give: the probability that a roll's move ever ends on each square
/// (the squares no move can end on left out), and the jumps' answers or why they are missing.
struct Landings {
    reach: BTreeMap<Square, BigRational>,
    jumps: Result<Vec<JumpAnswer>, NoReach>,
}

/// The landings of `game` (the game of `board`), from its chain roll by roll
/// ([`crate::chain::Rolls`]): with `N` its fundamental matrix, `s` the start and `H_j` the
/// states a move ending on j leads to (each entered only so, as the state remembers the square
/// the last move ended on; the start is in none), the chance of ever entering `H_j` is
/// `N[s][H_j] N[H_j][H_j]^-1 1` (the expected entries into each state of `H_j`, split by the
/// state the first entry is in). With one roll per turn `H_j` is the one state j: the
/// module's `N[s][j] / N[j][j]`.
fn landings<G>(board: &Board, game: &G) -> Result<Landings, NoReach>
where
    G: RollGame + TurnModel<State = <G as RollGame>::State>,
    <G as RollGame>::State: OnSquare,
{
    let capabilities = Capabilities::of(board);
    let too_many = NoReach::TooManyStates;
    // The start's own state besides: with one roll a turn, the chain of the squares.
    let chain = Rolls::new(game, &capabilities)
        .chain(2 * REACH_LIMIT)
        .map_err(|_| too_many)?;
    let t = chain.transient_count();
    if t > REACH_LIMIT + 1 {
        return Err(too_many);
    }
    let mut entered: BTreeMap<Square, Vec<usize>> = BTreeMap::new();
    for (i, state) in chain.states()[..t].iter().enumerate() {
        if let Some(j) = state.landed {
            entered.entry(j).or_default().push(i);
        }
    }
    let passes = jump_rates(board, &capabilities, &chain);
    // Right-hand sides: e_h for every state of every H_j (its components in H_j and the
    // start's wanted: column h of N), then r_J for every jump (components s and the state after
    // J wanted).
    let mut rhs: Vec<(Vec<BigRational>, Vec<usize>)> = Vec::new();
    for states in entered.values() {
        for &h in states {
            let mut e = vec![BigRational::zero(); t];
            e[h] = BigRational::one();
            let mut wanted = states.clone();
            wanted.push(chain.start());
            rhs.push((e, wanted));
        }
    }
    if let Ok((_, rates, after)) = &passes {
        for (r, after) in rates.iter().zip(after) {
            let mut wanted = vec![chain.start()];
            wanted.extend(after.filter(|&k| k < t));
            rhs.push((r.clone(), wanted));
        }
    }
    let solved = solve_in_batches(&identity_minus(&transient_matrix(&chain)), &rhs);
    let mut columns = solved.iter();
    let reach = entered
        .iter()
        .map(|(&j, states)| {
            let block: Vec<&Vec<BigRational>> = columns.by_ref().take(states.len()).collect();
            let first: Vec<&BigRational> =
                block.iter().map(|column| &column[states.len()]).collect();
            (j, first_entry(&first, &block))
        })
        .collect();
    let jumps = passes.map(|(jumps, _, _)| {
        jumps
            .into_iter()
            .zip(columns)
            .map(|(jump, u)| {
                let after = u.get(1).cloned().unwrap_or_else(BigRational::zero);
                JumpAnswer {
                    jump,
                    uses: u[0].clone(),
                    taken: &u[0] / (BigRational::one() + after),
                }
            })
            .collect()
    });
    Ok(Landings { reach, jumps })
}

/// The chance of ever entering a set H of states from the start, from the expected entries
/// `first[b] = N[s][h_b]` and the set's block `block[b][a] = N[h_a][h_b]` (column b): `first
/// N[H][H]^-1 1`, with one exact solve when H has more than one state.
fn first_entry(first: &[&BigRational], block: &[&Vec<BigRational>]) -> BigRational {
    if let ([n_s], [column]) = (first, block) {
        return *n_s / &column[0];
    }
    let m = first.len();
    let rows: SparseRows = (0..m)
        .map(|a| (0..m).map(|b| (b, block[b][a].clone())).collect())
        .collect();
    let ones = vec![BigRational::one(); m];
    let z = solve(System::rational(&rows, &[ones]), &[Wanted::All])
        .expect("N[H][H] is nonsingular: a principal block of a fundamental matrix");
    first.iter().zip(&z[0]).map(|(f, z)| *f * z).sum()
}

/// The solutions of `a x = b` for every right-hand side of `rhs`, each with its wanted
/// components, in batches of 64 so that the dense right-hand sides stay small on a large board.
fn solve_in_batches(
    a: &SparseRows,
    rhs: &[(Vec<BigRational>, Vec<usize>)],
) -> Vec<Vec<BigRational>> {
    let mut solved: Vec<Vec<BigRational>> = Vec::with_capacity(rhs.len());
    let stage = crate::progress::Stage::begin("solving square by square", Some(rhs.len() as u64));
    for batch in rhs.chunks(64) {
        stage.advance(solved.len() as u64);
        let b: Vec<Vec<BigRational>> = batch.iter().map(|(e, _)| e.clone()).collect();
        let wanted: Vec<Wanted<'_>> = batch.iter().map(|(_, w)| Wanted::Some(w)).collect();
        solved.extend(
            solve(System::rational(a, &b), &wanted).expect("I - Q is nonsingular: the game ends"),
        );
    }
    solved
}

/// Why the jumps' answers are not computed on `board` whatever its size, if they are not: a
/// jump's uses after its first would depend on more than the square it leads to.
fn jumps_refused(board: &Board, capabilities: &Capabilities) -> Option<NoReach> {
    if board.rules().jump_takes_turn {
        Some(NoReach::JumpTurns)
    } else if !capabilities.stateless {
        Some(NoReach::Stateful)
    } else if !capabilities.memoryless_turns() {
        Some(NoReach::Forfeits)
    } else {
        None
    }
}

/// The snakes and ladders, for each the chance that a roll from each transient state of the
/// roll-by-roll `chain` takes it, and the state a roll that takes it leads to (one state, so
/// that its uses after the first are those from there): when the game is the square alone, a
/// roll is decided by its throw and no forfeit sends the token back (else why not).
#[allow(clippy::type_complexity)]
fn jump_rates<S: OnSquare>(
    board: &Board,
    capabilities: &Capabilities,
    chain: &Chain<Rolled<S>>,
) -> Result<(Vec<Jump>, Vec<Vec<BigRational>>, Vec<Option<usize>>), NoReach> {
    if let Some(why) = jumps_refused(board, capabilities) {
        return Err(why);
    }
    let t = chain.transient_count();
    let from: Vec<Square> = chain.states()[..t].iter().map(|s| s.square()).collect();
    let (jumps, rates) = jump_passes(board, &from).ok_or(NoReach::Draws)?;
    let after = jumps
        .iter()
        .map(|&jump| {
            let end = chain_end(board, jump);
            chain
                .states()
                .iter()
                .position(|s| s.landed == Some(end) && s.square() == end)
        })
        .collect();
    Ok((jumps, rates, after))
}

/// Where a move that takes `jump` ends: its end, followed along the jumps there when jumps
/// chain (the board has no draws here, so this is decided).
pub fn chain_end(board: &Board, jump: Jump) -> Square {
    let mut at = jump.to;
    let mut steps = 0;
    while board.rules().chain && steps <= board.snakes().len() + board.ladders().len() {
        match board.jump_from(at) {
            Some(to) => at = to,
            None => break,
        }
        steps += 1;
    }
    at
}

/// Where the token is after a number of turns (`squares --after N`, `Game::squares_after`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Occupancy {
    /// The turns played.
    pub after: usize,
    /// Each square the token can stand on then (the finish included once reached), in square
    /// order, with its exact probability; squares of probability 0 left out.
    pub law: Vec<SquareChance>,
}

/// One square of an [`Occupancy`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SquareChance {
    /// The square.
    pub square: Square,
    /// The probability of standing on it.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub p: BigRational,
}

impl Occupancy {
    /// The law `occupancy` gives after `after` turns.
    pub fn of(after: usize, law: Vec<(Square, BigRational)>) -> Occupancy {
        Occupancy {
            after,
            law: law
                .into_iter()
                .map(|(square, p)| SquareChance { square, p })
                .collect(),
        }
    }
}

/// The law of the token's square after `n` turns (the finish included once reached), in square
/// order, squares of probability 0 left out.
pub fn occupancy(board: &Board, n: usize) -> Vec<(Square, BigRational)> {
    on_player_chain!(board, Memory::Full, |_, chain| occupancy_of(chain, n))
}

/// The start's row of `P^n` for `chain`, summed by square.
fn occupancy_of<S: OnSquare>(chain: &Chain<S>, n: usize) -> Vec<(Square, BigRational)> {
    let d = chain.common_denominator();
    let rows: Vec<Vec<(usize, BigInt)>> = chain
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .map(|(j, p)| (*j, p.numer() * (&d / p.denom())))
                .collect()
        })
        .collect();
    let t = chain.transient_count();
    let mut x = vec![BigInt::zero(); chain.states().len()];
    x[chain.start()] = BigInt::one();
    // Each turn's numbers are a turn's denominator longer than the last: `squares --after` and
    // `draw --heat after` with many turns ran for minutes without a word.
    let stage = crate::progress::Stage::begin("the law turn by turn", Some(n as u64));
    for turn in 0..n {
        stage.advance(turn as u64);
        let mut y = vec![BigInt::zero(); x.len()];
        for (i, xi) in x.iter().enumerate() {
            if xi.is_zero() {
                continue;
            }
            if i < t {
                for (j, m) in &rows[i] {
                    y[*j] += xi * m;
                }
            } else {
                y[i] += xi * &d;
            }
        }
        x = y;
    }
    let scale = num_traits::pow(d, n);
    let mut by_square: BTreeMap<Square, BigInt> = BTreeMap::new();
    for (state, xi) in chain.states().iter().zip(x) {
        if !xi.is_zero() {
            *by_square.entry(state.square()).or_insert_with(BigInt::zero) += xi;
        }
    }
    by_square
        .into_iter()
        .map(|(s, xi)| (s, BigRational::new(xi, scale.clone())))
        .collect()
}

#[cfg(test)]
mod tests;
