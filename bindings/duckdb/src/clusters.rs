//! The clusters SQL names: a name registered with `hashring_cluster`, a page link or a
//! config text, built once per worker thread (the engine's simulation is not `Send`) and
//! kept while queries go on naming it. A registered name may stand for another cluster
//! with changes applied (`hashring_cluster('next', 'now', 'add:E')`): the changes are
//! applied in order to that cluster's simulation, as the command line's `--step` does —
//! which a link cannot say (Anchor's and Dx's placement depends on the order servers left).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::RwLock;

use hashring_lab::configs::{cluster_of_text, looks_like_link};
use hashring_lab::engine::change::Change;
use hashring_lab::engine::owners::KeyOwners;
use hashring_lab::engine::sim::Simulation;
use hashring_lab::text::quote;

/// A cluster ready to place keys: its simulation and its servers' names.
pub struct Built {
    /// The simulation of the cluster's scenario.
    pub sim: Simulation,
    /// Its servers' names, to name an owner.
    pub owners: KeyOwners,
}

impl Built {
    /// The name of the server that owns `key` (None: no server is up).
    pub fn owner(&self, key: &str) -> Result<Option<&str>, String> {
        self.owners.owner(&self.sim, key)
    }

    /// A cluster in a few words: `ketama over 6 servers`.
    pub fn describe(&self) -> String {
        let servers = self.sim.servers().len();
        format!(
            "{} over {servers} server{}",
            self.sim.settings().algo.name(),
            if servers == 1 { "" } else { "s" }
        )
    }
}

/// What a cluster is made from: a link or config text, then changes in `--step` syntax.
#[derive(Clone, PartialEq, Eq)]
struct Definition {
    text: String,
    steps: Vec<String>,
}

/// The names registered with `hashring_cluster` in one database (each database that loads
/// the extension has its own, shared by its connections, as its catalog is), and what each
/// stands for: the definition, not a built cluster — each thread builds its own.
#[derive(Default)]
pub struct Registry {
    named: RwLock<HashMap<String, Definition>>,
}

/// Clusters a thread keeps built, most recent last: a query names one or two.
const KEPT_PER_THREAD: usize = 8;

/// The longest name `hashring_cluster` takes.
const MAX_NAME: usize = 64;

thread_local! {
    static BUILT: RefCell<Vec<(Definition, Rc<Built>)>> = const { RefCell::new(Vec::new()) };
}

/// Builds the cluster of a definition, refusing what cannot place key by key.
fn build(definition: &Definition) -> Result<Built, String> {
    let scenario = cluster_of_text(&definition.text).map_err(|e| e.to_string())?;
    let mut sim = Simulation::new(&scenario).map_err(|e| e.to_string())?;
    for step in &definition.steps {
        if step.starts_with("keys:") {
            return Err(format!(
                "{}: SQL places the keys it is given; a step changes the servers",
                quote(step)
            ));
        }
        let change = Change::parse(step).map_err(|e| e.to_string())?;
        sim.apply(&change)
            .map_err(|e| format!("step {}: {e}", quote(step)))?;
    }
    let owners = KeyOwners::of(&sim)?;
    Ok(Built { sim, owners })
}

impl Registry {
    /// What `spec` names: a registered name first, else a link or config text.
    fn definition(&self, spec: &str) -> Result<Definition, String> {
        let named = self
            .named
            .read()
            .map_err(|_| "hashring_lab: the registered clusters are unreadable".to_owned())?
            .get(spec)
            .cloned();
        match named {
            Some(definition) => Ok(definition),
            None if is_one_word(spec) => Err(self.unknown_name(spec)),
            None => Ok(Definition {
                text: spec.to_owned(),
                steps: Vec::new(),
            }),
        }
    }

    /// The cluster SQL names with `spec`, built on this thread once.
    pub fn cluster(&self, spec: &str) -> Result<Rc<Built>, String> {
        let definition = self.definition(spec)?;
        if let Some(found) = BUILT.with_borrow(|kept| {
            kept.iter()
                .find(|(d, _)| *d == definition)
                .map(|(_, b)| Rc::clone(b))
        }) {
            return Ok(found);
        }
        let built = Rc::new(build(&definition)?);
        BUILT.with_borrow_mut(|kept| {
            if kept.len() == KEPT_PER_THREAD {
                kept.remove(0);
            }
            kept.push((definition, Rc::clone(&built)));
        });
        Ok(built)
    }

    /// Registers `name` for the cluster `spec` names, with `step` applied when given, after
    /// building it (a bad config or step is refused now, not at the query that uses it);
    /// returns the cluster in a few words.
    pub fn register(&self, name: &str, spec: &str, step: Option<&str>) -> Result<String, String> {
        if name.is_empty() || name.chars().count() > MAX_NAME || !is_one_word(name) {
            return Err(format!(
                "hashring_cluster: a cluster's name is one word of at most {MAX_NAME} characters, not {}",
                quote(name)
            ));
        }
        let mut definition = self.definition(spec)?;
        definition.steps.extend(step.map(str::to_owned));
        let built = build(&definition)?;
        self.named
            .write()
            .map_err(|_| "hashring_lab: the registered clusters are unwritable".to_owned())?
            .insert(name.to_owned(), definition);
        Ok(format!("{name}: {}", built.describe()))
    }

    /// What SQL is told of a name never registered: the names that are.
    fn unknown_name(&self, name: &str) -> String {
        let mut known: Vec<String> = self
            .named
            .read()
            .map(|n| n.keys().map(|k| quote(k)).collect())
            .unwrap_or_default();
        known.sort();
        let known = if known.is_empty() {
            "none".to_owned()
        } else {
            known.join(", ")
        };
        format!(
            "no cluster is registered as {} (registered: {known}); a cluster is a name registered with hashring_cluster('name', …), a config text or a page link (?algo=…)",
            quote(name)
        )
    }
}

/// Text that can only be a name: one word, no link.
fn is_one_word(text: &str) -> bool {
    !text.trim().is_empty() && !text.contains(char::is_whitespace) && !looks_like_link(text)
}
