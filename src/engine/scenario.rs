//! The scenario's one text form, shared by the command line (`--nodes A,B`) and the page's
//! URL query (`?nodes=A,B`): the same parameter names, the same value syntax, the same
//! validation and the same messages.
//!
//! | name   | value                                              | default           |
//! |--------|----------------------------------------------------|-------------------|
//! | algo   | ring, modn, rendezvous, carp, slots, jump, multiprobe, maglev, bounded, anchor, memento, dx, jumpback, binomial, flip, power, guava, nginx, ketama, haproxy, envoy-ring, cassandra, envoy-maglev, groupcache, ingress-nginx, twemproxy, ceph | ring |
//! | hash   | xxh3, murmur64a-seed, fnv-hutool, java-string, md5, crc16, identity | xxh3 |
//! | nodes  | comma-separated names; `NAME*W` gives weight W      | A,B,C,D           |
//! | vnodes | virtual nodes per server, 1..=1000                 | 10                |
//! | label  | vnode label template with `{node}` and `{i}`       | `{node}#{i}`      |
//! | keys   | `A..B`, `TEMPLATE:A..B`, `list:k1,k2`, `random:N`  | `key-{i}:0..1000` |
//! | seed   | 0..=2^64−1, for `random:` keys                     | 1                 |
//! | down   | comma-separated names of failed servers            | (none)            |
//! | slotmap | `slots`: each server's slot ranges `A-B` joined by `+`, servers by `,` | dealt as `redis-cli` does |
//! | tokens | `cassandra`: each server's tokens joined by `+`, servers by `,` (empty: drawn) | drawn from name and seed |
//! | crush | `ceph`: the cluster's CRUSH hierarchy, rule and tunables (`rule:…;TYPE:NAME:ID(ITEM,…);…`, [`CrushLayout`]) | the flat map: every OSD under one root |

use std::fmt::Write;
use std::rc::Rc;

use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};

use super::algorithms::{Algorithm, LabelTemplate};
use super::hash::HashFn;
use super::keys::KeySpec;
use crate::text::{first_combining_mark, first_hidden, parse_decimal, quote, Shortest};

/// The most servers a scenario may have.
pub const MAX_SERVERS: usize = 10_000;
/// The most virtual nodes per server (before weighting).
pub const MAX_VNODES: u32 = 1000;
/// The largest server weight.
pub const MAX_WEIGHT: f64 = 100.0;
/// The most vnodes on one ring, after weighting.
pub use super::algorithms::ring::MAX_TOTAL_VNODES;
use super::crush::layout::CrushLayout;
use super::pace::{run_to_end, Pace};
use super::slots::SlotMap;
use super::spec::{Check, Memory, Params};
use super::tokens::TokenMap;
use crate::problem::{Field, Problem};
/// The longest server name.
pub const MAX_NAME_LEN: usize = 64;

/// The parameter names, in canonical order.
pub const PARAMS: [&str; 15] = [
    "algo", "hash", "nodes", "vnodes", "label", "keys", "seed", "down", "probes", "table", "c",
    "slotmap", "tokens", "pg_num", "crush",
];

/// Bounded loads' default balance factor `c` (capacity `⌈c · keys / servers⌉`).
pub const DEFAULT_BALANCE: f64 = 1.25;
/// The largest balance factor accepted.
pub const MAX_BALANCE: f64 = 10.0;

/// A server as the scenario describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerSpec {
    /// Unique name.
    pub name: String,
    /// Relative weight, in (0, 100].
    pub weight: f64,
    /// False for a failed server (listed in `down`).
    pub up: bool,
}

impl ServerSpec {
    /// A live server of weight 1.
    pub fn named(name: impl Into<String>) -> ServerSpec {
        ServerSpec {
            name: name.into(),
            weight: 1.0,
            up: true,
        }
    }
}

/// Everything about a scenario except its servers: how keys are named, hashed and placed.
/// The one owner of these fields — the simulation keeps a `Settings` as it is, so a new
/// parameter is added here and nowhere else.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Placement algorithm.
    pub algo: Algorithm,
    /// Hash for keys (and vnode labels, and rendezvous scores).
    pub hash: HashFn,
    /// Virtual nodes per server of weight 1.
    pub vnodes: u32,
    /// Vnode label template.
    pub label: LabelTemplate,
    /// The keys.
    pub keys: KeySpec,
    /// Seed for `random:` keys.
    pub seed: u64,
    /// Multi-probe: probes per key.
    pub probes: u32,
    /// Maglev: the lookup table's size M (a prime).
    pub table: u32,
    /// Ceph: the pool's placement groups, `pg_num` (Ceph's own parameter, with Ceph's
    /// default: never Maglev's table, which `compare` runs beside it).
    pub pg_num: u32,
    /// Bounded loads: the balance factor `c`, 1 to 10.
    pub c: f64,
    /// Ceph: the cluster's CRUSH hierarchy (hosts, racks, the pool's rule), when it is not
    /// the flat map (every OSD under one root).
    pub crush: Option<Rc<CrushLayout>>,
}

