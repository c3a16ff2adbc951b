//! Ceph's placement of an object, bit for bit with Ceph 16.2 (`osdmaptool
//! --test-map-object`): two levels, object → placement group → OSD.
//!
//! 1. **Object → PG.** The object's name is hashed with Jenkins' string hash
//!    (`ceph_str_hash_rjenkins`, `src/common/ceph_hash.cc`), and the hash is folded onto the
//!    pool's `pg_num` groups by `ceph_stable_mod`: `x & mask` when that is below `pg_num`,
//!    else `x & (mask >> 1)` — so `pg_num` need not be a power of two, and raising it by one
//!    splits one group, moving half of its objects and no others.
//! 2. **PG → OSD.** The group's seed (`crush_hash32_2(pg, pool)`, the pool's `hashpspool`
//!    flag) is placed by CRUSH: a flat map (one root bucket holding the OSDs) with a
//!    **straw2** bucket, the rule `choose firstn 0 type osd`, the jewel tunables. Every OSD
//!    draws `ln(u) / weight` with `u` = 16 bits of `crush_hash32_3(seed, osd id, r)`, `ln`
//!    from `crush_ln`'s fixed-point tables and the CRUSH weight in 16.16 fixed point; the
//!    highest draw wins. An OSD marked *out* (our *down*) stays in the bucket and still
//!    draws: when it wins, the win is rejected and the draw repeated with `r + 1` (up to 51
//!    tries) — not the same as CRUSH weight 0, which never wins. The primary (the first of
//!    the acting set) is the owner here; the other replicas are not drawn.
//!
//! 3. **A real cluster's hierarchy.** With a CRUSH layout (`crush=`, read from a pasted
//!    map), the group's acting set is `crush_do_rule` over the hosts, racks and device
//!    classes the map has, with its rule and tunables ([`crate::engine::crush`]): the
//!    replicas land in distinct failure domains, bit for bit with `osdmaptool`. An out OSD is
//!    the OSD map's weight 0 (`is_out`), and the primary is the first of the pool's set.
//!
//! Choices: the pool is pool 1 and `pgp_num = pg_num`; a server named `osd.N` is OSD `N`,
//! any other name gets a fixed id from its name's hash (so a change never renumbers the
//! others). Its shape is the table's cells: each placement group a cell of the circle, in
//! its OSD's colour (with a gap between cells while few are in view), a key inside its
//! group's cell.

use std::cell::RefCell;
use std::rc::Rc;

use super::maglev::{cell_ring, filled, position_in_cell};
use crate::engine::contract::{Explanation, How, LiveServer, Placement, Score, TableFill};
use crate::engine::crush::layout::CrushLayout;
use crate::engine::crush::map::{CrushMap, Step};
use crate::engine::crush::mix;
pub use crate::engine::crush::{crush_ln, crush_weight, hash2, hash3, straw2_draw};
use crate::engine::ring::{Ring, ServerId, NO_OWNER};
use crate::engine::spec::{no_check, Build, KeyHash, Knobs, Memory, Moves, Params, Shape, Spec};
use crate::problem::Problem;

/// The registry's entry. Source: Ceph 16.2 (`src/crush/mapper.c`, `src/common/ceph_hash.cc`,
/// `src/osd/osd_types.cc`).
pub static SPEC: Spec = Spec {
    id: "ceph",
    knobs: Knobs {
        weights: true,
        pg_num: true,
        ..Knobs::NONE
    },
    shape: Shape::TableCells,
    memory: Memory::Nothing,
    moves: Moves::Minimal,
    over_ring: None,
    table_fill: Some(fill),
    arcs: true,
    scores_every_server: false,
    key_value: None,
    key_hash: Some(KeyHash {
        name: "rjenkins",
        hash: key_position,
    }),
    cost: super::ring::lookup_cost,
    check: no_check,
    build,
};

/// A pool's placement groups when none are given (Ceph's `osd_pool_default_pg_num`).
pub const DEFAULT_PG_NUM: u32 = 32;

/// The most placement groups a pool may have here (as many as Maglev's largest table: the
/// page draws one cell per group).
pub const MAX_PG_NUM: u32 = super::maglev::MAX_TABLE;

/// The pool every object is placed in (the first pool `osdmaptool --createsimple` makes).
pub const POOL: u32 = 1;

