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

use std::collections::{BTreeMap, HashMap};

use crate::engine::algorithms::ceph;
use crate::engine::algorithms::ceph::crush::{
    Bucket as CrushBucket, CrushMap, Rule as CrushRule, Step, Tunables,
};
use crate::engine::import::{self, Imported};
use crate::engine::note::Note;
use crate::engine::placement::Algorithm;
use crate::engine::scenario::{ServerSpec, MAX_SERVERS};
use crate::text::quote;

/// One bucket: its type, algorithm, hash and items `(name, weight as written (None: not
/// written), line)`, its ids (its own and each device class's shadow's) and its line.
#[derive(Default)]
struct Bucket {
    kind: String,
    alg: String,
    hash: String,
    items: Vec<(String, Option<String>, usize)>,
    id: Option<i32>,
    class_ids: Vec<(String, i32)>,
    line: usize,
}

/// The largest item weight `crushtool -c` takes ("device weight limited to 100").
const MAX_WEIGHT: f64 = 100.0;
/// The largest OSD id the lab models.
const MAX_OSD_ID: u32 = u16::MAX as u32;

/// One rule: its name, id, type, line and steps (each step's words after `step`, one
/// space apart, and its line).
struct Rule {
    name: String,
    id: Option<i32>,
    kind: String,
    line: usize,
    steps: Vec<String>,
    step_lines: Vec<usize>,
}

/// The map's parts the flat case reads.
#[derive(Default)]
struct Map {
    tunables: HashMap<String, String>,
    /// Each tunable's line.
    tunable_lines: HashMap<String, usize>,
    /// `device ID NAME` lines: each device's id by name.
    devices: HashMap<String, u32>,
    /// `device ID NAME class CLASS`: each classed device's class by name.
    classes: HashMap<String, String>,
    /// `type ID NAME` lines: each type's id by name.
    types: HashMap<String, i32>,
    /// Lines the lab refuses wherever they are, and why (`choose_args` blocks).
    refused: Option<String>,
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
        /// A block skipped to its end, nested this deep.
        Skipped(usize),
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
                map.tunable_lines.insert((*name).into(), n + 1);
            }
            (None, ["device", id, name, rest @ ..]) if rest.is_empty() || rest[0] == "class" => {
                device_line(&mut map, &mut ids, (id, name, rest), n + 1)?;
            }
            (None, ["device", ..]) => {
                return Err(format!(
                    "{}: expected `device ID NAME [class CLASS]`, got {}",
                    at(),
                    quote(line)
                ))
            }
            (None, ["type", id, name]) => {
                let id = id.parse::<i32>().map_err(|_| {
                    format!("{}: type id {} is not a whole number", at(), quote(id))
                })?;
                map.types.insert((*name).to_owned(), id);
            }
            (None, ["type", ..]) => {}
            (None, ["choose_args", ..]) => {
                map.refused.get_or_insert(format!(
                    "{}: choose_args (the balancer's weight sets) change every draw and are not modelled",
                    at()
                ));
                open = Some(Open::Skipped(1));
            }
            (Some(Open::Skipped(depth)), words) => {
                let depth = *depth + words.iter().filter(|w| w.ends_with('{')).count()
                    - words.iter().filter(|w| w.starts_with('}')).count();
                open = (depth > 0).then_some(Open::Skipped(depth));
            }
            (None, ["rule", name, "{"]) => {
                map.rules.push(Rule {
                    name: (*name).into(),
                    id: None,
                    kind: String::new(),
                    line: n + 1,
                    steps: Vec::new(),
                    step_lines: Vec::new(),
                });
                open = Some(Open::Rule);
            }
            (None, [kind, name, "{"]) => {
                map.buckets.push((
                    (*name).into(),
                    Bucket {
                        kind: (*kind).into(),
                        line: n + 1,
                        ..Bucket::default()
                    },
                ));
                open = Some(Open::Bucket(map.buckets.len() - 1));
            }
            (Some(Open::Bucket(i)), words) => bucket_line(&mut map.buckets[*i].1, words, n + 1)?,
            (Some(Open::Rule), words) => {
                if let Some(rule) = map.rules.last_mut() {
                    rule_line(rule, words, n + 1)?;
                }
            }
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

