//! An Envoy cluster, YAML or JSON (a bootstrap's `static_resources.clusters`, a `clusters:`
//! list, or one cluster) → the scenario it describes, for the command line's `--config` and
//! the Python package's `from_config`. The page does not read it: the YAML reader
//! (`yaml-rust2`) does not fit the page's budget, and the page says so when an Envoy cluster
//! is pasted.
//!
//! What Envoy does, and so what is read (`source/common/upstream/upstream_impl.cc`,
//! `thread_aware_lb_impl.cc`, `ring_hash_lb.cc`, `maglev_lb.cc`):
//! - `lb_policy: RING_HASH` → `envoy-ring`, `MAGLEV` → `envoy-maglev` (also the typed
//!   `load_balancing_policy` with `…ring_hash.v3.RingHash` / `…maglev.v3.Maglev`);
//! - a host hashes under its `envoy.lb` `hash_key` metadata, else its `hostname` when
//!   `use_hostname_for_hashing`, else `address:port_value`; its weight is
//!   `load_balancing_weight` (1 when absent);
//! - only priority 0 takes traffic while it is healthy: other priorities are left out and
//!   said so; hosts whose `health_status` is `UNHEALTHY`, `DRAINING` or `TIMEOUT` are down;
//! - what the lab does not model is refused with the reason, not approximated: another
//!   policy, a ring size other than Envoy's defaults, `MURMUR_HASH_2`, `hash_balance_factor`
//!   (bounded loads), locality-weighted balancing.

use yaml_rust2::{Yaml, YamlLoader};

use crate::engine::algorithms::envoy_ring::{MAX_RING_SIZE, MIN_RING_SIZE};
use crate::engine::import::Imported;
use crate::engine::note::Note;
use crate::engine::placement::Algorithm;
use crate::engine::scenario::ServerSpec;
use crate::text::quote;

/// The most a document may weigh once its aliases are expanded, in the units of
/// [`AliasCount`]: a real cluster of 10,000 hosts weighs a few megabytes; a YAML "billion
/// laughs" of one kilobyte would weigh terabytes, which the loader would try to build.
const MAX_EXPANDED: u64 = 64 << 20;

/// Weighs a YAML text as the loader would build it, every alias expanded to a copy of its
/// anchor (a node counts 64, a scalar its length more) — without building it.
#[derive(Default)]
struct AliasCount {
    total: u64,
    /// The weight of each anchor, by the parser's anchor id.
    anchors: Vec<u64>,
    /// Open sequences and mappings: (anchor id, total at their start).
    open: Vec<(usize, u64)>,
}

impl AliasCount {
    fn anchored(&mut self, id: usize, weight: u64) {
        if id > 0 {
            if self.anchors.len() <= id {
                self.anchors.resize(id + 1, 0);
            }
            self.anchors[id] = weight;
        }
    }
}

impl yaml_rust2::parser::MarkedEventReceiver for AliasCount {
    fn on_event(&mut self, event: yaml_rust2::Event, _: yaml_rust2::scanner::Marker) {
        use yaml_rust2::Event;
        match event {
            Event::Scalar(text, _, id, _) => {
                let weight = 64 + text.len() as u64;
                self.total = self.total.saturating_add(weight);
                self.anchored(id, weight);
            }
            Event::SequenceStart(id, _) | Event::MappingStart(id, _) => {
                self.open.push((id, self.total));
                self.total = self.total.saturating_add(64);
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((id, start)) = self.open.pop() {
                    let weight = self.total - start;
                    self.anchored(id, weight);
                }
            }
            Event::Alias(id) => {
                let weight = self.anchors.get(id).copied().unwrap_or(0);
                self.total = self.total.saturating_add(weight);
            }
            _ => {}
        }
    }
}

