//! A system's own configuration → the scenario it describes: which algorithm, which servers
//! (in declaration order, named as the config writes them), their weights, which are down.
//! The system is recognised from the text:
//!
//! - **nginx**: an `upstream NAME { … }` block with `hash KEY consistent;` and `server
//!   ADDRESS [weight=N] [down] [backup] [max_fails=…] …;` lines. Backup servers take no
//!   part in the hash (nginx hashes only the primary peers): they are left out, and said so.
//! - **HAProxy**: a `backend NAME` section with `hash-type consistent` and `server NAME
//!   ADDRESS [weight N] [disabled] …` lines; servers are numbered by declaration order, so
//!   a server's `id N` (which would fix its number) is refused rather than ignored.
//!
//! - **twemproxy**: a YAML pool (`NAME:` then indented `hash:`, `distribution: ketama`,
//!   `servers:` and its `- host:port:weight [name]` items); the first pool is read. The
//!   default `hash: fnv1a_64` is `algo=twemproxy`; `hash: md5` is libmemcached's `ketama`;
//!   other hashes, other distributions and `hash_tag` are refused, not approximated.
//!
//! Every refusal names the line and column and what was expected; nothing is guessed.
//!
//! - **Redis Cluster**: `CLUSTER NODES` output — the masters and the cluster's own slot
//!   table, which the scenario (and so the link) carries as `slotmap` (`redis_cluster`).
//! - **Cassandra**: `nodetool ring` output — the nodes and the cluster's own tokens, which
//!   the scenario (and so the link) carries as `tokens` (`cassandra_ring`).
//!
//! One more layout is recognised here and read by the command line, where the page sends
//! it: Redis's `CLUSTER SHARDS` (`redis_cluster::read_shards`: the same table as `CLUSTER
//! NODES`, which every Redis Cluster answers; its reader costs the page 1.2 KB gzip it does
//! not have).

use super::algorithms::maglev::check_table;
use super::algorithms::Algorithm;
use super::cassandra_ring::ClusterTokens;
use super::crush::layout::CrushLayout;
use super::note::{keep, Note};
use super::pace::{run_to_end, Pace};
use super::redis_cluster::{read_nodes_paced, ClusterSlots};
use super::scenario::{check_servers, Scenario, ServerSpec, MAX_VNODES};
use super::slots::SlotMap;
use super::tokens::TokenMap;
use crate::problem::{Expected, NotModelled, Problem};
pub use crate::text::list_safe;
use crate::text::quote;

/// What a config describes.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The system's algorithm.
    pub algo: Algorithm,
    /// The servers in declaration order, with their weights; those marked down or
    /// disabled are not up.
    pub servers: Vec<ServerSpec>,
    /// Backup servers (quoted, nginx's and HAProxy's): the hash places keys on the primary
    /// servers only (backups serve when none is up), so the
    /// scenario leaves them out — and says so (the page, in the reader's language).
    pub backups: Vec<String>,
    /// What else the config says that the scenario leaves out (replicas, …), in English.
    pub left_out: Vec<Note>,
    /// A lookup table's size (Envoy's Maglev `table_size`), when the config sets one.
    pub table: Option<u32>,
    /// A real cluster's own slot table (Redis Cluster's `CLUSTER NODES` / `CLUSTER SHARDS`).
    pub slots: Option<SlotMap>,
    /// A real cluster's own tokens (Cassandra's `nodetool ring`).
    pub tokens: Option<TokenMap>,
    /// The vnode count a server added later gets, when the config tells it (the token count
    /// most of a Cassandra cluster's nodes have: its `num_tokens`).
    pub vnodes: Option<u32>,
    /// A Ceph cluster's CRUSH hierarchy, when its map is not flat.
    pub crush: Option<CrushLayout>,
}

/// The kind of text a config is — told here, once, for the page and the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigFormat {
    /// Envoy's cluster YAML (it names `lb_endpoints`): read by the command line
    /// (`cli::envoy`), whose YAML reader the page has no room for.
    Envoy,
    /// A decompiled CRUSH map (`crushtool -d`: `device` lines and `step`s of a rule): read
    /// by [`super::crushmap`], in the page too.
    CrushMap,
    /// A real cluster's own layout: Redis's `CLUSTER NODES` / `CLUSTER SHARDS`, Cassandra's
    /// `nodetool ring`.
    Cluster(ClusterLayout),
    /// A twemproxy pool (a `servers:` line).
    Twemproxy,
    /// An nginx `upstream` block.
    Nginx,
    /// An HAProxy `backend` or `listen` section.
    Haproxy,
}

impl ConfigFormat {
    /// The format of `text` (without a byte-order mark), or `None` when it is none of them.
    pub fn of(text: &str) -> Option<ConfigFormat> {
        run_to_end(ConfigFormat::of_paced(text, &mut Pace::unlimited()))
    }

    /// [`ConfigFormat::of`] at `pace` (each pass over the text ticks as it goes).
    async fn of_paced(text: &str, pace: &mut Pace) -> Option<ConfigFormat> {
        if text.contains("lb_endpoints") {
            return Some(ConfigFormat::Envoy);
        }
        if any_line(text, pace, |l| l.trim_start().starts_with("step take ")).await {
            return Some(ConfigFormat::CrushMap);
        }
        if let Some(layout) = ClusterLayout::of_paced(text, pace).await {
            return Some(ConfigFormat::Cluster(layout));
        }
        if any_line(text, pace, |l| strip_yaml_comment(l).trim() == "servers:").await {
            return Some(ConfigFormat::Twemproxy);
        }
        pace.begin(text.len());
        let mut words = Words::new(text, Dialect::Nginx);
        if words.find_paced("upstream", pace).await.is_some() {
            return Some(ConfigFormat::Nginx);
        }
        // HAProxy's proxies: `backend NAME` or `listen NAME` lines (nginx's `listen 80;`
        // ends with a semicolon).
        let haproxy_section = |l: &str| {
            let mut w = l.split_whitespace();
            matches!(w.next(), Some("backend" | "listen")) && !l.contains(';')
        };
        any_line(text, pace, haproxy_section)
            .await
            .then_some(ConfigFormat::Haproxy)
    }
}

/// Reads an nginx `upstream` block, an HAProxy `backend` section, a twemproxy pool, a Redis
/// Cluster's `CLUSTER NODES` output or a Cassandra cluster's `nodetool ring` output.
pub fn read_config(text: &str) -> Result<Imported, Problem> {
    run_to_end(read_config_paced(text, &mut Pace::unlimited()))
}

/// [`read_config`] at `pace`: the page reads a long paste in steps (each pass over the
/// text — telling its kind, then reading it — ticks as it goes).
pub async fn read_config_paced(text: &str, pace: &mut Pace) -> Result<Imported, Problem> {
    let text = without_bom(text);
    let format = ConfigFormat::of_paced(text, pace)
        .await
        .ok_or(Problem::ConfigNotRecognized)?;
    read_as_paced(text, format, pace).await
}

