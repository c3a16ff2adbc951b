//! The `hashring-lab` command line: the same engine as the page, driven from a terminal.
//!
//! Scenario flags use the page's URL parameter names and value syntax (`--nodes A,B*2`,
//! `--keys key-{i}:0..1000`), parsed by the same [`Scenario::from_pairs`]. Every bad input
//! ends in one line on stderr saying what is wrong and what is allowed, and exit code 2.

use std::fmt::Write as _;
use std::io::Write;
use std::time::Instant;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::engine::hash::HashFn;
use crate::engine::placement::key_position;
use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::scenario::{parse_vnodes, Scenario, PARAMS};
use crate::engine::sim::{Change, Movement, Simulation};

const USAGE: &str = "usage: hashring-lab <simulate|sweep|hash|bench> [flags]
  simulate [scenario] [--step add:NAME|remove:NAME|fail:NAME|recover:NAME|weight:NAME*W|keys:SPEC|vnodes:N|algo:A|hash:H]... [--format json|table|csv]
  sweep    --vnodes 1,5,10,50,100 [scenario] [--format json|table]
  hash     --hash NAME KEY...
  bench    [scenario] [--runs N] [--format json|table]
scenario flags: --algo --hash --nodes --vnodes --label --keys --seed --down (same names and values as the page's URL)";

/// Runs the command line with `args` (without the program name); returns the exit code.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match dispatch(args, out) {
        Ok(()) => 0,
        Err(message) => {
            let _ = writeln!(err, "hashring-lab: {message}");
            2
        }
    }
}

fn dispatch(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let Some((command, rest)) = args.split_first() else {
        return Err(format!("no command given\n{USAGE}"));
    };
    let text = match command.as_str() {
        "simulate" => simulate(&Flags::parse(rest)?)?,
        "sweep" => sweep(&Flags::parse(rest)?)?,
        "hash" => hash(&Flags::parse(rest)?)?,
        "bench" => bench(&Flags::parse(rest)?)?,
        "help" | "--help" | "-h" => format!("{USAGE}\n"),
        other => {
            return Err(format!(
                "unknown command '{other}'; use simulate, sweep, hash or bench"
            ))
        }
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())
}

/// `--name value` / `--name=value` pairs, in order, plus positional arguments.
struct Flags {
    named: Vec<(String, String)>,
    positional: Vec<String>,
}

impl Flags {
    fn parse(args: &[String]) -> Result<Flags, String> {
        let mut flags = Flags {
            named: Vec::new(),
            positional: Vec::new(),
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            match arg.strip_prefix("--") {
                Some(body) => {
                    let (name, value) = match body.split_once('=') {
                        Some((n, v)) => (n.to_owned(), v.to_owned()),
                        None => {
                            let value = it
                                .next()
                                .ok_or_else(|| format!("flag --{body} needs a value"))?;
                            (body.to_owned(), value.clone())
                        }
                    };
                    flags.named.push((name, value));
                }
                None => flags.positional.push(arg.clone()),
            }
        }
        Ok(flags)
    }

