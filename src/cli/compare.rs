//! `compare`: one change through every algorithm — what moved, the balance, the structure's
//! bytes and the lookup time.

use std::fmt::Write as _;
use std::time::Instant;

use clap::builder::PossibleValuesParser;
use clap::Args;
use serde::Serialize;

use super::scenario_args::{ScenarioArgs, VnodesArg};
use super::shared::{check_memory, to_json, Format, Progress};
use crate::engine::placement::Algorithm;
use crate::i18n::EN;
use crate::text::quote;
use crate::words;

#[derive(Args, Debug)]
pub(super) struct CompareArgs {
    #[command(flatten)]
    scenario: ScenarioArgs,
    #[command(flatten)]
    vnodes: VnodesArg,
    /// The change: add a server, or remove or fail the first one.
    #[arg(long, default_value = "add", value_parser = PossibleValuesParser::new(["add", "remove", "fail"]))]
    change: String,
    /// The algorithms, comma separated (default: all).
    #[arg(long, value_name = "LIST")]
    algos: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

#[derive(Serialize)]
pub(super) struct CompareReport {
    algo: &'static str,
    moved: u64,
    keys: u64,
    moved_fraction: f64,
    ideal_fraction: Option<f64>,
    moved_between_survivors: u64,
    peak_to_mean: f64,
    stddev: f64,
    bytes: usize,
    build_ms: f64,
    lookup_ns: f64,
}

/// Key-server scores above which `compare` leaves the per-key scorers out by default.
pub(super) const MAX_DEFAULT_SCORES: u64 = 2_000_000_000;

/// A fraction as a percentage with one decimal, or three significant digits below 1%
/// (a server's share of a cluster of thousands).
pub(super) fn percent(fraction: f64) -> String {
    let p = 100.0 * fraction;
    if p == 0.0 || p >= 1.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.*}%", (2 - p.log10().floor() as i32).max(2) as usize)
    }
}

pub(super) fn compare(args: &CompareArgs, progress: &mut Progress) -> Result<String, String> {
    use crate::engine::compare::{CompareChange, CompareWork, TIMED_LOOKUPS};
    let scenario = args.scenario.scenario(args.vnodes.vnodes.as_deref())?;
    check_memory(&scenario)?;
    let change = match args.change.as_str() {
        "remove" => CompareChange::Remove,
        "fail" => CompareChange::Fail,
        _ => CompareChange::Add,
    };
    let scores = scenario.settings.keys.len() as u64 * scenario.nodes.len() as u64;
    let algos: Vec<Algorithm> = match &args.algos {
        // Rendezvous and CARP score every key against every server: past a few billion
        // scores (minutes to hours) they run only when asked for by name.
        None if scores > MAX_DEFAULT_SCORES => {
            eprintln!(
                "note: leaving out rendezvous and carp, which would score {} key-server pairs twice; name them in --algos to run them",
                words::group_thousands(scores)
            );
            Algorithm::ALL
                .iter()
                .copied()
                .filter(|a| !a.spec().scores_every_server)
                .collect()
        }
        None => Algorithm::ALL.to_vec(),
        Some(list) => list
            .split(',')
            .map(|n| {
                Algorithm::from_name(n.trim()).ok_or_else(|| {
                    format!(
                        "--algos: unknown algorithm {}; choose from {}",
                        quote(n),
                        Algorithm::names()
                    )
                })
            })
            .collect::<Result<Vec<Algorithm>, _>>()
            // Each algorithm once, in the order first named (`ring,ring` is one row).
            .map(|mut list| {
                let mut seen = Vec::new();
                list.retain(|a| {
                    let first = !seen.contains(a);
                    seen.push(*a);
                    first
                });
                list
            })?,
    };
    // Every algorithm by default: one whose own check refuses these servers (nginx's whole
    // weights for a CRUSH map's 0.5) is left out and said so, not the whole run refused;
    // an algorithm named in --algos is the user's, and its refusal is the answer.
    let algos = if args.algos.is_none() {
        let mut kept = Vec::new();
        for algo in algos {
            match crate::engine::compare::scenario_under(&scenario, algo).validate() {
                Ok(()) => kept.push(algo),
                Err(e) => eprintln!("note: leaving out {}: {e}", algo.name()),
            }
        }
        kept
    } else {
        algos
    };
    let start = Instant::now();
    let now = || start.elapsed().as_secs_f64() * 1000.0;
    let mut work = CompareWork::new(&scenario, &change, algos.clone(), TIMED_LOOKUPS)?;
    while !work.is_finished() {
        work.advance(20_000_000, &now)?;
        if let Some((algo, changing, (phase, done, total))) = work.current() {
            progress.show(&format!(
                "{} ({} of {}), {}: {}",
                algo.name(),
                work.progress().0 + 1,
                algos.len(),
                if changing { "the change" } else { "before it" },
                words::progress(&EN, phase, done, total)
            ));
        }
    }
    let mut rows = Vec::new();
    for r in &work.rows {
        let algo = r.algo;
        rows.push(CompareReport {
            algo: algo.name(),
            moved: r.moved,
            keys: r.keys,
            moved_fraction: r.moved_fraction(),
            ideal_fraction: r.ideal,
            moved_between_survivors: r.between_survivors,
            peak_to_mean: r.peak_to_mean,
            stddev: r.stddev,
            bytes: r.bytes,
            build_ms: r.build_ms,
            lookup_ns: r.lookup_ns,
        });
    }
    progress.clear();
    compare_output(&rows, args.format)
}

/// The compare report in `format`.
pub(super) fn compare_output(rows: &[CompareReport], format: Format) -> Result<String, String> {
    Ok(match format {
        Format::Json => to_json(&rows)?,
        Format::Csv => {
            let mut s = String::from("algo,moved,keys,moved_fraction,ideal_fraction,moved_between_survivors,peak_to_mean,stddev,bytes,build_ms,lookup_ns\n");
            for r in rows {
                let ideal = r.ideal_fraction.map(|i| i.to_string()).unwrap_or_default();
                let _ = writeln!(
                    s,
                    "{},{},{},{},{ideal},{},{},{},{},{},{}",
                    r.algo,
                    r.moved,
                    r.keys,
                    r.moved_fraction,
                    r.moved_between_survivors,
                    r.peak_to_mean,
                    r.stddev,
                    r.bytes,
                    r.build_ms,
                    r.lookup_ns
                );
            }
            s
        }
        Format::Table => {
            let mut s = format!(
                "{:<11} {:>22} {:>9} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
                "algorithm",
                "moved (ideal)",
                "between",
                "peak/mean",
                "stddev",
                "bytes",
                "build ms",
                "ns/lookup"
            );
            for r in rows {
                let ideal = r.ideal_fraction.map_or_else(|| "—".to_owned(), percent);
                let moved = format!("{} {} ({ideal})", r.moved, percent(r.moved_fraction));
                let _ = writeln!(
                    s,
                    "{:<11} {:>22} {:>9} {:>10.3} {:>10.1} {:>10} {:>10.2} {:>10.0}",
                    r.algo,
                    moved,
                    r.moved_between_survivors,
                    r.peak_to_mean,
                    r.stddev,
                    r.bytes,
                    r.build_ms,
                    r.lookup_ns
                );
            }
            s
        }
    })
}
