//! The façade's player who chooses (a choice rule: `choose_die`, `coin`, `pick`,
//! `choose_face`, `decline`): [`Game::optimize`] the least expected turns and a policy that
//! reaches it, proved by the Bellman equation; [`Game::optimize_within`] the best chance of
//! finishing within n turns; [`Game::score_policy`] a user's policy file, exactly; and
//! [`Game::optimal_distribution`] the law of T when the player follows the optimal policy.
//! Above [`crate::choice`], whose decision process each method builds.

use std::path::Path;

use num_rational::BigRational;
use serde::Serialize;

use super::{Error, Game};
use crate::analysis::distribution::{distribution, Distribution, DistributionOptions};
use crate::board::Square;
use crate::chain::check_fits;
use crate::choice::policy_file::{self, runs};
use crate::choice::PolicyModel;
use crate::choice::{evaluate, optimize, within, Evaluation, Game as Choices, Policy};

/// Squares `from` to `to` where the policy makes the same choice, as a policy file writes it
/// (`flip`, `d4`, `6>5>4`, `decline`, ...); squares where no choice comes may lie inside.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PolicyRun {
    /// The first square.
    pub from: Square,
    /// The last square.
    pub to: Square,
    /// The choice.
    pub choice: String,
}

/// A policy and its exact expected turns from the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Scored {
    /// What the policy is ("never flip", a file's name).
    pub name: String,
    /// Its expected turns from the start; `None` when it can never finish.
    #[serde(serialize_with = "crate::num::json::exact_option")]
    pub expected_turns: Option<BigRational>,
    /// A square from which it never finishes (`None` when it finishes).
    pub stuck_from: Option<Square>,
}

/// The best a player who chooses can do, answered by [`Game::optimize`] (the least expected
/// turns) or [`Game::optimize_within`] (the best chance of finishing within `within` turns).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Optimized {
    /// The choice rule's key (`coin`, `choose_die`, ...).
    pub choice: &'static str,
    /// The decision process's states (squares a turn can begin on).
    pub states: usize,
    /// `None`: `value` is the least expected turns; `Some(n)`: the best chance within n turns.
    pub within: Option<u32>,
    /// The optimal value from the start.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub value: BigRational,
    /// An optimal policy (with `within`, the first turn's), in runs of squares.
    pub policy: Vec<PolicyRun>,
    /// Exact policy evaluations made by policy iteration (0 with `within`).
    pub evaluations: usize,
    /// True when the Bellman equation was checked with `==` at every state (false with
    /// `within`).
    pub proved: bool,
    /// The policies that always make the same choice, scored (none with `within`).
    pub others: Vec<Scored>,
}

/// `optimize --json` (docs/json-output.md): [`Optimized`] as the command line writes it, the
/// optimum under `optimal_expected_turns` with `evaluations` and `bellman_holds`, or under
/// `best_chance` with `within`; a policy that finishes without `stuck_from`.
#[derive(Clone, Debug, Serialize)]
pub struct OptimizedJson<'a> {
    choice: &'static str,
    others: Vec<ScoredJson<'a>>,
    policy: &'a [PolicyRun],
    states: usize,
    #[serde(flatten)]
    value: OptimumKeys<'a>,
}

impl<'a> OptimizedJson<'a> {
    /// `optimized` as the command line writes it.
    pub fn new(optimized: &'a Optimized) -> OptimizedJson<'a> {
        let value = &optimized.value;
        OptimizedJson {
            choice: optimized.choice,
            others: optimized.others.iter().map(ScoredJson::new).collect(),
            policy: &optimized.policy,
            states: optimized.states,
            value: match optimized.within {
                None => OptimumKeys::Least {
                    bellman_holds: optimized.proved,
                    evaluations: optimized.evaluations,
                    optimal_expected_turns: value,
                },
                Some(within) => OptimumKeys::Within {
                    best_chance: value,
                    within,
                },
            },
        }
    }
}

/// The optimum's keys: the least expected turns, or the best chance within n turns.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
enum OptimumKeys<'a> {
    Least {
        bellman_holds: bool,
        evaluations: usize,
        #[serde(serialize_with = "crate::num::json::exact")]
        optimal_expected_turns: &'a BigRational,
    },
    Within {
        #[serde(serialize_with = "crate::num::json::exact")]
        best_chance: &'a BigRational,
        within: u32,
    },
}

/// A scored policy: its expected turns, or `null` with the square it is stuck from.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
enum ScoredJson<'a> {
    Finishes {
        #[serde(serialize_with = "crate::num::json::exact")]
        expected_turns: &'a BigRational,
        name: &'a str,
    },
    Stuck {
        expected_turns: Option<()>,
        name: &'a str,
        stuck_from: Option<Square>,
    },
}

