//! Expected turns and the other expectations of a game on one board (DESIGN.md section 3).
//!
//! # Formula
//!
//! With Q the transient part of the turn chain and N = (I - Q)^-1:
//! - expected turns `t = N 1`, i.e. `(I - Q) t = 1`;
//! - second moment: `(I - Q) u = t`, `E[T^2] = 2u - t`, `Var T = 2u - t - t^2`;
//! - expected rolls, snakes, ladders, squares climbed and slid: `N r` for the per-turn reward r.
//!
//! Reference: J. G. Kemeny and J. L. Snell, *Finite Markov Chains* (1960), theorem 3.3.5.

mod turns;
pub use turns::{exact_mean, exact_mean_on, expected_turns};

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::float_trust::{trust, Figures, FloatUntrusted, Trust, MAX_DIGITS};
use super::fundamental::expected_rewards;
use super::moments::{exact_solve_seconds, SECONDS_LIMIT};
use crate::board::{Board, Square};
use crate::chain::{
    on_player_chain, Chain, ChainState, Ends, Memory, RollLevel, RollMove, RollSquares, Trap,
    TurnRewards,
};
use crate::exact::solve::{
    identity_minus, solve, transient_matrix, Chained, SparseRows, System, Wanted,
};
use crate::game::{Capabilities, OnSquare};
use crate::num::gcd;

/// The expectations of a game that ends with probability 1; `S` is the chain's state (a square
/// for one player on a board).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(bound(serialize = "S: serde::Serialize"))]
#[non_exhaustive]
pub struct Expectations<S = Square> {
    /// E\[T\], turns from the start.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub turns: BigRational,
    /// Var\[T\].
    #[serde(serialize_with = "crate::num::json::exact")]
    pub variance: BigRational,
    /// Expected rolls (forfeited rolls included).
    #[serde(serialize_with = "crate::num::json::exact")]
    pub rolls: BigRational,
    /// Expected snakes taken.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub snakes: BigRational,
    /// Expected ladders taken.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub ladders: BigRational,
    /// Expected squares climbed by ladders.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub climbed: BigRational,
    /// Expected squares slid down by snakes.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub slid: BigRational,
    /// Expected remaining turns from every reachable state that is not final, by state.
    #[serde(serialize_with = "crate::num::json::exact_by_state")]
    pub per_square: Vec<(S, BigRational)>,
}

/// The answer to "how long is a game on this board?".
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Expectation<S = Square> {
    /// The game ends with probability 1; here are its expectations.
    Finite(Box<Expectations<S>>),
    /// From some reachable state the game cannot end: it can last forever with positive
    /// probability, and the expected length is infinite.
    Infinite(Trap<S>),
}

/// Computes the exact expectations of one player's game on `board`, the expected remaining
/// turns from every reachable square included.
///
/// # Examples
///
/// ```
/// use ladders::internals::expect;
/// use ladders::analysis::Expectation;
/// use ladders::board::builtin;
/// use num_rational::BigRational;
/// let tiny = builtin("tiny").unwrap();
/// let Expectation::Finite(e) = expect(&tiny) else { panic!() };
/// assert_eq!(e.turns, BigRational::from_integer(4.into()));
/// assert_eq!(e.variance, BigRational::from_integer(4.into()));
/// ```
pub fn expect(board: &Board) -> Expectation {
    expect_with(board, true)
}

/// Computes the exact expectations of one player's game on `board`; `per_square` says whether
/// to fill [`Expectations::per_square`] (on large boards it costs more than the rest).
///
/// The exact solve of a board without a roll-level form (`roll_again = K`: its turn chain's
/// `I - Q`, whose rows list every square a turn can end on) would take longer than about
/// `SECONDS_LIMIT` (estimated before starting, `exact_solve_seconds`).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error(
    "the exact solve would take about {seconds:.0} s on this board (the turn chain's {states} \
     transient states, estimated before starting; answered up to about {SECONDS_LIMIT:.0} s)"
)]
pub struct SolveTooLong {
    /// The estimated seconds.
    pub seconds: f64,
    /// The transient states of the turn chain.
    pub states: usize,
}

/// Refuses, before any solve, a board whose expectations [`expect_with`] solves on the turn
/// chain (its player's state is its square, but it has no roll-level form: `roll_again = K`)
/// when that solve would take more than about [`SECONDS_LIMIT`]: 34 s estimated (25 to 34 s
/// of CPU measured) for `roll_again = 3` on `benches/boards/gen-10000.toml`, where the lifting
/// steps through 1.4 million entries of the factors 4,930 times. Other boards pass at once.
///
/// # Errors
///
/// [`SolveTooLong`] with the estimate.
pub fn check_exact_solve(board: &Board) -> Result<(), SolveTooLong> {
    check_exact_solve_on(board, None::<&Chain<Square>>)
}

/// [`check_exact_solve`], on `chain` when given: `board`'s turn chain, already built.
///
/// # Errors
///
/// [`SolveTooLong`] with the estimate.
pub fn check_exact_solve_on<S: ChainState>(
    board: &Board,
    chain: Option<&Chain<S>>,
) -> Result<(), SolveTooLong> {
    if !Capabilities::of(board).stateless || RollSquares::applies(board) {
        return Ok(());
    }
    match chain {
        Some(chain) => turn_chain_solve_fits(chain),
        None => turn_chain_solve_fits(&Chain::for_board(board)),
    }
}

