//! The tiers of `certified_distribution_for` (`analysis/shown.rs`) and the order they run in:
//! with a tail law to look for, the `u128` tier from the start to the turn at which the law of
//! the position settles (the law is finished from its position there), then the law's
//! geometric bounds for the turns left, else the float tier from the `u128` tier's position,
//! else the `u128` tier on; with none (a game that may not end), the float tier from the start,
//! else the `u128` tier. The `u128` tier stays for the terms left undecided ([`Refine`]).

use super::{DistributionOptions, Plan, Stop, TailLaw, TailLawStart, Value, ValueRef};
use crate::analysis::distribution::stop_rule;
use crate::exact::certified::{
    below, Bounds, CertifiedChain, CertifiedStepper, FloatChain, FloatStepper, GeometricTier,
};

/// A stepping of certified bounds, as [`step_on`] drives it.
pub(super) trait Tier {
    fn turn(&self) -> usize;
    /// One more turn; false when the tier gives up.
    fn step(&mut self) -> bool;
    fn ends_now(&self) -> Bounds;
    fn survives(&self) -> Bounds;
}

/// [`Tier`] for a stepper whose own methods of the same names do the work.
macro_rules! tier_by_its_methods {
    ($($stepper:ty),*) => {$(
        impl Tier for $stepper {
            fn turn(&self) -> usize {
                <$stepper>::turn(self)
            }
            fn step(&mut self) -> bool {
                <$stepper>::step(self)
            }
            fn ends_now(&self) -> Bounds {
                <$stepper>::ends_now(self)
            }
            fn survives(&self) -> Bounds {
                <$stepper>::survives(self)
            }
        }
    )*};
}

tier_by_its_methods!(FloatStepper<'_>, GeometricTier);

impl Tier for CertifiedStepper<'_> {
    fn turn(&self) -> usize {
        CertifiedStepper::turn(self)
    }
    fn step(&mut self) -> bool {
        CertifiedStepper::step(self);
        true
    }
    fn ends_now(&self) -> Bounds {
        CertifiedStepper::ends_now(self)
    }
    fn survives(&self) -> Bounds {
        CertifiedStepper::survives(self)
    }
}

/// The terms the tiers stepped, and why the stepping stopped.
pub(super) struct Stepped {
    pub(super) p: Vec<Value>,
    pub(super) s: Vec<Value>,
    pub(super) stop: Stop,
}

/// What the first stepping gives [`certified_distribution_for`]: the terms, the `u128` tier
/// for the terms they leave undecided, the tail law, and the law of the position at the turn
/// it settled (the start of rho's power method, [`Plan::radius`]).
pub(super) type First<'a> = (Stepped, Refine<'a>, Option<TailLaw>, Option<Vec<f64>>);

/// When [`step_on`] stops a tier that could go on.
#[derive(Clone, Copy, Debug)]
pub(super) enum GiveUp {
    Never,
    /// When the tier looks unable to decide the late terms to this many units (`10^-digits`),
    /// so that the next tier would have to step them all anyway: at turns 64, 128, 256, ...,
    /// when the absolute width of `P(T > n)` is above 1/64 of a unit and has not fallen since
    /// the last power of two (the float tier's relative width grows like n, so the surviving
    /// mass falls too slowly to make up for it; a heuristic, which only moves work between
    /// tiers).
    Hopeless(f64),
}

impl GiveUp {
    /// Whether to give up after turn `n`, `s` its `P(T > n)`, `before` the width at the last
    /// check (updated).
    fn now(self, n: usize, s: &Bounds, before: &mut f64) -> bool {
        let GiveUp::Hopeless(unit) = self else {
            return false;
        };
        if n < 32 || !n.is_power_of_two() {
            return false;
        }
        let width = (s.hi - s.lo) as f64 * 2f64.powi(-(s.shift.min(2000) as i32));
        let hopeless = n >= 64 && width >= *before && width >= unit / 64.0;
        *before = width;
        hopeless
    }
}

/// The stop rule at the terms stepped so far: `Err(())` when the last term's bounds cannot
/// tell whether `P(T > n)` is below the tail threshold and the rule asks.
fn stop_now<S>(
    s: &[Value],
    n: usize,
    options: &DistributionOptions,
    plan: &Plan<S>,
) -> Result<Option<Stop>, ()> {
    // The turns asked for, or a game that starts finished, decide without the last term.
    if options.turns.is_some() || plan.starts_finished {
        return Ok(stop_rule(options, plan, n, None));
    }
    let last = match s.last().map(Value::get) {
        Some(ValueRef::Bounds(b)) => Some(below(&b, &options.tail).ok_or(())? || b.is_zero()),
        _ => None,
    };
    Ok(stop_rule(options, plan, n, last))
}

