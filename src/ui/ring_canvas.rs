//! Strokes the ring on a 2D canvas from the pure geometry in [`crate::render`].
//!
//! Two layers. The *static* layer (owned arcs as a coloured band, vnode marks, keys as dots
//! or a density band, ticks, server labels) is drawn into an offscreen canvas only when the
//! state or the view changes. The *overlay* is drawn every animation frame on top of a copy
//! of it: the arcs that changed hands (fading), keys walking clockwise to their owner, and
//! the looked-up key. The overlay takes the elapsed time as an input, so a frame is a pure
//! function of (state, view, time).

use std::f64::consts::TAU;

use web_sys::CanvasRenderingContext2d;

use crate::chart::group_thousands;
use crate::engine::keys::splitmix64;
use crate::engine::placement::Algorithm;
use crate::engine::ring::{arc_len, Ring, ServerId, NO_OWNER};
use crate::render::{
    angle_of, canvas_angle, density_profile, nearest, server_colour, visible_arc, walk_position,
    RingGeometry, RING_SPAN,
};
use crate::state::PageState;

/// Keys drawn one by one up to this many in view; beyond it, a density band.
pub const MAX_KEY_DOTS: usize = 2_000;
/// How long the changed arcs stay highlighted.
pub const HIGHLIGHT_MS: f64 = 4_000.0;
/// How long moved keys take to walk to their new owner, at speed 1.
pub const WALK_MS: f64 = 1_600.0;

const BACKGROUND: &str = "#0f1420";
const TRACK: &str = "#2a3244";
const TEXT: &str = "#c9d1e0";
const MUTED: &str = "#7d879c";

/// Sizes derived from the ring's on-screen radius (at zoom 1) and the canvas.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    /// Width of the owned-arc band.
    pub band: f64,
    /// Label font size.
    pub font_px: f64,
    /// Canvas width in CSS pixels.
    pub width: f64,
    /// Canvas height in CSS pixels.
    pub height: f64,
}

impl Scale {
    /// Scale for a canvas whose fitted (zoom 1) ring has radius `base_radius`.
    pub fn new(base_radius: f64, width: f64, height: f64) -> Scale {
        Scale {
            band: (base_radius * 0.06).clamp(6.0, 30.0),
            font_px: (base_radius * 0.055).clamp(11.0, 30.0),
            width,
            height,
        }
    }
}

/// The radius at which key dots start (just inside the band).
pub fn key_radius(g: &RingGeometry, s: &Scale) -> f64 {
    g.radius - s.band * 1.2
}

/// Draws the static layer for `state` with ring geometry `g`.
pub fn draw_static(ctx: &CanvasRenderingContext2d, g: &RingGeometry, s: &Scale, state: &PageState) {
    ctx.set_fill_style_str(BACKGROUND);
    ctx.fill_rect(0.0, 0.0, s.width, s.height);
    ctx.set_stroke_style_str(TRACK);
    ctx.set_line_width(s.band);
    circle(ctx, g, g.radius);
    ctx.stroke();

    let sim = &state.sim;
    let (from, span) = visible_arc(g, s.width, s.height);
    if let Some(ring) = sim.ring() {
        draw_owned_arcs(ctx, g, s.band, ring);
        let marks = visible_points(ring, from, span);
        if marks.len() <= 600 {
            for i in marks {
                let p = ring.points()[i];
                let (x, y) = g.point(p.position, g.radius);
                ctx.begin_path();
                let _ = ctx.arc(x, y, (s.band * 0.32).max(2.5), 0.0, TAU);
                ctx.set_fill_style_str(&server_colour(p.server));
                ctx.fill();
                ctx.set_line_width(1.5);
                ctx.set_stroke_style_str(BACKGROUND);
                ctx.stroke();
            }
        }
    }
    draw_keys(ctx, g, s, state, from, span);
    draw_ticks(ctx, g, s);
    draw_server_labels(ctx, g, s, state);
    if g.cx > 0.0 && g.cx < s.width && g.cy > 0.0 && g.cy < s.height && g.radius < s.width {
        draw_centre(ctx, g, s.font_px, state);
    }
}

