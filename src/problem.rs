//! What can be wrong with what a user gave — a form field, a URL parameter, a scenario
//! file, a command-line flag, a step — as data, not as English text: the engine and the
//! page return a [`Problem`], the command line prints its English ([`fmt::Display`]), and
//! each language's catalog words it (`Words::problem`, an exhaustive `match`, so a new
//! problem cannot ship without its words in every language). Values the user typed are
//! stored already quoted and cut to a short excerpt ([`crate::text::quote`]).

use std::fmt;

use crate::text::{fill, Scientific, Shortest};

/// A parameter whose problems are reported with its name in front ("keys: …").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The server list.
    Nodes,
    /// The failed servers.
    Down,
    /// The vnode label template.
    Label,
    /// The key set.
    Keys,
}

impl Field {
    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Field::Nodes => "nodes",
            Field::Down => "down",
            Field::Label => "vnode label",
            Field::Keys => "keys",
        }
    }
}

/// Which number of a key spec is not a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyNumber {
    /// `A` of `A..B`.
    RangeStart,
    /// `B` of `A..B`.
    RangeEnd,
    /// `COUNT` of `random:COUNT`.
    Count,
}

impl KeyNumber {
    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            KeyNumber::RangeStart => "range start",
            KeyNumber::RangeEnd => "range end",
            KeyNumber::Count => "count",
        }
    }
}

/// What kind of JSON value a scenario file gave where a string was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonKind {
    /// `{…}`.
    Object,
    /// `[…]`.
    List,
    /// `true` / `false`.
    Boolean,
    /// `null`.
    Null,
    /// Anything else.
    Other,
}

impl JsonKind {
    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            JsonKind::Object => "an object",
            JsonKind::List => "a list",
            JsonKind::Boolean => "true or false",
            JsonKind::Null => "null",
            JsonKind::Other => "something else",
        }
    }
}

/// What a config reader expected where it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // Each variant's English, in `name`, is its documentation.
pub enum Expected {
    UpstreamName,
    OpenBrace,
    CloseBrace,
    Semicolon,
    Address,
    NginxWeight,
    ServerName,
    ServerAddress,
    HaproxyWeight,
    PoolServer,
    PoolWeight,
    PoolPort,
    PoolName,
    PlainName,
    NodesLine,
    NodesAddress,
    MovingSlot,
    SlotRange,
    ShardStart,
    ShardSlots,
    ShardValue,
    ShardNode,
    ShardMaster,
    ShardAddress,
    RingStatus,
    RingState,
    RingToken,
    RingRow,
    Directive,
    TemplateCount,
    LineWords,
}

impl Expected {
    /// Every expectation.
    pub const ALL: [Expected; 31] = [
        Expected::UpstreamName,
        Expected::OpenBrace,
        Expected::CloseBrace,
        Expected::Semicolon,
        Expected::Address,
        Expected::NginxWeight,
        Expected::ServerName,
        Expected::ServerAddress,
        Expected::HaproxyWeight,
        Expected::PoolServer,
        Expected::PoolWeight,
        Expected::PoolPort,
        Expected::PoolName,
        Expected::PlainName,
        Expected::NodesLine,
        Expected::NodesAddress,
        Expected::MovingSlot,
        Expected::SlotRange,
        Expected::ShardStart,
        Expected::ShardSlots,
        Expected::ShardValue,
        Expected::ShardNode,
        Expected::ShardMaster,
        Expected::ShardAddress,
        Expected::RingStatus,
        Expected::RingState,
        Expected::RingToken,
        Expected::RingRow,
        Expected::Directive,
        Expected::TemplateCount,
        Expected::LineWords,
    ];

    /// Its English in messages.
    pub fn name(self) -> &'static str {
        match self {
            Expected::UpstreamName => "the upstream's name",
            Expected::Directive => "a directive (server, hash, …) or the block's closing }",
            Expected::TemplateCount => "how many servers, N or A-B, from 1 (at most 10,000)",
            Expected::LineWords => "the end of the line: HAProxy reads at most 64 words on a line",
            Expected::OpenBrace => "{",
            Expected::CloseBrace => "}",
            Expected::Semicolon => ";",
            Expected::Address => "an address",
            Expected::NginxWeight => "weight=N, a whole number from 1",
            Expected::ServerName => "a server name",
            Expected::ServerAddress => "the server's address",
            Expected::HaproxyWeight => "a weight from 1 to 256",
            Expected::PoolServer => "host:port:weight [name] or /path:weight [name]",
            Expected::PoolWeight => "a weight, a whole number from 1",
            Expected::PoolPort => "a port from 1 to 65535",
            Expected::PoolName => "a name that does not end in :11211",
            Expected::PlainName => "a name without , * { or } (the server list's own signs)",
            Expected::NodesLine => {
                "at least 8 fields (id, address, flags, master, ping, pong, epoch, link)"
            }
            Expected::NodesAddress => "an address ip:port@cport without , * { or }",
            Expected::MovingSlot => "a moving slot [N->-ID] or [N-<-ID]",
            Expected::SlotRange => "slots N or A-B, from 0 to 16383",
            Expected::ShardStart => "\"slots\", the start of a shard",
            Expected::ShardSlots => "slot start and end pairs, from 0 to 16383, then \"nodes\"",
            Expected::ShardValue => "a value after each field name",
            Expected::ShardNode => "\"id\", the start of a node",
            Expected::ShardMaster => "a node with role \"master\" in a shard that holds slots",
            Expected::ShardAddress => "the master's \"ip\" and \"port\", without , * { or }",
            Expected::RingStatus => "the Status Up, Down or ?",
            Expected::RingState => "the State Normal, Leaving, Joining or Moving",
            Expected::RingToken => "a token, a signed 64-bit number",
            Expected::RingRow => "a row: Address Rack Status State Load Owns Token",
        }
    }
}

/// Why a config's placement is not the consistent hashing modelled here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // Each variant's English, in `name`, is its documentation.
pub enum NotModelled {
    NginxPlainHash,
    NginxRoundRobin,
    HaproxyServerId,
    HaproxyNotConsistent,
    HaproxyHashFunction,
    HaproxyNotHashing,
    HaproxyBalanceFactor,
    HaproxyHashKey,
    HaproxyBackupFirst,
    HaproxyTemplateName,
    TwemproxyHash,
    TwemproxyDistribution,
    TwemproxyHashTag,
}

