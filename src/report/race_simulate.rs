//! The `simulate --players K` and `check --players K` reports: win shares per seat and the game's
//! length in rounds, and their seat-by-seat comparison with the exact race; as text or JSON
//! (documented in `docs/json-output.md` and `docs/simulation-and-checks.md`).

use std::io::{self, Write};

use num_rational::BigRational;
use serde_json::{json, Value};

use crate::board::Board;
use crate::game::Capabilities;
use crate::num::decimal::scientific;
use crate::report::json::{board_rules_json, z_json, ExactJson};
use crate::report::race::{name_width, write_race_header, IntervalJson};
use crate::report::simulate::{write_count_summary, Timing};
use crate::report::text::{ok, p_text, rules_line};
use crate::simulate::check::ZTest;
use crate::simulate::race::{RaceComparison, RaceExact, RaceSimulation};
use crate::simulate::stateful::Scores;
use crate::text::thousands;

fn share(wins: u64, games: u64) -> f64 {
    wins as f64 / games.max(1) as f64
}

/// The standard error of a share `p` of `n` games: `sqrt(p (1 - p) / n)`.
fn share_se(p: f64, n: u64) -> f64 {
    (p * (1.0 - p) / n.max(1) as f64).sqrt()
}

/// What the seats share on a board that changes during a game.
pub const SHARED: &str =
    "one state for all seats: a ladder broken or an apple eaten by one seat is so for every seat";

/// Why a shared board's race is simulated.
pub const SIMULATED_BECAUSE: &str = "the seats interact through the board's state; `ladders \
     race` answers the shared race exactly and `ladders check --players K` compares the two";

/// The seats play one board that changes during a game, so they share its state.
fn shared(boards: &[&Board]) -> bool {
    boards
        .first()
        .is_some_and(|b| !Capabilities::of(b).stateless)
}

/// Each seat's final score over the finished games: mean ± standard error, sd and range.
fn write_scores(out: &mut dyn Write, scores: &[Scores]) -> io::Result<()> {
    for (s, sc) in scores.iter().enumerate() {
        let (Some(mean), Some((lo, hi))) = (sc.mean(), sc.range()) else {
            writeln!(out, "Score seat {:<5} no game finished", s + 1)?;
            continue;
        };
        let sd = sc.sd().unwrap_or(0.0);
        writeln!(
            out,
            "Score seat {:<5} mean {mean:.4} ± {:.4}, sd {sd:.4}, range {lo} to {hi}",
            s + 1,
            sd / (sc.n() as f64).sqrt()
        )?;
    }
    Ok(())
}

