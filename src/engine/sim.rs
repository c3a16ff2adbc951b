//! A running simulation: servers, keys, who owns each key, and what each change moves.
//!
//! Keys are held sorted by ring position (see [`KeySet`]), with one owner per key. For the
//! ring-shaped algorithms (`ring`, `slots`) a change is applied incrementally: the arcs
//! whose owner changed are diffed from the two rings' boundary points, and only the keys
//! inside those arcs are visited — O(changed points · log keys + moved keys). The other
//! algorithms are per-key functions and are recomputed key by key.
//!
//! A simulation is its [`Config`] (the scenario's settings and the servers: what the user
//! chose) and the assignment that follows from it (the placement, the keys in ring order,
//! each key's owner, the counts). A change edits a copy of the configuration, computes the
//! new assignment — in steps, when that is heavy, see [`Work`] — and commits both at once.
//! Loading a scenario is the same work started from nothing, so a page can show progress
//! while a million keys are hashed instead of freezing.
//!
//! Each job has its file: [`super::change`] (what a change is, and its step syntax),
//! [`super::config`] (the settings and servers, and how a change edits them),
//! [`super::work`] (the stepped work and its cost model), [`super::movement`] (what moved,
//! counted as keys are reassigned); this one holds the simulation and commits finished
//! work into it ([`Simulation::finish`]). The work never builds a simulation itself.
//!
//! The key layout and the placement are shared (`Arc`, `Rc`) between clones: a copy of a
//! simulation costs the owners (2 bytes a key), never a rehash.

use std::rc::Rc;
use std::sync::Arc;

use super::keys::KeySet;
use super::placement::{key_layout, key_position, Explanation, ModN, Placement};
use super::ring::{ArcChange, Ring, ServerId, NO_OWNER};
use super::scenario::{Scenario, Settings};
use super::scorers::Rank;
use super::slots::SlotTable;
use super::stats::Stats;
use crate::problem::Problem;

pub use super::change::{Change, Server};
pub use super::config::Config;
use super::movement::{finish_flows, FlowTally};
pub use super::movement::{Flow, Movement};
use super::work::{KeyWork, PlacementWork, Previous, WorkMode};
pub use super::work::{Phase, Work};

/// The whole simulation state: the configuration and the assignment that follows from it.
#[derive(Clone)]
pub struct Simulation {
    pub(super) config: Config,
    pub(super) placement: Rc<dyn Placement>,
    pub(super) keys: Arc<KeySet>,
    pub(super) owners: Vec<ServerId>,
    /// Per-key scorers only: each key's winning rank by place, on the placement's scale
    /// (empty otherwise).
    pub(super) ranks: Rc<Vec<Rank>>,
    pub(super) counts: Vec<u64>,
}

impl Simulation {
    /// The simulation `work` builds (every phase must be done). In the arcs mode the
    /// owners are not computed here: [`Simulation::finish`] moves only the changed arcs.
    pub(super) fn from_work(work: Work) -> Result<Simulation, Problem> {
        let (KeyWork::Ready(keys), PlacementWork::Ready(placement)) = (work.keys, work.placement)
        else {
            return Err(Problem::Internal("the work is not finished"));
        };
        let mut owners = work.owners.concat();
        let ranks = Rc::new(work.ranks.concat());
        if owners.len() == keys.len() {
            // The owners came from the drawn ring: its ties are looked up by name.
            for place in tie_places(placement.as_ref(), &keys) {
                owners[place] = exact_owner(&work.next.settings, placement.as_ref(), &keys, place);
            }
        }
        let counts = count_owners(&owners);
        Ok(Simulation {
            config: work.next,
            placement,
            keys,
            owners,
            ranks,
            counts,
        })
    }

    /// Builds the simulation a scenario describes, assigning every key.
    pub fn new(scenario: &Scenario) -> Result<Simulation, Problem> {
        let mut work = Work::load(scenario)?;
        work.run()?;
        Simulation::from_work(work)
    }

