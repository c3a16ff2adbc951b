//! Strokes the ring on a 2D canvas. What to draw and where is computed natively in
//! [`crate::render`]; this file only turns it into canvas calls.
//!
//! Two layers. The *static* layer (the owned-arc band, vnode marks, keys as dots or a
//! density band, ticks, server labels) is drawn into an offscreen canvas only when the
//! state or the view changes; its cost does not grow with the number of vnodes or keys
//! (the band is drawn at screen resolution). The *overlay* is drawn every animation frame
//! on top of a copy of it: the arcs that changed hands (fading), keys walking clockwise to
//! their owner, and the looked-up key — a pure function of (state, view, clock).

use crate::math;
use crate::text::fill;
use std::f64::consts::TAU;

use web_sys::CanvasRenderingContext2d;

use crate::engine::contract::Best;
use crate::engine::contract::{How, Probe, Structure};
use crate::engine::keys::splitmix64;
use crate::engine::placement::Shape;
use crate::engine::ring::{arc_len, ServerId, NO_OWNER};
use crate::engine::sim::Simulation;
use crate::i18n::Words;
use crate::render::buckets::{capacity_bars, range_bands, traffic, BucketPicture, Grid, RangeBand};
use crate::render::domains::{domain_labels, label_px as domain_label_px, DomainRing, Domains};
use crate::render::loupe::{self, Loupe};
use crate::render::palette::Palette;
use crate::render::scene::{
    arc_runs, band_segments, bucket_radius, key_radius, keys_cluster, mark_runs, marker_positions,
    marks_crowd, name_choices, place_key_labels, place_labels, share_arcs, stack_markers,
    tick_labels, too_fine, visible_points, zoom_buttons_rect, Clock, Fans, KeyLabel, Label, Marker,
    Rect, Scale, ServerLabel, Walker, MAX_KEY_DOTS, TICKS,
};
use crate::render::walk::Walk;
use crate::render::workings::{residue_annulus, score_bars, score_table_rect, ScoreRow, Workings};
use crate::render::{
    canvas_angle, density_profile, server_colour, visible_arc, walk_position, walk_shorter,
    RingGeometry, RING_SPAN,
};
use crate::state::{Lookup, PageState};
use crate::text::Fixed;
use crate::words::{algorithm_title, cell_sum, group_thousands, modulo_sum, range_text};

/// Draws the static layer for `state` with ring geometry `g`; returns where the keys'
/// names went (when few keys are drawn named). Drawn for the screen and for the printed
/// handout.
pub fn draw_static(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    state: &PageState,
    w: &Words,
    p: &Palette,
) -> Vec<KeyLabel> {
    ctx.set_fill_style_str(p.background);
    ctx.fill_rect(0.0, 0.0, s.width, s.height);
    ctx.set_stroke_style_str(p.track);
    ctx.set_line_width(s.band);
    circle(ctx, g, g.radius);
    ctx.stroke();

    let (from, span) = visible_arc(g, s.width, s.height);
    draw_ring_band(ctx, g, s, state, (from, span), p);
    let picture = BucketPicture::of(&state.sim);
    // How far out from the centre the centre's words may reach.
    let mut clear = g.radius * 0.575;
    // Anchor's and Dx's whole capacity, when it fits.
    let grid = picture
        .as_ref()
        .filter(|b| b.has_grid())
        .and_then(|b| Grid::fit(g, s, b.capacity));
    // Ceph over a CRUSH hierarchy: the map's OSDs, grouped by host and rack; the centre's
    // words among its names are never smaller than they are (else left out: a small frame).
    let mut smallest = 8.0;
    if let Some(domains) = Domains::of(&state.sim) {
        clear = draw_domains(ctx, g, s, &domains, &state.sim, p);
        smallest = s.tick_font_px();
    }
    if let Some(picture) = &picture {
        // The grid holds the buckets in use as its first cells: it takes the ring's place.
        if grid.is_none() {
            draw_buckets(ctx, g, s, &picture.holders, picture.ring_cells, p);
        }
        clear = draw_structure(ctx, g, s, picture, grid, &state.sim, p);
    }
    let key_labels = draw_keys(ctx, g, s, state, from, span, p);
    // mod-N's residues, rendezvous' and CARP's scores: the arithmetic their keys went by.
    let workings = Workings::of(&state.sim);
    match &workings {
        Some(Workings::Residues { live }) => draw_residues(ctx, g, s, live, &state.sim, p),
        Some(Workings::Scores { best, rows }) => {
            draw_score_table(ctx, s, score_table_rect(g), rows, *best, &state.sim, w, p);
        }
        None => {}
    }
    // Bounded loads: each server's keys against the capacity line, labelled with the
    // capacity and how many keys found their first server full and were forwarded.
    if let Some(c) = capacity_bars(&state.sim) {
        let rect = Rect {
            x: g.cx - g.radius * 0.65,
            y: g.cy + g.radius * 0.26,
            w: g.radius * 1.3,
            h: g.radius * 0.4 + s.tick_font_px() * 1.4,
        };
        let row = [("", &c.bars[..], NO_OWNER)];
        let line = draw_score_rows(ctx, s, rect, &row, true, &state.sim, p);
        ctx.set_font(&font(s.font_px * 0.9, false));
        ctx.set_text_align("center");
        ctx.set_text_baseline("bottom");
        ctx.set_fill_style_str(p.text);
        let said = fill(
            w.pic_forwarded,
            &[
                &group_thousands(c.capacity.into()),
                &group_thousands(c.forwarded.into()),
            ],
        );
        let _ = ctx.fill_text(&said, g.cx, line - 4.0);
    }
    // The ring's 0 … 3·2³⁰ ticks only where a key's place on it is its hash.
    let hashed = state.sim.ring().is_some() || state.sim.slot_table().is_some();
    let ticks = if hashed {
        draw_ticks(ctx, g, s, p)
    } else {
        Vec::new()
    };
    let mut obstacles = ticks;
    obstacles.push(zoom_buttons_rect(s.width));
    draw_server_labels(ctx, g, s, state, &obstacles, w, p);
    if g.cx > 0.0 && g.cx < s.width && g.cy > 0.0 && g.cy < s.height && g.radius < s.width {
        // Above the capacity grid or the score table when there is one.
        let table = matches!(workings, Some(Workings::Scores { .. }));
        let middle = match grid {
            Some(grid) => grid.y - s.font_px * 1.3,
            None if table => score_table_rect(g).y - s.font_px * 1.4,
            None => g.cy,
        };
        draw_centre(ctx, g, s, (middle, clear * 2.0, smallest), state, w, p);
    }
    key_labels
}

/// The band of a ring algorithm: its owned arcs over the visible arc `(from, span)` —
/// summed into one arc a server when they are too fine to tell apart — and, when few are
/// in view, a mark at each point (Maglev's and Ceph's cells: a gap at each cell's end).
fn draw_ring_band(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    state: &PageState,
    (from, span): (u32, u64),
    p: &Palette,
) {
    let Some(ring) = state.sim.ring() else {
        return;
    };
    // Two segments per pixel of the visible circumference.
    let arc_px = span as f64 / RING_SPAN * TAU * g.radius;
    let resolution = (arc_px * 2.0).clamp(64.0, 8192.0) as usize;
    let segments = band_segments(ring, from, span, resolution);
    let summed = summed_band(g, s, state)
        .then(|| state.sim.ring_shares())
        .flatten();
    // How much the band shows, for tests: "summed", or the points marked one by one.
    let is_summed = summed.is_some();
    let mut detail = if is_summed {
        "summed".to_owned()
    } else {
        "arcs".to_owned()
    };
    match summed {
        // Too many vnodes to tell apart at this zoom: each server's share as one arc
        // on the band's outer three quarters, its true arcs as a thin line inside.
        Some(shares) => {
            draw_band(
                ctx,
                g,
                (g.radius + s.band * 0.125, s.band * 0.75),
                &share_arcs(&shares),
                p,
            );
            draw_band(
                ctx,
                g,
                (g.radius - s.band * 0.375, s.band * 0.25),
                &segments,
                p,
            );
        }
        None => draw_band(ctx, g, (g.radius, s.band), &segments, p),
    }
    let marks = visible_points(ring, from, span);
    // Maglev's points are cell ends, not servers' points: its cells are the picture.
    let cells = state.sim.settings().algo.shape() == Shape::TableCells;
    let shown = marks.iter().map(|r| r.len()).sum::<usize>();
    let point_r = (s.band * 0.32).max(2.5);
    if cells && shown <= 128 {
        // Few cells in view (Ceph's placement groups, a zoomed Maglev table): a gap
        // across the band at each cell's end, so that each reads as one cell of its
        // server's colour — the picture's middle level, between keys and servers.
        ctx.begin_path();
        for i in marks.into_iter().flatten() {
            let at = ring.points()[i].position;
            let (x0, y0) = g.point(at, g.radius - s.band / 2.0);
            let (x1, y1) = g.point(at, g.radius + s.band / 2.0);
            ctx.move_to(x0, y0);
            ctx.line_to(x1, y1);
        }
        ctx.set_line_width(1.5);
        ctx.set_stroke_style_str(p.background);
        ctx.stroke();
    } else if !cells && !is_summed && shown <= 600 && !marks_crowd(shown, point_r, arc_px) {
        // Each point marked, while they stand apart (600 crowded on a summed band were
        // a froth over the shares).
        detail = format!("points {shown}");
        for i in marks.into_iter().flatten() {
            let point = ring.points()[i];
            let (x, y) = g.point(point.position, g.radius);
            ctx.begin_path();
            let _ = ctx.arc(x, y, point_r, 0.0, TAU);
            ctx.set_fill_style_str(&server_colour(point.server, p));
            ctx.fill();
            ctx.set_line_width(1.5);
            ctx.set_stroke_style_str(p.background);
            ctx.stroke();
        }
    }
    if let Some(canvas) = ctx.canvas() {
        let _ = canvas.set_attribute("data-band-detail", &detail);
    }
}

