//! The page's state and its reducer: pure Rust, no yew, tested natively.
//!
//! Every user action becomes an [`Action`]; [`PageState::reduce`] returns the next state.
//! A rejected action keeps the simulation exactly as it was and records a message that
//! says what is allowed. The previous counts are kept for the charts' ghost bars, and the
//! last change (with its movement) for the summary line and the arc highlight.

use crate::chart::group_thousands;
use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::scenario::{validate_name, Scenario};
use crate::engine::sim::{Change, Movement, Simulation};

/// What the user can do.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Apply a change to the cluster or the keys.
    Apply(Change),
    /// Add a server with the given name (trimmed; empty means "use the suggestion").
    AddServer(String),
    /// Remove the last server in the list.
    RemoveLast,
    /// Start over from a scenario.
    Load(Scenario),
    /// Dismiss the error message.
    DismissError,
}

/// The last applied change, for the summary and highlights.
#[derive(Clone, Debug, PartialEq)]
pub struct LastChange {
    /// What was done.
    pub change: Change,
    /// What moved.
    pub movement: Movement,
    /// One sentence describing it.
    pub summary: String,
    /// Counts per server id before the change (for ghost bars).
    pub counts_before: Vec<(ServerId, u64)>,
    /// Names of servers before the change (flows may name removed servers).
    pub names_before: Vec<(ServerId, String)>,
}

/// The page state.
#[derive(Clone)]
pub struct PageState {
    /// The simulation.
    pub sim: Simulation,
    /// The last change, if any since the scenario was loaded.
    pub last: Option<LastChange>,
    /// The message for the last rejected action.
    pub error: Option<String>,
    /// Bumped on every accepted action, so views can tell states apart cheaply.
    pub version: u64,
}

impl PartialEq for PageState {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version && self.error == other.error
    }
}

impl PageState {
    /// The state for a scenario.
    pub fn new(scenario: &Scenario) -> Result<PageState, String> {
        Ok(PageState {
            sim: Simulation::new(scenario)?,
            last: None,
            error: None,
            version: 0,
        })
    }

    /// The next free name: A, B, … Z, then S27, S28, …
    pub fn suggested_name(&self) -> String {
        let taken = |n: &str| self.sim.servers().iter().any(|s| s.name == n);
        ('A'..='Z')
            .map(String::from)
            .chain((27..).map(|i| format!("S{i}")))
            .find(|n| !taken(n))
            .unwrap_or_default()
    }

    /// The state after `action`.
    pub fn reduce(&self, action: Action) -> PageState {
        let change = match action {
            Action::DismissError => {
                let mut next = self.clone();
                next.error = None;
                return next;
            }
            Action::Load(scenario) => {
                return match PageState::new(&scenario) {
                    Ok(mut next) => {
                        next.version = self.version + 1;
                        next
                    }
                    Err(e) => self.rejected(e),
                }
            }
            Action::AddServer(name) => {
                let name = name.trim();
                let name = if name.is_empty() {
                    self.suggested_name()
                } else {
                    name.to_owned()
                };
                if let Err(e) = validate_name(&name) {
                    return self.rejected(e);
                }
                Change::Add { name, weight: 1.0 }
            }
            Action::RemoveLast => match self.sim.servers().last() {
                Some(s) => Change::Remove(s.name.clone()),
                None => return self.rejected("there is no server to remove".into()),
            },
            Action::Apply(change) => change,
        };
        let mut next = self.clone();
        let counts_before = self.counts();
        let names_before = self.names();
        match next.sim.apply(&change) {
            Ok(movement) => {
                let summary = summarize(&change, &movement, &names_before);
                next.last = Some(LastChange {
                    change,
                    movement,
                    summary,
                    counts_before,
                    names_before,
                });
                next.error = None;
                next.version += 1;
                next
            }
            Err(e) => self.rejected(e),
        }
    }

    fn rejected(&self, message: String) -> PageState {
        let mut next = self.clone();
        next.error = Some(message);
        next
    }

    /// (id, keys) for every server, in list order.
    pub fn counts(&self) -> Vec<(ServerId, u64)> {
        self.sim
            .servers()
            .iter()
            .map(|s| (s.id, self.sim.count(s.id)))
            .collect()
    }

    fn names(&self) -> Vec<(ServerId, String)> {
        self.sim
            .servers()
            .iter()
            .map(|s| (s.id, s.name.clone()))
            .collect()
    }

