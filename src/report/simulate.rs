//! The `simulate` and `check` reports, as text or JSON, and the sample-against-law pieces that
//! `verify`'s report ([`super::verify`]) shares (documented in
//! `docs/json-output.md` and `docs/simulation-and-checks.md`).

use std::io::{self, Write};

use serde_json::{json, Value};

use crate::board::Board;
use crate::num::decimal::{fixed, to_f64};
use crate::report::json::{board_rules_json, rules_json, z_json, BoardJson};
use crate::report::text::{board_line, ok, p_text, rules_line};
use crate::simulate::check::{
    ChiSquare, Comparison, ExactLaw, NotTried, VariantFit, ZTest, MIN_GAMES, P_LIMIT, Z_LIMIT,
};
use crate::simulate::stateful::Scores;
use crate::simulate::{Histogram, Simulation};
use crate::text::{count, thousands};

/// How long a simulation took, for the throughput line.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Wall-clock seconds of the simulation.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
}

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

fn per_game(total: u64, games: u64) -> f64 {
    total as f64 / games.max(1) as f64
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

/// The final scores as JSON: mean, sd, range and the games by score.
fn score_json(score: &Scores) -> Value {
    json!({
        "mean": score.mean(),
        "sd": score.sd(),
        "standard_error": score.sd().map(|sd| sd / (score.n() as f64).sqrt()),
        "min": score.range().map(|r| r.0),
        "max": score.range().map(|r| r.1),
        "counts": score.counts.iter().map(|(s, n)| json!({"score": s, "games": n})).collect::<Vec<_>>(),
    })
}

fn histogram_json(h: &Histogram) -> Value {
    json!({
        "min": h.min(),
        "mean": h.mean(),
        "sd": h.sd(),
        "max": h.max(),
        "median": h.quantile(0.5),
        "p90": h.quantile(0.9),
        "p99": h.quantile(0.99),
    })
}

/// The `simulate` JSON report.
pub fn simulation_json(board: &Board, sim: &Simulation, timing: Option<Timing>) -> Value {
    let all = sim.games + sim.capped;
    let mut v = json!({
        "board": BoardJson::new(board),
        "rules": board_rules_json(board),
        "seed": sim.seed,
        "max_turns": sim.max_turns,
        "games": all,
        "finished": sim.games,
        "capped": sim.capped,
        "trapping_squares": sim.trapping_squares,
        "turns": histogram_json(&sim.turns),
        "turns_standard_error": sim.turns.sd().map(|sd| sd / (sim.games as f64).sqrt()),
        "rolls": histogram_json(&sim.rolls),
        "totals": {
            "rolls": sim.total_rolls,
            "snakes": sim.snakes,
            "ladders": sim.ladders,
            "climbed": sim.climbed,
            "slid": sim.slid,
        },
        "per_game": {
            "rolls": per_game(sim.total_rolls, all),
            "snakes": per_game(sim.snakes, all),
            "ladders": per_game(sim.ladders, all),
            "climbed": per_game(sim.climbed, all),
            "slid": per_game(sim.slid, all),
        },
        "shortest": sim.shortest.as_ref().map(|s| json!({
            "turns": s.turns, "rolls": s.rolls, "faces": s.faces,
        })),
        "longest": sim.longest.as_ref().map(|s| json!({"turns": s.turns, "rolls": s.rolls})),
        "turn_counts": sim.turns.counts(),
    });
    if let Some(score) = &sim.score {
        v["score"] = score_json(score);
    }
    if let Some(t) = timing {
        v["timing"] = json!({
            "seconds": t.seconds,
            "threads": t.threads,
            "games_per_second": all as f64 / t.seconds,
            "rolls_per_second": sim.total_rolls as f64 / t.seconds,
        });
    }
    v
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

/// The comparison as JSON.
pub fn comparison_json(law: &ExactLaw, c: &Comparison) -> Value {
    json!({
        "exact_mean": crate::report::json::ExactJson::new(&law.expectations.turns, 12),
        "exact_sd": law.sd,
        "mean": z_json(&c.mean),
        "chi_square": c.chi_square.as_ref().map(|chi| json!({
            "statistic": chi.statistic,
            "bins": chi.bins,
            "df": chi.df,
            "p_value": chi.p_value,
            "impossible": chi.impossible.iter().map(|(t, n)| json!({"turns": t, "games": n})).collect::<Vec<_>>(),
            "pass": chi.pass,
        })),
        "rolls": c.rolls.as_ref().map(z_json),
        "rolls_without_spread": c.rolls_without_spread,
        "score": c.score.as_ref().map(z_json),
        "exact_score": law.score.as_ref().map(|s| json!({
            "expected": crate::report::json::ExactJson::new(&s.exact.expected, 12),
            "sd": s.sd,
        })),
        "thresholds": {"z": Z_LIMIT, "p": P_LIMIT},
        "verdict": verdict(c),
    })
}

/// `"PASS"`, `"FAIL"`, or `"TOO_FEW_GAMES"` below [`MIN_GAMES`].
fn verdict(c: &Comparison) -> &'static str {
    match (c.too_few, c.pass) {
        (true, _) => "TOO_FEW_GAMES",
        (false, true) => "PASS",
        (false, false) => "FAIL",
    }
}

/// The `check` JSON report.
pub fn check_json(
    board: &Board,
    sim: &Simulation,
    law: &ExactLaw,
    c: &Comparison,
    timing: Option<Timing>,
) -> Value {
    let mut v = simulation_json(board, sim, timing);
    v["check"] = comparison_json(law, c);
    v
}

/// The sentences explaining how the sample fits the rule variants (`not_tried`: those whose
/// work was estimated too long).
pub fn variant_sentences(
    board: &Board,
    pass: bool,
    fits: &[VariantFit],
    not_tried: &[NotTried],
) -> Vec<String> {
    let own = board.rules();
    let own_words = |f: &VariantFit| -> String {
        let mut w = Vec::new();
        if f.rules.overshoot != own.overshoot {
            w.push(format!("overshoot = {}", own.overshoot));
        }
        if f.rules.start != own.start {
            w.push(format!("start = {}", own.start));
        }
        if f.rules.roll_again != own.roll_again {
            w.push(format!("roll again = {}", own.roll_again));
        }
        w.join(", ")
    };
    let mut out = Vec::new();
    let twins: Vec<&VariantFit> = fits.iter().filter(|f| f.same_law_as_board).collect();
    if !twins.is_empty() {
        let names: Vec<String> = twins.iter().map(|f| f.changes.join(", ")).collect();
        out.push(format!(
            "on this board, {} give{} exactly the same law of turns as the board's rules: no sample can tell them apart",
            names.join("; "),
            if names.len() == 1 { "s" } else { "" }
        ));
    }
    let others: Vec<(usize, &VariantFit)> = fits
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.same_law_as_board)
        .collect();
    let undecided: Vec<String> = fits
        .iter()
        .filter(|f| f.same_law_undecided)
        .map(|f| f.changes.join(", "))
        .collect();
    if !undecided.is_empty() {
        out.push(format!(
            "whether {} give{} exactly the same law of turns as the board's rules or as each other was not decided: the exact comparison would take too long",
            undecided.join("; "),
            if undecided.len() == 1 { "s" } else { "" }
        ));
    }
    if !pass {
        if others.is_empty() && not_tried.is_empty() {
            out.push(
                "the sample fits none of the usual rule variants (overshoot stay/bounce/allow, start 0/1, roll again none/unlimited) either".to_string(),
            );
        } else if others.is_empty() {
            out.push(format!(
                "the sample fits none of the usual rule variants tried (overshoot stay/bounce/allow, start 0/1, roll again none/unlimited) either; {} not tried (below)",
                count(not_tried.len() as u64, "variant")
            ));
        }
        for class in same_law_classes(fits, &others) {
            // The fewest changes first: the simplest explanation leads.
            let lead = &fits[class[0]];
            let mut s = format!(
                "your sample matches {}, not {}",
                lead.changes.join(", "),
                own_words(lead)
            );
            if let Some(same) = same_law_parenthesis(fits, &class) {
                s.push_str(&same);
            }
            out.push(s);
        }
    } else if !others.is_empty() {
        let names: Vec<String> = others.iter().map(|(_, f)| f.changes.join(", ")).collect();
        out.push(format!(
            "the sample also fits {}: too few games to tell these rules apart",
            names.join("; ")
        ));
    }
    out
}