impl NotModelled {
    /// Every reason.
    pub const ALL: [NotModelled; 13] = [
        NotModelled::NginxPlainHash,
        NotModelled::NginxRoundRobin,
        NotModelled::HaproxyServerId,
        NotModelled::HaproxyNotConsistent,
        NotModelled::HaproxyHashFunction,
        NotModelled::HaproxyNotHashing,
        NotModelled::HaproxyBalanceFactor,
        NotModelled::HaproxyHashKey,
        NotModelled::HaproxyBackupFirst,
        NotModelled::HaproxyTemplateName,
        NotModelled::TwemproxyHash,
        NotModelled::TwemproxyDistribution,
        NotModelled::TwemproxyHashTag,
    ];

    /// Its English in messages.
    pub fn name(self) -> &'static str {
        match self {
            NotModelled::NginxPlainHash => {
                "`hash KEY;` without `consistent` is nginx's hash modulo the weights"
            }
            NotModelled::NginxRoundRobin => {
                "there is no `hash KEY consistent;`: this upstream balances round robin"
            }
            NotModelled::HaproxyServerId => {
                "a server's `id` fixes its number; servers here are numbered by declaration order"
            }
            NotModelled::HaproxyNotConsistent => "the backend has no `hash-type consistent` (nor its defaults)",
            NotModelled::HaproxyHashFunction => {
                "only `hash-type consistent` with no function (sdbm with avalanche) is modelled, not crc32, djb2, wt6 or a plain sdbm"
            }
            NotModelled::HaproxyNotHashing => {
                "its `balance` (roundrobin unless set) does not hash a key: only source, uri, url_param, hdr, rdp-cookie and hash do"
            }
            NotModelled::HaproxyBalanceFactor => {
                "`hash-balance-factor` (bounded loads) is not modelled for HAProxy"
            }
            NotModelled::HaproxyHashKey => {
                "only `hash-key id` (the default) is modelled, not addr or addr-port"
            }
            NotModelled::HaproxyBackupFirst => {
                "a backup server before an active one takes a number the active ones' points depend on; list backups last"
            }
            NotModelled::HaproxyTemplateName => {
                "a `server-template` for a DNS name: which of its servers are up depends on resolution (give an IP address)"
            }
            NotModelled::TwemproxyHash => {
                "only `hash: fnv1a_64` (the default) and `hash: md5` are modelled"
            }
            NotModelled::TwemproxyDistribution => {
                "only `distribution: ketama` is consistent hashing (modula and random are not)"
            }
            NotModelled::TwemproxyHashTag => {
                "a `hash_tag` hashes part of each key, which is not modelled"
            }
        }
    }
}

