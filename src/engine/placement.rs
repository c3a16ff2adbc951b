//! The builder: the [`Placement`] a scenario's settings ask for, over its live servers.
//!
//! The layers of the engine's placement code, bottom up: [`super::contract`] (what a
//! placement promises, and how it explains an answer), [`super::spec`] (what the registry
//! says about an algorithm), the algorithms in [`super::algorithms`] (one file each, with
//! its registry entry, none knowing the others' list) and their registry, and this
//! builder, which turns a scenario's settings into the entry's build. The ring and Redis
//! slots are drawn as a ring of boundary points ([`Ring`]), which lets the simulation
//! update incrementally from the arcs that changed; the others are recomputed key by key.
//! The contract's types are re-exported here for the code above the engine.

use std::rc::Rc;

pub use super::algorithms::bounded::Bounded;
pub use super::algorithms::modn::ModN;
pub use super::algorithms::ring::ring_vnodes;
pub use super::algorithms::slots::SlotRing;
pub use super::algorithms::{weighted_vnodes, Algorithm, LabelTemplate, Shape};
use super::book::BucketBook;
pub use super::contract::{Explanation, How, LiveServer, Placement};
use super::scenario::Settings;
use super::slots::{SlotTable, SLOT_SHIFT};
use super::spec::{Build, CostInput};
use super::tokens::TokenMap;
use crate::problem::Problem;

/// The cost of assigning one key an owner under `settings` with `live` servers up (at
/// least 1) and a bucket book of `book_capacity` buckets.
pub fn cost_per_key(settings: &Settings, live: usize, book_capacity: usize) -> usize {
    (settings.algo.spec().cost)(&CostInput {
        live: live.max(1),
        probes: settings.probes,
        book_capacity,
    })
}

/// The ring position of a key: its hash (the system's own when it has one), except under `slots`, where the top 14 bits are
/// the key's Redis slot (so slot ranges are arcs) and the rest spreads keys inside it, and
/// under Maglev, where the key sits inside its table cell.
pub fn key_position(settings: &Settings, key: &str) -> Result<u32, super::hash::HashError> {
    if let Some(own) = settings.algo.spec().key_hash {
        return Ok((own.hash)(key, &settings.params()));
    }
    let h = match settings.hash.position(key) {
        Ok(h) => h,
        Err(e) if settings.hash == super::hash::HashFn::Identity && by_value(settings) => {
            // jump's family and Maglev place by the key's 64-bit value, so under the identity
            // hash they take the 64-bit keys jump-consistent-hash's users pass; the dot sits
            // at the value folded to 32 bits.
            let value = key
                .parse::<u64>()
                .ok()
                .filter(|_| key.bytes().all(|b| b.is_ascii_digit()))
                .ok_or(super::hash::HashError { max: u64::MAX, ..e })?;
            (value ^ (value >> 32)) as u32
        }
        Err(e) => return Err(e),
    };
    Ok(match settings.algo.shape() {
        Shape::SlotRanges => {
            (u32::from(super::hash::redis_slot(key)) << SLOT_SHIFT) | (h & ((1 << SLOT_SHIFT) - 1))
        }
        Shape::TableCells => super::algorithms::maglev::cell_position(
            super::hash::key_digest(settings.hash, key),
            settings.table,
        ),
        _ => h,
    })
}

/// Whether the algorithm places a key by its 64-bit digest ([`super::hash::key_digest`]) or by
/// its name, not by its 32-bit ring position: the bucket algorithms and scorers (drawn as
/// fans) and the lookup tables — all but mod-N, which takes the position mod N.
fn by_value(settings: &Settings) -> bool {
    matches!(settings.algo.shape(), Shape::Fans | Shape::TableCells)
        && settings.algo.name() != "modn"
}

/// What the key layout depends on besides the keys and the hash: slots and Maglev (with
/// its table size) place keys by their own rule. A change of layout rehashes the keys.
pub fn key_layout(settings: &Settings) -> (Shape, u32) {
    match settings.algo.shape() {
        Shape::SlotRanges => (Shape::SlotRanges, 0),
        Shape::TableCells if settings.algo.spec().knobs.pg_num => {
            (Shape::TableCells, settings.pg_num)
        }
        Shape::TableCells => (Shape::TableCells, settings.table),
        _ => (Shape::Vnodes, 0),
    }
}

/// Builds the placement for `settings.algo` over `live` servers (`down` ones beside them);
/// `slots` is the slot table
/// (for slots) and `book` the bucket book (for Anchor, Memento and Dx).
pub fn build_placement(
    settings: &Settings,
    live: Vec<LiveServer>,
    down: Vec<LiveServer>,
    slots: Option<&SlotTable>,
    book: Option<&BucketBook>,
    tokens: Option<&TokenMap>,
) -> Result<Rc<dyn Placement>, Problem> {
    (settings.algo.spec().build)(&Build {
        params: settings.params(),
        live,
        down,
        slots,
        book,
        tokens,
    })
}
