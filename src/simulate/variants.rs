//! The usual rule variants of a board, and which of them a failing sample fits instead: the
//! search `verify` runs to say which rules a simulation may have played (overshoot stay /
//! bounce / allow, start 0 / 1, roll again none / unlimited).
//!
//! Every variant's work is estimated before it starts, as the board's own law is
//! ([`ExactLaw::new`]): the chain's memory ([`crate::chain::check_fits`],
//! [`check_stateful`]), the exact mean's solve ([`exact_solve_seconds`] on a board whose state
//! is the square, the count's `Estimate::solve_seconds` on one that changes during a game) and
//! the law's stepping ([`VARIANT_WORK`]). A variant estimated past about [`VARIANT_SECONDS`] is not tried
//! and is listed, with the figure, in [`VariantSearch::not_tried`]. The variants' laws leave out
//! the law of the score, which no variant's test uses: on seed-003 with unlimited roll-again it
//! took 17 s of the variant's 18 (before, `verify seed-003 --mean 40.0 --games 100` ran for
//! over nine minutes of CPU).

use rayon::prelude::*;

use super::check::{compare, Comparison, ExactLaw, LawError, Observed};
use super::Histogram;
use crate::analysis::distribution::WORK_LIMIT;
use crate::analysis::moments::exact_solve_seconds;
use crate::analysis::stateful_fits::{check_stateful, Needs};
use crate::board::builtin::{other_layouts, OtherLayout};
use crate::board::{Board, Overshoot, RollAgain, RuleOverrides, Rules, Square};
use crate::chain::Chain;
use crate::game::Capabilities;

/// A variant whose work is estimated past this many seconds is not tried.
pub const VARIANT_SECONDS: f64 = 3.0;

/// The stepping work a variant's law may take ([`WORK_LIMIT`] is about a minute's; this is
/// [`VARIANT_SECONDS`] of it).
pub const VARIANT_WORK: f64 = WORK_LIMIT * VARIANT_SECONDS / 60.0;

/// One of the usual rule variants, and how a sample fits it.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct VariantFit {
    /// The variant's rules.
    pub rules: Rules,
    /// The rules that differ from the board's, as `name = value` words.
    pub changes: Vec<String>,
    /// The sample against the variant's law.
    pub comparison: Comparison,
    /// The variant gives exactly the board's own law of T: no sample can tell them apart.
    pub same_law_as_board: bool,
    /// Indices (in the returned list) of the other fitting variants with exactly this law.
    pub same_law_as: Vec<usize>,
    /// Whether this variant gives exactly the board's law, or another fitting variant's, was left
    /// undecided: the exact comparison would take more than `VARIANT_WORK`.
    pub same_law_undecided: bool,
}

/// The usual rule variants: overshoot stay / bounce / allow, start 0 / 1, roll again none /
/// unlimited (die and chain as on the board), all but the board's own rules.
pub fn variants(board: &Board) -> Vec<Board> {
    let own = board.rules();
    let mut out = Vec::new();
    for overshoot in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Allow] {
        for start in [0, 1] {
            for roll_again in [RollAgain::None, RollAgain::Unlimited] {
                if (overshoot, start, roll_again) == (own.overshoot, own.start, own.roll_again) {
                    continue;
                }
                let o = RuleOverrides {
                    overshoot: Some(overshoot),
                    start: Some(start),
                    roll_again: Some(roll_again),
                    ..RuleOverrides::default()
                };
                if let Ok(b) = board.with_rules(&o) {
                    out.push(b);
                }
            }
        }
    }
    out
}

/// The rules in `rules` that differ from `own`, as words.
pub fn rule_changes(own: &Rules, rules: &Rules) -> Vec<String> {
    let mut out = Vec::new();
    if rules.overshoot != own.overshoot {
        out.push(format!("overshoot = {}", rules.overshoot));
    }
    if rules.start != own.start {
        out.push(format!("start = {}", rules.start));
    }
    if rules.roll_again != own.roll_again {
        out.push(format!("roll again = {}", rules.roll_again));
    }
    out
}