/// [`check_exact_solve`] on a turn chain (a chain from which the game can go on for ever
/// passes: its expectation is infinite, found without a solve).
fn turn_chain_solve_fits<S: ChainState>(chain: &Chain<S>) -> Result<(), SolveTooLong> {
    if chain.trap().is_some() {
        // An infinite expectation is answered without a solve.
        return Ok(());
    }
    let seconds = exact_solve_seconds(chain);
    match seconds > SECONDS_LIMIT {
        true => Err(SolveTooLong {
            seconds,
            states: chain.transient_count(),
        }),
        false => Ok(()),
    }
}

/// With `roll_again` none or unlimited the system solved is the roll-level one of
/// [`RollLevel`] (sparse, small integers); with `roll_again = K` it is the turn chain's
/// `I - Q`. Either way [`solve`] solves for every expectation at once, the second moment
/// through the block system
///
/// ```text
/// [ I - Q    0   ] [t]   [1]
/// [ -I     I - Q ] [u] = [0]
/// ```
///
/// (in roll-level form: `A t = F (I - S) 1`, `A u = F (I - S) t` with `A = F (I - S - R)`),
/// solved as a chained solve: one factorisation per prime serves both.
pub fn expect_with(board: &Board, per_square: bool) -> Expectation {
    match RollLevel::new(board) {
        Some(rl) if rl.always_ends() => match rl.start {
            None => zero_game(),
            Some(start) => expect_roll_level(rl, start, per_square),
        },
        // Per square on the full state (which says which fresh states are reachable);
        // otherwise without the eaten apples (the same law of T and rewards, fewer states).
        _ => {
            let memory = if per_square {
                Memory::Full
            } else {
                Memory::Turns
            };
            // A board that changes during a game has small answers: verified lifting first.
            // Where the square is the state (`roll_again = K`) the bounded routes are faster
            // (callgrind: 1.6 to 4 times fewer instructions on Milton Bradley, Efi and gen-1000).
            let verified = !Capabilities::of(board).stateless;
            on_player_chain!(board, memory, |_, chain| expect_on_states(
                chain, per_square, verified
            ))
        }
    }
}

/// [`expect_with`] on a one-player game's turn chain: by one verified lifting
/// ([`expected_rewards`]) when `verified` and that route applies, else by the bounded routes
/// ([`expect_chain_with`]); the expected turns per square from each fresh state
/// ([`OnSquare::is_fresh`]), shown by its square.
fn expect_on_states<S: OnSquare>(
    chain: &Chain<S>,
    per_square: bool,
    verified: bool,
) -> Expectation {
    let lifted = verified
        .then(|| by_verified_lifting(chain, per_square))
        .flatten();
    let expectation = match lifted {
        Some(e) => Expectation::Finite(Box::new(e)),
        None => expect_chain_with(chain, per_square),
    };
    match expectation {
        Expectation::Infinite(trap) => Expectation::Infinite(trap.map(|s| s.square())),
        Expectation::Finite(e) => {
            let e = *e;
            Expectation::Finite(Box::new(Expectations {
                per_square: e
                    .per_square
                    .into_iter()
                    .filter(|(s, _)| s.is_fresh())
                    .map(|(s, t)| (s.square(), t))
                    .collect(),
                turns: e.turns,
                variance: e.variance,
                rolls: e.rolls,
                snakes: e.snakes,
                ladders: e.ladders,
                climbed: e.climbed,
                slid: e.slid,
            }))
        }
    }
}

/// Every expectation by one verified lifting ([`expected_rewards`]), when that route applies.
pub(crate) fn by_verified_lifting<S: ChainState>(
    chain: &Chain<S>,
    per_square: bool,
) -> Option<Expectations<S>> {
    let n = chain.transient_count();
    let fields: [fn(&TurnRewards) -> &BigRational; 5] = [
        |r| &r.rolls,
        |r| &r.snakes,
        |r| &r.ladders,
        |r| &r.climbed,
        |r| &r.slid,
    ];
    let rewards: Vec<Vec<BigRational>> = fields
        .iter()
        .map(|f| (0..n).map(|i| f(chain.rewards(i)).clone()).collect())
        .collect();
    let x = expected_rewards(chain, &rewards, true)?;
    let s = chain.start();
    let turns = x.expected[0].get(s);
    let second = x.second_moment(s).expect("asked for");
    let at = |k: usize| x.expected[k].get(s);
    Some(Expectations {
        variance: second - &turns * &turns,
        rolls: at(1),
        snakes: at(2),
        ladders: at(3),
        climbed: at(4),
        slid: at(5),
        turns,
        per_square: if per_square {
            (0..n)
                .map(|i| (chain.states()[i].clone(), x.expected[0].get(i)))
                .collect()
        } else {
            Vec::new()
        },
    })
}

/// Computes the exact expectations from an already built single-board chain.
pub fn expect_chain<S: ChainState>(chain: &Chain<S>) -> Expectation<S> {
    expect_chain_with(chain, true)
}