impl Settings {
    /// The settings a placement is built from.
    pub fn params(&self) -> Params<'_> {
        Params {
            hash: self.hash,
            vnodes: self.vnodes,
            label: &self.label,
            probes: self.probes,
            table: self.table,
            pg_num: self.pg_num,
            c: self.c,
            key_count: self.keys.len(),
            seed: self.seed,
            crush: self.crush.as_deref(),
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            algo: Algorithm::RING,
            hash: HashFn::Xxh3,
            vnodes: 10,
            label: LabelTemplate::default(),
            keys: KeySpec::parse("key-{i}:0..1000")
                .unwrap_or_else(|e| panic!("default key spec: {e}")),
            seed: 1,
            probes: super::algorithms::multiprobe::DEFAULT_PROBES,
            table: super::algorithms::maglev::PAGE_TABLE,
            pg_num: super::algorithms::ceph::DEFAULT_PG_NUM,
            c: DEFAULT_BALANCE,
            crush: None,
        }
    }
}

/// A whole scenario: everything needed to build a simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Algorithm, hash, vnodes, label, keys and seed.
    pub settings: Settings,
    /// Servers in list order.
    pub nodes: Vec<ServerSpec>,
    /// Redis Cluster's slot table, when it is not the one `redis-cli --cluster create`
    /// would deal to these servers (a real cluster's, or one that changes rebalanced).
    pub slots: Option<SlotMap>,
    /// A Cassandra cluster's own tokens (`nodetool ring`'s), by place in the server list.
    pub tokens: Option<TokenMap>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            settings: Settings::default(),
            nodes: ["A", "B", "C", "D"].map(ServerSpec::named).to_vec(),
            slots: None,
            tokens: None,
        }
    }
}

/// Everything wrong with a scenario's parameters, one message each.
#[derive(Debug, PartialEq)]
pub struct ScenarioError(pub Vec<Problem>);

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioError {}

impl From<ScenarioError> for String {
    fn from(e: ScenarioError) -> String {
        e.to_string()
    }
}

/// Checks and tidies a server name: surrounding spaces are trimmed; 1..=64 characters,
/// none of `,` `*` (the list syntax), no control or invisible characters.
pub fn validate_name(name: &str) -> Result<String, Problem> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Problem::EmptyName);
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(Problem::NameTooLong {
            name: quote(name),
            max: MAX_NAME_LEN,
        });
    }
    if let Some(hidden) = first_hidden(name) {
        return Err(Problem::NameHidden {
            name: quote(name),
            hidden,
        });
    }
    if name.contains('\u{FFFD}') {
        return Err(Problem::NameNotUtf8 { name: quote(name) });
    }
    if let Some(mark) = first_combining_mark(name) {
        return Err(Problem::NameCombining {
            name: quote(name),
            mark,
        });
    }
    if let Some(character) = name.chars().find(|c| matches!(c, ',' | '*')) {
        return Err(Problem::NameReserved {
            name: quote(name),
            character,
        });
    }
    Ok(name.to_owned())
}

/// Parses a weight: a number in (0, 100].
pub fn parse_weight(text: &str) -> Result<f64, Problem> {
    let Some(w) = parse_decimal(text.trim()) else {
        return Err(Problem::WeightNotNumber {
            given: quote(text),
            max: MAX_WEIGHT,
        });
    };
    weight_in_range(w, || text.to_owned())
}

/// `weight` when it is in (0, 100]; else what is wrong, quoting it as `given` writes it.
fn weight_in_range(weight: f64, given: impl FnOnce() -> String) -> Result<f64, Problem> {
    if weight > 0.0 && weight <= MAX_WEIGHT {
        Ok(weight)
    } else {
        Err(Problem::WeightOutOfRange {
            given: quote(&given()),
            max: MAX_WEIGHT,
        })
    }
}

