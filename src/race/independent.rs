//! Several players without interaction: certified win probabilities per seat and the game's
//! length in rounds, by summing the series of DESIGN.md section 3 with an exact tail bound.
//!
//! # Formula
//!
//! Seat i plays its own chain; `T_i` is the number of its turns to finish, `f_i(n) = P(T_i = n)`
//! and `S_i(n) = P(T_i > n)`. Seats play whole turns in order, so seat i wins at its n-th turn
//! exactly when every earlier seat needs more than n turns and every later seat at least n:
//!
//! ```text
//! P(seat i wins) = sum_n f_i(n) prod_{j<i} S_j(n) prod_{j>i} S_j(n - 1)
//! E[rounds]      = sum_{n>=1} P(L >= n) = sum_{n>=1} prod_j S_j(n - 1)      (L = min_j T_j)
//! ```
//!
//! The sums run exactly (in outward-rounded fixed point, [`super::fixed`]) to some M; the rest is
//! bounded exactly:
//! - a win after round M needs every seat to survive M turns: the tail of every seat's series is
//!   at most `prod_j S_j(M)`;
//! - for the length, `P(L >= n) <= S_k(n - 1) prod_{j != k} S_j(M)` for n > M, and
//!   `sum_{m >= M} S_k(m) = sum_x P(X_M = x) E[remaining turns | x] <= sum_x P(X_M = x) h(x)`
//!   with h a certified supersolution `h >= 1 + Q h` of seat k's chain ([`supersolution`]), or,
//!   when none is found, `E[T_k] - sum_{m < M} S_k(m)` with `E[T_k]` solved exactly
//!   ((I - Q) t = 1); the smallest of these bounds over the seats is used.
//!
//! So every answer is an interval `[lo, hi]` of rationals that holds the true value; the sum is
//! carried on until the interval fixes the digits asked for.
//!
//! The same formula is seed 000's definition (each player plays a whole game alone, the fewest
//! turns wins, ties go to the earlier seat): seat i has the fewest turns, first among equals,
//! when `T_j > T_i` for j < i and `T_j >= T_i` for j > i.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::fixed::{supersolution, FixedChain, FixedStepper};
use crate::analysis::distribution::RHO_TRUSTED_BELOW;
use crate::analysis::expectation::expected_turns;
use crate::analysis::spectral::spectral_bounds;
use crate::board::{Board, Square};
use crate::chain::{Chain, Trap};
use crate::num::dyadic::{mul_down, mul_up, unscaled as dyadic};
use crate::num::interval::Interval;

/// What to compute and how far.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct RaceOptions {
    /// Digits after the point every answer must certify.
    pub digits: usize,
    /// The most turns per player the series is summed to before giving up on more digits.
    pub max_turns: usize,
    /// Keep `P(L >= n)` for the distribution of the game's length.
    pub distribution: bool,
}

impl Default for RaceOptions {
    fn default() -> RaceOptions {
        RaceOptions {
            digits: 15,
            max_turns: 100_000,
            distribution: false,
        }
    }
}

/// One seat's result.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct SeatResult {
    /// The seat, from 1 (the first to play).
    pub seat: usize,
    /// The probability that this seat finishes first.
    pub win: Interval,
    /// The seat's expected final score: only for seats sharing a board with point squares
    /// (`super::shared`).
    pub score: Option<Interval>,
}

/// The result of a race: every answer a certified interval of exact rationals.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Race {
    /// One entry per seat, in playing order.
    pub seats: Vec<SeatResult>,
    /// The expected length of the game in rounds (turns of the winner).
    pub expected_rounds: Interval,
    /// `P(L >= n)` for n = 1, 2, ... (only with [`RaceOptions::distribution`]).
    pub rounds_at_least: Vec<Interval>,
    /// How many turns per player were summed exactly (M).
    pub turns_summed: usize,
    /// Digits after the point asked for.
    pub digits: usize,
    /// False when `max_turns` stopped the sum before every answer had its digits.
    pub complete: bool,
    /// How the intervals were obtained.
    pub method: Method,
}