/// A `device ID NAME [class CLASS]` line, `n` its number; `ids` holds the names by id so
/// far.
fn device_line(
    map: &mut Map,
    ids: &mut HashMap<u32, String>,
    (id, name, rest): (&str, &str, &[&str]),
    n: usize,
) -> Result<(), String> {
    // crushtool refuses a negative id, and a name given twice.
    let id = id
        .parse::<u32>()
        .ok()
        .filter(|id| *id < 1 << 31)
        .ok_or_else(|| {
            format!(
                "line {n}: device id {} is not a whole number from 0 (crushtool -c refuses it)",
                quote(id)
            )
        })?;
    if let Some(other) = ids.insert(id, name.to_owned()) {
        return Err(format!(
            "line {n}: device {id} is given twice ({} and {})",
            quote(&other),
            quote(name)
        ));
    }
    if map.devices.insert(name.to_owned(), id).is_some() {
        return Err(format!("line {n}: device {} is defined twice", quote(name)));
    }
    if let ["class", class] = rest {
        map.classes.insert(name.to_owned(), (*class).to_owned());
    }
    Ok(())
}

/// One line inside a bucket's block, `n` its number.
fn bucket_line(bucket: &mut Bucket, words: &[&str], n: usize) -> Result<(), String> {
    let not_a_bucket_line =
        || format!("line {n}: {} is not a bucket line", quote(&words.join(" ")));
    match words {
        ["alg", alg] => bucket.alg = (*alg).into(),
        ["hash", hash] => bucket.hash = (*hash).into(),
        ["item", name, "weight", weight, ..] => {
            bucket
                .items
                .push(((*name).into(), Some((*weight).into()), n));
        }
        ["item", name] | ["item", name, "pos", _] => bucket.items.push(((*name).into(), None, n)),
        ["id", id, rest @ ..] => {
            let id = id.parse::<i32>().ok().filter(|id| *id < 0).ok_or_else(|| {
                format!("line {n}: bucket id {} is not a number below 0", quote(id))
            })?;
            match rest {
                [] => bucket.id = Some(id),
                ["class", class] => bucket.class_ids.push(((*class).into(), id)),
                _ => return Err(not_a_bucket_line()),
            }
        }
        _ => return Err(not_a_bucket_line()),
    }
    Ok(())
}

