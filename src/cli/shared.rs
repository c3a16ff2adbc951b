//! What the subcommands share: the output formats, progress on stderr, building a
//! simulation with it, and the memory check that refuses a run the machine cannot hold.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::ValueEnum;
use serde::Serialize;

use super::key_file;
use crate::engine::keys::{KeySpec, MAX_KEYS};
use crate::engine::scenario::Scenario;
use crate::engine::sim::{Simulation, Work};
use crate::i18n::EN;
use crate::problem::Problem;
use crate::words;

/// Bytes the command line holds per key at its peak: the sorted layout (position and index,
/// 8 bytes), its owner (2), a change's new owners and moved-key lists (up to 8), and the
/// (position, index) pairs while keys are hashed (8). Key names are never all held.
pub const BYTES_PER_KEY: u64 = 26;

/// With more servers than the dense from → to matrix holds, the (from, to) pairs a change
/// moves keys along are kept in a map of at most
/// [`MAX_SPARSE_PAIRS`](crate::engine::movement::MAX_SPARSE_PAIRS) pairs: at most this many
/// bytes, whatever the number of keys (mod-N over 10,000 servers moves keys along millions
/// of pairs; those past the limit are counted, not listed).
pub const FLOW_BYTES: u64 = 64 * crate::engine::movement::MAX_SPARSE_PAIRS as u64;

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum Format {
    Table,
    Json,
    Csv,
}

/// A one-line progress display on a terminal's stderr, redrawn at most ten times a second.
pub(super) struct Progress {
    on: bool,
    last: Option<Instant>,
    shown: bool,
}

impl Progress {
    pub(super) fn new(on: bool) -> Progress {
        Progress {
            on,
            last: None,
            shown: false,
        }
    }

    pub(super) fn show(&mut self, line: &str) {
        if !self.on
            || self
                .last
                .is_some_and(|t| t.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(Instant::now());
        self.shown = true;
        let _ = write!(std::io::stderr(), "\r\x1b[K{line}");
    }

    pub(super) fn clear(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
            self.shown = false;
        }
    }

    /// Runs `work` to the end in steps, showing how far it is.
    pub(super) fn run(&mut self, work: &mut Work, what: &str) -> Result<(), Problem> {
        while !work.is_finished() {
            work.advance(20_000_000)?;
            let (phase, done, total) = work.progress();
            self.show(&format!(
                "{what}: {}",
                words::progress(&EN, phase, done, total)
            ));
        }
        Ok(())
    }
}

/// Builds the scenario's simulation, with progress on a terminal.
pub(super) fn build(scenario: &Scenario, progress: &mut Progress) -> Result<Simulation, String> {
    check_memory(scenario)?;
    let mut work = Work::load(scenario)?;
    progress.run(&mut work, "loading")?;
    let mut sim = Simulation::unassigned(work.config().clone());
    sim.finish(work)?;
    Ok(sim)
}

/// Refuses, before allocating, a run that would need more memory than the machine has.
pub(super) fn check_memory(scenario: &Scenario) -> Result<(), String> {
    let keys = scenario.settings.keys.len() as u64;
    let flows = if scenario.nodes.len() + 1 >= crate::engine::movement::DENSE_FLOWS {
        FLOW_BYTES
    } else {
        0
    };
    let offsets = if matches!(scenario.settings.keys, KeySpec::External(_)) {
        key_file::OFFSET_BYTES_PER_KEY
    } else {
        0
    };
    let per_key = BYTES_PER_KEY + offsets;
    let need = keys.saturating_mul(per_key).saturating_add(flows);
    if keys > MAX_KEYS {
        return Err(format!("{keys} keys is more than the limit of {MAX_KEYS}"));
    }
    if let Some(available) = available_memory() {
        if need > available {
            return Err(format!(
                "{keys} keys need about {} MB ({per_key} bytes a key) but only {} MB is available; use fewer keys",
                need >> 20,
                available >> 20
            ));
        }
    }
    Ok(())
}

/// Memory the system reports as available (Linux), if it says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

pub(super) fn to_json(value: &impl Serialize) -> Result<String, String> {
    let mut s = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    s.push('\n');
    Ok(s)
}