/// The replicas a pool keeps (Ceph's default `osd_pool_default_size`): the explanation
/// names the other two; placement here is the primary's.
pub const POOL_SIZE: u32 = 3;

/// CRUSH's retries after an out OSD won (`choose_total_tries` 50, plus the first try).
const TRIES: u32 = 51;

/// `ceph_str_hash_rjenkins`: an object name's 32-bit hash.
pub fn str_hash(name: &[u8]) -> u32 {
    let word = |k: &[u8]| {
        let mut w = [0u8; 4];
        w[..k.len()].copy_from_slice(k);
        u32::from_le_bytes(w)
    };
    let (mut a, mut b, mut c) = (0x9e37_79b9u32, 0x9e37_79b9u32, 0u32);
    let mut rest = name;
    while rest.len() >= 12 {
        a = a.wrapping_add(word(&rest[0..4]));
        b = b.wrapping_add(word(&rest[4..8]));
        c = c.wrapping_add(word(&rest[8..12]));
        mix(&mut a, &mut b, &mut c);
        rest = &rest[12..];
    }
    // The last 11 bytes: a, b as whole little-endian words; c's low byte is the length.
    c = c.wrapping_add(name.len() as u32);
    a = a.wrapping_add(word(&rest[..rest.len().min(4)]));
    b = b.wrapping_add(word(&rest[rest.len().min(4)..rest.len().min(8)]));
    c = c.wrapping_add(word(&rest[rest.len().min(8)..]) << 8);
    mix(&mut a, &mut b, &mut c);
    c
}

/// `ceph_stable_mod`: `x` folded onto `b` groups, `mask` being the next power of two less
/// one.
pub fn stable_mod(x: u32, b: u32, mask: u32) -> u32 {
    if x & mask < b {
        x & mask
    } else {
        x & (mask >> 1)
    }
}

/// The pool's `pg_num_mask`: the smallest power of two at or above `pg_num`, less one.
pub fn pg_mask(pg_num: u32) -> u32 {
    pg_num.max(1).next_power_of_two() - 1
}

/// Which group before holds the objects of which group after, when a pool's `pg_num` goes
/// from `before` to `after` (`ceph_stable_mod` keeps an object's low bits): with no change,
/// each group itself; growing, each group after with the parent it split from; shrinking,
/// each group before with the group it merges into. Pairs (before, after); none when there
/// were no groups before.
pub fn group_pieces(before: u32, after: u32) -> impl Iterator<Item = (usize, usize)> {
    let grows = after >= before;
    let (count, from, mask) = if grows {
        (after, before, pg_mask(before))
    } else {
        (before, after, pg_mask(after))
    };
    let count = if before == 0 { 0 } else { count };
    (0..count).map(move |g| {
        let other = stable_mod(g, from, mask);
        let (g, other) = (g as usize, other as usize);
        if grows {
            (other, g)
        } else {
            (g, other)
        }
    })
}

/// The placement group of an object named `name` among `pg_num`.
pub fn pg_of(name: &str, pg_num: u32) -> u32 {
    stable_mod(str_hash(name.as_bytes()), pg_num, pg_mask(pg_num))
}

/// Where a key is drawn: inside its placement group's cell.
fn key_position(key: &str, params: &Params<'_>) -> u32 {
    let ps = str_hash(key.as_bytes());
    let pg = stable_mod(ps, params.pg_num, pg_mask(params.pg_num));
    position_in_cell(u64::from(pg), params.pg_num, u64::from(ps))
}

/// The CRUSH id of a server: `N` for `osd.N`, else its name's hash (below 2³¹, as OSD ids
/// are).
pub fn osd_id(name: &str) -> u32 {
    name.strip_prefix("osd.")
        .filter(|n| n.bytes().all(|b| b.is_ascii_digit()) && (*n == "0" || !n.starts_with('0')))
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|&n| n < 1 << 31)
        .unwrap_or_else(|| str_hash(name.as_bytes()) & 0x7fff_ffff)
}

/// One OSD of the root bucket.
#[derive(Clone, Copy, Debug)]
struct Osd {
    server: ServerId,
    id: u32,
    weight: u32,
    out: bool,
}

