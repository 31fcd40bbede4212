//! The façade: one [`Game`] loaded and validated once, then one method per question, each
//! checking its cost before it starts and answering with a result that derives `Serialize`
//! (exact numbers as `{decimal, denominator, numerator}`). What the command line, a Python
//! notebook or a web page asks goes through here; it sits above the analyses and below the
//! reports.
//!
//! ```
//! use ladders::Game;
//! let game = Game::builtin("milton-bradley")?;
//! let shortest = game.shortest()?.shortest.expect("the finish can be reached");
//! assert_eq!(shortest.turns, 7);
//! # Ok::<(), ladders::Error>(())
//! ```

mod duel;
mod error;
mod limits;
mod optimize;
mod play;
mod policy;
mod race;
mod race_json;
mod single;

/// The runnable examples of docs/library.md, run as doctests.
#[doc = include_str!("../../docs/library.md")]
#[cfg(doctest)]
pub struct LibraryDoc;

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::analysis::distribution::{Distribution, DistributionOptions};
use crate::analysis::expectation::{check_exact_solve, expect_with, Expectation};
use crate::analysis::moments::{checked_moments, moments_fit, Moments};
use crate::analysis::pgf::tail::{decay_rate, DecayRate};
use crate::analysis::pgf::{pgf_seconds, pgf_within, Pgf, PGF_SECONDS_LIMIT};
use crate::analysis::shortest::{extremes, Extremes};
use crate::analysis::squares::{
    check_square_answers, square_answers, squares_seconds, SquareAnswers,
};
use crate::analysis::stateful::board_distribution;
use crate::analysis::stateful_fits::Needs;
use crate::board::format::{load_spec, parse_spec};
use crate::board::{near_builtin_names, Board, BoardSpec, RuleOverrides, BUILTIN_BOARDS};
use crate::chain::{on_player_chain, Chain, ChainState, Memory};
use crate::game::Capabilities;
use crate::progress::{self, Listener};

pub use crate::race::{Interval, Method, Race, SeatResult};
pub(crate) use duel::{advantage, upper_f64};
pub use duel::{Duel, DuelJson, DuelPair, DuelProof};
pub use error::{Error, TooLarge, Uncertified, Unit};
pub use limits::Limits;
pub use optimize::{Optimized, OptimizedJson, PolicyRun, Scored};
pub use play::{Played, Sample, Verdict, MAX_GAMES, SIMULATING};
pub use race::{Meeting, RaceSettings, MAX_DIGITS};
pub use race_json::{RaceJson, RaceTableJson};
pub use single::{Expectations, Sensitivity};

/// A board and its rules, validated: the one value every question starts from.
#[derive(Clone)]
pub struct Game {
    spec: BoardSpec,
    board: Board,
    progress: Option<Arc<dyn Listener>>,
    limits: Limits,
    /// The policy the player follows on a board with a choice rule ([`Game::with_optimal_policy`]).
    policy: Option<Arc<policy::Followed>>,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("board", &self.board)
            .field("progress", &self.progress.is_some())
            .field("limits", &self.limits)
            .field("policy", &self.policy_name())
            .finish_non_exhaustive()
    }
}

