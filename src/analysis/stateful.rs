//! The chains of one player on a stateful board (one-use jumps, point squares, lost and extra
//! turns) over [`PlayerState`]s, the distribution of T on any board (on the chain over the
//! state its rules need, projected back to squares for the reports), its exact mean, and the
//! exact law of the final score.
//!
//! The law of T and the expectations are computed on [`turns_chain`], the lumped chain that
//! forgets the eaten point squares ([`StatefulBoard::for_turns`]: up to 2^(point squares) times
//! fewer states); the score needs the full state, [`stateful_chain`]. When the game can go on
//! for ever the full chain is used throughout, so the trap named is the full state's.
//!
//! # Formula
//!
//! The final states are one per set of eaten point squares, so the law of the final score is the
//! absorption law: with Q and R the transient and absorbing parts of the chain and
//! N = (I - Q)^-1, P(end in f) = (N R)[start, f] (Kemeny and Snell, *Finite Markov Chains*,
//! theorem 3.3.7). The start's row x = e_start^T N is one solve of the transposed system,
//! (I - Q)^T x = e_start; then P(end in f) = x . R[., f] for every final state at once. Scaled to
//! integers: with d_i the lcm of the denominators of row i and A' = D (I - Q), y = A'^-T e_start
//! gives x_i = d_i y_i, so P(end in f) = sum_i y_i (d_i R[i, f]), integer weights over y's one
//! common denominator. The expected score is sum_f P(end in f) score(f).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::distribution::{distribution, Distribution, DistributionOptions, Mean, TooMuchWork};
use super::expectation::{check_exact_solve, expected_turns, turn_chain_solve_fits};
use super::moments::row_bits;
use super::stateful_fits::{check_stateful, Needs, StatefulTooBig, STATEFUL_SECONDS_LIMIT};
use crate::board::{Board, Square};
use crate::num::gcd::{lcm, reduced};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use crate::chain::{
    compound_move, on_player_chain, stateful_game, Chain, ChainState, Memory, RollLevel, Turn,
    TurnModel,
};
use crate::exact::solve::{identity_minus, solve, transient_matrix, SparseRows, System, Wanted};
use crate::game::Progress;
use crate::game::{Capabilities, OnSquare, PlayerState, StatefulBoard};

/// The chain of one player on a stateful board, over the full state (what is used up, eaten or
/// owed).
pub fn stateful_chain(board: &Board) -> Chain<PlayerState> {
    stateful_game(board, Memory::Full).1
}

/// The chain of one player with the eaten point squares forgotten
/// ([`StatefulBoard::for_turns`]): the same law of T and the same rewards but the points. On a
/// board without point squares it is [`stateful_chain`].
pub fn turns_chain(board: &Board) -> Chain<PlayerState> {
    Chain::build(&StatefulBoard::for_turns(board))
}

/// [`turns_chain`] when the game always ends, else [`stateful_chain`] (whose trap names the full
/// state, as the reports show it).
pub fn law_chain(board: &Board) -> Chain<PlayerState> {
    stateful_game(board, Memory::Turns).1
}

/// The distribution of T on any board, on its one-player chain (on a board that changes during
/// a game, the chain without the eaten apples: the same law of T on fewer states), the trap
/// projected to its square. The mean is always exact: when the terms computed leave a tail, it
/// is E\[T\] from the exact expectation solve rather than an estimate of the tail's part.
///
/// # Errors
///
/// See [`distribution`].
pub fn board_distribution(
    board: &Board,
    options: &DistributionOptions,
) -> Result<Distribution<Square>, TooMuchWork> {
    if let Some(dist) = super::distribution::linked_distribution(board, options) {
        // Past the whole turns' limit, on the links form; the mean from the roll-level form.
        let mut dist = dist?;
        exact_mean(board, &mut dist.mean);
        return Ok(dist);
    }
    let mut dist = on_player_chain!(board, Memory::Turns, |_, chain| {
        let mut dist = distribution(chain, options)?;
        if !RollLevel::applies(board) {
            // Solved on the chain the law was stepped on, not on one built again.
            exact_mean_on(board, Some(chain), &mut dist.mean);
        }
        dist.map_states(|s| s.square())
    });
    if RollLevel::applies(board) {
        // Solved on the roll-level form, once the chain the law was stepped on is gone.
        exact_mean(board, &mut dist.mean);
    }
    Ok(dist)
}