/// Ceph's placement over the OSDs: each placement group's primary OSD, and the groups as
/// cells round the circle.
#[derive(Clone)]
pub struct Ceph {
    osds: Vec<Osd>,
    pg_num: u32,
    table: Vec<ServerId>,
    ring: Ring,
    /// A pool placed on demand: each group's primary found the first time a key needs it
    /// and kept (`UNPLACED` until then). Used for a scenario of one key — the lookups of
    /// `locate` and the Python package, which place the keys they are given rather than
    /// draw a picture — so one lookup in a pool of a million groups over a thousand OSDs
    /// costs one group's draws, not a billion (35 s), and many lookups never cost more
    /// than placing every group.
    on_demand: Option<Rc<RefCell<Vec<ServerId>>>>,
    /// The cluster's CRUSH hierarchy and rule, when it is not the flat map.
    hierarchy: Option<Rc<Hierarchy>>,
    /// Over a hierarchy, each group's whole acting set as the fill placed it (CRUSH gives
    /// the primary only with the rest): `POOL_SIZE` servers a group, `NO_OWNER` where a
    /// replica found no OSD. Kept so that what a change remapped is counted by comparing,
    /// not by placing every group again.
    sets: Vec<ServerId>,
}

/// A CRUSH hierarchy ready to map placement groups: the map over the servers' OSDs, the
/// pool's rule, the OSD map's weights (out: 0) and each OSD's server.
#[derive(Debug)]
pub struct Hierarchy {
    map: CrushMap,
    steps: Vec<Step>,
    reweights: Vec<u32>,
    /// Each device id's server (`NO_OWNER`: no server).
    servers: Vec<ServerId>,
    /// The type the rule spreads copies over (its `chooseleaf`'s, else its last
    /// `choose`'s), and each server's bucket of that type.
    domain_kind: String,
    domains: Vec<(ServerId, String)>,
}

impl Hierarchy {
    /// The hierarchy of `layout` over the OSDs `osds` (a server not named `osd.N` has no
    /// place in it, which the scenario's check refused).
    fn new(layout: &CrushLayout, osds: &[Osd]) -> Result<Hierarchy, Problem> {
        let mut devices: Vec<(i32, u32)> = osds.iter().map(|o| (o.id as i32, o.weight)).collect();
        devices.sort_unstable();
        let (map, steps) = layout
            .build(&devices)
            .map_err(|_| Problem::Internal("a checked CRUSH layout did not build"))?;
        let size = devices.last().map_or(0, |d| d.0 + 1) as usize;
        let mut reweights = vec![0; size];
        let mut servers = vec![NO_OWNER; size];
        for o in osds {
            reweights[o.id as usize] = if o.out { 0 } else { 0x10000 };
            servers[o.id as usize] = o.server;
        }
        let domain_kind = layout.domain_kind().to_owned();
        let domains = osds
            .iter()
            .filter_map(|o| {
                let domain = layout.ancestor(&format!("osd.{}", o.id), &domain_kind)?;
                Some((o.server, domain.to_owned()))
            })
            .collect();
        Ok(Hierarchy {
            map,
            steps,
            reweights,
            servers,
            domain_kind,
            domains,
        })
    }

    /// The acting set of a placement group's seed for a pool of `size`: CRUSH's result,
    /// each OSD as its server.
    fn acting(&self, seed: u32, size: u32) -> Vec<ServerId> {
        self.map
            .do_rule(&self.steps, seed, size as usize, &self.reweights)
            .into_iter()
            .filter_map(|osd| self.servers.get(usize::try_from(osd).ok()?).copied())
            .filter(|&server| server != NO_OWNER)
            .collect()
    }
}

/// A group whose primary an on-demand pool has not looked for yet.
const UNPLACED: ServerId = NO_OWNER - 1;

/// One try of CRUSH for a placement group: the winner of every OSD's draw (an index; the
/// first on a tie, as `bucket_straw2_choose` keeps the first).
fn winner(osds: &[Osd], seed: u32, r: u32) -> usize {
    let mut high = (0, i64::MIN);
    for (i, o) in osds.iter().enumerate() {
        let d = straw2_draw(seed, o.id, r, o.weight);
        if i == 0 || d > high.1 {
            high = (i, d);
        }
    }
    high.0
}