/// One thing wrong with an input or a request. Quoted values (`given`, `name`, …) are
/// already quoted excerpts; lists of choices are comma-separated.
#[derive(Debug, PartialEq)]
#[allow(missing_docs)] // Each variant's English, in `Display`, is its documentation.
pub enum Problem {
    // Server names and the server list.
    EmptyName,
    NameTooLong {
        name: String,
        max: usize,
    },
    NameHidden {
        name: String,
        hidden: String,
    },
    NameReserved {
        name: String,
        character: char,
    },
    NameNotUtf8 {
        name: String,
    },
    NameCombining {
        name: String,
        mark: String,
    },
    NameTwice {
        name: String,
    },
    ServerExists {
        name: String,
    },
    NoSuchServer {
        name: String,
        servers: String,
    },
    NoSuchServerInEmptyList {
        name: String,
    },
    AlreadyDown {
        name: String,
    },
    NotDown {
        name: String,
    },
    NothingToRemove,
    NothingToFail,
    ServerLimitReached {
        limit: usize,
    },
    TooManyServers {
        limit: usize,
    },
    NodesOverPageLimit {
        count: usize,
        limit: usize,
        command_line: String,
    },
    NodesItem {
        given: String,
    },
    NodesEmptyRange {
        given: String,
    },
    DownNotServer {
        name: String,
    },
    // Numbers.
    WeightNotNumber {
        given: String,
        max: f64,
    },
    WeightOutOfRange {
        given: String,
        max: f64,
    },
    WeightNotWhole {
        system: &'static str,
        name: String,
        weight: String,
    },
    VnodesOutOfRange {
        given: String,
        max: u32,
    },
    VnodesNotNumber {
        given: String,
        max: u32,
    },
    SeedOutOfRange {
        given: String,
    },
    ProbesOutOfRange {
        given: String,
        max: u32,
    },
    TableNotPrime {
        given: String,
        max: u32,
    },
    TableOutOfRange {
        given: String,
        max: u32,
    },
    PgNumOutOfRange {
        given: String,
        max: u32,
    },
    BalanceOutOfRange {
        given: String,
        max: f64,
    },
    KeyCountOutOfRange {
        given: String,
        max: String,
    },
    KeyCountNotNumber {
        given: String,
        max: String,
    },
    KeyNamePatternNeedsIndex {
        given: String,
    },
    FreezeOutOfRange {
        given: String,
        max: f64,
    },
    FlagNotBoolean {
        name: &'static str,
        given: String,
    },
    // Choices.
    UnknownAlgorithm {
        given: String,
        choices: String,
    },
    UnknownHash {
        given: String,
        choices: String,
    },
    UnknownParameter {
        given: String,
        known: String,
    },
    RepeatedParameter {
        name: String,
    },
    UnknownTour {
        given: String,
        choices: String,
    },
    TourStep {
        given: String,
        tour: &'static str,
        steps: usize,
    },
    StepNeedsTour,
    IgnoredParameter {
        ignored: &'static str,
        winner: &'static str,
    },
    Lang {
        given: String,
    },
    Theme {
        given: String,
    },
    View {
        given: String,
    },
    // Key sets.
    KeyNotNumber {
        which: KeyNumber,
        given: String,
    },
    KeySetEmpty,
    TooManyKeys {
        count: u64,
        max: u64,
    },
    KeysOverPageLimit {
        count: String,
        limit: String,
    },
    KeyListItem {
        max: usize,
        given: String,
    },
    KeyListHidden {
        hidden: String,
    },
    KeySyntax {
        given: String,
    },
    EmptyRange {
        start: u64,
        end: u64,
    },
    PatternNeedsIndex {
        given: String,
    },
    PatternHidden {
        hidden: String,
    },
    TemplateTooLong {
        max: usize,
    },
    IdentityNeedsInteger {
        max: u64,
        given: String,
    },
    // Vnode labels and the algorithms' own rules.
    LabelNeedsNode {
        given: String,
    },
    LabelTooLong {
        max: usize,
    },
    LabelHidden {
        hidden: String,
    },
    LabelNeedsIndex {
        given: String,
    },
    NoVnode {
        name: String,
        weight: f64,
        vnodes: u32,
        min: f64,
    },
    TooManyVnodes {
        total: u64,
        limit: u64,
    },
    RendezvousIdentity,
    MaglevTable {
        table: u32,
        servers: usize,
    },
    SweepNeedsRing,
    // Steps (`--step`, `step=` of a scenario).
    StepSyntax {
        given: String,
    },
    WeightStepSyntax {
        given: String,
    },
    UnknownStep {
        verb: String,
        given: String,
    },
    // Scenario files.
    NotAScenario {
        format: &'static str,
    },
    Version,
    UnknownField {
        given: String,
        fields: String,
    },
    NumberOrString {
        field: String,
    },
    MustBeString {
        field: String,
        kind: JsonKind,
    },
    NotJson,
    NotObject,
    Unreadable,
    FileTooLarge {
        size: String,
        max: String,
    },
    ConfigNotRecognized,
    /// A config the command line reads and the page does not (`what`: `Envoy` — the page has
    /// no room for a YAML reader —, `CLUSTER SHARDS` — its reader does not fit either;
    /// `CLUSTER NODES` gives the same table).
    ConfigNeedsCommandLine {
        what: &'static str,
    },
    /// `found` is None at the end of the config (then line and column are 0).
    ConfigSyntax {
        line: usize,
        column: usize,
        expected: Expected,
        found: Option<String>,
    },
    ConfigNotConsistent {
        system: &'static str,
        why: NotModelled,
    },
    ConfigNoServers {
        system: &'static str,
    },
    /// More problems than a message names.
    More {
        count: usize,
    },
    /// A problem of one parameter, named in front.
    In {
        field: Field,
        problem: Box<Problem>,
    },
    /// A problem of one line of pasted or opened text (a key list).
    OnLine {
        line: usize,
        problem: Box<Problem>,
    },
    KeyHasComma {
        given: String,
    },
    // Redis Cluster's slot table (`slotmap=`, `CLUSTER NODES`, `CLUSTER SHARDS`).
    SlotMapSyntax {
        given: String,
    },
    /// A parameter that only one algorithm takes (`slotmap`, `tokens`).
    NeedsAlgo {
        param: &'static str,
        algo: &'static str,
    },
    /// A per-server list (`slotmap`, `tokens`) whose entries do not match `nodes`.
    EntriesPerServer {
        param: &'static str,
        given: usize,
        servers: usize,
    },
    SlotHeldTwice {
        slot: u16,
        first: String,
        second: String,
    },
    SlotsUnheld {
        first: u16,
        last: u16,
    },
    // A Cassandra cluster's own tokens (`tokens=`, `nodetool ring`).
    TokensSyntax {
        given: String,
    },
    TokenHeldTwice {
        token: i64,
        first: String,
        second: String,
    },
    TooManyTokens {
        limit: usize,
    },
    // A Ceph cluster's CRUSH hierarchy (`crush=`, a pasted CRUSH map).
    CrushSyntax {
        given: String,
    },
    CrushUnknownItem {
        item: String,
        bucket: String,
    },
    CrushNotHeld {
        name: String,
    },
    /// A pasted CRUSH map the reader refused: why, in the reader's words (English; it
    /// names the line and quotes at most a short part of it).
    CrushMap {
        why: String,
    },
    /// A broken promise inside the program (a bug), in English for its developers.
    Internal(&'static str),
}

impl Problem {
    /// `self` as a problem of `field`.
    pub fn of(self, field: Field) -> Problem {
        Problem::In {
            field,
            problem: Box::new(self),
        }
    }

    /// The message in a language's table of templates (indexed as [`Problem::values`]),
    /// filled with the problem's values; `None` for a problem composed of other words.
    pub fn filled(&self, table: &[&str]) -> Option<String> {
        let (index, values) = self.values()?;
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        Some(fill(table[index], &values))
    }

