//! The simulator's engine: games played roll by roll from the board and [`crate::game`], never
//! from the chain's compound moves, so that a simulation is an independent check of the chain.
//!
//! # One game loop
//!
//! [`play_game`] plays one game of one seat or several (a race, seats sharing a board), turn by
//! turn in seat order, for any [`Player`]: the rules cached per (square, throw) in the
//! [`Table`] (a board whose state is the square), the turn machine itself on a board that
//! changes during a game (`simulate::stateful`), or a player who follows a policy
//! (`simulate::policy`). A player plays whole turns and reports every roll ([`Roll`]); the loop
//! counts turns, rolls and scores, applies the knock-off rule, and stops a game at the cap.
//! [`simulate_one`] and [`simulate_seats`] run it over seeded chunks.
//!
//! # How it plays a board whose state is the square
//!
//! Every roll goes through the [`Table`] (generated from [`crate::game::turn_steps`]): a throw
//! drawn exactly by its integer weight among the dice's sums, its effect on the turn from
//! [`crate::game::throw_effect`] (the forfeit rule has no other definition), then the cell's
//! outcome, drawn by its integer weight when a chance square or a tile makes the roll random
//! ([`Table::play_roll`]). (The turn machine itself, `simulate::stateful`'s player, plays such
//! a board too, at about twice the instructions per roll: 409 against 210 on Milton Bradley
//! with `roll_again = 3`, so the table stays.)
//!
//! # How the standard game is fast
//!
//! One fair die, no chance square or tile, no forfeit: the lockstep loop of `simulate::fast`.
//! Its faces come in batches from one 64-bit word each (`simulate::stream::FaceBatch`), and the
//! table's player draws the very same faces for such a board ([`Table::play_roll`]), so
//! [`play_game`] on the lanes plays the very same games; a test holds them to it.
//!
//! # Reproducibility
//!
//! Games are cut into chunks of [`CHUNK_GAMES`]. On the table's single-player route chunk c's
//! lane l draws from its own stream, seeded from (seed, c, l), and lanes take the next game in a
//! fixed order; every other route plays chunk c's games one after another on the stream
//! `streams + c` of the seed (each route its own `streams`). Chunks are merged in their order,
//! so the result depends on the seed only, never on the thread count.

use super::fast::{self, LANES};
use super::race::RaceSimOptions;
use super::stateful::Scores;
use super::stream::Dice;
use super::table::{RollTally, Table};
use super::{finish, par_chunks, SimOptions, Simulation};
use crate::board::Square;

/// Games in one chunk, the unit of work (and of random streams).
pub const CHUNK_GAMES: u64 = 1 << 16;

/// Where a game can be replayed from: the state of its lane's dice when it began.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Turns the game took.
    pub turns: u64,
    /// Rolls the game took.
    pub rolls: u64,
    /// The chunk it was played in.
    pub chunk: u64,
    /// Its number within the chunk.
    pub game: u64,
    dice: Dice,
}

impl GameRecord {
    /// The order in which records are kept: fewer turns first, then the earlier game.
    fn key(&self) -> (u64, u64, u64) {
        (self.turns, self.chunk, self.game)
    }
}

/// The merged tallies of a simulation.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games that finished.
    pub games: u64,
    /// Games stopped at the turn cap.
    pub capped: u64,
    /// `turns[t]`: games that took t turns.
    pub turns: Vec<u64>,
    /// `rolls[r]`: games that took r rolls.
    pub rolls: Vec<u64>,
    /// Rolls over all games, capped ones included.
    pub total_rolls: u64,
    /// Snakes, ladders, squares climbed and slid over all games, capped ones included.
    pub totals: RollTally,
    /// The game with the fewest turns (the first one seen).
    pub shortest: Option<GameRecord>,
    /// The game with the most turns (the first one seen).
    pub longest: Option<GameRecord>,
}

