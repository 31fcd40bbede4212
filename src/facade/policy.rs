//! The façade's player who follows a policy on a board with a choice rule:
//! [`Game::with_optimal_policy`] and [`Game::with_policy_file`] fix the player's choices, and
//! the game then answers [`Game::expectations`], [`Game::distribution`],
//! [`Game::shown_distribution`], [`Game::shortest`], [`Game::likeliest`], [`Game::exact_law`]
//! and [`Game::simulation`] on the chain of the policy's turns (an ordinary chain over
//! squares, [`PolicyModel`]); its other questions are refused. Above [`crate::choice`], whose
//! decision process it builds once.

use std::path::Path;

use super::{Error, Expectations, Game};
use crate::analysis::distribution::{distribution, Distribution, DistributionOptions};
use crate::analysis::expectation::expect_chain_with;
use crate::analysis::likeliest::{likeliest_turns, LikeliestTurns};
use crate::analysis::shortest::{extremes_by, Extremes};
use crate::analysis::shown::{certified_distribution_for, ShownDistribution, Shows};
use crate::board::Board;
use crate::chain::check_fits;
use crate::choice::policy_file::{self, PolicyFileError};
use crate::choice::{optimize, Game as Choices, Policy, PolicyModel};
use crate::simulate::check::ExactLaw;

/// The policy a player follows: the board's decision process, the choice at each of its
/// nodes, and the policy's name (`optimal`, or the file's).
pub(super) struct Followed {
    choices: Choices,
    policy: Policy,
    name: String,
}

impl Followed {
    /// The game played by the policy on `board` (the board it was made for), as a turn model.
    fn model<'a>(&'a self, board: &'a Board) -> PolicyModel<'a> {
        PolicyModel::new(board, &self.choices, &self.policy)
    }

    /// The refusal of a question not answered for a player who follows a policy.
    pub(super) fn not_answered(&self, board: &Board) -> Error {
        Error::Unanswerable(format!(
            "{}: this question is not answered for a player who follows a policy ({})",
            board.origin(),
            self.name
        ))
    }
}

impl Game {
    /// The same game, its player following an optimal policy (the least expected turns, the
    /// one [`Game::optimize`] finds), named `optimal`.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work; [`Error::Unanswerable`] when the board has no
    /// choice rule, or when from some square no choice ever reaches the finish.
    pub fn with_optimal_policy(&self) -> Result<Game, Error> {
        let choices = self.choices()?;
        check_fits(&self.board)?;
        let best = self.watched(|| optimize(&choices))?.map_err(|s| {
            Error::Unanswerable(format!(
                "{}: from square {s} no choice ever reaches the finish: no policy ends the game",
                self.board.origin()
            ))
        })?;
        Ok(self.following(choices, best.policy, "optimal".to_string()))
    }

    /// The same game, its player following the policy in the file at `path` (CSV
    /// `square,choice` lines or a TOML `[policy]` table: docs/optimal-play.md), named by the
    /// path.
    ///
    /// # Errors
    ///
    /// [`Error::Unanswerable`] when the board has no choice rule, or the file cannot be read or
    /// does not fit the board (with its line).
    pub fn with_policy_file(&self, path: &Path) -> Result<Game, Error> {
        let choices = self.choices()?;
        let unanswerable = |e: PolicyFileError| Error::Unanswerable(e.to_string());
        let policy = policy_file::load(path)
            .and_then(|file| file.policy(&choices))
            .map_err(unanswerable)?;
        Ok(self.following(choices, policy, path.display().to_string()))
    }

    fn following(&self, choices: Choices, policy: Policy, name: String) -> Game {
        let mut game = self.clone();
        game.policy = Some(std::sync::Arc::new(Followed {
            choices,
            policy,
            name,
        }));
        game
    }

    /// The name of the policy the player follows (`optimal` or the file's), if one was given.
    pub fn policy_name(&self) -> Option<&str> {
        self.policy.as_deref().map(|f| f.name.as_str())
    }

    /// The turn model of the player who follows the game's policy, if it has one.
    pub(super) fn policy_model(&self) -> Option<PolicyModel<'_>> {
        self.policy.as_deref().map(|f| f.model(&self.board))
    }

    /// [`Game::expectations`] of the player who follows the policy (no final score: a choice
    /// rule has no point squares).
    pub(super) fn followed_expectations(
        &self,
        model: &PolicyModel<'_>,
        per_square: bool,
        moments: Option<usize>,
    ) -> Result<Expectations, Error> {
        self.chain_fits()?;
        let chain = self.watched(|| model.chain())?;
        let expectation = || self.watched(|| expect_chain_with(&chain, per_square));
        let (expectation, moments) = match moments {
            None => (expectation()?, None),
            Some(k) => self.with_moments(&chain, k, expectation)?,
        };
        Ok(Expectations {
            expectation,
            moments,
            score: None,
        })
    }

    /// [`Game::distribution`] of the player who follows the policy.
    pub(super) fn followed_distribution(
        &self,
        model: &PolicyModel<'_>,
        options: &DistributionOptions,
    ) -> Result<Distribution, Error> {
        self.law_fits_before(options)?;
        Ok(self.watched(|| distribution(&model.chain(), options))??)
    }

    /// [`Game::shown_distribution`] of the player who follows the policy (the approximate
    /// mean, never the exact one).
    pub(super) fn followed_shown_distribution(
        &self,
        model: &PolicyModel<'_>,
        options: &DistributionOptions,
        digits: usize,
        chart: bool,
    ) -> Result<ShownDistribution, Error> {
        self.law_fits_before(options)?;
        let shows = Shows {
            chart,
            exact_mean: &|| None,
        };
        Ok(self.watched(|| certified_distribution_for(&model.chain(), options, digits, &shows))??)
    }

    /// [`Game::shortest`] of the player who follows the policy: each turn's rolls are the
    /// policy's.
    pub(super) fn followed_shortest(&self, model: &PolicyModel<'_>) -> Result<Extremes, Error> {
        self.chain_fits()?;
        self.watched(|| {
            let turn = |&a: &u32, &b: &u32| model.witness(a, b);
            extremes_by(&model.chain(), &turn, None, None)
        })
    }

    /// [`Game::likeliest`] of the player who follows the policy.
    pub(super) fn followed_likeliest(
        &self,
        model: &PolicyModel<'_>,
        within: Option<usize>,
    ) -> Result<Option<LikeliestTurns>, Error> {
        self.chain_fits()?;
        self.watched(|| {
            let turn = |&a: &u32, &b: &u32| model.witness(a, b);
            likeliest_turns(&model.chain(), within, &turn)
        })
    }

    /// [`Game::exact_law`] of the player who follows the policy.
    pub(super) fn followed_exact_law(
        &self,
        model: &PolicyModel<'_>,
        tail_below: f64,
    ) -> Result<ExactLaw, Error> {
        self.chain_fits()?;
        let rules = *self.board.rules();
        self.watched(|| ExactLaw::of_chain(rules, model.chain(), tail_below))?
            .map_err(|e| self.law_error(e))
    }
}
