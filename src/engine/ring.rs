//! The ring: sorted boundary points, each owning the arc that ends at it.
//!
//! A consistent-hash ring (seed 000's `TreeMap.tailMap(hash).firstKey()`) is a sorted list
//! of virtual-node positions; a key belongs to the first one clockwise at or after its own
//! position, wrapping past 2^32−1 to the first. Redis Cluster's slot ranges are the same
//! picture with one boundary at the end of each contiguous range, so both share this type.
//!
//! Lookups use a bucket table over the top bits of the position (like a one-level radix
//! index), so a lookup is one table read plus a search over a handful of entries.
//! Changes are described by [`Ring::changed_arcs`]: the arcs whose owner differs between two
//! rings, found from the boundaries that were added or removed — never by rescanning keys.

use std::cmp::Ordering;

/// An index into the simulation's server table.
pub type ServerId = u16;

/// Owner value meaning "nobody" (an empty ring: every server removed or down).
pub const NO_OWNER: ServerId = ServerId::MAX;

/// One boundary point of the ring: a virtual node, or the end of a slot range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VNode {
    /// Position on the ring.
    pub position: u32,
    /// The server this point belongs to.
    pub server: ServerId,
    /// Which of the server's points this is (the `{i}` of the label; the last slot of a range).
    pub replica: u32,
}

/// Indices of the `each_side` items before index `after` and the `each_side` from it on,
/// in a circle of `len` items (each of them once when there are no more than that).
pub fn around(len: usize, after: usize, each_side: usize) -> impl Iterator<Item = usize> {
    let (start, take) = if len <= 2 * each_side {
        (0, len)
    } else {
        (after + len - each_side, 2 * each_side)
    };
    (0..take).map(move |i| (start + i) % len)
}

/// A half-open arc `(after, upto]` of the ring whose owner changed.
/// `after == upto` stands for the whole circle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArcChange {
    /// Exclusive start (counter-clockwise end).
    pub after: u32,
    /// Inclusive end (clockwise end).
    pub upto: u32,
    /// Owner before the change.
    pub from: ServerId,
    /// Owner after the change.
    pub to: ServerId,
}

impl ArcChange {
    /// Length of the arc in ring units (2^32 for the whole circle).
    pub fn len(&self) -> u64 {
        arc_len(self.after, self.upto)
    }

    /// Never true: an arc covers at least one position.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// Length of the clockwise arc `(after, upto]`; equal ends mean the whole circle.
pub fn arc_len(after: u32, upto: u32) -> u64 {
    match upto.wrapping_sub(after) {
        0 => 1 << 32,
        d => u64::from(d),
    }
}

/// A sorted ring of boundary points with a lookup index.
#[derive(Clone, Debug, Default)]
pub struct Ring {
    points: Vec<VNode>,
    positions: Vec<u32>,
    /// `buckets[b]` is the first point whose top `bits` bits are `>= b`.
    buckets: Vec<u32>,
    shift: u32,
}

impl Ring {
    /// Bytes the ring's arrays hold (points, the position copy and the lookup index).
    pub fn memory_bytes(&self) -> usize {
        self.points.len() * std::mem::size_of::<VNode>()
            + self.positions.len() * 4
            + self.buckets.len() * 4
    }

