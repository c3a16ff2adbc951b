//! Pure drawing geometry: ring position ↔ angle ↔ pixel, hit-testing, the palette, and the
//! key density profile. No canvas here, so every formula is tested natively; the page's
//! canvas code only strokes what these functions compute.
//!
//! The ring's convention everywhere: position 0 at 12 o'clock, increasing clockwise, one
//! full turn = 2^32.

use crate::math;
use std::f64::consts::TAU;

use crate::engine::ring::{ServerId, NO_OWNER};
use crate::render::palette::Palette;

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
        (
            self.cx + radius * math::sin(a),
            self.cy - radius * math::cos(a),
        )
    }

    /// The ring position under a pixel and its distance from the centre.
    pub fn position_at(&self, x: f64, y: f64) -> (u32, f64) {
        let (dx, dy) = (x - self.cx, y - self.cy);
        // `0.0 - dy`, not `-dy`: at the centre, atan2(0, -0) would be π (6 o'clock).
        let angle = math::wrap(math::atan2(dx, 0.0 - dy), TAU);
        (position_of(angle), crate::math::hypot(dx, dy))
    }
}

/// Zoom and pan over the fitted ring: screen = base × zoom + offset (CSS pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Magnification, 1 = the whole ring fits.
    pub zoom: f64,
    /// Horizontal offset in CSS pixels.
    pub ox: f64,
    /// Vertical offset in CSS pixels.
    pub oy: f64,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            zoom: 1.0,
            ox: 0.0,
            oy: 0.0,
        }
    }
}

impl Viewport {
    /// The most magnification: enough to see single vnodes among 100 × 1000.
    pub const MAX_ZOOM: f64 = 5000.0;

    /// The ring geometry on screen.
    pub fn apply(&self, base: RingGeometry) -> RingGeometry {
        RingGeometry {
            cx: base.cx * self.zoom + self.ox,
            cy: base.cy * self.zoom + self.oy,
            radius: base.radius * self.zoom,
        }
    }

    /// Zooms by `factor` keeping the screen point (`sx`, `sy`) fixed.
    pub fn zoom_at(&self, factor: f64, sx: f64, sy: f64) -> Viewport {
        let zoom = (self.zoom * factor).clamp(1.0, Self::MAX_ZOOM);
        let f = zoom / self.zoom;
        let v = Viewport {
            zoom,
            ox: sx - (sx - self.ox) * f,
            oy: sy - (sy - self.oy) * f,
        };
        if zoom == 1.0 {
            Viewport::default()
        } else {
            v
        }
    }

    /// Zooms by `factor` (0 resets) toward the point of the ring nearest the centre of the
    /// `width` × `height` view — 12 o'clock when the view shows the whole ring — so the zoom
    /// buttons and keys always zoom into the ring, never into its empty middle.
    pub fn zoom_to_ring(
        &self,
        base: RingGeometry,
        factor: f64,
        width: f64,
        height: f64,
    ) -> Viewport {
        if factor == 0.0 {
            return Viewport::default();
        }
        let g = self.apply(base);
        let (pos, _) = g.position_at(width / 2.0, height / 2.0);
        let (x, y) = g.point(pos, g.radius);
        self.zoom_at(factor, x, y)
    }

    /// Moves the picture by (`dx`, `dy`) CSS pixels.
    pub fn pan(&self, dx: f64, dy: f64) -> Viewport {
        if self.zoom == 1.0 {
            return *self;
        }
        Viewport {
            ox: self.ox + dx,
            oy: self.oy + dy,
            ..*self
        }
    }
}

