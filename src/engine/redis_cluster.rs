//! A real Redis Cluster's slot table, from the `CLUSTER NODES` output of any of its nodes
//! (`redis-cli -p PORT cluster nodes > nodes.txt`), pasted into the page or given to
//! `--config`, or from its `CLUSTER SHARDS` output (`--config` only: see `import`). The scenario becomes `algo=slots` with the masters as its servers and
//! the cluster's own table as its `slotmap` — so the link carries it, and changes then
//! rebalance from it.
//!
//! A `CLUSTER NODES` line is `<id> <ip:port@cport[,hostname]> <flags> <master> <ping> <pong>
//! <epoch> <link> <slot>…` (`cluster_nodes.c` `clusterGenNodeDescription`): slots as `N` or
//! `A-B`, a slot being moved as `[N->-ID]` (migrating to ID) or `[N-<-ID]` (importing from
//! ID). Masters become the servers, named `ip:port`, in the order listed; a master flagged
//! `fail` is down; replicas are left out (they serve reads only with `READONLY`); a slot
//! being moved stays with the master that holds it, and is said so. Every slot must be held:
//! a cluster with unassigned slots is down for them, and refused.
//!
//! `CLUSTER SHARDS` (Redis 7) says the same as nested arrays — per shard `slots` (start/end
//! pairs) and `nodes` (maps with `id`, `port`, `ip`, `role`, `health`, …) — which redis-cli
//! prints numbered (`1) 1) "slots"`) to a terminal and one value per line (raw) to a file;
//! both are read. A shard's `master` names the server (`ip:port`, as `CLUSTER NODES` names
//! it) and is down when its health is `failed`; replicas are left out. It does not show slots
//! being moved (`CLUSTER NODES` does).
//!
//! Every refusal is a [`Problem`]: the line and column and what was expected, or which slots
//! are held twice or by no master.

use super::note::{keep, Note};
use super::pace::{run_to_end, Pace};
use super::scenario::MAX_SERVERS;
use super::slots::{slot_range, SlotMap};
use crate::problem::{Expected, Problem};
use crate::text::{list_safe, quote};

/// What a cluster's own output says: its masters (the scenario's servers, named `ip:port`,
/// in the order listed), the failed ones, what the scenario leaves out (replicas, slots being
/// moved; in English), and which master holds each slot.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterSlots {
    /// The masters, in the order listed.
    pub masters: Vec<String>,
    /// The masters that are down.
    pub down: Vec<String>,
    /// What the scenario leaves out, in English.
    pub notes: Vec<Note>,
    /// Each master's slots (every slot held by exactly one).
    pub map: SlotMap,
}

/// The masters, the down ones, what is left out, and the slot ranges each master holds.
struct Layout {
    masters: Vec<String>,
    down: Vec<String>,
    notes: Vec<Note>,
    ranges: Vec<(u16, u16, u16)>,
    replicas: usize,
}

impl Layout {
    fn new() -> Self {
        Layout {
            masters: Vec::new(),
            down: Vec::new(),
            notes: Vec::new(),
            ranges: Vec::new(),
            replicas: 0,
        }
    }

    /// The masters and the slot map, once every slot is held by exactly one master.
    fn finish(mut self) -> Result<ClusterSlots, Problem> {
        let map = SlotMap::from_ranges(self.ranges, self.masters.len());
        let names: Vec<&str> = self.masters.iter().map(String::as_str).collect();
        map.owners(&names)?;
        if self.replicas > 0 {
            keep(&mut self.notes, || Note::Replicas(self.replicas));
        }
        Ok(ClusterSlots {
            masters: self.masters,
            down: self.down,
            notes: self.notes,
            map,
        })
    }
}

