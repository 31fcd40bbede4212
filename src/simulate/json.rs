//! The serde form of a simulation and of its check against the exact law, as `simulate
//! --json` and `check --json` write them (docs/json-output.md): a [`Simulation`]'s counts
//! with their summaries, a [`Histogram`]'s summary, the final [`Scores`], [`CheckJson`] the
//! tests of a sample against an [`ExactLaw`], [`VerifyJson`] (`verify --json`) a sample
//! someone simulated with the rule variants it fits, and [`RaceSimulationJson`] a race's games
//! (`simulate --players K`) with their check against the exact race.

use num_rational::BigRational;
use serde::{Serialize, Serializer};

use super::check::{ChiSquare, Comparison, ExactLaw, ZTest, P_LIMIT, Z_LIMIT};
use super::hints::{layout_sentences, named_layouts, variant_sentences};
use super::race::{RaceComparison, RaceExact, RaceSimulation};
use super::sample::MeanInterval;
use super::stateful::Scores;
use super::variants::{LayoutFit, NotTried, VariantFit};
use super::{GameSeen, Histogram, Simulation};
use crate::board::json::RulesJson;
use crate::board::{Board, Square};
use crate::game::Capabilities;
use crate::num::interval::CertifiedJson;
use crate::num::json::{with_digits, DECIMAL_DIGITS};

/// A total over all games, per game (a share of the games when the total counts games).
pub(crate) fn per_game(total: u64, games: u64) -> f64 {
    total as f64 / games.max(1) as f64
}

/// The games' rolls, snakes and ladders taken, squares climbed and slid.
#[derive(Serialize)]
struct Counts<T> {
    climbed: T,
    ladders: T,
    rolls: T,
    slid: T,
    snakes: T,
}

/// The first game seen with the fewest turns (with its faces) or the most (without).
#[derive(Serialize)]
struct SeenJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    faces: Option<Option<&'a [Vec<u32>]>>,
    rolls: u64,
    turns: u64,
}

impl<'a> SeenJson<'a> {
    fn new(seen: &'a GameSeen, with_faces: bool) -> SeenJson<'a> {
        SeenJson {
            faces: with_faces.then_some(seen.faces.as_deref()),
            rolls: seen.rolls,
            turns: seen.turns,
        }
    }
}

/// The counts of the games played and their summaries: the games finished and capped, the
/// turns and rolls (summarised, and the turns by count), the totals and their means per game,
/// the shortest and longest game seen, the trapping squares and the final scores.
impl Serialize for Simulation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Body<'a> {
            capped: u64,
            finished: u64,
            games: u64,
            longest: Option<SeenJson<'a>>,
            max_turns: u64,
            per_game: Counts<f64>,
            rolls: &'a Histogram,
            #[serde(skip_serializing_if = "Option::is_none")]
            score: Option<&'a Scores>,
            seed: u64,
            shortest: Option<SeenJson<'a>>,
            totals: Counts<u64>,
            trapping_squares: &'a [Square],
            turn_counts: &'a [u64],
            turns: &'a Histogram,
            turns_standard_error: Option<f64>,
        }
        let all = self.games + self.capped;
        Body {
            capped: self.capped,
            finished: self.games,
            games: all,
            longest: self.longest.as_ref().map(|s| SeenJson::new(s, false)),
            max_turns: self.max_turns,
            per_game: Counts {
                climbed: per_game(self.climbed, all),
                ladders: per_game(self.ladders, all),
                rolls: per_game(self.total_rolls, all),
                slid: per_game(self.slid, all),
                snakes: per_game(self.snakes, all),
            },
            rolls: &self.rolls,
            score: self.score.as_ref(),
            seed: self.seed,
            shortest: self.shortest.as_ref().map(|s| SeenJson::new(s, true)),
            totals: Counts {
                climbed: self.climbed,
                ladders: self.ladders,
                rolls: self.total_rolls,
                slid: self.slid,
                snakes: self.snakes,
            },
            trapping_squares: &self.trapping_squares,
            turn_counts: self.turns.counts(),
            turns: &self.turns,
            turns_standard_error: self.turns.sd().map(|sd| sd / (self.games as f64).sqrt()),
        }
        .serialize(serializer)
    }
}

