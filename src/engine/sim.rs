//! A running simulation: servers, keys, who owns each key, and what each change moves.
//!
//! Keys are held sorted by ring position (see [`KeySet`]), with one owner per key. For the
//! ring-shaped algorithms (`ring`, `slots`) a change is applied incrementally: the arcs
//! whose owner changed are diffed from the two rings' boundary points, and only the keys
//! inside those arcs are visited — O(changed points · log keys + moved keys). The other
//! algorithms are per-key functions and are recomputed key by key.
//!
//! The key layout is shared (`Arc`) between clones, so the page's reducer can keep the
//! previous state for comparison at the cost of copying only the owners (2 bytes a key).

use std::rc::Rc;
use std::sync::Arc;

use super::hash::HashFn;
use super::keys::{KeySet, KeySpec};
use super::placement::{
    build_placement, key_position, Algorithm, LabelTemplate, LiveServer, Placement,
};
use super::ring::{ArcChange, Ring, ServerId, NO_OWNER};
use super::scenario::{parse_vnodes, validate_name, Scenario, ServerSpec, MAX_SERVERS};
use super::slots::SlotTable;
use super::stats::Stats;

/// One server of the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Server {
    /// Stable id: indexes counts and picks the colour; the smallest free id is reused.
    pub id: ServerId,
    /// Unique name.
    pub name: String,
    /// Relative weight.
    pub weight: f64,
    /// False while failed: a down server owns nothing.
    pub up: bool,
}

/// A change to the simulation.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Add a server at the end of the list.
    Add {
        /// Its name.
        name: String,
        /// Its weight.
        weight: f64,
    },
    /// Remove a server.
    Remove(String),
    /// Mark a server failed: its keys go elsewhere until it recovers.
    Fail(String),
    /// Bring a failed server back.
    Recover(String),
    /// Change a server's weight.
    SetWeight(String, f64),
    /// Change the vnodes per server.
    SetVnodes(u32),
    /// Replace the key set.
    SetKeys(KeySpec),
    /// Switch algorithm.
    SetAlgorithm(Algorithm),
    /// Switch hash function.
    SetHash(HashFn),
}

impl Change {
    /// Parses the command line's step syntax: `add:NAME[*W]`, `remove:NAME`, `fail:NAME`,
    /// `recover:NAME`, `keys:SPEC`, `vnodes:N`, `weight:NAME*W`, `algo:NAME`, `hash:NAME`.
    pub fn parse(text: &str) -> Result<Change, String> {
        let (verb, arg) = text.split_once(':').ok_or_else(|| {
            format!("step '{text}' must look like add:NAME, remove:NAME, fail:NAME, recover:NAME, weight:NAME*W, vnodes:N, keys:SPEC, algo:NAME or hash:NAME")
        })?;
        Ok(match verb {
            "add" => match arg.rsplit_once('*') {
                Some((name, w)) => Change::Add {
                    name: name.into(),
                    weight: super::scenario::parse_weight(w)?,
                },
                None => Change::Add {
                    name: arg.into(),
                    weight: 1.0,
                },
            },
            "remove" => Change::Remove(arg.into()),
            "fail" => Change::Fail(arg.into()),
            "recover" => Change::Recover(arg.into()),
            "weight" => {
                let (name, w) = arg
                    .rsplit_once('*')
                    .ok_or_else(|| format!("step '{text}' must look like weight:NAME*W"))?;
                Change::SetWeight(name.into(), super::scenario::parse_weight(w)?)
            }
            "vnodes" => Change::SetVnodes(parse_vnodes(arg)?),
            "keys" => Change::SetKeys(KeySpec::parse(arg).map_err(|e| e.to_string())?),
            "algo" => Change::SetAlgorithm(
                Algorithm::from_name(arg)
                    .ok_or_else(|| format!("unknown algorithm '{arg}'; choose one of {}", Algorithm::names()))?,
            ),
            "hash" => Change::SetHash(
                HashFn::from_name(arg)
                    .ok_or_else(|| format!("unknown hash '{arg}'; choose one of {}", HashFn::names()))?,
            ),
            _ => return Err(format!("unknown step '{verb}' in '{text}'; use add, remove, fail, recover, weight, vnodes, keys, algo or hash")),
        })
    }

