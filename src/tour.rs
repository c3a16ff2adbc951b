//! Guided tours: one per seed story, each a list of steps a teacher walks with ←/→.
//!
//! A step sets the scenario through the same changes the controls make (so the page stays
//! live and can be played with), names the part of the page to look at, and may look a key
//! up. Its narration lives in the language catalogs ([`crate::i18n`]) and is made from
//! [`Facts`] read off the state on screen, so every number a step states is one the page
//! shows. A step either continues from the previous one (only its own changes are applied,
//! which is what makes Next cheap) or loads a scenario of its own.
//!
//! The stale-data story also needs what each server has *stored*, which a placement does not
//! model: [`Tour::store_at`] replays the story's writes and reads against the same engine.

use crate::engine::hash::HashFn;
use crate::engine::keys::KeySpec;
use crate::engine::ring::NO_OWNER;
use crate::engine::scenario::Scenario;
use crate::engine::sim::{Change, Simulation};
pub use crate::facts::{Facts, StoreView};
use crate::i18n::Words;
use crate::problem::Problem;
use crate::state::PageState;
use crate::text::Fixed;
use crate::words::{group_thousands, percent};

/// The tours, one per seed story.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TourId {
    /// Seed 000 §1: hash mod N moves almost every key.
    ModN,
    /// Seed 000 §2: the ring; only the neighbours' keys move.
    Ring,
    /// Seeds 002/000: few servers are skewed; virtual nodes balance them.
    Vnodes,
    /// Seed 003: σ of the counts as vnodes grow.
    Sweep,
    /// Seed 000's Java example, count for count.
    Java,
    /// Seed 004: CARP.
    Carp,
    /// Seed 002: Redis Cluster's hash slots, then Ceph's placement groups beside them.
    Slots,
    /// Seed 000 §6: the stale-data defect.
    Stale,
    /// Issue 18: why keys move between servers nobody touched, in real systems.
    Survivors,
    /// Issue 30: one key walked through seven algorithms' own pictures.
    Decides,
}

impl TourId {
    /// Every tour, in menu order.
    pub const ALL: [TourId; 10] = [
        TourId::ModN,
        TourId::Ring,
        TourId::Vnodes,
        TourId::Sweep,
        TourId::Java,
        TourId::Carp,
        TourId::Slots,
        TourId::Stale,
        TourId::Survivors,
        TourId::Decides,
    ];

    /// The id in `tour=`.
    pub fn id(self) -> &'static str {
        match self {
            TourId::ModN => "modn",
            TourId::Ring => "ring",
            TourId::Vnodes => "vnodes",
            TourId::Sweep => "sweep",
            TourId::Java => "java",
            TourId::Carp => "carp",
            TourId::Slots => "slots",
            TourId::Stale => "stale",
            TourId::Survivors => "survivors",
            TourId::Decides => "decides",
        }
    }

    /// The tour for a `tour=` value.
    pub fn from_id(id: &str) -> Option<TourId> {
        TourId::ALL.into_iter().find(|t| t.id() == id.trim())
    }

    /// Its position in [`TourId::ALL`] (and in the catalogs' tour lists).
    pub fn index(self) -> usize {
        TourId::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}

/// The part of the page a step points at (outlined while the step is shown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The ring, where keys walk.
    Ring,
    /// The readout of what the last change moved (from → to).
    Readout,
    /// The keys-per-server table.
    Table,
    /// The load chart and its figures.
    Load,
    /// The lookup and its explanation.
    Lookup,
    /// The stored values of the stale-data story.
    Store,
    /// The vnode sweep chart.
    Sweep,
}

/// What the stale-data story does to the stored data after a step's changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreEvent {
    /// Write a value for a key on the server that owns it now.
    Write(&'static str, u64),
    /// Read a key from the server that owns it now.
    Read(&'static str),
    /// Repair after a recovery: every key a server owns now, held by another server, is
    /// moved to it (the arc's data migrates back).
    Migrate,
}

/// One step of a tour.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// A scenario to load first, as link parameters; `None` continues from the previous step.
    pub load: Option<&'static [(&'static str, &'static str)]>,
    /// Changes applied after it, through the same actions as the controls.
    pub changes: Vec<Change>,
    /// A key to look up after the changes.
    pub lookup: Option<&'static str>,
    /// What to look at.
    pub focus: Focus,
    /// What happens to the stored data (stale-data story).
    pub store: &'static [StoreEvent],
    /// The class predicts how many keys this step's change moves: the step before asks
    /// for a guess, this one reveals it beside the answer and the ideal.
    pub predict: bool,
}

impl Step {
    fn new(focus: Focus) -> Step {
        Step {
            load: None,
            changes: Vec::new(),
            lookup: None,
            focus,
            store: &[],
            predict: false,
        }
    }

    /// The class guesses this step's movement before it is shown.
    fn predicted(mut self) -> Step {
        self.predict = true;
        self
    }

    fn load(mut self, pairs: &'static [(&'static str, &'static str)]) -> Step {
        self.load = Some(pairs);
        self
    }

    fn change(mut self, change: Change) -> Step {
        self.changes.push(change);
        self
    }

    fn lookup(mut self, key: &'static str) -> Step {
        self.lookup = Some(key);
        self
    }

