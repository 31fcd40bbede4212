//! Tests of the per-component spectral radius: hand-worked chains with exact radii, the old
//! whole-matrix computation (dense Schur on all of Q, and the power method on all of Q) on the
//! built-in boards and the stateful fixtures, and the certified decay rate of the generating
//! function (a second method: the root of D nearest 0).

use std::collections::HashMap;

use nalgebra::DMatrix;

use super::*;
use crate::analysis::pgf::{pgf, tail::decay_rate};
use crate::analysis::stateful::{law_chain, stateful_chain};
use crate::board::{builtin, builtin_names, Board};
use crate::test_util::{matrix, seeded_words as seeded};

fn fixture(path: &str) -> Board {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    Board::from_toml_str(&text, path).unwrap()
}

/// The old route: the spectral radius of all of Q at once by nalgebra's dense Schur
/// decomposition.
fn whole_dense<S: ChainState>(chain: &Chain<S>) -> Option<f64> {
    let t = chain.transient_count();
    let mut q = DMatrix::<f64>::zeros(t, t);
    for (i, row) in chain.rows().iter().enumerate() {
        for (j, p) in row.iter().filter(|(j, _)| *j < t) {
            q[(i, *j)] = to_f64(p);
        }
    }
    let schur = nalgebra::linalg::Schur::try_new(q, f64::EPSILON, 100_000)?;
    let eigenvalues = schur.complex_eigenvalues();
    Some(eigenvalues.iter().map(|z| z.norm()).fold(0.0, f64::max))
}

/// The old fallback: the power method on all of Q from the uniform vector, `|v Q| / |v|` after
/// many steps (v normalised each step).
fn whole_power<S: ChainState>(chain: &Chain<S>, steps: usize) -> f64 {
    let t = chain.transient_count();
    let rows: Vec<Vec<(usize, f64)>> = chain
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .filter(|(j, _)| *j < t)
                .map(|(j, p)| (*j, to_f64(p)))
                .collect()
        })
        .collect();
    let mut v = vec![1.0 / t as f64; t];
    let mut rho = 0.0;
    for _ in 0..steps {
        let mut next = vec![0.0; t];
        for (i, row) in rows.iter().enumerate() {
            for &(j, p) in row {
                next[j] += v[i] * p;
            }
        }
        rho = next.iter().sum::<f64>();
        v = next.into_iter().map(|x| x / rho).collect();
    }
    rho
}

/// Every transition of Q goes from a component to itself or a later one, and the components
/// cover the transient states once each.
fn assert_topological<S: ChainState>(chain: &Chain<S>, comps: &[Vec<usize>]) {
    let t = chain.transient_count();
    let mut at: HashMap<usize, usize> = HashMap::new();
    for (k, c) in comps.iter().enumerate() {
        for &i in c {
            assert!(at.insert(i, k).is_none(), "state {i} in two components");
        }
    }
    assert_eq!(at.len(), t);
    for (i, row) in chain.rows().iter().enumerate() {
        for (j, _) in row.iter().filter(|(j, _)| *j < t) {
            assert!(at[&i] <= at[j], "{i} -> {j} goes back a component");
        }
    }
}

#[test]
fn the_tiny_board_has_rho_one_half_exactly() {
    // Q = [[1/2, 1/2], [0, 1/2]] (boards/tiny.toml, worked there): two one-state components,
    // each with a loop of 1/2, so rho = 1/2 with no rounding at all. The whole-matrix power
    // method only approaches it (a double eigenvalue).
    let chain = Chain::for_board(&builtin("tiny").unwrap());
    assert_eq!(components(&chain), vec![vec![0], vec![1]]);
    let r = spectral_bounds(&chain).unwrap();
    assert_eq!((r.low, r.estimate, r.high), (0.5, 0.5, 0.5));
}

#[test]
fn layers_take_the_largest_block() {
    // Hand-worked: block {0, 1} with every entry 1/4 (rho = 1/2: the row sums are all 1/2),
    // feeding state 2 with a loop of 3/4 (rho = 3/4), feeding state 3 with no loop (rho = 0).
    // rho(Q) = max(1/2, 3/4, 0) = 3/4 exactly, found in the second component.
    let chain = matrix(vec![
        vec![(0, (1, 4)), (1, (1, 4)), (2, (1, 4))],
        vec![(0, (1, 4)), (1, (1, 4)), (3, (1, 4))],
        vec![(2, (3, 4)), (3, (1, 8))],
        vec![],
    ]);
    let comps = components(&chain);
    assert_eq!(comps, vec![vec![0, 1], vec![2], vec![3]]);
    assert_topological(&chain, &comps);
    let r = spectral_bounds(&chain).unwrap();
    assert_eq!((r.low, r.estimate, r.high), (0.75, 0.75, 0.75));
    // The first block alone: its Perron vector is uniform, so the bounds are exact too.
    let first = matrix(vec![
        vec![(0, (1, 4)), (1, (1, 4))],
        vec![(0, (1, 4)), (1, (1, 4))],
    ]);
    let r = spectral_bounds(&first).unwrap();
    assert_eq!((r.low, r.high), (0.5, 0.5));
}