    /// Adding a server of weight 1.
    pub fn add(name: impl Into<String>) -> Change {
        Change::Add {
            name: name.into(),
            weight: 1.0,
        }
    }

    /// The step text, as [`Change::parse`] reads it.
    pub fn label(&self) -> String {
        match self {
            Change::Add { name, weight } if *weight == 1.0 => format!("add:{name}"),
            Change::Add { name, weight } => format!("add:{name}*{weight}"),
            Change::Remove(n) => format!("remove:{n}"),
            Change::Fail(n) => format!("fail:{n}"),
            Change::Recover(n) => format!("recover:{n}"),
            Change::SetWeight(n, w) => format!("weight:{n}*{w}"),
            Change::SetVnodes(v) => format!("vnodes:{v}"),
            Change::SetKeys(k) => format!("keys:{k}"),
            Change::SetAlgorithm(a) => format!("algo:{a}"),
            Change::SetHash(h) => format!("hash:{}", h.name()),
        }
    }
}

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
}

impl Movement {
    /// Moved keys as a fraction of all keys.
    pub fn moved_fraction(&self) -> f64 {
        if self.keys == 0 {
            0.0
        } else {
            self.moved as f64 / self.keys as f64
        }
    }
}

/// The whole simulation state.
#[derive(Clone)]
pub struct Simulation {
    algo: Algorithm,
    hash: HashFn,
    vnodes: u32,
    label: LabelTemplate,
    key_spec: KeySpec,
    seed: u64,
    servers: Vec<Server>,
    slot_table: Option<SlotTable>,
    ring: Option<Ring>,
    keys: Arc<KeySet>,
    owners: Vec<ServerId>,
    counts: Vec<u64>,
}

