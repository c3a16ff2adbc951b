//! Pure drawing geometry: ring position ↔ angle ↔ pixel, hit-testing, the palette, and the
//! key density profile. No canvas here, so every formula is tested natively; the page's
//! canvas code only strokes what these functions compute.
//!
//! The ring's convention everywhere: position 0 at 12 o'clock, increasing clockwise, one
//! full turn = 2^32.

use std::f64::consts::TAU;

use crate::engine::ring::{ServerId, NO_OWNER};

/// 2^32 as a float.
pub const RING_SPAN: f64 = 4_294_967_296.0;

/// The ring as drawn: a centre and a radius in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RingGeometry {
    /// Centre x.
    pub cx: f64,
    /// Centre y.
    pub cy: f64,
    /// Radius of the ring line.
    pub radius: f64,
}

impl RingGeometry {
    /// The largest ring that fits a `width` × `height` box with room for labels.
    pub fn fit(width: f64, height: f64) -> RingGeometry {
        let side = width.min(height);
        RingGeometry {
            cx: width / 2.0,
            cy: height / 2.0,
            radius: (side / 2.0 - side * 0.12).max(10.0),
        }
    }

    /// The point at `radius` on the ray through `position`.
    pub fn point(&self, position: u32, radius: f64) -> (f64, f64) {
        let a = angle_of(position);
        (self.cx + radius * a.sin(), self.cy - radius * a.cos())
    }

    /// The ring position under a pixel and its distance from the centre.
    pub fn position_at(&self, x: f64, y: f64) -> (u32, f64) {
        let (dx, dy) = (x - self.cx, y - self.cy);
        let angle = dx.atan2(-dy).rem_euclid(TAU);
        (position_of(angle), dx.hypot(dy))
    }
}

/// The angle (radians clockwise from 12 o'clock) of a ring position.
pub fn angle_of(position: u32) -> f64 {
    f64::from(position) / RING_SPAN * TAU
}

/// The ring position at an angle (radians clockwise from 12 o'clock), wrapping.
pub fn position_of(angle: f64) -> u32 {
    let turn = angle.rem_euclid(TAU) / TAU;
    ((turn * RING_SPAN) as u64 % (1 << 32)) as u32
}

/// Canvas angle convention (radians from 3 o'clock, clockwise because y points down).
pub fn canvas_angle(position: u32) -> f64 {
    angle_of(position) - TAU / 4.0
}

/// Index of the point nearest to `target` on the circle among sorted `positions`, if it
/// lies within `tolerance` ring units.
pub fn nearest(positions: &[u32], target: u32, tolerance: u32) -> Option<usize> {
    if positions.is_empty() {
        return None;
    }
    let i = positions.partition_point(|&p| p < target);
    let candidates = [
        i % positions.len(),
        (i + positions.len() - 1) % positions.len(),
    ];
    candidates
        .into_iter()
        .map(|c| (c, circular_distance(positions[c], target)))
        .min_by_key(|&(_, d)| d)
        .filter(|&(_, d)| d <= tolerance)
        .map(|(c, _)| c)
}

/// The shorter way round between two positions.
pub fn circular_distance(a: u32, b: u32) -> u32 {
    let d = a.wrapping_sub(b);
    d.min(d.wrapping_neg())
}

/// Colour-blind-safe colours: Okabe & Ito's eight (without black), then Paul Tol's
/// "muted" set; beyond those, golden-angle hues keep neighbours distinct.
const PALETTE: [&str; 16] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999",
    "#88CCEE", "#44AA99", "#117733", "#DDCC77", "#CC6677", "#AA4499", "#882255", "#332288",
];

/// The colour of server `id` as a CSS colour.
pub fn server_colour(id: ServerId) -> String {
    match PALETTE.get(usize::from(id)) {
        Some(c) => (*c).to_owned(),
        None => format!("hsl({:.0} 70% 60%)", (f64::from(id) * 137.508) % 360.0),
    }
}