/// Replaces an approximate mean by E\[T\] from the exact expectation solve of `board`.
/// The estimate stays when the exact solve would take long: on a board that changes during a
/// game, past about 30 s ([`super::stateful_fits::law_solve_fits`]); on one solved by its turn
/// chain (no roll-level form: `roll_again = K`), past [`super::moments::SECONDS_LIMIT`]
/// ([`check_exact_solve`]: 34 s for `roll_again = 3` on 10,000 squares, where the law's first
/// turns take under a second).
pub fn exact_mean(board: &Board, mean: &mut Mean) {
    exact_mean_on(board, None::<&Chain<Square>>, mean);
}

/// [`exact_mean`], solved ([`expected_turns`]) on `chain` when the board has no roll-level form
/// and `chain` is given: the chain the law of T was computed on ([`Chain::for_board`], or
/// [`law_chain`] on a stateful board), which is then not built again.
pub fn exact_mean_on<S: ChainState>(board: &Board, chain: Option<&Chain<S>>, mean: &mut Mean) {
    if let Mean::About(_) = mean {
        if !super::stateful_fits::law_solve_fits(board) {
            return;
        }
        let on_turn_chain =
            Capabilities::of(board).stateless && !crate::chain::RollSquares::applies(board);
        let fits = match chain {
            Some(chain) if on_turn_chain => turn_chain_solve_fits(chain).is_ok(),
            Some(_) => true,
            None => check_exact_solve(board).is_ok(),
        };
        if !fits {
            return;
        }
        if let Some(turns) = expected_turns(board, chain) {
            *mean = Mean::Exact(turns);
        }
    }
}

/// The exact law of the final score.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Score {
    /// E[score].
    pub expected: BigRational,
    /// Each possible final score with its probability, ascending.
    pub law: Vec<(i64, BigRational)>,
}

impl Score {
    /// P(score >= s).
    pub fn at_least(&self, s: i64) -> BigRational {
        self.law
            .iter()
            .filter(|(v, _)| *v >= s)
            .map(|(_, p)| p.clone())
            .sum()
    }

    /// P(score >= v) for each v of the law, in its order: one pass from the top.
    pub fn tails(&self) -> Vec<BigRational> {
        let mut tails: Vec<BigRational> = Vec::with_capacity(self.law.len());
        // Summed over the lcm of the denominators, each tail reduced once (a Lehmer gcd): the
        // law's fractions can have tens of thousands of digits.
        let (mut numer, mut denom) = (BigInt::zero(), BigInt::one());
        for (_, p) in self.law.iter().rev() {
            let l = lcm(denom.clone(), p.denom());
            numer = numer * (&l / &denom) + p.numer() * (&l / p.denom());
            denom = l;
            tails.push(reduced(numer.clone(), denom.clone()));
        }
        tails.reverse();
        tails
    }
}

/// Above this many point squares the score law is solved on the full chain (one solve with a
/// right-hand side per final state) rather than by inclusion and exclusion over 2^(point
/// squares) sets.
const MAX_SUBSET_SOLVES: usize = 12;

/// Seconds of the law of the final score by subsets (up to [`MAX_SUBSET_SOLVES`] point
/// squares) per `v B^1.85`, where B = `sets n b` is about the bits of the common denominator of
/// the 2^k probabilities (`sets`; one solve each, whose denominator has about `n b` bits, n the
/// chain's states and b the mean bits of a row's denominator, [`row_bits`]) and v the count of
/// possible scores: reducing each score's probability over that denominator (a gcd of B-bit
/// numbers) is most of the work. Fitted on `expect` (user CPU, load about 8) on boards of 100
/// squares with k point squares of 1 to 5 points spread evenly and one snake (`size = 100`,
/// `snakes = [[98, 2]]`, b = log2 6): k = 10, 11, 12: 1.53, 5.2, 19.3 s (estimates 1.5, 5.7,
/// 22); `tests/hostile/boards/points_12.toml` (79 scores) 36 s (estimate 50: refused);
/// `tests/hostile/boards/apples_tiles_extra_51.toml` (ten point squares, random tiles, extra
/// turns: 47 states, b about 7) 2.9 s. Until 2026-11-29 the differences were summed as
/// `BigRational`s, each partial sum reduced by the binary gcd: that board took 45 s, and the
/// estimate then (`sets^2.2` times the layers' work, fitted on boards without tiles) let it
/// through.
const SCORE_SECONDS: f64 = 4.57e-12;