impl Ceph {
    /// The placement group's seed for CRUSH (`raw_pg_to_pps` under `hashpspool`).
    fn seed(pg: u32) -> u32 {
        hash2(pg, POOL)
    }

    /// The tries for a placement group's seed: the OSDs that won and were out, then the
    /// draws of the last try and its winner (`None` when every try hit an out OSD).
    fn place(&self, seed: u32) -> (Vec<ServerId>, Vec<i64>, Option<usize>) {
        if self.hierarchy.is_some() {
            // The draws are each level's (root, host, …): the flat table of every OSD's
            // draw does not say them, so none is shown.
            let primary = self.primary(seed);
            return (
                Vec::new(),
                Vec::new(),
                self.osds.iter().position(|o| o.server == primary),
            );
        }
        let mut rejected = Vec::new();
        let mut r = 0;
        let high = loop {
            let high = winner(&self.osds, seed, r);
            let osd = self.osds[high];
            if !osd.out || r + 1 == TRIES {
                break Some(high).filter(|_| !osd.out);
            }
            if !rejected.contains(&osd.server) {
                rejected.push(osd.server);
            }
            r += 1;
        };
        let draws = self
            .osds
            .iter()
            .map(|o| straw2_draw(seed, o.id, r, o.weight))
            .collect();
        (rejected, draws, high)
    }

    /// The primary OSD of a placement group's seed.
    fn primary(&self, seed: u32) -> ServerId {
        // The first of the pool's acting set. Over the flat map a pool of one draws the
        // same first OSD; a rule may not (one that emits from two roots), so a hierarchy's
        // is the whole pool's.
        let size = if self.hierarchy.is_some() {
            POOL_SIZE
        } else {
            1
        };
        self.acting(seed, size).first().copied().unwrap_or(NO_OWNER)
    }

    /// Whether the groups have primaries: the table is filled, or placed on demand while
    /// some OSD is in.
    fn placed(&self) -> bool {
        !self.table.is_empty() || (self.on_demand.is_some() && self.osds.iter().any(|o| !o.out))
    }

    /// The acting set of a placement group's seed for a pool of `size` replicas, primary
    /// first: `crush_choose_firstn` over the root — replica `rep` draws with `r = rep +
    /// failures`, and a draw that won an out OSD or one already chosen is drawn again (51
    /// tries in all; a replica without an OSD after them is left out, as Ceph leaves it).
    pub fn acting(&self, seed: u32, size: u32) -> Vec<ServerId> {
        if let Some(hierarchy) = &self.hierarchy {
            return hierarchy.acting(seed, size);
        }
        let mut chosen: Vec<ServerId> = Vec::new();
        for rep in 0..size {
            for failures in 0..TRIES {
                let osd = self.osds[winner(&self.osds, seed, rep + failures)];
                if !osd.out && !chosen.contains(&osd.server) {
                    chosen.push(osd.server);
                    break;
                }
            }
        }
        chosen
    }
}

/// A straw2 draw's cost in the work's units (about 10 ns: a 3-word Jenkins hash, a table
/// lookup and a division).
const DRAW_COST: usize = 3;

/// A group's cost besides its draws (its seed, the acting set's tries and vector, the
/// table's push): measured in the page at ~0.6 µs a group, which a pool of a million groups
/// over four OSDs made the whole of a step (268 ms tasks when a group was costed as its
/// draws alone; tests/perf/compare_tables.mjs).
const GROUP_COST: usize = 180;

/// Ceph's groups placed a few at a time (the page steps a pool whose groups × OSDs would
/// take longer than a step: 65,536 groups over 100 OSDs took 471 ms at once); a group's
/// primary is its cell of the table.
#[derive(Clone)]
struct CephFill(Ceph);

impl TableFill for CephFill {
    fn claim(&mut self, cells: usize) {
        // No group is placed while no OSD is in (the table stays empty).
        let (claimed, groups) = self.progress();
        let ceph = &mut self.0;
        for pg in claimed..claimed.saturating_add(cells).min(groups) {
            let seed = Ceph::seed(pg as u32);
            if ceph.hierarchy.is_some() {
                let set = ceph.acting(seed, POOL_SIZE);
                ceph.table.push(set.first().copied().unwrap_or(NO_OWNER));
                let filled = set.iter().copied().chain(std::iter::repeat(NO_OWNER));
                ceph.sets.extend(filled.take(POOL_SIZE as usize));
            } else {
                ceph.table.push(ceph.primary(seed));
            }
        }
    }

