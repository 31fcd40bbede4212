//! Issue 39's turn rules (`enter`, `roll_again_on = "double"`, `jump_takes_turn`; DESIGN.md
//! section 1, "Four more rules") through the real
//! binary: every command on every board that uses them, the simulator's check against the exact
//! law, the shortest game and its probability against `tests/independent/rules_chain.py`
//! (`tests/fixtures/turn-rules-shortest/`), tiny boards worked by hand in the comments, and
//! validation's messages, each with its line and among every other problem of the file. The
//! expectations, variance and P(T = n) of the same boards against the Python are in
//! `known_values_rules.rs` (`tests/fixtures/independent-rules/`), their generating functions
//! and moments in `known_closed_forms.rs`.

use std::path::{Path, PathBuf};

use num_rational::BigRational;
use serde_json::Value;

use super::common::{exact, fixtures, json_of, stderr_of, stdout_of};
use super::known_values::parse_fraction;

/// The keys of the turn rules, as a board file writes them.
const RULE_KEYS: [&str; 3] = ["enter", "roll_again_on", "jump_takes_turn"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The boards that use a turn rule: the full-size ones of `tests/fixtures/turn-rules/` and the
/// small ones of `tests/fixtures/independent-boards/`.
fn boards() -> Vec<PathBuf> {
    let mut boards = fixtures("turn-rules");
    for path in fixtures("independent-boards") {
        let text = std::fs::read_to_string(&path).unwrap();
        if text
            .lines()
            .any(|l| RULE_KEYS.iter().any(|k| l.starts_with(&format!("{k} ="))))
        {
            boards.push(path);
        }
    }
    assert!(boards.len() >= 4, "{boards:?}");
    boards
}

fn path_text(path: &Path) -> String {
    path.to_str().unwrap().to_string()
}

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[test]
fn every_command_runs_on_every_turn_rule_board_and_names_the_rule() {
    let commands: [&[&str]; 11] = [
        &["analyze"],
        &["expect"],
        &["expect", "--float"],
        &["distribution", "--turns", "12"],
        &["shortest"],
        &["squares"],
        &["draw", "--heat", "visits"],
        &["simulate", "--games", "3000", "--seed", "5"],
        &["race", "--players", "2"],
        &["pgf"],
        &["sensitivity"],
    ];
    // Milton Bradley with doubles is left to the exact-value, check and shortest tests: its
    // chain takes about 8 s of CPU a command (runs of doubles up to 58 rolls deep).
    let light = boards()
        .into_iter()
        .filter(|b| !b.ends_with("milton-bradley-doubles.toml"));
    for board in light {
        let board = path_text(&board);
        let text = std::fs::read_to_string(&board).unwrap();
        let stateful = [
            "once",
            "points",
            "lose_turn",
            "extra_turn",
            "jump_takes_turn",
        ]
        .iter()
        .any(|k| text.contains(&format!("\n{k} =")));
        for args in commands {
            let mut all = args.to_vec();
            all.push(&board);
            if stateful && args == ["analyze"] {
                // `analyze` refuses every board whose player's state is more than a square.
                let err = stderr_of(&all, 2);
                assert!(err.contains("`analyze` does not answer boards"), "{err}");
                continue;
            }
            if board.ends_with("efi-jump.toml") && args[0] == "race" {
                // Its seats race on the shared (joint) chain, whose unlimited roll-again turns
                // have denominators past what it certifies: refused, with the simulator named.
                let err = stderr_of(&all, 2);
                assert!(err.contains("could not be certified"), "{err}");
                assert!(err.contains("ladders simulate --players 2"), "{err}");
                continue;
            }
            let out = stdout_of(&all);
            // Every report with a rules line names the house rule as the file writes it.
            for key in RULE_KEYS {
                if text.contains(&format!("\n{key} =")) && out.contains("overshoot") {
                    assert!(out.contains(&format!("{key} = ")), "{all:?}:\n{out}");
                }
            }
        }
        // The JSON reports carry the rule in their rules.
        let json = json_of(&["expect", "--json", &board]);
        if text.contains("\nenter =") {
            assert!(json["rules"]["enter"].is_array(), "{board}: {json}");
        }
        if text.contains("\nroll_again_on = \"double\"") {
            assert_eq!(json["rules"]["roll_again_on"], "double", "{board}: {json}");
        }
        if text.contains("\njump_takes_turn = true") {
            assert_eq!(json["rules"]["jump_takes_turn"], true, "{board}: {json}");
        }
        json_of(&["distribution", "--json", "--turns", "5", &board]);
        json_of(&["shortest", "--json", &board]);
        json_of(&["squares", "--json", &board]);
    }
}

/// The simulator plays the rule roll by roll from the turn machine; `check` compares its sample
/// with the exact law (mean, chi-square of the law of T, mean rolls) and exits 1 on a failure.
#[test]
fn the_simulator_agrees_with_the_exact_law_on_every_turn_rule_board() {
    for board in boards() {
        let board = path_text(&board);
        let out = stdout_of(&["check", "--games", "200000", "--seed", "39", &board]);
        assert!(out.contains("Verdict          PASS"), "{board}:\n{out}");
    }
}

/// `verify` judges a reported mean against the exact one: 3 turns on the first hand-worked
/// board below passes, 2.5 over a million games fails (exit 1).
#[test]
fn verify_judges_a_reported_mean_on_an_enter_board() {
    let board = tiny("size = 3\n[rules]\ndie = 2\novershoot = \"allow\"\nenter = [2]\n");
    stdout_of(&["verify", &board, "--mean", "3.00", "--games", "10000"]);
    super::common::stdout_with_code(
        &["verify", &board, "--mean", "2.5", "--games", "1000000"],
        1,
    );
}

#[test]
fn the_shortest_game_and_its_probability_equal_the_independent_derivation() {
    let paths = fixtures("turn-rules-shortest");
    assert!(paths.len() >= 4);
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        let board = lines.next().unwrap().strip_prefix("args ").unwrap();
        let words: Vec<&str> = lines.next().unwrap().split(' ').collect();
        let ["shortest", n, p] = words[..] else {
            panic!("{}: bad line", path.display())
        };
        let board = path_text(&root().join(board));
        let got = json_of(&["shortest", "--json", &board]);
        assert_eq!(
            got["shortest"]["turns"],
            n.parse::<u64>().unwrap(),
            "{board}"
        );
        let probability = exact(&got["shortest"]["probability"]);
        assert_eq!(probability, parse_fraction(p), "{board}");
    }
}