/// `expected` at `part` of line `line` (1-based), `part` being a slice of `text`.
fn wrong(line: usize, text: &str, part: &str, expected: Expected) -> Problem {
    let offset = (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    Problem::ConfigSyntax {
        line,
        column: text.get(..offset).map_or(0, |t| t.chars().count()) + 1,
        expected,
        found: Some(quote(part)),
    }
}

/// Reads `CLUSTER NODES` output.
pub fn read_nodes(text: &str) -> Result<ClusterSlots, Problem> {
    run_to_end(read_nodes_paced(text, &mut Pace::unlimited()))
}

/// [`read_nodes`] at `pace` (two passes over the text).
pub async fn read_nodes_paced(text: &str, pace: &mut Pace) -> Result<ClusterSlots, Problem> {
    pace.begin(text.len());
    let mut lines: Vec<(usize, &str, Vec<&str>)> = Vec::new();
    for (n, l) in text.lines().enumerate() {
        pace.tick(l.len() + 1).await;
        if !l.trim().is_empty() {
            lines.push((n + 1, l, l.split_whitespace().collect()));
        }
    }
    // Every node's id → its `ip:port`, for the moving slots' notes.
    let mut names: Vec<(&str, &str)> = Vec::new();
    for (n, line, f) in &lines {
        if f.len() < 8 {
            return Err(wrong(*n, line, line.trim(), Expected::NodesLine));
        }
        let address = f[1].split('@').next().unwrap_or("");
        // `HOST:PORT`, the host an IPv6 address as Redis prints it (`::1:7000`, no brackets).
        let well_formed = address.rsplit_once(':').is_some_and(|(host, port)| {
            !host.is_empty() && !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())
        });
        if !well_formed || !list_safe(address) {
            return Err(wrong(*n, line, f[1], Expected::NodesAddress));
        }
        names.push((f[0], address));
    }
    // Sorted by id, so that a master's name is found in log n (100,000 masters listed).
    names.sort_unstable_by(|a, b| a.0.cmp(b.0));
    fn name_of<'a>(names: &[(&'a str, &'a str)], id: &'a str) -> &'a str {
        names
            .binary_search_by(|n| n.0.cmp(id))
            .map_or(id, |i| names[i].1)
    }
    let mut layout = Layout::new();
    pace.begin(text.len());
    for (n, line, f) in &lines {
        pace.tick(line.len() + 1).await;
        let flags: Vec<&str> = f[2].split(',').collect();
        if !flags.contains(&"master") {
            layout.replicas += 1;
            continue;
        }
        if layout.masters.len() == MAX_SERVERS {
            return Err(Problem::TooManyServers { limit: MAX_SERVERS });
        }
        let me = layout.masters.len() as u16;
        let name = name_of(&names, f[0]);
        layout.masters.push(name.to_owned());
        if flags.contains(&"fail") {
            layout.down.push(name.to_owned());
        }
        for slot in &f[8..] {
            if let Some(moving) = slot.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                let notes = &mut layout.notes;
                match (moving.split_once("->-"), moving.split_once("-<-")) {
                    (Some((s, to)), _) => keep(notes, || Note::SlotMigrating {
                        slot: s.to_owned(),
                        from: name.to_owned(),
                        to: name_of(&names, to).to_owned(),
                    }),
                    (_, Some((s, from))) => keep(notes, || Note::SlotImporting {
                        slot: s.to_owned(),
                        into: name.to_owned(),
                        from: name_of(&names, from).to_owned(),
                    }),
                    _ => return Err(wrong(*n, line, slot, Expected::MovingSlot)),
                }
                continue;
            }
            let (a, b) = slot.split_once('-').unwrap_or((slot, slot));
            let (a, b) =
                slot_range(a, b).ok_or_else(|| wrong(*n, line, slot, Expected::SlotRange))?;
            layout.ranges.push((a, b, me));
        }
    }
    layout.finish()
}

/// The values of redis-cli's `CLUSTER SHARDS` output with their line numbers and lines:
/// each line's value without its `N)` numbering, quotes or `(integer)` mark; `(empty
/// array)` is none.
fn shard_values(text: &str) -> impl Iterator<Item = (usize, &str, &str)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let mut rest = line.trim();
        // The numbering: `1) 1) 2) ` as deep as the nesting.
        while let Some((number, after)) = rest.split_once(')') {
            if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
                break;
            }
            rest = after.trim_start();
        }
        let rest = rest.strip_prefix("(integer) ").unwrap_or(rest);
        // Quoted by the numbered form; ids, roles, addresses and health need no unescaping.
        let value = rest
            .strip_prefix('"')
            .and_then(|r| r.strip_suffix('"'))
            .unwrap_or(rest);
        (!value.is_empty() && value != "(empty array)").then_some((i + 1, line, value))
    })
}

