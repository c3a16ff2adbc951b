//! The page's state and its reducer: pure Rust, no yew, tested natively.
//!
//! Every user action becomes an [`Action`]; [`PageState::reduce`] returns the next state.
//! The big parts — the simulation with its million owners, the last change's moved keys —
//! sit behind `Rc`, so a copy of the state (for each view, each render, each animation
//! frame) costs a few pointer copies, not a copy of the keys; a branch that changes nothing
//! copies nothing big. A rejected action keeps the simulation exactly as it was and records
//! a message that says what is allowed.
//!
//! Heavy work (hashing a million keys, scoring every server per key) is started here and
//! carried on a step at a time by [`Action::Continue`], which the page dispatches between
//! frames; the current picture stays on screen, with a progress line, until it completes.

use crate::text::fill;
use std::rc::Rc;

use crate::engine::algorithms::ceph::group_pieces;
use crate::engine::crush::layout::NewHost;
use crate::engine::import::Imported;
use crate::engine::movement::GroupMoves;
use crate::engine::placement::Explanation;
use crate::engine::ring::ServerId;
use crate::engine::scenario::{parse_seed, Scenario};
use crate::engine::sim::{Change, Movement, Phase, Simulation, Work};
use crate::i18n::Words;
pub use crate::notice::Notice;
use crate::problem::Problem;
use crate::text::quote;
use crate::words::{self, group_thousands};

/// What the user can do.
#[derive(Debug, PartialEq)]
pub enum Action {
    /// Apply a change to the cluster or the keys.
    Apply(Change),
    /// Add a server with the given name (trimmed; empty means "use the suggestion").
    AddServer(String),
    /// Remove the last server in the list.
    RemoveLast,
    /// Start over from a scenario.
    Load(Scenario),
    /// Start over from what a pasted config describes ([`Imported::apply`] over the
    /// current scenario's other settings), saying which backup servers it leaves out (said
    /// until the next change, lookup or notice).
    PasteConfig(Rc<Imported>),
    /// Dismiss the error message.
    DismissError,
    /// Show a message about invalid input; nothing else changes.
    Reject(Problem),
    /// Show a notice; nothing else changes.
    Notify(Notice),
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
    /// Carry the pending work one step further (dispatched by the page between frames).
    Continue,
    /// Load a scenario (if given), then apply the changes in order, each one as the
    /// controls would; the last one is the change the page shows (tours use this).
    Script {
        /// The scenario to start from; `None` continues from the current one.
        load: Option<Scenario>,
        /// The changes, in order.
        changes: Vec<Change>,
        /// A key to look up when they are done.
        lookup: Option<String>,
    },
}

/// Work (in the engine's cost units, about 10 ns of wasm each) that may be done at once;
/// above this, the page does it in steps of [`STEP_COST`] and shows progress in between.
pub const SYNC_COST: usize = 3_000_000;
/// Work per step of stepped work: about 30 ms in the browser, so a step plus the render
/// after it stays under 100 ms.
pub const STEP_COST: usize = 3_000_000;

/// What the pending work will do when it completes.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// Apply this change.
    Change(Change),
    /// Replace the simulation with this scenario's.
    Load(Scenario),
    /// The page's first scenario: like a load, but the state keeps version 0 (nothing has
    /// changed yet, so the address bar keeps the link the user came with).
    Open(Scenario),
}

/// Work still being computed, a step at a time.
#[derive(Clone)]
pub struct Pending {
    /// What it is for.
    pub goal: Goal,
    /// Its work so far.
    pub work: Work,
}

/// The most keys the page holds (the command line takes more).
pub const PAGE_MAX_KEYS: usize = 1_000_000;
/// The most servers the page takes (the command line takes up to
/// [`crate::engine::scenario::MAX_SERVERS`]).
pub const PAGE_MAX_SERVERS: usize = 100;

/// One looked-up key and how its owner was found. The key stays pinned across changes:
/// each change looks it up again and adds the owner to its history.
#[derive(Clone, Debug, PartialEq)]
pub struct Lookup {
    /// The key as typed (trimmed).
    pub key: String,
    /// The engine's account of the lookup.
    pub explanation: Explanation,
    /// Its owner after each change since it was pinned, oldest first (the first entry has
    /// no change: where it was pinned); at most [`MAX_HISTORY`] entries.
    pub history: Vec<Visit>,
}

/// Where a pinned key was after one change.
#[derive(Clone, Debug, PartialEq)]
pub struct Visit {
    /// The change (none for where the key was pinned).
    pub change: Option<Change>,
    /// Its owner's name then (`None`: nobody).
    pub owner: Option<String>,
    /// Where its owner point was (ring-shaped algorithms), for its walk.
    pub point: Option<u32>,
}

/// The most changes a pinned key's history keeps.
pub const MAX_HISTORY: usize = 12;

impl Lookup {
    /// The key's place now, as a step of its history after `change`.
    fn visit(&self, change: Option<Change>, sim: &Simulation) -> Visit {
        Visit {
            change,
            owner: sim.server(self.explanation.owner).map(|s| s.name.clone()),
            point: self.owner_point(),
        }
    }

    /// True when the last change gave the key another owner.
    pub fn moved_last(&self) -> bool {
        match self.history.as_slice() {
            [.., before, now] => now.change.is_some() && before.owner != now.owner,
            _ => false,
        }
    }

