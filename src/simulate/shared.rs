//! Several players sharing one board that changes during a game (seed 003's two players): a
//! ladder one seat breaks is broken for every seat, an apple one seat eats is gone for all.
//!
//! # The game played
//!
//! Seats take whole turns in seat order, as in [`super::race`]; the first to reach the finish
//! wins and the game's length in rounds is the winner's number of turns. Each seat keeps its own
//! square and its own owed turn (a lost-turn square costs only the seat that reached it); what is
//! used up and eaten ([`crate::game::Progress`]) is one for the whole table. The game loop is the
//! engine's ([`super::engine::play_game`]) with one [`Machine`] for every seat: a turn is
//! `stateful::play_turn` on [`crate::game::StatefulBoard`] from the mover's square and owed turn
//! with the table's progress ([`super::engine::Player::hand_over`]), and the progress it ends
//! with becomes the table's: so the rules (the
//! roll, the forfeit that keeps what was used up, the skipped turn, extra rolls) have their one
//! definition in [`crate::game`] and [`crate::game::StatefulBoard`], and an apple scores only
//! for the seat whose move first ends on it. Every seat's final score is recorded for finished
//! games.
//!
//! # Reproducibility
//!
//! Chunk c of [`CHUNK_GAMES`](super::engine::CHUNK_GAMES) games draws from its own stream of the
//! seed (apart from every other simulator's), chunks are merged by sums: the result depends on
//! the seed only, never on the thread count.

use super::engine::simulate_seats;
use super::race::{RaceSimOptions, RaceSimulation};
use super::stateful::Machine;
use super::Histogram;
use crate::board::Board;

/// Streams of the shared simulator's chunks are numbered from here (the plain engine uses small
/// numbers, the single-player stateful one `2^61`, races `2^62`).
const SHARED_STREAMS: u64 = (1 << 61) + (1 << 60);

/// Plays `options.games` games of `players` seats sharing the stateful `board` with rayon's
/// current thread pool (`options.knock_off` must be false); `progress` is called with the number
/// of games just finished after each chunk. The result's `scores` holds every seat's final
/// scores (finished games) when the board has point squares (`tests/it/facade_policy.rs`
/// plays it through `Game::race_simulation`).
pub fn simulate_shared(
    board: &Board,
    players: usize,
    options: &RaceSimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> RaceSimulation {
    let machine = Machine::new(board);
    let options = RaceSimOptions {
        knock_off: false,
        ..*options
    };
    let tally = simulate_seats(&vec![&machine; players], &options, SHARED_STREAMS, progress);
    RaceSimulation {
        seed: options.seed,
        max_rounds: options.max_rounds,
        knock_off: false,
        wins: tally.wins,
        capped: tally.capped,
        rounds: Histogram::new(tally.rounds),
        rolls: tally.rolls,
        knock_offs: 0,
        scores: (!board.point_squares().is_empty()).then_some(tally.scores),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{board, on_one_thread_and_on_two, EVERY_STATE_RULE};
    use std::collections::BTreeMap;

    fn options(games: u64, seed: u64) -> RaceSimOptions {
        RaceSimOptions {
            games,
            seed,
            max_rounds: 10_000,
            knock_off: false,
        }
    }

    #[test]
    fn an_apple_scores_only_for_the_seat_that_eats_it() {
        // Worked by hand: size 2, a coin, allow, the apple on 1 worth 5. Seat 1's first roll:
        // a 2 wins at once, a 1 lands on 1 and eats the apple. Seat 2 plays only after seat 1
        // rolled a 1, so the apple is gone whenever seat 2 lands on 1: seat 2 never scores, seat
        // 1 scores 5 with probability 1/2. (Unshared, seat 2 would score 5 in a quarter of
        // the games.)
        let b = board("size = 2\npoints = [[1, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        let n = 20_000;
        let sim = simulate_shared(&b, 2, &options(n, 4), &|_| {});
        let scores = sim.scores.unwrap();
        assert_eq!(scores[1].counts, BTreeMap::from([(0, n)]), "{scores:?}");
        let eaten = scores[0].counts[&5];
        assert_eq!(eaten + scores[0].counts[&0], n);
        let sd = (n as f64 * 0.25).sqrt();
        assert!((eaten as f64 - n as f64 / 2.0).abs() < 5.0 * sd, "{eaten}");
    }

    #[test]
    fn a_ladder_broken_by_one_seat_is_broken_for_the_other() {
        // Worked by hand: size 5, a coin, stay, the one-use ladder 1 -> 4. Round 1: seat 1
        // climbs to 4 with a 1 (breaking the ladder) or goes to 2; seat 2 climbs to 4 with a 1
        // only if seat 1 did not break it, else goes to 1 or 2. Nobody finishes in round 1 (5 is
        // reached only from 4 with a 1, or from 3). Round 2 ends the game when seat 1 is on 4
        // and rolls a 1 (1/2 * 1/2 = 1/4), or when seat 1 went to 2 and seat 2 climbed and rolls
        // a 1 (1/2 * 1/2 * 1/2 = 1/8): P(2 rounds) = 3/8. Were the ladder not shared, seat 2
        // would climb whatever seat 1 did: 1/4 + 3/4 * 1/4 = 7/16, 40 standard errors away.
        let b = board("size = 5\nladders = [[1, 4]]\nonce = [1]\n[rules]\ndie = 2\n");
        let n = 100_000;
        let sim = simulate_shared(&b, 2, &options(n, 9), &|_| {});
        let rounds = sim.rounds.counts();
        assert_eq!(rounds[1], 0);
        let p = 3.0 / 8.0;
        let sd = (n as f64 * p * (1.0 - p)).sqrt();
        assert!(
            (rounds[2] as f64 - n as f64 * p).abs() < 5.0 * sd,
            "{}",
            rounds[2]
        );
        assert_eq!(sim.scores, None, "no point squares, no scores");
    }

    #[test]
    fn the_same_seed_gives_the_same_simulation_on_one_thread_and_on_two() {
        let b = board(EVERY_STATE_RULE);
        let o = options(3 * crate::simulate::engine::CHUNK_GAMES / 2 + 7, 11);
        let (one, two) = on_one_thread_and_on_two(|| simulate_shared(&b, 3, &o, &|_| {}));
        assert_eq!(one, two);
        assert_eq!(one.wins.len(), 3);
        assert_eq!(one.games(), o.games);
    }
}
