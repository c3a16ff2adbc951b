//! Consistent hashing with bounded loads: Vahab Mirrokni, Mikkel Thorup and Morteza
//! Zadimoghaddam, "Consistent Hashing with Bounded Loads" (SODA 2018, arXiv:1608.01350).
//!
//! The ring with virtual nodes, plus a capacity: no server takes more than
//! `⌈c · keys / servers⌉` keys (`c` > 1, 1.25 by default, as in Vimeo's and HAProxy's
//! deployments). Keys arrive in order; a key walks clockwise from its position past the
//! points of servers that are already full, to the first server with room. The paper
//! proves the peak load is at most `⌈c · mean⌉` and that a change moves `O(1/c²)` keys
//! per key that must move — more than the plain ring, the price of the bound.
//!
//! Choices left open: keys arrive in the order the key set lists them (key 0 first), and
//! weights are not used (every server has the same capacity).

pub use crate::engine::contract::BoundedWalk;
use crate::engine::contract::{Explanation, How, Placement};
use crate::engine::ring::{Ring, ServerId, NO_OWNER};
use crate::engine::spec::{no_check, Build, Knobs, Memory, Moves, Shape, Spec, LOOKUP_COST};
use std::rc::Rc;

/// The registry's entry. Source: Mirrokni, Thorup & Zadimoghaddam 2018.
pub static SPEC: Spec = Spec {
    id: "bounded",
    knobs: Knobs {
        vnodes: true,
        hash: true,
        balance: true,
        ..Knobs::NONE
    },
    shape: Shape::Vnodes,
    memory: Memory::Nothing,
    moves: Moves::Remaps,
    over_ring: Some(|ring, p, live| Rc::new(Bounded::over(ring, p.c, p.key_count, live))),
    table_fill: None,
    arcs: false,
    scores_every_server: false,
    key_value: None,
    key_hash: None,
    // A walk past full servers: a few points more than the ring's one.
    cost: |_| 2 * LOOKUP_COST,
    check: no_check,
    build,
};

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, crate::problem::Problem> {
    let p = &b.params;
    let points = super::ring::ring_vnodes(&b.live, p.vnodes, p.label, p.hash)?;
    let ring = Ring::new(points, &|id| b.name_of(id));
    Ok(Rc::new(Bounded::over(ring, p.c, p.key_count, b.live.len())))
}

/// A ring whose servers hold at most `capacity` keys each.
#[derive(Clone, Debug)]
pub struct Bounded {
    /// The ring of virtual nodes.
    pub ring: Ring,
    /// The most keys a server takes, `⌈c · keys / servers⌉`.
    pub capacity: u32,
    /// Keys each server holds, by server id (after the keys have arrived).
    pub loads: Vec<u32>,
    /// For each server id, the arrival number of the key that filled it (`u32::MAX` while
    /// it has room): a later key finds it full.
    pub filled_at: Vec<u32>,
    /// Keys that found the first server clockwise full and were forwarded past it.
    pub forwarded: u32,
}

impl Bounded {
    /// `placement` as bounded loads, when it is (the owners then depend on arrival order).
    pub fn of(placement: &dyn Placement) -> Option<&Bounded> {
        placement.arrival_order()?.downcast_ref()
    }

    /// The capacity for `keys` keys over `servers` servers with factor `c`.
    pub fn capacity_for(c: f64, keys: usize, servers: usize) -> u32 {
        if servers == 0 {
            return 0;
        }
        (c * keys as f64 / servers as f64).ceil().max(1.0) as u32
    }

    /// The ring under bounded loads for `keys` keys over `live` servers with factor `c`.
    pub fn over(ring: Ring, c: f64, keys: usize, live: usize) -> Bounded {
        Bounded::new(ring, Bounded::capacity_for(c, keys, live))
    }

    /// A ring with no keys yet.
    pub fn new(ring: Ring, capacity: u32) -> Bounded {
        Bounded {
            ring,
            capacity,
            loads: Vec::new(),
            filled_at: Vec::new(),
            forwarded: 0,
        }
    }

    fn full(&self, server: ServerId, arrival: u32) -> bool {
        self.filled_at
            .get(usize::from(server))
            .is_some_and(|&at| at < arrival)
    }