/// The parenthesis after a class's hint naming its other variants by what they add to its
/// lead ("with overshoot = stay"), or `None` for a class of one.
fn same_law_parenthesis(fits: &[VariantFit], class: &[usize]) -> Option<String> {
    let lead = &fits[class[0]];
    let with: Vec<String> = class[1..]
        .iter()
        .map(|&j| {
            let more: Vec<&String> = fits[j]
                .changes
                .iter()
                .filter(|c| !lead.changes.contains(c))
                .collect();
            let superset = lead.changes.iter().all(|c| fits[j].changes.contains(c));
            match superset {
                true => format!("with {}", join_words(&more)),
                false => format!("with {} instead", fits[j].changes.join(", ")),
            }
        })
        .collect();
    let last = with.len().checked_sub(1)?;
    let listed = match last {
        0 => with[0].clone(),
        _ => format!("{}; or {}", with[..last].join("; "), with[last]),
    };
    Some(format!(
        " (on this board the law is exactly the same {listed}: no sample can tell them apart)"
    ))
}

/// The fitting variants of `others` (indices into `fits`, none with the board's own law) in
/// classes of exactly the same law (linked by [`VariantFit::same_law_as`]), each class by its
/// variants' number of changes and the classes by their simplest's.
fn same_law_classes(fits: &[VariantFit], others: &[(usize, &VariantFit)]) -> Vec<Vec<usize>> {
    let mut placed = vec![false; fits.len()];
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for &(i, _) in others {
        if placed[i] {
            continue;
        }
        placed[i] = true;
        let mut class = vec![i];
        let mut k = 0;
        while k < class.len() {
            for &j in &fits[class[k]].same_law_as {
                if !placed[j] && !fits[j].same_law_as_board {
                    placed[j] = true;
                    class.push(j);
                }
            }
            k += 1;
        }
        class.sort_by_key(|&j| (fits[j].changes.len(), j));
        classes.push(class);
    }
    classes.sort_by_key(|c| (fits[c[0]].changes.len(), c[0]));
    classes
}

/// Rule words joined by commas.
fn join_words(words: &[&String]) -> String {
    words
        .iter()
        .map(|w| w.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The variant fits as JSON, with `not_tried` (the variants whose work was estimated too long,
/// and why) when there are any.
pub fn variants_json(
    board: &Board,
    pass: bool,
    fits: &[VariantFit],
    not_tried: &[NotTried],
) -> Value {
    let mut v = json!({
        "fits": fits.iter().map(|f| json!({
            "rules": rules_json(&f.rules),
            "changes": f.changes,
            "same_law_as_board": f.same_law_as_board,
            "mean_z": f.comparison.mean.z,
            "chi_square_p": f.comparison.chi_square.as_ref().map(|c| c.p_value),
        })).collect::<Vec<_>>(),
        "hints": variant_sentences(board, pass, fits, not_tried),
    });
    if !not_tried.is_empty() {
        v["not_tried"] = not_tried
            .iter()
            .map(|n| json!({"rules": rules_json(&n.rules), "changes": n.changes, "reason": n.reason}))
            .collect();
    }
    v
}