    /// Fails on any flag not in `allowed` (scenario flags are always allowed when `scenario`).
    fn check(&self, allowed: &[&str], scenario: bool, positional: bool) -> Result<(), String> {
        for (name, _) in &self.named {
            let known =
                allowed.contains(&name.as_str()) || (scenario && PARAMS.contains(&name.as_str()));
            if !known {
                let mut all: Vec<&str> = allowed.to_vec();
                if scenario {
                    all.extend(PARAMS);
                }
                return Err(format!(
                    "unknown flag --{name}; allowed: --{}",
                    all.join(", --")
                ));
            }
        }
        if !positional {
            if let Some(p) = self.positional.first() {
                return Err(format!("unexpected argument '{p}' (flags start with --)"));
            }
        }
        Ok(())
    }

    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.named
            .iter()
            .filter(move |(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn one<'a>(&'a self, name: &'a str) -> Result<Option<&'a str>, String> {
        let mut values = self.all(name);
        let first = values.next();
        if values.next().is_some() {
            return Err(format!("--{name} is given twice"));
        }
        Ok(first)
    }

    fn scenario(&self, skip: &[&str]) -> Result<Scenario, String> {
        Scenario::from_pairs(
            self.named
                .iter()
                .filter(|(n, _)| PARAMS.contains(&n.as_str()) && !skip.contains(&n.as_str()))
                .map(|(n, v)| (n.as_str(), v.as_str())),
        )
    }

    fn format(&self, allowed: &[&'static str]) -> Result<&'static str, String> {
        match self.one("format")? {
            None => Ok("table"),
            Some(f) => allowed.iter().copied().find(|a| *a == f).ok_or_else(|| {
                format!("unknown format '{f}'; choose one of {}", allowed.join(", "))
            }),
        }
    }
}

#[derive(Serialize)]
struct StepReport {
    action: String,
    servers: Vec<String>,
    down: Vec<String>,
    keys: u64,
    counts: Map<String, Value>,
    moved: u64,
    moved_fraction: f64,
    ideal_fraction: Option<f64>,
    flows: Vec<FlowReport>,
    changed_arcs: usize,
    mean: f64,
    stddev: f64,
    cv: f64,
    peak_to_mean: f64,
}

#[derive(Serialize)]
struct FlowReport {
    from: String,
    to: String,
    keys: u64,
}

/// The report of one step; `names_before` names servers that the step removed.
fn report(
    sim: &Simulation,
    names_before: &[(ServerId, String)],
    action: String,
    m: &Movement,
) -> StepReport {
    let name = |id| match sim.server(id) {
        _ if id == NO_OWNER => "(none)".to_owned(),
        Some(s) => s.name.clone(),
        None => names_before
            .iter()
            .find(|n| n.0 == id)
            .map_or_else(|| format!("#{id}"), |n| n.1.clone()),
    };
    let stats = sim.stats();
    StepReport {
        action,
        servers: sim.servers().iter().map(|s| s.name.clone()).collect(),
        down: sim
            .servers()
            .iter()
            .filter(|s| !s.up)
            .map(|s| s.name.clone())
            .collect(),
        keys: sim.keys().len() as u64,
        counts: sim
            .servers()
            .iter()
            .map(|s| (s.name.clone(), Value::from(sim.count(s.id))))
            .collect(),
        moved: m.moved,
        moved_fraction: m.moved_fraction(),
        ideal_fraction: m.ideal_fraction,
        flows: m
            .flows
            .iter()
            .map(|f| FlowReport {
                from: name(f.from),
                to: name(f.to),
                keys: f.keys,
            })
            .collect(),
        changed_arcs: m.arcs.len(),
        mean: stats.mean,
        stddev: stats.stddev,
        cv: stats.cv,
        peak_to_mean: stats.peak_to_mean,
    }
}

fn simulate(flags: &Flags) -> Result<String, String> {
    flags.check(&["step", "format"], true, false)?;
    let format = flags.format(&["json", "table", "csv"])?;
    let steps: Vec<Change> = flags
        .all("step")
        .map(Change::parse)
        .collect::<Result<_, _>>()?;
    let mut sim = Simulation::new(&flags.scenario(&[])?)?;
    let mut reports = vec![report(&sim, &[], "start".into(), &Movement::default())];
    for step in &steps {
        // Only the names are needed to report flows from a server this step removes.
        let names_before: Vec<(ServerId, String)> = sim
            .servers()
            .iter()
            .map(|s| (s.id, s.name.clone()))
            .collect();
        let m = sim
            .apply(step)
            .map_err(|e| format!("step {}: {e}", step.label()))?;
        reports.push(report(&sim, &names_before, step.label(), &m));
    }
    Ok(match format {
        "json" => {
            let mut s = serde_json::to_string_pretty(&serde_json::json!({ "steps": reports }))
                .map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
        "csv" => {
            let mut s = String::from("step,action,server,keys,share\n");
            for (i, r) in reports.iter().enumerate() {
                for (name, count) in &r.counts {
                    let count = count.as_u64().unwrap_or(0);
                    let _ = writeln!(
                        s,
                        "{i},{},{},{count},{:.6}",
                        csv_field(&r.action),
                        csv_field(name),
                        share(count, r.keys)
                    );
                }
            }
            s
        }
        _ => reports
            .iter()
            .map(table_for_step)
            .collect::<Vec<_>>()
            .join("\n"),
    })
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn share(count: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        count as f64 / total as f64
    }
}

fn table_for_step(r: &StepReport) -> String {
    let width = r
        .counts
        .keys()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut s = format!("== {} ==\n", r.action);
    let _ = writeln!(s, "{:<width$}  {:>10}  {:>7}", "server", "keys", "share");
    for (name, count) in &r.counts {
        let count = count.as_u64().unwrap_or(0);
        let down = if r.down.contains(name) {
            "  (down)"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "{name:<width$}  {count:>10}  {:>6.2}%{down}",
            100.0 * share(count, r.keys)
        );
    }
    let _ = write!(
        s,
        "keys {}  stddev {:.2}  cv {:.4}  peak/mean {:.3}",
        r.keys, r.stddev, r.cv, r.peak_to_mean
    );
    if r.action != "start" {
        let _ = write!(s, "  moved {} ({:.2}%", r.moved, 100.0 * r.moved_fraction);
        if let Some(ideal) = r.ideal_fraction {
            let _ = write!(s, "; ideal {:.2}%", 100.0 * ideal);
        }
        s.push(')');
    }
    s.push('\n');
    s
}

#[derive(Serialize)]
struct SweepPoint {
    vnodes: u32,
    stddev: f64,
    cv: f64,
    peak_to_mean: f64,
}

fn sweep(flags: &Flags) -> Result<String, String> {
    flags.check(&["format"], true, false)?;
    let format = flags.format(&["json", "table"])?;
    let list = flags
        .one("vnodes")?
        .ok_or("sweep needs --vnodes, e.g. --vnodes 1,5,10,50,100,200,500,1000")?;
    let counts: Vec<u32> = list
        .split(',')
        .map(parse_vnodes)
        .collect::<Result<_, _>>()?;
    let mut scenario = flags.scenario(&["vnodes"])?;
    let mut points = Vec::new();
    for vnodes in counts {
        scenario.vnodes = vnodes;
        let stats = Simulation::new(&scenario)?.stats();
        points.push(SweepPoint {
            vnodes,
            stddev: stats.stddev,
            cv: stats.cv,
            peak_to_mean: stats.peak_to_mean,
        });
    }
    Ok(if format == "json" {
        let mut s = serde_json::to_string_pretty(&serde_json::json!({ "points": points }))
            .map_err(|e| e.to_string())?;
        s.push('\n');
        s
    } else {
        let mut s = format!(
            "{:>7}  {:>12}  {:>8}  {:>9}\n",
            "vnodes", "stddev", "cv", "peak/mean"
        );
        for p in &points {
            let _ = writeln!(
                s,
                "{:>7}  {:>12.2}  {:>8.4}  {:>9.3}",
                p.vnodes, p.stddev, p.cv, p.peak_to_mean
            );
        }
        s
    })
}

fn hash(flags: &Flags) -> Result<String, String> {
    flags.check(&["hash"], false, true)?;
    let name = flags.one("hash")?.ok_or("hash needs --hash NAME")?;
    let hash = HashFn::from_name(name)
        .ok_or_else(|| format!("unknown hash '{name}'; choose one of {}", HashFn::names()))?;
    if flags.positional.is_empty() {
        return Err("hash needs at least one KEY after the flags".into());
    }
    let mut s = String::new();
    for key in &flags.positional {
        let p = hash.position(key).map_err(|e| e.to_string())?;
        let _ = writeln!(s, "{key}\t{p}\t0x{p:08x}");
    }
    Ok(s)
}

#[derive(Serialize)]
struct BenchReport {
    lookups: u64,
    seconds: f64,
    lookups_per_sec: f64,
}

fn bench(flags: &Flags) -> Result<String, String> {
    flags.check(&["format", "runs"], true, false)?;
    let format = flags.format(&["json", "table"])?;
    let runs: u32 = match flags.one("runs")? {
        None => 5,
        Some(r) => r
            .parse()
            .ok()
            .filter(|r| (1..=100).contains(r))
            .ok_or_else(|| format!("runs '{r}' must be a whole number from 1 to 100"))?,
    };
    let scenario = flags.scenario(&[])?;
    let sim = Simulation::new(&scenario)?;
    let placement = sim.placement()?;
    // Key strings are built before timing, as seed 003 builds them inside its loop but
    // outside the lookup itself.
    let names: Vec<String> = (0..scenario.keys.len() as u32)
        .map(|i| scenario.keys.name(i, scenario.seed))
        .collect();
    let mut best = f64::INFINITY;
    let mut sink = 0u64;
    for _ in 0..runs {
        let start = Instant::now();
        for name in &names {
            let position =
                key_position(scenario.algo, scenario.hash, name).map_err(|e| e.to_string())?;
            sink = sink.wrapping_add(u64::from(placement.owner(name, position)));
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    std::hint::black_box(sink);
    let lookups = names.len() as u64;
    let r = BenchReport {
        lookups,
        seconds: best,
        lookups_per_sec: lookups as f64 / best.max(1e-12),
    };
    Ok(if format == "json" {
        format!(
            "{}\n",
            serde_json::to_string(&r).map_err(|e| e.to_string())?
        )
    } else {
        format!(
            "{} lookups in {:.4} s (best of {runs}): {:.2} M lookups/s\n",
            r.lookups,
            r.seconds,
            r.lookups_per_sec / 1e6
        )
    })
}
