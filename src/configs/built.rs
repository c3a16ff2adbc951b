//! A cluster other programs name by text — a page link or a system's config, then changes
//! in the command line's `--step` syntax — built once per thread and kept while their
//! queries go on naming it. The bindings that place other engines' keys share it: the
//! DuckDB extension's vectors and the Polars plugin's columns arrive on the engines' worker
//! threads, many batches per query, and the engine's simulation is not `Send`.
//!
//! The changes are applied in order to the cluster's simulation, as `--step` does, which a
//! link cannot say (Anchor's and Dx's placement depends on the order servers left).

use std::cell::RefCell;
use std::rc::Rc;

use super::cluster_of_text;
use crate::engine::change::Change;
use crate::engine::owners::KeyOwners;
use crate::engine::sim::Simulation;
use crate::text::quote;

/// What a cluster is made from: a link or config text, then changes in `--step` syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// A page link or a system's config text ([`cluster_of_text`]).
    pub text: String,
    /// Changes applied after, in order.
    pub steps: Vec<String>,
}

/// A cluster ready to place keys: its simulation and its servers' names.
pub struct Built {
    /// The simulation of the cluster's scenario, the steps applied.
    pub sim: Rc<Simulation>,
    /// Its servers' names, to name an owner.
    pub owners: KeyOwners,
}

/// Clusters a thread keeps built, most recent last: a query names one or two.
const KEPT_PER_THREAD: usize = 8;

thread_local! {
    static BUILT: RefCell<Vec<(Definition, Rc<Built>)>> = const { RefCell::new(Vec::new()) };
}

impl Definition {
    /// A cluster with no changes applied.
    pub fn of_text(text: &str) -> Definition {
        Definition {
            text: text.to_owned(),
            steps: Vec::new(),
        }
    }

    /// Builds the cluster, refusing what cannot place key by key and steps that change
    /// the keys (the caller's engine has the keys).
    pub fn build(&self) -> Result<Built, String> {
        let scenario = cluster_of_text(&self.text).map_err(|e| e.to_string())?;
        let mut sim = Simulation::new(&scenario).map_err(|e| e.to_string())?;
        for step in &self.steps {
            if step.starts_with("keys:") {
                return Err(format!(
                    "{}: the engine places the keys it is given; a step changes the servers",
                    quote(step)
                ));
            }
            let change = Change::parse(step).map_err(|e| e.to_string())?;
            sim.apply(&change)
                .map_err(|e| format!("step {}: {e}", quote(step)))?;
        }
        let owners = KeyOwners::of(&sim)?;
        Ok(Built {
            sim: Rc::new(sim),
            owners,
        })
    }

    /// The cluster, built on this thread once and kept while it is among the last few
    /// this thread used.
    pub fn built_here(&self) -> Result<Rc<Built>, String> {
        if let Some(found) = BUILT.with_borrow(|kept| {
            kept.iter()
                .find(|(d, _)| d == self)
                .map(|(_, b)| Rc::clone(b))
        }) {
            return Ok(found);
        }
        let built = Rc::new(self.build()?);
        BUILT.with_borrow_mut(|kept| {
            if kept.len() == KEPT_PER_THREAD {
                kept.remove(0);
            }
            kept.push((self.clone(), Rc::clone(&built)));
        });
        Ok(built)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_apply_in_order_and_the_thread_keeps_the_build() {
        let now = Definition::of_text("?algo=ring&nodes=A,B,C&vnodes=40");
        let next = Definition {
            steps: vec!["add:D".to_owned()],
            ..now.clone()
        };
        let built = next.built_here().expect("builds");
        assert_eq!(built.describe(), "ring over 4 servers");
        assert!(Rc::ptr_eq(&built, &next.built_here().expect("kept")));
        assert_eq!(
            now.built_here().expect("builds").describe(),
            "ring over 3 servers"
        );
    }

    #[test]
    fn a_step_that_changes_the_keys_is_refused() {
        let bad = Definition {
            steps: vec!["keys:100".to_owned()],
            ..Definition::of_text("?algo=ring&nodes=A,B")
        };
        let why = bad.build().err().expect("refused");
        assert!(why.contains("a step changes the servers"), "{why}");
    }
}
