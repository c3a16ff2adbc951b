//! The scenario's one text form, shared by the command line (`--nodes A,B`) and the page's
//! URL query (`?nodes=A,B`): the same parameter names, the same value syntax, the same
//! validation and the same messages.
//!
//! | name   | value                                              | default           |
//! |--------|----------------------------------------------------|-------------------|
//! | algo   | ring, modn, rendezvous, carp, slots                | ring              |
//! | hash   | xxh3, murmur64a-seed, fnv-hutool, java-string, md5, crc16, identity | xxh3 |
//! | nodes  | comma-separated names; `NAME*W` gives weight W      | A,B,C,D           |
//! | vnodes | virtual nodes per server, 1..=1000                 | 10                |
//! | label  | vnode label template with `{node}` and `{i}`       | `{node}#{i}`      |
//! | keys   | `A..B`, `TEMPLATE:A..B`, `list:k1,k2`, `random:N`  | `key-{i}:0..1000` |
//! | seed   | 0..=2^64−1, for `random:` keys                     | 1                 |
//! | down   | comma-separated names of failed servers            | (none)            |

use std::fmt::Write;

use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};

use super::hash::HashFn;
use super::keys::KeySpec;
use super::placement::{weighted_vnodes, Algorithm, LabelTemplate};

/// The most servers a scenario may have.
pub const MAX_SERVERS: usize = 100;
/// The most virtual nodes per server (before weighting).
pub const MAX_VNODES: u32 = 1000;
/// The largest server weight.
pub const MAX_WEIGHT: f64 = 100.0;
/// The most vnodes on one ring, after weighting.
pub const MAX_TOTAL_VNODES: u64 = 1_000_000;
/// The longest server name.
pub const MAX_NAME_LEN: usize = 64;

/// The parameter names, in canonical order.
pub const PARAMS: [&str; 8] = [
    "algo", "hash", "nodes", "vnodes", "label", "keys", "seed", "down",
];

/// A server as the scenario describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerSpec {
    /// Unique name.
    pub name: String,
    /// Relative weight, in (0, 100].
    pub weight: f64,
}

/// A whole scenario: everything needed to build a simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Placement algorithm.
    pub algo: Algorithm,
    /// Hash for keys (and vnode labels, and rendezvous scores).
    pub hash: HashFn,
    /// Servers in list order.
    pub nodes: Vec<ServerSpec>,
    /// Virtual nodes per server of weight 1.
    pub vnodes: u32,
    /// Vnode label template.
    pub label: LabelTemplate,
    /// The keys.
    pub keys: KeySpec,
    /// Seed for `random:` keys.
    pub seed: u64,
    /// Names of failed servers.
    pub down: Vec<String>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            algo: Algorithm::Ring,
            hash: HashFn::Xxh3,
            nodes: ["A", "B", "C", "D"]
                .map(|n| ServerSpec {
                    name: n.into(),
                    weight: 1.0,
                })
                .to_vec(),
            vnodes: 10,
            label: LabelTemplate::default(),
            keys: KeySpec::parse("key-{i}:0..1000").expect("default key spec"),
            seed: 1,
            down: Vec::new(),
        }
    }
}

/// Checks a server name: 1..=64 characters, none of `,` `*` (the list syntax) or controls.
pub fn validate_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("server names must not be empty".into());
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(format!(
            "server name '{}…' is longer than {MAX_NAME_LEN} characters",
            name.chars().take(20).collect::<String>()
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| matches!(c, ',' | '*') || c.is_control())
    {
        return Err(format!(
            "server name '{name}' contains '{}', which is not allowed (',' separates servers, '*' gives a weight)",
            c.escape_default()
        ));
    }
    Ok(())
}

/// Parses a weight: a number in (0, 100].
pub fn parse_weight(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(w) if w > 0.0 && w <= MAX_WEIGHT => Ok(w),
        _ => Err(format!(
            "weight '{text}' must be a number above 0 and at most {MAX_WEIGHT}"
        )),
    }
}

