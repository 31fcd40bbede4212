//! The likeliest game (`shortest --likeliest`, issue 13) against tests/independent/likeliest.py:
//! a depth-first branch and bound over rules_chain.py's turn kernel, a different search over an
//! independent reading of the rules. Its fixtures give, per board, the fewest turns with the
//! highest probability of a game that short, and for each turn bound N the highest probability
//! of a game of at most N turns with the fewest turns it takes; compared with `==`.

use std::path::Path;

use num_rational::BigRational;

use crate::common::{exact, json_of, ladders, stdout_of};

fn q(text: &str) -> BigRational {
    text.parse().unwrap()
}

/// (turns, probability) of one game in the `likeliest` JSON.
fn game(v: &serde_json::Value) -> (u64, BigRational) {
    (v["turns"].as_u64().unwrap(), exact(&v["probability"]))
}

#[test]
fn likeliest_games_match_the_independent_branch_and_bound() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/independent-likeliest");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 17, "fixtures missing in {}", dir.display());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut lines = text.lines();
        let args: Vec<&str> = lines.next().unwrap().split(' ').collect();
        let board = args[1];
        let (mut fewest, mut bounds) = (None, Vec::new());
        for line in lines {
            let w: Vec<&str> = line.split(' ').collect();
            match w[0] {
                "fewest_turns" => fewest = Some((w[1].parse::<u64>().unwrap(), q(w[2]))),
                "likeliest_within" => bounds.push((w[1].to_string(), w[2..].to_vec())),
                other => panic!("{}: unknown line {other}", file.display()),
            }
        }
        let fewest = fewest.expect("a fewest_turns line");
        assert_eq!(bounds.len(), args.len() - 2, "{}", file.display());
        for (n, want) in bounds {
            let v = json_of(&["shortest", board, "--likeliest", "--within", &n, "--json"]);
            let l = &v["likeliest"];
            assert_eq!(game(&l["fewest_turns"]), fewest, "{board} fewest turns");
            assert_eq!(l["within"], n.parse::<u64>().unwrap());
            if want == ["none"] {
                assert!(l["overall"].is_null(), "{board} within {n}: {l}");
            } else {
                let want = (want[0].parse().unwrap(), q(want[1]));
                assert_eq!(game(&l["overall"]), want, "{board} within {n}");
            }
        }
    }
}

#[test]
fn without_a_bound_the_likeliest_game_is_the_one_within_a_large_bound() {
    // A second method: the unbounded search stops when no unfinished prefix can win; a bound of
    // 100 turns (far above every game found) must give the same game, turn for turn.
    for board in [
        "tests/fixtures/likeliest/shortcut.toml",
        "tests/fixtures/independent-boards/tiles-two-dice-forfeit.toml",
        "tests/fixtures/independent-boards/lose-extra-forfeit.toml",
        "efi",
    ] {
        let free = json_of(&["shortest", board, "--likeliest", "--json"]);
        let bound = json_of(&[
            "shortest",
            board,
            "--likeliest",
            "--within",
            "100",
            "--json",
        ]);
        assert_eq!(
            free["likeliest"]["overall"], bound["likeliest"]["overall"],
            "{board}"
        );
        assert!(free["likeliest"]["within"].is_null());
    }
}

#[test]
fn the_likeliest_game_prints_its_turns_and_probability() {
    // By hand (tests/fixtures/likeliest/shortcut.toml): the 1-turn game climbs 1 -> 5 with 1/10;
    // the likeliest is 0 -> 2 -> 4 -> 5 with 9/10 * 9/10 * 1 = 81/100.
    let shortcut = "tests/fixtures/likeliest/shortcut.toml";
    let text = stdout_of(&["shortest", shortcut, "--likeliest", "--digits", "3"]);
    assert!(
        text.contains(
            "Likeliest fewest-turn game  1 turn, probability 0.100 = 1/10\n  turn 1: 1  (0 -> 5)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("Likeliest game   3 turns, probability 0.810 = 81/100\n  turn 1: 2  (0 -> 2)\n  turn 2: 2  (2 -> 4)\n"),
        "{text}"
    );
    let none = stdout_of(&["shortest", "tiny", "--likeliest", "--within", "1"]);
    assert!(none.contains("Likeliest game within 1 turn  none: no game ends so soon"));
}

#[test]
fn within_needs_likeliest() {
    ladders()
        .args(["shortest", "tiny", "--within", "3"])
        .assert()
        .code(2);
}
