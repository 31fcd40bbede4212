//! The two floats of a shown distribution computed from the tails `P(T > n)` (part of
//! `shown.rs`): the turn after which the decay settles and the approximate mean. The exact
//! distribution computes them from the nearest `f64` of each tail; here a tail may be known
//! only within bounds (the float tier's, about 2^-37 apart relative to the value), so each is
//! computed from an `f64` inside the bounds with a proved bound on how far it can be from the
//! exact distribution's, and is decided when that cannot change what the report shows: the
//! same turn, and the same mean to the three decimals `report::distribution` prints
//! (`{:.3}`, which rounds correctly and so is monotone). Otherwise the terms must be known
//! better (`Err`), and the next tier computes them.

use super::{Value, ValueRef};
use crate::analysis::distribution::{mean_about, Decay, Mean};
use crate::exact::certified::Bounds;
use crate::num::limbs::u128_to_f64;

/// The unit roundoff of `f64`, 2^-53.
const UNIT: f64 = 1.0 / (1u64 << 53) as f64;

/// The least value an approximation may have: far above the subnormal range, so that its
/// relative bound holds through a division.
const LEAST: f64 = 1e-290;

/// An `f64` inside the bounds: the lower one, rounded to nearest (0 when it is not a normal
/// `f64`).
pub(super) fn inside(b: &Bounds) -> f64 {
    if b.shift > 1020 {
        return 0.0;
    }
    u128_to_f64(b.lo) * f64::from_bits(u64::from(1023 - b.shift) << 52)
}

/// A tail as computed here and `d`, a bound on its relative distance from the nearest `f64` of
/// the exact tail (0 when it is that `f64`); `None` when the bounds are too wide or the value
/// too small for a relative bound.
pub(super) type Tail = Option<(f64, f64)>;

/// Each tail of `s` as [`settles_after`] and [`mean`] take them: read once for both.
pub(super) fn tails(s: &[Value]) -> Vec<Tail> {
    s.iter().map(tail).collect()
}

/// The [`Tail`] of `v`.
fn tail(v: &Value) -> Tail {
    if let Some(x) = v.to_f64() {
        return Some((x, 0.0));
    }
    let ValueRef::Bounds(b) = v.get() else {
        return None;
    };
    let x = inside(&b);
    if b.lo == 0 || x < LEAST {
        return None;
    }
    // The true value is within (hi - lo) / lo of lo / 2^shift, which x is within 2^-53 of,
    // and the nearest f64 within 2^-53 of the true value; 1.01 covers the products.
    let width = u128_to_f64(b.hi - b.lo) / u128_to_f64(b.lo);
    Some((x, (width + 4.0 * UNIT) * 1.01))
}

/// The first n from which `P(T > n) / P(T > n - 1)` stays within 1 % of `rho`, as
/// `analysis::distribution` computes it from the exact tails (the same test on the same
/// floats when they are decided), or the terms whose test the bounds cannot decide; `tails`
/// are those of the terms ([`tails`]).
pub(super) fn settles_after(tails: &[Tail], rho: f64) -> Result<Option<usize>, Vec<usize>> {
    let mut settled = None;
    let mut undecided = Vec::new();
    for n in 1..tails.len() {
        let ok = match (tails[n - 1], tails[n]) {
            (Some((0.0, _)), _) => false,
            (Some((a, 0.0)), Some((b, 0.0))) => ((b / a) / rho - 1.0).abs() < 0.01,
            (Some((a, da)), Some((b, db))) => {
                // The ratio is within a relative 2 (da + db) + 6 u of the exact
                // distribution's, so x within (x + 1)(2 (da + db) + 8 u) of its: twice that
                // away from 0.01 decides the test.
                let x = ((b / a) / rho - 1.0).abs();
                let margin = 2.0 * (x + 1.0) * (2.0 * (da + db) + 8.0 * UNIT);
                if (x - 0.01).abs() <= margin {
                    undecided.extend([n - 1, n]);
                    continue;
                }
                x < 0.01
            }
            _ => {
                undecided.extend([n - 1, n]);
                continue;
            }
        };
        match (ok, settled) {
            (true, None) => settled = Some(n + 1),
            (false, _) => settled = None,
            _ => {}
        }
    }
    match undecided.is_empty() {
        true => Ok(settled),
        false => Err(undecided),
    }
}

