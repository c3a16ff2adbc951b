//! What the ring view draws, computed without a canvas: geometry (position ↔ angle ↔
//! pixel, viewport), the scene (arc bands, markers, labels that never collide, walkers,
//! hit-testing), and pointer gestures. The page's canvas code in `ui` only strokes what
//! these functions return, so every rule here is tested natively.

pub mod buckets;
pub mod domains;
mod geometry;
pub mod gesture;
pub mod loupe;
pub mod palette;
pub mod qr;
pub mod scene;
pub mod walk;
pub mod workings;

pub use geometry::*;
