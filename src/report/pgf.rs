//! The `pgf` report: the generating function N(z)/D(z), the recurrence with its initial terms,
//! as text or one line another computer algebra system reads (SymPy, Maple, Mathematica); its
//! JSON is the serde form of `analysis::json::PgfJson`.

use std::io::{self, Write};

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::analysis::pgf::tail::DecayRate;
use crate::analysis::pgf::Pgf;
pub use crate::analysis::pgf::{polynomial, Syntax};
use crate::board::Board;
use crate::num::decimal::fixed;
use crate::num::interval::Interval;
use crate::report::text::{board_line, rules_line};

/// The output formats of `pgf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgfFormat {
    /// The text report.
    Text,
    /// One JSON object.
    Json,
    /// `F = (...)/(...)` for SymPy (`z = symbols('z')` first).
    Sympy,
    /// `F := (...)/(...);` for Maple.
    Maple,
    /// `F = (...)/(...)` for Mathematica.
    Mathematica,
}

/// One line defining F for a computer algebra system (`format` one of the three).
pub fn cas_line(pgf: &Pgf, format: PgfFormat) -> String {
    let (syntax, assign, end) = match format {
        PgfFormat::Sympy => (Syntax::Sympy, "=", ""),
        PgfFormat::Maple => (Syntax::Caret, ":=", ";"),
        _ => (Syntax::Caret, "=", ""),
    };
    pgf.definition(syntax, assign, end)
}

/// The recurrence as an equation in `p(n) = P(T = n)`.
pub fn recurrence_line(pgf: &Pgf) -> String {
    let r = &pgf.recurrence;
    let mut out = String::new();
    for (i, c) in r.coefficients.iter().enumerate() {
        if c.is_zero() {
            continue;
        }
        let term = match i {
            0 => "p(n)".to_string(),
            _ => format!("p(n-{i})"),
        };
        let a = c.abs();
        let body = if a.is_one() {
            term
        } else {
            format!("{a} {term}")
        };
        match (out.is_empty(), c.is_negative()) {
            (true, false) => out.push_str(&body),
            (true, true) => out.push_str(&format!("-{body}")),
            (false, false) => out.push_str(&format!(" + {body}")),
            (false, true) => out.push_str(&format!(" - {body}")),
        }
    }
    format!("{out} = 0 for n >= {}", r.from)
}

/// Writes the text report, with `E[T] = F'(1)` to `digits` decimals.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_text(
    out: &mut dyn Write,
    board: &Board,
    pgf: &Pgf,
    rate: Option<&DecayRate>,
    digits: usize,
) -> io::Result<()> {
    writeln!(out, "Board            {}", board_line(board))?;
    writeln!(out, "Rules            {}", rules_line(board))?;
    writeln!(
        out,
        "Generating function of the number of turns T: F(z) = sum P(T = n) z^n = N(z) / D(z)"
    )?;
    writeln!(
        out,
        "  in lowest terms, integer coefficients, deg N = {}, deg D = {}",
        pgf.numerator_degree(),
        pgf.denominator_degree()
    )?;
    writeln!(
        out,
        "N(z) = {}",
        polynomial(&pgf.numerator, "z", Syntax::Caret)
    )?;
    writeln!(
        out,
        "D(z) = {}",
        polynomial(&pgf.denominator, "z", Syntax::Caret)
    )?;
    writeln!(
        out,
        "Recurrence (minimal, order {}), p(n) = P(T = n):",
        pgf.recurrence.order()
    )?;
    writeln!(out, "  {}", recurrence_line(pgf))?;
    let initial: Vec<String> = pgf
        .recurrence
        .initial
        .iter()
        .map(ToString::to_string)
        .collect();
    match pgf.recurrence.from {
        0 => writeln!(out, "  no initial terms")?,
        1 => writeln!(out, "  initial term p(0) = {}", initial[0])?,
        from => writeln!(
            out,
            "  initial terms p(0), ..., p({}) = {}",
            from - 1,
            initial.join(", ")
        )?,
    }
    let fm = pgf.factorial_moments(1);
    if fm[0].is_one() {
        writeln!(
            out,
            "Checks           F(1) = {}, F'(1) = E[T] = {}",
            fm[0],
            fixed(&fm[1], digits)
        )?;
    } else {
        // Games that never end have no term: E[T] is infinite, not F'(1).
        writeln!(
            out,
            "Checks           F(1) = {}: the game ends with probability {0}, so E[T] is infinite",
            fm[0]
        )?;
    }
    if let Some(rate) = rate {
        write_tail(out, rate, digits)?;
    }
    writeln!(
        out,
        "Proof            the recurrence fits the first {} exact terms, enough since the order is at \
         most the number of transient states (found modulo {} word prime{}; docs/closed-forms.md)",
        pgf.terms_used,
        pgf.primes_used,
        if pgf.primes_used == 1 { "" } else { "s" }
    )
}

/// `low..high` as printed: the fraction when exact, else the digits on which both agree.
fn proved(low: &BigRational, high: &BigRational, digits: usize) -> Option<String> {
    if low == high {
        return Some(format!("{low} (exact)"));
    }
    let (d, s) = Interval::new(low.clone(), high.clone()).agreed(digits)?;
    Some(format!("{s} ({d} digits proved)"))
}

/// The `Decay rate` and `Tail constant` lines: `P(T > n) ~ C binomial(n + m - 1, m - 1) rho^n`,
/// with the multiplicity m of z0 when it is proved.
fn write_tail(out: &mut dyn Write, rate: &DecayRate, digits: usize) -> io::Result<()> {
    let Some(rho) = proved(&rate.low, &rate.high, digits) else {
        return Ok(());
    };
    let law = match rate.multiplicity {
        Some(1) => "C rho^n".to_string(),
        Some(m) => format!("C binomial(n + {}, {}) rho^n", m - 1, m - 1),
        None => "rho^n".to_string(),
    };
    let root = match rate.multiplicity {
        Some(1) => "a simple root".to_string(),
        Some(m) => format!("a root of multiplicity {m}"),
        None => "a root".to_string(),
    };
    writeln!(
        out,
        "Decay rate       rho = 1/z0 = {rho}; z0 the root of D nearest 0, {root}; P(T > n) ~ {law}"
    )?;
    let constant = rate.constant.as_ref();
    if let Some(c) = constant.and_then(|(lo, hi)| proved(lo, hi, digits)) {
        writeln!(
            out,
            "Tail constant    C = {c}: P(T > n) / ({law}) -> 1 if no other root of D has |z| = z0 (else it oscillates about 1)"
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn ints(v: &[i64]) -> Vec<BigInt> {
        v.iter().map(|&x| BigInt::from(x)).collect()
    }

    #[test]
    fn polynomials_are_written_highest_power_first_in_each_syntax() {
        let p = ints(&[4, -4, 1]);
        assert_eq!(polynomial(&p, "z", Syntax::Caret), "z^2 - 4*z + 4");
        assert_eq!(polynomial(&p, "z", Syntax::Sympy), "z**2 - 4*z + 4");
        assert_eq!(polynomial(&ints(&[0, -1]), "z", Syntax::Caret), "-z");
        assert_eq!(polynomial(&[], "z", Syntax::Caret), "0");
    }
}
