//! Reports: result structs turned into text tables and JSON, written to any `io::Write`.
//! Reports know the result types, not how they were computed.

// One report per command, crate-internal; what the command line (and the Python and web
// shells) writes with is re-exported here, each named for its report.
mod analyze;
mod chart;
mod design;
mod distribution;
mod draw;
mod draw_svg;
mod duel;
mod expect;
mod heat;
mod json;
mod moments;
mod optimize;
mod pgf;
mod race;
mod race_simulate;
mod shortest;
mod simulate;
mod squares;
mod text;
mod verify;

pub use analyze::write_text as write_analyze;
pub use chart::{distribution_svg, race_svg, simulation_svg, ChartError};
pub use design::{write_die_sweep, write_die_sweep_csv, write_sensitivity, write_sensitivity_csv};
pub use distribution::{write_csv as write_distribution_csv, write_text as write_distribution};
pub use draw::{draw_json, write_text as write_draw, DrawOptions, Heat};
pub use draw_svg::board_svg;
pub use duel::{write_text as write_duel, DuelReport};
pub use expect::{
    float_to_json as expect_float_json, to_json as expect_json,
    write_float_text as write_expect_float, write_text as write_expect, ExpectOptions,
};
pub use heat::{HeatOf, FLOAT_ABOVE};
pub use json::{value_at_digits, Report};
pub use moments::write_text as write_moments;
pub use optimize::{write_text as write_optimize, OptimizeReport};
pub use pgf::{cas_line, write_text as write_pgf, PgfFormat};
pub use race::{write_table_text as write_race_table, write_text as write_race, RaceReportOptions};
pub use race_simulate::{write_race_check, write_race_simulation};
pub use shortest::{write_likeliest, write_text as write_shortest};
pub use simulate::{variant_sentences, write_check, write_histogram_csv, write_simulation, Timing};
pub use squares::{
    write_after as write_squares_after, write_csv as write_squares_csv,
    write_text as write_squares, Format as SquaresFormat,
};
pub use text::exact_text;
// The numbers and words every report writes with: decimals of exact numbers, counts, and a
// user's text echoed safely in a message.
pub use crate::num::decimal::{fixed, probability, sqrt_fixed, to_f64};
pub use crate::text::{count, echo, echo_plain, printable, thousands};
pub use verify::{write_text as write_verify, VerifyReport};

// The JSON views the commands write (each beside the result it shows, `docs/json-output.md`):
// the result's serde form where it needs the board's words or fields derived from it.
pub use crate::analysis::json::{DistributionJson, ExtremesJson, PgfJson, SummaryJson, TrapJson};
pub use crate::facade::{DuelJson, OptimizedJson, RaceJson, RaceTableJson};
pub use crate::simulate::json::{CheckJson, RaceSimulationJson, SimulationJson, VerifyJson};
