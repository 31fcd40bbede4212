//! Criterion benchmarks for issue 3's targets: the full exact distribution of milton-bradley and
//! efi until P(T > n) < 1e-15 (target: under 100 ms each), with and without building the chain;
//! the exact integer stepping alone; the shortest and longest game; issue 16's 500 turns as
//! certified decimals against the exact fractions, and on the 1,000-square bench board.

use criterion::{criterion_group, criterion_main, Criterion};
use ladders::analysis::DistributionOptions;
use ladders::board::builtin;
use ladders::internals::certified_distribution;
use ladders::internals::distribution;
use ladders::internals::extremes_of;
use ladders::internals::Chain;
use ladders::internals::IntegerChain;
use ladders::internals::SingleBoard;
use num_rational::BigRational;
use std::hint::black_box;

fn bench_distribution(c: &mut Criterion) {
    let mut group = c.benchmark_group("distribution");
    group.sample_size(20);
    let options = DistributionOptions::tail(BigRational::new(1.into(), 10u64.pow(15).into()));
    for name in ["milton-bradley", "efi"] {
        let board = builtin(name).unwrap();
        let chain = Chain::for_board(&board);
        let turns = distribution(&chain, &options).unwrap().turns();
        group.bench_function(format!("{name}/1e-15"), |b| {
            b.iter(|| distribution(black_box(&chain), &options).unwrap())
        });
        group.bench_function(format!("{name}/1e-15+chain"), |b| {
            b.iter(|| distribution(&Chain::for_board(black_box(&board)), &options).unwrap())
        });
        let ic = IntegerChain::new(&chain);
        group.bench_function(format!("{name}/steps-only-{turns}"), |b| {
            b.iter(|| {
                let mut s = ic.stepper();
                for _ in 0..turns {
                    s.step();
                }
                black_box(s.scale().bits())
            })
        });
        // Issue 16: the decimals alone (certified stepping), 500 turns, 12 digits.
        let five_hundred = DistributionOptions::turns(500);
        group.bench_function(format!("{name}/decimals-500"), |b| {
            b.iter(|| certified_distribution(black_box(&chain), &five_hundred, 12).unwrap())
        });
        group.bench_function(format!("{name}/exact-500"), |b| {
            b.iter(|| distribution(black_box(&chain), &five_hundred).unwrap())
        });
        group.bench_function(format!("{name}/shortest"), |b| {
            b.iter(|| extremes_of(black_box(&board), &SingleBoard::new(&board), &chain))
        });
    }
    // Issue 16's third board: 1,000 squares, 500 turns as certified decimals (the tail law
    // steps on past turn 500 there).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/boards/gen-1000.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let board = ladders::board::Board::from_toml_str(&text, path).unwrap();
    let chain = Chain::for_board(&board);
    let five_hundred = DistributionOptions::turns(500);
    group.bench_function("gen-1000/decimals-500", |b| {
        b.iter(|| certified_distribution(black_box(&chain), &five_hundred, 12).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench_distribution);
criterion_main!(benches);
