//! Work estimated before it starts, or shown as it goes (issue 40, items 6 and 9): each board
//! here aborted, hung or was refused by an estimate far from what the code does, on the main of
//! 2026-11-29. Each command runs under a limit of CPU seconds (`ulimit -t`), so a regression is
//! killed in seconds rather than running for minutes.

#![cfg(unix)]

use std::sync::{Arc, Mutex};

use predicates::prelude::*;

use crate::hostile::hostile_board;
use crate::limits_rules::within_cpu_seconds;

/// Item 9: a 17-square board with a loaded die whose top face rolls again, nearly trapped
/// (expected turns about 668,217). Its tail law's rate bound came out above 1, and writing
/// its C (about 10^-41,876) to 17 digits took 10^(2^32): `distribution --turns 5` ran for
/// minutes while `expect` answered at once. Now no tail law is stated and the terms come at
/// once.
#[test]
fn the_first_turns_of_a_nearly_trapped_loaded_die_come_at_once() {
    let board = hostile_board("loaded_again_17.toml");
    within_cpu_seconds(10, &["distribution", &board, "--turns", "5"])
        .assert()
        .success()
        .stdout(predicate::str::contains("P(T > 5)         0.998992025084"));
}

/// Every stage's count as the listener heard it: `(what, total, most done)`.
#[derive(Default)]
struct Heard(Mutex<Vec<(String, Option<u64>, u64)>>);

struct Recorder(Arc<Heard>);

impl ladders::progress::Listener for Recorder {
    fn begin(&self, id: u64, what: &str, total: Option<u64>) {
        let mut stages = self.0 .0.lock().unwrap();
        let id = id as usize;
        if stages.len() <= id {
            stages.resize(id + 1, (String::new(), None, 0));
        }
        stages[id] = (what.to_string(), total, 0);
    }
    fn advance(&self, id: u64, done: u64) {
        let mut stages = self.0 .0.lock().unwrap();
        if let Some(stage) = stages.get_mut(id as usize) {
            stage.2 = stage.2.max(done);
        }
    }
    fn end(&self, _id: u64) {}
}

/// Item 9: the bar of `distribution --turns 5` on that board read "100% 1,443/5 steps, 0s left"
/// while the stepping went on looking for the tail law: the terms' stage counted the turns past
/// its total. Now the search for the law is its own stage, counted against the most turns it
/// watches.
#[test]
fn no_stage_counts_past_its_total() {
    let board =
        ladders::board::Board::load(std::path::Path::new(&hostile_board("loaded_again_17.toml")))
            .unwrap();
    let heard = Arc::new(Heard::default());
    let options = ladders::analysis::DistributionOptions::turns(5);
    ladders::progress::listening(Arc::new(Recorder(heard.clone())), || {
        ladders::internals::board_shown_distribution(&board, &options, 12, false).unwrap()
    });
    let stages = heard.0.lock().unwrap();
    assert!(stages.iter().any(|s| s.0 == "stepping certified bounds"));
    for (what, total, done) in stages.iter() {
        if let Some(total) = total {
            assert!(done <= total, "{what}: {done} of {total}");
        }
    }
}

/// Item 6: the law of the final score over 13 point squares was solved with one dense
/// right-hand side per set eaten (`expect` aborted at 2 GiB; 21.9 GB without a limit); over 12,
/// by inclusion and exclusion over 4,096 sets (past a minute). Both are refused before they
/// start, naming `expect --float`, which answers.
#[test]
fn the_score_law_over_many_point_squares_is_refused_before_it_starts() {
    for (file, why) in [
        (
            "points_13.toml",
            "needs the chain that remembers the squares eaten",
        ),
        ("points_12.toml", "would take about"),
    ] {
        let board = hostile_board(file);
        within_cpu_seconds(10, &["expect", &board])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "the law of the final score over 1",
            ))
            .stderr(predicate::str::contains(why))
            .stderr(predicate::str::contains("`ladders expect --float`"));
        within_cpu_seconds(10, &["expect", &board, "--float"])
            .assert()
            .success();
    }
}

