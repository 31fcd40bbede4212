//! Criterion benchmarks for `race`: the certified 15-digit answer (win probability of each seat
//! and expected rounds) for two players on Efi, chain building and tail bounds included; and
//! seed 001's table row for five players on Milton Bradley.

use criterion::{criterion_group, criterion_main, Criterion};
use ladders::board::builtin;
use ladders::race::{race, RaceOptions};
use std::hint::black_box;

fn bench_race(c: &mut Criterion) {
    let efi = builtin("efi").unwrap().unwrap();
    let mb = builtin("milton-bradley").unwrap().unwrap();
    let options = RaceOptions::default();
    c.bench_function("race/efi-2-players-15-digits", |b| {
        b.iter(|| race(black_box(&[&efi, &efi]), &options).unwrap())
    });
    let five = [&mb; 5];
    c.bench_function("race/milton-bradley-5-players-15-digits", |b| {
        b.iter(|| race(black_box(&five), &options).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench_race
}
criterion_main!(benches);
