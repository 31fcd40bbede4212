//! The reports' JSON form of the single-player answers that need the board's words (how an
//! endless game goes round, the throws of an endless turn) or fields derived from the exact
//! ones (a standard deviation, the quantiles by level, digits proved, sentences, a SymPy
//! line): serialisable views over the answers,
//! documented in `docs/json-output.md`. Exact numbers go through [`crate::num::json`]; the
//! report (`report::json::Report`) adds the board and sorts the keys.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;
use serde::ser::Serializer;
use serde::Serialize;

use super::distribution::{Decay, Distribution, Mean, Quantile, Stop, Term};
use super::expectation::Expectation;
use super::likeliest::GameTurns;
use super::pgf::tail::DecayRate;
use super::pgf::{Pgf, Syntax};
use super::score::Score;
use super::shortest::{Extremes, Longest, Shortest, TurnRolls};
use super::summary::{Summary, WITHIN};
use super::tail_law::TailLaw;
use crate::board::{Board, Square};
use crate::chain::{endless_turn_sentence, Trap};
use crate::num::decimal::to_f64;
use crate::num::interval::Interval;

/// Where a game that can last for ever gets stuck: `{square, cycle, message}`.
#[derive(Clone, Debug, Serialize)]
pub struct TrapJson<'a> {
    cycle: &'a [Square],
    message: String,
    square: Square,
}

impl<'a> TrapJson<'a> {
    /// `trap` on `board`.
    pub fn new(board: &'a Board, trap: &'a Trap<Square>) -> TrapJson<'a> {
        TrapJson {
            cycle: &trap.cycle,
            message: trap.sentence(board),
            square: trap.state,
        }
    }
}

/// Each turn's rolls, as a list of lists.
#[derive(Clone, Copy, Debug)]
struct Rolls<'a>(&'a [TurnRolls]);

impl Serialize for Rolls<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|t| &t.rolls))
    }
}

/// The squares after each roll of each turn, as a list of lists.
#[derive(Clone, Copy, Debug)]
struct TurnSquares<'a>(&'a [TurnRolls]);

impl Serialize for TurnSquares<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|t| &t.squares))
    }
}

/// The `shortest` and `longest` keys of `shortest --json` and `analyze --json`.
#[derive(Clone, Debug, Serialize)]
pub struct ExtremesJson<'a> {
    longest: LongestJson<'a>,
    shortest: Option<ShortestJson<'a>>,
}

impl<'a> ExtremesJson<'a> {
    /// `extremes` on `board`.
    pub fn new(board: &'a Board, extremes: &'a Extremes) -> ExtremesJson<'a> {
        ExtremesJson {
            longest: LongestJson::new(board, &extremes.longest),
            shortest: extremes.shortest.as_ref().map(ShortestJson::new),
        }
    }
}

/// The shortest game: its turns with each turn's rolls and squares, its probability, the
/// fewest rolls with one game that takes them, and what it does on the way.
#[derive(Clone, Copy, Debug, Serialize)]
struct ShortestJson<'a> {
    events: &'a [String],
    fewest_rolls: usize,
    fewest_rolls_witness: Rolls<'a>,
    #[serde(serialize_with = "crate::num::json::exact")]
    probability: &'a BigRational,
    rolls: Rolls<'a>,
    squares: TurnSquares<'a>,
    turns: usize,
}

impl<'a> ShortestJson<'a> {
    fn new(s: &'a Shortest) -> ShortestJson<'a> {
        ShortestJson {
            events: &s.events,
            fewest_rolls: s.rolls,
            fewest_rolls_witness: Rolls(&s.rolls_witness),
            probability: &s.probability,
            rolls: Rolls(&s.witness),
            squares: TurnSquares(&s.witness),
            turns: s.turns,
        }
    }
}

/// The longest game: bounded (its turns and rolls), a cycle of turns (its squares and rolls,
/// the rolls that lead to it), or a turn that can go on for ever (its square, in words).
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
enum LongestJson<'a> {
    Cycle {
        cycle: Path<'a>,
        cycle_rolls: Rolls<'a>,
        lead_in_rolls: Rolls<'a>,
        unbounded: bool,
    },
    EndlessTurn {
        endless_turn: Square,
        lead_in_rolls: Rolls<'a>,
        message: String,
        unbounded: bool,
    },
    Bounded {
        rolls: Rolls<'a>,
        turns: usize,
        unbounded: bool,
    },
}

