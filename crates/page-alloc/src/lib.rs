//! The page's memory allocator: [talc](https://crates.io/crates/talc) instead of std's
//! dlmalloc, for the WebAssembly build only.
//!
//! **Why.** The page is held to 300 KB gzip, and a Cassandra cluster's own ring (`nodetool
//! ring`, issue 18) needed room: talc is 1,461 B (gzip) smaller in the built page than
//! dlmalloc. **What it costs, measured** (`tests/perf/measure.mjs --heavy-only`, three
//! alternating runs each, docs/PERFORMANCE.md): the heaviest click of all — 99 servers ×
//! 10,000 vnodes each, 1M keys — takes 685 ms to its complete frame instead of 630 (+8 %;
//! its authors measure talc faster on small allocations, this click moves a few vectors of
//! megabytes); CARP, rendezvous, mod-N and the slot table at 1M keys stayed within the
//! machine's run-to-run spread, and no task grew past 100 ms.
//!
//! **Why a crate of its own.** Declaring an allocator takes one `unsafe` line — talc's
//! promise that the program is single-threaded — and `hashring-lab` forbids unsafe code.
//! The line lives here, alone, where it can be read: the page runs on the browser's main
//! thread and starts no wasm threads (no shared memory, no atomics target feature).

#![no_std]

/// The global allocator of the page.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
// SAFETY: talc's one condition, a single-threaded WebAssembly runtime: the page's wasm runs
// on one thread (it is built without the atomics feature, so it cannot share its memory).
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };
