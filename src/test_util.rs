//! Helpers shared by the unit tests (compiled only for tests): an exact fraction, a board
//! from TOML text, a board with every rule a state remembers, a random board (proptest), a chain
//! given by its matrix, a seeded stream of words, and a run on one thread and on two (the
//! simulators' same-seed checks).

use num_rational::BigRational;
use num_traits::Zero;

use crate::board::Board;

// One strategy for random boards, shared with the integration tests (`tests/it/common.rs`).
#[path = "../tests/it/random_board.rs"]
mod random_board;
use crate::chain::{Chain, Turn, TurnModel, TurnRewards};
pub(crate) use random_board::random_board;

/// The fraction n / d, exact.
pub(crate) fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// `b` under unlimited roll-again, or `None` when its rules do not allow it.
pub(crate) fn unlimited(b: &Board) -> Option<Board> {
    use crate::board::{RollAgain, RuleOverrides};
    b.with_rules(&RuleOverrides {
        roll_again: Some(RollAgain::Unlimited),
        ..RuleOverrides::default()
    })
    .ok()
}

/// A board from TOML text that must be valid (origin `test`).
pub(crate) fn board(text: &str) -> Board {
    Board::from_toml_str(text, "test").expect("valid test board")
}

/// A board with every rule that makes a player's state more than a square (one-use jumps,
/// points, a lost and an extra turn, a forfeit on the second six, bounce).
pub(crate) const EVERY_STATE_RULE: &str = "size = 20\nladders = [[3, 12]]\nsnakes = [[17, 4]]\n\
     once = [3, 17]\npoints = [[6, 2], [9, -1]]\nlose_turn = [8]\nextra_turn = [10]\n\
     [rules]\nroll_again = 2\novershoot = \"bounce\"\n";

/// `f` run in a pool of one thread and in a pool of two: a seeded simulation must give the
/// same result in both.
pub(crate) fn on_one_thread_and_on_two<T: Send>(f: impl Fn() -> T + Sync + Send) -> (T, T) {
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    (pool(1).install(&f), pool(2).install(&f))
}

/// A chain given by its matrix: states 0..n are transient (0 the start), n is the finish, which
/// takes whatever each row leaves.
struct Matrix {
    rows: Vec<Vec<(usize, (i64, i64))>>,
}

impl TurnModel for Matrix {
    type State = usize;
    fn start(&self) -> usize {
        0
    }
    fn is_final(&self, s: &usize) -> bool {
        *s == self.rows.len()
    }
    fn turn(&self, s: &usize) -> Turn<usize> {
        let mut next: Vec<(usize, BigRational)> = self.rows[*s]
            .iter()
            .map(|&(j, (a, b))| (j, BigRational::new(a.into(), b.into())))
            .collect();
        let left = BigRational::from_integer(1.into())
            - next.iter().map(|(_, p)| p.clone()).sum::<BigRational>();
        if !left.is_zero() {
            next.push((self.rows.len(), left));
        }
        Turn {
            next,
            rewards: TurnRewards::default(),
            endless: false,
        }
    }
}

/// The chain of [`Matrix`]: `rows[i]` lists `(j, (a, b))` for `Q_ij = a / b`.
pub(crate) fn matrix(rows: Vec<Vec<(usize, (i64, i64))>>) -> Chain<usize> {
    Chain::build(&Matrix { rows })
}

/// A seeded stream of words (splitmix64).
pub(crate) fn seeded_words(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The board `text` (a random board's, one `die = ` line) with its die replaced by the loaded die of `weights` when `loaded`.
pub(crate) fn with_die(text: &str, weights: &[u64], loaded: bool) -> String {
    let die = weights
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    text.lines()
        .map(|line| match line.starts_with("die = ") && loaded {
            true => format!("die = [{die}]\n"),
            false => format!("{line}\n"),
        })
        .collect()
}

/// The turn chain of the random board `text` (die weights as [`with_die`] puts them) under
/// unlimited roll-again, when the board is valid, takes that rule and does not start finished:
/// the chain both linked steppings' proptests step.
pub(crate) fn unlimited_chain(
    text: &str,
    weights: &[u64],
    loaded: bool,
) -> Option<crate::chain::Chain<crate::board::Square>> {
    let b = Board::from_toml_str(&with_die(text, weights, loaded), "random").ok()?;
    let chain = crate::chain::Chain::for_board(&unlimited(&b)?);
    (chain.start() < chain.transient_count()).then_some(chain)
}
