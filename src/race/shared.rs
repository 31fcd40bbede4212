//! Several players sharing one board that changes during a game (seed 003's two players, issue
//! 12): a one-use ladder one seat breaks is broken for every seat, an apple one seat eats is gone
//! for all, so the seats interact and the race is the joint chain over (every seat's square and
//! owed turn, what the table has used up and eaten, whose turn it is): [`SharedBoard`], a
//! [`TurnModel`].
//!
//! # The game
//!
//! The game of `simulate::shared`: seats take whole turns in seat order, the first to
//! reach the finish wins, the length in rounds is the winner's number of turns. A seat's turn is
//! the one [`compound_move`] of [`StatefulBoard`] (the one definition of the roll, the forfeit
//! that keeps what was used up, the skipped turn, extra rolls: [`crate::game`]) from the
//! mover's square and owed turn with the table's [`Progress`]; the progress it ends with becomes
//! the table's. A lost turn costs only the seat that reached the square.
//!
//! Which apples are eaten changes only the points, never a move, so the win odds and the length
//! are computed on the chain that does not remember them ([`SharedBoard::new`] with `scores =
//! false`): a smaller chain with the same law of squares, owed turns and used-up jumps.
//!
//! # What is computed
//!
//! As for the knock-off race ([`super::knockoff`], whose solves serve here too): small chains
//! ([`SharedOptions::exact_limit`] transient states) are solved exactly in rational arithmetic;
//! larger ones, up to [`SharedOptions::state_limit`], by certified float solves layer after layer
//! (`super::layered`: the set of used-up jumps only grows, so each layer is one set); above the
//! limit the race is refused at once with the bound on the states.

use std::collections::{HashMap, HashSet, VecDeque};

use super::independent::{Method, Race, SeatResult};
use super::knockoff::{solve_exactly, RaceState};
use super::layered::{CertifiedRace, Eating, Keys, LayeredChain, LayeredError};
use crate::board::{Board, Dice, RollAgain, Square};
use crate::chain::{compound_move, Chain, Turn, TurnModel};
use crate::game::{Branches, PlayerState, RollGame, StatefulBoard};
use crate::game::{Progress, RollOutcome};
use crate::num::interval::Interval;
use num_rational::BigRational;
use num_traits::Zero;

/// One seat's part of the joint state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat {
    /// The square the seat's token stands on.
    pub square: Square,
    /// The seat's next turn is skipped (it reached a lost-turn square).
    pub owed: bool,
}

/// A state of the shared game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SharedState {
    /// The game goes on.
    Playing {
        /// Every seat's square and owed turn, in seat order.
        seats: Vec<Seat>,
        /// What the table has used up and eaten (eaten stays empty without scores).
        table: Progress,
        /// The seat to move, from 0.
        to_move: usize,
    },
    /// The game is over: this seat (from 0) finished first.
    Won(usize),
}

impl RaceState for SharedState {
    fn winner(&self) -> Option<usize> {
        match self {
            SharedState::Won(seat) => Some(*seat),
            SharedState::Playing { .. } => None,
        }
    }

    fn begins_round(&self) -> bool {
        matches!(self, SharedState::Playing { to_move: 0, .. })
    }
}

/// Several players sharing one stateful board (module doc).
#[derive(Clone, Copy, Debug)]
pub struct SharedBoard<'a> {
    game: StatefulBoard<'a>,
    players: usize,
    scores: bool,
    /// Only for one apple's race ([`SharedBoard::eating`]): the apple's bit.
    apple: Option<u64>,
}