/// Seconds of one of the score's solves per unit of the chain's layer work
/// ([`super::stateful_fits::Estimate`]): the rest of `k = 8` above (0.16 s, 256 sets).
const SCORE_SOLVE_SECONDS: f64 = 2e-8;

/// Bytes per bit of the common denominator and per set: the 2^k numerators over it (12 point
/// squares on 100 squares: 449 MB measured, `0.85 sets B / 8` = 460 MB).
const SCORE_BYTES_PER_BIT: f64 = 0.85 / 8.0;

/// The seconds of the score on the full chain (more than [`MAX_SUBSET_SOLVES`] point squares:
/// one solve with a right-hand side per set) per `sets^2.2 w`, w the layers' work: the fit of
/// the subsets' route before 2026-11-29 (100 squares with k = 6, 7, 8, 9: 0.07, 0.27, 1.27,
/// 6.6 s), kept for want of a measurement.
const FULL_SCORE_SECONDS: f64 = 6.4e-10;

/// Chains up to this many transitions are built to read their rows' denominators for the
/// score's estimate ([`row_bits`]: milliseconds); a larger one counts as a d6's.
const WEIGHED_TRANSITIONS: usize = 200_000;

/// Bytes of one entry of the full chain's right-hand sides (a rational, mostly zero).
const SCORE_BYTES_PER_ENTRY: f64 = 64.0;

/// Refuses, before any work, the law of the final score when it would take more than about
/// [`super::stateful_fits::STATEFUL_SECONDS_LIMIT`] or more memory than
/// [`crate::chain::CHAIN_BYTES_LIMIT`]: by subsets, the 2^k numerators over their common
/// denominator; on the full chain (more than 12 point squares, `MAX_SUBSET_SOLVES`), one dense
/// right-hand side of its states per final state (13 point squares on 16 squares took 8 GB).
/// The chain solved is counted ([`check_stateful`]), and built only when small, to read its
/// rows' denominators.
///
/// # Errors
///
/// [`StatefulTooBig`] with the estimate (or the count of a chain past the memory limit).
pub fn score_fits(board: &Board) -> Result<(), StatefulTooBig> {
    let apples = board.point_squares().len();
    if apples == 0 {
        return Ok(());
    }
    let by_subsets = apples <= MAX_SUBSET_SOLVES;
    let needs = if by_subsets { Needs::Law } else { Needs::Full };
    let estimate = match check_stateful(board, needs) {
        Ok(Some(estimate)) => estimate,
        Ok(None) => return Ok(()),
        Err(StatefulTooBig::Chain(chain)) => {
            return Err(StatefulTooBig::ScoreChain { apples, chain })
        }
        Err(e) => return Err(e),
    };
    let states = estimate.count.states as f64;
    // The full chain has one final state per set eaten, and fewer sets than states.
    let sets = match by_subsets {
        true => 2f64.powi(apples as i32),
        false => 2f64.powi(apples as i32).min(states),
    };
    let (seconds, bytes) = match by_subsets {
        true => {
            let b = match estimate.count.transitions <= WEIGHED_TRANSITIONS {
                true => row_bits(&turns_chain(board)),
                false => 6f64.log2(),
            };
            let bits = sets * states * b;
            let values = score_values(board) as f64;
            let seconds = SCORE_SOLVE_SECONDS * sets * estimate.layer_work
                + SCORE_SECONDS * values * bits.powf(1.85);
            (seconds, SCORE_BYTES_PER_BIT * sets * bits)
        }
        false => (
            FULL_SCORE_SECONDS * sets.powf(2.2) * estimate.layer_work,
            sets * states * SCORE_BYTES_PER_ENTRY,
        ),
    };
    if seconds > STATEFUL_SECONDS_LIMIT || bytes > crate::chain::CHAIN_BYTES_LIMIT {
        return Err(StatefulTooBig::Score {
            apples,
            states: estimate.count.states,
            seconds,
            bytes,
        });
    }
    Ok(())
}

/// How many final scores the point squares can give: the distinct sums of their subsets.
fn score_values(board: &Board) -> usize {
    let mut sums = std::collections::BTreeSet::from([0i64]);
    for (_, points) in board.point_squares() {
        let more: Vec<i64> = sums.iter().map(|s| s + points).collect();
        sums.extend(more);
    }
    sums.len()
}