/// How a race's answers were computed; serialized as the word `ladders race --json` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub enum Method {
    /// Independent seats: the series summed to M turns with an exact tail bound.
    #[serde(rename = "series")]
    Series,
    /// The joint chain solved exactly: every interval is a single point.
    #[serde(rename = "exact")]
    ExactSolve,
    /// The joint chain's law stepped to M turns with certified bounds.
    #[serde(rename = "stepped")]
    SteppedJoint,
    /// Every seat on the same board: the joint values solved over positions relative to the
    /// mover, with a certified error bound (`super::relative`).
    #[serde(rename = "relative")]
    RelativePositions,
    /// Seats sharing a board that changes during a game: the joint values solved in floats
    /// layer by layer, with a certified error bound (`super::layered`).
    #[serde(rename = "layered")]
    LayeredCertified,
}

impl Race {
    /// (n, P(L = n), P(L <= n)) until P(L > n) is below 1/1000 for sure.
    pub fn rounds_distribution(&self) -> Vec<(usize, Interval, Interval)> {
        let g = &self.rounds_at_least;
        let one = BigRational::from_integer(1.into());
        let zero = BigRational::from_integer(0.into());
        let small = BigRational::new(1.into(), 1000.into());
        let mut rows = Vec::new();
        for n in 1..g.len() {
            let (now, next) = (&g[n - 1], &g[n]);
            let p = Interval::new(
                (&now.lo - &next.hi).max(zero.clone()),
                (&now.hi - &next.lo).max(zero.clone()),
            );
            let cdf = Interval::new(&one - &next.hi, &one - &next.lo);
            rows.push((n, p, cdf));
            if next.hi < small {
                break;
            }
        }
        rows
    }

    /// Seat 1's win probability minus seat 2's (none with one seat).
    pub fn first_mover_advantage(&self) -> Option<Interval> {
        (self.seats.len() >= 2).then(|| self.seats[0].win.sub(&self.seats[1].win))
    }

    /// The expected number of turns of all players together ("moves", as published figures
    /// count a race's length). When seat i of k wins on its n-th turn, (n - 1) k + i turns were
    /// played, so `E = k E[rounds] - sum_i (k - i) P(seat i wins)`.
    pub fn expected_moves(&self) -> Interval {
        let k = self.seats.len();
        let factor = |n: usize| BigRational::from_integer(BigInt::from(n));
        self.seats
            .iter()
            .fold(self.expected_rounds.scale(&factor(k)), |total, seat| {
                total.sub(&seat.win.scale(&factor(k - seat.seat)))
            })
    }
}

/// The race cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RaceError {
    /// No seat's board always finishes: the game can last forever.
    #[error("no seat can be sure to finish, so the game can last forever: on seat 1's board {1}")]
    NeverEnds(Trap<Square>, String),
    /// No seats.
    #[error("a race needs at least one player")]
    NoPlayers,
    /// Summing the series would take too long (estimated before starting, `series_estimate`).
    #[error(
        "the race's series would take about {seconds} s: about {turns} turns per player over \
         {transitions} transitions (estimated before starting; answered up to about \
         {SERIES_SECONDS_LIMIT:.0} s, about {turns_within} turns here)"
    )]
    TooLong {
        /// The estimated seconds, rounded.
        seconds: u64,
        /// The estimated turns per player, rounded.
        turns: u64,
        /// The transitions stepped each turn (every distinct board's chain).
        transitions: usize,
        /// The most turns per player that fit in `SERIES_SECONDS_LIMIT`.
        turns_within: usize,
        /// The seats.
        players: usize,
    },
}

/// The estimated seconds of the series past which [`race`] refuses before starting: what is
/// left of a minute for the bounds of the tail and the report.
pub const SERIES_SECONDS_LIMIT: f64 = 30.0;

