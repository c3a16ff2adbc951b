//! What a placement algorithm promises: [`Placement`] answers "which server owns this
//! key?" for one fixed set of live servers, and explains its answer ([`Explanation`], whose
//! [`How`] carries each algorithm's own steps). Algorithms implement it; the builder in
//! [`super::placement`] picks one for a scenario. This module sits below both, so no
//! algorithm depends on the list of algorithms.

use std::any::Any;
use std::rc::Rc;

use super::ring::{Ring, ServerId, VNode, NO_OWNER};

/// A live server as the placements see it.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveServer {
    /// Stable id.
    pub id: ServerId,
    /// Name (hashed by rendezvous and CARP, and by the ring's vnode labels).
    pub name: String,
    /// Relative weight.
    pub weight: f64,
    /// Its place in the whole server list, down servers counted (HAProxy numbers its
    /// servers by declaration order).
    pub slot: u32,
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

    /// The points a lookup compares, when they are not [`Placement::ring`]'s (HAProxy's
    /// drawn ring adds midpoints, ingress-nginx's shifts each point): what the loupe
    /// magnifies.
    fn compared_points(&self) -> Option<&Ring> {
        None
    }

    /// The owner of a key whose value (its [`crate::engine::keys::KeyValue`], the registry's `key_value`) is
    /// `value`, at `position`: the same as [`Placement::owner`] of its name. Only the
    /// placements of algorithms with a key value answer it.
    fn owner_of_value(&self, _value: u64, _position: u32) -> ServerId {
        NO_OWNER
    }

    /// False when [`Placement::owner`] reads only the position, so callers may skip
    /// building the key's name.
    fn needs_key_name(&self) -> bool {
        true
    }

    /// True when [`Placement::ring`] draws the owners only up to a key's 32-bit position (a
    /// 64-bit ring at its top 32 bits): a key at the very position of a drawn point may fall
    /// on either side of it and is looked up by name; everywhere else the drawn ring's
    /// first-point-clockwise owner is exact.
    fn ring_ties_need_names(&self) -> bool {
        false
    }

    /// Bytes of the lookup structure (what a server process would hold per cluster view).
    fn memory_bytes(&self) -> usize;

    /// Ceph: each placement group's acting set, primary first (the pool's replicas); None
    /// for an algorithm that places one copy.
    fn acting_sets(&self) -> Option<Vec<Vec<ServerId>>> {
        None
    }

    /// Ceph over a hierarchy: the acting sets the placement already holds, flat, and the
    /// copies a group (`NO_OWNER` pads a set short of them) — what a page compares after
    /// a change, where [`Placement::acting_sets`] would place every group again.
    fn held_acting_sets(&self) -> Option<(&[ServerId], usize)> {
        None
    }

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

    /// The algorithm's own state beyond its buckets, for drawing it: the ranges it draws
    /// keys in, Anchor's removal stack, Memento's replacements.
    fn structure(&self) -> Structure {
        Structure::None
    }

    /// Bounded loads, whose owners depend on the keys that arrived before: the simulation
    /// then places the keys one after another, through the concrete type it downcasts this
    /// to ([`super::algorithms::bounded::Bounded`]) — named there, not here, so the contract depends on
    /// no algorithm.
    fn arrival_order(&self) -> Option<&dyn Any> {
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
    /// HAProxy: of the first point at or after the key and the one before it, the nearer
    /// (none when no server is up).
    NearestPoint {
        /// The point chosen.
        point: Option<VNode>,
    },
    /// lua-resty-balancer (ingress-nginx): the largest point at or below the key, the first
    /// point for a key below them all (none when no server is up).
    AtOrBelow {
        /// The point chosen.
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
        /// True when the lookup is told hop by hop along `path` (jump's loop); else it is
        /// told by the bucket the path ends at.
        hops: bool,
        /// The live servers in list order (bucket `i` is `live[i]`).
        live: Vec<ServerId>,
    },
    /// Multi-probe: each probe with the server point it reaches; the nearest wins.
    Probes {
        /// The probes.
        probes: Vec<Probe>,
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
    /// Ceph: the object's name hash, its placement group (`ceph_stable_mod` onto `pg_num`),
    /// and CRUSH's straw2 draws for the group: every OSD's draw in the last try (the
    /// highest won), after the OSDs that won earlier tries but are out.
    PlacementGroup {
        /// `ceph_str_hash_rjenkins` of the name.
        hash: u32,
        /// The placement group.
        pg: u32,
        /// The pool's group count.
        pg_num: u32,
        /// The out OSDs that won a try, in order (each try after them draws with `r + 1`).
        rejected: Vec<ServerId>,
        /// The other OSDs of the group's acting set (pool size 3), in order.
        replicas: Vec<ServerId>,
        /// Each OSD's straw2 draw in the try that placed the group, in bucket order (the
        /// flat map's; empty over a hierarchy, whose draws are each level's).
        draws: Vec<(ServerId, Score)>,
        /// Over a hierarchy: the kind of failure domain the rule spreads copies over
        /// (`host`, `rack`…) and each copy's, in acting-set order; empty over the flat map.
        domains: Option<(String, Vec<String>)>,
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

/// What a bucket algorithm keeps besides who holds each bucket, read from its own fields
/// ([`Placement::structure`]) so that a picture of it shows the algorithm's real state.
#[derive(Clone, Debug, PartialEq)]
pub enum Structure {
    /// Nothing more (jump: the bucket count is all there is).
    None,
    /// The ranges of bucket numbers a key is drawn in, `start..end`: JumpBack's and
    /// Flip's power-of-two ranges, Power's and Binomial's two (the lower half, and the
    /// range up to the bucket count).
    Ranges(Vec<(u32, u32)>),
    /// Anchor's removal stack, bottom first (the last removed comes back first); the
    /// never-used reserve is removed in descending order when the anchor is made.
    Stack(Vec<u32>),
    /// Memento's replacements in removal order: (removed bucket, the bucket that replaced
    /// it — the last working one when it left).
    Replacements(Vec<(u32, u32)>),
}

/// Where one key went under bounded loads.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundedWalk {
    /// The first point clockwise from the key.
    pub first: Option<VNode>,
    /// The full servers passed, in order, each once.
    pub skipped: Vec<ServerId>,
    /// The point whose server had room.
    pub point: Option<VNode>,
}

/// One probe of a lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The probe's ring position.
    pub position: u32,
    /// The server point it reaches clockwise.
    pub point: VNode,
    /// The clockwise distance from the probe to that point.
    pub distance: u32,
}

/// Which end of the scores wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Best {
    /// The highest score (rendezvous).
    Highest,
    /// The lowest score (seed 004's CARP).
    Lowest,
}