    /// Builds a ring. Two points on one position: the one whose `tiebreak` sorts first
    /// owns it (callers pass the server name, so the rule does not depend on insertion
    /// order), then the lower replica number; the other owns an empty arc. (`tiebreak` is a
    /// `&dyn Fn`: as a generic, this function was compiled once per caller's closure,
    /// fifteen copies, 5.8 KB gzip of page.)
    pub fn new<'a>(mut points: Vec<VNode>, tiebreak: &dyn Fn(ServerId) -> &'a str) -> Ring {
        // A linear radix sort by position (a million vnodes in a few tens of ms, even in
        // the browser), then the rare runs of equal positions ordered by the tiebreak.
        // (Points that come sorted — a 64-bit ring's, drawn at its top bits — are not sorted
        // again.)
        if !points.windows(2).all(|w| w[0].position <= w[1].position) {
            radsort::sort_by_key(&mut points, |p| p.position);
        }
        // Each server's place in tiebreak order, computed once when any two points share a
        // position: a run is then sorted by numbers, not by comparing names (a million
        // tokens that a 32-bit picture puts on a few positions took a second by names).
        let mut rank: Vec<u32> = Vec::new();
        if points.windows(2).any(|w| w[0].position == w[1].position) {
            let mut ids: Vec<ServerId> = points.iter().map(|p| p.server).collect();
            super::order::sort(&mut ids);
            ids.dedup();
            super::order::sort_by(&mut ids, |&a, &b| tiebreak(a).cmp(tiebreak(b)));
            rank = vec![0; usize::from(ServerId::MAX) + 1];
            for (r, &id) in ids.iter().enumerate() {
                rank[usize::from(id)] = r as u32;
            }
        }
        for run in points.chunk_by_mut(|a, b| a.position == b.position) {
            if run.len() > 1 {
                super::order::sort_by_key(run, |p| {
                    u64::from(rank[usize::from(p.server)]) << 32 | u64::from(p.replica)
                });
            }
        }
        let positions: Vec<u32> = points.iter().map(|p| p.position).collect();
        let bits = (usize::BITS - positions.len().max(1).leading_zeros()).clamp(1, 20);
        let shift = 32 - bits;
        let mut buckets = Vec::with_capacity((1 << bits) + 1);
        let mut i = 0usize;
        for b in 0..=(1u64 << bits) {
            while i < positions.len() && u64::from(positions[i] >> shift) < b {
                i += 1;
            }
            buckets.push(i as u32);
        }
        Ring {
            points,
            positions,
            buckets,
            shift,
        }
    }

    /// The points in clockwise order.
    pub fn points(&self) -> &[VNode] {
        &self.points
    }

