//! The façade's races of several [`Game`]s: [`Game::race`] of seats that never meet,
//! [`Game::race_with`] of seats that never meet, knock each other off or share one board that
//! changes during a game, and [`Game::race_table`] over numbers of players; each answer a
//! [`Race`] of certified intervals of exact rationals, from [`crate::race`], its cost checked
//! first.

use std::ops::RangeInclusive;

use super::error::Uncertified;
use super::play::{counting_games, games_within_bounds};
use super::{Error, Game, TooLarge, Unit};
use crate::board::Board;
use crate::chain::{endless_turn, endless_turn_sentence};
use crate::race::independent::SERIES_SECONDS_LIMIT;
use crate::race::knockoff::{
    knock_off_race, KnockOffError, KnockOffOptions, BYTES_PER_JOINT_STATE, KNOCK_OFF_MEMORY,
};
use crate::race::relative::{self, RelativeError};
use crate::race::shared::{
    refuse_endless_shared, shared_race, SharedError, SharedOptions, SHARED_BYTES_PER_STATE,
    SHARED_MEMORY,
};
use crate::race::{race, Race, RaceError, RaceOptions};
use crate::simulate::race::{
    compare_race, simulate_race, RaceComparison, RaceExact, RaceSimOptions, RaceSimulation,
    CHECK_DIGITS,
};
use crate::simulate::shared::simulate_shared;
use crate::simulate::SimOptions;

/// With a check of a race of seats that meet ([`Game::race_check_law`]), joint chains up to
/// this many transient states are solved exactly; larger ones are stepped to the certified
/// digits a check needs.
pub const CHECK_EXACT_LIMIT: usize = 400;

/// The most digits a race may certify.
pub const MAX_DIGITS: usize = 200;

/// How the seats of a race meet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Meeting {
    /// Never: each seat plays its own board (a board of its own rules, reversed, ...); the
    /// answers are a series summed to a certified interval.
    #[default]
    Never,
    /// The knock-off rule (seed 004): a move that ends on a square where another seat stands
    /// sends that seat back to the start; every seat's board has the same squares.
    KnockOff,
    /// Every seat plays the same board, which changes during a game (one-use jumps broken for
    /// all, apples eaten, lost and extra turns): the seats are the same game.
    SharedBoard,
}

/// What a race certifies and how far it may go; [`RaceSettings::new`] gives the defaults of
/// `ladders race`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RaceSettings {
    /// How the seats meet.
    pub meeting: Meeting,
    /// Digits after the point every answer certifies, 1 to [`MAX_DIGITS`] (a joint chain
    /// solved in floats certifies about 15 at most).
    pub digits: usize,
    /// The most turns per player the series (or the joint stepping) is summed to before giving
    /// up on more digits ([`Race::complete`] is then false).
    pub max_turns: usize,
    /// Keep P(L >= n) for the law of the game's length in rounds ([`Race::rounds_at_least`];
    /// seats that never meet).
    pub distribution: bool,
    /// A joint chain (knock-off, shared board) with at most this many states is solved exactly;
    /// a larger one gets certified bounds.
    pub exact_limit: usize,
    /// A joint chain with more states is refused; `None`: 200,000 for knock-off, 2,000,000 on
    /// a shared board.
    pub state_limit: Option<usize>,
    /// On a shared board with point squares, each seat's expected score too (the joint chain
    /// then also tracks which apples each turn ate).
    pub scores: bool,
}

impl RaceSettings {
    /// The defaults for seats that meet so: 15 digits (12 when they meet), 100,000 turns per
    /// player, no law of the rounds, joint chains of up to 2,000 states solved exactly.
    pub fn new(meeting: Meeting) -> RaceSettings {
        RaceSettings {
            meeting,
            digits: match meeting {
                Meeting::Never => 15,
                Meeting::KnockOff | Meeting::SharedBoard => 12,
            },
            max_turns: RaceOptions::default().max_turns,
            distribution: false,
            exact_limit: KnockOffOptions::default().exact_limit,
            state_limit: None,
            scores: true,
        }
    }

    /// The same settings certifying `digits` digits.
    pub fn digits(mut self, digits: usize) -> RaceSettings {
        self.digits = digits;
        self
    }
}

impl Default for RaceSettings {
    fn default() -> RaceSettings {
        RaceSettings::new(Meeting::Never)
    }
}

