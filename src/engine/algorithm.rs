//! Which placement algorithms there are, and what each needs from a scenario (vnodes,
//! weights, a hash, a bucket book): the list every other part reads — the command line's
//! `--algo`, the URL, `compare`, the page's menu. It imports nothing else of the engine, so
//! a scenario can name an algorithm without depending on any algorithm's code.
//!
//! Also the vnode label template and the weighted vnode count, which the scenario's
//! settings carry for the ring.

use std::fmt;

/// The placement algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Consistent-hash ring with virtual nodes (seeds 000–003).
    Ring,
    /// `hash(key) mod N` over the live servers in list order (seed 000's counter-example).
    ModN,
    /// Highest random weight over `hash(server + key)`.
    Rendezvous,
    /// Seed 004's CARP: MD5 of `server + key`, the smallest digest wins.
    Carp,
    /// Redis Cluster's 16384 hash slots.
    Slots,
    /// Jump consistent hash (Lamping & Veach 2014).
    Jump,
    /// Multi-probe consistent hashing (Appleton & O'Reilly 2015).
    MultiProbe,
    /// Maglev's lookup table (Eisenbud et al. 2016).
    Maglev,
    /// Consistent hashing with bounded loads (Mirrokni, Thorup & Zadimoghaddam 2018).
    Bounded,
    /// AnchorHash (Mendelson et al. 2020).
    Anchor,
    /// MementoHash (Coluzzi et al. 2023).
    Memento,
    /// DxHash (Dong & Wang 2021).
    Dx,
    /// JumpBackHash (Ertl 2024).
    JumpBack,
    /// BinomialHash (Coluzzi et al. 2024).
    Binomial,
    /// FlipHash (Masson & Lee 2024).
    Flip,
    /// Power consistent hashing (Leu 2023).
    Power,
}

impl Algorithm {
    /// Every algorithm, in the order the page lists them.
    pub const ALL: [Algorithm; 16] = [
        Algorithm::Ring,
        Algorithm::ModN,
        Algorithm::Rendezvous,
        Algorithm::Carp,
        Algorithm::Slots,
        Algorithm::Jump,
        Algorithm::MultiProbe,
        Algorithm::Maglev,
        Algorithm::Bounded,
        Algorithm::Anchor,
        Algorithm::Memento,
        Algorithm::Dx,
        Algorithm::JumpBack,
        Algorithm::Binomial,
        Algorithm::Flip,
        Algorithm::Power,
    ];

    /// The name used on the command line and in URLs.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::ModN => "modn",
            Algorithm::Rendezvous => "rendezvous",
            Algorithm::Carp => "carp",
            Algorithm::Slots => "slots",
            Algorithm::Jump => "jump",
            Algorithm::MultiProbe => "multiprobe",
            Algorithm::Maglev => "maglev",
            Algorithm::Bounded => "bounded",
            Algorithm::Anchor => "anchor",
            Algorithm::Memento => "memento",
            Algorithm::Dx => "dx",
            Algorithm::JumpBack => "jumpback",
            Algorithm::Binomial => "binomial",
            Algorithm::Flip => "flip",
            Algorithm::Power => "power",
        }
    }

    /// Parses a name from [`Algorithm::name`].
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// All names, comma separated, for error messages.
    pub fn names() -> String {
        Algorithm::ALL.map(Algorithm::name).join(", ")
    }

    /// True when the number of virtual nodes matters (the ring, and the ring under bounded
    /// loads).
    pub fn uses_vnodes(self) -> bool {
        matches!(self, Algorithm::Ring | Algorithm::Bounded)
    }

    /// True when server weights change placement (mod-N and seed 004's CARP ignore them).
    pub fn uses_weights(self) -> bool {
        matches!(
            self,
            Algorithm::Ring | Algorithm::Rendezvous | Algorithm::Slots
        )
    }

    /// True when the scenario's hash decides placement (slots use CRC16 and CARP MD5; the
    /// hash then only spreads keys on the drawing).
    pub fn uses_hash(self) -> bool {
        matches!(
            self,
            Algorithm::Ring
                | Algorithm::ModN
                | Algorithm::Rendezvous
                | Algorithm::MultiProbe
                | Algorithm::Bounded
        )
    }

    /// True for the bucket algorithms that only grow and shrink at the end of the server
    /// list: removing any other server renumbers the ones after it.
    pub fn shrinks_only_at_end(self) -> bool {
        matches!(
            self,
            Algorithm::Jump
                | Algorithm::JumpBack
                | Algorithm::Binomial
                | Algorithm::Flip
                | Algorithm::Power
        )
    }

    /// True for the bucket algorithms that let any server leave and keep a bucket book
    /// (the history of removals) to do it.
    pub fn keeps_bucket_book(self) -> bool {
        matches!(self, Algorithm::Anchor | Algorithm::Memento | Algorithm::Dx)
    }

    /// True when the algorithm is a ring of boundaries (so arcs can be diffed): the ring,
    /// Redis slots' ranges, Maglev's cells.
    pub fn is_ring_shaped(self) -> bool {
        matches!(self, Algorithm::Ring | Algorithm::Slots | Algorithm::Maglev)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text that a vnode's position is the hash of: a template with `{node}` and `{i}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelTemplate(String);

impl LabelTemplate {
    /// The longest template accepted.
    pub const MAX_LEN: usize = 100;

    /// Validates a template: it must contain `{node}`.
    pub fn parse(text: &str) -> Result<LabelTemplate, String> {
        if !text.contains("{node}") {
            return Err(format!(
                "label {} must contain {{node}} (and {{i}} for more than one vnode), e.g. {{node}}#{{i}}",
                super::text::quote(text)
            ));
        }
        if text.len() > Self::MAX_LEN {
            return Err(format!("label is longer than {} characters", Self::MAX_LEN));
        }
        if let Some(hidden) = super::text::first_hidden(text) {
            return Err(format!(
                "label must not contain the invisible or control character {hidden}"
            ));
        }
        Ok(LabelTemplate(text.to_owned()))
    }

    /// True when the label varies with `{i}`.
    pub fn has_index(&self) -> bool {
        self.0.contains("{i}")
    }

    /// The template text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The label of vnode `i` of server `node`.
    pub fn render(&self, node: &str, i: u32) -> String {
        let mut digits = itoa::Buffer::new();
        self.0
            .replace("{node}", node)
            .replace("{i}", digits.format(i))
    }
}

impl Default for LabelTemplate {
    fn default() -> Self {
        LabelTemplate("{node}#{i}".into())
    }
}

/// How many vnodes a server of `weight` gets: `round(vnodes × weight)`, at least 1.
pub fn weighted_vnodes(vnodes: u32, weight: f64) -> u32 {
    ((f64::from(vnodes) * weight).round() as u32).max(1)
}
