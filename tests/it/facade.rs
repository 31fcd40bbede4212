//! The façade (`ladders::Game`) through the public API only: hand-worked answers on a tiny
//! board, the same values as the command line's JSON on every built-in board, and its errors.

use ladders::analysis::{DistributionOptions, Expectation, Longest};
use ladders::board::{RuleOverrides, BUILTIN_BOARDS};
use ladders::{Error, Game, Limits, Unit};
use num_rational::BigRational;

use crate::common::{exact, json_of, stdout_with_code};

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// Two squares and a coin, any roll past the finish finishing: a 2 finishes at once, a 1 goes
/// to square 1, from where any roll finishes. T = 1 or 2, each with probability 1/2:
/// E[T] = 3/2, E[T^2] = (1 + 4)/2 = 5/2, Var = 5/2 - 9/4 = 1/4.
const COIN: &str = "size = 2\n[rules]\ndie = 2\novershoot = \"allow\"\n";

#[test]
fn a_coin_on_two_squares_is_answered_by_hand() {
    let game = Game::from_toml(COIN, "coin").unwrap();
    let Expectation::Finite(e) = game.expect().unwrap() else {
        panic!("the game ends")
    };
    assert_eq!((e.turns.clone(), e.variance.clone()), (q(3, 2), q(1, 4)));
    // One roll a turn: the rolls are the turns.
    assert_eq!(e.rolls, q(3, 2));
    let m = game.moments(2).unwrap();
    // raw[j] = E[T^j], from j = 0.
    assert_eq!(m.raw[..3], [q(1, 1), q(3, 2), q(5, 2)]);
    let law = game.distribution(&DistributionOptions::default()).unwrap();
    let p: Vec<_> = law.terms.iter().map(|t| t.p.clone()).collect();
    assert_eq!(p, [q(1, 2), q(1, 2)]);
    let shortest = game.shortest().unwrap();
    let s = shortest.shortest.unwrap();
    assert_eq!((s.turns, s.probability), (1, q(1, 2)));
    assert_eq!(s.witness[0].rolls, [2]);
    assert!(matches!(
        shortest.longest,
        Longest::Bounded { turns: 2, .. }
    ));
}

#[test]
fn results_serialize_with_exact_numbers_whole() {
    let game = Game::from_toml(COIN, "coin").unwrap();
    let value = serde_json::to_value(game.expect_per_square().unwrap()).unwrap();
    let e = &value["finite"];
    assert_eq!(exact(&e["turns"]), q(3, 2));
    assert_eq!(e["variance"]["decimal"], "0.250000000000");
    // From square 1 one more turn; from the start 3/2.
    let by_square: Vec<_> = e["per_square"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["state"].as_u64().unwrap(), exact(&s["value"])))
        .collect();
    assert_eq!(by_square, [(0, q(3, 2)), (1, q(1, 1))]);
}

#[test]
fn every_built_in_board_gets_the_command_lines_values() {
    for b in BUILTIN_BOARDS {
        let game = Game::builtin(b.name).unwrap();
        if game.board().choice().is_some() {
            assert!(matches!(game.expect(), Err(Error::NeedsPolicy { .. })));
            continue;
        }
        let cli = json_of(&["expect", b.name, "--json"]);
        match game.expect().unwrap() {
            Expectation::Finite(e) => {
                assert_eq!(e.turns, exact(&cli["expected_turns"]), "{}", b.name);
                assert_eq!(e.variance, exact(&cli["variance"]), "{}", b.name);
                assert_eq!(e.rolls, exact(&cli["expected_rolls"]), "{}", b.name);
            }
            Expectation::Infinite(_) => assert_eq!(cli["expected_turns"], "infinite"),
        }
        let cli = json_of(&["shortest", b.name, "--json"]);
        let shortest = game.shortest().unwrap().shortest.unwrap();
        assert_eq!(
            shortest.turns as u64,
            cli["shortest"]["turns"].as_u64().unwrap()
        );
        assert_eq!(shortest.probability, exact(&cli["shortest"]["probability"]));
        let cli = json_of(&["distribution", b.name, "--turns", "30", "--json"]);
        let options = DistributionOptions::turns(30);
        let law = game.distribution(&options).unwrap();
        let terms = cli["distribution"].as_array().unwrap();
        assert_eq!(law.terms.len(), terms.len(), "{}", b.name);
        for (term, cli) in law.terms.iter().zip(terms) {
            assert_eq!(term.p, exact(&cli["p"]), "{} n = {}", b.name, term.n);
        }
    }
}