impl<'a> LongestJson<'a> {
    fn new(board: &'a Board, longest: &'a Longest) -> LongestJson<'a> {
        match longest {
            Longest::Unbounded { lead_in, cycle } => LongestJson::Cycle {
                cycle: Path(cycle),
                cycle_rolls: Rolls(cycle),
                lead_in_rolls: Rolls(lead_in),
                unbounded: true,
            },
            Longest::EndlessTurn { lead_in } => {
                let square = lead_in.last().map_or(board.rules().start, TurnRolls::to);
                LongestJson::EndlessTurn {
                    endless_turn: square,
                    lead_in_rolls: Rolls(lead_in),
                    message: endless_turn_sentence(board, square),
                    unbounded: true,
                }
            }
            Longest::Bounded { turns, witness } => LongestJson::Bounded {
                rolls: Rolls(witness),
                turns: *turns,
                unbounded: false,
            },
        }
    }
}

/// The squares the turns end on, the first turn's square first (round a cycle of turns: the
/// first repeated last).
#[derive(Clone, Copy, Debug)]
struct Path<'a>(&'a [TurnRolls]);

impl Serialize for Path<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let first = self.0.first().map(|t| t.from);
        serializer.collect_seq(first.into_iter().chain(self.0.iter().map(TurnRolls::to)))
    }
}

/// The quantiles as a map from the level (as a float) to the turns (`null` beyond the turns
/// computed).
#[derive(Clone, Copy, Debug)]
pub struct QuantilesJson<'a>(pub &'a [Quantile]);

impl Serialize for QuantilesJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(
            self.0
                .iter()
                .map(|q| (format!("{}", to_f64(&q.level)), q.turns)),
        )
    }
}

/// The expectation's keys in `analyze --json`: the exact expectations with the standard
/// deviation, or where an endless game gets stuck.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
enum ExpectationKeys<'a> {
    Finite {
        #[serde(serialize_with = "crate::num::json::exact")]
        expected_ladders: &'a BigRational,
        #[serde(serialize_with = "crate::num::json::exact")]
        expected_rolls: &'a BigRational,
        #[serde(serialize_with = "crate::num::json::exact")]
        expected_snakes: &'a BigRational,
        #[serde(serialize_with = "crate::num::json::exact")]
        expected_turns: &'a BigRational,
        finite: bool,
        #[serde(serialize_with = "crate::num::json::square_root")]
        std_dev: &'a BigRational,
        #[serde(serialize_with = "crate::num::json::exact")]
        variance: &'a BigRational,
    },
    Infinite {
        expected_turns: &'static str,
        finite: bool,
        trap: TrapJson<'a>,
    },
}

impl<'a> ExpectationKeys<'a> {
    fn new(board: &'a Board, expectation: &'a Expectation) -> ExpectationKeys<'a> {
        match expectation {
            Expectation::Finite(e) => ExpectationKeys::Finite {
                expected_ladders: &e.ladders,
                expected_rolls: &e.rolls,
                expected_snakes: &e.snakes,
                expected_turns: &e.turns,
                finite: true,
                std_dev: &e.variance,
                variance: &e.variance,
            },
            Expectation::Infinite(trap) => ExpectationKeys::Infinite {
                expected_turns: "infinite",
                finite: false,
                trap: TrapJson::new(board, trap),
            },
        }
    }
}

/// P(T <= turns), one entry of `within`.
#[derive(Clone, Debug, Serialize)]
struct WithinJson {
    #[serde(serialize_with = "crate::num::json::exact")]
    p: BigRational,
    turns: usize,
}

/// `analyze --json`: the expectations, the quantiles, the chance to finish within 10, 25, 50
/// and 100 turns, and the shortest and longest game.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryJson<'a> {
    #[serde(flatten)]
    expectation: ExpectationKeys<'a>,
    #[serde(flatten)]
    extremes: ExtremesJson<'a>,
    quantiles: QuantilesJson<'a>,
    within: Vec<WithinJson>,
}

impl<'a> SummaryJson<'a> {
    /// `summary` of `board`.
    pub fn new(board: &'a Board, summary: &'a Summary) -> SummaryJson<'a> {
        let d: &Distribution = &summary.distribution;
        SummaryJson {
            expectation: ExpectationKeys::new(board, &summary.expectation),
            extremes: ExtremesJson::new(board, &summary.extremes),
            quantiles: QuantilesJson(&d.quantiles),
            within: WITHIN
                .iter()
                .filter_map(|&turns| d.within(turns).map(|p| WithinJson { p, turns }))
                .collect(),
        }
    }
}

