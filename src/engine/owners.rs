//! A key's owner by name, one key at a time: what the bindings that place other programs'
//! keys need (the Python package's Arrow columns, the DuckDB extension's vectors). They get
//! keys they have never seen, so an algorithm that places each key by the keys before it
//! (bounded loads' capacities, arrival order) is refused up front instead of answering
//! for a key set the caller does not have.

use super::ring::{ServerId, NO_OWNER};
use super::sim::Simulation;

/// A simulation's server names by id, to name the owner a lookup finds.
pub struct KeyOwners {
    names: Vec<Option<String>>,
}

impl KeyOwners {
    /// Refuses an algorithm that does not place key by key, saying why.
    pub fn check(sim: &Simulation) -> Result<(), String> {
        if sim.settings().algo.depends_on_key_set() {
            return Err(format!(
                "{} places each key by the keys before it (capacities and arrival order), not key by key; use `hashring-lab simulate` with the whole key set",
                sim.settings().algo.name()
            ));
        }
        Ok(())
    }

    /// The names of `sim`'s servers; refused as [`KeyOwners::check`] refuses.
    pub fn of(sim: &Simulation) -> Result<KeyOwners, String> {
        KeyOwners::check(sim)?;
        let mut names = Vec::new();
        for s in sim.servers() {
            let at = usize::from(s.id);
            if names.len() <= at {
                names.resize(at + 1, None);
            }
            names[at] = Some(s.name.clone());
        }
        Ok(KeyOwners { names })
    }

    /// The name of the server `sim` (the simulation these names are of) places `key` on;
    /// None when no server is up.
    pub fn owner(&self, sim: &Simulation, key: &str) -> Result<Option<&str>, String> {
        let (_, id): (u32, ServerId) = sim
            .lookup(key)
            .map_err(|e| format!("key {}: {e}", crate::text::quote(key)))?;
        if id == NO_OWNER {
            return Ok(None);
        }
        Ok(self.names.get(usize::from(id)).and_then(|n| n.as_deref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Scenario;

    fn sim(query: &str) -> Simulation {
        let pairs = crate::host::query_pairs(query);
        let scenario = Scenario::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .expect("scenario");
        Simulation::new(&scenario).expect("simulation")
    }

    #[test]
    fn names_the_owner_the_lookup_finds() {
        let s = sim("algo=modn&nodes=A,B,C&keys=0..3");
        let owners = KeyOwners::of(&s).expect("modn places key by key");
        for key in ["0", "1", "user:42"] {
            let (_, id) = s.lookup(key).expect("lookup");
            let name = s
                .servers()
                .iter()
                .find(|x| x.id == id)
                .map(|x| x.name.as_str());
            assert_eq!(owners.owner(&s, key).expect("owner"), name, "{key}");
        }
    }

    #[test]
    fn no_server_up_owns_nothing() {
        let s = sim("algo=ring&nodes=A,B&down=A,B&keys=0..3");
        let owners = KeyOwners::of(&s).expect("ring");
        assert_eq!(owners.owner(&s, "k").expect("owner"), None);
    }

    #[test]
    fn bounded_loads_are_refused_by_name() {
        let s = sim("algo=bounded&nodes=A,B&keys=0..10");
        let refused = KeyOwners::of(&s)
            .err()
            .expect("bounded depends on the key set");
        assert!(
            refused.starts_with("bounded places each key by the keys before it"),
            "{refused}"
        );
    }
}

/// Under the identity hash, jump takes the 64-bit keys its users pass (as
/// jump-consistent-hash does), while mod-N, which takes the key's ring position mod N (as the
/// ring's algorithms place by the position itself), keeps to 32 bits — and says so.
#[cfg(test)]
mod identity_keys {
    use super::*;
    use crate::engine::scenario::Scenario;

    fn sim(algo: &str, servers: usize) -> Simulation {
        let nodes: Vec<String> = (0..servers).map(|i| format!("b{i}")).collect();
        let nodes = nodes.join(",");
        let pairs = [
            ("algo", algo),
            ("nodes", nodes.as_str()),
            ("hash", "identity"),
            ("keys", "0..1"),
        ];
        Simulation::new(&Scenario::from_pairs(pairs).expect("scenario")).expect("simulation")
    }

    /// `jump.hash(key, n)` of PyPI's jump-consistent-hash 3.6.0, for these keys.
    const KEYS: [u64; 8] = [
        0,
        5,
        4_294_967_295,
        4_294_967_296,
        (1 << 40) + 7,
        (1 << 63) - 1,
        1 << 63,
        u64::MAX,
    ];
    const BUCKETS: [(usize, [u32; 8]); 3] = [
        (5, [0, 4, 2, 2, 1, 2, 4, 2]),
        (10, [0, 4, 5, 2, 1, 8, 5, 9]),
        (1000, [0, 231, 875, 937, 450, 972, 453, 313]),
    ];

    #[test]
    fn jump_places_64_bit_keys_as_jump_consistent_hash() {
        for (servers, buckets) in BUCKETS {
            let s = sim("jump", servers);
            let owners = KeyOwners::of(&s).expect("jump places key by key");
            for (key, bucket) in KEYS.iter().zip(buckets) {
                let owner = owners.owner(&s, &key.to_string()).expect("a 64-bit key");
                assert_eq!(
                    owner,
                    Some(format!("b{bucket}").as_str()),
                    "key {key}, {servers} buckets"
                );
            }
        }
    }

    #[test]
    fn mod_n_keeps_to_32_bits_and_says_so() {
        let s = sim("modn", 3);
        let owners = KeyOwners::of(&s).expect("places key by key");
        assert_eq!(
            owners.owner(&s, "4294967295").expect("2^32 - 1"),
            Some("b0")
        );
        let refused = owners.owner(&s, "4294967296").expect_err("above 2^32 - 1");
        assert!(
            refused.contains("0..=4294967295, got '4294967296'"),
            "{refused}"
        );
        let s = sim("jump", 3);
        let refused = KeyOwners::of(&s)
            .expect("jump")
            .owner(&s, "18446744073709551616")
            .expect_err("above 2^64 - 1");
        assert!(
            refused.contains("0..=18446744073709551615, got '18446744073709551616'"),
            "{refused}"
        );
    }
}