impl Game {
    /// Each seat's chance of finishing first when `seats` play in this order, each on its own
    /// board (they never meet), certified to `digits` digits after the point:
    /// [`Game::race_with`] with [`Meeting::Never`].
    ///
    /// # Errors
    ///
    /// As [`Game::race_with`].
    pub fn race(seats: &[Game], digits: usize) -> Result<Race, Error> {
        Game::race_with(seats, &RaceSettings::new(Meeting::Never).digits(digits))
    }

    /// The race of `seats` in this order (the first moves first) as `settings` asks: each
    /// seat's chance of finishing first, the expected rounds (and with point squares each
    /// seat's expected score), every answer a certified interval of exact rationals. Told to the
    /// first seat's listener.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work (a seat's chain, the series' time, the joint chain's
    /// states or memory); [`Error::NeedsPolicy`]; [`Error::Unanswerable`] for no seats, digits
    /// outside 1 to [`MAX_DIGITS`], a board that changes during a game with seats that do not
    /// share it (or shared seats that are not one game), knock-off boards of different sizes, or
    /// a game that can last for ever; [`Error::Uncertified`] for seats that meet whose bounds
    /// could not be certified (the race's own error kept).
    pub fn race_with(seats: &[Game], settings: &RaceSettings) -> Result<Race, Error> {
        if !(1..=MAX_DIGITS).contains(&settings.digits) {
            return Err(Error::Unanswerable(format!(
                "{} digits: from 1 to {MAX_DIGITS}",
                settings.digits
            )));
        }
        for seat in seats {
            seat.no_choice()?;
        }
        let work = || match settings.meeting {
            Meeting::Never | Meeting::KnockOff => apart_or_knock_off(seats, settings),
            Meeting::SharedBoard => shared(seats, settings),
        };
        match seats.first() {
            Some(first) => first.watched(work)?,
            None => work(),
        }
    }

    /// [`Game::race_with`] with every number of `players`, all on this game: one [`Race`] per
    /// count, in order.
    ///
    /// # Errors
    ///
    /// As [`Game::race_with`], for the first count that fails; [`Error::Unanswerable`] for no
    /// players.
    pub fn race_table(
        &self,
        players: RangeInclusive<usize>,
        settings: &RaceSettings,
    ) -> Result<Vec<Race>, Error> {
        if players.is_empty() || *players.start() == 0 {
            return Err(RaceError::NoPlayers.into());
        }
        players
            .map(|k| Game::race_with(&vec![self.clone(); k], settings))
            .collect()
    }

    /// Whether the board changes during a game (one-use jumps, points, lost or extra turns), so
    /// that seats racing on it share it ([`Meeting::SharedBoard`]).
    pub fn changes_during_a_game(&self) -> bool {
        !crate::game::Capabilities::of(&self.board).stateless
    }
}

