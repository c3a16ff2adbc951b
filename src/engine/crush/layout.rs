//! A Ceph cluster's CRUSH hierarchy as a scenario carries it (`crush=`), so a link holds a
//! real cluster's map: which host (rack, row…) each OSD sits in, the buckets' ids (CRUSH
//! hashes them), the device classes and their shadow ids, the pool's rule and the
//! tunables. The OSDs' weights are not in it: they are the servers' (`nodes=`), so a
//! `weight:` step re-weights an OSD in its host, and an OSD that is not a server (removed)
//! is left out of its host, as `ceph osd crush remove` leaves it.
//!
//! The text, parts joined by `;` (CRUSH names are `[A-Za-z0-9_.-]`, so `;:,()` never
//! occur in one):
//!
//! - `tunables:LOCAL.TOTAL.DESCEND_ONCE.VARY_R.STABLE` (absent: Ceph's jewel profile,
//!   `0.50.1.1.1`);
//! - `rule:STEP,STEP,…`, each step's words joined by `:` — `take:default`,
//!   `take:default:hdd` (a device class), `chooseleaf:0:host`, `choose:2:rack`, `emit`,
//!   `set_chooseleaf_tries:5`;
//! - `TYPE:NAME:ID[:CLASS:ID…](ITEM,…)`, one per bucket, children before parents: an item
//!   is a bucket's name or an OSD's (`osd.2`, `osd.2:ssd` with its device class).

use std::fmt;

use super::map::{Bucket, CrushMap, Step, Tunables};
use crate::problem::Problem;
use crate::text::quote;

/// One bucket as the layout writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutBucket {
    /// Its type's name (`host`, `rack`, `root`…).
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Its id (below 0).
    pub id: i32,
    /// Each device class's shadow id.
    pub class_ids: Vec<(String, i32)>,
    /// Its items' names: OSDs and buckets defined before it.
    pub items: Vec<String>,
}

/// One step of the rule, with names where CRUSH has ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutStep {
    /// `take:ITEM[:CLASS]`.
    Take(String, Option<String>),
    /// `choose:N:TYPE` or `chooseleaf:N:TYPE`.
    Choose {
        /// How many (≤ 0: relative to the pool's size).
        count: i32,
        /// The type's name.
        kind: String,
        /// `chooseleaf`.
        leaf: bool,
    },
    /// `emit`.
    Emit,
    /// `set_…:N`.
    Set(&'static str, i32),
}

/// The `set_` steps a rule may have (and the layout writes), by name.
pub const SETS: [&str; 5] = [
    "set_choose_tries",
    "set_chooseleaf_tries",
    "set_choose_local_tries",
    "set_chooseleaf_vary_r",
    "set_chooseleaf_stable",
];

/// The name of the devices' type (CRUSH's type 0).
pub const DEVICE_TYPE: &str = "osd";

/// A cluster's CRUSH hierarchy, rule and tunables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrushLayout {
    /// The tunables.
    pub tunables: Tunables,
    /// The pool's rule.
    pub rule: Vec<LayoutStep>,
    /// The buckets, children before parents.
    pub buckets: Vec<LayoutBucket>,
    /// Each classed OSD's device class, sorted by the OSD's name (see
    /// [`CrushLayout::class_of`]).
    pub classes: Vec<(String, String)>,
}

/// A host to add: its name, the bucket it goes in, its OSDs (name, weight, class).
#[derive(Clone, Debug, PartialEq)]
pub struct NewHost {
    /// The host's name.
    pub name: String,
    /// The bucket it goes in.
    pub parent: String,
    /// Its OSDs: name, CRUSH weight, device class.
    pub osds: Vec<(String, f64, Option<String>)>,
}

/// The next of names that differ only in their last letter (`node-a`, `node-b` → `node-c`).
fn next_lettered(names: &[&str]) -> Option<String> {
    let split = |n: &'_ str| n.char_indices().last().map(|(i, c)| (n[..i].to_owned(), c));
    let (head, _) = split(names.first()?)?;
    let mut last = 'a';
    for n in names {
        let (h, c) = split(n)?;
        if h != head || !c.is_ascii_lowercase() {
            return None;
        }
        last = last.max(c);
    }
    let next = char::from(last as u8 + 1);
    next.is_ascii_lowercase().then(|| format!("{head}{next}"))
}