/// Reads `CLUSTER SHARDS` output: each shard's master holds its slots.
pub fn read_shards(text: &str) -> Result<ClusterSlots, Problem> {
    let values: Vec<(usize, &str, &str)> = shard_values(text).collect();
    let at = |i: usize, expected: Expected| match values.get(i) {
        Some(&(n, line, value)) => wrong(n, line, value, expected),
        None => Problem::ConfigSyntax {
            line: 0,
            column: 0,
            expected,
            found: None,
        },
    };
    let mut layout = Layout::new();
    let mut i = 0;
    while i < values.len() {
        let start = i;
        if values[i].2 != "slots" {
            return Err(at(i, Expected::ShardStart));
        }
        i += 1;
        // Start/end pairs until "nodes".
        let mut ranges = Vec::new();
        while i < values.len() && values[i].2 != "nodes" {
            let b = values.get(i + 1).map_or("", |v| v.2);
            ranges.push(slot_range(values[i].2, b).ok_or_else(|| at(i, Expected::ShardSlots))?);
            i += 2;
        }
        i += 1;
        // The nodes: key/value pairs, each node starting at "id", until the next shard.
        let mut nodes: Vec<Vec<(&str, &str)>> = Vec::new();
        while i < values.len() && values[i].2 != "slots" {
            let key = values[i].2;
            let Some(&(_, _, value)) = values.get(i + 1) else {
                return Err(at(i, Expected::ShardValue));
            };
            match (key, nodes.last_mut()) {
                ("id", _) => nodes.push(vec![(key, value)]),
                (_, Some(node)) => node.push((key, value)),
                (_, None) => return Err(at(i, Expected::ShardNode)),
            }
            i += 2;
        }
        let field = |node: &[(&str, &str)], name: &str| {
            node.iter().find(|f| f.0 == name).map(|f| f.1.to_owned())
        };
        let mut master = None;
        for node in &nodes {
            match field(node, "role").as_deref() {
                Some("master") => master = Some(node),
                _ => layout.replicas += 1,
            }
        }
        let Some(master) = master else {
            if ranges.is_empty() {
                continue;
            }
            return Err(at(start, Expected::ShardMaster));
        };
        let (Some(ip), Some(port)) = (field(master, "ip"), field(master, "port")) else {
            return Err(at(start, Expected::ShardAddress));
        };
        let name = format!("{ip}:{port}");
        if !list_safe(&name) {
            return Err(at(start, Expected::ShardAddress));
        }
        if field(master, "health").as_deref() == Some("failed") {
            layout.down.push(name.clone());
        }
        if layout.masters.len() == MAX_SERVERS {
            return Err(Problem::TooManyServers { limit: MAX_SERVERS });
        }
        let me = layout.masters.len() as u16;
        layout.masters.push(name);
        layout
            .ranges
            .extend(ranges.into_iter().map(|(a, b)| (a, b, me)));
    }
    layout.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::import::{read_config, ClusterLayout, Imported};
    use crate::engine::scenario::Scenario;
    use crate::engine::sim::Simulation;

    /// The lines of `vectors` that start with `prefix`, without it.
    fn section(vectors: &str, prefix: &str) -> String {
        vectors
            .lines()
            .filter_map(|l| l.strip_prefix(prefix))
            .map(|l| format!("{l}\n"))
            .collect()
    }

    fn is_key_row(line: &str) -> bool {
        !["#", "node ", "shards"].iter().any(|p| line.starts_with(p))
    }

    /// The simulation a layout describes, with `keys`.
    fn simulation(imported: &Imported) -> Simulation {
        let base = Scenario::from_pairs([("keys", "0..1")]).unwrap();
        Simulation::new(&imported.apply(base).unwrap()).unwrap()
    }

    /// The master of every slot, by name.
    fn slot_masters(imported: &Imported) -> Vec<String> {
        let names: Vec<&str> = imported.servers.iter().map(|s| s.name.as_str()).collect();
        let owners = imported.slots.as_ref().unwrap().owners(&names).unwrap();
        owners
            .iter()
            .map(|&i| names[usize::from(i)].to_owned())
            .collect()
    }

    /// The same cluster's `CLUSTER SHARDS`, as redis-cli prints it to a terminal and to a
    /// file: the same masters hold the same slots as its `CLUSTER NODES` says.
    #[test]
    fn cluster_shards_says_what_cluster_nodes_says() {
        let vectors = include_str!("../../tests/reference/redis-cluster.txt");
        let from_nodes = read_config(&section(vectors, "node ")).unwrap();
        for prefix in ["shards ", "shards-raw "] {
            let text = section(vectors, prefix);
            assert_eq!(
                ClusterLayout::of(&text),
                Some(ClusterLayout::Shards),
                "{prefix}"
            );
            let from_shards =
                crate::engine::import::redis_cluster(read_shards(&text).unwrap()).unwrap();
            assert_eq!(
                slot_masters(&from_shards),
                slot_masters(&from_nodes),
                "{prefix}"
            );
            let names = |i: &Imported| {
                let mut names: Vec<String> = i.servers.iter().map(|s| s.name.clone()).collect();
                names.sort_unstable();
                names
            };
            assert_eq!(names(&from_shards), names(&from_nodes));
            assert_eq!(from_shards.left_out, [Note::Replicas(1)]);
        }
    }

    #[test]
    fn what_is_wrong_in_cluster_shards_is_said_with_its_line_and_column() {
        let shard = |slots: &str, role: &str, health: &str| {
            format!("slots\n{slots}\nnodes\nid\nab\nport\n7000\nip\n10.0.0.1\nrole\n{role}\nhealth\n{health}\n")
        };
        let i = crate::engine::import::redis_cluster(
            read_shards(&shard("0\n16383", "master", "failed")).unwrap(),
        )
        .unwrap();
        assert_eq!(
            (i.nodes().as_str(), i.down().as_str()),
            ("10.0.0.1:7000", "10.0.0.1:7000")
        );
        assert_eq!(i.slots.unwrap().to_string(), "0-16383");
        let said = |text: &str| read_shards(text).unwrap_err().to_string();
        assert_eq!(
            said(&shard("0\n100", "master", "online")),
            "slots 101–16383 are held by no master (the cluster is down for them)"
        );
        assert_eq!(
            said(&shard("0\n16384", "master", "online")),
            "config line 2, column 1: expected slot start and end pairs, from 0 to 16383, then \"nodes\", found '0'"
        );
        assert!(said(&shard("0\n16383", "replica", "online"))
            .starts_with("config line 1, column 1: expected a node with role \"master\""));
        assert!(said("slots\n0\n16383\nnodes\nport\n1\n")
            .starts_with("config line 5, column 1: expected \"id\""));
        let twice = format!(
            "{}{}",
            shard("0\n16383", "master", "online"),
            shard("5\n5", "master", "online").replace("7000", "7001")
        );
        assert_eq!(
            said(&twice),
            "slot 5 is held by both '10.0.0.1:7000' and '10.0.0.1:7001'"
        );
        // The numbered form, with an empty shard.
        let numbered =
            "1) 1) \"slots\"\n   2) (empty array)\n   3) \"nodes\"\n   4) (empty array)\n";
        assert_eq!(ClusterLayout::of(numbered), Some(ClusterLayout::Shards));
        assert!(said(numbered).starts_with("slots 0–16383 are held by no master"));
    }

    /// Where Debian's redis-server 7.0.15 routed 2,004 keys in a three-master cluster with
    /// uneven slots and slot 100 migrating (tools/redis-cluster-vectors.py).
    #[test]
    fn equals_a_real_cluster_on_every_recorded_key() {
        let vectors = include_str!("../../tests/reference/redis-cluster.txt");
        let nodes = section(vectors, "node ");
        assert_eq!(ClusterLayout::of(&nodes), Some(ClusterLayout::Nodes));
        let imported = read_config(&nodes).unwrap();
        // The masters as the output lists them, by `ip:port`.
        let listed: Vec<&str> = nodes
            .lines()
            .filter(|l| l.contains("master"))
            .map(|l| {
                l.split_whitespace()
                    .nth(1)
                    .unwrap()
                    .split('@')
                    .next()
                    .unwrap()
            })
            .collect();
        assert_eq!(imported.nodes(), listed.join(","));
        assert!(imported.left_out[0]
            .to_string()
            .contains("slot 100 migrating from 127.0.0.1:18381 to 127.0.0.1:18382"));
        let sim = simulation(&imported);
        let mut checked = 0;
        for line in vectors.lines().filter(|l| is_key_row(l)) {
            let (key, want) = line.split_once(' ').unwrap();
            let (_, owner) = sim.lookup(key).unwrap();
            assert_eq!(sim.server(owner).unwrap().name, want, "{key}");
            checked += 1;
        }
        assert_eq!(checked, 2004);
        // The link carries the table: the scenario it writes builds the same placement —
        // also after a master is added and the table rebalanced (before, a link dealt the
        // slots afresh), and a table as dealt is not written at all.
        let again = Simulation::new(&sim.scenario()).unwrap();
        assert_eq!(again.slot_table(), sim.slot_table());
        let mut grown = sim.clone();
        grown
            .apply(&crate::engine::change::Change::Add {
                name: "127.0.0.1:18385".into(),
                weight: 1.0,
            })
            .unwrap();
        let written = grown.scenario();
        assert_eq!(written.slots.as_ref().unwrap().servers(), 4);
        let reopened = Simulation::new(&written).unwrap();
        assert_eq!(reopened.slot_table(), grown.slot_table());
        let dealt = Simulation::new(&Scenario::from_pairs([("algo", "slots")]).unwrap()).unwrap();
        assert_eq!(dealt.scenario().slots, None);
        assert!(!dealt.scenario().to_query().contains("slotmap"));
        // The dealt table (redis-cli's even split) would send many of them elsewhere.
        let dealt = Simulation::new(
            &Scenario::from_pairs([
                ("algo", "slots"),
                ("nodes", &imported.nodes()),
                ("keys", "0..1"),
            ])
            .unwrap(),
        )
        .unwrap();
        let elsewhere = vectors
            .lines()
            .filter(|l| is_key_row(l))
            .filter(|l| {
                let (key, want) = l.split_once(' ').unwrap();
                dealt.server(dealt.lookup(key).unwrap().1).unwrap().name != want
            })
            .count();
        assert!(elsewhere > 500, "{elsewhere}");
    }

    #[test]
    fn what_is_wrong_in_cluster_nodes_is_said_with_its_line_and_column() {
        let line = "a 127.0.0.1:1@2 master - 0 0 1 connected";
        let said = |text: &str| read_nodes(text).unwrap_err().to_string();
        assert_eq!(
            said(&format!("{line} 0-100\n")),
            "slots 101–16383 are held by no master (the cluster is down for them)"
        );
        assert_eq!(
            said(&format!(
                "{line} 0-16383\nb 127.0.0.1:3@4 master - 0 0 1 connected 5\n"
            )),
            "slot 5 is held by both '127.0.0.1:1' and '127.0.0.1:3'"
        );
        assert_eq!(
            said(&format!("{line} 0-16384\n")),
            "config line 1, column 42: expected slots N or A-B, from 0 to 16383, found '0-16384'"
        );
        assert_eq!(
            said("\n  a b c\n"),
            "config line 2, column 3: expected at least 8 fields (id, address, flags, master, ping, pong, epoch, link), found 'a b c'"
        );
        assert!(said("a 127.0.0.1,x:1@2 master - 0 0 1 connected 0-16383\n")
            .starts_with("config line 1, column 3: expected an address ip:port@cport"));
        let i = read_config(&format!(
            "{line} 0-16383\nb 127.0.0.1:3@4 slave a 0 0 1 connected\nc 127.0.0.1:5@6 master,fail - 0 0 2 disconnected\n"
        ))
        .unwrap();
        assert_eq!(
            (i.nodes().as_str(), i.down().as_str()),
            ("127.0.0.1:1,127.0.0.1:5", "127.0.0.1:5")
        );
        assert_eq!(i.slots.unwrap().to_string(), "0-16383,");
        assert!(i.left_out[0].to_string().starts_with("1 replica"));
    }

    #[test]
    fn ipv6_masters_and_clusters_past_the_server_limit() {
        // Redis prints an IPv6 address without brackets: `::1:7000@17000`.
        let i = read_config(
            "a ::1:7000@17000 myself,master - 0 0 1 connected 0-8191\nb 2001:db8::2:7001@17001 master - 0 0 2 connected 8192-16383\n",
        )
        .unwrap();
        assert_eq!(i.nodes(), "::1:7000,2001:db8::2:7001");
        // An address with no host, or no port, is still refused.
        for bad in [":7000@17000", "::1:@17000", "host@1"] {
            let text = format!("a {bad} master - 0 0 1 connected 0-16383\n");
            assert!(read_nodes(&text).is_err(), "{bad}");
        }
        // 100,000 masters (each found by id for a moving slot's note) are refused at the
        // 10,001st, in one pass.
        let many: String = (0..100_000)
            .map(|n| {
                format!(
                    "id{n} 10.{}.{}.{}:6379@16379 master - 0 0 1 connected [1->-id{}]\n",
                    n >> 16,
                    (n >> 8) & 255,
                    n & 255,
                    99_999 - n
                )
            })
            .collect();
        assert_eq!(
            read_nodes(&many).unwrap_err(),
            Problem::TooManyServers { limit: 10_000 }
        );
    }
}