    fn store(mut self, events: &'static [StoreEvent]) -> Step {
        self.store = events;
        self
    }
}

/// How to reach a step: the scenario to load and the changes after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The scenario the step builds on.
    pub scenario: Scenario,
    /// Every change from that scenario to the step, the step's own last.
    pub changes: Vec<Change>,
    /// How many of `changes` are the step's own.
    pub own: usize,
}

/// A guided tour.
#[derive(Clone, Debug, PartialEq)]
pub struct Tour {
    /// Which tour.
    pub id: TourId,
    /// Its steps (at least one; the first loads a scenario).
    pub steps: Vec<Step>,
}

const MODN: &[(&str, &str)] = &[
    ("algo", "modn"),
    ("hash", "identity"),
    ("nodes", "0,1,2,3"),
    ("keys", "1..21"),
];
const RING: &[(&str, &str)] = &[
    ("vnodes", "1"),
    ("label", "{node}"),
    ("nodes", "cache_A,cache_B,cache_C"),
    ("keys", "list:object1,object2,object3,object4"),
];
const SEED_002: &[(&str, &str)] = &[
    ("hash", "java-string"),
    ("vnodes", "1"),
    ("label", "{node}"),
    ("nodes", "192.168.0.1,88.89.90.91,77.78.79.80,127.0.0.1"),
    ("keys", "user:{i}:0..10000"),
];
const SEED_002_VNODES: &[(&str, &str)] = &[
    ("vnodes", "3"),
    ("label", "{node}#{i}"),
    ("nodes", "192.168.0.1,88.89.90.91,77.78.79.80,127.0.0.1"),
    ("keys", "user:{i}:0..10000"),
];
/// Seed 003's cluster: ten servers, Hutool's FNV, labels `ip@i`.
pub const SEED_003: &[(&str, &str)] = &[
    ("hash", "fnv-hutool"),
    ("vnodes", "5"),
    ("label", "{node}@{i}"),
    (
        "nodes",
        "127.0.0.1,127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5,127.0.0.6,127.0.0.7,127.0.0.8,127.0.0.9,127.0.0.10",
    ),
    ("keys", "key-{i}:0..100000"),
];
const SEED_000: &[(&str, &str)] = &[
    ("hash", "murmur64a-seed"),
    ("vnodes", "200"),
    ("label", "{node}{i}"),
    ("nodes", "127.1.1.1#A,127.2.2.2#B,127.3.3.3#C,127.4.4.4#D"),
    ("keys", "0..50000"),
];
const CARP: &[(&str, &str)] = &[
    ("algo", "carp"),
    ("nodes", "redis1,redis2,redis3,redis4"),
    ("keys", "user:{i}:0..10000"),
];
const SLOTS: &[(&str, &str)] = &[
    ("algo", "slots"),
    ("nodes", "node-7000,node-7001,node-7002"),
    ("keys", "user:{i}:0..10000"),
];
/// Ceph beside Redis's slots: three OSDs, a pool of 256 placement groups (enough for each
/// OSD's share to come out near its weight's), the slots step's keys.
const CEPH: &[(&str, &str)] = &[
    ("algo", "ceph"),
    ("pg_num", "256"),
    ("nodes", "osd.0,osd.1,osd.2"),
    ("keys", "user:{i}:0..10000"),
];
/// Ceph with a real cluster's CRUSH map (tests/reference/crush/3-hosts.txt, as
/// `Cluster.from_config` links it): 3 hosts × 4 OSDs of unequal weights, the rule
/// `chooseleaf firstn 0 type host`, a pool of 64 groups.
const CEPH_HOSTS: &[(&str, &str)] = &[
    ("algo", "ceph"),
    ("pg_num", "64"),
    (
        "nodes",
        "osd.0,osd.1*2,osd.2*0.5,osd.3*1.5,osd.4,osd.5,osd.6*3,osd.7,osd.8*2,osd.9*0.25,osd.10,osd.11",
    ),
    ("crush", "rule:take:default,chooseleaf:0:host,emit;host:node-a:-1:hdd:-5:ssd:-9(osd.0:hdd,osd.1:hdd,osd.2:ssd,osd.3:hdd);host:node-b:-2:hdd:-6:ssd:-10(osd.4:hdd,osd.5:ssd,osd.6:hdd,osd.7:hdd);host:node-c:-3:hdd:-7:ssd:-11(osd.8:hdd,osd.9:ssd,osd.10:hdd,osd.11:hdd);root:default:-4:hdd:-8:ssd:-12(node-a,node-b,node-c)"),
    ("keys", "obj-{i}:0..10000"),
];
/// The host the slots tour adds to [`CEPH_HOSTS`]: what the page's "Add host" adds.
const NODE_D: &str = "add-host:node-d@default=osd.12:hdd+osd.13:hdd+osd.14:hdd+osd.15:hdd";