/// The summary: least, mean, standard deviation, most, median, 90th and 99th percentiles.
impl Serialize for Histogram {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Summary {
            max: Option<u64>,
            mean: Option<f64>,
            median: Option<u64>,
            min: Option<u64>,
            p90: Option<u64>,
            p99: Option<u64>,
            sd: Option<f64>,
        }
        Summary {
            max: self.max(),
            mean: self.mean(),
            median: self.quantile(0.5),
            min: self.min(),
            p90: self.quantile(0.9),
            p99: self.quantile(0.99),
            sd: self.sd(),
        }
        .serialize(serializer)
    }
}

/// The mean, spread and range of the final scores, and the games by score.
impl Serialize for Scores {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Count {
            games: u64,
            score: i64,
        }
        #[derive(Serialize)]
        struct Summary {
            counts: Vec<Count>,
            max: Option<i64>,
            mean: Option<f64>,
            min: Option<i64>,
            sd: Option<f64>,
            standard_error: Option<f64>,
        }
        Summary {
            counts: self
                .counts
                .iter()
                .map(|(&score, &games)| Count { games, score })
                .collect(),
            max: self.range().map(|r| r.1),
            mean: self.mean(),
            min: self.range().map(|r| r.0),
            sd: self.sd(),
            standard_error: self.sd().map(|sd| sd / (self.n() as f64).sqrt()),
        }
        .serialize(serializer)
    }
}

/// The tests of a sample against the exact law (the `check` key of `check --json` and
/// `verify --json`): the exact mean and spread, the z tests of the mean, the rolls and the
/// score (and of the variance with `verify --sd`), the chi-square test of the law of turns,
/// the thresholds and the verdict.
#[derive(Clone, Copy, Debug)]
pub struct CheckJson<'a> {
    /// The exact law.
    pub law: &'a ExactLaw,
    /// The sample's tests against it.
    pub comparison: &'a Comparison,
}

impl Serialize for CheckJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Body<'a> {
            chi_square: Option<ChiJson<'a>>,
            #[serde(serialize_with = "crate::num::json::exact")]
            exact_mean: &'a BigRational,
            exact_score: Option<ExactScore<'a>>,
            exact_sd: f64,
            mean: &'a ZTest,
            rolls: Option<&'a ZTest>,
            rolls_without_spread: Option<f64>,
            score: Option<&'a ZTest>,
            thresholds: Thresholds,
            #[serde(skip_serializing_if = "Option::is_none")]
            variance: Option<&'a ZTest>,
            verdict: &'static str,
        }
        #[derive(Serialize)]
        struct ExactScore<'a> {
            #[serde(serialize_with = "crate::num::json::exact")]
            expected: &'a BigRational,
            sd: f64,
        }
        #[derive(Serialize)]
        struct Thresholds {
            p: f64,
            z: f64,
        }
        let (law, c) = (self.law, self.comparison);
        Body {
            chi_square: c.chi_square.as_ref().map(ChiJson),
            exact_mean: &law.expectations.turns,
            exact_score: law.score.as_ref().map(|s| ExactScore {
                expected: &s.exact.expected,
                sd: s.sd,
            }),
            exact_sd: law.sd,
            mean: &c.mean,
            rolls: c.rolls.as_ref(),
            rolls_without_spread: c.rolls_without_spread,
            score: c.score.as_ref(),
            thresholds: Thresholds {
                p: P_LIMIT,
                z: Z_LIMIT,
            },
            variance: c.variance.as_ref(),
            verdict: match (c.too_few, c.pass) {
                (true, _) => "TOO_FEW_GAMES",
                (false, true) => "PASS",
                (false, false) => "FAIL",
            },
        }
        .serialize(serializer)
    }
}

/// The chi-square test: its statistic, bins, degrees of freedom, p-value, the games at turn
/// counts the law says are impossible, and whether it passed.
struct ChiJson<'a>(&'a ChiSquare);

impl Serialize for ChiJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Impossible {
            games: u64,
            turns: u64,
        }
        #[derive(Serialize)]
        struct Body {
            bins: usize,
            df: usize,
            impossible: Vec<Impossible>,
            p_value: f64,
            pass: bool,
            statistic: f64,
        }
        let c = self.0;
        Body {
            bins: c.bins,
            df: c.df,
            impossible: c
                .impossible
                .iter()
                .map(|&(turns, games)| Impossible { games, turns })
                .collect(),
            p_value: c.p_value,
            pass: c.pass,
            statistic: c.statistic,
        }
        .serialize(serializer)
    }
}

