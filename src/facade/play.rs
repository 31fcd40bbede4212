//! The façade's questions about games played roll by roll: [`Game::simulate`] plays them with
//! the library's simulator, [`Game::verify`] judges a sample someone else simulated against the
//! exact law as `ladders verify` does. Orchestration only: the simulator, the tests and the
//! search over rule variants live in [`crate::simulate`].

use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

use super::{Error, Game};
use num_rational::BigRational;
use num_traits::Zero;

use crate::analysis::distribution::DistributionOptions;
use crate::analysis::stateful_fits::Needs;
use crate::chain::{endless_turn, endless_turn_sentence};
use crate::progress::Stage;
use crate::simulate::check::{compare, fitting_variants, Comparison, ExactLaw, LawError, Observed};
use crate::simulate::policy::simulate_policy;
use crate::simulate::sample::MeanInterval;
use crate::simulate::spread::{fits_of_sd, variance_test};
use crate::simulate::variants::VariantSearch;
use crate::simulate::{simulate, Histogram, SimOptions, Simulation, DEFAULT_MAX_TURNS};

/// The stage a simulation's games are counted in (the command line's bar shows it in games).
pub const SIMULATING: &str = "simulating games";

/// The most games one call may ask for (10^12: days of work even at full speed).
pub const MAX_GAMES: u64 = 1_000_000_000_000;

/// Games played by [`Game::simulate`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Played {
    /// The seed of the random streams: the same seed gives the same games.
    pub seed: u64,
    /// Games that finished.
    pub games: u64,
    /// Games stopped at [`DEFAULT_MAX_TURNS`] turns (a board whose finish can become
    /// unreachable); not in `turn_counts`.
    pub capped: u64,
    /// `turn_counts[t]`: the finished games that took t turns.
    pub turn_counts: Vec<u64>,
    /// Rolls over all games.
    pub rolls: u64,
}

/// A sample judged by [`Game::verify`].
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Verdict {
    /// Every test passed (never with fewer than
    /// `MIN_GAMES` games).
    pub passed: bool,
    /// Too few games for a verdict: none is given.
    pub too_few: bool,
    /// The games in the sample.
    pub games: u64,
    /// The sample's mean number of turns.
    pub mean: f64,
    /// The exact mean.
    pub expected_mean: f64,
    /// The mean's z score against the exact law.
    pub z: f64,
    /// The mean test's two-sided p-value.
    pub p_value: f64,
    /// The chi-square test's p-value of the law of turns (at least two bins needed).
    pub chi_square_p_value: Option<f64>,
    /// The usual rule variants the sample fits, each as its changed rules in words.
    pub fits: Vec<String>,
    /// The exact law the sample was judged against.
    #[serde(skip)]
    pub law: ExactLaw,
    /// The tests in full.
    #[serde(skip)]
    pub comparison: Comparison,
    /// The search over the usual rule variants in full (empty when too few games).
    #[serde(skip)]
    pub search: VariantSearch,
}

impl Game {
    /// The exact law a sample is judged against ([`Game::verify`], `ladders verify` and
    /// `ladders check`): `P(T = t)` listed until `P(T >= t)` is below `tail_below`, the
    /// moments, the law of the score; every cost checked first.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work, [`Error::NeedsPolicy`], [`Error::Endless`] when
    /// the expected number of turns is infinite (no finite sample can fit it).
    pub fn exact_law(&self, tail_below: f64) -> Result<ExactLaw, Error> {
        if let Some(model) = self.policy_model() {
            return self.followed_exact_law(&model, tail_below);
        }
        self.no_choice()?;
        self.chain_fits()?;
        self.stateful_fits(Needs::Full)?;
        self.stateful_fits(Needs::LawSolve)?;
        self.square_solve_fits()?;
        self.law_fits(&DistributionOptions {
            turns: None,
            tail: BigRational::from_float(tail_below).unwrap_or_else(BigRational::zero),
            min_turns: 0,
        })?;
        self.watched(|| ExactLaw::new(&self.board, tail_below))?
            .map_err(|e| self.law_error(e))
    }

