//! The façade's budget: [`Limits`], the memory, seconds and word operations one question may
//! take, and the checks every method of [`Game`] makes against it before any work starts. Each
//! check reads an estimate the analyses give in a fraction of a second (a chain's size from its
//! rolls, a solve's seconds from its states, the stepping's work from the decay rate) and refuses
//! with [`TooLarge`] and its estimate when it is over the budget.
//!
//! The defaults are the analyses' own limits (docs/limits.md), which they keep: a budget may be
//! tightened, not widened past them.

use serde::Serialize;

use super::{Error, Game, TooLarge, Unit};
use crate::analysis::distribution::{
    stepping_work, turns_for_tail, DistributionOptions, WORK_LIMIT,
};
use crate::analysis::moments::{self, pgf_seconds};
use crate::analysis::spectral::spectral_radius;
use crate::analysis::stateful_fits::{check_stateful, Needs, STATEFUL_SECONDS_LIMIT};
use crate::chain::{
    check_fits, on_player_chain, Chain, ChainSize, ChainState, Memory, CHAIN_BYTES_LIMIT,
};
use crate::exact::step::IntegerChain;
use crate::game::Capabilities;

/// What one question may take, checked from estimates before the work starts.
///
/// ```
/// use ladders::{Error, Game, Limits};
/// let tight = Limits::new(500e6, 1e-6, 3e10)?;
/// let game = Game::builtin("milton-bradley")?.with_limits(tight);
/// match game.pgf() {
///     Err(Error::TooLarge(t)) => assert!(t.estimate > t.limit),
///     other => panic!("{other:?}"),
/// }
/// # Ok::<(), ladders::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Limits {
    bytes: f64,
    seconds: f64,
    operations: f64,
}

impl Default for Limits {
    /// The analyses' own limits: 500 MB for a chain, 30 s for an exact solve (10 s for the
    /// moments), 3 * 10^10 word operations for stepping the law of T.
    fn default() -> Limits {
        Limits {
            bytes: CHAIN_BYTES_LIMIT,
            seconds: STATEFUL_SECONDS_LIMIT,
            operations: WORK_LIMIT,
        }
    }
}

impl Limits {
    /// A budget of `bytes` of memory for a chain, `seconds` of one core for an exact solve
    /// (the moments get a third of it, as the default's 10 s of 30) and `operations` word
    /// operations for stepping the law of T.
    ///
    /// # Errors
    ///
    /// [`Error::Unanswerable`] when a value is not positive, or above the default
    /// ([`Limits::default`]: the analyses refuse past those themselves).
    pub fn new(bytes: f64, seconds: f64, operations: f64) -> Result<Limits, Error> {
        let most = Limits::default();
        for (value, ceiling, unit) in [
            (bytes, most.bytes, Unit::Bytes),
            (seconds, most.seconds, Unit::Seconds),
            (operations, most.operations, Unit::Operations),
        ] {
            if !(value > 0.0 && value <= ceiling) {
                return Err(Error::Unanswerable(format!(
                    "a limit of {value} {unit}: expected above 0 and at most {ceiling} {unit}"
                )));
            }
        }
        Ok(Limits {
            bytes,
            seconds,
            operations,
        })
    }

    /// Bytes of memory a chain may take.
    pub fn bytes(&self) -> f64 {
        self.bytes
    }

    /// Seconds of one core an exact solve may take.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// Word operations the exact stepping of the law of T may take.
    pub fn operations(&self) -> f64 {
        self.operations
    }

    /// Seconds the moments may take: a third of [`Limits::seconds`].
    pub fn moments_seconds(&self) -> f64 {
        self.seconds * moments::SECONDS_LIMIT / STATEFUL_SECONDS_LIMIT
    }

    fn tighter(&self) -> Tighter {
        let most = Limits::default();
        Tighter {
            bytes: self.bytes < most.bytes,
            seconds: self.seconds < most.seconds,
            operations: self.operations < most.operations,
        }
    }
}

/// Which budgets are below the analyses' own limits (only those need their own estimate).
struct Tighter {
    bytes: bool,
    seconds: bool,
    operations: bool,
}

/// `estimate` over `limit`: refused with a message that gives both.
fn over(what: &'static str, estimate: f64, limit: f64, unit: Unit) -> Result<(), Error> {
    if estimate <= limit {
        return Ok(());
    }
    let message = format!(
        "the {what} would take about {} (estimated before starting; the limit is {})",
        amount(estimate, unit),
        amount(limit, unit)
    );
    Err(Error::TooLarge(TooLarge {
        what,
        estimate,
        limit,
        unit,
        message,
        detail: None,
    }))
}

/// `x` in `unit` for a message: megabytes (bytes below one), seconds, operations.
fn amount(x: f64, unit: Unit) -> String {
    let (x, unit) = match unit {
        Unit::Bytes if x >= 1e6 => (x / 1e6, "MB"),
        Unit::Bytes => (x, "bytes"),
        Unit::Seconds => (x, "s"),
        Unit::Operations => (x, "word operations"),
    };
    format!("{} {unit}", significant(x))
}

/// `x` to three significant digits, whole numbers with thousands separators, the very small
/// and very large in scientific form.
fn significant(x: f64) -> String {
    match x {
        x if (1000.0..1e15).contains(&x) => crate::text::thousands(x.round() as u64),
        x if (0.01..1000.0).contains(&x) => {
            let decimals = (2 - x.log10().floor() as i32).max(0) as usize;
            format!("{x:.decimals$}")
        }
        x => format!("{x:.2e}"),
    }
}

