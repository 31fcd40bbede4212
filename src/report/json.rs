//! JSON building blocks shared by every report (documented in `docs/json-output.md`).

use num_rational::BigRational;
use serde::Serialize;

use crate::board::{Board, Rules};
use crate::exact::decimal::fixed;

/// An exact number in JSON: the reduced fraction as decimal strings, and a correctly rounded
/// decimal for reading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExactJson {
    /// The numerator of the reduced fraction (sign included).
    pub numerator: String,
    /// The denominator of the reduced fraction (positive).
    pub denominator: String,
    /// The value rounded to nearest at the requested digits after the point.
    pub decimal: String,
}

impl ExactJson {
    /// The JSON form of `value` with `digits` digits after the point in `decimal`.
    pub fn new(value: &BigRational, digits: usize) -> ExactJson {
        ExactJson {
            numerator: value.numer().to_string(),
            denominator: value.denom().to_string(),
            decimal: fixed(value, digits),
        }
    }
}

/// The board a report is about.
#[derive(Clone, Debug, Serialize)]
pub struct BoardJson {
    /// Display name.
    pub name: String,
    /// A path or `builtin:NAME`.
    pub origin: String,
    /// Free text on the layout's source.
    pub source: Option<String>,
    /// The finish square.
    pub size: u32,
    /// `[from, to]` pairs.
    pub snakes: Vec<[u32; 2]>,
    /// `[from, to]` pairs.
    pub ladders: Vec<[u32; 2]>,
}

impl BoardJson {
    /// Describes `board`.
    pub fn new(board: &Board) -> BoardJson {
        BoardJson {
            name: board.name().to_string(),
            origin: board.origin().to_string(),
            source: board.source().map(str::to_string),
            size: board.size(),
            snakes: board.snakes().iter().map(|j| [j.from, j.to]).collect(),
            ladders: board.ladders().iter().map(|j| [j.from, j.to]).collect(),
        }
    }
}

/// The rules, as in the board file.
pub fn rules_json(rules: &Rules) -> serde_json::Value {
    serde_json::to_value(rules).expect("rules serialize")
}