/// `E[T] = sum_(n >= 0) P(T > n)`, the terms then a geometric tail, as
/// [`mean_about`] computes it from the exact tails, when the three decimals shown are the same
/// for every value within the proved distance from it; else every term must be known better.
/// `tails` are those of the terms ([`tails`]).
pub(super) fn mean(tails: &[Tail], decay: Option<Decay>) -> Result<Mean, Vec<usize>> {
    let every = || (0..tails.len()).collect::<Vec<usize>>();
    if tails.iter().any(Option::is_none) {
        return Err(every());
    }
    // Every tail is known: read in place, without a copy of the pairs.
    let tails = || tails.iter().map(|t| t.expect("every tail is known"));
    let values: Vec<f64> = tails().map(|t| t.0).collect();
    let about = mean_about(&values, decay);
    let (Mean::About(m), Some((last, d_last))) = (&about, tails().next_back()) else {
        return Ok(about);
    };
    if tails().all(|t| t.1 == 0.0) {
        // The exact distribution's floats.
        return Ok(about);
    }
    let g = match decay {
        Some(d) if d.rho < 1.0 => 1.0 / (1.0 - d.rho),
        _ => 1.0,
    };
    // Each tail is within t d of the exact distribution's (the last counts g times), and each
    // of the two sums of at most N + 2 positive terms within gamma_(N+2) of its exact sum.
    let before = tails().take(values.len() - 1);
    let moved: f64 = before.map(|(t, d)| t * d).sum::<f64>() + last * d_last * g;
    let rounding = 2.0 * (values.len() as f64 + 4.0) * 2.0 * UNIT * m;
    let slack = 2.0 * (moved + rounding);
    match format!("{:.3}", m - slack) == format!("{:.3}", m + slack) {
        true => Ok(about),
        false => Err(every()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{decide, step_on, GiveUp, Shows, Value};
    use super::*;
    use crate::analysis::distribution::{distribution, plan, DistributionOptions};
    use crate::board::builtin;
    use crate::chain::Chain;
    use crate::exact::certified::FloatChain;

    fn five_hundred() -> DistributionOptions {
        DistributionOptions {
            turns: Some(500),
            ..DistributionOptions::default()
        }
    }

    #[test]
    fn the_floats_agree_with_the_exact_distributions_from_exact_tails_and_from_bounds() {
        // Second method: `analysis::distribution`, from the exact tails' nearest f64.
        let chain = Chain::for_board(&builtin("efi").unwrap());
        let dist = distribution(&chain, &five_hundred()).unwrap();
        let decay = dist.decay.unwrap();
        let exact: Vec<Value> = dist
            .terms
            .iter()
            .map(|t| Value::exact(t.survives.clone()))
            .collect();
        assert_eq!(
            settles_after(&tails(&exact), decay.rho),
            Ok(decay.settles_after)
        );
        assert_eq!(mean(&tails(&exact), Some(decay)), Ok(dist.mean.clone()));
        // The float tier's bounds, about 2^-37 wide: the same turn and the same decimals.
        let fc = FloatChain::new(&chain).unwrap();
        let mut f = fc.stepper();
        let bounds: Vec<Value> = (0..500)
            .map(|_| {
                assert!(f.step());
                Value::bounds(f.survives())
            })
            .collect();
        assert_eq!(
            settles_after(&tails(&bounds), decay.rho),
            Ok(decay.settles_after)
        );
        let (Ok(Mean::About(got)), Mean::About(want)) =
            (mean(&tails(&bounds), Some(decay)), &dist.mean)
        else {
            panic!("an approximate mean");
        };
        assert_eq!(format!("{got:.3}"), format!("{want:.3}"));
        assert!((got - want).abs() < 1e-9, "{got} {want}");
    }

    #[test]
    fn a_ratio_too_near_the_one_percent_edge_is_left_undecided() {
        // P(T > 0) = 1/2 and P(T > 1) = 0.2525 x 2: the ratio 0.505 is 1 % above rho = 0.5
        // (up to rounding), so bounds 2^-40 wide cannot tell the test; exact ones can.
        let wide = |x: f64| {
            let lo = (x * 2f64.powi(120)) as u128;
            Value::Bounds {
                lo,
                hi: lo + (lo >> 40),
                shift: 120,
            }
        };
        assert_eq!(
            settles_after(&tails(&[wide(0.5), wide(0.2525)]), 0.5),
            Err(vec![0, 1])
        );
        let x = |n: i64, d: i64| Value::exact(crate::test_util::q(n, d));
        assert!(settles_after(&tails(&[x(1, 2), x(2525, 10000)]), 0.5).is_ok());
        // Far from the edge, the same bounds decide it: 0.3 / 0.5 is 20 % above rho.
        assert_eq!(
            settles_after(&tails(&[wide(0.5), wide(0.3)]), 0.5),
            Ok(None)
        );
    }

    #[test]
    fn on_efi_the_float_tier_decides_every_term_past_turn_150() {
        // Its 500 terms from the float tier; the terms it cannot decide (12 digits, no chart,
        // the exact mean given) are early ones, where P(T > n) is large: the u128 tier runs
        // only that far (and to the tail law's turn).
        let chain = Chain::for_board(&builtin("efi").unwrap());
        let options = five_hundred();
        let plan = plan(&chain, &options, |_| 0.0).unwrap();
        let fc = FloatChain::new(&chain).unwrap();
        let (mut p, mut s) = (Vec::new(), Vec::new());
        let terms = (&mut p, &mut s);
        step_on(&mut fc.stepper(), terms, &options, &plan, GiveUp::Never).unwrap();
        assert_eq!(p.len(), 500);
        let shows = Shows {
            chart: false,
            exact_mean: &|| None,
        };
        let rho = plan.radius(&chain, None);
        let undecided = match decide(&p, &s, 12, (&plan, rho), &shows) {
            Ok(_) => vec![],
            Err(undecided) => undecided,
        };
        assert!(undecided.iter().all(|&i| i < 150), "{undecided:?}");
    }
}