/// One line inside a rule's block, `n` its number: its steps, id and type (the sizes are
/// the pool's business).
fn rule_line(rule: &mut Rule, words: &[&str], n: usize) -> Result<(), String> {
    match words {
        ["step", step @ ..] => {
            rule.steps.push(step.join(" "));
            rule.step_lines.push(n);
        }
        ["id" | "ruleset", id] => {
            rule.id =
                Some(id.parse::<i32>().map_err(|_| {
                    format!("line {n}: rule id {} is not a whole number", quote(id))
                })?);
        }
        ["type", kind] => rule.kind = (*kind).into(),
        _ => {}
    }
    Ok(())
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
    (name, written, line): &(String, Option<String>, usize),
) -> Result<Result<ServerSpec, Note>, String> {
    let at = format!("line {line}");
    // A device item without a weight is crushtool's 1.0.
    let written = written.as_deref().unwrap_or("1");
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
    let weight = weight_of(written, name, &at)?;
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

/// A CRUSH map read whole: the hierarchy CRUSH descends, its rules, and the names of what
/// it holds (to say a placement in the map's own words).
pub struct Hierarchy {
    /// The buckets (and the device classes' shadow buckets the rules take) and tunables.
    pub map: CrushMap,
    /// The rules, in the map's order.
    pub rules: Vec<CrushRule>,
    /// Each device's name by id.
    pub devices: BTreeMap<i32, String>,
    /// Each bucket's name and type by id (a shadow bucket as `host-a~hdd`).
    pub buckets: BTreeMap<i32, (String, String)>,
}

/// The tunables a map that states none has: Ceph's legacy (argonaut) profile.
const LEGACY: [(&str, u32); 6] = [
    ("choose_local_tries", 2),
    ("choose_local_fallback_tries", 5),
    ("choose_total_tries", 19),
    ("chooseleaf_descend_once", 0),
    ("chooseleaf_vary_r", 0),
    ("chooseleaf_stable", 0),
];

/// The tunables of a map, refusing what the mapper here does not run (local fallback
/// retries: the legacy profile's exhaustive search).
fn tunables(map: &Map) -> Result<Tunables, String> {
    let mut values = HashMap::new();
    for (name, legacy) in LEGACY {
        let value = match map.tunables.get(name) {
            None => legacy,
            Some(text) => text.parse::<u32>().map_err(|_| {
                format!(
                    "line {}: tunable {name} {} is not a whole number",
                    map.tunable_lines.get(name).copied().unwrap_or(0),
                    quote(text)
                )
            })?,
        };
        values.insert(name, value);
    }
    let fallback = values["choose_local_fallback_tries"];
    if fallback != 0 {
        return Err(match map.tunable_lines.get("choose_local_fallback_tries") {
            Some(line) => format!(
                "line {line}: tunable choose_local_fallback_tries {fallback}: the legacy local fallback search is not modelled (Ceph's profiles since bobtail set 0)"
            ),
            None => "the map states no tunables, which is Ceph's legacy (argonaut) profile: its local fallback search is not modelled (a map from a cluster of today, `ceph osd getcrushmap | crushtool -d -`, states its tunables)".to_owned(),
        });
    }
    Ok(Tunables {
        choose_local_tries: values["choose_local_tries"],
        choose_total_tries: values["choose_total_tries"],
        chooseleaf_descend_once: values["chooseleaf_descend_once"] != 0,
        chooseleaf_vary_r: values["chooseleaf_vary_r"],
        chooseleaf_stable: values["chooseleaf_stable"] != 0,
    })
}

/// What the buckets are as CRUSH holds them, built in the map's order (an item must be
/// defined before the bucket that holds it, as crushtool requires).
struct Built {
    /// Each bucket's id and computed weight by name.
    ids: HashMap<String, i32>,
    buckets: Vec<CrushBucket>,
    names: BTreeMap<i32, (String, String)>,
}

/// Reads the buckets: ids (a bucket without one gets the lowest id free so far, as
/// crushtool gives it), types, straw2 only, items resolved and weighed.
fn buckets(map: &Map) -> Result<Built, String> {
    let mut built = Built {
        ids: HashMap::new(),
        buckets: Vec::new(),
        names: BTreeMap::new(),
    };
    let mut used: Vec<i32> = map.buckets.iter().filter_map(|(_, b)| b.id).collect();
    for (name, bucket) in &map.buckets {
        let at = format!("line {}", bucket.line);
        if bucket.alg != "straw2" {
            return Err(format!(
                "{at}: {} {name} is alg {}: only straw2 buckets are modelled (uniform, list, tree and straw place differently)",
                bucket.kind,
                quote(&bucket.alg)
            ));
        }
        if bucket.hash != "0" {
            return Err(format!(
                "{at}: {} {name} has hash {}: only hash 0 (rjenkins1) is modelled",
                bucket.kind,
                quote(&bucket.hash)
            ));
        }
        let kind = *map.types.get(&bucket.kind).ok_or_else(|| {
            format!(
                "{at}: bucket {name} is of type {}, which no `type` line declares",
                quote(&bucket.kind)
            )
        })?;
        let id = match bucket.id {
            Some(id) => id,
            None => {
                let id = (1..)
                    .map(|n: i32| -n)
                    .find(|id| !used.contains(id))
                    .unwrap_or(-1);
                used.push(id);
                id
            }
        };
        if built.ids.insert(name.clone(), id).is_some() {
            return Err(format!("{at}: bucket {name} is defined twice"));
        }
        let mut items = Vec::new();
        let mut weights = Vec::new();
        for (item, written, line) in &bucket.items {
            let item_at = format!("line {line}");
            let (item_id, computed) = if let Some(&device) = map.devices.get(item) {
                (device as i32, ceph::crush_weight(1.0))
            } else if let Some(&child) = built.ids.get(item) {
                let weight = built
                    .buckets
                    .iter()
                    .find(|b| b.id == child)
                    .map_or(0, CrushBucket::weight);
                (child, weight)
            } else {
                return Err(format!(
                    "{item_at}: item {} in bucket {} is not defined before it (no `device` line or bucket of that name above; crushtool -c refuses it)",
                    quote(item),
                    quote(name)
                ));
            };
            let weight = match written {
                Some(text) => ceph::crush_weight(weight_of(text, item, &item_at)?),
                None => computed,
            };
            items.push(item_id);
            weights.push(weight);
        }
        built.names.insert(id, (name.clone(), bucket.kind.clone()));
        built.buckets.push(CrushBucket {
            id,
            kind,
            items,
            weights,
        });
    }
    Ok(built)
}

/// The shadow of bucket `id` for device class `class`: the same bucket holding only that
/// class's devices and its children's shadows (weighed by what they hold), under the id
/// the map's `id N class CLASS` line gives it — what `step take ROOT class CLASS` descends.
fn shadow(
    map: &Map,
    built: &mut Built,
    devices: &BTreeMap<i32, String>,
    id: i32,
    class: &str,
) -> Result<i32, String> {
    let (name, _) = built
        .names
        .get(&id)
        .cloned()
        .ok_or("a shadow of no bucket")?;
    let shadow_name = format!("{name}~{class}");
    if let Some(&done) = built.ids.get(&shadow_name) {
        return Ok(done);
    }
    let (_, written) = map
        .buckets
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or("a shadow of no bucket")?;
    let shadow_id = written
        .class_ids
        .iter()
        .find(|(c, _)| c == class)
        .map(|(_, id)| *id)
        .ok_or_else(|| {
            format!(
                "line {}: {} {name} has no `id N class {class}` line: a map from crushtool -d has one for each device class, which `step take … class {class}` descends",
                written.line, written.kind
            )
        })?;
    let original = built
        .buckets
        .iter()
        .find(|b| b.id == id)
        .cloned()
        .ok_or("a shadow of no bucket")?;
    let mut items = Vec::new();
    let mut weights = Vec::new();
    for (&item, &weight) in original.items.iter().zip(&original.weights) {
        if item >= 0 {
            let device = devices.get(&item).map(String::as_str).unwrap_or("");
            if map.classes.get(device).map(String::as_str) == Some(class) {
                items.push(item);
                weights.push(weight);
            }
        } else {
            let child = shadow(map, built, devices, item, class)?;
            let child_weight = built
                .buckets
                .iter()
                .find(|b| b.id == child)
                .map_or(0, CrushBucket::weight);
            items.push(child);
            weights.push(child_weight);
        }
    }
    built.ids.insert(shadow_name.clone(), shadow_id);
    built
        .names
        .insert(shadow_id, (shadow_name, written.kind.clone()));
    built.buckets.push(CrushBucket {
        id: shadow_id,
        kind: original.kind,
        items,
        weights,
    });
    Ok(shadow_id)
}

/// A rule's steps as CRUSH runs them, refusing what is not modelled (naming the line).
fn rule_steps(
    map: &Map,
    built: &mut Built,
    devices: &BTreeMap<i32, String>,
    rule: &Rule,
) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for (step, line) in rule.steps.iter().zip(&rule.step_lines) {
        let at = format!("line {line}");
        let words: Vec<&str> = step.split(' ').collect();
        let number = |text: &str| {
            text.parse::<i32>().map_err(|_| {
                format!(
                    "{at}: {} in `step {step}` is not a whole number",
                    quote(text)
                )
            })
        };
        let kind_of = |name: &str| {
            map.types.get(name).copied().ok_or_else(|| {
                format!(
                    "{at}: type {} in `step {step}` is declared by no `type` line",
                    quote(name)
                )
            })
        };
        steps.push(match words.as_slice() {
            ["take", item] | ["take", item, "class", _] => {
                let id = match (map.devices.get(*item), built.ids.get(*item)) {
                    (Some(&device), _) => device as i32,
                    (None, Some(&bucket)) => bucket,
                    (None, None) => {
                        return Err(format!("{at}: rule {} takes {}, which is no bucket", rule.name, quote(item)))
                    }
                };
                match words.as_slice() {
                    ["take", _, "class", class] => Step::Take(shadow(map, built, devices, id, class)?),
                    _ => Step::Take(id),
                }
            }
            [op @ ("choose" | "chooseleaf"), "firstn", count, "type", kind] => Step::Choose {
                count: number(count)?,
                kind: kind_of(kind)?,
                leaf: *op == "chooseleaf",
            },
            ["choose" | "chooseleaf", "indep", ..] => {
                return Err(format!(
                    "{at}: rule {}: `step {step}` is an erasure-coded pool's choice (indep), which is not modelled; replicated pools choose firstn",
                    rule.name
                ))
            }
            ["emit"] => Step::Emit,
            ["set_choose_tries", n] => Step::SetChooseTries(number(n)?),
            ["set_chooseleaf_tries", n] => Step::SetChooseleafTries(number(n)?),
            ["set_choose_local_tries", n] => Step::SetChooseLocalTries(number(n)?),
            ["set_chooseleaf_vary_r", n] => Step::SetChooseleafVaryR(number(n)?),
            ["set_chooseleaf_stable", n] => Step::SetChooseleafStable(number(n)?),
            ["set_choose_local_fallback_tries", n] if number(n)? == 0 => continue,
            _ => {
                return Err(format!(
                    "{at}: rule {}: `step {step}` is not modelled (take, choose/chooseleaf firstn, emit and the set_ steps are; msr and indep are not)",
                    rule.name
                ))
            }
        });
    }
    Ok(steps)
}