    /// The position of the ring point that owns the key (ring-shaped algorithms).
    pub fn owner_point(&self) -> Option<u32> {
        use crate::engine::placement::How;
        match &self.explanation.how {
            How::FirstPointClockwise { point } | How::Slot { point, .. } => {
                point.map(|p| p.position)
            }
            _ => None,
        }
    }
}

/// The last applied change, for the summary and highlights.
#[derive(Clone, Debug, PartialEq)]
pub struct LastChange {
    /// What was done.
    pub change: Change,
    /// What moved.
    pub movement: Movement,
    /// Names of servers the change took away (the simulation no longer knows them).
    pub gone: Vec<(ServerId, String)>,
    /// Counts per server id before the change (for ghost bars).
    pub counts_before: Vec<(ServerId, u64)>,
    /// How many servers were up before the change (mod-N's N before it).
    pub up_before: usize,
    /// Ceph over a hierarchy: the placement groups the change remapped, every copy
    /// counted (the keys' counts follow primaries only).
    pub groups: Option<GroupMoves>,
}

impl LastChange {
    /// The name of a server the change took away.
    pub fn name(&self, id: ServerId) -> Option<String> {
        self.gone.iter().find(|g| g.0 == id).map(|g| g.1.clone())
    }
}

/// What a change did to the placement groups, when both sides hold their acting sets
/// (Ceph over a hierarchy): compared, not placed again.
fn group_moves(before: &Simulation, after: &Simulation) -> Option<GroupMoves> {
    let (old, old_size) = before.placement().held_acting_sets()?;
    let (new, new_size) = after.placement().held_acting_sets()?;
    let (old_groups, new_groups) = (old.len() / old_size, new.len() / new_size);
    let pieces = group_pieces(old_groups as u32, new_groups as u32);
    Some(GroupMoves::between(
        |pg| &old[pg * old_size..(pg + 1) * old_size],
        (|pg| &new[pg * new_size..(pg + 1) * new_size], new_groups),
        pieces,
        |_, _, _, _| {},
    ))
}

/// The page state. Cloning it copies pointers, never keys.
#[derive(Clone)]
pub struct PageState {
    /// The simulation.
    pub sim: Rc<Simulation>,
    /// The last change, if any since the scenario was loaded.
    pub last: Option<Rc<LastChange>>,
    /// The message for the last rejected action.
    pub error: Option<Notice>,
    /// How many notices have been said: bumped by every one, also by the same refusal said
    /// again, so that each can be answered once (an embed's host gets one `error` event per
    /// refused command, however alike).
    pub said: u32,
    /// What was wrong with the page's link: shown until dismissed, whatever runs meanwhile
    /// (a tour that the link opens starts at once and must not hide it).
    pub link_notice: Option<Notice>,
    /// Bumped whenever the simulation changes, so views can tell states apart cheaply.
    pub version: u64,
    /// The last key lookup.
    pub lookup: Option<Rc<Lookup>>,
    /// Work being done in steps.
    pub pending: Option<Rc<Pending>>,
    /// Actions refused while the pending work ran (reported when it completes).
    pub refused_while_busy: u32,
    /// Changes of a script still to apply after the pending work.
    pub queue: Rc<Vec<Change>>,
    /// A key a script looks up when its changes are done.
    pub queued_lookup: Option<Rc<str>>,
}

impl PartialEq for PageState {
    fn eq(&self, other: &Self) -> bool {
        // Progress is left out on purpose: the views of the cluster need not re-render
        // while stepped work advances; only the status line shows it. Nothing is compared
        // field by field (that code would only cost the page bytes): a notice is shown
        // only by `say`, which counts it in `said`, and is otherwise kept, carried or
        // cleared, so the count and whether one shows tell notices apart (the link's is
        // set before the first render and only cleared); a lookup is made anew by every
        // lookup and every change (the followed key looked up again), so the same one is
        // the same pointer.
        self.version == other.version
            && self.said == other.said
            && self.error.is_some() == other.error.is_some()
            && self.link_notice.is_some() == other.link_notice.is_some()
            && self.lookup.as_ref().map(Rc::as_ptr) == other.lookup.as_ref().map(Rc::as_ptr)
            && self.pending.is_some() == other.pending.is_some()
    }
}

impl PageState {
    /// The state for a scenario, built at once (tests, small scenarios).
    pub fn new(scenario: &Scenario) -> Result<PageState, Problem> {
        let state = PageState::loading(scenario)?;
        Ok(state.run_to_end())
    }

    /// The state for a scenario: built at once when that is cheap, otherwise started as
    /// pending work over a placeholder with the scenario's servers and no keys yet.
    pub fn loading(scenario: &Scenario) -> Result<PageState, Problem> {
        check_page_limits(scenario)?;
        let work = Work::load(scenario)?;
        let mut state = PageState {
            sim: Rc::new(Simulation::unassigned(work.config().clone())),
            last: None,
            error: None,
            said: 0,
            link_notice: None,
            version: 0,
            lookup: None,
            pending: None,
            refused_while_busy: 0,
            queue: Rc::new(Vec::new()),
            queued_lookup: None,
        };
        let cheap = work.remaining_cost() <= SYNC_COST;
        state.pending = Some(Rc::new(Pending {
            goal: Goal::Open(scenario.clone()),
            work,
        }));
        // A large scenario starts after the first paint (the page shows its servers and a
        // progress line at once); a small one is done before it.
        Ok(if cheap {
            state.continue_pending(SYNC_COST, false)
        } else {
            state
        })
    }