#[test]
fn a_periodic_block_is_enclosed() {
    // Q = [[0, 1/2], [1/3, 0]]: period 2, eigenvalues +-sqrt(1/6), so the plain power method
    // never settles (it alternates) and the shifted one must. Check low^2 <= 1/6 <= high^2
    // exactly, and a width of at most 1e-13 relative.
    let chain = matrix(vec![vec![(1, (1, 2))], vec![(0, (1, 3))]]);
    let r = spectral_bounds(&chain).unwrap();
    let sixth = BigRational::new(1.into(), 6.into());
    let sq = |f: f64| {
        let q = BigRational::from_float(f).unwrap();
        &q * &q
    };
    assert!(sq(r.low) <= sixth && sixth <= sq(r.high), "{r:?}");
    assert!(r.high - r.low <= 1e-13 * r.high, "{r:?}");
    assert!(r.low <= r.estimate && r.estimate <= r.high);
}

#[test]
fn no_transient_state_has_no_radius() {
    let chain = matrix(vec![vec![]]);
    assert_eq!(spectral_bounds(&matrix(vec![])).map(|_| ()), None);
    // One state, no loop: Q = [0], rho = 0 exactly.
    let r = spectral_bounds(&chain).unwrap();
    assert_eq!((r.low, r.high), (0.0, 0.0));
}

/// The per-component bounds contain the old whole-matrix value (to its float error) and are
/// narrow, and the components are in topological order.
fn agrees_with_the_whole_matrix<S: ChainState>(name: &str, chain: &Chain<S>) -> Radius {
    let comps = components(chain);
    assert_topological(chain, &comps);
    let r = spectral_bounds(chain).unwrap();
    // The dense route is slow on layered chains (48 s on the 550 states of stateful-all.toml):
    // only small chains get it; the others the power method on all of Q.
    let old = (chain.transient_count() <= 200)
        .then(|| whole_dense(chain))
        .flatten()
        .unwrap_or_else(|| whole_power(chain, 20_000));
    let slack = 1e-11 * old.max(1e-300);
    assert!(
        r.low - slack <= old && old <= r.high + slack,
        "{name}: old {old} outside {r:?}"
    );
    assert!(r.high - r.low <= 1e-12 * r.high, "{name}: wide {r:?}");
    assert!(r.low <= r.estimate && r.estimate <= r.high, "{name}: {r:?}");
    r
}

#[test]
fn every_built_in_board_agrees_with_the_whole_matrix() {
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        if board.is_stateful() {
            let chain = stateful_chain(&board);
            agrees_with_the_whole_matrix(name, &chain);
            // Layered: far more components than squares would give one at a time.
            assert!(components(&chain).len() > 1, "{name}");
        } else {
            agrees_with_the_whole_matrix(name, &Chain::for_board(&board));
        }
    }
}

