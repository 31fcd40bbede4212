//! `verify`'s report: a sample someone simulated, checked against the exact law, as text or
//! JSON, with the rule variants the sample fits instead when it fails.

use std::io::{self, Write};

use serde_json::{json, Value};

use crate::board::Board;
use crate::report::json::{board_rules_json, z_json, BoardJson};
use crate::report::simulate::{
    comparison_json, variant_sentences, variants_json, write_comparison,
};
use crate::report::text::{board_line, rules_line};
use crate::simulate::check::{Comparison, ExactLaw, LayoutFit, NotTried, Observed, VariantFit};
use crate::simulate::sample::MeanInterval;
use crate::text::count;
use crate::text::printable;

/// What `verify` found.
#[derive(Clone, Copy, Debug)]
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

/// The report as one JSON value.
pub fn to_json(r: &VerifyReport<'_>) -> Value {
    let c = r.comparison;
    json!({
        "board": BoardJson::new(r.board),
        "rules": board_rules_json(r.board),
        "games": r.observed.games(),
        "mean_given": r.mean.map(|m| json!({"text": m.text, "low": m.low, "high": m.high})),
        "sd_given": r.sd.and_then(|sd| sd.text.parse::<f64>().ok()),
        "check": with_variance(comparison_json(r.law, c), c),
        "variants": match c.too_few {
            true => json!({"fits": [], "hints": []}),
            false => {
                let mut v = variants_json(r.board, c.pass, r.fits, r.not_tried);
                let named = named_layouts(c, r.layouts);
                if !named.is_empty() {
                    v["hints"]
                        .as_array_mut()
                        .expect("hints are a list")
                        .extend(layout_sentences(c, r.layouts).into_iter().map(Value::from));
                    v["layouts"] = named
                        .iter()
                        .map(|l| json!({"board": l.layout.name, "mean_z": l.comparison.mean.z}))
                        .collect();
                }
                v
            }
        },
    })
}

/// `check` with the test of the variance `verify --sd` adds (only with `--sd`: the report
/// without it is `check`'s).
fn with_variance(mut check: Value, c: &Comparison) -> Value {
    if let Some(variance) = &c.variance {
        check["variance"] = z_json(variance);
    }
    check
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

/// The hints naming the other layouts of the board the sample fits: what it matches instead
/// (a failed sample), or what it cannot be told from (a passed one whose mean is nearer the
/// layout's than the board's: a layout the sample fits less well is not worth a hint).
fn layout_sentences(c: &Comparison, layouts: &[LayoutFit]) -> Vec<String> {
    named_layouts(c, layouts)
        .into_iter()
        .map(|l| {
            let (name, here, there) = (l.layout.name, l.layout.here, l.layout.there);
            let layout = format!(
                "{name}, this board's other common layout ({} -> {} instead of {} -> {})",
                there.from, there.to, here.from, here.to
            );
            match c.pass {
                false => format!("your sample matches {layout}"),
                true => format!("the sample also fits {layout}: too few games to tell them apart"),
            }
        })
        .collect()
}

/// The layouts a hint names: every one the sample fits when it fails the board, else those
/// whose mean it is nearer than the board's.
fn named_layouts<'a>(c: &Comparison, layouts: &'a [LayoutFit]) -> Vec<&'a LayoutFit> {
    layouts
        .iter()
        .filter(|l| !c.pass || l.comparison.mean.z.abs() < c.mean.z.abs())
        .collect()
}

/// A float without trailing noise (the interval ends of a decimal mean).
fn trim(x: f64) -> String {
    let s = format!("{x:.12}");
    let s = s.trim_end_matches('0');
    s.trim_end_matches('.').to_string()
}
