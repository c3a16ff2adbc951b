//! What a change moved: how many keys, from which server to which (the flows), which
//! servers it left alone and how many keys still moved between them, and the arcs that
//! changed hands — counted while the keys are reassigned ([`FlowTally`]).

use super::ring::{ArcChange, ServerId, NO_OWNER};

/// Keys that went from one server to another in a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flow {
    /// Previous owner.
    pub from: ServerId,
    /// New owner.
    pub to: ServerId,
    /// How many keys.
    pub keys: u64,
}

/// What a change did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Movement {
    /// Keys present before and after whose owner changed.
    pub moved: u64,
    /// Keys after the change.
    pub keys: u64,
    /// The from→to matrix, sparse, sorted by (from, to).
    pub flows: Vec<Flow>,
    /// The servers the change left alone — there and up before and after, with the same
    /// weight — sorted by id.
    pub survivors: Vec<ServerId>,
    /// Keys that moved between two [`survivors`](Self::survivors): 0 for a monotone
    /// placement, whatever the change.
    pub between_survivors: u64,
    /// For ring-shaped algorithms: the arcs whose owner changed.
    pub arcs: Vec<ArcChange>,
    /// The fraction a perfectly balanced, minimally disruptive scheme would move:
    /// the new server's weight share on add/recover, the departing one's on remove/fail.
    pub ideal_fraction: Option<f64>,
    /// Sorted places (indexes into the key layout after the change) of the moved keys,
    /// when the key layout did not change.
    pub moved_places: Vec<u32>,
    /// Owner of each moved key before the change, parallel to `moved_places`.
    pub moved_from: Vec<ServerId>,
    /// Moved keys whose (from, to) pair is not in [`flows`](Self::flows): with thousands of
    /// servers, pairs past [`MAX_SPARSE_PAIRS`] are counted here instead of listed (mod-N
    /// over 10,000 servers moves keys along millions of pairs). The totals stay exact.
    pub unlisted: u64,
}

impl Movement {
    /// What a minimally disruptive, balanced scheme would move, in keys, when defined.
    pub fn ideal_keys(&self) -> Option<u64> {
        self.ideal_fraction
            .map(|f| (f * self.keys as f64).round() as u64)
    }

    /// Whether the change left server `id` alone (see [`survivors`](Self::survivors)).
    pub fn survives(&self, id: ServerId) -> bool {
        self.survivors.binary_search(&id).is_ok()
    }

    /// Moved keys as a fraction of all keys.
    pub fn moved_fraction(&self) -> f64 {
        if self.keys == 0 {
            0.0
        } else {
            self.moved as f64 / self.keys as f64
        }
    }
}

/// Ceph: what a change did to the pool's placement groups, each group's acting set (primary
/// first) compared before and after. The data a change moves is every copy of a remapped
/// group, not only the primaries the per-key counts follow: adding a host remaps a group
/// whose third copy lands on it, though its primary stays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct GroupMoves {
    /// Groups whose acting set changed (after a `pg_num` change: pieces — a split child
    /// against its parent, a merged group against its target).
    pub remapped: u64,
    /// Groups in the pool (after the change).
    pub groups: u64,
    /// Copies that moved: an OSD in a group's new set that was not in its old one.
    pub copies_moved: u64,
    /// Copies the pool holds in all (after the change).
    pub copies: u64,
    /// Groups whose primary changed.
    pub primaries_changed: u64,
}

impl GroupMoves {
    /// Compares each group's acting set (primary first; `NO_OWNER` entries are padding, not
    /// copies) before and after, piece by piece: `pieces` pairs a group before with a group
    /// after that holds its objects (each group with itself while `pg_num` stays; a split
    /// child with its parent, merged groups with their target — see
    /// [`crate::engine::algorithms::ceph::group_pieces`]). Calls `remapped(new_pg, old,
    /// new, copies_moved)` for each piece whose set changed, in order.
    pub fn between<'a>(
        before: impl Fn(usize) -> &'a [ServerId],
        (after, groups): (impl Fn(usize) -> &'a [ServerId], usize),
        pieces: impl IntoIterator<Item = (usize, usize)>,
        mut remapped: impl FnMut(usize, &[ServerId], &[ServerId], usize),
    ) -> GroupMoves {
        let held = |set: &[ServerId]| set.iter().filter(|&&id| id != NO_OWNER).count() as u64;
        let mut moves = GroupMoves {
            groups: groups as u64,
            copies: (0..groups).map(|g| held(after(g))).sum(),
            ..GroupMoves::default()
        };
        for (old_pg, new_pg) in pieces {
            let (old, new) = (before(old_pg), after(new_pg));
            if old == new {
                continue;
            }
            moves.remapped += 1;
            moves.primaries_changed += u64::from(old.first() != new.first());
            let copies = new
                .iter()
                .filter(|&&id| id != NO_OWNER && !old.contains(&id))
                .count();
            moves.copies_moved += copies as u64;
            remapped(new_pg, old, new, copies);
        }
        moves
    }
}

