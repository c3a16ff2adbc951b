//! Envoy's `maglev` load balancer (`source/extensions/load_balancing_policies/maglev/
//! maglev_lb.cc`: `MaglevTable::constructMaglevTableInternal`,
//! `OriginalMaglevTable::constructImplementationInternals`, `chooseHost`), bit for bit.
//!
//! - Hosts are **sorted by name** (the `hash_key`, hostname or `ip:port` they hash under), so
//!   the table does not depend on the order Envoy learned them in.
//! - A host's permutation: `offset = XXH64(name, 0) mod M`, `skip = XXH64(name, 1) mod (M − 1)
//!   + 1`; `M` is the table size (a prime; Envoy's default 65,537).
//! - Weighted rounds: in round `r = 1, 2, …` a host of normalized weight `w` takes its next
//!   free cell when `r × w ≥ target`, and its target grows by the largest normalized weight
//!   each time — a host with half the largest weight fills a cell every other round.
//! - A request goes to cell `XXH64(value) mod M`.
//!
//! Checked against the tables in Envoy's own `maglev_lb_test.cc` (`Basic`: six hosts,
//! `M = 7`; `Weighted`: weights 1 and 2, `M = 17`).

use std::rc::Rc;

use super::envoy_ring::xxh64;
use super::maglev::{cell_position, filled, MaglevFill};
use crate::engine::contract::{LiveServer, Placement, TableFill};
use crate::engine::hash::HashFn;
use crate::engine::ring::ServerId;
use crate::engine::spec::{Build, KeyHash, Knobs, Memory, Moves, Params, Shape, Spec};
use crate::problem::Problem;

/// The registry's entry. Source: Envoy maglev_lb.cc: hosts sorted by name, XXH64 permutations, weighted rounds.
pub static SPEC: Spec = Spec {
    id: "envoy-maglev",
    knobs: Knobs {
        weights: true,
        table: true,
        ..Knobs::NONE
    },
    shape: Shape::TableCells,
    memory: Memory::Nothing,
    moves: Moves::Remaps,
    over_ring: None,
    table_fill: Some(fill),
    arcs: true,
    scores_every_server: false,
    key_value: None,
    key_hash: Some(KeyHash {
        name: "xxh64",
        hash: key_cell_position,
    }),
    cost: super::jump::key_cost,
    check: super::maglev::check,
    build,
};

/// Where a key is drawn: inside its cell, `XXH64(key) mod M`.
fn key_cell_position(key: &str, params: &Params<'_>) -> u32 {
    cell_position(xxh64(key), params.table)
}

/// The XXH64 digest a key is looked up by.
fn key_digest(_: HashFn, key: &str) -> u64 {
    xxh64(key)
}

/// Envoy's fill over the live servers: hosts sorted by name, each with its XXH64
/// permutation and its share of the weight (weighted rounds), keys looked up by XXH64.
fn fill(live: &[LiveServer], _down: &[LiveServer], p: &Params<'_>) -> Box<dyn TableFill> {
    let mut hosts: Vec<&LiveServer> = live.iter().collect();
    crate::engine::order::sort_by(&mut hosts, |a, b| a.name.cmp(&b.name));
    let servers: Vec<(ServerId, u64, u64)> = hosts
        .iter()
        .map(|h| {
            let name = h.name.as_bytes();
            (
                h.id,
                xxhash_rust::xxh64::xxh64(name, 0),
                xxhash_rust::xxh64::xxh64(name, 1),
            )
        })
        .collect();
    let weights: Vec<f64> = hosts.iter().map(|h| h.weight).collect();
    Box::new(MaglevFill::of(
        &servers, p.table, &weights, key_digest, p.hash,
    ))
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    Ok(filled(fill(&b.live, &b.down, &b.params)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Settings;

    /// Envoy's table of `size` cells for `(name, weight)` hosts: each cell's host index.
    fn build_table(hosts: &[(&str, f64)], size: u32) -> Vec<usize> {
        let live: Vec<LiveServer> = hosts
            .iter()
            .enumerate()
            .map(|(i, &(name, weight))| LiveServer {
                id: i as ServerId,
                name: name.into(),
                weight,
                slot: i as u32,
            })
            .collect();
        let settings = Settings {
            table: size,
            ..Settings::default()
        };
        let mut fill = fill(&live, &[], &settings.params());
        fill.claim(usize::MAX);
        let placement = fill.finish();
        let ring = placement.ring().unwrap();
        (0..size)
            .map(|c| {
                let end = ((u64::from(c + 1) << 32) / u64::from(size) - 1) as u32;
                usize::from(ring.owner_of(end))
            })
            .collect()
    }

    #[test]
    fn equals_envoys_own_tables() {
        // Basic: hosts :90 … :95, M = 7 → 92, 94, 90, 91, 95, 90, 93.
        let names: Vec<String> = (90..96).map(|p| format!("127.0.0.1:{p}")).collect();
        let hosts: Vec<(&str, f64)> = names.iter().map(|n| (n.as_str(), 1.0)).collect();
        let table: Vec<usize> = build_table(&hosts, 7).iter().map(|&i| 90 + i).collect();
        assert_eq!(table, [92, 94, 90, 91, 95, 90, 93]);
        // Weighted: :90 weight 1, :91 weight 2, M = 17 → 6 and 11 cells.
        let weighted = build_table(&[("127.0.0.1:90", 1.0), ("127.0.0.1:91", 2.0)], 17);
        let count = |i: usize| weighted.iter().filter(|&&h| h == i).count();
        assert_eq!((count(0), count(1)), (6, 11));
    }
}
