//! JSON building blocks shared by every report (documented in `docs/json-output.md`): the one
//! wrapper, [`Report`], that writes a result's own serde form with the board it is about.

use num_rational::BigRational;
use serde::Serialize;

use crate::board::{Board, Chance, Jump, Overshoot, RollAgain, Rules, Square, Tiles};
use crate::num::decimal::fixed;

/// A command's JSON report: the result's own serde form (its exact numbers' decimals at the
/// report's digits, `num::json::with_digits`) with the board it is about (`board`) and,
/// when asked, the board's rules (`rules`), every key sorted as serde_json's map sorts them.
#[derive(Clone, Copy, Debug)]
pub struct Report<'a, T: ?Sized> {
    board: &'a Board,
    rules: bool,
    digits: usize,
    body: &'a T,
}

impl<'a, T: Serialize + ?Sized> Report<'a, T> {
    /// `body`, a result whose serde form is a map, about `board`, its decimals at `digits`.
    pub fn new(board: &'a Board, body: &'a T, digits: usize) -> Report<'a, T> {
        Report {
            board,
            rules: false,
            digits,
            body,
        }
    }

    /// The same report with the board's rules under `rules`.
    pub fn with_rules(self) -> Report<'a, T> {
        Report {
            rules: true,
            ..self
        }
    }

    /// The report as a JSON value.
    ///
    /// # Errors
    ///
    /// The result's serializer's, or a result whose serde form is not a map.
    pub fn to_value(&self) -> Result<serde_json::Value, serde_json::Error> {
        use serde::ser::Error;
        let mut value = value_at_digits(self.body, self.digits)?;
        let map = value
            .as_object_mut()
            .ok_or_else(|| serde_json::Error::custom("a report's result is a map"))?;
        map.insert(
            "board".into(),
            serde_json::to_value(BoardJson::new(self.board))?,
        );
        if self.rules {
            map.insert("rules".into(), board_rules_json(self.board));
        }
        Ok(value)
    }
}

/// A result's serde form as a JSON value, its exact numbers' decimals at `digits` (a part of a
/// report that is not yet a [`Report`] of its own).
///
/// # Errors
///
/// The result's serializer's.
pub fn value_at_digits<T: Serialize + ?Sized>(
    result: &T,
    digits: usize,
) -> Result<serde_json::Value, serde_json::Error> {
    crate::num::json::with_digits(digits, || serde_json::to_value(result))
}

impl<T: Serialize + ?Sized> Serialize for Report<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        self.to_value()
            .map_err(S::Error::custom)?
            .serialize(serializer)
    }
}

/// An exact number in JSON: the reduced fraction as decimal strings, and a correctly rounded
/// decimal for reading.
///
/// The fields of this module's structs are declared in alphabetical order: serialized directly
/// (as `expect` does, without building a `serde_json::Value` first) they come out in the order
/// serde_json's sorted map gives every report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExactJson {
    /// The value rounded to nearest at the requested digits after the point.
    pub decimal: String,
    /// The denominator of the reduced fraction (positive).
    pub denominator: String,
    /// The numerator of the reduced fraction (sign included).
    pub numerator: String,
}

impl ExactJson {
    /// The JSON form of `value` with `digits` digits after the point in `decimal`.
    pub fn new(value: &BigRational, digits: usize) -> ExactJson {
        ExactJson {
            decimal: fixed(value, digits),
            denominator: value.denom().to_string(),
            numerator: value.numer().to_string(),
        }
    }
}

/// The board a report is about (fields in alphabetical order, see [`ExactJson`]).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct BoardJson<'a> {
    /// `[from, to]` pairs.
    pub ladders: JumpPairs<'a>,
    /// Display name.
    pub name: &'a str,
    /// A path or `builtin:NAME`.
    pub origin: &'a str,
    /// The finish square.
    pub size: u32,
    /// `[from, to]` pairs.
    pub snakes: JumpPairs<'a>,
    /// Free text on the layout's source.
    pub source: Option<&'a str>,
}

impl<'a> BoardJson<'a> {
    /// Describes `board`.
    pub fn new(board: &'a Board) -> BoardJson<'a> {
        BoardJson {
            ladders: JumpPairs(board.ladders()),
            name: board.name(),
            origin: board.origin(),
            size: board.size(),
            snakes: JumpPairs(board.snakes()),
            source: board.source(),
        }
    }
}

/// Snakes or ladders as a JSON array of `[from, to]` pairs.
#[derive(Clone, Copy, Debug)]
pub struct JumpPairs<'a>(pub &'a [Jump]);

impl Serialize for JumpPairs<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|j| [j.from, j.to]))
    }
}

/// The rules, as in the board file (fields in alphabetical order, see [`ExactJson`]). The keys
/// of the newer rules appear only when the board uses them, so standard boards keep their JSON.
#[derive(Clone, Debug, Serialize)]
pub struct RulesJson<'a> {
    /// Whether jumps chain.
    pub chain: bool,
    /// The chance squares (absent when none).
    #[serde(skip_serializing_if = "<[Chance]>::is_empty")]
    pub chance: &'a [Chance],
    /// How many dice are thrown at once (absent for one).
    #[serde(skip_serializing_if = "is_one")]
    pub dice: u32,
    /// The number of faces of the die.
    pub die: u32,
    /// The face weights of a loaded die (absent for a fair die).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub die_weights: Option<&'a [u64]>,
    /// What a roll past the finish does.
    pub overshoot: Overshoot,
    /// Whether the top face rolls again.
    pub roll_again: RollAgain,
    /// 0 (off the board) or the square the token starts on.
    pub start: Square,
    /// Seed 002's random tiles (absent when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiles: Option<&'a Tiles>,
    /// The house rules a board sets ([`Rules::house_rules`]), each under its key (absent with
    /// the defaults).
    #[serde(flatten)]
    pub house: std::collections::BTreeMap<&'static str, serde_json::Value>,
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

impl<'a> RulesJson<'a> {
    /// The JSON form of `rules` alone (a fair die, no draws).
    pub fn new(rules: &Rules) -> RulesJson<'a> {
        RulesJson {
            chain: rules.chain,
            chance: &[],
            dice: rules.dice,
            die: rules.die,
            die_weights: None,
            overshoot: rules.overshoot,
            roll_again: rules.roll_again,
            start: rules.start,
            tiles: None,
            house: rules.house_rules().into_iter().collect(),
        }
    }

    /// The JSON form of `board`'s rules: its [`Rules`], dice, chance squares and tiles.
    pub fn of(board: &'a Board) -> RulesJson<'a> {
        RulesJson {
            chance: board.chances(),
            die_weights: (!board.dice().is_fair()).then(|| board.dice().weights()),
            tiles: board.tiles(),
            ..RulesJson::new(board.rules())
        }
    }
}

/// The rules alone, as in the board file.
pub fn rules_json(rules: &Rules) -> serde_json::Value {
    serde_json::to_value(RulesJson::new(rules)).expect("rules serialize")
}

/// A board's rules, as in the board file.
pub fn board_rules_json(board: &Board) -> serde_json::Value {
    serde_json::to_value(RulesJson::of(board)).expect("rules serialize")
}

/// A z-test as JSON: the observed and expected values, the standard error, z, its p-value and
/// whether it passed; `exact` when the law has no spread and the sample was judged exactly (z is
/// then 0, or `null` for a sample off the law's one value).
pub(crate) fn z_json(z: &crate::simulate::check::ZTest) -> serde_json::Value {
    serde_json::to_value(z).expect("a z test serializes")
}