impl<'a> SharedBoard<'a> {
    /// `players` seats sharing `board`; with `scores` the state remembers which apples are
    /// eaten (needed for the points, not for who wins).
    pub fn new(board: &'a Board, players: usize, scores: bool) -> SharedBoard<'a> {
        SharedBoard {
            game: StatefulBoard::new(board),
            players,
            scores,
            apple: None,
        }
    }

    /// The race to eat apple `apple` (from 0, in [`Board::point_squares`] order): the game
    /// ends when a move ends on it, in `Won(k)` for the seat k that eats it, or when a seat
    /// finishes before anybody ate it, in `Won(players + k)` (the other eaten apples are not
    /// remembered: they change no move).
    fn eating(board: &'a Board, players: usize, apple: usize) -> SharedBoard<'a> {
        SharedBoard {
            apple: Some(1 << apple),
            ..SharedBoard::new(board, players, false)
        }
    }

    /// The mover of a non-final state, as the single-player game sees it.
    fn mover(state: &SharedState) -> PlayerState {
        let SharedState::Playing {
            seats,
            table,
            to_move,
        } = state
        else {
            unreachable!("nobody moves in a final state")
        };
        PlayerState {
            square: seats[*to_move].square,
            progress: *table,
            owed: seats[*to_move].owed,
        }
    }

    /// `state` with its mover now in `mover` (the table's progress is the mover's).
    fn place(&self, state: &SharedState, mover: PlayerState) -> SharedState {
        let SharedState::Playing { seats, to_move, .. } = state else {
            unreachable!("nobody moves in a final state")
        };
        if let Some(apple) = self.apple {
            // The apple's bit is set only by the roll just made (eaten apples are forgotten).
            if mover.progress.eaten & apple != 0 {
                return SharedState::Won(*to_move);
            }
            if mover.square == self.game.board().size() {
                return SharedState::Won(self.players + *to_move);
            }
        }
        if mover.square == self.game.board().size() {
            return SharedState::Won(*to_move);
        }
        let mut seats = seats.clone();
        seats[*to_move] = Seat {
            square: mover.square,
            owed: mover.owed,
        };
        let eaten = if self.scores { mover.progress.eaten } else { 0 };
        SharedState::Playing {
            seats,
            table: Progress {
                used: mover.progress.used,
                eaten,
            },
            to_move: *to_move,
        }
    }
}

impl RollGame for SharedBoard<'_> {
    type State = SharedState;

    fn dice(&self, _: &SharedState) -> &Dice {
        self.game.board().dice()
    }

    fn roll_again(&self, _: &SharedState) -> RollAgain {
        self.game.board().rules().roll_again
    }

    fn is_final(&self, state: &SharedState) -> bool {
        matches!(state, SharedState::Won(_))
    }

    fn roll_into(&self, state: &SharedState, sum: u32, out: &mut Branches<SharedState>) -> u64 {
        let (branches, total) = self.game.roll(&SharedBoard::mover(state), sum);
        out.clear();
        out.extend(
            branches
                .into_iter()
                .map(|(w, next, o)| (w, self.place(state, next), o)),
        );
        total
    }

    fn points(&self, outcome: &RollOutcome) -> i64 {
        self.game.points(outcome)
    }

    fn forfeit(&self, began: &SharedState, now: &SharedState) -> SharedState {
        let back = self
            .game
            .forfeit(&SharedBoard::mover(began), &SharedBoard::mover(now));
        self.place(now, back)
    }

    fn end_turn(&self, state: SharedState) -> SharedState {
        match state {
            SharedState::Playing {
                seats,
                table,
                to_move,
            } => SharedState::Playing {
                seats,
                table,
                to_move: (to_move + 1) % self.players,
            },
            won => won,
        }
    }

    fn skip(&self, state: &SharedState) -> Option<SharedState> {
        self.game
            .skip(&SharedBoard::mover(state))
            .map(|m| self.place(state, m))
    }
}

impl TurnModel for SharedBoard<'_> {
    type State = SharedState;

    fn start(&self) -> SharedState {
        let start = TurnModel::start(&self.game);
        SharedState::Playing {
            seats: vec![
                Seat {
                    square: start.square,
                    owed: false,
                };
                self.players
            ],
            table: Progress::default(),
            to_move: 0,
        }
    }

    fn is_final(&self, state: &SharedState) -> bool {
        matches!(state, SharedState::Won(_))
    }

    fn turn(&self, state: &SharedState) -> Turn<SharedState> {
        compound_move(self, state)
    }
}

/// A state of the shared game with what the turn that led there ate: a bit per apple, in
/// [`Board::point_squares`] order (the game [`Tracking`] plays).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Tracked {
    state: SharedState,
    ate: u64,
}

/// The shared game that forgets the eaten apples ([`SharedBoard::new`] without scores), each
/// turn also saying which apples it ate: the one chain that serves the race and the race to
/// every apple ([`LayeredChain::build_eating`]), instead of a chain per apple.
struct Tracking<'a>(SharedBoard<'a>);

/// How the layered chain reads a tracked state ([`Eating`]).
type TrackedEating = Eating<
    fn(Tracked) -> (SharedState, u64),
    fn(&SharedState) -> Tracked,
    fn(&SharedState) -> usize,
>;

impl Tracking<'_> {
    /// How the layered chain reads a tracked state: the state and what its turn ate, the state
    /// a turn begins in (nothing eaten yet), the seat to move.
    const EATING: TrackedEating = Eating {
        split: |t| (t.state, t.ate),
        join: |state| Tracked {
            state: state.clone(),
            ate: 0,
        },
        mover: |state| match state {
            SharedState::Playing { to_move, .. } => *to_move,
            SharedState::Won(_) => 0,
        },
    };
}

