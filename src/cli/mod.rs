//! The `hashring-lab` command line: the same engine as the page, driven from a terminal.
//!
//! Parsed with clap (derive): every command has `--help` listing each flag with its values
//! and default, `--version` works, `completions bash|zsh|fish` prints a completion script,
//! and usage errors exit 2 with clap's message. The scenario flags are the page's URL
//! parameters — same names, same value syntax — and are checked by the same
//! [`Scenario::from_pairs`], which reports every bad value at once. Reports are serde
//! structs, written as JSON, a table or CSV.
//!
//! Memory stays bounded per key: key *names* are never all held (they are rebuilt from the
//! key spec on demand), so a run needs about [`BYTES_PER_KEY`] bytes a key whatever the
//! names' length, and the key spec's limit of 10,000,000 keys bounds the whole run.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use clap::builder::PossibleValuesParser;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use serde::{Serialize, Serializer};

use crate::engine::hash::HashFn;
use crate::engine::keys::{KeySpec, Source, MAX_KEYS};
use crate::engine::placement::{key_position, Algorithm};
use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::scenario::{parse_vnodes, Scenario};
use crate::engine::sim::{Change, Movement, Simulation, Work};
use crate::file::{csv_field, write_moved, MOVED_HEADER};
use crate::i18n::EN;
use crate::problem::Problem;
use crate::text::quote;
use crate::words;

mod cassandra;
mod envoy;
mod key_file;
mod output;

/// Bytes the command line holds per key at its peak: the sorted layout (position and index,
/// 8 bytes), its owner (2), a change's new owners and moved-key lists (up to 8), and the
/// (position, index) pairs while keys are hashed (8). Key names are never all held.
pub const BYTES_PER_KEY: u64 = 26;

/// With more servers than the dense from → to matrix holds, the (from, to) pairs a change
/// moves keys along are kept in a map of at most
/// [`MAX_SPARSE_PAIRS`](crate::engine::movement::MAX_SPARSE_PAIRS) pairs: at most this many
/// bytes, whatever the number of keys (mod-N over 10,000 servers moves keys along millions
/// of pairs; those past the limit are counted, not listed).
pub const FLOW_BYTES: u64 = 64 * crate::engine::movement::MAX_SPARSE_PAIRS as u64;

/// The most `--step`s one `simulate` takes: each step's report lists every server (5,000
/// steps over as many servers held 2.2 GB of reports).
pub const MAX_STEPS: usize = 100;

/// The most vnode counts one `sweep` takes.
pub const MAX_SWEEP_POINTS: usize = 50;

/// hashring-lab: consistent hashing on the 0..2^32 ring, from the command line.
///
/// The scenario flags are the page's URL parameters with the same names and syntax, so
/// `--nodes A,B*2 --keys key-{i}:0..1000` is `?nodes=A,B*2&keys=key-{i}:0..1000`.
#[derive(Parser, Debug)]
#[command(name = "hashring-lab", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build a scenario, apply steps, and report keys per server and what moved after each.
    Simulate(SimulateArgs),
    /// Balance (standard deviation of keys per server) as the number of vnodes varies.
    Sweep(SweepArgs),
    /// Print each KEY's hash, decimal and hex.
    Hash(HashArgs),
    /// Time lookups (key hashing and placement) over the scenario's keys.
    Bench(BenchArgs),
    /// Which server owns each KEY, and how the algorithm found it.
    Locate(LocateArgs),
    /// Run one change through every algorithm and compare what moved, the balance, the
    /// structure's bytes and the lookup time.
    Compare(CompareArgs),
    /// Print a shell completion script (e.g. `hashring-lab completions bash > hashring-lab.bash`).
    Completions {
        /// The shell.
        shell: CompletionShell,
    },
}

/// Shells that completions are generated for.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum CompletionShell {
    Bash,
    Zsh,
    Fish,
}