    /// Which message this problem is and its values as text, `{0}`, `{1}`, … in order: the
    /// same for every language, whose table ([`EN`], `i18n::zh_cn`'s) holds the message
    /// with those places ([`fill`]). `None` for the few problems whose words are composed of
    /// other words (a nested problem, a named kind), which each language writes itself.
    #[allow(clippy::too_many_lines)] // One arm per problem: a table, not logic.
    pub fn values(&self) -> Option<(usize, Vec<String>)> {
        use Problem as P;
        Some(match self {
            P::EmptyName => (0, vec![]),
            P::NameTooLong { name, max } => (1, vec![name.to_string(), max.to_string()]),
            P::NameHidden { name, hidden } => (2, vec![name.to_string(), hidden.to_string()]),
            P::NameReserved { name, character } => {
                (3, vec![name.to_string(), character.to_string()])
            }
            P::NameNotUtf8 { name } => (4, vec![name.to_string()]),
            P::NameCombining { name, mark } => (5, vec![name.to_string(), mark.to_string()]),
            P::NameTwice { name } => (6, vec![name.to_string()]),
            P::ServerExists { name } => (7, vec![name.to_string()]),
            P::NoSuchServer { name, servers } => (8, vec![name.to_string(), servers.to_string()]),
            P::NoSuchServerInEmptyList { name } => (9, vec![name.to_string()]),
            P::AlreadyDown { name } => (10, vec![name.to_string()]),
            P::NotDown { name } => (11, vec![name.to_string()]),
            P::NothingToRemove => (12, vec![]),
            P::NothingToFail => (13, vec![]),
            P::ServerLimitReached { limit } => (14, vec![limit.to_string()]),
            P::TooManyServers { limit } => (15, vec![limit.to_string()]),
            P::NodesOverPageLimit {
                count,
                limit,
                command_line,
            } => (
                16,
                vec![
                    count.to_string(),
                    limit.to_string(),
                    command_line.to_string(),
                ],
            ),
            P::NodesItem { given } => (17, vec![given.to_string()]),
            P::NodesEmptyRange { given } => (18, vec![given.to_string()]),
            P::DownNotServer { name } => (19, vec![name.to_string()]),
            P::WeightNotNumber { given, max } => {
                (20, vec![given.to_string(), Shortest(*max).to_string()])
            }
            P::WeightOutOfRange { given, max } => {
                (21, vec![given.to_string(), Shortest(*max).to_string()])
            }
            P::WeightNotWhole {
                system,
                name,
                weight,
            } => (
                22,
                vec![system.to_string(), name.to_string(), weight.to_string()],
            ),
            P::VnodesOutOfRange { given, max } => (23, vec![given.to_string(), max.to_string()]),
            P::VnodesNotNumber { given, max } => (24, vec![given.to_string(), max.to_string()]),
            P::SeedOutOfRange { given } => (25, vec![given.to_string(), u64::MAX.to_string()]),
            P::ProbesOutOfRange { given, max } => (26, vec![given.to_string(), max.to_string()]),
            P::TableNotPrime { given, max } => (27, vec![given.to_string(), max.to_string()]),
            P::BalanceOutOfRange { given, max } => {
                (28, vec![given.to_string(), Shortest(*max).to_string()])
            }
            P::KeyCountOutOfRange { given, max } => (29, vec![given.to_string(), max.to_string()]),
            P::KeyCountNotNumber { given, max } => (30, vec![given.to_string(), max.to_string()]),
            P::KeyNamePatternNeedsIndex { given } => (31, vec![given.to_string()]),
            P::FreezeOutOfRange { given, max } => {
                (32, vec![given.to_string(), Shortest(*max).to_string()])
            }
            P::FlagNotBoolean { name, given } => (33, vec![name.to_string(), given.to_string()]),
            P::UnknownAlgorithm { given, choices } => {
                (34, vec![given.to_string(), choices.to_string()])
            }
            P::UnknownHash { given, choices } => (35, vec![given.to_string(), choices.to_string()]),
            P::UnknownParameter { given, known } => {
                (36, vec![given.to_string(), known.to_string()])
            }
            P::RepeatedParameter { name } => (37, vec![name.to_string()]),
            P::UnknownTour { given, choices } => (38, vec![given.to_string(), choices.to_string()]),
            P::TourStep { given, tour, steps } => (
                39,
                vec![given.to_string(), tour.to_string(), steps.to_string()],
            ),
            P::StepNeedsTour => (40, vec![]),
            P::IgnoredParameter { ignored, winner } => {
                (41, vec![ignored.to_string(), winner.to_string()])
            }
            P::Lang { given } => (42, vec![given.to_string()]),
            P::Theme { given } => (43, vec![given.to_string()]),
            P::View { given } => (44, vec![given.to_string()]),
            P::KeySetEmpty => (45, vec![]),
            P::TooManyKeys { count, max } => (46, vec![count.to_string(), max.to_string()]),
            P::KeysOverPageLimit { count, limit } => {
                (47, vec![count.to_string(), limit.to_string()])
            }
            P::KeyListItem { max, given } => (48, vec![max.to_string(), given.to_string()]),
            P::KeyListHidden { hidden } => (49, vec![hidden.to_string()]),
            P::KeySyntax { given } => (50, vec![given.to_string()]),
            P::EmptyRange { start, end } => (51, vec![start.to_string(), end.to_string()]),
            P::PatternNeedsIndex { given } => (52, vec![given.to_string()]),
            P::PatternHidden { hidden } => (53, vec![hidden.to_string()]),
            P::TemplateTooLong { max } => (54, vec![max.to_string()]),
            P::IdentityNeedsInteger { max, given } => {
                (55, vec![max.to_string(), given.to_string()])
            }
            P::LabelNeedsNode { given } => (56, vec![given.to_string()]),
            P::LabelTooLong { max } => (57, vec![max.to_string()]),
            P::LabelHidden { hidden } => (58, vec![hidden.to_string()]),
            P::LabelNeedsIndex { given } => (59, vec![given.to_string()]),
            P::NoVnode {
                name,
                weight,
                vnodes,
                min,
            } => (
                60,
                vec![
                    name.to_string(),
                    Scientific(*weight).to_string(),
                    vnodes.to_string(),
                    Shortest(*min).to_string(),
                ],
            ),
            P::TooManyVnodes { total, limit } => (61, vec![total.to_string(), limit.to_string()]),
            P::RendezvousIdentity => (62, vec![]),
            P::MaglevTable { table, servers } => (63, vec![table.to_string(), servers.to_string()]),
            P::SweepNeedsRing => (64, vec![]),
            P::StepSyntax { given } => (65, vec![given.to_string()]),
            P::WeightStepSyntax { given } => (66, vec![given.to_string()]),
            P::UnknownStep { verb, given } => (67, vec![verb.to_string(), given.to_string()]),
            P::NotAScenario { format } => (68, vec![format.to_string()]),
            P::Version => (69, vec![]),
            P::UnknownField { given, fields } => (70, vec![given.to_string(), fields.to_string()]),
            P::NumberOrString { field } => (71, vec![field.to_string()]),
            P::NotJson => (72, vec![]),
            P::NotObject => (73, vec![]),
            P::Unreadable => (74, vec![]),
            P::FileTooLarge { size, max } => (75, vec![size.to_string(), max.to_string()]),
            P::More { count } => (76, vec![count.to_string()]),
            P::SlotMapSyntax { given } => (77, vec![given.to_string()]),
            P::NeedsAlgo { param, algo } => (78, vec![param.to_string(), algo.to_string()]),
            P::EntriesPerServer {
                param,
                given,
                servers,
            } => (
                79,
                vec![param.to_string(), given.to_string(), servers.to_string()],
            ),
            P::SlotHeldTwice {
                slot,
                first,
                second,
            } => (
                80,
                vec![slot.to_string(), first.to_string(), second.to_string()],
            ),
            P::SlotsUnheld { first, last } if first == last => (81, vec![first.to_string()]),
            P::SlotsUnheld { first, last } => (82, vec![first.to_string(), last.to_string()]),
            P::TokensSyntax { given } => (83, vec![given.to_string()]),
            P::TokenHeldTwice {
                token,
                first,
                second,
            } if first == second => (84, vec![token.to_string(), first.to_string()]),
            P::TokenHeldTwice {
                token,
                first,
                second,
            } => (
                85,
                vec![token.to_string(), first.to_string(), second.to_string()],
            ),
            P::TooManyTokens { limit } => (86, vec![limit.to_string()]),
            P::ConfigNeedsCommandLine { what } => (87, vec![what.to_string()]),
            P::ConfigNotRecognized => (88, vec![]),
            P::ConfigNoServers { system } => (89, vec![system.to_string()]),
            P::KeyHasComma { given } => (90, vec![given.to_string()]),
            P::Internal(what) => (91, vec![what.to_string()]),
            P::TableOutOfRange { given, max } => (92, vec![given.to_string(), max.to_string()]),
            P::PgNumOutOfRange { given, max } => (93, vec![given.to_string(), max.to_string()]),
            P::CrushSyntax { given } => (94, vec![given.to_string()]),
            P::CrushUnknownItem { item, bucket } => {
                (95, vec![item.to_string(), bucket.to_string()])
            }
            P::CrushNotHeld { name } => (96, vec![name.to_string()]),
            P::CrushMap { why } => (97, vec![why.to_string()]),
            // Composed of other words: each language writes these itself. Named one by one,
            // so that a new problem is a compile error until it has its words.
            P::KeyNotNumber { .. }
            | P::MustBeString { .. }
            | P::ConfigSyntax { .. }
            | P::ConfigNotConsistent { .. }
            | P::In { .. }
            | P::OnLine { .. } => return None,
        })
    }
}

/// The problems' messages in English, by [`Problem::values`]' index.
pub const EN: [&str; 98] = [
    "server names must not be empty",
    "server name {0} is longer than {1} characters",
    "server name {0} contains the invisible or control character {1}; use visible characters only",
    "server name {0} contains '{1}', which is not allowed (',' separates servers, '*' gives a weight)",
    "server name {0} contains U+FFFD, the mark of text that was not valid UTF-8; check the encoding of the file or link",
    "server name {0} contains the combining mark {1}; write each accented letter as one character, so that two names that look the same are the same",
    "server name {0} appears twice; names must be unique",
    "a server named {0} already exists; names must be unique",
    "there is no server {0}; the servers are {1}",
    "there is no server {0}; the list is empty",
    "server {0} is already down",
    "server {0} is not down",
    "there is no server to remove",
    "there is no server to fail",
    "there are already {0} servers, the limit",
    "more than the limit of {0} servers",
    "nodes: {0} servers is more than the page's limit of {1}; the command line takes up to {2}",
    "nodes item {0} must look like NAME{i}:A..B, e.g. server-{i}:0..1000",
    "nodes item {0} is an empty range (the end is exclusive and must be larger)",
    "down: {0} is not one of the servers",
    "weight {0} is not a number; use a number above 0 and at most {1}",
    "weight {0} must be above 0 and at most {1}",
    "{0} weights are whole numbers (weight=1, 2, …): server {1} has weight {2}",
    "vnodes {0} must be a whole number from 1 to {1}",
    "vnodes {0} is not a whole number; use 1 to {1}",
    "seed {0} must be a whole number from 0 to {1}",
    "probes {0} must be a whole number from 1 to {1}",
    "table {0} must be a prime number up to {1}, e.g. 251 or 65537",
    "c {0} must be a number from 1 to {1}, e.g. 1.25",
    "key count {0} must be from 1 to {1}",
    "key count {0} is not a whole number; use 1 to {1}",
    "the key name pattern {0} needs {i} where the number goes, e.g. user:{i}; leave it empty for plain numbers",
    "freeze {0} must be a number of milliseconds from 0 to {1}",
    "{0} {1} must be 1 or 0",
    "unknown algorithm {0}; choose one of {1}",
    "unknown hash {0}; choose one of {1}",
    "unknown parameter {0}; known: {1}",
    "{0} is given more than once; give each parameter once",
    "tour {0} is not one of {1}",
    "step {0} of tour {1} must be 1 to {2} or last",
    "step needs a tour, e.g. tour=modn&step=2",
    "{0} is ignored: {1} takes precedence (notes=1 over embed=1, embed=1 over present=1, tour over view=compare)",
    "lang {0} must be en or zh-CN",
    "theme {0} must be light or dark",
    "view {0} must be ring or compare",
    "keys: the key set is empty",
    "keys: {0} keys is more than the limit of {1}",
    "keys: {0} keys is more than the page's limit of {1}; the command line takes up to 10,000,000",
    "keys: list items must be 1..={0} characters, got {1}",
    "keys: list items must not contain the invisible or control character {0}",
    "keys: expected A..B, TEMPLATE:A..B (TEMPLATE contains {i}), list:k1,k2,... or random:COUNT, got {0}",
    "keys: range {0}..{1} is empty (the end is exclusive and must be larger)",
    "keys: the name pattern {0} must contain {i} (where the number goes), e.g. key-{i}:0..1000",
    "keys: the name pattern must not contain the invisible or control character {0}",
    "keys: template is longer than {0} characters",
    "the identity hash needs decimal integer keys in 0..={0}, got {1}",
    "label {0} must contain {node} (and {i} for more than one vnode), e.g. {node}#{i}",
    "label is longer than {0} characters",
    "label must not contain the invisible or control character {0}",
    "label {0} has no {i}, so all vnodes of a server would land on one spot; add {i} or use vnodes=1",
    "server {0} of weight {1} would get no virtual node ({2} vnodes × weight rounds to 0); raise its weight to at least {3} or raise vnodes",
    "{0} virtual nodes in all is more than the limit of {1}; lower vnodes or weights",
    "rendezvous hashes server+key strings, which the identity hash cannot; pick another hash",
    "Maglev's table of {0} cells cannot hold {1} servers; use a larger prime table",
    "the vnode sweep needs the consistent-hash ring (algo ring)",
    "step {0} must look like add:NAME, remove:NAME, fail:NAME, recover:NAME, weight:NAME*W, vnodes:N, keys:SPEC, algo:NAME or hash:NAME",
    "step {0} must look like weight:NAME*W",
    "unknown step {0} in {1}; use add, remove, fail, recover, weight, vnodes, keys, algo or hash",
    "it is not a hashring-lab scenario (\"format\" must be \"{0}\")",
    "\"version\" must be 1",
    "unknown field {0}; a scenario has {1}",
    "\"{0}\" must be a whole number or a string",
    "it is not valid JSON",
    "it is not a JSON object",
    "it could not be read",
    "it is {0}; a scenario file is at most {1}",
    "and {0} more problems",
    "slotmap: expected slot ranges N or A-B from 0 to 16383, joined by +, one entry per server: {0}",
    "{0} is for algo={1} only",
    "{0} has entries for {1} servers; nodes lists {2}",
    "slot {0} is held by both {1} and {2}",
    "slot {0} is held by no master (the cluster is down for it)",
    "slots {0}–{1} are held by no master (the cluster is down for them)",
    "tokens: expected signed 64-bit numbers joined by +: {0}",
    "token {0} is listed twice for {1}",
    "token {0} is held by both {1} and {2}",
    "tokens: more than the limit of {0} in all",
    "{0}: read by the command line (hashring-lab simulate --config FILE), not by the page",
    "not a config the page reads: an nginx upstream block, an HAProxy backend, a twemproxy pool, CLUSTER NODES or nodetool ring output, or a CRUSH map (crushtool -d)",
    "{0} config: no server takes part in the hash",
    "keys: a key in a link cannot hold a comma, got {0}",
    "{0}",
    "Maglev's table size {0} must be a whole number from 1 to {1} (a prime, e.g. 251 or 65537)",
    "pg_num {0} must be a whole number from 1 to {1} (a Ceph pool's placement groups; Ceph's default is 32)",
    "crush: {0} is not part of a CRUSH layout (tunables:…, rule:STEP,…, or TYPE:NAME:ID(ITEM,…) per bucket)",
    "crush: bucket {1} holds {0}, which is neither an OSD (osd.N) nor a bucket defined before it",
    "crush: server {0} is in no bucket of the CRUSH hierarchy (a Ceph server is an OSD, osd.N, placed in a host)",
    "CRUSH map: {0}",
];

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Problem as P;
        if let Some(message) = self.filled(&EN) {
            return f.write_str(&message);
        }
        match self {
            P::KeyNotNumber { which, given } => {
                write!(f, "keys: {} {given} is not a whole number", which.name())
            }
            P::MustBeString { field, kind } => {
                write!(f, "\"{field}\" must be a string, not {}", kind.name())
            }
            P::ConfigSyntax {
                line,
                column,
                expected,
                found: Some(found),
            } => write!(
                f,
                "config line {line}, column {column}: expected {}, found {found}",
                expected.name()
            ),
            P::ConfigSyntax {
                expected,
                found: None,
                ..
            } => write!(f, "the config ends where {} was expected", expected.name()),
            P::ConfigNotConsistent { system, why } => write!(f, "{system} config: {}", why.name()),
            P::In { field, problem } => write!(f, "{}: {problem}", field.name()),
            P::OnLine { line, problem } => write!(f, "line {line}: {problem}"),
            // Every other problem is in the table above (`values` names each one).
            _ => Ok(()),
        }
    }
}

