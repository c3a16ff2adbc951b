//! Placement algorithms behind one interface.
//!
//! A [`Placement`] answers "which server owns this key?" for a fixed set of live servers.
//! Algorithms that can be drawn as a ring of boundary points (the consistent-hash ring and
//! Redis slots) also expose that [`Ring`], which lets the simulation update incrementally
//! from the arcs that changed. Others (mod-N, rendezvous, CARP) are per-key functions and
//! are recomputed key by key. A new algorithm (jump, Maglev, bounded-load, multi-probe) is a
//! new `Placement` impl plus one [`Algorithm`] variant; nothing else changes.

use std::fmt;

use super::hash::{md5_digest, HashFn};
use super::ring::{Ring, ServerId, VNode, NO_OWNER};
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
}

impl Algorithm {
    /// Every algorithm, in the order the page lists them.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Ring,
        Algorithm::ModN,
        Algorithm::Rendezvous,
        Algorithm::Carp,
        Algorithm::Slots,
    ];

    /// The name used on the command line and in URLs.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::ModN => "modn",
            Algorithm::Rendezvous => "rendezvous",
            Algorithm::Carp => "carp",
            Algorithm::Slots => "slots",
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

    /// True when the algorithm is a ring of boundaries (so arcs can be diffed).
    pub fn is_ring_shaped(self) -> bool {
        matches!(self, Algorithm::Ring | Algorithm::Slots)
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

    /// The ring of boundary points, for algorithms that have one.
    fn ring(&self) -> Option<&Ring> {
        None
    }
}

/// The ring and the slot table are both a [`Ring`].
impl Placement for Ring {
    fn owner(&self, _key: &str, position: u32) -> ServerId {
        self.owner_of(position)
    }

    fn ring(&self) -> Option<&Ring> {
        Some(self)
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
}

/// Highest random weight: the server with the largest `hash(server + key)` wins; weighted
/// servers score `−weight / ln(h / 2^32)`. The first server in list order wins ties.
pub struct Rendezvous {
    /// Live servers in list order.
    pub servers: Vec<LiveServer>,
    /// The hash applied to `server + key`.
    pub hash: HashFn,
}

impl Placement for Rendezvous {
    fn owner(&self, key: &str, _position: u32) -> ServerId {
        let weighted = self.servers.iter().any(|s| s.weight != 1.0);
        let mut best = (NO_OWNER, f64::NEG_INFINITY);
        let mut joined = String::new();
        for s in &self.servers {
            joined.clear();
            joined.push_str(&s.name);
            joined.push_str(key);
            // Identity is rejected for rendezvous by scenario validation; 0 is a safe fallback.
            let h = self.hash.position(&joined).unwrap_or(0);
            let score = if weighted {
                let unit = f64::from(h) / 4_294_967_296.0;
                -s.weight / unit.ln()
            } else {
                f64::from(h)
            };
            if score > best.1 {
                best = (s.id, score);
            }
        }
        best.0
    }
}

/// Seed 004: MD5 of `server + key` compared as 16 raw bytes; the smallest digest wins, the
/// first server on ties. (The seed's prose says "max", its code takes the min; we follow the
/// code.) The scenario's hash function only places keys on the drawing.
pub struct Carp {
    /// Live servers in list order.
    pub servers: Vec<LiveServer>,
}

impl Placement for Carp {
    fn owner(&self, key: &str, _position: u32) -> ServerId {
        let mut best: Option<([u8; 16], ServerId)> = None;
        let mut joined = String::new();
        for s in &self.servers {
            joined.clear();
            joined.push_str(&s.name);
            joined.push_str(key);
            let digest = md5_digest(joined.as_bytes());
            if best.is_none_or(|(b, _)| digest < b) {
                best = Some((digest, s.id));
            }
        }
        best.map_or(NO_OWNER, |b| b.1)
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
                "label '{text}' must contain {{node}} (and {{i}} for more than one vnode), e.g. {{node}}#{{i}}"
            ));
        }
        if text.len() > Self::MAX_LEN {
            return Err(format!("label is longer than {} characters", Self::MAX_LEN));
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
/// the key's Redis slot (so slot ranges are arcs) and the rest spreads keys inside it.
pub fn key_position(
    algo: Algorithm,
    hash: HashFn,
    key: &str,
) -> Result<u32, super::hash::HashError> {
    let h = hash.position(key)?;
    Ok(match algo {
        Algorithm::Slots => {
            (u32::from(super::hash::redis_slot(key)) << SLOT_SHIFT) | (h & ((1 << SLOT_SHIFT) - 1))
        }
        _ => h,
    })
}

/// Builds the placement for `algo` over `live` servers.
pub fn build_placement(
    algo: Algorithm,
    live: Vec<LiveServer>,
    vnodes: u32,
    label: &LabelTemplate,
    hash: HashFn,
    slots: Option<&SlotTable>,
) -> Result<Box<dyn Placement>, String> {
    let names: Vec<(ServerId, String)> = live.iter().map(|s| (s.id, s.name.clone())).collect();
    let name_of = |id: ServerId| {
        names
            .iter()
            .find(|n| n.0 == id)
            .map_or("", |n| n.1.as_str())
    };
    Ok(match algo {
        Algorithm::Ring => Box::new(Ring::new(ring_vnodes(&live, vnodes, label, hash)?, name_of)),
        Algorithm::Slots => {
            let table = slots.ok_or("slots placement needs a slot table")?;
            let points = table.boundaries(|id| live.iter().any(|s| s.id == id));
            Box::new(Ring::new(points, name_of))
        }
        Algorithm::ModN => Box::new(ModN {
            servers: live.iter().map(|s| s.id).collect(),
        }),
        Algorithm::Rendezvous => Box::new(Rendezvous {
            servers: live,
            hash,
        }),
        Algorithm::Carp => Box::new(Carp { servers: live }),
    })
}