impl Game {
    /// A built-in board by name (`ladders boards` lists them).
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] with the built-in names near `name`.
    pub fn builtin(name: &str) -> Result<Game, Error> {
        let found = BUILTIN_BOARDS.iter().find(|b| b.name == name);
        let Some(b) = found else {
            return Err(Error::NotFound {
                name: crate::text::printable(name),
                near: near_builtin_names(name)
                    .into_iter()
                    .map(String::from)
                    .collect(),
            });
        };
        Game::from_spec(parse_spec(b.text, &format!("builtin:{}", b.name))?)
    }

    /// A board file's text; `origin` names it in messages (a path, or what the caller likes).
    ///
    /// # Errors
    ///
    /// [`Error::Board`] with every problem of the text at once.
    pub fn from_toml(text: &str, origin: &str) -> Result<Game, Error> {
        Game::from_spec(parse_spec(text, origin)?)
    }

    /// A board file.
    ///
    /// # Errors
    ///
    /// [`Error::Board`]: the file cannot be read, or every problem of its text.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Game, Error> {
        Game::from_spec(load_spec(path.as_ref())?)
    }

    /// A board file's text read from `reader` (standard input: `std::io::stdin().lock()`);
    /// `origin` names it in messages (`-` for standard input). At most
    /// [`MAX_FILE_BYTES`](crate::board::MAX_FILE_BYTES) bytes are read.
    ///
    /// # Errors
    ///
    /// [`Error::Board`]: the reader fails, gives more than the limit or bytes that are not
    /// UTF-8, or every problem of its text.
    pub fn from_reader(reader: impl std::io::Read, origin: &str) -> Result<Game, Error> {
        let text = crate::board::read_text(reader, origin, 0)?;
        Game::from_toml(&text, origin)
    }

    /// The same game with some rules replaced (`None` fields keep the board's own).
    ///
    /// # Errors
    ///
    /// [`Error::Board`] when the rules do not fit the board.
    pub fn with_rules(&self, overrides: &RuleOverrides) -> Result<Game, Error> {
        let mut spec = self.spec.clone();
        spec.apply(overrides);
        Ok(self.same_listener(Game::from_spec(spec)?))
    }

    /// The same board with every snake and ladder swapped end for end.
    ///
    /// # Errors
    ///
    /// [`Error::Board`] when the swapped board is not valid (a jump onto the finish's square
    /// would start there).
    pub fn reversed(&self) -> Result<Game, Error> {
        let mut spec = self.spec.clone();
        spec.reverse();
        Ok(self.same_listener(Game::from_spec(spec)?))
    }

    /// A board already validated (the command line's, after its own checks).
    pub fn from_board(board: Board) -> Game {
        Game {
            spec: board.spec().clone(),
            board,
            progress: None,
            limits: Limits::default(),
            policy: None,
        }
    }

    /// A board read but not yet validated (the command line's reader, after its own
    /// transforms).
    ///
    /// # Errors
    ///
    /// [`Error::Board`] with every problem of the board at once.
    pub fn from_spec(spec: BoardSpec) -> Result<Game, Error> {
        let board = spec.clone().validate()?;
        Ok(Game {
            spec,
            board,
            progress: None,
            limits: Limits::default(),
            policy: None,
        })
    }

    /// The same game, its long work told to `listener` as it goes (the stages of a solve, a
    /// distribution's turns, ...: [`Listener`]); work on this thread only, not the process's
    /// listener. When [`Listener::cancelled`] says so, the work stops at its next report of
    /// progress and the question ends with [`Error::Cancelled`] (not where panics abort).
    pub fn with_progress(mut self, listener: Arc<dyn Listener>) -> Game {
        self.progress = Some(listener);
        self
    }

    /// Runs `work`, told to this game's listener when it has one, which may stop it.
    fn watched<T>(&self, work: impl FnOnce() -> T) -> Result<T, Error> {
        match &self.progress {
            Some(listener) => Ok(progress::cancellable(listener.clone(), work)?),
            None => Ok(work()),
        }
    }

    /// `other` told to this game's listener and within its limits.
    fn same_listener(&self, mut other: Game) -> Game {
        other.progress = self.progress.clone();
        other.limits = self.limits;
        other
    }

    /// The validated board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Refuses a board whose player chooses: its questions need a policy, and this one is not
    /// answered for a player who follows one.
    fn no_choice(&self) -> Result<(), Error> {
        if let Some(followed) = &self.policy {
            return Err(followed.not_answered(&self.board));
        }
        match self.board.choice() {
            Some(rule) => Err(Error::NeedsPolicy {
                origin: self.board.origin().to_string(),
                rule: rule.key(),
            }),
            None => Ok(()),
        }
    }

    /// The exact expected turns, variance, rolls, snakes and ladders taken, squares climbed and
    /// slid; infinite (with a trap) when the game can go on for ever.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the solve, [`Error::NeedsPolicy`].
    pub fn expect(&self) -> Result<Expectation, Error> {
        self.expectation(false)
    }

    /// [`Game::expect`] with the expected remaining turns from every reachable square.
    ///
    /// # Errors
    ///
    /// As [`Game::expect`].
    pub fn expect_per_square(&self) -> Result<Expectation, Error> {
        self.expectation(true)
    }

    fn expectation(&self, per_square: bool) -> Result<Expectation, Error> {
        self.no_choice()?;
        let needs = match per_square {
            true => Needs::FullSolve,
            false => Needs::LawSolve,
        };
        self.stateful_fits(needs)?;
        self.square_solve_fits()?;
        self.expect_chain_fits()?;
        self.solved_expectation(per_square)
    }

    /// The expectations of [`expect_with`], refused before the solve when it is estimated too
    /// long ([`check_exact_solve`]; the caller checks the other estimates first).
    fn solved_expectation(&self, per_square: bool) -> Result<Expectation, Error> {
        check_exact_solve(&self.board)?;
        self.watched(|| expect_with(&self.board, per_square))
    }

    /// E\[T^j\], the factorial and central moments of the number of turns for j = 1..=k.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work, [`Error::Unanswerable`] when the game can go on
    /// for ever (the moments are infinite).
    pub fn moments(&self, k: usize) -> Result<Moments, Error> {
        self.no_choice()?;
        self.chain_fits()?;
        self.stateful_fits(Needs::LawSolve)?;
        self.watched(|| {
            on_player_chain!(&self.board, Memory::Turns, |_, chain| self
                .moments_of(chain, k))
        })?
    }

    /// The exact law of the number of turns: P(T = n) and P(T > n) up to the turns `options`
    /// asks for (by default until P(T > n) falls below 10^-12), its quantiles, mode, mean,
    /// decay rate and proved tail law.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the stepping, [`Error::NeedsPolicy`].
    pub fn distribution(&self, options: &DistributionOptions) -> Result<Distribution, Error> {
        if let Some(model) = self.policy_model() {
            return self.followed_distribution(&model, options);
        }
        self.no_choice()?;
        self.law_fits_before(options)?;
        Ok(self.watched(|| board_distribution(&self.board, options))??)
    }

    /// The probability generating function of the number of turns, `F(z) = N(z) / D(z)`, the
    /// minimal recurrence of `P(T = n)` and the proved decay rate of the tail.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work, [`Error::NeedsPolicy`].
    pub fn pgf(&self) -> Result<ClosedForm, Error> {
        self.no_choice()?;
        self.chain_fits()?;
        self.stateful_fits(Needs::Law)?;
        self.watched(|| {
            on_player_chain!(&self.board, Memory::Turns, |_, chain| self
                .closed_form(chain))
        })?
    }

    /// The answers square by square: expected turns begun on each square, the probability a
    /// move ever ends on it, the expected turns left from it, and each jump's expected uses and
    /// probability of being taken (where the rules allow them: see [`SquareAnswers`]).
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the solves, [`Error::NeedsPolicy`], [`Error::Unanswerable`]
    /// when the game can go on for ever (the visits are infinite).
    pub fn squares(&self) -> Result<SquareAnswers, Error> {
        self.no_choice()?;
        self.chain_fits()?;
        self.stateful_fits(Needs::FullSolve)?;
        check_square_answers(&self.board)?;
        if Capabilities::of(&self.board).stateless {
            self.seconds_fit("per-square answers", || {
                squares_seconds(&Chain::for_board(&self.board))
            })?;
        }
        self.watched(|| square_answers(&self.board))?
            .map_err(|e| Error::Unanswerable(e.to_string()))
    }

    /// The shortest game (its turns, rolls, probability and a witness) and the longest.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the chain is built, [`Error::NeedsPolicy`].
    pub fn shortest(&self) -> Result<Extremes, Error> {
        if let Some(model) = self.policy_model() {
            return self.followed_shortest(&model);
        }
        self.no_choice()?;
        self.chain_fits()?;
        self.stateful_fits(Needs::Full)?;
        self.watched(|| extremes(&self.board))
    }
}

