//! What a tour step's narration may state, each number written as the page writes it: plain
//! data the catalogs' narrations read. It sits below the catalogs and the tours — the
//! tours fill it in from the page state ([`crate::tour`]), the catalogs word it
//! ([`crate::i18n`]) — so neither needs the other.

/// What each server holds for one key, and the last read.
#[derive(Clone, Debug, PartialEq)]
pub struct StoreView {
    /// The key.
    pub key: &'static str,
    /// (server, value held), in list order.
    pub values: Vec<(String, Option<u64>)>,
    /// The last read: the server asked and what it returned.
    pub read: Option<(String, Option<u64>)>,
}

/// What a step's narration may state, each number written as the page writes it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// All keys.
    pub keys: String,
    /// Keys the last change moved.
    pub moved: String,
    /// Keys it left in place.
    pub stayed: String,
    /// Moved, as a percentage of all keys.
    pub moved_pct: String,
    /// Stayed, as a percentage.
    pub stayed_pct: String,
    /// The ideal percentage to move, when there is one.
    pub ideal_pct: String,
    /// Where the moved keys went (names), joined with ", ".
    pub moved_to: Vec<String>,
    /// Where they came from.
    pub moved_from: Vec<String>,
    /// (server, keys) in list order.
    pub counts: Vec<(String, String)>,
    /// The busiest server and its keys.
    pub busiest: (String, String),
    /// The quietest server and its keys.
    pub quietest: (String, String),
    /// Standard deviation of the counts, one decimal.
    pub stddev: String,
    /// Peak over mean, three decimals.
    pub peak_mean: String,
    /// The busiest server's share of the keys.
    pub busiest_pct: String,
    /// The server owning the largest share of the ring, and that share (as the share
    /// table writes it), when the algorithm has a ring.
    pub top_share: (String, String),
    /// Live servers.
    pub servers: usize,
    /// Vnodes per server.
    pub vnodes: u32,
    /// The looked-up key and its owner.
    pub lookup: Option<(String, String)>,
    /// The picture with the followed key's walk, told: the algorithm, how to read its
    /// picture, what the picture shows (its structure in words and the walk).
    pub picture: String,
    /// The looked-up key's Redis slot.
    pub slot: Option<u16>,
    /// Stored data (stale-data story).
    pub store: Option<StoreView>,
    /// Servers the last change took away.
    pub gone: Vec<String>,
    /// Keys the last change moved between two servers it left alone.
    pub between: String,
    /// Ceph over a hierarchy: the looked-up object's copies, (OSD, its failure domain), in
    /// acting-set order.
    pub copies: Vec<(String, String)>,
    /// Ceph over a hierarchy: what the last change did to the placement groups —
    /// remapped, groups, copies moved, copies, primaries changed.
    pub groups: Option<[String; 5]>,
}

/// What [`Facts::count`] writes for a server the scenario does not have.
pub const UNKNOWN_SERVER: &str = "⟨?⟩";

impl Facts {
    /// The keys of `server` as the table writes them: "0" for a server the last change
    /// took away, and [`UNKNOWN_SERVER`] for a name the scenario never had — a narration
    /// that names a server the tour does not have (a renamed node) shows it, and a test
    /// walking every tour fails on it.
    pub fn count(&self, server: &str) -> &str {
        match self.counts.iter().find(|(n, _)| n == server) {
            Some(c) => c.1.as_str(),
            None if self.gone.iter().any(|g| g == server) => "0",
            None => UNKNOWN_SERVER,
        }
    }

    /// What a narration calls a server: the part after its last `#` (the seeds name their
    /// servers `127.1.1.1#A` and call them A), else its whole name.
    pub fn tag(name: &str) -> &str {
        name.rsplit_once('#').map_or(name, |p| p.1)
    }

    /// Every server's tag and keys in list order, `sep` between them ("A 2,505, B 2,487").
    pub fn listed(&self, sep: &str) -> String {
        self.counts
            .iter()
            .map(|(n, c)| format!("{} {c}", Facts::tag(n)))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// The tags of `names`, `sep` between them.
    pub fn tags(names: &[String], sep: &str) -> String {
        names
            .iter()
            .map(|n| Facts::tag(n))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// The tag of the server the last change took away ("" when none).
    pub fn removed(&self) -> &str {
        self.gone.first().map_or("", |g| Facts::tag(g))
    }

    /// The tag of the newest server (the last in list order, where an added server goes).
    pub fn newest(&self) -> &str {
        self.counts.last().map_or("", |c| Facts::tag(&c.0))
    }

    /// The looked-up object's copies, each with its failure domain ("osd.8 (node-c)"),
    /// `sep` between them.
    pub fn copies_listed(&self, sep: &str) -> String {
        let copies = self
            .copies
            .iter()
            .map(|(osd, domain)| format!("{osd} ({domain})"));
        copies.collect::<Vec<_>>().join(sep)
    }

    /// The owner of the looked-up key.
    pub fn owner(&self) -> &str {
        self.lookup.as_ref().map_or("", |l| l.1.as_str())
    }

    /// The value `server` holds for the story's key, as text ("—" when none).
    pub fn held(&self, server: &str) -> String {
        self.store
            .as_ref()
            .and_then(|s| s.values.iter().find(|v| v.0 == server))
            .and_then(|v| v.1)
            .map_or_else(|| "—".to_owned(), |v| v.to_string())
    }

    /// The last read's value, as text.
    pub fn read_value(&self) -> String {
        self.store
            .as_ref()
            .and_then(|s| s.read.as_ref())
            .and_then(|r| r.1)
            .map_or_else(|| "—".to_owned(), |v| v.to_string())
    }
}
