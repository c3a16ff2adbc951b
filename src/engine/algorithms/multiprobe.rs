//! Multi-probe consistent hashing: Ben Appleton and Michael O'Reilly, "Multi-Probe
//! Consistent Hashing" (Google, 2015, arXiv:1505.00062).
//!
//! Each server is one point on the ring (no virtual nodes); a key is hashed `k` times and
//! each probe finds the first server point clockwise; the probe nearest to its point wins
//! (the smallest clockwise distance). With k = 21 the paper reports a peak-to-mean load of
//! about 1.05 — what the ring needs ~100 vnodes per server for — in one point per server.
//!
//! Choices the paper leaves open: server points are the scenario's hash of the server's
//! name (as a ring with one vnode); the probes use double hashing (as the paper's own
//! implementation suggests for speed): probe `i` is `h1 + i·h2 mod 2³²`, where `h1` is the
//! key's ring position (so probe 0 is where the key is drawn) and `h2` the upper half of the
//! key's xxh3-64, made odd. Ties in distance go to the earlier probe.

pub use crate::engine::contract::Probe;
use crate::engine::contract::{Explanation, How, Placement};
use crate::engine::keys::KeyValue;
use crate::engine::ring::VNode;
use crate::engine::ring::{Ring, ServerId, NO_OWNER};
use crate::engine::spec::{
    no_check, Build, Knobs, Memory, Moves, Shape, Spec, KEY_COST, LOOKUP_COST,
};
use std::rc::Rc;

/// Multi-probe's key value: xxh3-64 of the name, whatever the scenario's hash (its probe
/// step).
pub const PROBE_VALUE: KeyValue = KeyValue {
    id: "xxh3",
    of: |_, key| xxhash_rust::xxh3::xxh3_64(key.as_bytes()),
};

/// The registry's entry. Source: Appleton & O'Reilly 2015.
pub static SPEC: Spec = Spec {
    id: "multiprobe",
    knobs: Knobs {
        hash: true,
        probes: true,
        ..Knobs::NONE
    },
    shape: Shape::NamePoints,
    memory: Memory::Nothing,
    moves: Moves::Minimal,
    over_ring: None,
    table_fill: None,
    arcs: false,
    scores_every_server: false,
    key_value: Some(PROBE_VALUE),
    key_hash: None,
    cost: |c| KEY_COST + LOOKUP_COST * c.probes as usize,
    check: no_check,
    build,
};

/// One point per server, at the scenario's hash of its name.
fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, crate::problem::Problem> {
    let points = b
        .live
        .iter()
        .map(|s| {
            Ok(VNode {
                position: b.params.hash.position(&s.name)?,
                server: s.id,
                replica: 0,
            })
        })
        .collect::<Result<Vec<VNode>, crate::problem::Problem>>()?;
    Ok(Rc::new(MultiProbe {
        ring: Ring::new(points, &|id| b.name_of(id)),
        probes: b.params.probes,
    }))
}

/// The default number of probes (the paper's recommendation).
pub const DEFAULT_PROBES: u32 = 21;
/// The most probes a scenario may ask for.
pub const MAX_PROBES: u32 = 256;

/// Multi-probe over one point per live server.
pub struct MultiProbe {
    /// The servers' points (one each).
    pub ring: Ring,
    /// Probes per key.
    pub probes: u32,
}

impl MultiProbe {
    /// The probes of the key at `position` named `key`, each with its nearest point.
    fn probes(&self, key: &str, position: u32) -> Vec<Probe> {
        let step = ((xxhash_rust::xxh3::xxh3_64(key.as_bytes()) >> 32) as u32) | 1;
        (0..self.probes)
            .filter_map(|i| {
                let p = position.wrapping_add(i.wrapping_mul(step));
                let point = *self.ring.successor(p)?;
                Some(Probe {
                    position: p,
                    point,
                    distance: point.position.wrapping_sub(p),
                })
            })
            .collect()
    }

    fn best(probes: &[Probe]) -> Option<usize> {
        (0..probes.len()).min_by_key(|&i| (probes[i].distance, i))
    }
}

impl Placement for MultiProbe {
    fn memory_bytes(&self) -> usize {
        self.ring.memory_bytes()
    }

    fn owner(&self, key: &str, position: u32) -> ServerId {
        self.owner_of_value(xxhash_rust::xxh3::xxh3_64(key.as_bytes()), position)
    }

    fn owner_of_value(&self, value: u64, position: u32) -> ServerId {
        let step = ((value >> 32) as u32) | 1;
        let mut best: Option<(u32, ServerId)> = None;
        for i in 0..self.probes {
            let p = position.wrapping_add(i.wrapping_mul(step));
            let Some(point) = self.ring.successor(p) else {
                return NO_OWNER;
            };
            let distance = point.position.wrapping_sub(p);
            if best.is_none_or(|(d, _)| distance < d) {
                best = Some((distance, point.server));
            }
        }
        best.map_or(NO_OWNER, |b| b.1)
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        let probes = self.probes(key, position);
        let best = MultiProbe::best(&probes);
        Explanation {
            position,
            owner: best.map_or(NO_OWNER, |i| probes[i].point.server),
            how: How::Probes { probes, best },
        }
    }

    fn ring(&self) -> Option<&Ring> {
        // The points are drawn, but ownership is not "first point clockwise": no arc diffs.
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ring::VNode;

    fn ring(points: &[(u32, ServerId)]) -> Ring {
        Ring::new(
            points
                .iter()
                .map(|&(position, server)| VNode {
                    position,
                    server,
                    replica: 0,
                })
                .collect(),
            &|_| "",
        )
    }

    #[test]
    fn the_nearest_probe_wins_and_explain_agrees() {
        let mp = MultiProbe {
            ring: ring(&[(1000, 0), (2_000_000_000, 1), (3_000_000_000, 2)]),
            probes: 21,
        };
        for i in 0..500u32 {
            let key = format!("k{i}");
            let pos = i.wrapping_mul(2_654_435_761);
            let e = mp.explain(&key, pos);
            assert_eq!(e.owner, mp.owner(&key, pos), "{key}");
            let How::Probes { probes, best } = e.how else {
                panic!()
            };
            assert_eq!(probes.len(), 21);
            assert_eq!(probes[0].position, pos, "probe 0 is the key's own position");
            let b = best.unwrap();
            assert!(probes.iter().all(|p| p.distance >= probes[b].distance));
        }
    }

    #[test]
    fn one_probe_is_the_plain_ring() {
        let r = ring(&[(10, 0), (20, 1), (30, 2)]);
        let mp = MultiProbe {
            ring: r.clone(),
            probes: 1,
        };
        for pos in [0u32, 10, 11, 25, 31, u32::MAX] {
            assert_eq!(mp.owner("x", pos), r.owner_of(pos));
        }
    }
}
