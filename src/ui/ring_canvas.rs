//! Strokes the ring on a 2D canvas from the pure geometry in [`crate::render`].
//!
//! Layers, back to front: the owned arcs as a coloured band (so ownership reads at a
//! glance), the arcs that changed hands in the last change (outlined, "to" colour inside
//! the "from" colour), vnode marks, keys (dots, or a density band when there are too many
//! to draw one by one), the 0 / 2^30 / 2^31 / 3·2^30 ticks, and the server labels.

use std::f64::consts::TAU;

use web_sys::CanvasRenderingContext2d;

use crate::engine::keys::splitmix64;
use crate::engine::placement::Algorithm;
use crate::engine::ring::{arc_len, ServerId, NO_OWNER};
use crate::render::{canvas_angle, density_profile, server_colour, RingGeometry};
use crate::state::PageState;

/// Keys drawn one by one up to this many; beyond it, a density band.
pub const MAX_KEY_DOTS: usize = 2_000;

const BACKGROUND: &str = "#0f1420";
const TRACK: &str = "#2a3244";
const TEXT: &str = "#c9d1e0";
const MUTED: &str = "#7d879c";

/// Draws the whole ring for `state` on a canvas of `width` × `height` CSS pixels.
pub fn draw(ctx: &CanvasRenderingContext2d, width: f64, height: f64, state: &PageState) {
    let g = RingGeometry::fit(width, height);
    ctx.set_fill_style_str(BACKGROUND);
    ctx.fill_rect(0.0, 0.0, width, height);
    let band = (g.radius * 0.06).clamp(6.0, 22.0);
    let font_px = (g.radius * 0.055).clamp(11.0, 22.0);

    // The track.
    ctx.set_stroke_style_str(TRACK);
    ctx.set_line_width(band);
    circle(ctx, &g, g.radius);
    ctx.stroke();

    let sim = &state.sim;
    if let Some(ring) = sim.ring() {
        draw_owned_arcs(ctx, &g, band, ring);
        draw_changed_arcs(ctx, &g, band, state);
        if ring.len() <= 600 {
            for p in ring.points() {
                let (x, y) = g.point(p.position, g.radius);
                ctx.begin_path();
                let _ = ctx.arc(x, y, (band * 0.32).max(2.5), 0.0, TAU);
                ctx.set_fill_style_str(&server_colour(p.server));
                ctx.fill();
                ctx.set_line_width(1.5);
                ctx.set_stroke_style_str(BACKGROUND);
                ctx.stroke();
            }
        }
    }
    draw_keys(ctx, &g, band, state);
    draw_ticks(ctx, &g, band, font_px);
    draw_server_labels(ctx, &g, band, font_px, width, state);
    draw_centre(ctx, &g, font_px, state);
}

fn circle(ctx: &CanvasRenderingContext2d, g: &RingGeometry, r: f64) {
    ctx.begin_path();
    let _ = ctx.arc(g.cx, g.cy, r, 0.0, TAU);
}

/// Adds the arc `(after, upto]` at radius `r` to the current path.
fn arc_path(ctx: &CanvasRenderingContext2d, g: &RingGeometry, r: f64, after: u32, upto: u32) {
    let start = canvas_angle(after);
    let sweep = arc_len(after, upto) as f64 / crate::render::RING_SPAN * TAU;
    let (x, y) = (g.cx + r * start.cos(), g.cy + r * start.sin());
    ctx.move_to(x, y);
    let _ = ctx.arc(g.cx, g.cy, r, start, start + sweep);
}

