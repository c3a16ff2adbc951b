//! The consistent-hash ring with virtual nodes (Karger et al. 1997; seeds 000–003): each
//! server puts `round(vnodes × weight)` points on the 32-bit ring, at the hash of its label
//! (`{node}#{i}` by default, seed 003's `127.0.0.1#1`…), and a key walks clockwise from its
//! own hash to the first point. The sorted points are [`Ring`] (shared with Redis slots,
//! Maglev's cells, multi-probe and bounded loads); this file is the algorithm: the vnodes,
//! the lookup as a [`Placement`], and its registry entry.

use std::rc::Rc;

use crate::engine::contract::{Explanation, How, LiveServer, Placement};
use crate::engine::hash::HashFn;
use crate::engine::ring::{Ring, VNode, NO_OWNER};
use crate::engine::spec::{
    weighted_vnodes, Build, Check, CostInput, KeyHash, Knobs, LabelTemplate, Memory, Moves, Shape,
    Spec, LOOKUP_COST,
};
use crate::problem::{Field, Problem};
use crate::text::quote;

/// The most virtual nodes a scenario may have in all.
pub const MAX_TOTAL_VNODES: u64 = 1_000_000;

/// The registry's entry. Source: Karger et al. 1997; seeds 000–003.
pub static SPEC: Spec = Spec {
    id: "ring",
    knobs: Knobs {
        vnodes: true,
        weights: true,
        hash: true,
        ..Knobs::NONE
    },
    shape: Shape::Vnodes,
    memory: Memory::Nothing,
    moves: Moves::Minimal,
    over_ring: Some(|ring, _, _| Rc::new(ring)),
    table_fill: None,
    arcs: true,
    scores_every_server: false,
    key_value: None,
    key_hash: None,
    cost: lookup_cost,
    check: check_vnodes,
    build,
};

/// The registry entry of a real system's ring of points (nginx, ketama, HAProxy, Envoy's
/// ring, Cassandra, groupcache, ingress-nginx, twemproxy): drawn as virtual nodes, diffed
/// arc by arc, one lookup in the sorted points per key, its keys hashed the system's way.
pub const fn ring_spec(
    id: &'static str,
    knobs: Knobs,
    moves: Moves,
    key_hash: KeyHash,
    check: fn(&Check<'_>) -> Result<(), Problem>,
    build: fn(&Build<'_>) -> Result<Rc<dyn Placement>, Problem>,
) -> Spec {
    Spec {
        id,
        knobs,
        shape: Shape::Vnodes,
        memory: Memory::Nothing,
        moves,
        over_ring: None,
        table_fill: None,
        arcs: true,
        scores_every_server: false,
        key_value: None,
        key_hash: Some(key_hash),
        cost: lookup_cost,
        check,
        build,
    }
}

/// One lookup in a sorted table per key.
pub fn lookup_cost(_: &CostInput) -> usize {
    LOOKUP_COST
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let p = &b.params;
    let points = ring_vnodes(&b.live, p.vnodes, p.label, p.hash)?;
    Ok(Rc::new(Ring::new(points, &|id| b.name_of(id))))
}

/// Every server gets at least one vnode, the ring stays within [`MAX_TOTAL_VNODES`], and a
/// label without `{i}` is refused when a server would have several vnodes (they would all
/// land on one spot).
pub fn check_vnodes(c: &Check<'_>) -> Result<(), Problem> {
    let vnodes = c.params.vnodes;
    if let Some((name, weight)) = c.servers.iter().find(|(_, w)| f64::from(vnodes) * w < 0.5) {
        return Err(Problem::NoVnode {
            name: quote(name),
            weight: *weight,
            vnodes,
            min: 0.5 / f64::from(vnodes),
        });
    }
    let total: u64 = c
        .servers
        .iter()
        .map(|(_, w)| u64::from(weighted_vnodes(vnodes, *w)))
        .sum();
    if total > MAX_TOTAL_VNODES {
        return Err(Problem::TooManyVnodes {
            total,
            limit: MAX_TOTAL_VNODES,
        });
    }
    let many = c
        .servers
        .iter()
        .any(|(_, w)| weighted_vnodes(vnodes, *w) > 1);
    if many && !c.params.label.has_index() {
        return Err(Problem::LabelNeedsIndex {
            given: quote(c.params.label.as_str()),
        });
    }
    Ok(())
}

/// The consistent-hash ring.
impl Placement for Ring {
    fn owner(&self, _key: &str, position: u32) -> crate::engine::ring::ServerId {
        self.owner_of(position)
    }

    fn explain(&self, _key: &str, position: u32) -> Explanation {
        let point = self.successor(position).copied();
        Explanation {
            position,
            owner: point.map_or(NO_OWNER, |p| p.server),
            how: How::FirstPointClockwise { point },
        }
    }

    fn ring(&self) -> Option<&Ring> {
        Some(self)
    }

    fn memory_bytes(&self) -> usize {
        Ring::memory_bytes(self)
    }
}

/// The vnodes of the consistent-hash ring for the given live servers.
pub fn ring_vnodes(
    servers: &[LiveServer],
    vnodes: u32,
    label: &LabelTemplate,
    hash: HashFn,
) -> Result<Vec<VNode>, Problem> {
    let mut out = Vec::new();
    for s in servers {
        for i in 0..weighted_vnodes(vnodes, s.weight) {
            let text = label.render(&s.name, i);
            let position = hash
                .position(&text)
                .map_err(|e| Problem::from(e).of(Field::Label))?;
            out.push(VNode {
                position,
                server: s.id,
                replica: i,
            });
        }
    }
    Ok(out)
}
