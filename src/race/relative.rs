//! Knock-off races where every seat plays the same board, by positions relative to the mover:
//! three players on a 100-square board in seconds, where the joint chain of [`super::knockoff`]
//! would need millions of states in rational arithmetic.
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
//! `R_k(s)`: the expected number of turns that seat begins after the current one. With
//! `w / D` the chance of a roll from the mover's square to square j,
//!
//! ```text
//! W_k(s) = sum_finishing [k = 0] w/D + sum_again w/D W_k(s') + sum_others w/D W_(k-1 mod P)(rot s')
//! R_k(s) = sum_again w/D R_k(s') + sum_others w/D ([k = 1 mod P] + R_(k-1 mod P)(rot s'))
//! ```
//!
//! Seat i wins with `W_i(start)`; the expected length in rounds is `1 + R_0(start)`.
//!
//! # What is proved
//!
//! 1. Gauss-Seidel sweeps in floats give approximate values; v, their rounding to multiples of
//!    2^-60, is an exact rational vector. The residual r = T v - v is computed exactly in
//!    integers, one step of iterative refinement (the error solves e = r + Q e) brings v near
//!    the 2^-60 grid, and the residual of the refined v is computed exactly again.
//! 2. A vector u >= 0 with `u - Q u >= 1` (the expected remaining rolls, rounded up with a margin)
//!    is checked exactly in integers; it exists only if the game ends with probability 1, so the
//!    check proves that as well. Every component's error e = X - v satisfies
//!    `|e| <= Q |e| + max|r|`, so `|e| <= max|r| u` (Kemeny and Snell, *Finite Markov Chains*,
//!    theorem 3.2.1: `(I - Q)^-1` is the nonnegative sum of the powers of Q).
//!
//! Every answer is the interval `v(start) ± max|r| u(start)`, about 1e-16 wide. When the check
//! fails the caller falls back to the joint chain.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::independent::{Method, Race, SeatResult};
use super::interval::Interval;
use super::knockoff::knocks;
use crate::board::Board;
use crate::chain::RollLevel;
use crate::choice::duel::length_sweep;
use crate::game::Capabilities;

/// The scale of the certified centers: v = v_int / 2^60.
const SCALE_BITS: u32 = 60;

/// The largest roll denominator taken (integer residuals stay far inside i128).
const MAX_DENOMINATOR: u64 = 1 << 24;

/// Bytes per state the method needs: the transitions (about 8 bytes per roll) and 4P floats
/// and integers per state.
pub fn bytes_per_state(rolls: usize, players: usize) -> usize {
    8 * rolls + 8 + 2 * players * (8 + 16)
}

/// The most memory the method plans for.
pub const MEMORY_LIMIT: usize = 3 << 30;

/// Why the relative-position method was not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RelativeError {
    /// The method does not apply (seats differ, rules outside its reach); use the joint chain.
    #[error("the seats' games differ or their rules are outside the relative-position method")]
    NotApplicable,
    /// The method applies but would need too much memory.
    #[error("{players} players on {squares} squares: {states} states relative to the mover, about {megabytes} MB of memory and {seconds} s (the limit is {} MB)", MEMORY_LIMIT >> 20)]
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

/// Whether [`relative_race`] applies to these seats (the same rolls on every seat, no state
/// beyond the square, `roll_again` none or unlimited), whatever their size.
pub fn applies(boards: &[&Board]) -> bool {
    common_rolls(boards).is_some()
}

/// An upper bound on the transient states of the joint chain of [`super::knockoff`] for these
/// seats (P m^P), when [`applies`].
pub fn joint_states_bound(boards: &[&Board]) -> Option<f64> {
    let level = common_rolls(boards)?;
    Some(boards.len() as f64 * (level.squares.len() as f64).powi(boards.len() as i32))
}

/// One roll of the mover, over relative states: the next state, whether the turn goes on (the
/// same mover rolls again), and the roll's weight.
#[derive(Clone, Copy, Debug)]
struct Step {
    next: u32,
    again: bool,
    weight: u32,
}

