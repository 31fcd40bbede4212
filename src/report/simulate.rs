//! The `simulate` and `check` reports, as text or JSON, and the sample-against-law pieces that
//! `verify`'s report ([`super::verify`]) shares (documented in
//! `docs/json-output.md` and `docs/simulation-and-checks.md`).

use std::io::{self, Write};

use crate::board::Board;
use crate::num::decimal::{fixed, to_f64};
use crate::report::text::{board_line, ok, p_text, rules_line};
use crate::simulate::check::{ChiSquare, Comparison, ExactLaw, ZTest, MIN_GAMES, P_LIMIT, Z_LIMIT};
use crate::simulate::json::per_game;
use crate::simulate::stateful::Scores;
use crate::simulate::{Histogram, Simulation};
use crate::text::{count, thousands};

pub use crate::simulate::hints::variant_sentences;
pub use crate::simulate::json::Timing;

/// A rate with a metric prefix: `3.21 G`.
fn rate(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.2} k", x / 1e3)
    } else {
        format!("{x:.0} ")
    }
}

fn faces_text(faces: &[Vec<u32>]) -> String {
    let turns: Vec<String> = faces
        .iter()
        .map(|t| t.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    turns.join(" | ")
}

/// Writes the `simulate` text report.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_simulation(
    out: &mut dyn Write,
    board: &Board,
    sim: &Simulation,
    timing: Option<Timing>,
) -> io::Result<()> {
    writeln!(out, "Board            {}", board_line(board))?;
    writeln!(out, "Rules            {}", rules_line(board))?;
    writeln!(out, "Seed             {}", sim.seed)?;
    writeln!(out)?;
    write_body(out, sim)?;
    if let Some(t) = timing {
        let rolls = sim.total_rolls as f64;
        let games = (sim.games + sim.capped) as f64;
        writeln!(
            out,
            "Throughput       {}games/s, {}rolls/s ({:.3} s on {} thread{})",
            rate(games / t.seconds),
            rate(rolls / t.seconds),
            t.seconds,
            t.threads,
            if t.threads == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}

/// The two summary lines of a count observed `n` times (turns of a game, rounds of a race): min,
/// mean with its standard error, max; median, 90 %, 99 % and sd.
pub(crate) fn write_count_summary(
    out: &mut dyn Write,
    label: &str,
    h: &Histogram,
    n: u64,
) -> io::Result<()> {
    let se = h.sd().map_or(0.0, |sd| sd / (n as f64).sqrt());
    writeln!(
        out,
        "{label:<17}min {}, mean {:.4} ± {:.4} (standard error), max {}",
        h.min().unwrap_or(0),
        h.mean().unwrap_or(0.0),
        se,
        h.max().unwrap_or(0)
    )?;
    writeln!(
        out,
        "                 median {}, 90 %: {}, 99 %: {}, sd {:.4}",
        h.quantile(0.5).unwrap_or(0),
        h.quantile(0.9).unwrap_or(0),
        h.quantile(0.99).unwrap_or(0),
        h.sd().unwrap_or(0.0)
    )
}

fn write_body(out: &mut dyn Write, sim: &Simulation) -> io::Result<()> {
    let g = sim.games;
    writeln!(
        out,
        "Games            {} ({} capped at {} turns)",
        thousands(g + sim.capped),
        thousands(sim.capped),
        thousands(sim.max_turns)
    )?;
    if !sim.trapping_squares.is_empty() {
        let sq: Vec<String> = sim.trapping_squares.iter().map(|s| s.to_string()).collect();
        writeln!(
            out,
            "                 the finish cannot be reached from square{} {}: games that get there are capped",
            if sq.len() == 1 { "" } else { "s" },
            sq.join(", ")
        )?;
    }
    if g == 0 {
        writeln!(out, "Turns            no game finished")?;
        return Ok(());
    }
    write_count_summary(out, "Turns", &sim.turns, g)?;
    let all = g + sim.capped;
    if sim.capped > 0 {
        // The turns above are of the finished games; the figures below divide by every game.
        writeln!(
            out,
            "                 turns of the {} finished games only; the lines below are per game over all {}, capped games counted up to the cap",
            thousands(g),
            thousands(all)
        )?;
    }
    for (label, total) in [
        ("Rolls            mean", sim.total_rolls),
        ("Snakes taken    ", sim.snakes),
        ("Ladders taken   ", sim.ladders),
        ("Squares climbed ", sim.climbed),
        ("Squares slid    ", sim.slid),
    ] {
        writeln!(out, "{label} {:.4} per game", per_game(total, all))?;
    }
    if let Some(score) = &sim.score {
        write_score(out, score)?;
    }
    if let Some(s) = &sim.shortest {
        writeln!(
            out,
            "Shortest game    {}, {}: {}",
            count(s.turns, "turn"),
            count(s.rolls, "roll"),
            s.faces.as_deref().map(faces_text).unwrap_or_default()
        )?;
    }
    if let Some(l) = &sim.longest {
        writeln!(
            out,
            "Longest game     {}, {}",
            count(l.turns, "turn"),
            count(l.rolls, "roll")
        )?;
    }
    Ok(())
}

/// The final score line of a simulation on a board with point squares.
fn write_score(out: &mut dyn Write, score: &Scores) -> io::Result<()> {
    let (Some(mean), Some((min, max))) = (score.mean(), score.range()) else {
        return writeln!(out, "Score            no game finished");
    };
    let se = score.sd().map_or(0.0, |sd| sd / (score.n() as f64).sqrt());
    writeln!(
        out,
        "Score            mean {mean:.4} ± {se:.4} (standard error), min {min}, max {max}"
    )
}

/// The turns histogram as CSV: `turns,games` then one line per turn count seen.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_histogram_csv(out: &mut dyn Write, h: &Histogram) -> io::Result<()> {
    writeln!(out, "turns,games")?;
    for (t, &c) in h.counts().iter().enumerate() {
        if c > 0 {
            writeln!(out, "{t},{c}")?;
        }
    }
    Ok(())
}

fn z_line(out: &mut dyn Write, label: &str, z: &ZTest, digits: usize) -> io::Result<()> {
    if let Some(words) = z.exact_verdict() {
        return writeln!(
            out,
            "{label:<17}{:.d$} vs exact {:.d$}: {words}  {}",
            z.observed,
            z.expected,
            ok(z.pass),
            d = digits
        );
    }
    writeln!(
        out,
        "{label:<17}{:.d$} vs exact {:.d$} (standard error {:.d$}): z = {:.2}, p = {}  {}",
        z.observed,
        z.expected,
        z.standard_error,
        z.z,
        p_text(z.p_value),
        ok(z.pass),
        d = digits
    )
}

fn chi_line(out: &mut dyn Write, c: &ChiSquare) -> io::Result<()> {
    writeln!(
        out,
        "Turns law        chi-square {:.1} on {} ({} df), p = {}  {}",
        c.statistic,
        count(c.bins as u64, "bin"),
        c.df,
        p_text(c.p_value),
        ok(c.pass)
    )?;
    for (t, n) in &c.impossible {
        writeln!(
            out,
            "                 {} of {}: impossible under these rules",
            count(*n, "game"),
            count(*t, "turn")
        )?;
    }
    Ok(())
}

/// Writes the comparison lines and the verdict.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_comparison(out: &mut dyn Write, law: &ExactLaw, c: &Comparison) -> io::Result<()> {
    writeln!(
        out,
        "Exact            mean {} turns, sd {:.6}",
        fixed(&law.expectations.turns, 6),
        law.sd
    )?;
    if let Some(score) = &law.score {
        writeln!(
            out,
            "Exact score      mean {}, sd {:.6}",
            fixed(&score.exact.expected, 6),
            score.sd
        )?;
    }
    z_line(out, "Mean turns", &c.mean, 4)?;
    if let Some(v) = &c.variance {
        z_line(out, "Variance turns", v, 4)?;
    }
    if let Some(chi) = &c.chi_square {
        chi_line(out, chi)?;
    }
    if let Some(r) = &c.rolls {
        z_line(out, "Mean rolls", r, 4)?;
    }
    if let Some(rolls) = c.rolls_without_spread {
        writeln!(
            out,
            "Mean rolls       {rolls:.4} vs exact {}: not tested (every game took {rolls:.0} rolls: no spread to estimate a standard error from)",
            fixed(&law.expectations.rolls, 4)
        )?;
    }
    if let Some(score) = &c.score {
        z_line(out, "Mean score", score, 4)?;
    }
    writeln!(
        out,
        "Thresholds       |z| <= {Z_LIMIT}, p >= {P_LIMIT:.0e}: a correct sample fails less than once in a million runs"
    )?;
    if c.too_few {
        return writeln!(
            out,
            "Verdict          none: fewer than {MIN_GAMES} games are too few for these tests to have power"
        );
    }
    writeln!(
        out,
        "Verdict          {}",
        if c.pass { "PASS" } else { "FAIL" }
    )
}

/// Writes the `check` text report: the simulation, then its comparison.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_check(
    out: &mut dyn Write,
    board: &Board,
    sim: &Simulation,
    law: &ExactLaw,
    c: &Comparison,
    timing: Option<Timing>,
) -> io::Result<()> {
    write_simulation(out, board, sim, timing)?;
    writeln!(out)?;
    write_expectation_lines(out, sim, law)?;
    write_comparison(out, law, c)
}

fn write_expectation_lines(
    out: &mut dyn Write,
    sim: &Simulation,
    law: &ExactLaw,
) -> io::Result<()> {
    let all = sim.games + sim.capped;
    let e = &law.expectations;
    for (label, total, exact) in [
        ("Snakes taken", sim.snakes, &e.snakes),
        ("Ladders taken", sim.ladders, &e.ladders),
        ("Squares climbed", sim.climbed, &e.climbed),
        ("Squares slid", sim.slid, &e.slid),
    ] {
        writeln!(
            out,
            "{label:<17}{:.4} per game vs exact {:.4}",
            per_game(total, all),
            to_f64(exact)
        )?;
    }
    Ok(())
}
