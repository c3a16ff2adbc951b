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
//! The key layout and the placement are shared (`Arc`, `Rc`) between clones: a copy of a
//! simulation costs the owners (2 bytes a key), never a rehash.

use std::rc::Rc;
use std::sync::Arc;

use super::book::BucketBook;
use super::bounded::Bounded;
use super::hash::HashFn;
use super::keys::{KeySet, KeySpec};
use super::placement::{
    build_placement, key_layout, key_position, ring_placement, weighted_vnodes, Algorithm,
    Explanation, LiveServer, ModN, Placement,
};
use super::ring::{ArcChange, Ring, ServerId, VNode, NO_OWNER};
use super::scenario::{
    parse_algorithm, parse_hash, parse_vnodes, validate_name, Scenario, ServerSpec, Settings,
    MAX_SERVERS,
};
use super::scorers::{Rank, Ranked, Scale};
use super::slots::SlotTable;
use super::stats::Stats;
use super::text::quote;

/// One server of the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Server {
    /// Stable id: indexes counts and picks the colour. An added server gets a new one (the
    /// smallest free id only once every id up to `NO_OWNER` was used).
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
            format!("step {} must look like add:NAME, remove:NAME, fail:NAME, recover:NAME, weight:NAME*W, vnodes:N, keys:SPEC, algo:NAME or hash:NAME", quote(text))
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
                    .ok_or_else(|| format!("step {} must look like weight:NAME*W", quote(text)))?;
                Change::SetWeight(name.into(), super::scenario::parse_weight(w)?)
            }
            "vnodes" => Change::SetVnodes(parse_vnodes(arg)?),
            "keys" => Change::SetKeys(KeySpec::parse(arg).map_err(|e| e.to_string())?),
            "algo" => Change::SetAlgorithm(parse_algorithm(arg)?),
            "hash" => Change::SetHash(parse_hash(arg)?),
            _ => return Err(format!("unknown step {} in {}; use add, remove, fail, recover, weight, vnodes, keys, algo or hash", quote(verb), quote(text))),
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

/// What the user chose: the scenario's settings and the servers (with the ids and the
/// slot table that the history of changes gave them).
#[derive(Clone, Debug)]
pub struct Config {
    /// Algorithm, hash, vnodes, label, keys and seed.
    pub settings: Settings,
    servers: Vec<Server>,
    slot_table: Option<SlotTable>,
    book: Option<BucketBook>,
    /// The id the next added server gets: one past every id used so far, so a new server
    /// never takes a removed server's id — nor its colour, which the page picks by id.
    next_id: ServerId,
}

