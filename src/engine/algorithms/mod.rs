//! The registry: every placement algorithm, one file each, and the one list of them.
//!
//! An algorithm's file (`<id>.rs`) holds its lookup, its [`Placement`](super::contract::Placement)
//! and its `SPEC` ([`Spec`]: the knobs it reads, its picture, its cost per key, its checks,
//! its builder). The command line's `--algo`, the URL, scenario files, `compare` and the
//! page's menu all read [`Algorithm::ALL`]; the page's words for it are one entry per
//! catalog (`src/i18n/*.rs`, `algorithms`). Adding an algorithm: write `<id>.rs`, add a
//! `mod` line and one line to [`Algorithm::ALL`] here, and one catalog entry per language —
//! nothing else changes (tests check every registered id has words in every language).

pub mod anchor;
pub mod binomial;
pub mod bounded;
pub mod carp;
pub mod cassandra;
pub mod ceph;
pub mod dx;
pub mod envoy_maglev;
pub mod envoy_ring;
pub mod flip;
pub mod groupcache;
pub mod guava;
pub mod haproxy;
pub mod ingress_nginx;
pub mod jump;
pub mod jumpback;
pub mod ketama;
pub mod maglev;
pub mod memento;
pub mod modn;
pub mod multiprobe;
pub mod nginx;
pub mod power;
pub mod rendezvous;
pub mod ring;
pub mod slots;
pub mod twemproxy;

pub use super::spec::{weighted_vnodes, Algorithm, LabelTemplate, Shape, Spec};