impl<'a> ScoredJson<'a> {
    fn new(scored: &'a Scored) -> ScoredJson<'a> {
        match &scored.expected_turns {
            Some(expected_turns) => ScoredJson::Finishes {
                expected_turns,
                name: &scored.name,
            },
            None => ScoredJson::Stuck {
                expected_turns: None,
                name: &scored.name,
                stuck_from: scored.stuck_from,
            },
        }
    }
}

impl Game {
    /// The decision process of the board's choice rule.
    pub(super) fn choices(&self) -> Result<Choices, Error> {
        Choices::new(&self.board).ok_or_else(|| {
            Error::Unanswerable(format!(
                "{}: the board has no choice rule: add one (choose_die = [4, 6], coin = true, \
                 pick = 2, choose_face = true or decline = \"ladders\" in [rules])",
                self.board.origin()
            ))
        })
    }

    /// An optimal policy and the least expected turns, by policy iteration with exact policy
    /// evaluation (proved by the Bellman equation with `==`), and the expected turns of each
    /// policy that always makes the same choice.
    ///
    /// # Errors
    ///
    /// [`Error::Unanswerable`] when the board has no choice rule, or when from some square no
    /// choice ever reaches the finish (the expected turns are infinite).
    pub fn optimize(&self) -> Result<Optimized, Error> {
        let game = self.choices()?;
        let best = self
            .watched(|| optimize(&game))?
            .map_err(|s| self.never_finishes(s))?;
        let others = self.watched(|| {
            game.fixed_policies()
                .into_iter()
                .map(|(name, p)| scored(name, &game, &p))
                .collect()
        })?;
        Ok(Optimized {
            value: at_start(&game, |s| best.values[s].clone()),
            evaluations: best.evaluations,
            proved: best.proved,
            others,
            ..optimized(&game, None, &best.policy)
        })
    }

    /// The best chance of finishing within `turns` turns, and the best first choice with that
    /// many turns left.
    ///
    /// # Errors
    ///
    /// [`Error::Unanswerable`] when the board has no choice rule or `turns` is 0.
    pub fn optimize_within(&self, turns: u32) -> Result<Optimized, Error> {
        let game = self.choices()?;
        if turns == 0 {
            return Err(Error::Unanswerable(
                "within 0 turns: at least 1".to_string(),
            ));
        }
        let w = self.watched(|| within(&game, turns))?;
        Ok(Optimized {
            value: at_start(&game, |s| w.chances[s].clone()),
            ..optimized(&game, Some(turns), &w.first_turn)
        })
    }

    /// The exact expected turns of the policy in the file at `path` (CSV `square,choice` lines
    /// or a TOML `[policy]` table: docs/optimal-play.md), named by the path.
    ///
    /// # Errors
    ///
    /// [`Error::Unanswerable`] when the board has no choice rule, or the file cannot be read or
    /// does not fit the board (with its line).
    pub fn score_policy(&self, path: &Path) -> Result<Scored, Error> {
        let game = self.choices()?;
        let unanswerable = |e: policy_file::PolicyFileError| Error::Unanswerable(e.to_string());
        let policy = policy_file::load(path)
            .and_then(|file| file.policy(&game))
            .map_err(unanswerable)?;
        let name = path.display().to_string();
        self.watched(|| scored(name, &game, &policy))
    }

    /// The exact law of the number of turns when the player follows an optimal policy (the one
    /// [`Game::optimize`] gives), as [`Game::distribution`] gives it for a board without choice.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work; as [`Game::optimize`].
    pub fn optimal_distribution(
        &self,
        options: &DistributionOptions,
    ) -> Result<Distribution, Error> {
        let game = self.choices()?;
        check_fits(&self.board)?;
        let best = self
            .watched(|| optimize(&game))?
            .map_err(|s| self.never_finishes(s))?;
        let model = PolicyModel::new(&self.board, &game, &best.policy);
        Ok(self.watched(|| distribution(&model.chain(), options))??)
    }

    fn never_finishes(&self, square: Square) -> Error {
        Error::Unanswerable(format!(
            "{}: from square {square} no choice ever reaches the finish: the expected turns are \
             infinite",
            self.board.origin()
        ))
    }
}

/// What every optimum shows: the rule, the states, the policy in runs; the value still to set.
fn optimized(game: &Choices, within: Option<u32>, policy: &Policy) -> Optimized {
    Optimized {
        choice: game.rule.key(),
        states: game.squares.len(),
        within,
        value: BigRational::from_integer(0.into()),
        policy: runs(game, policy)
            .into_iter()
            .map(|(from, to, choice)| PolicyRun { from, to, choice })
            .collect(),
        evaluations: 0,
        proved: false,
        others: Vec::new(),
    }
}

/// The value at the game's start (0 when it starts on the finish).
fn at_start(game: &Choices, value: impl Fn(usize) -> BigRational) -> BigRational {
    game.start
        .map_or_else(|| BigRational::from_integer(0.into()), value)
}

/// `policy` named `name`, evaluated exactly from the start.
fn scored(name: String, game: &Choices, policy: &Policy) -> Scored {
    match evaluate(game, policy, false) {
        Evaluation::Finite(v) => Scored {
            name,
            expected_turns: Some(
                game.start
                    .and_then(|s| v[s].clone())
                    .unwrap_or_else(|| BigRational::from_integer(0.into())),
            ),
            stuck_from: None,
        },
        Evaluation::Never(s) => Scored {
            name,
            expected_turns: None,
            stuck_from: Some(s),
        },
    }
}