/// Parses a vnode count: a whole number in 1..=1000.
pub fn parse_vnodes(text: &str) -> Result<u32, Problem> {
    match text.trim().parse::<u32>() {
        Ok(v) if (1..=MAX_VNODES).contains(&v) => Ok(v),
        Ok(_) => Err(Problem::VnodesOutOfRange {
            given: quote(text),
            max: MAX_VNODES,
        }),
        // A whole number too large for u32 is out of range, not "not a whole number".
        Err(_) if text.trim().bytes().all(|b| b.is_ascii_digit()) && !text.trim().is_empty() => {
            Err(Problem::VnodesOutOfRange {
                given: quote(text),
                max: MAX_VNODES,
            })
        }
        Err(_) => Err(Problem::VnodesNotNumber {
            given: quote(text),
            max: MAX_VNODES,
        }),
    }
}

/// The comma-separated server items of `text`, with each `NAME{i}:A..B` item (a name
/// template and a range, as key specs write them) expanded to the names for `i` in
/// `A..B` — how a cluster of thousands of servers is written.
fn expand_node_ranges(text: &str) -> Result<Vec<String>, Problem> {
    let mut out = Vec::new();
    for item in text.split(',') {
        // A list longer than any cluster is refused here, before it is all copied.
        if out.len() > MAX_SERVERS {
            return Err(Problem::TooManyServers { limit: MAX_SERVERS });
        }
        let Some((template, range)) = item.rsplit_once(':').filter(|(t, _)| t.contains("{i}"))
        else {
            out.push(item.to_owned());
            continue;
        };
        let bad = || Problem::NodesItem { given: quote(item) };
        let (a, b) = range.split_once("..").ok_or_else(bad)?;
        let (a, b): (usize, usize) = (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        );
        if b <= a {
            return Err(Problem::NodesEmptyRange { given: quote(item) });
        }
        if b - a > MAX_SERVERS {
            return Err(Problem::TooManyServers { limit: MAX_SERVERS });
        }
        // One name is checked before thousands are made: a long template (a link can carry a
        // megabyte) expanded 10,000 times would take gigabytes before any name's length is
        // looked at. The widest number makes the longest name; a template that passes here
        // makes names of at most 64 characters (plus a weight) for every `i`.
        check_server_item(&template.replace("{i}", &(b - 1).to_string()))?;
        out.extend((a..b).map(|i| template.replace("{i}", &i.to_string())));
    }
    Ok(out)
}

/// Parses multi-probe's probes per key: 1 to 256.
pub fn parse_probes(text: &str) -> Result<u32, Problem> {
    use super::algorithms::multiprobe::MAX_PROBES;
    match text.trim().parse::<u32>() {
        Ok(v) if (1..=MAX_PROBES).contains(&v) => Ok(v),
        _ => Err(Problem::ProbesOutOfRange {
            given: quote(text),
            max: MAX_PROBES,
        }),
    }
}

/// Parses Maglev's table size M: a whole number up to 1,000,003 (Maglev's check asks for a
/// prime).
pub fn parse_table(text: &str) -> Result<u32, Problem> {
    use super::algorithms::maglev::MAX_TABLE;
    match text.trim().parse::<u32>() {
        Ok(size @ 1..=MAX_TABLE) => Ok(size),
        _ => Err(Problem::TableOutOfRange {
            given: quote(text),
            max: MAX_TABLE,
        }),
    }
}

/// Parses a Ceph pool's `pg_num`: a whole number from 1 up to 1,000,003 (any, not only a
/// power of two: `ceph_stable_mod` folds the groups above the last power of two).
pub fn parse_pg_num(text: &str) -> Result<u32, Problem> {
    use super::algorithms::ceph::MAX_PG_NUM;
    match text.trim().parse::<u32>() {
        Ok(size @ 1..=MAX_PG_NUM) => Ok(size),
        _ => Err(Problem::PgNumOutOfRange {
            given: quote(text),
            max: MAX_PG_NUM,
        }),
    }
}

/// Parses bounded loads' balance factor `c`: a number from 1 to 10.
pub fn parse_balance(text: &str) -> Result<f64, Problem> {
    match parse_decimal(text.trim()) {
        Some(c) if (1.0..=MAX_BALANCE).contains(&c) => Ok(c),
        _ => Err(Problem::BalanceOutOfRange {
            given: quote(text),
            max: MAX_BALANCE,
        }),
    }
}

