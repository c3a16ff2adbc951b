//! The scenario flags every subcommand shares — the page's URL parameters, same names and
//! syntax — and `--config`: a system's own config read once ([`crate::configs`]) and
//! applied over the other flags as the page applies a pasted one.

use clap::builder::PossibleValuesParser;
use clap::Args;

use super::key_file;
use crate::configs::{assemble, read_config_text_with_rule};
use crate::engine::hash::HashFn;
use crate::engine::import::Imported;
use crate::engine::keys::{KeySpec, Source};
use crate::engine::placement::Algorithm;
use crate::engine::scenario::Scenario;
use crate::text::quote;

/// The scenario flags, except `--vnodes` (a single count for most commands, a list for
/// `sweep`). Defaults are the page's; a test checks that they agree.
#[derive(Args, Debug)]
pub(super) struct ScenarioArgs {
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
    /// Failed servers, comma separated (with `--config`, marked down after it: e.g. an OSD
    /// out, which a CRUSH map cannot say).
    #[arg(long, default_value = "")]
    down: String,
    /// Multi-probe: probes per key, 1..=256.
    #[arg(long, default_value = "21")]
    probes: String,
    /// Maglev: lookup table size M, a prime up to 1000003 (default 65537, the paper's; the
    /// page uses 251, small enough to draw cell by cell).
    #[arg(long)]
    table: Option<String>,
    /// Ceph: the pool's placement groups, any whole number up to 1000003 (default 32,
    /// Ceph's osd_pool_default_pg_num).
    #[arg(long = "pg-num", value_name = "PG_NUM", default_value = "32")]
    pg_num: String,
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
    /// `CLUSTER NODES` or `CLUSTER SHARDS` output (its own slot table), a Cassandra cluster's
    /// `nodetool ring` output (its own tokens) or a Ceph CRUSH map as `crushtool -d` writes it
    /// (flat, or hosts and racks with device classes; give `--pg-num`). It gives the algorithm, the servers in
    /// declaration order, their weights and the down ones.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["algo", "nodes", "slotmap", "tokens"])]
    config: Option<std::path::PathBuf>,
    /// Ceph: the CRUSH map's rule the pool uses, by name or id (default: its first
    /// replicated rule), for a map with several (an hdd pool and an ssd pool).
    #[arg(long, value_name = "RULE")]
    rule: Option<String>,
}

/// `--vnodes` as one count.
#[derive(Args, Debug)]
pub(super) struct VnodesArg {
    /// Virtual nodes per server of weight 1, 1..=1000 (default 10; with `nodetool ring` as
    /// `--config`, the nodes' token count, which a node you add gets).
    #[arg(long)]
    pub(super) vnodes: Option<String>,
}