/// Keys moved per (from, to) pair while a change is applied: a dense matrix over server
/// ids below [`DENSE_FLOWS`] (a page's few hundred), with one extra row and column for
/// "nobody", so counting a moved key is an index, not a hash; pairs of larger ids (the
/// command line's thousands of servers) go to a map of at most [`MAX_SPARSE_PAIRS`] pairs.
/// Keys moved between two survivors are counted as they come, so that count never needs
/// the pairs.
pub(super) struct FlowTally {
    pub(super) width: usize,
    pub(super) counts: Vec<u64>,
    pub(super) sparse: std::collections::BTreeMap<(usize, usize), u64>,
    /// Whether each slot's server survives the change (see [`Movement::survivors`]).
    survives: Vec<bool>,
    between_survivors: u64,
    unlisted: u64,
}

/// Server slots counted in the dense matrix (its side; 8 MB at most).
pub const DENSE_FLOWS: usize = 1024;

/// The most (from, to) pairs of large server ids listed (about 10 MB); keys moved along
/// further pairs are counted in [`Movement::unlisted`].
pub const MAX_SPARSE_PAIRS: usize = 250_000;

impl FlowTally {
    /// A tally for a change that `survivors` (sorted) live through.
    pub(super) fn new(survivors: &[ServerId]) -> FlowTally {
        let mut survives = Vec::new();
        for &id in survivors {
            let slot = Self::slot(id);
            if survives.len() <= slot {
                survives.resize(slot + 1, false);
            }
            survives[slot] = true;
        }
        FlowTally {
            width: 0,
            counts: Vec::new(),
            sparse: std::collections::BTreeMap::new(),
            survives,
            between_survivors: 0,
            unlisted: 0,
        }
    }

    pub(super) fn slot(id: ServerId) -> usize {
        if id == NO_OWNER {
            0
        } else {
            usize::from(id) + 1
        }
    }

    pub(super) fn add(&mut self, from: ServerId, to: ServerId) {
        let survives = |slot: usize| self.survives.get(slot).copied().unwrap_or(false);
        if survives(Self::slot(from)) && survives(Self::slot(to)) {
            self.between_survivors += 1;
        }
        let need = Self::slot(from).max(Self::slot(to)) + 1;
        if need > DENSE_FLOWS {
            let full = self.sparse.len() >= MAX_SPARSE_PAIRS;
            match self.sparse.get_mut(&(Self::slot(from), Self::slot(to))) {
                Some(keys) => *keys += 1,
                None if full => self.unlisted += 1,
                None => {
                    self.sparse.insert((Self::slot(from), Self::slot(to)), 1);
                }
            }
            return;
        }
        if need > self.width {
            // Grow to the new width, keeping the counts (rare: a few times per change).
            let width = need.next_power_of_two().max(8);
            let mut counts = vec![0; width * width];
            for f in 0..self.width {
                for t in 0..self.width {
                    counts[f * width + t] = self.counts[f * self.width + t];
                }
            }
            (self.width, self.counts) = (width, counts);
        }
        self.counts[Self::slot(from) * self.width + Self::slot(to)] += 1;
    }
}

pub(super) fn finish_flows(m: &mut Movement, flows: &FlowTally) {
    let id = |slot: usize| {
        if slot == 0 {
            NO_OWNER
        } else {
            (slot - 1) as ServerId
        }
    };
    let mut out: Vec<Flow> = Vec::new();
    for (i, &keys) in flows.counts.iter().enumerate() {
        if keys > 0 {
            out.push(Flow {
                from: id(i / flows.width),
                to: id(i % flows.width),
                keys,
            });
        }
    }
    for (&(from, to), &keys) in &flows.sparse {
        out.push(Flow {
            from: id(from),
            to: id(to),
            keys,
        });
    }
    super::order::sort_by_key(&mut out, |f| u64::from(f.from) << 16 | u64::from(f.to));
    m.flows = out;
    m.between_survivors = flows.between_survivors;
    m.unlisted = flows.unlisted;
}
