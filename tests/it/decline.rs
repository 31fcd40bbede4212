//! The choice rule `decline` (issue 39): Codeforces 1245E's samples to the printed digits, a
//! hand-worked board, the brute force of `tests/independent/decline.py` over every by-square
//! policy (`tests/fixtures/decline/*.txt`), policy files, validation, and every analysis on a
//! decline board through the command line.

use std::collections::BTreeMap;
use std::path::Path;

use num_rational::BigRational;
use serde_json::Value;

use crate::common::{exact, fixtures, json_of, stderr_of, stdout_of};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn board(name: &str) -> String {
    root()
        .join("tests/fixtures/decline")
        .join(format!("{name}.toml"))
        .to_str()
        .unwrap()
        .to_string()
}

/// A directory of this test run's own.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ladders-decline-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn q(text: &str) -> BigRational {
    text.parse().unwrap()
}

/// A fixture of `decline.py`: its "key value..." lines.
fn derived(name: &str) -> Vec<(String, Vec<String>)> {
    let path = root().join(format!("tests/fixtures/decline/{name}.txt"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let mut words = l.split_whitespace().map(str::to_string);
            (words.next().unwrap(), words.collect())
        })
        .collect()
}

fn first<'a>(lines: &'a [(String, Vec<String>)], key: &str) -> &'a [String] {
    &lines.iter().find(|(k, _)| k == key).unwrap().1
}

/// The choice on each declinable square, read from `optimize --json`'s runs of squares.
fn policy_of(json: &Value, squares: &[u32]) -> BTreeMap<u32, String> {
    let runs = json["policy"].as_array().unwrap();
    squares
        .iter()
        .map(|&s| {
            let run = runs
                .iter()
                .find(|r| {
                    (r["from"].as_u64().unwrap()..=r["to"].as_u64().unwrap()).contains(&(s as u64))
                })
                .unwrap_or_else(|| panic!("no choice on square {s}"));
            (s, run["choice"].as_str().unwrap().to_string())
        })
        .collect()
}

fn other<'a>(json: &'a Value, name: &str) -> &'a Value {
    json["others"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == name)
        .unwrap()
}

#[test]
fn codeforces_1245e_samples_give_the_printed_answers_and_the_editorials_fractions() {
    // The judge's outputs (10 digits after the point), and climbing every ladder on sample 3
    // (19.2487, from the issue). The exact values are the editorial's backward recursion in
    // fractions (decline.py --codeforces), a method unlike policy iteration.
    for (n, printed) in [
        (1, "33.0476190476"),
        (2, "20.2591405923"),
        (3, "15.9047592939"),
    ] {
        let name = format!("1245e-sample{n}");
        let path = board(&name);
        let json = json_of(&["optimize", &path, "--json", "--digits", "10"]);
        assert_eq!(json["optimal_expected_turns"]["decimal"], printed, "{name}");
        assert_eq!(json["bellman_holds"], true);
        let lines = derived(&name);
        assert_eq!(
            exact(&json["optimal_expected_turns"]),
            q(&first(&lines, "optimum")[0]),
            "{name}"
        );
        assert_eq!(
            exact(&other(&json, "always take")["expected_turns"]),
            q(&first(&lines, "always_take")[0]),
            "{name}"
        );
        let squares: Vec<u32> = lines
            .iter()
            .filter(|(k, _)| k == "policy")
            .map(|(_, v)| v[0].parse().unwrap())
            .collect();
        let wanted: BTreeMap<u32, String> = lines
            .iter()
            .filter(|(k, _)| k == "policy")
            .map(|(_, v)| (v[0].parse().unwrap(), v[1].clone()))
            .collect();
        assert_eq!(policy_of(&json, &squares), wanted, "{name}");
    }
    let three = stdout_of(&["optimize", &board("1245e-sample3"), "--digits", "4"]);
    assert!(
        three.contains("optimal expected turns: 15.9048 = "),
        "{three}"
    );
    assert!(three.contains("always take     19.2487"), "{three}");
    assert!(three.contains("  21,decline\n  34-39,take\n"), "{three}");
}