    /// A simulation of `config` with no keys yet: what a page shows while the keys of a
    /// large scenario are being placed.
    pub fn unassigned(config: Config) -> Simulation {
        let placement: Rc<dyn Placement> = if config.settings.algo.is_ring_shaped() {
            Rc::new(Ring::default())
        } else {
            Rc::new(ModN {
                servers: Vec::new(),
            })
        };
        Simulation {
            config,
            placement,
            keys: Arc::default(),
            owners: Vec::new(),
            ranks: Rc::default(),
            counts: Vec::new(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The settings (algorithm, hash, vnodes, label, keys, seed).
    pub fn settings(&self) -> &Settings {
        &self.config.settings
    }

    /// The scenario that rebuilds this state (slot tables aside, which depend on history).
    pub fn scenario(&self) -> Scenario {
        self.config.scenario()
    }

    /// Servers in list order.
    pub fn servers(&self) -> &[Server] {
        self.config.servers()
    }

    /// The server with this id.
    pub fn server(&self, id: ServerId) -> Option<&Server> {
        self.config.server(id)
    }

    /// Keys sorted by position.
    pub fn keys(&self) -> &KeySet {
        &self.keys
    }

    /// Owner of each key, parallel to [`Simulation::keys`].
    pub fn owners(&self) -> &[ServerId] {
        &self.owners
    }

    /// The current placement.
    pub fn placement(&self) -> &dyn Placement {
        self.placement.as_ref()
    }

    /// The ring (for `ring` and `slots`).
    pub fn ring(&self) -> Option<&Ring> {
        self.placement.ring()
    }

    /// The slot table (for `slots`).
    pub fn slot_table(&self) -> Option<&SlotTable> {
        self.config.slot_table()
    }

    /// Keys owned by server `id`.
    pub fn count(&self, id: ServerId) -> u64 {
        self.counts.get(usize::from(id)).copied().unwrap_or(0)
    }

    /// The name of key `id` (an index into the spec).
    pub fn key_name(&self, id: u32) -> String {
        let s = self.settings();
        s.keys.name(id, s.seed)
    }

    /// Load statistics over the live servers.
    pub fn stats(&self) -> Stats {
        let live: Vec<u64> = self
            .servers()
            .iter()
            .filter(|s| s.up)
            .map(|s| self.count(s.id))
            .collect();
        Stats::from_counts(&live)
    }

    /// Each server's share of the ring (for `ring` and `slots`), indexed by server id.
    pub fn ring_shares(&self) -> Option<Vec<f64>> {
        let slots = self
            .servers()
            .iter()
            .map(|s| usize::from(s.id) + 1)
            .max()
            .unwrap_or(0);
        self.ring().map(|r| r.shares(slots))
    }

    /// The ring position of a key name under the current settings.
    pub fn position_of(&self, key: &str) -> Result<u32, Problem> {
        let s = self.settings();
        Ok(key_position(s, key)?)
    }

    /// Looks one key up without changing anything: (position, owner).
    pub fn lookup(&self, key: &str) -> Result<(u32, ServerId), Problem> {
        let position = self.position_of(key)?;
        if self.placement.arrival_order().is_some() {
            return Ok((position, self.explain(key)?.owner));
        }
        Ok((position, self.placement.owner(key, position)))
    }

    /// Looks one key up and says how its owner was found.
    pub fn explain(&self, key: &str) -> Result<Explanation, Problem> {
        let position = self.position_of(key)?;
        let arrival = self
            .placement
            .arrival_order()
            .and_then(|_| self.arrival_of(key, position));
        Ok(self.placement.explain_arrival(key, position, arrival))
    }

    /// The arrival number (index in the key set) of `key`, when it is one of the keys.
    pub(super) fn arrival_of(&self, key: &str, position: u32) -> Option<u32> {
        let s = self.settings();
        let positions = &self.keys.positions;
        let mut name = String::new();
        let start = positions.partition_point(|&p| p < position);
        let same = positions[start..]
            .iter()
            .take_while(|&&p| p == position)
            .count();
        for &id in &self.keys.ids[start..start + same] {
            s.keys.write_name(id, s.seed, &mut name);
            if name == key {
                return Some(id);
            }
        }
        None
    }

    /// Applies a change. On error nothing has changed.
    pub fn apply(&mut self, change: &Change) -> Result<Movement, Problem> {
        let mut work = self.start(change)?;
        work.run()?;
        self.finish(work)
    }

    /// Begins a change that [`Work::advance`] then carries out in steps, so that a page can
    /// stay responsive (and show progress) while keys are rehashed or a per-key algorithm
    /// visits a million keys. Validation happens here: on error nothing has changed.
    pub fn start(&self, change: &Change) -> Result<Work, Problem> {
        let mut next = self.config.clone();
        let ideal = next.edit(change, &self.config)?;
        let (before, after) = (self.settings(), &next.settings);
        let relay = before.keys != after.keys
            || before.hash != after.hash
            || before.seed != after.seed
            || key_layout(before) != key_layout(after);
        let mode = if relay {
            WorkMode::Relay {
                keys_replaced: before.keys != after.keys || before.seed != after.seed,
            }
        } else if self.ring().is_some()
            && before.algo.is_ring_shaped()
            && after.algo.is_ring_shaped()
        {
            WorkMode::Arcs
        } else {
            self.scorer_mode(change, before, &next)
        };
        let keys = if relay {
            KeyWork::hashing(&next.settings)
        } else {
            KeyWork::Ready(self.keys.clone())
        };
        let incremental = matches!(mode, WorkMode::Departed(_) | WorkMode::Joined(_));
        let mut work = Work::new(next, keys, mode, ideal)?;
        if incremental {
            work.previous = Some(Previous {
                owners: Rc::new(self.owners.clone()),
                ranks: self.ranks.clone(),
                scale: self.placement.ranked().map(|r| r.scale()),
            });
        }
        Ok(work)
    }

    /// For rendezvous and CARP, an added or removed (failed, recovered) server needs only
    /// the keys it takes or gives up looked at again; anything else scores every key.
    pub(super) fn scorer_mode(
        &self,
        change: &Change,
        before: &Settings,
        next: &Config,
    ) -> WorkMode {
        let scorer = before.algo.spec().scores_every_server && before.algo == next.settings.algo;
        let id_in =
            |c: &Config, name: &str| c.servers.iter().find(|s| s.name == name).map(|s| s.id);
        match (scorer, change) {
            (true, Change::Remove(n) | Change::Fail(n)) => {
                id_in(&self.config, n).map_or(WorkMode::EveryKey, WorkMode::Departed)
            }
            (true, Change::Add { name: n, .. } | Change::Recover(n)) => {
                id_in(next, n).map_or(WorkMode::EveryKey, WorkMode::Joined)
            }
            _ => WorkMode::EveryKey,
        }
    }

    /// Completes a change: the work must come from [`Simulation::start`] on this state (or
    /// from [`Work::load`], which replaces the state). Finishes any steps left.
    pub fn finish(&mut self, mut work: Work) -> Result<Movement, Problem> {
        work.run()?;
        let ideal = work.ideal;
        let mode = work.mode;
        let up_before: Vec<(ServerId, f64)> = self
            .servers()
            .iter()
            .filter(|s| s.up)
            .map(|s| (s.id, s.weight))
            .collect();
        let next = Simulation::from_work(work)?;
        // The servers the change leaves alone: known before any key moves, so that the keys
        // moved between them are counted as they move.
        let mut survivors: Vec<ServerId> = up_before
            .iter()
            .filter(|&&(id, weight)| {
                next.server(id)
                    .is_some_and(|x| x.up && x.weight.to_bits() == weight.to_bits())
            })
            .map(|&(id, _)| id)
            .collect();
        super::order::sort(&mut survivors);
        let mut movement = match mode {
            WorkMode::Load => {
                *self = next;
                return Ok(Movement {
                    keys: self.keys.len() as u64,
                    ..Movement::default()
                });
            }
            WorkMode::Arcs => {
                let empty = Ring::default();
                let arcs = Ring::changed_arcs(
                    self.ring().unwrap_or(&empty),
                    next.ring().unwrap_or(&empty),
                );
                let ties = tie_places(next.placement.as_ref(), &self.keys);
                let mut m = self.move_arcs(&arcs, &ties, &survivors, |place| {
                    exact_owner(
                        &next.config.settings,
                        next.placement.as_ref(),
                        &next.keys,
                        place,
                    )
                });
                m.arcs = arcs;
                self.config = next.config;
                self.placement = next.placement;
                m
            }
            WorkMode::EveryKey | WorkMode::Departed(_) | WorkMode::Joined(_) => {
                let m = self.move_to(&next.owners, &survivors);
                self.config = next.config;
                self.placement = next.placement;
                self.ranks = next.ranks;
                m
            }
            WorkMode::Relay { keys_replaced } => {
                let m = self.compare_by_key(&next, keys_replaced, &survivors);
                *self = next;
                m
            }
        };
        movement.ideal_fraction = ideal;
        movement.survivors = survivors;
        Ok(movement)
    }

    pub(super) fn record(
        &mut self,
        place: usize,
        to: ServerId,
        flows: &mut FlowTally,
        m: &mut Movement,
    ) {
        let from = self.owners[place];
        if from == to {
            return;
        }
        self.owners[place] = to;
        if from != NO_OWNER {
            self.counts[usize::from(from)] -= 1;
        }
        if to != NO_OWNER {
            let i = usize::from(to);
            if self.counts.len() <= i {
                self.counts.resize(i + 1, 0);
            }
            self.counts[i] += 1;
        }
        m.moved += 1;
        m.moved_places.push(place as u32);
        m.moved_from.push(from);
        flows.add(from, to);
    }

    /// Visits only the keys inside the changed arcs, and the keys at the drawn points'
    /// very positions when the drawn ring leaves those to a lookup by name (`ties`, sorted;
    /// `exact` gives their owner after the change).
    pub(super) fn move_arcs(
        &mut self,
        arcs: &[ArcChange],
        ties: &[usize],
        survivors: &[ServerId],
        exact: impl Fn(usize) -> ServerId,
    ) -> Movement {
        let mut m = Movement {
            keys: self.keys.len() as u64,
            ..Movement::default()
        };
        let mut flows = FlowTally::new(survivors);
        for arc in arcs {
            for range in self.keys.places_in_arc(arc.after, arc.upto) {
                for place in range {
                    if ties.binary_search(&place).is_err() {
                        self.record(place, arc.to, &mut flows, &mut m);
                    }
                }
            }
        }
        for &place in ties {
            self.record(place, exact(place), &mut flows, &mut m);
        }
        finish_flows(&mut m, &flows);
        m
    }

    /// Moves every key to the owner computed for it (same key layout).
    pub(super) fn move_to(&mut self, owners: &[ServerId], survivors: &[ServerId]) -> Movement {
        let mut m = Movement {
            keys: self.keys.len() as u64,
            ..Movement::default()
        };
        let mut flows = FlowTally::new(survivors);
        for (place, &to) in owners.iter().enumerate() {
            self.record(place, to, &mut flows, &mut m);
        }
        finish_flows(&mut m, &flows);
        m
    }

    /// Keys whose owner differs between this state and `next`, matched by key index
    /// (the two layouts are sorted differently), each listed at its place in `next` (a new
    /// hash or Ceph's new pg_num re-lays the same keys). A replaced key set moves nothing.
    pub(super) fn compare_by_key(
        &self,
        next: &Simulation,
        keys_replaced: bool,
        survivors: &[ServerId],
    ) -> Movement {
        let mut m = Movement {
            keys: next.keys.len() as u64,
            ..Movement::default()
        };
        if keys_replaced {
            return m;
        }
        let mut before = vec![NO_OWNER; self.keys.len()];
        for (place, &id) in self.keys.ids.iter().enumerate() {
            before[id as usize] = self.owners[place];
        }
        let mut flows = FlowTally::new(survivors);
        for (place, &id) in next.keys.ids.iter().enumerate() {
            let (from, to) = (before[id as usize], next.owners[place]);
            if from != to {
                m.moved += 1;
                m.moved_places.push(place as u32);
                m.moved_from.push(from);
                flows.add(from, to);
            }
        }
        finish_flows(&mut m, &flows);
        m
    }
}

pub(super) fn count_owners(owners: &[ServerId]) -> Vec<u64> {
    let mut counts: Vec<u64> = Vec::new();
    for &o in owners {
        if o != NO_OWNER {
            let i = usize::from(o);
            if counts.len() <= i {
                counts.resize(i + 1, 0);
            }
            counts[i] += 1;
        }
    }
    counts
}

/// The places of the keys at the very position of a drawn point, when `placement` looks
/// those up by name (a 64-bit ring: such a key may fall on either side of the point);
/// sorted. Usually none: a million keys and a thousand points share a position ~0.2 times.
fn tie_places(placement: &dyn Placement, keys: &KeySet) -> Vec<usize> {
    let Some(ring) = placement
        .ring()
        .filter(|_| placement.ring_ties_need_names())
    else {
        return Vec::new();
    };
    let mut places = Vec::new();
    let mut last = None;
    for point in ring.points() {
        if last == Some(point.position) {
            continue;
        }
        last = Some(point.position);
        let from = keys.positions.partition_point(|&p| p < point.position);
        let to = keys.positions.partition_point(|&p| p <= point.position);
        places.extend(from..to);
    }
    places
}

/// The owner of the key at `place`, looked up by its name.
fn exact_owner(
    settings: &Settings,
    placement: &dyn Placement,
    keys: &KeySet,
    place: usize,
) -> ServerId {
    let mut name = String::new();
    settings
        .keys
        .write_name(keys.ids[place], settings.seed, &mut name);
    placement.owner(&name, keys.positions[place])
}

/// What the tests of the pictures share: a simulation built from link parameters, then
/// servers taken out one by one.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::Simulation;
    use crate::engine::change::Change;
    use crate::engine::scenario::Scenario;

    /// `algo` over `nodes` and `keys` (the link's syntax), after removing `removed` in
    /// order.
    pub(crate) fn after_removing(
        algo: &str,
        nodes: &str,
        keys: &str,
        removed: &[&str],
    ) -> Simulation {
        let scenario =
            Scenario::from_pairs([("algo", algo), ("nodes", nodes), ("keys", keys)]).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        for name in removed {
            sim.apply(&Change::Remove((*name).to_owned())).unwrap();
        }
        sim
    }
}