impl Game {
    /// The same game answering within `limits`.
    pub fn with_limits(mut self, limits: Limits) -> Game {
        self.limits = limits;
        self
    }

    /// The budget this game answers within.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The turn chain over the squares fits the memory budget.
    pub(super) fn chain_fits(&self) -> Result<(), Error> {
        check_fits(&self.board)?;
        if self.limits.tighter().bytes {
            if let Some(size) = ChainSize::of(&self.board) {
                over("turn chain", size.bytes, self.limits.bytes, Unit::Bytes)?;
            }
        }
        Ok(())
    }

    /// Whether the law of T to `options`' turns is stepped on the links form past the whole
    /// turns' limit, within the stepping's own limit
    /// ([`crate::analysis::distribution::linked_distribution`] says when).
    pub(super) fn law_on_links(&self, options: &DistributionOptions) -> bool {
        crate::analysis::distribution::linked_fits(&self.board, options)
    }

    /// The turn chain fits the memory budget when the expectations are solved on it: on a
    /// board without a roll-level form (`roll_again = K`, or draws whose common denominator
    /// passes 2^62: [`crate::chain::RollSquares::applies`]).
    pub(super) fn expect_chain_fits(&self) -> Result<(), Error> {
        match crate::chain::RollSquares::applies(&self.board) {
            true => Ok(()),
            false => self.chain_fits(),
        }
    }

    /// The chain `needs` names on a board that changes during a game fits the memory budget,
    /// and its exact solve (when `needs` solves) the seconds'.
    pub(super) fn stateful_fits(&self, needs: Needs) -> Result<(), Error> {
        let Some(estimate) = check_stateful(&self.board, needs)? else {
            return Ok(());
        };
        let tighter = self.limits.tighter();
        if tighter.bytes {
            let bytes = estimate.count.bytes();
            over("chain of states", bytes, self.limits.bytes, Unit::Bytes)?;
        }
        if tighter.seconds && matches!(needs, Needs::LawSolve | Needs::FullSolve) {
            let seconds = estimate.solve_seconds();
            over("exact solve", seconds, self.limits.seconds, Unit::Seconds)?;
        }
        Ok(())
    }

    /// On a board whose state is the square, its exact solve fits the seconds' budget:
    /// `squares^2 / 6.5e7` s, as [`crate::analysis::design::sensitivity_seconds`] estimates one
    /// (a board that changes during a game is estimated by [`Game::stateful_fits`]).
    pub(super) fn square_solve_fits(&self) -> Result<(), Error> {
        if !Capabilities::of(&self.board).stateless {
            return Ok(());
        }
        self.seconds_fit("exact solve", || {
            let squares = f64::from(self.board.size()) + 1.0;
            squares * squares / 6.5e7
        })
    }

    /// `seconds()` (an analysis's own estimate, made only when the budget is tighter than the
    /// analysis's own limit) fits the seconds' budget.
    pub(super) fn seconds_fit(
        &self,
        what: &'static str,
        seconds: impl FnOnce() -> f64,
    ) -> Result<(), Error> {
        match self.limits.tighter().seconds {
            true => over(what, seconds(), self.limits.seconds, Unit::Seconds),
            false => Ok(()),
        }
    }

    /// The moments to order k on `chain` fit their share of the seconds' budget: the route
    /// [`moments::checked_moments`] takes (the generating function's derivatives when within
    /// its own limit, else the solves).
    pub(super) fn moments_fit<S: ChainState>(
        &self,
        chain: &Chain<S>,
        k: usize,
    ) -> Result<(), Error> {
        if !self.limits.tighter().seconds {
            return Ok(());
        }
        let by_pgf = pgf_seconds(chain);
        let seconds = match by_pgf <= moments::SECONDS_LIMIT {
            true => by_pgf,
            false => moments::solve_seconds(chain, k),
        };
        over(
            "moments",
            seconds,
            self.limits.moments_seconds(),
            Unit::Seconds,
        )
    }

    /// The exact stepping of the law of T on `chain` to the turns `options` needs fits the
    /// operations' budget (estimated from the decay rate, as the stepping's own plan does).
    pub(super) fn stepping_fits<S: ChainState>(
        &self,
        chain: &Chain<S>,
        options: &DistributionOptions,
    ) -> Result<(), Error> {
        if !self.limits.tighter().operations {
            return Ok(());
        }
        let need = match options.turns {
            Some(n) => n as f64,
            None if chain.trap().is_none() => {
                let rho = spectral_radius(chain);
                match turns_for_tail(chain, rho, &options.tail) {
                    Some(n) => n.max(options.min_turns as f64),
                    None => return Ok(()),
                }
            }
            None => return Ok(()),
        };
        let work = stepping_work(&IntegerChain::new(chain), need);
        over(
            "exact distribution",
            work,
            self.limits.operations,
            Unit::Operations,
        )
    }

    /// [`Game::stepping_fits`] on the chain the law of this game is stepped on.
    pub(super) fn law_fits(&self, options: &DistributionOptions) -> Result<(), Error> {
        if !self.limits.tighter().operations {
            return Ok(());
        }
        on_player_chain!(&self.board, Memory::Turns, |_, chain| self
            .stepping_fits(chain, options))
    }
}