/// Reads `text` as `format`, told by [`ConfigFormat::of`] (the command line reads Envoy and
/// `CLUSTER SHARDS` itself, and sends the rest here).
pub fn read_as(text: &str, format: ConfigFormat) -> Result<Imported, Problem> {
    run_to_end(read_as_paced(text, format, &mut Pace::unlimited()))
}

async fn read_as_paced(
    text: &str,
    format: ConfigFormat,
    pace: &mut Pace,
) -> Result<Imported, Problem> {
    match format {
        ConfigFormat::Envoy => Err(Problem::ConfigNeedsCommandLine { what: "Envoy" }),
        ConfigFormat::CrushMap => super::crushmap::read(text)
            .map_err(|why| Problem::CrushMap { why })
            .and_then(ceph_map),
        ConfigFormat::Cluster(ClusterLayout::Nodes) => {
            redis_cluster(read_nodes_paced(text, pace).await?)
        }
        ConfigFormat::Cluster(ClusterLayout::Ring) => Ok(cassandra_ring(
            super::cassandra_ring::read_paced(text, pace).await?,
        )),
        ConfigFormat::Cluster(layout) => Err(Problem::ConfigNeedsCommandLine {
            what: layout.command(),
        }),
        ConfigFormat::Twemproxy => twemproxy(text, pace).await,
        ConfigFormat::Nginx => nginx(text, pace).await,
        ConfigFormat::Haproxy => haproxy(text, pace).await,
    }
}

#[cfg(test)]
impl Imported {
    /// The servers as a `nodes=` value writes them (tests compare them with the config).
    pub fn nodes(&self) -> String {
        super::scenario::nodes_text(&self.servers)
    }

    /// The servers not up, as a `down=` value writes them.
    pub fn down(&self) -> String {
        super::scenario::down_text(&self.servers)
    }
}

impl Imported {
    /// The scenario this config describes over `base`'s other settings (its keys, hash,
    /// seed, …): the config's algorithm, servers (weights, down ones), slot table or tokens,
    /// and the vnode count and table size when it sets them. The one way a config becomes a
    /// scenario — the page's pasted config and the command line's `--config` alike; the
    /// result is checked as any scenario is.
    pub fn apply(&self, base: Scenario) -> Result<Scenario, Problem> {
        check_servers(&self.servers)?;
        let mut scenario = Scenario {
            nodes: self.servers.clone(),
            slots: self.slots.clone(),
            tokens: self.tokens.clone(),
            ..base
        };
        let settings = &mut scenario.settings;
        settings.algo = self.algo;
        settings.vnodes = self.vnodes.unwrap_or(settings.vnodes);
        settings.crush = self.crush.clone().map(std::rc::Rc::new);
        if let Some(size) = self.table {
            settings.table = check_table(size)?;
        }
        scenario.validate()?;
        Ok(scenario)
    }
}

/// Whether a line of `text` is one `is` looks for (a pass at `pace`).
async fn any_line(text: &str, pace: &mut Pace, is: impl Fn(&str) -> bool) -> bool {
    pace.begin(text.len());
    for line in text.lines() {
        pace.tick(line.len() + 1).await;
        if is(line) {
            return true;
        }
    }
    false
}

/// `text` without the byte-order mark an editor may put before it (Windows' Notepad saves
/// one): it is no part of the config's first word.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

/// A Redis Cluster's masters and own slot table as a scenario: `algo=slots`.
pub fn redis_cluster(cluster: ClusterSlots) -> Result<Imported, Problem> {
    Ok(Imported {
        algo: Algorithm::from_name("slots")
            .ok_or(Problem::Internal("the slots algorithm is not registered"))?,
        servers: cluster
            .masters
            .iter()
            .map(|name| server(name, 1, !cluster.down.contains(name)))
            .collect(),
        backups: Vec::new(),
        left_out: cluster.notes,
        table: None,
        slots: Some(cluster.map),
        tokens: None,
        vnodes: None,
        crush: None,
    })
}

/// A Cassandra cluster's nodes and own tokens as a scenario: `algo=cassandra`, the `Down`
/// and `Joining` nodes down.
pub fn cassandra_ring(cluster: ClusterTokens<'_>) -> Imported {
    let (mut servers, mut tokens) = (Vec::new(), Vec::new());
    for node in cluster.nodes {
        servers.push(server(node.name, 1, !node.is_down()));
        tokens.push(node.tokens);
    }
    let tokens = TokenMap::new(tokens);
    Imported {
        algo: Algorithm::CASSANDRA,
        servers,
        backups: Vec::new(),
        left_out: Vec::new(),
        table: None,
        slots: None,
        vnodes: tokens
            .common_count()
            .map(|n| n.min(MAX_VNODES as usize) as u32),
        tokens: Some(tokens),
        crush: None,
    }
}

/// A real cluster's own layout, told by its text: `CLUSTER NODES` and `nodetool ring` (read
/// here) and `CLUSTER SHARDS` (read by the command line, where the page sends it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterLayout {
    /// Redis Cluster's `CLUSTER NODES`: a line `ID IP:PORT@CPORT FLAGS …` whose flags say
    /// master, slave or myself.
    Nodes,
    /// Redis Cluster's `CLUSTER SHARDS`: a line whose value is `slots` (numbered `1) 1)
    /// "slots"` or raw).
    Shards,
    /// Cassandra's `nodetool ring`: its header `Address … Token`.
    Ring,
}

impl ClusterLayout {
    /// The command whose output it is.
    pub fn command(self) -> &'static str {
        match self {
            ClusterLayout::Nodes => "CLUSTER NODES",
            ClusterLayout::Shards => "CLUSTER SHARDS",
            ClusterLayout::Ring => "nodetool ring",
        }
    }

    /// The layout `text` holds, told by its first line that only that output has.
    pub fn of(text: &str) -> Option<ClusterLayout> {
        run_to_end(ClusterLayout::of_paced(text, &mut Pace::unlimited()))
    }

    /// [`ClusterLayout::of`] at `pace`.
    async fn of_paced(text: &str, pace: &mut Pace) -> Option<ClusterLayout> {
        pace.begin(text.len());
        for line in text.lines() {
            pace.tick(line.len() + 1).await;
            if let Some(layout) = ClusterLayout::of_line(line) {
                return Some(layout);
            }
        }
        None
    }

    /// The layout a line says (its first eight words and its last are all it needs: a
    /// 16 MB line is not split into millions of words).
    fn of_line(line: &str) -> Option<ClusterLayout> {
        let mut words = line.split_whitespace();
        let first: Vec<&str> = words.by_ref().take(8).collect();
        let last = words.next_back().or(first.last().copied());
        if first.first() == Some(&"Address") && last == Some("Token") {
            return Some(ClusterLayout::Ring);
        }
        if let [_, address, flags, _, _, _, _, _] = first.as_slice() {
            if address.contains('@')
                && ["master", "slave", "myself"]
                    .iter()
                    .any(|f| flags.contains(f))
            {
                return Some(ClusterLayout::Nodes);
            }
        }
        (line
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == ')' || c == ' ')
            .trim_matches('"')
            == "slots")
            .then_some(ClusterLayout::Shards)
    }
}