/// Writes the `simulate --players K` text report.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_race_simulation(
    out: &mut dyn Write,
    boards: &[&Board],
    sim: &RaceSimulation,
    timing: Option<Timing>,
) -> io::Result<()> {
    let same_rules = write_race_header(out, boards, sim.knock_off)?;
    if shared(boards) {
        writeln!(out, "Shared board     {SHARED}")?;
        writeln!(out, "Simulated        {SIMULATED_BECAUSE}")?;
    }
    writeln!(out, "Seed             {}", sim.seed)?;
    writeln!(out)?;
    let n = sim.games();
    writeln!(
        out,
        "Games            {} ({} capped at {} rounds)",
        thousands(n),
        thousands(sim.capped),
        thousands(sim.max_rounds)
    )?;
    writeln!(out)?;
    let width = name_width(boards);
    let wins_width = thousands(n).len().max(4);
    writeln!(
        out,
        "seat  {:<width$}  {:>wins_width$}  share (standard error)",
        "board", "wins"
    )?;
    for (s, (board, &w)) in boards.iter().zip(&sim.wins).enumerate() {
        let p = share(w, n);
        writeln!(
            out,
            "{:>4}  {:<width$}  {:>wins_width$}  {p:.6} ± {:.6}",
            s + 1,
            board.name(),
            thousands(w),
            share_se(p, n)
        )?;
        if !same_rules {
            writeln!(out, "      {:<width$}  {}", "", rules_line(board))?;
        }
    }
    writeln!(out)?;
    let r = &sim.rounds;
    let finished = r.n();
    if finished == 0 {
        writeln!(out, "Rounds           no game finished")?;
    } else {
        write_count_summary(out, "Rounds", r, finished)?;
    }
    if let Some(scores) = &sim.scores {
        write_scores(out, scores)?;
    }
    writeln!(
        out,
        "Rolls            mean {:.4} per game (all seats)",
        share(sim.rolls, n)
    )?;
    if sim.knock_off {
        writeln!(
            out,
            "Knock-offs       mean {:.4} per game",
            share(sim.knock_offs, n)
        )?;
    }
    if let Some(t) = timing {
        writeln!(
            out,
            "Throughput       {:.0} games/s ({:.3} s on {} thread{})",
            n as f64 / t.seconds,
            t.seconds,
            t.threads,
            if t.threads == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}

/// The `simulate --players K` JSON report.
pub fn race_simulation_json(
    boards: &[&Board],
    sim: &RaceSimulation,
    timing: Option<Timing>,
) -> Value {
    let n = sim.games();
    let seats: Vec<Value> = boards
        .iter()
        .zip(&sim.wins)
        .enumerate()
        .map(|(s, (b, &w))| {
            let p = share(w, n);
            json!({
                "seat": s + 1,
                "board": b.name(),
                "origin": b.origin(),
                "rules": board_rules_json(b),
                "wins": w,
                "share": p,
                "standard_error": share_se(p, n),
            })
        })
        .collect();
    let r = &sim.rounds;
    let mut v = json!({
        "players": boards.len(),
        "knock_off": sim.knock_off,
        "seed": sim.seed,
        "max_rounds": sim.max_rounds,
        "games": n,
        "finished": r.n(),
        "capped": sim.capped,
        "seats": seats,
        "rounds": {
            "min": r.min(),
            "max": r.max(),
            "mean": r.mean(),
            "sd": r.sd(),
            "standard_error": r.sd().map(|sd| sd / (r.n() as f64).sqrt()),
            "median": r.quantile(0.5),
            "p90": r.quantile(0.9),
            "p99": r.quantile(0.99),
        },
        "round_counts": r.counts(),
        "totals": {"rolls": sim.rolls, "knock_offs": sim.knock_offs},
        "shared_state": shared(boards),
    });
    if shared(boards) {
        v["simulated_because"] = SIMULATED_BECAUSE.into();
    }
    if let Some(scores) = &sim.scores {
        let seats: Vec<Value> = scores
            .iter()
            .enumerate()
            .map(|(s, sc)| {
                json!({
                    "seat": s + 1,
                    "mean": sc.mean(),
                    "sd": sc.sd(),
                    "standard_error": sc.sd().map(|sd| sd / (sc.n() as f64).sqrt()),
                    "min": sc.range().map(|r| r.0),
                    "max": sc.range().map(|r| r.1),
                })
            })
            .collect();
        v["scores"] = seats.into();
    }
    if let Some(t) = timing {
        v["timing"] = json!({
            "seconds": t.seconds,
            "threads": t.threads,
            "games_per_second": n as f64 / t.seconds,
        });
    }
    v
}

fn z_cells(z: &ZTest) -> String {
    if let Some(words) = z.exact_verdict() {
        return format!("{words}  {}", ok(z.pass));
    }
    format!(
        "z = {:>6.2}, p = {:<7}  {}",
        z.z,
        p_text(z.p_value),
        ok(z.pass)
    )
}

/// An exact probability as its fraction when that is short, else to 12 significant digits
/// (the fraction is in the JSON).
fn exact_short(p: &BigRational) -> String {
    let fraction = format!("{}/{}", p.numer(), p.denom());
    match (p.is_integer(), fraction.len() <= 40) {
        (true, _) => format!("{} exactly", p.numer()),
        (false, true) => format!("{fraction} exactly"),
        (false, false) => format!("{} (exact fraction in --json)", scientific(p, 12)),
    }
}

/// Writes the comparison of a race simulation with the exact race, and the verdict.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_race_comparison(
    out: &mut dyn Write,
    exact: &RaceExact,
    c: &RaceComparison,
) -> io::Result<()> {
    writeln!(out, "seat  share     exact     standard error")?;
    for (s, z) in c.seats.iter().enumerate() {
        writeln!(
            out,
            "{:>4}  {:.6}  {:.6}  {:.6}        {}",
            s + 1,
            z.observed,
            exact.win[s],
            z.standard_error,
            z_cells(z)
        )?;
    }
    if let Some(mean) = c.rounds_without_spread {
        writeln!(
            out,
            "Mean rounds      {mean:.4} vs exact {:.4}: not tested (every race lasted {mean:.0} \
             round{}: no spread to estimate a standard error from)",
            exact.rounds,
            if mean == 1.0 { "" } else { "s" }
        )?;
    }
    if let Some(e) = &c.equal_rounds {
        writeln!(
            out,
            "Mean rounds      {v}.0000 vs exact {:.4}: all {} races lasted {v} round{}, chance \
             P(R = {v})^{} = {} with P(R = {v}) = {}  {}",
            exact.rounds,
            thousands(e.games),
            if e.value == 1 { "" } else { "s" },
            e.games,
            e.chance_text(),
            exact_short(&e.p_value_rounds),
            ok(e.pass),
            v = e.value,
        )?;
    }
    if let Some(z) = &c.rounds {
        writeln!(
            out,
            "Mean rounds      {:.4} vs exact {:.4} (standard error {:.4}): z = {:.2}, p = {}  {}",
            z.observed,
            z.expected,
            z.standard_error,
            z.z,
            p_text(z.p_value),
            ok(z.pass)
        )?;
    }
    if let Some(chi) = &c.chi_square {
        writeln!(
            out,
            "Seat wins        chi-square {:.2} ({} df), p = {}  {}",
            chi.statistic,
            chi.df,
            p_text(chi.p_value),
            ok(chi.pass)
        )?;
        if chi.impossible {
            writeln!(out, "                 a seat that cannot win won games")?;
        }
    }
    writeln!(
        out,
        "Thresholds       |z| <= {:.2}, p >= {:.1e} ({} tests, Bonferroni): a correct simulation fails less than once in a million runs",
        c.z_limit, c.p_limit, c.tests
    )?;
    writeln!(
        out,
        "Verdict          {}",
        if c.pass { "PASS" } else { "FAIL" }
    )
}

/// Writes the `check --players K` text report: the simulation, then its comparison.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_race_check(
    out: &mut dyn Write,
    boards: &[&Board],
    sim: &RaceSimulation,
    exact: &RaceExact,
    c: &RaceComparison,
    timing: Option<Timing>,
) -> io::Result<()> {
    write_race_simulation(out, boards, sim, timing)?;
    writeln!(out)?;
    write_race_comparison(out, exact, c)
}

