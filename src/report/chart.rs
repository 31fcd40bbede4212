//! `ladders distribution --svg FILE`: the exact distribution of the number of turns as an SVG
//! chart (plotters' SVG backend): P(T = n) as bars on the left axis, P(T <= n) as a line on the
//! right axis, and the quantiles (median, 90%, 99%) as dashed vertical lines, up to the first n
//! with P(T > n) below 1/10,000.

use plotters::prelude::*;

use crate::analysis::distribution::Distribution;
use crate::board::Board;
use crate::exact::decimal::to_f64;
use crate::report::text::{board_line, rules_line};

/// The chart's size in pixels.
const SIZE: (u32, u32) = (900, 520);

/// The quantile levels marked on the chart, with their labels.
const MARKED: [(f64, &str); 3] = [(0.5, "median"), (0.9, "90%"), (0.99, "99%")];

/// The distribution chart as an SVG document.
///
/// # Errors
///
/// Plotters could not draw (a message naming what failed).
pub fn distribution_svg<S>(board: &Board, dist: &Distribution<S>) -> Result<String, String> {
    let mut svg = String::new();
    draw(&mut svg, board, dist).map_err(|e| format!("drawing the chart failed: {e}"))?;
    Ok(svg)
}

/// Draws the chart into `svg`.
fn draw<S>(
    svg: &mut String,
    board: &Board,
    dist: &Distribution<S>,
) -> Result<(), Box<dyn std::error::Error>> {
    // The x axis ends where P(T > n) falls below 1/10,000 (the rest is too small to see).
    let shown = dist
        .terms
        .iter()
        .position(|t| to_f64(&t.survives) < 1e-4)
        .map_or(dist.terms.len(), |i| i + 1);
    let bars: Vec<(f64, f64)> = dist.terms[..shown]
        .iter()
        .map(|t| (t.n as f64, to_f64(&t.p)))
        .collect();
    let cdf: Vec<(f64, f64)> = dist.terms[..shown]
        .iter()
        .map(|t| (t.n as f64, to_f64(&t.cdf())))
        .collect();
    let last = bars.last().map_or(1.0, |b| b.0) + 1.0;
    let top = bars.iter().map(|b| b.1).fold(0.0_f64, f64::max).max(1e-12) * 1.1;
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let (head, body) = root.split_vertically(48);
    head.draw(&Text::new(
        board_line(board),
        (10, 8),
        ("sans-serif", 16).into_font(),
    ))?;
    head.draw(&Text::new(
        rules_line(board),
        (10, 30),
        ("sans-serif", 11).into_font(),
    ))?;
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .right_y_label_area_size(52)
        .build_cartesian_2d(0.0..last, 0.0..top)?
        .set_secondary_coord(0.0..last, 0.0..1.0);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("turns n")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc("P(T = n)")
        .y_label_formatter(&|y| format!("{y:.3}"))
        .draw()?;
    chart
        .configure_secondary_axes()
        .y_desc("P(T <= n)")
        .draw()?;
    let bar = RGBColor(70, 110, 180);
    chart
        .draw_series(bars.iter().map(|&(n, p)| {
            Rectangle::new([(n - 0.4, 0.0), (n + 0.4, p)], bar.mix(0.75).filled())
        }))?;
    chart.draw_secondary_series(LineSeries::new(cdf, RED.stroke_width(2)))?;
    for (level, label) in MARKED {
        let at = dist
            .quantiles
            .iter()
            .find(|q| (to_f64(&q.level) - level).abs() < 1e-9)
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
    root.present()?;
    Ok(())
}