#[test]
fn rule_overrides_and_reversal_make_new_games() {
    let game = Game::from_toml(COIN, "coin").unwrap();
    // With `stay`, a 2 from square 1 is lost: from 1, T is geometric with mean 2, so
    // E[T] = 1 + (1/2)(2) = 2.
    let stay = overshoot(ladders::board::Overshoot::Stay);
    let Expectation::Finite(e) = game.with_rules(&stay).unwrap().expect().unwrap() else {
        panic!("the game ends")
    };
    assert_eq!(e.turns, q(2, 1));
    // Reversed, the ladder 3 -> 7 is a snake 7 -> 3 and the snake 9 -> 2 a ladder 2 -> 9.
    let game = Game::from_toml("size = 10\nsnakes = [[9, 2]]\nladders = [[3, 7]]\n", "b").unwrap();
    let reversed = game.reversed().unwrap().board().clone();
    let ends = |j: &[ladders::board::Jump]| j.iter().map(|j| (j.from, j.to)).collect::<Vec<_>>();
    assert_eq!(ends(reversed.snakes()), [(7, 3)]);
    assert_eq!(ends(reversed.ladders()), [(2, 9)]);
    // A reversal that puts a snake's head on the finish is refused like the file would be.
    let mb = Game::builtin("milton-bradley").unwrap();
    assert!(matches!(mb.reversed(), Err(Error::Board(_))));
}

#[test]
fn errors_say_what_is_wrong_and_can_be_matched() {
    let Err(Error::NotFound { near, .. }) = Game::builtin("milton-bradly") else {
        panic!("no such board")
    };
    assert!(near.iter().any(|n| n == "milton-bradley"), "{near:?}");
    // Every problem of the text at once: the size and the upward snake.
    let Err(Error::Board(e)) = Game::from_toml("size = 0\nsnakes = [[3, 5]]\n", "bad.toml") else {
        panic!("invalid board")
    };
    assert_eq!(e.origin, "bad.toml");
    assert!(e.problems.len() >= 2, "{e}");
    // The turn chain of long roll-again runs is refused from its estimate, before it is built.
    let big = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/boards/gen-10000-again.toml"
    );
    let Err(Error::TooLarge(too)) = Game::from_file(big).unwrap().shortest() else {
        panic!("refused")
    };
    assert_eq!((too.what, too.unit), ("turn chain", Unit::Bytes));
    assert!(too.estimate > too.limit, "{too:?}");
    assert!(too.to_string().contains("the limit is 500 MB"), "{too}");
}

/// The façade's simulation: the same seed, the same games; the same histogram as
/// `ladders simulate --json` with that seed.
#[test]
fn simulate_is_seeded_and_plays_the_command_lines_games() {
    let tiny = Game::builtin("tiny").unwrap();
    let played = tiny.simulate(1000, 2).unwrap();
    assert_eq!(played, tiny.simulate(1000, 2).unwrap());
    assert_eq!(played.turn_counts.iter().sum::<u64>() + played.capped, 1000);
    // tiny needs two heads: no game shorter than 2 turns.
    assert_eq!(played.turn_counts[..2], [0, 0]);
    let cli = json_of(&["simulate", "tiny", "-n", "1000", "--seed", "2", "--json"]);
    let counts: Vec<u64> = serde_json::from_value(cli["turn_counts"].clone()).unwrap();
    assert_eq!(played.turn_counts, counts);
    assert_eq!(played.rolls, cli["totals"]["rolls"].as_u64().unwrap());
    assert!(matches!(tiny.simulate(0, 1), Err(Error::Unanswerable(_))));
}

