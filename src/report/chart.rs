//! Charts as SVG documents (plotters' SVG backend), every one with the board's name and rules on
//! top:
//!
//! - `ladders distribution --svg FILE`: the exact law of the number of turns, P(T = n) as bars on
//!   the left axis, P(T <= n) as a line on the right axis, and the quantiles (median, 90%, 99%)
//!   as dashed vertical lines, up to the first n with P(T > n) below 1/10,000;
//! - `ladders simulate --svg FILE`: the sample's share of games ending at each turn as bars, and
//!   the exact P(T = n) over them as a line with a dot per turn when the exact law was computed;
//! - `ladders race --svg FILE`: each seat's probability of having won by each round, one line per
//!   seat, from the seats' exact laws (independent seats: seat i wins in round n when it finishes
//!   on its n-th turn, the seats before it have not finished in n turns and those after it not
//!   in n - 1).

use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::analysis::distribution::Distribution;
use crate::board::Board;
use crate::num::decimal::to_f64;
use crate::report::text::{board_line, rules_line};
use crate::simulate::Simulation;
use crate::text::count;

/// The chart's size in pixels.
const SIZE: (u32, u32) = (900, 520);

/// The quantile levels marked on the chart, with their labels.
const MARKED: [(f64, &str); 3] = [(0.5, "median"), (0.9, "90%"), (0.99, "99%")];

/// The charts stop where what is left of the law falls below this (too small to see).
const SHOWN_TAIL: f64 = 1e-4;

/// The colours of the seats' lines, in seat order (repeated past the tenth seat).
const SEAT_COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The bars' colour.
const BAR: RGBColor = RGBColor(70, 110, 180);

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// Plotters could not draw a chart: what failed, in its words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("drawing the chart failed: {0}")]
pub struct ChartError(pub String);

