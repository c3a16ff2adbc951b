//! What a change is: adding, removing, failing, recovering or re-weighting a server,
//! and switching the vnodes, the keys, the algorithm or the hash — as values, and in the
//! command line's step syntax (`add:E`, `remove:A`, `keys:0..1000`).

use super::algorithms::Algorithm;
use super::hash::HashFn;
use super::keys::KeySpec;
use super::ring::ServerId;
use super::scenario::{parse_algorithm, parse_hash, parse_vnodes};
use crate::problem::Problem;
use crate::text::{quote, Shortest};

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
    /// Ceph: add a host (a CRUSH bucket of type `host`) under bucket `parent`, holding new
    /// OSDs — as an operator racks a server of disks.
    AddHost {
        /// The host's name.
        host: String,
        /// The bucket it goes in (the root, or a rack).
        parent: String,
        /// Its OSDs: name (`osd.N`), CRUSH weight, device class.
        osds: Vec<(String, f64, Option<String>)>,
    },
    /// Ceph: the pool's placement groups (`ceph osd pool set POOL pg_num N`, `pgp_num`
    /// with it): raising it splits groups, lowering it merges them.
    SetPgNum(u32),
    /// Ceph: take a host out of the map with its OSDs — as an operator decommissions a
    /// server of disks (`ceph osd purge` of each, `ceph osd crush remove` of the host).
    RemoveHost(String),
}

impl Change {
    /// Parses the command line's step syntax: `add:NAME[*W]`, `remove:NAME`, `fail:NAME`,
    /// `recover:NAME`, `keys:SPEC`, `vnodes:N`, `weight:NAME*W`, `algo:NAME`, `hash:NAME`,
    /// and Ceph's `add-host:HOST@PARENT=osd.N[*W][:CLASS]+…`, `remove-host:HOST` and
    /// `pg_num:N`.
    pub fn parse(text: &str) -> Result<Change, Problem> {
        let (verb, arg) = text
            .split_once(':')
            .ok_or_else(|| Problem::StepSyntax { given: quote(text) })?;
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
                    .ok_or_else(|| Problem::WeightStepSyntax { given: quote(text) })?;
                Change::SetWeight(name.into(), super::scenario::parse_weight(w)?)
            }
            "vnodes" => Change::SetVnodes(parse_vnodes(arg)?),
            "keys" => Change::SetKeys(KeySpec::parse(arg)?),
            "algo" => Change::SetAlgorithm(parse_algorithm(arg)?),
            "hash" => Change::SetHash(parse_hash(arg)?),
            "add-host" => {
                parse_add_host(arg).ok_or_else(|| Problem::StepSyntax { given: quote(text) })??
            }
            "remove-host" => Change::RemoveHost(arg.into()),
            "pg_num" => Change::SetPgNum(super::scenario::parse_pg_num(arg)?),
            _ => {
                return Err(Problem::UnknownStep {
                    verb: quote(verb),
                    given: quote(text),
                })
            }
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
            Change::Add { name, weight } => format!("add:{name}*{}", Shortest(*weight)),
            Change::Remove(n) => format!("remove:{n}"),
            Change::Fail(n) => format!("fail:{n}"),
            Change::Recover(n) => format!("recover:{n}"),
            Change::SetWeight(n, w) => format!("weight:{n}*{}", Shortest(*w)),
            Change::SetVnodes(v) => format!("vnodes:{v}"),
            Change::SetKeys(k) => format!("keys:{k}"),
            Change::SetAlgorithm(a) => format!("algo:{a}"),
            Change::SetHash(h) => format!("hash:{}", h.name()),
            Change::AddHost { host, parent, osds } => {
                let osds: Vec<String> = osds
                    .iter()
                    .map(|(name, weight, class)| {
                        let mut osd = name.clone();
                        if *weight != 1.0 {
                            osd.push_str(&format!("*{}", Shortest(*weight)));
                        }
                        if let Some(class) = class {
                            osd.push_str(&format!(":{class}"));
                        }
                        osd
                    })
                    .collect();
                format!("add-host:{host}@{parent}={}", osds.join("+"))
            }
            Change::RemoveHost(host) => format!("remove-host:{host}"),
            Change::SetPgNum(n) => format!("pg_num:{n}"),
        }
    }
}

/// `add-host:HOST@PARENT=OSD[*W][:CLASS]+…` (None: not that shape).
fn parse_add_host(arg: &str) -> Option<Result<Change, Problem>> {
    let (host, rest) = arg.split_once('@')?;
    let (parent, list) = rest.split_once('=')?;
    if host.is_empty() || parent.is_empty() || list.is_empty() {
        return None;
    }
    let mut osds = Vec::new();
    for item in list.split('+') {
        let (item, class) = match item.split_once(':') {
            Some((item, class)) if !class.is_empty() => (item, Some(class.to_owned())),
            Some(_) => return None,
            None => (item, None),
        };
        let (name, weight) = match item.rsplit_once('*') {
            Some((name, w)) => match super::scenario::parse_weight(w) {
                Ok(w) => (name, w),
                Err(e) => return Some(Err(e)),
            },
            None => (item, 1.0),
        };
        osds.push((name.to_owned(), weight, class));
    }
    Some(Ok(Change::AddHost {
        host: host.to_owned(),
        parent: parent.to_owned(),
        osds,
    }))
}