    fn run_to_end(mut self) -> PageState {
        while self.pending.is_some() {
            self = self.continue_pending(usize::MAX, false);
        }
        self
    }

    /// What the pending work is doing and how far it is, if any.
    pub fn progress(&self) -> Option<(Phase, usize, usize)> {
        self.pending.as_ref().map(|p| p.work.progress())
    }

    /// The next free name that the current settings accept: the servers' next number when
    /// they are numbered alike, else A, B, … Z, then S27, S28, … (numbers first under the
    /// identity hash, whose vnode labels must be numbers); empty when no server can be added.
    pub fn suggested_name(&self) -> String {
        if let Some(host) = self.host_to_add("") {
            return host.name;
        }
        let config = self.sim.config();
        if self.sim.servers().len() >= PAGE_MAX_SERVERS {
            return String::new();
        }
        let identity = config.settings.hash == crate::engine::hash::HashFn::Identity;
        // The servers the last change took away count as taken: offering the name just
        // removed reads as "put it back", and a numbered cluster goes on past it.
        let gone = self
            .last
            .iter()
            .flat_map(|l| l.gone.iter().map(|g| g.1.as_str()));
        let names: Vec<&str> = self
            .sim
            .servers()
            .iter()
            .map(|s| s.name.as_str())
            .chain(gone)
            .collect();
        crate::engine::scenario::suggest_name(&names, identity, &|n| {
            !names.contains(&n) && config.accepts_new_server(n).is_ok()
        })
        .unwrap_or_default()
    }

    /// Ceph over a hierarchy: the host "Add" adds, named `name` when that is free (see
    /// [`CrushLayout::host_to_add`]); its OSDs numbered past every server's, also the
    /// ones the last change took away.
    ///
    /// [`CrushLayout::host_to_add`]: crate::engine::crush::layout::CrushLayout::host_to_add
    pub fn host_to_add(&self, name: &str) -> Option<NewHost> {
        let layout = self.sim.settings().crush.as_deref()?;
        let gone = self
            .last
            .iter()
            .flat_map(|l| l.gone.iter().map(|g| g.1.as_str()));
        let servers = self.sim.servers().iter().map(|s| s.name.as_str());
        let taken: Vec<&str> = servers.chain(gone).collect();
        layout.host_to_add(name, &taken)
    }

    /// Ceph over a hierarchy: the host "Remove" takes out — the map's last host, the one
    /// "Add host" added — while it holds a server.
    pub fn host_to_remove(&self) -> Option<String> {
        let layout = self.sim.settings().crush.as_deref()?;
        let held = |b: &&crate::engine::crush::layout::LayoutBucket| {
            b.items
                .iter()
                .any(|i| self.sim.servers().iter().any(|s| s.name == *i))
        };
        let mut hosts = layout.buckets.iter().filter(|b| b.kind == "host");
        hosts.rfind(held).map(|b| b.name.clone())
    }

    /// The state after `action`.
    pub fn reduce(&self, action: Action) -> PageState {
        let goal = match action {
            Action::DismissError => {
                let mut next = self.clone();
                if next.error.take().is_none() && next.link_notice.take().is_none() {
                    return self.clone();
                }
                return next;
            }
            Action::Continue => return self.continue_pending(STEP_COST, true),
            Action::Reject(message) => return self.rejected(message),
            Action::Notify(notice) => {
                let mut next = self.clone();
                next.say(notice);
                return next;
            }
            Action::Script {
                load,
                changes,
                lookup,
            } => {
                if self.pending.is_some() {
                    return self.busy();
                }
                let mut changes = changes.into_iter();
                let goal = match load {
                    Some(scenario) => Goal::Load(scenario),
                    None => match changes.next() {
                        Some(first) => Goal::Change(first),
                        None => {
                            return match lookup {
                                Some(key) => self.looked_up(&key),
                                None => self.clone(),
                            }
                        }
                    },
                };
                let mut next = self.clone();
                next.queue = Rc::new(changes.collect());
                next.queued_lookup = lookup.map(Rc::from);
                return next.start(goal);
            }
            Action::Lookup(key) => return self.looked_up(&key),
            Action::Load(scenario) => Goal::Load(scenario),
            Action::PasteConfig(config) => {
                let scenario = match config.apply(self.sim.scenario()) {
                    Ok(scenario) => scenario,
                    Err(problem) => return self.reduce(Action::Reject(problem)),
                };
                let mut next = self.reduce(Action::Load(scenario));
                if next.error.is_none() && !config.backups.is_empty() {
                    next.say(Notice::BackupsLeftOut(config.backups.as_slice().into()));
                }
                return next;
            }
            Action::AddServer(name) => match self.host_to_add(&name) {
                // Ceph over a hierarchy: an OSD joins in a host, so a host of them joins.
                Some(host) => Goal::Change(Change::AddHost {
                    host: host.name,
                    parent: host.parent,
                    osds: host.osds,
                }),
                None => {
                    let name = name.trim();
                    let name = if name.is_empty() {
                        self.suggested_name()
                    } else {
                        name.to_owned()
                    };
                    Goal::Change(Change::add(name))
                }
            },
            Action::SetKeys { count, pattern } => match keys_from_form(&count, &pattern) {
                Ok(spec) => Goal::Change(Change::SetKeys(spec)),
                Err(e) => return self.rejected(e),
            },
            Action::SetSeed(text) => match parse_seed(&text) {
                Ok(seed) => {
                    let mut scenario = self.sim.scenario();
                    scenario.settings.seed = seed;
                    Goal::Load(scenario)
                }
                Err(e) => return self.rejected(e),
            },
            Action::RemoveLast => match (self.host_to_remove(), self.sim.servers().last()) {
                // Ceph over a hierarchy: the host added last leaves, with its OSDs.
                (Some(host), _) => Goal::Change(Change::RemoveHost(host)),
                (None, Some(s)) => Goal::Change(Change::Remove(s.name.clone())),
                (None, None) => return self.rejected(Problem::NothingToRemove),
            },
            Action::Apply(change) => Goal::Change(change),
        };
        if self.pending.is_some() {
            return self.busy();
        }
        let mut next = self.clone();
        next.queue = Rc::new(Vec::new());
        next.queued_lookup = None;
        next.start(goal)
    }

