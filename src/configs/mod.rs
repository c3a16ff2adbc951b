//! A system's own config, read into a scenario — the one layer every consumer shares: the
//! command line's `--config`, the Python package's `Cluster.from_config`, and (through the
//! same [`crate::engine::import`] readers, for the formats that fit its budget) the page's
//! pasted configs. `cli/` keeps argument parsing and output; nothing here prints.
//!
//! Each reader turns text into the typed [`Imported`]; [`assemble`] applies it over the
//! scenario the other parameters describe, as the page applies a pasted one. The readers
//! that only native builds carry (YAML for Envoy, the CRUSH map's, Cassandra's notes) live
//! here; the page's own are in `engine::import`.

pub mod cassandra;
pub mod crushmap;
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

/// What `--config` says of a text none of its readers recognises.
const NOT_RECOGNIZED: &str = "not a config hashring-lab reads: an nginx upstream block with `hash … consistent`, an HAProxy backend with `hash-type consistent`, a twemproxy pool, an Envoy cluster (RING_HASH or MAGLEV), Redis Cluster's CLUSTER NODES or CLUSTER SHARDS, Cassandra's nodetool ring, or a Ceph CRUSH map (crushtool -d)";

/// What a system's config text describes, read by the reader its format needs (format
/// detection in one place, [`ConfigFormat::of`]): nginx, HAProxy, twemproxy, Envoy, Redis
/// Cluster's `CLUSTER NODES`/`SHARDS`, Cassandra's `nodetool ring` or a Ceph CRUSH map.
pub fn read_config_text(text: &str) -> Result<Imported, String> {
    use crate::engine::import::{self, ClusterLayout};
    let text = import::without_bom(text);
    // The kinds the page sends here are read by the command line's own readers.
    match ConfigFormat::of(text) {
        // The page's words name the formats the page reads; here every reader is on hand.
        None => Err(NOT_RECOGNIZED.to_owned()),
        Some(ConfigFormat::Envoy) => envoy::read(text),
        Some(ConfigFormat::CrushMap) => crushmap::read(text),
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