impl Algorithm {
    /// Every algorithm, in the order the page lists them.
    pub const ALL: &'static [Algorithm] = &[
        Algorithm::RING,
        Algorithm::MODN,
        Algorithm::RENDEZVOUS,
        Algorithm::CARP,
        Algorithm::SLOTS,
        Algorithm::JUMP,
        Algorithm::MULTIPROBE,
        Algorithm::MAGLEV,
        Algorithm::BOUNDED,
        Algorithm::ANCHOR,
        Algorithm::MEMENTO,
        Algorithm::DX,
        Algorithm::JUMPBACK,
        Algorithm::BINOMIAL,
        Algorithm::FLIP,
        Algorithm::POWER,
        Algorithm::of(&guava::SPEC),
        Algorithm::of(&nginx::SPEC),
        Algorithm::of(&ketama::SPEC),
        Algorithm::of(&haproxy::SPEC),
        Algorithm::of(&envoy_ring::SPEC),
        Algorithm::of(&cassandra::SPEC),
        Algorithm::of(&envoy_maglev::SPEC),
        Algorithm::of(&groupcache::SPEC),
        Algorithm::of(&ingress_nginx::SPEC),
        Algorithm::of(&twemproxy::SPEC),
        Algorithm::of(&ceph::SPEC),
    ];

    /// Consistent-hash ring with virtual nodes (seeds 000–003).
    pub const RING: Algorithm = Algorithm::of(&ring::SPEC);
    /// `hash(key) mod N` (seed 000's counter-example).
    pub const MODN: Algorithm = Algorithm::of(&modn::SPEC);
    /// Highest random weight.
    pub const RENDEZVOUS: Algorithm = Algorithm::of(&rendezvous::SPEC);
    /// Seed 004's CARP.
    pub const CARP: Algorithm = Algorithm::of(&carp::SPEC);
    /// Redis Cluster's hash slots.
    pub const SLOTS: Algorithm = Algorithm::of(&slots::SPEC);
    /// Jump consistent hash.
    pub const JUMP: Algorithm = Algorithm::of(&jump::SPEC);
    /// Multi-probe consistent hashing.
    pub const MULTIPROBE: Algorithm = Algorithm::of(&multiprobe::SPEC);
    /// Maglev's lookup table.
    pub const MAGLEV: Algorithm = Algorithm::of(&maglev::SPEC);
    /// Consistent hashing with bounded loads.
    pub const BOUNDED: Algorithm = Algorithm::of(&bounded::SPEC);
    /// AnchorHash.
    pub const ANCHOR: Algorithm = Algorithm::of(&anchor::SPEC);
    /// MementoHash.
    pub const MEMENTO: Algorithm = Algorithm::of(&memento::SPEC);

    /// DxHash.
    pub const DX: Algorithm = Algorithm::of(&dx::SPEC);
    /// JumpBackHash.
    pub const JUMPBACK: Algorithm = Algorithm::of(&jumpback::SPEC);
    /// BinomialHash.
    pub const BINOMIAL: Algorithm = Algorithm::of(&binomial::SPEC);
    /// FlipHash.
    pub const FLIP: Algorithm = Algorithm::of(&flip::SPEC);
    /// Power consistent hashing.
    pub const POWER: Algorithm = Algorithm::of(&power::SPEC);
    /// Cassandra's Murmur3Partitioner (the algorithm that takes a cluster's own tokens).
    pub const CASSANDRA: Algorithm = Algorithm::of(&cassandra::SPEC);

    /// Parses a name from [`Algorithm::name`].
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.iter().copied().find(|a| a.name() == name)
    }

    /// All names, comma separated, for error messages.
    pub fn names() -> String {
        Algorithm::ALL
            .iter()
            .map(|a| a.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The replay of a real system's recorded answers, for the tests of its file.
#[cfg(test)]
mod recorded {
    /// Replays recorded answers of a real system: `scenario NAME WORDS…` lines start a scenario
    /// (`scenario` turns the words after the name into its settings), then `KEY SERVER` lines
    /// say where the system put each key. Returns (scenarios, keys checked).
    pub fn replay_recorded(
        vectors: &str,
        scenario: impl Fn(&[&str]) -> Vec<(&'static str, String)>,
    ) -> (usize, usize) {
        use crate::engine::scenario::Scenario;
        use crate::engine::sim::Simulation;
        let mut sim: Option<Simulation> = None;
        let (mut scenarios, mut checked) = (0, 0);
        for line in vectors.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split(' ').collect();
            if words[0] == "scenario" {
                let mut pairs = scenario(&words[2..]);
                pairs.push(("keys", "0..1".into()));
                let built = Scenario::from_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str())));
                sim = Some(Simulation::new(&built.unwrap()).unwrap());
                scenarios += 1;
                continue;
            }
            let sim = sim.as_ref().expect("a scenario line comes first");
            let (_, owner) = sim.lookup(words[0]).unwrap();
            assert_eq!(sim.server(owner).unwrap().name, words[1], "{line}");
            checked += 1;
        }
        (scenarios, checked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_match_their_file_names() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/engine/algorithms");
        for (i, a) in Algorithm::ALL.iter().enumerate() {
            assert!(
                Algorithm::ALL[..i].iter().all(|b| b.name() != a.name()),
                "{a} is registered twice"
            );
            // One file, or a folder of its own (`ceph/mod.rs`).
            let stem = format!("{dir}/{}", a.name().replace('-', "_"));
            let file = format!("{stem}.rs");
            let folder = format!("{stem}/mod.rs");
            assert!(
                std::path::Path::new(&file).exists() || std::path::Path::new(&folder).exists(),
                "{a}'s file {file}"
            );
            assert_eq!(Algorithm::from_name(a.name()), Some(*a));
        }
    }

    /// The ids listed on the `algo` row of a parameter table (`| algo | a, b, … | ring |`).
    fn listed(text: &str, row: &str) -> Vec<String> {
        let line = text
            .lines()
            .find(|l| l.trim_start_matches("//! ").starts_with(row))
            .unwrap_or_else(|| panic!("no {row} row"));
        line.split('|')
            .nth(2)
            .unwrap_or("")
            .split(',')
            .map(|id| id.trim().trim_matches('`').to_owned())
            .collect()
    }

    #[test]
    fn the_parameter_tables_list_the_registry() {
        let ids: Vec<String> = Algorithm::ALL.iter().map(|a| a.name().to_owned()).collect();
        let root = env!("CARGO_MANIFEST_DIR");
        for (file, row) in [
            ("src/engine/scenario.rs", "| algo "),
            ("docs/CLI.md", "| `algo` "),
        ] {
            let text = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
            assert_eq!(listed(&text, row), ids, "{file}'s algo row");
        }
    }
}