fn zero_game<S>() -> Expectation<S> {
    let zero = BigRational::zero();
    Expectation::Finite(Box::new(Expectations {
        turns: zero.clone(),
        variance: zero.clone(),
        rolls: zero.clone(),
        snakes: zero.clone(),
        ladders: zero.clone(),
        climbed: zero.clone(),
        slid: zero,
        per_square: Vec::new(),
    }))
}

/// The right-hand sides, in this order: turns, rolls, snakes, ladders, climbed, slid; the
/// second moment is chained to the first.
const COLUMNS: usize = 6;

/// `Var T = E[T^2] - E[T]^2 = 2u - t - t^2` as one reduced fraction, from `t = p/q` and
/// `u = r/s` (reduced, as every `BigRational`).
///
/// # Formula
///
/// `t + t^2 = P / q^2` with `P = p (p + q)` is already reduced (a prime dividing q divides
/// neither p nor p + q), so with `L = lcm(s, q^2) = s m = q^2 k`
///
/// ```text
/// Var T = 2r/s - P/q^2 = N / L,   N = 2 r m - P k,
/// ```
///
/// reduced by `gcd(N, L)`. (`BigRational`'s operators reduce after every operation: five gcds
/// of numbers of hundreds of bits, about 0.13 ms on a 100-square board.) The two gcds needed are
/// taken between numbers the size of q rather than of `s q^2` (a gcd costs about the square of
/// the length; on milton-bradley, 770 bits took 0.1 M instructions): prime by prime, with
/// `a, x, y, z` the exponents in s, N, q and k,
///
/// - `k = s / gcd(s, q^2) = s' / gcd(s', q)` with `s' = s / gcd(s, q)`: both give
///   `a - min(a, 2y)` (if `a <= y`, `s'` has none of the prime; else `a - y - min(a - y, y)`);
/// - `gcd(N, q^2 k) = gcd(N, g q)` with `g = gcd(N, q k)`:
///   `min(x, y + min(x, y + z)) = min(x, 2y + z)`.
///
/// On real boards s often divides `q^2` (k = 1, found by one division).
fn variance(t: &BigRational, u: &BigRational) -> BigRational {
    let (p, q) = (t.numer(), t.denom());
    let (r, s) = (u.numer(), u.denom());
    let q2 = q * q;
    let (m, k) = match q2.div_rem(s) {
        (m, rem) if rem.is_zero() => (m, BigInt::one()),
        _ => {
            let reduced = s / gcd_of_size(s, q);
            let k = &reduced / gcd_of_size(&reduced, q);
            (&q2 * &k / s, k)
        }
    };
    let numer: BigInt = ((r * &m) << 1u32) - p * (p + q) * &k;
    let g = gcd_of_size(&numer, &(q * &k));
    let g = gcd_of_size(&numer, &(g * q));
    // g > 0 (the second argument is positive), so the quotient is the reduced fraction.
    BigRational::new_raw(numer / &g, q2 * k / g)
}

/// `gcd(a, b)` for `b > 0`, with `a` reduced modulo `b` first so that the gcd runs on numbers
/// no longer than `b` (Lehmer's algorithm, [`gcd::gcd`]).
fn gcd_of_size(a: &BigInt, b: &BigInt) -> BigInt {
    gcd::gcd(&(a % b), b)
}

/// Assembles the results: `x[0]` holds t at the start and then at every per-square state,
/// `x[1..6]` the other expectations at the start, `x[6]` u at the start.
fn assemble<S>(x: Vec<Vec<BigRational>>, squares: Vec<S>) -> Expectation<S> {
    let mut x = x.into_iter();
    let mut turns_col = x.next().expect("turns").into_iter();
    let turns = turns_col.next().expect("t");
    let per_square = squares.into_iter().zip(turns_col).collect();
    let mut next = || x.next().expect("column").pop().expect("start");
    let (rolls, snakes, ladders, climbed, slid) = (next(), next(), next(), next(), next());
    let u = next();
    let variance = variance(&turns, &u);
    Expectation::Finite(Box::new(Expectations {
        variance,
        rolls,
        snakes,
        ladders,
        climbed,
        slid,
        per_square,
        turns,
    }))
}

fn solve_all<S>(
    a: &SparseRows,
    b: &[Vec<BigRational>],
    c: &SparseRows,
    start: usize,
    per_square: Option<(Vec<usize>, Vec<S>)>,
) -> Expectation<S> {
    let (mut turns_wanted, squares) = (vec![start], Vec::new());
    let squares = match per_square {
        Some((idx, sq)) => {
            turns_wanted.extend(idx);
            sq
        }
        None => squares,
    };
    let at_start = [start];
    let mut wanted = vec![Wanted::Some(&turns_wanted)];
    wanted.extend([Wanted::Some(&at_start); COLUMNS - 1]);
    let chained = Chained {
        c,
        rhs: 0,
        wanted: Wanted::Some(&at_start),
    };
    let system = System::Rational {
        a,
        rhs: b,
        chained: Some(chained),
    };
    let x = solve(system, &wanted)
        .expect("every state reaches the finish, so the system is nonsingular");
    assemble(x, squares)
}

