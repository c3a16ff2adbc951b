//! Strokes the ring on a 2D canvas. What to draw and where is computed natively in
//! [`crate::render`]; this file only turns it into canvas calls.
//!
//! Two layers. The *static* layer (the owned-arc band, vnode marks, keys as dots or a
//! density band, ticks, server labels) is drawn into an offscreen canvas only when the
//! state or the view changes; its cost does not grow with the number of vnodes or keys
//! (the band is drawn at screen resolution). The *overlay* is drawn every animation frame
//! on top of a copy of it: the arcs that changed hands (fading), keys walking clockwise to
//! their owner, and the looked-up key — a pure function of (state, view, clock).

use crate::engine::text::fill;
use crate::math;
use std::f64::consts::TAU;

use web_sys::CanvasRenderingContext2d;

use crate::engine::keys::splitmix64;
use crate::engine::placement::Shape;
use crate::engine::ring::{arc_len, ServerId, NO_OWNER};
use crate::engine::text::Fixed;
use crate::i18n::Words;
use crate::render::palette::Palette;
use crate::render::scene::{
    band_segments, display_cells, key_radius, marker_positions, place_key_labels, place_labels,
    tick_labels, visible_points, zoom_buttons_rect, Clock, Fans, KeyLabel, Label, Rect, Scale,
    Walker, MAX_KEY_DOTS, TICKS,
};
use crate::render::{
    canvas_angle, density_profile, server_colour, visible_arc, walk_position, walk_shorter,
    RingGeometry, RING_SPAN,
};
use crate::state::{Lookup, PageState};
use crate::words::{algorithm_title, group_thousands};

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
    if let Some(ring) = state.sim.ring() {
        // Two segments per pixel of the visible circumference.
        let arc_px = span as f64 / RING_SPAN * TAU * g.radius;
        let resolution = (arc_px * 2.0).clamp(64.0, 8192.0) as usize;
        draw_band(
            ctx,
            g,
            s.band,
            &band_segments(ring, from, span, resolution),
            p,
        );
        let marks = visible_points(ring, from, span);
        // Maglev's points are cell ends, not servers' points: its cells are the picture.
        let cells = state.sim.settings().algo.shape() == Shape::TableCells;
        if !cells && marks.iter().map(|r| r.len()).sum::<usize>() <= 600 {
            for i in marks.into_iter().flatten() {
                let point = ring.points()[i];
                let (x, y) = g.point(point.position, g.radius);
                ctx.begin_path();
                let _ = ctx.arc(x, y, (s.band * 0.32).max(2.5), 0.0, TAU);
                ctx.set_fill_style_str(&server_colour(point.server, p));
                ctx.fill();
                ctx.set_line_width(1.5);
                ctx.set_stroke_style_str(p.background);
                ctx.stroke();
            }
        }
    }
    if let Some((holders, _)) = state.sim.placement().buckets() {
        draw_buckets(ctx, g, s, holders, display_cells(holders.len()), p);
    }
    let key_labels = draw_keys(ctx, g, s, state, from, span, p);
    let ticks = draw_ticks(ctx, g, s, p);
    let mut obstacles = ticks;
    obstacles.push(zoom_buttons_rect(s.width));
    draw_server_labels(ctx, g, s, state, &obstacles, w, p);
    if g.cx > 0.0 && g.cx < s.width && g.cy > 0.0 && g.cy < s.height && g.radius < s.width {
        draw_centre(ctx, g, s.font_px, state, w, p);
    }
    key_labels
}