/// Four upstream servers, twenty thousand keys: the same cluster in four real systems.
const NGINX4: &[(&str, &str)] = &[
    ("algo", "nginx"),
    ("nodes", "10.0.0.1:80,10.0.0.2:80,10.0.0.3:80,10.0.0.4:80"),
    ("keys", "user:{i}:0..20000"),
];
const ENVOY4: &[(&str, &str)] = &[
    ("algo", "envoy-ring"),
    ("nodes", "10.0.0.1:80,10.0.0.2:80,10.0.0.3:80,10.0.0.4:80"),
    ("keys", "user:{i}:0..20000"),
];
const KETAMA4: &[(&str, &str)] = &[
    ("algo", "ketama"),
    (
        "nodes",
        "10.0.0.1:11211,10.0.0.2:11211*2,10.0.0.3:11211,10.0.0.4:11211",
    ),
    ("keys", "user:{i}:0..20000"),
];
const HAPROXY4: &[(&str, &str)] = &[
    ("algo", "haproxy"),
    ("nodes", "10.0.0.1:80,10.0.0.2:80,10.0.0.3:80,10.0.0.4:80"),
    ("keys", "user:{i}:0..20000"),
];
const STALE: &[(&str, &str)] = &[
    ("vnodes", "2"),
    ("nodes", "NODE1,NODE2,NODE3"),
    ("keys", "list:key1,key2,key3,key4,key5,key6,key7,key8"),
];

/// Five servers, two thousand keys, placed by each algorithm of the decides tour in turn:
/// each step loads its own scenario, so the readout shows no switch of algorithm (every
/// key re-laid) and the picture is the algorithm's alone.
macro_rules! decides {
    ($($name:ident = $algo:literal),*) => {
        $(const $name: &[(&str, &str)] = &[
            ("algo", $algo),
            ("nodes", "A,B,C,D,E"),
            ("keys", "user:{i}:0..2000"),
        ];)*
        /// The decides tour's scenarios, in step order.
        const DECIDES: &[&[(&str, &str)]] = &[$($name),*];
    };
}
decides!(
    DECIDES_MODN = "modn",
    DECIDES_JUMP = "jump",
    DECIDES_ANCHOR = "anchor",
    DECIDES_MULTIPROBE = "multiprobe",
    DECIDES_RENDEZVOUS = "rendezvous",
    DECIDES_MAGLEV = "maglev",
    DECIDES_BOUNDED = "bounded"
);

/// The key the decides tour follows: late in the key order, so bounded loads' servers are
/// filling up when it arrives (it walks past a full one), and no two of the first five
/// pictures give it the same walk.
pub const DECIDES_KEY: &str = "user:1635";

/// The key the stale-data story writes.
pub const STALE_KEY: &str = "key2";

