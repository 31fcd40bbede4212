//! Knock-off races where every seat plays the same board, by positions relative to the mover:
//! three players on a 100-square board, four on smaller ones, where the joint chain of
//! [`super::knockoff`] would need millions of states in rational arithmetic.
//!
//! # The states
//!
//! When every seat has the same rolls ([`RollLevel`], the one definition of a roll in
//! [`crate::game`], with `roll_again` none or unlimited), a joint state needs only the squares
//! of the seats in playing order starting from the one to move: (mover, next, the one after...).
//! That is `m^P` states for P players on m squares, a P-th of the joint chain's, and a roll is a
//! move of the first entry followed, when the turn ends, by a rotation (the next seat becomes
//! the mover). Landing follows [`super::knockoff`]: an opponent on the square where the roll's
//! move ends goes back to the start, unless the roll left the mover where it was or ends off the
//! board.
//!
//! # What is solved
//!
//! For k = 0..P-1, `W_k(s)`: the chance that the seat k places after the mover wins, and
//! `T(s)`: the expected number of turns begun after the current one. With `w / D` the chance of
//! a roll of the mover,
//!
//! ```text
//! W_k(s) = sum_finishing [k = 0] w/D + sum_again w/D W_k(s') + sum_others w/D W_(k-1 mod P)(rot s')
//! T(s)   = sum_again w/D T(s') + sum_others w/D (1 + T(rot s'))
//! ```
//!
//! Seat i (from 1) wins with `W_(i-1)(start)`. The game ends in the turn t = (n - 1) P + i when
//! seat i finishes in its n-th turn, so the expected length in rounds is
//! `(1 + T(start) + P - sum_i i W_(i-1)(start)) / P` and the expected moves `1 + T(start)`.
//!
//! # How it is solved: no stored matrix
//!
//! Every state's rolls are generated when a sweep visits it, from the one-player roll table
//! (`sweeps`): the memory is the values alone, P + 2 words of 8 bytes per state (2.1 GB for
//! four players on the 81 squares of Chutes and Ladders, where a stored matrix needed 10 GB).
//! The values are fixed-point integers (W on the grid 2^-62, T on 2^-70 in two words) and
//! Gauss-Seidel sweeps by decreasing sum of the positions round each update to its grid: they
//! reach the precision wanted without a second copy for iterative refinement. The races too
//! large for one thread are swept layer by layer on every thread, on a layout that keeps a
//! layer's reads in streams ([`layout::Layered`], [`solve_to_digits`]). The win chances
//! (P components, the seat counted from the mover turning with each turn) and T are separate
//! systems; u below, the same for every component, bounds both. (On the layered layout only
//! the states a race reaches are swept and checked: the bound holds on any set of states the
//! rolls never leave.)
//!
//! # What is proved
//!
//! 1. The integer values v are an exact rational vector; the residual `r = b + Q v - v` of every
//!    component is computed exactly in integers over a generated sweep.
//! 2. A vector u >= 0 with `u - Q u >= 1` (a bound on the expected remaining rolls, made from T
//!    with a margin) is checked exactly in integers; it exists only if the game ends with
//!    probability 1, so the check proves that as well. The win chances and T are separate
//!    systems with the same Q, and each error e = X - v satisfies `|e| <= Q |e| + max|r|`, so
//!    `|e| <= max|r| u` (Kemeny and Snell, *Finite Markov Chains*, theorem 3.2.1:
//!    `(I - Q)^-1` is the nonnegative sum of the powers of Q).
//!
//! Every answer is the interval `v(start) ± max|r| u(start)`, about 1e-16 wide. When the check
//! fails the caller falls back to the joint chain.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::independent::{Method, Race, SeatResult};
use super::knockoff::knocks;
use crate::board::Board;
use crate::chain::RollLevel;
use crate::game::Capabilities;
use crate::num::interval::Interval;

mod layout;
mod sweeps;

use layout::{Layered, Layout};
use sweeps::{turns, Game, Roll, TURN_BITS, WIN_BITS};

/// The largest roll denominator taken (the integer sums stay far inside u128).
const MAX_DENOMINATOR: u64 = 1 << 24;

