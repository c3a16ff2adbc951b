//! A real Redis Cluster's slot table, from the `CLUSTER NODES` output of any of its nodes,
//! for `--config` (`redis-cli -p PORT cluster nodes > nodes.txt`). The command line only:
//! the page keeps the slot table redis-cli would deal, the command line replaces it with the
//! cluster's own (`Simulation::with_slot_owners`), and changes then rebalance from it.
//!
//! A line is `<id> <ip:port@cport[,hostname]> <flags> <master> <ping> <pong> <epoch>
//! <link> <slot>…` (`cluster_nodes.c` `clusterGenNodeDescription`): slots as `N` or `A-B`,
//! a slot being moved as `[N->-ID]` (migrating to ID) or `[N-<-ID]` (importing from ID).
//! Masters become the servers, named `ip:port`, in the order listed; a master flagged
//! `fail` is down; replicas are left out (they serve reads only with `READONLY`); a slot
//! being moved stays with the master that holds it, and is said so. Every slot must be
//! held: a cluster with unassigned slots is down for them, and refused.
//!
//! `CLUSTER SHARDS` (Redis 7) says the same as nested arrays — per shard `slots` (start/end
//! pairs) and `nodes` (maps with `id`, `port`, `ip`, `role`, `health`, …) — which redis-cli
//! prints numbered (`1) 1) "slots"`) to a terminal and one value per line (raw) to a file;
//! both are read. A shard's `master` names the server (`ip:port`, as `CLUSTER NODES` names
//! it) and is down when its health is `failed`; replicas are left out. It does not show slots
//! being moved (`CLUSTER NODES` does).

use crate::engine::hash::SLOT_COUNT;
use crate::engine::import::Imported;
use crate::engine::placement::Algorithm;

/// The masters (as the scenario's servers) and, for every slot, the index of its master.
pub type SlotLayout = (Imported, Vec<usize>);

/// The masters, the down ones, what is left out, and each slot's master (by index) — once
/// every slot is held by exactly one master.
struct Layout {
    source: &'static str,
    masters: Vec<String>,
    down: Vec<String>,
    notes: Vec<String>,
    owner: Vec<Option<usize>>,
    replicas: usize,
}

impl Layout {
    fn new(source: &'static str) -> Self {
        Layout {
            source,
            masters: Vec::new(),
            down: Vec::new(),
            notes: Vec::new(),
            owner: vec![None; SLOT_COUNT as usize],
            replicas: 0,
        }
    }