impl Config {
    /// The configuration a scenario describes (ids in list order, a fresh slot table).
    pub fn new(scenario: &Scenario) -> Result<Config, String> {
        scenario.validate()?;
        let servers = scenario
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| Server {
                id: i as ServerId,
                name: n.name.clone(),
                weight: n.weight,
                up: n.up,
            })
            .collect();
        let next_id = scenario.nodes.len() as ServerId;
        let mut config = Config {
            settings: scenario.settings.clone(),
            servers,
            slot_table: None,
            book: None,
            next_id,
        };
        config.reset_slot_table();
        config.reset_book();
        Ok(config)
    }

    /// The scenario that rebuilds this configuration (slot tables aside, which depend on
    /// history).
    pub fn scenario(&self) -> Scenario {
        Scenario {
            settings: self.settings.clone(),
            nodes: self
                .servers
                .iter()
                .map(|s| ServerSpec {
                    name: s.name.clone(),
                    weight: s.weight,
                    up: s.up,
                })
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

    /// The slot table (for `slots`).
    pub fn slot_table(&self) -> Option<&SlotTable> {
        self.slot_table.as_ref()
    }

    /// The bucket book (for Anchor, Memento and Dx).
    pub fn bucket_book(&self) -> Option<&BucketBook> {
        self.book.as_ref()
    }

    /// The live servers as the placements see them.
    pub fn live(&self) -> Vec<LiveServer> {
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

    /// Builds the placement for the live servers in one go.
    pub fn placement(&self) -> Result<Rc<dyn Placement>, String> {
        build_placement(
            &self.settings,
            self.live(),
            self.slot_table.as_ref(),
            self.book.as_ref(),
        )
    }

    /// Whether a server named `name` can be added: there is room, and the name is valid,
    /// new, and one whose vnode labels the hash can read (the identity hash reads only
    /// numbers). Returns the name as it will be stored (trimmed).
    pub fn accepts_new_server(&self, name: &str) -> Result<String, String> {
        if self.servers.len() >= MAX_SERVERS {
            return Err(format!(
                "there are already {MAX_SERVERS} servers, the limit"
            ));
        }
        let name = validate_name(name)?;
        if self.servers.iter().any(|s| s.name == name) {
            return Err(format!(
                "a server named {} already exists; names must be unique",
                quote(&name)
            ));
        }
        let s = &self.settings;
        if s.algo == Algorithm::Ring {
            for i in [0, weighted_vnodes(s.vnodes, 1.0) - 1] {
                s.hash
                    .position(&s.label.render(&name, i))
                    .map_err(|e| format!("vnode label: {e}"))?;
            }
        }
        Ok(name)
    }

    /// True when another server can be added at all.
    pub fn has_room(&self) -> bool {
        self.servers.len() < MAX_SERVERS
    }

    /// The server named `name`, as an index into the list.
    fn find(&self, name: &str) -> Result<usize, String> {
        let name = name.trim();
        self.servers
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = self.servers.iter().map(|s| s.name.as_str()).collect();
                if names.is_empty() {
                    format!("there is no server {}; the list is empty", quote(name))
                } else {
                    format!(
                        "there is no server {}; the servers are {}",
                        quote(name),
                        names.join(", ")
                    )
                }
            })
    }

    fn weight_share(&self, id: ServerId) -> Option<f64> {
        let total: f64 = self.servers.iter().filter(|s| s.up).map(|s| s.weight).sum();
        let s = self.server(id)?;
        (total > 0.0).then(|| s.weight / total)
    }

    fn reset_slot_table(&mut self) {
        self.slot_table = (self.settings.algo == Algorithm::Slots).then(|| {
            let all: Vec<(ServerId, f64)> = self.servers.iter().map(|s| (s.id, s.weight)).collect();
            SlotTable::create(&all)
        });
    }

    fn reset_book(&mut self) {
        self.book = self.settings.algo.keeps_bucket_book().then(|| {
            let all: Vec<(ServerId, bool)> = self.servers.iter().map(|s| (s.id, s.up)).collect();
            BucketBook::new(&all)
        });
    }

    fn book_give_up(&mut self, id: ServerId) {
        if let Some(book) = &mut self.book {
            book.give_up(id);
        }
    }

    fn book_take(&mut self, id: ServerId) {
        if let Some(book) = &mut self.book {
            book.take(id);
        }
    }

    fn rebalance_slots(&mut self) {
        // Every listed server keeps a slot share, down or not: a failed master's slots stay
        // its own (they are served by the next live range clockwise until it recovers).
        let weights: Vec<(ServerId, f64)> = self.servers.iter().map(|s| (s.id, s.weight)).collect();
        if let Some(t) = &mut self.slot_table {
            t.rebalance(&weights);
        }
    }

    /// Applies `change` to this configuration; returns the ideal moved fraction. `now` is
    /// the configuration before the change. On error the caller drops this copy.
    fn edit(&mut self, change: &Change, now: &Config) -> Result<Option<f64>, String> {
        let mut ideal = None;
        match change {
            Change::Add { name, weight } => {
                let name = self.accepts_new_server(name)?;
                let free = |id: &ServerId| !self.servers.iter().any(|s| s.id == *id);
                let id = (self.next_id..NO_OWNER)
                    .chain(0..self.next_id)
                    .find(free)
                    .ok_or("no free server id")?;
                self.next_id = id.saturating_add(1);
                self.servers.push(Server {
                    id,
                    name,
                    weight: *weight,
                    up: true,
                });
                ideal = self.weight_share(id);
                self.rebalance_slots();
                self.book_take(id);
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
                self.rebalance_slots();
                self.book_give_up(id);
            }
            Change::Fail(name) => {
                let i = self.find(name)?;
                if !self.servers[i].up {
                    return Err(format!("server {} is already down", quote(name)));
                }
                ideal = now.weight_share(self.servers[i].id);
                self.servers[i].up = false;
                self.book_give_up(self.servers[i].id);
            }
            Change::Recover(name) => {
                let i = self.find(name)?;
                if self.servers[i].up {
                    return Err(format!("server {} is not down", quote(name)));
                }
                self.servers[i].up = true;
                ideal = self.weight_share(self.servers[i].id);
                self.book_take(self.servers[i].id);
            }
            Change::SetWeight(name, w) => {
                let i = self.find(name)?;
                let id = self.servers[i].id;
                let before = now.weight_share(id).unwrap_or(0.0);
                self.servers[i].weight = *w;
                ideal = Some((self.weight_share(id).unwrap_or(0.0) - before).abs());
                self.rebalance_slots();
            }
            Change::SetVnodes(v) => self.settings.vnodes = *v,
            Change::SetKeys(spec) => self.settings.keys = spec.clone(),
            Change::SetAlgorithm(a) => {
                self.settings.algo = *a;
                self.reset_slot_table();
                self.reset_book();
            }
            Change::SetHash(h) => self.settings.hash = *h,
        }
        self.scenario().validate()?;
        Ok(ideal)
    }
}