fn draw_owned_arcs(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    band: f64,
    ring: &crate::engine::ring::Ring,
) {
    if ring.is_empty() {
        return;
    }
    // One path per server keeps the canvas calls proportional to servers, not vnodes.
    let mut by_server: Vec<(ServerId, Vec<usize>)> = Vec::new();
    for (i, p) in ring.points().iter().enumerate() {
        match by_server.iter_mut().find(|(s, _)| *s == p.server) {
            Some((_, v)) => v.push(i),
            None => by_server.push((p.server, vec![i])),
        }
    }
    ctx.set_line_width(band);
    ctx.set_line_cap("butt");
    for (server, points) in by_server {
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

fn draw_changed_arcs(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    band: f64,
    state: &PageState,
) {
    let Some(last) = &state.last else { return };
    for arc in &last.movement.arcs {
        // Outer rim in the old owner's colour, the band itself in the new owner's.
        if arc.from != NO_OWNER {
            ctx.begin_path();
            arc_path(ctx, g, g.radius + band * 1.05, arc.after, arc.upto);
            ctx.set_line_width(band * 0.45);
            ctx.set_stroke_style_str(&server_colour(arc.from));
            ctx.stroke();
        }
        ctx.begin_path();
        arc_path(ctx, g, g.radius + band * 0.72, arc.after, arc.upto);
        ctx.set_line_width(2.0);
        ctx.set_stroke_style_str("#ffffff");
        ctx.stroke();
    }
}

fn draw_keys(ctx: &CanvasRenderingContext2d, g: &RingGeometry, band: f64, state: &PageState) {
    let sim = &state.sim;
    let keys = sim.keys();
    let inner = g.radius - band * 1.2;
    if keys.len() <= MAX_KEY_DOTS {
        let depth = g.radius * 0.16;
        let dot = (g.radius * 0.009).clamp(1.6, 3.5);
        for (place, (&pos, &id)) in keys.positions.iter().zip(&keys.ids).enumerate() {
            let owner = sim.owners()[place];
            // A stable radial jitter per key spreads dots that share an angle.
            let jitter = (splitmix64(u64::from(id)) >> 40) as f64 / f64::from(1u32 << 24);
            let (x, y) = g.point(pos, inner - jitter * depth);
            ctx.begin_path();
            let _ = ctx.arc(x, y, dot, 0.0, TAU);
            ctx.set_fill_style_str(&owner_colour(owner));
            ctx.fill();
        }
    } else {
        let bins = ((TAU * g.radius) as usize).clamp(180, 1440);
        let profile = density_profile(&keys.positions, sim.owners(), bins);
        let peak = profile.iter().map(|b| b.0).max().unwrap_or(1).max(1) as f64;
        let depth = g.radius * 0.22;
        let width = TAU * inner / bins as f64 + 0.6;
        ctx.set_line_width(width);
        for (bin, &(count, owner)) in profile.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let angle = (bin as f64 + 0.5) / bins as f64 * TAU;
            let len = depth * (count as f64 / peak);
            let (s, c) = angle.sin_cos();
            ctx.begin_path();
            ctx.move_to(g.cx + inner * s, g.cy - inner * c);
            ctx.line_to(g.cx + (inner - len) * s, g.cy - (inner - len) * c);
            ctx.set_stroke_style_str(&owner_colour(owner));
            ctx.stroke();
        }
    }
}

fn owner_colour(owner: ServerId) -> String {
    if owner == NO_OWNER {
        MUTED.to_owned()
    } else {
        server_colour(owner)
    }
}

fn draw_ticks(ctx: &CanvasRenderingContext2d, g: &RingGeometry, band: f64, font_px: f64) {
    ctx.set_font(&format!("{:.0}px system-ui, sans-serif", font_px * 0.85));
    ctx.set_fill_style_str(MUTED);
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    for (pos, label) in [
        (0u32, "0"),
        (1 << 30, "2³⁰"),
        (1 << 31, "2³¹"),
        (3 << 30, "3·2³⁰"),
    ] {
        let (x1, y1) = g.point(pos, g.radius + band * 0.6);
        let (x2, y2) = g.point(pos, g.radius + band * 1.3);
        ctx.begin_path();
        ctx.move_to(x1, y1);
        ctx.line_to(x2, y2);
        ctx.set_line_width(1.0);
        ctx.set_stroke_style_str(MUTED);
        ctx.stroke();
        let (x, y) = g.point(pos, g.radius + band * 1.3 + font_px * 0.9);
        let _ = ctx.fill_text(label, x, y);
    }
}

/// Where each server's label goes: its first vnode on the ring, the middle of its first
/// slot range, or (for per-key algorithms) evenly around the circle.
fn label_positions(state: &PageState) -> Vec<(ServerId, u32)> {
    let sim = &state.sim;
    match (sim.algorithm(), sim.ring()) {
        (Algorithm::Ring, Some(ring)) => sim
            .servers()
            .iter()
            .filter_map(|s| {
                ring.points()
                    .iter()
                    .find(|p| p.server == s.id && p.replica == 0)
                    .map(|p| (s.id, p.position))
            })
            .collect(),
        (Algorithm::Slots, Some(_)) => {
            let table = sim.slot_table();
            sim.servers()
                .iter()
                .filter_map(|s| {
                    let ranges = table?.ranges();
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
    band: f64,
    font_px: f64,
    width: f64,
    state: &PageState,
) {
    ctx.set_font(&format!("600 {font_px:.0}px system-ui, sans-serif"));
    ctx.set_text_baseline("middle");
    for (id, pos) in label_positions(state) {
        let Some(server) = state.sim.server(id) else {
            continue;
        };
        let colour = server_colour(id);
        let (mx, my) = g.point(pos, g.radius);
        ctx.begin_path();
        let _ = ctx.arc(mx, my, band * 0.75, 0.0, TAU);
        ctx.set_fill_style_str(if server.up { &colour } else { BACKGROUND });
        ctx.fill();
        ctx.set_line_width(2.5);
        ctx.set_stroke_style_str(if server.up { "#ffffff" } else { &colour });
        ctx.stroke();
        let (lx, ly) = g.point(pos, g.radius + band * 2.6 + font_px);
        let label = if server.up {
            server.name.clone()
        } else {
            format!("{} ✕", server.name)
        };
        // Left-aligned at a start x chosen so the label hangs away from the ring on its
        // side, then clamped so it never leaves the canvas.
        let text_width = ctx.measure_text(&label).map_or(0.0, |m| m.width());
        let side = crate::render::angle_of(pos).sin();
        let start = if side > 0.25 {
            lx
        } else if side < -0.25 {
            lx - text_width
        } else {
            lx - text_width / 2.0
        };
        let start = start.clamp(4.0, (width - text_width - 4.0).max(4.0));
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
    let vnodes = sim.ring().map_or(0, |r| r.len());
    let line = match sim.algorithm() {
        Algorithm::Ring => format!(
            "{} servers · {} vnodes · {} keys",
            sim.servers().len(),
            crate::chart::group_thousands(vnodes as u64),
            crate::chart::group_thousands(sim.keys().len() as u64)
        ),
        _ => format!(
            "{} servers · {} keys",
            sim.servers().len(),
            crate::chart::group_thousands(sim.keys().len() as u64)
        ),
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