/// A usual rule variant that was not tried: its work was estimated past `VARIANT_SECONDS`,
/// or its chain past the memory limit.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct NotTried {
    /// The variant's rules.
    pub rules: Rules,
    /// The rules that differ from the board's, as `name = value` words.
    pub changes: Vec<String>,
    /// Why, with the estimate.
    pub reason: String,
}

/// What the search over the usual rule variants found.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct VariantSearch {
    /// The variants the sample fits.
    pub fits: Vec<VariantFit>,
    /// The variants not tried, and why.
    pub not_tried: Vec<NotTried>,
    /// The built-in boards that are another layout of the board (`other_layouts`) and that
    /// the sample fits.
    pub layouts: Vec<LayoutFit>,
}

/// Another layout of the board that the sample fits.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LayoutFit {
    /// The layout, and the jump that differs.
    pub layout: OtherLayout,
    /// The sample against the layout's law.
    pub comparison: Comparison,
}

/// The other layouts of `board` ([`other_layouts`]) that the sample fits, each tested as the
/// board is (a layout whose law is refused is left out).
fn fitting_layouts(
    board: &Board,
    observed: Observed<'_>,
    rolls: Option<&Histogram>,
) -> Vec<LayoutFit> {
    other_layouts(board)
        .into_iter()
        .filter_map(|layout| {
            let law = variant_law(&layout.board, observed.tail_below()).ok()??;
            let comparison = compare(&law, observed, rolls);
            comparison.pass.then_some(LayoutFit { layout, comparison })
        })
        .collect()
}

/// The estimate of a variant's work before it starts: the chain to solve when the board's state
/// is the square (built to be estimated, so it is built once), `None` on a board that changes
/// during a game (its chains are counted, not built).
///
/// # Errors
///
/// Why the variant is not tried: its chain past the memory limit, or its exact mean's solve
/// estimated past [`VARIANT_SECONDS`].
pub fn estimate(board: &Board) -> Result<Option<Chain<Square>>, String> {
    let too_long = |seconds: f64| {
        format!(
            "the exact mean would take about {seconds:.0} s (estimated before starting; a \
             variant is tried up to about {VARIANT_SECONDS:.0} s)"
        )
    };
    if !Capabilities::of(board).stateless {
        check_stateful(board, Needs::Full).map_err(|e| e.to_string())?;
        let counted = check_stateful(board, Needs::Law).map_err(|e| e.to_string())?;
        let seconds = counted.map_or(0.0, |c| c.solve_seconds());
        return match seconds > VARIANT_SECONDS {
            true => Err(too_long(seconds)),
            false => Ok(None),
        };
    }
    crate::chain::check_fits(board).map_err(|e| e.to_string())?;
    let chain = Chain::for_board(board);
    let seconds = exact_solve_seconds(&chain);
    match seconds > VARIANT_SECONDS {
        true => Err(too_long(seconds)),
        false => Ok(Some(chain)),
    }
}

/// The law of T under one variant, when its estimate fits: `Ok(None)` when the finish can be
/// unreachable (no sample fits an infinite mean).
fn variant_law(board: &Board, tail_below: f64) -> Result<Option<ExactLaw>, NotTried> {
    let law = match estimate(board) {
        Ok(Some(chain)) => {
            ExactLaw::of_chain_within(*board.rules(), chain, tail_below, VARIANT_WORK)
        }
        Ok(None) => ExactLaw::of_turns(board, tail_below, VARIANT_WORK),
        Err(reason) => return Err(NotTried::new(board, reason)),
    };
    match law {
        Ok(law) => Ok(Some(law)),
        Err(LawError::Trap(_)) => Ok(None),
        Err(LawError::TooMuchWork(w)) => Err(NotTried::new(board, w.to_string())),
        Err(LawError::Score(e)) => Err(NotTried::new(board, e.to_string())),
    }
}

