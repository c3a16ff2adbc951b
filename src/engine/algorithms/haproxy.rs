//! HAProxy's `hash-type consistent` (HAProxy 2.6, `src/lb_chash.c`:
//! `chash_init_server_tree`, `chash_get_server_hash`; `src/backend.c`: `gen_hash`), with
//! its default key function, bit for bit.
//!
//! - Servers are numbered by declaration order from 1 (their `puid`; a config can set
//!   `id`, which this model does not read), down or not — so adding a server anywhere but
//!   at the end renumbers the ones after it, and their keys move.
//! - A server of weight `w` has `16 × w` points, point `n` at `full_hash(id × 4096 + n)`
//!   (Bob Jenkins' 32-bit integer hash times the prime 3221225473).
//! - A key hashes with sdbm (`hash = c + (hash << 6) + (hash << 16) − hash` per byte, the
//!   default function) then `full_hash` (the `avalanche` modifier, which `hash-type
//!   consistent` applies when no function is named), and goes to the **nearer** of the next
//!   point at or above it and the one before it (wrapping), the one before on a tie.
//! - A `disabled` or down server leaves the tree; the others keep their ids.
//!
//! `tests/reference/haproxy.txt` holds what Debian's HAProxy 2.6.12 answered on loopback
//! (`balance url_param key`) for 2,004 keys × 5 pools (weights, a server added at the end
//! and at the front, one disabled, ten servers), written by `tools/haproxy-vectors.py`; a
//! test replays them.

use std::rc::Rc;

use crate::engine::contract::{Explanation, How, Placement};
use crate::engine::ring::{Ring, ServerId, VNode, NO_OWNER};
use crate::engine::spec::{whole_weights, Build, KeyHash, Knobs, Moves, Spec};
use crate::problem::Problem;

/// The registry's entry. Source: HAProxy lb_chash.c hash-type consistent: sdbm keys, Jenkins full_hash points, the nearer point.
pub static SPEC: Spec = super::ring::ring_spec(
    "haproxy",
    Knobs {
        weights: true,
        ..Knobs::NONE
    },
    Moves::Remaps,
    KeyHash {
        name: "full_hash(sdbm)",
        hash: |key, _| key_hash(key),
    },
    whole_weights,
    build,
);

/// Points per unit of weight (`BE_WEIGHT_SCALE`).
pub const POINTS_PER_WEIGHT: u32 = 16;

/// The id stride between servers' points (`SRV_EWGHT_RANGE`).
pub const ID_STRIDE: u32 = 4096;

/// HAProxy's `full_hash` (`include/haproxy/intops.h`): Bob Jenkins' 32-bit integer hash,
/// then a multiply by the prime 3221225473 "to spread values all around the tree".
pub fn full_hash(mut a: u32) -> u32 {
    a = a.wrapping_add(0x7ed5_5d16).wrapping_add(a << 12);
    a = (a ^ 0xc761_c23c) ^ (a >> 19);
    a = a.wrapping_add(0x1656_67b1).wrapping_add(a << 5);
    a = a.wrapping_add(0xd3a2_646c) ^ (a << 9);
    a = a.wrapping_add(0xfd70_46c5).wrapping_add(a << 3);
    a = (a ^ 0xb55a_4f09) ^ (a >> 16);
    a.wrapping_mul(3_221_225_473)
}

/// The key's position: sdbm of its bytes, then `full_hash` (the `avalanche` modifier,
/// which `hash-type consistent` applies when no function is named).
pub fn key_hash(key: &str) -> u32 {
    full_hash(sdbm(key))
}

/// HAProxy's `hash_sdbm` of the key's bytes.
pub fn sdbm(key: &str) -> u32 {
    key.bytes().fold(0u32, |h, c| {
        u32::from(c)
            .wrapping_add(h << 6)
            .wrapping_add(h << 16)
            .wrapping_sub(h)
    })
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let mut points: Vec<VNode> = Vec::new();
    for s in &b.live {
        let id = s.slot + 1;
        let count = (s.weight.round() as u32).max(1) * POINTS_PER_WEIGHT;
        points.extend((0..count).map(|n| VNode {
            position: full_hash(id.wrapping_mul(ID_STRIDE).wrapping_add(n)),
            server: s.id,
            replica: n,
        }));
    }
    let ring = Ring::new(points, &|id| b.name_of(id));
    let picture = Ring::new(with_midpoints(ring.points()), &|id| b.name_of(id));
    Ok(Rc::new(Nearest { ring, picture }))
}

