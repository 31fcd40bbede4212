//! Every SVG the tests write parses and renders (resvg, to a pixmap), and holds the expected
//! elements: one cell per square, one path per snake and per ladder, the heat scale, the
//! chart's bars; one board's SVG is a snapshot.

use ladders::board::{builtin, builtin_names};

use crate::common::{ladders, stdout_of};

/// Runs `ladders ARGS` with `--svg -` and returns the SVG.
fn svg_of(args: &[&str]) -> String {
    let all: Vec<&str> = args.iter().copied().chain(["--svg", "-"]).collect();
    stdout_of(&all)
}

/// Parses and renders `svg`; returns the number of pixels that are not white.
fn render(svg: &str) -> usize {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("parses");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a size");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue()) != (255, 255, 255))
        .count()
}

fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

#[test]
fn every_builtin_board_draws_as_an_svg_with_a_cell_per_square_and_a_path_per_jump() {
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        let svg = svg_of(&["draw", name]);
        assert_eq!(
            count(&svg, r#"<rect class="cell""#),
            board.size() as usize,
            "{name}"
        );
        for s in 1..=board.size() {
            assert!(svg.contains(&format!(r#"data-square="{s}""#)), "{name} {s}");
        }
        assert_eq!(
            count(&svg, r#"<path class="snake""#),
            board.snakes().len(),
            "{name}"
        );
        assert_eq!(
            count(&svg, r#"<path class="ladder""#),
            board.ladders().len(),
            "{name}"
        );
        assert!(
            svg.contains(&format!(
                "<title>{}",
                board.name().replace('&', "&amp;").replace('>', "&gt;")
            )),
            "{name}"
        );
        assert!(render(&svg) > 0, "{name}");
    }
}

#[test]
fn a_heat_map_has_its_scale_and_coloured_cells() {
    let svg = svg_of(&["draw", "milton-bradley", "--heat", "visits"]);
    assert_eq!(count(&svg, r#"<rect class="scale""#), 10);
    // The ladder feet and snake heads are never stood on, nor is a turn begun on the finish:
    // those 20 are white, the rest coloured.
    assert_eq!(count(&svg, r##"class="cell" data-square"##), 100);
    let white = svg
        .lines()
        .filter(|l| l.contains(r#"class="cell""#) && l.contains(r##"fill="#ffffff""##))
        .count();
    assert_eq!(white, 20);
    assert!(render(&svg) > 0);
}

#[test]
fn ten_thousand_squares_draw_without_labels() {
    let dir = std::env::temp_dir().join(format!("ladders-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.toml");
    std::fs::write(
        &path,
        "size = 10000\nsnakes = [[9999, 1]]\nladders = [[2, 9998]]\n",
    )
    .unwrap();
    let file = dir.join("big.svg");
    ladders()
        .args([
            "draw",
            path.to_str().unwrap(),
            "--heat",
            "visits",
            "--svg",
            file.to_str().unwrap(),
        ])
        .assert()
        .success();
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(count(&svg, r#"<rect class="cell""#), 10_000);
    assert_eq!(count(&svg, r#"class="mark""#), 0);
    assert!(render(&svg) > 0);
}

#[test]
fn the_distribution_chart_renders_with_a_bar_per_turn() {
    // Tiny to 10 turns: P(T = n) > 0 for n = 2..10, bars for each computed n (n = 1 is 0).
    let svg = svg_of(&["distribution", "tiny", "--turns", "10"]);
    assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
    assert!(
        svg.contains("P(T = n)") && svg.contains("P(T &lt;= n)"),
        "axis labels"
    );
    assert!(svg.contains("median"), "the median marked");
    assert!(render(&svg) > 0);
    let svg = svg_of(&["distribution", "milton-bradley"]);
    assert!(render(&svg) > 0);
}

#[test]
fn the_tiny_board_svg_is_its_snapshot() {
    insta::assert_snapshot!(svg_of(&["draw", "tiny", "--heat", "visits"]));
}

#[test]
fn the_committed_pictures_are_what_the_documented_commands_write() {
    // docs/pictures.md lists the commands; each must reproduce its committed file exactly.
    let cases: [(&[&str], &str); 2] = [
        (
            &["draw", "milton-bradley", "--heat", "visits"],
            "docs/pictures/milton-bradley-visits.svg",
        ),
        (
            &["distribution", "milton-bradley"],
            "docs/pictures/milton-bradley-distribution.svg",
        ),
    ];
    let page = std::fs::read_to_string("docs/pictures.md").unwrap();
    for (args, file) in cases {
        let command = format!("ladders {} --svg {file}", args.join(" "));
        assert!(page.contains(&command), "docs/pictures.md shows {command}");
        let committed = std::fs::read_to_string(file).unwrap();
        assert_eq!(svg_of(args), committed, "{file}: rerun `{command}`");
        assert!(render(&committed) > 0, "{file}");
    }
}

#[test]
fn the_simulation_chart_has_a_bar_and_a_dot_per_turn_over_the_exact_law() {
    // Tiny: P(T > n) = (n + 1) / 2^n (boards/tiny.toml), first below 1/10,000 at n = 18
    // (19/262144; at 17 it is 18/131072 > 1e-4): 18 turns shown, one dot of the exact law each.
    let svg = svg_of(&["simulate", "tiny", "-n", "10k", "--seed", "3"]);
    assert!(svg.contains("exact P(T = n)"), "the exact law's legend");
    assert!(
        svg.contains("sample: share of games"),
        "the sample's legend"
    );
    assert!(svg.contains("10,000 games played, seed 3"), "the subtitle");
    assert_eq!(count(&svg, "<circle"), 18);
    assert!(render(&svg) > 0);
    // Milton Bradley: its exact law drawn over the sample too.
    let svg = svg_of(&["simulate", "milton-bradley", "-n", "2k", "--seed", "1"]);
    assert!(svg.contains("exact P(T = n)"));
    assert!(render(&svg) > 0);
}

#[test]
fn the_race_chart_has_a_line_per_seat_ending_at_its_odds() {
    // Two seats on tiny: seat 1 wins when T1 <= T2, so P = (1 + P(T1 = T2)) / 2 with
    // P(T1 = T2) = sum_{n>=2} ((n - 1) / 2^n)^2 = (1/4) sum_{m>=1} m^2 / 4^m
    // = (1/4) (1/4)(5/4) / (3/4)^3 = 5/27: seat 1 16/27 = 0.592593, seat 2 11/27 = 0.407407
    // (the chart stops where the game is left with about 5e-9, far below the 4 decimals).
    let svg = svg_of(&["race", "tiny"]);
    assert!(
        svg.contains("seat 1: Tiny (hand-solvable) (wins 0.5926)"),
        "{svg}"
    );
    assert!(svg.contains("seat 2: Tiny (hand-solvable) (wins 0.4074)"));
    // Each seat's colour strokes its line and its legend's sample, nothing else.
    let seats = [
        r##"stroke="#1F77B4""##,
        r##"stroke="#D62728""##,
        r##"stroke="#2CA02C""##,
    ];
    for colour in &seats[..2] {
        assert_eq!(count(&svg, colour), 2, "{colour}");
    }
    assert_eq!(count(&svg, seats[2]), 0);
    assert!(render(&svg) > 0);
    let svg = svg_of(&["race", "milton-bradley", "efi", "tiny"]);
    for colour in seats {
        assert_eq!(count(&svg, colour), 2, "{colour}");
    }
    assert!(render(&svg) > 0);
}

#[test]
fn charts_of_races_are_refused_where_no_law_by_round_is_computed() {
    for args in [
        &["race", "tiny", "--knock-off", "--svg", "-"][..],
        &["race", "tiny", "--players", "2..3", "--svg", "-"],
        &[
            "simulate",
            "tiny",
            "--players",
            "2",
            "-n",
            "10",
            "--svg",
            "-",
        ],
    ] {
        ladders().args(args).assert().code(2);
    }
}