impl Tally {
    /// Adds another chunk's tallies (chunks are merged in their order).
    pub fn merge(&mut self, other: Tally) {
        self.games += other.games;
        self.capped += other.capped;
        add_counts(&mut self.turns, &other.turns);
        add_counts(&mut self.rolls, &other.rolls);
        self.total_rolls += other.total_rolls;
        self.totals.add(&other.totals);
        if let Some(s) = other.shortest {
            if self.shortest.as_ref().is_none_or(|b| s.key() < b.key()) {
                self.shortest = Some(s);
            }
        }
        if let Some(l) = other.longest {
            let better = |b: &GameRecord| {
                (l.turns, u64::MAX - l.chunk, u64::MAX - l.game)
                    > (b.turns, u64::MAX - b.chunk, u64::MAX - b.game)
            };
            if self.longest.as_ref().is_none_or(better) {
                self.longest = Some(l);
            }
        }
    }

    /// Records a finished game of `turns` turns and `rolls` rolls, game `game` of chunk
    /// `chunk`, whose stream was `dice` when it began.
    #[inline(always)]
    pub(super) fn record(&mut self, turns: u64, rolls: u64, chunk: u64, game: u64, dice: &Dice) {
        self.games += 1;
        bump(&mut self.turns, turns);
        bump(&mut self.rolls, rolls);
        // Within a chunk: fewer turns first, then the earlier game (records come in any order).
        if self
            .shortest
            .as_ref()
            .is_none_or(|b| (turns, game) < (b.turns, b.game))
        {
            self.shortest = Some(GameRecord {
                turns,
                rolls,
                chunk,
                game,
                dice: dice.clone(),
            });
        }
        if self
            .longest
            .as_ref()
            .is_none_or(|b| turns > b.turns || (turns == b.turns && game < b.game))
        {
            self.longest = Some(GameRecord {
                turns,
                rolls,
                chunk,
                game,
                dice: dice.clone(),
            });
        }
    }
}

fn bump(counts: &mut Vec<u64>, at: u64) {
    let at = at as usize;
    if counts.len() <= at {
        counts.resize(at + 1, 0);
    }
    counts[at] += 1;
}

fn add_counts(into: &mut Vec<u64>, from: &[u64]) {
    if into.len() < from.len() {
        into.resize(from.len(), 0);
    }
    for (a, b) in into.iter_mut().zip(from) {
        *a += b;
    }
}

/// One lane: a game in progress.
#[derive(Clone, Debug)]
pub(super) struct Lane {
    pub(super) dice: Dice,
    /// The dice as they were when this game began (to replay it).
    at_start: Dice,
    /// Rolls of this game (in the fast loop: set when it ends).
    pub(super) rolls: u64,
    /// Completed turns of this game (in the fast loop: up to its last stop or flush).
    pub(super) turns: u64,
    game: u64,
}

impl Lane {
    fn new(dice: Dice, game: u64) -> Lane {
        Lane {
            at_start: dice.clone(),
            dice,
            rolls: 0,
            turns: 0,
            game,
        }
    }
}

/// Plays the games of chunk `chunk` (`games` of them) and returns their tallies.
pub fn run_chunk(table: &Table, seed: u64, chunk: u64, games: u64, max_turns: u64) -> Tally {
    play_chunk(table, seed, chunk, games, max_turns, table.fast().is_some())
}

/// [`run_chunk`] on the fast loop (`fast`, when the table has one) or [`play_game`] on the lanes.
fn play_chunk(
    table: &Table,
    seed: u64,
    chunk: u64,
    games: u64,
    max_turns: u64,
    fast: bool,
) -> Tally {
    let mut tally = Tally::default();
    if max_turns == 0 {
        // A cap of no turns stops every game before its first roll (as on every route).
        tally.capped = games;
        return tally;
    }
    let lanes_here = (LANES as u64).min(games);
    let mut lanes: Vec<Lane> = (0..lanes_here)
        .map(|l| Lane::new(Dice::new(seed, chunk * LANES as u64 + l), l))
        .collect();
    let mut started = lanes_here;
    let mut run = Run {
        table,
        tally: &mut tally,
        chunk,
        games,
        started: &mut started,
        max_turns,
    };
    match table.fast() {
        Some(play) if fast => fast::play(&mut run, play, &mut lanes),
        _ => play_lanes(&mut run, &mut lanes),
    }
    tally
}