/// A game as `shortest --likeliest --json` writes it: its turns, the squares at their ends (the
/// first turn's square first), each turn's rolls, its exact probability and how many games tie
/// with it (at most `u64::MAX`).
impl Serialize for GameTurns {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Game<'a> {
            #[serde(serialize_with = "crate::num::json::exact")]
            probability: &'a BigRational,
            rolls: Rolls<'a>,
            squares: Path<'a>,
            ties: u64,
            turns: usize,
        }
        Game {
            probability: &self.probability,
            rolls: Rolls(&self.turns),
            squares: Path(&self.turns),
            ties: u64::try_from(self.ties).unwrap_or(u64::MAX),
            turns: self.turns.len(),
        }
        .serialize(serializer)
    }
}

/// `distribution --json`: how far the law was stepped and why it stopped, the tail, the mean,
/// the mode, the quantiles, the decay of the tail (its rate proved and in words), the proved
/// tail law, where an endless game gets stuck, and P(T = n) with P(T <= n) for every n.
#[derive(Clone, Debug, Serialize)]
pub struct DistributionJson<'a> {
    decay: Option<DecayJson>,
    distribution: Terms<'a>,
    mean: &'a Mean,
    mode: Option<usize>,
    quantiles: QuantilesJson<'a>,
    stopped: &'static str,
    #[serde(serialize_with = "crate::num::json::exact")]
    tail: BigRational,
    tail_law: Option<TailLawJson<'a>>,
    trap: Option<TrapJson<'a>>,
    turns: usize,
}

impl<'a> DistributionJson<'a> {
    /// `dist` on `board`.
    pub fn new(board: &'a Board, dist: &'a Distribution) -> DistributionJson<'a> {
        DistributionJson {
            decay: dist.decay.map(DecayJson::new),
            distribution: Terms(&dist.terms),
            mean: &dist.mean,
            mode: dist.mode,
            quantiles: QuantilesJson(&dist.quantiles),
            stopped: match dist.stop {
                Stop::Tail => "tail",
                Stop::Turns => "turns",
                Stop::TrapLimit => "endless",
            },
            tail: dist.tail(),
            tail_law: dist.tail_law.as_ref().map(TailLawJson::new),
            trap: dist.trap.as_ref().map(|t| TrapJson::new(board, t)),
            turns: dist.turns(),
        }
    }
}

/// The tail's decay: rho with its proved bounds, the digits they prove, and in words.
#[derive(Clone, Debug, Serialize)]
struct DecayJson {
    high: f64,
    low: f64,
    proved: String,
    rho: f64,
    sentence: String,
    settles_after: Option<usize>,
}

impl DecayJson {
    fn new(d: Decay) -> DecayJson {
        DecayJson {
            high: d.high,
            low: d.low,
            proved: d.rho_text(6),
            rho: d.rho,
            sentence: d.sentence(),
            settles_after: d.settles_after,
        }
    }
}

/// The proved tail law as printed: C, rho and the error bound as decimals, and in words.
#[derive(Clone, Debug, Serialize)]
struct TailLawJson<'a> {
    c: &'a str,
    from: usize,
    rho: &'a str,
    sentence: String,
    within: &'a str,
}

impl<'a> TailLawJson<'a> {
    fn new(l: &'a TailLaw) -> TailLawJson<'a> {
        TailLawJson {
            c: &l.c_text,
            from: l.from,
            rho: &l.rho_text,
            sentence: l.sentence(),
            within: &l.within_text,
        }
    }
}

/// P(T = n) and P(T <= n) for every n computed, as `[{cdf, n, p}]`.
#[derive(Clone, Copy, Debug)]
struct Terms<'a>(&'a [Term]);

impl Serialize for Terms<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Row<'a> {
            #[serde(serialize_with = "crate::num::json::exact")]
            cdf: BigRational,
            n: usize,
            #[serde(serialize_with = "crate::num::json::exact")]
            p: &'a BigRational,
        }
        serializer.collect_seq(self.0.iter().map(|t| Row {
            cdf: t.cdf(),
            n: t.n,
            p: &t.p,
        }))
    }
}

/// `pgf --json`: N and D with their degrees, the recurrence with its order and initial terms,
/// F(1), E\[T\] = F'(1) (or `infinite` when F(1) < 1), F as SymPy reads it, the proved decay
/// rate with its constant, and what the search took; exact numbers as `n/d`.
#[derive(Clone, Debug, Serialize)]
pub struct PgfJson<'a> {
    decay_rate: Option<DecayRateJson<'a>>,
    #[serde(serialize_with = "crate::num::json::integers")]
    denominator: &'a [BigInt],
    denominator_degree: usize,
    expected_turns: ExpectedTurns,
    #[serde(serialize_with = "crate::num::json::fraction")]
    f_at_1: BigRational,
    #[serde(serialize_with = "crate::num::json::integers")]
    numerator: &'a [BigInt],
    numerator_degree: usize,
    primes_used: usize,
    recurrence: RecurrenceJson<'a>,
    sympy: String,
    terms_used: usize,
}

