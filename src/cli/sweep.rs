//! `sweep`: balance (the standard deviation of keys per server) as the vnode count varies.

use std::fmt::Write as _;

use clap::Args;
use serde::Serialize;

use super::scenario_args::ScenarioArgs;
use super::shared::{check_memory, to_json, Format};
use crate::engine::scenario::parse_vnodes;
use crate::engine::sim::Simulation;

/// The most vnode counts one `sweep` takes.
pub const MAX_SWEEP_POINTS: usize = 50;

#[derive(Args, Debug)]
pub(super) struct SweepArgs {
    #[command(flatten)]
    scenario: ScenarioArgs,
    /// Vnode counts to try, comma separated, each 1..=1000 (at most 50 of them).
    #[arg(long, required = true, value_name = "LIST")]
    vnodes: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

#[derive(Serialize)]
pub(super) struct SweepPoint {
    vnodes: u32,
    stddev: f64,
    cv: f64,
    peak_to_mean: f64,
}

#[derive(Serialize)]
pub(super) struct SweepReport {
    points: Vec<SweepPoint>,
}

pub(super) fn sweep(args: &SweepArgs) -> Result<String, String> {
    let counts: Vec<u32> = args
        .vnodes
        .split(',')
        .map(parse_vnodes)
        .collect::<Result<_, _>>()?;
    if counts.len() > MAX_SWEEP_POINTS {
        return Err(format!(
            "--vnodes lists {} counts; a sweep takes at most {MAX_SWEEP_POINTS}",
            counts.len()
        ));
    }
    let mut scenario = args.scenario.scenario(Some("1"))?;
    if scenario.tokens.is_some() {
        return Err(
            "sweep draws every node's tokens anew for each vnode count; a cluster's own tokens have a count of their own"
                .to_owned(),
        );
    }
    let mut points = Vec::new();
    for vnodes in counts {
        scenario.settings.vnodes = vnodes;
        check_memory(&scenario)?;
        let stats = Simulation::new(&scenario)?.stats();
        points.push(SweepPoint {
            vnodes,
            stddev: stats.stddev,
            cv: stats.cv,
            peak_to_mean: stats.peak_to_mean,
        });
    }
    if args.format == Format::Json {
        return to_json(&SweepReport { points });
    }
    let mut s = String::new();
    let csv = args.format == Format::Csv;
    if csv {
        s.push_str("vnodes,stddev,cv,peak_to_mean\n");
    } else {
        let _ = writeln!(
            s,
            "{:>7}  {:>12}  {:>8}  {:>9}",
            "vnodes", "stddev", "cv", "peak/mean"
        );
    }
    for p in &points {
        if csv {
            let _ = writeln!(s, "{},{},{},{}", p.vnodes, p.stddev, p.cv, p.peak_to_mean);
        } else {
            let _ = writeln!(
                s,
                "{:>7}  {:>12.2}  {:>8.4}  {:>9.3}",
                p.vnodes, p.stddev, p.cv, p.peak_to_mean
            );
        }
    }
    Ok(s)
}