/// Reads a decompiled CRUSH map whole (`crushtool -d`): straw2 buckets of any depth,
/// device classes, replicated rules and the tunables, for CRUSH as Ceph runs it.
pub fn read_hierarchy(text: &str) -> Result<Hierarchy, String> {
    let map = parse(text)?;
    if let Some(refused) = &map.refused {
        return Err(refused.clone());
    }
    let tunables = tunables(&map)?;
    let devices: BTreeMap<i32, String> = map
        .devices
        .iter()
        .map(|(name, &id)| (id as i32, name.clone()))
        .collect();
    let mut built = buckets(&map)?;
    let mut rules = Vec::new();
    for (index, rule) in map.rules.iter().enumerate() {
        if rule.kind != "replicated" && !rule.kind.is_empty() {
            return Err(format!(
                "line {}: rule {} is of type {}: only replicated rules are modelled (erasure-coded and msr rules choose otherwise)",
                rule.line,
                rule.name,
                quote(&rule.kind)
            ));
        }
        let steps = rule_steps(&map, &mut built, &devices, rule)?;
        rules.push(CrushRule {
            id: rule.id.unwrap_or(index as i32),
            name: rule.name.clone(),
            steps,
        });
    }
    let max_devices = devices.keys().next_back().map_or(0, |id| id + 1);
    let crush = CrushMap::new(built.buckets, max_devices, tunables)?;
    Ok(Hierarchy {
        map: crush,
        rules,
        devices,
        buckets: built.names,
    })
}

