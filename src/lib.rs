//! hashring-lab: see how consistent hashing places data on a cluster.
//!
//! Data flows one way: [`engine`] (pure placement, no web) → the page's state and
//! [`render`] geometry and [`chart`]s → the yew components in `ui` (wasm only).
//! The native command line in `cli` drives the same engine.

pub mod chart;
pub mod engine;
pub mod facts;
pub mod file;
pub mod host;
pub mod i18n;
pub mod link;
pub mod math;
pub mod notice;
pub mod problem;
pub mod readout;
pub mod render;
pub mod screen;
pub mod shortcuts;
pub mod state;
pub mod text;
pub mod tour;
pub mod words;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))]
pub mod configs;
#[cfg(target_arch = "wasm32")]
pub mod ui;
