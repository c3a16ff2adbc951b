//! Placement algorithms behind one interface.
//!
//! A [`Placement`] answers "which server owns this key?" for a fixed set of live servers.
//! Algorithms that can be drawn as a ring of boundary points (the consistent-hash ring and
//! Redis slots) also expose that [`Ring`], which lets the simulation update incrementally
//! from the arcs that changed. Others (mod-N, rendezvous, CARP) are per-key functions and
//! are recomputed key by key. A new algorithm (jump, Maglev, bounded-load, multi-probe) is a
//! new `Placement` impl plus one [`Algorithm`] variant; nothing else changes.

use std::fmt;
use std::rc::Rc;

use super::anchor::Anchor;
use super::binomial::binomial;
use super::book::{BookPlacement, BucketBook};
use super::bounded::{Bounded, BoundedWalk};
use super::dx::Dx;
use super::flip::flip;
use super::hash::HashFn;
use super::jump::Buckets;
use super::jumpback::jumpback;
use super::maglev::Maglev;
use super::memento::Memento;
use super::multiprobe::MultiProbe;
use super::power::power;
use super::ring::{Ring, ServerId, VNode, NO_OWNER};
use super::scenario::Settings;
use super::scorers::{Best, CarpScore, HighestRandomWeight, Ranked, Score, Scorers};
use super::slots::{SlotTable, SLOT_SHIFT};

/// The placement algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Consistent-hash ring with virtual nodes (seeds 000–003).
    Ring,
    /// `hash(key) mod N` over the live servers in list order (seed 000's counter-example).
    ModN,
    /// Highest random weight over `hash(server + key)`.
    Rendezvous,
    /// Seed 004's CARP: MD5 of `server + key`, the smallest digest wins.
    Carp,
    /// Redis Cluster's 16384 hash slots.
    Slots,
    /// Jump consistent hash (Lamping & Veach 2014).
    Jump,
    /// Multi-probe consistent hashing (Appleton & O'Reilly 2015).
    MultiProbe,
    /// Maglev's lookup table (Eisenbud et al. 2016).
    Maglev,
    /// Consistent hashing with bounded loads (Mirrokni, Thorup & Zadimoghaddam 2018).
    Bounded,
    /// AnchorHash (Mendelson et al. 2020).
    Anchor,
    /// MementoHash (Coluzzi et al. 2023).
    Memento,
    /// DxHash (Dong & Wang 2021).
    Dx,
    /// JumpBackHash (Ertl 2024).
    JumpBack,
    /// BinomialHash (Coluzzi et al. 2024).
    Binomial,
    /// FlipHash (Masson & Lee 2024).
    Flip,
    /// Power consistent hashing (Leu 2023).
    Power,
}

impl Algorithm {
    /// Every algorithm, in the order the page lists them.
    pub const ALL: [Algorithm; 16] = [
        Algorithm::Ring,
        Algorithm::ModN,
        Algorithm::Rendezvous,
        Algorithm::Carp,
        Algorithm::Slots,
        Algorithm::Jump,
        Algorithm::MultiProbe,
        Algorithm::Maglev,
        Algorithm::Bounded,
        Algorithm::Anchor,
        Algorithm::Memento,
        Algorithm::Dx,
        Algorithm::JumpBack,
        Algorithm::Binomial,
        Algorithm::Flip,
        Algorithm::Power,
    ];