#[test]
fn stateful_fixtures_agree_with_the_whole_matrix() {
    let dir = format!(
        "{}/tests/fixtures/independent-boards",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names.push("../sim/stateful-all.toml".into());
    for name in names {
        let board = fixture(&format!("tests/fixtures/independent-boards/{name}"));
        if board.is_stateful() {
            agrees_with_the_whole_matrix(&name, &stateful_chain(&board));
        } else {
            agrees_with_the_whole_matrix(&name, &Chain::for_board(&board));
        }
    }
}

#[test]
fn the_bounds_meet_the_generating_functions_certified_rate() {
    // A second method: rho = 1/z0, z0 the root of D nearest 0, proved between two fractions by
    // sign changes of D and a Collatz-Wielandt check on all of Q (analysis::pgf::tail). Both
    // enclosures hold the true rho, so they must overlap.
    let boards = [
        builtin("milton-bradley").unwrap(),
        fixture("tests/fixtures/sim/stateful-all.toml"),
        fixture("tests/fixtures/independent-boards/tiles-once-points.toml"),
    ];
    for board in &boards {
        let r = if board.is_stateful() {
            // The chain without the eaten apples: the same law of T, far fewer states.
            let chain = law_chain(board);
            let d = decay_rate(&chain, &pgf(&chain)).expect("certified");
            (spectral_bounds(&chain).unwrap(), d)
        } else {
            let chain = Chain::for_board(board);
            let d = decay_rate(&chain, &pgf(&chain)).expect("certified");
            (spectral_bounds(&chain).unwrap(), d)
        };
        let (ours, theirs) = r;
        let low = BigRational::from_float(ours.low).unwrap();
        let high = BigRational::from_float(ours.high).unwrap();
        assert!(
            low <= theirs.high && theirs.low <= high,
            "{}: {ours:?} vs [{}, {}]",
            board.name(),
            to_f64(&theirs.low),
            to_f64(&theirs.high)
        );
    }
}

/// The bounds do not depend on the common denominator that scales Q: Q over the lcm of the
/// transient entries' denominators (as [`TransientQ`] reads it) and over the whole chain's
/// (every row's entries, the final columns' too, as the blocks were scaled before) give the
/// same radius, float for float, on every built-in board.
#[test]
fn the_bounds_are_the_same_over_either_common_denominator() {
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        if board.is_stateful() {
            same_over_either_denominator(name, &stateful_chain(&board));
        } else {
            same_over_either_denominator(name, &Chain::for_board(&board));
        }
    }
}

fn same_over_either_denominator<S: ChainState>(name: &str, chain: &Chain<S>) {
    let q = TransientQ::new(chain);
    let whole = chain.common_denominator();
    let t = chain.transient_count();
    let over_whole = TransientQ::from_entries(
        whole.clone(),
        chain
            .rows()
            .iter()
            .map(|row| {
                row.iter()
                    .filter(|(j, _)| *j < t)
                    .map(|(j, p)| (*j, to_f64(p), p.numer() * (&whole / p.denom())))
                    .collect()
            })
            .collect(),
    );
    assert_eq!(
        spectral_bounds_of(chain, &q, None),
        spectral_bounds_of(chain, &over_whole, None),
        "{name}"
    );
}

/// The power method started from the law of the position at the tail law's turn (as
/// `distribution` starts it) proves bounds that overlap the uniform start's (both hold the true
/// rho), at least as narrow as 1e-14 of rho, and with an estimate inside both, on every
/// built-in board whose tail law settles.
#[test]
fn a_start_from_the_settled_law_proves_rho_too() {
    let (mut seeded, mut moved) = (0, 0);
    for name in builtin_names() {
        let chain = Chain::for_board(&builtin(name).unwrap());
        let Some(start) = crate::analysis::tail_law::TailLawStart::new(&chain) else {
            continue;
        };
        let (_, Some(u)) = start.finish_by_stepping(&chain) else {
            continue;
        };
        seeded += 1;
        let q = TransientQ::new(&chain);
        let from_u = spectral_bounds_of(&chain, &q, Some(&u)).unwrap();
        let uniform = spectral_bounds_of(&chain, &q, None).unwrap();
        assert!(
            from_u.low <= uniform.high && uniform.low <= from_u.high,
            "{name}: {from_u:?} vs {uniform:?}"
        );
        assert!(
            from_u.high - from_u.low <= 1e-14 * from_u.high,
            "{name}: {from_u:?}"
        );
        assert!(from_u.low <= from_u.estimate && from_u.estimate <= from_u.high);
        moved += usize::from(from_u != uniform);
        // Exact where the whole matrix's dense estimate can check it.
        let dense = whole_dense(&chain).unwrap();
        assert!((from_u.estimate - dense).abs() <= 1e-9, "{name}: {dense}");
    }
    assert!(seeded >= 5, "only {seeded} boards have a settled law");
    // The start is used: another vector, other last bits.
    assert!(moved >= seeded / 2, "{moved} of {seeded}");
}

/// A start that cannot serve (of the wrong length, negative, not finite, or with no mass on a
/// component) is not used: the bounds are the uniform start's, float for float.
#[test]
fn an_unusable_start_falls_back_to_the_uniform_vector() {
    let chain = Chain::for_board(&builtin("milton-bradley").unwrap());
    let q = TransientQ::new(&chain);
    let uniform = spectral_bounds_of(&chain, &q, None).unwrap();
    let t = chain.transient_count();
    let starts = [
        vec![1.0; t - 1],
        vec![0.0; t],
        vec![-1.0; t],
        vec![f64::NAN; t],
        vec![f64::INFINITY; t],
    ];
    for start in &starts {
        assert_eq!(spectral_bounds_of(&chain, &q, Some(start)), Some(uniform));
    }
    assert_eq!(
        block_start(&[0.0, 2.0, 6.0], &[1, 2]),
        Some(vec![0.25, 0.75])
    );
}