/// The whole simulation state: the configuration and the assignment that follows from it.
#[derive(Clone)]
pub struct Simulation {
    config: Config,
    placement: Rc<dyn Placement>,
    keys: Arc<KeySet>,
    owners: Vec<ServerId>,
    /// Per-key scorers only: each key's winning rank by place, on the placement's scale
    /// (empty otherwise).
    ranks: Rc<Vec<Rank>>,
    counts: Vec<u64>,
}

impl Simulation {
    /// Builds the simulation a scenario describes, assigning every key.
    pub fn new(scenario: &Scenario) -> Result<Simulation, String> {
        let mut work = Work::load(scenario)?;
        work.run()?;
        work.into_simulation()
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
    pub fn position_of(&self, key: &str) -> Result<u32, String> {
        let s = self.settings();
        key_position(s, key).map_err(|e| e.to_string())
    }

    /// Looks one key up without changing anything: (position, owner).
    pub fn lookup(&self, key: &str) -> Result<(u32, ServerId), String> {
        let position = self.position_of(key)?;
        if self.placement.arrival_order().is_some() {
            return Ok((position, self.explain(key)?.owner));
        }
        Ok((position, self.placement.owner(key, position)))
    }

    /// Looks one key up and says how its owner was found.
    pub fn explain(&self, key: &str) -> Result<Explanation, String> {
        let position = self.position_of(key)?;
        let arrival = self
            .placement
            .arrival_order()
            .and_then(|_| self.arrival_of(key, position));
        Ok(self.placement.explain_arrival(key, position, arrival))
    }

    /// The arrival number (index in the key set) of `key`, when it is one of the keys.
    fn arrival_of(&self, key: &str, position: u32) -> Option<u32> {
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
    pub fn apply(&mut self, change: &Change) -> Result<Movement, String> {
        let mut work = self.start(change)?;
        work.run()?;
        self.finish(work)
    }

    /// Begins a change that [`Work::advance`] then carries out in steps, so that a page can
    /// stay responsive (and show progress) while keys are rehashed or a per-key algorithm
    /// visits a million keys. Validation happens here: on error nothing has changed.
    pub fn start(&self, change: &Change) -> Result<Work, String> {
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
    fn scorer_mode(&self, change: &Change, before: &Settings, next: &Config) -> WorkMode {
        let scorer = matches!(before.algo, Algorithm::Rendezvous | Algorithm::Carp)
            && before.algo == next.settings.algo;
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
    pub fn finish(&mut self, mut work: Work) -> Result<Movement, String> {
        work.run()?;
        let ideal = work.ideal;
        let mode = work.mode;
        let up_before: Vec<(ServerId, f64)> = self
            .servers()
            .iter()
            .filter(|s| s.up)
            .map(|s| (s.id, s.weight))
            .collect();
        let next = work.into_simulation()?;
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
                let mut m = self.move_arcs(&arcs);
                m.arcs = arcs;
                self.config = next.config;
                self.placement = next.placement;
                m
            }
            WorkMode::EveryKey | WorkMode::Departed(_) | WorkMode::Joined(_) => {
                let m = self.move_to(&next.owners);
                self.config = next.config;
                self.placement = next.placement;
                self.ranks = next.ranks;
                m
            }
            WorkMode::Relay { keys_replaced } => {
                let m = self.compare_by_key(&next, keys_replaced);
                *self = next;
                m
            }
        };
        movement.ideal_fraction = ideal;
        movement.survivors = up_before
            .iter()
            .filter(|&&(id, weight)| {
                self.server(id)
                    .is_some_and(|x| x.up && x.weight.to_bits() == weight.to_bits())
            })
            .map(|&(id, _)| id)
            .collect();
        movement.survivors.sort_unstable();
        movement.between_survivors = movement
            .flows
            .iter()
            .filter(|f| movement.survives(f.from) && movement.survives(f.to))
            .map(|f| f.keys)
            .sum();
        Ok(movement)
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
        flows.add(from, to);
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
        finish_flows(&mut m, flows);
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
        finish_flows(&mut m, flows);
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
                flows.add(from, to);
            }
        }
        finish_flows(&mut m, flows);
        m
    }
}