    /// The name used on the command line and in URLs.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::ModN => "modn",
            Algorithm::Rendezvous => "rendezvous",
            Algorithm::Carp => "carp",
            Algorithm::Slots => "slots",
            Algorithm::Jump => "jump",
            Algorithm::MultiProbe => "multiprobe",
            Algorithm::Maglev => "maglev",
            Algorithm::Bounded => "bounded",
            Algorithm::Anchor => "anchor",
            Algorithm::Memento => "memento",
            Algorithm::Dx => "dx",
            Algorithm::JumpBack => "jumpback",
            Algorithm::Binomial => "binomial",
            Algorithm::Flip => "flip",
            Algorithm::Power => "power",
        }
    }

    /// Parses a name from [`Algorithm::name`].
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// All names, comma separated, for error messages.
    pub fn names() -> String {
        Algorithm::ALL.map(Algorithm::name).join(", ")
    }

    /// True when the number of virtual nodes matters (the ring, and the ring under bounded
    /// loads).
    pub fn uses_vnodes(self) -> bool {
        matches!(self, Algorithm::Ring | Algorithm::Bounded)
    }

    /// True when server weights change placement (mod-N and seed 004's CARP ignore them).
    pub fn uses_weights(self) -> bool {
        matches!(
            self,
            Algorithm::Ring | Algorithm::Rendezvous | Algorithm::Slots
        )
    }

    /// True when the scenario's hash decides placement (slots use CRC16 and CARP MD5; the
    /// hash then only spreads keys on the drawing).
    pub fn uses_hash(self) -> bool {
        matches!(
            self,
            Algorithm::Ring
                | Algorithm::ModN
                | Algorithm::Rendezvous
                | Algorithm::MultiProbe
                | Algorithm::Bounded
        )
    }

    /// True for the bucket algorithms that only grow and shrink at the end of the server
    /// list: removing any other server renumbers the ones after it.
    pub fn shrinks_only_at_end(self) -> bool {
        matches!(
            self,
            Algorithm::Jump
                | Algorithm::JumpBack
                | Algorithm::Binomial
                | Algorithm::Flip
                | Algorithm::Power
        )
    }

    /// True for the bucket algorithms that let any server leave and keep a bucket book
    /// (the history of removals) to do it.
    pub fn keeps_bucket_book(self) -> bool {
        matches!(self, Algorithm::Anchor | Algorithm::Memento | Algorithm::Dx)
    }

    /// True when the algorithm is a ring of boundaries (so arcs can be diffed): the ring,
    /// Redis slots' ranges, Maglev's cells.
    pub fn is_ring_shaped(self) -> bool {
        matches!(self, Algorithm::Ring | Algorithm::Slots | Algorithm::Maglev)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A live server as the placements see it.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveServer {
    /// Stable id.
    pub id: ServerId,
    /// Name (hashed by rendezvous and CARP, and by the ring's vnode labels).
    pub name: String,
    /// Relative weight.
    pub weight: f64,
}

/// Who owns a key, for one fixed set of live servers.
pub trait Placement {
    /// The owner of the key named `key` whose ring position is `position`.
    fn owner(&self, key: &str, position: u32) -> ServerId;

    /// How the owner of `key` is found, step by step: the algorithm's own account, from
    /// the same code that [`Placement::owner`] runs, so the two cannot disagree.
    fn explain(&self, key: &str, position: u32) -> Explanation;

    /// The ring of boundary points, for algorithms that have one.
    fn ring(&self) -> Option<&Ring> {
        None
    }

    /// False when [`Placement::owner`] reads only the position, so callers may skip
    /// building the key's name.
    fn needs_key_name(&self) -> bool {
        true
    }

    /// Bytes of the lookup structure (what a server process would hold per cluster view).
    fn memory_bytes(&self) -> usize;

    /// [`Placement::explain`] for a key of the set that arrived as number `arrival`
    /// (`None` for a key not in the set); only bounded loads depend on arrivals.
    fn explain_arrival(&self, key: &str, position: u32, arrival: Option<u32>) -> Explanation {
        let _ = arrival;
        self.explain(key, position)
    }

    /// For bucket algorithms, what to draw: who holds each bucket ([`NO_OWNER`] for a
    /// removed one) and how many bucket cells there are in all (Anchor's and Dx's capacity
    /// includes buckets never used).
    fn buckets(&self) -> Option<(&[ServerId], u32)> {
        None
    }

    /// Bounded loads, whose owners depend on the keys that arrived before: the simulation
    /// then places the keys one after another.
    fn bounded(&self) -> Option<&Bounded> {
        None
    }

    /// Per-key scorers, which can keep each key's winning [`Rank`] so that a server joining
    /// costs one score per key instead of one per server.
    fn ranked(&self) -> Option<&dyn Ranked> {
        None
    }
}

/// How a placement found a key's owner. The page and the command line put it into words;
/// the engine only says what happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The key's ring position (its hash; under slots, the slot in the top 14 bits).
    pub position: u32,
    /// The owner found, or [`NO_OWNER`] when no server is up.
    pub owner: ServerId,
    /// The algorithm's steps.
    pub how: How,
}

