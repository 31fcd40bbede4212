//! The fast seeded simulator and the statistical checks of simulations against the exact chain.
//!
//! - `engine` (internal; its `run_chunk` reaches the benchmark through `crate::internals`): games played roll by roll from the board and `crate::game` (never from the
//!   chain), several per core, on seeded per-chunk random streams.
//! - `fast` (internal): the plain boards' loop, several games per core in lockstep, one table addition
//!   per roll.
//! - `table` (internal; its `Table` reaches the benchmark through `crate::internals`): the rules cached per (square, throw), generated from `crate::game`, and the
//!   simulator's one roll (a weighted throw, the turn logic, a weighted draw).
//! - `stream` (internal): the seeded random streams and the exact integer-weight samplers.
//! - [`simulate`]: runs the engine on all of rayon's threads and merges the tallies into a
//!   [`Simulation`] whose every number depends on the seed only, not on the thread count.
//! - `check`: a sample (simulated here or by the user) against the exact answers: z of the
//!   mean, chi-square of the turn counts, and the rule variants the sample fits instead;
//!   `spread` the test of a standard deviation a user reports (`verify --sd`).
//! - `policy`: games of a player who follows a policy of [`crate::choice`].
//! - `race`: several players taking turns (with or without knock-off), and the seat-by-seat
//!   check of such a simulation against the exact race of [`crate::race`].

// Crate-internal; what the command line, tests and benchmarks still reach of them is in
// `crate::internals`, the answers the façade returns are re-exported below.
pub(crate) mod check;
pub(crate) mod engine;
pub(crate) mod fast;
pub(crate) mod hints;
pub(crate) mod json;
pub(crate) mod policy;
pub(crate) mod race;
mod race_rounds;
pub(crate) mod sample;
pub(crate) mod shared;
pub(crate) mod spread;
pub(crate) mod stateful;
pub(crate) mod stream;
pub(crate) mod table;
pub(crate) mod variants;

// The façade's answers ([`crate::Game::verify`]'s [`crate::Verdict`]) and its sample.
pub use check::{ChiSquare, Comparison, ExactLaw, ScoreLaw, ZTest};
pub use race::{RaceComparison, RaceExact, RaceSimulation, SeatChiSquare};
pub use sample::{parse_turns, read_sample, MeanInterval};
pub use variants::{LayoutFit, NotTried, VariantFit, VariantSearch};

use rayon::prelude::*;

use crate::board::{Board, Square};
use crate::game::Capabilities;
use engine::{run_chunk, GameRecord, Tally, CHUNK_GAMES};
use stateful::simulate_stateful;
pub use stateful::Scores;
use table::Table;

/// The default cap on turns per game: far beyond any game seen on a finite board of the usual
/// kind (seed 000's longest in 10 million games was 752 turns), small enough that a board whose
/// finish can be unreachable does not hang the simulator.
pub const DEFAULT_MAX_TURNS: u64 = 10_000;

/// What to simulate.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct SimOptions {
    /// Games to play.
    pub games: u64,
    /// The seed of every random stream.
    pub seed: u64,
    /// A game still going after this many turns is stopped and counted as capped.
    pub max_turns: u64,
}

impl SimOptions {
    /// `games` games with `seed`, each capped at [`DEFAULT_MAX_TURNS`] turns.
    pub fn new(games: u64, seed: u64) -> SimOptions {
        SimOptions {
            games,
            seed,
            max_turns: DEFAULT_MAX_TURNS,
        }
    }

    /// The same options with games stopped after `max_turns` turns.
    pub fn max_turns(mut self, max_turns: u64) -> SimOptions {
        self.max_turns = max_turns;
        self
    }
}

/// A game kept for the report.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameSeen {
    /// Turns it took.
    pub turns: u64,
    /// Rolls it took.
    pub rolls: u64,
    /// Its faces, turn by turn (kept for the shortest game only).
    pub faces: Option<Vec<Vec<u32>>>,
}