/// The scenario of the first consistent-hashing cluster in `text`.
pub fn read(text: &str) -> Result<Imported, String> {
    let text = crate::engine::import::without_bom(text);
    // Aliases are weighed before the loader copies them (a parse error is reported below,
    // by the loader, with its line and column).
    let mut weigh = AliasCount::default();
    let _ = yaml_rust2::parser::Parser::new_from_str(text).load(&mut weigh, true);
    if weigh.total > MAX_EXPANDED {
        return Err(format!(
            "envoy config: its aliases (*name) would expand it to more than {} MB; a cluster is at most {} MB written out (write the hosts out instead of repeating anchors)",
            weigh.total.min(u64::MAX >> 1) >> 20,
            MAX_EXPANDED >> 20
        ));
    }
    let docs = YamlLoader::load_from_str(text).map_err(|e| {
        format!(
            "envoy config line {}, column {}: {}",
            e.marker().line(),
            e.marker().col() + 1,
            e.info()
        )
    })?;
    let doc = docs.first().ok_or("envoy config: it is empty")?;
    let clusters: Vec<&Yaml> = match (
        doc["static_resources"]["clusters"].as_vec(),
        doc["clusters"].as_vec(),
    ) {
        (Some(list), _) | (None, Some(list)) => list.iter().collect(),
        (None, None) => vec![doc],
    };
    let mut left_out = Vec::new();
    let chosen = clusters.iter().position(|c| policy(c).is_some());
    let Some(at) = chosen else {
        return Err(
            "envoy config: no cluster has lb_policy RING_HASH or MAGLEV (only those are consistent hashing)"
                .to_owned(),
        );
    };
    if clusters.len() > 1 {
        left_out.push(Note::Said(format!(
            "{} other cluster(s): only {} is read",
            clusters.len() - 1,
            text_of(&clusters[at]["name"]).unwrap_or_else(|| "the first hashing one".to_owned())
        )));
    }
    cluster(clusters[at], left_out)
}

/// The policy of a cluster and its settings (`ring_hash_lb_config` / `maglev_lb_config`, or
/// the typed config of `load_balancing_policy`).
fn policy(cluster: &Yaml) -> Option<(Algorithm, &Yaml)> {
    let ring = Algorithm::from_name("envoy-ring")?;
    let maglev = Algorithm::from_name("envoy-maglev")?;
    match cluster["lb_policy"].as_str() {
        Some("RING_HASH") => return Some((ring, &cluster["ring_hash_lb_config"])),
        Some("MAGLEV") => return Some((maglev, &cluster["maglev_lb_config"])),
        Some(_) => return None,
        None => {}
    }
    let policies = cluster["load_balancing_policy"]["policies"].as_vec()?;
    policies.iter().find_map(|p| {
        let typed = &p["typed_extension_config"]["typed_config"];
        let kind = typed["@type"].as_str()?;
        if kind.ends_with("ring_hash.v3.RingHash") {
            Some((ring, typed))
        } else if kind.ends_with("maglev.v3.Maglev") {
            Some((maglev, typed))
        } else {
            None
        }
    })
}

