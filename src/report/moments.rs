//! The `expect --moments K` section: every moment of T up to K, the skewness and the excess
//! kurtosis, as text or JSON.

use std::io::{self, Write};

use serde_json::json;

use crate::analysis::moments::{Moments, Route};
use crate::num::decimal::{fixed, sqrt_fixed};
use crate::report::json::ExactJson;

/// The skewness `sign sqrt(mu_3^2 / mu_2^3)` to `digits` decimals (correctly rounded).
fn skewness_text(m: &Moments, digits: usize) -> Option<String> {
    m.skewness_squared().map(|(sign, sq)| {
        let magnitude = sqrt_fixed(&sq, digits);
        if sign < 0 {
            format!("-{magnitude}")
        } else {
            magnitude
        }
    })
}

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
    if let Some(s) = skewness_text(m, digits) {
        writeln!(out, "Skewness         {s}")?;
    }
    if let Some(k) = m.excess_kurtosis() {
        writeln!(out, "Excess kurtosis  {}", fixed(&k, digits))?;
    }
    Ok(())
}

/// The moments as JSON: `raw`, `central` and `factorial` as arrays of EXACT from k = 1,
/// `skewness` (a decimal string, with `skewness_squared` EXACT) and `excess_kurtosis` (EXACT)
/// when defined.
pub fn to_json(m: &Moments, digits: usize) -> serde_json::Value {
    let list = |v: &[num_rational::BigRational]| {
        v.iter()
            .skip(1)
            .map(|x| ExactJson::new(x, digits))
            .collect::<Vec<_>>()
    };
    json!({
        "order": m.order(),
        "raw": list(&m.raw),
        "central": list(&m.central),
        "factorial": list(&m.factorial),
        "skewness": skewness_text(m, digits),
        "skewness_squared": m.skewness_squared().map(|(_, sq)| ExactJson::new(&sq, digits)),
        "excess_kurtosis": m.excess_kurtosis().map(|k| ExactJson::new(&k, digits)),
    })
}
