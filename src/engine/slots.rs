//! Redis Cluster's 16384 hash slots: who serves which slot, and how that changes.
//!
//! Unlike the ring, the slot table is *state*: it depends on the history of changes, not
//! only on the current servers. Creation deals contiguous ranges the way
//! `redis-cli --cluster create` does (`lround` of a running float cursor); adding or
//! removing a server moves the fewest slots that restore each server's share, as
//! `redis-cli --cluster rebalance` / `reshard` do: donors give their lowest-numbered slots.

use std::sync::Arc;

use super::hash::SLOT_COUNT;
use super::ring::{ServerId, VNode};
use crate::problem::Problem;
use crate::text::quote;

const SLOTS: usize = SLOT_COUNT as usize;

/// The owner of each of the 16384 slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotTable {
    owners: Vec<ServerId>,
}

/// Where the 16384 slot positions sit on the ring: slot `s` covers the arc of positions
/// whose top 14 bits are `s`.
pub const SLOT_SHIFT: u32 = 32 - 14;

impl SlotTable {
    /// Bytes of the table (one owner per slot).
    pub fn memory_bytes(&self) -> usize {
        self.owners.len() * std::mem::size_of::<ServerId>()
    }

    /// Deals the slots to `servers` (id, weight) in contiguous ranges, in order, as
    /// `redis-cli --cluster create` does (weights scale each range).
    pub fn create(servers: &[(ServerId, f64)]) -> SlotTable {
        let mut owners = vec![0; SLOTS];
        let total: f64 = servers.iter().map(|s| s.1).sum();
        let (mut first, mut cursor) = (0usize, 0.0f64);
        for (n, &(id, weight)) in servers.iter().enumerate() {
            let span = SLOTS as f64 * weight / total;
            let mut last = (cursor + span - 1.0).round() as i64;
            if last > SLOTS as i64 - 1 || n == servers.len() - 1 {
                last = SLOTS as i64 - 1;
            }
            let last = last.max(first as i64 - 1) as usize;
            for owner in &mut owners[first..=last.min(SLOTS - 1)] {
                *owner = id;
            }
            first = last + 1;
            cursor += span;
        }
        SlotTable { owners }
    }

    /// A table read from a real cluster: `owners[s]` serves slot `s`, for all 16384.
    pub fn from_owners(owners: Vec<ServerId>) -> Option<SlotTable> {
        (owners.len() == SLOTS).then_some(SlotTable { owners })
    }

    /// The server of `slot`.
    pub fn owner(&self, slot: u16) -> ServerId {
        self.owners[usize::from(slot)]
    }

    /// How many slots each of `servers` holds.
    pub fn count(&self, id: ServerId) -> usize {
        self.owners.iter().filter(|&&o| o == id).count()
    }

    /// Moves the fewest slots so that each of `servers` (id, weight) holds its weighted
    /// share. Slots held by servers not in the list are always moved. Receivers are served
    /// in list order; donors give their lowest-numbered surplus slots.
    pub fn rebalance(&mut self, servers: &[(ServerId, f64)]) {
        if servers.is_empty() {
            return;
        }
        let total: f64 = servers.iter().map(|s| s.1).sum();
        // Integer targets that sum to 16384: floor, then the remainder to the first ones.
        let mut target: Vec<usize> = servers
            .iter()
            .map(|s| (SLOTS as f64 * s.1 / total).floor() as usize)
            .collect();
        let mut rest = SLOTS - target.iter().sum::<usize>();
        for t in target.iter_mut() {
            if rest == 0 {
                break;
            }
            *t += 1;
            rest -= 1;
        }
        let index_of = |id: ServerId| servers.iter().position(|s| s.0 == id);
        let mut held = vec![0usize; servers.len()];
        for &o in &self.owners {
            if let Some(i) = index_of(o) {
                held[i] += 1;
            }
        }
        // Slots to hand out: every slot of a departed server, then each donor's surplus,
        // lowest slot numbers first.
        let mut surplus: Vec<usize> = held
            .iter()
            .zip(&target)
            .map(|(h, t)| h.saturating_sub(*t))
            .collect();
        let mut free: Vec<usize> = Vec::new();
        for (slot, &o) in self.owners.iter().enumerate() {
            match index_of(o) {
                None => free.push(slot),
                Some(i) if surplus[i] > 0 => {
                    surplus[i] -= 1;
                    free.push(slot);
                }
                Some(_) => {}
            }
        }
        super::order::sort_by_key(&mut free, |&s| s as u64);
        let mut free = free.into_iter();
        for (i, &(id, _)) in servers.iter().enumerate() {
            for _ in held[i]..target[i] {
                if let Some(slot) = free.next() {
                    self.owners[slot] = id;
                }
            }
        }
    }

