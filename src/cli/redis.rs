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

use crate::engine::hash::SLOT_COUNT;
use crate::engine::import::Imported;
use crate::engine::placement::Algorithm;

/// True when `text` looks like `CLUSTER NODES` output.
pub fn looks_like_cluster_nodes(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.len() >= 8
                && f[1].contains('@')
                && f[2]
                    .split(',')
                    .any(|flag| matches!(flag, "master" | "slave" | "myself"))
        })
}

/// The masters (as the scenario's servers) and, for every slot, the index of its master.
pub fn read(text: &str) -> Result<(Imported, Vec<usize>), String> {
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
        if address.starts_with(':') || !address.contains(':') {
            return Err(wrong(*n, "an address ip:port@cport"));
        }
        names.push((f[0], address));
    }
    fn name_of<'a>(names: &[(&'a str, &'a str)], id: &'a str) -> &'a str {
        names.iter().find(|n| n.0 == id).map_or(id, |n| n.1)
    }
    let (mut masters, mut down, mut notes) = (Vec::new(), Vec::new(), Vec::new());
    let mut owner: Vec<Option<usize>> = vec![None; SLOT_COUNT as usize];
    let mut replicas = 0;
    for (n, f) in &lines {
        let flags: Vec<&str> = f[2].split(',').collect();
        if !flags.contains(&"master") {
            replicas += 1;
            continue;
        }
        let me = masters.len();
        let name = name_of(&names, f[0]);
        masters.push(name);
        if flags.contains(&"fail") {
            down.push(name);
        }
        for slot in &f[8..] {
            if let Some(moving) = slot.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                notes.push(match (moving.split_once("->-"), moving.split_once("-<-")) {
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
            let range = match (a.parse::<u16>(), b.parse::<u16>()) {
                (Ok(a), Ok(b)) if a <= b && u32::from(b) < SLOT_COUNT => a..=b,
                _ => return Err(wrong(*n, "slots N or A-B, from 0 to 16383")),
            };
            for s in range {
                if let Some(other) = owner[usize::from(s)].replace(me) {
                    return Err(format!(
                        "CLUSTER NODES line {n}: slot {s} is also held by {}",
                        masters[other]
                    ));
                }
            }
        }
    }
    if let Some(free) = owner.iter().position(Option::is_none) {
        let end = owner[free..]
            .iter()
            .position(Option::is_some)
            .map_or(owner.len(), |e| free + e);
        return Err(format!(
            "CLUSTER NODES: slots {free}–{} are held by no master (the cluster is down for them)",
            end - 1
        ));
    }
    if replicas > 0 {
        notes.push(format!(
            "{replicas} replica(s) (they serve reads only with READONLY)"
        ));
    }
    let algo = Algorithm::from_name("slots").ok_or("the slots algorithm is not registered")?;
    let imported = Imported {
        algo,
        nodes: masters.join(","),
        down: down.join(","),
        left_out: notes,
        table: None,
    };
    Ok((
        imported,
        owner.into_iter().map(|o| o.unwrap_or(0)).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Scenario;
    use crate::engine::sim::Simulation;

    /// Where Debian's redis-server 7.0.15 routed 2,004 keys in a three-master cluster with
    /// uneven slots and slot 100 migrating (tools/redis-cluster-vectors.py).
    #[test]
    fn equals_a_real_cluster_on_every_recorded_key() {
        let vectors = include_str!("../../tests/reference/redis-cluster.txt");
        let nodes: String = vectors
            .lines()
            .filter_map(|l| l.strip_prefix("node "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(looks_like_cluster_nodes(&nodes));
        let (imported, owners) = read(&nodes).unwrap();
        // The masters as the output lists them, by `ip:port`.
        let listed: Vec<&str> = nodes
            .lines()
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
        for line in vectors
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("node "))
        {
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
            .filter(|l| !l.starts_with('#') && !l.starts_with("node "))
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