/// Indexes of the ring points inside the visible arc.
fn visible_points(ring: &Ring, from: u32, span: u64) -> Vec<usize> {
    (0..ring.len())
        .filter(|&i| u64::from(ring.points()[i].position.wrapping_sub(from)) < span)
        .collect()
}

fn circle(ctx: &CanvasRenderingContext2d, g: &RingGeometry, r: f64) {
    ctx.begin_path();
    let _ = ctx.arc(g.cx, g.cy, r, 0.0, TAU);
}

/// Adds the arc `(after, upto]` at radius `r` to the current path.
fn arc_path(ctx: &CanvasRenderingContext2d, g: &RingGeometry, r: f64, after: u32, upto: u32) {
    let start = canvas_angle(after);
    let sweep = arc_len(after, upto) as f64 / RING_SPAN * TAU;
    ctx.move_to(g.cx + r * start.cos(), g.cy + r * start.sin());
    let _ = ctx.arc(g.cx, g.cy, r, start, start + sweep);
}

fn draw_owned_arcs(ctx: &CanvasRenderingContext2d, g: &RingGeometry, band: f64, ring: &Ring) {
    if ring.is_empty() {
        return;
    }
    // One path per server keeps the canvas calls proportional to servers, not vnodes.
    let slots = ring
        .points()
        .iter()
        .map(|p| usize::from(p.server) + 1)
        .max()
        .unwrap_or(0);
    let mut by_server: Vec<Vec<usize>> = vec![Vec::new(); slots];
    for (i, p) in ring.points().iter().enumerate() {
        by_server[usize::from(p.server)].push(i);
    }
    ctx.set_line_width(band);
    ctx.set_line_cap("butt");
    for (server, points) in by_server
        .into_iter()
        .enumerate()
        .filter(|(_, v)| !v.is_empty())
    {
        let server = server as ServerId;
        ctx.begin_path();
        for i in points {
            let upto = ring.points()[i].position;
            let after = ring.arc_start(i);
            if after == upto && ring.len() > 1 {
                continue; // a tied point owns nothing
            }
            arc_path(ctx, g, g.radius, after, upto);
        }
        ctx.set_stroke_style_str(&server_colour(server));
        ctx.stroke();
    }
}

fn draw_keys(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    state: &PageState,
    from: u32,
    span: u64,
) {
    let sim = &state.sim;
    let keys = sim.keys();
    let inner = key_radius(g, s);
    let [a, b] = if span >= 1 << 32 {
        [0..keys.len(), 0..0]
    } else {
        keys.places_in_arc(from.wrapping_sub(1), from.wrapping_add((span - 1) as u32))
    };
    let in_view = a.len() + b.len();
    if in_view <= MAX_KEY_DOTS {
        let depth = (g.radius * 0.16).min(s.height * 0.2);
        let dot = (s.width * 0.0045).clamp(1.6, 5.0);
        for place in a.chain(b) {
            let (pos, id, owner) = (keys.positions[place], keys.ids[place], sim.owners()[place]);
            // A stable radial jitter per key spreads dots that share an angle.
            let jitter = (splitmix64(u64::from(id)) >> 40) as f64 / f64::from(1u32 << 24);
            let (x, y) = g.point(pos, inner - jitter * depth);
            ctx.begin_path();
            let _ = ctx.arc(x, y, dot, 0.0, TAU);
            ctx.set_fill_style_str(&owner_colour(owner));
            ctx.fill();
        }
        return;
    }
    let arc_px = span as f64 / RING_SPAN * TAU * inner;
    let bins = (arc_px.min(s.width * 3.5) as usize).clamp(180, 1440);
    let profile = density_profile(&keys.positions, sim.owners(), from, span, bins);
    let peak = profile.iter().map(|b| b.0).max().unwrap_or(1).max(1) as f64;
    let depth = (g.radius * 0.22).min(s.height * 0.25);
    let bin_span = span as f64 / bins as f64;
    let width = (bin_span / RING_SPAN * TAU * inner + 0.6).min(s.width);
    ctx.set_line_width(width);
    for (bin, &(count, owner)) in profile.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let pos = f64::from(from) + (bin as f64 + 0.5) * bin_span;
        let angle = pos / RING_SPAN * TAU;
        let len = depth * (count as f64 / peak);
        let (sn, cs) = angle.sin_cos();
        ctx.begin_path();
        ctx.move_to(g.cx + inner * sn, g.cy - inner * cs);
        ctx.line_to(g.cx + (inner - len) * sn, g.cy - (inner - len) * cs);
        ctx.set_stroke_style_str(&owner_colour(owner));
        ctx.stroke();
    }
}