/// Parses a vnode count: a whole number in 1..=1000.
pub fn parse_vnodes(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(v) if (1..=MAX_VNODES).contains(&v) => Ok(v),
        _ => Err(format!(
            "vnodes '{text}' must be a whole number from 1 to {MAX_VNODES}"
        )),
    }
}

fn parse_nodes(text: &str) -> Result<Vec<ServerSpec>, String> {
    let mut out: Vec<ServerSpec> = Vec::new();
    for item in text.split(',') {
        let (name, weight) = match item.rsplit_once('*') {
            Some((name, w)) => (name, parse_weight(w)?),
            None => (item, 1.0),
        };
        validate_name(name)?;
        if out.iter().any(|s| s.name == name) {
            return Err(format!(
                "server name '{name}' appears twice; names must be unique"
            ));
        }
        out.push(ServerSpec {
            name: name.to_owned(),
            weight,
        });
    }
    if out.len() > MAX_SERVERS {
        return Err(format!(
            "{} servers is more than the limit of {MAX_SERVERS}",
            out.len()
        ));
    }
    Ok(out)
}

impl Scenario {
    /// Builds a scenario from `name=value` pairs over the defaults. Unknown names, repeated
    /// names and bad values are errors that say what is allowed.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Scenario, String> {
        let mut s = Scenario::default();
        let mut seen: Vec<&str> = Vec::new();
        for (name, value) in pairs {
            if seen.contains(&name) {
                return Err(format!("'{name}' is given twice"));
            }
            seen.push(name);
            match name {
                "algo" => {
                    s.algo = Algorithm::from_name(value).ok_or_else(|| {
                        format!(
                            "unknown algorithm '{value}'; choose one of {}",
                            Algorithm::names()
                        )
                    })?
                }
                "hash" => {
                    s.hash = HashFn::from_name(value).ok_or_else(|| {
                        format!("unknown hash '{value}'; choose one of {}", HashFn::names())
                    })?
                }
                "nodes" => s.nodes = parse_nodes(value)?,
                "vnodes" => s.vnodes = parse_vnodes(value)?,
                "label" => s.label = LabelTemplate::parse(value)?,
                "keys" => s.keys = KeySpec::parse(value).map_err(|e| e.to_string())?,
                "seed" => {
                    s.seed = value.trim().parse().map_err(|_| {
                        format!(
                            "seed '{value}' must be a whole number from 0 to {}",
                            u64::MAX
                        )
                    })?
                }
                "down" => {
                    s.down = value
                        .split(',')
                        .filter(|n| !n.is_empty())
                        .map(str::to_owned)
                        .collect()
                }
                other => {
                    return Err(format!(
                        "unknown parameter '{other}'; known: {}",
                        PARAMS.join(", ")
                    ))
                }
            }
        }
        s.validate()?;
        Ok(s)
    }

    /// Checks the rules that involve more than one parameter.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(d) = self
            .down
            .iter()
            .find(|d| !self.nodes.iter().any(|n| &n.name == *d))
        {
            return Err(format!("down: '{d}' is not one of the servers"));
        }
        if self.hash == HashFn::Identity && self.algo == Algorithm::Rendezvous {
            return Err(
                "rendezvous hashes server+key strings, which the identity hash cannot; pick another hash".into(),
            );
        }
        if self.algo == Algorithm::Ring {
            let total: u64 = self
                .nodes
                .iter()
                .map(|n| u64::from(weighted_vnodes(self.vnodes, n.weight)))
                .sum();
            if total > MAX_TOTAL_VNODES {
                return Err(format!(
                    "{total} virtual nodes in all is more than the limit of {MAX_TOTAL_VNODES}; lower vnodes or weights"
                ));
            }
            let many = self
                .nodes
                .iter()
                .any(|n| weighted_vnodes(self.vnodes, n.weight) > 1);
            if many && !self.label.has_index() {
                return Err(format!(
                    "label '{}' has no {{i}}, so all vnodes of a server would land on one spot; add {{i}} or use vnodes=1",
                    self.label.as_str()
                ));
            }
        }
        Ok(())
    }

    /// The canonical query string (without `?`), listing only what differs from the
    /// defaults, so that shared links stay short.
    pub fn to_query(&self) -> String {
        let d = Scenario::default();
        let mut out = String::new();
        let mut put = |name: &str, value: &str| {
            if !out.is_empty() {
                out.push('&');
            }
            let _ = write!(out, "{name}={}", utf8_percent_encode(value, QUERY_VALUE));
        };
        if self.algo != d.algo {
            put("algo", self.algo.name());
        }
        if self.hash != d.hash {
            put("hash", self.hash.name());
        }
        if self.nodes != d.nodes {
            put("nodes", &nodes_text(&self.nodes));
        }
        if self.vnodes != d.vnodes {
            put("vnodes", &self.vnodes.to_string());
        }
        if self.label != d.label {
            put("label", self.label.as_str());
        }
        if self.keys != d.keys {
            put("keys", &self.keys.to_string());
        }
        if self.seed != d.seed {
            put("seed", &self.seed.to_string());
        }
        if !self.down.is_empty() {
            put("down", &self.down.join(","));
        }
        out
    }
}

