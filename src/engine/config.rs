//! What the user chose: the scenario's settings and the servers (with the ids and the
//! Redis slot table and bucket book that history gives them), and how each change edits
//! them. A change edits a copy; the simulation commits it with the new assignment.

use std::rc::Rc;

use super::book::BucketBook;
use super::change::{Change, Server};
use super::placement::{build_placement, weighted_vnodes, LiveServer, Placement};
use super::ring::{ServerId, NO_OWNER};
use super::scenario::{validate_name, Scenario, ServerSpec, Settings, MAX_SERVERS};
use super::slots::{SlotMap, SlotTable};
use super::spec::Memory;
use super::tokens::TokenMap;
use crate::problem::{Field, Problem};
use crate::text::quote;

/// What the user chose: the scenario's settings and the servers (with the ids and the
/// slot table that the history of changes gave them).
#[derive(Clone, Debug)]
pub struct Config {
    /// Algorithm, hash, vnodes, label, keys and seed.
    pub settings: Settings,
    pub(super) servers: Vec<Server>,
    pub(super) slot_table: Option<SlotTable>,
    /// True while the slot table is the one its servers were dealt (not given, not
    /// rebalanced): the scenario then need not write it.
    slots_as_dealt: bool,
    pub(super) book: Option<BucketBook>,
    /// A real cluster's own tokens (Cassandra's `nodetool ring`), by place in the list.
    pub(super) tokens: Option<TokenMap>,
    /// The id the next added server gets: one past every id used so far, so a new server
    /// never takes a removed server's id — nor its colour, which the page picks by id.
    pub(super) next_id: ServerId,
}