impl Tour {
    /// The tour with this id.
    pub fn get(id: TourId) -> Tour {
        use Focus::*;
        let keys = |spec: &str| {
            Change::SetKeys(
                KeySpec::parse(spec).unwrap_or_else(|e| panic!("a valid key spec: {e}")),
            )
        };
        let steps = match id {
            TourId::ModN => vec![
                Step::new(Lookup).load(MODN).lookup("6"),
                Step::new(Ring).change(Change::add("4")).predicted(),
                Step::new(Lookup).lookup("20"),
            ],
            TourId::Ring => vec![
                Step::new(Ring).load(RING),
                Step::new(Ring)
                    .change(Change::Remove("cache_B".into()))
                    .predicted(),
                Step::new(Ring).change(Change::add("cache_D")),
            ],
            TourId::Vnodes => vec![
                Step::new(Table).load(SEED_002),
                Step::new(Table).change(Change::SetHash(HashFn::Xxh3)),
                Step::new(Ring).load(SEED_002_VNODES),
                Step::new(Load).change(Change::SetVnodes(150)),
                Step::new(Load).change(Change::add("10.0.0.5")).predicted(),
            ],
            TourId::Sweep => vec![
                Step::new(Sweep).load(SEED_003),
                Step::new(Load).change(Change::SetVnodes(150)),
            ],
            TourId::Java => vec![
                Step::new(Table).load(SEED_000),
                Step::new(Table).change(Change::Remove("127.1.1.1#A".into())),
                Step::new(Table).change(Change::add("127.5.5.5#E")),
                // The keys first, then F: the step's status line and readout are then the
                // add the narration names (the counts are the same either way).
                Step::new(Table)
                    .change(keys("0..100000"))
                    .change(Change::add("127.6.6.6#F")),
            ],
            TourId::Carp => vec![
                Step::new(Lookup).load(CARP).lookup("user:42"),
                Step::new(Load).change(Change::add("redis5")).predicted(),
            ],
            TourId::Slots => vec![
                Step::new(Lookup).load(SLOTS).lookup("{user1}.following"),
                Step::new(Lookup).lookup("{user1}.followers"),
                Step::new(Load).change(Change::add("node-7003")).predicted(),
                Step::new(Ring).load(CEPH).change(Change::add("osd.3")),
                Step::new(Ring).load(CEPH_HOSTS).lookup("obj-1"),
                // The ring: the readout's table of flows runs below a projector's screen.
                Step::new(Ring)
                    .change(Change::parse(NODE_D).unwrap_or_else(|e| panic!("a valid step: {e}")))
                    .lookup("obj-1"),
            ],
            TourId::Stale => vec![
                Step::new(Store)
                    .load(STALE)
                    .lookup(STALE_KEY)
                    .store(&[StoreEvent::Write(STALE_KEY, 100)]),
                Step::new(Store)
                    .change(Change::Fail("NODE2".into()))
                    .lookup(STALE_KEY)
                    .store(&[StoreEvent::Write(STALE_KEY, 200)]),
                Step::new(Store)
                    .change(Change::Recover("NODE2".into()))
                    .lookup(STALE_KEY)
                    .store(&[StoreEvent::Read(STALE_KEY)]),
                Step::new(Store)
                    .lookup(STALE_KEY)
                    .store(&[StoreEvent::Migrate, StoreEvent::Read(STALE_KEY)]),
            ],
            TourId::Survivors => vec![
                Step::new(Readout)
                    .load(NGINX4)
                    .change(Change::add("10.0.0.5:80")),
                Step::new(Readout)
                    .load(ENVOY4)
                    .change(Change::add("10.0.0.5:80")),
                Step::new(Readout)
                    .load(KETAMA4)
                    .change(Change::add("10.0.0.5:11211")),
                Step::new(Readout)
                    .load(HAPROXY4)
                    .change(Change::Remove("10.0.0.1:80".into())),
            ],
            TourId::Decides => DECIDES
                .iter()
                .map(|pairs| Step::new(Ring).load(pairs).lookup(DECIDES_KEY))
                .collect(),
        };
        Tour { id, steps }
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Always false: every tour has steps.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Step `k` (1-based, clamped to the tour).
    pub fn step(&self, k: usize) -> &Step {
        &self.steps[k.clamp(1, self.len()) - 1]
    }

    /// The change the class is asked to predict at step `k`: the next step's, when that
    /// step is a prediction.
    pub fn prediction_at(&self, k: usize) -> Option<&Change> {
        let next = self.steps.get(k)?;
        next.predict.then(|| next.changes.last()).flatten()
    }

    /// How to reach step `k` (1-based) from nothing.
    pub fn plan(&self, k: usize) -> Plan {
        let k = k.clamp(1, self.len());
        let start = (0..k)
            .rev()
            .find(|&i| self.steps[i].load.is_some())
            .unwrap_or(0);
        let pairs = self.steps[start].load.unwrap_or(&[]);
        let scenario = Scenario::from_pairs(pairs.iter().copied())
            .unwrap_or_else(|e| panic!("every tour's scenario is valid: {e}"));
        let changes: Vec<Change> = self.steps[start..k]
            .iter()
            .flat_map(|s| s.changes.iter().cloned())
            .collect();
        Plan {
            scenario,
            changes,
            own: self.steps[k - 1].changes.len(),
        }
    }

    /// What each server has stored for the story's key after step `k`, replayed against
    /// the engine from the first step; `None` for tours without stored data.
    pub fn store_at(&self, k: usize) -> Option<StoreView> {
        let k = k.clamp(1, self.len());
        if self.steps[..k].iter().all(|s| s.store.is_empty()) {
            return None;
        }
        let mut sim: Option<Simulation> = None;
        let mut held: Vec<(String, String, u64)> = Vec::new(); // (server, key, value)
        let mut read = None;
        for step in &self.steps[..k] {
            if let Some(pairs) = step.load {
                let scenario = Scenario::from_pairs(pairs.iter().copied()).ok()?;
                sim = Some(Simulation::new(&scenario).ok()?);
            }
            let s = sim.as_mut()?;
            for c in &step.changes {
                s.apply(c).ok()?;
            }
            read = None;
            let owner_of = |key: &str| {
                let (_, id) = s.lookup(key).ok()?;
                (id != NO_OWNER).then(|| s.server(id).map(|x| x.name.clone()))?
            };
            for event in step.store {
                match *event {
                    StoreEvent::Write(key, value) => {
                        let owner = owner_of(key)?;
                        held.retain(|(srv, k, _)| !(srv == &owner && k == key));
                        held.push((owner, key.to_owned(), value));
                    }
                    StoreEvent::Read(key) => {
                        let owner = owner_of(key)?;
                        let value = held
                            .iter()
                            .find(|(srv, k, _)| srv == &owner && k == key)
                            .map(|h| h.2);
                        read = Some((owner, value));
                    }
                    StoreEvent::Migrate => {
                        let mut moved: Vec<(String, String, u64)> = Vec::new();
                        for (srv, key, value) in &held {
                            let owner = owner_of(key)?;
                            if &owner != srv {
                                moved.push((owner, key.clone(), *value));
                            }
                        }
                        held.retain(|(srv, key, _)| owner_of(key).as_ref() == Some(srv));
                        for m in moved {
                            held.retain(|(srv, key, _)| !(srv == &m.0 && key == &m.1));
                            held.push(m);
                        }
                    }
                }
            }
        }
        let s = sim?;
        let values = s
            .servers()
            .iter()
            .map(|srv| {
                let value = held
                    .iter()
                    .find(|(h, key, _)| h == &srv.name && key == STALE_KEY)
                    .map(|h| h.2);
                (srv.name.clone(), value)
            })
            .collect();
        Some(StoreView {
            key: STALE_KEY,
            values,
            read,
        })
    }
}

/// Reading the facts is the tour's job (it knows the page state); the data lives below
/// the catalogs in [`crate::facts`], so the catalogs need not know the tours.
impl Facts {
    /// The facts on screen for `state`, with the tour's stored data; the lookup's walk is
    /// told in `w`'s language, as its card tells it.
    pub fn read(w: &Words, state: &PageState, store: Option<StoreView>) -> Facts {
        let sim = &state.sim;
        let name = |id| {
            sim.server(id)
                .map_or_else(|| format!("#{id}"), |s| s.name.clone())
        };
        let stats = sim.stats();
        let counts: Vec<(String, u64)> = sim
            .servers()
            .iter()
            .map(|s| (s.name.clone(), sim.count(s.id)))
            .collect();
        let pick = |best: fn(&u64, &u64) -> bool| {
            counts
                .iter()
                .fold(None::<&(String, u64)>, |acc, c| match acc {
                    Some(a) if !best(&c.1, &a.1) => Some(a),
                    _ => Some(c),
                })
                .map(|(n, c)| (n.clone(), group_thousands(*c)))
                .unwrap_or_default()
        };
        let keys = sim.keys().len() as u64;
        let busiest_count = counts.iter().map(|c| c.1).max().unwrap_or(0);
        let mut facts = Facts {
            keys: group_thousands(keys),
            counts: counts
                .iter()
                .map(|(n, c)| (n.clone(), group_thousands(*c)))
                .collect(),
            busiest: pick(|a, b| a > b),
            quietest: pick(|a, b| a < b),
            busiest_pct: percent(busiest_count as f64 / keys.max(1) as f64),
            stddev: crate::words::grouped(stats.stddev, 1),
            peak_mean: Fixed(stats.peak_to_mean, 3).to_string(),
            servers: stats.servers,
            vnodes: sim.settings().vnodes,
            store,
            gone: state
                .last
                .as_ref()
                .map(|l| l.gone.iter().map(|g| g.1.clone()).collect())
                .unwrap_or_default(),
            ..Facts::default()
        };
        if let Some(shares) = sim.ring_shares() {
            let top = sim
                .servers()
                .iter()
                .map(|s| (s, shares.get(usize::from(s.id)).copied().unwrap_or(0.0)))
                .max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((server, share)) = top {
                facts.top_share = (server.name.clone(), format!("{}%", Fixed(100.0 * share, 2)));
            }
        }
        if let Some(last) = &state.last {
            let m = &last.movement;
            let stayed = m.keys.saturating_sub(m.moved);
            facts.moved = group_thousands(m.moved);
            facts.stayed = group_thousands(stayed);
            facts.moved_pct = percent(m.moved_fraction());
            facts.stayed_pct = percent(1.0 - m.moved_fraction());
            facts.ideal_pct = m.ideal_fraction.map(percent).unwrap_or_default();
            let names = |ids: Vec<u16>| {
                let mut ids = ids;
                crate::engine::order::sort(&mut ids);
                ids.dedup();
                ids.into_iter()
                    .map(|id| last.name(id).unwrap_or_else(|| name(id)))
                    .collect()
            };
            facts.moved_to = names(m.flows.iter().map(|f| f.to).collect());
            facts.moved_from = names(m.flows.iter().map(|f| f.from).collect());
            facts.between = group_thousands(m.between_survivors);
            facts.groups = last.groups.map(|g| {
                [
                    g.remapped,
                    g.groups,
                    g.copies_moved,
                    g.copies,
                    g.primaries_changed,
                ]
                .map(group_thousands)
            });
        }
        if let Some(l) = &state.lookup {
            facts.read_lookup(w, sim, l);
        }
        facts
    }