/// A word of the config and where it starts (1-based line and column).
#[derive(Clone, Copy, Debug)]
struct Word<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

/// How a config's lines split into words.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    /// nginx: `;`, `{` and `}` are words of their own, and `#` starts a comment where a word
    /// could start (inside a word, as in `a#b`, it is part of the word: ngx_conf_read_token).
    Nginx,
    /// HAProxy: words are split at white space only, and `#` starts a comment anywhere.
    Haproxy,
}

/// The words of a config in a dialect, each with its line and column, read as they are
/// asked for: one pass, linear in the text (a megabyte-long line of words is not counted
/// from its start for every word), holding one word at a time (a 16 MB line is not turned
/// into millions of words at once).
struct Words<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    dialect: Dialect,
    /// The line being read, its number, the rest of its characters and the column reached.
    line: &'a str,
    number: usize,
    chars: std::str::CharIndices<'a>,
    column: usize,
    /// A `;`, `{` or `}` that ended the word just given: the next word.
    sign: Option<Word<'a>>,
    /// Bytes of the text passed so far, and those already counted to a pace.
    passed: usize,
    ticked: usize,
}

impl<'a> Words<'a> {
    fn new(text: &'a str, dialect: Dialect) -> Words<'a> {
        Words {
            lines: text.lines().enumerate(),
            dialect,
            line: "",
            number: 0,
            chars: "".char_indices(),
            column: 0,
            sign: None,
            passed: 0,
            ticked: 0,
        }
    }

    /// The next word that is `text`, the words before it read at `pace`.
    async fn find_paced(&mut self, text: &str, pace: &mut Pace) -> Option<Word<'a>> {
        while let Some(w) = self.next_paced(pace).await {
            if w.text == text {
                return Some(w);
            }
        }
        None
    }

    /// The next word, its reading counted to `pace`.
    async fn next_paced(&mut self, pace: &mut Pace) -> Option<Word<'a>> {
        let word = self.next();
        let read = self.passed - self.ticked;
        self.ticked = self.passed;
        pace.tick(read).await;
        word
    }

    fn word(&self, (from, column): (usize, usize), to: usize) -> Word<'a> {
        Word {
            text: &self.line[from..to],
            line: self.number,
            column,
        }
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = Word<'a>;

    fn next(&mut self) -> Option<Word<'a>> {
        if let Some(sign) = self.sign.take() {
            return Some(sign);
        }
        loop {
            // (byte offset, column) of the word being read.
            let mut start: Option<(usize, usize)> = None;
            while let Some((i, c)) = self.chars.next() {
                self.column += 1;
                self.passed += c.len_utf8();
                if c == '#' && (self.dialect == Dialect::Haproxy || start.is_none()) {
                    self.chars = "".char_indices();
                    if let Some(from) = start {
                        return Some(self.word(from, i));
                    }
                    break;
                }
                let sign = self.dialect == Dialect::Nginx && matches!(c, ';' | '{' | '}');
                if c.is_whitespace() || sign {
                    let sign = sign.then(|| self.word((i, self.column), i + 1));
                    if let Some(from) = start {
                        self.sign = sign;
                        return Some(self.word(from, i));
                    }
                    if sign.is_some() {
                        return sign;
                    }
                } else if start.is_none() {
                    start = Some((i, self.column));
                }
            }
            if let Some(from) = start {
                return Some(self.word(from, self.line.len()));
            }
            let (n, line) = self.lines.next()?;
            self.passed += 1;
            (self.number, self.line, self.chars, self.column) =
                (n + 1, line, line.char_indices(), 0);
        }
    }
}

fn syntax(at: Option<&Word<'_>>, expected: Expected) -> Problem {
    match at {
        Some(w) => Problem::ConfigSyntax {
            line: w.line,
            column: w.column,
            expected,
            found: Some(quote(w.text)),
        },
        None => Problem::ConfigSyntax {
            line: 0,
            column: 0,
            expected,
            found: None,
        },
    }
}

async fn nginx(text: &str, pace: &mut Pace) -> Result<Imported, Problem> {
    pace.begin(text.len());
    let mut words = Words::new(text, Dialect::Nginx);
    words.find_paced("upstream", pace).await;
    // `upstream NAME {`
    let name = words.next();
    if name.is_none_or(|w| matches!(w.text, "{" | "}" | ";")) {
        return Err(syntax(name.as_ref(), Expected::UpstreamName));
    }
    let brace = words.next();
    if brace.map(|w| w.text) != Some("{") {
        return Err(syntax(brace.as_ref(), Expected::OpenBrace));
    }
    let (mut servers, mut backups) = (Vec::new(), Vec::new());
    let mut consistent = None;
    loop {
        let Some(directive) = words.next_paced(pace).await else {
            return Err(syntax(None, Expected::CloseBrace));
        };
        match directive.text {
            "}" => break,
            "{" => return Err(syntax(Some(&directive), Expected::Directive)),
            ";" => continue,
            _ => {}
        }
        // The directive's arguments, up to its `;`, as they come (none is kept but a
        // server's address): an upstream has no inner blocks, so a brace inside a directive
        // (`server s{3;`) would end the block early or cut a name — it is refused.
        let mut address: Option<Word<'_>> = None;
        let (mut weight, mut is_down, mut backup) = (1u32, false, false);
        let mut hashes_consistently = false;
        loop {
            let Some(arg) = words.next_paced(pace).await else {
                return Err(syntax(None, Expected::Semicolon));
            };
            match arg.text {
                ";" => break,
                "{" | "}" => return Err(syntax(Some(&arg), Expected::PlainName)),
                _ => {}
            }
            match directive.text {
                "server" if address.is_none() => {
                    if !list_safe(arg.text) {
                        return Err(syntax(Some(&arg), Expected::PlainName));
                    }
                    address = Some(arg);
                }
                "server" => {
                    if let Some(w) = arg.text.strip_prefix("weight=") {
                        weight = w
                            .parse()
                            .ok()
                            .filter(|&w| w >= 1)
                            .ok_or_else(|| syntax(Some(&arg), Expected::NginxWeight))?;
                    }
                    is_down |= arg.text == "down";
                    backup |= arg.text == "backup";
                }
                "hash" => hashes_consistently |= arg.text == "consistent",
                _ => {}
            }
        }
        match (directive.text, address) {
            ("server", None) => return Err(syntax(Some(&directive), Expected::Address)),
            ("server", Some(address)) if backup => backups.push(quote(address.text)),
            ("server", Some(address)) => servers.push(server(address.text, weight, !is_down)),
            ("hash", _) => consistent = Some(hashes_consistently),
            _ => {}
        }
    }
    let mut others = 0;
    while words.find_paced("upstream", pace).await.is_some() {
        others += 1;
    }
    let left_out = others_note(others, name.map_or("", |w| w.text));
    if consistent != Some(true) {
        return Err(Problem::ConfigNotConsistent {
            system: "nginx",
            why: match consistent {
                Some(_) => NotModelled::NginxPlainHash,
                None => NotModelled::NginxRoundRobin,
            },
        });
    }
    let mut imported = finish(Algorithm::from_name("nginx"), "nginx", servers, left_out)?;
    imported.backups = backups;
    Ok(imported)
}

