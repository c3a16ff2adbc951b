//! A system's own config, read into a scenario — the one layer every consumer shares: the
//! command line's `--config`, the Python package's `Cluster.from_config`, and (through the
//! same [`crate::engine::import`] readers, for the formats that fit its budget) the page's
//! pasted configs. `cli/` keeps argument parsing and output; nothing here prints.
//!
//! Each reader turns text into the typed [`Imported`]; [`assemble`] applies it over the
//! scenario the other parameters describe, as the page applies a pasted one. The readers
//! that only native builds carry (YAML for Envoy, the CRUSH map's, Cassandra's notes) live
//! here; the page's own are in `engine::import`.

pub mod built;
pub mod cassandra;
pub use crate::engine::crushmap;
pub mod envoy;

use crate::engine::import::{ConfigFormat, Imported};
use crate::engine::scenario::Scenario;

/// The scenario of `pairs` (URL parameters other than `vnodes` and `table`, missing ones at
/// their defaults), `vnodes` and `table` when given, and a system's config read by
/// [`read_config_text`] applied over them — as the command line builds it from its flags
/// and `--config`, and as the Python package builds a `Cluster`.
///
/// A table size not given is Maglev's paper's (65,537); a pool's placement groups
/// (`pg_num`, among `pairs`) are Ceph's own parameter with Ceph's default, 32, whatever the
/// table. A `vnodes` given wins over the config's own count (`nodetool ring`'s).
pub fn assemble(
    pairs: &[(&str, &str)],
    vnodes: Option<&str>,
    table: Option<&str>,
    mut imported: Option<Imported>,
) -> Result<Scenario, String> {
    if let Some(imported) = &mut imported {
        if imported.table.is_some() && table.is_some() {
            return Err(
                "--table and the config's table_size both set Maglev's table; give one".to_owned(),
            );
        }
        if vnodes.is_some() {
            imported.vnodes = None;
        }
    }
    let default_table = crate::engine::algorithms::maglev::DEFAULT_TABLE.to_string();
    let mut all = pairs.to_vec();
    all.push(("vnodes", vnodes.unwrap_or("10")));
    all.push(("table", table.unwrap_or(&default_table)));
    let mut scenario = Scenario::from_pairs(all)?;
    if let Some(imported) = imported {
        scenario = imported
            .apply(scenario)
            .map_err(|e| format!("--config: {e}"))?;
    }
    Ok(scenario)
}

/// Why a cluster given as text could not be built: its config could not be read, or the
/// scenario it describes is not one (the bindings raise these as different errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// The config text: none of the readers takes it, or the one that does refuses it.
    Config(String),
    /// The parameters: a link's, or the config's applied over them.
    Scenario(String),
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecError::Config(m) | SpecError::Scenario(m) => f.write_str(m),
        }
    }
}

/// The scenario of `given` parameters (a cluster's: its keys are the caller's, so it holds
/// one) and a config read, through [`assemble`], with its errors sorted into
/// [`SpecError`]s.
pub fn assemble_cluster(
    given: &[(&str, String)],
    imported: Option<Imported>,
) -> Result<Scenario, SpecError> {
    let find = |name: &str| given.iter().find(|p| p.0 == name).map(|p| p.1.as_str());
    let mut pairs: Vec<(&str, &str)> = given
        .iter()
        .filter(|p| !matches!(p.0, "table" | "vnodes"))
        .map(|(k, v)| (*k, v.as_str()))
        .collect();
    pairs.push(("keys", "0..1"));
    assemble(&pairs, find("vnodes"), find("table"), imported).map_err(|m| {
        match m.strip_prefix("--config: ") {
            Some(config) => SpecError::Config(config.to_owned()),
            None => SpecError::Scenario(m),
        }
    })
}

/// Whether `text` is given as a page link (an address, or a query starting with `?`) rather
/// than a config.
pub fn looks_like_link(text: &str) -> bool {
    let text = text.trim();
    text.starts_with('?') || text.starts_with("http://") || text.starts_with("https://")
}

/// The parameters of a page link: after `?` in an address (`https://…/?algo=…`, nothing
/// after it for the page's default), or the query alone (`?algo=…`, `algo=…`); a `#…`
/// fragment is not the link's. Anything else — words, a `javascript:` address — is no
/// page link.
pub fn link_query(link: &str) -> Result<&str, SpecError> {
    let address = link.starts_with("http://") || link.starts_with("https://");
    let query = match link.split_once('?') {
        Some((before, query)) if address || before.is_empty() => query,
        None if address => "",
        None if !link.is_empty()
            && link.split('&').all(|p| {
                p.split_once('=').is_some_and(|(k, _)| {
                    !k.is_empty() && k.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                })
            }) =>
        {
            link
        }
        _ => {
            return Err(SpecError::Scenario(format!(
                "{} is not a page link: give the page's address with its parameters (https://…/?algo=…) or the parameters alone (?algo=…)",
                crate::text::quote(link)
            )))
        }
    };
    Ok(query.split_once('#').map_or(query, |(q, _)| q))
}