/// Bucket algorithms: an inner ring of `cells` equal cells, bucket `i` clockwise from the
/// top, coloured by the server holding it; a removed bucket is a grey cell crossed out, a
/// never-used one (Anchor's and Dx's spare capacity) a faint one. Keys keep their places on
/// the outer ring, coloured by owner: a bucket algorithm has no arcs, and the picture does
/// not pretend it has.
fn draw_buckets(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    holders: &[ServerId],
    cells: u32,
    p: &Palette,
) {
    let cells = cells.max(1);
    let r = bucket_radius(g);
    let width = s.band * 0.9;
    let sweep = TAU / f64::from(cells);
    let gap = if cells <= 256 { sweep * 0.08 } else { 0.0 };
    ctx.set_line_width(width);
    ctx.set_line_cap("butt");
    ctx.set_font(&font(s.tick_font_px(), false));
    ctx.set_fill_style_str(p.muted);
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    for i in 0..cells {
        let start = f64::from(i) * sweep - TAU / 4.0 + gap / 2.0;
        let holder = holders.get(i as usize).copied();
        ctx.begin_path();
        let _ = ctx.arc(g.cx, g.cy, r, start, start + sweep - gap);
        ctx.set_global_alpha(if holder.is_none() { 0.35 } else { 1.0 });
        ctx.set_stroke_style_str(&match holder {
            Some(h) if h != NO_OWNER => server_colour(h, p),
            _ => p.track.to_owned(),
        });
        ctx.stroke();
        ctx.set_global_alpha(1.0);
        let mid = start + (sweep - gap) / 2.0;
        if holder == Some(NO_OWNER) && r * sweep > width * 0.6 {
            // A removed bucket: a cross over its cell.
            let (x, y) = (g.cx + r * math::cos(mid), g.cy + r * math::sin(mid));
            let d = (width * 0.3).min(r * sweep * 0.3);
            ctx.begin_path();
            ctx.move_to(x - d, y - d);
            ctx.line_to(x + d, y + d);
            ctx.move_to(x + d, y - d);
            ctx.line_to(x - d, y + d);
            ctx.set_line_width(2.0);
            ctx.set_stroke_style_str(p.muted);
            ctx.stroke();
            ctx.set_line_width(width);
        }
        if cells <= 32 {
            let lr = r - width * 0.5 - s.tick_font_px() * 0.8;
            let _ = ctx.fill_text(
                &i.to_string(),
                g.cx + lr * math::cos(mid),
                g.cy + lr * math::sin(mid),
            );
        }
    }
}

/// Ceph over a CRUSH hierarchy: the inner ring of the map ([`Domains`]) — each host's arc
/// as a pale band with its OSDs on it in their colours (hollow when out), racks as a line
/// outside their hosts, the buckets' names where they fit. Writes the layout for the
/// page's tests (`data-domains`: `osd x y r bucket` per OSD, by name; `data-domain-labels`:
/// `bucket x y w h` per name). Returns how far out the centre's words may reach.
fn draw_domains(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    d: &Domains,
    sim: &Simulation,
    p: &Palette,
) -> f64 {
    let ring = DomainRing::fit(g, s, d.slots);
    ctx.set_line_cap("butt");
    for arc in &d.arcs {
        let (from, to) = (f64::from(arc.slots.0), f64::from(arc.slots.1));
        let (after, upto) = (d.position(from - 0.45), d.position(to + 0.45));
        ctx.begin_path();
        if arc.level == 0 {
            arc_path(ctx, g, ring.radius, after, upto);
            ctx.set_line_width(ring.band);
            ctx.set_stroke_style_str(p.track);
        } else {
            arc_path(ctx, g, ring.level_radius(arc.level), after, upto);
            ctx.set_line_width(2.5);
            ctx.set_stroke_style_str(p.muted);
        }
        ctx.stroke();
    }
    let mut spots = Vec::with_capacity(d.osds.len());
    for spot in &d.osds {
        let (x, y) = ring.spot_centre(g, d, spot);
        let up = sim.server(spot.server).is_some_and(|s| s.up);
        ctx.begin_path();
        let _ = ctx.arc(x, y, ring.dot, 0.0, TAU);
        let colour = server_colour(spot.server, p);
        ctx.set_fill_style_str(if up { &colour } else { p.background });
        ctx.fill();
        ctx.set_line_width(if up { 1.0 } else { 2.0 });
        ctx.set_stroke_style_str(if up { p.outline } else { &colour });
        ctx.stroke();
        let bucket = spot.bucket.map_or("", |b| d.arcs[b].name.as_str());
        let name = sim.server(spot.server).map_or("", |s| s.name.as_str());
        spots.push(format!(
            "{name} {} {} {} {bucket}",
            Fixed(x, 1),
            Fixed(y, 1),
            Fixed(ring.dot, 1)
        ));
    }
    let px = domain_label_px(s);
    ctx.set_font(&font(px, true));
    let labels = domain_labels(g, &ring, d, px, &measurer(ctx));
    let mut named = Vec::with_capacity(labels.len());
    for (i, label) in &labels {
        let host = d.arcs[*i].level == 0;
        ctx.set_fill_style_str(if host { p.text } else { p.muted });
        fill_label(ctx, label);
        let r = label.rect;
        named.push(format!(
            "{} {} {} {} {}",
            d.arcs[*i].name,
            Fixed(r.x, 1),
            Fixed(r.y, 1),
            Fixed(r.w, 1),
            Fixed(r.h, 1)
        ));
    }
    if let Some(canvas) = ctx.canvas() {
        let _ = canvas.set_attribute("data-domains", &spots.join(";"));
        let _ = canvas.set_attribute("data-domain-labels", &named.join(";"));
    }
    ring.clear
}

/// A followed object's copies over a CRUSH hierarchy: a line from its placement group's
/// cell to each OSD of the group's acting set on the inner ring, the primary's thicker,
/// each numbered in acting-set order — a student sees them land in different hosts.
/// Writes `data-copies` (`osd x y` per copy, where its line ends) and `data-copies-of`
/// (the object) for the page's tests.
fn draw_copies(
    ctx: &CanvasRenderingContext2d,
    (g, s): (&RingGeometry, &Scale),
    d: &Domains,
    (key, e, sim): (&str, &crate::engine::contract::Explanation, &Simulation),
    p: &Palette,
) {
    let How::PlacementGroup {
        pg,
        pg_num,
        replicas,
        ..
    } = &e.how
    else {
        return;
    };
    let ring = DomainRing::fit(g, s, d.slots);
    let cell = ((2 * u64::from(*pg) + 1) << 31) / u64::from((*pg_num).max(1));
    let from = g.point(cell as u32, g.radius - s.band * 0.6);
    let copies = std::iter::once(e.owner).chain(replicas.iter().copied());
    let mut ends = Vec::new();
    ctx.set_line_cap("round");
    for (rank, server) in copies.enumerate() {
        let Some(spot) = d.spot(server) else { continue };
        let to = ring.spot_centre(g, d, spot);
        let width = if rank == 0 { 4.0 } else { 2.5 };
        line(ctx, from, to, width + 2.0, p.outline);
        line(ctx, from, to, width, &server_colour(server, p));
        ctx.begin_path();
        let _ = ctx.arc(to.0, to.1, ring.dot + 3.0, 0.0, TAU);
        ctx.set_line_width(2.5);
        ctx.set_stroke_style_str(p.outline);
        ctx.stroke();
        // The copy's number on its line, a little way out from the OSD.
        let badge = s.font_px * 0.62;
        let t = (ring.dot + 4.0 + badge) / math::hypot(from.0 - to.0, from.1 - to.1).max(1.0);
        let (bx, by) = (to.0 + (from.0 - to.0) * t, to.1 + (from.1 - to.1) * t);
        ctx.begin_path();
        let _ = ctx.arc(bx, by, badge, 0.0, TAU);
        ctx.set_fill_style_str(p.background);
        ctx.fill();
        ctx.set_line_width(1.5);
        ctx.stroke();
        ctx.set_font(&font(s.font_px * 0.8, true));
        ctx.set_text_align("center");
        ctx.set_text_baseline("middle");
        ctx.set_fill_style_str(p.text);
        let _ = ctx.fill_text(&(rank + 1).to_string(), bx, by);
        let name = sim.server(server).map_or("", |s| s.name.as_str());
        ends.push(format!("{name} {} {}", Fixed(to.0, 1), Fixed(to.1, 1)));
    }
    ctx.set_line_cap("butt");
    if let Some(canvas) = ctx.canvas() {
        let _ = canvas.set_attribute("data-copies", &ends.join(";"));
        let _ = canvas.set_attribute("data-copies-of", key);
    }
}

/// Where bucket `b` of an inner ring of `cells` is, at radius `r`: the middle of its cell.
fn bucket_point(g: &RingGeometry, cells: u32, b: f64, r: f64) -> (f64, f64) {
    let a = (b + 0.5) / f64::from(cells) * TAU - TAU / 4.0;
    (g.cx + r * math::cos(a), g.cy + r * math::sin(a))
}

/// What a bucket algorithm keeps besides its buckets, drawn from its own state: the
/// ranges a key is drawn in (an arc per range inside the buckets, numbered), Memento's
/// replacements (an arrow from each removed bucket to its replacer), and Anchor's and Dx's
/// whole capacity as a grid (working buckets in their holder's colour, removed ones
/// crossed, the reserve faint; Anchor's next buckets to come back numbered from the top of
/// its stack). Returns how far out from the centre its words may reach, inside the ranges.
fn draw_structure(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    picture: &BucketPicture,
    grid: Option<Grid>,
    sim: &Simulation,
    p: &Palette,
) -> f64 {
    let mut clear = g.radius * 0.575;
    let algo = sim.settings().algo.name();
    // The first keys' lookups: jump's jumps (no other structure to draw), Anchor's and Dx's
    // passes through their grid.
    let traffic = (matches!(picture.structure, Structure::None) || grid.is_some())
        .then(|| traffic(sim, picture.capacity));
    let cells = picture.ring_cells;
    let font_px = s.tick_font_px();
    let inner = bucket_radius(g) - s.band * 0.45 - font_px * 1.7;
    ctx.set_font(&font(font_px * 0.9, false));
    ctx.set_fill_style_str(p.muted);
    ctx.set_stroke_style_str(p.muted);
    ctx.set_line_width(2.0);
    match &picture.structure {
        Structure::Ranges(ranges) => {
            let bands = range_bands(algo, ranges, picture.holders.len() as u32);
            clear = draw_ranges(ctx, g, s, &bands, cells, inner);
        }
        Structure::Replacements(pairs) => {
            for &(removed, replacer) in pairs {
                let (x1, y1) = bucket_point(g, cells, f64::from(removed), inner);
                let (x2, y2) = bucket_point(g, cells, f64::from(replacer), inner);
                let (cx, cy) = ((x1 + x2 + g.cx) / 3.0, (y1 + y2 + g.cy) / 3.0);
                ctx.begin_path();
                ctx.move_to(x1, y1);
                ctx.quadratic_curve_to(cx, cy, x2, y2);
                ctx.stroke();
                arrow_head(ctx, (cx, cy), (x2, y2), 9.0);
            }
        }
        Structure::None if grid.is_none() => {
            let hops = traffic.as_ref().map_or(&[][..], |t| &t.hops[..]);
            draw_jumps(ctx, g, s, hops, cells, p);
        }
        _ => {}
    }
    let Some(grid) = grid else {
        return clear;
    };
    // Buckets no server holds, shaded by how often the first keys' chains passed them.
    let visits = traffic.as_ref().map_or(&[][..], |t| &t.visits[..]);
    let busiest = f64::from(visits.iter().copied().max().unwrap_or(0).max(1));
    let gap = (grid.cell * 0.12).max(0.5);
    for b in 0..picture.capacity {
        let (x, y) = grid.corner(b);
        let holder = picture.holders.get(b as usize).copied();
        let passed = f64::from(visits.get(b as usize).copied().unwrap_or(0)) / busiest;
        ctx.set_global_alpha(match holder {
            Some(h) if h != NO_OWNER => 1.0,
            _ => 0.06 + passed * 0.8,
        });
        ctx.set_fill_style_str(&match holder {
            Some(h) if h != NO_OWNER => server_colour(h, p),
            _ => p.muted.to_owned(),
        });
        ctx.fill_rect(
            x + gap,
            y + gap,
            grid.cell - 2.0 * gap,
            grid.cell - 2.0 * gap,
        );
        if holder == Some(NO_OWNER) {
            ctx.set_global_alpha(1.0);
            ctx.set_line_width(1.5);
            ctx.begin_path();
            ctx.move_to(x + gap, y + gap);
            ctx.line_to(x + grid.cell - gap, y + grid.cell - gap);
            ctx.stroke();
        }
    }
    ctx.set_global_alpha(1.0);
    if grid.cell >= 9.0 {
        // Each row's first bucket number in the gutter on its left (where it can be read:
        // cells of 14 px and more).
        ctx.set_font(&font((grid.cell * 0.5).min(font_px), false));
        ctx.set_fill_style_str(p.muted);
        ctx.set_text_align("right");
        ctx.set_text_baseline("middle");
        let numbered = if grid.cell >= 14.0 {
            grid.rows(picture.capacity)
        } else {
            0
        };
        for row in 0..numbered {
            let (x, y) = grid.centre(row * grid.cols);
            let _ = ctx.fill_text(&(row * grid.cols).to_string(), x - grid.cell * 0.62, y);
        }
        // Anchor's next buckets to come back, in the order they would: plain numbers in
        // their cells (a followed key's steps are discs at the cells' corners).
        ctx.set_font(&font(grid.cell * 0.55, true));
        ctx.set_fill_style_str(p.text);
        ctx.set_text_align("center");
        for (i, b) in picture.stack_top(5).into_iter().enumerate() {
            let (x, y) = grid.centre(b);
            let _ = ctx.fill_text(&(i + 1).to_string(), x, y);
        }
    }
    clear
}