/// The components of Q's graph by petgraph's Tarjan (the route before this file had its own),
/// sorted: the same sets whatever order two unrelated components come in.
fn petgraph_components(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    use petgraph::graph::{DiGraph, NodeIndex};
    let mut graph = DiGraph::<(), ()>::with_capacity(n, edges.len());
    let nodes: Vec<NodeIndex> = (0..n).map(|_| graph.add_node(())).collect();
    for &(i, j) in edges {
        graph.add_edge(nodes[i], nodes[j], ());
    }
    let mut comps: Vec<Vec<usize>> = petgraph::algo::tarjan_scc(&graph)
        .into_iter()
        .map(|c| {
            let mut c: Vec<usize> = c.into_iter().map(NodeIndex::index).collect();
            c.sort_unstable();
            c
        })
        .collect();
    comps.sort();
    comps
}

/// `components` finds petgraph's components, in topological order.
fn components_agree_with_petgraph<S: ChainState>(name: &str, chain: &Chain<S>) {
    let t = chain.transient_count();
    let edges: Vec<(usize, usize)> = (0..t)
        .flat_map(|i| chain.rows()[i].iter().map(move |(j, _)| (i, *j)))
        .filter(|&(_, j)| j < t)
        .collect();
    let comps = components(chain);
    assert_topological(chain, &comps);
    let mut sorted = comps.clone();
    sorted.sort();
    assert_eq!(sorted, petgraph_components(t, &edges), "{name}");
}

#[test]
fn the_components_are_petgraphs_on_every_built_in_board_and_random_graphs() {
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        if board.is_stateful() {
            components_agree_with_petgraph(name, &stateful_chain(&board));
        } else {
            components_agree_with_petgraph(name, &Chain::for_board(&board));
        }
    }
    // Random graphs of every density, self-loops and repeated edges included (a seeded
    // stream): many small components, a few large ones, long paths.
    let mut next = seeded(5);
    for case in 0..300 {
        let n = 1 + (next() % 60) as usize;
        let m = (next() % (3 * n as u64 + 1)) as usize;
        let edges: Vec<(usize, usize)> = (0..m)
            .map(|_| ((next() % n as u64) as usize, (next() % n as u64) as usize))
            .collect();
        let mut adjacency = vec![Vec::new(); n];
        edges.iter().for_each(|&(i, j)| adjacency[i].push(j));
        let comps = strong_components(n, |i| adjacency[i].iter().copied());
        let at: Vec<usize> = {
            let mut at = vec![usize::MAX; n];
            for (k, c) in comps.iter().enumerate() {
                c.iter().for_each(|&i| at[i] = k);
            }
            at
        };
        assert!(at.iter().all(|&k| k != usize::MAX), "case {case}");
        assert!(edges.iter().all(|&(i, j)| at[i] <= at[j]), "case {case}");
        let mut sorted = comps;
        sorted.sort();
        assert_eq!(sorted, petgraph_components(n, &edges), "case {case}");
    }
    // A path of 100,000 states: one component each, without recursion.
    let n = 100_000;
    let comps = strong_components(n, |i| (i + 1 < n).then_some(i + 1).into_iter());
    assert_eq!(comps.len(), n);
    assert!(comps.iter().enumerate().all(|(k, c)| c == &[k]));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    #[test]
    fn the_components_hold_on_random_boards(
        text in crate::test_util::random_board()
    ) {
        let board = Board::from_toml_str(&text, "random");
        proptest::prop_assume!(board.is_ok());
        let board = board.unwrap();
        if board.is_stateful() {
            let chain = stateful_chain(&board);
            components_agree_with_petgraph("random", &chain);
        } else {
            let chain = Chain::for_board(&board);
            components_agree_with_petgraph("random", &chain);
        }
    }
}

#[test]
fn tiny_has_rho_one_half_in_each_of_its_two_components() {
    // boards/tiny.toml: Q = [[1/2, 1/2], [0, 1/2]], two components with rho = 1/2 each.
    let tiny = builtin("tiny").unwrap();
    let r = spectral_bounds(&Chain::for_board(&tiny)).unwrap();
    assert_eq!((r.low, r.estimate, r.high), (0.5, 0.5, 0.5));
}
