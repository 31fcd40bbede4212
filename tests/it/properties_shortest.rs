//! Property tests on random boards for the distribution and the shortest game: BFS's fewest
//! turns is the first n with P(T = n) > 0, every witness replays through the rules, and the
//! probabilities plus the tail sum to 1 exactly.

use ladders::analysis::DistributionOptions;
use ladders::analysis::Longest;
use ladders::internals::distribution;
use ladders::internals::extremes;
use ladders::internals::Chain;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;

use crate::common::{random_board, valid_board};
use crate::invariants::replay;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn bfs_fewest_turns_is_the_first_n_with_positive_probability(text in random_board()) {
        let board = valid_board(&text);
        let chain = Chain::for_board(&board);
        // The start is never the finish on these boards (start 0 or 1, at least 5 squares).
        prop_assert!(chain.start() < chain.transient_count());
        let e = extremes(&board);
        // Every state is reachable in fewer turns than there are states, so this many terms
        // contain the first positive one if there is one.
        let options = DistributionOptions::turns(chain.states().len() + 1);
        let d = distribution(&chain, &options).unwrap();
        let first = d.terms.iter().find(|t| !t.p.is_zero()).map(|t| t.n);
        prop_assert_eq!(e.shortest.as_ref().map(|s| s.turns), first, "{}", text);
        let total: BigRational = d.terms.iter().map(|t| t.p.clone()).sum();
        prop_assert_eq!(total + d.tail(), BigRational::one());
        if let Some(s) = &e.shortest {
            prop_assert_eq!(&s.probability, &d.terms[s.turns - 1].p);
            prop_assert_eq!(replay(&board, board.rules().start, &s.witness), Ok(board.size()));
            prop_assert_eq!(replay(&board, board.rules().start, &s.rolls_witness), Ok(board.size()));
            prop_assert_eq!(s.witness.len(), s.turns);
            let rolls: usize = s.rolls_witness.iter().map(|t| t.rolls.len()).sum();
            prop_assert_eq!(rolls, s.rolls);
            let turn_rolls: usize = s.witness.iter().map(|t| t.rolls.len()).sum();
            prop_assert!(s.rolls <= turn_rolls);
        }
        match &e.longest {
            Longest::Unbounded { lead_in, cycle } => {
                let entry = replay(&board, board.rules().start, lead_in);
                prop_assert!(entry.is_ok(), "{:?}", entry);
                let entry = entry.unwrap();
                prop_assert_eq!(replay(&board, entry, cycle), Ok(entry));
                prop_assert!(!cycle.is_empty());
                prop_assert!(cycle.iter().all(|t| t.to() != board.size()));
            }
            Longest::EndlessTurn { lead_in } => {
                // The lead-in reaches a square whose turn can go on for ever.
                let entry = replay(&board, board.rules().start, lead_in);
                prop_assert!(entry.is_ok(), "{:?}", entry);
                prop_assert!(ladders::internals::turn_loop(&board, entry.unwrap()).is_some());
            }
            Longest::Bounded { turns, witness } => {
                // A bounded game has P(T > longest) = 0 exactly.
                prop_assert_eq!(replay(&board, board.rules().start, witness), Ok(board.size()));
                prop_assert!(d.terms.len() >= *turns);
                prop_assert!(d.terms[*turns - 1].survives.is_zero());
                prop_assert!(!d.terms[*turns - 1].p.is_zero());
            }
        }
    }
}
