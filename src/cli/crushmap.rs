//! A decompiled CRUSH map (`crushtool -d`, `ceph osd getcrushmap | crushtool -d -`) → the
//! Ceph cluster it describes, for `--config`. Only the command line reads it (the page says
//! so when one is pasted: its reader does not fit the page's budget).
//!
//! What the lab models is Ceph's flat case, and so what is read: the rule's `step take
//! ROOT` bucket must hold the OSDs themselves (`item osd.N weight W`), be a `straw2` bucket
//! with hash 0 (rjenkins1), and the rule must choose OSDs (`choose` or `chooseleaf firstn 0
//! type osd`, then `emit`); the tunables that decide a flat choice must be Ceph's defaults
//! (`choose_total_tries 50`, no local retries). The OSDs become the servers in bucket order,
//! with their CRUSH weights; an item of weight 0 never wins and is left out, said so. A map
//! with hosts between root and OSDs, another bucket algorithm or other tunables is refused
//! with the reason — not approximated. A CRUSH map holds no pool: `pg_num` comes from
//! `--pg-num`, and an OSD marked out is a step (`--step fail:osd.N`).

use std::collections::HashMap;

use crate::engine::algorithms::ceph;
use crate::engine::import::{self, Imported};
use crate::engine::note::Note;
use crate::engine::placement::Algorithm;
use crate::engine::scenario::ServerSpec;
use crate::text::quote;

/// One bucket: its type, algorithm, hash and items `(name, weight)`.
#[derive(Default)]
struct Bucket {
    kind: String,
    alg: String,
    hash: String,
    items: Vec<(String, f64)>,
}

/// One rule: its name and steps (each step's words after `step`, one space apart).
struct Rule {
    name: String,
    steps: Vec<String>,
}

/// The map's parts the flat case reads.
#[derive(Default)]
struct Map {
    tunables: HashMap<String, String>,
    buckets: Vec<(String, Bucket)>,
    rules: Vec<Rule>,
}

/// Reads the map's tunables, buckets and rules (line by line, `#` comments dropped).
fn parse(text: &str) -> Result<Map, String> {
    let mut map = Map::default();
    // The open block: a bucket (its index) or a rule.
    enum Open {
        Bucket(usize),
        Rule,
    }
    let mut open: Option<Open> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = || format!("line {}", n + 1);
        match (&open, words.as_slice()) {
            (_, []) => {}
            (Some(_), ["}"]) => open = None,
            (None, ["tunable", name, value]) => {
                map.tunables.insert((*name).into(), (*value).into());
            }
            (None, ["device", ..] | ["type", ..] | ["choose_args", ..]) => {}
            (None, ["rule", name, "{"]) => {
                map.rules.push(Rule {
                    name: (*name).into(),
                    steps: Vec::new(),
                });
                open = Some(Open::Rule);
            }
            (None, [kind, name, "{"]) => {
                map.buckets.push((
                    (*name).into(),
                    Bucket {
                        kind: (*kind).into(),
                        ..Bucket::default()
                    },
                ));
                open = Some(Open::Bucket(map.buckets.len() - 1));
            }
            (Some(Open::Bucket(i)), words) => {
                let bucket = &mut map.buckets[*i].1;
                match words {
                    ["alg", alg] => bucket.alg = (*alg).into(),
                    ["hash", hash] => bucket.hash = (*hash).into(),
                    ["item", name, "weight", weight, ..] => {
                        let weight = weight
                            .parse::<f64>()
                            .ok()
                            .filter(|w| w.is_finite() && *w >= 0.0)
                            .ok_or_else(|| {
                                format!("{}: weight {} is not a number", at(), quote(weight))
                            })?;
                        bucket.items.push(((*name).into(), weight));
                    }
                    ["id", ..] => {}
                    _ => return Err(format!("{}: {} is not a bucket line", at(), quote(line))),
                }
            }
            (Some(Open::Rule), ["step", step @ ..]) => {
                if let Some(rule) = map.rules.last_mut() {
                    rule.steps.push(step.join(" "));
                }
            }
            (Some(Open::Rule), _) => {}
            (None, _) => {
                return Err(format!(
                    "{}: expected a tunable, device, type, bucket or rule, got {}",
                    at(),
                    quote(line)
                ))
            }
        }
    }
    if open.is_some() {
        return Err("a bucket or rule is not closed with }".into());
    }
    Ok(map)
}

/// The tunables that decide a flat choice, and the only values the lab models (Ceph's
/// defaults since jewel).
const TUNABLES: [(&str, &str); 3] = [
    ("choose_local_tries", "0"),
    ("choose_local_fallback_tries", "0"),
    ("choose_total_tries", "50"),
];

