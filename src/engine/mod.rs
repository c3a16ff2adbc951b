//! The pure placement engine: hashes, key sets, placement algorithms, the simulation with
//! its movement diffs, and statistics. No web dependency lives here; everything compiles
//! and is tested natively, and the page and the command line both drive it.

pub mod algorithm;
pub mod anchor;
pub mod binomial;
pub mod book;
pub mod bounded;
pub mod change;
pub mod compare;
pub mod config;
pub mod contract;
pub mod dx;
pub mod flip;
pub mod hash;
pub mod jump;
pub mod jumpback;
pub mod keys;
pub mod maglev;
pub mod memento;
pub mod movement;
pub mod multiprobe;
pub mod placement;
pub mod power;
pub mod ring;
pub mod scenario;
pub mod scorers;
pub mod sim;
pub mod slots;
pub mod stats;
pub mod sweep;
pub mod text;
pub mod work;