/// The points plus, between two neighbours of different servers, a point of the first at
/// the middle of the gap: read first-point-clockwise, this ring gives every position the
/// nearer of its two neighbours (the one before on a tie) — so the drawing, the ring
/// shares and the arc-by-arc diff show HAProxy's real ownership.
fn with_midpoints(points: &[VNode]) -> Vec<VNode> {
    let mut out = points.to_vec();
    for (i, a) in points.iter().enumerate() {
        let b = points[(i + 1) % points.len()];
        if a.server != b.server {
            let gap = b.position.wrapping_sub(a.position);
            out.push(VNode {
                position: a.position.wrapping_add(gap / 2),
                server: a.server,
                replica: a.replica,
            });
        }
    }
    out
}

/// The ring read HAProxy's way: the nearer of the next point and the one before.
pub struct Nearest {
    /// The servers' points.
    pub ring: Ring,
    /// The same ownership as first-point-clockwise arcs: the points and the gaps' middles.
    pub picture: Ring,
}

impl Nearest {
    /// The point serving `hash`: of the first point at or above it (wrapping) and the one
    /// before that, the nearer; the one before on a tie or when both are one server's.
    fn point(&self, hash: u32) -> Option<VNode> {
        let points = self.ring.points();
        let next = *self.ring.successor(hash)?;
        let at = points.partition_point(|p| p.position < next.position);
        // The point before `next` in ring order (the last one when `next` is the first).
        let prev = points[if at == 0 { points.len() - 1 } else { at - 1 }];
        if prev.server == next.server {
            return Some(next);
        }
        let (dp, dn) = (
            hash.wrapping_sub(prev.position),
            next.position.wrapping_sub(hash),
        );
        Some(if dp <= dn { prev } else { next })
    }
}

impl Placement for Nearest {
    fn owner(&self, _key: &str, position: u32) -> ServerId {
        self.picture.owner_of(position)
    }

    fn explain(&self, _key: &str, position: u32) -> Explanation {
        let point = self.point(position);
        Explanation {
            position,
            owner: point.map_or(NO_OWNER, |p| p.server),
            how: How::NearestPoint { point },
        }
    }

    fn ring(&self) -> Option<&Ring> {
        Some(&self.picture)
    }

    fn compared_points(&self) -> Option<&Ring> {
        Some(&self.ring)
    }

    fn memory_bytes(&self) -> usize {
        self.ring.memory_bytes() + self.picture.memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Scenario;
    use crate::engine::sim::Simulation;

    #[test]
    fn the_midpoint_ring_owns_what_the_nearest_point_rule_owns() {
        let scenario =
            Scenario::from_pairs([("algo", "haproxy"), ("nodes", "a,b*2,c"), ("keys", "0..1")])
                .unwrap();
        let sim = Simulation::new(&scenario).unwrap();
        let nearest = (0..20_000u64)
            .map(|i| crate::engine::keys::splitmix64(i) as u32)
            .chain([0, u32::MAX]);
        for h in nearest {
            let placement = sim.placement();
            let explained = placement.explain("", h).owner;
            assert_eq!(placement.owner("", h), explained, "{h:#x}");
        }
    }

    #[test]
    fn the_hashes_are_haproxys() {
        // sdbm("a") = 97; Jenkins' hash of 0 and 1 (burtleburtle.net's integer hash).
        assert_eq!(sdbm("a"), 97);
        assert_eq!(
            sdbm("ab"),
            98u32
                .wrapping_add(97 << 6)
                .wrapping_add(97 << 16)
                .wrapping_sub(97)
        );
        assert_ne!(full_hash(4096), full_hash(4097));
    }

    /// Every answer Debian's HAProxy 2.6.12 gave on loopback (tools/haproxy-vectors.py).
    #[test]
    fn equals_haproxy_on_every_recorded_key() {
        let vectors = include_str!("../../../tests/reference/haproxy.txt");
        let (scenarios, checked) = super::super::recorded::replay_recorded(vectors, |w| {
            let mut pairs = vec![("algo", "haproxy".into()), ("nodes", w[0].to_owned())];
            pairs.push(("down", w.get(1).copied().unwrap_or("").to_owned()));
            pairs
        });
        assert_eq!(scenarios, 5);
        assert!(checked > 10_000, "{checked}");
    }
}
