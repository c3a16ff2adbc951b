//! Redis Cluster's 16384 hash slots: who serves which slot, and how that changes.
//!
//! Unlike the ring, the slot table is *state*: it depends on the history of changes, not
//! only on the current servers. Creation deals contiguous ranges the way
//! `redis-cli --cluster create` does (`lround` of a running float cursor); adding or
//! removing a server moves the fewest slots that restore each server's share, as
//! `redis-cli --cluster rebalance` / `reshard` do: donors give their lowest-numbered slots.

use super::hash::SLOT_COUNT;
use super::ring::{ServerId, VNode};

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