    fn progress(&self) -> (usize, usize) {
        let groups = if self.0.on_demand.is_none() && self.0.osds.iter().any(|o| !o.out) {
            self.0.pg_num as usize
        } else {
            0
        };
        (self.0.table.len(), groups)
    }

    fn cell_cost(&self) -> usize {
        self.0.osds.len().max(1) * DRAW_COST + GROUP_COST
    }

    fn is_full(&self) -> bool {
        let (claimed, all) = self.progress();
        claimed == all
    }

    fn finish(&mut self) -> Rc<dyn Placement> {
        let mut ceph = Ceph {
            osds: std::mem::take(&mut self.0.osds),
            pg_num: self.0.pg_num,
            table: std::mem::take(&mut self.0.table),
            ring: Ring::default(),
            on_demand: self.0.on_demand.take(),
            hierarchy: self.0.hierarchy.take(),
            sets: std::mem::take(&mut self.0.sets),
        };
        if !ceph.table.is_empty() {
            ceph.ring = cell_ring(&ceph.table);
        }
        Rc::new(ceph)
    }

    fn boxed(&self) -> Box<dyn TableFill> {
        Box::new(self.clone())
    }
}

/// The pool's groups, none placed yet, over the OSDs in list order (an out one stays in
/// the bucket: it still draws).
fn fill(live: &[LiveServer], down: &[LiveServer], p: &Params<'_>) -> Box<dyn TableFill> {
    let mut all: Vec<_> = live
        .iter()
        .map(|s| (s, false))
        .chain(down.iter().map(|s| (s, true)))
        .collect();
    all.sort_by_key(|(s, _)| s.slot);
    let osds: Vec<Osd> = all
        .into_iter()
        .map(|(s, out)| Osd {
            server: s.id,
            id: osd_id(&s.name),
            weight: crush_weight(s.weight),
            out,
        })
        .collect();
    // A scenario of one key is a lookup's (see `Ceph::on_demand`).
    let on_demand =
        (p.key_count <= 1).then(|| Rc::new(RefCell::new(vec![UNPLACED; p.pg_num as usize])));
    // The scenario's check built this layout over these servers (`CrushLayout::check`).
    let hierarchy = p
        .crush
        .and_then(|layout| Hierarchy::new(layout, &osds).ok())
        .map(Rc::new);
    Box::new(CephFill(Ceph {
        pg_num: p.pg_num,
        table: Vec::new(),
        ring: Ring::default(),
        osds,
        on_demand,
        hierarchy,
        sets: Vec::new(),
    }))
}

fn build(b: &Build<'_>) -> Result<Rc<dyn Placement>, Problem> {
    Ok(filled(fill(&b.live, &b.down, &b.params)))
}

impl Placement for Ceph {
    fn owner(&self, key: &str, position: u32) -> ServerId {
        let Some(groups) = &self.on_demand else {
            return self.ring.owner_of(position);
        };
        let pg = pg_of(key, self.pg_num);
        let known = groups.borrow()[pg as usize];
        if known != UNPLACED {
            return known;
        }
        let primary = self.primary(Ceph::seed(pg));
        groups.borrow_mut()[pg as usize] = primary;
        primary
    }

    fn needs_key_name(&self) -> bool {
        self.on_demand.is_some()
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        let ps = str_hash(key.as_bytes());
        let pg = stable_mod(ps, self.pg_num, pg_mask(self.pg_num));
        let (rejected, draws, winner) = if self.placed() {
            self.place(Ceph::seed(pg))
        } else {
            (Vec::new(), Vec::new(), None)
        };
        let replicas = if !self.placed() {
            Vec::new()
        } else {
            self.acting(Ceph::seed(pg), POOL_SIZE).split_off(1)
        };
        let owner = winner.map_or(NO_OWNER, |i| self.osds[i].server);
        let domains = self.hierarchy.as_ref().map(|h| {
            let copies = std::iter::once(owner).chain(replicas.iter().copied());
            let names = copies
                .map(|id| {
                    h.domains
                        .iter()
                        .find(|(s, _)| *s == id)
                        .map(|(_, d)| d.clone())
                        .unwrap_or_default()
                })
                .collect();
            (h.domain_kind.clone(), names)
        });
        Explanation {
            position,
            owner,
            how: How::PlacementGroup {
                hash: ps,
                pg,
                pg_num: self.pg_num,
                rejected,
                replicas,
                draws: self
                    .osds
                    .iter()
                    .zip(draws)
                    .map(|(o, d)| (o.server, Score::Straw2(d)))
                    .collect(),
                domains,
            },
        }
    }

