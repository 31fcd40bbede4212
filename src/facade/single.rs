//! The façade's other questions about one game, as the command line asks them: the
//! expectations with their moments and the final score in one answer, the floating-point
//! expectations, the likeliest games, the expected visits, where the token is after n turns, the law of T as a
//! report shows it, `analyze`'s one screen and each jump's effect. Each checks its cost against
//! the game's [`Limits`](super::Limits) first and chooses the route itself.

use std::ops::RangeInclusive;

use num_rational::BigRational;

use super::{Error, Game};
use crate::analysis::design::{die_sweep, sensitivity, sensitivity_seconds, DieSweep, Removal};
use crate::analysis::distribution::DistributionOptions;
use crate::analysis::expectation::{expect_float, expected_turns, Expectation, FloatExpectation};
use crate::analysis::likeliest::board_likeliest;
use crate::analysis::likeliest::LikeliestTurns;
use crate::analysis::moments::{checked_moments, moments_fit, Moments};
use crate::analysis::score::{score, score_fits, Score};
use crate::analysis::shown::{board_shown_distribution, ShownDistribution};
use crate::analysis::squares::{occupancy, Occupancy};
use crate::analysis::stateful_fits::Needs;
use crate::analysis::summary::{summarize, Summary};
use crate::analysis::visits::{jump_uses, square_visits, visits_float, Visits};
use crate::board::{DieChoice, RuleOverrides, Square};
use crate::chain::{check_fits, on_player_chain, Chain, ChainState, Memory};
use crate::game::Capabilities;

/// What `ladders expect` answers: the expectations, the moments when asked, the final score on
/// a board with point squares.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Expectations {
    /// The expected turns and the rest (infinite with a trap).
    pub expectation: Expectation,
    /// The moments to the order asked, when asked and the game always ends.
    pub moments: Option<Moments>,
    /// The law of the final score, on a board with point squares.
    pub score: Option<Score>,
}

/// Each jump's effect on the expected turns, answered by [`Game::sensitivity`] (serialized
/// as `sensitivity --json`'s `turns` and `removed`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Sensitivity {
    /// The board's own expected turns.
    #[serde(rename = "turns", serialize_with = "crate::num::json::exact")]
    pub base: BigRational,
    /// Every snake and ladder removed in turn, the largest change first.
    #[serde(rename = "removed")]
    pub removals: Vec<Removal>,
}

impl Game {
    /// The expectations ([`Game::expect`], with the remaining turns per square when
    /// `per_square`), the moments to order k when `moments` is `Some(k)` (none when the game
    /// can go on for ever) and the law of the final score. Every estimate is made before the
    /// first solve.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work, [`Error::NeedsPolicy`].
    pub fn expectations(
        &self,
        per_square: bool,
        moments: Option<usize>,
    ) -> Result<Expectations, Error> {
        if let Some(model) = self.policy_model() {
            return self.followed_expectations(&model, per_square, moments);
        }
        self.no_choice()?;
        self.stateful_fits(match per_square {
            true => Needs::FullSolve,
            false => Needs::LawSolve,
        })?;
        score_fits(&self.board)?;
        self.square_solve_fits()?;
        self.expect_chain_fits()?;
        let (expectation, moments) = match moments {
            None => (self.solved_expectation(per_square)?, None),
            Some(k) => self.expect_and_moments(k, per_square)?,
        };
        let score = self.watched(|| score(&self.board))??;
        Ok(Expectations {
            expectation,
            moments,
            score,
        })
    }

    /// The expectations of [`Game::expect`] in floating point: fast on large boards, about 12
    /// digits, checked by a residual.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work, [`Error::NeedsPolicy`], [`Error::Untrusted`] when
    /// the floats' check fails.
    pub fn expect_float(&self, per_square: bool) -> Result<FloatExpectation, Error> {
        self.no_choice()?;
        self.stateful_fits(match per_square {
            true => Needs::Full,
            false => Needs::Law,
        })?;
        self.expect_chain_fits()?;
        Ok(self.watched(|| expect_float(&self.board, per_square))??)
    }