/// Two problems are equal when they say the same (a derived comparison of 79 variants
/// would cost the page 4 KB of WebAssembly; problems are compared only in tests and when a
/// state is compared with the last one).
impl std::error::Error for Problem {}

impl From<Problem> for String {
    fn from(p: Problem) -> String {
        p.to_string()
    }
}

/// The most problems one message names; the rest are counted ([`Problem::More`]), so that
/// a file with 100,000 bad fields gives a short message, quickly.
pub const MAX_NAMED: usize = 5;

/// `problems` with at most [`MAX_NAMED`] named and the rest counted.
pub fn capped(mut problems: Vec<Problem>) -> Vec<Problem> {
    if problems.len() > MAX_NAMED {
        let count = problems.len() - MAX_NAMED;
        problems.truncate(MAX_NAMED);
        problems.push(Problem::More { count });
    }
    problems
}

/// Problems in English, joined with "; " (the command line's and the host protocol's form).
pub fn english(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// One of each problem, for the tests that walk every problem through every language.
/// [`variant_index`] is an exhaustive `match`, so a new variant cannot be forgotten here
/// without a test failing.
#[cfg(test)]
#[allow(clippy::too_many_lines)] // One line per problem.
pub fn examples() -> Vec<Problem> {
    use Problem as P;
    let q = |s: &str| format!("'{s}'");
    let mut all = vec![
        P::EmptyName,
        P::NameTooLong {
            name: q("x"),
            max: 100,
        },
        P::NameHidden {
            name: q("a"),
            hidden: "U+200B".into(),
        },
        P::NameReserved {
            name: q("a,b"),
            character: ',',
        },
        P::NameNotUtf8 {
            name: q("A\u{FFFD}"),
        },
        P::NameCombining {
            name: q("e\u{301}"),
            mark: "U+0301".into(),
        },
        P::NameTwice { name: q("A") },
        P::ServerExists { name: q("A") },
        P::NoSuchServer {
            name: q("Z"),
            servers: "A, B".into(),
        },
        P::NoSuchServerInEmptyList { name: q("Z") },
        P::AlreadyDown { name: q("A") },
        P::NotDown { name: q("A") },
        P::NothingToRemove,
        P::NothingToFail,
        P::ServerLimitReached { limit: 100 },
        P::TooManyServers { limit: 10_000 },
        P::NodesOverPageLimit {
            count: 101,
            limit: 100,
            command_line: "10,000".into(),
        },
        P::NodesItem { given: q("s{i}:x") },
        P::NodesEmptyRange {
            given: q("s{i}:5..1"),
        },
        P::DownNotServer { name: q("Z") },
        P::WeightNotNumber {
            given: q("x"),
            max: 100.0,
        },
        P::WeightOutOfRange {
            given: q("0"),
            max: 100.0,
        },
        P::WeightNotWhole {
            system: "nginx",
            name: q("A"),
            weight: "1.5".into(),
        },
        P::VnodesOutOfRange {
            given: q("0"),
            max: 1000,
        },
        P::VnodesNotNumber {
            given: q("x"),
            max: 1000,
        },
        P::SeedOutOfRange { given: q("-1") },
        P::ProbesOutOfRange {
            given: q("0"),
            max: 256,
        },
        P::TableNotPrime {
            given: q("4"),
            max: 1_000_003,
        },
        P::TableOutOfRange {
            given: q("0"),
            max: 1_000_003,
        },
        P::PgNumOutOfRange {
            given: q("0"),
            max: 1_000_003,
        },
        P::BalanceOutOfRange {
            given: q("0.5"),
            max: 10.0,
        },
        P::KeyCountOutOfRange {
            given: q("0"),
            max: "1,000,000".into(),
        },
        P::KeyCountNotNumber {
            given: q("x"),
            max: "1,000,000".into(),
        },
        P::KeyNamePatternNeedsIndex { given: q("user") },
        P::FreezeOutOfRange {
            given: q("-1"),
            max: 60_000.0,
        },
        P::FlagNotBoolean {
            name: "embed",
            given: q("yes"),
        },
        P::UnknownAlgorithm {
            given: q("x"),
            choices: "ring, jump".into(),
        },
        P::UnknownHash {
            given: q("x"),
            choices: "xxh3, md5".into(),
        },
        P::UnknownParameter {
            given: q("x"),
            known: "algo, hash".into(),
        },
        P::RepeatedParameter { name: q("algo") },
        P::UnknownTour {
            given: q("x"),
            choices: "modn, ring".into(),
        },
        P::TourStep {
            given: q("9"),
            tour: "modn",
            steps: 3,
        },
        P::StepNeedsTour,
        P::IgnoredParameter {
            ignored: "present=1",
            winner: "embed=1",
        },
        P::Lang { given: q("fr") },
        P::Theme { given: q("blue") },
        P::View { given: q("x") },
        P::KeyNotNumber {
            which: KeyNumber::RangeStart,
            given: q("x"),
        },
        P::KeySetEmpty,
        P::TooManyKeys {
            count: 20_000_000,
            max: 10_000_000,
        },
        P::KeysOverPageLimit {
            count: "2,000,000".into(),
            limit: "1,000,000".into(),
        },
        P::KeyListItem {
            max: 200,
            given: q(""),
        },
        P::KeyListHidden {
            hidden: "U+0000".into(),
        },
        P::KeySyntax { given: q("x") },
        P::EmptyRange { start: 5, end: 1 },
        P::PatternNeedsIndex { given: q("k") },
        P::PatternHidden {
            hidden: "U+200B".into(),
        },
        P::TemplateTooLong { max: 200 },
        P::IdentityNeedsInteger {
            max: u64::from(u32::MAX),
            given: q("x"),
        },
        P::LabelNeedsNode { given: q("x") },
        P::LabelTooLong { max: 100 },
        P::LabelHidden {
            hidden: "U+200B".into(),
        },
        P::LabelNeedsIndex { given: q("{node}") },
        P::NoVnode {
            name: q("A"),
            weight: 0.01,
            vnodes: 10,
            min: 0.05,
        },
        P::TooManyVnodes {
            total: 2_000_000,
            limit: 1_000_000,
        },
        P::RendezvousIdentity,
        P::MaglevTable {
            table: 7,
            servers: 9,
        },
        P::SweepNeedsRing,
        P::StepSyntax { given: q("x") },
        P::WeightStepSyntax {
            given: q("weight:A"),
        },
        P::UnknownStep {
            verb: q("grow"),
            given: q("grow:A"),
        },
        P::NotAScenario {
            format: "hashring-lab scenario",
        },
        P::Version,
        P::UnknownField {
            given: q("colour"),
            fields: "format, version".into(),
        },
        P::NumberOrString {
            field: "seed".into(),
        },
        P::MustBeString {
            field: "nodes".into(),
            kind: JsonKind::Object,
        },
        P::NotJson,
        P::NotObject,
        P::Unreadable,
        P::FileTooLarge {
            size: "50 MB".into(),
            max: "16 MB".into(),
        },
        P::ConfigNotRecognized,
        P::ConfigNeedsCommandLine {
            what: "CLUSTER SHARDS",
        },
        P::ConfigSyntax {
            line: 3,
            column: 20,
            expected: Expected::NginxWeight,
            found: Some(q("weight=x")),
        },
        P::ConfigSyntax {
            line: 0,
            column: 0,
            expected: Expected::CloseBrace,
            found: None,
        },
        P::ConfigNotConsistent {
            system: "nginx",
            why: NotModelled::NginxRoundRobin,
        },
        P::ConfigNoServers { system: "nginx" },
        P::More { count: 99_995 },
        P::KeySetEmpty.of(Field::Keys),
        P::Internal("no work"),
        P::OnLine {
            line: 3,
            problem: Box::new(P::KeyHasComma { given: q("a,b") }),
        },
        P::KeyHasComma { given: q("a,b") },
        P::SlotMapSyntax {
            given: q("0-16384"),
        },
        P::NeedsAlgo {
            param: "slotmap",
            algo: "slots",
        },
        P::EntriesPerServer {
            param: "tokens",
            given: 3,
            servers: 4,
        },
        P::SlotHeldTwice {
            slot: 5,
            first: q("10.0.0.1:7000"),
            second: q("10.0.0.2:7000"),
        },
        P::SlotsUnheld {
            first: 101,
            last: 16383,
        },
        P::SlotsUnheld { first: 7, last: 7 },
        P::TokensSyntax { given: q("12x") },
        P::TokenHeldTwice {
            token: -9_223_372_036_854_775_807,
            first: q("10.0.1.1"),
            second: q("10.0.1.2"),
        },
        P::TokenHeldTwice {
            token: 7,
            first: q("a"),
            second: q("a"),
        },
        P::TooManyTokens { limit: 1_000_000 },
        P::CrushSyntax { given: q("host:a") },
        P::CrushUnknownItem {
            item: q("node-z"),
            bucket: q("default"),
        },
        P::CrushNotHeld { name: q("osd.9") },
        P::CrushMap {
            why: "line 40: bucket node-a: only alg straw2 is modelled; it has alg straw".into(),
        },
    ];
    // Every reason and every expectation a config reader words, in both catalogs.
    all.extend(NotModelled::ALL.iter().map(|&why| P::ConfigNotConsistent {
        system: "twemproxy",
        why,
    }));
    all.extend(Expected::ALL.iter().map(|&expected| P::ConfigSyntax {
        line: 1,
        column: 1,
        expected,
        found: Some(q("x")),
    }));
    all
}

/// The variant's number, for [`examples`]' completeness test.
#[cfg(test)]
#[allow(clippy::too_many_lines)] // One line per variant: its length is the enum's.
pub fn variant_index(p: &Problem) -> usize {
    use Problem as P;
    match p {
        P::EmptyName => 0,
        P::NameTooLong { .. } => 1,
        P::NameHidden { .. } => 2,
        P::NameReserved { .. } => 3,
        P::NameNotUtf8 { .. } => 4,
        P::NameCombining { .. } => 5,
        P::NameTwice { .. } => 6,
        P::ServerExists { .. } => 7,
        P::NoSuchServer { .. } => 8,
        P::NoSuchServerInEmptyList { .. } => 9,
        P::AlreadyDown { .. } => 10,
        P::NotDown { .. } => 11,
        P::NothingToRemove => 12,
        P::NothingToFail => 13,
        P::ServerLimitReached { .. } => 14,
        P::TooManyServers { .. } => 15,
        P::NodesOverPageLimit { .. } => 16,
        P::NodesItem { .. } => 17,
        P::NodesEmptyRange { .. } => 18,
        P::DownNotServer { .. } => 19,
        P::WeightNotNumber { .. } => 20,
        P::WeightOutOfRange { .. } => 21,
        P::WeightNotWhole { .. } => 22,
        P::VnodesOutOfRange { .. } => 23,
        P::VnodesNotNumber { .. } => 24,
        P::SeedOutOfRange { .. } => 25,
        P::ProbesOutOfRange { .. } => 26,
        P::TableNotPrime { .. } => 27,
        P::BalanceOutOfRange { .. } => 28,
        P::KeyCountOutOfRange { .. } => 29,
        P::KeyCountNotNumber { .. } => 30,
        P::KeyNamePatternNeedsIndex { .. } => 31,
        P::FreezeOutOfRange { .. } => 32,
        P::FlagNotBoolean { .. } => 33,
        P::UnknownAlgorithm { .. } => 34,
        P::UnknownHash { .. } => 35,
        P::UnknownParameter { .. } => 36,
        P::RepeatedParameter { .. } => 37,
        P::UnknownTour { .. } => 38,
        P::TourStep { .. } => 39,
        P::StepNeedsTour => 40,
        P::IgnoredParameter { .. } => 41,
        P::Lang { .. } => 42,
        P::Theme { .. } => 43,
        P::View { .. } => 44,
        P::KeyNotNumber { .. } => 45,
        P::KeySetEmpty => 46,
        P::TooManyKeys { .. } => 47,
        P::KeysOverPageLimit { .. } => 48,
        P::KeyListItem { .. } => 49,
        P::KeyListHidden { .. } => 50,
        P::KeySyntax { .. } => 51,
        P::EmptyRange { .. } => 52,
        P::PatternNeedsIndex { .. } => 53,
        P::PatternHidden { .. } => 54,
        P::TemplateTooLong { .. } => 55,
        P::IdentityNeedsInteger { .. } => 56,
        P::LabelNeedsNode { .. } => 57,
        P::LabelTooLong { .. } => 58,
        P::LabelHidden { .. } => 59,
        P::LabelNeedsIndex { .. } => 60,
        P::NoVnode { .. } => 61,
        P::TooManyVnodes { .. } => 62,
        P::RendezvousIdentity => 63,
        P::MaglevTable { .. } => 64,
        P::SweepNeedsRing => 65,
        P::StepSyntax { .. } => 66,
        P::WeightStepSyntax { .. } => 67,
        P::UnknownStep { .. } => 68,
        P::NotAScenario { .. } => 69,
        P::Version => 70,
        P::UnknownField { .. } => 71,
        P::NumberOrString { .. } => 72,
        P::MustBeString { .. } => 73,
        P::NotJson => 74,
        P::NotObject => 75,
        P::Unreadable => 76,
        P::FileTooLarge { .. } => 77,
        P::ConfigNotRecognized => 78,
        P::ConfigSyntax { .. } => 79,
        P::ConfigNotConsistent { .. } => 80,
        P::ConfigNoServers { .. } => 81,
        P::More { .. } => 82,
        P::In { .. } => 83,
        P::Internal(_) => 84,
        P::OnLine { .. } => 85,
        P::KeyHasComma { .. } => 86,
        P::ConfigNeedsCommandLine { .. } => 87,
        P::SlotMapSyntax { .. } => 88,
        P::NeedsAlgo { .. } => 89,
        P::EntriesPerServer { .. } => 90,
        P::SlotHeldTwice { .. } => 91,
        P::SlotsUnheld { .. } => 92,
        P::TokensSyntax { .. } => 93,
        P::TokenHeldTwice { .. } => 94,
        P::TooManyTokens { .. } => 95,
        P::TableOutOfRange { .. } => 96,
        P::PgNumOutOfRange { .. } => 97,
        P::CrushSyntax { .. } => 98,
        P::CrushUnknownItem { .. } => 99,
        P::CrushNotHeld { .. } => 100,
        P::CrushMap { .. } => 101,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_is_cut_to_the_first_few_and_a_count() {
        let many = (0..100_000).map(|_| Problem::Version).collect::<Vec<_>>();
        let cut = capped(many);
        assert_eq!(cut.len(), MAX_NAMED + 1);
        assert_eq!(cut[MAX_NAMED], Problem::More { count: 99_995 });
        assert_eq!(capped((0..3).map(|_| Problem::Version).collect()).len(), 3);
    }

    #[test]
    fn the_examples_hold_one_of_each_problem() {
        // Every variant at least once (config problems once per reason and expectation).
        let mut indices: Vec<usize> = examples().iter().map(variant_index).collect();
        indices.sort_unstable();
        indices.dedup();
        assert_eq!(indices, (0..indices.len()).collect::<Vec<_>>());
    }
}
