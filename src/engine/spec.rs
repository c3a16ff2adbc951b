//! What the registry says about one placement algorithm: its [`Spec`] (the id, the knobs
//! it reads, the picture it is drawn as, its cost per key, its checks and its builder), and
//! [`Algorithm`], a copyable handle on one registered spec. Each algorithm's file in
//! [`super::algorithms`] holds its own `SPEC`; the registry there lists them. This module
//! sits below the algorithms and imports none of them, so an algorithm depends only on the
//! contract ([`super::contract`]), the shared machinery (ring, hashes, slot table, bucket
//! book) and this description.
//!
//! Also the vnode label template and the weighted vnode count, which the scenario's
//! settings carry for the ring.

use crate::engine::crush::layout::CrushLayout;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use super::book::BucketBook;
use super::contract::{LiveServer, Placement, TableFill};
use super::hash::HashFn;
use super::ring::{Ring, ServerId};
use super::slots::SlotTable;
use super::tokens::TokenMap;
use crate::problem::Problem;

/// Naming a key and hashing it to a position (re-measured in the page 2026-12-01: 40 had
/// become 4× too much once naming stopped going through the formatter, so steps were short
/// and each paid a render for little work). Costs are in units of about 10 ns of the
/// page's WebAssembly.
pub const KEY_COST: usize = 12;
/// Naming a key only (the per-key scorers hash `server + key`, not the key): about 40 ns.
pub const NAME_COST: usize = 4;
/// A ring or slot lookup, or `hash mod N`.
pub const LOOKUP_COST: usize = 5;
/// One rendezvous score: concatenate server and key, hash.
pub const SCORE_COST: usize = 10;
/// One CARP score: the MD5 of server and key (about 100 ns in the page four at a time,
/// measured).
pub const DIGEST_COST: usize = 11;

/// What an algorithm promises a change of servers moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moves {
    /// Adding a server moves keys only to it; removing any server moves only its keys.
    Minimal,
    /// Adding a server moves keys only to it; only the last server leaves that cheaply:
    /// removing another renumbers the ones after it (jump and its kin).
    GrowOnly,
    /// No such promise: mod-N, Maglev's near-minimal disruption, bounded loads' forwarding,
    /// real systems that recount points by weight share or renumber servers.
    Remaps,
}

/// One registered placement algorithm: everything the rest of the program asks about it.
pub struct Spec {
    /// The name on the command line, in URLs and scenario files (`ring`, `jump`, …); also
    /// the algorithm's file name in `src/engine/algorithms/`.
    pub id: &'static str,
    /// The scenario settings it reads.
    pub knobs: Knobs,
    /// How it is drawn, and where its keys sit on the ring.
    pub shape: Shape,
    /// What it keeps from one change to the next besides the server list.
    pub memory: Memory,
    /// What a change of servers moves, as the algorithm promises it; the engine's property
    /// tests hold every registered algorithm to its promise.
    pub moves: Moves,
    /// Its placement made from a ring of the scenario's own vnodes (its labels under its
    /// hash) and the live server count, when it is such a ring (ring, bounded loads): the
    /// page builds a big one in steps and hands it here. `None` for the rest, which make
    /// their own points (groupcache's, Cassandra's tokens) or none.
    pub over_ring: Option<OverRing>,
    /// Its lookup table as a fill that goes a few cells at a time, when it is a table
    /// (Maglev, Envoy's Maglev): the page fills a large one in steps.
    pub table_fill: Option<TableFillOf>,
    /// True when it is a ring of boundaries whose changes can be diffed arc by arc (the
    /// simulation then updates only the keys in the arcs that changed).
    pub arcs: bool,
    /// True when every live server scores every key (a lookup costs one hash per server;
    /// a joining server needs only its own score per key).
    pub scores_every_server: bool,
    /// The system's own key hash, when it has one (a real system hashes keys its way,
    /// whatever the scenario's hash): keys then sit at this hash on the ring.
    pub key_hash: Option<KeyHash>,
    /// What a per-key algorithm reads of a key's name, when one 64-bit number says it all:
    /// a key's value is then computed once, when the keys are hashed, and its owner found
    /// from it ([`crate::engine::contract::Placement::owner_of_value`]) — no name is read
    /// again at a change (a key file's ten million lines, above all).
    pub key_value: Option<super::keys::KeyValue>,
    /// Cost of assigning one key an owner, in the units of [`KEY_COST`].
    pub cost: fn(&CostInput) -> usize,
    /// The rules for a scenario under this algorithm beyond each value's own range.
    pub check: fn(&Check<'_>) -> Result<(), Problem>,
    /// The placement over the live servers.
    pub build: fn(&Build<'_>) -> Result<Rc<dyn Placement>, Problem>,
}

/// A system's own key hash: its name in explanations and the function.
#[derive(Clone, Copy, Debug)]
pub struct KeyHash {
    /// The name an explanation gives it ("crc32").
    pub name: &'static str,
    /// The key's position (the settings give a table its size).
    pub hash: fn(&str, &Params<'_>) -> u32,
}

/// The scenario settings an algorithm reads (the page shows only these controls).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Knobs {
    /// Virtual nodes per server and their label template.
    pub vnodes: bool,
    /// Server weights.
    pub weights: bool,
    /// The scenario's hash decides placement (otherwise it only spreads keys on the
    /// drawing).
    pub hash: bool,
    /// Probes per key.
    pub probes: bool,
    /// The lookup table's size.
    pub table: bool,
    /// The balance factor `c`.
    pub balance: bool,
    /// Ceph's placement groups per pool, `pg_num` (the scenario's table size).
    pub pg_num: bool,
}

impl Knobs {
    /// Reads none of the settings.
    pub const NONE: Knobs = Knobs {
        vnodes: false,
        weights: false,
        hash: false,
        probes: false,
        table: false,
        balance: false,
        pg_num: false,
    };
}

/// How an algorithm is drawn on the ring, and where its keys sit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Each server's virtual nodes on the ring; keys at their hash.
    Vnodes,
    /// Redis Cluster's slot ranges; a key's slot is the top 14 bits of its position.
    SlotRanges,
    /// A lookup table's cells; a key sits inside its cell.
    TableCells,
    /// One point per server where its name hashes; keys at their hash.
    NamePoints,
    /// No ring positions: each server's marker where its id puts it, its keys in a fan.
    Fans,
}

/// What an algorithm keeps from one change to the next besides the server list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Nothing: the placement follows from the live servers alone.
    Nothing,
    /// Redis Cluster's slot table (slots move only when servers join or leave).
    SlotTable,
    /// The bucket book: the buckets' holders and the history of removals.
    BucketBook,
    /// A cluster's own tokens, when given (Cassandra's `nodetool ring`, `tokens=`): they
    /// follow the server list through changes.
    Tokens,
}

