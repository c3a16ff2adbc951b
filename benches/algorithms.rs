//! Per-algorithm benchmarks, sizes in their names: lookups at 10 / 100 / 1,000 / 10,000
//! servers and the time to build each lookup structure (which is also the time a resize
//! takes here: every change rebuilds it). The structure's bytes are printed once per size.
//! Run with `cargo bench --bench algorithms`; results are in docs/PERFORMANCE.md.
#![allow(clippy::unwrap_used)] // A test that cannot go on fails loudly, where it stopped.
#![allow(missing_docs)]

use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hashring_lab::engine::algorithms::maglev::DEFAULT_TABLE;
use hashring_lab::engine::book::BucketBook;
use hashring_lab::engine::hash::HashFn;
use hashring_lab::engine::placement::{build_placement, Algorithm, LiveServer, Placement};
use hashring_lab::engine::scenario::Settings;

const KEYS: usize = 10_000;

fn settings(algo: Algorithm) -> Settings {
    Settings {
        algo,
        vnodes: 100,
        table: DEFAULT_TABLE,
        ..Settings::default()
    }
}

fn servers(n: usize) -> Vec<LiveServer> {
    (0..n)
        .map(|i| LiveServer {
            id: i as u16,
            name: format!("server-{i}"),
            weight: 1.0,
            slot: i as u32,
        })
        .collect()
}

/// The algorithms and the largest cluster each is measured at: the per-key scorers
/// (rendezvous, CARP) cost one hash per server per key, so they stop at 1,000; Maglev's
/// 65537-cell table holds at most 65537 servers.
const ALGORITHMS: [(Algorithm, usize); 14] = [
    (Algorithm::RING, 10_000),
    (Algorithm::RENDEZVOUS, 1_000),
    (Algorithm::CARP, 1_000),
    (Algorithm::JUMP, 10_000),
    (Algorithm::JUMPBACK, 10_000),
    (Algorithm::BINOMIAL, 10_000),
    (Algorithm::FLIP, 10_000),
    (Algorithm::POWER, 10_000),
    (Algorithm::MULTIPROBE, 10_000),
    (Algorithm::MAGLEV, 10_000),
    (Algorithm::BOUNDED, 10_000),
    (Algorithm::ANCHOR, 10_000),
    (Algorithm::MEMENTO, 10_000),
    (Algorithm::DX, 10_000),
];

/// The placement of `algo` over `list`; Anchor, Memento and Dx get a bucket book with
/// every server up (Anchor's and Dx's capacity: 100, or twice the servers).
fn build(algo: Algorithm, list: &[LiveServer]) -> Rc<dyn Placement> {
    let book = algo.keeps_bucket_book().then(|| {
        let all: Vec<_> = list.iter().map(|s| (s.id, true)).collect();
        BucketBook::new(&all)
    });
    build_placement(
        &settings(algo),
        list.to_vec(),
        Vec::new(),
        None,
        book.as_ref(),
        None,
    )
    .unwrap()
}

fn lookups(c: &mut Criterion) {
    let names: Vec<String> = (0..KEYS).map(|i| format!("key-{i}")).collect();
    let positions: Vec<u32> = names
        .iter()
        .map(|k| HashFn::Xxh3.position(k).unwrap())
        .collect();
    let mut group = c.benchmark_group("lookup");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
        .throughput(Throughput::Elements(KEYS as u64));
    for (algo, max) in ALGORITHMS {
        for n in [10usize, 100, 1_000, 10_000]
            .into_iter()
            .filter(|&n| n <= max)
        {
            let placement = build(algo, &servers(n));
            eprintln!(
                "bytes {}/servers={n}: {}",
                algo.name(),
                placement.memory_bytes()
            );
            group.bench_function(BenchmarkId::new(algo.name(), format!("servers={n}")), |b| {
                b.iter(|| {
                    let mut sum = 0u64;
                    for (k, &p) in names.iter().zip(&positions) {
                        sum = sum.wrapping_add(u64::from(placement.owner(k, p)));
                    }
                    black_box(sum)
                })
            });
        }
    }
    group.finish();
}

fn builds(c: &mut Criterion) {
    let mut group = c.benchmark_group("build");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(10);
    for (algo, max) in ALGORITHMS {
        for n in [10usize, 100, 1_000, 10_000]
            .into_iter()
            .filter(|&n| n <= max)
        {
            let list = servers(n);
            group.bench_function(BenchmarkId::new(algo.name(), format!("servers={n}")), |b| {
                b.iter(|| black_box(build(algo, &list).memory_bytes()))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, lookups, builds);
criterion_main!(benches);