/// A link's cluster parameters (the page's own — tour, language, keys, … — left out); a
/// parameter the page does not know (a misspelt `algorithm=`) is refused, never read as
/// the default cluster.
pub fn link_cluster_params(link: &str) -> Result<Vec<(&'static str, String)>, SpecError> {
    use crate::engine::scenario::PARAMS;
    let mut given: Vec<(&'static str, String)> = Vec::new();
    for (name, value) in crate::host::query_pairs(link_query(link.trim())?) {
        if let Some(known) = PARAMS.iter().find(|p| **p == name && name != "keys") {
            given.push((known, value));
        } else if !name.is_empty()
            && !crate::link::PAGE_PARAMS.contains(&name.as_str())
            && name != "keys"
        {
            return Err(SpecError::Scenario(format!(
                "the link's parameter {} is not one the page knows; the cluster's are {}",
                crate::text::quote(&name),
                PARAMS.join(", ")
            )));
        }
    }
    Ok(given)
}

/// The scenario of a cluster given as text, as SQL and the Python package take one: a page
/// link ([`looks_like_link`]) or a system's config.
pub fn cluster_of_text(text: &str) -> Result<Scenario, SpecError> {
    if looks_like_link(text) {
        assemble_cluster(&link_cluster_params(text)?, None)
    } else {
        let imported = read_config_text(text).map_err(SpecError::Config)?;
        assemble_cluster(&[], Some(imported))
    }
}

/// What `--config` says of a text none of its readers recognises.
const NOT_RECOGNIZED: &str = "not a config hashring-lab reads: an nginx upstream block with `hash … consistent`, an HAProxy backend with `hash-type consistent`, a twemproxy pool, an Envoy cluster (RING_HASH or MAGLEV), Redis Cluster's CLUSTER NODES or CLUSTER SHARDS, Cassandra's nodetool ring, or a Ceph CRUSH map (crushtool -d)";

/// What a system's config text describes, read by the reader its format needs (format
/// detection in one place, [`ConfigFormat::of`]): nginx, HAProxy, twemproxy, Envoy, Redis
/// Cluster's `CLUSTER NODES`/`SHARDS`, Cassandra's `nodetool ring` or a Ceph CRUSH map.
pub fn read_config_text(text: &str) -> Result<Imported, String> {
    read_config_text_with_rule(text, None)
}

/// [`read_config_text`] with a Ceph pool's CRUSH rule chosen (`rule`: its name or id, for a
/// map with several; refused for any other config).
pub fn read_config_text_with_rule(text: &str, rule: Option<&str>) -> Result<Imported, String> {
    use crate::engine::import::{self, ClusterLayout};
    let text = import::without_bom(text);
    if rule.is_some() && ConfigFormat::of(text) != Some(ConfigFormat::CrushMap) {
        return Err(
            "a rule is chosen only from a Ceph CRUSH map, and the config is not one".into(),
        );
    }
    // The kinds the page sends here are read by the command line's own readers.
    match ConfigFormat::of(text) {
        // The page's words name the formats the page reads; here every reader is on hand.
        None => Err(NOT_RECOGNIZED.to_owned()),
        Some(ConfigFormat::Envoy) => envoy::read(text),
        Some(ConfigFormat::CrushMap) => crushmap::read_with_rule(text, rule)
            .and_then(|m| import::ceph_map(m).map_err(|e| e.to_string())),
        Some(ConfigFormat::Cluster(ClusterLayout::Shards)) => {
            crate::engine::redis_cluster::read_shards(text)
                .and_then(import::redis_cluster)
                .map_err(|e| e.to_string())
        }
        Some(ConfigFormat::Cluster(ClusterLayout::Ring)) => {
            crate::engine::cassandra_ring::read(text)
                .map(|cluster| Imported {
                    left_out: cassandra::notes(&cluster),
                    ..import::cassandra_ring(cluster)
                })
                .map_err(|e| e.to_string())
        }
        Some(format) => import::read_as(text, format).map_err(|e| e.to_string()),
    }
}