/// Plays the chunk's games with every rule spelled out, one whole game at a time on each lane
/// ([`play_game`] with the table as the player). A lane takes the chunk's next game when the
/// game it plays ends, in the order of the fast loop's rounds (one roll per lane per round):
/// by the rolls its lane has played, then by lane; so games go to the same streams.
fn play_lanes(run: &mut Run, lanes: &mut [Lane]) {
    let mut room = Room::default();
    // Per lane: the round its game ends in and how it ends; `None` once the lane has no game.
    let mut ends: Vec<Option<(u64, Played)>> = vec![None; lanes.len()];
    let mut play = |lane: &mut Lane, run: &mut Run, clock: u64| {
        let totals = &mut run.tally.totals;
        let played = play_game::<_, false>(
            &[run.table],
            run.max_turns,
            &mut lane.dice,
            &mut room,
            &mut |_, _, r| totals.add(&r.tally),
        );
        Some((clock + played.rolls, played))
    };
    for (lane, end) in lanes.iter_mut().zip(&mut ends) {
        *end = play(lane, run, 0);
    }
    while let Some(l) = (0..lanes.len())
        .filter(|&l| ends[l].is_some())
        .min_by_key(|&l| ends[l].map(|(clock, _)| clock))
    {
        let (clock, played) = ends[l].expect("a lane with a game");
        let lane = &mut lanes[l];
        lane.rolls = played.rolls;
        ends[l] = match run.end_game(lane, Some(played.won.map(|(_, turns)| turns))) {
            true => play(lane, run, clock),
            false => None,
        };
    }
}

/// What a chunk's lanes share while it runs.
pub(super) struct Run<'a> {
    pub(super) table: &'a Table,
    pub(super) tally: &'a mut Tally,
    chunk: u64,
    games: u64,
    started: &'a mut u64,
    pub(super) max_turns: u64,
}

impl Run<'_> {
    /// Records the lane's game (`Some(None)`: capped) and starts its next one; false when the
    /// chunk has no game left.
    #[inline(always)]
    pub(super) fn end_game(&mut self, lane: &mut Lane, done: Option<Option<u64>>) -> bool {
        self.tally.total_rolls += lane.rolls;
        match done {
            Some(Some(t)) => {
                self.tally
                    .record(t, lane.rolls, self.chunk, lane.game, &lane.at_start)
            }
            _ => self.tally.capped += 1,
        }
        if *self.started == self.games {
            return false;
        }
        // The next game, in place (the lane keeps its dice).
        lane.at_start.clone_from(&lane.dice);
        lane.rolls = 0;
        lane.turns = 0;
        lane.game = *self.started;
        *self.started += 1;
        true
    }
}

/// One roll, as a [`Player`] reports it to the game loop.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Roll {
    /// The throw's sum (the face for one die).
    pub(crate) sum: u32,
    /// The square the roll began on.
    pub(crate) from: Square,
    /// The square it ended on (where the turn began, for a forfeit).
    pub(crate) to: Square,
    /// Snakes, ladders, squares climbed and slid (none for a forfeit).
    pub(crate) tally: RollTally,
    /// The points it scored.
    pub(crate) points: i64,
    /// The throw forfeited the turn (the K-th top throw in a row).
    pub(crate) forfeited: bool,
}

