//! `hash(key) mod N` over the live servers in list order: seed 000's counter-example.
//! Perfectly balanced for a uniform hash, and almost every key moves when `N` changes
//! (only the keys with `h mod N = h mod (N ± 1)` stay).

use std::rc::Rc;

use crate::engine::contract::{Explanation, How, Placement};
use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::spec::{no_check, Build, Knobs, Memory, Moves, Shape, Spec};

/// The registry's entry. Source: seed 000.
pub static SPEC: Spec = Spec {
    id: "modn",
    knobs: Knobs {
        hash: true,
        ..Knobs::NONE
    },
    shape: Shape::Fans,
    memory: Memory::Nothing,
    moves: Moves::Remaps,
    over_ring: None,
    table_fill: None,
    arcs: false,
    scores_every_server: false,
    key_value: None,
    key_hash: None,
    cost: super::ring::lookup_cost,
    check: no_check,
    build,
};

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, crate::problem::Problem> {
    Ok(Rc::new(ModN { servers: b.ids() }))
}

/// `position mod N` over the live servers in list order.
pub struct ModN {
    /// Live server ids in list order.
    pub servers: Vec<ServerId>,
}

impl Placement for ModN {
    fn owner(&self, _key: &str, position: u32) -> ServerId {
        if self.servers.is_empty() {
            return NO_OWNER;
        }
        self.servers[position as usize % self.servers.len()]
    }

    fn needs_key_name(&self) -> bool {
        false
    }

    fn memory_bytes(&self) -> usize {
        self.servers.len() * std::mem::size_of::<ServerId>()
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        Explanation {
            position,
            owner: self.owner(key, position),
            how: How::Modulo {
                value: position,
                live: self.servers.clone(),
            },
        }
    }
}