    /// What a narration may say of the looked-up key: its owner, its walk told, its Redis
    /// slot, a CRUSH map's copies of it.
    fn read_lookup(&mut self, w: &Words, sim: &Simulation, l: &crate::state::Lookup) {
        use crate::engine::placement::How;
        let facts = self;
        let name = |id| {
            sim.server(id)
                .map_or_else(|| format!("#{id}"), |s| s.name.clone())
        };
        facts.lookup = Some((l.key.clone(), name(l.explanation.owner)));
        facts.picture = crate::text::fill(
            w.pic_told,
            &[
                crate::words::algorithm_title(w, sim.settings().algo),
                &crate::render::walk::picture_words(w, sim, Some((&l.key, &l.explanation))),
            ],
        );
        if let How::Slot { slot, .. } = l.explanation.how {
            facts.slot = Some(slot);
        }
        if let How::PlacementGroup {
            replicas,
            domains: Some((_, domains)),
            ..
        } = &l.explanation.how
        {
            let copies = std::iter::once(l.explanation.owner).chain(replicas.iter().copied());
            facts.copies = copies.map(name).zip(domains.iter().cloned()).collect();
        }
    }
}

/// Whether going to `target` continues from the step reached last: `reached` is that step
/// and the state version its work ended at. Next from a finished step, with nothing changed
/// since, applies only the next step's own changes; anything else (a jump, Previous, a
/// change made by hand in between) replays the target step's plan from its scenario.
pub fn continues(reached: Option<(Position, u64)>, target: Position, version: u64) -> bool {
    reached.is_some_and(|(p, v)| p.tour == target.tour && p.step + 1 == target.step && v == version)
}

/// Where a tour is: which tour and step (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The tour.
    pub tour: TourId,
    /// The step, 1-based.
    pub step: usize,
}

impl Position {
    /// The position as the tour windows tell each other: `"carp 2"`.
    pub fn to_message(self) -> String {
        format!("{} {}", self.tour.id(), self.step)
    }

