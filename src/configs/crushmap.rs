//! A decompiled CRUSH map (`crushtool -d`, `ceph osd getcrushmap | crushtool -d -`) → the
//! Ceph cluster it describes, for the command line's `--config` and the Python package's
//! `from_config`. The page does not read it (it says so when one is pasted: this reader
//! does not fit the page's budget).
//!
//! What the lab models is Ceph's flat case, and so what is read: the rule's `step take
//! ROOT` bucket must hold the OSDs themselves (`item osd.N weight W`), be a `straw2` bucket
//! with hash 0 (rjenkins1), and the rule must choose OSDs (`choose` or `chooseleaf firstn 0
//! type osd`, then `emit`); the tunables that decide a flat choice must be Ceph's defaults
//! (`choose_total_tries 50`, no local retries). The OSDs become the servers in bucket order,
//! with their CRUSH weights; an item of weight 0 never wins and is left out, said so. A map
//! with hosts between root and OSDs, another bucket algorithm or other tunables is refused
//! with the reason — not approximated. A CRUSH map holds no pool: `pg_num` comes from
//! `--pg-num`, and an OSD marked out (the OSD map's, not CRUSH's) is `--down osd.N`, applied
//! after the map, or a step (`--step fail:osd.N`).

use std::collections::HashMap;

use crate::engine::algorithms::ceph;
use crate::engine::import::{self, Imported};
use crate::engine::note::Note;
use crate::engine::placement::Algorithm;
use crate::engine::scenario::{ServerSpec, MAX_SERVERS};
use crate::text::quote;

/// One bucket: its type, algorithm, hash and items `(name, weight as written, line)`.
#[derive(Default)]
struct Bucket {
    kind: String,
    alg: String,
    hash: String,
    items: Vec<(String, String, usize)>,
}

/// The largest item weight `crushtool -c` takes ("device weight limited to 100").
const MAX_WEIGHT: f64 = 100.0;
/// The largest OSD id the lab models.
const MAX_OSD_ID: u32 = u16::MAX as u32;

/// One rule: its name and steps (each step's words after `step`, one space apart).
struct Rule {
    name: String,
    steps: Vec<String>,
}

/// The map's parts the flat case reads.
#[derive(Default)]
struct Map {
    tunables: HashMap<String, String>,
    /// `device ID NAME` lines: each device's id by name.
    devices: HashMap<String, u32>,
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
    // Which device holds each id, to refuse an id given twice.
    let mut ids: HashMap<u32, String> = HashMap::new();
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
            (None, ["device", id, name, rest @ ..]) if rest.is_empty() || rest[0] == "class" => {
                // crushtool refuses a negative id, and a name given twice.
                let id = id
                    .parse::<u32>()
                    .ok()
                    .filter(|id| *id < 1 << 31)
                    .ok_or_else(|| {
                        format!(
                            "{}: device id {} is not a whole number from 0 (crushtool -c refuses it)",
                            at(),
                            quote(id)
                        )
                    })?;
                if let Some(other) = ids.insert(id, (*name).to_owned()) {
                    return Err(format!(
                        "{}: device {id} is given twice ({} and {})",
                        at(),
                        quote(&other),
                        quote(name)
                    ));
                }
                if map.devices.insert((*name).to_owned(), id).is_some() {
                    return Err(format!("{}: device {} is defined twice", at(), quote(name)));
                }
            }
            (None, ["device", ..]) => {
                return Err(format!(
                    "{}: expected `device ID NAME [class CLASS]`, got {}",
                    at(),
                    quote(line)
                ))
            }
            (None, ["type", ..] | ["choose_args", ..]) => {}
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
                        bucket.items.push(((*name).into(), (*weight).into(), n + 1));
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
    for item in &bucket.items {
        match osd_of(&map, bucket, root, item)? {
            Ok(server) => servers.push(server),
            Err(note) => left_out.push(note),
        }
    }
    if servers.len() > MAX_SERVERS {
        return Err(format!(
            "{} {root} holds {} OSDs; the lab places at most {MAX_SERVERS} servers",
            bucket.kind,
            servers.len()
        ));
    }
    import::finish(Algorithm::from_name("ceph"), "ceph", servers, left_out)
        .map_err(|e| e.to_string())
}