impl Game {
    /// Plays `options.games` races of `seats` roll by roll (`options.max_turns` caps the
    /// rounds), seeded, on the threads of the current rayon pool: seats that never meet or
    /// knock each other off ([`Meeting::KnockOff`]: the knock-off rule), each on its own game;
    /// or seats sharing one board that changes during a game ([`Meeting::SharedBoard`], the
    /// same game in every seat).
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] when a seat's chain would not fit (the check the exact race makes);
    /// [`Error::EndlessTurn`] or [`Error::Unanswerable`] when a turn of the race can go on for
    /// ever; [`Error::Unanswerable`] for no seats, no games or more than
    /// [`MAX_GAMES`](super::MAX_GAMES), knock-off seats on boards of different sizes, or seats
    /// that do not fit `meeting` (a board that changes during a game is shared).
    pub fn race_simulation(
        seats: &[Game],
        meeting: Meeting,
        options: &SimOptions,
    ) -> Result<RaceSimulation, Error> {
        let games = games_within_bounds(options.games)?;
        let Some(first) = seats.first() else {
            return Err(KnockOffError::NoPlayers.into());
        };
        let race_options = RaceSimOptions {
            games,
            seed: options.seed,
            max_rounds: options.max_turns,
            knock_off: meeting == Meeting::KnockOff,
        };
        if meeting == Meeting::SharedBoard {
            let board = same_board(seats, false)?;
            first.refuse_endless_turn()?;
            let origin = |e: SharedError| Error::Unanswerable(format!("{}: {e}", board.origin()));
            refuse_endless_shared(board, seats.len()).map_err(origin)?;
            return first.watched(|| {
                counting_games(games, |played| {
                    simulate_shared(board, seats.len(), &race_options, played)
                })
            });
        }
        for seat in seats {
            seat.no_choice()?;
            seat.apart()?;
            seat.chain_fits()?;
        }
        for seat in seats {
            seat.refuse_endless_turn()?;
        }
        let boards: Vec<&Board> = seats.iter().map(|s| &s.board).collect();
        let race = first.watched(|| {
            counting_games(games, |played| {
                simulate_race(&boards, &race_options, played)
            })
        })?;
        Ok(race?)
    }

    /// The exact race a simulated race of `seats` (meeting so) is checked against
    /// ([`Game::judge_race_simulation`]): each seat's chance of winning and the expected rounds,
    /// certified to `CHECK_DIGITS` digits (far below any sampling error), the law of the rounds
    /// for seats that never meet, no scores. Joint chains up to `CHECK_EXACT_LIMIT` transient
    /// states are solved exactly; larger ones are stepped to those digits, which is faster.
    ///
    /// # Errors
    ///
    /// As [`Game::race_with`]; on a shared board, [`Error::EndlessTurn`] first when a turn can
    /// go on for ever (no simulated game could end).
    pub fn race_check_law(seats: &[Game], meeting: Meeting) -> Result<RaceExact, Error> {
        let mut settings = RaceSettings::new(meeting).digits(CHECK_DIGITS);
        settings.exact_limit = CHECK_EXACT_LIMIT;
        settings.scores = false;
        if meeting == Meeting::SharedBoard {
            if let Some(first) = seats.first() {
                first.refuse_endless_turn()?;
            }
            return Ok(RaceExact::from_race(Game::race_with(seats, &settings)?));
        }
        let race = Game::race_with(seats, &settings)?;
        let boards: Vec<&Board> = seats.iter().map(|s| &s.board).collect();
        Ok(RaceExact::of_check(
            race,
            &boards,
            meeting == Meeting::KnockOff,
        ))
    }

    /// A simulated race against the exact race of its seats ([`Game::race_check_law`]), seat by
    /// seat: each win share, the mean rounds and the win counts together, at a family-wise
    /// level of 5e-7.
    ///
    /// # Errors
    ///
    /// [`Error::CensoredRace`] when races were stopped at the round cap.
    pub fn judge_race_simulation(
        exact: &RaceExact,
        sim: &RaceSimulation,
    ) -> Result<RaceComparison, Error> {
        if sim.capped > 0 {
            return Err(Error::CensoredRace {
                capped: sim.capped,
                races: sim.games(),
                cap: sim.max_rounds,
                rounds: exact.rounds,
            });
        }
        Ok(compare_race(exact, sim))
    }

    /// Refuses a seat of its own on a board that changes during a game (every seat shares
    /// such a board).
    fn apart(&self) -> Result<(), Error> {
        match self.changes_during_a_game() {
            true => Err(Error::Unanswerable(format!(
                "{}: a board that changes during a game is shared by every seat, not raced on \
                 by seats of their own",
                self.board.origin()
            ))),
            false => Ok(()),
        }
    }
}

/// The one board every seat shares (the same game in each; with `distribution`, refused: no
/// law of the rounds is kept for a shared board).
fn same_board(seats: &[Game], distribution: bool) -> Result<&Board, Error> {
    let Some(first) = seats.first() else {
        return Err(SharedError::NoPlayers.into());
    };
    let board = &first.board;
    if seats.iter().any(|s| s.spec != first.spec) || distribution {
        return Err(Error::Unanswerable(format!(
            "{}: a board that changes during a game is shared by every seat (a broken ladder is \
             broken for all): one game for all seats, and no law of the rounds",
            board.origin()
        )));
    }
    Ok(board)
}