impl Simulation {
    /// Builds the simulation a scenario describes, assigning every key.
    pub fn new(scenario: &Scenario) -> Result<Simulation, String> {
        scenario.validate()?;
        let servers: Vec<Server> = scenario
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| Server {
                id: i as ServerId,
                name: n.name.clone(),
                weight: n.weight,
                up: !scenario.down.contains(&n.name),
            })
            .collect();
        let mut sim = Simulation {
            algo: scenario.algo,
            hash: scenario.hash,
            vnodes: scenario.vnodes,
            label: scenario.label.clone(),
            key_spec: scenario.keys.clone(),
            seed: scenario.seed,
            servers,
            slot_table: None,
            ring: None,
            keys: Arc::default(),
            owners: Vec::new(),
            counts: Vec::new(),
        };
        sim.reset_slot_table();
        sim.rebuild_keys()?;
        let placement = sim.placement()?;
        sim.assign_all(placement.as_ref());
        sim.ring = placement.ring().cloned();
        Ok(sim)
    }

    /// The scenario that rebuilds this state (slot tables aside, which depend on history).
    pub fn scenario(&self) -> Scenario {
        Scenario {
            algo: self.algo,
            hash: self.hash,
            nodes: self
                .servers
                .iter()
                .map(|s| ServerSpec {
                    name: s.name.clone(),
                    weight: s.weight,
                })
                .collect(),
            vnodes: self.vnodes,
            label: self.label.clone(),
            keys: self.key_spec.clone(),
            seed: self.seed,
            down: self
                .servers
                .iter()
                .filter(|s| !s.up)
                .map(|s| s.name.clone())
                .collect(),
        }
    }

    /// Servers in list order.
    pub fn servers(&self) -> &[Server] {
        &self.servers
    }

    /// The server with this id.
    pub fn server(&self, id: ServerId) -> Option<&Server> {
        self.servers.iter().find(|s| s.id == id)
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algo
    }

    /// The hash function.
    pub fn hash(&self) -> HashFn {
        self.hash
    }

    /// Vnodes per server of weight 1.
    pub fn vnodes(&self) -> u32 {
        self.vnodes
    }

    /// The vnode label template.
    pub fn label(&self) -> &LabelTemplate {
        &self.label
    }

    /// The key spec.
    pub fn key_spec(&self) -> &KeySpec {
        &self.key_spec
    }

    /// The seed for random keys.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Keys sorted by position.
    pub fn keys(&self) -> &KeySet {
        &self.keys
    }

    /// Owner of each key, parallel to [`Simulation::keys`].
    pub fn owners(&self) -> &[ServerId] {
        &self.owners
    }

    /// The ring (for `ring` and `slots`).
    pub fn ring(&self) -> Option<&Ring> {
        self.ring.as_ref()
    }

    /// The slot table (for `slots`).
    pub fn slot_table(&self) -> Option<&SlotTable> {
        self.slot_table.as_ref()
    }

    /// Keys owned by server `id`.
    pub fn count(&self, id: ServerId) -> u64 {
        self.counts.get(usize::from(id)).copied().unwrap_or(0)
    }

    /// The name of key `id` (an index into the spec).
    pub fn key_name(&self, id: u32) -> String {
        self.key_spec.name(id, self.seed)
    }

    /// Load statistics over the live servers.
    pub fn stats(&self) -> Stats {
        let live: Vec<u64> = self
            .servers
            .iter()
            .filter(|s| s.up)
            .map(|s| self.count(s.id))
            .collect();
        Stats::from_counts(&live)
    }

    /// Each server's share of the ring (for `ring` and `slots`), indexed by server id.
    pub fn ring_shares(&self) -> Option<Vec<f64>> {
        let slots = self
            .servers
            .iter()
            .map(|s| usize::from(s.id) + 1)
            .max()
            .unwrap_or(0);
        self.ring.as_ref().map(|r| r.shares(slots))
    }

    /// Looks one key up without changing anything: (position, owner).
    pub fn lookup(&self, key: &str) -> Result<(u32, ServerId), String> {
        let position = key_position(self.algo, self.hash, key).map_err(|e| e.to_string())?;
        let owner = match &self.ring {
            Some(r) => r.owner_of(position),
            None => self.placement()?.owner(key, position),
        };
        Ok((position, owner))
    }

    /// The placement for the current servers (for benchmarks and lookups).
    pub fn placement(&self) -> Result<Box<dyn Placement>, String> {
        build_placement(
            self.algo,
            self.live(),
            self.vnodes,
            &self.label,
            self.hash,
            self.slot_table.as_ref(),
        )
    }

    /// Applies a change. On error nothing has changed.
    pub fn apply(&mut self, change: &Change) -> Result<Movement, String> {
        let mut work = self.start(change)?;
        work.advance(usize::MAX);
        Ok(self.finish(work))
    }

    /// Begins a change that [`Work::advance`] then carries out in steps, so that a page can
    /// stay responsive (and show progress) while a per-key algorithm visits a million keys.
    /// Validation happens here: on error nothing has changed. Re-laying the keys (a new key
    /// set or hash) is done here in one go.
    pub fn start(&self, change: &Change) -> Result<Work, String> {
        let mut next = self.clone_config();
        let ideal = next.edit(change, self)?;
        let layout_changes = matches!(change, Change::SetKeys(_) | Change::SetHash(_))
            || (matches!(change, Change::SetAlgorithm(_))
                && (self.algo == Algorithm::Slots) != (next.algo == Algorithm::Slots));
        let mode = if layout_changes {
            next.rebuild_keys()?;
            WorkMode::Relay {
                keys_replaced: matches!(change, Change::SetKeys(_)),
            }
        } else if self.ring.is_some() && next.algo.is_ring_shaped() {
            WorkMode::Arcs
        } else {
            WorkMode::EveryKey
        };
        let placement: Rc<dyn Placement> = Rc::from(next.placement()?);
        let total = match mode {
            WorkMode::Arcs => 0,
            WorkMode::EveryKey => self.keys.len(),
            WorkMode::Relay { .. } => next.keys.len(),
        };
        let cost_per_key = match (placement.ring().is_some(), next.algo) {
            (true, _) | (false, Algorithm::ModN) => 1,
            (false, Algorithm::Carp) => 4 * next.live().len().max(1),
            (false, _) => next.live().len().max(1),
        };
        Ok(Work {
            next,
            placement,
            ideal,
            mode,
            total,
            cost_per_key,
            owners: Vec::with_capacity(total),
        })
    }

    /// Completes a change whose work is finished (see [`Work::is_finished`]).
    pub fn finish(&mut self, mut work: Work) -> Movement {
        work.advance(usize::MAX);
        let ring = work.placement.ring().cloned();
        let mut movement = match work.mode {
            WorkMode::Arcs => {
                let before = self.ring.take().unwrap_or_default();
                let arcs = Ring::changed_arcs(&before, ring.as_ref().unwrap_or(&Ring::default()));
                let mut m = self.move_arcs(&arcs);
                m.arcs = arcs;
                m
            }
            WorkMode::EveryKey => self.move_to(&work.owners),
            WorkMode::Relay { keys_replaced } => {
                let mut next = work.next;
                next.owners = work.owners;
                next.recount();
                next.ring = ring;
                let m = self.compare_by_key(&next, keys_replaced);
                *self = next;
                return Movement {
                    ideal_fraction: work.ideal,
                    ..m
                };
            }
        };
        movement.ideal_fraction = work.ideal;
        self.adopt_config(work.next);
        self.ring = ring;
        movement
    }

    fn live(&self) -> Vec<LiveServer> {
        self.servers
            .iter()
            .filter(|s| s.up)
            .map(|s| LiveServer {
                id: s.id,
                name: s.name.clone(),
                weight: s.weight,
            })
            .collect()
    }

    fn reset_slot_table(&mut self) {
        self.slot_table = (self.algo == Algorithm::Slots).then(|| {
            let all: Vec<(ServerId, f64)> = self.servers.iter().map(|s| (s.id, s.weight)).collect();
            SlotTable::create(&all)
        });
    }

    fn rebuild_keys(&mut self) -> Result<(), String> {
        let (algo, hash) = (self.algo, self.hash);
        self.keys = Arc::new(
            KeySet::build(&self.key_spec, self.seed, |k| key_position(algo, hash, k))
                .map_err(|e| format!("keys: {e}"))?,
        );
        Ok(())
    }

    /// A copy of the configuration to edit before committing; it shares the key layout
    /// (an `Arc`) but not the owners.
    fn clone_config(&self) -> Simulation {
        Simulation {
            algo: self.algo,
            hash: self.hash,
            vnodes: self.vnodes,
            label: self.label.clone(),
            key_spec: self.key_spec.clone(),
            seed: self.seed,
            servers: self.servers.clone(),
            slot_table: self.slot_table.clone(),
            ring: None,
            keys: self.keys.clone(),
            owners: Vec::new(),
            counts: Vec::new(),
        }
    }

    fn adopt_config(&mut self, next: Simulation) {
        self.algo = next.algo;
        self.hash = next.hash;
        self.vnodes = next.vnodes;
        self.label = next.label;
        self.key_spec = next.key_spec;
        self.servers = next.servers;
        self.slot_table = next.slot_table;
    }

    fn find(&self, name: &str) -> Result<usize, String> {
        self.servers
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = self.servers.iter().map(|s| s.name.as_str()).collect();
                format!(
                    "there is no server '{name}'; the servers are {}",
                    names.join(", ")
                )
            })
    }

    fn weight_share(&self, id: ServerId) -> Option<f64> {
        let total: f64 = self.servers.iter().filter(|s| s.up).map(|s| s.weight).sum();
        let s = self.server(id)?;
        (total > 0.0).then(|| s.weight / total)
    }

    /// Edits this config copy; returns the ideal moved fraction. `now` is the current state.
    fn edit(&mut self, change: &Change, now: &Simulation) -> Result<Option<f64>, String> {
        let mut ideal = None;
        match change {
            Change::Add { name, weight } => {
                validate_name(name)?;
                if self.servers.iter().any(|s| &s.name == name) {
                    return Err(format!(
                        "a server named '{name}' already exists; names must be unique"
                    ));
                }
                if self.servers.len() >= MAX_SERVERS {
                    return Err(format!(
                        "there are already {MAX_SERVERS} servers, the limit"
                    ));
                }
                let id = (0..NO_OWNER)
                    .find(|id| !self.servers.iter().any(|s| s.id == *id))
                    .ok_or("no free server id")?;
                self.servers.push(Server {
                    id,
                    name: name.clone(),
                    weight: *weight,
                    up: true,
                });
                ideal = self.weight_share(id);
                if let Some(t) = &mut self.slot_table {
                    t.rebalance(&slot_weights(&self.servers));
                }
            }
            Change::Remove(name) => {
                let i = self.find(name)?;
                let id = self.servers[i].id;
                ideal = if self.servers[i].up {
                    now.weight_share(id)
                } else {
                    Some(0.0)
                };
                self.servers.remove(i);
                if let Some(t) = &mut self.slot_table {
                    t.rebalance(&slot_weights(&self.servers));
                }
            }
            Change::Fail(name) => {
                let i = self.find(name)?;
                if !self.servers[i].up {
                    return Err(format!("server '{name}' is already down"));
                }
                ideal = now.weight_share(self.servers[i].id);
                self.servers[i].up = false;
            }
            Change::Recover(name) => {
                let i = self.find(name)?;
                if self.servers[i].up {
                    return Err(format!("server '{name}' is not down"));
                }
                self.servers[i].up = true;
                ideal = self.weight_share(self.servers[i].id);
            }
            Change::SetWeight(name, w) => {
                let i = self.find(name)?;
                let id = self.servers[i].id;
                let before = now.weight_share(id).unwrap_or(0.0);
                self.servers[i].weight = *w;
                ideal = Some((self.weight_share(id).unwrap_or(0.0) - before).abs());
                if let Some(t) = &mut self.slot_table {
                    t.rebalance(&slot_weights(&self.servers));
                }
            }
            Change::SetVnodes(v) => self.vnodes = *v,
            Change::SetKeys(spec) => self.key_spec = spec.clone(),
            Change::SetAlgorithm(a) => {
                self.algo = *a;
                self.reset_slot_table();
            }
            Change::SetHash(h) => self.hash = *h,
        }
        self.scenario().validate()?;
        Ok(ideal)
    }

    fn assign_all(&mut self, placement: &dyn Placement) {
        self.owners.clear();
        let all = 0..self.keys.len();
        push_owners(
            &self.keys,
            all,
            &self.key_spec,
            self.seed,
            placement,
            &mut self.owners,
        );
        self.recount();
    }

    fn recount(&mut self) {
        self.counts.clear();
        for &o in &self.owners {
            if o != NO_OWNER {
                let i = usize::from(o);
                if self.counts.len() <= i {
                    self.counts.resize(i + 1, 0);
                }
                self.counts[i] += 1;
            }
        }
    }

    fn record(&mut self, place: usize, to: ServerId, flows: &mut FlowTally, m: &mut Movement) {
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
        *flows.entry((from, to)).or_insert(0) += 1;
    }

    /// Visits only the keys inside the changed arcs.
    fn move_arcs(&mut self, arcs: &[ArcChange]) -> Movement {
        let mut m = Movement {
            keys: self.keys.len() as u64,
            ..Movement::default()
        };
        let mut flows = FlowTally::new();
        for arc in arcs {
            for range in self.keys.places_in_arc(arc.after, arc.upto) {
                for place in range {
                    self.record(place, arc.to, &mut flows, &mut m);
                }
            }
        }
        finish(&mut m, flows);
        m
    }

    /// Moves every key to the owner computed for it (same key layout).
    fn move_to(&mut self, owners: &[ServerId]) -> Movement {
        let mut m = Movement {
            keys: self.keys.len() as u64,
            ..Movement::default()
        };
        let mut flows = FlowTally::new();
        for (place, &to) in owners.iter().enumerate() {
            self.record(place, to, &mut flows, &mut m);
        }
        finish(&mut m, flows);
        m
    }

    /// Keys whose owner differs between this state and `next`, matched by key index
    /// (the two layouts are sorted differently). A replaced key set moves nothing.
    fn compare_by_key(&self, next: &Simulation, keys_replaced: bool) -> Movement {
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
        let mut flows = FlowTally::new();
        for (place, &id) in next.keys.ids.iter().enumerate() {
            let (from, to) = (before[id as usize], next.owners[place]);
            if from != to {
                m.moved += 1;
                *flows.entry((from, to)).or_insert(0) += 1;
            }
        }
        finish(&mut m, flows);
        m
    }
}

