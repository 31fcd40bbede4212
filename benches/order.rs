//! Criterion benchmarks for the fill-reducing elimination order (`exact::order`): the Markowitz
//! order and `elimination_order` (with the comparison against square order) on the roll-level
//! patterns of the generated 1,000- and 10,000-square boards. The fill they give:
//! `cargo run --release --example fill` (docs/solver.md, "Elimination order").

use criterion::{criterion_group, criterion_main, Criterion};
use ladders::board::Board;
use ladders::internals::RollLevel;
use ladders::internals::{elimination_order, markowitz};
use std::hint::black_box;
use std::path::Path;

fn bench_order(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/boards");
    for name in ["gen-1000", "gen-10000"] {
        let board = Board::load(&root.join(format!("{name}.toml"))).unwrap();
        let rl = RollLevel::new(&board).unwrap();
        let rows = rl.pattern();
        c.bench_function(&format!("order/markowitz/{name}"), |b| {
            b.iter(|| markowitz(black_box(&rows)))
        });
        c.bench_function(&format!("order/elimination_order/{name}"), |b| {
            b.iter(|| elimination_order(black_box(&rows)))
        });
    }
}

criterion_group!(benches, bench_order);
criterion_main!(benches);
