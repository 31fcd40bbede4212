//! Games played by a player who follows a policy ([`crate::choice`]), roll by roll from the
//! rules, seeded: the simulation `simulate --policy` and `check --policy` compare with the exact
//! chain.
//!
//! # How a turn is played
//!
//! The throw is drawn exactly by its integer weight (`Weighted` over `Dice::uniform`): the
//! die the policy picks (`choose_die`), the board's dice (`coin`), or each of the `pick` dice
//! one by one; the roll's outcome is drawn by its weight from [`crate::game::roll`]; with the
//! coin, the policy is asked where the roll put the token and a flip draws heads or tails, then
//! the outcome of [`crate::game::nudge`]; with `decline`, the roll's outcome is drawn from
//! [`crate::game::roll_deciding`] with the policy's answers. The policy is looked up by what the player sees (the
//! [`NodeKey`]); the chain's compound turns are never used, so a simulation checks them.
//!
//! Games are cut into chunks of [`CHUNK_GAMES`], each on its own stream of the seed, merged in
//! order: the result depends on the seed only, not on the thread count.

use std::collections::HashMap;

use rayon::prelude::*;

use super::engine::CHUNK_GAMES;
use super::stream::{Dice, Weighted};
use super::{GameSeen, Histogram, SimOptions, Simulation};
use crate::board::{Board, ChoiceRule, Dice as BoardDice, Square};
use crate::choice::{Choice, NodeKey, PolicyModel};
use crate::game::{nudge, roll, roll_deciding, RollLaw, RollOutcome};

/// A pick among a roll's outcomes.
struct Law {
    pick: Weighted,
    outcomes: Vec<RollOutcome>,
}

impl Law {
    fn new(law: &RollLaw) -> Law {
        Law {
            pick: Weighted::new(law.branches().iter().map(|(w, _)| *w)),
            outcomes: law.branches().iter().map(|(_, o)| *o).collect(),
        }
    }

    fn draw(&self, dice: &mut Dice) -> RollOutcome {
        self.outcomes[self.pick.pick(dice)]
    }
}

/// A pick among the throws of some dice: (weights, sums).
struct Throws {
    pick: Weighted,
    sums: Vec<u32>,
}

impl Throws {
    fn new(d: &BoardDice) -> Throws {
        Throws {
            pick: Weighted::new(d.throws().iter().map(|t| t.weight)),
            sums: d.throws().iter().map(|t| t.sum).collect(),
        }
    }

    fn draw(&self, dice: &mut Dice) -> u32 {
        self.sums[self.pick.pick(dice)]
    }
}

/// Everything a game needs, drawn up once.
struct Player<'a> {
    board: &'a Board,
    model: &'a PolicyModel<'a>,
    /// The throws of each die of `choose_die` (by faces), or of the board's dice under the key 0.
    throws: HashMap<u32, Throws>,
    /// The faces of one of the board's dice (for `pick`).
    face: Weighted,
    rolls: HashMap<(Square, u32), Law>,
    nudges: HashMap<(Square, bool), Law>,
}