    /// Keys of server `id` before the last change, when there was one.
    pub fn count_before(&self, id: ServerId) -> Option<u64> {
        let last = self.last.as_ref()?;
        Some(
            last.counts_before
                .iter()
                .find(|(i, _)| *i == id)
                .map_or(0, |c| c.1),
        )
    }
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// One sentence for a change, e.g. "Added E: 13,060 of 50,000 keys moved (26.1%; ideal
/// 20.0%) — from A 3,159, B 2,968, C 3,512, D 3,421".
pub fn summarize(change: &Change, m: &Movement, names: &[(ServerId, String)]) -> String {
    let name = |id: ServerId| -> String {
        if id == NO_OWNER {
            return "nobody".into();
        }
        names
            .iter()
            .find(|n| n.0 == id)
            .map_or_else(|| format!("#{id}"), |n| n.1.clone())
    };
    let what = match change {
        Change::Add { name, .. } => format!("Added {name}"),
        Change::Remove(n) => format!("Removed {n}"),
        Change::Fail(n) => format!("{n} failed"),
        Change::Recover(n) => format!("{n} recovered"),
        Change::SetWeight(n, w) => format!("Weight of {n} set to {w}"),
        Change::SetVnodes(v) => format!("Virtual nodes set to {v}"),
        Change::SetKeys(k) => format!("Keys set to {k}"),
        Change::SetAlgorithm(a) => format!("Switched to {a}"),
        Change::SetHash(h) => format!("Hash switched to {}", h.name()),
    };
    let mut s = format!(
        "{what}: {} of {} keys moved ({}",
        group_thousands(m.moved),
        group_thousands(m.keys),
        percent(m.moved_fraction())
    );
    if let Some(ideal) = m.ideal_fraction {
        s.push_str(&format!("; ideal {}", percent(ideal)));
    }
    s.push(')');
    if m.moved > 0 {
        // Name the side that has several servers: sources on add, targets on remove.
        let sources = dedup(m.flows.iter().map(|f| f.from));
        let targets = dedup(m.flows.iter().map(|f| f.to));
        let by_source = targets.len() == 1 && sources.len() > 1;
        let (word, side) = if by_source {
            ("from", sources)
        } else {
            ("to", targets)
        };
        let list: Vec<String> = side
            .iter()
            .map(|&id| {
                let keys: u64 = m
                    .flows
                    .iter()
                    .filter(|f| (if by_source { f.from } else { f.to }) == id)
                    .map(|f| f.keys)
                    .sum();
                format!("{} {}", name(id), group_thousands(keys))
            })
            .collect();
        s.push_str(&format!(" — {word} {}", list.join(", ")));
    }
    s
}

fn dedup(ids: impl Iterator<Item = ServerId>) -> Vec<ServerId> {
    let mut v: Vec<ServerId> = ids.collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed000() -> PageState {
        let s = Scenario::from_pairs([
            ("hash", "murmur64a-seed"),
            ("vnodes", "200"),
            ("label", "{node}{i}"),
            ("nodes", "127.1.1.1#A,127.2.2.2#B,127.3.3.3#C,127.4.4.4#D"),
            ("keys", "0..50000"),
        ])
        .unwrap();
        PageState::new(&s).unwrap()
    }

    #[test]
    fn removing_a_server_summarizes_where_keys_went() {
        let state = seed000().reduce(Action::Apply(Change::Remove("127.1.1.1#A".into())));
        let last = state.last.as_ref().unwrap();
        assert_eq!(last.movement.moved, 12162);
        assert!(
            last.summary.starts_with(
                "Removed 127.1.1.1#A: 12,162 of 50,000 keys moved (24.3%; ideal 25.0%) — to "
            ),
            "{}",
            last.summary
        );
        assert_eq!(state.count_before(1), Some(11834));
    }

    #[test]
    fn adding_names_sources_and_rejects_duplicates_keeping_state() {
        let state = seed000().reduce(Action::AddServer(String::new()));
        assert_eq!(state.sim.servers().last().unwrap().name, "A");
        assert!(state.last.as_ref().unwrap().summary.contains("— from "));
        let again = state.reduce(Action::AddServer("A".into()));
        assert!(again.error.as_ref().unwrap().contains("already exists"));
        assert_eq!(again.sim.servers().len(), 5);
        assert_eq!(again.version, state.version);
        let bad = state.reduce(Action::AddServer("x,y".into()));
        assert!(bad.error.unwrap().contains("not allowed"));
    }

    #[test]
    fn remove_last_on_an_empty_list_is_a_message() {
        let mut state = PageState::new(&Scenario::from_pairs([("nodes", "A")]).unwrap()).unwrap();
        state = state.reduce(Action::RemoveLast);
        assert!(state.sim.servers().is_empty());
        assert_eq!(state.sim.count(0), 0);
        let none = state.reduce(Action::RemoveLast);
        assert_eq!(none.error.as_deref(), Some("there is no server to remove"));
    }
}