/// The scenario flags, except `--vnodes` (a single count for most commands, a list for
/// `sweep`). Defaults are the page's; a test checks that they agree.
#[derive(Args, Debug)]
struct ScenarioArgs {
    /// Placement algorithm.
    #[arg(long, default_value = "ring", value_parser = PossibleValuesParser::new(Algorithm::ALL.iter().map(|a| a.name())))]
    algo: String,
    /// Hash for keys, vnode labels and rendezvous scores.
    #[arg(long, default_value = "xxh3", value_parser = PossibleValuesParser::new(HashFn::ALL.map(HashFn::name)))]
    hash: String,
    /// Servers, comma separated; NAME*W gives weight W (0 < W <= 100); NAME{i}:A..B for a
    /// range; at most 10,000 (the page takes 100).
    #[arg(long, default_value = "A,B,C,D")]
    nodes: String,
    /// Vnode label template with {node} and {i}.
    #[arg(long, default_value = "{node}#{i}")]
    label: String,
    /// Keys: A..B, TEMPLATE:A..B (TEMPLATE has {i}), list:k1,k2,..., random:COUNT, or your
    /// own keys, one per line: @FILE, or - for standard input; at most 10,000,000.
    #[arg(long, default_value = "key-{i}:0..1000")]
    keys: String,
    /// Seed for random: keys, 0..=2^64-1.
    #[arg(long, default_value = "1")]
    seed: String,
    /// Failed servers, comma separated.
    #[arg(long, default_value = "")]
    down: String,
    /// Multi-probe: probes per key, 1..=256.
    #[arg(long, default_value = "21")]
    probes: String,
    /// Maglev: lookup table size M, a prime up to 1000003 (default 65537, the paper's; the
    /// page uses 251, small enough to draw cell by cell).
    #[arg(long)]
    table: Option<String>,
    /// Bounded loads: balance factor c, 1..=10 (capacity ⌈c · keys / servers⌉).
    #[arg(long, default_value = "1.25")]
    c: String,
    /// Redis Cluster (`--algo slots`): the slot ranges of each server, A-B (or N) joined by
    /// +, servers by , in --nodes order, e.g. 0-8191,8192-16383 (default: dealt as
    /// `redis-cli --cluster create` does).
    #[arg(long, default_value = "")]
    slotmap: String,
    /// Cassandra (`--algo cassandra`): the tokens of each server, signed 64-bit numbers
    /// joined by +, servers by , in --nodes order; for an empty entry that node draws its
    /// tokens (default: every node draws them from its name and the seed). A list may start
    /// with a negative token, as `nodetool ring` prints half of them: `--tokens -9+5,7`.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    tokens: String,
    /// Your system's config (`-` reads stdin): an nginx `upstream { … }` block with `hash …
    /// consistent;`, an HAProxy `backend` with `hash-type consistent`, a twemproxy pool
    /// (YAML), an Envoy cluster (YAML or JSON, RING_HASH or MAGLEV), a Redis Cluster's
    /// `CLUSTER NODES` or `CLUSTER SHARDS` output (its own slot table) or a Cassandra cluster's `nodetool ring`
    /// output (its own tokens). It gives the algorithm, the servers in declaration order,
    /// their weights and the down ones.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["algo", "nodes", "down", "slotmap", "tokens"])]
    config: Option<std::path::PathBuf>,
}

/// `--vnodes` as one count.
#[derive(Args, Debug)]
struct VnodesArg {
    /// Virtual nodes per server of weight 1, 1..=1000 (default 10; with `nodetool ring` as
    /// `--config`, the nodes' token count, which a node you add gets).
    #[arg(long)]
    vnodes: Option<String>,
}

impl ScenarioArgs {
    /// The scenario these flags and `vnodes` (`--vnodes`, when given) describe.
    /// The files these flags read (`--keys @FILE`, `--config FILE`), each with its flag.
    fn input_files(&self) -> Vec<(&'static str, &std::path::Path)> {
        let keys = self
            .keys
            .strip_prefix('@')
            .map(|p| ("--keys", std::path::Path::new(p)));
        let config = self
            .config
            .as_deref()
            .filter(|p| p.as_os_str() != "-")
            .map(|p| ("--config", p));
        keys.into_iter().chain(config).collect()
    }

