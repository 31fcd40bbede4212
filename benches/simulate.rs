//! Simulator throughput: one chunk of games on one core (no threads), seeded, per board (the
//! plain boards' lockstep loop, `src/simulate/fast.rs`), and a million Efi games on all of
//! rayon's threads (issue 16's `simulate efi` target, per game and roll).
//! Run: `cargo bench --bench simulate`. Rolls per second = rolls per chunk / time per chunk.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ladders::board::builtin;
use ladders::internals::run_chunk;
use ladders::internals::Table;
use ladders::simulate::{simulate, SimOptions};
use std::hint::black_box;

fn bench_chunks(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate_chunk_one_core");
    group.sample_size(20);
    for name in ["efi", "milton-bradley"] {
        let board = builtin(name).unwrap();
        let table = Table::new(&board);
        let games = 1 << 14;
        // Rolls in this chunk (same seed, same games every iteration).
        let rolls = run_chunk(&table, 1, 0, games, 10_000).total_rolls;
        group.throughput(Throughput::Elements(rolls));
        group.bench_function(format!("{name}_16k_games_rolls"), |b| {
            b.iter(|| run_chunk(black_box(&table), black_box(1), 0, games, 10_000))
        });
    }
    group.finish();
}

fn bench_all_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate_all_threads");
    group.sample_size(10);
    let board = builtin("efi").unwrap();
    let options = SimOptions::new(1_000_000, 1).max_turns(10_000);
    let rolls = simulate(&board, &options, &|_| {}).total_rolls;
    group.throughput(Throughput::Elements(rolls));
    group.bench_function("efi_1M_games_rolls", |b| {
        b.iter(|| simulate(black_box(&board), black_box(&options), &|_| {}))
    });
    group.finish();
}

criterion_group!(benches, bench_chunks, bench_all_threads);
criterion_main!(benches);
