//! The test of a sample's standard deviation (`verify --sd`): the sample variance against the
//! exact variance of the number of turns, with the standard error the exact fourth central
//! moment gives it.
//!
//! # Formula
//!
//! For n independent games with variance `σ² = mu_2` and fourth central moment `mu_4`, the
//! sample variance `s²` has mean `σ²` and variance `(mu_4 - σ⁴ (n - 3) / (n - 1)) / n` (H.
//! Cramér, *Mathematical Methods of Statistics*, 1946, 27.4), and is close to normal for large
//! n. So `z = (s² - σ²) / √((mu_4 - σ⁴ (n - 3) / (n - 1)) / n)`, judged as the mean is
//! ([`crate::simulate::check::Z_LIMIT`]). Both moments are exact
//! ([`crate::analysis::moments::checked_moments`]). A standard deviation as written is an
//! interval ("20" is somewhere in [19.5, 20.5)); the point of its square nearest `σ²` is tested.
//! Whether the sample divided by n or n - 1 moves `s²` by a factor `1 - 1/n`, far inside the
//! standard error from 100 games on.

use crate::analysis::moments::{checked_moments, MomentsError};
use crate::board::{Board, RuleOverrides};
use crate::chain::{on_player_chain, Memory};
use crate::num::decimal::to_f64;

use super::check::{ZTest, Z_LIMIT};
use super::sample::MeanInterval;
use super::variants::{NotTried, VariantFit, VariantSearch};

/// The z test of a standard deviation `sd` reported over `games` games on `board`: `observed`
/// and `expected` are variances (the square of the sd as given, at its point nearest the exact
/// variance; the exact variance).
///
/// # Errors
///
/// The exact moments to order 4 are refused as too much work, or infinite (a board whose finish
/// can be unreachable).
pub fn variance_test(board: &Board, sd: &MeanInterval, games: u64) -> Result<ZTest, MomentsError> {
    let moments = on_player_chain!(board, Memory::Full, |_, chain| checked_moments(chain, 4))?;
    let variance = to_f64(&moments.central[2]);
    let fourth = to_f64(&moments.central[4]);
    Ok(z_of_variance(sd, games, variance, fourth))
}

/// The variants of `search` whose law also fits the standard deviation `sd` over `games` games
/// (the search itself tests the mean and the law of T only): the others are dropped, a variant
/// whose moments are refused moves to [`VariantSearch::not_tried`] with the reason, and the
/// indices of [`VariantFit::same_law_as`] follow the kept ones.
pub fn fits_of_sd(
    board: &Board,
    search: VariantSearch,
    sd: &MeanInterval,
    games: u64,
) -> VariantSearch {
    let VariantSearch {
        fits,
        mut not_tried,
        layouts,
    } = search;
    let mut kept: Vec<VariantFit> = Vec::new();
    let mut new_index = vec![None; fits.len()];
    for (i, mut fit) in fits.into_iter().enumerate() {
        let rules = fit.rules;
        let overrides = RuleOverrides {
            overshoot: Some(rules.overshoot),
            start: Some(rules.start),
            roll_again: Some(rules.roll_again),
            ..RuleOverrides::default()
        };
        let test = board
            .with_rules(&overrides)
            .map_err(|e| e.to_string())
            .and_then(|b| variance_test(&b, sd, games).map_err(|e| e.to_string()));
        match test {
            Ok(z) if z.pass => {
                fit.comparison = fit.comparison.with_variance(z);
                new_index[i] = Some(kept.len());
                kept.push(fit);
            }
            Ok(_) => {}
            Err(reason) => not_tried.push(NotTried {
                rules,
                changes: fit.changes,
                reason: format!("the test of the standard deviation: {reason}"),
            }),
        }
    }
    for fit in &mut kept {
        fit.same_law_as = fit
            .same_law_as
            .iter()
            .filter_map(|&j| new_index[j])
            .collect();
    }
    VariantSearch {
        fits: kept,
        not_tried,
        layouts,
    }
}

