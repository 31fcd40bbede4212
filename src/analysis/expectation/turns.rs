//! E\[T\] alone: the exact mean a report of the law of T shows (`distribution`, `analyze`'s
//! summary), without the other expectations [`super::expect_with`] solves for, and the
//! approximate mean of a law replaced by it ([`exact_mean`]) when its solve fits.
//!
//! # Formula
//!
//! `(I - Q) t = 1` from the start, as in [`super`]: in roll-level form `A t = D (I - S) 1`
//! (one right-hand side, where [`super::expect_with`] has six and the chained second moment
//! `A u = C t`, whose whole vector t the lifting must carry); on a board without that form
//! (`roll_again = K`, a stateful board), on the chain the law of T was stepped on, which the
//! caller passes rather than have it built again. On efi the six right-hand sides and the
//! second moment took 1.6 M instructions of the mean's 2.1 M; this solve takes about 0.7 M.

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::{check_exact_solve_on, primitive_rows, roll_level_system};
use crate::analysis::distribution::Mean;
use crate::analysis::fundamental::expected_rewards;
use crate::analysis::stateful_fits::law_solve_fits;
use crate::board::{Board, Square};
use crate::chain::{on_player_chain, Chain, ChainState, Memory, RollLevel, RollMove};
use crate::exact::solve::{identity_minus, solve, transient_matrix, System, Wanted};
use crate::game::Capabilities;

/// E\[T\] of one player's game on `board` when it ends with probability 1, `None` when it can
/// last for ever: [`super::expect_with`]'s `turns`, solved for alone (the sensitivity's and the
/// die sweep's one solve per changed board).
pub fn expected_turns(board: &Board) -> Option<BigRational> {
    expected_turns_on(board, None::<&Chain<Square>>)
}

/// [`expected_turns`]; `chain`, when given, is the chain of `board` the law of T is computed on
/// (its [`crate::chain::PlayerChain`] with [`Memory::Turns`]): a board without a roll-level
/// form is solved on it instead of on a chain built again.
pub fn expected_turns_on<S: ChainState>(
    board: &Board,
    chain: Option<&Chain<S>>,
) -> Option<BigRational> {
    if let Some(rl) = RollLevel::new(board).filter(RollLevel::always_ends) {
        return Some(match rl.start {
            None => BigRational::zero(),
            Some(start) => on_roll_level(rl, start),
        });
    }
    // As `expect_with`: a stateful board's chain by verified lifting first (its answers are
    // small), then by the bounded routes.
    let verified = !Capabilities::of(board).stateless;
    match chain {
        Some(chain) => on_chain(chain, verified),
        None => on_player_chain!(board, Memory::Turns, |_, chain| on_chain(chain, verified)),
    }
}

/// Replaces an approximate mean by E\[T\] from the exact expectation solve of `board`.
/// The estimate stays when the exact solve would take long: on a board that changes during a
/// game, past about 30 s ([`law_solve_fits`]); on one solved by its turn chain (no roll-level
/// form: `roll_again = K`), past [`crate::analysis::moments::SECONDS_LIMIT`]
/// ([`check_exact_solve_on`]: 34 s for `roll_again = 3` on 10,000 squares, where the law's first
/// turns take under a second).
pub fn exact_mean(board: &Board, mean: &mut Mean) {
    exact_mean_on(board, None::<&Chain<Square>>, mean);
}

/// [`exact_mean`], solved ([`expected_turns_on`]) on `chain` when the board has no roll-level form
/// and `chain` is given: the chain the law of T was computed on (its
/// [`crate::chain::PlayerChain`] with [`Memory::Turns`]), which is then not built again.
pub fn exact_mean_on<S: ChainState>(board: &Board, chain: Option<&Chain<S>>, mean: &mut Mean) {
    if let Mean::About(_) = mean {
        if !law_solve_fits(board) || check_exact_solve_on(board, chain).is_err() {
            return;
        }
        if let Some(turns) = expected_turns_on(board, chain) {
            *mean = Mean::Exact(turns);
        }
    }
}

/// t at the start of the roll-level system of `rl`.
fn on_roll_level(rl: RollLevel, start: usize) -> BigRational {
    let rows = |i: usize, buffer: &mut Vec<RollMove>| buffer.extend_from_slice(&rl.moves[i]);
    let (mut a, mut c, mut b) = roll_level_system(rl.squares.len(), rl.denominator, rows, |v| v);
    // Only the turns' right-hand side; C (the chained solve's matrix) is not needed either.
    b.truncate(1);
    c.iter_mut().for_each(Vec::clear);
    primitive_rows(&mut a, &mut c, &mut b);
    drop(rl);
    let at_start = [start];
    let x = solve(System::integer(&a, &b), &[Wanted::Some(&at_start)])
        .expect("every square reaches the finish, so the system is nonsingular");
    start_value(x)
}

