//! The command line's JSON form of a [`Race`] (`race --json`, docs/json-output.md): each seat
//! with its board and rules, every answer an interval of exact bounds with the digits it
//! certifies, the first mover's advantage in points, and the game's length in rounds when
//! asked; [`RaceTableJson`] the races of a table over numbers of players.

use serde::{Serialize, Serializer};

use crate::board::json::{BoardJson, RulesJson};
use crate::board::Board;
use crate::num::interval::CertifiedJson;
use crate::num::json::with_digits;
use crate::race::{Interval, Method, Race};

/// One race of `boards` (one per seat, in playing order) as `race --json` writes it; with
/// `knock_off` told, and the length in rounds (`rounds_distribution`) when `distribution`.
#[derive(Clone, Copy, Debug)]
pub struct RaceJson<'a> {
    /// The seats' boards.
    pub boards: &'a [&'a Board],
    /// The race.
    pub race: &'a Race,
    /// Whether the knock-off rule was played.
    pub knock_off: bool,
    /// Add the distribution of the game's length in rounds.
    pub distribution: bool,
}

/// The race's keys, every exact decimal at the race's digits.
#[derive(Serialize)]
struct Body<'a> {
    complete: bool,
    digits: usize,
    expected_moves: CertifiedJson,
    expected_rounds: CertifiedJson,
    first_mover_advantage_pp: Option<CertifiedJson>,
    knock_off: bool,
    method: Method,
    players: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds_distribution: Option<Vec<RoundJson>>,
    seats: Vec<SeatJson<'a>>,
    turns_summed: usize,
}

/// One seat: its number, board, rules, chance to win and (sharing a board with point
/// squares) expected score.
#[derive(Serialize)]
struct SeatJson<'a> {
    board: &'a str,
    origin: &'a str,
    rules: RulesJson<'a>,
    score: Option<CertifiedJson>,
    seat: usize,
    win: CertifiedJson,
}

/// P(L = n) and P(L <= n) for the game's length L in rounds.
#[derive(Serialize)]
struct RoundJson {
    cdf: CertifiedJson,
    p: CertifiedJson,
    rounds: usize,
}

impl Serialize for RaceJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (race, d) = (self.race, self.race.digits);
        let x = |i: &Interval| CertifiedJson::new(i, d);
        let body = Body {
            complete: race.complete,
            digits: d,
            expected_moves: x(&race.expected_moves()),
            expected_rounds: x(&race.expected_rounds),
            first_mover_advantage_pp: race
                .first_mover_advantage()
                .map(|a| x(&a.scale(&num_rational::BigRational::from_integer(100.into())))),
            knock_off: self.knock_off,
            method: race.method,
            players: self.boards.len(),
            rounds_distribution: self.distribution.then(|| {
                race.rounds_distribution()
                    .iter()
                    .map(|(rounds, p, cdf)| RoundJson {
                        cdf: x(cdf),
                        p: x(p),
                        rounds: *rounds,
                    })
                    .collect()
            }),
            seats: race
                .seats
                .iter()
                .zip(self.boards)
                .map(|(s, b)| SeatJson {
                    board: b.name(),
                    origin: b.origin(),
                    rules: RulesJson::of(b),
                    score: s.score.as_ref().map(x),
                    seat: s.seat,
                    win: x(&s.win),
                })
                .collect(),
            turns_summed: race.turns_summed,
        };
        with_digits(d, || body.serialize(serializer))
    }
}

/// The races of a table on one board with growing numbers of players (`race --players A..B
/// --json`): the board, its rules, and one [`RaceJson`] per number of players.
#[derive(Clone, Copy, Debug)]
pub struct RaceTableJson<'a> {
    /// The board every seat plays on.
    pub board: &'a Board,
    /// One race per number of players.
    pub races: &'a [Race],
}

impl Serialize for RaceTableJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Table<'a> {
            board: BoardJson<'a>,
            races: Vec<Seats<'a>>,
            rules: RulesJson<'a>,
        }
        /// One race with its seats' boards (the table's board, once a seat).
        struct Seats<'a>(Vec<&'a Board>, &'a Race);
        impl Serialize for Seats<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                RaceJson {
                    boards: &self.0,
                    race: self.1,
                    knock_off: false,
                    distribution: false,
                }
                .serialize(serializer)
            }
        }
        Table {
            board: BoardJson::new(self.board),
            races: self
                .races
                .iter()
                .map(|r| Seats(vec![self.board; r.seats.len()], r))
                .collect(),
            rules: RulesJson::of(self.board),
        }
        .serialize(serializer)
    }
}
