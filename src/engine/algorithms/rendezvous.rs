//! Rendezvous or highest-random-weight hashing (Thaler & Ravishankar 1998): every live
//! server scores a key with `hash(server + key)` and the highest wins; weighted servers
//! score `−weight / ln u` (Schindelhauer & Schomaker's logarithmic method). A new server
//! takes only the keys it now wins. The scoring is shared with CARP in
//! [`crate::engine::scorers`].

use std::rc::Rc;

use crate::engine::contract::Placement;
use crate::engine::hash::HashFn;
use crate::engine::scorers::{HighestRandomWeight, Scorers};
use crate::engine::spec::{
    Build, Check, CostInput, Knobs, Memory, Moves, Shape, Spec, NAME_COST, SCORE_COST,
};
use crate::problem::Problem;

/// The registry's entry. Source: Thaler & Ravishankar 1998.
pub static SPEC: Spec = Spec {
    id: "rendezvous",
    knobs: Knobs {
        weights: true,
        hash: true,
        ..Knobs::NONE
    },
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
    check,
    build,
};

fn cost(c: &CostInput) -> usize {
    NAME_COST + SCORE_COST * c.live
}

fn check(c: &Check<'_>) -> Result<(), Problem> {
    if c.params.hash == HashFn::Identity {
        return Err(Problem::RendezvousIdentity);
    }
    Ok(())
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let weighted = b.live.iter().any(|s| s.weight != 1.0);
    let hash = b.params.hash;
    Ok(Rc::new(Scorers::new(
        b.live.clone(),
        HighestRandomWeight { hash, weighted },
    )))
}
