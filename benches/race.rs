//! Criterion benchmarks for `race`: the certified 15-digit answer (win probability of each seat
//! and expected rounds) for two players on Efi, chain building and tail bounds included; and
//! seed 001's table row for five players on Milton Bradley; knock-off races over positions
//! relative to the mover, the chain generated during the sweeps (two players on Milton Bradley,
//! three on a 40-square board, four on a 20-square one; three on Milton Bradley take about 13 s:
//! `time ladders race milton-bradley --players 3 --knock-off`); and the shared-board race of
//! seed 003 (one-use ladders and apples: the certified joint chain, the race to each apple from
//! the same chain), with ten samples of about 2 s each.

use criterion::{criterion_group, criterion_main, Criterion};
use ladders::board::builtin;
use ladders::board::Board;
use ladders::internals::relative_race;
use ladders::internals::{shared_race, SharedOptions};
use ladders::race::{race, RaceOptions};
use std::hint::black_box;

fn bench_race(c: &mut Criterion) {
    let efi = builtin("efi").unwrap();
    let mb = builtin("milton-bradley").unwrap();
    let options = RaceOptions::default();
    c.bench_function("race/efi-2-players-15-digits", |b| {
        b.iter(|| race(black_box(&[&efi, &efi]), &options).unwrap())
    });
    let five = [&mb; 5];
    c.bench_function("race/milton-bradley-5-players-15-digits", |b| {
        b.iter(|| race(black_box(&five), &options).unwrap())
    });
    c.bench_function("race/milton-bradley-2-players-knock-off-relative", |b| {
        b.iter(|| relative_race(black_box(&[&mb, &mb]), 12).unwrap())
    });
    let knock40 = Board::from_toml_str(
        include_str!("../tests/fixtures/race/knock-40.toml"),
        "knock-40",
    )
    .unwrap();
    c.bench_function("race/knock-40-3-players-knock-off-relative", |b| {
        b.iter(|| relative_race(black_box(&[&knock40; 3]), 12).unwrap())
    });
    let knock20 = Board::from_toml_str(
        include_str!("../tests/fixtures/race/knock-20.toml"),
        "knock-20",
    )
    .unwrap();
    c.bench_function("race/knock-20-4-players-knock-off-relative", |b| {
        b.iter(|| relative_race(black_box(&[&knock20; 4]), 12).unwrap())
    });
}

fn bench_shared(c: &mut Criterion) {
    let seed3 = builtin("seed-003").unwrap();
    let options = SharedOptions::default();
    c.bench_function("race/seed-003-2-players-shared", |b| {
        b.iter(|| shared_race(black_box(&seed3), 2, &options).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench_race
}
criterion_group! {
    name = shared;
    config = Criterion::default().sample_size(10);
    targets = bench_shared
}
criterion_main!(benches, shared);
