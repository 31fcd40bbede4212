//! Prints the entries after fill of the exact solver's elimination in square order and in the
//! order of `ladders::exact::order::elimination_order`, with the time the ordering takes, for
//! the roll-level systems of the built-in boards, the generated benchmark boards and any board
//! files given as arguments (docs/solver.md, "Elimination order"):
//!
//! ```text
//! cargo run --release --example fill [BOARD.toml ...]
//! ```

use ladders::board::{builtin, Board};
use ladders::chain::RollLevel;
use ladders::exact::order::{elimination_order, entries_after_fill, markowitz};
use std::path::Path;
use std::time::{Duration, Instant};

/// The pattern of `A = F (I - S - R)`: each square's row has its diagonal and one entry per
/// face that does not finish (as `roll_level_system` in src/analysis/expectation.rs builds it).
fn pattern(board: &Board) -> Option<Vec<Vec<u32>>> {
    let rl = RollLevel::new(board)?;
    Some(
        rl.faces
            .iter()
            .enumerate()
            .map(|(i, faces)| {
                let mut r: Vec<u32> = faces.iter().filter_map(|f| f.0.map(|j| j as u32)).collect();
                r.push(i as u32);
                r.sort_unstable();
                r.dedup();
                r
            })
            .collect(),
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/boards");
    let mut boards: Vec<(String, Board)> = Vec::new();
    for name in ["milton-bradley", "efi"] {
        boards.push((name.into(), builtin(name).ok_or("no such board")??));
    }
    for name in ["gen-1000", "gen-1000-again", "gen-10000", "gen-10000-again"] {
        boards.push((
            name.into(),
            Board::load(&root.join(format!("{name}.toml")))?,
        ));
    }
    for path in std::env::args().skip(1) {
        boards.push((path.clone(), Board::load(Path::new(&path))?));
    }
    println!("| board | states | entries of A | square order | Markowitz | chosen | per row: square -> chosen | Markowitz time | elimination_order time |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, board) in &boards {
        let Some(rows) = pattern(board) else {
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
    }
    Ok(())
}
