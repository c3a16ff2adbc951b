//! A decompiled CRUSH map (`crushtool -d`, `ceph osd getcrushmap | crushtool -d -`) → the
//! Ceph cluster it describes, for the command line's `--config`, the Python package's
//! `from_config` and a map pasted into the page (whose refusals it words as
//! [`Problem::CrushMap`](crate::problem::Problem::CrushMap)).
//!
//! Two shapes are read. A **flat** map — a first rule `take ROOT`, `choose` (or
//! `chooseleaf`) `firstn 0 type osd`, `emit` over a straw2 root holding the OSDs themselves,
//! Ceph's default tunables — becomes the OSDs as servers in bucket order, which the page's
//! Ceph places without more. **Any other** map is read whole ([`read_layout`]): straw2
//! buckets of any depth (hosts, racks, rows, as its `type` lines declare), device classes
//! and their shadow ids, the first replicated rule (`take [class]`, `choose`/`chooseleaf
//! firstn N type T`, `emit`, the `set_` steps) and the tunables, into the scenario's CRUSH
//! layout ([`crate::engine::crush::layout`]), bit for bit with `crushtool` and `osdmaptool`.
//! What CRUSH does otherwise is refused naming the line, not approximated: other bucket
//! algorithms, erasure-coded and msr rules, `indep` steps, weight sets (`choose_args`), the
//! legacy local fallback search, a bucket weighed other than by what it holds.
//!
//! The OSDs become the servers with their CRUSH weights; an item of weight 0 never wins
//! and is left out, said so. A CRUSH map holds no pool: `pg_num` comes from `--pg-num`, and
//! an OSD marked out (the OSD map's, not CRUSH's) is `--down osd.N`, applied after the map,
//! or a step (`--step fail:osd.N`); a host joins with `--step add-host:…`.

use std::borrow::Borrow;

use crate::engine::algorithms::ceph;
use crate::engine::crush::layout::{CrushLayout, LayoutBucket, LayoutStep, DEVICE_TYPE, SETS};
use crate::engine::crush::map::Tunables;
use crate::engine::note::Note;
use crate::engine::scenario::{ServerSpec, MAX_SERVERS};
use crate::text::quote;

/// A small map kept as a list, in insertion order: a map's tables hold tens of entries,
/// and a tree per key type would cost the page more than the lookups it saves.
#[derive(Debug)]
struct Table<K, V>(Vec<(K, V)>);

impl<K, V> Default for Table<K, V> {
    fn default() -> Self {
        Table(Vec::new())
    }
}