/// The roll-level system of `rl` in small integers: `A = D (I - S - R)`, `C = D (I - S)` and the
/// right-hand sides (turns, rolls, snakes, ladders, climbed, slid), shared by the exact and the
/// float solves; D is the rolls' common denominator (F for one fair die).
///
/// A has D on the diagonal and minus each roll's weight for each roll that stays on the board;
/// C has D on the diagonal and minus the weight of each roll that goes on. Turns: `D (I - S) 1 =
/// D - weight of the rolls that go on`; the other rewards are per roll, weighted. (Repeated
/// columns are summed by the solvers.) The `n` rows' rolls come from `rolls(i, buffer)` (kept
/// ones, or written as they are made: `--float` keeps none) and each number is written as `num`
/// makes it (the integer itself, or a float: no second copy of the rows).
#[allow(clippy::type_complexity)]
fn roll_level_system<T: Copy>(
    n: usize,
    denominator: u64,
    mut rolls: impl FnMut(usize, &mut Vec<RollMove>),
    num: impl Fn(i64) -> T,
) -> (Vec<Vec<(usize, T)>>, Vec<Vec<(usize, T)>>, Vec<Vec<T>>) {
    let d = denominator as i64;
    let mut a: Vec<Vec<(usize, T)>> = Vec::with_capacity(n);
    let mut c: Vec<Vec<(usize, T)>> = Vec::with_capacity(n);
    let mut b: Vec<Vec<T>> = (0..COLUMNS).map(|_| Vec::with_capacity(n)).collect();
    let mut moves = Vec::new();
    for i in 0..n {
        moves.clear();
        rolls(i, &mut moves);
        let moves = &moves;
        // Each row sized once (growing two rows per square cost a realloc or two apiece).
        let stays = moves.iter().filter(|m| m.to.is_some()).count();
        let goes_on = moves.iter().filter(|m| m.to.is_some() && m.again).count();
        let mut row = Vec::with_capacity(stays + 1);
        let mut row_c = Vec::with_capacity(goes_on + 1);
        row.push((i, num(d)));
        row_c.push((i, num(d)));
        let mut sums = [0i64; 4];
        let mut again = 0i64;
        for m in moves {
            let w = m.weight as i64;
            if let Some(j) = m.to {
                row.push((j, num(-w)));
                if m.again {
                    row_c.push((j, num(-w)));
                    again += w;
                }
            }
            let o = &m.outcome;
            for (s, v) in sums
                .iter_mut()
                .zip([o.snakes, o.ladders, o.climbed, o.slid])
            {
                *s += w * i64::from(v);
            }
        }
        a.push(row);
        c.push(row_c);
        b[0].push(num(d - again));
        b[1].push(num(d));
        for (col, s) in b[2..].iter_mut().zip(sums) {
            col.push(num(s));
        }
    }
    (a, c, b)
}

fn expect_roll_level(rl: RollLevel, start: usize, per_square: bool) -> Expectation {
    let rows = |i: usize, buffer: &mut Vec<RollMove>| buffer.extend_from_slice(&rl.moves[i]);
    let (mut a, mut c, mut b) = roll_level_system(rl.squares.len(), rl.denominator, rows, |v| v);
    primitive_rows(&mut a, &mut c, &mut b);
    let mut turns_wanted = vec![start];
    let mut squares = Vec::new();
    if per_square {
        for (k, &s) in rl.squares.iter().enumerate() {
            if rl.turn_start[k] {
                turns_wanted.push(k);
                squares.push(s);
            }
        }
    }
    // Freed before the solve, whose allocations then reuse its memory instead of touching
    // fresh pages (each first touch is a page fault, about 10 k kernel instructions).
    drop(rl);
    let at_start = [start];
    let mut wanted = vec![Wanted::Some(&turns_wanted)];
    wanted.extend([Wanted::Some(&at_start); COLUMNS - 1]);
    let system = System::Integer {
        a: &a,
        rhs: &b,
        chained: Some((&c, 0, Wanted::Some(&at_start))),
    };
    let x = solve(system, &wanted)
        .expect("every square reaches the finish, so the system is nonsingular");
    assemble(x, squares)
}

/// Divides each row of the exact roll-level system by the gcd of its numbers (A's, C's and the
/// right-hand sides'): the solution is the same, and the lifting's bound (the bits of the
/// answers) shrinks. One denominator D serves every row, so ten chance squares of weights 1, 2
/// and 2 make D = 30 on a d6 board, and every row that meets no chance square a multiple of 5:
/// divided, those are a d6's rows again (`expect tests/hostile/boards/chance_10000.toml`:
/// 6.2 s of CPU before, as long as the turn chain's solve after).
fn primitive_rows(a: &mut [Vec<(usize, i64)>], c: &mut [Vec<(usize, i64)>], b: &mut [Vec<i64>]) {
    for (i, (row, row_c)) in a.iter_mut().zip(c.iter_mut()).enumerate() {
        let g = (row.iter().chain(row_c.iter()).map(|&(_, v)| v))
            .chain(b.iter().map(|col| col[i]))
            .fold(0u64, |g, v| {
                num_integer::Integer::gcd(&g, &v.unsigned_abs())
            });
        if g > 1 {
            let g = g as i64;
            row.iter_mut()
                .chain(row_c.iter_mut())
                .for_each(|(_, v)| *v /= g);
            b.iter_mut().for_each(|col| col[i] /= g);
        }
    }
}