    /// The table as ring boundaries: one point at the last position of each contiguous
    /// range of slots served by a live server. Slots of servers for which `live` is false
    /// then fall to the next live range clockwise.
    pub fn boundaries(&self, live: impl Fn(ServerId) -> bool) -> Vec<VNode> {
        let mut points = Vec::new();
        for slot in 0..SLOTS {
            let owner = self.owners[slot];
            let range_ends = slot == SLOTS - 1 || self.owners[slot + 1] != owner;
            if range_ends && live(owner) {
                points.push(VNode {
                    position: ((slot as u32) << SLOT_SHIFT) | ((1 << SLOT_SHIFT) - 1),
                    server: owner,
                    replica: slot as u32,
                });
            }
        }
        points
    }

    /// The contiguous ranges `(first, last, owner)` in slot order.
    pub fn ranges(&self) -> Vec<(u16, u16, ServerId)> {
        let mut out: Vec<(u16, u16, ServerId)> = Vec::new();
        for (slot, &owner) in self.owners.iter().enumerate() {
            match out.last_mut() {
                Some(last) if last.2 == owner => last.1 = slot as u16,
                _ => out.push((slot as u16, slot as u16, owner)),
            }
        }
        out
    }
}

/// A slot table as a scenario writes it (`slotmap=`): for each server of the list, in list
/// order, its slot ranges — `A-B` or `N`, joined by `+` — with `,` between servers; an empty
/// entry is a master without slots. A real cluster's own table (`CLUSTER NODES`, `CLUSTER
/// SHARDS`) reaches a link this way, and so does a table that changes have rebalanced, so a
/// link reproduces the slots exactly instead of dealing them afresh.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotMap {
    /// `(first, last, server index)` in the order written.
    ranges: Arc<[(u16, u16, u16)]>,
    /// How many servers the map gives slots to (its entries, empty ones included).
    servers: usize,
}

impl SlotMap {
    /// Reads a `slotmap=` value (syntax only: [`SlotMap::owners`] checks it against the
    /// servers).
    pub fn parse(text: &str) -> Result<SlotMap, Problem> {
        let mut ranges = Vec::new();
        let entries: Vec<&str> = text.split(',').collect();
        for (server, entry) in entries.iter().enumerate() {
            if entry.trim().is_empty() {
                continue;
            }
            for range in entry.split('+') {
                let range = range.trim();
                let (a, b) = range.split_once('-').unwrap_or((range, range));
                match slot_range(a, b) {
                    Some((a, b)) => ranges.push((a, b, server as u16)),
                    None => {
                        return Err(Problem::SlotMapSyntax {
                            given: quote(range),
                        })
                    }
                }
            }
        }
        Ok(SlotMap {
            ranges: ranges.into(),
            servers: entries.len(),
        })
    }

    /// A map of `(first, last, server index)` ranges in slot order (unchecked: see
    /// [`SlotMap::owners`]), grouped by server as `slotmap=` writes them.
    pub fn from_ranges(ranges: Vec<(u16, u16, u16)>, servers: usize) -> SlotMap {
        let mut by_server = vec![Vec::new(); servers];
        for r in ranges {
            if let Some(list) = by_server.get_mut(usize::from(r.2)) {
                list.push(r);
            }
        }
        SlotMap {
            ranges: by_server.concat().into(),
            servers,
        }
    }

    /// How many servers the map gives slots to.
    pub fn servers(&self) -> usize {
        self.servers
    }