/// The hand-worked board (tests/fixtures/decline/hand.toml): size 10, a coin for a die (1 or 2,
/// each 1/2), stay, chain = true, every jump declinable: ladders 3 -> 7 and 8 -> 9, snakes
/// 6 -> 3 and 5 -> 1. E(s) is the expected turns standing on s; a move that lands on a jump's
/// square x is worth L(x) = min(E(x), what taking leads to), the jump taken on a tie.
///
/// - E(9) = 1 + E(9)/2 (a 2 stays) = 2; E(8) = 1 + (E(9) + 0)/2 = 2, and taking 8 -> 9 is worth
///   E(9) = 2 too: a tie, taken, L(8) = 2.
/// - E(7) = 1 + (L(8) + E(9))/2 = 3; E(6) = 1 + (E(7) + L(8))/2 = 7/2.
/// - Landing on 6 offers the snake to 3, whose ladder to 7 is offered in turn: take both
///   (E(7) = 3), take the snake and decline the ladder (E(3)), or decline (E(6) = 7/2).
/// - Guess: take 6 -> 3 -> 7, decline 5 -> 1. Then L(6) = L(3) = 3, E(5) = 1 + (L(6) + E(7))/2
///   = 4, L(5) = E(5) = 4, E(4) = 1 + (L(5) + L(6))/2 = 9/2, E(3) = 1 + (E(4) + L(5))/2 = 21/4,
///   E(2) = 1 + (L(3) + E(4))/2 = 19/4, E(1) = 1 + (E(2) + L(3))/2 = 39/8,
///   E(0) = 1 + (E(1) + E(2))/2 = **93/16**.
/// - The guess is optimal (each choice is the least): on 3, 3 < E(3) = 21/4; on 5,
///   E(5) = 4 < E(1) = 39/8; on 6, 3 < min(E(3), E(6)).
/// - Always take: with a = E(1), E(4) = (a + 5)/2, E(2) = (a + 15)/4, a = (a + 35)/8, so a = 5
///   and E(0) = 1 + (5 + 5)/2 = **6**. Always decline: E(9..0) = 2, 2, 3, 7/2, 17/4, 39/8,
///   89/16, 199/32, 441/64, **967/128**.
/// - The shortest game: after one turn the token is on 1 or 2, after two on 2, 4 or 7 (by 3's
///   ladder: 1 then 2, or 2 then 1, probability 1/2), after three on 9 at best (7 + 1 = 8 -> 9,
///   7 + 2 = 9), and a 1 finishes: **4 turns**, probability 1/2 * 1/2 = **1/4**.
#[test]
fn the_hand_worked_board_gives_the_optimum_the_policy_and_the_law_worked_by_hand() {
    let path = board("hand");
    let json = json_of(&["optimize", &path, "--json"]);
    assert_eq!(exact(&json["optimal_expected_turns"]), q("93/16"));
    let squares = [3, 5, 6, 8];
    let policy = policy_of(&json, &squares);
    let wanted = ["take", "decline", "take", "take"];
    for (s, w) in squares.iter().zip(wanted) {
        assert_eq!(policy[s], w, "square {s}");
    }
    assert_eq!(
        exact(&other(&json, "always take")["expected_turns"]),
        q("6")
    );
    assert_eq!(
        exact(&other(&json, "always decline")["expected_turns"]),
        q("967/128")
    );
    let text = stdout_of(&["optimize", &path]);
    assert!(
        text.contains("  3,take\n  5,decline\n  6-8,take\n"),
        "{text}"
    );
    let expect = json_of(&["expect", &path, "--policy", "optimal", "--json"]);
    assert_eq!(exact(&expect["expected_turns"]), q("93/16"));
    let shortest = json_of(&["shortest", &path, "--policy", "optimal", "--json"]);
    assert_eq!(shortest["shortest"]["turns"], 4);
    assert_eq!(exact(&shortest["shortest"]["probability"]), q("1/4"));
    let law = json_of(&[
        "distribution",
        &path,
        "--policy",
        "optimal",
        "--turns",
        "4",
        "--json",
    ]);
    let p: Vec<BigRational> = law["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| exact(&row["p"]))
        .collect();
    assert_eq!(p, vec![q("0"), q("0"), q("0"), q("1/4")]);
}

#[test]
fn the_optimum_the_policy_and_the_law_agree_with_the_brute_force_over_every_policy() {
    let mut seen = 0;
    for path in fixtures("decline") {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.extension().unwrap() != "txt" || name.starts_with("1245e") {
            continue;
        }
        seen += 1;
        let lines = derived(&name);
        let path = board(&name);
        let json = json_of(&["optimize", &path, "--json"]);
        assert_eq!(
            exact(&json["optimal_expected_turns"]),
            q(&first(&lines, "optimum")[0]),
            "{name}"
        );
        for (key, rule) in [
            ("always_take", "always take"),
            ("always_decline", "always decline"),
        ] {
            let value = &other(&json, rule)["expected_turns"];
            match first(&lines, key)[0].as_str() {
                "None" => assert!(value.is_null(), "{name}: {rule} {value}"),
                v => assert_eq!(exact(value), q(v), "{name}: {rule}"),
            }
        }
        let wanted: BTreeMap<u32, String> = lines
            .iter()
            .filter(|(k, _)| k == "policy")
            .map(|(_, v)| (v[0].parse().unwrap(), v[1].clone()))
            .collect();
        let squares: Vec<u32> = wanted.keys().copied().collect();
        assert_eq!(policy_of(&json, &squares), wanted, "{name}");
        let expect = json_of(&["expect", &path, "--policy", "optimal", "--json"]);
        assert_eq!(
            exact(&expect["variance"]),
            q(&first(&lines, "variance")[0]),
            "{name}"
        );
        let law = json_of(&[
            "distribution",
            &path,
            "--policy",
            "optimal",
            "--turns",
            "8",
            "--json",
        ]);
        for (n, row) in law["distribution"].as_array().unwrap().iter().enumerate() {
            let key = format!("p{}", n + 1);
            assert_eq!(exact(&row["p"]), q(&first(&lines, &key)[0]), "{name} {key}");
        }
        let shortest = json_of(&["shortest", &path, "--policy", "optimal", "--json"]);
        let [turns, p] = first(&lines, "shortest") else {
            panic!("two words")
        };
        assert_eq!(shortest["shortest"]["turns"].to_string(), *turns, "{name}");
        assert_eq!(exact(&shortest["shortest"]["probability"]), q(p), "{name}");
    }
    assert_eq!(seen, 3);
}

#[test]
fn a_policy_file_names_one_choice_per_square_even_where_one_jump_leads_to_another() {
    // On the hand-worked board, taking the snake 6 -> 3 but declining the ladder 3 -> 7 leaves
    // the token on 3 after the snake; with 5 -> 1 declined that is 45/4 turns (decline.py's
    // "each" line). Declining 3 but taking 5 -> 1 and 6 -> 3 never finishes: from 1..4 the
    // token can reach 5 (back to 1) and 6 (back to 3), never 7.
    let lines = derived("hand");
    let each = |words: &str| {
        lines
            .iter()
            .find(|(k, v)| k == "each" && v[1..].join(" ") == words)
            .map(|(_, v)| v[0].clone())
            .unwrap()
    };
    assert_eq!(each("3:decline 5:decline 6:take 8:take"), "45/4");
    let dir = scratch("policy");
    let file = dir.join("p.csv");
    std::fs::write(&file, "square,choice\n*,take\n3,decline\n5,decline\n").unwrap();
    let file = file.to_str().unwrap();
    let json = json_of(&["expect", &board("hand"), "--policy", file, "--json"]);
    assert_eq!(exact(&json["expected_turns"]), q("45/4"));
    assert_eq!(each("3:decline 5:take 6:take 8:take"), "None");
    let json = json_of(&["optimize", &board("hand"), "--policy", file, "--json"]);
    assert_eq!(exact(&json["optimal_expected_turns"]), q("93/16"));
    let stuck = dir.join("q.csv");
    std::fs::write(&stuck, "*,take\n3,decline\n").unwrap();
    let json = json_of(&[
        "optimize",
        &board("hand"),
        "--policy",
        stuck.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(json["others"][2]["stuck_from"], 0, "{json}");
    std::fs::write(&stuck, "*,climb\n").unwrap();
    let err = stderr_of(
        &[
            "expect",
            &board("hand"),
            "--policy",
            stuck.to_str().unwrap(),
        ],
        2,
    );
    assert!(
        err.contains("\"climb\" is not a choice of decline: expected take or decline"),
        "{err}"
    );
}

/// The problems `optimize` reports for the board `text`, one per line.
fn problems_of(text: &str) -> String {
    let file = scratch("validation").join("b.toml");
    std::fs::write(&file, text).unwrap();
    stderr_of(&["optimize", file.to_str().unwrap()], 2)
}

#[test]
fn validation_reports_what_decline_needs_with_every_other_problem() {
    let err = problems_of(
        "size = 20\nladders = [[2, 5]]\nsnakes = [[12, 3]]\nonce = [12]\n\
         [[chance]]\nat = 5\nto = [[9, 1]]\n\
         [tiles]\nlength = 2\nsnake = \"1/10\"\nladder = \"1/10\"\n\
         [rules]\nroll_again = \"unlimited\"\ndecline = \"ladders\"\nstart = 30\n",
    );
    let wanted = [
        "decline needs roll_again = \"none\"",
        "decline needs a board without once, points, lose_turn or extra_turn squares",
        "decline needs a board without [tiles]",
        "decline with chain = true needs no jump ending on a chance square, found 2 -> 5",
        "start 30",
    ];
    let bad_word = problems_of("size = 9\n[rules]\ndecline = \"ladder\"\ncoin = true\npick = 1\n");
    let two_rules = problems_of("size = 9\n[rules]\ndecline = \"jumps\"\ncoin = true\n");
    for (err, wanted) in [
        (&err, &wanted[..]),
        (
            &bad_word,
            &[
                ":3: decline \"ladder\" is not a rule: expected \"ladders\", \"snakes\" or \"jumps\"",
                "pick 1 is not a rule",
            ],
        ),
        (
            &two_rules,
            &["coin and decline are both set: a board has at most one choice rule"],
        ),
    ] {
        for w in wanted {
            assert!(err.contains(w), "{w}\n{err}");
        }
    }
}

#[test]
fn every_analysis_answers_on_a_decline_board_or_asks_for_a_policy() {
    let path = board("hand");
    for command in ["expect", "distribution", "shortest", "simulate", "check"] {
        let mut args = vec![command, path.as_str(), "--policy", "optimal"];
        if matches!(command, "simulate" | "check") {
            args.extend(["--games", "20000", "--seed", "7"]);
        }
        let out = stdout_of(&args);
        assert!(out.contains("Policy           optimal"), "{command}: {out}");
    }
    // The analyses without a policy say what they need, as for every choice rule.
    for command in ["expect", "squares", "pgf", "analyze", "distribution"] {
        let err = stderr_of(&[command, &path], 2);
        assert!(
            err.contains("the player chooses (decline), so the game needs a policy"),
            "{command}: {err}"
        );
    }
    // Two players who both choose: the duel of race.
    let race = stdout_of(&["race", &path]);
    assert!(
        race.contains("choice: the player may decline the jumps a move lands on"),
        "{race}"
    );
    assert!(race.contains("optimal "), "{race}");
    let draw = stdout_of(&["draw", &path]);
    assert!(
        draw.contains("choice: the player may decline the jumps a move lands on"),
        "{draw}"
    );
    assert!(draw.contains("S2 6->3"), "{draw}");
}
