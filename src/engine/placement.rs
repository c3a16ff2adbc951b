//! The builder: the [`Placement`] a scenario's settings ask for, over its live servers.
//!
//! The layers of the engine's placement code, bottom up: [`super::contract`] (what a
//! placement promises, and how it explains an answer), the algorithms (each implementing
//! it, none knowing the others' list), [`super::algorithm`] (the list of algorithms and
//! what each needs), and this builder, the one place that knows them all. The ring and
//! Redis slots are drawn as a ring of boundary points ([`Ring`]), which lets the simulation
//! update incrementally from the arcs that changed; the others are recomputed key by key.
//! The contract's types are re-exported here for the code above the engine.

use std::rc::Rc;

pub use super::algorithm::{weighted_vnodes, Algorithm, LabelTemplate};
use super::anchor::Anchor;
use super::binomial::binomial;
use super::book::{BookPlacement, BucketBook};
use super::bounded::Bounded;
pub use super::contract::{Explanation, How, LiveServer, Placement};
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
use super::scorers::{CarpScore, HighestRandomWeight, Scorers};
use super::slots::{SlotTable, SLOT_SHIFT};

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