fn owner_colour(owner: ServerId) -> String {
    if owner == NO_OWNER {
        MUTED.to_owned()
    } else {
        server_colour(owner)
    }
}

fn draw_ticks(ctx: &CanvasRenderingContext2d, g: &RingGeometry, s: &Scale) {
    ctx.set_font(&format!("{:.0}px system-ui, sans-serif", s.font_px * 0.85));
    ctx.set_fill_style_str(MUTED);
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    for (pos, label) in [
        (0u32, "0"),
        (1 << 30, "2³⁰"),
        (1 << 31, "2³¹"),
        (3 << 30, "3·2³⁰"),
    ] {
        let (x1, y1) = g.point(pos, g.radius + s.band * 0.6);
        let (x2, y2) = g.point(pos, g.radius + s.band * 1.3);
        ctx.begin_path();
        ctx.move_to(x1, y1);
        ctx.line_to(x2, y2);
        ctx.set_line_width(1.0);
        ctx.set_stroke_style_str(MUTED);
        ctx.stroke();
        let (x, y) = g.point(pos, g.radius + s.band * 1.3 + s.font_px * 0.9);
        let _ = ctx.fill_text(label, x, y);
    }
}

/// Where each server's marker goes: its first vnode on the ring, the middle of its first
/// slot range, or (for per-key algorithms) evenly around the circle.
pub fn marker_positions(state: &PageState) -> Vec<(ServerId, u32)> {
    let sim = &state.sim;
    match (sim.algorithm(), sim.ring(), sim.slot_table()) {
        (Algorithm::Ring, Some(ring), _) => {
            // Each server's vnode 0, found in one pass over the ring.
            ring.points()
                .iter()
                .filter(|p| p.replica == 0)
                .map(|p| (p.server, p.position))
                .collect()
        }
        (Algorithm::Slots, _, Some(table)) => {
            let ranges = table.ranges();
            sim.servers()
                .iter()
                .filter_map(|s| {
                    let (a, b, _) = ranges.iter().find(|r| r.2 == s.id)?;
                    let mid = (u32::from(*a) + u32::from(*b) + 1)
                        << (crate::engine::slots::SLOT_SHIFT - 1);
                    Some((s.id, mid))
                })
                .collect()
        }
        _ => {
            let n = sim.servers().len().max(1) as u64;
            sim.servers()
                .iter()
                .enumerate()
                .map(|(i, s)| (s.id, ((i as u64) * (1u64 << 32) / n) as u32))
                .collect()
        }
    }
}