    /// The walk of a key at `position` arriving as number `arrival` (a key not in the set
    /// arrives after all of them).
    pub fn walk(&self, position: u32, arrival: u32) -> BoundedWalk {
        let points = self.ring.points();
        let Some(start) = self.ring.successor_index(position) else {
            return BoundedWalk {
                first: None,
                skipped: Vec::new(),
                point: None,
            };
        };
        let mut skipped = Vec::new();
        let mut point = None;
        for step in 0..points.len() {
            let p = points[(start + step) % points.len()];
            if !self.full(p.server, arrival) {
                point = Some(p);
                break;
            }
            if !skipped.contains(&p.server) {
                skipped.push(p.server);
            }
        }
        BoundedWalk {
            first: Some(points[start]),
            skipped,
            point,
        }
    }

    /// Places the key at `position`, arriving as number `arrival` (arrivals in increasing
    /// order): the first server clockwise with room takes it.
    pub fn place(&mut self, position: u32, arrival: u32) -> ServerId {
        let points = self.ring.points();
        let Some(start) = self.ring.successor_index(position) else {
            return NO_OWNER;
        };
        for step in 0..points.len() {
            let s = points[(start + step) % points.len()].server;
            let i = usize::from(s);
            if self.loads.len() <= i {
                self.loads.resize(i + 1, 0);
                self.filled_at.resize(i + 1, u32::MAX);
            }
            if self.loads[i] < self.capacity {
                self.loads[i] += 1;
                if self.loads[i] == self.capacity {
                    self.filled_at[i] = arrival;
                }
                self.forwarded += u32::from(step > 0);
                return s;
            }
        }
        NO_OWNER
    }

    fn explain_walk(&self, position: u32, arrival: u32) -> Explanation {
        let walk = self.walk(position, arrival);
        Explanation {
            position,
            owner: walk.point.map_or(NO_OWNER, |p| p.server),
            how: How::Bounded {
                walk,
                capacity: self.capacity,
            },
        }
    }
}

impl Placement for Bounded {
    /// The owner of a key arriving now, after every key of the set.
    fn owner(&self, _key: &str, position: u32) -> ServerId {
        self.walk(position, u32::MAX)
            .point
            .map_or(NO_OWNER, |p| p.server)
    }

    fn explain(&self, _key: &str, position: u32) -> Explanation {
        self.explain_walk(position, u32::MAX)
    }

    fn explain_arrival(&self, key: &str, position: u32, arrival: Option<u32>) -> Explanation {
        match arrival {
            Some(a) => self.explain_walk(position, a),
            None => self.explain(key, position),
        }
    }

    fn needs_key_name(&self) -> bool {
        false
    }

    fn arrival_order(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }

    fn ring(&self) -> Option<&Ring> {
        Some(&self.ring)
    }

    fn memory_bytes(&self) -> usize {
        self.ring.memory_bytes() + (self.loads.len() + self.filled_at.len()) * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ring::VNode;

    fn ring(points: &[(u32, ServerId)]) -> Ring {
        let points = points
            .iter()
            .map(|&(position, server)| VNode {
                position,
                server,
                replica: 0,
            })
            .collect();
        Ring::new(points, &|_| "")
    }

    #[test]
    fn a_key_walks_past_full_servers() {
        // Points: A at 100, B at 200, C at 300. Capacity 2. Keys at 50, 60, 70 all start
        // at A: the third finds A full and goes on to B.
        let mut b = Bounded::new(ring(&[(100, 0), (200, 1), (300, 2)]), 2);
        assert_eq!(b.place(50, 0), 0);
        assert_eq!(b.place(60, 1), 0);
        assert_eq!(b.place(70, 2), 1);
        assert_eq!(b.filled_at, vec![1, u32::MAX]);
        assert_eq!(b.forwarded, 1, "only the third key was forwarded");
        let walk = b.walk(70, 2);
        assert_eq!(
            (walk.skipped, walk.point.map(|p| p.server)),
            (vec![0], Some(1))
        );
        // The second key arrived before A was full: it passed nothing.
        assert!(b.walk(60, 1).skipped.is_empty());
        // Past the last point the walk wraps round to A — full — and on to B.
        assert_eq!(b.owner("", 350), 1);
    }
}