/// An item's weight as written, read as `crushtool -c` reads it (refused as it refuses a
/// negative weight, one above 100 or not a number).
fn weight_of(written: &str, name: &str, at: &str) -> Result<f64, String> {
    match written.parse::<f64>() {
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
    })
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

/// The hierarchical maps against `crushtool --test` (tests/reference/ceph-crush-hierarchy.txt,
/// tools/ceph-vectors.py hierarchy): every rule of every map, every input 0..1023.
#[cfg(test)]
mod hierarchy_tests {
    use super::*;
    use std::collections::HashMap;

    fn maps() -> HashMap<&'static str, &'static str> {
        macro_rules! maps {
            ($($name:literal),*) => {
                HashMap::from([$(($name, include_str!(concat!("../../tests/reference/crush/", $name, ".txt")))),*])
            };
        }
        maps!(
            "3-hosts",
            "3-hosts-host-added",
            "3-hosts-osd-reweighted",
            "3-hosts-bobtail",
            "3-hosts-firefly",
            "3-hosts-descend-many",
            "2-racks"
        )
    }

    #[test]
    fn hierarchical_maps_map_inputs_as_crushtool_does() {
        let text = include_str!("../../tests/reference/ceph-crush-hierarchy.txt");
        let maps = maps();
        let mut read: HashMap<&str, Hierarchy> = HashMap::new();
        let (mut current, mut tests, mut checked, mut differ) = (None, 0, 0, Vec::new());
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split(' ').collect();
            if words[0] == "test" {
                let field = |key: &str| words.iter().find_map(|w| w.strip_prefix(key)).unwrap();
                let name = words[1];
                if !read.contains_key(name) {
                    read.insert(
                        name,
                        read_hierarchy(maps[name]).unwrap_or_else(|e| panic!("{name}: {e}")),
                    );
                }
                let hierarchy = &read[name];
                // crushtool's weight vector: one weight per device, all in unless --weight.
                let devices = hierarchy.devices.keys().next_back().map_or(0, |id| id + 1);
                let mut reweights = vec![0x10000u32; devices as usize];
                for pair in field("weights=").split(',').filter(|p| *p != "-") {
                    let (osd, w) = pair.split_once(':').unwrap();
                    reweights[osd.parse::<usize>().unwrap()] =
                        (w.parse::<f64>().unwrap() * 65536.0) as u32;
                }
                let rule: i32 = field("rule=").parse().unwrap();
                let rule = hierarchy
                    .rules
                    .iter()
                    .find(|r| r.id == rule)
                    .unwrap()
                    .clone();
                current = Some((
                    name,
                    rule,
                    field("replicas=").parse::<usize>().unwrap(),
                    reweights,
                    line.to_owned(),
                ));
                tests += 1;
                continue;
            }
            let (name, rule, replicas, reweights, header) = current.as_ref().unwrap();
            let x: u32 = words[0].parse().unwrap();
            let want: Vec<i32> = words
                .get(1)
                .filter(|w| !w.is_empty())
                .map_or(Vec::new(), |w| {
                    w.split(',').map(|o| o.parse().unwrap()).collect()
                });
            let got = read[name].map.do_rule(&rule.steps, x, *replicas, reweights);
            if got != want && differ.len() < 10 {
                differ.push(format!("{header}: x {x}: {got:?}, crushtool {want:?}"));
            }
            checked += 1;
        }
        assert!(differ.is_empty(), "{}", differ.join("\n"));
        assert_eq!((tests, checked), (114, 114 * 1024));
    }

    /// What is not modelled is refused naming its line: other bucket algorithms, an
    /// erasure-coded rule, `indep` and `msr` steps, weight sets, the legacy local fallback
    /// search, a class without its shadow id, an item not defined above.
    #[test]
    fn unsupported_features_are_refused_naming_the_line() {
        let map = maps()["3-hosts"];
        let line_of = |text: &str| {
            map.lines()
                .position(|l| l.contains(text))
                .map(|n| n + 1)
                .unwrap()
        };
        let cases = [
            ("alg straw2", "alg straw", format!("line {}: host node-a is alg 'straw': only straw2", line_of("host node-a {"))),
            ("alg straw2", "alg uniform", "is alg 'uniform'".to_owned()),
            ("type replicated", "type erasure", format!("line {}: rule replicated_rule is of type 'erasure'", line_of("rule replicated_rule {"))),
            (
                "step chooseleaf firstn 0 type host",
                "step chooseleaf indep 0 type host",
                format!("line {}: rule replicated_rule: `step chooseleaf indep 0 type host` is an erasure-coded", line_of("step chooseleaf firstn 0 type host")),
            ),
            (
                "step chooseleaf firstn 0 type host",
                "step choosemsr 3 type host",
                "`step choosemsr 3 type host` is not modelled".to_owned(),
            ),
            (
                "tunable choose_local_fallback_tries 0",
                "tunable choose_local_fallback_tries 5",
                format!("line {}: tunable choose_local_fallback_tries 5", line_of("choose_local_fallback_tries")),
            ),
            (
                "step chooseleaf firstn 0 type host",
                "step chooseleaf firstn 0 type row",
                "type 'row' in `step chooseleaf firstn 0 type row` is declared by no `type` line".to_owned(),
            ),
            ("item osd.0 weight", "item osd.99 weight", "item 'osd.99' in bucket 'node-a' is not defined".to_owned()),
            ("# end crush map", "choose_args 1 {\n}\n", "choose_args (the balancer's weight sets)".to_owned()),
        ];
        for (from, to, says) in cases {
            assert!(map.contains(from), "{from}");
            let err = read_hierarchy(&map.replacen(from, to, 1))
                .err()
                .unwrap_or_default();
            assert!(err.contains(&says), "{to}: {err}");
        }
        let refusal_without = |dropped: &dyn Fn(&str) -> bool| {
            let kept: String = map
                .lines()
                .filter(|l| !dropped(l))
                .map(|l| format!("{l}\n"))
                .collect();
            read_hierarchy(&kept).err().unwrap_or_default()
        };
        // A class rule needs each bucket's shadow id, as crushtool -d writes them.
        let err = refusal_without(&|l| l.contains("class hdd\t"));
        assert!(err.contains("has no `id N class hdd` line"), "{err}");
        // No tunables at all is the legacy profile.
        let err = refusal_without(&|l| l.starts_with("tunable"));
        assert!(err.contains("the map states no tunables"), "{err}");
    }
}