/// Ranges as shaded bands inside the buckets, alternate ones darker, laid out by the
/// algorithm's rule ([`range_bands`]), as wide as the room above the centre's words allows.
/// Returns how far out from the centre its words may reach.
fn draw_ranges(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    bands: &[RangeBand],
    cells: u32,
    inner: f64,
) -> f64 {
    let mut clear = g.radius * 0.575;
    let levels = f64::from(bands.iter().map(|b| b.level + 1).max().unwrap_or(1));
    let width = (s.band * 2.0).min((inner - g.radius * 0.26) / (levels * 1.12));
    let sweep = TAU / f64::from(cells);
    let angle = |bucket: u32| f64::from(bucket) * sweep - TAU / 4.0;
    ctx.set_line_width(width);
    for (i, b) in bands.iter().enumerate() {
        let r = inner - width * (0.5 + f64::from(b.level) * 1.12);
        let (start, end) = (angle(b.low) + sweep * 0.04, angle(b.high) - sweep * 0.04);
        // Flip's enclosing draw, lighter: the ranges inside it are what it flips.
        ctx.set_global_alpha(match i % 2 {
            _ if b.redrawn_from.is_some() => 0.12,
            0 => 0.28,
            _ => 0.5,
        });
        ctx.begin_path();
        let _ = ctx.arc(g.cx, g.cy, r, start, end.max(start));
        ctx.stroke();
        ctx.set_global_alpha(1.0);
        if let Some(from) = b.redrawn_from {
            // Past the last bucket: hatched, a draw there is drawn again.
            ctx.set_line_width(1.5);
            ctx.begin_path();
            let (a0, a1) = (angle(from), angle(b.high));
            let (ri, ro) = (r - width / 2.0, r + width / 2.0);
            let strokes = ((a1 - a0) * r / 6.0).max(1.0) as usize;
            for k in 0..=strokes {
                let a = a0 + (a1 - a0) * k as f64 / strokes as f64;
                ctx.move_to(g.cx + ri * math::cos(a), g.cy + ri * math::sin(a));
                ctx.line_to(
                    g.cx + ro * math::cos(a + 0.05),
                    g.cy + ro * math::sin(a + 0.05),
                );
            }
            ctx.stroke();
            ctx.set_line_width(width);
        }
        if b.high - b.low > 1 {
            let (x, y) = bucket_point(g, cells, f64::from(b.low + b.high - 1) / 2.0, r);
            let _ = ctx.fill_text(&range_text(b.low, b.high), x, y);
        }
        clear = clear.min(r - width * 0.6);
    }
    ctx.set_line_width(2.0);
    clear
}

/// Jump's and Guava's jumps over the first keys, bowed through the inside as a followed
/// key's are: wider and darker the more keys made them.
fn draw_jumps(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    hops: &[((u32, u32), u32)],
    cells: u32,
    p: &Palette,
) {
    let most = f64::from(hops.iter().map(|h| h.1).max().unwrap_or(1));
    let r = bucket_radius(g) - s.band * 0.8;
    ctx.set_stroke_style_str(p.muted);
    for &((a, b), n) in hops {
        let share = f64::from(n) / most;
        let ((x1, y1), (x2, y2)) = (
            bucket_point(g, cells, f64::from(a), r),
            bucket_point(g, cells, f64::from(b), r),
        );
        ctx.set_line_width(1.5 + share * s.band);
        ctx.set_global_alpha(0.25 + share * 0.5);
        ctx.begin_path();
        ctx.move_to(x1, y1);
        ctx.quadratic_curve_to(
            g.cx + (x1 + x2 - 2.0 * g.cx) * 0.2,
            g.cy + (y1 + y2 - 2.0 * g.cy) * 0.2,
            x2,
            y2,
        );
        ctx.stroke();
    }
    ctx.set_global_alpha(1.0);
    ctx.set_line_width(2.0);
}

fn circle(ctx: &CanvasRenderingContext2d, g: &RingGeometry, r: f64) {
    ctx.begin_path();
    let _ = ctx.arc(g.cx, g.cy, r, 0.0, TAU);
}

/// Adds the arc `(after, upto]` at radius `r` to the current path.
fn arc_path(ctx: &CanvasRenderingContext2d, g: &RingGeometry, r: f64, after: u32, upto: u32) {
    let start = canvas_angle(after);
    let sweep = arc_len(after, upto) as f64 / RING_SPAN * TAU;
    ctx.move_to(g.cx + r * math::cos(start), g.cy + r * math::sin(start));
    let _ = ctx.arc(g.cx, g.cy, r, start, start + sweep);
}

/// Whether the band sums each server's vnodes into one arc: the whole ring is in view and
/// its arcs are too fine to tell apart ([`too_fine`]). Zoomed in, the true arcs are drawn.
fn summed_band(g: &RingGeometry, s: &Scale, state: &PageState) -> bool {
    let (_, span) = visible_arc(g, s.width, s.height);
    span >= 1 << 32
        && state
            .sim
            .ring()
            .is_some_and(|r| too_fine(r.len(), TAU * g.radius))
}

/// The band: each segment an arc at `radius`, `width` wide, in its owner's colour.
fn draw_band(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    (radius, band): (f64, f64),
    segments: &[crate::render::scene::Segment],
    p: &Palette,
) {
    // One path per server keeps the canvas calls proportional to servers.
    let mut servers: Vec<ServerId> = segments.iter().map(|s| s.server).collect();
    crate::engine::order::sort(&mut servers);
    servers.dedup();
    ctx.set_line_width(band);
    ctx.set_line_cap("butt");
    for server in servers {
        ctx.begin_path();
        for seg in segments.iter().filter(|s| s.server == server) {
            arc_path(ctx, g, radius, seg.after, seg.upto);
        }
        ctx.set_stroke_style_str(&owner_colour(server, p));
        ctx.stroke();
    }
}

/// Where the keys' names went, for tests that check none overlaps (the ring's canvas and
/// the handout's pictures carry it): a line "name x y w h" a name, CSS pixels. `Fixed`,
/// not f64's Display, which would bring float formatting into the page.
pub fn key_labels_record(labels: &[KeyLabel]) -> String {
    let n = |v: f64| Fixed(v, 1).to_string();
    let lines: Vec<String> = labels
        .iter()
        .map(|k| {
            let r = &k.label.rect;
            format!(
                "{} {} {} {} {}",
                k.label.text,
                n(r.x),
                n(r.y),
                n(r.w),
                n(r.h)
            )
        })
        .collect();
    lines.join("\n")
}

/// Up to this many keys in view are named on the ring.
const NAMED_KEYS: usize = 24;