/// The z test of the sd as written against a law with this variance and fourth central moment.
fn z_of_variance(sd: &MeanInterval, games: u64, variance: f64, fourth: f64) -> ZTest {
    let n = games.max(2) as f64;
    // Var(s²) times n: z = (s² - σ²) / √(spread² / n).
    let spread = (fourth - variance * variance * (n - 3.0) / (n - 1.0))
        .max(0.0)
        .sqrt();
    let (low, high) = (sd.low.max(0.0), sd.high.max(0.0));
    let observed = variance.clamp(low * low, high * high);
    ZTest::with_limit(observed, variance, spread, games, Z_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::simulate::check::{fitting_variants, ExactLaw, Observed};

    #[test]
    fn tiny_sd_is_tested_against_the_hand_derived_moments() {
        // boards/tiny.toml by hand: T = G1 + G2, two independent geometric(1/2) waits on 1, 2,
        // ...; Var G = (1 - p)/p² = 2 and mu_4(G) = (1 - p)(p² - 9p + 9)/p⁴ = 38, so Var T = 4
        // and mu_4(T) = 38 + 38 + 6 * 2 * 2 = 100.
        let b = builtin("tiny").unwrap();
        let sd = |text: &str| MeanInterval::parse(text).unwrap();
        let z = variance_test(&b, &sd("2.2"), 10_000).unwrap();
        // "2.2" is [2.15, 2.25): its square nearest 4 is 2.15² = 4.6225.
        let se = ((100.0 - 16.0 * 9_997.0 / 9_999.0) / 10_000f64).sqrt();
        assert_eq!(z.expected, 4.0);
        assert!((z.observed - 4.6225).abs() < 1e-12, "{z:?}");
        assert!((z.standard_error - se).abs() < 1e-12, "{z:?}");
        assert!((z.z - (4.6225 - 4.0) / se).abs() < 1e-9, "{z:?}");
        assert!(!z.pass);
        // "2.0" is [1.95, 2.05): holds 2, z = 0; "2.1" is 2.05² = 4.2025, z = 2.2: passes.
        assert!(variance_test(&b, &sd("2.0"), 10_000).unwrap().z == 0.0);
        let z = variance_test(&b, &sd("2.1"), 10_000).unwrap();
        assert!(z.pass && (z.z - 0.2025 / se).abs() < 1e-9, "{z:?}");
    }

    #[test]
    fn the_variants_that_fit_the_mean_but_not_the_sd_are_dropped() {
        // tiny's `allow` variant (worked by hand in check.rs: T = G + 1, G geometric(1/2), so
        // E[T] = 3 and Var T = 2) against a sample with mean 3: it fits the mean; with sd "1.4"
        // (1.4² = 1.96, [1.35, 1.45)) it keeps, with sd "2.0" (Var 4) it goes.
        let b = builtin("tiny").unwrap();
        let law = ExactLaw::new(&b, 1.0).unwrap();
        let mean = MeanInterval::parse("3.0").unwrap();
        let observed = Observed::Summary {
            mean: &mean,
            games: 10_000,
        };
        let search = || fitting_variants(&b, &law, observed, None);
        let names = |s: &VariantSearch| -> Vec<String> {
            s.fits.iter().map(|f| f.changes.join(", ")).collect()
        };
        let all = search();
        assert!(
            names(&all).contains(&"overshoot = allow".to_string()),
            "{:?}",
            names(&all)
        );
        let sd = |t: &str| MeanInterval::parse(t).unwrap();
        let kept = fits_of_sd(&b, search(), &sd("1.4"), 10_000);
        assert!(names(&kept).contains(&"overshoot = allow".to_string()));
        assert!(kept.fits.iter().all(|f| f.comparison.variance.is_some()));
        let kept = fits_of_sd(&b, search(), &sd("2.0"), 10_000);
        assert!(!names(&kept).contains(&"overshoot = allow".to_string()));
        for f in &kept.fits {
            assert!(f.same_law_as.iter().all(|&j| j < kept.fits.len()));
        }
    }

    #[test]
    fn a_law_without_spread_needs_an_sd_of_zero() {
        let z = z_of_variance(&MeanInterval::parse("0").unwrap(), 500, 0.0, 0.0);
        assert!(z.pass && z.exact);
        let z = z_of_variance(&MeanInterval::parse("1").unwrap(), 500, 0.0, 0.0);
        assert!(!z.pass && z.exact);
    }
}