fn draw_server_labels(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    state: &PageState,
) {
    ctx.set_font(&format!("600 {:.0}px system-ui, sans-serif", s.font_px));
    ctx.set_text_baseline("middle");
    for (id, pos) in marker_positions(state) {
        let Some(server) = state.sim.server(id) else {
            continue;
        };
        let colour = server_colour(id);
        let (mx, my) = g.point(pos, g.radius);
        if mx < -50.0 || my < -50.0 || mx > s.width + 50.0 || my > s.height + 50.0 {
            continue;
        }
        ctx.begin_path();
        let _ = ctx.arc(mx, my, s.band * 0.75, 0.0, TAU);
        ctx.set_fill_style_str(if server.up { &colour } else { BACKGROUND });
        ctx.fill();
        ctx.set_line_width(2.5);
        ctx.set_stroke_style_str(if server.up { "#ffffff" } else { &colour });
        ctx.stroke();
        let (lx, ly) = g.point(pos, g.radius + s.band * 2.6 + s.font_px);
        let label = if server.up {
            server.name.clone()
        } else {
            format!("{} ✕ down", server.name)
        };
        // Hang the label away from the ring on its side, then keep it on the canvas.
        let text_width = ctx.measure_text(&label).map_or(0.0, |m| m.width());
        let side = angle_of(pos).sin();
        let start = if side > 0.25 {
            lx
        } else if side < -0.25 {
            lx - text_width
        } else {
            lx - text_width / 2.0
        };
        let start = start.clamp(4.0, (s.width - text_width - 4.0).max(4.0));
        let ly = ly.clamp(s.font_px, (s.height - s.font_px).max(s.font_px));
        ctx.set_text_align("left");
        ctx.set_fill_style_str(&colour);
        let _ = ctx.fill_text(&label, start, ly);
    }
}

fn draw_centre(ctx: &CanvasRenderingContext2d, g: &RingGeometry, font_px: f64, state: &PageState) {
    let sim = &state.sim;
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    ctx.set_fill_style_str(TEXT);
    ctx.set_font(&format!(
        "600 {:.0}px system-ui, sans-serif",
        font_px * 1.25
    ));
    let _ = ctx.fill_text(algorithm_title(sim.algorithm()), g.cx, g.cy - font_px * 0.9);
    ctx.set_font(&format!("{:.0}px system-ui, sans-serif", font_px * 0.9));
    ctx.set_fill_style_str(MUTED);
    let keys = group_thousands(sim.keys().len() as u64);
    let line = match sim.algorithm() {
        Algorithm::Ring => format!(
            "{} servers · {} vnodes · {keys} keys",
            sim.servers().len(),
            group_thousands(sim.ring().map_or(0, |r| r.len()) as u64)
        ),
        Algorithm::Slots => format!(
            "{} masters · 16,384 slots · {keys} keys",
            sim.servers().len()
        ),
        _ => format!("{} servers · {keys} keys", sim.servers().len()),
    };
    let _ = ctx.fill_text(&line, g.cx, g.cy + font_px * 0.6);
}

/// The heading shown in the ring's centre.
pub fn algorithm_title(algo: Algorithm) -> &'static str {
    match algo {
        Algorithm::Ring => "Consistent-hash ring",
        Algorithm::ModN => "hash mod N",
        Algorithm::Rendezvous => "Rendezvous (HRW)",
        Algorithm::Carp => "CARP (MD5, min)",
        Algorithm::Slots => "Redis Cluster slots",
    }
}

/// A key in motion: from its own position clockwise to its owner's point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Walker {
    /// Start position (the key's hash).
    pub from: u32,
    /// End position (the owning vnode or range end); equal to `from` for per-key algorithms.
    pub to: u32,
    /// Colour before (the old owner).
    pub was: ServerId,
    /// Colour after (the new owner).
    pub now: ServerId,
    /// Phase offset in 0..1, so a stream of walkers does not move in lockstep.
    pub phase: f64,
}

/// The moved keys of the last change as walkers (at most `cap`, evenly sampled).
pub fn moved_walkers(state: &PageState, cap: usize) -> Vec<Walker> {
    let Some(last) = &state.last else {
        return Vec::new();
    };
    let m = &last.movement;
    let keys = state.sim.keys();
    if m.moved_places.is_empty() || keys.is_empty() {
        return Vec::new();
    }
    let step = (m.moved_places.len() / cap.max(1)).max(1);
    (0..m.moved_places.len())
        .step_by(step)
        .take(cap)
        .filter_map(|i| {
            let place = *m.moved_places.get(i)? as usize;
            let from = *keys.positions.get(place)?;
            let now = *state.sim.owners().get(place)?;
            let to = state
                .sim
                .ring()
                .and_then(|r| r.successor(from))
                .map_or(from, |p| p.position);
            Some(Walker {
                from,
                to,
                was: m.moved_from[i],
                now,
                phase: 0.0,
            })
        })
        .collect()
}