/// The Ceph cluster of a decompiled CRUSH map: its first rule that chooses OSDs from one
/// bucket, that bucket's OSDs as servers.
pub fn read(text: &str) -> Result<Imported, String> {
    let map = parse(text)?;
    for (name, value) in TUNABLES {
        if let Some(given) = map.tunables.get(name).filter(|v| *v != value) {
            return Err(format!(
                "tunable {name} {given}: only Ceph's default {value} is modelled"
            ));
        }
    }
    let rule = map.rules.first().ok_or("the map has no rule")?;
    let steps = &rule.steps;
    let root = match steps.as_slice() {
        [take, choose, emit]
            if take.starts_with("take ")
                && (choose == "choose firstn 0 type osd" || choose == "chooseleaf firstn 0 type osd")
                && emit == "emit" =>
        {
            take["take ".len()..].split(' ').next().unwrap_or("")
        }
        _ => {
            return Err(format!(
                "rule {}: only `step take ROOT`, `step choose firstn 0 type osd`, `step emit` (a flat map) is modelled; it has {}",
                rule.name,
                quote(&steps.join("; "))
            ))
        }
    };
    let (_, bucket) = map
        .buckets
        .iter()
        .find(|(name, _)| name == root)
        .ok_or_else(|| {
            format!(
                "rule {} takes {}, which is no bucket",
                rule.name,
                quote(root)
            )
        })?;
    if bucket.alg != "straw2" || bucket.hash != "0" {
        return Err(format!(
            "{} {}: only alg straw2 with hash 0 (rjenkins1) is modelled; it has alg {} hash {}",
            bucket.kind, root, bucket.alg, bucket.hash
        ));
    }
    let mut servers = Vec::new();
    let mut left_out = Vec::new();
    for (name, weight) in &bucket.items {
        if !name.starts_with("osd.") || ceph::osd_id(name) > u32::from(u16::MAX) {
            return Err(format!(
                "{} {root} holds {}: only a flat map, its OSDs in the rule's root, is modelled (hosts and racks between are not)",
                bucket.kind,
                quote(name)
            ));
        }
        if *weight == 0.0 {
            left_out.push(Note::Said(format!(
                "{name}, of CRUSH weight 0 (it never wins a draw)"
            )));
            continue;
        }
        servers.push(ServerSpec {
            name: name.clone(),
            weight: *weight,
            up: true,
        });
    }
    import::finish(Algorithm::from_name("ceph"), "ceph", servers, left_out)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Scenario;
    use crate::engine::sim::Simulation;

    /// The map `crushtool -d` wrote for one of the recorded states (osd.3 re-weighted,
    /// tests/reference/ceph-crushmap.txt) reads to that state's cluster, and places the
    /// recorded objects where `osdmaptool` did.
    #[test]
    fn a_decompiled_map_is_the_cluster_osdmaptool_placed() {
        let map = include_str!("../../tests/reference/ceph-crushmap.txt");
        let imported = read(map).unwrap();
        let vectors = include_str!("../../tests/reference/ceph.txt");
        let state = vectors
            .split("scenario ")
            .find(|s| s.starts_with("osd.3-reweighted "))
            .unwrap();
        let mut lines = state.lines();
        let header = lines.next().unwrap();
        let nodes = header
            .split(' ')
            .find_map(|w| w.strip_prefix("nodes="))
            .unwrap();
        let recorded = Scenario::from_pairs([("nodes", nodes)]).unwrap().nodes;
        assert_eq!(imported.servers, recorded);
        let base = Scenario::from_pairs([("pg_num", "12"), ("keys", "0..1")]).unwrap();
        let sim = Simulation::new(&imported.apply(base).unwrap()).unwrap();
        let mut checked = 0;
        for line in lines {
            let w: Vec<&str> = line.split(' ').collect();
            let (_, owner) = sim.lookup(w[0]).unwrap();
            assert_eq!(sim.server(owner).unwrap().name, w[2], "{line}");
            checked += 1;
        }
        assert_eq!(checked, 2000);
    }

    #[test]
    fn what_is_not_modelled_is_refused_with_the_reason() {
        let map = include_str!("../../tests/reference/ceph-crushmap.txt");
        let cases = [
            ("alg straw2", "alg straw", "only alg straw2"),
            (
                "choose firstn 0 type osd",
                "chooseleaf firstn 0 type host",
                "a flat map",
            ),
            (
                "tunable choose_total_tries 50",
                "tunable choose_total_tries 19",
                "choose_total_tries 19",
            ),
            (
                "item osd.0 weight 1.000",
                "item host-a weight 1.000",
                "hosts and racks",
            ),
        ];
        for (from, to, says) in cases {
            assert!(map.contains(from), "{from}");
            let err = read(&map.replacen(from, to, 1)).unwrap_err();
            assert!(err.contains(says), "{to}: {err}");
        }
        assert!(read("rule r {\n").unwrap_err().contains("not closed"));
    }
}
