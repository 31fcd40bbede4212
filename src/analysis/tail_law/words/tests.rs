//! Tests of the tail law's word route against its big integer route (the second method): the
//! same bounds and the same statement on every built-in board, and the fallback when a number
//! does not fit.

use super::super::geometric_bounds as dispatched;
use super::super::{best_statement, big_geometric_bounds, TailLawStart};
use super::*;
use crate::analysis::stateful::stateful_chain;
use crate::board::{builtin, builtin_names};
use crate::chain::{Chain, ChainState};
use crate::exact::certified::CertifiedChain;

/// The bounds by both routes, at the turn the law settles and 20 and 40 turns later (other
/// positions, the same u), and the statement from them; returns how many were compared.
fn both_routes_agree<S: ChainState>(name: &str, chain: &Chain<S>) -> usize {
    let Some(start) = TailLawStart::new(chain) else {
        return 0;
    };
    let cc = CertifiedChain::new(chain);
    let mut stepper = cc.stepper();
    let mut settling = start.settling();
    let mut settled: Option<(usize, Vec<f64>)> = None;
    let mut compared = 0;
    while !settling.gave_up(stepper.turn()) {
        stepper.step();
        if settled.is_none() {
            settled = settling.watch(&stepper).map(|u| (stepper.turn(), u));
        }
        let Some((m0, u)) = &settled else {
            continue;
        };
        let m = stepper.turn();
        if m > m0 + 40 {
            break;
        }
        if (m - m0) % 20 != 0 {
            continue;
        }
        let q = start.q();
        let position = stepper.position();
        let fast = geometric_bounds(q, u, &position)
            .expect("words fit on a built-in board")
            .map(|b| (best_statement(m, &b), b));
        let big = big_geometric_bounds(q, u, &position).map(|b| (best_statement(m, &b), b));
        assert_eq!(fast, big, "{name} at {m}");
        compared += 1;
    }
    compared
}

#[test]
fn the_word_route_gives_the_big_integer_bounds_on_every_built_in_board() {
    let mut compared = 0;
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        compared += match board.is_stateful() {
            true => both_routes_agree(name, &stateful_chain(&board)),
            false => both_routes_agree(name, &Chain::for_board(&board)),
        };
    }
    assert!(compared >= 10, "{compared}");
}

#[test]
fn numbers_too_wide_for_words_fall_back_to_big_integers() {
    // efi at the turn its law settles, then the same Q written as A 2^70 / (D 2^70) (no entry
    // of A fits in a word), and u with one state 2^-200 of the rest (U needs more than 128
    // bits): the word route declines and the bounds are the big integer route's, which are
    // the bounds of the original (the same Q, the same ratios).
    let chain = Chain::for_board(&builtin("efi").unwrap());
    let start = TailLawStart::new(&chain).unwrap();
    let cc = CertifiedChain::new(&chain);
    let mut stepper = cc.stepper();
    let mut settling = start.settling();
    let u = loop {
        stepper.step();
        if let Some(u) = settling.watch(&stepper) {
            break u;
        }
    };
    let m = stepper.turn();
    let position = stepper.position();
    let q = start.q();
    let original = big_geometric_bounds(q, &u, &position).unwrap();
    let wide = q.scaled(70);
    assert!(super::geometric_bounds(&wide, &u, &position).is_none());
    let fallen = dispatched(&wide, &u, &position).unwrap();
    assert_eq!(fallen, original);
    assert_eq!(best_statement(m, &fallen), best_statement(m, &original));
    let mut spread = u.clone();
    let j = (0..u.len()).find(|&j| u[j] > 0.0).unwrap();
    spread[j] = u[j] * 2f64.powi(-200);
    assert!(super::geometric_bounds(q, &spread, &position).is_none());
    assert_eq!(
        dispatched(q, &spread, &position),
        big_geometric_bounds(q, &spread, &position)
    );
}
