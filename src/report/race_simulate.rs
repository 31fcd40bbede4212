//! The `simulate --players K` and `check --players K` reports: win shares per seat and the game's
//! length in rounds, and their seat-by-seat comparison with the exact race; as text (their JSON
//! is the serde form of `simulate::json::RaceSimulationJson`, documented in
//! `docs/json-output.md` and `docs/simulation-and-checks.md`).

use std::io::{self, Write};

use num_rational::BigRational;

use crate::board::Board;
use crate::game::Capabilities;
use crate::num::decimal::scientific;
use crate::report::race::{name_width, write_race_header};
use crate::report::simulate::{write_count_summary, Timing};
use crate::report::text::{ok, p_text, rules_line};
use crate::simulate::check::ZTest;
use crate::simulate::json::{per_game, share_se};
use crate::simulate::race::{RaceComparison, RaceExact, RaceSimulation};
use crate::simulate::stateful::Scores;
use crate::text::thousands;

/// What the seats share on a board that changes during a game.
pub const SHARED: &str =
    "one state for all seats: a ladder broken or an apple eaten by one seat is so for every seat";

pub use crate::simulate::json::SIMULATED_BECAUSE;

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
        let p = per_game(w, n);
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
        per_game(sim.rolls, n)
    )?;
    if sim.knock_off {
        writeln!(
            out,
            "Knock-offs       mean {:.4} per game",
            per_game(sim.knock_offs, n)
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