/// The steps of one algorithm's lookup.
#[derive(Clone, Debug, PartialEq)]
pub enum How {
    /// The ring: the first point at or after the key's position, clockwise (none when no
    /// server is up).
    FirstPointClockwise {
        /// The point reached.
        point: Option<VNode>,
    },
    /// Redis Cluster: the key's slot, and the master that the slot table gives it (the
    /// key is served by the next live range clockwise when that master is down).
    Slot {
        /// CRC16 of the key (or its hash tag) mod 16384.
        slot: u16,
        /// The hash tag, when the key has one.
        hash_tag: Option<String>,
        /// The slot's master in the slot table.
        master: ServerId,
        /// The point (end of a live slot range) that serves the key.
        point: Option<VNode>,
    },
    /// mod-N: the key's hash modulo the number of live servers, an index into them.
    Modulo {
        /// The hash value.
        value: u32,
        /// The live servers in list order.
        live: Vec<ServerId>,
    },
    /// Bucket algorithms (jump): the key's 64-bit digest and the buckets it visits; the
    /// last is its bucket, an index into the live servers.
    Buckets {
        /// The key's digest.
        digest: u64,
        /// The buckets visited, in order.
        path: Vec<u32>,
        /// The live servers in list order (bucket `i` is `live[i]`).
        live: Vec<ServerId>,
    },
    /// Multi-probe: each probe with the server point it reaches; the nearest wins.
    Probes {
        /// The probes.
        probes: Vec<super::multiprobe::Probe>,
        /// Which probe won.
        best: Option<usize>,
    },
    /// Anchor, Memento and Dx: the buckets visited, each replaced or redrawn until a
    /// working one.
    Chain {
        /// The key's digest.
        digest: u64,
        /// The buckets visited, in order; the last one works.
        path: Vec<u32>,
        /// Who holds each bucket (`NO_OWNER` for a removed one).
        holders: Vec<ServerId>,
    },
    /// Bounded loads: the walk clockwise past full servers.
    Bounded {
        /// The walk.
        walk: BoundedWalk,
        /// The capacity per server.
        capacity: u32,
    },
    /// Maglev: the key's cell of the lookup table.
    TableCell {
        /// The cell, `hash(key) mod size`.
        cell: u32,
        /// The table size M.
        size: u32,
    },
    /// Every live server scores the key; the best score wins (the first in list order on
    /// a tie).
    BestScore {
        /// Whether the highest or the lowest score wins.
        best: Best,
        /// Each live server's score, in list order.
        scores: Vec<(ServerId, Score)>,
    },
}

/// The consistent-hash ring.
impl Placement for Ring {
    fn owner(&self, _key: &str, position: u32) -> ServerId {
        self.owner_of(position)
    }

    fn explain(&self, _key: &str, position: u32) -> Explanation {
        let point = self.successor(position).copied();
        Explanation {
            position,
            owner: point.map_or(NO_OWNER, |p| p.server),
            how: How::FirstPointClockwise { point },
        }
    }

    fn ring(&self) -> Option<&Ring> {
        Some(self)
    }

    fn memory_bytes(&self) -> usize {
        Ring::memory_bytes(self)
    }
}

/// Redis Cluster's slots: the slot table's live ranges drawn as a [`Ring`] (one point at
/// the end of each range), plus the table itself to name a slot's master.
pub struct SlotRing {
    /// The live ranges as ring points.
    pub ring: Ring,
    /// Who serves each slot.
    pub table: SlotTable,
}

impl Placement for SlotRing {
    fn owner(&self, _key: &str, position: u32) -> ServerId {
        self.ring.owner_of(position)
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        let slot = (position >> SLOT_SHIFT) as u16;
        let tag = super::hash::redis_hash_tag(key.as_bytes());
        let point = self.ring.successor(position).copied();
        Explanation {
            position,
            owner: point.map_or(NO_OWNER, |p| p.server),
            how: How::Slot {
                slot,
                hash_tag: (tag.len() < key.len()).then(|| String::from_utf8_lossy(tag).into()),
                master: self.table.owner(slot),
                point,
            },
        }
    }

    fn ring(&self) -> Option<&Ring> {
        Some(&self.ring)
    }

    fn memory_bytes(&self) -> usize {
        self.ring.memory_bytes() + self.table.memory_bytes()
    }
}

/// `position mod N` over the live servers in list order.
pub struct ModN {
    /// Live server ids in list order.
    pub servers: Vec<ServerId>,
}

impl Placement for ModN {
    fn owner(&self, _key: &str, position: u32) -> ServerId {
        if self.servers.is_empty() {
            return NO_OWNER;
        }
        self.servers[position as usize % self.servers.len()]
    }