    /// The exact law's refusal as the façade's error, named by the board.
    pub(super) fn law_error(&self, e: LawError) -> Error {
        match e {
            LawError::Trap(trap) => Error::Endless {
                name: self.board.name().to_string(),
                trap: trap.sentence(&self.board),
            },
            LawError::TooMuchWork(w) => self.named(Error::from(w)),
            LawError::Score(too_big) => self.named(Error::from(too_big)),
        }
    }

    /// A refusal of the law's own work with the board's name before its message.
    fn named(&self, e: Error) -> Error {
        match e {
            Error::TooLarge(mut t) => {
                t.message = format!("{}: {}", self.board.name(), t.message);
                Error::TooLarge(t)
            }
            other => other,
        }
    }

    /// Plays `games` games roll by roll on all cores, seeded: the same seed gives the same
    /// games on any number of threads.
    ///
    /// # Errors
    ///
    /// As [`Game::simulation`].
    pub fn simulate(&self, games: u64, seed: u64) -> Result<Played, Error> {
        let sim = self.simulation(&SimOptions {
            games,
            seed,
            max_turns: DEFAULT_MAX_TURNS,
        })?;
        Ok(Played {
            seed,
            games: sim.games,
            capped: sim.capped,
            turn_counts: sim.turns.counts().to_vec(),
            rolls: sim.total_rolls,
        })
    }

    /// Plays `options.games` games roll by roll on the threads of the current rayon pool
    /// (all cores by default), seeded: the same seed gives the same games on any number of
    /// threads. A game still going after `options.max_turns` turns is stopped and counted as
    /// capped. Everything the simulator tallies: turns, rolls, jumps taken, distance, the
    /// shortest and longest games seen, the final score. With a policy
    /// ([`Game::with_optimal_policy`]), the player makes its choices.
    ///
    /// # Errors
    ///
    /// [`Error::NeedsPolicy`]; [`Error::Unanswerable`] for no games or more than
    /// [`MAX_GAMES`]; [`Error::EndlessTurn`] when a turn can go on for ever (no game would
    /// end).
    pub fn simulation(&self, options: &SimOptions) -> Result<Simulation, Error> {
        let games = games_within_bounds(options.games)?;
        let model = self.policy_model();
        if model.is_none() {
            self.no_choice()?;
            self.refuse_endless_turn()?;
        }
        self.watched(|| {
            counting_games(games, |played| match &model {
                Some(model) => simulate_policy(&self.board, model, options, played),
                None => simulate(&self.board, options, played),
            })
        })
    }

    /// Judges a simulation of this game (from [`Game::simulation`]) against its exact law (from
    /// [`Game::exact_law`], to `P(T >= t)` below a tenth of a game), as `ladders check` does:
    /// the mean turns' and rolls' z tests, the law's chi-square test, the final score's test.
    ///
    /// # Errors
    ///
    /// [`Error::Censored`] when games were stopped at the turn cap.
    pub fn judge_simulation(&self, law: &ExactLaw, sim: &Simulation) -> Result<Comparison, Error> {
        if sim.capped > 0 {
            return Err(Error::Censored {
                capped: sim.capped,
                games: sim.games + sim.capped,
                cap: sim.max_turns,
                mean: law.mean,
                sd: law.sd,
            });
        }
        let observed = Observed::Counts {
            turns: &sim.turns,
            capped: sim.capped,
        };
        Ok(compare(law, observed, Some(&sim.rolls)).with_score(law, sim.score.as_ref()))
    }

    /// Refuses a board on which a turn can go on for ever: no game played roll by roll would
    /// end ([`Error::EndlessTurn`]).
    ///
    /// # Errors
    ///
    /// [`Error::EndlessTurn`] naming the square and the throws that keep the turn going.
    #[doc(hidden)]
    pub fn refuse_endless_turn(&self) -> Result<(), Error> {
        match endless_turn(&self.board) {
            Some(square) => Err(Error::EndlessTurn {
                origin: self.board.origin().to_string(),
                turn: endless_turn_sentence(&self.board, square),
            }),
            None => Ok(()),
        }
    }

    /// Judges a sample of turn counts (`sample.counts()[t]` games of t turns) against the exact
    /// law, as `ladders verify` does: [`Game::verify_sample`] of [`Sample::Counts`].
    ///
    /// # Errors
    ///
    /// As [`Game::verify_sample`].
    pub fn verify(&self, sample: &Histogram) -> Result<Verdict, Error> {
        self.verify_sample(Sample::Counts(sample))
    }