/// The most sweeps before the values are taken as they are (the certificate then decides).
const MAX_SWEEPS: usize = 20_000;

/// The sweeps stop when no win chance moves by more than a unit of its grid 2^-62 (rounding
/// can keep the last unit moving) and no remaining-turns value by more than 2^-60.
const SETTLED_WIN: u64 = 1;
const SETTLED_TURNS: u128 = 1 << (TURN_BITS - 60);

/// Bytes per state the method needs: the P win chances and the remaining turns (two words),
/// 8 bytes a word (the rolls are generated, not stored).
pub fn bytes_per_state(players: usize) -> usize {
    8 * (players + 2)
}

/// Bytes per state the schedule to the digits keeps besides the values: the last change of its
/// remaining turns, for the extrapolation (counted in its estimate; the refusals quote the
/// values' memory).
const TURN_CHANGE_BYTES: usize = 4;

/// The most memory the method plans for.
pub const MEMORY_LIMIT: usize = 3 << 30;

/// The most time the method plans for: above it the race is refused with the estimate.
pub const SECONDS_LIMIT: f64 = 600.0;

/// Seconds per roll visited in a sweep while the values fit in the cache: measured 18 ns (three
/// players on Chutes and Ladders, 531,441 states of 32 bytes, 216 sweeps of 6 rolls in 12.4 s of
/// user time), rounded up.
const SECONDS_PER_ROLL_CACHED: f64 = 20e-9;

/// The same when they do not: each state's reads and write miss the cache. Measured 58 ns (four
/// players on Chutes and Ladders, 43,046,721 states of 40 bytes: three sweeps and the two checks
/// in 75 s of user time), rounded up.
const SECONDS_PER_ROLL_UNCACHED: f64 = 60e-9;

/// Values up to this size count as cached in the estimate.
const CACHED_BYTES: f64 = 64e6;

/// The sweeps the estimate plans for (216 to 230 measured on Chutes and Ladders, 2 to 4 seats),
/// plus the residual and length checks.
const PLANNED_SWEEPS: f64 = 240.0;

/// Why the relative-position method was not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RelativeError {
    /// The method does not apply (seats differ, rules outside its reach); use the joint chain.
    #[error("the seats' games differ or their rules are outside the relative-position method")]
    NotApplicable,
    /// The method applies but would need too much memory or time.
    #[error("{players} players on {squares} squares: {} states relative to the mover, about {} MB of memory and {} s (the limits are {} MB and {} s)",
        whole(*states as f64),
        whole(*states as f64 * bytes_per_state(*players) as f64 / f64::from(1u32 << 20)),
        seconds_text(*seconds),
        MEMORY_LIMIT >> 20, SECONDS_LIMIT)]
    TooLarge {
        /// The players.
        players: usize,
        /// The squares a token can stand on.
        squares: usize,
        /// m^P.
        states: u128,
        /// The estimated memory in MB.
        megabytes: u64,
        /// The estimated time in seconds.
        seconds: u64,
    },
    /// The certificate failed (no bound on the game's length was proved).
    #[error("no certified bound on the game's length was found")]
    NotCertified,
}

/// The seats' common roll table, when every seat has the same one and the method applies.
fn common_rolls(boards: &[&Board]) -> Option<RollLevel> {
    let first = boards.first()?;
    let fits = |b: &Board| {
        let caps = Capabilities::of(b);
        caps.stateless && b.choice().is_none() && caps.memoryless_turns()
    };
    if boards.len() < 2 || !boards.iter().all(|b| fits(b)) {
        return None;
    }
    let level = RollLevel::new(first)?;
    let same = |b: &Board| {
        RollLevel::new(b).is_some_and(|l| {
            l.squares == level.squares
                && l.moves == level.moves
                && l.start == level.start
                && l.denominator == level.denominator
        })
    };
    (level.denominator <= MAX_DENOMINATOR
        && level.start.is_some()
        && boards[1..].iter().all(|b| same(b)))
    .then_some(level)
}

