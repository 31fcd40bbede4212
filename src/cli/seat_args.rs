//! The seats of a race, declared once and flattened into `race`, `simulate` and `check`: the
//! boards in playing order, how many players, which seats play their board reversed, and the
//! knock-off rule. `race` takes a number of players or a range `A..B` (a table); `simulate` and
//! `check` take a number only and word their help for a command that is a race only when asked:
//! [`SIMULATING`] rewrites those lines (`mut_arg`) on `simulate::SampleArgs`.

use clap::Arg;
use ladders::board::DEFAULT_BOARD;

/// The most players a race may have.
pub const MAX_PLAYERS: usize = 16;

/// How many players: one count, or a range `A..B` for a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Players {
    /// The smallest count.
    pub from: usize,
    /// The largest count.
    pub to: usize,
}

/// The seats (race's words; see [`SIMULATING`] for the simulating commands').
#[derive(clap::Args, Clone, Debug)]
pub struct SeatArgs {
    /// The seats' boards in playing order (built-in names or files); one board for all seats, or
    /// one per seat
    #[arg(default_value = DEFAULT_BOARD, value_parser = super::board_args::BoardName, hide_possible_values = true)]
    pub boards: Vec<String>,
    /// Number of players (default: one per board given, or 2), or a range A..B for a table of
    /// the expected length and seat 1's odds for A to B players on one board
    #[arg(long, value_name = "K|A..B", value_parser = parse_players)]
    pub players: Option<Players>,
    /// Reverse the board of this seat only (snakes climb, ladders slide); repeatable
    #[arg(long, value_name = "SEAT")]
    pub reverse_seat: Vec<usize>,
    /// The knock-off house rule: landing on an opponent's square sends them back to the start
    #[arg(long)]
    pub knock_off: bool,
}

impl SeatArgs {
    /// Whether the arguments ask for a race: a number of players, several boards, knock-off or
    /// a reversed seat.
    pub fn is_race(&self) -> bool {
        self.players.is_some()
            || self.boards.len() > 1
            || self.knock_off
            || !self.reverse_seat.is_empty()
    }

    /// The number of players when none is given: one per board given, or 2.
    pub fn default_players(&self) -> usize {
        if self.boards.len() > 1 {
            self.boards.len()
        } else {
            2
        }
    }
}

/// A rewrite of one argument's declaration: its id and the change.
pub type Rewrite = (&'static str, fn(Arg) -> Arg);

/// `simulate`'s and `check`'s words for the seat arguments, and their `--players` (a number,
/// no range).
pub const SIMULATING: [Rewrite; 4] = [
    ("boards", |a| {
        a.help(
            "A built-in board (see `ladders boards`) or the path of a board file; in a race, one \
             board for all seats or one per seat",
        )
    }),
    ("players", |a| {
        a.help(
            "Play a race of K players taking whole turns in seat order, the first to finish \
             winning (default with several boards or the race options: one per board, or 2)",
        )
        .value_name("K")
        .value_parser(parse_player_count)
    }),
    ("reverse_seat", |a| {
        a.help("Race with this seat's board reversed (snakes climb, ladders slide); repeatable")
    }),
    ("knock_off", |a| {
        a.help(
            "Race with the knock-off house rule: landing on an opponent's square sends them back \
             to the start",
        )
    }),
];

/// A number of players in `part` of `text`; the message says what else `hint` allows.
fn count(part: &str, text: &str, hint: &str) -> Result<usize, String> {
    match part.parse::<usize>() {
        Ok(k) if (1..=MAX_PLAYERS).contains(&k) => Ok(k),
        _ => Err(format!(
            "expected a number of players from 1 to {MAX_PLAYERS}{hint}; found {}",
            ladders::report::echo(text)
        )),
    }
}

/// `race --players`: a number, or a range `A..B`.
fn parse_players(text: &str) -> Result<Players, String> {
    let count = |part: &str| count(part.trim(), text, ", or a range such as 1..5");
    match text.split_once("..") {
        Some((a, b)) => {
            let (from, to) = (count(a)?, count(b)?);
            if from > to {
                return Err(format!("the range {text:?} is empty"));
            }
            Ok(Players { from, to })
        }
        None => {
            let k = count(text)?;
            Ok(Players { from: k, to: k })
        }
    }
}

/// `simulate --players` and `check --players`: a number only.
fn parse_player_count(text: &str) -> Result<Players, String> {
    let k = count(text, text, "")?;
    Ok(Players { from: k, to: k })
}
