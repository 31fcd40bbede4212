//! `verify`'s report: a sample someone simulated, checked against the exact law, as text or
//! JSON, with the rule variants the sample fits instead when it fails.

use std::io::{self, Write};

use crate::board::Board;
use crate::facade::Verdict;
use crate::report::simulate::{variant_sentences, write_comparison};
use crate::report::text::{board_line, rules_line};
use crate::simulate::check::{Comparison, ExactLaw, LayoutFit, NotTried, Observed, VariantFit};
use crate::simulate::hints::layout_sentences;
use crate::simulate::sample::MeanInterval;
use crate::text::count;
use crate::text::printable;

/// What `verify` found ([`VerifyReport::new`], then the sample's own fields set).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct VerifyReport<'a> {
    /// The board the sample claims to be from.
    pub board: &'a Board,
    /// Its exact law.
    pub law: &'a ExactLaw,
    /// The sample.
    pub observed: Observed<'a>,
    /// The sample's tests against the law.
    pub comparison: &'a Comparison,
    /// The rule variants the sample fits (empty when the sample is too small to tell).
    pub fits: &'a [VariantFit],
    /// The rule variants not tried (their work estimated too long), and why.
    pub not_tried: &'a [NotTried],
    /// The other layouts of the board (built-in boards that differ in one jump) the sample
    /// fits.
    pub layouts: &'a [LayoutFit],
    /// The mean as given (`--mean`), when the sample is a summary.
    pub mean: Option<&'a MeanInterval>,
    /// The standard deviation as given (`--sd`), tested in the comparison's `variance`.
    pub sd: Option<&'a MeanInterval>,
    /// Where the turn counts were read from (`-`: standard input), when they were.
    pub file: Option<&'a str>,
}

impl<'a> VerifyReport<'a> {
    /// The report of `verdict` on `observed`, a sample claimed to be from `board`; no mean,
    /// standard deviation or file named.
    pub fn new(board: &'a Board, verdict: &'a Verdict, observed: Observed<'a>) -> VerifyReport<'a> {
        VerifyReport {
            board,
            law: &verdict.law,
            observed,
            comparison: &verdict.comparison,
            fits: &verdict.search.fits,
            not_tried: &verdict.search.not_tried,
            layouts: &verdict.search.layouts,
            mean: None,
            sd: None,
            file: None,
        }
    }
}

/// The report as text.
pub fn write_text(out: &mut dyn Write, r: &VerifyReport<'_>) -> io::Result<()> {
    let games = count(r.observed.games(), "game");
    writeln!(out, "Board            {}", board_line(r.board))?;
    writeln!(out, "Rules            {}", rules_line(r.board))?;
    match r.mean {
        Some(m) if m.low < m.high => writeln!(
            out,
            "Sample           mean {} over {games}: somewhere in [{}, {})",
            m.text,
            trim(m.low),
            trim(m.high)
        )?,
        Some(m) => writeln!(out, "Sample           mean {} over {games}", m.text)?,
        None => writeln!(
            out,
            "Sample           {games} from {}",
            printable(r.file.unwrap_or("-"))
        )?,
    }
    if let Some(sd) = r.sd {
        writeln!(
            out,
            "                 sd {} (exact {:.6})",
            sd.text, r.law.sd
        )?;
    }
    writeln!(out)?;
    write_comparison(out, r.law, r.comparison)?;
    // Hints need a sample that can tell the variants apart.
    if !r.comparison.too_few {
        let pass = r.comparison.pass;
        let variants = variant_sentences(r.board, pass, r.fits, r.not_tried);
        for h in variants
            .into_iter()
            .chain(layout_sentences(r.comparison, r.layouts))
        {
            writeln!(out, "Hint             {h}")?;
        }
        for n in r.not_tried {
            writeln!(
                out,
                "Not tried        {}: {}",
                n.changes.join(", "),
                n.reason
            )?;
        }
    }
    Ok(())
}

/// A float without trailing noise (the interval ends of a decimal mean).
fn trim(x: f64) -> String {
    let s = format!("{x:.12}");
    let s = s.trim_end_matches('0');
    s.trim_end_matches('.').to_string()
}