/// Names the keys at `places` inside the ring, none over another (see
/// [`place_key_labels`]): the key looked up (the one a tour's narration is about) first, a
/// thin line to a name that stands away from its dot; returns where the names went.
#[allow(clippy::too_many_arguments)] // The scene's parts, as draw_keys has them.
fn draw_key_names(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    state: &PageState,
    places: &[usize],
    shown: &[u32],
    radius: &dyn Fn(usize) -> f64,
    dot: f64,
    p: &Palette,
) -> Vec<KeyLabel> {
    let sim = &state.sim;
    let ids = &sim.keys().ids;
    let named: Vec<(u32, f64, String)> = places
        .iter()
        .map(|&place| (shown[place], radius(place) - dot, sim.key_name(ids[place])))
        .collect();
    let looked_up = state.lookup.as_ref().map(|l| l.key.as_str());
    let first = named.iter().position(|k| Some(k.2.as_str()) == looked_up);
    ctx.set_font(&font(s.tick_font_px(), false));
    // The centre's title and the lines under it (as wide as draw_centre lets them be)
    // are not covered.
    let lines_below = if summed_band(g, s, state) { 2.3 } else { 1.15 };
    let title = Rect {
        x: g.cx - g.radius * 0.575,
        y: g.cy - s.font_px * 1.6,
        w: g.radius * 1.15,
        h: s.font_px * (1.6 + lines_below),
    };
    let measure = |t: &str| ctx.measure_text(t).map_or(0.0, |m| m.width());
    // Nor is the followed key's sum under it ("6 mod 4 = 2 → mod 5 = 1", drawn by
    // draw_walk at the same place and size; mod-N's in the slices' hole, two lines).
    let mut keep_clear = vec![title];
    if let Some(Walk::Modulo { .. }) = followed_walk(state) {
        let hole = residue_annulus(g).0;
        keep_clear.push(Rect {
            x: g.cx - hole,
            y: g.cy + s.font_px * 1.1,
            w: hole * 2.0,
            h: s.font_px * 3.0,
        });
    }
    if let Some(walk @ Walk::Cell { .. }) = followed_walk(state) {
        let sum = walk_sum(state, walk);
        if !sum.is_empty() {
            let wide = set_sum_font(ctx, s, &sum, g.radius * 1.3);
            keep_clear.push(Rect {
                x: g.cx - wide / 2.0,
                y: g.cy + g.radius * SUM_DEPTH - s.font_px * 0.75,
                w: wide,
                h: s.font_px * 1.5,
            });
            ctx.set_font(&font(s.tick_font_px(), false));
        }
    }
    let labels = place_key_labels(g, s, &named, first, &keep_clear, &measure);
    ctx.set_stroke_style_str(p.muted);
    ctx.set_line_width(1.0);
    for l in labels.iter().filter(|l| l.moved) {
        let r = &l.label.rect;
        // From the dot to the box's nearest point.
        let near = (
            (l.dot.0).clamp(r.x, r.x + r.w),
            (l.dot.1).clamp(r.y, r.y + r.h),
        );
        ctx.begin_path();
        ctx.move_to(l.dot.0, l.dot.1);
        ctx.line_to(near.0, near.1);
        ctx.stroke();
    }
    ctx.set_fill_style_str(p.text);
    ctx.set_text_baseline("middle");
    ctx.set_text_align("center");
    for l in &labels {
        let r = &l.label.rect;
        let _ = ctx.fill_text(&l.label.text, r.x + r.w / 2.0, r.y + r.h / 2.0);
    }
    labels
}

fn draw_keys(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    state: &PageState,
    from: u32,
    span: u64,
    p: &Palette,
) -> Vec<KeyLabel> {
    let sim = &state.sim;
    let keys = sim.keys();
    let inner = key_radius(g, s);
    // Keys with no ring position sit in their owner's fan (all of them, while few).
    let fans = Fans::of(sim).filter(|_| keys.len() <= MAX_KEY_DOTS);
    let shown = match &fans {
        Some(fans) => std::borrow::Cow::Owned(fans.positions(sim)),
        None => std::borrow::Cow::Borrowed(keys.positions.as_slice()),
    };
    let [a, b] = if span >= 1 << 32 || fans.is_some() {
        [0..keys.len(), 0..0]
    } else {
        keys.places_in_arc(from.wrapping_sub(1), from.wrapping_add((span - 1) as u32))
    };
    let in_view = a.len() + b.len();
    if in_view <= MAX_KEY_DOTS {
        let depth = (g.radius * 0.16).min(s.height * 0.2);
        // A handful of keys (a tour's objects) are drawn larger and named.
        let named = in_view <= NAMED_KEYS;
        let dot = s.key_dot(named);
        let places: Vec<usize> = a.chain(b).collect();
        let radius = |place: usize| {
            // A stable radial jitter per key spreads dots that share an angle.
            let jitter =
                (splitmix64(u64::from(keys.ids[place])) >> 40) as f64 / f64::from(1u32 << 24);
            inner - jitter * depth
        };
        let mut dots: Vec<(ServerId, f64, f64)> = places
            .iter()
            .map(|&place| {
                let (x, y) = g.point(shown[place], radius(place));
                (sim.owners()[place], x, y)
            })
            .collect();
        fill_dots(ctx, &mut dots, dot, false, p);
        if named {
            return draw_key_names(ctx, g, s, state, &places, &shown, &radius, dot, p);
        }
        return Vec::new();
    }
    let arc_px = span as f64 / RING_SPAN * TAU * inner;
    let bins = (arc_px.min(s.width * 3.5) as usize).clamp(180, 1440);
    let profile = density_profile(&keys.positions, sim.owners(), from, span, bins);
    let peak = profile.iter().map(|b| b.0).max().unwrap_or(1).max(1) as f64;
    let depth = (g.radius * 0.22).min(s.height * 0.25);
    let bin_span = span as f64 / bins as f64;
    let width = (bin_span / RING_SPAN * TAU * inner + 0.6).min(s.width);
    ctx.set_line_width(width);
    // One path per owner (as the band does): a stroke per bin cost the page's first frame
    // at a million keys ~1,400 strokes to rasterise.
    let mut owners: Vec<ServerId> = profile.iter().filter(|b| b.0 > 0).map(|b| b.1).collect();
    crate::engine::order::sort(&mut owners);
    owners.dedup();
    for owner in owners {
        ctx.begin_path();
        for (bin, &(count, _)) in profile
            .iter()
            .enumerate()
            .filter(|(_, b)| b.0 > 0 && b.1 == owner)
        {
            let pos = f64::from(from) + (bin as f64 + 0.5) * bin_span;
            let angle = pos / RING_SPAN * TAU;
            let len = depth * (count as f64 / peak);
            let (sn, cs) = (math::sin(angle), math::cos(angle));
            ctx.move_to(g.cx + inner * sn, g.cy - inner * cs);
            ctx.line_to(g.cx + (inner - len) * sn, g.cy - (inner - len) * cs);
        }
        ctx.set_stroke_style_str(&owner_colour(owner, p));
        ctx.stroke();
    }
    Vec::new()
}

/// Dots in one canvas path at most: the software rasteriser pays far more for one path of
/// thousands of overlapping circles than for the same circles in pieces (a Chromium trace of
/// a CARP change at a million keys: 2,000 walking dots in one path took 65 ms to stroke and
/// 20 ms to fill, every frame of the walk).
const DOTS_PER_PATH: usize = 200;

/// Fills the dots `(owner, x, y)` of radius `r`, a path per colour (in pieces of
/// [`DOTS_PER_PATH`]), with a white rim when `outline` (a disc 1 px larger underneath: a
/// fill, which costs a fraction of a stroke).
fn fill_dots(
    ctx: &CanvasRenderingContext2d,
    dots: &mut [(ServerId, f64, f64)],
    r: f64,
    outline: bool,
    p: &Palette,
) {
    let discs = |piece: &[(ServerId, f64, f64)], radius: f64, colour: &str| {
        ctx.begin_path();
        for &(_, x, y) in piece {
            ctx.move_to(x + radius, y);
            let _ = ctx.arc(x, y, radius, 0.0, TAU);
        }
        ctx.set_fill_style_str(colour);
        ctx.fill();
    };
    crate::engine::order::sort_by_key(dots, |d| u64::from(d.0));
    for run in dots.chunk_by(|a, b| a.0 == b.0) {
        // The rims first, the colour over them: where dots crowd, their colours show
        // rather than a tangle of white rims.
        if outline {
            for piece in run.chunks(DOTS_PER_PATH) {
                discs(piece, r + 1.0, p.outline);
            }
        }
        let colour = owner_colour(run[0].0, p);
        for piece in run.chunks(DOTS_PER_PATH) {
            discs(piece, r, &colour);
        }
    }
}

fn owner_colour(owner: ServerId, p: &Palette) -> String {
    if owner == NO_OWNER {
        p.muted.to_owned()
    } else {
        server_colour(owner, p)
    }
}

fn font(px: f64, bold: bool) -> String {
    format!(
        "{}{}px system-ui, sans-serif",
        if bold { "600 " } else { "" },
        Fixed(px, 0)
    )
}

/// A text measurer for the context's current font.
fn measurer(ctx: &CanvasRenderingContext2d) -> impl Fn(&str) -> f64 + '_ {
    |t: &str| ctx.measure_text(t).map_or(0.0, |m| m.width())
}

/// Draws `label`'s text in its box (the box's top-left is the text's top-left).
fn fill_label(ctx: &CanvasRenderingContext2d, label: &Label) {
    ctx.set_text_align("left");
    ctx.set_text_baseline("middle");
    let _ = ctx.fill_text(&label.text, label.rect.x, label.rect.y + label.rect.h / 2.0);
}

/// Draws the tick marks and their labels; returns the labels' boxes.
fn draw_ticks(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    p: &Palette,
) -> Vec<Rect> {
    ctx.set_font(&font(s.tick_font_px(), false));
    ctx.set_fill_style_str(p.muted);
    ctx.set_stroke_style_str(p.muted);
    ctx.set_line_width(1.0);
    for (pos, _) in TICKS {
        let (x1, y1) = g.point(pos, g.radius + s.band * 0.6);
        let (x2, y2) = g.point(pos, g.radius + s.band * 1.2);
        ctx.begin_path();
        ctx.move_to(x1, y1);
        ctx.line_to(x2, y2);
        ctx.stroke();
    }
    let labels = tick_labels(g, s, &measurer(ctx));
    for l in &labels {
        fill_label(ctx, l);
    }
    labels.into_iter().map(|l| l.rect).collect()
}

fn draw_server_labels(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    state: &PageState,
    ticks: &[Rect],
    w: &Words,
    p: &Palette,
) {
    let sim = &state.sim;
    // A summed band: each marker in the middle of its server's one arc.
    let anchors = match summed_band(g, s, state)
        .then(|| sim.ring_shares())
        .flatten()
    {
        Some(shares) => share_arcs(&shares)
            .iter()
            .map(|a| {
                let half = (arc_len(a.after, a.upto) / 2) as u32;
                (a.server, a.after.wrapping_add(half.max(1)))
            })
            .collect(),
        None => marker_positions(sim),
    };
    let shown: Vec<(ServerId, u32)> = anchors
        .into_iter()
        .filter(|&(id, pos)| {
            let (x, y) = g.point(pos, g.radius);
            sim.server(id).is_some()
                && x > -50.0
                && y > -50.0
                && x < s.width + 50.0
                && y < s.height + 50.0
        })
        .collect();
    // Each label's names: the full one, then the page's shortened ones (the names of one
    // cluster told apart by where they differ), tried only when the longer finds no room.
    let full: Vec<String> = shown
        .iter()
        .filter_map(|&(id, _)| {
            let server = sim.server(id)?;
            Some(if server.up {
                server.name.clone()
            } else {
                fill(w.down_label, &[&server.name])
            })
        })
        .collect();
    let markers = stack_markers(g, s, &shown, name_choices(&full));
    let marker_radius = Marker::radius(s);
    for m in &markers {
        let up = sim.server(m.server).is_some_and(|s| s.up);
        let colour = server_colour(m.server, p);
        let (mx, my) = m.centre(g);
        if m.lift > 0.0 {
            // A lifted marker's stem down to its point on the ring.
            line(ctx, g.point(m.position, g.radius), (mx, my), 2.0, &colour);
        }
        ctx.begin_path();
        let _ = ctx.arc(mx, my, marker_radius, 0.0, TAU);
        ctx.set_fill_style_str(if up { &colour } else { p.background });
        ctx.fill();
        ctx.set_line_width(2.5);
        ctx.set_stroke_style_str(if up { p.outline } else { &colour });
        ctx.stroke();
    }
    // Labels are written in the text ink (legible on either theme, whatever the server's
    // colour) after a swatch of the server's colour, which the label's box makes room for.
    ctx.set_font(&font(s.font_px, true));
    let swatch = s.font_px * 0.95;
    let measure = measurer(ctx);
    let with_swatch = |t: &str| measure(t) + swatch;
    let placed = place_labels(g, s, &markers, ticks, &with_swatch);
    for label in &placed {
        let colour = server_colour(label.server, p);
        if let Some((from, to)) = label.leader {
            // A thin leader from the marker to the label's nearest point.
            ctx.begin_path();
            ctx.move_to(from.0, from.1);
            ctx.line_to(to.0, to.1);
            ctx.set_line_width(1.0);
            ctx.set_stroke_style_str(&colour);
            ctx.stroke();
        }
        let r = label.label.rect;
        let side = swatch * 0.7;
        ctx.set_fill_style_str(&colour);
        ctx.fill_rect(r.x, r.y + (r.h - side) / 2.0, side, side);
        ctx.set_line_width(1.0);
        ctx.set_stroke_style_str(p.outline);
        ctx.stroke_rect(r.x, r.y + (r.h - side) / 2.0, side, side);
        ctx.set_fill_style_str(p.text);
        ctx.set_text_align("left");
        ctx.set_text_baseline("middle");
        let _ = ctx.fill_text(&label.label.text, r.x + swatch, r.y + r.h / 2.0);
    }
    expose_layout(ctx, g, s, &markers, &placed);
}