/// The generating function of T and the decay rate of its tail, proved.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct ClosedForm {
    /// `F(z) = N(z) / D(z)` and the minimal recurrence of `P(T = n)`.
    pub pgf: Pgf,
    /// rho enclosed, with its multiplicity and the constant of the tail when proved.
    pub decay: Option<DecayRate>,
}

impl Game {
    /// The generating function on `chain`, refused from its estimate before the work.
    fn closed_form<S: ChainState>(&self, chain: &Chain<S>) -> Result<ClosedForm, Error> {
        self.seconds_fit("generating function", || pgf_seconds(chain))?;
        let pgf = pgf_within(chain, PGF_SECONDS_LIMIT)?;
        let decay = decay_rate(chain, &pgf);
        Ok(ClosedForm { pgf, decay })
    }

    /// The moments to order k on `chain`, refused from the estimates before any solve.
    fn moments_of<S: ChainState>(&self, chain: &Chain<S>, k: usize) -> Result<Moments, Error> {
        if let Some(trap) = chain.trap() {
            return Err(Error::Unanswerable(format!(
                "the game can go on for ever (from state {:?}), so its moments are infinite",
                trap.state
            )));
        }
        moments_fit(chain, k)?;
        self.moments_fit(chain, k)?;
        Ok(checked_moments(chain, k)?)
    }
}