/// A seat's game as [`play_game`] plays it: its state between turns, and one whole turn.
pub(crate) trait Player: Sync {
    /// The seat's state between turns.
    type State: Clone;
    /// What seats sharing a board that changes have in common: what is used up and eaten (`()`
    /// for a board that does not change).
    type Shared: Default;
    /// Scratch space a turn reuses from turn to turn, so that a roll allocates nothing.
    type Scratch: Default;
    /// The state a game begins in.
    fn start(&self) -> Self::State;
    /// The square the token stands on.
    fn square(&self, state: &Self::State) -> Square;
    /// The token has finished.
    fn is_final(&self, state: &Self::State) -> bool;
    /// Plays one whole turn from the non-final `state`, calling `seen` after every roll;
    /// returns the state the seat's next turn begins in.
    fn turn(
        &self,
        state: Self::State,
        dice: &mut Dice,
        scratch: &mut Self::Scratch,
        seen: &mut impl FnMut(&Roll),
    ) -> Self::State;
    /// What the seat in `state` leaves to the next mover (nothing by default).
    fn shared(&self, _state: &Self::State) -> Self::Shared {
        Self::Shared::default()
    }
    /// The state the seat to move plays from: its own state `mover` with what the previous
    /// mover left, `shared` (seats sharing a board that changes take over what was used up and
    /// eaten). Unchanged by default.
    fn hand_over(&self, mover: Self::State, _shared: &Self::Shared) -> Self::State {
        mover
    }
}

/// How one game ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played {
    /// The seat that won (from 0) and the round it won in (from 1: for one seat, the turns the
    /// game took); `None` when the game was stopped at the cap.
    pub(crate) won: Option<(usize, u64)>,
    /// Rolls of the game.
    pub(crate) rolls: u64,
    /// Tokens sent back to the start by a knock-off.
    pub(crate) knock_offs: u64,
}

/// What [`play_game`] keeps from game to game: the player's scratch space, the seats' states
/// and their scores in the last game.
pub(crate) struct Room<P: Player> {
    scratch: P::Scratch,
    states: Vec<P::State>,
    /// Every seat's points in the last game played.
    pub(crate) scores: Vec<i64>,
}

impl<P: Player> Default for Room<P> {
    fn default() -> Room<P> {
        Room {
            scratch: P::Scratch::default(),
            states: Vec::new(),
            scores: Vec::new(),
        }
    }
}

/// Plays one game of `seats` (in playing order; one seat for a single player) with `dice`:
/// seat 1 plays a whole turn, then seat 2, ...; the first token to finish wins, and a game
/// still going after `max_rounds` rounds is stopped. With `KNOCK_OFF`, a roll *lands* on the
/// square its move ends on: a roll that leaves the token where it began, one to square 0 and a
/// forfeit knock nobody off; every other seat on the landing square goes back to its start at
/// once, so the rest of a roll-again turn sees it. `seen(seat, round, roll)` is called after
/// every roll (rounds from 0).
///
/// Everything here is monomorphised and inlined into the caller's chunk loop (the knock-off
/// rule a constant, the callback generic), so that what a caller does not read of a roll (the
/// record `seen` ignores, the knock-off test without the rule) is never computed.
#[inline(always)]
pub(crate) fn play_game<P: Player, const KNOCK_OFF: bool>(
    seats: &[&P],
    max_rounds: u64,
    dice: &mut Dice,
    room: &mut Room<P>,
    seen: &mut impl FnMut(usize, u64, &Roll),
) -> Played {
    let Room {
        scratch,
        states,
        scores,
    } = room;
    states.clear();
    states.extend(seats.iter().map(|p| p.start()));
    scores.clear();
    scores.resize(seats.len(), 0);
    let (mut rolls, mut knock_offs) = (0, 0);
    // What the last mover left to the next (at first: what the first seat starts with).
    let mut shared = seats
        .first()
        .map_or_else(P::Shared::default, |p| p.shared(&states[0]));
    for round in 0..max_rounds {
        for (s, &seat) in seats.iter().enumerate() {
            let mover = seat.hand_over(states[s].clone(), &shared);
            // Only the mover scores in its turn: its points are added once the turn is over.
            let mut points = 0;
            let next = seat.turn(mover, dice, scratch, &mut |roll| {
                rolls += 1;
                points += roll.points;
                if KNOCK_OFF && roll.to != roll.from && roll.to != 0 && !roll.forfeited {
                    for (j, (q, other)) in states.iter_mut().zip(seats).enumerate() {
                        if j != s && other.square(q) == roll.to {
                            *q = other.start();
                            knock_offs += 1;
                        }
                    }
                }
                seen(s, round, roll);
            });
            scores[s] += points;
            if seat.is_final(&next) {
                return Played {
                    won: Some((s, round + 1)),
                    rolls,
                    knock_offs,
                };
            }
            shared = seat.shared(&next);
            states[s] = next;
        }
    }
    Played {
        won: None,
        rolls,
        knock_offs,
    }
}