/// The result of a simulation: everything the reports show, as counts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Simulation {
    /// The options it ran with.
    pub seed: u64,
    /// The turn cap.
    pub max_turns: u64,
    /// Games that finished.
    pub games: u64,
    /// Games stopped at the turn cap (not in `turns` or `rolls`).
    pub capped: u64,
    /// The turn counts of the finished games.
    pub turns: Histogram,
    /// The roll counts of the finished games.
    pub rolls: Histogram,
    /// Rolls over all games, capped ones included.
    pub total_rolls: u64,
    /// Snakes taken over all games.
    pub snakes: u64,
    /// Ladders taken over all games.
    pub ladders: u64,
    /// Squares climbed over all games.
    pub climbed: u64,
    /// Squares slid over all games.
    pub slid: u64,
    /// The first game with the fewest turns, with its faces.
    pub shortest: Option<GameSeen>,
    /// The first game with the most turns.
    pub longest: Option<GameSeen>,
    /// Squares reachable from the start from which the finish cannot be reached (found from the
    /// rules table alone); games that reach one never end and are capped. Not searched on a
    /// board that changes during a game (always empty there).
    pub trapping_squares: Vec<Square>,
    /// The final scores of the finished games, on a board with point squares.
    pub score: Option<Scores>,
}

/// Plays `options.games` games on `board` with rayon's current thread pool. `progress` is called
/// with the number of games just finished after each chunk (for a progress bar), and with 0
/// before each chunk (where a listener may stop the work: see [`crate::progress`]).
///
/// # Examples
///
/// ```
/// use ladders::board::builtin;
/// use ladders::simulate::{simulate, SimOptions};
/// let tiny = builtin("tiny").unwrap();
/// let sim = simulate(&tiny, &SimOptions::new(1000, 7).max_turns(100), &|_| {});
/// assert_eq!(sim.games, 1000);
/// assert!(sim.turns.min().unwrap() >= 2); // the tiny board needs two heads
/// ```
pub fn simulate(
    board: &Board,
    options: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Simulation {
    if !Capabilities::of(board).stateless {
        return simulate_stateful(board, options, progress);
    }
    let table = Table::new(board);
    let tally = par_chunks(
        options.games,
        progress,
        Tally::default,
        Tally::merge,
        |c, games| run_chunk(&table, options.seed, c, games, options.max_turns),
    );
    let replayed = |r: &GameRecord| engine::replay_one(&table, r, options.max_turns);
    finish(options, tally, &replayed, table.trapping_squares())
}

/// Plays `games` games in chunks of [`CHUNK_GAMES`] on rayon's current thread pool: `chunk(c,
/// games)` plays chunk c, and the chunks' results are merged. Merging must be associative and
/// commutative (sums, and records chosen by a total order), so that the result does not depend
/// on how rayon splits the chunks; memory stays one result per split, however many chunks there
/// are. When `progress` unwinds (a listener stopping the work: [`crate::progress`]), no chunk
/// begins after it and the unwind goes on from here (unwinding through rayon's splits instead
/// would visit every chunk not yet begun: minutes for 10^12 games).
pub(crate) fn par_chunks<T: Send>(
    games: u64,
    progress: &(dyn Fn(u64) + Sync),
    empty: impl Fn() -> T + Sync + Send,
    merge: impl Fn(&mut T, T) + Sync + Send,
    chunk: impl Fn(u64, u64) -> T + Sync + Send,
) -> T {
    type Unwind = Box<dyn std::any::Any + Send>;
    let told = |n: u64| -> Result<(), Unwind> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| progress(n)))
    };
    let chunks = games.div_ceil(CHUNK_GAMES);
    let merged = (0..chunks)
        .into_par_iter()
        .try_fold(&empty, |mut acc, c| {
            told(0)?;
            let n = CHUNK_GAMES.min(games - c * CHUNK_GAMES);
            merge(&mut acc, chunk(c, n));
            told(n)?;
            Ok(acc)
        })
        .try_reduce(&empty, |mut a, b| {
            merge(&mut a, b);
            Ok(a)
        });
    merged.unwrap_or_else(|unwind| std::panic::resume_unwind(unwind))
}