    /// Each slot's server index, once every slot is held by exactly one of `names` (the
    /// servers in list order, for the messages).
    pub fn owners(&self, names: &[&str]) -> Result<Vec<u16>, Problem> {
        if self.servers != names.len() {
            return Err(Problem::EntriesPerServer {
                param: "slotmap",
                given: self.servers,
                servers: names.len(),
            });
        }
        let mut owner: Vec<Option<u16>> = vec![None; SLOTS];
        for &(a, b, server) in self.ranges.iter() {
            for slot in a..=b {
                if let Some(other) = owner[usize::from(slot)].replace(server) {
                    return Err(Problem::SlotHeldTwice {
                        slot,
                        first: quote(names[usize::from(other)]),
                        second: quote(names[usize::from(server)]),
                    });
                }
            }
        }
        if let Some(free) = owner.iter().position(Option::is_none) {
            let end = owner[free..]
                .iter()
                .position(Option::is_some)
                .map_or(SLOTS, |e| free + e);
            return Err(Problem::SlotsUnheld {
                first: free as u16,
                last: (end - 1) as u16,
            });
        }
        Ok(owner.into_iter().map(|o| o.unwrap_or(0)).collect())
    }
}

impl std::fmt::Display for SlotMap {
    /// The `slotmap=` value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut ranges = self.ranges.iter().peekable();
        for server in 0..self.servers {
            if server > 0 {
                f.write_str(",")?;
            }
            let mut first = true;
            while let Some(&&(a, b, _)) = ranges.peek().filter(|r| usize::from(r.2) == server) {
                ranges.next();
                if !first {
                    f.write_str("+")?;
                }
                first = false;
                match a == b {
                    true => write!(f, "{a}")?,
                    false => write!(f, "{a}-{b}")?,
                }
            }
        }
        Ok(())
    }
}

/// A slot range `N`/`A-B` (or a `CLUSTER SHARDS` start/end pair): whole numbers, `A ≤ B`,
/// both below 16384.
pub fn slot_range(a: &str, b: &str) -> Option<(u16, u16)> {
    match (a.trim().parse::<u32>(), b.trim().parse::<u32>()) {
        (Ok(a), Ok(b)) if a <= b && b < SLOT_COUNT => Some((a as u16, b as u16)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_matches_redis_cli_for_three_masters() {
        let t = SlotTable::create(&[(0, 1.0), (1, 1.0), (2, 1.0)]);
        assert_eq!(
            t.ranges(),
            vec![(0, 5460, 0), (5461, 10922, 1), (10923, 16383, 2)]
        );
    }

    #[test]
    fn adding_a_server_moves_only_its_share() {
        let mut t = SlotTable::create(&[(0, 1.0), (1, 1.0), (2, 1.0)]);
        let before = t.clone();
        t.rebalance(&[(0, 1.0), (1, 1.0), (2, 1.0), (3, 1.0)]);
        assert_eq!(t.count(3), 4096);
        let moved = (0..SLOTS as u16)
            .filter(|&s| t.owner(s) != before.owner(s))
            .count();
        assert_eq!(moved, 4096);
        // Every moved slot went to the new server.
        assert!((0..SLOTS as u16).all(|s| t.owner(s) == before.owner(s) || t.owner(s) == 3));
    }

    #[test]
    fn removing_a_server_moves_only_its_slots() {
        let mut t = SlotTable::create(&[(0, 1.0), (1, 1.0), (2, 1.0), (3, 1.0)]);
        let before = t.clone();
        t.rebalance(&[(0, 1.0), (1, 1.0), (3, 1.0)]);
        assert_eq!(t.count(2), 0);
        assert!((0..SLOTS as u16).all(|s| before.owner(s) == 2 || t.owner(s) == before.owner(s)));
        let counts: Vec<usize> = [0, 1, 3].iter().map(|&id| t.count(id)).collect();
        assert_eq!(counts.iter().sum::<usize>(), SLOTS);
        assert!(
            counts.iter().all(|&c| (5461..=5462).contains(&c)),
            "{counts:?}"
        );
    }
}
