//! The façade's races of seats that meet and its player who chooses (`Game::race_with`,
//! `race_table`, `optimize`, `optimize_within`, `duel`) through the public API only: a board
//! worked by hand, the same values as the command line's JSON on the built-in boards, and the
//! refusals made before the work.

use std::time::{Duration, Instant};

use ladders::board::{RollAgain, RuleOverrides, BUILTIN_BOARDS};
use ladders::race::KnockOffError;
use ladders::race::Method;
use ladders::race::SharedError;
use ladders::simulate::SimOptions;
use ladders::{Error, Game, Interval, Meeting, Race, RaceSettings, Unit};
use num_rational::BigRational;
use serde_json::Value;

use crate::common::{exact, json_of, stdout_with_code};

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// Two squares and a coin, any roll past the finish finishing: a 2 finishes at once, a 1 goes
/// to square 1, from where any roll finishes.
const COIN: &str = "size = 2\n[rules]\ndie = 2\novershoot = \"allow\"\n";

fn settings(meeting: Meeting, digits: usize) -> RaceSettings {
    RaceSettings::new(meeting).digits(digits)
}

/// An INTERVAL of `ladders race --json` (exact objects).
fn interval_of(v: &Value) -> Interval {
    Interval::new(exact(&v["lo"]), exact(&v["hi"]))
}

/// The seats' wins and the expected rounds of a race are those of `ladders race ARGS --json`.
fn same_as_cli(race: &Race, args: &[&str]) {
    let mut args = args.to_vec();
    args.push("--json");
    let cli = json_of(&args);
    for (i, seat) in race.seats.iter().enumerate() {
        assert_eq!(seat.win, interval_of(&cli["seats"][i]["win"]), "{args:?}");
    }
    assert_eq!(race.expected_rounds, interval_of(&cli["expected_rounds"]));
    assert_eq!(serde_json::to_value(race.method).unwrap(), cli["method"]);
}

/// W(x, y), the mover's chance to win standing on x with the other on y. From (0, 1): a 2
/// wins, a 1 lands on the other and sends it to 0, who then moves from (0, 1):
/// W(0, 1) = 1/2 + 1/2 (1 - W(0, 1)), so 2/3. From (0, 0): a 2 wins, a 1 gives the other
/// (0, 1): W(0, 0) = 1/2 + 1/2 (1 - 2/3) = 2/3. Seat 2 wins the rest, 1/3.
#[test]
fn knock_off_on_two_squares_is_worked_by_hand() {
    let coin = Game::from_toml(COIN, "coin").unwrap();
    let race = Game::race_with(&[coin.clone(), coin], &settings(Meeting::KnockOff, 12)).unwrap();
    assert_eq!(race.method, Method::ExactSolve);
    assert_eq!(race.seats[0].win, Interval::exact(q(2, 3)));
    assert_eq!(race.seats[1].win, Interval::exact(q(1, 3)));
    let json = serde_json::to_value(&race).unwrap();
    assert_eq!(exact(&json["seats"][0]["win"]["lo"]), q(2, 3));
    assert_eq!(json["method"], "exact");
}

#[test]
fn every_built_in_board_races_as_the_command_line_does() {
    for b in BUILTIN_BOARDS {
        let game = Game::builtin(b.name).unwrap();
        let two = [game.clone(), game.clone()];
        if game.board().choice().is_some() {
            continue; // two players who choose: the duel below
        }
        if game.changes_during_a_game() {
            // seed-003's shared race takes about a minute each way: the fixture's board below.
            if b.name != "seed-003" {
                let race = Game::race_with(&two, &settings(Meeting::SharedBoard, 15)).unwrap();
                same_as_cli(&race, &["race", b.name]);
            }
            continue;
        }
        same_as_cli(&Game::race(&two, 15).unwrap(), &["race", b.name]);
        let knock = Game::race_with(&two, &settings(Meeting::KnockOff, 12)).unwrap();
        same_as_cli(&knock, &["race", b.name, "--knock-off"]);
    }
}

/// Two seats sharing a board with one-use jumps, lost turns and apples (the board of
/// `tests/independent/shared_race.py`): the command line's answer, and each seat's expected
/// score.
#[test]
fn seats_sharing_a_board_race_as_the_command_line_does() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sim/shared-two.toml"
    );
    let game = Game::from_file(path).unwrap();
    assert!(game.changes_during_a_game());
    let two = [game.clone(), game];
    let race = Game::race_with(&two, &settings(Meeting::SharedBoard, 15)).unwrap();
    same_as_cli(&race, &["race", path]);
    assert!(race.seats.iter().all(|s| s.score.is_some()));
    // Not raced on apart: the seats share it.
    assert!(matches!(Game::race(&two, 12), Err(Error::Unanswerable(_))));
}

