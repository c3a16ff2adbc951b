//! memcached's ketama as libmemcached weights it (`MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED`;
//! libmemcached 1.1, `libmemcached/hosts.cc` `update_continuum`, and the continuum search
//! of `hash.cc` `dispatch_host`) — the continuum twemproxy's `ketama` distribution builds
//! too — bit for bit.
//!
//! - A server is named `host` when its port is memcached's 11211 and `host:port`
//!   otherwise; its points come from MD5 of `NAME-0`, `NAME-1`, …, four points a digest
//!   (its 4-byte words, little-endian).
//! - Weights are whole numbers. A server of weight `w` out of `W` among `n` servers gets
//!   `⌊float32(w/W × 160 / 4 × n) + 1e-10⌋` digests — in 32-bit floats as the C computes
//!   it — so an unequal weight, or a server added, changes every server's count a little:
//!   keys move between servers nobody touched (RJ/ketama#13).
//! - A key's position is the first MD5 word of the key (`hashkit_md5`); its server owns the
//!   first point at or above it, wrapping.
//!
//! `tests/reference/ketama.txt` holds what Debian's libmemcached 1.1.4 answered
//! (`memcached_server_by_key`) for 2,004 keys × 4 pools, written by
//! `tools/ketama-vectors.sh`; a test replays them.

use std::rc::Rc;

use crate::engine::contract::Placement;
use crate::engine::hash::{md5_digest, md5_ketama};
use crate::engine::ring::{Ring, VNode};
use crate::engine::spec::{whole_weights, Build, KeyHash, Knobs, Moves, Spec};
use crate::problem::Problem;

/// The registry's entry. Source: libmemcached KETAMA_WEIGHTED, the MD5 continuum of memcached and twemproxy.
pub static SPEC: Spec = super::ring::ring_spec(
    "ketama",
    Knobs {
        weights: true,
        ..Knobs::NONE
    },
    Moves::Remaps,
    KeyHash {
        name: "md5",
        hash: |key, _| md5_ketama(key.as_bytes()),
    },
    whole_weights,
    build,
);

/// memcached's default port: a server on it is named by its host alone.
pub const DEFAULT_PORT: u32 = 11211;

/// Points per server of average weight (`MEMCACHED_POINTS_PER_SERVER_KETAMA`).
pub const POINTS_PER_SERVER: u32 = 160;

/// The name ketama hashes for a server `host[:port]`: the host alone on port 11211.
pub fn ketama_name(server: &str) -> String {
    let digits = server.bytes().rev().take_while(u8::is_ascii_digit).count();
    let cut = server.len() - digits;
    match server[..cut].strip_suffix(':') {
        Some(_) if server[cut..].parse::<u32>() != Ok(DEFAULT_PORT) => server.to_owned(),
        Some(host) => host.to_owned(),
        None => server.to_owned(),
    }
}

/// How many points a server of `weight` gets out of `total` among `live` servers, in
/// 32-bit floats as `update_continuum` computes it.
pub fn points_for(weight: u32, total: u64, live: usize) -> u32 {
    let pct = weight as f32 / total as f32;
    let quarter = pct * POINTS_PER_SERVER as f32 / 4.0 * live as f32;
    // `+ 0.0000000001` is a double in the C, then the sum goes back to float.
    let digests = ((f64::from(quarter) + 0.000_000_000_1) as f32).floor() as u32;
    digests * 4
}

/// The continuum, as libmemcached and twemproxy build it.
pub fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let weights: Vec<u32> = b
        .live
        .iter()
        .map(|s| (s.weight.round() as u32).max(1))
        .collect();
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    let mut points: Vec<VNode> = Vec::new();
    for (s, &weight) in b.live.iter().zip(&weights) {
        let name = ketama_name(&s.name);
        for digest in 0..points_for(weight, total, b.live.len()) / 4 {
            let d = md5_digest(format!("{name}-{digest}").as_bytes());
            for (word, bytes) in d.chunks_exact(4).enumerate() {
                points.push(VNode {
                    position: u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
                    server: s.id,
                    replica: digest * 4 + word as u32,
                });
            }
        }
    }
    Ok(Rc::new(Ring::new(points, &|id| b.name_of(id))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_on_the_default_port_is_named_by_its_host() {
        assert_eq!(ketama_name("10.0.0.1:11211"), "10.0.0.1");
        assert_eq!(ketama_name("10.0.0.1:11212"), "10.0.0.1:11212");
        assert_eq!(ketama_name("cache"), "cache");
        // Equal weights: 160 points each, whatever the count.
        assert_eq!(points_for(1, 4, 4), 160);
        assert_eq!(points_for(1, 6, 3), 80);
        // 25 equal servers: 32-bit floats make 39.99… digests of 40, so 156 points each.
        assert_eq!(points_for(1, 25, 25), 156);
    }

    /// Every answer Debian's libmemcached 1.1.4 gave (tools/ketama-vectors.sh).
    #[test]
    fn equals_libmemcached_on_every_recorded_key() {
        let vectors = include_str!("../../../tests/reference/ketama.txt");
        let (scenarios, checked) = super::super::recorded::replay_recorded(vectors, |w| {
            vec![("algo", "ketama".into()), ("nodes", w[0].to_owned())]
        });
        assert_eq!(scenarios, 5);
        assert!(checked > 10_000, "{checked}");
    }

    /// PyPI's uhashring calls itself ketama compatible and is — until 32-bit floats round:
    /// with 25 equal servers libmemcached (and this file) give each 156 points, uhashring's
    /// integers 160, and 34 of 2,004 keys land elsewhere (tools/uhashring-vectors.py).
    #[test]
    fn uhashring_agrees_with_libmemcached_until_floats_round() {
        use crate::engine::scenario::Scenario;
        use crate::engine::sim::Simulation;
        let vectors = include_str!("../../../tests/reference/uhashring.txt");
        let mut sim: Option<Simulation> = None;
        let mut disagree = std::collections::BTreeMap::<&str, usize>::new();
        let mut pool = "";
        for line in vectors.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split(' ').collect();
            if words[0] == "scenario" {
                pool = words[1];
                disagree.insert(pool, 0);
                let scenario = Scenario::from_pairs([("algo", "ketama"), ("nodes", words[2])]);
                sim = Some(Simulation::new(&scenario.unwrap()).unwrap());
                continue;
            }
            let sim = sim.as_ref().unwrap();
            let (_, owner) = sim.lookup(words[0]).unwrap();
            if sim.server(owner).unwrap().name != words[1] {
                *disagree.entry(pool).or_default() += 1;
            }
        }
        assert_eq!(
            disagree.into_iter().collect::<Vec<_>>(),
            [("ten", 0), ("twentyfive", 34), ("weights", 0)]
        );
    }
}
