//! The façade's player who follows a policy, its whole simulation and its die sweep, through
//! the public API only, against the command line's JSON on the built-in boards
//! (`--policy optimal` on `course`, the one with a choice rule; `simulate`, `check` and
//! `expect --die LO..HI` on the others): the same values, since the command line asks the
//! same façade. The values themselves are tested elsewhere (`optimize.rs` against the course's
//! published optimum, `known_values.rs`).

use ladders::analysis::{DistributionOptions, Expectation};
use ladders::board::BUILTIN_BOARDS;
use ladders::simulate::SimOptions;
use ladders::{Error, Game, Meeting};

use crate::common::{exact, json_of};

fn course() -> Game {
    Game::builtin("course")
        .unwrap()
        .with_optimal_policy()
        .unwrap()
}

#[test]
fn a_player_following_the_optimal_policy_gets_the_command_lines_answers() {
    let game = course();
    assert_eq!(game.policy_name(), Some("optimal"));
    let cli = json_of(&[
        "expect",
        "course",
        "--policy",
        "optimal",
        "--moments",
        "2",
        "--json",
    ]);
    assert_eq!(cli["policy"], "optimal");
    let answers = game.expectations(false, Some(2)).unwrap();
    let Expectation::Finite(e) = &answers.expectation else {
        panic!("the optimal player finishes")
    };
    assert_eq!(e.turns, exact(&cli["expected_turns"]));
    assert_eq!(e.variance, exact(&cli["variance"]));
    // The optimum is what optimize proves (the Bellman equation checked with ==).
    assert_eq!(
        e.turns,
        Game::builtin("course").unwrap().optimize().unwrap().value
    );
    let moments = answers.moments.unwrap();
    // The JSON lists E[T^j] from j = 1, the result from j = 0.
    assert_eq!(moments.raw[2], exact(&cli["moments"]["raw"][1]));

    let cli = json_of(&[
        "distribution",
        "course",
        "--policy",
        "optimal",
        "--turns",
        "30",
        "--json",
    ]);
    let law = game.distribution(&DistributionOptions::turns(30)).unwrap();
    let terms = cli["distribution"].as_array().unwrap();
    assert_eq!(law.terms.len(), terms.len());
    for (term, cli) in law.terms.iter().zip(terms) {
        assert_eq!(term.p, exact(&cli["p"]), "n = {}", term.n);
    }
    // The optimal policy's law is the one optimal_distribution steps.
    let optimal = Game::builtin("course").unwrap();
    let same = optimal
        .optimal_distribution(&DistributionOptions::turns(30))
        .unwrap();
    assert_eq!(same.terms, law.terms);

    let cli = json_of(&[
        "shortest",
        "course",
        "--policy",
        "optimal",
        "--likeliest",
        "--json",
    ]);
    let shortest = game.shortest().unwrap().shortest.unwrap();
    assert_eq!(
        shortest.turns as u64,
        cli["shortest"]["turns"].as_u64().unwrap()
    );
    assert_eq!(shortest.probability, exact(&cli["shortest"]["probability"]));
    let likeliest = game.likeliest(None).unwrap().unwrap();
    assert_eq!(
        likeliest.overall.unwrap().probability,
        exact(&cli["likeliest"]["overall"]["probability"])
    );
}

#[test]
fn a_player_following_a_policy_plays_the_command_lines_games() {
    let game = course();
    let options = SimOptions::new(2000, 3).max_turns(1000);
    let sim = game.simulation(&options).unwrap();
    let cli = json_of(&[
        "simulate", "course", "--policy", "optimal", "-n", "2000", "--seed", "3", "--json",
    ]);
    let counts: Vec<u64> = serde_json::from_value(cli["turn_counts"].clone()).unwrap();
    assert_eq!(sim.turns.counts(), counts);
    assert_eq!(sim.total_rolls, cli["totals"]["rolls"].as_u64().unwrap());
    assert_eq!(sim.ladders, cli["totals"]["ladders"].as_u64().unwrap());
    // The exact law `check` compares the sample with.
    let law = game.exact_law(0.1 / 2000.0).unwrap();
    let cli = json_of(&[
        "check", "course", "--policy", "optimal", "-n", "2000", "--seed", "3", "--json",
    ]);
    assert_eq!(law.expectations.turns, exact(&cli["check"]["exact_mean"]));
}

/// `ladders check`: the simulation judged against the exact law, with the command line's
/// statistics; a sample cut at the turn cap is refused as censored.
#[test]
fn a_simulation_is_judged_as_check_judges_it() {
    let mb = Game::builtin("milton-bradley").unwrap();
    let options = SimOptions::new(3000, 8).max_turns(1000);
    let law = mb.exact_law(0.1 / 3000.0).unwrap();
    let sim = mb.simulation(&options).unwrap();
    let comparison = mb.judge_simulation(&law, &sim).unwrap();
    let cli = json_of(&[
        "check",
        "milton-bradley",
        "-n",
        "3000",
        "--seed",
        "8",
        "--json",
    ]);
    // (serde_json may read a float back one unit in the last place away: nine digits.)
    let z = cli["check"]["mean"]["z"].as_f64().unwrap();
    assert_eq!(format!("{:.9}", comparison.mean.z), format!("{z:.9}"));
    assert_eq!(comparison.pass, cli["check"]["verdict"] == "PASS");
    let chi = comparison.chi_square.unwrap();
    assert_eq!(
        chi.df as u64,
        cli["check"]["chi_square"]["df"].as_u64().unwrap()
    );
    // One turn is too few for any game on tiny (two heads are needed): every game is stopped.
    let tiny = Game::builtin("tiny").unwrap();
    let cut = SimOptions::new(100, 1).max_turns(1);
    let sim = tiny.simulation(&cut).unwrap();
    let law = tiny.exact_law(0.1 / 100.0).unwrap();
    let Err(Error::Censored { capped, games, .. }) = tiny.judge_simulation(&law, &sim) else {
        panic!("censored")
    };
    assert_eq!((capped, games), (100, 100));
}