#[test]
fn a_table_of_player_counts_is_that_of_the_command_line() {
    let tiny = Game::builtin("tiny").unwrap();
    let races = tiny
        .race_table(1..=3, &settings(Meeting::Never, 15))
        .unwrap();
    let cli = json_of(&["race", "tiny", "--players", "1..3", "--json"]);
    for (race, row) in races.iter().zip(cli["races"].as_array().unwrap()) {
        for (i, seat) in race.seats.iter().enumerate() {
            assert_eq!(seat.win, interval_of(&row["seats"][i]["win"]));
        }
    }
    // One player wins for sure: the certified interval holds 1.
    assert!(races[0].seats[0].win.contains(&q(1, 1)));
}

#[test]
fn the_player_who_chooses_optimizes_as_the_command_line_does() {
    let course = Game::builtin("course").unwrap();
    let best = course.optimize().unwrap();
    let cli = json_of(&["optimize", "course", "--json"]);
    assert_eq!(best.value, exact(&cli["optimal_expected_turns"]));
    assert_eq!(
        serde_json::to_value(&best.policy).unwrap(),
        cli["policy"],
        "the runs of squares"
    );
    assert!(best.proved);
    for (o, c) in best.others.iter().zip(cli["others"].as_array().unwrap()) {
        assert_eq!(o.name, c["name"].as_str().unwrap());
        assert_eq!(
            o.expected_turns.as_ref().unwrap(),
            &exact(&c["expected_turns"])
        );
    }
    let within = course.optimize_within(20).unwrap();
    let cli = json_of(&["optimize", "course", "--within", "20", "--json"]);
    assert_eq!(within.value, exact(&cli["best_chance"]));
    // The law under the optimum: its mean is the optimum (the tail past the steps is tiny).
    let law = course
        .optimal_distribution(&ladders::analysis::DistributionOptions::default())
        .unwrap();
    let mean: BigRational = law
        .terms
        .iter()
        .map(|t| BigRational::from_integer(t.n.into()) * &t.p)
        .sum();
    assert!(mean <= best.value && &best.value - &mean < q(1, 1000));
}

#[test]
fn two_players_who_choose_duel_as_the_command_line_does() {
    let course = Game::builtin("course").unwrap();
    let duel = course.duel(None).unwrap();
    let cli = json_of(&["race", "course", "--json"]);
    for (pair, c) in duel.pairs.iter().zip(cli["pairs"].as_array().unwrap()) {
        assert_eq!(pair.name, c["name"].as_str().unwrap());
        let win = pair.first_wins.as_ref().unwrap();
        let fraction = |v: &Value| v.as_str().unwrap().parse::<BigRational>().unwrap();
        assert_eq!(win.lo, fraction(&c["first_wins"]["lo"]));
        assert_eq!(win.hi, fraction(&c["first_wins"]["hi"]));
    }
    assert!(matches!(
        Game::builtin("tiny").unwrap().duel(None),
        Err(Error::Unanswerable(_))
    ));
}

/// Three players knocking each other off on Milton Bradley with a forfeit after three top
/// faces (outside the relative-position method): the joint chain could need gigabytes, so the
/// race is refused at once with its estimate.
#[test]
fn a_knock_off_race_too_large_is_refused_within_a_second() {
    let mut overrides = RuleOverrides::default();
    overrides.roll_again = Some(RollAgain::Forfeit(3));
    let mb = Game::builtin("milton-bradley")
        .unwrap()
        .with_rules(&overrides)
        .unwrap();
    let mut s = settings(Meeting::KnockOff, 12);
    s.state_limit = Some(100_000_000);
    let started = Instant::now();
    let err = Game::race_with(&[mb.clone(), mb.clone(), mb], &s).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(1));
    let Error::TooLarge(too) = err else {
        panic!("expected a refusal, got {err:?}")
    };
    assert_eq!(too.unit, Unit::Bytes);
    assert!(too.estimate > too.limit, "{too:?}");
}

/// The gates boards' knock-off race, too long for the stepping's bound (tests/fixtures/race):
/// refused as `Error::Uncertified`, which keeps the race's own typed error with the joint
/// chain's states; with an exact limit of those states it is solved exactly.
#[test]
fn a_knock_off_race_that_cannot_be_certified_keeps_its_typed_error() {
    let seats = ["gates-36.toml", "gates-36b.toml"]
        .map(|f| Game::from_file(format!("tests/fixtures/race/{f}")).unwrap());
    let mut s = settings(Meeting::KnockOff, 12);
    s.exact_limit = 1;
    let err = Game::race_with(&seats, &s).unwrap_err();
    let Error::Uncertified(race) = &err else {
        panic!("expected an uncertified race, got {err:?}")
    };
    assert_eq!(race.players, 2);
    let Some(&KnockOffError::NoTailBound(states)) = race.detail().downcast_ref::<KnockOffError>()
    else {
        panic!(
            "expected the knock-off race's own error, got {:?}",
            race.detail()
        )
    };
    assert_eq!(err.to_string(), race.detail().to_string());
    s.exact_limit = states;
    assert_eq!(
        Game::race_with(&seats, &s).unwrap().method,
        Method::ExactSolve
    );
}