/// Parses a seed: a whole number in 0..=2^64−1.
pub fn parse_seed(text: &str) -> Result<u64, Problem> {
    text.trim()
        .parse()
        .map_err(|_| Problem::SeedOutOfRange { given: quote(text) })
}

/// Parses an algorithm name.
pub fn parse_algorithm(text: &str) -> Result<Algorithm, Problem> {
    Algorithm::from_name(text.trim()).ok_or_else(|| Problem::UnknownAlgorithm {
        given: quote(text),
        choices: Algorithm::names(),
    })
}

/// Parses a hash name.
pub fn parse_hash(text: &str) -> Result<HashFn, Problem> {
    HashFn::from_name(text.trim()).ok_or_else(|| Problem::UnknownHash {
        given: quote(text),
        choices: HashFn::names(),
    })
}

/// Splits a comma-separated list of names, trimming each, and rejects repeats.
fn name_list(text: &str, field: Field) -> Result<Vec<String>, Problem> {
    let mut out: Vec<String> = Vec::new();
    for item in text.split(',') {
        let name = validate_name(item).map_err(|e| e.of(field))?;
        if out.contains(&name) {
            return Err(Problem::NameTwice { name: quote(&name) }.of(field));
        }
        out.push(name);
    }
    Ok(out)
}

/// One `NAME` or `NAME*W` item of a server list, checked.
fn check_server_item(item: &str) -> Result<ServerSpec, Problem> {
    let (name, weight) = match item.rsplit_once('*') {
        Some((name, w)) => (name, parse_weight(w)?),
        None => (item, 1.0),
    };
    Ok(ServerSpec {
        name: validate_name(name)?,
        weight,
        up: true,
    })
}

/// The server list: empty (or blank) means no servers, the list a page writes after every
/// server was removed — one rule for the URL, scenario files and the command line.
fn parse_nodes(text: &str) -> Result<Vec<ServerSpec>, Problem> {
    let mut out: Vec<ServerSpec> = Vec::new();
    if text.trim().is_empty() {
        return Ok(out);
    }
    for item in expand_node_ranges(text)? {
        out.push(check_server_item(&item)?);
        if out.len() > MAX_SERVERS {
            return Err(Problem::TooManyServers { limit: MAX_SERVERS });
        }
    }
    no_name_twice(&out)?;
    Ok(out)
}

/// Checks a server list made without text (a config's, read into types) as [`parse_nodes`]
/// checks one written out: at most [`MAX_SERVERS`], each name allowed, each weight in
/// (0, 100], no name twice.
pub fn check_servers(servers: &[ServerSpec]) -> Result<(), Problem> {
    if servers.len() > MAX_SERVERS {
        return Err(Problem::TooManyServers { limit: MAX_SERVERS });
    }
    for server in servers {
        validate_name(&server.name)?;
        weight_in_range(server.weight, || Shortest(server.weight).to_string())?;
    }
    no_name_twice(servers)
}

fn no_name_twice(servers: &[ServerSpec]) -> Result<(), Problem> {
    let names: Vec<&str> = servers.iter().map(|s| s.name.as_str()).collect();
    match super::order::first_repeats(&names).first() {
        Some(&twice) => Err(Problem::NameTwice {
            name: quote(names[twice]),
        }),
        None => Ok(()),
    }
}

/// Every `name` that appears more than once among `pairs`, as one message each.
pub fn repeated_names<'a>(pairs: impl IntoIterator<Item = &'a str>) -> Vec<Problem> {
    // A sort, not pairwise checks: a hostile file can name 100,000 fields.
    let names: Vec<&str> = pairs.into_iter().collect();
    super::order::first_repeats(&names)
        .into_iter()
        .map(|i| Problem::RepeatedParameter {
            name: format!("'{}'", names[i]),
        })
        .collect()
}