/// Steps `stepper` on from its turn, after the terms in `p` and `s` (one per turn before it),
/// as far as the stop rule says; `None` when the tier gives up (on its own or as `give_up`
/// says) or its bounds cannot tell whether `P(T > n)` is below the tail threshold.
pub(super) fn step_on<S>(
    stepper: &mut impl Tier,
    (p, s): (&mut Vec<Value>, &mut Vec<Value>),
    options: &DistributionOptions,
    plan: &Plan<S>,
    give_up: GiveUp,
) -> Option<Stop> {
    let mut width = 0.0;
    let stage =
        crate::progress::Stage::begin("stepping certified bounds", options.turns.map(|n| n as u64));
    loop {
        stage.advance(stepper.turn() as u64);
        if let Some(stop) = stop_now(s, stepper.turn(), options, plan).ok()? {
            return Some(stop);
        }
        if !stepper.step() {
            return None;
        }
        let survives = stepper.survives();
        if give_up.now(stepper.turn(), &survives, &mut width) {
            return None;
        }
        p.push(Value::bounds(stepper.ends_now()));
        s.push(Value::bounds(survives));
    }
}

/// Two empty vectors for the terms `P(T = n)` and `P(T > n)`, with room for the turns asked
/// for (up to [`RESERVED_TURNS`]): they then never grow by copying.
fn no_terms(options: &DistributionOptions) -> (Vec<Value>, Vec<Value>) {
    let turns = options.turns.map_or(0, |n| n.min(RESERVED_TURNS));
    (Vec::with_capacity(turns), Vec::with_capacity(turns))
}

/// The most turns [`no_terms`] makes room for ahead (3 MiB a vector); more grow as they come.
const RESERVED_TURNS: usize = 1 << 16;

/// With no tail law to look for (a game that may not end): the float tier from the start,
/// the `u128` tier from the start when it gives up; `None` when neither can tell the tail
/// threshold.
pub(super) fn float_first<'a, 'f, S>(
    cc: &'a CertifiedChain,
    fc: impl Fn() -> Option<&'f FloatChain>,
    options: &DistributionOptions,
    plan: &Plan<S>,
    grid: f64,
) -> Option<First<'a>> {
    let (mut p, mut s) = no_terms(options);
    if let Some(fc) = fc() {
        let give_up = GiveUp::Hopeless(grid);
        if let Some(stop) = step_on(&mut fc.stepper(), (&mut p, &mut s), options, plan, give_up) {
            return Some((Stepped { p, s, stop }, Refine::new(cc), None, None));
        }
        p.clear();
        s.clear();
    }
    let stop = step_on(
        &mut cc.stepper(),
        (&mut p, &mut s),
        options,
        plan,
        GiveUp::Never,
    )?;
    Some((Stepped { p, s, stop }, Refine::finished(), None, None))
}

/// The `u128` tier from the start, watched for the turn at which the law of the position
/// settles (the tail law's start, whose constants need the `u128` tier's precision: the float
/// tier's, about 2^-37 at turn 244 on efi, would move their last digits), deciding the terms it
/// passes; then the float tier from the `u128` tier's position for the turns left, or the
/// `u128` tier on when the float tier cannot start there or gives up. `None` when the bounds
/// cannot tell the tail threshold.
pub(super) fn law_first<'a, 'f, S>(
    start: &TailLawStart,
    cc: &'a CertifiedChain,
    fc: impl Fn() -> Option<&'f FloatChain>,
    options: &DistributionOptions,
    plan: &Plan<S>,
    grid: f64,
) -> Option<First<'a>> {
    let (mut p, mut s) = no_terms(options);
    let mut stepper = cc.stepper();
    let mut settling = start.settling();
    let (mut stop, mut law, mut settled) = (None, None, None);
    let mut stage =
        crate::progress::Stage::begin("stepping certified bounds", options.turns.map(|n| n as u64));
    let mut looking = false;
    loop {
        stage.advance(stepper.turn() as u64);
        if stop.is_none() {
            stop = stop_now(&s, stepper.turn(), options, plan).ok()?;
        }
        if law.is_some() || settling.gave_up(stepper.turn()) {
            break;
        }
        if stop.is_some() && !looking {
            // The terms are done; the turns left look for the law, up to the watch's limit
            // (a bar of "1,443/5 steps" said nothing true).
            looking = true;
            drop(stage);
            let limit = settling.turns() as u64;
            stage = crate::progress::Stage::begin("looking for the tail law", Some(limit));
        }
        stepper.step();
        if stop.is_none() {
            p.push(Value::bounds(stepper.ends_now()));
            s.push(Value::bounds(stepper.survives()));
        }
        if let Some(u) = settling.watch(&stepper) {
            law = Some(start.finish(stepper.turn(), &u, &stepper.position()));
            settled = Some(u);
        }
    }
    drop(stage);
    let law = law.flatten();
    let stop = match stop {
        Some(stop) => stop,
        None => {
            let turn = stepper.turn();
            let geometric = law.as_ref().and_then(|law| {
                let (a, r, s) = &law.upper;
                let (b, l) = &law.lower;
                GeometricTier::new(turn, (a, r, s), (b, l))
            });
            let float = || fc().and_then(|fc| fc.stepper_at(turn, &stepper.position()));
            let terms = (&mut p, &mut s);
            match later_terms(geometric, float, terms, options, plan, grid) {
                Some(stop) => stop,
                None => {
                    p.truncate(turn);
                    s.truncate(turn);
                    step_on(&mut stepper, (&mut p, &mut s), options, plan, GiveUp::Never)?
                }
            }
        }
    };
    let refine = Refine {
        stepper: Some(stepper),
    };
    Some((Stepped { p, s, stop }, refine, law, settled))
}