/// A scalar as text (strings, numbers, booleans), None when absent.
fn text_of(value: &Yaml) -> Option<String> {
    match value {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A whole number, given as a number or (proto3 JSON's 64-bit style) a string: None when
/// the field is absent, an error naming the field when it is there but not a whole number
/// from 0 to 2³²−1 (a table size of −1 or "abc" is a mistake to say, not a default to use).
fn number(value: &Yaml, field: &str) -> Result<Option<u64>, String> {
    if value.is_badvalue() || value.is_null() {
        return Ok(None);
    }
    let text = text_of(value).unwrap_or_default();
    match text.trim().parse::<u32>() {
        Ok(n) => Ok(Some(u64::from(n))),
        Err(_) => Err(format!(
            "envoy config: {field} {} is not a whole number from 0 to 4294967295",
            quote(&text)
        )),
    }
}

fn cluster(cluster: &Yaml, mut left_out: Vec<Note>) -> Result<Imported, String> {
    let Some((algo, settings)) = policy(cluster) else {
        return Err("envoy config: the cluster is not RING_HASH or MAGLEV".to_owned());
    };
    let refuse = |why: &str| Err(format!("envoy config: {why}"));
    let min = number(&settings["minimum_ring_size"], "minimum_ring_size")?.unwrap_or(MIN_RING_SIZE);
    let max = number(&settings["maximum_ring_size"], "maximum_ring_size")?.unwrap_or(MAX_RING_SIZE);
    if min != MIN_RING_SIZE || max != MAX_RING_SIZE {
        return refuse(
            "a ring size other than Envoy's defaults (1,024 to 8,388,608) is not modelled",
        );
    }
    if text_of(&settings["hash_function"]).is_some_and(|f| f != "XX_HASH") {
        return refuse("only hash_function XX_HASH (the default) is modelled");
    }
    let hashing = match &settings["consistent_hashing_lb_config"] {
        Yaml::BadValue => &cluster["common_lb_config"]["consistent_hashing_lb_config"],
        own => own,
    };
    if !hashing["hash_balance_factor"].is_badvalue() {
        return refuse("hash_balance_factor (bounded loads) is not modelled");
    }
    if !cluster["common_lb_config"]["locality_weighted_lb_config"].is_badvalue()
        || !settings["locality_weighted_lb_config"].is_badvalue()
    {
        return refuse("locality-weighted balancing is not modelled");
    }
    let by_hostname = hashing["use_hostname_for_hashing"].as_bool() == Some(true);
    let table = number(&settings["table_size"], "table_size")?.map(|t| t as u32);
    let mut servers = Vec::new();
    let localities = cluster["load_assignment"]["endpoints"]
        .as_vec()
        .ok_or("envoy config: the cluster has no load_assignment.endpoints")?;
    let mut entry = 0;
    for locality in localities {
        let priority = number(&locality["priority"], "priority")?.unwrap_or(0);
        let hosts = locality["lb_endpoints"]
            .as_vec()
            .map_or(&[][..], Vec::as_slice);
        if priority != 0 {
            left_out.push(Note::Said(format!(
                "{} priority {priority} host(s) (they take traffic only when priority 0 fails)",
                hosts.len()
            )));
            continue;
        }
        for host in hosts {
            entry += 1;
            let (name, weight) = endpoint(host, by_hostname)
                .and_then(|(name, weight)| {
                    crate::engine::import::list_safe(&name)
                        .then_some((name, weight))
                        .ok_or(crate::problem::Expected::PlainName.name())
                })
                .map_err(|what| format!("envoy config, endpoint {entry}: expected {what}"))?;
            let down = matches!(
                host["health_status"].as_str(),
                Some("UNHEALTHY" | "DRAINING" | "TIMEOUT")
            );
            servers.push(ServerSpec {
                name,
                weight: weight as f64,
                up: !down,
            });
        }
    }
    if servers.is_empty() {
        return refuse("no priority-0 endpoint takes part in the hash");
    }
    Ok(Imported {
        algo,
        servers,
        left_out,
        table,
        slots: None,
        tokens: None,
        vnodes: None,
        crush: None,
        backups: Vec::new(),
    })
}

/// One `lb_endpoints` entry: the name it hashes under and its weight, or what is missing.
fn endpoint(host: &Yaml, by_hostname: bool) -> Result<(String, u64), &'static str> {
    let weight = match &host["load_balancing_weight"] {
        Yaml::BadValue => 1,
        w => number(w, "")
            .ok()
            .flatten()
            .filter(|&w| w >= 1)
            .ok_or("load_balancing_weight, a whole number from 1")?,
    };
    if let Some(key) = text_of(&host["metadata"]["filter_metadata"]["envoy.lb"]["hash_key"]) {
        return Ok((key, weight));
    }
    let endpoint = &host["endpoint"];
    if by_hostname {
        let name = text_of(&endpoint["hostname"])
            .ok_or("the endpoint's hostname (use_hostname_for_hashing is on)")?;
        return Ok((name, weight));
    }
    let socket = &endpoint["address"]["socket_address"];
    match (
        text_of(&socket["address"]),
        number(&socket["port_value"], "").ok().flatten(),
    ) {
        (Some(address), Some(port)) => Ok((format!("{address}:{port}"), weight)),
        _ => Err("endpoint.address.socket_address with address and port_value"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOTSTRAP: &str = r#"
static_resources:
  clusters:
  - name: web
    lb_policy: ROUND_ROBIN
    load_assignment: { cluster_name: web, endpoints: [] }
  - name: cache
    lb_policy: RING_HASH
    ring_hash_lb_config:
      minimum_ring_size: 1024
    load_assignment:
      cluster_name: cache
      endpoints:
      - lb_endpoints:
        - endpoint:
            address: { socket_address: { address: 10.0.0.1, port_value: 11211 } }
        - endpoint:
            address: { socket_address: { address: 10.0.0.2, port_value: 11211 } }
          load_balancing_weight: 2
        - endpoint:
            address: { socket_address: { address: 10.0.0.3, port_value: 11211 } }
          health_status: DRAINING
        - endpoint:
            address: { socket_address: { address: 10.0.0.4, port_value: 11211 } }
          metadata: { filter_metadata: { envoy.lb: { hash_key: cache-d } } }
      - priority: 1
        lb_endpoints:
        - endpoint:
            address: { socket_address: { address: 10.0.1.1, port_value: 11211 } }
"#;

    #[test]
    fn a_ring_hash_cluster_becomes_its_scenario() {
        let i = read(BOOTSTRAP).unwrap();
        assert_eq!(i.algo.name(), "envoy-ring");
        assert_eq!(
            i.nodes(),
            "10.0.0.1:11211,10.0.0.2:11211*2,10.0.0.3:11211,cache-d"
        );
        assert_eq!(i.down(), "10.0.0.3:11211");
        assert_eq!(i.left_out.len(), 2, "{:?}", i.left_out);
        assert!(i.left_out[0].to_string().contains("only cache is read"));
        assert!(i.left_out[1].to_string().contains("priority 1"));
    }

    #[test]
    fn a_maglev_cluster_in_json_with_hostnames_and_its_table_size() {
        let json = r#"{"name": "m", "lb_policy": "MAGLEV", "maglev_lb_config": {"table_size": "251"},
          "common_lb_config": {"consistent_hashing_lb_config": {"use_hostname_for_hashing": true}},
          "load_assignment": {"endpoints": [{"lb_endpoints": [
            {"endpoint": {"hostname": "a.example", "address": {"socket_address": {"address": "10.0.0.1", "port_value": 80}}}},
            {"endpoint": {"hostname": "b.example", "address": {"socket_address": {"address": "10.0.0.2", "port_value": 80}}}}
          ]}]}}"#;
        let i = read(json).unwrap();
        assert_eq!(i.algo.name(), "envoy-maglev");
        assert_eq!(i.nodes(), "a.example,b.example");
        assert_eq!(i.table, Some(251));
    }

    #[test]
    fn a_table_size_that_is_no_whole_number_is_refused_not_defaulted() {
        for bad in ["-1", "18446744073709551616", "\"abc\"", "4294967296", "2.5"] {
            let json = format!(
                r#"{{"name": "m", "lb_policy": "MAGLEV", "maglev_lb_config": {{"table_size": {bad}}},
                "load_assignment": {{"endpoints": [{{"lb_endpoints": [
                  {{"endpoint": {{"address": {{"socket_address": {{"address": "10.0.0.1", "port_value": 80}}}}}}}}]}}]}}}}"#
            );
            let e = read(&json).unwrap_err();
            assert!(
                e.contains("table_size")
                    && e.contains("is not a whole number from 0 to 4294967295"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn a_byte_order_mark_and_an_alias_bomb() {
        // An editor's byte-order mark is no part of the config.
        assert!(read(&format!("\u{FEFF}{BOOTSTRAP}")).is_ok());
        // Aliases that repeat an anchor a few times are fine; a billion times is refused.
        let mut bomb = String::from("a0: &a0 [lol]\n");
        for level in 1..8 {
            let refs = vec![format!("*a{}", level - 1); 10].join(",");
            bomb.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
        }
        bomb.push_str("lb_endpoints: *a7\n");
        let e = read(&bomb).unwrap_err();
        assert!(e.contains("would expand it to more than"), "{e}");
    }

    #[test]
    fn what_is_not_modelled_is_refused_with_the_reason() {
        let with = |from: &str, to: &str| read(&BOOTSTRAP.replace(from, to)).unwrap_err();
        assert!(with("minimum_ring_size: 1024", "minimum_ring_size: 2048").contains("ring size"));
        assert!(
            with("minimum_ring_size: 1024", "hash_function: MURMUR_HASH_2").contains("XX_HASH")
        );
        assert!(with("RING_HASH", "LEAST_REQUEST").contains("RING_HASH or MAGLEV"));
        assert_eq!(
            with("load_balancing_weight: 2", "load_balancing_weight: 0"),
            "envoy config, endpoint 2: expected load_balancing_weight, a whole number from 1"
        );
        assert!(with(
            "port_value: 11211 } }\n        - endpoint",
            "port: 1 } }\n        - endpoint"
        )
        .contains("endpoint 1: expected endpoint.address.socket_address"));
        let bad = read("clusters: [ {").unwrap_err();
        assert!(bad.starts_with("envoy config line 2, column 1: "), "{bad}");
    }
}