    /// Gives slots `range` to master `me`; `at` says where the range was read.
    fn hold(
        &mut self,
        me: usize,
        range: std::ops::RangeInclusive<u16>,
        at: &str,
    ) -> Result<(), String> {
        for s in range {
            if let Some(other) = self.owner[usize::from(s)].replace(me) {
                return Err(format!(
                    "{} {at}: slot {s} is also held by {}",
                    self.source, self.masters[other]
                ));
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<SlotLayout, String> {
        let owner = &self.owner;
        if let Some(free) = owner.iter().position(Option::is_none) {
            let end = owner[free..]
                .iter()
                .position(Option::is_some)
                .map_or(owner.len(), |e| free + e);
            return Err(format!(
                "{}: slots {free}–{} are held by no master (the cluster is down for them)",
                self.source,
                end - 1
            ));
        }
        if self.replicas > 0 {
            self.notes.push(format!(
                "{} replica(s) (they serve reads only with READONLY)",
                self.replicas
            ));
        }
        let algo = Algorithm::from_name("slots").ok_or("the slots algorithm is not registered")?;
        let imported = Imported {
            algo,
            nodes: self.masters.join(","),
            down: self.down.join(","),
            left_out: self.notes,
            table: None,
        };
        Ok((
            imported,
            self.owner.into_iter().map(|o| o.unwrap_or(0)).collect(),
        ))
    }
}

/// A slot range `N` or `A-B` of `CLUSTER NODES`, or a `CLUSTER SHARDS` start/end pair.
fn slot_range(a: &str, b: &str) -> Option<std::ops::RangeInclusive<u16>> {
    match (a.parse::<u16>(), b.parse::<u16>()) {
        (Ok(a), Ok(b)) if a <= b && u32::from(b) < SLOT_COUNT => Some(a..=b),
        _ => None,
    }
}

/// Reads `CLUSTER NODES` output.
pub fn read(text: &str) -> Result<SlotLayout, String> {
    let lines: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| (n + 1, l.split_whitespace().collect()))
        .collect();
    let wrong = |n: usize, what: &str| format!("CLUSTER NODES line {n}: expected {what}");
    // Every node's id → its `ip:port`, for the moving slots' notes.
    let mut names: Vec<(&str, &str)> = Vec::new();
    for (n, f) in &lines {
        if f.len() < 8 {
            return Err(wrong(
                *n,
                "at least 8 fields (id, address, flags, master, ping, pong, epoch, link)",
            ));
        }
        let address = f[1].split('@').next().unwrap_or("");
        if address.starts_with(':')
            || !address.contains(':')
            || !crate::engine::import::list_safe(address)
        {
            return Err(wrong(*n, "an address ip:port@cport"));
        }
        names.push((f[0], address));
    }
    fn name_of<'a>(names: &[(&'a str, &'a str)], id: &'a str) -> &'a str {
        names.iter().find(|n| n.0 == id).map_or(id, |n| n.1)
    }
    let mut layout = Layout::new("CLUSTER NODES");
    for (n, f) in &lines {
        let flags: Vec<&str> = f[2].split(',').collect();
        if !flags.contains(&"master") {
            layout.replicas += 1;
            continue;
        }
        let me = layout.masters.len();
        let name = name_of(&names, f[0]);
        layout.masters.push(name.to_owned());
        if flags.contains(&"fail") {
            layout.down.push(name.to_owned());
        }
        for slot in &f[8..] {
            if let Some(moving) = slot.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                layout.notes.push(match (moving.split_once("->-"), moving.split_once("-<-")) {
                    (Some((s, to)), _) => format!(
                        "slot {s} migrating from {name} to {} (served by {name} until moved; ASK redirects meanwhile)",
                        name_of(&names, to)
                    ),
                    (_, Some((s, from))) => format!("slot {s} importing into {name} from {}", name_of(&names, from)),
                    _ => return Err(wrong(*n, "a moving slot [N->-ID] or [N-<-ID]")),
                });
                continue;
            }
            let (a, b) = slot.split_once('-').unwrap_or((slot, slot));
            let range =
                slot_range(a, b).ok_or_else(|| wrong(*n, "slots N or A-B, from 0 to 16383"))?;
            layout.hold(me, range, &format!("line {n}"))?;
        }
    }
    layout.finish()
}

/// The values of redis-cli's `CLUSTER SHARDS` output with their line numbers: each line's
/// value without its `N)` numbering, quotes or `(integer)` mark; `(empty array)` is none.
fn shard_values(text: &str) -> impl Iterator<Item = (usize, &str)> {
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
        (!value.is_empty() && value != "(empty array)").then_some((i + 1, value))
    })
}