/// One item of the rule's root bucket: the OSD it is (its device line's id, its weight read
/// as `crushtool -c` reads it), or the note that leaves it out (CRUSH weight 0).
fn osd_of(
    map: &Map,
    bucket: &Bucket,
    root: &str,
    (name, written, line): &(String, String, usize),
) -> Result<Result<ServerSpec, Note>, String> {
    let at = format!("line {line}");
    let Some(&id) = map.devices.get(name) else {
        return Err(if map.buckets.iter().any(|(b, _)| b == name) {
            format!(
                "{at}: {} {root} holds bucket {}: only a flat map, its OSDs in the rule's root, is modelled (hosts and racks between are not)",
                bucket.kind,
                quote(name)
            )
        } else {
            format!(
                "{at}: item {} in bucket {} is not defined (no `device ID {}` line; crushtool -c refuses it)",
                quote(name),
                quote(root),
                quote(name)
            )
        });
    };
    // The lab names an OSD by its id (Ceph hashes the id, not the name).
    if name.strip_prefix("osd.") != Some(id.to_string().as_str()) {
        return Err(format!(
            "device {id} is named {}: the lab knows an OSD by its id, so device {id} must be named osd.{id}",
            quote(name)
        ));
    }
    if id > MAX_OSD_ID {
        return Err(format!(
            "{at}: {}: the lab models OSD ids from 0 to {MAX_OSD_ID}",
            quote(name)
        ));
    }
    let weight = match written.parse::<f64>() {
        Ok(w) if w.is_nan() => None,
        Ok(w) if w < 0.0 => {
            return Err(format!(
                "{at}: weight {} of {} is negative; CRUSH weights are from 0 to {MAX_WEIGHT}",
                quote(written),
                quote(name)
            ))
        }
        Ok(w) if w > MAX_WEIGHT => {
            return Err(format!(
                "{at}: weight {} of {} is above {MAX_WEIGHT}, the most crushtool -c takes",
                quote(written),
                quote(name)
            ))
        }
        Ok(w) => Some(w),
        Err(_) => None,
    }
    .ok_or_else(|| {
        format!(
            "{at}: weight {} of {} is not a number",
            quote(written),
            quote(name)
        )
    })?;
    // CRUSH keeps weights in 16.16 fixed point: below 1/65536 a weight is 0.
    if ceph::crush_weight(weight) == 0 {
        return Ok(Err(Note::Said(format!(
            "{name}, of CRUSH weight 0 (it never wins a draw)"
        ))));
    }
    Ok(Ok(ServerSpec {
        name: name.clone(),
        weight,
        up: true,
    }))
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
                "item 'host-a' in bucket 'default' is not defined",
            ),
            (
                "item osd.0 weight 1.000",
                "item default weight 1.000",
                "holds bucket 'default': only a flat map",
            ),
        ];
        for (from, to, says) in cases {
            assert!(map.contains(from), "{from}");
            let err = read(&map.replacen(from, to, 1)).unwrap_err();
            assert!(err.contains(says), "{to}: {err}");
        }
        assert!(read("rule r {\n").unwrap_err().contains("not closed"));
    }

    /// What `crushtool -c` (Ceph 16.2.15) does with each, the lab does or refuses: a
    /// device's id is what Ceph hashes, so a name that does not say it is refused; an item
    /// without a device line, an id or name given twice, a negative id, a weight above 100
    /// or below 0 are refused as crushtool refuses them (quoting the weight as written); a
    /// weight below 1/65536 is CRUSH's 0 (left out, said so).
    #[test]
    fn devices_and_weights_are_read_as_crushtool_reads_them() {
        let map = include_str!("../../tests/reference/ceph-crushmap.txt");
        let cases = [
            (
                "device 0 osd.0",
                "device 9 osd.0",
                "device 9 is named 'osd.0'",
            ),
            (
                "item osd.1 weight 2.000",
                "item osd.99 weight 2.000",
                "item 'osd.99' in bucket 'default' is not defined",
            ),
            (
                "device 1 osd.1",
                "device 0 osd.1",
                "device 0 is given twice ('osd.0' and 'osd.1')",
            ),
            (
                "device 1 osd.1",
                "device 1 osd.0",
                "device 'osd.0' is defined twice",
            ),
            (
                "device 1 osd.1",
                "device -3 osd.1",
                "device id '-3' is not a whole number",
            ),
            (
                "item osd.1 weight 2.000",
                "item osd.1 weight -5.0",
                "weight '-5.0' of 'osd.1' is negative",
            ),
            (
                "item osd.1 weight 2.000",
                "item osd.1 weight 1e30",
                "weight '1e30' of 'osd.1' is above 100",
            ),
            (
                "item osd.1 weight 2.000",
                "item osd.1 weight 99999999999999999999999",
                "weight '99999999999999999999999' of 'osd.1' is above 100",
            ),
            (
                "item osd.1 weight 2.000",
                "item osd.1 weight NaN",
                "weight 'NaN' of 'osd.1' is not a number",
            ),
            ("device 1 osd.1", "device 65536 osd.65536", "is not defined"),
        ];
        for (from, to, says) in cases {
            assert!(map.contains(from), "{from}");
            let err = read(&map.replacen(from, to, 1)).unwrap_err();
            assert!(err.contains(says), "{to}: {err}");
            assert!(!err.contains("18446744073709551615"), "{to}: {err}");
        }
        let big = map
            .replacen("device 1 osd.1", "device 65536 osd.65536", 1)
            .replacen("item osd.1 weight", "item osd.65536 weight", 1);
        let err = read(&big).unwrap_err();
        assert!(
            err.contains("'osd.65536': the lab models OSD ids from 0 to 65535"),
            "{err}"
        );
        // 1e-9 is CRUSH weight 0: left out, as a weight of 0 is.
        let tiny = read(&map.replacen(
            "item osd.1 weight 2.000",
            "item osd.1 weight 0.000000001",
            1,
        ))
        .unwrap();
        assert!(!tiny.servers.iter().any(|s| s.name == "osd.1"));
        assert!(tiny
            .left_out
            .iter()
            .any(|n| n.to_string().contains("osd.1, of CRUSH weight 0")));
        // 100,000 OSDs: more than the lab holds, said so.
        let mut many = String::from("tunable choose_total_tries 50\n");
        for i in 0..10_001 {
            many.push_str(&format!("device {i} osd.{i}\n"));
        }
        many.push_str("root default {\n\talg straw2\n\thash 0\n");
        for i in 0..10_001 {
            many.push_str(&format!("\titem osd.{i} weight 1.000\n"));
        }
        many.push_str(
            "}\nrule r {\n\tstep take default\n\tstep choose firstn 0 type osd\n\tstep emit\n}\n",
        );
        let err = read(&many).unwrap_err();
        assert!(
            err.contains("holds 10001 OSDs; the lab places at most 10000 servers"),
            "{err}"
        );
    }
}