    fn busy(&self) -> PageState {
        let mut next = self.clone();
        next.refused_while_busy += 1;
        next.say(Notice::Busy(next.refused_while_busy));
        next
    }

    /// Says `notice` (it replaces the one shown), counted in [`PageState::said`].
    fn say(&mut self, notice: Notice) {
        self.error = Some(notice);
        self.said = self.said.wrapping_add(1);
    }

    /// Starts the work for `goal` (nothing is pending).
    fn start(&self, goal: Goal) -> PageState {
        let full = self.sim.servers().len() >= PAGE_MAX_SERVERS;
        let work = match &goal {
            Goal::Change(Change::Add { .. }) if full => Err(Problem::ServerLimitReached {
                limit: PAGE_MAX_SERVERS,
            }),
            Goal::Change(change) => self.sim.start(change),
            Goal::Load(scenario) | Goal::Open(scenario) => {
                check_page_limits(scenario).and_then(|()| Work::load(scenario))
            }
        };
        match work {
            Ok(work) => {
                let mut next = self.clone();
                next.error = None;
                next.pending = Some(Rc::new(Pending { goal, work }));
                next.continue_pending(SYNC_COST, false)
            }
            Err(e) => {
                let mut next = self.rejected(e);
                next.queue = Rc::new(Vec::new());
                next.queued_lookup = None;
                next
            }
        }
    }

    /// Advances the pending work by `budget` hash evaluations; completes it when done.
    /// Advances the pending work by about `budget`. With `own_task` (the page's stepped
    /// work), a step that finishes the work stops there and leaves committing it — the
    /// simulation's finish and the first render of the new state — to the next step, so the
    /// two heavy halves never share one browser task.
    fn continue_pending(&self, budget: usize, own_task: bool) -> PageState {
        let Some(pending) = &self.pending else {
            return self.clone();
        };
        let mut pending = Pending::clone(pending);
        let mut next = self.clone();
        let mut left = budget;
        let mut advanced = Ok(());
        while left > 0 && !pending.work.is_finished() {
            match pending.work.advance(left) {
                Ok(spent) => left = left.saturating_sub(spent.max(1)),
                Err(e) => {
                    advanced = Err(e);
                    break;
                }
            }
        }
        if let Err(e) = advanced {
            if matches!(pending.goal, Goal::Open(_)) {
                // The link's scenario cannot be built: show the default, say why.
                let mut fallback = PageState::new(&Scenario::default())
                    .unwrap_or_else(|e| panic!("the default scenario always builds: {e}"));
                fallback.said = self.said;
                fallback.say(Notice::LinkNotLoaded(Rc::from([e])));
                return fallback;
            }
            next.pending = None;
            return next.rejected(e);
        }
        let worked = left < budget;
        if !pending.work.is_finished() || (own_task && worked) {
            next.pending = Some(Rc::new(pending));
            return next;
        }
        next.pending = None;
        let refused = std::mem::take(&mut next.refused_while_busy);
        let mut done = next.completed(pending);
        if refused > 0 {
            done.say(Notice::Ignored(refused));
        }
        if let Some((first, rest)) = done.queue.clone().split_first() {
            done.queue = Rc::new(rest.to_vec());
            let error = done.error.take();
            let mut after = done.start(Goal::Change(first.clone()));
            if after.error.is_none() {
                after.error = error;
            }
            return after;
        }
        if let Some(key) = done.queued_lookup.take() {
            let error = done.error.take();
            let mut after = done.looked_up(&key);
            if after.error.is_none() {
                after.error = error;
            }
            return after;
        }
        done
    }