impl<K: PartialEq, V> Table<K, V> {
    fn get<Q: PartialEq + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.0
            .iter()
            .find(|(k, _)| k.borrow() == key)
            .map(|(_, v)| v)
    }

    fn contains_key<Q: PartialEq + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.get(key).is_some()
    }

    /// Sets `key` to `value`; the value it had, if any.
    fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => Some(std::mem::replace(v, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

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
    tunables: Table<String, String>,
    /// Each tunable's line.
    tunable_lines: Table<String, usize>,
    /// `device ID NAME` lines: each device's id by name.
    devices: Table<String, u32>,
    /// `device ID NAME class CLASS`: each classed device's class by name.
    classes: Table<String, String>,
    /// `type ID NAME` lines: each type's id by name.
    types: Table<String, i32>,
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
    let mut ids: Table<u32, String> = Table::default();
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
    ids: &mut Table<u32, String>,
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

/// Whether the map is Ceph's flat case, which the page's Ceph models without a layout: the
/// default tunables, and a first rule that chooses OSDs straight from one bucket holding
/// only OSDs.
fn is_flat(map: &Map) -> bool {
    let tunables = TUNABLES
        .iter()
        .all(|(name, value)| map.tunables.get(*name).is_none_or(|v| v == value));
    let Some(rule) = map.rules.first() else {
        return true;
    };
    let root = match rule.steps.as_slice() {
        [take, choose, emit]
            if (choose == "choose firstn 0 type osd"
                || choose == "chooseleaf firstn 0 type osd")
                && emit == "emit" =>
        {
            take.strip_prefix("take ").filter(|r| !r.contains(' '))
        }
        _ => None,
    };
    let only_devices = |root: &str| {
        map.buckets
            .iter()
            .find(|(name, _)| name == root)
            .is_some_and(|(_, b)| {
                b.items
                    .iter()
                    .all(|(i, _, _)| !map.buckets.iter().any(|(n, _)| n == i))
            })
    };
    tunables && root.is_some_and(only_devices)
}

/// The Ceph cluster a CRUSH map describes (made a scenario's by
/// [`crate::engine::import::ceph_map`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CephMap {
    /// The OSDs, with their CRUSH weights.
    pub servers: Vec<ServerSpec>,
    /// What the map holds that the scenario leaves out (an OSD of weight 0), said.
    pub left_out: Vec<Note>,
    /// The hierarchy, rule and tunables; `None` for a flat map.
    pub crush: Option<CrushLayout>,
}

/// The Ceph cluster of a decompiled CRUSH map: a flat map's OSDs as servers; any other map
/// read whole ([`read_layout`]) into the scenario's CRUSH layout.
pub fn read(text: &str) -> Result<CephMap, String> {
    read_with_rule(text, None)
}

/// [`read`] with the pool's rule `rule` (its name or id; `None`: the map's first
/// replicated rule, and a flat map read as its OSDs alone).
pub fn read_with_rule(text: &str, rule: Option<&str>) -> Result<CephMap, String> {
    let map = parse(text)?;
    if !is_flat(&map) || rule.is_some() {
        let (layout, servers, left_out) = read_layout(text, rule)?;
        return Ok(CephMap {
            servers,
            left_out,
            crush: Some(layout),
        });
    }
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
    Ok(CephMap {
        servers,
        left_out,
        crush: None,
    })
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
    let mut values = Table::default();
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
    let value = |name: &str| values.get(name).copied().unwrap_or(0);
    let fallback = value("choose_local_fallback_tries");
    if fallback != 0 {
        return Err(match map.tunable_lines.get("choose_local_fallback_tries") {
            Some(line) => format!(
                "line {line}: tunable choose_local_fallback_tries {fallback}: the legacy local fallback search is not modelled (Ceph's profiles since bobtail set 0)"
            ),
            None => "the map states no tunables, which is Ceph's legacy (argonaut) profile: its local fallback search is not modelled (a map from a cluster of today, `ceph osd getcrushmap | crushtool -d -`, states its tunables)".to_owned(),
        });
    }
    Ok(Tunables {
        choose_local_tries: value("choose_local_tries"),
        choose_total_tries: value("choose_total_tries"),
        chooseleaf_descend_once: value("chooseleaf_descend_once") != 0,
        chooseleaf_vary_r: value("chooseleaf_vary_r"),
        chooseleaf_stable: value("chooseleaf_stable") != 0,
    })
}

/// A map's buckets as the layout holds them, in the map's order (an item must be defined
/// before the bucket that holds it, as crushtool requires), and each bucket's weight.
struct Buckets {
    layout: Vec<LayoutBucket>,
    weights: Table<String, u32>,
    /// Each device item's weight as written, by name, and its line.
    devices: Vec<(String, Option<String>, usize)>,
}

/// Reads the buckets: ids (a bucket without one gets the lowest id free so far, as
/// crushtool gives it), types, straw2 only, items defined before; a bucket's weight in its
/// parent must be what it holds (the layout weighs buckets by their items).
fn buckets(map: &Map) -> Result<Buckets, String> {
    let mut out = Buckets {
        layout: Vec::new(),
        weights: Table::default(),
        devices: Vec::new(),
    };
    let mut held: Table<&str, &str> = Table::default();
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
        if !map.types.contains_key(&bucket.kind) {
            return Err(format!(
                "{at}: bucket {name} is of type {}, which no `type` line declares",
                quote(&bucket.kind)
            ));
        }
        let id = bucket.id.unwrap_or_else(|| {
            let id = (1..)
                .map(|n: i32| -n)
                .find(|id| !used.contains(id))
                .unwrap_or(-1);
            used.push(id);
            id
        });
        let mut total = 0u32;
        let mut items = Vec::new();
        for (item, written, line) in &bucket.items {
            let item_at = format!("line {line}");
            if let Some(other) = held.insert(item, name) {
                return Err(format!(
                    "{item_at}: {} is in bucket {} and in bucket {}: an item in two buckets is not modelled",
                    quote(item),
                    quote(other),
                    quote(name)
                ));
            }
            let weight = if map.devices.contains_key(item) {
                out.devices.push((item.clone(), written.clone(), *line));
                ceph::crush_weight(weight_of(
                    written.as_deref().unwrap_or("1"),
                    item,
                    &item_at,
                )?)
            } else if let Some(&computed) = out.weights.get(item) {
                if let Some(text) = written {
                    let given = ceph::crush_weight(weight_of(text, item, &item_at)?);
                    if given != computed {
                        return Err(format!(
                            "{item_at}: {} is weighed {} in {}, but what it holds weighs {}: the lab weighs a bucket by its items, as `ceph osd crush reweight` keeps them",
                            quote(item),
                            quote(text),
                            quote(name),
                            crate::text::Fixed(f64::from(computed) / 65536.0, 3)
                        ));
                    }
                }
                computed
            } else {
                return Err(format!(
                    "{item_at}: item {} in bucket {} is not defined before it (no `device` line or bucket of that name above; crushtool -c refuses it)",
                    quote(item),
                    quote(name)
                ));
            };
            total = total.wrapping_add(weight);
            items.push(item.clone());
        }
        out.weights.insert(name.clone(), total);
        out.layout.push(LayoutBucket {
            kind: bucket.kind.clone(),
            name: name.clone(),
            id,
            class_ids: bucket.class_ids.clone(),
            items,
        });
    }
    Ok(out)
}

