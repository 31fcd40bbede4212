//! `ladders draw`: snapshots of every built-in board (text, colour off), the heat map's colour
//! choice, and the 80-column promise for 100 squares.

use std::collections::BTreeMap;

use ladders::board::builtin_names;

use serde_json::Value;

use crate::common::{ladders, stderr_of};

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
    // The grid follows the title (two lines when the board's line passes 80 columns), the
    // rules line and a blank line.
    let grid: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.is_empty())
        .skip(1)
        .take(10)
        .collect();
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
    use ladders::board::builtin;
    use ladders::internals::{visits, visits_float};
    use ladders::report::to_f64;
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

/// The shade character of every square in a plain-text heat map whose cells are `number_width`
/// digits, `mark_width` characters of marks and one shade character wide.
fn shades(text: &str, number_width: usize, mark_width: usize) -> BTreeMap<u32, char> {
    let cell = number_width + mark_width + 1;
    let grid = text.split("\n\n").nth(1).expect("a grid after the header");
    let mut found = BTreeMap::new();
    for line in grid.lines() {
        let chars: Vec<char> = line.chars().collect();
        for chunk in chars.chunks(cell + 1) {
            let number: String = chunk[..number_width].iter().collect();
            if let Ok(s) = number.trim().parse::<u32>() {
                found.insert(s, chunk.get(cell - 1).copied().unwrap_or(' '));
            }
        }
    }
    found
}

#[test]
fn the_law_after_one_turn_shades_the_six_squares_a_die_reaches() {
    // By hand: from off the board a d6 lands on 1..6 with 1/6 each; 1 climbs to 38 and 4 to 14,
    // so 2, 3, 5, 6, 14 and 38 hold 1/6 each (all the largest value, '@') and nothing else.
    let text = draw(&[
        "milton-bradley",
        "--heat",
        "after",
        "--after",
        "1",
        "--color",
        "never",
    ]);
    let shaded: Vec<u32> = shades(&text, 3, 3)
        .into_iter()
        .filter(|(_, c)| *c != ' ')
        .map(|(s, c)| {
            assert_eq!(c, '@', "square {s}");
            s
        })
        .collect();
    assert_eq!(shaded, [2, 3, 5, 6, 14, 38]);
    assert!(
        text.contains("probability of standing on the square after 1 turn"),
        "{text}"
    );
    assert!(text.contains("'@' <=0.167"), "{text}");
}

#[test]
fn the_likeliest_games_shade_their_squares_by_turn() {
    // By hand (tests/fixtures/likeliest/shortcut.toml, a 1:9 coin, ladder 1 -> 5): the only
    // 1-turn game climbs 1 -> 5 (1/10); the likeliest game is 0 -> 2 -> 4 -> 5 (81/100), its
    // turns 1, 2, 3 of 3 shaded at levels ceil(9/3) = 3 ('-'), 6 ('*') and 9 ('@'); within 2
    // turns no game but the 1-turn one ends. Cells: 1 digit, marks "L1"/"l1" (2), a shade.
    let board = "tests/fixtures/likeliest/shortcut.toml";
    let shaded = |extra: &[&str]| -> (Vec<(u32, char)>, String) {
        let mut args = vec![board, "--color", "never", "--heat"];
        args.extend_from_slice(extra);
        let text = draw(&args);
        let s = shades(&text, 1, 2)
            .into_iter()
            .filter(|(_, c)| *c != ' ')
            .collect();
        (s, text)
    };
    let (overall, text) = shaded(&["likeliest"]);
    assert_eq!(overall, [(2, '-'), (4, '*'), (5, '@')]);
    assert!(
        text.contains("(3 turns, probability 0.810000 = 81/100)"),
        "{text}"
    );
    let (fewest, text) = shaded(&["likeliest-fewest"]);
    assert_eq!(fewest, [(5, '@')]);
    assert!(
        text.contains("(1 turn, probability 0.100000 = 1/10)"),
        "{text}"
    );
    let (within, _) = shaded(&["likeliest", "--within", "2"]);
    assert_eq!(within, [(5, '@')]);
    // Tiny (docs/model.md): heads, heads: 0 -> 3 -> 4 with 1/4, turn 1 of 2 at level 5 ('+').
    let text = draw(&["tiny", "--heat", "likeliest", "--color", "never"]);
    let tiny: Vec<(u32, char)> = shades(&text, 1, 2)
        .into_iter()
        .filter(|(_, c)| *c != ' ')
        .collect();
    assert_eq!(tiny, [(3, '+'), (4, '@')]);
}

#[test]
fn after_and_within_go_with_their_heat() {
    for args in [
        &["tiny", "--heat", "after"][..],
        &["tiny", "--after", "3"],
        &["tiny", "--heat", "visits", "--after", "3"],
        &["tiny", "--heat", "visits", "--within", "3"],
        &["tiny", "--heat", "likeliest-fewest", "--within", "3"],
    ] {
        ladders().arg("draw").args(args).assert().code(2);
    }
    let err = stderr_of(&["draw", "tiny", "--heat", "likeliest", "--within", "1"], 2);
    assert!(err.contains("no game ends within 1 turn"), "{err}");
}

#[test]
fn draw_json_gives_the_grid_and_each_squares_place_and_marks() {
    // boards/tiny.toml: 4 squares, two a row (ceil(sqrt(4))); the bottom row runs 1, 2 left to
    // right, the top row 3, 4 right to left (as the snapshot draws it: "4 3l1" over "1L1 2S1").
    let v = crate::common::json_of(&["draw", "tiny", "--json"]);
    assert_eq!(
        (v["columns"].as_u64(), v["rows"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(v["board"]["size"], 4);
    let place = |s: u64| {
        let square = v["squares"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["square"] == s)
            .unwrap();
        let marks: Vec<&str> = square["marks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        (
            square["row"].as_u64().unwrap(),
            square["column"].as_u64().unwrap(),
            marks,
        )
    };
    assert_eq!(place(1), (0, 0, vec!["L1"]));
    assert_eq!(place(2), (0, 1, vec!["S1"]));
    assert_eq!(place(3), (1, 1, vec!["l1"]));
    assert_eq!(place(4), (1, 0, vec![]));
    assert_eq!(v["squares"].as_array().unwrap().len(), 4);
    assert!(v.get("heat").is_none());
    // With a heat map, its values square by square (0 to the finish): tiny's expected turns
    // begun are 2 on 0 and on 3 (two waits for heads), none elsewhere.
    let heat = crate::common::json_of(&["draw", "tiny", "--heat", "visits", "--json"]);
    let values: Vec<Option<f64>> = heat["heat"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::as_f64)
        .collect();
    assert_eq!(values[0], Some(2.0));
    assert_eq!(values[3], Some(2.0));
    assert!(heat["heat"]["name"].is_string());
    // --json and --svg - would both write to standard output.
    let err = stderr_of(&["draw", "tiny", "--json", "--svg", "-"], 2);
    assert!(err.contains("--json and --svg - both write"), "{err}");
}
