//! `locate`: which server owns each key, and how the algorithm found it (its own steps).

use std::fmt::Write as _;

use clap::Args;
use serde::Serialize;

use super::scenario_args::{ScenarioArgs, VnodesArg};
use super::shared::{build, to_json, Format, Progress};
use crate::file::csv_field;
use crate::i18n::EN;
use crate::words;

#[derive(Args, Debug)]
pub(super) struct LocateArgs {
    #[command(flatten)]
    scenario: ScenarioArgs,
    #[command(flatten)]
    vnodes: VnodesArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Keys to look up.
    #[arg(required = true, value_name = "KEY")]
    lookups: Vec<String>,
}

#[derive(Serialize)]
pub(super) struct LocateReport {
    key: String,
    position: u32,
    server: Option<String>,
    explanation: String,
    scores: Vec<ScoreReport>,
}

pub(super) fn locate(args: &LocateArgs, progress: &mut Progress) -> Result<String, String> {
    let mut scenario = args.scenario.scenario(args.vnodes.vnodes.as_deref())?;
    // Only the placement matters here: build it over a single key — unless the owners
    // depend on the whole key set (bounded loads: capacities and arrival order), where the
    // key is placed within the scenario's keys, as the page places it.
    if !scenario.settings.algo.depends_on_key_set() {
        scenario.settings.keys =
            crate::engine::keys::KeySpec::parse("0..1").map_err(|e| e.to_string())?;
    }
    let sim = build(&scenario, progress)?;
    let mut reports = Vec::new();
    for key in &args.lookups {
        let e = sim.explain(key)?;
        let w = words::explain(&EN, &sim, key, &e);
        reports.push(LocateReport {
            key: key.clone(),
            position: e.position,
            server: sim.server(e.owner).map(|s| s.name.clone()),
            explanation: w.sentence,
            scores: w
                .scores
                .into_iter()
                .map(|(server, score, wins)| ScoreReport {
                    server,
                    score,
                    wins,
                })
                .collect(),
        });
    }
    Ok(match args.format {
        Format::Json => to_json(&reports)?,
        Format::Csv => {
            let mut s = String::from("key,position,server,explanation\n");
            for r in &reports {
                let _ = writeln!(
                    s,
                    "{},{},{},{}",
                    csv_field(&r.key),
                    r.position,
                    csv_field(r.server.as_deref().unwrap_or("")),
                    csv_field(&r.explanation)
                );
            }
            s
        }
        Format::Table => {
            let mut s = String::new();
            for r in &reports {
                let _ = writeln!(
                    s,
                    "{}\t{}\t{}",
                    r.key,
                    r.server.as_deref().unwrap_or("(none)"),
                    r.explanation
                );
                for c in &r.scores {
                    let _ = writeln!(
                        s,
                        "  {:<12} {}{}",
                        c.server,
                        c.score,
                        if c.wins { "  ← wins" } else { "" }
                    );
                }
            }
            s
        }
    })
}

#[derive(Serialize)]
struct ScoreReport {
    server: String,
    score: String,
    wins: bool,
}