/// An upper bound on the transient states of the joint chain of [`super::knockoff`] for these
/// seats (P m^P), when [`applies`].
pub fn joint_states_bound(boards: &[&Board]) -> Option<f64> {
    let level = common_rolls(boards)?;
    Some(boards.len() as f64 * (level.squares.len() as f64).powi(boards.len() as i32))
}

/// The one-player roll table of `level` in the form the sweeps generate states from.
fn game(level: &RollLevel, players: usize) -> Game {
    let mut rolls = Vec::with_capacity(level.moves.len());
    let mut finishing = Vec::with_capacity(level.moves.len());
    for (q, moves) in level.moves.iter().enumerate() {
        let mut fin = 0u32;
        let mut row = Vec::with_capacity(moves.len());
        for mv in moves {
            let weight = u32::try_from(mv.weight).expect("weights are at most MAX_DENOMINATOR");
            match mv.to {
                None => fin += weight,
                Some(j) => row.push(Roll {
                    to: j as u32,
                    weight,
                    again: mv.again,
                    knock: knocks(level.squares[q], level.squares[j]),
                }),
            }
        }
        rolls.push(row);
        finishing.push(fin);
    }
    Game {
        players,
        m: level.squares.len(),
        start: level.start.expect("checked by common_rolls"),
        denominator: level.denominator,
        rolls,
        finishing,
        lead: level.squares.len().pow(players as u32 - 1),
        shared: (0..level.squares.len())
            .map(|q| level.squares[q] == 0 || Some(q) == level.start)
            .collect(),
        stays: (0..level.squares.len())
            .map(|q| level.moves[q].iter().any(|mv| mv.to == Some(q)))
            .collect(),
    }
}

/// A figure of [`RelativeError::TooLarge`] for its message: whole below 10^15, in scientific
/// form above ([`crate::text::figure`]). The `u64` fields saturate (6 players on 10,000 squares
/// printed 18446744073709551615 MB), so the memory is worked out again from the states, whose
/// `u128` holds m^P for every race the method takes (fewer than 8 seats).
fn whole(x: f64) -> String {
    match x {
        x if x < 1e15 => format!("{}", x.ceil()),
        x => crate::text::figure(x),
    }
}

/// The estimated seconds, "more than 1.8e19" where the field saturated.
fn seconds_text(seconds: u64) -> String {
    match seconds {
        u64::MAX => format!("more than {}", crate::text::figure(u64::MAX as f64)),
        s => whole(s as f64),
    }
}

/// The memory and time the method would take for `players` seats on `level`'s squares: the
/// states m^P, the bytes, the seconds.
fn estimate(level: &RollLevel, players: usize) -> (f64, f64, f64) {
    let m = level.squares.len() as f64;
    let states = m.powi(players as i32);
    let rolls = level.moves.iter().map(Vec::len).sum::<usize>() as f64 / m.max(1.0);
    let bytes = states * bytes_per_state(players) as f64;
    let per_roll = if bytes <= CACHED_BYTES {
        SECONDS_PER_ROLL_CACHED
    } else {
        SECONDS_PER_ROLL_UNCACHED
    };
    let seconds = states * rolls * PLANNED_SWEEPS * per_roll;
    (states, bytes, seconds)
}

/// The same for the schedule that stops at the digits asked, layer by layer on every thread of
/// rayon's pool ([`solve_to_digits`]): the sweeps a hundredfold change of the residual needs
/// ([`SWEEPS_PER_HUNDREDFOLD`]) for the digits, plus the checks.
fn estimate_digits(level: &RollLevel, players: usize, digits: usize) -> (f64, f64, f64) {
    let (states, bytes, _) = estimate(level, players);
    let bytes = bytes + (TURN_CHANGE_BYTES as f64) * states;
    let m = level.squares.len() as f64;
    let rolls = level.moves.iter().map(Vec::len).sum::<usize>() as f64 / m.max(1.0);
    let sweeps = SWEEPS_PER_HUNDREDFOLD * (digits as f64 + 4.0) / 2.0 + 3.0;
    let threads = rayon::current_num_threads().max(1) as f64;
    let per_roll = if bytes <= LAYERED_CACHED_BYTES {
        SECONDS_PER_ROLL_PARALLEL
    } else {
        SECONDS_PER_ROLL_PARALLEL_BEYOND
    };
    let seconds = states * rolls * sweeps * per_roll / threads.min(2.0);
    (states, bytes, seconds)
}