/// The simulation's report from its merged tallies; `replay` gives the throws of a recorded game
/// turn by turn.
fn finish(
    options: &SimOptions,
    tally: Tally,
    replay: &dyn Fn(&GameRecord) -> Vec<Vec<u32>>,
    trapping_squares: Vec<Square>,
) -> Simulation {
    let shortest = tally.shortest.as_ref().map(|r| GameSeen {
        turns: r.turns,
        rolls: r.rolls,
        faces: Some(replay(r)),
    });
    let longest = tally.longest.as_ref().map(|r| GameSeen {
        turns: r.turns,
        rolls: r.rolls,
        faces: None,
    });
    Simulation {
        seed: options.seed,
        max_turns: options.max_turns,
        games: tally.games,
        capped: tally.capped,
        turns: Histogram::new(tally.turns),
        rolls: Histogram::new(tally.rolls),
        total_rolls: tally.total_rolls,
        snakes: tally.totals.snakes,
        ladders: tally.totals.ladders,
        climbed: tally.totals.climbed,
        slid: tally.totals.slid,
        shortest,
        longest,
        trapping_squares,
        score: None,
    }
}

/// Counts of a non-negative integer quantity: `counts[v]` observations of the value v.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u64>,
}

impl Histogram {
    /// From counts by value (trailing zeros are dropped).
    pub fn new(mut counts: Vec<u64>) -> Histogram {
        while counts.last() == Some(&0) {
            counts.pop();
        }
        Histogram { counts }
    }

    /// `counts()[v]`: the observations equal to v.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The number of observations.
    ///
    /// # Panics
    ///
    /// The counts add up past `u64::MAX` (simulations cannot; sample files are refused first).
    pub fn n(&self) -> u64 {
        self.counts
            .iter()
            .try_fold(0u64, |n, &c| n.checked_add(c))
            .expect("at most 2^64 - 1 observations")
    }

    /// The smallest value observed.
    pub fn min(&self) -> Option<u64> {
        self.counts.iter().position(|&c| c > 0).map(|v| v as u64)
    }

    /// The largest value observed.
    pub fn max(&self) -> Option<u64> {
        (!self.counts.is_empty()).then(|| self.counts.len() as u64 - 1)
    }

    /// The sum of the values and of their squares, exactly.
    pub fn sums(&self) -> (u128, u128) {
        let mut s = 0u128;
        let mut s2 = 0u128;
        // Cannot overflow while n < 2^64 and every value < 2^37: s < 2^101, s2 < 2^138.
        for (v, &c) in self.counts.iter().enumerate() {
            s += v as u128 * u128::from(c);
            s2 += (v as u128) * (v as u128) * u128::from(c);
        }
        (s, s2)
    }

    /// The sample mean.
    pub fn mean(&self) -> Option<f64> {
        let n = self.n();
        (n > 0).then(|| self.sums().0 as f64 / n as f64)
    }

    /// The sample standard deviation (denominator n - 1).
    pub fn sd(&self) -> Option<f64> {
        let n = self.n();
        if n < 2 {
            return None;
        }
        let (s, s2) = self.sums();
        // n * s2 - s^2 exactly (it overflows u128 for samples of about 2^64 games), then one
        // division.
        let num = num_bigint::BigInt::from(n) * s2 - num_bigint::BigInt::from(s) * s;
        let num = num_traits::ToPrimitive::to_f64(&num)?;
        Some((num / (n as f64 * (n - 1) as f64)).sqrt())
    }