/// The law of the final score on a board with point squares, when the game ends with
/// probability 1 (`None` otherwise, or without point squares).
///
/// # Errors
///
/// [`StatefulTooBig`] when it would take too long or too much memory (`score_fits`),
/// before any work.
pub fn score(board: &Board) -> Result<Option<Score>, StatefulTooBig> {
    let apples = board.point_squares();
    if apples.is_empty() {
        return Ok(None);
    }
    score_fits(board)?;
    let ends = if apples.len() <= MAX_SUBSET_SOLVES {
        eaten_by_subsets(board)
    } else {
        eaten_on_full_chain(board).map(Eaten::over_one_denominator)
    };
    let Some(ends) = ends else {
        return Ok(None);
    };
    let points = |eaten: u64| -> i64 {
        apples
            .iter()
            .enumerate()
            .filter(|(i, _)| eaten & (1 << i) != 0)
            .map(|(_, (_, p))| p)
            .sum()
    };
    // Summed over the one denominator, each score's probability reduced once.
    let mut by_score: BTreeMap<i64, BigInt> = Default::default();
    for (eaten, n) in ends.numerators {
        *by_score.entry(points(eaten)).or_insert_with(BigInt::zero) += n;
    }
    let expected: BigInt = by_score.iter().map(|(v, n)| n * BigInt::from(*v)).sum();
    let expected = reduced(expected, ends.denominator.clone());
    let law: Vec<(i64, BigRational)> = by_score
        .into_iter()
        .filter(|(_, n)| !n.is_zero())
        .map(|(v, n)| (v, reduced(n, ends.denominator.clone())))
        .collect();
    Ok(Some(Score { expected, law }))
}

/// P(the game ends having eaten exactly the set E), over one common denominator:
/// `numerators` holds `(E, n_E)` with P(eaten = E) = `n_E / denominator`, not reduced. Reducing
/// each of 2^(point squares) such fractions (or adding them as `BigRational`s, which reduces
/// every partial sum by the binary gcd) took 40 s of a 51-square board's 45; the score's law
/// reduces only its few sums.
struct Eaten {
    denominator: BigInt,
    numerators: Vec<(u64, BigInt)>,
}

impl Eaten {
    /// The probabilities `law` over the lcm of their denominators.
    fn over_one_denominator(law: Vec<(u64, BigRational)>) -> Eaten {
        let denominator = law
            .iter()
            .fold(BigInt::one(), |l, (_, p)| lcm(l, p.denom()));
        let numerators = law
            .into_iter()
            .map(|(set, p)| (set, p.numer() * (&denominator / p.denom())))
            .collect();
        Eaten {
            denominator,
            numerators,
        }
    }

    /// Each set's probability, reduced (the tests' form).
    #[cfg(test)]
    fn rationals(self) -> Vec<(u64, BigRational)> {
        let d = self.denominator;
        self.numerators
            .into_iter()
            .map(|(set, n)| (set, reduced(n, d.clone())))
            .collect()
    }
}

/// P(the game ends having eaten exactly the set E) for each E, on the full chain: one final
/// state per set, `P(end in f) = (N R[., f])_start`, one exact solve with a right-hand side per
/// final state. `None` when the game can go on for ever.
fn eaten_on_full_chain(board: &Board) -> Option<Vec<(u64, BigRational)>> {
    let chain = stateful_chain(board);
    if !chain.always_ends() {
        return None;
    }
    let n = chain.transient_count();
    let finals = &chain.states()[n..];
    if chain.start() >= n {
        return Some(vec![(
            chain.states()[chain.start()].progress.eaten,
            BigRational::one(),
        )]);
    }
    let mut columns: Vec<Vec<BigRational>> = vec![vec![BigRational::zero(); n]; finals.len()];
    for (i, row) in chain.rows()[..n].iter().enumerate() {
        for (j, p) in row.iter().filter(|(j, _)| *j >= n) {
            columns[j - n][i] = p.clone();
        }
    }
    let a = identity_minus(&transient_matrix(&chain));
    let start = [chain.start()];
    let wanted = vec![Wanted::Some(&start); finals.len()];
    let x = solve(System::rational(&a, &columns), &wanted)
        .expect("the game ends, so I - Q is nonsingular");
    Some(
        finals
            .iter()
            .zip(x)
            .map(|(f, col)| (f.progress.eaten, col[0].clone()))
            .collect(),
    )
}