/// The OSD id of a layout item named `osd.N`.
fn osd_number(name: &str) -> Option<i32> {
    let digits = name.strip_prefix("osd.")?;
    (!digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0')))
    .then(|| digits.parse::<i32>().ok())
    .flatten()
}

fn syntax(part: &str) -> Problem {
    let shown: String = part.chars().take(40).collect();
    Problem::CrushSyntax {
        given: quote(&shown),
    }
}

impl CrushLayout {
    /// Reads a `crush=` value.
    pub fn parse(text: &str) -> Result<CrushLayout, Problem> {
        let mut layout = CrushLayout {
            tunables: Tunables::JEWEL,
            rule: Vec::new(),
            buckets: Vec::new(),
            classes: Vec::new(),
        };
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            if let Some(values) = part.strip_prefix("tunables:") {
                let n: Vec<u32> = values
                    .split('.')
                    .map(|v| v.parse::<u32>().map_err(|_| syntax(part)))
                    .collect::<Result<_, _>>()?;
                let [local, total, descend, vary_r, stable] = n[..] else {
                    return Err(syntax(part));
                };
                layout.tunables = Tunables {
                    choose_local_tries: local,
                    choose_total_tries: total,
                    chooseleaf_descend_once: descend != 0,
                    chooseleaf_vary_r: vary_r,
                    chooseleaf_stable: stable != 0,
                };
            } else if let Some(steps) = part.strip_prefix("rule:") {
                layout.rule = steps
                    .split(',')
                    .map(|step| parse_step(step).ok_or_else(|| syntax(step)))
                    .collect::<Result<_, _>>()?;
            } else {
                layout
                    .buckets
                    .push(parse_bucket(part, &mut layout.classes).ok_or_else(|| syntax(part))?);
            }
        }
        layout.classes.sort();
        layout.classes.dedup_by(|a, b| a.0 == b.0);
        Ok(layout)
    }

    /// Checks the layout against the servers' names: every server is an OSD in a bucket,
    /// every item is an OSD or a bucket defined before, ids are not given twice.
    pub fn check(&self, names: &[&str]) -> Result<(), Problem> {
        // Few buckets and ids, plain lists; the OSDs held, sorted, for the servers' lookups.
        let mut ids: Vec<i32> = Vec::new();
        let mut held: Vec<&str> = Vec::new();
        for (at, bucket) in self.buckets.iter().enumerate() {
            for id in std::iter::once(bucket.id).chain(bucket.class_ids.iter().map(|(_, id)| *id)) {
                if id >= 0 || ids.contains(&id) {
                    return Err(Problem::CrushSyntax {
                        given: quote(&format!("{}:{}", bucket.name, id)),
                    });
                }
                ids.push(id);
            }
            for item in &bucket.items {
                if osd_number(item).is_some() {
                    held.push(item);
                } else if !self.buckets[..at].iter().any(|b| b.name == *item) {
                    return Err(Problem::CrushUnknownItem {
                        item: quote(item),
                        bucket: quote(&bucket.name),
                    });
                }
            }
        }
        held.sort_unstable();
        if let Some(name) = names.iter().find(|n| held.binary_search(n).is_err()) {
            return Err(Problem::CrushNotHeld { name: quote(name) });
        }
        // A layout that passes places every key as its map says: one without a rule would
        // place none, and one whose rule takes a class some bucket has no shadow id for, or
        // a bucket that is not there, would not build (the placement must never fall back
        // to another map).
        if !self.rule.iter().any(|s| matches!(s, LayoutStep::Emit)) {
            return Err(Problem::CrushSyntax {
                given: quote("rule:"),
            });
        }
        let mut devices: Vec<(i32, u32)> = held
            .iter()
            .filter_map(|n| Some((osd_number(n)?, 0x10000)))
            .collect();
        devices.sort_unstable();
        devices.dedup();
        self.build(&devices).map(|_| ()).map_err(|why| {
            let shown: String = why.trim_start_matches("crush: ").chars().take(60).collect();
            Problem::CrushSyntax {
                given: quote(&shown),
            }
        })
    }

    /// The device class of OSD `osd`, if it has one.
    pub fn class_of(&self, osd: &str) -> Option<&str> {
        let at = self
            .classes
            .binary_search_by(|(o, _)| o.as_str().cmp(osd))
            .ok()?;
        Some(&self.classes[at].1)
    }

    /// Gives OSD `osd` device class `class`.
    pub fn set_class(&mut self, osd: &str, class: &str) {
        match self.classes.binary_search_by(|(o, _)| o.as_str().cmp(osd)) {
            Ok(at) => self.classes[at].1 = class.to_owned(),
            Err(at) => self.classes.insert(at, (osd.to_owned(), class.to_owned())),
        }
    }

    /// The CRUSH map of the layout over the OSDs `devices` (id, weight in 16.16), those
    /// missing left out of their buckets, and the rule's steps.
    pub fn build<'a>(&'a self, devices: &[(i32, u32)]) -> Result<(CrushMap, Vec<Step>), String> {
        // Type ids by name, in order of first use (only their equality matters to CRUSH).
        let mut kinds: Vec<&'a str> = vec![DEVICE_TYPE];
        let mut kind_of = |name: &'a str| -> i32 {
            let at = kinds.iter().position(|k| *k == name).unwrap_or_else(|| {
                kinds.push(name);
                kinds.len() - 1
            });
            at as i32
        };
        let mut buckets: Vec<Bucket> = Vec::new();
        for layout in &self.buckets {
            let mut bucket = Bucket {
                id: layout.id,
                kind: kind_of(&layout.kind),
                items: Vec::new(),
                weights: Vec::new(),
            };
            for item in &layout.items {
                if let Some(osd) = osd_number(item) {
                    if let Ok(at) = devices.binary_search_by_key(&osd, |d| d.0) {
                        bucket.items.push(osd);
                        bucket.weights.push(devices[at].1);
                    }
                } else {
                    let child = self.built(item, &buckets).ok_or_else(|| {
                        format!("crush: {item} is not defined before {}", layout.name)
                    })?;
                    bucket.items.push(child.id);
                    bucket.weights.push(child.weight());
                }
            }
            buckets.push(bucket);
        }
        let mut steps = Vec::new();
        for step in &self.rule {
            steps.push(match step {
                LayoutStep::Take(item, class) => {
                    let id = match (osd_number(item), self.built(item, &buckets)) {
                        (Some(osd), _) => osd,
                        (None, Some(bucket)) => bucket.id,
                        (None, None) => {
                            return Err(format!("crush: the rule takes {item}, which is no bucket"))
                        }
                    };
                    match class {
                        Some(class) => Step::Take(self.shadow(id, class, &mut buckets)?),
                        None => Step::Take(id),
                    }
                }
                LayoutStep::Choose { count, kind, leaf } => Step::Choose {
                    count: *count,
                    kind: kind_of(kind),
                    leaf: *leaf,
                },
                LayoutStep::Emit => Step::Emit,
                LayoutStep::Set(name, n) => match *name {
                    "set_choose_tries" => Step::SetChooseTries(*n),
                    "set_chooseleaf_tries" => Step::SetChooseleafTries(*n),
                    "set_choose_local_tries" => Step::SetChooseLocalTries(*n),
                    "set_chooseleaf_vary_r" => Step::SetChooseleafVaryR(*n),
                    _ => Step::SetChooseleafStable(*n),
                },
            });
        }
        let max_devices = devices.last().map_or(0, |d| d.0 + 1);
        Ok((CrushMap::new(buckets, max_devices, self.tunables)?, steps))
    }

    /// The built bucket of the layout's bucket `name` (buckets are built in the layout's
    /// order, so the n-th built is the n-th in the layout).
    fn built<'b>(&self, name: &str, buckets: &'b [Bucket]) -> Option<&'b Bucket> {
        let at = self.buckets.iter().position(|b| b.name == name)?;
        buckets.get(at)
    }

    /// The shadow of bucket `id` for `class` (built once): the bucket holding only that
    /// class's OSDs and its children's shadows, weighed by what they hold, under the id the
    /// layout gives it — what `take:ROOT:CLASS` descends.
    fn shadow(&self, id: i32, class: &str, buckets: &mut Vec<Bucket>) -> Result<i32, String> {
        let layout = self
            .buckets
            .iter()
            .find(|b| b.id == id)
            .ok_or("crush: a class of no bucket")?;
        let shadow_id = layout
            .class_ids
            .iter()
            .find(|(c, _)| c == class)
            .map(|(_, id)| *id)
            .ok_or_else(|| {
                format!(
                    "crush: bucket {} has no id for class {class} (a map from crushtool -d has an `id N class {class}` line in each bucket)",
                    layout.name
                )
            })?;
        if buckets.iter().any(|b| b.id == shadow_id) {
            // Built already (a bucket under two class takes, or a second take).
            return Ok(shadow_id);
        }
        let original = buckets
            .iter()
            .find(|b| b.id == id)
            .cloned()
            .ok_or("crush: a class of no bucket")?;
        let mut shadow = Bucket {
            id: shadow_id,
            kind: original.kind,
            items: Vec::new(),
            weights: Vec::new(),
        };
        for (&item, &weight) in original.items.iter().zip(&original.weights) {
            if item >= 0 {
                if self.class_of(&format!("osd.{item}")) == Some(class) {
                    shadow.items.push(item);
                    shadow.weights.push(weight);
                }
            } else {
                let child = self.shadow(item, class, buckets)?;
                let weight = buckets
                    .iter()
                    .find(|b| b.id == child)
                    .map_or(0, Bucket::weight);
                shadow.items.push(child);
                shadow.weights.push(weight);
            }
        }
        buckets.push(shadow);
        Ok(shadow_id)
    }

    /// The layout with host `host` added under bucket `parent`, holding `osds` (name,
    /// weight, class): its id the lowest free, as `ceph osd crush add-bucket` gives it, then
    /// a shadow id for each device class the map has, in the classes' order, as Ceph's shadow
    /// trees get them.
    pub fn with_host(
        &self,
        host: &str,
        parent: &str,
        osds: &[(String, f64, Option<String>)],
    ) -> Result<CrushLayout, Problem> {
        let mut next = self.clone();
        if next.buckets.iter().any(|b| b.name == host) || osd_number(host).is_some() {
            return Err(Problem::ServerExists { name: quote(host) });
        }
        let at = next
            .buckets
            .iter()
            .position(|b| b.name == parent)
            .ok_or_else(|| Problem::CrushUnknownItem {
                item: quote(parent),
                bucket: quote(host),
            })?;
        for (name, _, class) in osds {
            if osd_number(name).is_none() {
                return Err(Problem::CrushNotHeld { name: quote(name) });
            }
            if let Some(class) = class {
                next.set_class(name, class);
            }
        }
        let mut used: Vec<i32> = next
            .buckets
            .iter()
            .flat_map(|b| std::iter::once(b.id).chain(b.class_ids.iter().map(|(_, id)| *id)))
            .collect();
        let mut free = || {
            let id = (1..)
                .map(|n: i32| -n)
                .find(|id| !used.contains(id))
                .unwrap_or(i32::MIN);
            used.push(id);
            id
        };
        let id = free();
        let mut classes: Vec<&String> = Vec::new();
        let mut by_osd: Vec<(i32, &String)> = next
            .classes
            .iter()
            .filter_map(|(osd, class)| Some((osd_number(osd)?, class)))
            .collect();
        by_osd.sort();
        for (_, class) in by_osd {
            if !classes.contains(&class) {
                classes.push(class);
            }
        }
        let class_ids = classes.iter().map(|c| ((*c).clone(), free())).collect();
        next.buckets[at].items.push(host.to_owned());
        next.buckets.insert(
            at,
            LayoutBucket {
                kind: "host".to_owned(),
                name: host.to_owned(),
                id,
                class_ids,
                items: osds.iter().map(|(n, _, _)| n.clone()).collect(),
            },
        );
        Ok(next)
    }

    /// The host an operator would add next, as a page's "Add host" adds it: named `name`
    /// (else the hosts' naming carried on: `node-c` → `node-d`, `host-3` → `host-4`), under
    /// the bucket that holds the last host (else the rule's first take), with as many OSDs
    /// as a host has on average, numbered on from the highest OSD in `taken` or the map, of
    /// weight 1 and the map's commonest device class. `None` when the map has no bucket to
    /// put it in.
    pub fn host_to_add(&self, name: &str, taken: &[&str]) -> Option<NewHost> {
        let hosts: Vec<&LayoutBucket> = self.buckets.iter().filter(|b| b.kind == "host").collect();
        let parent = match hosts.last() {
            Some(last) => self.buckets.iter().find(|b| b.items.contains(&last.name))?,
            None => self.buckets.iter().find(|b| {
                self.rule
                    .iter()
                    .any(|s| matches!(s, LayoutStep::Take(item, _) if *item == b.name))
            })?,
        };
        let names: Vec<&str> = self.buckets.iter().map(|b| b.name.as_str()).collect();
        let free = |n: &str| !names.contains(&n) && osd_number(n).is_none() && !n.is_empty();
        let name = Some(name.trim().to_owned())
            .filter(|n| free(n))
            .or_else(|| {
                let hosts: Vec<&str> = hosts.iter().map(|h| h.name.as_str()).collect();
                crate::text::next_numbered(&hosts)
                    .or_else(|| next_lettered(&hosts))
                    .filter(|n| free(n))
            })
            .or_else(|| (1..).map(|i| format!("host-{i}")).find(|n| free(n)))?;
        let osds_held =
            |b: &&LayoutBucket| b.items.iter().filter(|i| osd_number(i).is_some()).count();
        let count = match hosts.len() {
            0 => 1,
            n => ((hosts.iter().map(osds_held).sum::<usize>() + n / 2) / n).max(1),
        };
        let highest = (taken.iter().copied())
            .chain(
                self.buckets
                    .iter()
                    .flat_map(|b| b.items.iter().map(String::as_str)),
            )
            .filter_map(osd_number)
            .max()
            .unwrap_or(-1);
        let mut classes: Vec<(&str, usize)> = Vec::new();
        for (_, class) in &self.classes {
            match classes.iter_mut().find(|c| c.0 == class) {
                Some(c) => c.1 += 1,
                None => classes.push((class, 1)),
            }
        }
        let class = classes.iter().max_by_key(|c| c.1).map(|c| c.0.to_owned());
        let osds = (1..=count as i32)
            .map(|i| (format!("osd.{}", highest + i), 1.0, class.clone()))
            .collect();
        Some(NewHost {
            name,
            parent: parent.name.clone(),
            osds,
        })
    }

    /// The layout without host `host`, and the OSDs it held (which leave with it): its
    /// bucket gone from its parent's items, as `ceph osd crush remove HOST` leaves the map
    /// once its OSDs are purged.
    pub fn without_host(&self, host: &str) -> Result<(CrushLayout, Vec<String>), Problem> {
        let mut next = self.clone();
        let at = (next.buckets.iter())
            .position(|b| b.name == host && b.kind == "host")
            .ok_or_else(|| {
                let hosts = self.buckets.iter().filter(|b| b.kind == "host");
                Problem::NoSuchServer {
                    name: quote(host),
                    servers: hosts
                        .map(|b| b.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                }
            })?;
        let gone = next.buckets.remove(at);
        for bucket in &mut next.buckets {
            bucket.items.retain(|item| *item != gone.name);
        }
        next.classes.retain(|(osd, _)| !gone.items.contains(osd));
        Ok((next, gone.items))
    }

    /// The type the rule spreads copies over: its `chooseleaf`'s, else its last `choose`'s
    /// (`host` for a rule with neither).
    pub fn domain_kind(&self) -> &str {
        let chosen = self.rule.iter().filter_map(|s| match s {
            LayoutStep::Choose { kind, leaf, .. } => Some((kind.as_str(), *leaf)),
            _ => None,
        });
        let kind = chosen.fold(None, |found, (kind, leaf)| match found {
            Some((_, true)) => found,
            _ => Some((kind, leaf)),
        });
        kind.map_or("host", |(kind, _)| kind)
    }

    /// The bucket of `kind` an OSD sits in (its host, for `host`), if any.
    pub fn ancestor(&self, osd: &str, kind: &str) -> Option<&str> {
        let mut item = osd;
        loop {
            let parent = self
                .buckets
                .iter()
                .find(|b| b.items.iter().any(|i| i == item))?;
            if parent.kind == kind {
                return Some(&parent.name);
            }
            item = &parent.name;
        }
    }
}