/// `A,B*2,C`: the `nodes` value for a server list.
pub fn nodes_text(nodes: &[ServerSpec]) -> String {
    nodes
        .iter()
        .map(|n| {
            if n.weight == 1.0 {
                n.name.clone()
            } else {
                format!("{}*{}", n.name, n.weight)
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Characters escaped in query values: what would end or confuse a query parameter.
const QUERY_VALUE: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'&')
    .add(b'+')
    .add(b'<')
    .add(b'>')
    .add(b'=')
    .add(b'`')
    .add(b'?')
    .add(b'[')
    .add(b']')
    .add(b'\\')
    .add(b'^')
    .add(b'|');

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_need_no_query() {
        assert_eq!(Scenario::default().to_query(), "");
        assert_eq!(Scenario::from_pairs([]).unwrap(), Scenario::default());
    }

    #[test]
    fn query_round_trips() {
        let s = Scenario::from_pairs([
            ("algo", "slots"),
            ("nodes", "127.1.1.1#A,B*2.5"),
            ("keys", "list:x,y"),
            ("down", "B"),
        ])
        .unwrap();
        let q = s.to_query();
        assert_eq!(
            q,
            "algo=slots&nodes=127.1.1.1%23A,B*2.5&keys=list:x,y&down=B"
        );
        let pairs: Vec<(String, String)> = q
            .split('&')
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap();
                (
                    k.to_owned(),
                    percent_encoding::percent_decode_str(v)
                        .decode_utf8()
                        .unwrap()
                        .into_owned(),
                )
            })
            .collect();
        let again =
            Scenario::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap();
        assert_eq!(again, s);
    }

    #[test]
    fn bad_values_say_what_is_allowed() {
        for (pairs, needle) in [
            (vec![("algo", "maglev")], "choose one of ring, modn"),
            (vec![("hash", "sha1")], "choose one of xxh3"),
            (vec![("nodes", "A,,B")], "must not be empty"),
            (vec![("nodes", "A,A")], "appears twice"),
            (vec![("nodes", "A*0")], "above 0"),
            (vec![("vnodes", "0")], "from 1 to 1000"),
            (vec![("vnodes", "1001")], "from 1 to 1000"),
            (vec![("label", "{i}")], "must contain {node}"),
            (vec![("label", "{node}")], "has no {i}"),
            (vec![("down", "Z")], "not one of the servers"),
            (vec![("seed", "-1")], "whole number"),
            (vec![("colour", "red")], "unknown parameter"),
            (vec![("algo", "ring"), ("algo", "modn")], "twice"),
            (
                vec![("algo", "rendezvous"), ("hash", "identity")],
                "identity",
            ),
        ] {
            let err = Scenario::from_pairs(pairs.clone()).unwrap_err();
            assert!(err.contains(needle), "{pairs:?}: {err}");
        }
    }
}