/// A rule's steps as the layout holds them, refusing what is not modelled (naming the line).
fn rule_steps(map: &Map, device_type: &str, rule: &Rule) -> Result<Vec<LayoutStep>, String> {
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
            if !map.types.contains_key(name) {
                return Err(format!(
                    "{at}: type {} in `step {step}` is declared by no `type` line",
                    quote(name)
                ));
            }
            Ok(if name == device_type {
                DEVICE_TYPE.to_owned()
            } else {
                name.to_owned()
            })
        };
        let known = |item: &str| {
            map.devices.contains_key(item) || map.buckets.iter().any(|(b, _)| b == item)
        };
        steps.push(match words.as_slice() {
            ["take", item, rest @ ..] if rest.is_empty() || rest.len() == 2 && rest[0] == "class" => {
                if !known(item) {
                    return Err(format!(
                        "{at}: rule {} takes {}, which is no bucket",
                        rule.name,
                        quote(item)
                    ));
                }
                LayoutStep::Take((*item).to_owned(), rest.get(1).map(|c| (*c).to_owned()))
            }
            [op @ ("choose" | "chooseleaf"), "firstn", count, "type", kind] => LayoutStep::Choose {
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
            ["emit"] => LayoutStep::Emit,
            ["set_choose_local_fallback_tries", n] if number(n)? == 0 => continue,
            [set, n] if SETS.contains(set) => LayoutStep::Set(
                SETS.iter().find(|s| *s == set).copied().unwrap_or(SETS[0]),
                number(n)?,
            ),
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

/// A decompiled CRUSH map read whole (`crushtool -d`, `ceph osd getcrushmap | crushtool -d
/// -`): its hierarchy of straw2 buckets of any depth, device classes and tunables as a
/// [`CrushLayout`] with the pool's rule — `rule` by name or id, else the map's first
/// replicated rule — and its OSDs as the servers (their CRUSH weights; weight 0 left out,
/// said so).
pub fn read_layout(
    text: &str,
    rule: Option<&str>,
) -> Result<(CrushLayout, Vec<ServerSpec>, Vec<Note>), String> {
    let map = parse(text)?;
    if let Some(refused) = &map.refused {
        return Err(refused.clone());
    }
    let tunables = tunables(&map)?;
    let built = buckets(&map)?;
    let device_type = map
        .types
        .iter()
        .find(|(_, &id)| id == 0)
        .map_or(DEVICE_TYPE, |(name, _)| name.as_str());
    let chosen = match rule {
        Some(wanted) => {
            let id = wanted.parse::<i32>().ok();
            let rules = map.rules.iter().enumerate();
            rules
                .filter(|(i, r)| r.name == wanted || id == Some(r.id.unwrap_or(*i as i32)))
                .map(|(_, r)| r)
                .next()
                .ok_or_else(|| {
                    let names: Vec<&str> = map.rules.iter().map(|r| r.name.as_str()).collect();
                    format!(
                        "the map has no rule {}; its rules are {}",
                        quote(wanted),
                        names.join(", ")
                    )
                })?
        }
        None => map
            .rules
            .iter()
            .find(|r| r.kind == "replicated" || r.kind.is_empty())
            .or(map.rules.first())
            .ok_or("the map has no rule")?,
    };
    if chosen.kind != "replicated" && !chosen.kind.is_empty() {
        return Err(format!(
            "line {}: rule {} is of type {}: only replicated rules are modelled (erasure-coded and msr rules choose otherwise)",
            chosen.line,
            chosen.name,
            quote(&chosen.kind)
        ));
    }
    let steps = rule_steps(&map, device_type, chosen)?;
    let mut servers = Vec::new();
    let mut left_out = Vec::new();
    for device in &built.devices {
        let bucket = map
            .buckets
            .iter()
            .find(|(_, b)| b.items.iter().any(|(i, _, _)| *i == device.0))
            .map_or("", |(n, _)| n.as_str());
        let bucket_of = map
            .buckets
            .iter()
            .find(|(n, _)| n == bucket)
            .map(|(_, b)| b);
        match bucket_of
            .map(|b| osd_of(&map, b, bucket, device))
            .transpose()?
        {
            Some(Ok(server)) => servers.push(server),
            Some(Err(note)) => left_out.push(note),
            None => {}
        }
    }
    if servers.len() > MAX_SERVERS {
        return Err(format!(
            "the map holds {} OSDs; the lab places at most {MAX_SERVERS} servers",
            servers.len()
        ));
    }
    let mut classes: Vec<(String, String)> = map
        .classes
        .iter()
        .filter(|(device, _)| built.devices.iter().any(|(d, _, _)| d == *device))
        .map(|(d, c)| (d.clone(), c.clone()))
        .collect();
    classes.sort();
    let layout = CrushLayout {
        tunables,
        rule: steps,
        buckets: built.layout,
        classes,
    };
    // A class the rule takes needs every shadow id below the bucket it takes.
    let mut devices: Vec<(i32, u32)> = servers
        .iter()
        .map(|s| (ceph::osd_id(&s.name) as i32, ceph::crush_weight(s.weight)))
        .collect();
    devices.sort_unstable();
    layout.build(&devices).map_err(|why| {
        let take = chosen
            .steps
            .iter()
            .position(|s| s.starts_with("take "))
            .map_or(chosen.line, |i| chosen.step_lines[i]);
        format!("line {take}: {}", why.trim_start_matches("crush: "))
    })?;
    Ok((layout, servers, left_out))
}

/// An item's weight as written, read as `crushtool -c` reads it (refused as it refuses a
/// negative weight, one above 100 or not a number).
fn weight_of(written: &str, name: &str, at: &str) -> Result<f64, String> {
    // The page's decimal reader (Rust's float parser would add its tables to the page).
    match crate::text::parse_decimal(written).ok_or(()) {
        Ok(w) if w < 0.0 => {
            return Err(format!(
                "{at}: weight {} of {} is negative; CRUSH weights are from 0 to 100",
                quote(written),
                quote(name)
            ))
        }
        Ok(w) if w > MAX_WEIGHT => {
            return Err(format!(
                "{at}: weight {} of {} is above 100, the most crushtool -c takes",
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
    use crate::engine::import::{self, Imported};
    use crate::engine::scenario::Scenario;
    use crate::engine::sim::Simulation;

    /// The map read and made a scenario's, as the command line reads `--config`.
    fn read(text: &str) -> Result<Imported, String> {
        super::read(text).and_then(|m| import::ceph_map(m).map_err(|e| e.to_string()))
    }

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
                "type 'host' in `step chooseleaf firstn 0 type host` is declared by no `type` line",
            ),
            (
                "tunable choose_local_fallback_tries 0",
                "tunable choose_local_fallback_tries 5",
                "the legacy local fallback search is not modelled",
            ),
            (
                "item osd.0 weight 1.000",
                "item host-a weight 1.000",
                "item 'host-a' in bucket 'default' is not defined",
            ),
            (
                "item osd.0 weight 1.000",
                "item default weight 1.000",
                "item 'default' in bucket 'default' is not defined before it",
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
    use crate::engine::import::{self, Imported};

    /// The map read and made a scenario's, as the command line reads `--config`.
    fn read(text: &str) -> Result<Imported, String> {
        super::read(text).and_then(|m| import::ceph_map(m).map_err(|e| e.to_string()))
    }
    use crate::engine::crush::map::{CrushMap, Step};
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
            "2-racks",
            "3-hosts-add-host"
        )
    }

    /// The map of `name` as the layout builds it for rule `rule`, over the OSDs the map
    /// weighs: the path every consumer takes (the scenario carries the layout).
    fn built(name: &str, rule: i32) -> (CrushMap, Vec<Step>, i32) {
        let (layout, servers, _) = read_layout(maps()[name], Some(&rule.to_string()))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut devices: Vec<(i32, u32)> = servers
            .iter()
            .map(|s| (ceph::osd_id(&s.name) as i32, ceph::crush_weight(s.weight)))
            .collect();
        devices.sort_unstable();
        let max = devices.last().map_or(0, |d| d.0 + 1);
        let (map, steps) = layout.build(&devices).unwrap();
        // The layout survives its link: written and read back, it is the same.
        let again = CrushLayout::parse(&layout.to_string()).unwrap();
        assert_eq!(again, layout, "{name} rule {rule}: {layout}");
        (map, steps, max)
    }

    #[test]
    fn hierarchical_maps_map_inputs_as_crushtool_does() {
        let text = include_str!("../../tests/reference/ceph-crush-hierarchy.txt");
        let (mut current, mut tests, mut checked, mut differ) = (None, 0, 0, Vec::new());
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split(' ').collect();
            if words[0] == "test" {
                let field = |key: &str| words.iter().find_map(|w| w.strip_prefix(key)).unwrap();
                let rule: i32 = field("rule=").parse().unwrap();
                let (map, steps, devices) = built(words[1], rule);
                // crushtool's weight vector: one weight per device, all in unless --weight.
                let mut reweights = vec![0x10000u32; devices as usize];
                for pair in field("weights=").split(',').filter(|p| *p != "-") {
                    let (osd, w) = pair.split_once(':').unwrap();
                    reweights[osd.parse::<usize>().unwrap()] =
                        (w.parse::<f64>().unwrap() * 65536.0) as u32;
                }
                let replicas = field("replicas=").parse::<usize>().unwrap();
                current = Some((map, steps, replicas, reweights, line.to_owned()));
                tests += 1;
                continue;
            }
            let (map, steps, replicas, reweights, header) = current.as_ref().unwrap();
            let x: u32 = words[0].parse().unwrap();
            let want: Vec<i32> = words
                .get(1)
                .filter(|w| !w.is_empty())
                .map_or(Vec::new(), |w| {
                    w.split(',').map(|o| o.parse().unwrap()).collect()
                });
            let got = map.do_rule(steps, x, *replicas, reweights);
            if got != want && differ.len() < 10 {
                differ.push(format!("{header}: x {x}: {got:?}, crushtool {want:?}"));
            }
            checked += 1;
        }
        assert!(differ.is_empty(), "{}", differ.join("\n"));
        assert_eq!((tests, checked), (117, 117 * 1024));
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
            let err = read_layout(&map.replacen(from, to, 1), None)
                .err()
                .unwrap_or_default();
            assert!(err.contains(&says), "{to}: {err}");
        }
        let refusal_without = |dropped: &dyn Fn(&str) -> bool, rule: Option<&str>| {
            let kept: String = map
                .lines()
                .filter(|l| !dropped(l))
                .map(|l| format!("{l}\n"))
                .collect();
            read_layout(&kept, rule).err().unwrap_or_default()
        };
        // A map whose rules are all erasure-coded has no pool rule the lab runs.
        let erasure = map.replace("type replicated", "type erasure");
        let err = read_layout(&erasure, None).err().unwrap_or_default();
        let first = line_of("rule replicated_rule {");
        assert!(
            err.contains(&format!(
                "line {first}: rule replicated_rule is of type 'erasure'"
            )),
            "{err}"
        );
        // A class rule needs each bucket's shadow id, as crushtool -d writes them.
        let err = refusal_without(&|l| l.contains("class hdd\t"), Some("1"));
        assert!(
            err.starts_with("line ") && err.contains("bucket default has no id for class hdd"),
            "{err}"
        );
        // A rule is chosen by name or id; one the map has not is refused naming its rules.
        assert_eq!(
            read_layout(map, Some("hdd_rule")).map(|l| l.0.rule),
            read_layout(map, Some("1")).map(|l| l.0.rule)
        );
        let err = read_layout(map, Some("fast")).err().unwrap_or_default();
        assert!(err.starts_with("the map has no rule 'fast'; its rules are replicated_rule, hdd_rule, ssd_primary, two_step"), "{err}");
        // No tunables at all is the legacy profile.
        let err = refusal_without(&|l| l.starts_with("tunable"), None);
        assert!(err.contains("the map states no tunables"), "{err}");
    }

    /// Objects through the whole chain, as `osdmaptool --test-map-object` placed them
    /// (tests/reference/ceph-hierarchy.txt): a decompiled hierarchical map read as a config,
    /// the pool's placement groups, an OSD out, a host added by the `add-host` step and one
    /// removed by `remove-host` — name → placement group → primary and the full acting set,
    /// 2,000 names in each of eight states.
    #[test]
    fn objects_go_where_osdmaptool_put_them_over_a_hierarchy() {
        use crate::engine::change::Change;
        use crate::engine::scenario::Scenario;
        use crate::engine::sim::Simulation;
        let text = include_str!("../../tests/reference/ceph-hierarchy.txt");
        let maps = maps();
        let (mut sim, mut states, mut checked) = (None, 0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split(' ').collect();
            if words[0] == "scenario" {
                let field = |key: &str| words.iter().find_map(|w| w.strip_prefix(key));
                let imported = read(maps[field("map=").unwrap()]).unwrap();
                assert!(imported.crush.is_some(), "{line}: read as a hierarchy");
                let base =
                    Scenario::from_pairs([("pg_num", field("pg_num=").unwrap()), ("keys", "0..1")])
                        .unwrap();
                let mut scenario = imported.apply(base).unwrap();
                for node in &mut scenario.nodes {
                    node.up = field("down=") != Some(node.name.as_str());
                }
                let mut built = Simulation::new(&scenario).unwrap();
                if let Some(step) = field("step=") {
                    // An operator's change, which the recorded map shows done by crushtool.
                    built.apply(&Change::parse(step).unwrap()).unwrap();
                }
                sim = Some(built);
                states += 1;
                continue;
            }
            let sim = sim.as_ref().unwrap();
            crate::engine::algorithms::ceph::assert_placed_as_recorded(sim, line);
            checked += 1;
        }
        assert_eq!((states, checked), (8, 16_000));
    }
}
