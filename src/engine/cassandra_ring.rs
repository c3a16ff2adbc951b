//! A real Cassandra cluster's own tokens, from `nodetool ring` output, pasted in the page or
//! given to `--config`: the nodes become the servers and their tokens the scenario's
//! `tokens` (so a link carries the cluster's ring, [`super::tokens`]).
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
//! replica); a `Joining` node is down until it has bootstrapped (recovering it shows what it
//! takes over); `Leaving` and `Moving` nodes still own their current tokens. The command line
//! says each of these in a note (`cli::cassandra`).

use super::pace::{run_to_end, Pace};
use super::scenario::MAX_SERVERS;
use super::tokens::parse_token;
use crate::problem::{Expected, Problem};
use crate::text::{list_safe, quote};

/// The most words a row is read with (it has 7, or 8 when its load is `1.2 KiB`).
const MAX_ROW_WORDS: usize = 12;

/// One node of the ring as `nodetool ring` prints it (its words borrowed from the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RingNode<'a> {
    /// Its address as printed.
    pub name: &'a str,
    /// `Up`, `Down` or `?`.
    pub status: &'a str,
    /// `Normal`, `Leaving`, `Joining` or `Moving`.
    pub state: &'a str,
    /// Its tokens, in the order printed.
    pub tokens: Vec<i64>,
}

impl RingNode<'_> {
    /// Down here: `Down`, or `Joining` (it owns nothing until it has bootstrapped).
    pub fn is_down(&self) -> bool {
        self.status == "Down" || self.state == "Joining"
    }
}

/// What `nodetool ring` says of a cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterTokens<'a> {
    /// The nodes, in the order they first appear.
    pub nodes: Vec<RingNode<'a>>,
    /// How many datacenters the output lists (all of them one ring here).
    pub datacenters: usize,
}

/// Reads `nodetool ring` output. Tokens held twice are refused by the scenario's own check,
/// which names both nodes.
pub fn read(text: &str) -> Result<ClusterTokens<'_>, Problem> {
    run_to_end(read_paced(text, &mut Pace::unlimited()))
}

/// [`read`] at `pace` (a 15 MB ring is read by the page in steps).
pub async fn read_paced<'a>(text: &'a str, pace: &mut Pace) -> Result<ClusterTokens<'a>, Problem> {
    let mut cluster = ClusterTokens {
        nodes: Vec::new(),
        datacenters: 0,
    };
    // Each node's place in `nodes`: a node's rows are spread over the whole ring.
    let mut place: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    pace.begin(text.len());
    for (n, line) in text.lines().enumerate() {
        pace.tick(line.len() + 1).await;
        // A row has 7 or 8 words: a longer line is no row, and is not split in full.
        let fields: Vec<&str> = line.split_whitespace().take(MAX_ROW_WORDS + 1).collect();
        // Where `field` starts in the line, 1-based.
        let wrong = |field: &str, expected| Problem::ConfigSyntax {
            line: n + 1,
            column: field.as_ptr() as usize - line.as_ptr() as usize + 1,
            expected,
            found: Some(quote(field)),
        };
        let trimmed = line.trim();
        match fields.as_slice() {
            [] => {}
            _ if trimmed.starts_with("Datacenter:") => cluster.datacenters += 1,
            _ if trimmed.chars().all(|c| c == '=') => {}
            ["Address", .., "Token"] => {}
            // The datacenter's last token, repeated above its first row.
            [token] if parse_token(token).is_some() => {}
            _ if ["Warning:", "To view", "Note:"]
                .iter()
                .any(|p| trimmed.starts_with(p)) => {}
            [name, _rack, status, state, .., token]
                if (7..=MAX_ROW_WORDS).contains(&fields.len()) =>
            {
                if !matches!(*status, "Up" | "Down" | "?") {
                    return Err(wrong(status, Expected::RingStatus));
                }
                if !matches!(*state, "Normal" | "Leaving" | "Joining" | "Moving") {
                    return Err(wrong(state, Expected::RingState));
                }
                let token = parse_token(token).ok_or_else(|| wrong(token, Expected::RingToken))?;
                if !list_safe(name) {
                    return Err(wrong(name, Expected::PlainName));
                }
                match place.get(name) {
                    Some(&at) => cluster.nodes[at].tokens.push(token),
                    None if cluster.nodes.len() == MAX_SERVERS => {
                        return Err(Problem::TooManyServers { limit: MAX_SERVERS })
                    }
                    None => {
                        place.insert(name, cluster.nodes.len());
                        cluster.nodes.push(RingNode {
                            name,
                            status,
                            state,
                            tokens: vec![token],
                        });
                    }
                }
            }
            _ => return Err(wrong(fields[0], Expected::RingRow)),
        }
    }
    if cluster.nodes.is_empty() {
        return Err(Problem::ConfigNoServers {
            system: "nodetool ring",
        });
    }
    Ok(cluster)
}

/// `nodetool ring`'s header for one datacenter, for tests.
#[cfg(test)]
pub(crate) const TEST_HEAD: &str =
    "Datacenter: dc1\n==========\nAddress    Rack   Status State   Load     Owns   Token\n";