impl RollGame for Tracking<'_> {
    type State = Tracked;

    fn dice(&self, state: &Tracked) -> &Dice {
        self.0.dice(&state.state)
    }

    fn roll_again(&self, state: &Tracked) -> RollAgain {
        self.0.roll_again(&state.state)
    }

    fn is_final(&self, state: &Tracked) -> bool {
        RollGame::is_final(&self.0, &state.state)
    }

    fn roll_into(&self, state: &Tracked, sum: u32, out: &mut Branches<Tracked>) -> u64 {
        // The table forgets the eaten apples, so every landing on an apple eats it: the bits of
        // the turn so far with the roll's.
        let (branches, total) = self.0.game.roll(&SharedBoard::mover(&state.state), sum);
        out.clear();
        out.extend(branches.into_iter().map(|(w, next, o)| {
            let ate = state.ate | next.progress.eaten;
            (
                w,
                Tracked {
                    state: self.0.place(&state.state, next),
                    ate,
                },
                o,
            )
        }));
        total
    }

    fn points(&self, outcome: &RollOutcome) -> i64 {
        self.0.points(outcome)
    }

    fn forfeit(&self, began: &Tracked, now: &Tracked) -> Tracked {
        Tracked {
            state: self.0.forfeit(&began.state, &now.state),
            ate: now.ate,
        }
    }

    fn end_turn(&self, state: Tracked) -> Tracked {
        Tracked {
            state: self.0.end_turn(state.state),
            ate: state.ate,
        }
    }

    fn skip(&self, state: &Tracked) -> Option<Tracked> {
        let ate = state.ate;
        self.0
            .skip(&state.state)
            .map(|state| Tracked { state, ate })
    }
}

impl TurnModel for Tracking<'_> {
    type State = Tracked;

    fn start(&self) -> Tracked {
        Tracked {
            state: TurnModel::start(&self.0),
            ate: 0,
        }
    }

    fn is_final(&self, state: &Tracked) -> bool {
        TurnModel::is_final(&self.0, &state.state)
    }

    fn turn(&self, state: &Tracked) -> Turn<Tracked> {
        compound_move(self, state)
    }
}

/// Limits of a shared race.
#[derive(Clone, Copy, Debug)]
pub struct SharedOptions {
    /// Digits after the point asked for (the certified solves give about 15).
    pub digits: usize,
    /// Solve exactly when the joint chain has at most this many transient states.
    pub exact_limit: usize,
    /// Refuse joint chains with more states than this.
    pub state_limit: usize,
    /// Also each seat's expected final score, on a board with point squares
    /// ([`SeatResult::score`]; one more chain per point square).
    pub scores: bool,
}

impl Default for SharedOptions {
    fn default() -> SharedOptions {
        SharedOptions {
            digits: 12,
            exact_limit: 2000,
            state_limit: 2_000_000,
            scores: true,
        }
    }
}

/// The shared race cannot be answered.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SharedError {
    /// No seats.
    #[error("a race needs at least one player")]
    NoPlayers,
    /// The joint chain may be larger than allowed (refused before it is built).
    #[error("{players} players sharing this board: the joint chain may have up to {bound:.3e} states (squares, owed turns, used-up jumps, whose turn), above the limit of {limit}")]
    TooLarge {
        /// The players.
        players: usize,
        /// The bound on the states.
        bound: f64,
        /// The limit.
        limit: usize,
    },
    /// The joint chain may need more memory than `SHARED_MEMORY`, whatever
    /// [`SharedOptions::state_limit`] allows (refused before it is built).
    #[error(
        "{players} players sharing this board: the joint chain may have up to {bound:.3e} states \
         (squares, owed turns, used-up jumps, whose turn), about {:.0} GB of memory at {} bytes \
         a state (the limit is {:.0} GB, whatever the state limit allows)",
        bound * SHARED_BYTES_PER_STATE / 1e9,
        SHARED_BYTES_PER_STATE,
        SHARED_MEMORY / 1e9
    )]
    TooMuchMemory {
        /// The players.
        players: usize,
        /// The bound on the states.
        bound: f64,
    },
    /// From some reachable state no seat can ever finish.
    #[error("the game can last forever: from the squares {squares:?} (seat {seat} to move) no player can ever finish")]
    NeverEnds {
        /// The seats' squares in the trapped state.
        squares: Vec<Square>,
        /// The seat to move, from 1.
        seat: usize,
    },
    /// The certified solve failed.
    #[error("the shared race could not be certified: {0}")]
    Layered(LayeredError, usize),
    /// A reachable turn of the shared game can go on for ever (`endless_shared_turn`).
    #[error(
        "{players} players sharing the board can reach a turn that goes on for ever (the chance \
         that it never ends is above 0): seat {seat}'s turn with the seats on squares \
         {squares:?}, where jumps another seat broke have put it; so a game might never end, and \
         neither a simulation nor an exact answer is given"
    )]
    EndlessTurn {
        /// The players.
        players: usize,
        /// The seats' squares in the joint state whose turn can go on for ever.
        squares: Vec<Square>,
        /// The seat to move, from 1.
        seat: usize,
    },
    /// Whether a turn that goes on for ever is reachable was not settled within `limit` joint
    /// states.
    #[error(
        "a turn from some square can go on for ever once jumps are used up, and whether \
         {players} players sharing the board can reach it was not settled within {limit} joint \
         states; a game might never end, so it is not played (fewer players settle it sooner)"
    )]
    EndlessUnsettled {
        /// The players.
        players: usize,
        /// The joint states walked.
        limit: usize,
    },
}