    /// Judges a sample someone else simulated against the exact law, as `ladders verify` does:
    /// the mean's z test, the law's chi-square test (with every game's turns), the variance's
    /// z test (with a reported standard deviation); when the sample fails, the usual rule
    /// variants it fits instead.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work, [`Error::NeedsPolicy`], [`Error::Endless`] when
    /// the expected number of turns is infinite (no finite sample can fit it),
    /// [`Error::Unanswerable`] when the standard deviation's test cannot get the exact fourth
    /// moment.
    pub fn verify_sample(&self, sample: Sample<'_>) -> Result<Verdict, Error> {
        self.no_choice()?;
        let observed = sample.observed();
        let sd = match sample {
            Sample::Counts(_) => None,
            Sample::Summary { games, sd, .. } => sd.map(|sd| (sd, games)),
        };
        let law = self.exact_law(observed.tail_below())?;
        let (comparison, search) = self.watched(|| {
            let mut comparison = compare(&law, observed, None);
            if let Some((sd, games)) = sd {
                let variance = variance_test(&self.board, sd, games).map_err(|e| {
                    Error::Unanswerable(format!(
                        "the standard deviation: {e} (its test needs the exact fourth moment of \
                         the turns; test the mean alone)"
                    ))
                })?;
                comparison = comparison.with_variance(variance);
            }
            // Variants need a sample that can tell them apart.
            let search = match comparison.too_few {
                true => VariantSearch::default(),
                false => fitting_variants(&self.board, &law, observed, None),
            };
            let search = match sd {
                Some((sd, games)) => fits_of_sd(&self.board, search, sd, games),
                None => search,
            };
            Ok::<_, Error>((comparison, search))
        })??;
        Ok(Verdict {
            passed: comparison.pass,
            too_few: comparison.too_few,
            games: observed.games(),
            mean: comparison.mean.observed,
            expected_mean: comparison.mean.expected,
            z: comparison.mean.z,
            p_value: comparison.mean.p_value,
            chi_square_p_value: comparison.chi_square.as_ref().map(|c| c.p_value),
            fits: search.fits.iter().map(|f| f.changes.join(", ")).collect(),
            law,
            comparison,
            search,
        })
    }
}

/// A sample someone else simulated, as [`Game::verify_sample`] judges it.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Sample<'a> {
    /// Every game's turn count (`counts()[t]` games of t turns).
    Counts(&'a Histogram),
    /// Only the mean number of turns reported over `games` games (as written: "46.1" stands
    /// for [46.05, 46.15)), and the standard deviation when reported.
    Summary {
        /// The mean as written.
        mean: &'a MeanInterval,
        /// The number of games behind it.
        games: u64,
        /// The standard deviation as written (its square is tested against the exact
        /// variance).
        sd: Option<&'a MeanInterval>,
    },
}

impl<'a> Sample<'a> {
    /// What the sample says about the games, as the tests read it (the report shows it).
    #[doc(hidden)]
    pub fn observed(&self) -> Observed<'a> {
        match *self {
            Sample::Counts(turns) => Observed::Counts { turns, capped: 0 },
            Sample::Summary { mean, games, .. } => Observed::Summary { mean, games },
        }
    }
}

/// `games`, refused unless from 1 to [`MAX_GAMES`].
pub(super) fn games_within_bounds(games: u64) -> Result<u64, Error> {
    match games == 0 || games > MAX_GAMES {
        true => Err(Error::Unanswerable(format!(
            "{games} games: from 1 to {MAX_GAMES} games per run"
        ))),
        false => Ok(games),
    }
}

/// Runs `play` (a simulator, given the callback its threads call with the games each has
/// finished) in the stage [`SIMULATING`], counting `games` games.
pub(super) fn counting_games<T>(games: u64, play: impl FnOnce(&(dyn Fn(u64) + Sync)) -> T) -> T {
    let stage = Stage::begin(SIMULATING, Some(games));
    let done = AtomicU64::new(0);
    play(&|n| stage.advance(done.fetch_add(n, Ordering::Relaxed) + n))
}