/// The drawing area under a chart's title.
type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// A chart with f64 axes.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// An SVG document with `title` and `subtitle` on top and `body` drawn under them.
fn chart_svg(
    title: &str,
    subtitle: &str,
    body: impl FnOnce(&Area<'_>) -> DrawResult,
) -> Result<String, ChartError> {
    let mut svg = String::new();
    render(&mut svg, title, subtitle, body).map_err(|e| ChartError(e.to_string()))?;
    Ok(svg)
}

/// Draws [`chart_svg`]'s document into `svg`.
fn render(
    svg: &mut String,
    title: &str,
    subtitle: &str,
    body: impl FnOnce(&Area<'_>) -> DrawResult,
) -> DrawResult {
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let (head, rest) = root.split_vertically(48);
    head.draw(&Text::new(title, (10, 8), ("sans-serif", 16).into_font()))?;
    head.draw(&Text::new(
        subtitle,
        (10, 30),
        ("sans-serif", 11).into_font(),
    ))?;
    body(&rest)?;
    root.present()?;
    Ok(())
}

/// Axes over `x` and `y` on `area`, with room for a right-hand axis when `right`.
fn axes<'a, 'b>(
    area: &'a Area<'b>,
    x: Range<f64>,
    y: Range<f64>,
    right: bool,
) -> Result<Chart<'a, 'b>, Box<dyn std::error::Error>> {
    Ok(ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .right_y_label_area_size(if right { 52 } else { 0 })
        .build_cartesian_2d(x, y)?)
}

/// The grid and the left and bottom axes: turns or rounds on x (whole numbers), `y_desc` on y.
fn mesh(chart: &mut Chart<'_, '_>, x_desc: &str, y_desc: &str) -> DrawResult {
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(x_desc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc(y_desc)
        .y_label_formatter(&|y| format!("{y:.3}"))
        .draw()?;
    Ok(())
}

/// The series' legend, boxed, at `position`.
fn legend<'a, 'b: 'a>(chart: &mut Chart<'a, 'b>, position: SeriesLabelPosition) -> DrawResult {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK.mix(0.4))
        .position(position)
        .draw()?;
    Ok(())
}

/// The number of terms of `dist` shown: up to the first n with P(T > n) below [`SHOWN_TAIL`].
fn shown_terms<S>(dist: &Distribution<S>) -> usize {
    dist.terms
        .iter()
        .position(|t| to_f64(&t.survives) < SHOWN_TAIL)
        .map_or(dist.terms.len(), |i| i + 1)
}

/// The distribution chart as an SVG document.
///
/// # Errors
///
/// Plotters could not draw ([`ChartError`]).
pub fn distribution_svg<S>(board: &Board, dist: &Distribution<S>) -> Result<String, ChartError> {
    let shown = shown_terms(dist);
    let bars: Vec<(f64, f64)> = dist.terms[..shown]
        .iter()
        .map(|t| (t.n as f64, to_f64(&t.p)))
        .collect();
    let cdf: Vec<(f64, f64)> = dist.terms[..shown]
        .iter()
        .map(|t| (t.n as f64, to_f64(&t.cdf())))
        .collect();
    let last = bars.last().map_or(1.0, |b| b.0) + 1.0;
    let top = bars
        .iter()
        .map(|b| b.1)
        .fold(0.0_f64, f64::max)
        .max(crate::prec::AXIS_FLOOR)
        * 1.1;
    chart_svg(&board_line(board), &rules_line(board), |area| {
        let mut chart =
            axes(area, 0.0..last, 0.0..top, true)?.set_secondary_coord(0.0..last, 0.0..1.0);
        mesh(&mut chart, "turns n", "P(T = n)")?;
        chart
            .configure_secondary_axes()
            .y_desc("P(T <= n)")
            .draw()?;
        chart.draw_series(bars.iter().map(|&(n, p)| bar(n, p)))?;
        chart.draw_secondary_series(LineSeries::new(cdf, RED.stroke_width(2)))?;
        for (level, label) in MARKED {
            let at = dist
                .quantiles
                .iter()
                .find(|q| (to_f64(&q.level) - level).abs() < crate::prec::LEVEL_MATCH)
                .and_then(|q| q.turns);
            if let Some(n) = at {
                let x = n as f64;
                chart.draw_secondary_series(DashedLineSeries::new(
                    vec![(x, 0.0), (x, 1.0)],
                    4,
                    3,
                    BLACK.mix(0.6).stroke_width(1),
                ))?;
                chart.draw_secondary_series(std::iter::once(Text::new(
                    format!("{label} {n}"),
                    (x + 0.3, level.min(0.97) - 0.05),
                    ("sans-serif", 11).into_font(),
                )))?;
            }
        }
        Ok(())
    })
}

/// One bar of height `p` at `n`.
fn bar(n: f64, p: f64) -> Rectangle<(f64, f64)> {
    Rectangle::new([(n - 0.4, 0.0), (n + 0.4, p)], BAR.mix(0.75).filled())
}

/// The simulation chart as an SVG document: the share of the games (capped ones counted in the
/// whole) that ended at each turn, and over it `exact`'s P(T = n) when given; up to the first
/// turn where less than 1/10,000 of the exact law (else of the sample) is left.
///
/// # Errors
///
/// Plotters could not draw ([`ChartError`]).
pub fn simulation_svg<S>(
    board: &Board,
    sim: &Simulation,
    exact: Option<&Distribution<S>>,
) -> Result<String, ChartError> {
    let games = (sim.games + sim.capped).max(1) as f64;
    let counts = sim.turns.counts();
    let last = match exact {
        Some(d) => shown_terms(d),
        None => sample_shown(counts, games),
    };
    let bars: Vec<(f64, f64)> = (1..=last)
        .map(|n| (n as f64, counts.get(n).map_or(0.0, |&c| c as f64 / games)))
        .collect();
    let law: Vec<(f64, f64)> = exact.map_or_else(Vec::new, |d| {
        d.terms[..last.min(d.terms.len())]
            .iter()
            .map(|t| (t.n as f64, to_f64(&t.p)))
            .collect()
    });
    let top = bars
        .iter()
        .chain(&law)
        .map(|b| b.1)
        .fold(0.0_f64, f64::max)
        .max(crate::prec::AXIS_FLOOR)
        * 1.1;
    let subtitle = format!(
        "{}; {} played, seed {}{}",
        rules_line(board),
        count(sim.games + sim.capped, "game"),
        sim.seed,
        if exact.is_some() {
            ""
        } else {
            "; no exact law computed"
        }
    );
    chart_svg(&board_line(board), &subtitle, |area| {
        let x = 0.0..last as f64 + 1.0;
        let mut chart = axes(area, x, 0.0..top, false)?;
        mesh(&mut chart, "turns n", "share of games")?;
        chart
            .draw_series(bars.iter().map(|&(n, p)| bar(n, p)))?
            .label("sample: share of games ending at turn n")
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], BAR.filled()));
        if exact.is_some() {
            chart
                .draw_series(LineSeries::new(law.clone(), RED.stroke_width(2)))?
                .label("exact P(T = n)")
                .legend(|(x, y)| PathElement::new([(x, y), (x + 14, y)], RED.stroke_width(2)));
            chart.draw_series(law.iter().map(|&p| Circle::new(p, 2, RED.filled())))?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}

/// The turns shown of a sample alone: up to the first n with less than 1/10,000 of the games
/// left (at least 1).
fn sample_shown(counts: &[u64], games: f64) -> usize {
    let mut left = counts.iter().sum::<u64>() as f64;
    for (n, &c) in counts.iter().enumerate() {
        left -= c as f64;
        if n >= 1 && left / games < SHOWN_TAIL {
            return n;
        }
    }
    counts.len().max(2) - 1
}

/// Each seat's probability of winning in each round 1..=R, from the seats' laws of turns (in
/// seat order, independent seats): `wins[i][n - 1]` = P(T_i = n) times P(T_j > n) for the seats
/// j before i and P(T_j > n - 1) for those after. R is the fewest turns any law was computed
/// to, so P(the game lasts past R) is below every law's tail there.
pub fn wins_by_round<S>(laws: &[&Distribution<S>]) -> Vec<Vec<f64>> {
    let rounds = laws.iter().map(|d| d.terms.len()).min().unwrap_or(0);
    // survives[j][n] = P(T_j > n) for n = 0..=R.
    let survives: Vec<Vec<f64>> = laws
        .iter()
        .map(|d| {
            let start = if d.starts_finished { 0.0 } else { 1.0 };
            std::iter::once(start)
                .chain(d.terms[..rounds].iter().map(|t| to_f64(&t.survives)))
                .collect()
        })
        .collect();
    laws.iter()
        .enumerate()
        .map(|(i, d)| {
            (1..=rounds)
                .map(|n| {
                    let others: f64 = (0..laws.len())
                        .filter(|&j| j != i)
                        .map(|j| survives[j][if j < i { n } else { n - 1 }])
                        .product();
                    to_f64(&d.terms[n - 1].p) * others
                })
                .collect()
        })
        .collect()
}

/// The seats' boards for a race chart's subtitle: the one board and its rules when every seat
/// plays the same, else each distinct board's name, in seat order (the legend gives each seat's).
fn seats_line(seats: &[&Board]) -> String {
    let same =
        |a: &&Board, b: &&Board| board_line(a) == board_line(b) && rules_line(a) == rules_line(b);
    match seats.split_first() {
        Some((first, rest)) if rest.iter().all(|b| same(first, b)) => {
            format!("{} ({})", board_line(first), rules_line(first))
        }
        _ => {
            let mut names: Vec<&str> = Vec::new();
            for board in seats {
                if !names.contains(&board.name()) {
                    names.push(board.name());
                }
            }
            names.join(" against ")
        }
    }
}

/// The race chart as an SVG document: each seat's probability of having won by round n, one line
/// per seat, from the seats' laws (see `wins_by_round`); the legend gives each seat's board and
/// the total over the rounds shown.
///
/// # Errors
///
/// Plotters could not draw ([`ChartError`]).
pub fn race_svg<S>(seats: &[&Board], laws: &[&Distribution<S>]) -> Result<String, ChartError> {
    let wins = wins_by_round(laws);
    let cumulative: Vec<Vec<(f64, f64)>> = wins
        .iter()
        .map(|w| {
            w.iter()
                .scan(0.0, |sum, p| {
                    *sum += p;
                    Some(*sum)
                })
                .enumerate()
                .map(|(k, s)| ((k + 1) as f64, s))
                .collect()
        })
        .collect();
    let rounds = wins.first().map_or(0, Vec::len);
    let top = cumulative
        .iter()
        .filter_map(|c| c.last().map(|p| p.1))
        .fold(0.0_f64, f64::max)
        .max(crate::prec::AXIS_FLOOR)
        * 1.1;
    let title = format!("A race of {} players", seats.len());
    let subtitle = format!(
        "{}; each seat's chance of having won by round n",
        seats_line(seats)
    );
    chart_svg(&title, &subtitle, |area| {
        let x = 0.0..rounds as f64 + 1.0;
        let mut chart = axes(area, x, 0.0..top, false)?;
        mesh(&mut chart, "round n", "P(won by round n)")?;
        for (i, line) in cumulative.into_iter().enumerate() {
            let colour = SEAT_COLOURS[i % SEAT_COLOURS.len()];
            let total = line.last().map_or(0.0, |p| p.1);
            chart
                .draw_series(LineSeries::new(line, colour.stroke_width(2)))?
                .label(format!(
                    "seat {}: {} (wins {total:.4})",
                    i + 1,
                    seats[i].name()
                ))
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 14, y)], colour.stroke_width(2))
                });
        }
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 40 item 21: a race of different boards names every board, not only seat 1's.
    #[test]
    fn a_race_of_different_boards_names_each_board() {
        let efi = crate::board::builtin("efi").unwrap();
        let reversed = efi.reversed().unwrap();
        assert_eq!(seats_line(&[&efi, &reversed]), "Efi against Efi (reversed)");
        assert_eq!(
            seats_line(&[&efi, &efi]),
            format!("{} ({})", board_line(&efi), rules_line(&efi))
        );
    }
    use crate::analysis::distribution::board_distribution;
    use crate::board::builtin;
    use crate::race::{race, RaceOptions};

    #[test]
    fn two_seats_on_tiny_win_by_round_as_worked_by_hand() {
        // Tiny: P(T = n) = (n - 1) / 2^n (boards/tiny.toml), P(T > 1) = 1, P(T > 2) = 3/4.
        // Round 2: seat 1 wins with P(T = 2) = 1/4; seat 2 with P(T = 2) P(T_1 > 2) = 3/16.
        // Round 3: seat 1 with P(T = 3) P(T_2 > 2) = 1/4 * 3/4; seat 2 with
        // P(T = 3) P(T_1 > 3) = 1/4 * (3/4 - 1/4) = 1/8.
        let tiny = builtin("tiny").unwrap();
        let law = board_distribution(&tiny, &Default::default()).unwrap();
        let wins = wins_by_round(&[&law, &law]);
        assert_eq!(wins[0][..3], [0.0, 0.25, 0.1875]);
        assert_eq!(wins[1][..3], [0.0, 0.1875, 0.125]);
    }

    #[test]
    fn the_wins_by_round_add_up_to_the_race_odds() {
        // A second method: the race's certified win probabilities (the series over turns with a
        // tail bound) against the sum over rounds of wins_by_round, laws to P(T > n) < 1e-12.
        let mb = builtin("milton-bradley").unwrap();
        let efi = builtin("efi").unwrap();
        let laws = [&mb, &efi, &mb].map(|b| board_distribution(b, &Default::default()).unwrap());
        let wins = wins_by_round(&laws.iter().collect::<Vec<_>>());
        let exact = race(&[&mb, &efi, &mb], &RaceOptions::default()).unwrap();
        for (seat, w) in exact.seats.iter().zip(&wins) {
            let total: f64 = w.iter().sum();
            let mid = (to_f64(&seat.win.lo) + to_f64(&seat.win.hi)) / 2.0;
            assert!((total - mid).abs() < 1e-9, "{total} {mid}");
        }
    }
}
