//! The size of a board's turn chain, estimated before it is built, from the roll-level form.
//!
//! A turn's law lists every square a run of rolls that go on (top throws under unlimited
//! roll-again, extra rolls) can end on, each with a probability whose denominator has about
//! `bits(D)` bits per roll of the run. On a board with a 3-faced die whose 3s roll again and no
//! jumps, a turn from square s can end on two squares per level of a run of `(N - s) / 3`
//! levels: the chain has about `N^2 / 3` transitions with denominators up to `3^(N / 3)`. At
//! 10,000 squares that is about 33 million transitions and 14 GB; no exact command can hold
//! it, so the commands that need the chain refuse such a board at once with this estimate
//! ([`check_fits`]) instead of building it for minutes. Most boards are far below the limit:
//! when every roll has one outcome, a bound of the estimate from the board's size and dice alone
//! shows it without walking the rolls (`bytes_at_most`), and only a board it cannot pass is
//! estimated from its rolls (the same refusal, limit and message). `expect` solves the
//! roll-level form and `simulate` plays games roll by roll; neither needs the chain.
//!
//! # Formula
//!
//! Per square i of the roll-level form, `e_i` rolls end the turn and the rolls that go on lead
//! to the squares `succ_i`. The transitions of a turn begun on i are at most
//! `A_i = e_i + sum_(j in succ_i) A_j`, and the sum of their levels (each level adds `bits(D)`
//! bits to a denominator) at most `B_i = e_i + sum_(j in succ_i) (B_j + A_j)`, counted once
//! around a cycle of top throws; a turn ends on at most m squares, so `A_i` is taken at most m
//! (its levels scaled alike). Summed over the squares where a turn can begin, with
//! [`BYTES_PER_TRANSITION`] bytes per transition plus its denominator's bytes.

use super::roll_level::{Ends, RollSquares};
use crate::board::Board;

/// Bytes a transition of the turn chain takes besides its denominator's digits: the row entry
/// (index and fraction, 72 bytes), the numerator's and denominator's heap blocks, and the turn's
/// list it was built in (measured: 212 MB peak for the 1.3 million transitions of a 2,000-square
/// board with a 3-faced die whose 3s roll again, whose denominators average 66 bytes).
pub const BYTES_PER_TRANSITION: f64 = 120.0;

/// The largest turn chain (estimated bytes) the exact commands build: 500 MB, about half the
/// memory the hostile-input corpus allows a command (1 GiB), leaving the rest to the analysis.
pub const CHAIN_BYTES_LIMIT: f64 = 500e6;

/// The estimated size of a board's turn chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainSize {
    /// The squares where a turn can begin (the chain's states, the finish left out).
    pub states: usize,
    /// Transitions, at most (a square reached from several levels of a run counts once each).
    pub transitions: f64,
    /// Bytes of memory the built chain takes, about.
    pub bytes: f64,
    /// The longest run of rolls in one turn that go on (the most levels of a turn's law).
    pub longest_run: usize,
    /// Whether the board has a roll-level form ([`RollSquares::applies`]): its exact
    /// expectations are then solved without the turn chain.
    pub roll_level: bool,
}

/// The turn chain would need more memory than `CHAIN_BYTES_LIMIT`.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error(
    "the turn chain of this board would hold about {} transitions in about {} MB of memory (the \
     limit is {} MB): a turn can go on for up to {} rolls in a row (top throws that roll again), \
     and its law lists every square such a run can end on, each with its own exact probability",
    about(self.size.transitions),
    about(self.size.bytes / 1e6),
    about(CHAIN_BYTES_LIMIT / 1e6),
    crate::text::thousands(self.size.longest_run as u64 + 1)
)]
pub struct ChainTooBig {
    /// The estimate.
    pub size: ChainSize,
}

impl ChainSize {
    /// The estimate for `board`'s single-player chain, `None` when there is no roll-level form
    /// to estimate from (`roll_again = K`, whose turns are at most K rolls). A board whose
    /// draws' common denominator is too large for the roll-level form is estimated from its
    /// rolls' shape ([`RollSquares::shape`]): its chain's denominators are the longest.
    pub fn of(board: &Board) -> Option<ChainSize> {
        let (level, bits) = RollSquares::shape(board)?;
        let m = level.squares.len();
        let mut ends = Ends::new(m, level.start);
        let mut stop = vec![0f64; m];
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); m];
        for (i, (e, s)) in stop.iter_mut().zip(&mut succ).enumerate() {
            level.rolls(i, |mv| {
                ends.add(i, &mv);
                match mv.to {
                    Some(j) if mv.again => s.push(j),
                    _ => *e += 1.0,
                }
            });
        }
        let (turn_start, _) = ends.finish();
        let runs = Runs::new(&stop, &succ);
        let (mut transitions, mut levels) = (0.0, 0.0);
        // A turn's law ends on at most m squares, however many runs of rolls that go on lead
        // there (several throws that roll again, as doubles, branch at every roll): past m,
        // a turn's transitions are m, at the mean level of its runs'.
        let most = m as f64;
        for i in (0..m).filter(|&i| turn_start[i]) {
            let count = runs.count[i].min(most);
            transitions += count;
            if runs.count[i] > 0.0 {
                levels += runs.levels[i] * (count / runs.count[i]);
            }
        }
        Some(ChainSize {
            states: turn_start.iter().filter(|&&t| t).count(),
            transitions,
            bytes: transitions * BYTES_PER_TRANSITION + levels * bits / 8.0,
            longest_run: runs.longest,
            roll_level: RollSquares::applies(board),
        })
    }
}

