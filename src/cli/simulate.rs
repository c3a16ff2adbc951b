//! `simulate`: build a scenario, apply `--step`s, report keys per server and what moved after
//! each (a table, JSON or CSV), and stream the migration list (`--moved`).

use std::fmt::Write as _;
use std::io::Write;

use clap::Args;
use serde::{Serialize, Serializer};

use super::scenario_args::{ScenarioArgs, VnodesArg};
use super::{
    output,
    shared::{build, to_json, Format, Progress},
};
use crate::engine::algorithms::ceph;
use crate::engine::movement::GroupMoves;
use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::sim::{Change, Movement, Simulation};
use crate::file::{csv_field, write_moved, MOVED_HEADER};
use crate::problem::Problem;

/// The most `--step`s one `simulate` takes: each step's report lists every server (5,000
/// steps over as many servers held 2.2 GB of reports).
pub const MAX_STEPS: usize = 100;

#[derive(Args, Debug)]
pub(super) struct SimulateArgs {
    #[command(flatten)]
    pub(super) scenario: ScenarioArgs,
    #[command(flatten)]
    pub(super) vnodes: VnodesArg,
    /// A change, applied in order: add:NAME[*W], remove:NAME, fail:NAME, recover:NAME,
    /// weight:NAME*W, vnodes:N, keys:SPEC, algo:NAME or hash:NAME; for a Ceph cluster from
    /// a CRUSH map with hosts, add-host:HOST@PARENT=osd.N[*W][:CLASS]+… adds a host of new
    /// OSDs under PARENT (the root, or a rack) and remove-host:HOST takes one out with its
    /// OSDs; for any Ceph pool, pg_num:N splits (or merges) its placement groups. Repeat for
    /// more (at most 100).
    #[arg(long = "step", value_name = "STEP")]
    steps: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Also write the migration list to FILE: a CSV row per moved key of each step
    /// (step,key,from,to,between_survivors), streamed.
    #[arg(long, value_name = "FILE")]
    moved: Option<std::path::PathBuf>,
    /// Ceph: also write the placement groups each step remaps to FILE, a CSV row per group
    /// whose acting set changes (step,pg,old_acting,new_acting,copies_moved; a set's OSDs
    /// joined by +, primary first), and count them in the report: the data a change moves
    /// is every copy, not only the primaries the per-key list follows.
    #[arg(long = "moved-pgs", value_name = "FILE")]
    moved_pgs: Option<std::path::PathBuf>,
}

/// Compares each group's acting set before and after a step (a split child against its
/// parent, a merged group against its target); writes a row per remapped group to `out`
/// (when given, the group as it is after) and counts them.
fn remapped_pgs(
    before: &[Vec<ServerId>],
    after: &[Vec<ServerId>],
    step: usize,
    name: &dyn Fn(ServerId) -> String,
    mut out: Option<&mut dyn std::io::Write>,
) -> std::io::Result<GroupMoves> {
    let set = |ids: &[ServerId]| ids.iter().map(|&id| name(id)).collect::<Vec<_>>().join("+");
    let mut written = Ok(());
    let pieces = ceph::group_pieces(before.len() as u32, after.len() as u32);
    let old_set = |pg: usize| before[pg].as_slice();
    let new_set = |pg: usize| after[pg].as_slice();
    let moves = GroupMoves::between(
        old_set,
        (new_set, after.len()),
        pieces,
        |pg, old, new, copies| {
            if let (Some(out), Ok(())) = (out.as_deref_mut(), &written) {
                written = writeln!(
                    out,
                    "{step},1.{pg:x},{},{},{copies}",
                    csv_field(&set(old)),
                    csv_field(&set(new))
                );
            }
        },
    );
    written.map(|()| moves)
}

/// One server's keys in a report.
#[derive(Serialize)]
pub(super) struct ServerCount {
    name: String,
    keys: u64,
    up: bool,
}

/// `counts` is written as `{ "name": keys, ... }` in list order.
pub(super) fn counts_as_map<S: Serializer>(
    counts: &[ServerCount],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(counts.iter().map(|c| (&c.name, c.keys)))
}

