//! The `expect --moments K` section as text: every moment of T up to K, the skewness and the
//! excess kurtosis (its JSON is `Moments`' serde form).

use std::io::{self, Write};

use crate::analysis::moments::{Moments, Route};
use crate::num::decimal::fixed;

/// Writes the moments section.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_text(out: &mut dyn Write, m: &Moments, digits: usize) -> io::Result<()> {
    match m.route {
        Route::Pgf { solved: 0 } => writeln!(
            out,
            "Moments of T (exact: the derivatives of the generating function at 1)"
        )?,
        Route::Pgf { solved } => writeln!(
            out,
            "Moments of T (exact: the derivatives of the generating function at 1; orders 1 to \
             {solved} also solved with I - Q, equal)"
        )?,
        Route::Solves => writeln!(
            out,
            "Moments of T (exact, from {} solves with I - Q)",
            m.order()
        )?,
    }
    writeln!(out, "  k  {:>28}  {:>28}", "E[T^k]", "E[(T - E[T])^k]")?;
    for k in 1..=m.order() {
        writeln!(
            out,
            "  {k:<2} {:>28}  {:>28}",
            fixed(&m.raw[k], digits),
            fixed(&m.central[k], digits)
        )?;
    }
    if let Some(s) = m.skewness_decimal(digits) {
        writeln!(out, "Skewness         {s}")?;
    }
    if let Some(k) = m.excess_kurtosis() {
        writeln!(out, "Excess kurtosis  {}", fixed(&k, digits))?;
    }
    Ok(())
}
