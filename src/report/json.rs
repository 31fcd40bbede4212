//! JSON building blocks shared by every report (documented in `docs/json-output.md`).

use num_rational::BigRational;
use serde::Serialize;

use crate::board::{Board, Jump, Overshoot, RollAgain, Rules, Square};
use crate::exact::decimal::fixed;

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

/// The rules, as in the board file (fields in alphabetical order, see [`ExactJson`]).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RulesJson {
    /// Whether jumps chain.
    pub chain: bool,
    /// The number of faces of the die.
    pub die: u32,
    /// What a roll past the finish does.
    pub overshoot: Overshoot,
    /// Whether the top face rolls again.
    pub roll_again: RollAgain,
    /// 0 (off the board) or 1.
    pub start: Square,
}

impl RulesJson {
    /// The JSON form of `rules`.
    pub fn new(rules: &Rules) -> RulesJson {
        RulesJson {
            chain: rules.chain,
            die: rules.die,
            overshoot: rules.overshoot,
            roll_again: rules.roll_again,
            start: rules.start,
        }
    }
}

/// The rules, as in the board file.
pub fn rules_json(rules: &Rules) -> serde_json::Value {
    serde_json::to_value(RulesJson::new(rules)).expect("rules serialize")
}
