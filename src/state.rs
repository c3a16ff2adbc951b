//! The page's state and its reducer: pure Rust, no yew, tested natively.
//!
//! Every user action becomes an [`Action`]; [`PageState::reduce`] returns the next state.
//! A rejected action keeps the simulation exactly as it was and records a message that
//! says what is allowed. The previous counts are kept for the charts' ghost bars, and the
//! last change (with its movement) for the summary line and the arc highlight.

use crate::chart::group_thousands;
use crate::engine::keys::KeySpec;
use crate::engine::placement::Algorithm;
use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::scenario::{validate_name, Scenario};
use crate::engine::sim::{Change, Movement, Simulation, Work};

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
    /// Show a message about invalid input; nothing else changes.
    Reject(String),
    /// Replace the keys with `count` keys named by `pattern` (`{i}` is the number; empty
    /// means plain integers), both as typed into the form.
    SetKeys {
        /// How many keys, as typed.
        count: String,
        /// The key name pattern, as typed.
        pattern: String,
    },
    /// Reload the scenario with another seed for random keys, as typed.
    SetSeed(String),
    /// Look one key up, as typed.
    Lookup(String),
    /// Carry the pending change one step further (dispatched by the page between frames).
    Continue,
}

/// Hash evaluations a change may cost and still be applied at once; above this, the page
/// applies it in steps of [`STEP_COST`] and shows progress in between.
pub const SYNC_COST: usize = 1_500_000;
/// Hash evaluations per step of a stepped change (about 50–150 ms in the browser).
pub const STEP_COST: usize = 1_500_000;

/// A change still being computed, a step at a time.
#[derive(Clone)]
pub struct Pending {
    /// The change.
    pub change: Change,
    /// Its work so far.
    pub work: Work,
}

/// The most keys the page holds (the command line takes more).
pub const PAGE_MAX_KEYS: usize = 1_000_000;

/// One looked-up key and how its owner was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Lookup {
    /// The key as typed.
    pub key: String,
    /// Its ring position.
    pub position: u32,
    /// Its owner.
    pub owner: ServerId,
    /// The position of the ring point that owns it (ring-shaped algorithms).
    pub owner_point: Option<u32>,
    /// One line saying how the owner was found.
    pub explanation: String,
    /// For rendezvous and CARP: each live server's score for this key (name, score text,
    /// winner?), so the comparison itself is visible.
    pub scores: Vec<(String, String, bool)>,
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
    /// The last key lookup.
    pub lookup: Option<Lookup>,
    /// A change being applied in steps.
    pub pending: Option<Pending>,
}

impl PartialEq for PageState {
    fn eq(&self, other: &Self) -> bool {
        // Progress is left out on purpose: the views of the cluster need not re-render
        // while a stepped change advances; only the status line shows it.
        self.version == other.version && self.error == other.error && self.lookup == other.lookup
    }
}

impl PageState {
    /// The state for a scenario.
    pub fn new(scenario: &Scenario) -> Result<PageState, String> {
        if scenario.keys.len() > PAGE_MAX_KEYS {
            return Err(format!(
                "keys: {} keys is more than the page's limit of {}; the command line takes up to 10,000,000",
                group_thousands(scenario.keys.len() as u64),
                group_thousands(PAGE_MAX_KEYS as u64)
            ));
        }
        Ok(PageState {
            sim: Simulation::new(scenario)?,
            last: None,
            error: None,
            version: 0,
            lookup: None,
            pending: None,
        })
    }

