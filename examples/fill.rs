//! Prints the entries after fill of the exact solver's elimination in square order and in the
//! order of `ladders::internals::elimination_order`, with the time the ordering takes, for
//! the roll-level systems of the built-in boards, the generated benchmark boards and any board
//! files given as arguments (docs/solver.md, "Elimination order"):
//!
//! ```text
//! cargo run --release --example fill [--solve | --solve-all] [BOARD.toml ...]
//! ```
//!
//! With `--solve`, also times `exact::solve::solve` on the expected-turns system (start component
//! only) given in square order and permuted, on the boards of at most 2,000 states (all of them
//! with `--solve-all`), and checks that both give the same fraction. (The solver now orders the
//! system itself, so both times are of the chosen order.)

use ladders::board::{builtin, Board};
use ladders::internals::RollLevel;
use ladders::internals::{
    elimination_order, entries_after_fill, inverse, markowitz, permute_entries,
};
use ladders::internals::{solve, System, Wanted};
use std::path::Path;
use std::time::{Duration, Instant};

/// Times `exact::solve::solve` on the expected-turns system `A x = F - again` (as
/// `roll_level_system` builds it), in square order and permuted by `perm`: one table row.
fn time_solves(name: &str, board: &Board, perm: &[u32]) -> String {
    let rl = RollLevel::new(board).expect("roll level");
    let d = rl.denominator() as i64;
    let mut a: Vec<Vec<(u32, i64)>> = Vec::new();
    let mut b = Vec::new();
    for (i, moves) in rl.moves().iter().enumerate() {
        let mut row = vec![(i as u32, d)];
        row.extend(
            moves
                .iter()
                .filter_map(|m| m.to.map(|j| (j as u32, -(m.weight as i64)))),
        );
        b.push(
            d - moves
                .iter()
                .filter(|m| m.again)
                .map(|m| m.weight as i64)
                .sum::<i64>(),
        );
        a.push(row);
    }
    let start = rl.start().expect("start on the board");
    let inv = inverse(perm);
    let to_usize = |m: Vec<Vec<(u32, i64)>>| -> Vec<Vec<(usize, i64)>> {
        m.into_iter()
            .map(|r| r.into_iter().map(|(j, v)| (j as usize, v)).collect())
            .collect()
    };
    let pb: Vec<i64> = perm.iter().map(|&o| b[o as usize]).collect();
    let pa = to_usize(permute_entries(&a, perm));
    let a = to_usize(a);
    let want = [start];
    let want_p = [inv[start] as usize];
    let reps = if a.len() > 5000 { 1 } else { 5 };
    let run = |a: &[Vec<(usize, i64)>], b: &[i64], w: &[usize]| {
        let mut best = Duration::MAX;
        let mut x = None;
        for _ in 0..reps {
            let t = Instant::now();
            x = Some(solve(System::integer(a, &[b.to_vec()]), &[Wanted::Some(w)]).expect("solve"));
            best = best.min(t.elapsed());
        }
        (best, x.expect("ran"))
    };
    let (t0, x0) = run(&a, &b, &want);
    let (t1, x1) = run(&pa, &pb, &want_p);
    format!(
        "| {name} | {:.2} ms | {:.2} ms | {} |",
        t0.as_secs_f64() * 1e3,
        t1.as_secs_f64() * 1e3,
        if x0 == x1 { "yes" } else { "NO" }
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/boards");
    let mut boards: Vec<(String, Board)> = Vec::new();
    for name in ["milton-bradley", "efi"] {
        boards.push((name.into(), builtin(name).ok_or("no such board")?));
    }
    for name in ["gen-1000", "gen-1000-again", "gen-10000", "gen-10000-again"] {
        boards.push((
            name.into(),
            Board::load(&root.join(format!("{name}.toml")))?,
        ));
    }
    let mut solve = false;
    let mut solve_max = 2000;
    for arg in std::env::args().skip(1) {
        if arg == "--solve" {
            solve = true;
        } else if arg == "--solve-all" {
            solve = true;
            solve_max = usize::MAX;
        } else {
            boards.push((arg.clone(), Board::load(Path::new(&arg))?));
        }
    }
    let mut solves = Vec::new();
    println!("| board | states | entries of A | square order | Markowitz | chosen | per row: square -> chosen | Markowitz time | elimination_order time |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, board) in &boards {
        let Some(rows) = RollLevel::new(board).map(|rl| rl.pattern()) else {
            println!("| {name} | (roll_again = K: turn chain, not measured) |");
            continue;
        };
        let n = rows.len().max(1);
        let nnz: usize = rows.iter().map(Vec::len).sum();
        let identity: Vec<u32> = (0..rows.len() as u32).collect();
        let square = entries_after_fill(&rows, &identity);
        // Best of several runs: the machine is shared.
        let mut best = Duration::MAX;
        let mut perm = Vec::new();
        let runs = if rows.len() > 5000 { 5 } else { 50 };
        for _ in 0..runs {
            let t = Instant::now();
            perm = elimination_order(&rows);
            best = best.min(t.elapsed());
        }
        let ordered = entries_after_fill(&rows, &perm);
        let mut best_m = Duration::MAX;
        let mut markowitz_entries = 0;
        for _ in 0..runs {
            let t = Instant::now();
            markowitz_entries = markowitz(&rows).1;
            best_m = best_m.min(t.elapsed());
        }
        println!(
            "| {name} | {} | {nnz} | {square} | {markowitz_entries} | {ordered} | {:.1} -> {:.1} | {:.3} ms | {:.3} ms |",
            rows.len(),
            square as f64 / n as f64,
            ordered as f64 / n as f64,
            best_m.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e3
        );
        if solve && rows.len() <= solve_max {
            solves.push(time_solves(name, board, &perm));
        }
    }
    if solve {
        println!();
        println!("| board | solve, square order | permuted | same fraction |");
        println!("|---|---|---|---|");
        for line in solves {
            println!("{line}");
        }
    }
    Ok(())
}
