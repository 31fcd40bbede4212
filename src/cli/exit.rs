//! The exit codes, named in one place (the README's table lists them): 0 success, 1 a check that
//! failed, 2 bad usage or input (clap uses 2 for usage errors too), 3 the output could not be
//! written.

use std::process::ExitCode;

/// Success.
pub const SUCCESS: u8 = 0;
/// A check ran and failed (for example a simulation that disagrees with the exact answer).
pub const CHECK_FAILED: u8 = 1;
/// Bad usage or bad input.
pub const BAD_INPUT: u8 = 2;
/// The answer could not be written (`ladders boards > /dev/full`, standard output closed, an
/// `--svg` or `--histogram-csv` file that cannot be written). A closed pipe (`ladders
/// distribution efi | head`) is not an error: it exits 0, quietly.
pub const WRITE_FAILED: u8 = 3;

/// The process exit code for one of the constants above.
pub fn code(value: u8) -> ExitCode {
    ExitCode::from(value)
}
