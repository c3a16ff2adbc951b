//! The work a change or a load needs — hashing keys, placing vnodes, assigning owners —
//! done in steps with a cost model (about 10 ns of wasm per unit), so the page can show
//! progress instead of freezing; [`super::sim::Simulation`] commits it when done.

use std::rc::Rc;
use std::sync::Arc;

use super::algorithms::bounded::Bounded;
use super::algorithms::maglev::CELL_COST;
use super::config::Config;
use super::contract::TableFill;
use super::keys::{KeySet, KeySpec};
use super::placement::{cost_per_key, key_position, weighted_vnodes, LiveServer, Placement};
use super::ring::{Ring, ServerId, VNode, NO_OWNER};
use super::scenario::{Scenario, Settings};
use super::scorers::{Rank, Ranked, Scale};
use super::spec::{KEY_COST, LOOKUP_COST};
use crate::problem::{Field, Problem};

/// How a change's key work is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WorkMode {
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
    /// Filling Maglev's lookup table.
    FillingTable,
    /// Finding each key's owner.
    AssigningKeys,
    /// Done.
    Done,
}

/// A vector built a chunk per step, whose clone shares the chunks: work in progress is
/// copied with the state that holds it (a page keeps its states as values), and copying
/// must not mean copying a million entries per step.
#[derive(Clone, Debug)]
pub(super) struct Chunks<T> {
    pub(super) chunks: Vec<Rc<Vec<T>>>,
    pub(super) len: usize,
}