/// A lookup table's fill, empty, over the live servers under the settings.
/// A table's fill over the live servers and, beside them, the ones that are down.
pub type TableFillOf = fn(&[LiveServer], &[LiveServer], &Params<'_>) -> Box<dyn TableFill>;

/// A placement made from a ring of the scenario's vnodes, the settings and the live count.
pub type OverRing = fn(Ring, &Params<'_>, usize) -> Rc<dyn Placement>;

/// What an algorithm's cost per key depends on.
#[derive(Clone, Copy, Debug)]
pub struct CostInput {
    /// Live servers (at least 1).
    pub live: usize,
    /// Probes per key.
    pub probes: u32,
    /// The bucket book's capacity (1 without a book).
    pub book_capacity: usize,
}

/// The settings a placement is built from (the scenario's, without its key set).
#[derive(Clone, Copy, Debug)]
pub struct Params<'a> {
    /// The hash for keys, vnode labels and scores.
    pub hash: HashFn,
    /// Virtual nodes per server of weight 1.
    pub vnodes: u32,
    /// The vnode label template.
    pub label: &'a LabelTemplate,
    /// Probes per key.
    pub probes: u32,
    /// Maglev's lookup table's size.
    pub table: u32,
    /// Ceph's placement groups per pool.
    pub pg_num: u32,
    /// The balance factor `c`.
    pub c: f64,
    /// How many keys the scenario has.
    pub key_count: usize,
    /// The scenario's seed (models that draw, such as Cassandra's tokens, draw from it).
    pub seed: u64,
    /// Ceph: the cluster's CRUSH hierarchy, when it is not the flat map.
    pub crush: Option<&'a CrushLayout>,
}

/// What an algorithm's scenario check sees.
#[derive(Clone, Copy, Debug)]
pub struct Check<'a> {
    /// The algorithm's id (a real system's name in its messages).
    pub system: &'static str,
    /// The settings.
    pub params: Params<'a>,
    /// Every server of the scenario (up or down): name and weight.
    pub servers: &'a [(&'a str, f64)],
}