    fn needs_key_name(&self) -> bool {
        false
    }

    fn memory_bytes(&self) -> usize {
        self.servers.len() * std::mem::size_of::<ServerId>()
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        Explanation {
            position,
            owner: self.owner(key, position),
            how: How::Modulo {
                value: position,
                live: self.servers.clone(),
            },
        }
    }
}

/// The text that a vnode's position is the hash of: a template with `{node}` and `{i}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelTemplate(String);

impl LabelTemplate {
    /// The longest template accepted.
    pub const MAX_LEN: usize = 100;

    /// Validates a template: it must contain `{node}`.
    pub fn parse(text: &str) -> Result<LabelTemplate, String> {
        if !text.contains("{node}") {
            return Err(format!(
                "label {} must contain {{node}} (and {{i}} for more than one vnode), e.g. {{node}}#{{i}}",
                super::text::quote(text)
            ));
        }
        if text.len() > Self::MAX_LEN {
            return Err(format!("label is longer than {} characters", Self::MAX_LEN));
        }
        if let Some(hidden) = super::text::first_hidden(text) {
            return Err(format!(
                "label must not contain the invisible or control character {hidden}"
            ));
        }
        Ok(LabelTemplate(text.to_owned()))
    }

    /// True when the label varies with `{i}`.
    pub fn has_index(&self) -> bool {
        self.0.contains("{i}")
    }

    /// The template text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The label of vnode `i` of server `node`.
    pub fn render(&self, node: &str, i: u32) -> String {
        let mut digits = itoa::Buffer::new();
        self.0
            .replace("{node}", node)
            .replace("{i}", digits.format(i))
    }
}

impl Default for LabelTemplate {
    fn default() -> Self {
        LabelTemplate("{node}#{i}".into())
    }
}

/// How many vnodes a server of `weight` gets: `round(vnodes × weight)`, at least 1.
pub fn weighted_vnodes(vnodes: u32, weight: f64) -> u32 {
    ((f64::from(vnodes) * weight).round() as u32).max(1)
}

/// The vnodes of the consistent-hash ring for the given live servers.
pub fn ring_vnodes(
    servers: &[LiveServer],
    vnodes: u32,
    label: &LabelTemplate,
    hash: HashFn,
) -> Result<Vec<VNode>, String> {
    let mut out = Vec::new();
    for s in servers {
        for i in 0..weighted_vnodes(vnodes, s.weight) {
            let text = label.render(&s.name, i);
            let position = hash
                .position(&text)
                .map_err(|e| format!("vnode label: {e}"))?;
            out.push(VNode {
                position,
                server: s.id,
                replica: i,
            });
        }
    }
    Ok(out)
}

/// The ring position of a key: its hash, except under `slots`, where the top 14 bits are
/// the key's Redis slot (so slot ranges are arcs) and the rest spreads keys inside it, and
/// under Maglev, where the key sits inside its table cell.
pub fn key_position(settings: &Settings, key: &str) -> Result<u32, super::hash::HashError> {
    let h = settings.hash.position(key)?;
    Ok(match settings.algo {
        Algorithm::Slots => {
            (u32::from(super::hash::redis_slot(key)) << SLOT_SHIFT) | (h & ((1 << SLOT_SHIFT) - 1))
        }
        Algorithm::Maglev => super::maglev::cell_position(
            super::jump::key_digest(settings.hash, key),
            settings.table,
        ),
        _ => h,
    })
}

/// What the key layout depends on besides the keys and the hash: slots and Maglev (with
/// its table size) place keys by their own rule. A change of layout rehashes the keys.
pub fn key_layout(settings: &Settings) -> (Algorithm, u32) {
    match settings.algo {
        Algorithm::Slots => (Algorithm::Slots, 0),
        Algorithm::Maglev => (Algorithm::Maglev, settings.table),
        _ => (Algorithm::Ring, 0),
    }
}