/// How a change's key work is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WorkMode {
    /// Ring to ring: only keys in the changed arcs (done in [`Simulation::finish`]).
    Arcs,
    /// Same key layout, every key's owner recomputed.
    EveryKey,
    /// A new key layout: every key hashed again and assigned.
    Relay {
        /// True when the key set itself was replaced (nothing "moves").
        keys_replaced: bool,
    },
}

/// A change in progress: new owners computed a chunk at a time.
#[derive(Clone)]
pub struct Work {
    next: Simulation,
    placement: Rc<dyn Placement>,
    ideal: Option<f64>,
    mode: WorkMode,
    total: usize,
    cost_per_key: usize,
    owners: Vec<ServerId>,
}

impl Work {
    /// Computes new owners for more keys, about `budget` hash evaluations' worth.
    pub fn advance(&mut self, budget: usize) {
        if self.is_finished() {
            return;
        }
        // `next.keys` is the new layout when re-laying, else the shared current one.
        let count = (budget / self.cost_per_key).max(1);
        let end = self.owners.len().saturating_add(count).min(self.total);
        let next = &self.next;
        let range = self.owners.len()..end;
        push_owners(
            &next.keys,
            range,
            &next.key_spec,
            next.seed,
            self.placement.as_ref(),
            &mut self.owners,
        );
    }