/// What an algorithm's builder gets.
pub struct Build<'a> {
    /// The settings.
    pub params: Params<'a>,
    /// The live servers, in list order.
    pub live: Vec<LiveServer>,
    /// The servers that are down, in list order (Ceph keeps an OSD that is out in its
    /// bucket: it still draws, and its wins are drawn again).
    pub down: Vec<LiveServer>,
    /// The slot table, for algorithms that keep one.
    pub slots: Option<&'a SlotTable>,
    /// The bucket book, for algorithms that keep one.
    pub book: Option<&'a BucketBook>,
    /// A real cluster's own tokens, by place in the server list, for algorithms that take
    /// them (Cassandra's, from `nodetool ring`).
    pub tokens: Option<&'a TokenMap>,
}

impl Build<'_> {
    /// The name of live server `id` ("" for another id).
    pub fn name_of(&self, id: ServerId) -> &str {
        self.live
            .iter()
            .find(|s| s.id == id)
            .map_or("", |s| s.name.as_str())
    }

    /// The live servers' ids, in list order.
    pub fn ids(&self) -> Vec<ServerId> {
        self.live.iter().map(|s| s.id).collect()
    }
}

/// A check that every scenario passes.
pub fn no_check(_: &Check<'_>) -> Result<(), Problem> {
    Ok(())
}

/// The real systems' check: their weights are whole numbers.
pub fn whole_weights(c: &Check<'_>) -> Result<(), Problem> {
    match c.servers.iter().find(|(_, w)| w.fract() != 0.0) {
        Some((name, weight)) => Err(Problem::WeightNotWhole {
            system: c.system,
            name: crate::text::quote(name),
            weight: crate::text::Shortest(*weight).to_string(),
        }),
        None => Ok(()),
    }
}

/// A registered placement algorithm: a copyable handle on its [`Spec`]. Two handles are
/// equal when they name the same id. The list of all of them, and the constants for the
/// ones other code names, are the registry's ([`super::algorithms`]).
#[derive(Clone, Copy)]
pub struct Algorithm(&'static Spec);

impl Algorithm {
    /// The handle on `spec`.
    pub const fn of(spec: &'static Spec) -> Algorithm {
        Algorithm(spec)
    }

    /// Everything the registry says about it.
    pub fn spec(self) -> &'static Spec {
        self.0
    }

    /// The name used on the command line and in URLs.
    pub fn name(self) -> &'static str {
        self.0.id
    }

    /// True when the number of virtual nodes matters.
    pub fn uses_vnodes(self) -> bool {
        self.0.knobs.vnodes
    }

    /// True when its balance follows the vnode count alone — a ring of the scenario's own
    /// vnodes with nothing forwarded past it (the ring): what the vnode sweep measures.
    pub fn balance_follows_vnodes(self) -> bool {
        self.0.over_ring.is_some() && self.0.moves == Moves::Minimal
    }

    /// True when server weights change placement.
    pub fn uses_weights(self) -> bool {
        self.0.knobs.weights
    }

    /// True when the scenario's hash decides placement.
    pub fn uses_hash(self) -> bool {
        self.0.knobs.hash
    }

    /// True for the bucket algorithms that only grow and shrink at the end of the list.
    pub fn shrinks_only_at_end(self) -> bool {
        self.0.moves == Moves::GrowOnly
    }

    /// What a change of servers moves, as the algorithm promises it.
    pub fn moves(self) -> Moves {
        self.0.moves
    }

    /// True for the bucket algorithms that keep a bucket book.
    pub fn keeps_bucket_book(self) -> bool {
        self.0.memory == Memory::BucketBook
    }

    /// True when the algorithm is a ring of boundaries (so arcs can be diffed).
    pub fn is_ring_shaped(self) -> bool {
        self.0.arcs
    }

    /// True when a key's owner depends on the whole key set, not only on the servers
    /// (bounded loads: the capacity is `c` × keys / servers, and keys arrive in order).
    pub fn depends_on_key_set(self) -> bool {
        self.0.knobs.balance
    }

    /// How it is drawn.
    pub fn shape(self) -> Shape {
        self.0.shape
    }
}

impl PartialEq for Algorithm {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for Algorithm {}

impl Hash for Algorithm {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.id.hash(state);
    }
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.id)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.id)
    }
}

/// The text that a vnode's position is the hash of: a template with `{node}` and `{i}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelTemplate(String);

impl LabelTemplate {
    /// The longest template accepted.
    pub const MAX_LEN: usize = 100;

    /// Validates a template: it must contain `{node}`.
    pub fn parse(text: &str) -> Result<LabelTemplate, Problem> {
        if !text.contains("{node}") {
            return Err(Problem::LabelNeedsNode {
                given: crate::text::quote(text),
            });
        }
        if text.len() > Self::MAX_LEN {
            return Err(Problem::LabelTooLong { max: Self::MAX_LEN });
        }
        if let Some(hidden) = crate::text::first_hidden(text) {
            return Err(Problem::LabelHidden { hidden });
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