impl Scenario {
    /// Builds a scenario from `name=value` pairs over the defaults. Unknown names, repeated
    /// names and bad values are errors that say what is allowed — all of them, not just
    /// the first.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Scenario, ScenarioError> {
        let pairs: Vec<(&str, &str)> = pairs.into_iter().collect();
        run_to_end(Scenario::from_pairs_paced(&pairs, &mut Pace::unlimited()))
    }

    /// [`Scenario::from_pairs`] at `pace`: a file's million tokens or keys are read, and
    /// the tokens checked, in steps by the page.
    pub async fn from_pairs_paced(
        pairs: &[(&str, &str)],
        pace: &mut Pace,
    ) -> Result<Scenario, ScenarioError> {
        let mut errors = repeated_names(pairs.iter().map(|p| p.0));
        let mut s = Scenario::default();
        let mut down: Option<&str> = None;
        for &(name, value) in pairs {
            let result = match name {
                "algo" => parse_algorithm(value).map(|a| s.settings.algo = a),
                "hash" => parse_hash(value).map(|h| s.settings.hash = h),
                "nodes" => parse_nodes(value).map(|n| s.nodes = n),
                "vnodes" => parse_vnodes(value).map(|v| s.settings.vnodes = v),
                "label" => LabelTemplate::parse(value).map(|l| s.settings.label = l),
                "keys" => KeySpec::parse_paced(value, pace)
                    .await
                    .map(|k| s.settings.keys = k),
                "seed" => parse_seed(value).map(|v| s.settings.seed = v),
                "probes" => parse_probes(value).map(|v| s.settings.probes = v),
                "table" => parse_table(value).map(|v| s.settings.table = v),
                "pg_num" => parse_pg_num(value).map(|v| s.settings.pg_num = v),
                "c" => parse_balance(value).map(|v| s.settings.c = v),
                "slotmap" if value.trim().is_empty() => Ok(()),
                "slotmap" => SlotMap::parse(value).map(|m| s.slots = Some(m)),
                "crush" if value.trim().is_empty() => Ok(()),
                "crush" => CrushLayout::parse(value).map(|l| s.settings.crush = Some(Rc::new(l))),
                "tokens" if value.trim().is_empty() => Ok(()),
                "tokens" => TokenMap::parse_paced(value, pace)
                    .await
                    .map(|m| s.tokens = Some(m)),
                "down" => {
                    down = Some(value);
                    Ok(())
                }
                other => Err(Problem::UnknownParameter {
                    given: quote(other),
                    known: PARAMS.join(", "),
                }),
            };
            if let Err(e) = result {
                errors.push(e);
            }
        }
        // `down` names servers, so it is read after `nodes`, wherever it stands.
        if let Some(value) = down {
            match s.set_down(value) {
                Ok((_, unknown)) => errors.extend(unknown),
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            if let Err(e) = s.validate_paced(pace).await {
                errors.push(e);
            }
        }
        if errors.is_empty() {
            Ok(s)
        } else {
            Err(ScenarioError(crate::problem::capped(errors)))
        }
    }

    /// Marks the servers `names` lists (as the `down` parameter writes them) down, over
    /// what a system's config already said — a CRUSH map cannot say an OSD is out (that is
    /// the OSD map's), so the command line's `--down` says it after `--config`. Returns the
    /// names the scenario already had down; a name that is no server is refused, and the
    /// algorithm's own check runs again (every server down is allowed: nothing owns a key).
    pub fn mark_down(&mut self, names: &str) -> Result<Vec<String>, Problem> {
        let (already, unknown) = self.set_down(names)?;
        if let Some(problem) = unknown.into_iter().next() {
            return Err(problem);
        }
        self.validate()?;
        Ok(already)
    }

    /// Sets down every server `names` lists (the `down` parameter's form; blank lists
    /// none): the names that were down already, and a problem for each name that is no
    /// server. The link's `down` and [`Scenario::mark_down`] both read names this way.
    fn set_down(&mut self, names: &str) -> Result<(Vec<String>, Vec<Problem>), Problem> {
        let (mut already, mut unknown) = (Vec::new(), Vec::new());
        if names.trim().is_empty() {
            return Ok((already, unknown));
        }
        for name in name_list(names, Field::Down)? {
            match self.nodes.iter_mut().find(|n| n.name == name) {
                Some(n) if !n.up => already.push(name),
                Some(n) => n.up = false,
                None => unknown.push(Problem::DownNotServer { name: quote(&name) }),
            }
        }
        Ok((already, unknown))
    }

    /// Checks the rules that involve more than one parameter: the algorithm's own (its
    /// registry entry's check).
    pub fn validate(&self) -> Result<(), Problem> {
        run_to_end(self.validate_paced(&mut Pace::unlimited()))
    }

    /// [`Scenario::validate`] at `pace` (given tokens are checked in steps).
    async fn validate_paced(&self, pace: &mut Pace) -> Result<(), Problem> {
        // Only a scenario with a given table or tokens needs its names listed (a change
        // validates the scenario it makes).
        let names = || -> Vec<&str> { self.nodes.iter().map(|n| n.name.as_str()).collect() };
        if let Some(map) = &self.slots {
            if self.settings.algo.spec().memory != Memory::SlotTable {
                return Err(Problem::NeedsAlgo {
                    param: "slotmap",
                    algo: "slots",
                });
            }
            map.owners(&names())?;
        }
        if let Some(layout) = &self.settings.crush {
            if self.settings.algo.name() != "ceph" {
                return Err(Problem::NeedsAlgo {
                    param: "crush",
                    algo: "ceph",
                });
            }
            layout.check(&names())?;
        }
        if let Some(map) = &self.tokens {
            if self.settings.algo.spec().memory != Memory::Tokens {
                return Err(Problem::NeedsAlgo {
                    param: "tokens",
                    algo: "cassandra",
                });
            }
            map.check_paced(&names(), MAX_TOTAL_VNODES as usize, pace)
                .await?;
        }
        let servers: Vec<(&str, f64)> = self
            .nodes
            .iter()
            .map(|n| (n.name.as_str(), n.weight))
            .collect();
        (self.settings.algo.spec().check)(&Check {
            system: self.settings.algo.spec().id,
            params: self.settings.params(),
            servers: &servers,
        })
    }

    /// Every parameter with its value, defaults included (for a scenario file, which
    /// should read the same whatever the defaults become).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let s = &self.settings;
        vec![
            ("algo", s.algo.name().to_owned()),
            ("hash", s.hash.name().to_owned()),
            ("nodes", nodes_text(&self.nodes)),
            ("down", self.down_text()),
            ("vnodes", s.vnodes.to_string()),
            ("label", s.label.as_str().to_owned()),
            ("keys", s.keys.to_string()),
            ("seed", s.seed.to_string()),
            ("probes", s.probes.to_string()),
            ("table", s.table.to_string()),
            ("pg_num", s.pg_num.to_string()),
            ("c", Shortest(s.c).to_string()),
            (
                "slotmap",
                self.slots
                    .as_ref()
                    .map_or_else(String::new, ToString::to_string),
            ),
            (
                "tokens",
                self.tokens
                    .as_ref()
                    .map_or_else(String::new, ToString::to_string),
            ),
            (
                "crush",
                s.crush
                    .as_ref()
                    .map_or_else(String::new, ToString::to_string),
            ),
        ]
    }

    /// The canonical query string (without `?`), listing only what differs from the
    /// defaults, so that shared links stay short.
    pub fn to_query(&self) -> String {
        self.to_query_within(usize::MAX).unwrap_or_default()
    }

    /// [`Scenario::to_query`], or None as soon as it would pass `limit` bytes: a link
    /// longer than a browser opens is not written out (a million tokens made 9.8 MB at
    /// every load, to be thrown away).
    pub fn to_query_within(&self, limit: usize) -> Option<String> {
        let mut out = Capped {
            text: String::new(),
            limit,
        };
        self.write_query(&mut out).ok()?;
        Some(out.text)
    }

    fn write_query(&self, out: &mut Capped) -> std::fmt::Result {
        let d = Scenario::default();
        let (s, ds) = (&self.settings, &d.settings);
        let mut started = false;
        // `name=` (after `&` from the second on).
        let mut name_of = |out: &mut Capped, name: &str| {
            let amp = if started { "&" } else { "" };
            started = true;
            write!(out, "{amp}{name}=")
        };
        let mut put = |out: &mut Capped, name: &str, value: &str| {
            name_of(out, name)?;
            write!(out, "{}", utf8_percent_encode(value, QUERY_VALUE))
        };
        if s.algo != ds.algo {
            put(out, "algo", s.algo.name())?;
        }
        if s.hash != ds.hash {
            put(out, "hash", s.hash.name())?;
        }
        if self
            .nodes
            .iter()
            .map(|n| (&n.name, n.weight))
            .ne(d.nodes.iter().map(|n| (&n.name, n.weight)))
        {
            put(out, "nodes", &nodes_text(&self.nodes))?;
        }
        if s.vnodes != ds.vnodes {
            put(out, "vnodes", &s.vnodes.to_string())?;
        }
        if s.label != ds.label {
            put(out, "label", s.label.as_str())?;
        }
        if s.keys != ds.keys {
            match &s.keys {
                // A list is written a key at a time (a million keys stop at the limit).
                KeySpec::List(keys) => {
                    put(out, "keys", "list:")?;
                    for (i, key) in keys.iter().enumerate() {
                        let comma = if i > 0 { "," } else { "" };
                        write!(out, "{comma}{}", utf8_percent_encode(key, QUERY_VALUE))?;
                    }
                }
                other => put(out, "keys", &other.to_string())?,
            }
        }
        if s.seed != ds.seed {
            put(out, "seed", &s.seed.to_string())?;
        }
        if s.probes != ds.probes {
            put(out, "probes", &s.probes.to_string())?;
        }
        if s.table != ds.table {
            put(out, "table", &s.table.to_string())?;
        }
        if s.pg_num != ds.pg_num {
            put(out, "pg_num", &s.pg_num.to_string())?;
        }
        if s.c != ds.c {
            put(out, "c", &Shortest(s.c).to_string())?;
        }
        let down = self.down_text();
        if !down.is_empty() {
            put(out, "down", &down)?;
        }
        if let Some(map) = &self.slots {
            put(out, "slotmap", &map.to_string())?;
        }
        if let Some(layout) = &s.crush {
            put(out, "crush", &layout.to_string())?;
        }
        if let Some(map) = &self.tokens {
            // A server's tokens at a time.
            name_of(out, "tokens")?;
            for (i, entry) in map.entries().iter().enumerate() {
                let comma = if i > 0 { "," } else { "" };
                let text = TokenMap::entry_text(entry);
                write!(out, "{comma}{}", utf8_percent_encode(&text, QUERY_VALUE))?;
            }
        }
        Ok(())
    }

    /// `B,C`: the failed servers, the `down` value.
    fn down_text(&self) -> String {
        down_text(&self.nodes)
    }
}