/// The note that `more` other blocks than the one `read` are left out (none when none are).
fn others_note(more: usize, read: &str) -> Vec<Note> {
    let mut notes = Vec::new();
    if more > 0 {
        keep(&mut notes, || Note::OtherSections {
            more,
            read: quote(read),
        });
    }
    notes
}

/// What a `defaults`, `backend` or `listen` section says about hashing, as HAProxy's
/// `cfgparse-listen.c` reads it: a proxy starts from the last `defaults` before it.
#[derive(Clone, Copy, Default)]
struct HashSettings<'a> {
    /// `balance`'s algorithm (roundrobin when unset).
    balance: Option<&'a str>,
    /// `hash-type`'s method and the rest of its line (function, modifier).
    hash_type: Option<(&'a str, Option<&'a str>, Option<&'a str>)>,
    /// `hash-balance-factor` above 0.
    balance_factor: bool,
    /// `hash-key`, when not `id`.
    hash_key: Option<&'a str>,
    /// `default-server`'s weight, backup and disabled.
    server: ServerDefaults,
}

/// What `default-server` gives the servers after it.
#[derive(Clone, Copy)]
struct ServerDefaults {
    weight: u32,
    backup: bool,
    disabled: bool,
}

impl Default for ServerDefaults {
    fn default() -> Self {
        ServerDefaults {
            weight: 1,
            backup: false,
            disabled: false,
        }
    }
}

/// A `backend` or `listen` section: its name, settings and servers (name, weight, backup,
/// disabled) in declaration order — the order that numbers them.
struct HaproxySection<'a> {
    name: &'a str,
    settings: HashSettings<'a>,
    servers: Vec<HaproxyServer>,
    /// A `server-template` whose address is a DNS name.
    template_by_name: bool,
}

/// A server of a proxy: its name, weight, and whether it is a backup and disabled.
type HaproxyServer = (String, u32, bool, bool);

/// The most words HAProxy reads on a line (`MAX_LINE_ARGS`).
const HAPROXY_MAX_WORDS: usize = 64;

/// The words that open a section of an HAProxy config.
const HAPROXY_SECTIONS: [&str; 14] = [
    "global",
    "defaults",
    "frontend",
    "backend",
    "listen",
    "peers",
    "resolvers",
    "userlist",
    "mailers",
    "program",
    "http-errors",
    "ring",
    "cache",
    "fcgi-app",
];

async fn haproxy(text: &str, pace: &mut Pace) -> Result<Imported, Problem> {
    let mut defaults = HashSettings::default();
    let mut sections: Vec<HaproxySection<'_>> = Vec::new();
    // Which section the lines belong to: a `defaults`, a proxy (index in `sections`), or
    // another kind (global, frontend, …) whose lines are not read.
    enum In {
        Defaults,
        Proxy(usize),
        Other,
    }
    let mut now = In::Other;
    pace.begin(text.len());
    for (l, line) in text.lines().enumerate() {
        pace.tick(line.len() + 1).await;
        // HAProxy refuses a line of more than 64 words (MAX_LINE_ARGS): so does the reader,
        // before it holds them.
        let words: Vec<Word<'_>> = Words::new(line, Dialect::Haproxy)
            .map(|w| Word { line: l + 1, ..w })
            .take(HAPROXY_MAX_WORDS + 1)
            .collect();
        if let Some(extra) = words.get(HAPROXY_MAX_WORDS) {
            return Err(syntax(Some(extra), Expected::LineWords));
        }
        let Some(first) = words.first() else {
            continue;
        };
        if HAPROXY_SECTIONS.contains(&first.text) {
            now = match first.text {
                "defaults" => {
                    // A new `defaults` replaces the previous one (HAProxy resets them).
                    defaults = HashSettings::default();
                    In::Defaults
                }
                "backend" | "listen" => {
                    sections.push(HaproxySection {
                        name: words.get(1).map_or("", |w| w.text),
                        settings: defaults,
                        servers: Vec::new(),
                        template_by_name: false,
                    });
                    In::Proxy(sections.len() - 1)
                }
                _ => In::Other,
            };
            continue;
        }
        match now {
            In::Defaults => haproxy_line(&words, &mut defaults, None)?,
            In::Proxy(i) => {
                let HaproxySection {
                    settings,
                    servers,
                    template_by_name,
                    ..
                } = &mut sections[i];
                haproxy_line(&words, settings, Some((servers, template_by_name)))?;
            }
            In::Other => {}
        }
    }
    let with_servers = || sections.iter().filter(|s| !s.servers.is_empty());
    // The first proxy that hashes consistently is read; without one, the first with servers
    // says why it is not modelled.
    let chosen = with_servers()
        .find(|s| haproxy_modelled(s).is_ok())
        .or_else(|| with_servers().next())
        .ok_or(Problem::ConfigNoServers { system: "haproxy" })?;
    haproxy_modelled(chosen)?;
    let left_out = others_note(sections.len() - 1, chosen.name);
    let (mut servers, mut backups) = (Vec::new(), Vec::new());
    for (name, weight, backup, disabled) in &chosen.servers {
        if *backup {
            backups.push(quote(name));
        } else {
            servers.push(server(name, *weight, !disabled));
        }
    }
    let mut imported = finish(
        Algorithm::from_name("haproxy"),
        "haproxy",
        servers,
        left_out,
    )?;
    imported.backups = backups;
    Ok(imported)
}