/// The relative-position chain: every state's rolls, flat. States are numbered by decreasing
/// sum of the seats' squares, the order of the sweeps: a roll mostly moves a token forward, so
/// most values a state reads come earlier in a sweep, each sweep carries information over many
/// turns (nearly a back substitution), and neighbours in the sweep are near in memory.
struct Relative {
    players: usize,
    states: usize,
    denominator: u64,
    /// For state s, its rolls are `steps[first[s]..first[s + 1]]`.
    first: Vec<usize>,
    steps: Vec<Step>,
    /// For state s, the weight of the rolls that finish.
    finishing: Vec<u32>,
    /// For state s, the weight of the rolls that pass the turn to the next seat.
    passing: Vec<u32>,
    /// The start state's number.
    start: usize,
}

impl Relative {
    fn new(level: &RollLevel, players: usize) -> Relative {
        let m = level.squares.len();
        let states = m.pow(players as u32);
        let start = level.start.expect("checked by common_rolls");
        let mut pos = vec![0usize; players];
        // States are numbered in sweep order: by decreasing sum of the seats' squares.
        let mut order: Vec<u32> = (0..states as u32).collect();
        order.sort_by_cached_key(|&s| {
            decode(s as usize, m, &mut pos);
            std::cmp::Reverse(pos.iter().map(|&q| level.squares[q]).sum::<u32>())
        });
        let mut rank = vec![0u32; states];
        for (r, &s) in order.iter().enumerate() {
            rank[s as usize] = r as u32;
        }
        let mut first = Vec::with_capacity(states + 1);
        let mut steps = Vec::with_capacity(states * level.moves.first().map_or(1, Vec::len));
        let mut finishing = Vec::with_capacity(states);
        let mut passing = Vec::with_capacity(states);
        let mut next = vec![0usize; players];
        first.push(0);
        for &s in &order {
            decode(s as usize, m, &mut pos);
            let (mut fin, mut pass) = (0u32, 0u32);
            for mv in &level.moves[pos[0]] {
                let Some(j) = mv.to else {
                    fin += mv.weight as u32;
                    continue;
                };
                // The mover lands on j; opponents there go back to the start.
                let knock = knocks(level.squares[pos[0]], level.squares[j]);
                let place = |q: usize| if knock && q == j { start } else { q };
                if mv.again {
                    next[0] = j;
                    (1..players).for_each(|i| next[i] = place(pos[i]));
                } else {
                    (1..players).for_each(|i| next[i - 1] = place(pos[i]));
                    next[players - 1] = j;
                    pass += mv.weight as u32;
                }
                steps.push(Step {
                    next: rank[encode(&next, m)],
                    again: mv.again,
                    weight: mv.weight as u32,
                });
            }
            finishing.push(fin);
            passing.push(pass);
            first.push(steps.len());
        }
        Relative {
            players,
            states,
            denominator: level.denominator,
            first,
            steps,
            finishing,
            passing,
            start: rank[encode(&vec![start; players], m)] as usize,
        }
    }

    /// The component a step reads for component c (c < P: W_c; c >= P: R_(c - P)).
    fn source(&self, c: usize, again: bool) -> usize {
        let p = self.players;
        if again {
            c
        } else {
            let (block, k) = (c / p, c % p);
            block * p + (k + p - 1) % p
        }
    }

    /// The constant term of component c at state s, times D: the finishing rolls for W_0, and
    /// the rolls that pass the turn to seat k = 1 for R_1.
    fn constant(&self, s: usize, c: usize) -> u64 {
        let p = self.players;
        match (c / p, c % p) {
            (0, 0) => u64::from(self.finishing[s]),
            (1, k) if k == 1 % p => u64::from(self.passing[s]),
            _ => 0,
        }
    }
}

/// State index of the positions `pos` (mover first), base m.
fn encode(pos: &[usize], m: usize) -> usize {
    pos.iter().fold(0, |s, &q| s * m + q)
}

/// The positions of state s, base m.
fn decode(mut s: usize, m: usize, pos: &mut [usize]) {
    for q in pos.iter_mut().rev() {
        *q = s % m;
        s /= m;
    }
}