/// A steady sample of keys walking to their owners (the "play" animation).
pub fn idle_walkers(state: &PageState, cap: usize) -> Vec<Walker> {
    let keys = state.sim.keys();
    if keys.is_empty() {
        return Vec::new();
    }
    let step = (keys.len() / cap.max(1)).max(1);
    (0..keys.len())
        .step_by(step)
        .take(cap)
        .map(|place| {
            let from = keys.positions[place];
            let now = state.sim.owners()[place];
            let to = state
                .sim
                .ring()
                .and_then(|r| r.successor(from))
                .map_or(from, |p| p.position);
            Walker {
                from,
                to,
                was: now,
                now,
                phase: (splitmix64(place as u64) >> 11) as f64 / (1u64 << 53) as f64,
            }
        })
        .collect()
}

/// What the overlay shows at one instant.
pub struct Overlay<'a> {
    /// Milliseconds since the last change (None before any change).
    pub since_change_ms: Option<f64>,
    /// Milliseconds since the page started (drives the idle stream).
    pub clock_ms: f64,
    /// Animation speed multiplier.
    pub speed: f64,
    /// Whether the idle stream plays.
    pub playing: bool,
    /// Moved keys of the last change.
    pub moved: &'a [Walker],
    /// The idle stream.
    pub idle: &'a [Walker],
}

impl Overlay<'_> {
    /// True while something on the overlay moves or fades.
    pub fn is_animating(&self) -> bool {
        self.playing
            || self
                .since_change_ms
                .is_some_and(|t| t < HIGHLIGHT_MS.max(WALK_MS / self.speed))
    }
}

/// Draws the overlay for one frame.
pub fn draw_overlay(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    state: &PageState,
    o: &Overlay,
) {
    let inner = key_radius(g, s);
    let dot = (s.width * 0.005).clamp(2.0, 4.0);
    if let (Some(last), Some(t)) = (&state.last, o.since_change_ms) {
        let fade = 1.0 - (t / HIGHLIGHT_MS).clamp(0.0, 1.0);
        if fade > 0.0 {
            ctx.set_global_alpha(fade);
            for arc in &last.movement.arcs {
                if arc.from != NO_OWNER {
                    ctx.begin_path();
                    arc_path(ctx, g, g.radius + s.band * 1.05, arc.after, arc.upto);
                    ctx.set_line_width(s.band * 0.45);
                    ctx.set_stroke_style_str(&server_colour(arc.from));
                    ctx.stroke();
                }
                ctx.begin_path();
                arc_path(ctx, g, g.radius + s.band * 0.72, arc.after, arc.upto);
                ctx.set_line_width(2.0);
                ctx.set_stroke_style_str("#ffffff");
                ctx.stroke();
            }
            ctx.set_global_alpha(1.0);
        }
        let walk = (t * o.speed / WALK_MS).clamp(0.0, 1.0);
        if walk < 1.0 {
            for w in o.moved {
                let pos = walk_position(w.from, w.to, walk);
                let (x, y) = g.point(pos, inner + s.band * 0.2);
                ctx.begin_path();
                let _ = ctx.arc(x, y, dot * 1.3, 0.0, TAU);
                ctx.set_fill_style_str(&owner_colour(if walk < 0.15 { w.was } else { w.now }));
                ctx.fill();
                ctx.set_line_width(1.0);
                ctx.set_stroke_style_str("#ffffff");
                ctx.stroke();
            }
        }
    }
    if o.playing {
        let cycle = o.clock_ms * o.speed / (WALK_MS * 1.5);
        for w in o.idle {
            let t = (cycle + w.phase).fract();
            let pos = walk_position(w.from, w.to, t);
            let (x, y) = g.point(pos, inner + s.band * 0.2);
            ctx.set_global_alpha(1.0 - t * 0.6);
            ctx.begin_path();
            let _ = ctx.arc(x, y, dot, 0.0, TAU);
            ctx.set_fill_style_str(&owner_colour(w.now));
            ctx.fill();
        }
        ctx.set_global_alpha(1.0);
    }
    if let Some(l) = &state.lookup {
        draw_lookup(ctx, g, s, l, o.clock_ms * o.speed);
    }
}