/// Two seats sharing Efi with jump turns: the shared race's certified solve fails, kept typed.
#[test]
fn a_shared_race_that_cannot_be_certified_keeps_its_typed_error() {
    let game = Game::from_file("tests/fixtures/turn-rules/efi-jump.toml").unwrap();
    let err =
        Game::race_with(&[game.clone(), game], &settings(Meeting::SharedBoard, 12)).unwrap_err();
    let Error::Uncertified(race) = &err else {
        panic!("expected an uncertified race, got {err:?}")
    };
    assert!(matches!(
        race.detail().downcast_ref::<SharedError>(),
        Some(SharedError::Layered(_, 2))
    ));
}

/// `ladders check ARGS --json`'s race check, and the façade's: the same exact intervals, the
/// same sample, the same tests and verdict (the seed alone decides the sample, on any number of
/// threads).
fn race_check_same_as_cli(seats: &[Game], meeting: Meeting, args: &[&str]) {
    let exact = Game::race_check_law(seats, meeting).unwrap();
    let options = SimOptions::new(2_000, 3);
    let sim = Game::race_simulation(seats, meeting, &options).unwrap();
    let judged = Game::judge_race_simulation(&exact, &sim).unwrap();
    let mut args = args.to_vec();
    args.extend(["-n", "2k", "--seed", "3", "--json"]);
    let text = stdout_with_code(&args, i32::from(!judged.pass));
    let cli: Value = serde_json::from_str(&text).unwrap();
    let check = &cli["check"];
    for (i, seat) in exact.race.seats.iter().enumerate() {
        assert_eq!(
            seat.win,
            interval_of(&check["seats"][i]["exact_win"]),
            "{args:?}"
        );
        assert_eq!(sim.wins[i], cli["seats"][i]["wins"], "{args:?}");
        let share = &check["seats"][i]["share"];
        assert_eq!(judged.seats[i].z, share["z"].as_f64().unwrap(), "{args:?}");
        assert_eq!(judged.seats[i].pass, share["pass"], "{args:?}");
    }
    assert_eq!(
        exact.race.expected_rounds,
        interval_of(&check["exact_rounds"])
    );
    let rounds = judged.rounds.as_ref().expect("rounds with a spread");
    assert_eq!(rounds.z, check["rounds"]["z"].as_f64().unwrap(), "{args:?}");
    let chi = judged.chi_square.as_ref().expect("two seats");
    assert_eq!(
        chi.statistic,
        check["chi_square"]["statistic"].as_f64().unwrap()
    );
    assert_eq!(judged.tests, check["tests"], "{args:?}");
}

#[test]
fn a_race_check_gives_the_command_lines_answers_for_seats_apart_knocking_off_and_sharing() {
    let tiny = Game::builtin("tiny").unwrap();
    let two = [tiny.clone(), tiny];
    race_check_same_as_cli(&two, Meeting::Never, &["check", "tiny", "--players", "2"]);
    race_check_same_as_cli(
        &two,
        Meeting::KnockOff,
        &["check", "tiny", "--players", "2", "--knock-off"],
    );
    let shared = Game::from_file(SHARED_TWO).unwrap();
    let seats = [shared.clone(), shared];
    race_check_same_as_cli(
        &seats,
        Meeting::SharedBoard,
        &["check", SHARED_TWO, "--players", "2"],
    );
}

/// Two seats sharing a board that changes during a game (`tests/fixtures/sim/`).
const SHARED_TWO: &str = "tests/fixtures/sim/shared-two.toml";

#[test]
fn a_censored_race_sample_is_refused_by_the_judgement() {
    let tiny = Game::builtin("tiny").unwrap();
    let two = [tiny.clone(), tiny];
    let exact = Game::race_check_law(&two, Meeting::Never).unwrap();
    let options = SimOptions::new(1_000, 1).max_turns(2);
    let sim = Game::race_simulation(&two, Meeting::Never, &options).unwrap();
    let Err(Error::CensoredRace {
        capped, races, cap, ..
    }) = Game::judge_race_simulation(&exact, &sim)
    else {
        panic!("a race sample with capped races is judged");
    };
    assert!(capped > 0);
    assert_eq!((races, cap), (1_000, 2));
}