/// How long a simulation took: wall-clock seconds and the threads used.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Wall-clock seconds of the simulation.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
}

/// `simulate --json` and `check --json` (with `check`): the simulation's counts, how long it
/// took (with the games and rolls a second), and its check against the exact law.
#[derive(Clone, Copy, Debug)]
pub struct SimulationJson<'a> {
    /// The games played.
    pub simulation: &'a Simulation,
    /// How long they took, when told.
    pub timing: Option<Timing>,
    /// The games' check against the exact law (`check`).
    pub check: Option<CheckJson<'a>>,
}

impl Serialize for SimulationJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Body<'a> {
            #[serde(skip_serializing_if = "Option::is_none")]
            check: Option<CheckJson<'a>>,
            #[serde(flatten)]
            simulation: &'a Simulation,
            #[serde(skip_serializing_if = "Option::is_none")]
            timing: Option<TimingJson>,
        }
        let sim = self.simulation;
        let games = (sim.games + sim.capped) as f64;
        Body {
            check: self.check,
            simulation: sim,
            timing: self.timing.map(|t| TimingJson {
                games_per_second: games / t.seconds,
                rolls_per_second: sim.total_rolls as f64 / t.seconds,
                seconds: t.seconds,
                threads: t.threads,
            }),
        }
        .serialize(serializer)
    }
}

/// How long the games took, and the games and rolls a second.
#[derive(Serialize)]
pub(crate) struct TimingJson {
    pub(crate) games_per_second: f64,
    pub(crate) rolls_per_second: f64,
    pub(crate) seconds: f64,
    pub(crate) threads: usize,
}

/// `verify --json`: a sample someone simulated, checked against the exact law ([`CheckJson`]),
/// the mean and standard deviation as given, and the usual rule variants and other layouts
/// of the board it fits, with the hints in words (none with too few games).
#[derive(Clone, Copy, Debug)]
pub struct VerifyJson<'a> {
    /// The board the sample claims to be from.
    pub board: &'a Board,
    /// The games in the sample.
    pub games: u64,
    /// The sample's check against the exact law.
    pub check: CheckJson<'a>,
    /// The rule variants the sample fits.
    pub fits: &'a [VariantFit],
    /// The rule variants not tried, and why.
    pub not_tried: &'a [NotTried],
    /// The other layouts of the board the sample fits.
    pub layouts: &'a [LayoutFit],
    /// The mean as given (`--mean`).
    pub mean: Option<&'a MeanInterval>,
    /// The standard deviation as given (`--sd`).
    pub sd: Option<&'a MeanInterval>,
}

impl Serialize for VerifyJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Body<'a> {
            check: CheckJson<'a>,
            games: u64,
            mean_given: Option<MeanGiven<'a>>,
            sd_given: Option<f64>,
            variants: Variants<'a>,
        }
        #[derive(Serialize)]
        struct MeanGiven<'a> {
            high: f64,
            low: f64,
            text: &'a str,
        }
        #[derive(Serialize)]
        struct Variants<'a> {
            fits: Vec<Fit<'a>>,
            hints: Vec<String>,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            layouts: Vec<Layout<'a>>,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            not_tried: Vec<Untried<'a>>,
        }
        #[derive(Serialize)]
        struct Fit<'a> {
            changes: &'a [String],
            chi_square_p: Option<f64>,
            mean_z: f64,
            rules: RulesJson<'a>,
            same_law_as_board: bool,
        }
        #[derive(Serialize)]
        struct Layout<'a> {
            board: &'a str,
            mean_z: f64,
        }
        #[derive(Serialize)]
        struct Untried<'a> {
            changes: &'a [String],
            reason: &'a str,
            rules: RulesJson<'a>,
        }
        let c = self.check.comparison;
        let variants = match c.too_few {
            true => Variants {
                fits: Vec::new(),
                hints: Vec::new(),
                layouts: Vec::new(),
                not_tried: Vec::new(),
            },
            false => Variants {
                fits: self
                    .fits
                    .iter()
                    .map(|f| Fit {
                        changes: &f.changes,
                        chi_square_p: f.comparison.chi_square.as_ref().map(|c| c.p_value),
                        mean_z: f.comparison.mean.z,
                        rules: RulesJson::new(&f.rules),
                        same_law_as_board: f.same_law_as_board,
                    })
                    .collect(),
                hints: variant_sentences(self.board, c.pass, self.fits, self.not_tried)
                    .into_iter()
                    .chain(layout_sentences(c, self.layouts))
                    .collect(),
                layouts: named_layouts(c, self.layouts)
                    .into_iter()
                    .map(|l| Layout {
                        board: l.layout.name,
                        mean_z: l.comparison.mean.z,
                    })
                    .collect(),
                not_tried: self
                    .not_tried
                    .iter()
                    .map(|n| Untried {
                        changes: &n.changes,
                        reason: &n.reason,
                        rules: RulesJson::new(&n.rules),
                    })
                    .collect(),
            },
        };
        Body {
            check: self.check,
            games: self.games,
            mean_given: self.mean.map(|m| MeanGiven {
                high: m.high,
                low: m.low,
                text: &m.text,
            }),
            sd_given: self.sd.and_then(|sd| sd.text.parse::<f64>().ok()),
            variants,
        }
        .serialize(serializer)
    }
}

