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
use super::maglev::{cell_position, Maglev};
use crate::engine::contract::Placement;
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

/// Envoy's table of `size` cells for `(name, weight)` hosts: each cell's host index.
pub fn build_table(hosts: &[(&str, f64)], size: u64) -> Vec<usize> {
    let mut table = vec![usize::MAX; size as usize];
    let sum: f64 = hosts.iter().map(|h| h.1).sum();
    if hosts.is_empty() || sum <= 0.0 || size < 2 {
        return table;
    }
    // Sorted by name; the host's index in `hosts` is what a cell holds.
    let mut order: Vec<usize> = (0..hosts.len()).collect();
    crate::engine::order::sort_by(&mut order, |&a, &b| hosts[a].0.cmp(hosts[b].0));
    struct Entry {
        host: usize,
        offset: u64,
        skip: u64,
        weight: f64,
        target: f64,
        next: u64,
    }
    let mut entries: Vec<Entry> = order
        .into_iter()
        .map(|host| {
            let name = hosts[host].0.as_bytes();
            Entry {
                host,
                offset: xxhash_rust::xxh64::xxh64(name, 0) % size,
                skip: xxhash_rust::xxh64::xxh64(name, 1) % (size - 1) + 1,
                weight: hosts[host].1 / sum,
                target: 0.0,
                next: 0,
            }
        })
        .collect();
    let max_weight = entries.iter().map(|e| e.weight).fold(0.0, f64::max);
    let mut filled = 0u64;
    let mut round = 1u32;
    while filled < size {
        for e in entries.iter_mut() {
            if filled >= size {
                break;
            }
            if f64::from(round) * e.weight < e.target {
                continue;
            }
            e.target += max_weight;
            let mut c = (e.offset + e.skip * e.next) % size;
            while table[c as usize] != usize::MAX {
                e.next += 1;
                c = (e.offset + e.skip * e.next) % size;
            }
            table[c as usize] = e.host;
            e.next += 1;
            filled += 1;
        }
        round += 1;
    }
    table
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    let hosts: Vec<(&str, f64)> = b.live.iter().map(|s| (s.name.as_str(), s.weight)).collect();
    let table: Vec<ServerId> = build_table(&hosts, u64::from(b.params.table))
        .into_iter()
        .map(|i| {
            b.live
                .get(i)
                .map_or(crate::engine::ring::NO_OWNER, |s| s.id)
        })
        .collect();
    Ok(Rc::new(Maglev::from_table(
        table,
        b.params.hash,
        key_digest,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

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