/// `B,C`: the servers of `nodes` that are not up, as a `down=` value writes them.
pub fn down_text(nodes: &[ServerSpec]) -> String {
    let down: Vec<&str> = nodes
        .iter()
        .filter(|n| !n.up)
        .map(|n| n.name.as_str())
        .collect();
    down.join(",")
}

/// A query being written, refused past `limit` bytes.
struct Capped {
    text: String,
    limit: usize,
}

impl Write for Capped {
    fn write_str(&mut self, piece: &str) -> std::fmt::Result {
        if self.text.len().saturating_add(piece.len()) > self.limit {
            return Err(std::fmt::Error);
        }
        self.text.push_str(piece);
        Ok(())
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
                format!("{}*{}", n.name, Shortest(n.weight))
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Characters escaped in query values: what would end or confuse a query parameter.
pub const QUERY_VALUE: &AsciiSet = &CONTROLS
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

/// The name the page offers for the next server, and the one `compare` adds: the next of
/// the servers' own numbering when they have one (`10.0.0.5:80` after `10.0.0.1:80` …
/// `10.0.0.4:80`, `cache-04` after `cache-01` … `cache-03`, see [`next_numbered`]), else the
/// first of A…Z, S27, S28, … and then 1, 2, … (numbers first under the identity hash, whose
/// vnode labels must be numbers) for which `free` holds. One rule, so "add a server" is the
/// same change in the page and in the comparison.
pub fn suggest_name(names: &[&str], identity: bool, free: &dyn Fn(&str) -> bool) -> Option<String> {
    if let Some(next) = next_numbered(names).filter(|n| free(n)) {
        return Some(next);
    }
    let letters = ('A'..='Z')
        .map(String::from)
        .chain((27..1000).map(|i| format!("S{i}")));
    let numbers = (1..1000).map(|i: u32| i.to_string());
    let mut candidates: Box<dyn Iterator<Item = String>> = if identity {
        Box::new(numbers.chain(letters))
    } else {
        Box::new(letters.chain(numbers))
    };
    candidates.find(|n| free(n))
}

pub use crate::text::next_numbered;

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Any names (any characters, digits anywhere): an answer or none, never a panic,
        /// and an answer is a name none of them has.
        #[test]
        fn the_next_number_of_any_names_is_new(names in proptest::collection::vec("[0-9a-zé:.è]{0,6}", 0..6)) {
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            if let Some(next) = next_numbered(&refs) {
                proptest::prop_assert!(!names.contains(&next), "{names:?} → {next}");
            }
        }
    }