impl<T: Clone> Chunks<T> {
    pub(super) fn new() -> Chunks<T> {
        Chunks {
            chunks: Vec::new(),
            len: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn push(&mut self, chunk: Vec<T>) {
        self.len += chunk.len();
        if !chunk.is_empty() {
            self.chunks.push(Rc::new(chunk));
        }
    }

    /// All entries in one vector (the one copy, when the work is done).
    pub(super) fn concat(self) -> Vec<T> {
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
pub(super) enum KeyWork {
    Ready(Arc<KeySet>),
    Hashing {
        settings: Settings,
        pairs: Chunks<(u32, u32)>,
        /// Each key's value by index, when the algorithm reads one ([`KeySet::values`]).
        values: Chunks<u64>,
    },
}

impl KeyWork {
    pub(super) fn hashing(settings: &Settings) -> KeyWork {
        KeyWork::Hashing {
            settings: settings.clone(),
            pairs: Chunks::new(),
            values: Chunks::new(),
        }
    }
}

/// The placement of a piece of work: ready, or (a ring) having its vnode labels hashed a
/// chunk at a time.
#[derive(Clone)]
pub(super) enum PlacementWork {
    Ready(Rc<dyn Placement>),
    /// A lookup table (Maglev's, Envoy's), filled a chunk of cells at a time (a million
    /// cells took 300 ms in one task of the page).
    Table(Box<dyn TableFill>),
    /// A placement built in a step of its own, not in the task that asked for it: a
    /// Cassandra ring of a million given tokens (this many entries) sorts for ~150 ms.
    Deferred(usize),
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
    pub(super) next: Config,
    pub(super) keys: KeyWork,
    pub(super) placement: PlacementWork,
    pub(super) mode: WorkMode,
    pub(super) ideal: Option<f64>,
    pub(super) owners: Chunks<ServerId>,
    /// Per-key scorers: the owners' ranks, alongside `owners`.
    pub(super) ranks: Chunks<Rank>,
    /// The assignment before the change, for the incremental scorer modes.
    pub(super) previous: Option<Previous>,
    /// Bounded loads: the keys placed so far, one after another in arrival order.
    pub(super) arrivals: Option<Arrivals>,
    /// A key file's keys named by line, when owners come from names.
    pub(super) lines: Option<LinePass>,
}

/// A key file's keys given owners in line order, a run of lines a step: the file is read
/// forward once however the steps cut it (cut by sorted place, every step's keys are spread
/// over the whole file, and each step read all of it). Answers are kept by place until the
/// last line.
#[derive(Clone)]
pub(super) struct LinePass {
    /// `place_of[id]`: where key `id` sits in the sorted layout.
    place_of: Vec<u32>,
    /// Keys (ids `0..done`) answered so far.
    done: usize,
    /// Owners by place.
    owners: Vec<ServerId>,
    /// Ranks by place (per-key scorers; empty otherwise).
    ranks: Vec<Rank>,
}

impl LinePass {
    fn new(keys: &KeySet, ranked: bool) -> LinePass {
        LinePass {
            place_of: keys.places_by_id(),
            done: 0,
            owners: vec![NO_OWNER; keys.len()],
            ranks: if ranked {
                vec![0; keys.len()]
            } else {
                Vec::new()
            },
        }
    }

    /// Answers the next `count` lines' keys under `placement` (scored in `mode` against
    /// `previous` by a per-key scorer); true once every key has its owner.
    fn advance(
        &mut self,
        count: usize,
        names: &KeyNames,
        (placement, mode, previous): (&dyn Placement, WorkMode, Option<&Previous>),
    ) -> bool {
        let ids = self.done..self.done.saturating_add(count).min(self.place_of.len());
        let place_of = &self.place_of;
        let order = ids.clone().map(|id| (place_of[id] as usize, id as u32));
        match placement.ranked() {
            Some(ranked) => {
                let answers = (&mut self.owners[..], &mut self.ranks[..]);
                Scoring {
                    names: *names,
                    ranked,
                }
                .score_into(order, 0, mode, previous, answers);
            }
            None => owners_by_name(names, order, 0, placement, &mut self.owners),
        }
        self.done = ids.end;
        self.done == self.place_of.len()
    }
}

/// Owners and ranks by place before a change, and the scale of those ranks.
#[derive(Clone)]
pub(super) struct Previous {
    pub(super) owners: Rc<Vec<ServerId>>,
    pub(super) ranks: Rc<Vec<Rank>>,
    pub(super) scale: Option<Scale>,
}

/// Bounded loads' keys being placed in arrival order (key 0 first), a chunk per step.
#[derive(Clone)]
pub(super) struct Arrivals {
    /// The ring with the loads of the keys placed so far.
    pub(super) bounded: Bounded,
    /// `places[id]`: where key `id` sits in the sorted layout.
    pub(super) places: Rc<Vec<u32>>,
    /// Owners by place (`NO_OWNER` until placed).
    pub(super) owners: Vec<ServerId>,
    /// Keys placed so far.
    pub(super) done: usize,
}

/// The vnodes of a ring this large are hashed in steps rather than at once.
pub(super) const STEPPED_VNODES: usize = 20_000;
/// Tables whose fill costs as much as this many Maglev cells or more are filled in steps.
pub(super) const STEPPED_TABLE: usize = 100_000;

/// Rendering a vnode label and hashing it (the per-key costs are the registry's,
/// [`super::spec`]; the units are the same).
pub(super) const VNODE_COST: usize = 60;
/// Sorting one entry (keys by position, vnodes into a ring) when a phase completes.
pub(super) const SORT_COST: usize = 4;

impl Work {
    pub(super) fn new(
        next: Config,
        keys: KeyWork,
        mode: WorkMode,
        ideal: Option<f64>,
    ) -> Result<Work, Problem> {
        let live = next.live();
        let s = &next.settings;
        let total: usize = if s.algo.uses_vnodes() {
            live.iter()
                .map(|l| weighted_vnodes(s.vnodes, l.weight) as usize)
                .sum()
        } else {
            0
        };
        let table_fill = s.algo.spec().table_fill;
        let stepped_fill = table_fill
            .map(|fill| fill(&live, &next.down(), &s.params()))
            .filter(|f| f.progress().1 * f.cell_cost() >= STEPPED_TABLE * CELL_COST);
        let placement = if let Some(fill) = stepped_fill {
            PlacementWork::Table(fill)
        } else if total >= STEPPED_VNODES && s.algo.spec().over_ring.is_some() {
            // Catch the usual label errors (the identity hash wants numbers) now, while
            // nothing has started; a later label can still fail, and ends the work then.
            for l in &live {
                s.hash
                    .position(&s.label.render(&l.name, 0))
                    .map_err(|e| Problem::from(e).of(Field::Label))?;
            }
            PlacementWork::Vnodes {
                live,
                next: (0, 0),
                points: Vec::with_capacity(total),
                total,
            }
        } else if let Some(entries) = Some(given_tokens(&next)).filter(|&n| n >= STEPPED_VNODES) {
            PlacementWork::Deferred(entries)
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
            lines: None,
        })
    }

    /// The work of building `scenario`'s simulation from nothing.
    pub fn load(scenario: &Scenario) -> Result<Work, Problem> {
        let config = Config::new(scenario)?;
        let keys = KeyWork::hashing(&config.settings);
        Work::new(config, keys, WorkMode::Load, None)
    }

    /// The configuration the work leads to.
    pub fn config(&self) -> &Config {
        &self.next
    }

    pub(super) fn key_count(&self) -> usize {
        self.next.settings.keys.len()
    }

    /// Cost of assigning one key an owner.
    pub(super) fn cost_per_key(&self) -> usize {
        let live = self.next.servers.iter().filter(|s| s.up).count().max(1);
        let capacity = self.next.book.as_ref().map_or(1, |b| b.capacity() as usize);
        let cost = |live| cost_per_key(&self.next.settings, live, capacity);
        match self.mode {
            // A departed server's keys (about one in `live + 1`) are scored by everyone.
            WorkMode::Departed(_) => LOOKUP_COST + cost(live) / (live + 1),
            // Only the newcomer scores each key.
            WorkMode::Joined(_) => cost(1),
            _ => cost(live),
        }
    }

    /// True when owners are computed for every key (the arcs mode computes none: only
    /// the keys in the changed arcs, in [`Simulation::finish`]).
    pub(super) fn owners_needed(&self) -> usize {
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
    pub fn advance(&mut self, budget: usize) -> Result<usize, Problem> {
        if matches!(self.keys, KeyWork::Hashing { .. }) {
            return self.hash_keys(budget);
        }
        if matches!(self.placement, PlacementWork::Vnodes { .. }) {
            return self.place_vnodes(budget);
        }
        if matches!(self.placement, PlacementWork::Table(_)) {
            return Ok(self.fill_table(budget));
        }
        if let PlacementWork::Deferred(entries) = self.placement {
            self.placement = PlacementWork::Ready(self.next.placement()?);
            return Ok(entries * SORT_COST);
        }
        Ok(self.find_owners(budget))
    }

    /// Phase 1: hash the next chunk of keys; the closing sort, when all are hashed.
    fn hash_keys(&mut self, budget: usize) -> Result<usize, Problem> {
        let KeyWork::Hashing {
            settings,
            pairs,
            values,
        } = &mut self.keys
        else {
            return Ok(0);
        };
        let n = settings.keys.len();
        let start = pairs.len();
        let end = start.saturating_add((budget / KEY_COST).max(1)).min(n);
        let mut chunk = Vec::with_capacity(end - start);
        // The algorithm's key value, read from the name while it is at hand.
        let value = settings.algo.spec().key_value;
        let mut value_chunk = Vec::with_capacity(if value.is_some() { end - start } else { 0 });
        let mut failed = None;
        let mut index = start as u32;
        settings
            .keys
            .for_each_name(start as u32..end as u32, settings.seed, |name| {
                match key_position(settings, name) {
                    Ok(p) => chunk.push((p, index)),
                    Err(e) => {
                        failed.get_or_insert(e);
                    }
                }
                if let Some(value) = value {
                    value_chunk.push((value.of)(settings.hash, name));
                }
                index += 1;
            });
        if let Some(e) = failed {
            return Err(Problem::from(e).of(Field::Keys));
        }
        pairs.push(chunk);
        values.push(value_chunk);
        let spent = (end - start) * KEY_COST;
        // The closing sort gets a step of its own unless it fits in what is left.
        if pairs.len() < n || (spent > 0 && n * SORT_COST > budget.saturating_sub(spent)) {
            return Ok(spent);
        }
        let mut done = KeySet::from_pairs(std::mem::replace(pairs, Chunks::new()).concat());
        if let Some(value) = settings.algo.spec().key_value {
            let by_index = std::mem::replace(values, Chunks::new()).concat();
            done = done.with_values(&by_index, (value, settings.hash));
        }
        self.keys = KeyWork::Ready(Arc::new(done));
        Ok(spent + n * SORT_COST)
    }

    /// Phase 2: hash the next vnode labels; the ring, when all are placed.
    fn place_vnodes(&mut self, budget: usize) -> Result<usize, Problem> {
        let PlacementWork::Vnodes {
            live,
            next,
            points,
            total,
        } = &mut self.placement
        else {
            return Ok(0);
        };
        let s = &self.next.settings;
        let mut spent = 0usize;
        while points.len() < *total && spent < budget.max(1) {
            spent += VNODE_COST;
            let (i, r) = *next;
            let server = &live[i];
            let text = s.label.render(&server.name, r);
            let position = s
                .hash
                .position(&text)
                .map_err(|e| Problem::from(e).of(Field::Label))?;
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
        let ring = Ring::new(std::mem::take(points), &name_of);
        let over_ring = s.algo.spec().over_ring.ok_or(Problem::Internal(
            "a ring was built in steps for an algorithm that is not one",
        ))?;
        self.placement = PlacementWork::Ready(over_ring(ring, &s.params(), live.len()));
        Ok(spent + sorted * SORT_COST)
    }

    /// Phase 2 for a lookup table: claim the next chunk of cells; the table round the circle, in a
    /// step of its own, when it is full.
    fn fill_table(&mut self, budget: usize) -> usize {
        let PlacementWork::Table(fill) = &mut self.placement else {
            return 0;
        };
        if !fill.is_full() {
            let cost = fill.cell_cost();
            let cells = (budget / cost).max(1);
            fill.claim(cells);
            return cells * cost;
        }
        let (_, size) = fill.progress();
        self.placement = PlacementWork::Ready(fill.finish());
        size * SORT_COST
    }

    /// Phase 3: the owners of the next chunk of keys (in arrival order under bounded
    /// loads; with their ranks for the per-key scorers).
    fn find_owners(&mut self, budget: usize) -> usize {
        let needed = self.owners_needed();
        if self.owners.len() >= needed {
            return 0;
        }
        let (KeyWork::Ready(keys), PlacementWork::Ready(placement)) = (&self.keys, &self.placement)
        else {
            return 0;
        };
        let cost = self.cost_per_key();
        let count = (budget / cost).max(1);
        if let Some(bounded) = Bounded::of(placement.as_ref()) {
            let arrivals = self
                .arrivals
                .get_or_insert_with(|| Arrivals::new(bounded, keys));
            if arrivals.arrive(keys, count) {
                if let Some(done) = self.arrivals.take() {
                    self.owners.push(done.owners);
                    self.placement = PlacementWork::Ready(Rc::new(done.bounded));
                }
            }
            return count * cost;
        }
        let end = self.owners.len().saturating_add(count).min(needed);
        let s = &self.next.settings;
        let mut chunk = Vec::with_capacity(end - self.owners.len());
        let range = self.owners.len()..end;
        let names = KeyNames {
            keys,
            spec: &s.keys,
            seed: s.seed,
            values: keys.values_of(s.algo.spec().key_value.map(|v| (v, s.hash))),
        };
        if matches!(s.keys, KeySpec::External(_)) && reads_names(placement.as_ref(), &names) {
            let ranked = placement.ranked().is_some();
            let lines = self
                .lines
                .get_or_insert_with(|| LinePass::new(keys, ranked));
            let at = (placement.as_ref(), self.mode, self.previous.as_ref());
            if lines.advance(count, &names, at) {
                if let Some(done) = self.lines.take() {
                    self.owners.push(done.owners);
                    if ranked {
                        self.ranks.push(done.ranks);
                    }
                }
            }
            return count * cost;
        }
        match placement.ranked() {
            Some(ranked) => {
                let mut ranks = Vec::with_capacity(chunk.capacity());
                let scoring = Scoring { names, ranked };
                scoring.push(
                    range,
                    self.mode,
                    self.previous.as_ref(),
                    &mut chunk,
                    &mut ranks,
                );
                self.ranks.push(ranks);
            }
            None => push_owners(&names, range, placement.as_ref(), &mut chunk),
        }
        self.owners.push(chunk);
        count * cost
    }

    /// Keys given owners so far (in arrival order under bounded loads, by line for a key
    /// file's names).
    fn owners_done(&self) -> usize {
        match (&self.arrivals, &self.lines) {
            (Some(arrivals), _) => arrivals.done,
            (_, Some(lines)) => lines.done,
            _ => self.owners.len(),
        }
    }

    /// Does all the work that is left.
    pub fn run(&mut self) -> Result<(), Problem> {
        while !self.is_finished() {
            self.advance(usize::MAX)?;
        }
        Ok(())
    }

    /// What is under way and how far it is: (phase, units done, units in all).
    pub fn progress(&self) -> (Phase, usize, usize) {
        if let KeyWork::Hashing {
            pairs, settings, ..
        } = &self.keys
        {
            return (Phase::HashingKeys, pairs.len(), settings.keys.len());
        }
        if let PlacementWork::Vnodes { points, total, .. } = &self.placement {
            return (Phase::PlacingVnodes, points.len(), *total);
        }
        if let PlacementWork::Table(fill) = &self.placement {
            let (filled, size) = fill.progress();
            return (Phase::FillingTable, filled, size);
        }
        if let PlacementWork::Deferred(entries) = self.placement {
            return (Phase::PlacingVnodes, 0, entries);
        }
        let needed = self.owners_needed();
        if self.owners.len() < needed {
            let done = self.owners_done();
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
            KeyWork::Hashing {
                pairs, settings, ..
            } => settings.keys.len() - pairs.len(),
            KeyWork::Ready(_) => 0,
        };
        let vnodes = match &self.placement {
            PlacementWork::Vnodes { points, total, .. } => total - points.len(),
            PlacementWork::Table(fill) => {
                let (filled, size) = fill.progress();
                (size - filled) * fill.cell_cost() / VNODE_COST + size * SORT_COST / VNODE_COST
            }
            PlacementWork::Deferred(entries) => entries * SORT_COST / VNODE_COST,
            PlacementWork::Ready(_) => 0,
        };
        let done = self.owners_done();
        let owners = self.owners_needed().saturating_sub(done);
        (keys.saturating_mul(KEY_COST))
            .saturating_add(vnodes.saturating_mul(VNODE_COST))
            .saturating_add(owners.saturating_mul(self.cost_per_key()))
    }
}

/// How many tokens the live servers of `config` were given (a Cassandra cluster's own).
fn given_tokens(config: &Config) -> usize {
    let Some(tokens) = &config.tokens else {
        return 0;
    };
    config
        .live()
        .iter()
        .filter_map(|l| tokens.of(l.slot as usize))
        .map(<[i64]>::len)
        .sum()
}

impl Arrivals {
    pub(super) fn new(bounded: &Bounded, keys: &KeySet) -> Arrivals {
        Arrivals {
            bounded: Bounded::new(bounded.ring.clone(), bounded.capacity),
            places: Rc::new(keys.places_by_id()),
            owners: vec![NO_OWNER; keys.len()],
            done: 0,
        }
    }

    /// Places the next `count` keys; true when every key has arrived.
    pub(super) fn arrive(&mut self, keys: &KeySet, count: usize) -> bool {
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
pub(super) fn push_owners(
    names: &KeyNames<'_>,
    range: std::ops::Range<usize>,
    placement: &dyn Placement,
    out: &mut Vec<ServerId>,
) {
    let KeyNames { keys, values, .. } = *names;
    if let (None, Some(values)) = (placement.ring(), values) {
        // Each key's value was read with its name: no name is read again.
        out.extend(
            range.map(|place| placement.owner_of_value(values[place], keys.positions[place])),
        );
        return;
    }
    if let Some(ring) = placement.ring() {
        if range == (0..keys.len()) && out.is_empty() {
            ring.assign_sorted(&keys.positions, out);
            return;
        }
    }
    match placement.ring() {
        Some(ring) => out.extend(range.map(|place| ring.owner_of(keys.positions[place]))),
        // Per-key algorithms that hash the name: named in the order names are cheapest to
        // read, answered in place order.
        None if placement.needs_key_name() => {
            let (start, from) = (range.start, out.len());
            out.resize(from + range.len(), NO_OWNER);
            let order = in_place_order(keys, range);
            owners_by_name(names, order, start, placement, &mut out[from..]);
        }
        None => out.extend(range.map(|place| placement.owner("", keys.positions[place]))),
    }
}

/// Whether owners come from keys' names read again (not from their ring positions or their
/// kept values).
fn reads_names(placement: &dyn Placement, names: &KeyNames) -> bool {
    placement.ranked().is_some()
        || (placement.ring().is_none() && names.values.is_none() && placement.needs_key_name())
}

/// The owners of the keys `order` gives (place, key id), each named in that order and put
/// at `out[place - base]`.
fn owners_by_name(
    names: &KeyNames,
    order: impl Iterator<Item = (usize, u32)>,
    base: usize,
    placement: &dyn Placement,
    out: &mut [ServerId],
) {
    let KeyNames {
        keys, spec, seed, ..
    } = *names;
    // Each name comes right after its id is taken: the place is passed alongside.
    let at = std::cell::Cell::new(base);
    let ids = order.map(|(place, id)| {
        at.set(place);
        id
    });
    spec.for_each_name(ids, seed, |name| {
        let place = at.get();
        out[place - base] = placement.owner(name, keys.positions[place]);
    });
}

/// The keys of a piece of work and how to name them: their layout, their set, the seed
/// (random keys), and their values when the algorithm reads one.
#[derive(Clone, Copy)]
pub(super) struct KeyNames<'a> {
    pub(super) keys: &'a KeySet,
    pub(super) spec: &'a KeySpec,
    pub(super) seed: u64,
    pub(super) values: Option<&'a [u64]>,
}

/// A per-key scorer placing keys with their [`Rank`]s.
pub(super) struct Scoring<'a> {
    pub(super) names: KeyNames<'a>,
    pub(super) ranked: &'a dyn Ranked,
}

/// Keys named and scored per batch.
pub(super) const KEYS_PER_BATCH: usize = 256;

impl Scoring<'_> {
    /// Appends the owners and ranks of the keys at sorted places `range`: a departed
    /// server's keys scored by everyone (the others keep theirs), a joined server scored
    /// against each key's kept rank, or every key scored by everyone. The keys are named in
    /// place order (a key file's keys go through [`LinePass`] instead).
    pub(super) fn push(
        &self,
        range: std::ops::Range<usize>,
        mode: WorkMode,
        previous: Option<&Previous>,
        owners: &mut Vec<ServerId>,
        ranks: &mut Vec<Rank>,
    ) {
        let (from, ranked) = (owners.len(), ranks.len());
        owners.resize(from + range.len(), NO_OWNER);
        ranks.resize(ranked + range.len(), 0);
        let order = in_place_order(self.names.keys, range.clone());
        let answers = (&mut owners[from..], &mut ranks[ranked..]);
        self.score_into(order, range.start, mode, previous, answers);
    }

    /// Scores the keys `order` gives (place, key id), as [`Scoring::push`] does, and puts
    /// each key's owner and rank at `place - base` in `answers`.
    pub(super) fn score_into(
        &self,
        mut order: impl Iterator<Item = (usize, u32)>,
        base: usize,
        mode: WorkMode,
        previous: Option<&Previous>,
        answers: (&mut [ServerId], &mut [Rank]),
    ) {
        let KeyNames {
            keys, spec, seed, ..
        } = self.names;
        let (owners, ranks) = answers;
        let scale = Some(self.ranked.scale());
        let previous = previous.filter(|p| p.scale == scale && p.ranks.len() == keys.len());
        let departed = match (mode, previous) {
            (WorkMode::Departed(gone), Some(p)) => Some((gone, p)),
            _ => None,
        };
        let mut names = vec![String::new(); KEYS_PER_BATCH];
        // The (place, key id) pairs scored in this batch: every key, or a departed server's.
        let mut scored: Vec<(usize, u32)> = Vec::with_capacity(KEYS_PER_BATCH);
        let mut held = Vec::with_capacity(KEYS_PER_BATCH);
        let mut found = Vec::with_capacity(KEYS_PER_BATCH);
        loop {
            scored.clear();
            let mut taken = 0;
            for (place, id) in order.by_ref().take(KEYS_PER_BATCH) {
                taken += 1;
                match departed {
                    Some((gone, p)) if p.owners[place] != gone => {
                        owners[place - base] = p.owners[place];
                        ranks[place - base] = p.ranks[place];
                    }
                    _ => scored.push((place, id)),
                }
            }
            if taken == 0 {
                break;
            }
            let mut slots = names.iter_mut();
            let ids = scored.iter().map(|&(_, id)| id);
            spec.for_each_name(ids, seed, |name| {
                if let Some(slot) = slots.next() {
                    slot.clear();
                    slot.push_str(name);
                }
            });
            let named: Vec<&str> = names[..scored.len()].iter().map(String::as_str).collect();
            found.clear();
            match (mode, previous) {
                (WorkMode::Joined(new), Some(p)) => {
                    held.clear();
                    held.extend(
                        scored
                            .iter()
                            .map(|&(place, _)| (p.owners[place], p.ranks[place])),
                    );
                    self.ranked.challenges(&named, &held, new, &mut found);
                }
                _ => self.ranked.owners_ranked(&named, &mut found),
            }
            for (&(place, _), &(owner, rank)) in scored.iter().zip(&found) {
                owners[place - base] = owner;
                ranks[place - base] = rank;
            }
        }
    }
}

/// The keys at places `range`, as (place, key id) pairs in place order: generated names
/// cost the same in any order (a key file's keys are named by line instead, in
/// [`LinePass`]).
fn in_place_order(
    keys: &KeySet,
    range: std::ops::Range<usize>,
) -> impl Iterator<Item = (usize, u32)> + '_ {
    range.map(|place| (place, keys.ids[place]))
}