    /// The points' positions, ascending (parallel to [`Ring::points`]).
    pub fn positions(&self) -> &[u32] {
        &self.positions
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True when no server owns anything.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Index of the first point at or after `position`, wrapping; `None` on an empty ring.
    #[inline]
    pub fn successor_index(&self, position: u32) -> Option<usize> {
        if self.positions.is_empty() {
            return None;
        }
        let b = (position >> self.shift) as usize;
        let (lo, hi) = (self.buckets[b] as usize, self.buckets[b + 1] as usize);
        let i = lo + self.positions[lo..hi].partition_point(|&p| p < position);
        Some(if i == self.positions.len() { 0 } else { i })
    }

    /// The `each_side` points before `position` and the `each_side` from it on (all of
    /// them on a ring of fewer): what a lookup at `position` chooses among.
    pub fn near(&self, position: u32, each_side: usize) -> Vec<VNode> {
        self.successor_index(position)
            .map_or_else(Vec::new, |after| {
                around(self.len(), after, each_side)
                    .map(|i| self.points[i])
                    .collect()
            })
    }

    /// The point owning `position`.
    #[inline]
    pub fn successor(&self, position: u32) -> Option<&VNode> {
        self.successor_index(position).map(|i| &self.points[i])
    }

    /// The server owning `position`, or [`NO_OWNER`].
    #[inline]
    pub fn owner_of(&self, position: u32) -> ServerId {
        self.successor(position).map_or(NO_OWNER, |p| p.server)
    }

    /// The start (exclusive) of the arc owned by point `index`: its predecessor's position.
    pub fn arc_start(&self, index: usize) -> u32 {
        let prev = if index == 0 {
            self.len() - 1
        } else {
            index - 1
        };
        self.positions[prev]
    }

    /// Owners for keys sorted by position: one linear merge of keys and points.
    pub fn assign_sorted(&self, sorted_positions: &[u32], owners: &mut Vec<ServerId>) {
        owners.clear();
        if self.points.is_empty() {
            owners.resize(sorted_positions.len(), NO_OWNER);
            return;
        }
        let first = self.points[0].server;
        let mut j = 0;
        for &p in sorted_positions {
            while j < self.positions.len() && self.positions[j] < p {
                j += 1;
            }
            owners.push(self.points.get(j).map_or(first, |v| v.server));
        }
    }

    /// Each server's exact share of the 2^32 space, indexed by server id.
    pub fn shares(&self, server_slots: usize) -> Vec<f64> {
        let mut owned = vec![0u64; server_slots];
        for (i, point) in self.points.iter().enumerate() {
            // Only the first point on a position owns the arc ending there.
            if i > 0 && self.positions[i - 1] == point.position {
                continue;
            }
            let len = arc_len(self.arc_start(i), point.position);
            if let Some(slot) = owned.get_mut(usize::from(point.server)) {
                *slot += len;
            }
        }
        owned
            .into_iter()
            .map(|o| o as f64 / 4_294_967_296.0)
            .collect()
    }

    /// The arcs whose owner differs between `before` and `after`, clockwise from 0,
    /// adjacent arcs with the same (from, to) merged.
    ///
    /// Only the elementary interval that ends at an added or removed point can change
    /// owner, so the work is a merge over the two point lists plus a lookup per changed
    /// point — independent of the number of keys.
    pub fn changed_arcs(before: &Ring, after: &Ring) -> Vec<ArcChange> {
        let mut changed: Vec<u32> = Vec::new();
        let (a, b) = (&before.points, &after.points);
        let (mut i, mut j) = (0, 0);
        let key = |v: &VNode| (v.position, v.server, v.replica);
        while i < a.len() || j < b.len() {
            let order = match (a.get(i), b.get(j)) {
                (Some(x), Some(y)) => key(x).cmp(&key(y)),
                (Some(_), None) => Ordering::Less,
                _ => Ordering::Greater,
            };
            match order {
                Ordering::Less => {
                    changed.push(a[i].position);
                    i += 1;
                }
                Ordering::Greater => {
                    changed.push(b[j].position);
                    j += 1;
                }
                Ordering::Equal => {
                    i += 1;
                    j += 1;
                }
            }
        }
        // Both lists ascend by position and the merge compares positions first, so the
        // changed positions come out ascending: no sort, only the repeats to drop.
        changed.dedup();

        // The changed positions ascend, so each ring's first point at or after one is found
        // by a cursor that only moves forward: one sweep, not four searches per position
        // (a Maglev table of a million cells spent 50 ms searching).
        let (mut at_before, mut at_after) = (Sweep::new(before), Sweep::new(after));
        let mut arcs: Vec<ArcChange> = Vec::new();
        for &p in &changed {
            let (from, before_start) = at_before.seek(p);
            let (to, after_start) = at_after.seek(p);
            if from == to {
                continue;
            }
            let start = match (before_start, after_start) {
                (Some(x), Some(y)) => closer_counter_clockwise(p, x, y),
                (Some(x), None) | (None, Some(x)) => x,
                (None, None) => p,
            };
            match arcs.last_mut() {
                Some(last) if last.upto == start && last.from == from && last.to == to => {
                    last.upto = p;
                }
                _ => arcs.push(ArcChange {
                    after: start,
                    upto: p,
                    from,
                    to,
                }),
            }
        }
        // The last arc may continue into the first across 2^32 → 0.
        if arcs.len() > 1 {
            let (first, last) = (arcs[0], arcs[arcs.len() - 1]);
            if last.upto == first.after && last.from == first.from && last.to == first.to {
                arcs[0].after = last.after;
                arcs.pop();
            }
        }
        arcs
    }
}

/// A cursor over a ring's points for positions asked in ascending order.
struct Sweep<'a> {
    ring: &'a Ring,
    /// How many points lie before the last position asked.
    before: usize,
}