/// Reads one line of a `defaults`, `backend` or `listen` section (`section` is None in
/// `defaults`, which has no servers).
fn haproxy_line<'a>(
    words: &[Word<'a>],
    settings: &mut HashSettings<'a>,
    section: Option<(&mut Vec<HaproxyServer>, &mut bool)>,
) -> Result<(), Problem> {
    let arg = |i: usize| words.get(i).map(|w| w.text);
    match words[0].text {
        "balance" => settings.balance = arg(1),
        "hash-type" => settings.hash_type = arg(1).map(|m| (m, arg(2), arg(3))),
        "hash-balance-factor" => {
            settings.balance_factor = arg(1).is_some_and(|f| f.parse::<u32>() != Ok(0));
        }
        "hash-key" => settings.hash_key = arg(1).filter(|&k| k != "id"),
        "default-server" => settings.server = server_params(&words[1..], settings.server)?,
        "server" | "server-template" => {
            let Some((servers, template_by_name)) = section else {
                return Ok(());
            };
            let name = words
                .get(1)
                .ok_or_else(|| syntax(None, Expected::ServerName))?;
            if !list_safe(name.text) {
                return Err(syntax(Some(name), Expected::PlainName));
            }
            let template = words[0].text == "server-template";
            // `server NAME ADDRESS …`, `server-template PREFIX COUNT|A-B ADDRESS …`.
            let address_at = if template { 3 } else { 2 };
            let address = words
                .get(address_at)
                .ok_or_else(|| syntax(None, Expected::ServerAddress))?;
            let params = server_params(&words[address_at + 1..], settings.server)?;
            let names: Vec<String> = if template {
                let count = &words[2];
                let (a, b) = match count.text.split_once('-') {
                    Some((a, b)) => (a.parse::<usize>().ok(), b.parse::<usize>().ok()),
                    None => (Some(1), count.text.parse::<usize>().ok()),
                };
                let (Some(a), Some(b)) = (a, b) else {
                    return Err(syntax(Some(count), Expected::TemplateCount));
                };
                if a == 0 || b < a || b - a >= super::scenario::MAX_SERVERS {
                    return Err(syntax(Some(count), Expected::TemplateCount));
                }
                let host = address.text.rsplit_once(':').map_or(address.text, |h| h.0);
                *template_by_name |= !is_ip_address(host);
                (a..=b).map(|i| format!("{}{i}", name.text)).collect()
            } else {
                vec![name.text.to_owned()]
            };
            for name in names {
                if servers.len() == super::scenario::MAX_SERVERS {
                    return Err(Problem::TooManyServers {
                        limit: super::scenario::MAX_SERVERS,
                    });
                }
                servers.push((name, params.weight, params.backup, params.disabled));
            }
        }
        _ => {}
    }
    Ok(())
}