    /// The state after pending work is done.
    fn completed(&self, pending: Pending) -> PageState {
        let mut next = self.clone();
        let mut sim = Simulation::clone(&self.sim);
        let movement = match sim.finish(pending.work) {
            Ok(m) => m,
            Err(e) => return self.rejected(e),
        };
        if !matches!(pending.goal, Goal::Open(_)) {
            next.version += 1;
        }
        next.last = match pending.goal {
            Goal::Load(_) | Goal::Open(_) => None,
            Goal::Change(change) => {
                let gone = self
                    .sim
                    .servers()
                    .iter()
                    .filter(|s| sim.server(s.id).is_none())
                    .map(|s| (s.id, s.name.clone()))
                    .collect();
                Some(Rc::new(LastChange {
                    change,
                    movement,
                    gone,
                    counts_before: self.counts(),
                    up_before: self.sim.servers().iter().filter(|s| s.up).count(),
                    groups: group_moves(&self.sim, &sim),
                }))
            }
        };
        next.sim = Rc::new(sim);
        // The backup servers a loaded config left out stay said until the next change.
        next.error = self
            .error
            .clone()
            .filter(|e| matches!(e, Notice::BackupsLeftOut(_)) && next.last.is_none());
        let change = next.last.as_ref().map(|l| l.change.clone());
        next.lookup = self.lookup.as_ref().and_then(|l| {
            let mut found = lookup(&next.sim, &l.key).ok()?;
            // A change adds a step to the key's history; a new scenario starts it anew.
            if let Some(change) = change.clone() {
                let mut history = l.history.clone();
                history.push(found.visit(Some(change), &next.sim));
                let extra = history.len().saturating_sub(MAX_HISTORY);
                history.drain(..extra);
                found.history = history;
            }
            Some(Rc::new(found))
        });
        next
    }

    fn looked_up(&self, key: &str) -> PageState {
        let key = key.trim();
        let mut next = self.clone();
        if key.is_empty() {
            next.lookup = None;
            return next;
        }
        match lookup(&self.sim, key) {
            Ok(found) => {
                next.lookup = Some(Rc::new(found));
                next.error = None;
            }
            Err(e) => {
                next.lookup = None;
                next.say(Notice::Refused(Rc::new(e)));
            }
        }
        next
    }