fn count_owners(owners: &[ServerId]) -> Vec<u64> {
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

/// How a change's key work is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WorkMode {
    /// A whole scenario from nothing: nothing "moves".
    Load,
    /// Ring to ring: only keys in the changed arcs (done in [`Simulation::finish`]).
    Arcs,
    /// Same key layout, every key's owner recomputed.
    EveryKey,
    /// A per-key scorer lost a server: only its keys are scored again (the others keep
    /// their owner — the scorers are monotone).
    Departed(ServerId),
    /// A per-key scorer gained a server: only the newcomer scores each key, against the
    /// holder's kept [`Rank`] (one score a key instead of one per server).
    Joined(ServerId),
    /// A new key layout: every key hashed again and assigned.
    Relay {
        /// True when the key set itself was replaced (nothing "moves").
        keys_replaced: bool,
    },
}

/// Which part of a piece of work is under way, for a progress line (in the order they run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    /// Hashing key names to ring positions.
    HashingKeys,
    /// Hashing virtual-node labels to ring positions.
    PlacingVnodes,
    /// Finding each key's owner.
    AssigningKeys,
    /// Done.
    Done,
}

/// A vector built a chunk per step, whose clone shares the chunks: work in progress is
/// copied with the state that holds it (a page keeps its states as values), and copying
/// must not mean copying a million entries per step.
#[derive(Clone, Debug)]
struct Chunks<T> {
    chunks: Vec<Rc<Vec<T>>>,
    len: usize,
}