impl<'a> Player<'a> {
    fn new(board: &'a Board, model: &'a PolicyModel<'a>) -> Player<'a> {
        let mut throws = HashMap::from([(0, Throws::new(board.dice()))]);
        if let ChoiceRule::ChooseDie(dice) = &model.game().rule {
            for d in dice {
                throws.insert(d.faces(), Throws::new(d));
            }
        }
        let max_sum = throws
            .values()
            .flat_map(|t| t.sums.iter().copied())
            .max()
            .unwrap_or(1);
        let mut rolls = HashMap::new();
        let mut nudges = HashMap::new();
        for &s in &model.game().squares {
            for v in 1..=max_sum {
                let law = match model.game().rule {
                    ChoiceRule::Decline(_) => roll_deciding(board, s, v, |x| model.takes(x)),
                    _ => roll(board, s, v),
                };
                rolls.insert((s, v), Law::new(&law));
            }
            if model.game().rule == ChoiceRule::Coin {
                for heads in [true, false] {
                    nudges.insert((s, heads), Law::new(&nudge(board, s, heads)));
                }
            }
        }
        Player {
            board,
            model,
            throws,
            face: Weighted::new(board.dice().weights().iter().copied()),
            rolls,
            nudges,
        }
    }

    /// One turn from `s`: the outcome and the faces moved.
    fn turn(&self, s: Square, dice: &mut Dice, faces: &mut Vec<u32>) -> (Square, [u32; 4]) {
        let roll = |v: u32, dice: &mut Dice| self.rolls[&(s, v)].draw(dice);
        let o = match &self.model.game().rule {
            ChoiceRule::ChooseDie(_) => {
                let Choice::Die(f) = self.model.choice(&NodeKey::Before(s)) else {
                    unreachable!("choose_die chooses dice")
                };
                let v = self.throws[&f].draw(dice);
                faces.push(v);
                roll(v, dice)
            }
            ChoiceRule::ChooseFace => {
                let Choice::Face(v) = self.model.choice(&NodeKey::Before(s)) else {
                    unreachable!("choose_face chooses faces")
                };
                faces.push(v);
                roll(v, dice)
            }
            ChoiceRule::Pick(k) => {
                let mut shown: Vec<u32> =
                    (0..*k).map(|_| self.face.pick(dice) as u32 + 1).collect();
                shown.sort_unstable();
                shown.dedup();
                let Choice::Face(v) = self.model.choice(&NodeKey::Shown(s, shown)) else {
                    unreachable!("pick chooses faces")
                };
                faces.push(v);
                roll(v, dice)
            }
            ChoiceRule::Decline(_) => {
                let v = self.throws[&0].draw(dice);
                faces.push(v);
                roll(v, dice)
            }
            ChoiceRule::Coin => {
                let v = self.throws[&0].draw(dice);
                faces.push(v);
                let o = roll(v, dice);
                if o.to == self.board.size()
                    || self.model.choice(&NodeKey::After(o.to)) == Choice::Keep
                {
                    o
                } else {
                    let heads = dice.uniform(2, 0) == 0;
                    let f = self.nudges[&(o.to, heads)].draw(dice);
                    let sum = |a: u32, b: u32| a + b;
                    return (
                        f.to,
                        [
                            sum(o.snakes, f.snakes),
                            sum(o.ladders, f.ladders),
                            sum(o.climbed, f.climbed),
                            sum(o.slid, f.slid),
                        ],
                    );
                }
            }
        };
        (o.to, [o.snakes, o.ladders, o.climbed, o.slid])
    }
}

/// The tallies of some games.
#[derive(Default)]
struct Tally {
    games: u64,
    capped: u64,
    turns: Vec<u64>,
    took: [u64; 4],
    shortest: Option<(u64, Vec<u32>)>,
    longest: Option<u64>,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.games += other.games;
        self.capped += other.capped;
        if self.turns.len() < other.turns.len() {
            self.turns.resize(other.turns.len(), 0);
        }
        for (a, b) in self.turns.iter_mut().zip(other.turns) {
            *a += b;
        }
        for (a, b) in self.took.iter_mut().zip(other.took) {
            *a += b;
        }
        // Chunks are merged in order, so the first shortest and longest game are kept.
        if let Some(s) = other.shortest {
            if self.shortest.as_ref().is_none_or(|(t, _)| s.0 < *t) {
                self.shortest = Some(s);
            }
        }
        if other.longest > self.longest {
            self.longest = other.longest;
        }
    }
}

fn run_chunk(player: &Player, seed: u64, chunk: u64, games: u64, max_turns: u64) -> Tally {
    let mut dice = Dice::new(seed, chunk);
    let mut tally = Tally::default();
    let (start, n) = (player.board.rules().start, player.board.size());
    let mut faces = Vec::new();
    for _ in 0..games {
        faces.clear();
        let (mut s, mut turns) = (start, 0u64);
        while s != n && turns < max_turns {
            let (to, took) = player.turn(s, &mut dice, &mut faces);
            for (a, b) in tally.took.iter_mut().zip(took) {
                *a += u64::from(b);
            }
            s = to;
            turns += 1;
        }
        if s != n {
            tally.capped += 1;
            continue;
        }
        tally.games += 1;
        let t = turns as usize;
        if tally.turns.len() <= t {
            tally.turns.resize(t + 1, 0);
        }
        tally.turns[t] += 1;
        if tally
            .shortest
            .as_ref()
            .is_none_or(|(best, _)| turns < *best)
        {
            tally.shortest = Some((turns, faces.clone()));
        }
        tally.longest = tally.longest.max(Some(turns));
    }
    tally
}

/// Plays `options.games` games of the policy of `model` on `board` (one roll per turn) with
/// rayon's current thread pool; `progress` is called with the games of each finished chunk.
pub fn simulate_policy(
    board: &Board,
    model: &PolicyModel<'_>,
    options: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Simulation {
    let player = Player::new(board, model);
    let chunks = options.games.div_ceil(CHUNK_GAMES);
    let tally = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let games = CHUNK_GAMES.min(options.games - c * CHUNK_GAMES);
            let t = run_chunk(&player, options.seed, c, games, options.max_turns);
            progress(games);
            t
        })
        .collect::<Vec<_>>()
        .into_iter()
        .fold(Tally::default(), |mut a, b| {
            a.merge(b);
            a
        });
    let turns = Histogram::new(tally.turns);
    let total_rolls = turns.sums().0 as u64 + tally.capped * options.max_turns;
    let [snakes, ladders, climbed, slid] = tally.took;
    Simulation {
        seed: options.seed,
        max_turns: options.max_turns,
        games: tally.games,
        capped: tally.capped,
        rolls: turns.clone(),
        turns,
        total_rolls,
        snakes,
        ladders,
        climbed,
        slid,
        shortest: tally.shortest.map(|(turns, faces)| GameSeen {
            turns,
            rolls: turns,
            faces: Some(faces.into_iter().map(|f| vec![f]).collect()),
        }),
        longest: tally.longest.map(|turns| GameSeen {
            turns,
            rolls: turns,
            faces: None,
        }),
        trapping_squares: Vec::new(),
        score: None,
    }
}