/// The most joint states [`refuse_endless_shared`] walks to tell whether seats sharing a board
/// can reach a turn that goes on for ever.
pub const ENDLESS_WALK_LIMIT: usize = 1_000_000;

/// Refuses `players` seats sharing the stateful `board` when a reachable turn of the shared game
/// can go on for ever ([`endless_shared_turn`], walking at most [`ENDLESS_WALK_LIMIT`] joint
/// states): neither a simulation nor the joint chain would end.
///
/// # Errors
///
/// [`SharedError::EndlessTurn`], [`SharedError::EndlessUnsettled`].
pub fn refuse_endless_shared(board: &Board, players: usize) -> Result<(), SharedError> {
    match endless_shared_turn(board, players, ENDLESS_WALK_LIMIT) {
        Ok(None) => Ok(()),
        Ok(Some((squares, seat))) => Err(SharedError::EndlessTurn {
            players,
            squares,
            seat,
        }),
        Err(limit) => Err(SharedError::EndlessUnsettled { players, limit }),
    }
}

/// Bytes a joint state takes while the layered chain is built and solved: about 200 (the
/// default [`SharedOptions::state_limit`], 2,000,000 states, plans for 400 MB).
pub const SHARED_BYTES_PER_STATE: f64 = 200.0;

/// The most memory a shared race plans for, whatever [`SharedOptions::state_limit`] allows:
/// with a limit of 2^64 - 1, three players on seed-003 (a bound of 1.6e9 states) aborted at the
/// 2 GiB address-space limit after 20 s.
pub const SHARED_MEMORY: f64 = 2e9;

/// An upper bound on the joint chain's states for `players` seats on `board` (without the
/// eaten apples): the seat to move, each seat's square (0 to N) and owed turn (when the board
/// has lost-turn squares), and each set of one-use jumps used up.
pub fn states_bound(board: &Board, players: usize) -> f64 {
    let owed = if board.lose_turn_squares().is_empty() {
        1.0
    } else {
        2.0
    };
    let squares = f64::from(board.size()) + 1.0;
    players as f64
        * (squares * owed).powi(players as i32)
        * 2f64.powi(board.once_squares().len() as i32)
}

/// Where a turn of `players` seats sharing `board` can go on for ever (a chance above 0 that it
/// never ends, [`crate::chain::Turn::endless`]): the seats' squares and the seat to move
/// (counted from one) of the reachable joint state nearest the start whose turn does, if any;
/// `Err(limit)` when telling would take more than `limit` joint states.
///
/// A seat's turn depends only on its square, its owed turn and the table's used-up jumps, but a
/// jump another seat broke can leave the mover where it never stands alone (on the square of a
/// broken ladder it would have climbed), so the one-player check
/// ([`crate::chain::endless_turn`]) is not enough. Two steps:
///
/// 1. If a turn can go on for ever from some state, it can from the same kind of square with
///    nothing used up and no turn owed: the rolls of a turn that never ends never end on a
///    used-up jump's square (a plain square then, which ends the turn), so with those jumps
///    standing they make the same moves; an owed turn acts only before the turn; and every set
///    of in-turn states that never ends holds one with no streak of top faces
///    ([`compound_move`]). So when no square's turn with nothing used up can go on for ever,
///    none can, and nothing more is done (most boards).
/// 2. Otherwise the joint states are walked breadth first, each mover's turn computed once (it
///    depends on the mover's own part only).
///
/// # Errors
///
/// `Err(limit)`: more than `limit` joint states reachable before an endless turn was found.
pub fn endless_shared_turn(
    board: &Board,
    players: usize,
    limit: usize,
) -> Result<Option<(Vec<Square>, usize)>, usize> {
    let model = SharedBoard::new(board, players, false);
    let plain = |square| PlayerState {
        square,
        progress: Progress::default(),
        owed: false,
    };
    if !(0..board.size()).any(|s| compound_move(&model.game, &plain(s)).endless) {
        return Ok(None);
    }
    let mut turns: HashMap<PlayerState, Option<Vec<PlayerState>>> = HashMap::new();
    let start = TurnModel::start(&model);
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    while let Some(state) = queue.pop_front() {
        let view = SharedBoard::mover(&state);
        let next = turns.entry(view).or_insert_with(|| {
            let turn = compound_move(&model.game, &view);
            (!turn.endless).then(|| turn.next.into_iter().map(|(s, _)| s).collect())
        });
        let Some(next) = next else {
            let SharedState::Playing { seats, to_move, .. } = &state else {
                unreachable!("final states are never queued")
            };
            return Ok(Some((
                seats.iter().map(|s| s.square).collect(),
                to_move + 1,
            )));
        };
        for &mover in next.iter() {
            let after = model.end_turn(model.place(&state, mover));
            if !TurnModel::is_final(&model, &after) && seen.insert(after.clone()) {
                if seen.len() > limit {
                    return Err(limit);
                }
                queue.push_back(after);
            }
        }
    }
    Ok(None)
}