impl<T: Clone> Chunks<T> {
    fn new() -> Chunks<T> {
        Chunks {
            chunks: Vec::new(),
            len: 0,
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn push(&mut self, chunk: Vec<T>) {
        self.len += chunk.len();
        if !chunk.is_empty() {
            self.chunks.push(Rc::new(chunk));
        }
    }

    /// All entries in one vector (the one copy, when the work is done).
    fn concat(self) -> Vec<T> {
        match <[Rc<Vec<T>>; 1]>::try_from(self.chunks) {
            Ok([only]) => Rc::try_unwrap(only).unwrap_or_else(|rc| (*rc).clone()),
            Err(chunks) => {
                let mut all = Vec::with_capacity(self.len);
                for c in chunks {
                    all.extend_from_slice(&c);
                }
                all
            }
        }
    }
}

/// The keys of a piece of work: ready, or being hashed a chunk at a time.
#[derive(Clone)]
enum KeyWork {
    Ready(Arc<KeySet>),
    Hashing {
        settings: Settings,
        pairs: Chunks<(u32, u32)>,
    },
}

impl KeyWork {
    fn hashing(settings: &Settings) -> KeyWork {
        KeyWork::Hashing {
            settings: settings.clone(),
            pairs: Chunks::new(),
        }
    }
}

/// The placement of a piece of work: ready, or (a ring) having its vnode labels hashed a
/// chunk at a time.
#[derive(Clone)]
enum PlacementWork {
    Ready(Rc<dyn Placement>),
    Vnodes {
        live: Vec<LiveServer>,
        /// Next (live server index, replica) to hash.
        next: (usize, u32),
        points: Vec<VNode>,
        total: usize,
    },
}

/// A piece of work in progress: a change, or a whole scenario being loaded. Keys are
/// hashed, vnodes placed and owners computed a chunk at a time by [`Work::advance`], so a
/// page can show progress between chunks. The budget is in cost units of about 10 ns of
/// the page's WebAssembly each (see the `*_COST` constants, measured in the browser), so a
/// budget means about the same time whatever the phase.
#[derive(Clone)]
pub struct Work {
    next: Config,
    keys: KeyWork,
    placement: PlacementWork,
    mode: WorkMode,
    ideal: Option<f64>,
    owners: Chunks<ServerId>,
    /// Per-key scorers: the owners' ranks, alongside `owners`.
    ranks: Chunks<Rank>,
    /// The assignment before the change, for the incremental scorer modes.
    previous: Option<Previous>,
    /// Bounded loads: the keys placed so far, one after another in arrival order.
    arrivals: Option<Arrivals>,
}

/// Owners and ranks by place before a change, and the scale of those ranks.
#[derive(Clone)]
struct Previous {
    owners: Rc<Vec<ServerId>>,
    ranks: Rc<Vec<Rank>>,
    scale: Option<Scale>,
}

/// Bounded loads' keys being placed in arrival order (key 0 first), a chunk per step.
#[derive(Clone)]
struct Arrivals {
    /// The ring with the loads of the keys placed so far.
    bounded: Bounded,
    /// `places[id]`: where key `id` sits in the sorted layout.
    places: Rc<Vec<u32>>,
    /// Owners by place (`NO_OWNER` until placed).
    owners: Vec<ServerId>,
    /// Keys placed so far.
    done: usize,
}

/// The vnodes of a ring this large are hashed in steps rather than at once.
const STEPPED_VNODES: usize = 20_000;

/// Naming a key and hashing it to a position (re-measured in the page 2026-12-01: 40 had
/// become 4× too much once naming stopped going through the formatter, so steps were short
/// and each paid a render for little work).
const KEY_COST: usize = 12;
/// Naming a key only (the per-key scorers hash `server + key`, not the key): about 40 ns.
const NAME_COST: usize = 4;
/// Rendering a vnode label and hashing it.
const VNODE_COST: usize = 60;
/// Sorting one entry (keys by position, vnodes into a ring) when a phase completes.
const SORT_COST: usize = 4;
/// A ring or slot lookup, or `hash mod N`.
const LOOKUP_COST: usize = 5;
/// One rendezvous score: concatenate server and key, hash.
const SCORE_COST: usize = 10;
/// One CARP score: the MD5 of server and key (about 100 ns in the page four at a time,
/// measured).
const DIGEST_COST: usize = 11;

impl Work {
    fn new(
        next: Config,
        keys: KeyWork,
        mode: WorkMode,
        ideal: Option<f64>,
    ) -> Result<Work, String> {
        let live = next.live();
        let s = &next.settings;
        let total: usize = if s.algo.uses_vnodes() {
            live.iter()
                .map(|l| weighted_vnodes(s.vnodes, l.weight) as usize)
                .sum()
        } else {
            0
        };
        let placement = if total >= STEPPED_VNODES {
            // Catch the usual label errors (the identity hash wants numbers) now, while
            // nothing has started; a later label can still fail, and ends the work then.
            for l in &live {
                s.hash
                    .position(&s.label.render(&l.name, 0))
                    .map_err(|e| format!("vnode label: {e}"))?;
            }
            PlacementWork::Vnodes {
                live,
                next: (0, 0),
                points: Vec::with_capacity(total),
                total,
            }
        } else {
            // Small rings, slot tables and per-key algorithms build in well under a step.
            PlacementWork::Ready(next.placement()?)
        };
        Ok(Work {
            next,
            keys,
            placement,
            mode,
            ideal,
            owners: Chunks::new(),
            ranks: Chunks::new(),
            previous: None,
            arrivals: None,
        })
    }

    /// The work of building `scenario`'s simulation from nothing.
    pub fn load(scenario: &Scenario) -> Result<Work, String> {
        let config = Config::new(scenario)?;
        let keys = KeyWork::hashing(&config.settings);
        Work::new(config, keys, WorkMode::Load, None)
    }

    /// The configuration the work leads to.
    pub fn config(&self) -> &Config {
        &self.next
    }

    fn key_count(&self) -> usize {
        self.next.settings.keys.len()
    }

    /// Cost of assigning one key an owner.
    fn cost_per_key(&self) -> usize {
        let live = self.next.servers.iter().filter(|s| s.up).count().max(1);
        let score = match self.next.settings.algo {
            Algorithm::Carp => DIGEST_COST,
            _ => SCORE_COST,
        };
        match self.mode {
            // A departed server's keys (about one in `live + 1`) are scored by everyone.
            WorkMode::Departed(_) => return LOOKUP_COST + (NAME_COST + score * live) / (live + 1),
            WorkMode::Joined(_) => return NAME_COST + score,
            _ => {}
        }
        match self.next.settings.algo {
            Algorithm::Ring | Algorithm::Slots | Algorithm::ModN => LOOKUP_COST,
            // A walk past full servers: a few points more than the ring's one.
            Algorithm::Bounded => 2 * LOOKUP_COST,
            Algorithm::Jump
            | Algorithm::JumpBack
            | Algorithm::Binomial
            | Algorithm::Flip
            | Algorithm::Power
            | Algorithm::Maglev
            | Algorithm::Memento
            | Algorithm::Anchor => KEY_COST,
            // About capacity / working draws of the generator per key.
            Algorithm::Dx => {
                let capacity = self.next.book.as_ref().map_or(1, |b| b.capacity() as usize);
                KEY_COST + capacity / live
            }
            Algorithm::MultiProbe => KEY_COST + LOOKUP_COST * self.next.settings.probes as usize,
            Algorithm::Carp => NAME_COST + DIGEST_COST * live,
            Algorithm::Rendezvous => NAME_COST + SCORE_COST * live,
        }
    }

    /// True when owners are computed for every key (the arcs mode computes none: only
    /// the keys in the changed arcs, in [`Simulation::finish`]).
    fn owners_needed(&self) -> usize {
        match self.mode {
            WorkMode::Arcs => 0,
            _ => self.key_count(),
        }
    }

    /// Does about `budget` units of work and returns the units spent; it stops early
    /// after a phase's closing sort, so that a step never runs on into the next phase.
    /// Call it until [`Work::is_finished`] (or use [`Work::run`]). An error (a key the
    /// identity hash cannot read, say) ends the work; the state it would change is
    /// untouched.
    pub fn advance(&mut self, budget: usize) -> Result<usize, String> {
        let mut spent = 0usize;
        // 1. Hash the keys.
        if let KeyWork::Hashing { settings, pairs } = &mut self.keys {
            let n = settings.keys.len();
            let start = pairs.len();
            let end = start.saturating_add((budget / KEY_COST).max(1)).min(n);
            let mut name = String::new();
            let mut chunk = Vec::with_capacity(end - start);
            for index in start as u32..end as u32 {
                settings.keys.write_name(index, settings.seed, &mut name);
                let p = key_position(settings, &name).map_err(|e| format!("keys: {e}"))?;
                chunk.push((p, index));
            }
            pairs.push(chunk);
            spent += (end - start) * KEY_COST;
            // The closing sort gets a step of its own unless it fits in what is left.
            if pairs.len() < n || (spent > 0 && n * SORT_COST > budget.saturating_sub(spent)) {
                return Ok(spent);
            }
            let done = KeySet::from_pairs(std::mem::replace(pairs, Chunks::new()).concat());
            self.keys = KeyWork::Ready(Arc::new(done));
            return Ok(spent + n * SORT_COST);
        }
        // 2. Place the vnodes.
        if let PlacementWork::Vnodes {
            live,
            next,
            points,
            total,
        } = &mut self.placement
        {
            let s = &self.next.settings;
            while points.len() < *total && spent < budget.max(1) {
                spent += VNODE_COST;
                let (i, r) = *next;
                let server = &live[i];
                let text = s.label.render(&server.name, r);
                let position = s
                    .hash
                    .position(&text)
                    .map_err(|e| format!("vnode label: {e}"))?;
                points.push(VNode {
                    position,
                    server: server.id,
                    replica: r,
                });
                *next = if r + 1 < weighted_vnodes(s.vnodes, server.weight) {
                    (i, r + 1)
                } else {
                    (i + 1, 0)
                };
            }
            let sort = points.len() * SORT_COST;
            if points.len() < *total || (spent > 0 && sort > budget.saturating_sub(spent)) {
                return Ok(spent);
            }
            let live = std::mem::take(live);
            let name_of = |id: ServerId| {
                live.iter()
                    .find(|l| l.id == id)
                    .map_or("", |l| l.name.as_str())
            };
            let sorted = points.len();
            let ring = Ring::new(std::mem::take(points), name_of);
            self.placement = PlacementWork::Ready(ring_placement(s, ring, live.len()));
            return Ok(spent + sorted * SORT_COST);
        }
        // 3. Find the owners.
        let needed = self.owners_needed();
        if self.owners.len() >= needed {
            return Ok(spent);
        }
        let (KeyWork::Ready(keys), PlacementWork::Ready(placement)) = (&self.keys, &self.placement)
        else {
            return Ok(spent);
        };
        let count = (budget.saturating_sub(spent) / self.cost_per_key()).max(1);
        if let Some(bounded) = Bounded::of(placement.as_ref()) {
            let arrivals = self
                .arrivals
                .get_or_insert_with(|| Arrivals::new(bounded, keys));
            if arrivals.arrive(keys, count) {
                let done = self.arrivals.take().expect("arrivals under way");
                self.owners.push(done.owners);
                self.placement = PlacementWork::Ready(Rc::new(done.bounded));
            }
            return Ok(spent + count * self.cost_per_key());
        }
        let end = self.owners.len().saturating_add(count).min(needed);
        let s = &self.next.settings;
        let mut chunk = Vec::with_capacity(end - self.owners.len());
        let range = self.owners.len()..end;
        match placement.ranked() {
            Some(ranked) => {
                let mut ranks = Vec::with_capacity(chunk.capacity());
                let scoring = Scoring {
                    keys,
                    spec: &s.keys,
                    seed: s.seed,
                    ranked,
                };
                scoring.push(
                    range,
                    self.mode,
                    self.previous.as_ref(),
                    &mut chunk,
                    &mut ranks,
                );
                self.ranks.push(ranks);
            }
            None => push_owners(keys, range, &s.keys, s.seed, placement.as_ref(), &mut chunk),
        }
        self.owners.push(chunk);
        Ok(spent + count * self.cost_per_key())
    }

    /// Does all the work that is left.
    pub fn run(&mut self) -> Result<(), String> {
        while !self.is_finished() {
            self.advance(usize::MAX)?;
        }
        Ok(())
    }

    /// What is under way and how far it is: (phase, units done, units in all).
    pub fn progress(&self) -> (Phase, usize, usize) {
        if let KeyWork::Hashing { pairs, settings } = &self.keys {
            return (Phase::HashingKeys, pairs.len(), settings.keys.len());
        }
        if let PlacementWork::Vnodes { points, total, .. } = &self.placement {
            return (Phase::PlacingVnodes, points.len(), *total);
        }
        let needed = self.owners_needed();
        if self.owners.len() < needed {
            let done = self.arrivals.as_ref().map_or(self.owners.len(), |a| a.done);
            return (Phase::AssigningKeys, done, needed);
        }
        (Phase::Done, needed, needed)
    }

    /// True when every phase is done.
    pub fn is_finished(&self) -> bool {
        self.progress().0 == Phase::Done
    }

    /// Hash evaluations left, roughly: what a page weighs to decide whether to step.
    pub fn remaining_cost(&self) -> usize {
        let keys = match &self.keys {
            KeyWork::Hashing { pairs, settings } => settings.keys.len() - pairs.len(),
            KeyWork::Ready(_) => 0,
        };
        let vnodes = match &self.placement {
            PlacementWork::Vnodes { points, total, .. } => total - points.len(),
            PlacementWork::Ready(_) => 0,
        };
        let done = self.arrivals.as_ref().map_or(self.owners.len(), |a| a.done);
        let owners = self.owners_needed().saturating_sub(done);
        (keys.saturating_mul(KEY_COST))
            .saturating_add(vnodes.saturating_mul(VNODE_COST))
            .saturating_add(owners.saturating_mul(self.cost_per_key()))
    }

    /// The simulation this work builds (every phase must be done). In the arcs mode the
    /// owners are not computed here: [`Simulation::finish`] moves only the changed arcs.
    fn into_simulation(self) -> Result<Simulation, String> {
        let (KeyWork::Ready(keys), PlacementWork::Ready(placement)) = (self.keys, self.placement)
        else {
            return Err("the work is not finished".into());
        };
        let owners = self.owners.concat();
        let ranks = Rc::new(self.ranks.concat());
        let counts = count_owners(&owners);
        Ok(Simulation {
            config: self.next,
            placement,
            keys,
            owners,
            ranks,
            counts,
        })
    }
}

impl Arrivals {
    fn new(bounded: &Bounded, keys: &KeySet) -> Arrivals {
        let mut places = vec![0u32; keys.len()];
        for (place, &id) in keys.ids.iter().enumerate() {
            places[id as usize] = place as u32;
        }
        Arrivals {
            bounded: Bounded::new(bounded.ring.clone(), bounded.capacity),
            places: Rc::new(places),
            owners: vec![NO_OWNER; keys.len()],
            done: 0,
        }
    }

    /// Places the next `count` keys; true when every key has arrived.
    fn arrive(&mut self, keys: &KeySet, count: usize) -> bool {
        let end = self.done.saturating_add(count).min(keys.len());
        for id in self.done..end {
            let place = self.places[id] as usize;
            self.owners[place] = self.bounded.place(keys.positions[place], id as u32);
        }
        self.done = end;
        self.done == keys.len()
    }
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
        if range == (0..keys.len()) && out.is_empty() {
            ring.assign_sorted(&keys.positions, out);
            return;
        }
    }
    let mut name = String::new();
    let named = placement.needs_key_name();
    for place in range {
        let (id, pos) = (keys.ids[place], keys.positions[place]);
        out.push(match placement.ring() {
            Some(r) => r.owner_of(pos),
            None => {
                if named {
                    spec.write_name(id, seed, &mut name);
                }
                placement.owner(&name, pos)
            }
        });
    }
}

/// A per-key scorer placing keys with their [`Rank`]s.
struct Scoring<'a> {
    keys: &'a KeySet,
    spec: &'a KeySpec,
    seed: u64,
    ranked: &'a dyn Ranked,
}