/// Computes the exact expectations from a single-board chain; `per_square` as in
/// [`expect_with`].
pub fn expect_chain_with<S: ChainState>(chain: &Chain<S>, per_square: bool) -> Expectation<S> {
    if let Some(trap) = chain.trap() {
        return Expectation::Infinite(trap);
    }
    let n = chain.transient_count();
    let start = chain.start();
    if start >= n {
        // The game starts on the finish: nothing to play.
        return zero_game();
    }
    let a = identity_minus(&transient_matrix(chain));
    let identity: SparseRows = (0..n).map(|i| vec![(i, BigRational::one())]).collect();
    let mut b: Vec<Vec<BigRational>> = vec![vec![BigRational::one(); n]];
    for f in [
        |r: &TurnRewards| r.rolls.clone(),
        |r: &TurnRewards| r.snakes.clone(),
        |r: &TurnRewards| r.ladders.clone(),
        |r: &TurnRewards| r.climbed.clone(),
        |r: &TurnRewards| r.slid.clone(),
    ] {
        b.push((0..n).map(|i| f(chain.rewards(i))).collect());
    }
    let per_square = per_square.then(|| ((0..n).collect(), chain.states()[..n].to_vec()));
    solve_all(&a, &b, &identity, start, per_square)
}

/// The expectations in floating point (`expect --float`): the same quantities as
/// [`Expectations`], from the same roll-level system solved in f64 (iteratively, with a residual
/// check; see `exact::solve::float`). Fast on large boards; at most 12
/// significant digits (as many as [`FloatExpectations::trust`] says), no exact claim.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct FloatExpectations {
    /// E\[T\].
    pub turns: f64,
    /// Var\[T\].
    pub variance: f64,
    /// Expected rolls.
    pub rolls: f64,
    /// Expected snakes taken.
    pub snakes: f64,
    /// Expected ladders taken.
    pub ladders: f64,
    /// Expected squares climbed.
    pub climbed: f64,
    /// Expected squares slid.
    pub slid: f64,
    /// Expected remaining turns from every state of the turn chain (when asked for).
    pub per_square: Vec<(Square, f64)>,
    /// The digits the solve stands behind.
    pub trust: Trust,
}

/// The answer of [`expect_float`].
#[derive(Clone, Debug, PartialEq)]
pub enum FloatExpectation {
    /// The game ends with probability 1.
    Finite(Box<FloatExpectations>),
    /// The expected length is infinite (found exactly, as in [`expect`]).
    Infinite(Trap<Square>),
}

/// Computes the expectations in floating point (see [`FloatExpectations`]), with the digits the
/// solve stands behind (`super::float_trust`).
///
/// # Errors
///
/// [`FloatUntrusted`] when the solve cannot stand behind its answer: too ill-conditioned for
/// f64 (a board won with probability 2^-51), a figure no game can have, or a singular system.
pub fn expect_float(board: &Board, per_square: bool) -> Result<FloatExpectation, FloatUntrusted> {
    // On the turn chain: per square on the full state, otherwise without the eaten apples (the
    // same law of T and rewards, up to 2^apples times fewer states).
    let memory = if per_square {
        Memory::Full
    } else {
        Memory::Turns
    };
    let chain_route = || {
        on_player_chain!(board, memory, |_, chain| float_from_chain(
            chain, per_square
        ))
    };
    // The rows are written from each square's rolls as they are made, none kept (on 10,000
    // squares the kept rolls would be most of the memory, and the time of its page faults).
    let Some(level) = RollLevel::applies(board)
        .then(|| RollSquares::new(board))
        .flatten()
    else {
        return chain_route();
    };
    let Some(start) = level.start else {
        return Ok(FloatExpectation::Finite(Box::new(float_zero())));
    };
    let mut ends = Ends::new(level.squares.len(), level.start);
    let rolls = |i: usize, buffer: &mut Vec<RollMove>| {
        level.rolls(i, |mv| {
            ends.add(i, &mv);
            buffer.push(mv);
        })
    };
    let (a, c, b) = roll_level_system(level.squares.len(), level.denominator, rolls, |v| v as f64);
    let (turn_start, finishes) = ends.finish();
    if !finishes.iter().all(|&f| f) {
        return chain_route();
    }
    let squares = level.squares;
    let (x, at_start) = crate::exact::solve::solve_float_at(&a, &b, (&c, 0), start)
        .ok_or(FloatUntrusted::Singular)?;
    let squares = if per_square {
        squares
            .iter()
            .enumerate()
            .filter(|(k, _)| turn_start[*k])
            .map(|(k, &s)| (s, x[k]))
            .collect()
    } else {
        Vec::new()
    };
    // The roll-level form serves boards whose every turn is rolled.
    float_assemble(&at_start, squares, &x, true)
}