    #[test]
    fn a_numbered_cluster_is_offered_its_next_number() {
        let next = |names: &[&str]| next_numbered(names);
        assert_eq!(
            next(&["10.0.0.1:80", "10.0.0.2:80", "10.0.0.4:80"]).as_deref(),
            Some("10.0.0.5:80")
        );
        assert_eq!(
            next(&["cache-01", "cache-02", "cache-03"]).as_deref(),
            Some("cache-04")
        );
        assert_eq!(next(&["n1", "n12", "n9"]).as_deref(), Some("n13"));
        assert_eq!(next(&["node9", "node10"]).as_deref(), Some("node11"));
        // Not numbered alike: letters, a lone server, two runs that differ, names mixed.
        assert_eq!(next(&["A", "B", "C"]), None);
        assert_eq!(next(&["10.0.0.1:80"]), None);
        assert_eq!(next(&["127.1.1.1#A", "127.2.2.2#B"]), None);
        assert_eq!(next(&["10.0.0.1:80", "A"]), None);
        assert_eq!(next(&["a", "a"]), None);
        assert_eq!(next(&["é1", "è2"]), None);
        assert_eq!(next(&["1é", "2è"]), None);
        // The page and `compare` offer it, when free.
        assert_eq!(
            suggest_name(&["s1", "s2"], false, &|_| true).as_deref(),
            Some("s3")
        );
        assert_eq!(
            suggest_name(&["s1", "s2"], false, &|n| n != "s3").as_deref(),
            Some("A")
        );
    }

