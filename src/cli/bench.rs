//! `bench`: times lookups (key hashing and placement) over the scenario's keys.

use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use super::scenario_args::{ScenarioArgs, VnodesArg};
use super::shared::{build, Format, Progress};
use crate::engine::placement::key_position;
use crate::words;

#[derive(Args, Debug)]
pub(super) struct BenchArgs {
    #[command(flatten)]
    scenario: ScenarioArgs,
    #[command(flatten)]
    vnodes: VnodesArg,
    /// Timed runs; the best is reported, 1..=100.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    runs: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

#[derive(Serialize)]
pub(super) struct BenchReport {
    lookups: u64,
    seconds: f64,
    lookups_per_sec: f64,
}

/// Keys named per timed chunk: names are built before each chunk is timed (as seed 003
/// builds them outside the lookup) and dropped after it, so memory stays bounded.
pub(super) const BENCH_CHUNK: usize = 65_536;

pub(super) fn bench(args: &BenchArgs, progress: &mut Progress) -> Result<String, String> {
    let scenario = args.scenario.scenario(args.vnodes.vnodes.as_deref())?;
    let sim = build(&scenario, progress)?;
    let placement = sim.placement();
    let s = &scenario.settings;
    let total = s.keys.len();
    let mut best = f64::INFINITY;
    let mut sink = 0u64;
    let mut names: Vec<String> = Vec::with_capacity(BENCH_CHUNK);
    for run in 0..args.runs {
        let mut elapsed = Duration::ZERO;
        for start in (0..total).step_by(BENCH_CHUNK) {
            let end = (start + BENCH_CHUNK).min(total);
            names.clear();
            names.extend((start as u32..end as u32).map(|i| s.keys.name(i, s.seed)));
            let timer = Instant::now();
            for name in &names {
                let position = key_position(s, name).map_err(|e| e.to_string())?;
                sink = sink.wrapping_add(u64::from(placement.owner(name, position)));
            }
            elapsed += timer.elapsed();
            progress.show(&format!(
                "run {} of {}: {} of {} keys",
                run + 1,
                args.runs,
                words::group_thousands(end as u64),
                words::group_thousands(total as u64)
            ));
        }
        best = best.min(elapsed.as_secs_f64());
    }
    std::hint::black_box(sink);
    let lookups = total as u64;
    let r = BenchReport {
        lookups,
        seconds: best,
        lookups_per_sec: lookups as f64 / best.max(1e-12),
    };
    Ok(match args.format {
        Format::Json => format!(
            "{}\n",
            serde_json::to_string(&r).map_err(|e| e.to_string())?
        ),
        Format::Csv => format!(
            "lookups,seconds,lookups_per_sec\n{},{},{}\n",
            r.lookups, r.seconds, r.lookups_per_sec
        ),
        Format::Table => format!(
            "{} lookups in {:.4} s (best of {}): {:.2} M lookups/s\n",
            r.lookups,
            r.seconds,
            args.runs,
            r.lookups_per_sec / 1e6
        ),
    })
}