fn float_zero() -> FloatExpectations {
    FloatExpectations {
        turns: 0.0,
        variance: 0.0,
        rolls: 0.0,
        snakes: 0.0,
        ladders: 0.0,
        climbed: 0.0,
        slid: 0.0,
        per_square: Vec::new(),
        trust: Trust {
            condition: 1.0,
            digits: MAX_DIGITS,
            variance_digits: MAX_DIGITS,
            variance_bound: 0.0,
            max_steps: 0.0,
        },
    }
}

/// `at_start`: the [`COLUMNS`] solutions and the chained one at the start; `x`: the first
/// solution at every state (its largest entry bounds the condition number).
fn float_assemble(
    at_start: &[f64],
    per_square: Vec<(Square, f64)>,
    x: &[f64],
    every_turn_rolls: bool,
) -> Result<FloatExpectation, FloatUntrusted> {
    let t = at_start[0];
    let u = at_start[COLUMNS];
    let mut counts = vec![
        ("expected snakes", at_start[2]),
        ("expected ladders", at_start[3]),
        ("expected squares climbed", at_start[4]),
        ("expected squares slid", at_start[5]),
    ];
    counts.extend(
        per_square
            .iter()
            .map(|&(_, v)| ("expected remaining turns", v)),
    );
    let max_steps = x.iter().copied().fold(0.0, f64::max);
    let figures = Figures {
        turns: t,
        rolls: at_start[1],
        second: u,
        counts: &counts,
        every_turn_rolls,
    };
    let trust = trust(&figures, max_steps)?;
    Ok(FloatExpectation::Finite(Box::new(FloatExpectations {
        turns: t,
        variance: 2.0 * u - t - t * t,
        rolls: at_start[1],
        snakes: at_start[2],
        ladders: at_start[3],
        climbed: at_start[4],
        slid: at_start[5],
        per_square,
        trust,
    })))
}