/// The radius of the bucket algorithms' inner ring of buckets.
pub fn bucket_radius(g: &RingGeometry) -> f64 {
    g.radius * 0.6
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

fn draw_band(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    band: f64,
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
            arc_path(ctx, g, g.radius, seg.after, seg.upto);
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
    // The centre's title is not covered.
    let title = Rect {
        x: g.cx - g.radius * 0.45,
        y: g.cy - s.font_px * 1.6,
        w: g.radius * 0.9,
        h: s.font_px * 2.6,
    };
    let measure = |t: &str| ctx.measure_text(t).map_or(0.0, |m| m.width());
    let labels = place_key_labels(g, s, &named, first, &[title], &measure);
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
        let dot = (s.width * 0.0045).clamp(1.6, 5.0) * if named { 1.8 } else { 1.0 };
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
    let markers: Vec<(ServerId, u32, String)> = marker_positions(sim)
        .into_iter()
        .filter_map(|(id, pos)| {
            let server = sim.server(id)?;
            let (x, y) = g.point(pos, g.radius);
            let on_screen = x > -50.0 && y > -50.0 && x < s.width + 50.0 && y < s.height + 50.0;
            let text = if server.up {
                server.name.clone()
            } else {
                fill(w.down_label, &[&server.name])
            };
            on_screen.then_some((id, pos, text))
        })
        .collect();
    for &(id, pos, _) in &markers {
        let up = sim.server(id).is_some_and(|s| s.up);
        let colour = server_colour(id, p);
        let (mx, my) = g.point(pos, g.radius);
        ctx.begin_path();
        let _ = ctx.arc(mx, my, s.band * 0.75, 0.0, TAU);
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
    for placed in place_labels(g, s, &markers, ticks, &with_swatch) {
        let colour = server_colour(placed.server, p);
        if placed.displaced {
            // A thin leader from the marker to the label's nearest corner.
            let (mx, my) = g.point(placed.position, g.radius + s.band * 0.8);
            let r = placed.label.rect;
            let tx = mx.clamp(r.x, r.x + r.w);
            let ty = my.clamp(r.y, r.y + r.h);
            ctx.begin_path();
            ctx.move_to(mx, my);
            ctx.line_to(tx, ty);
            ctx.set_line_width(1.0);
            ctx.set_stroke_style_str(&colour);
            ctx.stroke();
        }
        let r = placed.label.rect;
        let side = swatch * 0.7;
        ctx.set_fill_style_str(&colour);
        ctx.fill_rect(r.x, r.y + (r.h - side) / 2.0, side, side);
        ctx.set_line_width(1.0);
        ctx.set_stroke_style_str(p.outline);
        ctx.stroke_rect(r.x, r.y + (r.h - side) / 2.0, side, side);
        ctx.set_fill_style_str(p.text);
        ctx.set_text_align("left");
        ctx.set_text_baseline("middle");
        let _ = ctx.fill_text(&placed.label.text, r.x + swatch, r.y + r.h / 2.0);
    }
}

fn draw_centre(
    ctx: &CanvasRenderingContext2d,
    g: &RingGeometry,
    font_px: f64,
    state: &PageState,
    w: &Words,
    p: &Palette,
) {
    let sim = &state.sim;
    let algo = sim.settings().algo;
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    // Both lines stay inside the inner circle: a line too wide is drawn smaller, and left
    // out when it would be unreadable (a small embed).
    let room = g.radius * 1.15;
    let fitted = |text: &str, px: f64, bold: bool| -> Option<f64> {
        ctx.set_font(&font(px, bold));
        let wide = ctx.measure_text(text).map_or(0.0, |m| m.width());
        let px = if wide > room { px * room / wide } else { px };
        (px >= 8.0).then(|| {
            ctx.set_font(&font(px, bold));
            px
        })
    };
    let title = algorithm_title(w, algo);
    ctx.set_fill_style_str(p.text);
    if fitted(title, font_px * 1.25, true).is_some() {
        let _ = ctx.fill_text(title, g.cx, g.cy - font_px * 0.9);
    }
    ctx.set_fill_style_str(p.muted);
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
    if fitted(&line, font_px * 0.9, false).is_some() {
        let _ = ctx.fill_text(&line, g.cx, g.cy + font_px * 0.6);
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
    p: &Palette,
) {
    let inner = key_radius(g, s);
    let dot = (s.width * 0.005).clamp(2.0, 4.0);
    let fade = o.clock.highlight();
    if let (Some(last), true) = (&state.last, fade > 0.0) {
        ctx.set_global_alpha(fade);
        for arc in &last.movement.arcs {
            if arc.from != NO_OWNER {
                ctx.begin_path();
                arc_path(ctx, g, g.radius + s.band * 1.05, arc.after, arc.upto);
                ctx.set_line_width(s.band * 0.45);
                ctx.set_stroke_style_str(&server_colour(arc.from, p));
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
        draw_lookup(ctx, g, s, l, o.clock.idle_progress(0.0), p);
    }
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