/// Why a shared board's race is simulated.
pub const SIMULATED_BECAUSE: &str = "the seats interact through the board's state; `ladders \
     race` answers the shared race exactly and `ladders check --players K` compares the two";

/// `simulate --players K --json` and `check --players K --json` (with `check`): each seat's
/// wins and share, the game's length in rounds, the seats' scores on a board with point
/// squares, how long it took, and the check against the exact race.
#[derive(Clone, Copy, Debug)]
pub struct RaceSimulationJson<'a> {
    /// The seats' boards, in playing order.
    pub boards: &'a [&'a Board],
    /// The games played.
    pub simulation: &'a RaceSimulation,
    /// How long they took, when told.
    pub timing: Option<Timing>,
    /// The exact race and the seat-by-seat comparison with it (`check`).
    pub check: Option<(&'a RaceExact, &'a RaceComparison)>,
}

/// The standard error of a share `p` of `n` games: `sqrt(p (1 - p) / n)`.
pub(crate) fn share_se(p: f64, n: u64) -> f64 {
    (p * (1.0 - p) / n.max(1) as f64).sqrt()
}

/// The keys of [`RaceSimulationJson`].
#[derive(Serialize)]
struct RaceSimulationBody<'a> {
    capped: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<RaceCheckJson<'a>>,
    finished: u64,
    games: u64,
    knock_off: bool,
    max_rounds: u64,
    players: usize,
    round_counts: &'a [u64],
    rounds: Rounds<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scores: Option<Vec<SeatScore>>,
    seats: Vec<SeatWins<'a>>,
    seed: u64,
    shared_state: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    simulated_because: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timing: Option<RaceTiming>,
    totals: Totals,
}
/// The game's length in rounds, summarised, with the mean's standard error.
#[derive(Serialize)]
struct Rounds<'a> {
    #[serde(flatten)]
    summary: &'a Histogram,
    standard_error: Option<f64>,
}

/// A seat's final scores, summarised.
#[derive(Serialize)]
struct SeatScore {
    max: Option<i64>,
    mean: Option<f64>,
    min: Option<i64>,
    sd: Option<f64>,
    seat: usize,
    standard_error: Option<f64>,
}
/// A seat's board, rules, wins and share of the games.
#[derive(Serialize)]
struct SeatWins<'a> {
    board: &'a str,
    origin: &'a str,
    rules: RulesJson<'a>,
    seat: usize,
    share: f64,
    standard_error: f64,
    wins: u64,
}
/// How long a race's games took, and the games a second.
#[derive(Serialize)]
struct RaceTiming {
    games_per_second: f64,
    seconds: f64,
    threads: usize,
}
/// The rolls and knock-offs over all games.
#[derive(Serialize)]
struct Totals {
    knock_offs: u64,
    rolls: u64,
}

