//! The pure placement engine: hashes, key sets, placement algorithms, the simulation with
//! its movement diffs, and statistics. No web dependency lives here; everything compiles
//! and is tested natively, and the page and the command line both drive it.
//!
//! Where things live: the algorithms one file each in [`algorithms`] (with the registry);
//! what a placement promises in [`contract`] and what the registry says about one in
//! [`spec`]; the shared machinery below them ([`ring`], [`hash`], [`slots`], [`book`],
//! [`scorers`]); the scenario, its changes and the stepped simulation above them.

pub mod algorithms;
pub mod book;
pub mod cassandra_ring;
pub mod change;
pub mod compare;
pub mod config;
pub mod contract;
pub mod crc;
pub mod crush;
pub mod crushmap;
pub mod hash;
pub mod import;
pub mod keys;
pub mod movement;
pub mod note;
pub mod order;
pub mod owners;
pub mod pace;
pub mod placement;
pub mod redis_cluster;
pub mod ring;
pub mod scenario;
pub mod scorers;
pub mod sim;
pub mod slots;
pub mod spec;
pub mod stats;
pub mod sweep;
pub mod tokens;
pub mod work;