/// Writes what the labels and markers cover onto the canvas (`data-labels`: `id x y w h` per
/// label; `data-markers`: `id x y r` per marker; `data-band`: the centre, the band's
/// outer radius (inside which the band and the keys are drawn) and its width), so that a test
/// checks that no label covers data from the page's own layout, not by guessing at pixels.
fn expose_layout(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    markers: &[Marker],
    placed: &[ServerLabel],
) {
    let Some(canvas) = ctx.canvas() else { return };
    let join = |items: Vec<String>| items.join(";");
    let labels = placed.iter().map(|l| {
        let r = l.label.rect;
        format!(
            "{} {} {} {} {}",
            l.server,
            Fixed(r.x, 1),
            Fixed(r.y, 1),
            Fixed(r.w, 1),
            Fixed(r.h, 1)
        )
    });
    let dots = markers.iter().map(|m| {
        let (x, y) = m.centre(g);
        format!(
            "{} {} {} {}",
            m.server,
            Fixed(x, 1),
            Fixed(y, 1),
            Fixed(Marker::radius(s), 1)
        )
    });
    let band = format!(
        "{} {} {} {}",
        Fixed(g.cx, 1),
        Fixed(g.cy, 1),
        Fixed(g.radius + s.band / 2.0, 1),
        Fixed(s.band, 1)
    );
    let _ = canvas.set_attribute("data-labels", &join(labels.collect()));
    let _ = canvas.set_attribute("data-markers", &join(dots.collect()));
    let _ = canvas.set_attribute("data-band", &band);
    // The smallest text drawn on the ring (ticks, key names; server labels are larger).
    let _ = canvas.set_attribute("data-text-px", &Fixed(s.tick_font_px(), 1).to_string());
}

fn draw_centre(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    (middle, room, smallest): (f64, f64, f64),
    state: &PageState,
    w: &Words,
    p: &Palette,
) {
    let (sim, font_px) = (&state.sim, s.font_px);
    let algo = sim.settings().algo;
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    // Both lines stay inside the inner circle (`room` wide: inside a bucket algorithm's
    // ranges): a line too wide is drawn smaller, and left out when it would be unreadable
    // (a small embed). (draw_key_names keeps its names off 1.15 radii.)
    let fitted = |text: &str, px: f64, bold: bool| -> Option<f64> {
        ctx.set_font(&font(px, bold));
        let wide = ctx.measure_text(text).map_or(0.0, |m| m.width());
        let px = if wide > room { px * room / wide } else { px };
        (px >= smallest).then(|| {
            ctx.set_font(&font(px, bold));
            px
        })
    };
    // Each line on a plate of the background: a picture's own structure (jump's jumps, the
    // slices) may pass under it.
    let plated = |text: &str, y: f64, px: f64, colour: &str| {
        let wide = ctx.measure_text(text).map_or(0.0, |m| m.width());
        ctx.set_global_alpha(0.85);
        ctx.set_fill_style_str(p.background);
        ctx.fill_rect(g.cx - wide / 2.0 - 4.0, y - px * 0.65, wide + 8.0, px * 1.3);
        ctx.set_global_alpha(1.0);
        ctx.set_fill_style_str(colour);
        let _ = ctx.fill_text(text, g.cx, y);
    };
    let title = algorithm_title(w, algo);
    // A title the inside squeezes under the labels' size goes on two lines, split at the
    // space nearest its middle (JumpBack's in its ranges: 9 px on one line at 1280×720).
    let whole = fitted(title, font_px * 1.25, true).unwrap_or(0.0);
    let split = (title.char_indices().filter(|&(_, c)| c == ' '))
        .min_by_key(|&(i, _)| i.abs_diff(title.len() / 2))
        .filter(|_| whole < font_px);
    match split {
        Some((at, _)) => {
            // Both lines or neither: half a title reads as another word.
            let lines = [(&title[..at], 2.05), (&title[at + 1..], 0.85)];
            let sizes = lines.map(|(text, _)| fitted(text, font_px * 1.25, true));
            if let [Some(_), Some(_)] = sizes {
                for ((text, up), px) in lines.into_iter().zip(sizes.into_iter().flatten()) {
                    fitted(text, px, true);
                    plated(text, middle - font_px * up, px, p.text);
                }
            }
        }
        None if whole > 0.0 => plated(title, middle - font_px * 0.9, whole, p.text),
        None => {}
    }
    let keys = group_thousands(sim.keys().len() as u64);
    let line = match algo.shape() {
        Shape::Vnodes => (w.centre_ring)(
            sim.servers().len(),
            &group_thousands(sim.ring().map_or(0, |r| r.len()) as u64),
            &keys,
        ),
        Shape::SlotRanges => (w.centre_slots)(sim.servers().len(), &keys),
        _ => (w.centre_other)(sim.servers().len(), &keys),
    };
    if let Some(px) = fitted(&line, font_px * 0.9, false) {
        plated(&line, middle + font_px * 0.6, px, p.muted);
    }
    // The notes under them: how the band is drawn, and when the keys bunch up because of
    // the hash (said, so that it does not read as a broken picture).
    let notes = [
        summed_band(g, s, state).then_some(w.centre_summed),
        (sim.ring().is_some() && keys_cluster(&sim.keys().positions)).then_some(w.centre_clustered),
    ];
    let mut said = Vec::new();
    for note in notes.into_iter().flatten() {
        if let Some(px) = fitted(note, font_px * 0.8, false) {
            let y = middle + font_px * (1.8 + 1.1 * said.len() as f64);
            plated(note, y, px, p.muted);
            said.push(note);
        }
    }
    if let Some(canvas) = ctx.canvas() {
        let _ = canvas.set_attribute("data-centre-notes", &said.join(" | "));
    }
}

/// What moves on top of the static layer.
pub struct Overlay<'a> {
    /// The animation clock.
    pub clock: Clock,
    /// Moved keys of the last change.
    pub moved: &'a [Walker],
    /// The idle stream.
    pub idle: &'a [Walker],
    /// Keep the moved keys marked, where they sit, once their walk is over.
    pub marks: bool,
}

/// Draws the overlay for one frame.
pub fn draw_overlay(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    state: &PageState,
    o: &Overlay,
    w: &Words,
    p: &Palette,
) {
    let inner = key_radius(g, s);
    let dot = s.moving_dot();
    let fade = o.clock.highlight();
    if let (Some(last), true) = (&state.last, fade > 0.0) {
        ctx.set_global_alpha(fade);
        // A pixel of the circle a bin, when the arcs are more than that.
        for arc in arc_runs(&last.movement.arcs, (TAU * g.radius) as usize) {
            if arc.server != NO_OWNER {
                ctx.begin_path();
                arc_path(ctx, g, g.radius + s.band * 1.05, arc.after, arc.upto);
                ctx.set_line_width(s.band * 0.45);
                ctx.set_stroke_style_str(&server_colour(arc.server, p));
                ctx.stroke();
            }
            ctx.begin_path();
            arc_path(ctx, g, g.radius + s.band * 0.72, arc.after, arc.upto);
            ctx.set_line_width(2.0);
            ctx.set_stroke_style_str(p.outline);
            ctx.stroke();
        }
        ctx.set_global_alpha(1.0);
    }
    let walked = o.clock.walked();
    if walked < 1.0 {
        let mut dots: Vec<(ServerId, f64, f64)> = o
            .moved
            .iter()
            .map(|w| {
                let at = if w.direct {
                    walk_shorter(w.from, w.to, walked)
                } else {
                    walk_position(w.from, w.to, walked)
                };
                let (x, y) = g.point(at, inner + s.band * 0.2);
                (if walked < 0.15 { w.was } else { w.now }, x, y)
            })
            .collect();
        fill_dots(ctx, &mut dots, dot * 1.3, true, p);
    } else if o.marks && marks_crowd(o.moved.len(), dot * 1.3, TAU * inner) {
        // Too many to mark one by one: the arcs they sit in, in who took them, on a
        // light rim.
        let runs = mark_runs(
            o.moved.iter().map(|w| (w.rest, w.now)),
            (TAU * inner / (dot * 2.0)) as usize,
        );
        let r = inner + s.band * 0.2;
        ctx.set_line_cap("butt");
        for (width, outline) in [(dot * 2.6 + 2.0, true), (dot * 2.6, false)] {
            ctx.set_line_width(width);
            for run in &runs {
                ctx.begin_path();
                arc_path(ctx, g, r, run.after, run.upto);
                let colour = owner_colour(run.server, p);
                ctx.set_stroke_style_str(if outline { p.outline } else { &colour });
                ctx.stroke();
            }
        }
    } else if o.marks {
        // Until the next change, each moved key stays marked where it sits, outlined, in
        // its new owner's colour.
        let mut dots: Vec<(ServerId, f64, f64)> = o
            .moved
            .iter()
            .map(|w| {
                let (x, y) = g.point(w.rest, inner + s.band * 0.2);
                (w.now, x, y)
            })
            .collect();
        fill_dots(ctx, &mut dots, dot * 1.3, true, p);
    }
    if o.clock.playing {
        for w in o.idle {
            let t = o.clock.idle_progress(w.phase);
            let (x, y) = g.point(walk_position(w.from, w.to, t), inner + s.band * 0.2);
            ctx.set_global_alpha(1.0 - t * 0.6);
            ctx.begin_path();
            let _ = ctx.arc(x, y, dot, 0.0, TAU);
            ctx.set_fill_style_str(&owner_colour(w.now, p));
            ctx.fill();
        }
        ctx.set_global_alpha(1.0);
    }
    if let Some(l) = &state.lookup {
        draw_followed(ctx, (g, s), state, l, o.clock.idle_progress(0.0), w, p);
    }
}