/// Sweeps layer by layer that shrink the changes a hundredfold: measured 10.6 (three players on
/// Chutes and Ladders: 88 sweeps to 12 digits) and 10.3 (four players on 58 squares: 85),
/// rounded up.
const SWEEPS_PER_HUNDREDFOLD: f64 = 11.0;

/// Seconds of one thread per roll visited by the sweeps layer by layer, the checks included,
/// while the values take at most [`LAYERED_CACHED_BYTES`]: measured 37 ns (four players on 58
/// squares, 11.3 M states in 540 MB: 110 s on two threads for 85 sweeps of about 6 rolls a
/// state), rounded up.
const SECONDS_PER_ROLL_PARALLEL: f64 = 40e-9;

/// The same above that: more than 111 ns (four players on Chutes and Ladders, 43 M states in
/// 2.1 GB: not done after 20 minutes on two threads; its ladders and chutes read values far
/// apart), rounded up.
const SECONDS_PER_ROLL_PARALLEL_BEYOND: f64 = 120e-9;

/// The values up to which [`SECONDS_PER_ROLL_PARALLEL`] holds.
const LAYERED_CACHED_BYTES: f64 = 1e9;

/// The knock-off race of `boards` (seat order) by relative positions, certified (module doc).
///
/// # Errors
///
/// [`RelativeError::NotApplicable`] when the seats' games differ or their rules are outside the
/// method (one-use jumps and the like, choices, `roll_again = K`), [`RelativeError::TooLarge`]
/// above `MEMORY_LIMIT` or `SECONDS_LIMIT` (estimated before anything is allocated),
/// [`RelativeError::NotCertified`] when no bound on the game's length
/// was proved; the joint chain answers the first and the last.
pub fn relative_race(boards: &[&Board], digits: usize) -> Result<Race, RelativeError> {
    let level = common_rolls(boards)
        .filter(|_| boards.len() + 2 <= sweeps::MAX_COMPONENTS)
        .ok_or(RelativeError::NotApplicable)?;
    let players = boards.len();
    let schedule = schedule(&level, players, digits)?;
    solve(&level, players, digits, schedule)
}

/// The race of `players` seats on `level`, swept on `schedule` and certified.
fn solve(
    level: &RollLevel,
    players: usize,
    digits: usize,
    schedule: Schedule,
) -> Result<Race, RelativeError> {
    let game = game(level, players);
    let cs = game.components();
    let mut x = vec![0u64; game.states() * cs];
    let stage = crate::progress::Stage::begin(
        "solving the race (sweeps of the generated relative chain)",
        None,
    );
    match schedule {
        Schedule::Settle => {
            for done in 0..MAX_SWEEPS {
                stage.advance(done as u64);
                let (win_moved, turn_moved) =
                    game.sweep(&mut x).ok_or(RelativeError::NotCertified)?;
                if win_moved <= SETTLED_WIN && turn_moved <= SETTLED_TURNS {
                    break;
                }
            }
            let layout = game.encoded();
            let u = game
                .length_bound(&layout, &x)
                .ok_or(RelativeError::NotCertified)?;
            Ok(certify(&game, &layout, &x, u, digits))
        }
        Schedule::Digits => solve_to_digits(&game, &mut x, digits, &stage),
    }
}