/// Gauss-Seidel sweeps for x = b + Q x over every component (x[s * C + c]), from `x`, until no
/// value moves by more than `tolerance` (or `max_sweeps`).
fn sweep(rel: &Relative, b: &[f64], x: &mut [f64], tolerance: f64, max_sweeps: usize) {
    let cs = 2 * rel.players;
    let d = rel.denominator as f64;
    let sources: Vec<[usize; 2]> = (0..cs)
        .map(|c| [rel.source(c, false), rel.source(c, true)])
        .collect();
    let mut acc = vec![0.0f64; cs];
    let stage = crate::progress::Stage::begin("solving the race (sweeps)", None);
    for done in 0..max_sweeps {
        stage.advance(done as u64);
        let mut moved = 0.0f64;
        for s in 0..rel.states {
            acc.copy_from_slice(&b[s * cs..(s + 1) * cs]);
            for t in &rel.steps[rel.first[s]..rel.first[s + 1]] {
                let w = f64::from(t.weight) / d;
                let base = t.next as usize * cs;
                for (c, a) in acc.iter_mut().enumerate() {
                    *a += w * x[base + sources[c][usize::from(t.again)]];
                }
            }
            for (c, &a) in acc.iter().enumerate() {
                moved = moved.max((a - x[s * cs + c]).abs());
                x[s * cs + c] = a;
            }
        }
        if moved <= tolerance {
            return;
        }
    }
}

/// The exact residual `D (b + Q v) - D v` of every component at every state, in units of
/// 2^-60 (so over D 2^60).
fn residuals(rel: &Relative, center: &[i128]) -> Vec<i128> {
    let cs = 2 * rel.players;
    let one: i128 = 1 << SCALE_BITS;
    let d = i128::from(rel.denominator);
    let mut out = vec![0i128; center.len()];
    for s in 0..rel.states {
        for c in 0..cs {
            let mut acc = i128::from(rel.constant(s, c)) * one - d * center[s * cs + c];
            for t in &rel.steps[rel.first[s]..rel.first[s + 1]] {
                acc += i128::from(t.weight) * center[t.next as usize * cs + rel.source(c, t.again)];
            }
            out[s * cs + c] = acc;
        }
    }
    out
}

/// A vector u >= 0 with D u - D Q u >= D at every state, checked exactly, or `None`.
fn length_bound(rel: &Relative) -> Option<Vec<i64>> {
    // Float expected remaining rolls, then rounded up with a margin and checked exactly.
    let d = rel.denominator as f64;
    let settled = crate::prec::RELATIVE_LENGTH_SETTLED;
    let t = length_sweep(rel.states, false, settled, |t, s| {
        let q: f64 = rel.steps[rel.first[s]..rel.first[s + 1]]
            .iter()
            .map(|st| f64::from(st.weight) * t[st.next as usize])
            .sum();
        q / d
    })?;
    let den = i128::from(rel.denominator);
    [1.01, 1.1, 1.5, 2.0].into_iter().find_map(|margin| {
        let u: Vec<i64> = t.iter().map(|v| (v * margin).ceil() as i64 + 1).collect();
        let holds = (0..rel.states).all(|s| {
            let qu: i128 = rel.steps[rel.first[s]..rel.first[s + 1]]
                .iter()
                .map(|st| i128::from(st.weight) * i128::from(u[st.next as usize]))
                .sum();
            den * i128::from(u[s]) - qu >= den
        });
        holds.then_some(u)
    })
}

/// The memory and time the method would take for `players` seats on `level`'s squares.
fn estimate(level: &RollLevel, players: usize) -> (f64, f64, f64) {
    let m = level.squares.len() as f64;
    let states = m.powi(players as i32);
    let rolls = level.moves.iter().map(Vec::len).max().unwrap_or(1);
    let bytes = states * bytes_per_state(rolls, players) as f64;
    // About 3 ns per roll and component per sweep, a few hundred sweeps in all.
    let seconds = states * rolls as f64 * (2 * players) as f64 * 3e-9 * 600.0;
    (states, bytes, seconds)
}