/// The float expectations of a chain; `square` maps a state to its square and whether it is
/// listed per square.
fn float_from_chain<S: OnSquare>(
    chain: &Chain<S>,
    per_square: bool,
) -> Result<FloatExpectation, FloatUntrusted> {
    use crate::num::decimal::to_f64;
    if let Some(trap) = chain.trap() {
        return Ok(FloatExpectation::Infinite(trap.map(|s| s.square())));
    }
    let n = chain.transient_count();
    let start = chain.start();
    if start >= n {
        return Ok(FloatExpectation::Finite(Box::new(float_zero())));
    }
    let a: Vec<Vec<(usize, f64)>> = (0..n)
        .map(|i| {
            let mut row = vec![(i, 1.0)];
            row.extend(
                chain
                    .row(i)
                    .iter()
                    .filter(|(j, _)| *j < n)
                    .map(|(j, p)| (*j, -to_f64(p))),
            );
            row
        })
        .collect();
    let identity: Vec<Vec<(usize, f64)>> = (0..n).map(|i| vec![(i, 1.0)]).collect();
    let mut b: Vec<Vec<f64>> = vec![vec![1.0; n]];
    for f in [
        |r: &TurnRewards| to_f64(&r.rolls),
        |r: &TurnRewards| to_f64(&r.snakes),
        |r: &TurnRewards| to_f64(&r.ladders),
        |r: &TurnRewards| to_f64(&r.climbed),
        |r: &TurnRewards| to_f64(&r.slid),
    ] {
        b.push((0..n).map(|i| f(chain.rewards(i))).collect());
    }
    let (x, at_start) = crate::exact::solve::solve_float_at(&a, &b, (&identity, 0), start)
        .ok_or(FloatUntrusted::Singular)?;
    let squares = if per_square {
        chain.states()[..n]
            .iter()
            .zip(&x)
            .filter(|(s, _)| s.is_fresh())
            .map(|(s, &t)| (s.square(), t))
            .collect()
    } else {
        Vec::new()
    };
    // A lost turn or a jump turn has no roll.
    let every_turn_rolls = (0..n).all(|i| !chain.rewards(i).rolls.is_zero());
    float_assemble(&at_start, squares, &x, every_turn_rolls)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::test_util::q;

    #[test]
    fn the_rows_of_the_exact_roll_level_system_are_primitive_and_keep_the_answer() {
        // D = 6 * 5 for the chance weights 1, 2, 2: only the rows of 0 to 5 (whose rolls can
        // land on 6) need it; the others are a d6's rows, 6 on the diagonal.
        let text = "size = 30\n[[chance]]\nat = 6\nto = [[2, 1], [20, 2], [25, 2]]\n";
        let b = Board::from_toml_str(text, "t").unwrap();
        let rl = RollLevel::new(&b).unwrap();
        assert_eq!(rl.denominator, 30);
        let rows = |i: usize, buffer: &mut Vec<RollMove>| buffer.extend_from_slice(&rl.moves[i]);
        let (mut a, mut c, mut bs) = roll_level_system(rl.squares.len(), 30, rows, |v| v);
        primitive_rows(&mut a, &mut c, &mut bs);
        let chance_rows = (rl.squares.iter().filter(|&&s| s < 6)).count();
        assert_eq!(a.iter().filter(|r| r[0].1 == 30).count(), chance_rows);
        assert_eq!(
            a.iter().filter(|r| r[0].1 == 6).count(),
            a.len() - chance_rows
        );
        let Expectation::Finite(by_rolls) = expect(&b) else {
            panic!("finite")
        };
        let Expectation::Finite(by_chain) = expect_chain(&Chain::for_board(&b)) else {
            panic!("finite")
        };
        assert_eq!(
            (by_rolls.turns, by_rolls.variance),
            (by_chain.turns, by_chain.variance)
        );
    }

    #[test]
    fn a_denominator_past_2_pow_40_keeps_the_roll_level_form_and_the_turn_chains_answer() {
        // D = 1,001,005 (the loaded die) x 2,048,576 (the chance square) = 2,050,634,818,880
        // (about 2^40.9): the roll-level form took denominators up to 2^40 only, and this board
        // went to the turn chain (issue 40 item 6). The two routes agree.
        let text = "size = 40\nsnakes = [[25, 3]]\nladders = [[4, 30]]\n\
                    [[chance]]\nat = 12\nto = [[35, 1000000], [2, 1000000], [20, 48576]]\n\
                    [rules]\ndie = [1, 1000000, 1, 1, 1000, 2]\nroll_again = \"unlimited\"\n";
        let b = Board::from_toml_str(text, "t").unwrap();
        let rl = RollLevel::new(&b).expect("a roll-level form");
        assert_eq!(rl.denominator, 1_001_005 * 2_048_576);
        let Expectation::Finite(by_rolls) = expect(&b) else {
            panic!("finite")
        };
        let Expectation::Finite(by_chain) = expect_chain(&Chain::for_board(&b)) else {
            panic!("finite")
        };
        assert_eq!(
            (&by_rolls.turns, &by_rolls.variance, &by_rolls.slid),
            (&by_chain.turns, &by_chain.variance, &by_chain.slid)
        );
    }

    #[test]
    fn a_board_without_jumps_and_overshoot_allow_is_a_sum_of_rolls() {
        // size 2, die 2, allow: from 0, a 1 -> 1 and a 2 -> 2 (finish); from 1 any roll finishes.
        // T = 1 with prob 1/2, 2 with prob 1/2: E = 3/2, Var = 1/4; rolls = turns.
        let b = Board::from_toml_str("size = 2\n[rules]\ndie = 2\novershoot = \"allow\"\n", "t")
            .unwrap();
        let Expectation::Finite(e) = expect(&b) else {
            panic!("finite")
        };
        assert_eq!(e.turns, q(3, 2));
        assert_eq!(e.variance, q(1, 4));
        assert_eq!(e.rolls, q(3, 2));
        assert_eq!(e.per_square, vec![(0, q(3, 2)), (1, q(1, 1))]);
    }

    #[test]
    fn the_tiny_board_matches_the_hand_derivation() {
        // boards/tiny.toml: T = G1 + G2, two independent geometric(1/2) waits.
        // E = 4, Var = 2 + 2 = 4. Each turn is one roll. Snakes: the number of tails before the
        // first head from 0, a geometric count with mean 1; ladders: exactly 1; climbed 2; slid 2.
        let b = crate::board::builtin("tiny").unwrap();
        let Expectation::Finite(e) = expect(&b) else {
            panic!("finite")
        };
        assert_eq!(e.turns, q(4, 1));
        assert_eq!(e.variance, q(4, 1));
        assert_eq!(e.rolls, q(4, 1));
        assert_eq!(e.snakes, q(1, 1));
        assert_eq!(e.ladders, q(1, 1));
        assert_eq!(e.climbed, q(2, 1));
        assert_eq!(e.slid, q(2, 1));
    }

    #[test]
    fn the_variance_as_one_fraction_equals_the_operator_formula() {
        // Second method: BigRational's own operators, reducing after each step.
        let cases = [
            (q(3, 2), q(9, 8)),
            (q(4, 1), q(10, 1)),
            (q(1, 1), q(1, 1)),
            (q(7, 3), q(50, 9)),
            (
                q(225_837_582_538, 57_574_729),
                q(98_765_432_109_876, 6_629_699_064_862),
            ),
        ];
        for (t, u) in cases {
            let expected = &u * q(2, 1) - &t - &t * &t;
            let got = variance(&t, &u);
            assert_eq!(got, expected, "t = {t}, u = {u}");
            // Reduced, with a positive denominator, like every BigRational.
            assert_eq!(got.numer().gcd(got.denom()), BigInt::from(1));
            assert!(got.denom() > &BigInt::from(0));
        }
    }

    proptest::proptest! {
        /// Second method as above, on fractions of several limbs whose denominators share
        /// factors the way those of t and u do (s dividing q^2, or nearly).
        #[test]
        fn the_variance_equals_the_operator_formula_on_random_fractions(
            p in proptest::prelude::any::<i64>(),
            factors in proptest::collection::vec(1u64.., 1..4),
            r in proptest::prelude::any::<i128>(),
            kind in 0u8..4,
            d in 1u64..100,
            e in 1u64..1000,
        ) {
            let den: BigInt = factors.into_iter().map(BigInt::from).product();
            let q2 = &den * &den;
            let (d, e) = (BigInt::from(d), BigInt::from(e));
            let s = match kind {
                0 => &d * &e,
                1 => &q2 / q2.gcd(&d),
                2 => {
                    let near = &q2 * &e;
                    &near / near.gcd(&d)
                }
                _ => &den * &e,
            };
            let t = BigRational::new(p.into(), den);
            let u = BigRational::new(r.into(), s);
            let got = variance(&t, &u);
            proptest::prop_assert_eq!(&got, &(&u * q(2, 1) - &t - &t * &t));
            proptest::prop_assert_eq!(got.numer().gcd(got.denom()), BigInt::from(1));
            proptest::prop_assert!(got.denom() > &BigInt::from(0));
        }
    }

    /// The expectations by both routes (roll level and turn chain), which must agree.
    fn both_routes(text: &str) -> Expectations {
        let b = Board::from_toml_str(text, "t").unwrap();
        let Expectation::Finite(fast) = expect(&b) else {
            panic!("finite")
        };
        let Expectation::Finite(slow) = expect_chain(&Chain::for_board(&b)) else {
            panic!("finite")
        };
        assert_eq!(fast.turns, slow.turns, "{text}");
        assert_eq!(fast.variance, slow.variance, "{text}");
        assert_eq!(fast.snakes, slow.snakes, "{text}");
        *fast
    }

    #[test]
    fn a_loaded_coin_matches_the_hand_derivation() {
        // Worked by hand: size 2, faces 1 (weight 1) and 2 (weight 3), allow. A 2 finishes at
        // once (3/4); a 1 reaches square 1, from which anything finishes. T = 1 w.p. 3/4, 2 w.p.
        // 1/4: E = 5/4, E[T^2] = 3/4 + 1 = 7/4, Var = 7/4 - 25/16 = 3/16.
        let e = both_routes("size = 2\n[rules]\ndie = [1, 3]\novershoot = \"allow\"\n");
        assert_eq!(e.turns, q(5, 4));
        assert_eq!(e.variance, q(3, 16));
    }

    #[test]
    fn two_coins_move_their_sum() {
        // Worked by hand: size 3, two coins (sums 2, 3, 4 w.p. 1/4, 1/2, 1/4), allow. A sum of 3
        // or 4 finishes at once (3/4); a 2 reaches square 2, from which anything finishes.
        let e = both_routes("size = 3\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\n");
        assert_eq!(e.turns, q(5, 4));
        assert_eq!(e.variance, q(3, 16));
        // With unlimited roll-again the top throw (2 + 2) finishes anyway: nothing changes.
        let again = "size = 3\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\nroll_again = \"unlimited\"\n";
        assert_eq!(both_routes(again).turns, q(5, 4));
    }

    #[test]
    fn a_chance_square_matches_the_hand_derivation() {
        // Worked by hand: size 3, a coin, allow; square 1 draws 3 (the finish) or 0, each 1/2.
        // From 0: a 1 lands on 1 and finishes (1/4) or goes back to 0 (1/4); a 2 reaches 2 (1/2),
        // from which anything finishes. E0 = 1 + E0 / 4 + 1/2, so E0 = 2.
        let e = both_routes(
            "size = 3\n[[chance]]\nat = 1\nto = [[3, 1], [0, 1]]\n[rules]\ndie = 2\novershoot = \"allow\"\n",
        );
        assert_eq!(e.turns, q(2, 1));
        // A chance move is not a snake: nothing slid.
        assert_eq!(e.snakes, q(0, 1));
    }

    #[test]
    fn a_top_throw_into_a_chance_square_is_summed_over_the_draw() {
        // size 5, a coin, unlimited roll-again, stay; square 2 draws 4 or 1 (1/2 each). From 0 a
        // 2 (top) lands on 2 and draws: the rest of the turn starts from 4 or 1. By hand from 1:
        // a 1 ends on 2's draw: 4 or 1 (turn ends; 1/4 each); a 2 (top) lands on 3, again: from 3
        // a 1 -> 4, a 2 -> 5 finishes. The general in-turn solve (not one path) must agree with
        // the roll-level route.
        let text = "size = 5\n[[chance]]\nat = 2\nto = [[4, 1], [1, 1]]\n[rules]\ndie = 2\nroll_again = \"unlimited\"\n";
        both_routes(text);
    }

    #[test]
    fn an_unwinnable_board_is_infinite_with_its_trap() {
        let b = Board::from_toml_str(
            "size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n",
            "t",
        )
        .unwrap();
        assert!(matches!(expect(&b), Expectation::Infinite(_)));
    }

    #[test]
    fn an_unwinnable_board_is_infinite_in_floating_point_too() {
        // Die 1-2: from 2 or 3 every roll ends on 3, 4 or 5, and 4 and 5 slide to 2, so 6 is
        // never reached. The float route writes its rows without keeping the rolls; it must
        // still find that the finish is out of reach, not solve a singular system.
        let b = Board::from_toml_str(
            "size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n",
            "t",
        )
        .unwrap();
        assert!(matches!(
            expect_float(&b, false),
            Ok(FloatExpectation::Infinite(_))
        ));
    }
}
