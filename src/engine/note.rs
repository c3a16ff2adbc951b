//! What a system's config says that the scenario it becomes leaves out — replicas, a slot
//! on the move, a pool not read — kept as values. The command line says each on stderr
//! (`Display`, in English); the page reads configs with the same readers but does not word
//! these (yet), so their text is not in the page: only what the readers find is.

/// One thing a config says that the scenario leaves out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// twemproxy's `auto_eject_hosts: true`.
    AutoEjectHosts,
    /// A twemproxy config with more pools than the first, which is read.
    MorePools {
        /// How many after the first.
        more: usize,
        /// The first pool's name, quoted.
        first: String,
    },
    /// A config with more sections of servers (HAProxy `backend`/`listen`, nginx
    /// `upstream`) than the one read.
    OtherSections {
        /// How many others.
        more: usize,
        /// The name of the one read, quoted.
        read: String,
    },
    /// A Redis Cluster's replicas.
    Replicas(usize),
    /// A slot migrating out of a master (`[N->-ID]`).
    SlotMigrating {
        /// The slot as written.
        slot: String,
        /// The master it leaves (which serves it until moved).
        from: String,
        /// The master it goes to.
        to: String,
    },
    /// A slot importing into a master (`[N-<-ID]`).
    SlotImporting {
        /// The slot as written.
        slot: String,
        /// The master it comes into.
        into: String,
        /// The master it comes from.
        from: String,
    },
    /// Worded by a reader the page does not have (the command line's Envoy and `nodetool
    /// ring` notes).
    Said(String),
}

/// Keeps the note `make` builds — at the command line. The page does not word notes (yet), so
/// in its build (wasm32) nothing is kept and nothing built: their text and the strings they
/// copy stay out of the page, which has a few dozen bytes to spare.
#[inline]
pub fn keep(notes: &mut Vec<Note>, make: impl FnOnce() -> Note) {
    #[cfg(not(target_arch = "wasm32"))]
    notes.push(make());
    #[cfg(target_arch = "wasm32")]
    let _ = (notes, make);
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Note::AutoEjectHosts => f.write_str("auto_eject_hosts: a server that fails leaves the continuum — mark it failed to see that"),
            Note::MorePools { more, first } => write!(f, "{more} more pool(s) after {first}: only the first pool is read"),
            Note::OtherSections { more, read } => write!(f, "{more} other section(s) of servers: only {read} is read"),
            Note::Replicas(n) => write!(f, "{n} replica(s) (they serve reads only with READONLY)"),
            Note::SlotMigrating { slot, from, to } => write!(f, "slot {slot} migrating from {from} to {to} (served by {from} until moved; ASK redirects meanwhile)"),
            Note::SlotImporting { slot, into, from } => write!(f, "slot {slot} importing into {into} from {from}"),
            Note::Said(text) => f.write_str(text),
        }
    }
}