/// t at the start of `(I - Q) t = 1` on `chain`, `None` when the game can last for ever;
/// `verified`: try the verified lifting first.
fn on_chain<S: ChainState>(chain: &Chain<S>, verified: bool) -> Option<BigRational> {
    if chain.trap().is_some() {
        return None;
    }
    let (n, start) = (chain.transient_count(), chain.start());
    if start >= n {
        // The game starts on the finish: nothing to play.
        return Some(BigRational::zero());
    }
    if verified {
        if let Some(x) = expected_rewards(chain, &[], false) {
            return Some(x.expected[0].get(start));
        }
    }
    let a = identity_minus(&transient_matrix(chain));
    let ones = [vec![BigRational::one(); n]];
    let at_start = [start];
    let x = solve(System::rational(&a, &ones), &[Wanted::Some(&at_start)])
        .expect("every state reaches the finish, so the system is nonsingular");
    Some(start_value(x))
}

/// The one component of the one solution asked for.
fn start_value(x: Vec<Vec<BigRational>>) -> BigRational {
    x.into_iter()
        .next()
        .and_then(|mut t| t.pop())
        .expect("t at the start")
}

#[cfg(test)]
mod tests {
    use crate::game::Capabilities;
    use proptest::prelude::*;

    use super::{expected_turns, expected_turns_on};
    use crate::analysis::expectation::{expect_with, Expectation};
    use crate::analysis::stateful::law_chain;
    use crate::board::{builtin, builtin_names, Board, RollAgain, RuleOverrides};
    use crate::chain::Chain;
    use crate::game::PlayerState;
    use crate::test_util::board;

    /// E[T] alone, with and without the law chain given, equals `expect_with`'s (the solve of
    /// every expectation at once, a second method), or both say the game can last for ever.
    fn same_as_every_expectation(b: &Board) {
        let all = match expect_with(b, false) {
            Expectation::Finite(e) => Some(e.turns),
            Expectation::Infinite(_) => None,
        };
        let name = b.name();
        assert_eq!(expected_turns(b), all, "{name}");
        if !Capabilities::of(b).stateless {
            let chain: Chain<PlayerState> = law_chain(b);
            assert_eq!(expected_turns_on(b, Some(&chain)), all, "{name}");
        } else {
            assert_eq!(
                expected_turns_on(b, Some(&Chain::for_board(b))),
                all,
                "{name}"
            );
        }
    }

    fn with_roll_again(b: &Board, rule: RollAgain) -> Option<Board> {
        b.with_rules(&RuleOverrides {
            roll_again: Some(rule),
            ..RuleOverrides::default()
        })
        .ok()
    }

    #[test]
    fn every_built_in_and_fixture_board_has_the_mean_of_every_expectation() {
        let mut boards: Vec<Board> = builtin_names().map(|n| builtin(n).unwrap()).collect();
        let dir = format!(
            "{}/tests/fixtures/independent-boards",
            env!("CARGO_MANIFEST_DIR")
        );
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            boards.push(Board::from_toml_str(&text, &path.display().to_string()).unwrap());
        }
        let mut checked = 0;
        for b in &boards {
            // As they are (roll-level form, stateful chains), and under roll_again = K (the
            // turn chain's route) and unlimited.
            for rule in [
                None,
                Some(RollAgain::Forfeit(3)),
                Some(RollAgain::Unlimited),
            ] {
                let Some(b) = rule.map_or_else(|| Some(b.clone()), |r| with_roll_again(b, r))
                else {
                    continue;
                };
                same_as_every_expectation(&b);
                checked += 1;
            }
        }
        assert!(checked >= 3 * boards.len() - 2, "{checked}");
    }

    #[test]
    fn a_board_that_can_last_for_ever_has_no_mean() {
        // Worked by hand: no roll of a coin from 3 reaches 6 (4 and 5 slide to 2).
        let b = board("size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n");
        assert_eq!(expected_turns(&b), None);
        let k = with_roll_again(&b, RollAgain::Forfeit(2)).unwrap();
        assert_eq!(expected_turns_on(&k, Some(&Chain::for_board(&k))), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn random_boards_have_the_mean_of_every_expectation(
            size in 4u32..50,
            die in 2u32..7,
            again in 0u32..5,
            overshoot in 0usize..3,
            jumps in proptest::collection::vec((0u32..1000, 0u32..1000), 0..10),
        ) {
            let mut used = std::collections::HashSet::new();
            let (mut snakes, mut ladders) = (Vec::new(), Vec::new());
            for &(a, b) in &jumps {
                let (a, b) = (1 + a % (size - 1), b % size);
                if a != b && used.insert(a) {
                    let list = if a > b { &mut snakes } else { &mut ladders };
                    list.push(format!("[{a}, {b}]"));
                }
            }
            let again = match again {
                0 => "\"none\"".to_string(),
                1 => "\"unlimited\"".to_string(),
                k => k.to_string(),
            };
            let text = format!(
                "size = {size}\nsnakes = [{}]\nladders = [{}]\n[rules]\ndie = {die}\n\
                 overshoot = \"{}\"\nroll_again = {again}\n",
                snakes.join(", "),
                ladders.join(", "),
                ["stay", "bounce", "allow"][overshoot],
            );
            // Jumps that chain into a cycle make an invalid board: skip those.
            if let Ok(b) = Board::from_toml_str(&text, "test") {
                same_as_every_expectation(&b);
            }
        }
    }
}