impl NotTried {
    /// The variant, its changes left for the caller, who knows the board's own rules.
    fn new(variant: &Board, reason: String) -> NotTried {
        NotTried {
            rules: *variant.rules(),
            changes: Vec::new(),
            reason,
        }
    }
}

/// Tests the sample against every usual rule variant of `board` (see [`variants`]) whose work
/// fits (`estimate`), and returns the variants it fits (every test passes), with which of them
/// give exactly the same law as the board or as each other, and the variants not tried. `law` is
/// the board's own law.
pub fn fitting_variants(
    board: &Board,
    law: &ExactLaw,
    observed: Observed<'_>,
    rolls: Option<&Histogram>,
) -> VariantSearch {
    let tail_below = observed.tail_below();
    let boards = variants(board);
    let laws: Vec<Result<Option<ExactLaw>, NotTried>> = boards
        .par_iter()
        .map(|b| variant_law(b, tail_below))
        .collect();
    let mut fits: Vec<(ExactLaw, Comparison)> = Vec::new();
    let mut not_tried = Vec::new();
    for l in laws {
        match l {
            Ok(Some(l)) => {
                let c = compare(&l, observed, rolls);
                if c.pass {
                    fits.push((l, c));
                }
            }
            Ok(None) => {}
            Err(n) => not_tried.push(n),
        }
    }
    for n in &mut not_tried {
        n.changes = rule_changes(board.rules(), &n.rules);
    }
    let mut out: Vec<VariantFit> = fits
        .iter()
        .map(|(l, c)| {
            let same = l.same_law_within(law, VARIANT_WORK);
            VariantFit {
                rules: l.rules,
                changes: rule_changes(board.rules(), &l.rules),
                comparison: c.clone(),
                same_law_as_board: same == Some(true),
                same_law_as: Vec::new(),
                same_law_undecided: same.is_none(),
            }
        })
        .collect();
    for i in 0..fits.len() {
        for j in i + 1..fits.len() {
            match fits[i].0.same_law_within(&fits[j].0, VARIANT_WORK) {
                Some(true) => {
                    out[i].same_law_as.push(j);
                    out[j].same_law_as.push(i);
                }
                Some(false) => {}
                None => {
                    out[i].same_law_undecided = true;
                    out[j].same_law_undecided = true;
                }
            }
        }
    }
    VariantSearch {
        fits: out,
        not_tried,
        layouts: fitting_layouts(board, observed, rolls),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::test_util::board;

    #[test]
    fn every_variant_of_seed_003_is_estimated_to_fit() {
        // 461 to 463 states without the eaten apples: about 1.2 s at 2.5e-3 s a state.
        let b = builtin("seed-003").unwrap();
        for v in variants(&b) {
            assert!(matches!(estimate(&v), Ok(None)), "{:?}", v.rules());
        }
    }

    #[test]
    fn a_variant_whose_solve_would_take_too_long_is_not_tried() {
        // 8,000 squares, two one-use snakes and a lost-turn square: more than 12,000 states
        // (30 s at 2.5e-3 s a state); with unlimited roll-again the chain is past the memory
        // limit (counted, not built).
        let big = board(
            "size = 8000\nsnakes = [[7000, 10], [6000, 20]]\nonce = [7000, 6000]\nlose_turn = [50]\n",
        );
        for v in variants(&big) {
            let reason = estimate(&v).unwrap_err();
            assert!(
                reason.contains("estimated before starting")
                    || reason.contains("counted before building it"),
                "{reason}"
            );
        }
        // A small board's variants are all tried, their chains built once.
        let tiny = builtin("tiny").unwrap();
        assert!(variants(&tiny)
            .iter()
            .all(|v| estimate(v).unwrap().is_some()));
    }
}
