//! Maglev hashing: Daniel E. Eisenbud et al., "Maglev: A Fast and Reliable Software Network
//! Load Balancer" (NSDI 2016), §3.4, Pseudocode 1.
//!
//! Every live server `i` has a permutation of the table's `M` cells, `offset_i + j·skip_i
//! mod M` with `offset = h1(name) mod M` and `skip = h2(name) mod (M − 1) + 1`; the servers
//! take turns claiming their next free preferred cell until the table is full, so each owns
//! ⌊M/N⌋ or ⌈M/N⌉ cells. A key's owner is `table[hash(key) mod M]`. `M` must be prime (so
//! every skip walks every cell); the paper uses 65537 for small clusters.
//!
//! Choices the paper leaves open: `h1` and `h2` are xxh3-64 of the server name with seeds 1
//! and 2, and a key's hash is its xxh3-64 (its integer value under the identity hash).
//! Servers take turns in list order.
//!
//! The picture: the table is laid round the circle, cell `c` covering `[c·2³²/M,
//! (c+1)·2³²/M)`, and a key is drawn inside its own cell ([`cell_position`]), so the ring of
//! cell ends ([`Maglev::ring`]) owns exactly the keys the table does — and a change is
//! diffed cell by cell, like the ring's arcs.

use crate::engine::contract::{Explanation, How, LiveServer, Placement, TableFill};
use crate::engine::hash::key_digest;
use crate::engine::hash::HashFn;
use crate::engine::ring::{Ring, ServerId, VNode, NO_OWNER};
use crate::engine::spec::{Build, Check, Knobs, Memory, Moves, Params, Shape, Spec};
use crate::problem::Problem;
use std::rc::Rc;