impl ScenarioArgs {
    /// The scenario these flags and `vnodes` (`--vnodes`, when given) describe.
    /// The files these flags read (`--keys @FILE`, `--config FILE`), each with its flag.
    pub(super) fn input_files(&self) -> Vec<(&'static str, &std::path::Path)> {
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

    pub(super) fn scenario(&self, vnodes: Option<&str>) -> Result<Scenario, String> {
        if self.rule.is_some() && self.config.is_none() {
            return Err(
                "--rule chooses among the rules of a CRUSH map: give the map with --config".into(),
            );
        }
        let imported = self
            .config
            .as_ref()
            .map(|p| read_config_file(p, self.rule.as_deref()))
            .transpose()?;
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
        // the algorithm, servers, slot table and tokens, applied over them; `--down` names
        // the config's servers, so it is applied after it.
        let down_after = self.config.is_some();
        let pairs = [
            ("algo", self.algo.as_str()),
            ("hash", self.hash.as_str()),
            ("nodes", self.nodes.as_str()),
            ("label", self.label.as_str()),
            ("keys", keys),
            ("seed", self.seed.as_str()),
            ("down", if down_after { "" } else { self.down.as_str() }),
            ("probes", self.probes.as_str()),
            ("c", self.c.as_str()),
            ("pg_num", self.pg_num.as_str()),
            ("slotmap", self.slotmap.as_str()),
            ("tokens", self.tokens.as_str()),
        ];
        let mut scenario = assemble(&pairs, vnodes, self.table.as_deref(), imported)?;
        if down_after {
            let already = scenario
                .mark_down(&self.down)
                .map_err(|e| format!("--down (after --config): {e}"))?;
            for name in already {
                eprintln!("note: --down {name}: the config already has it down");
            }
        }
        if let Some(file) = key_file {
            scenario.settings.keys = KeySpec::External(Source(std::sync::Arc::new(file)));
        }
        Ok(scenario)
    }
}

/// Reads `--config` (`-`: stdin), at most 16 MB, and what it describes; what the scenario
/// leaves out (backup servers, replicas, …) is said on stderr.
pub(super) fn read_config_file(
    path: &std::path::Path,
    rule: Option<&str>,
) -> Result<Imported, String> {
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
    let imported =
        read_config_text_with_rule(&text, rule).map_err(|e| format!("--config {shown}: {e}"))?;
    for backup in &imported.backups {
        eprintln!("note: --config leaves out backup server {backup} (the hash places keys on the primary servers; backups serve only when none is up)");
    }
    for note in &imported.left_out {
        eprintln!("note: --config leaves out {note}");
    }
    Ok(imported)
}

/// A config pasted in the page and the same text given to the command line's `--config`
/// become the same scenario — for every reader the page has. Both read the text once, into
/// the typed `Imported`, and apply it by the one
/// `Imported::apply`; the command line's flags here are the page's defaults.
#[cfg(test)]
mod paste_equals_command_line {
    use std::rc::Rc;

    use crate::engine::import::{read_config, ConfigFormat};
    use crate::engine::scenario::Scenario;
    use crate::state::{Action, Notice, PageState};

    fn lines_after(file: &str, prefix: &str) -> String {
        file.lines()
            .filter_map(|l| l.strip_prefix(prefix))
            .map(|l| format!("{l}\n"))
            .collect()
    }

    #[test]
    fn every_page_reader_gives_the_command_lines_scenario() {
        let nodes = include_str!("../../tests/reference/redis-cluster.txt");
        let ring = include_str!("../../tests/reference/cassandra-ring.txt");
        let configs = [
            "upstream u {\n  hash $uri consistent;\n  server a:80 weight=3;\n  server b:80 down;\n  server c:80 backup;\n}\n".to_owned(),
            "backend pool\n  balance uri\n  hash-type consistent\n  server s1 10.0.0.1:80 weight 2 check\n  server s2 10.0.0.2:80 disabled\n  server s3 10.0.0.3:80\n".to_owned(),
            "alpha:\n  hash: fnv1a_64\n  distribution: ketama\n  servers:\n   - 127.0.0.1:22131:1 alpha\n   - 127.0.0.1:22132:3 beta\n".to_owned(),
            lines_after(nodes, "node "),
            lines_after(ring, "ring "),
        ];
        let mut formats = Vec::new();
        for text in &configs {
            formats.push(ConfigFormat::of(text).unwrap());
            let page = PageState::new(&Scenario::default()).unwrap();
            let pasted = page.reduce(Action::PasteConfig(Rc::new(read_config(text).unwrap())));
            let mut page = pasted;
            while page.pending.is_some() {
                page = page.reduce(Action::Continue);
            }
            assert_eq!(
                page.notice().filter(|n| matches!(n, Notice::Refused(_))),
                None
            );
            let table = crate::engine::algorithms::maglev::PAGE_TABLE.to_string();
            let imported = crate::configs::read_config_text(text).unwrap();
            let command_line =
                crate::configs::assemble(&[], None, Some(table.as_str()), Some(imported)).unwrap();
            assert_eq!(page.sim.scenario(), command_line, "{text}");
        }
        // Every format the page reads is among them (the others it refuses, naming the
        // command line).
        formats.sort_by_key(|f| format!("{f:?}"));
        formats.dedup();
        assert_eq!(formats.len(), 5, "{formats:?}");
    }
}