#[derive(Serialize)]
pub(super) struct StepReport {
    action: String,
    servers: Vec<String>,
    down: Vec<String>,
    keys: u64,
    #[serde(serialize_with = "counts_as_map")]
    counts: Vec<ServerCount>,
    moved: u64,
    moved_fraction: f64,
    ideal_fraction: Option<f64>,
    /// Keys that moved between two servers the step left alone.
    moved_between_survivors: u64,
    /// Ceph with `--moved-pgs`: the placement groups the step remapped.
    #[serde(skip_serializing_if = "Option::is_none")]
    placement_groups: Option<GroupMoves>,
    flows: Vec<FlowReport>,
    changed_arcs: usize,
    mean: f64,
    stddev: f64,
    cv: f64,
    peak_to_mean: f64,
}

#[derive(Serialize)]
pub(super) struct FlowReport {
    from: String,
    to: String,
    keys: u64,
}

#[derive(Serialize)]
pub(super) struct SimulateReport {
    steps: Vec<StepReport>,
}

/// The report of one step; `names_before` names servers that the step removed.
pub(super) fn report(
    sim: &Simulation,
    names_before: &[(ServerId, String)],
    action: String,
    m: &Movement,
) -> StepReport {
    // Every name by id once: a change over 10,000 servers can list a million flows.
    let mut by_id: Vec<Option<&str>> = Vec::new();
    let known = names_before
        .iter()
        .map(|(id, name)| (*id, name.as_str()))
        .chain(sim.servers().iter().map(|s| (s.id, s.name.as_str())));
    for (id, name) in known {
        let at = usize::from(id);
        if by_id.len() <= at {
            by_id.resize(at + 1, None);
        }
        by_id[at] = Some(name);
    }
    let name = |id: ServerId| match by_id.get(usize::from(id)).copied().flatten() {
        _ if id == NO_OWNER => "(none)".to_owned(),
        Some(name) => name.to_owned(),
        None => format!("#{id}"),
    };
    let stats = sim.stats();
    let servers = sim.servers();
    StepReport {
        action,
        servers: servers.iter().map(|s| s.name.clone()).collect(),
        down: servers
            .iter()
            .filter(|s| !s.up)
            .map(|s| s.name.clone())
            .collect(),
        keys: sim.keys().len() as u64,
        counts: servers
            .iter()
            .map(|s| ServerCount {
                name: s.name.clone(),
                keys: sim.count(s.id),
                up: s.up,
            })
            .collect(),
        moved: m.moved,
        moved_between_survivors: m.between_survivors,
        placement_groups: None,
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

pub(super) fn simulate(args: &SimulateArgs, progress: &mut Progress) -> Result<String, String> {
    // Each step's report lists every server: the count is bounded before any runs.
    if args.steps.len() > MAX_STEPS {
        return Err(format!(
            "--step is given {} times; a run takes at most {MAX_STEPS} steps (split it into runs, or use compare for one change across algorithms)",
            args.steps.len()
        ));
    }
    let steps: Vec<Change> = args
        .steps
        .iter()
        .map(|s| Change::parse(s))
        .collect::<Result<_, _>>()?;
    if let Some(path) = &args.moved {
        output::check_not_an_input(path, "--moved", &args.scenario.input_files())?;
    }
    if let Some(path) = &args.moved_pgs {
        output::check_not_an_input(path, "--moved-pgs", &args.scenario.input_files())?;
    }
    let mut sim = build(
        &args.scenario.scenario(args.vnodes.vnodes.as_deref())?,
        progress,
    )?;
    let mut reports = vec![report(&sim, &[], "start".into(), &Movement::default())];
    let mut moved = match &args.moved {
        Some(path) => {
            let mut file = output::OutputFile::create(path, "--moved")?;
            file.writer()
                .write_all(MOVED_HEADER.as_bytes())
                .map_err(|e| format!("--moved: {e}"))?;
            Some(file)
        }
        None => None,
    };
    let mut moved_pgs = open_moved_pgs(args, &sim)?;
    for (number, step) in steps.iter().enumerate() {
        // Each group's acting set before the step, when the groups are listed.
        let acting_before = moved_pgs
            .as_ref()
            .and_then(|_| sim.placement().acting_sets());
        // Only the names are needed to report flows from a server this step removes.
        let names_before: Vec<(ServerId, String)> = sim
            .servers()
            .iter()
            .map(|s| (s.id, s.name.clone()))
            .collect();
        let label = step.label();
        let fail = |e: Problem| format!("step {label}: {e}");
        let mut work = sim.start(step).map_err(fail)?;
        progress.run(&mut work, &label).map_err(fail)?;
        let m = sim.finish(work).map_err(fail)?;
        if let Some(w) = moved.as_mut().map(output::OutputFile::writer) {
            let before = |id: ServerId| {
                names_before
                    .iter()
                    .find(|n| n.0 == id)
                    .map_or_else(|| "(none)".to_owned(), |n| n.1.clone())
            };
            let listed = write_moved(&sim, &m, number + 1, &before, w)
                .map_err(|e| format!("--moved: {e}"))?;
            if !listed {
                eprintln!(
                    "note: step {label} replaced the keys (or the seed that draws them), so the migration list has no rows for it"
                );
            }
        }
        if m.unlisted > 0 {
            eprintln!(
                "note: step {label} moved keys along more than {} server pairs: the flows list the first ones; {} moved keys are in the totals but not in a listed pair",
                crate::engine::movement::MAX_SPARSE_PAIRS,
                m.unlisted
            );
        }
        let mut step_report = report(&sim, &names_before, label, &m);
        if let (Some(file), Some(before), Some(after)) = (
            moved_pgs.as_mut(),
            acting_before,
            sim.placement().acting_sets(),
        ) {
            let name = |id: ServerId| {
                sim.server(id).map(|s| s.name.clone()).unwrap_or_else(|| {
                    names_before
                        .iter()
                        .find(|n| n.0 == id)
                        .map_or_else(|| "(none)".to_owned(), |n| n.1.clone())
                })
            };
            let counted = remapped_pgs(&before, &after, number + 1, &name, Some(file.writer()))
                .map_err(|e| format!("--moved-pgs: {e}"))?;
            step_report.placement_groups = Some(counted);
        }
        reports.push(step_report);
    }
    if let Some(file) = moved {
        file.commit()?;
    }
    if let Some(file) = moved_pgs {
        file.commit()?;
    }
    rendered(reports, args.format)
}

pub(super) fn share(count: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        count as f64 / total as f64
    }
}

pub(super) fn table_for_step(r: &StepReport) -> String {
    let width = r
        .counts
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut s = format!("== {} ==\n", r.action);
    let _ = writeln!(s, "{:<width$}  {:>10}  {:>7}", "server", "keys", "share");
    for c in &r.counts {
        let down = if c.up { "" } else { "  (down)" };
        let _ = writeln!(
            s,
            "{:<width$}  {:>10}  {:>6.2}%{down}",
            c.name,
            c.keys,
            100.0 * share(c.keys, r.keys)
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
    if let Some(pgs) = &r.placement_groups {
        let _ = writeln!(
            s,
            "placement groups remapped {} of {}  copies moved {}  primaries changed {}",
            pgs.remapped, pgs.groups, pgs.copies_moved, pgs.primaries_changed
        );
    }
    s
}

/// The reports as `format` writes them.
fn rendered(reports: Vec<StepReport>, format: Format) -> Result<String, String> {
    Ok(match format {
        Format::Json => to_json(&SimulateReport { steps: reports })?,
        Format::Csv => {
            let mut s = String::from("step,action,server,keys,share\n");
            for (i, r) in reports.iter().enumerate() {
                for c in &r.counts {
                    let _ = writeln!(
                        s,
                        "{i},{},{},{},{:.6}",
                        csv_field(&r.action),
                        csv_field(&c.name),
                        c.keys,
                        share(c.keys, r.keys)
                    );
                }
            }
            s
        }
        Format::Table => reports
            .iter()
            .map(table_for_step)
            .collect::<Vec<_>>()
            .join("\n"),
    })
}

/// The `--moved-pgs` file, its header written (None without the flag); refused for an
/// algorithm without placement groups.
fn open_moved_pgs(
    args: &SimulateArgs,
    sim: &Simulation,
) -> Result<Option<output::OutputFile>, String> {
    let Some(path) = &args.moved_pgs else {
        return Ok(None);
    };
    if sim.settings().algo.name() != "ceph" {
        return Err(
            "--moved-pgs: placement groups are Ceph's (--algo ceph, or a CRUSH map as --config)"
                .to_owned(),
        );
    }
    let mut file = output::OutputFile::create(path, "--moved-pgs")?;
    file.writer()
        .write_all(b"step,pg,old_acting,new_acting,copies_moved\n")
        .map_err(|e| format!("--moved-pgs: {e}"))?;
    Ok(Some(file))
}