/// The registry's entry. Source: Eisenbud et al. 2016.
pub static SPEC: Spec = Spec {
    id: "maglev",
    knobs: Knobs {
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
    key_hash: None,
    cost: super::jump::key_cost,
    check,
    build,
};

/// `size` when it is a table size Maglev takes: a prime up to its largest.
pub fn check_table(size: u32) -> Result<u32, Problem> {
    if size <= MAX_TABLE && is_prime(size) {
        Ok(size)
    } else {
        Err(Problem::TableNotPrime {
            given: crate::text::quote(&size.to_string()),
            max: MAX_TABLE,
        })
    }
}

/// A table's size is a prime, and it holds at least as many cells as there are servers.
pub fn check(c: &Check<'_>) -> Result<(), Problem> {
    check_table(c.params.table)?;
    if c.servers.len() > c.params.table as usize {
        return Err(Problem::MaglevTable {
            table: c.params.table,
            servers: c.servers.len(),
        });
    }
    Ok(())
}

/// Cost of claiming one Maglev cell (a few probes of its permutation), in the work's units:
/// a table of a million cells takes 60 ms natively, filled whole (at 2 a cell, one step
/// filled it and held the page for 86 ms; tests/perf/compare_tables.mjs).
pub const CELL_COST: usize = 4;

/// The paper's fill over the live servers in list order, empty.
fn fill(live: &[LiveServer], _down: &[LiveServer], p: &Params<'_>) -> Box<dyn TableFill> {
    let servers: Vec<(ServerId, &str)> = live.iter().map(|s| (s.id, s.name.as_str())).collect();
    Box::new(MaglevFill::new(&servers, p.table, p.hash))
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    Ok(filled(fill(&b.live, &b.down, &b.params)))
}

/// The placement over a table filled to the end at once.
pub fn filled(mut fill: Box<dyn TableFill>) -> Rc<dyn Placement> {
    fill.claim(usize::MAX);
    fill.finish()
}

/// The table size on the command line (the paper's small-cluster size).
pub const DEFAULT_TABLE: u32 = 65537;
/// The table size on the page: small enough to draw cell by cell.
pub const PAGE_TABLE: u32 = 251;
/// The largest table a scenario may ask for.
pub const MAX_TABLE: u32 = 1_000_003;

/// True when `n` is prime (trial division; tables are at most [`MAX_TABLE`]).
pub fn is_prime(n: u32) -> bool {
    if n < 2 {
        return false;
    }
    let mut d = 2u32;
    while d.saturating_mul(d) <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

/// Where cell `cell` of a table of `size` cells starts on the circle.
fn cell_start(cell: u64, size: u64) -> u64 {
    (cell << 32) / size
}

/// A table's cells round the circle: a point at the end of each cell, owned by its holder
/// (no points when no cell has one).
pub fn cell_ring(table: &[ServerId]) -> Ring {
    let m = table.len() as u64;
    let points = if table.iter().all(|&s| s == NO_OWNER) {
        Vec::new()
    } else {
        table
            .iter()
            .enumerate()
            .map(|(c, &server)| VNode {
                position: (cell_start(c as u64 + 1, m) - 1) as u32,
                server,
                replica: c as u32,
            })
            .collect()
    };
    Ring::new(points, &|_| "")
}

/// The ring position at which a key in `cell` of a table of `size` cells is drawn, spread
/// within the cell by `spread`.
pub fn position_in_cell(cell: u64, size: u32, spread: u64) -> u32 {
    let size = u64::from(size);
    let (lo, hi) = (cell_start(cell, size), cell_start(cell + 1, size));
    (lo + spread % (hi - lo).max(1)) as u32
}

/// The ring position at which a key with this digest is drawn: inside its cell
/// (`digest mod size`), spread within the cell by the rest of the digest.
pub fn cell_position(digest: u64, size: u32) -> u32 {
    let cells = u64::from(size);
    position_in_cell(digest % cells, size, digest / cells)
}

/// Pseudocode 1 as work that can stop and go on: each server's preferences, the next one
/// it tries, whose turn it is and the cells claimed so far — and, for Envoy's weighted
/// rounds, each server's share of the weight and the target its claims have reached.
/// [`Maglev::new`] runs it to the end at once; the simulation fills a table of a million
/// cells a step at a time, so the page is never blocked for the whole fill.
#[derive(Clone, Debug)]
pub struct MaglevFill {
    ids: Vec<ServerId>,
    /// (offset, skip) of each server's permutation.
    prefs: Vec<(u64, u64)>,
    /// How far down its permutation each server is.
    next: Vec<u64>,
    /// Envoy's weighted rounds: each server's (share of the weight, target), and the
    /// largest share; empty for the paper's turns, where every server claims every turn.
    shares: Vec<(f64, f64)>,
    largest: f64,
    /// The round (Envoy's, from 1): it grows when the last server has had its turn.
    round: u32,
    table: Vec<ServerId>,
    filled: usize,
    /// The server whose turn it is.
    turn: usize,
    /// How a key's digest is taken (the scenario's hash; Envoy's XXH64), and the hash.
    digest: fn(HashFn, &str) -> u64,
    hash: HashFn,
}

impl MaglevFill {
    /// A table of `size` cells (prime) for the servers `(id, name)` in list order, empty:
    /// the paper's turns, keys looked up by the scenario's `hash`.
    pub fn new(servers: &[(ServerId, &str)], size: u32, hash: HashFn) -> MaglevFill {
        let prefs: Vec<(ServerId, u64, u64)> = servers
            .iter()
            .map(|(id, name)| {
                let h1 = xxhash_rust::xxh3::xxh3_64_with_seed(name.as_bytes(), 1);
                let h2 = xxhash_rust::xxh3::xxh3_64_with_seed(name.as_bytes(), 2);
                (*id, h1, h2)
            })
            .collect();
        MaglevFill::of(&prefs, size, &[], key_digest, hash)
    }

    /// A table of `size` cells for servers `(id, h1, h2)` taking turns in that order, with
    /// Envoy's weighted rounds when `weights` has one weight per server, keys looked up by
    /// `digest`.
    pub fn of(
        servers: &[(ServerId, u64, u64)],
        size: u32,
        weights: &[f64],
        digest: fn(HashFn, &str) -> u64,
        hash: HashFn,
    ) -> MaglevFill {
        let m = u64::from(size);
        let sum: f64 = weights.iter().sum();
        let shares: Vec<(f64, f64)> = weights.iter().map(|w| (w / sum, 0.0)).collect();
        MaglevFill {
            ids: servers.iter().map(|s| s.0).collect(),
            prefs: servers
                .iter()
                .map(|&(_, h1, h2)| (h1 % m, h2 % (m - 1).max(1) + 1))
                .collect(),
            next: vec![0; servers.len()],
            largest: shares.iter().map(|s| s.0).fold(0.0, f64::max),
            shares,
            round: 1,
            table: vec![NO_OWNER; size as usize],
            filled: 0,
            turn: 0,
            digest,
            hash,
        }
    }

    /// Lets the servers claim up to `cells` more cells, taking turns in list order (a
    /// server whose weighted round has not come passes its turn).
    pub fn claim(&mut self, cells: usize) {
        let m = self.table.len() as u64;
        let mut left = cells;
        while left > 0 && !self.is_full() {
            let i = self.turn;
            self.turn = (i + 1) % self.ids.len();
            let round = self.round;
            if self.turn == 0 {
                self.round += 1;
            }
            if let Some((share, target)) = self.shares.get_mut(i) {
                if f64::from(round) * *share < *target {
                    continue;
                }
                *target += self.largest;
            }
            let (offset, skip) = self.prefs[i];
            let mut c = (offset + self.next[i] * skip) % m;
            while self.table[c as usize] != NO_OWNER {
                self.next[i] += 1;
                c = (offset + self.next[i] * skip) % m;
            }
            self.table[c as usize] = self.ids[i];
            self.next[i] += 1;
            self.filled += 1;
            left -= 1;
        }
    }

    /// True when every cell has its server (at once for no servers: the table stays empty).
    pub fn is_full(&self) -> bool {
        self.ids.is_empty() || self.filled == self.table.len()
    }

    /// The table, filled or not.
    pub fn into_table(mut self) -> Vec<ServerId> {
        std::mem::take(&mut self.table)
    }
}

impl TableFill for MaglevFill {
    fn claim(&mut self, cells: usize) {
        MaglevFill::claim(self, cells);
    }

    fn progress(&self) -> (usize, usize) {
        (self.filled, self.table.len())
    }

    fn cell_cost(&self) -> usize {
        CELL_COST
    }

    fn is_full(&self) -> bool {
        MaglevFill::is_full(self)
    }

    fn boxed(&self) -> Box<dyn TableFill> {
        Box::new(self.clone())
    }

    fn finish(&mut self) -> Rc<dyn Placement> {
        Rc::new(Maglev::from_table(
            std::mem::take(&mut self.table),
            self.hash,
            self.digest,
        ))
    }
}

/// The Maglev lookup table over live servers.
pub struct Maglev {
    /// Owner of each cell.
    pub table: Vec<ServerId>,
    /// Which digest the keys get.
    pub hash: HashFn,
    /// The table round the circle: a point at the end of each cell, owned by its server.
    ring: Ring,
    /// The 64-bit digest a key is looked up by (the scenario's; Envoy's XXH64).
    digest: fn(HashFn, &str) -> u64,
}

impl Maglev {
    /// Fills a table of `size` cells (prime) for the servers `(id, name)` in list order —
    /// Pseudocode 1 of the paper, all at once.
    pub fn new(servers: &[(ServerId, &str)], size: u32, hash: HashFn) -> Maglev {
        let mut fill = MaglevFill::new(servers, size, hash);
        fill.claim(usize::MAX);
        Maglev::from_table(fill.into_table(), hash, key_digest)
    }

    /// A filled `table` (its length the size), keys looked up by `digest`.
    pub fn from_table(
        table: Vec<ServerId>,
        hash: HashFn,
        digest: fn(HashFn, &str) -> u64,
    ) -> Maglev {
        Maglev {
            ring: cell_ring(&table),
            table,
            hash,
            digest,
        }
    }

    /// The cell a key falls in.
    pub fn cell(&self, key: &str) -> u32 {
        ((self.digest)(self.hash, key) % self.table.len() as u64) as u32
    }
}

impl Placement for Maglev {
    fn memory_bytes(&self) -> usize {
        self.table.len() * std::mem::size_of::<ServerId>()
    }

    fn owner(&self, key: &str, _position: u32) -> ServerId {
        self.table[self.cell(key) as usize]
    }

    fn ring(&self) -> Option<&Ring> {
        Some(&self.ring).filter(|r| !r.is_empty())
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        let cell = self.cell(key);
        Explanation {
            position,
            owner: self.table[cell as usize],
            how: How::TableCell {
                cell,
                size: self.table.len() as u32,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("backend-{i}")).collect()
    }

    fn build(names: &[String], size: u32) -> Maglev {
        let servers: Vec<(ServerId, &str)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (i as ServerId, n.as_str()))
            .collect();
        Maglev::new(&servers, size, HashFn::Xxh3)
    }

    #[test]
    fn a_table_filled_in_steps_is_the_table_filled_at_once() {
        let names: Vec<String> = (0..7).map(|i| format!("s{i}")).collect();
        let servers: Vec<(ServerId, &str)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (i as ServerId, n.as_str()))
            .collect();
        let once = Maglev::new(&servers, 65537, HashFn::Xxh3).table;
        for step in [1, 2, 7, 1000, 65536] {
            let mut fill = MaglevFill::new(&servers, 65537, HashFn::Xxh3);
            while !fill.is_full() {
                fill.claim(step);
            }
            assert_eq!(fill.into_table(), once, "steps of {step}");
        }
        assert!(MaglevFill::new(&[], 251, HashFn::Xxh3).is_full());
    }

    #[test]
    fn every_server_owns_its_share_of_cells_give_or_take_one() {
        for n in [1usize, 3, 7, 100] {
            let m = build(&names(n), DEFAULT_TABLE);
            let mut counts = vec![0u32; n];
            for &owner in &m.table {
                counts[usize::from(owner)] += 1;
            }
            let (lo, hi) = (DEFAULT_TABLE / n as u32, DEFAULT_TABLE.div_ceil(n as u32));
            assert!(
                counts.iter().all(|&c| c == lo || c == hi),
                "{n}: {counts:?}"
            );
        }
    }

    #[test]
    fn removing_one_backend_keeps_most_cells() {
        // The paper's Figure 12: with M = 65537, removing one backend of 1000 disrupts
        // few of the other cells. Here: 100 backends, one removed.
        let all = names(100);
        let before = build(&all, DEFAULT_TABLE);
        let after = build(&all[1..], DEFAULT_TABLE);
        let moved = before
            .table
            .iter()
            .zip(&after.table)
            .filter(|(b, a)| **b != 0 && **b != **a + 1)
            .count();
        let share = moved as f64 / f64::from(DEFAULT_TABLE);
        assert!(share < 0.02, "{share}");
    }

    #[test]
    fn a_key_is_drawn_inside_its_cell() {
        let m = build(&names(3), PAGE_TABLE);
        for digest in [0u64, 1, 250, 251, 0xDEAD_BEEF, u64::MAX] {
            let cell = (digest % u64::from(PAGE_TABLE)) as usize;
            let at = cell_position(digest, PAGE_TABLE);
            assert_eq!(m.ring.owner_of(at), m.table[cell], "{digest}");
            assert_eq!(m.ring.successor(at).unwrap().replica as usize, cell);
        }
    }

    #[test]
    fn primes() {
        assert!(is_prime(65537) && is_prime(251) && is_prime(2) && is_prime(1_000_003));
        assert!(!is_prime(1) && !is_prime(65536) && !is_prime(255));
    }
}