fn draw_lookup(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    l: &crate::state::Lookup,
    clock: f64,
) {
    let colour = owner_colour(l.owner);
    let r = g.radius + s.band * 1.9;
    if let Some(to) = l.owner_point {
        // The path the key walks, as an arc outside the ring.
        ctx.begin_path();
        arc_path(ctx, g, r, l.position, to);
        ctx.set_line_width(3.0);
        ctx.set_stroke_style_str(&colour);
        ctx.stroke();
        let t = (clock / (WALK_MS * 1.5)).fract();
        let (x, y) = g.point(walk_position(l.position, to, t), r);
        ctx.begin_path();
        let _ = ctx.arc(x, y, 5.0, 0.0, TAU);
        ctx.set_fill_style_str("#ffffff");
        ctx.fill();
    }
    // A pin at the key's own position.
    let (x1, y1) = g.point(l.position, g.radius - s.band);
    let (x2, y2) = g.point(l.position, r + s.band);
    ctx.begin_path();
    ctx.move_to(x1, y1);
    ctx.line_to(x2, y2);
    ctx.set_line_width(2.0);
    ctx.set_stroke_style_str("#ffffff");
    ctx.stroke();
    ctx.begin_path();
    let _ = ctx.arc(x2, y2, 6.0, 0.0, TAU);
    ctx.set_fill_style_str(&colour);
    ctx.fill();
    ctx.set_stroke_style_str("#ffffff");
    ctx.stroke();
}

/// What is under the pointer, as a title and detail lines.
pub fn hover_at(
    state: &PageState,
    g: &RingGeometry,
    s: &Scale,
    x: f64,
    y: f64,
) -> Option<(String, Vec<String>)> {
    let (pos, dist) = g.position_at(x, y);
    let sim = &state.sim;
    let units_per_px = RING_SPAN / (TAU * g.radius.max(1.0));
    let tolerance = (units_per_px * 8.0).min(RING_SPAN / 4.0) as u32;
    if (dist - g.radius).abs() <= s.band {
        if let Some(ring) = sim.ring() {
            if let Some(i) = nearest(ring.positions(), pos, tolerance) {
                let p = ring.points()[i];
                let server = sim.server(p.server)?;
                let share = arc_len(ring.arc_start(i), p.position) as f64 / RING_SPAN;
                let title = match sim.algorithm() {
                    Algorithm::Slots => format!("Slots ending at {} → {}", p.replica, server.name),
                    _ => sim.label().render(&server.name, p.replica),
                };
                return Some((
                    title,
                    vec![
                        format!(
                            "position {} (0x{:08x})",
                            group_thousands(u64::from(p.position)),
                            p.position
                        ),
                        format!("server {}", server.name),
                        format!("owns {:.3}% of the ring", share * 100.0),
                    ],
                ));
            }
        }
    }
    let inner = key_radius(g, s);
    if dist < inner + 2.0 && dist > inner - g.radius * 0.3 {
        let keys = sim.keys();
        let i = nearest(&keys.positions, pos, tolerance / 2)?;
        let owner = sim.owners()[i];
        let name = sim.key_name(keys.ids[i]);
        return Some((
            format!("key {name}"),
            vec![
                format!(
                    "position {} (0x{:08x})",
                    group_thousands(u64::from(keys.positions[i])),
                    keys.positions[i]
                ),
                format!(
                    "owner {}",
                    sim.server(owner).map_or("nobody", |s| s.name.as_str())
                ),
            ],
        ));
    }
    None
}
