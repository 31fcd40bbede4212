//! Several players: exact win odds per seat, the game's length, and the knock-off rule.
//!
//! - `independent`: seats that do not interact (each on its own board if asked); every answer
//!   is a series summed to a certified interval of rationals ([`Interval`], from `num::interval`), with the law of
//!   each seat's game stepped in outward-rounded fixed point (`fixed`).
//! - `knockoff`: the knock-off house rule (seed 004), where landing on an opponent sends them
//!   back to the start: a joint chain over (every position, whose turn).
//! - `relative`: the knock-off race when every seat plays the same board, over positions
//!   relative to the mover, in floats with a certified error bound (three players on 100
//!   squares).
//! - `shared`: several players sharing one board that changes during a game (one-use jumps,
//!   apples, lost and extra turns): the joint chain, exact where it fits, otherwise solved layer
//!   by layer in floats with a certified bound (`layered`).

mod fixed;
pub(crate) mod independent;
// Crate-internal; what the command line, tests and benchmarks still reach of them is in
// `crate::internals`, the answers the façade returns are re-exported below.
pub(crate) mod knockoff;
mod layered;
pub(crate) mod relative;
pub(crate) mod shared;

pub use crate::num::interval::{certified_digits, CertifiedDigits, Interval};
pub use independent::{race, Method, Race, RaceError, RaceOptions, SeatResult};
// What an `Uncertified` race's or a refusal's detail holds for seats that meet.
pub use knockoff::KnockOffError;
pub use relative::RelativeError;
pub use shared::SharedError;