/// Seconds of the series per transition, per turn and per limb of the fixed point plus one
/// (measured, user CPU: two seats on `benches/boards/gen-1000.toml`, 11,443 turns over about
/// 6,000 transitions at 2 limbs, 9.1 s; seed 000's Efi, 212 turns, 0.01 s).
pub const SECONDS_PER_STEP: f64 = 4.5e-8;

/// The series' estimated work before it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeriesEstimate {
    /// Turns per player until every answer has its digits (at most the options' `max_turns`):
    /// every seat must survive so long that the product of the survivals, and the bound of the
    /// length's tail (about the slowest seat's expected turns times that product), fall below
    /// `10^-digits`; with `P(T_j > n) ~ rho_j^n`, `n = (digits ln 10 + ln(1 / (1 - rho))) /
    /// sum_j -ln rho_j` (two seats on gen-1000: 11,537 estimated, 11,443 summed; on Efi 193 and
    /// 212). A seat whose rho is too near 1 to trust counts as never finishing.
    pub turns: f64,
    /// Estimated seconds ([`SECONDS_PER_STEP`] per transition, turn and limb plus one).
    pub seconds: f64,
    /// The transitions stepped each turn.
    pub transitions: usize,
    /// The most turns that fit in [`SERIES_SECONDS_LIMIT`].
    pub turns_within: usize,
}

/// The estimated turns and seconds of the series for seats playing `chains[seat_law[i]]`. The
/// decay rates are computed only when even `options.max_turns` turns could be too slow.
pub fn series_estimate(
    chains: &[Chain<Square>],
    seat_law: &[usize],
    options: &RaceOptions,
) -> SeriesEstimate {
    let transitions: usize = chains
        .iter()
        .map(|c| {
            c.rows()[..c.transient_count()]
                .iter()
                .map(Vec::len)
                .sum::<usize>()
        })
        .sum();
    let limbs = f64::from(bits_for(options.digits).div_ceil(64));
    let per_turn = transitions as f64 * (limbs + 1.0) * SECONDS_PER_STEP;
    let cap = options.max_turns as f64;
    let turns_within = (SERIES_SECONDS_LIMIT / per_turn.max(f64::MIN_POSITIVE)).min(cap) as usize;
    let turns = if cap * per_turn <= SERIES_SECONDS_LIMIT {
        cap
    } else {
        let rho: Vec<f64> = chains
            .iter()
            .map(|c| spectral_bounds(c).map_or(0.0, |r| r.estimate))
            .collect();
        let trusted = |r: f64| r < RHO_TRUSTED_BELOW;
        let rate: f64 = seat_law
            .iter()
            .filter(|&&l| trusted(rho[l]))
            .map(|&l| -rho[l].max(f64::MIN_POSITIVE).ln())
            .sum();
        let slowest = rho
            .iter()
            .copied()
            .filter(|&r| trusted(r))
            .fold(0.0, f64::max);
        let need = (options.digits as f64 * std::f64::consts::LN_10 - (1.0 - slowest).ln()) / rate;
        if rate > 0.0 {
            need.min(cap)
        } else {
            cap
        }
    };
    SeriesEstimate {
        turns,
        seconds: turns * per_turn,
        transitions,
        turns_within,
    }
}

/// Decimal digits beyond those asked for at which a sum stops even if the interval still
/// straddles a rounding boundary (the true value then sits on, or within 10^-(D + 6) of, one).
pub const GUARD_DIGITS: u32 = 6;

/// Binary digits of the fixed point for `digits` decimal digits: [`GUARD_DIGITS`] more decimal
/// digits and 30 guard bits for the rounding errors that add up over the turns (at most one unit
/// per transition and turn: 2^30 units is a billion transition-turns).
pub fn bits_for(digits: usize) -> u32 {
    ((digits as f64 + f64::from(GUARD_DIGITS)) * std::f64::consts::LOG2_10).ceil() as u32 + 30
}