/// The knock-off race of `boards` (seat order) by relative positions, certified (module doc).
///
/// # Errors
///
/// [`RelativeError::NotApplicable`] when the seats' games differ or their rules are outside the
/// method (one-use jumps and the like, choices, `roll_again = K`), [`RelativeError::TooLarge`]
/// above [`MEMORY_LIMIT`], [`RelativeError::NotCertified`] when no bound on the game's length
/// was proved; the joint chain answers the first and the last.
pub fn relative_race(boards: &[&Board], digits: usize) -> Result<Race, RelativeError> {
    let level = common_rolls(boards).ok_or(RelativeError::NotApplicable)?;
    let players = boards.len();
    let (states, bytes, seconds) = estimate(&level, players);
    if bytes > MEMORY_LIMIT as f64 {
        return Err(RelativeError::TooLarge {
            players,
            squares: level.squares.len(),
            states: states as u128,
            megabytes: (bytes / f64::from(1u32 << 20)).ceil() as u64,
            seconds: seconds.ceil() as u64,
        });
    }
    let rel = Relative::new(&level, players);
    let u = length_bound(&rel).ok_or(RelativeError::NotCertified)?;
    let cs = 2 * players;
    let d = rel.denominator as f64;
    let b: Vec<f64> = (0..rel.states * cs)
        .map(|i| rel.constant(i / cs, i % cs) as f64 / d)
        .collect();
    let mut x = vec![0.0f64; rel.states * cs];
    sweep(&rel, &b, &mut x, crate::prec::SWEEP_SETTLED, 100_000);
    let one = (1u64 << SCALE_BITS) as f64;
    let mut center: Vec<i128> = x.iter().map(|&v| (v * one).round() as i128).collect();
    // One step of iterative refinement: e = r / D + Q e, in units of 2^-60.
    let r: Vec<f64> = residuals(&rel, &center)
        .iter()
        .map(|&n| n as f64 / d)
        .collect();
    let mut e = vec![0.0f64; r.len()];
    sweep(&rel, &r, &mut e, 0.02, 100_000);
    for (c, de) in center.iter_mut().zip(&e) {
        *c += de.round() as i128;
    }
    let worst = residuals(&rel, &center)
        .iter()
        .map(|n| n.unsigned_abs())
        .max()
        .unwrap_or(0);
    let scale = BigInt::from(rel.denominator) << SCALE_BITS;
    let radius = BigRational::new(BigInt::from(worst) * u[rel.start], scale);
    let at = |c: usize| {
        let v = BigRational::new(
            BigInt::from(center[rel.start * cs + c]),
            BigInt::one() << SCALE_BITS,
        );
        Interval::new(&v - &radius, &v + &radius)
    };
    // A chance lies in [0, 1], so the interval may be cut to it (never empty: it holds the
    // chance).
    let zero_one =
        |i: Interval| Interval::new(i.lo.max(BigRational::zero()), i.hi.min(BigRational::one()));
    let seats = (0..players)
        .map(|k| SeatResult {
            seat: k + 1,
            win: zero_one(at(k)),
            score: None,
        })
        .collect();
    let seats: Vec<SeatResult> = seats;
    let rounds = at(players);
    let expected_rounds = Interval::new(
        &rounds.lo + BigRational::one(),
        &rounds.hi + BigRational::one(),
    );
    let complete = seats
        .iter()
        .map(|s| &s.win)
        .chain(std::iter::once(&expected_rounds))
        .all(|i| i.certified(digits).digits == digits);
    Ok(Race {
        seats,
        expected_rounds,
        rounds_at_least: Vec::new(),
        turns_summed: 0,
        digits,
        complete,
        method: Method::RelativePositions,
    })
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
    fn four_players_on_a_hundred_squares_are_refused_at_once_with_an_estimate() {
        let b = builtin("milton-bradley").unwrap();
        match relative_race(&[&b; 4], 12) {
            Err(RelativeError::TooLarge {
                states, megabytes, ..
            }) => {
                // 81 squares a token can stand on (0 and the squares reachable below 100).
                assert_eq!(states, 81u128.pow(4));
                assert!(megabytes > (MEMORY_LIMIT >> 20) as u64);
            }
            other => panic!("{other:?}"),
        }
    }
}