/// The followed key: its pin, the loupe, a CRUSH map's copies and the algorithm's walk.
fn draw_followed(
    ctx: &CanvasRenderingContext2d,
    (g, s): (&RingGeometry, &Scale),
    state: &PageState,
    l: &Lookup,
    progress: f64,
    w: &Words,
    p: &Palette,
) {
    draw_lookup(ctx, g, s, l, progress, p);
    let loupe = Loupe::of(&l.explanation, &state.sim, TAU * g.radius);
    if let Some(canvas) = ctx.canvas() {
        let drawn = loupe.and_then(|loupe| draw_loupe(ctx, g, s, &loupe, state, w, p));
        let _ = canvas.set_attribute("data-loupe", &drawn.unwrap_or_default());
    }
    // The copies' lines under the walk's sum (a line to the far side crosses the
    // middle).
    let domains = Domains::of(&state.sim);
    if let Some(domains) = &domains {
        draw_copies(
            ctx,
            (g, s),
            domains,
            (&l.key, &l.explanation, &state.sim),
            p,
        );
    }
    if let Some(walk) = followed_walk(state) {
        let depth = domains.map(|d| DomainRing::fit(g, s, d.slots).clear - s.font_px);
        draw_walk(
            ctx,
            g,
            s,
            walk,
            &walk_sum(state, walk),
            (&state.sim, depth),
            p,
        );
    }
}

/// The followed key's walk magnified ([`Loupe`]), under the centre's words: the stretch of
/// ring around the key laid out straight, coloured by who owns it as the ring is drawn, its
/// points as ticks, the key's pin and an arrow to the point that takes it (a dashed line to
/// HAProxy's losing neighbour), the rule and the magnification above. `None` when the inner
/// circle has no room for it (a small embed); else the record the page exposes for its
/// tests: the box, then the key's and the chosen point's x, then how far apart the points
/// either side of the key are, in pixels.
fn draw_loupe(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    l: &Loupe,
    state: &PageState,
    w: &Words,
    p: &Palette,
) -> Option<String> {
    let Rect {
        x: x0,
        y: top,
        w: wide,
        h: tall,
    } = loupe::place(g, s)?;
    let (tick, bottom) = (s.tick_font_px(), top + tall);
    ctx.set_global_alpha(0.92);
    ctx.set_fill_style_str(p.background);
    ctx.fill_rect(x0, top, wide, tall);
    ctx.set_global_alpha(1.0);
    ctx.set_line_width(1.0);
    ctx.set_stroke_style_str(p.muted);
    ctx.stroke_rect(x0, top, wide, tall);
    let (left, length) = (x0 + tick, wide - tick * 2.0);
    let x = |position: u32| left + l.at(position) * length;
    // Rows: the caption, the ruler with the walk's arrow above it, the names.
    let mark = ((tall - tick * 3.6) / 2.8).clamp(4.0, 14.0);
    let ruler = top + tall / 2.0 + mark * 0.3;
    // Who owns the stretch, as a band under the ruler.
    ctx.set_line_cap("butt");
    for &(from, to, server) in &l.owners {
        let (from, to) = ((left + from * length, ruler), (left + to * length, ruler));
        line(ctx, from, to, mark * 0.8, &owner_colour(server, p));
    }
    // The points, as ticks across it.
    for point in &l.points {
        let at = x(point.position);
        let colour = owner_colour(point.server, p);
        line(ctx, (at, ruler - mark), (at, ruler + mark), 3.0, &colour);
    }
    let (key, chosen) = (x(l.key), x(l.chosen.position));
    let colour = owner_colour(l.chosen.server, p);
    // HAProxy's other neighbour, dashed: the distance it lost on.
    let above = ruler - mark * 1.6;
    if let Some(rival) = l.rival {
        let _ = ctx.set_line_dash(&js_sys::Array::of2(&4.0.into(), &4.0.into()));
        line(ctx, (key, above), (x(rival.position), above), 1.5, p.muted);
        let _ = ctx.set_line_dash(&js_sys::Array::new());
    }
    // The walk: from the key's pin to the chosen point, in its colour.
    line(ctx, (key, above), (chosen, above), 3.0, &colour);
    ctx.set_fill_style_str(&colour);
    if (chosen - key).abs() > mark {
        arrow_head(ctx, (key, above), (chosen, above), mark);
    }
    // The chosen point, a marker as on the ring; the key's pin.
    ctx.begin_path();
    let _ = ctx.arc(chosen, ruler, mark * 0.9, 0.0, TAU);
    ctx.fill();
    ctx.set_line_width(2.0);
    ctx.set_stroke_style_str(p.outline);
    ctx.stroke();
    line(
        ctx,
        (key, ruler + mark),
        (key, above - mark * 0.8),
        2.0,
        p.outline,
    );
    // The rule and magnification above; the key's name and the server's under the ruler.
    let times = length / (f64::from(l.span) / 4_294_967_296.0 * TAU * g.radius);
    let rule = l.told(state.sim.settings().algo.name());
    let caption = fill(w.loupe[rule], &[&group_thousands(times as u64)]);
    ctx.set_font(&font(tick, false));
    ctx.set_text_baseline("middle");
    ctx.set_text_align("center");
    ctx.set_fill_style_str(p.text);
    let _ = ctx.fill_text_with_max_width(&caption, g.cx, top + tick * 0.9, length);
    draw_loupe_names(
        ctx,
        (left, length, bottom - tick * 0.9),
        (key, chosen),
        l,
        state,
        p,
    );
    let gap = x(l.around[1].position) - x(l.around[0].position);
    Some(format!(
        "{} {} {} {} {} {} {}",
        Fixed(x0, 1),
        Fixed(top, 1),
        Fixed(wide, 1),
        Fixed(tall, 1),
        Fixed(key, 1),
        Fixed(chosen, 1),
        Fixed(gap, 1)
    ))
}

/// Under the loupe's ruler (from `left`, `length` long, the names' middle at `below`): the
/// chosen server's name under its point, and the key's under its pin where it clears it.
fn draw_loupe_names(
    ctx: &CanvasRenderingContext2d,
    (left, length, below): (f64, f64, f64),
    (key, chosen): (f64, f64),
    l: &Loupe,
    state: &PageState,
    p: &Palette,
) {
    // Each name centred under its mark inside the box; the key's only where it clears the
    // server's (the lookup box above names it too).
    let span_of = |text: &str, at: f64| {
        let half = ctx.measure_text(text).map_or(0.0, |m| m.width()) / 2.0;
        let at = at.clamp(left + half, left + length - half);
        (at - half, at + half)
    };
    // Shortened as the page shortens them all, so the name stays told apart from the others.
    let ids: Vec<ServerId> = state.sim.servers().iter().map(|x| x.id).collect();
    let names = short_names(ctx, &state.sim, &ids, length * 0.45);
    let owner = ids
        .iter()
        .position(|&id| id == l.chosen.server)
        .map_or("", |i| &names[i]);
    let name = state.lookup.as_ref().map_or("", |k| k.key.as_str());
    let (a, b) = (span_of(owner, chosen), span_of(name, key));
    let _ = ctx.fill_text(owner, (a.0 + a.1) / 2.0, below);
    let room = a.1 - a.0 + b.1 - b.0;
    if (a.0 + a.1 - b.0 - b.1).abs() / 2.0 > room / 2.0 + 8.0 {
        ctx.set_fill_style_str(p.muted);
        let _ = ctx.fill_text(name, (b.0 + b.1) / 2.0, below);
    }
}

/// The followed key's walk on the algorithm's own picture, when it has one.
pub fn followed_walk(state: &PageState) -> Option<Walk<'_>> {
    let capacity = state.sim.placement().buckets().map_or(0, |b| b.1);
    Walk::of(&state.lookup.as_ref()?.explanation, capacity)
}

/// The arithmetic drawn under the centre's words for a followed key's walk: mod-N's sum
/// (before and after the last change, when it changed N), Maglev's table entry; "" for the
/// other walks.
pub fn walk_sum(state: &PageState, walk: Walk) -> String {
    match walk {
        Walk::Modulo { value, live } => {
            modulo_sum(value, live.len(), state.last.as_ref().map(|l| l.up_before))
        }
        Walk::Cell {
            cell, size, group, ..
        } => cell_sum(cell, size, group),
        _ => String::new(),
    }
}