fn parse_step(step: &str) -> Option<LayoutStep> {
    let words: Vec<&str> = step.split(':').collect();
    Some(match words.as_slice() {
        ["take", item] => LayoutStep::Take((*item).to_owned(), None),
        ["take", item, class] => LayoutStep::Take((*item).to_owned(), Some((*class).to_owned())),
        [op @ ("choose" | "chooseleaf"), count, kind] => LayoutStep::Choose {
            count: count.parse().ok()?,
            kind: (*kind).to_owned(),
            leaf: *op == "chooseleaf",
        },
        ["emit"] => LayoutStep::Emit,
        [set, n] => LayoutStep::Set(SETS.iter().find(|s| *s == set)?, n.parse().ok()?),
        _ => return None,
    })
}

fn parse_bucket(part: &str, classes: &mut Vec<(String, String)>) -> Option<LayoutBucket> {
    let (head, items) = part.strip_suffix(')')?.split_once('(')?;
    let fields: Vec<&str> = head.split(':').collect();
    let [kind, name, id, class_ids @ ..] = fields.as_slice() else {
        return None;
    };
    if class_ids.len() % 2 != 0 || kind.is_empty() || name.is_empty() {
        return None;
    }
    let mut bucket = LayoutBucket {
        kind: (*kind).to_owned(),
        name: (*name).to_owned(),
        id: id.parse().ok()?,
        class_ids: Vec::new(),
        items: Vec::new(),
    };
    for pair in class_ids.chunks(2) {
        bucket
            .class_ids
            .push((pair[0].to_owned(), pair[1].parse().ok()?));
    }
    for item in items.split(',').filter(|i| !i.is_empty()) {
        match item.split_once(':') {
            Some((osd, class)) if osd_number(osd).is_some() && !class.is_empty() => {
                classes.push((osd.to_owned(), class.to_owned()));
                bucket.items.push(osd.to_owned());
            }
            Some(_) => return None,
            None => bucket.items.push(item.to_owned()),
        }
    }
    Some(bucket)
}