/// The schedule to the digits on the [`Layered`] layout: the win chances start at 1/P each, so
/// their sum is right from the start and stays so (the slowest error, which every seat's chance
/// shares, is never there); the remaining turns have it, and once their changes shrink by a
/// steady ratio r a sweep, the part of it left is taken out by adding r / (1 - r) times the last
/// changes. The sweeps go on until the last changes times the expected length are below the
/// tolerance (a sweep's residual is at most its largest change); then the bound on the length
/// is proved once and the answers certified, a hundred times finer while the digits are not
/// there.
fn solve_to_digits(
    game: &Game,
    x: &mut [u64],
    digits: usize,
    stage: &crate::progress::Stage,
) -> Result<Race, RelativeError> {
    let (p, cs) = (game.players, game.components());
    let layout = Layered::new(game.m, p);
    for state in x.chunks_exact_mut(cs) {
        state[..p].fill((1u64 << WIN_BITS) / p as u64);
    }
    let mut changes = vec![0f32; game.states()];
    let mut buffer = Vec::new();
    let mut tolerance = 10f64.powi(-(digits as i32 + 2));
    let mut u = None;
    let mut done = 0;
    let mut ratios = Ratios::default();
    loop {
        while done < MAX_SWEEPS {
            stage.advance(done as u64);
            done += 1;
            let (win_moved, turn_moved) = game
                .sweep_layers(&layout, x, &mut buffer, &mut changes)
                .ok_or(RelativeError::NotCertified)?;
            let length = game.length_estimate(&layout, x);
            let win = win_moved as f64 / (1u128 << WIN_BITS) as f64;
            let turn = turn_moved as f64 / (1u128 << TURN_BITS) as f64;
            if win.max(turn) * length <= tolerance {
                break;
            }
            if let Some(r) = ratios.steady(turn) {
                extrapolate_turns(game, x, &changes, r / (1.0 - r));
            }
        }
        let bound = match u {
            Some(u) => u,
            None => *u.insert(
                game.length_bound(&layout, x)
                    .ok_or(RelativeError::NotCertified)?,
            ),
        };
        let race = certify(game, &layout, x, bound, digits);
        if race.complete || done >= MAX_SWEEPS {
            return Ok(race);
        }
        tolerance /= 100.0;
    }
}

/// The ratios of successive largest changes of the remaining turns, and when they hold steady.
#[derive(Debug, Default)]
struct Ratios {
    last: Option<f64>,
    ratio: Option<f64>,
    /// Sweeps since the last extrapolation.
    since: usize,
}

impl Ratios {
    /// Notes a sweep's largest change; `Some(r)` when the last three sweeps shrank it by the
    /// same ratio r < 0.98 (within 1 %) and no extrapolation was made in the last four.
    fn steady(&mut self, change: f64) -> Option<f64> {
        self.since += 1;
        let ratio = self.last.map(|last| change / last);
        let steady = match (self.ratio, ratio) {
            (Some(a), Some(b)) => {
                (b < 0.98 && (a - b).abs() <= 0.01 * b && self.since > 4).then_some(b)
            }
            _ => None,
        };
        self.last = Some(change);
        self.ratio = ratio;
        if steady.is_some() {
            self.since = 0;
            self.ratio = None;
            self.last = None;
        }
        steady
    }
}

/// Adds `factor` times the last sweep's change to every state's remaining turns (Aitken's
/// extrapolation of a steady ratio: the values then lack the slowest part of their error).
fn extrapolate_turns(game: &Game, x: &mut [u64], changes: &[f32], factor: f64) {
    let (p, cs) = (game.players, game.components());
    for (state, &change) in x.chunks_exact_mut(cs).zip(changes) {
        // The step in integers, so the value keeps its low bits.
        let step = (factor * f64::from(change)).round() as i128;
        let t = (turns(state, p) as i128).saturating_add(step).max(0) as u128;
        state[p] = t as u64;
        state[p + 1] = (t >> 64) as u64;
    }
}

/// How the values are swept: one after the other by decreasing sum of the positions until
/// they settle (the races within the first estimate, [`estimate`]; their answers stay those of
/// this schedule), or by blocks of the middle seats on every thread until the digits asked are
/// certified (the larger races, [`estimate_digits`]: more sweeps, each far cheaper once the
/// values outgrow the cache).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Schedule {
    Settle,
    Digits,
}

