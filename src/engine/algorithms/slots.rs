//! Redis Cluster's 16384 hash slots: a key's slot is CRC16 of the key (or of its `{hash
//! tag}`) mod 16384, and the slot table says which master serves it. The table is state
//! that the scenario keeps from change to change ([`crate::engine::slots::SlotTable`]:
//! created and rebalanced as `redis-cli --cluster` does); this file draws its live ranges
//! as a ring of boundary points, so a change is diffed arc by arc like the ring's.

use std::rc::Rc;

use crate::engine::contract::{Explanation, How, Placement};
use crate::engine::hash::redis_hash_tag;
use crate::engine::ring::{Ring, ServerId, NO_OWNER};
use crate::engine::slots::{SlotTable, SLOT_SHIFT};
use crate::engine::spec::{no_check, Build, Knobs, Memory, Moves, Shape, Spec};

/// The registry's entry. Source: Redis Cluster.
pub static SPEC: Spec = Spec {
    id: "slots",
    knobs: Knobs {
        weights: true,
        ..Knobs::NONE
    },
    shape: Shape::SlotRanges,
    memory: Memory::SlotTable,
    moves: Moves::Minimal,
    over_ring: None,
    table_fill: None,
    arcs: true,
    scores_every_server: false,
    key_value: None,
    key_hash: None,
    cost: super::ring::lookup_cost,
    check: no_check,
    build,
};

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, crate::problem::Problem> {
    let table = b.slots.ok_or(crate::problem::Problem::Internal(
        "slots placement needs a slot table",
    ))?;
    let points = table.boundaries(|id| b.live.iter().any(|s| s.id == id));
    Ok(Rc::new(SlotRing {
        ring: Ring::new(points, &|id| b.name_of(id)),
        table: table.clone(),
    }))
}

/// Redis Cluster's slots: the slot table's live ranges drawn as a [`Ring`] (one point at
/// the end of each range), plus the table itself to name a slot's master.
pub struct SlotRing {
    /// The live ranges as ring points.
    pub ring: Ring,
    /// Who serves each slot.
    pub table: SlotTable,
}

impl Placement for SlotRing {
    fn owner(&self, _key: &str, position: u32) -> ServerId {
        self.ring.owner_of(position)
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        let slot = (position >> SLOT_SHIFT) as u16;
        let tag = redis_hash_tag(key.as_bytes());
        let point = self.ring.successor(position).copied();
        Explanation {
            position,
            owner: point.map_or(NO_OWNER, |p| p.server),
            how: How::Slot {
                slot,
                hash_tag: (tag.len() < key.len()).then(|| String::from_utf8_lossy(tag).into()),
                master: self.table.owner(slot),
                point,
            },
        }
    }

    fn ring(&self) -> Option<&Ring> {
        Some(&self.ring)
    }

    fn memory_bytes(&self) -> usize {
        self.ring.memory_bytes() + self.table.memory_bytes()
    }
}