    fn rejected(&self, message: Problem) -> PageState {
        let mut next = self.clone();
        next.say(Notice::Refused(Rc::new(message)));
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

    /// Keys of server `id` before the last change, when there was one.
    /// None after a change of the key set: the old counts were of other keys.
    pub fn count_before(&self, id: ServerId) -> Option<u64> {
        let last = self.last.as_ref()?;
        if matches!(last.change, Change::SetKeys(_)) {
            return None;
        }
        Some(
            last.counts_before
                .iter()
                .find(|(i, _)| *i == id)
                .map_or(0, |c| c.1),
        )
    }

    /// What the last change moved, laid out for the readout beside the ring.
    pub fn readout(&self) -> Option<crate::readout::Readout> {
        let last = self.last.as_ref()?;
        Some(crate::readout::Readout::new(&last.movement, &|id| {
            self.server_name(id)
        }))
    }

    /// The name of server `id`, also of one the last change took away.
    pub fn server_name(&self, id: ServerId) -> String {
        self.sim
            .server(id)
            .map(|s| s.name.clone())
            .or_else(|| self.last.as_ref().and_then(|l| l.name(id)))
            .unwrap_or_else(|| format!("#{id}"))
    }

    /// The message to show: the last refusal, else the link's problems.
    pub fn notice(&self) -> Option<&Notice> {
        self.error.as_ref().or(self.link_notice.as_ref())
    }

    /// The status line in `w`'s language: progress, the last change, or the intro.
    pub fn status_line(&self, w: &Words) -> String {
        if let Some((phase, done, total)) = self.progress() {
            return words::progress(w, phase, done, total);
        }
        match &self.last {
            Some(last) => {
                let name = |id: ServerId| self.server_name(id);
                let mut line = words::summarize(w, &last.change, &last.movement, &name);
                // Jump-like algorithms only shrink from the end: say why survivors traded keys.
                let bucketed = self.sim.settings().algo.shrinks_only_at_end();
                if let (true, Change::Remove(gone) | Change::Fail(gone)) = (bucketed, &last.change)
                {
                    let survivors_traded = last.movement.flows.iter().any(|f| {
                        let up = |id| self.sim.server(id).is_some_and(|s| s.up);
                        up(f.from) && up(f.to)
                    });
                    if survivors_traded {
                        line.push_str(&fill(w.renumbered, &[gone]));
                    }
                }
                line
            }
            None => match &self.sim.settings().crush {
                Some(layout) => fill(w.intro_crush, &[layout.domain_kind()]),
                None => words::intro(w, self.sim.settings().algo).to_owned(),
            },
        }
    }
}

fn check_page_limits(scenario: &Scenario) -> Result<(), Problem> {
    if scenario.nodes.len() > PAGE_MAX_SERVERS {
        return Err(Problem::NodesOverPageLimit {
            count: scenario.nodes.len(),
            limit: PAGE_MAX_SERVERS,
            command_line: group_thousands(crate::engine::scenario::MAX_SERVERS as u64),
        });
    }
    let keys = scenario.settings.keys.len();
    if keys > PAGE_MAX_KEYS {
        return Err(Problem::KeysOverPageLimit {
            count: group_thousands(keys as u64),
            limit: group_thousands(PAGE_MAX_KEYS as u64),
        });
    }
    Ok(())
}

/// Looks `key` up in `sim` and pins it: its history starts here.
pub fn lookup(sim: &Simulation, key: &str) -> Result<Lookup, Problem> {
    let explanation = sim.explain(key)?;
    let mut found = Lookup {
        key: key.to_owned(),
        explanation,
        history: Vec::new(),
    };
    found.history = vec![found.visit(None, sim)];
    Ok(found)
}

/// The key spec for the page's keys form: `count` keys named by `pattern`.
pub fn keys_from_form(count: &str, pattern: &str) -> Result<crate::engine::keys::KeySpec, Problem> {
    let trimmed = count.trim().replace(',', "");
    let n: usize = match trimmed.parse::<usize>() {
        Ok(n) if (1..=PAGE_MAX_KEYS).contains(&n) => n,
        Ok(_) => {
            return Err(Problem::KeyCountOutOfRange {
                given: quote(count),
                max: group_thousands(PAGE_MAX_KEYS as u64),
            })
        }
        Err(_) => {
            return Err(Problem::KeyCountNotNumber {
                given: quote(count),
                max: group_thousands(PAGE_MAX_KEYS as u64),
            })
        }
    };
    let pattern = pattern.trim();
    if !pattern.is_empty() && !pattern.contains("{i}") {
        return Err(Problem::KeyNamePatternNeedsIndex {
            given: quote(pattern),
        });
    }
    let text = if pattern.is_empty() {
        format!("0..{n}")
    } else {
        format!("{pattern}:0..{n}")
    };
    crate::engine::keys::KeySpec::parse(&text)
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

    /// Servers "1" and "2" under the identity hash: vnode labels must be numbers.
    fn identity_cluster() -> PageState {
        PageState::new(
            &Scenario::from_pairs([
                ("hash", "identity"),
                ("keys", "0..10"),
                ("label", "{node}{i}"),
                ("nodes", "1,2"),
            ])
            .unwrap(),
        )
        .unwrap()
    }

    /// The notice in English.
    fn en(n: &Notice) -> String {
        words::notice(&crate::i18n::EN, n)
    }

    /// The lookup in English.
    fn en_lookup(state: &PageState) -> words::ExplanationWords {
        let l = state.lookup.as_ref().unwrap();
        words::explain(&crate::i18n::EN, &state.sim, &l.key, &l.explanation)
    }

    fn until_done(mut state: PageState) -> PageState {
        while state.pending.is_some() {
            state = state.reduce(Action::Continue);
        }
        state
    }

    /// A config's backup servers are said when its scenario loads, and until the next change.
    #[test]
    fn a_configs_backup_servers_are_said_until_the_next_change() {
        let config = "upstream u { hash $uri consistent; server a:80; server b:80 down; server c:80 backup; }";
        let imported = crate::engine::import::read_config(config).unwrap();
        let loaded = seed000().reduce(Action::PasteConfig(Rc::new(imported.clone())));
        assert_eq!(loaded.sim.servers().len(), 2);
        let said = words::notice(&crate::i18n::EN, loaded.notice().unwrap());
        assert_eq!(
            said,
            "Left out: backup server(s) 'c:80' (the hash places keys on the primary servers; backups serve only when none is up)."
        );
        let changed = loaded.reduce(Action::AddServer("d:80".into()));
        assert_eq!(changed.sim.servers().len(), 3);
        assert_eq!(changed.notice(), None);
        // The config's servers, weights and down ones over the page's other settings: the
        // keys stay the page's.
        let pasted = loaded.sim.scenario();
        assert_eq!(pasted.settings.algo.name(), "nginx");
        assert_eq!(pasted.nodes[1].name, "b:80");
        assert!(!pasted.nodes[1].up);
        assert_eq!(pasted.settings.keys, seed000().sim.scenario().settings.keys);
        // Without backups, nothing is said; a refused load says why, not the backups.
        let plain = Imported {
            backups: Vec::new(),
            ..imported.clone()
        };
        let plain = seed000().reduce(Action::PasteConfig(Rc::new(plain)));
        assert_eq!(plain.notice(), None);
        let too_many = Imported {
            servers: (0..101)
                .map(|i| crate::engine::scenario::ServerSpec::named(format!("s{i}")))
                .collect(),
            ..imported
        };
        let refused = seed000().reduce(Action::PasteConfig(Rc::new(too_many)));
        assert!(matches!(refused.notice(), Some(Notice::Refused(_))));
    }

    #[test]
    fn removing_a_server_summarizes_where_keys_went() {
        let state = seed000().reduce(Action::Apply(Change::Remove("127.1.1.1#A".into())));
        let last = state.last.as_ref().unwrap();
        assert_eq!(last.movement.moved, 12162);
        let summary = state.status_line(&crate::i18n::EN);
        assert!(
            summary.starts_with(
                "Removed 127.1.1.1#A: 12,162 of 50,000 keys moved (24.3%; ideal 25.0%) — to "
            ),
            "{summary}"
        );
        assert_eq!(state.count_before(1), Some(11834));
        // Pasting other keys leaves no ghosts: the old counts were of other keys.
        let keys = crate::engine::keys::list_from_lines("user:1\nuser:2\n").unwrap();
        let pasted = state.reduce(Action::Apply(Change::SetKeys(keys)));
        assert_eq!(pasted.sim.keys().len(), 2);
        assert_eq!(pasted.count_before(1), None);
    }

    #[test]
    fn adding_names_sources_and_rejects_duplicates_keeping_state() {
        let state = seed000().reduce(Action::AddServer(String::new()));
        assert_eq!(state.sim.servers().last().unwrap().name, "A");
        assert!(state.status_line(&crate::i18n::EN).contains("— from "));
        let again = state.reduce(Action::AddServer("A".into()));
        assert!(en(again.error.as_ref().unwrap()).contains("already exists"));
        assert_eq!(again.sim.servers().len(), 5);
        assert_eq!(again.version, state.version);
        assert!(
            Rc::ptr_eq(&again.sim, &state.sim),
            "a refusal copies nothing"
        );
        let bad = state.reduce(Action::AddServer("x,y".into()));
        assert!(en(&bad.error.unwrap()).contains("not allowed"));
        let spaced = state.reduce(Action::AddServer("  A  ".into()));
        assert!(en(&spaced.error.unwrap()).contains("already exists"));
    }

    #[test]
    fn lookup_explains_the_first_vnode_clockwise() {
        let state = seed000().reduce(Action::Lookup("42".into()));
        let l = state.lookup.as_ref().unwrap();
        let (pos, owner) = state.sim.lookup("42").unwrap();
        assert_eq!((l.explanation.position, l.explanation.owner), (pos, owner));
        let words = en_lookup(&state);
        assert!(
            words.sentence.starts_with(&format!(
                "murmur64a-seed of \"42\" = 0x{pos:08x}; the first virtual node clockwise is 127."
            )),
            "{}",
            words.sentence
        );
        assert!(words.sentence.ends_with(&format!(
            "→ server {}",
            state.sim.server(owner).unwrap().name
        )));
        // The lookup follows the key through a change.
        let after = state.reduce(Action::Apply(Change::Fail(
            state.sim.server(owner).unwrap().name.clone(),
        )));
        assert_ne!(after.lookup.as_ref().unwrap().explanation.owner, owner);
        // A failed lookup clears the old answer.
        let identity = identity_cluster().reduce(Action::Lookup("5".into()));
        assert!(identity.lookup.is_some());
        let failed = identity.reduce(Action::Lookup("abc".into()));
        assert!(failed.lookup.is_none());
        assert!(en(&failed.error.unwrap()).contains("identity hash"));
    }

    #[test]
    fn carp_lookup_lists_every_digest_and_marks_the_smallest() {
        let s =
            Scenario::from_pairs([("algo", "carp"), ("nodes", "redis1,redis2,redis3")]).unwrap();
        let state = PageState::new(&s)
            .unwrap()
            .reduce(Action::Lookup("user:42".into()));
        let words = en_lookup(&state);
        assert_eq!(words.scores.len(), 3);
        let winner = words.scores.iter().find(|s| s.2).unwrap();
        assert!(
            words.scores.iter().all(|s| s.1 >= winner.1),
            "{:?}",
            words.scores
        );
        assert!(words.sentence.ends_with(&format!("→ {}", winner.0)));
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
            .to_string()
            .contains("from 1 to 1,000,000"));
        assert!(keys_from_form("1000001", "")
            .unwrap_err()
            .to_string()
            .contains("from 1 to 1,000,000"));
        assert!(keys_from_form("abc", "")
            .unwrap_err()
            .to_string()
            .contains("is not a whole number"));
        for pattern in ["user", "list", "random"] {
            assert!(keys_from_form("10", pattern)
                .unwrap_err()
                .to_string()
                .contains("{i}"));
        }
        let state = seed000().reduce(Action::SetKeys {
            count: "abc".into(),
            pattern: String::new(),
        });
        assert!(en(&state.error.unwrap()).contains("key count 'abc'"));
        let big = Scenario::from_pairs([("keys", "0..2000000")]).unwrap();
        assert!(PageState::new(&big)
            .err()
            .unwrap()
            .to_string()
            .contains("page's limit"));
    }