/// One row of `nodetool ring` for tests: a node's address, status, state and one token.
#[cfg(test)]
pub(crate) fn test_row(addr: &str, status: &str, state: &str, token: &str) -> String {
    format!("{addr}  rack1  {status}  {state}  1.5 KiB  50.00%  {token}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::change::Change;
    use crate::engine::import::{read_config, ClusterLayout};
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

    /// The scenario written out and read back (as a scenario file or a link does).
    fn reopened(scenario: &Scenario) -> Simulation {
        let pairs = scenario.to_pairs();
        Simulation::new(&Scenario::from_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str()))).unwrap())
            .unwrap()
    }

    /// The scenario a pasted `nodetool ring` becomes (as the page builds it).
    fn scenario(ring: &str) -> Scenario {
        let base = Scenario::from_pairs([("keys", "0..1")]).unwrap();
        read_config(ring).unwrap().apply(base).unwrap()
    }

    /// Where the DataStax driver's token map (how every request is routed) puts 2,004 keys
    /// on a two-datacenter cluster's own tokens, before and after its joining node joins —
    /// from the scenario, and from the scenario its link writes after the join.
    #[test]
    fn equals_the_drivers_token_map_on_every_recorded_key() {
        let (ring, keys) = recorded();
        assert_eq!(ClusterLayout::of(&ring), Some(ClusterLayout::Ring));
        let cluster = read(&ring).unwrap();
        assert_eq!(cluster.datacenters, 2);
        assert!(cluster.nodes.iter().all(|n| n.tokens.len() == 16));
        let scenario = scenario(&ring);
        let names: Vec<&str> = scenario.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(
            names,
            ["10.0.1.1", "10.0.1.4", "10.0.1.2", "10.0.1.3", "10.0.2.1", "10.0.2.2"]
        );
        assert!(
            !scenario.nodes[1].up,
            "the joining node is down until it joins"
        );
        let mut sim = Simulation::new(&scenario).unwrap();
        let now: Vec<String> = keys.iter().map(|k| owner(&sim, k.0)).collect();
        sim.apply(&Change::parse("recover:10.0.1.4").unwrap())
            .unwrap();
        let reopened = reopened(&sim.scenario());
        let mut joined = 0;
        for (i, (key, want_now, want_after)) in keys.iter().enumerate() {
            assert_eq!(now[i], *want_now, "{key} now");
            assert_eq!(owner(&sim, key), *want_after, "{key} after the join");
            assert_eq!(owner(&reopened, key), *want_after, "{key} from the link");
            joined += usize::from(want_now != want_after);
        }
        assert_eq!((keys.len(), joined), (2004, 360));
        // Drawn tokens would send most keys elsewhere.
        let mut drawn = scenario.clone();
        drawn.tokens = None;
        let drawn = Simulation::new(&drawn).unwrap();
        let elsewhere = keys.iter().filter(|k| owner(&drawn, k.0) != k.1).count();
        assert!(elsewhere > 1000, "{elsewhere}");
    }

    /// A node added draws its tokens and the link says so (an empty entry); a node removed
    /// takes its tokens along, and the reopened link places every key as the page does.
    #[test]
    fn a_link_follows_the_cluster_through_changes() {
        let (ring, keys) = recorded();
        let mut sim = Simulation::new(&scenario(&ring)).unwrap();
        sim.apply(&Change::parse("add:10.0.3.1").unwrap()).unwrap();
        sim.apply(&Change::parse("remove:10.0.1.2").unwrap())
            .unwrap();
        let query = sim.scenario().to_query();
        assert!(query.ends_with(','), "the added node draws: {query}");
        let reopened = reopened(&sim.scenario());
        for (key, ..) in &keys {
            assert_eq!(owner(&reopened, key), owner(&sim, key), "{key}");
        }
        assert!(keys.iter().any(|k| owner(&sim, k.0) == "10.0.3.1"));
        // Another algorithm takes no tokens: switching drops them.
        sim.apply(&Change::parse("algo:ring").unwrap()).unwrap();
        assert_eq!(sim.scenario().tokens, None);
    }

    #[test]
    fn what_is_wrong_is_said_with_its_line_and_column() {
        let (head, row) = (TEST_HEAD, test_row);
        let bad = |rows: &str| read(&format!("{head}{rows}")).unwrap_err().to_string();
        assert_eq!(
            bad(&row("a", "Up", "Normal", "x")),
            "config line 4, column 40: expected a token, a signed 64-bit number, found 'x'"
        );
        assert!(bad(&row("a", "Sleepy", "Normal", "1"))
            .starts_with("config line 4, column 11: expected the Status"));
        assert!(bad(&row("a", "Up", "Dancing", "1"))
            .starts_with("config line 4, column 15: expected the State"));
        assert!(bad("what is this\n").starts_with("config line 4, column 1: expected a row"));
        assert_eq!(
            bad(""),
            "nodetool ring config: no server takes part in the hash"
        );
        assert!(read("Error: keyspace x does not exist\nAddress Token\n")
            .unwrap_err()
            .to_string()
            .contains("found 'Error:'"),);
        let two = format!(
            "{head}{}{}",
            row("a", "Up", "Normal", "7"),
            row("b", "Up", "Normal", "7")
        );
        let imported = read_config(&two).unwrap();
        let held_twice = imported.apply(Scenario::default()).unwrap_err();
        assert_eq!(
            held_twice.to_string(),
            "token 7 is held by both 'a' and 'b'"
        );
        let text = format!(
            "{head}{}{}{}{}",
            row("a", "Up", "Normal", "-5"),
            row("b", "Down", "Normal", "3"),
            row("c", "Up", "Leaving", "9"),
            row("a", "Up", "Normal", "12")
        );
        let cluster = read(&text).unwrap();
        let names: Vec<&str> = cluster.nodes.iter().map(|n| n.name).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(cluster.nodes[0].tokens, [-5, 12]);
        let down: Vec<bool> = cluster.nodes.iter().map(RingNode::is_down).collect();
        assert_eq!(down, [false, true, false]);
    }
}