/// Seats that never meet, or knock each other off: each seat's chain must fit, and a board that
/// changes during a game is shared, not raced on apart.
fn apart_or_knock_off(seats: &[Game], settings: &RaceSettings) -> Result<Race, Error> {
    for seat in seats {
        seat.apart()?;
        seat.chain_fits()?;
    }
    let boards: Vec<&Board> = seats.iter().map(|s| &s.board).collect();
    let boards = boards.as_slice();
    let max_turns = settings.max_turns.max(1);
    if settings.meeting == Meeting::Never {
        let options = RaceOptions {
            digits: settings.digits,
            max_turns,
            distribution: settings.distribution,
        };
        return Ok(race(boards, &options)?);
    }
    if settings.distribution {
        return Err(Error::Unanswerable(
            "the law of the rounds is for seats that never meet".to_string(),
        ));
    }
    let options = KnockOffOptions {
        digits: settings.digits,
        max_turns,
        state_limit: settings
            .state_limit
            .unwrap_or(KnockOffOptions::default().state_limit),
        exact_limit: settings.exact_limit,
    };
    knock_off_race(boards, true, &options).map_err(|e| match e {
        KnockOffError::NoTailBound(_) => Error::Uncertified(Uncertified::keeping(e, boards.len())),
        other => other.into(),
    })
}

/// Seats sharing one board that changes during a game: one game for every seat, refused when a
/// turn of the shared game can go on for ever.
fn shared(seats: &[Game], settings: &RaceSettings) -> Result<Race, Error> {
    let board = same_board(seats, settings.distribution)?;
    if let Some(square) = endless_turn(board) {
        return Err(Error::Unanswerable(format!(
            "{}: {} (the chance that it never ends is above 0), so a game might never end",
            board.origin(),
            endless_turn_sentence(board, square)
        )));
    }
    let origin = |e: SharedError| Error::Unanswerable(format!("{}: {e}", board.origin()));
    refuse_endless_shared(board, seats.len()).map_err(origin)?;
    let options = SharedOptions {
        digits: settings.digits,
        exact_limit: settings.exact_limit,
        state_limit: settings
            .state_limit
            .unwrap_or(SharedOptions::default().state_limit),
        scores: settings.scores,
    };
    Ok(shared_race(board, seats.len(), &options)?)
}

impl From<RaceError> for Error {
    fn from(e: RaceError) -> Error {
        match e {
            RaceError::TooLong { seconds, .. } => Error::TooLarge(TooLarge::keeping(
                e,
                "race series",
                seconds as f64,
                SERIES_SECONDS_LIMIT,
                Unit::Seconds,
            )),
            other => Error::Unanswerable(other.to_string()),
        }
    }
}

impl From<KnockOffError> for Error {
    fn from(e: KnockOffError) -> Error {
        let (what, estimate, limit, unit) = match &e {
            KnockOffError::TooLarge(too) => (
                "knock-off joint chain",
                (too.limit as f64 + 1.0) * BYTES_PER_JOINT_STATE,
                too.limit as f64 * BYTES_PER_JOINT_STATE,
                Unit::Bytes,
            ),
            KnockOffError::TooMuchMemory { states, .. } => (
                "knock-off joint chain memory",
                *states as f64 * BYTES_PER_JOINT_STATE,
                KNOCK_OFF_MEMORY,
                Unit::Bytes,
            ),
            KnockOffError::Relative(RelativeError::TooLarge { seconds, .. })
                if *seconds as f64 > relative::SECONDS_LIMIT =>
            {
                (
                    "knock-off relative positions time",
                    *seconds as f64,
                    relative::SECONDS_LIMIT,
                    Unit::Seconds,
                )
            }
            KnockOffError::Relative(RelativeError::TooLarge { megabytes, .. }) => (
                "knock-off relative positions",
                *megabytes as f64 * (1u64 << 20) as f64,
                relative::MEMORY_LIMIT as f64,
                Unit::Bytes,
            ),
            _ => return Error::Unanswerable(e.to_string()),
        };
        Error::TooLarge(TooLarge::keeping(e, what, estimate, limit, unit))
    }
}

impl From<SharedError> for Error {
    fn from(e: SharedError) -> Error {
        let (what, estimate, limit) = match &e {
            SharedError::TooLarge { bound, limit, .. } => (
                "shared joint chain",
                bound * SHARED_BYTES_PER_STATE,
                *limit as f64 * SHARED_BYTES_PER_STATE,
            ),
            SharedError::TooMuchMemory { bound, .. } => (
                "shared joint chain memory",
                bound * SHARED_BYTES_PER_STATE,
                SHARED_MEMORY,
            ),
            SharedError::Layered(_, players) => {
                let players = *players;
                return Error::Uncertified(Uncertified::keeping(e, players));
            }
            _ => return Error::Unanswerable(e.to_string()),
        };
        Error::TooLarge(TooLarge::keeping(e, what, estimate, limit, Unit::Bytes))
    }
}