    fn scenario(&self, vnodes: Option<&str>) -> Result<Scenario, String> {
        let mut imported = self
            .config
            .as_ref()
            .map(|p| read_config_file(p))
            .transpose()?;
        if let Some(imported) = &mut imported {
            if imported.table.is_some() && self.table.is_some() {
                return Err(
                    "--table and the config's table_size both set Maglev's table; give one"
                        .to_owned(),
                );
            }
            // A `--vnodes` given wins over the config's own count (`nodetool ring`'s).
            if vnodes.is_some() {
                imported.vnodes = None;
            }
        }
        let table = self
            .table
            .clone()
            .unwrap_or_else(|| crate::engine::algorithms::maglev::DEFAULT_TABLE.to_string());
        // The user's own keys (`@FILE`, `-`) are checked and counted here, not held.
        let key_file = (self.keys.starts_with('@') || self.keys == "-")
            .then(|| {
                if self.keys == "-" && self.config.as_deref() == Some(std::path::Path::new("-")) {
                    return Err(
                        "--keys - and --config - both read standard input; give one of them a file"
                            .to_owned(),
                    );
                }
                key_file::KeyFile::open(&self.keys)
            })
            .transpose()?;
        let keys = if key_file.is_some() {
            "0..1"
        } else {
            self.keys.as_str()
        };
        // With `--config`, the flags it conflicts with keep their defaults: the config sets
        // the algorithm, servers, slot table and tokens, applied below as the page applies a
        // pasted one.
        let pairs = [
            ("algo", self.algo.as_str()),
            ("hash", self.hash.as_str()),
            ("nodes", self.nodes.as_str()),
            ("vnodes", vnodes.unwrap_or("10")),
            ("label", self.label.as_str()),
            ("keys", keys),
            ("seed", self.seed.as_str()),
            ("down", self.down.as_str()),
            ("probes", self.probes.as_str()),
            ("table", table.as_str()),
            ("c", self.c.as_str()),
            ("slotmap", self.slotmap.as_str()),
            ("tokens", self.tokens.as_str()),
        ];
        let mut scenario = Scenario::from_pairs(pairs)?;
        if let Some(imported) = imported {
            scenario = imported
                .apply(scenario)
                .map_err(|e| format!("--config: {e}"))?;
        }
        if let Some(file) = key_file {
            scenario.settings.keys = KeySpec::External(Source(std::sync::Arc::new(file)));
        }
        Ok(scenario)
    }
}

/// Reads `--config` (`-`: stdin), at most 16 MB, and what it describes; what the scenario
/// leaves out (backup servers, replicas, …) is said on stderr.
fn read_config_file(path: &std::path::Path) -> Result<crate::engine::import::Imported, String> {
    use crate::engine::import::{self, ClusterLayout, ConfigFormat};
    use std::io::Read;
    const LIMIT: u64 = 16 * 1024 * 1024;
    let mut text = String::new();
    let shown = quote(&path.to_string_lossy());
    let read = if path.as_os_str() == "-" {
        std::io::stdin().take(LIMIT + 1).read_to_string(&mut text)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(LIMIT + 1).read_to_string(&mut text))
    };
    read.map_err(|e| format!("--config {shown}: {e}"))?;
    if text.len() as u64 > LIMIT {
        return Err(format!("--config {shown}: larger than 16 MB"));
    }
    let text = import::without_bom(&text);
    // The kinds the page sends here are read by the command line's own readers.
    let imported = match ConfigFormat::of(text) {
        None => Err(Problem::ConfigNotRecognized.to_string()),
        Some(ConfigFormat::Envoy) => envoy::read(text),
        Some(ConfigFormat::Cluster(ClusterLayout::Shards)) => {
            crate::engine::redis_cluster::read_shards(text)
                .and_then(import::redis_cluster)
                .map_err(|e| e.to_string())
        }
        Some(ConfigFormat::Cluster(ClusterLayout::Ring)) => {
            crate::engine::cassandra_ring::read(text)
                .map(|cluster| import::Imported {
                    left_out: cassandra::notes(&cluster),
                    ..import::cassandra_ring(cluster)
                })
                .map_err(|e| e.to_string())
        }
        Some(format) => import::read_as(text, format).map_err(|e| e.to_string()),
    }
    .map_err(|e| format!("--config {shown}: {e}"))?;
    for backup in &imported.backups {
        eprintln!("note: --config leaves out backup server {backup} (the hash places keys on the primary servers; backups serve only when none is up)");
    }
    for note in &imported.left_out {
        eprintln!("note: --config leaves out {note}");
    }
    Ok(imported)
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Table,
    Json,
    Csv,
}