/// Plays `options.games` games of one `player` with rayon's current thread pool, chunk c's
/// games one after another on the stream `streams + c` of the seed; `progress` is called with
/// the number of games just finished after each chunk. Returns the simulation (no trapping
/// squares are searched, no score reported) and the final scores of the finished games.
pub(crate) fn simulate_one<P: Player>(
    player: &P,
    options: &SimOptions,
    streams: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> (Simulation, Scores) {
    let (tally, scores) = par_chunks(
        options.games,
        progress,
        || (Tally::default(), Scores::default()),
        |acc, (t, s)| {
            acc.0.merge(t);
            acc.1.merge(s);
        },
        |chunk, games| {
            let mut dice = Dice::new(options.seed, streams + chunk);
            let mut tally = Tally::default();
            let mut scores = Scores::default();
            let mut room = Room::default();
            for g in 0..games {
                let at_start = dice.clone();
                let totals = &mut tally.totals;
                let played = play_game::<_, false>(
                    &[player],
                    options.max_turns,
                    &mut dice,
                    &mut room,
                    &mut |_, _, r| totals.add(&r.tally),
                );
                tally.total_rolls += played.rolls;
                match played.won {
                    Some((_, turns)) => {
                        tally.record(turns, played.rolls, chunk, g, &at_start);
                        scores.add(room.scores[0]);
                    }
                    None => tally.capped += 1,
                }
            }
            (tally, scores)
        },
    );
    let replayed = |r: &GameRecord| replay_one(player, r, options.max_turns);
    (finish(options, tally, &replayed, Vec::new()), scores)
}

/// Replays a recorded game of one player: its throws turn by turn (an empty list for a turn
/// without a roll). On the table's route the replay plays the spelled-out rules, so it also
/// checks the fast loop that recorded the game.
pub(super) fn replay_one<P: Player>(
    player: &P,
    record: &GameRecord,
    max_turns: u64,
) -> Vec<Vec<u32>> {
    let mut dice = record.dice.clone();
    let mut turns: Vec<Vec<u32>> = Vec::new();
    let played = play_game::<_, false>(
        &[player],
        max_turns,
        &mut dice,
        &mut Room::default(),
        &mut |_, round, r| {
            let t = round as usize;
            if turns.len() <= t {
                turns.resize(t + 1, Vec::new());
            }
            turns[t].push(r.sum);
        },
    );
    turns.resize(
        played.won.map_or(max_turns, |(_, t)| t) as usize,
        Vec::new(),
    );
    turns
}

/// A race's counts.
#[derive(Clone, Debug)]
pub(crate) struct RaceTally {
    /// `wins[s]`: games won by seat s + 1.
    pub(crate) wins: Vec<u64>,
    /// Games stopped at the round cap.
    pub(crate) capped: u64,
    /// `rounds[r]`: games won in round r.
    pub(crate) rounds: Vec<u64>,
    /// Rolls over all games.
    pub(crate) rolls: u64,
    /// Tokens sent back by a knock-off over all games.
    pub(crate) knock_offs: u64,
    /// Every seat's final scores over the finished games.
    pub(crate) scores: Vec<Scores>,
}

impl RaceTally {
    fn new(seats: usize) -> RaceTally {
        RaceTally {
            wins: vec![0; seats],
            capped: 0,
            rounds: Vec::new(),
            rolls: 0,
            knock_offs: 0,
            scores: vec![Scores::default(); seats],
        }
    }

    fn merge(&mut self, other: RaceTally) {
        for (a, b) in self.wins.iter_mut().zip(&other.wins) {
            *a += b;
        }
        self.capped += other.capped;
        add_counts(&mut self.rounds, &other.rounds);
        self.rolls += other.rolls;
        self.knock_offs += other.knock_offs;
        for (a, b) in self.scores.iter_mut().zip(other.scores) {
            a.merge(b);
        }
    }
}

/// Plays `options.games` races of `seats` (in playing order) with rayon's current thread pool,
/// chunk c's games one after another on the stream `streams + c` of the seed; `progress` is
/// called with the number of games just finished after each chunk.
pub(crate) fn simulate_seats<P: Player>(
    seats: &[&P],
    options: &RaceSimOptions,
    streams: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> RaceTally {
    par_chunks(
        options.games,
        progress,
        || RaceTally::new(seats.len()),
        RaceTally::merge,
        |c, games| {
            let mut acc = RaceTally::new(seats.len());
            let mut dice = Dice::new(options.seed, streams + c);
            let mut room = Room::default();
            for _ in 0..games {
                let (rounds, dice, room) = (options.max_rounds, &mut dice, &mut room);
                let played = match options.knock_off {
                    true => play_game::<_, true>(seats, rounds, dice, room, &mut |_, _, _| {}),
                    false => play_game::<_, false>(seats, rounds, dice, room, &mut |_, _, _| {}),
                };
                acc.rolls += played.rolls;
                acc.knock_offs += played.knock_offs;
                match played.won {
                    Some((s, round)) => {
                        acc.wins[s] += 1;
                        bump(&mut acc.rounds, round);
                        for (scores, &p) in acc.scores.iter_mut().zip(&room.scores) {
                            scores.add(p);
                        }
                    }
                    None => acc.capped += 1,
                }
            }
            acc
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;

    fn same(a: &Tally, b: &Tally) {
        assert_eq!(a.games, b.games);
        assert_eq!(a.capped, b.capped);
        assert_eq!(a.turns, b.turns);
        assert_eq!(a.rolls, b.rolls);
        assert_eq!(a.total_rolls, b.total_rolls);
        assert_eq!(a.totals, b.totals);
        let key = |r: &Option<GameRecord>| r.as_ref().map(|r| (r.turns, r.rolls, r.game));
        assert_eq!(key(&a.shortest), key(&b.shortest));
        assert_eq!(key(&a.longest), key(&b.longest));
    }

    #[test]
    fn the_lockstep_loop_plays_exactly_the_games_of_the_spelled_out_rules() {
        // The fast loop (lane words, counts of turns, stops, flushes) against general_step,
        // which follows game::turn_step's outcome roll by roll: same streams, same faces, so the
        // very same games, and the same records.
        for (name, max_turns) in [
            ("efi", 10_000),
            ("milton-bradley", 10_000),
            ("efi", 12),
            ("efi", 1),
            ("efi", 0),
        ] {
            let b = builtin(name).unwrap();
            let fast = Table::new(&b);
            let mut tight = fast.clone();
            // A flush every 2 rounds and a stop every 2 turns, to exercise both.
            tight.fast = Some(fast.fast().unwrap().with_spare(&fast, 1));
            for games in [5_000, 3] {
                let a = run_chunk(&fast, 9, 3, games, max_turns);
                same(&a, &run_chunk(&tight, 9, 3, games, max_turns));
                same(&a, &play_chunk(&fast, 9, 3, games, max_turns, false));
                assert_eq!(a.games + a.capped, games);
                if max_turns == 12 && games > 3 {
                    assert!(a.capped > 0, "efi games often last more than 12 turns");
                }
            }
        }
    }
}
