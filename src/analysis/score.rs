//! The exact law of the final score on a board with point squares, on the chains of
//! [`super::stateful`], and its cost estimated (and refused) before it starts.
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
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use super::moments::row_bits;
use super::stateful::{stateful_chain, turns_chain};
use super::stateful_fits::{check_stateful, Needs, StatefulTooBig, STATEFUL_SECONDS_LIMIT};
use crate::board::Board;
use crate::chain::{compound_move, Chain, Turn, TurnModel};
use crate::exact::solve::{identity_minus, solve, transient_matrix, SparseRows, System, Wanted};
use crate::game::{PlayerState, Progress, StatefulBoard};
use crate::num::gcd::{lcm, reduced};

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
            tails.push(reduced(numer.clone(), &denom));
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
    let expected = reduced(expected, &ends.denominator);
    let law: Vec<(i64, BigRational)> = by_score
        .into_iter()
        .filter(|(_, n)| !n.is_zero())
        .map(|(v, n)| (v, reduced(n, &ends.denominator)))
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
            .map(|(set, n)| (set, reduced(n, &d)))
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
    use crate::analysis::stateful::tests::MIXED;
    use crate::test_util::q;

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
}