#[derive(Args, Debug)]
struct SimulateArgs {
    #[command(flatten)]
    scenario: ScenarioArgs,
    #[command(flatten)]
    vnodes: VnodesArg,
    /// A change, applied in order: add:NAME[*W], remove:NAME, fail:NAME, recover:NAME,
    /// weight:NAME*W, vnodes:N, keys:SPEC, algo:NAME or hash:NAME. Repeat for more (at
    /// most 100).
    #[arg(long = "step", value_name = "STEP")]
    steps: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Also write the migration list to FILE: a CSV row per moved key of each step
    /// (step,key,from,to,between_survivors), streamed.
    #[arg(long, value_name = "FILE")]
    moved: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
struct SweepArgs {
    #[command(flatten)]
    scenario: ScenarioArgs,
    /// Vnode counts to try, comma separated, each 1..=1000 (at most 50 of them).
    #[arg(long, required = true, value_name = "LIST")]
    vnodes: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

#[derive(Args, Debug)]
struct HashArgs {
    /// The hash.
    #[arg(long, required = true, value_parser = PossibleValuesParser::new(HashFn::ALL.map(HashFn::name)))]
    hash: String,
    /// Keys to hash.
    #[arg(required = true, value_name = "KEY")]
    keys: Vec<String>,
}

#[derive(Args, Debug)]
struct BenchArgs {
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

#[derive(Args, Debug)]
struct LocateArgs {
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

#[derive(Args, Debug)]
struct CompareArgs {
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

/// Runs the command line with `args` (the program name first); returns the exit code.
pub fn run(args: &[std::ffi::OsString], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let text = shorten_quoted(&e.render().to_string());
            let _ = if e.use_stderr() {
                err.write_all(text.as_bytes())
            } else {
                out.write_all(text.as_bytes())
            };
            return e.exit_code();
        }
    };
    let mut progress = Progress::new(std::io::stderr().is_terminal());
    let result = match cli.command {
        Command::Simulate(a) => simulate(&a, &mut progress),
        Command::Sweep(a) => sweep(&a),
        Command::Hash(a) => hash(&a),
        Command::Bench(a) => bench(&a, &mut progress),
        Command::Locate(a) => locate(&a, &mut progress),
        Command::Compare(a) => compare(&a, &mut progress),
        Command::Completions { shell } => Ok(completions(shell)),
    };
    progress.clear();
    match result.map(|text| out.write_all(text.as_bytes()).and_then(|()| out.flush())) {
        Ok(Ok(())) => 0,
        // The reader went away (`| head`): stop quietly, as Unix tools do.
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Ok(Err(e)) => {
            let _ = writeln!(err, "hashring-lab: cannot write the output: {e}");
            1
        }
        Err(message) => {
            let _ = writeln!(err, "hashring-lab: {message}");
            2
        }
    }
}

fn completions(shell: CompletionShell) -> String {
    let shell = match shell {
        CompletionShell::Bash => clap_complete::Shell::Bash,
        CompletionShell::Zsh => clap_complete::Shell::Zsh,
        CompletionShell::Fish => clap_complete::Shell::Fish,
    };
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "hashring-lab", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// clap's message with every quoted value longer than 60 characters cut to its first 60
/// and `…` (clap quotes the whole value it refused: `--algo` with 100 KB echoed 100 KB).
fn shorten_quoted(text: &str) -> String {
    const MAX: usize = 60;
    let mut out = String::with_capacity(text.len().min(4096));
    let mut rest = text;
    while let Some(open) = rest.find('\'') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let Some(close) = rest.find('\'') else {
            break;
        };
        let inner = &rest[..close];
        if inner.chars().count() > MAX {
            out.extend(inner.chars().take(MAX));
            out.push('…');
        } else {
            out.push_str(inner);
        }
        out.push('\'');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A one-line progress display on a terminal's stderr, redrawn at most ten times a second.
struct Progress {
    on: bool,
    last: Option<Instant>,
    shown: bool,
}

impl Progress {
    fn new(on: bool) -> Progress {
        Progress {
            on,
            last: None,
            shown: false,
        }
    }

    fn show(&mut self, line: &str) {
        if !self.on
            || self
                .last
                .is_some_and(|t| t.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(Instant::now());
        self.shown = true;
        let _ = write!(std::io::stderr(), "\r\x1b[K{line}");
    }

    fn clear(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
            self.shown = false;
        }
    }

    /// Runs `work` to the end in steps, showing how far it is.
    fn run(&mut self, work: &mut Work, what: &str) -> Result<(), Problem> {
        while !work.is_finished() {
            work.advance(20_000_000)?;
            let (phase, done, total) = work.progress();
            self.show(&format!(
                "{what}: {}",
                words::progress(&EN, phase, done, total)
            ));
        }
        Ok(())
    }
}

/// Builds the scenario's simulation, with progress on a terminal.
fn build(scenario: &Scenario, progress: &mut Progress) -> Result<Simulation, String> {
    check_memory(scenario)?;
    let mut work = Work::load(scenario)?;
    progress.run(&mut work, "loading")?;
    let mut sim = Simulation::unassigned(work.config().clone());
    sim.finish(work)?;
    Ok(sim)
}

/// Refuses, before allocating, a run that would need more memory than the machine has.
fn check_memory(scenario: &Scenario) -> Result<(), String> {
    let keys = scenario.settings.keys.len() as u64;
    let flows = if scenario.nodes.len() + 1 >= crate::engine::movement::DENSE_FLOWS {
        FLOW_BYTES
    } else {
        0
    };
    let offsets = if matches!(scenario.settings.keys, KeySpec::External(_)) {
        key_file::OFFSET_BYTES_PER_KEY
    } else {
        0
    };
    let per_key = BYTES_PER_KEY + offsets;
    let need = keys.saturating_mul(per_key).saturating_add(flows);
    if keys > MAX_KEYS {
        return Err(format!("{keys} keys is more than the limit of {MAX_KEYS}"));
    }
    if let Some(available) = available_memory() {
        if need > available {
            return Err(format!(
                "{keys} keys need about {} MB ({per_key} bytes a key) but only {} MB is available; use fewer keys",
                need >> 20,
                available >> 20
            ));
        }
    }
    Ok(())
}

/// Memory the system reports as available (Linux), if it says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// One server's keys in a report.
#[derive(Serialize)]
struct ServerCount {
    name: String,
    keys: u64,
    up: bool,
}

/// `counts` is written as `{ "name": keys, ... }` in list order.
fn counts_as_map<S: Serializer>(counts: &[ServerCount], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(counts.iter().map(|c| (&c.name, c.keys)))
}

#[derive(Serialize)]
struct StepReport {
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

#[derive(Serialize)]
struct SimulateReport {
    steps: Vec<StepReport>,
}

/// The report of one step; `names_before` names servers that the step removed.
fn report(
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

fn to_json(value: &impl Serialize) -> Result<String, String> {
    let mut s = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    s.push('\n');
    Ok(s)
}

fn simulate(args: &SimulateArgs, progress: &mut Progress) -> Result<String, String> {
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
    for (number, step) in steps.iter().enumerate() {
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
                    "note: step {label} re-laid every key (keys, hash or layout changed), so the migration list has no rows for it"
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
        reports.push(report(&sim, &names_before, label, &m));
    }
    if let Some(file) = moved {
        file.commit()?;
    }
    Ok(match args.format {
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
    s
}

#[derive(Serialize)]
struct SweepPoint {
    vnodes: u32,
    stddev: f64,
    cv: f64,
    peak_to_mean: f64,
}

#[derive(Serialize)]
struct SweepReport {
    points: Vec<SweepPoint>,
}

fn sweep(args: &SweepArgs) -> Result<String, String> {
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

fn hash(args: &HashArgs) -> Result<String, String> {
    let hash = crate::engine::scenario::parse_hash(&args.hash)?;
    let mut s = String::new();
    for key in &args.keys {
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

/// Keys named per timed chunk: names are built before each chunk is timed (as seed 003
/// builds them outside the lookup) and dropped after it, so memory stays bounded.
const BENCH_CHUNK: usize = 65_536;

fn bench(args: &BenchArgs, progress: &mut Progress) -> Result<String, String> {
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

#[derive(Serialize)]
struct LocateReport {
    key: String,
    position: u32,
    server: Option<String>,
    explanation: String,
    scores: Vec<ScoreReport>,
}

#[derive(Serialize)]
struct ScoreReport {
    server: String,
    score: String,
    wins: bool,
}

#[derive(Serialize)]
struct CompareReport {
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
const MAX_DEFAULT_SCORES: u64 = 2_000_000_000;

/// A fraction as a percentage with one decimal, or three significant digits below 1%
/// (a server's share of a cluster of thousands).
fn percent(fraction: f64) -> String {
    let p = 100.0 * fraction;
    if p == 0.0 || p >= 1.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.*}%", (2 - p.log10().floor() as i32).max(2) as usize)
    }
}

fn compare(args: &CompareArgs, progress: &mut Progress) -> Result<String, String> {
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
fn compare_output(rows: &[CompareReport], format: Format) -> Result<String, String> {
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

fn locate(args: &LocateArgs, progress: &mut Progress) -> Result<String, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_defaults_are_the_pages() {
        let cli = Cli::try_parse_from(["hashring-lab", "simulate"]).unwrap();
        let Command::Simulate(a) = cli.command else {
            panic!("simulate");
        };
        // One deliberate difference: Maglev's table is the paper's 65537 here and a
        // drawable 251 on the page.
        let mut page = Scenario::default();
        page.settings.table = crate::engine::algorithms::maglev::DEFAULT_TABLE;
        assert_eq!(
            a.scenario.scenario(a.vnodes.vnodes.as_deref()).unwrap(),
            page
        );
    }

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
