//! The clusters SQL names: a name registered with `hashring_cluster`, a page link or a
//! config text, built once per worker thread (the engine's simulation is not `Send`) and
//! kept while queries go on naming it ([`Definition::built_here`], shared with the Polars
//! plugin). A registered name may stand for another cluster
//! with changes applied (`hashring_cluster('next', 'now', 'add:E')`): the changes are
//! applied in order to that cluster's simulation, as the command line's `--step` does —
//! which a link cannot say (Anchor's and Dx's placement depends on the order servers left).

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::RwLock;

pub use hashring_lab::configs::built::Built;
use hashring_lab::configs::built::Definition;
use hashring_lab::configs::looks_like_link;
use hashring_lab::text::quote;

/// The names registered with `hashring_cluster` in one database (each database that loads
/// the extension has its own, shared by its connections, as its catalog is), and what each
/// stands for: the definition, not a built cluster — each thread builds its own.
#[derive(Default)]
pub struct Registry {
    named: RwLock<HashMap<String, Definition>>,
}

/// The longest name `hashring_cluster` takes.
const MAX_NAME: usize = 64;

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
            None => Ok(Definition::of_text(spec)),
        }
    }

    /// The cluster SQL names with `spec`, built on this thread once.
    pub fn cluster(&self, spec: &str) -> Result<Rc<Built>, String> {
        self.definition(spec)?.built_here()
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
        let built = definition.build()?;
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