/// The colour of server `id` as RGB.
pub fn server_rgb(id: ServerId) -> (u8, u8, u8) {
    match PALETTE.get(usize::from(id)) {
        Some(c) => {
            let v = u32::from_str_radix(&c[1..], 16).unwrap_or(0x999999);
            ((v >> 16) as u8, (v >> 8) as u8, v as u8)
        }
        None => hsl_to_rgb((f64::from(id) * 137.508) % 360.0, 0.7, 0.6),
    }
}

fn hsl_to_rgb(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match h as u32 / 60 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let to = |v: f64| ((v + m) * 255.0).round() as u8;
    (to(r), to(g), to(b))
}

/// Keys per angular bin, with the owner holding most keys in each bin: the density band
/// drawn instead of individual dots when there are too many keys to draw one by one.
pub fn density_profile(
    positions: &[u32],
    owners: &[ServerId],
    bins: usize,
) -> Vec<(u32, ServerId)> {
    let mut out = vec![(0u32, NO_OWNER); bins.max(1)];
    let bins = out.len();
    let mut start = 0;
    for (bin, slot) in out.iter_mut().enumerate() {
        let end_pos = ((bin as u64 + 1) * (1u64 << 32) / bins as u64) as u64;
        let end = start + positions[start..].partition_point(|&p| u64::from(p) < end_pos);
        let count = (end - start) as u32;
        // The owner of the bin is the owner of its middle key: owners are sorted runs.
        let owner = if count > 0 {
            owners[start + (end - start) / 2]
        } else {
            NO_OWNER
        };
        *slot = (count, owner);
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quarter_positions_land_on_the_clock_points() {
        let g = RingGeometry {
            cx: 100.0,
            cy: 100.0,
            radius: 50.0,
        };
        let close = |(x, y): (f64, f64), (ex, ey): (f64, f64)| {
            (x - ex).abs() < 1e-9 && (y - ey).abs() < 1e-9
        };
        assert!(close(g.point(0, 50.0), (100.0, 50.0)), "0 at 12 o'clock");
        assert!(
            close(g.point(1 << 30, 50.0), (150.0, 100.0)),
            "2^30 at 3 o'clock"
        );
        assert!(
            close(g.point(1 << 31, 50.0), (100.0, 150.0)),
            "2^31 at 6 o'clock"
        );
        assert!(
            close(g.point(3 << 30, 50.0), (50.0, 100.0)),
            "3*2^30 at 9 o'clock"
        );
    }

    #[test]
    fn pixel_to_position_inverts_position_to_pixel() {
        let g = RingGeometry::fit(400.0, 300.0);
        for p in [0u32, 1, 12345, 1 << 31, u32::MAX - 5000, 0xdead_beef] {
            let (x, y) = g.point(p, g.radius);
            let (back, r) = g.position_at(x, y);
            assert!(circular_distance(back, p) < 2000, "{p} -> {back}");
            assert!((r - g.radius).abs() < 1e-6);
        }
    }

    #[test]
    fn nearest_wraps_around_zero_and_respects_tolerance() {
        let ps = [10, 1000, u32::MAX - 10];
        assert_eq!(nearest(&ps, 5, 100), Some(0));
        assert_eq!(nearest(&ps, u32::MAX, 100), Some(2));
        assert_eq!(nearest(&ps, 3, 2), None);
        assert_eq!(nearest(&ps, 2, 15), Some(0));
        assert_eq!(nearest(&[], 2, 15), None);
    }

    #[test]
    fn density_counts_every_key_once() {
        let positions = [0, 1, 1 << 31, u32::MAX];
        let owners = [0, 0, 1, 2];
        let d = density_profile(&positions, &owners, 4);
        assert_eq!(d.iter().map(|b| b.0).sum::<u32>(), 4);
        assert_eq!(d[0], (2, 0));
        assert_eq!(d[2], (1, 1));
        assert_eq!(d[3], (1, 2));
    }

    #[test]
    fn palette_is_stable_and_parses() {
        assert_eq!(server_colour(0), "#E69F00");
        assert_eq!(server_rgb(0), (0xE6, 0x9F, 0x00));
        assert!(server_colour(40).starts_with("hsl("));
    }
}
