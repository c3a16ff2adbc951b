//! A real Cassandra cluster's own tokens, from `nodetool ring` output, for `--config`
//! (`nodetool ring > ring.txt`). The command line only: the page draws each node's tokens
//! from its name and the seed; the command line starts from the cluster's
//! (`Simulation::with_tokens`), and a node added later draws its own.
//!
//! The layout is `tools/nodetool/Ring.java`'s: per datacenter a `Datacenter: NAME` line, a
//! rule, the header `Address Rack Status State Load Owns Token`, the datacenter's last token
//! alone on a line, then one row per token in token order (`Load` may be two words, "1.2
//! KiB"); warnings and notes follow. Nodes become the servers, named by their address as
//! printed (with the port under `--print-port`, a host name under `--resolve-ip`), in the
//! order they first appear. All datacenters form one ring — the partitioner's: a key's
//! primary replica is the node with the first token at or above the key's, wrapping, over
//! every datacenter's tokens (the driver's token map, which `tools/cassandra-ring-vectors.py`
//! checks). A `Down` node is down here (its keys show on the next node clockwise, the next
//! replica); a `Joining` node is down until it has bootstrapped (`--step recover:NODE` then
//! shows what it takes over); `Leaving` and `Moving` nodes still own their current tokens.

use crate::engine::import::Imported;
use crate::engine::placement::Algorithm;
use crate::engine::spec::GivenTokens;

/// One row's node: its status and state as printed.
struct Node<'a> {
    name: &'a str,
    status: &'a str,
    state: &'a str,
    tokens: Vec<i64>,
}