/// Draws a followed key's [`Walk`]: hops between the inner ring's buckets (numbered, the
/// last outlined in its holder's colour), probes across the ring with the reach of each
/// (the winner's solid), a bar per server's score (the winner outlined), or `sum` (mod-N's,
/// Maglev's cell, outlined on the ring).
fn draw_walk(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    walk: Walk,
    sum: &str,
    (sim, sum_depth): (&Simulation, Option<f64>),
    p: &Palette,
) {
    ctx.set_line_cap("round");
    match walk {
        Walk::Hops {
            cells,
            grid,
            path,
            holders,
        } => {
            // Anchor's and Dx's chains on the grid of their capacity (none in a frame too
            // small for it: the last bucket is still outlined on the ring).
            let on = grid.and_then(|capacity| Grid::fit(g, s, capacity));
            draw_hops(ctx, g, s, (cells, on, grid.is_some()), path, holders, p)
        }
        Walk::Probes { probes, best } => draw_probes(ctx, g, s, probes, best, p),
        Walk::Scores { scores, winner } => {
            // In the score table's place: this key's scores, larger.
            let rect = score_table_rect(g);
            ctx.set_fill_style_str(p.background);
            ctx.fill_rect(rect.x - 4.0, rect.y - 4.0, rect.w + 8.0, rect.h + 8.0);
            let bars = score_bars(scores);
            draw_score_rows(ctx, s, rect, &[("", &bars, winner)], false, sim, p);
        }
        Walk::Modulo { .. } | Walk::Cell { .. } => {
            // The arithmetic, under the centre's words: mod-N's sum, Maglev's table entry
            // (its cell, outlined on the ring, where the key's pin already points).
            if let Walk::Cell {
                cell, size, owner, ..
            } = walk
            {
                let (from, to) = (
                    ((u64::from(cell) << 32) / u64::from(size)) as u32,
                    ((u64::from(cell + 1) << 32) / u64::from(size)) as u32,
                );
                // At least a few degrees wide, to be seen.
                let pad = (to.wrapping_sub(from) / 2).max(1 << 25);
                ctx.begin_path();
                arc_path(
                    ctx,
                    g,
                    g.radius,
                    from.wrapping_sub(pad),
                    to.wrapping_add(pad),
                );
                ctx.set_line_width(s.band * 1.8);
                ctx.set_stroke_style_str(p.outline);
                ctx.stroke();
                ctx.set_line_width(s.band);
                ctx.set_stroke_style_str(&owner_colour(owner, p));
                ctx.stroke();
            }
            if let Walk::Modulo { value, live } = walk {
                // The slice the remainder picks, outlined.
                if !live.is_empty() {
                    let n = live.len();
                    residue_slice(ctx, g, value as usize % n, n);
                    ctx.set_line_width(3.0);
                    ctx.set_stroke_style_str(p.outline);
                    ctx.stroke();
                }
            }
            ctx.set_text_align("center");
            ctx.set_text_baseline("middle");
            if let Walk::Modulo { .. } = walk {
                // mod-N's in the slices' hole, under the centre's words, the hash above its
                // remainder: written over the slices it would cover a slice's number.
                let hole = residue_annulus(g).0 - 4.0;
                let parts = sum.split_once(' ').unwrap_or((sum, ""));
                for (line, text) in [(1.9, parts.0), (3.3, parts.1)] {
                    let depth = s.font_px * line;
                    let chord = 2.0 * (hole * hole - depth * depth).max(0.0).sqrt();
                    set_sum_font(ctx, s, text, chord);
                    ctx.set_fill_style_str(p.text);
                    let _ = ctx.fill_text(text, g.cx, g.cy + depth);
                }
            } else {
                // Inside a CRUSH map's inner ring (`sum_depth`: how far either side the
                // centre's words may reach), under the centre's two lines.
                let room = sum_depth.map_or(g.radius * 1.3, |clear| 2.0 * clear - 12.0);
                let wide = set_sum_font(ctx, s, sum, room);
                // Not over the OSDs of a CRUSH map's inner ring (a small frame): the lookup's
                // card says it.
                if sum_depth.is_none() || wide <= room {
                    // On a plate, over whatever the picture draws there.
                    let tall = s.font_px * 1.6;
                    let depth = sum_depth.map_or(g.radius * SUM_DEPTH, |_| s.font_px * 2.4);
                    let y = g.cy + depth;
                    ctx.set_fill_style_str(p.background);
                    ctx.set_global_alpha(0.85);
                    ctx.fill_rect(g.cx - wide / 2.0 - 6.0, y - tall / 2.0, wide + 12.0, tall);
                    ctx.set_global_alpha(1.0);
                    ctx.set_fill_style_str(p.text);
                    let _ = ctx.fill_text(sum, g.cx, y);
                }
            }
        }
    }
    ctx.set_line_cap("butt");
}

/// How far below the centre (in radii) the followed key's sum is written.
const SUM_DEPTH: f64 = 0.45;

/// Sets the font of the followed key's sum ("6 mod 4 = 2 → mod 5 = 1"): bold, 1.2 × the
/// labels' size, smaller when it would be wider than `room` (1.3 radii: it would cross the
/// keys' dots, which start about 0.8 radii out) — but never under the ring's smallest text
/// (a projector's back row reads it). Returns its width.
fn set_sum_font(ctx: &CanvasRenderingContext2d, s: &Scale, sum: &str, room: f64) -> f64 {
    let px = s.font_px * 1.2;
    ctx.set_font(&font(px, true));
    let wide = ctx.measure_text(sum).map_or(0.0, |m| m.width());
    if wide <= room {
        return wide;
    }
    let fitted = (px * room / wide).max(s.tick_font_px());
    ctx.set_font(&font(fitted, true));
    wide * fitted / px
}

/// Hops between the inner ring's buckets (or the capacity grid's cells), numbered, the
/// last bucket outlined on the ring in its holder's colour.
fn draw_hops(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    (cells, on, gridded): (u32, Option<Grid>, bool),
    path: &[u32],
    holders: &[ServerId],
    p: &Palette,
) {
    let disc = match on {
        Some(grid) => (grid.cell * 0.36).max(s.tick_font_px() * 0.75),
        None => s.tick_font_px() * 0.8,
    };
    let r = bucket_radius(g) - s.band * 0.8;
    let at = |b: u32| match on {
        Some(grid) => grid.centre(b),
        None => bucket_point(g, cells, f64::from(b), r),
    };
    // On the grid a step's disc sits on its cell's top-left corner, clear of the number
    // the cell may hold (Anchor's removal stack).
    let mark = |b: u32| match on {
        Some(grid) => {
            let (x, y) = grid.corner(b);
            (x + grid.cell * 0.12, y + grid.cell * 0.12)
        }
        None => at(b),
    };
    // A chain on the grid when the grid is not drawn: only its end shows.
    let path = if gridded && on.is_none() {
        &path[path.len().saturating_sub(1)..]
    } else {
        path
    };
    // The bucket that works first, so the hops and their heads are drawn over it.
    if let (Some(&last), Some(grid)) = (path.last(), on) {
        // The bucket that works, outlined in its holder's colour.
        let holder = holders.get(last as usize).copied().unwrap_or(NO_OWNER);
        let (x, y) = grid.corner(last);
        ctx.set_line_width((grid.cell * 0.16).max(2.0));
        ctx.set_stroke_style_str(&owner_colour(holder, p));
        ctx.stroke_rect(x, y, grid.cell, grid.cell);
    } else if let Some(&last) = path.last() {
        let holder = holders.get(last as usize).copied().unwrap_or(NO_OWNER);
        let sweep = TAU / f64::from(cells);
        let start = f64::from(last) * sweep - TAU / 4.0;
        ctx.begin_path();
        let _ = ctx.arc(g.cx, g.cy, bucket_radius(g), start, start + sweep);
        ctx.set_line_width(s.band * 1.4);
        ctx.set_line_cap("butt");
        ctx.set_stroke_style_str(&owner_colour(holder, p));
        ctx.stroke();
    }
    ctx.set_stroke_style_str(p.outline);
    ctx.set_fill_style_str(p.outline);
    if let Some(grid) = on {
        // Each cell the chain passes on the way, outlined: the step's disc is on its corner.
        ctx.set_line_width(2.0);
        for &b in &path[..path.len().saturating_sub(1)] {
            let (x, y) = grid.corner(b);
            ctx.stroke_rect(x + 1.0, y + 1.0, grid.cell - 2.0, grid.cell - 2.0);
        }
    }
    ctx.set_line_width(2.5);
    for hop in path.windows(2) {
        let ((x1, y1), (x2, y2)) = (at(hop[0]), at(hop[1]));
        if on.is_some() {
            // On the grid, straight and thin: the numbers tell the order.
            ctx.set_line_width(1.5);
            ctx.set_global_alpha(0.7);
            ctx.begin_path();
            ctx.move_to(x1, y1);
            ctx.line_to(x2, y2);
            ctx.stroke();
            ctx.set_global_alpha(1.0);
            continue;
        }
        // Round the outside of the ring of buckets, forward (clockwise) to a higher bucket
        // and back to a lower one, so no hop crosses the centre's words or the ranges
        // inside: out from the step's disc, along, and in to the next disc's edge.
        let (a1, a2) = (
            math::atan2(y1 - g.cy, x1 - g.cx),
            math::atan2(y2 - g.cy, x2 - g.cx),
        );
        let along = bucket_radius(g) + s.band * 1.1;
        let end = r + disc;
        ctx.begin_path();
        ctx.move_to(x1, y1);
        let _ = ctx.arc_with_anticlockwise(g.cx, g.cy, along, a1, a2, hop[1] < hop[0]);
        let (ex, ey) = (g.cx + end * math::cos(a2), g.cy + end * math::sin(a2));
        ctx.line_to(ex, ey);
        ctx.stroke();
        let (ox, oy) = (g.cx + along * math::cos(a2), g.cy + along * math::sin(a2));
        arrow_head(ctx, (ox, oy), (ex, ey), 10.0);
    }
    ctx.set_font(&font(disc * 1.1, true));
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    for (i, &b) in path.iter().enumerate() {
        let (x, y) = mark(b);
        ctx.begin_path();
        let _ = ctx.arc(x, y, disc, 0.0, TAU);
        ctx.set_fill_style_str(p.outline);
        ctx.fill();
        ctx.set_fill_style_str(p.background);
        let _ = ctx.fill_text(&(i + 1).to_string(), x, y);
    }
}

/// Each probe across the ring, with its reach clockwise to the point it lands on (the
/// winner's solid and wide).
fn draw_probes(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    probes: &[Probe],
    best: Option<usize>,
    p: &Palette,
) {
    let r = g.radius + s.band * 1.2;
    for (i, probe) in probes.iter().enumerate() {
        let (point, server, probe) = (probe.point.position, probe.point.server, probe.position);
        let won = best == Some(i);
        let (x1, y1) = g.point(probe, g.radius - s.band);
        let (x2, y2) = g.point(probe, r + s.band * 0.5);
        ctx.begin_path();
        ctx.move_to(x1, y1);
        ctx.line_to(x2, y2);
        ctx.set_line_width(if won { 3.0 } else { 1.5 });
        ctx.set_stroke_style_str(p.outline);
        ctx.stroke();
        // Its reach: clockwise to the point it lands on.
        ctx.begin_path();
        arc_path(ctx, g, if won { r + s.band * 0.7 } else { r }, probe, point);
        ctx.set_line_width(if won { 5.0 } else { 1.5 });
        ctx.set_global_alpha(if won { 1.0 } else { 0.45 });
        ctx.set_stroke_style_str(&owner_colour(server, p));
        ctx.stroke();
        ctx.set_global_alpha(1.0);
    }
}

/// Rendezvous' and CARP's arithmetic for the first keys ([`draw_score_rows`]), as many as
/// stay readable (none in a small frame: a followed key's bars are still drawn there), and
/// under them which end wins.
#[allow(clippy::too_many_arguments)]
fn draw_score_table(
    ctx: &CanvasRenderingContext2d,
    s: &Scale,
    rect: Rect,
    rows: &[ScoreRow],
    best: Best,
    sim: &Simulation,
    w: &Words,
    p: &Palette,
) {
    let tick = s.tick_font_px();
    let caption = tick * 1.5;
    let fit = ((rect.h - caption * 2.0) / (tick * 1.6)).max(0.0) as usize;
    let rows: Vec<_> = rows
        .iter()
        .take(fit)
        .map(|r| (r.key.as_str(), &r.bars[..], r.winner))
        .collect();
    if rows.is_empty() {
        return;
    }
    let table = Rect {
        h: rect.h - caption,
        ..rect
    };
    draw_score_rows(ctx, s, table, &rows, false, sim, p);
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    ctx.set_fill_style_str(p.muted);
    let said = fill(
        w.pic_score_caption,
        &[w.pic_best[usize::from(best == Best::Lowest)]],
    );
    let _ = ctx.fill_text(
        &said,
        rect.x + rect.w / 2.0,
        rect.y + rect.h - caption * 0.5,
    );
}