/// The schedule for `players` seats on `level`, or the refusal with the estimate of the
/// faster one when neither fits [`MEMORY_LIMIT`] and [`SECONDS_LIMIT`].
fn schedule(level: &RollLevel, players: usize, digits: usize) -> Result<Schedule, RelativeError> {
    let fits = |(_, bytes, seconds): (f64, f64, f64)| {
        bytes <= MEMORY_LIMIT as f64 && seconds <= SECONDS_LIMIT
    };
    if fits(estimate(level, players)) {
        return Ok(Schedule::Settle);
    }
    let (states, bytes, seconds) = estimate_digits(level, players, digits);
    if fits((states, bytes, seconds)) {
        return Ok(Schedule::Digits);
    }
    Err(RelativeError::TooLarge {
        players,
        squares: level.squares.len(),
        states: states as u128,
        megabytes: (bytes / f64::from(1u32 << 20)).ceil() as u64,
        seconds: seconds.ceil() as u64,
    })
}

/// The certified answers from the values `x`, the proved bound `u` on the expected remaining
/// rolls from the start and the exact residuals (module doc).
fn certify(game: &Game, layout: &impl Layout, x: &[u64], u: u64, digits: usize) -> Race {
    let players = game.players;
    let cs = game.components();
    let (win_residual, turn_residual) = game.residuals(layout, x);
    let start = game.start_state(layout);
    let d = BigInt::from(game.denominator);
    let around = |value: u128, bits: u32, residual: u128| {
        let v = BigRational::new(BigInt::from(value), BigInt::one() << bits);
        let radius = BigRational::new(BigInt::from(residual) * BigInt::from(u), &d << bits);
        Interval::new(&v - &radius, &v + &radius)
    };
    // A chance lies in [0, 1], so the interval may be cut to it (never empty: it holds the
    // chance).
    let zero_one =
        |i: Interval| Interval::new(i.lo.max(BigRational::zero()), i.hi.min(BigRational::one()));
    let seats: Vec<SeatResult> = (0..players)
        .map(|k| SeatResult {
            seat: k + 1,
            win: zero_one(around(
                u128::from(x[start * cs + k]),
                WIN_BITS,
                win_residual,
            )),
            score: None,
        })
        .collect();
    let turns = around(turns(&x[start * cs..], players), TURN_BITS, turn_residual);
    let expected_rounds = rounds(&seats, &turns);
    let complete = seats
        .iter()
        .map(|s| &s.win)
        .chain(std::iter::once(&expected_rounds))
        .all(|i| i.certified(digits).digits == digits);
    Race {
        seats,
        expected_rounds,
        rounds_at_least: Vec::new(),
        turns_summed: 0,
        digits,
        complete,
        method: Method::RelativePositions,
    }
}