impl fmt::Display for CrushLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.tunables;
        let mut parts = Vec::new();
        if t != Tunables::JEWEL {
            parts.push(format!(
                "tunables:{}.{}.{}.{}.{}",
                t.choose_local_tries,
                t.choose_total_tries,
                u8::from(t.chooseleaf_descend_once),
                t.chooseleaf_vary_r,
                u8::from(t.chooseleaf_stable)
            ));
        }
        let steps: Vec<String> = self
            .rule
            .iter()
            .map(|s| match s {
                LayoutStep::Take(item, None) => format!("take:{item}"),
                LayoutStep::Take(item, Some(class)) => format!("take:{item}:{class}"),
                LayoutStep::Choose { count, kind, leaf } => {
                    format!(
                        "{}:{count}:{kind}",
                        if *leaf { "chooseleaf" } else { "choose" }
                    )
                }
                LayoutStep::Emit => "emit".to_owned(),
                LayoutStep::Set(name, n) => format!("{name}:{n}"),
            })
            .collect();
        parts.push(format!("rule:{}", steps.join(",")));
        for b in &self.buckets {
            let mut head = format!("{}:{}:{}", b.kind, b.name, b.id);
            for (class, id) in &b.class_ids {
                head.push_str(&format!(":{class}:{id}"));
            }
            let items: Vec<String> = b
                .items
                .iter()
                .map(|i| match self.class_of(i) {
                    Some(class) => format!("{i}:{class}"),
                    None => i.clone(),
                })
                .collect();
            parts.push(format!("{head}({})", items.join(",")));
        }
        write!(f, "{}", parts.join(";"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A link's layout that could not place keys as a map says is refused when the scenario
    /// is checked, never placed by another map: no rule, a class without its shadow id, a
    /// take of no bucket.
    #[test]
    fn a_layout_that_would_not_build_is_refused_by_the_check() {
        let good = "rule:take:default,chooseleaf:0:host,emit;host:a:-2:hdd:-4(osd.0:hdd);host:b:-3:hdd:-5(osd.1:hdd);root:default:-1:hdd:-6(a,b)";
        let names = ["osd.0", "osd.1"];
        CrushLayout::parse(good).unwrap().check(&names).unwrap();
        for bad in [
            good.replace("rule:take:default,chooseleaf:0:host,emit;", ""),
            good.replace("take:default,", "take:default:ssd,"),
            good.replace("take:default,", "take:nowhere,"),
        ] {
            let layout = CrushLayout::parse(&bad).unwrap();
            assert!(
                matches!(layout.check(&names), Err(Problem::CrushSyntax { .. })),
                "{bad}"
            );
        }
    }

    /// "Add host" carries the hosts' naming on, puts the host where the last one is, with
    /// as many OSDs as a host has on average, numbered past every OSD, of the commonest
    /// class; a name typed is kept when free.
    #[test]
    fn the_host_to_add_is_like_the_others() {
        let three = "rule:take:default,chooseleaf:0:host,emit;host:node-a:-1:hdd:-5:ssd:-9(osd.0:hdd,osd.1:hdd,osd.2:ssd,osd.3:hdd);host:node-b:-2:hdd:-6:ssd:-10(osd.4:hdd,osd.5:ssd,osd.6:hdd);host:node-c:-3:hdd:-7:ssd:-11(osd.8:hdd,osd.9:ssd,osd.10:hdd,osd.11:hdd);root:default:-4:hdd:-8:ssd:-12(node-a,node-b,node-c)";
        let layout = CrushLayout::parse(three).unwrap();
        let host = layout.host_to_add("", &["osd.12"]).unwrap();
        assert_eq!(
            (host.name.as_str(), host.parent.as_str()),
            ("node-d", "default")
        );
        let hdd = Some("hdd".to_owned());
        let osds: Vec<_> = (13..17)
            .map(|n| (format!("osd.{n}"), 1.0, hdd.clone()))
            .collect();
        assert_eq!(host.osds, osds);
        // It is a host the layout takes.
        let with = layout
            .with_host(&host.name, &host.parent, &host.osds)
            .unwrap();
        assert_eq!(with.ancestor("osd.13", "host"), Some("node-d"));
        assert_eq!(
            layout.host_to_add(" storage-7 ", &[]).unwrap().name,
            "storage-7"
        );
        // A name taken, or an OSD's, is passed over for the next.
        assert_eq!(layout.host_to_add("node-a", &[]).unwrap().name, "node-d");
        assert_eq!(layout.host_to_add("osd.20", &[]).unwrap().name, "node-d");
        let racks = "rule:take:default,chooseleaf:0:host,emit;host:h1:-1(osd.0);host:h2:-2(osd.1);rack:r1:-3(h1,h2);host:h3:-4(osd.2);rack:r2:-5(h3);root:default:-6(r1,r2)";
        let host = CrushLayout::parse(racks)
            .unwrap()
            .host_to_add("", &[])
            .unwrap();
        assert_eq!((host.name.as_str(), host.parent.as_str()), ("h4", "r2"));
        assert_eq!(host.osds, vec![("osd.3".to_owned(), 1.0, None)]);
        assert_eq!(next_lettered(&["主机a", "主机b"]).as_deref(), Some("主机c"));
        assert_eq!(next_lettered(&["a", "z"]), None);
    }
}