impl Config {
    /// The configuration a scenario describes (ids in list order, a fresh slot table).
    pub fn new(scenario: &Scenario) -> Result<Config, Problem> {
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
            slots_as_dealt: true,
            book: None,
            tokens: scenario.tokens.clone(),
            next_id,
        };
        config.reset_slot_table();
        if let (Some(map), Some(_)) = (&scenario.slots, &config.slot_table) {
            // A given table (validated with the scenario): server index → id, which is the
            // index here.
            let names: Vec<&str> = scenario.nodes.iter().map(|n| n.name.as_str()).collect();
            config.slot_table = SlotTable::from_owners(map.owners(&names)?);
            config.slots_as_dealt = false;
        }
        config.reset_book();
        Ok(config)
    }

    /// The scenario that rebuilds this configuration — its slot table too, when history
    /// made it other than the one its servers would be dealt.
    pub fn scenario(&self) -> Scenario {
        Scenario {
            slots: self.slot_map(),
            tokens: self.tokens.clone(),
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

    /// The slot table as a scenario writes it, when it is not the one its servers were dealt
    /// (and every slot's master is listed).
    fn slot_map(&self) -> Option<SlotMap> {
        let table = self.slot_table.as_ref().filter(|_| !self.slots_as_dealt)?;
        let mut index_of = vec![None; usize::from(ServerId::MAX) + 1];
        for (i, s) in self.servers.iter().enumerate() {
            index_of[usize::from(s.id)] = Some(i as u16);
        }
        let ranges = table
            .ranges()
            .into_iter()
            .map(|(first, last, id)| Some((first, last, index_of[usize::from(id)]?)))
            .collect::<Option<Vec<_>>>()?;
        Some(SlotMap::from_ranges(ranges, self.servers.len()))
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
        self.servers_up(true)
    }

    /// The servers that are down, as the placements see them.
    pub fn down(&self) -> Vec<LiveServer> {
        self.servers_up(false)
    }

    /// The servers that are up (or down), as the placements see them.
    fn servers_up(&self, up: bool) -> Vec<LiveServer> {
        self.servers
            .iter()
            .enumerate()
            .filter(|(_, s)| s.up == up)
            .map(|(slot, s)| LiveServer {
                id: s.id,
                name: s.name.clone(),
                weight: s.weight,
                slot: slot as u32,
            })
            .collect()
    }

    /// Builds the placement for the live servers in one go.
    pub fn placement(&self) -> Result<Rc<dyn Placement>, Problem> {
        build_placement(
            &self.settings,
            self.live(),
            self.servers_up(false),
            self.slot_table.as_ref(),
            self.book.as_ref(),
            self.tokens.as_ref(),
        )
    }

    /// Whether a server named `name` can be added: there is room, and the name is valid,
    /// new, and one whose vnode labels the hash can read (the identity hash reads only
    /// numbers). Returns the name as it will be stored (trimmed).
    pub fn accepts_new_server(&self, name: &str) -> Result<String, Problem> {
        if self.servers.len() >= MAX_SERVERS {
            return Err(Problem::ServerLimitReached { limit: MAX_SERVERS });
        }
        let name = validate_name(name)?;
        if self.servers.iter().any(|s| s.name == name) {
            return Err(Problem::ServerExists { name: quote(&name) });
        }
        let s = &self.settings;
        if s.algo.uses_vnodes() {
            for i in [0, weighted_vnodes(s.vnodes, 1.0) - 1] {
                s.hash
                    .position(&s.label.render(&name, i))
                    .map_err(|e| Problem::from(e).of(Field::Label))?;
            }
        }
        Ok(name)
    }

    /// True when another server can be added at all.
    pub fn has_room(&self) -> bool {
        self.servers.len() < MAX_SERVERS
    }

    /// The server named `name`, as an index into the list.
    pub(super) fn find(&self, name: &str) -> Result<usize, Problem> {
        let name = name.trim();
        self.servers
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = self.servers.iter().map(|s| s.name.as_str()).collect();
                if names.is_empty() {
                    Problem::NoSuchServerInEmptyList { name: quote(name) }
                } else {
                    Problem::NoSuchServer {
                        name: quote(name),
                        servers: names.join(", "),
                    }
                }
            })
    }

    pub(super) fn weight_share(&self, id: ServerId) -> Option<f64> {
        let total: f64 = self.servers.iter().filter(|s| s.up).map(|s| s.weight).sum();
        let s = self.server(id)?;
        (total > 0.0).then(|| s.weight / total)
    }

    pub(super) fn reset_slot_table(&mut self) {
        self.slot_table = (self.settings.algo.spec().memory == Memory::SlotTable).then(|| {
            let all: Vec<(ServerId, f64)> = self.servers.iter().map(|s| (s.id, s.weight)).collect();
            SlotTable::create(&all)
        });
        self.slots_as_dealt = true;
    }

    pub(super) fn reset_book(&mut self) {
        self.book = self.settings.algo.keeps_bucket_book().then(|| {
            let all: Vec<(ServerId, bool)> = self.servers.iter().map(|s| (s.id, s.up)).collect();
            BucketBook::new(&all)
        });
    }

    pub(super) fn book_give_up(&mut self, id: ServerId) {
        if let Some(book) = &mut self.book {
            book.give_up(id);
        }
    }

    pub(super) fn book_take(&mut self, id: ServerId) {
        if let Some(book) = &mut self.book {
            book.take(id);
        }
    }

    pub(super) fn rebalance_slots(&mut self) {
        // Every listed server keeps a slot share, down or not: a failed master's slots stay
        // its own (they are served by the next live range clockwise until it recovers).
        let weights: Vec<(ServerId, f64)> = self.servers.iter().map(|s| (s.id, s.weight)).collect();
        if let Some(t) = &mut self.slot_table {
            t.rebalance(&weights);
            self.slots_as_dealt = false;
        }
    }

    /// Applies `change` to this configuration; returns the ideal moved fraction. `now` is
    /// the configuration before the change. On error the caller drops this copy.
    pub(super) fn edit(&mut self, change: &Change, now: &Config) -> Result<Option<f64>, Problem> {
        let mut ideal = None;
        match change {
            Change::Add { name, weight } => {
                let name = self.accepts_new_server(name)?;
                let free = |id: &ServerId| !self.servers.iter().any(|s| s.id == *id);
                let id = (self.next_id..NO_OWNER)
                    .chain(0..self.next_id)
                    .find(free)
                    .ok_or(Problem::Internal("no free server id"))?;
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
                self.tokens = self.tokens.as_ref().map(TokenMap::pushed);
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
                self.tokens = self.tokens.as_ref().and_then(|t| t.removed(i));
                self.rebalance_slots();
                self.book_give_up(id);
            }
            Change::Fail(name) => {
                let i = self.find(name)?;
                if !self.servers[i].up {
                    return Err(Problem::AlreadyDown { name: quote(name) });
                }
                ideal = now.weight_share(self.servers[i].id);
                self.servers[i].up = false;
                self.book_give_up(self.servers[i].id);
            }
            Change::Recover(name) => {
                let i = self.find(name)?;
                if self.servers[i].up {
                    return Err(Problem::NotDown { name: quote(name) });
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
            Change::SetPgNum(n) => {
                if !self.settings.algo.spec().knobs.pg_num {
                    return Err(Problem::NeedsAlgo {
                        param: "pg_num",
                        algo: "ceph",
                    });
                }
                self.settings.pg_num = *n;
            }
            Change::SetKeys(spec) => self.settings.keys = spec.clone(),
            Change::SetAlgorithm(a) => {
                // A cluster's own tokens are Cassandra's alone (as its slot table is Redis's).
                if self.settings.algo != *a {
                    self.tokens = None;
                }
                self.settings.algo = *a;
                self.reset_slot_table();
                self.reset_book();
            }
            Change::SetHash(h) => self.settings.hash = *h,
            Change::AddHost { .. } | Change::RemoveHost(_) => {
                ideal = self.edit_hosts(change, now)?
            }
        }
        self.scenario().validate()?;
        Ok(ideal)
    }

    /// Ceph: a host added to or removed from the CRUSH layout with its OSDs; the ideal
    /// share moved (its OSDs' weight share).
    fn edit_hosts(&mut self, change: &Change, now: &Config) -> Result<Option<f64>, Problem> {
        let mut share = 0.0;
        match change {
            Change::AddHost { host, parent, osds } => {
                let layout = self.settings.crush.as_deref().ok_or(Problem::NeedsAlgo {
                    param: "add-host",
                    algo: "ceph",
                })?;
                self.settings.crush = Some(Rc::new(layout.with_host(host, parent, &osds[..])?));
                for (name, weight, _) in osds {
                    let edit = self.edit(
                        &Change::Add {
                            name: name.clone(),
                            weight: *weight,
                        },
                        now,
                    )?;
                    share += edit.unwrap_or(0.0);
                }
            }
            Change::RemoveHost(host) => {
                let layout = self.settings.crush.as_deref().ok_or(Problem::NeedsAlgo {
                    param: "remove-host",
                    algo: "ceph",
                })?;
                let (without, osds) = layout.without_host(host)?;
                for osd in &osds {
                    // An OSD the scenario no longer has (removed before) is gone already.
                    if self.find(osd).is_ok() {
                        share += self.edit(&Change::Remove(osd.clone()), now)?.unwrap_or(0.0);
                    }
                }
                self.settings.crush = Some(Rc::new(without));
            }
            _ => return Ok(None),
        }
        Ok(Some(share))
    }
}