/// Keys named and scored per batch.
const KEYS_PER_BATCH: usize = 256;

impl Scoring<'_> {
    /// Appends the owners and ranks of the keys at sorted places `range`: a departed
    /// server's keys scored by everyone (the others keep theirs), a joined server scored
    /// against each key's kept rank, or every key scored by everyone.
    fn push(
        &self,
        range: std::ops::Range<usize>,
        mode: WorkMode,
        previous: Option<&Previous>,
        owners: &mut Vec<ServerId>,
        ranks: &mut Vec<Rank>,
    ) {
        let scale = Some(self.ranked.scale());
        let previous = previous.filter(|p| p.scale == scale && p.ranks.len() == self.keys.len());
        let departed = match (mode, previous) {
            (WorkMode::Departed(gone), Some(p)) => Some((gone, p)),
            _ => None,
        };
        let mut names = vec![String::new(); KEYS_PER_BATCH];
        // The sorted places scored in this batch: every key, or a departed server's.
        let mut scored: Vec<usize> = Vec::with_capacity(KEYS_PER_BATCH);
        let mut held = Vec::with_capacity(KEYS_PER_BATCH);
        let mut found = Vec::with_capacity(KEYS_PER_BATCH);
        for start in range.clone().step_by(KEYS_PER_BATCH) {
            let batch = start..(start + KEYS_PER_BATCH).min(range.end);
            scored.clear();
            match departed {
                Some((gone, p)) => scored.extend(batch.clone().filter(|&at| p.owners[at] == gone)),
                None => scored.extend(batch.clone()),
            }
            for (name, &place) in names.iter_mut().zip(&scored) {
                self.spec.write_name(self.keys.ids[place], self.seed, name);
            }
            let keys: Vec<&str> = names[..scored.len()].iter().map(String::as_str).collect();
            found.clear();
            match (mode, previous) {
                (WorkMode::Joined(new), Some(p)) => {
                    held.clear();
                    held.extend(
                        scored
                            .iter()
                            .map(|&place| (p.owners[place], p.ranks[place])),
                    );
                    self.ranked.challenges(&keys, &held, new, &mut found);
                }
                _ => self.ranked.owners_ranked(&keys, &mut found),
            }
            match departed {
                Some((gone, p)) => {
                    let mut rescored = found.iter();
                    for place in batch {
                        let (owner, rank) = if p.owners[place] == gone {
                            rescored.next().copied().unwrap_or((NO_OWNER, 0))
                        } else {
                            (p.owners[place], p.ranks[place])
                        };
                        owners.push(owner);
                        ranks.push(rank);
                    }
                }
                None => {
                    owners.extend(found.iter().map(|f| f.0));
                    ranks.extend(found.iter().map(|f| f.1));
                }
            }
        }
    }
}