/// The bucket placement (Anchor, Memento, Dx) that the book's history leaves: the engine
/// built for every bucket the book has used, its removals replayed in order.
fn book_placement(algo: Algorithm, book: &BucketBook, hash: HashFn) -> Rc<dyn Placement> {
    let holders = book.holders().to_vec();
    let n = holders.len() as u32;
    match algo {
        Algorithm::Anchor => {
            let mut anchor = Anchor::new(book.capacity(), n);
            for &b in book.removed() {
                anchor.remove(b);
            }
            Rc::new(BookPlacement {
                engine: anchor,
                holders,
                hash,
            })
        }
        Algorithm::Memento => {
            let mut memento = Memento::new(n);
            for &b in book.removed() {
                memento.remove(b);
            }
            Rc::new(BookPlacement {
                engine: memento,
                holders,
                hash,
            })
        }
        _ => {
            let mut dx = Dx::new(n, book.capacity());
            for &b in book.removed() {
                dx.remove(b);
            }
            Rc::new(BookPlacement {
                engine: dx,
                holders,
                hash,
            })
        }
    }
}

/// Turns a ring of vnodes into the placement `settings` asks for: the ring itself, or the
/// ring under bounded loads with its capacity for the live servers and the keys.
pub fn ring_placement(settings: &Settings, ring: Ring, live: usize) -> Rc<dyn Placement> {
    if settings.algo == Algorithm::Bounded {
        let capacity = Bounded::capacity_for(settings.c, settings.keys.len(), live);
        Rc::new(Bounded::new(ring, capacity))
    } else {
        Rc::new(ring)
    }
}

/// Builds the placement for `algo` over `live` servers; `slots` is the slot table (for
/// slots) and `book` the bucket book (for Anchor, Memento and Dx).
pub fn build_placement(
    settings: &Settings,
    live: Vec<LiveServer>,
    slots: Option<&SlotTable>,
    book: Option<&BucketBook>,
) -> Result<Rc<dyn Placement>, String> {
    let (vnodes, label, hash) = (settings.vnodes, &settings.label, settings.hash);
    let names: Vec<(ServerId, String)> = live.iter().map(|s| (s.id, s.name.clone())).collect();
    let name_of = |id: ServerId| {
        names
            .iter()
            .find(|n| n.0 == id)
            .map_or("", |n| n.1.as_str())
    };
    Ok(match settings.algo {
        Algorithm::Ring | Algorithm::Bounded => ring_placement(
            settings,
            Ring::new(ring_vnodes(&live, vnodes, label, hash)?, name_of),
            live.len(),
        ),
        Algorithm::Anchor | Algorithm::Memento | Algorithm::Dx => {
            let book = book.ok_or("this algorithm needs a bucket book")?;
            book_placement(settings.algo, book, hash)
        }
        Algorithm::Slots => {
            let table = slots.ok_or("slots placement needs a slot table")?;
            let points = table.boundaries(|id| live.iter().any(|s| s.id == id));
            Rc::new(SlotRing {
                ring: Ring::new(points, name_of),
                table: table.clone(),
            })
        }
        Algorithm::ModN => Rc::new(ModN {
            servers: live.iter().map(|s| s.id).collect(),
        }),
        Algorithm::Rendezvous => {
            let weighted = live.iter().any(|s| s.weight != 1.0);
            Rc::new(Scorers::new(live, HighestRandomWeight { hash, weighted }))
        }
        Algorithm::Carp => Rc::new(Scorers::new(live, CarpScore)),
        Algorithm::Jump => Rc::new(Buckets::jump(live.iter().map(|s| s.id).collect(), hash)),
        Algorithm::MultiProbe => {
            // One point per server, at the scenario's hash of its name.
            let points = live
                .iter()
                .map(|s| {
                    Ok(VNode {
                        position: hash.position(&s.name).map_err(|e| e.to_string())?,
                        server: s.id,
                        replica: 0,
                    })
                })
                .collect::<Result<Vec<VNode>, String>>()?;
            Rc::new(MultiProbe {
                ring: Ring::new(points, name_of),
                probes: settings.probes,
            })
        }
        Algorithm::JumpBack | Algorithm::Binomial | Algorithm::Flip | Algorithm::Power => {
            Rc::new(Buckets {
                servers: live.iter().map(|s| s.id).collect(),
                hash,
                bucket: match settings.algo {
                    Algorithm::JumpBack => jumpback,
                    Algorithm::Binomial => binomial,
                    Algorithm::Flip => flip,
                    _ => power,
                },
                path: None,
            })
        }
        Algorithm::Maglev => {
            let servers: Vec<(ServerId, &str)> =
                live.iter().map(|s| (s.id, s.name.as_str())).collect();
            Rc::new(Maglev::new(&servers, settings.table, hash))
        }
    })
}