/// Each seat's chance to win and the expected rounds of `players` seats sharing the stateful
/// `board`: exact for small joint chains, certified intervals otherwise (module doc).
///
/// # Errors
///
/// See [`SharedError`].
///
/// # Examples
///
/// ```
/// use ladders::board::Board;
/// use ladders::internals::{shared_race, SharedOptions};
/// use num_rational::BigRational;
/// // A coin, the one-use ladder 1 -> 3 on a board of 3: the first seat's 1 breaks it.
/// let b = Board::from_toml_str("size = 3\nladders = [[1, 3]]\nonce = [1]\n[rules]\ndie = 2\n", "t").unwrap();
/// let r = shared_race(&b, 2, &SharedOptions::default()).unwrap();
/// let sum = &r.seats[0].win.lo + &r.seats[1].win.lo;
/// assert_eq!(sum, BigRational::from_integer(1.into()));
/// ```
pub fn shared_race(
    board: &Board,
    players: usize,
    options: &SharedOptions,
) -> Result<Race, SharedError> {
    if players == 0 {
        return Err(SharedError::NoPlayers);
    }
    let bound = states_bound(board, players);
    if bound > options.state_limit as f64 {
        return Err(SharedError::TooLarge {
            players,
            bound,
            limit: options.state_limit,
        });
    }
    if bound * SHARED_BYTES_PER_STATE > SHARED_MEMORY {
        return Err(SharedError::TooMuchMemory { players, bound });
    }
    let model = SharedBoard::new(board, players, false);
    // Small chains exactly; building stops as soon as the chain is too large for that.
    if let Ok(chain) = Chain::build_limited(&model, options.exact_limit.saturating_add(players + 1))
    {
        if let Some(trap) = chain.trap() {
            let SharedState::Playing { seats, to_move, .. } = trap.state else {
                unreachable!("final states are never trapped")
            };
            return Err(SharedError::NeverEnds {
                squares: seats.iter().map(|s| s.square).collect(),
                seat: to_move + 1,
            });
        }
        if chain.transient_count() <= options.exact_limit {
            let mut race = solve_exactly(&chain, players, options.digits);
            if options.scores && !board.point_squares().is_empty() {
                let eats = eats_exactly(board, players, options);
                add_scores(board, &mut race, eats, options);
            }
            return Ok(race);
        }
    }
    let apples = if options.scores {
        board.point_squares().len()
    } else {
        0
    };
    let (c, eats) = solve_layered(model, apples, options)?;
    let seats: Vec<SeatResult> = c
        .wins
        .into_iter()
        .enumerate()
        .map(|(k, win)| SeatResult {
            seat: k + 1,
            win,
            score: None,
        })
        .collect();
    let complete = seats
        .iter()
        .map(|s| &s.win)
        .chain(std::iter::once(&c.rounds))
        .all(|i| i.certified(options.digits).digits == options.digits);
    let mut race = Race {
        seats,
        expected_rounds: c.rounds,
        rounds_at_least: Vec::new(),
        turns_summed: 0,
        digits: options.digits,
        complete,
        method: Method::LayeredCertified,
    };
    add_scores(board, &mut race, eats, options);
    Ok(race)
}

/// The certified solve of `model`'s race chain, and with `apples` above 0 (a board with point
/// squares, scores asked for) each seat's chance to eat each apple first, from the same chain
/// built once with what each turn ate ([`Tracking`]).
fn solve_layered(
    model: SharedBoard<'_>,
    apples: usize,
    options: &SharedOptions,
) -> Result<(CertifiedRace, Vec<Vec<Interval>>), SharedError> {
    let error = |e| SharedError::Layered(e, model.players);
    let players = model.players;
    let keys = Keys {
        race: sweep_key,
        settle: settle_key,
    };
    let limit = options.state_limit;
    let chain = if apples == 0 {
        LayeredChain::build(&model, players, &keys, limit)
    } else {
        let tracking = Tracking(model);
        let eating = Tracking::EATING;
        LayeredChain::build_eating(&tracking, players, &keys, limit, &eating)
    };
    chain.map_err(error)?.solve_with_eats(apples).map_err(error)
}