/// One player's turns over the lumped state (the eaten point squares forgotten between turns),
/// each state after a turn carrying in `progress.eaten` the point squares that turn landed on.
/// A turn's law depends on its first state only through the lumped state, so it is computed
/// once per lumped state.
struct Landings<'a> {
    game: StatefulBoard<'a>,
    turns: RefCell<HashMap<PlayerState, Turn<PlayerState>>>,
}

/// The state with nothing eaten: the lumped state of [`StatefulBoard::for_turns`].
fn uneaten(s: &PlayerState) -> PlayerState {
    PlayerState {
        progress: Progress {
            eaten: 0,
            ..s.progress
        },
        ..*s
    }
}

impl TurnModel for Landings<'_> {
    type State = PlayerState;

    fn start(&self) -> PlayerState {
        TurnModel::start(&self.game)
    }

    fn is_final(&self, s: &PlayerState) -> bool {
        TurnModel::is_final(&self.game, s)
    }

    fn turn(&self, s: &PlayerState) -> Turn<PlayerState> {
        let from = uneaten(s);
        let mut turns = self.turns.borrow_mut();
        turns
            .entry(from)
            .or_insert_with(|| compound_move(&self.game, &from))
            .clone()
    }
}

/// P(the game ends having eaten exactly the set E) for each E, by inclusion and exclusion (see
/// the module documentation): g(S) = P(no move ends on a point square outside S) is one solve
/// on the lumped chain with the turns that land outside S cut, and
/// P(eaten = E) = sum over S in E of (-1)^|E \ S| g(S). `None` when the game can go on for ever.
fn eaten_by_subsets(board: &Board) -> Option<Eaten> {
    let model = Landings {
        game: StatefulBoard::new(board),
        turns: RefCell::default(),
    };
    let chain = Chain::build(&model);
    if !chain.always_ends() {
        return None;
    }
    let (n, states) = (chain.transient_count(), chain.states());
    if chain.start() >= n {
        return Some(Eaten::over_one_denominator(vec![(
            states[chain.start()].progress.eaten,
            BigRational::one(),
        )]));
    }
    // The lumped states, each with a chain state whose row it takes (all have the same row).
    let mut index: HashMap<PlayerState, usize> = HashMap::new();
    let mut representative: Vec<usize> = Vec::new();
    let lumped: Vec<usize> = (0..n)
        .map(|i| {
            *index.entry(uneaten(&states[i])).or_insert_with(|| {
                representative.push(i);
                representative.len() - 1
            })
        })
        .collect();
    let start = [lumped[chain.start()]];
    let all: u64 = (1 << board.point_squares().len()) - 1;
    let avoiding = |allowed: u64| -> BigRational {
        let mut b = vec![BigRational::zero(); representative.len()];
        let rows: SparseRows = representative
            .iter()
            .enumerate()
            .map(|(l, &i)| {
                let mut row = BTreeMap::from([(l, BigRational::one())]);
                for (j, p) in chain.row(i) {
                    if states[*j].progress.eaten & !allowed != 0 {
                        continue;
                    }
                    match lumped.get(*j) {
                        Some(&k) => *row.entry(k).or_insert_with(BigRational::zero) -= p,
                        None => b[l] += p,
                    }
                }
                row.into_iter().filter(|(_, v)| !v.is_zero()).collect()
            })
            .collect();
        let mut x = solve(System::rational(&rows, &[b]), &[Wanted::Some(&start)])
            .expect("the game ends, so I - Q is nonsingular, and more so with turns cut");
        x.swap_remove(0).swap_remove(0)
    };
    // g(all) = 1: the game ends. One solve per set: 1,024 for ten apples (a 51-square board
    // with apples, tiles and extra turns spent over a minute here with nothing shown).
    let stage = crate::progress::Stage::begin("the score's sets of apples", Some(all + 1));
    let within: Vec<(u64, BigRational)> = (0..=all)
        .map(|s| {
            stage.advance(s);
            let g = match s == all {
                true => BigRational::one(),
                false => avoiding(s),
            };
            (s, g)
        })
        .collect();
    // The differences in integers over one denominator (adding and subtracting only).
    let mut law = Eaten::over_one_denominator(within);
    let n = &mut law.numerators;
    for bit in 0..board.point_squares().len() {
        for e in 0..n.len() {
            if e & (1 << bit) != 0 {
                let below = std::mem::take(&mut n[e ^ (1 << bit)].1);
                n[e].1 -= &below;
                n[e ^ (1 << bit)].1 = below;
            }
        }
    }
    Some(law)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::distribution::{distribution, DistributionOptions};
    use crate::analysis::expectation::{
        by_verified_lifting, expect, expect_chain_with, Expectation, Expectations,
    };
    use crate::chain::Chain;
    use crate::test_util::{board, q};

    fn finite(text: &str) -> Expectations {
        let b = Board::from_toml_str(text, "t").unwrap();
        assert!(!Capabilities::of(&b).stateless);
        match expect(&b) {
            Expectation::Finite(e) => *e,
            Expectation::Infinite(t) => panic!("infinite: {t:?}"),
        }
    }

    /// Boards mixing point squares with one-use jumps, lost and extra turns, chance squares,
    /// tiles, bounce, roll-again with forfeits and several dice (tests/fixtures, whose values
    /// tests/it/known_values_rules.rs compares with the Python derivation), and a larger one.
    const MIXED: [&str; 6] = [
        include_str!("../../tests/fixtures/independent-boards/everything.toml"),
        include_str!("../../tests/fixtures/independent-boards/extra-points-bounce.toml"),
        include_str!("../../tests/fixtures/independent-boards/once-chance-nochain.toml"),
        include_str!("../../tests/fixtures/independent-boards/points-chance-unlimited.toml"),
        include_str!("../../tests/fixtures/independent-boards/tiles-once-points.toml"),
        "size = 30\nsnakes = [[17, 4], [26, 20], [28, 2]]\nladders = [[3, 25], [12, 22]]\n\
         once = [3, 26]\npoints = [[8, 4], [21, -2], [27, 1]]\nlose_turn = [14]\n\
         extra_turn = [19]\n[rules]\nroll_again = 2\n",
    ];

    #[test]
    fn the_score_law_by_subsets_equals_the_solve_on_the_full_chain() {
        // Two routes to P(eaten = E): inclusion and exclusion over the lumped chain with the
        // turns that land outside S cut, and one solve per final state of the full chain.
        for text in MIXED {
            let b = Board::from_toml_str(text, "t").unwrap();
            let nonzero = |mut v: Vec<(u64, BigRational)>| {
                v.retain(|(_, p)| !p.is_zero());
                v.sort();
                v
            };
            let by_subsets = nonzero(eaten_by_subsets(&b).unwrap().rationals());
            let on_full = nonzero(eaten_on_full_chain(&b).unwrap());
            assert!(by_subsets.len() >= 3, "several sets eaten: {by_subsets:?}");
            assert_eq!(by_subsets, on_full);
            let total: BigRational = by_subsets.iter().map(|(_, p)| p).sum();
            assert_eq!(total, BigRational::one());
        }
    }

    #[test]
    fn the_chain_without_the_eaten_squares_has_the_same_law_of_t() {
        // Lumpability: the law of T and the rewards but the points are those of the full chain,
        // on fewer states.
        for text in MIXED {
            let b = Board::from_toml_str(text, "t").unwrap();
            let (full, lumped) = (stateful_chain(&b), turns_chain(&b));
            assert!(lumped.transient_count() < full.transient_count());
            // P(T = n) for n = 1..30, stepped in rationals on each chain.
            let law = |chain: &Chain<PlayerState>| -> Vec<BigRational> {
                let t = chain.transient_count();
                let mut p = vec![BigRational::zero(); t];
                p[chain.start()] = BigRational::one();
                (0..30)
                    .map(|_| {
                        let (mut next, mut ended) =
                            (vec![BigRational::zero(); t], BigRational::zero());
                        for (i, pi) in p.iter().enumerate().filter(|(_, x)| !x.is_zero()) {
                            for (j, q) in chain.row(i) {
                                match next.get_mut(*j) {
                                    Some(x) => *x += pi * q,
                                    None => ended += pi * q,
                                }
                            }
                        }
                        p = next;
                        ended
                    })
                    .collect()
            };
            assert_eq!(law(&lumped), law(&full));
            let solve = |chain: &Chain<PlayerState>| {
                by_verified_lifting(chain, false).unwrap_or_else(|| {
                    match expect_chain_with(chain, false) {
                        Expectation::Finite(e) => *e,
                        Expectation::Infinite(t) => panic!("the game ends: {t:?}"),
                    }
                })
            };
            let (a, c) = (solve(&lumped), solve(&full));
            assert_eq!(
                (a.turns, a.variance, a.rolls, a.snakes, a.ladders, a.climbed, a.slid),
                (c.turns, c.variance, c.rolls, c.snakes, c.ladders, c.climbed, c.slid)
            );
        }
    }

    #[test]
    fn the_verified_lifting_agrees_with_the_bounded_solve() {
        // Two routes to the same numbers: the verified lifting (stopped early, proved by
        // substitution) and the chain solve lifted to Hadamard's bound; boards large enough for
        // the fill-reducing order, with every stateful feature and roll-again.
        for text in [
            "size = 60\nsnakes = [[17, 4], [33, 20], [58, 2]]\nladders = [[3, 25], [12, 40]]\n\
             once = [3, 33]\npoints = [[8, 4], [45, -2]]\nlose_turn = [22]\nextra_turn = [50]\n",
            "size = 48\nsnakes = [[30, 6], [47, 11]]\nladders = [[5, 29]]\nonce = [5, 47]\n\
             points = [[10, 1], [20, 2], [40, 3]]\n[rules]\nroll_again = 2\novershoot = \"bounce\"\n",
        ] {
            let b = Board::from_toml_str(text, "t").unwrap();
            let chain = stateful_chain(&b);
            assert!(chain.transient_count() > 300, "large enough to be reordered");
            let mut lifted =
                by_verified_lifting(&chain, true).expect("the verified route applies");
            let Expectation::Finite(mut bounded) = expect_chain_with(&chain, true) else {
                panic!("the game ends")
            };
            // Every expectation equal, and the same squares in any order.
            lifted.per_square.sort();
            bounded.per_square.sort();
            assert_eq!(lifted, *bounded);
        }
    }

    #[test]
    fn a_lost_turn_is_a_turn_without_a_roll() {
        // Worked by hand: size 2, a coin, allow; square 1 costs the next turn. A 2 finishes at
        // once (T = 1); a 1 reaches 1, the next turn is skipped, the third finishes (T = 3).
        // E = 2, E[T^2] = 1/2 + 9/2 = 5, Var = 1; rolls: 1/2 * 1 + 1/2 * 2 = 3/2.
        let e = finite("size = 2\nlose_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        assert_eq!(e.turns, q(2, 1));
        assert_eq!(e.variance, q(1, 1));
        assert_eq!(e.rolls, q(3, 2));
    }

    #[test]
    fn an_extra_turn_square_gives_one_more_roll_in_the_turn() {
        // Worked by hand: size 2, a coin, allow; square 1 gives one more roll, which always
        // finishes. T = 1 always; rolls 1/2 * 1 + 1/2 * 2 = 3/2 (without it E[T] would be 3/2).
        let e = finite("size = 2\nextra_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        assert_eq!(e.turns, q(1, 1));
        assert_eq!(e.variance, q(0, 1));
        assert_eq!(e.rolls, q(3, 2));
    }

    #[test]
    fn a_one_use_snake_is_plain_once_taken() {
        // Worked by hand: size 3, a coin, stay; the snake 2 -> 0 works once. Once it is gone:
        // E(2) = 1 + E(2)/2 = 2, E(1) = 1 + E(2)/2 = 2, E(0) = 1 + E(1)/2 + E(2)/2 = 3. Before:
        // E(1) = 1 + E_gone(0)/2 = 5/2 (a 1 takes the snake, a 2 finishes), E(0) = 1 + E(1)/2 +
        // E_gone(0)/2 = 15/4. With the snake for ever E would be 6.
        let text = "size = 3\nsnakes = [[2, 0]]\nonce = [2]\n[rules]\ndie = 2\n";
        let e = finite(text);
        assert_eq!(e.turns, q(15, 4));
        // Snakes taken: exactly one unless... the game can finish without it: from 0 a 1 then a
        // 2 (1/4) avoids it, so E[snakes] = 3/4.
        assert_eq!(e.snakes, q(3, 4));
        let forever =
            Board::from_toml_str("size = 3\nsnakes = [[2, 0]]\n[rules]\ndie = 2\n", "t").unwrap();
        let Expectation::Finite(f) = expect(&forever) else {
            panic!()
        };
        assert_eq!(f.turns, q(6, 1));
    }

    #[test]
    fn points_are_scored_once_and_give_the_score_law() {
        // Worked by hand: size 2, a coin, allow; square 1 scores 5. Half the games pass through
        // 1: score 5 w.p. 1/2, 0 w.p. 1/2.
        let b = Board::from_toml_str(
            "size = 2\npoints = [[1, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\n",
            "t",
        )
        .unwrap();
        let s = score(&b).unwrap().unwrap();
        assert_eq!(s.law, vec![(0, q(1, 2)), (5, q(1, 2))]);
        assert_eq!(s.expected, q(5, 2));
        assert_eq!(s.at_least(5), q(1, 2));
        assert_eq!(s.at_least(1), q(1, 2));
        // Eaten once: a snake back to 0 from 2 (size 3) lets a player land on 1 again, but the
        // apple is gone, so the score is at most 5.
        let again = Board::from_toml_str(
            "size = 4\nsnakes = [[2, 0]]\npoints = [[1, 5]]\n[rules]\ndie = 2\n",
            "t",
        )
        .unwrap();
        let s = score(&again).unwrap().unwrap();
        assert_eq!(s.law.last().unwrap().0, 5);
        assert_eq!(
            s.law.iter().map(|(_, p)| p.clone()).sum::<BigRational>(),
            q(1, 1)
        );
    }

    #[test]
    fn the_distribution_of_a_lost_turn_board_skips_a_turn() {
        // Same board as the lost-turn test: P(T = 1) = 1/2, P(T = 2) = 0, P(T = 3) = 1/2.
        let b = Board::from_toml_str(
            "size = 2\nlose_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n",
            "t",
        )
        .unwrap();
        let options = DistributionOptions {
            turns: Some(3),
            ..DistributionOptions::default()
        };
        let d = board_distribution(&b, &options).unwrap();
        let p: Vec<BigRational> = d.terms.iter().map(|t| t.p.clone()).collect();
        assert_eq!(p, vec![q(1, 2), q(0, 1), q(1, 2)]);
    }

    // The compound move's endless turns (chain/compound.rs), seen through the analyses.
    #[test]
    fn a_die_whose_only_face_is_the_top_one_never_ends_a_turn() {
        // Worked by hand: die = [0, 2] shows 2 every time, and under unlimited roll-again every
        // 2 rolls again: the first turn never ends, so T is infinite with probability 1.
        let b = board(
            "size = 10\nsnakes = [[4, 0]]\n[rules]\ndie = [0, 2]\nroll_again = \"unlimited\"\n",
        );
        let Expectation::Infinite(trap) = expect(&b) else {
            panic!("the game never ends")
        };
        assert_eq!(trap.state, 0);
        let chain = Chain::for_board(&b);
        let options = DistributionOptions {
            turns: Some(5),
            ..DistributionOptions::default()
        };
        let d = distribution(&chain, &options).unwrap();
        assert!(d.terms.iter().all(|t| t.p == q(0, 1)), "no game ends");
        assert!(d.trap.is_some());
    }

    #[test]
    fn an_endless_extra_turn_loop_keeps_its_chance_of_never_ending() {
        // Worked by hand: a coin from 0; a 1 reaches 1, the ladder 1 -> 6 finishes (T = 1, 1/2);
        // a 2 reaches 2, an extra-turn square that every roll leads back to (3 and 4 slide to
        // 2): that turn never ends (1/2). So P(T = 1) = 1/2, P(T = n) = 0 after, P(T > n) = 1/2.
        let b = board(
            "size = 6\nsnakes = [[3, 2], [4, 2]]\nladders = [[1, 6]]\nextra_turn = [2]\n\
             [rules]\ndie = 2\n",
        );
        let Expectation::Infinite(trap) = expect(&b) else {
            panic!("the game can last for ever")
        };
        assert_eq!(trap.state, 0);
        let chain = stateful_chain(&b);
        assert!(chain.trap().is_some());
        let options = DistributionOptions {
            turns: Some(4),
            ..DistributionOptions::default()
        };
        let d = board_distribution(&b, &options).unwrap();
        let p: Vec<BigRational> = d.terms.iter().map(|t| t.p.clone()).collect();
        assert_eq!(p, vec![q(1, 2), q(0, 1), q(0, 1), q(0, 1)]);
        // The turn's law keeps its mass: the chance of never ending stays on the start state.
        let rows: BigRational = chain
            .row(chain.start())
            .iter()
            .map(|(_, p)| p.clone())
            .sum();
        assert_eq!(rows, q(1, 1));
    }
}
