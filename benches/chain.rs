//! Criterion benchmarks for issue 38's chain row: the turn chain of gen-10000-again (10,000
//! squares, a d6 whose sixes roll again without limit) held as links (target: within 2 s),
//! and on gen-1000-again the links form against the whole turns (`Chain::for_board`).

use criterion::{criterion_group, criterion_main, Criterion};
use ladders::board::Board;
use ladders::internals::{Chain, LinkedChain};
use std::hint::black_box;

fn bench_board(name: &str) -> Board {
    let path = format!("{}/benches/boards/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    Board::from_toml_str(&text, &path).unwrap()
}

fn bench_chain(c: &mut Criterion) {
    let mut group = c.benchmark_group("chain");
    group.sample_size(10);
    let board = bench_board("gen-10000-again");
    group.bench_function("gen-10000-again/links", |b| {
        b.iter(|| LinkedChain::for_board(black_box(&board)).unwrap())
    });
    let board = bench_board("gen-1000-again");
    group.bench_function("gen-1000-again/links", |b| {
        b.iter(|| LinkedChain::for_board(black_box(&board)).unwrap())
    });
    group.bench_function("gen-1000-again/whole-turns", |b| {
        b.iter(|| Chain::for_board(black_box(&board)))
    });
    group.finish();
}

criterion_group!(benches, bench_chain);
criterion_main!(benches);
