//! Envoy's `ring_hash` load balancer (`source/extensions/load_balancing_policies/ring_hash/
//! ring_hash_lb.cc`: `Ring::Ring`, `Ring::chooseHost`), bit for bit, on Envoy's 64-bit ring.
//!
//! - A host hashes under its name: the `hash_key` metadata, else its hostname when
//!   `use_hostname_for_hashing`, else `ip:port` — here, the server's name.
//! - The ring has a **fixed total size**: with normalized weights `wᵢ / Σw` and the least
//!   one `m`, `scale = min(⌈m × min_ring_size⌉ / m, max_ring_size)` (1,024 and 8,388,608 by
//!   default); walking the hosts in order with running sums, a host gets hashes while
//!   `current < target += scale × wᵢ`. Hash `i` is `XXH64(name + "_" + i)`.
//! - So adding a host shrinks every host's share of the fixed ring: each old host drops its
//!   last hashes, and keys move **between hosts nobody touched** (istio/istio#41814,
//!   envoyproxy/envoy#22558).
//! - A request hashes with `XXH64(value)` (seed 0) and goes to the first hash at or above
//!   it, wrapping (ketama's search, as Envoy ported it).
//!
//! The page's ring is 32 bits: the picture puts each point and key at the top 32 bits of its
//! 64-bit hash, while owners come from the 64-bit comparison. Checked against the positions
//! and answers in Envoy's own `ring_hash_lb_test.cc` (`Basic`).

use std::rc::Rc;

use crate::engine::contract::{Explanation, How, Placement};
use crate::engine::ring::{Ring, ServerId, VNode, NO_OWNER};
use crate::engine::spec::{no_check, Build, KeyHash, Knobs, Moves, Spec};
use crate::problem::Problem;

/// The registry's entry. Source: Envoy ring_hash_lb.cc: XXH64 points on a ring of fixed total size.
pub static SPEC: Spec = super::ring::ring_spec(
    "envoy-ring",
    Knobs {
        weights: true,
        ..Knobs::NONE
    },
    Moves::Remaps,
    KeyHash {
        name: "xxh64 (top 32 bits)",
        hash: |key, _| (xxh64(key) >> 32) as u32,
    },
    no_check,
    build,
);

/// Envoy's default `minimum_ring_size`.
pub const MIN_RING_SIZE: u64 = 1024;
/// Envoy's default `maximum_ring_size`.
pub const MAX_RING_SIZE: u64 = 8 * 1024 * 1024;

/// `HashUtil::xxHash64(value)`, seed 0.
pub fn xxh64(value: &str) -> u64 {
    xxhash_rust::xxh64::xxh64(value.as_bytes(), 0)
}

/// Envoy's ring over `(name, weight)` hosts in order: each entry a 64-bit hash, the host's
/// index and the point's number `i` (the hash is of `name_i`), sorted by hash.
pub fn build_ring(hosts: &[(&str, f64)], min_ring: u64, max_ring: u64) -> Vec<(u64, usize, u32)> {
    let sum: f64 = hosts.iter().map(|h| h.1).sum();
    if hosts.is_empty() || sum <= 0.0 {
        return Vec::new();
    }
    let normalized: Vec<f64> = hosts.iter().map(|h| h.1 / sum).collect();
    let least = normalized.iter().copied().fold(f64::INFINITY, f64::min);
    let scale = ((least * min_ring as f64).ceil() / least).min(max_ring as f64);
    let mut ring = Vec::with_capacity(scale.ceil() as usize);
    let (mut current, mut target) = (0.0f64, 0.0f64);
    let mut digits = itoa::Buffer::new();
    for (index, ((name, _), weight)) in hosts.iter().zip(&normalized).enumerate() {
        target += scale * weight;
        let mut i = 0u64;
        while current < target {
            ring.push((
                xxh64(&format!("{name}_{}", digits.format(i))),
                index,
                i as u32,
            ));
            i += 1;
            current += 1.0;
        }
    }
    crate::engine::order::sort_by_key(&mut ring, |e| e.0);
    ring
}

/// The index into `ring` serving hash `h`: the first entry at or above it, wrapping.
pub fn choose<T>(ring: &[(u64, T)], h: u64) -> Option<usize> {
    if ring.is_empty() {
        return None;
    }
    let at = ring.partition_point(|e| e.0 < h);
    Some(if at == ring.len() { 0 } else { at })
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let hosts: Vec<(&str, f64)> = b.live.iter().map(|s| (s.name.as_str(), s.weight)).collect();
    let ring = build_ring(&hosts, MIN_RING_SIZE, MAX_RING_SIZE)
        .into_iter()
        .map(|(h, i, n)| (h, b.live[i].id, n))
        .collect();
    Ok(Rc::new(Ring64::new(ring, xxh64, b)))
}

/// A ring compared on 64 bits (Envoy's hashes, Cassandra's tokens), drawn on the page's
/// 32-bit ring at the top 32 bits of each value. Entries are `(value, server, number)` — the
/// number is the point's own among its server's (Envoy's `i` of `name_i`, a Cassandra
/// node's token number), which a lookup names; a key goes to the first entry at or above its
/// value, wrapping.
pub struct Ring64 {
    /// (64-bit value, server), sorted.
    pub ring: Vec<(u64, ServerId)>,
    /// Each entry's number among its server's points, in `ring`'s order.
    numbers: Vec<u32>,
    /// The key's 64-bit value.
    pub key: fn(&str) -> u64,
    /// The points at their top 32 bits, for drawing.
    pub picture: Ring,
}

