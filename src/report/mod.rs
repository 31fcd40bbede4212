//! Reports: result structs turned into text tables and JSON, written to any `io::Write`.
//! Reports know the result types, not how they were computed.

// One report per command: the command line's (and the Python and web shells'), hidden from the
// docs; the board's picture is re-exported below.
#[doc(hidden)]
pub mod analyze;
#[doc(hidden)]
pub mod chart;
#[doc(hidden)]
pub mod design;
#[doc(hidden)]
pub mod distribution;
#[doc(hidden)]
pub mod draw;
#[doc(hidden)]
pub mod draw_svg;
#[doc(hidden)]
pub mod duel;
#[doc(hidden)]
pub mod expect;
#[doc(hidden)]
pub mod json;
#[doc(hidden)]
pub mod moments;
#[doc(hidden)]
pub mod optimize;
#[doc(hidden)]
pub mod pgf;
#[doc(hidden)]
pub mod race;
#[doc(hidden)]
pub mod race_simulate;
#[doc(hidden)]
pub mod shortest;
#[doc(hidden)]
pub mod simulate;
#[doc(hidden)]
pub mod squares;
#[doc(hidden)]
pub mod text;
#[doc(hidden)]
pub mod verify;

pub use draw::{DrawOptions, Heat};
pub use draw_svg::board_svg;
