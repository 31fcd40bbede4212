//! Criterion benchmarks for `expect`: the exact expected turns (and variance, rolls, snakes,
//! ladders, climb, slide) of the built-in boards, chain building included.

use criterion::{criterion_group, criterion_main, Criterion};
use ladders::analysis::expectation::expect;
use ladders::board::builtin;
use ladders::chain::Chain;
use std::hint::black_box;

fn bench_expect(c: &mut Criterion) {
    for name in ["milton-bradley", "efi"] {
        let board = builtin(name).unwrap().unwrap();
        c.bench_function(&format!("expect/{name}"), |b| {
            b.iter(|| expect(black_box(&board)))
        });
        c.bench_function(&format!("chain/{name}"), |b| {
            b.iter(|| Chain::for_board(black_box(&board)))
        });
    }
}

criterion_group!(benches, bench_expect);
criterion_main!(benches);