/// The façade's verify judges a sample as `ladders verify --json` does: the same z and verdict,
/// the same rule variants fitted.
#[test]
fn verify_judges_a_sample_as_the_command_line_does() {
    use ladders::simulate::Histogram;
    let mb = Game::builtin("milton-bradley").unwrap();
    let bounce = mb
        .with_rules(&overshoot(ladders::board::Overshoot::Bounce))
        .unwrap();
    for (game, passes) in [(&mb, true), (&bounce, false)] {
        let played = game.simulate(5000, 5).unwrap();
        let verdict = mb
            .verify(&Histogram::new(played.turn_counts.clone()))
            .unwrap();
        assert_eq!(verdict.passed, passes);
        let dir = std::env::temp_dir().join(format!("ladders-facade-verify-{passes}"));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("turns.csv");
        let mut csv = String::from("turns,count\n");
        for (t, c) in played
            .turn_counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
        {
            csv.push_str(&format!("{t},{c}\n"));
        }
        std::fs::write(&file, csv).unwrap();
        let args = [
            "verify",
            "milton-bradley",
            "-f",
            file.to_str().unwrap(),
            "--json",
        ];
        let code = if passes { 0 } else { 1 };
        let cli: serde_json::Value = serde_json::from_str(&stdout_with_code(&args, code)).unwrap();
        assert_eq!(verdict.z, cli["check"]["mean"]["z"].as_f64().unwrap());
        assert_eq!(
            cli["check"]["mean"]["pass"].as_bool().unwrap(),
            passes || verdict.z.abs() <= 5.3
        );
        let fits: Vec<String> = cli["variants"]["fits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let words: Vec<&str> = f["changes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|w| w.as_str().unwrap())
                    .collect();
                words.join(", ")
            })
            .collect();
        assert_eq!(verdict.fits, fits);
    }
}

/// Two seats on tiny: seat 1 wins on its n-th turn when seat 2 has not finished in n - 1 turns,
/// so P = sum_n (n - 1)/2^n * n/2^(n-1) = 2 sum_n n(n - 1)/4^n = 2 * 2(1/4)^2/(3/4)^3 = 16/27,
/// and seat 2 wins with 11/27. The intervals hold them, 10^-12 wide at most, and are those of
/// `ladders race --json`.
#[test]
fn race_certifies_each_seats_chance_of_winning() {
    let tiny = Game::builtin("tiny").unwrap();
    let odds = Game::race(&[tiny.clone(), tiny], 12).unwrap();
    assert!(odds.complete);
    let cli = json_of(&["race", "tiny", "--players", "2", "--digits", "12", "--json"]);
    for (i, value) in [q(16, 27), q(11, 27)].into_iter().enumerate() {
        let win = &odds.seats[i].win;
        assert!(win.lo <= value && value <= win.hi, "{win:?}");
        assert!(&win.hi - &win.lo <= q(1, 1_000_000_000_000));
        let seat = &cli["seats"][i]["win"];
        assert_eq!(
            (exact(&seat["lo"]), exact(&seat["hi"])),
            (win.lo.clone(), win.hi.clone())
        );
    }
    assert!(matches!(Game::race(&[], 12), Err(Error::Unanswerable(_))));
}

/// Records the stages it hears.
#[derive(Default)]
struct Heard(std::sync::Mutex<Vec<String>>);

impl ladders::progress::Listener for Heard {
    fn begin(&self, _id: u64, what: &str, _total: Option<u64>) {
        self.0.lock().unwrap().push(what.to_string());
    }
    fn advance(&self, _id: u64, _done: u64) {}
    fn end(&self, _id: u64) {}
}

#[test]
fn a_games_listener_hears_its_work_and_only_its_own() {
    let heard = std::sync::Arc::new(Heard::default());
    let game = Game::from_toml(COIN, "coin")
        .unwrap()
        .with_progress(heard.clone());
    // A distribution always begins with the tail's decay rate.
    game.distribution(&DistributionOptions::default()).unwrap();
    let stages = heard.0.lock().unwrap().clone();
    assert!(
        stages.iter().any(|s| s == "the tail's decay rate"),
        "{stages:?}"
    );
    // A game made from it keeps the listener; a game without one tells it nothing.
    let bounce = overshoot(ladders::board::Overshoot::Bounce);
    let before = heard.0.lock().unwrap().len();
    Game::from_toml(COIN, "coin")
        .unwrap()
        .distribution(&DistributionOptions::default())
        .unwrap();
    assert_eq!(heard.0.lock().unwrap().len(), before);
    game.with_rules(&bounce)
        .unwrap()
        .distribution(&DistributionOptions::default())
        .unwrap();
    assert!(heard.0.lock().unwrap().len() > before);
}