/// The chance of each seat (inner) to eat each apple (outer) first, exactly, for a race solved
/// exactly: one chain per apple, the race to eat it ([`SharedBoard::eating`]), small as the
/// race's.
fn eats_exactly(board: &Board, players: usize, options: &SharedOptions) -> Vec<Vec<Interval>> {
    let apples = board.point_squares().len() as u64;
    let stage = crate::progress::Stage::begin("the race to each apple", Some(apples));
    (0..board.point_squares().len())
        .map(|j| {
            stage.advance(j as u64);
            let chain = Chain::build(&SharedBoard::eating(board, players, j));
            let r = solve_exactly(&chain, 2 * players, options.digits);
            r.seats.into_iter().take(players).map(|s| s.win).collect()
        })
        .collect()
}

/// Each seat's expected final score, into `race` (with [`SharedOptions::scores`], on a board
/// with point squares), from `eats[j][k]`, the chance that seat k's move is the first to end on
/// apple j before the game ends: by linearity, seat k's expected score is the sum over the
/// apples of `points_j P(k eats j)`. A certified score's interval is the sum of the certified
/// chances' intervals times the points.
fn add_scores(board: &Board, race: &mut Race, eats: Vec<Vec<Interval>>, options: &SharedOptions) {
    if !options.scores || board.point_squares().is_empty() {
        return;
    }
    let players = race.seats.len();
    let zero = Interval::exact(BigRational::zero());
    let mut scores = vec![zero; players];
    for (&(_, points), eats) in board.point_squares().iter().zip(&eats) {
        let points = BigRational::from_integer(points.into());
        for (score, eat) in scores.iter_mut().zip(eats) {
            let (a, b) = (&eat.lo * &points, &eat.hi * &points);
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            *score = Interval::new(&score.lo + lo, &score.hi + hi);
        }
    }
    for (seat, score) in race.seats.iter_mut().zip(scores) {
        if race.method == Method::LayeredCertified {
            race.complete &= score.certified(options.digits).digits == options.digits;
        }
        seat.score = Some(score);
    }
}

/// The race's sweep order in [`LayeredChain`]: the most jumps used up first (a turn never
/// gives one back), then by the seats' squares summed, the largest first. A turn reads a
/// state not yet swept when a snake sends its mover back: for either seat, so a sweep shrinks
/// the error only by the chance of no more snakes in the game (about 0.8 on seed 003). Kept
/// for the race, whose printed bounds come from the values of these sweeps.
fn sweep_key(state: &SharedState) -> (u32, u64, u32) {
    match state {
        SharedState::Playing { seats, table, .. } => (
            u64::BITS - table.used.count_ones(),
            u64::MAX - table.used,
            u32::MAX - seats.iter().map(|s| s.square).sum::<u32>(),
        ),
        SharedState::Won(_) => (0, 0, 0),
    }
}