/// The ring positions visible in a `width` × `height` canvas as a clockwise arc
/// `(from, span)`; the whole ring when the centre is on screen.
pub fn visible_arc(g: &RingGeometry, width: f64, height: f64) -> (u32, u64) {
    let inside = g.cx >= 0.0 && g.cx <= width && g.cy >= 0.0 && g.cy <= height;
    if inside {
        return (0, 1 << 32);
    }
    // The rectangle seen from an outside centre subtends less than half a turn; its
    // corners bound the visible angles.
    let corners = [(0.0, 0.0), (width, 0.0), (0.0, height), (width, height)];
    let angles: Vec<f64> = corners
        .iter()
        .map(|&(x, y)| math::wrap(math::atan2(x - g.cx, -(y - g.cy)), TAU))
        .collect();
    let reference = angles[0];
    let rel: Vec<f64> = angles
        .iter()
        .map(|a| {
            let d = math::wrap(a - reference, TAU);
            if d > TAU / 2.0 {
                d - TAU
            } else {
                d
            }
        })
        .collect();
    let lo = rel.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = rel.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let from = position_of(reference + lo);
    let span = ((hi - lo) / TAU * RING_SPAN).ceil() as u64 + 1;
    (from, span.min(1 << 32))
}

/// Where a key walking the shorter way round from `from` to `to` is at time `t` in 0..=1
/// (eased in and out): between two fans, which have no clockwise meaning.
pub fn walk_shorter(from: u32, to: u32, t: f64) -> u32 {
    let t = t.clamp(0.0, 1.0);
    let eased = t * t * (3.0 - 2.0 * t);
    let distance = f64::from(to.wrapping_sub(from) as i32);
    from.wrapping_add((distance * eased) as i64 as u32)
}

/// Where a key walking clockwise from `from` to `to` is at time `t` in 0..=1
/// (eased in and out).
pub fn walk_position(from: u32, to: u32, t: f64) -> u32 {
    let t = t.clamp(0.0, 1.0);
    let eased = t * t * (3.0 - 2.0 * t);
    let distance = f64::from(to.wrapping_sub(from));
    from.wrapping_add((distance * eased) as u32)
}

/// The angle (radians clockwise from 12 o'clock) of a ring position.
pub fn angle_of(position: u32) -> f64 {
    f64::from(position) / RING_SPAN * TAU
}