    /// The smallest value v with at least a fraction `q` of the observations at or below v.
    pub fn quantile(&self, q: f64) -> Option<u64> {
        let n = self.n();
        if n == 0 {
            return None;
        }
        let need = (q * n as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (v, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= need {
                return Some(v as u64);
            }
        }
        self.max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::test_util::on_one_thread_and_on_two;

    fn run(board: &str, games: u64, seed: u64) -> Simulation {
        let b = builtin(board).unwrap();
        simulate(
            &b,
            &SimOptions {
                games,
                seed,
                max_turns: DEFAULT_MAX_TURNS,
            },
            &|_| {},
        )
    }

    #[test]
    fn the_histogram_statistics_match_a_hand_computation() {
        // Values 1, 2, 2, 5: mean 2.5, sample variance ((1.5^2 + 0.25 + 0.25 + 6.25) / 3) = 3.
        let h = Histogram::new(vec![0, 1, 2, 0, 0, 1, 0]);
        assert_eq!(h.n(), 4);
        assert_eq!(h.mean(), Some(2.5));
        assert_eq!(h.sd(), Some(3f64.sqrt()));
        assert_eq!((h.min(), h.max()), (Some(1), Some(5)));
        assert_eq!(h.quantile(0.5), Some(2));
        assert_eq!(h.quantile(0.76), Some(5));
    }

    #[test]
    fn the_same_seed_gives_the_same_simulation_on_one_thread_and_on_two() {
        let b = builtin("efi").unwrap();
        let opts = SimOptions {
            games: 3 * CHUNK_GAMES / 2 + 5,
            seed: 11,
            max_turns: 10_000,
        };
        let (a, c) = on_one_thread_and_on_two(|| simulate(&b, &opts, &|_| {}));
        assert_eq!(a, c);
        assert_eq!(a.games, opts.games);
        let d = simulate(&b, &SimOptions { seed: 12, ..opts }, &|_| {});
        assert_ne!(a.turns, d.turns, "another seed gives another sample");
    }

    #[test]
    fn the_shortest_game_replays_to_its_own_turns_and_rolls() {
        let sim = run("efi", 20_000, 3);
        let short = sim.shortest.unwrap();
        let faces = short.faces.unwrap();
        assert_eq!(faces.len() as u64, short.turns);
        assert_eq!(
            faces.iter().map(Vec::len).sum::<usize>() as u64,
            short.rolls
        );
        // On efi every turn but the last ends with a face other than 6 ...
        for turn in &faces[..faces.len() - 1] {
            assert_ne!(*turn.last().unwrap(), 6);
            assert!(turn[..turn.len() - 1].iter().all(|&f| f == 6));
        }
        // ... and playing the faces with the rules module reaches the finish.
        let b = builtin("efi").unwrap();
        let mut square = b.rules().start;
        for f in faces.iter().flatten() {
            square = crate::game::roll(&b, square, *f)
                .sure_outcome()
                .expect("fixed board")
                .to;
        }
        assert_eq!(square, b.size());
    }

    #[test]
    fn the_tiny_board_has_no_game_shorter_than_two_turns_and_counts_add_up() {
        // boards/tiny.toml: T = two geometric(1/2) waits, so T >= 2; each turn is one roll; one
        // ladder per game.
        let sim = run("tiny", 10_000, 1);
        assert_eq!(sim.turns.min(), Some(2));
        assert_eq!(sim.turns, sim.rolls);
        assert_eq!(sim.ladders, 10_000);
        assert_eq!(sim.capped, 0);
        assert_eq!(sim.total_rolls as u128, sim.rolls.sums().0);
    }

    #[test]
    fn an_unwinnable_board_is_capped_not_hung() {
        // From 0 with a coin: 1 -> 2; from 2 a 2 lands on the snake 4 -> 2 and a 1 on 3; from 3,
        // 1 -> snake 4 -> 2 and 2 -> 5 -> snake 5 -> 2: the finish 6 is never reached.
        let b = Board::from_toml_str(
            "size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n",
            "t",
        )
        .unwrap();
        let sim = simulate(
            &b,
            &SimOptions {
                games: 10,
                seed: 1,
                max_turns: 50,
            },
            &|_| {},
        );
        assert_eq!((sim.games, sim.capped), (0, 10));
        assert!(!sim.trapping_squares.is_empty());
    }

    #[test]
    fn faces_are_uniform_on_a_d6_and_a_d100() {
        // From 16-bit pieces (every board but the plain ones) and from batches (the plain
        // boards' fast loop).
        for die in [6u32, 100] {
            let mut dice = stream::Dice::new(5, 0);
            let reject = stream::reject_below(u64::from(die));
            let batch = stream::FaceBatch::new(u64::from(die));
            let n = 600_000u64;
            for batched in [false, true] {
                let mut counts = vec![0u64; die as usize];
                for _ in 0..n {
                    let face = if batched {
                        dice.face(&batch)
                    } else {
                        dice.next_index(die, reject)
                    };
                    counts[face as usize] += 1;
                }
                // Chi-square with die - 1 degrees of freedom; 5 sd above its mean fails.
                let e = n as f64 / f64::from(die);
                let chi: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
                let df = f64::from(die - 1);
                assert!(chi < df + 5.0 * (2.0 * df).sqrt(), "die {die}: chi2 {chi}");
            }
        }
    }
}
