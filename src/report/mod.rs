//! Reports: result structs turned into text tables and JSON, written to any `io::Write`.
//! Reports know the result types, not how they were computed.

pub mod analyze;
pub mod chart;
pub mod design;
pub mod distribution;
pub mod draw;
pub mod draw_svg;
pub mod duel;
pub mod expect;
pub mod json;
pub mod moments;
pub mod optimize;
pub mod pgf;
pub mod race;
pub mod race_simulate;
pub mod shortest;
pub mod simulate;
pub mod squares;
pub mod text;
pub mod verify;
