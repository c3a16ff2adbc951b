//! The `hashring-lab` command line: the same engine as the page, driven from a terminal.
//!
//! Parsed with clap (derive): every command has `--help` listing each flag with its values
//! and default, `--version` works, `completions bash|zsh|fish` prints a completion script,
//! and usage errors exit 2 with clap's message. The scenario flags are the page's URL
//! parameters — same names, same value syntax — and are checked by the same
//! [`Scenario::from_pairs`], which reports every bad value at once. Reports are serde
//! structs, written as JSON, a table or CSV.
//!
//! Memory stays bounded per key: key *names* are never all held (they are rebuilt from the
//! key spec on demand), so a run needs about [`BYTES_PER_KEY`] bytes a key whatever the
//! names' length, and the key spec's limit of 10,000,000 keys bounds the whole run.
//!
//! This file holds what every subcommand shares (the command tree, progress on stderr,
//! the memory check, the output formats); each subcommand is a file of its own with its
//! arguments beside it (`simulate.rs`, `sweep.rs`, `hash.rs`, `bench.rs`, `locate.rs`,
//! `compare.rs`), and the scenario flags with `--config` are `scenario_args.rs`.

use std::io::{IsTerminal, Write};

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

mod bench;
mod compare;
mod hash;
mod key_file;
mod locate;
mod output;
mod scenario_args;
mod shared;
mod simulate;
mod sweep;

use bench::{bench, BenchArgs};
use compare::{compare, CompareArgs};
use hash::{hash, HashArgs};
use locate::{locate, LocateArgs};
use shared::Progress;
pub use shared::{BYTES_PER_KEY, FLOW_BYTES};
pub use simulate::MAX_STEPS;
use simulate::{simulate, SimulateArgs};
pub use sweep::MAX_SWEEP_POINTS;
use sweep::{sweep, SweepArgs};

/// hashring-lab: consistent hashing on the 0..2^32 ring, from the command line.
///
/// The scenario flags are the page's URL parameters with the same names and syntax, so
/// `--nodes A,B*2 --keys key-{i}:0..1000` is `?nodes=A,B*2&keys=key-{i}:0..1000`.
#[derive(Parser, Debug)]
#[command(name = "hashring-lab", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build a scenario, apply steps, and report keys per server and what moved after each.
    Simulate(SimulateArgs),
    /// Balance (standard deviation of keys per server) as the number of vnodes varies.
    Sweep(SweepArgs),
    /// Print each KEY's hash, decimal and hex.
    Hash(HashArgs),
    /// Time lookups (key hashing and placement) over the scenario's keys.
    Bench(BenchArgs),
    /// Which server owns each KEY, and how the algorithm found it.
    Locate(LocateArgs),
    /// Run one change through every algorithm and compare what moved, the balance, the
    /// structure's bytes and the lookup time.
    Compare(CompareArgs),
    /// Print a shell completion script (e.g. `hashring-lab completions bash > hashring-lab.bash`).
    Completions {
        /// The shell.
        shell: CompletionShell,
    },
}

/// Shells that completions are generated for.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum CompletionShell {
    Bash,
    Zsh,
    Fish,
}

/// Runs the command line with `args` (the program name first); returns the exit code.
pub fn run(args: &[std::ffi::OsString], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Only a refusal quotes the user's value; help and the version are ours, and
            // their apostrophes ("the paper's") are no quotes to cut.
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                err.write_all(shorten_quoted(&text).as_bytes())
            } else {
                out.write_all(text.as_bytes())
            };
            return e.exit_code();
        }
    };
    let mut progress = Progress::new(std::io::stderr().is_terminal());
    let result = match cli.command {
        Command::Simulate(a) => simulate(&a, &mut progress),
        Command::Sweep(a) => sweep(&a),
        Command::Hash(a) => hash(&a),
        Command::Bench(a) => bench(&a, &mut progress),
        Command::Locate(a) => locate(&a, &mut progress),
        Command::Compare(a) => compare(&a, &mut progress),
        Command::Completions { shell } => Ok(completions(shell)),
    };
    progress.clear();
    match result.map(|text| out.write_all(text.as_bytes()).and_then(|()| out.flush())) {
        Ok(Ok(())) => 0,
        // The reader went away (`| head`): stop quietly, as Unix tools do.
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Ok(Err(e)) => {
            let _ = writeln!(err, "hashring-lab: cannot write the output: {e}");
            1
        }
        Err(message) => {
            let _ = writeln!(err, "hashring-lab: {message}");
            2
        }
    }
}

fn completions(shell: CompletionShell) -> String {
    let shell = match shell {
        CompletionShell::Bash => clap_complete::Shell::Bash,
        CompletionShell::Zsh => clap_complete::Shell::Zsh,
        CompletionShell::Fish => clap_complete::Shell::Fish,
    };
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "hashring-lab", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// clap's message with every quoted value longer than 60 characters cut to its first 60
/// and `…` (clap quotes the whole value it refused: `--algo` with 100 KB echoed 100 KB).
fn shorten_quoted(text: &str) -> String {
    const MAX: usize = 60;
    let mut out = String::with_capacity(text.len().min(4096));
    let mut rest = text;
    while let Some(open) = rest.find('\'') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let Some(close) = rest.find('\'') else {
            break;
        };
        let inner = &rest[..close];
        if inner.chars().count() > MAX {
            out.extend(inner.chars().take(MAX));
            out.push('…');
        } else {
            out.push_str(inner);
        }
        out.push('\'');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Scenario;

    #[test]
    fn the_flags_defaults_are_the_pages() {
        let cli = Cli::try_parse_from(["hashring-lab", "simulate"]).unwrap();
        let Command::Simulate(a) = cli.command else {
            panic!("simulate");
        };
        // One deliberate difference: Maglev's table is the paper's 65537 here and a
        // drawable 251 on the page.
        let mut page = Scenario::default();
        page.settings.table = crate::engine::algorithms::maglev::DEFAULT_TABLE;
        assert_eq!(
            a.scenario.scenario(a.vnodes.vnodes.as_deref()).unwrap(),
            page
        );
    }

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
