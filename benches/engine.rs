//! Engine benchmarks, sizes in their names (after dgryski/go-jump and buraksezer/consistent).
//! Run with `cargo bench --bench engine`; results are recorded in docs/PERFORMANCE.md.
#![allow(clippy::unwrap_used)] // A test that cannot go on fails loudly, where it stopped.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use hashring_lab::engine::hash::HashFn;
use hashring_lab::engine::keys::splitmix64;
use hashring_lab::engine::scenario::Scenario;
use hashring_lab::engine::sim::{Change, Simulation};

fn scenario(servers: usize, vnodes: u32, keys: u64) -> Scenario {
    let nodes: Vec<String> = (0..servers).map(|i| format!("server-{i}")).collect();
    let vnodes = vnodes.to_string();
    let keys = format!("key-{{i}}:0..{keys}");
    let joined = nodes.join(",");
    Scenario::from_pairs([
        ("nodes", joined.as_str()),
        ("vnodes", vnodes.as_str()),
        ("keys", keys.as_str()),
    ])
    .expect("bench scenario")
}

fn ring_lookup(c: &mut Criterion) {
    let mut group = c.benchmark_group("ring_lookup");
    for (servers, vnodes) in [(10, 200), (100, 200), (100, 1000)] {
        let sim = Simulation::new(&scenario(servers, vnodes, 1)).unwrap();
        let ring = sim.ring().unwrap().clone();
        let positions: Vec<u32> = (0..1_000_000u64).map(|i| splitmix64(i) as u32).collect();
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(
            BenchmarkId::new("positions", format!("servers={servers}/vnodes={vnodes}")),
            |b| {
                b.iter(|| {
                    let mut sink = 0u64;
                    for &p in &positions {
                        sink = sink.wrapping_add(u64::from(ring.owner_of(p)));
                    }
                    black_box(sink)
                })
            },
        );
    }
    group.finish();
}

fn hashing(c: &mut Criterion) {
    let mut group = c.benchmark_group("hash");
    let keys: Vec<String> = (0..100_000).map(|i| format!("key-{i}")).collect();
    group.throughput(Throughput::Elements(keys.len() as u64));
    for hash in HashFn::ALL.into_iter().filter(|h| *h != HashFn::Identity) {
        group.bench_function(BenchmarkId::new("keys=100000", hash.name()), |b| {
            b.iter(|| {
                keys.iter()
                    .map(|k| u64::from(hash.position(k).unwrap()))
                    .sum::<u64>()
            })
        });
    }
    group.finish();
}

fn full_assignment(c: &mut Criterion) {
    let mut group = c.benchmark_group("full_assignment");
    group.sample_size(10);
    let s = scenario(10, 200, 1_000_000);
    group.throughput(Throughput::Elements(1_000_000));
    group.bench_function("keys=1000000/servers=10/vnodes=200", |b| {
        b.iter(|| black_box(Simulation::new(&s).unwrap().count(0)))
    });
    group.finish();
}

fn incremental(c: &mut Criterion) {
    let mut group = c.benchmark_group("incremental");
    group.sample_size(20);
    let sim = Simulation::new(&scenario(10, 200, 1_000_000)).unwrap();
    let add = Change::add("server-new");
    let remove = Change::Remove("server-3".into());
    for (name, change) in [("add", &add), ("remove", &remove)] {
        group.bench_function(format!("{name}/keys=1000000/servers=10/vnodes=200"), |b| {
            b.iter_batched(
                || sim.clone(),
                |mut s| black_box(s.apply(change).unwrap().moved),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

/// Rendezvous and CARP: a newcomer scores each key once against the holder's kept rank; a
/// departure rescores only the departed server's keys.
fn scorer_changes(c: &mut Criterion) {
    let mut group = c.benchmark_group("scorer_change");
    group.sample_size(10);
    for algo in ["carp", "rendezvous"] {
        let mut s = scenario(10, 1, 1_000_000);
        s.settings.algo = hashring_lab::engine::placement::Algorithm::from_name(algo).unwrap();
        let sim = Simulation::new(&s).unwrap();
        let add = Change::add("server-new");
        let remove = Change::Remove("server-3".into());
        for (name, change) in [("add", &add), ("remove", &remove)] {
            group.bench_function(format!("{algo}/{name}/keys=1000000/servers=10"), |b| {
                b.iter_batched(
                    || sim.clone(),
                    |mut s| black_box(s.apply(change).unwrap().moved),
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    ring_lookup,
    hashing,
    full_assignment,
    incremental,
    scorer_changes
);
criterion_main!(benches);