/// The terms after the turn the law settled at: from the law's geometric bounds, else from the
/// float tier started there (`float`), after the terms in `p` and `s`; `None` when neither
/// goes as far as the stop rule (the terms are then as they were).
fn later_terms<'a, S>(
    geometric: Option<GeometricTier>,
    float: impl Fn() -> Option<FloatStepper<'a>>,
    (p, s): (&mut Vec<Value>, &mut Vec<Value>),
    options: &DistributionOptions,
    plan: &Plan<S>,
    grid: f64,
) -> Option<Stop> {
    let turn = p.len();
    if let Some(mut geometric) = geometric {
        let terms = (&mut *p, &mut *s);
        if let Some(stop) = step_on(&mut geometric, terms, options, plan, GiveUp::Never) {
            return Some(stop);
        }
        p.truncate(turn);
        s.truncate(turn);
    }
    let stop = step_on(
        &mut float()?,
        (&mut *p, &mut *s),
        options,
        plan,
        GiveUp::Hopeless(grid),
    );
    if stop.is_none() {
        p.truncate(turn);
        s.truncate(turn);
    }
    stop
}

/// The u128 tier run on demand after the float tier: it replaces the float terms, from its
/// turn on, as far as the last one asked for.
pub(super) struct Refine<'a> {
    stepper: Option<CertifiedStepper<'a>>,
}

impl<'a> Refine<'a> {
    fn new(cc: &'a CertifiedChain) -> Refine<'a> {
        Refine {
            stepper: Some(cc.stepper()),
        }
    }

    /// Nothing to refine: the terms came from the u128 tier.
    fn finished() -> Refine<'a> {
        Refine { stepper: None }
    }

    /// Replaces the terms up to the last float term in `indices` by the u128 tier's; false
    /// when none of them is a float term.
    pub(super) fn refine(&mut self, p: &mut [Value], s: &mut [Value], indices: &[usize]) -> bool {
        let Some(stepper) = &mut self.stepper else {
            return false;
        };
        let last = indices.iter().copied().max().expect("some term");
        if last < stepper.turn() {
            return false;
        }
        let stage = crate::progress::Stage::begin("u128 bounds", Some(last as u64 + 1));
        while stepper.turn() <= last {
            stage.advance(stepper.turn() as u64);
            stepper.step();
            let i = stepper.turn() - 1;
            p[i] = Value::bounds(stepper.ends_now());
            s[i] = Value::bounds(stepper.survives());
        }
        true
    }
}

/// Whether a term's bounds are wider than 2^-21 of their lower bound (relative). The `u128`
/// tier's roundings are injected at the scale of the surviving mass and fall with the chain's
/// slowest mode: on a chain whose law takes long to settle (a slow mode of tiny weight) they
/// outgrow terms that fall faster, and its terms are then stepped again by the float tier.
pub(super) fn too_wide(terms: &[Value]) -> bool {
    terms
        .iter()
        .any(|v| matches!(*v, Value::Bounds { lo, hi, .. } if hi - lo > lo >> 21))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terms_have_room_for_the_turns_asked_for_up_to_the_cap() {
        let with = |turns| DistributionOptions {
            turns,
            ..DistributionOptions::default()
        };
        let (p, s) = no_terms(&with(Some(500)));
        assert!(p.is_empty() && s.is_empty());
        assert!(p.capacity() >= 500 && s.capacity() >= 500);
        let (p, _) = no_terms(&with(Some(usize::MAX)));
        assert!((RESERVED_TURNS..2 * RESERVED_TURNS).contains(&p.capacity()));
        let (p, _) = no_terms(&with(None));
        assert_eq!(p.capacity(), 0);
    }

    #[test]
    fn the_turns_asked_for_stop_the_stepping_whatever_the_last_terms_bounds() {
        // A last P(T > n) in [0, 1]: its bounds cannot tell the tail threshold (1e-12), which
        // matters only when no turns are asked for.
        let chain = crate::chain::Chain::for_board(&crate::board::builtin("tiny").unwrap());
        let with = |turns| DistributionOptions {
            turns,
            ..DistributionOptions::default()
        };
        let wide = [Value::bounds(Bounds {
            lo: 0,
            hi: 1 << 100,
            shift: 100,
        })];
        let plan = crate::analysis::distribution::plan(&chain, &with(None), |_| 0.0).unwrap();
        assert_eq!(stop_now(&wide, 1, &with(None), &plan), Err(()));
        let turns = with(Some(3));
        assert_eq!(stop_now(&wide, 1, &turns, &plan), Ok(None));
        let stop = stop_now(&wide, 3, &turns, &plan);
        assert!(matches!(stop, Ok(Some(Stop::Turns))), "{stop:?}");
    }
}