    fn ring(&self) -> Option<&Ring> {
        Some(&self.ring).filter(|r| !r.is_empty())
    }

    fn held_acting_sets(&self) -> Option<(&[ServerId], usize)> {
        Some((&self.sets[..], POOL_SIZE as usize)).filter(|_| !self.sets.is_empty())
    }

    fn acting_sets(&self) -> Option<Vec<Vec<ServerId>>> {
        if let Some((sets, size)) = self.held_acting_sets() {
            let held = |copies: &[ServerId]| -> Vec<ServerId> {
                copies.iter().copied().filter(|&s| s != NO_OWNER).collect()
            };
            return Some(sets.chunks(size).map(held).collect());
        }
        let placed = self.placed();
        Some(
            (0..self.pg_num)
                .map(|pg| {
                    if placed {
                        self.acting(Ceph::seed(pg), POOL_SIZE)
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
        )
    }

    /// The groups' table (as Maglev counts its table) and the bucket's OSDs; the ring of
    /// cells is the picture's.
    fn memory_bytes(&self) -> usize {
        self.table.len() * std::mem::size_of::<ServerId>()
            + self.osds.len() * std::mem::size_of::<Osd>()
    }
}

#[cfg(test)]
pub(crate) use tests::assert_placed_as_recorded;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::crush::log_tables;
    use crate::engine::scenario::Scenario;
    use crate::engine::sim::Simulation;

    /// A pool's groups before and after a pg_num change, paired where the objects are:
    /// 12 → 16 splits groups 12..16 off 4..8 (12 is 1100b, its parent 0100b); 16 → 12
    /// merges them back; every object's two groups are a pair.
    #[test]
    fn groups_pair_with_the_groups_their_objects_were_in() {
        let pairs: Vec<(usize, usize)> = group_pieces(12, 16).collect();
        assert_eq!(pairs.len(), 16);
        assert_eq!(&pairs[..12], (0..12).map(|g| (g, g)).collect::<Vec<_>>());
        assert_eq!(&pairs[12..], [(4, 12), (5, 13), (6, 14), (7, 15)]);
        let merged: Vec<(usize, usize)> = group_pieces(16, 12).collect();
        assert_eq!(&merged[12..], [(12, 4), (13, 5), (14, 6), (15, 7)]);
        assert_eq!(group_pieces(0, 8).count(), 0);
        for (before, after) in [(64, 128), (128, 64), (12, 16), (16, 12), (7, 100), (100, 7)] {
            let pairs: Vec<(usize, usize)> = group_pieces(before, after).collect();
            for i in 0..2000 {
                let name = format!("obj-{i}");
                let pair = (pg_of(&name, before) as usize, pg_of(&name, after) as usize);
                assert!(
                    pairs.contains(&pair),
                    "{name}: {pair:?} for {before} → {after}"
                );
            }
        }
    }

    /// Asserts that `sim` places an object as a line of osdmaptool's record says (`NAME PG
    /// PRIMARY ACTING-SET`, the group in hex): its group, primary and acting set.
    pub(crate) fn assert_placed_as_recorded(sim: &Simulation, line: &str) {
        let words: Vec<&str> = line.split(' ').collect();
        let (_, owner) = sim.lookup(words[0]).unwrap();
        assert_eq!(sim.server(owner).unwrap().name, words[2], "{line}");
        let How::PlacementGroup { replicas, pg, .. } = sim.explain(words[0]).unwrap().how else {
            panic!("{line}: not a placement group's explanation");
        };
        assert_eq!(format!("{pg:x}"), words[1], "{line}");
        let acting: Vec<&str> = std::iter::once(owner)
            .chain(replicas)
            .map(|id| sim.server(id).unwrap().name.as_str())
            .collect();
        assert_eq!(acting.join(","), words[3], "{line}");
    }

    /// Replays `osdmaptool --test-map-object` (tests/reference/ceph.txt): each object's
    /// placement group, primary OSD and acting set (pool size 3) in five cluster states.
    #[test]
    fn objects_go_where_osdmaptool_puts_them() {
        let text = include_str!("../../../../tests/reference/ceph.txt");
        let (mut sim, mut pg_num) = (None, 0);
        let (mut states, mut checked) = (0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split(' ').collect();
            if words[0] == "scenario" {
                let mut pairs: Vec<(&str, &str)> = vec![("algo", "ceph"), ("keys", "0..1")];
                pairs.extend(words[2..].iter().map(|w| w.split_once('=').unwrap()));
                let s = Scenario::from_pairs(pairs).unwrap();
                pg_num = s.settings.pg_num;
                sim = Some(Simulation::new(&s).unwrap());
                states += 1;
                continue;
            }
            let pg = u32::from_str_radix(words[1], 16).unwrap();
            assert_eq!(pg_of(words[0], pg_num), pg, "{line}");
            assert_placed_as_recorded(sim.as_ref().unwrap(), line);
            checked += 1;
        }
        assert_eq!((states, checked), (5, 10_000));
    }

    /// Replays `crushtool --test --show-mappings` (tests/reference/ceph-crushtool.txt):
    /// CRUSH alone, the acting set (pool size 3) for inputs 0..1023 of four maps — unequal
    /// weights, an OSD added, one re-weighted, one out.
    #[test]
    fn crush_maps_inputs_as_crushtool_does() {
        let text = include_str!("../../../../tests/reference/ceph-crushtool.txt");
        let (mut ceph, mut names) = (None, Vec::new());
        let (mut maps, mut checked) = (0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (first, rest) = line.split_once(' ').unwrap();
            if first == "scenario" {
                let s = Scenario::from_pairs(
                    rest.split(' ').skip(1).map(|w| w.split_once('=').unwrap()),
                )
                .unwrap();
                names = s.nodes.iter().map(|n| n.name.clone()).collect();
                let osds = s
                    .nodes
                    .iter()
                    .enumerate()
                    .map(|(i, n)| Osd {
                        server: i as ServerId,
                        id: osd_id(&n.name),
                        weight: crush_weight(n.weight),
                        out: !n.up,
                    })
                    .collect();
                ceph = Some(Ceph {
                    osds,
                    pg_num: 1,
                    table: Vec::new(),
                    ring: Ring::default(),
                    on_demand: None,
                    hierarchy: None,
                    sets: Vec::new(),
                });
                maps += 1;
                continue;
            }
            let x: u32 = first.parse().unwrap();
            let acting: Vec<&str> = ceph
                .as_ref()
                .unwrap()
                .acting(x, 3)
                .into_iter()
                .map(|id| names[usize::from(id)].as_str())
                .collect();
            assert_eq!(acting.join(","), rest, "{line}");
            checked += 1;
        }
        assert_eq!((maps, checked), (4, 4096));
    }

    /// The RH column of Ceph's `__RH_LH_tbl` is ⌈2⁵⁵ / (128 + k)⌉, which [`crush_ln`]
    /// computes; the committed table (read from `libceph-common.so.2`) says so, and the
    /// LH and LL columns here are its own.
    /// A scenario of one key (a lookup's) places groups on demand; every owner, primary
    /// and replica is the filled pool's, with an OSD out too, and only the groups looked
    /// up were placed.
    #[test]
    fn a_pool_placed_on_demand_answers_as_the_filled_one() {
        for down in ["", "osd.2"] {
            let sim = |keys: &str| {
                let scenario = Scenario::from_pairs([
                    ("algo", "ceph"),
                    ("nodes", "osd.0,osd.1*2,osd.2*0.5,osd.3*1.5,osd.4"),
                    ("down", down),
                    ("pg_num", "100"),
                    ("keys", keys),
                ])
                .unwrap();
                Simulation::new(&scenario).unwrap()
            };
            let (lookup, filled) = (sim("0..1"), sim("0..1000"));
            assert!(lookup.ring().is_none() && filled.ring().is_some());
            for i in 0..2000 {
                let key = format!("object-{i}");
                assert_eq!(lookup.lookup(&key).unwrap(), filled.lookup(&key).unwrap());
                let (a, b) = (lookup.explain(&key).unwrap(), filled.explain(&key).unwrap());
                assert_eq!(a.owner, b.owner, "{key}");
                assert_eq!(format!("{:?}", a.how), format!("{:?}", b.how), "{key}");
            }
        }
    }

    #[test]
    fn the_log_tables_are_cephs() {
        let text = include_str!("../../../../tests/reference/ceph-ln-table.txt");
        let numbers = |row: &str| -> Vec<u64> {
            let line = text.lines().find(|l| l.starts_with(row)).unwrap();
            line[row.len()..]
                .split_whitespace()
                .map(|v| u64::from_str_radix(v.trim_start_matches("0x"), 16).unwrap())
                .collect()
        };
        let rh_lh = numbers("RH_LH ");
        for k in 0..=128u64 {
            assert_eq!(
                rh_lh[2 * k as usize],
                (1u64 << 55).div_ceil(128 + k),
                "RH[{k}]"
            );
            assert_eq!(
                rh_lh[2 * k as usize + 1],
                log_tables().0[k as usize],
                "LH[{k}]"
            );
        }
        assert_eq!(numbers("LL "), log_tables().1.to_vec());
    }

    #[test]
    fn stable_mod_folds_onto_any_group_count() {
        // 12 groups: mask 15; 13..15 fold onto 5..7.
        assert_eq!(pg_mask(12), 15);
        assert_eq!(stable_mod(13, 12, 15), 5);
        assert_eq!(stable_mod(11, 12, 15), 11);
        assert_eq!(pg_mask(1), 0);
        assert_eq!(pg_mask(16), 15);
        assert_eq!(pg_mask(17), 31);
    }

    proptest::proptest! {
        /// Raising pg_num by one splits one group: an object changes group only when it was
        /// in the group that splits (`pg_num − mask/2 − 1`, folded) and goes to the new one.
        #[test]
        fn raising_pg_num_splits_only_one_group(name in "[a-z0-9.-]{0,30}", pg_num in 1u32..5000) {
            let (before, after) = (pg_of(&name, pg_num), pg_of(&name, pg_num + 1));
            if before != after {
                proptest::prop_assert_eq!(after, pg_num);
                proptest::prop_assert_eq!(before, pg_num & (pg_mask(pg_num + 1) >> 1));
            }
        }
    }

    #[test]
    fn raising_pg_num_from_12_to_13_moves_half_of_group_4() {
        let names: Vec<String> = (0..20_000).map(|i| format!("object-{i}")).collect();
        let mut moved = 0;
        let in_4 = names.iter().filter(|n| pg_of(n, 12) == 4).count();
        for n in &names {
            if pg_of(n, 12) != pg_of(n, 13) {
                assert_eq!((pg_of(n, 12), pg_of(n, 13)), (4, 12), "{n}");
                moved += 1;
            }
        }
        // Half of group 4's objects, give or take the draw.
        assert!(
            (moved as f64 / in_4 as f64 - 0.5).abs() < 0.05,
            "{moved} of {in_4}"
        );
    }

    #[test]
    fn an_out_osd_is_drawn_again_but_weight_zero_never_wins() {
        let osds = |out: bool| {
            (0..4)
                .map(|i| Osd {
                    server: i as ServerId,
                    id: i,
                    weight: if i == 3 && !out { 0 } else { 0x10000 },
                    out: out && i == 3,
                })
                .collect::<Vec<_>>()
        };
        let ceph = |osds| Ceph {
            osds,
            pg_num: 1,
            table: vec![0],
            ring: Ring::default(),
            on_demand: None,
            hierarchy: None,
            sets: Vec::new(),
        };
        let (out, zero) = (ceph(osds(true)), ceph(osds(false)));
        let mut differ = 0;
        for seed in 0..5000 {
            let a = out.primary(seed);
            assert_ne!(a, 3);
            assert_ne!(zero.primary(seed), 3);
            differ += usize::from(a != zero.primary(seed));
        }
        // Out is rejected after the draw (the retry with r + 1 may pick anyone); weight
        // 0 is left out of the draw: the two agree only where osd.3 would not have won.
        assert!(differ > 0);
    }
}
