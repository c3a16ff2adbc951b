//! Times each step of the page's comparison over the largest tables (issue 53's freezes):
//! `cargo run --release --example compare_steps -- 'algo=ceph&pg_num=1000003'` (with `ALL=1`,
//! every step in order too).
#![allow(clippy::unwrap_used)] // A measurement that cannot go on stops loudly, where it stopped.
use std::time::Instant;

use hashring_lab::engine::compare::{CompareChange, CompareWork, TIMED_LOOKUPS};
use hashring_lab::engine::placement::Algorithm;
use hashring_lab::engine::scenario::Scenario;

fn main() {
    let query = std::env::args().nth(1).unwrap_or_default();
    let pairs = hashring_lab::host::query_pairs(&query);
    let scenario =
        Scenario::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap();
    let start = Instant::now();
    let now = || start.elapsed().as_secs_f64() * 1000.0;
    let mut work = CompareWork::new(
        &scenario,
        &CompareChange::Add,
        Algorithm::ALL.to_vec(),
        TIMED_LOOKUPS,
    )
    .unwrap();
    let mut longest = Vec::new();
    while !work.is_finished() {
        let what = work.current().map(|(a, changing, (phase, done, total))| {
            format!("{} {changing} {phase:?} {done}/{total}", a.name())
        });
        let t = Instant::now();
        work.advance(hashring_lab::state::STEP_COST, &now).unwrap();
        longest.push((t.elapsed().as_secs_f64() * 1000.0, what));
    }
    // ALL=1 lists every step in order before the longest.
    if std::env::var_os("ALL").is_some() {
        for (ms, what) in &longest {
            println!("{ms:8.1} ms  {what:?}");
        }
    }
    longest.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (ms, what) in longest.iter().take(8) {
        println!("{ms:8.1} ms  {what:?}");
    }
}