/// One distinct board's law, stepped turn by turn.
struct Law<'a> {
    stepper: FixedStepper<'a>,
    /// Bounds of S(n - 1) and S(n) after n steps.
    prev: (BigUint, BigUint),
    cur: (BigUint, BigUint),
    /// Bounds of f(n).
    ends: (BigUint, BigUint),
    /// sum_{m < n} S_lo(m), for the tail of the length.
    partial_lo: BigUint,
    /// A certified bound of the expected remaining turns from each transient state, over
    /// `2^bits` (from [`supersolution`]); failing that, the exact E[T] from the start.
    remaining: Option<Remaining>,
}

/// How the rest of a seat's game is bounded.
enum Remaining {
    /// Per transient state, an upper bound of the expected remaining turns, over `2^bits`.
    PerState(Vec<BigUint>),
    /// The exact expected turns from the start (the bound is then `E[T] - sum_{m<M} S(m)`).
    FromStart(BigRational),
}

/// Certified win probabilities and game length for seats playing `boards` in this order.
///
/// Seats on identical boards share one stepped law.
///
/// # Errors
///
/// [`RaceError::NeverEnds`] when no seat's board always finishes, [`RaceError::NoPlayers`]
/// for an empty list, [`RaceError::TooLong`] when the series would take more than
/// `SERIES_SECONDS_LIMIT` (`series_estimate`).
pub fn race(boards: &[&Board], options: &RaceOptions) -> Result<Race, RaceError> {
    if boards.is_empty() {
        return Err(RaceError::NoPlayers);
    }
    let bits = bits_for(options.digits);
    let (distinct, seat_law) = distinct_boards(boards);
    let chains: Vec<Chain<Square>> = distinct.iter().map(|b| Chain::for_board(b)).collect();
    if chains.iter().all(|c| !c.always_ends()) {
        let trap = chains[seat_law[0]].trap().expect("trapped");
        let sentence = trap.sentence(distinct[seat_law[0]]);
        return Err(RaceError::NeverEnds(trap, sentence));
    }
    let estimate = series_estimate(&chains, &seat_law, options);
    if estimate.seconds > SERIES_SECONDS_LIMIT {
        return Err(RaceError::TooLong {
            seconds: estimate.seconds.round() as u64,
            turns: estimate.turns.round() as u64,
            transitions: estimate.transitions,
            turns_within: estimate.turns_within,
            players: boards.len(),
        });
    }
    let fixed: Vec<FixedChain> = chains.iter().map(|c| FixedChain::new(c, bits)).collect();
    let mut laws: Vec<Law> = (0..chains.len())
        .map(|i| Law::new(&fixed[i], &chains[i], distinct[i], bits))
        .collect();
    let mut sums = Sums::new(boards.len(), bits);
    let threshold = BigRational::new(
        BigInt::one(),
        BigInt::from(10u32).pow(options.digits as u32),
    );
    let mut n = 0;
    let stage = crate::progress::Stage::begin("summing the race series", None);
    loop {
        n += 1;
        stage.advance(n as u64);
        for law in &mut laws {
            law.step();
        }
        sums.add_turn(&laws, &seat_law, options.distribution);
        // Every seat survives M turns: the bound of every win tail.
        let mut all_survive = sums.one();
        for &l in &seat_law {
            all_survive = mul_up(&all_survive, &laws[l].cur.1, bits);
        }
        let cheap_done = dyadic(&all_survive, bits) < threshold;
        if !(cheap_done || n >= options.max_turns) {
            continue;
        }
        if let Some(race) = sums.answer(&laws, &seat_law, &all_survive, n, options) {
            return Ok(race);
        }
    }
}

/// The distinct boards among `boards` (by their spec), and which one each seat plays.
pub(crate) fn distinct_boards<'a>(boards: &[&'a Board]) -> (Vec<&'a Board>, Vec<usize>) {
    let mut distinct: Vec<&Board> = Vec::new();
    let mut seat_law = Vec::with_capacity(boards.len());
    for b in boards {
        match distinct.iter().position(|d| d.spec() == b.spec()) {
            Some(i) => seat_law.push(i),
            None => {
                seat_law.push(distinct.len());
                distinct.push(b);
            }
        }
    }
    (distinct, seat_law)
}