impl Serialize for RaceSimulationJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (sim, r) = (self.simulation, &self.simulation.rounds);
        let n = sim.games();
        let shared = self
            .boards
            .first()
            .is_some_and(|b| !Capabilities::of(b).stateless);
        let body = RaceSimulationBody {
            capped: sim.capped,
            check: self
                .check
                .map(|(exact, comparison)| RaceCheckJson { exact, comparison }),
            finished: r.n(),
            games: n,
            knock_off: sim.knock_off,
            max_rounds: sim.max_rounds,
            players: self.boards.len(),
            round_counts: r.counts(),
            rounds: Rounds {
                summary: r,
                standard_error: r.sd().map(|sd| sd / (r.n() as f64).sqrt()),
            },
            scores: sim.scores.as_ref().map(|scores| {
                scores
                    .iter()
                    .enumerate()
                    .map(|(s, sc)| SeatScore {
                        max: sc.range().map(|r| r.1),
                        mean: sc.mean(),
                        min: sc.range().map(|r| r.0),
                        sd: sc.sd(),
                        seat: s + 1,
                        standard_error: sc.sd().map(|sd| sd / (sc.n() as f64).sqrt()),
                    })
                    .collect()
            }),
            seats: self
                .boards
                .iter()
                .zip(&sim.wins)
                .enumerate()
                .map(|(s, (b, &wins))| {
                    let p = per_game(wins, n);
                    SeatWins {
                        board: b.name(),
                        origin: b.origin(),
                        rules: RulesJson::of(b),
                        seat: s + 1,
                        share: p,
                        standard_error: share_se(p, n),
                        wins,
                    }
                })
                .collect(),
            seed: sim.seed,
            shared_state: shared,
            simulated_because: shared.then_some(SIMULATED_BECAUSE),
            timing: self.timing.map(|t| RaceTiming {
                games_per_second: n as f64 / t.seconds,
                seconds: t.seconds,
                threads: t.threads,
            }),
            totals: Totals {
                knock_offs: sim.knock_offs,
                rolls: sim.rolls,
            },
        };
        with_digits(DECIMAL_DIGITS, || body.serialize(serializer))
    }
}

/// The seat-by-seat comparison of a race's games with the exact race: each seat's exact chance
/// and the z test of its share, the exact expected rounds and the tests of the rounds, the
/// thresholds and the verdict.
struct RaceCheckJson<'a> {
    exact: &'a RaceExact,
    comparison: &'a RaceComparison,
}

impl Serialize for RaceCheckJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Body<'a> {
            chi_square: Option<Chi>,
            equal_rounds: Option<Equal<'a>>,
            exact_rounds: CertifiedJson,
            rounds: Option<&'a ZTest>,
            seats: Vec<Seat<'a>>,
            tests: usize,
            thresholds: Thresholds,
            verdict: &'static str,
        }
        #[derive(Serialize)]
        struct Chi {
            df: usize,
            impossible: bool,
            p_value: f64,
            pass: bool,
            statistic: f64,
        }
        #[derive(Serialize)]
        struct Equal<'a> {
            games: u64,
            level: f64,
            log10_chance: Option<f64>,
            #[serde(serialize_with = "crate::num::json::exact")]
            p_rounds: &'a BigRational,
            pass: bool,
            rounds: u64,
        }
        #[derive(Serialize)]
        struct Seat<'a> {
            exact_win: CertifiedJson,
            seat: usize,
            share: &'a ZTest,
        }
        #[derive(Serialize)]
        struct Thresholds {
            p: f64,
            z: f64,
        }
        let (race, c) = (&self.exact.race, self.comparison);
        let d = race.digits;
        Body {
            chi_square: c.chi_square.as_ref().map(|chi| Chi {
                df: chi.df,
                impossible: chi.impossible,
                p_value: chi.p_value,
                pass: chi.pass,
                statistic: chi.statistic,
            }),
            equal_rounds: c.equal_rounds.as_ref().map(|e| Equal {
                games: e.games,
                level: e.level,
                log10_chance: e.log10_chance.is_finite().then_some(e.log10_chance),
                p_rounds: &e.p_value_rounds,
                pass: e.pass,
                rounds: e.value,
            }),
            exact_rounds: CertifiedJson::new(&race.expected_rounds, d),
            rounds: c.rounds.as_ref(),
            seats: c
                .seats
                .iter()
                .zip(&race.seats)
                .map(|(z, s)| Seat {
                    exact_win: CertifiedJson::new(&s.win, d),
                    seat: s.seat,
                    share: z,
                })
                .collect(),
            tests: c.tests,
            thresholds: Thresholds {
                p: c.p_limit,
                z: c.z_limit,
            },
            verdict: if c.pass { "PASS" } else { "FAIL" },
        }
        .serialize(serializer)
    }
}
