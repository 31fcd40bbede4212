//! The simulator's table enumerated against the one definition of the rules, for every built-in
//! board and the rule variants; its roll's turn logic against `game::turn_steps`.

use super::*;
use crate::board::{builtin, RuleOverrides, BUILTIN_BOARDS};
use crate::game::turn_steps;

fn variants() -> Vec<RuleOverrides> {
    use crate::board::{DieChoice, Overshoot};
    let mut v = vec![RuleOverrides::default()];
    for roll_again in [RollAgain::None, RollAgain::Unlimited, RollAgain::Forfeit(3)] {
        v.push(RuleOverrides {
            roll_again: Some(roll_again),
            ..RuleOverrides::default()
        });
    }
    for overshoot in [Overshoot::Stay, Overshoot::Allow] {
        v.push(RuleOverrides {
            overshoot: Some(overshoot),
            ..RuleOverrides::default()
        });
    }
    v.push(RuleOverrides {
        die: Some(DieChoice::Loaded(vec![1, 1, 1, 1, 1, 3])),
        roll_again: Some(RollAgain::Forfeit(2)),
        ..RuleOverrides::default()
    });
    v.push(RuleOverrides {
        dice: Some(2),
        roll_again: Some(RollAgain::Unlimited),
        overshoot: Some(Overshoot::Allow),
        ..RuleOverrides::default()
    });
    v
}

/// A board with chance squares (one of them reached by a ladder, chained), tiles-free.
const CHANCE: &str = r#"
    size = 30
    snakes = [[27, 5]]
    ladders = [[3, 12], [8, 20]]
    [[chance]]
    at = 12
    to = [[25, 1], [2, 1], [12, 2]]
    [[chance]]
    at = 25
    to = [[29, 3], [8, 1]]
    [rules]
    chain = true
    dice = 2
"#;

/// Every cell of `board`'s table against `game::turn_steps` at streak 0: the same outcomes with
/// the same weights (up to a common factor: both are out of their own totals) and tallies, and
/// for a cell with one outcome the turn end the fast loop reads.
fn enumerate(board: &Board) {
    let table = Table::new(board);
    let throws = board.dice().throws();
    assert_eq!(table.throws(), throws, "{}", board.name());
    for square in 0..board.size() {
        for (i, throw) in throws.iter().enumerate() {
            let (steps, total) = turn_steps(board, square, square, 0, throw.sum);
            let mine = table.outcomes(square, i);
            let my_total: u64 = mine.iter().map(|&(w, _, _)| w).sum();
            assert_eq!(
                mine.len(),
                steps.len(),
                "{} {square} {}",
                board.name(),
                throw.sum
            );
            for ((w, to, tally), (sw, step)) in mine.iter().zip(&steps) {
                let at = format!("{} square {square} throw {}", board.name(), throw.sum);
                assert_eq!(
                    u128::from(*w) * u128::from(total),
                    u128::from(*sw) * u128::from(my_total),
                    "{at}"
                );
                assert_eq!(*to, step.outcome.to, "{at}");
                assert_eq!(*tally, RollTally::of(&step.outcome), "{at}");
                if steps.len() == 1 {
                    assert_eq!(table.turn_ends(square, i), !step.again, "{at}");
                }
            }
        }
    }
}

#[test]
fn the_table_is_what_the_rules_say_for_every_builtin_board_and_rule() {
    let mut boards: Vec<Board> = BUILTIN_BOARDS
        .iter()
        .map(|b| builtin(b.name).unwrap())
        .collect();
    boards.push(Board::from_toml_str(CHANCE, "chance").unwrap());
    assert!(BUILTIN_BOARDS.iter().any(|b| b.name == "random-tiles"));
    let mut random_cells = 0;
    for board in &boards {
        for overrides in variants() {
            // A variant a board refuses (a bounce past its start) is not a board to play.
            let Ok(b) = board.with_rules(&overrides) else {
                continue;
            };
            enumerate(&b);
            let t = Table::new(&b);
            random_cells += t.draws.len();
        }
    }
    assert!(
        random_cells > 0,
        "the chance board and random-tiles have random cells"
    );
}

#[test]
fn a_roll_follows_turn_steps_at_every_streak() {
    // play_roll's turn logic (game::throw_effect) against game::turn_steps: from each square
    // and streak, each roll's result must be one of the steps of the throw it drew.
    let loaded = RuleOverrides {
        die: Some(crate::board::DieChoice::Loaded(vec![1, 0, 1, 1, 1, 4])),
        roll_again: Some(RollAgain::Forfeit(3)),
        ..RuleOverrides::default()
    };
    let chance = Board::from_toml_str(CHANCE, "chance").unwrap();
    let boards = [
        builtin("efi").unwrap().with_rules(&loaded).unwrap(),
        chance.with_rules(&loaded).unwrap(),
        builtin("random-tiles").unwrap(),
    ];
    let mut dice = Dice::new(1, 2);
    let mut forfeits = 0;
    for b in &boards {
        let table = Table::new(b);
        for square in 0..b.size() {
            for streak in 0..3 {
                for _ in 0..20 {
                    let start = (square + 3) % b.size();
                    let mut turn = Turn {
                        start_row: table.row(start),
                        row: table.row(square),
                        streak,
                    };
                    let rolled = table.play_roll(&mut dice, &mut turn);
                    let (steps, _) = turn_steps(b, start, square, streak, rolled.sum);
                    let found = steps.iter().any(|(_, s)| {
                        s.outcome.to == table.square(turn.row)
                            && s.again != rolled.turn_ends
                            && RollTally::of(&s.outcome) == rolled.tally
                    });
                    assert!(found, "{} {square} streak {streak} {rolled:?}", b.name());
                    assert_eq!(rolled.forfeited, steps[0].1.forfeited);
                    forfeits += usize::from(rolled.forfeited);
                    if rolled.turn_ends {
                        assert_eq!(turn, Turn::at(turn.row));
                    } else {
                        assert_eq!(turn.streak, streak + 1);
                    }
                }
            }
        }
    }
    assert!(forfeits > 0);
}