impl<'a> Law<'a> {
    /// The law of `chain` (`board`'s) before its first turn, with its bound of the remaining
    /// turns.
    fn new(fixed: &'a FixedChain, chain: &Chain<Square>, board: &Board, bits: u32) -> Law<'a> {
        let one = BigUint::one() << bits;
        Law {
            stepper: fixed.stepper(),
            prev: (one.clone(), one.clone()),
            cur: (one.clone(), one),
            ends: (BigUint::zero(), BigUint::zero()),
            partial_lo: BigUint::zero(),
            remaining: chain.always_ends().then(|| {
                match supersolution(fixed, &vec![1; chain.transient_count()]) {
                    Some(h) => Remaining::PerState(h),
                    None => Remaining::FromStart(
                        expected_turns(board).expect("the board always finishes"),
                    ),
                }
            }),
        }
    }

    /// Plays one more turn: S(n - 1), S(n) and f(n) move on by one.
    fn step(&mut self) {
        self.partial_lo += &self.cur.0;
        self.stepper.step();
        self.prev = std::mem::replace(&mut self.cur, {
            let (lo, hi) = self.stepper.survives();
            (lo.clone(), hi.clone())
        });
        self.ends = self.stepper.ends_now();
    }
}

/// The partial sums of the series, in fixed point over `2^bits`, rounded outward.
struct Sums {
    bits: u32,
    win_lo: Vec<BigUint>,
    win_hi: Vec<BigUint>,
    rounds_lo: BigUint,
    rounds_hi: BigUint,
    /// Bounds of `P(L >= n)` for each n so far (only when the distribution is asked for).
    at_least: Vec<(BigUint, BigUint)>,
}

impl Sums {
    fn new(seats: usize, bits: u32) -> Sums {
        Sums {
            bits,
            win_lo: vec![BigUint::zero(); seats],
            win_hi: vec![BigUint::zero(); seats],
            rounds_lo: BigUint::zero(),
            rounds_hi: BigUint::zero(),
            at_least: Vec::new(),
        }
    }

    /// 1 in the fixed point.
    fn one(&self) -> BigUint {
        BigUint::one() << self.bits
    }

    /// Adds turn n's terms: `P(L >= n)` to the length, each seat's chance of winning at its
    /// n-th turn to its win.
    fn add_turn(&mut self, laws: &[Law], seat_law: &[usize], distribution: bool) {
        let bits = self.bits;
        // P(L >= n) = prod_j S_j(n - 1).
        let (mut g_lo, mut g_hi) = (self.one(), self.one());
        for &l in seat_law {
            g_lo = mul_down(&g_lo, &laws[l].prev.0, bits);
            g_hi = mul_up(&g_hi, &laws[l].prev.1, bits);
        }
        self.rounds_lo += &g_lo;
        self.rounds_hi += &g_hi;
        if distribution {
            self.at_least.push((g_lo, g_hi));
        }
        for i in 0..seat_law.len() {
            let (mut lo, mut hi) = laws[seat_law[i]].ends.clone();
            for (j, &l) in seat_law.iter().enumerate() {
                if j == i {
                    continue;
                }
                let (slo, shi) = if j < i { &laws[l].cur } else { &laws[l].prev };
                lo = mul_down(&lo, slo, bits);
                hi = mul_up(&hi, shi, bits);
            }
            self.win_lo[i] += lo;
            self.win_hi[i] += hi;
        }
    }