/// The ring position at an angle (radians clockwise from 12 o'clock), wrapping.
pub fn position_of(angle: f64) -> u32 {
    let turn = math::wrap(angle, TAU) / TAU;
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

/// The colour of server `id` on palette `p`'s backgrounds, as a CSS colour.
pub fn server_colour(id: ServerId, p: &Palette) -> String {
    match p.servers.get(usize::from(id)) {
        Some(c) => (*c).to_owned(),
        None => format!(
            "hsl({} 70% {}%)",
            crate::text::Fixed(math::wrap(f64::from(id) * 137.508, 360.0), 0),
            crate::text::Fixed(p.server_lightness * 100.0, 0)
        ),
    }
}

/// The colour of server `id` on palette `p`'s backgrounds, as RGB.
pub fn server_rgb(id: ServerId, p: &Palette) -> (u8, u8, u8) {
    match p.servers.get(usize::from(id)) {
        Some(c) => {
            let v = u32::from_str_radix(&c[1..], 16).unwrap_or(0x999999);
            ((v >> 16) as u8, (v >> 8) as u8, v as u8)
        }
        None => hsl_to_rgb(
            math::wrap(f64::from(id) * 137.508, 360.0),
            0.7,
            p.server_lightness,
        ),
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

/// Keys per angular bin over the clockwise arc starting at `from` and `span` units long,
/// with the owner of the bin's last key: the density band drawn instead of individual dots
/// when there are too many keys to draw one by one. `positions` must be sorted.
pub fn density_profile(
    positions: &[u32],
    owners: &[ServerId],
    from: u32,
    span: u64,
    bins: usize,
) -> Vec<(u32, ServerId)> {
    let mut out = vec![(0u32, NO_OWNER); bins.max(1)];
    let bins = out.len() as u64;
    let span = span.clamp(1, 1 << 32);
    for (&p, &o) in positions.iter().zip(owners) {
        let offset = u64::from(p.wrapping_sub(from));
        if offset < span {
            let slot = &mut out[(offset * bins / span) as usize];
            slot.0 += 1;
            slot.1 = o;
        }
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
    fn the_centre_reads_as_position_zero() {
        let g = RingGeometry::fit(300.0, 300.0);
        assert_eq!(g.position_at(150.0, 150.0), (0, 0.0));
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
        let d = density_profile(&positions, &owners, 0, 1 << 32, 4);
        assert_eq!(d.iter().map(|b| b.0).sum::<u32>(), 4);
        assert_eq!(d[0], (2, 0));
        assert_eq!(d[2], (1, 1));
        assert_eq!(d[3], (1, 2));
        // Only the arc asked for: the top half, two bins.
        let half = density_profile(&positions, &owners, 1 << 31, 1 << 31, 2);
        assert_eq!(half, vec![(1, 1), (1, 2)]);
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let base = RingGeometry::fit(400.0, 400.0);
        let v = Viewport::default().zoom_at(8.0, 300.0, 50.0);
        let before = base.position_at(300.0, 50.0);
        let after = v.apply(base).position_at(300.0, 50.0);
        assert!(circular_distance(before.0, after.0) < 1000);
        assert!((after.1 - before.1 * 8.0).abs() < 1e-6);
        assert_eq!(
            v.zoom_at(1.0 / 8.0, 10.0, 10.0),
            Viewport::default(),
            "zooming back out resets"
        );
        assert_eq!(
            Viewport::default().pan(5.0, 5.0),
            Viewport::default(),
            "no pan at 1x"
        );
    }

    #[test]
    fn zooming_to_the_ring_keeps_the_ring_in_view() {
        let base = RingGeometry::fit(400.0, 400.0);
        let v = Viewport::default().zoom_to_ring(base, 8.0, 400.0, 400.0);
        // 12 o'clock stays where it was on screen.
        let (x, y) = base.point(0, base.radius);
        let (x2, y2) = v.apply(base).point(0, v.apply(base).radius);
        assert!((x - x2).abs() < 1e-6 && (y - y2).abs() < 1e-6);
        let (_, span) = visible_arc(&v.apply(base), 400.0, 400.0);
        assert!(span < 1 << 31, "the ring fills the view: {span}");
        let again = v.zoom_to_ring(base, 2.0, 400.0, 400.0);
        assert_eq!(again.zoom, 16.0);
        assert_eq!(v.zoom_to_ring(base, 0.0, 400.0, 400.0), Viewport::default());
    }

    #[test]
    fn visible_arc_narrows_when_zoomed() {
        let base = RingGeometry::fit(400.0, 400.0);
        assert_eq!(visible_arc(&base, 400.0, 400.0), (0, 1 << 32));
        // Zoom hard on 12 o'clock: the visible arc straddles position 0.
        let (x, y) = base.point(0, base.radius);
        let g = Viewport::default().zoom_at(100.0, x, y).apply(base);
        let (from, span) = visible_arc(&g, 400.0, 400.0);
        assert!(span < (1 << 32) / 50, "{span}");
        assert!(circular_distance(from.wrapping_add((span / 2) as u32), 0) < (span as u32));
    }

    #[test]
    fn walking_goes_clockwise_and_arrives() {
        assert_eq!(walk_position(100, 200, 0.0), 100);
        assert_eq!(walk_position(100, 200, 1.0), 200);
        assert_eq!(walk_position(100, 200, 0.5), 150);
        // Across 2^32 -> 0, still clockwise (increasing, wrapping).
        assert_eq!(walk_position(u32::MAX - 9, 10, 0.5), 0);
    }

    #[test]
    fn palette_is_stable_and_parses() {
        let dark = &crate::render::palette::DARK;
        assert_eq!(server_colour(0, dark), "#E69F00");
        assert_eq!(server_rgb(0, dark), (0xE6, 0x9F, 0x00));
        assert_eq!(server_colour(40, dark), "hsl(100 70% 65%)");
        assert_eq!(server_rgb(40, dark), hsl_to_rgb(100.32, 0.7, 0.65));
    }
}