/// Reads `CLUSTER SHARDS` output: each shard's master holds its slots.
pub fn read_shards(text: &str) -> Result<SlotLayout, String> {
    let values: Vec<(usize, &str)> = shard_values(text).collect();
    let wrong = |n: usize, what: &str| format!("CLUSTER SHARDS line {n}: expected {what}");
    let mut layout = Layout::new("CLUSTER SHARDS");
    let mut i = 0;
    while i < values.len() {
        let (n, word) = values[i];
        if word != "slots" {
            return Err(wrong(n, "\"slots\", the start of a shard"));
        }
        i += 1;
        // Start/end pairs until "nodes".
        let mut ranges = Vec::new();
        while i < values.len() && values[i].1 != "nodes" {
            let (n, a) = &values[i];
            let b = values.get(i + 1).map_or("", |v| v.1);
            let range = slot_range(a, b).ok_or_else(|| {
                wrong(
                    *n,
                    "slot start and end pairs, from 0 to 16383, then \"nodes\"",
                )
            })?;
            ranges.push((*n, range));
            i += 2;
        }
        i += 1;
        // The nodes: key/value pairs, each node starting at "id", until the next shard.
        let mut nodes: Vec<Vec<(&str, &str)>> = Vec::new();
        while i < values.len() && values[i].1 != "slots" {
            let (n, key) = values[i];
            let Some((_, value)) = values.get(i + 1) else {
                return Err(wrong(n, "a value after each field name"));
            };
            match (key, nodes.last_mut()) {
                ("id", _) => nodes.push(vec![(key, value)]),
                (_, Some(node)) => node.push((key, value)),
                (_, None) => return Err(wrong(n, "\"id\", the start of a node")),
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
            return Err(wrong(
                n,
                "a node with role \"master\" in a shard that holds slots",
            ));
        };
        let (Some(ip), Some(port)) = (field(master, "ip"), field(master, "port")) else {
            return Err(wrong(n, "the shard's master's \"ip\" and \"port\""));
        };
        let name = format!("{ip}:{port}");
        if !crate::engine::import::list_safe(&name) {
            return Err(wrong(n, "the master's ip and port without , * { or }"));
        }
        if field(master, "health").as_deref() == Some("failed") {
            layout.down.push(name.clone());
        }
        let me = layout.masters.len();
        layout.masters.push(name);
        for (n, range) in ranges {
            layout.hold(me, range, &format!("line {n}"))?;
        }
    }
    layout.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::import::ClusterLayout;
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

    /// The master of every slot, by name.
    fn slot_masters((imported, owners): &SlotLayout) -> Vec<&str> {
        let masters: Vec<&str> = imported.nodes.split(',').collect();
        owners.iter().map(|&i| masters[i]).collect()
    }

    /// The same cluster's `CLUSTER SHARDS`, as redis-cli prints it to a terminal and to a
    /// file: the same masters hold the same slots as its `CLUSTER NODES` says.
    #[test]
    fn cluster_shards_says_what_cluster_nodes_says() {
        let vectors = include_str!("../../tests/reference/redis-cluster.txt");
        let from_nodes = read(&section(vectors, "node ")).unwrap();
        for prefix in ["shards ", "shards-raw "] {
            let text = section(vectors, prefix);
            assert_eq!(
                ClusterLayout::of(&text),
                Some(ClusterLayout::Shards),
                "{prefix}"
            );
            let from_shards = read_shards(&text).unwrap();
            assert_eq!(
                slot_masters(&from_shards),
                slot_masters(&from_nodes),
                "{prefix}"
            );
            let mut a: Vec<&str> = from_shards.0.nodes.split(',').collect();
            let mut b: Vec<&str> = from_nodes.0.nodes.split(',').collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
            assert_eq!(
                from_shards.0.left_out,
                ["1 replica(s) (they serve reads only with READONLY)"]
            );
        }
    }

    #[test]
    fn what_is_wrong_in_cluster_shards_is_said_with_its_line() {
        let shard = |slots: &str, role: &str, health: &str| {
            format!("slots\n{slots}\nnodes\nid\nab\nport\n7000\nip\n10.0.0.1\nrole\n{role}\nhealth\n{health}\n")
        };
        let (i, owners) = read_shards(&shard("0\n16383", "master", "failed")).unwrap();
        assert_eq!(
            (i.nodes.as_str(), i.down.as_str()),
            ("10.0.0.1:7000", "10.0.0.1:7000")
        );
        assert!(owners.iter().all(|&o| o == 0));
        assert_eq!(
            read_shards(&shard("0\n100", "master", "online")).unwrap_err(),
            "CLUSTER SHARDS: slots 101–16383 are held by no master (the cluster is down for them)"
        );
        assert!(read_shards(&shard("0\n16384", "master", "online"))
            .unwrap_err()
            .contains("line 2: expected slot start and end pairs"));
        assert!(read_shards(&shard("0\n16383", "replica", "online"))
            .unwrap_err()
            .contains("line 1: expected a node with role \"master\""));
        assert!(read_shards("slots\n0\n16383\nnodes\nport\n1\n")
            .unwrap_err()
            .contains("line 5: expected \"id\""));
        let twice = format!(
            "{}{}",
            shard("0\n16383", "master", "online"),
            shard("5\n5", "master", "online")
        );
        assert!(read_shards(&twice)
            .unwrap_err()
            .contains("slot 5 is also held by 10.0.0.1:7000"));
        // The numbered form, with an empty shard.
        let numbered =
            "1) 1) \"slots\"\n   2) (empty array)\n   3) \"nodes\"\n   4) (empty array)\n";
        assert_eq!(ClusterLayout::of(numbered), Some(ClusterLayout::Shards));
        assert!(read_shards(numbered)
            .unwrap_err()
            .contains("slots 0–16383 are held by no master"));
    }

    /// Where Debian's redis-server 7.0.15 routed 2,004 keys in a three-master cluster with
    /// uneven slots and slot 100 migrating (tools/redis-cluster-vectors.py).
    #[test]
    fn equals_a_real_cluster_on_every_recorded_key() {
        let vectors = include_str!("../../tests/reference/redis-cluster.txt");
        let nodes = section(vectors, "node ");
        assert_eq!(ClusterLayout::of(&nodes), Some(ClusterLayout::Nodes));
        let (imported, owners) = read(&nodes).unwrap();
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
        assert_eq!(imported.nodes, listed.join(","));
        assert!(imported.left_out[0]
            .contains("slot 100 migrating from 127.0.0.1:18381 to 127.0.0.1:18382"));
        let scenario = Scenario::from_pairs([
            ("algo", "slots"),
            ("nodes", &imported.nodes),
            ("keys", "0..1"),
        ]);
        let sim = Simulation::new(&scenario.unwrap()).unwrap();
        let ids: Vec<_> = sim.servers().iter().map(|s| s.id).collect();
        let sim = sim
            .with_slot_owners(owners.iter().map(|&i| ids[i]).collect())
            .unwrap();
        let mut checked = 0;
        for line in vectors.lines().filter(|l| is_key_row(l)) {
            let (key, want) = line.split_once(' ').unwrap();
            let (_, owner) = sim.lookup(key).unwrap();
            assert_eq!(sim.server(owner).unwrap().name, want, "{key}");
            checked += 1;
        }
        assert_eq!(checked, 2004);
        // The dealt table (redis-cli's even split) would send many of them elsewhere.
        let dealt = Simulation::new(
            &Scenario::from_pairs([
                ("algo", "slots"),
                ("nodes", &imported.nodes),
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
    fn what_is_wrong_is_said_with_its_line() {
        let line = "a 127.0.0.1:1@2 master - 0 0 1 connected";
        assert_eq!(
            read(&format!("{line} 0-100\n")).unwrap_err(),
            "CLUSTER NODES: slots 101–16383 are held by no master (the cluster is down for them)"
        );
        assert!(read(&format!("{line} 0-16383 5\n"))
            .unwrap_err()
            .contains("slot 5 is also held by"));
        assert!(read(&format!("{line} 0-16384\n"))
            .unwrap_err()
            .contains("line 1: expected slots"));
        assert!(read("a b c\n")
            .unwrap_err()
            .contains("line 1: expected at least 8 fields"));
        let (i, _) = read(&format!(
            "{line} 0-16383\nb 127.0.0.1:3@4 slave a 0 0 1 connected\nc 127.0.0.1:5@6 master,fail - 0 0 2 disconnected\n"
        ))
        .unwrap();
        assert_eq!(
            (i.nodes.as_str(), i.down.as_str()),
            ("127.0.0.1:1,127.0.0.1:5", "127.0.0.1:5")
        );
        assert!(i.left_out[0].starts_with("1 replica"));
    }
}