    #[test]
    fn heavy_changes_step_with_progress_and_end_as_if_applied_at_once() {
        let s = Scenario::from_pairs([
            ("algo", "carp"),
            ("nodes", "A,B,C,D,E,F,G,H,I,J"),
            ("keys", "key-{i}:0..700000"),
        ])
        .unwrap();
        let state = PageState::new(&s).unwrap();
        let stepped = state.reduce(Action::AddServer(String::new()));
        assert!(
            stepped.pending.is_some(),
            "700,000 keys, one MD5 each for the newcomer, are stepped"
        );
        assert_eq!(stepped.version, state.version);
        let busy = stepped.reduce(Action::RemoveLast);
        assert!(en(busy.error.as_ref().unwrap()).starts_with("Still placing keys"));
        // The refusal is reported once the work is done, not silently dropped.
        let after_busy = until_done(busy);
        assert!(en(&after_busy.error.unwrap()).starts_with("1 action came while"));
        let mut stepped = stepped;
        let mut steps = 0;
        while stepped.pending.is_some() {
            let (_, done, _) = stepped.progress().unwrap();
            stepped = stepped.reduce(Action::Continue);
            if let Some((_, now, _)) = stepped.progress() {
                assert!(now > done);
            }
            steps += 1;
        }
        assert!(steps >= 2, "{steps}");
        let mut direct = Simulation::clone(&state.sim);
        let m = direct.apply(&Change::add("K")).unwrap();
        assert_eq!(stepped.last.as_ref().unwrap().movement, m);
        assert_eq!(
            stepped.counts(),
            PageState {
                sim: Rc::new(direct),
                ..state.clone()
            }
            .counts()
        );
        assert_eq!(stepped.version, state.version + 1);
    }