    /// The race after n turns, when every answer has its digits, cannot get them, or the turns
    /// ran out; `None` to go on.
    fn answer(
        &self,
        laws: &[Law],
        seat_law: &[usize],
        all_survive: &BigUint,
        n: usize,
        options: &RaceOptions,
    ) -> Option<Race> {
        let bits = self.bits;
        let seats: Vec<SeatResult> = (0..seat_law.len())
            .map(|i| {
                let lo = dyadic(&self.win_lo[i], bits);
                let hi = dyadic(&(&self.win_hi[i] + all_survive), bits).min(BigRational::one());
                SeatResult {
                    seat: i + 1,
                    win: Interval::new(lo.clone().min(hi.clone()), hi),
                    score: None,
                }
            })
            .collect();
        let tail = rounds_tail(laws, seat_law, bits);
        let expected_rounds = Interval::new(
            dyadic(&self.rounds_lo, bits),
            dyadic(&self.rounds_hi, bits) + tail,
        );
        let (certified, hopeless) = settled(&seats, &expected_rounds, options.digits);
        if !(certified || hopeless || n >= options.max_turns) {
            return None;
        }
        let rounds_at_least = self
            .at_least
            .iter()
            .map(|(lo, hi)| Interval::new(dyadic(lo, bits), dyadic(hi, bits)))
            .collect();
        Some(Race {
            seats,
            expected_rounds,
            rounds_at_least,
            turns_summed: n,
            digits: options.digits,
            complete: certified || hopeless,
            method: Method::Series,
        })
    }
}

/// Whether every answer (each seat's win, the expected rounds) is certified to `digits`, and
/// whether every interval is narrower than 10^-(digits + [`GUARD_DIGITS`]) (summing on cannot
/// settle a value that sits on a rounding boundary).
pub(super) fn settled(seats: &[SeatResult], rounds: &Interval, digits: usize) -> (bool, bool) {
    let give_up = BigRational::new(
        BigInt::one(),
        BigInt::from(10u32).pow(digits as u32 + GUARD_DIGITS),
    );
    let all: Vec<&Interval> = seats
        .iter()
        .map(|s| &s.win)
        .chain(std::iter::once(rounds))
        .collect();
    let certified = all.iter().all(|i| i.certified(digits).digits == digits);
    let hopeless = all.iter().all(|i| i.width() < give_up);
    (certified, hopeless)
}

/// The exact bound of `sum_{n > M} P(L >= n)` after M steps (see the module doc).
fn rounds_tail(laws: &[Law], seat_law: &[usize], bits: u32) -> BigRational {
    let mut best: Option<BigRational> = None;
    // A product over the other seats per seat: long with many seats and digits.
    let stage =
        crate::progress::Stage::begin("bounding the game's length", Some(seat_law.len() as u64));
    for (k, &lk) in seat_law.iter().enumerate() {
        stage.advance(k as u64);
        let rest = match &laws[lk].remaining {
            None => continue,
            Some(Remaining::FromStart(e)) => e - dyadic(&laws[lk].partial_lo, bits),
            Some(Remaining::PerState(h)) => {
                // sum_{m >= M} S(m) = sum_x P(X_M = x) E[remaining turns | x] <= sum_x hi[x] h[x].
                let (_, hi) = laws[lk].stepper.transient();
                let dot: BigUint = hi.iter().zip(h).map(|(a, b)| a * b).sum();
                dyadic(&dot, 2 * bits)
            }
        };
        let mut others = BigRational::one();
        for (j, &l) in seat_law.iter().enumerate() {
            if j != k {
                others *= dyadic(&laws[l].cur.1, bits);
            }
        }
        let bound = rest * others;
        if best.as_ref().is_none_or(|b| &bound < b) {
            best = Some(bound);
        }
    }
    best.expect("some seat's board always finishes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::exact::step::IntegerChain;
    use crate::test_util::{board, q};

    fn opts(digits: usize) -> RaceOptions {
        RaceOptions {
            digits,
            ..RaceOptions::default()
        }
    }

    /// The estimate's turns against the turns the series really summed (a second route: the
    /// stopping rule run to the end), with no cap on the turns: Efi with 2 and 3 seats, Milton
    /// Bradley against Efi. Within a factor 1.5 either way; the cap bounds the estimate.
    #[test]
    fn the_series_estimate_is_near_the_turns_summed() {
        let (efi, mb) = (builtin("efi").unwrap(), builtin("milton-bradley").unwrap());
        let uncapped = RaceOptions {
            max_turns: 1 << 40,
            ..RaceOptions::default()
        };
        for seats in [vec![&efi, &efi], vec![&efi, &efi, &efi], vec![&mb, &efi]] {
            let (distinct, seat_law) = distinct_boards(&seats);
            let chains: Vec<Chain<Square>> = distinct.iter().map(|b| Chain::for_board(b)).collect();
            let e = series_estimate(&chains, &seat_law, &uncapped);
            let summed = race(&seats, &RaceOptions::default()).unwrap().turns_summed as f64;
            assert!(
                e.turns > summed / 1.5 && e.turns < summed * 1.5,
                "{} {summed}",
                e.turns
            );
            assert!(e.seconds < 1.0 && e.turns_within > 10_000, "{e:?}");
            let capped = RaceOptions {
                max_turns: 50,
                ..RaceOptions::default()
            };
            assert_eq!(series_estimate(&chains, &seat_law, &capped).turns, 50.0);
        }
    }

    #[test]
    fn one_player_wins_surely_and_the_length_is_the_expected_turns() {
        // Tiny board: E[T] = 4 (worked by hand in boards/tiny.toml).
        let tiny = builtin("tiny").unwrap();
        let r = race(&[&tiny], &opts(12)).unwrap();
        assert!(r.seats[0].win.contains(&q(1, 1)));
        assert!(r.expected_rounds.contains(&q(4, 1)));
        assert_eq!(r.expected_rounds.certified(12).text, "4.000000000000");
    }

    #[test]
    fn two_coins_on_the_tiny_board_by_hand() {
        // Tiny board: f(n) = (n - 1) / 2^n, S(n) = (n + 1) / 2^n (boards/tiny.toml).
        // P(seat 2 wins) = sum_n f(n) S(n) = sum_n (n - 1)(n + 1) / 4^n
        //   = sum n^2 x^n - sum x^n at x = 1/4 = x(1 + x)/(1 - x)^3 - x/(1 - x)
        //   = (5/16)/(27/64) - 1/3 = 20/27 - 9/27 = 11/27, so seat 1 wins 16/27.
        // E[rounds] = sum_{n>=1} S(n - 1)^2 = sum_{m>=0} (m + 1)^2 / 4^m
        //   = (1 + x)/(1 - x)^3 at x = 1/4 = (5/4)/(27/64) = 80/27.
        let tiny = builtin("tiny").unwrap();
        let r = race(&[&tiny, &tiny], &opts(20)).unwrap();
        assert!(r.seats[0].win.contains(&q(16, 27)));
        assert!(r.seats[1].win.contains(&q(11, 27)));
        assert!(r.expected_rounds.contains(&q(80, 27)));
        assert_eq!(r.seats[0].win.certified(20).text, "0.59259259259259259259");
        assert!(r.complete);
    }

    #[test]
    fn the_expected_moves_count_every_players_turns() {
        // Tiny board, two seats: M, the turns of both together, passes m when seat 1 has not
        // finished in ceil(m/2) turns and seat 2 not in floor(m/2): with S(n) = (n + 1) / 2^n,
        // E[M] = sum_j S(j)^2 + S(j + 1) S(j) = 80/27 + (1/2) sum_j (j + 1)(j + 2) / 4^j
        //      = 80/27 + (1/2) 2/(1 - 1/4)^3 = 80/27 + 64/27 = 16/3.
        let tiny = builtin("tiny").unwrap();
        let r = race(&[&tiny, &tiny], &opts(20)).unwrap();
        assert!(r.expected_moves().contains(&q(16, 3)));
        assert_eq!(r.expected_moves().certified(15).text, "5.333333333333333");
        // Every turn from every square finishes with probability 1/5 (faces 1 to 5 with a
        // bounce on 4 squares: exactly one face reaches 4): the turns of all players are one
        // run of independent trials, so E[M] = 5 whatever the number of seats.
        let b = board("size = 4\n[rules]\novershoot = \"bounce\"\ndie = [1, 1, 1, 1, 1, 0]\n");
        for seats in 1..=4 {
            let r = race(&vec![&b; seats], &opts(15)).unwrap();
            assert!(r.expected_moves().contains(&q(5, 1)), "{seats} seats");
            assert_eq!(r.expected_moves().certified(12).text, "5.000000000000");
        }
    }

    #[test]
    fn every_game_taking_exactly_n_turns_makes_seat_one_win_surely() {
        // Die 2, ladders 1 -> 2, 3 -> 4, 5 -> 6: every turn moves exactly two squares, so T = 3
        // for everyone and seat 1 (the first to play its third turn) wins with probability 1.
        let b = board("size = 6\nladders = [[1, 2], [3, 4], [5, 6]]\n[rules]\ndie = 2\n");
        let r = race(&[&b, &b, &b], &opts(15)).unwrap();
        assert_eq!(r.seats[0].win, Interval::exact(q(1, 1)));
        assert_eq!(r.seats[1].win, Interval::exact(q(0, 1)));
        assert_eq!(r.expected_rounds, Interval::exact(q(3, 1)));
    }

    #[test]
    fn two_players_on_one_board_sum_to_one_and_the_first_wins_more() {
        for name in ["milton-bradley", "efi"] {
            let b = builtin(name).unwrap();
            let r = race(&[&b, &b], &opts(15)).unwrap();
            let (a, c) = (&r.seats[0].win, &r.seats[1].win);
            let sum = Interval::new(&a.lo + &c.lo, &a.hi + &c.hi);
            assert!(sum.contains(&q(1, 1)), "{name}");
            assert!(a.lo > c.hi, "{name}: the first seat wins more");
            assert!(r.complete);
        }
    }

    #[test]
    fn the_series_contains_the_exact_partial_sums_of_the_integer_stepping() {
        // Second method: exact rational sums from src/exact/step.rs up to M turns; the certified
        // interval must contain the exact partial sum and exceed it by at most the tail bound.
        let mb = builtin("milton-bradley").unwrap();
        let chain = Chain::for_board(&mb);
        let ic = IntegerChain::new(&chain);
        let mut s = ic.stepper();
        let (mut win1, mut win2, mut rounds) = (
            BigRational::zero(),
            BigRational::zero(),
            BigRational::zero(),
        );
        let mut prev = BigRational::one();
        for _ in 0..400 {
            s.step();
            let f = s.p_ends_now();
            let cur = s.p_survives();
            win1 += &f * &prev;
            win2 += &f * &cur;
            rounds += &prev * &prev;
            prev = cur;
        }
        let r = race(&[&mb, &mb], &opts(15)).unwrap();
        assert!(r.turns_summed > 400);
        // Beyond 400 turns the remaining mass is below P(T > 400)^2 < 1e-13 (by the stepping).
        let slack = &prev * &prev * q(1000, 1);
        assert!(r.seats[0].win.lo >= win1 && r.seats[0].win.hi <= &win1 + &slack);
        assert!(r.seats[1].win.lo >= win2 && r.seats[1].win.hi <= &win2 + &slack);
        assert!(r.expected_rounds.lo >= rounds);
    }

    #[test]
    fn a_trapped_seat_never_wins_but_the_other_one_does() {
        // Seat 2 can never finish (both squares after 3 lead back to 2); seat 1 always does.
        let trapped = board("size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n");
        let fine = builtin("tiny").unwrap();
        let r = race(&[&fine, &trapped], &opts(10)).unwrap();
        assert!(r.seats[0].win.contains(&q(1, 1)));
        assert!(r.expected_rounds.contains(&q(4, 1)));
        assert!(matches!(
            race(&[&trapped, &trapped], &opts(10)),
            Err(RaceError::NeverEnds(..))
        ));
    }
}