/// `A_i`, `B_i` and the longest run, by one depth-first pass over the rolls that go on.
struct Runs {
    count: Vec<f64>,
    levels: Vec<f64>,
    longest: usize,
}

impl Runs {
    fn new(stop: &[f64], succ: &[Vec<usize>]) -> Runs {
        let m = stop.len();
        // 0: not seen, 1: on the stack, 2: done.
        let mut mark = vec![0u8; m];
        let mut count = vec![0f64; m];
        let mut levels = vec![0f64; m];
        let mut depth = vec![0usize; m];
        for root in 0..m {
            if mark[root] != 0 {
                continue;
            }
            let mut stack = vec![(root, 0usize)];
            mark[root] = 1;
            while let Some(&mut (i, ref mut next)) = stack.last_mut() {
                if let Some(&j) = succ[i].get(*next) {
                    *next += 1;
                    if mark[j] == 0 {
                        mark[j] = 1;
                        stack.push((j, 0));
                    }
                    continue;
                }
                // Every successor is done or on the stack (a cycle, counted once).
                let (mut a, mut b, mut d) = (stop[i], stop[i], 0);
                for &j in succ[i].iter().filter(|&&j| mark[j] == 2) {
                    a += count[j];
                    b += levels[j] + count[j];
                    d = d.max(depth[j] + 1);
                }
                (count[i], levels[i], depth[i]) = (a, b, d);
                mark[i] = 2;
                stack.pop();
            }
        }
        Runs {
            longest: depth.iter().copied().max().unwrap_or(0),
            count,
            levels,
        }
    }
}

/// Refuses a board whose turn chain would take more than [`CHAIN_BYTES_LIMIT`], before anything
/// is built.
///
/// # Errors
///
/// [`ChainTooBig`] with the estimate.
pub fn check_fits(board: &Board) -> Result<(), ChainTooBig> {
    // Most boards are far below the limit, which a bound on the estimate shows without a roll.
    if bytes_at_most(board).is_some_and(|bound| bound <= CHAIN_BYTES_LIMIT / 2.0) {
        return Ok(());
    }
    match ChainSize::of(board) {
        Some(size) if size.bytes > CHAIN_BYTES_LIMIT => Err(ChainTooBig { size }),
        _ => Ok(()),
    }
}

/// An upper bound of [`ChainSize::of`]'s bytes found without a roll, when every roll has one
/// outcome (no chance square, no tiles) and at most one throw rolls again; `None` otherwise.
///
/// # Formula
///
/// The form has m <= N squares (the finish left out) and each square k rolls at most (one per
/// throw), so `e_i <= k`, and `succ_i` holds at most the one top throw's square. A run from i
/// is then a path of distinct squares `v_0 = i, v_1, ...` (the pass counts a cycle once), and
/// unrolling the section's recurrences along it gives `A_i = sum_l e_(v_l) <= m k` and
/// `B_i = sum_l (l + 1) e_(v_l) <= k m (m + 1) / 2`. Over at most m squares where a turn can
/// begin: `m^2 k` transitions, `k m^2 (m + 1) / 2` levels, each of `log2(D)` bits, D the
/// dice's total (no draw to take into it).
fn bytes_at_most(board: &Board) -> Option<f64> {
    let dice = board.dice();
    let tops = dice.throws().iter().filter(|t| t.top).count();
    if !board.chances().is_empty() || board.tiles().is_some() || tops > 1 {
        return None;
    }
    let m = f64::from(board.size());
    let k = dice.throws().len() as f64;
    let bits = (dice.total() as f64).log2();
    let transitions = m * m * k;
    let levels = k * m * m * (m + 1.0) / 2.0;
    Some(transitions * BYTES_PER_TRANSITION + levels * bits / 8.0)
}