/// A board file for a hand-worked case, written under the target directory.
fn tiny(text: &str) -> String {
    let dir = root().join("target/turn-rules-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let name = format!("{:016x}.toml", fxhash(text));
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path_text(&path)
}

fn fxhash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// E[T], Var T, E[rolls], P(T = n) for n = 1..=terms and the shortest game (turns and
/// probability) of a board, through the binary.
struct Answers {
    turns: BigRational,
    variance: BigRational,
    rolls: BigRational,
    law: Vec<BigRational>,
    shortest: (u64, BigRational),
}

fn answers(text: &str, terms: usize) -> Answers {
    let board = tiny(text);
    let e = json_of(&["expect", "--json", &board]);
    let turns = terms.to_string();
    let d = json_of(&["distribution", "--json", "--turns", &turns, &board]);
    let s = json_of(&["shortest", "--json", &board]);
    let law = d["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t: &Value| exact(&t["p"]))
        .collect();
    Answers {
        turns: exact(&e["expected_turns"]),
        variance: exact(&e["variance"]),
        rolls: exact(&e["expected_rolls"]),
        law,
        shortest: (
            s["shortest"]["turns"].as_u64().unwrap(),
            exact(&s["shortest"]["probability"]),
        ),
    }
}

#[test]
fn enter_on_tiny_boards_worked_by_hand() {
    // Size 3, a coin (die = 2), allow, enter = [2]: from 0 a 2 enters (to 2) and a 1 leaves the
    // token on 0; from 2 any throw finishes. So T = G + 1 with G geometric on 1, 2, ... with
    // success 1/2: E[T] = 2 + 1 = 3, Var T = Var G = (1/2)/(1/2)^2 = 2, one roll a turn (rolls
    // 3), P(T = n) = (1/2)^(n-1) for n >= 2: P(T = 1) = 0, P(T = 2) = 1/2, P(T = 3) = 1/4. The
    // shortest game: 2 turns, probability 1/2.
    let a = answers(
        "size = 3\n[rules]\ndie = 2\novershoot = \"allow\"\nenter = [2]\n",
        3,
    );
    assert_eq!((a.turns, a.variance, a.rolls), (q(3, 1), q(2, 1), q(3, 1)));
    assert_eq!(a.law, [q(0, 1), q(1, 2), q(1, 4)]);
    assert_eq!(a.shortest, (2, q(1, 2)));

    // Size 4, a coin, allow, enter = [2], snake 3 -> 0 (back off the board): E(2) = 1 + E(0)/2
    // (a 1 lands on 3 and slides to 0, a 2 finishes); E(0) = 1 + E(0)/2 + E(2)/2, so
    // E(0)/4 = 3/2: E[T] = 6. Shortest: 2 then 2, 2 turns, probability 1/4.
    let a = answers(
        "size = 4\nsnakes = [[3, 0]]\n[rules]\ndie = 2\novershoot = \"allow\"\nenter = [2]\n",
        2,
    );
    assert_eq!(a.turns, q(6, 1));
    assert_eq!(a.law, [q(0, 1), q(1, 4)]);
    assert_eq!(a.shortest, (2, q(1, 4)));

    // Size 3, a coin, allow, enter = [1], unlimited roll-again (a 2 is the top face): a 2 on 0
    // does not enter but rolls again, so a turn from 0 rolls 2s until a 1 and ends on 1 (rolls:
    // geometric, mean 2); from 1 a 1 ends on 2, a 2 finishes; from 2 anything finishes.
    // E(1) = 1 + 1/2 = 3/2, E[T] = 1 + 3/2 = 5/2; rolls: 2 + (1 + 1/2) = 7/2. P(T = 2) = 1/2
    // (the 2 from 1), P(T = 3) = 1/2. Var = 4/2 + 9/2 - 25/4 = 1/4.
    let a = answers(
        "size = 3\n[rules]\ndie = 2\novershoot = \"allow\"\nenter = [1]\n\
         roll_again = \"unlimited\"\n",
        3,
    );
    assert_eq!((a.turns, a.variance, a.rolls), (q(5, 2), q(1, 4), q(7, 2)));
    assert_eq!(a.law, [q(0, 1), q(1, 2), q(1, 2)]);
    assert_eq!(a.shortest, (2, q(1, 2)));
}

#[test]
fn enter_problems_are_named_with_their_lines_among_every_other_problem() {
    // An upward snake (line 2), a start that enter does not allow (line 4, and enter on line 6
    // names it), a sum listed twice (line 8), a sum a d6 cannot throw (line 9).
    let board = tiny(
        "size = 20\nsnakes = [[3, 9]]\n[rules]\nstart = 2\n\
         overshoot = \"bounce\"\nenter = [\n  6,\n  6,\n  7,\n]\n",
    );
    let err = stderr_of(&["expect", &board], 2);
    assert!(err.contains(":2: snake 3 -> 9 goes up"), "{err}");
    assert!(
        err.contains(":6: enter needs start = 0: it says which throws take a token off square 0"),
        "{err}"
    );
    assert!(err.contains("this board starts on square 2"), "{err}");
    assert!(
        err.contains(":8: enter lists the sum 6 twice: each sum once"),
        "{err}"
    );
    assert!(
        err.contains(":9: enter 7 is not a sum the dice can throw: expected one of 1 to 6"),
        "{err}"
    );
    // An empty list, a word, and a choice rule.
    let err = stderr_of(&["expect", &tiny("size = 20\n[rules]\nenter = []\n")], 2);
    assert!(
        err.contains(":3: enter = [] lets no throw enter the board: list the sums that enter, e.g. enter = [6]"),
        "{err}"
    );
    let err = stderr_of(&["expect", &tiny("size = 20\n[rules]\nenter = 6\n")], 2);
    assert!(
        err.contains(":3: enter: expected a list of integers, e.g. [4, 9], found the integer 6"),
        "{err}"
    );
    let err = stderr_of(
        &[
            "expect",
            &tiny("size = 20\n[rules]\nenter = [6]\ncoin = true\n"),
        ],
        2,
    );
    assert!(
        err.contains(":3: enter cannot be combined with coin (a move the player chooses)"),
        "{err}"
    );
    // Two dice: the sums are 2 to 12, so 1 is refused and 12 is fine.
    let err = stderr_of(
        &[
            "expect",
            &tiny("size = 30\n[rules]\ndice = 2\nenter = [1, 12]\n"),
        ],
        2,
    );
    assert!(
        err.contains(":4: enter 1 is not a sum the dice can throw: expected one of 2 to 12"),
        "{err}"
    );
    // Sums are kept in one word: past 127 (seven d20 throw up to 140) a clear refusal.
    let err = stderr_of(
        &[
            "expect",
            &tiny("size = 300\n[rules]\ndie = 20\ndice = 7\nenter = [130]\n"),
        ],
        2,
    );
    assert!(
        err.contains(":5: enter 130 is past the largest sum enter can list (127)"),
        "{err}"
    );
    // --start on the command line is judged with the file's enter.
    let ok = tiny("size = 20\n[rules]\nenter = [6]\n");
    let err = stderr_of(&["expect", &ok, "--start", "1"], 2);
    assert!(err.contains("enter needs start = 0"), "{err}");
}

#[test]
fn doubles_on_tiny_boards_worked_by_hand() {
    // Two coins (dice = 2, die = 2: sums 2, 3, 4 with 1/4, 1/2, 1/4), size 5, allow, unlimited
    // roll-again on doubles: 1-1 (sum 2) and 2-2 (sum 4) roll again, a 3 ends the turn. From 0:
    // a 3 ends on 3 (1/2); a double 1 goes to 2 and rolls again, and from 2 the next roll finishes
    // or lands on 4 (a double 1) and rolls again, then finishes; a double 2 goes to 4 and rolls
    // again, then finishes. So P(T = 1) = 1/2, and from 3 any throw finishes: P(T = 2) = 1/2.
    // E[T] = 3/2, Var T = (1 + 4)/2 - 9/4 = 1/4. Rolls: from 0 the turn is one roll with 1/2
    // (the 3), else a double 1 (1/4) then from 2: a 3 or a double 2 finish (3/4, 2 rolls), a
    // double 1 to 4 and one more (1/4, 3 rolls): 1/4 (2 (3/4) + 3 (1/4)) = 9/16; a double 2
    // then one more: 1/4 x 2 = 1/2; then the 3's second turn: 1/2 x 1. E[rolls] = 1/2 + 9/16 +
    // 1/2 + 1/2 = 33/16. With top-face roll-again only (the same board without roll_again_on,
    // tests/independent/README.md) E[T] is 29/16.
    let a = answers(
        "size = 5\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\n\
         roll_again = \"unlimited\"\nroll_again_on = \"double\"\n",
        3,
    );
    assert_eq!(
        (a.turns, a.variance, a.rolls),
        (q(3, 2), q(1, 4), q(33, 16))
    );
    assert_eq!(a.law, [q(1, 2), q(1, 2), q(0, 1)]);
    assert_eq!(a.shortest, (1, q(1, 2)));

    // Without a roll-again rule no throw rolls again, so roll_again_on = "double" changes
    // nothing (DESIGN.md): the law is the one of the same board without it. (Forfeits on
    // doubles are in rules_chain.py's fixtures: double-forfeit-chance.)
    let with = answers(
        "size = 6\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\n\
         roll_again_on = \"double\"\n",
        3,
    );
    let without = answers(
        "size = 6\n[rules]\ndie = 2\ndice = 2\novershoot = \"allow\"\n",
        3,
    );
    assert_eq!((&with.turns, &with.law), (&without.turns, &without.law));
}

#[test]
fn roll_again_on_problems_are_named_with_their_lines() {
    // One die: no doubles (line 4), with an upward ladder's problem (line 2) in the same report.
    let err = stderr_of(
        &[
            "expect",
            &tiny("size = 20\nladders = [[9, 3]]\n[rules]\nroll_again_on = \"double\"\n"),
        ],
        2,
    );
    assert!(err.contains(":2: ladder 9 -> 3 goes down"), "{err}");
    assert!(
        err.contains(":4: roll_again_on = \"double\" needs two or more dice (dice = 2 or more)"),
        "{err}"
    );
    // A word that is not a rule, and a value of the wrong type.
    let err = stderr_of(
        &[
            "expect",
            &tiny("size = 20\n[rules]\nroll_again_on = \"doubles\"\n"),
        ],
        2,
    );
    assert!(
        err.contains(":3: roll_again_on \"doubles\" is not a rule: expected \"top\" or \"double\""),
        "{err}"
    );
    let err = stderr_of(
        &["expect", &tiny("size = 20\n[rules]\nroll_again_on = 2\n")],
        2,
    );
    assert!(
        err.contains(":3: roll_again_on: expected quoted text, found the integer 2"),
        "{err}"
    );
}

#[test]
fn jump_turns_on_tiny_boards_worked_by_hand() {
    // Size 4, a coin (die = 2), allow, the ladder 1 -> 3, jump_takes_turn. From 0: a 1 stops on
    // the ladder's foot (the turn ends), the next turn climbs to 3 with no roll, the one after
    // finishes (any throw from 3 does): 3 turns, 2 rolls, probability 1/2. A 2 lands on 2: then
    // a 2 finishes (2 turns, 2 rolls, 1/4) or a 1 lands on 3 and the next throw finishes (3
    // turns, 3 rolls, 1/4). P(T = 2) = 1/4, P(T = 3) = 3/4: E[T] = 1/2 + 9/4 = 11/4 (9/4
    // without the rule: the climb is in the roll), E[T^2] = 1 + 27/4 = 31/4, Var T = 31/4 -
    // 121/16 = 3/16; E[rolls] = 2 (3/4) + 3 (1/4) = 9/4. Shortest: 2 turns (2 then 2), 1/4.
    let text = "size = 4\nladders = [[1, 3]]\n[rules]\ndie = 2\novershoot = \"allow\"\n\
                jump_takes_turn = true\n";
    let a = answers(text, 3);
    assert_eq!(
        (a.turns, a.variance, a.rolls),
        (q(11, 4), q(3, 16), q(9, 4))
    );
    assert_eq!(a.law, [q(0, 1), q(1, 4), q(3, 4)]);
    assert_eq!(a.shortest, (2, q(1, 4)));
    // Each ladder is counted once: half the games climb it (E[ladders] = 1/2, climbed 1).
    let e = json_of(&["expect", "--json", &tiny(text)]);
    assert_eq!(exact(&e["expected_ladders"]), q(1, 2));
    assert_eq!(exact(&e["expected_climbed"]), q(1, 1));

    // Size 6, a coin, allow, the ladders 1 -> 3 and 3 -> 5, chain = true: each ladder is a turn.
    // E(5) = 1 (anything finishes), E(4) = 1 + E(5)/2 = 3/2; owing 3 -> 5: 1 + E(5) = 2; owing
    // 1 -> 3 (which ends on the ladder 3 -> 5, owed next): 1 + 2 = 3; E(2) = 1 + (2 + 3/2)/2 =
    // 11/4 (a 1 stops on 3, a 2 lands on 4); E(0) = 1 + (3 + 11/4)/2 = 31/8. By games: 0 2 4 F
    // is the only 3-turn game (1/8), every other game takes 4: P(T = 3) = 1/8, P(T = 4) = 7/8,
    // Var T = 9/8 + 16 (7/8) - (31/8)^2 = 7/64. Rolls: 1, climb, climb, finish (1/2): 2; 2, 1,
    // climb, finish (1/4): 3; 2 1 1 1 (1/8): 4; 2 2 2 (1/8): 3: E = 1 + 3/4 + 1/2 + 3/8 = 21/8.
    let chained = "size = 6\nladders = [[1, 3], [3, 5]]\n[rules]\ndie = 2\n\
                   overshoot = \"allow\"\njump_takes_turn = true\n";
    let a = answers(chained, 4);
    assert_eq!(
        (a.turns, a.variance, a.rolls),
        (q(31, 8), q(7, 64), q(21, 8))
    );
    assert_eq!(a.law, [q(0, 1), q(0, 1), q(1, 8), q(7, 8)]);
    assert_eq!(a.shortest, (3, q(1, 8)));

    // The same with chain = false: the jump turn 1 -> 3 leaves the token on 3, where it stands
    // (the ladder 3 -> 5 is taken only by a move that lands there). E(3) = 1 + (3/2 + 1)/2 =
    // 9/4 (a 1 to 4, a 2 to 5), owing 1 -> 3: 1 + 9/4 = 13/4; E(2) = 11/4 as above (a 1 lands
    // on the ladder 3 -> 5 and stops); E(0) = 1 + (13/4 + 11/4)/2 = 4. By games: 0 2 4 F (1/8)
    // in 3; 0 1 3 4 5 F (1/8) in 5; the rest (3/4) in 4: Var T = 9/8 + 12 + 25/8 - 16 = 1/4.
    let a = answers(&chained.replace("[rules]\n", "[rules]\nchain = false\n"), 5);
    assert_eq!((a.turns, a.variance), (q(4, 1), q(1, 4)));
    assert_eq!(a.law, [q(0, 1), q(0, 1), q(1, 8), q(3, 4), q(1, 8)]);
    assert_eq!(a.shortest, (3, q(1, 8)));

    // Size 5, a coin, allow, the ladder 2 -> 4, unlimited roll-again (a 2 rolls again): a 2
    // from 0 stops on the ladder's foot and ends the turn all the same (1/2): climb, then any
    // throw finishes: 3 turns. A 1 to 1 (1/2), then: a 1 stops on 2 (1/4 overall: climb,
    // finish: 4 turns); a 2 to 3 and again: a 1 to 4 (1/8: 3 turns), a 2 finishes (1/8: 2
    // turns). P(T = 2) = 1/8, P(T = 3) = 5/8, P(T = 4) = 1/4: E[T] = 25/8, E[T^2] = 81/8,
    // Var T = 23/64; rolls: 2 (1/2), 3 (1/4), 4 (1/8), 3 (1/8): E = 21/8.
    let again = "size = 5\nladders = [[2, 4]]\n[rules]\ndie = 2\novershoot = \"allow\"\n\
                 roll_again = \"unlimited\"\njump_takes_turn = true\n";
    let a = answers(again, 4);
    assert_eq!(
        (a.turns, a.variance, a.rolls),
        (q(25, 8), q(23, 64), q(21, 8))
    );
    assert_eq!(a.law, [q(0, 1), q(1, 8), q(5, 8), q(1, 4)]);
    assert_eq!(a.shortest, (2, q(1, 8)));

    // Size 5, a coin, allow, the ladder 1 -> 3 and a lost turn on 2 (one roll a turn): a 1
    // stops on the ladder (1/2): climb (turn 2), then from 3 a 2 finishes (turn 3) or a 1 to 4
    // and on (turn 4). A 2 lands on 2 and loses turn 2; from 2 a 1 to 3 (then turn 4 or 5), a 2
    // to 4 (then turn 4). E(4) = 1, E(3) = 3/2, owing the climb 5/2, E(2) = 1 + (3/2 + 1)/2 =
    // 9/4, owing the lost turn 13/4: E[T] = 1 + (5/2 + 13/4)/2 = 31/8. P(T = 3) = 1/4,
    // P(T = 4) = 1/4 + 1/8 + 1/4 = 5/8, P(T = 5) = 1/8: Var T = 123/8 - 961/64 = 23/64; rolls:
    // 2 (1/4), 3 (1/4), 3 (1/8), 4 (1/8), 3 (1/4): E = 23/8.
    let lost = "size = 5\nladders = [[1, 3]]\nlose_turn = [2]\n[rules]\ndie = 2\n\
                overshoot = \"allow\"\njump_takes_turn = true\n";
    let a = answers(lost, 5);
    assert_eq!(
        (a.turns, a.variance, a.rolls),
        (q(31, 8), q(23, 64), q(23, 8))
    );
    assert_eq!(a.law, [q(0, 1), q(0, 1), q(1, 4), q(5, 8), q(1, 8)]);
    assert_eq!(a.shortest, (3, q(1, 4)));
}

/// The shortest game shows a jump turn as a turn with no roll that moves the token, and says
/// nothing of a lost turn; `expect --float` and `verify` answer on the first hand-worked board.
#[test]
fn a_jump_turn_shows_in_the_witness_as_a_turn_with_no_roll() {
    let board = tiny(
        "size = 7\nladders = [[1, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\n\
         jump_takes_turn = true\n",
    );
    // The only 3-turn game: 1 (stops on the ladder), the climb, 2 (5 -> 7); on foot it takes 4.
    let out = stdout_of(&["shortest", &board]);
    assert!(out.contains("turn 1: 1  (0 -> 1)"), "{out}");
    assert!(out.contains("turn 2:   (1 -> 5)"), "{out}");
    assert!(out.contains("turn 3: 2  (5 -> 7)"), "{out}");
    assert!(!out.contains("loses its next turn"), "{out}");
    // expect --float: fewer rolls than turns is what jump turns make possible, not a failed
    // solve (E[rolls] = 9/4 < E[T] = 11/4 on the first hand-worked board).
    let first = tiny(
        "size = 4\nladders = [[1, 3]]\n[rules]\ndie = 2\novershoot = \"allow\"\n\
         jump_takes_turn = true\n",
    );
    let out = stdout_of(&["expect", "--float", &first]);
    assert!(out.contains("Expected turns   2.75"), "{out}");
    // verify judges a reported mean against 11/4.
    stdout_of(&["verify", &first, "--mean", "2.75", "--games", "10000"]);
    super::common::stdout_with_code(&["verify", &first, "--mean", "2.5", "--games", "100000"], 1);
}

#[test]
fn jump_takes_turn_problems_are_named_with_their_lines_among_every_other_problem() {
    // Line 2: an upward snake (another problem, in the same report). Line 3: a snake ending on
    // the lost-turn square 6. Line 4: a ladder ending on the chance square 9 (chain = true).
    // Line 5: a ladder ending on the points square 12. Line 6: a ladder ending on the
    // extra-turn square 15. Line 8: the lost-turn square 6 can be owed with a jump pending: a
    // top throw there rolls again (roll_again = "unlimited").
    let board = tiny(
        "size = 30\n\
         snakes = [[2, 4],\n  [8, 6]]\n\
         ladders = [[3, 9],\n  [5, 12],\n  [14, 15]]\n\
         points = [[12, 1]]\n\
         lose_turn = [6]\n\
         extra_turn = [15]\n\
         [[chance]]\n\
         at = 9\n\
         to = [[1, 1], [20, 1]]\n\
         [rules]\n\
         roll_again = \"unlimited\"\n\
         jump_takes_turn = true\n",
    );
    let err = stderr_of(&["expect", &board], 2);
    let want = [
        ":2: snake 2 -> 4 goes up",
        ":3: snake 8 -> 6 ends on the lost-turn square 6: with jump_takes_turn a jump turn \
         ending there is not defined (a jump turn has no roll)",
        ":4: ladder 3 -> 9 ends on the chance square 9: with jump_takes_turn and chain = true \
         a jump turn ending there is not defined",
        ":5: ladder 5 -> 12 ends on the points square 12: with jump_takes_turn",
        ":6: ladder 14 -> 15 ends on the extra-turn square 15: with jump_takes_turn",
        ":8: lose_turn 6: with jump_takes_turn a turn could end owing this lost turn with a \
         jump pending (a top throw that ends there rolls again, and that roll may stop on a \
         jump), which is not defined",
    ];
    for w in want {
        assert!(err.contains(w), "{w}\n{err}");
    }
    // Random tiles and a choice rule, named on the rule's line; a word for the value.
    let cases = [
        (
            "size = 20\nladders = [[3, 9]]\n[tiles]\nlength = 2\nsnake = \"1/4\"\nladder = \"1/4\"\n\
             [rules]\njump_takes_turn = true\ncoin = true\n",
            ":8: jump_takes_turn cannot be combined with [tiles]: a tile is a jump",
        ),
        (
            "size = 20\nladders = [[3, 9]]\n[rules]\njump_takes_turn = true\ncoin = true\n",
            ":4: jump_takes_turn cannot be combined with coin (a choice rule)",
        ),
        (
            "size = 20\n[rules]\njump_takes_turn = \"yes\"\n",
            ":3: jump_takes_turn: expected true or false",
        ),
    ];
    for (text, want) in cases {
        let err = stderr_of(&["expect", &tiny(text)], 2);
        assert!(err.contains(want), "{want}\n{err}");
    }
    // A lost-turn square is fine with one roll a turn; a jump onto the finish too.
    let ok =
        tiny("size = 20\nladders = [[3, 20]]\nlose_turn = [6]\n[rules]\njump_takes_turn = true\n");
    stdout_of(&["expect", &ok]);
}