    /// The likeliest games: among the fewest-turn games, and among all games (of at most
    /// `within` turns when given); `None` when the finish cannot be reached.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the chain is built, [`Error::NeedsPolicy`].
    pub fn likeliest(&self, within: Option<usize>) -> Result<Option<LikeliestTurns>, Error> {
        if let Some(model) = self.policy_model() {
            return self.followed_likeliest(&model, within);
        }
        self.no_choice()?;
        self.chain_fits()?;
        self.stateful_fits(Needs::Full)?;
        self.watched(|| board_likeliest(&self.board, within))
    }

    /// The expected turns begun on each square, and the expected uses of each jump (where the
    /// rules allow the count).
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the solve, [`Error::NeedsPolicy`], [`Error::Unanswerable`]
    /// when the game can go on for ever (the visits are infinite).
    pub fn visits(&self) -> Result<Visits, Error> {
        let squares = self.square_visits()?;
        let jumps = self.watched(|| jump_uses(&self.board, &squares))?;
        Ok(Visits { squares, jumps })
    }

    /// [`Game::visits`]' expected turns begun on each square in floating point (about 12
    /// digits), for pictures of boards too large for the exact solve.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the chain is built, [`Error::NeedsPolicy`],
    /// [`Error::Unanswerable`] when the game can go on for ever (the visits are infinite).
    pub fn visits_float(&self) -> Result<Vec<(Square, f64)>, Error> {
        self.no_choice()?;
        self.chain_fits()?;
        self.stateful_fits(Needs::Full)?;
        self.watched(|| visits_float(&self.board))?
            .map_err(|e| Error::Unanswerable(e.to_string()))
    }

    /// The expected turns begun on each square alone ([`Game::visits`] without the jumps, whose
    /// uses on a board where a turn can be several rolls take a second solve).
    ///
    /// # Errors
    ///
    /// As [`Game::visits`].
    pub fn square_visits(&self) -> Result<Vec<(Square, BigRational)>, Error> {
        self.no_choice()?;
        self.chain_fits()?;
        self.stateful_fits(Needs::FullSolve)?;
        self.square_solve_fits()?;
        self.watched(|| square_visits(&self.board))?
            .map_err(|e| Error::Unanswerable(e.to_string()))
    }

    /// Where the token is after `turns` turns: each square's exact probability.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the chain is built, [`Error::NeedsPolicy`].
    pub fn squares_after(&self, turns: usize) -> Result<Occupancy, Error> {
        self.no_choice()?;
        self.chain_fits()?;
        self.stateful_fits(Needs::FullSolve)?;
        self.watched(|| Occupancy::of(turns, occupancy(&self.board, turns)))
    }

    /// The law of T as a report shows it: each probability correctly rounded to `digits`
    /// significant digits from certified bounds, exact only where a bound straddles a rounding
    /// boundary; with `chart`, as a chart needs it.
    ///
    /// # Errors
    ///
    /// As [`Game::distribution`].
    pub fn shown_distribution(
        &self,
        options: &DistributionOptions,
        digits: usize,
        chart: bool,
    ) -> Result<ShownDistribution, Error> {
        if let Some(model) = self.policy_model() {
            return self.followed_shown_distribution(&model, options, digits, chart);
        }
        self.no_choice()?;
        self.law_fits_before(options)?;
        Ok(self.watched(|| board_shown_distribution(&self.board, options, digits, chart))??)
    }

    /// Refuses, before any work, a law of T to `options`' turns that this game's budget cannot
    /// hold: the chain, the chain of states, the stepping. For a caller that steps the law of
    /// a player who follows a policy on this board.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] with the estimate.
    pub fn law_fits_before(&self, options: &DistributionOptions) -> Result<(), Error> {
        if let Err(too_big) = self.chain_fits() {
            // Past the whole turns' limit the law is stepped on the links form when that
            // stepping's estimate is within its limit; else the chain's refusal stands.
            return match self.law_on_links(options) {
                true => Ok(()),
                false => Err(too_big),
            };
        }
        self.stateful_fits(Needs::Law)?;
        self.law_fits(options)
    }