    /// (keys done, keys in all) of the pending change, if any.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.pending.as_ref().map(|p| p.work.progress())
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
                Change::add(name)
            }
            Action::Reject(message) => return self.rejected(message),
            Action::Continue => return self.continue_pending(),
            Action::SetKeys { count, pattern } => match keys_from_form(&count, &pattern) {
                Ok(spec) => Change::SetKeys(spec),
                Err(e) => return self.rejected(e),
            },
            Action::SetSeed(text) => {
                let Ok(seed) = text.trim().parse::<u64>() else {
                    return self.rejected(format!(
                        "seed '{text}' must be a whole number from 0 to {}",
                        u64::MAX
                    ));
                };
                let mut scenario = self.sim.scenario();
                scenario.seed = seed;
                return self.reduce(Action::Load(scenario));
            }
            Action::Lookup(key) => {
                let key = key.trim();
                let mut next = self.clone();
                if key.is_empty() {
                    next.lookup = None;
                    return next;
                }
                match explain_lookup(&self.sim, key) {
                    Ok(found) => {
                        next.lookup = Some(found);
                        next.error = None;
                    }
                    Err(e) => next.error = Some(e),
                }
                return next;
            }
            Action::RemoveLast => match self.sim.servers().last() {
                Some(s) => Change::Remove(s.name.clone()),
                None => return self.rejected("there is no server to remove".into()),
            },
            Action::Apply(change) => change,
        };
        if let Some((done, total)) = self.progress() {
            return self.rejected(format!(
                "Still placing keys for the previous change ({}%); try again in a moment.",
                100 * done / total.max(1)
            ));
        }
        let mut work = match self.sim.start(&change) {
            Ok(work) => work,
            Err(e) => return self.rejected(e),
        };
        if work.remaining_cost() > SYNC_COST {
            work.advance(STEP_COST);
            let mut next = self.clone();
            next.pending = Some(Pending { change, work });
            next.error = None;
            return next;
        }
        self.completed(change, work)
    }

    fn continue_pending(&self) -> PageState {
        let Some(pending) = &self.pending else {
            return self.clone();
        };
        let mut pending = pending.clone();
        pending.work.advance(STEP_COST);
        if pending.work.is_finished() {
            let mut base = self.clone();
            base.pending = None;
            return base.completed(pending.change, pending.work);
        }
        let mut next = self.clone();
        next.pending = Some(pending);
        next
    }

    /// The state after a change whose work is done.
    fn completed(&self, change: Change, work: Work) -> PageState {
        let mut next = self.clone();
        let counts_before = self.counts();
        let names_before = self.names();
        let movement = next.sim.finish(work);
        let summary = summarize(&change, &movement, &names_before);
        next.last = Some(LastChange {
            change,
            movement,
            summary,
            counts_before,
            names_before,
        });
        next.error = None;
        next.pending = None;
        next.version += 1;
        next.lookup = self
            .lookup
            .as_ref()
            .and_then(|l| explain_lookup(&next.sim, &l.key).ok());
        next
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

/// The key spec for the page's keys form: `count` keys named by `pattern`.
pub fn keys_from_form(count: &str, pattern: &str) -> Result<KeySpec, String> {
    let n: usize = count
        .trim()
        .replace(',', "")
        .parse()
        .ok()
        .filter(|n| (1..=PAGE_MAX_KEYS).contains(n))
        .ok_or_else(|| {
            format!(
                "key count '{count}' must be a whole number from 1 to {}",
                group_thousands(PAGE_MAX_KEYS as u64)
            )
        })?;
    let pattern = pattern.trim();
    let text = if pattern.is_empty() {
        format!("0..{n}")
    } else {
        format!("{pattern}:0..{n}")
    };
    KeySpec::parse(&text).map_err(|e| e.to_string())
}

/// Finds a key's owner and says how, in one line.
pub fn explain_lookup(sim: &Simulation, key: &str) -> Result<Lookup, String> {
    let (position, owner) = sim.lookup(key)?;
    let name = |id: ServerId| {
        sim.server(id)
            .map_or("nobody".to_owned(), |s| s.name.clone())
    };
    let mut owner_point = None;
    let explanation = match sim.algorithm() {
        Algorithm::Ring => {
            let point = sim.ring().and_then(|r| r.successor(position).copied());
            owner_point = point.map(|p| p.position);
            match point {
                Some(p) => format!(
                    "{} of \"{key}\" = 0x{position:08x}; the first virtual node clockwise is {} at 0x{:08x} → server {}",
                    sim.hash().name(),
                    sim.label().render(&name(p.server), p.replica),
                    p.position,
                    name(p.server)
                ),
                None => format!("\"{key}\" hashes to 0x{position:08x}, but no server is up"),
            }
        }
        Algorithm::Slots => {
            let slot = crate::engine::hash::redis_slot(key);
            let point = sim.ring().and_then(|r| r.successor(position).copied());
            owner_point = point.map(|p| p.position);
            let tag = crate::engine::hash::redis_hash_tag(key.as_bytes());
            let tagged = if tag.len() < key.len() {
                format!(" (hash tag \"{}\")", String::from_utf8_lossy(tag))
            } else {
                String::new()
            };
            let served = match sim.slot_table().map(|t| t.owner(slot)) {
                Some(o) if o != owner => format!(
                    "slot {slot}'s master {} is down, so it is served by {}",
                    name(o),
                    name(owner)
                ),
                _ => format!("slot {slot} is served by {}", name(owner)),
            };
            format!("CRC16(\"{key}\"){tagged} mod 16384 = slot {slot}; {served}")
        }
        Algorithm::ModN => {
            let live: Vec<&str> = sim
                .servers()
                .iter()
                .filter(|s| s.up)
                .map(|s| s.name.as_str())
                .collect();
            format!(
                "{} of \"{key}\" = {position}; {position} mod {} = {} → {}",
                sim.hash().name(),
                live.len(),
                if live.is_empty() {
                    0
                } else {
                    position as usize % live.len()
                },
                name(owner)
            )
        }
        Algorithm::Rendezvous => format!(
            "{} of (server + \"{key}\") is highest for {} → {}",
            sim.hash().name(),
            name(owner),
            name(owner)
        ),
        Algorithm::Carp => format!(
            "MD5(server + \"{key}\") is smallest for {} → {}",
            name(owner),
            name(owner)
        ),
    };
    let live = sim.servers().iter().filter(|s| s.up);
    let scores = match sim.algorithm() {
        Algorithm::Rendezvous => live
            .map(|s| {
                let h = sim
                    .hash()
                    .position(&format!("{}{key}", s.name))
                    .unwrap_or(0);
                (s.name.clone(), format!("0x{h:08x}"), s.id == owner)
            })
            .collect(),
        Algorithm::Carp => live
            .map(|s| {
                let d = crate::engine::hash::md5_digest(format!("{}{key}", s.name).as_bytes());
                let hex: String = d.iter().map(|b| format!("{b:02x}")).collect();
                (s.name.clone(), hex, s.id == owner)
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(Lookup {
        key: key.to_owned(),
        position,
        owner,
        owner_point,
        explanation,
        scores,
    })
}

/// One sentence on how the algorithm places a key and what a change will do.
pub fn intro(algo: Algorithm) -> &'static str {
    match algo {
        Algorithm::Ring => "Each key walks clockwise to the first virtual node at or after its hash. Add, remove or fail a server to see which arcs and keys move.",
        Algorithm::ModN => "Each key goes to server number hash(key) mod N. Add or remove a server to change N and watch almost every key move.",
        Algorithm::Rendezvous => "Each key scores every server with hash(server + key) and goes to the highest; a new server takes only the keys it now wins.",
        Algorithm::Carp => "CARP (seed 004): each key goes to the server whose MD5(server + key) is smallest; a new server takes about 1/(N+1) of the keys.",
        Algorithm::Slots => "Redis Cluster: a key's slot is CRC16(key) mod 16384 and each master serves contiguous slot ranges; adding a master moves whole slots to it.",
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
    fn lookup_explains_the_first_vnode_clockwise() {
        let state = seed000().reduce(Action::Lookup("42".into()));
        let l = state.lookup.as_ref().unwrap();
        let (pos, owner) = state.sim.lookup("42").unwrap();
        assert_eq!((l.position, l.owner), (pos, owner));
        assert!(
            l.explanation.starts_with(&format!(
                "murmur64a-seed of \"42\" = 0x{pos:08x}; the first virtual node clockwise is 127."
            )),
            "{}",
            l.explanation
        );
        assert!(l.explanation.ends_with(&format!(
            "→ server {}",
            state.sim.server(owner).unwrap().name
        )));
        // The lookup follows the key through a change.
        let after = state.reduce(Action::Apply(Change::Fail(
            state.sim.server(owner).unwrap().name.clone(),
        )));
        assert_ne!(after.lookup.as_ref().unwrap().owner, owner);
    }

    #[test]
    fn carp_lookup_lists_every_digest_and_marks_the_smallest() {
        let s =
            Scenario::from_pairs([("algo", "carp"), ("nodes", "redis1,redis2,redis3")]).unwrap();
        let state = PageState::new(&s)
            .unwrap()
            .reduce(Action::Lookup("user:42".into()));
        let l = state.lookup.unwrap();
        assert_eq!(l.scores.len(), 3);
        let winner = l.scores.iter().find(|s| s.2).unwrap();
        assert!(l.scores.iter().all(|s| s.1 >= winner.1), "{:?}", l.scores);
        assert!(l.explanation.ends_with(&format!("→ {}", winner.0)));
    }

    #[test]
    fn keys_form_validates_count_and_pattern() {
        assert_eq!(
            keys_from_form("1,000", "user:{i}").unwrap().to_string(),
            "user:{i}:0..1000"
        );
        assert_eq!(keys_from_form("50", "").unwrap().to_string(), "0..50");
        assert!(keys_from_form("0", "")
            .unwrap_err()
            .contains("from 1 to 1,000,000"));
        assert!(keys_from_form("1000001", "")
            .unwrap_err()
            .contains("from 1 to 1,000,000"));
        assert!(keys_from_form("10", "user").unwrap_err().contains("{i}"));
        let state = seed000().reduce(Action::SetKeys {
            count: "abc".into(),
            pattern: String::new(),
        });
        assert!(state.error.unwrap().contains("key count 'abc'"));
        let big = Scenario::from_pairs([("keys", "0..2000000")]).unwrap();
        assert!(PageState::new(&big).err().unwrap().contains("page's limit"));
    }

    #[test]
    fn heavy_changes_step_with_progress_and_end_as_if_applied_at_once() {
        let s = Scenario::from_pairs([
            ("algo", "carp"),
            ("nodes", "A,B,C,D,E,F,G,H,I,J"),
            ("keys", "key-{i}:0..100000"),
        ])
        .unwrap();
        let state = PageState::new(&s).unwrap();
        let mut stepped = state.reduce(Action::AddServer(String::new()));
        assert!(
            stepped.pending.is_some(),
            "100,000 keys × 11 servers × MD5 is stepped"
        );
        assert_eq!(stepped.version, state.version);
        let busy = stepped.reduce(Action::RemoveLast);
        assert!(busy.error.unwrap().starts_with("Still placing keys"));
        let mut steps = 0;
        while stepped.pending.is_some() {
            let (done, _) = stepped.progress().unwrap();
            stepped = stepped.reduce(Action::Continue);
            if let Some((now, _)) = stepped.progress() {
                assert!(now > done);
            }
            steps += 1;
        }
        assert!(steps >= 2, "{steps}");
        let mut direct = state.sim.clone();
        let m = direct.apply(&Change::add("K")).unwrap();
        assert_eq!(stepped.last.as_ref().unwrap().movement, m);
        assert_eq!(
            stepped.counts(),
            PageState {
                sim: direct,
                ..state.clone()
            }
            .counts()
        );
        assert_eq!(stepped.version, state.version + 1);
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