/// The `check --players K` JSON report: the simulation's, with a `check` key.
pub fn race_check_json(
    boards: &[&Board],
    sim: &RaceSimulation,
    exact: &RaceExact,
    c: &RaceComparison,
    timing: Option<Timing>,
) -> Value {
    let mut v = race_simulation_json(boards, sim, timing);
    let d = exact.race.digits;
    let x = |i| serde_json::to_value(IntervalJson::new(i, d)).expect("serializes");
    let seats: Vec<Value> = c
        .seats
        .iter()
        .zip(&exact.race.seats)
        .map(|(z, s)| {
            json!({
                "seat": s.seat,
                "exact_win": x(&s.win),
                "share": z_json(z),
            })
        })
        .collect();
    v["check"] = json!({
        "seats": seats,
        "exact_rounds": x(&exact.race.expected_rounds),
        "rounds": c.rounds.as_ref().map(z_json),
        "equal_rounds": c.equal_rounds.as_ref().map(|e| json!({
            "rounds": e.value,
            "games": e.games,
            "p_rounds": ExactJson::new(&e.p_value_rounds, 12),
            "log10_chance": e.log10_chance.is_finite().then_some(e.log10_chance),
            "level": e.level,
            "pass": e.pass,
        })),
        "chi_square": c.chi_square.as_ref().map(|chi| json!({
            "statistic": chi.statistic,
            "df": chi.df,
            "p_value": chi.p_value,
            "impossible": chi.impossible,
            "pass": chi.pass,
        })),
        "tests": c.tests,
        "thresholds": {"z": c.z_limit, "p": c.p_limit},
        "verdict": if c.pass { "PASS" } else { "FAIL" },
    });
    v
}