/// The nodes (as the scenario's servers) and their tokens.
pub fn read(text: &str) -> Result<(Imported, GivenTokens), String> {
    let wrong = |n: usize, what: &str| format!("nodetool ring line {n}: expected {what}");
    let mut nodes: Vec<Node<'_>> = Vec::new();
    let mut datacenters = 0;
    let mut seen: Vec<(i64, usize)> = Vec::new();
    for (n, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [] => continue,
            _ if line.starts_with("Datacenter:") => datacenters += 1,
            _ if line.chars().all(|c| c == '=') => continue,
            ["Address", .., "Token"] => continue,
            // The datacenter's last token, repeated above its first row.
            [token] if token.parse::<i64>().is_ok() => continue,
            _ if ["Warning:", "To view", "Note:"]
                .iter()
                .any(|p| line.starts_with(p)) =>
            {
                continue
            }
            _ if line.starts_with("Error:") => {
                return Err(format!(
                    "nodetool ring line {n}: nodetool printed an error, not a ring"
                ))
            }
            [name, _rack, status, state, .., token] if fields.len() >= 7 => {
                if !matches!(*status, "Up" | "Down" | "?") {
                    return Err(wrong(n, "the Status Up, Down or ? in the third column"));
                }
                if !matches!(*state, "Normal" | "Leaving" | "Joining" | "Moving") {
                    return Err(wrong(
                        n,
                        "the State Normal, Leaving, Joining or Moving in the fourth column",
                    ));
                }
                let token: i64 = token
                    .parse()
                    .map_err(|_| wrong(n, "a token (a signed 64-bit number) at the end"))?;
                if !crate::engine::import::list_safe(name) {
                    return Err(wrong(n, crate::problem::Expected::PlainName.name()));
                }
                seen.push((token, n));
                match nodes.iter_mut().find(|node| node.name == *name) {
                    Some(node) => node.tokens.push(token),
                    None => nodes.push(Node {
                        name,
                        status,
                        state,
                        tokens: vec![token],
                    }),
                }
            }
            _ => return Err(wrong(n, "a row: Address Rack Status State Load Owns Token")),
        }
    }
    if nodes.is_empty() {
        return Err("nodetool ring: no rows (Address Rack Status State Load Owns Token)".into());
    }
    seen.sort_unstable();
    if let Some(pair) = seen.windows(2).find(|p| p[0].0 == p[1].0) {
        return Err(format!(
            "nodetool ring: token {} is listed twice (lines {} and {})",
            pair[0].0, pair[0].1, pair[1].1
        ));
    }
    let mut notes = Vec::new();
    let mut down = Vec::new();
    for node in &nodes {
        let name = node.name;
        match (node.status, node.state) {
            (_, "Joining") => {
                down.push(name);
                notes.push(format!("{name} until it has joined (Joining: down here; --step recover:{name} shows what it takes over)"));
            }
            ("Down", _) => {
                down.push(name);
                notes.push(format!("{name}'s ranges while it is Down (down here: its keys show on the next node clockwise, the next replica)"));
            }
            (_, "Leaving") => notes.push(format!("nothing yet of {name}, which is Leaving (it owns its ranges until it has left; --step remove:{name} shows where they go)")),
            (_, "Moving") => notes.push(format!("the move of {name} (Moving: its current tokens are used)")),
            _ => {}
        }
    }
    if datacenters > 1 {
        notes.push(format!("datacenter boundaries: {datacenters} datacenters are one ring here (a key's primary replica is the first token at or above its own, across all of them)"));
    }
    let algo = Algorithm::from_name("cassandra").ok_or("cassandra is not registered")?;
    let imported = Imported {
        algo,
        nodes: nodes.iter().map(|n| n.name).collect::<Vec<_>>().join(","),
        down: down.join(","),
        left_out: notes,
        table: None,
        slots: None,
        backups: Vec::new(),
    };
    let tokens = nodes
        .into_iter()
        .map(|n| (n.name.to_owned(), n.tokens))
        .collect();
    Ok((imported, GivenTokens(tokens)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::change::Change;
    use crate::engine::import::ClusterLayout;
    use crate::engine::scenario::Scenario;
    use crate::engine::sim::Simulation;

    /// The cluster of `tests/reference/cassandra-ring.txt`: its `nodetool ring` text and
    /// `(key, owner now, owner once the joining node has joined)` rows.
    fn recorded() -> (String, Vec<(&'static str, &'static str, &'static str)>) {
        let vectors = include_str!("../../tests/reference/cassandra-ring.txt");
        let ring = vectors
            .lines()
            .filter_map(|l| l.strip_prefix("ring "))
            .map(|l| format!("{l}\n"))
            .collect();
        let keys = vectors
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("ring"))
            .map(|l| {
                let f: Vec<&str> = l.split(' ').collect();
                (f[0], f[1], f[2])
            })
            .collect();
        (ring, keys)
    }

    fn owner(sim: &Simulation, key: &str) -> String {
        sim.server(sim.lookup(key).unwrap().1).unwrap().name.clone()
    }

    /// Where the DataStax driver's token map (how every request is routed) puts 2,004 keys
    /// on a two-datacenter cluster's own tokens, before and after its joining node joins.
    #[test]
    fn equals_the_drivers_token_map_on_every_recorded_key() {
        let (ring, keys) = recorded();
        assert_eq!(ClusterLayout::of(&ring), Some(ClusterLayout::Ring));
        let (imported, tokens) = read(&ring).unwrap();
        assert_eq!(
            imported.nodes,
            "10.0.1.1,10.0.1.4,10.0.1.2,10.0.1.3,10.0.2.1,10.0.2.2"
        );
        assert_eq!(imported.down, "10.0.1.4");
        assert!(tokens.0.iter().all(|(_, t)| t.len() == 16));
        assert!(imported
            .left_out
            .iter()
            .any(|n| n.contains("2 datacenters")));
        let scenario = Scenario::from_pairs([
            ("algo", "cassandra"),
            ("nodes", &imported.nodes),
            ("down", &imported.down),
            ("vnodes", "16"),
            ("keys", "0..1"),
        ])
        .unwrap();
        let drawn = Simulation::new(&scenario).unwrap();
        let mut sim = Simulation::new(&scenario)
            .unwrap()
            .with_tokens(tokens)
            .unwrap();
        let now: Vec<String> = keys.iter().map(|k| owner(&sim, k.0)).collect();
        sim.apply(&Change::parse("recover:10.0.1.4").unwrap())
            .unwrap();
        let mut joined = 0;
        for (i, (key, want_now, want_after)) in keys.iter().enumerate() {
            assert_eq!(now[i], *want_now, "{key} now");
            assert_eq!(owner(&sim, key), *want_after, "{key} after the join");
            joined += usize::from(want_now != want_after);
        }
        assert_eq!((keys.len(), joined), (2004, 360));
        // The drawn tokens would send most keys elsewhere.
        let elsewhere = keys.iter().filter(|k| owner(&drawn, k.0) != k.1).count();
        assert!(elsewhere > 1000, "{elsewhere}");
    }

    #[test]
    fn what_is_wrong_is_said_with_its_line() {
        let head =
            "Datacenter: dc1\n==========\nAddress    Rack   Status State   Load     Owns   Token\n";
        let row = |addr: &str, status: &str, state: &str, token: &str| {
            format!("{addr}  rack1  {status}  {state}  1.5 KiB  50.00%  {token}\n")
        };
        let ok = |rows: &str| read(&format!("{head}{rows}"));
        assert!(ok(&row("a", "Up", "Normal", "x"))
            .unwrap_err()
            .contains("line 4: expected a token"));
        assert!(ok(&row("a", "Sleepy", "Normal", "1"))
            .unwrap_err()
            .contains("line 4: expected the Status"));
        assert!(ok(&row("a", "Up", "Dancing", "1"))
            .unwrap_err()
            .contains("line 4: expected the State"));
        assert_eq!(
            ok(&format!(
                "{}{}",
                row("a", "Up", "Normal", "7"),
                row("b", "Up", "Normal", "7")
            ))
            .unwrap_err(),
            "nodetool ring: token 7 is listed twice (lines 4 and 5)"
        );
        assert!(ok("what is this\n")
            .unwrap_err()
            .contains("line 4: expected a row"));
        assert!(ok("").unwrap_err().contains("no rows"));
        assert!(read("Error: keyspace x does not exist\nAddress Token\n")
            .unwrap_err()
            .contains("nodetool printed an error"));
        let (i, t) = ok(&format!(
            "{}{}{}{}",
            row("a", "Up", "Normal", "-5"),
            row("b", "Down", "Normal", "3"),
            row("c", "Up", "Leaving", "9"),
            row("a", "Up", "Normal", "12")
        ))
        .unwrap();
        assert_eq!((i.nodes.as_str(), i.down.as_str()), ("a,b,c", "b"));
        assert_eq!(t.of("a"), Some(&[-5, 12][..]));
        assert!(i.left_out[0].contains("b's ranges while it is Down"));
        assert!(i.left_out[1].contains("--step remove:c"));
    }
}