impl Ring64 {
    /// The ring of `entries` (sorted here), with keys valued by `key`.
    pub fn new(
        mut entries: Vec<(u64, ServerId, u32)>,
        key: fn(&str) -> u64,
        b: &Build<'_>,
    ) -> Ring64 {
        crate::engine::order::sort_by_key(&mut entries, |e| e.0);
        let points = entries
            .iter()
            .map(|&(h, server, number)| VNode {
                position: (h >> 32) as u32,
                server,
                replica: number,
            })
            .collect();
        Ring64 {
            picture: Ring::new(points, &|id| b.name_of(id)),
            numbers: entries.iter().map(|e| e.2).collect(),
            ring: entries.into_iter().map(|e| (e.0, e.1)).collect(),
            key,
        }
    }

    fn point(&self, key: &str) -> Option<VNode> {
        let i = choose(&self.ring, (self.key)(key))?;
        let (h, server) = self.ring[i];
        Some(VNode {
            position: (h >> 32) as u32,
            server,
            replica: self.numbers[i],
        })
    }
}

impl Placement for Ring64 {
    fn owner(&self, key: &str, _position: u32) -> ServerId {
        self.point(key).map_or(NO_OWNER, |p| p.server)
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        let point = self.point(key);
        Explanation {
            position,
            owner: point.map_or(NO_OWNER, |p| p.server),
            how: How::FirstPointClockwise { point },
        }
    }

    fn ring(&self) -> Option<&Ring> {
        Some(&self.picture)
    }

    fn ring_ties_need_names(&self) -> bool {
        true
    }

    fn memory_bytes(&self) -> usize {
        self.ring.len() * (std::mem::size_of::<(u64, ServerId)>() + 4) + self.picture.memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Envoy's `RingHashLoadBalancerTest.Basic`: six hosts, minimum ring size 12.
    #[test]
    fn equals_envoys_own_test() {
        let names: Vec<String> = (90..96).map(|p| format!("127.0.0.1:{p}")).collect();
        let hosts: Vec<(&str, f64)> = names.iter().map(|n| (n.as_str(), 1.0)).collect();
        let ring = build_ring(&hosts, 12, MAX_RING_SIZE);
        let port = |i: usize| 90 + ring[i].1;
        let expected: [(usize, u64); 12] = [
            (94, 833437586790550860),
            (92, 928266305478181108),
            (90, 1033482794131418490),
            (95, 3551244743356806947),
            (93, 3851675632748031481),
            (91, 5583722120771150861),
            (91, 6311230543546372928),
            (93, 7700377290971790572),
            (95, 13144177310400110813),
            (92, 13444792449719432967),
            (94, 15516499411664133160),
            (90, 16117243373044804889),
        ];
        for (i, &(p, h)) in expected.iter().enumerate() {
            assert_eq!((port(i), ring[i].0), (p, h), "entry {i}");
        }
        let pairs: Vec<(u64, usize)> = ring.iter().map(|e| (e.0, e.1)).collect();
        let host = |h: u64| 90 + ring[choose(&pairs, h).unwrap()].1;
        assert_eq!(host(0), 94);
        assert_eq!(host(u64::MAX), 94);
        assert_eq!(host(3551244743356806947), 95);
        assert_eq!(host(3551244743356806948), 93);
        assert_eq!(host(16117243373044804880), 90);
    }

    #[test]
    fn a_fifth_host_takes_hashes_from_every_other_one() {
        let names: Vec<String> = (0..5).map(|i| format!("10.0.0.{i}:80")).collect();
        let count = |n: usize, i: usize| {
            let hosts: Vec<(&str, f64)> = names[..n].iter().map(|s| (s.as_str(), 1.0)).collect();
            build_ring(&hosts, MIN_RING_SIZE, MAX_RING_SIZE)
                .iter()
                .filter(|e| e.1 == i)
                .count()
        };
        // 1,024 / 4 = 256 each; with five, ⌈1,024 / 5⌉ = 205 each: every old host loses 51.
        assert_eq!((count(4, 0), count(5, 0)), (256, 205));
        assert_eq!(count(5, 4), 205);
    }
}

#[cfg(test)]
mod ties {
    use crate::engine::scenario::Scenario;
    use crate::engine::sim::{Change, Simulation};

    /// Keys whose hash shares its top 32 bits with a point of A, B, C's ring (found by a
    /// search over `k0…k200000000`): the drawn ring cannot tell which side of the point
    /// they fall on, so they are looked up by name — at load and after a change.
    #[test]
    fn keys_on_a_drawn_point_get_their_64_bit_owner() {
        // k1269984 is above a point of B (the next is C's); k21761076 above one of C (the
        // next is A's); k1843546 below one of A.
        let keys = "list:k1269984,k21761076,k1843546,k1,k2";
        let s = Scenario::from_pairs([("algo", "envoy-ring"), ("nodes", "A,B,C"), ("keys", keys)]);
        let mut sim = Simulation::new(&s.unwrap()).unwrap();
        let owner_of = |sim: &Simulation, key: &str| {
            let place = (0..sim.keys().len())
                .find(|&p| sim.key_name(sim.keys().ids[p]) == key)
                .unwrap();
            sim.server(sim.owners()[place]).unwrap().name.clone()
        };
        for (key, want) in [("k1269984", "C"), ("k21761076", "A"), ("k1843546", "A")] {
            assert_eq!(owner_of(&sim, key), want, "{key}");
            assert_eq!(
                sim.server(sim.explain(key).unwrap().owner).unwrap().name,
                want
            );
        }
        for change in ["add:D", "remove:B", "add:B", "fail:C"] {
            sim.apply(&Change::parse(change).unwrap()).unwrap();
            for key in ["k1269984", "k21761076", "k1843546", "k1", "k2"] {
                let exact = sim
                    .server(sim.explain(key).unwrap().owner)
                    .map(|s| s.name.clone());
                assert_eq!(Some(owner_of(&sim, key)), exact, "{change}: {key}");
            }
        }
    }
}