impl<'a> PgfJson<'a> {
    /// `pgf` with its proved decay `rate`, if any.
    pub fn new(pgf: &'a Pgf, rate: Option<&'a DecayRate>) -> PgfJson<'a> {
        let mut moments = pgf.factorial_moments(1).into_iter();
        let f_at_1 = moments.next().unwrap_or_default();
        let mean = moments.next().unwrap_or_default();
        let r = &pgf.recurrence;
        PgfJson {
            decay_rate: rate.map(DecayRateJson::new),
            denominator: &pgf.denominator,
            denominator_degree: pgf.denominator_degree(),
            expected_turns: match f_at_1.is_one() {
                true => ExpectedTurns::Finite(mean),
                false => ExpectedTurns::Infinite("infinite"),
            },
            f_at_1,
            numerator: &pgf.numerator,
            numerator_degree: pgf.numerator_degree(),
            primes_used: pgf.primes_used,
            recurrence: RecurrenceJson {
                coefficients: &r.coefficients,
                from: r.from,
                initial: &r.initial,
                order: r.order(),
            },
            sympy: pgf.definition(Syntax::Sympy, "=", ""),
            terms_used: pgf.terms_used,
        }
    }
}

/// E\[T\] as `n/d`, or `infinite`.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
enum ExpectedTurns {
    Finite(#[serde(serialize_with = "crate::num::json::fraction")] BigRational),
    Infinite(&'static str),
}

/// The recurrence of P(T = n): its coefficients, order, first n and initial terms.
#[derive(Clone, Debug, Serialize)]
struct RecurrenceJson<'a> {
    #[serde(serialize_with = "crate::num::json::integers")]
    coefficients: &'a [BigInt],
    from: usize,
    #[serde(serialize_with = "crate::num::json::fraction_list")]
    initial: &'a [BigRational],
    order: usize,
}

/// The proved decay rate: its enclosure, the digits both ends agree on, the multiplicity, and
/// the tail's constant likewise.
#[derive(Clone, Debug, Serialize)]
struct DecayRateJson<'a> {
    constant: Option<ConstantJson<'a>>,
    #[serde(serialize_with = "crate::num::json::fraction")]
    high: &'a BigRational,
    #[serde(serialize_with = "crate::num::json::fraction")]
    low: &'a BigRational,
    multiplicity: Option<usize>,
    rho: Option<String>,
}

impl<'a> DecayRateJson<'a> {
    fn new(r: &'a DecayRate) -> DecayRateJson<'a> {
        DecayRateJson {
            constant: r.constant.as_ref().map(|(low, high)| ConstantJson {
                c: agreed_digits(low, high),
                high,
                low,
            }),
            high: &r.high,
            low: &r.low,
            multiplicity: r.multiplicity,
            rho: agreed_digits(&r.low, &r.high),
        }
    }
}

/// The tail's constant C enclosed, with the digits both ends agree on.
#[derive(Clone, Debug, Serialize)]
struct ConstantJson<'a> {
    c: Option<String>,
    #[serde(serialize_with = "crate::num::json::fraction")]
    high: &'a BigRational,
    #[serde(serialize_with = "crate::num::json::fraction")]
    low: &'a BigRational,
}

/// The digits (at most 12 after the point) both ends of `[low, high]` round to.
fn agreed_digits(low: &BigRational, high: &BigRational) -> Option<String> {
    Interval::new(low.clone(), high.clone())
        .agreed(12)
        .map(|(_, text)| text)
}

/// The exact law of the final score as `expect --json` writes it under `score`: E\[score\] and
/// each score with P(score = s) and P(score >= s), every number as its fraction `n/d` with a
/// decimal (at the report's digits).
impl Serialize for Score {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Law<'a> {
            #[serde(serialize_with = "crate::num::json::fraction_with_decimal")]
            at_least: BigRational,
            #[serde(serialize_with = "crate::num::json::fraction_with_decimal")]
            p: &'a BigRational,
            score: i64,
        }
        #[derive(Serialize)]
        struct Body<'a> {
            #[serde(serialize_with = "crate::num::json::fraction_with_decimal")]
            expected: &'a BigRational,
            law: Vec<Law<'a>>,
        }
        Body {
            expected: &self.expected,
            law: self
                .law
                .iter()
                .zip(self.tails())
                .map(|((score, p), at_least)| Law {
                    at_least,
                    p,
                    score: *score,
                })
                .collect(),
        }
        .serialize(serializer)
    }
}