/// Keys moved per (from, to) pair while a change is applied: a dense matrix over server
/// ids below [`DENSE_FLOWS`] (a page's few hundred), with one extra row and column for
/// "nobody", so counting a moved key is an index, not a hash; pairs of larger ids (the
/// command line's thousands of servers) go to a map.
struct FlowTally {
    width: usize,
    counts: Vec<u64>,
    sparse: std::collections::BTreeMap<(usize, usize), u64>,
}

/// Server slots counted in the dense matrix (its side; 8 MB at most).
const DENSE_FLOWS: usize = 1024;

impl FlowTally {
    fn new() -> FlowTally {
        FlowTally {
            width: 0,
            counts: Vec::new(),
            sparse: std::collections::BTreeMap::new(),
        }
    }

    fn slot(id: ServerId) -> usize {
        if id == NO_OWNER {
            0
        } else {
            usize::from(id) + 1
        }
    }

    fn add(&mut self, from: ServerId, to: ServerId) {
        let need = Self::slot(from).max(Self::slot(to)) + 1;
        if need > DENSE_FLOWS {
            *self
                .sparse
                .entry((Self::slot(from), Self::slot(to)))
                .or_default() += 1;
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

fn finish_flows(m: &mut Movement, flows: FlowTally) {
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
    out.sort_unstable_by_key(|f| (f.from, f.to));
    m.flows = out;
}