    /// `ladders analyze`'s one screen: the expected turns, the shortest game, the quantiles of
    /// T, two players' odds.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work, [`Error::NeedsPolicy`], [`Error::Unanswerable`] on
    /// a board that changes during a game (not summarised yet).
    pub fn summary(&self) -> Result<Summary, Error> {
        self.no_choice()?;
        if !Capabilities::of(&self.board).stateless {
            return Err(Error::Unanswerable(format!(
                "{}: the summary does not answer boards with one-use jumps, points, lost or \
                 extra turns yet",
                self.board.origin()
            )));
        }
        self.chain_fits()?;
        Ok(self.watched(|| summarize(&self.board))??)
    }

    /// For every snake and ladder, the expected turns without it and the change from the
    /// board's own, the largest change first.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the solves, [`Error::NeedsPolicy`], [`Error::Unanswerable`]
    /// when the game can go on for ever (its expected turns are infinite).
    pub fn sensitivity(&self) -> Result<Sensitivity, Error> {
        self.no_choice()?;
        self.chain_fits()?;
        // Refused before the board's own solve when the solve per jump would take too long.
        crate::analysis::design::sensitivity_fits(&self.board)?;
        self.seconds_fit("sensitivity", || {
            sensitivity_seconds(&self.board).unwrap_or(f64::INFINITY)
        })?;
        self.watched(|| {
            let Some(base) = expected_turns(&self.board) else {
                return Err(Error::Unanswerable(format!(
                    "{}: the game can go on forever, so its expected turns are infinite",
                    self.board.origin()
                )));
            };
            let removals = sensitivity(&self.board, &base)?;
            Ok(Sensitivity { base, removals })
        })?
    }

    /// The exact expected turns with each fair die of `faces` faces in place of the board's
    /// die (`None`: with that die the game can go on for ever), smallest die first, and the
    /// best die; every die's chain and solve checked against the limits before the first
    /// solve.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work, [`Error::NeedsPolicy`], [`Error::Board`] when a
    /// die does not fit the board's rules.
    pub fn die_sweep(&self, faces: RangeInclusive<Square>) -> Result<DieSweep, Error> {
        self.no_choice()?;
        for f in faces.clone() {
            let with_die = self.with_rules(&RuleOverrides {
                die: Some(DieChoice::Fair(f)),
                ..RuleOverrides::default()
            })?;
            with_die.chain_fits()?;
            with_die.stateful_fits(Needs::LawSolve)?;
            with_die.square_solve_fits()?;
        }
        Ok(DieSweep::of(
            self.watched(|| die_sweep(&self.board, faces))??,
        ))
    }

    /// The expectations and the moments to order k, by the cheaper exact route, cross-checked
    /// by the other where that is cheap; moments too long to compute are refused before the
    /// expectations' solve.
    fn expect_and_moments(
        &self,
        k: usize,
        per_square: bool,
    ) -> Result<(Expectation, Option<Moments>), Error> {
        let expectation = || self.solved_expectation(per_square);
        match check_fits(&self.board) {
            Ok(()) => on_player_chain!(&self.board, Memory::Turns, |_, chain| self.with_moments(
                chain,
                k,
                expectation
            )),
            // No moments are asked of an infinite expectation: it is answered as before.
            Err(too_big) => match expectation()? {
                Expectation::Finite(_) => Err(too_big.into()),
                infinite => Ok((infinite, None)),
            },
        }
    }

    /// The expectations (from `expectation`) and the moments to order k on `chain` (this
    /// game's, or that of a player who follows a policy on its board), refused from the
    /// estimates before either is solved when the game can end.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work.
    #[doc(hidden)]
    pub fn with_moments<S: ChainState>(
        &self,
        chain: &Chain<S>,
        k: usize,
        expectation: impl FnOnce() -> Result<Expectation, Error>,
    ) -> Result<(Expectation, Option<Moments>), Error> {
        if chain.trap().is_none() {
            moments_fit(chain, k)?;
            self.moments_fit(chain, k)?;
        }
        let expectation = expectation()?;
        let moments = match &expectation {
            Expectation::Finite(_) => Some(self.watched(|| checked_moments(chain, k))??),
            Expectation::Infinite(_) => None,
        };
        Ok((expectation, moments))
    }
}