    #[test]
    fn defaults_need_no_query() {
        assert_eq!(Scenario::default().to_query(), "");
        assert_eq!(Scenario::from_pairs([]).unwrap(), Scenario::default());
        assert_eq!(Scenario::default().settings, Settings::default());
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
            (vec![("algo", "magic")], "choose one of ring, modn"),
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
            (vec![("algo", "ring"), ("algo", "modn")], "more than once"),
            (vec![("nodes", "A,B"), ("down", "A,A")], "appears twice"),
            (vec![("nodes", "A, A")], "appears twice"),
            (vec![("nodes", "\u{202E}evil")], "U+202E"),
            (vec![("nodes", "a\u{1b}[31m")], "U+001B"),
            (vec![("nodes", "A*abc")], "is not a number"),
            (vec![("nodes", "A*0.001")], "no virtual node"),
            (vec![("vnodes", "abc")], "is not a whole number"),
            (
                vec![("algo", "rendezvous"), ("hash", "identity")],
                "identity",
            ),
        ] {
            let err = Scenario::from_pairs(pairs.clone()).unwrap_err().to_string();
            assert!(err.contains(needle), "{pairs:?}: {err}");
        }
    }

    #[test]
    fn every_bad_parameter_is_reported_and_values_are_quoted_short() {
        let long = "x".repeat(100_000);
        let err = Scenario::from_pairs([
            ("nodes", "A,A"),
            ("vnodes", long.as_str()),
            ("hash", "sha1"),
        ])
        .unwrap_err();
        assert_eq!(err.0.len(), 3, "{err}");
        assert!(err.to_string().len() < 400, "{err}");
    }

    #[test]
    fn a_long_name_template_is_refused_before_it_is_expanded() {
        // 10,000 copies of a megabyte template would be 10 GB; one is checked first.
        let nodes = format!("{}{{i}}:0..10000", "y".repeat(1_000_000));
        let err = Scenario::from_pairs([("nodes", nodes.as_str())]).unwrap_err();
        assert!(
            matches!(err.0.as_slice(), [Problem::NameTooLong { max: 64, .. }]),
            "{err}"
        );
        // Two of them in one list, and a weighted one: the same.
        let two = format!("{nodes},{nodes}");
        assert!(Scenario::from_pairs([("nodes", two.as_str())]).is_err());
        let weighted = format!("{}{{i}}*2:0..10000", "y".repeat(100_000));
        assert!(Scenario::from_pairs([("nodes", weighted.as_str())]).is_err());
        // The widest number is the one checked: 62 letters and a two-digit number are 64.
        let edge = format!("{}{{i}}:0..100", "y".repeat(62));
        assert_eq!(
            Scenario::from_pairs([("nodes", edge.as_str())])
                .unwrap()
                .nodes
                .len(),
            100
        );
        let over = format!("{}{{i}}:0..101", "y".repeat(62));
        assert!(Scenario::from_pairs([("nodes", over.as_str())]).is_err());
    }

    #[test]
    fn names_are_trimmed_and_down_may_come_first() {
        let s = Scenario::from_pairs([("down", " B"), ("nodes", " A , B ")]).unwrap();
        assert_eq!(s.nodes[0].name, "A");
        assert!(!s.nodes[1].up);
        assert_eq!(s.to_query(), "nodes=A,B&down=B");
    }
}
