//! Criterion benchmarks for `expect`: the exact expectations (expected turns, variance, rolls,
//! snakes, ladders, climb, slide) of the built-in boards and of a generated 1,000-square board
//! with and without roll-again, exact and `--float`; the turn chain of the built-in boards; on
//! issue 12's stateful board (`benches/boards/mb-once4-apples4.toml`: 4 one-use ladders, 4
//! apples) the expectations and the law of the final score.
//! Side-by-side figures against FLINT and Storm: `benches/peers.sh` (docs/solver.md).

use criterion::{criterion_group, criterion_main, Criterion};
use ladders::board::{builtin, Board};
use ladders::internals::score;
use ladders::internals::Chain;
use ladders::internals::{expect_float, expect_with};
use std::hint::black_box;
use std::path::Path;

fn bench_expect(c: &mut Criterion) {
    for name in ["milton-bradley", "efi"] {
        let board = builtin(name).unwrap();
        c.bench_function(&format!("expect/{name}"), |b| {
            b.iter(|| expect_with(black_box(&board), false))
        });
        c.bench_function(&format!("chain/{name}"), |b| {
            b.iter(|| Chain::for_board(black_box(&board)))
        });
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/boards");
    for name in ["gen-1000", "gen-1000-again", "gen-10000"] {
        let board = Board::load(&root.join(format!("{name}.toml"))).unwrap();
        if name != "gen-10000" {
            let mut group = c.benchmark_group("expect-large");
            group.sample_size(10);
            group.bench_function(name, |b| b.iter(|| expect_with(black_box(&board), false)));
            group.finish();
        }
        c.bench_function(&format!("expect-float/{name}"), |b| {
            b.iter(|| expect_float(black_box(&board), false).unwrap())
        });
    }
    let stateful = Board::load(&root.join("mb-once4-apples4.toml")).unwrap();
    let mut group = c.benchmark_group("expect-stateful");
    group.sample_size(10);
    group.bench_function("mb-once4-apples4", |b| {
        b.iter(|| expect_with(black_box(&stateful), false))
    });
    group.bench_function("mb-once4-apples4/score", |b| {
        b.iter(|| score(black_box(&stateful)).unwrap().unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench_expect);
criterion_main!(benches);