/// Item 9: on 51 squares with ten point squares, random tiles and extra turns, `expect` took
/// 45 s of CPU: the final score's 1,024 probabilities were differenced and summed as
/// `BigRational`s, each partial sum reduced by the binary gcd, and the estimate (fitted on
/// boards without tiles) let it through. Now they are differenced in integers over one
/// denominator and each score reduced once (2.9 s). The range is worked by hand: the negative
/// points sum to -2 - 5 - 1 - 4 - 3 = -15, the positive to 3 + 4 + 6 + 2 + 5 = 20; the
/// probabilities are checked against the full chain's solve in `analysis::stateful`'s tests.
#[test]
fn the_score_over_ten_point_squares_with_tiles_answers_within_seconds() {
    within_cpu_seconds(
        15,
        &["expect", &hostile_board("apples_tiles_extra_51.toml")],
    )
    .assert()
    .success()
    .stdout(predicate::str::contains("Expected score   1."))
    .stdout(predicate::str::contains("Score range      -15 to 20\n"));
}

/// Item 6: `sensitivity` on 64 one-use snakes was estimated by its 220 squares (0.05 s) and ran
/// past a minute and 1.3 GB; it is now estimated as 64 solves of the chain `expect` solves
/// (11,773 states) and refused.
#[test]
fn sensitivity_on_a_board_that_changes_is_estimated_by_its_chain() {
    let board = hostile_board("once_64.toml");
    within_cpu_seconds(10, &["sensitivity", &board])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "removing each of the 64 snakes and ladders",
        ))
        .stderr(predicate::str::contains("would take about"));
}

/// Item 9, the reverse: `expect` refused 12 one-use snakes as "about 225 s" (2.5e-3 s for each
/// of its 90,107 states) while `sensitivity` solved the same chain 13 times in 6 s. Estimated
/// by its layers (4,096 of about 22 states), it answers.
#[test]
fn twelve_one_use_snakes_are_answered_as_sensitivity_answers_them() {
    let board = hostile_board("once_12.toml");
    within_cpu_seconds(20, &["expect", &board])
        .assert()
        .success()
        .stdout(predicate::str::contains("Expected turns"));
}

/// Item 6: `race seed-003 --players 3 --state-limit 18446744073709551615` passed the check of the
/// joint chain's bound (1.6e9 states) against the limit and aborted at 2 GiB after 20 s; the
/// bound's memory is now checked too, whatever the limit allows.
#[test]
fn a_shared_race_past_the_memory_is_refused_whatever_the_state_limit() {
    within_cpu_seconds(
        10,
        &[
            "race",
            "seed-003",
            "--players",
            "3",
            "--state-limit",
            "18446744073709551615",
        ],
    )
    .assert()
    .code(2)
    .stderr(predicate::str::contains("whatever the state limit allows"))
    .stderr(predicate::str::contains("`ladders simulate --players 3`"));
}

/// Item 6: with an extra-turn square on every square a turn passes every square ahead, whose
/// visits were solved as one dense system (3,000 squares: 577 MB; 10,000 aborted at 2 GiB).
/// The count sees the largest turn and refuses it at once; `simulate` answers.
#[test]
fn a_turn_through_every_square_is_refused_by_its_count() {
    let board = hostile_board("extra_turn_everywhere_10000.toml");
    within_cpu_seconds(10, &["expect", &board])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a turn can pass 10,000 in-turn states",
        ))
        .stderr(predicate::str::contains("`ladders simulate`"));
    within_cpu_seconds(10, &["simulate", &board, "-n", "10"])
        .assert()
        .success();
}

/// Item 6: the same refusal said "would hold more than 7 states and more than 6 transitions in
/// more than 6,401 MB": the count stops inside the first turn, so its states and transitions
/// mean nothing. The message now names the turn and its memory only.
#[test]
fn a_turn_past_the_memory_is_named_by_its_turn_not_by_the_states_counted_before_it() {
    let board = hostile_board("extra_turn_everywhere_10000.toml");
    within_cpu_seconds(10, &["expect", &board])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the turn chain of this game would need more than 6,401 MB of memory (the limit is \
             500 MB; counted before building it): a turn can pass 10,000 in-turn states",
        ))
        .stderr(predicate::str::contains(" transitions").not());
}