    /// True when every key has its new owner.
    pub fn is_finished(&self) -> bool {
        self.owners.len() >= self.total
    }

    /// Hash evaluations left, roughly: what a page weighs to decide whether to step.
    pub fn remaining_cost(&self) -> usize {
        (self.total - self.owners.len().min(self.total)).saturating_mul(self.cost_per_key)
    }

    /// Keys done and keys in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.owners.len().min(self.total), self.total)
    }
}

/// Every listed server keeps a slot share, down or not: a failed master's slots stay its
/// own (they are served by the next live range clockwise until it recovers).
fn slot_weights(servers: &[Server]) -> Vec<(ServerId, f64)> {
    servers.iter().map(|s| (s.id, s.weight)).collect()
}

/// Appends to `out` the owners of the keys at sorted places `range` under `placement`:
/// one linear merge for a ring covering every key, otherwise a lookup per key (by name for
/// the per-key algorithms).
fn push_owners(
    keys: &KeySet,
    range: std::ops::Range<usize>,
    spec: &KeySpec,
    seed: u64,
    placement: &dyn Placement,
    out: &mut Vec<ServerId>,
) {
    if let Some(ring) = placement.ring() {
        if range == (0..keys.len()) {
            debug_assert!(out.is_empty(), "a whole-layout merge starts from no owners");
            ring.assign_sorted(&keys.positions, out);
            return;
        }
    }
    let mut name = String::new();
    for place in range {
        let (id, pos) = (keys.ids[place], keys.positions[place]);
        out.push(match placement.ring() {
            Some(r) => r.owner_of(pos),
            None => {
                spec.write_name(id, seed, &mut name);
                placement.owner(&name, pos)
            }
        });
    }
}

/// Keys moved per (from, to) pair while a change is applied.
type FlowTally = std::collections::HashMap<(ServerId, ServerId), u64>;

fn finish(m: &mut Movement, flows: FlowTally) {
    let mut flows: Vec<Flow> = flows
        .into_iter()
        .map(|((from, to), keys)| Flow { from, to, keys })
        .collect();
    flows.sort_unstable_by_key(|f| (f.from, f.to));
    m.flows = flows;
}