#[test]
fn the_coins_generating_function_and_squares_are_answered_by_hand() {
    let game = Game::from_toml(COIN, "coin").unwrap();
    // F(z) = z/2 + z^2/2: F(1) = 1, F(1/2) = 1/4 + 1/8 = 3/8, F(2) = 1 + 2 = 3.
    let closed = game.pgf().unwrap();
    let at = |coefficients: &[num_bigint::BigInt], z: &BigRational| {
        coefficients.iter().rev().fold(q(0, 1), |acc, c| {
            acc * z + BigRational::from_integer(c.clone())
        })
    };
    let f = |z: BigRational| at(&closed.pgf.numerator, &z) / at(&closed.pgf.denominator, &z);
    assert_eq!(
        (f(q(1, 1)), f(q(1, 2)), f(q(2, 1))),
        (q(1, 1), q(3, 8), q(3, 1))
    );
    // Square 0 begins every game's first turn; square 1 begins a second turn half the time,
    // and is landed on by a 1 from the start (probability 1/2); 1 turn is left from it.
    let answers = game.squares().unwrap();
    let row = |square| answers.squares.iter().find(|a| a.square == square).unwrap();
    assert_eq!(
        (row(0).visits.clone(), row(0).remaining.clone()),
        (q(1, 1), q(3, 2))
    );
    assert_eq!(
        (row(1).visits.clone(), row(1).remaining.clone()),
        (q(1, 2), q(1, 1))
    );
    assert_eq!(row(1).reach, Some(q(1, 2)));
    let json = serde_json::to_value(&answers).unwrap();
    assert_eq!(exact(&json["squares"][1]["visits"]), q(1, 2));
}