    /// A position told by another window; `None` for anything that is not one.
    pub fn from_message(text: &str) -> Option<Position> {
        let (tour, step) = text.split_once(' ')?;
        read_position(tour, Some(step)).ok()
    }

    /// One step forward (`delta` 1) or back (−1). The tours run on into each other in
    /// menu order, so a class can press → from the first story to the last; `None` before
    /// the first step of the first tour and after the last step of the last.
    pub fn moved(self, delta: isize) -> Option<Position> {
        let len = Tour::get(self.tour).len();
        let step = self.step as isize + delta;
        if (1..=len as isize).contains(&step) {
            return Some(Position {
                tour: self.tour,
                step: step as usize,
            });
        }
        let index = self.tour.index() as isize + delta.signum();
        let tour = *TourId::ALL.get(usize::try_from(index).ok()?)?;
        let step = if delta > 0 { 1 } else { Tour::get(tour).len() };
        Some(Position { tour, step })
    }
}

/// Reads `tour=ID` and `step=K|last`: the position, or a message saying what is allowed.
pub fn read_position(tour: &str, step: Option<&str>) -> Result<Position, Problem> {
    use crate::text::quote;
    let id = TourId::from_id(tour).ok_or_else(|| {
        let ids: Vec<&str> = TourId::ALL.iter().map(|t| t.id()).collect();
        Problem::UnknownTour {
            given: quote(tour),
            choices: ids.join(", "),
        }
    })?;
    let len = Tour::get(id).len();
    let step = match step.map(str::trim) {
        None | Some("") => 1,
        Some("last") => len,
        Some(text) => match text.parse::<usize>() {
            Ok(k) if (1..=len).contains(&k) => k,
            _ => {
                return Err(Problem::TourStep {
                    given: quote(text),
                    tour: id.id(),
                    steps: len,
                })
            }
        },
    };
    Ok(Position { tour: id, step })
}

