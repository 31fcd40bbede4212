//! Helpers shared by the unit tests (compiled only for tests): an exact fraction and a board
//! from TOML text.

use num_rational::BigRational;

use crate::board::Board;

/// The fraction n / d, exact.
pub(crate) fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// A board from TOML text that must be valid (origin `test`).
pub(crate) fn board(text: &str) -> Board {
    Board::from_toml_str(text, "test").expect("valid test board")
}
