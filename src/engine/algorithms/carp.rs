//! Seed 004's CARP (the Cache Array Routing Protocol as the seed's Java writes it): every
//! live server scores a key with the MD5 digest of `server + key`, and the smallest digest
//! wins. Weights are not used (the seed has none). The scoring is shared with rendezvous
//! in [`crate::engine::scorers`].

use std::rc::Rc;

use crate::engine::contract::Placement;
use crate::engine::scorers::{CarpScore, Scorers};
use crate::engine::spec::{
    no_check, Build, CostInput, Knobs, Memory, Moves, Shape, Spec, DIGEST_COST, NAME_COST,
};

/// The registry's entry. Source: seed 004 (CARP, Valloppillil & Ross 1998).
pub static SPEC: Spec = Spec {
    id: "carp",
    knobs: Knobs::NONE,
    shape: Shape::Fans,
    memory: Memory::Nothing,
    moves: Moves::Minimal,
    over_ring: None,
    table_fill: None,
    arcs: false,
    scores_every_server: true,
    key_value: None,
    key_hash: None,
    cost,
    check: no_check,
    build,
};

fn cost(c: &CostInput) -> usize {
    NAME_COST + DIGEST_COST * c.live
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, crate::problem::Problem> {
    Ok(Rc::new(Scorers::new(b.live.clone(), CarpScore)))
}