    #[test]
    fn heavy_scenarios_load_in_steps_over_a_placeholder() {
        let s = Scenario::from_pairs([
            ("algo", "rendezvous"),
            ("nodes", "A,B,C,D,E,F,G,H"),
            ("keys", "random:200000"),
        ])
        .unwrap();
        let loading = PageState::loading(&s).unwrap();
        assert!(loading.pending.is_some());
        assert_eq!(loading.sim.keys().len(), 0, "no keys until they are placed");
        assert_eq!(
            loading.sim.scenario(),
            s,
            "the link's scenario is kept meanwhile"
        );
        let (phase, _, _) = loading.progress().unwrap();
        assert_ne!(phase, Phase::Done);
        let done = until_done(loading);
        assert_eq!(done.sim.keys().len(), 200_000);
        assert!(done.last.is_none(), "a load is not a change");
        assert_eq!(done.version, 0, "the first scenario changes nothing yet");
        let direct = Simulation::new(&s).unwrap();
        assert_eq!(done.sim.owners(), direct.owners());
    }

    #[test]
    fn a_link_whose_keys_cannot_be_hashed_falls_back_to_the_default() {
        let bad = Scenario::from_pairs([
            ("hash", "identity"),
            ("label", "{node}{i}"),
            ("nodes", "1,2"),
            ("keys", "list:7,abc"),
        ])
        .unwrap();
        let state = PageState::loading(&bad).unwrap();
        assert!(state.pending.is_none());
        assert_eq!(state.sim.scenario(), Scenario::default());
        let message = en(&state.error.unwrap());
        assert!(
            message.contains("identity hash needs decimal integer keys"),
            "{message}"
        );
        assert!(
            message.contains("Showing the default scenario"),
            "{message}"
        );
    }

    #[test]
    fn removing_a_middle_server_under_jump_says_the_rest_were_renumbered() {
        let s = Scenario::from_pairs([("algo", "jump"), ("nodes", "A,B,C,D"), ("keys", "0..4000")])
            .unwrap();
        let state = PageState::new(&s).unwrap();
        let middle = state.reduce(Action::Apply(Change::Remove("B".into())));
        assert!(
            middle.status_line(&crate::i18n::EN).contains("renumbered"),
            "{}",
            middle.status_line(&crate::i18n::EN)
        );
        let last = state.reduce(Action::Apply(Change::Remove("D".into())));
        assert!(!last.status_line(&crate::i18n::EN).contains("renumbered"));
    }

    #[test]
    fn remove_last_on_an_empty_list_is_a_message() {
        let mut state = PageState::new(&Scenario::from_pairs([("nodes", "A")]).unwrap()).unwrap();
        state = state.reduce(Action::RemoveLast);
        assert!(state.sim.servers().is_empty());
        assert_eq!(state.sim.count(0), 0);
        let none = state.reduce(Action::RemoveLast);
        assert_eq!(
            none.error,
            Some(Notice::Refused(Rc::new(Problem::NothingToRemove)))
        );
    }

    #[test]
    fn a_full_cluster_suggests_nothing_and_says_why() {
        let nodes: Vec<String> = (0..100).map(|i| format!("s{i}")).collect();
        let full = PageState::new(
            &Scenario::from_pairs([("nodes", nodes.join(",").as_str()), ("keys", "0..10")])
                .unwrap(),
        )
        .unwrap();
        assert_eq!(full.suggested_name(), "");
        let refused = full.reduce(Action::AddServer(String::new()));
        assert_eq!(
            refused.error,
            Some(Notice::Refused(Rc::new(Problem::ServerLimitReached {
                limit: 100
            })))
        );
    }

    #[test]
    fn the_page_refuses_more_than_its_hundred_servers_and_keeps_its_state() {
        let page = PageState::new(&Scenario::from_pairs([("keys", "0..10")]).unwrap()).unwrap();
        let big = Scenario::from_pairs([("nodes", "s{i}:0..101"), ("keys", "0..10")]).unwrap();
        let refused = page.reduce(Action::Load(big));
        assert_eq!(refused.sim.servers().len(), page.sim.servers().len());
        let Some(Notice::Refused(why)) = refused.error else {
            panic!("{:?}", refused.error)
        };
        assert!(why
            .to_string()
            .starts_with("nodes: 101 servers is more than the page's limit of 100"));
    }

    #[test]
    fn the_name_just_removed_is_not_offered_again() {
        let page = |nodes: &str| {
            PageState::new(&Scenario::from_pairs([("nodes", nodes), ("keys", "0..10")]).unwrap())
                .unwrap()
        };
        let letters = page("A,B,C,D,E,F").reduce(Action::Apply(Change::Remove("C".into())));
        assert_eq!(letters.suggested_name(), "G");
        let numbered = page("cache-01,cache-02,cache-03")
            .reduce(Action::Apply(Change::Remove("cache-03".into())));
        assert_eq!(numbered.suggested_name(), "cache-04");
        // Once something else has changed, the name is free again.
        let later = letters.reduce(Action::AddServer(String::new()));
        assert_eq!(later.sim.servers().len(), 6);
        assert_eq!(later.suggested_name(), "C");
    }

    #[test]
    fn the_suggested_name_is_always_accepted() {
        let identity = identity_cluster();
        let name = identity.suggested_name();
        assert_eq!(name, "3");
        let added = identity.reduce(Action::AddServer(String::new()));
        assert!(added.error.is_none(), "{:?}", added.error);
        assert_eq!(added.sim.servers().len(), 3);
    }
}