#[test]
fn a_policy_answers_only_the_questions_of_its_chain() {
    let game = course();
    assert!(matches!(game.squares(), Err(Error::Unanswerable(_))));
    assert!(matches!(game.pgf(), Err(Error::Unanswerable(_))));
    // A board without a choice rule has no policy to follow.
    let tiny = Game::builtin("tiny").unwrap();
    assert!(matches!(
        tiny.with_optimal_policy(),
        Err(Error::Unanswerable(_))
    ));
}

#[test]
fn every_built_in_boards_simulation_is_the_command_lines() {
    for b in BUILTIN_BOARDS {
        let game = Game::builtin(b.name).unwrap();
        if game.board().choice().is_some() {
            continue;
        }
        let options = SimOptions::new(300, 5).max_turns(1000);
        let cli = json_of(&[
            "simulate",
            b.name,
            "-n",
            "300",
            "--seed",
            "5",
            "--max-turns",
            "1000",
            "--json",
        ]);
        match game.simulation(&options) {
            Ok(sim) => {
                let counts: Vec<u64> = serde_json::from_value(cli["turn_counts"].clone()).unwrap();
                assert_eq!(sim.turns.counts(), counts, "{}", b.name);
                assert_eq!(sim.capped, cli["capped"].as_u64().unwrap(), "{}", b.name);
                assert_eq!(sim.total_rolls, cli["totals"]["rolls"].as_u64().unwrap());
            }
            Err(e) => panic!("{}: {e}", b.name),
        }
    }
}

#[test]
fn a_turn_that_can_go_on_for_ever_is_not_simulated() {
    // Every throw is a six (a loaded die), which rolls again: from 6 the next six overshoots
    // and stays, for ever (tests/it/hostile.rs's board).
    let text = "size = 10\n[rules]\ndie = [0, 0, 0, 0, 0, 1]\nroll_again = \"unlimited\"\n";
    let game = Game::from_toml(text, "endless").unwrap();
    let options = SimOptions::new(10, 1).max_turns(100);
    let Err(e @ Error::EndlessTurn { .. }) = game.simulation(&options) else {
        panic!("refused")
    };
    assert!(e.to_string().contains("can go on for ever"), "{e}");
}

/// Two seats sharing seed 003's board (its apples eaten for both): every game is played and
/// each seat's scores are kept.
#[test]
fn seats_sharing_a_board_that_changes_play_their_games_with_scores() {
    let b = Game::builtin("seed-003").unwrap();
    let options = SimOptions::new(2000, 1).max_turns(10_000);
    let seats = [b.clone(), b];
    let sim = Game::race_simulation(&seats, Meeting::SharedBoard, &options).unwrap();
    assert_eq!(sim.games(), 2000);
    assert_eq!(sim.scores.as_ref().unwrap().len(), 2);
    let cli = json_of(&[
        "simulate",
        "seed-003",
        "--players",
        "2",
        "-n",
        "2000",
        "--seed",
        "1",
        "--max-turns",
        "10000",
        "--json",
    ]);
    assert_eq!(sim.capped, cli["capped"].as_u64().unwrap());
    let wins: Vec<u64> = cli["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"].as_u64().unwrap())
        .collect();
    assert_eq!(sim.wins, wins);
}

#[test]
fn the_die_sweep_is_the_command_lines_table() {
    for name in ["tiny", "efi", "milton-bradley"] {
        let game = Game::builtin(name).unwrap();
        let sweep = game.die_sweep(2..=8).unwrap();
        let cli = json_of(&["expect", name, "--die", "2..8", "--json"]);
        let dice = cli["dice"].as_array().unwrap();
        assert_eq!(sweep.dice.len(), dice.len());
        assert_eq!(sweep.best.map(u64::from), cli["best"].as_u64());
        for (d, cli) in sweep.dice.iter().zip(dice) {
            assert_eq!(u64::from(d.die), cli["die"].as_u64().unwrap());
            match &d.turns {
                Some(t) => assert_eq!(*t, exact(&cli["turns"]), "{name} d{}", d.die),
                None => assert!(cli["turns"].is_null(), "{name} d{}", d.die),
            }
        }
    }
    // tiny with a coin: E[T] = 4 (worked by hand in boards/tiny.toml).
    let tiny = Game::builtin("tiny").unwrap().die_sweep(2..=2).unwrap();
    let four = num_rational::BigRational::from_integer(4.into());
    assert_eq!(tiny.dice[0].turns, Some(four));
}
