//! ingress-nginx's `upstream-hash-by`, which is OpenResty's `lua-resty-balancer` chash
//! (`lib/resty/chash.lua` `_precompute`, `_find_id`; `chash.c` `chash_point_init_crc`),
//! bit for bit. It looks like nginx's `hash … consistent` and is not:
//!
//! - A server's chain of `160 × weight` points starts from the **finalized** CRC-32 of its
//!   name (`ngx.crc32_short("ip:port")`), used as the running CRC register; point `j` is that
//!   register updated with point `j − 1`'s 4 little-endian bytes, then finalized. (nginx starts
//!   from the unfinalized CRC of `host ‖ 0 ‖ port`.)
//! - A key (`crc32(key)`) goes to the **largest point at or below** its hash; a hash below
//!   the first point goes to the first point — no wrap to the last.
//!
//! Checked against `t/chash.t` of lua-resty-balancer: weights 10, 2, 1 over the keys 1 …
//! 100,000 give 75,588, 16,114 and 8,298 keys, and 2,080 points.

use std::rc::Rc;

use super::nginx::crc32;
use crate::engine::contract::{Explanation, How, Placement};
use crate::engine::crc::crc32_update;
use crate::engine::ring::{Ring, ServerId, VNode, NO_OWNER};
use crate::engine::spec::{whole_weights, Build, KeyHash, Knobs, Moves, Spec};
use crate::problem::Problem;

/// The registry's entry. Source: ingress-nginx upstream-hash-by: OpenResty lua-resty-balancer chash (finalized CRC32 base, largest point at or below).
pub static SPEC: Spec = super::ring::ring_spec(
    "ingress-nginx",
    Knobs {
        weights: true,
        ..Knobs::NONE
    },
    Moves::Minimal,
    KeyHash {
        name: "crc32",
        hash: |key, _| crc32(key),
    },
    whole_weights,
    build,
);

/// Points per unit of weight (`CONSISTENT_POINTS`).
pub const POINTS_PER_WEIGHT: u32 = 160;

/// The points of `(name, weight)` servers: `(hash, index)`, sorted by hash.
pub fn points(servers: &[(&str, u32)]) -> Vec<(u32, usize)> {
    let mut out = Vec::new();
    for (index, &(name, weight)) in servers.iter().enumerate() {
        let base = crc32(name);
        let mut prev = 0u32;
        for _ in 0..weight * POINTS_PER_WEIGHT {
            let hash = crc32_update(base, &prev.to_le_bytes()) ^ 0xFFFF_FFFF;
            out.push((hash, index));
            prev = hash;
        }
    }
    crate::engine::order::sort_by_key(&mut out, |p| u64::from(p.0));
    out
}

/// `_find_id`: the index of the largest point at or below `hash`, the first one below them all.
pub fn find<T>(points: &[(u32, T)], hash: u32) -> Option<usize> {
    if points.is_empty() {
        return None;
    }
    Some(points.partition_point(|p| p.0 <= hash).saturating_sub(1))
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let servers: Vec<(&str, u32)> = b
        .live
        .iter()
        .map(|s| (s.name.as_str(), (s.weight.round() as u32).max(1)))
        .collect();
    let points: Vec<(u32, ServerId)> = points(&servers)
        .into_iter()
        .map(|(h, i)| (h, b.live[i].id))
        .collect();
    // Drawn first-point-clockwise: a point owns the arc after it, so each is drawn at the
    // next point's position (the first one also takes everything below it).
    let n = points.len();
    let drawn = (0..n)
        .map(|i| VNode {
            position: if i + 1 < n {
                points[i + 1].0.wrapping_sub(1)
            } else {
                u32::MAX
            },
            server: points[i].1,
            replica: i as u32,
        })
        .chain(points.first().map(|&(h, server)| VNode {
            position: h.wrapping_sub(1),
            server,
            replica: 0,
        }))
        .collect();
    let compared = (points.iter().enumerate())
        .map(|(i, &(position, server))| VNode {
            position,
            server,
            replica: i as u32,
        })
        .collect();
    Ok(Rc::new(AtOrBelow {
        points,
        picture: Ring::new(drawn, &|id| b.name_of(id)),
        compared: Ring::new(compared, &|id| b.name_of(id)),
    }))
}

/// The sorted points, read as lua-resty-balancer reads them.
pub struct AtOrBelow {
    /// (hash, server), sorted.
    pub points: Vec<(u32, ServerId)>,
    /// The same ownership drawn as first-point-clockwise arcs.
    pub picture: Ring,
    /// The points as a ring, for the loupe (not counted in its memory: lua-resty-balancer
    /// holds `points` alone).
    pub compared: Ring,
}

impl AtOrBelow {
    fn point(&self, position: u32) -> Option<VNode> {
        let i = find(&self.points, position)?;
        let (h, server) = self.points[i];
        Some(VNode {
            position: h,
            server,
            replica: i as u32,
        })
    }
}

impl Placement for AtOrBelow {
    /// Through the drawn ring (the same ownership, tested below): so a change is diffed arc
    /// by arc, as the ring's is.
    fn owner(&self, _key: &str, position: u32) -> ServerId {
        self.picture.owner_of(position)
    }

    fn explain(&self, _key: &str, position: u32) -> Explanation {
        let point = self.point(position);
        Explanation {
            position,
            owner: point.map_or(NO_OWNER, |p| p.server),
            how: How::AtOrBelow { point },
        }
    }

    fn ring(&self) -> Option<&Ring> {
        Some(&self.picture)
    }

    fn compared_points(&self) -> Option<&Ring> {
        Some(&self.compared)
    }

    fn memory_bytes(&self) -> usize {
        self.points.len() * std::mem::size_of::<(u32, ServerId)>() + self.picture.memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// lua-resty-balancer's `t/chash.t`: weights 10, 2, 1; keys 1 … 100,000.
    #[test]
    fn equals_lua_resty_balancers_own_test() {
        let servers = [("server1", 10), ("server2", 2), ("server3", 1)];
        let points = points(&servers);
        assert_eq!(points.len(), 2080);
        let mut counts = [0u32; 3];
        for i in 1..=100_000u32 {
            counts[points[find(&points, crc32(&i.to_string())).unwrap()].1] += 1;
        }
        assert_eq!(counts, [75_588, 16_114, 8_298]);
    }

    #[test]
    fn the_drawn_ring_owns_what_the_lookup_owns() {
        let scenario = crate::engine::scenario::Scenario::from_pairs([
            ("algo", "ingress-nginx"),
            ("nodes", "10.0.0.1:80,10.0.0.2:80*2,10.0.0.3:80"),
            ("keys", "0..1"),
        ])
        .unwrap();
        let sim = crate::engine::sim::Simulation::new(&scenario).unwrap();
        let p = sim.placement();
        let ring = p.ring().unwrap();
        let at_or_below = |h: u32| p.explain("", h).owner;
        for h in (0..20_000u64)
            .map(|i| crate::engine::keys::splitmix64(i) as u32)
            .chain([0, 1, u32::MAX])
            .chain((1..=100_000).map(|i: u32| crc32(&i.to_string())))
        {
            assert_eq!(ring.owner_of(h), at_or_below(h), "{h:#x}");
            assert_eq!(p.owner("", h), at_or_below(h), "{h:#x}");
        }
    }
}