/// The settling order in [`LayeredChain`] (the lengths and the race to each apple): the most
/// jumps used up first, then the last seat's square, the largest first, then the seat to move,
/// the last first, then the squares summed. A turn of any other seat reads a state of the same
/// last-seat square already swept (the next seat to move comes first), and one of the last
/// seat reads a state already swept unless a snake sends it back: a sweep shrinks the error
/// by the chance that the last seat meets another snake, far fewer sweeps than by the sum
/// alone (seed 003: about 10 a state instead of 110).
fn settle_key(state: &SharedState) -> (u32, u64, u32, usize, u32) {
    match state {
        SharedState::Playing {
            seats,
            table,
            to_move,
        } => (
            u64::BITS - table.used.count_ones(),
            u64::MAX - table.used,
            u32::MAX - seats.last().map_or(0, |s| s.square),
            usize::MAX - to_move,
            u32::MAX - seats.iter().map(|s| s.square).sum::<u32>(),
        ),
        SharedState::Won(_) => (0, 0, 0, 0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::interval::Interval;
    use num_rational::BigRational;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    fn board(text: &str) -> Board {
        Board::from_toml_str(text, "test").unwrap()
    }

    /// Size 4, a coin, overshoot stay, the one-use ladder 1 -> 3.
    const ONCE: &str = "size = 4\nladders = [[1, 3]]\nonce = [1]\n[rules]\ndie = 2\n";

    #[test]
    fn a_ladder_broken_by_the_first_seat_is_broken_for_the_second_by_hand() {
        // Worked by hand. From 2 a 2 finishes and a 1 goes to 3; from 3 a 1 finishes and a 2
        // stays: from 2 or 3 every turn wins with 1/2, so with both seats on 2 or 3 the mover
        // wins with W = 1/2 + 1/2 (1 - W) = 2/3. From 0 a 1 climbs to 3 while the ladder stands
        // (else stops on 1), a 2 goes to 2; from 1 a 1 goes to 2, a 2 to 3; nobody finishes
        // from 0 or 1.
        // Seat 1's first turn: 1/2 to 3 (the ladder is broken), 1/2 to 2 (it stands).
        // - Seat 1 on 3, ladder broken: seat 2 from 0 goes to 1 or 2 (the ladder is gone).
        //   On 2: seat 1 to move, both on 2 or 3: 2/3. On 1: seat 1 wins now with 1/2, else
        //   seat 2 moves from 1 to 2 or 3 without finishing and seat 1 wins with 2/3 from there:
        //   1/2 + 1/2 * 2/3 = 5/6. So 1/2 * 2/3 + 1/2 * 5/6 = 3/4.
        // - Seat 1 on 2: seat 2 goes to 3 or 2, then seat 1 to move with both on 2 or 3: 2/3.
        // P(seat 1 wins) = 1/2 * 3/4 + 1/2 * 2/3 = 17/24. Were the ladder each seat's own, seat
        // 2 would climb from 0 as well and seat 1 would win 2/3 in both cases.
        let b = board(ONCE);
        let r = shared_race(&b, 2, &SharedOptions::default()).unwrap();
        assert_eq!(r.method, Method::ExactSolve);
        assert_eq!(r.seats[0].win, Interval::exact(q(17, 24)));
        assert_eq!(r.seats[1].win, Interval::exact(q(7, 24)));
    }

    #[test]
    fn a_lost_turn_costs_only_the_seat_that_reached_the_square_by_hand() {
        // Worked by hand: size 2, a coin, overshoot allow, square 1 costs the next turn. Seat
        // 1: a 2 finishes (1/2), a 1 lands on 1 and owes a turn. Seat 2 then plays the same.
        // With A = P(seat 1 wins) from the start: seat 1 wins at once 1/2; else seat 2 wins at
        // once 1/2 (seat 2's 2), else both stand on 1 owing a turn: seat 1 skips, seat 2 skips,
        // and from 1 every roll finishes (a 1 lands on 2, a 2 past it, allowed): seat 1 wins.
        // A = 1/2 + 1/4 * 1 = 3/4. Rounds: 1 with 1/2 + 1/4, else round 3 (two skipped turns
        // each): 3/4 * 1 + 1/4 * 3 = 3/2.
        let b = board("size = 2\nlose_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        let r = shared_race(&b, 2, &SharedOptions::default()).unwrap();
        assert_eq!(r.seats[0].win, Interval::exact(q(3, 4)));
        assert_eq!(r.expected_rounds, Interval::exact(q(3, 2)));
    }

    #[test]
    fn the_eaten_apples_change_no_move_so_the_smaller_chain_has_the_same_law() {
        let b = board(
            "size = 12\nladders = [[2, 7]]\nsnakes = [[11, 3]]\nonce = [2, 11]\n\
             points = [[4, 3], [9, -2]]\nlose_turn = [5]\nextra_turn = [8]\n\
             [rules]\nroll_again = 2\novershoot = \"bounce\"\ndie = 3\n",
        );
        let with = Chain::build(&SharedBoard::new(&b, 2, true));
        let without = Chain::build(&SharedBoard::new(&b, 2, false));
        assert!(with.transient_count() > without.transient_count());
        let a = solve_exactly(&with, 2, 12);
        let c = solve_exactly(&without, 2, 12);
        assert_eq!(a.seats[0].win, c.seats[0].win);
        assert_eq!(a.expected_rounds, c.expected_rounds);
    }

    #[test]
    fn an_apple_scores_for_the_seat_that_eats_it_first_by_hand() {
        // Worked by hand: size 2, a coin, overshoot allow, the apple on 1 worth 5. Seat 1's
        // first roll: a 2 wins at once, a 1 lands on 1 and eats the apple (1/2). Seat 2 moves
        // only after seat 1 rolled a 1, so the apple is gone: seat 2 never scores. Expected
        // scores 5/2 and 0 (unshared, seat 2 would eat it in a quarter of the games). The
        // certified route must hold the same values.
        let b = board("size = 2\npoints = [[1, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        let r = shared_race(&b, 2, &SharedOptions::default()).unwrap();
        assert_eq!(r.seats[0].score, Some(Interval::exact(q(5, 2))));
        assert_eq!(r.seats[1].score, Some(Interval::exact(q(0, 1))));
        let layered = SharedOptions {
            exact_limit: 0,
            ..SharedOptions::default()
        };
        let r = shared_race(&b, 2, &layered).unwrap();
        assert_eq!(r.method, Method::LayeredCertified);
        let score = r.seats[0].score.clone().unwrap();
        assert!(
            score.contains(&q(5, 2)) && score.width() < q(1, 1_000_000_000),
            "{score:?}"
        );
        // Without point squares, or without asking, no score.
        let none = SharedOptions {
            scores: false,
            ..SharedOptions::default()
        };
        assert_eq!(shared_race(&b, 2, &none).unwrap().seats[0].score, None);
        assert_eq!(
            shared_race(&board(ONCE), 2, &SharedOptions::default())
                .unwrap()
                .seats[0]
                .score,
            None
        );
    }

    #[test]
    fn the_scores_from_the_one_tracked_chain_hold_the_exact_scores_of_the_chains_per_apple() {
        // Two apples, one-use jumps, a lost and an extra turn, forfeits (roll_again = 2): the
        // certified route (one chain that tracks what each turn ate) against the exact route
        // (one chain per apple, the race to eat it), seat by seat.
        let b = board(
            "size = 12\nladders = [[2, 7]]\nsnakes = [[11, 3]]\nonce = [2, 11]\n\
             points = [[4, 3], [9, -2], [6, 5]]\nlose_turn = [5]\nextra_turn = [8]\n\
             [rules]\nroll_again = 2\novershoot = \"bounce\"\ndie = 3\n",
        );
        let exact = shared_race(&b, 2, &SharedOptions::default()).unwrap();
        assert_eq!(exact.method, Method::ExactSolve);
        let layered = SharedOptions {
            exact_limit: 0,
            ..SharedOptions::default()
        };
        let certified = shared_race(&b, 2, &layered).unwrap();
        assert_eq!(certified.method, Method::LayeredCertified);
        for (e, c) in exact.seats.iter().zip(&certified.seats) {
            let (want, got) = (e.score.clone().unwrap(), c.score.clone().unwrap());
            assert_eq!(want.lo, want.hi);
            assert!(
                got.contains(&want.lo) && got.width() < q(1, 1_000_000_000),
                "{want:?} {got:?}"
            );
            assert!(c.win.contains(&e.win.lo), "{:?} {:?}", e.win, c.win);
        }
    }

    /// A coin showing 1 or 3; the one-use ladder 1 -> 9; from 0 a 3 falls back to 0 by a snake,
    /// and 4 gives an extra roll, which from 4 always ends on 4 again (5 -> 4, 7 -> 4).
    const JOINT_LOOP: &str = "size = 10\nladders = [[1, 9]]\nonce = [1]\n\
        snakes = [[3, 0], [5, 4], [7, 4]]\nextra_turn = [4]\n[rules]\ndie = [1, 0, 1]\n";

    #[test]
    fn an_endless_turn_reachable_only_when_another_seat_broke_a_ladder_is_found() {
        // Worked by hand: alone, a player leaves 0 only by the ladder (a 1, to 9) and never
        // comes back below 9, so squares 1 to 8 are never reached and every turn ends. With two
        // seats, seat 1's 1 breaks the ladder; seat 2's 1 then stops on 1, and from 1 a 3 lands
        // on 4, whose extra rolls never end. Breadth first, the first such state is seat 1 on
        // 9 (it rolled a 3: stay), seat 2 on 1 and to move.
        let b = board(JOINT_LOOP);
        assert_eq!(crate::chain::endless_turn(&b), None);
        assert_eq!(endless_shared_turn(&b, 1, 1000), Ok(None));
        assert_eq!(endless_shared_turn(&b, 2, 1000), Ok(Some((vec![9, 1], 2))));
        assert_eq!(endless_shared_turn(&b, 2, 3), Err(3));
        // Without the loop's extra roll no square's turn can go on for ever: settled at once.
        let plain = board(&JOINT_LOOP.replace("extra_turn = [4]\n", ""));
        assert_eq!(endless_shared_turn(&plain, 2, 0), Ok(None));
    }

    #[test]
    fn a_joint_chain_above_the_limit_is_refused_at_once_with_its_bound() {
        let b = crate::board::builtin("seed-003").unwrap();
        let options = SharedOptions {
            state_limit: 1000,
            ..SharedOptions::default()
        };
        match shared_race(&b, 3, &options) {
            Err(SharedError::TooLarge { players, bound, .. }) => {
                assert_eq!(players, 3);
                // 3 seats to move * 201^3 squares * 2^3 sets of broken ladders.
                assert_eq!(bound, 3.0 * 201f64.powi(3) * 8.0);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_game_no_seat_can_finish_is_reported() {
        // From 2 or 3 every roll reaches 4 or 5, both snakes back to 2; 6 is never reached.
        let b = board(
            "size = 6\nsnakes = [[4, 2], [5, 2]]\nladders = [[1, 3]]\nonce = [1]\n[rules]\ndie = 2\n",
        );
        assert!(matches!(
            shared_race(&b, 2, &SharedOptions::default()),
            Err(SharedError::NeverEnds { .. })
        ));
    }
}
