//! JSON building blocks shared by every report (documented in `docs/json-output.md`): the one
//! wrapper, [`Report`], that writes a result's own serde form with the board it is about.

use num_rational::BigRational;
use serde::Serialize;

pub use crate::board::json::{board_rules_json, BoardJson, RulesJson};
use crate::board::Board;
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