/// `x` to two significant digits, grouped by thousands: `33,000,000`.
fn about(x: f64) -> String {
    let x = x.max(0.0).round();
    let digits = if x >= 1.0 {
        x.log10().floor() as i32
    } else {
        0
    };
    let unit = 10f64.powi((digits - 1).max(0));
    crate::text::thousands(((x / unit).round() * unit) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin_names;
    use crate::chain::Chain;
    use crate::test_util::board;

    fn die3(size: u32) -> Board {
        board(&format!(
            "size = {size}\n[rules]\ndie = 3\nroll_again = \"unlimited\"\n"
        ))
    }

    #[test]
    fn the_estimate_bounds_the_built_chains_transitions_and_counts_runs_by_hand() {
        // size 40, die 3, 3s roll again, no jumps: from square s (a turn can begin on every
        // square 0..=39), the 3s run s, s + 3, ... up to the last square below 40 that a 3 can
        // leave, 39 - 0..2; each level ends the turn with a 1 and a 2 (and the top of the run,
        // from 37, 38 or 39, with its finishing rolls). No square is reached twice in a turn, so
        // the estimate counts the built chain's transitions exactly.
        let b = die3(40);
        let size = ChainSize::of(&b).unwrap();
        let chain = Chain::for_board(&b);
        let built: usize = chain.rows().iter().map(Vec::len).sum();
        assert_eq!(size.states, chain.transient_count());
        assert_eq!(size.transitions, built as f64);
        // By hand: from 0 the run is 0, 3, ..., 36, 39 (14 levels; 39 + 3 passes 40, stays on
        // 39 and rolls again: a cycle of one level, counted once), the longest.
        assert_eq!(size.longest_run, 13);
        // Levels 0..=12 end on two squares each (s + 1, s + 2: 26 squares); 39's 1 finishes and
        // its 2 overshoots and stays on 39 (ending the turn there): 28 transitions from 0.
        assert_eq!(chain.row(chain.start()).len(), 28);
    }

    #[test]
    fn large_runs_are_refused_with_the_figure_and_small_boards_pass() {
        for name in builtin_names() {
            let b = crate::board::builtin(name).unwrap();
            assert_eq!(check_fits(&b), Ok(()), "{name}");
        }
        assert_eq!(check_fits(&die3(999)), Ok(()));
        let err = check_fits(&die3(10_000)).unwrap_err();
        // About N^2 / 3 = 33 million transitions (two per level of (N - s) / 3 levels).
        assert!((3.0e7..3.7e7).contains(&err.size.transitions), "{err:?}");
        assert!(err.size.bytes > 10.0 * CHAIN_BYTES_LIMIT);
        let text = err.to_string();
        assert!(text.contains("transitions"), "{text}");
        assert!(text.contains("3,334 rolls in a row"), "{text}");
    }

    /// The bound that lets `check_fits` pass a board without a roll is at least the estimate
    /// the rolls give, on every built-in board it applies to, each under unlimited roll-again
    /// too, and on boards whose long runs of 3s make the estimate grow as `N^3` (their levels).
    #[test]
    fn the_bound_without_rolls_is_at_least_the_estimate() {
        let mut boards: Vec<Board> = builtin_names()
            .map(|name| crate::board::builtin(name).unwrap())
            .collect();
        let unlimited = crate::board::RuleOverrides {
            roll_again: Some(crate::board::RollAgain::Unlimited),
            ..crate::board::RuleOverrides::default()
        };
        let again: Vec<Board> = boards
            .iter()
            .filter_map(|b| b.with_rules(&unlimited).ok())
            .collect();
        boards.extend(again);
        boards.extend([3, 40, 300, 999].map(die3));
        boards.push(board(
            "size = 500\n[rules]\ndie = 2\nroll_again = \"unlimited\"\n",
        ));
        let mut checked = 0;
        for b in &boards {
            let (Some(bound), Some(size)) = (bytes_at_most(b), ChainSize::of(b)) else {
                continue;
            };
            assert!(bound >= size.bytes, "{}: {bound} < {size:?}", b.name());
            checked += 1;
        }
        assert!(checked >= 10, "{checked} boards");
        // By hand, die3(999): m = 999, k = 3, bits = log2(3): 2,994,003 transitions and
        // 1,497,001,500 levels, about 656 MB: past half the limit, so the rolls decide.
        let bound = bytes_at_most(&die3(999)).unwrap();
        assert!((6.5e8..6.6e8).contains(&bound), "{bound}");
        // A chance square leaves the decision to the rolls.
        let chance = board("size = 20\n[[chance]]\nat = 5\nto = [[10, 1], [2, 1]]\n");
        assert_eq!(bytes_at_most(&chance), None);
    }

    #[test]
    fn about_rounds_to_two_digits_and_groups_thousands() {
        assert_eq!(about(33_333_334.0), "33,000,000");
        assert_eq!(about(537.0), "540");
        assert_eq!(about(7.0), "7");
    }
}