#[test]
fn the_generating_function_and_squares_match_the_command_line() {
    for name in ["tiny", "milton-bradley", "efi"] {
        let game = Game::builtin(name).unwrap();
        let cli = json_of(&["pgf", name, "--json"]);
        let closed = game.pgf().unwrap();
        let strings =
            |v: &[num_bigint::BigInt]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let listed = |key: &str| -> Vec<String> {
            cli[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(
            strings(&closed.pgf.numerator),
            listed("numerator"),
            "{name}"
        );
        assert_eq!(
            strings(&closed.pgf.denominator),
            listed("denominator"),
            "{name}"
        );
        let cli = json_of(&["squares", name, "--json"]);
        let answers = game.squares().unwrap();
        let rows = cli["squares"].as_array().unwrap();
        assert_eq!(answers.squares.len(), rows.len(), "{name}");
        for (a, row) in answers.squares.iter().zip(rows) {
            assert_eq!(u64::from(a.square), row["square"].as_u64().unwrap());
            assert_eq!(a.visits, exact(&row["visits"]), "{name} {}", a.square);
            assert_eq!(a.remaining, exact(&row["remaining"]), "{name} {}", a.square);
        }
    }
}

/// A budget tighter than the library's own limits refuses, from the estimate and before the
/// work, the questions the defaults answer; each refusal gives its estimate over its limit.
#[test]
fn a_tighter_budget_refuses_what_the_default_answers_with_the_estimate() {
    let mb = Game::builtin("milton-bradley").unwrap();
    assert_eq!(mb.limits(), Limits::default());
    assert!(mb.pgf().is_ok() && mb.squares().is_ok() && mb.shortest().is_ok());
    let refused = |limits: Limits, ask: &dyn Fn(&Game) -> Result<(), Error>| {
        let game = mb.clone().with_limits(limits);
        match ask(&game) {
            Err(Error::TooLarge(too)) => too,
            other => panic!("expected a refusal, got {other:?}"),
        }
    };
    let (bytes, seconds, work) = (500e6, 30.0, 3e10);
    // A microsecond: the generating function, the per-square answers, the moments and the
    // exact solve of the expectations each take more.
    let quick = Limits::new(bytes, 1e-6, work).unwrap();
    for (what, ask) in [
        ("generating function", &|g: &Game| {
            g.pgf().map(drop) as Result<(), Error>
        }),
        ("per-square answers", &|g: &Game| g.squares().map(drop)),
        ("moments", &|g: &Game| g.moments(2).map(drop)),
        ("exact solve", &|g: &Game| g.expect().map(drop)),
    ] as [(&str, &dyn Fn(&Game) -> Result<(), Error>); 4]
    {
        let too = refused(quick, ask);
        assert_eq!((too.what, too.unit), (what, Unit::Seconds), "{too}");
        assert!(too.estimate > too.limit && too.limit <= 1e-6, "{too:?}");
        assert!(
            too.to_string().contains("estimated before starting"),
            "{too}"
        );
    }
    // A kilobyte: the turn chain of 100 squares takes more.
    let too = refused(Limits::new(1e3, seconds, work).unwrap(), &|g| {
        g.shortest().map(drop)
    });
    assert_eq!((too.what, too.unit), ("turn chain", Unit::Bytes));
    assert!(too.estimate > 1e3, "{too:?}");
    assert!(
        too.to_string().contains("the limit is 1,000 bytes)"),
        "{too}"
    );
    // A thousand word operations: stepping the law to P(T > n) < 10^-12 takes more.
    let too = refused(Limits::new(bytes, seconds, 1e3).unwrap(), &|g| {
        g.distribution(&DistributionOptions::default()).map(drop)
    });
    assert_eq!(
        (too.what, too.unit),
        ("exact distribution", Unit::Operations)
    );
    assert!(too.estimate > 1e3, "{too:?}");
    // The limits hold in the games made from this one.
    let tight = mb.clone().with_limits(quick);
    assert_eq!(tight.reversed().map(|g| g.limits()).ok(), None::<Limits>);
    let stay = overshoot(ladders::board::Overshoot::Stay);
    assert_eq!(tight.with_rules(&stay).unwrap().limits(), quick);
    // A budget is positive and at most the library's own limits.
    assert!(Limits::new(0.0, seconds, work).is_err());
    assert!(Limits::new(bytes, 31.0, work).is_err());
    assert!(Limits::new(bytes, seconds, f64::NAN).is_err());
}

/// The library's own refusals keep the analysis's typed error, whose figures a caller that
/// knows the analyses can read.
#[test]
fn a_refusal_keeps_the_analysis_error_behind_it() {
    let big = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/boards/gen-10000-again.toml"
    );
    let Err(Error::TooLarge(too)) = Game::from_file(big).unwrap().shortest() else {
        panic!("refused")
    };
    let chain = too.detail().unwrap();
    let chain = chain
        .downcast_ref::<ladders::analysis::ChainTooBig>()
        .unwrap();
    assert_eq!(chain.size.bytes, too.estimate);
    assert_eq!(chain.to_string(), too.message);
}

/// The questions the command line answers on one board, through the façade alone, with the
/// command line's values on every built-in board.
#[test]
fn every_built_in_board_gets_the_command_lines_other_answers() {
    for b in BUILTIN_BOARDS {
        let game = Game::builtin(b.name).unwrap();
        if game.board().choice().is_some() {
            assert!(matches!(
                game.likeliest(None),
                Err(Error::NeedsPolicy { .. })
            ));
            continue;
        }
        let name = b.name;
        // expect --moments 3: the raw moments.
        let cli = json_of(&["expect", name, "--moments", "3", "--json"]);
        let answers = game.expectations(false, Some(3)).unwrap();
        match &answers.moments {
            Some(m) => {
                let raw = cli["moments"]["raw"].as_array().unwrap();
                for (j, value) in raw.iter().enumerate() {
                    assert_eq!(m.raw[j + 1], exact(value), "{name} E[T^{}]", j + 1);
                }
            }
            None => assert!(cli.get("moments").is_none(), "{name}"),
        }
        if let Some(score) = &answers.score {
            // The score's fractions are written whole as "n/d".
            let text = cli["score"]["expected"]["exact"].as_str().unwrap();
            assert_eq!(score.expected.to_string(), text, "{name}");
        }
        // shortest --likeliest: the likeliest game's probability.
        let cli = json_of(&["shortest", name, "--likeliest", "--json"]);
        if let Some(likely) = game.likeliest(None).unwrap() {
            let fewest = &cli["likeliest"]["fewest_turns"];
            assert_eq!(
                likely.fewest.probability,
                exact(&fewest["probability"]),
                "{name}"
            );
            assert_eq!(
                likely.fewest.turns.len() as u64,
                fewest["turns"].as_u64().unwrap()
            );
        }
        // squares --after 5: where the token is.
        let cli = json_of(&["squares", name, "--after", "5", "--json"]);
        let occupancy = game.squares_after(5).unwrap();
        let law: Vec<_> = occupancy.law.into_iter().map(|c| (c.square, c.p)).collect();
        let rows = cli["law"].as_array().unwrap();
        assert_eq!(law.len(), rows.len(), "{name}");
        for ((square, p), row) in law.iter().zip(rows) {
            assert_eq!(
                u64::from(*square),
                row["square"].as_u64().unwrap(),
                "{name}"
            );
            assert_eq!(*p, exact(&row["p"]), "{name} square {square}");
        }
        if !game.board().is_stateful() {
            the_summary_and_sensitivity_match(&game, name);
        }
        // check: the exact law a simulation is judged against has the command line's mean.
        match game.exact_law(0.1 / 2000.0) {
            Ok(law) => {
                let cli = json_of(&["check", name, "-n", "2000", "--seed", "1", "--json"]);
                let expected = cli["check"]["mean"]["expected"].as_f64();
                assert_eq!(Some(law.mean), expected, "{name}");
            }
            Err(e) => assert!(matches!(e, Error::Endless { .. }), "{name}: {e}"),
        }
    }
}

/// `analyze` and `sensitivity` (boards whose state is the square).
fn the_summary_and_sensitivity_match(game: &Game, name: &str) {
    let cli = json_of(&["analyze", name, "--json"]);
    let summary = game.summary().unwrap();
    if let Some(shortest) = &summary.extremes.shortest {
        let turns = cli["shortest"]["rolls"].as_array().unwrap().len();
        assert_eq!(shortest.turns, turns, "{name}");
    }
    if let Expectation::Finite(e) = &summary.expectation {
        assert_eq!(e.turns, exact(&cli["expected_turns"]), "{name}");
    }
    let cli = json_of(&["sensitivity", name, "--json"]);
    match game.sensitivity() {
        Ok(s) => {
            let removed = cli["removed"].as_array().unwrap();
            assert_eq!(s.removals.len(), removed.len(), "{name}");
            for (r, row) in s.removals.iter().zip(removed) {
                assert_eq!(
                    u64::from(r.jump.from),
                    row["from"].as_u64().unwrap(),
                    "{name}"
                );
                if let Some(turns) = &r.turns {
                    assert_eq!(*turns, exact(&row["turns"]), "{name} {}", r.jump.from);
                }
            }
        }
        Err(e) => assert!(matches!(e, Error::Unanswerable(_)), "{name}: {e}"),
    }
}

/// The overrides that change the overshoot rule only.
fn overshoot(rule: ladders::board::Overshoot) -> RuleOverrides {
    let mut overrides = RuleOverrides::default();
    overrides.overshoot = Some(rule);
    overrides
}

/// Asks the work to stop while `stop` is set.
#[derive(Default)]
struct Stop(std::sync::atomic::AtomicBool);

impl ladders::progress::Listener for Stop {
    fn begin(&self, _id: u64, _what: &str, _total: Option<u64>) {}
    fn advance(&self, _id: u64, _done: u64) {}
    fn end(&self, _id: u64) {}
    fn cancelled(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

#[test]
fn a_listener_that_asks_to_stop_ends_long_questions_with_cancelled_and_the_game_still_answers() {
    let stop = std::sync::Arc::new(Stop::default());
    let game = Game::builtin("milton-bradley")
        .unwrap()
        .with_progress(stop.clone());
    stop.0.store(true, std::sync::atomic::Ordering::SeqCst);
    // A billion games (hours) stop after the first chunk of games; the law stops at its first
    // turn.
    assert!(matches!(
        game.simulate(1_000_000_000, 1),
        Err(Error::Cancelled)
    ));
    let fifty = DistributionOptions::turns(50);
    assert!(matches!(game.distribution(&fifty), Err(Error::Cancelled)));
    assert!(matches!(
        Game::race(&[game.clone(), game.clone()], 12),
        Err(Error::Cancelled)
    ));
    assert_eq!(Error::Cancelled.to_string(), "cancelled");
    // Nothing is left behind: the same game answers once the listener lets it.
    stop.0.store(false, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(game.simulate(1000, 1).unwrap().games, 1000);
    assert_eq!(game.distribution(&fifty).unwrap().terms.len(), 50);
}
