//! `ladders draw`: snapshots of every built-in board (text, colour off), the heat map's colour
//! choice, and the 80-column promise for 100 squares.

use ladders::board::builtin_names;

use crate::common::ladders;

fn draw(args: &[&str]) -> String {
    let out = ladders()
        .arg("draw")
        .args(args)
        .env_remove("NO_COLOR")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn every_builtin_board_draws_as_its_snapshot() {
    for name in builtin_names() {
        insta::assert_snapshot!(format!("draw_{name}"), draw(&[name, "--color", "never"]));
    }
}

#[test]
fn the_visits_heat_map_draws_as_its_snapshot() {
    insta::assert_snapshot!(draw(&["milton-bradley", "--heat", "visits"]));
}

#[test]
fn a_hundred_squares_fit_eighty_columns_with_a_heat_map() {
    for name in ["milton-bradley", "efi"] {
        for heat in ["visits", "remaining"] {
            let text = draw(&[name, "--heat", heat, "--color", "never"]);
            for line in text.lines().skip(2) {
                assert!(line.chars().count() <= 80, "{name} {heat}: {line:?}");
            }
        }
    }
}

#[test]
fn colour_only_when_asked_or_on_a_terminal_without_no_color() {
    let escape = '\x1b';
    // The test's standard output is a pipe: auto means no colour.
    assert!(!draw(&["tiny", "--heat", "visits"]).contains(escape));
    assert!(draw(&["tiny", "--heat", "visits", "--color", "always"]).contains(escape));
    assert!(!draw(&["tiny", "--heat", "visits", "--color", "never"]).contains(escape));
    let with_no_color = ladders()
        .args(["draw", "tiny", "--heat", "visits", "--color", "auto"])
        .env("NO_COLOR", "1")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(!with_no_color.contains(&0x1b));
}

#[test]
fn the_squares_are_numbered_as_printed_boards_are() {
    // 100 squares in rows of 10: the bottom line starts with 1 and ends with 10, the one above
    // runs 20 down to 11, and the top line starts with 100 (square 100 above square 81).
    let text = draw(&["milton-bradley", "--color", "never"]);
    let grid: Vec<&str> = text.lines().skip(3).take(10).collect();
    let first = |line: &str| line.split_whitespace().next().unwrap().to_string();
    assert!(first(grid[9]).starts_with('1'));
    assert!(grid[9].contains("10"));
    assert!(first(grid[8]).starts_with("20"));
    assert!(first(grid[0]).starts_with("100"));
    assert!(first(grid[1]).starts_with("81"));
}

#[test]
fn a_ten_thousand_square_board_draws() {
    let dir = std::env::temp_dir().join(format!("ladders-draw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.toml");
    std::fs::write(
        &path,
        "size = 10000\nsnakes = [[9999, 1]]\nladders = [[2, 9998]]\n",
    )
    .unwrap();
    let text = draw(&[
        path.to_str().unwrap(),
        "--heat",
        "visits",
        "--color",
        "never",
    ]);
    // 100 rows of 100 squares, the snake's head and the ladder's top marked.
    assert!(text.contains("9999S1"));
    assert!(text.contains("9998l1"));
    assert_eq!(text.lines().filter(|l| l.starts_with("10000")).count(), 1);
    assert_eq!(text.lines().filter(|l| l.starts_with("    1")).count(), 1);
}

#[test]
fn float_visits_agree_with_the_exact_visits() {
    // The float path of large boards (draw --heat above 1,000 squares) against the exact
    // transposed solve: every square within 1e-12 relative (the picture shows 3 digits), on a
    // plain board, a roll-again board and a stateful board (summed over states per square).
    use ladders::analysis::visits::{visits, visits_float};
    use ladders::board::builtin;
    use ladders::exact::decimal::to_f64;
    for name in ["milton-bradley", "efi", "seed-003"] {
        let board = builtin(name).unwrap();
        let exact: Vec<(u32, f64)> = visits(&board)
            .unwrap()
            .squares
            .iter()
            .map(|(s, v)| (*s, to_f64(v)))
            .collect();
        let float = visits_float(&board).unwrap();
        assert_eq!(exact.len(), float.len(), "{name}");
        for ((s, e), (t, f)) in exact.iter().zip(&float) {
            assert_eq!(s, t, "{name}");
            assert!(
                (e - f).abs() <= 1e-12 * e.abs().max(1.0),
                "{name} square {s}: {e} {f}"
            );
        }
    }
}

#[test]
fn a_heat_map_above_a_thousand_squares_says_it_is_floats() {
    // 1,001 squares, d6, no jumps: every square but the last few is landed on with probability
    // about 2/7 (1 / the mean roll 3.5), and squares after 995 (where a 6 overshoots and stays)
    // hold the token longer; only the picture's labels are checked here.
    let dir = std::env::temp_dir().join(format!("ladders-draw-float-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("plain.toml");
    std::fs::write(&path, "size = 1001\n").unwrap();
    for heat in ["visits", "remaining"] {
        let text = draw(&[path.to_str().unwrap(), "--heat", heat, "--color", "never"]);
        assert!(text.contains("floats)"), "{heat}: {text}");
    }
    let small = draw(&["milton-bradley", "--heat", "visits", "--color", "never"]);
    assert!(!small.contains("floats"));
}