/// The expected rounds `(1 + T + P - sum_i i W_i) / P` (module doc) from the intervals of the
/// seats' wins and of T, the turns begun after the first.
fn rounds(seats: &[SeatResult], turns: &Interval) -> Interval {
    let p = BigRational::from_integer(BigInt::from(seats.len()));
    let (mut lo, mut hi) = (
        &turns.lo + BigRational::one() + &p,
        &turns.hi + BigRational::one() + &p,
    );
    for s in seats {
        let i = BigRational::from_integer(BigInt::from(s.seat));
        lo -= &i * &s.win.hi;
        hi -= &i * &s.win.lo;
    }
    Interval::new(lo / &p, hi / &p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::race::knockoff::{joint_chain, solve_exactly};
    use crate::test_util::board;

    /// Small boards that use every branch: a snake and a ladder (knock-offs on a jump's end),
    /// unlimited roll-again (knock-offs mid-turn, the same mover rolling on), a chance square
    /// (weights), overshoot stay (a roll that lands nowhere) and bounce, and a start on square 1.
    const BOARDS: [&str; 4] = [
        "size = 10\nsnakes = [[9, 2]]\nladders = [[3, 7]]\n[rules]\ndie = 4\n",
        "size = 9\nsnakes = [[8, 1]]\nladders = [[2, 5]]\n[rules]\ndie = 3\nroll_again = \"unlimited\"\novershoot = \"bounce\"\n",
        "size = 8\n[[chance]]\nat = 4\nto = [[7, 1], [2, 2]]\n[rules]\nstart = 1\ndie = [1, 2, 1]\n",
        "size = 7\nladders = [[1, 4]]\n[rules]\ndie = 2\nroll_again = \"unlimited\"\n",
    ];

    #[test]
    fn every_answer_contains_the_joint_chains_exact_value() {
        // A second method: the joint chain over absolute positions, solved in rationals.
        for text in BOARDS {
            let b = board(text);
            for players in [2, 3] {
                let seats = vec![&b; players];
                let exact =
                    solve_exactly(&joint_chain(&seats, true, 100_000).unwrap(), players, 12);
                let rel = relative_race(&seats, 12).unwrap();
                assert_eq!(rel.method, Method::RelativePositions);
                for (r, e) in rel.seats.iter().zip(&exact.seats) {
                    assert!(
                        r.win.contains(&e.win.lo),
                        "{text} x{players}: {r:?} vs {e:?}"
                    );
                    assert!(
                        r.win.width() < BigRational::new(1.into(), BigInt::from(10u64.pow(15)))
                    );
                }
                assert!(
                    rel.expected_rounds.contains(&exact.expected_rounds.lo),
                    "{text}"
                );
                assert!(rel.complete);
            }
        }
    }

    #[test]
    fn the_seats_wins_add_up_to_one_within_their_bounds() {
        let b = builtin("milton-bradley").unwrap();
        let r = relative_race(&[&b, &b], 12).unwrap();
        let lo: BigRational = r.seats.iter().map(|s| s.win.lo.clone()).sum();
        let hi: BigRational = r.seats.iter().map(|s| s.win.hi.clone()).sum();
        assert!(lo <= BigRational::one() && BigRational::one() <= hi);
    }

    /// Whether [`relative_race`] applies to these seats (the same rolls on every seat, no state
    /// beyond the square, `roll_again` none or unlimited), whatever their size.
    fn applies(boards: &[&Board]) -> bool {
        common_rolls(boards).is_some()
    }

    #[test]
    fn seats_that_differ_or_rules_outside_the_method_are_left_to_the_joint_chain() {
        let a = board(BOARDS[0]);
        let b = board(BOARDS[1]);
        assert_eq!(
            relative_race(&[&a, &b], 12).unwrap_err(),
            RelativeError::NotApplicable
        );
        let forfeit = board("size = 10\n[rules]\nroll_again = 3\n");
        assert!(!applies(&[&forfeit, &forfeit]));
        assert!(applies(&[&a, &a]));
        assert!(!applies(&[&a]));
    }

    #[test]
    fn seven_players_whose_state_outgrows_its_words_are_left_to_the_joint_chain() {
        // A state holds each seat's win chance and two words of remaining turns: seven seats
        // need nine words of the eight (this once indexed past the state and panicked).
        let b = board("size = 8\nsnakes = [[7, 1]]\nladders = [[2, 4]]\n");
        assert_eq!(
            relative_race(&[&b; 7], 12).unwrap_err(),
            RelativeError::NotApplicable
        );
        assert!(relative_race(&[&b; 6], 6).is_ok());
    }

    #[test]
    fn five_players_on_a_hundred_squares_are_refused_at_once_with_an_estimate() {
        let b = builtin("milton-bradley").unwrap();
        match relative_race(&[&b; 5], 12) {
            Err(RelativeError::TooLarge {
                states, megabytes, ..
            }) => {
                // 81 squares a token can stand on (0 and the squares reachable below 100).
                assert_eq!(states, 81u128.pow(5));
                assert!(megabytes > (MEMORY_LIMIT >> 20) as u64);
            }
            other => panic!("{other:?}"),
        }
        // Four players fit in memory (81^4 states of 6 words of 8 bytes, 2.1 GB) but not in
        // time: refused with the estimate all the same.
        let (states, bytes, seconds) = estimate(&common_rolls(&[&b; 4]).unwrap(), 4);
        assert_eq!(states, 81f64.powi(4));
        assert!(bytes < MEMORY_LIMIT as f64 && seconds > SECONDS_LIMIT);
        match relative_race(&[&b; 4], 12) {
            Err(RelativeError::TooLarge {
                states, seconds, ..
            }) => {
                assert_eq!(states, 81u128.pow(4));
                assert!(seconds as f64 > SECONDS_LIMIT);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn four_players_contain_the_joint_chains_exact_value() {
        // The joint chain over absolute positions (4 m^4 states), solved in rationals, on the
        // smallest boards.
        for text in [BOARDS[3], BOARDS[2]] {
            let b = board(text);
            let seats = vec![&b; 4];
            let exact = solve_exactly(&joint_chain(&seats, true, 100_000).unwrap(), 4, 12);
            let rel = relative_race(&seats, 12).unwrap();
            for (r, e) in rel.seats.iter().zip(&exact.seats) {
                assert!(r.win.contains(&e.win.lo), "{text}: {r:?} vs {e:?}");
            }
            assert!(
                rel.expected_rounds.contains(&exact.expected_rounds.lo),
                "{text}"
            );
            assert!(rel.complete);
        }
    }

    #[test]
    fn the_schedule_to_the_digits_contains_the_joint_chains_exact_value() {
        // The races too large for the first schedule sweep on every thread until the digits:
        // the same second method, 2 to 4 players on the small boards.
        for (text, most) in [
            (BOARDS[0], 3),
            (BOARDS[1], 3),
            (BOARDS[2], 4),
            (BOARDS[3], 4),
        ] {
            let b = board(text);
            for players in 2..=most {
                let seats = vec![&b; players];
                let exact =
                    solve_exactly(&joint_chain(&seats, true, 100_000).unwrap(), players, 12);
                let level = common_rolls(&seats).unwrap();
                let rel = solve(&level, players, 12, Schedule::Digits).unwrap();
                assert!(rel.complete, "{text} x{players}");
                for (r, e) in rel.seats.iter().zip(&exact.seats) {
                    assert!(
                        r.win.contains(&e.win.lo),
                        "{text} x{players}: {r:?} vs {e:?}"
                    );
                    assert_eq!(r.win.certified(12).digits, 12);
                }
                assert!(
                    rel.expected_rounds.contains(&exact.expected_rounds.lo),
                    "{text} x{players}"
                );
            }
        }
    }

    #[test]
    fn the_parallel_sweep_does_not_depend_on_the_threads() {
        let b = board(BOARDS[1]);
        let level = common_rolls(&[&b; 4]).unwrap();
        let game = game(&level, 4);
        let layout = Layered::new(game.m, 4);
        let swept = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut x = vec![0u64; game.states() * game.components()];
                let mut changes = vec![0f32; game.states()];
                let mut buffer = Vec::new();
                for _ in 0..20 {
                    game.sweep_layers(&layout, &mut x, &mut buffer, &mut changes)
                        .unwrap();
                }
                let checks = (game.residuals(&layout, &x), game.length_bound(&layout, &x));
                (x, changes, checks)
            })
        };
        assert_eq!(swept(1), swept(3));
    }

    #[test]
    fn races_past_the_first_estimate_take_the_schedule_to_the_digits() {
        // Four players on 58 squares: 11.3 M states, about 980 s on the first schedule (over
        // the 600 s limit), 110 s layer by layer to the digits (measured, two threads).
        let b = board("size = 58\n[rules]\novershoot = \"bounce\"\n");
        let level = common_rolls(&[&b; 4]).unwrap();
        assert!(estimate(&level, 4).2 > SECONDS_LIMIT);
        assert_eq!(schedule(&level, 4, 12), Ok(Schedule::Digits));
        // Three players on Chutes and Ladders stay on the first schedule (their answers
        // unchanged); four are refused with the estimate of the faster schedule.
        let mb = builtin("milton-bradley").unwrap();
        let level = common_rolls(&[&mb; 4]).unwrap();
        assert_eq!(schedule(&level, 3, 12), Ok(Schedule::Settle));
        let (_, _, first) = estimate(&level, 4);
        let (_, _, digits) = estimate_digits(&level, 4, 12);
        assert!(digits < first / 1.5 && digits > SECONDS_LIMIT);
        match schedule(&level, 4, 12) {
            Err(RelativeError::TooLarge { seconds, .. }) => {
                assert_eq!(seconds, digits.ceil() as u64)
            }
            other => panic!("{other:?}"),
        }
    }
}