impl<'a> Sweep<'a> {
    fn new(ring: &'a Ring) -> Sweep<'a> {
        Sweep { ring, before: 0 }
    }

    /// The server owning `position` (not below any position asked before), or
    /// [`NO_OWNER`]; and the nearest point position strictly before it counter-clockwise
    /// (wrapping; `position` itself when it is the only distinct position).
    fn seek(&mut self, position: u32) -> (ServerId, Option<u32>) {
        let positions = &self.ring.positions;
        let Some(&last) = positions.last() else {
            return (NO_OWNER, None);
        };
        while self.before < positions.len() && positions[self.before] < position {
            self.before += 1;
        }
        let i = self.before;
        let owner = self.ring.points[if i == positions.len() { 0 } else { i }].server;
        let prev = if i == 0 { last } else { positions[i - 1] };
        (owner, Some(prev))
    }
}

/// Of two candidate arc starts before `p`, the one closer to `p` counter-clockwise.
fn closer_counter_clockwise(p: u32, x: u32, y: u32) -> u32 {
    // Distance 0 means "p itself", i.e. a full turn away.
    let dist = |q: u32| match p.wrapping_sub(q) {
        0 => 1u64 << 32,
        d => u64::from(d),
    };
    if dist(x) <= dist(y) {
        x
    } else {
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn around_takes_each_side_wrapping_and_each_item_once() {
        assert_eq!(around(10, 0, 3).collect::<Vec<_>>(), [7, 8, 9, 0, 1, 2]);
        assert_eq!(around(10, 5, 2).collect::<Vec<_>>(), [3, 4, 5, 6]);
        assert_eq!(around(4, 1, 3).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(around(0, 0, 3).count(), 0);
    }

    fn ring(points: &[(u32, ServerId)]) -> Ring {
        let v = points
            .iter()
            .enumerate()
            .map(|(i, &(position, server))| VNode {
                position,
                server,
                replica: i as u32,
            })
            .collect();
        Ring::new(v, &|s| ["A", "B", "C", "D"][usize::from(s)])
    }

    #[test]
    fn successor_wraps_and_is_inclusive() {
        let r = ring(&[(100, 0), (200, 1), (300, 2)]);
        assert_eq!(r.owner_of(0), 0);
        assert_eq!(r.owner_of(100), 0);
        assert_eq!(r.owner_of(101), 1);
        assert_eq!(r.owner_of(300), 2);
        assert_eq!(r.owner_of(301), 0);
        assert_eq!(r.owner_of(u32::MAX), 0);
        assert_eq!(Ring::default().owner_of(5), NO_OWNER);
    }

    #[test]
    fn adding_a_point_changes_exactly_its_arc() {
        let before = ring(&[(100, 0), (200, 1), (300, 2)]);
        let after = ring(&[(100, 0), (150, 3), (200, 1), (300, 2)]);
        let arcs = Ring::changed_arcs(&before, &after);
        assert_eq!(
            arcs,
            vec![ArcChange {
                after: 100,
                upto: 150,
                from: 1,
                to: 3
            }]
        );
    }

    #[test]
    fn removing_the_first_point_moves_the_wrapping_arc() {
        let before = ring(&[(100, 0), (200, 1), (300, 2)]);
        let after = ring(&[(200, 1), (300, 2)]);
        let arcs = Ring::changed_arcs(&before, &after);
        assert_eq!(
            arcs,
            vec![ArcChange {
                after: 300,
                upto: 100,
                from: 0,
                to: 1
            }]
        );
        assert_eq!(arcs[0].len(), (1u64 << 32) - 200);
    }

    #[test]
    fn shares_sum_to_one_and_match_arc_lengths() {
        let r = ring(&[(0, 0), (1 << 30, 1), (1 << 31, 1)]);
        let s = r.shares(2);
        assert_eq!(s[0], 0.5);
        assert_eq!(s[1], 0.5);
        let single = ring(&[(7, 2)]);
        assert_eq!(single.shares(3)[2], 1.0);
    }

    #[test]
    fn a_tie_on_one_position_goes_to_the_first_name() {
        let r = ring(&[(50, 1), (50, 0)]);
        assert_eq!(r.owner_of(10), 0);
        assert_eq!(r.shares(2), vec![1.0, 0.0]);
    }
}