/// One server's score for a key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// The hash of `server + key` (unweighted rendezvous).
    Hash(u32),
    /// Weighted rendezvous: the hash as a fraction `u` of 2^32, scored `−weight / ln u`.
    Weighted {
        /// The hash of `server + key`.
        hash: u32,
        /// The server's weight.
        weight: f64,
        /// `−weight / ln(hash / 2^32)`.
        score: f64,
    },
    /// CARP: the MD5 digest of `server + key`, compared as 16 bytes.
    Digest([u8; 16]),
    /// Ceph's straw2: `2⁴⁴·log2(u / 2¹⁶)` over the 16.16 CRUSH weight (the highest wins).
    Straw2(i64),
}

/// A winning score as one number whose order is the scores' order, the larger winning: what
/// a simulation keeps per key (8 bytes) for the per-key scorers. Equal ranks may hide
/// different scores (CARP keeps 8 of its digest's 16 bytes); [`Ranked::challenges`] then
/// scores both servers in full.
pub type Rank = u64;

/// What a [`Rank`] measures: ranks compare only on one scale (rendezvous scores weighted
/// servers on another scale than equal ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// A 32-bit hash.
    Hash,
    /// A weighted score `−w / ln u`.
    Weighted,
    /// A digest's first 8 bytes.
    Digest,
}

/// A per-key scorer that reports each winning score's [`Rank`] with the owner, for a batch
/// of keys at a time.
pub trait Ranked {
    /// The scale its ranks are on.
    fn scale(&self) -> Scale;

    /// Appends to `out` the owner of each of `keys` and its score's rank.
    fn owners_ranked(&self, keys: &[&str], out: &mut Vec<(ServerId, Rank)>);

    /// Appends to `out` the owner of each of `keys` after `challenger` joined, given the
    /// holder that won each before and its rank (`held`): only the challenger scores the
    /// keys (the holder too, on equal ranks).
    fn challenges(
        &self,
        keys: &[&str],
        held: &[(ServerId, Rank)],
        challenger: ServerId,
        out: &mut Vec<(ServerId, Rank)>,
    );
}

/// A lookup table filled a few cells at a time (Maglev's turns, Envoy's weighted rounds):
/// the page fills a table of a million cells in steps, never all at once.
pub trait TableFill {
    /// Lets the servers claim up to `cells` more cells.
    fn claim(&mut self, cells: usize);

    /// (cells claimed, cells in all); the table is full when they are equal (or no server
    /// takes part).
    fn progress(&self) -> (usize, usize);

    /// What claiming one cell costs, in the work's units of about 10 ns (a Maglev cell a few
    /// probes of a permutation, a Ceph placement group a straw2 draw per OSD): the page
    /// steps a table whose whole fill would cost more than a step allows.
    fn cell_cost(&self) -> usize;

    /// True when every cell has its server (at once for no servers: the table stays empty).
    fn is_full(&self) -> bool;

    /// The placement over the table, filled or not; the fill is left empty.
    fn finish(&mut self) -> Rc<dyn Placement>;

    /// A copy, half-filled as it is (a simulation's work is cloned with its state).
    fn boxed(&self) -> Box<dyn TableFill>;
}

impl Clone for Box<dyn TableFill> {
    fn clone(&self) -> Self {
        self.boxed()
    }
}