/// One row of [`draw_score_rows`]: its key (empty: none), each server's share, the winner.
type ScoreLine<'a> = (&'a str, &'a [(ServerId, f64)], ServerId);

/// Score bars in `rect`: a row per key (named at its left when it has a name), a bar per
/// server in list order (its `share` of the row's height), the servers named under the
/// columns in the room they have (the page's short names). Each row's winner is solid,
/// outlined, with an arrow onto it; with several rows the others are faint. With `line`,
/// the bars' full height is drawn as a line (bounded loads' capacity). Returns the line's
/// height: the top of the first row.
fn draw_score_rows(
    ctx: &CanvasRenderingContext2d,
    s: &Scale,
    rect: Rect,
    rows: &[ScoreLine],
    line: bool,
    sim: &Simulation,
    p: &Palette,
) -> f64 {
    let Some(&(_, first, _)) = rows.first() else {
        return rect.y;
    };
    let tick = s.tick_font_px();
    ctx.set_font(&font(tick, false));
    // A long key keeps its start and end (the page's rule for narrow places).
    let keys: Vec<&str> = rows.iter().map(|r| r.0).collect();
    let keys = crate::text::fit_names(&keys, 14);
    let measure = measurer(ctx);
    let key_w = match keys.iter().map(|k| measure(k)).fold(0.0, f64::max) {
        0.0 => 0.0,
        wide => wide.min(rect.w * 0.3) + tick * 0.6,
    };
    // Bars no wider than a few letters: a few servers do not fill the table with blocks.
    let n = first.len().max(1) as f64;
    let step = ((rect.w - key_w) / n).min(tick * 5.0);
    let left = rect.x + key_w + (rect.w - key_w - step * n) / 2.0;
    let base = rect.y + rect.h - tick * 1.4;
    let row_h = (base - rect.y) / rows.len() as f64;
    let (tall, faint) = (row_h - tick.min(row_h * 0.14), rows.len() > 1);
    let ids: Vec<ServerId> = first.iter().map(|b| b.0).collect();
    ctx.set_text_align("center");
    ctx.set_text_baseline("top");
    ctx.set_fill_style_str(p.text);
    for (j, name) in short_names(ctx, sim, &ids, step * 0.92).iter().enumerate() {
        let _ = ctx.fill_text(name, left + step * (j as f64 + 0.5), base + tick * 0.25);
    }
    ctx.set_text_baseline("middle");
    for (i, &(_, bars, winner)) in rows.iter().enumerate() {
        let bottom = rect.y + row_h * (i + 1) as f64;
        ctx.set_text_align("right");
        ctx.set_fill_style_str(p.muted);
        let _ = ctx.fill_text(&keys[i], left - tick * 0.4, bottom - row_h * 0.5);
        if faint {
            ctx.set_fill_style_str(p.track);
            ctx.fill_rect(left, bottom, step * n, 1.0);
        }
        for (j, &(server, share)) in bars.iter().enumerate() {
            let x = left + step * (j as f64 + 0.12);
            let h = (share * tall).max(1.5);
            let won = server == winner;
            ctx.set_global_alpha(if won || !faint { 1.0 } else { 0.55 });
            ctx.set_fill_style_str(&owner_colour(server, p));
            ctx.fill_rect(x, bottom - h, step * 0.76, h);
            ctx.set_global_alpha(1.0);
            if won {
                ctx.set_line_width(2.0);
                ctx.set_stroke_style_str(p.outline);
                ctx.stroke_rect(x, bottom - h, step * 0.76, h);
                // The winner's mark: an arrow onto its bar (lowest or highest).
                let (mid, tip) = (x + step * 0.38, bottom - h - 3.0);
                let size = (row_h * 0.3).min(10.0);
                ctx.set_fill_style_str(p.outline);
                arrow_head(ctx, (mid, tip - size), (mid, tip), size);
            }
        }
    }
    if line {
        ctx.begin_path();
        ctx.move_to(left, base - tall);
        ctx.line_to(left + step * n, base - tall);
        ctx.set_line_width(2.0);
        ctx.set_stroke_style_str(p.outline);
        ctx.stroke();
    }
    base - tall
}

/// `ids`' names shortened by the page's rule to what fits `room` pixels at the current font.
fn short_names(
    ctx: &CanvasRenderingContext2d,
    sim: &Simulation,
    ids: &[ServerId],
    room: f64,
) -> Vec<String> {
    let full: Vec<&str> = ids
        .iter()
        .map(|&id| sim.server(id).map_or("?", |s| s.name.as_str()))
        .collect();
    let letter = ctx.measure_text("m").map_or(8.0, |m| m.width()).max(1.0);
    crate::text::fit_names(&full, (room / letter) as usize)
}

/// The path of mod-N's slice `i` of `n` (clockwise from the top) on its annulus.
fn residue_slice(ctx: &CanvasRenderingContext2d, g: &RingGeometry, i: usize, n: usize) {
    let (inner, outer) = residue_annulus(g);
    let sweep = TAU / n as f64;
    let start = i as f64 * sweep - TAU / 4.0;
    ctx.begin_path();
    let _ = ctx.arc(g.cx, g.cy, outer, start, start + sweep);
    let _ = ctx.arc_with_anticlockwise(g.cx, g.cy, inner, start + sweep, start, true);
    ctx.close_path();
}

/// mod-N's residues: `hash mod N` cut into N equal slices round the centre, slice `i` in the
/// colour of the `i`-th live server, numbered and named — re-cut whenever N changes, which
/// is why almost every key moves.
fn draw_residues(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    live: &[ServerId],
    sim: &Simulation,
    p: &Palette,
) {
    let n = live.len();
    let (inner, outer) = residue_annulus(g);
    let sweep = TAU / n as f64;
    for (i, &id) in live.iter().enumerate() {
        residue_slice(ctx, g, i, n);
        ctx.set_global_alpha(0.3);
        ctx.set_fill_style_str(&server_colour(id, p));
        ctx.fill();
        ctx.set_global_alpha(1.0);
        ctx.set_line_width(2.0);
        ctx.set_stroke_style_str(p.background);
        ctx.stroke();
    }
    // Numbers and names while a slice is wide enough to hold them.
    let tick = s.tick_font_px();
    let middle = (inner + outer) / 2.0;
    let room = middle * sweep;
    if room < tick * 1.2 {
        return;
    }
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    ctx.set_font(&font(tick * 0.95, false));
    let names = short_names(ctx, sim, live, room * 0.9);
    let named = room >= tick * 2.5 && outer - inner >= tick * 3.2;
    for (i, name) in names.iter().enumerate() {
        let a = (i as f64 + 0.5) * sweep - TAU / 4.0;
        let (x, y) = (g.cx + middle * math::cos(a), g.cy + middle * math::sin(a));
        let lift = if named { tick * 0.6 } else { 0.0 };
        ctx.set_font(&font(tick * 1.15, true));
        ctx.set_fill_style_str(p.text);
        let _ = ctx.fill_text(&i.to_string(), x, y - lift);
        if named {
            ctx.set_font(&font(tick * 0.95, false));
            ctx.set_fill_style_str(p.muted);
            let _ = ctx.fill_text(name, x, y + lift);
        }
    }
}

/// A filled arrowhead at `to`, pointing away from `from`, `size` pixels long.
/// Strokes the straight line `from` → `to`, `width` wide, in `colour`.
fn line(
    ctx: &CanvasRenderingContext2d,
    from: (f64, f64),
    to: (f64, f64),
    width: f64,
    colour: &str,
) {
    ctx.begin_path();
    ctx.move_to(from.0, from.1);
    ctx.line_to(to.0, to.1);
    ctx.set_line_width(width);
    ctx.set_stroke_style_str(colour);
    ctx.stroke();
}

fn arrow_head(ctx: &CanvasRenderingContext2d, from: (f64, f64), to: (f64, f64), size: f64) {
    let a = math::atan2(to.1 - from.1, to.0 - from.0);
    ctx.begin_path();
    ctx.move_to(to.0, to.1);
    for turn in [2.6, -2.6] {
        ctx.line_to(
            to.0 + size * math::cos(a + turn),
            to.1 + size * math::sin(a + turn),
        );
    }
    ctx.close_path();
    ctx.fill();
}

fn draw_lookup(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    s: &Scale,
    l: &Lookup,
    t: f64,
    p: &Palette,
) {
    let colour = owner_colour(l.explanation.owner, p);
    let position = l.explanation.position;
    let r = g.radius + s.band * 1.9;
    // A followed key the last change moved: its old walk, dashed, to the old owner.
    let before = l.history.iter().rev().nth(1).and_then(|v| v.point);
    if let Some(old) = before.filter(|_| l.moved_last()) {
        ctx.begin_path();
        arc_path(ctx, g, r + s.band * 0.6, position, old);
        ctx.set_line_width(2.0);
        ctx.set_stroke_style_str(p.outline);
        let dash = js_sys::Array::of2(&6.0.into(), &5.0.into());
        let _ = ctx.set_line_dash(&dash);
        ctx.stroke();
        let _ = ctx.set_line_dash(&js_sys::Array::new());
    }
    if let Some(to) = l.owner_point() {
        // The path the key walks, as an arc outside the ring.
        ctx.begin_path();
        arc_path(ctx, g, r, position, to);
        ctx.set_line_width(3.0);
        ctx.set_stroke_style_str(&colour);
        ctx.stroke();
        let (x, y) = g.point(walk_position(position, to, t), r);
        ctx.begin_path();
        let _ = ctx.arc(x, y, 5.0, 0.0, TAU);
        ctx.set_fill_style_str(p.outline);
        ctx.fill();
    }
    // A pin at the key's own position.
    let (x1, y1) = g.point(position, g.radius - s.band);
    let (x2, y2) = g.point(position, r + s.band);
    ctx.begin_path();
    ctx.move_to(x1, y1);
    ctx.line_to(x2, y2);
    ctx.set_line_width(2.0);
    ctx.set_stroke_style_str(p.outline);
    ctx.stroke();
    ctx.begin_path();
    let _ = ctx.arc(x2, y2, 6.0, 0.0, TAU);
    ctx.set_fill_style_str(&colour);
    ctx.fill();
    ctx.set_stroke_style_str(p.outline);
    ctx.stroke();
}