/// The action that takes the page to step `k` of `tour`: only the step's own changes when
/// `continuing` from the previous step and the step loads nothing, else its whole plan.
pub fn script(tour: &Tour, k: usize, continuing: bool) -> crate::state::Action {
    let plan = tour.plan(k);
    let step = tour.step(k);
    if continuing && step.load.is_none() {
        let own = plan.changes[plan.changes.len() - plan.own..].to_vec();
        return crate::state::Action::Script {
            load: None,
            changes: own,
            lookup: step.lookup.map(str::to_owned),
        };
    }
    crate::state::Action::Script {
        load: Some(plan.scenario),
        changes: plan.changes,
        lookup: step.lookup.map(str::to_owned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Action;

    /// The state after walking `tour` from step 1 to `k` the way the page does.
    fn walk(id: TourId, k: usize) -> PageState {
        let tour = Tour::get(id);
        let mut state = PageState::new(&Scenario::default()).unwrap();
        for step in 1..=k {
            state = state.reduce(script(&tour, step, step > 1));
            while state.progress().is_some() {
                state = state.reduce(Action::Continue);
            }
            assert!(state.error.is_none(), "{id:?} {step}: {:?}", state.error);
        }
        state
    }

    fn facts(id: TourId, k: usize) -> Facts {
        Facts::read(
            crate::i18n::Lang::En.words(),
            &walk(id, k),
            Tour::get(id).store_at(k),
        )
    }

    #[test]
    fn every_step_plan_is_valid_and_a_direct_jump_equals_the_walk() {
        for id in TourId::ALL {
            let tour = Tour::get(id);
            assert!(
                tour.steps[0].load.is_some(),
                "{id:?} starts with a scenario"
            );
            for k in 1..=tour.len() {
                let walked = walk(id, k);
                let plan = tour.plan(k);
                let mut jumped = Simulation::new(&plan.scenario).unwrap();
                for c in &plan.changes {
                    jumped.apply(c).unwrap();
                }
                assert_eq!(walked.sim.scenario(), jumped.scenario(), "{id:?} step {k}");
                assert_eq!(walked.sim.owners(), jumped.owners(), "{id:?} step {k}");
            }
        }
    }

    #[test]
    fn every_narration_names_only_servers_its_scenario_has() {
        for id in TourId::ALL {
            for k in 1..=Tour::get(id).len() {
                let f = facts(id, k);
                for lang in crate::i18n::Lang::ALL {
                    let text = (lang.words().tour_words[id.index()].steps[k - 1])(&f);
                    assert!(
                        !text.contains(crate::facts::UNKNOWN_SERVER),
                        "{id:?} step {k} ({lang:?}) names a server the tour does not have: {text}"
                    );
                }
            }
        }
    }

    #[test]
    fn modn_keeps_four_of_twenty() {
        let f = facts(TourId::ModN, 3);
        assert_eq!((f.stayed.as_str(), f.keys.as_str()), ("4", "20"));
        assert_eq!(f.stayed_pct, "20.0%");
        assert_eq!(f.lookup, Some(("20".into(), "0".into())));
    }

    #[test]
    fn java_ends_on_the_seeds_counts() {
        let f = facts(TourId::Java, 4);
        let expected = [
            ("127.2.2.2#B", "20,197"),
            ("127.3.3.3#C", "21,330"),
            ("127.4.4.4#D", "18,420"),
            ("127.5.5.5#E", "19,038"),
            ("127.6.6.6#F", "21,015"),
        ];
        for (server, count) in expected {
            assert_eq!(f.count(server), count, "{server}");
        }
        let f = facts(TourId::Java, 1);
        assert_eq!(f.count("127.1.1.1#A"), "12,162");
    }

    #[test]
    fn ring_moves_only_the_neighbours_keys() {
        let f = facts(TourId::Ring, 2);
        assert_eq!(f.moved_from, ["cache_B"]);
        assert_eq!(f.moved_to.len(), 1);
        let f = facts(TourId::Ring, 3);
        assert_eq!(f.moved_to, ["cache_D"]);
        assert_ne!(f.moved, "0");
    }

    #[test]
    fn carp_and_vnodes_move_keys_only_to_the_new_server() {
        for (id, k, new) in [(TourId::Carp, 2, "redis5"), (TourId::Vnodes, 5, "10.0.0.5")] {
            let f = facts(id, k);
            assert_eq!(f.moved_to, [new], "{id:?}");
        }
        let plain = facts(TourId::Vnodes, 2);
        let balanced = facts(TourId::Vnodes, 4);
        let sd = |f: &Facts| f.stddev.replace(',', "").parse::<f64>().unwrap();
        assert!(
            sd(&balanced) * 5.0 < sd(&plain),
            "{} vs {}",
            balanced.stddev,
            plain.stddev
        );
    }

    #[test]
    fn hash_tags_share_a_slot() {
        let a = facts(TourId::Slots, 1);
        let b = facts(TourId::Slots, 2);
        assert_eq!(a.slot, Some(8106));
        assert_eq!(b.slot, Some(8106));
        assert_eq!(a.owner(), b.owner());
    }

    /// The slots tour's CRUSH steps: obj-1's three copies on three hosts, as the lookup
    /// places them; then a host added, the groups and copies counted as the command line
    /// counts them (every group's acting set placed again before and after, compared).
    #[test]
    fn a_crush_maps_copies_are_on_three_hosts_and_a_host_added_is_counted_whole() {
        let f = facts(TourId::Slots, 5);
        let hosts: std::collections::BTreeSet<&String> = f.copies.iter().map(|c| &c.1).collect();
        assert_eq!(f.copies.len(), 3, "{:?}", f.copies);
        assert_eq!(hosts.len(), 3, "{:?}", f.copies);
        assert_eq!(f.copies[0].0, f.owner());
        let tour = Tour::get(TourId::Slots);
        let plan = tour.plan(6);
        let mut sim = Simulation::new(&plan.scenario).unwrap();
        let mut before = sim.placement().acting_sets().unwrap();
        for c in &plan.changes {
            before = sim.placement().acting_sets().unwrap();
            sim.apply(c).unwrap();
        }
        let after = sim.placement().acting_sets().unwrap();
        let g = crate::engine::movement::GroupMoves::between(
            |pg| before[pg].as_slice(),
            (|pg| after[pg].as_slice(), after.len()),
            (0..after.len()).map(|pg| (pg, pg)),
            |_, _, _, _| {},
        );
        let f = facts(TourId::Slots, 6);
        let counted = [
            g.remapped,
            g.groups,
            g.copies_moved,
            g.copies,
            g.primaries_changed,
        ];
        assert_eq!(f.groups, Some(counted.map(group_thousands)));
        assert!(
            g.copies_moved > g.primaries_changed && g.primaries_changed > 0,
            "{g:?}"
        );
        assert_eq!(g.groups, 64);
    }

    /// The slots tour's Ceph step says osd.3 "wins about a quarter of the groups": the
    /// groups of the keys that moved, each wholly to osd.3, number about 256 / 4.
    #[test]
    fn ceph_moves_whole_placement_groups_about_a_quarter_of_them() {
        use crate::engine::algorithms::ceph;
        let tour = Tour::get(TourId::Slots);
        let plan = tour.plan(4);
        let mut sim = Simulation::new(&plan.scenario).unwrap();
        let before = sim.owners().to_vec();
        for c in &plan.changes {
            sim.apply(c).unwrap();
        }
        let scenario = sim.scenario();
        let groups = |moved: bool| {
            let mut set = std::collections::BTreeSet::new();
            for (i, (a, b)) in before.iter().zip(sim.owners()).enumerate() {
                if (a != b) == moved {
                    let id = sim.keys().ids[i];
                    let name = scenario.settings.keys.name(id, scenario.settings.seed);
                    set.insert(ceph::pg_of(&name, 256));
                }
            }
            set
        };
        let (moved, stayed) = (groups(true), groups(false));
        assert!(moved.is_disjoint(&stayed), "a group moves whole");
        assert!(
            (54..=74).contains(&moved.len()),
            "{} of 256 groups",
            moved.len()
        );
        let f = facts(TourId::Slots, 4);
        assert_eq!(f.moved_to, ["osd.3"]);
    }

    #[test]
    fn the_stale_story_reads_100_after_recovery_and_200_after_repair() {
        let f = facts(TourId::Stale, 1);
        assert_eq!(f.owner(), "NODE2");
        assert_eq!(f.held("NODE2"), "100");
        let f = facts(TourId::Stale, 2);
        assert_eq!(f.owner(), "NODE3");
        assert_eq!(
            (f.held("NODE2").as_str(), f.held("NODE3").as_str()),
            ("100", "200")
        );
        let f = facts(TourId::Stale, 3);
        assert_eq!(f.owner(), "NODE2");
        assert_eq!(f.read_value(), "100", "the stale value");
        let f = facts(TourId::Stale, 4);
        assert_eq!(f.read_value(), "200");
        assert_eq!(
            (f.held("NODE2").as_str(), f.held("NODE3").as_str()),
            ("200", "—")
        );
    }

    #[test]
    fn the_tours_run_on_into_each_other() {
        let mut p = Position {
            tour: TourId::ModN,
            step: 1,
        };
        assert_eq!(p.moved(-1), None);
        let mut seen = vec![p];
        while let Some(next) = p.moved(1) {
            assert_eq!(next.moved(-1), Some(p), "back from {next:?}");
            seen.push(next);
            p = next;
        }
        let total: usize = TourId::ALL.iter().map(|t| Tour::get(*t).len()).sum();
        assert_eq!(seen.len(), total);
        assert_eq!(
            p,
            Position {
                tour: TourId::Decides,
                step: 7
            }
        );
    }

    #[test]
    fn positions_are_read_with_messages() {
        assert_eq!(
            read_position("java", Some("last")),
            Ok(Position {
                tour: TourId::Java,
                step: 4
            })
        );
        assert_eq!(
            read_position("modn", None),
            Ok(Position {
                tour: TourId::ModN,
                step: 1
            })
        );
        assert!(read_position("nope", None)
            .unwrap_err()
            .to_string()
            .contains("modn, ring"));
        assert!(read_position("java", Some("9"))
            .unwrap_err()
            .to_string()
            .contains("1 to 4 or last"));
    }

    /// The decides tour follows one key through seven algorithms: each step's algorithm is
    /// the one it names, the narration tells that step's walk as the lookup's card does (in
    /// the reader's language), and the key ends on four different servers — the rules differ.
    #[test]
    fn the_decides_tour_walks_one_key_through_seven_rules() {
        use crate::i18n::Lang;
        let algos = [
            "modn",
            "jump",
            "anchor",
            "multiprobe",
            "rendezvous",
            "maglev",
            "bounded",
        ];
        let tour = Tour::get(TourId::Decides);
        assert_eq!(tour.len(), algos.len());
        let mut owners = Vec::new();
        for (k, algo) in (1..).zip(algos) {
            let state = walk(TourId::Decides, k);
            assert_eq!(state.sim.settings().algo.name(), algo, "step {k}");
            let lookup = state.lookup.as_ref().expect("a followed key");
            assert_eq!(lookup.key, DECIDES_KEY);
            let owner = state.sim.owners()[state.sim.keys().places_by_id()[1635] as usize];
            assert_eq!(
                lookup.explanation.owner, owner,
                "step {k}: the walk ends at the owner"
            );
            owners.push(owner);
            for lang in Lang::ALL {
                let w = lang.words();
                let f = Facts::read(w, &state, None);
                let said = crate::words::explain(w, &state.sim, DECIDES_KEY, &lookup.explanation);
                let text = (w.tour_words[TourId::Decides.index()].steps[k - 1])(&f);
                assert!(text.contains(&said.sentence), "{lang:?} step {k}: {text}");
            }
        }
        owners.sort_unstable();
        owners.dedup();
        assert!(owners.len() >= 4, "owners {owners:?}");
        // Bounded loads' step shows a key walking past a full server.
        assert!(facts(TourId::Decides, 7).picture.contains("already full"));
    }

    #[test]
    fn the_class_predicts_an_add_or_a_remove_in_five_tours() {
        let mut asked = Vec::new();
        for id in TourId::ALL {
            let tour = Tour::get(id);
            for k in 1..=tour.len() {
                if let Some(change) = tour.prediction_at(k) {
                    assert!(
                        matches!(change, Change::Add { .. } | Change::Remove(_)),
                        "{id:?} {k}"
                    );
                    asked.push((id, k));
                }
            }
        }
        use TourId::*;
        assert_eq!(
            asked,
            [(ModN, 1), (Ring, 1), (Vnodes, 4), (Carp, 1), (Slots, 2)]
        );
    }

    #[test]
    fn windows_tell_each_other_positions() {
        let p = Position {
            tour: TourId::Carp,
            step: 2,
        };
        assert_eq!(p.to_message(), "carp 2");
        assert_eq!(Position::from_message("carp 2"), Some(p));
        for bad in ["carp", "carp 9", "nope 1", "", "carp two"] {
            assert_eq!(Position::from_message(bad), None, "{bad}");
        }
    }

    #[test]
    fn next_continues_only_from_the_step_reached_with_nothing_changed_since() {
        let at = |step| Position {
            tour: TourId::Java,
            step,
        };
        assert!(continues(Some((at(2), 7)), at(3), 7));
        assert!(
            !continues(Some((at(2), 7)), at(3), 8),
            "a change by hand in between"
        );
        assert!(!continues(Some((at(2), 7)), at(4), 7), "a jump");
        assert!(!continues(Some((at(3), 7)), at(2), 7), "Previous");
        assert!(!continues(None, at(1), 0));
        let other = Position {
            tour: TourId::Carp,
            step: 3,
        };
        assert!(!continues(Some((at(2), 7)), other, 7), "another tour");
    }
}