/// A `server` (or `default-server`) line's parameters over `given`: `weight N`, `backup`,
/// `no-backup`, `disabled`, `enabled`; an `id` (which fixes the server's number) is refused.
fn server_params(words: &[Word<'_>], given: ServerDefaults) -> Result<ServerDefaults, Problem> {
    let mut out = given;
    let mut i = 0;
    while let Some(w) = words.get(i) {
        match w.text {
            "weight" => {
                let value = words.get(i + 1);
                out.weight = value
                    .and_then(|v| v.text.parse().ok())
                    .filter(|&w| w >= 1)
                    .ok_or_else(|| syntax(value, Expected::HaproxyWeight))?;
                i += 1;
            }
            "backup" => out.backup = true,
            "no-backup" => out.backup = false,
            "disabled" => out.disabled = true,
            "enabled" => out.disabled = false,
            "id" => {
                return Err(Problem::ConfigNotConsistent {
                    system: "haproxy",
                    why: NotModelled::HaproxyServerId,
                })
            }
            _ => {}
        }
        i += 1;
    }
    Ok(out)
}

/// True for an IPv4 address (four numbers from 0 to 255) or an IPv6 one (hex digits, `:`
/// and `.`, optionally in brackets), the forms a `server-template` address takes when it
/// needs no resolver. (Not std's parser: this is all the page needs of it, in a few bytes.)
fn is_ip_address(host: &str) -> bool {
    let v4 = |h: &str| {
        let parts: Vec<&str> = h.split('.').collect();
        parts.len() == 4
            && parts
                .iter()
                .all(|p| (1..=3).contains(&p.len()) && p.parse::<u8>().is_ok())
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    v4(host)
        || (host.contains(':')
            && host
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.'))
}

/// Whether a proxy places keys as `algo=haproxy` models, or why not.
fn haproxy_modelled(section: &HaproxySection<'_>) -> Result<(), Problem> {
    let s = &section.settings;
    let not = |why| {
        Err(Problem::ConfigNotConsistent {
            system: "haproxy",
            why,
        })
    };
    match s.hash_type {
        Some(("consistent", None, None) | ("consistent", Some("sdbm"), Some("avalanche"))) => {}
        Some(("consistent", ..)) => return not(NotModelled::HaproxyHashFunction),
        _ => return not(NotModelled::HaproxyNotConsistent),
    }
    let hashing = s.balance.is_some_and(|b| {
        matches!(b, "source" | "uri" | "url_param" | "rdp-cookie" | "hash")
            || b.starts_with("hdr(")
            || b.starts_with("rdp-cookie(")
    });
    if !hashing {
        return not(NotModelled::HaproxyNotHashing);
    }
    if s.balance_factor {
        return not(NotModelled::HaproxyBalanceFactor);
    }
    if s.hash_key.is_some() {
        return not(NotModelled::HaproxyHashKey);
    }
    if section.template_by_name {
        return not(NotModelled::HaproxyTemplateName);
    }
    // Servers are numbered in declaration order, backups included: a backup before an
    // active server shifts the numbers of the active ones after it.
    let last_active = section.servers.iter().rposition(|s| !s.2);
    if last_active.is_some_and(|a| section.servers[..a].iter().any(|s| s.2)) {
        return not(NotModelled::HaproxyBackupFirst);
    }
    Ok(())
}

/// A YAML line without its comment (a `#` at the start or after white space).
fn strip_yaml_comment(line: &str) -> &str {
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        if c == '#' && previous.is_whitespace() {
            return &line[..i];
        }
        previous = c;
    }
    line
}

/// The first pool of a twemproxy (nutcracker) YAML config: `hash`, `distribution`,
/// `hash_tag` and its `servers:` list, each `host:port:weight [name]` or
/// `/path:weight [name]`, parsed from the end as `conf_add_server` does.
async fn twemproxy(text: &str, pace: &mut Pace) -> Result<Imported, Problem> {
    let mut pools: Vec<&str> = Vec::new();
    let (mut servers, mut left_out) = (Vec::new(), Vec::new());
    let mut hash = "fnv1a_64";
    let mut in_servers = false;
    pace.begin(text.len());
    for (l, raw) in text.lines().enumerate() {
        pace.tick(raw.len() + 1).await;
        let line = strip_yaml_comment(raw);
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if !line.starts_with(char::is_whitespace) {
            pools.push(trimmed.trim_end_matches(':'));
            in_servers = false;
            continue;
        }
        if pools.len() > 1 {
            continue;
        }
        if let Some(item) = trimmed.strip_prefix('-') {
            if in_servers {
                let value = item.trim();
                let at = Word {
                    text: value,
                    line: l + 1,
                    column: line[..line.len() - item.trim_start().len()].chars().count() + 1,
                };
                servers.push(pool_server(&at)?);
            }
            continue;
        }
        let (key, value) = trimmed.split_once(':').unwrap_or((trimmed, ""));
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
        in_servers = key == "servers";
        match key {
            "hash" => hash = value,
            "distribution" if value != "ketama" => {
                return Err(not_modelled(NotModelled::TwemproxyDistribution))
            }
            "hash_tag" => return Err(not_modelled(NotModelled::TwemproxyHashTag)),
            "auto_eject_hosts" if value == "true" => keep(&mut left_out, || Note::AutoEjectHosts),
            _ => {}
        }
    }
    if pools.len() > 1 {
        keep(&mut left_out, || Note::MorePools {
            more: pools.len() - 1,
            first: quote(pools[0]),
        });
    }
    let algo = match hash {
        "fnv1a_64" => "twemproxy",
        "md5" => "ketama",
        _ => return Err(not_modelled(NotModelled::TwemproxyHash)),
    };
    finish(Algorithm::from_name(algo), "twemproxy", servers, left_out)
}

fn not_modelled(why: NotModelled) -> Problem {
    Problem::ConfigNotConsistent {
        system: "twemproxy",
        why,
    }
}

/// One `servers:` item: the scenario's node — its name, else `host:port` (`/path:` for a
/// socket, as twemproxy names it) — with its weight.
fn pool_server(at: &Word<'_>) -> Result<ServerSpec, Problem> {
    let value = at.text.trim_matches(|c| c == '"' || c == '\'');
    let wrong = |expected| syntax(Some(at), expected);
    let (address, name) = match value.rsplit_once(' ') {
        Some((address, name)) => (address.trim(), Some(name)),
        None => (value, None),
    };
    let (place, weight) = address
        .rsplit_once(':')
        .ok_or_else(|| wrong(Expected::PoolServer))?;
    let weight: u32 = weight
        .parse()
        .ok()
        .filter(|&w| w >= 1)
        .ok_or_else(|| wrong(Expected::PoolWeight))?;
    let own = if place.starts_with('/') {
        format!("{place}:")
    } else {
        let (host, port) = place
            .rsplit_once(':')
            .ok_or_else(|| wrong(Expected::PoolServer))?;
        let _: u16 = port
            .parse()
            .ok()
            .filter(|&p| p >= 1)
            .ok_or_else(|| wrong(Expected::PoolPort))?;
        if host.is_empty() {
            return Err(wrong(Expected::PoolServer));
        }
        place.to_owned()
    };
    let name = match name {
        // ketama drops a trailing :11211 from a server's name; a given name is hashed whole.
        Some(n) if super::algorithms::ketama::ketama_name(n) != n => {
            return Err(wrong(Expected::PoolName))
        }
        Some(n) => n.to_owned(),
        None => own,
    };
    if !list_safe(&name) {
        return Err(wrong(Expected::PlainName));
    }
    Ok(server(name, weight, true))
}

/// A server of the config: its name, its weight and whether it is up.
fn server(name: impl Into<String>, weight: u32, up: bool) -> ServerSpec {
    ServerSpec {
        name: name.into(),
        weight: f64::from(weight),
        up,
    }
}

/// A real system's config as read: its algorithm (when registered), its servers (at least
/// one) and notes on what the scenario leaves out.
pub fn finish(
    algo: Option<Algorithm>,
    system: &'static str,
    servers: Vec<ServerSpec>,
    left_out: Vec<Note>,
) -> Result<Imported, Problem> {
    let algo = algo.ok_or(Problem::Internal("a real system is not registered"))?;
    if servers.is_empty() {
        return Err(Problem::ConfigNoServers { system });
    }
    Ok(Imported {
        algo,
        servers,
        backups: Vec::new(),
        left_out,
        table: None,
        slots: None,
        tokens: None,
        vnodes: None,
        crush: None,
    })
}

/// The scenario's servers and hierarchy of a CRUSH map's Ceph cluster.
pub fn ceph_map(map: super::crushmap::CephMap) -> Result<Imported, Problem> {
    let mut imported = finish(
        Algorithm::from_name("ceph"),
        "ceph",
        map.servers,
        map.left_out,
    )?;
    imported.crush = map.crush;
    Ok(imported)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_becomes_a_scenario_by_one_function_over_the_other_settings() {
        let config = "upstream u {\n  hash $uri consistent;\n  server a:80 weight=3;\n  server b:80 down;\n}\n";
        let base = Scenario::from_pairs([("algo", "jump"), ("keys", "k{i}:0..50"), ("seed", "7")]);
        let base = base.unwrap();
        let scenario = read_config(config).unwrap().apply(base.clone()).unwrap();
        assert_eq!(scenario.settings.algo.name(), "nginx");
        let a = server("a:80", 3, true);
        assert_eq!(scenario.nodes, [a, server("b:80", 1, false)]);
        // The page's (or the flags') other settings stay.
        assert_eq!(scenario.settings.keys, base.settings.keys);
        assert_eq!(scenario.settings.seed, 7);
        // A weight the scenario does not take is refused as a typed-in one is.
        let heavy = read_config(&config.replace("weight=3", "weight=200")).unwrap();
        assert_eq!(
            heavy.apply(base).unwrap_err().to_string(),
            Scenario::from_pairs([("nodes", "a*200")])
                .unwrap_err()
                .to_string()
        );
    }

    #[test]
    fn an_nginx_upstream_becomes_its_scenario() {
        let config = "http {\n  upstream pool {\n    hash $request_uri consistent;\n    server 10.0.0.1:8080 weight=2;\n    server 10.0.0.2:8080 down;  # maintenance\n    server backend.example max_fails=3;\n    server 10.0.0.9:8080 backup;\n  }\n}\n";
        let i = read_config(config).unwrap();
        assert_eq!(i.algo.name(), "nginx");
        assert_eq!(i.nodes(), "10.0.0.1:8080*2,10.0.0.2:8080,backend.example");
        assert_eq!(i.down(), "10.0.0.2:8080");
        assert_eq!(i.backups, ["'10.0.0.9:8080'"]);
        assert!(i.left_out.is_empty());
    }

    #[test]
    fn an_haproxy_backend_becomes_its_scenario() {
        let config = "frontend fe\n  bind :80\n  default_backend pool\nbackend pool\n  balance uri\n  hash-type consistent\n  server s1 10.0.0.1:80 weight 2 check\n  server s2 10.0.0.2:80 disabled\n  server s3 10.0.0.3:80\n";
        let i = read_config(config).unwrap();
        assert_eq!(i.algo.name(), "haproxy");
        assert_eq!(i.nodes(), "s1*2,s2,s3");
        assert_eq!(i.down(), "s2");
    }

    #[test]
    fn a_twemproxy_pool_becomes_its_scenario() {
        // The pools tools/twemproxy-vectors.py gave nutcracker, as an operator writes them.
        let config = "alpha:   # the cache\n  listen: 127.0.0.1:22120\n  hash: fnv1a_64\n  distribution: ketama\n  auto_eject_hosts: true\n  servers:\n   - 127.0.0.1:22131:1 alpha\n   - \"127.0.0.1:22132:3 beta\"\n   - 127.0.0.1:22133:1 gamma\n\nbeta:\n  servers:\n   - 10.0.0.1:11211:1\n";
        let i = read_config(config).unwrap();
        assert_eq!(i.algo.name(), "twemproxy");
        assert_eq!(i.nodes(), "alpha,beta*3,gamma");
        assert_eq!(i.left_out.len(), 2, "{:?}", i.left_out);
        assert!(i.left_out[1].to_string().contains("only the first pool"));
        let md5 = "pool:\n  hash: md5\n  servers:\n   - 127.0.0.1:22131:1\n   - 127.0.0.1:22132:2\n   - 127.0.0.2:11211:1\n   - /var/run/mc.sock:1\n";
        let i = read_config(md5).unwrap();
        assert_eq!(i.algo.name(), "ketama");
        assert_eq!(
            i.nodes(),
            "127.0.0.1:22131,127.0.0.1:22132*2,127.0.0.2:11211,/var/run/mc.sock:"
        );
        // The scenario it makes is one the engine builds.
        let scenario = i.apply(Scenario::default());
        assert!(scenario.is_ok(), "{:?}", scenario.err());
    }

    #[test]
    fn a_twemproxy_pool_that_is_not_modelled_is_refused_with_where_and_why() {
        let at = |text: &str| read_config(text).unwrap_err().to_string();
        assert_eq!(
            at("p:\n  servers:\n   - 10.0.0.1:11211:0\n"),
            "config line 3, column 6: expected a weight, a whole number from 1, found '10.0.0.1:11211:0'"
        );
        assert!(at("p:\n  servers:\n   - 10.0.0.1:x:1\n").contains("a port from 1 to 65535"));
        assert!(at("p:\n  servers:\n   - cache\n").contains("host:port:weight [name]"));
        assert!(at("p:\n  servers:\n   - 10.0.0.1:1:1 a:11211\n").contains(":11211"));
        assert!(at("p:\n  hash: murmur\n  servers:\n   - a:1:1\n").contains("fnv1a_64"));
        assert!(at("p:\n  distribution: modula\n  servers:\n   - a:1:1\n").contains("modula"));
        assert!(at("p:\n  hash_tag: \"{}\"\n  servers:\n   - a:1:1\n").contains("hash_tag"));
        assert_eq!(
            at("p:\n  servers:\n"),
            "twemproxy config: no server takes part in the hash"
        );
    }

    #[test]
    fn a_bad_config_says_where_and_what_was_expected() {
        let e =
            read_config("upstream pool {\n  hash $k consistent;\n  server 10.0.0.1 weight=x;\n}\n")
                .unwrap_err();
        assert_eq!(
            e.to_string(),
            "config line 3, column 19: expected weight=N, a whole number from 1, found 'weight=x'"
        );
        let round_robin = read_config("upstream pool {\n  server a;\n}").unwrap_err();
        assert!(
            round_robin.to_string().contains("round robin"),
            "{round_robin}"
        );
        assert_eq!(
            read_config("hello").unwrap_err(),
            Problem::ConfigNotRecognized
        );
        // A name the server list would split (,), weigh (*) or expand ({ }) is refused.
        assert_eq!(
            read_config("upstream u {\n  hash $k consistent;\n  server a,b:80;\n}\n")
                .unwrap_err()
                .to_string(),
            "config line 3, column 10: expected a name without , * { or } (the server list's own signs), found 'a,b:80'"
        );
        assert!(
            read_config("backend b\n  hash-type consistent\n  server s*2 a:80\n")
                .unwrap_err()
                .to_string()
                .contains("expected a name without")
        );
        assert!(read_config("p:\n  servers:\n   - 127.0.0.1:11212:1 {x}\n")
            .unwrap_err()
            .to_string()
            .contains("expected a name without"));
        let with_id = read_config("backend b\n  hash-type consistent\n  server s1 a:80 id 7\n");
        assert!(with_id
            .unwrap_err()
            .to_string()
            .contains("declaration order"));
    }

    /// Round 3's cuts: signs that ended a list early or cut a name are refused with where,
    /// `#` inside a word is part of it (as nginx reads it), a byte-order mark is no part of
    /// the first word, and a long line is read with every column right.
    #[test]
    fn nothing_cuts_a_server_list_silently() {
        let at = |text: &str| read_config(text).unwrap_err().to_string();
        let upstream = |body: &str| format!("upstream u {{\n  hash $k consistent;\n{body}}}\n");
        // `server s{3;` was read as the server `s`; a stray `{ }` ended the block early.
        assert_eq!(
            at(&upstream("  server s{3;\n  server b;\n")),
            "config line 3, column 11: expected a name without , * { or } (the server list's own signs), found '{'"
        );
        assert_eq!(
            at(&upstream("  { }\n  server b;\n")),
            "config line 3, column 3: expected a directive (server, hash, …) or the block's closing }, found '{'"
        );
        // HAProxy splits at white space only: the name `s{3` is refused, not cut to `s`.
        assert!(
            at("backend b\n  balance uri\n  hash-type consistent\n  server s{3 10.0.0.1:80\n")
                .contains("found 's{3'")
        );
        // nginx: `#` starts a comment only where a word could start.
        let i = read_config(&upstream(
            "  server a#1:80; # the first\n  server b#2:80;\n",
        ))
        .unwrap();
        assert_eq!(i.nodes(), "a#1:80,b#2:80");
        // HAProxy: `#` starts a comment anywhere.
        let i = read_config(
            "backend b\n  balance uri\n  hash-type consistent\n  server s1 a:80#weight 9\n",
        )
        .unwrap();
        assert_eq!(i.nodes(), "s1");
        // A byte-order mark before nginx's, HAProxy's, `CLUSTER NODES` and `nodetool ring`.
        assert_eq!(
            read_config(&format!("\u{FEFF}{}", upstream("  server a;\n")))
                .unwrap()
                .nodes(),
            "a"
        );
        assert_eq!(
            read_config(
                "\u{FEFF}backend b\n  balance uri\n  hash-type consistent\n  server s1 a:80\n"
            )
            .unwrap()
            .nodes(),
            "s1"
        );
        // Several upstreams: the first is read (the command line says so).
        let two = format!(
            "{}upstream other {{\n  hash $k consistent;\n  server z;\n}}\n",
            upstream("  server a;\n")
        );
        let i = read_config(&two).unwrap();
        assert_eq!(i.nodes(), "a");
        assert_eq!(
            i.left_out[0].to_string(),
            "1 other section(s) of servers: only 'u' is read"
        );
        // HAProxy reads at most 64 words on a line; the reader refuses the 65th.
        let long_line = format!(
            "backend b\n  balance uri\n  hash-type consistent\n  server s1 a:80{}\n",
            " check".repeat(70)
        );
        assert!(
            at(&long_line).starts_with("config line 4, column 384: expected the end of the line"),
            "{}",
            at(&long_line)
        );
        // One long line of words: the columns of its last words are counted right.
        let many: String = (0..20_000).map(|i| format!("server s{i}; ")).collect();
        let long = format!("upstream u {{ hash $k consistent; {many} server x weight=0; }}");
        let column = long.find("weight=0").unwrap() + 1;
        assert_eq!(
            at(&long),
            format!("config line 1, column {column}: expected weight=N, a whole number from 1, found 'weight=0'")
        );
    }

    /// HAProxy configs as people write them — `hash-type` in `defaults`, `default-server
    /// weight` (in a backend and in `defaults`), backups, `server-template`, `listen`, two
    /// backends — place every recorded key on the server Debian's HAProxy chose
    /// (`tests/reference/haproxy-configs.txt`, by `tools/haproxy-config-vectors.py`).
    #[test]
    fn haproxy_configs_place_keys_as_haproxy_did() {
        let vectors = include_str!("../../tests/reference/haproxy-configs.txt");
        type Case<'a> = (&'a str, String, Vec<(&'a str, &'a str)>);
        let mut cases: Vec<Case<'_>> = Vec::new();
        for line in vectors.lines().filter(|l| !l.starts_with('#')) {
            if let Some(name) = line.strip_prefix("config ") {
                cases.push((name, String::new(), Vec::new()));
            } else if let Some(text) = line.strip_prefix("| ") {
                let config = &mut cases.last_mut().unwrap().1;
                config.push_str(text);
                config.push('\n');
            } else {
                let (key, server) = line.split_once(' ').unwrap();
                cases.last_mut().unwrap().2.push((key, server));
            }
        }
        assert_eq!(cases.len(), 7);
        for (name, config, answers) in &cases {
            let i = read_config(config).unwrap_or_else(|e| panic!("{name}: {e}"));
            let base = Scenario::from_pairs([("keys", "0..1")]).unwrap();
            let scenario = i.apply(base).unwrap();
            let sim = crate::engine::sim::Simulation::new(&scenario).unwrap();
            let wrong: Vec<String> = answers
                .iter()
                .filter_map(|(key, server)| {
                    let (_, id) = sim.lookup(key).unwrap();
                    let ours = &sim.server(id).unwrap().name;
                    (ours != server).then(|| format!("{key}: {ours}, haproxy {server}"))
                })
                .collect();
            assert!(
                wrong.is_empty(),
                "{name} ({}): {} of {} differ, e.g. {:?}",
                i.nodes(),
                wrong.len(),
                answers.len(),
                &wrong[..wrong.len().min(3)]
            );
        }
        // What the configs became, for the reader of this test.
        let nodes = |name: &str| {
            let (_, config, _) = cases.iter().find(|c| c.0 == name).unwrap();
            let i = read_config(config).unwrap();
            (i.nodes(), i.down(), i.backups)
        };
        assert_eq!(nodes("default-server").0, "s1,s2*5,s3,s4*5");
        assert_eq!(nodes("defaults-default-server").0, "a*3,b,c*3");
        assert_eq!(
            nodes("backup"),
            (
                "a,b*2,c,d".into(),
                "b".into(),
                vec!["'spare1'".into(), "'spare2'".into()]
            )
        );
        assert_eq!(
            nodes("template").0,
            "first*3,web1*2,web2*2,web3*2,web4*2,app2,app3"
        );
        assert_eq!(nodes("two-backends").0, "h1,h2*2,h3");
    }

    /// What HAProxy does that `algo=haproxy` does not model is refused, naming it.
    #[test]
    fn haproxy_configs_not_modelled_are_refused_with_the_reason() {
        let backend = |lines: &str| {
            format!("backend pool\n  balance uri\n{lines}  server a 10.0.0.1:80\n  server b 10.0.0.2:80\n")
        };
        let why = |text: &str| read_config(text).unwrap_err().to_string();
        for function in ["crc32", "djb2", "wt6", "sdbm", "sdbm avalanche-x"] {
            assert!(
                why(&backend(&format!("  hash-type consistent {function}\n")))
                    .contains("not crc32, djb2, wt6 or a plain sdbm"),
                "{function}"
            );
        }
        assert!(
            why("backend pool\n  hash-type consistent\n  server a 10.0.0.1:80\n")
                .contains("roundrobin unless set")
        );
        assert!(why(
            "backend pool\n  balance roundrobin\n  hash-type consistent\n  server a x:1\n"
        )
        .contains("does not hash a key"));
        assert!(why(&backend(
            "  hash-type consistent\n  hash-balance-factor 150\n"
        ))
        .contains("hash-balance-factor"));
        assert!(why(&backend("  hash-type consistent\n  hash-key addr\n")).contains("hash-key id"));
        assert!(why(&backend(
            "  hash-type consistent\n  server z 10.0.0.9:80 backup\n"
        ))
        .contains("list backups last"));
        assert!(why(&backend(
            "  hash-type consistent\n  server-template w 3 web.example:80\n"
        ))
        .contains("depends on resolution"));
        assert!(why(&backend(
            "  hash-type consistent\n  server-template w 0 10.0.0.1:80\n"
        ))
        .contains("how many servers"));
        assert!(why(&backend("  hash-type map-based\n")).contains("no `hash-type consistent`"));
        // `hash-balance-factor 0` is off, `hash-key id` the default: both modelled.
        assert!(read_config(&backend(
            "  hash-type consistent\n  hash-balance-factor 0\n  hash-key id\n"
        ))
        .is_ok());
    }

    /// A real cluster's own layout, recorded from the real systems, is recognised: Redis
    /// Cluster's `CLUSTER NODES` (its own slot table) and Cassandra's `nodetool ring` (its
    /// own tokens) are read, `CLUSTER SHARDS` is sent to the command line; configs of other
    /// systems are not taken for one.
    #[test]
    fn a_clusters_own_layout_is_recognised() {
        let section = |file: &str, prefix: &str| -> String {
            file.lines()
                .filter_map(|l| l.strip_prefix(prefix))
                .map(|l| format!("{l}\n"))
                .collect()
        };
        let redis = include_str!("../../tests/reference/redis-cluster.txt");
        let cassandra = include_str!("../../tests/reference/cassandra-ring.txt");
        let imported = read_config(&section(redis, "node ")).unwrap();
        assert_eq!(imported.algo.name(), "slots");
        assert!(imported.slots.is_some());
        let imported = read_config(&section(cassandra, "ring ")).unwrap();
        assert_eq!(imported.algo.name(), "cassandra");
        assert_eq!(imported.tokens.unwrap().common_count(), Some(16));
        // A pasted CRUSH map is read whole, hosts and all; one the reader refuses says why.
        let map = include_str!("../../tests/reference/crush/3-hosts.txt");
        let imported = read_config(map).unwrap();
        assert_eq!(imported.algo.name(), "ceph");
        assert_eq!(imported.servers.len(), 12);
        assert!(imported.crush.is_some());
        let straw = map.replacen("alg straw2", "alg straw", 1);
        assert!(
            matches!(read_config(&straw), Err(Problem::CrushMap { ref why }) if why.contains("straw2")),
            "{:?}",
            read_config(&straw)
        );
        for (text, what) in [
            (section(redis, "shards "), "CLUSTER SHARDS"),
            (section(redis, "shards-raw "), "CLUSTER SHARDS"),
        ] {
            assert_eq!(
                read_config(&text),
                Err(Problem::ConfigNeedsCommandLine { what }),
                "{what}"
            );
        }
        for other in [
            "upstream u {\n hash $k consistent;\n server a;\n}",
            "backend slots\n  hash-type consistent\n  server s a:80\n",
            "pool:\n  servers:\n   - 127.0.0.1:11211:1 master\n",
        ] {
            assert_eq!(ClusterLayout::of(other), None, "{other}");
        }
    }
}
